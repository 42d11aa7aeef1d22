// DDR controller + DRAM: analytic timing checks against the configured JEDEC parameters
// (STYLE.md rule 13): unloaded latency of row hit / closed row / row miss, peak bandwidth bound,
// refresh, tFAW, read/write turnaround, scheduler variants.
#include <gtest/gtest.h>

#include <cmath>

#include "models/memory/ddr_controller.h"
#include "tests/support/test_initiator.h"

using socsim::models::DdrController;
using socsim::models::DdrControllerParams;
using socsim::models::DramParams;
using socsim::models::Part;
using socsim::test::TestInitiator;

namespace {

constexpr std::uint64_t kNs = 1000;

/// DDR3-1600 (tCK 1.25 ns), 32-bit, 8 banks, 4 KiB rows, BL8 -> 32-byte bursts, 2 per 64-byte line.
struct Bench {
  DramParams d;
  DdrControllerParams c;
  TestInitiator init{"init"};
  std::unique_ptr<DdrController> ddr;
  explicit Bench(DdrControllerParams cp = {}, DramParams dp = {}) : d(dp), c(cp) {
    ddr = std::make_unique<DdrController>("ddr", c, d);
    init.mem_side.bind(ddr->cpu_side);
    socsim::test::elaborate();
  }
  std::uint64_t tck() const { return ddr->channel(0).tckPs(); }
  std::uint64_t ctrl() const { return ddr->frontendPs() + ddr->backendPs(); }
  std::uint64_t roundTck(double ns) const {
    return static_cast<std::uint64_t>(std::ceil(ns * 1000.0 / tck() - 1e-9)) * tck();
  }
  std::uint64_t cl() const { return static_cast<std::uint64_t>(d.cl_tck) * tck(); }
  std::uint64_t line() const { return 2 * 4 * tck(); }  // two BL8 bursts
};

}  // namespace

TEST(Dram, UnloadedReadToClosedBankIsControllerPlusTrcdPlusClPlusBursts) {
  Bench b;
  const std::uint64_t t0 = 10 * kNs;  // before the first refresh
  const std::uint64_t done = b.init.read(0, 64, t0);
  const std::uint64_t expected = b.ctrl() + b.roundTck(b.d.trcd_ns) + b.cl() + b.line();
  EXPECT_LE(std::llabs(static_cast<long long>(done - t0) - static_cast<long long>(expected)),
            static_cast<long long>(b.ddr->periodPs()));
  EXPECT_EQ(b.ddr->channel(0).stats().rowEmpty, 1u);
  // The breakdown names the parts.
  const auto& parts = b.init.last().parts;
  EXPECT_EQ(parts[static_cast<int>(Part::Controller)], b.ctrl());
  EXPECT_EQ(parts[static_cast<int>(Part::DramRowMiss)], b.roundTck(b.d.trcd_ns));
  EXPECT_EQ(parts[static_cast<int>(Part::DramAccess)], b.cl() + b.line());
}

TEST(Dram, RowHitSkipsActivate) {
  Bench b;
  std::uint64_t t = b.init.read(0, 64, 0) + 100 * kNs;
  const std::uint64_t done = b.init.read(64, 64, t);  // same row, bank idle
  EXPECT_EQ(done - t, b.ctrl() + b.cl() + b.line());
  EXPECT_EQ(b.ddr->channel(0).stats().rowHits, 3u);  // the 2nd burst of the 1st read hit too
}

TEST(Dram, RowMissAddsPrechargeAndActivate) {
  Bench b;
  const std::uint64_t rowStride = b.d.rowBytes() * static_cast<std::uint64_t>(b.d.banks);
  std::uint64_t t = b.init.read(0, 64, 0) + 200 * kNs;  // tRAS long satisfied
  const std::uint64_t done = b.init.read(rowStride, 64, t);  // same bank, next row
  EXPECT_EQ(b.ddr->decode(rowStride).bank, b.ddr->decode(0).bank);
  EXPECT_NE(b.ddr->decode(rowStride).row, b.ddr->decode(0).row);
  const std::uint64_t expected =
      b.ctrl() + b.roundTck(b.d.trp_ns) + b.roundTck(b.d.trcd_ns) + b.cl() + b.line();
  EXPECT_EQ(done - t, expected);
  EXPECT_EQ(b.ddr->channel(0).stats().rowMisses, 1u);
}

