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

#include "soc/config/loader.h"
#include "tests/support/child_process.h"
#include "validation/board_runner.h"
#include "workloads/os/code_run_store.h"
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

/// lat_pipe and lat_syscall-null on am335x-evm in a child process, sharing runs via `dir`.
std::string predictInChild(const std::string& dir) {
  return test::runInChild([&] {
    std::ostringstream os;
    try {
      setCodeRunStoreDir(dir);
      validation::BoardRunContext ctx(
          std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am335x-evm"))));
      OsBenchmarks w(defaultOsDataDir());
      for (const char* b : {"lat_pipe", "lat_syscall-null"}) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g\n",
                      w.predict(ctx, {"lmbench-os", b, "perf", "", "us"}).value);
        os << buf;
      }
    } catch (const std::exception& e) {
      os << "error: " << e.what();
    } catch (const wl::NotModelled& e) {
      os << "not modelled: " << e.reason;
    }
    return os.str();
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
