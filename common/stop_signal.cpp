#include "common/stop_signal.h"

namespace socsim {

namespace {
volatile sig_atomic_t gStop = 0;
extern "C" void onStopSignal(int) { gStop = 1; }
}  // namespace

StopSignalGuard::StopSignalGuard(bool enable) : enabled_(enable) {
  if (!enabled_) return;
  gStop = 0;
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: poll returns EINTR at once
  sigaction(SIGINT, &sa, &oldInt_);
  sigaction(SIGTERM, &sa, &oldTerm_);
}

StopSignalGuard::~StopSignalGuard() {
  if (!enabled_) return;
  sigaction(SIGINT, &oldInt_, nullptr);
  sigaction(SIGTERM, &oldTerm_, nullptr);
}

bool StopSignalGuard::stopRequested() { return gStop != 0; }

void resetStopSignalsInChild() {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

}  // namespace socsim
