#include "common/table.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ostream>

#include "common/csv.h"
#include "common/error.h"
#include "common/input_file.h"

namespace socsim {

Format parseFormat(const std::string& s) {
  if (s == "table") return Format::Table;
  if (s == "csv") return Format::Csv;
  if (s == "json") return Format::Json;
  throw InputError("", 0, "--format", "expected table, csv or json, got '" + s + "'");
}

std::string jsonString(const std::string& text) {
  // JSON text must be UTF-8: a malformed byte (a Latin-1 board name, a cut multi-byte
  // character) becomes U+FFFD instead of making the whole document invalid.
  std::string s;
  for (size_t at = 0;;) {
    size_t bad = invalidUtf8Offset(text.substr(at));
    if (bad == std::string::npos) {
      s.append(text, at, std::string::npos);
      break;
    }
    s.append(text, at, bad);
    s += "\xEF\xBF\xBD";
    at += bad + 1;
  }
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

namespace {
/// True when `v` is a number as JSON writes it (RFC 8259: -?int frac? exp?).
bool isJsonNumber(const std::string& v) {
  size_t i = 0, n = v.size();
  auto digits = [&] {
    size_t b = i;
    while (i < n && v[i] >= '0' && v[i] <= '9') ++i;
    return i > b;
  };
  if (i < n && v[i] == '-') ++i;
  if (i < n && v[i] == '0')
    ++i;
  else if (!digits())
    return false;
  if (i < n && v[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (v[i] == 'e' || v[i] == 'E')) {
    ++i;
    if (i < n && (v[i] == '+' || v[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

/// A numeric cell in JSON: the number, null when empty or not finite (nan, inf), and a string
/// for anything else, so that the output always parses.
std::string jsonNumber(const std::string& v) {
  if (v.empty()) return "null";
  if (isJsonNumber(v)) return v;
  std::string lower;
  for (char c : v) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos)
    return "null";
  return jsonString(v);
}

/// `s` in pieces of at most `width` code points, each broken after a space, ';' or ',' in the
/// piece's last two thirds, else after another separator ("/:=-_") there, else at `width`.
std::vector<std::string> wrapCell(const std::string& s, size_t width) {
  std::vector<std::string> cps;  // code points
  for (size_t i = 0; i < s.size();) {
    size_t n = 1;
    while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
    cps.push_back(s.substr(i, n));
    i += n;
  }
  std::vector<std::string> out;
  size_t at = 0;
  while (cps.size() - at > width) {
    size_t cut = width;
    for (const char* seps : {" ;,", "/:=-_"}) {
      size_t k = width;
      while (k > width / 3 && !(cps[at + k - 1].size() == 1 &&
                                std::string(seps).find(cps[at + k - 1]) != std::string::npos))
        --k;
      if (k > width / 3) {
        cut = k;
        break;
      }
    }
    std::string piece;
    for (size_t k = 0; k < cut; ++k) piece += cps[at + k];
    while (!piece.empty() && piece.back() == ' ') piece.pop_back();
    out.push_back(piece);
    at += cut;
    while (at < cps.size() && cps[at] == " ") ++at;
  }
  std::string rest;
  for (; at < cps.size(); ++at) rest += cps[at];
  if (!rest.empty() || out.empty()) out.push_back(rest);
  return out;
}
}  // namespace

std::size_t displayWidth(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;  // count UTF-8 code points
  return w;
}

std::string clipText(const std::string& s, std::size_t width) {
  if (displayWidth(s) <= width) return s;
  const std::size_t keep = width > 3 ? width - 3 : 0;
  std::size_t at = 0, points = 0;
  while (at < s.size()) {
    if ((static_cast<unsigned char>(s[at]) & 0xC0) != 0x80 && points++ == keep) break;
    ++at;
  }
  return s.substr(0, at) + "...";
}

void Table::print(std::ostream& os, Format f) const {
  auto isNum = [&](size_t i) { return i < numeric.size() && numeric[i]; };
  if (f == Format::Csv) {
    csv::writeRecord(os, columns);
    for (const auto& r : rows) csv::writeRecord(os, r);
    return;
  }
  if (f == Format::Json) {
    os << "[";
    for (size_t r = 0; r < rows.size(); ++r) {
      os << (r ? ",\n {" : "\n {");
      for (size_t i = 0; i < columns.size(); ++i) {
        const std::string& v = i < rows[r].size() ? rows[r][i] : std::string();
        os << (i ? ", " : "") << jsonString(columns[i]) << ": ";
        if (isNum(i)) os << jsonNumber(v);
        else os << jsonString(v);
      }
      os << "}";
    }
    os << (rows.empty() ? "]\n" : "\n]\n");
    return;
  }
  std::vector<size_t> w(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) w[i] = displayWidth(columns[i]);
  for (const auto& r : rows)
    for (size_t i = 0; i < columns.size() && i < r.size(); ++i)
      w[i] = std::max(w[i], displayWidth(r[i]));
  if (fitWidth > 0 && !columns.empty()) {
    // Narrow the widest text column, one character at a time, until the line fits.
    auto total = [&] {
      size_t t = 2 * (columns.size() - 1);
      for (size_t x : w) t += x;
      return t;
    };
    while (total() > fitWidth) {
      size_t widest = columns.size();
      for (size_t i = 0; i < columns.size(); ++i) {
        if (isNum(i) || (i < keepWhole.size() && keepWhole[i]) ||
            w[i] <= std::max<size_t>(6, displayWidth(columns[i])))
          continue;
        if (widest == columns.size() || w[i] > w[widest]) widest = i;
      }
      if (widest == columns.size()) break;  // nothing left to narrow
      --w[widest];
    }
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& c = i < cells.size() ? cells[i] : std::string();
      std::string pad(w[i] - displayWidth(c), ' ');
      if (i) out += "  ";
      out += isNum(i) ? pad + c : c + (i + 1 < columns.size() ? pad : "");
    }
    os << out << '\n';
  };
  line(columns);
  std::vector<std::string> rule;
  for (size_t i = 0; i < columns.size(); ++i) rule.emplace_back(w[i], '-');
  line(rule);
  for (const auto& r : rows) {
    // Cells wider than their column continue on the next lines.
    std::vector<std::vector<std::string>> parts(columns.size());
    size_t lines = 1;
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string& c = i < r.size() ? r[i] : std::string();
      parts[i] = !isNum(i) && displayWidth(c) > w[i] ? wrapCell(c, w[i]) : std::vector<std::string>{c};
      lines = std::max(lines, parts[i].size());
    }
    for (size_t k = 0; k < lines; ++k) {
      std::vector<std::string> cells(columns.size());
      for (size_t i = 0; i < columns.size(); ++i)
        if (k < parts[i].size()) cells[i] = parts[i][k];
      line(cells);
    }
  }
}

}  // namespace socsim
