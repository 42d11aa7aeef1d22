#pragma once
/// @file crypto_config.h
/// @brief The data of the crypto workloads: OpenSSL's algorithms and which kernel implements
///        each on which core, the software releases the guides measured (which OpenSSL engine,
///        which buffer sizes), the software stacks' per-call paths, and the crypto engines'
///        presets with their drivers.
///
/// Files (all YAML, every field with a schema, errors name file, line and path):
/// - `configs/workloads/crypto/algorithms.yaml`: `algorithms` (name, op, key_bits, mode,
///   kernels) and `aliases` (names the guides misprint);
/// - `configs/workloads/crypto/releases.yaml`: `releases` (sources = the measured CSV's document
///   ids, sdk, openssl_engine none|cryptodev, speed_sizes) — a release is a set-up fact, decided
///   from the release notes or, where none are given, from the pattern of the guide's numbers
///   (see the file);
/// - `configs/workloads/crypto/stacks/<stack>.yaml`: `crypto_stack` (CryptoStackParams);
/// - `configs/components/crypto_engines/<ip>.yaml`: `engine` (ip, model), the model's params
///   group (`sa2ul` or `omap_crypto`), `linux_driver` and `mcu_driver`.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/params.h"
#include "models/peripherals/crypto_engine.h"
#include "models/peripherals/omap_crypto/omap_crypto_params.h"
#include "models/peripherals/sa2ul/sa2ul_params.h"

namespace socsim::wl::crypto {

/// One `openssl speed -evp` algorithm.
struct AlgorithmSpec {
  std::string name;          ///< OpenSSL's name ("aes-128-cbc", "des3", "sha256")
  std::string op = "aes";    ///< models::CryptoOp name
  int key_bits = 128;        ///< AES key size
  std::string mode = "cbc";  ///< cbc | ecb | digest
  std::string kernels;       ///< comma list of kernel names, first one the core can run
  static const params::Schema<AlgorithmSpec>& schema();

