#pragma once
/// @file crypto_workloads.h
/// @brief The crypto benchmarks: `openssl speed -elapsed -evp ALG` throughput per buffer size and
///        its CPU load (family `crypto`), the AM64x MCU+ SA2UL tests (family `sa2ul`), and the
///        IPSec rows (family `ipsec`: ESP on a TCP stream, ipsec.h).
///
/// OpenSSL speed as it works: for each buffer size the program calls the EVP interface on one
/// buffer again and again for `seconds_per_size`, and prints bytes / elapsed time (in 1000-byte
/// units); `time -v` prints the CPU time over the elapsed time of the whole run (all sizes). One
/// call is composed from the software release's path (crypto_config.h, releases.yaml):
/// - `none`: OpenSSL's own implementation in user space: the EVP call code plus the blocks
///   (padded, for digests) through the algorithm's kernel, both run on the core model;
/// - `cryptodev`: the EVP call, the /dev/crypto ioctl path in the kernel, then either
///   * the SoC's crypto engine when a driver offers the algorithm (and the request is not below
///     the driver's software-fallback size, and a digest is not routed to the fallback): driver
///     submit and completion code on the core model, MMIO register accesses, cache maintenance of
///     the buffer, the engine model (SA2UL, OMAP AES/DES/SHAM) and the interrupt wake-up, with
///     the CPU idle while the engine works (unless the driver polls), or
///   * the kernel's software implementation (kernel code path + the algorithm's kernel).
/// So small buffers are overhead-bound and large ones approach the kernel's (or engine's) rate.
///
/// Parameters are scoped to the algorithm implementation (kernels), the core type (crypto
/// timing), the software stack (call paths) and the engine IP (model, driver) — never a board.
#include <map>
#include <memory>
#include <string>

#include "workloads/crypto/crypto_config.h"
#include "workloads/crypto/crypto_kernels.h"
#include "workloads/crypto/ipsec.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct PeripheralParams;
struct BoardConfig;
}
namespace socsim::wl::os {
struct KernelPathParams;
}  // namespace socsim::wl::os

namespace socsim::wl::crypto {

/// The board's kernel-path length relative to the AArch64 counts of `software.kernel_paths`
/// (their `aarch32_path_factor` on 32-bit cores).
double kernelPathIsaFactor(const soc::BoardConfig& b);

/// What a kernel path's body costs relative to its count, as workloads/os counts it
/// (OsMachine::pathFactor): under PREEMPT_RT, spinlock_t is a sleeping rt_mutex lock
/// (`locks_per_kilo_instruction` x `lock_instructions` more per instruction).
double kernelBodyFactor(const os::KernelPathParams& kp);

/// One `openssl speed` call: elapsed and CPU-busy seconds, and where the time went.
struct CallTiming {
  double seconds = 0;
  double busySeconds = 0;  ///< CPU time of the calling task (what `time -v` charges to it)
  /// CPU time spent for the call outside the calling task while it sleeps: interrupt
  /// handlers, the DMA driver's tasklet, the completion callback, the wake-up, a
  /// crypto_engine kthread. Part of `seconds`; not in `busySeconds`.
  double otherCpuSeconds = 0;
  std::string path;  ///< "user", "kernel-software", "engine:<ip>"
  Breakdown breakdown;
};

/// The shared model of the crypto workloads: data, kernels and per-process caches of kernel runs.
class CryptoModel {
 public:
  CryptoModel(std::string dir, std::string enginesDir);
  /// The error of loading the data ("" when fine): every prediction fails with it.
  const std::string& loadError() const { return loadError_; }
  const CryptoData& data() const { return data_; }
  const IpsecParams& ipsec() const { return ipsec_; }

  /// Cycles per unit of kernel `name` at `rounds` on the first core of the board's main cluster.
  double kernelCycles(RunContext& ctx, const std::string& name, int rounds);
  /// Cycles per instruction of a code-path kernel (cycles per unit / instructions per unit).
  double pathCpi(RunContext& ctx, const std::string& name);
  /// The software kernel of `alg` on the board's main core; throws NotModelled when none runs.
  const Kernel& softwareKernel(RunContext& ctx, const AlgorithmSpec& alg) const;
  /// The stack's call paths for the board ("linux", "linux-rt", "mcu-nortos").
  const CryptoStackParams& stack(const std::string& name) const;
  /// The board's engine offering `alg` to Linux (nullptr when none), and its peripheral entry.
  const EnginePreset* linuxEngine(const soc::BoardConfig& b, const AlgorithmSpec& alg,
                                  const soc::PeripheralParams** periph) const;
  const EnginePreset* engineOf(const soc::BoardConfig& b, const std::string& model,
                               const soc::PeripheralParams** periph) const;

