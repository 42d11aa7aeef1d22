#pragma once
/// @file omap_crypto.h
/// @brief OmapCrypto: timing model of one OMAP-family crypto module (AES, DES/3DES or SHA/MD5
///        "SHAM") on AM335x / AM437x / AM57xx, fed through its FIFO by the system DMA.
///
/// Models, per request: the DMA channel start, the context (key, IV, mode, length) load, the
/// data streamed in `dma_burst_bytes` bursts of `dma_burst_cycles` each (in and out for the
/// ciphers, in only for the hashes), the core's rounds per block, overlapped with the DMA (the
/// FIFO holds one burst ahead), and the completion. Which operations one instance implements is
/// the driver's and the preset's business (a module is AES-only, DES-only or hash-only).
/// Does not model: the modules' PIO (polling) mode, the sDMA/EDMA queues shared with other
/// peripherals, the interconnect beyond the burst cost. A plain timing class (see sa2ul.h).
#include "models/peripherals/crypto_engine.h"
#include "models/peripherals/omap_crypto/omap_crypto_params.h"

namespace socsim::models {

class OmapCrypto {
 public:
  explicit OmapCrypto(const OmapCryptoParams& p);
  const OmapCryptoParams& params() const { return p_; }
  double cycleSeconds() const { return 1e-6 / p_.clock_mhz; }

  /// Core cycles per block (chained: every block after the previous).
  double coreCyclesPerBlock(const CryptoRequest& r) const;
  /// DMA cycles per block (bursts in, and out for ciphers).
  double dmaCyclesPerBlock(const CryptoRequest& r) const;
  /// Peak streaming rate, bytes/s: the slower of core and DMA.
  double peakBytesPerSecond(const CryptoRequest& r) const;
  CryptoTiming request(const CryptoRequest& r) const;

 private:
  OmapCryptoParams p_;
};

}  // namespace socsim::models
