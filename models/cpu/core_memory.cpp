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
  combineBytes_ = p.write_combine_bytes > 0
                      ? std::min(lineBytes_, static_cast<std::uint64_t>(p.write_combine_bytes))
                      : lineBytes_;
  lfb_.assign(static_cast<std::size_t>(std::max(1, p.line_fill_buffers)), Slot{});
  sb_.assign(static_cast<std::size_t>(std::max(1, p.store_buffer_entries)), Slot{});
  PrefetchConfig pc;
  pc.degree = p.prefetch_degree;
  pc.distance = p.prefetch_distance;
  pc.streams = p.prefetch_streams;
  pc.blocksPerRegion = std::max(1, static_cast<int>(4096 / lineBytes_));
  pc.maxStride = p.prefetch_max_stride_lines;
  pfb_.assign(static_cast<std::size_t>(std::max(0, p.prefetch_buffers)), Slot{});
  prefetcher_ = makePrefetcher(p.prefetcher, pc);
  ext_.initiator = id;
}

void CoreMemory::setPageMap(const PageMap& map) {
  pages_ = map;
  lastVpn_ = ~0ull;
  const bool mapped = !map.identity();
  l1Physical_ = mapped && l1d.params().indexing == "physical";
  l1d.setDownTranslation(mapped && l1d.params().indexing == "virtual" ? &pages_ : nullptr);
  l1i.setDownTranslation(mapped && l1i.params().indexing == "virtual" ? &pages_ : nullptr);
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

std::uint64_t CoreMemory::missL1(std::uint64_t blk, bool dirty, std::uint32_t pc) {
  Slot& m = freeSlot(lfb_, stats_.lfbStalls);
  ext_.clearParts();
  ext_.initiator = id_;
  ext_.pc = pc;
  const std::uint64_t ready = l1d.fetchLine(blk, t_ + l1d.missPs(), ext_, dirty, true);
  ext_.add(Part::L1, l1d.missPs());
  m.free = ready;
  m.parts = ext_.parts;
  m.block = blk;
  m.prefetch = false;
  l1d.countMissLatency(ready - t_);
  return ready;
}

const CoreMemory::Slot* CoreMemory::fillOf(std::uint64_t blk, std::uint64_t readyPs) const {
  for (const auto* v : {&lfb_, &pfb_})
    for (const auto& s : *v)
      if (s.block == blk && s.free == readyPs) return &s;
  return nullptr;
}

void CoreMemory::prefetch(std::uint64_t blk, bool trigger, std::uint32_t pc) {
  if (!prefetcher_) return;
  pfCandidates_.clear();
  prefetcher_->observe(blk, trigger, pc, pfCandidates_);
  std::vector<Slot>& pool = pfb_.empty() ? lfb_ : pfb_;
  for (std::uint64_t c : pfCandidates_) {
    if (l1d.find(c)) continue;
    auto it = std::min_element(pool.begin(), pool.end(),
                               [](const Slot& a, const Slot& b) { return a.free < b.free; });
    if (it->free > t_) break;  // no free buffer: drop
    MemExtension scratch;
    scratch.initiator = id_;
    it->free = l1d.fetchLine(c, t_ + l1d.missPs(), scratch, false, true, true);
    scratch.add(Part::L1, l1d.missPs());
    it->parts = scratch.parts;
    it->block = c;
    it->prefetch = true;
    ++stats_.prefetches;
  }
}

void CoreMemory::windowWait(unsigned n) {
  const auto w = static_cast<std::uint64_t>(std::max(0, p_.load_window));
  while (pendHead_ < pend_.size()) {
    const Pending& f = pend_[pendHead_];
    if (f.ready <= t_) {
      ++pendHead_;
    } else if (loadIdx_ + n - f.idx > w) {
      stallUntil(f.ready, f.parts);
      ++pendHead_;
    } else {
      break;
    }
  }
  if (pendHead_ == pend_.size()) {
    pend_.clear();
    pendHead_ = 0;
  }
}

void CoreMemory::windowPush(std::uint64_t ready, const PartTimes& parts) {
  if (pendHead_ > 64 && pendHead_ * 2 > pend_.size()) {
    pend_.erase(pend_.begin(), pend_.begin() + static_cast<long>(pendHead_));
    pendHead_ = 0;
  }
  pend_.push_back({loadIdx_, ready, parts});
}

void CoreMemory::loadLine(std::uint64_t addr, unsigned n, bool dependent, std::uint32_t pc) {
  enter();
  stats_.loads += n;
  if (!dependent) {
    windowWait(n);
    advance(loadIssue_ * n);
  }
  loadIdx_ += n;
  const std::uint64_t blk = l1d.block(l1Addr(addr));
  CacheLine* pre = prefetcher_ ? l1d.find(blk) : nullptr;
  const bool wasPrefetched = pre && pre->prefetched;
  CacheLine* l = l1d.lookup(blk);
  if (l) {
    if (l->readyPs > t_ + l1d.hitPs()) {
      // A line still being filled: the wait belongs to its fetch's parts.
      const Slot* fill = fillOf(blk, l->readyPs);
      PartTimes onlyL1{};
      onlyL1[static_cast<int>(Part::L1)] = 1;
      if (dependent)
        stallUntil(l->readyPs, fill ? fill->parts : onlyL1);
      else
        windowPush(l->readyPs, fill ? fill->parts : onlyL1);
    } else if (dependent) {
      PartTimes onlyL1{};
      onlyL1[static_cast<int>(Part::L1)] = 1;
      stallUntil(t_ + l1d.hitPs(), onlyL1);
    }
    if (prefetcher_) prefetch(blk, wasPrefetched, pc);
    return;
  }
  const std::uint64_t ready = missL1(blk, false, pc);
  if (dependent)
    stallUntil(ready, ext_.parts);
  else
    windowPush(ready, ext_.parts);
  if (prefetcher_) prefetch(blk, true, pc);
}

void CoreMemory::flushWriteCombine() {
  if (wcLine_ == ~0ull) return;
  Slot& s = freeSlot(sb_, stats_.storeBufferStalls);
  ext_.clearParts();
  ext_.initiator = id_;
  const bool noAllocL2 = p_.write_streaming &&
                         fullLines_ >= static_cast<std::uint64_t>(p_.write_streaming_l2_threshold_lines);
  // One write spanning the bytes merged (byte strobes select them; the span moves).
  s.free = l1d.writeDown((wcLine_ << l1d.lineShift()) + wcLo_,
                         static_cast<unsigned>(wcHi_ - wcLo_), t_, ext_, noAllocL2);
  s.parts = ext_.parts;
  if (wcBytes_ >= lineBytes_) ++stats_.streamingLines;
  wcLine_ = ~0ull;
  wcBytes_ = 0;
  wcLo_ = wcHi_ = 0;
}

void CoreMemory::storeLine(std::uint64_t addr, unsigned bytes, unsigned n, bool zeroLine) {
  enter();
  stats_.stores += n;
  advance(storeIssue_ * n);
  const std::uint64_t blk = l1d.block(l1Addr(addr));
  const std::uint64_t vblk = addr / lineBytes_;
  // Write-streaming detector: count consecutive lines written completely and in sequence.
  if (addr != runNext_ || vblk != runLine_) {
    const bool continues = addr == runNext_ && (addr & (lineBytes_ - 1)) == 0;
    if (!continues) fullLines_ = 0;
    runLine_ = vblk;
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
    // Write-through hit, or no-allocate miss: merge into the write-combining entry, which
    // holds one line, or one `write_combine_bytes` granule where the write buffer merges less
    // (a store wider than the granule fills several entries).
    const std::uint64_t g = combineBytes_;
    std::uint64_t off = addr & (lineBytes_ - 1);
    std::uint64_t left = bytes;
    while (left > 0) {
      const std::uint64_t len = std::min(left, g - off % g);
      if (wcLine_ != blk || (wcBytes_ > 0 && wcLo_ / g != off / g)) {
        flushWriteCombine();
        wcLine_ = blk;
        wcLo_ = off;
        wcHi_ = off + len;
      }
      wcLo_ = std::min(wcLo_, off);
      wcHi_ = std::max(wcHi_, off + len);
      wcBytes_ += len;
      if (wcBytes_ >= g) flushWriteCombine();
      off += len;
      left -= len;
    }
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
    if (prefetcher_) prefetch(blk, true);  // the L1 prefetcher watches store misses too
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
constexpr std::uint32_t kMemcpyPc = 0x4000;  ///< pcs of the C library's copy loop
}  // namespace

void CoreMemory::load(std::uint64_t addr, unsigned bytes, std::uint32_t pc) {
  if (bytes == 0) bytes = static_cast<unsigned>(p_.max_access_bytes);
  forEachLine(addr, bytes, [this, pc](std::uint64_t a, unsigned) { loadLine(a, 1, false, pc); });
}

void CoreMemory::chase(std::uint64_t addr, std::uint32_t pc) { loadLine(addr, 1, true, pc); }

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
  const auto acc = static_cast<unsigned>(p_.copy_access_bytes);
  memcpy(dst, src, bytes, acc, acc);
}

void CoreMemory::memcpy(std::uint64_t dst, std::uint64_t src, std::uint64_t bytes,
                        unsigned loadBytes, unsigned storeBytes) {
  const auto widest = static_cast<unsigned>(p_.max_access_bytes);
  const unsigned ld = loadBytes > 0 ? loadBytes : widest, st = storeBytes > 0 ? storeBytes : widest;
  const std::uint64_t chunk = static_cast<std::uint64_t>(p_.copy_bytes_per_iteration);
  const std::uint64_t overhead = cycle_ * static_cast<std::uint64_t>(p_.copy_loop_overhead_cycles);
  for (std::uint64_t off = 0; off < bytes; off += chunk) {
    const std::uint64_t c = std::min(chunk, bytes - off);
    // The k-th load instruction of the loop body (pc kMemcpyPc + k) strides by `chunk`.
    std::uint32_t k = 0;
    forEachLine(src + off, c, [&](std::uint64_t a, unsigned len) {
      loadLine(a, slots(len, ld), false, kMemcpyPc + k);
      k += slots(len, ld);
    });
    forEachLine(dst + off, c, [&](std::uint64_t a, unsigned len) { storeLine(a, len, slots(len, st)); });
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
    const Slot* last = nullptr;
    for (const auto& s : *v)
      if (!s.prefetch && (!last || s.free > last->free)) last = &s;
    if (last) stallUntil(last->free, last->parts);
  }
  for (std::size_t i = pendHead_; i < pend_.size(); ++i) stallUntil(pend_[i].ready, pend_[i].parts);
  pend_.clear();
  pendHead_ = 0;
}

void CoreMemory::resetState() {
  l1i.invalidateAll();
  l1d.invalidateAll();
  for (auto& s : lfb_) s = Slot{};
  for (auto& s : sb_) s = Slot{};
  for (auto& s : pfb_) s = Slot{};
  if (prefetcher_) prefetcher_->reset();
  runLine_ = ~0ull;
  runBytes_ = 0;
  runNext_ = 0;
  fullLines_ = 0;
  wcLine_ = ~0ull;
  wcBytes_ = 0;
  wcLo_ = wcHi_ = 0;
  lastVpn_ = ~0ull;
  pend_.clear();
  pendHead_ = 0;
  loadIdx_ = 0;
  t_ = std::max(t_, nowPs());
}

}  // namespace socsim::models
