#pragma once
/// @file os_machine.h
/// @brief One board seen by the kernel-path models: kernel code executed on the board's core
///        model (CoreModel over the platform, as the CPU benchmarks run), and data movement
///        (copies, working-set refills, page walks) executed by the board's memory system
///        (soc::Platform jobs on the benchmark's core).
///
/// Kernel code is a synthetic instruction stream with the mix of
/// `configs/workloads/os/base/kernel.yaml` whose static code footprint and data footprint follow
/// from the path's instruction counts (KernelPathParams code/data bytes per instruction). A path
/// run warm (the steady state of a benchmark loop that repeats it) costs its instructions times
/// the CPI the core model measures for that footprint, plus the pipeline refills of its kernel
/// entries; a path run cold (cyclictest's worst case) is executed once after the caches are
/// flushed, optionally while other cores stream memory.
///
/// Each entry from user space also pays the core's Spectre-BHB loop when the core type has one
/// (CoreParams::bhb_loop_iterations: the loop's instructions plus the stack's
/// `bhb_barrier_cycles`). A wake-up of a task waiting on another, idle core (SMP: Linux puts a
/// woken task back on its previous CPU when that CPU is idle, so the two ends of a ping-pong
/// keep a core each) costs the reschedule IPI on the target core, the GIC delivery latency and
/// the cache lines the waker wrote, read on the target core from the cluster's shared level.
///
/// Not modelled: TLB misses other than the explicit page walks the workloads issue, cache
/// pollution of the benchmark's data by kernel code, coherence (a line written on another core
/// is read from the shared level as an L1 miss, not snooped).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "soc/platform.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/os/kernel_path_params.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct ClusterConfig;
}

namespace socsim::wl::os {

/// Code executed on the core: dynamic instructions (AArch64 counts), the distinct code among
/// them (footprint), and kernel entry+exit pairs.
struct CodeWork {
  double instructions = 0;
  double staticInstructions = 0;
  double traps = 0;
  CodeWork& operator+=(const CodeWork& o) {
    instructions += o.instructions;
    staticInstructions += o.staticInstructions;
    traps += o.traps;
    return *this;
  }
};
/// `n` executions of straight-line code of `instructions` (footprint counted once).
inline CodeWork path(double instructions, double n = 1, double traps = 0) {
  return {instructions * n, instructions, traps * n};
}
/// `w` repeated `n` times (same code, same footprint).
inline CodeWork times(CodeWork w, double n) {
  w.instructions *= n;
  w.traps *= n;
  return w;
}

/// Simulated time and where it went (seconds per part).
struct Timed {
  double seconds = 0;
  std::vector<std::pair<std::string, double>> parts;
  void add(const std::string& part, double s);
  void add(const Timed& t, double scale = 1.0);
  /// Remove `t` (a baseline lmbench subtracts). Parts that shrink below zero are netted
  /// against the parts that grew (these are scaled to sum to the net `seconds`); a net
  /// `seconds` <= 0 leaves no parts.
  void subtract(const Timed& t);
};

/// Counters of the last prediction, for `socsim explain`.
struct Counters {
  double kernelInstructions = 0;  ///< after the ISA and lock factors
  double cycles = 0;              ///< kernel code cycles
  double l1iMissesPerKi = 0;      ///< of the kernel code run
  double l1dMissesPerKi = 0;
  double copyBytes = 0;  ///< bytes moved by copies and refills
  double pageWalks = 0;  ///< explicit TLB refills (page walks)
  void reset() { *this = Counters{}; }
};

/// CPI of kernel code of one footprint on one board, as the core model measured it.
struct CodeRun {
  double cpi = 0;
  double l1iPerKi = 0, l1dPerKi = 0;                   ///< misses per 1000 instructions
  std::vector<std::pair<std::string, double>> shares;  ///< part -> fraction of cycles
};
/// Warm code runs by board (file + overrides) and footprint; kept across predictions. Entries
/// keyed `switch_mm|...` hold the seconds of one cold pass over a footprint (OsMachine::switchMmRefill),
/// entries keyed `after_data|...` the extra cycles of a path after a read (OsMachine::codeAfterData).
using CodeRunCache = std::map<std::string, CodeRun>;

class OsMachine {
 public:
  /// @throws NotModelled when the board cannot run Linux (no MMU, no L1 data cache).
  OsMachine(RunContext& ctx, const KernelPathParams& kp, const cpu::WorkloadProfile& kernel,
            CodeRunCache& cache);

