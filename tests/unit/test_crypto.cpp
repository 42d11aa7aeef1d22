// Crypto workloads and engine models: closed forms (hash padding, openssl speed's per-call
// composition size / (overhead + size / rate), engine throughput bounded by its configured
// peak, PKA operation counts versus key size), crypto-extension cores against integer cores,
// determinism, data loading, coverage of the measured crypto rows, and located input errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "calibration/dataset/measured_row.h"
#include "common/error.h"
#include "models/peripherals/omap_crypto/omap_crypto.h"
#include "models/peripherals/sa2ul/sa2ul.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "workloads/crypto/crypto_workloads.h"

using namespace socsim;
using namespace socsim::wl::crypto;
namespace net = socsim::wl::net;
namespace os = socsim::wl::os;

namespace {

const std::string kSrc = SOCSIM_TEST_SOURCE_DIR;

std::unique_ptr<validation::BoardRunContext> boardContext(const std::string& board) {
  auto cfg = std::make_unique<soc::BoardConfig>(
      soc::loadBoard(kSrc + "/configs/boards/" + board + ".yaml"));
  return std::make_unique<validation::BoardRunContext>(std::move(cfg));
}

const Kernel& kernelNamed(const std::vector<Kernel>& ks, const std::string& n) {
  for (const auto& k : ks)
    if (k.info.name == n) return k;
  throw std::runtime_error("no kernel " + n);
}

/// Cycles per byte of kernel `name` at `rounds` on `board`'s main core over a fixed-latency
/// memory with the core's L1 geometry (no SystemC).
double cyclesPerByte(const std::string& name, int rounds, int blockBytes,
                     const std::string& board) {
  static const auto kernels = loadKernels(defaultCryptoDir() + "/kernels");
  static const auto timings = loadCoreCryptoTimings(defaultCryptoDir() + "/core_timing");
  auto b = soc::loadBoard(kSrc + "/configs/boards/" + board + ".yaml");
  const auto& c = b.mainCluster();
  models::FixedLatencyMemory::Config mc;
  mc.l1d_bytes = c.l1d->size_bytes;
  mc.l1_hit_latency_cycles = c.l1d->hit_latency_cycles;
  models::FixedLatencyMemory mem(mc);
  const auto& t = timings.at(c.core.type);
  const Kernel& k = kernelNamed(kernels, name);
  EXPECT_TRUE(kernelRunsOn(k, c.core, t)) << name << " on " << c.core.type;
  return runKernelOn(k, rounds, c.core, c.timing, t, mem).cyclesPerUnit / blockBytes;
}

}  // namespace

// FIPS 180-4 §5.1 padding: a 0x80 byte and an 8-byte (SHA-384/512: 16-byte) length field.
TEST(CryptoEngine, HashPaddingBlocks) {
  using models::CryptoOp;
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Sha256, 0), 1u);
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Sha256, 55), 1u);  // 55 + 1 + 8 = 64
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Sha256, 56), 2u);
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Sha512, 111), 1u);  // 111 + 1 + 16 = 128
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Sha512, 112), 2u);
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Md5, 8192), 129u);
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Aes, 8192), 512u);
  EXPECT_EQ(models::cryptoBlocks(CryptoOp::Des3, 16), 2u);
  EXPECT_EQ(models::cryptoRounds(CryptoOp::Aes, 192), 12);
  EXPECT_EQ(models::cryptoRounds(CryptoOp::Des3, 0), 48);
}

// The engine never streams faster than its configured peak (the slower of the core's cycles
// per block and the DMA width), and a request's rate approaches it from below as it grows.
TEST(Sa2ulModel, ThroughputBoundedByPeakAndApproachesIt) {
  models::Sa2ulParams p;
  models::Sa2ul e(p);
  for (auto op : {models::CryptoOp::Aes, models::CryptoOp::Sha256, models::CryptoOp::Sha512}) {
    for (bool chained : {true, false}) {
      models::CryptoRequest r;
      r.op = op;
      r.chained = chained;
      const double peak = e.peakBytesPerSecond(r);
      // Closed form: block bytes / (max(core cycles, DMA cycles) per block x cycle time).
      const double block = models::cryptoBlockBytes(op);
      const double perBlock = std::max(e.coreCyclesPerBlock(r), block / p.dma_bytes_per_cycle);
      EXPECT_DOUBLE_EQ(peak, block / (perBlock * 1e-6 / p.clock_mhz));
      double last = 0;
      for (std::uint64_t bytes : {512u, 2048u, 8192u, 32768u, 1048576u}) {
        r.bytes = bytes;
        const double rate = static_cast<double>(bytes) / e.request(r).total();
        EXPECT_LE(rate, peak * (1 + 1e-12)) << models::cryptoOpName(op) << " " << bytes;
        EXPECT_GT(rate, last);
        last = rate;
      }
      EXPECT_GT(
          last,
          0.97 * peak * (models::isDigest(op) ? 1024.0 * 1024 / (1024.0 * 1024 + 2 * block) : 1.0));
    }
  }
  // A slower DMA path (through a busy memory system) caps the rate below the engine's peak.
  models::CryptoRequest r;
  r.bytes = 65536;
  const double fast = e.request(r).total();
  const double slow =
      e.request(r, [](bool, std::uint64_t b, double at) { return at + b / 50e6; }).total();
  EXPECT_GT(slow, fast);
  EXPECT_NEAR(65536 / slow, 50e6, 0.1 * 50e6);
}

TEST(OmapCryptoModel, ThroughputBoundedByPeak) {
  models::OmapCryptoParams p;
  models::OmapCrypto e(p);
  for (auto op : {models::CryptoOp::Aes, models::CryptoOp::Des3, models::CryptoOp::Sha1}) {
    models::CryptoRequest r;
    r.op = op;
    const double peak = e.peakBytesPerSecond(r);
    for (std::uint64_t bytes : {256u, 8192u, 1048576u}) {
      r.bytes = bytes;
      EXPECT_LE(bytes / e.request(r).total(), peak * (1 + 1e-12));
    }
  }
}

