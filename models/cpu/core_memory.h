#pragma once
/// @file core_memory.h
/// @brief The memory front end of one core: its L1 caches, line-fill buffers (MSHRs), store
///        buffer, write streaming, L1 data prefetcher, and the access idioms workloads use.
///
/// This is the part of a core that issues loads and stores; instruction execution timing is
/// another model's job (`compute(cycles)` stands in for it). A workload drives it from a SystemC
/// thread (see soc::Platform::run). The core keeps its own local time (temporal decoupling with a
/// tlm_quantumkeeper) and synchronises with SystemC once per global quantum.
///
/// Timing model:
/// - An L1 hit costs no TLM call: the front end looks up `l1d` directly. An independent load or
///   store costs one issue slot (1 / loads_per_cycle core cycles); a dependent load (`chase`) costs
///   the L1 hit latency.
/// - An L1 miss takes a line-fill buffer (waiting for the earliest one to free when all
///   `line_fill_buffers` are busy), adds the L1's miss_latency and fetches the line through
///   `l1d.mem_side`; the core keeps issuing, so with N buffers the miss bandwidth follows
///   Little's law, N x line / latency.
/// - Stores retire into the store buffer: a hit writes the L1; a miss either allocates (a read
///   for ownership that holds a store-buffer entry until the line arrives) or, in write streaming
///   (after `write_streaming_threshold_lines` consecutive full-line writes, or always when the L1
///   does not write-allocate), merges into a line-sized write sent below without allocating.
///   Beyond `write_streaming_l2_threshold_lines` the write is also marked not to allocate in the
///   L2. A full store buffer stalls the core until its oldest entry drains.
/// - The L1 prefetcher (next_line / stride) issues fills into free line-fill buffers only.
/// - Stall time is booked to the parts of the transaction waited for (MemExtension), the rest
///   to the core: `breakdown()` always sums to the elapsed time.
/// Not modelled: instruction fetch (l1i exists for the platform's shape and future use), TLBs
/// and page walks, load/store ordering hazards, data values.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/base/stats.h"
#include "models/base/transaction.h"
#include "models/cache/cache.h"
#include "models/cache/prefetcher/prefetcher.h"
#include "models/cpu/core_memory_params.h"

namespace socsim::models {

class CoreMemory : public sc_core::sc_module {
 public:
  Cache l1i;  ///< instruction cache (mem_side bound by soc/)
  Cache l1d;  ///< data cache (mem_side bound by soc/)

  CoreMemory(sc_core::sc_module_name name, const CoreMemoryParams& p, const CacheParams& l1iParams,
             const CacheParams& l1dParams, double clockMhz, int id);

  // ---- Workload API: call from a SystemC thread process ----------------------------------
  /// Independent load of `bytes` (0 = max_access_bytes) at `addr`; does not wait for the data.
  void load(std::uint64_t addr, unsigned bytes = 0);
  /// Dependent load (pointer chase): waits until the data is there.
  void chase(std::uint64_t addr);
  /// Store of `bytes` (0 = max_access_bytes) at `addr`.
  void store(std::uint64_t addr, unsigned bytes = 0);
  /// Sequential independent loads over [addr, addr + bytes), `accessBytes` each (0 = widest).
  void readStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes = 0);
  /// Sequential stores over [addr, addr + bytes).
  void writeStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes = 0);
  /// Load then store each word of [addr, addr + bytes) (LMBench bw_mem rdwr).
  void readWriteStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes = 0);
  /// Word-by-word copy loop: load a word of src, store it to dst (LMBench bw_mem cp / fcp).
  void copyLoop(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes, unsigned accessBytes = 0);
  /// The C library's memcpy on this core (copy_idiom, copy_bytes_per_iteration): bcopy, STREAM copy.
  void memcpy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes);
  /// The C library's memset(0)/bzero on this core (zero_idiom; dc_zva writes whole lines
  /// without reading them).
  void memzero(std::uint64_t addr, std::uint64_t bytes);
  /// Non-memory work of `cycles` core cycles.
  void compute(std::uint64_t cycles);
  /// Wait until every outstanding miss and buffered store has completed.
  void fence();

  /// The core's local time (ps, absolute simulated time).
  std::uint64_t localPs() const { return t_; }
  /// Bring the core's local time up to SystemC time (call at the start of a job).
  void begin();

  // ---- Control (soc::Platform) ------------------------------------------------------------
  /// Cold start: invalidate L1s, empty buffers, forget prefetch and streaming history.
  void resetState();
  /// Time spent per part since the last resetStats (ps, double).
  const std::array<double, kParts>& breakdown() const { return spent_; }
  void resetBreakdown() { spent_.fill(0); }
  int id() const { return id_; }
  std::uint64_t cyclePs() const { return cycle_; }
  const CoreMemoryParams& params() const { return p_; }

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t loads = 0, stores = 0, lfbStalls = 0, storeBufferStalls = 0,
                  streamingLines = 0, prefetches = 0;
    double stallNs = 0;
  };

 private:
  struct Slot {
    std::uint64_t free = 0;
    PartTimes parts{};
    std::uint64_t block = ~0ull;  ///< line a line-fill buffer fetched
  };
  void advance(std::uint64_t dt) {
    t_ += dt;
    spent_[static_cast<int>(Part::Core)] += static_cast<double>(dt);
    if (t_ >= syncAt_) syncNow();
  }
  void syncNow();
  void enter() {
    std::uint64_t n = nowPs();
    if (t_ < n) t_ = n;
  }
  /// Advance to `until`, booking the wait to `parts` (proportionally).
  void stallUntil(std::uint64_t until, const PartTimes& parts);
  Slot& freeSlot(std::vector<Slot>& v, std::uint64_t& stalls);
  /// Loads touching one line: `n` issue slots, one lookup.
  void loadLine(std::uint64_t addr, unsigned n, bool dependent);
  /// Stores to [addr, addr + bytes) within one line: `n` issue slots.
  void storeLine(std::uint64_t addr, unsigned bytes, unsigned n, bool zeroLine = false);
  std::uint64_t missL1(std::uint64_t blk, bool dirty);
  void prefetch(std::uint64_t blk, bool trigger);
  void flushWriteCombine();
  template <class F>
  void forEachLine(std::uint64_t addr, std::uint64_t bytes, F f);

  CoreMemoryParams p_;
  int id_;
  std::uint64_t cycle_, loadIssue_, storeIssue_, lineBytes_;
  std::uint64_t t_ = 0, syncAt_ = 0;
  tlm_utils::tlm_quantumkeeper qk_;
  std::vector<Slot> lfb_, sb_;
  std::unique_ptr<Prefetcher> prefetcher_;
  std::vector<std::uint64_t> pfCandidates_;
  MemExtension ext_;
  std::array<double, kParts> spent_{};
  // Write streaming and write combining.
  std::uint64_t runLine_ = ~0ull;  ///< line the current sequential run is writing
  std::uint64_t runBytes_ = 0;     ///< bytes written sequentially into runLine_
  std::uint64_t runNext_ = 0;      ///< address the next sequential store would write
  std::uint64_t fullLines_ = 0;    ///< consecutive full-line writes
  std::uint64_t wcLine_ = ~0ull;   ///< line held in the write-combining entry
  std::uint64_t wcBytes_ = 0;
  Stats stats_;
};

}  // namespace socsim::models
