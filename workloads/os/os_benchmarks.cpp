#include "workloads/os/os_benchmarks.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <limits>
#include <regex>
#include <set>

#include "common/error.h"
#include "common/format.h"
#include "models/cpu/core_memory.h"
#include "soc/config/board_config.h"

namespace socsim::wl::os {

namespace {

using models::CoreMemory;

/// Linux page size on these ARM kernels (4 KiB granule).
constexpr std::uint64_t kPage = 4096;
/// Bytes of one page-table entry (AArch64 descriptors; ARM32 Linux keeps 4-byte hardware and
/// 4-byte Linux entries side by side, also 8 bytes per page).
constexpr std::uint64_t kPteBytes = 8;
constexpr double kMB = 1e6;  // lmbench lib_timing.c: MB = 1000*1000
/// An ARM word: what one LDRT/STRT moves.
constexpr unsigned kWordBytes = 4;

std::uint64_t roundUp(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

/// Physical frames of a virtually contiguous buffer: Linux's page allocator hands a process
/// scattered 4 KiB frames, so which cache sets a buffer occupies (its page colours) is random.
/// Deterministic: frames are drawn from a 1 GiB window with a seeded generator, distinct
/// within one PageSet.
class PageSet {
 public:
  explicit PageSet(std::uint64_t seed) : rng_(seed) {}
  /// A buffer of `bytes` (rounded up to pages): its frames in virtual order.
  std::vector<std::uint64_t> buffer(std::uint64_t bytes) {
    std::vector<std::uint64_t> f;
    for (std::uint64_t i = 0; i < roundUp(std::max<std::uint64_t>(bytes, 1), kPage) / kPage; ++i)
      f.push_back(frame());
    return f;
  }
  std::uint64_t frame() {
    for (;;) {
      std::uint64_t fr = kFrameBase + (rng_() % kFrames) * kPage;
      if (used_.insert(fr).second) return fr;
    }
  }

 private:
  static constexpr std::uint64_t kFrameBase = 0x40000000ull;
  static constexpr std::uint64_t kFrames = (1ull << 30) / kPage;
  std::mt19937_64 rng_;
  std::set<std::uint64_t> used_;
};

/// Physical address of byte `off` of a buffer made of `frames`.
std::uint64_t at(const std::vector<std::uint64_t>& frames, std::uint64_t off) {
  return frames[off / kPage] + off % kPage;
}

/// Bytes per load or store of the kernel's copy_{from,to}_user on each side (0 = the core's
/// widest access).
struct UaccessWidths {
  unsigned user = 0, kernel = 0;
};

/// A copy between two page-scattered buffers, split where either crosses a page: the kernel's
/// copy_from_user (`toUser` false: loads user-side, stores kernel-side) or copy_to_user.
void copyPages(CoreMemory& c, const std::vector<std::uint64_t>& dst, std::uint64_t dstOff,
               const std::vector<std::uint64_t>& src, std::uint64_t srcOff, std::uint64_t bytes,
               UaccessWidths w, bool toUser) {
  const unsigned ld = toUser ? w.kernel : w.user, st = toUser ? w.user : w.kernel;
  while (bytes > 0) {
    const std::uint64_t n = std::min({bytes, kPage - dstOff % kPage, kPage - srcOff % kPage});
    c.memcpy(at(dst, dstOff), at(src, srcOff), n, ld, st);
    dstOff += n;
    srcOff += n;
    bytes -= n;
  }
}

/// Sequential loads over a page-scattered buffer (lat_ctx sumit).
void readPages(CoreMemory& c, const std::vector<std::uint64_t>& frames, std::uint64_t bytes,
               unsigned access) {
  for (std::uint64_t off = 0; off < bytes; off += kPage)
    c.readStream(at(frames, off), std::min(kPage, bytes - off), access);
}

/// Value of the `key=` entry of a `k=v;k=v` params text ("" when absent).
std::string paramOf(const std::string& params, const std::string& key) {
  std::size_t pos = 0;
  while (pos <= params.size()) {
    std::size_t end = params.find(';', pos);
    if (end == std::string::npos) end = params.size();
    std::string kv = params.substr(pos, end - pos);
    if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
    pos = end + 1;
  }
  return "";
}

const std::vector<std::string>& fixedNames() {
  static const std::vector<std::string> k = {
      "lat_syscall-null",  "lat_syscall-read",  "lat_syscall-write", "lat_syscall-stat",
      "lat_syscall-fstat", "lat_syscall-open",  "lat_sig-install",   "lat_sig-catch",
      "lat_sig-prot",      "lat_proc-proccall", "lat_proc-fork",     "lat_proc-exec",
      "lat_pipe",          "bw_pipe",           "lat_unix",          "bw_unix",
      "lat_tcp",           "lat_connect",       "lat_select",        "lat_sem",
      "lat_pagefault"};
  return k;
}

const std::regex& ctxRe() {
  static const std::regex r(R"(^lat_ctx-([0-9]+)-([0-9]+)k$)");
  return r;
}
const std::regex& mmapRe() {
  static const std::regex r(R"(^lat_mmap-([0-9]+)(k|m)$)");
  return r;
}
const std::regex& fsRe() {
  static const std::regex r(R"(^lat_fs-([0-9]+)k$)");
  return r;
}

/// Why the sizes in a lat_ctx / lat_mmap name are not simulated ("" when they are): lat_ctx runs
/// every process's array through the memory system, so a name with thousands of processes or a
/// gigabyte array (an edited measured CSV) would run for hours; a zero-length mmap fails.
std::string sizeProblem(const std::string& bench) {
  constexpr std::uint64_t kMaxProcs = 1024, kMaxFootprint = std::uint64_t{256} << 20;
  std::smatch sm;
  auto number = [](const std::string& digits) {
    // Digits only (the regexes); more than 12 of them is beyond every bound below.
    return digits.size() > 12 ? std::numeric_limits<std::uint64_t>::max()
                              : std::stoull(digits);
  };
  if (std::regex_match(bench, sm, ctxRe())) {
    const std::uint64_t procs = number(sm[1].str()), kib = number(sm[2].str());
    if (procs < 1 || procs > kMaxProcs)
      return bench + ": " + sm[1].str() + " processes (the model runs 1 .. " +
             std::to_string(kMaxProcs) + ")";
    if (kib > (kMaxFootprint >> 10) || procs * kib > (kMaxFootprint >> 10))
      return bench + ": " + sm[1].str() + " processes x " + sm[2].str() +
             " KiB (the model simulates up to 256 MiB of process arrays)";
  } else if (std::regex_match(bench, sm, mmapRe())) {
    if (number(sm[1].str()) == 0) return bench + ": a mapping of 0 bytes";
  }
  return "";
}

/// The unit a benchmark reports in.
std::string unitOf(const std::string& bench) {
  if (bench.rfind("bw_", 0) == 0) return "MB/s";
  if (bench.rfind("lat_fs-", 0) == 0) return "files/s";
  return "us";
}

bool knownBenchmark(const std::string& b) {
  const auto& f = fixedNames();
  if (std::find(f.begin(), f.end(), b) != f.end()) return true;
  std::smatch m;
  return std::regex_match(b, m, ctxRe()) || std::regex_match(b, m, mmapRe()) ||
         std::regex_match(b, m, fsRe());
}

/// Run `j` twice on the benchmark core (the first from flushed caches, the second measured):
/// the steady state of a benchmark loop that repeats it.
Timed warmJob(OsMachine& m, const soc::Platform::Job& j, const std::string& prefix) {
  m.job(j, prefix, true);
  return m.job(j, prefix, false);
}

double linkBitsPerSecond(const soc::BoardConfig& b, const SetupParams& s) {
  if (s.link_mbps > 0) return s.link_mbps * 1e6;
  for (const auto& p : b.peripherals)
    if (p.link_speed_mbps > 0 && (p.ip.rfind("cpsw", 0) == 0 || p.ip.rfind("emac", 0) == 0))
      return p.link_speed_mbps * 1e6;
  return 1e9;
}

}  // namespace

// ------------------------------------------------------------------------------------------

OsBenchmarks::OsBenchmarks(std::string dir) : dir_(std::move(dir)) {
  try {
    data_ = loadOsBenchmarkData(dir_);
    kernelProfile_ = cpu::loadProfile(data_.kernelProfileFile);
  } catch (const InputError& e) {
    loadError_ = e.what();
  } catch (const std::exception& e) {
    loadError_ = std::string("loading OS workload data: ") + e.what();
  }
}

std::string OsBenchmarks::canonical(const std::string& benchmark) const {
  auto it = data_.aliases.find(benchmark);
  return it == data_.aliases.end() ? benchmark : it->second;
}

bool OsBenchmarks::covers(const Query& q) const {
  if (q.family == "rt-latency") return true;
  if (q.family != "lmbench-os") return false;
  if (!loadError_.empty()) return true;
  return knownBenchmark(canonical(q.benchmark));
}

Prediction OsBenchmarks::predict(RunContext& ctx, const Query& q) {
  if (!loadError_.empty()) throw InputError(dir_, 0, "", loadError_);
  const soc::BoardConfig& b = ctx.board();
  // The release the row was measured in picks the kernel generation (software_releases).
  const soc::SoftwareParams& sw = b.softwareFor(q.source);
  if (sw.stack != "linux" && sw.stack != "linux-rt")
    throw NotModelled{"board " + b.board.name + " runs " + sw.stack +
                      ", not Linux: no kernel paths to run"};
  const bool rt = q.family == "rt-latency";
  const std::string bench = rt ? q.benchmark : canonical(q.benchmark);
  if (!rt && !knownBenchmark(bench)) throw NotModelled{"no kernel-path model for '" + bench + "'"};
  if (!rt)
    if (std::string why = sizeProblem(bench); !why.empty()) throw NotModelled{why};
  const std::string expected = rt ? "us" : unitOf(bench);
  if (q.unit != expected)
    throw NotModelled{"unit '" + q.unit + "' (the model predicts " + expected + ")"};

  std::string key = b.file + "|";
  for (const auto& o : b.overrides) key += o + ";";
  key += "|" + q.family + "|" + bench + "|" + (rt ? q.params : std::string());
  if (b.softwareReleases.count(q.source)) key += "|" + q.source;
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;

  OsMachine m(ctx, sw.kernel_paths, kernelProfile_, codeRuns_);
  Prediction p = rt ? cyclictest(m, q) : compute(m, bench);
  return cache_.emplace(key, std::move(p)).first->second;
}

// ------------------------------------------------------------------------------------------

Prediction OsBenchmarks::compute(OsMachine& m, const std::string& bench) {
  const KernelPathParams& k = m.kernel();
  const LmbenchParams& L = data_.lmbench;
  const SetupParams& S = data_.setup;

  // One system call: kernel entry/exit plus its body.
  auto sys = [&](double body) { return path(k.trap_instructions + body, 1, 1); };
  // Sleep on a wait queue, be switched out; the waker's wake-up.
  const CodeWork sleepSwitch = path(k.block_instructions + k.switch_instructions);
  const CodeWork wakeup = path(k.wakeup_instructions);
  // `fixed` plus `hops` hand-overs between `tasks` tasks, each hand-over `perHop` (the waker's
  // side and the woken task's return) plus the switch to the woken task. On one core the waker
  // blocks and switches to it; on another, idle core (crossCoreShare) the woken task's core
  // takes the IPI and switches from idle while the waker blocks in parallel (off the path).
  // `oneCoreOnly` is work on the critical path only when the tasks share a core (with a core
  // each it runs in parallel with the other task's wake-up).
  auto handOvers = [&](const CodeWork& fixed, const CodeWork& perHop, double hops, int tasks,
                       const CodeWork& oneCoreOnly = CodeWork{}) {
    const double x = m.crossCoreShare(tasks);
    Timed r;
    if (x < 1) {
      CodeWork w = fixed;
      w += oneCoreOnly;
      CodeWork hop = perHop;
      hop += sleepSwitch;
      w += times(hop, hops);
      r.add(m.code(w), 1 - x);
      // lmbench's ends are processes: each hand-over on one core switches address space, and a
      // core that invalidates its I-cache then (Cortex-A15) runs the next hop's code from L2.
      if (hops > 0 && m.switchMmFlushesIcache())
        r.add(m.switchMmRefill(times(w, 1.0 / hops)), hops * (1 - x));
    }
    if (x > 0) {
      CodeWork w = fixed;
      CodeWork hop = perHop;
      hop += path(k.switch_instructions);
      w += times(hop, hops);
      r.add(m.code(w), x);
      r.add(m.crossCoreWakeup(), hops * x);
    }
    return r;
  };
  auto nfsWait = [&](Timed& t, double rpcs, double syncOps, double wireBytes) {
    t.add("nfs.round_trip", rpcs * S.nfs_rtt_us * 1e-6);
    t.add("nfs.server_commit", syncOps * S.nfs_sync_op_us * 1e-6);
    if (wireBytes > 0) t.add("nfs.wire", wireBytes * 8 / linkBitsPerSecond(m.board(), S));
  };
  const double comps = L.file_path_components;
  // copy_{from,to}_user: an AArch64 kernel moves LDP/STP pairs on its side and the stack's
  // user-side accesses on the other; a 32-bit kernel runs LDM/STM on both sides, and an ARMv5
  // kernel (CONFIG_CPU_USE_DOMAINS) reaches user memory one LDRT/STRT word at a time.
  const std::string& isa = m.cluster().core.isa;
  UaccessWidths uaccess;
  if (isa == "armv8-a") {
    uaccess.user = static_cast<unsigned>(k.uaccess_user_access_bytes);
  } else {
    uaccess.user = uaccess.kernel = static_cast<unsigned>(k.aarch32_uaccess_access_bytes);
    if (isa.rfind("armv5", 0) == 0) uaccess.user = kWordBytes;
  }

  Timed t;            // time of one reported unit
  double amount = 0;  // bytes per unit for bandwidths
  std::smatch sm;

  if (bench == "lat_syscall-null") {
    t = m.code(sys(k.getppid_instructions));
  } else if (bench == "lat_syscall-read" || bench == "lat_syscall-write") {
    t = m.code(sys(k.fd_instructions + k.vfs_rw_instructions));
  } else if (bench == "lat_syscall-stat") {
    t = m.code(
        sys(k.getname_instructions + comps * k.path_component_instructions + k.stat_instructions));
  } else if (bench == "lat_syscall-fstat") {
    t = m.code(sys(k.fd_instructions + k.stat_instructions));
  } else if (bench == "lat_syscall-open") {
    CodeWork w =
        sys(k.getname_instructions + comps * k.path_component_instructions + k.open_instructions);
    w += sys(k.fd_instructions + k.close_instructions);
    w += path(k.nfs_rpc_instructions, S.open_rpcs);
    t = m.code(w);
    nfsWait(t, S.open_rpcs, 0, 0);
  } else if (bench == "lat_sig-install") {
    t = m.code(sys(k.sigaction_instructions));
  } else if (bench == "lat_sig-catch" || bench == "lat_sig-prot") {
    // lat_sig catch = kill(SIGUSR1) delivered and returned from, minus kill(pid, 0).
    CodeWork w = path(k.signal_send_instructions + k.signal_deliver_instructions);
    w += sys(k.sigreturn_instructions);
    t = m.code(w);
    t.add(m.code(path(L.user_handler_instructions), true));
    // The frame layout is the kernel's: arch/arm64 on ARMv8-A, arch/arm on 32-bit cores.
    const std::uint64_t frame = m.cluster().core.isa == "armv8-a" ? k.signal_frame_bytes
                                                                  : k.aarch32_signal_frame_bytes;
    const std::uint64_t stack = PageSet(11).frame();
    t.add(warmJob(
        m,
        [frame, stack](CoreMemory& c) {
          c.writeStream(stack, frame);  // setup_rt_frame
          c.readStream(stack, frame);   // restore_sigframe
        },
        "signal_frame"));
    m.counters.copyBytes += 2.0 * static_cast<double>(frame);
    if (bench == "lat_sig-prot") {
      // prot = (fault + forced signal + delivery) minus catch: the delivery cancels; what remains
      // is the fault entry and the permission-fault path, less the queueing of a sent signal.
      // A write to a read-only mapping stops at the VMA's access check (do_page_fault ->
      // __do_page_fault returns VM_FAULT_BADACCESS before handle_mm_fault): the page-fault
      // path proper (fault_instructions) is not run; fault_signal_instructions is the path from
      // do_page_fault to arm64_force_sig_fault.
      Timed fault = m.code(path(k.trap_instructions + k.fault_signal_instructions, 1, 1));
      Timed send = m.code(path(k.signal_send_instructions));
      fault.subtract(send);
      if (fault.seconds < 0) fault = Timed{};  // lmbench settime(0)
      t = fault;
    }
  } else if (bench == "lat_proc-proccall") {
    t = m.code(path(L.proccall_instructions), true);
  } else if (bench == "lat_proc-fork" || bench == "lat_proc-exec") {
    const double vmas = L.process_vmas, anon = L.process_anon_pages, tables = L.process_page_tables,
                 cow = L.fork_cow_pages;
    CodeWork w = sys(k.fork_instructions);
    w += path(k.vma_copy_instructions, vmas);
    w += path(k.pte_copy_instructions, anon);
    w += path(k.page_alloc_instructions, tables);
    // Copy-on-write faults of parent and child.
    w += path(k.trap_instructions + k.fault_instructions + k.page_alloc_instructions +
                  k.pte_map_instructions,
              cow, 1);
    // The child's read faults on the code it runs (fork copied no PTEs of the file-backed
    // text): each maps a fault-around window, which exit (or execve) unmaps again.
    const double fa = std::max(1, k.fault_around_pages);
    const double textFaults = bench == "lat_proc-exec" ? L.exec_child_text_faults
                                                       : L.fork_child_text_faults;
    CodeWork text;  // the map and unmap loops repeat the same per-page code
    text.instructions = textFaults * (k.trap_instructions + k.fault_instructions +
                                      fa * (k.pte_map_instructions + k.pte_zap_instructions));
    text.staticInstructions =
        k.trap_instructions + k.fault_instructions + k.pte_map_instructions + k.pte_zap_instructions;
    text.traps = textFaults;
    w += text;
    // Child exit (its anonymous pages unmapped, tables and copied pages freed), parent's wait.
    w += sys(k.exit_instructions);
    w += path(k.pte_zap_instructions, anon);
    w += path(k.page_free_instructions, tables + cow);
    w += sys(0);
    std::uint64_t zeroBytes = static_cast<std::uint64_t>(tables) * kPage;
    if (bench == "lat_proc-exec") {
      const double image = L.exec_image_pages;
      w += sys(k.exec_instructions + k.getname_instructions +
               L.exec_path_components * k.path_component_instructions);
      w += path(k.trap_instructions + k.fault_instructions + k.page_alloc_instructions +
                    k.pte_map_instructions,
                image, 1);
      w += path(k.pte_zap_instructions + k.page_free_instructions, image);
      zeroBytes += static_cast<std::uint64_t>(image) * kPage;
    }
    // The child starts (wake_up_new_task) and, at exit, wakes the waiting parent.
    t = handOvers(w, wakeup, 2, 2);
    const auto cowPages = static_cast<std::uint64_t>(cow);
    PageSet ps(12);
    const auto zeroed = ps.buffer(zeroBytes), parent = ps.buffer(cowPages * kPage),
               child = ps.buffer(cowPages * kPage);
    t.add(warmJob(
        m,
        [&zeroed, &parent, &child, cowPages](CoreMemory& c) {
          for (std::uint64_t f : zeroed) c.memzero(f, kPage);  // new page tables (exec: pages)
          for (std::uint64_t i = 0; i < cowPages; ++i)
            c.memcpy(child[i], parent[i], kPage);  // copy-on-write
        },
        "copy"));
    m.counters.copyBytes += static_cast<double>(zeroBytes + 2 * cowPages * kPage);
  } else if (std::regex_match(bench, sm, ctxRe())) {
    const int procs = std::max(1, std::stoi(sm[1].str()));
    const std::uint64_t size = std::stoull(sm[2].str()) * 1024;
    const unsigned access = static_cast<unsigned>(L.sum_access_bytes);
    const CodeWork hop = [&] {
      CodeWork w = sleepSwitch;
      w += wakeup;
      return w;
    }();
    if (m.vivtCaches())
      t = m.coldCode(hop, 0, 0);  // the switch flushed the L1s: the path runs cold
    else
      t = handOvers(CodeWork{}, wakeup, 1, procs);
    if (size > 0) {
      // Each process sums its own malloc'ed array: its own scattered frames. Unless the stack's
      // build never writes them (lmbench_arrays_zero_page: calloc of a fresh mmap chunk, from
      // glibc's mmap threshold up): then every page of every array is the shared zero page.
      constexpr std::uint64_t kGlibcMmapThreshold = 128 * 1024;  // DEFAULT_MMAP_THRESHOLD_MIN
      PageSet ps(13);
      std::vector<std::vector<std::uint64_t>> arrays;
      if (k.lmbench_arrays_zero_page && size >= kGlibcMmapThreshold) {
        const std::vector<std::uint64_t> zeroPage = ps.buffer(kPage);
        for (int i = 0; i < procs; ++i)
          arrays.emplace_back(roundUp(size, kPage) / kPage, zeroPage.front());
      } else {
        for (int i = 0; i < procs; ++i) arrays.push_back(ps.buffer(size));
      }
      auto one = [&arrays, size, access](CoreMemory& c) { readPages(c, arrays[0], size, access); };
      Timed warm = warmJob(m, one, "refill");
      Timed hopData;
      if (m.vivtCaches()) {
        hopData = m.job(one, "refill", true);  // every switch starts from invalidated L1s
      } else {
        auto ring = [&arrays, size, access](CoreMemory& c) {
          for (const auto& a : arrays) readPages(c, a, size, access);
        };
        m.job(ring, "refill", true);
        m.job(ring, "refill", false);
        hopData = m.job(ring, "refill", false);
        Timed perHop;
        perHop.add(hopData, 1.0 / procs);
        hopData = perHop;
      }
      hopData.subtract(warm);  // lmbench subtracts the warm single-process sum
      if (hopData.seconds > 0) t.add(hopData);
      m.counters.copyBytes += static_cast<double>(size);
    }
  } else if (bench == "lat_pipe" || bench == "lat_unix" || bench == "lat_tcp") {
    double sendBody = 0, recvBody = 0;
    if (bench == "lat_pipe") {
      sendBody = k.fd_instructions + k.vfs_rw_instructions + k.pipe_call_instructions +
                 k.pipe_page_instructions;
      recvBody = k.fd_instructions + k.vfs_rw_instructions + k.pipe_call_instructions;
    } else if (bench == "lat_unix") {
      sendBody = k.fd_instructions + k.unix_call_instructions + k.unix_skb_instructions;
      recvBody = k.fd_instructions + k.unix_call_instructions;
    } else {
      sendBody = k.fd_instructions + k.tcp_call_instructions + k.tcp_segment_instructions;
      recvBody = k.fd_instructions + k.tcp_call_instructions;
    }
    // One way: send (wakes the peer), receive (sleeps), switch; a round trip is two.
    CodeWork w = sys(sendBody);
    w += wakeup;
    w += sys(recvBody);
    t = handOvers(CodeWork{}, w, 2, 2);
  } else if (bench == "lat_connect") {
    // socket, connect, close (client); accept, close (server); the handshake and teardown.
    CodeWork w = times(sys(k.fd_instructions), 5);
    w += path(k.tcp_connect_instructions);
    t = handOvers(w, wakeup, 2, 2);
  } else if (bench == "lat_select") {
    CodeWork w = sys(k.select_instructions);
    w += path(k.poll_fd_instructions, L.select_fds);
    t = m.code(w);
  } else if (bench == "lat_sem") {
    // lmbench3 lat_sem.c: the parent loops on one semop {sem1 -1, sem0 +1}, the writer on
    // {sem0 -1, sem1 +1}; lmbench reports the time of n parent semops / (2n). A semop that
    // can proceed also performs the sleeping peer's queued operation and wakes it (Linux
    // ipc/sem.c update_queue: the woken task only returns). So between two hand-overs the
    // running task completes three semops: the one that wakes the peer (whose queued operation
    // it performs), one the peer's operation made possible, and one that sleeps. A cycle is 2
    // hand-overs and 3 semops of each task, i.e. 6 reported units. With a core each, the two
    // extra semops of the waker run while the peer wakes up (off the critical path).
    CodeWork hop = sys(k.semop_instructions);  // the semop that wakes the peer
    hop += wakeup;
    t.add(handOvers(CodeWork{}, hop, 2, 2, times(sys(k.semop_instructions), 4)), 1.0 / 6.0);
  } else if (bench == "lat_pagefault") {
    // Per page: a share of one fault (fault-around maps its neighbours), mapping and unmapping
    // the page, and the touch itself: a TLB refill (page walk) and a load from the page.
    const double fa = std::max(1, k.fault_around_pages);
    CodeWork w;
    w.instructions = (k.trap_instructions + k.fault_instructions) / fa + k.pte_map_instructions +
                     k.pte_zap_instructions;
    w.staticInstructions = k.trap_instructions + k.fault_instructions + k.pte_map_instructions +
                           k.pte_zap_instructions;
    w.traps = 1.0 / fa;
    t = m.code(w);
    const std::uint64_t pages = std::max<std::uint64_t>(1, L.pagefault_file_bytes / kPage);
    std::vector<std::uint64_t> order(pages);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(0x5eed);  // lmbench permutes the pages (srand(getpid()))
    std::shuffle(order.begin(), order.end(), rng);
    const int upper = m.pageWalkLevels() - 1;
    // The file's page-cache frames, its last-level page tables (512 entries per table page)
    // and one table page per upper level.
    PageSet ps(14);
    const auto file = ps.buffer(pages * kPage);
    const auto leaf = ps.buffer(pages * kPteBytes);
    const auto uppers = ps.buffer(static_cast<std::uint64_t>(std::max(upper, 1)) * kPage);
    auto touch = [&](CoreMemory& c) {
      for (std::uint64_t p : order) {
        for (int l = 0; l < upper; ++l)
          c.chase(uppers[static_cast<std::size_t>(l)] +
                  ((p >> (9 * (l + 1))) % (kPage / kPteBytes)) * kPteBytes);
        c.chase(at(leaf, p * kPteBytes));  // leaf entry
        c.chase(file[p]);                  // the page's first word
      }
    };
    Timed tt = warmJob(m, touch, "touch");
    t.add(tt, 1.0 / static_cast<double>(pages));
    m.counters.pageWalks += 1;
  } else if (std::regex_match(bench, sm, mmapRe())) {
    const std::uint64_t size =
        std::stoull(sm[1].str()) * (sm[2].str() == "m" ? 1024ull * 1024 : 1024ull);
    const std::uint64_t touched = size / static_cast<std::uint64_t>(L.mmap_touch_divisor);
    const double touches =
        std::ceil(static_cast<double>(touched) / static_cast<double>(L.mmap_touch_stride_bytes));
    // Writes to a shared file mapping: one write fault per touched page (no fault-around),
    // each through the file system's page_mkwrite and the dirty-page accounting.
    CodeWork w = sys(k.mmap_instructions);
    w += path(k.trap_instructions + k.fault_instructions + k.page_mkwrite_instructions +
                  k.pte_map_instructions,
              touches, 1);
    w += sys(k.munmap_instructions);
    w += path(k.pte_zap_instructions, touches);
    t = m.code(w);
  } else if (std::regex_match(bench, sm, fsRe())) {
    const std::uint64_t size = std::stoull(sm[1].str()) * 1024;
    const double pages = std::ceil(static_cast<double>(size) / kPage);
    // One file of lat_fs's timed create loop, in /tmp (tmpfs): creat (path walk, a new inode
    // and dentry), write() of `size` bytes into freshly allocated page-cache pages, close.
    CodeWork w = sys(k.getname_instructions + comps * k.path_component_instructions +
                      k.shmem_create_instructions + k.open_instructions);
    if (size > 0) {
      w += sys(k.fd_instructions + k.vfs_rw_instructions + k.shmem_write_instructions);
      w += path(k.page_alloc_instructions + k.shmem_write_page_instructions, pages);
    }
    w += sys(k.fd_instructions + k.close_instructions);
    t = m.code(w);
    if (size > 0) {
      // copy_from_user into the new pages; shmem_write_end zeroes the rest of a partial page.
      const std::uint64_t tail = static_cast<std::uint64_t>(pages) * kPage - size;
      PageSet ps(15);
      const auto cache = ps.buffer(size + tail), buf = ps.buffer(size);
      t.add(warmJob(
          m,
          [&cache, &buf, size, tail, uaccess](CoreMemory& c) {
            copyPages(c, cache, 0, buf, 0, size, uaccess, false);
            if (tail > 0) c.memzero(at(cache, size), tail);
          },
          "copy"));
      m.counters.copyBytes += static_cast<double>(size);
    }
  } else if (bench == "bw_pipe" || bench == "bw_unix") {
    const std::uint64_t x = L.xfer_bytes;
    const double pages = std::ceil(static_cast<double>(x) / kPage);
    CodeWork w;
    double rounds = 1;
    if (bench == "bw_pipe") {
      rounds = std::ceil(pages / std::max(1, k.pipe_buffer_pages));
      w += sys(k.fd_instructions + k.vfs_rw_instructions + k.pipe_call_instructions);
      w += path(k.pipe_page_instructions + k.page_alloc_instructions, pages);
      w += sys(k.fd_instructions + k.vfs_rw_instructions + k.pipe_call_instructions);
      w += path(k.page_free_instructions, pages);
    } else {
      const double skbs = std::ceil(static_cast<double>(x) / static_cast<double>(k.unix_skb_bytes));
      w += sys(k.fd_instructions + k.unix_call_instructions);
      w += path(k.unix_skb_instructions, skbs);
      w += sys(k.fd_instructions + k.unix_call_instructions);
    }
    // Writer and reader each sleep once per pipe-full and wake the other.
    t = handOvers(w, wakeup, 2 * rounds, 2);
    const std::uint64_t off =
        bench == "bw_pipe" ? static_cast<std::uint64_t>(L.reader_offset_bytes) : 0;
    PageSet ps(16);
    const auto wbuf = ps.buffer(x), kbuf = ps.buffer(x), rbuf = ps.buffer(x + off);
    t.add(warmJob(
        m,
        [&wbuf, &kbuf, &rbuf, x, off, uaccess](CoreMemory& c) {
          copyPages(c, kbuf, 0, wbuf, 0, x, uaccess, false);   // into the pipe pages / skbs
          copyPages(c, rbuf, off, kbuf, 0, x, uaccess, true);  // into the reader's buffer
        },
        "copy"));
    m.counters.copyBytes += 2.0 * static_cast<double>(x);
    amount = static_cast<double>(x);
  } else {
    throw NotModelled{"no kernel-path model for '" + bench + "'"};
  }

  Prediction p;
  const std::string unit = unitOf(bench);
  if (!(t.seconds > 0)) throw NotModelled{"the model gives no time for '" + bench + "'"};
  if (unit == "MB/s")
    p.value = amount / t.seconds / kMB;
  else if (unit == "files/s")
    // lat_fs prints benchmp's iteration count of its create loop (the guides' "num_files"):
    // benchmp sizes each timed run to margin x enough / (time of one file), plus one.
    p.value = L.benchmp_iteration_margin * L.benchmp_enough_us * 1e-6 / t.seconds + 1;
  else
    p.value = t.seconds * 1e6;
  for (const auto& [n, s] : t.parts) p.breakdown.add(n, s);
  const auto& c = m.counters;
  p.note = "kernel-path model (" + m.board().software.stack +
           "): " + formatSig(c.kernelInstructions, 4) + " instructions on the core (x" +
           formatSig(m.pathFactor(), 3) + " ISA/lock factor), " + formatSig(c.cycles, 4) +
           " cycles; L1I " + formatSig(c.l1iMissesPerKi, 3) + " and L1D " +
           formatSig(c.l1dMissesPerKi, 3) + " misses per 1000 instructions";
  if (c.copyBytes > 0) p.note += "; " + formatSig(c.copyBytes, 4) + " bytes copied/refilled";
  p.note += c.pageWalks > 0
                ? "; " + formatSig(c.pageWalks, 3) + " TLB refill (page walk) per page"
                : "; TLB refills: none modelled on this path";
  return p;
}

Prediction OsBenchmarks::cyclictest(OsMachine& m, const Query& q) {
  const KernelPathParams& k = m.kernel();
  const std::string useCase = paramOf(q.params, "use_case");
  auto it = data_.rtLoads.find(useCase);
  if (it == data_.rtLoads.end())
    throw NotModelled{"cyclictest use case '" + useCase + "' is not described in " + dir_ +
                      "/cyclictest.yaml"};
  const RtLoadParams& load = it->second;
  const CyclictestParams& ct = data_.cyclictest;
  // Worst case: the timer interrupt finds the isolated core's caches cold (the load evicted
  // the shared levels), behind the longest non-preemptible section and the device interrupts
  // that can reach the core first; then the wake-up, the switch to cyclictest and its return
  // to user space, while the other cores keep streaming memory.
  CodeWork w = path(k.irq_instructions + k.hrtimer_instructions + k.irq_thread_instructions +
                        k.wakeup_instructions + k.switch_instructions + k.trap_instructions,
                    1, 2);
  Timed t = m.coldCode(w, load.memory_streams, ct.stream_bytes);
  t.add(m.code(path(ct.user_instructions), true));
  if (load.irq_sources > 0) {
    Timed irq = m.coldCode(path(k.irq_instructions + k.irq_thread_instructions, 1, 1),
                           load.memory_streams, ct.stream_bytes);
    t.add(irq, load.irq_sources);
  }
  t.add(m.code(path(k.max_irqoff_instructions)));
  Prediction p;
  p.value = t.seconds * 1e6;
  for (const auto& [n, s] : t.parts) p.breakdown.add(n, s);
  p.note = "cyclictest worst case (" + m.board().software.stack +
           "): cold interrupt-to-user path, " + std::to_string(load.memory_streams) +
           " memory stream(s) on other cores, " + std::to_string(load.irq_sources) +
           " device interrupt(s) first; " + formatSig(m.counters.kernelInstructions, 4) +
           " instructions";
  return p;
}

void registerOsWorkloads(Registry& r) {
  r.add(std::make_unique<OsBenchmarks>(defaultOsDataDir()));
}

}  // namespace socsim::wl::os
