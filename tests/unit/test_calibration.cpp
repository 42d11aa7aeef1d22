// Parameter registry, the calibration override layer (calibration/params/*.yaml applied when a
// config is loaded) and the fit machinery's pure parts (issue 9).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "calibration/fit/calibrate.h"
#include "calibration/fit/param_overrides.h"
#include "calibration/fit/param_registry.h"
#include "calibration/fit/uncertainty.h"
#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "validation/validate.h"

namespace fs = std::filesystem;
using namespace socsim;
using namespace socsim::calib;

namespace {

std::string configsDir() { return std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs"; }

const ParamRegistry& registry() {
  static const ParamRegistry r = ParamRegistry::scan(configsDir());
  return r;
}

std::string tmpDir(const std::string& name) {
  fs::path d = fs::temp_directory_path() /
               ("socsim-test-calibration-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

std::string writeFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string f = dir + "/" + name;
  std::ofstream(f) << text;
  return f;
}

/// Expect an InputError naming `file` and containing `what`.
template <class F>
void expectInputError(F&& f, const std::string& file, const std::string& what) {
  try {
    f();
    FAIL() << "expected an InputError about " << what;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

struct HookGuard {
  ~HookGuard() { uninstallParamSet(); }
};

}  // namespace

TEST(Registry, DeclaresEachCalibratedPresetValueOnceWithScopeUnitDefaultAndBounds) {
  const FreeParam* p =
      registry().find("components/cores/cortex_a72", "timing.mispredict_penalty_cycles");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->scopeClass, "core type");
  EXPECT_EQ(p->scopeKind, ScopeKind::Component);
  EXPECT_TRUE(p->numeric);
  EXPECT_TRUE(p->integer);  // the core-timing schema takes whole cycles
  EXPECT_EQ(p->unit, "cycles");
  EXPECT_EQ(p->defaultValue, 15);
  EXPECT_EQ(p->lo, 10);  // "bounds 10..20" in the preset's source
  EXPECT_EQ(p->hi, 20);
  EXPECT_EQ(p->boundsOrigin, "stated");
  EXPECT_EQ(p->source.rfind("calibrated", 0), 0u);
  // A datasheet fact is not a free parameter.
  EXPECT_EQ(registry().find("components/cores/cortex_a72", "timing.fetch_width"), nullptr);
  // Names are unique, and every numeric parameter's default lies within its bounds.
  std::set<std::string> names;
  for (const auto& q : registry().params()) {
    EXPECT_TRUE(names.insert(q.name()).second) << q.name();
    if (q.numeric) {
      EXPECT_LE(q.lo, q.defaultValue) << q.name();
      EXPECT_GE(q.hi, q.defaultValue) << q.name();
    }
  }
}

TEST(Registry, WorkloadProfilesAreBenchmarkScoped) {
  const FreeParam* p = registry().find("workloads/dhrystone", "profile.instructions_per_unit");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->scopeKind, ScopeKind::Workload);
  EXPECT_EQ(p->scopeClass, "benchmark profile");
}

TEST(Registry, NumbersBoundsAndScopes) {
  double v = 0, lo = 0, hi = 0;
  std::string suffix;
  EXPECT_TRUE(splitNumber("4266MT/s", v, suffix));
  EXPECT_EQ(v, 4266);
  EXPECT_EQ(suffix, "MT/s");
  EXPECT_TRUE(splitNumber("6e+06", v, suffix));
  EXPECT_EQ(v, 6e6);
  EXPECT_EQ(suffix, "");
  EXPECT_FALSE(splitNumber("gshare", v, suffix));
  EXPECT_TRUE(parseStatedBounds("calibrated: x; bounds 1.5e6..4e6", lo, hi));
  EXPECT_EQ(lo, 1.5e6);
  EXPECT_EQ(hi, 4e6);
  EXPECT_FALSE(parseStatedBounds("calibrated: initial value", lo, hi));
  EXPECT_EQ(scopeOfFile(configsDir() + "/components/dram/../dram/lpddr4_4266.yaml", configsDir()),
            "components/dram/lpddr4_4266");
  EXPECT_EQ(scopeOfFile("/etc/hosts", configsDir()), "");
}

TEST(Overrides, FittedValuesReplaceThePresetDefaultWhenABoardLoads) {
  HookGuard guard;
  const std::string board = configsDir() + "/boards/j721e-idk-gw.yaml";
  auto before = soc::loadBoard(board);
  ASSERT_EQ(before.clusters[0].timing.mispredict_penalty_cycles, 15);
  std::string dir = tmpDir("apply");
  writeFile(dir, "cores.yaml",
            "group: dhrystone\nfamilies: [dhrystone]\nprovenance: {date: test}\nparams:\n"
            "  components/cores/cortex_a72.timing.mispredict_penalty_cycles: {value: 18, default: 15}\n");
  ParamSet set = readParamDir(dir, registry());
  ASSERT_EQ(set.size(), 1u);
  installParamSet(set, registry());
  auto after = soc::loadBoard(board);
  EXPECT_EQ(after.clusters[0].timing.mispredict_penalty_cycles, 18);
  std::string src = after.sourceOf("clusters[0].core.timing.mispredict_penalty_cycles");
  EXPECT_NE(src.find("fitted (cores.yaml)"), std::string::npos) << src;
  // A board of another core type is untouched.
  auto am335x = soc::loadBoard(configsDir() + "/boards/am335x-evm.yaml");
  auto ref = soc::loadBoard(configsDir() + "/boards/am335x-evm.yaml");
  EXPECT_EQ(am335x.clusters[0].timing.mispredict_penalty_cycles,
            ref.clusters[0].timing.mispredict_penalty_cycles);
  uninstallParamSet();
  EXPECT_EQ(soc::loadBoard(board).clusters[0].timing.mispredict_penalty_cycles, 15);
  fs::remove_all(dir);
}

TEST(Overrides, UnknownOutOfBoundsAndDuplicateEntriesAreInputErrorsNamingFileAndKey) {
  std::string dir = tmpDir("bad");
  const std::string head = "group: g\nfamilies: [dhrystone]\nparams:\n";
  auto unknown = writeFile(dir, "unknown.yaml",
                           head + "  components/cores/cortex_a72.timing.mispredict_penalty_cycle: 16\n");
  expectInputError([&] { readParamFile(unknown, registry()); }, unknown,
                   "did you mean 'components/cores/cortex_a72.timing.mispredict_penalty_cycles'");
  auto out = writeFile(dir, "out.yaml",
                       head + "  components/cores/cortex_a72.timing.mispredict_penalty_cycles: {value: 40}\n");
  expectInputError([&] { readParamFile(out, registry()); }, out, "outside the bounds 10 .. 20");
  auto frac = writeFile(dir, "frac.yaml",
                        head + "  components/cores/cortex_a72.timing.mispredict_penalty_cycles: 15.5\n");
  expectInputError([&] { readParamFile(frac, registry()); }, frac, "whole numbers");
  auto top = writeFile(dir, "top.yaml", "group: g\nparam: {}\n");
  expectInputError([&] { readParamFile(top, registry()); }, top, "did you mean 'params'");
  fs::remove_all(dir);

  std::string dup = tmpDir("dup");
  writeFile(dup, "a.yaml", head + "  workloads/dhrystone.profile.instructions_per_unit: 180\n");
  auto b = writeFile(dup, "b.yaml", head + "  workloads/dhrystone.profile.instructions_per_unit: 200\n");
  expectInputError([&] { readParamDir(dup, registry()); }, b, "also set by a.yaml");
  fs::remove_all(dup);
}

TEST(Overrides, WrittenParamsFileReadsBack) {
  std::string dir = tmpDir("write");
  const FreeParam* p = registry().find("workloads/dhrystone", "profile.instructions_per_unit");
  ASSERT_NE(p, nullptr);
  ParamFileInfo info;
  info.group = "dhrystone";
  info.families = {"dhrystone"};
  info.provenance = {{"data", "test \"quoted\""}, {"date", "2026-01-01"}};
  writeParamFile(dir + "/dhrystone.yaml", info, {{p, 200.0}});
  ParamSet set = readParamFile(dir + "/dhrystone.yaml", registry());
  const ParamValue* v = set.find(p->scope, p->key);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->value, 200.0);
  // The committed value or the default (one helper for calibrate's five places that need it).
  EXPECT_EQ(set.valueOr(*p), 200.0);
  EXPECT_EQ(set.valueOr(*p, v->origin), 200.0);
  EXPECT_EQ(set.valueOr(*p, "another.yaml"), p->defaultValue);
  EXPECT_EQ(ParamSet().valueOr(*p), p->defaultValue);
  fs::remove_all(dir);
}

TEST(FitGroups, StagesFollowThePhysicsAndEveryFamilyHasOneGroup) {
  const auto& g = fitGroups();
  ASSERT_FALSE(g.empty());
  EXPECT_EQ(g.front().name, "memory");
  EXPECT_EQ(groupOfFamily("stream"), groupOfFamily("lmbench-mem"));
  EXPECT_EQ(groupOfFamily("dhrystone")->stage, "cores");
  // lat_ops measures the core types' operation latencies the other CPU benchmarks read: its
  // group is the first of the cores stage, so their fits see its values.
  auto at = [&g](const std::string& fam) {
    for (std::size_t i = 0; i < g.size(); ++i)
      if (std::find(g[i].families.begin(), g[i].families.end(), fam) != g[i].families.end())
        return i;
    return g.size();
  };
  for (const char* f : {"dhrystone", "whetstone", "linpack", "nbench", "coremark-pro",
                        "multibench", "mathlib"})
    EXPECT_LT(at("lmbench-ops"), at(f)) << f;
  EXPECT_EQ(groupOfFamily("lmbench-ops")->stage, "cores");
  EXPECT_LT(at("lmbench-mem"), at("lmbench-ops"));
  // cyclictest's rows share the kernel paths with LMBench's OS rows (one kernel-path group).
  ASSERT_NE(groupOfFamily("rt-latency"), nullptr);
  EXPECT_EQ(groupOfFamily("rt-latency"), groupOfFamily("lmbench-os"));
  EXPECT_EQ(groupOfFamily("lmbench-os")->stage, "kernel");
  EXPECT_EQ(groupOfFamily("no-such-family"), nullptr);
  // Every family the workloads model has a group (graphics, multimedia and power are not
  // modelled: no group).
  for (const char* f : {"lmbench-mem", "stream", "dhrystone", "whetstone", "linpack", "nbench",
                        "coremark-pro", "multibench", "lmbench-ops", "mathlib", "lmbench-os",
                        "rt-latency", "boot", "flash", "nand", "emmc", "mmc-sd", "ufs", "sata",
                        "usb", "pcie", "crypto", "sa2ul", "ipsec", "ethernet", "ipc", "mcan",
                        "mcspi", "xip", "audio", "display", "sensor-capture"})
    EXPECT_NE(groupOfFamily(f), nullptr) << f;
  std::set<std::string> fams;
  for (const auto& grp : g)
    for (const auto& f : grp.families) EXPECT_TRUE(fams.insert(f).second) << f;
}

TEST(FitGroups, AGroupSeesTheEarlierGroupsValuesAndTheLaterGroupsDefaults) {
  // The memory <-> kernel stage cycle: memory rows (bw_file_rd) read the kernel paths the
  // lmbench-os group fits, lmbench-os rows read the memory system. A group's fit and --check see
  // only the params files of the groups up to it in stage order, so a kernel refit cannot stale
  // the memory report.
  std::string dir = tmpDir("seen");
  const std::string head = "families: [x]\nprovenance: {date: test}\nparams:\n";
  writeFile(dir, "memory.yaml",
            "group: memory\n" + head + "  components/caches/cortex_a72_l2.hit_latency_cycles: 12\n");
  writeFile(dir, "dhrystone.yaml",
            "group: dhrystone\n" + head + "  workloads/dhrystone.profile.instructions_per_unit: 180\n");
  writeFile(dir, "lmbench-os.yaml",
            "group: lmbench-os\n" + head +
                "  components/software/linux_kernel_paths.file_read_page_instructions: 700\n");
  ParamSet all = readParamDir(dir, registry());
  ASSERT_EQ(all.size(), 3u);
  auto has = [](const ParamSet& s, const std::string& origin) {
    for (const auto& [scope, keys] : s.byScope())
      for (const auto& [key, v] : keys)
        if (v.origin == origin) return true;
    return false;
  };
  ParamSet memory = paramsSeenBy(all, "memory");
  EXPECT_TRUE(has(memory, "memory.yaml"));
  EXPECT_FALSE(has(memory, "dhrystone.yaml"));
  EXPECT_FALSE(has(memory, "lmbench-os.yaml"));
  ParamSet kernel = paramsSeenBy(all, "lmbench-os");
  EXPECT_EQ(kernel.size(), 3u);
  ParamSet cores = paramsSeenBy(all, "dhrystone");
  EXPECT_TRUE(has(cores, "memory.yaml"));
  EXPECT_TRUE(has(cores, "dhrystone.yaml"));
  EXPECT_FALSE(has(cores, "lmbench-os.yaml"));
  // The I/O stage, last, sees every earlier stage.
  EXPECT_EQ(paramsSeenBy(all, "pcie").size(), 3u);
  fs::remove_all(dir);
}

// The screen keeps the candidates whose move can remove residual, not those that merely move
// the rows: a parameter at its bound whose only feasible step worsens every row scores 0.
TEST(Screen, TheGainIsTheResidualAFeasibleMoveCanRemove) {
  std::vector<double> r = {0.1, 0.1, 0.1, 0.1};  // every row 10 % high
  std::vector<double> helps = {-0.05, -0.05, -0.05, -0.05};  // the step halves the error
  std::vector<double> hurts = {0.3, 0.3, 0.3, 0.3};        // the step triples it
  // Helping: two steps remove it all.
  EXPECT_NEAR(screenGain(r, helps, 1, 4), 1.0, 1e-12);
  // Only one step of room ahead: half of the error remains, 3/4 of the square is removed.
  EXPECT_NEAR(screenGain(r, helps, 1, 1), 0.75, 1e-12);
  // Hurting, at its bound (no room back): nothing to gain, although it moves the rows most.
  EXPECT_EQ(screenGain(r, hurts, 0, 3), 0.0);
  // Hurting with room back: moving the other way a third of a step removes it all.
  EXPECT_NEAR(screenGain(r, hurts, 2, 3), 1.0, 1e-12);
  // A step that moves nothing, or no residual: 0.
  EXPECT_EQ(screenGain(r, {0, 0, 0, 0}, 1, 1), 0.0);
  EXPECT_EQ(screenGain({0, 0}, {0.1, 0.2}, 1, 1), 0.0);
}

TEST(Check, TheMdapeToleranceWidensForSmallFamiliesAndLargeErrors) {
  // 0.5 pp for a well-fitted large family (the memory group's 300 rows at 16 %).
  EXPECT_DOUBLE_EQ(checkMdapeTolerance(0.16, 300, false), 0.005);
  EXPECT_DOUBLE_EQ(checkMdapeTolerance(1.5, 40, true), 0.5);
  // 2 % of the committed MdAPE when that is larger (lmbench-os, 400 rows at 27 %).
  EXPECT_NEAR(checkMdapeTolerance(0.27, 400, false), 0.0054, 1e-12);
  // An 8-row family at 127 % (rt-latency): 2.54 pp x sqrt(25 / 8), not 0.5 pp.
  EXPECT_NEAR(checkMdapeTolerance(1.27, 8, false), 0.0254 * std::sqrt(25.0 / 8), 1e-12);
  EXPECT_GT(checkMdapeTolerance(1.27, 8, false), 0.04);
  // Fewer rows never make the check tighter.
  for (int n = 1; n < 60; ++n)
    EXPECT_GE(checkMdapeTolerance(0.1, n, false), checkMdapeTolerance(0.1, n + 1, false)) << n;
}

TEST(CommittedParams, TheRepositoryParamsFilesLoad) {
  // Every committed calibration/params/*.yaml names registered parameters within bounds.
  HookGuard guard;
  EXPECT_NO_THROW(installCommittedParams(SOCSIM_TEST_SOURCE_DIR));
}

// A committed params folder holds one file per fit group: a file of a group that no longer
// exists, or one whose `group:` names another group, was applied to every run silently.
TEST(CommittedParams, AFileOfNoFitGroupOrOfAnotherGroupIsAnInputError) {
  const std::string head = "families: [dhrystone]\nparams:\n"
                           "  workloads/dhrystone.profile.instructions_per_unit: 180\n";
  std::string gone = tmpDir("gone");
  auto stale = writeFile(gone, "dhrystone-old.yaml", "group: dhrystone-old\n" + head);
  expectInputError([&] { readCommittedParams(gone, registry()); }, stale, "no fit group 'dhrystone-old'");
  fs::remove_all(gone);
  std::string other = tmpDir("other");
  auto named = writeFile(other, "dhrystone.yaml", "group: memory\n" + head);
  expectInputError([&] { readCommittedParams(other, registry()); }, named, "expected 'group: dhrystone'");
  fs::remove_all(other);
  std::string ok = tmpDir("ok");
  writeFile(ok, "dhrystone.yaml", "group: dhrystone\n" + head);
  EXPECT_EQ(readCommittedParams(ok, registry()).size(), 1u);
  fs::remove_all(ok);
}

namespace {

validation::ValidationRow cvRow(const std::string& board, const std::string& source,
                                const std::string& family, double measured, double predicted) {
  validation::ValidationRow r;
  r.measured.board = board;
  r.measured.source = source;
  r.measured.family = family;
  r.measured.unit = "MB/s";
  r.measured.value = measured;
  r.predicted = predicted;
  r.errorKind = validation::ErrorKind::Relative;
  r.error = (predicted - measured) / measured;
  r.status = "ok";
  return r;
}

}  // namespace

TEST(CrossValidation, UnitsAreBoardsForLoboAndGuidesForRelease) {
  MeasuredRow r;
  r.board = "b1";
  r.source = "003_x";
  EXPECT_EQ(cvUnit(r, "lobo"), "b1");
  EXPECT_EQ(cvUnit(r, "release"), "003_x");
  EXPECT_EQ(cvSplitName("lobo"), "lobo");
  EXPECT_EQ(cvSplitName("release"), "holdout");
}

/// A LOBO plan over family "stream" ("nbench" has no committed fit: in-sample, no interval) and
/// its rows: boards b0..b5 predicted +0, +2, ... +10 % (a narrow band), b6 +200 % (far outside
/// the others' band), b9 with no donor board (no interval, not counted) predicted `noDonorPred`
/// for 100 measured, one nbench row.
static std::vector<validation::ValidationRow> cvFixture(CvPlan& plan, double noDonorPred) {
  plan.mode = "lobo";
  plan.families = {"stream"};
  plan.noDonor["stream\x1f" "b9\x1f" "b9"] = "no-donor";
  std::vector<validation::ValidationRow> rows;
  for (int k = 0; k < 6; ++k) rows.push_back(cvRow("b" + std::to_string(k), "s", "stream", 100, 100 + 2 * k));
  rows.push_back(cvRow("b6", "s", "stream", 100, 300));
  rows.push_back(cvRow("b9", "s", "stream", 100, noDonorPred));
  rows.push_back(cvRow("b1", "s", "nbench", 100, 101));
  return rows;
}

TEST(CrossValidation, IntervalsComeFromTheOtherUnitsResidualsAndCoverageIsCounted) {
  CvPlan plan;
  std::vector<validation::ValidationRow> rows = cvFixture(plan, 100);
  auto [checked, inside] = finishCv(rows, plan);
  EXPECT_EQ(rows[0].split, "lobo");
  EXPECT_EQ(rows[7].split, "no-donor");
  EXPECT_EQ(rows[8].split, "in-sample");
  EXPECT_FALSE(rows[7].lo.has_value());
  EXPECT_FALSE(rows[8].lo.has_value());
  EXPECT_EQ(checked, 7);
  ASSERT_TRUE(rows[6].lo && rows[6].hi);
  // b6's interval comes from b0..b5 only (all over-predictions of at most 10 %): the measured
  // 100 is outside [300 exp(-q90), 300 exp(-q10)].
  EXPECT_GT(*rows[6].lo, 100);
  EXPECT_LT(inside, checked);
  EXPECT_GE(inside, 1);
  // Per family, from the rows' own intervals: the same counts; nbench (in-sample) and the
  // no-donor row are not in it; an excluded row (a config echo) is not counted either.
  rows.push_back(cvRow("b2", "s", "stream", 100, 104));
  rows.back().split = "lobo";
  rows.back().lo = 90;
  rows.back().hi = 110;
  rows.back().status = "excluded:config-echo";
  auto byFamily = cvCoverageByFamily(rows, plan);
  ASSERT_EQ(byFamily.size(), 1u);
  EXPECT_EQ(byFamily["stream"], std::make_pair(checked, inside));
}

// `validate --cv`'s per-family table: held-out rows with a donor and their MdAPE / within 25 %
// apart from the no-donor rows, coverage from the rows' own intervals, CPU-load rows apart.
TEST(CrossValidation, FamilySummarySeparatesDonorRowsNoDonorRowsAndCpuLoad) {
  CvPlan plan;
  std::vector<validation::ValidationRow> rows = cvFixture(plan, 150);  // b9 (no donor): +50 %
  auto load = cvRow("b2", "s", "stream", 20, 23);  // CPU load: 3 pp
  load.measured.unit = "%";
  load.errorKind = validation::ErrorKind::PercentagePoints;
  load.error = 3;
  rows.push_back(load);
  auto counts = finishCv(rows, plan);
  auto sum = cvFamilySummary(rows, plan);
  ASSERT_EQ(sum.size(), 2u);
  const auto& s = sum.at("stream");
  EXPECT_EQ(s.rows, 7);
  EXPECT_NEAR(s.mdape, 0.06, 1e-9);  // median of 0, 2, 4, 6, 8, 10, 200 %
  EXPECT_NEAR(s.within25, 6.0 / 7, 1e-9);
  EXPECT_EQ(s.noDonor, 1);
  EXPECT_NEAR(s.noDonorMdape, 0.5, 1e-9);
  EXPECT_EQ(s.checked, counts.first);
  EXPECT_EQ(s.inside, counts.second);
  const auto& pp = sum.at(intervalKey("stream", true));
  EXPECT_TRUE(pp.pp);
  EXPECT_EQ(pp.rows, 1);
  EXPECT_NEAR(pp.mdape, 3, 1e-9);
  EXPECT_EQ(sum.count("nbench"), 0u);
}

TEST(CrossValidation, ReleaseModeHoldsOutGuidesNotBoards) {
  CvPlan plan;
  plan.mode = "release";
  plan.families = {"stream"};
  std::vector<validation::ValidationRow> rows;
  for (int k = 0; k < 6; ++k) rows.push_back(cvRow("b0", "src" + std::to_string(k), "stream", 100, 100 + k));
  finishCv(rows, plan);
  // Same board throughout: the other guides' rows still give each row its interval.
  for (const auto& r : rows) {
    EXPECT_EQ(r.split, "holdout");
    EXPECT_TRUE(r.lo.has_value());
  }
}

// Ctrl-C / SIGTERM during `validate --cv`: a unit whose fold was cut (CvPlan::interrupted) is not
// run at all and its rows are failed:interrupted; a finished unit's rows are predicted as usual.
// Predicting the cut unit with the committed values would pass in-sample predictions off as
// cross-validated.
TEST(CrossValidation, RowsOfAnInterruptedUnitAreFailedInterruptedNotPredicted) {
  HookGuard hooks;
  auto measured = [](const std::string& board, const std::string& source) {
    MeasuredRow r;
    r.board = board;
    r.source = source;
    r.family = "stream";
    r.benchmark = "copy";
    r.metric = "perf";
    r.unit = "MB/s";
    r.value = 100;
    return r;
  };
  std::vector<MeasuredRow> rows = {measured("a", "g1"), measured("b", "g2"), measured("b", "g1")};
  std::set<std::string> ran;
  validation::BoardRunner runner = [&ran](const std::string& board,
                                          const std::vector<wl::Query>& qs) {
    ran.insert(board);
    std::vector<validation::QueryResult> out(qs.size());
    for (auto& r : out) {
      r.kind = validation::QueryResult::Kind::Ok;
      r.value = 110;
    }
    return out;
  };
  validation::ValidateOptions vo;
  vo.isolate = false;
  vo.progress = false;
  CvPlan lobo;
  lobo.mode = "lobo";
  lobo.families = {"stream"};
  lobo.interrupted = {"b"};
  auto res = validateCv(rows, runner, vo, lobo, ParamSet{}, registry());
  ASSERT_EQ(res.size(), 3u);
  EXPECT_EQ(res[0].status, "ok");
  EXPECT_TRUE(res[0].predicted.has_value());
  for (size_t i : {1u, 2u}) {
    EXPECT_EQ(res[i].status, "failed:interrupted") << i;
    EXPECT_FALSE(res[i].predicted.has_value()) << i;
  }
  EXPECT_EQ(ran, (std::set<std::string>{"a"}));

  // release: the unit is the guide; guide g2's row fails, g1's rows on both boards run.
  ran.clear();
  CvPlan release;
  release.mode = "release";
  release.families = {"stream"};
  release.interrupted = {"g2"};
  res = validateCv(rows, runner, vo, release, ParamSet{}, registry());
  ASSERT_EQ(res.size(), 3u);
  EXPECT_EQ(res[0].status, "ok");
  EXPECT_EQ(res[1].status, "failed:interrupted");
  EXPECT_EQ(res[2].status, "ok");
  EXPECT_EQ(ran, (std::set<std::string>{"a", "b"}));
}

// The fit counts the rows `socsim validate` scores: a prediction that restates a configured
// fact (Dhrystone's cpu_clock on a cpufreq board, excluded:config-echo) is not in the loss or the
// report. Before session 6 calibrate selected rows by their flags only and fitted them.
TEST(Calibrate, RowsWhosePredictionEchoesAConfiguredFactAreNotFitted) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  auto all = readMeasuredDir(src + "/calibration/measured");
  int flagless = 0;
  for (const auto& r : all)
    if (r.family == "dhrystone" && !r.board.empty() && !validation::exclusionReason(r)) ++flagless;
  CalibrateOptions opt;
  opt.sourceDir = src;
  opt.groups = {"dhrystone"};
  opt.jobs = 2;
  opt.write = false;
  opt.maxScreen = 0;  // no fit: the row selection is what is tested
  opt.maxEvaluations = 1;
  opt.loboEvaluations = 1;
  opt.timeBudgetSeconds = 0;
  auto res = calibrate(all, opt);
  uninstallParamSet();
  ASSERT_EQ(res.size(), 1u);
  const GroupResult& g = res[0];
  EXPECT_GE(g.rowsExcluded, 10);  // the cpu_clock rows of the cpufreq boards
  EXPECT_NE(g.excludedReasons.find("config-echo"), std::string::npos) << g.excludedReasons;
  EXPECT_EQ(g.rowsUsed + g.rowsExcluded + g.rowsNotPredicted, flagless);
  ASSERT_EQ(g.families.size(), 1u);
  EXPECT_EQ(g.families[0].rows, g.rowsUsed);
}

