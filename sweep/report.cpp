#include "sweep/report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "sweep/local_backend.h"
#include "sweep/plot.h"
#include "sweep/summary.h"

namespace socsim::sweep {

namespace fs = std::filesystem;

namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

const char* kStyle = R"(<style>
body{font-family:'DejaVu Sans',Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}h3{font-size:15px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:left}th{background:#f0f0f4}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:inline-block;height:9px;background:#5b7fc7;vertical-align:middle}
.plots{display:flex;flex-wrap:wrap;gap:10px}.plots figure{margin:0;width:640px}
.plots img{width:640px;height:384px;border:1px solid #ddd}figcaption{font-size:11px;color:#555}
.note{color:#555;font-size:12px}pre{background:#f6f6f6;padding:8px;font-size:11px;overflow:auto}
</style>)";

std::string head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>" +
         kStyle + "</head><body>\n<h1>" + esc(title) + "</h1>\n";
}

std::string num(double v, int digits = 4) { return formatSig(v, digits); }

/// Plot figures grouped under their headings (in first-seen order).
std::string figures(const std::vector<PlotFile>& plots) {
  std::ostringstream os;
  std::vector<std::string> groups;
  for (const auto& p : plots)
    if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
  for (const auto& g : groups) {
    os << "<h3>" << esc(g) << "</h3>\n<div class=\"plots\">\n";
    for (const auto& p : plots)
      if (p.group == g)
        os << "<figure><a href=\"" << esc(p.name) << ".svg\"><img src=\"" << esc(p.name) << ".png\" alt=\""
           << esc(p.title) << "\"></a><figcaption>" << esc(p.title) << "</figcaption></figure>\n";
    os << "</div>\n";
  }
  return os.str();
}

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream os(path, std::ios::binary);
  if (!os) throw InputError(path, 0, "--report", "cannot write the report");
  os << text;
}

}  // namespace

void writeSweepReport(const ResultsDb& db, const SweepInfo& info, const std::string& dir) {
  fs::create_directories(dir);
  auto rows = db.results(info.id);
  auto points = db.points(info.id);
  std::ostringstream os;
  os << head("socsim sweep " + info.name);
  // Metadata.
  double runSum = 0;
  int timed = 0;
  std::map<std::string, int> backends;
  for (const auto& p : points) {
    if (p.runSeconds) runSum += *p.runSeconds, ++timed;
    if (p.status != "pending") backends[p.backend + (p.host.empty() ? "" : " on " + p.host)]++;
  }
  os << "<table>\n";
  auto meta = [&](const std::string& k, const std::string& v) { os << "<tr><th>" << esc(k) << "</th><td>" << esc(v) << "</td></tr>\n"; };
  meta("sweep id", info.id);
  meta("spec", info.specFile);
  meta("sampling", info.method);
  meta("points", std::to_string(info.points) + " (" + std::to_string(info.ok) + " ok, " + std::to_string(info.failed) +
                     " failed, " + std::to_string(info.pending) + " not run)");
  std::string keys;
  for (const auto& k : info.keys) keys += (keys.empty() ? "" : ", ") + k;
  meta("swept keys", keys);
  meta("socsim version", info.socsimVersion);
  meta("calibration", info.calibration);
  meta("created (UTC)", info.createdUtc);
  std::string be;
  for (const auto& [b, n] : backends) be += (be.empty() ? "" : "; ") + b + ": " + std::to_string(n) + " points";
  meta("ran on", be);
  if (timed)
    meta("simulation time", formatDuration(runSum) + " summed over points, " + num(runSum / timed, 3) +
                                " s per point (host time of a worker process, including board load and elaboration)");
  os << "</table>\n<details><summary>spec</summary><pre>" << esc(info.specText) << "</pre></details>\n";

  // Which benchmarks move.
  auto spread = summarize(info, rows);
  os << "<h2>Which benchmarks move</h2>\n<p class=\"note\">Spread = (max - min) / mean of the predictions over the "
        "points; main effect of a key = (largest - smallest mean over the points grouped by that key's value) / mean "
        "(continuous keys in 5 bins). Prediction intervals (lo/hi, 80 %) come from the committed calibration "
        "(calibration/reports/*.intervals.csv) for the families it covers; other rows store NULL." << (info.method == "grid" ? "" : " With random or Latin-hypercube samples the groups of one key "
        "do not hold the other keys fixed, so a small main effect can be sampling imbalance of a stronger key: read it "
        "with the plots.") << "</p>\n<table><tr><th>family</th><th>benchmark</th><th>params</th><th>unit</th><th>points</th>"
        "<th>min</th><th>max</th><th>spread</th><th>main effects</th></tr>\n";
  double maxSpread = 1e-12;
  for (const auto& b : spread) maxSpread = std::max(maxSpread, b.spread);
  for (const auto& b : spread) {
    os << "<tr><td>" << esc(b.family) << "</td><td>" << esc(b.benchmark) << "</td><td>" << esc(b.params) << "</td><td>"
       << esc(b.unit) << "</td><td class=\"n\">" << b.ok << (b.notOk ? "/" + std::to_string(b.ok + b.notOk) : "")
       << "</td><td class=\"n\">" << (b.ok ? num(b.min) : "") << "</td><td class=\"n\">" << (b.ok ? num(b.max) : "")
       << "</td><td class=\"n\"><span class=\"bar\" style=\"width:" << static_cast<int>(80 * b.spread / maxSpread)
       << "px\"></span> " << (b.ok ? num(100 * b.spread, 3) + " %" : "") << "</td><td>";
    for (const auto& e : b.effects) os << esc(e.key) << " " << num(100 * e.effect, 3) << " %; ";
    os << "</td></tr>\n";
  }
  os << "</table>\n";

  // Plots.
  os << "<h2>Predicted metric vs swept parameter</h2>\n";
  if (haveGnuplot()) {
    os << figures(plotSweep(db, info, dir));
  } else {
    os << "<p class=\"note\">gnuplot not found (Debian gnuplot-nox): no plots.</p>\n";
  }

  // Failures.
  os << "<h2>Failed points</h2>\n";
  int failed = 0;
  std::ostringstream ft;
  ft << "<table><tr><th>point</th><th>board</th>";
  for (const auto& k : info.keys) ft << "<th>" << esc(k) << "</th>";
  ft << "<th>error</th></tr>\n";
  for (const auto& p : points) {
    if (p.status != "failed") continue;
    ++failed;
    ft << "<tr><td class=\"n\">" << p.index << "</td><td>" << esc(p.board) << "</td>";
    for (const auto& v : p.values) ft << "<td>" << esc(v) << "</td>";
    ft << "<td>" << esc(p.error) << "</td></tr>\n";
  }
  os << (failed ? ft.str() + "</table>\n" : "<p>none</p>\n");
  os << "</body></html>\n";
  writeFile(dir + "/index.html", os.str());
}

