// socsim validate [--board B] [--family F] [--format table|csv|json] [--measured FILE...]
//                 [--jobs N] [--out DIR] [--policy]
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cctype>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "apps/socsim/commands.h"
#include "sweep/report.h"
#include "calibration/dataset/measured_row.h"
#include "calibration/fit/uncertainty.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/stop_signal.h"
#include "common/table.h"
#include "soc/config/board_config.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "validation/cross_guide.h"
#include "validation/validate.h"

namespace socsim::app {

namespace {

std::string pct(double frac) { return formatSig(100.0 * frac, 3); }

/// One summary row. `machine`: the CSV files' cells, computed statistics with kResultDigits
/// significant digits (formatResult) as the README promises; otherwise the printed table's 3.
void addSummaryRow(Table& t, const validation::GroupSummary& g, bool machine) {
  auto cov = g.measured ? static_cast<double>(g.predicted) / g.measured : 0.0;
  auto percent = [machine](double frac) { return machine ? formatResult(100.0 * frac) : pct(frac); };
  auto plain = [machine](double v) { return machine ? formatResult(v) : formatSig(v, 3); };
  t.addRow({g.name, std::to_string(g.measured), std::to_string(g.predicted), percent(cov),
            std::to_string(g.counted), std::to_string(g.excluded), std::to_string(g.notModelled),
            std::to_string(g.failed), g.rel.n ? percent(g.rel.median) : "",
            g.rel.n ? percent(g.rel.within10) : "", g.rel.n ? percent(g.rel.within25) : "",
            g.pp.n ? plain(g.pp.median) : ""});
}

/// Key to the printed summaries' short headers.
constexpr const char* kSummaryKey =
    "(pred = rows predicted, cov = coverage, excl = excluded by the flag policy, not_mod = not "
    "modelled,\n in10/in25 = share of scored rows within 10 % / 25 %, MdAE_pp = CPU load / loss "
    "median abs. error)\n";

/// The per-family / per-board summary. `compact`: the printed table's short headers (it fits in
/// 100 columns; kSummaryKey explains them); the CSV files keep the documented column names.
Table summaryTable(const std::vector<validation::GroupSummary>& groups, const char* what,
                   const validation::GroupSummary* total, bool compact = false) {
  Table t;
  if (compact)
    t.columns = {what,   "rows",    "pred",   "cov_%",   "scored", "excl",
                 "not_mod", "failed", "MdAPE_%", "in10_%", "in25_%", "MdAE_pp"};
  else
    t.columns = {what,       "rows",       "predicted", "coverage_%", "scored",    "excluded",
                 "not_modelled", "failed", "MdAPE_%",   "within10_%", "within25_%", "MdAE_pp"};
  t.numeric.assign(t.columns.size(), true);
  t.numeric[0] = false;
  for (const auto& g : groups) addSummaryRow(t, g, !compact);
  if (total) addSummaryRow(t, *total, !compact);
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
  auto num = [](double v) { return formatResult(v); };
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

/// Evaluations per cross-validation refit when --cv-evals is not given.
constexpr int kDefaultCvEvals = 15;

/// Width the printed (table format) per-row listing fits in: an 80-120 column terminal.
constexpr std::size_t kTableWidth = 120;

/// "natural" order: runs of digits compare as numbers ("sz50" < "sz125k", "cores=2" < "cores=16").
bool naturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
      x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
      y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

/// The per-row listing of the table format: rows sorted by board, family, benchmark, metric
/// and params (natural order; the same row from two guides side by side), one section per
/// board and family so that those two columns become its heading, lines fitted to kTableWidth
/// (long benchmark/params/status cells continue on the next line). The csv/json output and
/// validate.csv keep the contract's columns and the dataset's order.
void printRowListing(std::ostream& os, const std::vector<validation::ValidationRow>& results) {
  const auto cross = validation::crossGuide(results);
  std::vector<std::size_t> order(results.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto key = [&](std::size_t i) {
    const auto& m = results[i].measured;
    return std::vector<const std::string*>{&m.board, &m.family, &m.benchmark, &m.metric, &m.params};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    auto a = key(x), b = key(y);
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (naturalLess(*a[k], *b[k])) return true;
      if (naturalLess(*b[k], *a[k])) return false;
    }
    return false;
  });
  for (std::size_t at = 0; at < order.size();) {
    const auto& first = results[order[at]].measured;
    std::size_t end = at;
    while (end < order.size() && results[order[end]].measured.board == first.board &&
           results[order[end]].measured.family == first.family)
      ++end;
    Table t;
    t.columns = {"benchmark", "metric", "params", "unit", "measured", "predicted", "error", "status",
                 "other_guide"};
    t.numeric = {false, false, false, false, true, true, true, false, false};
    t.fitWidth = terminalColumns(kTableWidth);
    for (std::size_t k = at; k < end; ++k) {
      const auto& r = results[order[k]];
      auto f = validation::toCsvFields(r);
      std::string err;
      if (!f[8].empty())
        err = r.errorKind == validation::ErrorKind::Relative ? formatSig(100 * r.error, 3) + "%"
                                                               : formatSig(r.error, 3) + "pp";
      t.addRow({f[2], f[3], f[4], f[5], f[6], r.predicted ? formatSig(*r.predicted, 4) : "", err,
                f[10], validation::crossGuideCell(cross[order[k]])});
    }
    os << (at ? "\n" : "") << first.boardLabel() << " / "
       << first.family << " (" << (end - at) << (end - at == 1 ? " row" : " rows") << ")\n";
    t.print(os, Format::Table);
    at = end;
  }
}

namespace fs = std::filesystem;

/// True when a `--board` item names a board YAML file rather than a board.
bool isBoardPath(const std::string& item) {
  fs::path p(item);
  return p.has_parent_path() || p.extension() == ".yaml" || p.extension() == ".yml";
}

/// FNV-1a, 64 bit: a short name for a long option value that is the same on every host and
/// build (std::hash is not).
std::string shortHash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) out += hex[(h >> (60 - 4 * i)) & 0xf];
  return out;
}

