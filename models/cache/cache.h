#pragma once
/// @file cache.h
/// @brief A set-associative cache level (L1I, L1D, L2, L3/MSMC) as a loosely-timed TLM module.
///
/// Models: tags only (no data), set-associative lookup with a replacement policy picked by name,
/// write-back or write-through, write-allocate or not, full-line writes allocating without a fetch,
/// a limited number of misses in flight (MSHRs; a miss waits for the earliest free one), lines in
/// flight (an access to a line still being filled waits for its fill), a data port per bank
/// (`data_banks`, interleaved by line address) whose occupancy is `bytes / data_width_bytes`
/// cycles (contention between the cores of a cluster on a shared L2; with several banks each
/// requester also has its own port of that width), an optional prefetcher, and exclusive inclusion (fills from below are not kept,
/// victims from above are).
/// Does not model: data values, coherence or snooping, back-invalidation of inclusive caches
/// (inclusive behaves as non-inclusive), tag-bank conflicts, ECC.
///
/// Timing: a request arriving at time t (sc_time_stamp() + delay) that hits is answered at
/// start + hit_latency (start = when the port is free); a miss costs miss_latency, then waits for
/// an MSHR, then the line's fetch from `mem_side`. The latency this level added is recorded in the
/// transaction's MemExtension under its `level` part.
///
/// The core's memory front end uses the direct interface (`lookup`, `fetchLine`, `writeLine`) for
/// its L1s, so an L1 hit costs no TLM call.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/base/stats.h"
#include "models/base/timeline.h"
#include "models/base/transaction.h"
#include "models/cache/cache_params.h"
#include "models/cache/prefetcher/prefetcher.h"
#include "models/cache/replacement/replacement_policy.h"

namespace socsim::models {

class PageMap;

struct CacheLine {
  std::uint64_t block = 0;    ///< address / line size
  std::uint64_t readyPs = 0;  ///< when its fill completes (lines in flight)
  bool valid = false;
  bool dirty = false;
  bool prefetched = false;    ///< filled by a prefetch and not yet used
};

class Cache : public sc_core::sc_module {
 public:
  /// Requesters above (L1s of a cluster, TLM initiators). May stay unbound: the core front end
  /// drives its L1s through the direct interface.
  tlm_utils::multi_passthrough_target_socket<Cache, 32, tlm::tlm_base_protocol_types, 0,
                                             sc_core::SC_ZERO_OR_MORE_BOUND>
      cpu_side;
  tlm_utils::simple_initiator_socket<Cache> mem_side;

  /// @param ownerClockMhz clock used when params.clock_mhz is 0 (the core's or cluster's).
  /// @param level the breakdown part this cache's latency is booked under (L1, L2, L3).
  Cache(sc_core::sc_module_name name, const CacheParams& params, double ownerClockMhz, Part level);
  ~Cache() override;

  const CacheParams& params() const { return p_; }
  std::uint64_t periodPs() const { return periodPs_; }
  std::uint64_t hitPs() const { return hitPs_; }
  std::uint64_t missPs() const { return missPs_; }
  int lineShift() const { return lineShift_; }
  std::uint64_t block(std::uint64_t addr) const { return addr >> lineShift_; }

  /// Direct lookup (no TLM, no timing): the line holding `block`, counting a hit or a miss and
  /// updating the replacement state on a hit.
  CacheLine* lookup(std::uint64_t blk) {
    ++stats_.accesses;
    CacheLine* l = find(blk);
    if (l) {
      ++stats_.hits;
      policy_->touch(setOf(blk), static_cast<int>(l - &lines_[setOf(blk) * ways_]));
      if (l->prefetched) {
        l->prefetched = false;
        ++stats_.prefetchHits;
      }
    } else {
      ++stats_.misses;
    }
    return l;
  }
  /// Presence check without side effects.
  CacheLine* find(std::uint64_t blk) {
    CacheLine* base = &lines_[setOf(blk) * ways_];
    for (int w = 0; w < ways_; ++w)
      if (base[w].valid && base[w].block == blk) return &base[w];
    return nullptr;
  }

  /// Allocate `blk`, evicting a victim (dirty victims written back through mem_side, posted),
  /// and fetch it from mem_side at `issuePs` unless `fetch` is false (full-line write).
  /// Returns when the line is ready. Adds the downstream latency parts to `ext`. No MSHR
  /// accounting (the caller owns it).
  std::uint64_t fetchLine(std::uint64_t blk, std::uint64_t issuePs, MemExtension& ext, bool dirty,
                          bool fetch, bool prefetch = false);
  /// Send a write of `bytes` at `addr` to mem_side (write-through / no-allocate), posted.
  /// Returns when the next level accepted it; adds the downstream parts to `ext`.
  std::uint64_t writeDown(std::uint64_t addr, unsigned bytes, std::uint64_t issuePs,
                          MemExtension& ext, bool noAllocateBelow);
  /// Count a miss that the owner (the core front end) resolved itself.
  void countMissLatency(std::uint64_t ps) { stats_.missLatencyPs += static_cast<double>(ps); }

