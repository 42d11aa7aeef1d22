// The Slurm backend against a real single-node Slurm (issue 10): scripts/slurm-local.sh brings up
// munged, slurmctld and slurmd from Debian's packages, a small sweep runs as a job array with one
// shard per task, `--wait` follows it and collects, and the predictions and explain breakdowns are
// identical to the local backend's. Skips (with the reason) when Slurm cannot be brought up.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string srcDir() { return SOCSIM_TEST_SOURCE_DIR; }
std::string socsimBin() { return std::string(SOCSIM_TEST_BIN_DIR) + "/socsim"; }

/// Run a shell command; returns its exit status and stdout+stderr.
int sh(const std::string& cmd, std::string& out) {
  out.clear();
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/// Rows of `sql` on `db` as text, one line per row.
std::string query(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  std::string out;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return "open failed";
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    out = std::string("sql error: ") + sqlite3_errmsg(h);
  } else {
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        auto* t = sqlite3_column_text(st, c);
        out += (c ? "|" : "") + std::string(t ? reinterpret_cast<const char*>(t) : "NULL");
      }
      out += "\n";
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

class SlurmSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("socsim-test-slurm-" + std::to_string(getpid()))).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A state folder and ports of its own, so that a Slurm brought up by hand keeps running.
    env_ = "SOCSIM_SLURM_DIR=" + dir_ + "/slurm SOCSIM_SLURM_PORT=" + std::to_string(17000 + 2 * (getpid() % 900)) + " ";
    std::string out;
    int rc = sh(env_ + srcDir() + "/scripts/slurm-local.sh start", out);
    if (rc != 0) {
      skipReason_ = "single-node Slurm could not be brought up (scripts/slurm-local.sh start: " + out + ")";
      return;
    }
    up_ = true;
    slurmConf_ = dir_ + "/slurm/slurm.conf";
  }
  void TearDown() override {
    std::string out;
    if (up_) sh(env_ + srcDir() + "/scripts/slurm-local.sh stop", out);
    fs::remove_all(dir_);
  }
  std::string dir_, env_, slurmConf_, skipReason_;
  bool up_ = false;
};

}  // namespace

TEST_F(SlurmSweep, JobArrayShardsGiveTheLocalBackendsNumbers) {
  if (!up_) GTEST_SKIP() << skipReason_;
  std::string spec = dir_ + "/small.yaml";
  std::ofstream(spec) << "name: slurm-vs-local\n"
                         "boards: [j721e-idk-gw]\n"
                         "benchmarks:\n"
                         "  - {family: dhrystone, benchmark: dhrystone_per_second}\n"
                         "  - {family: stream, benchmark: copy}\n"
                         "  - {family: lmbench-mem, benchmark: lat_mem_rd-stride128-sz1000k}\n"
                         "parameters:\n"
                         "  - key: clusters[0].core.clock_mhz\n"
                         "    values: [1000, 2000]\n"
                         "  - key: clusters[0].l2.size\n"
                         "    values: [512KiB, 2MiB]\n";
  std::string local = dir_ + "/local.db", slurm = dir_ + "/slurm.db", out;
  ASSERT_EQ(sh(socsimBin() + " sweep " + spec + " --db " + local + " --jobs 2", out), 0) << out;
  ASSERT_EQ(sh("SLURM_CONF=" + slurmConf_ + " " + socsimBin() + " sweep " + spec + " --db " + slurm +
                   " --backend slurm --array-chunk 2 --wait",
               out),
            0)
      << out;
  EXPECT_NE(out.find("submitted Slurm job"), std::string::npos) << out;
  EXPECT_NE(out.find("2 array tasks, 4 points"), std::string::npos) << out;
  EXPECT_NE(out.find("collected 4 finished points"), std::string::npos) << out;

  // Every point ran in an array task (backend slurm), each task wrote its own shard.
  EXPECT_EQ(query(slurm, "SELECT backend, status, count(*) FROM points GROUP BY backend, status"), "slurm|ok|4\n");
  EXPECT_EQ(query(local, "SELECT backend, status, count(*) FROM points GROUP BY backend, status"), "local|ok|4\n");
  int shards = 0;
  for (const auto& e : fs::recursive_directory_iterator(slurm + ".shards"))
    shards += e.path().filename().string().rfind("shard-", 0) == 0 ? 1 : 0;
  EXPECT_EQ(shards, 2);

  // Identical predictions and explain breakdowns (exact doubles), identical resolved configs.
  const char* tables[] = {
      "SELECT sweep_id, point_index, query_index, status, quote(predicted), quote(lo), quote(hi), reason FROM predictions ORDER BY 1,2,3",
      "SELECT sweep_id, point_index, query_index, position, part, quote(seconds) FROM breakdown ORDER BY 1,2,3,4",
      "SELECT sweep_id, point_index, resolved_config FROM points ORDER BY 1,2"};
  for (const char* sql : tables) {
    std::string a = query(local, sql), b = query(slurm, sql);
    EXPECT_FALSE(a.empty()) << sql;
    EXPECT_EQ(a, b) << sql;
  }
  EXPECT_EQ(query(local, "SELECT count(*) FROM predictions WHERE status='ok'"), "12\n");
  // The CLI export (what scripts read) is byte-identical too.
  std::string ea, eb;
  ASSERT_EQ(sh(socsimBin() + " sweep --db " + local + " --export csv 2>/dev/null", ea), 0);
  ASSERT_EQ(sh(socsimBin() + " sweep --db " + slurm + " --export csv 2>/dev/null", eb), 0);
  EXPECT_EQ(ea, eb);
}
