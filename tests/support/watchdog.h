#pragma once
/// @file watchdog.h
/// @brief Fail a test fast when the model under test stops making progress.
#include <unistd.h>

namespace socsim::test {

/// Ends the process (SIGALRM) when the scope runs longer than `seconds`, so a model stuck in a
/// loop fails its test at once (ctest runs each test in its own process) instead of at ctest's
/// 600 s timeout. Inside runInChild it ends the child only: the parent gets no text back.
class Watchdog {
 public:
  explicit Watchdog(unsigned seconds) { alarm(seconds); }
  ~Watchdog() { alarm(0); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
};

}  // namespace socsim::test
