// socsim params [--scope S] [--format table|csv|json]: every params schema's fields.
#include <iostream>
#include <memory>

#include "apps/socsim/commands.h"
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
}  // namespace

Action addParams(CLI::App& app) {
  struct Opts {
    std::string scope, format = "table";
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("params",
                                 "list every parameter schema: key, unit, default, range, source");
  sub->add_option("--scope", o->scope, "only this scope (core, cache, dram, ddr_controller, ...)");
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
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
