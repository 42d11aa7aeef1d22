#pragma once
/// @file normalize.h
/// @brief RawTable -> MeasuredRow: board, family, benchmark, metric, params, unit, flags.
///
/// Naming rules (one row per printed number; nothing is dropped):
/// - **board**: the column label's prefix before the first ": ", exactly as printed
///   ("am335x-evm", "j722s_evm-fs"); "" when a dropped cell makes the column unknowable.
/// - **benchmark**: in tables keyed by "Benchmarks" / "Benchmark" / "Power Rail" /
///   "Wakeup time", the row key as printed without its "(unit)" ("bw_mem-bcopy-16mb",
///   "GLB25_FillTestC24Z16 test", "vdd_mpu_power", "resume_time"). In every other table, the
///   table's subject: its caption as printed ("TCP Throughput", "UDP Throughput Egress",
///   "OpenSSL CPU Load"), else the innermost heading that is not a board name or a bare
///   filesystem name, without its number ("NAND Driver", "MMC EXT4 FIO 1G"). 001 prints no
///   captions; where one section holds two uncaptioned tables with the same header, the
///   captions the other guides print for the same pair are used by position ("Audio Capture",
///   "Audio Playback"; USB device read, write) and the rows are flagged
///   `inferred:caption-by-position`.
/// - **metric**: the column label after the board prefix, without its unit ("perf",
///   "Throughput", "CPU Load", "Fps", "THROUGHPUT", "Packets Per Second"). Storage columns
///   ("Write EXT4 Throughput", "Raw Read Throughput") move the operation and filesystem words
///   into params (op=write, fs=ext4) and keep "Throughput" / "CPU Load". Power columns name a
///   condition, not a quantity: metric "Power" with opp_mhz / load / state in params.
/// - **params**: row keys other than the benchmark, and table-level conditions, as
///   `key=value` sorted by key. Keys: sampling_rate (Hz), window (bytes; "(KBytes)" x 1024),
///   datagram (UDP packet size, bytes), frame (Ethernet frame size, bytes), buffer_size (bytes,
///   dd-style and openssl), bs (fio block size "4k"/"1m" -> bytes), size (file size: "(Mbytes)"
///   x 2^20, U-Boot hex), blocks, algorithm, resolution, format, mode (display mode), config
///   (boot configuration text), use_case (cyclictest), rail, opp_mhz, load, governor, state,
///   op, fs, cores (CoreMark-Pro 1/2/4/8), stack=linux (Ethernet from the Linux guides),
///   kernel=rt (000's RT-kernel part). Configuration and identifier columns are not values:
///   "Test Number" -> test_number, "Sensor" (a text cell) -> sensor, "IVA Freq"/"IPU Freq" ->
///   iva_freq_mhz / ipu_freq_mhz, "UDP Datagram Size" -> datagram, each attached to the
///   same board's values in the same row. A "Command Used" key (one netperf command line for
///   the whole table) is not kept.
/// - **unit**: canonical spelling (units_norm.h) of the column's unit, else the row key's unit,
///   else the unit implied by the metric (CPU Load %, Fps fps, Score score, Latency us,
///   Packets/Sec kpps, OpenSSL throughput KB/s, IPSec Throughput Mbit/s), else the benchmark's
///   unit as the other guides print it (families.h defaultBenchmarkUnit).
/// - **family**: families.h familyFromContext; LMBench rows per benchmark (lmbenchFamily).
///
/// Row flags set here: `unattributed:dropped-cell` (003 row shorter than its header where the
/// structure does not say which cell is missing; board and/or metric left empty),
/// `unattributed:cell-count` (any other row whose cell count disagrees with the header),
/// `suspect-attribution:left-packed-row` (000 UDP rows ending in blank cells),
/// `suspect-attribution:kpps-check` (a recovered 003 UDP row where kPPS x frame x 8 differs
/// from Mbit/s by more than 10 %), `mixed-minmax` (bw_mem rows whose (min, max) are
/// neighbouring sub-tests), `caption-mismatch:<why>`, `inferred:<why>`. Value-based and
/// cross-row flags come from flagOutliers.
#include <optional>
#include <string>
#include <vector>

#include "calibration/ingest/raw_table.h"

