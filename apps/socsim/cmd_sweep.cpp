// socsim sweep SPEC.yaml [--db FILE] [--jobs N] [--backend local|slurm] ... (issue 10)
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <thread>

#include "apps/socsim/commands.h"
#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "common/table.h"
#include "sweep/local_backend.h"
#include "sweep/report.h"
#include "sweep/results_db.h"
#include "sweep/slurm_backend.h"
#include "sweep/spec.h"
#include "sweep/summary.h"

namespace socsim::app {

namespace fs = std::filesystem;

namespace {

struct SweepOpts {
  std::string spec, db = "out/sweep.db", backend = "local", partition, shardDir, pointRange, exportFmt,
                    sweepSel, reportDir, format = "table";
  int jobs = 0, arrayChunk = 10, cpusPerTask = 1;
  double timeout = 0;
  bool wait = false, collect = false, shard = false, retryFailed = false, check = false, list = false;
};

std::pair<int, int> parseRange(const std::string& s, int n) {
  auto colon = s.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("");
    size_t used = 0;
    int a = std::stoi(s.substr(0, colon), &used);
    if (used != colon) throw std::invalid_argument("");
    std::string rest = s.substr(colon + 1);
    int b = std::stoi(rest, &used);
    if (used != rest.size() || a < 0 || b < a) throw std::invalid_argument("");
    return {a, std::min(b, n)};
  } catch (const std::exception&) {
    throw InputError("", 0, "--point-range", "expected A:B (points A..B-1, 0 <= A <= B), got '" + s + "'");
  }
}

std::string selfExe() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "socsim" : p.string();
}

void printResults(const sweep::ResultsDb& db, const sweep::SweepInfo& info, Format fmt) {
  Table t;
  t.columns = {"sweep", "point", "board"};
  for (const auto& k : info.keys) t.columns.push_back(k);
  for (const char* c : {"family", "benchmark", "metric", "params", "unit", "predicted", "lo", "hi", "status", "reason"})
    t.columns.push_back(c);
  t.numeric.assign(t.columns.size(), false);
  t.numeric[1] = true;
  t.numeric[t.columns.size() - 5] = t.numeric[t.columns.size() - 4] = t.numeric[t.columns.size() - 3] = true;
  for (const auto& r : db.results(info.id)) {
    std::vector<std::string> row = {info.name, std::to_string(r.point), r.board};
    for (size_t i = 0; i < info.keys.size(); ++i) row.push_back(i < r.values.size() ? r.values[i] : "");
    row.insert(row.end(), {r.family, r.benchmark, r.metric, r.params, r.unit, formatResult(r.predicted),
                           formatResult(r.lo), formatResult(r.hi), r.status,
                           r.status == "ok" ? std::string() : r.reason});
    t.addRow(row);
  }
  t.print(std::cout, fmt);
}

void printSpread(const sweep::SweepInfo& info, const std::vector<sweep::ResultRow>& rows, Format fmt) {
  Table t;
  t.columns = {"board", "family", "benchmark", "params", "unit", "points", "min", "max", "spread_%", "top_key",
               "top_effect_%"};
  t.numeric = {false, false, false, false, false, true, true, true, true, false, true};
  for (const auto& b : sweep::summarize(info, rows)) {
    bool tab = fmt == Format::Table;
    auto num = [&](double v, int d) { return tab ? formatSig(v, d) : formatResult(v); };
    std::string top = b.effects.empty() ? "" : b.effects.front().key;
    std::string eff = b.effects.empty() ? "" : num(100 * b.effects.front().effect, 3);
    t.addRow({b.board, b.family, b.benchmark, b.params, b.unit,
              std::to_string(b.ok) + (b.notOk ? "/" + std::to_string(b.ok + b.notOk) : ""),
              b.ok ? num(b.min, 4) : "", b.ok ? num(b.max, 4) : "", b.ok ? num(100 * b.spread, 3) : "", top, eff});
  }
  t.print(std::cout, fmt);
}

}  // namespace