  models::CryptoOp cryptoOp() const;
  /// Name a driver registers for it: "aes-cbc", "aes-ecb", "des-cbc", "des3", "sha256", ...
  std::string engineName() const;
  /// Rounds per block (models::cryptoRounds).
  int rounds() const;
  std::vector<std::string> kernelList() const;
};

struct AlgorithmAlias {
  std::string name, means;
  static const params::Schema<AlgorithmAlias>& schema();
};

/// A software release the guides measured in.
struct ReleaseSpec {
  std::string name;
  std::string sources;  ///< comma list of measured-CSV `source` ids measured with it
  std::string sdk;      ///< matches a board's software.sdk (for rows without a source)
  std::string openssl_engine = "none";  ///< none (OpenSSL's own code) | cryptodev (/dev/crypto)
  std::string speed_sizes = "16,64,256,1024,8192,16384";  ///< `openssl speed` buffer sizes
  double seconds_per_size = 3;  ///< `openssl speed` runs each size this long
  /// IPSec rows that do not say hardware or software: engine (the kernel's crypto API picks the
  /// engine's driver where one offers the algorithm) | software
  std::string ipsec_path = "engine";
  /// Link rate of the IPSec runs, Mbit/s (0: the board port's link_speed_mbps).
  double ipsec_link_mbps = 0;
  /// Engine IPs (comma list) whose Linux driver in this release's kernel ran its own request
  /// queue in the submitting context instead of the crypto_engine kthread its preset's
  /// `linux_driver.request_queue` names (the driver was converted later).
  std::string direct_queue_drivers;
  static const params::Schema<ReleaseSpec>& schema();
  std::vector<std::uint64_t> sizes() const;
  bool hasSource(const std::string& source) const;
  /// True when `ip`'s driver queues directly in this release (direct_queue_drivers).
  bool directQueue(const std::string& ip) const;
};

/// Per-call code paths of a software stack, in instructions run on the core model (profiles
/// named by `user_path_kernel` / `kernel_path_kernel`), plus the costs that are not
/// instructions (waits, cache maintenance).
struct CryptoStackParams {
  std::string stack = "linux";
  std::string user_path_kernel = "openssl-evp-path";     ///< profile of user-space call code
  std::string kernel_path_kernel = "linux-kernel-path";  ///< profile of kernel code
  double evp_cipher_call_instructions = 300;             ///< EVP_Cipher dispatch per call
  double evp_digest_call_instructions = 1500;    ///< EVP_Digest: ctx, init, update, final, free
  double cryptodev_cipher_instructions = 4000;   ///< /dev/crypto CIOCCRYPT for a cipher
  double cryptodev_digest_instructions = 15000;  ///< session, update, final, free for a digest
  /// ioctl system calls per buffer (each one the stack's trap path, software.kernel_paths)
  double cryptodev_cipher_ioctls = 1;  ///< CIOCCRYPT (OpenSSL engines/e_devcrypto.c)
  double cryptodev_digest_ioctls = 4;  ///< CIOCGSESSION, CIOCCRYPT update, final, CIOCFSESSION
  double driver_submit_instructions = 3000;      ///< crypto engine queue, DMA map, descriptors
  double driver_complete_instructions = 1500;    ///< DMA completion, unmap, callback (no IRQ entry)
  double esp_packet_instructions = 3000;  ///< IPSec: xfrm + esp_output + AEAD request per packet
  double cache_maintenance_cycles_per_line = 8;  ///< clean/invalidate of one 64-byte line
  double wakeup_latency_us = 5;  ///< idle exit: completion interrupt to its handler running
  // MCU+ (no RTOS) driver on the MCU core
  double mcu_request_instructions = 4000;      ///< SA2UL driver per cipher/hash request
  double mcu_context_alloc_instructions = 0;   ///< SA2UL_contextAlloc per test operation
  double mcu_digest_test_requests = 1;         ///< SA2UL_contextProcess calls per SHA test op
  double mcu_pka_request_instructions = 3000;  ///< PKA driver per operation
  double rsa_encrypt_message_bytes = 32;       ///< message size of the RSA encryption test
  static const params::Schema<CryptoStackParams>& schema();
};

/// What a crypto engine's driver does (Linux kernel driver or MCU+ driver).
struct CryptoDriverParams {
  std::string algorithms;  ///< engine names the driver offers ("aes-cbc, aes-ecb, sha256")
  std::string digest_path = "hardware";       ///< hardware | fallback (cryptodev update/final)
  /// direct | crypto_engine (the request is handed to the crypto_engine kthread)
  std::string request_queue = "direct";
  double fallback_below_bytes = 0;            ///< requests shorter than this run in software
  /// The driver's update buffer: a hardware digest longer than this runs as two requests, an
  /// update (all but the last block) and a final (the kept block); 0 = one request.
  double digest_buffer_bytes = 0;
  double completion_interrupts = 1;  ///< interrupts the host takes per request
  double register_accesses = 20;              ///< MMIO accesses per request by the host
  double register_access_ns = 100;            ///< one MMIO access over the interconnect
  double poll_fraction = 0;                   ///< share of the engine time the host spends busy
  double pka_register_accesses_per_word = 1;  ///< PKA operand transfer, per 32-bit word
  /// The driver's submit and completion code (the stack's driver_submit_instructions and
  /// driver_complete_instructions) relative to the stack's reference path, an OMAP driver over
  /// the EDMA (ratio; the driver's preset says where its value comes from).
  double path_factor = 1;
  /// The driver holds the engine from a request's start to its completion callback (one
  /// request in flight: its set-up, the completion interrupts and callback are the engine's
  /// occupancy too); otherwise requests queue in the DMA rings and only the hardware time
  /// occupies the engine.
  bool one_request_at_a_time = false;
  static const params::Schema<CryptoDriverParams>& schema();
  bool offers(const std::string& engineName) const;
};

/// One crypto engine IP: its model and drivers.
struct EnginePreset {
  std::string file;
  std::string ip;
  std::string model;  ///< sa2ul | omap_crypto
  models::Sa2ulParams sa2ul;
  models::OmapCryptoParams omap;
  CryptoDriverParams linuxDriver, mcuDriver;
};

/// Everything loaded once.
struct CryptoData {
  std::vector<AlgorithmSpec> algorithms;
  std::vector<AlgorithmAlias> aliases;
  std::vector<ReleaseSpec> releases;
  std::map<std::string, CryptoStackParams> stacks;  ///< by stack name
  std::map<std::string, EnginePreset> engines;      ///< by ip

  const AlgorithmSpec* algorithm(const std::string& name) const;  ///< aliases resolved
  /// The release of a row: by its source, else by the board's SDK, else the one named "default".
  const ReleaseSpec& release(const std::string& source, const std::string& sdk) const;
};

/// Load from `dir` (configs/workloads/crypto) and `enginesDir` (configs/components/crypto_engines).
CryptoData loadCryptoData(const std::string& dir, const std::string& enginesDir);
std::string defaultCryptoDir();
std::string defaultEnginesDir();

/// `key=value;...` -> map (the measured CSV's params).
std::map<std::string, std::string> parseParams(const std::string& params);

}  // namespace socsim::wl::crypto
