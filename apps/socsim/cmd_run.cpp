// socsim run --board B [--benchmark GLOB] [--family F] [--set key=value]... [--all]
// socsim explain --board B --benchmark NAME [--family F] [--set key=value]...
#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "calibration/fit/uncertainty.h"
#include "common/error.h"
#include "common/format.h"
#include "common/format_time.h"
#include "common/table.h"
#include "soc/config/board_config.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "workloads/workload.h"

namespace socsim::app {

namespace {

using QueryKey =
    std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;

QueryKey keyOf(const wl::Query& q) {
  return {q.family, q.benchmark, q.metric, q.params, q.unit, q.source};
}

/// The queries to predict for `board`: the identities of the rows measured on that board or,
/// for a board never measured (or with `all`), every distinct row identity in the dataset.
/// Only identities are taken from the dataset, never values. `withSource`: each row of the
/// board keeps its guide (Query::source), so a row measured in two releases is predicted under
/// each, as validate does (explain); otherwise the release is left open (run).
std::vector<wl::Query> catalogue(const std::string& boardName, bool all, const std::string& family,
                                 const std::string& glob, bool withSource = false) {
  auto rows = calib::readMeasuredDir(measuredDir());
  bool measuredHere = false;
  for (const auto& r : rows) measuredHere |= r.board == boardName;
  std::set<QueryKey> seen;
  std::vector<wl::Query> out;
  for (const auto& r : rows) {
    if (!all && measuredHere && r.board != boardName) continue;
    if (!inCommaList(family, r.family)) continue;
    if (!glob.empty() && fnmatch(glob.c_str(), r.benchmark.c_str(), 0) != 0) continue;
    wl::Query q{r.family, r.benchmark, r.metric, r.params, r.unit,
                withSource && measuredHere ? r.source : std::string()};
    if (seen.insert(keyOf(q)).second) out.push_back(q);
  }
  return out;
}

/// The error for a --benchmark/--family selection that matches nothing on `boardName`: names
/// the benchmarks there are (nearest to the glob first), so the user can pick one.
InputError noBenchmarkError(const std::string& boardName, bool all, const std::string& family,
                            const std::string& glob) {
  std::vector<std::string> names;
  {
    std::set<std::string> seen;
    for (const auto& q : catalogue(boardName, all, family, ""))
      if (seen.insert(q.benchmark).second) names.push_back(q.benchmark);
  }
  std::string where = "board " + boardName + (family.empty() ? "" : ", family " + family);
  if (names.empty())
    return InputError("", 0, "--family",
                      "no benchmark of family '" + family + "' for " + "board " + boardName +
                          " (see 'socsim measured --summary' for the families measured per board)");
  // Nearest names by edit distance to the glob without its wildcards.
  std::string stem;
  for (char c : glob)
    if (c != '*' && c != '?' && c != '[' && c != ']') stem += c;
  std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    return config::editDistance(stem, a) < config::editDistance(stem, b);
  });
  const size_t kShow = 12;
  std::string list;
  for (size_t i = 0; i < names.size() && i < kShow; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > kShow) list += ", ... (" + std::to_string(names.size()) + " in all)";
  // A glob that names a family ('stream*', 'dhrystone'): the family's benchmarks have other
  // names (copy, scale, add, triad), so say so and point to --family.
  std::string familyHint;
  {
    std::map<std::string, std::vector<std::string>> byFamily;
    for (const auto& q : catalogue(boardName, all, family, "")) {
      auto& v = byFamily[q.family];
      if (std::find(v.begin(), v.end(), q.benchmark) == v.end()) v.push_back(q.benchmark);
    }
    for (const auto& [fam, benches] : byFamily) {
      if (fnmatch(glob.c_str(), fam.c_str(), 0) != 0 && (stem.size() < 4 || fam.find(stem) == std::string::npos))
        continue;
      std::string b;
      for (size_t i = 0; i < benches.size() && i < 6; ++i) b += (i ? ", " : "") + benches[i];
      if (benches.size() > 6) b += ", ...";
      familyHint += "; '" + glob + "' matches the family " + fam + ", whose benchmarks are named " +
                    b + ": use --family " + fam;
    }
  }
  return InputError("", 0, "--benchmark",
                    "no benchmark matches '" + glob + "' for " + where + familyHint + "; nearest: " + list +
                        " (globs use * and ?, e.g. 'lat_mem_rd-*'; every name: socsim run --board " +
                        boardName + (family.empty() ? "" : " --family " + family) +
                        " --format csv)");
}

