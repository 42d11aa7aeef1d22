#pragma once
/// @file memory_benchmarks.h
/// @brief LMBench memory rows (family `lmbench-mem`) and STREAM (family `stream`) as access
///        patterns driven through the board's memory system (soc::Platform).
///
/// What each row runs (one core of the board's main cluster; LMBench's `TYPE` is a 4-byte int):
/// | row | pattern | bytes counted |
/// | `bw_mem-rd-S` | a 4-byte load every 16 bytes of S (lmbench `rd`: p[0]+p[4]+...) | S |
/// | `bw_mem-wr-S` | a 4-byte store every 16 bytes | S |
/// | `bw_mem-rdwr-S` | load then store every 16 bytes | S |
/// | `bw_mem-cp-S` | load src, store dst, every 16 bytes (two S buffers) | S |
/// | `bw_mem-frd/fwr/fcp-S` | the same over every 4-byte word, two words per instruction (the compiler's LDP/STP, LDRD/STRD) | S |
/// | `bw_mem-bzero-S` | the C library's memset(0) (core's zero idiom) | S |
/// | `bw_mem-bcopy-S` | the C library's memcpy (core's copy idiom) | S |
/// | `lat_mem_rd-stride128-szN` | dependent loads walking N forward 128 bytes apart (lmbench3 stride_initialize), ns per load | - |
/// | `latency_for_X_mb_block_size` | lat_mem_rd at X MiB (the guide's alias rows) | - |
/// | `bw_mmap_rd-*-1mb` | bread (a load of every long) over a 1 MiB mapping; mapping and page faults not modelled | 1 MiB |
/// | `bw_file_rd-*-1mb` | read(): memcpy from the page cache in 64 KiB chunks, then bread over the buffer; syscall cost not modelled | 1 MiB |
/// | STREAM `copy/scale/add/triad` | 8-byte elements, arrays of 4x the last-level cache (>= 8 MiB) | 16/16/24/24 bytes per element |
/// Every buffer is warmed with one pass first unless it is larger than twice the cache capacity
/// (then the warm pass would leave nothing useful behind), as LMBench repeats each test.
/// Sizes: `1mb` = 1 MiB; lat_mem_rd `szNk` = N/1000 MB (lmbench prints sizes in MB: sz31k is
/// 0.03125 MB = 32 KiB); `sz50` is read as lmbench's smallest size, 512 bytes (an
/// interpretation: the guide's label is ambiguous, and any size below the L1 gives the same).
#include <map>
#include <string>

#include "workloads/workload.h"

namespace socsim::wl::memory {

class MemoryBenchmarks : public Workload {
 public:
  std::string name() const override { return "lmbench-mem+stream"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

 private:
  std::map<std::string, Prediction> memo_;  ///< per board: same benchmark, same result
};

void registerMemoryBenchmarks(Registry& r);

}  // namespace socsim::wl::memory
