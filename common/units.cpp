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
  return {v, unit};
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

const Table kBytes = {{"", 1},          {"B", 1},           {"byte", 1},
                      {"bytes", 1},     {"KiB", 1024.0},    {"KB", 1024.0},
                      {"kB", 1024.0},   {"K", 1024.0},      {"k", 1024.0},
                      {"MiB", 1048576.0}, {"MB", 1048576.0}, {"M", 1048576.0},
                      {"GiB", 1073741824.0}, {"GB", 1073741824.0}, {"G", 1073741824.0}};
const Table kHz = {{"", 1}, {"Hz", 1}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
const Table kSeconds = {{"", 1},     {"s", 1},      {"ms", 1e-3},  {"us", 1e-6},
                        {"\xC2\xB5s", 1e-6},         {"ns", 1e-9},  {"ps", 1e-12}};
const Table kTransfers = {{"", 1},      {"T/s", 1},     {"MT/s", 1e6}, {"MTps", 1e6},
                          {"MTPS", 1e6}, {"GT/s", 1e9}, {"GTps", 1e9}};
const Table kBits = {{"", 1},          {"bps", 1},       {"bit/s", 1},    {"kbps", 1e3},
                     {"Kbps", 1e3},    {"kbit/s", 1e3},  {"Mbps", 1e6},   {"Mbit/s", 1e6},
                     {"Mb/s", 1e6},    {"Gbps", 1e9},    {"Gbit/s", 1e9}, {"Gb/s", 1e9}};

/// Value in the base unit of a table; no sign check (the caller's range check does that).
double inBase(const Table& t, const std::string& text, const char* what, const char* example) {
  auto [v, u] = split(text, std::string("a ") + what + " such as " + example);
  return v * lookup(t, u, text, what);
}

}  // namespace

std::uint64_t parseBytes(const std::string& text) {
  double v = inBase(kBytes, text, "size", "32KiB, 1MiB, 512B");
  if (v < 0) throw InputError("size must not be negative, got '" + text + "'");
  return static_cast<std::uint64_t>(std::llround(v));
}

double parseHz(const std::string& text) {
  double v = inBase(kHz, text, "frequency", "2GHz, 800MHz");
  if (v <= 0) throw InputError("frequency must be positive, got '" + text + "'");
  return v;
}

double parseSeconds(const std::string& text) {
  double v = inBase(kSeconds, text, "time", "15ns, 7.8us");
  if (v < 0) throw InputError("time must not be negative, got '" + text + "'");
  return v;
}

double parseTransfersPerSecond(const std::string& text) {
  double v = inBase(kTransfers, text, "data rate", "4266MT/s");
  if (v <= 0) throw InputError("data rate must be positive, got '" + text + "'");
  return v;
}

double parseBitsPerSecond(const std::string& text) {
  double v = inBase(kBits, text, "bit rate", "1Gbps, 100Mbit/s");
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
  auto scaled = [&](const Family& f, double unitMul) {
    return inBase(*f.table, text, f.what, f.example) / unitMul;
  };
  const Family time{&kSeconds, "time", "15ns, 7.8us"};
  const Family freq{&kHz, "frequency", "2GHz, 800MHz"};
  const Family rate{&kTransfers, "data rate", "4266MT/s"};
  const Family bits{&kBits, "bit rate", "1Gbps, 100Mbit/s"};
  if (unit == "s") return scaled(time, 1);
  if (unit == "ms") return scaled(time, 1e-3);
  if (unit == "us") return scaled(time, 1e-6);
  if (unit == "ns") return scaled(time, 1e-9);
  if (unit == "ps") return scaled(time, 1e-12);
  if (unit == "Hz") return scaled(freq, 1);
  if (unit == "kHz") return scaled(freq, 1e3);
  if (unit == "MHz") return scaled(freq, 1e6);
  if (unit == "GHz") return scaled(freq, 1e9);
  if (unit == "MT/s") return scaled(rate, 1e6);
  if (unit == "GT/s") return scaled(rate, 1e9);
  if (unit == "bit/s") return scaled(bits, 1);
  if (unit == "Mbit/s") return scaled(bits, 1e6);
  if (unit == "Gbit/s") return scaled(bits, 1e9);
  if (unit == "bytes") {
    double v = inBase(kBytes, text, "size", "32KiB, 1MiB, 512B");
    if (v < 0) throw InputError("size must not be negative, got '" + text + "'");
    return v;
  }
  // Any other unit (cycles, count, bits, tCK, ...): a bare number or the number and that unit.
  std::string expected = "a number" + (unit.empty() ? std::string() : " in " + unit);
  auto [v, u] = split(text, expected);
  if (!u.empty() && u != unit)
    throw InputError("expected " + expected + (unit.empty() ? "" : " (bare or followed by '" + unit + "')") +
                     ", got '" + text + "'");
  return v;
}

}  // namespace socsim::units
