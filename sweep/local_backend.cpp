#include "sweep/local_backend.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "common/stop_signal.h"

namespace socsim::sweep {

namespace {

struct Worker {
  pid_t pid = -1;
  int out = -1, err = -1;
  const Point* point = nullptr;
  std::string output, errors;
  std::chrono::steady_clock::time_point start;
  bool timedOut = false;
};

void writeAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t w = write(fd, s.data() + off, s.size() - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    off += static_cast<size_t>(w);
  }
}

/// The last few lines of a worker's stderr, for the failure record.
std::string tail(const std::string& s) {
  std::string t = s.size() > 600 ? "..." + s.substr(s.size() - 600) : s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  for (auto& c : t)
    if (c == '\n') c = ' ';
  return t.empty() ? "" : " [stderr: " + t + "]";
}

[[noreturn]] void childMain(const PointWork& work, const Point& p, int out, int err) {
  resetStopSignalsInChild();
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the sweep
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) dup2(devnull, STDOUT_FILENO);  // SystemC's banner and model chatter
  dup2(err, STDERR_FILENO);
  PointResult r;
  try {
    r = work(p);
  } catch (const std::exception& e) {
    r = PointResult{};
    r.index = p.index;
    r.error = std::string("worker: ") + e.what();
  }
  writeAll(out, encode(r));
  close(out);
  _exit(0);
}

}  // namespace

std::string formatDuration(double s) {
  if (!std::isfinite(s) || s < 0) return "?";
  long t = std::lround(s);
  char buf[32];
  if (s < 10) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t % 3600) / 60);
  else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

RunSummary runLocal(const Spec& spec, const std::vector<Point>& todo,
                    const std::vector<std::vector<wl::Query>>& queries, const LocalOptions& opt,
                    const std::function<void(const PointResult&)>& sink) {
  auto work = [&](const Point& p) {
    auto b = static_cast<size_t>(p.boardIndex);
    return runPoint(spec.boardFiles.at(b), p, queries.at(b));
  };
  return runLocal(todo, work, opt, sink);
}

