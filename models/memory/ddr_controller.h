#pragma once
/// @file ddr_controller.h
/// @brief DDR controller (EMIF / DDRSS) with its DRAM channels, as a loosely-timed TLM target.
///
/// Models: front-end latency (decode, queue entry) and back-end latency (PHY, return path) in
/// controller cycles; address mapping to channel / bank / row (row:bank:column or
/// row:column:bank, channel interleave granule); requests split into DRAM bursts; reads timed on
/// arrival against the bank state and the data-bus calendar (FR-FCFS lets a ready burst take an
/// earlier bus slot, FCFS keeps data in arrival order); posted writes held in a write queue of
/// `write_queue_depth` slots, drained in batches between the high and low watermarks (row hits
/// first with FR-FCFS) or when the bus is idle, with back-pressure once every slot is taken.
/// Bandwidth, efficiency and latency follow from the DRAM timing (see dram.h).
/// Does not model: a read queue limit (the requesters' MSHRs bound it), QoS classes, ECC,
/// reads forwarded from the write queue, power states.
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/base/stats.h"
#include "models/base/transaction.h"
#include "models/memory/ddr_controller_params.h"
#include "models/memory/dram.h"
#include "models/memory/dram_params.h"
#include "models/memory/scheduler/scheduler.h"

namespace socsim::models {

class DdrController : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<DdrController> cpu_side;

  DdrController(sc_core::sc_module_name name, const DdrControllerParams& c, const DramParams& d);

  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  /// Where an address lands.
  struct Location {
    int channel = 0, bank = 0;
    std::uint32_t row = 0;
  };
  Location decode(std::uint64_t addr) const;

  /// Issue every queued write now (at `t` ps or their arrival, whichever is later).
  void drainWrites(std::uint64_t t);
  /// Empty the queues, close all rows, forget reservations (between benchmarks).
  void reset();

  const DramParams& dramParams() const { return d_; }
  const DdrControllerParams& params() const { return c_; }
  Dram& channel(int i) { return *channels_[static_cast<std::size_t>(i)]; }
  std::uint64_t periodPs() const { return period_; }
  std::uint64_t frontendPs() const { return fe_; }
  std::uint64_t backendPs() const { return be_; }
  /// Peak data bandwidth of all channels (bytes/s).
  double peakBytesPerSecond() const { return d_.peakBytesPerSecond(); }

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t reads = 0, writes = 0, readBytes = 0, writeBytes = 0, writeDrains = 0,
                  writeStalls = 0;
    double readLatencyPs = 0;
    std::uint64_t windowStartPs = 0;
  };
  Stats& stats() { return stats_; }

 private:
  void issueWrite(const QueuedWrite& w, std::uint64_t t);
  void drain(std::uint64_t t, std::size_t downTo, std::size_t atLeast);
  std::uint64_t burstsOf(std::uint64_t addr, unsigned bytes) const;
  /// True when [addr, addr + bytes) lies in one aligned half of a burst (see Dram::access).
  bool inHalfBurst(std::uint64_t addr, unsigned bytes) const;

  DdrControllerParams c_;
  DramParams d_;
  std::uint64_t period_, fe_, be_;
  std::uint64_t burstBytes_, rowBytes_, interleave_;
  int totalBanks_;
  std::vector<std::unique_ptr<Dram>> channels_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<QueuedWrite> writeQ_;
  std::vector<std::uint64_t> writeSlotFree_;  ///< when each write-queue slot frees (max = queued)
  std::vector<std::uint64_t> lastReadData_;   ///< per channel, for in-order (FCFS) reads
  std::size_t highMark_, lowMark_;
  Stats stats_;
};

}  // namespace socsim::models
