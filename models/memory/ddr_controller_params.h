#pragma once
/// @file ddr_controller_params.h
/// @brief DDR controller (EMIF/DDRSS) parameters: clock, queues, page policy, scheduler, latencies.
#include <string>

#include "common/params.h"

namespace socsim::models {

struct DdrControllerParams {
  double clock_mhz = 400;            ///< controller clock (front end and queues)
  /// DRAM clock / controller clock (DFI 1:N); 0 = not stated. When stated and clock_mhz is not
  /// given, the loader derives clock_mhz = data rate / 2 / ratio, so a data-rate what-if moves
  /// the controller clock with it.
  double dram_clock_ratio = 0;
  std::string page_policy = "open";  ///< open | closed (auto-precharge after each access)
  std::string scheduler = "frfcfs";  ///< frfcfs | fcfs
  std::string address_mapping = "ro_ba_co";  ///< ro_ba_co | ro_co_ba (bank interleave per burst)
  int read_queue_depth = 32;         ///< read requests the scheduler sees at once
  int write_queue_depth = 32;        ///< buffered (posted) writes
  int frontend_latency_cycles = 4;   ///< request decode/queue entry to scheduling, controller cycles
  int backend_latency_cycles = 4;    ///< PHY + return path after the last data beat, controller cycles
  double write_high_watermark = 0.85;  ///< write-queue fill that forces a switch to write drain
  double write_low_watermark = 0.5;    ///< write-queue fill at which a drain stops
  int min_writes_per_switch = 8;     ///< writes issued per drain before switching back to reads
  int read_to_write_extra_tck = 2;   ///< bus turnaround beyond RL + BL/2 - WL, tCK
  int max_row_hits = 16;             ///< FR-FCFS row-hit streak cap before an older miss wins
  int channel_interleave_bytes = 128;  ///< address interleave granule across channels
  bool refresh = true;               ///< model periodic all-bank refresh

  static const params::Schema<DdrControllerParams>& schema();
};

inline const params::Schema<DdrControllerParams>& DdrControllerParams::schema() {
  using P = DdrControllerParams;
  static const auto s =
      params::Schema<P>("ddr_controller")
          .real("clock_mhz", &P::clock_mhz, "MHz", 10, 5000, "controller clock",
                "SoC TRM EMIF/DDRSS clocking (DDR3-1600 DRAM clock / 2 = 400 MHz)")
          .real("dram_clock_ratio", &P::dram_clock_ratio, "ratio", 0, 16,
                "DRAM clock / controller clock (DFI 1:N); when clock_mhz is not given the "
                "controller clock is dram.data_rate / 2 / this ratio (0: not stated, clock_mhz "
                "or its default is used)",
                "SoC TRM DDR subsystem clocking (DFI frequency ratio)")
          .choice("page_policy", &P::page_policy, {"open", "closed"},
                  "keep rows open after an access (open) or auto-precharge (closed)",
                  "SoC TRM EMIF (open page by default)")
          .choice("scheduler", &P::scheduler, {"frfcfs", "fcfs"},
                  "request scheduler: first-ready FCFS (row hits first) or strict FCFS",
                  "Rixner et al. ISCA 2000 (FR-FCFS); SoC TRM EMIF reorders for row hits")
          .choice("address_mapping", &P::address_mapping, {"ro_ba_co", "ro_co_ba"},
                  "address bits order: row:bank:column (page-contiguous) or row:column:bank "
                  "(consecutive bursts on consecutive banks)",
                  "SoC TRM EMIF SDRAM config (row-bank-column default)")
          .integer("read_queue_depth", &P::read_queue_depth, "count", 1, 256,
                   "reads the scheduler can choose among", "calibrated: gem5 MemCtrl read_buffer_size 32")
          .integer("write_queue_depth", &P::write_queue_depth, "count", 1, 256,
                   "posted writes buffered in the controller",
                   "calibrated: gem5 MemCtrl write_buffer_size 64 / 2")
          .integer("frontend_latency_cycles", &P::frontend_latency_cycles, "cycles", 0, 200,
                   "request entry to scheduling, controller cycles",
                   "calibrated: gem5 MemCtrl static_frontend_latency 10 ns")
          .integer("backend_latency_cycles", &P::backend_latency_cycles, "cycles", 0, 200,
                   "PHY and response path after the last data beat, controller cycles",
                   "calibrated: gem5 MemCtrl static_backend_latency 10 ns")
          .real("write_high_watermark", &P::write_high_watermark, "fraction", 0.05, 1,
                "write-queue fill that forces a write drain", "calibrated: gem5 MemCtrl 0.85")
          .real("write_low_watermark", &P::write_low_watermark, "fraction", 0, 1,
                "write-queue fill at which a write drain stops", "calibrated: gem5 MemCtrl 0.5")
          .integer("min_writes_per_switch", &P::min_writes_per_switch, "count", 1, 256,
                   "writes issued per drain before turning back to reads",
                   "calibrated: gem5 MemCtrl min_writes_per_switch 16 / 2")
          .integer("read_to_write_extra_tck", &P::read_to_write_extra_tck, "tCK", 0, 32,
                   "bus turnaround added to RL + BL/2 - WL between a read and a write",
                   "JESD79-3F read-to-write command spacing (+2 tCK)")
          .integer("max_row_hits", &P::max_row_hits, "count", 1, 1024,
                   "row-hit streak after which an older row miss is served first",
                   "calibrated: gem5 MemCtrl max_accesses_per_row 16")
          .integer("channel_interleave_bytes", &P::channel_interleave_bytes, "bytes", 32, 1 << 20,
                   "address interleave granule across channels",
                   "SoC TRM multi-EMIF interleaving (128 B default)")
          .flag("refresh", &P::refresh, "model periodic all-bank refresh (tRFC every tREFI)",
                "JEDEC standard (refresh is mandatory)");
  return s;
}

}  // namespace socsim::models
