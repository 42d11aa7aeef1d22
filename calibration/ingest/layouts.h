#pragma once
/// @file layouts.h
/// @brief The layout parsers. Each takes the whole document text and its file stem and never
///        throws on malformed text: it returns what it could segment plus diagnostics.
#include <string>

#include "calibration/ingest/raw_table.h"

namespace socsim::ingest {

/// Guess the layout from the text; nullopt when the text matches none (then `ingest` fails
/// with exit 2 naming the file).
std::optional<Layout> detectLayout(const std::string& text);

ParsedDocument parseSpaced(const std::string& text, const std::string& source);       // 000
ParsedDocument parsePipe(const std::string& text, const std::string& source);         // 001, 002
ParsedDocument parseCellPerLine(const std::string& text, const std::string& source);  // 003
ParsedDocument parseMcu(const std::string& text, const std::string& source);          // 004

}  // namespace socsim::ingest
