#pragma once
/// @file results_db.h
/// @brief The sweep results database (SQLite): one file holds any number of sweeps.
///
/// Tables (every row keyed by the sweep's id, the hash of its expanded points; see spec.h):
/// - `sweeps`: name, spec file and text, sampling method, point count, created (UTC), socsim
///   version, calibration used.
/// - `sweep_params`: the swept keys in spec order.
/// - `queries`: the benchmarks predicted at each board's points (family, benchmark, metric,
///   params, unit; identities of the measured dataset, never values).
/// - `points`: board, overrides, status (`pending`, `ok`, `failed`), error, resolved config
///   (YAML), run time (host seconds), socsim version, calibration, backend, host, finish time.
/// - `point_values`: the swept values of each point (text and number, for plots).
/// - `predictions`: predicted value, 80 % interval `lo`/`hi` (NULL where the committed calibration has no interval for the family),
///   status (`ok`, `not-modelled`, `failed`), reason, note.
/// - `breakdown`: the `explain` breakdown (part, simulated seconds) of each prediction.
/// A finished point is written in one transaction: an interrupted sweep keeps every finished
/// point and loses none half-written. Slurm tasks write their own shard files (same schema) and
/// `merge` folds them into the main database.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sweep/point_run.h"
#include "sweep/spec.h"

struct sqlite3;

namespace socsim::sweep {

/// Sweep-level metadata.
struct SweepInfo {
  std::string id, name, specFile, specText, method, createdUtc, socsimVersion, calibration;
  int points = 0;
  std::vector<std::string> keys;  ///< swept keys, in spec order
  int ok = 0, failed = 0, pending = 0;
};

/// One row of the long results table (export, plots, report).
struct ResultRow {
  int point = 0;
  std::string board;
  std::vector<std::string> values;  ///< swept values, parallel to SweepInfo::keys
  std::string family, benchmark, metric, params, unit;
  std::string status;               ///< ok | not-modelled | failed (point or prediction)
  std::optional<double> predicted, lo, hi;
  std::string reason;
};

class ResultsDb {
 public:
  /// Open (create) `file`; throws InputError when it cannot be opened or is not a socsim
  /// results database. `networkSafe` uses a rollback journal instead of WAL (shards on NFS).
  explicit ResultsDb(const std::string& file, bool networkSafe = false);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  /// Register the sweep, its queries and its points as `pending` (no-op for what exists).
  void registerSweep(const std::string& id, const Spec& spec, const std::vector<Point>& points,
                     const std::vector<std::vector<wl::Query>>& queries, const std::string& version,
                     const std::string& calibration);
  /// Points already recorded (status ok, or failed too when `includeFailed`).
  std::set<int> finished(const std::string& id, bool includeFailed) const;
  /// Record one finished point (replaces an earlier record of the same point) in one transaction.
  void record(const std::string& id, const PointResult& r, const std::string& version,
              const std::string& calibration, const std::string& backend);
  /// Fold a shard's finished points into this database; returns how many points it brought.
  int merge(const std::string& shardFile);

  /// Every sweep in the file (newest first).
  std::vector<SweepInfo> sweeps() const;
  /// The sweep named by id, id prefix or name (the newest of that name); "" = the only/newest
  /// one. Throws InputError when none matches.
  SweepInfo find(const std::string& idOrName) const;
  /// The long results table of a sweep, ordered by point then query.
  std::vector<ResultRow> results(const std::string& id) const;
  /// The explain breakdown of every prediction of a sweep.
  struct BreakdownRow {
    int point = 0;
    std::string benchmark, params, part;
    double seconds = 0;
  };
  std::vector<BreakdownRow> breakdown(const std::string& id) const;

  /// Per point: status, error, run time, backend, host, swept values.
  struct PointRow {
    int index = 0;
    std::string board, status, error, backend, host;
    std::optional<double> runSeconds;
    std::vector<std::string> values;
  };
  std::vector<PointRow> points(const std::string& id) const;

  sqlite3* handle() { return db_; }

 private:
  void exec(const std::string& sql) const;
  sqlite3* db_ = nullptr;
  std::string file_;
};

/// The calibration in use: "none (model defaults; calibration/params absent)" or a hash of the
/// files under `<sourceDir>/calibration/params`.
std::string calibrationFingerprint(const std::string& sourceDir);

}  // namespace socsim::sweep
