#pragma once
/// @file crypto_engine.h
/// @brief What a hardware crypto engine is asked to do and what one request costs: the common
///        vocabulary of the engine models (models/peripherals/sa2ul,
///        models/peripherals/omap_crypto).
///
/// A request is one buffer through one algorithm (a cipher pass or a hash over the whole buffer,
/// padding included), as a driver submits it. The engine models turn it into seconds: the
/// engine's set-up (descriptor / context fetch, key load), the data moved in and out by the
/// engine's DMA, the processing in the engine's core, and the completion (result write-back,
/// interrupt raised). Driver work on the host core is not here: the workloads run it on the
/// core model.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace socsim::models {

/// The algorithm families crypto engines implement.
enum class CryptoOp : std::uint8_t { Aes, Des, Des3, Md5, Sha1, Sha224, Sha256, Sha384, Sha512 };

/// Stable name ("aes", "des3", "sha256", ...).
const char* cryptoOpName(CryptoOp op);
/// Inverse of cryptoOpName.
std::optional<CryptoOp> cryptoOpFromName(const std::string& name);
/// True for the hash functions.
inline bool isDigest(CryptoOp op) {
  return op >= CryptoOp::Md5;
}
/// Bytes per block of the algorithm (AES 16, DES 8, MD5/SHA-1/SHA-256 64, SHA-384/512 128).
int cryptoBlockBytes(CryptoOp op);
/// Rounds per block: AES 10/12/14 by key size, DES 16, 3DES 48, MD5 64, SHA-1 80, SHA-256 64,
/// SHA-512 80 (algorithm definitions: FIPS 197, FIPS 46-3, RFC 1321, FIPS 180-4).
int cryptoRounds(CryptoOp op, int keyBits);
/// Blocks a hash processes for a message of `bytes` (Merkle-Damgard padding: a 0x80 byte and
/// an 8-byte length field, 16 bytes for SHA-384/512; FIPS 180-4 §5.1), or the cipher blocks.
std::uint64_t cryptoBlocks(CryptoOp op, std::uint64_t bytes);

struct CryptoRequest {
  CryptoOp op = CryptoOp::Aes;
  int keyBits = 128;        ///< AES key size (ignored otherwise)
  bool chained = true;      ///< block i needs block i-1's output (CBC encryption, hashes)
  bool decrypt = false;     ///< cipher direction
  std::uint64_t bytes = 0;  ///< message bytes
};

/// Seconds one request spends in the engine, by phase; `total()` is the latency from the
/// driver's doorbell to the completion being visible to the host.
struct CryptoTiming {
  double setupSeconds = 0;       ///< descriptor/context fetch, key and IV load
  double inputSeconds = 0;       ///< DMA of the first block in (pipeline fill)
  double processSeconds = 0;     ///< streaming: max(engine core, DMA) over the blocks
  double completionSeconds = 0;  ///< last block out, result/descriptor write-back, interrupt
  double engineBusySeconds = 0;  ///< time the engine's core computes (<= processSeconds)
  double total() const { return setupSeconds + inputSeconds + processSeconds + completionSeconds; }
  /// (part, seconds) for `socsim explain`.
  std::vector<std::pair<std::string, double>> parts(const std::string& prefix) const;
};

}  // namespace socsim::models
