// Pipe layout (001, 002): one cell per line, each ending in " |".
//
//   Benchmarks |                 <- header cells (ncols of them) ...
//   am335x-evm: perf |
//   |---|---|                    <- ... right before the separator; count of "---" = ncols
//   af_unix_sock_stream_latency (microsec) |
//   48.86 |                      <- data cells, row-major
//   Table: LM Bench Metrics      <- optional caption after the table (002 only)
//
// Tables can be back to back: the next table's header cells directly follow the previous
// table's last data cell. So tables are segmented by separator lines, and the ncols cell lines
// before each separator are its header, never data of the previous table.
#include <string_view>

#include "calibration/ingest/layout_text.h"
#include "calibration/ingest/layouts.h"

namespace socsim::ingest {
namespace {

using text::Line;

enum class Kind { Blank, Cell, Separator, Other };

// "|---|---|" (also "| --- | :---: |"): number of columns, 0 if not a separator.
int separatorColumns(std::string_view s) {
  s = text::trim(s);
  if (s.size() < 5 || s.front() != '|' || s.back() != '|') return 0;
  int cols = 0;
  bool dash = false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '|') {
      if (!dash) return 0;
      ++cols;
      dash = false;
    } else if (c == '-') {
      dash = true;
    } else if (c != ':' && c != ' ') {
      return 0;
    }
  }
  return cols;
}

bool isCellLine(std::string_view s) {
  std::string_view t = text::trim(s);
  return !t.empty() && t.back() == '|' && (t.size() == 1 || t[t.size() - 2] == ' ');
}

// Cell text without the trailing " |".
std::string cellText(std::string_view s) {
  std::string_view t = text::trim(s);
  t.remove_suffix(1);
  return std::string(text::trim(t));
}

}  // namespace

