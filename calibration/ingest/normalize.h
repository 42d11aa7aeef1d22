#pragma once
/// @file normalize.h
/// @brief RawTable -> MeasuredRow: board, family, benchmark, metric, params, unit, flags.
#include <optional>
#include <string>
#include <vector>

#include "calibration/ingest/raw_table.h"

namespace socsim::ingest {

/// A printed value cell: "187.41", "203.00 (min 202.79, max 203.21)". nullopt if not numeric.
struct ValueCell {
  double value = 0;
  std::optional<double> min, max;
};
std::optional<ValueCell> parseValueCell(const std::string& text);

/// All rows of the parsed tables of one document (directRows passed through), in document
/// order. Per-row problems become flags; document-level problems are appended to
/// `doc.diagnostics`.
std::vector<calib::MeasuredRow> normalize(ParsedDocument& doc);

/// Cross-row checks over a whole dataset (values orders of magnitude away from the same
/// metric elsewhere, aliases): adds flags in place, never removes rows.
void flagOutliers(std::vector<calib::MeasuredRow>& rows);

}  // namespace socsim::ingest
