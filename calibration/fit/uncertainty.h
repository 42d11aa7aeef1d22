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

/// The key of a family's quantiles in readIntervals: the family for relative rows, the family
/// and " (pp)" for its CPU-load rows (a family may have both kinds, each with its own line).
inline std::string intervalKey(const std::string& family, bool pp) {
  return pp ? family + " (pp)" : family;
}

/// The committed interval quantiles by intervalKey (empty when nothing is calibrated).
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

/// The split a cross-validated row gets: `lobo` (leave-one-board-out) or `holdout` (release:
/// the guide held out).
std::string cvSplitName(const std::string& mode);

/// Predict `rows` for `socsim validate --cv`: each held-out unit's rows (cvUnit) with the
/// committed values overlaid by the unit's refit values from `plan` (crossValidate), then
/// finishCv. LOBO runs each board's refit inside its worker (boards in parallel); release runs
/// one validate pass per guide. The rows of a unit in plan.interrupted (its fold was cut by
/// Ctrl-C / SIGTERM) are `failed:interrupted`, their boards not run.
/// `coverage`, when given, receives finishCv's {rows checked, rows inside}.
std::vector<validation::ValidationRow> validateCv(const std::vector<MeasuredRow>& rows,
                                                  const validation::BoardRunner& inner,
                                                  const validation::ValidateOptions& vo,
                                                  const CvPlan& plan, const ParamSet& committed,
                                                  const ParamRegistry& reg,
                                                  std::pair<int, int>* coverage = nullptr);

/// After a CV run: set each row's split (cvSplitName, `no-donor`, or `in-sample` for families
/// without a committed fit) and its 80 % interval from the same family's CV residuals of the
/// other units (at least 5 rows). Returns {rows checked, rows inside}.
std::pair<int, int> finishCv(std::vector<validation::ValidationRow>& rows, const CvPlan& plan);

/// After finishCv: per family and error kind (intervalKey), the cross-validated rows checked
/// against their 80 % interval and how many lie inside: a scored row (status ok) of split
/// `lobo` / `holdout` with an interval, inside when lo <= measured <= hi. The interval of each
/// row comes from the other units' CV residuals only (finishCv), never from its own refit.
std::map<std::string, std::pair<int, int>> cvCoverageByFamily(
    const std::vector<validation::ValidationRow>& rows, const CvPlan& plan);

/// One family's cross-validation figures (`socsim validate --cv`'s per-family table and
/// cv-summary.csv), over its scored rows (status ok) of one error kind:
struct CvFamilySummary {
  std::string family;
  bool pp = false;        ///< CPU-load rows (percentage points)
  int rows = 0;           ///< held-out rows with a donor (split lobo / holdout)
  double mdape = 0;       ///< their MdAPE (fraction) or median |error| (pp)
  double within25 = 0;    ///< share of them within 25 % (25 pp)
  int noDonor = 0;        ///< held-out rows whose refitted parameters no other row reads
  double noDonorMdape = 0;  ///< their MdAPE (fraction) or median |error| (pp); 0 when none
  int checked = 0, inside = 0;  ///< rows with an interval, and inside it (cvCoverageByFamily)
};
/// After finishCv: the figures of every family of `plan.families` with a scored row, by
/// intervalKey (a family's CPU-load rows apart from its other rows).
std::map<std::string, CvFamilySummary> cvFamilySummary(
    const std::vector<validation::ValidationRow>& rows, const CvPlan& plan);

}  // namespace socsim::calib
