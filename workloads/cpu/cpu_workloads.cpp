#include "workloads/cpu/cpu_workloads.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "common/error.h"
#include "common/format.h"
#include "soc/config/board_config.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"
#include "soc/platform.h"
#include "workloads/builtin.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"

namespace fs = std::filesystem;

namespace socsim::wl::cpu {

namespace {

/// Data regions of the cores of a multi-core run are this far apart.
constexpr std::uint64_t kCoreDataStride = 0x10000000ull;

/// Warm-up before every program after the first (predictor retraining; caches stay warm).
constexpr std::uint64_t kVariantWarmup = 50000;

/// Per-unit measurement: run one unit at a time and record its cycles.
struct UnitTimer {
  double maxCycles = 0;
  std::uint64_t units = 0;
};

/// One core's measurement, accumulated over the profile's programs.
struct CoreMeasure {
  models::CoreRunStats stats;
  UnitTimer ut;
  void add(const models::CoreRunStats& s) {
    if (stats.partNames.empty()) {
      stats = s;
      return;
    }
    stats.instructions += s.instructions;
    stats.cycles += s.cycles;
    stats.branches += s.branches;
    stats.mispredicts += s.mispredicts;
    stats.takenBranches += s.takenBranches;
    stats.loads += s.loads;
    stats.stores += s.stores;
    stats.fetchLines += s.fetchLines;
    stats.fetchMisses += s.fetchMisses;
    for (size_t i = 0; i < stats.loadsByLevel.size() && i < s.loadsByLevel.size(); ++i)
      stats.loadsByLevel[i] += s.loadsByLevel[i];
    for (size_t i = 0; i < stats.partCycles.size() && i < s.partCycles.size(); ++i)
      stats.partCycles[i] += s.partCycles[i];
  }
};

/// Run `n` instructions of `gen`; on the platform, one SystemC quantum at a time.
void runSynced(models::CoreModel& core, StreamGenerator& gen, std::uint64_t n, PlatformPort* port) {
  const std::uint64_t q = port ? port->quantumCycles() : 0;
  for (std::uint64_t done = 0; done < n;) {
    std::uint64_t k = core.run(gen, n - done, port ? core.now() + q : ~0ull);
    if (k == 0) break;
    done += k;
    if (port) port->sync(core.now());
  }
}

/// Run the measured part on one core: `total` instructions, timing each unit when units are
/// short enough to be timed one by one (Mathlib calls); on the platform, one quantum at a time.
void measure(models::CoreModel& core, StreamGenerator& gen, std::uint64_t total, double ipu,
             PlatformPort* port, UnitTimer& ut) {
  const bool perUnit = ipu >= 8 && ipu <= 100000;
  const std::uint64_t q = port ? port->quantumCycles() : 0;
  std::uint64_t done = 0;
  double unitEdge = ipu;
  std::uint64_t unitStart = core.now();
  while (done < total) {
    std::uint64_t step = total - done;
    if (perUnit)
      step = std::min<std::uint64_t>(
          step,
          std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(unitEdge)) - done));
    std::uint64_t n = core.run(gen, step, port ? core.now() + q : ~0ull);
    if (n == 0) break;
    done += n;
    if (perUnit && static_cast<double>(done) + 0.5 >= unitEdge) {
      ut.maxCycles = std::max(ut.maxCycles, static_cast<double>(core.now() - unitStart));
      unitStart = core.now();
      unitEdge += ipu;
      ++ut.units;
    }
    if (port) port->sync(core.now());
  }
}

/// The whole run of one core: for each of the profile's programs, warm up, then measure.
void runCore(models::CoreModel& core, const WorkloadProfile& p, double ipu, std::uint64_t salt,
             std::uint64_t dataBase, PlatformPort* port, int cores, CoreMeasure& out) {
  const int variants = std::max(1, p.info.variants);
  const std::uint64_t warm = static_cast<std::uint64_t>(std::max(0, p.info.warmup_instructions));
  // With N cores each core measures a share of the budget (at least a quarter of it): the
  // cores' results are pooled, so the statistics keep their size at bounded cost.
  const std::uint64_t budget = static_cast<std::uint64_t>(std::max(0, p.info.measure_instructions));
  const std::uint64_t total =
      cores > 1 ? std::max(budget / static_cast<std::uint64_t>(cores), budget / 4) : budget;
  for (int v = 0; v < variants; ++v) {
    StreamGenerator gen(p, salt, dataBase, v);
    runSynced(core, gen, v == 0 ? warm : std::min(warm, kVariantWarmup), port);
    core.resetStats();
    std::uint64_t share =
        total / static_cast<std::uint64_t>(variants) +
        (static_cast<std::uint64_t>(v) < total % static_cast<std::uint64_t>(variants) ? 1 : 0);
    measure(core, gen, share, ipu, port, out.ut);
    out.add(core.stats());
  }
}

}  // namespace