namespace {

/// Options for a quick fit of one group without writing (4 evaluations, 1 per held-out refit).
CalibrateOptions quickFit(const std::string& src, const std::string& group) {
  CalibrateOptions opt;
  opt.sourceDir = src;
  opt.groups = {group};
  opt.jobs = 2;
  opt.write = false;
  opt.maxEvaluations = 4;
  opt.loboEvaluations = 1;
  opt.timeBudgetSeconds = 0;
  return opt;
}

/// Options for a quick fit of the mathlib group (one board, 36 rows, a fraction of a second
/// per evaluation; its committed params file fits 3 profile path lengths).
CalibrateOptions mathlibFit(const std::string& src) { return quickFit(src, "mathlib"); }

/// The one group's result of calibrate() with `opt` (the measured rows of the source tree).
GroupResult fitOneGroup(const CalibrateOptions& opt) {
  auto all = readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  auto res = calibrate(all, opt);
  uninstallParamSet();
  if (res.size() != 1) throw std::runtime_error("expected one group");
  return res[0];
}

/// A provenance value of a params file (`  key: "value"`), or "" when absent.
std::string provenanceValue(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::string head = "  " + key + ": \"";
    if (line.compare(0, head.size(), head) == 0) return line.substr(head.size(), line.size() - head.size() - 1);
  }
  return "";
}

}  // namespace

