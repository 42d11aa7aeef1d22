#pragma once
/// @file storage_case.h
/// @brief What a measured storage/boot row asks, parsed from its identity (never its value):
///        the medium, the application (dd-style buffered I/O, fio direct I/O, raw flash read,
///        U-Boot command, SBL stage, Linux boot, XIP call, USB gadget), file system, direction,
///        request/buffer/file size, the metric, and the row's set-up parameters.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "models/peripherals/storage/storage_path.h"
#include "workloads/workload.h"

namespace socsim::wl::storage {

enum class Medium { Sd, Emmc, NorOspi, NorSpi, Nand, Sata, Msata, UsbHost, UsbGadget, Ufs, Nvme };
enum class App { Buffered, Fio, RawFlashRead, Uboot, UbootFat, Sbl, LinuxBoot, Xip, Gadget };
enum class Metric { MBps, KBps, CpuLoad, Milliseconds, Seconds, Cycles };

struct StorageCase {
  Medium medium = Medium::Sd;
  App app = App::Buffered;
  Metric metric = Metric::MBps;
  models::storage::Dir dir = models::storage::Dir::Read;
  std::string fs = "raw";      ///< raw, ext2, ext4, vfat, ubifs
  std::uint64_t bytes = 0;     ///< dd buffer, fio block size, U-Boot/raw file size
  bool rt = false;             ///< PREEMPT_RT kernel
  std::string stage;           ///< SBL stage / boot configuration ("shell" or "full") / XIP op
  std::map<std::string, std::string> params;  ///< the row's params
};

/// `key=value;key=value` -> map.
std::map<std::string, std::string> parseParams(const std::string& text);
/// The case a row asks, or nullopt when the row is not a storage/boot row this workload
/// predicts (RNDIS networking and PCIe Ethernet belong to other workloads).
std::optional<StorageCase> parseCase(const Query& q);
const char* mediumName(Medium m);

}  // namespace socsim::wl::storage
