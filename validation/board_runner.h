#pragma once
/// @file board_runner.h
/// @brief The BoardRunner used by `socsim validate` and `socsim run`: loads the board config,
///        finds each query's workload and predicts it on the board's platform (built once per
///        worker process, on first use).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "validation/validate.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct BoardConfig;
}

namespace socsim::validation {

struct RunnerOptions {
  std::vector<std::string> overrides;  ///< `--set key=value` what-ifs applied to every board
  std::string resolvedDir;             ///< when set, write `<dir>/<board>.yaml` (resolved config)
  /// Board name -> board YAML file to use for it instead of `<boardsDir>/<name>.yaml` (a path
  /// given as `validate --board path/to/board.yaml`).
  std::map<std::string, std::string> boardFiles;
};

/// A runner that resolves board names through `boardsDir` (or paths to board YAML files).
/// Rows of a board without a config are NotModelled ("no board config"); a board whose config
/// fails to load fails its rows with the loader's message.
BoardRunner makeBoardRunner(const std::string& boardsDir, const RunnerOptions& opt);

/// The RunContext of one board: the resolved config, and the platform built on first use.
class BoardRunContext : public wl::RunContext {
 public:
  explicit BoardRunContext(std::unique_ptr<soc::BoardConfig> cfg);
  ~BoardRunContext() override;
  const soc::BoardConfig& board() const override;
  soc::Platform& platform() override;

 private:
  std::unique_ptr<soc::BoardConfig> cfg_;
  std::unique_ptr<soc::Platform> platform_;
};

/// Predict one query in `ctx` with the built-in workloads (NotModelled / Failed as results).
QueryResult predictOne(wl::RunContext& ctx, const wl::Query& q, wl::Prediction* detail = nullptr);

}  // namespace socsim::validation
