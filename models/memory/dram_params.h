#pragma once
/// @file dram_params.h
/// @brief DRAM device organisation and JEDEC timing (DDR2/mDDR, DDR3/DDR3L, DDR4, LPDDR4).
///
/// Units: the clock-synchronous latencies CL and CWL and the burst length are in tCK / beats
/// (they are programmed in cycles in the mode registers); every other timing is in ns, as the
/// JEDEC speed-bin tables give them, and is rounded up to whole tCK by the model. tCK itself is
/// not a field: it follows from the data rate, tCK = 2 / data_rate (double data rate).
/// Defaults: DDR3-1600K (11-11-11), x16 devices, 4 Gb, JESD79-3F speed bin and timing table.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct DramParams {
  std::string standard = "ddr3";  ///< ddr2 | mddr | ddr3 | ddr3l | ddr4 | lpddr4
  double data_rate_mts = 1600;    ///< transfers per second per pin, MT/s
  int bus_width_bits = 32;        ///< data bus width of one channel
  int channels = 1;               ///< independent channels
  int ranks = 1;                  ///< ranks per channel
  int banks = 8;                  ///< banks per rank (all bank groups together)
  int bank_groups = 1;            ///< bank groups per rank (DDR4: 2 or 4; others 1)
  int rows = 32768;               ///< rows per bank
  int columns = 1024;             ///< columns per row (page = columns x bus width)
  int burst_length = 8;           ///< beats per burst (BL8 DDR3/DDR4, BL16 LPDDR4, BL4 DDR2)
  int cl_tck = 11;                ///< CAS (read) latency, tCK
  int cwl_tck = 8;                ///< CAS write latency, tCK
  double trcd_ns = 13.75;         ///< ACT to RD/WR
  double trp_ns = 13.75;          ///< PRE to ACT
  double tras_ns = 35;            ///< ACT to PRE
  double trc_ns = 48.75;          ///< ACT to ACT, same bank
  double trrd_ns = 7.5;           ///< ACT to ACT, different banks (tRRD_S for DDR4)
  double trrd_l_ns = 0;           ///< ACT to ACT, same bank group (DDR4 tRRD_L); 0 = trrd_ns
  double tfaw_ns = 40;            ///< four-activate window
  double twr_ns = 15;             ///< write recovery (end of write data to PRE)
  double twtr_ns = 7.5;           ///< write to read turnaround (end of write data to RD)
  double trtp_ns = 7.5;           ///< RD to PRE
  double trfc_ns = 260;           ///< refresh cycle time (all-bank)
  double trefi_ns = 7800;         ///< average refresh interval
  int tccd_tck = 4;               ///< CAS to CAS, tCK (tCCD_S for DDR4)
  int tccd_l_tck = 0;             ///< CAS to CAS same bank group (DDR4 tCCD_L), tCK; 0 = tccd_tck

  /// Clock period in ns (double data rate: two transfers per clock).
  double tckNs() const { return 2000.0 / data_rate_mts; }
  /// Bytes one burst moves on one channel.
  int burstBytes() const { return burst_length * bus_width_bits / 8; }
  /// Row (page) size seen by the controller on one channel.
  std::uint64_t rowBytes() const { return static_cast<std::uint64_t>(columns) * bus_width_bits / 8; }
  /// Peak data bandwidth of all channels in bytes per second.
  double peakBytesPerSecond() const { return data_rate_mts * 1e6 * bus_width_bits / 8.0 * channels; }

  static const params::Schema<DramParams>& schema();
};

