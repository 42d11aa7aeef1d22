#include "soc/config/group_file.h"

#include <algorithm>

#include "common/error.h"

namespace socsim::config {

const Node& requireGroup(const Node& root, const std::string& file, const std::string& key) {
  const Node* g = root.find(key);
  if (!g) throw InputError(file, root.line, key, "missing group '" + key + "'");
  if (!g->isMap())
    throw InputError(g->file, g->line, key, std::string("expected a group (a map), got a ") + g->typeName());
  return *g;
}

void rejectUnknownGroups(const Node& root, const std::vector<std::string>& groups) {
  for (const auto& [key, node] : root.map)
    if (key != kSourceKey && std::find(groups.begin(), groups.end(), key) == groups.end())
      throw InputError(node.file, node.line, key,
                       "unknown group '" + key + "'" + suggestion(key, groups));
}

}  // namespace socsim::config
