#pragma once
/// @file cross_guide.h
/// @brief Release-to-release noise next to the model's error: for each validated row, the same
///        metric on the same board measured in another guide (another `source`), and whether the
///        guides disagree with each other by more than the model disagrees with this row.
///
/// The guides' OS rows move by large factors between releases of the same board (am335x-evm
/// lat_ctx-2-256k 632 us in one guide, 4 us in another); a model error smaller than that spread
/// cannot be told from measurement noise. Shown as a column of `socsim validate`'s table format
/// only (the CSV keeps the DESIGN.md columns).
#include <string>
#include <vector>

#include "validation/validate.h"

namespace socsim::validation {

struct CrossGuide {
  bool has = false;         ///< another guide measured the same row identity on this board
  std::string otherSource;  ///< that guide's source id (the first, by source order)
  double otherValue = 0;    ///< its value
  double disagreement = 0;  ///< (other - this) / this for rel rows; other - this (pp) for pp rows
  bool hasModelError = false;
  double modelError = 0;  ///< signed error of the prediction against this row
  bool exceeds = false;   ///< |disagreement| > |modelError|
  bool pp = false;        ///< percentage-point row (CPU load, loss)
};

/// One entry per row of `rows`, in order. Rows with a measured value of 0 compare in absolute
/// terms only when their unit is percentage points; otherwise they have no disagreement.
std::vector<CrossGuide> crossGuide(const std::vector<ValidationRow>& rows);

/// Table cell: "" (no other guide), "001: -28% > model 12%", "001: +3% within model 40%",
/// "001: -28%" (no prediction).
std::string crossGuideCell(const CrossGuide& c);

}  // namespace socsim::validation
