#include "soc/config/loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>

#include "common/error.h"
#include "common/format.h"

namespace fs = std::filesystem;

namespace socsim::soc {

using config::Node;

// ---------------------------------------------------------------- BoardConfig helpers

const ClusterConfig& BoardConfig::mainCluster() const {
  if (clusters.empty()) throw InputError(file, 0, "clusters", "board has no cluster");
  for (const auto& c : clusters)
    if (c.info.role == "application") return c;
  return clusters.front();
}

int BoardConfig::totalCores() const {
  int n = 0;
  for (const auto& c : clusters) n += c.info.cores;
  return n;
}

const SoftwareParams& BoardConfig::softwareFor(const std::string& source) const {
  auto it = softwareReleases.find(source);
  return it == softwareReleases.end() ? software : it->second;
}

std::string BoardConfig::sourceOf(const std::string& path) const {
  auto it = sources.find(path);
  return it == sources.end() ? "" : it->second.source;
}

// ---------------------------------------------------------------- tree -> structs

namespace {

const std::vector<std::string> kTopKeys = {"board",      "software",     "clusters",       "l3",
                                           "sram",       "interconnect", "ddr_controller", "dram",
                                           "peripherals", "software_releases"};
const std::vector<std::string> kClusterGroups = {"core", "memory", "l1i", "l1d", "l2", "memory_port"};

std::string q(const std::string& s) {
  return "'" + s + "'";
}

const Node* group(const Node& parent, const std::string& key, const std::string& path,
                  bool required, const std::string& owner, const std::string& expected) {
  const Node* n = parent.find(key);
  if (!n && required)
    throw InputError(
        parent.file, parent.line, config::joinPath(path, key),
        "missing required group " + q(key) + " for " + owner + " (expected " + expected + ")");
  return n;
}

template <class T>
T readStruct(const Node& g, const std::string& path, const std::string& instance, BoardConfig& out,
             const std::vector<std::string>& subgroups = {}) {
  T obj{};
  config::readGroup(T::schema(), obj, g, path, instance, out.sources, subgroups);
  if (!g.presetAsWritten.empty()) out.presets[path] = g.presetAsWritten;
  return obj;
}

/// The controller clock follows the data rate where the controller states its DFI ratio and no
/// config gives clock_mhz: clock = data rate / 2 (the DRAM clock) / ratio. A `--set
/// dram.data_rate=...` what-if then moves the controller with the DRAM, as the hardware does.
void deriveControllerClock(BoardConfig& b, const Node& dc) {
  auto& c = *b.ddrController;
  if (c.dram_clock_ratio <= 0 || (dc.isMap() && dc.find("clock_mhz"))) return;
  double mhz = b.dram->data_rate_mts / 2 / c.dram_clock_ratio;
  const auto& rate = b.sources["dram.data_rate"];
  if (mhz < 10 || mhz > 5000)
    throw InputError(rate.file, rate.line, "ddr_controller.clock_mhz",
                     "derived controller clock " + formatNumber(mhz) +
                         " MHz (dram.data_rate / 2 / ddr_controller.dram_clock_ratio) is out of "
                         "range: expected 10 .. 5000 MHz");
  c.clock_mhz = mhz;
  b.sources["ddr_controller.clock_mhz"] = {
      "derived: dram.data_rate " + formatNumber(b.dram->data_rate_mts) + " MT/s / 2 / dram_clock_ratio " +
          formatNumber(c.dram_clock_ratio),
      rate.file, rate.line};
}

template <class T>
std::vector<T> readList(const Node* n, const std::string& path, const std::string& what,
                        BoardConfig& out) {
  std::vector<T> v;
  if (!n) return v;
  if (!n->isSeq())
    throw InputError(n->file, n->line, path,
                     "wrong type: expected a list of " + what + " groups, got a " + n->typeName());
  for (size_t i = 0; i < n->seq.size(); ++i) {
    std::string p = path + "[" + std::to_string(i) + "]";
    v.push_back(readStruct<T>(n->seq[i], p, what + " " + p, out));
  }
  return v;
}

BoardConfig convert(const Node& root, const std::string& file) {
  BoardConfig b;
  b.file = file;
  if (!root.isMap())
    throw InputError(root.file, root.line, "",
                     std::string("a board file must be a map with keys board, software, clusters, "
                                 "interconnect, ...; got a ") +
                         root.typeName());
  for (const auto& [k, v] : root.map)
    if (std::find(kTopKeys.begin(), kTopKeys.end(), k) == kTopKeys.end())
      throw InputError(
          v.file, v.line, k,
          "unknown key " + q(k) + " at the top of a board file" + config::suggestion(k, kTopKeys));
  std::string boardName = "this board";
  const Node* bn = group(root, "board", "", true, "the board file", "{name, soc, ...}");
  b.board = readStruct<BoardInfo>(*bn, "board", "the board", b);
  boardName = "board " + q(b.board.name);

  auto readSoftware = [&](const Node& sw, const std::string& path, const std::string& what) {
    SoftwareParams s = readStruct<SoftwareParams>(sw, path, what, b, {"kernel_paths"});
    if (const Node* kp = sw.isMap() ? sw.find("kernel_paths") : nullptr)
      s.kernel_paths = readStruct<wl::os::KernelPathParams>(*kp, path + ".kernel_paths",
                                                            "the kernel paths of " + what, b);
    return s;
  };
  const Node* sw =
      group(root, "software", "", true, boardName, "{preset: ../components/software/linux.yaml}");
  b.software = readSoftware(*sw, "software", "the software stack of " + boardName);
  if (const Node* rel = root.find("software_releases")) {
    if (!rel->isMap())
      throw InputError(rel->file, rel->line, "software_releases",
                       std::string("wrong type: expected a map from a measured-CSV source id to a "
                                   "software group ({preset: ../components/software/...}), got a ") +
                           rel->typeName());
    for (const auto& [id, g] : rel->map) {
      if (!g.isMap())
        throw InputError(g.file, g.line, "software_releases." + id,
                         std::string("wrong type: expected a software group "
                                     "({preset: ../components/software/...}), got a ") +
                             g.typeName());
      b.softwareReleases[id] = readSoftware(g, "software_releases." + id,
                                            "the software of " + boardName + " in " + id);
    }
  }

  const Node* cl = group(root, "clusters", "", true, boardName, "a list of core clusters");
  if (!cl->isSeq() || cl->seq.empty())
    throw InputError(cl->file, cl->line, "clusters",
                     std::string("wrong type: expected a non-empty list of clusters, got ") +
                         (cl->isSeq() ? "an empty list" : std::string("a ") + cl->typeName()));
  for (size_t i = 0; i < cl->seq.size(); ++i) {
    const Node& c = cl->seq[i];
    std::string p = "clusters[" + std::to_string(i) + "]";
    ClusterConfig cc;
    cc.info =
        readStruct<ClusterParams>(c, p, "cluster " + p + " of " + boardName, b, kClusterGroups);
    std::string owner = "cluster " + q(cc.info.name) + " (" + p + ")";
    const Node* core = group(c, "core", p, true, owner,
                             "{preset: ../components/cores/<core>.yaml, clock_mhz: ...}");
    cc.core =
        readStruct<models::CoreParams>(*core, p + ".core", "the core of " + owner, b, {"timing"});
    if (const Node* tg = core->find("timing"))
      cc.timing = readStruct<models::CoreTimingParams>(*tg, p + ".core.timing",
                                                       "the core timing of " + owner, b);
    const Node* mem =
        group(c, "memory", p, true, owner, "{preset: ../components/core_memory/<core>.yaml}");
    cc.memory = readStruct<models::CoreMemoryParams>(*mem, p + ".memory",
                                                     "the core memory front end of " + owner, b);
    for (const char* lvl : {"l1i", "l1d", "l2"}) {
      const Node* g = c.find(lvl);
      if (!g) continue;
      auto cache = readStruct<models::CacheParams>(
          *g, p + "." + lvl, "the " + std::string(lvl) + " cache of " + owner, b);
      if (std::string(lvl) == "l1i")
        cc.l1i = cache;
      else if (std::string(lvl) == "l1d")
        cc.l1d = cache;
      else
        cc.l2 = cache;
    }
    if (const Node* mp = c.find("memory_port"))
      cc.memory_port = readStruct<models::InterconnectParams>(
          *mp, p + ".memory_port", "the memory port of " + owner, b);
    b.clusters.push_back(std::move(cc));
  }
  if (const Node* l3 = root.find("l3"))
    b.l3 = readStruct<models::CacheParams>(*l3, "l3", "the L3 cache of " + boardName, b);
  b.sram = readList<SramParams>(root.find("sram"), "sram", "sram", b);
  const Node* ic = group(root, "interconnect", "", true, boardName,
                         "{preset: ../components/interconnect/<soc>.yaml}");
  b.interconnect = readStruct<models::InterconnectParams>(*ic, "interconnect",
                                                          "the interconnect of " + boardName, b);
  const Node* dc = root.find("ddr_controller");
  const Node* dr = root.find("dram");
  if (dc && !dr)
    throw InputError(
        dc->file, dc->line, "dram",
        "missing required group 'dram' for " + boardName +
            " (a ddr_controller needs a dram: {preset: ../components/dram/<bin>.yaml})");
  if (dr && !dc)
    throw InputError(
        dr->file, dr->line, "ddr_controller",
        "missing required group 'ddr_controller' for " + boardName +
            " (a dram needs a ddr_controller: {preset: ../components/ddr_controllers/<ip>.yaml})");
  if (dc) {
    b.ddrController = readStruct<models::DdrControllerParams>(
        *dc, "ddr_controller", "the DDR controller of " + boardName, b);
    b.dram = readStruct<models::DramParams>(*dr, "dram", "the DRAM of " + boardName, b);
    deriveControllerClock(b, *dc);
  }
  if (const Node* pl = root.find("peripherals")) {
    if (!pl->isSeq())
      throw InputError(pl->file, pl->line, "peripherals",
                       std::string("wrong type: expected a list of peripheral groups, got a ") +
                           pl->typeName());
    for (size_t i = 0; i < pl->seq.size(); ++i) {
      const Node& pn = pl->seq[i];
      std::string p = "peripherals[" + std::to_string(i) + "]";
      auto per = readStruct<PeripheralParams>(pn, p, "peripheral " + p, b, {"cpsw", "nic"});
      if (const Node* cg = pn.isMap() ? pn.find("cpsw") : nullptr)
        per.cpsw = readStruct<models::CpswParams>(
            *cg, p + ".cpsw", "the Ethernet MAC/switch model of peripheral " + p, b);
      if (const Node* ng = pn.isMap() ? pn.find("nic") : nullptr)
        per.nic = readStruct<models::PcieNicParams>(
            *ng, p + ".nic", "the PCIe Ethernet NIC model of peripheral " + p, b);
      b.peripherals.push_back(std::move(per));
    }
  }
  return b;
}

/// Where `key` of the map at `parent` was written (for an error), or the map itself.
std::pair<std::string, int> whereOf(const Node* parent, const std::string& key,
                                    const std::string& fallbackFile) {
  if (parent) {
    if (const Node* n = parent->isMap() ? parent->find(key) : nullptr) return {n->file, n->line};
    return {parent->file, parent->line};
  }
  return {fallbackFile, 0};
}

/// Rules across fields that no single field's range can express: names that `--set
/// clusters[NAME]` and the measured data use must be non-empty and unique, and a cache's size
/// must be a whole number of sets (size = sets x ways x line) with a power-of-two line, which
/// the cache model needs (it would otherwise fail on every benchmark, or silently drop the
/// remainder of the size).
void checkBoard(const Node& root, const BoardConfig& b) {
  const Node* bn = root.find("board");
  if (b.board.name.empty()) {
    auto [f, l] = whereOf(bn, "name", b.file);
    throw InputError(f, l, "board.name", "empty board name: expected the board id (am335x-evm)");
  }
  const Node* cl = root.find("clusters");
  auto clusterNode = [&](size_t i) -> const Node* {
    return cl && cl->isSeq() && i < cl->seq.size() ? &cl->seq[i] : nullptr;
  };
  for (size_t i = 0; i < b.clusters.size(); ++i) {
    std::string p = "clusters[" + std::to_string(i) + "]";
    const auto& name = b.clusters[i].info.name;
    if (name.empty()) {
      auto [f, l] = whereOf(clusterNode(i), "name", b.file);
      throw InputError(f, l, p + ".name", "empty cluster name: expected a name such as 'mpu'");
    }
    for (size_t j = 0; j < i; ++j)
      if (b.clusters[j].info.name == name) {
        auto [f, l] = whereOf(clusterNode(i), "name", b.file);
        throw InputError(f, l, p + ".name",
                         "duplicate cluster name '" + name + "' (also clusters[" +
                             std::to_string(j) + "]): cluster names must be unique");
      }
  }
  const Node* sr = root.find("sram");
  for (size_t i = 0; i < b.sram.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (!b.sram[i].name.empty() && b.sram[j].name == b.sram[i].name) {
        const Node* n = sr && sr->isSeq() && i < sr->seq.size() ? &sr->seq[i] : nullptr;
        auto [f, l] = whereOf(n, "name", b.file);
        throw InputError(
            f, l, "sram[" + std::to_string(i) + "].name",
            "duplicate sram name '" + b.sram[i].name + "' (also sram[" + std::to_string(j) + "])");
      }
  auto checkCache = [&](const models::CacheParams& c, const Node* g, const std::string& path) {
    std::uint64_t line = static_cast<std::uint64_t>(c.line_bytes);
    if (line == 0 || (line & (line - 1)) != 0) {
      auto [f, l] = whereOf(g, "line_bytes", b.file);
      throw InputError(f, l, path + ".line_bytes",
                       "line size " + std::to_string(line) +
                           " bytes is not a power of two (16, 32, 64, 128 or 256)");
    }
    // The schema takes up to 4 GiB, but the tag store costs host memory in proportion (~1 GB
    // for a 4 GiB cache, per instance): at most 256 MiB (the largest modelled cache, the MSMC
    // L3, is a few MiB).
    constexpr std::uint64_t kMaxCacheBytes = 256ull << 20;
    if (c.size_bytes > kMaxCacheBytes) {
      auto [f, l] = whereOf(g, "size", b.file);
      throw InputError(f, l, path + ".size",
                       "cache size " + std::to_string(c.size_bytes) +
                           " bytes is over the 256 MiB a simulated cache may have");
    }
    std::uint64_t set = line * static_cast<std::uint64_t>(c.associativity);
    if (set == 0 || c.size_bytes < set || c.size_bytes % set != 0) {
      auto [f, l] = whereOf(g, "size", b.file);
      throw InputError(
          f, l, path + ".size",
          "cache size " + std::to_string(c.size_bytes) + " bytes is not a whole number of sets: " +
              "expected a multiple of line_bytes x associativity = " + std::to_string(line) +
              " x " + std::to_string(c.associativity) + " = " + std::to_string(set) + " bytes");
    }
  };
  for (size_t i = 0; i < b.clusters.size(); ++i) {
    std::string p = "clusters[" + std::to_string(i) + "]";
    const Node* cn = clusterNode(i);
    auto sub = [&](const char* lvl) { return cn && cn->isMap() ? cn->find(lvl) : nullptr; };
    if (b.clusters[i].l1i) checkCache(*b.clusters[i].l1i, sub("l1i"), p + ".l1i");
    if (b.clusters[i].l1d) checkCache(*b.clusters[i].l1d, sub("l1d"), p + ".l1d");
    if (b.clusters[i].l2) checkCache(*b.clusters[i].l2, sub("l2"), p + ".l2");
  }
  if (b.l3) checkCache(*b.l3, root.find("l3"), "l3");
}

const char* kShorthand = "clusters[0]";

BoardConfig loadTree(Node tree, const std::string& file,
                     const std::vector<std::string>& overrides) {
  config::resolvePresets(tree);
  std::string baseDir = fs::path(file).parent_path().string();
  // The same key twice was silent (the last value won): a typo'd what-if that was never run.
  std::map<std::string, std::string> given;
  for (const auto& o : overrides) {
    auto [path, value] = config::splitOverride(o);
    std::string key = path;
    if (key.rfind(std::string(kShorthand) + ".", 0) == 0) key = key.substr(std::string(kShorthand).size() + 1);
    auto [it, fresh] = given.emplace(key, o);
    if (!fresh)
      throw InputError("", 0, "--set",
                       path + ": set twice ('" + it->second + "' and '" + o +
                           "'); expected each key once");
    config::applyOverride(tree, path, value, baseDir, kShorthand);
  }
  BoardConfig b = convert(tree, file);
  checkBoard(tree, b);
  b.tree = std::move(tree);
  b.overrides = overrides;
  return b;
}

}  // namespace

BoardConfig loadBoard(const std::string& file, const std::vector<std::string>& overrides) {
  return loadTree(config::parseYamlFile(file), file, overrides);
}

BoardConfig loadBoardText(const std::string& yaml, const std::string& displayName,
                          const std::vector<std::string>& overrides) {
  return loadTree(config::parseYamlText(yaml, displayName), displayName, overrides);
}

void applyOverride(BoardConfig& board, const std::string& assignment) {
  auto [path, value] = config::splitOverride(assignment);
  Node tree = board.tree;
  config::applyOverride(tree, path, value, fs::path(board.file).parent_path().string(), kShorthand);
  BoardConfig nb = convert(tree, board.file);
  checkBoard(tree, nb);
  nb.tree = std::move(tree);
  nb.overrides = board.overrides;
  nb.overrides.push_back(assignment);
  board = std::move(nb);
}

namespace {

/// Leading number of a data-rate scalar ("3200MT/s" -> 3200); NaN when there is none.
double leadingNumber(const std::string& s) {
  const char* b = s.c_str();
  char* e = nullptr;
  double v = std::strtod(b, &e);
  return e == b ? std::nan("") : v;
}

const Node* scalarAt(const Node& n, const std::string& key) {
  const Node* c = n.isMap() ? n.find(key) : nullptr;
  return c && c->isScalar() ? c : nullptr;
}

}  // namespace

std::vector<std::string> overrideWarnings(const BoardConfig& board) {
  std::vector<std::string> out;
  bool rateSet = false;
  std::string given;
  for (const auto& o : board.overrides) {
    auto [path, value] = config::splitOverride(o);
    if (path == "dram.data_rate") {
      rateSet = true;
      given = value;
    }
  }
  const Node* dram = board.tree.isMap() ? board.tree.find("dram") : nullptr;
  if (!rateSet || !board.dram || !dram) return out;
  const double rate = board.dram->data_rate_mts;
  for (const auto& preset : dram->presets) {
    Node p;
    try {
      p = config::parseYamlFile(preset);
    } catch (const InputError&) {
      continue;
    }
    const Node* pr = scalarAt(p, "data_rate");
    if (!pr) continue;
    const double presetRate = leadingNumber(pr->scalar);
    if (!(std::abs(presetRate - rate) > 1e-9 * rate)) return out;  // same bin: nothing to say
    const Node* standard = scalarAt(p, "standard");
    std::string match;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(preset).parent_path(), ec)) {
      if (e.path().extension() != ".yaml") continue;
      Node q;
      try {
        q = config::parseYamlFile(e.path().string());
      } catch (const InputError&) {
        continue;
      }
      const Node* qs = scalarAt(q, "standard");
      const Node* qr = scalarAt(q, "data_rate");
      if (standard && qs && qr && qs->scalar == standard->scalar &&
          std::abs(leadingNumber(qr->scalar) - rate) <= 1e-9 * rate)
        match = e.path().filename().string();
    }
    std::string presetName = fs::path(preset).filename().string();
    std::string w = "--set dram.data_rate=" + given + " keeps the timings of the DRAM preset " +
                    presetName + " (" + pr->scalar +
                    " speed bin: CL/CWL in cycles, tRCD/tRP/tRAS/... in ns); only the data rate "
                    "and the controller clock derived from it change. ";
    if (!match.empty())
      w += "For the " + formatNumber(rate) + " MT/s bin's own timings add --set "
           "dram.preset=../components/dram/" + match + " before the data_rate --set "
           "(preset paths are relative to the board file).";
    else
      w += "No preset of standard '" + (standard ? standard->scalar : std::string("?")) + "' at " +
           formatNumber(rate) + " MT/s exists in configs/components/dram/.";
    out.push_back(w);
    return out;
  }
  return out;
}

