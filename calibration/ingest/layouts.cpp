#include "calibration/ingest/layouts.h"

#include <string_view>

#include "calibration/ingest/layout_text.h"

namespace socsim::ingest {

const char* layoutName(Layout l) {
  switch (l) {
    case Layout::Spaced:
      return "spaced";
    case Layout::Pipe:
      return "pipe";
    case Layout::CellPerLine:
      return "cell-per-line";
    case Layout::Mcu:
      return "mcu";
  }
  return "?";
}

namespace {

// "Table 2.19 ..." (numbered caption before a table, 003 style).
bool isNumberedCaption(std::string_view s) {
  if (!text::startsWith(s, "Table ")) return false;
  s.remove_prefix(6);
  std::size_t i = 0;
  bool digit = false, dot = false;
  while (i < s.size() && (text::isDigit(s[i]) || s[i] == '.')) {
    (s[i] == '.' ? dot : digit) = true;
    ++i;
  }
  return digit && dot && i < s.size() && s[i] == ' ';
}

bool isSeparator(std::string_view s) {
  if (s.size() < 5 || s.front() != '|' || s.back() != '|') return false;
  int cols = 0;
  for (std::size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '|')
      ++cols;
    else if (c != '-' && c != ':' && c != ' ')
      return false;
  }
  return cols >= 1 && text::contains(s, "---");
}

// "  • key : value" bullet of the MCU+ datasheet.
bool isMcuBullet(std::string_view s) {
  return text::startsWith(s, "\xE2\x80\xA2 ") && text::contains(s, " : ");
}

}  // namespace

// Evidence per layout, counted over the whole text (linear; no regex):
// - Mcu: "MCU+ SDK" / "MCU PLUS SDK" in the title (first non-blank lines), or a datasheet whose
//   structure is "• key : value" bullets with no table of the Linux layouts.
// - Pipe: at least one "|---|" separator preceded by " |"-terminated cell lines.
// - CellPerLine: "Table N.M Caption" lines and stand-alone "<board>: metric" label lines.
// - Spaced: header lines "Key label <board>: metric <board>: metric ..." followed by a row.
std::optional<Layout> detectLayout(const std::string& input) {
  const std::vector<text::Line> lines = text::splitLines(input);
  int nonBlank = 0, mcuTitle = 0, mcuBullets = 0, datasheet = 0;
  int separators = 0, cellLines = 0, numberedCaptions = 0, labelLines = 0;
  bool prevSpacedHeader = false;
  int spacedWithRow = 0;
  for (const text::Line& line : lines) {
    std::string_view s = text::trim(line.text);
    if (s.empty()) continue;
    ++nonBlank;
    if (nonBlank <= 3) {
      if (text::contains(s, "MCU+ SDK") || text::contains(s, "MCU+SDK") ||
          text::contains(s, "MCU PLUS SDK"))
        ++mcuTitle;
      if (s == "Datasheet") ++datasheet;
    }
    if (isMcuBullet(s)) ++mcuBullets;
    if (isSeparator(s)) {
      ++separators;
      prevSpacedHeader = false;
      continue;
    }
    if (s.size() >= 2 && s.back() == '|' && s[s.size() - 2] == ' ') ++cellLines;
    if (isNumberedCaption(s)) ++numberedCaptions;
    if (text::isColumnLabel(s)) ++labelLines;
    // Spaced header: a board label token that is not the first token.
    bool header = false;
    if (s.size() < 4096) {
      std::vector<std::string_view> t = text::splitSpaces(s);
      for (std::size_t k = 1; k < t.size() && !header; ++k) header = text::isBoardLabelToken(t[k]);
    }
    if (prevSpacedHeader && !header && !text::parseHeading(s)) ++spacedWithRow;
    prevSpacedHeader = header;
  }
  if (mcuTitle > 0) return Layout::Mcu;
  if (separators > 0 && cellLines >= 2) return Layout::Pipe;
  if (numberedCaptions > 0 && labelLines > 0) return Layout::CellPerLine;
  if (spacedWithRow > 0) return Layout::Spaced;
  if ((datasheet > 0 && mcuBullets > 0) || mcuBullets >= 10) return Layout::Mcu;
  return std::nullopt;
}

}  // namespace socsim::ingest
