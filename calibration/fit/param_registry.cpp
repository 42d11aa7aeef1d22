#include "calibration/fit/param_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_registry.h"

namespace fs = std::filesystem;

namespace socsim::calib {

namespace {

struct SchemaKey {
  bool integer = false, real = false;
  double lo = -1e300, hi = 1e300;
  std::string unit;
};

/// Every schema field by key (last path segment), over all schemas socsim params lists.
const std::map<std::string, SchemaKey>& schemaKeys() {
  static const std::map<std::string, SchemaKey> keys = [] {
    std::map<std::string, SchemaKey> m;
    for (const auto& s : soc::allSchemas())
      for (const auto& f : s.fields) {
        bool num = f.kind == params::Kind::Real || f.kind == params::Kind::Integer ||
                   f.kind == params::Kind::Bytes;
        if (!num) continue;
        auto it = m.find(f.key);
        SchemaKey k = it == m.end() ? SchemaKey{} : it->second;
        if (f.kind == params::Kind::Real)
          k.real = true;
        else
          k.integer = true;
        // Several schemas may share a key: keep the widest common range.
        if (it == m.end()) {
          k.lo = f.lo;
          k.hi = f.hi;
        } else {
          k.lo = std::min(k.lo, f.lo);
          k.hi = std::max(k.hi, f.hi);
        }
        if (k.unit.empty()) k.unit = f.unit;
        m[f.key] = k;
      }
    return m;
  }();
  return keys;
}

std::string lastSegment(const std::string& key) {
  std::string k = key;
  auto dot = k.rfind('.');
  if (dot != std::string::npos) k = k.substr(dot + 1);
  auto br = k.find('[');
  if (br != std::string::npos) k = k.substr(0, br);
  return k;
}

bool isIntegerLiteral(const std::string& s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i >= s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

std::string unitFromKey(const std::string& key) {
  static const std::vector<std::pair<std::string, std::string>> suffixes = {
      {"_cycles", "cycles"}, {"_ns", "ns"},       {"_us", "us"},       {"_ms", "ms"},
      {"_mhz", "MHz"},       {"_bytes", "bytes"}, {"_entries", "count"}, {"_bits", "bits"},
      {"_depth", "count"},   {"_fraction", "fraction"}, {"_factor", "factor"},
      {"_instructions", "instructions"}, {"_per_unit", "instructions/unit"}};
  for (const auto& [suf, unit] : suffixes)
    if (key.size() > suf.size() && key.compare(key.size() - suf.size(), suf.size(), suf) == 0)
      return unit;
  return "";
}

void collect(const config::Node& n, const std::string& path, const std::string& file,
             const std::string& scope, std::vector<FreeParam>& out) {
  if (n.isMap()) {
    for (const auto& [k, v] : n.map)
      if (k != config::kPresetKey) collect(v, path.empty() ? k : path + "." + k, file, scope, out);
    return;
  }
  if (n.isSeq()) {
    for (size_t i = 0; i < n.seq.size(); ++i)
      collect(n.seq[i], path + "[" + std::to_string(i) + "]", file, scope, out);
    return;
  }
  if (!n.isScalar() || n.source.rfind("calibrated", 0) != 0) return;
  FreeParam p;
  p.scope = scope;
  p.key = path;
  p.scopeKind = scope.rfind("workloads/", 0) == 0 ? ScopeKind::Workload
                : scope.rfind("boards/", 0) == 0  ? ScopeKind::Board
                                                  : ScopeKind::Component;
  p.scopeClass = scopeClassOf(scope);
  p.file = file;
  p.line = n.line;
  p.text = n.scalar;
  p.source = n.source;
  p.numeric = splitNumber(n.scalar, p.defaultValue, p.unitSuffix);
  if (p.numeric) {
    const auto& keys = schemaKeys();
    auto it = keys.find(lastSegment(path));
    std::string number = n.scalar.substr(0, n.scalar.size() - p.unitSuffix.size());
    while (!number.empty() && number.back() == ' ') number.pop_back();
    if (it != keys.end())
      p.integer = it->second.integer;
    else
      p.integer = isIntegerLiteral(number);
    p.unit = !p.unitSuffix.empty() ? p.unitSuffix
             : it != keys.end() && !it->second.unit.empty() ? it->second.unit
                                                             : unitFromKey(lastSegment(path));
    double lo, hi;
    if (parseStatedBounds(p.source, lo, hi)) {
      p.lo = std::min(lo, hi);
      p.hi = std::max(lo, hi);
      p.boundsOrigin = "stated";
    } else {
      double d = p.defaultValue;
      if (d > 0) {
        p.lo = d / 2;
        p.hi = d * 2;
      } else if (d < 0) {
        p.lo = d * 2;
        p.hi = d / 2;
      } else {
        p.lo = 0;
        p.hi = p.integer ? 2 : 1;
      }
      p.boundsOrigin = "none stated: x0.5..x2 around the default";
      if (it != keys.end()) {
        p.lo = std::max(p.lo, it->second.lo);
        p.hi = std::min(p.hi, it->second.hi);
        p.boundsOrigin += ", within the schema range";
      }
    }
    // Probabilities and fractions cannot exceed 1 whatever the window around the default says.
    std::string leaf = lastSegment(path);
    if ((leaf.find("probability") != std::string::npos ||
         leaf.find("fraction") != std::string::npos) &&
        p.hi > 1 && p.defaultValue <= 1)
      p.hi = 1;
    p.lo += 0.0;  // no "-0" in listings
    if (p.integer) {
      p.lo = std::ceil(p.lo - 1e-9) + 0.0;  // + 0.0: no "-0" in listings
      p.hi = std::floor(p.hi + 1e-9);
    }
    // The declared default must lie inside its own bounds; widen to include it otherwise (the
    // listing shows the origin, so a stale bound is visible rather than silently fitted past).
    if (p.defaultValue < p.lo || p.defaultValue > p.hi) {
      p.lo = std::min(p.lo, p.defaultValue);
      p.hi = std::max(p.hi, p.defaultValue);
      p.boundsOrigin += " (widened to include the default)";
    }
  }
  out.push_back(std::move(p));
}

}  // namespace

bool splitNumber(const std::string& text, double& value, std::string& suffix) {
  const char* s = text.c_str();
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || !std::isfinite(v)) return false;
  std::string rest = text.substr(static_cast<size_t>(end - s));
  // "0x10" parses as 0 then "x10"; hex and other non-unit tails are not numbers here.
  size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  rest = rest.substr(i);
  if (!rest.empty() && !std::isalpha(static_cast<unsigned char>(rest[0])) && rest[0] != '/' &&
      rest[0] != '%')
    return false;
  if (!rest.empty() && (rest[0] == 'x' || rest[0] == 'X') && text.rfind("0x", 0) == 0)
    return false;
  value = v;
  suffix = rest;
  return true;
}

bool parseStatedBounds(const std::string& source, double& lo, double& hi) {
  static const std::regex re(R"(bounds\s+([-+0-9.eE]+)\s*\.\.\s*([-+0-9.eE]+))");
  std::smatch m;
  if (!std::regex_search(source, m, re)) return false;
  char* e1 = nullptr;
  char* e2 = nullptr;
  std::string a = m[1].str(), b = m[2].str();
  // "1e6.." would be matched greedily as "1e6." by the class: strip trailing dots.
  while (!a.empty() && a.back() == '.') a.pop_back();
  while (!b.empty() && b.back() == '.') b.pop_back();
  lo = std::strtod(a.c_str(), &e1);
  hi = std::strtod(b.c_str(), &e2);
  return e1 != a.c_str() && e2 != b.c_str() && std::isfinite(lo) && std::isfinite(hi);
}

std::string scopeOfFile(const std::string& path, const std::string& configsDir) {
  std::error_code ec;
  fs::path f = fs::weakly_canonical(fs::path(path), ec);
  if (ec) f = fs::path(path).lexically_normal();
  fs::path root = fs::weakly_canonical(fs::path(configsDir), ec);
  if (ec) root = fs::path(configsDir).lexically_normal();
  fs::path rel = f.lexically_relative(root);
  std::string r = rel.generic_string();
  if (r.empty() || r.rfind("..", 0) == 0 || rel.is_absolute()) return "";
  if (rel.extension() == ".yaml") r = r.substr(0, r.size() - 5);
  return r;
}

std::string scopeClassOf(const std::string& scope) {
  static const std::vector<std::pair<std::string, std::string>> classes = {
      {"components/cores/", "core type"},
      {"components/caches/", "cache IP"},
      {"components/core_memory/", "core memory system"},
      {"components/ddr_controllers/", "DRAM controller IP"},
      {"components/dram/", "DRAM standard"},
      {"components/interconnect/", "interconnect IP"},
      {"components/crypto_engines/", "crypto engine IP"},
      {"components/peripherals/devices/", "storage device"},
      {"components/peripherals/", "peripheral IP"},
      {"components/software/", "software stack"},
      {"workloads/", "benchmark profile"},
      {"boards/", "board set-up"},
  };
  for (const auto& [prefix, cls] : classes)
    if (scope.rfind(prefix, 0) == 0) return cls;
  return "component";
}

ParamRegistry ParamRegistry::scan(const std::string& configsDir) {
  ParamRegistry r;
  r.configsDir_ = configsDir;
  std::vector<std::string> files;
  for (const char* sub : {"components", "workloads", "boards"}) {
    std::error_code ec;
    fs::path dir = fs::path(configsDir) / sub;
    if (!fs::is_directory(dir, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".yaml")
        files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  // The registry holds the presets' own defaults: parse without the override hook.
  struct HookOff {
    config::ParsedFileHook saved = config::currentParsedFileHook();
    HookOff() { config::setParsedFileHook(nullptr); }
    ~HookOff() { config::setParsedFileHook(saved); }
  } off;
  for (const auto& f : files) {
    // A file that does not parse declares nothing here; whatever loads it reports the error
    // with its file and line (a broken board must not stop `socsim boards` listing the others).
    try {
      collect(config::parseYamlFile(f), "", f, scopeOfFile(f, configsDir), r.params_);
    } catch (const InputError& e) {
      r.unreadable_.push_back(e.what());
    }
  }
  return r;
}

const FreeParam* ParamRegistry::find(const std::string& name) const {
  for (const auto& p : params_)
    if (p.name() == name) return &p;
  return nullptr;
}

const FreeParam* ParamRegistry::find(const std::string& scope, const std::string& key) const {
  for (const auto& p : params_)
    if (p.scope == scope && p.key == key) return &p;
  return nullptr;
}

std::vector<std::string> ParamRegistry::names() const {
  std::vector<std::string> v;
  for (const auto& p : params_) v.push_back(p.name());
  return v;
}

}  // namespace socsim::calib
