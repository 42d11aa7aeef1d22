#pragma once
/// @file commands.h
/// @brief The `socsim` subcommands. Each `add*` registers its options on `app` and returns the
///        action to run when that subcommand is chosen. Actions return the exit status
///        (0 ok, 2 bad input, 1 internal error) and throw InputError for bad input.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace socsim::soc {
struct BoardConfig;
}

namespace socsim::app {

using Action = std::function<int()>;

/// Where the built-in data lives (the source tree, compiled in; SOCSIM_HOME overrides).
std::string sourceDir();
/// `<sourceDir>/calibration/measured`
std::string measuredDir();

Action addIngest(CLI::App& app);
Action addMeasured(CLI::App& app);
Action addValidate(CLI::App& app);
Action addRun(CLI::App& app);
Action addExplain(CLI::App& app);

Action addBoards(CLI::App& app);
Action addConfig(CLI::App& app);
Action addParams(CLI::App& app);

/// `<sourceDir>/configs/boards`
std::string boardsDir();
/// `--board B` (a name from boardsDir() or a path to a board YAML) with `--set` overrides, loaded
/// and resolved; throws InputError naming file, line and YAML path on bad input.
soc::BoardConfig loadBoardArg(const std::string& board, const std::vector<std::string>& overrides = {});

/// True when `list` (comma-separated) is empty or contains `v`.
bool inCommaList(const std::string& list, const std::string& v);

}  // namespace socsim::app
