#include "calibration/fit/calibrate.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlopt.hpp>
#include <optional>
#include <ostream>
#include <set>

#include <signal.h>
#include <unistd.h>

#include "calibration/fit/param_overrides.h"
#include "calibration/fit/param_registry.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "common/stop_signal.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
#include "soc/config/parse_cache.h"
#include "validation/board_runner.h"
#include "validation/metrics.h"
#include "validation/validate.h"
#include "workloads/os/code_run_store.h"

namespace fs = std::filesystem;

namespace socsim::calib {

const std::vector<FitGroup>& fitGroups() {
  static const std::vector<std::string> kMemoryScopes = {
      "components/ddr_controllers/", "components/dram/", "components/caches/",
      "components/core_memory/", "components/interconnect/"};
  static const std::vector<FitGroup> groups = [] {
    std::vector<FitGroup> g;
    g.push_back({"memory", "memory", {"lmbench-mem", "stream"}, kMemoryScopes});
    // lmbench-ops first: lat_ops measures the core types' operation latencies themselves, which
    // every other CPU benchmark reads; the benchmark groups after it fit their profiles on top.
    for (const char* f : {"lmbench-ops", "dhrystone", "whetstone", "linpack", "nbench",
                          "coremark-pro", "multibench", "mathlib"}) {
      std::string fam = f;
      g.push_back({fam, "cores", {fam},
                   {"components/cores/", "workloads/" + fam + "/", "workloads/" + fam,
                    "workloads/base/"}});
    }
    // The cyclictest rows (8) share the kernel paths with LMBench's and would have no budget
    // of their own (1 parameter per 10 rows): one kernel-path group fits both.
    g.push_back({"lmbench-os", "kernel", {"lmbench-os", "rt-latency"},
                 {"components/software/", "workloads/os/"}});
    // Boot rows read the Linux boot and SBL stage parameters; the storage base profiles
    // (kernel_path, data_loop) are shared with the I/O groups and fitted there.
    g.push_back({"boot", "kernel", {"boot"},
                 {"workloads/storage/linux_boot", "workloads/storage/sbl"}});
    // The storage base profiles (workloads/storage/base/: the kernel-path and data-loop code
    // shapes every storage row runs on the core model) are not in any one storage family's
    // scope: a family group that fits them sets the CPI of every other family's rows, which
    // that family's fit and --check never see.
    const std::vector<std::string> kStorageScopes = {"components/peripherals/",
                                                     "workloads/storage/linux_io",
                                                     "workloads/storage/uboot", "boards/"};
    for (const char* f : {"flash", "nand", "emmc", "mmc-sd", "ufs", "sata", "usb"})
      g.push_back({f, "io", {f}, kStorageScopes});
    // Ethernet before the groups whose rows run its network stack (workloads/net/, which only
    // Ethernet may fit): the PCIe NIC rows and IPSec's tunnels. After them, their fits and
    // reports saw the stack at its defaults while validate applied Ethernet's values (session 8:
    // pcie's report said 10.4 %, validate 12.9 %).
    g.push_back({"ethernet", "io", {"ethernet"},
                 {"components/peripherals/", "components/software/", "workloads/net/"}});
    g.push_back({"pcie", "io", {"pcie"}, kStorageScopes});
    for (const char* f : {"crypto", "sa2ul", "ipsec"})
      g.push_back({f, "io", {f}, {"components/crypto_engines/", "workloads/crypto/"}});
    // MCU+ drivers and Linux media paths (issue 11).
    for (const char* f : {"ipc", "mcan", "mcspi", "xip"})
      g.push_back({f, "io", {f}, {"components/peripherals/", "components/software/", "workloads/mcu/"}});
    for (const char* f : {"audio", "display", "sensor-capture"})
      g.push_back({f, "io", {f}, {"components/peripherals/", "components/software/", "workloads/media/"}});
    return g;
  }();
  return groups;
}

const FitGroup* groupOfFamily(const std::string& family) {
  for (const auto& g : fitGroups())
    if (std::find(g.families.begin(), g.families.end(), family) != g.families.end()) return &g;
  return nullptr;
}

ParamSet paramsSeenBy(const ParamSet& committed, const std::string& group) {
  ParamSet out = committed;
  const auto& groups = fitGroups();
  auto own = std::find_if(groups.begin(), groups.end(),
                          [&group](const FitGroup& g) { return g.name == group; });
  if (own == groups.end()) return out;
  // A params file is "<group>.yaml": drop those of the groups fitted after this one.
  for (auto it = std::next(own); it != groups.end(); ++it) out.eraseOrigin(it->name + ".yaml");
  return out;
}

ParamSet readCommittedParams(const std::string& dir, const ParamRegistry& reg) {
  std::vector<std::string> names;
  for (const auto& g : fitGroups()) names.push_back(g.name);
  return readParamDir(dir, reg, &names);
}

int installCommittedParams(const std::string& sourceDir,
                           std::function<void(const std::string&)> warn) {
  auto reg = ParamRegistry::scan(sourceDir + "/configs");
  auto set = readCommittedParams(sourceDir + "/calibration/params", reg);
  if (set.empty()) {
    uninstallParamSet();
    return 0;
  }
  installParamSet(set, reg, std::move(warn));
  return static_cast<int>(set.size());
}

namespace {

/// Kernel-code runs shared by the forked workers of every evaluation of this process
/// (workloads/os/code_run_store.h): a fresh temporary folder, removed on exit.
class SharedCodeRuns {
 public:
  SharedCodeRuns() {
    std::error_code ec;
    removeDeadProcessesFolders(fs::temp_directory_path(ec));
    dir_ = (fs::temp_directory_path(ec) /
            ("socsim-code-runs-" + std::to_string(::getpid()) + "-" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count())))
               .string();
    wl::os::setCodeRunStoreDir(dir_);
  }
  ~SharedCodeRuns() {
    wl::os::setCodeRunStoreDir("");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  SharedCodeRuns(const SharedCodeRuns&) = delete;
  SharedCodeRuns& operator=(const SharedCodeRuns&) = delete;

 private:
  /// The folders of runs killed before their destructor ran (Ctrl-C, SIGTERM, a crash):
  /// "socsim-code-runs-<pid>-<n>" whose process no longer exists (tens of MB each; they piled up
  /// in /tmp). A folder whose pid is alive (its run, or a reused pid) is left alone.
  static void removeDeadProcessesFolders(const fs::path& tmp) {
    const std::string prefix = "socsim-code-runs-";
    std::error_code ec;
    for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.compare(0, prefix.size(), prefix) != 0) continue;
      const std::string rest = name.substr(prefix.size());
      const size_t dash = rest.find('-');
      if (dash == 0 || dash == std::string::npos ||
          rest.find_first_not_of("0123456789") != dash || dash > 9)
        continue;
      const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
      if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
      std::error_code rm;
      fs::remove_all(it->path(), rm);
    }
  }

  std::string dir_;
};

/// The set-up every run over the fit groups shares (calibrate, --check, params --scan,
/// validate --cv): kernel-code runs shared by the workers of all its evaluations, the parameter
/// registry, the committed values, and the config parse hook as it was, restored on the way out
/// (also when the run throws: the evaluations install their trial values through it).
class FitSession {
 public:
  explicit FitSession(const std::string& sourceDir)
      : saved_(config::currentParsedFileHook()),
        reg(ParamRegistry::scan(sourceDir + "/configs")),
        committed(readCommittedParams(sourceDir + "/calibration/params", reg)) {}
  ~FitSession() { config::setParsedFileHook(saved_); }
  FitSession(const FitSession&) = delete;
  FitSession& operator=(const FitSession&) = delete;

 private:
  SharedCodeRuns shared_;
  config::ParsedFileHook saved_;

 public:
  const ParamRegistry reg;
  const ParamSet committed;  ///< calibration/params/*.yaml
};

constexpr double kCauchyScale = 0.25;
constexpr double kMissingResidual = 2.0;  ///< a row the trial no longer predicts
constexpr double kRegularization = 0.002;

double rho(double e) {
  double c = kCauchyScale;
  return c * c * std::log1p((e / c) * (e / c));
}

bool isPp(const MeasuredRow& r) {
  return validation::errorKindFor(r.unit) == validation::ErrorKind::PercentagePoints;
}

double residual(const MeasuredRow& r, std::optional<double> pred) {
  if (!pred) return kMissingResidual;
  if (isPp(r)) return (*pred - r.value) / 100.0;
  if (*pred <= 0 || r.value <= 0) return kMissingResidual;
  return std::log(*pred / r.value);
}

double lossOf(const std::vector<MeasuredRow>& rows, const std::vector<std::optional<double>>& pred) {
  if (rows.empty()) return 0;
  double s = 0;
  for (size_t i = 0; i < rows.size(); ++i) s += rho(residual(rows[i], pred[i]));
  return s / static_cast<double>(rows.size());
}

