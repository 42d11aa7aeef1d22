#include "workloads/cpu/cpu_workloads.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "soc/config/board_config.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"
#include "soc/platform.h"
#include "workloads/builtin.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"
#include "workloads/os/code_run_store.h"

namespace fs = std::filesystem;

namespace socsim::wl::cpu {

namespace {

/// Data regions of the cores of a multi-core run are this far apart.
constexpr std::uint64_t kCoreDataStride = 0x10000000ull;
/// Data regions of the threads of a concurrent run are this far apart (a 4 MiB kernel with its
/// aligned regions takes about 12 MiB).
constexpr std::uint64_t kThreadDataStride = 0x08000000ull;

/// Flat platform indices of the cores that run application threads, in the order busy threads
/// land on them: the main cluster and later application clusters of the same core type, taken
/// round-robin (Linux's load balancer spreads runnable tasks over the clusters while every
/// cluster has idle CPUs: kernel/sched/fair.c, a scheduling group with spare capacity is
/// balanced on its number of idle CPUs). The platform leaves out clusters without a data cache
/// (soc::memorySystemFor), so they take no index.
std::vector<int> applicationCores(const soc::BoardConfig& b) {
  const soc::ClusterConfig& main = b.mainCluster();
  std::vector<std::vector<int>> perCluster;
  int base = 0;
  bool seen = false;
  for (const auto& c : b.clusters) {
    if (!c.l1d) continue;
    bool use =
        &c == &main || (seen && c.info.role == main.info.role && c.core.type == main.core.type);
    if (&c == &main) seen = true;
    if (use) {
      perCluster.emplace_back();
      for (int i = 0; i < c.info.cores; ++i) perCluster.back().push_back(base + i);
    }
    base += c.info.cores;
  }
  std::vector<int> flat;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& cl : perCluster)
      if (i < cl.size()) {
        flat.push_back(cl[i]);
        any = true;
      }
    if (!any) break;
  }
  return flat;
}

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

/// Units short enough to be timed one by one (Mathlib calls): `ipu` instructions per unit.
bool timedPerUnit(double ipu) { return ipu >= 8 && ipu <= 100000; }

