#pragma once
/// @file validate.h
/// @brief `socsim validate`: every measured row matched to a workload, predicted on its board's
///        platform, compared with the measured value.
///
/// Boards run in separate worker processes (one SystemC elaboration per process, DESIGN.md):
/// a crash or an exception on one board turns that board's rows into `failed:<reason>`, never
/// losing the other boards' results.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "calibration/dataset/measured_row.h"
#include "validation/metrics.h"
#include "workloads/workload.h"

namespace socsim::validation {

/// Outcome of predicting one query.
struct QueryResult {
  enum class Kind { Ok, NotModelled, Failed };
  Kind kind = Kind::NotModelled;
  double value = 0;
  std::optional<double> lo, hi;
  std::string reason;  ///< for NotModelled / Failed
  /// For Ok: the configured fact the value restates (Prediction::configEcho), else empty.
  std::string configEcho;
  /// The board config lacks what the query needs: a missing part (NotModelled, soc::MissingPart)
  /// or another InputError (Failed); `run`/`explain` exit 2 when every query ended so.
  bool badInput = false;
};

/// Predicts a batch of queries on one board (runs inside a worker process).
using BoardRunner =
    std::function<std::vector<QueryResult>(const std::string& board, const std::vector<wl::Query>&)>;

/// The written exclusion policy: which flagged rows are left out of the error summaries (they
/// are still predicted and printed, with status `excluded:<reason>`). Returns the reason, or
/// nullopt when the row counts.
std::optional<std::string> exclusionReason(const calib::MeasuredRow& row);
/// The whole scoring policy of one predicted row, the one predicate `socsim validate`,
/// `socsim calibrate` (its fit loss, report and `--check`) and `validate --cv` share: the flag
/// policy (exclusionReason), then `zero-measured` (a relative error of a zero measured value is
/// undefined), then `config-echo` (the prediction restates a configured fact, `configEcho`
/// from Prediction::configEcho: the audio bit rate, the display refresh, the cpufreq clock).
/// Returns the reason (the status is `excluded:<reason>`), or nullopt when the row is scored.
/// A row's flags are known before it is predicted (exclusionReason alone may pre-select rows);
/// the other two reasons need the prediction.
std::optional<std::string> scoringExclusion(const calib::MeasuredRow& row, double predicted,
                                            const std::string& configEcho);
/// One line per flag kind and what happens to it, for `socsim validate --policy` and the README.
std::string exclusionPolicyText();
/// The same policy as data: each excluding flag kind with what it means, in the text's order.
std::vector<std::pair<std::string, std::string>> exclusionPolicy();

struct ValidationRow {
  calib::MeasuredRow measured;
  std::optional<double> predicted, lo, hi;
  double error = 0;  ///< signed; rel fraction or pp (valid when predicted and not excluded)
  ErrorKind errorKind = ErrorKind::Relative;
  std::string status;  ///< ok | not-modelled | excluded:<reason> | failed:<reason>
  std::string split = "in-sample";
  std::string note;    ///< reason text for not-modelled / failed / excluded:config-echo
};

struct ValidateOptions {
  int jobs = 1;               ///< worker processes at once
  bool progress = false;      ///< progress lines on stderr (one per finished board)
  /// Throttle of the progress lines, seconds (0 = every board). The first and the last board's
  /// lines are always printed; in between, a line is printed only when this long has passed
  /// since the previous one (`socsim validate` uses 10 s when stderr is not a terminal, so a
  /// redirected log shows the run is alive without one line per board of a long run).
  double progressIntervalSeconds = 0;
  bool isolate = true;        ///< fork a worker per board (false: run in this process, tests)
  /// When set (isolate mode only): SIGINT/SIGTERM stop the run instead of killing the process;
  /// running workers are stopped, the boards that did not finish are reported as
  /// `failed:interrupted`, the rows already predicted are kept, and *interrupted becomes true.
  bool* interrupted = nullptr;
};

/// Match, predict and compare. `rows` come from the measured dataset (already filtered by
/// board/family); rows whose board has no config are predicted by `runner` too (it reports them
/// NotModelled with the reason).
std::vector<ValidationRow> validate(const std::vector<calib::MeasuredRow>& rows,
                                    const BoardRunner& runner, const ValidateOptions& opt);

/// Validation CSV columns (DESIGN.md): board,family,benchmark,metric,params,unit,measured,
/// predicted,error,error_kind,status,split, then the 80 % prediction interval lo,hi (empty for
/// families without a committed fit; calibration/fit/uncertainty.h).
const std::vector<std::string>& validateCsvHeader();
std::vector<std::string> toCsvFields(const ValidationRow& r);
/// Read back a validate.csv that toCsvFields wrote (`socsim validate --from DIR`: the report and
/// summaries of an earlier run without re-running it). Only the CSV's columns come back: the
/// measured row's source, section, table and flag and the not-modelled note are empty. Throws
/// InputError naming the file, line and column on a wrong header, field count or number.
std::vector<ValidationRow> readValidateCsv(const std::string& path);

/// Coverage and error summaries per family and per board.
struct GroupSummary {
  std::string name;
  int measured = 0;      ///< rows in the group
  int predicted = 0;     ///< rows with a prediction (ok + excluded)
  int counted = 0;       ///< rows in the error statistics (status ok)
  int excluded = 0, notModelled = 0, failed = 0;
  ErrorSummary rel;      ///< over rel rows
  ErrorSummary pp;       ///< over pp rows (CPU load, loss %)
};
struct Summary {
  GroupSummary total;
  std::vector<GroupSummary> families, boards;
};
Summary summarize(const std::vector<ValidationRow>& rows);

}  // namespace socsim::validation
