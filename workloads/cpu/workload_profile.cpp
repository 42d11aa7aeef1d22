#include "common/paths.h"
#include "workloads/cpu/workload_profile.h"

#include <algorithm>
#include <filesystem>

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"

namespace fs = std::filesystem;

namespace socsim::wl::cpu {

namespace {
constexpr const char* kBench =
    "calibrated: benchmark-scoped, default from the profile's characterization";
}

const params::Schema<ProfileInfo>& ProfileInfo::schema() {
  using P = ProfileInfo;
  static const auto s =
      params::Schema<P>("workload_profile")
          .text("name", &P::name, "profile name", "the benchmark's own name")
          .required()
          .text("description", &P::description, "what the benchmark does",
                "benchmark documentation")
          .text("characterization", &P::characterization,
                "published characterizations the profile's numbers follow",
                "literature cited in the profile")
          .text("work_unit", &P::work_unit,
                "one unit of the benchmark's work (what its metric counts)", "benchmark source")
          .real("instructions_per_unit", &P::instructions_per_unit, "instructions", 1e-6, 1e12,
                "dynamic instructions per work unit compiled for AArch64 (path length)", kBench)
          .real(
              "aarch32_path_factor", &P::aarch32_path_factor, "ratio", 0.5, 3,
              "path length of the AArch32 (A32/T32) build relative to the AArch64 one",
              "calibrated: AArch32 executes more instructions than AArch64 for the same source "
              "(15 fewer general registers: spills and reloads; no load/store pair of X registers; "
              "64-bit arithmetic in register pairs)")
          .real("armv5_path_factor", &P::armv5_path_factor, "ratio", 0.5, 3,
                "path length of the ARMv5TE build relative to the AArch64 one",
                "calibrated: as AArch32, plus no MOVW/MOVT, CBZ or bit-field instructions")
          .integer("threads", &P::threads, "count", 0, 64,
                   "software threads (one per core); 0 = not documented for the measured runs",
                   "benchmark run rules")
          .integer("harness_items", &P::harness_items, "count", 0, 1 << 20,
                   "work-item runs of one harness run, handed out one at a time to the contexts "
                   "(EEMBC MITH: workload iterations x items); 0 = not modelled",
                   "benchmark source (the workload's main: workload->iterations, items)")
          .real("divide_quotient_bits", &P::divide_quotient_bits, "bits", 0, 64,
                "significant bits of the quotients of the benchmark's integer divisions (mean when "
                "they alternate); 0 = not stated (the core's operand-independent divide latency)",
                "the benchmark's source and operands")
          .integer("seed", &P::seed, "count", 0, 2147483647, "instruction-stream generator seed",
                   "socsim determinism rule")
          .integer("variants", &P::variants, "count", 1, 64,
                   "programs drawn from the profile and averaged (a profile is a distribution: one "
                   "short program alone varies by +-15 %)",
                   "simulation setting")
          .integer("warmup_instructions", &P::warmup_instructions, "instructions", 0, 1 << 30,
                   "instructions run before measuring (caches, predictor)", "simulation setting")
          .integer("measure_instructions", &P::measure_instructions, "instructions", 1000, 1 << 30,
                   "instructions measured", "simulation setting");
  return s;
}

double WorkloadProfile::instructionsPerUnit(const std::string& isa) const {
  double f = 1.0;
  if (isa == "armv5te")
    f = info.armv5_path_factor;
  else if (isa != "armv8-a")
    f = info.aarch32_path_factor;
  return std::max(1e-9, info.instructions_per_unit * f);
}

double MixParams::of(models::OpClass c) const {
  const double* v[models::kOpClasses] = {
      &int_alu,    &int_mul,     &int_div, &int64_alu, &int64_mul, &int64_div, &load,   &store,
      &load_multi, &store_multi, &branch,  &fp_add,    &fp_mul,    &fp_mac,    &fp_div, &fp_sqrt,
      &dp_add,     &dp_mul,      &dp_mac,  &dp_div,    &dp_sqrt,   &fp_move};
  int i = static_cast<int>(c);
  return i >= 0 && i < models::kOpClasses ? *v[i] : 0.0;
}

double MixParams::total() const {
  double t = 0;
  for (int i = 0; i < models::kOpClasses; ++i) t += of(static_cast<models::OpClass>(i));
  return t;
}

const params::Schema<MixParams>& MixParams::schema() {
  using P = MixParams;
  static const auto s = [] {
    params::Schema<P> sc("instruction_mix");
    double P::*m[models::kOpClasses] = {
        &P::int_alu, &P::int_mul, &P::int_div,    &P::int64_alu,   &P::int64_mul, &P::int64_div,
        &P::load,    &P::store,   &P::load_multi, &P::store_multi, &P::branch,    &P::fp_add,
        &P::fp_mul,  &P::fp_mac,  &P::fp_div,     &P::fp_sqrt,     &P::dp_add,    &P::dp_mul,
        &P::dp_mac,  &P::dp_div,  &P::dp_sqrt,    &P::fp_move};
    static std::vector<std::string> desc;
    desc.reserve(models::kOpClasses);
    for (int i = 0; i < models::kOpClasses; ++i)
      desc.push_back(std::string("fraction of dynamic instructions of class ") +
                     models::opClassName(static_cast<models::OpClass>(i)));
    for (int i = 0; i < models::kOpClasses; ++i)
      sc.real(models::opClassName(static_cast<models::OpClass>(i)), m[i], "fraction", 0, 1,
              desc[static_cast<size_t>(i)].c_str(), kBench);
    return sc;
  }();
  return s;
}

const params::Schema<DependencyParams>& DependencyParams::schema() {
  using P = DependencyParams;
  static const auto s =
      params::Schema<P>("dependency_distance")
          .real("d1", &P::d1, "fraction", 0, 1, "first source produced by the previous instruction",
                kBench)
          .real("d2", &P::d2, "fraction", 0, 1, "first source produced 2 instructions earlier",
                kBench)
          .real("d3_4", &P::d3_4, "fraction", 0, 1,
                "first source produced 3-4 instructions earlier", kBench)
          .real("d5_8", &P::d5_8, "fraction", 0, 1,
                "first source produced 5-8 instructions earlier", kBench)
          .real("d9_16", &P::d9_16, "fraction", 0, 1,
                "first source produced 9-16 instructions earlier", kBench)
          .real("d17_32", &P::d17_32, "fraction", 0, 1,
                "first source produced 17-32 instructions earlier", kBench)
          .real("d33_64", &P::d33_64, "fraction", 0, 1,
                "first source produced 33-64 instructions earlier", kBench)
          .real("far", &P::far, "fraction", 0, 1,
                "first source produced more than 64 instructions earlier", kBench)
          .real("none", &P::none, "fraction", 0, 1, "no register source (immediates, constants)",
                kBench)
          .real("second_source", &P::second_source, "fraction", 0, 1,
                "probability of a second register source (same distance distribution)", kBench)
          .real("load_address_recent", &P::load_address_recent, "fraction", 0, 1,
                "probability that a load's address is a recent result rather than a long-lived "
                "base register (stack, frame or global pointer)",
                kBench)
          .real("consume_loads", &P::consume_loads, "fraction", 0, 1,
                "probability that a computational instruction's sources are the nearest "
                "preceding loads (streaming kernels: arithmetic on loaded values)",
                kBench)
          .real("store_result", &P::store_result, "fraction", 0, 1,
                "probability that a store's source is the nearest preceding computational "
                "result",
                kBench)
          .real("accumulator_chains", &P::accumulator_chains, "fraction", 0, 1,
                "probability that a multiply-accumulate accumulates into the nearest preceding "
                "one of its precision (reductions), rather than feeding it as a product input",
                kBench)
          .real("index_chains", &P::index_chains, "fraction", 0, 1,
                "probability that an integer ALU operation, branch or load address takes its "
                "sources only from integer ALU results (loop indices and address arithmetic of "
                "counted loops over arrays), not from loaded or floating-point values",
                kBench)
          .real("narrow_load_used_soon", &P::narrow_load_used_soon, "fraction", 0, 1,
                "probability that one of the two instructions after a byte/halfword load (the "
                "next or the one after, equally likely) uses the loaded value: a character loop "
                "tests each byte as soon as it is loaded",
                kBench);
  return s;
}

const params::Schema<BranchParams>& BranchParams::schema() {
  using P = BranchParams;
  static const auto s =
      params::Schema<P>("branch_behaviour")
          .real("always_taken", &P::always_taken, "fraction", 0, 1,
                "unconditional branches, calls and returns", kBench)
          .real("loop", &P::loop, "fraction", 0, 1, "loop-closing branches", kBench)
          .real("loop_trip_count", &P::loop_trip_count, "iterations", 1, 1e9,
                "mean iterations per loop execution", kBench)
          .integer("loop_body_instructions", &P::loop_body_instructions, "instructions", 1, 100000,
                   "mean static instructions a loop branch jumps back over (its body)", kBench)
          .real("biased", &P::biased, "fraction", 0, 1,
                "data-dependent branches that usually go one way", kBench)
          .real("biased_probability", &P::biased_probability, "fraction", 0.5, 1,
                "probability of a biased branch's usual direction", kBench)
          .real("pattern", &P::pattern, "fraction", 0, 1,
                "branches following a short periodic pattern (predictable from history)", kBench)
          .integer("pattern_period", &P::pattern_period, "branches", 2, 64,
                   "period of the patterned branches", kBench)
          .real("random", &P::random, "fraction", 0, 1, "unpredictable branches (taken 50 %)",
                kBench);
  return s;
}

const params::Schema<CodeParams>& CodeParams::schema() {
  using P = CodeParams;
  static const auto s =
      params::Schema<P>("code")
          .bytes("footprint", &P::footprint_bytes, 64, 1ull << 30,
                 "code executed in steady state (static instructions touched)", kBench)
          .integer("instruction_bytes", &P::instruction_bytes, "bytes", 2, 8,
                   "average instruction size", "ARM ISA (4 bytes for A32/A64)");
  return s;
}

const params::Schema<DataParams>& DataParams::schema() {
  using P = DataParams;
  static const auto s =
      params::Schema<P>("data")
          .integer("access_bytes", &P::access_bytes, "bytes", 1, 64,
                   "size of a single load or store", kBench)
          .real("narrow_load_fraction", &P::narrow_load_fraction, "fraction", 0, 1,
                "single loads that load a byte or halfword (char strings, short fields) when "
                "access_bytes is a word; cores with a narrow-load interlock pay it on these",
                kBench)
          .real("armv5_narrow_load_fraction", &P::armv5_narrow_load_fraction, "fraction", -1, 1,
                "narrow_load_fraction of the ARMv5TE build (its C library loads strings byte by "
                "byte); -1 = the same as narrow_load_fraction",
                kBench)
          .integer("multi_bytes", &P::multi_bytes, "bytes", 4, 256,
                   "bytes moved by one load/store-multiple (push/pop, LDP/STP, LDM/STM)", kBench)
          .bytes("hot", &P::hot_bytes, 64, 1ull << 34, "stack, locals and globals (random within)",
                 kBench)
          .real("hot_fraction", &P::hot_fraction, "fraction", 0, 1,
                "memory instructions that touch the hot region", kBench)
          .real("hot_store_to_loaded_fraction", &P::hot_store_to_loaded_fraction, "fraction", 0,
                1,
                "hot-region stores that write the line the closest earlier hot load read "
                "(read-modify-write of a field; 0 = every store picks its own address)",
                kBench)
          .bytes("stream", &P::stream_bytes, 64, 1ull << 34, "arrays walked sequentially", kBench)
          .real("stream_fraction", &P::stream_fraction, "fraction", 0, 1,
                "memory instructions that walk arrays", kBench)
          .integer("stream_stride_bytes", &P::stream_stride_bytes, "bytes", 1, 1 << 20,
                   "stride of the array walks", kBench)
          .integer("store_stride_bytes", &P::store_stride_bytes, "bytes", 0, 1 << 24,
                   "stride of the stores to arrays when they walk their own output array column "
                   "by column (transpose, rotation); 0 = stores share the load streams",
                   kBench)
          .integer("streams", &P::streams, "count", 1, 64, "arrays walked at the same time", kBench)
          .bytes("random", &P::random_bytes, 64, 1ull << 34, "tables indexed unpredictably", kBench)
          .real("random_fraction", &P::random_fraction, "fraction", 0, 1,
                "memory instructions that index tables at random", kBench)
          .integer("random_record_bytes", &P::random_record_bytes, "bytes", 1, 1 << 20,
                   "size of the records the random accesses land in (header, bucket, node)",
                   kBench)
          .integer("random_record_accesses", &P::random_record_accesses, "count", 1, 4096,
                   "consecutive random-region accesses inside one record (1 = every access "
                   "picks a new random place)",
                   kBench)
          .real("random_store_to_loaded_fraction", &P::random_store_to_loaded_fraction,
                "fraction", 0, 1,
                "random-region stores that write the element the latest random-region load "
                "read (a swap or in-place update of what was just looked up; 0 = every store "
                "picks its own address)",
                kBench)
          .bytes("chase", &P::chase_bytes, 64, 1ull << 34,
                 "linked structures (each address comes from the previous load)", kBench)
          .real("chase_fraction", &P::chase_fraction, "fraction", 0, 1,
                "loads that follow links (dependent loads)", kBench)
          .real("shared_store_fraction", &P::shared_store_fraction, "fraction", 0, 1,
                "stores to cache lines the other workers of a split work item also write "
                "(each takes the line's ownership from the core that wrote it last); 0 = "
                "workers write disjoint lines",
                kBench);
  return s;
}

const std::vector<std::string>& RowSpec::tickKinds() {
  static const std::vector<std::string> k = {"nearest", "random_start"};
  return k;
}

const std::vector<std::string>& RowSpec::valueKinds() {
  static const std::vector<std::string> k = {
      "units_per_second", "units_per_second_per_mhz", "clock_mhz",      "ns_per_unit",
      "cycles_per_unit",  "max_cycles_per_unit",      "rounding_error"};
  return k;
}

bool RowSpec::appliesTo(const std::string& source) const {
  if (sources.empty()) return true;
  std::string item;
  for (std::size_t i = 0; i <= sources.size(); ++i) {
    const char c = i < sources.size() ? sources[i] : ',';
    if (c == ',' || c == ' ') {
      if (!item.empty() && item == source) return true;
      item.clear();
    } else {
      item += c;
    }
  }
  return false;
}

const params::Schema<RowSpec>& RowSpec::schema() {
  using P = RowSpec;
  static const auto s =
      params::Schema<P>("measured_row")
          .text("family", &P::family, "measured-row family", "DESIGN.md family vocabulary")
          .required()
          .text("benchmark", &P::benchmark, "benchmark name as the guides print it", "the guides")
          .required()
          .text("metric", &P::metric, "metric column as the guides print it", "the guides")
          .text("unit", &P::unit, "normalized unit of the measured rows", "the measured dataset")
          .required()
          .text("params", &P::params, "exact params text of the measured rows",
                "the measured dataset")
          .choice("value", &P::value, valueKinds(),
                  "how the row's value follows from the run: units_per_second, "
                  "units_per_second_per_mhz, clock_mhz, ns_per_unit, cycles_per_unit, "
                  "max_cycles_per_unit; rounding_error (no run: the expected largest rounding "
                  "error of one unit's floating-point operations, sqrt(n) x unit roundoff x "
                  "scale, scale = the largest result magnitude)",
                  "the benchmark's reporting")
          .real("scale", &P::scale, "", 1e-30, 1e30, "factor applied to the value",
                "the benchmark's reporting (e.g. 1/1757 for DMIPS)")
          .real("quantize", &P::quantize, "", 0, 1e30,
                "when > 0 the benchmark reports Q / max(1, round(Q / value)) (integer timer ticks)",
                "the benchmark's reporting")
          .choice("quantize_ticks", &P::quantize_ticks, tickKinds(),
                  "how the whole ticks behind quantize are counted: nearest (elapsed time "
                  "rounded to the nearest tick) or random_start (difference of two whole-second "
                  "clock reads at an arbitrary start phase: floor(T) or floor(T) + 1 ticks, the "
                  "latter with probability frac(T); runs counting 0 ticks report nothing; the "
                  "value is the mean over the start phase)",
                  "the benchmark's timing code")
          .real("rate_quantum", &P::rate_quantum, "units", 0, 1e30,
                "when > 0 the benchmark measures its rate in whole timer ticks: Q / max(1, "
                "round(Q / rate)), Q = units per run x ticks per second",
                "the benchmark's timing code")
          .integer("cores", &P::cores, "count", 1, 64, "cores the row ran on", "the guides")
          .text("sources", &P::sources,
                "comma list of measured-CSV source ids (guides) the row spec applies to; empty = "
                "any guide (a spec naming the row's guide wins)",
                "the guide's build of the benchmark");
  return s;
}

namespace {

const std::vector<std::string> kTopKeys = {"profile", "mix",  "dependencies", "branches",
                                           "code",    "data", "rows"};

template <class T>
void readOptional(const config::Node& root, const char* key, T& obj, config::Sources& src,
                  const std::string& owner) {
  if (const config::Node* g = root.find(key))
    config::readGroup(T::schema(), obj, *g, key, owner, src);
}

}  // namespace

config::Node parseProfileFile(const std::string& file, const std::vector<std::string>& groups,
                              const std::string& what) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  if (!root.isMap())
    throw InputError(file, root.line, "",
                     "a " + what + " must be a map with groups " + groups.front() + ", mix, ...");
  for (const auto& [k, v] : root.map)
    if (std::find(groups.begin(), groups.end(), k) == groups.end())
      throw InputError(v.file, v.line, k,
                       "unknown group '" + k + "' in a " + what + config::suggestion(k, groups));
  return root;
}

