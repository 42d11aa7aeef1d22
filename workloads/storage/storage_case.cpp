#include "workloads/storage/storage_case.h"

#include <cstdlib>

namespace socsim::wl::storage {

using models::storage::Dir;

std::map<std::string, std::string> parseParams(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(';', pos);
    if (end == std::string::npos) end = text.size();
    std::string kv = text.substr(pos, end - pos);
    std::size_t eq = kv.find('=');
    if (eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
    pos = end + 1;
  }
  return out;
}

const char* mediumName(Medium m) {
  switch (m) {
    case Medium::Sd: return "SD card";
    case Medium::Emmc: return "eMMC";
    case Medium::NorOspi: return "OSPI/QSPI NOR flash";
    case Medium::NorSpi: return "SPI NOR flash";
    case Medium::Nand: return "NAND flash";
    case Medium::Sata: return "SATA disk";
    case Medium::Msata: return "mSATA SSD";
    case Medium::UsbHost: return "USB mass storage";
    case Medium::UsbGadget: return "USB mass-storage gadget";
    case Medium::Ufs: return "UFS";
    case Medium::Nvme: return "NVMe SSD";
  }
  return "?";
}

namespace {
bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }
bool has(const std::string& s, const char* p) { return s.find(p) != std::string::npos; }
std::uint64_t num(const std::map<std::string, std::string>& m, const char* k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
}
}  // namespace

std::optional<StorageCase> parseCase(const Query& q) {
  StorageCase c;
  c.params = parseParams(q.params);
  const std::string& b = q.benchmark;
  const std::string& f = q.family;
  auto p = [&](const char* k) {
    auto it = c.params.find(k);
    return it == c.params.end() ? std::string() : it->second;
  };
  c.rt = p("kernel") == "rt";
  c.fs = p("fs").empty() ? "raw" : p("fs");
  c.dir = p("op") == "write" ? Dir::Write : Dir::Read;
  if (q.unit == "MB/s")
    c.metric = Metric::MBps;
  else if (q.unit == "KB/s")
    c.metric = Metric::KBps;
  else if (q.unit == "%")
    c.metric = Metric::CpuLoad;
  else if (q.unit == "ms")
    c.metric = Metric::Milliseconds;
  else if (q.unit == "s")
    c.metric = Metric::Seconds;
  else if (q.unit == "cycles")
    c.metric = Metric::Cycles;
  else
    return std::nullopt;
  const std::uint64_t buf = num(c.params, "buffer_size"), bs = num(c.params, "bs"),
                      size = num(c.params, "size");
  auto blockApp = [&]() {
    if (bs) {
      c.app = App::Fio;
      c.bytes = bs;
    } else {
      c.app = App::Buffered;
      c.bytes = buf;
    }
    return c.bytes > 0;
  };

  if (f == "mmc-sd" || f == "emmc") {
    c.medium = f == "emmc" ? Medium::Emmc : Medium::Sd;
    if (starts(b, "UBOOT MMCSD FAT")) {
      c.app = App::UbootFat;
      c.bytes = size;
    } else if (starts(b, "UBoot") || starts(b, "UBOOT")) {
      c.app = App::Uboot;
      c.bytes = size;
    } else if (!blockApp()) {
      return std::nullopt;
    }
    return c.bytes ? std::optional<StorageCase>(c) : std::nullopt;
  }
  if (f == "flash") {
    c.medium = starts(b, "SPI Flash") ? Medium::NorSpi : Medium::NorOspi;
    if (starts(b, "UBOOT")) {
      c.app = App::Uboot;
      c.bytes = size;
    } else if (c.fs == "raw") {
      c.app = App::RawFlashRead;
      c.bytes = size;
    } else {
      c.app = App::Buffered;
      c.bytes = buf;
    }
    return c.bytes ? std::optional<StorageCase>(c) : std::nullopt;
  }
  if (f == "nand") {
    c.medium = Medium::Nand;
    if (!blockApp()) return std::nullopt;
    return c;
  }
  if (f == "sata") {
    c.medium = starts(b, "mSATA") ? Medium::Msata : Medium::Sata;
    if (!blockApp()) return std::nullopt;
    return c;
  }
  if (f == "ufs") {
    c.medium = Medium::Ufs;
    c.app = App::Uboot;
    c.bytes = size;
    return c.bytes ? std::optional<StorageCase>(c) : std::nullopt;
  }
  if (f == "pcie") {
    if (!has(b, "SSD")) return std::nullopt;  // PCIe Ethernet rows: the Ethernet workload
    c.medium = Medium::Nvme;
    if (!blockApp()) return std::nullopt;
    return c;
  }
  if (f == "usb") {
    if (starts(b, "USB Host")) {
      c.medium = Medium::UsbHost;
      if (!blockApp()) return std::nullopt;
      return c;
    }
    if (starts(b, "USBDEVICE")) {
      c.medium = Medium::UsbGadget;
      c.app = App::Gadget;
      // READ: the host reads from the gadget (device -> host).
      c.dir = has(b, "READ") ? Dir::Read : Dir::Write;
      c.bytes = num(c.params, "blocks");
      c.stage = has(b, "SUPERSPEED") ? "super-speed" : "high-speed";
      return c.metric == Metric::MBps ? std::optional<StorageCase>(c) : std::nullopt;
    }
    return std::nullopt;  // RNDIS networking: not a storage path
  }
  if (f == "boot") {
    if (starts(b, "ROM") || starts(b, "SBL")) {
      c.app = App::Sbl;
      c.stage = b;
      c.medium = p("boot_media") == "sd" ? Medium::Sd : Medium::NorOspi;
      return c;
    }
    if (has(b, "oot")) {  // "Boot time MMC/SD", "Boot media: MMCSD", "Linux boot time MMCSD"
      c.app = App::LinuxBoot;
      c.medium = Medium::Sd;
      c.stage = has(p("config"), "/bin/sh") ? "shell" : "full";
      return c;
    }
    return std::nullopt;
  }
  if (f == "xip") {
    c.app = App::Xip;
    c.medium = Medium::NorOspi;
    c.stage = starts(b, "FIR") ? "fir" : starts(b, "MEMCPY") ? "memcpy" : "";
    if (c.stage.empty()) return std::nullopt;
    return c;
  }
  return std::nullopt;
}

}  // namespace socsim::wl::storage
