#include "models/cache/cache.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "models/cpu/core_memory_pages.h"

namespace socsim::models {

namespace {
std::uint64_t partSum(const MemExtension& e) {
  return std::accumulate(e.parts.begin(), e.parts.end(), std::uint64_t{0});
}
int log2Exact(std::uint64_t v, const char* what) {
  if (v == 0 || (v & (v - 1)) != 0)
    throw std::invalid_argument(std::string("cache ") + what + " must be a power of two");
  int s = 0;
  while ((1ull << s) != v) ++s;
  return s;
}
}  // namespace

Cache::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("accesses", "count", "lookups (demand accesses and fills from above)", &accesses);
  counter("hits", "count", "lookups that found the line", &hits);
  counter("misses", "count", "lookups that did not find the line", &misses);
  formula("miss_rate", "ratio", "misses / accesses",
          [this] { return accesses ? static_cast<double>(misses) / accesses : 0.0; });
  counter("writebacks", "count", "dirty lines written to the next level", &writebacks);
  counter("prefetches", "count", "lines fetched by the prefetcher", &prefetches);
  counter("prefetch_hits", "count", "first demand hits on prefetched lines", &prefetchHits);
  counter("mshr_stalls", "count", "misses that waited for a free MSHR", &mshrStalls);
  formula("avg_miss_latency_ns", "ns", "mean time from a miss's arrival to its line being ready",
          [this] { return misses ? missLatencyPs / 1000.0 / misses : 0.0; });
  counter("port_wait_ns", "ns", "time requests waited for the data port", &portWaitNs);
  counter("busy_ns", "ns", "data port occupancy", &busyNs);
  counter("miss_latency_ps", "ps", "sum of miss latencies", &missLatencyPs);
}

Cache::Cache(sc_core::sc_module_name name, const CacheParams& params, double ownerClockMhz,
             Part level)
    : sc_module(name),
      cpu_side("cpu_side"),
      mem_side("mem_side"),
      p_(params),
      level_(level),
      stats_(std::string(this->name())) {
  requirePicosecondResolution();
  double mhz = p_.clock_mhz > 0 ? p_.clock_mhz : ownerClockMhz;
  if (mhz <= 0) throw std::invalid_argument(std::string(this->name()) + ": no clock");
  periodPs_ = models::periodPs(mhz);
  hitPs_ = periodPs_ * static_cast<std::uint64_t>(p_.hit_latency_cycles);
  missPs_ = periodPs_ * static_cast<std::uint64_t>(p_.miss_latency_cycles);
  lineShift_ = log2Exact(static_cast<std::uint64_t>(p_.line_bytes), "line size");
  ways_ = p_.associativity;
  sets_ = p_.sets();
  if (sets_ == 0) throw std::invalid_argument(std::string(this->name()) + ": size < line x ways");
  pow2Sets_ = (sets_ & (sets_ - 1)) == 0;
  exclusive_ = p_.inclusion == "exclusive";
  lines_.resize(sets_ * static_cast<std::uint64_t>(ways_));
  policy_ = makeReplacementPolicy(p_.replacement, static_cast<std::uint32_t>(sets_), ways_,
                                  static_cast<std::uint32_t>(p_.random_seed));
  PrefetchConfig pc;
  pc.degree = p_.prefetch_degree;
  pc.distance = p_.prefetch_distance;
  pc.blocksPerRegion = std::max(1, 4096 / p_.line_bytes);
  prefetcher_ = makePrefetcher(p_.prefetcher, pc);
  prefetchConfig_ = pc;
  ports_.assign(static_cast<std::size_t>(std::max(1, p_.data_banks)), Timeline());
  mshrFree_.assign(static_cast<std::size_t>(std::max(1, p_.mshrs)), 0);
  mshrBlock_.assign(mshrFree_.size(), ~0ull);
  mshrParts_.assign(mshrFree_.size(), PartTimes{});
  mshrBusy_.assign(mshrFree_.size(), {});
  down_.set_extension(&downExt_);
  down_.set_streaming_width(static_cast<unsigned>(p_.line_bytes));
  cpu_side.register_b_transport(this, &Cache::b_transport);
  stats_.formula("size_bytes", "bytes", "configured capacity",
                 [this] { return static_cast<double>(p_.size_bytes); });
}

