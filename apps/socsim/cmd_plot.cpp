// socsim plot --db FILE [--sweep S] [--benchmark GLOB] [--x KEY] --out DIR
// socsim plot --validate-csv out/validate.csv [--board B] [--family F] --out DIR
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "apps/socsim/commands.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/table.h"
#include "sweep/plot.h"
#include "sweep/results_db.h"

namespace socsim::app {

Action addPlot(CLI::App& app) {
  struct Opts {
    std::string db, sweep, glob, x, validateCsv, board, family, out = "out/plots", format = "table";
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("plot", "render plots with gnuplot (PNG + SVG): a sweep from --db, or a validate CSV");
  sub->add_option("--db", o->db, "sweep results database: metric vs swept parameter per benchmark");
  sub->add_option("--sweep", o->sweep, "which sweep of --db (name or id; default: the newest)");
  sub->add_option("--benchmark", o->glob, "only benchmarks matching this glob");
  sub->add_option("--x", o->x, "the swept key on the x axis (default: the first)");
  sub->add_option("--validate-csv", o->validateCsv,
                  "a socsim validate CSV (out/validate.csv): predicted vs measured per family, error histograms, "
                  "lat_mem_rd curves");
  sub->add_option("--board", o->board, "validate CSV: only these boards (comma-separated)")
      ->transform(commaList());
  sub->add_option("--family", o->family, "validate CSV: only these families (comma-separated)")
      ->transform(commaList());
  sub->add_option("--out", o->out, "output folder")->capture_default_str();
  sub->add_option("--format", o->format, "table|csv|json for the list of plots written");
  return [o]() {
    Format fmt = parseFormat(o->format);
    requireFamilies(o->family, "--family");
    if (o->db.empty() == o->validateCsv.empty())
      throw InputError("", 0, "--db/--validate-csv", "give exactly one of --db (a sweep) or --validate-csv");
    std::vector<sweep::PlotFile> plots;
    if (!o->db.empty()) {
      if (!std::ifstream(o->db)) throw InputError(o->db, 0, "--db", "no such results database");
      sweep::ResultsDb db(o->db);
      plots = sweep::plotSweep(db, db.find(o->sweep), o->out, o->glob, o->x);
    } else {
      std::ifstream in(o->validateCsv, std::ios::binary);
      if (!in) throw InputError(o->validateCsv, 0, "--validate-csv", "cannot read the file");
      std::stringstream ss;
      ss << in.rdbuf();
      std::vector<int> lines;
      auto recs = csv::parse(ss.str(), o->validateCsv, &lines);
      if (recs.empty()) throw InputError(o->validateCsv, 1, "", "empty file");
      // The columns the plots read, named with the file when one is missing; every row has the
      // header's fields (a truncated or edited CSV is an error, not a short row read past its end).
      for (const char* c : {"board", "family", "benchmark", "measured", "predicted", "error",
                            "error_kind", "status"})
        if (std::find(recs[0].begin(), recs[0].end(), c) == recs[0].end())
          throw InputError(o->validateCsv, lines[0], c,
                           "not a socsim validate CSV: no column '" + std::string(c) +
                               "' in the header (write one with socsim validate --out DIR)");
      std::vector<std::vector<std::string>> sel = {recs.front()};
      for (size_t i = 1; i < recs.size(); ++i) {
        if (recs[i].size() != recs[0].size())
          throw InputError(o->validateCsv, lines[i], "",
                           "expected " + std::to_string(recs[0].size()) + " fields (the header's), got " +
                               std::to_string(recs[i].size()) + ": a truncated or edited validate CSV");
        if (inCommaList(o->board, recs[i][0]) && inCommaList(o->family, recs[i][1]))
          sel.push_back(recs[i]);
      }
      plots = sweep::plotValidation(sel, o->out);
    }
    if (plots.empty()) throw InputError("", 0, "plot", "nothing to plot: no predicted rows in the selection");
    Table t;
    t.columns = {"group", "title", "png", "svg"};
    t.numeric = {false, false, false, false};
    for (const auto& p : plots) t.addRow({p.group, p.title, o->out + "/" + p.name + ".png", o->out + "/" + p.name + ".svg"});
    t.print(std::cout, fmt);
    return 0;
  };
}

}  // namespace socsim::app
