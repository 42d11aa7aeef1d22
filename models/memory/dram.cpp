#include "models/memory/dram.h"

#include <algorithm>
#include <cmath>

namespace socsim::models {

Dram::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("read_bursts", "count", "read bursts on the data bus", &readBursts);
  counter("write_bursts", "count", "write bursts on the data bus", &writeBursts);
  counter("row_hits", "count", "bursts to the open row", &rowHits);
  counter("row_misses", "count", "bursts that had to close another row (PRE + ACT)", &rowMisses);
  counter("row_empty", "count", "bursts to a closed bank (ACT only)", &rowEmpty);
  formula("row_hit_rate", "ratio", "row_hits / bursts", [this] {
    auto n = rowHits + rowMisses + rowEmpty;
    return n ? static_cast<double>(rowHits) / n : 0.0;
  });
  counter("activates", "count", "ACT commands", &activates);
  counter("refreshes", "count", "all-bank refreshes", &refreshes);
  counter("busy_ns", "ns", "data bus occupancy", &busyNs);
  counter("refresh_ns", "ns", "time all banks were blocked by refresh", &refreshNs);
  counter("row_miss_ns", "ns", "precharge + activate time spent on row misses", &rowMissNs);
}

std::uint64_t Dram::toTck(double ns) const {
  if (ns <= 0) return 0;
  double cycles = std::ceil(ns * 1000.0 / static_cast<double>(tck_) - 1e-9);
  return static_cast<std::uint64_t>(cycles) * tck_;
}

Dram::Dram(const DramParams& d, const DdrControllerParams& c, const std::string& statsPath)
    : d_(d),
      closedPage_(c.page_policy == "closed"),
      refreshOn_(c.refresh),
      stats_(statsPath) {
  tck_ = static_cast<std::uint64_t>(std::llround(d.tckNs() * 1000.0));
  tBurst_ = static_cast<std::uint64_t>(d.burst_length / 2) * tck_;
  cl_ = static_cast<std::uint64_t>(d.cl_tck) * tck_;
  cwl_ = static_cast<std::uint64_t>(d.cwl_tck) * tck_;
  trcd_ = toTck(d.trcd_ns);
  trp_ = toTck(d.trp_ns);
  tras_ = toTck(d.tras_ns);
  trc_ = std::max(toTck(d.trc_ns), tras_ + trp_);
  trrd_ = toTck(d.trrd_ns);
  trrdL_ = d.trrd_l_ns > 0 ? toTck(d.trrd_l_ns) : trrd_;
  tfaw_ = toTck(d.tfaw_ns);
  twr_ = toTck(d.twr_ns);
  twtr_ = toTck(d.twtr_ns);
  trtp_ = toTck(d.trtp_ns);
  trfc_ = toTck(d.trfc_ns);
  trefi_ = toTck(d.trefi_ns);
  tccd_ = static_cast<std::uint64_t>(d.tccd_tck) * tck_;
  tccdL_ = d.tccd_l_tck > 0 ? static_cast<std::uint64_t>(d.tccd_l_tck) * tck_ : tccd_;
  banksPerRank_ = d.banks;
  bankGroups_ = std::max(1, d.bank_groups);
  banks_.assign(static_cast<std::size_t>(d.ranks * d.banks), Bank{});
  Rank r;
  r.bgLastAct.assign(static_cast<std::size_t>(bankGroups_), 0);
  r.bgNextCas.assign(static_cast<std::size_t>(bankGroups_), 0);
  ranks_.assign(static_cast<std::size_t>(d.ranks), r);
  // Data-bus turnaround (kind 0 = read, 1 = write), as gaps between data bursts:
  // same direction: tCCD beyond the burst; read->write: RL + tCCD + extra - WL on the command bus
  // = extra tCK on the data bus; write->read: tWTR after the write data, then CL to read data.
  std::uint64_t same = tccd_ > tBurst_ ? tccd_ - tBurst_ : 0;
  bus_.setGap(0, 0, same);
  bus_.setGap(1, 1, same);
  bus_.setGap(0, 1, same + static_cast<std::uint64_t>(c.read_to_write_extra_tck) * tck_);
  bus_.setGap(1, 0, twtr_ + cl_);
  nextRefresh_ = trefi_;
}

void Dram::reset(std::uint64_t nowPs) {
  for (auto& b : banks_) b = Bank{};
  for (auto& r : ranks_) {
    r.faw.fill(0);
    r.anyAct = false;
    r.lastAct = 0;
    std::fill(r.bgLastAct.begin(), r.bgLastAct.end(), 0);
    std::fill(r.bgNextCas.begin(), r.bgNextCas.end(), 0);
  }
  bus_.clear(nowPs);
  nextRefresh_ = nowPs + trefi_;
  refreshEnd_ = 0;
}

