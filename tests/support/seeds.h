#pragma once
/// @file seeds.h
/// @brief Locating ../shared/seeds from tests; tests that need it skip with a clear message
///        when it is absent (a user's clone has none; CI has it).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace socsim::test {

inline std::string seedsDir() {
  if (const char* d = std::getenv("SOCSIM_SEEDS_DIR"); d && *d) return d;
  return SOCSIM_TEST_SEEDS_DIR;
}
inline std::string seedPath(const std::string& name) { return seedsDir() + "/" + name; }
inline bool haveSeeds() { return std::filesystem::exists(seedPath("000_c397333184f33b18.txt")); }

}  // namespace socsim::test

/// Put first in a test body that reads the seeds.
#define SOCSIM_REQUIRE_SEEDS()                                                               \
  do {                                                                                      \
    if (!::socsim::test::haveSeeds())                                                       \
      GTEST_SKIP() << "../shared/seeds not found at " << ::socsim::test::seedsDir()         \
                   << " (set SOCSIM_SEEDS_DIR); skipping a test that reads the TI guides"; \
  } while (0)
