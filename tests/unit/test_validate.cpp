// The validate harness: error metrics, exclusion policy, worker isolation.
#include <gtest/gtest.h>

#include <csignal>
#include <cmath>

#include "validation/metrics.h"
#include "validation/validate.h"

using namespace socsim;
using namespace socsim::validation;

namespace {
calib::MeasuredRow row(const std::string& board, const std::string& bench, double v,
                       const std::string& unit = "MB/s", const std::string& flag = "") {
  calib::MeasuredRow r;
  r.board = board;
  r.family = "lmbench-mem";
  r.benchmark = bench;
  r.metric = "perf";
  r.unit = unit;
  r.value = v;
  r.flag = flag;
  return r;
}

// Predicts 2x the benchmark-name length: a deterministic value that depends on the query only.
BoardRunner lengthRunner() {
  return [](const std::string&, const std::vector<wl::Query>& qs) {
    std::vector<QueryResult> out;
    for (const auto& q : qs) {
      QueryResult r;
      r.kind = QueryResult::Kind::Ok;
      r.value = 2.0 * static_cast<double>(q.benchmark.size());
      out.push_back(r);
    }
    return out;
  };
}
}  // namespace

TEST(Metrics, RelativeAndPercentagePoints) {
  EXPECT_EQ(errorKindFor("%"), ErrorKind::PercentagePoints);
  EXPECT_EQ(errorKindFor("MB/s"), ErrorKind::Relative);
  EXPECT_DOUBLE_EQ(signedError(ErrorKind::Relative, 200, 250), 0.25);
  EXPECT_DOUBLE_EQ(signedError(ErrorKind::PercentagePoints, 40, 55), 15);
  EXPECT_TRUE(std::isnan(signedError(ErrorKind::Relative, 0, 1)));
}

TEST(Metrics, SummaryMedianAndShares) {
  auto s = summarize(std::vector<double>{0.05, 0.2, 0.3, 0.01}, ErrorKind::Relative);
  EXPECT_EQ(s.n, 4);
  EXPECT_DOUBLE_EQ(s.median, 0.125);
  EXPECT_DOUBLE_EQ(s.within10, 0.5);
  EXPECT_DOUBLE_EQ(s.within25, 0.75);
}

TEST(Policy, FlaggedRowsAreExcludedWithTheirReason) {
  EXPECT_FALSE(exclusionReason(row("b", "x", 1)).has_value());
  EXPECT_EQ(exclusionReason(row("b", "x", 1, "MB/s", "outlier:tens of GB/s")).value(), "outlier");
  EXPECT_EQ(exclusionReason(row("b", "x", 1, "MB/s", "foo;min-zero")).value(), "min-zero");
  EXPECT_NE(exclusionPolicyText().find("alias-of"), std::string::npos);
}

TEST(Validate, ComparesEveryRowAndScoresOnlyUnflagged) {
  std::vector<calib::MeasuredRow> rows = {row("a", "abcd", 10), row("a", "ab", 4, "MB/s", "zero-rate"),
                                          row("b", "abc", 5)};
  ValidateOptions opt;
  opt.isolate = false;
  auto res = validate(rows, lengthRunner(), opt);
  ASSERT_EQ(res.size(), 3u);
  EXPECT_EQ(res[0].status, "ok");
  EXPECT_DOUBLE_EQ(*res[0].predicted, 8);
  EXPECT_DOUBLE_EQ(res[0].error, -0.2);
  EXPECT_EQ(res[1].status, "excluded:zero-rate");
  EXPECT_DOUBLE_EQ(res[2].error, 0.2);
  auto s = summarize(res);
  EXPECT_EQ(s.total.measured, 3);
  EXPECT_EQ(s.total.predicted, 3);
  EXPECT_EQ(s.total.counted, 2);
  EXPECT_DOUBLE_EQ(s.total.rel.median, 0.2);
}

TEST(Validate, WorkerProcessesGiveTheSameResultAsInProcess) {
  std::vector<calib::MeasuredRow> rows;
  for (int i = 0; i < 50; ++i) rows.push_back(row(i % 3 ? "x" : "y", std::string(i % 7 + 1, 'q'), i + 1));
  ValidateOptions in;
  in.isolate = false;
  ValidateOptions forked;
  forked.jobs = 2;
  auto a = validate(rows, lengthRunner(), in);
  auto b = validate(rows, lengthRunner(), forked);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(toCsvFields(a[i]), toCsvFields(b[i])) << i;
  }
}

