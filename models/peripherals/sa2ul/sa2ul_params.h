#pragma once
/// @file sa2ul_params.h
/// @brief Parameters of the K3 SA2UL / SA3UL security accelerator model (Sa2ul): the engine
///        clock, the AES/DES and hash cores' cycles per round, the request set-up and completion,
///        the engine's packet DMA, the PKA (public-key accelerator) and the TRNG.
///
/// Scoped to the IP (DESIGN.md rule 2): every board with an SA2UL shares these values; a
/// board's peripheral entry gives only the facts (instance, functional clock). Presets:
/// `configs/components/crypto_engines/sa2ul.yaml` (and sa3ul.yaml for the AM62x/J722S variant).
/// Fields whose source starts with "calibrated" are free parameters (issue 9).
#include "common/params.h"

namespace socsim::models {

struct Sa2ulParams {
  double clock_mhz = 250;  ///< engine functional clock (the board's peripheral fact wins)

  // ---- request ----
  int context_fetch_cycles = 96;  ///< descriptor + security-context fetch and parse
  int completion_cycles = 64;     ///< result/descriptor write-back and completion event

  // ---- cipher and hash cores ----
  int aes_round_cycles = 1;     ///< AES core cycles per round
  int aes_block_cycles = 4;     ///< per block: state load/unload, last-round XOR
  int aes_chain_cycles = 4;     ///< per chained block (CBC encryption): feedback XOR and refill
  int aes_pipeline_blocks = 1;  ///< blocks in flight when blocks are independent (ECB, CBC-dec)
  int des_round_cycles = 1;     ///< DES core cycles per round (3DES: 48 rounds)
  int des_block_cycles = 4;     ///< per block: IP/FP permutation, load/unload
  int hash_round_cycles = 1;    ///< MD5 / SHA-1 / SHA-2 core cycles per round
  int hash_block_cycles = 8;    ///< per block: message load, final state addition

  // ---- packet DMA (PSI-L streaming between the DMA and the engine) ----
  double dma_bytes_per_cycle = 16;  ///< streaming width at the engine clock, each direction
  int dma_burst_bytes = 64;         ///< burst size on the memory side
  int dma_outstanding = 4;          ///< bursts in flight on the memory side

  // ---- PKA (modular arithmetic for RSA / ECC) ----
  int pka_word_bits = 64;                    ///< multiplier word width
  double pka_macs_per_cycle = 1;             ///< word x word multiply-accumulates per cycle
  int pka_modmul_overhead_cycles = 40;       ///< sequencer cycles per modular multiplication
  int pka_operation_overhead_cycles = 2000;  ///< operand load/unload per PKA operation
  int rsa_window_bits = 4;                   ///< sliding-window exponentiation width
  double ecc_double_modmuls = 8;             ///< modular multiplications per point doubling
  double ecc_add_modmuls = 11;               ///< per point addition (mixed Jacobian-affine)

  // ---- TRNG ----
  double trng_bytes_per_second = 1e6;  ///< random bytes the TRNG delivers per second

