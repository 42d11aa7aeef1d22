// Warm kernel-code runs shared between processes (workloads/os/code_run_store.h): the key
// follows the hardware and the kernel profile but not the kernel-path counts or the sources of
// values, a stored run gives the same prediction as a simulated one, and a damaged or foreign
// entry is never used.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "soc/config/loader.h"
#include "tests/support/child_process.h"
#include "validation/board_runner.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/os/code_run_store.h"
#include "workloads/os/memory_kernel_costs.h"
#include "workloads/os/os_benchmarks.h"

using namespace socsim;
using namespace socsim::wl::os;
namespace fs = std::filesystem;

namespace {

std::string boardFile(const std::string& b) {
  return std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/" + b + ".yaml";
}

std::string tempDir(const std::string& tag) {
  return (fs::temp_directory_path() /
          ("socsim-test-code-runs-" + tag + "-" + std::to_string(::getpid())))
      .string();
}

/// Run `body` in a child process with runs shared via `dir`: what it prints, or the error.
template <class Body>
std::string inChild(const std::string& dir, Body body) {
  return test::runInChild([&] {
    std::ostringstream os;
    try {
      setCodeRunStoreDir(dir);
      body(os);
    } catch (const std::exception& e) {
      os << "error: " << e.what();
    } catch (const wl::NotModelled& e) {
      os << "not modelled: " << e.reason;
    }
    return os.str();
  });
}

void printValue(std::ostream& os, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g\n", v);
  os << buf;
}

/// lat_pipe and lat_syscall-null on am335x-evm in a child process, sharing runs via `dir`.
std::string predictInChild(const std::string& dir) {
  return inChild(dir, [](std::ostream& os) {
    validation::BoardRunContext ctx(
        std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am335x-evm"))));
    OsBenchmarks w(defaultOsDataDir());
    for (const char* b : {"lat_pipe", "lat_syscall-null"})
      printValue(os, w.predict(ctx, {"lmbench-os", b, "perf", "", "us"}).value);
  });
}

}  // namespace

TEST(CodeRunStore, HardwareFingerprintIgnoresKernelPathsAndFollowsTheCore) {
  auto plain = soc::loadBoard(boardFile("am335x-evm"));
  auto longer = soc::loadBoard(boardFile("am335x-evm"),
                               {"software.kernel_paths.switch_instructions=5000"});
  ASSERT_EQ(longer.software.kernel_paths.switch_instructions, 5000);
  EXPECT_EQ(hardwareFingerprint(plain), hardwareFingerprint(longer));
  auto faster = soc::loadBoard(boardFile("am335x-evm"), {"core.clock_mhz=500"});
  EXPECT_NE(hardwareFingerprint(plain), hardwareFingerprint(faster));
}

TEST(CodeRunStore, ProfileFingerprintFollowsFootprintAndMix) {
  wl::cpu::WorkloadProfile a;
  wl::cpu::WorkloadProfile b = a;
  EXPECT_EQ(profileFingerprint(a), profileFingerprint(b));
  b.code.footprint_bytes *= 2;
  EXPECT_NE(profileFingerprint(a), profileFingerprint(b));
  b = a;
  b.mix.load += 0.01;
  EXPECT_NE(profileFingerprint(a), profileFingerprint(b));
}

TEST(CodeRunStore, RoundTripAndRejectsDamagedEntries) {
  const std::string dir = tempDir("roundtrip");
  fs::remove_all(dir);
  setCodeRunStoreDir("");
  CodeRun r;
  r.cpi = 1.2345678901234567;
  r.l1iPerKi = 3.5;
  r.l1dPerKi = 0.25;
  r.shares = {{"base", 0.75}, {"l1i miss", 0.25}};
  saveCodeRun("k", r);  // off: nothing stored
  EXPECT_FALSE(loadCodeRun("k"));

  setCodeRunStoreDir(dir);
  saveCodeRun("key one", r);
  auto back = loadCodeRun("key one");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->cpi, r.cpi);
  EXPECT_EQ(back->l1iPerKi, r.l1iPerKi);
  EXPECT_EQ(back->l1dPerKi, r.l1dPerKi);
  EXPECT_EQ(back->shares, r.shares);
  EXPECT_FALSE(loadCodeRun("key two"));

  // Truncate every entry: a damaged entry is a miss, not a wrong run.
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string text;
    {
      std::ifstream in(e.path(), std::ios::binary);
      std::getline(in, text);  // the key length only
    }
    std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << text << "\nkey one\n";
  }
  EXPECT_FALSE(loadCodeRun("key one"));
  setCodeRunStoreDir("");
  fs::remove_all(dir);
}

TEST(CodeRunStore, StoredRunsPredictLikeSimulatedOnes) {
  const std::string dir = tempDir("predict");
  fs::remove_all(dir);
  const std::string alone = predictInChild("");
  const std::string first = predictInChild(dir);   // simulates and stores
  ASSERT_FALSE(fs::is_empty(dir));
  const std::string second = predictInChild(dir);  // reads the stored runs
  fs::remove_all(dir);
  EXPECT_EQ(alone.find("error"), std::string::npos) << alone;
  EXPECT_EQ(alone, first);
  EXPECT_EQ(first, second);
}

