// CoreModel against closed forms: each scenario's cycle count follows from the timing
// parameters alone (STYLE.md rule 13: analytic first).
#include <gtest/gtest.h>

#include <numeric>

#include "models/cpu/core_model.h"

using namespace socsim::models;

namespace {

CoreParams core(const char* pipeline, int width) {
  CoreParams c;
  c.pipeline = pipeline;
  c.issue_width = width;
  return c;
}

CoreTimingParams timing(int width) {
  CoreTimingParams t;
  t.fetch_width = width;
  t.issue_width = width;
  t.retire_width = width;
  t.alu_units = width;
  t.rob_entries = 128;
  t.lsq_entries = 64;
  return t;
}

FixedLatencyMemory::Config memCfg() {
  FixedLatencyMemory::Config m;
  m.l1_hit_latency_cycles = 4;
  m.next_level_latency_cycles = 50;
  return m;
}

DynInst op(OpClass c, std::uint16_t dep1 = 0, std::uint64_t pc = 0x1000) {
  DynInst d;
  d.cls = c;
  d.dep1 = dep1;
  d.pc = pc;
  return d;
}

/// A memory instruction of `bytes` at `addr`.
DynInst memOp(OpClass c, std::uint64_t addr, std::uint16_t bytes = 4) {
  DynInst d = op(c);
  d.addr = addr;
  d.bytes = bytes;
  return d;
}

/// Runs `body` once to warm the caches and the predictor, then `repeats` times measured.
CoreRunStats runBody(const CoreParams& c, const CoreTimingParams& t, std::vector<DynInst> body,
                     std::uint64_t repeats) {
  FixedLatencyMemory mem(memCfg());
  CoreModel m(c, t, mem);
  RepeatSource warm(body, 1);
  m.run(warm, ~0ull);
  m.resetStats();
  RepeatSource src(std::move(body), repeats);
  m.run(src, ~0ull);
  return m.stats();
}

struct PipelineCase {
  const char* pipeline;
  int width;
};
class BothPipelines : public ::testing::TestWithParam<PipelineCase> {};

}  // namespace

// Scenario: N adds, each using the previous result -> one add latency per add.
TEST_P(BothPipelines, DependentAddChainRunsAtAddLatency) {
  auto [pipe, width] = GetParam();
  for (int lat : {1, 3}) {
    auto t = timing(width);
    t.int_alu_latency_cycles = lat;
    const std::uint64_t n = 10000;
    auto s = runBody(core(pipe, width), t, {op(OpClass::IntAlu, 1)}, n);
    EXPECT_EQ(s.instructions, n);
    EXPECT_EQ(s.cycles, n * static_cast<std::uint64_t>(lat)) << pipe << " latency " << lat;
  }
}

// Scenario: N independent adds -> issue width adds per cycle.
TEST_P(BothPipelines, IndependentAddsRunAtIssueWidth) {
  auto [pipe, width] = GetParam();
  const std::uint64_t n = 12000;
  auto s = runBody(core(pipe, width), timing(width), {op(OpClass::IntAlu)}, n);
  EXPECT_EQ(s.cycles, n / static_cast<std::uint64_t>(width)) << pipe;
  EXPECT_NEAR(s.ipc(), width, 1e-3);
  // explain: the issue width is the base issue time, not a busy unit (also with width 1).
  EXPECT_GT(s.partCycles[CoreModel::kIssue], 0.99 * static_cast<double>(s.cycles)) << pipe;
  auto one = runBody(core(pipe, 1), timing(1), {op(OpClass::IntAlu)}, n);
  EXPECT_EQ(one.cycles, n) << pipe;
  EXPECT_GT(one.partCycles[CoreModel::kIssue], 0.99 * static_cast<double>(one.cycles)) << pipe;
}

// Scenario: a stream of taken branches on a static not-taken predictor: every one mispredicts
// and the next branch issues `mispredict_penalty_cycles` after it.
TEST_P(BothPipelines, MispredictedBranchesCostThePenaltyEach) {
  auto [pipe, width] = GetParam();
  auto t = timing(width);
  t.branch_predictor = "static_not_taken";
  t.mispredict_penalty_cycles = 13;
  DynInst b = op(OpClass::Branch);
  b.taken = true;
  const std::uint64_t n = 1000;
  auto s = runBody(core(pipe, width), t, {b}, n);
  EXPECT_EQ(s.mispredicts, n);
  // Each branch issues 13 cycles after the one before it.
  EXPECT_EQ(s.cycles, n * 13);
  EXPECT_GT(s.partCycles[CoreModel::kMispredict], 0.99 * static_cast<double>(n * 13));
}