// RSA with the CRT: two exponentiations with half-size modulus and exponent; each modular
// multiplication costs overhead + (2s^2 + s) word MACs. The sign time follows that count.
TEST(Sa2ulModel, RsaSignGrowsWithKeySizeAsTheOperationCountSays) {
  models::Sa2ulParams p;
  models::Sa2ul e(p);
  auto expected = [&](int bits) {
    const int half = bits / 2;
    const double s = std::ceil(static_cast<double>(half) / p.pka_word_bits);
    const double mm = p.pka_modmul_overhead_cycles + (2 * s * s + s) / p.pka_macs_per_cycle;
    const int w = p.rsa_window_bits;
    const double n = half + static_cast<double>(half) / (w + 1) + std::ldexp(1.0, w - 1);
    const double sFull = std::ceil(static_cast<double>(bits) / p.pka_word_bits);
    const double mmFull =
        p.pka_modmul_overhead_cycles + (2 * sFull * sFull + sFull) / p.pka_macs_per_cycle;
    return (2 * (n * mm + p.pka_operation_overhead_cycles) + 2 * mmFull +
            p.pka_operation_overhead_cycles) *
           1e-6 / p.clock_mhz;
  };
  for (int bits : {1024, 2048, 4096}) EXPECT_NEAR(e.rsaPrivateSeconds(bits), expected(bits), 1e-15);
  const double ratio = e.rsaPrivateSeconds(4096) / e.rsaPrivateSeconds(2048);
  EXPECT_GT(ratio, 4.0);  // between quadratic (overhead-bound) and cubic (MAC-bound)
  EXPECT_LT(ratio, 8.0);
  // Verify (e = 65537, 17 products) is far cheaper than sign and grows ~quadratically.
  EXPECT_LT(e.rsaPublicSeconds(2048) * 10, e.rsaPrivateSeconds(2048));
  EXPECT_LT(e.rsaPublicSeconds(4096) / e.rsaPublicSeconds(2048), 4.01);
  // ECDSA: P-384 costs more than P-256; verify (two scalar multiplications) more than sign.
  EXPECT_GT(e.ecdsaSignSeconds(384), e.ecdsaSignSeconds(256));
  EXPECT_GT(e.ecdsaVerifySeconds(256), e.ecdsaSignSeconds(256));
}

TEST(CryptoData, LoadsAndIsConsistent) {
  CryptoData d;
  ASSERT_NO_THROW(d = loadCryptoData(defaultCryptoDir(), defaultEnginesDir()));
  std::vector<Kernel> ks;
  ASSERT_NO_THROW(ks = loadKernels(defaultCryptoDir() + "/kernels"));
  std::map<std::string, CoreCryptoTiming> ts;
  ASSERT_NO_THROW(ts = loadCoreCryptoTimings(defaultCryptoDir() + "/core_timing"));
  for (const auto& a : d.algorithms)
    for (const auto& k : a.kernelList()) EXPECT_NO_THROW(kernelNamed(ks, k)) << a.name;
  ASSERT_NE(d.algorithm("sha386"), nullptr);
  EXPECT_EQ(d.algorithm("sha386")->name, "sha384");
  // Every document the measured crypto rows come from has a release.
  auto rows = calib::readMeasuredDir(kSrc + "/calibration/measured");
  for (const auto& r : rows) {
    if (r.family == "crypto") {
      EXPECT_NE(d.release(r.source, "").name, "default") << r.source;
    }
  }
  EXPECT_EQ(d.release("", "Processor SDK Linux 11.02").openssl_engine, "cryptodev");
  EXPECT_EQ(d.release("nope", "").name, "default");
  EXPECT_EQ(d.engines.at("sa3ul").model, "sa2ul");  // preset inherited
  EXPECT_FALSE(d.engines.at("sa3ul").linuxDriver.offers("des3"));
  EXPECT_TRUE(d.engines.at("sa2ul").linuxDriver.offers("des3"));
  // The SA3UL inherits the SA2UL engine but its narrower AES core takes more cycles per round:
  // a lower AES peak at the same clock; the hash core and the packet DMA are the SA2UL's.
  const models::Sa2ulParams& s2 = d.engines.at("sa2ul").sa2ul;
  const models::Sa2ulParams& s3 = d.engines.at("sa3ul").sa2ul;
  EXPECT_GT(s3.aes_round_cycles, s2.aes_round_cycles);
  EXPECT_EQ(s3.hash_round_cycles, s2.hash_round_cycles);
  EXPECT_EQ(s3.dma_bytes_per_cycle, s2.dma_bytes_per_cycle);
  models::CryptoRequest aes;
  aes.op = models::CryptoOp::Aes;
  aes.keyBits = 128;
  aes.bytes = 16384;
  EXPECT_LT(models::Sa2ul(s3).peakBytesPerSecond(aes), models::Sa2ul(s2).peakBytesPerSecond(aes));
}

// Published: AES-128-CBC encryption 1.33 cycles/byte on Cortex-A72 with the AES instructions
// (aesv8-armx.pl) against ~21.5 on Cortex-A8 with table lookups (aes-armv4.pl): a crypto-
// extension core is an order of magnitude faster per MHz. The model must keep that factor.
TEST(CryptoKernels, CryptoExtensionCoreBeatsIntegerCorePerMhzOnAes) {
  const double ce = cyclesPerByte("aes-cbc-encrypt-armv8-ce", 10, 16, "j721e-idk-gw");
  const double a53 = cyclesPerByte("aes-cbc-encrypt-armv8-ce", 10, 16, "am654x-evm");
  const double table = cyclesPerByte("aes-armv4", 10, 16, "am335x-evm");
  EXPECT_GT(table / ce, 8.0) << "A8 " << table << " c/B, A72 " << ce << " c/B";
  EXPECT_LT(table / ce, 30.0);
  EXPECT_GT(table / a53, 8.0);
  // Close to the published figures (the kernels' defaults follow them).
  EXPECT_NEAR(ce, 1.33, 0.5);
  EXPECT_NEAR(a53, 1.32, 0.5);
  EXPECT_NEAR(table, 21.5, 8.0);
  // More rounds cost more: AES-256 (14 rounds) over AES-128 (10).
  const double ce256 = cyclesPerByte("aes-cbc-encrypt-armv8-ce", 14, 16, "j721e-idk-gw");
  EXPECT_GT(ce256 / ce, 1.2);
  EXPECT_LT(ce256 / ce, 1.5);
}

