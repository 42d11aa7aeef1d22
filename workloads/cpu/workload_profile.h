#pragma once
/// @file workload_profile.h
/// @brief The profile of one CPU benchmark (data, not code): instruction mix, register
///        dependency distances, branch behaviour, code and data footprints and access pattern,
///        threads, the benchmark's work unit, and which measured rows it predicts.
///
/// One YAML file per benchmark in `configs/workloads/` (presets allowed: a file may start from
/// `preset: base.yaml` and override groups). Groups:
/// @code
///   profile:      {name, description, characterization, work_unit, instructions_per_unit,
///                  threads, harness_items, divide_quotient_bits, seed, warmup_instructions,
///                  measure_instructions}
///   mix:          {int_alu, int_mul, ..., fp_move}     fractions of dynamic instructions
///   dependencies: {d1, d2, d3_4, d5_8, d9_16, d17_32, d33_64, far, none, second_source,
///                  load_address_recent, consume_loads, store_result, accumulator_chains,
///                  index_chains, narrow_load_used_soon}
///   branches:     {always_taken, loop, loop_trip_count, loop_body_instructions, biased,
///                  biased_probability, pattern, pattern_period, random}
///                                                      fractions of static branch sites
///   code:         {footprint, instruction_bytes}
///   data:         {access_bytes, narrow_load_fraction, armv5_narrow_load_fraction, multi_bytes,
///                  hot, hot_fraction, hot_store_to_loaded_fraction, stream,
///                  stream_fraction, stream_stride_bytes, store_stride_bytes, streams, random,
///                  random_fraction, random_record_bytes, random_record_accesses,
///                  random_store_to_loaded_fraction, chase, chase_fraction}
///   rows:         [{family, benchmark, metric, unit, params, value, scale, quantize,
///                   rate_quantum, cores, sources}, ...]
/// @endcode
/// Every field has a schema (`socsim params`), so unknown keys, wrong units and out-of-range
/// values are errors naming the file, line and YAML path. Fields whose source starts with
/// "calibrated" are free parameters scoped to the benchmark (issue 9).
#include <string>
#include <vector>

#include "common/params.h"
#include "models/cpu/core_model.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"

