#include "validation/board_runner.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/format.h"
#include "soc/board_platform.h"
#include "soc/config/loader.h"
#include "soc/platform.h"
#include "workloads/workload.h"

namespace socsim::validation {

BoardRunContext::BoardRunContext(std::unique_ptr<soc::BoardConfig> cfg) : cfg_(std::move(cfg)) {}
BoardRunContext::~BoardRunContext() = default;

const soc::BoardConfig& BoardRunContext::board() const { return *cfg_; }

soc::Platform& BoardRunContext::platform() {
  if (!platform_) {
    // SystemC prints a banner on stdout at elaboration; keep stdout for results.
    setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    platform_ = std::make_unique<soc::Platform>(soc::memorySystemFor(*cfg_));
  }
  return *platform_;
}

QueryResult predictOne(wl::RunContext& ctx, const wl::Query& q, wl::Prediction* detail) {
  QueryResult r;
  wl::Workload* w = wl::builtinRegistry().find(q);
  if (!w) {
    r.kind = QueryResult::Kind::NotModelled;
    r.reason = "no workload for family " + q.family;
    return r;
  }
  try {
    wl::Prediction p = w->predict(ctx, q);
    // Every measured quantity is a finite number >= 0 (a time, rate, size, count, load or power):
    // a NaN, infinite or negative prediction is a model that left its range (e.g. a row whose
    // params carry a nonsense size), never a result to score.
    if (!std::isfinite(p.value) || p.value < 0) {
      r.kind = QueryResult::Kind::Failed;
      r.reason = w->name() + ": the model gave " + formatNumber(p.value) +
                 " (expected a finite number >= 0; check the row's params: " +
                 (q.params.empty() ? std::string("none") : q.params) + ")";
      return r;
    }
    r.kind = QueryResult::Kind::Ok;
    r.value = p.value;
    r.configEcho = p.configEcho;
    if (detail) *detail = std::move(p);
  } catch (const wl::NotModelled& nm) {
    r.kind = QueryResult::Kind::NotModelled;
    r.reason = nm.reason;
  } catch (const soc::MissingPart& e) {
    // A valid board without a part this benchmark needs (e.g. no DDR): not modelled on it.
    r.kind = QueryResult::Kind::NotModelled;
    r.reason = w->name() + ": the board has no " + e.part() + ", which this benchmark needs";
    r.badInput = true;
  } catch (const InputError& e) {
    r.kind = QueryResult::Kind::Failed;
    r.reason = w->name() + ": " + e.what();
    r.badInput = true;
  } catch (const std::exception& e) {
    r.kind = QueryResult::Kind::Failed;
    r.reason = w->name() + ": " + e.what();
  }
  return r;
}

BoardRunner makeBoardRunner(const std::string& boardsDir, const RunnerOptions& opt) {
  return [boardsDir, opt](const std::string& board, const std::vector<wl::Query>& qs) {
    std::vector<QueryResult> out(qs.size());
    auto all = [&](QueryResult::Kind k, const std::string& why) {
      for (auto& r : out) {
        r.kind = k;
        r.reason = why;
      }
      return out;
    };
    if (board.empty()) return all(QueryResult::Kind::NotModelled, "no board attributed to the value");
    std::string file;
    try {
      auto given = opt.boardFiles.find(board);
      file = given != opt.boardFiles.end() ? given->second : soc::findBoardFile(board, boardsDir);
    } catch (const InputError&) {
      return all(QueryResult::Kind::NotModelled, "no board config for '" + board + "'");
    }
    std::unique_ptr<soc::BoardConfig> cfg;
    try {
      cfg = std::make_unique<soc::BoardConfig>(soc::loadBoard(file, opt.overrides));
    } catch (const InputError& e) {
      return all(QueryResult::Kind::Failed, std::string("config: ") + e.what());
    }
    if (!opt.resolvedDir.empty()) {
      std::filesystem::create_directories(opt.resolvedDir);
      std::ofstream os(opt.resolvedDir + "/" + board + ".yaml");
      soc::writeResolvedConfig(*cfg, os);
    }
    BoardRunContext ctx(std::move(cfg));
    for (size_t i = 0; i < qs.size(); ++i) out[i] = predictOne(ctx, qs[i]);
    return out;
  };
}

}  // namespace socsim::validation
