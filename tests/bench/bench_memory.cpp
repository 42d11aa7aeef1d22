// Simulator speed of the memory system (Google Benchmark): simulated accesses per host second.
// Targets (issue 3): >= 30 M L1-hit accesses/s, >= 3 M accesses/s on the full miss path to DRAM.
// One Platform for the whole program (SystemC elaborates once per process); each benchmark runs
// its jobs on it one after another.
#include <benchmark/benchmark.h>

#include <memory>

#include "models/cpu/core_memory.h"
#include "soc/platform.h"

using socsim::models::CoreMemory;
using socsim::soc::MemorySystemConfig;
using socsim::soc::Platform;

namespace {

Platform& platform() {
  static std::unique_ptr<Platform> p = [] {
    MemorySystemConfig m;
    auto& c = m.clusters[0];
    c.cores = 1;
    c.core_clock_mhz = 1000;
    c.memory.line_fill_buffers = 6;
    c.l2->size_bytes = 512 * 1024;
    m.interconnect.clock_mhz = 500;
    return std::make_unique<Platform>(m);
  }();
  return *p;
}

constexpr std::uint64_t kBatch = 1 << 20;

void BM_L1HitLoads(benchmark::State& state) {
  Platform& p = platform();
  p.flushCaches();
  for (auto _ : state) {
    p.run(0, [](CoreMemory& c) {
      for (std::uint64_t i = 0; i < kBatch; ++i) c.load((i * 8) & 0x3fff);  // 16 KiB: L1 hits
    });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}
BENCHMARK(BM_L1HitLoads)->Unit(benchmark::kMillisecond);

void BM_L1HitChase(benchmark::State& state) {
  Platform& p = platform();
  p.flushCaches();
  for (auto _ : state) {
    p.run(0, [](CoreMemory& c) {
      for (std::uint64_t i = 0; i < kBatch; ++i) c.chase((i * 128) & 0x3fff);
    });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}
BENCHMARK(BM_L1HitChase)->Unit(benchmark::kMillisecond);

void BM_L1HitStores(benchmark::State& state) {
  Platform& p = platform();
  p.flushCaches();
  for (auto _ : state) {
    p.run(0, [](CoreMemory& c) {
      for (std::uint64_t i = 0; i < kBatch; ++i) c.store((i * 8) & 0x3fff);
    });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}
BENCHMARK(BM_L1HitStores)->Unit(benchmark::kMillisecond);

/// Every access a new line far beyond L2: L1 miss -> L2 miss -> interconnect -> DDR.
void BM_MissPathToDram(benchmark::State& state) {
  Platform& p = platform();
  p.flushCaches();
  const std::uint64_t n = 1 << 18;
  std::uint64_t base = 0;
  for (auto _ : state) {
    p.run(0, [&](CoreMemory& c) {
      for (std::uint64_t i = 0; i < n; ++i) c.load(base + i * 64);
    });
    base = (base + n * 64) % (1ull << 32);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_MissPathToDram)->Unit(benchmark::kMillisecond);

/// Dependent misses (lat_mem_rd beyond the caches).
void BM_MissChaseToDram(benchmark::State& state) {
  Platform& p = platform();
  p.flushCaches();
  const std::uint64_t n = 1 << 18;
  std::uint64_t base = 0;
  for (auto _ : state) {
    p.run(0, [&](CoreMemory& c) {
      for (std::uint64_t i = 0; i < n; ++i) c.chase(base + i * 128);
    });
    base = (base + n * 128) % (1ull << 32);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_MissChaseToDram)->Unit(benchmark::kMillisecond);

/// bw_mem-style streams of 16 MiB (8-byte accesses): items are simulated accesses.
void BM_StreamRead16MiB(benchmark::State& state) {
  Platform& p = platform();
  const std::uint64_t bytes = 16 << 20;
  for (auto _ : state) {
    p.flushCaches();
    p.run(0, [&](CoreMemory& c) { c.readStream(0x10000000, bytes); });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * bytes / 8));
}
BENCHMARK(BM_StreamRead16MiB)->Unit(benchmark::kMillisecond);

void BM_Memcpy16MiB(benchmark::State& state) {
  Platform& p = platform();
  const std::uint64_t bytes = 16 << 20;
  for (auto _ : state) {
    p.flushCaches();
    p.run(0, [&](CoreMemory& c) { c.memcpy(0x20000000, 0x10000000, bytes); });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 2 * bytes / 8));
}
BENCHMARK(BM_Memcpy16MiB)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