TEST(CryptoKernels, DeterministicRuns) {
  const double a = cyclesPerByte("sha256-armv8-ce", 64, 64, "j7200-evm");
  const double b = cyclesPerByte("sha256-armv8-ce", 64, 64, "j7200-evm");
  EXPECT_EQ(a, b);
}

// openssl speed: throughput(size) = size / (t0 + size / rate): rises with the buffer size
// towards the kernel's cycles/byte asymptote; the difference of two call times is exactly the
// extra blocks at the kernel's rate (the per-call overhead cancels).
TEST(OpensslSpeed, ThroughputFollowsOverheadPlusRate) {
  auto ctx = boardContext("am335x-evm");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const ReleaseSpec& user = m.data().release("001_508a313bc146f3fb", "");
  ASSERT_EQ(user.openssl_engine, "none");
  const double hz = ctx->board().mainCluster().core.clock_mhz * 1e6;
  const double cpb = m.kernelCycles(*ctx, "aes-armv4", 10) / 16;
  double last = 0;
  std::map<std::uint64_t, double> sec;
  for (std::uint64_t s : {16u, 64u, 256u, 1024u, 8192u, 16384u}) {
    CallTiming c = m.opensslCall(*ctx, *aes, s, user, "linux");
    EXPECT_EQ(c.path, "user");
    EXPECT_DOUBLE_EQ(c.busySeconds, c.seconds);  // OpenSSL's own code keeps the CPU busy
    const double kbs = s / c.seconds;
    EXPECT_GT(kbs, last);
    last = kbs;
    sec[s] = c.seconds;
  }
  EXPECT_NEAR(sec[16384] - sec[1024], (16384 - 1024) * cpb / hz, 1e-12);
  const double t0 = sec[16] - 16 * cpb / hz;
  EXPECT_GT(t0, 0);
  for (auto [s, t] : sec) EXPECT_NEAR(t, t0 + s * cpb / hz, 1e-12) << s;
  EXPECT_LT(last, hz / cpb);        // below the asymptote
  EXPECT_GT(last, 0.9 * hz / cpb);  // and close to it at 16 KiB

  // Through /dev/crypto on the same board (guide 000's release): below omap-aes's 200-byte
  // fallback threshold the kernel's software runs; from 256 B the engine, with the CPU idle
  // part of the time.
  const ReleaseSpec& dev = m.data().release("000_c397333184f33b18", "");
  CallTiming small = m.opensslCall(*ctx, *aes, 64, dev, "linux");
  CallTiming big = m.opensslCall(*ctx, *aes, 8192, dev, "linux");
  EXPECT_EQ(small.path, "kernel-software");
  EXPECT_EQ(big.path, "engine:omap-aes");
  EXPECT_DOUBLE_EQ(small.busySeconds, small.seconds);
  EXPECT_LT(big.busySeconds, big.seconds);
}

// An /dev/crypto call to the engine: the caller sleeps. The call holds the stack's kernel paths
// (each ioctl's trap, the block, the switch away and back, the completion interrupts and the
// wake-up), and the CPU time charged to the caller (what `time -v` sums) leaves out what runs
// while it sleeps: the switch away, the interrupts, the DMA completion and callback, the
// wake-up. Changing a kernel path moves the call by exactly that path's time.
TEST(OpensslSpeed, SleepingCallerPaysTheKernelPathsAndIsChargedOnlyItsOwnPart) {
  auto ctx = boardContext("j721e-idk-gw");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const ReleaseSpec& rel = m.data().release("003_5c626eb3448d1a85", "");
  ASSERT_EQ(rel.openssl_engine, "cryptodev");
  const CallTiming c = m.opensslCall(*ctx, *aes, 1024, rel, "linux");
  ASSERT_EQ(c.path, "engine:sa2ul");
  const auto& st = m.stack("linux");
  const auto& kp = ctx->board().software.kernel_paths;
  const double hz = ctx->board().mainCluster().core.clock_mhz * 1e6;
  // Entry and exit at the path CPI; path bodies also pay the stack's lock share (as
  // workloads/os counts them).
  const double entryCycles = m.kernelCpi(*ctx, st) * kernelPathIsaFactor(ctx->board());
  const double cycles = entryCycles * kernelBodyFactor(kp);
  ASSERT_GT(kernelBodyFactor(kp), 1.0);
  auto part = [&](const std::string& n) {
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k == n) return v;
    return -1.0;
  };
  EXPECT_NEAR(part("kernel.switch_away"), kp.switch_instructions * cycles / hz, 1e-15);
  EXPECT_NEAR(part("kernel.switch_back"), kp.switch_instructions * cycles / hz, 1e-15);
  EXPECT_NEAR(part("kernel.wakeup"), kp.wakeup_instructions * cycles / hz, 1e-15);
  EXPECT_NEAR(part("kernel.block"), kp.block_instructions * cycles / hz, 1e-15);
  EXPECT_NEAR(part("kernel.syscall"),
              st.cryptodev_cipher_ioctls *
                  (kp.trap_instructions * entryCycles + kp.fd_instructions * cycles) / hz,
              1e-15);
  const soc::PeripheralParams* per = nullptr;
  const EnginePreset* e = m.linuxEngine(ctx->board(), *aes, &per);
  ASSERT_NE(e, nullptr);
  EXPECT_NEAR(part("driver.interrupts"),
              e->linuxDriver.completion_interrupts * kp.irq_instructions * cycles / hz, 1e-15);
  // Parts sum to the call; the caller's CPU + the CPU while it sleeps + idle = the call.
  double sum = 0;
  for (const auto& [n, s] : c.breakdown.seconds) sum += s;
  EXPECT_NEAR(sum, c.seconds, 1e-12);
  // The J721E's two A72s: the caller sleeps on the core the completion interrupt does not
  // reach in 1 of 2 placements; its wake-up is then an IPI and a second exit from idle.
  const int cores = ctx->board().mainCluster().info.cores;
  ASSERT_EQ(cores, 2);
  const double share = (cores - 1.0) / cores;
  const double ipiCpu = share * kp.ipi_instructions * cycles / hz;
  EXPECT_NEAR(part("kernel.remote_wakeup"),
              ipiCpu + share * (kp.ipi_delivery_ns * 1e-9 + st.wakeup_latency_us * 1e-6), 1e-15);
  const double whileAsleep = part("kernel.switch_away") + part("driver.interrupts") +
                             part("driver.complete") + part("kernel.wakeup") + ipiCpu;
  EXPECT_NEAR(c.otherCpuSeconds, whileAsleep, 1e-12);
  EXPECT_GT(c.busySeconds, part("kernel.switch_back"));
  EXPECT_LT(c.busySeconds + c.otherCpuSeconds, c.seconds);  // the engine and the idle exit
  // A longer context switch lengthens the call by two switches and the caller's CPU by one
  // (the code-path CPIs are cached by board name: no second platform is elaborated).
  soc::BoardConfig b2 = ctx->board();
  b2.software.kernel_paths.switch_instructions += 1000;
  validation::BoardRunContext ctx2(std::make_unique<soc::BoardConfig>(b2));
  const CallTiming c2 = m.opensslCall(ctx2, *aes, 1024, rel, "linux");
  EXPECT_NEAR(c2.seconds - c.seconds, 2 * 1000 * cycles / hz, 1e-12);
  EXPECT_NEAR(c2.busySeconds - c.busySeconds, 1000 * cycles / hz, 1e-12);
}

