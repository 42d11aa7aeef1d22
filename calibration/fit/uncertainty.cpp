#include "calibration/fit/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <tuple>
#include <utility>

#include "common/csv.h"
#include "common/error.h"
#include "validation/metrics.h"

namespace fs = std::filesystem;

namespace socsim::calib {

namespace {

std::vector<std::vector<std::string>> readCsv(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return csv::parse(text, file);
}

std::vector<std::string> reportFiles(const std::string& sourceDir, const std::string& suffix) {
  std::vector<std::string> files;
  std::error_code ec;
  std::string dir = sourceDir + "/calibration/reports";
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

double number(const std::string& s, const std::string& file, int line, const std::string& col) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v))
    throw InputError(file, line, col, "expected a number, got '" + s + "'");
  return v;
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  size_t i = static_cast<size_t>(std::floor(pos));
  size_t j = std::min(i + 1, v.size() - 1);
  return v[i] + (pos - static_cast<double>(i)) * (v[j] - v[i]);
}

/// log(pred/meas) or (pred - meas)/100, as the fit's residual.
bool residualOf(const validation::ValidationRow& r, double& e) {
  if (!r.predicted || r.status != "ok") return false;
  if (r.errorKind == validation::ErrorKind::PercentagePoints) {
    e = (*r.predicted - r.measured.value) / 100.0;
    return true;
  }
  if (*r.predicted <= 0 || r.measured.value <= 0) return false;
  e = std::log(*r.predicted / r.measured.value);
  return true;
}

}  // namespace

std::map<std::string, FamilyInterval> readIntervals(const std::string& sourceDir) {
  std::map<std::string, FamilyInterval> out;
  for (const auto& f : reportFiles(sourceDir, ".intervals.csv")) {
    auto rec = readCsv(f);
    for (size_t i = 1; i < rec.size(); ++i) {
      const auto& r = rec[i];
      int line = static_cast<int>(i + 1);
      if (r.size() != 8)
        throw InputError(f, line, "", "expected 8 columns (family..coverage), got " + std::to_string(r.size()));
      FamilyInterval fi;
      fi.family = r[0];
      fi.pp = r[1] == "pp";
      fi.rows = static_cast<int>(number(r[2], f, line, "lobo_rows"));
      fi.q10 = number(r[3], f, line, "q10");
      fi.q90 = number(r[4], f, line, "q90");
      fi.loboMdape = number(r[5], f, line, "lobo_mdape");
      fi.coverageRows = static_cast<int>(number(r[6], f, line, "coverage_rows"));
      fi.coverage = number(r[7], f, line, "coverage");
      out[fi.family] = fi;
    }
  }
  return out;
}

void intervalFor(double predicted, bool pp, double q10, double q90, double& lo, double& hi) {
  if (pp) {
    lo = predicted - 100 * q90;
    hi = predicted - 100 * q10;
  } else {
    lo = predicted * std::exp(-q90);
    hi = predicted * std::exp(-q10);
  }
}

namespace {
/// The 80 % interval around `predicted` when `family` has committed quantiles.
std::optional<std::pair<double, double>> familyInterval(
    const std::map<std::string, FamilyInterval>& intervals, const std::string& family,
    double predicted, bool pp) {
  auto it = intervals.find(family);
  if (it == intervals.end()) return std::nullopt;
  double lo = 0, hi = 0;
  intervalFor(predicted, pp, it->second.q10, it->second.q90, lo, hi);
  return std::make_pair(lo, hi);
}
}  // namespace

void applyInterval(validation::QueryResult& r, const wl::Query& q,
                   const std::map<std::string, FamilyInterval>& intervals) {
  if (r.kind != validation::QueryResult::Kind::Ok) return;
  const bool pp = validation::errorKindFor(q.unit) == validation::ErrorKind::PercentagePoints;
  if (auto i = familyInterval(intervals, q.family, r.value, pp)) std::tie(r.lo, r.hi) = *i;
}

