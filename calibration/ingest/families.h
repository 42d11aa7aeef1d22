#pragma once
/// @file families.h
/// @brief Knowledge about the benchmarks the TI guides print: which family (DESIGN.md fixed
///        vocabulary) a table belongs to, the unit a benchmark has when a guide prints none,
///        and LMBench's alias pairs.
#include <optional>
#include <string>
#include <vector>

namespace socsim::ingest {

/// Family of a table from its heading stack (outermost first) and caption.
/// Headings are tried innermost first, each against the rules in a fixed order (boot before
/// mmc-sd, emmc before mmc-sd, pcie before ethernet, ipsec before crypto, ...); the caption is
/// tried last. LMBench tables give "lmbench" here; use lmbenchFamily() per benchmark.
/// "" when nothing matches.
std::string familyFromContext(const std::vector<std::string>& sections, const std::string& caption);

/// lmbench-mem (bw_mem-*, bw_mmap_rd-*, bw_file_rd-*, lat_mem_rd-*, latency_for_*),
/// lmbench-ops (lat_ops-*), or lmbench-os (everything else).
std::string lmbenchFamily(const std::string& benchmark);

/// Unit of a "perf" row whose guide prints no unit (000), following what 001/002/003 print for
/// the same benchmark (bw_* and *_bandwidth MB/s; lat_mem_rd-*, lat_ops-*, latency_for_* ns;
/// other lat_* and *_latency/*_cost/procedure_call/select_on_* us; lat_fs-* files/s;
/// cpu_clock MHz; dhrystone_per_mhz DMIPS/MHz; dhrystone_per_second Dhrystones/s;
/// whetstone MIPS; linpack Kflops; NBench items iterations/s; STREAM MB/s). nullopt if unknown.
std::optional<std::string> defaultBenchmarkUnit(const std::string& family,
                                                const std::string& benchmark);

/// LMBench prints 12 measurements twice, under a tool name and a descriptive name
/// (lat_sem = semaphore_latency, ...). Returns the tool name a descriptive name duplicates,
/// or nullopt. (latency_for_1.00_mb_block_size is not an alias: it is half of
/// lat_mem_rd-stride128-sz1000k, see flagOutliers.)
std::optional<std::string> lmbenchAliasOf(const std::string& benchmark);

}  // namespace socsim::ingest