// A uniprocessor (AM335x, one A8) takes the completion interrupt on the core the caller sleeps
// on: no IPI, no second exit from idle; a second core adds both in half the placements.
TEST(OpensslSpeed, RemoteWakeUpOnlyOnSmpClusters) {
  auto ctx = boardContext("am335x-evm");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const ReleaseSpec& rel = m.data().release("000_c397333184f33b18", "");
  ASSERT_EQ(ctx->board().mainCluster().info.cores, 1);
  auto remote = [](const CallTiming& c) {
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k == "kernel.remote_wakeup") return v;
    return -1.0;
  };
  const CallTiming c = m.opensslCall(*ctx, *aes, 1024, rel, "linux");
  ASSERT_EQ(c.path, "engine:omap-aes");
  EXPECT_EQ(remote(c), -1.0);
  soc::BoardConfig b2 = ctx->board();
  b2.clusters[0].info.cores = 2;
  validation::BoardRunContext ctx2(std::make_unique<soc::BoardConfig>(b2));
  const CallTiming c2 = m.opensslCall(ctx2, *aes, 1024, rel, "linux");
  EXPECT_GT(remote(c2), 0.5 * m.stack("linux").wakeup_latency_us * 1e-6);
  EXPECT_NEAR(c2.seconds - c.seconds, remote(c2), 1e-12);
}

// A driver's submit and completion code is the stack's reference path (an OMAP driver over the
// EDMA) times the driver's path_factor: SA2UL's two UDMA channels cost more than omap-aes's one.
// (One board per test: each elaborates its platform.)
void expectDriverPathsScaleWithPathFactor(const std::string& board, const std::string& guide,
                                          const std::string& ip, bool above1) {
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const auto& st = m.stack("linux");
  auto ctx = boardContext(board);
  const CallTiming c = m.opensslCall(*ctx, *aes, 1024, m.data().release(guide, ""), "linux");
  auto part = [&](const std::string& n) {
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k == n) return v;
    return -1.0;
  };
  const soc::PeripheralParams* per = nullptr;
  const EnginePreset* e = m.linuxEngine(ctx->board(), *aes, &per);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(e->ip, ip);
  const double hz = ctx->board().mainCluster().core.clock_mhz * 1e6;
  const double cpi = m.kernelCpi(*ctx, st);
  const double f = e->linuxDriver.path_factor;
  EXPECT_NEAR(part("driver.submit"), f * st.driver_submit_instructions * cpi / hz, 1e-15);
  EXPECT_NEAR(part("driver.complete"), f * st.driver_complete_instructions * cpi / hz, 1e-15);
  if (above1) {
    EXPECT_GT(f, 1.0);
  } else {
    EXPECT_EQ(f, 1.0);
  }
}
TEST(OpensslSpeed, Sa2ulDriverPathsScaleWithItsPathFactor) {
  expectDriverPathsScaleWithPathFactor("j721e-idk-gw", "003_5c626eb3448d1a85", "sa2ul", true);
}
TEST(OpensslSpeed, OmapAesDriverPathsAreTheStacksReferencePath) {
  expectDriverPathsScaleWithPathFactor("am335x-evm", "000_c397333184f33b18", "omap-aes", false);
}

