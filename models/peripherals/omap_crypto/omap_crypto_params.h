#pragma once
/// @file omap_crypto_params.h
/// @brief Parameters of the OMAP-family crypto modules (OmapCrypto): the AES, DES/3DES and
///        SHA/MD5 ("SHAM") accelerators of AM335x, AM437x and AM57xx/DRA7, each a slave on the
///        L4 interconnect fed by the system DMA (EDMA on AM335x, sDMA on AM57xx) through its
///        FIFO, one burst per DMA request.
///
/// Scoped to the IP (DESIGN.md rule 2); presets in `configs/components/crypto_engines/`
/// (omap_aes.yaml, omap_des.yaml, omap_sham.yaml). The board's peripheral entry gives the module
/// clock. Fields whose source starts with "calibrated" are free parameters (issue 9).
#include "common/params.h"

namespace socsim::models {

struct OmapCryptoParams {
  double clock_mhz = 100;  ///< module (L4 interface) clock; the board's peripheral fact wins

  // ---- cores ----
  int aes_round_cycles = 1;  ///< AES core cycles per round
  int aes_block_cycles = 4;  ///< per block besides the rounds
  int des_round_cycles = 1;  ///< DES core cycles per round (3DES: 48 rounds)
  int des_block_cycles = 4;
  int hash_round_cycles = 1;  ///< MD5 / SHA-1 / SHA-2 cycles per round
  int hash_block_cycles = 8;

  // ---- DMA through the module FIFO ----
  int dma_burst_bytes = 16;      ///< bytes moved per DMA request (the FIFO threshold)
  int dma_burst_cycles = 24;     ///< cycles per burst: request handshake + L3/L4 transfer
  int dma_setup_cycles = 200;    ///< channel start: parameter set load, first request
  int context_load_cycles = 40;  ///< key / IV / mode / length registers written by the engine
  int completion_cycles = 40;    ///< output drained, interrupt raised

  static const params::Schema<OmapCryptoParams>& schema();
};

inline const params::Schema<OmapCryptoParams>& OmapCryptoParams::schema() {
  using P = OmapCryptoParams;
  static const auto s =
      params::Schema<P>("omap_crypto")
          .real("clock_mhz", &P::clock_mhz, "MHz", 1, 2000,
                "module interface clock (overridden by the board's peripheral clock_mhz)",
                "AM335x TRM (SPRUH73) / AM57xx TRM (SPRUHZ6) L4 clock (background knowledge: "
                "unverified)")
          .integer("aes_round_cycles", &P::aes_round_cycles, "cycles", 1, 64,
                   "AES core cycles per round", "calibrated: initial guess (one round per cycle)")
          .integer("aes_block_cycles", &P::aes_block_cycles, "cycles", 0, 256,
                   "AES core cycles per block besides the rounds", "calibrated: initial guess")
          .integer("des_round_cycles", &P::des_round_cycles, "cycles", 1, 64,
                   "DES core cycles per round", "calibrated: initial guess (one round per cycle)")
          .integer("des_block_cycles", &P::des_block_cycles, "cycles", 0, 256,
                   "DES core cycles per block besides the rounds", "calibrated: initial guess")
          .integer("hash_round_cycles", &P::hash_round_cycles, "cycles", 1, 64,
                   "hash core cycles per round", "calibrated: initial guess (one round per cycle)")
          .integer("hash_block_cycles", &P::hash_block_cycles, "cycles", 0, 1024,
                   "hash core cycles per block besides the rounds", "calibrated: initial guess")
          .integer("dma_burst_bytes", &P::dma_burst_bytes, "bytes", 4, 4096,
                   "bytes per DMA request (the module's FIFO threshold)",
                   "OMAP AES/DES/SHAM: 4-word (AES/DES) and 16-word (SHAM) DMA requests "
                   "(background knowledge: unverified)")
          .integer("dma_burst_cycles", &P::dma_burst_cycles, "cycles", 1, 100000,
                   "module cycles per DMA burst (request handshake, L3/L4 transfer)",
                   "calibrated: initial guess")
          .integer("dma_setup_cycles", &P::dma_setup_cycles, "cycles", 0, 1000000,
                   "DMA channel start per request", "calibrated: initial guess")
          .integer("context_load_cycles", &P::context_load_cycles, "cycles", 0, 100000,
                   "engine cycles to take key, IV, mode and length", "calibrated: initial guess")
          .integer("completion_cycles", &P::completion_cycles, "cycles", 0, 100000,
                   "output drain and interrupt per request", "calibrated: initial guess");
  return s;
}

}  // namespace socsim::models
