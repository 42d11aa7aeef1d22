// socsim calibrate [--family F] [--check] [--max-evals N] [--jobs N] [--algorithm sbplx|bobyqa]
// [--format table|csv|json]: fit the free parameters (calibration/fit/calibrate.h), or check
// the committed ones against the committed reports.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "calibration/fit/calibrate.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"
#include "soc/config/config_tree.h"

namespace socsim::app {

namespace {
std::string errText(double v, bool pp) {
  return pp ? formatSig(v, 3) + " pp" : formatSig(100 * v, 3) + " %";
}
}  // namespace

Action addCalibrate(CLI::App& app) {
  struct Opts {
    std::string family, format = "table", algorithm = "sbplx";
    bool check = false, noWrite = false, cold = false, joint = false;
    int jobs = 0, maxEvals = 60, maxScreen = 40, loboEvals = 15;
    double maxSeconds = 600, timeBudget = 1800;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "calibrate",
      "fit the free parameters to the measured data (stages: memory, cores, kernel, I/O); write "
      "calibration/params/<group>.yaml and calibration/reports/<group>.{md,csv}");
  sub->add_option("--family", o->family,
                  "only the fit groups of these families (comma-separated; lmbench-mem and stream "
                  "are fitted together as 'memory')")
      ->transform(commaList());
  sub->add_flag("--check", o->check,
                "re-run the committed parameters and confirm the committed reports (no fit)");
  sub->add_option("--max-evals", o->maxEvals,
                  "optimizer evaluations per group (default 60; under --time-budget raised to "
                  "what the optimizer's part of the group's allotment holds at the cost of one of its "
                  "evaluations)");
  sub->add_option("--max-screen", o->maxScreen, "candidate parameters screened per group (default 40)");
  sub->add_option("--max-seconds", o->maxSeconds, "optimizer time per group (default 600)");
  sub->add_option("--time-budget", o->timeBudget,
                  "total seconds for the run (default 1800 = 30 min; 0: no budget). Several "
                  "groups share it by need: the cost of one evaluation each (a pre-pass) times "
                  "the evaluations their parameters take, with a floor of 5 % for cheap groups; a group "
                  "stops screening at 30 % of its share and optimizing at 70 %, its LOBO refits "
                  "share the rest");
  sub->add_option("--lobo-evals", o->loboEvals,
                  "evaluations per leave-one-board-out refit (default 15): each board's rows are "
                  "predicted by a refit, without them, of the fitted parameters they read (from "
                  "the full fit's values, or the defaults with --cold; the other fitted parameters "
                  "keep their full-fit values); the "
                  "residuals give the 80 % intervals");
  sub->add_option("--algorithm", o->algorithm, "sbplx | bobyqa (NLopt local derivative-free)");
  sub->add_option("--jobs,-j", o->jobs, "worker processes per evaluation (default: cores)")
      ->check(atLeastOne());
  sub->add_flag("--cold", o->cold,
                "start each group's fit from the documented defaults and screen every candidate "
                "(default: a warm start from the committed calibration/params values, the "
                "committed fitted parameters kept without re-screening; the regularization pulls "
                "toward the defaults either way)");
  sub->add_flag("--joint", o->joint,
                "a kernel or I/O group's fit adds to its loss the rows of the later selected groups "
                "that read a parameter it fits (at their committed values, each row once): shared "
                "parameters fitted on every row that reads them (default: each group on its own rows)");
  sub->add_flag("--no-write", o->noWrite, "do not write calibration/params or calibration/reports");
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
    if (o->algorithm != "sbplx" && o->algorithm != "bobyqa")
      throw InputError("", 0, "--algorithm", "expected sbplx or bobyqa, got '" + o->algorithm + "'");
    if (o->maxEvals < 1) throw InputError("", 0, "--max-evals", "expected at least 1");
    if (o->maxScreen < 0) throw InputError("", 0, "--max-screen", "expected 0 or more candidates");
    // A negative time ran a full calibration on the default allotment instead.
    if (!(o->maxSeconds > 0))
      throw InputError("", 0, "--max-seconds", "expected seconds > 0");
    calib::CalibrateOptions co;
    co.sourceDir = sourceDir();
    co.jobs = o->jobs > 0 ? o->jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    co.maxEvaluations = o->maxEvals;
    co.maxScreen = o->maxScreen;
    co.maxSecondsPerGroup = o->maxSeconds;
    // `!(x >= 0)`: a NaN ran with no budget at all.
    if (!(o->timeBudget >= 0)) throw InputError("", 0, "--time-budget", "expected 0 or more seconds");
    // --check runs the committed parameters (no fit): a start point does not apply.
    if (o->check && o->cold)
      throw InputError("", 0, "--cold", "--check fits nothing, so it has no start point: drop --cold");
    co.timeBudgetSeconds = o->timeBudget;
    if (o->loboEvals < 1) throw InputError("", 0, "--lobo-evals", "expected at least 1");
    co.loboEvaluations = o->loboEvals;
    co.algorithm = o->algorithm;
    co.write = !o->noWrite;
    co.warmStart = !o->cold;
    co.jointLaterRows = o->joint;
    co.log = &std::cerr;
    requireFamilies(o->family, "--family");
    if (!o->family.empty()) {
      size_t start = 0;
      while (start <= o->family.size()) {
        size_t end = o->family.find(',', start);
        if (end == std::string::npos) end = o->family.size();
        std::string f = o->family.substr(start, end - start);
        const calib::FitGroup* g = calib::groupOfFamily(f);
        if (!g) {
          std::vector<std::string> fams;
          for (const auto& fg : calib::fitGroups()) fams.insert(fams.end(), fg.families.begin(), fg.families.end());
          throw InputError("", 0, "--family", "no fit group for family '" + f + "'" + config::suggestion(f, fams));
        }
        if (std::find(co.groups.begin(), co.groups.end(), g->name) == co.groups.end())
          co.groups.push_back(g->name);
        start = end + 1;
      }
    }
    auto rows = calib::readMeasuredDir(measuredDir());
    if (o->check) {
      auto res = calib::checkCalibration(rows, co);
      Table t;
      t.columns = {"group", "rows", "drifted_rows", "fitted", "budget", "loss_committed", "loss_now", "result"};
      t.numeric = {false, true, true, true, true, true, true, false};
      bool ok = true;
      int fitted = 0, rows = 0;
      for (const auto& c : res) {
        t.addRow({c.group, std::to_string(c.rows), std::to_string(c.rowsDrifted),
                  std::to_string(c.fitted), std::to_string(c.budget),
                  formatNumber(c.lossCommitted), formatNumber(c.lossNow), c.message});
        ok = ok && c.ok;
        fitted += c.fitted;
        rows += c.rows;
      }
      if (res.empty())
        throw InputError("", 0, "--check",
                         "no committed report in calibration/reports/ for the selected groups");
      t.print(std::cout, fmt);
      if (fmt == Format::Table)
        std::cout << "\nbudget: " << fitted << " committed fitted parameters for " << rows
                  << " report rows (at most 1 per 10 rows per group: " << rows / 10 << " overall); "
                  << (fitted * 10 <= rows ? "holds" : "EXCEEDED") << "\n";
      if (fmt == Format::Table)
        std::cout << "\ncalibrate --check: " << (ok ? "the committed parameters reproduce the committed reports"
                                                   : "MISMATCH: re-run socsim calibrate")
                  << "\n";
      return ok ? 0 : 1;
    }
    auto wallStart = std::chrono::steady_clock::now();
    auto res = calib::calibrate(rows, co);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    Table t;
    t.columns = {"group", "family", "rows", "MdAPE_before", "MdAPE_after", "LOBO_MdAPE",
                 "LOBO_in_80%", "fitted", "budget", "candidates", "loss_before", "loss_after",
                 "evaluations", "board_runs", "seconds", "lobo_seconds"};
    t.numeric.assign(t.columns.size(), true);
    t.numeric[0] = t.numeric[1] = false;
    int fitted = 0, rowsUsed = 0;
    for (const auto& g : res) {
      fitted += static_cast<int>(g.fitted.size());
      rowsUsed += g.rowsUsed;
      if (g.families.empty())
        t.addRow({g.group, "", std::to_string(g.rowsUsed), "", "", "", "", "0",
                  std::to_string(g.budget), std::to_string(g.candidates), "", "",
                  std::to_string(g.evaluations), std::to_string(g.boardRuns),
                  formatSig(g.seconds, 3), formatSig(g.loboSeconds, 3)});
      for (const auto& f : g.families) {
        // No LOBO rows: every board of the family reads a fitted value no other board reads.
        std::string lobo = g.fitted.empty() ? "" : "no-donor", inside;
        for (const auto& iv : g.intervals)
          if (iv.family == f.family && iv.pp == f.pp) {
            lobo = errText(iv.loboMdape, iv.pp);
            if (iv.coverageRows)
              inside = formatSig(100 * iv.coverage, 3) + " % of " + std::to_string(iv.coverageRows);
          }
        t.addRow({g.group, f.family, std::to_string(f.rows), errText(f.mdapeBefore, f.pp),
                  errText(f.mdapeAfter, f.pp), lobo, inside, std::to_string(g.fitted.size()),
                  std::to_string(g.budget), std::to_string(g.candidates),
                  formatSig(g.lossBefore, 5), formatSig(g.lossAfter, 5),
                  std::to_string(g.evaluations), std::to_string(g.boardRuns),
                  formatSig(g.seconds, 3), formatSig(g.loboSeconds, 3)});
      }
    }
    t.print(std::cout, fmt);
    if (fmt == Format::Table) {
      std::cout << "\nFitted parameters (default [start] -> fitted):\n";
      for (const auto& g : res)
        for (const auto& p : g.fitted)
          std::cout << "  " << p.name << ": " << formatNumber(p.defaultValue)
                    << (p.startValue != p.defaultValue ? " [" + formatNumber(p.startValue) + "]" : "")
                    << " -> " << formatNumber(p.value) << " " << p.unit
                    << (p.kept ? " (committed fit, kept)" : "") << "\n";
      std::cout << "\nStart points:\n";
      for (const auto& g : res)
        std::cout << "  " << g.group << ": "
                  << (g.warmStart ? "warm, " + warmStartText(g)
                                  : std::string("cold (defaults)"))
                  << "; loss defaults " << formatSig(g.lossBefore, 5) << ", start "
                  << formatSig(g.lossStart, 5) << ", after " << formatSig(g.lossAfter, 5) << "\n";
      // Where the time went, per group (wall seconds): what `--time-budget` has to cover.
      Table tt;
      tt.columns = {"group", "rows", "fitted", "allotment", "pre_pass", "setup", "screen",
                    "optimize", "lobo", "total", "evaluations", "eval_cap", "board_runs",
                    "screen_stop", "optimizer_stop", "result"};
      tt.numeric.assign(tt.columns.size(), true);
      tt.numeric[0] = tt.numeric[13] = tt.numeric[14] = tt.numeric[15] = false;
      double total = 0, prepass = 0;
      int skipped = 0;
      for (const auto& g : res) {
        total += g.seconds;
        prepass += g.prepassSeconds;
        skipped += g.nothingToFit ? 1 : 0;
        auto sec = [](double v) { return formatSig(v, 3); };
        tt.addRow({g.group, std::to_string(g.rowsUsed), std::to_string(g.fitted.size()),
                   sec(g.allotSeconds), sec(g.prepassSeconds), sec(g.setupSeconds),
                   sec(g.screenSeconds), sec(g.optimizeSeconds), sec(g.loboSeconds),
                   sec(g.seconds), std::to_string(g.evaluations),
                   g.maxEvaluations ? std::to_string(g.maxEvaluations) : std::string("-"),
                   std::to_string(g.boardRuns), g.screenStop.empty() ? g.note : g.screenStop,
                   g.optimizerStop, g.outcome.empty() ? g.note : g.outcome});
      }
      std::cout << "\nTiming (wall seconds; allotment: the group's share of --time-budget):\n";
      tt.print(std::cout, fmt);
      std::cout << "\ntime: " << formatSig(wall, 3) << " s wall for " << res.size() << " groups ("
                << formatSig(prepass, 3) << " s pre-pass, " << formatSig(total, 3)
                << " s in the groups' fits; " << skipped
                << " groups had nothing to fit and got no time share); --time-budget "
                << (co.timeBudgetSeconds > 0 ? formatSig(co.timeBudgetSeconds, 4) + " s" : std::string("none"))
                << "\n";
      std::cout << "budget: " << fitted << " fitted parameters for " << rowsUsed
                << " rows used (at most 1 per 10 rows: " << rowsUsed / 10 << "); "
                << (fitted * 10 <= rowsUsed ? "holds" : "EXCEEDED") << "\n";
    }
    return 0;
  };
}

}  // namespace socsim::app
