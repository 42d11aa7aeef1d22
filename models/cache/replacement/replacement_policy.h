#pragma once
/// @file replacement_policy.h
/// @brief Cache replacement policy interface and its registry ("lru", "plru", "random").
#include <cstdint>
#include <memory>
#include <string>

#include "models/base/factory.h"

namespace socsim::models {

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;
  /// A hit on (set, way).
  virtual void touch(std::uint32_t set, int way) = 0;
  /// A line was just filled into (set, way).
  virtual void insert(std::uint32_t set, int way) { touch(set, way); }
  /// The way to evict from a full set.
  virtual int victim(std::uint32_t set) = 0;
  /// Forget all history (cache flush).
  virtual void reset() = 0;
};

/// Arguments: sets, ways, seed.
using ReplacementFactory = Factory<ReplacementPolicy, std::uint32_t, int, std::uint32_t>;

/// Registers the built-in policies once; safe to call repeatedly.
void registerBuiltinReplacementPolicies();
/// Build the policy named `name`; throws std::invalid_argument listing the known names.
std::unique_ptr<ReplacementPolicy> makeReplacementPolicy(const std::string& name,
                                                         std::uint32_t sets, int ways,
                                                         std::uint32_t seed);

}  // namespace socsim::models