  /// `w` in the steady state of a loop that repeats it (warm caches). User code (`user`) does
  /// not take the kernel's lock factor.
  Timed code(const CodeWork& w, bool user = false);
  /// `w` once from cold caches while `streams` other cores copy `streamBytes` each; with no
  /// stream only the core's L1s are cold (nothing evicts the shared levels), averaged over the
  /// profile's programs.
  Timed coldCode(const CodeWork& w, int streams, std::uint64_t streamBytes);
  /// code(w) in a loop that also reads `dataBytes` of other data on the benchmark core between
  /// two runs of `w` (lmbench's open-to-close rows: open/close around a pass over the buffer):
  /// plus the refill of what that read evicted of the path's code and data (from the L1s, and
  /// from the shared levels when `dataBytes` rivals their size), part
  /// `kernel.refill_after_data`: a run after the read less a run without it, both on a fresh
  /// core model after one warm-up run (per program of the profile), memoised and shared as warm
  /// runs are, by the path's length and `dataBytes` too. `dataBytes` 0 is code(w).
  Timed codeAfterData(const CodeWork& w, std::uint64_t dataBytes);
  /// Cores of the benchmark's cluster Linux can spread a ping-pong over (1 = uniprocessor).
  int clusterCores() const;
  /// Share of the wake-ups in a ring of `tasks` tasks that reach a task waiting on another core:
  /// each task keeps a core of its own while there are enough (0 on a uniprocessor).
  double crossCoreShare(int tasks) const;
  /// One wake-up of a task waiting on another, idle core, on the critical path: GIC delivery
  /// (`ipi_delivery_ns`), the target's IPI and idle-exit path (`ipi_instructions`, one kernel
  /// entry) and `wakeup_shared_lines` lines read from the cluster's shared cache level.
  Timed crossCoreWakeup();
  /// Run `job` on the benchmark core (after flushing every cache when `flush`); parts are
  /// prefixed with `prefix` ("copy" -> "copy.l2", "copy.dram.row_miss", ...).
  Timed job(const soc::Platform::Job& j, const std::string& prefix, bool flush);

  const soc::BoardConfig& board() const;
  const soc::ClusterConfig& cluster() const;
  const KernelPathParams& kernel() const { return kp_; }
  double clockHz() const;
  /// Flat platform index of the core the benchmarks run on, and the other application cores.
  int benchCore() const { return cores_.front(); }
  const std::vector<int>& cores() const { return cores_; }
  /// ARMv5 L1 caches are virtually indexed and tagged: a context switch cleans and invalidates
  /// them and flushes the TLB (Linux arch/arm/mm/proc-arm926.S cpu_arm926_switch_mm).
  bool vivtCaches() const;
  /// The stack's kernel invalidates this core's L1 instruction cache on every switch of address
  /// space (KernelPathParams::spectre_v2_switch_mm_hardening and the core fact
  /// CoreParams::switch_mm_invalidates_icache: Cortex-A15).
  bool switchMmFlushesIcache() const;
  /// What `w`, the code run between two switches of address space on one core, adds when the
  /// switch invalidated the L1 instruction cache (and with it the A15's branch predictor): a
  /// cold run of `w` less a warm run, without the cold run's extra L1D time (the data side stays
  /// warm), measured once per board and footprint over one pass of the code and scaled down
  /// for a shorter path; part `switch_mm.icache_refill`. Empty when switchMmFlushesIcache() is
  /// false.
  Timed switchMmRefill(const CodeWork& w);
  /// Translation-table levels of a page walk (4 KiB pages: AArch64 48-bit VA 4, ARMv7/v5 2).
  int pageWalkLevels() const;
  /// Dynamic-instruction factor: the ISA path factor, times the stack's path factor and the
  /// lock factor for kernel code.
  double pathFactor(bool user = false) const;
  /// Dynamic instructions of `w` on this board: pathFactor() on kernel bodies; the entry and
  /// exit of each trap (`trap_instructions` per trap) take no lock, so they skip the lock factor.
  double kernelInstructions(const CodeWork& w, bool user = false) const;
  /// Seconds of `cycles` core cycles.
  double seconds(double cycles) const { return cycles / clockHz(); }

  Counters counters;

 private:
  cpu::WorkloadProfile profileFor(const CodeWork& w) const;
  /// The run memoised under `key` (in this process: board file and overrides, and the
  /// footprint) or, when sharing is on (code_run_store.h), stored under the hardware and
  /// profile fingerprints plus `extra` (what else the run reads); else `simulate()`, kept.
  const CodeRun& memoRun(const std::string& key, const cpu::WorkloadProfile& p,
                         const std::string& extra, const std::function<CodeRun()>& simulate);
  /// In-process memo key of a run of `p` on this board: board file and overrides, footprints.
  std::string runKey(const cpu::WorkloadProfile& p) const;
  const CodeRun& warmRun(const cpu::WorkloadProfile& p);
  /// One run of `n` instructions of program `variant` of `p` on the benchmark core, on a fresh
  /// core model (untrained predictor, the caches as they are); `after` runs on the same core
  /// once it has synced. Returns the run's core cycles.
  double runPath(const cpu::WorkloadProfile& p, int variant, std::uint64_t n,
                 const std::function<void(models::CoreMemory&)>& after = {});
  CodeRun simulateWarmRun(const cpu::WorkloadProfile& p);
  /// Extra cycles of `n` instructions of `p` after a read of `dataBytes` (codeAfterData).
  double simulateRefillAfterData(const cpu::WorkloadProfile& p, std::uint64_t n,
                                 std::uint64_t dataBytes);
  Timed fromRun(const CodeRun& r, double instructions, double traps, const std::string& prefix);

  RunContext& ctx_;
  KernelPathParams kp_;
  cpu::WorkloadProfile kernel_;
  std::vector<int> cores_;
  CodeRunCache& warm_;
  std::string boardKey_;
};

}  // namespace socsim::wl::os
