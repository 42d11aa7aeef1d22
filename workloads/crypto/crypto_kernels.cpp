#include "workloads/crypto/crypto_kernels.h"

#include <algorithm>

#include "common/error.h"
#include "soc/config/board_config.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"
#include "soc/platform.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"

namespace socsim::wl::crypto {

namespace {
constexpr const char* kKernel =
    "calibrated: kernel-scoped, initial value from the implementation's source and its "
    "published characterization";
constexpr const char* kCore =
    "calibrated: core-type scoped, initial value from the core's "
    "optimization guide / TRM";
}  // namespace

const params::Schema<CryptoMix>& CryptoMix::schema() {
  using P = CryptoMix;
  static const auto s =
      params::Schema<P>("crypto_mix")
          .real("int_alu", &P::int_alu, "fraction", 0, 1,
                "32-bit integer ALU (incl. shifted operand)", kKernel)
          .real("int_mul", &P::int_mul, "fraction", 0, 1, "32-bit multiply", kKernel)
          .real("int64_alu", &P::int64_alu, "fraction", 0, 1, "64-bit integer ALU", kKernel)
          .real("int64_mul", &P::int64_mul, "fraction", 0, 1, "64-bit multiply", kKernel)
          .real("load", &P::load, "fraction", 0, 1, "loads (incl. table lookups, NEON loads)",
                kKernel)
          .real("store", &P::store, "fraction", 0, 1, "stores", kKernel)
          .real("load_multi", &P::load_multi, "fraction", 0, 1,
                "LDM / LDP / VLD1 of several registers", kKernel)
          .real("store_multi", &P::store_multi, "fraction", 0, 1,
                "STM / STP / VST1 of several registers", kKernel)
          .real("branch", &P::branch, "fraction", 0, 1, "branches", kKernel)
          .real("simd", &P::simd, "fraction", 0, 1, "NEON integer, logic, shift, permute", kKernel)
          .real("aes_round", &P::aes_round, "fraction", 0, 1,
                "AESE+AESMC / AESD+AESIMC round pairs", kKernel)
          .real("sha_round", &P::sha_round, "fraction", 0, 1, "SHA1C/P/M, SHA256H/H2", kKernel)
          .real("sha_schedule", &P::sha_schedule, "fraction", 0, 1,
                "SHA1SU0/SU1, SHA1H, SHA256SU0/SU1", kKernel)
          .real("simd_move", &P::simd_move, "fraction", 0, 1, "core <-> NEON register transfers",
                kKernel);
  return s;
}

const params::Schema<KernelInfo>& KernelInfo::schema() {
  using P = KernelInfo;
  static const auto s =
      params::Schema<P>("crypto_kernel")
          .text("name", &P::name, "kernel name", "the implementation's source")
          .required()
          .text("description", &P::description, "what the kernel is", "the implementation's source")
          .text("characterization", &P::characterization,
                "published cycles/byte or instruction counts the profile follows", "literature")
          .real("instructions_per_block", &P::instructions_per_block, "instructions", 0, 1e9,
                "dynamic instructions per unit (block or call) besides the rounds", kKernel)
          .real("instructions_per_round", &P::instructions_per_round, "instructions", 0, 1e6,
                "dynamic instructions per round of the algorithm", kKernel)
          .choice("requires", &P::requires_feature,
                  {"any", "neon", "armv8-crypto", "aarch32", "aarch64"},
                  "what the core must offer for the kernel to be used",
                  "the implementation's source")
          .real("aarch32_path_factor", &P::aarch32_path_factor, "ratio", 0.5, 3,
                "path length on AArch32 cores relative to the given one (portable C kernels)",
                "calibrated: AArch32 compiled C executes more instructions (fewer registers, "
                "64-bit values in register pairs)")
          .integer("seed", &P::seed, "count", 0, 2147483647, "generator seed",
                   "socsim determinism rule")
          .integer("variants", &P::variants, "count", 1, 64, "programs averaged",
                   "simulation setting")
          .integer("warmup_instructions", &P::warmup_instructions, "instructions", 0, 1 << 30,
                   "instructions before measuring", "simulation setting")
          .integer("measure_instructions", &P::measure_instructions, "instructions", 1000, 1 << 30,
                   "instructions measured", "simulation setting");
  return s;
}

const params::Schema<CoreCryptoTiming>& CoreCryptoTiming::schema() {
  using P = CoreCryptoTiming;
  static const auto s =
      params::Schema<P>("core_crypto_timing")
          .text("core_type", &P::core_type, "core type (as configs/components/cores type)",
                "Arm Technical Reference Manual")
          .required()
          .flag(
              "crypto_extensions", &P::crypto_extensions,
              "the ARMv8 Cryptography Extension (AES, SHA-1, SHA-256 instructions) is implemented",
              "SoC datasheet / TRM")
          .integer("simd_latency_cycles", &P::simd_latency_cycles, "cycles", 1, 64,
                   "NEON integer/logic result latency", kCore)
          .integer("simd_interval_cycles", &P::simd_interval_cycles, "cycles", 1, 64,
                   "cycles a NEON pipe is busy per NEON integer instruction", kCore)
          .integer("aes_round_latency_cycles", &P::aes_round_latency_cycles, "cycles", 1, 64,
                   "latency of an AESE+AESMC pair (fused where the core fuses them)", kCore)
          .integer("aes_round_interval_cycles", &P::aes_round_interval_cycles, "cycles", 1, 64,
                   "cycles a pipe is busy per AES round pair", kCore)
          .integer("sha_round_latency_cycles", &P::sha_round_latency_cycles, "cycles", 1, 64,
                   "latency of SHA1C/P/M, SHA256H/H2", kCore)
          .integer("sha_round_interval_cycles", &P::sha_round_interval_cycles, "cycles", 1, 64,
                   "cycles a pipe is busy per hash-update instruction", kCore)
          .integer("sha_schedule_latency_cycles", &P::sha_schedule_latency_cycles, "cycles", 1, 64,
                   "latency of the message-schedule instructions", kCore)
          .integer("sha_schedule_interval_cycles", &P::sha_schedule_interval_cycles, "cycles", 1,
                   64, "cycles a pipe is busy per message-schedule instruction", kCore)
          .integer("simd_move_latency_cycles", &P::simd_move_latency_cycles, "cycles", 1, 64,
                   "core <-> NEON register transfer latency", kCore);
  return s;
}

models::CoreTimingParams CoreCryptoTiming::apply(const models::CoreTimingParams& base) const {
  models::CoreTimingParams t = base;
  t.fp_add_latency_cycles = simd_latency_cycles;
  t.fp_add_interval_cycles = simd_interval_cycles;
  t.fp_mul_latency_cycles = aes_round_latency_cycles;
  t.fp_mul_interval_cycles = aes_round_interval_cycles;
  t.fp_mac_latency_cycles = sha_round_latency_cycles;
  t.fp_mac_interval_cycles = sha_round_interval_cycles;
  t.dp_add_latency_cycles = sha_schedule_latency_cycles;
  t.dp_add_interval_cycles = sha_schedule_interval_cycles;
  t.fp_move_latency_cycles = simd_move_latency_cycles;
  // A core whose FP classes run as library routines (no FPU) still has no SIMD: the kernels
  // that need SIMD are not chosen there (kernelRunsOn), so clear the routine flags.
  t.software_classes.clear();
  return t;
}

double Kernel::instructionsPerUnit(int rounds, const std::string& isa) const {
  const double f = isa == "armv8-a" ? 1.0 : info.aarch32_path_factor;
  return std::max(1.0, (info.instructions_per_block + rounds * info.instructions_per_round) * f);
}

cpu::WorkloadProfile Kernel::profile(int rounds) const {
  cpu::WorkloadProfile p;
  p.file = file;
  p.info.name = info.name;
  p.info.description = info.description;
  p.info.characterization = info.characterization;
  p.info.work_unit = "block";
  p.info.instructions_per_unit =
      std::max(1.0, info.instructions_per_block + rounds * info.instructions_per_round);
  p.info.aarch32_path_factor = info.aarch32_path_factor;
  p.info.armv5_path_factor = info.aarch32_path_factor;
  p.info.threads = 1;
  p.info.seed = info.seed;
  p.info.variants = info.variants;
  p.info.warmup_instructions = info.warmup_instructions;
  p.info.measure_instructions = info.measure_instructions;
  p.mix.int_alu = mix.int_alu;
  p.mix.int_mul = mix.int_mul;
  p.mix.int64_alu = mix.int64_alu;
  p.mix.int64_mul = mix.int64_mul;
  p.mix.load = mix.load;
  p.mix.store = mix.store;
  p.mix.load_multi = mix.load_multi;
  p.mix.store_multi = mix.store_multi;
  p.mix.branch = mix.branch;
  p.mix.fp_add = mix.simd;
  p.mix.fp_mul = mix.aes_round;
  p.mix.fp_mac = mix.sha_round;
  p.mix.dp_add = mix.sha_schedule;
  p.mix.fp_move = mix.simd_move;
  p.deps = deps;
  p.branches = branches;
  p.code = code;
  p.data = data;
  return p;
}

namespace {

const std::vector<std::string> kKernelKeys = {"kernel",   "mix",  "dependencies",
                                              "branches", "code", "data"};

}  // namespace

Kernel loadKernel(const std::string& file) {
  const config::Node root = cpu::parseProfileFile(file, kKernelKeys, "crypto kernel");
  Kernel k;
  k.file = file;
  config::Sources src;
  const config::Node* info = root.find("kernel");
  if (!info) throw InputError(file, root.line, "kernel", "missing required group 'kernel'");
  config::readGroup(KernelInfo::schema(), k.info, *info, "kernel", "crypto kernel " + file, src);
  const std::string owner = "kernel '" + k.info.name + "'";
  const config::Node* mix = root.find("mix");
  if (!mix) throw InputError(file, root.line, "mix", "missing required group 'mix' for " + owner);
  config::readGroup(CryptoMix::schema(), k.mix, *mix, "mix", owner, src);
  const auto& m = k.mix;
  const double total = m.int_alu + m.int_mul + m.int64_alu + m.int64_mul + m.load + m.store +
                       m.load_multi + m.store_multi + m.branch + m.simd + m.aes_round +
                       m.sha_round + m.sha_schedule + m.simd_move;
  if (!(total > 0))
    throw InputError(mix->file, mix->line, "mix", "the mix of " + owner + " is empty");
  if (!(k.info.instructions_per_block + k.info.instructions_per_round > 0))
    throw InputError(info->file, info->line, "kernel.instructions_per_block",
                     owner + ": no instructions per block or per round");
  cpu::readShapeGroups(root, k.deps, k.branches, k.code, k.data, src, owner);
  return k;
}

std::vector<Kernel> loadKernels(const std::string& dir) {
  std::vector<Kernel> out;
  for (const auto& f : cpu::profileFiles(dir, "crypto kernel")) out.push_back(loadKernel(f));
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i].info.name == out[j].info.name)
        throw InputError(out[i].file, 0, "kernel.name",
                         "kernel '" + out[i].info.name + "' is also defined in " + out[j].file);
  return out;
}

