#include "calibration/ingest/families.h"

#include <map>
#include <utility>

#include "calibration/ingest/units_norm.h"

namespace socsim::ingest {

namespace {

bool has(const std::string& hay, const char* needle) {
  return hay.find(needle) != std::string::npos;
}
bool startsWith(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

// One heading or caption (lower-cased) -> family, rules in priority order.
std::string familyOfText(const std::string& t) {
  if (has(t, "lmbench")) return "lmbench";
  if (has(t, "dhrystone") && !has(t, "power")) return "dhrystone";
  if (has(t, "whetstone")) return "whetstone";
  if (has(t, "linpack")) return "linpack";
  if (has(t, "nbench")) return "nbench";
  if (has(t, "stream")) return "stream";
  if (has(t, "coremark")) return "coremark-pro";
  if (has(t, "multibench")) return "multibench";
  if (has(t, "power")) return "power";
  if (has(t, "boot")) {
    if (has(t, "uboot") || has(t, "u-boot")) {
      // "UBoot MMCSD", "UBoot EMMC Driver": storage measured from U-Boot, not boot time.
    } else {
      return "boot";
    }
  }
  if (has(t, "alsa") || has(t, "audio")) return "audio";
  if (has(t, "sensor")) return "sensor-capture";
  if (has(t, "display")) return "display";
  if (has(t, "graphics") || has(t, "glbenchmark") || has(t, "glmark") || has(t, "gfxbench"))
    return "graphics";
  if (has(t, "multimedia") || has(t, "decode")) return "multimedia";
  if (has(t, "pcie") || has(t, "pci ")) return "pcie";
  if (has(t, "ethernet") || has(t, "tcp") || has(t, "udp") || has(t, "cpsw")) return "ethernet";
  if (has(t, "ipsec")) return "ipsec";
  if (has(t, "openssl") || has(t, "crypto")) return "crypto";
  if (has(t, "nand")) return "nand";
  if (has(t, "ufs")) return "ufs";
  if (has(t, "emmc")) return "emmc";
  if (has(t, "msata") || has(t, "sata")) return "sata";
  if (has(t, "usb")) return "usb";
  if (has(t, "mmc") || has(t, "sd card")) return "mmc-sd";
  if (has(t, "qspi") || has(t, "ospi") || has(t, "spi flash")) return "flash";
  if (has(t, "latency") || has(t, "cyclictest")) return "rt-latency";
  return "";
}

}  // namespace

std::string familyFromContext(const std::vector<std::string>& sections,
                              const std::string& caption) {
  for (size_t i = sections.size(); i-- > 0;) {
    std::string f = familyOfText(lowerText(sections[i]));
    if (!f.empty()) return f;
  }
  return familyOfText(lowerText(caption));
}

std::string lmbenchFamily(const std::string& b) {
  if (startsWith(b, "bw_mem") || startsWith(b, "bw_mmap_rd") || startsWith(b, "bw_file_rd") ||
      startsWith(b, "lat_mem_rd") || startsWith(b, "latency_for_"))
    return "lmbench-mem";
  if (startsWith(b, "lat_ops")) return "lmbench-ops";
  return "lmbench-os";
}

std::optional<std::string> defaultBenchmarkUnit(const std::string& family, const std::string& b) {
  if (startsWith(family, "lmbench")) {
    if (startsWith(b, "bw_") || has(b, "bandwidth")) return std::string("MB/s");
    if (startsWith(b, "lat_mem_rd") || startsWith(b, "lat_ops") || startsWith(b, "latency_for_"))
      return std::string("ns");
    if (startsWith(b, "lat_fs")) return std::string("files/s");
    if (startsWith(b, "lat_") || has(b, "latency") || has(b, "_cost_") || has(b, "overhead") ||
        b == "procedure_call" || startsWith(b, "select_on_"))
      return std::string("us");
    return std::nullopt;
  }
  if (family == "dhrystone") {
    if (b == "cpu_clock") return std::string("MHz");
    if (b == "dhrystone_per_mhz") return std::string("DMIPS/MHz");
    if (b == "dhrystone_per_second") return std::string("Dhrystones/s");
  }
  if (family == "whetstone") return std::string("MIPS");
  if (family == "linpack") return std::string("Kflops");
  if (family == "nbench") return std::string("iterations/s");
  if (family == "stream") return std::string("MB/s");
  if (family == "coremark-pro" || family == "multibench")
    return std::string(b == "coremark-pro" ? "score" : "workloads/s");
  return std::nullopt;
}

std::optional<std::string> lmbenchAliasOf(const std::string& b) {
  static const std::map<std::string, std::string> aliases = {
      {"semaphore_latency", "lat_sem"},
      {"pipe_bandwidth", "bw_pipe"},
      {"pipe_latency", "lat_pipe"},
      {"af_unix_sock_stream_latency", "lat_unix"},
      {"af_unix_socket_stream_bandwidth", "bw_unix"},
      {"tcp_latency_using_localhost", "lat_tcp"},
      {"tcp_ip_connection_cost_to_localhost", "lat_connect"},
      {"select_on_200_tcp_fds", "lat_select"},
      {"signal_handler_overhead", "lat_sig-catch"},
      {"signal_handler_latency", "lat_sig-install"},
      {"procedure_call", "lat_proc-proccall"},
      {"latency_for_0.50_mb_block_size", "lat_mem_rd-stride128-sz500k"},
  };
  auto it = aliases.find(b);
  if (it == aliases.end()) return std::nullopt;
  return it->second;
}

}  // namespace socsim::ingest
