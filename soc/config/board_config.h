#pragma once
/// @file board_config.h
/// @brief A board, resolved: every group's params struct filled (presets merged, board facts on
///        top, `--set` overrides applied, defaults filled), plus the source of every field.
///
/// Built only by `soc::loadBoard` (loader.h); models receive the structs, never YAML.
/// YAML layout of a board file (every group may be `{preset: FILE, key: value, ...}`):
/// @code
///   board:          {name, soc, family, evm, guides, description}       (BoardInfo)
///   software:       {stack, sdk, kernel}                                (SoftwareParams)
///   software_releases: {<measured-CSV source id>: SoftwareParams, ...}   (optional)
///   clusters:                                                           (one or more)
///     - {name, cores, role,                                             (ClusterParams)
///        core: CoreParams (+ timing: CoreTimingParams), memory: CoreMemoryParams,
///        l1i: CacheParams, l1d: CacheParams, l2: CacheParams,           (caches optional)
///        memory_port: InterconnectParams}                               (optional)
///   l3:             CacheParams                                         (optional)
///   sram:           [SramParams, ...]                                   (optional)
///   interconnect:   InterconnectParams
///   ddr_controller: DdrControllerParams                                 (with dram, optional)
///   dram:           DramParams
///   peripherals:    [PeripheralParams, ...]                             (optional)
/// @endcode
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/cache/cache_params.h"
#include "models/cpu/core_memory_params.h"
#include "models/cpu/core_params.h"
#include "models/cpu/core_timing_params.h"
#include "models/interconnect/interconnect_params.h"
#include "models/memory/ddr_controller_params.h"
#include "models/memory/dram_params.h"
#include "soc/config/board_info.h"
#include "soc/config/schema_io.h"

namespace socsim::soc {

/// One cluster of identical cores with its private and shared caches.
struct ClusterConfig {
  ClusterParams info;
  models::CoreParams core;
  models::CoreTimingParams timing;  ///< core timing model (the core group's `timing`)
  models::CoreMemoryParams memory;
  std::optional<models::CacheParams> l1i;  ///< per core (absent on Cortex-M4F)
  std::optional<models::CacheParams> l1d;  ///< per core
  std::optional<models::CacheParams> l2;   ///< shared by the cluster's cores
  /// The cluster's own path to DDR, beside the shared interconnect (which DMA masters keep
  /// using): e.g. the AM57x MPU memory adapter (MPU_MA) from the A15 L2 straight to the EMIFs.
  /// Absent: the cluster reaches memory through the board's `interconnect`.
  std::optional<models::InterconnectParams> memory_port;
};

struct BoardConfig {
  std::string file;  ///< the board YAML it was loaded from
  BoardInfo board;
  SoftwareParams software;
  /// The software the board ran in the guides whose release differs from `software`, keyed by
  /// the measured CSV's `source` id (a set-up fact: which release measured those rows; e.g.
  /// AM335x in guide 000 and in guide 001's SDK 09.03). Absent ids use `software`.
  std::map<std::string, SoftwareParams> softwareReleases;
  std::vector<ClusterConfig> clusters;
  std::optional<models::CacheParams> l3;  ///< SoC-level cache (MSMC L3) when present
  std::vector<SramParams> sram;
  models::InterconnectParams interconnect;
  std::optional<models::DdrControllerParams> ddrController;
  std::optional<models::DramParams> dram;
  std::vector<PeripheralParams> peripherals;

  /// Source of every field, by YAML path ("clusters[0].l2.size").
  config::Sources sources;
  /// Preset each group was built from, as written in the including file, by group path.
  std::map<std::string, std::string> presets;
  /// The resolved tree the structs were converted from (presets merged, overrides applied):
  /// further overrides apply to it and are converted again.
  config::Node tree;
  /// The overrides applied so far, in order ("PATH=VALUE").
  std::vector<std::string> overrides;

  /// The cluster that runs the guide's benchmarks: the first with role "application",
  /// else the first (MCU+ boards: the first R5F cluster).
  const ClusterConfig& mainCluster() const;
  /// Total cores over all clusters.
  int totalCores() const;
  /// The software stack the rows of `source` (a measured-CSV source id; "" = none) ran on:
  /// its `software_releases` entry, else `software`.
  const SoftwareParams& softwareFor(const std::string& source) const;
  /// Source recorded for a path ("" when none).
  std::string sourceOf(const std::string& path) const;
};

}  // namespace socsim::soc