/// What makes a validate run's results differ from the plain full run: its folder name is made
/// from these, so that no run overwrites another's files.
struct RunTag {
  std::string boards, families;  ///< the --board names (board files by their board.name), --family
  /// board.name -> the board YAML file given for it on --board
  std::map<std::string, std::string> boardFiles;
  std::string cv;                ///< lobo | release | ""
  int cvEvals = 15, cvEvalsDefault = 15;
  double cvBudget = 0;           ///< --time-budget of a --cv run (0: none)
  std::string cvGroups;          ///< --cv-groups of a --cv run ("": every group)
  std::vector<std::string> sets;  ///< --set key=value, in the order given
};

/// The folder name of a run that is not the plain full run ("board-a+b_family-c",
/// "..._cv-lobo", "..._set-<short form or hash>", a board file as "board-<name>.<file stem>-<hash
/// of its path and text>"); "" for the plain full run.
std::string filterFolder(const RunTag& run) {
  auto part = [](const std::string& what, const std::vector<std::string>& items) {
    std::string s = what;
    const char* sep = "-";
    for (const auto& item : items) {
      s += sep + item;
      sep = "+";
    }
    return s;
  };
  std::vector<std::string> boards;
  for (const auto& b : splitCommaList(run.boards)) {
    auto f = run.boardFiles.find(b);
    if (f == run.boardFiles.end()) {
      boards.push_back(b);
      continue;
    }
    std::error_code ec;
    auto canon = fs::weakly_canonical(f->second, ec);
    std::ifstream in(f->second, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    boards.push_back(b + "." + fs::path(f->second).stem().string() + "-" +
                     shortHash((ec ? f->second : canon.string()) + '\n' + text));
  }
  std::vector<std::string> tags;
  if (!boards.empty()) tags.push_back(part("board", boards));
  if (!run.families.empty()) tags.push_back(part("family", splitCommaList(run.families)));
  if (!run.cv.empty())
    tags.push_back("cv-" + run.cv +
                   (run.cvEvals != run.cvEvalsDefault ? "-evals" + std::to_string(run.cvEvals) : "") +
                   (run.cvBudget > 0 ? "-budget" + formatNumber(run.cvBudget) : "") +
                   (run.cvGroups.empty() ? "" : "-" + part("groups", splitCommaList(run.cvGroups))));
  if (!run.sets.empty()) {
    std::string all;
    for (const auto& kv : run.sets) all += (all.empty() ? "" : "+") + kv;
    // Short overrides stay readable; long ones (or many) become a hash of the list.
    tags.push_back("set-" + (all.size() <= 40 ? all : shortHash(all)));
  }
  std::string tag;
  for (const auto& t : tags) tag += (tag.empty() ? "" : "_") + t;
  for (char& c : tag)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '+' && c != '.')
      c = '_';
  if (tag.size() > 150) tag = tag.substr(0, 130) + "-" + shortHash(tag);
  return tag;
}

