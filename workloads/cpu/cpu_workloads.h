#pragma once
/// @file cpu_workloads.h
/// @brief The CPU benchmarks (Dhrystone, Whetstone, Linpack, NBench, LMBench lat_ops,
///        CoreMark-Pro, MultiBench, MCU+ Mathlib) as one data-driven workload: every profile
///        in `configs/workloads/**.yaml` names the measured rows it predicts; predicting a row
///        runs its profile's instruction stream on the board's core model (CoreModel) over the
///        board's memory system (soc::Platform) and converts the run into the row's metric.
///
/// Composite rows (the CoreMark-Pro score) are geometric means of other rows' predictions with
/// the benchmark's published scale factors (a `composite:` file).
///
/// Several cores (CoreMark-Pro cores=N) run N independent copies of the stream (own data, shared
/// code), concurrently on the platform, so they contend in the shared L2, interconnect and DDR;
/// the rate is N units over the slowest core's time.
/// More contexts than the board has cores of the main type time-share those cores (the rate of
/// all of them).
///
/// Concurrent workloads (EEMBC MultiBench, a `concurrent:` file) run several work items at once:
/// each item is a kernel profile split over its workers (threads that each do 1/w of the item's
/// instructions on 1/w of its data); all threads run concurrently on the board's application
/// cores (round-robin placement, several threads of a core one after another, each with a warm
/// start), and one workload iteration ends when every thread has done its share:
/// time = max(slowest thread, total thread time / cores) (a work-conserving scheduler with
/// migration; McNaughton's bound), rate = 1 / time.
/// Not modelled (reported `not-modelled` with the reason): profiles whose threads cooperate on one
/// job, and cores without L1 caches.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cpu/core_model.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/workload.h"