struct Loaded {
  std::unique_ptr<validation::BoardRunContext> ctx;
  std::string name;
};

Loaded loadContext(const std::string& board, const std::vector<std::string>& sets) {
  std::string file = soc::findBoardFile(board, sourceDir() + "/configs/boards");
  auto cfg = std::make_unique<soc::BoardConfig>(soc::loadBoard(file, sets));
  printOverrideWarnings(*cfg);
  Loaded l;
  l.name = cfg->board.name;
  l.ctx = std::make_unique<validation::BoardRunContext>(std::move(cfg));
  return l;
}

/// `status` and `reason` cells of a result: ok | not-modelled | failed, and why.
std::vector<std::string> statusCells(const validation::QueryResult& r) {
  switch (r.kind) {
    case validation::QueryResult::Kind::Ok:
      return {"ok", ""};
    case validation::QueryResult::Kind::NotModelled:
      return {"not-modelled", r.reason};
    case validation::QueryResult::Kind::Failed:
      break;
  }
  return {"failed", r.reason};
}

/// When no query could be predicted and some failed on bad input (the board lacks a part they
/// need, e.g. a board without DDR), that is bad input for the whole command (exit 2).
void requireSomePrediction(const std::string& board,
                           const std::vector<validation::QueryResult>& results) {
  const validation::QueryResult* bad = nullptr;
  for (const auto& r : results) {
    if (r.kind == validation::QueryResult::Kind::Ok) return;
    if (r.badInput && !bad) bad = &r;
  }
  if (bad)
    throw InputError("", 0, "--board",
                     "nothing could be predicted for board " + board + ": " + bad->reason);
}

}  // namespace

Action addRun(CLI::App& app) {
  struct Opts {
    std::string board, glob, family, format = "table";
    std::vector<std::string> sets;
    bool all = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("run", "predict the benchmarks of a board (what-if with --set)");
  sub->add_option("--board", o->board, "board name or path to a board YAML file")->required();
  sub->add_option("--benchmark", o->glob, "only benchmarks whose name matches this glob")
      ->check(globPattern());
  sub->add_option("--family", o->family, "only these families (comma-separated)")
      ->transform(commaList());
  sub->add_option("--set", o->sets, "config override key=value (see socsim config --help)");
  sub->add_flag("--all", o->all, "every benchmark in the dataset, not only those measured on this board");
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
    requireFamilies(o->family, "--family");
    auto l = loadContext(o->board, o->sets);
    auto qs = catalogue(l.name, o->all, o->family, o->glob);
    if (qs.empty()) throw noBenchmarkError(l.name, o->all, o->family, o->glob);
    Table t;
    t.columns = {"board", "family", "benchmark", "metric", "params", "unit",
                 "predicted", "lo", "hi", "status", "reason"};
    t.numeric = {false, false, false, false, false, false, true, true, true, false, false};
    int predicted = 0;
    std::vector<validation::QueryResult> results;
    const auto intervals = calib::readIntervals(sourceDir());
    for (const auto& q : qs) {
      auto r = validation::predictOne(*l.ctx, q);
      calib::applyInterval(r, q, intervals);
      std::vector<std::string> row = {l.name, q.family, q.benchmark, q.metric, q.params, q.unit};
      if (r.kind == validation::QueryResult::Kind::Ok) {
        ++predicted;
        // The table shows the prediction and its interval with the same 4 significant digits;
        // csv/json carry formatResult's 6.
        auto cell = [fmt](const std::optional<double>& v) {
          return fmt == Format::Table ? (v ? formatSig(*v, 4) : std::string()) : formatResult(v);
        };
        row.push_back(cell(r.value));
        row.push_back(cell(r.lo));
        row.push_back(cell(r.hi));
      } else {
        row.insert(row.end(), {"", "", ""});
      }
      for (auto& cell : statusCells(r)) row.push_back(std::move(cell));
      t.addRow(row);
      results.push_back(std::move(r));
    }
    t.print(std::cout, fmt);
    if (fmt == Format::Table)
      std::cout << "\n" << predicted << "/" << qs.size() << " benchmarks predicted for " << l.name
                << (o->sets.empty() ? "" : " with overrides") << "\n";
    requireSomePrediction(l.name, results);
    return 0;
  };
}

