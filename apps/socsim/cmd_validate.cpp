// socsim validate [--board B] [--family F] [--format table|csv|json] [--measured FILE...]
//                 [--jobs N] [--out DIR] [--policy]
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"
#include "validation/board_runner.h"
#include "validation/cross_guide.h"
#include "validation/validate.h"

namespace socsim::app {

namespace {

std::string pct(double frac) { return formatSig(100.0 * frac, 3); }

void addSummaryRow(Table& t, const validation::GroupSummary& g) {
  auto cov = g.measured ? static_cast<double>(g.predicted) / g.measured : 0.0;
  t.addRow({g.name, std::to_string(g.measured), std::to_string(g.predicted), pct(cov),
            std::to_string(g.counted), std::to_string(g.excluded), std::to_string(g.notModelled),
            std::to_string(g.failed), g.rel.n ? pct(g.rel.median) : "",
            g.rel.n ? pct(g.rel.within10) : "", g.rel.n ? pct(g.rel.within25) : "",
            g.pp.n ? formatSig(g.pp.median, 3) : ""});
}

Table summaryTable(const std::vector<validation::GroupSummary>& groups, const char* what,
                   const validation::GroupSummary* total) {
  Table t;
  t.columns = {what,       "rows",       "predicted", "coverage_%", "scored",    "excluded",
               "not_modelled", "failed", "MdAPE_%",   "within10_%", "within25_%", "MdAE_pp"};
  t.numeric.assign(t.columns.size(), true);
  t.numeric[0] = false;
  for (const auto& g : groups) addSummaryRow(t, g);
  if (total) addSummaryRow(t, *total);
  return t;
}

std::string coverageLine(const validation::Summary& s) {
  const auto& t = s.total;
  std::string line = "coverage: " + std::to_string(t.predicted) + "/" + std::to_string(t.measured) +
                     " rows predicted (" + pct(t.measured ? double(t.predicted) / t.measured : 0) +
                     " %); scored " + std::to_string(t.counted) + ", excluded " +
                     std::to_string(t.excluded) + ", not modelled " + std::to_string(t.notModelled) +
                     ", failed " + std::to_string(t.failed);
  if (t.rel.n)
    line += "; MdAPE " + pct(t.rel.median) + " % over " + std::to_string(t.rel.n) +
            " rows, within 25 %: " + pct(t.rel.within25) + " %";
  if (t.pp.n) line += "; CPU-load MdAE " + formatSig(t.pp.median, 3) + " pp";
  return line;
}

std::string jsonGroup(const validation::GroupSummary& g) {
  auto num = [](double v) { return formatNumber(v); };
  std::string s = "{\"name\": " + jsonString(g.name) + ", \"rows\": " + std::to_string(g.measured) +
                  ", \"predicted\": " + std::to_string(g.predicted) +
                  ", \"scored\": " + std::to_string(g.counted) +
                  ", \"excluded\": " + std::to_string(g.excluded) +
                  ", \"not_modelled\": " + std::to_string(g.notModelled) +
                  ", \"failed\": " + std::to_string(g.failed);
  if (g.rel.n)
    s += ", \"mdape\": " + num(g.rel.median) + ", \"within10\": " + num(g.rel.within10) +
         ", \"within25\": " + num(g.rel.within25);
  if (g.pp.n) s += ", \"mdae_pp\": " + num(g.pp.median);
  return s + "}";
}

}  // namespace

bool inCommaList(const std::string& list, const std::string& v) {
  if (list.empty()) return true;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    if (list.compare(start, end - start, v) == 0) return true;
    start = end + 1;
  }
  return false;
}

