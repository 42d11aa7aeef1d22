#include "models/cache/prefetcher/prefetcher.h"

#include <algorithm>

namespace socsim::models {

void NextLinePrefetcher::observe(std::uint64_t block, bool trigger, std::vector<std::uint64_t>& out) {
  if (!trigger) return;
  const auto per = static_cast<std::uint64_t>(c_.blocksPerRegion);
  for (int i = 0; i < c_.degree; ++i) {
    const std::uint64_t b = block + static_cast<std::uint64_t>(c_.distance + i);
    if (b / per == block / per) out.push_back(b);  // never across a page boundary
  }
}

void StridePrefetcher::observe(std::uint64_t block, bool, std::vector<std::uint64_t>& out) {
  std::uint64_t region = block / static_cast<std::uint64_t>(c_.blocksPerRegion);
  ++clock_;
  // A stream may cross into the next region: match the region or its neighbours.
  Entry* e = nullptr;
  for (auto& x : table_)
    if (x.region == region || x.region + 1 == region || x.region == region + 1) {
      if (!e || x.lru > e->lru) e = &x;
    }
  if (!e) {
    e = &*std::min_element(table_.begin(), table_.end(),
                           [](const Entry& a, const Entry& b) { return a.lru < b.lru; });
    *e = Entry{region, block, clock_, 0, 0, false, 0};
    return;
  }
  std::int64_t stride = static_cast<std::int64_t>(block) - static_cast<std::int64_t>(e->last);
  if (stride == 0) {
    e->lru = clock_;
    return;
  }
  if (c_.maxStride > 0 && (stride > c_.maxStride || stride < -c_.maxStride)) {
    // Beyond the detector's reach: restart training at this block.
    e->stride = 0;
    e->confidence = 0;
    e->last = block;
    e->region = region;
    e->lru = clock_;
    return;
  }
  if (stride == e->stride) {
    e->confidence = std::min(e->confidence + 1, 3);
  } else {
    e->stride = stride;
    e->confidence = 0;
  }
  e->last = block;
  e->region = region;
  e->lru = clock_;
  lastEmitter_ = nullptr;
  if (e->confidence >= 1) {
    const auto per = static_cast<std::uint64_t>(c_.blocksPerRegion);
    // Physical addresses: the next page's frame is unknown, so never prefetch across a page.
    auto inPage = [&](std::int64_t b) {
      return b >= 0 && static_cast<std::uint64_t>(b) / per == region;
    };
    // Candidates are block + k * stride for k in [from, distance + degree): counted in strides,
    // so the loop ends whatever the stride.
    std::int64_t from = c_.distance;
    if (e->pending) {
      // Resume at the first dropped candidate if it is still ahead of the demand stream and
      // one of this stride's candidates: one dropped before the stream retrained to another
      // stride is no longer on the way (and stepping from it would never reach the last one).
      const auto r = static_cast<std::int64_t>(e->resume);
      const std::int64_t gap = r - static_cast<std::int64_t>(block);
      const std::int64_t ahead = gap / e->stride;
      if (gap % e->stride == 0 && ahead > 0 && ahead < c_.distance && inPage(r)) from = ahead;
      e->pending = false;
    }
    for (std::int64_t k = from; k < c_.distance + c_.degree; ++k) {
      const std::int64_t b = static_cast<std::int64_t>(block) + e->stride * k;
      if (inPage(b)) out.push_back(static_cast<std::uint64_t>(b));
    }
    lastEmitter_ = e;
  }
}

void StridePrefetcher::dropped(std::uint64_t block) {
  if (!lastEmitter_) return;
  lastEmitter_->pending = true;
  lastEmitter_->resume = block;
}

void PcStridePrefetcher::observe(std::uint64_t block, bool, std::uint32_t pc,
                                 std::vector<std::uint64_t>& out) {
  if (pc == 0) return;
  ++clock_;
  Entry* e = nullptr;
  for (auto& x : table_)
    if (x.pc == pc) e = &x;
  if (!e) {
    e = &*std::min_element(table_.begin(), table_.end(),
                           [](const Entry& a, const Entry& b) { return a.lru < b.lru; });
    *e = Entry{pc, block, clock_, 0, 0};
    return;
  }
  e->lru = clock_;
  const std::int64_t stride = static_cast<std::int64_t>(block) - static_cast<std::int64_t>(e->last);
  if (stride == 0) return;
  e->last = block;
  if (stride == e->stride) {
    e->confidence = std::min(e->confidence + 1, 3);
  } else {
    e->stride = stride;
    e->confidence = 0;
    return;
  }
  const auto per = static_cast<std::uint64_t>(c_.blocksPerRegion);
  for (int i = 0; i < c_.degree; ++i) {
    const std::int64_t b = static_cast<std::int64_t>(block) + e->stride * (c_.distance + i);
    if (b >= 0 && static_cast<std::uint64_t>(b) / per == block / per) out.push_back(static_cast<std::uint64_t>(b));
  }
}

void PcStridePrefetcher::reset() {
  for (auto& e : table_) e = Entry{};
  clock_ = 0;
}

void StridePrefetcher::reset() {
  for (auto& e : table_) e = Entry{};
  clock_ = 0;
  lastEmitter_ = nullptr;
}

void registerBuiltinPrefetchers() {
  static const bool once = [] {
    PrefetcherFactory::add("next_line", [](const PrefetchConfig& c) {
      return std::unique_ptr<Prefetcher>(new NextLinePrefetcher(c));
    });
    PrefetcherFactory::add("stride", [](const PrefetchConfig& c) {
      return std::unique_ptr<Prefetcher>(new StridePrefetcher(c));
    });
    PrefetcherFactory::add("pc_stride", [](const PrefetchConfig& c) {
      return std::unique_ptr<Prefetcher>(new PcStridePrefetcher(c));
    });
    PrefetcherFactory::add("none", [](const PrefetchConfig&) { return std::unique_ptr<Prefetcher>(); });
    return true;
  }();
  (void)once;
}

std::unique_ptr<Prefetcher> makePrefetcher(const std::string& name, const PrefetchConfig& c) {
  registerBuiltinPrefetchers();
  return PrefetcherFactory::create(name, c);
}

}  // namespace socsim::models