// ------------------------------------------------------------------------------------------

CompositeSpec CompositeSpec::load(const std::string& file) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  const config::Node* c = root.isMap() ? root.find("composite") : nullptr;
  if (!c || !c->isMap())
    throw InputError(file, root.line, "composite", "expected a 'composite' group");
  CompositeSpec s;
  s.file = file;
  auto text = [&](const char* key, std::string& out, bool required) {
    const config::Node* n = c->find(key);
    if (!n) {
      if (required)
        throw InputError(file, c->line, std::string("composite.") + key, "missing required key");
      return;
    }
    if (!n->isScalar())
      throw InputError(n->file, n->line, std::string("composite.") + key, "expected a scalar");
    out = n->scalar;
  };
  text("family", s.family, true);
  text("benchmark", s.benchmark, true);
  text("metric", s.metric, false);
  text("unit", s.unit, true);
  std::string factor;
  text("factor", factor, true);
  try {
    s.factor = std::stod(factor);
  } catch (...) {
    throw InputError(file, c->line, "composite.factor", "expected a number, got '" + factor + "'");
  }
  const config::Node* parts = c->find("parts");
  if (!parts || !parts->isMap() || parts->map.empty())
    throw InputError(file, c->line, "composite.parts", "expected a map benchmark: weight");
  for (const auto& [k, v] : parts->map) {
    double w = 0;
    try {
      w = std::stod(v.scalar);
    } catch (...) {
      throw InputError(v.file, v.line, "composite.parts." + k,
                       "expected a weight, got '" + v.scalar + "'");
    }
    if (!(w > 0)) throw InputError(v.file, v.line, "composite.parts." + k, "weight must be > 0");
    s.parts.emplace_back(k, w);
  }
  for (const auto& [k, v] : c->map)
    if (k != "family" && k != "benchmark" && k != "metric" && k != "unit" && k != "factor" &&
        k != "parts" && k != "source" && k != "description")
      throw InputError(v.file, v.line, "composite." + k, "unknown key '" + k + "' in a composite");
  return s;
}

// ------------------------------------------------------------------------------------------

ProfileRun runProfileOn(const WorkloadProfile& p, const models::CoreParams& coreParams,
                        const models::CoreTimingParams& timing, models::CoreMemoryPort& mem) {
  models::CoreModel core(coreParams, timing, mem);
  const double ipu = p.instructionsPerUnit(coreParams.isa);
  CoreMeasure m;
  runCore(core, p, ipu, 0, 0x40000000ull, nullptr, 1, m);
  ProfileRun r;
  r.clockMhz = coreParams.clock_mhz;
  r.stats = m.stats;
  const double units = static_cast<double>(r.stats.instructions) / ipu;
  r.cyclesPerUnit = units > 0 ? static_cast<double>(r.stats.cycles) / units : 0;
  r.maxCyclesPerUnit = m.ut.units ? m.ut.maxCycles : r.cyclesPerUnit;
  r.unitsPerSecond = r.cyclesPerUnit > 0 ? coreParams.clock_mhz * 1e6 / r.cyclesPerUnit : 0;
  return r;
}

