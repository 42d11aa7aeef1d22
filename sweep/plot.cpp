#include "sweep/plot.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "sweep/slurm_backend.h"
#include "sweep/summary.h"

namespace socsim::sweep {

namespace fs = std::filesystem;

namespace {

/// gnuplot single-quoted string.
std::string gq(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string fmtNum(double v) { return formatNumber(v); }

}  // namespace

std::string safeName(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return out.empty() ? "plot" : out;
}

SeriesLook seriesLook(int look) {
  // Tableau 10: ten colours that stay apart for colour-blind readers and in print.
  static const char* const kColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                         "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  static const int kPoints[] = {7, 9, 5, 11, 13};  // circle, triangle, square, down-triangle, diamond
  constexpr int kColourCount = 10, kShapes = 5;
  const int i = std::max(0, look);
  const int round = (i / kColourCount) % kShapes;
  return {kColours[i % kColourCount], kPoints[round], 1 + round};
}

bool haveGnuplot() {
  std::string out;
  return runProgram({"gnuplot", "--version"}, out) == 0;
}

void renderPlot(const PlotSpec& spec, const std::string& dir, const std::string& name) {
  fs::create_directories(dir);
  std::string base = (fs::absolute(dir) / name).string();
  std::ostringstream gp;
  gp << "# socsim plot: " << spec.title << "\n";
  for (size_t i = 0; i < spec.series.size(); ++i) {
    gp << "$d" << i << " << EOD\n";
    for (const auto& [x, y] : spec.series[i].xy)
      if (std::isfinite(x) && std::isfinite(y)) gp << fmtNum(x) << " " << fmtNum(y) << "\n";
    gp << "EOD\n";
  }
  gp << "set title " << gq(spec.title) << "\n"
     << "set xlabel " << gq(spec.xlabel) << "\nset ylabel " << gq(spec.ylabel) << "\n"
     << "set grid\nset key outside right top box\n";
  if (spec.xrange) gp << "set xrange [" << fmtNum(spec.xrange->first) << ":" << fmtNum(spec.xrange->second) << "]\n";
  if (spec.logx) gp << "set logscale x\n";
  if (spec.logy) gp << "set logscale y\n";
  if (spec.ratioBands) {
    gp << "set xrange [" << fmtNum(spec.bandLo) << ":" << fmtNum(spec.bandHi) << "]\n"
       << "set yrange [" << fmtNum(spec.bandLo) << ":" << fmtNum(spec.bandHi) << "]\nset samples 200\n";
  }
  bool boxes = std::any_of(spec.series.begin(), spec.series.end(), [](const Series& s) { return s.style == "boxes"; });
  if (boxes) gp << "set style fill solid 0.6 border -1\nset boxwidth 0.9 relative\nset yrange [0:*]\n";
  std::ostringstream plot;
  plot << "plot ";
  bool first = true;
  auto sep = [&]() -> std::ostream& {
    if (!first) plot << ", \\\n     ";
    first = false;
    return plot;
  };
  if (spec.ratioBands) {
    sep() << "'+' using 1:(0.75*$1):(1.25*$1) with filledcurves lc rgb '#e8e8f8' title '+/-25 %'";
    sep() << "'+' using 1:(0.9*$1):(1.1*$1) with filledcurves lc rgb '#c8d8f0' title '+/-10 %'";
    sep() << "x with lines lc rgb '#404040' dt 2 title 'predicted = measured'";
  }
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const auto& s = spec.series[i];
    sep() << "$d" << i << " using 1:2 with " << s.style;
    const SeriesLook look = seriesLook(s.look >= 0 ? s.look : static_cast<int>(i));
    plot << " lc rgb '" << look.colour << "'";
    if (s.style == "linespoints" || s.style == "points") plot << " pt " << look.pointType << " ps 0.8";
    if (s.style == "linespoints" || s.style == "lines") plot << " lw 1.5 dt " << look.dashType;
    plot << " title " << gq(s.title);
  }
  gp << "set terminal pngcairo noenhanced size 960,576 font 'DejaVu Sans,11'\n"
     << "set output " << gq(base + ".png") << "\n"
     << plot.str() << "\n"
     << "set terminal svg noenhanced size 960,576 dynamic font 'DejaVu Sans,11'\n"
     << "set output " << gq(base + ".svg") << "\n"
     << "replot\nunset output\n";
  {
    std::ofstream os(base + ".gp");
    os << gp.str();
  }
  std::string out, err;
  int rc = runProgram({"gnuplot", base + ".gp"}, out, &err);
  if (rc == -1) throw InputError("", 0, "plot", "gnuplot not found (Debian package gnuplot-nox; scripts/install-deps.sh)");
  if (rc != 0) throw InputError(base + ".gp", 0, "plot", "gnuplot failed: " + err);
}

std::vector<PlotFile> plotSweep(const ResultsDb& db, const SweepInfo& info, const std::string& dir,
                                const std::string& glob, const std::string& xKey) {
  if (info.keys.empty()) return {};
  size_t xi = 0;
  if (!xKey.empty()) {
    auto it = std::find(info.keys.begin(), info.keys.end(), xKey);
    if (it == info.keys.end()) {
      std::string keys;
      for (const auto& k : info.keys) keys += (keys.empty() ? "" : ", ") + k;
      throw InputError("", 0, "--x", "'" + xKey + "' is not a swept key of " + info.name + " (" + keys + ")");
    }
    xi = static_cast<size_t>(it - info.keys.begin());
  }
  bool grid = info.method == "grid";
  auto rows = db.results(info.id);
  // Group by benchmark row identity, then by series label.
  std::vector<std::string> order;
  std::map<std::string, std::map<std::string, Series>> plots;
  std::map<std::string, const ResultRow*> firstRow;
  std::set<std::string> multiBoard;
  for (const auto& r : rows) multiBoard.insert(r.board);
  // Samples (random/LHS): colour the points by the other key with the largest main effect on
  // that benchmark (summary.h), so the bands a plot shows are named.
  std::map<std::string, size_t> colourKey;
  for (const auto& b : summarize(info, rows)) {
    std::string id = b.board + "|" + b.family + "|" + b.benchmark + "|" + b.metric + "|" + b.params;
    colourKey[id] = xi == 0 ? 1 : 0;
    for (const auto& e : b.effects) {
      size_t k = static_cast<size_t>(std::find(info.keys.begin(), info.keys.end(), e.key) - info.keys.begin());
      if (k != xi && k < info.keys.size()) {
        colourKey[id] = k;
        break;
      }
    }
  }
  for (const auto& r : rows) {
    if (r.status != "ok" || !r.predicted) continue;
    if (!glob.empty() && fnmatch(glob.c_str(), r.benchmark.c_str(), 0) != 0) continue;
    std::string id = r.board + "|" + r.family + "|" + r.benchmark + "|" + r.metric + "|" + r.params;
    if (!plots.count(id)) {
      order.push_back(id);
      firstRow[id] = &r;
    }
    std::string label = multiBoard.size() > 1 ? r.board : "";
    for (size_t k = 0; k < info.keys.size() && k < r.values.size(); ++k) {
      if (k == xi) continue;
      if (!grid && k != colourKey[id]) continue;  // samples: colour by one other key only
      label += (label.empty() ? "" : ", ") + info.keys[k] + "=" + r.values[k];
    }
    auto& s = plots[id][label];
    s.title = label.empty() ? "model" : label;
    s.style = grid ? "linespoints" : "points";
    s.xy.emplace_back(numericValue(r.values[xi]), *r.predicted);
  }
  std::vector<PlotFile> out;
  for (const auto& id : order) {
    const ResultRow& r = *firstRow[id];
    PlotSpec p;
    p.title = r.benchmark + (r.params.empty() ? "" : " (" + r.params + ")") + " on " + r.board + " - sweep " + info.name;
    bool size = !r.values.empty() && r.values[xi].find("iB") != std::string::npos;
    p.xlabel = info.keys[xi] + (size ? " (KiB)" : "");
    p.ylabel = (r.metric == "perf" || r.metric.empty() ? r.benchmark : r.metric) + " [" + r.unit + "]";
    for (auto& [label, s] : plots[id]) {
      std::sort(s.xy.begin(), s.xy.end());
      p.series.push_back(s);
    }
    std::string name = "sweep-" + safeName(r.benchmark + (r.params.empty() ? "" : "-" + r.params)) +
                       (multiBoard.size() > 1 ? "-" + safeName(r.board) : "");
    renderPlot(p, dir, name);
    out.push_back({name, p.title, r.family});
  }
  return out;
}

double latencySizeKiB(const std::string& b) {
  static const std::regex lat(R"(^lat_mem_rd-stride([0-9]+)-sz([0-9.]+)(k?)$)");
  static const std::regex latFor(R"(^latency_for_([0-9.]+)_mb_block_size$)");
  std::smatch m;
  if (std::regex_match(b, m, lat)) {
    double n = std::strtod(m[2].str().c_str(), nullptr);
    return m[3].str().empty() ? 0.5 : n / 1000.0 * 1024.0;
  }
  if (std::regex_match(b, m, latFor)) return std::strtod(m[1].str().c_str(), nullptr) * 1024.0;
  return -1;
}

std::vector<PlotFile> plotValidation(const std::vector<std::vector<std::string>>& csv, const std::string& dir) {
  if (csv.empty()) return {};
  const auto& h = csv.front();
  auto col = [&](const char* name) -> size_t {
    auto it = std::find(h.begin(), h.end(), name);
    if (it == h.end()) throw InputError("", 1, name, "not a socsim validate CSV: no column '" + std::string(name) + "'");
    return static_cast<size_t>(it - h.begin());
  };
  size_t cBoard = col("board"), cFam = col("family"), cBench = col("benchmark"), cMeas = col("measured"),
         cPred = col("predicted"), cErr = col("error"), cKind = col("error_kind"), cStatus = col("status");
  struct Row {
    std::string board, family, benchmark;
    double measured, predicted, error;
  };
  std::vector<Row> ok;
  for (size_t i = 1; i < csv.size(); ++i) {
    const auto& r = csv[i];
    if (r.size() < h.size() || r[cStatus] != "ok" || r[cKind] != "rel" || r[cPred].empty() || r[cMeas].empty()) continue;
    Row x{r[cBoard], r[cFam], r[cBench], std::strtod(r[cMeas].c_str(), nullptr),
          std::strtod(r[cPred].c_str(), nullptr), std::strtod(r[cErr].c_str(), nullptr)};
    ok.push_back(x);
  }
  std::vector<PlotFile> out;
  std::vector<std::string> families;
  for (const auto& r : ok)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  // Each board keeps one look (colour, point type) in every family's plot.
  std::map<std::string, int> boardLook;
  for (const auto& r : ok) boardLook.emplace(r.board, 0);
  int nextLook = 0;
  for (auto& entry : boardLook) entry.second = nextLook++;

  auto histogram = [&](const std::vector<double>& errs, const std::string& title, const std::string& name,
                       const std::string& group) {
    // 10 % bins from -100 % to +100 %; the outer bins collect everything beyond.
    std::map<int, int> bins;
    for (double e : errs) bins[std::clamp(static_cast<int>(std::floor(e * 10)), -10, 10)]++;
    Series s;
    s.title = "rows (" + std::to_string(errs.size()) + ")";
    s.style = "boxes";
    for (int b = -10; b <= 10; ++b) s.xy.emplace_back(b * 10 + 5, bins[b]);
    PlotSpec p;
    p.title = title;
    p.xlabel = "(predicted - measured) / measured [%]; outer bins: beyond +/-100 %";
    p.xrange = {-110, 120};
    p.ylabel = "rows";
    p.series = {s};
    renderPlot(p, dir, name);
    out.push_back({name, title, group});
  };

  std::vector<double> all;
  for (const auto& f : families) {
    PlotSpec p;
    p.title = "predicted vs measured: " + f;
    p.xlabel = "measured";
    p.ylabel = "predicted";
    p.logx = p.logy = true;
    p.ratioBands = true;
    std::map<std::string, Series> byBoard;
    double lo = INFINITY, hi = 0;
    std::vector<double> errs;
    for (const auto& r : ok) {
      if (r.family != f || r.measured <= 0 || r.predicted <= 0) continue;
      auto& s = byBoard[r.board];
      s.title = r.board;
      s.style = "points";
      s.look = boardLook.at(r.board);
      s.xy.emplace_back(r.measured, r.predicted);
      lo = std::min({lo, r.measured, r.predicted});
      hi = std::max({hi, r.measured, r.predicted});
      errs.push_back(r.error);
    }
    if (byBoard.empty()) continue;
    p.bandLo = lo / 1.5;
    p.bandHi = hi * 1.5;
    for (auto& [b, s] : byBoard) p.series.push_back(s);
    std::string name = "validate-" + safeName(f);
    renderPlot(p, dir, name);
    out.push_back({name, p.title, "predicted vs measured"});
    histogram(errs, "error histogram: " + f, "errors-" + safeName(f), "error histograms");
    all.insert(all.end(), errs.begin(), errs.end());
  }
  if (!all.empty()) histogram(all, "error histogram: all families", "errors-all", "error histograms");

  // lat_mem_rd curves per board.
  std::map<std::string, std::vector<std::vector<std::string>>> latRows;
  for (size_t i = 1; i < csv.size(); ++i) {
    const auto& r = csv[i];
    if (r.size() >= h.size() && latencySizeKiB(r[cBench]) > 0) latRows[r[cBoard]].push_back(r);
  }
  for (const auto& [board, rs] : latRows) {
    std::map<std::string, Series> meas, model;
    static const std::regex stride(R"(stride([0-9]+))");
    for (const auto& r : rs) {
      std::smatch m;
      std::string st = std::regex_search(r[cBench], m, stride) ? "stride " + m[1].str() : "latency_for";
      double kib = latencySizeKiB(r[cBench]);
      if (!r[cMeas].empty()) {
        auto& s = meas[st];
        s.title = "measured, " + st;
        s.style = "points";
        s.xy.emplace_back(kib, std::strtod(r[cMeas].c_str(), nullptr));
      }
      if (!r[cPred].empty()) {
        auto& s = model[st];
        s.title = "model, " + st;
        s.style = "linespoints";
        s.xy.emplace_back(kib, std::strtod(r[cPred].c_str(), nullptr));
      }
    }
    PlotSpec p;
    p.title = "lat_mem_rd latency vs size: " + board;
    p.xlabel = "array size (KiB)";
    p.ylabel = "latency per load [ns]";
    p.logx = true;
    for (auto* group : {&model, &meas})
      for (auto& [k, s] : *group) {
        std::sort(s.xy.begin(), s.xy.end());
        p.series.push_back(s);
      }
    std::string name = "latency-" + safeName(board);
    renderPlot(p, dir, name);
    out.push_back({name, p.title, "lat_mem_rd latency curves"});
  }
  return out;
}

}  // namespace socsim::sweep
