#include "common/paths.h"
#include "workloads/crypto/crypto_config.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"

namespace fs = std::filesystem;

namespace socsim::wl::crypto {

namespace {

constexpr const char* kStack =
    "calibrated: software-stack scoped, initial guess from the code path's size";
constexpr const char* kDriver = "calibrated: driver scoped, initial guess";

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
    cur.clear();
  };
  for (char c : s) {
    if (c == ',')
      flush();
    else
      cur += c;
  }
  flush();
  return out;
}

template <class T>
std::vector<T> readList(const config::Node& root, const char* key, const std::string& file,
                        bool required) {
  std::vector<T> out;
  const config::Node* n = root.find(key);
  if (!n) {
    if (required) throw InputError(file, root.line, key, std::string("missing list '") + key + "'");
    return out;
  }
  if (!n->isSeq())
    throw InputError(n->file, n->line, key,
                     std::string("expected a list of groups, got a ") + n->typeName());
  config::Sources src;
  for (size_t i = 0; i < n->seq.size(); ++i) {
    T t;
    std::string path = std::string(key) + "[" + std::to_string(i) + "]";
    config::readGroup(T::schema(), t, n->seq[i], path, file + " " + path, src);
    out.push_back(std::move(t));
  }
  return out;
}

template <class T>
void readGroupOf(const config::Node& root, const char* key, T& obj, const std::string& file,
                 bool required) {
  const config::Node* g = root.find(key);
  if (!g) {
    if (required)
      throw InputError(file, root.line, key, std::string("missing group '") + key + "'");
    return;
  }
  config::Sources src;
  config::readGroup(T::schema(), obj, *g, key, file, src);
}

void onlyKeys(const config::Node& root, const std::vector<std::string>& keys,
              const std::string& file) {
  if (!root.isMap()) throw InputError(file, root.line, "", "expected a map of groups");
  for (const auto& [k, v] : root.map)
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      throw InputError(v.file, v.line, k,
                       "unknown group '" + k + "'" + config::suggestion(k, keys));
}

config::Node parse(const std::string& file) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  return root;
}

std::vector<std::string> yamlFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, "", "folder not found");
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

// ---- schemas ------------------------------------------------------------------------------