/// Columns of validate-rows.csv (the sidecar of validate.csv; see the README).
std::vector<std::string> validateRowsHeader() {
  return {"row", "board", "family", "benchmark", "metric", "params", "unit",
          "source", "section", "table", "flag", "status", "reason"};
}

/// Row `n` (1-based, validate.csv's data-row order) of validate-rows.csv: the reason is the
/// model's note for not-modelled / failed rows and the flag's text for excluded rows.
std::vector<std::string> validateRowsFields(std::size_t n, const validation::ValidationRow& r) {
  const auto& m = r.measured;
  std::string reason = r.note;
  if (reason.empty() && r.status.rfind("excluded:", 0) == 0) reason = m.flag;
  return {std::to_string(n), m.board, m.family, m.benchmark, m.metric, m.params, m.unit,
          m.source, m.section, m.table, m.flag, r.status, reason};
}

/// Creates `dir` and checks that a file can be written in it, before any prediction runs:
/// a folder that cannot be used is bad input (exit 2), not a late internal error.
void prepareOutDir(const std::string& dir, const std::string& option = "--out") {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw InputError("", 0, option,
                     "cannot create the output folder '" + dir + "': " +
                         (ec ? ec.message() : std::string("a file of that name exists")));
  std::string probe = dir + "/.socsim-write-check-" + std::to_string(::getpid());
  bool ok;
  {
    std::ofstream f(probe, std::ios::binary);
    ok = f.good() && (f << "x").flush().good();
  }
  fs::remove(probe, ec);
  if (!ok) throw InputError("", 0, option, "cannot write in the output folder '" + dir + "'");
}

/// Writes one result file; a failed write (disk full) is reported, not a truncated file.
void writeFile(const std::string& path, const std::function<void(std::ostream&)>& body) {
  std::ofstream os(path, std::ios::binary);
  body(os);
  os.close();
  if (!os) throw InputError(path, 0, "--out", "write failed (disk full or not writable?)");
}

/// The report (when asked) and the results on stdout in `fmt`: the end of a validate run, and all
/// of `validate --from DIR`.
int printResults(const std::vector<validation::ValidationRow>& results,
                 const validation::Summary& summary, Format fmt, const std::string& report) {
  if (!report.empty()) {
    sweep::writeValidateReport(results, summary, report);
    std::cerr << "validate: report written to " << report << "/index.html\n";
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
    for (int i : {6, 7, 8, 12, 13}) t.numeric[i] = true;
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
  // other_guide: the same row in another guide (does the release-to-release spread exceed the
  // model error?).
  printRowListing(std::cout, results);
  std::cout << "\nPer family (MdAPE over scored rows; CPU load and loss in percentage points):\n"
            << kSummaryKey;
  summaryTable(summary.families, "family", &summary.total, true).print(std::cout, Format::Table);
  std::cout << "\nPer board:\n";
  summaryTable(summary.boards, "board", nullptr, true).print(std::cout, Format::Table);
  std::cout << "\n" << coverageLine(summary) << "\n";
  return 0;
}

/// `validate --cv`'s per-family table (cvFamilySummary), with an `all` line over every
/// relative (non-pp) held-out row.
Table cvSummaryTable(const std::map<std::string, calib::CvFamilySummary>& sums) {
  Table t;
  t.columns = {"family", "kind", "cv_rows", "cv_mdape", "within_25", "no_donor_rows",
               "no_donor_mdape", "interval_rows", "inside_80", "inside_share"};
  t.numeric = {false, false, true, true, true, true, true, true, true, true};
  auto share = [](int n, int of) { return of ? pct(double(n) / of) : std::string(); };
  int rows = 0, nd = 0, checked = 0, inside = 0;
  double within = 0;
  for (const auto& [key, s] : sums) {
    t.addRow({s.family, s.pp ? "pp" : "rel", std::to_string(s.rows),
              s.rows ? (s.pp ? formatSig(s.mdape, 3) : pct(s.mdape)) : std::string(),
              s.rows ? pct(s.within25) : std::string(), std::to_string(s.noDonor),
              s.noDonor ? (s.pp ? formatSig(s.noDonorMdape, 3) : pct(s.noDonorMdape)) : std::string(),
              std::to_string(s.checked), std::to_string(s.inside), share(s.inside, s.checked)});
    if (s.pp) continue;
    rows += s.rows;
    within += s.within25 * s.rows;
    nd += s.noDonor;
    checked += s.checked;
    inside += s.inside;
  }
  t.addRow({"all (rel)", "rel", std::to_string(rows), "", rows ? pct(within / rows) : std::string(),
            std::to_string(nd), "", std::to_string(checked), std::to_string(inside),
            share(inside, checked)});
  return t;
}

}  // namespace