/// Bound-normalized coordinate of a value (log scale for positive bounds).
double toUnit(const FreeParam& p, double v) {
  if (p.hi <= p.lo) return 0;
  if (p.lo > 0) return std::log(v / p.lo) / std::log(p.hi / p.lo);
  return (v - p.lo) / (p.hi - p.lo);
}
double fromUnit(const FreeParam& p, double u) {
  u = std::clamp(u, 0.0, 1.0);
  double v = p.lo > 0 ? p.lo * std::exp(u * std::log(p.hi / p.lo)) : p.lo + u * (p.hi - p.lo);
  if (p.integer) v = std::round(v);
  return std::clamp(v, p.lo, p.hi);
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

/// "<scope>:<line>": a scalar's place as the registry knows it (FreeParam scope and line).
std::string readKey(const std::string& scope, int line) { return scope + ":" + std::to_string(line); }

/// Runs a board's queries with the parse hook wrapped so that every config file the worker
/// parses (board, presets, workload profiles) is recorded as a registry scope into
/// `<dir>/<index>.scopes`: the parameters a board's predictions can depend on; and every scalar
/// a model consumed (config::ReadRecorder) as "<scope>:<line>" into `<dir>/<index>.reads`: the
/// parameters its predictions do depend on (a parsed file may hold keys no model reads).
validation::BoardRunner scopeRecordingRunner(validation::BoardRunner inner, std::string dir,
                                             std::map<std::string, int> index,
                                             std::string configsDir) {
  return [inner, dir, index, configsDir](const std::string& board,
                                         const std::vector<wl::Query>& qs) {
    auto seen = std::make_shared<std::set<std::string>>();
    auto saved = config::currentParsedFileHook();
    config::setParsedFileHook([seen, saved](const std::string& path, config::Node& root) {
      seen->insert(path);
      if (saved) saved(path, root);
    });
    std::vector<validation::QueryResult> res;
    config::ReadRecorder recorder;
    try {
      res = inner(board, qs);
    } catch (...) {
      config::setParsedFileHook(saved);
      throw;
    }
    config::setParsedFileHook(saved);
    auto it = index.find(board);
    if (it != index.end()) {
      std::ofstream os(dir + "/" + std::to_string(it->second) + ".scopes", std::ios::binary);
      for (const auto& path : *seen) os << scopeOfFile(path, configsDir) << "\n";
      std::ofstream rs(dir + "/" + std::to_string(it->second) + ".reads", std::ios::binary);
      std::map<std::string, std::string> scopeOf;  // file as given -> scope (one lookup each)
      for (const auto& [file, line] : recorder.reads()) {
        auto s = scopeOf.find(file);
        if (s == scopeOf.end()) s = scopeOf.emplace(file, scopeOfFile(file, configsDir)).first;
        if (!s->second.empty()) rs << readKey(s->second, line) << "\n";
      }
    }
    return res;
  };
}

/// One evaluation context: the rows, the fixed base values, and a memo of predictions per
/// board keyed by the values of the parameters that board reads (recorded in its worker the
/// first time it runs). An evaluation re-runs only the boards whose key is new: screening a
/// parameter of one IP re-runs the boards that use the IP, a leave-one-out refit re-runs the
/// boards that read the refitted parameters.
class Evaluator {
 public:
  Evaluator(std::vector<MeasuredRow> rows, const ParamRegistry& reg, ParamSet base,
            const CalibrateOptions& opt)
      : all_(std::move(rows)), reg_(reg), base_(std::move(base)) {
    vo_.jobs = opt.jobs;
    vo_.isolate = true;
    configsDir_ = opt.sourceDir + "/configs";
    // The workers forked for each evaluation inherit the parsed config files (parse_cache.h).
    config::preparseYamlTree(configsDir_);
    inner_ = validation::makeBoardRunner(configsDir_ + "/boards", {});
    for (size_t i = 0; i < all_.size(); ++i) {
      active_.push_back(i);
      if (!boardIndex_.count(all_[i].board)) boardIndex_[all_[i].board] = static_cast<int>(boardIndex_.size());
    }
    rebuild();
    std::string tmpl = (fs::temp_directory_path() / "socsim-calibrate-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("calibrate: cannot create a temporary folder");
    scopeDir_ = buf.data();
  }
  ~Evaluator() {
    std::error_code ec;
    fs::remove_all(scopeDir_, ec);
  }
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  const std::vector<MeasuredRow>& rows() const { return rows_; }
  const ParamSet& base() const { return base_; }
  /// Replace the fixed values (the memo stays valid: its keys hold the values themselves).
  void setBase(ParamSet base) { base_ = std::move(base); }

  /// Predictions of the active rows with `params[i]` at `values[i]` over the base; rows of
  /// boards for which `want` is false are left empty and not run.
  /// One progress line per finished board on stderr (`calibrate --check`: a check stopped by
  /// a timeout shows how far it got).
  void setProgress(bool on) { vo_.progress = on; }
  /// The rows of the last predict() that ran whose model failed (a crash, an exception):
  /// "board benchmark: status", empty when none did.
  const std::vector<std::string>& lastFailed() const { return lastFailed_; }

  std::vector<std::optional<double>> predict(
      const std::vector<const FreeParam*>& params, const std::vector<double>& values,
      const std::function<bool(const std::string&)>& want = {}) {
    ParamSet set = base_;
    for (size_t i = 0; i < params.size(); ++i) set.set(*params[i], values[i], "calibrate (trial)");
    std::vector<std::optional<double>> out(rows_.size());
    std::vector<MeasuredRow> toRun;
    std::vector<size_t> toRunPos;
    for (const auto& [b, pos] : byBoard_) {
      if (want && !want(b)) continue;
      if (scopes_.count(b)) {
        auto it = memo_.find(boardKey(b, set));
        if (it != memo_.end()) {
          bool all = true;
          for (size_t k : pos) {
            auto r = it->second.find(active_[k]);
            if (r == it->second.end()) {
              all = false;
              break;
            }
            out[k] = r->second;
          }
          if (all) continue;
        }
      }
      for (size_t k : pos) {
        toRun.push_back(rows_[k]);
        toRunPos.push_back(k);
      }
    }
    if (toRun.empty()) return out;
    ++evaluations_;
    std::set<std::string> ran;
    for (const auto& r : toRun) ran.insert(r.board);
    boardRuns_ += static_cast<int>(ran.size());
    installParamSet(set, reg_);
    auto res = validation::validate(
        toRun, scopeRecordingRunner(inner_, scopeDir_, boardIndex_, configsDir_), vo_);
    std::set<std::string> failedBoards;
    lastFailed_.clear();
    for (const auto& r : res)
      if (r.status.rfind("failed", 0) == 0) {
        failedBoards.insert(r.measured.board);
        lastFailed_.push_back(r.measured.board + " " + r.measured.benchmark + ": " + r.status);
      }
    for (const auto& b : ran) {
      // A board whose run failed records nothing and is re-run every time. Every run adds what
      // it parsed and read: a model may read a key only for some values of another (the memo
      // key then grows, and entries stored under the shorter key are no longer found).
      if (failedBoards.count(b)) continue;
      std::set<std::string> sc, rd;
      std::error_code ec;
      for (auto [ext, into] : {std::pair<const char*, std::set<std::string>*>{".scopes", &sc},
                               {".reads", &rd}}) {
        std::string file = scopeDir_ + "/" + std::to_string(boardIndex_.at(b)) + ext;
        {
          std::ifstream in(file);
          for (std::string line; std::getline(in, line);)
            if (!line.empty()) into->insert(line);
        }
        fs::remove(file, ec);
      }
      if (!sc.empty()) {
        scopes_[b].insert(sc.begin(), sc.end());
        reads_[b].insert(rd.begin(), rd.end());
      }
    }
    for (size_t i = 0; i < res.size(); ++i) {
      std::optional<double> pred;
      if (res[i].predicted && res[i].status.rfind("failed", 0) != 0 &&
          res[i].status != "not-modelled")
        pred = res[i].predicted;
      out[toRunPos[i]] = pred;
      // The scoring policy's verdict (validation::scoringExclusion, applied by validate): a
      // config echo or a zero measured value does not depend on the trial values.
      if (res[i].status.rfind("excluded:", 0) == 0)
        excluded_[active_[toRunPos[i]]] = res[i].status.substr(9);
      const std::string& b = toRun[i].board;
      if (scopes_.count(b)) memo_[boardKey(b, set)][active_[toRunPos[i]]] = pred;
    }
    return out;
  }

  /// True when a model consumed `p`'s scalar while predicting `board`'s rows (after its first
  /// run), not merely parsed it (a parsed file may hold keys no model looks at).
  bool consumes(const std::string& board, const FreeParam& p) const {
    auto it = reads_.find(board);
    return it != reads_.end() && it->second.count(readKey(p.scope, p.line));
  }
  /// The scopes `board` reads (empty before its first run or when it failed).
  const std::set<std::string>& scopesOf(const std::string& board) const {
    static const std::set<std::string> none;
    auto it = scopes_.find(board);
    return it == scopes_.end() ? none : it->second;
  }
  int evaluations() const { return evaluations_; }
  int boardRuns() const { return boardRuns_; }

  /// Why the scoring policy leaves the row at position `k` of rows() out of the loss and the
  /// report (validation::scoringExclusion: `config-echo`, `zero-measured`, a flag), or empty
  /// when it counts or has not run yet. The fit and `--check` drop such rows as `validate` does.
  std::string exclusionOf(size_t k) const {
    auto it = excluded_.find(active_[k]);
    return it == excluded_.end() ? std::string() : it->second;
  }

  /// Keep only the active rows at positions `keep` (of rows()).
  void restrictTo(const std::vector<size_t>& keep) {
    std::vector<size_t> a;
    for (size_t k : keep) a.push_back(active_[k]);
    active_ = std::move(a);
    rebuild();
  }

 private:
  void rebuild() {
    rows_.clear();
    byBoard_.clear();
    for (size_t k = 0; k < active_.size(); ++k) {
      rows_.push_back(all_[active_[k]]);
      byBoard_[all_[active_[k]].board].push_back(k);
    }
  }
  /// The memo key of `b`'s rows: the values of the parameters its models consumed (recorded
  /// reads, config::ReadRecorder), not of every key of the files it parsed: a board that
  /// parses every storage device preset re-runs only for the device its peripheral names.
  std::string boardKey(const std::string& b, const ParamSet& set) const {
    std::string key = b;
    const auto& sc = scopes_.at(b);
    auto rd = reads_.find(b);
    for (const auto& [scope, keys] : set.byScope()) {
      if (!sc.count(scope)) continue;
      for (const auto& [k, v] : keys) {
        const FreeParam* p = reg_.find(scope, k);
        // A value the registry does not know cannot be matched to a read: kept in the key.
        if (p && (rd == reads_.end() || !rd->second.count(readKey(scope, p->line)))) continue;
        key += "|" + scope + "." + k + "=" + formatNumber(v.value);
      }
    }
    return key;
  }

  std::vector<MeasuredRow> all_, rows_;
  std::vector<size_t> active_;
  std::map<std::string, std::vector<size_t>> byBoard_;  ///< board -> positions in rows_
  std::map<std::string, int> boardIndex_;
  const ParamRegistry& reg_;
  ParamSet base_;
  std::string configsDir_, scopeDir_;
  validation::BoardRunner inner_;
  validation::ValidateOptions vo_;
  std::map<std::string, std::set<std::string>> scopes_;
  std::map<std::string, std::set<std::string>> reads_;  ///< board -> "<scope>:<line>" consumed
  std::map<std::string, std::map<size_t, std::optional<double>>> memo_;
  std::map<size_t, std::string> excluded_;  ///< all_ index -> scoring policy's reason
  int evaluations_ = 0, boardRuns_ = 0;
  std::vector<std::string> lastFailed_;
};

/// Name fragments of the IPs, devices and software paths an I/O family's rows go through
/// (presets and keys whose scope or key holds one are screened before the rest of the board).
const std::vector<std::string>& ipTokens(const std::string& family) {
  static const std::map<std::string, std::vector<std::string>> tokens = {
      {"mmc-sd", {"sd_card", "sandisk", "sdhci", "linux_io", "data_loop", "kernel_path"}},
      {"emmc", {"emmc", "mmc", "sdhci", "linux_io", "data_loop", "kernel_path"}},
      {"sata", {"sata", "ahci", "kingston", "seagate", "linux_io", "data_loop", "kernel_path"}},
      {"nand", {"nand", "gpmc", "mt29f", "elm", "ubi", "uboot"}},
      {"ufs", {"ufs", "linux_io", "data_loop", "kernel_path"}},
      {"flash", {"ospi", "qspi", "spi_nor", "nor", "mt35xu", "s28hs", "s25fl", "n25q", "ubi", "uboot"}},
      {"usb", {"usb", "dwc3", "musb", "gadget", "my_book", "linux_io", "data_loop", "kernel_path"}},
      {"pcie", {"pcie", "nvme", "plextor", "linux_io", "data_loop", "kernel_path"}},
      {"ethernet", {"cpsw", "emac", "gmac", "icss", "net", "nic", "lwip"}},
      {"ipc", {"ipc", "mailbox", "rpmsg", "mcu"}},
      {"xip", {"xip", "ospi", "fir"}},
  };
  static const std::vector<std::string> none;
  auto it = tokens.find(family);
  return it == tokens.end() ? none : it->second;
}

bool hasPrefix(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<FamilyFit> familyFits(const std::vector<MeasuredRow>& rows,
                                  const std::vector<std::optional<double>>& before,
                                  const std::vector<std::optional<double>>& after,
                                  const std::vector<std::string>& families) {
  // A family with relative rows (throughput, latency) and CPU-load rows (percentage points)
  // gets one entry per error kind: a median over both kinds would mix fractions with points.
  std::vector<FamilyFit> out;
  for (const auto& f : families)
    for (bool pp : {false, true}) {
    std::vector<double> eb, ea;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].family != f || isPp(rows[i]) != pp) continue;
      auto err = [&](const std::optional<double>& p) {
        if (!p) return 1.0;
        return std::abs(validation::signedError(validation::errorKindFor(rows[i].unit), rows[i].value, *p));
      };
      eb.push_back(err(before[i]));
      ea.push_back(err(after[i]));
    }
    if (eb.empty()) continue;
    FamilyFit ff;
    ff.family = f;
    ff.rows = static_cast<int>(eb.size());
    ff.pp = pp;
    ff.mdapeBefore = validation::median(eb);
    ff.mdapeAfter = validation::median(ea);
    out.push_back(ff);
    }
  return out;
}

/// The later groups in a group's joint loss, comma-separated.
std::string jointGroupsText(const GroupResult& g) {
  std::string out;
  for (const auto& n : g.jointGroups) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string pct(double frac) { return formatSig(100 * frac, 3); }

/// Linear-interpolated quantile q of v (0 for an empty list).
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  size_t i = static_cast<size_t>(std::floor(pos));
  size_t j = std::min(i + 1, v.size() - 1);
  return v[i] + (pos - static_cast<double>(i)) * (v[j] - v[i]);
}

void writeReport(const std::string& dir, const GroupResult& g, const std::vector<MeasuredRow>& rows,
                 const std::vector<std::optional<double>>& before,
                 const std::vector<std::optional<double>>& after) {
  fs::create_directories(dir);
  std::ofstream csvOut(dir + "/" + g.group + ".csv", std::ios::binary);
  csv::writeRecord(csvOut, {"source", "board", "family", "benchmark", "metric", "params", "unit",
                            "measured", "predicted_default", "predicted_fitted"});
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    csv::writeRecord(csvOut, {r.source, r.board, r.family, r.benchmark, r.metric, r.params, r.unit,
                              formatNumber(r.value), formatNumber(before[i]),
                              formatNumber(after[i])});
  }
  auto joinHeld = [](const std::vector<std::string>& v) {
    std::string j;
    for (const auto& h : v) j += (j.empty() ? "" : ", ") + h;
    return j;
  };
  const std::string joinedHeld = joinHeld(g.heldAtDefault);
  std::ofstream md(dir + "/" + g.group + ".md", std::ios::binary);
  md << "# Calibration report: " << g.group << "\n\n"
     << "Written by `socsim calibrate --family " << (g.families.empty() ? g.group : g.families.front().family)
     << "`; per-row predictions in `" << g.group << ".csv`; fitted values in `calibration/params/"
     << g.group << ".yaml`.\n\n"
     << "- rows used: " << g.rowsUsed << " (scored rows the model predicts; flagged rows excluded by "
     << "`socsim validate --policy`; " << g.rowsNotPredicted << " scored rows not predicted; "
     << g.rowsExcluded << " predicted rows not scored by the same policy"
     << (g.excludedReasons.empty() ? "" : ": " + g.excludedReasons) << ")\n"
     << "- candidates: " << g.candidates << " (" << g.unreadCandidates
     << " more in the files these rows parse are read by no model for them: not offered)"
     << ", screened: " << g.screened << ", budget: " << g.budget
     << " (1 per 10 rows), fitted: " << g.fitted.size() << "\n"
     << "- fixed: the params files of the groups before this one in stage order; "
     << g.heldAtDefault.size()
     << " parameters these rows read are fitted by later groups and held at their defaults "
        "here (their refits leave this report valid)"
     << (g.heldAtDefault.empty() ? "" : ": ") << joinedHeld << "\n"
     << "- held for earlier groups of the stage: " << g.heldForEarlier.size()
     << " parameters these rows read are read by an earlier group's rows too and held where "
        "they are (a fit here would move that group's rows after its fit)"
     << (g.heldForEarlier.empty() ? "" : ": ") << joinHeld(g.heldForEarlier) << "\n"
     << "- start: "
     << (g.warmStart ? "warm, " + warmStartText(g) + " (kept without re-screening); loss at the start " +
                           formatSig(g.lossStart, 5)
                     : std::string("cold (`--cold`): the documented defaults"))
     << " (the regularization pulls toward the defaults either way)\n"
     << "- loss (mean Cauchy(0.25) of the log error, data term only): before (defaults) "
     << formatSig(g.lossBefore, 5) << ", after " << formatSig(g.lossAfter, 5) << "\n"
     << (g.jointGroups.empty()
             ? std::string()
             : "- joint loss (the fitted parameters' values are chosen on it): these rows and " +
                   std::to_string(g.jointRows) + " rows of later groups that read them (" +
                   jointGroupsText(g) + ", at their committed values), each row once: defaults " +
                   formatSig(g.jointLossBefore, 5) + ", start " + formatSig(g.jointLossStart, 5) +
                   ", after " + formatSig(g.jointLossAfter, 5) + "\n")
     << "- result: " << g.outcome
     << (outcomeNeedsReason(g.outcome) ? " (" + g.optimizerStop + ")" : std::string())
     << "\n- evaluations: " << g.evaluations << " (" << g.boardRuns << " board runs; optimizer cap "
     << g.maxEvaluations << "), " << formatSig(g.seconds, 3) << " s\n\n"
     << "| family | rows | MdAPE before | MdAPE after |\n| --- | --- | --- | --- |\n";
  for (const auto& f : g.families)
    md << "| " << f.family << (f.pp ? " (CPU load)" : "") << " | " << f.rows << " | "
       << (f.pp ? formatSig(f.mdapeBefore, 3) + " pp" : pct(f.mdapeBefore) + " %") << " | "
       << (f.pp ? formatSig(f.mdapeAfter, 3) + " pp" : pct(f.mdapeAfter) + " %") << " |\n";
  md << "\n| parameter | default | start | fitted | unit | screen sensitivity |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& p : g.fitted)
    md << "| " << p.name << " | " << formatNumber(p.defaultValue) << " | "
       << formatNumber(p.startValue) << " | " << formatNumber(p.value) << " | " << p.unit << " | "
       << (p.kept ? std::string("kept (committed fit)") : formatSig(p.sensitivity, 3)) << " |\n";
  md << "\nLeave-one-board-out (each board's rows predicted by a refit without them of the fitted "
        "parameters they read, from "
     << (g.warmStart ? "the full fit's values (warm start)" : "the defaults (`--cold`)")
     << ", at most " << g.loboEvaluations
     << " evaluations each, the other fitted parameters at their full-fit values; `no-donor`: a "
        "fitted parameter the board reads has no other board; "
     << formatSig(g.loboSeconds, 3) << " s):\n\n"
     << "| family | LOBO rows | LOBO MdAPE | 80 % interval (log error or pp/100) | LOBO rows inside "
        "(other boards' quantiles) |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& f : g.intervals)
    md << "| " << f.family << (f.pp ? " (CPU load)" : "") << " | " << f.rows << " | "
       << (f.pp ? formatSig(f.loboMdape, 3) + " pp" : pct(f.loboMdape) + " %") << " | "
       << formatSig(f.q10, 3) << " .. " << formatSig(f.q90, 3) << " | "
       << (f.coverageRows ? pct(f.coverage) + " % of " + std::to_string(f.coverageRows) : "n/a")
       << " |\n";
  int noDonor = 0;
  for (const auto& c : g.lobo) noDonor += c.status == "no-donor" ? 1 : 0;
  md << "\nBoards without a donor: " << noDonor << " of " << g.lobo.size() << "\n";
  // How much each held-out refit got: a refit with one trial kept its start point (warm: the
  // full fit, so that board's LOBO is its in-sample error; cold: the defaults).
  md << "\nHeld-out refits (optimizer trials include the start point; evaluations: trials that ran "
        "boards):\n\n| board | split | refitted | trials | evaluations | seconds | stop |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& c : g.lobo)
    md << "| " << c.board << " | " << c.status << " | " << c.refitParams << " | " << c.trials
       << " | " << c.evaluations << " | " << formatSig(c.seconds, 3) << " | "
       << (c.stop.empty() ? "-" : c.stop) << " |\n";
  if (!g.note.empty()) md << "\n" << g.note << "\n";
  std::ofstream lo(dir + "/" + g.group + ".lobo.csv", std::ios::binary);
  csv::writeRecord(lo, {"board", "split", "parameter", "value"});
  for (const auto& c : g.lobo) {
    if (c.values.empty()) csv::writeRecord(lo, {c.board, c.status, "", ""});
    for (const auto& [p, v] : c.values)
      csv::writeRecord(lo, {c.board, c.status, p->name(), formatNumber(v)});
  }
  std::ofstream iv(dir + "/" + g.group + ".intervals.csv", std::ios::binary);
  csv::writeRecord(iv, {"family", "error_kind", "lobo_rows", "q10", "q90", "lobo_mdape",
                        "coverage_rows", "coverage"});
  for (const auto& f : g.intervals)
    csv::writeRecord(iv, {f.family, f.pp ? "pp" : "rel", std::to_string(f.rows), formatNumber(f.q10),
                          formatNumber(f.q90), formatNumber(f.loboMdape),
                          std::to_string(f.coverageRows), formatNumber(f.coverage)});
}

