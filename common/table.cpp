#include "common/table.h"

#include <algorithm>
#include <ostream>

#include "common/csv.h"
#include "common/error.h"

namespace socsim {

Format parseFormat(const std::string& s) {
  if (s == "table") return Format::Table;
  if (s == "csv") return Format::Csv;
  if (s == "json") return Format::Json;
  throw InputError("", 0, "--format", "expected table, csv or json, got '" + s + "'");
}

std::string jsonString(const std::string& s) {
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
size_t displayWidth(const std::string& s) {
  size_t w = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++w;  // count UTF-8 code points
  return w;
}
}  // namespace

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
        if (isNum(i)) os << (v.empty() ? "null" : v);
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
  for (const auto& r : rows) line(r);
}

}  // namespace socsim