TEST(Dram, ClosedPagePolicyActivatesEveryRequest) {
  DdrControllerParams c;
  c.page_policy = "closed";
  Bench b(c);
  std::uint64_t t = b.init.read(0, 64, 0) + 200 * kNs;
  const std::uint64_t done = b.init.read(64, 64, t);
  EXPECT_EQ(done - t, b.ctrl() + b.roundTck(b.d.trcd_ns) + b.cl() + b.line());
  EXPECT_EQ(b.ddr->channel(0).stats().rowHits, 2u);  // only the 2nd burst of each request
}

TEST(Dram, SequentialStreamApproachesButNeverExceedsPeak) {
  Bench b;
  const std::uint64_t bytes = 4 << 20;
  std::uint64_t last = 0;
  for (std::uint64_t a = 0; a < bytes; a += 64) last = std::max(last, b.init.read(a, 64, 0));
  const double bw = static_cast<double>(bytes) / (static_cast<double>(last) * 1e-12);
  const double peak = b.d.peakBytesPerSecond();  // 1600 MT/s x 4 B = 6.4 GB/s
  EXPECT_DOUBLE_EQ(peak, 6.4e9);
  EXPECT_LE(bw, peak);
  EXPECT_GT(bw, 0.85 * peak) << "row hits should keep the bus busy";
}

TEST(Dram, RandomRowsAreSlowerThanSequential) {
  Bench b;
  const int n = 20000;
  std::uint64_t last = 0;
  std::uint64_t x = 12345;
  for (int i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    last = std::max(last, b.init.read((x >> 20) % (256ull << 20) / 64 * 64, 64, 0));
  }
  const double bw = n * 64.0 / (static_cast<double>(last) * 1e-12);
  EXPECT_LT(bw, 0.6 * b.d.peakBytesPerSecond());
  EXPECT_GT(b.ddr->channel(0).stats().rowMisses, static_cast<std::uint64_t>(n / 2));
}

TEST(Dram, NoPatternExceedsPeak) {
  for (int pattern = 0; pattern < 3; ++pattern) {
    // one elaboration per process: reuse one controller, reset between patterns
    static Bench* b = nullptr;
    if (!b) b = new Bench();
    b->ddr->reset();
    const std::uint64_t start = socsim::models::nowPs() + 1000 * kNs;
    std::uint64_t last = start;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      std::uint64_t a = pattern == 0 ? i * 64ull : pattern == 1 ? (i % 8) * 4096ull + (i / 8) * 64ull
                                                                 : (i * 2654435761ull) % (64ull << 20) / 64 * 64;
      last = std::max(last, (i % 3 == 2) ? b->init.write(a, 64, start) : b->init.read(a, 64, start));
    }
    b->ddr->drainWrites(start);
    const double bw = n * 64.0 / (static_cast<double>(last - start) * 1e-12);
    EXPECT_LE(bw, b->d.peakBytesPerSecond()) << "pattern " << pattern;
  }
}

TEST(Dram, RefreshShowsUp) {
  Bench b;
  // Read for 50 us of simulated time with a steady stream: about 50 / 7.8 refreshes.
  std::uint64_t t = 0;
  std::uint64_t maxLatency = 0;
  for (std::uint64_t a = 0; t < 50'000 * kNs; a += 64) {
    std::uint64_t done = b.init.read(a % (1 << 20), 64, t);
    maxLatency = std::max(maxLatency, done - t);
    t += 20 * kNs;
  }
  const auto& s = b.ddr->channel(0).stats();
  EXPECT_GE(s.refreshes, 6u);
  EXPECT_LE(s.refreshes, 7u);
  EXPECT_NEAR(s.refreshNs, static_cast<double>(s.refreshes) * 260.0, 1.0);
  // A read that lands on a refresh waits up to tRFC.
  EXPECT_GT(maxLatency, b.roundTck(b.d.trfc_ns) / 2);
  EXPECT_LT(maxLatency, b.roundTck(b.d.trfc_ns) + 200 * kNs);
}