/// Minimize `objective` over the unit box from `x0` with NLopt (LN_SBPLX, or LN_BOBYQA in two or
/// more dimensions when asked), within `maxEvals` evaluations and `maxSeconds`; returns the best
/// point NLopt reached (a failure to converge keeps it). Besides NLopt's own tolerances it stops
/// early when the objective stalls: no improvement of the best value by more than 1e-4
/// (relative) in max(10, 2n + 2) evaluations in a row (n: dimensions). The fit's objective is
/// piecewise flat where integer parameters round and the rows' predictions are quantized, so
/// NLopt's step tolerances often never trigger and the run used to end only at --max-evals or
/// the time allotment. `stop`, when given, receives why it stopped: `converged` (NLopt's
/// tolerance), `stalled`, `max-evals`, `time`, `interrupted` (a stop signal is pending or taken,
/// StopSignalGuard: checked after each evaluation, as NLopt checks its time cap) or
/// `failed: <what>`.
std::vector<double> minimizeInUnitBox(nlopt::vfunc objective, void* data, std::vector<double> x0,
                                      int maxEvals, double maxSeconds, const std::string& algorithm,
                                      std::ostream* log, std::string* stop = nullptr) {
  const size_t n = x0.size();
  nlopt::opt o(algorithm == "bobyqa" && n > 1 ? nlopt::LN_BOBYQA : nlopt::LN_SBPLX,
               static_cast<unsigned>(n));
  struct Stall {
    nlopt::vfunc f;
    void* data;
    nlopt::opt* o;
    int window;
    double best = 0;
    int since = -1;  ///< -1: no call yet
    bool stalled = false;
    bool interrupted = false;
  } st{objective, data, &o, std::max(10, 2 * static_cast<int>(n) + 2)};
  auto wrapped = [](const std::vector<double>& x, std::vector<double>& grad, void* d) -> double {
    auto* s = static_cast<Stall*>(d);
    double f = s->f(x, grad, s->data);
    if (StopSignalGuard::stopRequestedOrPending()) {
      s->interrupted = true;
      s->o->force_stop();
    }
    if (s->since < 0 || f < s->best - 1e-4 * std::abs(s->best)) {
      s->best = f;
      s->since = 0;
    } else if (++s->since >= s->window) {
      s->stalled = true;
      s->o->force_stop();
    }
    return f;
  };
  o.set_lower_bounds(std::vector<double>(n, 0.0));
  o.set_upper_bounds(std::vector<double>(n, 1.0));
  o.set_min_objective(wrapped, &st);
  o.set_maxeval(std::max(1, maxEvals));
  o.set_maxtime(std::max(0.01, maxSeconds));
  o.set_xtol_abs(1e-3);
  o.set_ftol_rel(1e-4);
  o.set_initial_step(std::vector<double>(n, 0.15));
  double f = 0;
  std::string why;
  try {
    nlopt::result r = o.optimize(x0, f);
    why = r == nlopt::MAXEVAL_REACHED ? "max-evals"
          : r == nlopt::MAXTIME_REACHED ? "time"
          : r == nlopt::FORCED_STOP     ? (st.interrupted ? "interrupted" : "stalled")
                                        : "converged";
  } catch (const nlopt::roundoff_limited&) {
    why = "converged";
  } catch (const nlopt::forced_stop&) {
    why = st.interrupted ? "interrupted" : "stalled";
  } catch (const std::runtime_error& e) {
    // NLopt reports a failure to converge as an exception; keep the best point it saw.
    if (log) *log << "  optimizer: " << e.what() << "\n";
    why = st.interrupted ? "interrupted"
          : st.stalled   ? "stalled"
                         : std::string("failed: ") + e.what();
  }
  if (stop) *stop = why;
  return x0;
}

/// A refit without the held-out rows, and its predictions of them.
struct HeldOutFit {
  std::vector<std::optional<double>> pred;  ///< by row of ev.rows(); set for held rows only
  std::vector<std::string> status;          ///< held rows: lobo | no-donor
  std::vector<std::pair<const FreeParam*, double>> values;  ///< the held rows' fitted params
  std::vector<const FreeParam*> refit;      ///< the ones refitted (the others: no donor)
  int evaluations = 0;  ///< predictions that ran a board (a trial the memo answers runs none)
  int trials = 0;       ///< objective evaluations the optimizer asked for
  double seconds = 0;   ///< wall time of the refit and the held rows' prediction
  std::string stop;     ///< why the optimizer stopped (minimizeInUnitBox), empty: no refit
};

/// Refit without the rows `held` selects (a board: LOBO, a guide: release CV). Of the fitted
/// parameters `fit` (full-fit values `full`), only those the held rows read can change their
/// predictions: each of them that some other row reads is refitted on the other rows, from its
/// documented default (or, `warmStart`, from its full-fit value: the standard warm start of a
/// cross-validation refit, the held-out rows are out of the loss and the start point is the
/// full-data optimum, so few evaluations suffice), within `maxEvals` evaluations (the others
/// stay at their full-fit values: reduced LOBO); the regularization pulls toward the defaults
/// either way, and the refit keeps its start point unless a trial lowers the data loss; one that only held rows read has no donor and stays at its default,
/// and those held rows are `no-donor`. The objective is the fit's (Cauchy loss plus the pull to
/// the defaults) over the other rows whose boards read a refitted parameter. When `relevant` is
/// given, only the parameters it accepts are refitted (the others keep their full-fit values:
/// `socsim validate --cv` refits only what the rows it predicts read). `predictHeld` false leaves
/// `pred` empty (the held boards are not run; `status` is still set).
HeldOutFit refitWithout(Evaluator& ev, const std::vector<const FreeParam*>& fit,
                        const std::vector<double>& full,
                        const std::function<bool(const MeasuredRow&)>& held, int maxEvals,
                        const CalibrateOptions& opt,
                        const std::function<bool(const FreeParam&)>& relevant = {},
                        double maxSeconds = -1, bool warmStart = false, bool predictHeld = true) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& rows = ev.rows();
  HeldOutFit h;
  h.pred.resize(rows.size());
  h.status.resize(rows.size());
  int evalsBefore = ev.evaluations();
  std::set<std::string> heldBoards, otherBoards;
  for (const auto& r : rows) (held(r) ? heldBoards : otherBoards).insert(r.board);
  std::vector<double> v = full;
  std::vector<size_t> touched;
  std::set<std::string> noDonorBoards;
  for (size_t i = 0; i < fit.size(); ++i) {
    bool readHeld = false, donor = false;
    if (relevant && !relevant(*fit[i])) continue;
    for (const auto& b : heldBoards) readHeld = readHeld || ev.consumes(b, *fit[i]);
    if (!readHeld) continue;
    // Donor rows: rows not held out on a board that reads the parameter (another board, or
    // the same board in another guide).
    for (size_t k = 0; k < rows.size() && !donor; ++k)
      donor = !held(rows[k]) && ev.consumes(rows[k].board, *fit[i]);
    v[i] = donor && warmStart ? full[i] : fit[i]->defaultValue;
    h.values.push_back({fit[i], v[i]});
    if (donor) {
      touched.push_back(i);
      h.refit.push_back(fit[i]);
    } else {
      for (const auto& b : heldBoards)
        if (ev.consumes(b, *fit[i])) noDonorBoards.insert(b);
    }
  }
  // maxEvals 0: no time for a trial (validate --cv's budget is spent): the parameters with a
  // donor stay where they start (their defaults in --cv), without a refit.
  if (!touched.empty() && maxEvals <= 0) h.stop = "time (not refitted)";
  if (!touched.empty() && maxEvals > 0) {
    std::set<std::string> affected;
    for (const auto& b : otherBoards)
      for (size_t i : touched)
        if (ev.consumes(b, *fit[i])) affected.insert(b);
    std::vector<size_t> objRows;
    std::vector<MeasuredRow> objMeasured;
    for (size_t k = 0; k < rows.size(); ++k)
      if (!held(rows[k]) && affected.count(rows[k].board)) {
        objRows.push_back(k);
        objMeasured.push_back(rows[k]);
      }
    auto wantOther = [&affected](const std::string& b) { return affected.count(b) > 0; };
    auto dataLoss = [&](const std::vector<double>& vals) {
      auto pred = ev.predict(fit, vals, wantOther);
      std::vector<std::optional<double>> p;
      for (size_t k : objRows) p.push_back(pred[k]);
      return lossOf(objMeasured, p);
    };
    std::vector<double> x0, xDefault;
    for (size_t i : touched) {
      x0.push_back(toUnit(*fit[i], v[i]));
      xDefault.push_back(toUnit(*fit[i], fit[i]->defaultValue));
    }
    struct Ctx {
      const std::function<double(const std::vector<double>&)>* loss;
      std::vector<double>* v;
      const std::vector<size_t>* touched;
      const std::vector<const FreeParam*>* fit;
      const std::vector<double>* xDefault;
      int* trials;
    };
    std::function<double(const std::vector<double>&)> lossFn = dataLoss;
    Ctx ctx{&lossFn, &v, &touched, &fit, &xDefault, &h.trials};
    auto objective = [](const std::vector<double>& x, std::vector<double>&, void* data) -> double {
      auto* c = static_cast<Ctx*>(data);
      ++*c->trials;
      std::vector<double> vals = *c->v;
      double reg = 0;
      for (size_t j = 0; j < x.size(); ++j) {
        size_t i = (*c->touched)[j];
        vals[i] = fromUnit(*(*c->fit)[i], x[j]);
        double d = x[j] - (*c->xDefault)[j];
        reg += d * d;
      }
      return (*c->loss)(vals) + kRegularization * reg;
    };
    double lossStart = dataLoss(v);
    std::vector<double> x =
        minimizeInUnitBox(objective, &ctx, x0, maxEvals,
                          maxSeconds > 0 ? maxSeconds : opt.maxSecondsPerGroup, opt.algorithm,
                          nullptr, &h.stop);
    std::vector<double> vals = v;
    for (size_t j = 0; j < touched.size(); ++j) vals[touched[j]] = fromUnit(*fit[touched[j]], x[j]);
    if (dataLoss(vals) < lossStart) v = vals;
    for (auto& [p, val] : h.values)
      for (size_t i : touched)
        if (fit[i] == p) val = v[i];
  }
  // The held rows' predictions at the refit values (calibrate's LOBO); validate --cv predicts
  // its selected rows itself (validateCv) and skips this run of the group's rows on the held
  // boards (one board run per refit that nothing read).
  std::vector<std::optional<double>> pred(rows.size());
  if (predictHeld)
    pred = ev.predict(fit, v, [&heldBoards](const std::string& b) { return heldBoards.count(b) > 0; });
  for (size_t k = 0; k < rows.size(); ++k)
    if (held(rows[k])) {
      h.pred[k] = pred[k];
      h.status[k] = noDonorBoards.count(rows[k].board) ? "no-donor" : "lobo";
    }
  h.evaluations = ev.evaluations() - evalsBefore;
  h.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return h;
}

/// The measured rows of `group`'s families on a board that the flag policy scores
/// (validation::exclusionReason); the fit drops the rows a model's prediction excludes later.
std::vector<MeasuredRow> flagScoredRows(const FitGroup& group, const std::vector<MeasuredRow>& all) {
  std::vector<MeasuredRow> rows;
  for (const auto& r : all)
    if (std::find(group.families.begin(), group.families.end(), r.family) != group.families.end() &&
        !r.board.empty() && !validation::exclusionReason(r))
      rows.push_back(r);
  return rows;
}

/// Per calibrate run: the parameters each group's scored rows read (one evaluation at the values
/// that group sees), filled by the pre-pass and on demand.
using ReadSets = std::map<std::string, std::set<const FreeParam*>>;

std::set<const FreeParam*> readSetOfEvaluator(const Evaluator& ev, const ParamRegistry& reg) {
  std::set<std::string> boards;
  std::set<const FreeParam*> read;
  for (const auto& r : ev.rows()) boards.insert(r.board);
  for (const auto& p : reg.params())
    for (const auto& b : boards)
      if (ev.consumes(b, p)) {
        read.insert(&p);
        break;
      }
  return read;
}

/// Whether `fg` claims `scope` (one of its folder prefixes).
bool groupClaims(const FitGroup& fg, const std::string& scope) {
  for (const auto& pre : fg.scopePrefixes)
    if (hasPrefix(scope, pre) || scope + "/" == pre || scope == pre) return true;
  return false;
}

/// Whether `p` names one of the IPs or paths of `families` (ipTokens).
bool nearFamilies(const FreeParam& p, const std::vector<std::string>& families) {
  for (const auto& f : families)
    for (const auto& t : ipTokens(f))
      if (p.scope.find(t) != std::string::npos || p.key.find(t) != std::string::npos) return true;
  return false;
}

bool scopesOverlap(const FitGroup& a, const FitGroup& b) {
  for (const auto& pa : a.scopePrefixes)
    for (const auto& pb : b.scopePrefixes)
      if (hasPrefix(pa, pb) || hasPrefix(pb, pa)) return true;
  return false;
}