// The same omap-sham digest in two releases of one board: guide 000's kernel ran the driver's
// own queue in the caller (no crypto_engine kthread; submit and DMA set-up are the caller's CPU
// time), guide 002's hands the request to the crypto_engine kthread (its wake-up, run and pump
// add to the call). omap-aes queued through crypto_engine in both.
TEST(OpensslSpeed, OmapShamQueuesInTheCallerBeforeItsCryptoEngineConversionAndSplitsLongDigests) {
  auto ctx = boardContext("am57xx-evm");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const ReleaseSpec& g000 = m.data().release("000_c397333184f33b18", "");
  const ReleaseSpec& g002 = m.data().release("002_eb73a69247cbc681", "");
  ASSERT_TRUE(g000.directQueue("omap-sham"));
  ASSERT_FALSE(g000.directQueue("omap-aes"));
  ASSERT_FALSE(g002.directQueue("omap-sham"));
  auto has = [](const CallTiming& c, const std::string& prefix) {
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k.rfind(prefix, 0) == 0 && v > 0) return true;
    return false;
  };
  const AlgorithmSpec* sha = m.data().algorithm("sha1");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const CallTiming old = m.opensslCall(*ctx, *sha, 1024, g000, "linux");
  const CallTiming now = m.opensslCall(*ctx, *sha, 1024, g002, "linux");
  ASSERT_EQ(old.path, "engine:omap-sham");
  ASSERT_EQ(now.path, "engine:omap-sham");
  EXPECT_FALSE(has(old, "driver.engine_kthread"));
  EXPECT_TRUE(has(now, "driver.engine_kthread"));
  EXPECT_LT(old.seconds, now.seconds);
  EXPECT_GT(old.busySeconds, now.busySeconds);  // the submit runs in the caller
  EXPECT_TRUE(has(m.opensslCall(*ctx, *aes, 1024, g000, "linux"), "driver.engine_kthread"));
  // omap-sham buffers at most one SHA-512 block (BUFLEN): a longer cryptodev digest is an
  // update request (all but the last block) and a final request, and the caller sleeps on
  // each, where a cipher call of the same size is one request.
  ASSERT_EQ(m.data().engines.at("omap-sham").linuxDriver.digest_buffer_bytes, 128);
  const CallTiming cipher = m.opensslCall(*ctx, *aes, 1024, g002, "linux");
  ASSERT_EQ(cipher.path, "engine:omap-aes");
  auto secondsOf = [](const CallTiming& c, const std::string& part) {
    double s = 0;
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k == part) s += v;
    return s;
  };
  for (const char* part : {"kernel.switch_back", "kernel.wakeup_latency", "kernel.block"}) {
    EXPECT_GT(secondsOf(cipher, part), 0) << part;
    EXPECT_DOUBLE_EQ(secondsOf(now, part), 2 * secondsOf(cipher, part)) << part;
  }
}

// PREEMPT_RT threads the completion interrupts: each is woken and switched to, and every
// thread but the last one's (which hands the CPU to the woken caller: its switch back) is
// switched away from. The standard kernel runs them in interrupt context: no switch.
TEST(OpensslSpeed, ThreadedInterruptsAreSwitchedToAndAway) {
  auto ctx = boardContext("am57xx-evm");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const ReleaseSpec& rel = m.data().release("000_c397333184f33b18", "");
  const AlgorithmSpec* aes = m.data().algorithm("aes-128-cbc");
  const soc::PeripheralParams* per = nullptr;
  const EnginePreset* e = m.linuxEngine(ctx->board(), *aes, &per);
  ASSERT_NE(e, nullptr);
  const double n = e->linuxDriver.completion_interrupts;
  ASSERT_EQ(n, 2);
  const auto& st = m.stack("linux");
  const double hz = ctx->board().mainCluster().core.clock_mhz * 1e6;
  auto interrupts = [&](const os::KernelPathParams& kp) {
    const CallTiming c = m.opensslCall(*ctx, *aes, 1024, rel, "linux", &kp);
    for (const auto& [k, v] : c.breakdown.seconds)
      if (k == "driver.interrupts") return v;
    return -1.0;
  };
  os::KernelPathParams kp = ctx->board().software.kernel_paths;
  ASSERT_EQ(kp.irq_thread_instructions, 0);
  const double cycles =
      m.kernelCpi(*ctx, st) * kernelPathIsaFactor(ctx->board()) * kernelBodyFactor(kp);
  EXPECT_NEAR(interrupts(kp), n * kp.irq_instructions * cycles / hz, 1e-15);
  kp.irq_thread_instructions = 800;
  EXPECT_NEAR(interrupts(kp),
              (n * (kp.irq_instructions + 800) + (2 * n - 1) * kp.switch_instructions) * cycles /
                  hz,
              1e-15);
}

// A driver with one request in flight (omap-aes through crypto_engine, omap-sham) holds its
// engine from the request's start to its completion callback: the engine's time per ESP packet
// is the whole request (driver set-up, kthread hand-offs, hardware, interrupts, callback), so
// it bounds the stream far below what the hardware alone would. The SA2UL's requests queue in
// the DMA rings: only its hardware time counts.
TEST(Ipsec, AnEngineWithOneRequestInFlightIsHeldForTheWholeRequest) {
  auto ctx = boardContext("am57xx-evm");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const auto& engines = m.data().engines;
  ASSERT_TRUE(engines.at("omap-aes").linuxDriver.one_request_at_a_time);
  ASSERT_TRUE(engines.at("omap-sham").linuxDriver.one_request_at_a_time);
  ASSERT_FALSE(engines.at("sa2ul").linuxDriver.one_request_at_a_time);
  const EthernetPath eth = ethernetPath(*ctx, net::defaultNetDir(), "linux", m.ipsec().net_tool);
  IpsecParams ip = m.ipsec();
  ip.mtu_bytes = eth.mac->params().mtu_bytes;
  ip.tcp_header_bytes = 20 + eth.stack.p.tcp_option_bytes;
  const AlgorithmSpec* aes = m.data().algorithm("aes128");
  const EspPacket pkt = espPacket(ip, 16);
  const ReleaseSpec& rel = m.data().release("000_c397333184f33b18", "");
  const EspCost hw = espCost(m, *ctx, ip, pkt, espAck(ip, 16), *aes, true, "linux", &rel);
  EXPECT_EQ(hw.path, "engine:omap-aes+omap-sham");
  auto sumOf = [&](const std::string& prefix) {
    double v = 0, engine = 0;
    for (const auto& [k, sec] : hw.data.seconds)
      if (k.rfind(prefix, 0) == 0) {
        v += sec;
        if (k.rfind(prefix + "engine.", 0) == 0) engine += sec;
      }
    EXPECT_GT(engine, 0);
    EXPECT_GT(v, 1.2 * engine);  // the software around the request adds to the hardware
    return v;
  };
  EXPECT_NEAR(hw.engineDataSeconds.at("omap-aes"), sumOf("cipher."), 1e-12);
  EXPECT_NEAR(hw.engineDataSeconds.at("omap-sham"), sumOf("hmac."), 1e-12);
  const IpsecResult r = ipsecStream(pkt, hw, eth);
  EXPECT_EQ(r.bound.rfind("engine:", 0), 0u);
  EXPECT_NEAR(r.periodSeconds,
              std::max(hw.engineDataSeconds.at("omap-aes") +
                           r.acksPerSegment * hw.engineAckSeconds.at("omap-aes"),
                       hw.engineDataSeconds.at("omap-sham") +
                           r.acksPerSegment * hw.engineAckSeconds.at("omap-sham")),
              1e-12);
}