namespace socsim::wl::cpu {

/// A geometric-mean score over other rows: value = factor * geomean(value_i * weight_i).
struct CompositeSpec {
  std::string file;
  std::string family, benchmark, metric, unit;
  double factor = 1;
  std::vector<std::pair<std::string, double>> parts;  ///< (benchmark, weight)
  static CompositeSpec load(const std::string& file);
};

/// A workload made of work items that run concurrently (EEMBC MultiBench under its MITH harness):
/// `parts` lists (kernel profile name, workers) pairs; one iteration of the workload is one
/// iteration of every part.
struct ConcurrentSpec {
  std::string file;
  std::string family, benchmark, metric, unit;
  std::vector<std::pair<std::string, int>> parts;  ///< (profile name, workers)
  /// The items run one after another (MITH with one context: the context's bench_thread takes
  /// the next item when its current one finishes, EEMBC mith/src/mith_lib.c), each item's
  /// workers at the same time; false: all items' threads at once.
  bool sequential = false;
  /// Every workload of a file with a top-level `concurrent:` group.
  static std::vector<ConcurrentSpec> load(const std::string& file);
};

/// What one run of a profile measured.
struct ProfileRun {
  double clockMhz = 0;
  /// The clock the benchmark's script prints as cpu_clock (and divides by for per-MHz figures):
  /// the core clock with a cpufreq driver, the kernel's BogoMIPS without (scriptCpuClockMhz).
  double reportedClockMhz = 0;
  int cores = 1;
  double cyclesPerUnit = 0;     ///< average over the measured units (one core)
  double maxCyclesPerUnit = 0;  ///< largest single unit (cold start included when not warmed up)
  double unitsPerSecond = 0;    ///< all cores together
  double timeShareSeconds = 0;  ///< concurrent runs: per iteration, waiting for a free core
  models::CoreRunStats stats;   ///< of the first core
};

/// BogoMIPS of a kernel that calibrates its delay loop on the core (ARM Linux without a timer
/// delay, arch/arm/lib/delay-loop.S: `subs r0, r0, #1; bhi` per loop; init/calibrate.c:
/// BogoMIPS = loops_per_jiffy x HZ / 500000 = 2 x loops per microsecond): the loop run on the
/// core model with its code in the L1.
double delayLoopBogoMips(const models::CoreParams& core, const models::CoreTimingParams& timing);

/// What the guides' benchmark scripts print as cpu_clock on the board: the main cluster's clock
/// when the kernel runs a cpufreq driver (`software.cpufreq`), otherwise the BogoMIPS. Throws
/// NotModelled for a core whose kernel delay runs on the Arm generic timer (BogoMIPS = 2 x the
/// timer clock, which no board fact gives yet).
double scriptCpuClockMhz(const soc::BoardConfig& b);

/// @brief Share of N contexts' throughput a harness run of `items` whole work items keeps:
///        the items are handed out one at a time, so the run lasts ceil(items / N) item times
///        (EEMBC MITH; items = the workload's default iterations x items). 1 when items <= 0.
double harnessEfficiency(int items, int contexts);

/// The core timing `p` runs with: when the profile states its quotient bits and the core models
/// operand-dependent division (`int_div_min_latency_cycles` > 0, likewise int64), the divide
/// classes take `min + per_bit x (bits - 1)` cycles; otherwise `t` unchanged.
models::CoreTimingParams timingFor(const models::CoreTimingParams& t, const WorkloadProfile& p);

/// Run `p` on `cores` cores of the board's main cluster over the board's platform.
/// Throws NotModelled when the board cannot run it.
ProfileRun runProfile(RunContext& ctx, const WorkloadProfile& p, int cores);

/// Run `p` on a core over any memory port (tests, benchmarks; no SystemC needed).
ProfileRun runProfileOn(const WorkloadProfile& p, const models::CoreParams& core,
                        const models::CoreTimingParams& timing, models::CoreMemoryPort& mem);

/// One thread of a concurrent run: its profile (data already split over the workers) and the
/// instructions it executes per workload iteration.
struct ThreadSpec {
  WorkloadProfile profile;
  double instructionsPerIteration = 0;
  int item = 0;     ///< index of the work item (spec.parts) the thread is a worker of
  int workers = 1;  ///< workers of that item
};

/// Run `threads` concurrently on the board's application cores (see the file comment) and
/// return the workload's iteration rate; `stats` is the critical thread's.
ProfileRun runConcurrent(RunContext& ctx, const std::vector<ThreadSpec>& threads);

/// The threads of a concurrent workload: each part's profile split over its workers.
std::vector<ThreadSpec> threadsOf(const ConcurrentSpec& spec,
                                  const std::vector<WorkloadProfile>& profiles,
                                  const std::string& isa);

/// Expected largest rounding error of one work unit of `p` (value kind `rounding_error`).
double roundingError(const WorkloadProfile& p, const RowSpec& r, const std::string& isa);

/// What a benchmark that prints `quantum` / (elapsed whole ticks) reports for a true value `v`
/// (the same unit; v > 0): `ticks` "nearest" counts round(quantum / v) ticks (at least 1);
/// "random_start" counts the difference of two whole-tick clock reads started at a uniformly
/// random phase, floor(T) or floor(T) + 1 with T = quantum / v and probability frac(T) for the
/// latter, and returns the mean reported value over the start phase of the runs that count at
/// least one tick (a zero count prints no figure): (1 - f) Q / n + f Q / (n + 1), Q if T < 1.
double quantizedValue(double quantum, double v, const std::string& ticks);

/// Value of row `r` from a run (in the row's unit).
double rowValue(const RowSpec& r, const ProfileRun& run);

class CpuBenchmarks : public Workload {
 public:
  /// Loads every profile and composite under `dir`; a broken file makes every prediction fail
  /// with its error (a bug in the repository's data, caught by the tests).
  explicit CpuBenchmarks(std::string dir);
  std::string name() const override { return "cpu-benchmarks"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

  const std::vector<WorkloadProfile>& profiles() const { return profiles_; }
  const std::vector<ConcurrentSpec>& concurrent() const { return concurrent_; }

 private:
  struct Match {
    const WorkloadProfile* profile = nullptr;
    const RowSpec* row = nullptr;
    const CompositeSpec* composite = nullptr;
    const ConcurrentSpec* concurrent = nullptr;
  };
  Match find(const Query& q) const;
  const ProfileRun& run(RunContext& ctx, const WorkloadProfile& p, int cores);
  const ProfileRun& run(RunContext& ctx, const ConcurrentSpec& c);
  std::string boardKey(RunContext& ctx) const;

  std::string dir_, loadError_;
  std::vector<WorkloadProfile> profiles_;
  std::vector<CompositeSpec> composites_;
  std::vector<ConcurrentSpec> concurrent_;
  std::map<std::string, ProfileRun> cache_;  ///< by board + profile + cores
};

/// Register the CPU benchmarks (profiles from defaultProfileDir()).
void registerCpuWorkloads(Registry& r);

}  // namespace socsim::wl::cpu