CoreCryptoTiming loadCoreCryptoTiming(const std::string& file) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  const config::Node* g = root.isMap() ? root.find("core_crypto_timing") : nullptr;
  if (!g)
    throw InputError(file, root.line, "core_crypto_timing", "missing group 'core_crypto_timing'");
  for (const auto& [k, v] : root.map)
    if (k != "core_crypto_timing")
      throw InputError(v.file, v.line, k,
                       "unknown group '" + k + "' (expected core_crypto_timing)");
  CoreCryptoTiming t;
  config::Sources src;
  config::readGroup(CoreCryptoTiming::schema(), t, *g, "core_crypto_timing", file, src);
  return t;
}

std::map<std::string, CoreCryptoTiming> loadCoreCryptoTimings(const std::string& dir) {
  std::map<std::string, CoreCryptoTiming> out;
  for (const auto& f : cpu::profileFiles(dir, "crypto core timing")) {
    CoreCryptoTiming t = loadCoreCryptoTiming(f);
    if (out.count(t.core_type))
      throw InputError(f, 0, "core_crypto_timing.core_type",
                       "core type '" + t.core_type + "' has two crypto timing files");
    out[t.core_type] = t;
  }
  return out;
}

bool kernelRunsOn(const Kernel& k, const models::CoreParams& core, const CoreCryptoTiming& t) {
  const std::string& r = k.info.requires_feature;
  if (r == "any") return true;
  if (r == "neon") return core.neon;
  if (r == "armv8-crypto") return core.isa == "armv8-a" && t.crypto_extensions;
  if (r == "aarch32") return core.isa != "armv8-a";
  if (r == "aarch64") return core.isa == "armv8-a";
  return false;
}

