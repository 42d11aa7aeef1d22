#pragma once
/// @file plot.h
/// @brief Plots rendered by gnuplot (Debian gnuplot-nox) to PNG and SVG: a sweep's metric vs a
///        swept parameter per benchmark, predicted vs measured per family (log-log, +/-10 % and
///        +/-25 % bands), error histograms, and a board's lat_mem_rd latency-vs-size curve.
///
/// Each plot writes `<dir>/<name>.png`, `<name>.svg` and the gnuplot script `<name>.gp` (data
/// inline, so the script re-renders on its own). Plots are drawn from results only: the sweep
/// database, or a `socsim validate` CSV (validate.csv columns, DESIGN.md).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep/results_db.h"

namespace socsim::sweep {

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> xy;
  std::string style = "linespoints";  ///< gnuplot `with` clause: linespoints | points | lines | boxes
  /// Index into the series look (colour, then point type / dash): -1 = the series' position.
  /// Plots of the same kind give the same thing (a board) the same index, so it keeps its colour.
  int look = -1;
};

/// The look of series `look`: a colour of a 10-colour palette, and from the 11th series on a
/// different point type and dash pattern, so that up to 50 series stay distinct (gnuplot's own
/// cycle repeats its colours after 8).
struct SeriesLook {
  std::string colour;  ///< "#rrggbb"
  int pointType;       ///< gnuplot pt
  int dashType;        ///< gnuplot dt
};
SeriesLook seriesLook(int look);

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::optional<std::pair<double, double>> xrange;  ///< fixed x range (default: gnuplot's autoscale)
  std::vector<Series> series;
  /// Diagonal bands for predicted-vs-measured plots: y = x, +/-10 %, +/-25 % over [lo, hi].
  bool ratioBands = false;
  double bandLo = 0, bandHi = 0;
};

/// One rendered plot, for reports.
struct PlotFile {
  std::string name;   ///< file stem in the output folder
  std::string title;
  std::string group;  ///< heading it belongs under in a report
};

/// Render `spec` to `<dir>/<name>.png|.svg`. Throws InputError naming gnuplot's message when
/// gnuplot is missing or fails.
void renderPlot(const PlotSpec& spec, const std::string& dir, const std::string& name);

/// True when `gnuplot` can be run.
bool haveGnuplot();

/// Sweep plots: one per benchmark row matching `benchmarkGlob` ("" = all): predicted value vs the
/// swept key `xKey` ("" = the first key); the other keys' combinations are the series (lines for a
/// grid, points for random/LHS samples, coloured by the other key with the largest main effect).
std::vector<PlotFile> plotSweep(const ResultsDb& db, const SweepInfo& info, const std::string& dir,
                                const std::string& benchmarkGlob = "", const std::string& xKey = "");

/// Validation plots from validate.csv records (header first): predicted vs measured per family
/// (log-log with bands; rows with status ok and a relative error), a histogram of the signed
/// relative error per family and over all families, and for every board with lat_mem_rd rows the
/// latency-vs-size curve, model against measurement.
std::vector<PlotFile> plotValidation(const std::vector<std::vector<std::string>>& csv, const std::string& dir);

/// "lat_mem_rd-stride128-sz125k" -> 122.07 KiB (sizes as the workload reads them: szNk is N/1000
/// MiB, sz50 lmbench's smallest size 512 B); "latency_for_0.50_mb_block_size" -> 512 KiB; else -1.
double latencySizeKiB(const std::string& benchmark);

/// A file-name-safe stem ("lat_mem_rd-stride128-sz125k" stays, "a/b c" -> "a_b_c").
std::string safeName(const std::string& s);

}  // namespace socsim::sweep
