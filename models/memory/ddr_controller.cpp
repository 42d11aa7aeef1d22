#include "models/memory/ddr_controller.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace socsim::models {

namespace {
constexpr std::uint64_t kQueued = std::numeric_limits<std::uint64_t>::max();
}

DdrController::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("reads", "count", "read requests", &reads);
  counter("writes", "count", "write requests", &writes);
  counter("read_bytes", "bytes", "bytes read", &readBytes);
  counter("write_bytes", "bytes", "bytes written", &writeBytes);
  counter("write_drains", "count", "write-queue drains (read/write switches)", &writeDrains);
  counter("write_stalls", "count", "writes that waited for a write-queue slot", &writeStalls);
  formula("avg_read_latency_ns", "ns", "mean read latency from arrival to last data + back end",
          [this] { return reads ? readLatencyPs / 1000.0 / reads : 0.0; });
  formula("bandwidth_gbps", "GB/s", "(read_bytes + write_bytes) / time since resetStats", [this] {
    std::uint64_t now = nowPs();
    return now > windowStartPs
               ? static_cast<double>(readBytes + writeBytes) / (static_cast<double>(now - windowStartPs) * 1e-3)
               : 0.0;
  });
  counter("read_latency_ps", "ps", "sum of read latencies", &readLatencyPs);
  onReset([this] { windowStartPs = nowPs(); });
}

DdrController::DdrController(sc_core::sc_module_name name, const DdrControllerParams& c,
                             const DramParams& d)
    : sc_module(name), cpu_side("cpu_side"), c_(c), d_(d), stats_(std::string(this->name())) {
  requirePicosecondResolution();
  period_ = models::periodPs(c.clock_mhz);
  fe_ = period_ * static_cast<std::uint64_t>(c.frontend_latency_cycles);
  be_ = period_ * static_cast<std::uint64_t>(c.backend_latency_cycles);
  burstBytes_ = static_cast<std::uint64_t>(d.burstBytes());
  rowBytes_ = d.rowBytes();
  interleave_ = static_cast<std::uint64_t>(c.channel_interleave_bytes);
  totalBanks_ = d.ranks * d.banks;
  if (burstBytes_ == 0 || rowBytes_ < burstBytes_)
    throw std::invalid_argument(std::string(this->name()) + ": row smaller than a burst");
  for (int i = 0; i < d.channels; ++i)
    channels_.push_back(
        std::make_unique<Dram>(d, c, std::string(this->name()) + ".ch" + std::to_string(i)));
  scheduler_ = makeScheduler(c.scheduler, c.max_row_hits);
  writeSlotFree_.assign(static_cast<std::size_t>(std::max(1, c.write_queue_depth)), 0);
  lastReadData_.assign(static_cast<std::size_t>(d.channels), 0);
  const auto depth = writeSlotFree_.size();
  highMark_ = std::max<std::size_t>(1, static_cast<std::size_t>(c.write_high_watermark * depth));
  lowMark_ = std::min(highMark_ - 1, static_cast<std::size_t>(c.write_low_watermark * depth));
  cpu_side.register_b_transport(this, &DdrController::b_transport);
  stats_.formula("peak_bandwidth_gbps", "GB/s", "data rate x bus width x channels",
                 [this] { return d_.peakBytesPerSecond() / 1e9; });
}

DdrController::Location DdrController::decode(std::uint64_t addr) const {
  Location l;
  const auto chs = static_cast<std::uint64_t>(channels_.size());
  std::uint64_t local = addr;
  if (chs > 1) {
    std::uint64_t g = addr / interleave_;
    l.channel = static_cast<int>(g % chs);
    local = (g / chs) * interleave_ + addr % interleave_;
  }
  const auto nb = static_cast<std::uint64_t>(totalBanks_);
  const auto rows = static_cast<std::uint64_t>(d_.rows);
  if (c_.address_mapping == "ro_co_ba") {
    std::uint64_t burst = local / burstBytes_;
    l.bank = static_cast<int>(burst % nb);
    l.row = static_cast<std::uint32_t>((burst / nb) / (rowBytes_ / burstBytes_) % rows);
  } else {
    std::uint64_t page = local / rowBytes_;
    l.bank = static_cast<int>(page % nb);
    l.row = static_cast<std::uint32_t>((page / nb) % rows);
  }
  return l;
}

std::uint64_t DdrController::burstsOf(std::uint64_t addr, unsigned bytes) const {
  std::uint64_t first = addr / burstBytes_;
  std::uint64_t last = (addr + std::max(1u, bytes) - 1) / burstBytes_;
  return last - first + 1;
}

bool DdrController::inHalfBurst(std::uint64_t addr, unsigned bytes) const {
  const std::uint64_t half = burstBytes_ / 2;
  if (half == 0 || bytes == 0) return false;
  return addr / half == (addr + bytes - 1) / half;
}