TEST(Dram, RefreshOffRemovesTheStalls) {
  DdrControllerParams c;
  c.refresh = false;
  Bench b(c);
  std::uint64_t t = 0, maxLatency = 0;
  for (std::uint64_t a = 0; t < 50'000 * kNs; a += 64) {
    std::uint64_t done = b.init.read(a % (1 << 20), 64, t);
    maxLatency = std::max(maxLatency, done - t);
    t += 20 * kNs;
  }
  EXPECT_EQ(b.ddr->channel(0).stats().refreshes, 0u);
  EXPECT_LT(maxLatency, 100 * kNs);
}

TEST(Dram, FourActivateWindowLimitsActivates) {
  Bench b;
  // Five reads at t0 to five different banks: the 5th ACT waits for tFAW after the 1st.
  const std::uint64_t t0 = 10 * kNs;
  std::uint64_t done[5];
  for (int i = 0; i < 5; ++i) done[i] = b.init.read(static_cast<std::uint64_t>(i) * b.d.rowBytes(), 64, t0);
  EXPECT_NE(b.ddr->decode(0).bank, b.ddr->decode(b.d.rowBytes()).bank);
  // ACT k (k < 4) is at t0 + fe + k * tRRD; ACT 4 at t0 + fe + tFAW.
  const std::uint64_t act0 = t0 + b.ddr->frontendPs();
  const std::uint64_t act4 = act0 + b.roundTck(b.d.tfaw_ns);
  EXPECT_GE(done[4], act4 + b.roundTck(b.d.trcd_ns) + b.cl() + b.line() + b.ddr->backendPs());
  EXPECT_LT(done[3], done[4]);
}

TEST(Dram, ReadWriteTurnaroundCostsBandwidth) {
  auto run = [](bool mixed) {
    static Bench* b = nullptr;
    if (!b) b = new Bench();
    b->ddr->reset();
    const std::uint64_t start = socsim::models::nowPs() + 100'000 * kNs;
    std::uint64_t last = start;
    const int n = 8000;
    DdrControllerParams c;
    for (int i = 0; i < n; ++i) {
      std::uint64_t a = static_cast<std::uint64_t>(i) * 64;
      last = std::max(last, mixed && (i % 2) ? b->init.write(a + (64 << 20), 64, start)
                                             : b->init.read(a, 64, start));
    }
    b->ddr->drainWrites(last);
    return n * 64.0 / (static_cast<double>(last - start) * 1e-12);
  };
  const double reads = run(false);
  const double mixed = run(true);
  EXPECT_LT(mixed, reads);
}

TEST(Dram, WriteQueueBackPressure) {
  DdrControllerParams c;
  c.write_queue_depth = 8;
  Bench b(c);
  // 1000 line writes offered at t = 10 ns: acceptance is paced by the DRAM write bandwidth.
  std::uint64_t last = 0;
  for (int i = 0; i < 1000; ++i) last = b.init.write(static_cast<std::uint64_t>(i) * 64, 64, 10 * kNs);
  const double bw = 1000 * 64.0 / (static_cast<double>(last) * 1e-12);
  EXPECT_LE(bw, b.d.peakBytesPerSecond());
  EXPECT_GT(bw, 0.5 * b.d.peakBytesPerSecond());
  EXPECT_GT(b.ddr->stats().writeStalls, 900u);
}

TEST(Dram, FcfsKeepsArrivalOrder) {
  DdrControllerParams c;
  c.scheduler = "fcfs";
  Bench b(c);
  const std::uint64_t rowStride = b.d.rowBytes() * static_cast<std::uint64_t>(b.d.banks);
  b.init.read(0, 64, 0);
  const std::uint64_t t = 300 * kNs;
  std::uint64_t miss = b.init.read(rowStride, 64, t);      // row miss on bank 0
  std::uint64_t hit = b.init.read(b.d.rowBytes(), 64, t);  // bank 1: ready sooner
  EXPECT_GE(hit, miss);  // FCFS: data in arrival order
}

TEST(Dram, FrFcfsLetsAReadyRequestGoFirst) {
  Bench b;  // frfcfs
  const std::uint64_t rowStride = b.d.rowBytes() * static_cast<std::uint64_t>(b.d.banks);
  b.init.read(0, 64, 0);
  b.init.read(b.d.rowBytes(), 64, 0);  // open a row in bank 1
  const std::uint64_t t = 300 * kNs;
  std::uint64_t miss = b.init.read(rowStride, 64, t);          // bank 0 row miss
  std::uint64_t hit = b.init.read(b.d.rowBytes() + 64, 64, t);  // bank 1 row hit
  EXPECT_LT(hit, miss);
}

