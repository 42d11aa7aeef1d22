#include "validation/validate.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "calibration/dataset/csv_number.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/input_file.h"
#include "common/stop_signal.h"
#include "common/format.h"

namespace socsim::validation {

namespace {

/// Flag kinds (the part before ':') that exclude a row from the error statistics, with the
/// reason printed in `status`. Every flag the ingest writes describes a value that is not a
/// clean measurement of what its name says; such values are shown but not scored.
struct PolicyEntry {
  const char* flag;
  const char* what;
};
const PolicyEntry kPolicy[] = {
    {"zero-rate", "a rate of 0.00: a failed run, not a measurement"},
    {"min-zero", "an average that includes a failed run (min 0.00): biased low"},
    {"zero-not-measured", "0.00 printed where nothing was measured"},
    {"zero-time", "a time of 0.00: below the timer's resolution"},
    {"zero-load", "a CPU load of 0.00 beside a non-zero rate: not a measurement"},
    {"duplicate-value", "the same number as an unrelated row: suspected copy/paste"},
    {"outlier",
     "physically impossible by a written ingest rule (calibration/ingest/normalize.h: e.g. above "
     "the line rate or the memory bandwidth, an openssl call time that does not grow with the "
     "buffer, an IPSec run's CPU per byte far above the same board's cheapest run) or orders of "
     "magnitude away from the same metric elsewhere"},
    {"unattributed",
     "the value cannot be tied to a board or metric; a value without a board is not predicted "
     "either (status not-modelled, board '(none)' in the summaries: no board to run)"},
    {"suspect-attribution", "the board column of the value is doubtful (left-packed table)"},
    {"alias-of", "the same number under another name: scored once, under the other name"},
    {"mixed-minmax", "the printed average mixes two LMBench sub-tests"},
    {"half-latency", "latency_for_1.00_mb is the mean of 0 and the real latency"},
};

std::string flagKind(const std::string& flag) {
  auto colon = flag.find(':');
  return colon == std::string::npos ? flag : flag.substr(0, colon);
}

// ---- worker protocol: one line per query: kind \t value \t lo \t hi \t echo \t reason ----
std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\t') c = ' ';
  return s;
}

std::string encode(const std::vector<QueryResult>& res) {
  std::string out;
  for (const auto& r : res) {
    const std::string reason = oneLine(r.reason);
    char buf[128];
    std::snprintf(buf, sizeof buf, "%d\t%.17g\t", static_cast<int>(r.kind), r.value);
    out += buf;
    out += (r.lo ? formatNumber(*r.lo) : "") + "\t" + (r.hi ? formatNumber(*r.hi) : "") + "\t";
    out += oneLine(r.configEcho) + "\t" + reason + "\n";
  }
  return out;
}

bool decode(const std::string& text, size_t expected, std::vector<QueryResult>& out) {
  std::istringstream is(text);
  std::string line;
  while (std::getline(is, line)) {
    QueryResult r;
    std::vector<std::string> f;
    size_t start = 0;
    for (int i = 0; i < 5; ++i) {
      size_t tab = line.find('\t', start);
      if (tab == std::string::npos) return false;
      f.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    f.push_back(line.substr(start));
    r.kind = static_cast<QueryResult::Kind>(std::atoi(f[0].c_str()));
    r.value = std::strtod(f[1].c_str(), nullptr);
    if (!f[2].empty()) r.lo = std::strtod(f[2].c_str(), nullptr);
    if (!f[3].empty()) r.hi = std::strtod(f[3].c_str(), nullptr);
    r.configEcho = f[4];
    r.reason = f[5];
    out.push_back(std::move(r));
  }
  return out.size() == expected;
}

std::vector<QueryResult> failAll(size_t n, const std::string& why) {
  std::vector<QueryResult> v(n);
  for (auto& r : v) {
    r.kind = QueryResult::Kind::Failed;
    r.reason = why;
  }
  return v;
}

std::vector<QueryResult> runGuarded(const BoardRunner& runner, const std::string& board,
                                    const std::vector<wl::Query>& qs) {
  try {
    auto res = runner(board, qs);
    if (res.size() != qs.size()) return failAll(qs.size(), "internal: result count mismatch");
    return res;
  } catch (const std::exception& e) {
    return failAll(qs.size(), std::string("error: ") + e.what());
  }
}

struct Worker {
  pid_t pid = -1;
  int fd = -1;
  std::string board;
  std::string output;
};

}  // namespace

std::optional<std::string> exclusionReason(const calib::MeasuredRow& row) {
  if (row.flag.empty()) return std::nullopt;
  std::string flags = row.flag;
  size_t start = 0;
  while (start < flags.size()) {
    size_t end = flags.find(';', start);
    if (end == std::string::npos) end = flags.size();
    std::string kind = flagKind(flags.substr(start, end - start));
    for (const auto& p : kPolicy)
      if (kind == p.flag) return kind;
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> scoringExclusion(const calib::MeasuredRow& row, double predicted,
                                            const std::string& configEcho) {
  if (auto ex = exclusionReason(row)) return ex;
  if (!std::isfinite(signedError(errorKindFor(row.unit), row.value, predicted)))
    return std::string("zero-measured");
  if (!configEcho.empty()) return std::string("config-echo");
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> exclusionPolicy() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : kPolicy) out.emplace_back(p.flag, p.what);
  return out;
}

std::string exclusionPolicyText() {
  std::string s = "Measured rows flagged as follows are predicted and printed but not scored:\n";
  for (const auto& p : kPolicy) s += std::string("  ") + p.flag + ": " + p.what + "\n";
  s += "Rows with other flags are scored.\n";
  s += "Rows whose prediction restates a configured fact (an ALSA stream's requested bit rate, a "
       "display mode's refresh rate, a cpufreq clock) are printed but not scored either: "
       "excluded:config-echo.\n";
  return s;
}

std::vector<ValidationRow> validate(const std::vector<calib::MeasuredRow>& rows,
                                    const BoardRunner& runner, const ValidateOptions& opt) {
  // Group rows by board, keeping document order within each board.
  std::vector<std::string> boards;
  std::map<std::string, std::vector<size_t>> byBoard;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!byBoard.count(rows[i].board)) boards.push_back(rows[i].board);
    byBoard[rows[i].board].push_back(i);
  }
  std::vector<QueryResult> results(rows.size());
  auto queriesOf = [&](const std::string& b) {
    std::vector<wl::Query> qs;
    for (size_t i : byBoard[b])
      qs.push_back({rows[i].family, rows[i].benchmark, rows[i].metric, rows[i].params, rows[i].unit,
                    rows[i].source});
    return qs;
  };
  auto store = [&](const std::string& b, const std::vector<QueryResult>& res) {
    const auto& idx = byBoard[b];
    for (size_t k = 0; k < idx.size(); ++k) results[idx[k]] = res[k];
  };
  size_t done = 0;
  const auto started = std::chrono::steady_clock::now();
  auto lastLine = started;
  auto report = [&](const std::string& b) {
    ++done;
    if (!opt.progress) return;
    const auto now = std::chrono::steady_clock::now();
    const bool edge = done == 1 || done == boards.size();
    if (!edge && std::chrono::duration<double>(now - lastLine).count() < opt.progressIntervalSeconds)
      return;
    lastLine = now;
    std::cerr << "validate: [" << done << "/" << boards.size() << "] "
              << (b.empty() ? calib::kNoBoardLabel : b.c_str()) << ": " << byBoard[b].size() << " rows";
    if (opt.progressIntervalSeconds > 0)
      std::cerr << ", " << static_cast<long>(std::chrono::duration<double>(now - started).count())
                << " s";
    std::cerr << "\n" << std::flush;
  };
  // Forked workers with a caller that wants to know: Ctrl-C / SIGTERM stop the run from here on
  // (the start line below is printed with the guard in place).
  StopSignalGuard guard(opt.isolate && opt.interrupted != nullptr);
  if (opt.progress && opt.progressIntervalSeconds > 0 && !boards.empty())
    std::cerr << "validate: " << rows.size() << " rows on " << boards.size()
              << (boards.size() == 1 ? " board, " : " boards, ")
              << (opt.isolate ? std::min(static_cast<size_t>(std::max(1, opt.jobs)), boards.size()) : 1)
              << " at a time\n" << std::flush;

