// CPU benchmark workloads: profiles load, every measured row of the CPU families is covered,
// the stream generator is deterministic and follows its profile, and predictions on the boards'
// core presets keep the published order of the core types.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "calibration/dataset/measured_row.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/cpu/stream_generator.h"

using namespace socsim;
using namespace socsim::wl::cpu;

namespace {

const std::set<std::string> kFamilies = {"dhrystone",   "whetstone",    "linpack",    "nbench",
                                         "lmbench-ops", "coremark-pro", "multibench", "mathlib"};

const WorkloadProfile& profileNamed(const std::vector<WorkloadProfile>& ps, const std::string& n) {
  for (const auto& p : ps)
    if (p.info.name == n) return p;
  throw std::runtime_error("no profile " + n);
}

std::vector<models::DynInst> take(StreamGenerator& g, std::size_t n) {
  std::vector<models::DynInst> v(n);
  std::size_t got = 0;
  while (got < n) got += g.next(v.data() + got, n - got);
  return v;
}

/// The board's main core over a memory with its L1 geometry and its L2 hit latency behind.
ProfileRun runOnBoardCore(const WorkloadProfile& p, const std::string& board) {
  auto b =
      soc::loadBoard(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/" + board + ".yaml");
  const auto& c = b.mainCluster();
  models::FixedLatencyMemory::Config mc;
  if (c.l1d) {
    mc.l1d_bytes = c.l1d->size_bytes;
    mc.ways = c.l1d->associativity;
    mc.line_bytes = c.l1d->line_bytes;
    mc.l1_hit_latency_cycles = c.l1d->hit_latency_cycles;
  }
  if (c.l1i) mc.l1i_bytes = c.l1i->size_bytes;
  if (c.l2) mc.next_level_latency_cycles = c.l2->hit_latency_cycles;
  models::FixedLatencyMemory mem(mc);
  return runProfileOn(p, c.core, c.timing, mem);
}

}  // namespace

TEST(CpuProfiles, AllLoadWithoutError) {
  std::vector<WorkloadProfile> ps;
  ASSERT_NO_THROW(ps = loadProfiles(defaultProfileDir()));
  EXPECT_FALSE(ps.empty());
  std::set<std::string> names;
  for (const auto& p : ps) {
    EXPECT_TRUE(names.insert(p.info.name).second) << "duplicate profile name " << p.info.name;
    EXPECT_GT(p.mix.total(), 0.99) << p.file;
    EXPECT_LT(p.mix.total(), 1.01) << p.file;
    EXPECT_FALSE(p.rows.empty()) << p.file;
  }
}

// Every measured row of the CPU families (except Mathlib's accuracy column, not a timing) has a
// workload: coverage is 100 % by construction of the profiles, checked against the dataset.
TEST(CpuProfiles, EveryMeasuredCpuRowIsCovered) {
  auto rows = calib::readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  CpuBenchmarks w(defaultProfileDir());
  int n = 0;
  std::map<std::string, int> missing;
  for (const auto& r : rows) {
    if (!kFamilies.count(r.family)) continue;
    if (r.family == "mathlib" && r.metric == "Err Max") continue;
    ++n;
    wl::Query q{r.family, r.benchmark, r.metric, r.params, r.unit};
    if (!w.covers(q)) ++missing[r.family + "/" + r.benchmark + "/" + r.params + "/" + r.unit];
  }
  EXPECT_GT(n, 400);
  for (const auto& [k, c] : missing) ADD_FAILURE() << "not covered: " << k << " (" << c << " rows)";
}

TEST(StreamGenerator, SameProfileAndSeedGiveTheSameStream) {
  auto ps = loadProfiles(defaultProfileDir());
  const auto& p = profileNamed(ps, "dhrystone");
  StreamGenerator a(p), b(p);
  auto x = take(a, 50000), y = take(b, 50000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(x[i].pc, y[i].pc) << i;
    ASSERT_EQ(x[i].addr, y[i].addr) << i;
    ASSERT_EQ(x[i].cls, y[i].cls) << i;
    ASSERT_EQ(x[i].taken, y[i].taken) << i;
    ASSERT_EQ(x[i].dep1, y[i].dep1) << i;
  }
  // Another thread: the same code, its own data.
  StreamGenerator c(p, 1, 0x80000000ull);
  auto z = take(c, 1000);
  EXPECT_EQ(z[10].pc, x[10].pc);
  EXPECT_EQ(z[10].cls, x[10].cls);
}

TEST(StreamGenerator, FollowsTheProfileMixAndBranchBehaviour) {
  WorkloadProfile p;
  p.info.name = "t";
  p.mix.int_alu = 0.5;
  p.mix.load = 0.2;
  p.mix.store = 0.1;
  p.mix.branch = 0.2;
  p.code.footprint_bytes = 256 * 1024;  // many static instructions: the law of large numbers
  p.branches = {};
  p.branches.always_taken = 0;
  p.branches.loop = 0;
  p.branches.biased = 0;
  p.branches.pattern = 0;
  p.branches.random = 1.0;
  StreamGenerator g(p);
  auto m = g.staticMix();
  EXPECT_NEAR(m[static_cast<int>(models::OpClass::IntAlu)], 0.5, 0.01);
  EXPECT_NEAR(m[static_cast<int>(models::OpClass::Load)], 0.2, 0.01);
  EXPECT_NEAR(m[static_cast<int>(models::OpClass::Branch)], 0.2, 0.01);
  auto v = take(g, 200000);
  double br = 0, taken = 0;
  for (const auto& d : v)
    if (d.cls == models::OpClass::Branch) {
      ++br;
      taken += d.taken;
    }
  EXPECT_NEAR(taken / br, 0.5, 0.02);
}

TEST(CpuWorkloads, ProfileRunIsDeterministic) {
  auto ps = loadProfiles(defaultProfileDir());
  const auto& p = profileNamed(ps, "dhrystone");
  auto a = runOnBoardCore(p, "am654x-evm");
  auto b = runOnBoardCore(p, "am654x-evm");
  EXPECT_EQ(a.stats.cycles, b.stats.cycles);
  EXPECT_EQ(a.stats.mispredicts, b.stats.mispredicts);
  EXPECT_DOUBLE_EQ(a.unitsPerSecond, b.unitsPerSecond);
}

// The published order of Dhrystone per MHz across core types (Cortex-A72 > A15 > A53 > A8 >
// ARM926EJ-S), from the core presets alone.
TEST(CpuWorkloads, DhrystonePerMhzFollowsTheCoreTypes) {
  auto ps = loadProfiles(defaultProfileDir());
  const auto& p = profileNamed(ps, "dhrystone");
  const char* boards[] = {"j721e-idk-gw", "am57xx-evm", "am654x-evm", "am335x-evm",
                          "omapl138-lcdk"};
  double prev = 1e30;
  for (const char* b : boards) {
    auto r = runOnBoardCore(p, b);
    double dmipsPerMhz = r.unitsPerSecond / r.clockMhz / 1757.0;
    std::cout << b << ": " << dmipsPerMhz << " DMIPS/MHz, IPC " << r.stats.ipc() << " |";
    for (size_t i = 0; i < r.stats.partNames.size(); ++i)
      if (r.stats.partCycles[i] > 0)
        std::cout << " " << r.stats.partNames[i] << " "
                  << std::round(100.0 * r.stats.partCycles[i] / r.stats.cycles) << "%";
    std::cout << "  mispredict rate " << double(r.stats.mispredicts) / r.stats.branches << "\n";
    EXPECT_LT(dmipsPerMhz, prev) << b;
    prev = dmipsPerMhz;
  }
}

// On the elaborated platform: the three Dhrystone rows and a breakdown that adds up.
TEST(CpuWorkloads, DhrystoneOnThePlatform) {
  validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(
      soc::loadBoard(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/am654x-evm.yaml")));
  CpuBenchmarks w(defaultProfileDir());
  wl::Query perMhz{"dhrystone", "dhrystone_per_mhz", "perf", "", "DMIPS/MHz"};
  wl::Query perSec{"dhrystone", "dhrystone_per_second", "perf", "", "Dhrystones/s"};
  wl::Query clock{"dhrystone", "cpu_clock", "perf", "", "MHz"};
  ASSERT_TRUE(w.covers(perMhz));
  auto a = w.predict(ctx, perMhz);
  auto s = w.predict(ctx, perSec);
  auto c = w.predict(ctx, clock);
  EXPECT_DOUBLE_EQ(c.value, 800.0);
  EXPECT_NEAR(a.value, s.value / 1757.0 / 800.0, 1e-9);
  EXPECT_GT(a.value, 1.0);
  double sum = 0;
  for (const auto& [part, sec] : s.breakdown.seconds) sum += sec;
  EXPECT_NEAR(sum, 1.0 / s.value, 1e-3 / s.value);
  // A row in another unit is not modelled rather than mis-scaled.
  wl::Query wrongUnit = perSec;
  wrongUnit.unit = "DMIPS";
  EXPECT_THROW(w.predict(ctx, wrongUnit), wl::NotModelled);
}

// CoreMark-Pro contexts on several cores of the platform: a cache-resident workload (SHA-256)
// scales almost linearly from one to two cores, and four contexts on a two-core SoC time-share
// its two cores (the guide's four-core table lists the two-core J7 SoCs with their two-core
// results).
TEST(CpuWorkloads, CoreMarkProContextsScaleOverTheCores) {
  validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(
      soc::loadBoard(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/j7200-evm.yaml")));
  CpuBenchmarks w(defaultProfileDir());
  auto q = [](int cores) {
    return wl::Query{"coremark-pro", "sha-test", "perf", "cores=" + std::to_string(cores),
                     "workloads/s"};
  };
  double r1 = w.predict(ctx, q(1)).value;
  double r2 = w.predict(ctx, q(2)).value;
  double r4 = w.predict(ctx, q(4)).value;
  EXPECT_GT(r2 / r1, 1.8);
  EXPECT_LE(r2 / r1, 2.0 + 1e-9);
  EXPECT_DOUBLE_EQ(r4, r2);
  // The score is the geometric mean of the nine workloads with EEMBC's scale factors.
  wl::Query score{"coremark-pro", "coremark-pro", "perf", "cores=1", "score"};
  auto s = w.predict(ctx, score);
  EXPECT_GT(s.value, 0);
}
