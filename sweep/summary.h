#pragma once
/// @file summary.h
/// @brief "Which benchmarks move": per benchmark row of a sweep, the spread of its predictions
///        over the points and the main effect of each swept key.
#include <string>
#include <vector>

#include "sweep/results_db.h"

namespace socsim::sweep {

struct KeyEffect {
  std::string key;
  double effect = 0;  ///< (largest - smallest mean over the key's value groups) / overall mean
};

struct BenchmarkSpread {
  std::string board, family, benchmark, metric, params, unit;
  int ok = 0, notOk = 0;                   ///< points with / without a prediction
  double min = 0, max = 0, mean = 0;       ///< over the points with a prediction
  double spread = 0;                       ///< (max - min) / mean
  std::vector<KeyEffect> effects;          ///< per swept key, largest first
};

/// Main effects: the points are grouped by each key's value (a key with more than 8 distinct
/// numeric values, e.g. a continuous LHS range, is cut into 5 equal-width bins).
std::vector<BenchmarkSpread> summarize(const SweepInfo& info, const std::vector<ResultRow>& rows);

}  // namespace socsim::sweep
