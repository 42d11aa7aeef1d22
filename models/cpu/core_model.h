#pragma once
/// @file core_model.h
/// @brief CoreModel: a trace-driven, cycle-approximate model of one Arm core (in-order or
///        out-of-order), configured by `CoreParams` (facts) and `CoreTimingParams` (timing).
///
/// Models, per dynamic instruction of an instruction stream (`InstructionSource`):
/// - front end: fetch/dispatch width, a fetch-group break plus `taken_branch_bubble_cycles`
///   after each taken branch, instruction-cache misses (one `CoreMemoryPort::fetch` per new
///   line), and the redirect after a mispredicted branch (`mispredict_penalty_cycles` from the
///   branch's issue to the issue of the correct path);
/// - a direction predictor (static not-taken, bimodal or gshare 2-bit counters) simulated on the
///   stream's branch outcomes, so accuracy follows from the predictor and the branch behaviour;
/// - in-order cores: issue in program order, `issue_width` per cycle, operands through a
///   scoreboard (results forward at their latency); out-of-order cores: dispatch in order into a
///   `rob_entries` window (and `lsq_entries` for memory operations), issue when operands and a
///   unit are free, retire in order `retire_width` per cycle;
/// - functional-unit pools with a latency and an issue interval per instruction class
///   (non-pipelined units block for their interval); classes run by library routines
///   (`software_classes`) occupy the whole pipeline; a multiply-accumulate that takes another
///   multiply-accumulate's result as its accumulator (`DynInst::accumulate`) may start
///   `mac_accumulate_latency_cycles` after that one issued (late accumulator forwarding);
/// - single-issue in-order cores with `multicycle_holds_issue` (ARM9E): a multi-cycle
///   instruction (load/store-multiple at `ls_multi_bytes_per_cycle`, an iterating multiply)
///   holds the issue stage for its occupancy, so nothing issues behind it meanwhile;
/// - narrow loads (`DynInst::bytes` < 4) deliver their result
///   `narrow_load_extra_latency_cycles` after a word load would (align/sign-extend stage);
/// - loads and stores need an address slot of the `ls_units` and, when the core has split
///   pipelines, one of `load_pipes` / `store_pipes`;
/// - loads, stores and fetches through a `CoreMemoryPort`: L1 hits are resolved by the port
///   without a TLM call, misses go to the memory system; stores drain through a store buffer.
///
/// Does not model: register renaming limits beyond the ROB, issue-queue sizes, memory
/// disambiguation, store-to-load forwarding, micro-op fusion, the return stack or BTB capacity,
/// TLBs, interrupts. Time is counted in core cycles from 0; `stats()` breaks the cycles into
/// parts (base issue, dependencies, branch mispredicts, taken branches, structural hazards,
/// window full, instruction cache, and each data-memory level the port reports).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/cpu/core_params.h"
#include "models/cpu/core_timing_params.h"

namespace socsim::models {

/// Instruction classes of the synthetic stream. The stream is ISA-neutral; how each class runs
/// on a core type (unit, latency, interval, micro-ops, library routine) is the core's timing.
enum class OpClass : std::uint8_t {
  IntAlu,
  IntMul,
  IntDiv,
  Int64Alu,
  Int64Mul,
  Int64Div,
  Load,
  Store,
  LoadMulti,   ///< LDM / LDP / POP: `bytes` moved by one instruction
  StoreMulti,  ///< STM / STP / PUSH
  Branch,
  FpAdd,
  FpMul,
  FpMac,
  FpDiv,
  FpSqrt,
  DpAdd,
  DpMul,
  DpMac,
  DpDiv,
  DpSqrt,
  FpMove,  ///< int <-> fp register transfer, conversion
  Count
};
constexpr int kOpClasses = static_cast<int>(OpClass::Count);

/// Stable snake_case name ("int_alu", "dp_mac", ...), as used in profiles and `software_classes`.
const char* opClassName(OpClass c);
/// Inverse of opClassName; nullopt for an unknown name.
std::optional<OpClass> opClassFromName(const std::string& name);
/// True for Load, Store, LoadMulti, StoreMulti.
inline bool isMemory(OpClass c) {
  return c == OpClass::Load || c == OpClass::Store || c == OpClass::LoadMulti ||
         c == OpClass::StoreMulti;
}
inline bool isStore(OpClass c) {
  return c == OpClass::Store || c == OpClass::StoreMulti;
}

/// One dynamic instruction.
struct DynInst {
  std::uint64_t pc = 0;     ///< instruction address (fetch lines, predictor index)
  std::uint64_t addr = 0;   ///< data address of a memory class
  std::uint16_t dep1 = 0;   ///< distance (in instructions) back to the first producer; 0 = none
  std::uint16_t dep2 = 0;   ///< second producer; 0 = none
  std::uint16_t bytes = 4;  ///< access size of a memory class
  OpClass cls = OpClass::IntAlu;
  bool taken = false;  ///< branch outcome
  /// A multiply-accumulate whose dep1 is its accumulator operand (a reduction such as
  /// sum += a * b): cores with late accumulator forwarding start it before that result is out.
  bool accumulate = false;
};

/// A stream of dynamic instructions, delivered in batches.
class InstructionSource {
 public:
  virtual ~InstructionSource() = default;
  /// Write up to `n` instructions to `out`; returns how many (0 = end of stream).
  virtual std::size_t next(DynInst* out, std::size_t n) = 0;
};

/// A fixed instruction sequence repeated `repeats` times (tests, microbenchmarks).
class RepeatSource : public InstructionSource {
 public:
  RepeatSource(std::vector<DynInst> body, std::uint64_t repeats)
      : body_(std::move(body)), left_(body_.empty() ? 0 : repeats * body_.size()) {}
  std::size_t next(DynInst* out, std::size_t n) override;

