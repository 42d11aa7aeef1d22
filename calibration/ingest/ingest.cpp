// Placeholder driver: to be completed with the normalizer.
#include "calibration/ingest/ingest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "calibration/ingest/layouts.h"
#include "calibration/ingest/normalize.h"
#include "common/csv.h"
#include "common/error.h"

namespace socsim::ingest {

IngestResult ingestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (text.empty()) throw InputError(path, 1, "", "empty document: nothing to ingest");
  auto layout = detectLayout(text);
  if (!layout) throw InputError(path, 1, "", "not a TI performance guide in a known layout");
  std::string stem = std::filesystem::path(path).stem().string();
  ParsedDocument doc;
  switch (*layout) {
    case Layout::Spaced: doc = parseSpaced(text, stem); break;
    case Layout::Pipe: doc = parsePipe(text, stem); break;
    case Layout::CellPerLine: doc = parseCellPerLine(text, stem); break;
    case Layout::Mcu: doc = parseMcu(text, stem); break;
  }
  doc.path = path;
  IngestResult r;
  r.source = stem;
  r.layout = *layout;
  r.rows = normalize(doc);
  r.boards = doc.boards;
  r.diagnostics = doc.diagnostics;
  r.tables = static_cast<int>(doc.tables.size());
  if (r.rows.empty()) throw InputError(path, 0, "", "no measured value found in the document");
  return r;
}

void writeIngestResult(const IngestResult& r, const std::string& dir) {
  std::filesystem::create_directories(dir);
  {
    std::ofstream os(dir + "/" + r.source + ".csv", std::ios::binary);
    calib::writeMeasuredCsv(os, r.rows);
  }
  std::ofstream os(dir + "/" + r.source + ".boards.csv", std::ios::binary);
  csv::writeRecord(os, {"source", "part", "line", "name", "description"});
  for (const auto& b : r.boards)
    csv::writeRecord(os, {b.source, b.part, std::to_string(b.line), b.name, b.description});
}

}  // namespace socsim::ingest
