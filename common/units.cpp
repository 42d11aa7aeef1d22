// SI / IEC quantity strings, parsed once at load time (STYLE.md rule 3). See units.h.
#include "common/units.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <vector>

#include "common/error.h"

namespace socsim::units {
namespace {

struct Split {
  double number;
  std::string unit;
  std::string numberText;  ///< the number as written (for exact decimal rescaling)
};

/// Number then optional unit (spaces allowed between and inside nothing else).
Split split(const std::string& text, const std::string& expected) {
  const char* s = text.c_str();
  while (std::isspace(static_cast<unsigned char>(*s))) ++s;
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v))
    throw InputError("expected " + expected + ", got '" + text + "'");
  std::string unit;
  for (const char* p = end; *p; ++p)
    if (!std::isspace(static_cast<unsigned char>(*p))) unit += *p;
  return {v, unit, std::string(s, static_cast<size_t>(end - s))};
}

/// `number x 10^exp10`, correctly rounded from the decimal text (so "7.5ns" is exactly 7.5 in ns
/// and "7.8us" exactly 7800 ns, with no binary round-off from scaling through seconds).
double scaleDecimal(const Split& sp, int exp10) {
  if (exp10 == 0) return sp.number;
  const std::string& t = sp.numberText;
  bool hex = t.find_first_of("xX") != std::string::npos;
  auto e = t.find_first_of("eE");
  if (hex || t.find_first_of("iInN") != std::string::npos) return sp.number * std::pow(10.0, exp10);
  std::string mant = e == std::string::npos ? t : t.substr(0, e);
  long ex = e == std::string::npos ? 0 : std::strtol(t.c_str() + e + 1, nullptr, 10);
  std::string composed = mant + "e" + std::to_string(ex + exp10);
  return std::strtod(composed.c_str(), nullptr);
}

using Table = std::vector<std::pair<const char*, double>>;

/// Multiplier of `suffix` into the base unit, or throws naming the accepted suffixes.
double lookup(const Table& t, const std::string& suffix, const std::string& text,
              const char* what) {
  for (const auto& [name, mul] : t)
    if (suffix == name) return mul;
  std::string names;
  for (const auto& [name, mul] : t)
    if (*name) names += (names.empty() ? "" : ", ") + std::string(name);
  throw InputError("unknown " + std::string(what) + " unit '" + suffix + "' in '" + text +
                   "' (expected a number followed by one of: " + names + ")");
}

const Table kBytes = {{"", 1},
                      {"B", 1},
                      {"byte", 1},
                      {"bytes", 1},
                      {"KiB", 1024.0},
                      {"KB", 1024.0},
                      {"kB", 1024.0},
                      {"K", 1024.0},
                      {"k", 1024.0},
                      {"MiB", 1048576.0},
                      {"MB", 1048576.0},
                      {"M", 1048576.0},
                      {"GiB", 1073741824.0},
                      {"GB", 1073741824.0},
                      {"G", 1073741824.0}};
// Decimal families: the multiplier is a power of ten, stored as its exponent.
const Table kHz = {{"", 0}, {"Hz", 0}, {"kHz", 3}, {"KHz", 3}, {"MHz", 6}, {"GHz", 9}};
const Table kSeconds = {{"", 0},           {"s", 0},   {"ms", -3}, {"us", -6},
                        {"\xC2\xB5s", -6}, {"ns", -9}, {"ps", -12}};
const Table kTransfers = {{"", 0},     {"T/s", 0},  {"MT/s", 6}, {"MTps", 6},
                          {"MTPS", 6}, {"GT/s", 9}, {"GTps", 9}};
const Table kBits = {{"", 0},     {"bps", 0},    {"bit/s", 0},  {"kbps", 3},
                     {"Kbps", 3}, {"kbit/s", 3}, {"Mbps", 6},   {"Mbit/s", 6},
                     {"Mb/s", 6}, {"Gbps", 9},   {"Gbit/s", 9}, {"Gb/s", 9}};

