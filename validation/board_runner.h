#pragma once
/// @file board_runner.h
/// @brief The BoardRunner used by `socsim validate` and `socsim run`: loads the board config,
///        finds each query's workload and predicts it (one platform per worker process).
#include <string>
#include <vector>

#include "validation/validate.h"

namespace socsim::validation {

struct RunnerOptions {
  std::vector<std::string> overrides;  ///< `--set key=value` what-ifs applied to every board
};

/// A runner that resolves board names through `boardsDir` (or paths to board YAML files).
BoardRunner makeBoardRunner(const std::string& boardsDir, const RunnerOptions& opt);

}  // namespace socsim::validation