// Session 7: a group's fit starts from its committed values, and the committed fitted
// parameters stay in the fit when the screen is cut (session 6's lmbench-os refit had its
// screen cut by the time budget and ended worse than the fit it replaced). Before the warm
// start, a fit with no screen (cut to nothing) fitted nothing and ended at the defaults' loss.
TEST(WarmStart, ACutScreenKeepsTheCommittedFitAndTheFitNeverEndsAboveIt) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  const std::string file = src + "/calibration/params/mathlib.yaml";
  const double committedLoss = std::stod(provenanceValue(file, "loss_after"));
  const ParamSet committed = readParamFile(file, registry());
  ASSERT_GE(committed.size(), 1u);
  CalibrateOptions opt = mathlibFit(src);
  opt.maxScreen = 0;  // the screen cut before its first candidate
  const GroupResult g = fitOneGroup(opt);
  EXPECT_TRUE(g.warmStart);
  // The committed free set: the params file's values plus the fitted parameters that ended at
  // their defaults (only in mathlib.lobo.csv).
  const std::vector<const FreeParam*> freeSet = committedFitted(src, "mathlib", registry());
  ASSERT_GE(freeSet.size(), committed.size());
  EXPECT_EQ(g.keptFitted, static_cast<int>(freeSet.size()));
  for (const FreeParam* p : freeSet)
    EXPECT_NE(std::find_if(g.fitted.begin(), g.fitted.end(),
                           [&](const FittedParam& f) { return f.name == p->name() && f.kept; }),
              g.fitted.end())
        << p->name() << " was not kept";
  // Every committed value is kept and is where the optimizer began.
  for (const auto& [scope, keys] : committed.byScope())
    for (const auto& [key, v] : keys) {
      const FreeParam* p = registry().find(scope, key);
      ASSERT_NE(p, nullptr);
      auto it = std::find_if(g.fitted.begin(), g.fitted.end(),
                             [&](const FittedParam& f) { return f.name == p->name(); });
      ASSERT_NE(it, g.fitted.end()) << p->name() << " was dropped";
      EXPECT_TRUE(it->kept);
      EXPECT_EQ(it->startValue, v.value);
    }
  // The start point is the committed fit (its loss on the same rows), and the fit does not end
  // above it nor above the defaults.
  EXPECT_NEAR(g.lossStart, committedLoss, 0.02 * committedLoss);
  EXPECT_LT(g.lossStart, g.lossBefore);
  EXPECT_LE(g.lossAfter, g.lossStart);
  EXPECT_LE(g.lossAfter, committedLoss * (1 + 0.02));
}

