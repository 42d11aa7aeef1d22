#pragma once
/// @file ufs_params.h
/// @brief Parameters of a UFS host controller (UFSHCI + M-PHY/UniPro). The device is a
///        StorageDeviceParams preset (kind ufs).
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct UfsHostParams {
  std::string name = "ufshci";
  double unipro_efficiency = 0.9;      ///< payload share of UniPro frames (headers, CRC, AFC)
  double command_overhead_us = 15;     ///< doorbell, command/response UPIUs, RTT, completion
  std::uint64_t max_request_bytes = 524288;  ///< largest request the Linux ufshcd takes
  double dma_mbps = 2000;              ///< host DMA ceiling
  double driver_request_instructions = 8000;  ///< Linux SCSI + ufshcd per request
  int irqs_per_request = 1;
  double uboot_command_us = 100;       ///< U-Boot ufs/scsi driver per command

  static const params::Schema<UfsHostParams>& schema() {
    using P = UfsHostParams;
    static const auto s =
        params::Schema<P>("ufs_host")
            .text("name", &P::name, "host IP family", "SoC TRM UFS chapter")
            .real("unipro_efficiency", &P::unipro_efficiency, "ratio", 0.1, 1,
                  "payload share of UniPro data frames (L2 header/trailer, CRC, flow control)",
                  "MIPI UniPro 1.6 frame format (up to 288-byte payload per frame)")
            .real("command_overhead_us", &P::command_overhead_us, "us", 0, 1e5,
                  "per command: doorbell, COMMAND/RTT/RESPONSE UPIUs, completion",
                  "calibrated: JESD220 UTP transaction sequence")
            .bytes("max_request_bytes", &P::max_request_bytes, 4096, 1ull << 32,
                   "largest request per command", "Linux drivers/ufs (max_sectors)")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 1, 1e5, "host DMA ceiling",
                  "calibrated: the controller's AXI master")
            .real("driver_request_instructions", &P::driver_request_instructions,
                  "instructions", 0, 1e7, "Linux SCSI mid-layer + ufshcd work per request",
                  "calibrated: order of the SCSI + ufshcd path")
            .integer("irqs_per_request", &P::irqs_per_request, "count", 0, 100,
                     "interrupts per request", "UFSHCI 2.1 (one completion interrupt)")
            .real("uboot_command_us", &P::uboot_command_us, "us", 0, 1e6,
                  "U-Boot ufs driver time per command (polled)",
                  "calibrated: polled UTRD completion");
    return s;
  }
};

}  // namespace socsim::models