// Scenario: independent divides on one non-pipelined divider block it for their latency.
TEST_P(BothPipelines, NonPipelinedDivideBlocksForItsLatency) {
  auto [pipe, width] = GetParam();
  auto t = timing(width);
  t.int_div_latency_cycles = 20;
  t.int_div_interval_cycles = 20;
  t.div_units = 1;
  const std::uint64_t n = 500;
  auto s = runBody(core(pipe, width), t, {op(OpClass::IntDiv)}, n);
  EXPECT_EQ(s.cycles, n * 20);
  EXPECT_GT(s.partCycles[CoreModel::kStructural], 0.9 * static_cast<double>(n * 20));
  // A pipelined divider (interval 1) overlaps them instead.
  t.int_div_interval_cycles = 1;
  auto p = runBody(core(pipe, width), t, {op(OpClass::IntDiv)}, n);
  EXPECT_LT(p.cycles, n * 2);
}

// Scenario: a divide run by a library routine holds the whole pipeline: the independent adds
// behind it wait for it.
TEST_P(BothPipelines, SoftwareRoutineHoldsThePipeline) {
  auto [pipe, width] = GetParam();
  auto t = timing(width);
  t.int_div_latency_cycles = 40;
  t.int_div_interval_cycles = 40;
  t.software_classes = "int_div";
  const std::uint64_t n = 100;
  auto s = runBody(core(pipe, width), t,
                   {op(OpClass::IntDiv), op(OpClass::IntAlu), op(OpClass::IntAlu)}, n);
  // 40 cycles per routine; the two adds issue together when it ends, beside the next routine.
  EXPECT_EQ(s.cycles, n * 40);
}

// Scenario: a pointer chase through L1 hits -> one load-to-use latency per load.
TEST_P(BothPipelines, PointerChaseInL1RunsAtHitLatency) {
  auto [pipe, width] = GetParam();
  DynInst ld = op(OpClass::Load, 1);
  ld.addr = 0x8000;
  const std::uint64_t n = 4000;
  auto s = runBody(core(pipe, width), timing(width), {ld}, n);
  EXPECT_EQ(s.cycles, n * 4);
  EXPECT_EQ(s.loadsByLevel[0], n);
}

INSTANTIATE_TEST_SUITE_P(Core, BothPipelines,
                         ::testing::Values(PipelineCase{"in-order", 2},
                                           PipelineCase{"out-of-order", 3}));

// Scenario: a multiply chain whose result is used at once, followed by independent adds. The
// out-of-order core runs the adds under the chain (6 cycles per iteration); the in-order core
// stalls at the consumer and then issues the adds (6 + 2 per iteration).
TEST(CoreModel, OutOfOrderHidesLatencyBehindIndependentWork) {
  auto t = timing(2);
  t.int_mul_latency_cycles = 6;
  std::vector<DynInst> body = {op(OpClass::IntMul, 5), op(OpClass::IntAlu, 1), op(OpClass::IntAlu),
                               op(OpClass::IntAlu), op(OpClass::IntAlu)};
  auto io = runBody(core("in-order", 2), t, body, 1000);
  auto oo = runBody(core("out-of-order", 2), t, body, 1000);
  EXPECT_EQ(oo.cycles, 1000u * 6);
  EXPECT_EQ(io.cycles, 1000u * 8);
}

// Scenario: predictable and unpredictable branches through a simulated gshare predictor.
TEST(CoreModel, PredictorLearnsLoopsAndFailsOnRandomBranches) {
  auto t = timing(2);
  t.branch_predictor = "gshare";
  t.bp_history_bits = 8;
  t.bp_table_entries = 4096;
  // A loop branch taken 3 times then not taken (period 4): learnable from history.
  std::vector<DynInst> loop;
  for (int k = 0; k < 4; ++k) {
    DynInst b = op(OpClass::Branch, 0, 0x2000);
    b.taken = k < 3;
    loop.push_back(op(OpClass::IntAlu, 0, 0x1ffc));
    loop.push_back(b);
  }
  auto s = runBody(core("in-order", 2), t, loop, 5000);
  EXPECT_LT(static_cast<double>(s.mispredicts) / s.branches, 0.01);

  // Random outcomes (a fixed pseudo-random sequence): about half mispredicted.
  std::vector<DynInst> rnd;
  std::uint64_t x = 88172645463325252ull;
  for (int k = 0; k < 4096; ++k) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    DynInst b = op(OpClass::Branch, 0, 0x3000);
    b.taken = (x >> 33) & 1;
    rnd.push_back(b);
  }
  auto r = runBody(core("in-order", 2), t, rnd, 4);
  double rate = static_cast<double>(r.mispredicts) / r.branches;
  EXPECT_GT(rate, 0.4);
  EXPECT_LT(rate, 0.6);
}