  /// Invalidate every line (dirty data dropped: used between benchmarks for a cold start).
  void invalidateAll();
  /// Write back every dirty line now (posted), then keep the lines clean.
  void cleanAll(std::uint64_t issuePs);
  /// Send clean victims down too (the level below is exclusive).
  void setEvictClean(bool on) { evictClean_ = on; }
  /// A virtually indexed L1 keeps lines by virtual address: translate the addresses it sends to
  /// mem_side (fills, write-backs, write-through) with `map` (nullptr: send them unchanged).
  void setDownTranslation(const PageMap* map) { xlate_ = map; }
  /// Number of valid lines (tests).
  std::uint64_t validLines() const;

  void b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t accesses = 0, hits = 0, misses = 0, writebacks = 0, prefetches = 0,
                  prefetchHits = 0, mshrStalls = 0;
    double missLatencyPs = 0, portWaitNs = 0, busyNs = 0;
  };
  Stats& stats() { return stats_; }

 private:
  std::uint32_t setOf(std::uint64_t blk) const {
    return pow2Sets_ ? static_cast<std::uint32_t>(blk & (sets_ - 1))
                     : static_cast<std::uint32_t>(blk % sets_);
  }
  /// Pick and evict a victim; `wbAccepted` = when the level below took its write-back (or issuePs).
  CacheLine* victimFor(std::uint64_t blk, std::uint64_t issuePs, MemExtension& ext,
                       std::uint64_t& wbAccepted);
  /// MSHR for a miss arriving at t: returns the issue time (>= t) and the slot index; the slot
  /// stays taken until setMshr() gives the time it frees.
  std::uint64_t takeMshr(std::uint64_t t, int& slot);
  /// Earliest time >= t at which MSHR `k` is not occupied.
  std::uint64_t mshrFreeAt(std::size_t k, std::uint64_t t) const;
  /// The occupancy of MSHR `slot` that takeMshr() opened ends at `end`.
  void setMshr(std::size_t slot, std::uint64_t end);
  /// Occupancies remembered per MSHR: requests of temporally decoupled initiators arrive out of
  /// time order, so an earlier request may use a slot that a later one has booked.
  static constexpr std::size_t kMshrHistory = 8;
  void runPrefetcher(std::uint64_t blk, bool trigger, std::uint64_t t, std::uint32_t pc,
                     int initiator);

  CacheParams p_;
  Part level_;
  std::uint64_t periodPs_, hitPs_, missPs_;
  int lineShift_, ways_;
  std::uint64_t sets_;
  bool pow2Sets_;
  bool evictClean_ = false;
  bool exclusive_;
  const PageMap* xlate_ = nullptr;
  /// Address on mem_side of line `blk` / of byte address `addr`.
  std::uint64_t downAddr(std::uint64_t addr) const;
  std::vector<CacheLine> lines_;
  std::unique_ptr<ReplacementPolicy> policy_;
  std::unique_ptr<Prefetcher> prefetcher_;
  /// With prefetch_per_initiator: one table per requesting core (index = initiator id).
  std::vector<std::unique_ptr<Prefetcher>> initiatorPrefetchers_;
  PrefetchConfig prefetchConfig_;
  Prefetcher* prefetcherFor(int initiator);
  std::vector<std::uint64_t> pfCandidates_;
  std::vector<std::uint64_t> mshrFree_;
  std::vector<std::uint64_t> mshrBlock_;  ///< block each MSHR fetched last
  std::vector<PartTimes> mshrParts_;      ///< latency parts of that fetch
  /// Recent [start, end) occupancies of each MSHR (ps); end ~0 while the fetch is under way.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> mshrBusy_;
  /// Book the wait of a hit on a line still being filled to the parts of its fetch.
  void bookInFlightWait(std::uint64_t blk, std::uint64_t readyPs, std::uint64_t waitPs,
                        MemExtension& ext);
  std::vector<Timeline> ports_;  ///< one data port per bank
  /// With several banks: each requester's own port (its path into this level is no wider than
  /// one bank's), indexed by MemExtension::initiator.
  std::vector<Timeline> initiatorPorts_;
  tlm::tlm_generic_payload down_;
  MemExtension downExt_;
  PartTimes wbParts_{};  ///< latency parts of the last write-back
  Stats stats_;
};

}  // namespace socsim::models