namespace socsim::ingest {

/// A printed value cell: "187.41", "203.00 (min 202.79, max 203.21)". nullopt if not numeric.
struct ValueCell {
  double value = 0;
  std::optional<double> min, max;
};
std::optional<ValueCell> parseValueCell(const std::string& text);

/// All rows of the parsed tables of one document (directRows passed through), in document
/// order. Per-row problems become flags; document-level problems are appended to
/// `doc.diagnostics`.
std::vector<calib::MeasuredRow> normalize(ParsedDocument& doc);

/// Cross-row checks over a whole dataset: adds flags in place, never removes rows, and gives
/// the same flags whatever the order of `rows`. Flags:
/// - `zero-rate` (0 where a rate/throughput/score is expected), `zero-time` (a latency or
///   duration of 0), `zero-load` (CPU load 0.00), `min-zero` (an average whose min is 0),
///   `outlier:cpu-load-above-100`;
/// - `alias-of:<tool name>` (LMBench duplicates, same source/table/board);
/// - `alias-of:<metric>` on an Ethernet kpps row whose value is its table row's Mbit/s over
///   the row's `datagram` size, truncated to whole kpps (guide 000's iperf UDP tables: 21 of
///   their 22 unpacked rows; the rate is scored once, as Mbit/s, and the truncation, up to
///   -27 % at 2.76 kpps, is not), or, on a row with a `frame` size (guide 003's netperf UDP
///   tables), the mean of runs each rounding its Mbit/s over the datagram size (the frame, or
///   1472 bytes above it) to whole kpps: within 0.5 kpps of the derived mean and with the
///   rounded Mbit/s min and max as its min and max (one run: equal to the rounded value);
/// - `outlier:below-lat_pipe(...)` (an LMBench TCP loopback round trip, lat_tcp or
///   tcp_latency_using_localhost, shorter than the pipe round trip of the same table and board:
///   physically impossible, it does a pipe round trip's work plus the TCP/IP stack);
/// - `half-latency:...` (latency_for_1.00_mb_block_size = mean of 0 and sz1000k);
/// - `duplicate-value:<benchmark>` (two different LMBench bandwidths of one board with the same
///   value, a copy/paste suspect);
/// - `outlier:cpu_clock-...` (a cpu_clock that disagrees with the same SoC's other board
///   reporting the same Dhrystones/s, and the DMIPS/MHz derived from it);
/// - `outlier:off-nominal-rate(...)` (ALSA throughput away from fs x 2 ch x 16 bit by > 5 %);
/// - `outlier:above-1GbE-line-rate` (Linux UDP above 1000 Mbit/s, one way; Linux TCP above
///   2000 Mbit/s: a TCP table states no direction or is bidirectional, both directions summed);
/// - `outlier:above-memory-bandwidth(...)` (an OpenSSL rate above the fastest bw_mem the same
///   board reached in the same guide);
/// - `outlier:flat-call-time(...)` (every throughput row of one `openssl speed` column of an
///   algorithm whose call time does not grow, or grows by less than the added bytes at the
///   fastest bw_mem, from the smallest to a >= 64x larger buffer);
/// - `outlier:speed-per-byte(...)` (every throughput row of one `openssl speed` column whose
///   per-byte cost between its two smallest buffers is, over the median of its algorithms, more
///   than 1.3x that of another column of the same guide on a board of the same SoC family
///   ("am57xx" ~ "am574x"): per-byte work does not depend on the kernel's preemption model, so
///   the column ran below its stated clock);
/// - `outlier:ipsec-cpu-per-byte(...)` (every row of an IPSec run whose CPU time per payload
///   byte, load / throughput, is more than 4x the cheapest run of the same board in the same
///   guide, or which has no throughput at a busy CPU: 3DES in software, the costliest path,
///   stays within ~2.5x of the cheapest AES run, so such a run did not carry its traffic);
/// - `outlier:fps-above-1000` (a frame rate no display or decoder here produces);
/// - `outlier:below-sd-read-time(...)` (a boot-ROM stage that loads `sbl_bytes` from an SD
///   card in less time than those bytes take at the table's stated card read rate
///   `sd_read_mbyte_s`: guide 004's AM64x "ROM : init + SBL load from flash" prints 12.00 ms
///   for a 300 KiB SBL read at 12.5 MB/s, >= 24.6 ms of bus time alone, and prints the same
///   12.00 ms for the OSPI boot, so it is a nominal, not a measurement of the SD load; even SD
///   High Speed, 4 bits x 50 MHz = 25 MB/s, the fastest 3.3 V bus mode of the SD Physical
///   Layer spec, needs 12.3 ms);
/// - `outlier:<N>x-median(...)` (a value more than 100x the median of the same measurement:
///   same family, benchmark, metric, unit and params across boards, when at least three guides
///   or guide parts print it; otherwise against the same benchmark and metric over all params).
void flagOutliers(std::vector<calib::MeasuredRow>& rows);

/// Append `reason` to `row.flag` (';'-joined) unless it is already there.
void addFlag(calib::MeasuredRow& row, const std::string& reason);

}  // namespace socsim::ingest
