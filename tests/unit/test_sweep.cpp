// Sweeps (issue 10): the spec is checked before anything runs, points expand deterministically
// (grid order, LHS strata), worker results cross the pipe exactly, the database resumes and
// merges shards, and the local backend records crashes and timeouts and loses nothing on an
// interrupt.
#include <gtest/gtest.h>
#include <algorithm>
#include <signal.h>
#include <sys/wait.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "common/csv.h"
#include "common/error.h"
#include "sweep/local_backend.h"
#include "sweep/plot.h"
#include "sweep/point_run.h"
#include "sweep/report.h"
#include "sweep/results_db.h"
#include "sweep/spec.h"
#include "sweep/slurm_backend.h"
#include "sweep/summary.h"

namespace fs = std::filesystem;
using namespace socsim;
using namespace socsim::sweep;

namespace {

std::string boardsDir() { return std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards"; }

std::string tmpDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("socsim-test-sweep-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

const char* kGrid = R"(name: g
boards: [j721e-idk-gw]
benchmarks:
  - {family: dhrystone}
parameters:
  - key: clusters[0].core.clock_mhz
    range: {from: 1000, to: 2000, step: 500}
  - key: dram.data_rate
    values: [2666MT/s, 4266MT/s]
    with:
      ddr_controller.clock_mhz: [666.5, 1066.5]
)";

Spec parse(const std::string& text) { return parseSpecText(text, "spec.yaml", boardsDir()); }

/// The InputError message of parsing `text` ("" when it parses).
std::string parseError(const std::string& text) {
  try {
    Spec s = parse(text);
    checkAgainstBoards(s, expand(s));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST(SweepSpec, GridIsTheCrossProductFirstKeySlowestWithLinkedKeys) {
  Spec s = parse(kGrid);
  auto pts = expand(s);
  ASSERT_EQ(pts.size(), 6u);  // 3 clocks x 2 rates
  EXPECT_EQ(pts[0].swept[0].second, "1000");
  EXPECT_EQ(pts[0].swept[1].second, "2666MT/s");
  EXPECT_EQ(pts[1].swept[1].second, "4266MT/s");
  EXPECT_EQ(pts[2].swept[0].second, "1500");
  EXPECT_EQ(pts[5].swept[0].second, "2000");
  // The linked controller clock follows the data rate, value by value.
  std::vector<std::string> want = {"clusters[0].core.clock_mhz=1000", "dram.data_rate=4266MT/s",
                                   "ddr_controller.clock_mhz=1066.5"};
  EXPECT_EQ(pts[1].overrides, want);
  for (size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(pts[i].index, static_cast<int>(i));
}

TEST(SweepSpec, RangeStepsLandOnTheEndpointWithoutBinaryNoise) {
  Spec s = parse(replace(kGrid, "{from: 1000, to: 2000, step: 500}", "{from: 0.1, to: 0.3, step: 0.1}"));
  auto pts = expand(s);
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(pts[2].swept[0].second, "0.2");
  EXPECT_EQ(pts[4].swept[0].second, "0.3");
}

TEST(SweepSpec, LatinHypercubeUsesEveryStratumOnceAndIsDeterministic) {
  std::string text = replace(kGrid, "parameters:", "sampling: {method: lhs, samples: 40, seed: 5}\nparameters:");
  text = replace(text, "{from: 1000, to: 2000, step: 500}", "{from: 1000, to: 2000}");
  Spec s = parse(text);
  auto pts = expand(s);
  ASSERT_EQ(pts.size(), 40u);
  std::set<int> strata;
  std::map<std::string, int> rates;
  for (const auto& p : pts) {
    double mhz = std::stod(p.swept[0].second);
    ASSERT_GE(mhz, 1000);
    ASSERT_LT(mhz, 2000);
    strata.insert(static_cast<int>((mhz - 1000) / 1000 * 40));
    rates[p.swept[1].second]++;
  }
  EXPECT_EQ(strata.size(), 40u);  // one point in each of the 40 clock strata
  EXPECT_EQ(rates["2666MT/s"], 20);  // a two-value list: each value in half the strata
  EXPECT_EQ(rates["4266MT/s"], 20);
  auto again = expand(parse(text));
  for (size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(pts[i].overrides, again[i].overrides);
  auto other = expand(parse(replace(text, "seed: 5", "seed: 6")));
  EXPECT_NE(sweepId(s, pts), sweepId(s, other));
  EXPECT_EQ(sweepId(s, pts), sweepId(parse(text + "# a comment\n"), again));
}

TEST(SweepSpec, RandomSamplingStaysInsideTheRangeAndOnTheStepLattice) {
  std::string text = replace(kGrid, "parameters:", "sampling: {method: random, samples: 30, seed: 1}\nparameters:");
  auto pts = expand(parse(replace(text, "step: 500", "step: 250")));
  ASSERT_EQ(pts.size(), 30u);
  std::set<std::string> seen;
  for (const auto& p : pts) seen.insert(p.swept[0].second);
  for (const auto& v : seen) EXPECT_TRUE(v == "1000" || v == "1250" || v == "1500" || v == "1750" || v == "2000") << v;
  EXPECT_GE(seen.size(), 3u);
}

TEST(SweepSpec, BadSpecsAreErrorsNamingFileLineAndKey) {
  struct Case {
    std::string from, to, expect;
  };
  std::vector<Case> cases = {
      {"boards:", "bords: [x]\nboards:", "unknown key 'bords' (did you mean 'boards'?)"},
      {"{from: 1000, to: 2000, step: 500}", "{from: 2000, to: 1000, step: 500}", "empty range"},
      {"{from: 1000, to: 2000, step: 500}", "{from: 1000, to: 2000}", "a grid needs a step"},
      {"{from: 1000, to: 2000, step: 500}", "{from: 1000, to: 2000, step: 0}", "step must be > 0"},
      // A typo in the step must be an error at once, not a grid built until memory runs out.
      {"{from: 1000, to: 2000, step: 500}", "{from: 1000, to: 2000, step: 0.0000001}",
       "expected at most 1000000 per swept key"},
      {"values: [2666MT/s, 4266MT/s]", "values: []", "empty list"},
      {"[666.5, 1066.5]", "[666.5]", "expected 2 values"},
      {"parameters:", "sampling: {method: sobol}\nparameters:", "unknown method 'sobol'"},
      {"parameters:", "sampling: {method: lhs}\nparameters:", "needs 'samples: N'"},
      {"[j721e-idk-gw]", "[j721e-idk]", "j721e-idk"},
      {"{family: dhrystone}", "{famliy: dhrystone}", "did you mean 'family'"},
      // The name is the Slurm shard folder's name: '../x' wrote outside <db>.shards/.
      {"name: g", "name: ../escape", "expected letters, digits"},
      {"name: g", "name: a/b", "expected letters, digits"},
      {"name: g", "name: ..", "starts with '.'"},
  };
  for (const auto& c : cases) {
    std::string msg = parseError(replace(kGrid, c.from, c.to));
    EXPECT_NE(msg.find("spec.yaml"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "want '" << c.expect << "' in: " << msg;
  }
}

TEST(SweepSpec, ValuesAreCheckedAgainstTheConfigSchemaBeforeAnythingRuns) {
  // Out of the parameter's bounds (core clock 1 .. 10000 MHz): the range's far end is caught.
  std::string msg = parseError(replace(kGrid, "to: 2000, step: 500", "to: 20000, step: 9500"));
  EXPECT_NE(msg.find("spec.yaml:6"), std::string::npos) << msg;
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
  // An unknown config key, with the nearest valid key.
  msg = parseError(replace(kGrid, "clusters[0].core.clock_mhz", "clusters[0].core.clok_mhz"));
  EXPECT_NE(msg.find("did you mean 'clock_mhz'"), std::string::npos) << msg;
  // A bad unit in a listed value, and in a linked key.
  msg = parseError(replace(kGrid, "2666MT/s", "2666MHz/s"));
  EXPECT_NE(msg.find("dram.data_rate"), std::string::npos) << msg;
  msg = parseError(replace(kGrid, "[666.5, 1066.5]", "[666.5, -3]"));
  EXPECT_NE(msg.find("ddr_controller.clock_mhz"), std::string::npos) << msg;
  EXPECT_EQ(parseError(kGrid), "");
}

TEST(SweepSpec, NumericValuesForPlotAxes) {
  EXPECT_EQ(numericValue("2666MT/s"), 2666);
  EXPECT_EQ(numericValue("1MiB"), 1024);  // sizes in KiB
  EXPECT_EQ(numericValue("512KiB"), 512);
  EXPECT_EQ(numericValue("1500"), 1500);
  EXPECT_TRUE(std::isnan(numericValue("stride")));
}

TEST(SweepPointResult, EncodingRoundTripsExactlyAndRejectsTruncation) {
  PointResult r;
  r.index = 17;
  r.ok = true;
  r.resolvedConfig = "board:\n  name: x:y\n";
  r.runSeconds = 1.25;
  PredictionRecord a;
  a.value = 0.1 + 0.2;  // not representable in short decimal: must round-trip bit-exactly
  a.breakdown = {{"core.issue", 1e-3 / 3}, {"dram", 2.5e-7}};
  a.note = "12:34";
  PredictionRecord b;
  b.status = "not-modelled";
  b.reason = "no workload";
  b.lo = 1.5;
  r.predictions = {a, b};
  std::string enc = encode(r);
  PointResult d;
  ASSERT_TRUE(decode(enc, d));
  EXPECT_EQ(d.index, 17);
  EXPECT_EQ(d.resolvedConfig, r.resolvedConfig);
  ASSERT_EQ(d.predictions.size(), 2u);
  EXPECT_EQ(d.predictions[0].value, 0.1 + 0.2);
  EXPECT_EQ(d.predictions[0].breakdown[0].second, 1e-3 / 3);
  EXPECT_FALSE(d.predictions[0].lo.has_value());
  EXPECT_EQ(*d.predictions[1].lo, 1.5);
  EXPECT_FALSE(d.predictions[1].hi.has_value());
  EXPECT_EQ(d.predictions[1].reason, "no workload");
  for (size_t cut : {enc.size() - 1, enc.size() / 2, size_t{3}}) EXPECT_FALSE(decode(enc.substr(0, cut), d)) << cut;
}

namespace {

PointResult fakeResult(const Point& p, double v) {
  PointResult r;
  r.index = p.index;
  r.ok = true;
  PredictionRecord x;
  x.value = v;
  x.breakdown = {{"core", v / 10}};
  r.predictions = {x};
  return r;
}

struct Fixture {
  Spec spec = parse(kGrid);
  std::vector<Point> points = expand(spec);
  std::vector<std::vector<wl::Query>> queries{{wl::Query("dhrystone", "dhrystone_per_second", "perf", "", "Dhrystones/s")}};
  std::string id = sweepId(spec, points);
};

}  // namespace

TEST(SweepResultsDb, RecordsResumesAndMergesShardsWithNullIntervals) {
  std::string dir = tmpDir("db");
  Fixture f;
  {
    ResultsDb db(dir + "/main.db");
    db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
    db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");  // idempotent
    db.record(f.id, fakeResult(f.points[0], 100), "0.1.0", "none", "local");
    PointResult bad;
    bad.index = 1;
    bad.error = "worker crashed (signal 11 Segmentation fault)";
    db.record(f.id, bad, "0.1.0", "none", "local");
    EXPECT_EQ(db.finished(f.id, true), (std::set<int>{0, 1}));
    EXPECT_EQ(db.finished(f.id, false), (std::set<int>{0}));
    // Two shards, as two Slurm array tasks write them.
    for (int t = 0; t < 2; ++t) {
      ResultsDb shard(dir + "/shard-" + std::to_string(t) + ".db", true);
      shard.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
      for (int i = 2 + 2 * t; i < 4 + 2 * t; ++i) shard.record(f.id, fakeResult(f.points[static_cast<size_t>(i)], i), "0.1.0", "none", "slurm");
    }
    EXPECT_EQ(db.merge(dir + "/shard-0.db"), 2);
    EXPECT_EQ(db.merge(dir + "/shard-1.db"), 2);
    EXPECT_EQ(db.merge(dir + "/shard-1.db"), 2);  // merging again replaces, never duplicates
    auto info = db.find("g");
    EXPECT_EQ(info.ok, 5);
    EXPECT_EQ(info.failed, 1);
    EXPECT_EQ(info.keys, (std::vector<std::string>{"clusters[0].core.clock_mhz", "dram.data_rate"}));
    auto rows = db.results(f.id);
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(*rows[0].predicted, 100);
    EXPECT_FALSE(rows[0].lo.has_value());  // no interval until predictions carry one
    EXPECT_EQ(rows[1].status, "failed");
    EXPECT_NE(rows[1].reason.find("signal 11"), std::string::npos);
    EXPECT_EQ(*rows[5].predicted, 5);
    EXPECT_EQ(rows[5].values[1], "4266MT/s");
    EXPECT_EQ(db.breakdown(f.id).size(), 5u);
  }
  // A file that is not a results database is bad input, not a crash.
  std::ofstream(dir + "/junk.db") << "not sqlite";
  EXPECT_THROW(ResultsDb(dir + "/junk.db"), InputError);
  fs::remove_all(dir);
}

// Found (session 7): a sweep with stderr redirected to a log printed nothing until it ended
// (the bar was drawn for a terminal only). With progressLineSeconds the log gets plain lines.
TEST(SweepLocalBackend, ProgressToALogIsPlainLines) {
  Fixture f;
  LocalOptions opt;
  opt.jobs = 2;
  opt.progress = true;
  opt.progressLineSeconds = 1e-6;  // every finished point
  std::string log = fs::temp_directory_path() / ("socsim-sweep-progress-" + std::to_string(getpid()));
  std::fflush(stderr);
  int saved = dup(STDERR_FILENO);
  FILE* to = std::fopen(log.c_str(), "w");
  ASSERT_NE(to, nullptr);
  dup2(fileno(to), STDERR_FILENO);
  auto sum = runLocal(f.points, [](const Point& p) { return fakeResult(p, p.index); }, opt,
                      [](const PointResult&) {});
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::fclose(to);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(log);
  EXPECT_EQ(sum.ok, static_cast<int>(f.points.size()));
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(f.points.size()) + "/" + std::to_string(f.points.size())),
            std::string::npos)
      << text;
  EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST(SweepLocalBackend, CrashAndTimeoutAreRecordedAndTheRestGoesOn) {
  Fixture f;
  LocalOptions opt;
  opt.jobs = 2;
  opt.timeoutSeconds = 2;
  std::map<int, PointResult> got;
  auto work = [](const Point& p) {
    if (p.index == 1) std::abort();
    if (p.index == 3) std::this_thread::sleep_for(std::chrono::seconds(60));
    if (p.index == 4) std::fprintf(stderr, "about to fail\n"), std::_Exit(3);
    return fakeResult(p, p.index * 10.0);
  };
  auto sum = runLocal(f.points, work, opt, [&](const PointResult& r) { got[r.index] = r; });
  EXPECT_EQ(sum.ran, 6);
  EXPECT_EQ(sum.ok, 3);
  EXPECT_EQ(sum.failed, 3);
  EXPECT_FALSE(sum.interrupted);
  EXPECT_NE(got[1].error.find("crashed (signal 6"), std::string::npos) << got[1].error;
  EXPECT_NE(got[3].error.find("timeout"), std::string::npos) << got[3].error;
  EXPECT_NE(got[4].error.find("status 3"), std::string::npos) << got[4].error;
  EXPECT_NE(got[4].error.find("about to fail"), std::string::npos) << got[4].error;
  EXPECT_EQ(got[5].predictions.at(0).value, 50);
  EXPECT_LT(sum.wallSeconds, 30);  // the hung worker was killed, not waited for
}

TEST(SweepLocalBackend, InterruptKeepsFinishedPointsAndAResumeRunsOnlyTheRest) {
  std::string dir = tmpDir("int");
  Fixture f;
  ResultsDb db(dir + "/r.db");
  db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
  LocalOptions opt;
  opt.jobs = 2;
  auto work = [](const Point& p) {
    if (p.index >= 2) std::this_thread::sleep_for(std::chrono::seconds(30));
    return fakeResult(p, p.index);
  };
  int recorded = 0;
  auto sum = runLocal(f.points, work, opt, [&](const PointResult& r) {
    db.record(f.id, r, "0.1.0", "none", "local");
    if (++recorded == 2) kill(getpid(), SIGINT);  // Ctrl-C while points 2 and 3 run
  });
  EXPECT_TRUE(sum.interrupted);
  EXPECT_EQ(sum.ran, 2);
  EXPECT_LT(sum.wallSeconds, 20);
  auto done = db.finished(f.id, true);
  EXPECT_EQ(done, (std::set<int>{0, 1}));  // the killed points are not recorded as failed
  std::vector<Point> todo;
  for (const auto& p : f.points)
    if (!done.count(p.index)) todo.push_back(p);
  auto sum2 = runLocal(todo, [](const Point& p) { return fakeResult(p, p.index); }, opt,
                       [&](const PointResult& r) { db.record(f.id, r, "0.1.0", "none", "local"); });
  EXPECT_EQ(sum2.ran, 4);
  EXPECT_EQ(db.finished(f.id, false).size(), 6u);
  fs::remove_all(dir);
}

TEST(SweepLocalBackend, RealPointsPredictInWorkerProcesses) {
  // Two real points of the model: the clock sweep moves Dhrystones/s in proportion.
  Fixture f;
  std::vector<Point> two = {f.points[0], f.points[4]};  // 1000 MHz and 2000 MHz
  LocalOptions opt;
  opt.jobs = 2;
  std::map<int, PointResult> got;
  auto sum = runLocal(f.spec, two, f.queries, opt, [&](const PointResult& r) { got[r.index] = r; });
  ASSERT_EQ(sum.ok, 2) << got[0].error << got[4].error;
  ASSERT_EQ(got[0].predictions.at(0).status, "ok");
  double slow = got[0].predictions[0].value, fast = got[4].predictions[0].value;
  EXPECT_NEAR(fast / slow, 2.0, 0.02);
  EXPECT_NE(got[0].resolvedConfig.find("clock_mhz"), std::string::npos);
}

TEST(SweepSummary, MainEffectNamesTheKeyThatMovesABenchmark) {
  SweepInfo info;
  info.keys = {"a", "b"};
  std::vector<ResultRow> rows;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      ResultRow r;
      r.benchmark = "x";
      r.status = "ok";
      r.values = {std::to_string(a), std::to_string(b)};
      r.predicted = 100 + 50 * a + 1 * b;  // a moves it far more than b
      rows.push_back(r);
    }
  auto s = summarize(info, rows);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].effects[0].key, "a");
  EXPECT_NEAR(s[0].spread, 51.0 / 125.5, 1e-12);
  EXPECT_NEAR(s[0].effects[0].effect, 50.0 / 125.5, 1e-12);
}

// ------------------------------------------------------------------ plots and HTML report

namespace {

/// Every <img src> of `dir`/index.html exists beside it and is a non-empty PNG.
void expectImagesExist(const std::string& dir, size_t atLeast) {
  std::ifstream in(dir + "/index.html");
  ASSERT_TRUE(in) << dir;
  std::stringstream ss;
  ss << in.rdbuf();
  auto imgs = referencedImages(ss.str());
  EXPECT_GE(imgs.size(), atLeast);
  for (const auto& img : imgs) {
    fs::path p = fs::path(dir) / img;
    ASSERT_TRUE(fs::exists(p)) << img;
    EXPECT_GT(fs::file_size(p), 1000u) << img;
    std::ifstream f(p, std::ios::binary);
    char magic[8] = {};
    f.read(magic, 8);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << img;
    fs::path svg = p;
    svg.replace_extension(".svg");
    EXPECT_GT(fs::exists(svg) ? fs::file_size(svg) : 0u, 1000u) << svg;
  }
}

}  // namespace

TEST(SweepReport, EveryImageTheSweepPageReferencesExistsAndHasASize) {
  if (!haveGnuplot()) GTEST_SKIP() << "gnuplot not found (Debian gnuplot-nox; scripts/install-deps.sh)";
  std::string dir = tmpDir("report");
  Fixture f;
  ResultsDb db(dir + "/r.db");
  db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
  for (const auto& p : f.points)
    if (p.index != 3) db.record(f.id, fakeResult(p, 1e6 * (1 + p.index)), "0.1.0", "none", "local");
  PointResult bad;
  bad.index = 3;
  bad.error = "timeout: <no result> after 10s";
  db.record(f.id, bad, "0.1.0", "none", "local");
  writeSweepReport(db, db.find(""), dir + "/html");
  expectImagesExist(dir + "/html", 1);
  std::ifstream in(dir + "/html/index.html");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string html = ss.str();
  EXPECT_NE(html.find("timeout: &lt;no result&gt;"), std::string::npos);  // failures listed, escaped
  EXPECT_NE(html.find("Which benchmarks move"), std::string::npos);
  EXPECT_NE(html.find("dhrystone_per_second"), std::string::npos);
  fs::remove_all(dir);
}

TEST(SweepReport, EveryImageTheValidatePageReferencesExistsAndHasASize) {
  if (!haveGnuplot()) GTEST_SKIP() << "gnuplot not found (Debian gnuplot-nox; scripts/install-deps.sh)";
  std::string dir = tmpDir("vreport");
  std::vector<validation::ValidationRow> rows;
  auto add = [&](const std::string& family, const std::string& bench, double meas, double pred) {
    validation::ValidationRow r;
    r.measured.board = "j721e-idk-gw";
    r.measured.family = family;
    r.measured.benchmark = bench;
    r.measured.metric = "perf";
    r.measured.unit = family == "stream" ? "MB/s" : "ns";
    r.measured.value = meas;
    r.predicted = pred;
    r.error = (pred - meas) / meas;
    r.status = "ok";
    rows.push_back(r);
  };
  add("stream", "copy", 5000, 6000);
  add("stream", "add", 4000, 3900);
  add("lmbench-mem", "lat_mem_rd-stride128-sz50", 2, 2);
  add("lmbench-mem", "lat_mem_rd-stride128-sz125k", 5.5, 5.3);
  add("lmbench-mem", "lat_mem_rd-stride128-sz1000k", 11.8, 25);
  writeValidateReport(rows, validation::summarize(rows), dir);
  expectImagesExist(dir, 5);  // 2 families x (scatter + histogram), all-families histogram, latency curve
  EXPECT_TRUE(fs::exists(dir + "/latency-j721e-idk-gw.png"));
  fs::remove_all(dir);
}

// Found: the validate plots had 15 boards on gnuplot's 8-colour cycle (repeated colours).
TEST(SweepPlot, SeriesLooksAreDistinct) {
  std::set<std::tuple<std::string, int, int>> seen;
  for (int i = 0; i < 50; ++i) {
    auto l = seriesLook(i);
    EXPECT_TRUE(seen.emplace(l.colour, l.pointType, l.dashType).second) << "look " << i << " repeats";
  }
  std::set<std::string> colours;
  for (int i = 0; i < 10; ++i) colours.insert(seriesLook(i).colour);
  EXPECT_EQ(colours.size(), 10u) << "the first ten series differ in colour";
}

TEST(SweepPlot, LatencySizesAsTheWorkloadReadsThem) {
  EXPECT_NEAR(latencySizeKiB("lat_mem_rd-stride128-sz125k"), 128.0, 1e-9);  // 0.125 MiB
  EXPECT_EQ(latencySizeKiB("lat_mem_rd-stride128-sz50"), 0.5);
  EXPECT_EQ(latencySizeKiB("latency_for_0.50_mb_block_size"), 512);
  EXPECT_EQ(latencySizeKiB("bw_mem-rd-16mb"), -1);
}

// ------------------------------------------------------------------ the command line

namespace {

int runCli(const std::string& args, std::string& out) {
  out.clear();
  FILE* p = popen((std::string(SOCSIM_TEST_BIN_DIR) + "/socsim " + args + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

}  // namespace

TEST(SweepCli, BadSpecIsExit2BeforeAnythingRunsAndCheckPrintsThePlan) {
  std::string dir = tmpDir("cli");
  std::ofstream(dir + "/bad.yaml") << replace(kGrid, "to: 2000, step: 500", "to: 20000, step: 9500");
  std::string out;
  EXPECT_EQ(runCli("sweep " + dir + "/bad.yaml --db " + dir + "/r.db", out), 2) << out;
  EXPECT_NE(out.find("bad.yaml:6"), std::string::npos) << out;
  EXPECT_NE(out.find("out of range"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir + "/r.db"));  // nothing ran, nothing was created
  std::ofstream(dir + "/good.yaml") << kGrid;
  EXPECT_EQ(runCli("sweep " + dir + "/good.yaml --check --format csv", out), 0) << out;
  EXPECT_NE(out.find("6 points, method grid"), std::string::npos) << out;
  EXPECT_NE(out.find("5,j721e-idk-gw,2000,4266MT/s"), std::string::npos) << out;
  // Found: --check hid the keys linked with `with:`; each is a column with its value.
  EXPECT_NE(out.find("point,board,clusters[0].core.clock_mhz,dram.data_rate,ddr_controller.clock_mhz\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("5,j721e-idk-gw,2000,4266MT/s,1066.5\n"), std::string::npos) << out;
  EXPECT_NE(out.find("0,j721e-idk-gw,1000,2666MT/s,666.5\n"), std::string::npos) << out;
  // Found: --check ignored --point-range and listed every point; it lists the range's points.
  EXPECT_EQ(runCli("sweep " + dir + "/good.yaml --check --format csv --point-range 1:3", out), 0) << out;
  EXPECT_NE(out.find("(--point-range: 2 of them, 1..2)"), std::string::npos) << out;
  EXPECT_EQ(out.find("\n0,j721e-idk-gw"), std::string::npos) << out;
  EXPECT_NE(out.find("\n1,j721e-idk-gw"), std::string::npos) << out;
  EXPECT_NE(out.find("\n2,j721e-idk-gw"), std::string::npos) << out;
  EXPECT_EQ(out.find("\n3,j721e-idk-gw"), std::string::npos) << out;
  EXPECT_EQ(runCli("sweep " + dir + "/good.yaml --check --point-range 3:1", out), 2) << out;
  EXPECT_EQ(runCli("sweep --db " + dir + "/none.db --export csv", out), 2) << out;  // no database
  EXPECT_FALSE(fs::exists(dir + "/none.db"));
  EXPECT_EQ(runCli("plot --db " + dir + "/missing.db --out " + dir + "/p", out), 2) << out;
  fs::remove_all(dir);
}

// Found: the export folded the reason into `status` ("not-modelled: ...") and had no `reason`
// column; scripts filter on status and read the reason apart. Numbers carry no float noise.
TEST(SweepCli, ExportHasStatusAndReasonColumns) {
  std::string dir = tmpDir("export");
  Fixture f;
  {
    ResultsDb db(dir + "/r.db");
    db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
    db.record(f.id, fakeResult(f.points[0], 0.1 + 0.2), "0.1.0", "none", "local");
    PointResult nm = fakeResult(f.points[1], 0);
    nm.predictions[0].status = "not-modelled";
    nm.predictions[0].reason = "the board has no DDR";
    db.record(f.id, nm, "0.1.0", "none", "local");
    PointResult bad;
    bad.index = 2;
    bad.error = "worker crashed";
    db.record(f.id, bad, "0.1.0", "none", "local");
  }
  std::string out;
  ASSERT_EQ(runCli("sweep --db " + dir + "/r.db --export csv", out), 0) << out;
  auto rows = csv::parse(out, "export");
  ASSERT_EQ(rows.size(), f.points.size() + 1) << out;  // points not run yet are `pending`
  const auto& h = rows[0];
  ASSERT_GE(h.size(), 3u);
  EXPECT_EQ(h[h.size() - 2], "status");
  EXPECT_EQ(h[h.size() - 1], "reason");
  const size_t pred = h.size() - 5;
  EXPECT_EQ(h[pred], "predicted");
  std::map<std::string, std::vector<std::string>> byPoint;
  for (size_t i = 1; i < rows.size(); ++i) byPoint[rows[i][1]] = rows[i];
  EXPECT_EQ(byPoint["0"][pred], "0.3");
  EXPECT_EQ(byPoint["0"][h.size() - 2], "ok");
  EXPECT_EQ(byPoint["0"][h.size() - 1], "");
  EXPECT_EQ(byPoint["1"][h.size() - 2], "not-modelled");
  EXPECT_EQ(byPoint["1"][h.size() - 1], "the board has no DDR");
  EXPECT_EQ(byPoint["2"][h.size() - 2], "failed");
  EXPECT_EQ(byPoint["2"][h.size() - 1], "worker crashed");
  EXPECT_EQ(byPoint["3"][h.size() - 2], "pending");
  fs::remove_all(dir);
}

TEST(SweepCli, ShippedExampleSpecsAreValid) {
  for (const auto& e : fs::directory_iterator(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/sweeps")) {
    Spec s = parseSpec(e.path().string(), boardsDir());
    auto pts = expand(s);
    EXPECT_NO_THROW(checkAgainstBoards(s, pts)) << e.path();
    if (s.name == "j721e-clock-ddr-l2") {
      EXPECT_EQ(pts.size(), 200u);
    }
  }
}

TEST(SweepReport, PageRendersInHeadlessChromium) {
  if (!haveGnuplot()) GTEST_SKIP() << "gnuplot not found (Debian gnuplot-nox; scripts/install-deps.sh)";
  std::string probe;
  if (runProgram({"chromium", "--version"}, probe) != 0)
    GTEST_SKIP() << "chromium not found (Debian chromium; scripts/install-deps.sh): page not rendered";
  std::string dir = tmpDir("chromium");
  Fixture f;
  ResultsDb db(dir + "/r.db");
  db.registerSweep(f.id, f.spec, f.points, f.queries, "0.1.0", "none");
  for (const auto& p : f.points) db.record(f.id, fakeResult(p, 1e6 * (1 + p.index)), "0.1.0", "none", "local");
  writeSweepReport(db, db.find(""), dir + "/html");
  std::string shot = dir + "/shot.png", out, err;
  int rc = runProgram({"timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                       "--user-data-dir=" + dir + "/profile", "--window-size=1200,1600", "--screenshot=" + shot,
                       "file://" + dir + "/html/index.html"},
                      out, &err);
  ASSERT_EQ(rc, 0) << err;
  ASSERT_TRUE(fs::exists(shot)) << err;
  EXPECT_GT(fs::file_size(shot), 60000u);  // a near-blank 1200x1600 page is ~10 KB
  fs::remove_all(dir);
}

// Found (session 3): an unknown family or a glob matching nothing in a spec's benchmarks was
// dropped silently (the sweep ran the other selectors), `--jobs 0` was accepted, and a sweep
// whose points timed out exited 0.
TEST(SweepCli, SelectorsJobsAndTimeoutsAreNotSilent) {
  std::string msg = parseError(replace(kGrid, "{family: dhrystone}", "{family: [dhrystone, strem]}"));
  EXPECT_NE(msg.find("spec.yaml:4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown family 'strem' (did you mean 'stream'?)"), std::string::npos) << msg;
  // A selector that matches no row of the dataset names its line.
  std::string srcMeasured = std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured";
  Spec glob = parse(replace(kGrid, "  - {family: dhrystone}\n",
                            "  - {family: dhrystone}\n  - {family: stream, benchmark: \"triadd*\"}\n"));
  try {
    selectQueries(glob, srcMeasured);
    ADD_FAILURE() << "a selector matching nothing was dropped";
  } catch (const InputError& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("spec.yaml:5: benchmarks[1]: selects no benchmark"), std::string::npos) << w;
    EXPECT_NE(w.find("benchmark 'triadd*' in family stream"), std::string::npos) << w;
  }
  std::string dir = tmpDir("silent");
  std::ofstream(dir + "/good.yaml") << kGrid;
  std::string out;
  for (std::string j : {"0", "-2"}) {
    EXPECT_EQ(runCli("sweep " + dir + "/good.yaml --db " + dir + "/j.db --jobs " + j, out), 2) << out;
    EXPECT_NE(out.find("at least 1"), std::string::npos) << out;
  }
  EXPECT_FALSE(fs::exists(dir + "/j.db"));
  // Every point is killed by a 1 ms timeout: recorded as failed, results printed, exit 1.
  EXPECT_EQ(runCli("sweep " + dir + "/good.yaml --db " + dir + "/t.db -j 2 --timeout 0.001", out), 1) << out;
  EXPECT_NE(out.find("6 points failed (exit status 1)"), std::string::npos) << out;
  EXPECT_EQ(runCli("sweep --db " + dir + "/t.db --list --format csv", out), 0) << out;
  EXPECT_NE(out.find(",6,0,6,0,"), std::string::npos) << "6 points, 0 ok, 6 failed: " << out;
  fs::remove_all(dir);
}