const params::Schema<AlgorithmSpec>& AlgorithmSpec::schema() {
  using P = AlgorithmSpec;
  static const auto s =
      params::Schema<P>("openssl_algorithm")
          .text("name", &P::name, "OpenSSL algorithm name as `openssl speed -evp` takes it",
                "OpenSSL documentation")
          .required()
          .choice("op", &P::op,
                  {"aes", "des", "des3", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"},
                  "algorithm family", "FIPS 197 / 46-3 / 180-4, RFC 1321")
          .required()
          .integer("key_bits", &P::key_bits, "bits", 0, 512, "AES key size",
                   "OpenSSL algorithm name")
          .choice("mode", &P::mode, {"cbc", "ecb", "digest"}, "block-cipher mode or digest",
                  "OpenSSL algorithm name")
          .text("kernels", &P::kernels,
                "implementations in order of preference (comma list of kernel names); the first "
                "the core can run is used",
                "OpenSSL / Linux crypto sources: which code runs on which core");
  return s;
}

const params::Schema<AlgorithmAlias>& AlgorithmAlias::schema() {
  using P = AlgorithmAlias;
  static const auto s = params::Schema<P>("algorithm_alias")
                            .text("name", &P::name, "name as a guide prints it", "the guides")
                            .required()
                            .text("means", &P::means, "the algorithm it stands for", "the guides")
                            .required();
  return s;
}

const params::Schema<ReleaseSpec>& ReleaseSpec::schema() {
  using P = ReleaseSpec;
  static const auto s =
      params::Schema<P>("software_release")
          .text("name", &P::name, "release name", "the guides' titles")
          .required()
          .text("sources", &P::sources, "measured-CSV source ids measured with this release",
                "calibration/measured")
          .text("sdk", &P::sdk, "board software.sdk text this release matches", "board files")
          .choice("openssl_engine", &P::openssl_engine, {"none", "cryptodev"},
                  "OpenSSL's engine: none = OpenSSL's own implementations in user space; "
                  "cryptodev = /dev/crypto (the Linux crypto API: engine drivers or kernel code)",
                  "release notes / the pattern of the guide's numbers (see the file)")
          .text("speed_sizes", &P::speed_sizes, "`openssl speed` buffer sizes (comma list)",
                "OpenSSL version of the release")
          .real("seconds_per_size", &P::seconds_per_size, "s", 0.1, 100,
                "`openssl speed` run time per buffer size", "OpenSSL apps/speed.c (3 s)")
          .choice("ipsec_path", &P::ipsec_path, {"engine", "software"},
                  "where ESP's cipher and HMAC run for IPSec rows that do not say: engine = the "
                  "kernel crypto API's highest-priority implementation, an engine driver where "
                  "one offers the algorithm",
                  "Linux crypto API priorities (drivers register above the software code)")
          .real("ipsec_link_mbps", &P::ipsec_link_mbps, "Mbit/s", 0, 100000,
                "Ethernet link rate of the release's IPSec runs (0: the board port's "
                "link_speed_mbps); a link negotiates the slower side's rate",
                "set-up fact: the guides do not state the link partner (see the file)")
          .text("direct_queue_drivers", &P::direct_queue_drivers,
                "engine IPs (comma list) whose Linux driver in this release's kernel queued "
                "requests itself, in the submitting context, not through the crypto_engine "
                "kthread of the engine preset's request_queue",
                "the driver's history in Linux (see the file)");
  return s;
}

const params::Schema<CryptoStackParams>& CryptoStackParams::schema() {
  using P = CryptoStackParams;
  static const auto s =
      params::Schema<P>("crypto_stack")
          .choice("stack", &P::stack, {"linux", "linux-rt", "mcu-nortos"}, "software stack",
                  "configs/components/software")
          .required()
          .text("user_path_kernel", &P::user_path_kernel, "kernel profile of user-space call code",
                "configs/workloads/crypto/kernels")
          .text("kernel_path_kernel", &P::kernel_path_kernel, "kernel profile of OS/driver code",
                "configs/workloads/crypto/kernels")
          .real("evp_cipher_call_instructions", &P::evp_cipher_call_instructions, "instructions", 0,
                1e7, "OpenSSL EVP cipher call overhead per buffer", kStack)
          .real("evp_digest_call_instructions", &P::evp_digest_call_instructions, "instructions", 0,
                1e7, "OpenSSL EVP_Digest overhead per buffer (context, init, final, free)", kStack)
          .real("cryptodev_cipher_instructions", &P::cryptodev_cipher_instructions, "instructions",
                0, 1e7, "/dev/crypto cipher ioctl: syscall, page pinning, scatterlists, request",
                kStack)
          .real("cryptodev_digest_instructions", &P::cryptodev_digest_instructions, "instructions",
                0, 1e7,
                "/dev/crypto digest per buffer: session create, update, final, session free",
                kStack)
          .real("cryptodev_cipher_ioctls", &P::cryptodev_cipher_ioctls, "count", 0, 100,
                "ioctl system calls per cipher buffer (each the stack's trap path, "
                "software.kernel_paths.trap_instructions, besides cryptodev_cipher_instructions)",
                "OpenSSL engines/e_devcrypto.c cipher_do_cipher: one CIOCCRYPT")
          .real("cryptodev_digest_ioctls", &P::cryptodev_digest_ioctls, "count", 0, 100,
                "ioctl system calls per digest buffer (each the stack's trap path)",
                "OpenSSL engines/e_devcrypto.c digest_init (CIOCGSESSION), digest_update and "
                "digest_final (CIOCCRYPT with COP_FLAG_UPDATE / COP_FLAG_FINAL), "
                "digest_cleanup (CIOCFSESSION)")
          .real("driver_submit_instructions", &P::driver_submit_instructions, "instructions", 0,
                1e7, "kernel crypto-engine queue, DMA mapping, descriptor set-up per request",
                kStack)
          .real("driver_complete_instructions", &P::driver_complete_instructions, "instructions", 0,
                1e7,
                "per request after the interrupt entry: the DMA driver's completion (ring pop, "
                "virt-dma tasklet), the crypto driver's callback (dma_unmap_sg, IV out, "
                "request completion); the interrupts, the wake-up and the switches are the "
                "stack's kernel paths (software.kernel_paths)",
                kStack)
          .real("esp_packet_instructions", &P::esp_packet_instructions, "instructions", 0, 1e7,
                "IPSec ESP per packet besides the cipher and HMAC: xfrm policy/state lookup and "
                "output, esp_output (skb_cow_data, scatterlists, AEAD request set-up and free)",
                kStack)
          .real("cache_maintenance_cycles_per_line", &P::cache_maintenance_cycles_per_line,
                "cycles", 0, 1000, "clean or invalidate of one 64-byte line for DMA", kStack)
          .real("wakeup_latency_us", &P::wakeup_latency_us, "us", 0, 10000,
                "exit from idle: the completion interrupt reaching a CPU in its idle state until "
                "its handler runs (the CPU idle meanwhile)",
                kStack)
          .real("mcu_request_instructions", &P::mcu_request_instructions, "instructions", 0, 1e7,
                "MCU+ SA2UL driver per cipher/hash request", kStack)
          .real("mcu_context_alloc_instructions", &P::mcu_context_alloc_instructions,
                "instructions", 0, 1e7,
                "MCU+ SA2UL_contextAlloc, once per timed test operation (security-context build, "
                "key/IV/mode-control copies, 64-bit endian swap, cache write-back of the context)",
                kStack)
          .real("mcu_digest_test_requests", &P::mcu_digest_test_requests, "requests", 1, 64,
                "SA2UL_contextProcess calls per timed SHA test operation (each one a descriptor "
                "push and a polled pop; the buffer is split evenly)",
                kStack)
          .real("mcu_pka_request_instructions", &P::mcu_pka_request_instructions, "instructions", 0,
                1e7, "MCU+ PKA driver per operation", kStack)
          .real("rsa_encrypt_message_bytes", &P::rsa_encrypt_message_bytes, "bytes", 0, 4096,
                "message bytes of the MCU+ RSA encryption test (PKCS#1 v1.5 pads the rest with "
                "random bytes)",
                "calibrated: the guide does not give the test's message size");
  return s;
}

const params::Schema<CryptoDriverParams>& CryptoDriverParams::schema() {
  using P = CryptoDriverParams;
  static const auto s =
      params::Schema<P>("crypto_driver")
          .text("algorithms", &P::algorithms, "algorithms the driver offers (comma list)",
                "the driver's source")
          .choice("digest_path", &P::digest_path, {"hardware", "fallback"},
                  "where a digest submitted as update + final runs", "the driver's source")
          .real("fallback_below_bytes", &P::fallback_below_bytes, "bytes", 0, 1e9,
                "requests shorter than this run on the software fallback", "the driver's source")
          .real("digest_buffer_bytes", &P::digest_buffer_bytes, "bytes", 0, 1e9,
                "the driver's update buffer: a digest longer than this runs as an update "
                "request (all but the last block, kept for the padding) and a final request "
                "(0 = one request per digest)",
                "the driver's source")
          .choice("request_queue", &P::request_queue, {"direct", "crypto_engine"},
                  "how a request reaches the hardware: submitted in the caller's context "
                  "(direct) or queued to the kernel's crypto_engine kthread, which runs it and "
                  "finalizes it (a wake-up and switch to the kthread and back per request)",
                  "the driver's source")
          .real("completion_interrupts", &P::completion_interrupts, "count", 0, 64,
                "interrupts the host takes per request (each costs the stack's interrupt path, "
                "software.kernel_paths.irq_instructions)",
                "the driver's and its DMA driver's source")
          .real("register_accesses", &P::register_accesses, "count", 0, 1e6,
                "MMIO register accesses by the host per request", kDriver)
          .real("register_access_ns", &P::register_access_ns, "ns", 0, 1e5,
                "one MMIO access from the host through the interconnect", kDriver)
          .real("poll_fraction", &P::poll_fraction, "fraction", 0, 1,
                "share of the engine time the host is busy (polling, PIO)", kDriver)
          .real("pka_register_accesses_per_word", &P::pka_register_accesses_per_word, "count", 0,
                100, "host accesses per 32-bit PKA operand word", kDriver)
          .real("path_factor", &P::path_factor, "ratio", 0.1, 10,
                "the driver's submit and completion code relative to the stack's "
                "driver_submit_instructions / driver_complete_instructions (an OMAP driver "
                "over the EDMA: 1)",
                kDriver)
          .flag("one_request_at_a_time", &P::one_request_at_a_time,
                "the driver runs one request at a time: the next starts after the previous "
                "one's completion callback (its set-up, interrupts and callback occupy the "
                "engine as much as the hardware time); otherwise requests queue in the DMA "
                "rings",
                "the driver's source");
  return s;
}

// ---- AlgorithmSpec / ReleaseSpec / driver -------------------------------------------------

models::CryptoOp AlgorithmSpec::cryptoOp() const {
  return models::cryptoOpFromName(op).value_or(models::CryptoOp::Aes);
}

std::string AlgorithmSpec::engineName() const {
  if (mode == "digest" || op == "des3") return op;
  return op + "-" + mode;
}

int AlgorithmSpec::rounds() const {
  return models::cryptoRounds(cryptoOp(), key_bits);
}

std::vector<std::string> AlgorithmSpec::kernelList() const {
  return splitList(kernels);
}

std::vector<std::uint64_t> ReleaseSpec::sizes() const {
  std::vector<std::uint64_t> v;
  for (const auto& s : splitList(speed_sizes)) v.push_back(std::stoull(s));
  return v;
}

bool ReleaseSpec::hasSource(const std::string& source) const {
  if (source.empty()) return false;
  for (const auto& s : splitList(sources))
    if (s == source) return true;
  return false;
}

bool ReleaseSpec::directQueue(const std::string& ip) const {
  for (const auto& d : splitList(direct_queue_drivers))
    if (d == ip) return true;
  return false;
}

bool CryptoDriverParams::offers(const std::string& engineName) const {
  for (const auto& a : splitList(algorithms))
    if (a == engineName) return true;
  return false;
}

const AlgorithmSpec* CryptoData::algorithm(const std::string& name) const {
  std::string n = name;
  for (const auto& a : aliases)
    if (a.name == name) n = a.means;
  for (const auto& a : algorithms)
    if (a.name == n) return &a;
  return nullptr;
}

const ReleaseSpec& CryptoData::release(const std::string& source, const std::string& sdk) const {
  for (const auto& r : releases)
    if (r.hasSource(source)) return r;
  if (!sdk.empty())
    for (const auto& r : releases)
      if (!r.sdk.empty() && r.sdk == sdk) return r;
  for (const auto& r : releases)
    if (r.name == "default") return r;
  return releases.front();
}

// ---- loading ------------------------------------------------------------------------------

CryptoData loadCryptoData(const std::string& dir, const std::string& enginesDir) {
  CryptoData d;
  {
    const std::string f = dir + "/algorithms.yaml";
    config::Node root = parse(f);
    onlyKeys(root, {"algorithms", "aliases"}, f);
    d.algorithms = readList<AlgorithmSpec>(root, "algorithms", f, true);
    d.aliases = readList<AlgorithmAlias>(root, "aliases", f, false);
    for (const auto& a : d.algorithms) {
      if (a.mode == "digest" && !models::isDigest(a.cryptoOp()))
        throw InputError(f, 0, "algorithms", "'" + a.name + "': a cipher cannot have mode digest");
      if (a.mode != "digest" && models::isDigest(a.cryptoOp()))
        throw InputError(f, 0, "algorithms", "'" + a.name + "': a digest needs mode digest");
      if (a.kernelList().empty())
        throw InputError(f, 0, "algorithms", "'" + a.name + "' names no kernel");
    }
  }
  {
    const std::string f = dir + "/releases.yaml";
    config::Node root = parse(f);
    onlyKeys(root, {"releases"}, f);
    d.releases = readList<ReleaseSpec>(root, "releases", f, true);
    for (const auto& r : d.releases) {
      try {
        if (r.sizes().empty()) throw std::invalid_argument("empty");
      } catch (const std::exception&) {
        throw InputError(f, 0, "releases",
                         "release '" + r.name +
                             "': speed_sizes must be a "
                             "comma list of byte counts, got '" +
                             r.speed_sizes + "'");
      }
    }
  }
  for (const auto& f : yamlFiles(dir + "/stacks")) {
    config::Node root = parse(f);
    onlyKeys(root, {"crypto_stack"}, f);
    CryptoStackParams s;
    readGroupOf(root, "crypto_stack", s, f, true);
    d.stacks[s.stack] = s;
  }
  for (const auto& f : yamlFiles(enginesDir)) {
    config::Node root = parse(f);
    onlyKeys(root, {"engine", "sa2ul", "omap_crypto", "linux_driver", "mcu_driver"}, f);
    const config::Node* e = root.find("engine");
    if (!e || !e->isMap()) throw InputError(f, root.line, "engine", "missing group 'engine'");
    EnginePreset p;
    p.file = f;
    for (const auto& [k, v] : e->map) {
      if (k == "ip")
        p.ip = v.scalar;
      else if (k == "model")
        p.model = v.scalar;
      else if (k != "description")
        throw InputError(v.file, v.line, "engine." + k,
                         "unknown key (expected ip, model, description)");
    }
    if (p.ip.empty()) throw InputError(f, e->line, "engine.ip", "missing required key 'ip'");
    if (p.model == "sa2ul")
      readGroupOf(root, "sa2ul", p.sa2ul, f, true);
    else if (p.model == "omap_crypto")
      readGroupOf(root, "omap_crypto", p.omap, f, true);
    else
      throw InputError(f, e->line, "engine.model",
                       "unknown engine model '" + p.model + "' (valid: sa2ul, omap_crypto)");
    readGroupOf(root, "linux_driver", p.linuxDriver, f, false);
    readGroupOf(root, "mcu_driver", p.mcuDriver, f, false);
    d.engines[p.ip] = p;
  }
  return d;
}

std::string defaultCryptoDir() {
  return socsim::configsDir() + "/workloads/crypto";
}
std::string defaultEnginesDir() {
  return socsim::configsDir() + "/components/crypto_engines";
}

std::map<std::string, std::string> parseParams(const std::string& params) {
  std::map<std::string, std::string> m;
  std::stringstream ss(params);
  std::string kv;
  while (std::getline(ss, kv, ';')) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    m[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return m;
}

}  // namespace socsim::wl::crypto
