#pragma once
/// @file core_timing_params.h
/// @brief Timing parameters of the cycle-approximate core model (CoreModel), one set per core
///        type: front end, branch predictor, instruction window, functional units and the
///        latency / issue interval of every instruction class.
///
/// Scoped to a core type (DESIGN.md modelling rule 2): the `timing:` group of
/// `configs/components/cores/<core>.yaml` fills it once for every board with that core. The
/// basic facts (in-order or out-of-order, decode width, integer divide, FPU) stay in
/// `CoreParams` (core_params.h); this struct holds what the timing model adds. Every field says
/// where its default comes from; "calibrated: ..." marks the free parameters `socsim calibrate`
/// fits (STYLE.md rule 6: no microarchitectural constant is hidden in the model's code).
///
/// Instruction classes (`OpClass` in core_model.h) map onto functional-unit pools:
/// int_alu, int64_alu -> alu; int_mul, int64_mul -> mul; int_div, int64_div -> div;
/// load, store, load_multi, store_multi -> ls (loads also need one of `load_pipes`, stores one
/// of `store_pipes`, when those are set); branch -> branch;
/// fp_add/mul/mac, dp_add/mul/mac, fp_move -> fp; fp_div/sqrt, dp_div/sqrt -> fpdiv.
/// A class listed in `software_classes` is not executed by a unit but by a run-time library
/// routine (libgcc soft-float, __aeabi_idiv): it occupies the whole pipeline for its latency
/// (the routine's cycles; its interval field is then unused).
/// Header-only, like the other params structs, so the config loader needs no model library.
#include <string>

#include "common/params.h"

namespace socsim::models {

struct CoreTimingParams {
  // ---- front end ----
  int fetch_width = 2;  ///< instructions fetched per cycle
  int taken_branch_bubble_cycles =
      0;  ///< fetch cycles lost after a correctly predicted taken branch
  int mispredict_penalty_cycles = 8;        ///< branch resolve to correct-path issue
  std::string branch_predictor = "gshare";  ///< static_not_taken | bimodal | gshare
  int bp_table_entries = 4096;              ///< 2-bit counters of the direction predictor
  int bp_history_bits = 8;                  ///< global history length (gshare)

  // ---- window (out-of-order cores; ignored by in-order ones) ----
  int rob_entries = 0;           ///< instructions in flight between dispatch and retire
  int lsq_entries = 0;           ///< loads and stores in flight
  int issue_width = 2;           ///< instructions issued to the units per cycle
  int retire_width = 2;          ///< instructions retired per cycle
  int store_buffer_entries = 8;  ///< stores waiting to drain before the core stalls

  // ---- functional-unit pools ----
  int alu_units = 2;
  int mul_units = 1;
  int div_units = 1;
  int ls_units = 1;
  int load_pipes = 0;   ///< loads issued per cycle (0 = any of the ls_units)
  int store_pipes = 0;  ///< stores issued per cycle (0 = any of the ls_units)
  int branch_units = 1;
  int fp_units = 1;
  int fpdiv_units = 1;
  int ls_multi_bytes_per_cycle = 8;  ///< bytes a load/store-multiple (LDM/LDP) moves per cycle

