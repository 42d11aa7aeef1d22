#include "calibration/dataset/measured_row.h"

#include <map>
#include <set>

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
#include "common/table.h"
#include "calibration/dataset/csv_number.h"
#include "calibration/dataset/vocabulary.h"

namespace socsim::calib {

const std::string& MeasuredRow::boardLabel() const {
  static const std::string none = kNoBoardLabel;
  return board.empty() ? none : board;
}

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
std::string clip(const std::string& s) { return clipText(s, 60); }

/// Measured CSVs are a few MB; anything far larger is not one (or is an endless device).
constexpr std::size_t kMaxMeasuredCsvBytes = std::size_t{256} << 20;

/// A measured number is a time, rate, size, count, load or power: never negative.
void requireNonNegative(const std::optional<double>& v, const std::string& file, int line,
                        const char* col) {
  if (v && *v < 0)
    throw InputError(file, line, col,
                     "expected a number >= 0 (a time, rate, size, load or power), got " +
                         formatNumber(*v));
}

/// The vocabulary checks of one row (DESIGN.md: fixed families, normalized units, flag reasons).
void checkRow(const MeasuredRow& r, const std::string& file, int line,
              const std::set<std::string>* knownBoards) {
  if (!isMeasuredFamily(r.family))
    throw InputError(file, line, "family",
                     "unknown family '" + clip(r.family) + "' (expected one of " +
                         joinNames(measuredFamilies()) + ")");
  if (!isMeasuredUnit(r.unit))
    throw InputError(file, line, "unit",
                     "unknown unit '" + clip(r.unit) + "' (expected one of " +
                         joinNames(measuredUnits()) + ")");
  if (std::string e = flagError(r.flag); !e.empty()) throw InputError(file, line, "flag", e);
  if (r.board.empty()) {
    if (r.flag.find("unattributed") == std::string::npos)
      throw InputError(file, line, "board",
                       "empty board without an 'unattributed:<why>' flag (expected a board "
                       "name, or the flag saying why the value has no board)");
  } else if (knownBoards && !knownBoards->count(r.board)) {
    std::vector<std::string> names(knownBoards->begin(), knownBoards->end());
    throw InputError(file, line, "board",
                     "unknown board '" + clip(r.board) + "' (expected a board of configs/boards: " +
                         joinNames(names) + "; or an empty board with an 'unattributed:<why>' flag)");
  }
  if (std::string e = paramsError(r.params); !e.empty())
    throw InputError(file, line, "params", e);
  requireNonNegative(r.value, file, line, "value");
  requireNonNegative(r.min, file, line, "min");
  requireNonNegative(r.max, file, line, "max");
  // min <= value <= max, unless a flag says why not (ingest flags max-below-avg, mixed-minmax).
  if (r.flag.empty()) {
    if (r.min && r.max && *r.min > *r.max)
      throw InputError(file, line, "min",
                       "min " + formatNumber(*r.min) + " > max " + formatNumber(*r.max) +
                           " (expected min <= value <= max, or a flag saying why not)");
    if ((r.min && r.value < *r.min) || (r.max && r.value > *r.max))
      throw InputError(file, line, "value",
                       "value " + formatNumber(r.value) + " outside [min " +
                           (r.min ? formatNumber(*r.min) : std::string("-")) + ", max " +
                           (r.max ? formatNumber(*r.max) : std::string("-")) +
                           "] (expected min <= value <= max, or a flag saying why not)");
  }
}

std::vector<MeasuredRow> readOne(const std::string& path, const std::set<std::string>* knownBoards,
                                 std::vector<int>* csvLines) {
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
    auto v = parseCsvNumber(f[9], path, line, "value");
    if (!v) throw InputError(path, line, "value", "missing value");
    r.value = *v;
    r.min = parseCsvNumber(f[10], path, line, "min");
    r.max = parseCsvNumber(f[11], path, line, "max");
    r.flag = f[12];
    checkRow(r, path, line, knownBoards);
    rows.push_back(std::move(r));
    if (csvLines) csvLines->push_back(line);
  }
  return rows;
}
}  // namespace

std::vector<MeasuredRow> readMeasuredCsv(const std::string& path,
                                         const std::set<std::string>* knownBoards) {
  return readMeasuredFiles({path}, knownBoards);
}

std::vector<MeasuredRow> readMeasuredFiles(const std::vector<std::string>& paths,
                                           const std::set<std::string>* knownBoards) {
  // A row is a duplicate when another row of a board has the same source, section, table,
  // benchmark, metric, params and unit: one published cell read twice (a file named twice, a
  // pasted line). Rows without a board are excluded: ingest keeps every unattributable cell.
  std::map<std::vector<std::string>, std::pair<std::string, int>> seen;
  std::vector<MeasuredRow> all;
  for (const auto& path : paths) {
    std::vector<int> lines;
    auto rows = readOne(path, knownBoards, &lines);
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      if (r.board.empty()) continue;
      std::vector<std::string> key = {r.source, r.section,   r.table,  r.board,
                                      r.family, r.benchmark, r.metric, r.params, r.unit};
      auto [it, fresh] = seen.emplace(std::move(key), std::make_pair(path, lines[i]));
      if (!fresh)
        throw InputError(path, lines[i], "",
                         "duplicate row: the same source, section, table, board, family, "
                         "benchmark, metric, params and unit as " + it->second.first + ":" +
                             std::to_string(it->second.second) +
                             " (expected each published value once)");
    }
    all.insert(all.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  }
  return all;
}

std::vector<MeasuredRow> readMeasuredDir(const std::string& dir,
                                         const std::set<std::string>* knownBoards) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "measured-data folder not found");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".csv" &&
        e.path().string().find(".boards.csv") == std::string::npos)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return readMeasuredFiles(files, knownBoards);
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

std::optional<double> parseCsvNumber(const std::string& s, const std::string& file, int line,
                                     const char* col) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0')
    throw InputError(file, line, col, "expected a number, got '" + clip(s) + "'");
  if (!std::isfinite(v))
    throw InputError(file, line, col, "expected a finite number, got '" + clip(s) + "'");
  return v;
}

}  // namespace socsim::calib