namespace {

/// Warm up and measure a kernel's programs on `core` (one quantum at a time on the platform).
KernelRun measureKernel(models::CoreModel& core, const cpu::WorkloadProfile& p, double ipu,
                        cpu::PlatformPort* port) {
  const std::uint64_t q = port ? port->quantumCycles() : 0;
  auto runN = [&](cpu::StreamGenerator& gen, std::uint64_t n) {
    for (std::uint64_t done = 0; done < n;) {
      std::uint64_t k = core.run(gen, n - done, port ? core.now() + q : ~0ull);
      if (k == 0) break;
      done += k;
      if (port) port->sync(core.now());
    }
  };
  const int variants = std::max(1, p.info.variants);
  const auto warm = static_cast<std::uint64_t>(std::max(0, p.info.warmup_instructions));
  const auto total = static_cast<std::uint64_t>(std::max(1, p.info.measure_instructions));
  KernelRun r;
  std::uint64_t instructions = 0, cycles = 0;
  for (int v = 0; v < variants; ++v) {
    cpu::StreamGenerator gen(p, 0, 0x40000000ull, v);
    runN(gen, v == 0 ? warm : std::min<std::uint64_t>(warm, 20000));
    core.resetStats();
    runN(gen, total / static_cast<std::uint64_t>(variants));
    const auto& s = core.stats();
    instructions += s.instructions;
    cycles += s.cycles;
    if (v == 0) {
      r.stats = s;
    } else {
      r.stats.instructions += s.instructions;
      r.stats.cycles += s.cycles;
      for (size_t i = 0; i < r.stats.partCycles.size() && i < s.partCycles.size(); ++i)
        r.stats.partCycles[i] += s.partCycles[i];
    }
  }
  const double units = static_cast<double>(instructions) / ipu;
  r.cyclesPerUnit = units > 0 ? static_cast<double>(cycles) / units : 0;
  return r;
}

}  // namespace

