#pragma once
/// @file plru.h
/// @brief Pseudo-LRU: binary-tree PLRU for power-of-two associativity, MRU-bit PLRU otherwise.
#include <vector>

#include "models/cache/replacement/replacement_policy.h"

namespace socsim::models {

class Plru : public ReplacementPolicy {
 public:
  Plru(std::uint32_t sets, int ways);
  void touch(std::uint32_t set, int way) override;
  int victim(std::uint32_t set) override;
  void reset() override;

 private:
  int ways_;
  bool tree_;
  std::vector<std::uint64_t> bits_;  ///< per set: tree nodes (tree) or MRU bits
};
void registerPlru();

}  // namespace socsim::models
