#include "calibration/fit/calibrate.h"

#include <algorithm>
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

#include <unistd.h>

#include "calibration/fit/param_overrides.h"
#include "calibration/fit/param_registry.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
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
    for (const char* f : {"dhrystone", "whetstone", "linpack", "nbench", "coremark-pro",
                          "multibench", "lmbench-ops", "mathlib"}) {
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
    for (const char* f : {"flash", "nand", "emmc", "mmc-sd", "ufs", "sata", "usb", "pcie"})
      g.push_back({f, "io", {f},
                   {"components/peripherals/", "workloads/storage/", "boards/"}});
    for (const char* f : {"crypto", "sa2ul", "ipsec"})
      g.push_back({f, "io", {f}, {"components/crypto_engines/", "workloads/crypto/"}});
    g.push_back({"ethernet", "io", {"ethernet"}, {"components/peripherals/", "components/software/"}});
    return g;
  }();
  return groups;
}

const FitGroup* groupOfFamily(const std::string& family) {
  for (const auto& g : fitGroups())
    if (std::find(g.families.begin(), g.families.end(), family) != g.families.end()) return &g;
  return nullptr;
}

int installCommittedParams(const std::string& sourceDir) {
  auto reg = ParamRegistry::scan(sourceDir + "/configs");
  auto set = readParamDir(sourceDir + "/calibration/params", reg);
  if (set.empty()) {
    uninstallParamSet();
    return 0;
  }
  installParamSet(set, reg);
  return static_cast<int>(set.size());
}