void writeValidateReport(const std::vector<validation::ValidationRow>& rows, const validation::Summary& summary,
                         const std::string& dir) {
  fs::create_directories(dir);
  std::vector<std::vector<std::string>> csv = {validation::validateCsvHeader()};
  for (const auto& r : rows) csv.push_back(validation::toCsvFields(r));
  std::ostringstream os;
  os << head("socsim validate");
  auto group = [&](const std::vector<validation::GroupSummary>& gs, const std::string& what,
                   const validation::GroupSummary* total) {
    os << "<table><tr><th>" << what << "</th><th>measured</th><th>predicted</th><th>scored</th><th>not modelled</th>"
       << "<th>failed</th><th>excluded</th><th>MdAPE</th><th>within 10 %</th><th>within 25 %</th>"
       << "<th>median |pp|</th></tr>\n";
    auto row = [&](const validation::GroupSummary& g) {
      os << "<tr><td>" << esc(g.name) << "</td><td class=\"n\">" << g.measured << "</td><td class=\"n\">" << g.predicted
         << "</td><td class=\"n\">" << g.counted << "</td><td class=\"n\">" << g.notModelled << "</td><td class=\"n\">"
         << g.failed << "</td><td class=\"n\">" << g.excluded << "</td><td class=\"n\">"
         << (g.rel.n ? num(100 * g.rel.median, 3) + " %" : "") << "</td><td class=\"n\">"
         << (g.rel.n ? num(100 * g.rel.within10, 3) + " %" : "") << "</td><td class=\"n\">"
         << (g.rel.n ? num(100 * g.rel.within25, 3) + " %" : "") << "</td><td class=\"n\">"
         << (g.pp.n ? num(g.pp.median, 3) : "") << "</td></tr>\n";
    };
    for (const auto& g : gs) row(g);
    if (total) {
      auto t = *total;
      t.name = "all";
      row(t);
    }
    os << "</table>\n";
  };
  os << "<p class=\"note\">Relative error (predicted - measured) / measured for rates, times and scores; CPU load and "
        "loss in percentage points. Rows with flags are predicted but not scored (socsim validate --policy).</p>\n";
  os << "<h2>Per family</h2>\n";
  group(summary.families, "family", &summary.total);
  os << "<h2>Per board</h2>\n";
  group(summary.boards, "board", nullptr);
  os << "<h2>Plots</h2>\n";
  if (haveGnuplot()) os << figures(plotValidation(csv, dir));
  else os << "<p class=\"note\">gnuplot not found (Debian gnuplot-nox): no plots.</p>\n";
  os << "<h2>Rows not scored</h2>\n<table><tr><th>board</th><th>family</th><th>benchmark</th><th>params</th>"
        "<th>status</th></tr>\n";
  for (const auto& r : rows) {
    if (r.status == "ok" || r.status.rfind("excluded", 0) == 0) continue;
    os << "<tr><td>" << esc(r.measured.board) << "</td><td>" << esc(r.measured.family) << "</td><td>"
       << esc(r.measured.benchmark) << "</td><td>" << esc(r.measured.params) << "</td><td>"
       << esc(r.status + (r.note.empty() ? "" : ": " + r.note)) << "</td></tr>\n";
  }
  os << "</table>\n</body></html>\n";
  writeFile(dir + "/index.html", os.str());
}

std::vector<std::string> referencedImages(const std::string& html) {
  static const std::regex img(R"re(<img[^>]*\ssrc="([^"]*)")re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), img); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1].str());
  return out;
}

}  // namespace socsim::sweep