// Every measured crypto / sa2ul / ipsec row of a board with a config is predicted (a value > 0,
// or >= 0 for whole kpps); predictions are deterministic. One board per test: a process
// elaborates one platform (SystemC), and ctest runs each test in its own.
namespace {
void coversTheRowsOf(const std::string& board) {
  auto rows = calib::readMeasuredDir(kSrc + "/calibration/measured");
  auto m = std::make_shared<CryptoModel>(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m->loadError(), "");
  OpensslSpeed speed(m);
  Sa2ulMcu mcu(m);
  Ipsec ipsec(m, net::defaultNetDir());
  auto ctx = boardContext(board);
  int n = 0;
  for (const auto& r : rows) {
    if (r.board != board) continue;
    wl::Query q(r.family, r.benchmark, r.metric, r.params, r.unit, r.source);
    if (r.family != "crypto" && r.family != "sa2ul" && r.family != "ipsec") continue;
    wl::Workload* w = nullptr;
    if (speed.covers(q)) w = &speed;
    if (mcu.covers(q)) w = &mcu;
    if (ipsec.covers(q)) w = &ipsec;
    ASSERT_NE(w, nullptr) << r.benchmark << " " << r.metric << " " << r.params;
    wl::Prediction p;
    try {
      p = w->predict(*ctx, q);
    } catch (const wl::NotModelled& e) {
      FAIL() << board << " " << r.params << ": not modelled: " << e.reason;
    }
    if (r.metric == "Packets/Sec") {
      EXPECT_GE(p.value, 0) << board << " " << r.params;
    } else {
      EXPECT_GT(p.value, 0) << board << " " << r.params;
    }
    EXPECT_TRUE(std::isfinite(p.value));
    if (r.metric == "CPU Load") {
      EXPECT_LE(p.value, 100.0 + 1e-9);
    }
    EXPECT_EQ(w->predict(*ctx, q).value, p.value);  // deterministic (cached kernel runs)
    ++n;
  }
  EXPECT_GT(n, 0) << board;
}
}  // namespace

TEST(CryptoWorkloads, CoversTheRowsOfAm335xBothReleases) {
  coversTheRowsOf("am335x-evm");
}
TEST(CryptoWorkloads, CoversTheRowsOfAm64xMcuSa2ul) {
  coversTheRowsOf("am64x-evm");
}
TEST(CryptoWorkloads, CoversTheRowsOfJ722sSa3ul) {
  coversTheRowsOf("j722s_evm-fs");
}

TEST(CryptoWorkloads, CoversTheRowsOfAm57xxIpsecHardwareAndSoftware) {
  coversTheRowsOf("am57xx-evm");
}

// `openssl speed` through /dev/crypto never streams above the engine's configured peak (the
// engine model at the board's peripheral clock), at any buffer size, for every algorithm the
// release runs on the engine; at the largest size the engine path approaches the peak closely
// enough to show the engine, not the driver, bounds it. One board per test (one platform per
// process).
namespace {
void engineCallsStayBelowPeak(const std::string& board, const std::string& source) {
  auto ctx = boardContext(board);
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const ReleaseSpec& rel = m.data().release(source, "");
  ASSERT_EQ(rel.openssl_engine, "cryptodev");
  int onEngine = 0;
  for (const auto& alg : m.data().algorithms) {
    const soc::PeripheralParams* per = nullptr;
    const EnginePreset* e = m.linuxEngine(ctx->board(), alg, &per);
    if (!e) continue;
    for (std::uint64_t bytes : {16u, 256u, 1024u, 8192u, 16384u, 1048576u}) {
      const CallTiming c = m.opensslCall(*ctx, alg, bytes, rel, "linux");
      if (c.path != "engine:" + e->ip) continue;
      models::CryptoRequest r;
      r.op = alg.cryptoOp();
      r.keyBits = alg.key_bits;
      r.chained = alg.mode != "ecb";
      r.bytes = bytes;
      double peak = 0;
      if (e->model == "sa2ul") {
        models::Sa2ulParams sp = e->sa2ul;
        if (per->clock_mhz > 0) sp.clock_mhz = per->clock_mhz;
        peak = models::Sa2ul(sp).peakBytesPerSecond(r);
      } else {
        models::OmapCryptoParams op = e->omap;
        if (per->clock_mhz > 0) op.clock_mhz = per->clock_mhz;
        peak = models::OmapCrypto(op).peakBytesPerSecond(r);
      }
      ASSERT_GT(peak, 0) << alg.name;
      const double rate = static_cast<double>(bytes) / c.seconds;
      EXPECT_LE(rate, peak * (1 + 1e-12)) << board << " " << alg.name << " " << bytes;
      if (bytes == 1048576u) {
        EXPECT_GT(rate, 0.5 * peak) << board << " " << alg.name;
      }
      ++onEngine;
    }
  }
  EXPECT_GE(onEngine, 6) << board;  // the engine path was exercised
}
}  // namespace

TEST(OpensslSpeed, EngineThroughputNeverExceedsTheSa2ulPeak) {
  engineCallsStayBelowPeak("j721e-idk-gw", "003_5c626eb3448d1a85");
}
TEST(OpensslSpeed, EngineThroughputNeverExceedsTheOmapEnginesPeak) {
  engineCallsStayBelowPeak("am57xx-evm", "002_eb73a69247cbc681");
}