TEST(Dram, UnknownSchedulerIsRejectedWithTheKnownNames) {
  DdrControllerParams c;
  c.scheduler = "bliss";
  try {
    DdrController ddr("ddr", c, DramParams{});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fcfs, frfcfs"), std::string::npos) << e.what();
  }
}

TEST(Dram, Ddr4BankGroupsAndTwoChannels) {
  DramParams d;
  d.standard = "ddr4";
  d.data_rate_mts = 2400;
  d.bus_width_bits = 16;
  d.channels = 2;
  d.banks = 16;
  d.bank_groups = 2;
  d.cl_tck = 16;
  d.cwl_tck = 12;
  d.trcd_ns = 13.32;
  d.trp_ns = 13.32;
  d.tras_ns = 32;
  d.trc_ns = 45.32;
  d.trrd_ns = 5.3;
  d.trrd_l_ns = 6.4;
  d.tfaw_ns = 30;
  d.tccd_tck = 4;
  d.tccd_l_tck = 6;
  d.trfc_ns = 350;
  Bench b({}, d);
  EXPECT_EQ(b.ddr->decode(0).channel, 0);
  EXPECT_EQ(b.ddr->decode(128).channel, 1);
  std::uint64_t last = 0;
  const std::uint64_t bytes = 2 << 20;
  for (std::uint64_t a = 0; a < bytes; a += 64) last = std::max(last, b.init.read(a, 64, 0));
  const double bw = static_cast<double>(bytes) / (static_cast<double>(last) * 1e-12);
  EXPECT_LE(bw, d.peakBytesPerSecond());  // 2400 x 2 B x 2 = 9.6 GB/s
  EXPECT_GT(bw, 0.5 * d.peakBytesPerSecond());
}

TEST(Dram, HalfBurstWritesFreeTheBusEarlyOnlyWhereTccdIsShorterThanTheBurst) {
  // 2000 posted 8-byte writes, one per 32-byte BL8 burst: each needs only the first half of
  // its burst. With tCCD = 2 tCK (DDR2's burst interruption) the next write may follow after
  // 2 tCK, so the write stream runs at twice the rate it has with tCCD = 4 tCK (DDR3 burst
  // chop, where the cut burst still holds the bus for 4 tCK). Whole-burst writes are not
  // shortened by tCCD. (One elaboration per test process: both controllers are built first.)
  DdrControllerParams c;
  c.write_queue_depth = 8;
  c.refresh = false;
  DramParams ddr2, ddr3;
  ddr2.tccd_tck = 2;
  ddr3.tccd_tck = 4;
  TestInitiator i2{"i2"}, i3{"i3"};
  DdrController d2("d2", c, ddr2), d3("d3", c, ddr3);
  i2.mem_side.bind(d2.cpu_side);
  i3.mem_side.bind(d3.cpu_side);
  socsim::test::elaborate();
  std::uint64_t start = 10 * kNs;
  auto perWriteTck = [&start](TestInitiator& init, DdrController& ddr, unsigned bytes) {
    ddr.reset();
    const int n = 2000;
    std::uint64_t last = start;
    for (int i = 0; i < n; ++i)
      last = init.write(static_cast<std::uint64_t>(i) * 32, bytes, start);
    const double tck = static_cast<double>(last - start) / static_cast<double>(ddr.channel(0).tckPs()) / n;
    start = last + 100'000 * kNs;
    return tck;
  };
  const double ddr2Half = perWriteTck(i2, d2, 8), ddr3Half = perWriteTck(i3, d3, 8);
  const double ddr2Full = perWriteTck(i2, d2, 32), ddr3Full = perWriteTck(i3, d3, 32);
  // Half a burst is the floor; row switches (tWR, tRP, tRCD every 4 KiB row) add to it.
  EXPECT_GE(ddr2Half, 2.0);
  EXPECT_LT(ddr2Half, 0.75 * ddr3Half);
  EXPECT_NEAR(ddr3Half, 4.0, 0.2);
  EXPECT_NEAR(ddr2Full, 4.0, 0.2);
  EXPECT_NEAR(ddr3Full, ddr2Full, 0.05 * ddr2Full);
}
