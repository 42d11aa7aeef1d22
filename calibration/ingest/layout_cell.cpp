// Cell-per-line layout (003): every cell on its own line, blank lines in between.
//
//   Table 2.1 LMBench Benchmarks        <- caption BEFORE the table
//   Benchmarks                          <- key label line(s)
//   j7200-evm: perf                     <- one line per "<board-id>: metric" column label
//   ...
//   af_unix_sock_stream_latency (microsec)   <- row: key line(s) ...
//   19.98 (min 19.51, max 20.42)             <- ... then one line per value
//
// Blank cells are dropped without a placeholder, so a row may have fewer value lines than
// columns; the parser keeps what it finds (cellsMayBeDropped) and the normalizer decides.
// Values always hold a decimal point; keys are integers, "1m"/"4k" or text. A row is the
// table's keyLabels-count of non-value lines followed by one or more value lines.
#include <string_view>

#include "calibration/ingest/layout_text.h"
#include "calibration/ingest/layouts.h"

namespace socsim::ingest {
namespace {

using text::Line;

constexpr std::size_t kMaxKeyLabels = 4;

// "Table 2.19 CPSW2g UDP Egress ..." -> caption text after the number.
std::optional<std::string> numberedCaption(std::string_view line) {
  std::string_view s = text::trim(line);
  if (!text::startsWith(s, "Table ")) return std::nullopt;
  s.remove_prefix(6);
  std::size_t i = 0;
  bool digit = false, dot = false;
  while (i < s.size() && (text::isDigit(s[i]) || s[i] == '.')) {
    if (s[i] == '.')
      dot = true;
    else
      digit = true;
    ++i;
  }
  if (!digit || !dot || (i < s.size() && s[i] != ' ')) return std::nullopt;
  return std::string(text::trim(s.substr(i)));
}

// Ends a table: a heading, any caption line.
bool isTerminator(std::string_view l) {
  return text::parseHeading(l).has_value() || numberedCaption(l).has_value() ||
         text::colonCaption(l).has_value();
}

}  // namespace

ParsedDocument parseCellPerLine(const std::string& input, const std::string& source) {
  ParsedDocument d;
  d.source = source;
  d.layout = Layout::CellPerLine;
  auto diag = [&](int line, std::string msg) {
    d.diagnostics.push_back({source, line, std::move(msg)});
  };

  // Only non-blank lines matter; double blank lines are harmless.
  std::vector<Line> lines;
  for (const Line& l : text::splitLines(input)) {
    std::string_view t = text::trim(l.text);
    if (!t.empty()) lines.push_back({l.number, t});
  }
  const std::size_t n = lines.size();
  text::HeadingStack headings;

  std::size_t i = 0;
  while (i < n) {
    std::string_view l = lines[i].text;
    if (auto h = text::parseHeading(l)) {
      headings.push(h->first, std::move(h->second));
      ++i;
      continue;
    }
    // "Evaluation Modules": "Name", "Description", then name / description line pairs.
    if (l == "Name" && i + 1 < n && lines[i + 1].text == "Description") {
      std::size_t j = i + 2;
      while (j + 1 < n && !isTerminator(lines[j].text) && !isTerminator(lines[j + 1].text)) {
        d.boards.push_back({source, lines[j].number, "", std::string(lines[j].text),
                            std::string(lines[j + 1].text)});
        j += 2;
      }
      if (j < n && !isTerminator(lines[j].text))
        diag(lines[j].number, "board name without description");
      i = j;
      continue;
    }
    std::optional<std::string> caption = numberedCaption(l);
    if (!caption) {
      ++i;
      continue;
    }
    const int captionLine = lines[i].number;
    RawTable t;
    t.source = source;
    t.sections = headings.sections();
    t.caption = *caption;
    t.cellsMayBeDropped = true;
    std::size_t j = i + 1;
    // Key labels: lines before the first column label.
    while (j < n && t.keyLabels.size() <= kMaxKeyLabels && !text::isColumnLabel(lines[j].text) &&
           !isTerminator(lines[j].text) && !text::isValueLine(lines[j].text)) {
      if (t.keyLabels.empty()) t.line = lines[j].number;
      t.keyLabels.emplace_back(lines[j].text);
      ++j;
    }
    while (j < n && text::isColumnLabel(lines[j].text)) {
      if (t.line == 0) t.line = lines[j].number;
      t.columnLabels.emplace_back(lines[j].text);
      ++j;
    }
    if (t.columnLabels.empty() || t.keyLabels.empty() || t.keyLabels.size() > kMaxKeyLabels) {
      diag(captionLine, "caption \"" + t.caption + "\" is not followed by a table header");
      ++i;  // rescan what followed as ordinary lines (bounded by the next caption or heading)
      continue;
    }
    const std::size_t nkeys = t.keyLabels.size();
    const std::size_t ncols = t.columnLabels.size();

    // Rows.
    std::size_t shortRows = 0;
    while (j < n) {
      // Key lines: non-value lines up to the next value line.
      std::size_t k = j;
      while (k < n && k - j <= nkeys && !text::isValueLine(lines[k].text) &&
             !isTerminator(lines[k].text))
        ++k;
      if (k >= n || k == j || k - j > nkeys || !text::isValueLine(lines[k].text)) {
        if (k == j && k < n && text::isValueLine(lines[k].text)) {
          // Value lines with no key line before them.
          if (!t.rows.empty()) {
            diag(lines[k].number, "value line without a row key; appended to the previous row");
            while (k < n && text::isValueLine(lines[k].text)) {
              t.rows.back().cells.emplace_back(std::string(lines[k].text));
              t.rows.back().cellLines.push_back(lines[k].number);
              ++k;
            }
            j = k;
            continue;
          }
          d.diagnostics.push_back(
              {source, lines[k].number, "value line without a row key; skipped", 1});
          while (k < n && text::isValueLine(lines[k].text)) ++k;
          j = k;
          continue;
        }
        if (k >= n && k > j && k - j <= nkeys)
          diag(lines[j].number, "document ends after a row key without values (truncated?)");
        break;  // prose, heading or caption: the table ends
      }
      RawRow row;
      row.line = lines[j].number;
      for (std::size_t q = j; q < k; ++q) row.keys.emplace_back(lines[q].text);
      if (row.keys.size() < nkeys)
        diag(row.line, "row has " + std::to_string(row.keys.size()) + " key cells for " +
                           std::to_string(nkeys) + " key columns");
      while (row.keys.size() < nkeys) row.keys.emplace_back();
      while (k < n && text::isValueLine(lines[k].text)) {
        row.cells.emplace_back(std::string(lines[k].text));
        row.cellLines.push_back(lines[k].number);
        ++k;
      }
      if (row.cells.size() < ncols) ++shortRows;
      if (row.cells.size() > ncols) {
        diag(row.line, "ragged row: " + std::to_string(row.cells.size()) + " value cells for " +
                           std::to_string(ncols) + " columns (kept)");
      }
      t.rows.push_back(std::move(row));
      j = k;
    }
    if (t.rows.empty()) {
      diag(t.line, "table \"" + t.caption + "\" has a header but no data rows");
    } else {
      if (shortRows > 0)
        diag(t.line, "table \"" + t.caption + "\": " + std::to_string(shortRows) +
                         " row(s) with fewer cells than the " + std::to_string(ncols) +
                         " columns (blank cells dropped by the layout)");
      d.tables.push_back(std::move(t));
    }
    i = j;
  }
  return d;
}

}  // namespace socsim::ingest
