#include "workloads/os/os_machine.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "models/cpu/core_memory.h"
#include "models/cpu/core_model.h"
#include "soc/config/board_config.h"
#include "workloads/os/code_run_store.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"

namespace socsim::wl::os {

namespace {

/// Kernel data lives apart from the benchmarks' buffers (addresses are only names here).
constexpr std::uint64_t kKernelData = 0xC0000000ull;
constexpr std::uint64_t kStreamBase = 0x100000000ull;
/// Kernel objects a waker writes and the woken task reads (pipe, wait queue, run queue).
constexpr std::uint64_t kSharedLines = 0xD0000000ull;

std::uint64_t pow2AtLeast(double v, std::uint64_t floor) {
  std::uint64_t p = floor;
  while (static_cast<double>(p) < v && p < (1ull << 40)) p <<= 1;
  return p;
}

/// Run `n` instructions of `gen`, one SystemC quantum at a time.
void runSynced(models::CoreModel& core, cpu::StreamGenerator& gen, std::uint64_t n,
               cpu::PlatformPort& port) {
  const std::uint64_t q = port.quantumCycles();
  for (std::uint64_t done = 0; done < n;) {
    std::uint64_t k = core.run(gen, n - done, core.now() + q);
    if (k == 0) break;
    done += k;
    port.sync(core.now());
  }
}

struct Accum {
  double instructions = 0, cycles = 0, fetchMisses = 0, dataMisses = 0;
  std::vector<std::string> names;
  std::vector<double> parts;
  void add(const models::CoreRunStats& s) {
    instructions += static_cast<double>(s.instructions);
    cycles += static_cast<double>(s.cycles);
    fetchMisses += static_cast<double>(s.fetchMisses);
    for (std::size_t i = 1; i < s.loadsByLevel.size(); ++i)
      dataMisses += static_cast<double>(s.loadsByLevel[i]);
    if (names.empty()) {
      names = s.partNames;
      parts.assign(s.partCycles.size(), 0.0);
    }
    for (std::size_t i = 0; i < parts.size() && i < s.partCycles.size(); ++i)
      parts[i] += s.partCycles[i];
  }
  /// CPI, misses per 1000 instructions and cycle shares of what was added.
  CodeRun run() const {
    CodeRun r;
    if (instructions > 0) {
      r.cpi = cycles / instructions;
      r.l1iPerKi = 1000.0 * fetchMisses / instructions;
      r.l1dPerKi = 1000.0 * dataMisses / instructions;
    }
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (parts[i] > 0 && cycles > 0) r.shares.emplace_back(names[i], parts[i] / cycles);
    return r;
  }
};

}  // namespace

// ------------------------------------------------------------------------------------------

void Timed::add(const std::string& part, double s) {
  if (s == 0) return;
  seconds += s;
  for (auto& [n, v] : parts)
    if (n == part) {
      v += s;
      return;
    }
  parts.emplace_back(part, s);
}

void Timed::add(const Timed& t, double scale) {
  for (const auto& [n, v] : t.parts) add(n, v * scale);
  // Time not broken down (none today) still counts.
  double rest = t.seconds;
  for (const auto& p : t.parts) rest -= p.second;
  if (std::fabs(rest) > 1e-18) add("other", rest * scale);
}

void Timed::subtract(const Timed& t) {
  seconds -= t.seconds;
  for (const auto& [n, v] : t.parts) {
    bool found = false;
    for (auto& [m, w] : parts)
      if (m == n) {
        w -= v;
        found = true;
      }
    if (!found) parts.emplace_back(n, -v);
  }
  // A part that shrank (the baseline spent more time there, e.g. its data hit a nearer cache
  // level) offsets the parts that grew: the net `seconds` is shared among the grown parts in
  // proportion to their growth, so the parts sum to `seconds` and none is negative. (Dropping
  // the shrunk parts alone left the grown ones summing to more than `seconds`, which a later
  // add() showed as a negative "other".)
  double grown = 0;
  for (const auto& p : parts)
    if (p.second > 0) grown += p.second;
  parts.erase(
      std::remove_if(parts.begin(), parts.end(), [](const auto& p) { return p.second <= 0; }),
      parts.end());
  if (seconds <= 0) {
    parts.clear();
    return;
  }
  if (grown > 0)
    for (auto& p : parts) p.second *= seconds / grown;
}

// ------------------------------------------------------------------------------------------

OsMachine::OsMachine(RunContext& ctx, const KernelPathParams& kp,
                     const cpu::WorkloadProfile& kernel, CodeRunCache& cache)
    : ctx_(ctx), kp_(kp), kernel_(kernel), warm_(cache) {
  const soc::BoardConfig& b = ctx.board();
  boardKey_ = b.file + "|";
  for (const auto& o : b.overrides) boardKey_ += o + ";";
  const soc::ClusterConfig& main = b.mainCluster();
  if (!main.core.mmu)
    throw NotModelled{"core " + main.core.type + " has no MMU: Linux does not run on it"};
  if (!main.l1i || !main.l1d)
    throw NotModelled{"core " + main.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config"};
  // Flat indices as the platform numbers them (clusters without a data cache take none): the
  // main cluster's cores, then later clusters of the same type and role (Linux CPU order).
  int base = 0;
  bool seen = false;
  for (const auto& c : b.clusters) {
    if (!c.l1d) continue;
    bool use =
        &c == &main || (seen && c.info.role == main.info.role && c.core.type == main.core.type);
    if (&c == &main) seen = true;
    for (int i = 0; use && i < c.info.cores; ++i) cores_.push_back(base + i);
    base += c.info.cores;
  }
  if (cores_.empty()) throw NotModelled{"board " + b.board.name + " has no application core"};
}

const soc::BoardConfig& OsMachine::board() const {
  return ctx_.board();
}
const soc::ClusterConfig& OsMachine::cluster() const {
  return ctx_.board().mainCluster();
}
double OsMachine::clockHz() const {
  return cluster().core.clock_mhz * 1e6;
}

bool OsMachine::vivtCaches() const {
  return cluster().core.isa.rfind("armv5", 0) == 0;
}

bool OsMachine::switchMmFlushesIcache() const {
  return kp_.spectre_v2_switch_mm_hardening && cluster().core.switch_mm_invalidates_icache;
}

Timed OsMachine::switchMmRefill(const CodeWork& w) {
  Timed t;
  if (!switchMmFlushesIcache() || w.instructions <= 0) return t;
  const Counters saved = counters;
  auto part = [](const Timed& x, const char* suffix) {
    const std::string sfx = suffix;
    double s = 0;
    for (const auto& [n, v] : x.parts)
      if (n.size() >= sfx.size() && n.compare(n.size() - sfx.size(), sfx.size(), sfx) == 0) s += v;
    return s;
  };
  // A cold run starts with empty L1s and a cold branch predictor (ICIALLU invalidates the A15's
  // branch predictor too: that is why Linux uses it); the data side stays warm, so the cold
  // run's extra L1D time is not counted.
  // The refill is one pass over the code footprint: measured once per board and footprint on
  // a run of one pass (cached like the warm CPI; `cpi` holds its seconds), then scaled down for
  // a path shorter than one pass.
  const double instr = kernelInstructions(w, false);
  const double onePass =
      static_cast<double>(profileFor(w).code.footprint_bytes) / kp_.code_bytes_per_instruction;
  CodeWork pass = times(w, onePass / instr);
  const cpu::WorkloadProfile p = profileFor(pass);
  const std::string key = "switch_mm|" + boardKey_ + "|" + std::to_string(p.code.footprint_bytes) +
                          "|" + std::to_string(p.data.hot_bytes);
  auto it = warm_.find(key);
  if (it == warm_.end()) {
    const Timed cold = coldCode(pass, 0, 0), warm = code(pass);
    CodeRun r;
    r.cpi = std::max(0.0, (cold.seconds - warm.seconds) -
                              std::max(0.0, part(cold, ".l1d") - part(warm, ".l1d")));
    it = warm_.emplace(key, r).first;
  }
  const double extra = it->second.cpi * std::min(1.0, instr / onePass);
  counters = saved;
  counters.cycles += extra * cluster().core.clock_mhz * 1e6;
  t.add("switch_mm.icache_refill", extra);
  return t;
}

int OsMachine::pageWalkLevels() const {
  return cluster().core.isa == "armv8-a" ? 4 : 2;
}

double OsMachine::pathFactor(bool user) const {
  const std::string& isa = cluster().core.isa;
  double f = isa == "armv8-a"             ? 1.0
             : isa.rfind("armv5", 0) == 0 ? kp_.armv5_path_factor
                                          : kp_.aarch32_path_factor;
  if (user) return f;
  return f * kp_.stack_path_factor *
         (1.0 + kp_.locks_per_kilo_instruction * kp_.lock_instructions / 1000.0);
}

double OsMachine::kernelInstructions(const CodeWork& w, bool user) const {
  if (user) return w.instructions * pathFactor(true);
  // Kernel entry and exit (the trap path of each entry) take no lock: only the bodies pay the
  // lock factor (on PREEMPT_RT, spinlock_t is a sleeping lock; the entry code is unchanged).
  const double entry = std::min(w.instructions, w.traps * kp_.trap_instructions);
  const double lockFactor = 1.0 + kp_.locks_per_kilo_instruction * kp_.lock_instructions / 1000.0;
  return pathFactor() * ((w.instructions - entry) + entry / lockFactor);
}

cpu::WorkloadProfile OsMachine::profileFor(const CodeWork& w) const {
  cpu::WorkloadProfile p = kernel_;
  // A long path's distinct code saturates (path_code_bytes_max): it repeats its helpers.
  p.code.footprint_bytes = pow2AtLeast(
      std::min(w.staticInstructions * kp_.code_bytes_per_instruction, kp_.path_code_bytes_max),
      2048);
  p.data.hot_bytes = pow2AtLeast(
      std::min(w.instructions * kp_.data_bytes_per_instruction, kp_.path_data_bytes_max), 1024);
  return p;
}

const CodeRun& OsMachine::memoRun(const std::string& key, const cpu::WorkloadProfile& p,
                                  const std::string& extra,
                                  const std::function<CodeRun()>& simulate) {
  auto it = warm_.find(key);
  if (it != warm_.end()) return it->second;
  // Shared between processes (socsim calibrate): keyed by what the run depends on.
  std::string storeKey;
  if (!codeRunStoreDir().empty()) {
    storeKey = hardwareFingerprint(ctx_.board()) + "\n" + profileFingerprint(p) + extra;
    if (auto stored = loadCodeRun(storeKey)) return warm_.emplace(key, std::move(*stored)).first->second;
  }
  CodeRun r = simulate();
  if (!storeKey.empty()) saveCodeRun(storeKey, r);
  return warm_.emplace(key, std::move(r)).first->second;
}

std::string OsMachine::runKey(const cpu::WorkloadProfile& p) const {
  return boardKey_ + "|" + std::to_string(p.code.footprint_bytes) + "|" +
         std::to_string(p.data.hot_bytes);
}

const CodeRun& OsMachine::warmRun(const cpu::WorkloadProfile& p) {
  return memoRun(runKey(p), p, "", [&] { return simulateWarmRun(p); });
}

double OsMachine::runPath(const cpu::WorkloadProfile& p, int variant, std::uint64_t n,
                          const std::function<void(models::CoreMemory&)>& after) {
  const soc::ClusterConfig& c = cluster();
  double cycles = 0;
  ctx_.platform().run(benchCore(), [&](models::CoreMemory& cm) {
    cpu::PlatformPort port(cm);
    models::CoreModel core(c.core, c.timing, port);
    cpu::StreamGenerator gen(p, 0, kKernelData, variant);
    runSynced(core, gen, n, port);
    cycles = static_cast<double>(core.stats().cycles);
    port.sync(core.now());
    if (after) after(cm);
  });
  return cycles;
}

CodeRun OsMachine::simulateWarmRun(const cpu::WorkloadProfile& p) {
  const soc::ClusterConfig& c = cluster();
  soc::Platform& plat = ctx_.platform();
  plat.flushCaches();
  plat.resetStats();
  // Warm-up: three passes over the code footprint; then two passes measured.
  const double perPass = static_cast<double>(p.code.footprint_bytes) / 4.0;
  const auto warm = static_cast<std::uint64_t>(std::max(20000.0, 3 * perPass));
  const auto meas = static_cast<std::uint64_t>(std::max(40000.0, 2 * perPass));
  Accum acc;
  plat.run(benchCore(), [&](models::CoreMemory& cm) {
    cpu::PlatformPort port(cm);
    models::CoreModel core(c.core, c.timing, port);
    // A profile is a distribution: average `variants` statistically equivalent programs
    // (workloads/cpu/README.md); one program alone can be off by a factor of two.
    for (int v = 0; v < std::max(1, p.info.variants); ++v) {
      cpu::StreamGenerator gen(p, 0, kKernelData, v);
      runSynced(core, gen, warm, port);
      core.resetStats();
      runSynced(core, gen, meas, port);
      acc.add(core.stats());
    }
    port.sync(core.now());
  });
  return acc.run();
}

Timed OsMachine::fromRun(const CodeRun& r, double instructions, double traps,
                         const std::string& prefix) {
  Timed t;
  const double cycles = instructions * r.cpi;
  for (const auto& [n, share] : r.shares) t.add(prefix + "." + n, seconds(cycles * share));
  const double refill = traps * kp_.trap_pipeline_refills * cluster().core.pipeline_depth_stages;
  t.add(prefix + ".trap_refill", seconds(refill));
  // Spectre-BHB loop on each entry from user space (a taken branch, a subtract and a
  // conditional branch per iteration at the path's CPI, then the barrier).
  const int bhbLoop = kp_.spectre_bhb_mitigation ? cluster().core.bhb_loop_iterations : 0;
  const double bhb =
      bhbLoop > 0 && prefix != "user" ? traps * (3.0 * bhbLoop * r.cpi + kp_.bhb_barrier_cycles) : 0;
  t.add(prefix + ".bhb_mitigation", seconds(bhb));
  counters.kernelInstructions += instructions;
  counters.cycles += cycles + refill + bhb;
  return t;
}

Timed OsMachine::code(const CodeWork& w, bool user) {
  if (w.instructions <= 0 && w.traps <= 0) return {};
  const double instr = kernelInstructions(w, user);
  const CodeRun& r = warmRun(profileFor(w));
  counters.l1iMissesPerKi = r.l1iPerKi;
  counters.l1dMissesPerKi = r.l1dPerKi;
  return fromRun(r, instr, w.traps, user ? "user" : "kernel");
}

Timed OsMachine::codeAfterData(const CodeWork& w, std::uint64_t dataBytes) {
  Timed t = code(w);
  if (dataBytes == 0) return t;
  const double instr = kernelInstructions(w, false);
  if (instr <= 0) return t;
  const cpu::WorkloadProfile p = profileFor(w);
  const auto n = static_cast<std::uint64_t>(std::llround(instr));
  // The runs read the hardware and the profile, as a warm run does, and the path's length and
  // the bytes read: memoised and shared by those (`cpi` holds the extra cycles).
  const std::string what = "after_data|" + std::to_string(n) + "|" + std::to_string(dataBytes);
  const std::string key = what + "|" + runKey(p);
  const double extra = memoRun(key, p, "\n" + what, [&] {
                         CodeRun r;
                         r.cpi = simulateRefillAfterData(p, n, dataBytes);
                         return r;
                       }).cpi;
  t.add("kernel.refill_after_data", seconds(extra));
  counters.cycles += extra;
  return t;
}

double OsMachine::simulateRefillAfterData(const cpu::WorkloadProfile& p, std::uint64_t n,
                                          std::uint64_t dataBytes) {
  // Cycles of one run of the path on a fresh core model after a warm-up run, with or without
  // the benchmark's read of `dataBytes` in between. Both runs start with the same untrained
  // core state (a fresh model), so their difference is the refill of what the read evicted.
  auto runAfter = [&](int v, std::uint64_t bytes) {
    ctx_.platform().flushCaches();
    runPath(p, v, n, [bytes](models::CoreMemory& cm) {
      if (bytes > 0) cm.readStream(kStreamBase, bytes);
      cm.fence();
    });
    return runPath(p, v, n);
  };
  double extra = 0;
  const int variants = std::max(1, p.info.variants);  // a profile is a distribution (warmRun)
  for (int v = 0; v < variants; ++v) extra += (runAfter(v, dataBytes) - runAfter(v, 0)) / variants;
  return std::max(0.0, extra);
}

Timed OsMachine::coldCode(const CodeWork& w, int streams, std::uint64_t streamBytes) {
  const double instr = kernelInstructions(w, false);
  if (instr <= 0) return {};
  const soc::ClusterConfig& c = cluster();
  cpu::WorkloadProfile p = profileFor(w);
  soc::Platform& plat = ctx_.platform();
  streams = std::clamp(streams, 0, static_cast<int>(cores_.size()) - 1);
  Accum acc;
  // One cold run per program of the profile (a profile is a distribution, as in warmRun).
  for (int v = 0; v < std::max(1, p.info.variants); ++v) {
    plat.flushCaches();
    if (streams == 0) {
      // No load on the other cores: nothing evicts the path from the shared levels between two
      // wake-ups; only the core's own L1s are cold (other work ran on the core in between).
      runPath(p, v, static_cast<std::uint64_t>(std::llround(instr)));
      plat.core(benchCore()).resetState();
    }
    plat.resetStats();
    bool done = false;
    std::vector<std::pair<int, soc::Platform::Job>> jobs;
    // The measured path starts once the background streams are running (a short delay).
    const std::uint64_t delayCycles = streams > 0 ? 20000 : 0;
    jobs.emplace_back(benchCore(), [&](models::CoreMemory& cm) {
      if (delayCycles) cm.compute(delayCycles);
      cpu::PlatformPort port(cm);
      models::CoreModel core(c.core, c.timing, port);
      cpu::StreamGenerator gen(p, 0, kKernelData, v);
      core.resetStats();
      runSynced(core, gen, static_cast<std::uint64_t>(std::llround(instr)), port);
      acc.add(core.stats());
      port.sync(core.now());
      done = true;
    });
    // Background streams: the isolated core is the benchmark core; loads run on the others.
    for (int k = 0; k < streams; ++k) {
      const int coreIdx = cores_[cores_.size() - 1 - static_cast<std::size_t>(k)];
      const std::uint64_t src = kStreamBase + static_cast<std::uint64_t>(k) * 2 * streamBytes * 2;
      const std::uint64_t dst = src + streamBytes + 4096;
      jobs.emplace_back(coreIdx, [&done, src, dst, streamBytes](models::CoreMemory& cm) {
        constexpr std::uint64_t kChunk = 4096;
        std::uint64_t off = 0;
        while (!done) {
          cm.memcpy(dst + off, src + off, kChunk);
          off = (off + kChunk) % std::max<std::uint64_t>(kChunk, streamBytes);
        }
      });
    }
    plat.run(jobs);
  }
  CodeRun r = acc.run();
  counters.l1iMissesPerKi = r.l1iPerKi;
  counters.l1dMissesPerKi = r.l1dPerKi;
  return fromRun(r, instr, w.traps, "kernel");
}

int OsMachine::clusterCores() const {
  return std::max(1, cluster().info.cores);
}

double OsMachine::crossCoreShare(int tasks) const {
  const int c = clusterCores();
  if (c < 2 || tasks < 2) return 0;
  return std::min(1.0, static_cast<double>(c - 1) / static_cast<double>(tasks - 1));
}

Timed OsMachine::crossCoreWakeup() {
  Timed t;
  t.add("ipi.delivery", kp_.ipi_delivery_ns * 1e-9);
  if (kp_.ipi_instructions > 0) {
    const CodeWork w = path(kp_.ipi_instructions, 1, 1);
    t.add(fromRun(warmRun(profileFor(w)), kernelInstructions(w), w.traps, "ipi"));
  }
  const auto lines = static_cast<std::uint64_t>(std::llround(kp_.wakeup_shared_lines));
  if (lines > 0) {
    const auto line = static_cast<std::uint64_t>(cluster().l1d->line_bytes);
    // Lines the waker wrote: present in the cluster's shared level, not in this core's L1.
    // Spread over pages as kernel objects are (one line per 448 bytes).
    auto touch = [lines, line](models::CoreMemory& c) {
      for (std::uint64_t i = 0; i < lines; ++i) c.chase(kSharedLines + i * 7 * line);
    };
    soc::Platform& plat = ctx_.platform();
    plat.flushCaches();
    plat.run(benchCore(), touch);
    plat.core(benchCore()).resetState();
    plat.resetStats();
    soc::RunResult rr = plat.run(benchCore(), touch);
    double rest = rr.seconds;
    for (const auto& [n, sec] : rr.breakdown.items()) {
      t.add("ipi.lines." + n, sec);
      rest -= sec;
    }
    if (rest > 1e-15) t.add("ipi.lines.other", rest);
    counters.copyBytes += static_cast<double>(lines * line);
  }
  return t;
}

Timed OsMachine::job(const soc::Platform::Job& j, const std::string& prefix, bool flush) {
  soc::Platform& plat = ctx_.platform();
  if (flush) plat.flushCaches();
  plat.resetStats();
  soc::RunResult rr = plat.run(benchCore(), j);
  Timed t;
  for (const auto& [n, s] : rr.breakdown.items()) t.add(prefix + "." + n, s);
  double rest = rr.seconds;
  for (const auto& p : t.parts) rest -= p.second;
  if (rest > 1e-15) t.add(prefix + ".other", rest);
  return t;
}

}  // namespace socsim::wl::os
