#pragma once
/// @file group_file.h
/// @brief The one schema read of a params group file: a YAML file of named groups (the
///        workloads' `configs/workloads/**` data, peripheral presets), each group filled into a
///        params struct through its `params::Schema<T>` (schema_io.h `readGroup`).
///
/// What every group-file loader did by hand before: load the file as a map (presets resolved),
/// find the group or fail with "missing group 'key'" naming the file, read it with the schema
/// (unknown keys, units, ranges, required keys named for "KEY of FILE"), and reject top-level
/// groups the file may not hold.
#include <string>
#include <vector>

#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"

namespace socsim::config {

/// Group `key` of a group file's root (`file` names it in errors); InputError "missing group
/// 'key'" when absent, "expected a group" when it is not a map.
const Node& requireGroup(const Node& root, const std::string& file, const std::string& key);

/// InputError naming the first top-level key of `root` that is not in `groups` ("unknown group
/// 'x'", with the nearest valid group). The presets' `source:` key is always allowed.
void rejectUnknownGroups(const Node& root, const std::vector<std::string>& groups);

/// Fill `obj` from group `key` of a group file's root. `subgroups`: further keys the group may
/// hold (read by the caller). Errors name the instance "KEY of FILE".
template <class T>
void readFileGroup(const Node& root, const std::string& file, const std::string& key, T& obj,
                   const std::vector<std::string>& subgroups = {}) {
  Sources sources;
  readGroup(T::schema(), obj, requireGroup(root, file, key), key, key + " of " + file, sources,
            subgroups);
}

/// T (defaults first) filled from group `key` of a group file's root.
template <class T>
T fileGroup(const Node& root, const std::string& file, const std::string& key,
            const std::vector<std::string>& subgroups = {}) {
  T obj{};
  readFileGroup(root, file, key, obj, subgroups);
  return obj;
}

/// T (defaults first) filled from group `key` of the group file `file`.
template <class T>
T loadGroupFile(const std::string& file, const std::string& key) {
  return fileGroup<T>(loadMapFile(file), file, key);
}

}  // namespace socsim::config