void readShapeGroups(const config::Node& root, DependencyParams& deps, BranchParams& branches,
                     CodeParams& code, DataParams& data, config::Sources& src,
                     const std::string& owner) {
  readOptional(root, "dependencies", deps, src, owner);
  readOptional(root, "branches", branches, src, owner);
  readOptional(root, "code", code, src, owner);
  readOptional(root, "data", data, src, owner);
}

std::vector<std::string> profileFiles(const std::string& dir, const std::string& what) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, "", what + " folder not found");
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file() && it->path().extension() == ".yaml" &&
        it->path().parent_path().filename() != "base")
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

WorkloadProfile loadProfile(const std::string& file) {
  config::Node root = parseProfileFile(file, kTopKeys, "workload profile");
  WorkloadProfile p;
  p.file = file;
  config::Sources src;
  const config::Node* info = root.find("profile");
  if (!info) throw InputError(file, root.line, "profile", "missing required group 'profile'");
  config::readGroup(ProfileInfo::schema(), p.info, *info, "profile", "workload profile " + file,
                    src);
  const std::string owner = "profile '" + p.info.name + "'";
  const config::Node* mix = root.find("mix");
  if (!mix) throw InputError(file, root.line, "mix", "missing required group 'mix' for " + owner);
  config::readGroup(MixParams::schema(), p.mix, *mix, "mix", owner, src);
  if (!(p.mix.total() > 0))
    throw InputError(mix->file, mix->line, "mix", "the instruction mix of " + owner + " is empty");
  readShapeGroups(root, p.deps, p.branches, p.code, p.data, src, owner);
  if (const config::Node* rows = root.find("rows")) {
    if (!rows->isSeq())
      throw InputError(
          rows->file, rows->line, "rows",
          std::string("expected a list of measured-row groups, got a ") + rows->typeName());
    for (size_t i = 0; i < rows->seq.size(); ++i) {
      RowSpec r;
      std::string path = "rows[" + std::to_string(i) + "]";
      config::readGroup(RowSpec::schema(), r, rows->seq[i], path, owner + " " + path, src);
      p.rows.push_back(std::move(r));
    }
  }
  return p;
}

std::vector<WorkloadProfile> loadProfiles(const std::string& dir) {
  const std::vector<std::string> files = profileFiles(dir, "workload profile");
  std::vector<WorkloadProfile> out;
  for (const auto& f : files) {
    config::Node root = config::parseYamlFile(f);
    if (!root.isMap() || !root.find("profile")) continue;  // a base/preset file
    out.push_back(loadProfile(f));
  }
  return out;
}

std::string defaultProfileDir() {
  return socsim::configsDir() + "/workloads";
}

}  // namespace socsim::wl::cpu