// Scenario: the same stream twice gives identical results (determinism).
TEST(CoreModel, Deterministic) {
  auto t = timing(3);
  std::vector<DynInst> body;
  for (int k = 0; k < 64; ++k) {
    DynInst d = op(static_cast<OpClass>(k % 11), static_cast<std::uint16_t>(k % 5), 0x1000 + 4 * k);
    d.addr = 0x10000 + 72 * static_cast<std::uint64_t>(k);
    d.taken = (k % 3) == 0;
    body.push_back(d);
  }
  auto a = runBody(core("out-of-order", 3), t, body, 300);
  auto b = runBody(core("out-of-order", 3), t, body, 300);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.mispredicts, b.mispredicts);
  EXPECT_EQ(a.partCycles, b.partCycles);
}

// The breakdown accounts for every cycle.
TEST(CoreModel, BreakdownSumsToCycles) {
  auto t = timing(2);
  std::vector<DynInst> body;
  for (int k = 0; k < 50; ++k) {
    DynInst d =
        op(static_cast<OpClass>(k % 22), static_cast<std::uint16_t>(k % 3), 0x1000 + 64 * k);
    d.addr = 0x100000 + 4096 * static_cast<std::uint64_t>(k);
    d.taken = (k % 2) == 0;
    d.bytes = 16;
    body.push_back(d);
  }
  for (const char* pipe : {"in-order", "out-of-order"}) {
    auto s = runBody(core(pipe, 2), t, body, 200);
    double sum = std::accumulate(s.partCycles.begin(), s.partCycles.end(), 0.0);
    EXPECT_DOUBLE_EQ(sum, static_cast<double>(s.cycles)) << pipe;
    EXPECT_EQ(s.partNames.size(), s.partCycles.size());
  }
}

TEST(CoreModel, RejectsUnknownSoftwareClassAndPipeline) {
  FixedLatencyMemory mem(memCfg());
  auto t = timing(2);
  t.software_classes = "int_div, frobnicate";
  EXPECT_THROW(CoreModel(core("in-order", 2), t, mem), std::invalid_argument);
  EXPECT_THROW(CoreModel(core("superscalar", 2), timing(2), mem), std::invalid_argument);
}

TEST(CoreModel, ClassNamesRoundTrip) {
  for (int i = 0; i < kOpClasses; ++i) {
    auto c = static_cast<OpClass>(i);
    auto back = opClassFromName(opClassName(c));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, c);
  }
  EXPECT_FALSE(opClassFromName("nope").has_value());
}

// Scenario: independent L1-hit loads on a core with two load/store pipes. With both pipes able to
// load, two loads issue per cycle; with one load pipe and one store pipe (Cortex-A15/A57/A72),
// one load per cycle, and a load and a store still pair in the same cycle.
TEST(CoreModel, SplitLoadAndStorePipesLimitLoadsToOnePerCycle) {
  auto t = timing(4);
  t.ls_units = 2;
  const std::uint64_t n = 20000;
  DynInst ld = op(OpClass::Load);
  ld.addr = 0x8000;
  DynInst st = op(OpClass::Store);
  st.addr = 0x9000;
  auto shared = runBody(core("out-of-order", 4), t, {ld, ld}, n / 2);
  EXPECT_NEAR(static_cast<double>(shared.cycles), n / 2.0, n * 0.01);
  t.load_pipes = 1;
  t.store_pipes = 1;
  auto split = runBody(core("out-of-order", 4), t, {ld, ld}, n / 2);
  EXPECT_NEAR(static_cast<double>(split.cycles), static_cast<double>(n), n * 0.01);
  auto mixed = runBody(core("out-of-order", 4), t, {ld, st}, n / 2);
  EXPECT_NEAR(static_cast<double>(mixed.cycles), n / 2.0, n * 0.01);
}