KernelRun runKernelOn(const Kernel& k, int rounds, const models::CoreParams& core,
                      const models::CoreTimingParams& timing, const CoreCryptoTiming& t,
                      models::CoreMemoryPort& mem) {
  cpu::WorkloadProfile p = k.profile(rounds);
  models::CoreModel cm(core, t.apply(timing), mem);
  return measureKernel(cm, p, k.instructionsPerUnit(rounds, core.isa), nullptr);
}

KernelRun runKernel(RunContext& ctx, const soc::ClusterConfig& cluster, const Kernel& k, int rounds,
                    const CoreCryptoTiming& t) {
  const soc::BoardConfig& b = ctx.board();
  if (!cluster.l1i || !cluster.l1d)
    throw NotModelled{"core " + cluster.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config (tightly-coupled memory not modelled)"};
  // Flat platform index of the cluster's first core: clusters without a data cache take none.
  int flat = -1, base = 0;
  for (const auto& c : b.clusters) {
    if (!c.l1d) continue;
    if (&c == &cluster) flat = base;
    base += c.info.cores;
  }
  if (flat < 0) throw NotModelled{"cluster " + cluster.info.name + " is not on the platform"};
  soc::Platform& plat = ctx.platform();
  plat.flushCaches();
  plat.resetStats();
  cpu::WorkloadProfile p = k.profile(rounds);
  const double ipu = k.instructionsPerUnit(rounds, cluster.core.isa);
  const models::CoreTimingParams timing = t.apply(cluster.timing);
  KernelRun r;
  plat.run(flat, [&](models::CoreMemory& mem) {
    cpu::PlatformPort port(mem);
    models::CoreModel core(cluster.core, timing, port);
    r = measureKernel(core, p, ipu, &port);
    port.sync(core.now());
  });
  return r;
}

}  // namespace socsim::wl::crypto
