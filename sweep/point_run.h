#pragma once
/// @file point_run.h
/// @brief One sweep point, simulated: the board loaded with the point's overrides, every selected
///        benchmark predicted with its `explain` breakdown. Runs in a worker process (one
///        SystemC elaboration per process, DESIGN.md), and its result crosses a pipe as text.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep/spec.h"
#include "workloads/workload.h"

namespace socsim::sweep {

/// The benchmarks predicted at a board's points: row identities (never values) of the measured
/// dataset in `measuredDir` matching the spec's selectors — rows measured on that board, or every
/// identity in the dataset for a board that was never measured (a board that does not exist yet).
/// Returns one list per Spec::boards entry.
std::vector<std::vector<wl::Query>> selectQueries(const Spec& spec, const std::string& measuredDir);

/// One benchmark at one point.
struct PredictionRecord {
  std::string status = "ok";         ///< ok | not-modelled | failed
  double value = 0;                  ///< in the query's unit (status ok)
  std::optional<double> lo, hi;      ///< prediction interval, when the prediction carries one
  std::string reason;                ///< why not-modelled / failed
  std::string note;                  ///< the workload's note
  std::vector<std::pair<std::string, double>> breakdown;  ///< explain: part -> simulated seconds
};

/// One point's outcome.
struct PointResult {
  int index = 0;
  bool ok = false;                   ///< false: the point failed as a whole (`error`)
  std::string error;                 ///< config error, crash, timeout
  std::string resolvedConfig;        ///< YAML (soc::writeResolvedConfig) with the overrides applied
  double runSeconds = 0;             ///< wall time of the point (host seconds; not a model output)
  std::vector<PredictionRecord> predictions;  ///< parallel to the board's queries (when ok)
};

/// Load `boardFile` with the point's overrides and predict each query (in this process; call it
/// in a fresh worker process). Config errors become a failed point, never an exception.
PointResult runPoint(const std::string& boardFile, const Point& point, const std::vector<wl::Query>& queries);

/// Text encoding of a PointResult (exact doubles) for the worker pipe, and its decoder
/// (false on truncated or malformed input).
std::string encode(const PointResult& r);
bool decode(const std::string& text, PointResult& out);

}  // namespace socsim::sweep
