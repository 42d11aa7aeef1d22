#pragma once
/// @file report.h
/// @brief Self-contained HTML reports (`index.html` plus the PNG/SVG plots beside it, no external
///        scripts or styles): `socsim sweep --report DIR` and `socsim validate --report DIR`.
#include <string>
#include <vector>

#include "sweep/results_db.h"
#include "validation/validate.h"

namespace socsim::sweep {

/// The sweep's metadata (spec, version, calibration, run times, backends), the "which benchmarks
/// move" table, one plot per benchmark (sweep/plot.h) grouped by family, and the failed points
/// with their errors. Without gnuplot the page says so and keeps the tables.
void writeSweepReport(const ResultsDb& db, const SweepInfo& info, const std::string& dir);

/// Coverage and error per family and per board, predicted-vs-measured and error-histogram plots
/// per family, the lat_mem_rd curves of each board, and the rows that are not ok.
void writeValidateReport(const std::vector<validation::ValidationRow>& rows, const validation::Summary& summary,
                         const std::string& dir);

/// `<img src>` targets of an HTML page (for the report test: each must exist and have a size).
std::vector<std::string> referencedImages(const std::string& html);

}  // namespace socsim::sweep
