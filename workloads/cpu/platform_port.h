#pragma once
/// @file platform_port.h
/// @brief CoreMemoryPort onto one core of the elaborated platform (soc::Platform): the core
///        model's loads, stores and fetches go through that core's L1 caches (direct lookup, no
///        TLM call on a hit) and, on a miss, down the platform's L2 / interconnect / L3 / DDR
///        models (TLM), which share their calendars with the other cores (contention).
///
/// Cycles of the core model map to absolute picoseconds from the job's start
/// (`CoreMemory::localPs()` at construction). Modelled here, as the front end does: line-fill
/// buffers (`line_fill_buffers`, a miss waits for the earliest free one), lines in flight (a hit
/// on a line still being filled waits for it), write-allocate misses holding a buffer,
/// read-allocate L1s writing through to the level below, and the L1 data prefetcher.
/// `sync(cycle)` advances the front end's local time to the core's (the SystemC quantum sync that
/// lets the other cores' jobs run).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cache/prefetcher/prefetcher.h"
#include "models/cpu/core_memory.h"
#include "models/cpu/core_model.h"

namespace socsim::wl::cpu {

class PlatformPort : public models::CoreMemoryPort {
 public:
  explicit PlatformPort(models::CoreMemory& cm);
  Access load(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) override;
  Access store(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) override;
  Access fetch(std::uint64_t addr, std::uint64_t cycle) override;
  unsigned fetchLineBytes() const override;
  std::vector<std::string> levelNames() const override;

  /// Advance the front end's local time to core cycle `cycle` (SystemC sync point).
  void sync(std::uint64_t cycle);
  /// Core cycles in one SystemC global quantum: the core runs at most this far ahead of the
  /// other cores between two sync() calls (shared calendars see requests nearly in time order).
  std::uint64_t quantumCycles() const;
  /// Picoseconds of core cycle `cycle`.
  std::uint64_t psOf(std::uint64_t cycle) const { return base_ + cycle * period_; }

 private:
  std::uint64_t cycleOf(std::uint64_t ps) const {
    return ps <= base_ ? 0 : (ps - base_ + period_ - 1) / period_;
  }
  int levelOf(const models::MemExtension& e) const;
  std::uint64_t missData(std::uint64_t blk, std::uint64_t t, bool dirty, int& level);
  void prefetch(std::uint64_t blk, bool trigger, std::uint64_t t);

  models::CoreMemory& cm_;
  std::uint64_t base_, period_, synced_ = 0;
  std::vector<std::uint64_t> lfb_;
  std::unique_ptr<models::Prefetcher> prefetcher_;
  std::vector<std::uint64_t> candidates_;
  models::MemExtension ext_;
  /// The granule (address / CoreMemory::combineBytes) of the store buffer's open
  /// write-combining entry: the last no-allocate or write-through store went below from it.
  std::uint64_t wcGranule_ = ~0ull;
};

}  // namespace socsim::wl::cpu