  // ---- per-class latency (result) and interval (unit busy), cycles ----
  int int_alu_latency_cycles = 1;
  int int_mul_latency_cycles = 3, int_mul_interval_cycles = 1;
  int int_div_latency_cycles = 12, int_div_interval_cycles = 12;
  int int64_alu_latency_cycles = 1, int64_alu_uops = 1;
  int int64_mul_latency_cycles = 4, int64_mul_interval_cycles = 1, int64_mul_uops = 1;
  int int64_div_latency_cycles = 20, int64_div_interval_cycles = 20;
  /// Operand-dependent division: a divider or library routine that stops early takes
  /// `min + per_quotient_bit x (bits - 1)` cycles for a quotient of `bits` significant bits
  /// (libgcc's ARM __aeabi_idiv runs one 3-instruction step per quotient bit after a CLZ jump, and
  /// returns at once when the dividend is not above the divisor; hardware dividers terminate
  /// early). Used for profiles that state their quotient bits (`divide_quotient_bits`); 0 = not
  /// modelled (every division takes the class latency above).
  double int_div_min_latency_cycles = 0, int_div_cycles_per_quotient_bit = 0;
  double int64_div_min_latency_cycles = 0, int64_div_cycles_per_quotient_bit = 0;
  int branch_latency_cycles = 1;
  int fp_add_latency_cycles = 4, fp_add_interval_cycles = 1;
  int fp_mul_latency_cycles = 4, fp_mul_interval_cycles = 1;
  int fp_mac_latency_cycles = 8, fp_mac_interval_cycles = 1;
  int fp_div_latency_cycles = 14, fp_div_interval_cycles = 14;
  int fp_sqrt_latency_cycles = 14, fp_sqrt_interval_cycles = 14;
  int dp_add_latency_cycles = 4, dp_add_interval_cycles = 1;
  int dp_mul_latency_cycles = 4, dp_mul_interval_cycles = 1;
  int dp_mac_latency_cycles = 8, dp_mac_interval_cycles = 1;
  int dp_div_latency_cycles = 29, dp_div_interval_cycles = 29;
  int dp_sqrt_latency_cycles = 29, dp_sqrt_interval_cycles = 29;
  int fp_move_latency_cycles = 3;  ///< int<->fp register transfer / conversion
  /// Late accumulator forwarding: a multiply-accumulate whose accumulator is the previous
  /// multiply-accumulate's result may issue this many cycles after it (0 = the full latency).
  int mac_accumulate_latency_cycles = 0;
  /// Extra result latency of a narrow load (byte or halfword, `DynInst::bytes` < 4) over a word
  /// load: cores that align and sign-extend loaded bytes in a later pipeline stage.
  int narrow_load_extra_latency_cycles = 0;
  /// Single-issue in-order pipelines whose multi-cycle instructions (a load/store-multiple
  /// moving one register per cycle, an iterating multiplier) hold the issue stage for their
  /// occupancy, so no other instruction issues meanwhile (false = only their unit is busy).
  bool multicycle_holds_issue = false;
  std::string software_classes;    ///< comma list of classes run as library routines