// Scenario: a chain of multiply-accumulates, each accumulating into the previous one (a
// reduction). Without late forwarding every one waits for the full latency; with it, for the
// accumulate latency. A chain through a product input (Horner) always waits for the latency.
TEST(CoreModel, AccumulatorForwardingShortensReductions) {
  auto t = timing(2);
  t.dp_mac_latency_cycles = 7;
  t.dp_mac_interval_cycles = 1;
  t.fp_units = 2;
  const std::uint64_t n = 10000;
  DynInst mac = op(OpClass::DpMac, 1);
  mac.accumulate = true;
  auto full = runBody(core("out-of-order", 2), t, {mac}, n);
  EXPECT_EQ(full.cycles, n * 7);
  t.mac_accumulate_latency_cycles = 3;
  auto forwarded = runBody(core("out-of-order", 2), t, {mac}, n);
  EXPECT_EQ(forwarded.cycles, n * 3);
  auto horner = runBody(core("out-of-order", 2), t, {op(OpClass::DpMac, 1)}, n);
  EXPECT_EQ(horner.cycles, n * 7);
}

// Scenario: a load whose result the next instruction uses, on a single-issue in-order core. A
// word load costs the L1 load-to-use latency (4) plus the add; a byte load
// `narrow_load_extra_latency_cycles` more (ARM9E: the byte rotate / sign-extend stage).
TEST(CoreModel, NarrowLoadsPayTheirExtraLoadUseLatency) {
  auto t = timing(1);
  t.narrow_load_extra_latency_cycles = 2;
  const std::uint64_t n = 5000;
  const DynInst word = memOp(OpClass::Load, 0x8000), byte = memOp(OpClass::Load, 0x8000, 1);
  auto w = runBody(core("in-order", 1), t, {word, op(OpClass::IntAlu, 1)}, n);
  EXPECT_EQ(w.cycles, n * 5);
  auto b = runBody(core("in-order", 1), t, {byte, op(OpClass::IntAlu, 1)}, n);
  EXPECT_EQ(b.cycles, n * 7);
  // Without the parameter a byte load is a word load.
  t.narrow_load_extra_latency_cycles = 0;
  auto b0 = runBody(core("in-order", 1), t, {byte, op(OpClass::IntAlu, 1)}, n);
  EXPECT_EQ(b0.cycles, n * 5);
}

// Scenario: a multi-cycle instruction followed by an independent add on a single-issue
// in-order core. When only its unit is busy the add issues behind it; when it holds the issue
// stage (ARM9E: STM moves one register per cycle, MUL iterates in Execute) the add waits.
TEST(CoreModel, MulticycleInstructionsHoldTheIssueStage) {
  auto t = timing(1);
  t.ls_multi_bytes_per_cycle = 4;
  t.int_mul_latency_cycles = 3;
  t.int_mul_interval_cycles = 3;
  const std::uint64_t n = 5000;
  const DynInst stm = memOp(OpClass::StoreMulti, 0x8000, 16);  // four registers: 4 cycles
  // (The store runs start with the store buffer of the warm-up run draining: a few cycles.)
  auto free = runBody(core("in-order", 1), t, {stm, op(OpClass::IntAlu)}, n);
  EXPECT_NEAR(static_cast<double>(free.cycles), n * 4.0, 20.0);
  auto mulFree = runBody(core("in-order", 1), t, {op(OpClass::IntMul), op(OpClass::IntAlu)}, n);
  EXPECT_EQ(mulFree.cycles, n * 3);
  t.multicycle_holds_issue = true;
  auto held = runBody(core("in-order", 1), t, {stm, op(OpClass::IntAlu)}, n);
  EXPECT_NEAR(static_cast<double>(held.cycles), n * 5.0, 20.0);
  auto mulHeld = runBody(core("in-order", 1), t, {op(OpClass::IntMul), op(OpClass::IntAlu)}, n);
  EXPECT_EQ(mulHeld.cycles, n * 4);
  // Out-of-order cores ignore it.
  auto ooo = runBody(core("out-of-order", 1), t, {op(OpClass::IntMul), op(OpClass::IntAlu)}, n);
  EXPECT_EQ(ooo.cycles, n * 3);
}
