#pragma once
/// @file board_platform.h
/// @brief From a resolved board to the platform the workloads run on.
#include <string>

#include "soc/config/board_config.h"
#include "soc/memory_system_config.h"

namespace socsim::soc {

/// The memory system of a board: every cluster with caches (clusters without L1D, e.g. an
/// M4F, are left out), the L3/MSMC, the interconnect, the DDR controller and DRAM.
/// Throws InputError naming the board file when the board has no DDR or no cluster with a
/// data cache (a board missing a part the memory system needs).
MemorySystemConfig memorySystemFor(const BoardConfig& board);

/// Index (in memorySystemFor's cluster list) of the board's main cluster.
int mainMemoryCluster(const BoardConfig& board);

}  // namespace socsim::soc
