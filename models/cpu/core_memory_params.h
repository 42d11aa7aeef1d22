#pragma once
/// @file core_memory_params.h
/// @brief The core's memory front end: outstanding misses, store buffer, write streaming,
///        L1 prefetcher, and the memcpy/memset idioms the C library uses on this core type.
///
/// Scoped to a core type (DESIGN.md modelling rule 2): a Cortex-A53 preset sets these once for
/// every board with that core.
#include <string>

#include "common/params.h"

namespace socsim::models {

struct CoreMemoryParams {
  int line_fill_buffers = 4;          ///< L1D misses in flight (MSHRs / line-fill buffers)
  int store_buffer_entries = 8;       ///< stores buffered before the core stalls
  int store_buffer_entry_bytes = 16;  ///< bytes one store-buffer entry merges
  int write_combine_bytes = 0;        ///< bytes a no-allocate write miss merges before going below; 0 = a line
  int loads_per_cycle = 1;            ///< load issue rate to L1 on hits
  int stores_per_cycle = 1;           ///< store issue rate to L1 on hits
  int max_access_bytes = 8;           ///< widest single load/store (LDRD 8, NEON/LDP 16)
  bool write_streaming = true;        ///< stop allocating on long runs of full-line writes
  int write_streaming_threshold_lines = 4;   ///< consecutive full-line writes that enter L1 no-allocate
  int write_streaming_l2_threshold_lines = 128;  ///< ... that also stop L2 allocation
  std::string prefetcher = "none";    ///< none | next_line | stride (L1 data prefetcher)
  int prefetch_degree = 1;            ///< lines per trigger
  int prefetch_distance = 2;          ///< lines ahead of the demand stream
  int prefetch_streams = 4;           ///< independent strided streams tracked
  int prefetch_max_stride_lines = 0;  ///< largest stride (lines) the prefetcher detects; 0 = any
  int prefetch_buffers = 0;           ///< prefetches in flight beside the line-fill buffers; 0 = use free LFBs
  std::string copy_idiom = "ldm_stm"; ///< ldm_stm | neon | ldp_stp (memcpy inner loop)
  std::string zero_idiom = "stm";     ///< stm | neon | dc_zva (memset(0) inner loop)
  int copy_bytes_per_iteration = 32;  ///< bytes one memcpy inner-loop iteration moves
  int copy_loop_overhead_cycles = 1;  ///< non-memory cycles per memcpy iteration (branch, update)
  int copy_access_bytes = 0;          ///< bytes per load/store of the memcpy loop; 0 = max_access_bytes
  int load_window = 64;               ///< loads issued past a load whose line has not arrived (in-order: 0)
  int long_bytes = 4;                 ///< size of a C long / pointer in the ABI Linux runs (4 AArch32, 8 AArch64)
  /// Core cycles for a store to take ownership of a line that another core of the same cluster
  /// holds dirty (snoop of that core's L1 through the cluster's L2/SCU, the line moved over).
  double snoop_transfer_cycles = 100;

