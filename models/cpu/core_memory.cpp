#include "models/cpu/core_memory.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace socsim::models {

CoreMemory::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("loads", "count", "load instructions issued", &loads);
  counter("stores", "count", "store instructions issued", &stores);
  counter("lfb_stalls", "count", "misses that waited for a free line-fill buffer", &lfbStalls);
  counter("store_buffer_stalls", "count", "stores that waited for a free store-buffer entry",
          &storeBufferStalls);
  counter("streaming_lines", "count", "lines written without allocation (write streaming)",
          &streamingLines);
  counter("prefetches", "count", "lines fetched by the L1 prefetcher", &prefetches);
  counter("stall_ns", "ns", "time the core waited for memory", &stallNs);
}

CoreMemory::CoreMemory(sc_core::sc_module_name name, const CoreMemoryParams& p,
                       const CacheParams& l1iParams, const CacheParams& l1dParams, double clockMhz,
                       int id)
    : sc_module(name),
      l1i("l1i", l1iParams, clockMhz, Part::L1),
      l1d("l1d", l1dParams, clockMhz, Part::L1),
      p_(p),
      id_(id),
      stats_(std::string(this->name())) {
  cycle_ = periodPs(clockMhz);
  loadIssue_ = cycle_ / static_cast<std::uint64_t>(std::max(1, p.loads_per_cycle));
  storeIssue_ = cycle_ / static_cast<std::uint64_t>(std::max(1, p.stores_per_cycle));
  lineBytes_ = static_cast<std::uint64_t>(l1dParams.line_bytes);
  lfb_.assign(static_cast<std::size_t>(std::max(1, p.line_fill_buffers)), Slot{});
  sb_.assign(static_cast<std::size_t>(std::max(1, p.store_buffer_entries)), Slot{});
  PrefetchConfig pc;
  pc.degree = p.prefetch_degree;
  pc.distance = p.prefetch_distance;
  pc.streams = p.prefetch_streams;
  pc.blocksPerRegion = std::max(1, static_cast<int>(4096 / lineBytes_));
  prefetcher_ = makePrefetcher(p.prefetcher, pc);
  ext_.initiator = id;
}

void CoreMemory::syncNow() {
  qk_.set(fromPs(t_ - nowPs()));
  qk_.sync();
  std::uint64_t q = ps(tlm_utils::tlm_quantumkeeper::get_global_quantum());
  syncAt_ = t_ + std::max<std::uint64_t>(q, 1000);
}

void CoreMemory::begin() {
  enter();
  syncAt_ = t_ + std::max<std::uint64_t>(ps(tlm_utils::tlm_quantumkeeper::get_global_quantum()), 1000);
}

void CoreMemory::stallUntil(std::uint64_t until, const PartTimes& parts) {
  if (until <= t_) return;
  const std::uint64_t dt = until - t_;
  const std::uint64_t total = std::accumulate(parts.begin(), parts.end(), std::uint64_t{0});
  if (total == 0) {
    spent_[static_cast<int>(Part::L1)] += static_cast<double>(dt);
  } else {
    const double k = static_cast<double>(dt) / static_cast<double>(total);
    for (int i = 0; i < kParts; ++i) spent_[i] += k * static_cast<double>(parts[i]);
  }
  stats_.stallNs += static_cast<double>(dt) / 1000.0;
  t_ = until;
  if (t_ >= syncAt_) syncNow();
}

CoreMemory::Slot& CoreMemory::freeSlot(std::vector<Slot>& v, std::uint64_t& stalls) {
  auto it = std::min_element(v.begin(), v.end(),
                             [](const Slot& a, const Slot& b) { return a.free < b.free; });
  if (it->free > t_) {
    ++stalls;
    stallUntil(it->free, it->parts);
  }
  return *it;
}

std::uint64_t CoreMemory::missL1(std::uint64_t blk, bool dirty) {
  Slot& m = freeSlot(lfb_, stats_.lfbStalls);
  ext_.clearParts();
  ext_.initiator = id_;
  const std::uint64_t ready = l1d.fetchLine(blk, t_ + l1d.missPs(), ext_, dirty, true);
  ext_.add(Part::L1, l1d.missPs());
  m.free = ready;
  m.parts = ext_.parts;
  m.block = blk;
  l1d.countMissLatency(ready - t_);
  return ready;
}

void CoreMemory::prefetch(std::uint64_t blk, bool trigger) {
  if (!prefetcher_) return;
  pfCandidates_.clear();
  prefetcher_->observe(blk, trigger, pfCandidates_);
  for (std::uint64_t c : pfCandidates_) {
    if (l1d.find(c)) continue;
    auto it = std::min_element(lfb_.begin(), lfb_.end(),
                               [](const Slot& a, const Slot& b) { return a.free < b.free; });
    if (it->free > t_) break;  // no free line-fill buffer: drop
    MemExtension scratch;
    scratch.initiator = id_;
    it->free = l1d.fetchLine(c, t_ + l1d.missPs(), scratch, false, true, true);
    scratch.add(Part::L1, l1d.missPs());
    it->parts = scratch.parts;
    it->block = c;
    ++stats_.prefetches;
  }
}