namespace {

/// Kernel-code runs shared by the forked workers of every evaluation of this process
/// (workloads/os/code_run_store.h): a fresh temporary folder, removed on exit.
class SharedCodeRuns {
 public:
  SharedCodeRuns() {
    std::error_code ec;
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
  std::string dir_;
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

/// One evaluation context: the rows, the parameters being fitted, the fixed base values.
class Evaluator {
 public:
  Evaluator(std::vector<MeasuredRow> rows, const ParamRegistry& reg, ParamSet base,
            const CalibrateOptions& opt)
      : rows_(std::move(rows)), reg_(reg), base_(std::move(base)) {
    vo_.jobs = opt.jobs;
    vo_.isolate = true;
    runner_ = validation::makeBoardRunner(opt.sourceDir + "/configs/boards", {});
  }

  const std::vector<MeasuredRow>& rows() const { return rows_; }

  /// Predictions with `params[i]` at `values[i]` (memoized on the applied values).
  const std::vector<std::optional<double>>& predict(const std::vector<const FreeParam*>& params,
                                                    const std::vector<double>& values) {
    std::vector<std::string> key;
    ParamSet set = base_;
    for (size_t i = 0; i < params.size(); ++i) {
      set.set(*params[i], values[i], "calibrate (trial)");
      key.push_back(params[i]->name() + "=" +
                    formatNumber(params[i]->integer ? std::round(values[i]) : values[i]));
    }
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    ++evaluations_;
    Point pt;
    for (size_t i = 0; i < params.size(); ++i)
      pt.values[params[i]] = params[i]->integer ? std::round(values[i]) : values[i];
    pt.key = key;
    points_.push_back(pt);
    installParamSet(set, reg_);
    auto res = validation::validate(rows_, runner_, vo_);
    std::vector<std::optional<double>> pred(rows_.size());
    for (size_t i = 0; i < res.size(); ++i)
      if (res[i].predicted && res[i].status.rfind("failed", 0) != 0 &&
          res[i].status != "not-modelled")
        pred[i] = res[i].predicted;
    return memo_[key] = std::move(pred);
  }

  int evaluations() const { return evaluations_; }

  /// An evaluated point: the trial values (parameters not named are at their base value).
  struct Point {
    std::map<const FreeParam*, double> values;
    std::vector<std::string> key;
  };
  const std::vector<Point>& points() const { return points_; }
  const std::vector<std::optional<double>>& predictionsAt(const Point& p) const {
    return memo_.at(p.key);
  }
  void restrictTo(const std::vector<size_t>& keep) {
    std::vector<MeasuredRow> r;
    for (size_t i : keep) r.push_back(rows_[i]);
    rows_ = std::move(r);
    memo_.clear();
    points_.clear();
  }

 private:
  std::vector<MeasuredRow> rows_;
  const ParamRegistry& reg_;
  ParamSet base_;
  validation::BoardRunner runner_;
  validation::ValidateOptions vo_;
  std::map<std::vector<std::string>, std::vector<std::optional<double>>> memo_;
  int evaluations_ = 0;
  std::vector<Point> points_;
};

/// Registry scopes parsed while loading `boards` (the presets those boards are built from).
std::set<std::string> scopesReadBy(const std::set<std::string>& boards, const std::string& sourceDir) {
  std::set<std::string> scopes;
  std::string configs = sourceDir + "/configs";
  auto saved = config::currentParsedFileHook();
  config::setParsedFileHook([&](const std::string& path, config::Node& root) {
    scopes.insert(scopeOfFile(path, configs));
    if (saved) saved(path, root);
  });
  for (const auto& b : boards) {
    try {
      soc::loadBoard(soc::findBoardFile(b, configs + "/boards"));
    } catch (const InputError&) {
      // A board without a config reads nothing; its rows are not predicted anyway.
    }
  }
  config::setParsedFileHook(saved);
  return scopes;
}

bool hasPrefix(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<FamilyFit> familyFits(const std::vector<MeasuredRow>& rows,
                                  const std::vector<std::optional<double>>& before,
                                  const std::vector<std::optional<double>>& after,
                                  const std::vector<std::string>& families) {
  std::vector<FamilyFit> out;
  for (const auto& f : families) {
    std::vector<double> eb, ea;
    bool pp = false;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].family != f) continue;
      pp = pp || isPp(rows[i]);
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
  std::ofstream md(dir + "/" + g.group + ".md", std::ios::binary);
  md << "# Calibration report: " << g.group << "\n\n"
     << "Written by `socsim calibrate --family " << (g.families.empty() ? g.group : g.families.front().family)
     << "`; per-row predictions in `" << g.group << ".csv`; fitted values in `calibration/params/"
     << g.group << ".yaml`.\n\n"
     << "- rows used: " << g.rowsUsed << " (scored rows the model predicts; flagged rows excluded by "
     << "`socsim validate --policy`; " << g.rowsNotPredicted << " scored rows not predicted)\n"
     << "- candidates: " << g.candidates << ", screened: " << g.screened << ", budget: " << g.budget
     << " (1 per 10 rows), fitted: " << g.fitted.size() << "\n"
     << "- loss (mean Cauchy(0.25) of the log error, data term only): before " << formatSig(g.lossBefore, 5)
     << ", after " << formatSig(g.lossAfter, 5) << "\n"
     << "- evaluations: " << g.evaluations << ", " << formatSig(g.seconds, 3) << " s\n\n"
     << "| family | rows | MdAPE before | MdAPE after |\n| --- | --- | --- | --- |\n";
  for (const auto& f : g.families)
    md << "| " << f.family << " | " << f.rows << " | "
       << (f.pp ? formatSig(f.mdapeBefore, 3) + " pp" : pct(f.mdapeBefore) + " %") << " | "
       << (f.pp ? formatSig(f.mdapeAfter, 3) + " pp" : pct(f.mdapeAfter) + " %") << " |\n";
  md << "\n| parameter | default | fitted | unit | screen sensitivity |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& p : g.fitted)
    md << "| " << p.name << " | " << formatNumber(p.defaultValue) << " | " << formatNumber(p.value)
       << " | " << p.unit << " | " << formatSig(p.sensitivity, 3) << " |\n";
  md << "\nLeave-one-board-out (each board's rows predicted at the evaluated point that fits the "
        "other boards best; `no-donor`: the board's fitted components have no other board):\n\n"
     << "| family | LOBO rows | LOBO MdAPE | 80 % interval (log error or pp/100) | LOBO rows inside "
        "(other boards' quantiles) |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& f : g.intervals)
    md << "| " << f.family << " | " << f.rows << " | "
       << (f.pp ? formatSig(f.loboMdape, 3) + " pp" : pct(f.loboMdape) + " %") << " | "
       << formatSig(f.q10, 3) << " .. " << formatSig(f.q90, 3) << " | "
       << (f.coverageRows ? pct(f.coverage) + " % of " + std::to_string(f.coverageRows) : "n/a")
       << " |\n";
  int noDonor = 0;
  for (const auto& c : g.lobo) noDonor += c.status == "no-donor" ? 1 : 0;
  md << "\nBoards without a donor: " << noDonor << " of " << g.lobo.size() << "\n";
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

GroupResult fitGroup(const FitGroup& group, const std::vector<MeasuredRow>& all,
                     const ParamRegistry& reg, const CalibrateOptions& opt) {
  auto t0 = std::chrono::steady_clock::now();
  std::ostream* log = opt.log;
  GroupResult g;
  g.group = group.name;
  std::string paramsDir = opt.sourceDir + "/calibration/params";
  std::string ownFile = group.name + ".yaml";
  // Values of the other groups stay fixed; this group's own file is refitted from the defaults.
  ParamSet base = readParamDir(paramsDir, reg);
  base.eraseOrigin(ownFile);

  std::vector<MeasuredRow> rows;
  std::set<std::string> boards;
  for (const auto& r : all)
    if (std::find(group.families.begin(), group.families.end(), r.family) != group.families.end() &&
        !r.board.empty() && !validation::exclusionReason(r)) {
      rows.push_back(r);
      boards.insert(r.board);
    }
  if (rows.empty()) {
    g.note = "no scored measured rows";
    return g;
  }
  Evaluator ev(rows, reg, base, opt);
  auto start = ev.predict({}, {});
  std::vector<size_t> keep;
  for (size_t i = 0; i < start.size(); ++i)
    if (start[i]) keep.push_back(i);
  g.rowsNotPredicted = static_cast<int>(rows.size() - keep.size());
  ev.restrictTo(keep);
  rows = ev.rows();
  g.rowsUsed = static_cast<int>(rows.size());
  g.budget = g.rowsUsed / 10;
  std::vector<std::optional<double>> before;
  for (size_t i : keep) before.push_back(start[i]);
  g.lossBefore = lossOf(rows, before);
  if (log)
    *log << "calibrate " << group.name << ": " << g.rowsUsed << " rows used (" << g.rowsNotPredicted
         << " scored rows not predicted), loss " << formatSig(g.lossBefore, 5) << "\n";

  // Candidates: free numeric parameters of the stage's folders that these rows read.
  std::set<std::string> read;
  std::map<std::string, int> boardsReading;  // scope -> boards whose rows read it
  std::map<std::string, std::set<std::string>> scopesOfBoard;
  for (const auto& b : boards)
    for (const auto& sc : scopesReadBy({b}, opt.sourceDir)) {
      read.insert(sc);
      scopesOfBoard[b].insert(sc);
      ++boardsReading[sc];
    }
  std::vector<const FreeParam*> cand;
  for (const auto& p : reg.params()) {
    if (!p.numeric || p.hi <= p.lo || base.find(p.scope, p.key)) continue;
    bool inStage = false;
    for (const auto& pre : group.scopePrefixes)
      inStage = inStage || hasPrefix(p.scope, pre) || p.scope + "/" == pre ||
                p.scope == pre;
    if (!inStage) continue;
    bool readByRows = p.scopeKind == ScopeKind::Workload || read.count(p.scope);
    if (!readByRows) continue;
    cand.push_back(&p);
  }
  // Screen the families' own workload profiles first, then the shared components, then the
  // shared base profiles (a capped screen keeps the nearest parameters).
  auto rank = [&](const FreeParam* p) {
    for (const auto& f : group.families)
      if (hasPrefix(p->scope, "workloads/" + f)) return 0;
    return p->scopeKind == ScopeKind::Workload ? 2 : 1;
  };
  // Within a rank, parameters shared by more boards come first (more rows constrain them).
  std::stable_sort(cand.begin(), cand.end(), [&](const FreeParam* a, const FreeParam* b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return boardsReading[a->scope] > boardsReading[b->scope];
  });
  g.candidates = static_cast<int>(cand.size());
  if (static_cast<int>(cand.size()) > opt.maxScreen) cand.resize(static_cast<size_t>(opt.maxScreen));

  // Sensitivity screen: one step per candidate, keep the ones that move predictions most.
  std::vector<double> defaults;
  for (auto* p : cand) defaults.push_back(p->defaultValue);
  std::vector<std::pair<double, size_t>> sens;
  for (size_t k = 0; k < cand.size(); ++k) {
    const FreeParam& p = *cand[k];
    double u0 = toUnit(p, p.defaultValue);
    double u = u0 + 0.25 <= 1 ? u0 + 0.25 : u0 - 0.25;
    double v = fromUnit(p, u);
    if (p.integer && v == p.defaultValue) v = std::clamp(v + (u > u0 ? 1 : -1), p.lo, p.hi);
    if (v == p.defaultValue) continue;
    auto pred = ev.predict({&p}, {v});
    double s = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      double d = residual(rows[i], pred[i]) - residual(rows[i], before[i]);
      s += d * d;
    }
    s = std::sqrt(s / static_cast<double>(rows.size()));
    ++g.screened;
    if (log)
      *log << "  screen " << p.name() << " " << p.text << " -> " << formatNumber(v)
           << ": rms change " << formatSig(s, 3) << "\n";
    if (s > 1e-9) sens.push_back({s, k});
  }
  std::sort(sens.begin(), sens.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (static_cast<int>(sens.size()) > g.budget) sens.resize(static_cast<size_t>(g.budget));
  std::vector<const FreeParam*> fit;
  std::vector<double> sensitivity;
  for (const auto& [s, k] : sens) {
    fit.push_back(cand[k]);
    sensitivity.push_back(s);
  }

  std::vector<double> best;
  for (auto* p : fit) best.push_back(p->defaultValue);
  g.lossAfter = g.lossBefore;
  if (!fit.empty()) {
    std::vector<double> x0;
    for (auto* p : fit) x0.push_back(toUnit(*p, p->defaultValue));
    struct Ctx {
      Evaluator* ev;
      const std::vector<const FreeParam*>* fit;
      const std::vector<double>* x0;
      int calls = 0;
    } ctx{&ev, &fit, &x0};
    auto objective = [](const std::vector<double>& x, std::vector<double>&, void* data) -> double {
      auto* c = static_cast<Ctx*>(data);
      std::vector<double> v;
      double reg = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        v.push_back(fromUnit(*(*c->fit)[i], x[i]));
        double d = x[i] - (*c->x0)[i];
        reg += d * d;
      }
      ++c->calls;
      return lossOf(c->ev->rows(), c->ev->predict(*c->fit, v)) + kRegularization * reg;
    };
    nlopt::opt o(opt.algorithm == "bobyqa" ? nlopt::LN_BOBYQA : nlopt::LN_SBPLX,
                 static_cast<unsigned>(fit.size()));
    o.set_lower_bounds(std::vector<double>(fit.size(), 0.0));
    o.set_upper_bounds(std::vector<double>(fit.size(), 1.0));
    o.set_min_objective(objective, &ctx);
    o.set_maxeval(opt.maxEvaluations);
    o.set_maxtime(opt.maxSecondsPerGroup);
    o.set_xtol_abs(1e-3);
    o.set_ftol_rel(1e-4);
    o.set_initial_step(std::vector<double>(fit.size(), 0.15));
    std::vector<double> x = x0;
    double f = 0;
    try {
      o.optimize(x, f);
    } catch (const nlopt::roundoff_limited&) {
    } catch (const std::runtime_error& e) {
      // NLopt reports a failure to converge as an exception; keep the best point it saw.
      if (log) *log << "  optimizer: " << e.what() << "\n";
    }
    // The regularized optimum; keep the defaults unless it lowers the data loss.
    std::vector<double> v;
    for (size_t i = 0; i < x.size(); ++i) v.push_back(fromUnit(*fit[i], x[i]));
    double lossFit = lossOf(rows, ev.predict(fit, v));
    if (lossFit < g.lossBefore) {
      best = v;
      g.lossAfter = lossFit;
    }
  }
  auto after = ev.predict(fit, best);
  for (size_t i = 0; i < fit.size(); ++i) {
    FittedParam fp;
    fp.name = fit[i]->name();
    fp.defaultValue = fit[i]->defaultValue;
    fp.value = fit[i]->integer ? std::round(best[i]) : best[i];
    fp.unit = fit[i]->unit;
    fp.sensitivity = sensitivity[i];
    g.fitted.push_back(fp);
  }
  g.families = familyFits(rows, before, after, group.families);

  // Leave-one-board-out: for each board, the evaluated point (defaults, screening steps and the
  // optimizer's trials over the fitted parameters) with the lowest regularized loss on the
  // other boards' rows, and that point's predictions of the board's rows.
  std::set<const FreeParam*> fitSet(fit.begin(), fit.end());
  std::set<std::string> usedBoards;
  for (const auto& r : rows) usedBoards.insert(r.board);
  std::vector<std::optional<double>> lobo(rows.size());
  std::vector<std::string> split(rows.size(), "lobo");
  std::vector<LoboChoice> choices;
  for (const auto& b : usedBoards) {
    bool readsFitted = false, donor = false;
    for (auto* p : fit) {
      bool reads = p->scopeKind == ScopeKind::Workload || scopesOfBoard[b].count(p->scope);
      if (!reads) continue;
      readsFitted = true;
      if (p->scopeKind == ScopeKind::Workload || boardsReading[p->scope] > 1) donor = true;
    }
    auto score = [&](const std::vector<std::optional<double>>& pred,
                     const std::map<const FreeParam*, double>& values) {
      double s = 0;
      int n = 0;
      for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].board != b) {
          s += rho(residual(rows[i], pred[i]));
          ++n;
        }
      double reg = 0;
      for (const auto& [p, v] : values) {
        double d = toUnit(*p, v) - toUnit(*p, p->defaultValue);
        reg += d * d;
      }
      return (n ? s / n : 0) + kRegularization * reg;
    };
    const std::vector<std::optional<double>>* bestPred = &before;
    std::map<const FreeParam*, double> bestValues;
    double bestScore = score(before, {});
    if (donor)
      for (const auto& pt : ev.points()) {
        bool inFit = true;
        for (const auto& [p, v] : pt.values) inFit = inFit && fitSet.count(p);
        if (!inFit || pt.values.empty()) continue;
        double sc = score(ev.predictionsAt(pt), pt.values);
        if (sc < bestScore) {
          bestScore = sc;
          bestPred = &ev.predictionsAt(pt);
          bestValues = pt.values;
        }
      }
    LoboChoice c;
    c.board = b;
    c.status = readsFitted && !donor ? "no-donor" : "lobo";
    for (auto* p : fit) {
      auto it = bestValues.find(p);
      c.values.push_back({p, it == bestValues.end() ? p->defaultValue : it->second});
    }
    choices.push_back(c);
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].board == b) {
        lobo[i] = (*bestPred)[i];
        split[i] = c.status;
      }
  }
  // Interval quantiles per family from the LOBO residuals; the coverage check uses, for each
  // row, the quantiles of the other boards' residuals only.
  for (const auto& f : group.families) {
    std::vector<double> e;
    bool pp = false;
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].family == f && split[i] == "lobo") {
        e.push_back(residual(rows[i], lobo[i]));
        pp = pp || isPp(rows[i]);
      }
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
      if (rows[i].family != f || split[i] != "lobo") continue;
      std::vector<double> others;
      for (size_t j = 0; j < rows.size(); ++j)
        if (rows[j].family == f && split[j] == "lobo" && rows[j].board != rows[i].board)
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
    writeParamFile(paramsDir + "/" + ownFile, info, vals);
    writeReport(opt.sourceDir + "/calibration/reports", g, rows, before, after);
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

