#include "calibration/fit/uncertainty.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
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
      out[intervalKey(fi.family, fi.pp)] = fi;
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
  auto it = intervals.find(intervalKey(family, pp));
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

std::string cvSplitName(const std::string& mode) { return mode == "release" ? "holdout" : "lobo"; }

std::vector<validation::ValidationRow> validateCv(const std::vector<MeasuredRow>& rows,
                                                  const validation::BoardRunner& inner,
                                                  const validation::ValidateOptions& vo,
                                                  const CvPlan& plan, const ParamSet& committed,
                                                  const ParamRegistry& reg,
                                                  std::pair<int, int>* coverage) {
  auto setFor = [&](const std::string& unit) {
    ParamSet set = committed;
    auto it = plan.valuesByUnit.find(unit);
    if (it != plan.valuesByUnit.end())
      for (const auto& [name, v] : it->second) {
        const FreeParam* p = reg.find(name);
        if (!p) throw std::logic_error("cv refit of unknown parameter " + name);
        set.set(*p, v, "cv refit without " + unit);
      }
    return set;
  };
  // A unit whose fold a stop signal cut (plan.interrupted) has no refit values: its rows are
  // failed:interrupted, not predicted with the committed (in-sample) values.
  auto interrupted = [](const std::vector<wl::Query>& qs) {
    std::vector<validation::QueryResult> v(qs.size());
    for (auto& r : v) {
      r.kind = validation::QueryResult::Kind::Failed;
      r.reason = "interrupted";
    }
    return v;
  };
  std::vector<validation::ValidationRow> out;
  if (plan.mode != "release") {
    // The unit is the board: each worker installs its board's refit values.
    validation::BoardRunner runner = [inner, setFor, &reg, &plan, interrupted](
                                         const std::string& board,
                                         const std::vector<wl::Query>& qs) {
      if (plan.interrupted.count(board)) return interrupted(qs);
      installParamSet(setFor(board), reg);
      return inner(board, qs);
    };
    out = validation::validate(rows, runner, vo);
  } else {
    std::map<std::string, std::vector<size_t>> byUnit;
    for (size_t i = 0; i < rows.size(); ++i) byUnit[cvUnit(rows[i], plan.mode)].push_back(i);
    out.resize(rows.size());
    for (const auto& [unit, idx] : byUnit) {
      std::vector<MeasuredRow> sub;
      for (size_t i : idx) sub.push_back(rows[i]);
      installParamSet(setFor(unit), reg);
      validation::BoardRunner cut = [interrupted](const std::string&,
                                                  const std::vector<wl::Query>& qs) {
        return interrupted(qs);
      };
      auto res = validation::validate(sub, plan.interrupted.count(unit) ? cut : inner, vo);
      for (size_t k = 0; k < idx.size(); ++k) out[idx[k]] = std::move(res[k]);
    }
  }
  if (committed.empty())
    uninstallParamSet();
  else
    installParamSet(committed, reg);
  auto counts = finishCv(out, plan);
  if (coverage) *coverage = counts;
  return out;
}

std::pair<int, int> finishCv(std::vector<validation::ValidationRow>& rows, const CvPlan& plan) {
  const std::string name = cvSplitName(plan.mode);
  for (auto& r : rows) {
    const auto& m = r.measured;
    if (std::find(plan.families.begin(), plan.families.end(), m.family) == plan.families.end()) {
      r.split = "in-sample";
      continue;
    }
    bool nd = plan.noDonor.count(m.family + '\x1f' + cvUnit(m, plan.mode) + '\x1f' + m.board) > 0;
    r.split = nd ? "no-donor" : name;
  }
  int checked = 0, inside = 0;
  for (auto& r : rows) {
    r.lo.reset();
    r.hi.reset();
    if (r.split != name || !r.predicted) continue;
    std::string unit = cvUnit(r.measured, plan.mode);
    std::vector<double> others;
    for (const auto& o : rows) {
      double e = 0;
      if (o.split == name && o.measured.family == r.measured.family &&
          o.errorKind == r.errorKind && cvUnit(o.measured, plan.mode) != unit && residualOf(o, e))
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

std::map<std::string, std::pair<int, int>> cvCoverageByFamily(
    const std::vector<validation::ValidationRow>& rows, const CvPlan& plan) {
  const std::string name = cvSplitName(plan.mode);
  std::map<std::string, std::pair<int, int>> out;
  for (const auto& r : rows) {
    double e = 0;
    if (r.split != name || !r.lo || !r.hi || !residualOf(r, e)) continue;
    auto& c = out[intervalKey(r.measured.family,
                              r.errorKind == validation::ErrorKind::PercentagePoints)];
    ++c.first;
    if (r.measured.value >= *r.lo && r.measured.value <= *r.hi) ++c.second;
  }
  return out;
}

std::map<std::string, CvFamilySummary> cvFamilySummary(
    const std::vector<validation::ValidationRow>& rows, const CvPlan& plan) {
  const std::string name = cvSplitName(plan.mode);
  std::map<std::string, std::vector<double>> held, noDonor;
  std::map<std::string, CvFamilySummary> out;
  for (const auto& r : rows) {
    if (r.status != "ok" || !r.predicted) continue;
    if (r.split != name && r.split != "no-donor") continue;
    const bool pp = r.errorKind == validation::ErrorKind::PercentagePoints;
    const std::string key = intervalKey(r.measured.family, pp);
    auto& s = out[key];
    s.family = r.measured.family;
    s.pp = pp;
    (r.split == name ? held : noDonor)[key].push_back(std::abs(r.error));
  }
  for (auto& [key, s] : out) {
    const auto kind = s.pp ? validation::ErrorKind::PercentagePoints : validation::ErrorKind::Relative;
    auto h = held.find(key);
    if (h != held.end()) {
      s.rows = static_cast<int>(h->second.size());
      auto e = validation::summarize(h->second, kind);
      s.mdape = e.median;
      s.within25 = e.within25;
    }
    auto n = noDonor.find(key);
    if (n != noDonor.end()) {
      s.noDonor = static_cast<int>(n->second.size());
      s.noDonorMdape = validation::summarize(n->second, kind).median;
    }
  }
  for (const auto& [key, c] : cvCoverageByFamily(rows, plan)) {
    auto it = out.find(key);
    if (it == out.end()) continue;
    it->second.checked = c.first;
    it->second.inside = c.second;
  }
  return out;
}

}  // namespace socsim::calib
