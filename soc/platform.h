#pragma once
/// @file platform.h
/// @brief The elaborated memory system of one board, and how workloads drive it.
///
/// Built once per process (SystemC allows one elaboration): `Platform p(cfg);` creates and binds
///
///   soc.cluster<c>.cpu<i>        CoreMemory (memory front end), with .l1i and .l1d inside
///   soc.cluster<c>.l2            Cache shared by the cluster's cores (when configured)
///   soc.interconnect             Interconnect (every cluster's L2 -> memory)
///   soc.l3                       Cache in front of DDR (when configured)
///   soc.ddr                      DdrController with its DRAM channels (soc.ddr.ch<k>)
///   soc.dma                      DmaPort: peripheral DMA bus master on the interconnect
///
/// and then runs any number of benchmarks one after another. Each `run` spawns one SystemC
/// thread per job, each driving one core through the CoreMemory API (models/cpu/core_memory.h),
/// and returns the simulated time and where it went. Between benchmarks call `flushCaches()`
/// (cold start) and/or `resetStats()` (start of the region of interest).
///
/// Example — a pointer chase with a 128-byte stride over `size` bytes, ns per load:
/// @code
///   soc::Platform p(cfg);
///   auto chase = [&](models::CoreMemory& c) {
///     for (std::uint64_t a = 0; a < size; a += 128) c.chase(base + a);
///   };
///   p.run(0, chase);                 // warm-up pass (fills the caches)
///   p.resetStats();
///   auto r = p.run(0, chase);        // measured pass
///   double nsPerLoad = r.seconds * 1e9 / (size / 128);
///   // r.breakdown: seconds per part ("l1", "l2", "interconnect", "dram.row_miss", ...)
/// @endcode
/// A streaming read of N bytes: `p.run(0, [&](auto& c) { c.readStream(base, N); })`, MB/s =
/// N / r.seconds / 1e6; write: `writeStream`; copy: `memcpy(dst, src, N)` (C library idiom)
/// or `copyLoop` (word loop); zero: `memzero`. Several cores: `p.run({{0, job}, {1, job}})`.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/base/stats.h"
#include "models/base/transaction.h"
#include "soc/memory_system_config.h"

namespace socsim::models {
class Cache;
class CoreMemory;
class DdrController;
class DmaPort;
class Interconnect;
}  // namespace socsim::models

namespace socsim::soc {

class SocTop;

/// Seconds of simulated time per part (models::Part order), for `socsim explain`.
struct TimeBreakdown {
  std::array<double, models::kParts> seconds{};
  double total() const;
  /// (name, seconds) for every part with time, in Part order (names from models::partName).
  std::vector<std::pair<std::string, double>> items() const;
};

struct RunResult {
  double seconds = 0;                ///< elapsed simulated time of the run (slowest job)
  std::vector<double> jobSeconds;    ///< per job, in the order given
  TimeBreakdown breakdown;           ///< of the slowest job's core; sums to `seconds`
};

class Platform {
 public:
  using Job = std::function<void(models::CoreMemory&)>;

  /// Elaborates the memory system. Throws std::invalid_argument on an inconsistent config.
  explicit Platform(const MemorySystemConfig& cfg);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  const MemorySystemConfig& config() const { return cfg_; }
  int coreCount() const;
  /// Core by flat index (cluster-major: cluster 0's cores first).
  models::CoreMemory& core(int index);
  models::CoreMemory& core(int cluster, int index);
  int clusterCount() const;
  models::Cache* l2(int cluster);  ///< nullptr when the cluster has no L2
  models::Cache* l3();             ///< nullptr when there is no L3
  models::Interconnect& interconnect();
  models::DdrController& ddr();
  /// Bus master of the peripherals' DMA engines (soc.dma), bound to the interconnect beside the
  /// clusters: drive it from inside a job (models/dma/dma_port.h) so DMA and core traffic contend.
  models::DmaPort& dma();
  /// MemExtension::initiator of the DMA port's transactions (cores use their flat index).
  static constexpr int kDmaInitiatorId = 1000;

  /// Run one job on core `core` until it returns and its memory operations complete (fence).
  RunResult run(int core, const Job& job);
  /// Run jobs concurrently, each on its own core (distinct cores); returns when all are done.
  RunResult run(const std::vector<std::pair<int, Job>>& jobs);

  /// Cold start: invalidate every cache, empty buffers and DDR queues, close DRAM rows, restart
  /// the refresh interval. A run after flushCaches() gives the same result whatever ran before.
  void flushCaches();
  /// Zero every stat and breakdown (start of a region of interest).
  void resetStats();
  /// Every stat under "soc." (sorted by path).
  std::vector<stats::Sample> stats() const;
  void writeStatsJson(std::ostream& os) const;
  /// DRAM peak bandwidth, bytes/s (data rate x bus width x channels).
  double dramPeakBytesPerSecond() const;

 private:
  void syncToHorizon();
  MemorySystemConfig cfg_;
  std::unique_ptr<SocTop> top_;
  std::uint64_t horizonPs_ = 0;
};

}  // namespace socsim::soc
