// socsim params [--scope S] [--schemas] [--format table|csv|json]: the free (calibrated)
// parameters of the registry (calibration/fit/param_registry.h), or with --schemas every params
// schema's fields.
#include <algorithm>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "calibration/fit/calibrate.h"
#include "calibration/fit/param_overrides.h"
#include "calibration/fit/param_registry.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_registry.h"

namespace socsim::app {

namespace {
const char* kindName(params::Kind k) {
  switch (k) {
    case params::Kind::Real:
      return "real";
    case params::Kind::Integer:
      return "integer";
    case params::Kind::Bytes:
      return "bytes";
    case params::Kind::Bool:
      return "bool";
    case params::Kind::Text:
      return "text";
    case params::Kind::Choice:
      return "choice";
  }
  return "";
}

bool scopeMatches(const calib::FreeParam& p, const std::string& s) {
  if (s.empty()) return true;
  // A scope id or a folder of it ("components/cores", "workloads/nbench"), also without the
  // "components/" prefix ("cores/cortex_a72"), or a scope class ("core type").
  auto under = [&](const std::string& v) {
    return v.compare(0, s.size(), s) == 0 && (v.size() == s.size() || v[s.size()] == '/');
  };
  const std::string comp = "components/";
  std::string shortScope =
      p.scope.compare(0, comp.size(), comp) == 0 ? p.scope.substr(comp.size()) : p.scope;
  return under(p.scope) || under(shortScope) || p.scopeClass == s;
}

/// The free-parameter registry: one table of component/workload parameters, one of
/// board-scoped set-up parameters, and the counts. The `read` column and the counts come from
/// the committed read scan (calibration/reports/params-read.csv, `socsim params --scan`): a
/// parameter no model reads while predicting the measured data is listed but not counted as
/// free.
int listFree(const std::string& scope, Format fmt) {
  auto reg = calib::ParamRegistry::scan(sourceDir() + "/configs");
  auto fitted = calib::readCommittedParams(sourceDir() + "/calibration/params", reg);
  auto scan = calib::readParamScan(sourceDir());
  auto readStatus = [&](const calib::FreeParam& p) -> std::string {
    if (scan.empty()) return "";
    auto it = scan.find(p.name());
    return it == scan.end() ? "not scanned" : it->second == "read" ? "yes" : "no";
  };
  std::vector<const calib::FreeParam*> sel;
  for (const auto& p : reg.params())
    if (scopeMatches(p, scope)) sel.push_back(&p);
  if (!scope.empty() && sel.empty()) {
    // Each scope once (a preset declares many parameters), nearest first, at most kShow.
    std::set<std::string> unique;
    for (const auto& p : reg.params()) {
      unique.insert(p.scope);
      if (!p.scopeClass.empty()) unique.insert(p.scopeClass);
    }
    std::vector<std::string> scopes(unique.begin(), unique.end());
    std::stable_sort(scopes.begin(), scopes.end(), [&](const std::string& a, const std::string& b) {
      return config::editDistance(scope, a) < config::editDistance(scope, b);
    });
    const size_t kShow = 20;
    std::string list;
    for (size_t i = 0; i < scopes.size() && i < kShow; ++i) list += (i ? ", " : "") + scopes[i];
    throw InputError("--scope", 0, scope,
                     "no free parameter in scope '" + scope + "'; nearest of the " +
                         std::to_string(scopes.size()) + " scopes: " + list +
                         (scopes.size() > kShow ? ", ..." : "") +
                         " (a folder such as 'cores' or 'workloads' selects all below it; every "
                         "scope: the 'where' column of socsim params --format csv)");
  }
  // Table format: one line per parameter, the name never broken (it is what --set and the
  // params files take), the fitted value with its params file's group, the source cut to what
  // the terminal leaves, and only the columns a reader scans (scope_class, bounds_origin,
  // integer and where are in csv/json with the whole source). csv/json: bounds as two numeric
  // columns lo,hi (empty for a choice) instead of the table's "lo .. hi" text.
  const bool human = fmt == Format::Table;
  const std::size_t kTableWidth = 120, kMinSourceChars = 24;
  auto table = [&](bool board) {
    Table t;
    if (human)
      t.columns = {"name", "unit", "default", "fitted", "read", "bounds", "source"};
    else
      t.columns = {"name",   "scope_class", "unit", "default",       "fitted",  "read",
                   "lo",     "hi",          "bounds_origin", "integer", "where", "source"};
    t.numeric.assign(t.columns.size(), false);
    if (!human) t.numeric[6] = t.numeric[7] = true;
    for (const auto* p : sel) {
      if ((p->scopeKind == calib::ScopeKind::Board) != board) continue;
      const auto* f = fitted.find(p->scope, p->key);
      if (human) {
        std::string group;
        if (f) {
          group = f->origin.substr(f->origin.find_last_of('/') + 1);
          if (group.size() > 5 && group.compare(group.size() - 5, 5, ".yaml") == 0)
            group.resize(group.size() - 5);
        }
        t.addRow({p->name(), p->unit, p->text, f ? formatSig(f->value, 5) + " (" + group + ")" : "",
                  readStatus(*p),
                  p->numeric ? formatNumber(p->lo) + " .. " + formatNumber(p->hi)
                             : std::string("(choice)"),
                  p->source});
        continue;
      }
      t.addRow({p->name(), p->scopeClass, p->unit, p->text,
                f ? formatNumber(f->value) + " (" + f->origin + ")" : "", readStatus(*p),
                p->numeric ? formatNumber(p->lo) : "", p->numeric ? formatNumber(p->hi) : "",
                p->numeric ? p->boundsOrigin : "", p->integer ? "yes" : "no",
                "configs/" + p->scope + ".yaml:" + std::to_string(p->line), p->source});
    }
    if (human) {
      // The source gets what the other columns leave of the terminal's width.
      std::size_t used = 0;
      for (std::size_t i = 0; i + 1 < t.columns.size(); ++i) {
        std::size_t w = displayWidth(t.columns[i]);
        for (const auto& r : t.rows) w = std::max(w, displayWidth(r[i]));
        used += w + 2;
      }
      const std::size_t width = terminalColumns(kTableWidth);
      if (width >= used + kMinSourceChars) {
        const std::size_t cut = width - used;
        for (auto& r : t.rows) r.back() = clipText(r.back(), cut);
      } else {  // no room for a readable source: csv/json have it
        t.columns.pop_back();
        t.numeric.pop_back();
        for (auto& r : t.rows) r.pop_back();
      }
      // Still too wide (long names in a narrow terminal): the other columns wrap, never the name.
      t.fitWidth = width;
      t.keepWhole.assign(t.columns.size(), false);
      t.keepWhole[0] = true;
    }
    return t;
  };
  Table comp = table(false), board = table(true);
  int numeric = 0, boards = 0, nFitted = 0, unread = 0, unscanned = 0;
  for (const auto* p : sel) {
    std::string rs = readStatus(*p);
    if (rs == "no") {
      ++unread;  // listed, not counted
      continue;
    }
    unscanned += rs == "not scanned" ? 1 : 0;
    numeric += p->numeric ? 1 : 0;
    boards += p->scopeKind == calib::ScopeKind::Board ? 1 : 0;
    nFitted += fitted.find(p->scope, p->key) ? 1 : 0;
  }
  const int counted = static_cast<int>(sel.size()) - unread;
  std::string counts = std::to_string(counted) + (counted == 1 ? " free parameter (" : " free parameters (") +
                       std::to_string(numeric) + " numeric, " +
                       std::to_string(counted - numeric) +
                       (counted - numeric == 1 ? " calibrated choice); " : " calibrated choices); ") +
                       std::to_string(boards) +
                       " board-scoped (set-up facts); " + std::to_string(nFitted) +
                       " with a fitted value in calibration/params/";
  if (scan.empty())
    counts += "; no read scan committed (socsim params --scan): parameters no model reads are counted too";
  else
    counts += "; not counted: " + std::to_string(unread) +
              " declared \"calibrated\" that no model reads while predicting the measured data "
              "(read = no; calibration/reports/params-read.csv)" +
              (unscanned ? "; " + std::to_string(unscanned) +
                               " declared since the scan (read = not scanned; re-run socsim params --scan)"
                         : std::string());
  if (fmt == Format::Json) {
    std::cout << "{\"parameters\": ";
    comp.print(std::cout, fmt);
    std::cout << ",\n\"board_scoped\": ";
    board.print(std::cout, fmt);
    std::cout << ",\n\"count\": " << counted << ", \"unread\": " << unread
              << ", \"not_scanned\": " << unscanned << ", \"numeric\": " << numeric
              << ", \"board_scoped_count\": " << boards << ", \"fitted\": " << nFitted << "}\n";
    return 0;
  }
  if (fmt == Format::Csv) {
    // One CSV: a leading column says which list a row belongs to.
    Table all;
    all.columns = comp.columns;
    all.columns.insert(all.columns.begin(), "list");
    all.numeric.assign(all.columns.size(), false);
    for (const auto& r : comp.rows) {
      auto row = r;
      row.insert(row.begin(), "component");
      all.addRow(row);
    }
    for (const auto& r : board.rows) {
      auto row = r;
      row.insert(row.begin(), "board-scoped");
      all.addRow(row);
    }
    all.print(std::cout, fmt);
    std::cerr << counts << "\n";
    return 0;
  }
  comp.print(std::cout, fmt);
  std::cout << "\nBoard-scoped parameters (measurement set-up facts no datasheet gives): ";
  if (board.rows.empty()) {
    std::cout << "none\n";
  } else {
    std::cout << "\n";
    board.print(std::cout, fmt);
  }
  if (!comp.rows.empty() || !board.rows.empty())
    std::cout << "(source cut to the terminal's width, or left out without room; --format csv\n"
                 " has it whole, with scope_class, bounds_origin, integer and where)\n";
  std::cout << "\n" << counts << "\n";
  return 0;
}
}  // namespace

Action addParams(CLI::App& app) {
  struct Opts {
    std::string scope, format = "table";
    bool schemas = false, scan = false;
    int jobs = 0;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "params",
      "list the free (calibrated) parameters: name, scope, unit, default and its source, bounds, "
      "fitted value; --schemas lists every parameter schema");
  sub->add_option("--scope", o->scope,
                  "only this scope: a preset (components/cores/cortex_a72, cores/cortex_a72, "
                  "workloads/nbench) or a class ('core type'); with --schemas a schema (core, "
                  "cache, dram, ...)");
  sub->add_flag("--schemas", o->schemas, "every params schema's fields instead of the free parameters");
  sub->add_flag("--scan", o->scan,
                "predict every measured row of a modelled family once (all boards, minutes) and "
                "record which free parameters a model reads; writes "
                "calibration/reports/params-read.csv, which the listing's read column and counts use");
  sub->add_option("-j,--jobs", o->jobs, "worker processes for --scan (default: cores)")
      ->check(atLeastOne());
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
    if (o->scan) {
      calib::CalibrateOptions co;
      co.sourceDir = sourceDir();
      co.jobs = o->jobs > 0 ? o->jobs : std::max(1u, std::thread::hardware_concurrency());
      auto reads = calib::scanParamReads(calib::readMeasuredDir(measuredDir()), co);
      auto reg = calib::ParamRegistry::scan(sourceDir() + "/configs");
      calib::writeParamScan(sourceDir(), reg, reads);
      std::cout << "params --scan: " << reads.size() << " of " << reg.params().size()
                << " declared free parameters are read while predicting the measured data; "
                   "wrote calibration/reports/params-read.csv\n";
      return 0;
    }
    if (!o->schemas) return listFree(o->scope, fmt);
    auto schemas = soc::allSchemas();
    std::vector<std::string> scopes;
    for (const auto& s : schemas) scopes.push_back(s.scope);
    if (!o->scope.empty() && std::find(scopes.begin(), scopes.end(), o->scope) == scopes.end())
      throw InputError("--scope", 0, o->scope,
                       "unknown scope '" + o->scope + "'" + config::suggestion(o->scope, scopes));
    Table t;
    t.columns = {"scope", "where",    "key",        "type",   "unit",       "default",
                 "range", "required", "calibrated", "source", "description"};
    t.numeric.assign(t.columns.size(), false);
    for (const auto& s : schemas) {
      if (!o->scope.empty() && s.scope != o->scope) continue;
      for (size_t i = 0; i < s.fields.size(); ++i) {
        const auto& f = s.fields[i];
        std::string range;
        if (!f.values.empty())
          for (double v : f.values) range += (range.empty() ? "" : "|") + formatNumber(v);
        else if (f.kind == params::Kind::Real || f.kind == params::Kind::Integer ||
                 f.kind == params::Kind::Bytes)
          range = formatNumber(f.lo) + " .. " + formatNumber(f.hi);
        else if (f.kind == params::Kind::Choice)
          for (const auto& c : f.choices) range += (range.empty() ? "" : "|") + c;
        t.addRow({s.scope, s.where, f.key, kindName(f.kind), f.unit, s.defaults[i], range,
                  f.required ? "yes" : "no", f.calibrated ? "yes" : "no", f.source, f.description});
      }
    }
    t.print(std::cout, fmt);
    return 0;
  };
}

}  // namespace socsim::app