// The optimizer's point is taken only when it lowers the data loss below the start point's;
// one evaluation (the start itself) and a short run both end at or below the committed loss.
TEST(WarmStart, WithTooFewEvaluationsTheStartPointIsKept) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  for (int evals : {1, 6}) {
    CalibrateOptions opt = mathlibFit(src);
    opt.maxEvaluations = evals;
    opt.maxScreen = 4;
    const GroupResult g = fitOneGroup(opt);
    EXPECT_LE(g.lossAfter, g.lossStart) << evals << " evaluations";
    EXPECT_LE(g.lossAfter, g.lossBefore) << evals << " evaluations";
    if (evals == 1) {
      EXPECT_EQ(g.lossAfter, g.lossStart);
      for (const auto& f : g.fitted) EXPECT_EQ(f.value, f.startValue) << f.name;
    }
  }
}

// Session 8: a later group of a stage may not fit what an earlier group's rows read. An IPSec
// fit (after crypto in the I/O stage) moved the crypto engines' register access time, and with
// it 531 OpenSSL rows whose crypto fit and --check never saw the change (crypto 10.5 -> 13.7 %).
TEST(FitGroups, ALaterGroupOfAStageDoesNotFitWhatAnEarlierGroupsRowsRead) {
  CalibrateOptions opt = quickFit(SOCSIM_TEST_SOURCE_DIR, "ipsec");
  opt.maxScreen = 0;
  opt.maxEvaluations = 1;
  const GroupResult g = fitOneGroup(opt);
  const std::string shared = "components/crypto_engines/omap_aes.linux_driver.register_access_ns (crypto)";
  EXPECT_NE(std::find(g.heldForEarlier.begin(), g.heldForEarlier.end(), shared), g.heldForEarlier.end())
      << g.heldForEarlier.size() << " held";
  for (const auto& f : g.fitted)
    for (const auto& h : g.heldForEarlier) EXPECT_NE(h.rfind(f.name + " ", 0), 0u) << f.name;
}

