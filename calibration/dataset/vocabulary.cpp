#include "calibration/dataset/vocabulary.h"

#include <algorithm>

namespace socsim::calib {

namespace {
bool sortedContains(const std::vector<std::string>& v, const std::string& s) {
  return std::binary_search(v.begin(), v.end(), s);
}
std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

const std::vector<std::string>& measuredFamilies() {
  static const std::vector<std::string> f = sorted({
      "lmbench-mem", "lmbench-ops", "lmbench-os", "stream", "dhrystone", "whetstone", "linpack",
      "nbench", "coremark-pro", "multibench", "boot", "ethernet", "pcie", "flash", "nand", "emmc",
      "mmc-sd", "ufs", "sata", "usb", "crypto", "ipsec", "sa2ul", "ipc", "mcan", "mcspi",
      "mathlib", "xip", "audio", "sensor-capture", "display", "graphics", "multimedia", "power",
      "rt-latency", "other"});
  return f;
}

bool isMeasuredFamily(const std::string& family) {
  return sortedContains(measuredFamilies(), family);
}

const std::vector<std::string>& measuredUnits() {
  static const std::vector<std::string> u = sorted({
      "",           "%",           "MB/s",        "Mbit/s", "KB/s",    "bit/s",   "kpps",
      "ns",         "us",          "ms",          "s",      "MHz",     "Hz",      "DMIPS/MHz",
      "Dhrystones/s", "MIPS",      "Kflops",      "iterations/s", "workloads/s", "files/s",
      "score",      "fps",         "mW",          "texel/s", "triangles/s", "bytes", "KB",
      "MB",         "KiB",         "MiB",         "cycles", "msg/s",   "ops/s"});
  return u;
}

bool isMeasuredUnit(const std::string& unit) {
  return sortedContains(measuredUnits(), unit);
}

const std::vector<std::string>& flagReasons() {
  static const std::vector<std::string> r = sorted({
      "alias-of", "caption-mismatch", "duplicate-value", "half-latency", "inferred",
      "max-below-avg", "min-zero", "mixed-minmax", "outlier", "suspect-attribution",
      "unattributed", "zero-load", "zero-not-measured", "zero-rate", "zero-time"});
  return r;
}

std::string flagError(const std::string& flag) {
  size_t start = 0;
  while (start < flag.size()) {
    size_t end = flag.find(';', start);
    if (end == std::string::npos) end = flag.size();
    std::string item = flag.substr(start, end - start);
    size_t colon = item.find(':');
    std::string reason = item.substr(0, colon);
    if (item.empty()) return "empty item in '" + flag + "' (items are separated by one ';')";
    if (!sortedContains(flagReasons(), reason))
      return "unknown flag reason '" + reason + "' (expected one of " + joinNames(flagReasons()) +
             ", optionally followed by ':<why>')";
    if (colon != std::string::npos && colon + 1 == item.size())
      return "flag '" + item + "' has nothing after ':' (write '" + reason + "' or '" + reason +
             ":<why>')";
    start = end + 1;
  }
  if (!flag.empty() && flag.back() == ';') return "flag '" + flag + "' ends with ';'";
  return "";
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + (n.empty() ? "'' (none)" : n);
  return s;
}

}  // namespace socsim::calib
