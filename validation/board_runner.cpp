#include "validation/board_runner.h"

#include "workloads/workload.h"

namespace socsim::validation {

// Placeholder until the board-config loader lands: finds the workload, but cannot build a
// board yet, so every row is not modelled with the reason.
BoardRunner makeBoardRunner(const std::string& boardsDir, const RunnerOptions& opt) {
  (void)boardsDir;
  (void)opt;
  return [](const std::string& board, const std::vector<wl::Query>& qs) {
    (void)board;
    std::vector<QueryResult> out;
    for (const auto& q : qs) {
      QueryResult r;
      r.kind = QueryResult::Kind::NotModelled;
      r.reason = wl::builtinRegistry().find(q) ? "board config not available" : "no workload";
      out.push_back(r);
    }
    return out;
  };
}

}  // namespace socsim::validation