// A prediction that restates a configured fact (Prediction::configEcho) is printed but not
// scored, also when it comes back from a worker process; a flagged row keeps its flag's reason.
// The one scoring predicate validate, calibrate and --cv share: flags first, then a zero
// measured value, then a config echo.
TEST(Policy, ScoringExclusionAddsZeroMeasuredAndConfigEchoToTheFlags) {
  EXPECT_FALSE(scoringExclusion(row("b", "x", 1), 2, "").has_value());
  EXPECT_EQ(scoringExclusion(row("b", "x", 1), 2, "the configured clock").value(), "config-echo");
  EXPECT_EQ(scoringExclusion(row("b", "x", 0), 2, "").value(), "zero-measured");
  EXPECT_EQ(scoringExclusion(row("b", "x", 1, "MB/s", "outlier:x"), 2, "the clock").value(),
            "outlier");
  // CPU load is scored in percentage points: a zero measured load counts.
  EXPECT_FALSE(scoringExclusion(row("b", "x", 0, "%"), 2, "").has_value());
}

TEST(Validate, ConfigEchoRowsArePrintedButNotScored) {
  std::vector<calib::MeasuredRow> rows = {row("a", "echo", 8), row("a", "abcd", 10),
                                          row("a", "echo", 8, "MB/s", "outlier:x")};
  BoardRunner runner = [](const std::string&, const std::vector<wl::Query>& qs) {
    std::vector<QueryResult> out;
    for (const auto& q : qs) {
      QueryResult r;
      r.kind = QueryResult::Kind::Ok;
      r.value = 2.0 * static_cast<double>(q.benchmark.size());
      if (q.benchmark == "echo") r.configEcho = "the requested\trate";
      out.push_back(r);
    }
    return out;
  };
  for (bool isolate : {false, true}) {
    ValidateOptions opt;
    opt.isolate = isolate;
    auto res = validate(rows, runner, opt);
    ASSERT_EQ(res.size(), 3u);
    EXPECT_EQ(res[0].status, "excluded:config-echo") << isolate;
    EXPECT_DOUBLE_EQ(*res[0].predicted, 8);
    EXPECT_NE(res[0].note.find("the requested"), std::string::npos) << res[0].note;
    EXPECT_EQ(res[1].status, "ok");
    EXPECT_EQ(res[2].status, "excluded:outlier");
    auto s = summarize(res);
    EXPECT_EQ(s.total.counted, 1);
    EXPECT_DOUBLE_EQ(s.total.rel.median, 0.2);
  }
  EXPECT_NE(exclusionPolicyText().find("config-echo"), std::string::npos);
}

TEST(Validate, ACrashingBoardFailsOnlyItsOwnRows) {
  std::vector<calib::MeasuredRow> rows = {row("good", "abc", 6), row("bad", "abc", 6),
                                          row("good", "ab", 4)};
  BoardRunner runner = [](const std::string& board, const std::vector<wl::Query>& qs) {
    if (board == "bad") std::raise(SIGSEGV);
    return lengthRunner()(board, qs);
  };
  ValidateOptions opt;
  opt.jobs = 2;
  auto res = validate(rows, runner, opt);
  EXPECT_EQ(res[0].status, "ok");
  EXPECT_EQ(res[2].status, "ok");
  EXPECT_EQ(res[1].status.rfind("failed:worker crashed", 0), 0u) << res[1].status;
}

TEST(Validate, AThrowingRunnerIsReportedAsFailed) {
  std::vector<calib::MeasuredRow> rows = {row("b", "abc", 6)};
  BoardRunner runner = [](const std::string&, const std::vector<wl::Query>&) -> std::vector<QueryResult> {
    throw std::runtime_error("boom");
  };
  ValidateOptions opt;
  opt.isolate = false;
  auto res = validate(rows, runner, opt);
  EXPECT_EQ(res[0].status, "failed:error: boom");
}

// Rows attributed to no board are summed under one label, the one `socsim measured --summary`,
// the per-board tables and the progress lines print.
TEST(Validate, RowsWithoutABoardAreSummedUnderTheNoBoardLabel) {
  auto r = row("", "abc", 3, "MB/s", "unattributed");
  EXPECT_EQ(r.boardLabel(), calib::kNoBoardLabel);
  ValidationRow v;
  v.measured = r;
  v.status = "excluded:unattributed";
  auto s = summarize(std::vector<ValidationRow>{v});
  ASSERT_EQ(s.boards.size(), 1u);
  EXPECT_EQ(s.boards[0].name, "(no board)");
}
