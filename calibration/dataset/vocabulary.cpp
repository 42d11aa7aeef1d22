#include "calibration/dataset/vocabulary.h"

#include <algorithm>
#include <cstdlib>

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

const std::vector<std::string>& numericParamKeys() {
  static const std::vector<std::string> k = sorted({
      "app_bytes", "arb_bitrate_mbps", "arb_phase_bits", "blocks", "bs", "buffer_size",
      "data_bitrate_mbps", "data_phase_bits", "datagram", "frame", "iva_freq_mhz", "key_bits",
      "mcan_clock_mhz", "media_clock_mhz", "msg_bytes", "opp_mhz", "packet_bytes",
      "sampling_rate", "sbl_bytes", "sd_read_mbyte_s", "sha_bits", "size", "spi_clock_mhz",
      "tcp_window_bytes", "transfer_bytes", "tx_bw_mbps", "window", "word_width_bits", "words"});
  return k;
}

std::string paramsError(const std::string& params) {
  std::vector<std::string> seen;
  size_t start = 0;
  while (start < params.size()) {
    size_t end = params.find(';', start);
    if (end == std::string::npos) end = params.size();
    const std::string item = params.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return "item '" + item + "' is not key=value (params are key=value items separated by ';')";
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return "key '" + key + "' given twice";
    seen.push_back(key);
    if (sortedContains(numericParamKeys(), key) && !(key == "tx_bw_mbps" && value == "max")) {
      // A plain decimal: digits with an optional fraction (no sign, exponent, nan or inf).
      const size_t dot = value.find('.');
      const std::string whole = value.substr(0, dot),
                        frac = dot == std::string::npos ? "1" : value.substr(dot + 1);
      auto digits = [](const std::string& d) {
        return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
      };
      const bool plain = digits(whole) && digits(frac);
      const double v = plain ? std::strtod(value.c_str(), nullptr) : 0;
      if (!plain || !(v > 0) || v > 1e12)
        return key + "=" + value + ": expected a plain decimal number > 0 and <= 1e12 (a size, rate, clock or count)";
    }
    start = end + 1;
  }
  if (!params.empty() && params.back() == ';') return "params '" + params + "' end with ';'";
  return "";
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + (n.empty() ? "'' (none)" : n);
  return s;
}

}  // namespace socsim::calib