// Session 10: lmbench-os fitted the kernel's switch_instructions on lat_ctx alone while the
// crypto rows read it too. A group of the kernel or I/O stage adds to its loss the rows of the
// later selected groups that read what it fits: the PCIe NIC rows run the network stack only
// Ethernet fits. The last selected group has no later rows, and the chosen point has the lowest
// joint loss of the defaults and the start point.
TEST(FitGroups, AGroupsLossHoldsTheLaterGroupsRowsThatReadWhatItFits) {
  CalibrateOptions opt = quickFit(SOCSIM_TEST_SOURCE_DIR, "ethernet");
  opt.groups = {"ethernet", "pcie"};
  opt.jointLaterRows = true;
  opt.maxScreen = 0;
  opt.maxEvaluations = 1;
  auto all = readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  const auto res = calibrate(all, opt);
  uninstallParamSet();
  ASSERT_EQ(res.size(), 2u);
  const GroupResult& eth = res[0];
  ASSERT_EQ(eth.group, "ethernet");
  ASSERT_FALSE(eth.fitted.empty());
  EXPECT_EQ(eth.jointGroups, std::vector<std::string>{"pcie"});
  EXPECT_GT(eth.jointRows, 0);
  EXPECT_LE(eth.jointRows, res[1].rowsUsed + res[1].rowsExcluded);
  EXPECT_LE(eth.jointLossAfter, eth.jointLossStart);
  EXPECT_LE(eth.jointLossAfter, eth.jointLossBefore);
  // With the pcie rows in, the joint loss differs from the Ethernet rows' own.
  EXPECT_NE(eth.jointLossStart, eth.lossStart);
  EXPECT_TRUE(res[1].jointGroups.empty());
  EXPECT_EQ(res[1].jointLossAfter, res[1].lossAfter);
}

