#pragma once
/// @file interconnect.h
/// @brief The fabric between initiators (cluster L2s, L3/MSMC, DMA) and memory targets (DDR
///        controller, on-chip SRAM), as a loosely-timed TLM router.
///
/// Models: a fixed pipeline latency (`latency_cycles`, split between the request and the response
/// direction), a request link (commands and write data) and a response link (read data), each
/// `width_bytes` per cycle and shared by every initiator port — so several cores streaming
/// through it contend for its bandwidth —, cut-through forwarding (serialization overlaps the
/// target's data transfer), optional per-port limits of transactions and of writes in flight
/// (a posted write holds its slot until the write response returns through the fabric), and address
/// routing to `mem_side[i]` by ranges (`addRoute`, set by soc/; the default route is index 0).
/// Does not model: separate per-target links, QoS, arbitration beyond arrival order (with
/// temporal decoupling both `round_robin` and `fifo` grant the link in order of requested time).
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/base/stats.h"
#include "models/base/timeline.h"
#include "models/base/transaction.h"
#include "models/interconnect/interconnect_params.h"

namespace socsim::models {

class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> cpu_side;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> mem_side;

  Interconnect(sc_core::sc_module_name name, const InterconnectParams& p);

  /// Route [base, base + size) to mem_side[index]. Later routes win on overlap.
  void addRoute(std::uint64_t base, std::uint64_t size, int index);
  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  /// Forget reservations and in-flight limits (between benchmarks).
  void reset();

  std::uint64_t periodPs() const { return period_; }
  std::uint64_t latencyPs() const { return period_ * static_cast<std::uint64_t>(p_.latency_cycles); }
  const InterconnectParams& params() const { return p_; }

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t transactions = 0, readBytes = 0, writeBytes = 0, outstandingStalls = 0;
    double waitNs = 0, busyNs = 0;
  };
  Stats& stats() { return stats_; }

 private:
  struct Route {
    std::uint64_t base, size;
    int index;
  };
  int route(std::uint64_t addr) const;

  InterconnectParams p_;
  std::uint64_t period_, reqLat_, respLat_;
  std::vector<Route> routes_;
  Timeline reqLink_, respLink_;
  std::vector<std::vector<std::uint64_t>> inFlight_;  ///< per cpu_side port: completion times
  std::vector<std::vector<std::uint64_t>> writesInFlight_;  ///< per cpu_side port: write completions
  std::vector<std::vector<std::uint64_t>> readsInFlight_;   ///< per cpu_side port: read completions
  /// Slot of `table[id]` (sized `n`) that frees first; waits `t` for it.
  std::uint64_t* takeSlot(std::vector<std::vector<std::uint64_t>>& table, int id, int n, std::uint64_t& t);
  Stats stats_;
};

}  // namespace socsim::models