void applyIntervals(std::vector<validation::ValidationRow>& rows,
                    const std::map<std::string, FamilyInterval>& intervals) {
  for (auto& r : rows) {
    if (!r.predicted) continue;
    const bool pp = r.errorKind == validation::ErrorKind::PercentagePoints;
    if (auto i = familyInterval(intervals, r.measured.family, *r.predicted, pp))
      std::tie(r.lo, r.hi) = *i;
  }
}

LoboPlan readLoboPlan(const std::string& sourceDir, const ParamRegistry& reg) {
  LoboPlan plan;
  for (const auto& f : reportFiles(sourceDir, ".lobo.csv")) {
    std::string group = fs::path(f).filename().string();
    group = group.substr(0, group.size() - std::string(".lobo.csv").size());
    const FitGroup* g = nullptr;
    for (const auto& fg : fitGroups())
      if (fg.name == group) g = &fg;
    if (!g) throw InputError(f, 0, "", "no fit group named '" + group + "'");
    auto rec = readCsv(f);
    for (size_t i = 1; i < rec.size(); ++i) {
      const auto& r = rec[i];
      int line = static_cast<int>(i + 1);
      if (r.size() != 4)
        throw InputError(f, line, "", "expected 4 columns (board,split,parameter,value)");
      for (const auto& fam : g->families) plan.splitByFamilyBoard[fam][r[0]] = r[1];
      if (r[2].empty()) continue;
      const FreeParam* p = reg.find(r[2]);
      if (!p) throw InputError(f, line, "parameter", "unknown parameter '" + r[2] + "'");
      plan.valuesByBoard[r[0]].push_back({p, number(r[3], f, line, "value")});
    }
    // Families of the group with a LOBO file but boards the fit did not use: their rows are
    // out of the fit already (split lobo).
    for (const auto& fam : g->families) plan.splitByFamilyBoard[fam];
  }
  return plan;
}

validation::BoardRunner loboRunner(validation::BoardRunner inner, const ParamSet& committed,
                                   const LoboPlan& plan, const ParamRegistry& reg) {
  return [inner, committed, plan, reg](const std::string& board,
                                       const std::vector<wl::Query>& qs) {
    ParamSet set = committed;
    auto it = plan.valuesByBoard.find(board);
    if (it != plan.valuesByBoard.end())
      for (const auto& [p, v] : it->second) set.set(*p, v, "lobo refit without " + board);
    installParamSet(set, reg);
    return inner(board, qs);
  };
}

std::pair<int, int> finishLobo(std::vector<validation::ValidationRow>& rows, const LoboPlan& plan) {
  for (auto& r : rows) {
    auto f = plan.splitByFamilyBoard.find(r.measured.family);
    if (f == plan.splitByFamilyBoard.end()) {
      r.split = "in-sample";
      continue;
    }
    auto b = f->second.find(r.measured.board);
    r.split = b == f->second.end() ? "lobo" : b->second;
  }
  int checked = 0, inside = 0;
  for (auto& r : rows) {
    r.lo.reset();
    r.hi.reset();
    if (r.split != "lobo" || !r.predicted) continue;
    std::vector<double> others;
    for (const auto& o : rows) {
      double e = 0;
      if (o.split == "lobo" && o.measured.family == r.measured.family &&
          o.measured.board != r.measured.board && residualOf(o, e))
        others.push_back(e);
    }
    if (others.size() < 5) continue;
    double q10 = quantile(others, 0.1), q90 = quantile(others, 0.9), lo = 0, hi = 0;
    intervalFor(*r.predicted, r.errorKind == validation::ErrorKind::PercentagePoints, q10, q90, lo,
                hi);
    r.lo = lo;
    r.hi = hi;
    double e = 0;
    if (residualOf(r, e)) {
      ++checked;
      if (e >= q10 && e <= q90) ++inside;
    }
  }
  return {checked, inside};
}

}  // namespace socsim::calib
