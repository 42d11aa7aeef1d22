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
/// - Instruction window: an independent load whose line is not in L1 yet (a miss, or a line
///   still being filled) lets at most `load_window` further loads issue before the core waits
///   for its data (in-order cores stall on the first use; out-of-order cores run ahead as far
///   as their load queue). L1 hit latency is assumed hidden by scheduling.
/// - Stall time is booked to the parts of the transaction waited for (MemExtension), the rest
///   to the core: `breakdown()` always sums to the elapsed time.
/// - Addresses are virtual; the page map (setPageMap, core_memory_pages.h) gives the physical
///   address every physically indexed level sees. A physically indexed L1 is looked up with the
///   physical address; a virtually indexed one (CacheParams::indexing) with the virtual address,
///   translating what it sends below. Prefetchers train on the L1's addresses and stop at page
///   boundaries. Merged (write-combined) stores go below as one write spanning the first to the
///   last byte written in the line (byte strobes: a sparse line still moves the whole span).
/// - `fence()` waits for demand misses and buffered stores, not for prefetches in flight.
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
#include "models/cpu/core_memory_pages.h"
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
  /// `pc` names the load instruction (0 = unknown) for PC-indexed prefetchers: a loop body's
  /// k-th load keeps one pc from iteration to iteration.
  void load(std::uint64_t addr, unsigned bytes = 0, std::uint32_t pc = 0);
  /// Dependent load (pointer chase): waits until the data is there.
  void chase(std::uint64_t addr, std::uint32_t pc = 0);
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
  /// The C library's memcpy on this core (copy_idiom, copy_bytes_per_iteration; each load and
  /// store moves copy_access_bytes, 0 = max_access_bytes): bcopy, STREAM copy.
  void memcpy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes);
  /// The same copy loop with loads of `loadBytes` and stores of `storeBytes` each (0 =
  /// max_access_bytes): a copy routine whose two sides use different instructions, such as the
  /// kernel's copy_{from,to}_user (unprivileged LDTR/STTR on the user side of an AArch64 kernel).
  void memcpy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes, unsigned loadBytes,
              unsigned storeBytes);
  /// The C library's memset(0)/bzero on this core (zero_idiom; dc_zva writes whole lines
  /// without reading them).
  void memzero(std::uint64_t addr, std::uint64_t bytes);
  /// Non-memory work of `cycles` core cycles.
  void compute(std::uint64_t cycles);
  /// Wait until every outstanding miss and buffered store has completed.
  void fence();

  /// Virtual-to-physical mapping (identity by default). Call between runs, not during one.
  void setPageMap(const PageMap& map);
  const PageMap& pageMap() const { return pages_; }

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
  /// Bytes one write-combining entry merges: `write_combine_bytes`, or a line when 0.
  std::uint64_t combineBytes() const { return combineBytes_; }

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
    bool prefetch = false;        ///< taken by a prefetch (a fence does not wait for it)
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
  void loadLine(std::uint64_t addr, unsigned n, bool dependent, std::uint32_t pc = 0);
  /// Stores to [addr, addr + bytes) within one line: `n` issue slots.
  void storeLine(std::uint64_t addr, unsigned bytes, unsigned n, bool zeroLine = false);
  std::uint64_t missL1(std::uint64_t blk, bool dirty, std::uint32_t pc = 0);
  void prefetch(std::uint64_t blk, bool trigger, std::uint32_t pc = 0);
  void flushWriteCombine();
  template <class F>
  void forEachLine(std::uint64_t addr, std::uint64_t bytes, F f);
  /// Address the L1 data cache is looked up with (physical unless it is virtually indexed).
  std::uint64_t l1Addr(std::uint64_t va) {
    if (!l1Physical_) return va;
    const std::uint64_t vpn = va >> PageMap::kPageShift;
    if (vpn != lastVpn_) {
      lastVpn_ = vpn;
      lastFrame_ = pages_.translate(vpn << PageMap::kPageShift);
    }
    return lastFrame_ | (va & ((1ull << PageMap::kPageShift) - 1));
  }

  /// Loads whose data is still coming (window), oldest first: index of the load, when ready.
  struct Pending {
    std::uint64_t idx, ready;
    PartTimes parts;
  };
  std::vector<Pending> pend_;
  std::size_t pendHead_ = 0;
  std::uint64_t loadIdx_ = 0;
  /// Before issuing `n` more loads: wait for pending loads beyond the window.
  void windowWait(unsigned n);
  void windowPush(std::uint64_t ready, const PartTimes& parts);

  CoreMemoryParams p_;
  int id_;
  std::uint64_t cycle_, loadIssue_, storeIssue_, lineBytes_;
  std::uint64_t combineBytes_;  ///< bytes one write-combining entry merges (a line or less)
  std::uint64_t t_ = 0, syncAt_ = 0;
  tlm_utils::tlm_quantumkeeper qk_;
  std::vector<Slot> lfb_, sb_, pfb_;  ///< line-fill buffers, store buffer, prefetch buffers
  /// The fill (demand or prefetch) that brings `blk`, ready at `readyPs`, or nullptr.
  const Slot* fillOf(std::uint64_t blk, std::uint64_t readyPs) const;
  PageMap pages_;
  bool l1Physical_ = false;  ///< translate before the L1 lookup (PIPT L1, non-identity map)
  std::uint64_t lastVpn_ = ~0ull, lastFrame_ = 0;
  std::unique_ptr<Prefetcher> prefetcher_;
  std::vector<std::uint64_t> pfCandidates_;
  MemExtension ext_;
  std::array<double, kParts> spent_{};
  // Write streaming and write combining.
  std::uint64_t runLine_ = ~0ull;  ///< line the current sequential run is writing
  std::uint64_t runBytes_ = 0;     ///< bytes written sequentially into runLine_
  std::uint64_t runNext_ = 0;      ///< address the next sequential store would write
  std::uint64_t fullLines_ = 0;    ///< consecutive full-line writes
  std::uint64_t wcLine_ = ~0ull;   ///< line held in the write-combining entry (L1 numbering)
  std::uint64_t wcBytes_ = 0;      ///< bytes merged into it
  std::uint64_t wcLo_ = 0, wcHi_ = 0;  ///< span [lo, hi) of the merged bytes within the line
  Stats stats_;
};

}  // namespace socsim::models
