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
/// | `lat_mem_rd-stride128-szN` | dependent loads walking N forward 128 bytes apart (lmbench3 stride_initialize), ns per load, mean over 8 physical page placements | - |
/// | `latency_for_X_mb_block_size` | lat_mem_rd at X MiB (the guide's alias rows) | - |
/// | `bw_mmap_rd-mo-1mb` | bread (a load of every long) over a 1 MiB mapping (mapped once) | 1 MiB |
/// | `bw_mmap_rd-o2c-1mb` | the same plus open/mmap/munmap/close and the page faults, each pass (KernelCosts) | 1 MiB |
/// | `bw_file_rd-io-1mb` | read(): memcpy from the page cache in 64 KiB chunks, then bread over the buffer (+ the read() syscalls and the kernel's per-page work when KernelCosts are known) | 1 MiB |
/// | `bw_file_rd-o2c-1mb` | the same plus open/close, each pass (KernelCosts) | 1 MiB |
/// | STREAM `copy/scale/add/triad` | 8-byte elements, arrays of 4x the last-level cache (>= 8 MiB) | 16/16/24/24 bytes per element |
/// STREAM `copy` (`c[j] = a[j]`) runs as the C library's memcpy: GCC replaces a loop that only
/// copies an array by a memcpy call (-ftree-loop-distribute-patterns, on at -O3, and at -O2 since
/// GCC 10). The guides agree: their STREAM copy is 2.0x LMBench bcopy (which counts bytes once)
/// on AM57xx, K2G and J721S2. scale/add/triad stay loops of 8-byte loads and stores.
/// The reading loops (`rd`, `frd`, bread) sum what they load into one variable, as lmbench's C
/// does: one integer add per element on a single dependency chain (the core's
/// `int_alu_latency_cycles`, or `int64_alu_latency_cycles` for an AArch64 long), which bounds
/// bread() at one long per add latency when the data is in the caches.
/// Every buffer is warmed with one pass first unless it is larger than twice the cache capacity
/// (then the warm pass would leave nothing useful behind), as LMBench repeats each test.
/// Sizes: `1mb` = 1 MiB; lat_mem_rd `szNk` = the lmbench range printed as N/1000 MB, cut to
/// whole thousandths (lmbenchRange: sz31k is 0.03125 MB = 32 KiB); `sz50` is read as lmbench's
/// smallest size, 512 bytes (an interpretation: the guide's label is ambiguous, and any size
/// below the L1 gives the same).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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

/// The lat_mem_rd range whose size in MB, times 1000, is `thousandths` (the guide's "szNk"):
/// lat_mem_rd walks ranges from 512 bytes with step() (lmbench3 src/lat_mem_rd.c: doubling below
/// 1 KiB, +1 KiB below 4 KiB, then +1/4 of the next power of two above the range) and prints
/// range / 2^20 with "%.5f", which the guides cut to whole thousandths (0.03125 -> 31k,
/// 0.0625 -> 62k). The range within one thousandth of `thousandths`; a size that is no lmbench
/// range is taken as written.
std::uint64_t lmbenchRange(double thousandths);

/// @brief Kernel costs of the open-to-close (`o2c`) rows: the part of `bw_mmap_rd-o2c` and
///        `bw_file_rd-o2c` that is not user-space memory traffic. The OS workload provides them
///        (setKernelCostProvider); until it does, the o2c rows are reported not modelled, since a
///        number without the kernel part is known to be wrong (it is most of their time).
struct KernelCosts {
  double openCloseNs = 0;   ///< open() + close() of a page-cached file, ns, with the refill of
                            ///< what the pass over the file between them evicted (passBytes)
  double mmapMunmapNs = 0;  ///< mmap() + munmap() of the mapping, page faults excluded, ns
                            ///< (likewise after the pass)
  double pageFaultNs = 0;   ///< one minor (page-cache) fault, ns
  double faultAroundBytes = 65536;  ///< bytes mapped per fault (Linux mm/memory.c
                                    ///< fault_around_bytes default 64 KiB)
  double syscallNs = 0;     ///< one read() syscall entry + exit, the copy excluded, ns
  double readPageNs = 0;    ///< kernel work per 4 KiB page-cache page a read() copies (page
                            ///< lookup, references, copy_to_user set-up), the copy excluded, ns
};

/// Returns the board's kernel costs, or nullopt when they are not known for this board.
/// `passBytes`: the bytes the benchmark reads between two passes of its per-pass kernel work
/// (an o2c row's file size; 0 when the open/close costs are not needed).
using KernelCostProvider = std::function<std::optional<KernelCosts>(RunContext&, std::uint64_t passBytes)>;

/// Installs the provider (an empty function removes it). Not thread-safe: call at start-up.
void setKernelCostProvider(KernelCostProvider provider);

}  // namespace socsim::wl::memory