  static const params::Schema<CoreTimingParams>& schema();
};

namespace core_timing_detail {
// Where generic defaults come from. Each core preset (configs/components/cores/*.yaml, group
// `timing`) overrides them and names its own source per value.
inline constexpr const char* kTrm =
    "core TRM / Software Optimization Guide (generic dual-issue default)";
inline constexpr const char* kLlvm =
    "LLVM/GCC scheduling model of the core (generic Cortex-A53-like default)";
}  // namespace core_timing_detail

inline const params::Schema<CoreTimingParams>& CoreTimingParams::schema() {
  using P = CoreTimingParams;
  static const auto s =
      params::Schema<P>("core_timing")
          // front end
          .integer("fetch_width", &P::fetch_width, "instructions", 1, 16,
                   "instructions fetched per cycle", core_timing_detail::kTrm)
          .integer("taken_branch_bubble_cycles", &P::taken_branch_bubble_cycles, "cycles", 0, 16,
                   "fetch cycles lost after a correctly predicted taken branch",
                   "calibrated: 0 (a BTB hit redirects fetch without a bubble)")
          .integer("mispredict_penalty_cycles", &P::mispredict_penalty_cycles, "cycles", 0, 64,
                   "cycles from a mispredicted branch's execution to the issue of the correct path",
                   "calibrated: core TRM pipeline length (8 as a generic 8-stage default)")
          .choice("branch_predictor", &P::branch_predictor,
                  {"static_not_taken", "bimodal", "gshare"}, "direction predictor organisation",
                  core_timing_detail::kTrm)
          .integer("bp_table_entries", &P::bp_table_entries, "count", 1, 1 << 20,
                   "2-bit counters in the direction predictor", core_timing_detail::kTrm)
          .integer("bp_history_bits", &P::bp_history_bits, "bits", 0, 20,
                   "global branch history length hashed into the table (gshare)",
                   "calibrated: generic 8 bits")
          // window
          .integer("rob_entries", &P::rob_entries, "count", 0, 1024,
                   "instructions in flight between dispatch and retire (0 = in-order core)",
                   core_timing_detail::kTrm)
          .integer("lsq_entries", &P::lsq_entries, "count", 0, 512,
                   "loads and stores in flight (0 = in-order core)", core_timing_detail::kTrm)
          .integer("issue_width", &P::issue_width, "instructions", 1, 16,
                   "instructions issued to the functional units per cycle",
                   core_timing_detail::kTrm)
          .integer("retire_width", &P::retire_width, "instructions", 1, 16,
                   "instructions retired per cycle", core_timing_detail::kTrm)
          .integer("store_buffer_entries", &P::store_buffer_entries, "count", 1, 256,
                   "stores buffered before the core stalls", core_timing_detail::kTrm)
          // units
          .integer("alu_units", &P::alu_units, "count", 1, 16, "integer ALU pipes",
                   core_timing_detail::kTrm)
          .integer("mul_units", &P::mul_units, "count", 1, 8, "integer multiply pipes",
                   core_timing_detail::kTrm)
          .integer("div_units", &P::div_units, "count", 1, 8, "integer divide units",
                   core_timing_detail::kTrm)
          .integer("ls_units", &P::ls_units, "count", 1, 8, "load/store pipes",
                   core_timing_detail::kTrm)
          .integer("load_pipes", &P::load_pipes, "count", 0, 8,
                   "load/store pipes that can issue a load (0 = every one of ls_units): "
                   "Cortex-A15/A57/A72 have one load and one store pipeline",
                   core_timing_detail::kTrm)
          .integer("store_pipes", &P::store_pipes, "count", 0, 8,
                   "load/store pipes that can issue a store (0 = every one of ls_units)",
                   core_timing_detail::kTrm)
          .integer("branch_units", &P::branch_units, "count", 1, 8, "branch pipes",
                   core_timing_detail::kTrm)
          .integer("fp_units", &P::fp_units, "count", 1, 8,
                   "floating-point / SIMD add-multiply pipes", core_timing_detail::kTrm)
          .integer("fpdiv_units", &P::fpdiv_units, "count", 1, 8,
                   "floating-point divide / square-root units", core_timing_detail::kTrm)
          .integer("ls_multi_bytes_per_cycle", &P::ls_multi_bytes_per_cycle, "bytes", 1, 64,
                   "bytes a load/store-multiple or pair moves per cycle",
                   "core TRM load/store unit data path (64-bit)")
          // latencies
          .integer("int_alu_latency_cycles", &P::int_alu_latency_cycles, "cycles", 1, 16,
                   "integer ALU result latency (with forwarding)", core_timing_detail::kLlvm)
          .integer("int_mul_latency_cycles", &P::int_mul_latency_cycles, "cycles", 1, 64,
                   "32-bit multiply result latency", core_timing_detail::kLlvm)
          .integer("int_mul_interval_cycles", &P::int_mul_interval_cycles, "cycles", 1, 64,
                   "cycles the multiplier is busy per multiply", core_timing_detail::kLlvm)
          .integer("int_div_latency_cycles", &P::int_div_latency_cycles, "cycles", 1, 1000,
                   "32-bit divide latency (hardware divider or library routine)",
                   "calibrated: core TRM divide timing (generic 12)")
          .integer("int_div_interval_cycles", &P::int_div_interval_cycles, "cycles", 1, 1000,
                   "cycles the divider (or the pipeline, for a routine) is busy per divide",
                   "calibrated: divider not pipelined (interval = latency)")
          .integer("int64_alu_latency_cycles", &P::int64_alu_latency_cycles, "cycles", 1, 16,
                   "64-bit add/logic result latency", core_timing_detail::kLlvm)
          .integer("int64_alu_uops", &P::int64_alu_uops, "count", 1, 8,
                   "ALU operations per 64-bit add/logic (2 on 32-bit cores: low and high word)",
                   "ARM architecture: AArch32 has 32-bit registers")
          .integer("int64_mul_latency_cycles", &P::int64_mul_latency_cycles, "cycles", 1, 64,
                   "64-bit multiply latency (UMULL + 2 MLA on 32-bit cores)",
                   core_timing_detail::kLlvm)
          .integer("int64_mul_interval_cycles", &P::int64_mul_interval_cycles, "cycles", 1, 64,
                   "cycles the multiplier is busy per 64-bit multiply", core_timing_detail::kLlvm)
          .integer("int64_mul_uops", &P::int64_mul_uops, "count", 1, 8,
                   "multiplies per 64-bit multiply (3 on 32-bit cores)",
                   "ARM architecture: AArch32 has 32-bit registers")
          .integer("int64_div_latency_cycles", &P::int64_div_latency_cycles, "cycles", 1, 2000,
                   "64-bit divide latency (hardware or __aeabi_ldivmod)",
                   "calibrated: core TRM divide timing (generic 20)")
          .integer("int64_div_interval_cycles", &P::int64_div_interval_cycles, "cycles", 1, 2000,
                   "cycles busy per 64-bit divide", "calibrated: not pipelined")
          .real("int_div_min_latency_cycles", &P::int_div_min_latency_cycles, "cycles", 0, 1000,
                "32-bit divide latency for a one-bit quotient (early exit); 0 = operand-independent",
                "calibrated: 0 (not modelled) by default")
          .real("int_div_cycles_per_quotient_bit", &P::int_div_cycles_per_quotient_bit, "cycles",
                0, 100, "32-bit divide cycles per further quotient bit",
                "calibrated: 0 (not modelled) by default")
          .real("int64_div_min_latency_cycles", &P::int64_div_min_latency_cycles, "cycles", 0,
                2000, "64-bit divide latency for a one-bit quotient (early exit); 0 = "
                "operand-independent", "calibrated: 0 (not modelled) by default")
          .real("int64_div_cycles_per_quotient_bit", &P::int64_div_cycles_per_quotient_bit,
                "cycles", 0, 100, "64-bit divide cycles per further quotient bit",
                "calibrated: 0 (not modelled) by default")
          .integer("branch_latency_cycles", &P::branch_latency_cycles, "cycles", 1, 16,
                   "cycles from branch issue to resolution", core_timing_detail::kLlvm)
          .integer("fp_add_latency_cycles", &P::fp_add_latency_cycles, "cycles", 1, 1000,
                   "single-precision add latency", core_timing_detail::kLlvm)
          .integer("fp_add_interval_cycles", &P::fp_add_interval_cycles, "cycles", 1, 1000,
                   "single-precision add issue interval", core_timing_detail::kLlvm)
          .integer("fp_mul_latency_cycles", &P::fp_mul_latency_cycles, "cycles", 1, 1000,
                   "single-precision multiply latency", core_timing_detail::kLlvm)
          .integer("fp_mul_interval_cycles", &P::fp_mul_interval_cycles, "cycles", 1, 1000,
                   "single-precision multiply issue interval", core_timing_detail::kLlvm)
          .integer("fp_mac_latency_cycles", &P::fp_mac_latency_cycles, "cycles", 1, 1000,
                   "single-precision multiply-accumulate latency", core_timing_detail::kLlvm)
          .integer("fp_mac_interval_cycles", &P::fp_mac_interval_cycles, "cycles", 1, 1000,
                   "single-precision multiply-accumulate issue interval", core_timing_detail::kLlvm)
          .integer("fp_div_latency_cycles", &P::fp_div_latency_cycles, "cycles", 1, 2000,
                   "single-precision divide latency", core_timing_detail::kLlvm)
          .integer("fp_div_interval_cycles", &P::fp_div_interval_cycles, "cycles", 1, 2000,
                   "single-precision divide issue interval", core_timing_detail::kLlvm)
          .integer("fp_sqrt_latency_cycles", &P::fp_sqrt_latency_cycles, "cycles", 1, 2000,
                   "single-precision square-root latency", core_timing_detail::kLlvm)
          .integer("fp_sqrt_interval_cycles", &P::fp_sqrt_interval_cycles, "cycles", 1, 2000,
                   "single-precision square-root issue interval", core_timing_detail::kLlvm)
          .integer("dp_add_latency_cycles", &P::dp_add_latency_cycles, "cycles", 1, 1000,
                   "double-precision add latency", core_timing_detail::kLlvm)
          .integer("dp_add_interval_cycles", &P::dp_add_interval_cycles, "cycles", 1, 1000,
                   "double-precision add issue interval", core_timing_detail::kLlvm)
          .integer("dp_mul_latency_cycles", &P::dp_mul_latency_cycles, "cycles", 1, 1000,
                   "double-precision multiply latency", core_timing_detail::kLlvm)
          .integer("dp_mul_interval_cycles", &P::dp_mul_interval_cycles, "cycles", 1, 1000,
                   "double-precision multiply issue interval", core_timing_detail::kLlvm)
          .integer("dp_mac_latency_cycles", &P::dp_mac_latency_cycles, "cycles", 1, 1000,
                   "double-precision multiply-accumulate latency", core_timing_detail::kLlvm)
          .integer("dp_mac_interval_cycles", &P::dp_mac_interval_cycles, "cycles", 1, 1000,
                   "double-precision multiply-accumulate issue interval", core_timing_detail::kLlvm)
          .integer("dp_div_latency_cycles", &P::dp_div_latency_cycles, "cycles", 1, 4000,
                   "double-precision divide latency", core_timing_detail::kLlvm)
          .integer("dp_div_interval_cycles", &P::dp_div_interval_cycles, "cycles", 1, 4000,
                   "double-precision divide issue interval", core_timing_detail::kLlvm)
          .integer("dp_sqrt_latency_cycles", &P::dp_sqrt_latency_cycles, "cycles", 1, 4000,
                   "double-precision square-root latency", core_timing_detail::kLlvm)
          .integer("dp_sqrt_interval_cycles", &P::dp_sqrt_interval_cycles, "cycles", 1, 4000,
                   "double-precision square-root issue interval", core_timing_detail::kLlvm)
          .integer("fp_move_latency_cycles", &P::fp_move_latency_cycles, "cycles", 1, 100,
                   "integer <-> floating-point register transfer or conversion latency",
                   core_timing_detail::kLlvm)
          .integer("mac_accumulate_latency_cycles", &P::mac_accumulate_latency_cycles, "cycles",
                   0, 100,
                   "late accumulator forwarding: cycles from a multiply-accumulate's issue to a "
                   "dependent multiply-accumulate that uses it as its accumulator (0 = none: the "
                   "full latency)",
                   "core Software Optimization Guide (latency 'N(M)': M for accumulate chains)")
          .integer("narrow_load_extra_latency_cycles", &P::narrow_load_extra_latency_cycles,
                   "cycles", 0, 16,
                   "extra result latency of a byte/halfword load (LDRB, LDRH, LDRSB, LDRSH) over "
                   "a word load (0 = the same load-to-use latency)",
                   "core TRM load timing (0: no separate narrow-load latency, the default)")
          .flag("multicycle_holds_issue", &P::multicycle_holds_issue,
                "in-order cores: a multi-cycle instruction (load/store-multiple one register per "
                "cycle, iterating multiply) holds the issue stage for its occupancy (false = only "
                "its functional unit is busy)",
                "core TRM instruction cycle timings (false by default: pipelined units)")
          .text("software_classes", &P::software_classes,
                "comma-separated instruction classes executed by library routines (no hardware "
                "unit, or the SDK's compiler does not emit the instruction); their latency is "
                "the routine's cycles and they occupy the whole pipeline",
                "ARM architecture + SDK toolchain (none by default)");
  return s;
}

}  // namespace socsim::models
