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
/// all of them). Not modelled (reported `not-modelled` with the reason): profiles whose threads
/// cooperate on one job or whose measured concurrency is undocumented (MultiBench), and cores
/// without L1 caches.
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

/// What one run of a profile measured.
struct ProfileRun {
  double clockMhz = 0;
  int cores = 1;
  double cyclesPerUnit = 0;     ///< average over the measured units (one core)
  double maxCyclesPerUnit = 0;  ///< largest single unit (cold start included when not warmed up)
  double unitsPerSecond = 0;    ///< all cores together
  models::CoreRunStats stats;   ///< of the first core
};

/// Run `p` on `cores` cores of the board's main cluster over the board's platform.
/// Throws NotModelled when the board cannot run it.
ProfileRun runProfile(RunContext& ctx, const WorkloadProfile& p, int cores);

/// Run `p` on a core over any memory port (tests, benchmarks; no SystemC needed).
ProfileRun runProfileOn(const WorkloadProfile& p, const models::CoreParams& core,
                        const models::CoreTimingParams& timing, models::CoreMemoryPort& mem);

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

 private:
  struct Match {
    const WorkloadProfile* profile = nullptr;
    const RowSpec* row = nullptr;
    const CompositeSpec* composite = nullptr;
  };
  Match find(const Query& q) const;
  const ProfileRun& run(RunContext& ctx, const WorkloadProfile& p, int cores);

  std::string dir_, loadError_;
  std::vector<WorkloadProfile> profiles_;
  std::vector<CompositeSpec> composites_;
  std::map<std::string, ProfileRun> cache_;  ///< by board + profile + cores
};

/// Register the CPU benchmarks (profiles from defaultProfileDir()).
void registerCpuWorkloads(Registry& r);

}  // namespace socsim::wl::cpu