Cache::~Cache() { down_.clear_extension(&downExt_); }

std::uint64_t Cache::downAddr(std::uint64_t addr) const {
  return xlate_ ? xlate_->translate(addr) : addr;
}

std::uint64_t Cache::validLines() const {
  return static_cast<std::uint64_t>(
      std::count_if(lines_.begin(), lines_.end(), [](const CacheLine& l) { return l.valid; }));
}

void Cache::invalidateAll() {
  for (auto& l : lines_) l = CacheLine{};
  policy_->reset();
  if (prefetcher_) prefetcher_->reset();
  initiatorPrefetchers_.clear();
  std::fill(mshrFree_.begin(), mshrFree_.end(), 0);
  for (auto& b : mshrBusy_) b.clear();
  std::fill(mshrBlock_.begin(), mshrBlock_.end(), ~0ull);
  for (auto& port : ports_) port.clear(nowPs());
  for (auto& port : initiatorPorts_) port.clear(nowPs());
}

void Cache::cleanAll(std::uint64_t issuePs) {
  MemExtension scratch;
  for (auto& l : lines_)
    if (l.valid && l.dirty) {
      writeDown(l.block << lineShift_, static_cast<unsigned>(p_.line_bytes), issuePs, scratch, false);
      l.dirty = false;
      ++stats_.writebacks;
    }
}

std::uint64_t Cache::writeDown(std::uint64_t addr, unsigned bytes, std::uint64_t issuePs,
                               MemExtension& ext, bool noAllocateBelow) {
  down_.set_command(tlm::TLM_WRITE_COMMAND);
  down_.set_address(downAddr(addr));
  down_.set_data_length(bytes);
  down_.set_data_ptr(nullptr);
  down_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  downExt_.clearParts();
  downExt_.prefetch = false;
  downExt_.cleanEviction = false;
  downExt_.noAllocateL2 = noAllocateBelow;
  downExt_.initiator = ext.initiator;
  downExt_.pc = 0;
  sc_core::sc_time d = fromPs(issuePs - nowPs());
  mem_side->b_transport(down_, d);
  for (int i = 0; i < kParts; ++i) ext.parts[i] += downExt_.parts[i];
  return nowPs() + ps(d);
}

CacheLine* Cache::victimFor(std::uint64_t blk, std::uint64_t issuePs, MemExtension& ext,
                            std::uint64_t& wbAccepted) {
  wbAccepted = issuePs;
  std::uint32_t set = setOf(blk);
  CacheLine* base = &lines_[set * static_cast<std::uint64_t>(ways_)];
  int way = -1;
  for (int w = 0; w < ways_; ++w)
    if (!base[w].valid) {
      way = w;
      break;
    }
  if (way < 0) way = policy_->victim(set);
  CacheLine* v = &base[way];
  if (v->valid && (v->dirty || evictClean_)) {
    // Posted write-back: it loads the levels below but is off the requester's critical path
    // (unless it must wait for a slot of a fill/eviction queue shared with the misses).
    int slot = -1;
    if (p_.writes_use_mshrs) issuePs = takeMshr(issuePs, slot);
    down_.set_command(tlm::TLM_WRITE_COMMAND);
    down_.set_address(downAddr(v->block << lineShift_));
    down_.set_data_length(static_cast<unsigned>(p_.line_bytes));
    down_.set_data_ptr(nullptr);
    downExt_.clearParts();
    downExt_.prefetch = false;
    downExt_.noAllocateL2 = false;
    downExt_.cleanEviction = !v->dirty;
    downExt_.initiator = ext.initiator;
    downExt_.pc = 0;
    sc_core::sc_time d = fromPs(issuePs - nowPs());
    mem_side->b_transport(down_, d);
    wbAccepted = nowPs() + ps(d);
    wbParts_ = downExt_.parts;
    if (slot >= 0) {
      const auto si = static_cast<std::size_t>(slot);
      setMshr(si, wbAccepted);
      mshrBlock_[si] = ~0ull;
    }
    downExt_.cleanEviction = false;
    if (v->dirty) ++stats_.writebacks;
  }
  v->valid = false;
  return v;
}

