#include "validation/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace socsim::validation {

const char* errorKindName(ErrorKind k) { return k == ErrorKind::Relative ? "rel" : "pp"; }

ErrorKind errorKindFor(const std::string& unit) {
  return unit == "%" ? ErrorKind::PercentagePoints : ErrorKind::Relative;
}

double signedError(ErrorKind k, double measured, double predicted) {
  if (k == ErrorKind::PercentagePoints) return predicted - measured;
  if (measured == 0) return std::numeric_limits<double>::quiet_NaN();
  return (predicted - measured) / measured;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

ErrorSummary summarize(std::vector<double> absErrors, ErrorKind k) {
  ErrorSummary s;
  s.n = static_cast<int>(absErrors.size());
  if (!s.n) return s;
  double t10 = k == ErrorKind::Relative ? 0.10 : 10.0;
  double t25 = k == ErrorKind::Relative ? 0.25 : 25.0;
  int w10 = 0, w25 = 0;
  for (double e : absErrors) {
    w10 += e <= t10;
    w25 += e <= t25;
  }
  s.within10 = static_cast<double>(w10) / s.n;
  s.within25 = static_cast<double>(w25) / s.n;
  s.median = median(std::move(absErrors));
  return s;
}

}  // namespace socsim::validation