Action addSweep(CLI::App& app) {
  auto o = std::make_shared<SweepOpts>();
  auto* sub = app.add_subcommand("sweep", "what-if sweep over many configurations (spec: configs/sweeps/)");
  sub->add_option("spec", o->spec, "sweep spec YAML (see configs/sweeps/)");
  sub->add_option("--db", o->db, "results database (SQLite), created when absent")->capture_default_str();
  sub->add_option("--jobs,-j", o->jobs, "worker processes (default: the machine's cores)")
      ->check(atLeastOne());
  sub->add_option("--timeout", o->timeout,
                  "seconds per point before its worker is killed (default: the spec's timeout_s, "
                  "else none); a point that times out or fails is recorded as failed, and the "
                  "sweep then exits with status 1 after printing its results");
  sub->add_flag("--retry-failed", o->retryFailed, "run failed points again (finished points are always skipped)");
  sub->add_flag("--check", o->check, "validate the spec against the boards and print the plan; run nothing");
  sub->add_flag("--list", o->list, "list the sweeps in --db");
  sub->add_option("--backend", o->backend, "local | slurm")->capture_default_str();
  sub->add_option("--partition", o->partition, "slurm: partition");
  sub->add_option("--array-chunk", o->arrayChunk, "slurm: points per array task")->capture_default_str();
  sub->add_option("--cpus-per-task", o->cpusPerTask, "slurm: CPUs (worker processes) per array task")->capture_default_str();
  sub->add_option("--shard-dir", o->shardDir, "slurm: folder for shards and logs (default: <db>.shards/<sweep>)");
  sub->add_flag("--wait", o->wait, "slurm: follow the job array (squeue/sacct), then collect");
  sub->add_flag("--collect", o->collect, "slurm: merge the result shards into --db");
  sub->add_option("--point-range", o->pointRange, "run only points A..B-1 (A:B), as a Slurm array task does");
  sub->add_flag("--shard", o->shard, "write a result shard (rollback journal; used by Slurm array tasks)");
  sub->add_option("--export", o->exportFmt, "print every prediction of the sweep: csv | json (| table)");
  sub->add_option("--sweep", o->sweepSel, "which sweep of --db (name or id) for --export/--report without a spec");
  sub->add_option("--report", o->reportDir, "write an HTML report (index.html + plots) of the sweep into DIR");
  sub->add_option("--format", o->format, "table|csv|json for the summary printed after a run");
  return [o]() {
    Format fmt = parseFormat(o->format);
    if (o->backend != "local" && o->backend != "slurm")
      throw InputError("", 0, "--backend", "expected local or slurm, got '" + o->backend + "'");
    std::optional<Format> exportFmt;
    if (!o->exportFmt.empty()) exportFmt = parseFormat(o->exportFmt);
    if (o->jobs < 0 || o->arrayChunk < 1 || o->cpusPerTask < 1 || o->timeout < 0)
      throw InputError("", 0, "--jobs/--array-chunk/--cpus-per-task/--timeout", "expected positive numbers");
    if (o->spec.empty() && !o->list && !exportFmt && o->reportDir.empty() && !o->collect)
      throw InputError("", 0, "spec", "give a sweep spec (see configs/sweeps/), or --db with --list, --export, --report or --collect");
    fs::path dbPath(o->db);
    if (dbPath.has_parent_path() && o->db == "out/sweep.db") fs::create_directories(dbPath.parent_path());

    const std::string version = socsim::version();
    const std::string calibration = sweep::calibrationFingerprint(sourceDir());
    std::optional<sweep::Spec> spec;
    std::vector<sweep::Point> points;
    std::string id;
    if (!o->spec.empty()) {
      spec = sweep::parseSpec(o->spec, boardsDir());
      points = sweep::expand(*spec);
      sweep::checkAgainstBoards(*spec, points);
      id = sweep::sweepId(*spec, points);
    }
    if (!o->spec.empty() && o->check) {
      auto qs = sweep::selectQueries(*spec, measuredDir());
      // --point-range was ignored here: the plan listed every point, not the ones a run would.
      const int n = static_cast<int>(points.size());
      auto [first, last] = o->pointRange.empty() ? std::pair<int, int>{0, n} : parseRange(o->pointRange, n);
      std::cerr << "sweep " << spec->name << " (" << id << "): " << points.size() << " points";
      if (!o->pointRange.empty())
        std::cerr << " (--point-range: " << std::max(0, last - first) << " of them, " << first << ".." << last - 1 << ")";
      std::cerr << ", method " << spec->method << "; benchmarks per point:";
      for (size_t b = 0; b < qs.size(); ++b) std::cerr << " " << spec->boards[b] << " " << qs[b].size();
      std::cerr << "; spec checked against the boards' config schema\n";
      // One column per swept key and per key linked to it with `with:` (set with it, value by
      // value): the plan shows every override a point applies.
      Table t;
      t.columns = {"point", "board"};
      for (const auto& p : spec->parameters) {
        t.columns.push_back(p.key);
        for (const auto& w : p.with) t.columns.push_back(w.first);
      }
      t.numeric.assign(t.columns.size(), false);
      for (const auto& p : points) {
        if (p.index < first || p.index >= last) continue;
        std::map<std::string, std::string> applied;
        for (const auto& o : p.overrides) {
          auto eq = o.find('=');
          if (eq != std::string::npos) applied[o.substr(0, eq)] = o.substr(eq + 1);
        }
        std::vector<std::string> row = {std::to_string(p.index), spec->boards[static_cast<size_t>(p.boardIndex)]};
        for (size_t c = 2; c < t.columns.size(); ++c) {
          auto it = applied.find(t.columns[c]);
          row.push_back(it == applied.end() ? "" : it->second);
        }
        t.addRow(row);
      }
      t.print(std::cout, fmt);
      return 0;
    }

    if (!spec && !fs::exists(o->db)) throw InputError(o->db, 0, "--db", "no such results database");
    sweep::ResultsDb db(o->db, o->shard);
    if (o->list) {
      Table t;
      t.columns = {"sweep", "id", "method", "points", "ok", "failed", "pending", "created", "socsim", "calibration"};
      t.numeric = {false, false, false, true, true, true, true, false, false, false};
      for (const auto& s : db.sweeps())
        t.addRow({s.name, s.id, s.method, std::to_string(s.points), std::to_string(s.ok), std::to_string(s.failed),
                  std::to_string(s.pending), s.createdUtc, s.socsimVersion, s.calibration});
      t.print(std::cout, fmt);
      return 0;
    }
    std::string shardRoot = o->db + ".shards";
    int rc = 0;
    if (spec) {
      auto queries = sweep::selectQueries(*spec, measuredDir());
      db.registerSweep(id, *spec, points, queries, version, calibration);
      std::string shardDir = o->shardDir.empty() ? shardRoot + "/" + spec->name + "-" + id : o->shardDir;
      double timeout = o->timeout > 0 ? o->timeout : spec->timeoutSeconds;
      auto done = db.finished(id, !o->retryFailed);
      if (o->collect) {
        int n = sweep::collectShards(db, shardDir);
        std::cerr << "sweep " << spec->name << ": collected " << n << " finished points from " << shardDir << "\n";
      } else if (o->backend == "slurm") {
        sweep::SlurmOptions so;
        so.partition = o->partition;
        so.arrayChunk = o->arrayChunk;
        so.cpusPerTask = o->cpusPerTask;
        so.shardDir = fs::absolute(shardDir).lexically_normal().string();
        so.socsimPath = selfExe();
        so.specPath = fs::absolute(o->spec).lexically_normal().string();
        so.timeoutSeconds = timeout;
        auto sub = sweep::submitSlurm(*spec, points, done, so);
        if (sub.jobId.empty()) {
          std::cerr << "sweep " << spec->name << ": every point is finished; nothing submitted\n";
        } else {
          std::cerr << "sweep " << spec->name << ": submitted Slurm job " << sub.jobId << " (" << sub.tasks
                    << " array tasks, " << sub.points << " points; script " << sub.script << ")\n";
          if (o->wait) {
            auto t0 = std::chrono::steady_clock::now();
            std::string states = sweep::waitSlurm(sub.jobId, isatty(STDERR_FILENO));
            if (!states.empty()) std::cerr << "sacct:\n" << states << "\n";
            else std::cerr << "sacct: no accounting storage configured; task states from the shards\n";
            int n = sweep::collectShards(db, shardDir);
            double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << "sweep " << spec->name << ": collected " << n << " finished points from " << shardDir
                      << " after " << sweep::formatDuration(wall) << "\n";
          } else {
            std::cerr << "collect the results with: socsim sweep " << o->spec << " --db " << o->db << " --collect\n";
          }
        }
      } else {
        int n = static_cast<int>(points.size());
        auto [a, b] = o->pointRange.empty() ? std::pair<int, int>{0, n} : parseRange(o->pointRange, n);
        std::vector<sweep::Point> todo;
        for (int i = a; i < b; ++i)
          if (!done.count(i)) todo.push_back(points[static_cast<size_t>(i)]);
        sweep::LocalOptions lo;
        lo.jobs = o->jobs > 0 ? o->jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        lo.timeoutSeconds = timeout;
        // A terminal gets a bar redrawn in place; a redirected stderr (a log) a line every 10 s.
        lo.progress = !o->shard;
        lo.progressLineSeconds = isatty(STDERR_FILENO) ? 0 : 10;
        std::string backend = o->shard ? "slurm" : "local";
        if (!o->shard)
          std::cerr << "sweep " << spec->name << " (" << id << "): " << points.size() << " points, "
                    << (b - a) - static_cast<int>(todo.size()) << " already finished, " << todo.size()
                    << " to run on " << lo.jobs << " worker processes; results in " << o->db << "\n";
        auto sum = sweep::runLocal(*spec, todo, queries, lo, [&](const sweep::PointResult& r) {
          db.record(id, r, version, calibration, backend);
          if (!r.ok && (!lo.progress || lo.progressLineSeconds > 0)) std::cerr << "sweep: point " << r.index << " failed: " << r.error << "\n";
        });
        std::cerr << "sweep " << spec->name << ": ran " << sum.ran << " points (" << sum.ok << " ok, " << sum.failed
                  << " failed) in " << sweep::formatDuration(sum.wallSeconds);
        if (sum.ran) std::cerr << ", " << formatSig(sum.wallSeconds / sum.ran * lo.jobs, 3) << " s per point per worker";
        std::cerr << "\n";
        if (sum.interrupted) {
          std::cerr << "sweep: interrupted; " << todo.size() - static_cast<size_t>(sum.ran)
                    << " points not finished (re-run the same command to resume)\n";
          return 130;
        }
        // A failed point (timed out, crashed, a config the loader rejected) is not success:
        // the results are still recorded and printed, and the exit status says so.
        // (A Slurm array task, --shard, leaves its failures to the collecting run.)
        if (sum.failed && !o->shard) {
          rc = 1;
          std::cerr << "sweep " << spec->name << ": " << sum.failed
                    << (sum.failed == 1 ? " point" : " points")
                    << " failed (exit status 1); see the reason column of --export, re-run "
                       "them with --retry-failed\n";
        }
      }
    } else if (o->collect) {
      if (!fs::is_directory(shardRoot)) throw InputError(shardRoot, 0, "--collect", "no shard folder beside --db");
      int n = 0;
      for (const auto& e : fs::directory_iterator(shardRoot))
        if (e.is_directory()) n += sweep::collectShards(db, e.path().string());
      std::cerr << "sweep: collected " << n << " finished points from " << shardRoot << "\n";
    }
    if (o->shard) return rc;
    auto info = db.find(spec ? id : o->sweepSel);
    if (exportFmt) {
      printResults(db, info, *exportFmt);
    } else if (spec && !o->collect && !(o->backend == "slurm" && !o->wait)) {
      printSpread(info, db.results(info.id), fmt);
    }
    if (!o->reportDir.empty()) {
      sweep::writeSweepReport(db, info, o->reportDir);
      std::cerr << "sweep: report written to " << o->reportDir << "/index.html\n";
    }
    return rc;
  };
}

}  // namespace socsim::app
