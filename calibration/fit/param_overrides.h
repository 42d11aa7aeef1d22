#pragma once
/// @file param_overrides.h
/// @brief The override layer: fitted parameter values (calibration/params/*.yaml) put in place
///        of the presets' defaults whenever a config file is parsed.
///
/// A params file, written by `socsim calibrate`:
/// @code
///   group: memory
///   families: [lmbench-mem, stream]
///   provenance: {data: ..., rows_used: 337, loss_before: ..., loss_after: ..., date: ...,
///                socsim_version: ...}
///   params:
///     components/ddr_controllers/k3_ddrss.frontend_latency_cycles: {value: 18, default: 16}
/// @endcode
/// Each key of `params` must name a registered free parameter (param_registry.h) and its value
/// must lie within the parameter's bounds; anything else is an InputError naming the file, the
/// line and the key. A parameter may be set by one file only.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "calibration/fit/param_registry.h"

namespace socsim::calib {

/// One value of a parameter set.
struct ParamValue {
  std::string scope, key;
  double value = 0;
  std::string origin;  ///< the params file (or "calibrate (trial)") the value came from
};

/// Values by scope then key.
class ParamSet {
 public:
  /// Set (or replace) the value of `p`; integer parameters are rounded.
  void set(const FreeParam& p, double value, const std::string& origin);
  /// Remove every value whose origin is `origin`.
  void eraseOrigin(const std::string& origin);
  const ParamValue* find(const std::string& scope, const std::string& key) const;
  /// The value this set gives `p` (its fitted value), or `p`'s documented default when the set
  /// has none; with `origin`, only a value from that params file counts.
  double valueOr(const FreeParam& p, const std::string& origin = "") const;
  const std::map<std::string, std::map<std::string, ParamValue>>& byScope() const {
    return values_;
  }
  size_t size() const;
  bool empty() const { return values_.empty(); }

 private:
  std::map<std::string, std::map<std::string, ParamValue>> values_;
};

/// Read one params file; values are checked against `reg` (unknown key, non-numeric value,
/// out-of-bounds value: InputError naming `file`, line and key). With `expectedGroup`, a
/// `group:` key naming another group is an InputError too.
ParamSet readParamFile(const std::string& file, const ParamRegistry& reg,
                       const std::string& expectedGroup = "");

/// Read every `*.yaml` in `dir` (sorted; a missing folder is an empty set). A parameter set by
/// two files is an InputError naming both. With `groups` (the fit groups' names, a committed
/// calibration/params folder): a file whose name is no group, or whose `group:` names another
/// group, is an InputError (readParamFile's `expectedGroup` is the file's name).
ParamSet readParamDir(const std::string& dir, const ParamRegistry& reg,
                      const std::vector<std::string>* groups = nullptr);

/// Install the loader hook (config::setParsedFileHook) that applies `set` to every file below
/// `reg.configsDir()` as it is parsed. The value's source becomes
/// "calibrated: fitted (<origin>); default <text>".
///
/// `warn` (optional) hears about a file outside `reg.configsDir()` that looks like a copy of a
/// preset the set has values for (its path ends in `components/<...>.yaml` or
/// `workloads/<...>.yaml` naming such a scope): the fitted values do not apply to the copy, its
/// defaults are used. Told once per file.
void installParamSet(const ParamSet& set, const ParamRegistry& reg,
                     std::function<void(const std::string&)> warn = nullptr);

/// Remove the hook (the presets' defaults apply again).
void uninstallParamSet();

/// Provenance of a params file, for writing.
struct ParamFileInfo {
  std::string group;
  std::vector<std::string> families;
  std::vector<std::pair<std::string, std::string>> provenance;  ///< key, value (in order)
};

/// Write a params file: `info` and the values of `params` (name, value, default).
void writeParamFile(const std::string& file, const ParamFileInfo& info,
                    const std::vector<std::pair<const FreeParam*, double>>& params);

}  // namespace socsim::calib