// `--cold` keeps the behaviour before session 7: the defaults are the start point and the
// screen decides every fitted parameter (cut to nothing, it fits nothing).
TEST(WarmStart, ColdStartsFromTheDefaults) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  CalibrateOptions opt = mathlibFit(src);
  opt.warmStart = false;
  opt.maxScreen = 0;
  const GroupResult g = fitOneGroup(opt);
  EXPECT_FALSE(g.warmStart);
  EXPECT_EQ(g.keptFitted, 0);
  EXPECT_TRUE(g.fitted.empty());
  EXPECT_EQ(g.lossStart, g.lossBefore);
  EXPECT_EQ(g.lossAfter, g.lossBefore);
}

// The written params file says where the fit started: warm, from which file and commit (a
// tree outside git says so), and the loss at the start; the report says it too.
TEST(WarmStart, TheParamsFileRecordsTheStartPoint) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  std::string dir = tmpDir("warm-provenance");
  fs::create_directory_symlink(src + "/configs", dir + "/configs");
  fs::create_directories(dir + "/calibration");
  fs::copy(src + "/calibration/params", dir + "/calibration/params");
  fs::create_directories(dir + "/calibration/reports");
  fs::copy_file(src + "/calibration/reports/mathlib.lobo.csv", dir + "/calibration/reports/mathlib.lobo.csv");
  CalibrateOptions opt = mathlibFit(dir);
  opt.write = true;
  opt.maxScreen = 0;
  fitOneGroup(opt);
  std::string start = provenanceValue(dir + "/calibration/params/mathlib.yaml", "start");
  const std::string kept = std::to_string(committedFitted(src, "mathlib", registry()).size());
  EXPECT_EQ(start.rfind("warm: " + kept + " committed fitted parameters kept from "
                        "calibration/params/mathlib.yaml at not in git, loss at the start ", 0),
            0u)
      << start;
  // The written file has the values that left their defaults; the free set is unchanged.
  const size_t written = readParamFile(dir + "/calibration/params/mathlib.yaml", registry()).size();
  EXPECT_GE(written, 1u);
  EXPECT_LE(written, committedFitted(src, "mathlib", registry()).size());
  std::ifstream md(dir + "/calibration/reports/mathlib.md");
  std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("- start: warm, " + kept + " committed fitted parameters kept"), std::string::npos) << text;
  fs::remove_all(dir);
}

// The leave-one-board-out refits inside calibrate start from the full fit's values (the held-out
// board's rows are out of the loss; the start point is the full-data optimum), so a refit cut to
// one trial keeps the full fit, not the defaults (before session 7 a refit that got 0-11
// evaluations reported a LOBO close to the defaults); the report says how many each got.
TEST(WarmStart, HeldOutRefitsStartFromTheFullFit) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  CalibrateOptions opt = mathlibFit(src);
  opt.groups = {"ufs"};  // 3 boards, one fitted device parameter that every board reads
  opt.maxScreen = 0;
  opt.maxEvaluations = 1;
  opt.loboEvaluations = 1;  // the start point only
  auto all = readMeasuredDir(src + "/calibration/measured");
  auto res = calibrate(all, opt);
  uninstallParamSet();
  ASSERT_EQ(res.size(), 1u);
  const GroupResult& g = res[0];
  ASSERT_EQ(g.fitted.size(), 1u);
  ASSERT_NE(g.fitted[0].value, g.fitted[0].defaultValue);
  int refits = 0;
  for (const auto& c : g.lobo) {
    if (c.status != "lobo" || c.refitParams == 0) continue;
    ++refits;
    EXPECT_EQ(c.trials, 1) << c.board;
    ASSERT_EQ(c.values.size(), 1u) << c.board;
    EXPECT_EQ(c.values[0].second, g.fitted[0].value) << c.board << " refit did not start at the full fit";
  }
  EXPECT_GE(refits, 2);
}

// A full `socsim calibrate` shares --time-budget by each group's need: the cost of one
// evaluation times the evaluations its parameters take. Before session 7 the share followed the
// cost of one evaluation alone: Ethernet (38 parameters, ~1 s an evaluation) got ~20 s of 30 min
// beside lmbench-os (~35 s an evaluation) and memory (~25 s).
TEST(TimeBudget, GroupsShareTheBudgetByNeedWithAFloorForCheapGroups) {
  CalibrateOptions opt;  // --max-evals 60, --max-screen 40
  // The need grows with the parameters to fit and the screening steps, not only the cost.
  double ethernet = fitNeedSeconds(1.0, 38, 30, opt);
  EXPECT_GT(ethernet, 5 * fitNeedSeconds(1.0, 1, 0, opt));
  EXPECT_EQ(fitNeedSeconds(1.0, 0, 10, opt), 0);  // nothing to fit
  EXPECT_NEAR(fitNeedSeconds(1.0, 2, 0, opt), (2 + 10) / 0.7, 1e-9);
  double lmbenchOs = fitNeedSeconds(35.0, 40, 0, opt), memory = fitNeedSeconds(25.0, 33, 10, opt);
  // The expensive groups get the most, in proportion to their needs ...
  double remaining = 1700, floor = 90;
  double aOs = timeAllotment(remaining, {lmbenchOs, ethernet}, floor);
  double aMem = timeAllotment(remaining, {memory, lmbenchOs, ethernet}, floor);
  EXPECT_GT(aMem, 0.3 * remaining);
  EXPECT_LT(aMem, remaining - floor);  // the later groups' floors stay promised
  EXPECT_GT(aOs, aMem);
  EXPECT_LE(aOs, remaining - std::min(ethernet, floor) + 1e-9);
  // ... and a cheap group with many parameters gets its floor, not a sliver of the budget.
  double aEth = timeAllotment(remaining, {ethernet, lmbenchOs, memory}, floor);
  EXPECT_GE(aEth, std::min(ethernet, floor));
  EXPECT_GT(aEth, remaining * ethernet / (ethernet + lmbenchOs + memory));
  // A group that needs less than the floor gets its need's share (it ends early and the rest
  // goes to the later groups); one with nothing to fit gets 1 s; the budget is never exceeded.
  EXPECT_EQ(timeAllotment(remaining, {0.0, memory}, floor), 1.0);
  EXPECT_LE(timeAllotment(100, {memory, lmbenchOs}, floor), 100);
}

