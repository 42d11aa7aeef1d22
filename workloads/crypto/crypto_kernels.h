#pragma once
/// @file crypto_kernels.h
/// @brief Software crypto on the core model: instruction profiles of the crypto implementations
///        (OpenSSL's perlasm kernels, the C implementations, the kernel's and OpenSSL's per-call
///        code paths) and the per-core-type timing of the SIMD / crypto-extension instructions.
///
/// A kernel profile (`configs/workloads/crypto/kernels/*.yaml`, top-level group `kernel`) is a
/// cpu::WorkloadProfile in all but its mix: besides the generic classes it has
///   simd          NEON integer / logic / shift / permute (VEOR, VADD.I32, VSHR, VEXT, REV32)
///   aes_round     one AES round: AESE+AESMC (or AESD+AESIMC), a fused pair on A53/A57/A72
///   sha_round     SHA1C/P/M, SHA256H/H2 (hash-update instructions)
///   sha_schedule  SHA1SU0/SU1, SHA1H, SHA256SU0/SU1 (message schedule)
///   simd_move     core <-> NEON register transfer
/// whose timing is a property of the core type (`configs/workloads/crypto/core_timing/*.yaml`,
/// CoreCryptoTiming). Crypto kernels use no floating point, so the run maps these classes onto
/// the core model's FP/ASIMD-pipe classes (simd -> fp_add, aes_round -> fp_mul, sha_round ->
/// fp_mac, sha_schedule -> dp_add, simd_move -> fp_move) in a copy of the core's timing whose
/// latencies/intervals for those classes are the crypto ones: the instructions issue to the
/// core's FP/ASIMD pipes, as they do in the hardware. Everything else (widths, window, integer
/// units, branch predictor, caches) is the board's core.
///
/// The work unit is one block of the algorithm (AES 16 B, DES 8 B, MD5/SHA-1/SHA-256 64 B,
/// SHA-512 128 B) or, for the call paths, one call: instructions per unit =
/// `instructions_per_block + rounds * instructions_per_round` (rounds: AES 10/12/14, DES 16 or
/// 48 for 3DES, hashes 64/80; 0 for the call paths).
#include <map>
#include <string>
#include <vector>

#include "models/cpu/core_model.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct BoardConfig;
struct ClusterConfig;
}  // namespace socsim::soc

namespace socsim::wl::crypto {

/// Dynamic-instruction fractions of a crypto kernel (normalized when generating).
struct CryptoMix {
  double int_alu = 0, int_mul = 0, int64_alu = 0, int64_mul = 0;
  double load = 0, store = 0, load_multi = 0, store_multi = 0, branch = 0;
  double simd = 0, aes_round = 0, sha_round = 0, sha_schedule = 0, simd_move = 0;
  static const params::Schema<CryptoMix>& schema();
};

/// What a kernel needs from the core.
struct KernelInfo {
  std::string name;
  std::string description;
  std::string characterization;  ///< published cycles/byte or instruction counts it follows
  double instructions_per_block =
      0;  ///< per unit, besides the rounds (AArch64 or the kernel's ISA)
  double instructions_per_round = 0;  ///< per round of the algorithm
  /// any | neon | armv8-crypto | aarch32 | aarch64: the core must offer it for the kernel to run
  std::string requires_feature = "any";
  double aarch32_path_factor = 1.0;  ///< path on AArch32 cores relative to the given one (C code)
  int seed = 1;
  int variants = 4;
  int warmup_instructions = 50000;
  int measure_instructions = 200000;
  static const params::Schema<KernelInfo>& schema();
};

struct Kernel {
  std::string file;
  KernelInfo info;
  CryptoMix mix;
  cpu::DependencyParams deps;
  cpu::BranchParams branches;
  cpu::CodeParams code;
  cpu::DataParams data;
  /// Dynamic instructions per unit at `rounds` on a core of ISA `isa`.
  double instructionsPerUnit(int rounds, const std::string& isa) const;
  /// The generator profile of this kernel at `rounds`: classes mapped as in the file comment.
  cpu::WorkloadProfile profile(int rounds) const;
};

/// Timing of the SIMD and crypto-extension instructions on one core type.
struct CoreCryptoTiming {
  std::string core_type;
  bool crypto_extensions = false;  ///< ARMv8 Cryptography Extension (AES, SHA-1, SHA-256)
  int simd_latency_cycles = 3, simd_interval_cycles = 1;
  int aes_round_latency_cycles = 2, aes_round_interval_cycles = 1;
  int sha_round_latency_cycles = 4, sha_round_interval_cycles = 1;
  int sha_schedule_latency_cycles = 3, sha_schedule_interval_cycles = 1;
  int simd_move_latency_cycles = 3;
  static const params::Schema<CoreCryptoTiming>& schema();
  /// `base` with the FP/ASIMD classes carrying the crypto classes' timing.
  models::CoreTimingParams apply(const models::CoreTimingParams& base) const;
};

/// Load one kernel file / every kernel under `dir` (sorted by path), and the core timings.
Kernel loadKernel(const std::string& file);
std::vector<Kernel> loadKernels(const std::string& dir);
CoreCryptoTiming loadCoreCryptoTiming(const std::string& file);
/// Every `*.yaml` under `dir`, by core type.
std::map<std::string, CoreCryptoTiming> loadCoreCryptoTimings(const std::string& dir);

/// True when the core offers what `k` requires.
bool kernelRunsOn(const Kernel& k, const models::CoreParams& core, const CoreCryptoTiming& t);

/// One measured run of a kernel: cycles per unit (block or call) and the core's breakdown.
struct KernelRun {
  double cyclesPerUnit = 0;
  models::CoreRunStats stats;
};

/// Run `k` at `rounds` on the first core of `cluster` over the board's platform.
KernelRun runKernel(RunContext& ctx, const soc::ClusterConfig& cluster, const Kernel& k, int rounds,
                    const CoreCryptoTiming& t);
/// Run on any memory port (tests; no SystemC).
KernelRun runKernelOn(const Kernel& k, int rounds, const models::CoreParams& core,
                      const models::CoreTimingParams& timing, const CoreCryptoTiming& t,
                      models::CoreMemoryPort& mem);

}  // namespace socsim::wl::crypto
