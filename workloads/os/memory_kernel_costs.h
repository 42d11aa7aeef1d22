#pragma once
/// @file memory_kernel_costs.h
/// @brief The kernel part of LMBench's open-to-close memory rows (`bw_mmap_rd-o2c`,
///        `bw_file_rd-o2c`) and of bw_file_rd's read() calls, as Linux kernel paths of the
///        board's software stack executed on its core model (OsMachine, as lmbench-os runs).
///
/// Installed into the memory workload by registerBuiltinWorkloads (memory::setKernelCostProvider).
/// What each cost is (path lengths from `software.kernel_paths`, set-up from
/// `configs/workloads/os/lmbench_os.yaml`):
/// The o2c rows run open/close (and mmap/munmap) once per pass over the file, so those paths
/// start each time after `passBytes` of file data went through the core's caches: they pay the
/// refill of what that evicted (OsMachine::codeAfterData), which `lat_syscall open`, looping on
/// open/close alone, does not.
/// - open + close: what `lat_syscall open` runs (path walk of `file_path_components`, the open
///   and close paths, and the NFS client's close-to-open revalidation: `setup.open_rpcs` RPCs of
///   `nfs_rpc_instructions` plus their round trips, since the guides' lmbench scratch files live
///   on the NFS root, the set-up lat_syscall open and lat_fs already assume);
/// - mmap + munmap: the two system calls' paths;
/// - one minor fault: entry + fault path + `fault_around_pages` PTEs mapped, and the same PTEs
///   zapped again at munmap (the zap is per mapped page, charged to the fault that mapped it);
/// - one read() call: entry + fd lookup + the VFS read path (the copy runs on the platform).
/// Boards not running Linux get no costs (the rows stay not modelled).
#include <optional>

#include "workloads/memory/memory_benchmarks.h"
#include "workloads/workload.h"

namespace socsim::wl::os {

/// The board's kernel costs for the memory rows, or nullopt when it does not run Linux.
/// @throws InputError when configs/workloads/os cannot be loaded (a repository bug).
std::optional<memory::KernelCosts> memoryKernelCosts(RunContext& ctx, std::uint64_t passBytes);

}  // namespace socsim::wl::os