 private:
  std::vector<DynInst> body_;
  std::uint64_t left_;
  std::size_t pos_ = 0;
};

/// The core's view of its memory system. L1 hits must be cheap (no TLM call); the port decides
/// what a hit costs (its L1 hit latency) and sends misses on.
class CoreMemoryPort {
 public:
  struct Access {
    std::uint64_t ready = 0;  ///< cycle the data is available (load), the line is fetched
                              ///< (fetch), or the store has left the store buffer (store)
    int level = 0;            ///< where it was served: index into levelNames() (0 = L1)
  };
  virtual ~CoreMemoryPort() = default;
  virtual Access load(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) = 0;
  virtual Access store(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) = 0;
  /// Fetch the instruction line holding `addr` (called once per new line).
  virtual Access fetch(std::uint64_t addr, std::uint64_t cycle) = 0;
  /// Line size of the instruction cache in bytes (power of two).
  virtual unsigned fetchLineBytes() const = 0;
  /// Names of the levels a data access can be served from, [0] = the L1 data cache
  /// ("l1d", "l2", "l3", "dram", ...), as breakdown parts.
  virtual std::vector<std::string> levelNames() const = 0;
};

/// Counters and the cycle breakdown of a run (since construction or the last resetStats()).
struct CoreRunStats {
  std::uint64_t instructions = 0;
  std::uint64_t cycles = 0;
  std::uint64_t branches = 0, mispredicts = 0, takenBranches = 0;
  std::uint64_t loads = 0, stores = 0, fetchLines = 0, fetchMisses = 0;
  std::vector<std::uint64_t> loadsByLevel;  ///< per CoreMemoryPort level
  /// Cycles per part; sums to `cycles`. Names in `partNames`.
  std::vector<double> partCycles;
  std::vector<std::string> partNames;

  double ipc() const { return cycles ? static_cast<double>(instructions) / cycles : 0.0; }
  double cpi() const { return instructions ? static_cast<double>(cycles) / instructions : 0.0; }
};

class CoreModel {
 public:
  /// Fixed breakdown parts; data-memory levels follow from index kFirstMemoryPart.
  enum Part : int {
    kIssue,           ///< "core.issue": base issue/retire bandwidth
    kDependency,      ///< "core.dependency": waiting for a result (ALU/FP latency)
    kMispredict,      ///< "core.branch_mispredict"
    kTakenBranch,     ///< "core.taken_branch": fetch-group breaks and bubbles
    kStructural,      ///< "core.structural": busy units, library routines
    kWindow,          ///< "core.window": ROB / LSQ / store buffer full
    kICache,          ///< "l1i": instruction fetch misses
    kFirstMemoryPart  ///< then one part per CoreMemoryPort level ("l1d", "l2", ...)
  };

  /// @throws std::invalid_argument for an unknown class in `software_classes` or a pipeline
  ///         value other than "in-order" / "out-of-order".
  CoreModel(const CoreParams& core, const CoreTimingParams& timing, CoreMemoryPort& mem);
  ~CoreModel();
  CoreModel(const CoreModel&) = delete;
  CoreModel& operator=(const CoreModel&) = delete;

  /// Execute up to `maxInstructions` instructions of `src` (fewer when it ends, or once the
  /// retire cycle reaches `untilCycle`: temporal decoupling in quanta). Can be called repeatedly
  /// to run a stream in chunks; pipeline and predictor state carry over.
  std::uint64_t run(InstructionSource& src, std::uint64_t maxInstructions,
                    std::uint64_t untilCycle = ~0ull);
  /// Restart counting (keeps the pipeline, predictor and memory state: warm-up, then measure).
  void resetStats();
  const CoreRunStats& stats() const;
  /// Cycle the last executed instruction retired.
  std::uint64_t now() const;
  bool outOfOrder() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A simple stand-in memory for tests and benchmarks: set-associative L1I/L1D tag arrays with
/// LRU, an L1 hit latency, and one flat next level with a fixed latency and `mshrs` misses in
/// flight. Not the SoC memory system (that is the platform's front end); used where no platform
/// is needed (closed-form tests, the speed benchmark).
class FixedLatencyMemory : public CoreMemoryPort {
 public:
  struct Config {
    std::uint64_t l1d_bytes = 32 * 1024, l1i_bytes = 32 * 1024;
    int ways = 4;
    int line_bytes = 64;
    int l1_hit_latency_cycles = 3;
    int next_level_latency_cycles = 20;
    int mshrs = 4;
  };
  explicit FixedLatencyMemory(const Config& c);
  ~FixedLatencyMemory() override;
  Access load(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) override;
  Access store(std::uint64_t addr, unsigned bytes, std::uint64_t cycle) override;
  Access fetch(std::uint64_t addr, std::uint64_t cycle) override;
  unsigned fetchLineBytes() const override { return static_cast<unsigned>(c_.line_bytes); }
  std::vector<std::string> levelNames() const override { return {"l1d", "next"}; }

 private:
  struct Tags;
  Access miss(std::uint64_t line, std::uint64_t cycle);
  Config c_;
  std::unique_ptr<Tags> d_, i_;
  std::vector<std::uint64_t> mshrFree_;
};

}  // namespace socsim::models
