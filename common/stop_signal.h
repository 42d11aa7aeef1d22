#pragma once
/// @file stop_signal.h
/// @brief Ctrl-C / SIGTERM as a request to stop a run of forked workers cleanly (keep what
///        finished, stop the rest) instead of killing the process: `validate` and `sweep`'s local
///        backend poll it between worker events.
#include <poll.h>
#include <signal.h>

namespace socsim {

/// While alive (and enabled), SIGINT and SIGTERM set a flag instead of their default action.
/// They are blocked except inside StopSignalGuard::poll (ppoll with the stop signals unblocked),
/// so a stop signal is taken only while the run waits for its workers and that wait returns
/// EINTR at once: one that arrives between a check of stopRequested() and the wait stays
/// pending until the wait instead of being taken just before it (the wait would then block
/// until a worker finished, and a signal during the last wait of a run was lost: session 8's
/// flaky `validate` that exited 0 after SIGTERM). Forked workers inherit the blocked mask until
/// resetStopSignalsInChild. On destruction a stop signal still pending is taken (stopRequested()
/// is true afterwards) and the previous handlers and mask come back. One guard at a time per
/// process.
class StopSignalGuard {
 public:
  explicit StopSignalGuard(bool enable = true);
  ~StopSignalGuard();
  StopSignalGuard(const StopSignalGuard&) = delete;
  StopSignalGuard& operator=(const StopSignalGuard&) = delete;

  /// A stop signal arrived since the guard was created (taken in poll() or the destructor).
  static bool stopRequested();
  /// stopRequested(), or a stop signal is pending (blocked, not yet taken): a worker killed by
  /// the same SIGINT/SIGTERM (a terminal's Ctrl-C or `timeout` signal the whole process group)
  /// was stopped, not crashed.
  static bool stopRequestedOrPending();

  /// poll(2) that takes the stop signals while it waits (ppoll); `timeoutMs` < 0 waits for ever.
  /// A disabled guard is a plain poll.
  int poll(pollfd* fds, nfds_t n, int timeoutMs) const;

 private:
  bool enabled_;
  struct sigaction oldInt_ {};
  struct sigaction oldTerm_ {};
  sigset_t oldMask_ {};
};

/// In a forked worker: SIGINT and SIGTERM back to their default action and unblocked (the
/// parent's guard, handler and blocked mask, is inherited across fork; a stop signal that
/// reached the worker meanwhile stops it now).
void resetStopSignalsInChild();

}  // namespace socsim
