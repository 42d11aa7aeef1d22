#pragma once
/// @file metrics.h
/// @brief Error metrics of DESIGN.md ("Errors"): relative error for rates, times and scores;
///        percentage points for CPU load and loss percentages; MdAPE and the share of rows
///        within 10 % / 25 %.
#include <string>
#include <vector>

namespace socsim::validation {

enum class ErrorKind { Relative, PercentagePoints };
const char* errorKindName(ErrorKind k);  ///< "rel" | "pp"

/// `pp` for rows whose unit is "%" (CPU load, loss), `rel` otherwise.
ErrorKind errorKindFor(const std::string& unit);

/// (predicted - measured) / measured for rel; predicted - measured for pp.
/// For rel with measured == 0 returns NaN (such rows are excluded upstream: zero-rate flag).
double signedError(ErrorKind k, double measured, double predicted);

/// Summary of absolute errors (fractions for rel, points for pp).
struct ErrorSummary {
  int n = 0;
  double median = 0;      ///< MdAPE (fraction) or median |pp|
  double within10 = 0;    ///< share of rows with |e| <= 0.10 (rel) or <= 10 pp
  double within25 = 0;    ///< share with |e| <= 0.25 (rel) or <= 25 pp
};
ErrorSummary summarize(std::vector<double> absErrors, ErrorKind k);

/// Median of a list (0 for an empty list).
double median(std::vector<double> v);

}  // namespace socsim::validation
