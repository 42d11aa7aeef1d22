#pragma once
/// @file local_backend.h
/// @brief The local backend: a pool of worker processes, one forked process per point.
///
/// Why one process per point: SystemC elaborates one design per process and modules cannot be
/// created after `sc_start` (DESIGN.md), and every point is a different platform. The parent has
/// already parsed the spec, the measured dataset's identities and the workload registry, so a
/// point costs a fork, a board load and an elaboration, not a new program start. Results come
/// back over a pipe and the parent alone writes the database.
///
/// A worker that crashes (signal) or exceeds the timeout is recorded as a failed point with the
/// reason and the tail of its stderr; the others go on. On SIGINT/SIGTERM the parent stops
/// starting points, kills the running ones (recording nothing for them: they are simply not
/// finished) and returns; every point finished before is already committed.
#include <functional>
#include <string>
#include <vector>

#include "sweep/point_run.h"
#include "sweep/spec.h"

namespace socsim::sweep {

struct LocalOptions {
  int jobs = 1;                  ///< worker processes at once
  double timeoutSeconds = 0;     ///< per point, wall clock; 0 = none
  bool progress = false;         ///< progress with ETA on stderr
  /// 0: a bar redrawn in place (a terminal); > 0: a plain line at most every this many
  /// seconds (stderr redirected to a log: the run still shows it is alive).
  double progressLineSeconds = 0;
};

struct RunSummary {
  int ran = 0, ok = 0, failed = 0;
  bool interrupted = false;
  double wallSeconds = 0;
};

/// What a worker process does with one point (runs in the child).
using PointWork = std::function<PointResult(const Point&)>;

/// Run `todo` (points of `spec`) and hand each finished point to `sink` (in the parent, in
/// completion order). `queries[b]` are the benchmarks of board b.
RunSummary runLocal(const Spec& spec, const std::vector<Point>& todo,
                    const std::vector<std::vector<wl::Query>>& queries, const LocalOptions& opt,
                    const std::function<void(const PointResult&)>& sink);
/// Same with the work of a point given (tests inject crashes and hangs here).
RunSummary runLocal(const std::vector<Point>& todo, const PointWork& work, const LocalOptions& opt,
                    const std::function<void(const PointResult&)>& sink);

/// "1h02m", "3m05s", "12s".
std::string formatDuration(double seconds);

}  // namespace socsim::sweep
