#pragma once
/// @file cache_params.h
/// @brief Parameters of one cache level (L1I, L1D, L2, L3/MSMC): geometry, latency, policies.
///
/// Header-only so the config loader can fill it without linking the cache model. Defaults are a
/// generic 32 KiB 4-way L1 data cache; every board preset overrides the geometry with its TRM facts.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct CacheParams {
  std::uint64_t size_bytes = 32 * 1024;  ///< capacity
  int associativity = 4;                 ///< ways per set
  int line_bytes = 64;                   ///< line (block) size
  double clock_mhz = 0;                  ///< cache clock; 0 = the clock of the cluster/core that owns it
  int hit_latency_cycles = 4;            ///< load-to-use latency of a hit, cache clock cycles
  int miss_latency_cycles = 2;           ///< lookup + fill overhead this level adds to a miss, cycles
  int data_width_bytes = 16;             ///< bytes per cycle the data array delivers (line fill occupancy)
  int data_banks = 1;                    ///< independent data-array banks, interleaved by line address
  std::string replacement = "lru";       ///< lru | plru | random
  int random_seed = 1;                   ///< seed of the random replacement policy (determinism)
  bool write_back = true;                ///< write-back (true) or write-through (false)
  bool write_allocate = true;            ///< allocate a line on a write miss
  int mshrs = 4;                         ///< misses this level keeps in flight
  std::string inclusion = "non_inclusive";  ///< inclusive | exclusive | non_inclusive (vs the level above)
  std::string prefetcher = "none";       ///< none | next_line | stride | pc_stride (at this level)
  int prefetch_degree = 1;               ///< lines issued per prefetch trigger
  int prefetch_distance = 1;             ///< how many lines ahead of the demand stream
  bool prefetch_per_initiator = false;   ///< one prefetcher table per requesting core (shared levels)
  bool writes_use_mshrs = false;         ///< write-backs / non-allocating writes hold an MSHR until accepted below
  std::string indexing = "physical";     ///< physical | virtual (set index from the VA: VIPT L1s)

  std::uint64_t sets() const {
    return size_bytes / (static_cast<std::uint64_t>(line_bytes) * associativity);
  }

  static const params::Schema<CacheParams>& schema();
};

inline const params::Schema<CacheParams>& CacheParams::schema() {
  using P = CacheParams;
  static const auto s =
      params::Schema<P>("cache")
          .bytes("size", &P::size_bytes, 256, 1ull << 32, "cache capacity",
                 "core/SoC TRM cache configuration (generic 32 KiB L1D default)")
          .integer("associativity", &P::associativity, "ways", 1, 64, "ways per set",
                   "core TRM cache organisation (4-way: Cortex-A8/A9/A53 L1D)")
          .integer("line_bytes", &P::line_bytes, "bytes", 16, 256, "line size",
                   "core TRM (64 bytes on Cortex-A8/A9/A15/A53/A72 L1 and L2)")
          .real("clock_mhz", &P::clock_mhz, "MHz", 0, 10000,
                "cache clock; 0 = the owning core/cluster clock",
                "SoC TRM clock tree (L1 runs at the core clock)")
          .integer("hit_latency_cycles", &P::hit_latency_cycles, "cycles", 1, 200,
                   "load-to-use latency of a hit in cycles of the cache clock",
                   "calibrated: ARM Cortex-A53/A72 Software Optimization Guide load-to-use (4 cycles)")
          .integer("miss_latency_cycles", &P::miss_latency_cycles, "cycles", 0, 200,
                   "tag lookup and fill overhead this level adds to a miss, cache clock cycles",
                   "calibrated: gem5 BaseCache tag_latency+response_latency order (2 cycles)")
          .integer("data_width_bytes", &P::data_width_bytes, "bytes", 4, 256,
                   "bytes per cycle between data array and the next level (fill occupancy)",
                   "core TRM bus width (128-bit AXI/ACE on Cortex-A)")
          .integer("data_banks", &P::data_banks, "count", 1, 64,
                   "independent banks of the data array, interleaved by line address: requests "
                   "to different banks occupy their own `data_width_bytes` port in the same "
                   "cycles (the cores of a cluster reading a shared L2 at once); each requester's "
                   "own path stays one port wide",
                   "core TRM L2 memory system (one bank as the generic default)")
          .choice("replacement", &P::replacement, {"lru", "plru", "random"}, "replacement policy",
                  "core TRM (pseudo-random on Cortex-A8/A9 L1; LRU-like assumed by default)")
          .integer("random_seed", &P::random_seed, "count", 0, 2147483647,
                   "seed of the random replacement policy", "socsim determinism rule (fixed seed)")
          .flag("write_back", &P::write_back, "write-back (true) or write-through (false)",
                "core TRM (write-back for normal cacheable memory)")
          .flag("write_allocate", &P::write_allocate, "allocate a line on a write miss",
                "core TRM (write-allocate on Cortex-A9/A15/A53/A72; read-allocate L1 on Cortex-A8)")
          .integer("mshrs", &P::mshrs, "count", 1, 256, "misses this level keeps in flight",
                   "core TRM line-fill buffers / L2 outstanding transactions (4 as a generic L1)")
          .choice("inclusion", &P::inclusion, {"inclusive", "exclusive", "non_inclusive"},
                  "inclusion property versus the level above",
                  "core TRM (Cortex-A53/A72 L2 inclusive of L1D tags; non-inclusive generic)")
          .choice("prefetcher", &P::prefetcher, {"none", "next_line", "stride", "pc_stride"},
                  "hardware prefetcher at this level",
                  "core TRM prefetch unit description (none by default)")
          .integer("prefetch_degree", &P::prefetch_degree, "lines", 1, 32,
                   "lines issued per prefetch trigger", "calibrated: gem5 StridePrefetcher degree 1")
          .integer("prefetch_distance", &P::prefetch_distance, "lines", 0, 64,
                   "how many lines ahead of the demand stream the prefetcher runs",
                   "calibrated: gem5 QueuedPrefetcher default (1 line)")
          .flag("prefetch_per_initiator", &P::prefetch_per_initiator,
                "each requesting core trains its own prefetcher streams at this (shared) level, "
                "as when the prefetch engine sits in each core's load/store unit; false: one "
                "table shared by all requesters",
                "core TRM prefetch unit description (false: one shared table)")
          .flag("writes_use_mshrs", &P::writes_use_mshrs,
                "write-backs and non-allocating writes to the level below hold a miss slot until "
                "the level below accepts them (one fill/eviction queue shared by reads and writes)",
                "core TRM (Cortex-A72 L2: one Fill/Eviction Queue; separate write buffer by default)")
          .choice("indexing", &P::indexing, {"physical", "virtual"},
                  "address that selects the set: physical (PIPT) or virtual (VIPT L1; only "
                  "meaningful for an L1, every lower level is physical)",
                  "core TRM (PIPT L1 data cache on Cortex-A9/A15/A53/A72)");
  return s;
}

}  // namespace socsim::models
