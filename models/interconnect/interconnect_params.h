#pragma once
/// @file interconnect_params.h
/// @brief Parameters of the path from the clusters (and DMA) to the DDR controller / on-chip SRAM.
#include <string>

#include "common/params.h"

namespace socsim::models {

struct InterconnectParams {
  double clock_mhz = 200;          ///< interconnect clock domain (L3/NoC/MSMC fabric)
  int width_bytes = 16;            ///< data path width per cycle
  int latency_cycles = 10;         ///< one-way request + response pipeline latency (sum), cycles
  std::string arbitration = "round_robin";  ///< round_robin | fifo
  int max_outstanding = 0;         ///< transactions in flight per initiator port; 0 = unlimited
  int max_outstanding_writes = 0;  ///< writes in flight per initiator port (until their response); 0 = unlimited
  int max_outstanding_reads = 0;   ///< reads in flight per initiator port (until their data); 0 = unlimited

  static const params::Schema<InterconnectParams>& schema();
};

inline const params::Schema<InterconnectParams>& InterconnectParams::schema() {
  using P = InterconnectParams;
  static const auto s =
      params::Schema<P>("interconnect")
          .real("clock_mhz", &P::clock_mhz, "MHz", 10, 5000, "interconnect clock",
                "SoC TRM clock tree (L3 main interconnect 200 MHz on AM335x/AM57x)")
          .integer("width_bytes", &P::width_bytes, "bytes", 4, 256, "data path width per cycle",
                   "SoC TRM (128-bit L3/NoC data path)")
          .integer("latency_cycles", &P::latency_cycles, "cycles", 0, 1000,
                   "request plus response pipeline latency through the fabric, interconnect cycles",
                   "calibrated: generic NoC traversal (10 cycles)")
          .choice("arbitration", &P::arbitration, {"round_robin", "fifo"},
                  "arbitration between initiator ports (round robin per burst or arrival order)",
                  "SoC TRM interconnect arbitration (round robin)")
          .integer("max_outstanding", &P::max_outstanding, "count", 0, 1024,
                   "transactions in flight per initiator port; 0 = unlimited",
                   "SoC TRM initiator port outstanding-transaction limits (0 = no limit)")
          .integer("max_outstanding_writes", &P::max_outstanding_writes, "count", 0, 1024,
                   "writes in flight per initiator port, each until its write response comes back "
                   "(the AXI write issuing capability of the port); 0 = unlimited",
                   "SoC TRM / initiator AXI write issuing capability (0 = no limit)")
          .integer("max_outstanding_reads", &P::max_outstanding_reads, "count", 0, 1024,
                   "reads in flight per initiator port, each until its last data beat comes back "
                   "(the AXI read issuing capability of the port); 0 = unlimited",
                   "SoC TRM / initiator AXI read issuing capability (0 = no limit)");
  return s;
}

}  // namespace socsim::models
