// Placeholder implementation owned by the config loader work; see units.h.
#include "common/units.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/error.h"

namespace socsim::units {
namespace {
struct Split {
  double number;
  std::string unit;
};
Split split(const std::string& text, const char* what) {
  const char* s = text.c_str();
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v))
    throw InputError(std::string("expected ") + what + ", got '" + text + "'");
  std::string unit;
  for (const char* p = end; *p; ++p)
    if (!std::isspace(static_cast<unsigned char>(*p))) unit += *p;
  return {v, unit};
}
}  // namespace

std::uint64_t parseBytes(const std::string& text) {
  auto [v, u] = split(text, "a size such as 32KiB, 1MiB, 512B");
  double mul;
  if (u.empty() || u == "B") mul = 1;
  else if (u == "KiB" || u == "KB" || u == "kB" || u == "K" || u == "k") mul = 1024.0;
  else if (u == "MiB" || u == "MB" || u == "M") mul = 1024.0 * 1024;
  else if (u == "GiB" || u == "GB" || u == "G") mul = 1024.0 * 1024 * 1024;
  else throw InputError("unknown size unit '" + u + "' in '" + text + "' (expected B, KiB, MiB, GiB)");
  if (v < 0) throw InputError("size must not be negative, got '" + text + "'");
  return static_cast<std::uint64_t>(std::llround(v * mul));
}

double parseHz(const std::string& text) {
  auto [v, u] = split(text, "a frequency such as 2GHz, 800MHz");
  double mul;
  if (u.empty() || u == "Hz") mul = 1;
  else if (u == "kHz" || u == "KHz") mul = 1e3;
  else if (u == "MHz") mul = 1e6;
  else if (u == "GHz") mul = 1e9;
  else throw InputError("unknown frequency unit '" + u + "' in '" + text + "' (expected Hz, kHz, MHz, GHz)");
  if (v <= 0) throw InputError("frequency must be positive, got '" + text + "'");
  return v * mul;
}

double parseSeconds(const std::string& text) {
  auto [v, u] = split(text, "a time such as 15ns, 7.8us");
  double mul;
  if (u.empty() || u == "s") mul = 1;
  else if (u == "ms") mul = 1e-3;
  else if (u == "us") mul = 1e-6;
  else if (u == "ns") mul = 1e-9;
  else if (u == "ps") mul = 1e-12;
  else throw InputError("unknown time unit '" + u + "' in '" + text + "' (expected s, ms, us, ns, ps)");
  if (v < 0) throw InputError("time must not be negative, got '" + text + "'");
  return v * mul;
}

double parseTransfersPerSecond(const std::string& text) {
  auto [v, u] = split(text, "a data rate such as 4266MT/s");
  double mul;
  if (u.empty() || u == "T/s") mul = 1;
  else if (u == "MT/s" || u == "MTps") mul = 1e6;
  else if (u == "GT/s") mul = 1e9;
  else throw InputError("unknown data-rate unit '" + u + "' in '" + text + "' (expected MT/s, GT/s)");
  if (v <= 0) throw InputError("data rate must be positive, got '" + text + "'");
  return v * mul;
}

double parseBitsPerSecond(const std::string& text) {
  auto [v, u] = split(text, "a bit rate such as 1Gbps");
  double mul;
  if (u.empty() || u == "bps") mul = 1;
  else if (u == "kbps" || u == "Kbps") mul = 1e3;
  else if (u == "Mbps") mul = 1e6;
  else if (u == "Gbps") mul = 1e9;
  else throw InputError("unknown bit-rate unit '" + u + "' in '" + text + "' (expected bps, Mbps, Gbps)");
  if (v <= 0) throw InputError("bit rate must be positive, got '" + text + "'");
  return v * mul;
}

}  // namespace socsim::units

namespace socsim::units {
double parseIn(const std::string& text, const std::string& unit) {
  if (unit == "ns") return parseSeconds(text) * 1e9;
  if (unit == "ps") return parseSeconds(text) * 1e12;
  if (unit == "us") return parseSeconds(text) * 1e6;
  if (unit == "ms") return parseSeconds(text) * 1e3;
  if (unit == "s") return parseSeconds(text);
  if (unit == "Hz") return parseHz(text);
  if (unit == "kHz") return parseHz(text) / 1e3;
  if (unit == "MHz") return parseHz(text) / 1e6;
  if (unit == "GHz") return parseHz(text) / 1e9;
  if (unit == "MT/s") return parseTransfersPerSecond(text) / 1e6;
  if (unit == "GT/s") return parseTransfersPerSecond(text) / 1e9;
  if (unit == "bytes") return static_cast<double>(parseBytes(text));
  if (unit == "bit/s") return parseBitsPerSecond(text);
  if (unit == "Mbit/s") return parseBitsPerSecond(text) / 1e6;
  if (unit == "Gbit/s") return parseBitsPerSecond(text) / 1e9;
  const char* s = text.c_str();
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s) throw InputError("expected a number" + (unit.empty() ? "" : " in " + unit) + ", got '" + text + "'");
  std::string rest;
  for (const char* p = end; *p; ++p)
    if (!std::isspace(static_cast<unsigned char>(*p))) rest += *p;
  if (!rest.empty() && rest != unit)
    throw InputError("expected a number" + (unit.empty() ? "" : " in " + unit) + ", got '" + text + "'");
  return v;
}
}  // namespace socsim::units
