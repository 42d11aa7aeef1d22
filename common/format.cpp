#include "common/format.h"

#include <fmt/format.h>

#include <cmath>

namespace socsim {

std::string formatNumber(double v) { return fmt::format("{}", v); }

std::string formatNumber(const std::optional<double>& v) {
  return v ? formatNumber(*v) : std::string();
}

std::string formatSig(double v, int digits) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  double a = std::fabs(v);
  if (a == 0) return "0";
  int mag = static_cast<int>(std::floor(std::log10(a)));
  int decimals = std::max(0, digits - 1 - mag);
  if (a >= 1e9) return fmt::format("{:.{}e}", v, digits - 1);
  return fmt::format("{:.{}f}", v, decimals);
}

}  // namespace socsim