  static const params::Schema<CoreMemoryParams>& schema();
};

inline const params::Schema<CoreMemoryParams>& CoreMemoryParams::schema() {
  using P = CoreMemoryParams;
  static const auto s =
      params::Schema<P>("core_memory")
          .integer("line_fill_buffers", &P::line_fill_buffers, "count", 1, 64,
                   "L1 data misses the core keeps in flight (MSHRs / line-fill buffers)",
                   "core TRM L1 memory system (generic 4; Cortex-A8 1, A15 6, A53 3, A72 6)")
          .integer("store_buffer_entries", &P::store_buffer_entries, "count", 1, 256,
                   "store buffer entries before the core stalls",
                   "core TRM store buffer (generic 8)")
          .integer("store_buffer_entry_bytes", &P::store_buffer_entry_bytes, "bytes", 4, 128,
                   "bytes one store-buffer entry can merge", "core TRM (128-bit entries)")
          .integer("write_combine_bytes", &P::write_combine_bytes, "bytes", 0, 128,
                   "bytes that stores missing a no-allocate L1 (or in write streaming) merge into "
                   "one write below; 0 = a whole line (cores with line write-combining buffers)",
                   "core TRM write buffer (generic 0: line write-combining)")
          .integer("loads_per_cycle", &P::loads_per_cycle, "count", 1, 4, "loads issued per cycle",
                   "core TRM pipeline (one load/store unit)")
          .integer("stores_per_cycle", &P::stores_per_cycle, "count", 1, 4,
                   "stores issued per cycle", "core TRM pipeline (one load/store unit)")
          .integer("max_access_bytes", &P::max_access_bytes, "bytes", 1, 64,
                   "widest single load or store", "ARM ISA (LDRD/LDM beat 8 bytes; NEON/LDP 16)")
          .flag("write_streaming", &P::write_streaming,
                "stop allocating on long runs of full-line writes (read-allocate mode)",
                "ARM Cortex-A53/A72 TRM write streaming mode")
          .integer("write_streaming_threshold_lines", &P::write_streaming_threshold_lines, "lines",
                   1, 1024, "consecutive full-line writes before L1 stops allocating",
                   "ARM Cortex-A53 TRM CPUACTLR_EL1 L1 write streaming threshold (4 lines)")
          .integer("write_streaming_l2_threshold_lines", &P::write_streaming_l2_threshold_lines,
                   "lines", 1, 65536, "consecutive full-line writes before L2 stops allocating",
                   "ARM Cortex-A53 TRM CPUACTLR_EL1 L2 write streaming threshold (128 lines)")
          .choice("prefetcher", &P::prefetcher, {"none", "next_line", "stride", "pc_stride"},
                  "L1 data prefetcher", "core TRM data prefetcher (none as the generic default)")
          .integer("prefetch_degree", &P::prefetch_degree, "lines", 1, 32,
                   "lines issued per prefetch trigger", "calibrated: gem5 StridePrefetcher degree 1")
          .integer("prefetch_distance", &P::prefetch_distance, "lines", 0, 64,
                   "lines ahead of the demand stream", "calibrated: generic 2 lines")
          .integer("prefetch_streams", &P::prefetch_streams, "count", 1, 64,
                   "independent strided streams the prefetcher tracks",
                   "calibrated: gem5 StridePrefetcher table (4 entries per context)")
          .integer("prefetch_max_stride_lines", &P::prefetch_max_stride_lines, "lines", 0, 64,
                   "largest stride, in lines either way, the L1 prefetcher recognises; 0 = any",
                   "core TRM data prefetch (Cortex-A53: strides within four lines; 0 generic)")
          .integer("prefetch_buffers", &P::prefetch_buffers, "count", 0, 64,
                   "prefetches the L1 keeps in flight on their own (beside the demand line-fill "
                   "buffers); 0 = prefetches only use free line-fill buffers",
                   "core TRM (Cortex-A53 CPUACTLR_EL1.L1PCTL outstanding prefetches; 0 generic)")
          .choice("copy_idiom", &P::copy_idiom, {"ldm_stm", "neon", "ldp_stp"},
                  "memcpy inner loop of the C library on this core",
                  "glibc/bionic ARM memcpy (LDM/STM on ARMv7, LDP/STP on ARMv8)")
          .choice("zero_idiom", &P::zero_idiom, {"stm", "neon", "dc_zva"},
                  "memset(0)/bzero inner loop of the C library on this core",
                  "glibc ARM memset (STM on ARMv7, DC ZVA on ARMv8)")
          .integer("copy_bytes_per_iteration", &P::copy_bytes_per_iteration, "bytes", 4, 512,
                   "bytes one memcpy/memset inner-loop iteration moves",
                   "glibc ARM memcpy (32 bytes: LDM/STM of 8 registers)")
          .integer("copy_loop_overhead_cycles", &P::copy_loop_overhead_cycles, "cycles", 0, 100,
                   "non-memory cycles per memcpy/memset iteration (address update, branch)",
                   "calibrated: one cycle of loop overhead")
          .integer("copy_access_bytes", &P::copy_access_bytes, "bytes", 0, 64,
                   "bytes each load and store of the C library's memcpy inner loop moves (it "
                   "may use narrower registers than the widest access); 0 = max_access_bytes",
                   "C library memcpy of the core (0 generic: the widest access)")
          .integer("load_window", &P::load_window, "loads", 0, 1024,
                   "independent loads the core issues past an earlier load whose data is still "
                   "coming from below L1 before it stalls (in-order cores stall on the first use: "
                   "0; out-of-order cores: about their load queue); bounds the misses a loop "
                   "without prefetch keeps in flight",
                   "core TRM pipeline (generic 64: no limit beyond the line-fill buffers)")
          .integer("long_bytes", &P::long_bytes, "bytes", 4, 8,
                   "size of a C long and of a pointer in the ABI the software runs (word-wise "
                   "loops such as lmbench's bread load one long at a time)",
                   "Arm AAPCS (ILP32: 4 bytes) / AAPCS64 (LP64: 8 bytes)")
          .real("snoop_transfer_cycles", &P::snoop_transfer_cycles, "cycles", 1, 1000,
                "core cycles for a store to take ownership of a cache line another core of the "
                "cluster holds dirty (the snoop of its L1 through the cluster's L2 / snoop control "
                "and the line's transfer); a line written by a core of another cluster adds the "
                "round trip through the SoC interconnect (2 x its latency)",
                "calibrated: generic 100 cycles (Arm does not publish core-to-core transfer "
                "times); bounds 40..250");
  return s;
}

}  // namespace socsim::models
