#include "common/paths.h"

#include <cstdlib>

namespace socsim {
namespace {
std::string fromEnv(const char* name, const char* fallback) {
  if (const char* v = std::getenv(name); v && *v) return v;
  return fallback;
}
}  // namespace

std::string sourceDir() { return fromEnv("SOCSIM_HOME", SOCSIM_SOURCE_DIR); }
std::string configsDir() { return sourceDir() + "/configs"; }
std::string seedsDir() { return fromEnv("SOCSIM_SEEDS_DIR", SOCSIM_SEEDS_DIR); }
std::string version() { return SOCSIM_VERSION; }

}  // namespace socsim