void DdrController::issueWrite(const QueuedWrite& w, std::uint64_t t) {
  const std::uint64_t start = std::max(t, w.arrivalPs);
  const std::uint64_t n = burstsOf(w.addr, w.bytes);
  std::uint64_t end = start;
  std::uint64_t a = w.addr / burstBytes_ * burstBytes_;
  const bool half = inHalfBurst(w.addr, w.bytes);
  for (std::uint64_t k = 0; k < n; ++k, a += burstBytes_) {
    Location l = decode(a);
    auto r = channels_[static_cast<std::size_t>(l.channel)]->access(l.bank, l.row, true, start, 0,
                                                                     k + 1 == n, half);
    end = std::max(end, r.dataEnd);
  }
  writeSlotFree_[static_cast<std::size_t>(w.slot)] = end;
}

void DdrController::drain(std::uint64_t t, std::size_t downTo, std::size_t atLeast) {
  if (writeQ_.empty()) return;
  ++stats_.writeDrains;
  auto isRowHit = [this](const QueuedWrite& w) {
    Location l = decode(w.addr);
    return channels_[static_cast<std::size_t>(l.channel)]->openRow(l.bank) ==
           static_cast<std::int64_t>(l.row);
  };
  std::size_t issued = 0;
  while (!writeQ_.empty() && (writeQ_.size() > downTo || issued < atLeast)) {
    std::size_t i = scheduler_->pickWrite(writeQ_, isRowHit);
    issueWrite(writeQ_[i], t);
    writeQ_.erase(writeQ_.begin() + static_cast<long>(i));
    ++issued;
  }
}

void DdrController::drainWrites(std::uint64_t t) { drain(t, 0, 0); }

void DdrController::reset() {
  writeQ_.clear();
  std::fill(writeSlotFree_.begin(), writeSlotFree_.end(), 0);
  std::fill(lastReadData_.begin(), lastReadData_.end(), 0);
  for (auto& ch : channels_) ch->reset(nowPs());
}

void DdrController::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  MemExtension& ext = memExt(p);
  const std::uint64_t t = nowPs() + ps(delay);
  const std::uint64_t addr = p.get_address();
  const unsigned bytes = p.get_data_length();
  const std::uint64_t t0 = t + fe_;
  std::uint64_t done;
  if (p.is_read()) {
    // An idle data bus would have drained pending writes before this read arrived.
    if (!writeQ_.empty()) {
      Location l0 = decode(addr);
      if (channels_[static_cast<std::size_t>(l0.channel)]->busFreeAt() <= t0) drain(t0, 0, 0);
    }
    const std::uint64_t n = burstsOf(addr, bytes);
    std::uint64_t a = addr / burstBytes_ * burstBytes_;
    std::uint64_t end = t0;
    BurstTiming first;
    std::uint64_t accessPs = 0;
    for (std::uint64_t k = 0; k < n; ++k, a += burstBytes_) {
      Location l = decode(a);
      Dram& ch = *channels_[static_cast<std::size_t>(l.channel)];
      auto& inOrder = lastReadData_[static_cast<std::size_t>(l.channel)];
      auto r = ch.access(l.bank, l.row, false, t0, scheduler_->reorderReads() ? 0 : inOrder,
                         k + 1 == n, inHalfBurst(addr, bytes));
      inOrder = std::max(inOrder, r.dataStart);
      if (k == 0) {
        first = r;
        accessPs = ch.clPs();
      }
      accessPs += r.dataEnd - r.dataStart;
      end = std::max(end, r.dataEnd);
    }
    done = end + be_;
    ++stats_.reads;
    stats_.readBytes += bytes;
    stats_.readLatencyPs += static_cast<double>(done - t);
    // Latency breakdown: controller, DRAM access (CL + bursts), row miss, refresh, the rest is
    // waiting for busy banks / bus / turnaround.
    const std::uint64_t total = done - t;
    std::uint64_t known = fe_ + be_ + accessPs + first.rowMissPs + first.refreshPs;
    ext.add(Part::Controller, fe_ + be_);
    ext.add(Part::DramAccess, accessPs);
    ext.add(Part::DramRowMiss, first.rowMissPs);
    ext.add(Part::DramRefresh, first.refreshPs);
    ext.add(Part::DramBusy, total > known ? total - known : 0);
  } else {
    // Posted write: accepted when a write-queue slot is free.
    auto slotIt = std::min_element(writeSlotFree_.begin(), writeSlotFree_.end());
    if (*slotIt == kQueued) {
      drain(t0, 0, 1);
      slotIt = std::min_element(writeSlotFree_.begin(), writeSlotFree_.end());
    }
    std::uint64_t accepted = std::max(t0, *slotIt);
    if (*slotIt > t0) ++stats_.writeStalls;
    *slotIt = kQueued;
    writeQ_.push_back({accepted, addr, bytes, static_cast<int>(slotIt - writeSlotFree_.begin())});
    if (writeQ_.size() >= highMark_) drain(accepted, lowMark_, static_cast<std::size_t>(c_.min_writes_per_switch));
    done = accepted;
    ++stats_.writes;
    stats_.writeBytes += bytes;
    ext.add(Part::Controller, fe_);
    ext.add(Part::DramBusy, accepted - t0);
  }
  delay = fromPs(done - nowPs());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace socsim::models