  if (!opt.isolate) {
    for (const auto& b : boards) {
      store(b, runGuarded(runner, b, queriesOf(b)));
      report(b);
    }
  } else {
    std::cout.flush();
    std::cerr.flush();
    size_t next = 0;
    std::vector<Worker> running;
    int jobs = std::max(1, opt.jobs);
    while (next < boards.size() || !running.empty()) {
      if (opt.interrupted && StopSignalGuard::stopRequested()) {
        // Keep what finished; stop the workers and report the rest as interrupted.
        for (auto& w : running) {
          kill(w.pid, SIGKILL);
          close(w.fd);
          waitpid(w.pid, nullptr, 0);
          store(w.board, failAll(byBoard[w.board].size(), "interrupted"));
        }
        running.clear();
        for (; next < boards.size(); ++next)
          store(boards[next], failAll(byBoard[boards[next]].size(), "interrupted"));
        *opt.interrupted = true;
        break;
      }
      while (next < boards.size() && static_cast<int>(running.size()) < jobs) {
        const std::string& b = boards[next++];
        int fds[2];
        if (pipe(fds) != 0) {
          store(b, failAll(byBoard[b].size(), "failed to create pipe"));
          report(b);
          continue;
        }
        const pid_t parent = getpid();
        pid_t pid = fork();
        if (pid == 0) {
          // A worker dies with its parent (killing `socsim calibrate` or `validate` must not
          // leave workers behind); the getppid check covers a parent that died before prctl.
          prctl(PR_SET_PDEATHSIG, SIGKILL);
          if (getppid() != parent) _exit(1);
          resetStopSignalsInChild();
          close(fds[0]);
          // The worker writes results only to the pipe; SystemC's banner and any model chatter
          // must not reach the parent's stdout.
          FILE* devnull = std::fopen("/dev/null", "w");
          if (devnull) dup2(fileno(devnull), STDOUT_FILENO);
          std::string out = encode(runGuarded(runner, b, queriesOf(b)));
          size_t off = 0;
          while (off < out.size()) {
            ssize_t w = write(fds[1], out.data() + off, out.size() - off);
            if (w <= 0) break;
            off += static_cast<size_t>(w);
          }
          close(fds[1]);
          _exit(0);
        }
        close(fds[1]);
        if (pid < 0) {
          close(fds[0]);
          store(b, failAll(byBoard[b].size(), "failed to fork a worker"));
          report(b);
          continue;
        }
        running.push_back({pid, fds[0], b, {}});
      }
      // Drain pipes until one worker finishes.
      std::vector<pollfd> pfds;
      for (auto& w : running) pfds.push_back({w.fd, POLLIN, 0});
      // The stop signals are taken only inside this wait (StopSignalGuard::poll): one that
      // arrives after the check above returns it at once with EINTR.
      if (guard.poll(pfds.data(), pfds.size(), -1) < 0) continue;
      for (size_t i = 0; i < running.size();) {
        auto& w = running[i];
        bool finished = false;
        if (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
          char buf[65536];
          ssize_t n = read(w.fd, buf, sizeof buf);
          if (n > 0) w.output.append(buf, static_cast<size_t>(n));
          else finished = true;
        }
        if (!finished) {
          ++i;
          continue;
        }
        close(w.fd);
        int status = 0;
        waitpid(w.pid, &status, 0);
        std::vector<QueryResult> res;
        size_t n = byBoard[w.board].size();
        if (WIFSIGNALED(status) && opt.interrupted &&
            (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM) &&
            StopSignalGuard::stopRequestedOrPending()) {
          // The same Ctrl-C or SIGTERM stopped the worker (a terminal or `timeout` signals the
          // whole process group): interrupted, not crashed.
          res = failAll(n, "interrupted");
        } else if (WIFSIGNALED(status)) {
          res = failAll(n, std::string("worker crashed (signal ") + std::to_string(WTERMSIG(status)) +
                               " " + strsignal(WTERMSIG(status)) + ")");
        } else if (!decode(w.output, n, res)) {
          res = failAll(n, "worker returned incomplete results");
        }
        store(w.board, res);
        report(w.board);
        running.erase(running.begin() + static_cast<long>(i));
        pfds.erase(pfds.begin() + static_cast<long>(i));
      }
    }
    // A stop signal during the last wait, or still pending when the last worker finished: every
    // row is in, but the run was asked to stop (exit 130, nothing lost).
    if (opt.interrupted) {
      guard.poll(nullptr, 0, 0);  // takes a pending stop signal
      if (StopSignalGuard::stopRequested()) *opt.interrupted = true;
    }
  }

