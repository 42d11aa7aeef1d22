// The config system: every board loads, round trip, SI parsing, located errors, --set overrides,
// boards outside configs/ by path, schema hygiene.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "common/units.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
#include "soc/config/parse_cache.h"
#include "soc/config/schema_registry.h"

using namespace socsim;
namespace fs = std::filesystem;

namespace {

std::string srcDir() {
  return SOCSIM_TEST_SOURCE_DIR;
}
std::string boardsDir() {
  return srcDir() + "/configs/boards";
}
std::string fixture(const std::string& name) {
  return srcDir() + "/tests/data/config/" + name;
}

/// A small valid board; presets resolve relative to tests/data/config/. Line numbers matter:
/// 1 board, 2 software, 3 clusters, 4 name, 5 cores, 6 core, 7 memory, 8 l2, 9 interconnect.
const std::string kBase =
    "board: {name: t, soc: T1, source: \"test board\"}\n"
    "software: {preset: ../../../configs/components/software/linux.yaml}\n"
    "clusters:\n"
    "  - name: c0\n"
    "    cores: 2\n"
    "    core: {preset: ../../../configs/components/cores/cortex_a53.yaml, clock_mhz: 1000}\n"
    "    memory: {preset: ../../../configs/components/core_memory/cortex_a53.yaml}\n"
    "    l2: {preset: ../../../configs/components/caches/cortex_a53_l2.yaml, size: 512KiB}\n"
    "interconnect: {preset: ../../../configs/components/interconnect/k3_cbass.yaml}\n";

std::string withReplaced(const std::string& from, const std::string& to) {
  std::string s = kBase;
  auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

soc::BoardConfig loadInline(const std::string& yaml,
                            const std::vector<std::string>& overrides = {}) {
  return soc::loadBoardText(yaml, fixture("inline.yaml"), overrides);
}

/// The InputError that loading `yaml` raises (a test failure when none is raised).
InputError errorOf(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    loadInline(yaml, overrides);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for:\n" << yaml;
  return InputError("", 0, "", "(none)");
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string resolvedText(const soc::BoardConfig& b) {
  std::ostringstream os;
  soc::WriteOptions opt;
  opt.presetComments = false;
  soc::writeResolvedConfig(b, os, opt);
  return os.str();
}

std::string tempFile(const std::string& name, const std::string& text) {
  fs::path p =
      fs::temp_directory_path() / ("socsim_test_config_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

// ---------------------------------------------------------------- units

// Session 10: parsed config files are cached per process (parse_cache.h) so that the workers a
// calibration evaluation forks do not parse every preset again; a file whose text changed is
// parsed again, and the parsed-file hook (the calibration overrides) never reaches the cache.
TEST(ParseCache, AChangedFileIsParsedAgainAndTheHookChangesOnlyTheCopy) {
  const std::string f = tempFile("parse_cache.yaml", "a: 1\nb: x\n");
  EXPECT_EQ(config::parseYamlFile(f).find("a")->scalar, "1");
  std::ofstream(f) << "a: 2\nb: x\n";
  EXPECT_EQ(config::parseYamlFile(f).find("a")->scalar, "2");
  auto saved = config::currentParsedFileHook();
  config::setParsedFileHook([](const std::string&, config::Node& root) { root.find("a")->scalar = "9"; });
  EXPECT_EQ(config::parseYamlFile(f).find("a")->scalar, "9");
  config::setParsedFileHook(saved);
  EXPECT_EQ(config::parseYamlFile(f).find("a")->scalar, "2");  // the cached tree is unhooked
  std::ofstream(f) << "a: [unclosed\n";
  EXPECT_THROW(config::parseYamlFile(f), InputError);  // a bad file still fails where it is used
  fs::remove(f);
}

TEST(Units, ParseInConvertsSiStringsIntoTheFieldUnit) {
  EXPECT_EQ(units::parseIn("32KiB", "bytes"), 32768);
  EXPECT_EQ(units::parseIn("32KB", "bytes"), 32768);  // datasheet KB = 1024
  EXPECT_EQ(units::parseIn("2 MiB", "bytes"), 2097152);
  EXPECT_EQ(units::parseIn("4096", "bytes"), 4096);
  EXPECT_EQ(units::parseIn("4096 bytes", "bytes"), 4096);
  EXPECT_EQ(units::parseIn("2GHz", "MHz"), 2000);
  EXPECT_EQ(units::parseIn("166.667 MHz", "MHz"), 166.667);
  EXPECT_EQ(units::parseIn("1000", "MHz"), 1000);  // a bare number is in the field's unit
  EXPECT_EQ(units::parseIn("15ns", "ns"), 15);
  EXPECT_DOUBLE_EQ(units::parseIn("7.8us", "ns"), 7800);
  EXPECT_DOUBLE_EQ(units::parseIn("3.904us", "ns"), 3904);
  EXPECT_EQ(units::parseIn("4266MT/s", "MT/s"), 4266);
  EXPECT_EQ(units::parseIn("8GT/s", "MT/s"), 8000);
  EXPECT_EQ(units::parseIn("1Gbps", "Mbit/s"), 1000);
  EXPECT_EQ(units::parseIn("12 cycles", "cycles"), 12);
  EXPECT_EQ(units::parseIn("0", "MHz"), 0);  // zero is left to the field's range check
}

TEST(Units, BadUnitsNameTheAcceptedForms) {
  try {
    units::parseIn("32 furlongs", "bytes");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "unknown size unit 'furlongs'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "KiB")) << e.what();
  }
  EXPECT_THROW(units::parseIn("fast", "MHz"), InputError);
  EXPECT_THROW(units::parseIn("3 ns", "cycles"), InputError);
  EXPECT_THROW(units::parseIn("-1KiB", "bytes"), InputError);
  EXPECT_EQ(units::parseBytes("256KiB"), 262144u);
  EXPECT_EQ(units::parseHz("2.4GHz"), 2.4e9);
  EXPECT_THROW(units::parseHz("0"), InputError);
}

// ---------------------------------------------------------------- the shipped boards

TEST(Boards, EveryBoardLoadsWithASourceForEveryField) {
  auto files = soc::listBoardFiles(boardsDir());
  ASSERT_GE(files.size(), 15u);
  for (const auto& f : files) {
    SCOPED_TRACE(f);
    soc::BoardConfig b = soc::loadBoard(f);
    EXPECT_EQ(b.board.name, fs::path(f).stem().string());
    EXPECT_FALSE(b.clusters.empty());
    EXPECT_GT(b.mainCluster().core.clock_mhz, 0);
    EXPECT_FALSE(b.board.soc.empty());
    for (const auto& r : soc::resolvedFields(b))
      EXPECT_FALSE(r.source.empty()) << r.path << " has no source";
    if (b.dram) {
      EXPECT_GT(b.dram->data_rate_mts, 0);
      ASSERT_TRUE(b.ddrController.has_value());
      // Every shipped controller runs at half the DRAM clock (a quarter of the data rate): a
      // board that changes its data rate must carry the controller clock along.
      EXPECT_NEAR(b.ddrController->clock_mhz * 4, b.dram->data_rate_mts, 0.005 * b.dram->data_rate_mts);
    }
  }
}

TEST(Boards, FactsMatchTheGuidesAndDatasheets) {
  auto am335x = soc::loadBoard(boardsDir() + "/am335x-evm.yaml");
  EXPECT_EQ(am335x.clusters[0].l2->size_bytes, 256u * 1024);
  EXPECT_EQ(am335x.dram->data_rate_mts, 800);
  EXPECT_EQ(am335x.dram->bus_width_bits, 16);
  EXPECT_EQ(am335x.dram->cl_tck, 6);
  EXPECT_NE(am335x.sourceOf("clusters[0].core.clock_mhz").find("1000MHz"), std::string::npos);

  auto j784 = soc::loadBoard(boardsDir() + "/j784s4-evm.yaml");
  ASSERT_EQ(j784.clusters.size(), 2u);
  EXPECT_EQ(j784.totalCores(), 8);
  EXPECT_EQ(j784.clusters[1].l2->size_bytes, 2u * 1024 * 1024);
  EXPECT_EQ(j784.l3->size_bytes, 1u * 1024 * 1024);
  EXPECT_EQ(j784.dram->channels, 4);

  auto j721e = soc::loadBoard(boardsDir() + "/j721e-idk-gw.yaml");
  EXPECT_EQ(j721e.dram->data_rate_mts, 4266);
  EXPECT_EQ(j721e.dram->cl_tck, 36);
  EXPECT_EQ(j721e.clusters[0].l1i->size_bytes, 48u * 1024);
  EXPECT_EQ(j721e.clusters[0].core.type, "cortex-a72");
  // MSMC L3: the System Firmware board configuration's split (U-Boot board-cfg.yaml
  // msmc_cache_size), not guide 003's 'L3 Cache size 3MB': none on J721E/J721S2, 512 KiB on J7200.
  EXPECT_FALSE(j721e.l3.has_value());
  EXPECT_FALSE(soc::loadBoard(boardsDir() + "/j721s2-evm.yaml").l3.has_value());
  auto j7200 = soc::loadBoard(boardsDir() + "/j7200-evm.yaml");
  ASSERT_TRUE(j7200.l3.has_value());
  EXPECT_EQ(j7200.l3->size_bytes, 512u * 1024);

  // K2G EVM: the guide's table says DDR3-1333, U-Boot programs the 1 GHz EVM for 1066 MT/s CL7.
  auto k2g = soc::loadBoard(boardsDir() + "/k2g-evm.yaml");
  EXPECT_EQ(k2g.dram->data_rate_mts, 1066);
  EXPECT_EQ(k2g.dram->cl_tck, 7);
  EXPECT_EQ(k2g.dram->bus_width_bits, 32);
  EXPECT_NE(k2g.sourceOf("dram.data_rate").find("board_k2g.c"), std::string::npos);

  auto lcdk = soc::loadBoard(boardsDir() + "/omapl138-lcdk.yaml");
  EXPECT_EQ(lcdk.mainCluster().core.clock_mhz, 456);
  EXPECT_FALSE(lcdk.clusters[0].l2.has_value());

  auto am64 = soc::loadBoard(boardsDir() + "/am64x-evm.yaml");
  EXPECT_EQ(am64.software.stack, "mcu-nortos");
  EXPECT_EQ(am64.mainCluster().info.name, "r5fss0");
  EXPECT_EQ(am64.clusters[1].core.type, "cortex-r5f");  // YAML merge key copies the R5F cluster
  EXPECT_EQ(am64.clusters[1].info.role, "realtime");

  auto lp = soc::loadBoard(boardsDir() + "/am243x-lp.yaml");
  EXPECT_FALSE(lp.dram.has_value());
}

TEST(Boards, ResolvedConfigRoundTrips) {
  for (const auto& f : soc::listBoardFiles(boardsDir())) {
    SCOPED_TRACE(f);
    soc::BoardConfig b1 = soc::loadBoard(f);
    std::string y1 = resolvedText(b1);
    std::string t1 = tempFile("rt1.yaml", y1);
    soc::BoardConfig b2 = soc::loadBoard(t1);
    std::string y2 = resolvedText(b2);
    std::string t2 = tempFile("rt2.yaml", y2);
    std::string y3 = resolvedText(soc::loadBoard(t2));
    EXPECT_EQ(y1, y2);
    EXPECT_EQ(y2, y3);
    // The written YAML holds every field of every group, defaults included.
    EXPECT_EQ(soc::resolvedFields(b1).size(), soc::resolvedFields(b2).size());
    fs::remove(t1);
    fs::remove(t2);
  }
}

TEST(Boards, ResolvedConfigNamesPresetsAndSources) {
  auto b = soc::loadBoard(boardsDir() + "/am335x-evm.yaml");
  std::ostringstream os;
  soc::writeResolvedConfig(b, os);
  std::string y = os.str();
  EXPECT_TRUE(contains(y, "# preset: ../components/cores/cortex_a8.yaml")) << y.substr(0, 400);
  EXPECT_TRUE(
      contains(y, "size: {value: 262144, unit: bytes, source: \"AM335x datasheet (SPRS717)"));
  EXPECT_TRUE(contains(y, "random_seed: {value: 1, unit: count, source: \"default: "));
}

TEST(Boards, FindBoardByNameOrPathAndSuggestNearest) {
  EXPECT_EQ(soc::findBoardFile("am335x-evm", boardsDir()), boardsDir() + "/am335x-evm.yaml");
  EXPECT_EQ(soc::findBoardFile(fixture("custom_board.yaml"), boardsDir()),
            fixture("custom_board.yaml"));
  try {
    soc::findBoardFile("am335x-evn", boardsDir());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "did you mean 'am335x-evm'")) << e.what();
  }
}

TEST(Boards, BoardOutsideConfigsLoadsByPath) {
  auto b = soc::loadBoard(soc::findBoardFile(fixture("custom_board.yaml"), boardsDir()));
  EXPECT_EQ(b.board.name, "custom-a72x4");
  EXPECT_EQ(b.clusters[0].info.cores, 4);
  EXPECT_EQ(b.clusters[0].core.clock_mhz, 1800);  // "1.8GHz" in a MHz field
  EXPECT_EQ(b.clusters[0].l2->size_bytes, 2u * 1024 * 1024);
  EXPECT_EQ(b.dram->data_rate_mts, 3200);
  EXPECT_EQ(b.dram->channels, 2);
  EXPECT_EQ(b.presets.at("dram"), "../../../configs/components/dram/lpddr4_3200.yaml");
}

// Found (session 3): the README's what-if `--set dram.data_rate=3200MT/s` left the DDR controller
// at the board's old clock. The controllers state their DFI ratio; the clock follows the rate
// unless a config gives clock_mhz itself.
TEST(Boards, DdrControllerClockFollowsTheDataRate) {
  auto base = soc::loadBoard(boardsDir() + "/j721e-idk-gw.yaml");
  EXPECT_EQ(base.ddrController->clock_mhz, 1066.5);  // 4266 MT/s / 2 / 2, as the board stated it
  auto what = soc::loadBoard(boardsDir() + "/j721e-idk-gw.yaml", {"dram.data_rate=3200MT/s"});
  EXPECT_EQ(what.ddrController->clock_mhz, 800);
  EXPECT_TRUE(contains(what.sources.at("ddr_controller.clock_mhz").source, "derived: dram.data_rate 3200"))
      << what.sources.at("ddr_controller.clock_mhz").source;
  // An explicit controller clock wins (a controller-clock what-if).
  auto both = soc::loadBoard(boardsDir() + "/j721e-idk-gw.yaml",
                             {"dram.data_rate=3200MT/s", "ddr_controller.clock_mhz=700"});
  EXPECT_EQ(both.ddrController->clock_mhz, 700);
  // Every shipped board gets a quarter of its data rate, as its file stated before.
  const std::map<std::string, double> stated = {
      {"am335x-evm", 200},    {"am574x-idk", 266.5},  {"am57xx-evm", 266.5},  {"am64x-evm", 400},
      {"am654x-evm", 333.25}, {"am654x-idk", 333.25}, {"j7200-evm", 666.5},   {"j721e-idk-gw", 1066.5},
      {"j721s2-evm", 666.5},  {"j722s_evm-fs", 800},  {"j742s2_evm-fs", 666.5}, {"j784s4-evm", 666.5},
      {"k2g-evm", 266.5},     {"omapl138-lcdk", 75}};  // k2g: 1066 MT/s as U-Boot programs it
  for (const auto& [name, mhz] : stated) {
    auto b = soc::loadBoard(boardsDir() + "/" + name + ".yaml");
    ASSERT_TRUE(b.ddrController) << name;
    EXPECT_EQ(b.ddrController->clock_mhz, mhz) << name;
  }
  // The resolved config states the clock and reloads to the same value.
  std::ostringstream os;
  soc::writeResolvedConfig(what, os);
  auto again = soc::loadBoardText(os.str(), boardsDir() + "/resolved.yaml");
  EXPECT_EQ(again.ddrController->clock_mhz, 800);
}

// ---------------------------------------------------------------- loader behaviour

TEST(Loader, PresetFieldsAreOverriddenAndSourcesRecorded) {
  auto b =
      loadInline(withReplaced("clock_mhz: 1000", "clock_mhz: {value: 1.2GHz, source: \"TRM x\"}"));
  const auto& c = b.clusters[0];
  EXPECT_EQ(c.core.clock_mhz, 1200);
  EXPECT_EQ(b.sourceOf("clusters[0].core.clock_mhz"), "TRM x");
  EXPECT_EQ(c.core.type, "cortex-a53");               // from the preset
  EXPECT_EQ(c.l2->size_bytes, 512u * 1024);           // the board's value
  EXPECT_EQ(c.l2->associativity, 16);                 // the preset's value
  EXPECT_EQ(b.sourceOf("board.name"), "test board");  // a group's source applies to its fields
  EXPECT_EQ(b.sourceOf("clusters[0].l2.random_seed").rfind("default: ", 0), 0u);
  EXPECT_FALSE(c.l1d.has_value());
}

TEST(Loader, PartialPresetsComposeAndDefaultsFillTheRest) {
  auto b = loadInline(withReplaced(
      "l2: {preset: ../../../configs/components/caches/cortex_a53_l2.yaml, size: 512KiB}",
      "l2: {preset: small_cache.yaml, line_bytes: 32}"));
  EXPECT_EQ(b.clusters[0].l2->size_bytes, 16u * 1024);
  EXPECT_EQ(b.clusters[0].l2->associativity, 2);
  EXPECT_EQ(b.clusters[0].l2->line_bytes, 32);
  EXPECT_EQ(b.sourceOf("clusters[0].l2.size"), "test fixture preset");
}

// ---------------------------------------------------------------- errors

TEST(Errors, UnknownKeyNamesFileLinePathAndNearestKey) {
  auto e = errorOf(withReplaced("size: 512KiB", "sise: 512KiB"));
  EXPECT_EQ(e.file(), fixture("inline.yaml"));
  EXPECT_EQ(e.line(), 8);
  EXPECT_EQ(e.path(), "clusters[0].l2.sise");
  EXPECT_TRUE(contains(e.what(), "unknown key 'sise'")) << e.what();
  EXPECT_TRUE(contains(e.what(), "did you mean 'size'?")) << e.what();
  auto top = errorOf(kBase + "dramm: {}\n");
  EXPECT_EQ(top.line(), 10);
  EXPECT_TRUE(contains(top.what(), "did you mean 'dram'?")) << top.what();
}

TEST(Errors, MissingRequiredKeyNamesTheModelInstance) {
  auto e = errorOf(withReplaced(", clock_mhz: 1000", ""));
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.path(), "clusters[0].core.clock_mhz");
  EXPECT_TRUE(contains(e.what(), "missing required key 'clock_mhz'")) << e.what();
  EXPECT_TRUE(contains(e.what(), "the core of cluster 'c0'")) << e.what();
  EXPECT_TRUE(contains(e.what(), "in MHz")) << e.what();

  auto g = errorOf(withReplaced("interconnect:", "# interconnect:"));
  EXPECT_TRUE(contains(g.what(), "missing required group 'interconnect' for board 't'"))
      << g.what();
}

TEST(Errors, WrongTypeNamesTheExpectation) {
  auto e = errorOf(withReplaced("cores: 2", "cores: [1, 2]"));
  EXPECT_EQ(e.line(), 5);
  EXPECT_EQ(e.path(), "clusters[0].cores");
  EXPECT_TRUE(contains(e.what(), "wrong type: expected an integer")) << e.what();
  auto f = errorOf(withReplaced("cores: 2", "cores: 2.5"));
  EXPECT_TRUE(contains(f.what(), "expected an integer")) << f.what();
  auto g = errorOf("board: {name: t, soc: T1}\nsoftware: {stack: linux}\nclusters: 5\n");
  EXPECT_EQ(g.line(), 3);
  EXPECT_TRUE(contains(g.what(), "expected a non-empty list of clusters")) << g.what();
  auto h = errorOf(withReplaced(
      "l2: {preset: ../../../configs/components/caches/cortex_a53_l2.yaml, size: 512KiB}",
      "l2: 512KiB"));
  EXPECT_EQ(h.line(), 8);
  EXPECT_TRUE(contains(h.what(), "expected a group (map of cache fields; write {preset: FILE}"))
      << h.what();
}

TEST(Errors, OutOfRangeNamesTheRange) {
  auto neg = errorOf(withReplaced("size: 512KiB", "size: -1KiB"));
  EXPECT_EQ(neg.line(), 8);
  EXPECT_EQ(neg.path(), "clusters[0].l2.size");
  EXPECT_TRUE(contains(neg.what(), "must not be negative")) << neg.what();
  auto zero = errorOf(withReplaced("clock_mhz: 1000", "clock_mhz: 0"));
  EXPECT_EQ(zero.path(), "clusters[0].core.clock_mhz");
  EXPECT_TRUE(contains(zero.what(), "out of range: expected 1 .. 10000 MHz")) << zero.what();
  auto big = errorOf(withReplaced("clock_mhz: 1000", "clock_mhz: 20GHz"));
  EXPECT_TRUE(contains(big.what(), "got '20GHz' = 20000 MHz")) << big.what();
}

TEST(Errors, BadUnitNamesTheAcceptedUnits) {
  auto e = errorOf(withReplaced("size: 512KiB", "size: 512 furlongs"));
  EXPECT_EQ(e.line(), 8);
  EXPECT_TRUE(contains(e.what(), "unknown size unit 'furlongs'")) << e.what();
  auto f = errorOf(withReplaced("clock_mhz: 1000", "clock_mhz: 1000ns"));
  EXPECT_TRUE(contains(f.what(), "unknown frequency unit 'ns'")) << f.what();
}

TEST(Errors, UnknownChoiceSuggestsTheNearest) {
  auto e = errorOf(withReplaced("clock_mhz: 1000", "clock_mhz: 1000, pipeline: in-ordr"));
  EXPECT_TRUE(contains(e.what(), "did you mean 'in-order'?")) << e.what();
}

TEST(Errors, UnknownPresetPath) {
  auto e = errorOf(withReplaced("core_memory/cortex_a53.yaml", "core_memory/cortex_a99.yaml"));
  EXPECT_EQ(e.file(), fixture("inline.yaml"));
  EXPECT_EQ(e.line(), 7);
  EXPECT_EQ(e.path(), "clusters[0].memory.preset");
  EXPECT_TRUE(contains(e.what(),
                       "unknown preset '../../../configs/components/core_memory/cortex_a99.yaml'"))
      << e.what();
}

TEST(Errors, MalformedYamlIsAnInputErrorWithALine) {
  auto e = errorOf(kBase + "dram: {preset: x\n  bad: [\n");
  EXPECT_GT(e.line(), 9);
  EXPECT_TRUE(contains(e.what(), "malformed YAML")) << e.what();
  auto d = errorOf(kBase + "interconnect: {}\n");
  EXPECT_EQ(d.line(), 10);
  EXPECT_TRUE(contains(d.what(), "duplicate key 'interconnect'")) << d.what();
  EXPECT_THROW(soc::loadBoard(fixture("no_such_board.yaml")), InputError);
}

TEST(Errors, PresetCycleNamesTheChain) {
  auto e = errorOf(withReplaced(
      "l2: {preset: ../../../configs/components/caches/cortex_a53_l2.yaml, size: 512KiB}",
      "l2: {preset: cycle_a.yaml}"));
  EXPECT_TRUE(contains(e.what(), "preset cycle")) << e.what();
  EXPECT_TRUE(contains(e.what(), "cycle_a.yaml")) << e.what();
  EXPECT_TRUE(contains(e.what(), "cycle_b.yaml")) << e.what();
  EXPECT_EQ(e.path(), "preset");  // inside cycle_b.yaml
}

// ---------------------------------------------------------------- --set overrides

TEST(Overrides, SetFieldsByPathIndexNameWildcardAndShorthand) {
  std::string j784 = boardsDir() + "/j784s4-evm.yaml";
  auto b = soc::loadBoard(j784, {"clusters[0].core.clock_mhz=1800"});
  EXPECT_EQ(b.clusters[0].core.clock_mhz, 1800);
  EXPECT_EQ(b.clusters[1].core.clock_mhz, 2000);
  EXPECT_EQ(b.sourceOf("clusters[0].core.clock_mhz"), "--set clusters[0].core.clock_mhz=1800");

  b = soc::loadBoard(j784, {"core.clock_mhz=1.5GHz"});  // shorthand: the first cluster
  EXPECT_EQ(b.clusters[0].core.clock_mhz, 1500);
  EXPECT_EQ(b.clusters[1].core.clock_mhz, 2000);

  b = soc::loadBoard(j784, {"clusters[*].l2.size=4MiB", "clusters[a72ss1].cores=2"});
  EXPECT_EQ(b.clusters[0].l2->size_bytes, 4u << 20);
  EXPECT_EQ(b.clusters[1].l2->size_bytes, 4u << 20);
  EXPECT_EQ(b.clusters[1].info.cores, 2);

  b = soc::loadBoard(j784, {"dram.data_rate=3200MT/s", "l3.size=8MiB", "l2.random_seed=7"});
  EXPECT_EQ(b.dram->data_rate_mts, 3200);
  EXPECT_EQ(b.l3->size_bytes, 8u << 20);
  EXPECT_EQ(b.clusters[0].l2->random_seed, 7);  // a field the YAML left at its default
}

TEST(Overrides, PresetSwapKeepsTheBoardsOwnFacts) {
  auto b =
      soc::loadBoard(boardsDir() + "/j721e-idk-gw.yaml",
                     {"dram.preset=../components/dram/lpddr4_3200.yaml", "dram.data_rate=3200"});
  EXPECT_EQ(b.dram->cl_tck, 28);           // the new preset's timing
  EXPECT_EQ(b.dram->data_rate_mts, 3200);  // the later override
  EXPECT_EQ(b.dram->bus_width_bits, 32);   // the board's own fact survives the swap
  EXPECT_EQ(b.presets.at("dram"), "../components/dram/lpddr4_3200.yaml");
}

TEST(Overrides, ApplyOverrideOnALoadedBoard) {
  auto b = soc::loadBoard(boardsDir() + "/am335x-evm.yaml");
  soc::applyOverride(b, "l2.size=512KiB");
  EXPECT_EQ(b.clusters[0].l2->size_bytes, 512u * 1024);
  soc::applyOverride(b, "clusters[0].core.clock_mhz=800");
  EXPECT_EQ(b.clusters[0].core.clock_mhz, 800);
  EXPECT_EQ(b.clusters[0].l2->size_bytes, 512u * 1024);
  soc::applyOverride(b, "clusters[0].core.clock_mhz", "1.2GHz");
  EXPECT_EQ(b.clusters[0].core.clock_mhz, 1200);
  EXPECT_EQ(b.overrides.size(), 3u);
  EXPECT_THROW(soc::applyOverride(b, "l2.size=-3"), InputError);
}

TEST(Overrides, UnknownPathsFailWithTheNearestKey) {
  std::string am335x = boardsDir() + "/am335x-evm.yaml";
  auto e = errorOf(kBase, {"clusters[0].core.clock_mz=1800"});
  EXPECT_EQ(e.file(), "--set");
  EXPECT_EQ(e.path(), "clusters[0].core.clock_mz");
  EXPECT_TRUE(contains(e.what(), "did you mean 'clock_mhz'?")) << e.what();
  try {
    soc::loadBoard(am335x, {"clusterz[0].core.clock_mhz=1"});
    FAIL();
  } catch (const InputError& x) {
    EXPECT_TRUE(contains(x.what(), "did you mean 'clusters'?")) << x.what();
  }
  try {
    soc::loadBoard(am335x, {"clusters[3].core.clock_mhz=1"});
    FAIL();
  } catch (const InputError& x) {
    EXPECT_TRUE(contains(x.what(), "index 3 out of range")) << x.what();
  }
  try {
    soc::loadBoard(am335x, {"clusters[gpu].cores=1"});
    FAIL();
  } catch (const InputError& x) {
    EXPECT_TRUE(contains(x.what(), "no element named 'gpu'")) << x.what();
  }
  EXPECT_THROW(soc::loadBoard(am335x, {"core.clock_mhz"}), InputError);  // no '='
  EXPECT_THROW(soc::loadBoard(am335x, {"core=1"}), InputError);          // a group, not a field
  EXPECT_THROW(soc::loadBoard(am335x, {"core.clock_mhz=fast"}), InputError);
}

// ---------------------------------------------------------------- schemas

TEST(Schemas, EveryFieldIsDocumentedAndItsDefaultRoundTripsThroughItsUnit) {
  auto schemas = soc::allSchemas();
  EXPECT_GE(schemas.size(), 11u);
  for (const auto& s : schemas) {
    for (size_t i = 0; i < s.fields.size(); ++i) {
      const auto& f = s.fields[i];
      SCOPED_TRACE(s.scope + "." + f.key);
      EXPECT_FALSE(f.description.empty());
      EXPECT_FALSE(f.source.empty());
      for (const char* reserved : {"preset", "source", "value", "unit", "<<"})
        EXPECT_NE(f.key, reserved);
      if (f.kind == params::Kind::Real || f.kind == params::Kind::Integer ||
          f.kind == params::Kind::Bytes) {
        std::string unit = f.kind == params::Kind::Bytes ? "bytes" : f.unit;
        std::string text = s.defaults[i] + (unit.empty() ? "" : " " + unit);
        EXPECT_EQ(formatNumber(units::parseIn(text, unit)), s.defaults[i]);
      }
    }
  }
}

TEST(Schemas, EditDistanceSuggestions) {
  EXPECT_EQ(config::editDistance("size", "sise"), 1);
  EXPECT_EQ(config::nearest("clock_mz", {"cores", "clock_mhz", "type"}), "clock_mhz");
  EXPECT_EQ(config::suggestion("assoc", {"size", "associativity"}),
            " (did you mean 'associativity'?)");
  EXPECT_TRUE(contains(config::suggestion("zzzzzzzz", {"size", "line_bytes"}),
                       "valid keys: size, line_bytes"));
}
