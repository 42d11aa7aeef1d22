#pragma once
/// @file commands.h
/// @brief The `socsim` subcommands. Each `add*` registers its options on `app` and returns the
///        action to run when that subcommand is chosen. Actions return the exit status
///        (0 ok, 2 bad input, 1 internal error) and throw InputError for bad input.
#include <CLI/CLI.hpp>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace socsim::soc {
struct BoardConfig;
}
namespace socsim::calib {
struct MeasuredRow;
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
/// `socsim sweep` (issue 10) and `socsim plot`.
Action addSweep(CLI::App& app);
Action addPlot(CLI::App& app);
Action addCalibrate(CLI::App& app);

/// `<sourceDir>/configs/boards`
std::string boardsDir();
/// The board names of boardsDir() (file stems, which are the boards' `board.name`): the boards a
/// measured row may name.
std::set<std::string> boardNames();
/// Every measured CSV of `files` (or the built-in dataset when `files` is empty), checked
/// against the vocabulary and boardNames() (calib::readMeasuredFiles).
std::vector<calib::MeasuredRow> readMeasuredArg(const std::vector<std::string>& files);
/// An option that names families must name families of the vocabulary
/// (calibration/dataset/vocabulary.h): bad input naming `option`, the nearest and every family.
void requireFamilies(const std::string& list, const std::string& option);
/// `--board B` (a name from boardsDir() or a path to a board YAML) with `--set` overrides, loaded
/// and resolved; throws InputError naming file, line and YAML path on bad input.
soc::BoardConfig loadBoardArg(const std::string& board, const std::vector<std::string>& overrides = {});
/// Print soc::overrideWarnings(board) on stderr ("warning: ..."), once per process and text.
void printOverrideWarnings(const soc::BoardConfig& board);

/// True when `list` (comma-separated) is empty or contains `v` (items compared trimmed).
bool inCommaList(const std::string& list, const std::string& v);
/// The items of the comma-separated `list`, each trimmed of surrounding spaces ({} for "").
std::vector<std::string> splitCommaList(const std::string& list);

/// CLI11 transform for a comma-separated list option (`--board 'a, b'`): trims the spaces around
/// each item (-> "a,b"); an empty item ("", "a,,b", "a,") is a usage error (exit 2).
CLI::Validator commaList();
/// CLI11 check for a glob option (fnmatch syntax): not empty, every '[' closed, no trailing '\\'.
CLI::Validator globPattern();
/// What is wrong with `glob` for globPattern(), or "" when it is well formed.
std::string globError(const std::string& glob);
/// CLI11 check for a count option such as `--jobs`: a whole number >= 1.
CLI::Validator atLeastOne();

/// Every item of the comma-separated `list` must be in `known`: an unknown or misspelt name is
/// bad input naming `option`, the name, the nearest known one and every known one (`what` is
/// "board" or "family"), not an empty result.
void requireKnown(const std::string& list, const std::set<std::string>& known,
                  const std::string& option, const std::string& what);

/// Flushes stdout at the end of a command: when a write failed (a full disk, a closed pipe),
/// prints why on stderr and returns 1 (or `status` when that already says failure).
int checkStdout(int status);

/// Width for a printed table: $COLUMNS when it is a number of at least 60 (what a shell
/// exports for the terminal), else `fallback` (characters).
std::size_t terminalColumns(std::size_t fallback);

}  // namespace socsim::app
