#pragma once
/// @file report.h
/// @brief Plots (gnuplot, PNG and SVG) and self-contained HTML reports of sweeps and validations.
#include <string>
#include <vector>

#include "sweep/results_db.h"

namespace socsim::sweep {

/// Write `<dir>/index.html` with the sweep's metadata, the "which benchmarks move" table, one plot
/// per benchmark (metric vs the first swept key, one series per value of the second) and the
/// failures. Plots need gnuplot; without it the page says so and keeps the tables.
void writeSweepReport(const ResultsDb& db, const SweepInfo& info, const std::string& dir);

}  // namespace socsim::sweep
