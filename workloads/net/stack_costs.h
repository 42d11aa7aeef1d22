#pragma once
/// @file stack_costs.h
/// @brief The network software's CPU costs on one board, measured on the board's core model
///        over its platform: the stack's and the tool's instruction profiles run on the core
///        (cycles per instruction, with the DMA moving frames through the memory system at line
///        rate at the same time, so both contend), the payload copies as the C library's memcpy
///        between DMA-written buffers and the application's buffer, and the DMA's own time per
///        frame (descriptor fetch, buffer burst, write-back) through the interconnect and DDR.
///
/// `toSoftwareCosts` turns those measurements and the stack's and tool's path lengths
/// (net_config.h) into the seconds per piece of work the packet simulation schedules.
#include <string>
#include <vector>

#include "models/cpu/core_model.h"
#include "models/peripherals/cpsw/cpsw.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/net/net_config.h"
#include "workloads/net/net_sim.h"
#include "workloads/os/kernel_path_params.h"
#include "workloads/workload.h"

namespace socsim::wl::net {

struct MeasuredCosts {
  std::string isa = "armv8-a";  ///< of the core the costs were measured on
  double clockHz = 1e9;
  double codeCpi = 1, appCpi = 1;                ///< cycles per instruction (profile as run)
  double codePathFactor = 1, appPathFactor = 1;  ///< instructions on this ISA per AArch64 one
  double rxCopyPerByte = 0, txCopyPerByte = 0;   ///< s per byte (memcpy on the platform)
  double dmaFixed = 0, dmaPerByte = 0;           ///< s per frame, s per byte
  /// s per core access to packet memory the core does not cache (a round trip to the memory
  /// holding the DMA buffers: on-chip SRAM through the interconnect, or DDR)
  double uncachedAccess = 0;
  models::CoreRunStats codeStats;                ///< the stack profile's run (explain)
  std::vector<std::pair<std::string, double>>
      dmaParts;  ///< DMA latency by part, per 1518-byte frame
};

/// Run the measurements on the first core of the board's main cluster. Throws NotModelled when
/// the board cannot run them (no L1 caches). A bare-metal stack (MCU+, code and buffers in
/// on-chip SRAM) or a board without DDR uses measureCostsOnSram instead.
MeasuredCosts measureCosts(RunContext& ctx, const cpu::WorkloadProfile& code,
                           const cpu::WorkloadProfile& app, const models::Cpsw& mac);

/// The same without the platform: the core model over a fixed-latency memory with the board's
/// L1 geometry and the on-chip SRAM's round trip through the interconnect; copies as a
/// load/store-multiple loop on the core model; the DMA at the interconnect's width per cycle plus
/// its per-packet overhead and two descriptor round trips.
MeasuredCosts measureCostsOnSram(const soc::BoardConfig& b, const cpu::WorkloadProfile& code,
                                 const cpu::WorkloadProfile& app, const models::Cpsw& mac);

/// Seconds per piece of work from the measurements and the path lengths. `kernel` gives the
/// generic kernel paths (system calls, wakeups, interrupt entry, threaded interrupts, locks) of
/// a stack that uses them (`uses_kernel_paths`); nullptr for a bare-metal stack.
SoftwareCosts toSoftwareCosts(const MeasuredCosts& m, const NetStackParams& stack,
                              const NetToolParams& tool, const models::CpswParams& mac,
                              const os::KernelPathParams* kernel);

/// Flat platform indices of the cores the OS runs the test on: the main cluster, then later
/// application clusters of the same core type (Linux's CPU numbering); the first only for a
/// bare-metal (MCU+) stack.
std::vector<int> osCores(const soc::BoardConfig& b, bool smp);

}  // namespace socsim::wl::net