  /// One request `r` through the engine `e` (the board's peripheral `periph`) from the Linux
  /// driver of the stack `st`: the driver's CPU work (submit, crypto_engine hand-off, cache
  /// maintenance, MMIO; the completion interrupts and callback as `otherCpuSeconds`) and the
  /// engine model's time; no wait for a sleeper. `callerSleeps`: the submitter blocks until
  /// the completion (openssl through /dev/crypto), so a crypto_engine hand-off costs the
  /// kthread's wake-up and its switch to idle (the caller's own block and switch back are the
  /// caller's); otherwise (IPSec, from softirq) the kthread is switched to and back.
  /// `release` (when given) is the software release the request runs in: its kernel's driver
  /// may queue directly (ReleaseSpec::direct_queue_drivers); `kp` (when given) the kernel paths
  /// of that release (else the board's `software.kernel_paths`).
  CallTiming engineRequest(RunContext& ctx, const EnginePreset& e,
                           const soc::PeripheralParams& periph, const models::CryptoRequest& r,
                           const CryptoStackParams& st, bool callerSleeps = false,
                           const ReleaseSpec* release = nullptr,
                           const os::KernelPathParams* kp = nullptr);
  /// Seconds of `blocks` blocks of `alg` through its software kernel on the board's main core
  /// (the kernel's name into `kernelName` when given).
  double softwareSeconds(RunContext& ctx, const AlgorithmSpec& alg, double blocks,
                         std::string* kernelName = nullptr);
  /// Kernel-path cycles per instruction of the stack (the kernel path profile on the core).
  double kernelCpi(RunContext& ctx, const CryptoStackParams& st) {
    return pathCpi(ctx, st.kernel_path_kernel);
  }

  /// One `openssl speed` call of `bytes` through `alg` under `release` on the board, with the
  /// kernel paths `kp` of the row's release (BoardConfig::softwareFor; default: the board's).
  CallTiming opensslCall(RunContext& ctx, const AlgorithmSpec& alg, std::uint64_t bytes,
                         const ReleaseSpec& release, const std::string& stackName,
                         const os::KernelPathParams* kp = nullptr);

 private:
  const Kernel& kernel(const std::string& name) const;
  const CoreCryptoTiming& coreTiming(const std::string& coreType) const;
  std::string dir_, enginesDir_, loadError_;
  CryptoData data_;
  IpsecParams ipsec_;
  std::vector<Kernel> kernels_;
  std::map<std::string, CoreCryptoTiming> coreTimings_;
  std::map<std::string, double> cache_;  ///< by board + kernel + rounds
};

/// `openssl speed` throughput (KB/s) and CPU load (%) rows.
class OpensslSpeed : public Workload {
 public:
  explicit OpensslSpeed(std::shared_ptr<CryptoModel> m) : m_(std::move(m)) {}
  std::string name() const override { return "openssl-speed"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

 private:
  std::shared_ptr<CryptoModel> m_;
};

/// AM64x MCU+ SA2UL rows: AES / SHA throughput, PKA RSA and ECDSA operations, RSA encrypt and
/// decrypt, with the MCU+ driver on the R5F core model.
class Sa2ulMcu : public Workload {
 public:
  explicit Sa2ulMcu(std::shared_ptr<CryptoModel> m) : m_(std::move(m)) {}
  std::string name() const override { return "sa2ul-mcu"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

 private:
  std::shared_ptr<CryptoModel> m_;
};

/// IPSec rows (throughput, kpps, CPU load): one TCP stream through ESP with the cipher and HMAC
/// on the engine or the CPU (ipsec.h), over the Ethernet model's network path (workloads/net,
/// the configs in `netDir`).
class Ipsec : public Workload {
 public:
  Ipsec(std::shared_ptr<CryptoModel> m, std::string netDir)
      : m_(std::move(m)), netDir_(std::move(netDir)) {}
  std::string name() const override { return "ipsec"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

 private:
  std::shared_ptr<CryptoModel> m_;
  std::string netDir_;
  std::map<std::string, EthernetPath> nets_;  ///< by board file + overrides + stack
};

void registerCryptoWorkloads(Registry& r);

}  // namespace socsim::wl::crypto
