#pragma once
/// @file schema_io.h
/// @brief Filling any params struct from a config-tree group through its `params::Schema<T>`,
///        and writing it back (generic over T: the loader knows no model).
///
/// Reading checks, for every key of the group: known (else "unknown key 'x' (did you mean
/// 'y'?)"), scalar, converted with units::parseIn into the field's unit, integral where the field
/// is, inside the field's range, one of the choices; and that every required field is given
/// (naming the model instance). Each field's source is recorded in a `Sources` map keyed by the
/// YAML path (`clusters[0].l2.size`): the fact's own source, or "default: <schema source>".
#include <cmath>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/format.h"
#include "common/params.h"
#include "common/units.h"
#include "soc/config/config_tree.h"

namespace socsim::config {

/// Where each resolved field came from, by YAML path.
struct FieldOrigin {
  std::string source;  ///< the fact's source, or "default: ..." for a schema default
  std::string file;    ///< file that set it ("" for a default, "--set" for an override)
  int line = 0;
};
using Sources = std::map<std::string, FieldOrigin>;

/// Prefix of the source recorded for a field no config gave.
inline const std::string kDefaultSourcePrefix = "default: ";

/// Convert one scalar to a field value (units, integer, range, choice, bool). Throws InputError
/// naming n's file and line, `path`, and what was expected.
params::Value convertScalar(const params::FieldInfo& f, const Node& n, const std::string& path);

/// `path + "." + key` (or key at the top).
inline std::string joinPath(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

/// Fill `obj` from group `g` at `path`. `instance` names the model instance for "missing
/// required key" errors ("core of cluster 'a72'"). `subgroups` are further keys allowed in g
/// (handled by the caller); `ignored` are allowed and skipped. Unknown keys are errors.
template <class T>
void readGroup(const params::Schema<T>& schema, T& obj, const Node& g, const std::string& path,
               const std::string& instance, Sources& sources,
               const std::vector<std::string>& subgroups = {}) {
  if (!g.isMap())
    throw InputError(g.file, g.line, path,
                     "expected a group (map of " + schema.typeName() + " fields" +
                         (g.isScalar() ? "; write {preset: FILE} to use a preset" : "") +
                         "), got a " + g.typeName() +
                         (g.isScalar() ? " '" + g.scalar + "'" : std::string()));
  const auto& fields = schema.fields();
  std::vector<std::string> valid;
  for (const auto& f : fields) valid.push_back(f.key);
  valid.insert(valid.end(), subgroups.begin(), subgroups.end());
  std::set<std::string> sub(subgroups.begin(), subgroups.end());
  for (const auto& [key, child] : g.map) {
    if (sub.count(key)) continue;
    std::string p = joinPath(path, key);
    int idx = schema.find(key);
    if (idx < 0)
      throw InputError(
          child.file, child.line, p,
          "unknown key '" + key + "' in " + schema.typeName() + " group" + suggestion(key, valid));
    const auto& f = fields[idx];
    schema.set(obj, idx, convertScalar(f, child, p));
    sources[p] = FieldOrigin{child.source, child.file, child.line};
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto& f = fields[i];
    std::string p = joinPath(path, f.key);
    if (g.find(f.key)) continue;
    if (f.required)
      throw InputError(g.file, g.line, p,
                       "missing required key '" + f.key + "' for " + instance + " (expected " +
                           f.description + (f.unit.empty() ? "" : ", in " + f.unit) + ")");
    sources[p] = FieldOrigin{kDefaultSourcePrefix + f.source, "", 0};
  }
}

}  // namespace socsim::config
