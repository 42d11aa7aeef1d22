#include "common/stop_signal.h"

#include <ctime>

namespace socsim {

namespace {
volatile sig_atomic_t gStop = 0;
extern "C" void onStopSignal(int) { gStop = 1; }

sigset_t stopSignals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}
}  // namespace

StopSignalGuard::StopSignalGuard(bool enable) : enabled_(enable) {
  if (!enabled_) return;
  gStop = 0;
  // Block first: from here on a stop signal waits for poll() (or the destructor).
  const sigset_t stop = stopSignals();
  sigprocmask(SIG_BLOCK, &stop, &oldMask_);
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: ppoll returns EINTR at once
  sigaction(SIGINT, &sa, &oldInt_);
  sigaction(SIGTERM, &sa, &oldTerm_);
}

StopSignalGuard::~StopSignalGuard() {
  if (!enabled_) return;
  // Unblock with the handler still in place: a pending stop signal is taken here (gStop).
  sigprocmask(SIG_SETMASK, &oldMask_, nullptr);
  sigaction(SIGINT, &oldInt_, nullptr);
  sigaction(SIGTERM, &oldTerm_, nullptr);
}

bool StopSignalGuard::stopRequested() { return gStop != 0; }

bool StopSignalGuard::stopRequestedOrPending() {
  if (gStop != 0) return true;
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) != 0) return false;
  return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1;
}

int StopSignalGuard::poll(pollfd* fds, nfds_t n, int timeoutMs) const {
  if (!enabled_) return ::poll(fds, n, timeoutMs);
  sigset_t wait = oldMask_;
  sigdelset(&wait, SIGINT);
  sigdelset(&wait, SIGTERM);
  timespec ts{timeoutMs / 1000, static_cast<long>(timeoutMs % 1000) * 1000000L};
  return ::ppoll(fds, n, timeoutMs < 0 ? nullptr : &ts, &wait);
}

void resetStopSignalsInChild() {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  const sigset_t stop = stopSignals();
  sigprocmask(SIG_UNBLOCK, &stop, nullptr);
}

}  // namespace socsim