// Session 9: a warm start whose free set came from <group>.lobo.csv alone (no params file) said
// "warm start from no committed params file (the defaults): 3 committed fitted parameters kept".
TEST(WarmStart, TheStartPointIsNamedWithoutContradiction) {
  GroupResult g;
  g.warmStart = true;
  g.keptFitted = 3;
  g.startFrom = "calibration/params/mathlib.yaml at commit abc1234";
  EXPECT_EQ(warmStartText(g),
            "3 committed fitted parameters kept from calibration/params/mathlib.yaml at commit abc1234");
  g.startAtDefaults = true;
  g.startFrom = "calibration/reports/mathlib.lobo.csv";
  EXPECT_EQ(warmStartText(g), "the committed free set from calibration/reports/mathlib.lobo.csv "
                              "(3 parameters), started at the defaults");
  g.keptFitted = 0;
  EXPECT_EQ(warmStartText(g), "no committed fit: the defaults");
  EXPECT_FALSE(outcomeNeedsReason("fitted"));
  EXPECT_FALSE(outcomeNeedsReason("nothing to fit"));
  EXPECT_TRUE(outcomeNeedsReason("kept the committed values"));
}

// Session 9's `validate --cv lobo --time-budget 900` shared the time equally by refit: memory (10
// refits) and coremark-pro (6), whose evaluation costs more than an equal share, were never
// refitted and their held-out rows were predicted at the defaults. The share follows the cost:
// every refit gets the same number of trials, at least the floor.
TEST(TimeBudget, CrossValidationRefitsShareTheBudgetByCost) {
  // 3 cheap refits (1 s an evaluation) and one expensive (20 s): 230 s hold 8 trials each plus
  // their start and end predictions, (8 + 2) x (20 + 3 x 1) = 230.
  const std::vector<double> costs = {20, 1, 1, 1};
  CvRefitAllot expensive = cvRefitAllotment(230, costs, 3);
  EXPECT_EQ(expensive.trials, static_cast<int>(std::floor(230.0 / 23 - 2)));
  EXPECT_NEAR(expensive.seconds, 20.0 * expensive.trials, 1e-9);
  CvRefitAllot cheap = cvRefitAllotment(230, {1, 20, 1, 1}, 3);
  EXPECT_EQ(cheap.trials, expensive.trials);  // the same trials, not the same seconds
  EXPECT_NEAR(cheap.seconds, cheap.trials * 1.0, 1e-9);
  // The old equal share (230 / 4 = 57.5 s minus 2 evaluations) held one trial of the expensive
  // refit; a spent budget still gives every refit its floor of trials.
  CvRefitAllot spent = cvRefitAllotment(-50, costs, 5);
  EXPECT_EQ(spent.trials, 5);
  EXPECT_NEAR(spent.seconds, 100, 1e-9);
  EXPECT_GT(cvRefitAllotment(0, {0.0}, 4).seconds, 0);  // cost unknown: a positive cap
}

// Session 11: `validate --cv lobo --family coremark-pro` screened the 17 groups of other stages
// with one prediction each (725 s with its first pass) before any refit. The groups are moved
// together and halved where rows moved: the same groups and units as one prediction per group,
// in fewer predictions, each over the units the larger pool moved only.
TEST(CrossValidation, OtherStagesGroupsAreScreenedTogetherThenHalved) {
  // 17 groups; group 3 moves boards a and b, group 11 moves b only, the others move nothing.
  const std::map<size_t, std::set<std::string>> truth = {{3, {"a", "b"}}, {11, {"b"}}};
  const std::set<std::string> units = {"a", "b", "c", "d", "e", "f"};
  int asked = 0;
  auto moves = [&](size_t lo, size_t hi, const std::set<std::string>& among) {
    ++asked;
    for (const auto& u : among) EXPECT_TRUE(units.count(u)) << u;
    std::set<std::string> out;
    for (const auto& [g, us] : truth)
      if (g >= lo && g < hi)
        for (const auto& u : us)
          if (among.count(u)) out.insert(u);
    return out;
  };
  EXPECT_EQ(groupsMovingUnits(17, units, moves), truth);
  EXPECT_LT(asked, 17);
  EXPECT_LE(asked, 1 + 2 * 2 * 5);  // about 2 log2(17) per moving group
  // A later pool is asked about the units the larger pool moved only: group 11's half never
  // hears of board a once the pool without group 3 moved b alone.
  std::vector<std::set<std::string>> askedAbout;
  groupsMovingUnits(17, units, [&](size_t lo, size_t hi, const std::set<std::string>& among) {
    if (lo == 11 && hi == 12) askedAbout.push_back(among);
    return moves(lo, hi, among);
  });
  ASSERT_EQ(askedAbout.size(), 1u);
  EXPECT_EQ(askedAbout[0], (std::set<std::string>{"b"}));
  // Nothing moves: one prediction; no groups or no units: none.
  asked = 0;
  EXPECT_TRUE(groupsMovingUnits(17, units, [&](size_t, size_t, const std::set<std::string>&) {
                ++asked;
                return std::set<std::string>{};
              }).empty());
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(groupsMovingUnits(0, units, moves).empty());
  EXPECT_TRUE(groupsMovingUnits(5, {}, moves).empty());
}

// Session 9: plain `socsim calibrate` gives each group's optimizer as many evaluations as its
// time holds; session 8's lmbench-os stopped at --max-evals 140 with 150 of its 408 s left.
TEST(TimeBudget, TheEvaluationCapScalesWithTheAllotment) {
  EXPECT_EQ(fitEvaluationCap(60, 0, 400, 1.0), 60);      // no time budget: --max-evals
  EXPECT_EQ(fitEvaluationCap(60, 1800, 400, 1.0), 400);  // 400 s at 1 s an evaluation
  EXPECT_EQ(fitEvaluationCap(60, 1800, 30, 1.0), 60);    // --max-evals is the floor
  EXPECT_EQ(fitEvaluationCap(140, 1800, 280, 2.0), 140);
  EXPECT_EQ(fitEvaluationCap(140, 1800, 400, 2.0), 200);
  EXPECT_EQ(fitEvaluationCap(60, 1800, 400, 0.0), 60);   // cost unknown
}

// Session 8: pcie's report said 10.4 %, validate 12.9 %: its PCIe-NIC rows run the network stack
// (workloads/net/) that Ethernet fits, and Ethernet came after pcie in the stage, so pcie's fit,
// report and --check saw the stack at its defaults while validate applied Ethernet's values.
// The values a group's fit sees (paramsSeenBy) must predict its rows as validate does with every
// params file: no later group's fit moves them.
TEST(FitGroups, TheValuesPcieIsFittedOnPredictItsRowsAsValidateDoes) {
  const std::string src = SOCSIM_TEST_SOURCE_DIR;
  const ParamSet committed = readCommittedParams(src + "/calibration/params", registry());
  std::vector<MeasuredRow> rows;
  for (const auto& r : readMeasuredDir(src + "/calibration/measured"))
    if (r.family == "pcie" && !r.board.empty() && !validation::exclusionReason(r)) rows.push_back(r);
  ASSERT_GT(rows.size(), 10u);
  auto runner = validation::makeBoardRunner(configsDir() + "/boards", {});
  validation::ValidateOptions vo;
  vo.jobs = 2;
  vo.isolate = true;
  HookGuard guard;
  auto predict = [&](const ParamSet& set) {
    installParamSet(set, registry());
    return validation::validate(rows, runner, vo);
  };
  const auto seen = predict(paramsSeenBy(committed, "pcie"));
  const auto all = predict(committed);
  ASSERT_EQ(seen.size(), all.size());
  int differ = 0, predicted = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    predicted += all[i].predicted.has_value();
    if (seen[i].predicted.has_value() != all[i].predicted.has_value() ||
        (all[i].predicted && *seen[i].predicted != *all[i].predicted))
      ++differ;
  }
  EXPECT_GT(predicted, 10);
  EXPECT_EQ(differ, 0) << "of " << all.size() << " pcie rows";
}