std::uint64_t Cache::fetchLine(std::uint64_t blk, std::uint64_t issuePs, MemExtension& ext,
                               bool dirty, bool fetch, bool prefetch) {
  std::uint64_t wbAccepted;
  CacheLine* v = victimFor(blk, issuePs, ext, wbAccepted);
  std::uint64_t ready = issuePs;
  if (fetch) {
    down_.set_command(tlm::TLM_READ_COMMAND);
    down_.set_address(downAddr(blk << lineShift_));
    down_.set_data_length(static_cast<unsigned>(p_.line_bytes));
    down_.set_data_ptr(nullptr);
    down_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    downExt_.clearParts();
    downExt_.prefetch = prefetch;
    downExt_.noAllocateL2 = false;
    downExt_.cleanEviction = false;
    downExt_.initiator = ext.initiator;
    downExt_.pc = prefetch ? 0 : ext.pc;
    sc_core::sc_time d = fromPs(issuePs - nowPs());
    mem_side->b_transport(down_, d);
    ready = nowPs() + ps(d);
    for (int i = 0; i < kParts; ++i) ext.parts[i] += downExt_.parts[i];
  }
  // The victim buffer must drain before the line can be reused: back-pressure from below,
  // booked to the parts that delayed the write-back.
  if (wbAccepted > ready) {
    const std::uint64_t extra = wbAccepted - ready;
    const std::uint64_t sum = std::accumulate(wbParts_.begin(), wbParts_.end(), std::uint64_t{0});
    if (sum > 0) {
      std::uint64_t booked = 0;
      for (int i = 0; i < kParts; ++i) {
        const auto share = static_cast<std::uint64_t>(
            static_cast<double>(extra) * static_cast<double>(wbParts_[i]) / static_cast<double>(sum));
        ext.parts[i] += share;
        booked += share;
      }
      ext.add(level_, extra - std::min(extra, booked));
    }
    ready = wbAccepted;
  }
  v->block = blk;
  v->valid = true;
  v->dirty = dirty;
  v->prefetched = prefetch;
  v->readyPs = ready;
  std::uint32_t set = setOf(blk);
  policy_->insert(set, static_cast<int>(v - &lines_[set * static_cast<std::uint64_t>(ways_)]));
  return ready;
}

std::uint64_t Cache::mshrFreeAt(std::size_t k, std::uint64_t t) const {
  // Requests arrive out of time order (temporally decoupled initiators): a slot is free at s
  // when none of its recent occupancies covers s, even if it is booked again later.
  std::uint64_t s = t;
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& iv : mshrBusy_[k])
      if (iv.first <= s && s < iv.second) {
        s = iv.second;
        moved = true;
      }
  }
  return s;
}

std::uint64_t Cache::takeMshr(std::uint64_t t, int& slot) {
  std::uint64_t best = ~0ull;
  std::size_t bestK = 0;
  for (std::size_t k = 0; k < mshrBusy_.size() && best != t; ++k) {
    const std::uint64_t s = mshrFreeAt(k, t);
    if (s < best) {
      best = s;
      bestK = k;
    }
  }
  slot = static_cast<int>(bestK);
  if (best > t) ++stats_.mshrStalls;
  auto& busy = mshrBusy_[bestK];
  if (busy.size() >= kMshrHistory) {
    // Forget the occupancy that ended first (the requests it could delay are long past).
    busy.erase(std::min_element(busy.begin(), busy.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    }));
  }
  busy.emplace_back(best, ~0ull);  // open until setMshr closes it
  mshrFree_[bestK] = ~0ull;
  return best;
}

