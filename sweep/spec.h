#pragma once
/// @file spec.h
/// @brief The sweep spec (`socsim sweep SPEC.yaml`): base boards, swept config keys, sampling and
///        benchmarks; parsed, expanded into numbered points and checked before anything runs.
///
/// Spec format (examples in `configs/sweeps/`):
/// @code
///   name: j721e-clock-ddr-l2            # required; names the sweep in the results database
///   boards: [j721e-idk-gw]              # board names (configs/boards) or YAML paths (relative to the spec)
///   benchmarks:                         # selectors over the measured dataset's row identities
///     - {family: dhrystone}
///     - {family: lmbench-mem, benchmark: "lat_mem_rd-*"}   # benchmark is a glob
///   sampling: {method: lhs, samples: 200, seed: 7}         # grid (default) | random | lhs
///   timeout_s: 600                      # per point (optional; default: none)
///   parameters:
///     - key: clusters[0].core.clock_mhz # any `--set` path (soc/config/config_tree.h)
///       range: {from: 1000, to: 2000, step: 50}            # inclusive; grid needs a step
///     - key: dram.data_rate
///       values: [2666MT/s, 3200MT/s, 4266MT/s]
///       with:                           # keys set together with this one, value by value
///         dram.preset: [../components/dram/lpddr4_2666.yaml, ...]
/// @endcode
/// A grid is the cross product of every parameter's values (boards outermost, first parameter
/// next). `random` draws each parameter independently and uniformly (a range without a step is
/// continuous, with a step it is the step lattice; `values` are equally likely); `lhs` is a Latin
/// hypercube: each parameter's range is cut into `samples` equal strata and every stratum is used
/// once. Both use their own 64-bit generator (SplitMix64) seeded by `seed`, so the points are the
/// same on every machine and standard library.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace socsim::sweep {

/// One swept config key.
struct Parameter {
  std::string key;                  ///< a `--set` path, e.g. "clusters[0].core.clock_mhz"
  std::vector<std::string> values;  ///< explicit values (as text, with their unit when any)
  bool isRange = false;             ///< `range:` given instead of `values:`
  double from = 0, to = 0;          ///< range bounds, inclusive, in `unit`
  double step = 0;                  ///< range step (0 = continuous; grid requires > 0)
  std::string unit;                 ///< appended to range values ("MHz"); "" = the field's unit
  /// Keys set together with this one: each holds one value per entry of `values`.
  std::vector<std::pair<std::string, std::vector<std::string>>> with;
  int line = 0;                     ///< spec line, for errors
};

/// A benchmark selector: rows of the measured dataset whose family is in `families` (empty =
/// any) and whose benchmark matches the glob `benchmark` (empty = any).
struct BenchmarkSelector {
  std::vector<std::string> families;  ///< each one of calib::measuredFamilies() (checked)
  std::string benchmark;
  int line = 0;                       ///< spec line, for errors (a selector matching nothing)
};

struct Spec {
  std::string file;                  ///< spec path ("" when parsed from text)
  std::string text;                  ///< the spec file's text (stored with the sweep)
  std::string name;
  std::string description;
  std::vector<std::string> boards;   ///< as written (name or path)
  std::vector<std::string> boardFiles;  ///< resolved board YAML paths, parallel to `boards`
  std::vector<BenchmarkSelector> benchmarks;
  std::vector<Parameter> parameters;
  std::string method = "grid";       ///< grid | random | lhs
  int samples = 0;                   ///< points per board for random / lhs
  std::uint64_t seed = 1;
  double timeoutSeconds = 0;         ///< per point; 0 = none
};

/// One configuration to simulate.
struct Point {
  int index = 0;                     ///< 0-based, stable for a given spec
  int boardIndex = 0;                ///< into Spec::boards
  /// The swept values: (key, value text) per parameter, in spec order (plots and tables).
  std::vector<std::pair<std::string, std::string>> swept;
  /// Every override applied, `with` keys included, as "PATH=VALUE" (in order).
  std::vector<std::string> overrides;
};

/// Parse a spec file. Syntax errors and unknown keys are InputErrors naming file, line and key
/// (with the nearest valid key). Board names are resolved through `boardsDir`.
Spec parseSpec(const std::string& file, const std::string& boardsDir);
/// Same from text; `displayName` names it in errors, relative board paths resolve against its folder.
Spec parseSpecText(const std::string& text, const std::string& displayName, const std::string& boardsDir);

/// The points of the sweep, numbered 0..n-1 (deterministic).
std::vector<Point> expand(const Spec& spec);

/// Check the swept values against the boards' config schema before anything runs: every
/// distinct value of every parameter (both ends of a range) is applied alone to each base board,
/// and the first point of each board with all its overrides; throws the loader's InputError
/// (unknown key with the nearest valid one, a value out of the parameter's bounds, a bad unit),
/// prefixed with the spec file and the parameter's line.
void checkAgainstBoards(const Spec& spec, const std::vector<Point>& points);

/// A 64-bit FNV-1a hash of `text`, as 16 hex digits (sweep identity).
std::string hashHex(const std::string& text);

/// The sweep's identity: hash of the boards, the expanded points and the benchmark selectors
/// (not of the spec's formatting), so an edited comment keeps the results and a changed point
/// set starts a new sweep.
std::string sweepId(const Spec& spec, const std::vector<Point>& points);

/// Leading number of a value text ("2666MT/s" -> 2666, "1MiB" -> 1048576 bytes, "x" -> nullopt
/// as NaN): for plotting swept parameters on a numeric axis.
double numericValue(const std::string& text);

}  // namespace socsim::sweep
