#pragma once
/// @file pcie_nic_params.h
/// @brief Parameters of an Ethernet NIC attached over PCIe (the board's `peripherals[].nic`
///        group): the NIC's Ethernet port and how its bus-master DMA crosses the PCIe link to the
///        SoC's root complex. The NIC's MAC side (FIFOs, checksum offload, interrupt moderation,
///        descriptor size) is the same peripheral's `cpsw` group (models::CpswParams); the link's
///        generation and width are the peripheral's `link_speed_mbps` (per lane) and `lanes`.
#include <string>

#include "common/params.h"

namespace socsim::models {

struct PcieNicParams {
  double ethernet_link_mbps = 1000;  ///< line rate of the NIC's Ethernet port
  int max_payload_bytes = 128;       ///< MPS: largest posted write (receive data) on the link
  int read_completion_bytes = 64;    ///< data per completion TLP of the NIC's reads (transmit)
  int tlp_overhead_bytes = 24;       ///< bytes a TLP costs beyond its payload
  double read_latency_ns = 1000;     ///< NIC read request -> first completion back (RC + DDR)
  int descriptors_per_fetch = 4;     ///< descriptors the NIC fetches with one read
  double interrupt_interval_us = 0;  ///< interrupt moderation interval; 0 = the stack's pacing

  static const params::Schema<PcieNicParams>& schema() {
    using P = PcieNicParams;
    static const auto s =
        params::Schema<P>("pcie_nic")
            .real("ethernet_link_mbps", &P::ethernet_link_mbps, "Mbit/s", 1, 1e6,
                  "line rate of the NIC's Ethernet port", "the NIC's datasheet")
            .integer("max_payload_bytes", &P::max_payload_bytes, "bytes", 128, 4096,
                     "max payload size of the NIC's posted writes (receive data, write-backs)",
                     "PCIe Base: the smaller of the NIC's and the root port's MPS capability")
            .integer("read_completion_bytes", &P::read_completion_bytes, "bytes", 64, 4096,
                     "data per completion TLP returned to the NIC's reads (transmit data, "
                     "descriptor fetches)",
                     "calibrated: read completion boundary of the root complex (64 or 128 B)")
            .integer("tlp_overhead_bytes", &P::tlp_overhead_bytes, "bytes", 0, 256,
                     "bytes a TLP costs beyond its payload",
                     "PCIe Base 3.0: framing 4 + sequence 2 + header 12-16 + LCRC 4, plus "
                     "ACK/flow-control DLLPs")
            .real("read_latency_ns", &P::read_latency_ns, "ns", 0, 1e6,
                  "from the NIC's read request to its first completion: link both ways, the "
                  "root complex and the SoC's DDR read",
                  "calibrated: order of 1 us for an endpoint read of host memory")
            .integer("descriptors_per_fetch", &P::descriptors_per_fetch, "count", 1, 256,
                     "descriptors the NIC prefetches with one read request",
                     "the NIC's datasheet (descriptor prefetch threshold)")
            .real("interrupt_interval_us", &P::interrupt_interval_us, "us", 0, 1e6,
                  "interrupt moderation interval of the NIC's driver; 0 = the stack's "
                  "pacing_interval_us",
                  "the NIC driver's default interrupt throttling");
    return s;
  }
};

}  // namespace socsim::models
