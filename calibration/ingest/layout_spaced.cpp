// Spaced layout (000): one table row per line, cells separated by ASCII spaces.
//
//   Benchmarks am335x-evm: perf am57xx-evm: perf ...          <- header: key label(s), N labels
//   bw_mem-rdwr-8mb 203.00 (min 202.79, max 203.21) 987.00 ...  <- key, N value cells
//   cpu_clock 1000.00 1500.00 800.00 <NBSP> 230.00              <- NBSP alone = blank cell
//   <blank line>
//   Table: Caption                                             <- caption AFTER the table
//
// The header is split at each "<board-id>:" token. A row's last N cells are values (a value is
// one token, or a number followed by the four tokens "(min A, max B)"); everything before is
// the key, which may contain spaces or be two columns ("Algorithm Buffer Size": "sha1 1024").
#include <algorithm>
#include <string_view>

#include "calibration/ingest/layout_text.h"
#include "calibration/ingest/layouts.h"

namespace socsim::ingest {
namespace {

using text::Line;

struct Header {
  std::string keyLabel;  // all key label words, as printed
  std::vector<std::string> columnLabels;
};

// Header line: some key-label text, then one or more "<board-id>: metric" labels.
std::optional<Header> parseHeader(std::string_view line) {
  if (line.find(": ") == std::string_view::npos && !text::endsWith(line, ":")) return std::nullopt;
  std::vector<std::string_view> t = text::splitSpaces(line);
  std::vector<std::size_t> boards;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (text::isBoardLabelToken(t[i])) boards.push_back(i);
  if (boards.empty() || boards.front() == 0) return std::nullopt;
  Header h;
  h.keyLabel = text::join(t, 0, boards.front());
  for (std::size_t b = 0; b < boards.size(); ++b) {
    std::size_t end = b + 1 < boards.size() ? boards[b + 1] : t.size();
    h.columnLabels.push_back(text::join(t, boards[b], end));
  }
  return h;
}

struct SplitRow {
  std::vector<std::string> keyTokens;
  std::vector<std::optional<std::string>> cells;
  bool ragged = false;
};

// Takes up to n value cells from the right; the rest is the key.
SplitRow splitRow(std::string_view line, std::size_t n) {
  std::vector<std::string_view> t = text::splitSpaces(line);
  SplitRow r;
  std::size_t p = t.size();
  std::vector<std::optional<std::string>> rev;
  while (rev.size() < n && p > 0) {
    if (p >= 5 && t[p - 4] == "(min" && t[p - 2] == "max" && text::endsWith(t[p - 3], ",") &&
        text::endsWith(t[p - 1], ")") && text::isNumber(t[p - 5])) {
      rev.emplace_back(text::join(t, p - 5, p));
      p -= 5;
    } else if (text::isNbspOnly(t[p - 1])) {
      rev.emplace_back(std::nullopt);
      p -= 1;
    } else {
      rev.emplace_back(std::string(t[p - 1]));
      p -= 1;
    }
  }
  r.cells.assign(rev.rbegin(), rev.rend());
  if (p == 0) {
    // No token left for the key: the row is short. Keep it, with its first cell as the key.
    r.ragged = true;
    if (!r.cells.empty()) {
      r.keyTokens.push_back(r.cells.front().value_or(""));
      r.cells.erase(r.cells.begin());
    }
  } else {
    for (std::size_t i = 0; i < p; ++i) r.keyTokens.emplace_back(t[i]);
  }
  return r;
}

bool isBlank(std::string_view s) {
  return text::trim(s).empty();
}

}  // namespace

ParsedDocument parseSpaced(const std::string& input, const std::string& source) {
  ParsedDocument d;
  d.source = source;
  d.layout = Layout::Spaced;
  const std::vector<Line> lines = text::splitLines(input);
  text::HeadingStack headings;
  auto diag = [&](int line, std::string msg) {
    d.diagnostics.push_back({source, line, std::move(msg)});
  };

  std::size_t i = 0;
  while (i < lines.size()) {
    std::string_view l = lines[i].text;
    if (auto h = text::parseHeading(l)) {
      headings.push(h->first, std::move(h->second));
      ++i;
      continue;
    }
    // "Evaluation Modules": "Name Description", then one board per line until a blank line.
    if (text::trim(l) == "Name Description") {
      std::size_t j = i + 1;
      for (; j < lines.size() && !isBlank(lines[j].text); ++j) {
        if (text::parseHeading(lines[j].text)) break;
        auto [name, desc] = text::splitBoardNameDescription(lines[j].text);
        if (desc.empty()) diag(lines[j].number, "board description row without description");
        d.boards.push_back({source, lines[j].number, headings.part(), name, desc});
      }
      i = j;
      continue;
    }
    std::optional<Header> header = parseHeader(l);
    if (!header) {
      ++i;
      continue;
    }
    const std::size_t n = header->columnLabels.size();
    RawTable t;
    t.source = source;
    t.line = lines[i].number;
    t.part = headings.part();
    t.sections = headings.sections();
    t.columnLabels = header->columnLabels;

    std::vector<SplitRow> split;
    std::vector<int> rowLines;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      std::string_view r = lines[j].text;
      if (isBlank(r) || text::parseHeading(r) || parseHeader(r) || text::colonCaption(r)) break;
      split.push_back(splitRow(r, n));
      rowLines.push_back(lines[j].number);
    }
    // Caption: the first non-blank line after the rows, when it is "Table: X".
    std::size_t k = j;
    while (k < lines.size() && isBlank(lines[k].text)) ++k;
    if (k < lines.size())
      if (auto c = text::colonCaption(lines[k].text)) t.caption = *c;

    if (split.empty()) {
      diag(t.line, "table header without data rows");
      i = j;
      continue;
    }

    // Two key columns when every row's key has the same token count k (2..label words):
    // "Resolution Format" -> "160x128 rgb4", "Algorithm Buffer Size" -> "sha1 1024".
    std::vector<std::string_view> labelWords = text::splitSpaces(header->keyLabel);
    std::size_t k0 = split.front().keyTokens.size();
    bool uniform = k0 >= 2 && k0 <= 3 && k0 <= labelWords.size();
    for (const SplitRow& s : split)
      if (s.keyTokens.size() != k0 || s.ragged) uniform = false;
    std::size_t nkeys = uniform ? k0 : 1;
    if (nkeys == 1) {
      t.keyLabels.push_back(header->keyLabel);
    } else {
      for (std::size_t w = 0; w + 1 < nkeys; ++w) t.keyLabels.emplace_back(labelWords[w]);
      t.keyLabels.push_back(text::join(labelWords, nkeys - 1, labelWords.size()));
    }

    for (std::size_t r = 0; r < split.size(); ++r) {
      SplitRow& s = split[r];
      RawRow row;
      row.line = rowLines[r];
      if (nkeys == 1) {
        std::string key;
        for (const std::string& tok : s.keyTokens) key += (key.empty() ? "" : " ") + tok;
        row.keys.push_back(std::move(key));
      } else {
        row.keys = std::move(s.keyTokens);
      }
      row.cells = std::move(s.cells);
      row.cellLines.assign(row.cells.size(), row.line);
      if (s.ragged || row.cells.size() != n)
        diag(row.line, "ragged row: " + std::to_string(row.cells.size()) + " value cells for " +
                           std::to_string(n) + " columns (kept)");
      for (const std::string& key : row.keys)
        if (text::contains(key, "(min ") || text::contains(key, ", max "))
          diag(row.line, "row key contains a (min, max) fragment; cells may be misaligned");
      t.rows.push_back(std::move(row));
    }
    d.tables.push_back(std::move(t));
    i = j;
  }
  return d;
}

}  // namespace socsim::ingest