ProfileRun runProfile(RunContext& ctx, const WorkloadProfile& p, int cores) {
  const soc::BoardConfig& b = ctx.board();
  const soc::ClusterConfig& main = b.mainCluster();
  if (p.info.threads == 0)
    throw NotModelled{"profile '" + p.info.name +
                      "': the threads/contexts the guide ran it with are not documented"};
  if (p.info.threads > 1)
    throw NotModelled{"profile '" + p.info.name + "' runs " + std::to_string(p.info.threads) +
                      " cooperating threads; multi-threaded benchmark structure not modelled yet"};
  if (!main.l1i || !main.l1d)
    throw NotModelled{"core " + main.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config (tightly-coupled memory not modelled)"};
  // Flat platform indices of the cores to use: the main cluster first, then later application
  // clusters of the same core type (the order Linux numbers the CPUs). The platform leaves out
  // clusters without a data cache (soc::memorySystemFor), so they take no index.
  std::vector<int> flat;
  int base = 0;
  bool seen = false;
  for (const auto& c : b.clusters) {
    if (!c.l1d) continue;
    bool use =
        &c == &main || (seen && c.info.role == main.info.role && c.core.type == main.core.type);
    if (&c == &main) seen = true;
    for (int i = 0; use && i < c.info.cores; ++i) flat.push_back(base + i);
    base += c.info.cores;
  }
  // More contexts than cores (the guide's four-core table lists two-core SoCs): the contexts
  // time-share the cores, so the throughput is that of all the cores.
  cores = std::min<int>(cores, static_cast<int>(flat.size()));

  soc::Platform& plat = ctx.platform();
  plat.flushCaches();
  plat.resetStats();

  struct PerCore {
    std::unique_ptr<PlatformPort> port;
    std::unique_ptr<models::CoreModel> core;
    CoreMeasure m;
  };
  const double ipu = p.instructionsPerUnit(main.core.isa);
  std::vector<PerCore> pc(static_cast<std::size_t>(cores));
  std::vector<std::pair<int, soc::Platform::Job>> jobs;
  for (int k = 0; k < cores; ++k) {
    jobs.emplace_back(flat[static_cast<std::size_t>(k)], [&, k](models::CoreMemory& cm) {
      PerCore& s = pc[static_cast<std::size_t>(k)];
      s.port = std::make_unique<PlatformPort>(cm);
      s.core = std::make_unique<models::CoreModel>(main.core, main.timing, *s.port);
      runCore(*s.core, p, ipu, static_cast<std::uint64_t>(k),
              0x40000000ull + static_cast<std::uint64_t>(k) * kCoreDataStride, s.port.get(), cores,
              s.m);
      s.port->sync(s.core->now());
    });
  }
  plat.run(jobs);

  ProfileRun r;
  r.clockMhz = main.core.clock_mhz;
  r.cores = cores;
  double slowest = 0, totalUnits = 0;
  for (int k = 0; k < cores; ++k) {
    const auto& st = pc[static_cast<std::size_t>(k)].m.stats;
    slowest = std::max(slowest, static_cast<double>(st.cycles));
    totalUnits += static_cast<double>(st.instructions) / ipu;
  }
  r.stats = pc[0].m.stats;
  const double units0 = static_cast<double>(r.stats.instructions) / ipu;
  r.cyclesPerUnit = units0 > 0 ? static_cast<double>(r.stats.cycles) / units0 : 0;
  r.maxCyclesPerUnit = pc[0].m.ut.units ? pc[0].m.ut.maxCycles : r.cyclesPerUnit;
  r.unitsPerSecond = slowest > 0 ? totalUnits * r.clockMhz * 1e6 / slowest : 0;
  return r;
}

double rowValue(const RowSpec& r, const ProfileRun& run) {
  double v = 0;
  const double ups = run.unitsPerSecond;
  if (r.value == "units_per_second")
    v = ups;
  else if (r.value == "units_per_second_per_mhz")
    v = run.clockMhz > 0 ? ups / run.clockMhz : 0;
  else if (r.value == "clock_mhz")
    v = run.clockMhz;
  else if (r.value == "ns_per_unit")
    v = ups > 0 ? 1e9 / ups : 0;
  else if (r.value == "cycles_per_unit")
    v = run.cyclesPerUnit;
  else if (r.value == "max_cycles_per_unit")
    v = run.maxCyclesPerUnit;
  v *= r.scale;
  if (r.quantize > 0 && v > 0) v = r.quantize / std::max(1.0, std::round(r.quantize / v));
  return v;
}

// ------------------------------------------------------------------------------------------

CpuBenchmarks::CpuBenchmarks(std::string dir) : dir_(std::move(dir)) {
  try {
    profiles_ = loadProfiles(dir_);
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir_, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_regular_file() && it->path().extension() == ".yaml" &&
          it->path().parent_path().filename() != "base")
        files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      config::Node root = config::parseYamlFile(f);
      if (root.isMap() && root.find("composite")) composites_.push_back(CompositeSpec::load(f));
    }
  } catch (const InputError& e) {
    loadError_ = e.what();
  } catch (const std::exception& e) {
    loadError_ = std::string("loading workload profiles: ") + e.what();
  }
}

