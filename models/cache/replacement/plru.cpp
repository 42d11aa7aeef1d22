#include "models/cache/replacement/plru.h"

#include <algorithm>

namespace socsim::models {

Plru::Plru(std::uint32_t sets, int ways)
    : ways_(ways), tree_((ways & (ways - 1)) == 0), bits_(sets, 0) {}

void Plru::touch(std::uint32_t set, int way) {
  auto& b = bits_[set];
  if (tree_) {
    // Walk from the root; each node bit points toward the less recently used half.
    int node = 1, lo = 0, span = ways_;
    while (span > 1) {
      span /= 2;
      bool right = way >= lo + span;
      if (right) {
        b &= ~(1ull << node);  // point left (away from the touched half)
        lo += span;
        node = node * 2 + 1;
      } else {
        b |= (1ull << node);  // point right
        node = node * 2;
      }
    }
  } else {
    b |= 1ull << way;
    std::uint64_t all = (ways_ >= 64) ? ~0ull : ((1ull << ways_) - 1);
    if ((b & all) == all) b = 1ull << way;
  }
}

int Plru::victim(std::uint32_t set) {
  auto b = bits_[set];
  if (tree_) {
    int node = 1, lo = 0, span = ways_;
    while (span > 1) {
      span /= 2;
      if (b & (1ull << node)) {
        lo += span;
        node = node * 2 + 1;
      } else {
        node = node * 2;
      }
    }
    return lo;
  }
  for (int w = 0; w < ways_; ++w)
    if (!(b & (1ull << w))) return w;
  return 0;
}

void Plru::reset() { std::fill(bits_.begin(), bits_.end(), 0); }

void registerPlru() {
  ReplacementFactory::add("plru", [](std::uint32_t sets, int ways, std::uint32_t) {
    return std::make_unique<Plru>(sets, ways);
  });
}

}  // namespace socsim::models
