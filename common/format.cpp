#include "common/format.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace socsim {

std::string formatNumber(double v) { return fmt::format("{}", v); }

std::string formatNumber(const std::optional<double>& v) {
  return v ? formatNumber(*v) : std::string();
}

std::string formatResult(double v) {
  if (!std::isfinite(v) || v == 0) return formatNumber(v);
  // "%.6g" rounds correctly to 6 significant digits; reading it back gives the double nearest
  // to that decimal, whose shortest round-trip text is the rounded number.
  return formatNumber(std::strtod(fmt::format("{:.{}g}", v, kResultDigits).c_str(), nullptr));
}

std::string formatResult(const std::optional<double>& v) {
  return v ? formatResult(*v) : std::string();
}

std::string formatSig(double v, int digits) {
  if (!std::isfinite(v)) return fmt::format("{}", v);
  double a = std::fabs(v);
  if (a == 0) return "0";
  int mag = static_cast<int>(std::floor(std::log10(a)));
  // A value that rounds up to the next power of ten has one integer digit more: 9.9996 with 3
  // digits is "10.0", not "10.00" (4 digits).
  if (digits - 1 - mag >= 0 && std::round(a * std::pow(10.0, digits - 1 - mag)) >= std::pow(10.0, digits))
    ++mag;
  int decimals = std::max(0, digits - 1 - mag);
  if (a >= 1e9) return fmt::format("{:.{}e}", v, digits - 1);
  return fmt::format("{:.{}f}", v, decimals);
}

}  // namespace socsim
