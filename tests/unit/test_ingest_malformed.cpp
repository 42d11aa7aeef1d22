// Malformed documents through socsim::ingest::ingestFile and the `socsim ingest` binary:
// empty file, truncated mid-table, ragged rows, binary junk, a single 10 MB line, a missing
// file, a directory. Where nothing usable remains: an InputError naming the file (and the line
// where there is one), exit status 2 with the file name on stderr, never a crash. Where
// something usable remains: rows, and the damage reported as a Diagnostic (or a row flag).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "calibration/ingest/ingest.h"
#include "common/error.h"
#include "tests/support/seeds.h"

namespace fs = std::filesystem;
using namespace socsim::ingest;

namespace {

const char* const kSeeds[] = {"000_c397333184f33b18.txt", "001_508a313bc146f3fb.txt",
                              "002_eb73a69247cbc681.txt", "003_5c626eb3448d1a85.txt",
                              "004_d708b8e6c9b42985.txt"};

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A scratch folder per test (ctest runs tests in parallel processes).
class Malformed : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("socsim_malformed_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& content) const {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  /// ingestFile must throw an InputError naming `path`; returns it for further checks.
  static socsim::InputError expectInputError(const std::string& path) {
    try {
      auto r = ingestFile(path);
      ADD_FAILURE() << path << ": expected InputError, got " << r.rows.size() << " rows";
    } catch (const socsim::InputError& e) {
      EXPECT_EQ(e.file(), path);
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      return e;
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << ": expected InputError, got " << e.what();
    }
    return socsim::InputError(path, -1, "", "no InputError");
  }

  struct Run {
    int status = -1;
    std::string err;
  };
  /// `socsim ingest FILE --out DIR`, stderr captured.
  Run cli(const std::string& file) const {
    std::string errFile = (dir_ / "stderr.txt").string();
    std::string cmd = std::string("'") + SOCSIM_TEST_BIN_DIR + "/socsim' ingest '" + file +
                      "' --out '" + (dir_ / "out").string() + "' 2>'" + errFile + "' >/dev/null";
    int rc = std::system(cmd.c_str());
    Run r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + (WIFSIGNALED(rc) ? WTERMSIG(rc) : 0);
    r.err = readFile(errFile);
    return r;
  }
  void expectCliRejects(const std::string& file) const {
    Run r = cli(file);
    EXPECT_EQ(r.status, 2) << file << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << "stderr does not name the file: " << r.err;
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
  }

  fs::path dir_;
};

/// Index of the first line at or after `fromLine` that looks like a table row: >= 4 tokens of
/// which >= 2 are plain numbers ("12.5", "(min"-style tokens do not count). -1 when none.
int findRowLine(const std::vector<std::string>& lines, size_t fromLine) {
  for (size_t i = fromLine; i < lines.size(); ++i) {
    std::istringstream is(lines[i]);
    std::string tok;
    int tokens = 0, numeric = 0;
    while (is >> tok) {
      ++tokens;
      if (tok.find_first_not_of("0123456789.") == std::string::npos &&
          tok.find_first_of("0123456789") == 0)
        ++numeric;
    }
    if (tokens >= 4 && numeric >= 2) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> splitLines(const std::string& t) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : t) {
    if (c == '\n') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::string joinLines(const std::vector<std::string>& l, size_t n) {
  std::string s;
  for (size_t i = 0; i < n && i < l.size(); ++i) s += (i ? "\n" : "") + l[i];
  return s;
}

/// Keep the first half of a line's space-separated tokens.
std::string firstHalf(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> t;
  std::string x;
  while (is >> x) t.push_back(x);
  std::string s;
  for (size_t i = 0; i < t.size() / 2; ++i) s += (i ? " " : "") + t[i];
  return s;
}

/// A Diagnostic at `line` or up to `window` lines above it (a parser may name the row's or the
/// table's first line), or a flagged row at `line`.
bool damageReported(const IngestResult& r, int line, int window = 0) {
  for (const auto& d : r.diagnostics)
    if (d.line <= line && d.line >= line - window) return true;
  for (const auto& row : r.rows)
    if (row.line == line && row.flagged()) return true;
  return false;
}

}  // namespace

TEST_F(Malformed, EmptyFile) {
  std::string p = write("empty.txt", "");
  auto e = expectInputError(p);
  EXPECT_EQ(e.line(), 1);
  expectCliRejects(p);
}

TEST_F(Malformed, BlankLinesOnly) {
  std::string p = write("blank.txt", "\n\n   \n\t\n");
  auto e = expectInputError(p);
  EXPECT_GE(e.line(), 1);
  expectCliRejects(p);
}

TEST_F(Malformed, MissingFile) {
  std::string p = (dir_ / "does_not_exist.txt").string();
  auto e = expectInputError(p);
  EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  expectCliRejects(p);
}

TEST_F(Malformed, Directory) {
  fs::create_directories(dir_ / "a_directory.txt");
  std::string p = (dir_ / "a_directory.txt").string();
  auto e = expectInputError(p);
  EXPECT_NE(std::string(e.what()).find("directory"), std::string::npos) << e.what();
  expectCliRejects(p);
}

TEST_F(Malformed, BinaryJunkWithNuls) {
  std::mt19937 rng(20240601);
  std::string junk(64 * 1024, '\0');
  for (auto& c : junk) c = static_cast<char>(rng() & 0xFF);
  junk[100] = '\0';
  std::string p = write("junk.bin", junk);
  auto e = expectInputError(p);
  EXPECT_GE(e.line(), 1) << "binary input is named at a line";
  expectCliRejects(p);
}

TEST_F(Malformed, BinaryJunkBehindARealTitle) {
  // A guide's first lines, then random bytes: still not text.
  SOCSIM_REQUIRE_SEEDS();
  std::mt19937 rng(7);
  for (const char* s : kSeeds) {
    std::string head = readFile(socsim::test::seedPath(s)).substr(0, 400);
    std::string junk(4096, '\0');
    for (auto& c : junk) c = static_cast<char>(rng() & 0xFF);
    std::string p = write(std::string("junk_") + s, head + "\n" + junk);
    auto e = expectInputError(p);
    EXPECT_GE(e.line(), 1) << s;
  }
}

TEST_F(Malformed, InvalidUtf8WithoutNuls) {
  std::string p = write("latin1.txt", "Benchmarks am335x-evm: perf\nbw_mem \xE9\xE8\xFF 12.5\n");
  auto e = expectInputError(p);
  EXPECT_EQ(e.line(), 2);
  expectCliRejects(p);
}

TEST_F(Malformed, TenMegabyteSingleLine) {
  std::string p = write("one_line.txt", std::string(10 * 1024 * 1024, 'x'));
  auto t0 = std::chrono::steady_clock::now();
  auto e = expectInputError(p);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(e.line(), 1);
  EXPECT_LT(s, 10.0);
  expectCliRejects(p);
}

TEST_F(Malformed, TenMegabyteLineInsideEachLayout) {
  // Each guide with a 10 MB line of number-like tokens inserted after its first third: the
  // parsers must neither hang nor crash, and the rest of the document still yields rows.
  SOCSIM_REQUIRE_SEEDS();
  std::string big;
  big.reserve(10 * 1024 * 1024 + 16);
  while (big.size() < 10 * 1024 * 1024) big += "12.5 (min 1, max 2) | ";
  for (const char* s : kSeeds) {
    std::string text = readFile(socsim::test::seedPath(s));
    size_t cut = text.find('\n', text.size() / 3);
    ASSERT_NE(cut, std::string::npos);
    std::string p =
        write(std::string("big_") + s, text.substr(0, cut + 1) + big + "\n" + text.substr(cut + 1));
    auto t0 = std::chrono::steady_clock::now();
    try {
      auto r = ingestFile(p);
      EXPECT_GT(r.rows.size(), 10u) << s;
    } catch (const socsim::InputError& e) {
      ADD_FAILURE() << s << ": usable rows remain, yet InputError: " << e.what();
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(secs, 20.0) << s;
    std::printf("[ 10 MB    ] %s: %.2f s\n", s, secs);
  }
}

TEST_F(Malformed, TruncatedMidTable) {
  // Cut each guide inside a value cell at about 60 % of its lines ("19.28 (min 18.32," where
  // cells carry (min, max); half a row in 004): rows remain, and the damage is reported (a
  // Diagnostic at or just above the cut, or a flagged row there).
  SOCSIM_REQUIRE_SEEDS();
  for (const char* s : kSeeds) {
    auto lines = splitLines(readFile(socsim::test::seedPath(s)));
    int row = -1;
    std::string cutLine;
    for (size_t i = lines.size() * 6 / 10; i < lines.size() && row < 0; ++i) {
      size_t m = lines[i].find(" (min ");
      if (m == std::string::npos) continue;
      size_t comma = lines[i].find(',', m);
      if (comma == std::string::npos) continue;
      row = static_cast<int>(i);
      cutLine = lines[i].substr(0, comma + 1);
    }
    if (row < 0) {  // 004: no (min, max) cells
      row = findRowLine(lines, lines.size() * 6 / 10);
      ASSERT_GE(row, 0) << s;
      cutLine = firstHalf(lines[static_cast<size_t>(row)]);
    }
    lines[static_cast<size_t>(row)] = cutLine;
    std::string p =
        write(std::string("trunc_") + s, joinLines(lines, static_cast<size_t>(row) + 1));
    int dropped = 0;
    try {
      auto r = ingestFile(p);
      EXPECT_GT(r.rows.size(), 0u) << s;
      for (const auto& d : r.diagnostics) dropped += d.dropped;
      // Window: the pipe and cell-per-line layouts hold one cell per line; their parsers name
      // the row's or the table's first line (a few lines above the cut).
      EXPECT_TRUE(damageReported(r, row + 1, 15))
          << s << ": cut at line " << row + 1 << " ('" << cutLine
          << "') is reported by no diagnostic or flag";
    } catch (const socsim::InputError& e) {
      ADD_FAILURE() << s << ": usable rows remain, yet InputError: " << e.what();
    }
    // Printed items the cut left out of the output make the exit status 2 (bad data, nothing
    // silently dropped); the rows that remain are written either way.
    Run c = cli(p);
    EXPECT_EQ(c.status, dropped ? 2 : 0) << s << ": " << c.err;
  }
}

TEST_F(Malformed, TruncatedAtEveryTenthOfTheFile) {
  // Byte-level cuts anywhere: an InputError or rows, never anything else.
  SOCSIM_REQUIRE_SEEDS();
  for (const char* s : kSeeds) {
    std::string text = readFile(socsim::test::seedPath(s));
    for (int tenth = 1; tenth < 10; ++tenth) {
      std::string p = write(std::string("cut_") + std::to_string(tenth) + "_" + s,
                            text.substr(0, text.size() * tenth / 10));
      try {
        auto r = ingestFile(p);
        EXPECT_GT(r.rows.size(), 0u);
      } catch (const socsim::InputError& e) {
        EXPECT_EQ(e.file(), p);
      }
    }
  }
}

TEST_F(Malformed, RaggedRowInSpacedAndMcuLayouts) {
  // A value removed from one row of a row-per-line table (000, 004): the other rows are
  // written and the ragged row is reported at its line.
  SOCSIM_REQUIRE_SEEDS();
  for (const char* s : {kSeeds[0], kSeeds[4]}) {
    auto lines = splitLines(readFile(socsim::test::seedPath(s)));
    int row = findRowLine(lines, lines.size() / 2);
    ASSERT_GE(row, 0) << s;
    std::string& l = lines[static_cast<size_t>(row)];
    std::string original = l;
    l = l.substr(0, l.find_last_of(' '));  // drop the last cell
    std::string p = write(std::string("ragged_") + s, joinLines(lines, lines.size()));
    auto r = ingestFile(p);
    EXPECT_GT(r.rows.size(), 100u) << s;
    EXPECT_TRUE(damageReported(r, row + 1)) << s << ": ragged line " << row + 1 << " ('" << l
                                            << "', was '" << original << "') not reported";
  }
}

TEST_F(Malformed, RaggedRowsInMcuTables) {
  // Three kinds of damage in 004: a missing value, an extra value, a non-numeric value.
  SOCSIM_REQUIRE_SEEDS();
  std::string text = readFile(socsim::test::seedPath(kSeeds[4]));
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t p = text.find(from);
    ASSERT_NE(p, std::string::npos) << from;
    text.replace(p, from.size(), to);
  };
  replace("SBL : SYSFW Load 12.159", "SBL : SYSFW Load");                        // line 36
  replace("r5f0-0 r5f0-1 32 0.775", "r5f0-0 r5f0-1 32 0.775 9");                 // line 215
  replace("256 Encryption 8.00 KB 1046.608376", "256 Encryption 8.00 KB fast");  // line 310
  std::string p = write("ragged_004.txt", text);
  auto r = ingestFile(p);
  EXPECT_EQ(r.rows.size(), 236u - 3u);
  for (int line : {36, 215, 310}) EXPECT_TRUE(damageReported(r, line)) << "line " << line;
  for (const auto& d : r.diagnostics) EXPECT_EQ(d.file, p);
}

TEST_F(Malformed, NotAGuide) {
  std::string p = write("prose.txt", "Dear reader,\nthis is a letter with 3 numbers: 1 2 3.\n");
  auto e = expectInputError(p);
  EXPECT_GE(e.line(), 1);
  expectCliRejects(p);
}

TEST_F(Malformed, CliKeepsGoodDocumentsNextToBadOnes) {
  SOCSIM_REQUIRE_SEEDS();
  std::string bad = write("empty.txt", "");
  std::string errFile = (dir_ / "stderr.txt").string();
  std::string cmd = std::string("'") + SOCSIM_TEST_BIN_DIR + "/socsim' ingest '" + bad + "' '" +
                    socsim::test::seedPath(kSeeds[4]) + "' --out '" + (dir_ / "out").string() +
                    "' 2>'" + errFile + "' >/dev/null";
  int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  std::string err = readFile(errFile);
  EXPECT_NE(err.find(bad), std::string::npos) << err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "004_d708b8e6c9b42985.csv"));
}
