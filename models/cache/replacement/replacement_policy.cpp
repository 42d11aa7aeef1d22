#include "models/cache/replacement/replacement_policy.h"

#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"

namespace socsim::models {

void registerBuiltinReplacementPolicies() {
  static const bool once = [] {
    registerLru();
    registerPlru();
    registerRandom();
    return true;
  }();
  (void)once;
}

std::unique_ptr<ReplacementPolicy> makeReplacementPolicy(const std::string& name,
                                                         std::uint32_t sets, int ways,
                                                         std::uint32_t seed) {
  registerBuiltinReplacementPolicies();
  return ReplacementFactory::create(name, sets, ways, seed);
}

}  // namespace socsim::models