ParsedDocument parsePipe(const std::string& input, const std::string& source) {
  ParsedDocument d;
  d.source = source;
  d.layout = Layout::Pipe;
  const std::vector<Line> lines = text::splitLines(input);
  auto diag = [&](int line, std::string msg) {
    d.diagnostics.push_back({source, line, std::move(msg)});
  };

  const std::size_t nl = lines.size();
  std::vector<Kind> kind(nl, Kind::Other);
  std::vector<int> sepCols(nl, 0);
  std::vector<std::size_t> seps;
  for (std::size_t i = 0; i < nl; ++i) {
    std::string_view l = lines[i].text;
    if (text::trim(l).empty()) {
      kind[i] = Kind::Blank;
    } else if (int c = separatorColumns(l); c > 0) {
      kind[i] = Kind::Separator;
      sepCols[i] = c;
      seps.push_back(i);
    } else if (isCellLine(l)) {
      kind[i] = Kind::Cell;
    }
  }

  // Header start of each separator (index of its first header cell), or npos when the cell
  // lines before it are fewer than its column count.
  const std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> headerStart(seps.size(), npos);
  for (std::size_t s = 0; s < seps.size(); ++s) {
    std::size_t sep = seps[s];
    std::size_t need = static_cast<std::size_t>(sepCols[sep]);
    std::size_t have = 0;
    std::size_t p = sep;
    while (p > 0 && have < need && kind[p - 1] == Kind::Cell) --p, ++have;
    if (have == need)
      headerStart[s] = p;
    else
      diag(lines[sep].number, "separator for " + std::to_string(need) + " columns has only " +
                                  std::to_string(have) + " header cells before it; skipped");
  }

  // Headings and board tables are walked in document order with the table segmentation.
  text::HeadingStack headings;
  std::size_t scan = 0;  // next line whose headings are not yet on the stack
  auto advanceHeadings = [&](std::size_t upto) {
    for (; scan < upto && scan < nl; ++scan)
      if (kind[scan] == Kind::Other)
        if (auto h = text::parseHeading(lines[scan].text))
          headings.push(h->first, std::move(h->second));
  };

  for (std::size_t s = 0; s < seps.size(); ++s) {
    if (headerStart[s] == npos) continue;
    const std::size_t sep = seps[s];
    const std::size_t ncols = static_cast<std::size_t>(sepCols[sep]);
    const std::size_t h0 = headerStart[s];
    advanceHeadings(h0);

    // Data: cell (and blank) lines after the separator, up to a non-cell line or the next
    // table's header.
    std::size_t limit = nl;
    if (s + 1 < seps.size()) limit = headerStart[s + 1] != npos ? headerStart[s + 1] : seps[s + 1];
    if (limit < sep + 1) limit = sep + 1;
    std::vector<std::size_t> data;
    std::size_t j = sep + 1;
    for (; j < limit; ++j) {
      if (kind[j] == Kind::Blank) continue;
      if (kind[j] != Kind::Cell) break;
      data.push_back(j);
    }
    // Caption: first non-blank line after the data when it is "Table: X".
    std::string caption;
    std::size_t k = data.empty() ? sep + 1 : data.back() + 1;
    while (k < nl && kind[k] == Kind::Blank) ++k;
    if (k < nl && k < limit)
      if (auto c = text::colonCaption(lines[k].text)) caption = *c;

    std::vector<std::string> header;
    for (std::size_t c = 0; c < ncols; ++c) header.push_back(cellText(lines[h0 + c].text));

    // Board descriptions ("Name | Description"): not a data table.
    if (ncols == 2 && header[0] == "Name" && header[1] == "Description") {
      for (std::size_t r = 0; r + 1 < data.size(); r += 2)
        d.boards.push_back({source, lines[data[r]].number, "", cellText(lines[data[r]].text),
                            cellText(lines[data[r + 1]].text)});
      if (data.size() % 2 != 0) diag(lines[data.back()].number, "board description without text");
      continue;
    }

    RawTable t;
    t.source = source;
    t.line = lines[h0].number;
    t.sections = headings.sections();
    t.caption = caption;
    std::size_t nkeys = 0;
    while (nkeys < ncols && !text::isColumnLabel(header[nkeys])) ++nkeys;
    if (nkeys == ncols) {
      diag(t.line, "header has no \"<board>: metric\" column label; first column taken as key");
      nkeys = ncols > 1 ? 1 : 0;
    } else if (nkeys == 0) {
      diag(t.line, "header has no key column label");
    }
    t.keyLabels.assign(header.begin(), header.begin() + static_cast<std::ptrdiff_t>(nkeys));
    t.columnLabels.assign(header.begin() + static_cast<std::ptrdiff_t>(nkeys), header.end());
    for (std::size_t c = nkeys; c < ncols; ++c)
      if (!text::isColumnLabel(header[c]))
        diag(lines[h0 + c].number, "column label without \"<board>:\" prefix: " + header[c]);

    if (data.empty()) {
      diag(t.line, "table header without data rows");
      continue;
    }
    if (data.size() % ncols != 0)
      diag(lines[data.back()].number, "ragged table: " + std::to_string(data.size()) +
                                          " data cells is not a multiple of " +
                                          std::to_string(ncols) + " columns; last row kept short");
    for (std::size_t r = 0; r < data.size(); r += ncols) {
      RawRow row;
      row.line = lines[data[r]].number;
      std::size_t end = std::min(data.size(), r + ncols);
      for (std::size_t c = r; c < end; ++c) {
        std::string cell = cellText(lines[data[c]].text);
        if (c - r < nkeys) {
          row.keys.push_back(std::move(cell));
        } else {
          if (cell.empty() || text::isNbspOnly(cell))
            row.cells.emplace_back(std::nullopt);
          else
            row.cells.emplace_back(std::move(cell));
          row.cellLines.push_back(lines[data[c]].number);
        }
      }
      while (row.keys.size() < nkeys) row.keys.emplace_back();
      t.rows.push_back(std::move(row));
    }
    d.tables.push_back(std::move(t));
  }
  return d;
}

}  // namespace socsim::ingest
