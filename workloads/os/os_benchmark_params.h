#pragma once
/// @file os_benchmark_params.h
/// @brief What the OS benchmarks themselves do (data in `configs/workloads/os/`): LMBench's
///        process image, transfer sizes, loop structure and scratch-file set-up
///        (`lmbench_os.yaml`), and cyclictest's measurement and background loads
///        (`cyclictest.yaml`). Scoped to the benchmark (or, for `setup`, to the guides'
///        measurement set-up shared by every board), never to a board.
#include <cstdint>
#include <map>
#include <string>

#include "common/params.h"

namespace socsim::wl::os {

/// LMBench facts: what the benchmark programs do per iteration (lmbench3 sources).
struct LmbenchParams {
  int process_vmas = 30;         ///< VMAs of the forking lmbench process
  int process_anon_pages = 100;  ///< present anonymous pages copied (write-protected) at fork
  int process_page_tables = 6;   ///< page-table pages a forked child allocates
  int fork_cow_pages = 8;        ///< pages written after fork (copy-on-write faults)
  int exec_image_pages = 12;     ///< pages the exec'ed program faults in
  int fork_child_text_faults = 8;  ///< file-backed read faults of the fork child before exit(1)
  int exec_child_text_faults = 3;  ///< file-backed read faults of the child before execve
  int exec_path_components = 4;  ///< path of the exec'ed program
  int file_path_components = 3;  ///< path of the stat/open scratch file
  double user_handler_instructions = 40;          ///< signal handler + libc restorer trampoline
  double proccall_instructions = 6;               ///< lat_proc procedure: call, return, loop
  std::uint64_t xfer_bytes = 65536;               ///< bw_pipe / bw_unix bytes per read/write
  int reader_offset_bytes = 128;                  ///< bw_pipe reader buffer misalignment
  int select_fds = 200;                           ///< descriptors lat_select polls
  std::uint64_t mmap_touch_stride_bytes = 16384;  ///< lat_mmap PSIZE
  int mmap_touch_divisor = 10;                    ///< lat_mmap touches size / N
  std::uint64_t pagefault_file_bytes = 8388608;   ///< lat_pagefault file size
  int sum_access_bytes = 4;                       ///< lat_ctx sumit() loads ints
  double benchmp_enough_us = 5000;       ///< benchmp timing interval (lib_timing.c ENOUGH)
  double benchmp_iteration_margin = 1.1;  ///< benchmp sizes a run to margin x enough
  static const params::Schema<LmbenchParams>& schema();
};

/// The guides' measurement set-up, shared by every board (declared set-up facts, DESIGN.md
/// rule 2): lat_syscall open's file is on the NFS root file system of the test farm; lat_fs
/// creates its files in /tmp (tmpfs), which is in memory.
struct SetupParams {
  double nfs_rtt_us = 150;       ///< RPC round trip over the LAN incl. server turnaround
  double nfs_sync_op_us = 1500;  ///< server time of an operation committed to stable storage
  int open_rpcs = 1;             ///< RPCs of open()+close() of an unmodified file
  double link_mbps = 0;          ///< 0 = the board's Ethernet port speed
  static const params::Schema<SetupParams>& schema();
};

/// cyclictest on an isolated ("shielded") core.
struct CyclictestParams {
  double user_instructions = 150;        ///< cyclictest loop + clock_gettime (vDSO)
  std::uint64_t stream_bytes = 1048576;  ///< per background memory stream (working set)
  static const params::Schema<CyclictestParams>& schema();
};

/// One cyclictest use case: what the background load does to the isolated core.
struct RtLoadParams {
  std::string description;
  int memory_streams = 0;  ///< other cores streaming memory (shared L2 / interconnect / DDR)
  int irq_sources = 0;     ///< device interrupts that can reach the isolated core first
  static const params::Schema<RtLoadParams>& schema();
};

/// Everything in configs/workloads/os/.
struct OsBenchmarkData {
  LmbenchParams lmbench;
  SetupParams setup;
  std::map<std::string, std::string> aliases;  ///< guide name -> lmbench name
  CyclictestParams cyclictest;
  std::map<std::string, RtLoadParams> rtLoads;  ///< by use case
  std::string kernelProfileFile;                ///< kernel code profile (instruction mix)
};

/// Load `dir`/lmbench_os.yaml and `dir`/cyclictest.yaml. Throws InputError naming file and line.
OsBenchmarkData loadOsBenchmarkData(const std::string& dir);
/// `configs/workloads/os` of the source tree.
std::string defaultOsDataDir();

}  // namespace socsim::wl::os
