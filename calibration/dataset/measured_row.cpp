#include "calibration/dataset/measured_row.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/input_file.h"

namespace socsim::calib {

const std::vector<std::string>& measuredCsvHeader() {
  static const std::vector<std::string> h = {"source", "section", "table",  "board", "family",
                                             "benchmark", "metric", "params", "unit",  "value",
                                             "min",    "max",     "flag"};
  return h;
}

void writeMeasuredCsv(std::ostream& os, const std::vector<MeasuredRow>& rows) {
  csv::writeRecord(os, measuredCsvHeader());
  for (const auto& r : rows) {
    csv::writeRecord(os, {r.source, r.section, r.table, r.board, r.family, r.benchmark, r.metric,
                          r.params, r.unit, formatNumber(r.value), formatNumber(r.min),
                          formatNumber(r.max), r.flag});
  }
}

namespace {
std::string clip(const std::string& s) {
  return s.size() <= 60 ? s : s.substr(0, 57) + "...";
}

std::optional<double> parseOptNumber(const std::string& s, const std::string& file, int line,
                                     const char* col) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0')
    throw InputError(file, line, col, "expected a number, got '" + clip(s) + "'");
  // nan, inf and overflowing values (1e999) are not measurements, and would make the JSON
  // output invalid.
  if (!std::isfinite(v))
    throw InputError(file, line, col, "expected a finite number, got '" + clip(s) + "'");
  return v;
}

/// Measured CSVs are a few MB; anything far larger is not one (or is an endless device).
constexpr std::size_t kMaxMeasuredCsvBytes = std::size_t{256} << 20;
}  // namespace

std::vector<MeasuredRow> readMeasuredCsv(const std::string& path) {
  std::string text = readInputFile(path, "measured CSV", kMaxMeasuredCsvBytes);
  // A UTF-8 byte-order mark (spreadsheet exports) is not part of the header.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  if (auto bad = invalidUtf8Offset(text); bad != std::string::npos)
    throw InputError(path, lineOfOffset(text, bad), "",
                     "not UTF-8 text (byte " +
                         std::to_string(static_cast<unsigned char>(text[bad])) +
                         "): expected a measured CSV");
  if (auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(path, lineOfOffset(text, nul), "",
                     "binary data (NUL byte): expected a measured CSV");
  std::vector<int> lines;
  auto records = csv::parse(text, path, &lines);
  if (records.empty()) throw InputError(path, 1, "", "empty file: expected the measured-CSV header");
  const auto& header = measuredCsvHeader();
  if (records[0] != header) {
    std::string expect;
    for (const auto& h : header) expect += (expect.empty() ? "" : ",") + h;
    const auto& got = records[0];
    std::string which;
    for (size_t c = 0; c < std::max(got.size(), header.size()); ++c) {
      if (c < got.size() && c < header.size() && got[c] == header[c]) continue;
      which = "column " + std::to_string(c + 1) + " is " +
              (c < got.size() ? "'" + clip(got[c]) + "'" : "missing") + ", expected " +
              (c < header.size() ? "'" + header[c] + "'" : "no more columns") + "; ";
      break;
    }
    throw InputError(path, lines[0], "", "wrong header: " + which + "expected '" + expect + "'");
  }
  std::vector<MeasuredRow> rows;
  rows.reserve(records.size() - 1);
  for (size_t i = 1; i < records.size(); ++i) {
    const auto& f = records[i];
    int line = lines[i];
    if (f.size() != header.size())
      throw InputError(path, line, "", "expected " + std::to_string(header.size()) +
                                           " fields, got " + std::to_string(f.size()));
    MeasuredRow r;
    r.source = f[0];
    r.section = f[1];
    r.table = f[2];
    r.board = f[3];
    r.family = f[4];
    r.benchmark = f[5];
    r.metric = f[6];
    r.params = f[7];
    r.unit = f[8];
    auto v = parseOptNumber(f[9], path, line, "value");
    if (!v) throw InputError(path, line, "value", "missing value");
    r.value = *v;
    r.min = parseOptNumber(f[10], path, line, "min");
    r.max = parseOptNumber(f[11], path, line, "max");
    r.flag = f[12];
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<MeasuredRow> readMeasuredDir(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "measured-data folder not found");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".csv" &&
        e.path().string().find(".boards.csv") == std::string::npos)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<MeasuredRow> all;
  for (const auto& f : files) {
    auto rows = readMeasuredCsv(f);
    all.insert(all.end(), rows.begin(), rows.end());
  }
  return all;
}

std::vector<std::pair<std::string, std::string>> parseParams(const std::string& params) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t start = 0;
  while (start < params.size()) {
    size_t end = params.find(';', start);
    if (end == std::string::npos) end = params.size();
    std::string kv = params.substr(start, end - start);
    size_t eq = kv.find('=');
    if (eq == std::string::npos) out.emplace_back(kv, "");
    else out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

std::optional<std::string> paramValue(const std::string& params, const std::string& key) {
  for (auto& [k, v] : parseParams(params))
    if (k == key) return v;
  return std::nullopt;
}

}  // namespace socsim::calib