namespace {
int coresOf(const std::string& params) {
  auto pos = params.find("cores=");
  if (pos == std::string::npos) return 1;
  return std::max(1, std::atoi(params.c_str() + pos + 6));
}
}  // namespace

CpuBenchmarks::Match CpuBenchmarks::find(const Query& q) const {
  Match m;
  for (const auto& p : profiles_)
    for (const auto& r : p.rows)
      if (r.family == q.family && r.benchmark == q.benchmark &&
          (r.metric.empty() || r.metric == q.metric) && r.params == q.params) {
        m.profile = &p;
        m.row = &r;
        return m;
      }
  for (const auto& c : composites_)
    if (c.family == q.family && c.benchmark == q.benchmark &&
        (c.metric.empty() || c.metric == q.metric)) {
      m.composite = &c;
      return m;
    }
  return m;
}

bool CpuBenchmarks::covers(const Query& q) const {
  if (!loadError_.empty()) {
    static const char* kFamilies[] = {"dhrystone",   "whetstone",    "linpack",    "nbench",
                                      "lmbench-ops", "coremark-pro", "multibench", "mathlib"};
    return std::find(std::begin(kFamilies), std::end(kFamilies), q.family) != std::end(kFamilies);
  }
  Match m = find(q);
  return m.profile || m.composite;
}

const ProfileRun& CpuBenchmarks::run(RunContext& ctx, const WorkloadProfile& p, int cores) {
  const auto& b = ctx.board();
  std::string key = b.file + "|";
  for (const auto& o : b.overrides) key += o + ";";
  key += "|" + p.file + "|" + std::to_string(cores);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  return cache_.emplace(key, runProfile(ctx, p, cores)).first->second;
}

Prediction CpuBenchmarks::predict(RunContext& ctx, const Query& q) {
  if (!loadError_.empty()) throw InputError(dir_, 0, "", loadError_);
  Match m = find(q);
  Prediction out;
  if (m.composite) {
    const CompositeSpec& c = *m.composite;
    if (!c.unit.empty() && c.unit != q.unit)
      throw NotModelled{"unit '" + q.unit + "' (the composite predicts " + c.unit + ")"};
    double logSum = 0;
    for (const auto& [bench, weight] : c.parts) {
      Query part = q;
      part.benchmark = bench;
      Match pm = find(part);
      if (!pm.profile)
        throw NotModelled{"composite part '" + bench + "' (" + q.params + ") has no profile"};
      part.unit = pm.row->unit;
      Prediction pp = predict(ctx, part);
      if (!(pp.value > 0)) throw NotModelled{"composite part '" + bench + "' predicted no rate"};
      logSum += std::log(pp.value * weight);
    }
    out.value = c.factor * std::exp(logSum / static_cast<double>(c.parts.size()));
    out.note = "geometric mean of " + std::to_string(c.parts.size()) + " workload predictions";
    return out;
  }
  if (!m.profile) throw NotModelled{"no CPU workload profile for this row"};
  const RowSpec& r = *m.row;
  if (r.unit != q.unit)
    throw NotModelled{"unit '" + q.unit + "' (the profile predicts " + r.unit + ")"};
  const ProfileRun& run = this->run(ctx, *m.profile, std::max(r.cores, coresOf(q.params)));
  out.value = rowValue(r, run);
  // Breakdown of one work unit's time on the first core.
  const double cyclesTotal = static_cast<double>(run.stats.cycles);
  const double unitSeconds = run.clockMhz > 0 ? run.cyclesPerUnit / (run.clockMhz * 1e6) : 0;
  if (cyclesTotal > 0)
    for (size_t i = 0; i < run.stats.partNames.size(); ++i)
      if (run.stats.partCycles[i] > 0)
        out.breakdown.add(run.stats.partNames[i],
                          unitSeconds * run.stats.partCycles[i] / cyclesTotal);
  out.note = "profile " + m.profile->info.name + ": IPC " + formatNumber(run.stats.ipc()) + ", " +
             formatNumber(run.cyclesPerUnit) + " cycles per " +
             (m.profile->info.work_unit.empty() ? std::string("unit") : m.profile->info.work_unit);
  return out;
}

void registerCpuWorkloads(Registry& r) {
  r.add(std::make_unique<CpuBenchmarks>(defaultProfileDir()));
}

}  // namespace socsim::wl::cpu
