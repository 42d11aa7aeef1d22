#include "workloads/cpu/platform_port.h"

#include <algorithm>
#include <tlm>

namespace socsim::wl::cpu {

using models::Part;

namespace {
enum Level { kL1 = 0, kL2, kL3, kDram };
}

PlatformPort::PlatformPort(models::CoreMemory& cm)
    : cm_(cm), base_(cm.localPs()), period_(std::max<std::uint64_t>(1, cm.cyclePs())) {
  const auto& p = cm.params();
  lfb_.assign(static_cast<std::size_t>(std::max(1, p.line_fill_buffers)), 0);
  models::PrefetchConfig pc;
  pc.degree = p.prefetch_degree;
  pc.distance = p.prefetch_distance;
  pc.streams = p.prefetch_streams;
  pc.blocksPerRegion = std::max(1, 4096 / std::max(1, cm.l1d.params().line_bytes));
  prefetcher_ = models::makePrefetcher(p.prefetcher, pc);
  ext_.initiator = cm.id();
}

unsigned PlatformPort::fetchLineBytes() const {
  return static_cast<unsigned>(std::max(4, cm_.l1i.params().line_bytes));
}

std::vector<std::string> PlatformPort::levelNames() const {
  return {"l1d", "l2", "l3", "dram"};
}

int PlatformPort::levelOf(const models::MemExtension& e) const {
  auto at = [&](Part p) { return e.parts[static_cast<int>(p)]; };
  if (at(Part::Controller) || at(Part::DramAccess) || at(Part::DramBusy) || at(Part::DramRowMiss) ||
      at(Part::DramRefresh))
    return kDram;
  if (at(Part::L3)) return kL3;
  return kL2;
}

std::uint64_t PlatformPort::missData(std::uint64_t blk, std::uint64_t t, bool dirty, int& level) {
  auto slot = std::min_element(lfb_.begin(), lfb_.end());
  const std::uint64_t start = std::max(t, *slot);
  ext_.clearParts();
  ext_.initiator = cm_.id();
  const std::uint64_t ready = cm_.l1d.fetchLine(blk, start + cm_.l1d.missPs(), ext_, dirty, true);
  *slot = ready;
  cm_.l1d.countMissLatency(ready - t);
  level = levelOf(ext_);
  return ready;
}

void PlatformPort::prefetch(std::uint64_t blk, bool trigger, std::uint64_t t) {
  if (!prefetcher_) return;
  candidates_.clear();
  prefetcher_->observe(blk, trigger, candidates_);
  for (std::uint64_t c : candidates_) {
    if (cm_.l1d.find(c)) continue;
    auto slot = std::min_element(lfb_.begin(), lfb_.end());
    if (*slot > t) break;  // no free line-fill buffer: drop the prefetch
    models::MemExtension scratch;
    scratch.initiator = cm_.id();
    *slot = cm_.l1d.fetchLine(c, t + cm_.l1d.missPs(), scratch, false, true, true);
  }
}

models::CoreMemoryPort::Access PlatformPort::load(std::uint64_t addr, unsigned,
                                                  std::uint64_t cycle) {
  const std::uint64_t t = psOf(cycle);
  const std::uint64_t blk = cm_.l1d.block(addr);
  bool wasPrefetched = false;
  if (prefetcher_)
    if (const models::CacheLine* pre = cm_.l1d.find(blk)) wasPrefetched = pre->prefetched;
  if (models::CacheLine* l = cm_.l1d.lookup(blk)) {
    const std::uint64_t ready = std::max(t + cm_.l1d.hitPs(), l->readyPs);
    if (prefetcher_) prefetch(blk, wasPrefetched, t);
    // A hit on a line still in flight waits for its fill: booked to the level below.
    return {cycleOf(ready),
            l->readyPs > t + cm_.l1d.hitPs() ? static_cast<int>(kL2) : static_cast<int>(kL1)};
  }
  int level = kL2;
  const std::uint64_t ready = missData(blk, t, false, level) + cm_.l1d.hitPs();
  if (prefetcher_) prefetch(blk, true, t);
  return {cycleOf(ready), level};
}

models::CoreMemoryPort::Access PlatformPort::store(std::uint64_t addr, unsigned bytes,
                                                   std::uint64_t cycle) {
  const std::uint64_t t = psOf(cycle);
  const std::uint64_t blk = cm_.l1d.block(addr);
  models::CacheLine* l = cm_.l1d.lookup(blk);
  const auto& cp = cm_.l1d.params();
  if (l && cp.write_back) {
    l->dirty = true;
    return {cycle + 1, kL1};
  }
  if (l || !cp.write_allocate) {
    // Write-through hit or read-allocate miss: the store goes to the level below (posted)
    // through the store buffer's write-combining entry, as CoreMemory::storeLine merges it: a
    // store into the granule of the open entry merges into it and costs no write of its own;
    // a store to another granule opens the entry, whose one write below carries the granule
    // from this store on (byte strobes: a byte-by-byte output stream is one write per granule).
    const std::uint64_t g = std::max<std::uint64_t>(1, cm_.combineBytes());
    const std::uint64_t granule = addr / g;
    if (granule == wcGranule_) return {cycle + 1, kL1};
    wcGranule_ = granule;
    ext_.clearParts();
    ext_.initiator = cm_.id();
    const auto span = static_cast<unsigned>(std::max<std::uint64_t>(bytes, g - addr % g));
    const std::uint64_t accepted = cm_.l1d.writeDown(addr, span, t, ext_, false);
    return {cycleOf(std::max(accepted, t + period_)), l ? static_cast<int>(kL1) : levelOf(ext_)};
  }
  int level = kL2;
  const std::uint64_t ready = missData(blk, t, true, level);
  return {cycleOf(ready), level};
}

models::CoreMemoryPort::Access PlatformPort::fetch(std::uint64_t addr, std::uint64_t cycle) {
  const std::uint64_t t = psOf(cycle);
  const std::uint64_t blk = cm_.l1i.block(addr);
  if (models::CacheLine* l = cm_.l1i.lookup(blk))
    return {cycleOf(std::max(t, l->readyPs)),
            l->readyPs > t ? static_cast<int>(kL2) : static_cast<int>(kL1)};
  models::MemExtension e;
  e.initiator = cm_.id();
  const std::uint64_t ready = cm_.l1i.fetchLine(blk, t + cm_.l1i.missPs(), e, false, true);
  return {cycleOf(ready), levelOf(e)};
}

std::uint64_t PlatformPort::quantumCycles() const {
  const std::uint64_t q = models::ps(tlm::tlm_global_quantum::instance().get());
  return std::max<std::uint64_t>(64, q / period_);
}

void PlatformPort::sync(std::uint64_t cycle) {
  if (cycle <= synced_) return;
  cm_.compute(cycle - synced_);
  synced_ = cycle;
}

}  // namespace socsim::wl::cpu
