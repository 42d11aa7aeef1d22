#pragma once
/// @file units_norm.h
/// @brief Unit spellings of the TI guides -> one canonical spelling each, and printed sizes ->
///        bytes. Used by the normalizer (and usable by the MCU+ parser for its own cells).
///
/// Canonical units: MB/s, Mbit/s, KB/s, bit/s, kpps, ns, us, ms, s, %, MHz, Hz, DMIPS/MHz,
/// Dhrystones/s, MIPS, Kflops, iterations/s, workloads/s, files/s, score, fps, mW,
/// texel/s, triangles/s, bytes, KB, MB, cycles, msg/s. MB and KB are 2^20 / 2^10 bytes, as the
/// guides' tools (dd, fio, iperf, openssl) count them.
#include <cstdint>
#include <optional>
#include <string>

namespace socsim::ingest {

/// A label split into its name and its printed unit.
/// "Throughput (Mbits/sec)" -> {"Throughput", "Mbits/sec", true};
/// "CPU Load % (LOCAL_CPU_UTIL)" -> {"CPU Load", "%", true} (netperf field names dropped);
/// "Boot time in seconds: avg(min,max)" -> {"Boot time", "seconds", true};
/// "coremark-pro ()" -> {"coremark-pro", "", true}; "perf" -> {"perf", "", false}.
struct LabelUnit {
  std::string name;
  std::string unit;      ///< as printed, without parentheses
  bool hasUnit = false;  ///< a unit slot was printed (possibly empty or truncated)
};
LabelUnit splitUnit(const std::string& label);

/// Canonical spelling of a printed unit ("Mbytes/sec", "MBs", "mb/s" -> "MB/s";
/// "Mbits/sec", "Mbps", "Mb/s" -> "Mbit/s"; "microsec" -> "us"; "(workloads/)" -> "workloads/s";
/// "" -> "score" for CoreMark-Pro's empty slot). Case matters only for "Mb/s" (Mbit/s) versus
/// "MB/s"; 003 lower-cases everything and its "mb/s" means MB/s. nullopt when unknown.
std::optional<std::string> canonicalUnit(const std::string& printed);

/// A size as printed in a row key -> bytes. Accepts plain integers ("102400"), k/m/g suffixes
/// ("4k", "256k", "1m" = 2^10 / 2^20 / 2^30), and "32.00 KB" / "1024.00 B" / "4 MB" forms.
/// `scale` multiplies a plain number (1024 for a "(KBytes)" key, 2^20 for "(Mbytes)").
/// nullopt when the text is not a size.
std::optional<std::uint64_t> parseSizeBytes(const std::string& text, std::uint64_t scale = 1);

/// A hexadecimal size without prefix, as U-Boot prints file sizes ("400000" -> 4194304).
std::optional<std::uint64_t> parseHexBytes(const std::string& text);

/// Trim ASCII whitespace and U+00A0 at both ends.
std::string trimText(const std::string& s);
/// ASCII lower-case copy.
std::string lowerText(const std::string& s);

}  // namespace socsim::ingest
