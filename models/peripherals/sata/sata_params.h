#pragma once
/// @file sata_params.h
/// @brief Parameters of an AHCI SATA host. The disk is a StorageDeviceParams preset (hdd/ssd).
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct AhciParams {
  std::string name = "ahci";
  int data_fis_payload_bytes = 8192;   ///< largest DATA FIS payload
  int fis_overhead_bytes = 28;         ///< SOF, FIS header, CRC, EOF, HOLD/R_OK handshakes (dwords -> bytes)
  double command_overhead_us = 10;     ///< command list fetch, H2D/D2H register FIS, PRD walk
  std::uint64_t max_request_bytes = 1310720;  ///< largest request (libata max_sectors)
  double dma_mbps = 1000;
  double driver_request_instructions = 8000;  ///< Linux SCSI + libata + ahci per request
  int irqs_per_request = 1;

  static const params::Schema<AhciParams>& schema() {
    using P = AhciParams;
    static const auto s =
        params::Schema<P>("ahci")
            .text("name", &P::name, "host IP family", "SoC TRM SATA chapter")
            .integer("data_fis_payload_bytes", &P::data_fis_payload_bytes, "bytes", 512, 8192,
                     "largest DATA FIS payload", "Serial ATA 3.x spec (8 KiB DATA FIS)")
            .integer("fis_overhead_bytes", &P::fis_overhead_bytes, "bytes", 0, 1024,
                     "framing per DATA FIS: SOF, header, CRC, EOF, WTRM/R_OK exchange",
                     "Serial ATA 3.x spec link layer (about 7 dwords)")
            .real("command_overhead_us", &P::command_overhead_us, "us", 0, 1e5,
                  "per command: command list/table fetch, register FISes, PRD walk, status",
                  "calibrated: AHCI 1.3 command sequence")
            .bytes("max_request_bytes", &P::max_request_bytes, 4096, 1ull << 32,
                   "largest request per command", "Linux block BLK_DEF_MAX_SECTORS (1280 KiB)")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 1, 1e5, "host DMA ceiling",
                  "calibrated: the controller's bus master")
            .real("driver_request_instructions", &P::driver_request_instructions,
                  "instructions", 0, 1e7, "Linux SCSI + libata + ahci work per request",
                  "calibrated: order of the SCSI/libata path")
            .integer("irqs_per_request", &P::irqs_per_request, "count", 0, 100,
                     "interrupts per request", "AHCI 1.3 (one D2H register FIS interrupt)");
    return s;
  }
};

}  // namespace socsim::models
