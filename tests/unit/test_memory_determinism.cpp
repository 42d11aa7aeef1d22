// Issue 3's determinism check on the real program: two runs of
// `socsim validate --family lmbench-mem,stream --format csv` on one board give byte-identical
// output (fixed seeds, no wall-clock input, page map and replacement seeds fixed).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

/// Runs the validate command for `board` into `out`; returns the exit status.
int validate(const std::string& board, const std::string& out) {
  const std::string cmd = std::string(SOCSIM_TEST_BIN_DIR) + "/socsim validate --board " + board +
                          " --family lmbench-mem,stream --format csv --no-out -j 1 > " + out +
                          " 2> /dev/null";
  return std::system(cmd.c_str());
}

}  // namespace

TEST(MemoryDeterminism, TwoValidateRunsGiveIdenticalCsv) {
  const std::string dir = ::testing::TempDir();
  const std::string a = dir + "/memfit_det_a_" + std::to_string(getpid()) + ".csv";
  const std::string b = dir + "/memfit_det_b_" + std::to_string(getpid()) + ".csv";
  // AM65x: both families, an L1 prefetcher, scattered pages and a shared L2.
  ASSERT_EQ(validate("am654x-evm", a), 0);
  ASSERT_EQ(validate("am654x-evm", b), 0);
  const std::string first = slurp(a), second = slurp(b);
  std::remove(a.c_str());
  std::remove(b.c_str());
  ASSERT_GT(first.size(), 200u) << "no CSV written";
  EXPECT_NE(first.find("lat_mem_rd-stride128-sz31k"), std::string::npos);
  EXPECT_NE(first.find(",stream,copy,"), std::string::npos);
  EXPECT_EQ(first, second);
}
