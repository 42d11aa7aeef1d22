#include "workloads/crypto/crypto_workloads.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "common/format.h"
#include "models/peripherals/omap_crypto/omap_crypto.h"
#include "models/peripherals/sa2ul/sa2ul.h"
#include "soc/config/board_config.h"
#include "workloads/builtin.h"

namespace socsim::wl::crypto {

namespace {

constexpr double kLineBytes = 64;  // cache line the drivers maintain (all cores here: 64 B)

std::string boardKey(const soc::BoardConfig& b) {
  std::string k = b.board.name;
  for (const auto& o : b.overrides) k += "|" + o;
  return k;
}

std::uint64_t toBytes(const std::string& s, const std::string& what) {
  try {
    size_t pos = 0;
    unsigned long long v = std::stoull(s, &pos);
    if (pos == s.size()) return v;
  } catch (const std::exception&) {
  }
  throw NotModelled{"params: " + what + " '" + s + "' is not a byte count"};
}

bool isLinux(const std::string& stack) {
  return stack == "linux" || stack == "linux-rt";
}

}  // namespace

double kernelPathIsaFactor(const soc::BoardConfig& b) {
  return b.mainCluster().core.isa == "armv8-a" ? 1.0
                                               : b.software.kernel_paths.aarch32_path_factor;
}

double kernelBodyFactor(const os::KernelPathParams& kp) {
  return 1.0 + kp.locks_per_kilo_instruction * kp.lock_instructions / 1000.0;
}

// ---- CryptoModel --------------------------------------------------------------------------

CryptoModel::CryptoModel(std::string dir, std::string enginesDir)
    : dir_(std::move(dir)), enginesDir_(std::move(enginesDir)) {
  try {
    data_ = loadCryptoData(dir_, enginesDir_);
    kernels_ = loadKernels(dir_ + "/kernels");
    coreTimings_ = loadCoreCryptoTimings(dir_ + "/core_timing");
    ipsec_ = loadIpsecParams(dir_ + "/ipsec.yaml");
    for (const auto& a : data_.algorithms)
      for (const auto& k : a.kernelList()) kernel(k);
    for (const auto& [n, s] : data_.stacks) {
      kernel(s.user_path_kernel);
      kernel(s.kernel_path_kernel);
    }
  } catch (const InputError& e) {
    loadError_ = e.what();
  } catch (const NotModelled& e) {
    loadError_ = e.reason;
  } catch (const std::exception& e) {
    loadError_ = e.what();
  }
}

const Kernel& CryptoModel::kernel(const std::string& name) const {
  for (const auto& k : kernels_)
    if (k.info.name == name) return k;
  throw NotModelled{"crypto kernel '" + name + "' is not defined in " + dir_ + "/kernels"};
}

const CoreCryptoTiming& CryptoModel::coreTiming(const std::string& coreType) const {
  auto it = coreTimings_.find(coreType);
  if (it == coreTimings_.end())
    throw NotModelled{"no SIMD/crypto instruction timing for core type '" + coreType + "' in " +
                      dir_ + "/core_timing"};
  return it->second;
}

const CryptoStackParams& CryptoModel::stack(const std::string& name) const {
  auto it = data_.stacks.find(name);
  if (it == data_.stacks.end())
    throw NotModelled{"no crypto call paths for software stack '" + name + "' in " + dir_ +
                      "/stacks"};
  return it->second;
}

double CryptoModel::kernelCycles(RunContext& ctx, const std::string& name, int rounds) {
  const soc::BoardConfig& b = ctx.board();
  const soc::ClusterConfig& c = b.mainCluster();
  const std::string key =
      boardKey(b) + "|" + c.info.name + "|" + name + "|" + std::to_string(rounds);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  const Kernel& k = kernel(name);
  const CoreCryptoTiming& t = coreTiming(c.core.type);
  if (!kernelRunsOn(k, c.core, t))
    throw NotModelled{"kernel '" + name + "' needs " + k.info.requires_feature + ", which core " +
                      c.core.type + " lacks"};
  double v = runKernel(ctx, c, k, rounds, t).cyclesPerUnit;
  cache_[key] = v;
  return v;
}

double CryptoModel::pathCpi(RunContext& ctx, const std::string& name) {
  const Kernel& k = kernel(name);
  const auto& core = ctx.board().mainCluster().core;
  return kernelCycles(ctx, name, 0) / k.instructionsPerUnit(0, core.isa);
}

const Kernel& CryptoModel::softwareKernel(RunContext& ctx, const AlgorithmSpec& alg) const {
  const auto& c = ctx.board().mainCluster();
  const CoreCryptoTiming& t = coreTiming(c.core.type);
  for (const auto& n : alg.kernelList()) {
    const Kernel& k = kernel(n);
    if (kernelRunsOn(k, c.core, t)) return k;
  }
  throw NotModelled{"no implementation of " + alg.name + " runs on " + c.core.type};
}

const EnginePreset* CryptoModel::linuxEngine(const soc::BoardConfig& b, const AlgorithmSpec& alg,
                                             const soc::PeripheralParams** periph) const {
  for (const auto& p : b.peripherals) {
    auto it = data_.engines.find(p.ip);
    if (it == data_.engines.end()) continue;
    if (!it->second.linuxDriver.offers(alg.engineName())) continue;
    if (periph) *periph = &p;
    return &it->second;
  }
  return nullptr;
}

const EnginePreset* CryptoModel::engineOf(const soc::BoardConfig& b, const std::string& model,
                                          const soc::PeripheralParams** periph) const {
  for (const auto& p : b.peripherals) {
    auto it = data_.engines.find(p.ip);
    if (it == data_.engines.end() || it->second.model != model) continue;
    if (periph) *periph = &p;
    return &it->second;
  }
  return nullptr;
}

namespace {

models::CryptoRequest requestOf(const AlgorithmSpec& alg, std::uint64_t bytes) {
  models::CryptoRequest r;
  r.op = alg.cryptoOp();
  r.keyBits = alg.key_bits;
  r.chained = alg.mode != "ecb";
  r.bytes = bytes;
  return r;
}

/// Engine timing of one request on the engine `e` clocked by the board's peripheral fact.
models::CryptoTiming engineTiming(const EnginePreset& e, const soc::PeripheralParams& p,
                                  const models::CryptoRequest& r, std::string& prefix) {
  prefix = "engine." + e.ip;
  if (e.model == "sa2ul") {
    models::Sa2ulParams sp = e.sa2ul;
    if (p.clock_mhz > 0) sp.clock_mhz = p.clock_mhz;
    return models::Sa2ul(sp).request(r);
  }
  models::OmapCryptoParams op = e.omap;
  if (p.clock_mhz > 0) op.clock_mhz = p.clock_mhz;
  return models::OmapCrypto(op).request(r);
}

}  // namespace

CallTiming CryptoModel::engineRequest(RunContext& ctx, const EnginePreset& e,
                                      const soc::PeripheralParams& periph,
                                      const models::CryptoRequest& r,
                                      const CryptoStackParams& st, bool callerSleeps,
                                      const ReleaseSpec* release,
                                      const os::KernelPathParams* kpOfRelease) {
  const soc::BoardConfig& b = ctx.board();
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  const double kernelCpi = pathCpi(ctx, st.kernel_path_kernel);
  const auto& kp = kpOfRelease ? *kpOfRelease : b.software.kernel_paths;
  // per kernel-path instruction of a path body (wake-up, switch, interrupt)
  const double pathCycles = kernelPathIsaFactor(b) * kernelBodyFactor(kp) * kernelCpi;
  const CryptoDriverParams& d = e.linuxDriver;
  const bool queued =
      d.request_queue == "crypto_engine" && !(release && release->directQueue(e.ip));
  CallTiming t;
  t.path = "engine:" + e.ip;
  // `caller`: CPU work in the submitting task; otherwise in interrupt or kthread context.
  auto cpu = [&](const std::string& part, double s, bool caller) {
    t.seconds += s;
    (caller ? t.busySeconds : t.otherCpuSeconds) += s;
    t.breakdown.add(part, s);
  };
  if (queued) {
    // The request is queued to the crypto_engine kthread. A sleeping caller wakes it and
    // blocks (its switch is the caller's block); the kthread runs the request and sleeps
    // (a switch to idle). A caller in softirq context (IPSec) is switched away from and back.
    const double w = kp.wakeup_instructions * pathCycles / hz;
    const double sw = kp.switch_instructions * pathCycles / hz;
    if (callerSleeps) {
      cpu("driver.engine_kthread_wakeup", w, true);
      cpu("driver.engine_kthread_switch", sw, false);
    } else {
      cpu("driver.engine_kthread", 2 * (w + sw), false);
    }
    // crypto_finalize_request queues the engine's pump_requests work after completing the
    // request (crypto/crypto_engine.c): the kthread is woken again, runs (an RT-priority
    // kthread, ahead of the woken caller) and finds the queue empty.
    cpu("driver.engine_kthread_pump", w + sw, false);
  }
  // Submit, DMA mapping (cache maintenance: clean the source; a cipher also invalidates the
  // destination) and MMIO: in the caller, or in the kthread when queued.
  cpu("driver.submit", d.path_factor * st.driver_submit_instructions * kernelCpi / hz, !queued);
  const double lines = std::ceil(static_cast<double>(r.bytes) / kLineBytes) *
                       (models::isDigest(r.op) ? 1 : 2);
  cpu("driver.cache_maintenance", lines * st.cache_maintenance_cycles_per_line / hz, !queued);
  cpu("driver.mmio", d.register_accesses * d.register_access_ns * 1e-9, !queued);
  std::string prefix;
  const models::CryptoTiming et = engineTiming(e, periph, r, prefix);
  t.seconds += et.total();
  t.busySeconds += d.poll_fraction * et.total();
  for (const auto& [n, sec] : et.parts(prefix)) t.breakdown.add(n, sec);
  // Completion: each interrupt's entry and exit (the stack's interrupt path), then the DMA
  // driver's completion and the crypto driver's callback (driver_complete_instructions, times
  // the driver's path_factor).
  // A threaded handler (PREEMPT_RT: irq_thread_instructions > 0) is woken and switched to, and
  // switched away from when it sleeps again: to idle after every interrupt but the last, whose
  // thread hands the CPU to the woken caller (that switch is the caller's switch back) or, for
  // a caller in softirq context, back to it.
  const double n = d.completion_interrupts;
  const bool threaded = kp.irq_thread_instructions > 0;
  const double switches = threaded ? n + std::max(0.0, n - 1) : 0;
  cpu("driver.interrupts",
      (n * (kp.irq_instructions + kp.irq_thread_instructions) +
       switches * kp.switch_instructions) * pathCycles / hz,
      false);
  cpu("driver.complete", d.path_factor * st.driver_complete_instructions * kernelCpi / hz,
      false);
  return t;
}

double CryptoModel::softwareSeconds(RunContext& ctx, const AlgorithmSpec& alg, double blocks,
                                    std::string* kernelName) {
  const Kernel& k = softwareKernel(ctx, alg);
  if (kernelName) *kernelName = k.info.name;
  const double hz = ctx.board().mainCluster().core.clock_mhz * 1e6;
  return blocks * kernelCycles(ctx, k.info.name, alg.rounds()) / hz;
}

CallTiming CryptoModel::opensslCall(RunContext& ctx, const AlgorithmSpec& alg, std::uint64_t bytes,
                                    const ReleaseSpec& release, const std::string& stackName,
                                    const os::KernelPathParams* kpOfRelease) {
  const soc::BoardConfig& b = ctx.board();
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  const CryptoStackParams& st = stack(stackName);
  const bool digest = alg.mode == "digest";
  const models::CryptoOp op = alg.cryptoOp();
  const double blocks = static_cast<double>(models::cryptoBlocks(op, bytes));
  CallTiming t;
  auto cpu = [&](const std::string& part, double cycles) {
    const double s = cycles / hz;
    t.seconds += s;
    t.busySeconds += s;
    t.breakdown.add(part, s);
  };
  const double userCpi = pathCpi(ctx, st.user_path_kernel);
  cpu("openssl.evp_call",
      (digest ? st.evp_digest_call_instructions : st.evp_cipher_call_instructions) * userCpi);
  auto software = [&](const std::string& where) {
    const Kernel& k = softwareKernel(ctx, alg);
    cpu(where + "." + k.info.name, blocks * kernelCycles(ctx, k.info.name, alg.rounds()));
  };
  if (release.openssl_engine == "none") {
    t.path = "user";
    software("user");
    return t;
  }
  // /dev/crypto: the ioctl path into the kernel's crypto API.
  const double kernelCpi = pathCpi(ctx, st.kernel_path_kernel);
  const auto& kp = kpOfRelease ? *kpOfRelease : b.software.kernel_paths;
  const double isaCycles = kernelPathIsaFactor(b) * kernelCpi;  // per kernel-path instruction
  const double pathCycles = kernelBodyFactor(kp) * isaCycles;  // ... of a path body
  // Entry and exit take no lock (workloads/os: only the bodies pay PREEMPT_RT's lock share).
  cpu("kernel.syscall", (digest ? st.cryptodev_digest_ioctls : st.cryptodev_cipher_ioctls) *
                            (kp.trap_instructions * isaCycles + kp.fd_instructions * pathCycles));
  cpu("kernel.cryptodev",
      (digest ? st.cryptodev_digest_instructions : st.cryptodev_cipher_instructions) * kernelCpi);
  const soc::PeripheralParams* periph = nullptr;
  const EnginePreset* e = linuxEngine(b, alg, &periph);
  const bool hardware = e && static_cast<double>(bytes) >= e->linuxDriver.fallback_below_bytes &&
                        !(digest && e->linuxDriver.digest_path == "fallback");
  if (!hardware) {
    t.path = "kernel-software";
    software("kernel");
    return t;
  }
  t.path = "engine:" + e->ip;
  // A digest longer than the driver's update buffer (omap-sham) is two hardware requests:
  // cryptodev's update runs all but the last block and the final runs the kept block with the
  // padding; the caller sleeps on each.
  std::vector<std::uint64_t> requests{bytes};
  const double buffer = e->linuxDriver.digest_buffer_bytes;
  if (digest && buffer > 0 && static_cast<double>(bytes) > buffer) {
    const auto block = static_cast<std::uint64_t>(models::cryptoBlockBytes(op));
    const std::uint64_t kept = bytes % block ? bytes % block : block;
    requests = {bytes - kept, kept};
  }
  for (std::uint64_t requestBytes : requests) {
    // The caller blocks in wait_for_completion (cryptodev): its block path, then the switch
    // away, which the scheduler charges to the task switched to (CFS updates the leaving
    // task's runtime before picking the next one): CPU time, but not the caller's.
    cpu("kernel.block", kp.block_instructions * pathCycles);
    const double away = kp.switch_instructions * pathCycles / hz;
    t.seconds += away;
    t.otherCpuSeconds += away;
    t.breakdown.add("kernel.switch_away", away);
    const CallTiming r =
        engineRequest(ctx, *e, *periph, requestOf(alg, requestBytes), st, true, &release, &kp);
    t.seconds += r.seconds;
    t.busySeconds += r.busySeconds;
    t.otherCpuSeconds += r.otherCpuSeconds;
    for (const auto& [n, sec] : r.breakdown.seconds) t.breakdown.add(n, sec);
    // The last interrupt reaches a CPU that is idle (exit from idle), the callback's complete()
    // wakes the caller (interrupt context), and the CPU switches from idle back to it.
    const double wake = st.wakeup_latency_us * 1e-6;
    t.seconds += wake;
    t.breakdown.add("kernel.wakeup_latency", wake);
    const double wakeup = kp.wakeup_instructions * pathCycles / hz;
    t.seconds += wakeup;
    t.otherCpuSeconds += wakeup;
    t.breakdown.add("kernel.wakeup", wakeup);
    // On an SMP cluster the completion interrupt is taken by CPU0 (Linux's default interrupt
    // affinity) while the caller sleeps on its own core, idle meanwhile; the wake-up keeps the
    // caller on its previous, idle core (select_task_rq_fair), so it is a reschedule IPI to that
    // core (GIC delivery, the IPI path) and a second exit from idle. The caller sleeps on CPU0
    // in 1 of `cores` placements.
    const int cores = b.mainCluster().info.cores;
    if (cores > 1) {
      const double share = (cores - 1.0) / cores;
      const double ipiCpu = share * kp.ipi_instructions * pathCycles / hz;
      const double ipiWait = share * (kp.ipi_delivery_ns * 1e-9 + wake);
      t.seconds += ipiCpu + ipiWait;
      t.otherCpuSeconds += ipiCpu;
      t.breakdown.add("kernel.remote_wakeup", ipiCpu + ipiWait);
    }
    cpu("kernel.switch_back", kp.switch_instructions * pathCycles);  // charged to the caller
  }
  return t;
}

namespace {

/// What a Linux crypto row names: its algorithm (aliases resolved), the stack it ran on (the
/// board's, or linux-rt for `kernel=rt` rows) and the release of its guide.
struct LinuxRow {
  std::map<std::string, std::string> params;
  const AlgorithmSpec* alg = nullptr;
  std::string stack;
  const ReleaseSpec* release = nullptr;
};

LinuxRow linuxRow(const CryptoModel& m, const soc::BoardConfig& b, const Query& q,
                  const std::string& what) {
  if (!m.loadError().empty()) throw std::runtime_error(m.loadError());
  LinuxRow r;
  r.params = parseParams(q.params);
  auto it = r.params.find("algorithm");
  if (it == r.params.end()) throw NotModelled{"params carry no algorithm"};
  r.alg = m.data().algorithm(it->second);
  if (!r.alg) throw NotModelled{"algorithm '" + it->second + "' is not in algorithms.yaml"};
  r.stack = b.software.stack;
  auto rt = r.params.find("kernel");
  if (rt != r.params.end() && rt->second == "rt") r.stack = "linux-rt";
  if (!isLinux(r.stack))
    throw NotModelled{what + " runs under Linux; board " + b.board.name + " runs " +
                      b.software.stack};
  r.release = &m.data().release(q.source, b.software.sdk);
  return r;
}

}  // namespace

// ---- OpensslSpeed -------------------------------------------------------------------------

bool OpensslSpeed::covers(const Query& q) const {
  if (q.family != "crypto") return false;
  if (q.benchmark == "OpenSSL Performance")
    return (q.metric == "throughput" && q.unit == "KB/s") ||
           (q.metric == "CPU Load" && q.unit == "%");
  return q.benchmark == "OpenSSL CPU Load" && q.metric == "CPU Load" && q.unit == "%";
}

Prediction OpensslSpeed::predict(RunContext& ctx, const Query& q) {
  const LinuxRow row = linuxRow(*m_, ctx.board(), q, "openssl speed");
  const auto& params = row.params;
  const AlgorithmSpec* alg = row.alg;
  const std::string& stackName = row.stack;
  const ReleaseSpec& release = *row.release;
  // The kernel of the row's release (software_releases; the board's own stack otherwise).
  const os::KernelPathParams& kp = ctx.board().softwareFor(q.source).kernel_paths;
  Prediction p;
  if (q.metric == "throughput") {
    auto bs = params.find("buffer_size");
    if (bs == params.end()) throw NotModelled{"throughput row without buffer_size"};
    const std::uint64_t bytes = toBytes(bs->second, "buffer_size");
    CallTiming c = m_->opensslCall(ctx, *alg, bytes, release, stackName, &kp);
    p.value = static_cast<double>(bytes) / c.seconds / 1000.0;  // openssl: 1000s of bytes/s
    p.breakdown = c.breakdown;
    p.note = "release " + release.name + ", path " + c.path + ", per call " +
             std::to_string(c.seconds * 1e6) + " us";
    return p;
  }
  // CPU load of `time -v openssl speed`: CPU time over elapsed time of the whole run, every
  // size running `seconds_per_size`.
  double busy = 0, elapsed = 0;
  std::string paths;
  for (std::uint64_t bytes : release.sizes()) {
    CallTiming c = m_->opensslCall(ctx, *alg, bytes, release, stackName, &kp);
    busy += release.seconds_per_size * c.busySeconds / c.seconds;
    elapsed += release.seconds_per_size;
    for (const auto& [n, s] : c.breakdown.seconds)
      p.breakdown.add(std::to_string(bytes) + "B." + n, s);
    if (paths.find(c.path) == std::string::npos) paths += (paths.empty() ? "" : ", ") + c.path;
  }
  p.value = 100.0 * busy / elapsed;
  p.note = "release " + release.name + ", paths " + paths;
  return p;
}

// ---- Sa2ulMcu -----------------------------------------------------------------------------

bool Sa2ulMcu::covers(const Query& q) const {
  if (q.family != "sa2ul") return false;
  return q.benchmark == "AES" || q.benchmark == "SHA" || q.benchmark == "PKA RSA SIGN VERIFY" ||
         q.benchmark == "PKA ECDSA" || q.benchmark == "RSA ENCRYPT DECRYPT";
}

Prediction Sa2ulMcu::predict(RunContext& ctx, const Query& q) {
  if (!m_->loadError().empty()) throw std::runtime_error(m_->loadError());
  const soc::BoardConfig& b = ctx.board();
  if (b.software.stack != "mcu-nortos")
    throw NotModelled{"the SA2UL tests run under the MCU+ SDK (no RTOS); board " + b.board.name +
                      " runs " + b.software.stack};
  const soc::PeripheralParams* periph = nullptr;
  const EnginePreset* e = m_->engineOf(b, "sa2ul", &periph);
  if (!e) throw NotModelled{"board " + b.board.name + " has no SA2UL"};
  models::Sa2ulParams sp = e->sa2ul;
  if (periph->clock_mhz > 0) sp.clock_mhz = periph->clock_mhz;
  const models::Sa2ul engine(sp);
  const CryptoStackParams& st = m_->stack("mcu-nortos");
  const CryptoDriverParams& d = e->mcuDriver;
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  const double cpi = m_->pathCpi(ctx, st.kernel_path_kernel);
  const auto params = parseParams(q.params);
  auto get = [&](const char* k) -> std::string {
    auto it = params.find(k);
    if (it == params.end()) throw NotModelled{std::string("params carry no ") + k};
    return it->second;
  };
  Prediction p;
  auto add = [&](const std::string& part, double s) {
    p.breakdown.add(part, s);
    return s;
  };

  if (q.benchmark == "AES" || q.benchmark == "SHA") {
    if (q.unit != "Mbit/s") throw NotModelled{"unit " + q.unit};
    const std::uint64_t bytes = toBytes(get("size"), "size");
    models::CryptoRequest r;
    r.bytes = bytes;
    if (q.benchmark == "AES") {
      r.op = models::CryptoOp::Aes;
      r.keyBits = static_cast<int>(toBytes(get("key_bits"), "key_bits"));
      r.decrypt = get("op") == "decryption";
      r.chained = !r.decrypt;  // CBC: encryption chains blocks, decryption does not
    } else {
      const std::string bits = get("sha_bits");
      auto op = models::cryptoOpFromName("sha" + bits);
      if (!op) throw NotModelled{"SHA-" + bits + " is not modelled"};
      r.op = *op;
    }
    // The timed test operation (MCU+ SDK test_sa2ul_aes.c / test_sa2ul_sha.c): one
    // SA2UL_contextAlloc, then SA2UL_contextProcess calls; the SHA test is multi-shot (the
    // buffer in equal parts, the last one finalises). Each call is a request of the driver on
    // the R5F: set-up, cache write-back of the input and invalidation of the output (per
    // line), register accesses; then it polls until the engine completes.
    const bool digest = models::isDigest(r.op);
    const double calls = digest ? std::max(1.0, std::round(st.mcu_digest_test_requests)) : 1.0;
    double t = add("driver.context_alloc", st.mcu_context_alloc_instructions * cpi / hz);
    models::CryptoRequest part = r;
    part.bytes = static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) / calls));
    const double lines =
        calls * std::ceil(static_cast<double>(part.bytes) / kLineBytes) * (digest ? 1 : 2);
    t += add("driver.cpu", calls * st.mcu_request_instructions * cpi / hz);
    t += add("driver.cache_maintenance", lines * st.cache_maintenance_cycles_per_line / hz);
    t += add("driver.mmio", calls * d.register_accesses * d.register_access_ns * 1e-9);
    const models::CryptoTiming et = engine.request(part);
    for (const auto& [n, s] : et.parts("engine.sa2ul")) t += add(n, calls * s);
    p.value = static_cast<double>(bytes) * 8 / t / 1e6;
    if (calls > 1) p.note = "multi-shot: " + std::to_string(static_cast<int>(calls)) + " requests";
    return p;
  }

  const int bits = static_cast<int>(toBytes(get("key_bits"), "key_bits"));
  auto pkaDriver = [&](double operandBits) {
    const double words = operandBits / 32;
    return st.mcu_pka_request_instructions * cpi / hz +
           words * d.pka_register_accesses_per_word * d.register_access_ns * 1e-9;
  };
  if (q.benchmark == "PKA RSA SIGN VERIFY" || q.benchmark == "PKA ECDSA") {
    if (q.unit != "ops/s") throw NotModelled{"unit " + q.unit};
    const bool rsa = q.benchmark == "PKA RSA SIGN VERIFY";
    // Operands moved through the PKA's registers: RSA-CRT sign p, q, dp, dq, qinv (half size),
    // message and result; verify n, e, signature, result; ECDSA sign/verify a handful of
    // curve-size values (curve constants, key, hash, k, r, s).
    const double signOperands = rsa ? 2.5 * bits + 2.0 * bits : 8.0 * bits;
    const double verifyOperands = rsa ? 3.0 * bits : 10.0 * bits;
    const double sign = pkaDriver(signOperands) +
                        (rsa ? engine.rsaPrivateSeconds(bits) : engine.ecdsaSignSeconds(bits));
    const double verify = pkaDriver(verifyOperands) +
                          (rsa ? engine.rsaPublicSeconds(bits) : engine.ecdsaVerifySeconds(bits));
    double s = 0;
    if (q.metric == "Sign") {
      s = sign;
    } else if (q.metric == "Verify") {
      s = verify;
    } else if (q.metric == "Sign and verify") {
      s = sign + verify;
    } else {
      throw NotModelled{"metric " + q.metric};
    }
    add(q.metric == "Verify" ? "engine.sa2ul.pka_verify" : "engine.sa2ul.pka", s);
    p.value = 1.0 / s;
    return p;
  }
  if (q.benchmark == "RSA ENCRYPT DECRYPT") {
    if (q.unit != "Mbit/s") throw NotModelled{"unit " + q.unit};
    const std::uint64_t bytes = toBytes(get("size"), "size");
    double s = 0;
    if (get("op") == "decryption") {
      s = add("driver.pka", pkaDriver(4.5 * bits)) +
          add("engine.sa2ul.pka_private", engine.rsaPrivateSeconds(bits));
    } else {
      // PKCS#1 v1.5 encryption: the padding string (k - 3 - message bytes, nonzero random
      // bytes) from the TRNG, then the public-key operation.
      const double pad = std::max(8.0, bits / 8.0 - 3 - st.rsa_encrypt_message_bytes);
      s = add("engine.sa2ul.trng", engine.trngSeconds(static_cast<std::uint64_t>(pad))) +
          add("driver.pka", pkaDriver(3.0 * bits)) +
          add("engine.sa2ul.pka_public", engine.rsaPublicSeconds(bits));
    }
    p.value = static_cast<double>(bytes) * 8 / s / 1e6;
    return p;
  }
  throw NotModelled{"benchmark " + q.benchmark};
}