void CoreMemory::loadLine(std::uint64_t addr, unsigned n, bool dependent) {
  enter();
  stats_.loads += n;
  if (!dependent) advance(loadIssue_ * n);
  const std::uint64_t blk = l1d.block(addr);
  CacheLine* pre = prefetcher_ ? l1d.find(blk) : nullptr;
  const bool wasPrefetched = pre && pre->prefetched;
  CacheLine* l = l1d.lookup(blk);
  if (l) {
    if (dependent) {
      // A line still being filled: the wait belongs to its fetch's parts.
      const Slot* fill = nullptr;
      if (l->readyPs > t_ + l1d.hitPs())
        for (const auto& s : lfb_)
          if (s.block == blk && s.free == l->readyPs) fill = &s;
      PartTimes onlyL1{};
      onlyL1[static_cast<int>(Part::L1)] = 1;
      stallUntil(std::max(t_ + l1d.hitPs(), l->readyPs), fill ? fill->parts : onlyL1);
    }
    if (prefetcher_) prefetch(blk, wasPrefetched);
    return;
  }
  const std::uint64_t ready = missL1(blk, false);
  if (dependent) stallUntil(ready, ext_.parts);
  if (prefetcher_) prefetch(blk, true);
}

void CoreMemory::flushWriteCombine() {
  if (wcLine_ == ~0ull) return;
  Slot& s = freeSlot(sb_, stats_.storeBufferStalls);
  ext_.clearParts();
  ext_.initiator = id_;
  const bool noAllocL2 = p_.write_streaming &&
                         fullLines_ >= static_cast<std::uint64_t>(p_.write_streaming_l2_threshold_lines);
  s.free = l1d.writeDown(wcLine_ << l1d.lineShift(),
                         static_cast<unsigned>(std::min(wcBytes_, lineBytes_)), t_, ext_, noAllocL2);
  s.parts = ext_.parts;
  if (wcBytes_ >= lineBytes_) ++stats_.streamingLines;
  wcLine_ = ~0ull;
  wcBytes_ = 0;
}

void CoreMemory::storeLine(std::uint64_t addr, unsigned bytes, unsigned n, bool zeroLine) {
  enter();
  stats_.stores += n;
  advance(storeIssue_ * n);
  const std::uint64_t blk = l1d.block(addr);
  // Write-streaming detector: count consecutive lines written completely and in sequence.
  if (addr != runNext_ || blk != runLine_) {
    const bool continues = addr == runNext_ && (addr & (lineBytes_ - 1)) == 0;
    if (!continues) fullLines_ = 0;
    runLine_ = blk;
    runBytes_ = (addr & (lineBytes_ - 1)) == 0 ? 0 : lineBytes_ + 1;  // mid-line start: never full
  }
  const bool wasFull = runBytes_ >= lineBytes_;
  runBytes_ += bytes;
  if (!wasFull && runBytes_ == lineBytes_) ++fullLines_;
  runNext_ = addr + bytes;

  CacheLine* l = l1d.lookup(blk);
  if (l && l1d.params().write_back) {
    l->dirty = true;
    return;
  }
  const bool streaming =
      !l && (!l1d.params().write_allocate ||
             (p_.write_streaming &&
              fullLines_ >= static_cast<std::uint64_t>(p_.write_streaming_threshold_lines)));
  if (l || streaming) {
    // Write-through hit, or no-allocate miss: merge into the write-combining entry.
    if (wcLine_ != blk) {
      flushWriteCombine();
      wcLine_ = blk;
    }
    wcBytes_ += bytes;
    if (wcBytes_ >= lineBytes_) flushWriteCombine();
    return;
  }
  // Write-allocate miss: the store waits in the store buffer for its line.
  Slot& s = freeSlot(sb_, stats_.storeBufferStalls);
  if (zeroLine) {
    ext_.clearParts();
    ext_.initiator = id_;
    s.free = l1d.fetchLine(blk, t_ + l1d.missPs(), ext_, true, false);
    ext_.add(Part::L1, l1d.missPs());
  } else {
    s.free = missL1(blk, true);
  }
  s.parts = ext_.parts;
}

template <class F>
void CoreMemory::forEachLine(std::uint64_t addr, std::uint64_t bytes, F f) {
  while (bytes > 0) {
    std::uint64_t room = lineBytes_ - (addr & (lineBytes_ - 1));
    std::uint64_t len = std::min(room, bytes);
    f(addr, static_cast<unsigned>(len));
    addr += len;
    bytes -= len;
  }
}

namespace {
unsigned slots(unsigned len, unsigned access) { return (len + access - 1) / access; }
}  // namespace

