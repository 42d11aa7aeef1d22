#pragma once
/// @file lru.h
/// @brief True LRU: per-line access stamps, the oldest stamp is the victim.
#include <vector>

#include "models/cache/replacement/replacement_policy.h"

namespace socsim::models {

class Lru : public ReplacementPolicy {
 public:
  Lru(std::uint32_t sets, int ways) : ways_(ways), stamp_(static_cast<std::size_t>(sets) * ways, 0) {}
  void touch(std::uint32_t set, int way) override { stamp_[set * ways_ + way] = ++clock_; }
  int victim(std::uint32_t set) override;
  void reset() override;

 private:
  int ways_;
  std::uint64_t clock_ = 0;
  std::vector<std::uint64_t> stamp_;
};
void registerLru();

}  // namespace socsim::models