  std::vector<ValidationRow> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ValidationRow v;
    v.measured = rows[i];
    v.errorKind = errorKindFor(rows[i].unit);
    const auto& r = results[i];
    switch (r.kind) {
      case QueryResult::Kind::Failed:
        v.status = "failed:" + r.reason;
        v.note = r.reason;
        break;
      case QueryResult::Kind::NotModelled:
        v.status = "not-modelled";
        v.note = r.reason;
        break;
      case QueryResult::Kind::Ok: {
        v.predicted = r.value;
        v.lo = r.lo;
        v.hi = r.hi;
        v.error = signedError(v.errorKind, rows[i].value, r.value);
        auto ex = scoringExclusion(rows[i], r.value, r.configEcho);
        if (ex == std::optional<std::string>("config-echo"))
          v.note = "the prediction restates " + r.configEcho;
        v.status = ex ? "excluded:" + *ex : "ok";
        break;
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

const std::vector<std::string>& validateCsvHeader() {
  static const std::vector<std::string> h = {
      "board",     "family", "benchmark",  "metric", "params", "unit", "measured",
      "predicted", "error",  "error_kind", "status", "split", "lo", "hi"};
  return h;
}

std::vector<std::string> toCsvFields(const ValidationRow& r) {
  const auto& m = r.measured;
  bool hasErr = r.predicted && std::isfinite(r.error);
  return {m.board,
          m.family,
          m.benchmark,
          m.metric,
          m.params,
          m.unit,
          formatNumber(m.value),
          formatResult(r.predicted),
          hasErr ? formatResult(r.error) : "",
          errorKindName(r.errorKind),
          r.status,
          r.split,
          formatResult(r.lo),
          formatResult(r.hi)};
}

std::vector<ValidationRow> readValidateCsv(const std::string& path) {
  std::string text = readInputFile(path, "validate CSV", std::size_t{1} << 30);
  std::vector<int> lines;
  auto recs = csv::parse(text, path, &lines);
  const auto& header = validateCsvHeader();
  if (recs.empty() || recs[0] != header) {
    std::string expect;
    for (const auto& h : header) expect += (expect.empty() ? "" : ",") + h;
    throw InputError(path, 1, "",
                     "not a socsim validate CSV: expected the header '" + expect + "'");
  }
  auto number = [&](const std::string& s, int line, const char* col) {
    return calib::parseCsvNumber(s, path, line, col);
  };
  std::vector<ValidationRow> out;
  for (size_t i = 1; i < recs.size(); ++i) {
    const auto& f = recs[i];
    int line = lines[i];
    if (f.size() != header.size())
      throw InputError(path, line, "",
                       "expected " + std::to_string(header.size()) + " fields, got " +
                           std::to_string(f.size()));
    ValidationRow r;
    auto& m = r.measured;
    // The row identity: the CSV's first six columns, in validateCsvHeader() order.
    using M = calib::MeasuredRow;
    static std::string M::*const kIdentity[] = {&M::board,  &M::family, &M::benchmark,
                                                &M::metric, &M::params, &M::unit};
    for (size_t c = 0; c < std::size(kIdentity); ++c) m.*kIdentity[c] = f[c];
    auto v = number(f[6], line, "measured");
    if (!v) throw InputError(path, line, "measured", "missing measured value");
    m.value = *v;
    r.predicted = number(f[7], line, "predicted");
    r.error = number(f[8], line, "error").value_or(r.predicted ? std::nan("") : 0.0);
    if (f[9] == errorKindName(ErrorKind::Relative))
      r.errorKind = ErrorKind::Relative;
    else if (f[9] == errorKindName(ErrorKind::PercentagePoints))
      r.errorKind = ErrorKind::PercentagePoints;
    else
      throw InputError(path, line, "error_kind", "expected rel or pp, got '" + f[9] + "'");
    r.status = f[10];
    r.split = f[11];
    r.lo = number(f[12], line, "lo");
    r.hi = number(f[13], line, "hi");
    out.push_back(std::move(r));
  }
  return out;
}

Summary summarize(const std::vector<ValidationRow>& rows) {
  struct Acc {
    GroupSummary g;
    std::vector<double> rel, pp;
  };
  Acc total;
  std::map<std::string, Acc> fam, brd;
  auto add = [](Acc& a, const ValidationRow& r) {
    a.g.measured++;
    if (r.predicted) a.g.predicted++;
    if (r.status == "ok") {
      a.g.counted++;
      (r.errorKind == ErrorKind::Relative ? a.rel : a.pp).push_back(std::fabs(r.error));
    } else if (r.status.rfind("excluded", 0) == 0) {
      a.g.excluded++;
    } else if (r.status == "not-modelled") {
      a.g.notModelled++;
    } else {
      a.g.failed++;
    }
  };
  for (const auto& r : rows) {
    add(total, r);
    add(fam[r.measured.family], r);
    add(brd[r.measured.boardLabel()], r);
  }
  auto finish = [](Acc& a, const std::string& name) {
    a.g.name = name;
    a.g.rel = summarize(std::move(a.rel), ErrorKind::Relative);
    a.g.pp = summarize(std::move(a.pp), ErrorKind::PercentagePoints);
    return a.g;
  };
  Summary s;
  s.total = finish(total, "total");
  for (auto& [k, a] : fam) s.families.push_back(finish(a, k));
  for (auto& [k, a] : brd) s.boards.push_back(finish(a, k));
  return s;
}

}  // namespace socsim::validation