RunSummary runLocal(const std::vector<Point>& todo, const PointWork& work, const LocalOptions& opt,
                    const std::function<void(const PointResult&)>& sink) {
  using Clock = std::chrono::steady_clock;
  RunSummary sum;
  auto t0 = Clock::now();
  StopSignalGuard stopGuard;
  auto stopped = [] { return StopSignalGuard::stopRequested(); };

  int jobs = std::max(1, opt.jobs);
  size_t next = 0;
  std::vector<Worker> running;
  auto lastDraw = Clock::now() - std::chrono::seconds(10);
  auto draw = [&](bool force) {
    if (!opt.progress) return;
    auto now = Clock::now();
    const bool lines = opt.progressLineSeconds > 0;
    const auto every = lines ? std::chrono::duration<double>(opt.progressLineSeconds)
                             : std::chrono::duration<double>(0.5);
    if (!force && now - lastDraw < every) return;
    lastDraw = now;
    double el = std::chrono::duration<double>(now - t0).count();
    size_t total = todo.size();
    size_t done = static_cast<size_t>(sum.ran);
    const int width = 24;
    int fill = total ? static_cast<int>(width * done / total) : width;
    std::string bar = std::string(static_cast<size_t>(fill), '#') + std::string(static_cast<size_t>(width - fill), '.');
    std::string eta = done ? formatDuration(el / static_cast<double>(done) * static_cast<double>(total - done)) : "?";
    std::fprintf(stderr, "%ssweep [%s] %zu/%zu  ok %d  failed %d  running %zu  %s elapsed  ETA %s%s",
                 lines ? "" : "\r", bar.c_str(), done, total, sum.ok, sum.failed, running.size(),
                 formatDuration(el).c_str(), eta.c_str(), lines ? "\n" : "   ");
    std::fflush(stderr);
  };

  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  while ((next < todo.size() && !stopped()) || !running.empty()) {
    while (!stopped() && next < todo.size() && static_cast<int>(running.size()) < jobs) {
      const Point& p = todo[next++];
      int o[2], e[2];
      if (pipe2(o, O_CLOEXEC) != 0 || pipe2(e, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
      pid_t pid = fork();
      if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
      if (pid == 0) {
        close(o[0]);
        close(e[0]);
        childMain(work, p, o[1], e[1]);
      }
      close(o[1]);
      close(e[1]);
      Worker w;
      w.pid = pid;
      w.out = o[0];
      w.err = e[0];
      w.point = &p;
      w.start = Clock::now();
      running.push_back(std::move(w));
    }
    if (stopped())
      for (auto& w : running) kill(w.pid, SIGKILL);
    draw(false);

    // Wait for output, a finished worker, a timeout or the next progress redraw.
    std::vector<pollfd> pfds;
    for (auto& w : running) {
      pfds.push_back({w.out, POLLIN, 0});
      pfds.push_back({w.err >= 0 ? w.err : -1, POLLIN, 0});
    }
    int waitMs = opt.progress ? 500 : 2000;
    if (opt.timeoutSeconds > 0) {
      for (auto& w : running) {
        double left = opt.timeoutSeconds - std::chrono::duration<double>(Clock::now() - w.start).count();
        waitMs = std::min(waitMs, std::max(0, static_cast<int>(left * 1000) + 1));
      }
    }
    if (!running.empty()) stopGuard.poll(pfds.data(), pfds.size(), waitMs);

    for (size_t i = 0; i < running.size();) {
      Worker& w = running[i];
      char buf[65536];
      bool eof = false;
      if (pfds[2 * i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = read(w.out, buf, sizeof buf);
        if (n > 0) w.output.append(buf, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR) eof = true;
      }
      if (w.err >= 0 && (pfds[2 * i + 1].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = read(w.err, buf, sizeof buf);
        if (n > 0) {
          w.errors.append(buf, static_cast<size_t>(n));
          if (w.errors.size() > 8192) w.errors.erase(0, w.errors.size() - 4096);
        } else if (n == 0 || errno != EINTR) {
          close(w.err);
          w.err = -1;
        }
      }
      if (!eof && opt.timeoutSeconds > 0 && !w.timedOut &&
          std::chrono::duration<double>(Clock::now() - w.start).count() > opt.timeoutSeconds) {
        w.timedOut = true;
        kill(w.pid, SIGKILL);
      }
      if (!eof) {
        ++i;
        continue;
      }
      close(w.out);
      if (w.err >= 0) close(w.err);
      int status = 0;
      while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
      }
      PointResult r;
      bool have = decode(w.output, r) && r.index == w.point->index;
      // A worker the same stop signal killed (Ctrl-C or `timeout` signal the process group)
      // was interrupted, not crashed.
      bool interrupted = StopSignalGuard::stopRequestedOrPending() && !have;
      if (!interrupted) {
        if (!have) {
          r = PointResult{};
          r.index = w.point->index;
          if (w.timedOut)
            r.error = "timeout: no result after " + formatDuration(opt.timeoutSeconds) + " (worker killed)";
          else if (WIFSIGNALED(status))
            r.error = std::string("worker crashed (signal ") + std::to_string(WTERMSIG(status)) + " " +
                      strsignal(WTERMSIG(status)) + ")" + tail(w.errors);
          else
            r.error = "worker exited with status " + std::to_string(WEXITSTATUS(status)) +
                      " without a complete result" + tail(w.errors);
          r.runSeconds = std::chrono::duration<double>(Clock::now() - w.start).count();
        }
        sink(r);
        ++sum.ran;
        (r.ok ? sum.ok : sum.failed)++;
      }
      running.erase(running.begin() + static_cast<long>(i));
      pfds.erase(pfds.begin() + static_cast<long>(2 * i), pfds.begin() + static_cast<long>(2 * i + 2));
      draw(false);
    }
  }
  draw(true);
  if (opt.progress && opt.progressLineSeconds <= 0) std::fprintf(stderr, "\n");
  stopGuard.poll(nullptr, 0, 0);  // takes a stop signal still pending
  sum.interrupted = stopped();
  sum.wallSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return sum;
}

}  // namespace socsim::sweep