TEST(Workers, AWorkerDiesWithItsParent) {
  // Killing `socsim calibrate` or `validate` must not leave forked board workers behind: the
  // runner of a worker writes its pid and sleeps; the parent running validate is SIGKILLed.
  std::string dir = tmpDir("workers");
  std::string pidFile = dir + "/worker.pid";
  pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    validation::BoardRunner runner = [pidFile](const std::string&, const std::vector<wl::Query>& qs) {
      std::ofstream(pidFile) << ::getpid() << "\n";
      ::sleep(60);
      return std::vector<validation::QueryResult>(qs.size());
    };
    MeasuredRow r;
    r.board = "b";
    r.family = "stream";
    validation::ValidateOptions vo;
    vo.jobs = 1;
    vo.isolate = true;
    validation::validate({r}, runner, vo);
    _exit(0);
  }
  pid_t worker = 0;
  for (int i = 0; i < 200 && worker == 0; ++i) {
    std::ifstream in(pidFile);
    if (!(in >> worker)) worker = 0;
    if (worker == 0) ::usleep(50000);
  }
  ASSERT_GT(worker, 0) << "the worker did not start";
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    // The orphaned worker is reparented and reaped by init (or a subreaper): it is gone, or
    // a zombie awaiting the reaper, once its state is no longer running/sleeping.
    std::ifstream stat("/proc/" + std::to_string(worker) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) {
      gone = true;
    } else {
      auto close = line.rfind(')');
      gone = close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
    }
    if (!gone) ::usleep(50000);
  }
  if (!gone) ::kill(worker, SIGKILL);
  EXPECT_TRUE(gone) << "worker " << worker << " outlived its killed parent";
  fs::remove_all(dir);
}

TEST(CrossValidation, AFamilysCpuLoadRowsGetIntervalsFromCpuLoadResidualsOnly) {
  // One family with throughput rows (relative errors) and CPU-load rows (percentage points):
  // each kind's interval comes from the same kind's residuals of the other boards.
  CvPlan plan;
  plan.mode = "lobo";
  plan.families = {"emmc"};
  std::vector<validation::ValidationRow> rows;
  for (int k = 0; k < 6; ++k) {
    // Throughput: 40-50 % over-predicted (log residual about 0.34..0.41).
    rows.push_back(cvRow("b" + std::to_string(k), "s", "emmc", 100, 140 + 2 * k));
    // CPU load: exact to within 0.5 pp (residual (pred - meas)/100 about 0..0.005).
    auto cpu = cvRow("b" + std::to_string(k), "s", "emmc", 20, 20 + 0.1 * k);
    cpu.measured.unit = "%";
    cpu.errorKind = validation::ErrorKind::PercentagePoints;
    cpu.error = 0.1 * k;
    rows.push_back(cpu);
  }
  auto [checked, inside] = finishCv(rows, plan);
  EXPECT_EQ(checked, 12);
  // b0's CPU-load row (exact): its interval is the other boards' CPU-load band, a few tenths
  // of a point wide; mixed with the throughput residuals it would span tens of points.
  const auto& cpu0 = rows[1];
  ASSERT_TRUE(cpu0.lo && cpu0.hi);
  EXPECT_LT(*cpu0.hi - *cpu0.lo, 1.0);
  // b0's throughput row keeps an interval from the other throughput rows: it contains the
  // measured value times the over-prediction band.
  const auto& thr0 = rows[0];
  ASSERT_TRUE(thr0.lo && thr0.hi);
  EXPECT_GT(*thr0.hi, 95.0);
  EXPECT_LT(*thr0.lo, 105.0);
}

TEST(Intervals, CommittedQuantilesAreKeyedByFamilyAndErrorKind) {
  EXPECT_EQ(intervalKey("emmc", false), "emmc");
  EXPECT_NE(intervalKey("emmc", true), intervalKey("emmc", false));
  std::map<std::string, FamilyInterval> iv;
  FamilyInterval rel, pp;
  rel.family = pp.family = "emmc";
  rel.q10 = -0.1;
  rel.q90 = 0.1;
  pp.pp = true;
  pp.q10 = -0.02;
  pp.q90 = 0.02;
  iv[intervalKey("emmc", false)] = rel;
  iv[intervalKey("emmc", true)] = pp;
  std::vector<validation::ValidationRow> rows = {cvRow("b", "s", "emmc", 100, 100),
                                                 cvRow("b", "s", "emmc", 20, 20)};
  rows[1].measured.unit = "%";
  rows[1].errorKind = validation::ErrorKind::PercentagePoints;
  applyIntervals(rows, iv);
  ASSERT_TRUE(rows[0].lo && rows[1].lo);
  EXPECT_NEAR(*rows[0].lo, 100 * std::exp(-0.1), 1e-9);
  EXPECT_NEAR(*rows[1].lo, 18.0, 1e-9);  // 20 - 100 x 0.02 points
  EXPECT_NEAR(*rows[1].hi, 22.0, 1e-9);
}

TEST(ConfigReads, TheRecorderSeesTheScalarsABoardLoadConvertsNotThoseOfUnloadedPresets) {
  // The A72 core preset's mispredict penalty is converted when a J721E board loads; the A8's
  // is in a file that board never parses. ReadRecorder tells them apart by file and line
  // (how calibrate keeps unread keys out of the candidates and params --scan counts).
  const FreeParam* a72 = registry().find("components/cores/cortex_a72", "timing.mispredict_penalty_cycles");
  ASSERT_NE(a72, nullptr);
  const FreeParam* a8 = nullptr;
  for (const auto& p : registry().params())
    if (p.scope == "components/cores/cortex_a8" && p.numeric) {
      a8 = &p;
      break;
    }
  ASSERT_NE(a8, nullptr);
  auto consumed = [&](const config::ReadSet& reads, const FreeParam& p) {
    for (const auto& [file, line] : reads)
      if (line == p.line && scopeOfFile(file, configsDir()) == p.scope) return true;
    return false;
  };
  config::ReadSet reads;
  {
    config::ReadRecorder rec;
    soc::loadBoard(configsDir() + "/boards/j721e-idk-gw.yaml");
    reads = rec.reads();
  }
  EXPECT_TRUE(consumed(reads, *a72));
  EXPECT_FALSE(consumed(reads, *a8));
  // No recorder active: nothing is kept (a later recorder starts empty).
  soc::loadBoard(configsDir() + "/boards/am335x-evm.yaml");
  config::ReadRecorder after;
  EXPECT_TRUE(after.reads().empty());
}