void applyOverride(BoardConfig& board, const std::string& path, const std::string& value) {
  applyOverride(board, path + "=" + value);
}

// ---------------------------------------------------------------- board discovery

std::vector<std::string> listBoardFiles(const std::string& boardsDir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(boardsDir, ec)) return files;
  for (const auto& e : fs::directory_iterator(boardsDir, ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string findBoardFile(const std::string& nameOrPath, const std::string& boardsDir) {
  std::error_code ec;
  if (fs::is_regular_file(nameOrPath, ec)) return nameOrPath;
  fs::path inDir = fs::path(boardsDir) / (nameOrPath + ".yaml");
  if (fs::is_regular_file(inDir, ec)) return inDir.string();
  std::vector<std::string> names;
  for (const auto& f : listBoardFiles(boardsDir)) names.push_back(fs::path(f).stem().string());
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  std::string sug = config::suggestion(nameOrPath, names);
  std::string near =
      sug.find("did you mean") != std::string::npos ? config::nearest(nameOrPath, names) : "";
  bool looksLikePath =
      nameOrPath.find('/') != std::string::npos || fs::path(nameOrPath).extension() == ".yaml";
  throw InputError(
      "--board", 0, nameOrPath,
      (looksLikePath ? "no such board file" : "unknown board '" + nameOrPath + "'") +
          std::string(near.empty() || looksLikePath ? "" : " (did you mean '" + near + "'?)") +
          "; boards in " + boardsDir + ": " + (known.empty() ? "(none)" : known) +
          "; or give the path to a board YAML file");
}

// ---------------------------------------------------------------- structs -> YAML

namespace {

struct Writer {
  const BoardConfig& b;
  const WriteOptions& opt;
  YAML::Emitter& out;
  std::vector<ResolvedField>* rows = nullptr;

  std::string sourceFor(const std::string& path) const {
    auto it = b.sources.find(path);
    return it == b.sources.end() ? "" : it->second.source;
  }
  void presetComment(const std::string& path) {
    if (!opt.presetComments) return;
    auto it = b.presets.find(path);
    if (it != b.presets.end()) out << YAML::Comment("preset: " + it->second);
  }
  template <class T>
  void fields(const T& obj, const std::string& path) {
    const auto& s = T::schema();
    for (size_t i = 0; i < s.fields().size(); ++i) {
      const auto& f = s.fields()[i];
      std::string p = config::joinPath(path, f.key);
      std::string value = s.get(obj, static_cast<int>(i));
      std::string src = sourceFor(p);
      // A field no config file set holds its schema default (e.g. an optional group left out).
      if (src.empty() && !b.sources.count(p)) src = config::kDefaultSourcePrefix + f.source;
      if (rows) rows->push_back({p, value, f.unit, src});
      out << YAML::Key << f.key << YAML::Value << YAML::Flow << YAML::BeginMap;
      out << YAML::Key << "value" << YAML::Value << value;
      if (!f.unit.empty() && f.kind != params::Kind::Text && f.kind != params::Kind::Choice &&
          f.kind != params::Kind::Bool)
        out << YAML::Key << "unit" << YAML::Value << f.unit;
      if (!src.empty()) out << YAML::Key << "source" << YAML::Value << src;
      out << YAML::EndMap;
    }
  }
  template <class T>
  void group(const char* key, const T& obj, const std::string& path) {
    out << YAML::Key << key << YAML::Value;
    presetComment(path);
    out << YAML::BeginMap;
    fields(obj, path);
    out << YAML::EndMap;
  }
  template <class T>
  void list(const char* key, const std::vector<T>& v) {
    if (v.empty()) return;
    out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string p = std::string(key) + "[" + std::to_string(i) + "]";
      presetComment(p);
      out << YAML::BeginMap;
      fields(v[i], p);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  void all() {
    out << YAML::BeginMap;
    group("board", b.board, "board");
    out << YAML::Key << "software" << YAML::Value;
    presetComment("software");
    out << YAML::BeginMap;
    fields(b.software, "software");
    group("kernel_paths", b.software.kernel_paths, "software.kernel_paths");
    out << YAML::EndMap;
    if (!b.softwareReleases.empty()) {
      out << YAML::Key << "software_releases" << YAML::Value << YAML::BeginMap;
      for (const auto& [id, s] : b.softwareReleases) {
        const std::string p = "software_releases." + id;
        out << YAML::Key << id << YAML::Value;
        presetComment(p);
        out << YAML::BeginMap;
        fields(s, p);
        group("kernel_paths", s.kernel_paths, p + ".kernel_paths");
        out << YAML::EndMap;
      }
      out << YAML::EndMap;
    }
    out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq;
    for (size_t i = 0; i < b.clusters.size(); ++i) {
      const auto& c = b.clusters[i];
      std::string p = "clusters[" + std::to_string(i) + "]";
      presetComment(p);
      out << YAML::BeginMap;
      fields(c.info, p);
      out << YAML::Key << "core" << YAML::Value;
      presetComment(p + ".core");
      out << YAML::BeginMap;
      fields(c.core, p + ".core");
      group("timing", c.timing, p + ".core.timing");
      out << YAML::EndMap;
      group("memory", c.memory, p + ".memory");
      if (c.l1i) group("l1i", *c.l1i, p + ".l1i");
      if (c.l1d) group("l1d", *c.l1d, p + ".l1d");
      if (c.l2) group("l2", *c.l2, p + ".l2");
      if (c.memory_port) group("memory_port", *c.memory_port, p + ".memory_port");
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (b.l3) group("l3", *b.l3, "l3");
    list("sram", b.sram);
    group("interconnect", b.interconnect, "interconnect");
    if (b.ddrController) group("ddr_controller", *b.ddrController, "ddr_controller");
    if (b.dram) group("dram", *b.dram, "dram");
    if (!b.peripherals.empty()) {
      out << YAML::Key << "peripherals" << YAML::Value << YAML::BeginSeq;
      for (size_t i = 0; i < b.peripherals.size(); ++i) {
        std::string p = "peripherals[" + std::to_string(i) + "]";
        presetComment(p);
        out << YAML::BeginMap;
        fields(b.peripherals[i], p);
        if (b.peripherals[i].cpsw) group("cpsw", *b.peripherals[i].cpsw, p + ".cpsw");
        if (b.peripherals[i].nic) group("nic", *b.peripherals[i].nic, p + ".nic");
        out << YAML::EndMap;
      }
      out << YAML::EndSeq;
    }
    out << YAML::EndMap;
  }
};

}  // namespace

void writeResolvedConfig(const BoardConfig& board, std::ostream& os, const WriteOptions& opt) {
  YAML::Emitter out;
  out.SetIndent(2);
  Writer w{board, opt, out};
  w.all();
  os << "# socsim resolved configuration: every field with its value, unit and source.\n";
  os << "# Loadable as a board file (`socsim config --board FILE`).\n";
  if (opt.presetComments && !board.overrides.empty()) {
    for (const auto& o : board.overrides) os << "# --set " << o << "\n";
  }
  os << out.c_str() << "\n";
}

std::vector<ResolvedField> resolvedFields(const BoardConfig& board) {
  YAML::Emitter out;
  WriteOptions opt;
  opt.presetComments = false;
  std::vector<ResolvedField> rows;
  Writer w{board, opt, out, &rows};
  w.all();
  return rows;
}

}  // namespace socsim::soc
