#pragma once
/// @file schema_registry.h
/// @brief Every params schema the loader knows, with defaults, for `socsim params`.
#include <string>
#include <vector>

#include "common/params.h"

namespace socsim::soc {

/// One schema: its scope (the schema's type name), where it sits in a board file, its fields
/// and each field's default as text in the field's unit.
struct SchemaListing {
  std::string scope;  ///< "core", "cache", "dram", ...
  std::string where;  ///< board YAML location(s): "clusters[].l1i, clusters[].l1d, ..."
  std::vector<params::FieldInfo> fields;
  std::vector<std::string> defaults;
};

/// All schemas, in board-file order.
std::vector<SchemaListing> allSchemas();

}  // namespace socsim::soc