void Cache::setMshr(std::size_t slot, std::uint64_t end) {
  mshrFree_[slot] = end;
  if (!mshrBusy_[slot].empty()) mshrBusy_[slot].back().second = std::max(end, mshrBusy_[slot].back().first);
}

void Cache::bookInFlightWait(std::uint64_t blk, std::uint64_t readyPs, std::uint64_t waitPs,
                             MemExtension& ext) {
  for (std::size_t i = 0; i < mshrFree_.size(); ++i) {
    if (mshrBlock_[i] != blk || mshrFree_[i] != readyPs) continue;
    const auto& parts = mshrParts_[i];
    const std::uint64_t sum = std::accumulate(parts.begin(), parts.end(), std::uint64_t{0});
    if (sum == 0) return;
    for (int k = 0; k < kParts; ++k)
      ext.parts[k] += static_cast<std::uint64_t>(static_cast<double>(waitPs) *
                                                 static_cast<double>(parts[k]) / static_cast<double>(sum));
    return;
  }
}

Prefetcher* Cache::prefetcherFor(int initiator) {
  if (!p_.prefetch_per_initiator || initiator < 0) return prefetcher_.get();
  const auto i = static_cast<std::size_t>(initiator);
  if (i >= initiatorPrefetchers_.size()) initiatorPrefetchers_.resize(i + 1);
  if (!initiatorPrefetchers_[i]) initiatorPrefetchers_[i] = makePrefetcher(p_.prefetcher, prefetchConfig_);
  return initiatorPrefetchers_[i].get();
}

void Cache::runPrefetcher(std::uint64_t blk, bool trigger, std::uint64_t t, std::uint32_t pc,
                          int initiator) {
  if (!prefetcher_) return;
  Prefetcher* pf = prefetcherFor(initiator);
  pfCandidates_.clear();
  pf->observe(blk, trigger, pc, pfCandidates_);
  for (std::uint64_t c : pfCandidates_) {
    if (find(c)) continue;
    std::size_t slot = 0;
    while (slot < mshrBusy_.size() && mshrFreeAt(slot, t) != t) ++slot;
    if (slot == mshrBusy_.size()) {  // no free miss slot: the stream issues it again at its next access
      pf->dropped(c);
      break;
    }
    int taken = 0;
    takeMshr(t, taken);
    slot = static_cast<std::size_t>(taken);
    MemExtension scratch;
    setMshr(slot, fetchLine(c, t, scratch, false, true, true));
    mshrBlock_[slot] = c;
    mshrParts_[slot] = scratch.parts;
    ++stats_.prefetches;
  }
}

