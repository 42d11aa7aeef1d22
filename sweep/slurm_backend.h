#pragma once
/// @file slurm_backend.h
/// @brief The Slurm backend: a job array whose tasks each run a chunk of points into their own
///        result shard (SQLite file), merged afterwards by `socsim sweep --collect`.
///
/// Each array task runs `socsim sweep SPEC --point-range A:B --db SHARD --shard`, with A and B
/// derived from `SLURM_ARRAY_TASK_ID` and the chunk size. Nothing writes one SQLite file over the
/// network from several nodes; the driver merges the shards (ResultsDb::merge). Only chunks that
/// hold unfinished points are submitted, so re-submitting a sweep resumes it.
#include <set>
#include <string>
#include <vector>

#include "sweep/results_db.h"
#include "sweep/spec.h"

namespace socsim::sweep {

struct SlurmOptions {
  std::string partition;        ///< `sbatch --partition` ("" = the cluster's default)
  int arrayChunk = 10;          ///< points per array task
  int cpusPerTask = 1;          ///< `--cpus-per-task`; the task runs that many worker processes
  std::string shardDir;         ///< where tasks write shards and logs (absolute)
  std::string socsimPath;       ///< the socsim binary the tasks run (absolute)
  std::string specPath;         ///< the spec (absolute)
  double timeoutSeconds = 0;    ///< per point, passed on to the tasks
};

struct Submitted {
  std::string jobId;            ///< "" when nothing was left to run
  int tasks = 0, points = 0;
  std::string script;           ///< path of the generated batch script
};

/// Write the batch script into `shardDir` and `sbatch` it (array of the chunks holding points not
/// in `finished`). Throws InputError when sbatch is missing or refuses the job (its message).
Submitted submitSlurm(const Spec& spec, const std::vector<Point>& points, const std::set<int>& finished,
                      const SlurmOptions& opt);

/// Follow job `jobId` with `squeue` until no task is left (status line on stderr when `progress`),
/// then ask `sacct` for the tasks' final states (returned as text; "" when accounting is not
/// configured). Returns early with what is known on SIGINT.
std::string waitSlurm(const std::string& jobId, bool progress);

/// Merge every `shard-*.db` in `shardDir` into `db`; returns the number of finished points merged.
int collectShards(ResultsDb& db, const std::string& shardDir);

/// Run a program (no shell) and capture its stdout; returns the exit status (-1 when it could not
/// be started). stderr is captured into `err` when given.
int runProgram(const std::vector<std::string>& argv, std::string& out, std::string* err = nullptr);

}  // namespace socsim::sweep
