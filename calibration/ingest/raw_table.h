#pragma once
/// @file raw_table.h
/// @brief What a layout parser hands to the normalizer: tables as printed, before any meaning
///        (board, family, unit, params) is given to a cell.
///
/// Layout parsers (one per text layout of the TI guides) only segment text into tables, rows
/// and cells and keep line numbers; `normalize.h` turns a RawTable into MeasuredRows.
#include <optional>
#include <string>
#include <vector>

#include "calibration/dataset/measured_row.h"

namespace socsim::ingest {

/// The four text layouts of the guides (seeds/README.md).
enum class Layout {
  Spaced,       ///< 000: one table row per line, space-separated, NBSP = blank cell, caption after
  Pipe,         ///< 001/002: one cell per line ending " |", `|---|` separator after the header
  CellPerLine,  ///< 003: one cell per line, blank lines between, "Table 2.N" caption before,
                ///< blank cells dropped without a placeholder
  Mcu,          ///< 004: MCU+ datasheet, ad-hoc tables
};
const char* layoutName(Layout l);

/// Something the parser noticed. Non-fatal diagnostics are warnings (a ragged row that was
/// still written, flagged); fatal ones mean nothing usable remains.
struct Diagnostic {
  std::string file;
  int line = 0;
  std::string message;
  /// Printed items this problem left out of the output (a line outside every table, a cell that
  /// is not a number, a table without value columns); 0 for a warning that loses nothing.
  /// `socsim ingest` counts them in its summary and exit status.
  int dropped = 0;
};

struct RawRow {
  int line = 0;                                  ///< line of the row's first key cell
  std::vector<std::string> keys;                 ///< one per RawTable::keyLabels entry
  std::vector<std::optional<std::string>> cells; ///< value cells as printed, trimmed
                                                 ///< ("203.00 (min 202.79, max 203.21)");
                                                 ///< nullopt = printed blank (000's NBSP)
  std::vector<int> cellLines;                    ///< line of each cell, same size as cells
};

struct RawTable {
  std::string source;                  ///< document file stem
  int line = 0;                        ///< line of the first header cell
  std::string part;                    ///< 000: "kernel" or "rt"; otherwise ""
  std::vector<std::string> sections;   ///< heading stack, outermost first, as printed ("¶" removed)
  std::string caption;                 ///< caption text without "Table:" / "Table 2.N", "" if none
  std::vector<std::string> keyLabels;  ///< row-key column labels ("Benchmarks"; "Algorithm", "Buffer Size")
  std::vector<std::string> columnLabels;  ///< value column labels as printed ("am335x-evm: perf")
  std::vector<RawRow> rows;
  /// 003: blank cells vanish, so a row may hold fewer cells than columns and the parser
  /// cannot tell which are missing; the normalizer decides (and flags what it cannot recover).
  bool cellsMayBeDropped = false;
};

/// One row of an "Evaluation Modules" board-description table.
struct BoardDescription {
  std::string source;
  int line = 0;
  std::string part;         ///< 000: "kernel" / "rt"
  std::string name;         ///< "AM335x", "J721e EVM"
  std::string description;  ///< full description text as printed
};

/// Everything one document yields.
struct ParsedDocument {
  std::string source;  ///< file stem
  std::string path;
  Layout layout = Layout::Spaced;
  std::vector<RawTable> tables;
  std::vector<BoardDescription> boards;
  /// Layouts too irregular for RawTable (004) emit finished rows here directly.
  std::vector<calib::MeasuredRow> directRows;
  std::vector<Diagnostic> diagnostics;
};

}  // namespace socsim::ingest