Action addValidate(CLI::App& app) {
  struct Opts {
    std::string board, family, format = "table", cv, out = "out";
    std::vector<std::string> measured, sets;
    int jobs = 0;
    bool policy = false, noOut = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("validate", "predicted vs measured for every measured row (the main job)");
  sub->add_option("--board", o->board, "only these boards (comma-separated names)");
  sub->add_option("--family", o->family, "only these families (comma-separated)");
  sub->add_option("--format", o->format, "table|csv|json");
  sub->add_option("--measured", o->measured, "validate against these measured CSVs instead of the built-in dataset");
  sub->add_option("--cv", o->cv, "cross-validation: lobo | release");
  sub->add_option("--set", o->sets, "config override key=value (what-if), applied to every board");
  sub->add_option("--jobs,-j", o->jobs, "worker processes (default: number of cores)");
  sub->add_option("--out", o->out, "folder for validate.csv and the summaries (default: out)");
  sub->add_flag("--no-out", o->noOut, "do not write result files");
  sub->add_flag("--policy", o->policy, "print the exclusion policy for flagged rows and exit");
  return [o]() {
    if (o->policy) {
      std::cout << validation::exclusionPolicyText();
      return 0;
    }
    Format fmt = parseFormat(o->format);
    if (!o->cv.empty()) {
      if (o->cv != "lobo" && o->cv != "release")
        throw InputError("", 0, "--cv", "expected lobo or release, got '" + o->cv + "'");
      throw InputError("", 0, "--cv",
                       "cross-validation needs fitted parameters, and 'socsim calibrate' does not "
                       "exist yet: not available in this version");
    }
    std::vector<calib::MeasuredRow> rows;
    if (o->measured.empty()) {
      rows = calib::readMeasuredDir(measuredDir());
    } else {
      for (const auto& f : o->measured) {
        auto r = calib::readMeasuredCsv(f);
        rows.insert(rows.end(), r.begin(), r.end());
      }
    }
    std::vector<calib::MeasuredRow> sel;
    for (auto& r : rows)
      if (inCommaList(o->board, r.board) && inCommaList(o->family, r.family)) sel.push_back(std::move(r));
    if (sel.empty())
      throw InputError("", 0, "--board/--family", "no measured row matches the selection");

    validation::ValidateOptions vo;
    vo.jobs = o->jobs > 0 ? o->jobs : std::max(1u, std::thread::hardware_concurrency());
    vo.progress = isatty(STDERR_FILENO);
    validation::RunnerOptions ro;
    ro.overrides = o->sets;
    if (!o->noOut) ro.resolvedDir = o->out + "/resolved";
    auto runner = validation::makeBoardRunner(sourceDir() + "/configs/boards", ro);
    auto results = validation::validate(sel, runner, vo);
    auto summary = validation::summarize(results);

    if (!o->noOut) {
      std::filesystem::create_directories(o->out);
      std::ofstream os(o->out + "/validate.csv", std::ios::binary);
      csv::writeRecord(os, validation::validateCsvHeader());
      for (const auto& r : results) csv::writeRecord(os, validation::toCsvFields(r));
      std::ofstream ss(o->out + "/validate-summary.csv", std::ios::binary);
      summaryTable(summary.families, "family", &summary.total).print(ss, Format::Csv);
      summaryTable(summary.boards, "board", nullptr).print(ss, Format::Csv);
    }

    if (fmt == Format::Csv) {
      csv::writeRecord(std::cout, validation::validateCsvHeader());
      for (const auto& r : results) csv::writeRecord(std::cout, validation::toCsvFields(r));
      std::cerr << coverageLine(summary) << "\n";
      return 0;
    }
    if (fmt == Format::Json) {
      Table t;
      t.columns = validation::validateCsvHeader();
      t.numeric.assign(t.columns.size(), false);
      for (int i : {6, 7, 8}) t.numeric[i] = true;
      for (const auto& r : results) t.addRow(validation::toCsvFields(r));
      std::cout << "{\"rows\": ";
      t.print(std::cout, Format::Json);
      std::cout << ", \"summary\": {\"total\": " << jsonGroup(summary.total) << ",\n \"families\": [";
      for (size_t i = 0; i < summary.families.size(); ++i)
        std::cout << (i ? ",\n  " : "\n  ") << jsonGroup(summary.families[i]);
      std::cout << "],\n \"boards\": [";
      for (size_t i = 0; i < summary.boards.size(); ++i)
        std::cout << (i ? ",\n  " : "\n  ") << jsonGroup(summary.boards[i]);
      std::cout << "]}}\n";
      return 0;
    }
    Table t;
    t.columns = {"board", "family", "benchmark", "metric", "params", "unit",
                 "measured", "predicted", "error", "status", "other_guide"};
    t.numeric = {false, false, false, false, false, false, true, true, true, false, false};
    // Same row in another guide: does the release-to-release spread exceed the model error?
    const auto cross = validation::crossGuide(results);
    for (std::size_t ri = 0; ri < results.size(); ++ri) {
      const auto& r = results[ri];
      auto f = validation::toCsvFields(r);
      std::string err;
      if (!f[8].empty())
        err = r.errorKind == validation::ErrorKind::Relative
                  ? formatSig(100 * r.error, 3) + "%"
                  : formatSig(r.error, 3) + "pp";
      t.addRow({f[0], f[1], f[2], f[3], f[4], f[5], f[6],
                r.predicted ? formatSig(*r.predicted, 4) : "", err, f[10],
                validation::crossGuideCell(cross[ri])});
    }
    t.print(std::cout, Format::Table);
    std::cout << "\nPer family (MdAPE over scored rows; CPU load and loss in percentage points):\n";
    summaryTable(summary.families, "family", &summary.total).print(std::cout, Format::Table);
    std::cout << "\nPer board:\n";
    summaryTable(summary.boards, "board", nullptr).print(std::cout, Format::Table);
    std::cout << "\n" << coverageLine(summary) << "\n";
    return 0;
  };
}

}  // namespace socsim::app
