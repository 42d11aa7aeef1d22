#pragma once
/// @file measured_row.h
/// @brief The measured dataset: one row per published number (DESIGN.md, "Measured data").
///
/// CSV columns, in this order:
/// `source,section,table,board,family,benchmark,metric,params,unit,value,min,max,flag`
/// - source:    the document's file stem ("000_c397333184f33b18")
/// - section:   numbered heading the table sits under ("2.2.1.1.1. LMBench")
/// - table:     caption, or "L<line>" of the table's first header line when there is none;
///              unique within (source, section) together with the row's line
/// - board:     board column id as printed ("am335x-evm", "j722s_evm-fs"), "" when unattributable
/// - family:    DESIGN.md family vocabulary ("lmbench-mem", "ethernet", ...)
/// - benchmark: benchmark name as printed, units stripped ("bw_mem-bcopy-16mb", "dhrystone_per_mhz")
/// - metric:    the column's metric as printed without its unit ("perf", "Throughput", "CPU Load")
/// - params:    `key=value;key=value`, keys sorted, sizes in bytes ("size=1048576;stack=linux")
/// - unit:      normalized unit (MB/s, Mbit/s, KB/s, bit/s, ns, us, ms, s, %, DMIPS/MHz, ...)
/// - value:     the number; min/max when printed as "(min A, max B)"
/// - flag:      "" or `reason[;reason]` (`zero-rate`, `min-zero`, `outlier:<why>`,
///              `unattributed:<why>`, `alias-of:<benchmark>`, ...). Flags are data, never drops.
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace socsim::calib {

struct MeasuredRow {
  std::string source;
  std::string section;
  std::string table;
  std::string board;
  std::string family;
  std::string benchmark;
  std::string metric;
  std::string params;
  std::string unit;
  double value = 0;
  std::optional<double> min;
  std::optional<double> max;
  std::string flag;
  int line = 0;  ///< 1-based line of the value in the source document (not written to CSV)

  bool flagged() const { return !flag.empty(); }
  /// The board, or kNoBoardLabel for a row attributed to no board (flag `unattributed`): the one
  /// spelling every summary, table and progress line prints.
  const std::string& boardLabel() const;
};

/// How tables, summaries and progress lines name the board of a row that has none.
inline constexpr const char* kNoBoardLabel = "(no board)";

/// The CSV header, exactly as DESIGN.md prints it.
const std::vector<std::string>& measuredCsvHeader();

/// One CSV record per row, header first. Deterministic.
void writeMeasuredCsv(std::ostream& os, const std::vector<MeasuredRow>& rows);

/// Read a measured CSV; throws InputError naming the file, line and column on a wrong header, a
/// wrong field count, a value that is not a number or is negative, a family, unit or flag reason
/// outside the vocabulary (calibration/dataset/vocabulary.h), an empty board without an
/// `unattributed` flag, a board not in `knownBoards` (when given: the names of configs/boards)
/// and a duplicate row (same source, section, table, board, family, benchmark, metric, params
/// and unit as an earlier row).
std::vector<MeasuredRow> readMeasuredCsv(const std::string& path,
                                         const std::set<std::string>* knownBoards = nullptr);

/// readMeasuredCsv of each of `paths`, concatenated; a duplicate row across two files is an
/// error too (a file named twice).
std::vector<MeasuredRow> readMeasuredFiles(const std::vector<std::string>& paths,
                                           const std::set<std::string>* knownBoards = nullptr);

/// Every `*.csv` of `dir` except `*.boards.csv` (sorted by name): readMeasuredFiles of them.
std::vector<MeasuredRow> readMeasuredDir(const std::string& dir,
                                         const std::set<std::string>* knownBoards = nullptr);

/// Parse `params` ("a=1;b=x") into ordered pairs; "" gives an empty list.
std::vector<std::pair<std::string, std::string>> parseParams(const std::string& params);
/// Value of one key in `params`, or nullopt.
std::optional<std::string> paramValue(const std::string& params, const std::string& key);

}  // namespace socsim::calib
