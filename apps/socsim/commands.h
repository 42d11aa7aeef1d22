#pragma once
/// @file commands.h
/// @brief The `socsim` subcommands. Each `add*` registers its options on `app` and returns the
///        action to run when that subcommand is chosen. Actions return the exit status
///        (0 ok, 2 bad input, 1 internal error) and throw InputError for bad input.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace socsim::app {

using Action = std::function<int()>;

/// Where the built-in data lives (the source tree, compiled in; SOCSIM_HOME overrides).
std::string sourceDir();
/// `<sourceDir>/calibration/measured`
std::string measuredDir();

Action addIngest(CLI::App& app);
Action addMeasured(CLI::App& app);
Action addValidate(CLI::App& app);

/// True when `list` (comma-separated) is empty or contains `v`.
bool inCommaList(const std::string& list, const std::string& v);

}  // namespace socsim::app
