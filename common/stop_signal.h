#pragma once
/// @file stop_signal.h
/// @brief Ctrl-C / SIGTERM as a request to stop a run of forked workers cleanly (keep what
///        finished, stop the rest) instead of killing the process: `validate` and `sweep`'s local
///        backend poll it between worker events.
#include <signal.h>

namespace socsim {

/// While alive (and enabled), SIGINT and SIGTERM set a flag instead of their default action.
/// The handler is installed without SA_RESTART, so a blocked poll()/read() returns EINTR at once.
/// The previous handlers come back on destruction. One guard at a time per process.
class StopSignalGuard {
 public:
  explicit StopSignalGuard(bool enable = true);
  ~StopSignalGuard();
  StopSignalGuard(const StopSignalGuard&) = delete;
  StopSignalGuard& operator=(const StopSignalGuard&) = delete;

  /// A stop signal arrived since the guard was created.
  static bool stopRequested();

 private:
  bool enabled_;
  struct sigaction oldInt_ {};
  struct sigaction oldTerm_ {};
};

/// In a forked worker: SIGINT and SIGTERM back to their default action (the parent's guard is
/// inherited across fork).
void resetStopSignalsInChild();

}  // namespace socsim