Action addValidate(CLI::App& app) {
  struct Opts {
    std::string board, family, format = "table", cv, out = "out", report, from, cvGroups;
    std::vector<std::string> measured, sets;
    int jobs = 0, cvEvals = kDefaultCvEvals;
    double timeBudget = 0;
    bool policy = false, noOut = false, progress = false, noProgress = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("validate", "predicted vs measured for every measured row (the main job)");
  sub->add_option("--board", o->board,
                  "only these boards (comma-separated names, or paths to board YAML files)")
      ->transform(commaList());
  sub->add_option("--family", o->family, "only these families (comma-separated)")
      ->transform(commaList());
  sub->add_option("--format", o->format, "table|csv|json");
  sub->add_option("--measured", o->measured, "validate against these measured CSVs instead of the built-in dataset");
  sub->add_option("--cv", o->cv,
                  "cross-validation by refitting: lobo (each board held out) | release (each "
                  "guide held out). For each held-out unit, every fit group with a committed fit "
                  "whose fitted rows include the unit's rows is refitted without them, in stage "
                  "order; only the fitted parameters the held-out rows read are refitted (from "
                  "their defaults, at most --cv-evals evaluations; the other fitted parameters "
                  "keep their committed values): a reduced refit, not the full screen + fit. "
                  "Rows whose refitted parameters no other row reads are no-donor.");
  sub->add_option("--cv-evals", o->cvEvals,
                  "evaluations per cross-validation refit (default 15)")
      ->check(atLeastOne());
  sub->add_option("--cv-groups", o->cvGroups,
                  "with --cv: refit only these committed fit groups (comma-separated, e.g. "
                  "multibench,nbench); the other groups keep their committed values, fitted with "
                  "the held-out rows, so for the rows they move each fold is a partial leave-out "
                  "(the plan line names them). For a study of one stage with enough --cv-evals "
                  "when refitting another (memory) would cost hours")
      ->transform(commaList());
  sub->add_option("--time-budget", o->timeBudget,
                  "with --cv: total wall seconds the cross-validation aims at (default 0: none). "
                  "The refits share what the screen leaves by cost: the same number of trials each "
                  "(at least min(--cv-evals, n + 2) for n refitted parameters); each refit's evaluations and stop reason are in "
                  "cv-folds.csv and the fold lines on stderr. A refit always runs its start and "
                  "end predictions, so a run can exceed a very small budget");
  sub->add_option("--set", o->sets, "config override key=value (what-if), applied to every board");
  sub->add_option("--jobs,-j", o->jobs, "worker processes (default: number of cores)")
      ->check(atLeastOne());
  sub->add_option("--out", o->out,
                  "folder for validate.csv and the summaries (default: out; a run filtered by "
                  "--board/--family, or run with --cv, --set or a board YAML file, writes into a "
                  "subfolder named after them, e.g. out/board-am335x-evm_cv-lobo_set-<k=v or hash>)");
  sub->add_flag("--no-out", o->noOut, "do not write result files");
  sub->add_flag("--progress", o->progress,
                "show every progress line on stderr even when it is not a terminal (e.g. "
                "'validate --cv lobo > log 2>&1'; without it a redirected stderr gets one board "
                "line at most every 10 s, and --cv shows no plan); on a terminal it is shown anyway");
  sub->add_flag("--no-progress", o->noProgress, "no progress lines on stderr");
  sub->add_flag("--policy", o->policy, "print the exclusion policy for flagged rows and exit");
  sub->add_option("--report", o->report, "also write an HTML report (index.html + plots) into DIR");
  sub->add_option("--from", o->from,
                  "simulate nothing: take the results of an earlier run from DIR/validate.csv "
                  "(DIR is that run's --out folder, or the CSV itself) and print them, and write "
                  "--report, as that run would (--board/--family select rows by name; numbers "
                  "are the CSV's 6 significant digits)");
  return [o, sub]() {
    Format fmt = parseFormat(o->format);
    if (o->policy) {
      if (fmt == Format::Table) {
        std::cout << validation::exclusionPolicyText();
        return 0;
      }
      Table t;
      t.columns = {"flag", "scored", "meaning"};
      t.numeric = {false, false, false};
      for (const auto& [flag, what] : validation::exclusionPolicy()) t.addRow({flag, "no", what});
      t.addRow({"(any other flag)", "yes", "rows with other flags are scored"});
      t.print(std::cout, fmt);
      return 0;
    }
    if (!o->cv.empty() && o->cv != "lobo" && o->cv != "release")
      throw InputError("", 0, "--cv", "expected lobo or release, got '" + o->cv + "'");
    // An option that only applies with another must not be dropped silently.
    if (o->cv.empty() && sub->count("--cv-evals"))
      throw InputError("", 0, "--cv-evals",
                       "applies to a cross-validation run only: add --cv lobo|release or drop it");
    if (o->cv.empty() && sub->count("--cv-groups"))
      throw InputError("", 0, "--cv-groups",
                       "applies to a cross-validation run only: add --cv lobo|release or drop it");
    if (sub->count("--cv-groups")) {
      std::string known;
      for (const auto& g : calib::fitGroups()) known += (known.empty() ? "" : ", ") + g.name;
      const auto names = splitCommaList(o->cvGroups);
      if (names.empty()) throw InputError("", 0, "--cv-groups", "expected fit group names: " + known);
      for (const auto& n : names)
        if (std::none_of(calib::fitGroups().begin(), calib::fitGroups().end(),
                         [&n](const calib::FitGroup& g) { return g.name == n; }))
          throw InputError("", 0, "--cv-groups",
                           "unknown fit group '" + n + "'; the fit groups are: " + known);
    }
    if (o->cv.empty() && sub->count("--time-budget"))
      throw InputError("", 0, "--time-budget",
                       "applies to a cross-validation run only: add --cv lobo|release or drop it");
    if (!(o->timeBudget >= 0) || !std::isfinite(o->timeBudget))
      throw InputError("", 0, "--time-budget", "expected 0 or more seconds");
    if (o->noOut && sub->count("--out"))
      throw InputError("", 0, "--out", "--out and --no-out contradict each other");
    if (!o->cv.empty() && !o->measured.empty())
      throw InputError("", 0, "--cv",
                       "cross-validation refits on the built-in dataset; it does not combine "
                       "with --measured");
    requireFamilies(o->family, "--family");
    if (!o->from.empty()) {
      if (!o->cv.empty() || !o->sets.empty() || !o->measured.empty())
        throw InputError("", 0, "--from",
                         "--from re-reads earlier results; it does not combine with --cv, --set "
                         "or --measured (re-run validate without --from for those)");
      std::string file = o->from;
      if (std::filesystem::is_directory(file)) file += "/validate.csv";
      auto all = validation::readValidateCsv(file);
      // The CSV has no source, section, table or flag: take them from the built-in dataset row
      // with the same identity and value (the listing's other-guide column needs the source).
      {
        std::map<std::vector<std::string>, std::vector<calib::MeasuredRow>> byKey;
        auto keyOf = [](const calib::MeasuredRow& m) {
          return std::vector<std::string>{m.board,  m.family, m.benchmark,          m.metric,
                                          m.params, m.unit,   formatNumber(m.value)};
        };
        auto dataset = readMeasuredArg({});
        for (auto it = dataset.rbegin(); it != dataset.rend(); ++it) byKey[keyOf(*it)].push_back(*it);
        for (auto& r : all) {
          auto k = byKey.find(keyOf(r.measured));
          if (k == byKey.end() || k->second.empty()) continue;
          r.measured = k->second.back();
          k->second.pop_back();
        }
      }
      std::vector<validation::ValidationRow> results;
      for (auto& r : all)
        if (inCommaList(o->board, r.measured.board) && inCommaList(o->family, r.measured.family))
          results.push_back(std::move(r));
      if (results.empty())
        throw InputError(file, 0, "--board/--family", "no row of this file matches the selection");
      return printResults(results, validation::summarize(results), fmt, o->report);
    }
    std::vector<calib::MeasuredRow> rows = readMeasuredArg(o->measured);
    // A --board item that is a board YAML file selects the rows of its board.name, predicted
    // with that file's config.
    std::set<std::string> knownBoards, knownFamilies;
    for (const auto& r : rows) {
      if (!r.board.empty()) knownBoards.insert(r.board);
      knownFamilies.insert(r.family);
    }
    const std::string boardsDir = sourceDir() + "/configs/boards";
    std::map<std::string, std::string> boardFiles;
    std::string boards;
    for (const auto& item : splitCommaList(o->board)) {
      std::string name = item;
      if (isBoardPath(item)) {
        std::string file = soc::findBoardFile(item, boardsDir);
        name = soc::loadBoard(file).board.name;
        if (!knownBoards.count(name))
          throw InputError(file, 0, "board.name",
                           "board '" + name + "' has no measured rows to validate against (use "
                           "'socsim run --board " + item + "' to predict it)");
        boardFiles[name] = file;
      }
      boards += (boards.empty() ? "" : ",") + name;
    }
    requireKnown(boards, knownBoards, "--board", "board");
    requireKnown(o->family, knownFamilies, "--family", "family");
    std::vector<calib::MeasuredRow> sel;
    for (auto& r : rows)
      if (inCommaList(boards, r.board) && inCommaList(o->family, r.family)) sel.push_back(std::move(r));
    if (sel.empty())
      throw InputError("", 0, "--board/--family", "no measured row matches the selection");

    // A --set that does not apply to a selected board (unknown key, index out of range, bad
    // value) is bad input for the whole run: report it before anything is simulated rather than
    // as one failed row per measured value.
    if (!o->sets.empty()) {
      std::set<std::string> selBoards;
      for (const auto& r : sel)
        if (!r.board.empty()) selBoards.insert(r.board);
      for (const auto& b : selBoards) {
        auto f = boardFiles.find(b);
        std::string file = f != boardFiles.end() ? f->second : soc::findBoardFile(b, boardsDir);
        try {
          printOverrideWarnings(soc::loadBoard(file, o->sets));
        } catch (const InputError& e) {
          throw InputError("", 0, "",
                           std::string(e.what()) + " (board " + b +
                               "; validate applies every --set to every selected board: narrow "
                               "the run with --board)");
        }
      }
    }

    // The report folder too is checked before anything is simulated: writing it comes before
    // the results are printed, so a folder that cannot be written lost them (with --no-out, all).
    if (!o->report.empty()) prepareOutDir(o->report, "--report");

    // A filtered run (and one with --cv, --set or a board file) writes into a subfolder named
    // after what sets it apart, so that it never overwrites the files of another run.
    std::string outDir = o->out;
    RunTag runTag;
    runTag.boards = boards;
    runTag.families = o->family;
    runTag.boardFiles = boardFiles;
    runTag.cv = o->cv;
    runTag.cvEvals = o->cvEvals;
    runTag.cvEvalsDefault = kDefaultCvEvals;
    runTag.cvBudget = o->timeBudget;
    runTag.cvGroups = o->cvGroups;
    runTag.sets = o->sets;
    if (std::string tag = filterFolder(runTag); !tag.empty()) outDir += "/" + tag;
    if (!o->noOut) {
      if (o->out.empty()) throw InputError("", 0, "--out", "empty output folder (use --no-out to write nothing)");
      prepareOutDir(outDir);
      prepareOutDir(outDir + "/resolved");
    }

    validation::ValidateOptions vo;
    vo.jobs = o->jobs > 0 ? o->jobs : std::max(1u, std::thread::hardware_concurrency());
    if (o->progress && o->noProgress)
      throw InputError("", 0, "--progress", "--progress and --no-progress contradict each other");
    const bool progress = !o->noProgress && (o->progress || isatty(STDERR_FILENO));
    // Progress goes to stderr (stdout stays the report): a run redirected to a log
    // (`make demo > log 2>&1`) still shows it is alive, throttled to a line every 10 s.
    vo.progress = !o->noProgress;
    vo.progressIntervalSeconds = progress ? 0 : 10;
    validation::RunnerOptions ro;
    ro.overrides = o->sets;
    ro.boardFiles = boardFiles;
    if (!o->noOut) ro.resolvedDir = outDir + "/resolved";
    auto runner = validation::makeBoardRunner(boardsDir, ro);
    std::optional<std::pair<int, int>> loboCoverage;
    std::map<std::string, std::pair<int, int>> coverageByFamily;
    std::map<std::string, calib::CvFamilySummary> cvSummary;
    std::vector<validation::ValidationRow> results;
    bool interrupted = false;
    std::string cvStopped;  // with --cv, interrupted: how many held-out units finished
    if (!o->cv.empty()) {
      // Ctrl-C / SIGTERM stop the refits at the next safe point (no new refit starts, a running
      // optimizer stops as at its time cap, crossValidate): the finished folds are kept and
      // predicted, the others' rows are failed:interrupted (validateCv), and the files below
      // are written for what finished. The validate passes inside run with their own guard
      // disabled, so the stop waits (blocked) here until the guard goes.
      StopSignalGuard stopGuard;
      calib::CalibrateOptions co;
      co.sourceDir = sourceDir();
      co.jobs = vo.jobs;
      co.loboEvaluations = o->cvEvals;
      co.cvGroups = splitCommaList(o->cvGroups);
      co.timeBudgetSeconds = o->timeBudget;
      co.log = progress ? &std::cerr : nullptr;
      // One line per held-out fold even into a redirected stderr (a long run into a log).
      co.foldLog = o->noProgress ? nullptr : &std::cerr;
      auto plan = calib::crossValidate(sel, co, o->cv);
      auto reg = calib::ParamRegistry::scan(sourceDir() + "/configs");
      auto committed = calib::readCommittedParams(sourceDir() + "/calibration/params", reg);
      std::pair<int, int> counts;
      results = calib::validateCv(sel, runner, vo, plan, committed, reg, &counts);
      if (!plan.interrupted.empty() || StopSignalGuard::stopRequestedOrPending()) {
        interrupted = true;
        std::set<std::string> units;
        for (const auto& r : sel) units.insert(calib::cvUnit(r, o->cv));
        cvStopped = "cv " + o->cv + ": interrupted; " +
                    std::to_string(units.size() - plan.interrupted.size()) + " of " +
                    std::to_string(units.size()) +
                    " held-out units finished (refitted without their rows, or nothing to "
                    "refit), the other " + std::to_string(plan.interrupted.size()) +
                    " units' rows are failed:interrupted";
      }
      loboCoverage = counts;
      coverageByFamily = calib::cvCoverageByFamily(results, plan);
      cvSummary = calib::cvFamilySummary(results, plan);
      std::string groups;
      for (const auto& g : plan.refitGroups) groups += (groups.empty() ? "" : ", ") + g;
      std::cerr << "cv " << o->cv << ": " << plan.refits << " refits of the committed groups ("
                << (groups.empty() ? std::string("none") : groups) << " of "
                << plan.groups.size() << " committed), " << plan.evaluations
                << " evaluations, " << plan.boardRuns << " board runs, "
                << formatSig(plan.seconds, 3) << " s\n";
      if (!plan.keptGroups.empty()) {
        std::string kept;
        for (const auto& g : plan.keptGroups) kept += (kept.empty() ? "" : ", ") + g;
        std::cerr << "cv " << o->cv << ": not a full leave-out: --cv-groups kept " << kept
                  << " at the committed values (fitted with every unit's rows) in every fold\n";
      }
      if (plan.unitsAtCommitted > 0)
        std::cerr << "cv " << o->cv << ": the refits of " << plan.unitsAtCommitted << " of "
                  << plan.valuesByUnit.size()
                  << " held-out units landed on the committed values: their rows' held-out "
                     "predictions equal the in-sample ones (the fit does not depend on them)\n";
      if (!o->noOut) {
        // What each refit got: its evaluations, time cap and why it stopped.
        writeFile(outDir + "/cv-folds.csv", [&](std::ostream& os) {
          csv::writeRecord(os, {o->cv == "release" ? "source" : "board", "group", "params",
                                "trials", "evaluations", "seconds", "allotted_seconds", "stop"});
          for (const auto& f : plan.refitLog)
            csv::writeRecord(os, {f.unit, f.group, std::to_string(f.params),
                                  std::to_string(f.trials), std::to_string(f.evaluations),
                                  formatSig(f.seconds, 4), formatSig(f.allotSeconds, 4), f.stop});
        });
        writeFile(outDir + "/cv-summary.csv", [&](std::ostream& os) {
          cvSummaryTable(cvSummary).print(os, Format::Csv);
        });
        writeFile(outDir + "/cv-refits.csv", [&](std::ostream& os) {
          csv::writeRecord(os, {o->cv == "release" ? "source" : "board", "parameter", "value"});
          for (const auto& [unit, values] : plan.valuesByUnit)
            for (const auto& [name, v] : values) csv::writeRecord(os, {unit, name, formatNumber(v)});
        });
        // The share of each family's cross-validated rows inside their 80 % interval.
        writeFile(outDir + "/cv-coverage.csv", [&](std::ostream& os) {
          csv::writeRecord(os, {"family", "rows_checked", "rows_inside", "share_inside"});
          for (const auto& [fam, c] : coverageByFamily)
            csv::writeRecord(os, {fam, std::to_string(c.first), std::to_string(c.second),
                                  formatNumber(double(c.second) / c.first)});
        });
      }
    } else {
      vo.interrupted = &interrupted;
      results = validation::validate(sel, runner, vo);
      calib::applyIntervals(results, calib::readIntervals(sourceDir()));
    }
    auto summary = validation::summarize(results);
    if (loboCoverage)
      std::cerr << o->cv << ": " << loboCoverage->second << " of " << loboCoverage->first
                << " scored cross-validated rows inside their 80 % interval ("
                << (loboCoverage->first ? pct(double(loboCoverage->second) / loboCoverage->first)
                                        : std::string("n/a"))
                << " %, target 70-90 %); rows of families without a committed fit are in-sample, rows "
                   "whose refitted parameters have no other row to learn from are no-donor\n";
    for (const auto& [fam, c] : coverageByFamily)
      std::cerr << "  " << fam << ": " << c.second << " of " << c.first << " inside ("
                << pct(double(c.second) / c.first) << " %)\n";

    if (!o->noOut) {
      writeFile(outDir + "/validate.csv", [&](std::ostream& os) {
        csv::writeRecord(os, validation::validateCsvHeader());
        for (const auto& r : results) csv::writeRecord(os, validation::toCsvFields(r));
      });
      // validate-rows.csv: the same rows in the same order, with what validate.csv's fixed
      // columns cannot carry: the row number (an identity can repeat: the same benchmark in
      // several guides, tables or sections), the measured row's guide, section, table and flag,
      // and why a row is not modelled, failed or excluded.
      writeFile(outDir + "/validate-rows.csv", [&](std::ostream& os) {
        csv::writeRecord(os, validateRowsHeader());
        for (std::size_t i = 0; i < results.size(); ++i)
          csv::writeRecord(os, validateRowsFields(i + 1, results[i]));
      });
      // One table per file, so each is one CSV.
      writeFile(outDir + "/validate-summary-family.csv", [&](std::ostream& os) {
        summaryTable(summary.families, "family", &summary.total).print(os, Format::Csv);
      });
      writeFile(outDir + "/validate-summary-board.csv", [&](std::ostream& os) {
        summaryTable(summary.boards, "board", nullptr).print(os, Format::Csv);
      });
      std::cerr << "validate: results written to " << outDir << "/\n";
    }

    if (interrupted) {
      // Ctrl-C / SIGTERM: the boards that finished are kept (written above unless --no-out);
      // the others are failed:interrupted. Exit 130 like an interrupted shell command.
      size_t lost = 0;
      for (const auto& r : results) lost += r.status == "failed:interrupted";
      if (!cvStopped.empty())
        std::cerr << cvStopped
                  << (o->noOut ? "" : "; validate.csv, validate-rows.csv and the cv-*.csv files "
                                      "for them are in " + outDir + "/")
                  << "\n";
      std::cerr << "validate: interrupted; " << lost << " rows of unfinished boards are "
                << "failed:interrupted" << (o->noOut ? "" : ", the rest are in " + outDir + "/")
                << "\n"
                << coverageLine(summary) << "\n";
      return 130;
    }

    int rc = printResults(results, summary, fmt, o->report);
    if (!o->cv.empty() && fmt == Format::Table) {
      std::cout << "\nCross-validation (" << o->cv
                << ") per family: held-out rows with a donor board (refitted without their "
                   "unit), their MdAPE (pp for CPU load) and share within 25 %; no-donor rows; "
                   "80 % interval coverage of the held-out rows (target 70-90 %):\n";
      cvSummaryTable(cvSummary).print(std::cout, Format::Table);
    }
    // A board whose config does not load is bad input: its rows are failed:config (written and
    // printed with everyone else's), and the run names it on stderr and exits 2.
    std::map<std::string, std::pair<size_t, std::string>> broken;
    const std::string kConfigFailed = "failed:config: ";
    for (const auto& r : results)
      if (r.status.compare(0, kConfigFailed.size(), kConfigFailed) == 0) {
        auto& b = broken[r.measured.board];
        ++b.first;
        b.second = r.status.substr(kConfigFailed.size());
      }
    for (const auto& [board, b] : broken)
      std::cerr << "validate: board " << board << ": the config did not load, its " << b.first
                << (b.first == 1 ? " row is" : " rows are") << " failed:config: " << b.second << "\n";
    return broken.empty() ? rc : 2;
  };
}

}  // namespace socsim::app
