#pragma once
/// @file loader.h
/// @brief The one config loader (yaml-cpp): board YAML -> BoardConfig, and back to YAML.
///
/// Pipeline: parse the board file -> resolve presets (relative to the including file) ->
/// apply `--set PATH=VALUE` overrides in order -> convert each group through its params schema
/// (units, types, ranges, unknown/missing keys) -> BoardConfig with the source of every field.
/// Every error is an InputError naming file, line, YAML path and what was expected.
#include <iosfwd>
#include <string>
#include <vector>

#include "soc/config/board_config.h"

namespace socsim::soc {

/// Load and resolve a board file. `overrides` are "PATH=VALUE" strings (see
/// config::overridePathSyntax()); a path starting inside a cluster ("core.clock_mhz") means the
/// first cluster.
BoardConfig loadBoard(const std::string& file, const std::vector<std::string>& overrides = {});

/// Same from YAML text (tests); presets resolve relative to `displayName`'s folder.
BoardConfig loadBoardText(const std::string& yaml, const std::string& displayName,
                          const std::vector<std::string>& overrides = {});

/// Apply one override to a loaded board: re-resolves from the board file with the previous and
/// the new override (so one validation path serves both). `assignment` is "PATH=VALUE".
void applyOverride(BoardConfig& board, const std::string& assignment);
/// Same with the path and the value apart: applyOverride(b, "clusters[0].core.clock_mhz", "1800").
void applyOverride(BoardConfig& board, const std::string& path, const std::string& value);

/// Warnings about `board`'s --set overrides that do what they say but maybe not what was meant
/// (one sentence each, for stderr). Today: `dram.data_rate` set to a rate other than the DRAM
/// preset's keeps that preset's speed-bin timings (CL/CWL in cycles, tRCD/tRP/... in ns; the
/// controller clock does follow the rate); the warning names a preset of the same standard at
/// the new rate in the preset's folder when there is one, and the --set that switches to it.
/// The preset is not switched silently: a what-if on the data rate alone is a valid question.
std::vector<std::string> overrideWarnings(const BoardConfig& board);

/// The board files in `boardsDir` (`*.yaml`, sorted by name).
std::vector<std::string> listBoardFiles(const std::string& boardsDir);

/// `nameOrPath` is a board name from `boardsDir` ("am335x-evm") or a path to a YAML file.
/// Throws InputError listing the known boards (with the nearest) when neither exists.
std::string findBoardFile(const std::string& nameOrPath, const std::string& boardsDir);

struct WriteOptions {
  /// A comment naming the preset above each group built from one (not part of the data).
  bool presetComments = true;
};

/// The resolved config as YAML: every field (defaults included) in the value form
/// `key: {value: V, unit: U, source: S}`; loading it back gives the same BoardConfig.
void writeResolvedConfig(const BoardConfig& board, std::ostream& os, const WriteOptions& opt = {});

/// One row per field: path, value, unit, source (for `socsim config --format table|csv|json`).
struct ResolvedField {
  std::string path, value, unit, source;
};
std::vector<ResolvedField> resolvedFields(const BoardConfig& board);

}  // namespace socsim::soc