void Dram::refreshUpTo(std::uint64_t t) {
  if (!refreshOn_ || trefi_ == 0) return;
  while (nextRefresh_ <= t) {
    if (t - nextRefresh_ > 2 * trefi_) {
      // Long idle stretch: the refreshes in it found the bus idle; account them in bulk.
      std::uint64_t n = (t - nextRefresh_) / trefi_ - 1;
      stats_.refreshes += n;
      stats_.refreshNs += static_cast<double>(n * trfc_) / 1000.0;
      nextRefresh_ += n * trefi_;
      continue;
    }
    std::uint64_t start = nextRefresh_;
    for (auto& b : banks_)
      if (b.openRow >= 0) start = std::max(start, b.nextPre + trp_);
    std::uint64_t end = start + trfc_;
    for (auto& b : banks_) {
      b.openRow = -1;
      b.nextAct = std::max(b.nextAct, end);
    }
    refreshEnd_ = end;
    ++stats_.refreshes;
    stats_.refreshNs += static_cast<double>(trfc_) / 1000.0;
    nextRefresh_ += trefi_;
  }
}

BurstTiming Dram::access(int bank, std::uint32_t row, bool write, std::uint64_t t,
                         std::uint64_t dataNotBefore, bool lastOfRequest, bool halfBurst) {
  refreshUpTo(t);
  BurstTiming r;
  Bank& b = banks_[static_cast<std::size_t>(bank)];
  Rank& rk = ranks_[static_cast<std::size_t>(bank / banksPerRank_)];
  const auto bg = static_cast<std::size_t>((bank % banksPerRank_) % bankGroups_);
  std::uint64_t cas;
  if (b.openRow == static_cast<std::int64_t>(row)) {
    r.row = BurstTiming::Row::Hit;
    cas = std::max(t, b.nextCas);
    ++stats_.rowHits;
  } else {
    std::uint64_t act = std::max(t, b.nextAct);
    if (refreshEnd_ > t) r.refreshPs = std::min(refreshEnd_, act) - t;
    if (b.openRow >= 0) {
      r.row = BurstTiming::Row::Conflict;
      act = std::max(act, std::max(t, b.nextPre) + trp_);
      r.rowMissPs = trp_ + trcd_;
      ++stats_.rowMisses;
    } else {
      r.row = BurstTiming::Row::Empty;
      r.rowMissPs = trcd_;
      ++stats_.rowEmpty;
    }
    if (rk.anyAct) {
      act = std::max(act, rk.lastAct + trrd_);
      act = std::max(act, rk.bgLastAct[bg] + trrdL_);
      act = std::max(act, rk.faw[static_cast<std::size_t>(rk.fawIdx)] + tfaw_);
    }
    rk.faw[static_cast<std::size_t>(rk.fawIdx)] = act;
    rk.fawIdx = (rk.fawIdx + 1) % 4;
    rk.lastAct = std::max(rk.lastAct, act);
    rk.bgLastAct[bg] = std::max(rk.bgLastAct[bg], act);
    rk.anyAct = true;
    ++stats_.activates;
    stats_.rowMissNs += static_cast<double>(r.rowMissPs) / 1000.0;
    b.openRow = static_cast<std::int64_t>(row);
    b.nextPre = act + tras_;
    b.nextAct = act + trc_;
    cas = std::max(act + trcd_, b.nextCas);
  }
  if (bankGroups_ > 1) cas = std::max(cas, rk.bgNextCas[bg]);  // tCCD_L (tCCD_S is on the bus)
  const std::uint64_t lat = write ? cwl_ : cl_;
  // An interrupted (chopped) burst frees the bus after half the burst, but CAS commands stay
  // tCCD apart (JESD79-2F DDR2 burst interruption; JESD79-3F BC4 keeps tCCD = 4 tCK).
  const std::uint64_t dur = halfBurst ? std::min(tBurst_, std::max(tBurst_ / 2, tccd_)) : tBurst_;
  r.dataStart = bus_.reserve(std::max(cas + lat, dataNotBefore), dur, write ? 1 : 0);
  r.dataEnd = r.dataStart + dur;
  cas = r.dataStart - lat;
  b.nextCas = cas + tccd_;
  rk.bgNextCas[bg] = std::max(rk.bgNextCas[bg], cas + tccdL_);
  b.nextPre = std::max(b.nextPre, write ? r.dataEnd + twr_ : cas + std::max(trtp_, 2 * tck_));
  if (closedPage_ && lastOfRequest) {
    b.openRow = -1;
    b.nextAct = std::max(b.nextAct, b.nextPre + trp_);
  }
  if (write)
    ++stats_.writeBursts;
  else
    ++stats_.readBursts;
  stats_.busyNs += static_cast<double>(dur) / 1000.0;
  return r;
}

}  // namespace socsim::models
