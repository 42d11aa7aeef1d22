#pragma once
/// @file param_registry.h
/// @brief The registry of free (calibrated) parameters: every value in configs/ whose source
///        starts with "calibrated", declared once where it lives.
///
/// A free parameter is owned by the preset that holds it (DESIGN.md modelling rule 2): a core
/// type (`components/cores/cortex_a72` key `timing.mispredict_penalty_cycles`), a DRAM controller
/// IP, a DRAM standard, a peripheral IP, a software stack, a benchmark profile
/// (`workloads/nbench/idea` key `instructions_per_unit`). Boards that use the preset share the
/// parameter. A value with a "calibrated" source in a board file is a board-scoped set-up fact
/// and is listed apart (it counts against the fit budget like any other).
///
/// The declaration is the preset's own value form, e.g.
/// `mispredict_penalty_cycles: {value: 15, source: "calibrated: ...; bounds 10..20"}`:
/// the value is the default, the source says where it comes from, and "bounds LO..HI" in the
/// source gives the physical bounds. Without stated bounds the registry uses the schema's range
/// of that key clipped to [default / 2, default x 2] (said so in `boundsOrigin`).
#include <string>
#include <vector>

namespace socsim::calib {

/// What physically owns a parameter (the first folder below configs/).
enum class ScopeKind { Component, Workload, Board };

/// One free parameter.
struct FreeParam {
  std::string scope;   ///< preset id: path below configs/ without ".yaml" ("components/cores/cortex_a72")
  std::string key;     ///< YAML path inside the preset ("timing.mispredict_penalty_cycles")
  ScopeKind scopeKind = ScopeKind::Component;
  std::string scopeClass;  ///< "core type", "DRAM controller IP", "benchmark profile", ...
  std::string file;    ///< the YAML file, as found
  int line = 0;        ///< line of the value in `file`
  std::string text;    ///< the value as written ("15", "4266MT/s", "6e+06")
  bool numeric = false;     ///< a number (possibly with a unit suffix): fittable
  double defaultValue = 0;  ///< the number in `text`
  std::string unitSuffix;   ///< what follows the number in `text` ("MT/s", "", "ns")
  std::string unit;         ///< unit for listings (suffix, schema unit, or from the key)
  bool integer = false;     ///< the schema takes whole numbers (fits round to integers)
  double lo = 0, hi = 0;    ///< physical bounds (inclusive)
  std::string boundsOrigin; ///< "stated" | "schema range, x0.5..x2 around the default" | ...
  std::string source;       ///< the source text of the default

  /// "<scope>.<key>": the parameter's name in calibration/params/*.yaml and listings.
  std::string name() const { return scope + "." + key; }
};

/// All free parameters below `configsDir` (components/, workloads/, boards/), in file order.
/// Parses the files without the override hook (the registry holds the presets' defaults).
/// A file that does not parse is listed in unreadable() and declares nothing.
class ParamRegistry {
 public:
  static ParamRegistry scan(const std::string& configsDir);
  const std::vector<FreeParam>& params() const { return params_; }
  /// The parameter named `name` ("<scope>.<key>"), or nullptr.
  const FreeParam* find(const std::string& name) const;
  /// The parameter of `scope` at `key`, or nullptr.
  const FreeParam* find(const std::string& scope, const std::string& key) const;
  /// Nearest known names (for "did you mean").
  std::vector<std::string> names() const;
  const std::string& configsDir() const { return configsDir_; }
  /// Files that did not parse (their InputError text); they declare no parameter.
  const std::vector<std::string>& unreadable() const { return unreadable_; }

 private:
  std::vector<std::string> unreadable_;
  std::string configsDir_;
  std::vector<FreeParam> params_;
};

/// The preset id of a config file ("components/cores/cortex_a72"), or "" when `path` is not
/// below `configsDir`.
std::string scopeOfFile(const std::string& path, const std::string& configsDir);

/// "core type", "DRAM controller IP", ... for a scope id.
std::string scopeClassOf(const std::string& scope);

/// Parses "bounds LO..HI" out of a source text; false when absent.
bool parseStatedBounds(const std::string& source, double& lo, double& hi);

/// Leading number of a scalar ("4266MT/s" -> 4266, suffix "MT/s"); false when not numeric.
bool splitNumber(const std::string& text, double& value, std::string& suffix);

}  // namespace socsim::calib
