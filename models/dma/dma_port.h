#pragma once
/// @file dma_port.h
/// @brief A bus-master port through which a peripheral's DMA engine (CPDMA, UDMA, packet DMA,
///        SD/OSPI DMA, ...) reads and writes memory over the platform's interconnect, so that its
///        traffic contends with the cores' traffic in the interconnect, the L3 and the DDR models.
///
/// Loosely timed: `transfer()` is called from a SystemC thread process (a platform job) with the
/// absolute time (ps) at which the engine starts moving a buffer; the buffer goes out as
/// `burst_bytes` transactions, at most `outstanding` of them in flight (a burst waits for the
/// completion of the burst `outstanding` places before it), each one a TLM b_transport on
/// `mem_side` whose delay carries the absolute issue time. The caller keeps its own time.
/// Models: burst splitting, the in-flight limit, the latency of each burst through the memory
/// system, and where that latency went (MemExtension parts). Does not model: descriptor
/// semantics (the peripheral model issues descriptor reads and write-backs as transfers of
/// their own), cache coherence (a DMA write does not invalidate lines held in the CPU caches:
/// callers give buffers addresses the cores have not cached, as the driver's cache maintenance
/// would leave them), data values.
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "models/base/stats.h"
#include "models/base/transaction.h"

namespace socsim::models {

class DmaPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<DmaPort> mem_side;

  /// @param initiatorId requester id carried in MemExtension::initiator (distinct from cores).
  DmaPort(sc_core::sc_module_name name, int initiatorId);
  ~DmaPort() override;

  /// Timing of one buffer move.
  struct Transfer {
    std::uint64_t startPs = 0;  ///< first burst issued
    std::uint64_t endPs = 0;    ///< last burst completed
    PartTimes parts{};          ///< latency of the bursts by part, summed (ps)
  };
  /// Move `bytes` at `addr` (write: device -> memory; read: memory -> device) starting no
  /// earlier than `atPs`, in `burstBytes` bursts with at most `outstanding` in flight.
  /// Call from a SystemC thread process; `atPs` earlier than SystemC time starts now.
  Transfer transfer(bool write, std::uint64_t addr, std::uint64_t bytes, std::uint64_t atPs,
                    unsigned burstBytes, unsigned outstanding);

  int initiatorId() const { return id_; }

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t transfers = 0, bursts = 0, readBytes = 0, writeBytes = 0;
    double latencyNs = 0;  ///< sum over bursts of issue-to-completion time
  };
  Stats& stats() { return stats_; }

 private:
  int id_;
  tlm::tlm_generic_payload payload_;
  MemExtension ext_;
  Stats stats_;
};

}  // namespace socsim::models
