#pragma once
/// @file csv.h
/// @brief RFC 4180 CSV reading and writing (quote when a field holds `,`, `"`, CR or LF).
#include <iosfwd>
#include <string>
#include <vector>

namespace socsim::csv {

/// Quote one field if it needs it.
std::string escape(const std::string& field);
/// Join fields into one CSV record (no line terminator).
std::string joinRecord(const std::vector<std::string>& fields);
/// Write one record followed by '\n'.
void writeRecord(std::ostream& os, const std::vector<std::string>& fields);

/// Parse a whole CSV text into records. Throws InputError naming `file` and the line on an
/// unterminated quote. Empty trailing line is ignored.
std::vector<std::vector<std::string>> parse(const std::string& text, const std::string& file);
/// Same; `recordLines` (when not null) receives the 1-based line on which each record starts,
/// so that errors about a record name its line even after blank lines or multi-line fields.
std::vector<std::vector<std::string>> parse(const std::string& text, const std::string& file,
                                            std::vector<int>* recordLines);

}  // namespace socsim::csv
