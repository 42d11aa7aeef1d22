#include "models/cache/replacement/lru.h"

#include <algorithm>

namespace socsim::models {

int Lru::victim(std::uint32_t set) {
  const auto* s = &stamp_[set * ways_];
  return static_cast<int>(std::min_element(s, s + ways_) - s);
}
void Lru::reset() {
  std::fill(stamp_.begin(), stamp_.end(), 0);
  clock_ = 0;
}
void registerLru() {
  ReplacementFactory::add("lru", [](std::uint32_t sets, int ways, std::uint32_t) {
    return std::make_unique<Lru>(sets, ways);
  });
}

}  // namespace socsim::models
