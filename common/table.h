#pragma once
/// @file table.h
/// @brief One result table printed three ways (`--format table|csv|json`), so every command's
///        output has the same shape for a person and for a script.
#include <iosfwd>
#include <string>
#include <vector>

namespace socsim {

enum class Format { Table, Csv, Json };
/// "table" | "csv" | "json"; throws InputError otherwise.
Format parseFormat(const std::string& s);

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  /// Columns whose cells are numbers: right-aligned in tables, unquoted in JSON (empty = null).
  std::vector<bool> numeric;

  void addRow(std::vector<std::string> r) { rows.push_back(std::move(r)); }
  /// table: aligned columns with a header rule; csv: header + records; json: array of objects.
  void print(std::ostream& os, Format f) const;
};

/// JSON string literal with escapes.
std::string jsonString(const std::string& s);

}  // namespace socsim
