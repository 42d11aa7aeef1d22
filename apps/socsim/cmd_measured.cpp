// socsim measured [--board B] [--family F] [--summary] [--format table|csv|json] [--measured FILE...]
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"

namespace socsim::app {

Action addMeasured(CLI::App& app) {
  struct Opts {
    std::string board, family, format = "table";
    bool summary = false;
    std::vector<std::string> files;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("measured", "print the measured dataset");
  sub->add_option("--board", o->board, "only these boards (comma-separated)")->transform(commaList());
  sub->add_option("--family", o->family, "only these families (comma-separated)")->transform(commaList());
  sub->add_flag("--summary", o->summary, "family x board count table");
  sub->add_option("--format", o->format, "table|csv|json");
  sub->add_option("--measured", o->files, "measured CSV files instead of the built-in dataset");
  return [o]() {
    Format fmt = parseFormat(o->format);
    requireFamilies(o->family, "--family");
    std::vector<calib::MeasuredRow> rows = readMeasuredArg(o->files);
    std::set<std::string> knownBoards, knownFamilies;
    for (const auto& r : rows) {
      if (!r.board.empty()) knownBoards.insert(r.board);
      knownFamilies.insert(r.family);
    }
    requireKnown(o->board, knownBoards, "--board", "board");
    requireKnown(o->family, knownFamilies, "--family", "family");
    std::vector<calib::MeasuredRow> sel;
    for (auto& r : rows)
      if (inCommaList(o->board, r.board) && inCommaList(o->family, r.family)) sel.push_back(std::move(r));

    if (!o->summary) {
      Table t;
      t.columns = calib::measuredCsvHeader();
      t.numeric.assign(t.columns.size(), false);
      t.numeric[9] = t.numeric[10] = t.numeric[11] = true;
      for (const auto& r : sel)
        t.addRow({r.source, r.section, r.table, r.board, r.family, r.benchmark, r.metric, r.params,
                  r.unit, formatNumber(r.value), formatNumber(r.min), formatNumber(r.max), r.flag});
      t.print(std::cout, fmt);
      return 0;
    }
    // Summary: family x board counts, plus per-source totals.
    std::set<std::string> boards;
    std::map<std::string, std::map<std::string, int>> counts;
    std::map<std::string, int> perSource, perSourceFlagged;
    for (const auto& r : sel) {
      std::string b = r.boardLabel();
      boards.insert(b);
      counts[r.family][b]++;
      perSource[r.source]++;
      if (r.flagged()) perSourceFlagged[r.source]++;
    }
    Table t;
    t.columns.push_back("family");
    for (const auto& b : boards) t.columns.push_back(b);
    t.columns.push_back("total");
    t.numeric.assign(t.columns.size(), true);
    t.numeric[0] = false;
    std::map<std::string, int> colTotals;
    for (const auto& [fam, m] : counts) {
      std::vector<std::string> row{fam};
      int tot = 0;
      for (const auto& b : boards) {
        auto it = m.find(b);
        int n = it == m.end() ? 0 : it->second;
        row.push_back(n ? std::to_string(n) : "");
        tot += n;
        colTotals[b] += n;
      }
      row.push_back(std::to_string(tot));
      t.addRow(row);
    }
    std::vector<std::string> totalRow{"total"};
    for (const auto& b : boards) totalRow.push_back(std::to_string(colTotals[b]));
    totalRow.push_back(std::to_string(sel.size()));
    t.addRow(totalRow);
    t.print(std::cout, fmt);
    if (fmt == Format::Table) {
      std::cout << "\n";
      Table s;
      s.columns = {"source", "values", "flagged"};
      s.numeric = {false, true, true};
      for (const auto& [src, n] : perSource)
        s.addRow({src, std::to_string(n), std::to_string(perSourceFlagged[src])});
      s.print(std::cout, fmt);
      size_t unattributed = counts.empty() ? 0 : colTotals[calib::kNoBoardLabel];
      std::cout << "\n" << perSource.size() << " sources, " << sel.size() << " values, "
                << boards.size() - (boards.count(calib::kNoBoardLabel) ? 1 : 0) << " boards"
                << (unattributed ? ", " + std::to_string(unattributed) + " values without a board" : "")
                << "\n";
    }
    return 0;
  };
}

}  // namespace socsim::app
