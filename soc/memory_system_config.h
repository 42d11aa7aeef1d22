#pragma once
/// @file memory_system_config.h
/// @brief What soc::Platform builds: clusters of cores with their caches, an optional L3/MSMC,
///        the interconnect and the DDR controller with its DRAM. Plain structs of the models'
///        params (filled from a BoardConfig by the config layer, or directly by tests).
#include <optional>
#include <string>
#include <vector>

#include "models/cache/cache_params.h"
#include "models/cpu/core_memory_params.h"
#include "models/interconnect/interconnect_params.h"
#include "models/memory/ddr_controller_params.h"
#include "models/memory/dram_params.h"

namespace socsim::soc {

struct BoardConfig;

/// One cluster of identical cores; each core has private L1I/L1D, the cluster shares its L2.
struct MemoryClusterConfig {
  int cores = 1;
  double core_clock_mhz = 1000;  ///< clock of the cores and, unless their clock_mhz says otherwise, of the caches
  models::CoreMemoryParams memory;
  models::CacheParams l1i;
  models::CacheParams l1d;
  std::optional<models::CacheParams> l2 = defaultL2();
  /// The cluster's own path to the L3/DDR, bypassing the shared interconnect (absent: shared).
  std::optional<models::InterconnectParams> memory_port;

  /// A generic 512 KiB 16-way L2 (12-cycle hit, 8 MSHRs) for tests and examples.
  static models::CacheParams defaultL2() {
    models::CacheParams c;
    c.size_bytes = 512 * 1024;
    c.associativity = 16;
    c.hit_latency_cycles = 12;
    c.data_width_bytes = 32;
    c.mshrs = 8;
    return c;
  }
};

struct MemorySystemConfig {
  std::vector<MemoryClusterConfig> clusters{MemoryClusterConfig{}};
  /// SoC-level cache in front of DDR (MSMC L3), shared by all clusters; its clock_mhz must be set
  /// or it runs at the interconnect clock.
  std::optional<models::CacheParams> l3;
  models::InterconnectParams interconnect;
  models::DdrControllerParams ddr_controller;
  models::DramParams dram;
  double quantum_ns = 1000;  ///< temporal-decoupling quantum of every core
  /// How the OS maps virtual pages to physical frames (models/cpu/core_memory_pages.h):
  /// "identity" (bare metal, analytic tests), "scattered" (every page at a hashed frame) or
  /// "runs" (Linux's per-CPU page lists: runs of consecutive frames, the runs scattered).
  std::string physical_pages = "identity";
};

/// The memory system of a resolved board: soc::memorySystemFor (soc/board_platform.h).

}  // namespace socsim::soc