/// Run the measured part on one core: `total` instructions, timing each unit when units are
/// short enough to be timed one by one (timedPerUnit); on the platform, one quantum at a time.
void measure(models::CoreModel& core, StreamGenerator& gen, std::uint64_t total, double ipu,
             PlatformPort* port, UnitTimer& ut) {
  const bool perUnit = timedPerUnit(ipu);
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
             std::uint64_t dataBase, PlatformPort* port, int cores, CoreMeasure& out,
             const std::string& isa) {
  const int variants = std::max(1, p.info.variants);
  const std::uint64_t warm = static_cast<std::uint64_t>(std::max(0, p.info.warmup_instructions));
  // With N cores each core measures a share of the budget (at least a quarter of it): the
  // cores' results are pooled, so the statistics keep their size at bounded cost.
  const std::uint64_t budget = static_cast<std::uint64_t>(std::max(0, p.info.measure_instructions));
  const std::uint64_t total =
      cores > 1 ? std::max(budget / static_cast<std::uint64_t>(cores), budget / 4) : budget;
  for (int v = 0; v < variants; ++v) {
    StreamGenerator gen(p, salt, dataBase, v, isa);
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
    config::noteRead(*n);
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
    config::noteRead(v);
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

std::vector<ConcurrentSpec> ConcurrentSpec::load(const std::string& file) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  const config::Node* c = root.isMap() ? root.find("concurrent") : nullptr;
  if (!c || !c->isMap())
    throw InputError(file, root.line, "concurrent", "expected a 'concurrent' group");
  std::string family, metric, unit;
  auto text = [&](const char* key, std::string& out, bool required) {
    const config::Node* n = c->find(key);
    if (!n) {
      if (required)
        throw InputError(file, c->line, std::string("concurrent.") + key, "missing required key");
      return;
    }
    // A documented value, {value: ..., source: ...}, reads as its value.
    if (n->isMap() && n->find("value")) n = n->find("value");
    if (!n->isScalar())
      throw InputError(n->file, n->line, std::string("concurrent.") + key, "expected a scalar");
    config::noteRead(*n);
    out = n->scalar;
  };
  text("family", family, true);
  text("metric", metric, false);
  text("unit", unit, true);
  std::string itemsRun = "concurrent";
  text("items_run", itemsRun, false);
  if (itemsRun != "concurrent" && itemsRun != "sequential")
    throw InputError(c->find("items_run")->file, c->find("items_run")->line, "concurrent.items_run",
                     "expected 'concurrent' or 'sequential', got '" + itemsRun + "'");
  for (const auto& [k, v] : c->map)
    if (k != "family" && k != "metric" && k != "unit" && k != "workloads" && k != "source" &&
        k != "description" && k != "items_run")
      throw InputError(v.file, v.line, "concurrent." + k,
                       "unknown key '" + k + "' in a concurrent group (family, metric, unit, "
                       "items_run, workloads, source, description)");
  const config::Node* w = c->find("workloads");
  if (!w || !w->isMap() || w->map.empty())
    throw InputError(file, c->line, "concurrent.workloads",
                     "expected a map workload name: {profile: workers, ...}");
  std::vector<ConcurrentSpec> out;
  for (const auto& [name, parts] : w->map) {
    const std::string path = "concurrent.workloads." + name;
    if (!parts.isMap() || parts.map.empty())
      throw InputError(parts.file, parts.line, path,
                       "expected a map of work items: {profile name: workers}");
    ConcurrentSpec s;
    s.file = file;
    s.family = family;
    s.metric = metric;
    s.unit = unit;
    s.benchmark = name;
    s.sequential = itemsRun == "sequential";
    for (const auto& [prof, workers] : parts.map) {
      int n = 0;
      config::noteRead(workers);
      try {
        std::size_t used = 0;
        n = std::stoi(workers.scalar, &used);
        if (used != workers.scalar.size()) n = 0;
      } catch (...) {
        n = 0;
      }
      if (!workers.isScalar() || n < 1 || n > 64)
        throw InputError(workers.file, workers.line, path + "." + prof,
                         "workers must be an integer 1..64, got '" + workers.scalar + "'");
      s.parts.emplace_back(prof, n);
    }
    out.push_back(std::move(s));
  }
  return out;
}

// ------------------------------------------------------------------------------------------

double delayLoopBogoMips(const models::CoreParams& core, const models::CoreTimingParams& timing) {
  models::FixedLatencyMemory::Config mc;  // 8 bytes of code, no data: every fetch hits the L1
  models::FixedLatencyMemory mem(mc);
  models::CoreModel cm(core, timing, mem);
  models::DynInst subs;
  subs.cls = models::OpClass::IntAlu;
  subs.pc = 0x1000;
  subs.dep1 = 2;  // r0 from the previous iteration's subs
  models::DynInst bhi;
  bhi.cls = models::OpClass::Branch;
  bhi.pc = 0x1004;
  bhi.dep1 = 1;  // the flags of the subs
  bhi.taken = true;
  models::RepeatSource warm({subs, bhi}, 1000);
  cm.run(warm, ~0ull);
  cm.resetStats();
  constexpr std::uint64_t kLoops = 10000;
  models::RepeatSource loop({subs, bhi}, kLoops);
  cm.run(loop, ~0ull);
  const double cyclesPerLoop = static_cast<double>(cm.stats().cycles) / kLoops;
  return cyclesPerLoop > 0 ? 2.0 * core.clock_mhz / cyclesPerLoop : 0;
}

namespace {
/// scriptCpuClockMhz, or 0 when it is not modelled (only the rows that print it fail then).
double reportedClock(const soc::BoardConfig& b) {
  try {
    return scriptCpuClockMhz(b);
  } catch (const NotModelled&) {
    return 0;
  }
}
}  // namespace

double scriptCpuClockMhz(const soc::BoardConfig& b) {
  const soc::ClusterConfig& main = b.mainCluster();
  if (b.software.cpufreq) return main.core.clock_mhz;
  // ARMv5 has no generic timer: the kernel calibrates its delay loop on the core.
  if (main.core.isa == "armv5te") return delayLoopBogoMips(main.core, main.timing);
  throw NotModelled{"cpu_clock of board " + b.board.name +
                    " without cpufreq: its kernel delay runs on the Arm generic timer (BogoMIPS "
                    "= 2 x the timer clock, not a board fact yet)"};
}

models::CoreTimingParams timingFor(const models::CoreTimingParams& t, const WorkloadProfile& p) {
  const double bits = p.info.divide_quotient_bits;
  if (!(bits > 0)) return t;
  models::CoreTimingParams out = t;
  // A divider or library routine that stops early is busy for the whole division.
  const auto apply = [bits](double minCycles, double perBit, int& latency, int& interval) {
    if (!(minCycles > 0)) return;
    const double c = minCycles + perBit * std::max(0.0, bits - 1.0);
    latency = interval = std::max(1, static_cast<int>(std::lround(c)));
  };
  apply(t.int_div_min_latency_cycles, t.int_div_cycles_per_quotient_bit,
        out.int_div_latency_cycles, out.int_div_interval_cycles);
  apply(t.int64_div_min_latency_cycles, t.int64_div_cycles_per_quotient_bit,
        out.int64_div_latency_cycles, out.int64_div_interval_cycles);
  return out;
}

ProfileRun runProfileOn(const WorkloadProfile& p, const models::CoreParams& coreParams,
                        const models::CoreTimingParams& timing, models::CoreMemoryPort& mem) {
  models::CoreModel core(coreParams, timingFor(timing, p), mem);
  const double ipu = p.instructionsPerUnit(coreParams.isa);
  CoreMeasure m;
  runCore(core, p, ipu, 0, 0x40000000ull, nullptr, 1, m, coreParams.isa);
  ProfileRun r;
  r.clockMhz = coreParams.clock_mhz;
  r.reportedClockMhz = coreParams.clock_mhz;
  r.stats = m.stats;
  const double units = static_cast<double>(r.stats.instructions) / ipu;
  r.cyclesPerUnit = units > 0 ? static_cast<double>(r.stats.cycles) / units : 0;
  r.maxCyclesPerUnit = m.ut.units ? m.ut.maxCycles : r.cyclesPerUnit;
  r.unitsPerSecond = r.cyclesPerUnit > 0 ? coreParams.clock_mhz * 1e6 / r.cyclesPerUnit : 0;
  return r;
}

double harnessEfficiency(int items, int contexts) {
  if (items <= 0 || contexts <= 1) return 1.0;
  // EEMBC MITH raises the iteration count until every context gets an item (the workload's
  // main: while (num_contexts > iterations * items) iterations++); the CoreMark-PRO workloads
  // with fewer runs than contexts have one item per iteration, so the count becomes N.
  const long long n = std::max<long long>(items, contexts);
  const long long rounds = (n + contexts - 1) / contexts;
  return static_cast<double>(n) / static_cast<double>(rounds * contexts);
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
  const std::vector<int> flat = applicationCores(b);
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
  const models::CoreTimingParams timing = timingFor(main.timing, p);
  std::vector<PerCore> pc(static_cast<std::size_t>(cores));
  std::vector<std::pair<int, soc::Platform::Job>> jobs;
  for (int k = 0; k < cores; ++k) {
    jobs.emplace_back(flat[static_cast<std::size_t>(k)], [&, k](models::CoreMemory& cm) {
      PerCore& s = pc[static_cast<std::size_t>(k)];
      s.port = std::make_unique<PlatformPort>(cm);
      s.core = std::make_unique<models::CoreModel>(main.core, timing, *s.port);
      runCore(*s.core, p, ipu, static_cast<std::uint64_t>(k),
              0x40000000ull + static_cast<std::uint64_t>(k) * kCoreDataStride, s.port.get(), cores,
              s.m, main.core.isa);
      s.port->sync(s.core->now());
    });
  }
  plat.run(jobs);

  ProfileRun r;
  r.clockMhz = main.core.clock_mhz;
  r.reportedClockMhz = reportedClock(b);
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
  r.unitsPerSecond *= harnessEfficiency(p.info.harness_items, cores);
  return r;
}

std::vector<ThreadSpec> threadsOf(const ConcurrentSpec& spec,
                                  const std::vector<WorkloadProfile>& profiles,
                                  const std::string& isa) {
  std::vector<ThreadSpec> out;
  for (const auto& [name, workers] : spec.parts) {
    const WorkloadProfile* p = nullptr;
    for (const auto& q : profiles)
      if (q.info.name == name) p = &q;
    if (!p)
      throw InputError(spec.file, 0, "concurrent.workloads." + spec.benchmark,
                       "no workload profile named '" + name + "'");
    const int w = std::max(1, workers);
    // Each worker does 1/w of the item on 1/w of its data (the item's arrays, tables and
    // linked structures are split; stack and locals are per worker).
    WorkloadProfile share = *p;
    const auto split = [w](std::uint64_t bytes) {
      return std::max<std::uint64_t>(64, bytes / static_cast<std::uint64_t>(w));
    };
    share.data.stream_bytes = split(share.data.stream_bytes);
    share.data.random_bytes = split(share.data.random_bytes);
    share.data.chase_bytes = split(share.data.chase_bytes);
    const double ipu = p->instructionsPerUnit(isa) / w;
    const int item = out.empty() ? 0 : out.back().item + 1;
    for (int k = 0; k < w; ++k) out.push_back({share, ipu, item, w});
  }
  return out;
}

namespace {

/// Cluster (index in b.clusters) of the core with flat platform index `core` (the platform
/// numbers the cores of the clusters with a data cache in order, as applicationCores does).
int clusterOfCore(const soc::BoardConfig& b, int core) {
  int base = 0;
  for (std::size_t c = 0; c < b.clusters.size(); ++c) {
    if (!b.clusters[c].l1d) continue;
    if (core < base + b.clusters[c].info.cores) return static_cast<int>(c);
    base += b.clusters[c].info.cores;
  }
  return -1;
}

/// Core cycles thread `t` spends taking the ownership of lines its item's other workers write
/// (data.shared_store_fraction of its stores). Ownership moves one store at a time: the store
/// buffer drains in order and a store cannot drain before its line is owned, so the thread
/// runs no faster than these transfers (its time is the larger of the two; the compute
/// overlaps the transfers while the store buffer has room). The workers of the item that run
/// at the same time are the ones on other cores (min(workers, cores) of them write the lines);
/// the line was last written by each of them equally likely; a writer in the same cluster
/// hands the line over in the cluster (snoop_transfer_cycles), one in another cluster adds the
/// round trip through the SoC interconnect.
double sharedStoreCycles(const soc::BoardConfig& b, const std::vector<int>& flat,
                         const std::vector<ThreadSpec>& threads, std::size_t t, int used,
                         const models::CoreRunStats& st) {
  const ThreadSpec& th = threads[t];
  const double f = th.profile.data.shared_store_fraction;
  if (f <= 0 || th.workers < 2 || used < 2 || st.instructions == 0) return 0;
  const soc::ClusterConfig& main = b.mainCluster();
  const double storesPerInstruction =
      static_cast<double>(st.stores) / static_cast<double>(st.instructions);
  const double shared = th.instructionsPerIteration * storesPerInstruction * f;
  const double intra = main.memory.snoop_transfer_cycles;
  const double ic = b.interconnect.clock_mhz > 0 ? b.interconnect.clock_mhz : main.core.clock_mhz;
  const double inter = intra + 2.0 * b.interconnect.latency_cycles * main.core.clock_mhz / ic;
  const int myCluster = clusterOfCore(b, flat[t % static_cast<std::size_t>(used)]);
  // The item's workers running beside this one: those of the same round (thread u runs on
  // core u mod used in round u / used; a core's threads run one after another).
  const std::size_t n = static_cast<std::size_t>(used);
  double sum = 0;
  int writers = 1;
  for (std::size_t u = 0; u < threads.size(); ++u) {
    if (u == t || threads[u].item != th.item || u / n != t / n) continue;
    ++writers;
    sum += clusterOfCore(b, flat[u % n]) == myCluster ? intra : inter;
  }
  if (writers < 2) return 0;
  return shared * sum / static_cast<double>(writers);
}

}  // namespace

ProfileRun runConcurrent(RunContext& ctx, const std::vector<ThreadSpec>& threads) {
  const soc::BoardConfig& b = ctx.board();
  const soc::ClusterConfig& main = b.mainCluster();
  if (threads.empty()) throw NotModelled{"a concurrent workload without work items"};
  for (const auto& t : threads)
    if (t.profile.info.threads != 1)
      throw NotModelled{"profile '" + t.profile.info.name +
                        "' is not a single-threaded work item of a concurrent workload"};
  if (!main.l1i || !main.l1d)
    throw NotModelled{"core " + main.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config (tightly-coupled memory not modelled)"};
  const std::vector<int> flat = applicationCores(b);
  if (flat.empty()) throw NotModelled{"board " + b.board.name + " has no application cores"};
  const int nThreads = static_cast<int>(threads.size());
  const int used = std::min(nThreads, static_cast<int>(flat.size()));

  soc::Platform& plat = ctx.platform();
  plat.flushCaches();
  plat.resetStats();

  std::vector<CoreMeasure> measures(threads.size());
  std::vector<std::unique_ptr<PlatformPort>> ports(static_cast<std::size_t>(used));
  std::vector<std::unique_ptr<models::CoreModel>> cores(static_cast<std::size_t>(used));
  std::vector<std::pair<int, soc::Platform::Job>> jobs;
  for (int k = 0; k < used; ++k) {
    jobs.emplace_back(flat[static_cast<std::size_t>(k)], [&, k](models::CoreMemory& cm) {
      auto& port = ports[static_cast<std::size_t>(k)];
      auto& core = cores[static_cast<std::size_t>(k)];
      port = std::make_unique<PlatformPort>(cm);
      core = std::make_unique<models::CoreModel>(main.core, main.timing, *port);
      // The threads placed on this core run one after another, each from a warm start (a
      // scheduler time slice of milliseconds refills the caches anyway).
      for (int t = k; t < nThreads; t += used) {
        const ThreadSpec& th = threads[static_cast<std::size_t>(t)];
        runCore(*core, th.profile, th.instructionsPerIteration, static_cast<std::uint64_t>(t),
                0x40000000ull + static_cast<std::uint64_t>(t) * kThreadDataStride, port.get(),
                nThreads, measures[static_cast<std::size_t>(t)], main.core.isa);
      }
      port->sync(core->now());
    });
  }
  plat.run(jobs);

  const double hz = main.core.clock_mhz * 1e6;
  double slowest = 0, total = 0;
  std::size_t critical = 0;
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const auto& st = measures[t].stats;
    const double cpi = st.cpi();
    const double seconds =
        std::max(threads[t].instructionsPerIteration * cpi,
                 sharedStoreCycles(b, flat, threads, t, used, st)) / hz;
    total += seconds;
    if (seconds > slowest) {
      slowest = seconds;
      critical = t;
    }
  }
  const double makespan = std::max(slowest, total / static_cast<double>(flat.size()));
  ProfileRun r;
  r.clockMhz = main.core.clock_mhz;
  r.reportedClockMhz = reportedClock(b);
  r.cores = used;
  r.stats = measures[critical].stats;
  r.cyclesPerUnit = makespan * hz;
  r.maxCyclesPerUnit = r.cyclesPerUnit;
  r.unitsPerSecond = makespan > 0 ? 1.0 / makespan : 0;
  r.timeShareSeconds = makespan - slowest;
  return r;
}

double roundingError(const WorkloadProfile& p, const RowSpec& r, const std::string& isa) {
  // Each floating-point operation rounds once (relative error <= u, the unit roundoff); over n
  // operations the errors add like a random walk, so the typical largest error of a result is
  // about sqrt(n) u |result| (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
  // sec. 2.8). Single- and double-precision operations count with their own roundoff.
  const double n = p.instructionsPerUnit(isa) / std::max(1e-12, p.mix.total());
  const auto& m = p.mix;
  const double sp = n * (m.fp_add + m.fp_mul + m.fp_mac + m.fp_div + m.fp_sqrt);
  const double dp = n * (m.dp_add + m.dp_mul + m.dp_mac + m.dp_div + m.dp_sqrt);
  const double uSingle = std::ldexp(1.0, -24), uDouble = std::ldexp(1.0, -53);
  return r.scale * (std::sqrt(sp) * uSingle + std::sqrt(dp) * uDouble);
}

double rowValue(const RowSpec& r, const ProfileRun& run) {
  double v = 0;
  double ups = run.unitsPerSecond;
  if (r.rate_quantum > 0 && ups > 0)
    ups = r.rate_quantum / std::max(1.0, std::round(r.rate_quantum / ups));
  if (r.value == "units_per_second")
    v = ups;
  else if (r.value == "units_per_second_per_mhz")
    v = run.reportedClockMhz > 0 ? ups / run.reportedClockMhz : 0;
  else if (r.value == "clock_mhz")
    v = run.reportedClockMhz;
  else if (r.value == "ns_per_unit")
    v = ups > 0 ? 1e9 / ups : 0;
  else if (r.value == "cycles_per_unit")
    v = run.cyclesPerUnit;
  else if (r.value == "max_cycles_per_unit")
    v = run.maxCyclesPerUnit;
  v *= r.scale;
  if (r.quantize > 0 && v > 0) v = quantizedValue(r.quantize, v, r.quantize_ticks);
  return v;
}

double quantizedValue(double quantum, double v, const std::string& ticks) {
  const double t = quantum / v;  // true elapsed time in ticks
  if (ticks != "random_start") return quantum / std::max(1.0, std::round(t));
  const double n = std::floor(t);
  if (n < 1) return quantum;  // only the runs that count one tick print a figure
  const double f = t - n;
  return (1 - f) * quantum / n + f * quantum / (n + 1);
}

// ------------------------------------------------------------------------------------------

CpuBenchmarks::CpuBenchmarks(std::string dir) : dir_(std::move(dir)) {
  try {
    profiles_ = loadProfiles(dir_);
    for (const auto& f : profileFiles(dir_, "workload profile")) {
      config::Node root = config::parseYamlFile(f);
      if (root.isMap() && root.find("composite")) composites_.push_back(CompositeSpec::load(f));
      if (root.isMap() && root.find("concurrent"))
        for (auto& c : ConcurrentSpec::load(f)) concurrent_.push_back(std::move(c));
    }
    // Every work item of a concurrent workload names a profile.
    for (const auto& c : concurrent_)
      for (const auto& part : c.parts) {
        bool found = false;
        for (const auto& p : profiles_) found = found || p.info.name == part.first;
        if (!found)
          throw InputError(c.file, 0, "concurrent.workloads." + c.benchmark + "." + part.first,
                           "no workload profile named '" + part.first + "'");
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
  // A row spec naming the row's guide wins over a generic one (the guide's own build).
  for (const bool named : {true, false})
    for (const auto& p : profiles_)
      for (const auto& r : p.rows)
        if (r.family == q.family && r.benchmark == q.benchmark &&
            (r.metric.empty() || r.metric == q.metric) && r.params == q.params &&
            r.sources.empty() != named && r.appliesTo(q.source)) {
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
  for (const auto& c : concurrent_)
    if (c.family == q.family && c.benchmark == q.benchmark &&
        (c.metric.empty() || c.metric == q.metric) && q.params.empty()) {
      m.concurrent = &c;
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
  return m.profile || m.composite || m.concurrent;
}

std::string CpuBenchmarks::boardKey(RunContext& ctx) const {
  const auto& b = ctx.board();
  std::string key = b.file + "|";
  for (const auto& o : b.overrides) key += o + ";";
  return key;
}

const ProfileRun& CpuBenchmarks::run(RunContext& ctx, const ConcurrentSpec& c) {
  // Workloads with the same items (idct-4m and idct-4mw1) share one run.
  std::string key = boardKey(ctx) + (c.sequential ? "|sequential" : "|concurrent");
  for (const auto& [name, workers] : c.parts) key += "|" + name + "*" + std::to_string(workers);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  if (c.sequential && c.parts.size() > 1) {
    // One context: an iteration is each item in turn, so the items' times add up. The
    // breakdown and IPC are the longest item's.
    ProfileRun r;
    double seconds = 0, longest = 0;
    for (const auto& part : c.parts) {
      ConcurrentSpec one = c;
      one.parts = {part};
      const ProfileRun& pr = run(ctx, one);
      if (!(pr.unitsPerSecond > 0)) throw NotModelled{"work item '" + part.first + "' predicted no rate"};
      const double s = 1.0 / pr.unitsPerSecond;
      seconds += s;
      r.timeShareSeconds += pr.timeShareSeconds;
      if (s > longest) {
        longest = s;
        r.clockMhz = pr.clockMhz;
        r.reportedClockMhz = pr.reportedClockMhz;
        r.cores = std::max(r.cores, pr.cores);
        r.stats = pr.stats;
      }
    }
    r.cyclesPerUnit = seconds * r.clockMhz * 1e6;
    r.maxCyclesPerUnit = r.cyclesPerUnit;
    r.unitsPerSecond = 1.0 / seconds;
    return cache_.emplace(key, r).first->second;
  }
  auto threads = threadsOf(c, profiles_, ctx.board().mainCluster().core.isa);
  return cache_.emplace(key, runConcurrent(ctx, threads)).first->second;
}

namespace {

// Profile runs shared between the forked workers of `socsim calibrate` (the folder of
// workloads/os/code_run_store.h; off in a plain validate). A run whose units are too long to be
// timed one by one depends on the path length only through units = instructions / path length,
// so the key leaves the path length out and a stored run is rescaled to the trial's: a fit of
// path lengths then simulates each board once instead of once per evaluation.
bool pathLengthScales(double ipu) { return !timedPerUnit(ipu); }

std::string sharedRunKey(const soc::BoardConfig& b, const WorkloadProfile& p, int cores) {
  WorkloadProfile q = p;
  q.info.instructions_per_unit = 1;
  q.info.aarch32_path_factor = 1;
  q.info.armv5_path_factor = 1;
  return "profile-run|cores=" + std::to_string(cores) + "|" + wl::os::profileFingerprint(q) +
         "|" + wl::os::hardwareFingerprint(b);
}

void writeVec(std::ostream& out, const std::vector<std::uint64_t>& v) {
  out << v.size();
  for (auto x : v) out << " " << x;
  out << "\n";
}

std::optional<ProfileRun> loadSharedRun(const std::string& key, double ipu) {
  std::ifstream in(wl::os::storeEntryFile(key, ".prun"), std::ios::binary);
  if (!in || !wl::os::readEntryKey(in, key)) return std::nullopt;
  ProfileRun r;
  double storedIpu = 0;
  auto& st = r.stats;
  size_t n = 0;
  if (!(in >> storedIpu >> r.clockMhz >> r.reportedClockMhz >> r.cores >> r.cyclesPerUnit >>
        r.maxCyclesPerUnit >> r.unitsPerSecond >> r.timeShareSeconds >> st.instructions >>
        st.cycles >> st.branches >> st.mispredicts >> st.takenBranches >> st.loads >> st.stores >>
        st.fetchLines >> st.fetchMisses >> n))
    return std::nullopt;
  st.loadsByLevel.resize(n);
  for (auto& x : st.loadsByLevel)
    if (!(in >> x)) return std::nullopt;
  if (!(in >> n)) return std::nullopt;
  for (size_t i = 0; i < n; ++i) {
    double c = 0;
    std::string name;
    if (!(in >> c) || in.get() != ' ' || !std::getline(in, name)) return std::nullopt;
    st.partCycles.push_back(c);
    st.partNames.push_back(name);
  }
  if (!(storedIpu > 0)) return std::nullopt;
  const double k = ipu / storedIpu;
  r.unitsPerSecond /= k;
  r.cyclesPerUnit *= k;
  r.maxCyclesPerUnit *= k;
  return r;
}

void saveSharedRun(const std::string& key, double ipu, const ProfileRun& r) {
  std::ostringstream out;
  const auto& st = r.stats;
  out << formatNumber(ipu) << " " << formatNumber(r.clockMhz) << " "
      << formatNumber(r.reportedClockMhz) << " " << r.cores << " " << formatNumber(r.cyclesPerUnit)
      << " " << formatNumber(r.maxCyclesPerUnit) << " " << formatNumber(r.unitsPerSecond) << " "
      << formatNumber(r.timeShareSeconds) << " " << st.instructions << " " << st.cycles << " "
      << st.branches << " " << st.mispredicts << " " << st.takenBranches << " " << st.loads << " "
      << st.stores << " " << st.fetchLines << " " << st.fetchMisses << " ";
  writeVec(out, st.loadsByLevel);
  out << st.partCycles.size() << "\n";
  for (size_t i = 0; i < st.partCycles.size(); ++i)
    out << formatNumber(st.partCycles[i]) << " "
        << (i < st.partNames.size() ? st.partNames[i] : std::string("?")) << "\n";
  wl::os::writeEntry(key, ".prun", out.str());
}

}  // namespace

const ProfileRun& CpuBenchmarks::run(RunContext& ctx, const WorkloadProfile& p, int cores) {
  std::string key = boardKey(ctx) + "|" + p.file + "|" + std::to_string(cores);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  const double ipu = p.instructionsPerUnit(ctx.board().mainCluster().core.isa);
  if (wl::os::codeRunStoreDir().empty() || !pathLengthScales(ipu))
    return cache_.emplace(key, runProfile(ctx, p, cores)).first->second;
  const std::string shared = sharedRunKey(ctx.board(), p, cores);
  if (auto stored = loadSharedRun(shared, ipu)) return cache_.emplace(key, *stored).first->second;
  ProfileRun r = runProfile(ctx, p, cores);
  saveSharedRun(shared, ipu, r);
  return cache_.emplace(key, r).first->second;
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
  if (m.concurrent) {
    const ConcurrentSpec& c = *m.concurrent;
    if (c.unit != q.unit)
      throw NotModelled{"unit '" + q.unit + "' (the workload predicts " + c.unit + ")"};
    const ProfileRun& run = this->run(ctx, c);
    out.value = run.unitsPerSecond;
    // Breakdown of one iteration: the critical thread's parts, plus the time the threads wait
    // for a core when there are more threads than cores.
    const double cyclesTotal = static_cast<double>(run.stats.cycles);
    const double busy = 1.0 / run.unitsPerSecond - run.timeShareSeconds;
    if (cyclesTotal > 0 && run.unitsPerSecond > 0)
      for (size_t i = 0; i < run.stats.partNames.size(); ++i)
        if (run.stats.partCycles[i] > 0)
          out.breakdown.add(run.stats.partNames[i], busy * run.stats.partCycles[i] / cyclesTotal);
    if (run.timeShareSeconds > 0) out.breakdown.add("os.time_sharing", run.timeShareSeconds);
    std::string items;
    for (const auto& [name, workers] : c.parts)
      items += (items.empty() ? "" : " + ") + name + (workers > 1 ? " x" + std::to_string(workers)
                                                                   : std::string());
    out.note = std::string(c.sequential && c.parts.size() > 1 ? "items in turn (breakdown of the "
                                                                 "longest) "
                                                               : "concurrent items ") +
               items + " on " + std::to_string(run.cores) +
               " core(s); critical thread IPC " + formatNumber(run.stats.ipc());
    return out;
  }
  if (!m.profile) throw NotModelled{"no CPU workload profile for this row"};
  const RowSpec& r = *m.row;
  if (r.unit != q.unit)
    throw NotModelled{"unit '" + q.unit + "' (the profile predicts " + r.unit + ")"};
  if (r.value == "rounding_error") {
    out.value = roundingError(*m.profile, r, ctx.board().mainCluster().core.isa);
    out.note = "profile " + m.profile->info.name +
               ": expected largest rounding error of one unit's floating-point operations";
    return out;
  }
  const ProfileRun& run = this->run(ctx, *m.profile, std::max(r.cores, coresOf(q.params)));
  if ((r.value == "clock_mhz" || r.value == "units_per_second_per_mhz") &&
      !(run.reportedClockMhz > 0))
    scriptCpuClockMhz(ctx.board());  // throws NotModelled with the reason
  out.value = rowValue(r, run);
  // With cpufreq the script prints the configured clock back; ARMv5's BogoMIPS is modelled.
  if (r.value == "clock_mhz" && ctx.board().software.cpufreq)
    out.configEcho = "the configured core clock (cpufreq)";
  // Breakdown of one work unit's time on the first core.
  const double cyclesTotal = static_cast<double>(run.stats.cycles);
  double unitSeconds = run.clockMhz > 0 ? run.cyclesPerUnit / (run.clockMhz * 1e6) : 0;
  // A benchmark that times whole ticks reports a slightly different rate: the parts are scaled
  // to the time per unit it reports.
  if (r.rate_quantum > 0 && run.unitsPerSecond > 0 && run.cores == 1)
    unitSeconds =
        std::max(1.0, std::round(r.rate_quantum / run.unitsPerSecond)) / r.rate_quantum;
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
