#pragma once
/// @file sa2ul.h
/// @brief Sa2ul: timing model of the K3 SA2UL security accelerator (and the SA3UL variant by
///        preset) — the cipher/hash engine fed by the packet DMA, the PKA and the TRNG.
///
/// Models, per request (one buffer through one algorithm, as a driver submits it):
/// - set-up: descriptor and security-context fetch (`context_fetch_cycles`);
/// - the cipher/hash core: rounds per block x `*_round_cycles` + `*_block_cycles`; blocks that
///   do not depend on each other (ECB, CBC decryption) overlap `aes_pipeline_blocks` deep,
///   chained AES blocks (CBC encryption) also pay `aes_chain_cycles` (the feedback), every
///   hash block runs after the previous one; hashes process the padded
///   message (FIPS 180-4 padding: cryptoBlocks);
/// - the engine's DMA in and out: either through the platform's memory system (a DmaFn supplied
///   by the caller, e.g. a models::DmaPort job) or, when none is given, streaming at
///   `dma_bytes_per_cycle`; data streams through the core, so the time is the first block in
///   (fill) + max(core, DMA in, DMA out) + the last block out and the completion;
/// - the PKA as a count of modular multiplications of a given operand width (Montgomery:
///   2s^2 + s word multiply-accumulates for s words) — RSA with CRT and sliding windows, ECDSA
///   with Jacobian point arithmetic and Fermat inversions;
/// - the TRNG as a byte rate.
/// Does not model: several requests in flight (the engine's queues), context caching between
/// requests, the authentication (AEAD) combined modes, side-channel countermeasures in the PKA,
/// the TRNG's start-up. It is a plain timing class, not a SystemC module: the platform does not
/// host crypto engines yet, and the drivers' host-side work is run on the core model by the
/// workloads.
#include <cstdint>
#include <functional>

#include "models/peripherals/crypto_engine.h"
#include "models/peripherals/sa2ul/sa2ul_params.h"

namespace socsim::models {

class Sa2ul {
 public:
  /// Moves `bytes` between memory and the engine (write = engine -> memory) starting at
  /// `atSeconds` (from the request's start); returns when the last byte has moved (seconds).
  using DmaFn = std::function<double(bool write, std::uint64_t bytes, double atSeconds)>;

  explicit Sa2ul(const Sa2ulParams& p);
  const Sa2ulParams& params() const { return p_; }
  double cycleSeconds() const { return 1e-6 / p_.clock_mhz; }

  /// True when the engine implements `op` (SA2UL: AES, DES/3DES, MD5, SHA-1, SHA-2).
  bool supports(CryptoOp op) const;
  /// Core cycles per block in steady state (after the overlap of independent blocks).
  double coreCyclesPerBlock(const CryptoRequest& r) const;
  /// Peak streaming rate of `r`'s algorithm, bytes per second: the slower of the core and the
  /// streaming DMA (no set-up, no fill).
  double peakBytesPerSecond(const CryptoRequest& r) const;
  /// One request. `dma` empty = the streaming DMA at `dma_bytes_per_cycle`.
  CryptoTiming request(const CryptoRequest& r, const DmaFn& dma = {}) const;

  // ---- PKA ----
  /// Words of `bits` in the multiplier width.
  int pkaWords(int bits) const;
  /// Cycles of one Montgomery modular multiplication with a `modulusBits` modulus.
  double modmulCycles(int modulusBits) const;
  /// Modular multiplications of a sliding-window exponentiation with an `exponentBits` exponent.
  double modexpModmuls(int exponentBits) const;
  /// RSA private-key operation (sign, decrypt) with the CRT: two half-size exponentiations and
  /// the recombination. Seconds.
  double rsaPrivateSeconds(int keyBits) const;
  /// RSA public-key operation (verify, encrypt) with e = 65537 (17 modular multiplications).
  double rsaPublicSeconds(int keyBits) const;
  /// Modular multiplications of one n-bit scalar multiplication (double-and-add over a
  /// width-2 NAF: n doublings, n/3 additions).
  double ecScalarMultModmuls(int curveBits) const;
  double ecdsaSignSeconds(int curveBits) const;
  /// Verify: Shamir's trick u1*G + u2*Q (n doublings, n/2 additions) and two inversions.
  double ecdsaVerifySeconds(int curveBits) const;
  /// Seconds for the TRNG to deliver `bytes`.
  double trngSeconds(std::uint64_t bytes) const;

 private:
  double pkaSeconds(double modmuls, int modulusBits, int operations) const;
  Sa2ulParams p_;
};

}  // namespace socsim::models