std::vector<GroupResult> calibrate(const std::vector<MeasuredRow>& rows,
                                   const CalibrateOptions& opt) {
  SharedCodeRuns shared;
  auto saved = config::currentParsedFileHook();
  auto reg = ParamRegistry::scan(opt.sourceDir + "/configs");
  std::vector<GroupResult> out;
  for (const FitGroup* g : selectGroups(opt)) out.push_back(fitGroup(*g, rows, reg, opt));
  config::setParsedFileHook(saved);
  return out;
}

std::vector<CheckResult> checkCalibration(const std::vector<MeasuredRow>&,
                                          const CalibrateOptions& opt) {
  SharedCodeRuns shared;
  auto saved = config::currentParsedFileHook();
  auto reg = ParamRegistry::scan(opt.sourceDir + "/configs");
  ParamSet committed = readParamDir(opt.sourceDir + "/calibration/params", reg);
  std::vector<CheckResult> out;
  for (const FitGroup* g : selectGroups(opt)) {
    std::string report = opt.sourceDir + "/calibration/reports/" + g->name + ".csv";
    if (!fs::exists(report)) continue;
    CheckResult c;
    c.group = g->name;
    std::ifstream in(report, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto records = csv::parse(text, report);
    std::vector<MeasuredRow> rows;
    std::vector<std::optional<double>> committedPred;
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
      committedPred.push_back(f[9].empty() ? std::nullopt
                                           : std::optional<double>(std::strtod(f[9].c_str(), nullptr)));
    }
    c.rows = static_cast<int>(rows.size());
    Evaluator ev(rows, reg, committed, opt);
    auto now = ev.predict({}, {});
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
      double tol = famNow[i].pp ? 0.5 : 0.005;
      famOk = std::abs(famNow[i].mdapeAfter - famCommitted[i].mdapeAfter) <= tol;
      fams += " " + famNow[i].family + " MdAPE " +
              (famNow[i].pp ? formatSig(famNow[i].mdapeAfter, 3) + " pp"
                            : pct(famNow[i].mdapeAfter) + " %") +
              " (committed " +
              (famCommitted[i].pp ? formatSig(famCommitted[i].mdapeAfter, 3) + " pp"
                                  : pct(famCommitted[i].mdapeAfter) + " %") +
              ")";
    }
    bool lossOk = std::abs(c.lossNow - c.lossCommitted) <= 0.02 * c.lossCommitted + 1e-12;
    c.ok = famOk && lossOk;
    c.message = std::string(c.ok ? "ok" : "MISMATCH") + ": loss " + formatSig(c.lossNow, 5) +
                " (committed " + formatSig(c.lossCommitted, 5) + ");" + fams + "; " +
                std::to_string(c.rowsDrifted) + "/" + std::to_string(c.rows) +
                " rows differ from the report by more than 1e-6";
    out.push_back(c);
  }
  config::setParsedFileHook(saved);
  return out;
}

}  // namespace socsim::calib