/// The parameters that the scored rows of an earlier group of `group`'s stage read (groups whose
/// folders overlap), with that group's name: `group` may not fit them. Only those the earlier
/// group could fit itself count (in its folders; for a group with IP tokens, near its IPs): a
/// worker "reads" every preset and profile a board load converts, so the read set alone would
/// also hold the CPSW presets for the storage rows of a board, or every benchmark profile for
/// lat_ops'. A later group of the same stage that moved one would move the earlier group's rows
/// after their fit, where neither that group's report nor its --check (paramsSeenBy) sees it
/// (session 8: an IPSec fit moved the OpenSSL rows through the crypto engines' register access
/// time; mmc-sd's fit moved the eMMC rows through the shared SD host controller).
std::map<std::string, std::string> readByEarlierGroups(const FitGroup& group,
                                                       const std::vector<MeasuredRow>& all,
                                                       const ParamRegistry& reg,
                                                       const ParamSet& committedAll,
                                                       const CalibrateOptions& opt, ReadSets& cache) {
  std::map<std::string, std::string> out;
  for (const auto& other : fitGroups()) {
    if (other.name == group.name) break;
    if (other.stage != group.stage || !scopesOverlap(other, group)) continue;
    auto it = cache.find(other.name);
    if (it == cache.end()) {
      std::set<const FreeParam*> read;
      std::vector<MeasuredRow> rows = flagScoredRows(other, all);
      if (!rows.empty()) {
        if (opt.log) *opt.log << "  reading what " << other.name << "'s rows read (one evaluation)\n";
        Evaluator ev(rows, reg, paramsSeenBy(committedAll, other.name), opt);
        ev.predict({}, {});
        read = readSetOfEvaluator(ev, reg);
      }
      it = cache.emplace(other.name, std::move(read)).first;
    }
    const bool tokens = [&other] {
      for (const auto& f : other.families)
        if (!ipTokens(f).empty()) return true;
      return false;
    }();
    for (const FreeParam* p : it->second)
      if (groupClaims(other, p->scope) && (!tokens || nearFamilies(*p, other.families)))
        out.emplace(p->name(), other.name);
  }
  return out;
}

/// The rows of a later group that read parameters `group` fits: scored in `group`'s loss
/// (jointLaterRows in calibrate.h), predicted over `ev`'s base (that group's committed values
/// and those of the groups before it, `group`'s own file left out: its trial values carry it).
struct JointRows {
  std::string group;
  std::unique_ptr<Evaluator> ev;
};

/// The later groups' rows that read the parameters `fit` of `group` (see
/// CalibrateOptions::jointLaterRows): for each group after `group` in stage order that this run
/// selects, its flag-scored rows predicted once at `group`'s defaults, kept when predicted,
/// scored by validate's policy and on a board whose models consume one of `fit`. Fills `cache`
/// (the read sets) for a group it had to evaluate.
std::vector<JointRows> laterRowsReading(const FitGroup& group, const std::vector<const FreeParam*>& fit,
                                        const std::vector<MeasuredRow>& all, const ParamRegistry& reg,
                                        const ParamSet& committedAll, const CalibrateOptions& opt,
                                        ReadSets& cache) {
  std::vector<JointRows> out;
  if (!opt.jointLaterRows || fit.empty() || group.stage == "memory" || group.stage == "cores")
    return out;
  bool after = false;
  for (const auto& other : fitGroups()) {
    if (!after) {
      after = other.name == group.name;
      continue;
    }
    if (!opt.groups.empty() &&
        std::find(opt.groups.begin(), opt.groups.end(), other.name) == opt.groups.end())
      continue;
    auto known = cache.find(other.name);
    if (known != cache.end() &&
        std::none_of(fit.begin(), fit.end(), [&](const FreeParam* p) { return known->second.count(p) > 0; }))
      continue;
    std::vector<MeasuredRow> rows = flagScoredRows(other, all);
    if (rows.empty()) continue;
    ParamSet base = paramsSeenBy(committedAll, other.name);
    base.eraseOrigin(group.name + ".yaml");
    auto ev = std::make_unique<Evaluator>(rows, reg, base, opt);
    auto start = ev->predict({}, {});
    if (known == cache.end()) cache[other.name] = readSetOfEvaluator(*ev, reg);
    std::vector<size_t> keep;
    for (size_t k = 0; k < start.size(); ++k)
      if (start[k] && ev->exclusionOf(k).empty() &&
          std::any_of(fit.begin(), fit.end(),
                      [&](const FreeParam* p) { return ev->consumes(ev->rows()[k].board, *p); }))
        keep.push_back(k);
    if (keep.empty()) continue;
    ev->restrictTo(keep);
    out.push_back({other.name, std::move(ev)});
  }
  return out;
}

/// The fit's data loss with the later groups' rows: every row counts once (the mean Cauchy loss
/// over the group's rows `ownRows` predicted as `own` and the joint rows at `fit` = `values`).
double jointLossOf(const std::vector<MeasuredRow>& ownRows, const std::vector<std::optional<double>>& own,
                   std::vector<JointRows>& joint, const std::vector<const FreeParam*>& fit,
                   const std::vector<double>& values) {
  double sum = lossOf(ownRows, own) * static_cast<double>(ownRows.size());
  size_t n = ownRows.size();
  for (auto& j : joint) {
    const auto& rows = j.ev->rows();
    sum += lossOf(rows, j.ev->predict(fit, values)) * static_cast<double>(rows.size());
    n += rows.size();
  }
  return n ? sum / static_cast<double>(n) : 0.0;
}

