#pragma once
/// @file storage_device_params.h
/// @brief A managed block device (SD card, eMMC, UFS device, NVMe SSD, SATA HDD/SSD, USB disk):
///        the device's own speed behind its interface, as a preset named after the part
///        (`configs/components/peripherals/devices/<id>.yaml`).
///
/// Which part a board's set-up used is a fact of the measurement set-up (the guide names the
/// SD card, the SSD, the disk); the part's rates and latencies are free parameters scoped to the
/// part, shared by every board that used it (DESIGN.md modelling rule 2). Defaults are the
/// part's published ("up to") figures where one exists.
#include <string>

#include "common/params.h"

namespace socsim::models::storage {

struct StorageDeviceParams {
  std::string name;                 ///< part as the guide or datasheet names it
  std::string kind = "sd";          ///< sd | emmc | ufs | nvme | hdd | ssd
  std::string interface = "";       ///< fastest interface the part supports (sdr104, hs400, usb2, sata3, ...)
  double read_mbps = 20;            ///< sustained sequential read inside the device, MB/s
  double write_mbps = 10;           ///< sustained sequential write inside the device, MB/s
  double read_latency_us = 500;     ///< command to first data of a read
  double write_latency_us = 2000;   ///< programme/commit time a write command adds
  double init_ms = 0;               ///< power-up and identification (boot-time stages)
  int queue_depth = 1;              ///< commands the device works on at once (NCQ, NVMe, UFS)

  static const params::Schema<StorageDeviceParams>& schema() {
    using P = StorageDeviceParams;
    static const auto s =
        params::Schema<P>("storage_device")
            .text("name", &P::name, "part name as the guide or its datasheet names it",
                  "the guide's set-up text")
            .required()
            .choice("kind", &P::kind, {"sd", "emmc", "ufs", "nvme", "hdd", "ssd"},
                    "device class", "the part's datasheet")
            .required()
            .text("interface", &P::interface,
                  "fastest interface mode the part supports (sdr104, hs400, usb2, sata3, gen3x4)",
                  "the part's datasheet")
            .real("read_mbps", &P::read_mbps, "MB/s", 0.01, 100000,
                  "sustained sequential read rate inside the device",
                  "calibrated: the part's published sequential read figure")
            .real("write_mbps", &P::write_mbps, "MB/s", 0.01, 100000,
                  "sustained sequential write rate inside the device",
                  "calibrated: the part's published sequential write figure")
            .real("read_latency_us", &P::read_latency_us, "us", 0, 1e6,
                  "time from a read command to its first data",
                  "calibrated: the device class's typical access time")
            .real("write_latency_us", &P::write_latency_us, "us", 0, 1e6,
                  "programme/commit time a write command adds after its data",
                  "calibrated: the device class's typical write busy time")
            .real("init_ms", &P::init_ms, "ms", 0, 10000,
                  "power-up and identification time (boot stages)",
                  "calibrated: the device class's typical initialization time")
            .integer("queue_depth", &P::queue_depth, "count", 1, 65536,
                     "commands the device works on concurrently (1 = one at a time)",
                     "the part's datasheet / interface standard");
    return s;
  }
};

}  // namespace socsim::models::storage