/// Value of a decimal-family quantity in 10^unitExp base units; no sign check (the caller's
/// range check does that). A bare number is taken as already in that unit.
double inDecimal(const Table& t, const std::string& text, const char* what, const char* example,
                 int unitExp = 0) {
  Split sp = split(text, std::string("a ") + what + " such as " + example);
  if (sp.unit.empty()) return sp.number;
  int e = static_cast<int>(lookup(t, sp.unit, text, what));
  return scaleDecimal(sp, e - unitExp);
}
double inBase(const Table& t, const std::string& text, const char* what, const char* example) {
  auto sp = split(text, std::string("a ") + what + " such as " + example);
  return sp.number * lookup(t, sp.unit, text, what);
}

}  // namespace

std::uint64_t parseBytes(const std::string& text) {
  double v = inBase(kBytes, text, "size", "32KiB, 1MiB, 512B");
  if (v < 0) throw InputError("size must not be negative, got '" + text + "'");
  return static_cast<std::uint64_t>(std::llround(v));
}

double parseHz(const std::string& text) {
  double v = inDecimal(kHz, text, "frequency", "2GHz, 800MHz");
  if (v <= 0) throw InputError("frequency must be positive, got '" + text + "'");
  return v;
}

double parseSeconds(const std::string& text) {
  double v = inDecimal(kSeconds, text, "time", "15ns, 7.8us");
  if (v < 0) throw InputError("time must not be negative, got '" + text + "'");
  return v;
}

double parseTransfersPerSecond(const std::string& text) {
  double v = inDecimal(kTransfers, text, "data rate", "4266MT/s");
  if (v <= 0) throw InputError("data rate must be positive, got '" + text + "'");
  return v;
}

double parseBitsPerSecond(const std::string& text) {
  double v = inDecimal(kBits, text, "bit rate", "1Gbps, 100Mbit/s");
  if (v <= 0) throw InputError("bit rate must be positive, got '" + text + "'");
  return v;
}

double parseIn(const std::string& text, const std::string& unit) {
  // Value in the field's unit; signs and zero are left to the field's range check, except sizes.
  struct Family {
    const Table* table;
    const char* what;
    const char* example;
  };
  auto scaled = [&](const Family& f, int unitExp) {
    return inDecimal(*f.table, text, f.what, f.example, unitExp);
  };
  const Family time{&kSeconds, "time", "15ns, 7.8us"};
  const Family freq{&kHz, "frequency", "2GHz, 800MHz"};
  const Family rate{&kTransfers, "data rate", "4266MT/s"};
  const Family bits{&kBits, "bit rate", "1Gbps, 100Mbit/s"};
  if (unit == "s") return scaled(time, 0);
  if (unit == "ms") return scaled(time, -3);
  if (unit == "us") return scaled(time, -6);
  if (unit == "ns") return scaled(time, -9);
  if (unit == "ps") return scaled(time, -12);
  if (unit == "Hz") return scaled(freq, 0);
  if (unit == "kHz") return scaled(freq, 3);
  if (unit == "MHz") return scaled(freq, 6);
  if (unit == "GHz") return scaled(freq, 9);
  if (unit == "MT/s") return scaled(rate, 6);
  if (unit == "GT/s") return scaled(rate, 9);
  if (unit == "bit/s") return scaled(bits, 0);
  if (unit == "Mbit/s") return scaled(bits, 6);
  if (unit == "Gbit/s") return scaled(bits, 9);
  if (unit == "bytes") {
    double v = inBase(kBytes, text, "size", "32KiB, 1MiB, 512B");
    if (v < 0) throw InputError("size must not be negative, got '" + text + "'");
    return v;
  }
  // Any other unit (cycles, count, bits, tCK, ...): a bare number or the number and that unit.
  std::string expected = "a number" + (unit.empty() ? std::string() : " in " + unit);
  Split sp = split(text, expected);
  const std::string& u = sp.unit;
  double v = sp.number;
  if (!u.empty() && u != unit)
    throw InputError("expected " + expected +
                     (unit.empty() ? "" : " (bare or followed by '" + unit + "')") + ", got '" +
                     text + "'");
  return v;
}

}  // namespace socsim::units