/// The fit candidates of `group` (its rows run in `ev` at least once): free numeric parameters
/// of the stage's folders that a model consumed for these rows, ranked for a capped screen.
/// Sets g.heldAtDefault and g.unreadCandidates. `committedAll`: every committed params file;
/// `base`: the values the group sees (paramsSeenBy, own file erased).
std::vector<const FreeParam*> selectCandidates(const FitGroup& group, const Evaluator& ev,
                                              const std::set<std::string>& boards,
                                              const ParamRegistry& reg, const ParamSet& committedAll,
                                              const ParamSet& base, GroupResult& g,
                                              const std::map<std::string, std::string>& readEarlier) {
  const std::string ownFile = group.name + ".yaml";
  // Candidates: free numeric parameters of the stage's folders that these rows read (the
  // files each board's worker parsed while predicting them: presets and workload profiles).
  std::map<std::string, int> boardsReading;  // scope -> boards whose rows read it
  for (const auto& b : boards)
    for (const auto& sc : ev.scopesOf(b)) ++boardsReading[sc];
  // A folder belongs to the earliest stage whose groups claim it: a later stage holds its
  // parameters where the earlier stage left them (the Ethernet group does not re-fit the
  // kernel paths lmbench-os fits, the storage groups not the boot stages).
  static const std::vector<std::string> kStageOrder = {"memory", "cores", "kernel", "io"};
  auto stageIndex = [](const std::string& st) {
    return std::find(kStageOrder.begin(), kStageOrder.end(), st) - kStageOrder.begin();
  };
  auto claims = groupClaims;
  std::vector<const FreeParam*> cand;
  for (const auto& p : reg.params()) {
    if (!p.numeric || p.hi <= p.lo) continue;
    if (const ParamValue* other = committedAll.find(p.scope, p.key); other && other->origin != ownFile) {
      // Another group's fitted parameter: an earlier one's is in `base`; a later one's stays
      // at its default here (noted when these rows read it).
      if (!base.find(p.scope, p.key))
        for (const auto& b : boards)
          if (ev.consumes(b, p)) {
            g.heldAtDefault.push_back(p.name() + " (" + other->origin + ")");
            break;
          }
      continue;
    }
    if (!claims(group, p.scope)) continue;
    bool earlier = false;
    for (const auto& other : fitGroups())
      earlier = earlier || (stageIndex(other.stage) < stageIndex(group.stage) && claims(other, p.scope));
    if (earlier) continue;
    if (!boardsReading.count(p.scope)) continue;
    // A key of a parsed file that no model consumed for these rows cannot move them: not a
    // candidate (it would take a screening step and tell the optimizer nothing).
    bool consumed = false;
    for (const auto& b : boards) consumed = consumed || ev.consumes(b, p);
    if (!consumed) {
      ++g.unreadCandidates;
      continue;
    }
    if (auto e = readEarlier.find(p.name()); e != readEarlier.end()) {
      g.heldForEarlier.push_back(p.name() + " (" + e->second + ")");
      continue;
    }
    cand.push_back(&p);
  }
  // Screen the families' own workload profiles first, then the IPs and paths the families are
  // about (ipTokens: an I/O family's rows load every storage or network preset of the board,
  // so "read" alone does not say which ones their time goes through), then the shared
  // components, then the shared base profiles (a capped screen keeps the nearest parameters).
  auto near = [&](const FreeParam* p) { return nearFamilies(*p, group.families); };
  // A software stack's own kernel paths (keys under `kernel_paths:` in a stack preset that
  // layers over the shared linux_kernel_paths.yaml: a kernel generation, PREEMPT_RT) are what
  // separates the stacks' boards; they are read by fewer boards than the shared counts, so a
  // capped screen ordered by boards alone never reached them (session 4: SDK 11's factor).
  auto stackLayer = [](const FreeParam* p) {
    return hasPrefix(p->scope, "components/software/") && hasPrefix(p->key, "kernel_paths.");
  };
  // A profile's path length scales all of its time, so the families' own path lengths come
  // before their shape parameters (a family of many profiles would otherwise fill a capped
  // screen with the first profiles' dependency fractions).
  // Likewise an I/O family's software paths: a path length (or a stack's path factor) near the
  // family's IPs scales all of that path's time, before the shape parameters of the profiles
  // those paths run as (the Ethernet rows read the linux-net profile's mix fractions on every
  // board, and by boards alone they filled the capped screen before the stack's paths).
  // The software stack's and the test tool's own files (`stacks/`, `tools/`: per-packet paths,
  // the stack's scheduling, the peer's response) count as paths too: the profiles' mix and
  // dependency fractions only shape the time those paths take.
  auto pathLength = [](const FreeParam* p) {
    auto ends = [&](const std::string& suffix) {
      return p->key.size() >= suffix.size() &&
             p->key.compare(p->key.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return ends("_instructions") || ends("path_factor") ||
           p->scope.find("/stacks/") != std::string::npos ||
           p->scope.find("/tools/") != std::string::npos;
  };
  auto rank = [&](const FreeParam* p) {
    for (const auto& f : group.families)
      if (hasPrefix(p->scope, "workloads/" + f))
        return p->key == "profile.instructions_per_unit" ? 0 : 1;
    if (near(p) && pathLength(p)) return 2;
    if (near(p) || stackLayer(p)) return 3;
    return p->scopeKind == ScopeKind::Workload ? 5 : 4;
  };
  // Within a rank, parameters shared by more boards come first (more rows constrain them).
  std::stable_sort(cand.begin(), cand.end(), [&](const FreeParam* a, const FreeParam* b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return boardsReading[a->scope] > boardsReading[b->scope];
  });
  return cand;
}

}  // namespace

/// The fitted parameters of a committed group: those its params file sets and those its
/// .lobo.csv lists (a fitted parameter left at its default is not in the params file).
std::vector<const FreeParam*> committedFitted(const std::string& sourceDir, const std::string& group,
                                              const ParamRegistry& reg) {
  std::vector<const FreeParam*> out;
  auto add = [&](const FreeParam* p) {
    if (p && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  std::string pf = sourceDir + "/calibration/params/" + group + ".yaml";
  if (fs::exists(pf)) {
    const ParamSet own = readParamFile(pf, reg);
    for (const auto& [scope, keys] : own.byScope())
      for (const auto& [key, v] : keys) add(reg.find(scope, key));
  }
  std::string lf = sourceDir + "/calibration/reports/" + group + ".lobo.csv";
  if (fs::exists(lf)) {
    std::ifstream in(lf, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto rec = csv::parse(text, lf);
    for (size_t i = 1; i < rec.size(); ++i) {
      if (rec[i].size() != 4 || rec[i][2].empty()) continue;
      const FreeParam* p = reg.find(rec[i][2]);
      if (!p) throw InputError(lf, static_cast<int>(i + 1), "parameter", "unknown parameter '" + rec[i][2] + "'");
      add(p);
    }
  }
  return out;
}

namespace {

/// Where a committed file comes from, for the provenance of a warm start: "commit <hash>" of
/// the last commit that touched `rel` below `dir` (plus "with uncommitted changes" when the
/// working file differs), or "not in git" (a copy of the tree, no git on the path).
std::string gitOrigin(const std::string& dir, const std::string& rel) {
  auto run = [](const std::string& cmd) {
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[256];
      while (std::fgets(buf, sizeof buf, p)) out += buf;
      ::pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
  };
  // The paths go into a shell command inside single quotes.
  if (dir.find('\'') != std::string::npos || rel.find('\'') != std::string::npos) return "not in git";
  const std::string git = "git -C '" + dir + "' ";
  std::string hash = run(git + "log -1 --format=%h -- '" + rel + "' 2>/dev/null");
  if (hash.empty()) return "not in git";
  bool dirty = !run(git + "status --porcelain -- '" + rel + "' 2>/dev/null").empty();
  return "commit " + hash + (dirty ? " with uncommitted changes" : "");
}


GroupResult fitGroup(const FitGroup& group, const std::vector<MeasuredRow>& all,
                     const ParamRegistry& reg, const CalibrateOptions& opt, double allotSeconds,
                     ReadSets& readSets, std::unique_ptr<Evaluator> pre = nullptr,
                     double evalSeconds = 0) {
  auto t0 = std::chrono::steady_clock::now();
  // The group's time: screening stops at 30 % of it, the optimizer at 70 %, the LOBO refits
  // share the rest (a refit past the deadline keeps the documented defaults: conservative).
  auto elapsed = [&t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::ostream* log = opt.log;
  GroupResult g;
  g.group = group.name;
  std::string paramsDir = opt.sourceDir + "/calibration/params";
  std::string ownFile = group.name + ".yaml";
  // The earlier groups' values stay fixed, the later groups' parameters at their defaults
  // (paramsSeenBy); this group's own file is refitted, from its committed values (warm start)
  // or from the defaults (--cold): `base` holds neither, the trial values carry them.
  const ParamSet committedAll = readCommittedParams(paramsDir, reg);
  ParamSet base = paramsSeenBy(committedAll, group.name);
  base.eraseOrigin(ownFile);

  std::vector<MeasuredRow> rows = flagScoredRows(group, all);
  std::set<std::string> boards;
  for (const auto& r : rows) boards.insert(r.board);
  if (rows.empty()) {
    g.note = "no scored measured rows";
    return g;
  }
  // The pre-pass's evaluator (same rows) keeps its memo: boards that read none of the values
  // changed since then are not re-run.
  std::unique_ptr<Evaluator> evp = pre ? std::move(pre) : std::make_unique<Evaluator>(rows, reg, base, opt);
  evp->setBase(base);
  Evaluator& ev = *evp;
  const auto tStart = std::chrono::steady_clock::now();
  auto start = ev.predict({}, {});
  // The cost of one evaluation of these rows: the pre-pass's, or this first one's.
  if (!(evalSeconds > 0))
    evalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tStart).count();
  // A model that fails at the start point (a crash, an exception: not "not modelled") would
  // silently leave its rows out of the fit, or fit nothing and write that: stop the run, before
  // this group writes anything (session 7: a stale build crashed every worker and a full
  // calibrate wrote empty params files for every group).
  if (!ev.lastFailed().empty())
    throw std::runtime_error("calibrate " + group.name + ": " +
                             std::to_string(ev.lastFailed().size()) +
                             " rows failed to predict at the start point (first: " +
                             ev.lastFailed().front() +
                             "); fix the model or the build first (socsim validate --family " +
                             group.families.front() + " shows them); nothing written for " +
                             group.name + " or later groups");
  // The rows used: predicted, and scored by validate's policy (the flags were applied above;
  // a prediction that restates a configured fact is not scored: validation::scoringExclusion).
  std::vector<size_t> keep;
  std::map<std::string, int> excludedBy;
  for (size_t i = 0; i < start.size(); ++i) {
    if (!start[i]) {
      ++g.rowsNotPredicted;
    } else if (std::string why = ev.exclusionOf(i); !why.empty()) {
      ++g.rowsExcluded;
      ++excludedBy[why];
    } else {
      keep.push_back(i);
    }
  }
  for (const auto& [why, n] : excludedBy)
    g.excludedReasons += (g.excludedReasons.empty() ? "" : ", ") + std::to_string(n) + " " + why;
  ev.restrictTo(keep);
  rows = ev.rows();
  g.rowsUsed = static_cast<int>(rows.size());
  g.budget = g.rowsUsed / 10;
  std::vector<std::optional<double>> before;
  for (size_t i : keep) before.push_back(start[i]);
  g.lossBefore = lossOf(rows, before);
  if (log)
    *log << "calibrate " << group.name << ": " << g.rowsUsed << " rows used (" << g.rowsNotPredicted
         << " scored rows not predicted, " << g.rowsExcluded << " predicted rows not scored"
         << (g.excludedReasons.empty() ? "" : ": " + g.excludedReasons) << "), loss "
         << formatSig(g.lossBefore, 5) << "\n";

  if (!readSets.count(group.name)) readSets[group.name] = readSetOfEvaluator(ev, reg);
  std::vector<const FreeParam*> cand =
      selectCandidates(group, ev, boards, reg, committedAll, base, g,
                       readByEarlierGroups(group, all, reg, committedAll, opt, readSets));
  g.candidates = static_cast<int>(cand.size());
  if (log && !g.heldAtDefault.empty())
    *log << "  " << g.heldAtDefault.size()
         << " parameters these rows read are fitted by later groups: held at their defaults\n";
  if (log && !g.heldForEarlier.empty())
    *log << "  " << g.heldForEarlier.size()
         << " parameters these rows read are read by an earlier group's rows of this stage: held "
            "where they are\n";
  if (log)
    *log << "  candidates: " << g.candidates << " read by these rows' models (" << g.unreadCandidates
         << " in the files they parse are not read)\n";
  // Warm start: the group's committed fitted parameters that are still candidates stay in the
  // fit without re-screening and start at their committed values (a screen cut by the time
  // budget no longer throws a committed fit away: session 6's lmbench-os refit ended worse than
  // the fit it replaced); the screen fills the rest of the budget, from that start point.
  std::vector<const FreeParam*> kept;
  std::vector<double> keptStart;
  if (opt.warmStart && g.budget > 0) {
    for (const FreeParam* p : committedFitted(opt.sourceDir, group.name, reg)) {
      if (std::find(cand.begin(), cand.end(), p) == cand.end()) continue;  // no longer a candidate
      double v = committedAll.valueOr(*p, ownFile);
      if (!(v >= p->lo && v <= p->hi)) v = p->defaultValue;
      kept.push_back(p);
      keptStart.push_back(v);
    }
    if (static_cast<int>(kept.size()) > g.budget) {
      // Fewer rows than when committed: keep the ones the committed fit moved furthest.
      std::vector<size_t> order(kept.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      auto moved = [&](size_t i) {
        return std::abs(toUnit(*kept[i], keptStart[i]) - toUnit(*kept[i], kept[i]->defaultValue));
      };
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return moved(a) > moved(b); });
      order.resize(static_cast<size_t>(g.budget));
      std::sort(order.begin(), order.end());
      std::vector<const FreeParam*> k2;
      std::vector<double> s2;
      for (size_t i : order) {
        k2.push_back(kept[i]);
        s2.push_back(keptStart[i]);
      }
      kept = std::move(k2);
      keptStart = std::move(s2);
    }
    cand.erase(std::remove_if(cand.begin(), cand.end(),
                              [&kept](const FreeParam* p) {
                                return std::find(kept.begin(), kept.end(), p) != kept.end();
                              }),
               cand.end());
    g.keptFitted = static_cast<int>(kept.size());
  }
  g.warmStart = opt.warmStart;
  if (opt.warmStart) {
    g.startAtDefaults = !fs::exists(paramsDir + "/" + ownFile);
    g.startFrom = g.startAtDefaults ? "calibration/reports/" + group.name + ".lobo.csv"
                                    : "calibration/params/" + ownFile + " at " +
                                          gitOrigin(opt.sourceDir, "calibration/params/" + ownFile);
  }
  // The start point's predictions (the defaults' for a cold start): the screen's residuals and
  // the loss the fit must not end above.
  std::vector<std::optional<double>> startPred = kept.empty() ? before : ev.predict(kept, keptStart);
  g.lossStart = kept.empty() ? g.lossBefore : lossOf(rows, startPred);
  if (log && g.warmStart && g.budget > 0)
    *log << "  warm start: " << warmStartText(g) << " (kept without re-screening); loss at the start "
         << formatSig(g.lossStart, 5) << " (defaults " << formatSig(g.lossBefore, 5) << ")\n";
  const size_t allCandidates = cand.size();
  if (static_cast<int>(cand.size()) > opt.maxScreen) cand.resize(static_cast<size_t>(opt.maxScreen));
  const int freeSlots = g.budget - static_cast<int>(kept.size());
  g.allotSeconds = allotSeconds;
  g.setupSeconds = elapsed();
  auto phase = [](std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
  };
  auto tScreen = std::chrono::steady_clock::now();
  g.screenStop = g.budget == 0 ? "budget 0" : cand.empty() ? "no candidates" : "all";
  if (g.budget > 0 && cand.size() < allCandidates)
    g.screenStop = "first " + std::to_string(cand.size()) + " of " + std::to_string(allCandidates) +
                   " (--max-screen)";
  if (g.budget > 0 && freeSlots <= 0) g.screenStop = "budget held by the committed fit";
  if (g.warmStart && !kept.empty()) g.screenStop += " (+" + std::to_string(kept.size()) + " kept)";

  // Sensitivity screen: one step per candidate, keep the ones that move predictions most.
  std::vector<double> defaults;
  for (auto* p : cand) defaults.push_back(p->defaultValue);
  std::vector<std::pair<double, size_t>> sens;  // (screenGain, candidate)
  std::map<size_t, double> screenRms;            // candidate -> rms change of the step
  // Residuals at the start point, and each step taken from it (the kept parameters at their
  // start values).
  std::vector<double> r0;
  for (size_t i = 0; i < rows.size(); ++i) r0.push_back(residual(rows[i], startPred[i]));
  for (size_t k = 0; k < cand.size() && freeSlots > 0; ++k) {  // no free slot: nothing to screen for
    if (elapsed() > 0.3 * allotSeconds) {
      if (log) *log << "  screen stopped after " << g.screened << " candidates: time allotment\n";
      g.screenStop = "time after " + std::to_string(k) + " of " + std::to_string(cand.size());
      break;
    }
    const FreeParam& p = *cand[k];
    double u0 = toUnit(p, p.defaultValue);
    double u = u0 + 0.25 <= 1 ? u0 + 0.25 : u0 - 0.25;
    double v = fromUnit(p, u);
    if (p.integer && v == p.defaultValue) v = std::clamp(v + (u > u0 ? 1 : -1), p.lo, p.hi);
    if (v == p.defaultValue) continue;
    std::vector<const FreeParam*> stepParams = kept;
    std::vector<double> stepValues = keptStart;
    stepParams.push_back(&p);
    stepValues.push_back(v);
    auto pred = ev.predict(stepParams, stepValues);
    double s = 0;
    std::vector<double> d;
    for (size_t i = 0; i < rows.size(); ++i) {
      d.push_back(residual(rows[i], pred[i]) - r0[i]);
      s += d.back() * d.back();
    }
    s = std::sqrt(s / static_cast<double>(rows.size()));
    // Room on either side of the default, in screening steps (the step is in the unit box).
    double step = toUnit(p, v) - u0;
    double room = step > 0 ? u0 : 1 - u0, ahead = step > 0 ? 1 - u0 : u0;
    double gain = screenGain(r0, d, room / std::abs(step), ahead / std::abs(step));
    ++g.screened;
    if (log)
      *log << "  screen " << p.name() << " " << p.text << " -> " << formatNumber(v)
           << ": rms change " << formatSig(s, 3) << ", gain " << formatSig(gain, 3) << "\n";
    if (s > 1e-9 && gain > 0) sens.push_back({gain, k});
    screenRms[k] = s;
  }
  // The budget goes to the candidates that can explain most of the residual (screenGain), not
  // to the ones that merely move the rows most: a parameter at a bound whose only feasible move
  // worsens every row moves them a lot (session 6: the dhrystone screen kept branches.random
  // at 0 and biased_probability at 1 over the path length, and the fit could not move either).
  std::sort(sens.begin(), sens.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (static_cast<int>(sens.size()) > std::max(0, freeSlots)) sens.resize(static_cast<size_t>(std::max(0, freeSlots)));
  std::vector<const FreeParam*> fit = kept;
  std::vector<double> sensitivity(kept.size(), 0.0);
  std::vector<double> startValues = keptStart;
  for (const auto& [gain, k] : sens) {
    fit.push_back(cand[k]);
    sensitivity.push_back(screenRms[k]);
    startValues.push_back(cand[k]->defaultValue);
  }

  g.screenSeconds = phase(tScreen);
  auto tOptimize = std::chrono::steady_clock::now();
  g.optimizerStop = fit.empty() ? "nothing to fit" : "";
  // The fit ends at the lowest data loss of the defaults, the start point and the optimizer's
  // point: a warm start never ends worse than the committed values on these rows.
  std::vector<double> best;
  for (auto* p : fit) best.push_back(p->defaultValue);
  // The later groups' rows that read the fitted parameters join the loss (jointLaterRows): the
  // choice between the defaults, the start point and the optimizer's point is made on it too.
  std::vector<JointRows> joint = laterRowsReading(group, fit, all, reg, committedAll, opt, readSets);
  for (const auto& j : joint) {
    g.jointGroups.push_back(j.group);
    g.jointRows += static_cast<int>(j.ev->rows().size());
  }
  g.jointLossBefore = joint.empty() ? g.lossBefore : jointLossOf(rows, before, joint, fit, best);
  g.jointLossStart = joint.empty() ? g.lossStart : jointLossOf(rows, startPred, joint, fit, startValues);
  if (log && !joint.empty())
    *log << "  joint loss: " << g.jointRows << " rows of later groups read the fitted parameters ("
         << jointGroupsText(g) << "): loss " << formatSig(g.jointLossBefore, 5)
         << " at the defaults, " << formatSig(g.jointLossStart, 5) << " at the start\n";
  g.jointLossAfter = g.jointLossBefore;
  if (g.jointLossStart < g.jointLossAfter) {
    best = startValues;
    g.jointLossAfter = g.jointLossStart;
  }
  // Under a time budget, a group whose allotment is spent before the optimizer (a short budget
  // on a loaded machine: the pre-pass alone can exceed it) keeps its start point: the optimizer's
  // first new point costs a whole evaluation past the allotment (session 9, --time-budget 300 at
  // load 20: 65 s for memory, ~250 s over the 30 groups).
  const bool noOptimizerTime =
      opt.timeBudgetSeconds > 0 && 0.7 * allotSeconds - elapsed() <= 0 && !fit.empty();
  if (noOptimizerTime) {
    g.optimizerStop = "time (allotment spent before the optimizer)";
    if (log) *log << "  optimizer: not run, the allotment is spent\n";
  }
  if (!fit.empty() && !noOptimizerTime) {
    // The optimizer begins at the start point; the regularization pulls toward the documented
    // defaults (the prior is the physics, the start point only where the search begins).
    std::vector<double> x0, xDefault;
    for (size_t i = 0; i < fit.size(); ++i) {
      x0.push_back(toUnit(*fit[i], startValues[i]));
      xDefault.push_back(toUnit(*fit[i], fit[i]->defaultValue));
    }
    struct Ctx {
      Evaluator* ev;
      const std::vector<const FreeParam*>* fit;
      const std::vector<double>* xDefault;
      std::vector<JointRows>* joint;
      int calls = 0;
    } ctx{&ev, &fit, &xDefault, &joint};
    auto objective = [](const std::vector<double>& x, std::vector<double>&, void* data) -> double {
      auto* c = static_cast<Ctx*>(data);
      std::vector<double> v;
      double reg = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        v.push_back(fromUnit(*(*c->fit)[i], x[i]));
        double d = x[i] - (*c->xDefault)[i];
        reg += d * d;
      }
      ++c->calls;
      return jointLossOf(c->ev->rows(), c->ev->predict(*c->fit, v), *c->joint, *c->fit, v) +
             kRegularization * reg;
    };
    const double optSeconds =
        std::max(1.0, std::min(opt.maxSecondsPerGroup, 0.7 * allotSeconds - elapsed()));
    g.maxEvaluations =
        fitEvaluationCap(opt.maxEvaluations, opt.timeBudgetSeconds, optSeconds, evalSeconds);
    if (log)
      *log << "  optimizer: " << fit.size() << " parameters, up to " << g.maxEvaluations
           << " evaluations"
           << (g.maxEvaluations > opt.maxEvaluations
                   ? " (--max-evals " + std::to_string(opt.maxEvaluations) + " raised to what " +
                         formatSig(optSeconds, 3) + " s hold at " + formatSig(evalSeconds, 3) +
                         " s an evaluation)"
                   : std::string())
           << " and " << formatSig(optSeconds, 3) << " s\n";
    std::vector<double> x = minimizeInUnitBox(
        objective, &ctx, x0, g.maxEvaluations, optSeconds,
        opt.algorithm == "bobyqa" ? "bobyqa" : "sbplx", log, &g.optimizerStop);
    // The regularized optimum; keep the defaults or the start point unless it lowers the data
    // loss.
    std::vector<double> v;
    for (size_t i = 0; i < x.size(); ++i) v.push_back(fromUnit(*fit[i], x[i]));
    double lossFit = jointLossOf(rows, ev.predict(fit, v), joint, fit, v);
    if (lossFit < g.jointLossAfter) {
      best = v;
      g.jointLossAfter = lossFit;
      g.outcome = "fitted";
    }
  }
  if (g.outcome.empty())
    g.outcome = fit.empty() ? "nothing to fit"
                : g.jointLossStart < g.jointLossBefore && !kept.empty() ? "kept the committed values"
                                                                          : "kept the defaults";
  // The group's own rows' data loss at the chosen point (the report's and --check's loss).
  g.lossAfter = g.outcome == "kept the defaults"           ? g.lossBefore
                : g.outcome == "kept the committed values" ? g.lossStart
                : joint.empty()                            ? g.jointLossAfter
                                                           : lossOf(rows, ev.predict(fit, best));
  if (log)
    *log << "  result: " << g.outcome << ", loss " << formatSig(g.lossAfter, 5) << " (defaults "
         << formatSig(g.lossBefore, 5) << ", start " << formatSig(g.lossStart, 5) << ")"
         << (!outcomeNeedsReason(g.outcome)
                 ? std::string()
                 : noOptimizerTime ? ": no time was left for the optimizer, the params file keeps them"
                                   : ": the optimizer found nothing lower, the params file keeps them")
         << "\n";
  auto after = ev.predict(fit, best);
  g.optimizeSeconds = phase(tOptimize);
  for (size_t i = 0; i < fit.size(); ++i) {
    FittedParam fp;
    fp.name = fit[i]->name();
    fp.defaultValue = fit[i]->defaultValue;
    fp.value = fit[i]->integer ? std::round(best[i]) : best[i];
    fp.unit = fit[i]->unit;
    fp.sensitivity = sensitivity[i];
    fp.kept = i < kept.size();
    fp.startValue = startValues[i];
    g.fitted.push_back(fp);
  }
  g.families = familyFits(rows, before, after, group.families);

  // Leave-one-board-out: each board's rows predicted by a refit without them (refitWithout).
  std::set<std::string> usedBoards;
  for (const auto& r : rows) usedBoards.insert(r.board);
  std::vector<std::optional<double>> lobo(rows.size());
  std::vector<std::string> split(rows.size(), "lobo");
  std::vector<LoboChoice> choices;
  auto tLobo = std::chrono::steady_clock::now();
  size_t boardsLeft = usedBoards.size();
  for (const auto& b : usedBoards) {
    auto held = [&b](const MeasuredRow& r) { return r.board == b; };
    double left = (allotSeconds - elapsed()) / static_cast<double>(boardsLeft--);
    // Warm: from the full fit's values (its held-out rows are out of the loss); a refit that
    // finds no time left then keeps them (one trial: its LOBO equals the in-sample fit, and
    // the report's refit table says so), a cold one the defaults.
    HeldOutFit h = refitWithout(ev, fit, best, held, left > 0 ? opt.loboEvaluations : 1, opt, {},
                                std::max(0.01, left), opt.warmStart);
    LoboChoice c;
    c.board = b;
    c.status = "lobo";
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].board == b) {
        lobo[i] = h.pred[i];
        split[i] = h.status[i];
        if (h.status[i] == "no-donor") c.status = "no-donor";
      }
    c.values = h.values;
    c.refitParams = static_cast<int>(h.refit.size());
    c.trials = h.trials;
    c.evaluations = h.evaluations;
    c.seconds = h.seconds;
    c.stop = h.stop;
    if (log && !h.refit.empty())
      *log << "  lobo " << b << ": refit " << h.refit.size() << " of " << fit.size()
           << " parameters without its rows, " << h.trials << " optimizer trials, "
           << h.evaluations << " evaluations ran boards, " << formatSig(h.seconds, 3) << " s ("
           << h.stop << ")\n";
    choices.push_back(c);
  }
  g.loboSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tLobo).count();
  g.loboEvaluations = opt.loboEvaluations;
  // Interval quantiles per family from the LOBO residuals; the coverage check uses, for each
  // row, the quantiles of the other boards' residuals only.
  // Per family and error kind (relative rows and CPU-load rows apart, as familyFits).
  for (const auto& f : group.families)
    for (bool pp : {false, true}) {
    auto same = [&](size_t i) { return rows[i].family == f && isPp(rows[i]) == pp && split[i] == "lobo"; };
    std::vector<double> e;
    for (size_t i = 0; i < rows.size(); ++i)
      if (same(i)) e.push_back(residual(rows[i], lobo[i]));
    if (e.empty()) continue;
    FamilyInterval fi;
    fi.family = f;
    fi.pp = pp;
    fi.rows = static_cast<int>(e.size());
    fi.q10 = quantile(e, 0.1);
    fi.q90 = quantile(e, 0.9);
    std::vector<double> abs;
    int inside = 0, n = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!same(i)) continue;
      std::vector<double> others;
      for (size_t j = 0; j < rows.size(); ++j)
        if (same(j) && rows[j].board != rows[i].board)
          others.push_back(residual(rows[j], lobo[j]));
      abs.push_back(lobo[i] ? std::abs(validation::signedError(validation::errorKindFor(rows[i].unit),
                                                               rows[i].value, *lobo[i]))
                            : 1.0);
      if (others.size() < 5) continue;
      double e0 = residual(rows[i], lobo[i]);
      ++n;
      if (e0 >= quantile(others, 0.1) && e0 <= quantile(others, 0.9)) ++inside;
    }
    fi.loboMdape = validation::median(abs);
    fi.coverageRows = n;
    fi.coverage = n ? static_cast<double>(inside) / n : 0;
    g.intervals.push_back(fi);
    }
  g.lobo = choices;
  g.evaluations = ev.evaluations();
  g.boardRuns = ev.boardRuns();
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (fit.empty()) g.note = g.candidates ? "no candidate moved the predictions (or budget 0)" : "no candidate parameters";

  if (opt.write) {
    ParamFileInfo info;
    info.group = group.name;
    info.families = group.families;
    std::string fams;
    for (const auto& f : group.families) fams += (fams.empty() ? "" : ", ") + f;
    info.provenance = {
        {"data", "calibration/measured/*.csv: " + std::to_string(g.rowsUsed) + " scored rows of " +
                     fams + " on " + std::to_string(boards.size()) +
                     " boards (flagged rows excluded: socsim validate --policy)"},
        {"rows_used", std::to_string(g.rowsUsed)},
        {"loss_before", formatNumber(g.lossBefore)},
        {"loss_after", formatNumber(g.lossAfter)},
        {"start", g.warmStart ? "warm: " + warmStartText(g) + ", loss at the start " +
                                    formatNumber(g.lossStart) + " on these rows"
                              : std::string("cold: the documented defaults (--cold)")},
        {"loss", "mean Cauchy(0.25) of log(predicted/measured), (pred-meas)/100 for % rows"},
        {"optimizer", std::string("NLopt ") + (opt.algorithm == "bobyqa" ? "LN_BOBYQA" : "LN_SBPLX") +
                          ", " + std::to_string(g.evaluations) + " evaluations"},
        {"budget", std::to_string(g.fitted.size()) + " fitted <= " + std::to_string(g.budget) +
                       " (1 per 10 rows)"},
        {"report", "calibration/reports/" + group.name + ".md"},
        {"date", today()},
        {"socsim_version", socsim::version()},
    };
    std::vector<std::pair<const FreeParam*, double>> vals;
    for (size_t i = 0; i < fit.size(); ++i)
      if ((fit[i]->integer ? std::round(best[i]) : best[i]) != fit[i]->defaultValue)
        vals.push_back({fit[i], best[i]});
    // Ctrl-C / SIGTERM wait until the params file and its reports are all written: an
    // interrupt between them left a new params file beside the old reports (--check fails).
    sigset_t stopSignals, saved;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    sigprocmask(SIG_BLOCK, &stopSignals, &saved);
    try {
      writeParamFile(paramsDir + "/" + ownFile, info, vals);
      writeReport(opt.sourceDir + "/calibration/reports", g, rows, before, after);
    } catch (...) {
      sigprocmask(SIG_SETMASK, &saved, nullptr);
      throw;
    }
    sigprocmask(SIG_SETMASK, &saved, nullptr);
  }
  return g;
}

