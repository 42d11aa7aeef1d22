#pragma once
/// @file ingest.h
/// @brief `socsim ingest`: TI guide text -> measured dataset.
#include <optional>
#include <string>
#include <vector>

#include "calibration/ingest/raw_table.h"

namespace socsim::ingest {

struct IngestResult {
  std::string source;  ///< file stem; the CSV is `<out>/<source>.csv`
  Layout layout = Layout::Spaced;
  std::vector<calib::MeasuredRow> rows;
  std::vector<BoardDescription> boards;
  std::vector<Diagnostic> diagnostics;
  int tables = 0;
};

/// Parse one document. Throws InputError (file, line) when the file cannot be read, is empty,
/// is not text, matches no layout, or yields no value at all.
IngestResult ingestFile(const std::string& path);

/// One document's outcome in a multi-document ingest: a result, or the InputError text.
struct IngestOutcome {
  std::optional<IngestResult> result;
  std::string error;  ///< "FILE:LINE: message" when the document could not be ingested
};

/// Ingest several documents, then run flagOutliers over all their rows together (the same
/// measurement in several guides), so each result carries flags from the whole set. A bad
/// document does not stop the others. The flags depend only on the set of documents.
std::vector<IngestOutcome> ingestFiles(const std::vector<std::string>& paths);

/// Write `<dir>/<source>.csv` (measured rows) and `<dir>/<source>.boards.csv` (board
/// descriptions: source,part,line,name,description). Deterministic bytes.
void writeIngestResult(const IngestResult& r, const std::string& dir);

}  // namespace socsim::ingest