// SA2UL: one iterative AES datapath; CBC encryption pays the feedback per block, independent
// blocks (ECB, CBC decryption) do not, and neither streams above the configured peak.
TEST(Sa2ulModel, ChainedAesPaysTheFeedbackPerBlock) {
  models::Sa2ulParams p;
  models::Sa2ul e(p);
  models::CryptoRequest enc, dec;
  enc.chained = true;
  dec.chained = false;
  dec.decrypt = true;
  EXPECT_DOUBLE_EQ(e.coreCyclesPerBlock(enc) - e.coreCyclesPerBlock(dec),
                   p.aes_chain_cycles * 1.0);
  EXPECT_DOUBLE_EQ(e.coreCyclesPerBlock(dec),
                   (10.0 * p.aes_round_cycles + p.aes_block_cycles) / p.aes_pipeline_blocks);
  enc.bytes = dec.bytes = 32768;
  EXPECT_LT(e.request(dec).total(), e.request(enc).total());
  EXPECT_LE(32768 / e.request(enc).total(), e.peakBytesPerSecond(enc) * (1 + 1e-12));
}

// ESP packet geometry (transport mode, HMAC-SHA1-96, 1500-byte MTU): the guides' Mbit/s over
// kpps give ~1406-1440 payload bytes per packet.
TEST(Ipsec, EspPacketGeometry) {
  IpsecParams p;
  const EspPacket aes = espPacket(p, 16);
  // 1500 - 20 IP - 8 ESP - 16 IV - 12 ICV = 1444 -> 1440 (90 blocks); - 2 trailer - 32 TCP.
  EXPECT_DOUBLE_EQ(aes.cipherBytes, 1440);
  EXPECT_DOUBLE_EQ(aes.payloadBytes, 1406);
  EXPECT_DOUBLE_EQ(aes.authBytes, 8 + 16 + 1440);
  EXPECT_DOUBLE_EQ(aes.wireBytes, 20 + 8 + 16 + 1440 + 12 + 38);
  EXPECT_LE(aes.wireBytes - p.ethernet_overhead_bytes, p.mtu_bytes);
  const EspPacket des = espPacket(p, 8);
  EXPECT_DOUBLE_EQ(des.cipherBytes, 1448);  // 1452 -> 181 blocks of 8
  EXPECT_DOUBLE_EQ(des.payloadBytes, 1414);
  const EspPacket ack = espAck(p, 16);
  EXPECT_DOUBLE_EQ(ack.cipherBytes, 48);  // 32 TCP + 2 trailer -> 3 blocks
  EXPECT_DOUBLE_EQ(ack.payloadBytes, 0);
}

// The ESP stream over the Ethernet model (workloads/net): without ESP work it is the model's TCP
// stream at ESP's MSS, never above the line; ESP's CPU work per segment slows a CPU-bound stream
// and more of it slows it more; an engine slower than the stream sets the period (payload /
// engine time) and spreads the same CPU work over it; the SA2UL takes the whole authenc request.
TEST(Ipsec, StreamOverTheEthernetModelAndTheEngines) {
  auto ctx = boardContext("j721e-idk-gw");
  CryptoModel m(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m.loadError(), "");
  const EthernetPath eth = ethernetPath(*ctx, net::defaultNetDir(), "linux", m.ipsec().net_tool);
  IpsecParams ip = m.ipsec();
  ip.mtu_bytes = eth.mac->params().mtu_bytes;
  ip.tcp_header_bytes = 20 + eth.stack.p.tcp_option_bytes;
  const AlgorithmSpec* des3 = m.data().algorithm("3des");
  ASSERT_NE(des3, nullptr);
  EXPECT_EQ(des3->name, "des3");
  const EspPacket pkt = espPacket(ip, 8);
  const EspPacket ack = espAck(ip, 8);
  // Line: one full-MTU frame per segment.
  const double lineMbps = pkt.payloadBytes * 8 / eth.mac->wireSeconds(ip.mtu_bytes) / 1e6;
  const IpsecResult bare = ipsecStream(pkt, EspCost{}, eth);
  EXPECT_GT(bare.mbitPerSecond, 0.5 * lineMbps);
  EXPECT_LE(bare.mbitPerSecond, lineMbps * (1 + 1e-9));
  EXPECT_GT(bare.acksPerSegment, 0.3);  // the peer's delayed ACKs
  EXPECT_LT(bare.acksPerSegment, 1.01);
  // No GSO through ESP: every segment runs the TCP/IP output path of a segment of its own.
  EXPECT_GT(eth.costs.tcpAckTx, 0);
  double noGso = -1;
  for (const auto& [part, sec] : bare.breakdown.seconds)
    if (part == "esp.tcp_output_without_gso") noGso = sec;
  EXPECT_DOUBLE_EQ(noGso, eth.costs.tcpAckTx);

  const EspCost sw = espCost(m, *ctx, ip, pkt, ack, *des3, false, "linux");
  EXPECT_EQ(sw.path, "software");
  EXPECT_GT(sw.dataCpuSeconds, sw.ackCpuSeconds);
  EXPECT_TRUE(sw.engineDataSeconds.empty());
  const IpsecResult s1 = ipsecStream(pkt, sw, eth);
  EXPECT_EQ(s1.bound, "cpu");  // 3DES in software is far below the line rate
  EXPECT_LT(s1.mbitPerSecond, 0.5 * bare.mbitPerSecond);
  EXPECT_NEAR(s1.mbitPerSecond, pkt.payloadBytes * 8 / s1.periodSeconds / 1e6, 1e-9);
  EXPECT_NEAR(s1.kpps, 1e-3 / s1.periodSeconds, 1e-12);
  EXPECT_GT(s1.cpuLoadPercent, 0);
  EXPECT_LE(s1.cpuLoadPercent, 100 + 1e-9);
  EspCost heavier = sw;
  heavier.dataCpuSeconds += 20e-6;
  const IpsecResult s2 = ipsecStream(pkt, heavier, eth);
  EXPECT_LT(s2.mbitPerSecond, s1.mbitPerSecond);
  EXPECT_GT(s2.periodSeconds - s1.periodSeconds, 5e-6);

  // An engine 10x slower than the CPU-bound stream: it sets the period, the CPU work is spread.
  EspCost slowEngine = sw;
  slowEngine.engineDataSeconds["x"] = 10 * s1.periodSeconds;
  const IpsecResult e = ipsecStream(pkt, slowEngine, eth);
  EXPECT_EQ(e.bound, "engine:x");
  EXPECT_DOUBLE_EQ(e.periodSeconds, 10 * s1.periodSeconds);
  EXPECT_NEAR(e.cpuLoadPercent, s1.cpuLoadPercent / 10, 1e-9);
  // The ACKs' engine time counts per ACK.
  slowEngine.engineAckSeconds["x"] = s1.periodSeconds;
  EXPECT_NEAR(ipsecStream(pkt, slowEngine, eth).periodSeconds,
              (10 + e.acksPerSegment) * s1.periodSeconds, 1e-15);

  // The SA2UL offers authenc(hmac(sha1),cbc(aes)): one engine request per packet.
  const AlgorithmSpec* aes = m.data().algorithm("aes128");
  const EspPacket apkt = espPacket(ip, 16);
  const EspCost hw = espCost(m, *ctx, ip, apkt, espAck(ip, 16), *aes, true, "linux");
  EXPECT_EQ(hw.path, "engine:sa2ul");
  EXPECT_EQ(hw.engineDataSeconds.count("sa2ul"), 1u);
  const IpsecResult h = ipsecStream(apkt, hw, eth);
  EXPECT_LE(h.cpuLoadPercent, 100.0 + 1e-9);
  EXPECT_LE(h.mbitPerSecond, apkt.payloadBytes * 8 / eth.mac->wireSeconds(ip.mtu_bytes) / 1e6 *
                                 (1 + 1e-9));

  // A link partner at 100 Mbit/s (a release's ipsec_link_mbps): the same ESP stream is bound by
  // the slower wire, at its TCP-over-ESP payload rate (1406 B per 1538-byte frame: 91.4 Mbit/s).
  const EthernetPath slow =
      ethernetPath(*ctx, net::defaultNetDir(), "linux", m.ipsec().net_tool, 100);
  EXPECT_DOUBLE_EQ(slow.mac->linkBitsPerSecond(), 100e6);
  const IpsecResult s100 = ipsecStream(apkt, hw, slow);
  const double line100 = apkt.payloadBytes * 8 / slow.mac->wireSeconds(ip.mtu_bytes) / 1e6;
  EXPECT_NEAR(line100, 100.0 * 1406 / 1538, 1e-9);
  EXPECT_EQ(s100.bound, "wire");
  EXPECT_LE(s100.mbitPerSecond, line100 * (1 + 1e-9));
  EXPECT_GT(s100.mbitPerSecond, 0.97 * line100);
  EXPECT_LT(s100.cpuLoadPercent, h.cpuLoadPercent);
}