void Cache::b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  MemExtension& ext = memExt(p);
  const std::uint64_t t = nowPs() + ps(delay);
  const std::uint64_t addr = p.get_address();
  const unsigned len = p.get_data_length();
  const bool write = p.is_write();
  const std::uint64_t blk = block(addr);
  const std::uint64_t before = partSum(ext);
  const std::uint64_t width = static_cast<std::uint64_t>(p_.data_width_bytes);
  const std::uint64_t occ = (len + width - 1) / width * periodPs_;
  // The requester's own path into this level first (one `data_width_bytes` port per initiator),
  // then the bank's data port shared by all requesters.
  std::uint64_t start = t;
  if (ports_.size() > 1) {
    if (static_cast<std::size_t>(std::max(0, ext.initiator)) >= initiatorPorts_.size())
      initiatorPorts_.resize(static_cast<std::size_t>(std::max(0, ext.initiator)) + 1);
    start = initiatorPorts_[static_cast<std::size_t>(std::max(0, ext.initiator))].reserve(t, occ);
  }
  start = ports_[blk % ports_.size()].reserve(start, occ);
  stats_.portWaitNs += static_cast<double>(start - t) / 1000.0;
  stats_.busyNs += static_cast<double>(occ) / 1000.0;

  CacheLine* pre = find(blk);
  const bool wasPrefetched = pre && pre->prefetched;
  std::uint64_t ready;
  if (!write) {
    CacheLine* l = lookup(blk);
    if (l) {
      ready = std::max(start + hitPs_, l->readyPs);
      if (l->readyPs > start + hitPs_) bookInFlightWait(blk, l->readyPs, l->readyPs - start - hitPs_, ext);
      if (exclusive_ && !l->dirty) l->valid = false;  // the line moves up
    } else {
      int slot;
      std::uint64_t issue = takeMshr(start + missPs_, slot);
      const PartTimes partsBefore = ext.parts;
      if (exclusive_) {
        down_.set_command(tlm::TLM_READ_COMMAND);
        down_.set_address(blk << lineShift_);
        down_.set_data_length(static_cast<unsigned>(p_.line_bytes));
        downExt_.clearParts();
        downExt_.prefetch = ext.prefetch;
        downExt_.initiator = ext.initiator;
        downExt_.pc = ext.pc;
        sc_core::sc_time d = fromPs(issue - nowPs());
        mem_side->b_transport(down_, d);
        ready = nowPs() + ps(d);
        for (int i = 0; i < kParts; ++i) ext.parts[i] += downExt_.parts[i];
      } else {
        ready = fetchLine(blk, issue, ext, false, true);
      }
      const auto si = static_cast<std::size_t>(slot);
      setMshr(si, ready);
      mshrBlock_[si] = blk;
      for (int k = 0; k < kParts; ++k) mshrParts_[si][k] = ext.parts[k] - partsBefore[k];
      stats_.missLatencyPs += static_cast<double>(ready - t);
    }
    runPrefetcher(blk, !l || wasPrefetched, t, ext.pc, ext.initiator);
  } else {
    const bool full = len >= static_cast<unsigned>(p_.line_bytes) &&
                      (addr & static_cast<std::uint64_t>(p_.line_bytes - 1)) == 0;
    CacheLine* l = lookup(blk);
    if (l) {
      if (p_.write_back) {
        l->dirty = l->dirty || !ext.cleanEviction;
        ready = start + hitPs_;
      } else {
        ready = writeDown(addr, len, start + hitPs_, ext, ext.noAllocateL2);
      }
    } else if ((p_.write_allocate && !ext.noAllocateL2) || ext.cleanEviction) {
      const bool dirty = p_.write_back && !ext.cleanEviction;
      if (full) {
        ready = std::max(fetchLine(blk, start + missPs_, ext, dirty, false), start + hitPs_);
      } else {
        int slot;
        std::uint64_t issue = takeMshr(start + missPs_, slot);
        ready = fetchLine(blk, issue, ext, dirty, true);
        setMshr(static_cast<std::size_t>(slot), ready);
        stats_.missLatencyPs += static_cast<double>(ready - t);
      }
      if (!p_.write_back) ready = writeDown(addr, len, ready, ext, false);
    } else if (p_.writes_use_mshrs) {
      int slot;
      const std::uint64_t issue = takeMshr(start + missPs_, slot);
      ready = writeDown(addr, len, issue, ext, ext.noAllocateL2);
      setMshr(static_cast<std::size_t>(slot), ready);
      mshrBlock_[static_cast<std::size_t>(slot)] = ~0ull;
    } else {
      ready = writeDown(addr, len, start + missPs_, ext, ext.noAllocateL2);
    }
  }
  const std::uint64_t below = partSum(ext) - before;
  const std::uint64_t total = ready - t;
  ext.add(level_, total > below ? total - below : 0);
  delay = fromPs(ready - nowPs());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace socsim::models