// ---- Ipsec --------------------------------------------------------------------------------

bool Ipsec::covers(const Query& q) const {
  if (q.family != "ipsec") return false;
  const bool bench = q.benchmark == "IPSec Performance" ||
                     q.benchmark == "IPSec Hardware Performance" ||
                     q.benchmark == "IPSec Software Performance";
  return bench && ((q.metric == "Throughput" && q.unit == "Mbit/s") ||
                   (q.metric == "Packets/Sec" && q.unit == "kpps") ||
                   (q.metric == "CPU Load" && q.unit == "%"));
}

Prediction Ipsec::predict(RunContext& ctx, const Query& q) {
  const LinuxRow row = linuxRow(*m_, ctx.board(), q, "IPSec");
  const AlgorithmSpec* alg = row.alg;
  if (alg->mode == "digest") throw NotModelled{"ESP needs a cipher, not " + alg->name};
  const std::string& stackName = row.stack;
  const ReleaseSpec& release = *row.release;
  bool engine = release.ipsec_path == "engine";
  if (q.benchmark == "IPSec Hardware Performance") engine = true;
  if (q.benchmark == "IPSec Software Performance") engine = false;
  const soc::BoardConfig& b = ctx.board();
  std::string key = b.file + "|";
  for (const auto& o : b.overrides) key += o + ";";
  key += "|" + stackName + "|" + formatNumber(release.ipsec_link_mbps);
  auto it = nets_.find(key);
  if (it == nets_.end())
    it = nets_
             .emplace(key, ethernetPath(ctx, netDir_, stackName, m_->ipsec().net_tool,
                                        release.ipsec_link_mbps))
             .first;
  const EthernetPath& eth = it->second;
  // The ESP geometry on the MAC's MTU and the stack's TCP options.
  IpsecParams ip = m_->ipsec();
  ip.mtu_bytes = eth.mac->params().mtu_bytes;
  ip.tcp_header_bytes = 20 + eth.stack.p.tcp_option_bytes;
  const int block = models::cryptoBlockBytes(alg->cryptoOp());
  const EspPacket pkt = espPacket(ip, block);
  const EspCost esp = espCost(*m_, ctx, ip, pkt, espAck(ip, block), *alg, engine, stackName, &release);
  const IpsecResult r = ipsecStream(pkt, esp, eth);
  Prediction p;
  p.breakdown = r.breakdown;
  if (q.metric == "Throughput")
    p.value = r.mbitPerSecond;
  else if (q.metric == "Packets/Sec")
    p.value = std::floor(r.kpps);  // the guides print whole kpps, truncated
  else
    p.value = r.cpuLoadPercent;
  p.note = "release " + release.name + ", path " + r.path + ", " + r.bound + "-bound, " +
           formatNumber(pkt.payloadBytes) + " B payload per packet, " +
           formatNumber(std::round(r.acksPerSegment * 1000) / 1000) + " ACKs per segment, " +
           eth.stack.p.name + " network stack, " +
           formatNumber(eth.mac->linkBitsPerSecond() / 1e6) + " Mbit/s link";
  return p;
}

void registerCryptoWorkloads(Registry& r) {
  auto m = std::make_shared<CryptoModel>(defaultCryptoDir(), defaultEnginesDir());
  r.add(std::make_unique<OpensslSpeed>(m));
  r.add(std::make_unique<Sa2ulMcu>(m));
  r.add(std::make_unique<Ipsec>(m, net::defaultNetDir()));
}

}  // namespace socsim::wl::crypto
