#pragma once
/// @file board_platform.h
/// @brief From a resolved board to the platform the workloads run on.
#include <string>

#include "common/error.h"
#include "soc/config/board_config.h"
#include "soc/memory_system_config.h"

namespace socsim::soc {

/// The board lacks a hardware part a benchmark needs (no DDR, no cluster with a data cache).
/// Still an InputError (it names the board file), but a workload hitting it reports its row
/// `not-modelled` with the part named, not `failed`: the board is valid, it just cannot run
/// that benchmark.
class MissingPart : public InputError {
 public:
  /// @param file board file; @param group the config group(s) that are absent ("dram");
  /// @param part what is missing, for people ("DDR (dram and ddr_controller groups)")
  MissingPart(const std::string& file, const std::string& group, std::string part);
  /// What is missing, e.g. "DDR (dram and ddr_controller groups)".
  const std::string& part() const { return part_; }

 private:
  std::string part_;
};

/// The memory system of a board: every cluster with caches (clusters without L1D, e.g. an
/// M4F, are left out), the L3/MSMC, the interconnect, the DDR controller and DRAM.
/// Throws MissingPart naming the board file when the board has no DDR or no cluster with a
/// data cache (a board missing a part the memory system needs).
MemorySystemConfig memorySystemFor(const BoardConfig& board);

/// Index (in memorySystemFor's cluster list) of the board's main cluster.
int mainMemoryCluster(const BoardConfig& board);

}  // namespace socsim::soc
