#include "models/cache/replacement/random.h"

namespace socsim::models {

void registerRandom() {
  ReplacementFactory::add("random", [](std::uint32_t, int ways, std::uint32_t seed) {
    return std::make_unique<RandomReplacement>(ways, seed);
  });
}

}  // namespace socsim::models
