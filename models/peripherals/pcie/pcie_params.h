#pragma once
/// @file pcie_params.h
/// @brief Parameters of a PCIe root complex used with an NVMe SSD. The SSD is a
///        StorageDeviceParams preset (kind nvme).
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct PcieNvmeParams {
  std::string name = "pcie-rc";
  int max_payload_bytes = 256;         ///< MPS the root port negotiates
  int max_read_request_bytes = 512;    ///< MRRS
  int read_completion_bytes = 64;      ///< completion size the root complex returns (RCB)
  int tlp_overhead_bytes = 24;         ///< STP/sequence, 3-4 DW header, LCRC, END, DLLP share
  double command_overhead_us = 3;      ///< SQ doorbell, SQE fetch, CQE write, MSI
  std::uint64_t max_request_bytes = 524288;  ///< largest request per command (MDTS / max_hw_sectors)
  double dma_mbps = 4000;              ///< root complex / interconnect ceiling for inbound DMA
  double driver_request_instructions = 5000;  ///< Linux nvme + blk-mq per request
  int irqs_per_request = 1;

  static const params::Schema<PcieNvmeParams>& schema() {
    using P = PcieNvmeParams;
    static const auto s =
        params::Schema<P>("pcie_nvme")
            .text("name", &P::name, "root complex IP family", "SoC TRM PCIe chapter")
            .integer("max_payload_bytes", &P::max_payload_bytes, "bytes", 128, 4096,
                     "max payload size negotiated on the link",
                     "SoC TRM PCIe (root port MPS capability)")
            .integer("max_read_request_bytes", &P::max_read_request_bytes, "bytes", 128, 4096,
                     "max read request size", "Linux PCIe default MRRS (512 bytes)")
            .integer("read_completion_bytes", &P::read_completion_bytes, "bytes", 64, 4096,
                     "data per completion TLP the root complex returns to device reads",
                     "calibrated: read completion boundary (64 or 128 bytes)")
            .integer("tlp_overhead_bytes", &P::tlp_overhead_bytes, "bytes", 0, 256,
                     "bytes a TLP costs beyond its payload",
                     "PCIe Base 3.0: framing 4 + sequence 2 + header 12-16 + LCRC 4, plus "
                     "ACK/flow-control DLLPs")
            .real("command_overhead_us", &P::command_overhead_us, "us", 0, 1e5,
                  "per NVMe command: doorbell write, SQE fetch, CQE write, MSI",
                  "calibrated: NVMe 1.3 command flow over the link")
            .bytes("max_request_bytes", &P::max_request_bytes, 4096, 1ull << 32,
                   "largest request per NVMe command", "the SSD's MDTS / Linux max_hw_sectors")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 1, 1e5,
                  "root complex / interconnect ceiling for the SSD's DMA",
                  "calibrated: the controller's AXI slave/master path")
            .real("driver_request_instructions", &P::driver_request_instructions,
                  "instructions", 0, 1e7, "Linux nvme driver + blk-mq work per request",
                  "calibrated: order of the nvme submit/complete path")
            .integer("irqs_per_request", &P::irqs_per_request, "count", 0, 100,
                     "interrupts per request", "NVMe (one MSI per completion)");
    return s;
  }
};

}  // namespace socsim::models