void CoreMemory::load(std::uint64_t addr, unsigned bytes) {
  if (bytes == 0) bytes = static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [this](std::uint64_t a, unsigned) { loadLine(a, 1, false); });
}

void CoreMemory::chase(std::uint64_t addr) { loadLine(addr, 1, true); }

void CoreMemory::store(std::uint64_t addr, unsigned bytes) {
  if (bytes == 0) bytes = static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [this](std::uint64_t a, unsigned len) { storeLine(a, len, 1); });
}

void CoreMemory::readStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes) {
  const unsigned acc = accessBytes ? accessBytes : static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [&](std::uint64_t a, unsigned len) { loadLine(a, slots(len, acc), false); });
}

void CoreMemory::writeStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes) {
  const unsigned acc = accessBytes ? accessBytes : static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [&](std::uint64_t a, unsigned len) { storeLine(a, len, slots(len, acc)); });
}

void CoreMemory::readWriteStream(std::uint64_t addr, std::uint64_t bytes, unsigned accessBytes) {
  const unsigned acc = accessBytes ? accessBytes : static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [&](std::uint64_t a, unsigned len) {
    loadLine(a, slots(len, acc), false);
    storeLine(a, len, slots(len, acc));
  });
}

void CoreMemory::copyLoop(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes,
                          unsigned accessBytes) {
  const unsigned acc = accessBytes ? accessBytes : static_cast<unsigned>(p_.max_access_bytes);
  std::uint64_t done = 0;
  while (done < bytes) {
    // Advance by the shorter of the remaining source and destination line segments.
    std::uint64_t s = src + done, d = dst + done;
    std::uint64_t len = std::min({lineBytes_ - (s & (lineBytes_ - 1)),
                                  lineBytes_ - (d & (lineBytes_ - 1)), bytes - done});
    loadLine(s, slots(static_cast<unsigned>(len), acc), false);
    storeLine(d, static_cast<unsigned>(len), slots(static_cast<unsigned>(len), acc));
    done += len;
  }
}

void CoreMemory::memcpy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes) {
  const unsigned acc = static_cast<unsigned>(p_.max_access_bytes);
  const std::uint64_t chunk = static_cast<std::uint64_t>(p_.copy_bytes_per_iteration);
  const std::uint64_t overhead = cycle_ * static_cast<std::uint64_t>(p_.copy_loop_overhead_cycles);
  for (std::uint64_t off = 0; off < bytes; off += chunk) {
    const std::uint64_t c = std::min(chunk, bytes - off);
    forEachLine(src + off, c, [&](std::uint64_t a, unsigned len) { loadLine(a, slots(len, acc), false); });
    forEachLine(dst + off, c, [&](std::uint64_t a, unsigned len) { storeLine(a, len, slots(len, acc)); });
    if (overhead) advance(overhead);
  }
}

void CoreMemory::memzero(std::uint64_t addr, std::uint64_t bytes) {
  const std::uint64_t chunk = static_cast<std::uint64_t>(p_.copy_bytes_per_iteration);
  const std::uint64_t overhead = cycle_ * static_cast<std::uint64_t>(p_.copy_loop_overhead_cycles);
  if (p_.zero_idiom == "dc_zva") {
    // DC ZVA zeroes a whole line per instruction, without reading it.
    forEachLine(addr, bytes, [&](std::uint64_t a, unsigned len) {
      storeLine(a, len, 1, len == lineBytes_);
      if (overhead) advance(overhead);
    });
    return;
  }
  const unsigned acc = static_cast<unsigned>(p_.max_access_bytes);
  for (std::uint64_t off = 0; off < bytes; off += chunk) {
    const std::uint64_t c = std::min(chunk, bytes - off);
    forEachLine(addr + off, c, [&](std::uint64_t a, unsigned len) { storeLine(a, len, slots(len, acc)); });
    if (overhead) advance(overhead);
  }
}

void CoreMemory::compute(std::uint64_t cycles) {
  enter();
  advance(cycles * cycle_);
}

void CoreMemory::fence() {
  enter();
  flushWriteCombine();
  for (auto* v : {&lfb_, &sb_}) {
    auto it = std::max_element(v->begin(), v->end(),
                               [](const Slot& a, const Slot& b) { return a.free < b.free; });
    stallUntil(it->free, it->parts);
  }
}

void CoreMemory::resetState() {
  l1i.invalidateAll();
  l1d.invalidateAll();
  for (auto& s : lfb_) s = Slot{};
  for (auto& s : sb_) s = Slot{};
  if (prefetcher_) prefetcher_->reset();
  runLine_ = ~0ull;
  runBytes_ = 0;
  runNext_ = 0;
  fullLines_ = 0;
  wcLine_ = ~0ull;
  wcBytes_ = 0;
  t_ = std::max(t_, nowPs());
}

}  // namespace socsim::models
