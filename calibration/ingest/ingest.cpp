// socsim ingest driver: read a guide, pick its layout parser, normalize, flag, write.
#include "calibration/ingest/ingest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "calibration/ingest/layouts.h"
#include "calibration/ingest/normalize.h"
#include "common/csv.h"
#include "common/error.h"

namespace socsim::ingest {

namespace {

int lineOfOffset(const std::string& text, size_t off) {
  int line = 1;
  for (size_t i = 0; i < off && i < text.size(); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

// Throws when the file is not a readable text document.
std::string readText(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(path, 0, "", "is a directory, not a guide text file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, "", "read error");
  std::string text = ss.str();
  if (text.empty()) throw InputError(path, 1, "", "empty document: nothing to ingest");
  if (auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(path, lineOfOffset(text, nul), "",
                     "binary data (NUL byte): not a text document");
  // Text must be UTF-8 (the guides are); control bytes other than tab/CR/LF/FF mean binary.
  size_t i = 0;
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    bool ok = len > 0 && i + len <= text.size();
    for (size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (ok && len == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') ok = false;
    if (!ok)
      throw InputError(path, lineOfOffset(text, i), "",
                       "not UTF-8 text (byte " + std::to_string(c) + "): not a guide text file");
    i += len;
  }
  return text;
}

IngestResult ingestUnflagged(const std::string& path) {
  std::string text = readText(path);
  auto layout = detectLayout(text);
  if (!layout) throw InputError(path, 1, "", "not a TI performance guide in a known layout");
  std::string stem = std::filesystem::path(path).stem().string();
  ParsedDocument doc;
  switch (*layout) {
    case Layout::Spaced:
      doc = parseSpaced(text, stem);
      break;
    case Layout::Pipe:
      doc = parsePipe(text, stem);
      break;
    case Layout::CellPerLine:
      doc = parseCellPerLine(text, stem);
      break;
    case Layout::Mcu:
      doc = parseMcu(text, stem);
      break;
  }
  doc.path = path;
  if (doc.source.empty()) doc.source = stem;
  IngestResult r;
  r.source = stem;
  r.layout = *layout;
  r.rows = normalize(doc);
  for (auto& row : r.rows)
    if (row.source.empty()) row.source = stem;
  r.boards = doc.boards;
  r.diagnostics = doc.diagnostics;
  for (auto& d : r.diagnostics)
    if (d.file.empty() || d.file == stem) d.file = path;
  r.tables = static_cast<int>(doc.tables.size());
  if (r.rows.empty()) {
    int line = r.diagnostics.empty() ? 1 : std::max(1, r.diagnostics.front().line);
    std::string why = r.diagnostics.empty() ? "" : " (" + r.diagnostics.front().message + ")";
    throw InputError(path, line, "",
                     std::string("no measured value found in the document (") +
                         layoutName(*layout) + " layout)" + why);
  }
  return r;
}

}  // namespace

IngestResult ingestFile(const std::string& path) {
  IngestResult r = ingestUnflagged(path);
  flagOutliers(r.rows);
  return r;
}

std::vector<IngestOutcome> ingestFiles(const std::vector<std::string>& paths) {
  std::vector<IngestOutcome> out(paths.size());
  std::vector<calib::MeasuredRow> all;
  for (size_t i = 0; i < paths.size(); ++i) {
    try {
      out[i].result = ingestUnflagged(paths[i]);
      all.insert(all.end(), out[i].result->rows.begin(), out[i].result->rows.end());
    } catch (const InputError& e) {
      out[i].error = e.what();
    }
  }
  // Cross-document pass: the same measurement in several guides.
  flagOutliers(all);
  size_t at = 0;
  for (auto& o : out) {
    if (!o.result) continue;
    for (auto& row : o.result->rows) row.flag = all[at++].flag;
  }
  return out;
}

void writeIngestResult(const IngestResult& r, const std::string& dir) {
  std::filesystem::create_directories(dir);
  {
    std::ofstream os(dir + "/" + r.source + ".csv", std::ios::binary);
    if (!os) throw InputError(dir + "/" + r.source + ".csv", 0, "", "cannot write");
    calib::writeMeasuredCsv(os, r.rows);
  }
  std::ofstream os(dir + "/" + r.source + ".boards.csv", std::ios::binary);
  if (!os) throw InputError(dir + "/" + r.source + ".boards.csv", 0, "", "cannot write");
  csv::writeRecord(os, {"source", "part", "line", "name", "description"});
  for (const auto& b : r.boards)
    csv::writeRecord(os, {b.source.empty() ? r.source : b.source, b.part, std::to_string(b.line),
                          b.name, b.description});
}

}  // namespace socsim::ingest