inline const params::Schema<DramParams>& DramParams::schema() {
  using P = DramParams;
  static const char* kJedec3 = "JESD79-3F DDR3-1600K speed bin / timing table (x16, 4 Gb)";
  static const auto s =
      params::Schema<P>("dram")
          .choice("standard", &P::standard, {"ddr2", "mddr", "ddr3", "ddr3l", "ddr4", "lpddr4"},
                  "DRAM standard", "SoC datasheet / board facts (DDR3 default)")
          .real("data_rate", &P::data_rate_mts, "MT/s", 100, 10000,
                "data rate per pin (twice the DRAM clock)", "board facts (DDR3-1600 default)")
          .integer("bus_width_bits", &P::bus_width_bits, "bits", 16, 64, "data bus width of a channel",
                   "board facts / SoC TRM EMIF (32-bit default); the widths TI's DDR controllers "
                   "drive: AM335x EMIF4D, OMAP-L138 DDR2/mDDR 16; AM57xx EMIF, KeyStone II EMIF, "
                   "K3 DDRSS 16 or 32; KeyStone II K2H/K2K EMIF 64; ECC lanes not counted (background "
                   "knowledge: unverified)")
          .values({16, 32, 64})
          .integer("channels", &P::channels, "count", 1, 16, "independent channels",
                   "board facts / SoC TRM (1 default)")
          .integer("ranks", &P::ranks, "count", 1, 4, "ranks per channel", "board facts (1 default)")
          .integer("banks", &P::banks, "count", 2, 32, "banks per rank (all bank groups)",
                   "JEDEC standard (8 for DDR3/LPDDR4, 16 for DDR4, 4 for DDR2)")
          .integer("bank_groups", &P::bank_groups, "count", 1, 8, "bank groups per rank",
                   "JESD79-4 (DDR4 x16: 2, x8: 4); 1 for other standards")
          .integer("rows", &P::rows, "count", 256, 1 << 20, "rows per bank",
                   "JEDEC addressing table (4 Gb x16 DDR3: 32K rows)")
          .integer("columns", &P::columns, "count", 128, 16384, "columns per row",
                   "JEDEC addressing table (1K columns for x16 devices)")
          .integer("burst_length", &P::burst_length, "beats", 2, 32, "beats per burst",
                   "JEDEC standard (BL4 DDR2/mDDR, BL8 DDR3/DDR4, BL16 LPDDR4)")
          .integer("cl", &P::cl_tck, "tCK", 1, 100, "CAS read latency", kJedec3)
          .integer("cwl", &P::cwl_tck, "tCK", 1, 100, "CAS write latency", kJedec3)
          .real("trcd", &P::trcd_ns, "ns", 0, 200, "ACT to RD/WR delay", kJedec3)
          .real("trp", &P::trp_ns, "ns", 0, 200, "precharge period", kJedec3)
          .real("tras", &P::tras_ns, "ns", 0, 500, "ACT to PRE minimum", kJedec3)
          .real("trc", &P::trc_ns, "ns", 0, 500, "ACT to ACT same bank", kJedec3)
          .real("trrd", &P::trrd_ns, "ns", 0, 100, "ACT to ACT different bank (tRRD_S)",
                "JESD79-3F (2 KiB page, DDR3-1600: max(4 tCK, 7.5 ns))")
          .real("trrd_l", &P::trrd_l_ns, "ns", 0, 100,
                "ACT to ACT same bank group (DDR4 tRRD_L); 0 = trrd", "JESD79-4 (0 = not DDR4)")
          .real("tfaw", &P::tfaw_ns, "ns", 0, 200, "four-activate window",
                "JESD79-3F (2 KiB page, DDR3-1600: 40 ns)")
          .real("twr", &P::twr_ns, "ns", 0, 100, "write recovery time", kJedec3)
          .real("twtr", &P::twtr_ns, "ns", 0, 100, "write to read delay",
                "JESD79-3F (max(4 tCK, 7.5 ns))")
          .real("trtp", &P::trtp_ns, "ns", 0, 100, "read to precharge",
                "JESD79-3F (max(4 tCK, 7.5 ns))")
          .real("trfc", &P::trfc_ns, "ns", 0, 2000, "refresh cycle time (all banks)",
                "JESD79-3F (4 Gb: 260 ns)")
          .real("trefi", &P::trefi_ns, "ns", 100, 100000, "average periodic refresh interval",
                "JESD79-3F (7.8 us at 0-85 C)")
          .integer("tccd", &P::tccd_tck, "tCK", 1, 32, "CAS to CAS (tCCD_S on DDR4)",
                   "JESD79-3F (4 tCK)")
          .integer("tccd_l", &P::tccd_l_tck, "tCK", 0, 32,
                   "CAS to CAS same bank group (DDR4 tCCD_L); 0 = tccd", "JESD79-4 (0 = not DDR4)");
  return s;
}

}  // namespace socsim::models
