#include "models/peripherals/sa2ul/sa2ul.h"

#include <algorithm>
#include <cmath>

namespace socsim::models {

// ---- Sa2ul --------------------------------------------------------------------------------

Sa2ul::Sa2ul(const Sa2ulParams& p) : p_(p) {
  p_.clock_mhz = std::max(1e-3, p_.clock_mhz);
  p_.dma_bytes_per_cycle = std::max(1e-3, p_.dma_bytes_per_cycle);
  p_.pka_macs_per_cycle = std::max(1e-6, p_.pka_macs_per_cycle);
  p_.pka_word_bits = std::max(1, p_.pka_word_bits);
  p_.aes_pipeline_blocks = std::max(1, p_.aes_pipeline_blocks);
}

bool Sa2ul::supports(CryptoOp) const {
  return true;
}

double Sa2ul::coreCyclesPerBlock(const CryptoRequest& r) const {
  const int rounds = cryptoRounds(r.op, r.keyBits);
  switch (r.op) {
    case CryptoOp::Aes: {
      const double c = rounds * p_.aes_round_cycles + p_.aes_block_cycles;
      return r.chained ? c + p_.aes_chain_cycles : c / p_.aes_pipeline_blocks;
    }
    case CryptoOp::Des:
    case CryptoOp::Des3:
      return rounds * p_.des_round_cycles + p_.des_block_cycles;
    default:
      return rounds * p_.hash_round_cycles + p_.hash_block_cycles;
  }
}

double Sa2ul::peakBytesPerSecond(const CryptoRequest& r) const {
  const double block = cryptoBlockBytes(r.op);
  const double core = coreCyclesPerBlock(r);
  const double dma = block / p_.dma_bytes_per_cycle;
  return block / (std::max(core, dma) * cycleSeconds());
}

CryptoTiming Sa2ul::request(const CryptoRequest& r, const DmaFn& dma) const {
  CryptoTiming t;
  const double cyc = cycleSeconds();
  const double block = cryptoBlockBytes(r.op);
  const std::uint64_t blocks = cryptoBlocks(r.op, r.bytes);
  const std::uint64_t outBytes = isDigest(r.op) ? 64 : r.bytes;  // digest + state write-back
  const double stream = p_.dma_bytes_per_cycle / cyc;            // bytes/s of the PSI-L path
  t.setupSeconds = p_.context_fetch_cycles * cyc;
  t.inputSeconds = block / stream;
  const double core = static_cast<double>(blocks) * coreCyclesPerBlock(r) * cyc;
  double in = static_cast<double>(r.bytes) / stream;
  double out = static_cast<double>(outBytes) / stream;
  if (dma) {
    // Through the memory system: the engine cannot stream faster than the DMA brings data.
    const double start = t.setupSeconds;
    in = std::max(in, dma(false, r.bytes, start) - start);
    out = std::max(out, dma(true, outBytes, start) - start);
  }
  t.engineBusySeconds = core;
  t.processSeconds = std::max({core, in - t.inputSeconds, out});
  t.completionSeconds = std::min(out, block / stream) + p_.completion_cycles * cyc;
  return t;
}

int Sa2ul::pkaWords(int bits) const {
  return (bits + p_.pka_word_bits - 1) / p_.pka_word_bits;
}

double Sa2ul::modmulCycles(int modulusBits) const {
  const double s = pkaWords(modulusBits);
  return p_.pka_modmul_overhead_cycles + (2 * s * s + s) / p_.pka_macs_per_cycle;
}

double Sa2ul::modexpModmuls(int exponentBits) const {
  const int w = std::max(1, p_.rsa_window_bits);
  return exponentBits + static_cast<double>(exponentBits) / (w + 1) + std::ldexp(1.0, w - 1);
}

double Sa2ul::pkaSeconds(double modmuls, int modulusBits, int operations) const {
  return (modmuls * modmulCycles(modulusBits) +
          static_cast<double>(operations) * p_.pka_operation_overhead_cycles) *
         cycleSeconds();
}

double Sa2ul::rsaPrivateSeconds(int keyBits) const {
  const int half = keyBits / 2;
  // Two half-size exponentiations, then Garner's recombination (about two full-size products).
  return 2 * pkaSeconds(modexpModmuls(half), half, 1) + pkaSeconds(2, keyBits, 1);
}

double Sa2ul::rsaPublicSeconds(int keyBits) const {
  return pkaSeconds(17, keyBits, 1);  // e = 65537: 16 squarings + 1 multiplication
}

double Sa2ul::ecScalarMultModmuls(int curveBits) const {
  return curveBits * p_.ecc_double_modmuls + curveBits / 3.0 * p_.ecc_add_modmuls;
}

double Sa2ul::ecdsaSignSeconds(int curveBits) const {
  // k*G, then r = x(kG) (one inversion mod p to leave Jacobian coordinates), s = k^-1 (e + r d)
  // (one inversion mod n and two products). Fermat inversion: n squarings + n/2 products.
  const double inversion = 1.5 * curveBits;
  const double mm = ecScalarMultModmuls(curveBits) + 2 * inversion + 3 + 2;
  return pkaSeconds(mm, curveBits, 3);
}

double Sa2ul::ecdsaVerifySeconds(int curveBits) const {
  // w = s^-1 mod n, u1 = e w, u2 = r w; u1*G + u2*Q with Shamir's trick (n doublings and n/2
  // additions on a joint sparse form), back to affine (one inversion mod p).
  const double inversion = 1.5 * curveBits;
  const double mm = curveBits * p_.ecc_double_modmuls + curveBits / 2.0 * p_.ecc_add_modmuls +
                    2 * inversion + 2 + 3;
  return pkaSeconds(mm, curveBits, 4);
}

double Sa2ul::trngSeconds(std::uint64_t bytes) const {
  return static_cast<double>(bytes) / std::max(1.0, p_.trng_bytes_per_second);
}

}  // namespace socsim::models
