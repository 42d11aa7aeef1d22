#pragma once
/// @file core_params.h
/// @brief Basic facts of an Arm core type (ISA, in-order/out-of-order, widths, FPU/NEON, divide).
///
/// A plain parameter struct with a schema (STYLE.md rule 2): presets in
/// `configs/components/cores/*.yaml` fill it, a board sets `clock_mhz`. Only architectural and
/// microarchitectural facts from Arm's Technical Reference Manuals live here; the core timing
/// model's calibrated parameters are added to this struct by the core model's author.
/// Header-only, like the memory-system params, so the loader needs no model library.
#include <string>

#include "common/params.h"

namespace socsim::models {

/// One Arm core type as instantiated on a board (per core; a cluster holds `count` of them).
struct CoreParams {
  std::string type = "cortex-a53";    ///< core type name, e.g. "cortex-a72"
  std::string isa = "armv8-a";        ///< architecture version and profile
  int revision_major = 0;             ///< rNpM: N (0 when unknown)
  std::string pipeline = "in-order";  ///< "in-order" or "out-of-order"
  int issue_width = 2;                ///< instructions decoded/dispatched per cycle (peak)
  int pipeline_depth_stages = 8;      ///< integer pipeline length, fetch to write-back
  bool aarch64 = true;                ///< implements the 64-bit execution state
  bool fpu = true;                    ///< a floating-point unit is present
  std::string fpu_variant =
      "fp-armv8";           ///< vfpv2, vfpv3, vfpv3-d16, vfpv4, fpv4-sp, fp-armv8, none
  bool neon = true;         ///< Advanced SIMD present
  bool hw_divide = true;    ///< integer divide instructions (SDIV/UDIV) in hardware
  bool mmu = true;          ///< MMU (virtual memory) rather than an MPU only
  double clock_mhz = 1000;  ///< core clock (board fact)
  /// Spectre-BHB: iterations of the branch loop Linux runs on every kernel entry from user
  /// space on this core type (0 = not affected or not mitigated with the loop).
  int bhb_loop_iterations = 0;
  /// Spectre v2: Linux invalidates this core's whole L1 instruction cache (ICIALLU) on every
  /// switch of address space, its way of flushing the branch predictor (false = not this way).
  bool switch_mm_invalidates_icache = false;

  static const params::Schema<CoreParams>& schema();
};

inline const params::Schema<CoreParams>& CoreParams::schema() {
  using S = params::Schema<CoreParams>;
  static const S s =
      S("core")
          .text("type", &CoreParams::type,
                "core type name (cortex-a72, cortex-r5f, arm926ej-s, ...)",
                "Arm Technical Reference Manual of the core")
          .required()
          .choice("isa", &CoreParams::isa, {"armv5te", "armv7-a", "armv7-r", "armv7e-m", "armv8-a"},
                  "architecture version and profile",
                  "Arm Technical Reference Manual, introduction")
          .integer("revision_major", &CoreParams::revision_major, "", 0, 15,
                   "major revision N of rNpM (0 when unknown)", "SoC datasheet / TRM")
          .choice("pipeline", &CoreParams::pipeline, {"in-order", "out-of-order"},
                  "instruction scheduling", "Arm Technical Reference Manual, pipeline description")
          .integer("issue_width", &CoreParams::issue_width, "instructions", 1, 8,
                   "instructions decoded/dispatched per cycle at peak",
                   "Arm Technical Reference Manual, pipeline description")
          .integer("pipeline_depth_stages", &CoreParams::pipeline_depth_stages, "stages", 1, 40,
                   "integer pipeline length, fetch to write-back",
                   "Arm Technical Reference Manual, pipeline description")
          .flag("aarch64", &CoreParams::aarch64, "implements the 64-bit execution state",
                "Arm Architecture Reference Manual")
          .flag("fpu", &CoreParams::fpu, "floating-point unit present",
                "Arm Technical Reference Manual")
          .choice("fpu_variant", &CoreParams::fpu_variant,
                  {"none", "vfpv2", "vfpv3", "vfpv3-d16", "vfpv4", "fpv4-sp", "fp-armv8"},
                  "floating-point architecture of the FPU", "Arm Technical Reference Manual")
          .flag("neon", &CoreParams::neon, "Advanced SIMD (NEON) present",
                "Arm Technical Reference Manual")
          .flag("hw_divide", &CoreParams::hw_divide, "SDIV/UDIV integer divide in hardware",
                "Arm Architecture Reference Manual")
          .flag("mmu", &CoreParams::mmu, "memory management unit (virtual memory), not an MPU only",
                "Arm Technical Reference Manual")
          .integer("bhb_loop_iterations", &CoreParams::bhb_loop_iterations, "iterations", 0, 64,
                   "branch-history loop Linux runs on each kernel entry from user space "
                   "(Spectre-BHB mitigation; 0 = none)",
                   "Linux arch/arm64/kernel/proton-pack.c spectre_bhb_loop_affected and "
                   "arch/arm/mm/proc-v7-bugs.c cpu_v7_spectre_bhb_init (MIDR lists)")
          .flag("switch_mm_invalidates_icache", &CoreParams::switch_mm_invalidates_icache,
                "Linux invalidates the whole L1 instruction cache on every switch of address "
                "space on this core type (Spectre v2 branch-predictor hardening by ICIALLU)",
                "Linux arch/arm/mm/proc-v7-bugs.c cpu_v7_spectre_init (Cortex-A15, Brahma-B15: "
                "ICIALLU) and arch/arm/mm/proc-v7.S cpu_v7_iciallu_switch_mm")
          .real("clock_mhz", &CoreParams::clock_mhz, "MHz", 1, 10000, "core clock",
                "board fact: SoC datasheet operating point / guide board table")
          .required();
  return s;
}

}  // namespace socsim::models
