#pragma once
/// @file uncertainty.h
/// @brief Prediction intervals and leave-one-board-out validation from the committed fit
///        products (calibration/reports/<group>.intervals.csv and <group>.lobo.csv, written by
///        `socsim calibrate`).
#include <map>
#include <string>
#include <vector>

#include "calibration/fit/calibrate.h"
#include "calibration/fit/param_overrides.h"
#include "validation/validate.h"

namespace socsim::calib {

/// The committed interval quantiles by family (empty when nothing is calibrated).
std::map<std::string, FamilyInterval> readIntervals(const std::string& sourceDir);

/// The 80 % interval around `predicted` from quantiles q10/q90 of log(pred/meas) (rel) or of
/// (pred - meas)/100 (pp).
void intervalFor(double predicted, bool pp, double q10, double q90, double& lo, double& hi);

/// Set lo/hi of one predicted query result (`socsim run`, sweep points) when its family has
/// committed quantiles; CPU-load rows (unit "%") get a percentage-point interval.
void applyInterval(validation::QueryResult& r, const wl::Query& q,
                   const std::map<std::string, FamilyInterval>& intervals);

/// Set lo/hi of every predicted row whose family has committed quantiles.
void applyIntervals(std::vector<validation::ValidationRow>& rows,
                    const std::map<std::string, FamilyInterval>& intervals);

/// The committed leave-one-board-out refits: per family, per board, the split (`lobo` or
/// `no-donor`) and the refitted values.
struct LoboPlan {
  std::map<std::string, std::map<std::string, std::string>> splitByFamilyBoard;
  std::map<std::string, std::vector<std::pair<const FreeParam*, double>>> valuesByBoard;
};
LoboPlan readLoboPlan(const std::string& sourceDir, const ParamRegistry& reg);

/// A runner that, inside each board's worker, installs `committed` with the board's LOBO values
/// in place and then runs `inner`.
validation::BoardRunner loboRunner(validation::BoardRunner inner, const ParamSet& committed,
                                   const LoboPlan& plan, const ParamRegistry& reg);

/// After a LOBO run: set each row's split (`lobo`, `no-donor`, or `in-sample` for families
/// without a committed fit) and its 80 % interval from the same family's LOBO residuals on the
/// other boards (at least 5). Returns {rows checked, rows inside}.
std::pair<int, int> finishLobo(std::vector<validation::ValidationRow>& rows, const LoboPlan& plan);

}  // namespace socsim::calib
