#include "calibration/ingest/units_norm.h"

#include <cctype>
#include <cstdlib>
#include <map>

namespace socsim::ingest {

std::string trimText(const std::string& s) {
  size_t b = 0, e = s.size();
  auto isSpace = [&](size_t i) { return std::isspace(static_cast<unsigned char>(s[i])) != 0; };
  while (b < e) {
    if (isSpace(b))
      ++b;
    else if (b + 1 < e && static_cast<unsigned char>(s[b]) == 0xC2 &&
             static_cast<unsigned char>(s[b + 1]) == 0xA0)
      b += 2;
    else
      break;
  }
  while (e > b) {
    if (isSpace(e - 1))
      --e;
    else if (e >= b + 2 && static_cast<unsigned char>(s[e - 2]) == 0xC2 &&
             static_cast<unsigned char>(s[e - 1]) == 0xA0)
      e -= 2;
    else
      break;
  }
  return s.substr(b, e - b);
}

std::string lowerText(const std::string& s) {
  std::string r = s;
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

namespace {

bool endsWith(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// "(LOCAL_CPU_UTIL)", "(LOCAL_SEND_SIZE)": netperf output-field names, not units.
bool isFieldName(const std::string& inner) {
  if (inner.size() < 3) return false;
  bool underscore = false;
  for (char c : inner) {
    if (c == '_')
      underscore = true;
    else if (!std::isupper(static_cast<unsigned char>(c)) &&
             !std::isdigit(static_cast<unsigned char>(c)))
      return false;
  }
  return underscore;
}

}  // namespace

LabelUnit splitUnit(const std::string& label) {
  std::string s = trimText(label);
  // "Boot time in seconds: avg(min,max)": the statistic description is not part of the name.
  if (auto p = s.find(": avg("); p != std::string::npos) s = trimText(s.substr(0, p));
  LabelUnit r;
  for (;;) {
    if (s.empty() || s.back() != ')') break;
    int depth = 0;
    size_t open = std::string::npos;
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')')
        ++depth;
      else if (s[i] == '(' && --depth == 0) {
        open = i;
        break;
      }
    }
    if (open == std::string::npos) break;
    std::string inner = trimText(s.substr(open + 1, s.size() - open - 2));
    std::string before = trimText(s.substr(0, open));
    if (isFieldName(inner)) {  // drop and look further left
      s = before;
      continue;
    }
    if (before.empty()) break;  // the whole label is parenthesised: a name, not a unit
    r.name = before;
    r.unit = inner;
    r.hasUnit = true;
    if (r.unit.rfind("in ", 0) == 0) r.unit = trimText(r.unit.substr(3));  // "(in bytes)"
    return r;
  }
  if (endsWith(s, " %")) {
    r.name = trimText(s.substr(0, s.size() - 2));
    r.unit = "%";
    r.hasUnit = true;
    return r;
  }
  if (auto p = s.rfind(" in "); p != std::string::npos) {  // "Boot time in seconds"
    std::string u = lowerText(trimText(s.substr(p + 4)));
    if (u == "seconds" || u == "ms" || u == "microseconds" || u == "milliseconds") {
      r.name = trimText(s.substr(0, p));
      r.unit = u;
      r.hasUnit = true;
      return r;
    }
  }
  r.name = s;
  return r;
}

std::optional<std::string> canonicalUnit(const std::string& printed) {
  std::string p = trimText(printed);
  if (p == "Mb/s") return std::string("Mbit/s");  // 004 "B/W (Mb/s)": megabits
  static const std::map<std::string, std::string> table = {
      {"mb/s", "MB/s"},
      {"mbytes/sec", "MB/s"},
      {"mbytes/s", "MB/s"},
      {"mbs", "MB/s"},
      {"mb/sec", "MB/s"},
      {"mbytes", "MB"},
      {"mbits/sec", "Mbit/s"},
      {"mbit/s", "Mbit/s"},
      {"mbps", "Mbit/s"},
      {"mbits/s", "Mbit/s"},
      {"kbytes/sec", "KB/s"},
      {"kbytes/s", "KB/s"},
      {"kb/s", "KB/s"},
      {"kbytes", "KB"},
      {"kb", "KB"},
      {"bits/sec", "bit/s"},
      {"bit/s", "bit/s"},
      {"bits/s", "bit/s"},
      {"bps", "bit/s"},
      {"microsec", "us"},
      {"us", "us"},
      {"usec", "us"},
      {"microseconds", "us"},
      {"\xC2\xB5s", "us"},
      {"nanosec", "ns"},
      {"ns", "ns"},
      {"ms", "ms"},
      {"msec", "ms"},
      {"milliseconds", "ms"},
      {"sec", "s"},
      {"s", "s"},
      {"seconds", "s"},
      {"%", "%"},
      {"mhz", "MHz"},
      {"hz", "Hz"},
      {"dmips/mhz", "DMIPS/MHz"},
      {"dhrystonep", "Dhrystones/s"},
      {"dhrystones/s", "Dhrystones/s"},
      {"mips", "MIPS"},
      {"kflops", "Kflops"},
      {"iterations", "iterations/s"},
      {"iterations/s", "iterations/s"},
      {"workloads/", "workloads/s"},
      {"workloads/sec", "workloads/s"},
      {"workloads/s", "workloads/s"},
      {"", "score"},
      {"score", "score"},
      {"num_files", "files/s"},
      {"kpps", "kpps"},
      {"mw", "mW"},
      {"texel/sec", "texel/s"},
      {"triangles/sec", "triangles/s"},
      {"fps", "fps"},
      {"bytes", "bytes"},
      {"b", "bytes"},
      {"cycles", "cycles"},
      {"msg/sec", "msg/s"},
      {"msg/s", "msg/s"},
  };
  auto it = table.find(lowerText(p));
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::optional<std::uint64_t> parseSizeBytes(const std::string& text, std::uint64_t scale) {
  std::string s = trimText(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || v < 0) return std::nullopt;
  std::string suffix = lowerText(trimText(std::string(end)));
  double mult;
  if (suffix.empty())
    mult = static_cast<double>(scale);
  else if (suffix == "k" || suffix == "kb" || suffix == "kib")
    mult = 1024.0;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib")
    mult = 1024.0 * 1024.0;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib")
    mult = 1024.0 * 1024.0 * 1024.0;
  else if (suffix == "b" || suffix == "bytes")
    mult = 1.0;
  else
    return std::nullopt;
  double bytes = v * mult;
  if (bytes > 1e18) return std::nullopt;
  return static_cast<std::uint64_t>(bytes + 0.5);
}

std::optional<std::uint64_t> parseHexBytes(const std::string& text) {
  std::string s = trimText(text);
  if (s.empty() || s.size() > 15) return std::nullopt;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return std::strtoull(s.c_str(), nullptr, 16);
}

}  // namespace socsim::ingest