std::vector<const FitGroup*> selectGroups(const CalibrateOptions& opt) {
  std::vector<const FitGroup*> sel;
  for (const auto& g : fitGroups())
    if (opt.groups.empty() || std::find(opt.groups.begin(), opt.groups.end(), g.name) != opt.groups.end())
      sel.push_back(&g);
  return sel;
}

}  // namespace

double fitNeedSeconds(double evalSeconds, int dims, int screenSteps, const CalibrateOptions& opt) {
  if (dims <= 0) return 0;
  double optimizer = std::min(opt.maxEvaluations, std::max(10, 2 * dims + 2));
  return std::max(0.0, evalSeconds) * (2 + 0.5 * std::max(0, screenSteps) + optimizer) / 0.7;
}

int fitEvaluationCap(int maxEvaluations, double timeBudget, double optimizerSeconds,
                     double evalSeconds) {
  if (!(timeBudget > 0) || !(evalSeconds > 0) || !(optimizerSeconds > 0)) return maxEvaluations;
  const double fit = std::floor(optimizerSeconds / evalSeconds);
  return fit > maxEvaluations ? static_cast<int>(std::min(fit, 1e6)) : maxEvaluations;
}

double timeAllotment(double remainingSeconds, const std::vector<double>& needs, double floorSeconds) {
  if (needs.empty() || !(needs[0] > 0)) return 1.0;
  double total = 0, laterFloors = 0;
  for (size_t j = 0; j < needs.size(); ++j) {
    total += std::max(0.0, needs[j]);
    if (j > 0) laterFloors += std::min(std::max(0.0, needs[j]), floorSeconds);
  }
  double share = remainingSeconds * needs[0] / total;
  double allot = std::max(share, std::min(needs[0], floorSeconds));
  allot = std::min(allot, remainingSeconds - laterFloors);
  return std::max(1.0, allot);
}

std::string warmStartText(const GroupResult& g) {
  if (!g.startAtDefaults)
    return std::to_string(g.keptFitted) + " committed fitted parameters kept from " + g.startFrom;
  if (g.keptFitted > 0)
    return "the committed free set from " + g.startFrom + " (" + std::to_string(g.keptFitted) +
           (g.keptFitted == 1 ? " parameter" : " parameters") + "), started at the defaults";
  return "no committed fit: the defaults";
}

bool outcomeNeedsReason(const std::string& outcome) {
  return !(outcome.empty() || outcome == "fitted" || outcome == "nothing to fit");
}

CvRefitAllot cvRefitAllotment(double remainingSeconds, const std::vector<double>& costs,
                              int minTrials) {
  CvRefitAllot a;
  const double own = costs.empty() ? 0 : std::max(0.0, costs[0]);
  double total = 0;
  for (double c : costs) total += std::max(0.0, c);
  double trials = total > 0 ? std::max(0.0, remainingSeconds) / total - 2 : minTrials;
  trials = std::max(static_cast<double>(std::max(0, minTrials)), std::floor(trials));
  a.trials = static_cast<int>(std::min(trials, 1e6));
  a.seconds = std::max(0.01, own * a.trials);
  return a;
}

std::vector<GroupResult> calibrate(const std::vector<MeasuredRow>& rows,
                                   const CalibrateOptions& opt) {
  FitSession session(opt.sourceDir);
  const ParamRegistry& reg = session.reg;
  std::vector<GroupResult> out;
  auto sel = selectGroups(opt);
  // Time allotment: with a total budget and several groups, one evaluation of each group at
  // the committed values (a pre-pass) and its parameter count give each group's need
  // (fitNeedSeconds); each group then gets its share of the remaining budget (timeAllotment:
  // a floor for the cheap groups, the rest in proportion to the needs of the groups still to
  // fit). Before session 7 the weight was the evaluation's cost alone, which gave a group of
  // 38 parameters at 1 s an evaluation (Ethernet) about 20 s.
  std::vector<double> weight(sel.size(), 1.0), prepass(sel.size(), 0.0);
  std::vector<bool> nothing(sel.size(), false);
  std::vector<int> dims(sel.size(), 0), screens(sel.size(), 0);
  std::vector<std::unique_ptr<Evaluator>> pre(sel.size());
  ReadSets readSets;
  auto tStart = std::chrono::steady_clock::now();
  if (opt.timeBudgetSeconds > 0 && sel.size() > 1) {
    const ParamSet& committed = session.committed;
    for (size_t i = 0; i < sel.size(); ++i) {
      std::vector<MeasuredRow> gr = flagScoredRows(*sel[i], rows);
      auto t = std::chrono::steady_clock::now();
      // A group with nothing to fit (fewer than 10 scored rows: budget 0; or no candidate
      // parameter its rows read) gets no time share: its fit is its first evaluation.
      nothing[i] = true;
      if (!gr.empty()) {
        ParamSet base = paramsSeenBy(committed, sel[i]->name);
        base.eraseOrigin(sel[i]->name + ".yaml");
        pre[i] = std::make_unique<Evaluator>(gr, reg, paramsSeenBy(committed, sel[i]->name), opt);
        auto at = pre[i]->predict({}, {});
        int scored = 0;
        std::set<std::string> boards;
        for (size_t k = 0; k < at.size(); ++k)
          if (at[k] && pre[i]->exclusionOf(k).empty()) {
            ++scored;
            boards.insert(pre[i]->rows()[k].board);
          }
        readSets[sel[i]->name] = readSetOfEvaluator(*pre[i], reg);
        GroupResult probe;
        auto cand = selectCandidates(*sel[i], *pre[i], boards, reg, committed, base, probe,
                                     readByEarlierGroups(*sel[i], rows, reg, committed, opt, readSets));
        nothing[i] = scored / 10 == 0 || cand.empty();
        // The parameters it will fit, and the screening steps: with a warm start the committed
        // fitted ones are kept unscreened and the screen fills the rest of the budget.
        int budget = scored / 10, kept = 0;
        if (opt.warmStart)
          for (const FreeParam* p : committedFitted(opt.sourceDir, sel[i]->name, reg))
            kept += std::find(cand.begin(), cand.end(), p) != cand.end() ? 1 : 0;
        kept = std::min(kept, budget);
        dims[i] = std::min(budget, static_cast<int>(cand.size()));
        screens[i] = kept < budget ? std::min(opt.maxScreen, static_cast<int>(cand.size()) - kept) : 0;
      }
      prepass[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
      weight[i] = nothing[i] ? 0.0 : fitNeedSeconds(std::max(0.05, prepass[i]), dims[i], screens[i], opt);
      if (opt.log)
        *opt.log << "calibrate: pre-pass " << sel[i]->name << " one evaluation " << formatSig(prepass[i], 3)
                 << " s"
                 << (nothing[i] ? std::string(": nothing to fit (no time share)")
                                : ", " + std::to_string(dims[i]) + " parameters, " +
                                      std::to_string(screens[i]) + " screening steps: needs about " +
                                      formatSig(weight[i], 3) + " s")
                 << "\n";
    }
  }
  for (size_t i = 0; i < sel.size(); ++i) {
    double allot = opt.maxSecondsPerGroup * 3;  // no total budget: the optimizer cap rules
    if (opt.timeBudgetSeconds > 0) {
      double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - tStart).count();
      // A floor of 5 % of the budget (90 s of 30 min) for each group's need.
      allot = timeAllotment(opt.timeBudgetSeconds - spent,
                            std::vector<double>(weight.begin() + static_cast<long>(i), weight.end()),
                            0.05 * opt.timeBudgetSeconds);
      if (opt.log)
        *opt.log << "calibrate " << sel[i]->name << ": time allotment " << formatSig(allot, 3) << " s\n";
    }
    out.push_back(fitGroup(*sel[i], rows, reg, opt, allot, readSets, std::move(pre[i]), prepass[i]));
    out.back().prepassSeconds = prepass[i];
    out.back().nothingToFit = nothing[i] && sel.size() > 1 && opt.timeBudgetSeconds > 0;
  }
  return out;
}

