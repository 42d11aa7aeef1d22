#include "calibration/fit/param_overrides.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "common/error.h"
#include "common/format.h"
#include "soc/config/config_tree.h"

namespace fs = std::filesystem;

namespace socsim::calib {

void ParamSet::set(const FreeParam& p, double value, const std::string& origin) {
  ParamValue v;
  v.scope = p.scope;
  v.key = p.key;
  v.value = p.integer ? std::round(value) : value;
  v.origin = origin;
  values_[p.scope][p.key] = v;
}

void ParamSet::eraseOrigin(const std::string& origin) {
  for (auto it = values_.begin(); it != values_.end();) {
    auto& keys = it->second;
    for (auto k = keys.begin(); k != keys.end();)
      k = k->second.origin == origin ? keys.erase(k) : std::next(k);
    it = keys.empty() ? values_.erase(it) : std::next(it);
  }
}

const ParamValue* ParamSet::find(const std::string& scope, const std::string& key) const {
  auto s = values_.find(scope);
  if (s == values_.end()) return nullptr;
  auto k = s->second.find(key);
  return k == s->second.end() ? nullptr : &k->second;
}

double ParamSet::valueOr(const FreeParam& p, const std::string& origin) const {
  const ParamValue* v = find(p.scope, p.key);
  return v && (origin.empty() || v->origin == origin) ? v->value : p.defaultValue;
}

size_t ParamSet::size() const {
  size_t n = 0;
  for (const auto& [s, keys] : values_) n += keys.size();
  return n;
}

namespace {

const std::vector<std::string> kTopKeys = {"group", "families", "provenance", "params"};

void checkTop(const config::Node& root, const std::string& file) {
  if (!root.isMap())
    throw InputError(file, root.line, "",
                     "a params file must be a map with keys group, families, provenance, params");
  for (const auto& [k, v] : root.map)
    if (std::find(kTopKeys.begin(), kTopKeys.end(), k) == kTopKeys.end())
      throw InputError(file, v.line, k,
                       "unknown key '" + k + "' in a params file" + config::suggestion(k, kTopKeys));
}

/// Walk "a.b[2].c" in `root`; nullptr when absent.
config::Node* walk(config::Node& root, const std::string& key) {
  config::Node* n = &root;
  size_t start = 0;
  while (n && start <= key.size()) {
    size_t dot = key.find('.', start);
    std::string seg = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    std::vector<size_t> idx;
    auto br = seg.find('[');
    std::string name = seg.substr(0, br);
    while (br != std::string::npos) {
      auto close = seg.find(']', br);
      if (close == std::string::npos) return nullptr;
      idx.push_back(static_cast<size_t>(std::stoul(seg.substr(br + 1, close - br - 1))));
      br = seg.find('[', close);
    }
    if (!name.empty()) n = n->isMap() ? n->find(name) : nullptr;
    for (size_t i : idx) n = n && n->isSeq() && i < n->seq.size() ? &n->seq[i] : nullptr;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return n;
}

}  // namespace

ParamSet readParamFile(const std::string& file, const ParamRegistry& reg,
                       const std::string& expectedGroup) {
  config::Node root = config::parseYamlFile(file);
  checkTop(root, file);
  if (!expectedGroup.empty())
    if (const config::Node* g = root.find("group"); g && (!g->isScalar() || g->scalar != expectedGroup))
      throw InputError(file, g->line, "group",
                       "expected 'group: " + expectedGroup + "' (the file's name), got '" +
                           (g->isScalar() ? g->scalar : std::string(g->typeName())) +
                           "': a params file holds the fit of the group it is named after");
  ParamSet set;
  const config::Node* ps = root.find("params");
  if (!ps) return set;
  if (!ps->isMap())
    throw InputError(file, ps->line, "params",
                     "expected a map of '<scope>.<key>: {value: V, default: D}', got a " +
                         std::string(ps->typeName()));
  for (const auto& [name, v] : ps->map) {
    const FreeParam* p = reg.find(name);
    if (!p)
      throw InputError(file, v.line, "params." + name,
                       "unknown parameter '" + name +
                           "': not a free parameter of configs/ (socsim params lists them)" +
                           config::suggestion(name, reg.names()));
    if (!p->numeric)
      throw InputError(file, v.line, "params." + name,
                       "'" + name + "' is a calibrated choice (" + p->text +
                           "), not a number: it cannot be fitted");
    const config::Node* val = v.isMap() ? v.find("value") : &v;
    if (!val || !val->isScalar())
      throw InputError(file, v.line, "params." + name,
                       "expected {value: V, default: D} or a number");
    if (v.isMap())
      for (const auto& [k, c] : v.map)
        if (k != "value" && k != "default")
          throw InputError(file, c.line, "params." + name + "." + k,
                           "unknown key '" + k + "' (expected value, default)");
    double x = 0;
    std::string suffix;
    if (!splitNumber(val->scalar, x, suffix) || !suffix.empty())
      throw InputError(file, val->line, "params." + name + ".value",
                       "expected a number in " + (p->unit.empty() ? "the parameter's unit" : p->unit) +
                           ", got '" + val->scalar + "'");
    if (x < p->lo || x > p->hi)
      throw InputError(file, val->line, "params." + name + ".value",
                       "value " + formatNumber(x) + " is outside the bounds " + formatNumber(p->lo) +
                           " .. " + formatNumber(p->hi) + " of '" + name + "' (" + p->boundsOrigin +
                           ")");
    if (p->integer && x != std::round(x))
      throw InputError(file, val->line, "params." + name + ".value",
                       "'" + name + "' takes whole numbers, got " + formatNumber(x));
    set.set(*p, x, fs::path(file).filename().string());
  }
  return set;
}

ParamSet readParamDir(const std::string& dir, const ParamRegistry& reg,
                      const std::vector<std::string>* groups) {
  ParamSet all;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return all;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::string list;
  if (groups)
    for (const auto& g : *groups) list += (list.empty() ? "" : ", ") + g;
  for (const auto& f : files) {
    const std::string stem = fs::path(f).stem().string();
    // A file of a group that is gone (renamed, merged) would be applied to every run and never
    // refitted, checked or staled by calibrate: say so instead of applying it silently.
    if (groups && std::find(groups->begin(), groups->end(), stem) == groups->end())
      throw InputError(f, 0, "",
                       "params file of no fit group '" + stem + "' (the params of group G are "
                       "calibration/params/G.yaml; the groups: " + list + ")" +
                           config::suggestion(stem, *groups) +
                           ": rename it or remove it and re-run socsim calibrate");
    ParamSet one = readParamFile(f, reg, groups ? stem : std::string());
    for (const auto& [scope, keys] : one.byScope())
      for (const auto& [key, v] : keys) {
        if (const ParamValue* prev = all.find(scope, key))
          throw InputError(f, 0, "params." + scope + "." + key,
                           "parameter '" + scope + "." + key + "' is also set by " + prev->origin +
                               ": each fitted parameter belongs to one params file");
        all.set(*reg.find(scope, key), v.value, v.origin);
      }
  }
  return all;
}

void installParamSet(const ParamSet& set, const ParamRegistry& reg,
                     std::function<void(const std::string&)> warn) {
  auto values = std::make_shared<ParamSet>(set);
  auto registry = std::make_shared<ParamRegistry>(reg);
  auto told = std::make_shared<std::set<std::string>>();
  config::setParsedFileHook([values, registry, warn, told](const std::string& path,
                                                          config::Node& root) {
    if (values->empty()) return;
    std::string scope = scopeOfFile(path, registry->configsDir());
    if (scope.empty() && warn) {
      // A copy of a preset outside configs/ (a copied configs tree, a what-if board's own
      // presets) is a different file: say so when the original has fitted values.
      const std::string g = fs::path(path).lexically_normal().generic_string();
      for (const char* top : {"components/", "workloads/"}) {
        const auto at = g.rfind(std::string("/") + top);
        if (at == std::string::npos || g.size() < 5 || g.compare(g.size() - 5, 5, ".yaml") != 0)
          continue;
        const std::string copyOf = g.substr(at + 1, g.size() - at - 6);
        if (values->byScope().count(copyOf) && told->insert(g).second)
          warn(path + ": outside " + registry->configsDir() + ", so the fitted values of '" +
               copyOf + "' (calibration/params) do not apply to it: its defaults are used "
               "(point the preset at " + registry->configsDir() + "/" + copyOf +
               ".yaml, or set SOCSIM_HOME to the copied tree with its calibration/)");
        break;
      }
    }
    auto it = values->byScope().find(scope);
    if (it == values->byScope().end()) return;
    for (const auto& [key, v] : it->second) {
      config::Node* n = walk(root, key);
      if (!n || !n->isScalar())
        throw InputError(path, 0, key,
                         "fitted parameter '" + scope + "." + key + "' (" + v.origin +
                             ") is not in this file any more: re-run socsim calibrate");
      const FreeParam* p = registry->find(scope, key);
      std::string suffix = p ? p->unitSuffix : "";
      std::string def = p ? p->text : n->scalar;
      n->scalar = formatNumber(v.value) + (suffix.empty() ? "" : " " + suffix);
      n->source = "calibrated: fitted (" + v.origin + "); default " + def;
    }
  });
}

void uninstallParamSet() { config::setParsedFileHook(nullptr); }

namespace {
std::string yamlQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

void writeParamFile(const std::string& file, const ParamFileInfo& info,
                    const std::vector<std::pair<const FreeParam*, double>>& params) {
  fs::create_directories(fs::path(file).parent_path());
  std::ofstream os(file);
  if (!os) throw InputError(file, 0, "", "cannot write the params file");
  os << "# Fitted parameter values, written by `socsim calibrate`; applied on top of the presets'\n"
        "# defaults whenever socsim loads a config (calibration/fit/param_overrides.h).\n"
        "# Do not edit by hand: re-run `socsim calibrate --family "
     << (info.families.empty() ? info.group : info.families.front()) << "`.\n";
  os << "group: " << info.group << "\n";
  os << "families: [";
  for (size_t i = 0; i < info.families.size(); ++i) os << (i ? ", " : "") << info.families[i];
  os << "]\n";
  os << "provenance:\n";
  for (const auto& [k, v] : info.provenance) os << "  " << k << ": " << yamlQuote(v) << "\n";
  os << "params:\n";
  if (params.empty()) os << "  {}\n";
  for (const auto& [p, v] : params)
    os << "  " << p->name() << ": {value: " << formatNumber(p->integer ? std::round(v) : v)
       << ", default: " << formatNumber(p->defaultValue) << "}\n";
}

}  // namespace socsim::calib
