#pragma once
/// @file random.h
/// @brief Pseudo-random replacement (xorshift64 with a fixed seed: deterministic).
#include "models/cache/replacement/replacement_policy.h"

namespace socsim::models {

class RandomReplacement : public ReplacementPolicy {
 public:
  RandomReplacement(int ways, std::uint32_t seed) : ways_(ways), seed_(seed | 1u), state_(seed_) {}
  void touch(std::uint32_t, int) override {}
  int victim(std::uint32_t) override {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<int>(state_ % static_cast<std::uint64_t>(ways_));
  }
  void reset() override { state_ = seed_; }

 private:
  int ways_;
  std::uint64_t seed_, state_;
};
void registerRandom();

}  // namespace socsim::models