TEST(CryptoData, BadKernelFileIsALocatedInputError) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("socsim-crypto-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto f = (dir / "bad.yaml").string();
  std::ofstream(f) << "kernel:\n  name: bad\n  instructions_per_block: 10\nmix:\n  aes_rounds: 1\n";
  try {
    loadKernel(f);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("bad.yaml"), std::string::npos) << w;
    EXPECT_NE(w.find("aes_rounds"), std::string::npos) << w;
  }
  std::ofstream(f) << "kernel:\n  name: bad\nmix:\n  int_alu: 1\n";
  EXPECT_THROW(loadKernel(f), InputError);  // no instructions
  std::filesystem::remove_all(dir);
}

// MCU+ SA2UL tests (test_sa2ul_aes.c / test_sa2ul_sha.c): the timed operation is one
// SA2UL_contextAlloc plus the SA2UL_contextProcess calls, and the SHA test is multi-shot (two
// calls on the two halves). So an AES row pays one context allocation and one driver request,
// a SHA row one allocation and two requests, and the breakdown adds up to the predicted time.
TEST(Sa2ulMcu, ContextAllocationOncePerOperationAndTwoRequestsForTheShaTest) {
  auto m = std::make_shared<CryptoModel>(defaultCryptoDir(), defaultEnginesDir());
  ASSERT_EQ(m->loadError(), "");
  Sa2ulMcu mcu(m);
  auto ctx = boardContext("am64x-evm");
  auto part = [](const wl::Prediction& p, const std::string& name) {
    double s = 0;
    for (const auto& [n, v] : p.breakdown.seconds)
      if (n == name) s += v;
    return s;
  };
  auto total = [](const wl::Prediction& p) {
    double s = 0;
    for (const auto& [n, v] : p.breakdown.seconds) s += v;
    return s;
  };
  const wl::Query aesQ("sa2ul", "AES", "Performance",
                       "code_placement=ocmc;key_bits=128;op=encryption;size=4096", "Mbit/s");
  const wl::Query shaQ("sa2ul", "SHA", "Performance", "code_placement=ocmc;sha_bits=256;size=4096",
                       "Mbit/s");
  const wl::Prediction aes = mcu.predict(*ctx, aesQ);
  const wl::Prediction sha = mcu.predict(*ctx, shaQ);
  const double alloc = part(aes, "driver.context_alloc");
  EXPECT_GT(alloc, 0);
  EXPECT_DOUBLE_EQ(part(sha, "driver.context_alloc"), alloc);
  const double req = part(aes, "driver.cpu");
  ASSERT_GT(req, 0);
  EXPECT_NEAR(part(sha, "driver.cpu"), 2 * req, 1e-12 * req);
  EXPECT_NEAR(aes.value, 4096 * 8 / total(aes) / 1e6, 1e-9 * aes.value);
  EXPECT_NEAR(sha.value, 4096 * 8 / total(sha) / 1e6, 1e-9 * sha.value);
  // The fixed costs weigh less on a bigger buffer: throughput grows with the size.
  const wl::Prediction big = mcu.predict(
      *ctx, wl::Query("sa2ul", "SHA", "Performance", "code_placement=ocmc;sha_bits=256;size=32768",
                      "Mbit/s"));
  EXPECT_GT(big.value, sha.value);
  EXPECT_DOUBLE_EQ(part(big, "driver.context_alloc"), alloc);
}
