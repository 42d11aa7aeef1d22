#include "models/peripherals/omap_crypto/omap_crypto.h"

#include <algorithm>

namespace socsim::models {

OmapCrypto::OmapCrypto(const OmapCryptoParams& p) : p_(p) {
  p_.clock_mhz = std::max(1e-3, p_.clock_mhz);
  p_.dma_burst_bytes = std::max(1, p_.dma_burst_bytes);
}

double OmapCrypto::coreCyclesPerBlock(const CryptoRequest& r) const {
  const int rounds = cryptoRounds(r.op, r.keyBits);
  switch (r.op) {
    case CryptoOp::Aes:
      return rounds * p_.aes_round_cycles + p_.aes_block_cycles;
    case CryptoOp::Des:
    case CryptoOp::Des3:
      return rounds * p_.des_round_cycles + p_.des_block_cycles;
    default:
      return rounds * p_.hash_round_cycles + p_.hash_block_cycles;
  }
}

double OmapCrypto::dmaCyclesPerBlock(const CryptoRequest& r) const {
  const double bursts = static_cast<double>(cryptoBlockBytes(r.op)) / p_.dma_burst_bytes;
  return bursts * p_.dma_burst_cycles * (isDigest(r.op) ? 1 : 2);
}

double OmapCrypto::peakBytesPerSecond(const CryptoRequest& r) const {
  const double perBlock = std::max(coreCyclesPerBlock(r), dmaCyclesPerBlock(r));
  return cryptoBlockBytes(r.op) / (perBlock * cycleSeconds());
}

CryptoTiming OmapCrypto::request(const CryptoRequest& r) const {
  CryptoTiming t;
  const double cyc = cycleSeconds();
  const double blocks = static_cast<double>(cryptoBlocks(r.op, r.bytes));
  const double core = coreCyclesPerBlock(r), dma = dmaCyclesPerBlock(r);
  t.setupSeconds = (p_.dma_setup_cycles + p_.context_load_cycles) * cyc;
  t.inputSeconds = dma / (isDigest(r.op) ? 1 : 2) * cyc;  // first block into the FIFO
  t.processSeconds = blocks * std::max(core, dma) * cyc;
  t.engineBusySeconds = blocks * core * cyc;
  // Ciphers drain the last block out of the FIFO; hashes only raise the interrupt.
  t.completionSeconds = ((isDigest(r.op) ? 0 : dma / 2) + p_.completion_cycles) * cyc;
  return t;
}

}  // namespace socsim::models