namespace {

/// A copy of configs/workloads with sha-test's path length multiplied by `factor`.
std::string profileCopy(const std::string& tag, double factor) {
  const std::string dir = tempDir("profiles-" + tag);
  fs::remove_all(dir);
  fs::copy(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/workloads", dir,
           fs::copy_options::recursive);
  const std::string file = dir + "/coremark-pro/sha-test.yaml";
  std::string text;
  {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const std::string key = "instructions_per_unit: {value: ";
  const auto at = text.find(key);
  if (at == std::string::npos) return "";
  const auto end = text.find(',', at);
  const double v = std::stod(text.substr(at + key.size(), end - at - key.size()));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v * factor);
  text.replace(at + key.size(), end - at - key.size(), buf);
  std::ofstream(file) << text;
  return dir;
}

/// CoreMark-PRO sha-test on j722s_evm-fs at 1 and 4 contexts, profiles from `profiles`.
std::string predictCpuInChild(const std::string& dir, const std::string& profiles) {
  return inChild(dir, [&](std::ostream& os) {
    validation::BoardRunContext ctx(
        std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("j722s_evm-fs"))));
    wl::cpu::CpuBenchmarks w(profiles);
    for (const char* c : {"cores=1", "cores=4"})
      printValue(os, w.predict(ctx, {"coremark-pro", "sha-test", "perf", c, "workloads/s"}).value);
  });
}

std::vector<double> numbers(const std::string& s) {
  std::istringstream in(s);
  std::vector<double> v;
  double x = 0;
  while (in >> x) v.push_back(x);
  return v;
}

}  // namespace

// CPU profile runs (workloads/cpu/cpu_workloads.cpp) share the folder: the key leaves the path
// length out, so a trial with another path length reads the stored run and rescales it, and
// gets what a simulation with that path length gives.
TEST(CodeRunStore, StoredProfileRunsRescaleToThePathLength) {
  const std::string dir = tempDir("cpu");
  fs::remove_all(dir);
  const std::string base = std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/workloads";
  const std::string longer = profileCopy("x2", 2.0);
  ASSERT_FALSE(longer.empty());
  const auto simulated = numbers(predictCpuInChild("", longer));
  const auto first = numbers(predictCpuInChild(dir, base));  // simulates and stores
  ASSERT_FALSE(fs::is_empty(dir));
  const auto rescaled = numbers(predictCpuInChild(dir, longer));  // reads and rescales
  ASSERT_EQ(simulated.size(), 2u);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(rescaled.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(rescaled[i], simulated[i], 1e-9 * simulated[i]) << i;
    EXPECT_NEAR(first[i] / rescaled[i], 2.0, 1e-9) << i;
  }
  setCodeRunStoreDir("");
  fs::remove_all(dir);
  fs::remove_all(longer);
}

namespace {

/// The o2c kernel costs (open/close and mmap/munmap, each with the refill after a pass of
/// `passBytes`: OsMachine::codeAfterData) of am335x-evm with `overrides`, in a child process
/// sharing runs via `dir`.
std::string kernelCostsInChild(const std::string& dir, const std::vector<std::string>& overrides,
                               std::uint64_t passBytes) {
  return inChild(dir, [&](std::ostream& os) {
    validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(
        soc::loadBoard(boardFile("am335x-evm"), overrides)));
    auto k = memoryKernelCosts(ctx, passBytes);
    if (!k) return;
    printValue(os, k->openCloseNs);
    printValue(os, k->mmapMunmapNs);
  });
}

}  // namespace

// The refill runs after a pass over the file (lmbench o2c rows) share the folder too: a stored
// refill gives what a simulation gives, and a trial that changes what the runs read (a latency
// of the memory path, the kernel path's length, the bytes of the pass) does not read another
// trial's refill.
TEST(CodeRunStore, StoredRefillsAfterDataFollowWhatTheRunsRead) {
  const std::string dir = tempDir("refill");
  fs::remove_all(dir);
  constexpr std::uint64_t kMiB = 1 << 20;
  const std::string alone = kernelCostsInChild("", {}, kMiB);
  ASSERT_EQ(numbers(alone).size(), 2u) << alone;
  EXPECT_EQ(kernelCostsInChild(dir, {}, kMiB), alone);  // simulates and stores
  ASSERT_FALSE(fs::is_empty(dir));
  EXPECT_EQ(kernelCostsInChild(dir, {}, kMiB), alone);  // reads the stored refills
  const std::vector<std::pair<std::vector<std::string>, std::uint64_t>> trials = {
      {{"l2.miss_latency_cycles=40"}, kMiB},
      {{"software.kernel_paths.open_instructions=6000"}, kMiB},
      {{}, kMiB / 2}};
  for (const auto& [overrides, bytes] : trials) {
    const std::string simulated = kernelCostsInChild("", overrides, bytes);
    ASSERT_EQ(numbers(simulated).size(), 2u) << simulated;
    EXPECT_NE(simulated, alone) << bytes;
    EXPECT_EQ(kernelCostsInChild(dir, overrides, bytes), simulated) << bytes;
  }
  setCodeRunStoreDir("");
  fs::remove_all(dir);
}