namespace socsim::wl::cpu {

struct ProfileInfo {
  std::string name;  ///< profile name ("dhrystone", "nbench-fourier")
  std::string description;
  std::string characterization;         ///< published characterizations the profile follows
  std::string work_unit;                ///< what one unit of work is (one Dhrystone loop, one flop)
  double instructions_per_unit = 1000;  ///< dynamic instructions per work unit on AArch64 (A64)
  double aarch32_path_factor = 1.15;    ///< A32/T32 (ARMv7-A/R, ARMv7E-M) path length / A64's
  double armv5_path_factor = 1.30;      ///< ARMv5TE path length / A64's
  int threads = 1;                      ///< software threads (one per core)
  /// Work-item runs one run of the benchmark's harness makes (EEMBC MITH: the workload's
  /// default iterations x its items); 0 = not a run of whole items. With N contexts the harness
  /// hands the items out one at a time (raising the count to N when it is below), so the run
  /// takes ceil(items / N) item times on N cores.
  int harness_items = 0;
  /// Significant bits of the quotients of the benchmark's integer divisions (their mean when
  /// they alternate), from its source and operands; 0 = not stated (the core's class latency).
  double divide_quotient_bits = 0;
  int seed = 1;                         ///< generator seed (determinism)
  int variants = 16;                    ///< statistically equivalent programs averaged over
  int warmup_instructions = 200000;     ///< before the first program (then 50000 per program)
  int measure_instructions = 1000000;   ///< measured, split over the programs
  static const params::Schema<ProfileInfo>& schema();
};

/// Fractions of dynamic instructions per class (normalized when generating).
/// Member order follows models::OpClass.
struct MixParams {
  double int_alu = 0;
  double int_mul = 0;
  double int_div = 0;
  double int64_alu = 0;
  double int64_mul = 0;
  double int64_div = 0;
  double load = 0;
  double store = 0;
  double load_multi = 0;
  double store_multi = 0;
  double branch = 0;
  double fp_add = 0;
  double fp_mul = 0;
  double fp_mac = 0;
  double fp_div = 0;
  double fp_sqrt = 0;
  double dp_add = 0;
  double dp_mul = 0;
  double dp_mac = 0;
  double dp_div = 0;
  double dp_sqrt = 0;
  double fp_move = 0;
  /// Fraction of class `c` (unnormalized).
  double of(models::OpClass c) const;
  double total() const;
  static const params::Schema<MixParams>& schema();
};

/// Distance, in dynamic instructions, from an instruction to the producer of a source register.
struct DependencyParams {
  double d1 = 0.30, d2 = 0.15, d3_4 = 0.15, d5_8 = 0.12, d9_16 = 0.08, d17_32 = 0.05, d33_64 = 0.03,
         far = 0.07, none = 0.05;
  double second_source = 0.4;  ///< probability of a second register source
  /// Probability that a load's address comes from a recent result (drawn from the distances
  /// above); otherwise it is a long-lived base register (stack/frame/global pointer).
  double load_address_recent = 0.3;
  /// Dataflow of streaming kernels: probability that a data-arithmetic instruction's (multiply,
  /// floating point) sources are the nearest preceding loads (it consumes loaded values, as
  /// dy += da * dx does), rather than drawn from the distances above; and that a store's source
  /// is the nearest preceding computational result (it stores what was just computed).
  /// 0 = distances only.
  double consume_loads = 0;
  double store_result = 0;
  /// Probability that a multiply-accumulate accumulates into the nearest preceding one of its
  /// precision (a reduction: sum += a * b), rather than taking a product input from it (a
  /// Horner step). Cores with late accumulator forwarding run such chains faster.
  double accumulator_chains = 0;
  /// Probability that an integer ALU operation, a branch or a load address of the kernel takes
  /// its sources only from integer ALU results (induction variables, index and address
  /// arithmetic, loop counters), not from loaded data or floating-point results: in counted loops
  /// over arrays the only values carried from one iteration to the next are the indices (and the
  /// reductions, accumulator_chains). 0 = distances only.
  double index_chains = 0;
  /// Probability that one of the two instructions after a narrow (byte/halfword) load (the next
  /// or the one after, equally likely) takes the loaded value as its first source: character
  /// loops (strcmp, strlen, string copies) test each byte as soon as it is loaded, leaving no
  /// room to schedule the load-use delay away.
  /// 0 = distances only.
  double narrow_load_used_soon = 0;
  static const params::Schema<DependencyParams>& schema();
};

/// Behaviour of the static branch sites, as fractions of dynamic branches.
struct BranchParams {
  double always_taken = 0.25;        ///< unconditional jumps, calls, returns
  double loop = 0.20;                ///< loop-closing branches (jump back over their body)
  double loop_trip_count = 16;       ///< mean iterations per loop
  int loop_body_instructions = 16;   ///< mean static instructions a loop branch jumps back over
  double biased = 0.40;              ///< data-dependent but mostly one way
  double biased_probability = 0.95;  ///< probability of the usual direction
  double pattern = 0.10;             ///< periodic patterns (history-predictable)
  int pattern_period = 4;
  double random = 0.05;  ///< unpredictable (50/50)
  static const params::Schema<BranchParams>& schema();
};

struct CodeParams {
  std::uint64_t footprint_bytes = 8192;  ///< code executed in steady state
  int instruction_bytes = 4;
  static const params::Schema<CodeParams>& schema();
};

/// Where loads and stores go: fractions of memory instructions per region kind.
struct DataParams {
  int access_bytes = 4;
  /// Fraction of single loads that load a byte or halfword (LDRB/LDRH/LDRSB/LDRSH: char
  /// strings, short fields) while access_bytes is the word size; they are emitted with 1 byte.
  double narrow_load_fraction = 0.0;
  /// The same for the ARMv5TE build when its library differs (glibc has no word-wise string
  /// routines for ARMv5: strcmp loads byte by byte); -1 = narrow_load_fraction.
  double armv5_narrow_load_fraction = -1.0;
  /// narrow_load_fraction, or armv5_narrow_load_fraction for an "armv5te" build when set.
  double narrowLoadFraction(const std::string& isa) const {
    return isa == "armv5te" && armv5_narrow_load_fraction >= 0 ? armv5_narrow_load_fraction
                                                                : narrow_load_fraction;
  }
  int multi_bytes = 16;            ///< bytes per load/store-multiple
  std::uint64_t hot_bytes = 2048;  ///< stack, locals, globals: random within
  double hot_fraction = 1.0;
  /// Stores to the hot region that write the line the closest earlier hot load of the program
  /// read (read-modify-write of a structure field); the rest pick their own address.
  double hot_store_to_loaded_fraction = 0.0;
  std::uint64_t stream_bytes = 65536;  ///< arrays walked sequentially
  double stream_fraction = 0.0;
  int stream_stride_bytes = 4;
  /// > 0: stores to arrays walk their own output array with this stride, column by column
  /// (a transpose / rotation writes rows of the output as columns); 0 = stores share the streams.
  int store_stride_bytes = 0;
  int streams = 2;
  std::uint64_t random_bytes = 65536;  ///< tables indexed unpredictably
  double random_fraction = 0.0;
  /// Accesses to the random region come in runs of `random_record_accesses` consecutive
  /// accesses inside one record of `random_record_bytes` (a packet header, a hash bucket, a tree
  /// node): the first touches a random record, the others step through it.
  int random_record_bytes = 64;
  int random_record_accesses = 1;
  /// Random-region stores that write the element the latest random-region load read (a swap or
  /// an in-place update of what was just looked up: heapsort's sift); the rest pick their own.
  double random_store_to_loaded_fraction = 0.0;
  std::uint64_t chase_bytes = 65536;  ///< linked structures (address from the last load)
  double chase_fraction = 0.0;
  /// Stores that write cache lines which the item's other workers also write when a concurrent
  /// work item is split over several workers (the output of a rotation split by source rows):
  /// each takes the line's ownership from the core that wrote it last. 0 = workers write
  /// disjoint lines.
  double shared_store_fraction = 0.0;
  static const params::Schema<DataParams>& schema();
};

/// One kind of measured row this profile predicts, and how its value follows from the run.
struct RowSpec {
  std::string family, benchmark, metric, unit;
  std::string params;  ///< exact `params` text of the measured row ("" = no params)
  std::string value = "units_per_second";  ///< see valueKinds()
  double scale = 1;                        ///< multiplies the value
  double quantize = 0;  ///< >0: the benchmark reports Q / max(1, round(Q / value))
  /// How the whole ticks behind `quantize` are counted: "nearest" (the elapsed time rounded to
  /// the nearest tick) or "random_start" (the difference of two reads of a whole-second clock,
  /// time(0), started at an arbitrary phase of its tick: a run of T ticks counts floor(T) or
  /// floor(T) + 1 ticks, the latter with probability frac(T); a count of 0 reports nothing, so
  /// the value is the mean over the start phase of the runs that report).
  std::string quantize_ticks = "nearest";
  /// > 0: the benchmark times its fixed run in whole timer ticks, so the rate it measures is
  /// Q / max(1, round(Q / rate)) with Q = units per run x ticks per second; every value derived
  /// from the rate (per MHz, ns per unit) uses that measured rate.
  double rate_quantum = 0;
  int cores = 1;  ///< cores the row ran on (CoreMark-Pro cores=N)
  /// Comma list of measured-CSV source ids (guides) whose rows this spec predicts; "" = any.
  /// A set-up fact of the guide's build (e.g. compiler flags that change the code the benchmark
  /// runs); a row with a matching source list wins over one without.
  std::string sources;
  bool appliesTo(const std::string& source) const;
  static const params::Schema<RowSpec>& schema();
  static const std::vector<std::string>& valueKinds();
  static const std::vector<std::string>& tickKinds();
};

struct WorkloadProfile {
  std::string file;  ///< YAML file it was loaded from
  /// Dynamic instructions per work unit on a core of ISA `isa` ("armv8-a", "armv7-a", ...).
  double instructionsPerUnit(const std::string& isa) const;
  ProfileInfo info;
  MixParams mix;
  DependencyParams deps;
  BranchParams branches;
  CodeParams code;
  DataParams data;
  std::vector<RowSpec> rows;
};

/// Load one profile file (presets resolved). Throws InputError naming file, line and path.
WorkloadProfile loadProfile(const std::string& file);
/// Every `*.yaml` under `dir` (recursively, sorted by path) whose top level has a `profile`
/// group; files in folders named `base` are presets the profiles start from, and files without
/// a `profile` group (composites) are skipped.
std::vector<WorkloadProfile> loadProfiles(const std::string& dir);

// ---- shared with other instruction-stream files (workloads/crypto kernels) ----
/// Every `*.yaml` under `dir` (recursively, sorted by path) except presets in folders named
/// `base`. Throws InputError when `dir` is not a folder (`what` names its kind).
std::vector<std::string> profileFiles(const std::string& dir, const std::string& what);
/// Parse `file` (presets resolved) and check that its top-level groups are among `groups`
/// (the first is the file's identity group); errors name the file, line and nearest group.
config::Node parseProfileFile(const std::string& file, const std::vector<std::string>& groups,
                              const std::string& what);
/// Read the optional stream-shape groups `dependencies`, `branches`, `code`, `data` of `root`.
void readShapeGroups(const config::Node& root, DependencyParams& deps, BranchParams& branches,
                     CodeParams& code, DataParams& data, config::Sources& src,
                     const std::string& owner);

/// The folder with the built-in profiles (`configs/workloads` of the source tree).
std::string defaultProfileDir();

}  // namespace socsim::wl::cpu
