#include "sweep/point_run.h"

#include <fnmatch.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include "calibration/dataset/measured_row.h"
#include "calibration/fit/uncertainty.h"
#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "soc/config/board_config.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"

namespace socsim::sweep {

namespace {

bool selected(const Spec& spec, const calib::MeasuredRow& r) {
  for (const auto& sel : spec.benchmarks) {
    bool fam = sel.families.empty() ||
               std::find(sel.families.begin(), sel.families.end(), r.family) != sel.families.end();
    bool name = sel.benchmark.empty() || fnmatch(sel.benchmark.c_str(), r.benchmark.c_str(), 0) == 0;
    if (fam && name) return true;
  }
  return false;
}

}  // namespace

std::vector<std::vector<wl::Query>> selectQueries(const Spec& spec, const std::string& measuredDir) {
  auto rows = calib::readMeasuredDir(measuredDir);
  // A selector that matches no row of the dataset is a mistake (a misspelt glob, a family
  // without that benchmark), not a request for nothing.
  for (size_t i = 0; i < spec.benchmarks.size(); ++i) {
    BenchmarkSelector one = spec.benchmarks[i];
    Spec alone;
    alone.benchmarks = {one};
    if (std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return selected(alone, r); })) {
      std::string what = one.benchmark.empty() ? "" : "benchmark '" + one.benchmark + "'";
      for (size_t f = 0; f < one.families.size(); ++f)
        what += std::string(f ? "," : (what.empty() ? "family " : " in family ")) + one.families[f];
      throw InputError(spec.file, one.line, "benchmarks[" + std::to_string(i) + "]",
                       "selects no benchmark of the measured dataset (" + what +
                           "; see 'socsim measured --family F --format csv' for the names)");
    }
  }
  std::vector<std::vector<wl::Query>> out;
  for (const auto& file : spec.boardFiles) {
    // The board's name as the dataset spells it: its config's board.name.
    std::string name = soc::loadBoard(file).board.name;
    bool measured = std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return r.board == name; });
    std::set<std::tuple<std::string, std::string, std::string, std::string, std::string>> seen;
    std::vector<wl::Query> qs;
    for (const auto& r : rows) {
      if (measured && r.board != name) continue;
      if (!selected(spec, r)) continue;
      if (seen.insert({r.family, r.benchmark, r.metric, r.params, r.unit}).second)
        qs.emplace_back(r.family, r.benchmark, r.metric, r.params, r.unit);
    }
    if (qs.empty())
      throw InputError(spec.file, 0, "benchmarks", "no benchmark of the measured dataset matches the selectors for board " + name);
    out.push_back(std::move(qs));
  }
  return out;
}

PointResult runPoint(const std::string& boardFile, const Point& point, const std::vector<wl::Query>& queries) {
  auto t0 = std::chrono::steady_clock::now();
  PointResult r;
  r.index = point.index;
  std::unique_ptr<soc::BoardConfig> cfg;
  try {
    cfg = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile, point.overrides));
  } catch (const InputError& e) {
    r.error = std::string("config: ") + e.what();
    return r;
  }
  std::ostringstream yaml;
  soc::writeResolvedConfig(*cfg, yaml, {false});
  r.resolvedConfig = yaml.str();
  validation::BoardRunContext ctx(std::move(cfg));
  const auto intervals = calib::readIntervals(socsim::sourceDir());
  for (const auto& q : queries) {
    wl::Prediction p;
    auto qr = validation::predictOne(ctx, q, &p);
    calib::applyInterval(qr, q, intervals);
    PredictionRecord rec;
    switch (qr.kind) {
      case validation::QueryResult::Kind::Ok:
        rec.value = qr.value;
        rec.lo = qr.lo;
        rec.hi = qr.hi;
        rec.note = p.note;
        rec.breakdown = p.breakdown.seconds;
        break;
      case validation::QueryResult::Kind::NotModelled:
        rec.status = "not-modelled";
        rec.reason = qr.reason;
        break;
      case validation::QueryResult::Kind::Failed:
        rec.status = "failed";
        rec.reason = qr.reason;
        break;
    }
    r.predictions.push_back(std::move(rec));
  }
  r.ok = true;
  r.runSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

namespace {

// Encoding: a sequence of fields, each "<length>:<bytes>"; numbers in formatNumber's shortest
// round-trip form, optionals as "" when absent.
void put(std::string& out, const std::string& s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}
void putNum(std::string& out, double v) { put(out, formatNumber(v)); }

struct Reader {
  const std::string& s;
  size_t pos = 0;
  bool ok = true;
  std::string next() {
    size_t colon = s.find(':', pos);
    if (!ok || colon == std::string::npos || colon == pos || colon - pos > 12) {
      ok = false;
      return {};
    }
    size_t len = 0;
    for (size_t i = pos; i < colon; ++i) {
      if (s[i] < '0' || s[i] > '9') {
        ok = false;
        return {};
      }
      len = len * 10 + static_cast<size_t>(s[i] - '0');
    }
    if (colon + 1 + len > s.size()) {
      ok = false;
      return {};
    }
    pos = colon + 1 + len;
    return s.substr(colon + 1, len);
  }
  double num() {
    std::string t = next();
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end) ok = false;
    return v;
  }
  std::optional<double> opt() {
    std::string t = next();
    if (t.empty()) return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (*end) ok = false;
    return v;
  }
  size_t count() {
    double v = num();
    if (v < 0 || v > 1e8) ok = false;
    return ok ? static_cast<size_t>(v) : 0;
  }
};

}  // namespace

std::string encode(const PointResult& r) {
  std::string out = "socsim-point-v1";
  put(out, std::to_string(r.index));
  put(out, r.ok ? "1" : "0");
  put(out, r.error);
  put(out, r.resolvedConfig);
  putNum(out, r.runSeconds);
  put(out, std::to_string(r.predictions.size()));
  for (const auto& p : r.predictions) {
    put(out, p.status);
    putNum(out, p.value);
    put(out, p.lo ? formatNumber(*p.lo) : "");
    put(out, p.hi ? formatNumber(*p.hi) : "");
    put(out, p.reason);
    put(out, p.note);
    put(out, std::to_string(p.breakdown.size()));
    for (const auto& [part, s] : p.breakdown) {
      put(out, part);
      putNum(out, s);
    }
  }
  put(out, "end");
  return out;
}

bool decode(const std::string& text, PointResult& out) {
  const std::string magic = "socsim-point-v1";
  if (text.compare(0, magic.size(), magic) != 0) return false;
  Reader rd{text, magic.size()};
  PointResult r;
  r.index = static_cast<int>(rd.num());
  r.ok = rd.next() == "1";
  r.error = rd.next();
  r.resolvedConfig = rd.next();
  r.runSeconds = rd.num();
  size_t n = rd.count();
  for (size_t i = 0; i < n && rd.ok; ++i) {
    PredictionRecord p;
    p.status = rd.next();
    p.value = rd.num();
    p.lo = rd.opt();
    p.hi = rd.opt();
    p.reason = rd.next();
    p.note = rd.next();
    size_t m = rd.count();
    for (size_t k = 0; k < m && rd.ok; ++k) {
      std::string part = rd.next();
      double s = rd.num();
      p.breakdown.emplace_back(part, s);
    }
    r.predictions.push_back(std::move(p));
  }
  if (!rd.ok || rd.next() != "end" || rd.pos != text.size()) return false;
  out = std::move(r);
  return true;
}

}  // namespace socsim::sweep