  static const params::Schema<Sa2ulParams>& schema();
};

inline const params::Schema<Sa2ulParams>& Sa2ulParams::schema() {
  using P = Sa2ulParams;
  static const auto s =
      params::Schema<P>("sa2ul")
          .real("clock_mhz", &P::clock_mhz, "MHz", 1, 2000,
                "engine functional clock (overridden by the board's peripheral clock_mhz)",
                "AM64x TRM (SPRUIM2) SA2UL clocking (background knowledge: unverified)")
          .integer("context_fetch_cycles", &P::context_fetch_cycles, "cycles", 0, 100000,
                   "descriptor and security-context fetch and parse per request",
                   "calibrated: initial guess (a 128-byte context read over the packet DMA)")
          .integer("completion_cycles", &P::completion_cycles, "cycles", 0, 100000,
                   "result and descriptor write-back, completion event per request",
                   "calibrated: initial guess")
          .integer("aes_round_cycles", &P::aes_round_cycles, "cycles", 1, 64,
                   "AES core cycles per round",
                   "calibrated: initial guess (an iterative 128-bit datapath: one round per cycle)")
          .integer("aes_block_cycles", &P::aes_block_cycles, "cycles", 0, 256,
                   "AES core cycles per block besides the rounds (state load/unload)",
                   "calibrated: initial guess")
          .integer("aes_chain_cycles", &P::aes_chain_cycles, "cycles", 0, 256,
                   "extra AES core cycles per block when each block needs the previous one's "
                   "output (CBC encryption): the feedback XOR and the round pipeline's refill",
                   "calibrated: initial guess (the AM64x MCU+ tables show CBC decryption only "
                   "~15-25 % faster than encryption at 32 KiB: a refill, not a second datapath)")
          .integer("aes_pipeline_blocks", &P::aes_pipeline_blocks, "count", 1, 16,
                   "blocks the AES core overlaps when they are independent (ECB, CBC decryption)",
                   "calibrated: initial guess (one iterative datapath: the AM64x MCU+ CBC "
                   "decryption is not ~2x its encryption, and openssl's ECB and CBC encryption "
                   "run at the same rate on the J7 SA2UL)")
          .integer("des_round_cycles", &P::des_round_cycles, "cycles", 1, 64,
                   "DES core cycles per round", "calibrated: initial guess (one round per cycle)")
          .integer("des_block_cycles", &P::des_block_cycles, "cycles", 0, 256,
                   "DES core cycles per block besides the rounds", "calibrated: initial guess")
          .integer("hash_round_cycles", &P::hash_round_cycles, "cycles", 1, 64,
                   "hash core cycles per round (MD5, SHA-1, SHA-2)",
                   "calibrated: initial guess (one round per cycle)")
          .integer("hash_block_cycles", &P::hash_block_cycles, "cycles", 0, 1024,
                   "hash core cycles per block besides the rounds (message load, final addition)",
                   "calibrated: initial guess")
          .real("dma_bytes_per_cycle", &P::dma_bytes_per_cycle, "bytes", 0.5, 256,
                "packet-DMA streaming bytes per engine cycle, each direction",
                "calibrated: initial guess (128-bit PSI-L streaming interface)")
          .integer("dma_burst_bytes", &P::dma_burst_bytes, "bytes", 4, 4096,
                   "memory-side DMA burst", "K3 UDMA/PKTDMA burst size (background knowledge)")
          .integer("dma_outstanding", &P::dma_outstanding, "count", 1, 64,
                   "memory-side DMA bursts in flight", "calibrated: initial guess")
          .integer("pka_word_bits", &P::pka_word_bits, "bits", 8, 512, "PKA multiplier word width",
                   "calibrated: initial guess")
          .real("pka_macs_per_cycle", &P::pka_macs_per_cycle, "count", 0.01, 64,
                "PKA word-by-word multiply-accumulates per cycle", "calibrated: initial guess")
          .integer("pka_modmul_overhead_cycles", &P::pka_modmul_overhead_cycles, "cycles", 0,
                   100000, "PKA sequencer cycles per modular multiplication",
                   "calibrated: initial guess")
          .integer("pka_operation_overhead_cycles", &P::pka_operation_overhead_cycles, "cycles", 0,
                   10000000, "operand load and result unload per PKA operation",
                   "calibrated: initial guess")
          .integer("rsa_window_bits", &P::rsa_window_bits, "bits", 1, 8,
                   "sliding-window width of the modular exponentiation",
                   "calibrated: initial guess (4-bit windows, a common PKA firmware choice)")
          .real("ecc_double_modmuls", &P::ecc_double_modmuls, "count", 1, 64,
                "modular multiplications per elliptic-curve point doubling",
                "Jacobian coordinates: 4M + 4S (Hankerson, Menezes, Vanstone, 'Guide to Elliptic "
                "Curve Cryptography', 2004, §3.2)")
          .real("ecc_add_modmuls", &P::ecc_add_modmuls, "count", 1, 64,
                "modular multiplications per point addition",
                "mixed Jacobian-affine addition: 8M + 3S (Hankerson et al. 2004, §3.2)")
          .real("trng_bytes_per_second", &P::trng_bytes_per_second, "bytes/s", 1e3, 1e10,
                "random bytes per second from the TRNG", "calibrated: initial guess");
  return s;
}

}  // namespace socsim::models