namespace {

/// The rows of a committed report (calibration/reports/<group>.csv) and their committed
/// predictions.
std::vector<MeasuredRow> readReportRows(const std::string& report,
                                        std::vector<std::optional<double>>* committedPred) {
  std::ifstream in(report, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto records = csv::parse(text, report);
  std::vector<MeasuredRow> rows;
  for (size_t i = 1; i < records.size(); ++i) {
    const auto& f = records[i];
    if (f.size() != 10)
      throw InputError(report, static_cast<int>(i + 1), "",
                       "expected 10 columns (source..predicted_fitted), got " + std::to_string(f.size()));
    MeasuredRow r;
    r.source = f[0];
    r.board = f[1];
    r.family = f[2];
    r.benchmark = f[3];
    r.metric = f[4];
    r.params = f[5];
    r.unit = f[6];
    r.value = std::strtod(f[7].c_str(), nullptr);
    rows.push_back(r);
    if (committedPred)
      committedPred->push_back(f[9].empty() ? std::nullopt
                                            : std::optional<double>(std::strtod(f[9].c_str(), nullptr)));
  }
  return rows;
}

}  // namespace

double screenGain(const std::vector<double>& residuals, const std::vector<double>& change,
                  double roomBack, double roomAhead) {
  double rd = 0, dd = 0, rr = 0;
  for (size_t i = 0; i < residuals.size() && i < change.size(); ++i) {
    // A row the trial lost (kMissingResidual) or a wild outlier would rule a least-squares
    // gain: residuals are clipped to the Cauchy loss's working range.
    double r = std::clamp(residuals[i], -1.0, 1.0), d = std::clamp(change[i], -1.0, 1.0);
    rd += r * d;
    dd += d * d;
    rr += r * r;
  }
  if (!(dd > 0)) return 0;
  double t = std::clamp(-rd / dd, -std::max(0.0, roomBack), std::max(0.0, roomAhead));
  double gain = -2 * t * rd - t * t * dd;
  return rr > 0 ? std::max(0.0, gain / rr) : 0.0;
}

double checkMdapeTolerance(double committedMdape, int rows, bool pp) {
  const double floor = pp ? 0.5 : 0.005;  // 0.5 pp
  const double tol = std::max(floor, 0.02 * std::abs(committedMdape));
  return tol * std::max(1.0, std::sqrt(25.0 / std::max(1, rows)));
}

std::vector<CheckResult> checkCalibration(const std::vector<MeasuredRow>&,
                                          const CalibrateOptions& opt) {
  FitSession session(opt.sourceDir);
  const ParamRegistry& reg = session.reg;
  const ParamSet& committed = session.committed;
  std::vector<CheckResult> out;
  for (const FitGroup* g : selectGroups(opt)) {
    std::string report = opt.sourceDir + "/calibration/reports/" + g->name + ".csv";
    if (!fs::exists(report)) continue;
    CheckResult c;
    c.group = g->name;
    std::vector<std::optional<double>> committedPred;
    std::vector<MeasuredRow> rows = readReportRows(report, &committedPred);
    c.rows = static_cast<int>(rows.size());
    Evaluator ev(rows, reg, paramsSeenBy(committed, g->name), opt);
    const auto started = std::chrono::steady_clock::now();
    if (opt.log) {
      std::set<std::string> boards;
      for (const auto& r : rows) boards.insert(r.board);
      *opt.log << "calibrate --check " << g->name << ": predicting " << rows.size()
               << " report rows on " << boards.size() << " boards, " << std::max(1, opt.jobs)
               << " at a time" << std::endl;
      ev.setProgress(true);
    }
    auto now = ev.predict({}, {});
    // A report row the scoring policy no longer scores (a model now marks its prediction a
    // config echo): the committed fit counted it, `validate` does not; the fit is stale.
    for (size_t i = 0; i < rows.size(); ++i)
      if (!ev.exclusionOf(i).empty()) ++c.rowsExcluded;
    if (opt.log)
      *opt.log << "calibrate --check " << g->name << ": predicted in "
               << formatSig(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 3)
               << " s" << std::endl;
    for (size_t i = 0; i < rows.size(); ++i) {
      bool same = now[i].has_value() == committedPred[i].has_value() &&
                  (!now[i] || std::abs(*now[i] - *committedPred[i]) <=
                                  1e-6 * std::max(std::abs(*committedPred[i]), 1e-300));
      if (!same) ++c.rowsDrifted;
    }
    c.lossCommitted = lossOf(rows, committedPred);
    c.lossNow = lossOf(rows, now);
    auto famNow = familyFits(rows, now, now, g->families);
    auto famCommitted = familyFits(rows, committedPred, committedPred, g->families);
    bool famOk = famNow.size() == famCommitted.size();
    std::string fams;
    for (size_t i = 0; famOk && i < famNow.size(); ++i) {
      double tol = checkMdapeTolerance(famCommitted[i].mdapeAfter, famCommitted[i].rows,
                                       famCommitted[i].pp);
      famOk = std::abs(famNow[i].mdapeAfter - famCommitted[i].mdapeAfter) <= tol;
      auto text = [pp = famNow[i].pp](double v) {
        return pp ? formatSig(v, 3) + " pp" : pct(v) + " %";
      };
      fams += " " + famNow[i].family + " MdAPE " + text(famNow[i].mdapeAfter) + " (committed " +
              text(famCommitted[i].mdapeAfter) + " +- " + text(tol) + ")";
    }
    bool lossOk = std::abs(c.lossNow - c.lossCommitted) <= 0.02 * c.lossCommitted + 1e-12;
    c.fitted = static_cast<int>(committedFitted(opt.sourceDir, g->name, reg).size());
    c.budget = c.rows / 10;
    c.ok = famOk && lossOk && c.fitted <= c.budget && c.rowsExcluded == 0;
    c.message = std::string(c.ok ? "ok" : "MISMATCH") +
                (c.rowsExcluded ? " (" + std::to_string(c.rowsExcluded) +
                                      " report rows are not scored by validate's policy, e.g. "
                                      "excluded:config-echo: refit)"
                                : std::string()) +
                (c.fitted > c.budget ? " (over budget: " + std::to_string(c.fitted) +
                                           " fitted for " + std::to_string(c.rows) + " rows)"
                                     : std::string()) +
                ": loss " + formatSig(c.lossNow, 5) +
                " (committed " + formatSig(c.lossCommitted, 5) + ");" + fams + "; " +
                std::to_string(c.rowsDrifted) + "/" + std::to_string(c.rows) +
                " rows differ from the report by more than 1e-6";
    out.push_back(c);
  }
  return out;
}

std::map<std::string, int> scanParamReads(const std::vector<MeasuredRow>& rows,
                                          const CalibrateOptions& opt) {
  FitSession session(opt.sourceDir);
  const ParamRegistry& reg = session.reg;
  const ParamSet& committed = session.committed;
  std::vector<MeasuredRow> sel;
  for (const auto& r : rows)
    if (!r.board.empty() && groupOfFamily(r.family)) sel.push_back(r);
  std::map<std::string, int> out;
  if (!sel.empty()) {
    Evaluator ev(sel, reg, committed, opt);
    ev.predict({}, {});
    std::set<std::string> boards;
    for (const auto& r : sel) boards.insert(r.board);
    for (const auto& p : reg.params())
      for (const auto& b : boards)
        if (ev.consumes(b, p)) ++out[p.name()];
  }
  return out;
}

std::map<std::string, std::string> readParamScan(const std::string& sourceDir) {
  std::map<std::string, std::string> out;
  std::string f = sourceDir + "/calibration/reports/params-read.csv";
  if (!fs::exists(f)) return out;
  std::ifstream in(f, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto rec = csv::parse(text, f);
  for (size_t i = 1; i < rec.size(); ++i) {
    if (rec[i].size() != 3)
      throw InputError(f, static_cast<int>(i + 1), "",
                       "expected 3 columns (parameter,status,boards), got " + std::to_string(rec[i].size()));
    if (rec[i][1] != "read" && rec[i][1] != "unread")
      throw InputError(f, static_cast<int>(i + 1), "status",
                       "expected read or unread, got '" + rec[i][1] + "'");
    out[rec[i][0]] = rec[i][1];
  }
  return out;
}

void writeParamScan(const std::string& sourceDir, const ParamRegistry& reg,
                    const std::map<std::string, int>& reads) {
  fs::create_directories(sourceDir + "/calibration/reports");
  std::ofstream os(sourceDir + "/calibration/reports/params-read.csv", std::ios::binary);
  csv::writeRecord(os, {"parameter", "status", "boards"});
  for (const auto& p : reg.params()) {
    auto it = reads.find(p.name());
    csv::writeRecord(os, {p.name(), it != reads.end() ? "read" : "unread",
                          std::to_string(it != reads.end() ? it->second : 0)});
  }
}

std::map<size_t, std::set<std::string>> groupsMovingUnits(
    size_t n, const std::set<std::string>& units,
    const std::function<std::set<std::string>(size_t, size_t, const std::set<std::string>&)>& moves) {
  std::map<size_t, std::set<std::string>> out;
  std::function<void(size_t, size_t, const std::set<std::string>&)> halve =
      [&](size_t lo, size_t hi, const std::set<std::string>& among) {
        std::set<std::string> m = moves(lo, hi, among);
        if (m.empty()) return;
        if (hi - lo == 1) {
          out[lo] = std::move(m);
          return;
        }
        const size_t mid = lo + (hi - lo) / 2;
        halve(lo, mid, m);
        halve(mid, hi, m);
      };
  if (n > 0 && !units.empty()) halve(0, n, units);
  return out;
}

std::string cvUnit(const MeasuredRow& r, const std::string& mode) {
  return mode == "release" ? r.source : r.board;
}

CvPlan crossValidate(const std::vector<MeasuredRow>& selected, const CalibrateOptions& opt,
                     const std::string& mode) {
  auto t0 = std::chrono::steady_clock::now();
  // The refits repeat the boards' runs with other parameter values: the session shares the
  // kernel-code and profile runs that repeat, as calibrate's evaluations do.
  FitSession session(opt.sourceDir);
  const ParamRegistry& reg = session.reg;
  const ParamSet& committed = session.committed;
  CvPlan plan;
  plan.mode = mode;
  struct Committed {
    const FitGroup* group;
    std::vector<const FreeParam*> fitted;
    std::unique_ptr<Evaluator> ev;
    double firstEvalSeconds = 0;  ///< its first prediction of all its report rows
  };
  std::vector<Committed> groups;
  // --cv-groups: the groups outside the list keep their committed values in every fold.
  auto chosen = [&opt](const std::string& group) {
    return opt.cvGroups.empty() ||
           std::find(opt.cvGroups.begin(), opt.cvGroups.end(), group) != opt.cvGroups.end();
  };
  for (const auto& g : fitGroups()) {
    std::string report = opt.sourceDir + "/calibration/reports/" + g.name + ".csv";
    if (!fs::exists(report)) continue;
    auto fitted = committedFitted(opt.sourceDir, g.name, reg);
    if (fitted.empty()) continue;
    plan.groups.push_back(g.name);
    // The families whose rows are cross-validated: with --cv-groups, only the chosen groups'
    // (a kept group's own rows are predicted at the values fitted with them: in-sample).
    if (chosen(g.name))
      plan.families.insert(plan.families.end(), g.families.begin(), g.families.end());
    groups.push_back({&g, fitted, std::make_unique<Evaluator>(readReportRows(report, nullptr), reg,
                                                              committed, opt), 0.0});
  }
  std::set<std::string> units;
  for (const auto& r : selected) units.insert(cvUnit(r, mode));
  // The plan's lines go to the full log (--progress, a terminal), else to the fold log (a
  // redirected stderr still shows what the run is doing).
  std::ostream* say = opt.log ? opt.log : opt.foldLog;
  if (say) {
    size_t nFitted = 0;
    for (const auto& c : groups) nFitted += c.fitted.size();
    std::set<std::string> boards;
    for (const auto& r : selected) boards.insert(r.board);
    *say << "cv " << mode << ": " << units.size() << " held-out units; finding which of the "
         << nFitted << " fitted parameters of " << groups.size() << " committed groups move the "
         << selected.size() << " selected rows on " << boards.size()
         << " boards (their reads; the groups whose family is not selected are moved together in "
            "one prediction, then halved where it moved rows)"
         << (opt.timeBudgetSeconds > 0
                 ? "; time budget " + formatNumber(opt.timeBudgetSeconds) + " s"
                 : std::string("; no time budget"))
         << "\n" << std::flush;
  }
  // Which committed fitted values move which selected rows: a parameter a row's model never
  // read (config::ReadRecorder, recorded by the first prediction) cannot move it. A group whose
  // own families are selected was fitted on such rows: each fitted parameter their models read
  // counts for the units whose rows read it. Another group's parameters (an earlier stage under a
  // later stage's family) count, by their reads, for the units whose rows a move of that group's
  // fitted values moved (found by moving the groups together, then halving). Until session 11
  // each such group got its own prediction and then each of its parameters one more (within 25 %
  // of --time-budget): a parameter a moved row reads is one its refit may move anyway
  // (refitWithout refits only what the held rows read).
  Evaluator sel(selected, reg, committed, opt);
  std::map<const FreeParam*, std::set<std::string>> movesUnit;
  double firstPassSeconds = 0;
  if (!groups.empty()) {
    auto tFirst = std::chrono::steady_clock::now();
    auto at = sel.predict({}, {});
    firstPassSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - tFirst).count();
    std::set<std::string> selFamilies;
    for (const auto& r : selected) selFamilies.insert(r.family);
    auto byReads = [&](const FreeParam* p) {
      for (const auto& r : selected)
        if (sel.consumes(r.board, *p)) movesUnit[p].insert(cvUnit(r, mode));
    };
    auto moved = [](double cur, const FreeParam* p) {
      double u0 = toUnit(*p, cur);
      double v = fromUnit(*p, u0 + 0.25 <= 1 ? u0 + 0.25 : u0 - 0.25);
      if (p->integer && v == cur) v = std::clamp(cur + (u0 + 0.25 <= 1 ? 1.0 : -1.0), p->lo, p->hi);
      return v;
    };
    // The units of `among` whose selected rows a prediction `m` moved.
    auto movedUnits = [&](const std::vector<std::optional<double>>& m,
                          const std::set<std::string>& among) {
      std::set<std::string> out;
      for (size_t k = 0; k < selected.size(); ++k) {
        if (!among.count(cvUnit(selected[k], mode))) continue;
        bool same = at[k].has_value() == m[k].has_value() &&
                    (!at[k] || std::abs(*at[k] - *m[k]) <= 1e-12 * std::abs(*at[k]));
        if (!same) out.insert(cvUnit(selected[k], mode));
      }
      return out;
    };
    // The groups whose family is not selected but whose fitted rows hold a selected unit (a
    // group fitted on none of the selected units' rows was fitted without them already: it is
    // never refitted, so its parameters need no screening).
    std::vector<const Committed*> pool;
    for (const auto& c : groups) {
      bool holdsAUnit = false;
      for (const auto& r : c.ev->rows()) holdsAUnit = holdsAUnit || units.count(cvUnit(r, mode));
      if (!holdsAUnit) continue;
      bool own = false;
      for (const auto& f : c.group->families) own = own || selFamilies.count(f);
      if (own) {
        for (const FreeParam* p : c.fitted) {
          ++plan.byReads;
          byReads(p);
        }
      } else {
        pool.push_back(&c);
      }
    }
    // Those groups' fitted values are moved together, then halved where a unit's rows moved:
    // a group counts for the units its own move moved. A board loads every component of its
    // config, so its recorded reads name nearly every group (they cannot tell which groups move
    // a CPU benchmark), and most groups move none of the selected rows: with one prediction per
    // group (session 10) coremark-pro's screen (its first pass and 17 groups) took 725 s; the
    // halving needs about 2 log2(groups) predictions per moving group (groupsMovingUnits), each
    // over the boards of the units the larger pool moved.
    auto movedBy = [&](size_t lo, size_t hi, const std::set<std::string>& among) {
      std::vector<const FreeParam*> ps;
      std::vector<double> vs;
      for (size_t j = lo; j < hi; ++j)
        for (const FreeParam* p : pool[j]->fitted) {
          ps.push_back(p);
          vs.push_back(moved(committed.valueOr(*p), p));
        }
      std::set<std::string> boards;
      for (const auto& r : selected)
        if (among.count(cvUnit(r, mode))) boards.insert(r.board);
      ++plan.groupScreens;
      return movedUnits(
          sel.predict(ps, vs, [&boards](const std::string& b) { return boards.count(b) > 0; }),
          among);
    };
    std::map<size_t, std::set<std::string>> moving = groupsMovingUnits(pool.size(), units, movedBy);
    std::map<const Committed*, std::set<std::string>> groupMoves;
    for (const auto& [j, m] : moving) groupMoves[pool[j]] = m;
    for (const Committed* c : pool) {
      auto g = groupMoves.find(c);
      if (g == groupMoves.end()) continue;
      for (const FreeParam* p : c->fitted) {
        ++plan.byReads;
        for (const auto& r : selected)
          if (g->second.count(cvUnit(r, mode)) && sel.consumes(r.board, *p))
            movesUnit[p].insert(cvUnit(r, mode));
      }
    }
  }
  plan.screenSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  plan.evaluations += sel.evaluations();
  plan.boardRuns += sel.boardRuns();
  // The refits to do: (unit, group) where the group's fitted rows include the unit's rows and
  // one of its fitted parameters moves the unit's selected rows. The other groups cannot change
  // a selected prediction and are not refitted (nor predicted).
  auto movesHeldRows = [&](const std::string& u, const Committed& c) {
    bool any = false;
    for (const auto& r : c.ev->rows()) any = any || cvUnit(r, mode) == u;
    if (!any) return false;
    for (const FreeParam* p : c.fitted) {
      auto it = movesUnit.find(p);
      if (it != movesUnit.end() && it->second.count(u)) return true;
    }
    return false;
  };
  auto refitNeeded = [&](const std::string& u, const Committed& c) {
    return chosen(c.group->name) && movesHeldRows(u, c);
  };
  std::map<std::string, int> planned;  // group -> units
  std::map<std::string, int> kept;     // group -> units it would have been refitted for
  int plannedTotal = 0;
  for (const auto& u : units)
    for (const auto& c : groups)
      if (refitNeeded(u, c)) {
        ++planned[c.group->name];
        ++plannedTotal;
      } else if (!chosen(c.group->name) && movesHeldRows(u, c)) {
        ++kept[c.group->name];
      }
  for (const auto& c : groups) {
    if (planned.count(c.group->name)) plan.refitGroups.push_back(c.group->name);
    if (kept.count(c.group->name)) plan.keptGroups.push_back(c.group->name);
  }
  if (say) {
    std::string list, skipped, keptList;
    auto withUnits = [](const std::string& name, int n) {
      return name + " (" + std::to_string(n) + (n == 1 ? " unit)" : " units)");
    };
    for (const auto& c : groups) {
      auto it = planned.find(c.group->name);
      auto k = kept.find(c.group->name);
      if (it != planned.end())
        list += (list.empty() ? "" : ", ") + withUnits(c.group->name, it->second);
      else if (k != kept.end())
        keptList += (keptList.empty() ? "" : ", ") + withUnits(c.group->name, k->second);
      else
        skipped += (skipped.empty() ? "" : ", ") + c.group->name;
    }
    if (!keptList.empty())
      *say << "cv " << mode << ": --cv-groups keeps " << keptList
           << " at the committed values, fitted with the held-out rows: the folds are a partial "
              "leave-out for the rows these groups move\n";
    double screen = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    *say << "cv " << mode << ": " << units.size() << " held-out units, " << plannedTotal
         << " refits planned: " << (list.empty() ? std::string("none") : list)
         << "; not refitted (fitted without the held-out rows, or their fitted parameters "
            "move no selected row): "
         << (skipped.empty() ? std::string("none") : skipped) << " (screen "
         << formatSig(screen, 3) << " s, " << sel.evaluations() << " predictions, "
         << sel.boardRuns() << " board runs: " << plan.byReads << " parameters by their reads, "
         << plan.groupScreens << " predictions moving other stages' groups together, then halved)\n"
         << std::flush;
  }
  auto tRefits = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  int done = 0, foldsPlanned = 0, foldsDone = 0;
  std::map<std::string, std::pair<double, int>> evalCost;  // group -> refit seconds, evaluations
  for (const auto& u : units)
    for (const auto& c : groups)
      if (refitNeeded(u, c)) {
        ++foldsPlanned;
        break;
      }
  // The fitted values of a group that move unit `u`'s selected rows: the ones its refit touches.
  auto relevantFor = [&movesUnit](const std::string& u) {
    return [&movesUnit, u](const FreeParam& p) {
      auto it = movesUnit.find(&p);
      return it != movesUnit.end() && it->second.count(u) > 0;
    };
  };
  // A group's first prediction pass: records what each board reads, at the point the refit of
  // `u` (the first unit that refits it) starts from (the fitted values that move the unit's rows
  // at their defaults, honest start), and measures the cost of one evaluation of the group.
  // Session 8 ran this pass at the committed values, which no refit uses.
  auto firstPass = [&](Committed& c, const std::string& u) {
    auto tFirst = std::chrono::steady_clock::now();
    auto relevant = relevantFor(u);
    std::vector<const FreeParam*> startParams;
    std::vector<double> startValues;
    for (const FreeParam* p : c.fitted)
      if (relevant(*p)) {
        startParams.push_back(p);
        startValues.push_back(p->defaultValue);
      }
    c.ev->predict(startParams, startValues);
    c.firstEvalSeconds = since(tFirst);
    // The refit's objective counts the rows validate scores (a stale report may hold a row the
    // policy now excludes, such as a config echo; --check flags that report).
    std::vector<size_t> scored;
    for (size_t k = 0; k < c.ev->rows().size(); ++k)
      if (c.ev->exclusionOf(k).empty()) scored.push_back(k);
    c.ev->restrictTo(scored);
  };
  // The refits in the order they run (unit, then stage order), for the time shares.
  std::vector<const Committed*> refitOrder;
  for (const auto& u : units)
    for (const auto& c : groups)
      if (refitNeeded(u, c)) refitOrder.push_back(&c);
  // Under a time budget every refitted group's first pass runs before the refits: the shares
  // need the cost of each group's evaluation up front (session 9: a share computed before the
  // expensive groups had run gave the cheap early refits the time of the whole run).
  if (opt.timeBudgetSeconds > 0)
    for (auto& c : groups)
      for (const auto& u : units)
        if (refitNeeded(u, c)) {
          firstPass(c, u);
          plan.evaluations += c.ev->evaluations();  // its first evaluations
          plan.boardRuns += c.ev->boardRuns();
          if (say)
            *say << "cv " << mode << ": " << c.group->name << " first pass "
                 << formatSig(c.firstEvalSeconds, 3) << " s over " << c.ev->rows().size()
                 << " scored rows\n" << std::flush;
          break;
        }
  auto evalCostOf = [&evalCost](const Committed& c) {
    auto it = evalCost.find(c.group->name);
    if (it != evalCost.end() && it->second.second > 0) return it->second.first / it->second.second;
    return 0.5 * c.firstEvalSeconds;
  };
  for (const auto& u : units) {
    auto held = [&u, &mode](const MeasuredRow& r) { return cvUnit(r, mode) == u; };
    auto relevant = relevantFor(u);
    ParamSet values = committed;
    auto& changed = plan.valuesByUnit[u];
    auto tFold = std::chrono::steady_clock::now();
    std::string foldWhat;
    bool anyRefit = false, cut = false;
    for (auto& c : groups) {
      if (!refitNeeded(u, c)) continue;
      // Ctrl-C / SIGTERM (the caller's StopSignalGuard): no new refit starts.
      if (StopSignalGuard::stopRequestedOrPending()) {
        cut = true;
        break;
      }
      anyRefit = true;
      c.ev->setBase(values);
      // The evaluations and board runs of this refit, its group's first pass included.
      int evBefore = c.ev->evaluations(), runsBefore = c.ev->boardRuns();
      if (c.ev->evaluations() == 0) firstPass(c, u);
      std::vector<double> full;
      for (auto* p : c.fitted) full.push_back(values.valueOr(*p));
      // The time budget: what is left after the final prediction pass, shared by the refits
      // still to run (this one included) by the cost of their groups' evaluations
      // (cvRefitAllotment): the same number of trials each, at least min(--cv-evals, n + 2)
      // for the n fitted values that move the unit's rows, so no group goes unrefitted.
      double allot = -1;
      const int maxEvals = opt.loboEvaluations;
      if (opt.timeBudgetSeconds > 0) {
        std::vector<double> costs;
        for (size_t j = static_cast<size_t>(done); j < refitOrder.size(); ++j)
          costs.push_back(evalCostOf(*refitOrder[j]));
        int n = 0;
        for (const FreeParam* p : c.fitted) n += relevant(*p) ? 1 : 0;
        allot = cvRefitAllotment(opt.timeBudgetSeconds - since(t0) - firstPassSeconds, costs,
                                 std::min(opt.loboEvaluations, n + 2))
                    .seconds;
      }
      HeldOutFit h = refitWithout(*c.ev, c.fitted, full, held, maxEvals, opt, relevant, allot,
                                  /*warmStart=*/false, /*predictHeld=*/false);
      if (h.evaluations > 0) {
        evalCost[c.group->name].first += h.seconds;
        evalCost[c.group->name].second += h.evaluations;
      }
      plan.evaluations += c.ev->evaluations() - evBefore;
      plan.boardRuns += c.ev->boardRuns() - runsBefore;
      ++done;
      CvPlan::Refit rec;
      rec.unit = u;
      rec.group = c.group->name;
      rec.params = static_cast<int>(h.refit.size());
      rec.trials = h.trials;
      rec.evaluations = h.evaluations;
      rec.seconds = h.seconds;
      rec.allotSeconds = allot > 0 ? allot : 0;
      rec.stop = h.stop;
      plan.refitLog.push_back(rec);
      foldWhat += (foldWhat.empty() ? "" : "; ") + c.group->name + " " +
                  std::to_string(rec.params) + " params, " + std::to_string(rec.trials) +
                  " trials, " + std::to_string(rec.evaluations) + " evals, " +
                  (rec.stop.empty() ? std::string("nothing to refit") : rec.stop);
      if (h.stop == "interrupted") {
        cut = true;
        break;
      }
      if (h.values.empty()) continue;  // the unit's rows read none of the group's fitted values
      ++plan.refits;
      for (const auto& [p, v] : h.values) {
        values.set(*p, v, "cv without " + u);
        changed.erase(std::remove_if(changed.begin(), changed.end(),
                                     [name = p->name()](const auto& e) { return e.first == name; }),
                      changed.end());
        changed.push_back({p->name(), v});
      }
      const auto& rows = c.ev->rows();
      for (size_t k = 0; k < rows.size(); ++k)
        if (held(rows[k]) && h.status[k] == "no-donor")
          for (const auto& f : c.group->families)
            plan.noDonor[f + '\x1f' + u + '\x1f' + rows[k].board] = "no-donor";
      if (opt.log) {
        double el = since(tRefits);
        *opt.log << "cv " << mode << " [" << done << "/" << plannedTotal << "] " << u << ": "
                 << c.group->name << " refit " << h.refit.size() << " of " << c.fitted.size()
                 << " fitted parameters without its rows (" << h.trials << " optimizer trials; "
                 << h.evaluations << " predictions ran boards, repeats came from the memo; "
                 << (h.stop.empty() ? std::string("nothing to refit") : "stop: " + h.stop)
                 << (allot > 0 ? ", allotted " + formatSig(allot, 3) + " s" : std::string())
                 << "); " << formatSig(el, 3) << " s, about "
                 << formatSig(el / done * std::max(0, plannedTotal - done), 2) << " s left\n";
      }
    }
    if (cut) {
      // A fold cut short is not a cross-validated fold: its rows are failed:interrupted
      // (validateCv), its refits stay in refitLog with their stop.
      plan.interrupted.insert(u);
      plan.valuesByUnit.erase(u);
      if (opt.foldLog)
        *opt.foldLog << "cv " << mode << ": fold " << u << " interrupted"
                     << (foldWhat.empty() ? std::string() : " (" + foldWhat + ")") << "\n"
                     << std::flush;
      continue;
    }
    if (anyRefit && opt.foldLog) {
      ++foldsDone;
      double el = since(tRefits);
      // The estimate follows the refits (a fold's cost is the sum of its groups' refits).
      double left = el / std::max(1, done) * std::max(0, plannedTotal - done);
      *opt.foldLog << "cv " << mode << ": fold " << foldsDone << "/" << foldsPlanned << " " << u
                   << " done in " << formatSig(since(tFold), 3) << " s (" << foldWhat
                   << "); elapsed " << formatSig(since(t0), 3) << " s, about "
                   << formatSig(left, 2) << " s of refits left\n"
                   << std::flush;
    }
  }
  for (const auto& [u, changed] : plan.valuesByUnit) {
    bool same = !changed.empty();
    for (const auto& [name, v] : changed) {
      const FreeParam* p = reg.find(name);
      same = same && p && v == committed.valueOr(*p);
    }
    plan.unitsAtCommitted += same ? 1 : 0;
  }
  plan.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return plan;
}

}  // namespace socsim::calib
