#pragma once
/// @file dram.h
/// @brief Timing state of one DRAM channel: banks, ranks, bank groups, data bus and refresh.
///
/// Models, per burst: the bank state (open row, next legal ACT/PRE/CAS times), tRCD, CL/CWL,
/// tRP, tRAS, tRC, tRRD (and tRRD_L), tFAW, tCCD (and tCCD_L), tWR, tRTP, tWTR and the
/// read-to-write bus turnaround, open or closed page, and periodic all-bank refresh (tRFC every
/// tREFI, rows closed). The data bus is a reservation calendar, so a burst whose bank is ready
/// earlier (a row hit) can take an earlier free slot than a burst scheduled before it.
/// Does not model: power-down and self-refresh, per-bank refresh, rank-to-rank switching time,
/// ODT, command-bus conflicts (one command per tCK), data values.
/// Timings in ns are rounded up to whole tCK.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/base/stats.h"
#include "models/base/timeline.h"
#include "models/memory/ddr_controller_params.h"
#include "models/memory/dram_params.h"

namespace socsim::models {

/// What one burst met, for statistics and the latency breakdown.
struct BurstTiming {
  enum class Row { Hit, Empty, Conflict };
  Row row = Row::Hit;
  std::uint64_t dataStart = 0, dataEnd = 0;  ///< ps
  std::uint64_t rowMissPs = 0;   ///< tRP + tRCD (conflict) or tRCD (closed row)
  std::uint64_t refreshPs = 0;   ///< waiting for a refresh to end
};

class Dram {
 public:
  /// @param statsPath e.g. "soc.ddr.ch0".
  Dram(const DramParams& d, const DdrControllerParams& c, const std::string& statsPath);

  /// Schedule one burst to (bank, row) no earlier than `t` (ps) and, for in-order schedulers,
  /// with its data no earlier than `dataNotBefore`. `bank` counts across ranks.
  /// With the closed-page policy the row is auto-precharged after the burst when `lastOfRequest`.
  /// `halfBurst`: the request's bytes all lie in one half of the burst (a 4-byte write on a
  /// 16-byte DDR2 burst); the burst is then cut after that half (DDR2 BL8 burst interrupted by
  /// the next read/write at the 4-beat boundary, DDR3/DDR4 burst chop BC4) and holds the data
  /// bus for half the burst or tCCD, whichever is longer: on DDR3/DDR4/LPDDR4 (tCCD = BL/2)
  /// that is the whole burst, on DDR2 (tCCD 2 tCK, BL8) half of it.
  BurstTiming access(int bank, std::uint32_t row, bool write, std::uint64_t t,
                     std::uint64_t dataNotBefore = 0, bool lastOfRequest = true,
                     bool halfBurst = false);
  /// Open row of a bank, or -1.
  std::int64_t openRow(int bank) const { return banks_[static_cast<std::size_t>(bank)].openRow; }
  /// End of the latest data-bus reservation.
  std::uint64_t busFreeAt() const { return bus_.lastEnd(); }
  /// Close all rows, forget reservations, restart the refresh interval at `nowPs` (between
  /// benchmarks, so that a benchmark's timing does not depend on the ones before it).
  void reset(std::uint64_t nowPs);

  std::uint64_t tckPs() const { return tck_; }
  std::uint64_t burstPs() const { return tBurst_; }
  std::uint64_t clPs() const { return cl_; }
  std::uint64_t cwlPs() const { return cwl_; }
  std::uint64_t trcdPs() const { return trcd_; }
  std::uint64_t trpPs() const { return trp_; }
  std::uint64_t trfcPs() const { return trfc_; }
  std::uint64_t trefiPs() const { return trefi_; }
  int totalBanks() const { return static_cast<int>(banks_.size()); }

  struct Stats : stats::Group {
    explicit Stats(const std::string& path);
    std::uint64_t readBursts = 0, writeBursts = 0, rowHits = 0, rowMisses = 0, rowEmpty = 0,
                  activates = 0, refreshes = 0;
    double busyNs = 0, refreshNs = 0, rowMissNs = 0;
  };
  Stats& stats() { return stats_; }

 private:
  struct Bank {
    std::int64_t openRow = -1;
    std::uint64_t nextAct = 0, nextPre = 0, nextCas = 0;
  };
  struct Rank {
    std::array<std::uint64_t, 4> faw{};  ///< last four ACT times (ring)
    int fawIdx = 0;
    std::uint64_t lastAct = 0;
    bool anyAct = false;
    std::vector<std::uint64_t> bgLastAct, bgNextCas;
  };
  std::uint64_t toTck(double ns) const;
  void refreshUpTo(std::uint64_t t);

  DramParams d_;
  bool closedPage_, refreshOn_;
  std::uint64_t tck_, tBurst_, cl_, cwl_, trcd_, trp_, tras_, trc_, trrd_, trrdL_, tfaw_, twr_,
      twtr_, trtp_, trfc_, trefi_, tccd_, tccdL_;
  int banksPerRank_, bankGroups_;
  std::vector<Bank> banks_;
  std::vector<Rank> ranks_;
  Timeline bus_;
  std::uint64_t nextRefresh_, refreshEnd_ = 0;
  Stats stats_;
};

}  // namespace socsim::models
