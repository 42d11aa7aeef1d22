#pragma once
/// @file os_benchmarks.h
/// @brief LMBench's operating-system rows (`lmbench-os`: system calls, signals, fork/exec,
///        context switches, pipes, AF_UNIX and TCP loopback sockets, select, semaphores, page
///        faults, mmap, file creation) and cyclictest maximum latencies (`rt-latency`), as
///        Linux kernel paths executed on the board's core model over its memory system.
///
/// Each benchmark is what its lmbench3 source does per reported unit, composed from kernel path
/// segments (KernelPathParams, scoped to the software stack) and the benchmark's own facts
/// (configs/workloads/os/): e.g. `lat_pipe` = two times (write system call with the pipe write
/// path, wake-up of the reader, read system call, sleep, context switch); `bw_pipe` = per 64 KiB
/// transfer the same paths plus 16 pipe pages allocated and freed, and the two copies
/// (copy_from_user into the pipe pages, copy_to_user out of them) run as memcpy on the board's
/// platform, so the bandwidth follows the caches and DDR; `lat_ctx-N-SIZEk` = wake-up, sleep
/// and switch plus the refill of the next process's SIZE working set after the other N-1
/// processes ran, measured on the platform; `lat_proc-fork` copies page tables, allocates and
/// zeroes page-table pages and copies copy-on-write pages through the memory system. Values
/// that lmbench reports as differences (lat_sig catch minus send, prot minus catch, lat_ctx
/// minus the single-process overhead) are computed as the same differences.
///
/// Not modelled: cross-core wake-ups (both sides of a ping-pong share one core), the NFS
/// server beyond its set-up constants, interrupts other than cyclictest's timer and the
/// use case's device interrupts.
#include <map>
#include <memory>
#include <string>

#include "workloads/cpu/workload_profile.h"
#include "workloads/os/os_benchmark_params.h"
#include "workloads/os/os_machine.h"
#include "workloads/workload.h"

namespace socsim::wl::os {

class OsBenchmarks : public Workload {
 public:
  /// Loads `dataDir` (configs/workloads/os); a broken file makes every prediction fail with its
  /// error (a bug in the repository's data, caught by the tests).
  explicit OsBenchmarks(std::string dataDir);
  std::string name() const override { return "os-kernel-paths"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

  const OsBenchmarkData& data() const { return data_; }
  /// The lmbench name a guide row stands for ("pipe_latency" -> "lat_pipe").
  std::string canonical(const std::string& benchmark) const;

 private:
  Prediction compute(OsMachine& m, const std::string& bench);
  Prediction cyclictest(OsMachine& m, const Query& q);

  std::string dir_, loadError_;
  OsBenchmarkData data_;
  cpu::WorkloadProfile kernelProfile_;
  CodeRunCache codeRuns_;
  std::map<std::string, Prediction> cache_;  ///< by board + canonical row
};

/// Register the OS workloads (data from defaultOsDataDir()).
void registerOsWorkloads(Registry& r);

}  // namespace socsim::wl::os
