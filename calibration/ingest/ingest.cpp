// socsim ingest driver: read a guide, pick its layout parser, normalize, flag, write.
#include "calibration/ingest/ingest.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calibration/dataset/vocabulary.h"
#include "calibration/ingest/layouts.h"
#include "calibration/ingest/normalize.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/input_file.h"

namespace socsim::ingest {

namespace {

/// The guides are 10-130 KB; anything far larger is not one (or is an endless device such as
/// /dev/zero or /dev/urandom, which would otherwise be read until memory runs out).
constexpr std::size_t kMaxGuideBytes = std::size_t{64} << 20;

// Throws when the file is not a readable text document.
std::string readText(const std::string& path) {
  std::string text = readInputFile(path, "guide text file", kMaxGuideBytes);
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
  for (auto& row : r.rows) {
    if (row.source.empty()) row.source = stem;
    // What ingest writes, the measured-CSV reader accepts: the vocabulary is checked here too, so
    // a family or unit rule outside it shows as a warning and a flag, never as a CSV that
    // `socsim measured` then rejects.
    if (!calib::isMeasuredFamily(row.family)) {
      doc.diagnostics.push_back({stem, row.line,
                                 "family '" + row.family + "' is not in the vocabulary: family 'other'"});
      row.family = "other";
    }
    if (!calib::isMeasuredUnit(row.unit)) {
      doc.diagnostics.push_back({stem, row.line,
                                 "unit '" + row.unit + "' is not in the vocabulary: value flagged "
                                 "unattributed:unknown-unit"});
      row.unit.clear();
      row.flag += std::string(row.flag.empty() ? "" : ";") + "unattributed:unknown-unit";
    }
  }
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

namespace {
/// Write one output file; a folder or file that cannot be written is bad input (--out), and a
/// failed write (disk full) is reported rather than leaving a truncated CSV behind silently.
template <class WriteFn>
void writeOutput(const std::string& path, WriteFn&& write) {
  errno = 0;
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  if (!os) {
    std::string why = errno ? std::string(": ") + std::strerror(errno) : "";
    throw InputError(path, 0, "", "cannot write output file" + why);
  }
  write(os);
  os.flush();
  if (!os) {
    std::string why = errno ? std::string(": ") + std::strerror(errno) : "";
    throw InputError(path, 0, "", "write failed" + why + " (the file is incomplete)");
  }
}
}  // namespace

void writeIngestResult(const IngestResult& r, const std::string& dir) {
  if (dir.empty()) throw InputError("", 0, "--out", "empty output folder name");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw InputError(
        dir, 0, "--out",
        "cannot create the output folder" + (ec ? ": " + ec.message() : std::string()));
  writeOutput(dir + "/" + r.source + ".csv",
              [&](std::ostream& os) { calib::writeMeasuredCsv(os, r.rows); });
  writeOutput(dir + "/" + r.source + ".boards.csv", [&](std::ostream& os) {
    csv::writeRecord(os, {"source", "part", "line", "name", "description"});
    for (const auto& b : r.boards)
      csv::writeRecord(os, {b.source.empty() ? r.source : b.source, b.part, std::to_string(b.line),
                            b.name, b.description});
  });
}

}  // namespace socsim::ingest
