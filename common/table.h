#pragma once
/// @file table.h
/// @brief One result table printed three ways (`--format table|csv|json`), so every command's
///        output has the same shape for a person and for a script.
#include <cstddef>
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
  /// Table format only: when > 0, the widest text columns are narrowed (not below their
  /// header, nor below 6 characters) until a line fits in `fitWidth` characters, and their
  /// long cells continue on the next lines, broken after a separator (" ;,/:=-_") where one is
  /// near. Numbers are never broken. csv and json are unaffected.
  std::size_t fitWidth = 0;
  /// Table format only: columns never narrowed by `fitWidth` (an identifier a reader copies,
  /// such as a parameter name, stays on one line).
  std::vector<bool> keepWhole;

  void addRow(std::vector<std::string> r) { rows.push_back(std::move(r)); }
  /// table: aligned columns with a header rule; csv: header + records; json: array of objects.
  void print(std::ostream& os, Format f) const;
};

/// Width of `s` on a terminal: its UTF-8 code points.
std::size_t displayWidth(const std::string& s);
/// `s` cut to at most `width` code points, the last three "..." when it was cut (never inside a
/// UTF-8 sequence).
std::string clipText(const std::string& s, std::size_t width);

/// JSON string literal with escapes.
std::string jsonString(const std::string& s);

}  // namespace socsim
