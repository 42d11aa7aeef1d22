#include "common/format_time.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "common/format.h"

namespace socsim {

std::string formatSecondsEng(double seconds, int digits) {
  if (!std::isfinite(seconds)) return fmt::format("{} s", seconds);
  double a = std::fabs(seconds);
  if (a == 0) return "0 s";
  // Round to the shown digits first, so 999.96 us becomes 1.000 ms rather than "1000 us".
  int mag = static_cast<int>(std::floor(std::log10(a)));
  double scale = std::pow(10.0, digits - 1 - mag);
  double r = std::round(a * scale) / scale;
  static const struct {
    double factor;
    const char* unit;
  } kUnits[] = {{1e-9, "ns"}, {1e-6, "us"}, {1e-3, "ms"}, {1, "s"}};
  size_t u = 0;
  while (u + 1 < std::size(kUnits) && r >= kUnits[u + 1].factor) ++u;
  if (r < kUnits[0].factor) u = 0;  // below 1 ns: fractional nanoseconds
  return formatSig(std::copysign(r, seconds) / kUnits[u].factor, digits) + " " + kUnits[u].unit;
}

}  // namespace socsim
