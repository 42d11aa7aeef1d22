#pragma once
/// @file prefetcher.h
/// @brief Hardware data prefetcher interface and registry ("none", "next_line", "stride").
///
/// Works on line (block) numbers. `observe` is called for every demand access the owner sees at
/// its level (with whether it missed or hit a prefetched line) and appends the block numbers to
/// prefetch. The owner drops candidates already present or when no miss slot is free.
/// Candidates never leave the trigger's region (a 4 KiB page): prefetchers see physical
/// addresses and do not know the next page's frame (Arm Cortex-A53/A72 TRM data prefetch).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/base/factory.h"

namespace socsim::models {

struct PrefetchConfig {
  int degree = 1;    ///< blocks per trigger
  int distance = 1;  ///< blocks ahead of the trigger
  int streams = 4;   ///< streams tracked (stride)
  int blocksPerRegion = 64;  ///< training region (a 4 KiB page of 64-byte lines)
  int maxStride = 0;         ///< largest |stride| in blocks the stride prefetcher learns; 0 = any
};

class Prefetcher {
 public:
  virtual ~Prefetcher() = default;
  /// @param trigger true on a demand miss or a first hit on a prefetched line.
  virtual void observe(std::uint64_t block, bool trigger, std::vector<std::uint64_t>& out) = 0;
  /// The same with the load instruction (`pc`, 0 = unknown); PC-indexed prefetchers use it.
  virtual void observe(std::uint64_t block, bool trigger, std::uint32_t pc, std::vector<std::uint64_t>& out) {
    (void)pc;
    observe(block, trigger, out);
  }
  virtual void reset() = 0;
  /// The owner could not issue candidate `block` (no free miss slot) nor any later candidate
  /// of the same observe call. A stream prefetcher keeps its place and issues it again at the
  /// stream's next access instead of skipping it for good (a real prefetch engine stalls on a
  /// full fill queue, it does not skip lines). Default: forget it.
  virtual void dropped(std::uint64_t block) { (void)block; }
};

using PrefetcherFactory = Factory<Prefetcher, const PrefetchConfig&>;
void registerBuiltinPrefetchers();
/// nullptr for "none".
std::unique_ptr<Prefetcher> makePrefetcher(const std::string& name, const PrefetchConfig& c);

/// Next-line: on a trigger, fetch blocks [b + distance, b + distance + degree).
class NextLinePrefetcher : public Prefetcher {
 public:
  explicit NextLinePrefetcher(const PrefetchConfig& c) : c_(c) {}
  void observe(std::uint64_t block, bool trigger, std::vector<std::uint64_t>& out) override;
  void reset() override {}

 private:
  PrefetchConfig c_;
};

/// Stride: per region, learns a constant block stride (two confirmations) and then fetches
/// `degree` blocks starting `distance` strides ahead of every access of the stream. Candidates
/// the owner had to drop (`dropped`) are issued again, oldest first, at the stream's next access
/// while still ahead of it and on its current stride: a full miss queue delays the stream's
/// prefetches, it does not make the stream skip lines for good.
class StridePrefetcher : public Prefetcher {
 public:
  explicit StridePrefetcher(const PrefetchConfig& c) : c_(c), table_(c.streams) {}
  void observe(std::uint64_t block, bool trigger, std::vector<std::uint64_t>& out) override;
  void reset() override;
  void dropped(std::uint64_t block) override;

 private:
  struct Entry {
    std::uint64_t region = ~0ull, last = 0, lru = 0;
    std::int64_t stride = 0;
    int confidence = 0;
    bool pending = false;      ///< a dropped candidate waits to be issued again
    std::uint64_t resume = 0;  ///< the first dropped candidate (block number)
  };
  Entry* lastEmitter_ = nullptr;  ///< entry whose candidates the last observe call returned
  PrefetchConfig c_;
  std::vector<Entry> table_;
  std::uint64_t clock_ = 0;
};

/// PC-indexed stride ("pc_stride"): one entry per load instruction (the `pc` of the access)
/// learns that instruction's stride (two confirmations) and prefetches `degree` blocks starting
/// `distance` strides ahead, within the page. Accesses without a pc train nothing. Unrolled
/// loops whose every instruction strides across pages (lmbench's lat_mem_rd chain) are never
/// prefetched; a tight loop over an array is.
class PcStridePrefetcher : public Prefetcher {
 public:
  explicit PcStridePrefetcher(const PrefetchConfig& c) : c_(c), table_(static_cast<std::size_t>(c.streams)) {}
  void observe(std::uint64_t, bool, std::vector<std::uint64_t>&) override {}
  void observe(std::uint64_t block, bool trigger, std::uint32_t pc, std::vector<std::uint64_t>& out) override;
  void reset() override;

 private:
  struct Entry {
    std::uint32_t pc = 0;
    std::uint64_t last = 0, lru = 0;
    std::int64_t stride = 0;
    int confidence = 0;
  };
  PrefetchConfig c_;
  std::vector<Entry> table_;
  std::uint64_t clock_ = 0;
};

}  // namespace socsim::models