Action addExplain(CLI::App& app) {
  struct Opts {
    std::string board, benchmark, family, format = "table";
    std::vector<std::string> sets;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("explain", "where the simulated time of one prediction went");
  // --board and --benchmark are checked in the action, not by CLI11: its "--board is required"
  // does not say what explain takes (e.g. after `explain --family F`).
  sub->add_option("--board", o->board, "board name or path to a board YAML file (required)");
  sub->add_option("--benchmark", o->benchmark, "benchmark name (a glob selects several; required)")
      ->check(globPattern());
  sub->add_option("--family", o->family,
                  "only these families (comma-separated); narrows --benchmark, does not replace it")
      ->transform(commaList());
  sub->add_option("--set", o->sets, "config override key=value");
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
    if (o->board.empty() || o->benchmark.empty()) {
      std::string missing = o->board.empty() && o->benchmark.empty() ? "--board and --benchmark"
                            : o->board.empty()                       ? "--board"
                                                                     : "--benchmark";
      throw InputError(
          "", 0, missing,
          "explain needs both --board B (a board name from 'socsim boards' or a board YAML file) "
          "and --benchmark NAME (a benchmark name or a glob such as 'lat_*'); --family F only "
          "narrows the benchmarks the name matches. Example: socsim explain --board am335x-evm "
          "--benchmark triad" +
              std::string(o->family.empty()
                              ? ""
                              : ". To list the benchmarks of family '" + o->family +
                                    "': socsim run --board B --family " + o->family));
    }
    requireFamilies(o->family, "--family");
    auto l = loadContext(o->board, o->sets);
    auto qs = catalogue(l.name, false, o->family, o->benchmark, true);
    if (qs.empty()) throw noBenchmarkError(l.name, false, o->family, o->benchmark);
    const size_t kMax = 12;
    if (qs.size() > kMax) qs.resize(kMax);
    Table t;
    // The table shows each time in its engineering unit (12.3 us); csv/json keep seconds.
    t.columns = {"board", "family", "benchmark", "metric", "params", "unit", "predicted", "part",
                 fmt == Format::Table ? "time" : "seconds", "share_%", "status", "reason"};
    t.numeric = {false, false, false, false, false, false, true, false, true, true, false, false};
    std::vector<validation::QueryResult> results;
    for (const auto& q : qs) {
      wl::Prediction p;
      auto r = validation::predictOne(*l.ctx, q, &p);
      results.push_back(r);
      std::vector<std::string> head = {l.name, q.family, q.benchmark, q.metric, q.params, q.unit};
      const auto status = statusCells(r);
      if (r.kind != validation::QueryResult::Kind::Ok) {
        auto row = head;
        row.insert(row.end(), {"", "", "", "", status[0], status[1]});
        t.addRow(row);
        continue;
      }
      double total = 0;
      for (const auto& [part, s] : p.breakdown.seconds) total += s;
      if (p.breakdown.seconds.empty()) {
        auto row = head;
        row.insert(row.end(), {formatResult(r.value), "(no breakdown)", "", "", status[0], status[1]});
        t.addRow(row);
      }
      for (const auto& [part, s] : p.breakdown.seconds) {
        auto row = head;
        row.push_back(fmt == Format::Table ? formatSig(r.value, 4) : formatResult(r.value));
        row.push_back(part);
        row.push_back(fmt == Format::Table ? formatSecondsEng(s, 4) : formatResult(s));
        row.push_back(total > 0 ? formatSig(100 * s / total, 3) : "");
        row.insert(row.end(), status.begin(), status.end());
        t.addRow(row);
      }
      if (!p.note.empty() && fmt == Format::Table)
        std::cerr << q.benchmark << (q.source.empty() ? "" : " [" + q.source + "]") << ": "
                  << p.note << "\n";
    }
    t.print(std::cout, fmt);
    requireSomePrediction(l.name, results);
    return 0;
  };
}

}  // namespace socsim::app
