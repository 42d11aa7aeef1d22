#include "workloads/memory/memory_benchmarks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <regex>
#include <vector>

#include "models/cpu/core_memory.h"
#include "soc/board_platform.h"
#include "soc/config/board_config.h"
#include "soc/platform.h"

namespace socsim::wl::memory {

namespace {

using models::CoreMemory;
using Job = soc::Platform::Job;

constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t kBase = 0x10000000;  // first buffer (any page-aligned address)
constexpr double kMB = 1e6;                  // LMBench and STREAM print MB = 10^6 bytes

enum class Kind { BwMem, LatMemRd, MmapRd, FileRd, Stream };

struct Spec {
  Kind kind;
  std::string op;           // rd, wr, ..., copy, ...
  std::uint64_t bytes = 0;  // buffer size
  std::uint64_t stride = 0;
};

/// The largest buffer (and stride) simulated: the dataset's largest is 16 MiB; a 256 MiB run takes
/// tens of seconds, and a benchmark name with a far larger size (an edited measured CSV) would
/// run for hours or exhaust memory.
constexpr std::uint64_t kMaxBufferBytes = 256 * kMiB;

/// `bytes` as a whole number of bytes, saturating (a size far beyond 2^63 is not a real buffer).
std::uint64_t toBytes(double bytes) {
  if (!(bytes > 0)) return 0;
  if (bytes >= 9.2e18) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(bytes);
}

/// "1mb", "16m", "512k", "64kb" -> bytes (binary multiples, as lmbench parses its size argument).
std::optional<std::uint64_t> parseSize(const std::string& s) {
  static const std::regex re(R"(^([0-9]+(?:\.[0-9]+)?)(k|kb|m|mb)?$)");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return std::nullopt;
  double v = std::strtod(m[1].str().c_str(), nullptr);
  std::string u = m[2].str();
  double mul = u.empty() ? 1 : (u[0] == 'k' ? 1024.0 : double(kMiB));
  return toBytes(v * mul);
}

std::optional<Spec> parse(const Query& q) {
  std::smatch m;
  if (q.family == "stream") {
    if (q.benchmark == "copy" || q.benchmark == "scale" || q.benchmark == "add" ||
        q.benchmark == "triad")
      return Spec{Kind::Stream, q.benchmark, 0, 0};
    return std::nullopt;
  }
  if (q.family != "lmbench-mem") return std::nullopt;
  static const std::regex bw(R"(^bw_mem-(rd|wr|rdwr|cp|fcp|frd|fwr|bzero|bcopy)-([0-9.]+[a-z]*)$)");
  static const std::regex lat(R"(^lat_mem_rd-stride([0-9]+)-sz([0-9.]+)(k?)$)");
  static const std::regex latFor(R"(^latency_for_([0-9.]+)_mb_block_size$)");
  static const std::regex mmap(R"(^bw_mmap_rd-(mo|o2c)-([0-9.]+[a-z]*)$)");
  static const std::regex file(R"(^bw_file_rd-(io|o2c)-([0-9.]+[a-z]*)$)");
  if (std::regex_match(q.benchmark, m, bw)) {
    auto s = parseSize(m[2].str());
    if (!s || *s == 0) return std::nullopt;
    return Spec{Kind::BwMem, m[1].str(), *s, 0};
  }
  if (std::regex_match(q.benchmark, m, lat)) {
    std::uint64_t stride = std::strtoull(m[1].str().c_str(), nullptr, 10);
    double n = std::strtod(m[2].str().c_str(), nullptr);
    // lmbench prints sizes in MB; the guide's "szNk" is N/1000 MB, cut to whole thousandths
    // (0.03125 MB -> "31k"): the size is lmbench's range of that name (lmbenchRange). "sz50"
    // (no k) is read as lmbench's smallest size, 512 bytes (0.00049 MB).
    std::uint64_t bytes = m[3].matched && !m[3].str().empty() ? lmbenchRange(n) : 512;
    if (stride == 0) return std::nullopt;
    return Spec{Kind::LatMemRd, "chase", std::max(bytes, stride), stride};
  }
  if (std::regex_match(q.benchmark, m, latFor)) {
    double mb = std::strtod(m[1].str().c_str(), nullptr);
    return Spec{Kind::LatMemRd, "chase", toBytes(mb * double(kMiB)), 128};
  }
  if (std::regex_match(q.benchmark, m, mmap)) {
    auto s = parseSize(m[2].str());
    if (!s) return std::nullopt;
    return Spec{Kind::MmapRd, m[1].str(), *s, 0};
  }
  if (std::regex_match(q.benchmark, m, file)) {
    auto s = parseSize(m[2].str());
    if (!s) return std::nullopt;
    return Spec{Kind::FileRd, m[1].str(), *s, 0};
  }
  return std::nullopt;
}

std::uint64_t roundUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

/// Buffers laid out one after another, page-aligned, with one page between (as malloc would).
std::uint64_t nextBuffer(std::uint64_t prev, std::uint64_t size) {
  return prev + roundUp(size, kPage) + kPage;
}

/// Bytes one load/store instruction moves in a loop over consecutive words of `word` bytes:
/// compilers pair adjacent accesses (LDP/STP on AArch64, LDRD/STRD on AArch32), capped by the
/// core's widest access.
unsigned pairBytes(const CoreMemory& c, unsigned word) {
  return std::min(2 * word, static_cast<unsigned>(c.params().max_access_bytes));
}

/// The load instruction (pc) of an access at `off` in a loop body unrolled over `body` bytes
/// with one load every `step` bytes: lmbench's loops are unrolled 128 words deep, so their
/// k-th load strides by the body size, not by `step` (what a PC-indexed prefetcher sees).
std::uint32_t pcOf(std::uint32_t base, std::uint64_t off, std::uint64_t body, unsigned step) {
  return base + static_cast<std::uint32_t>((off % body) / step);
}

/// Extra core cycles per load instruction of a reduction loop: lmbench sums what it loads into
/// one variable (`sum += p[0]+p[1]+...`), so each loaded element adds one integer add to a single
/// dependency chain; the chain's `elements x addLatency` cycles overlap the load's own issue slot
/// (one load pipe on every core modelled here, core_memory `loads_per_cycle`).
std::uint64_t chainCycles(unsigned elements, int addLatency) {
  const std::int64_t extra = static_cast<std::int64_t>(elements) * addLatency - 1;
  return extra > 0 ? static_cast<std::uint64_t>(extra) : 0;
}

/// lmbench `rd`: a 4-byte load every 16 bytes; `frd` (step 0): every int, which the compiler
/// loads two at a time (pairBytes). Both sum what they load (`addLatency`, core cycles).
void rdLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step, int addLatency) {
  const unsigned w = step ? 4 : pairBytes(c, 4);
  const std::uint64_t extra = chainCycles(w / 4, addLatency);
  if (!step) step = w;
  for (std::uint64_t off = 0; off < n; off += step) {
    c.load(a + off, w, pcOf(0x100, off, 512, step));
    if (extra) c.compute(extra);
  }
}
void wrLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step) {
  const unsigned w = step ? 4 : pairBytes(c, 4);
  if (!step) step = w;
  for (std::uint64_t off = 0; off < n; off += step) c.store(a + off, w);
}
void rdwrLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step) {
  for (std::uint64_t off = 0; off < n; off += step) {
    c.load(a + off, 4, pcOf(0x100, off, 512, step));
    c.store(a + off, 4);
  }
}
void cpLoop(CoreMemory& c, std::uint64_t dst, std::uint64_t src, std::uint64_t n, unsigned step) {
  const unsigned w = step ? 4 : pairBytes(c, 4);
  if (!step) step = w;
  for (std::uint64_t off = 0; off < n; off += step) {
    c.load(src + off, w, pcOf(0x100, off, 512, step));
    c.store(dst + off, w);
  }
}

/// lmbench bread() (bw_mmap_rd, bw_file_rd): sums every `long` of the buffer into one `sum`,
/// 128 longs per unrolled iteration (`addLatency`: core cycles of one add of a long).
void breadLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, int addLatency) {
  const unsigned lb = static_cast<unsigned>(c.params().long_bytes);
  const unsigned w = pairBytes(c, lb);
  const std::uint64_t extra = chainCycles(w / lb, addLatency);
  for (std::uint64_t off = 0; off + w <= n; off += w) {
    c.load(a + off, w, pcOf(0x300, off, 128u * lb, w));
    if (extra) c.compute(extra);
  }
}

/// lmbench3's lat_mem_rd chain (lib_mem.c stride_initialize, the default; `-t` would select
/// thrash_initialize, which TI's runs do not use): element i points to element i + stride,
/// the last one back to the first, so the chase walks the range forward with a constant
/// stride, as an array or matrix walk would (and as a stride prefetcher can follow).
std::vector<std::uint64_t> chaseOrder(std::uint64_t base, std::uint64_t bytes, std::uint64_t stride) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t off = 0; off + stride <= std::max(bytes, stride); off += stride) out.push_back(base + off);
  return out;
}

/// Loads one lmbench iteration makes (lat_mem_rd loads(): count = 100 * (range / (stride *
/// 100) + 1)); the chain is followed that many times round, so small ranges wrap many times.
std::uint64_t chaseLoads(std::uint64_t bytes, std::uint64_t stride) {
  return 100 * (bytes / (stride * 100) + 1);
}

/// Physical placements the lat_mem_rd rows average over (see Kind::LatMemRd): the miss fraction
/// of one placement of a cache-sized range varies by tens of percent between draws; eight draws
/// bring the mean within a few percent (a model choice, not a measured quantity).
constexpr int kFrameDraws = 8;

/// Seed of placement `d` (> 0; draw 0 is the board's own map): seeds that differ above the low
/// page-number bits, so the buffer's pages hash to other frames, not to a reordering of the same.
std::uint64_t frameDrawSeed(int d) {
  return 0x5eedull ^ (static_cast<std::uint64_t>(d) * 0x9E37Bull << 4);
}

KernelCostProvider& kernelCostProvider() {
  static KernelCostProvider provider;
  return provider;
}

/// The board's kernel costs, or NotModelled naming what `row` lacks without them.
KernelCosts requireKernelCosts(RunContext& ctx, const char* what, std::uint64_t passBytes) {
  std::optional<KernelCosts> k;
  if (kernelCostProvider()) k = kernelCostProvider()(ctx, passBytes);
  if (!k)
    throw NotModelled{std::string(what) +
                      " are kernel costs not modelled yet (no OS-workload kernel-cost provider for "
                      "this board); a prediction without them is known to be wrong"};
  return *k;
}

Prediction fromRun(double value, const soc::RunResult& r) {
  Prediction p;
  p.value = value;
  for (const auto& [part, s] : r.breakdown.items()) p.breakdown.add(part, s);
  return p;
}

}  // namespace

bool MemoryBenchmarks::covers(const Query& q) const { return parse(q).has_value(); }

Prediction MemoryBenchmarks::predict(RunContext& ctx, const Query& q) {
  auto spec = parse(q);
  if (!spec) throw NotModelled{"not a memory benchmark this workload knows"};
  // The prediction is in MB/s (bandwidths) or ns (lat_mem_rd): a row in another unit would be
  // compared with a number in the wrong unit.
  const std::string unit = spec->kind == Kind::LatMemRd ? "ns" : "MB/s";
  if (q.unit != unit)
    throw NotModelled{"unit '" + q.unit + "' (the model predicts " + q.benchmark + " in " + unit + ")"};
  if (spec->kind != Kind::Stream) {
    if (spec->bytes == 0) throw NotModelled{"a buffer of 0 bytes (" + q.benchmark + ")"};
    if (spec->bytes > kMaxBufferBytes || spec->stride > kMaxBufferBytes)
      throw NotModelled{q.benchmark + ": buffers and strides up to " +
                        std::to_string(kMaxBufferBytes / kMiB) +
                        " MiB are simulated (the measured data's largest is 16 MiB)"};
  }
  const soc::BoardConfig& board = ctx.board();
  std::string key = board.file + "|" + q.family + "|" + q.benchmark;
  for (const auto& o : board.overrides) key += "|" + o;
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;

  soc::Platform& p = ctx.platform();
  const auto& cfg = p.config();
  int cluster = soc::mainMemoryCluster(board);
  int core = 0;
  for (int i = 0; i < cluster; ++i) core += cfg.clusters[i].cores;
  const auto& cl = cfg.clusters[cluster];
  // Latency of the integer add lmbench's reductions chain (int for rd/frd; long for bread).
  const auto& timing = board.clusters[static_cast<std::size_t>(cluster)].timing;
  const int intAdd = timing.int_alu_latency_cycles;
  const int longAdd = cl.memory.long_bytes == 8 ? timing.int64_alu_latency_cycles : intAdd;
  std::uint64_t cacheBytes = cl.l1d.size_bytes + (cl.l2 ? cl.l2->size_bytes : 0) +
                             (cfg.l3 ? cfg.l3->size_bytes : 0);

  // Run `job` once to warm the caches (unless the footprint is far beyond them), then measure.
  auto measure = [&](std::uint64_t footprint, const Job& job) {
    p.flushCaches();
    if (footprint <= 2 * cacheBytes) p.run(core, job);
    p.resetStats();
    return p.run(core, job);
  };

  Prediction out;
  const std::uint64_t a = kBase;
  switch (spec->kind) {
    case Kind::BwMem: {
      const std::uint64_t n = spec->bytes, b = nextBuffer(a, n);
      const std::string& op = spec->op;
      Job job;
      std::uint64_t footprint = n;
      if (op == "rd") job = [=](CoreMemory& c) { rdLoop(c, a, n, 16, intAdd); };
      else if (op == "frd") job = [=](CoreMemory& c) { rdLoop(c, a, n, 0, intAdd); };
      else if (op == "wr") job = [=](CoreMemory& c) { wrLoop(c, a, n, 16); };
      else if (op == "fwr") job = [=](CoreMemory& c) { wrLoop(c, a, n, 0); };
      else if (op == "rdwr") job = [=](CoreMemory& c) { rdwrLoop(c, a, n, 16); };
      else if (op == "cp") job = [=](CoreMemory& c) { cpLoop(c, b, a, n, 16); }, footprint = 2 * n;
      else if (op == "fcp") job = [=](CoreMemory& c) { cpLoop(c, b, a, n, 0); }, footprint = 2 * n;
      else if (op == "bzero") job = [=](CoreMemory& c) { c.memzero(a, n); };
      else job = [=](CoreMemory& c) { c.memcpy(b, a, n); }, footprint = 2 * n;  // bcopy
      auto r = measure(footprint, job);
      out = fromRun(double(n) / r.seconds / kMB, r);
      break;
    }
    case Kind::LatMemRd: {
      // lmbench repeats the iteration and keeps the best: the chase in steady state (warm).
      auto order = chaseOrder(a, spec->bytes, spec->stride);
      const std::uint64_t loads = std::max<std::uint64_t>(chaseLoads(spec->bytes, spec->stride), 1000);
      Job job = [&order, loads](CoreMemory& c) {
        std::size_t i = 0;
        for (std::uint64_t k = 0; k < loads; ++k) {
          c.chase(order[i], static_cast<std::uint32_t>(1 + k % 100));  // loads() unrolls 100 deep
          if (++i == order.size()) i = 0;
        }
      };
      // A range near a cache's size hits or misses by how its few pages spread over the cache
      // colours (the index bits above the page offset): Linux hands the buffer whatever frames
      // its free lists hold (PageMap), which lmbench does not control, so one placement is one
      // draw. The prediction is the mean over kFrameDraws placements (an identity map has one).
      CoreMemory& cm = p.core(core);
      const models::PageMap own = cm.pageMap();
      const int draws = own.identity() ? 1 : kFrameDraws;
      double seconds = 0;
      std::vector<std::pair<std::string, double>> parts;  // mean time per part, in first-seen order
      for (int d = 0; d < draws; ++d) {
        if (d > 0) cm.setPageMap(models::PageMap(own.kind(), frameDrawSeed(d)));
        p.flushCaches();
        p.run(core, job);
        p.resetStats();
        auto r = p.run(core, job);
        seconds += r.seconds / draws;
        for (const auto& [part, t] : r.breakdown.items()) {
          auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& e) { return e.first == part; });
          if (it == parts.end()) parts.emplace_back(part, t / draws);
          else it->second += t / draws;
        }
      }
      if (draws > 1) cm.setPageMap(own);
      for (const auto& [part, t] : parts) out.breakdown.add(part, t);
      out.value = seconds * 1e9 / double(loads);
      break;
    }
    case Kind::MmapRd: {
      const std::uint64_t n = spec->bytes;
      // bread() over the mapping (every long); the o2c variant adds, each pass, open + mmap +
      // munmap + close and the minor faults that map the page-cache pages (kernel costs).
      std::optional<KernelCosts> k;
      if (spec->op == "o2c") k = requireKernelCosts(ctx, "open/mmap/munmap/close and page faults", n);
      auto r = measure(n, [=](CoreMemory& c) { breadLoop(c, a, n, longAdd); });
      double seconds = r.seconds;
      if (k) {
        const double faults = std::ceil(double(n) / std::max(double(kPage), k->faultAroundBytes));
        const double kernelNs = k->openCloseNs + k->mmapMunmapNs + faults * k->pageFaultNs;
        seconds += kernelNs * 1e-9;
        out = fromRun(double(n) / seconds / kMB, r);
        out.breakdown.add("kernel", kernelNs * 1e-9);
      } else {
        out = fromRun(double(n) / seconds / kMB, r);
      }
      break;
    }
    case Kind::FileRd: {
      // read() in 64 KiB chunks: the kernel copies page-cache pages to the user buffer, then
      // lmbench sums the buffer with bread() (every long). The kernel part (KernelCosts): the
      // read() calls, the per-page work of filemap_read, and open/close in the o2c variant.
      const std::uint64_t n = spec->bytes, chunk = 64 * 1024, user = nextBuffer(a, n);
      Job job = [=](CoreMemory& c) {
        for (std::uint64_t off = 0; off < n; off += chunk) {
          std::uint64_t len = std::min(chunk, n - off);
          c.memcpy(user, a + off, len);
          breadLoop(c, user, len, longAdd);
        }
      };
      std::optional<KernelCosts> k;
      if (spec->op == "o2c") k = requireKernelCosts(ctx, "open/close and the read() syscalls", n);
      else if (kernelCostProvider()) k = kernelCostProvider()(ctx, 0);
      auto r = measure(n + chunk, job);
      if (k) {
        // lmbench3 doit() loops `while (size >= 0)` on a size_t: after the last chunk it makes
        // one more read() of 0 bytes, which returns 0 and ends the loop; io_only also calls
        // lseek(fd, 0, SEEK_SET) each pass (charged as one more call of the same entry + fd
        // lookup + short VFS method path).
        const double calls = std::ceil(double(n) / double(chunk)) + 1 + (spec->op == "io" ? 1 : 0);
        const double pages = std::ceil(double(n) / double(kPage));
        const double kernelNs = calls * k->syscallNs + pages * k->readPageNs +
                                (spec->op == "o2c" ? k->openCloseNs : 0.0);
        out = fromRun(double(n) / (r.seconds + kernelNs * 1e-9) / kMB, r);
        out.breakdown.add("kernel", kernelNs * 1e-9);
      } else {
        out = fromRun(double(n) / r.seconds / kMB, r);
        out.note = "read() syscall cost not modelled (no kernel-cost provider for this board)";
      }
      break;
    }
    case Kind::Stream: {
      // Arrays well beyond the last-level cache: 4x the cache capacity, at least 8 MiB.
      const std::uint64_t n = std::max<std::uint64_t>(8 * kMiB, roundUp(4 * cacheBytes, kMiB));
      const std::uint64_t A = a, B = nextBuffer(A, n), C = nextBuffer(B, n);
      const std::string op = spec->op;
      const unsigned w = 8;  // one double per load/store (compiled STREAM loop)
      Job job = [=](CoreMemory& c) {
        if (op == "copy") {  // c = a: the compiler emits a memcpy call (see the header)
          c.memcpy(C, A, n);
          return;
        }
        for (std::uint64_t off = 0; off < n; off += w) {
          // One load instruction per input array (pcs 1 and 2) in the compiled loop.
          if (op == "copy") {  // c = a
            c.load(A + off, w, 1);
            c.store(C + off, w);
          } else if (op == "scale") {  // b = s*c
            c.load(C + off, w, 1);
            c.store(B + off, w);
          } else if (op == "add") {  // c = a + b
            c.load(A + off, w, 1);
            c.load(B + off, w, 2);
            c.store(C + off, w);
          } else {  // triad: a = b + s*c
            c.load(B + off, w, 1);
            c.load(C + off, w, 2);
            c.store(A + off, w);
          }
        }
      };
      double bytesPerElem = (op == "copy" || op == "scale") ? 16 : 24;
      auto r = measure(3 * n, job);
      out = fromRun(double(n / w) * bytesPerElem / r.seconds / kMB, r);
      break;
    }
  }
  memo_[key] = out;
  return out;
}

std::uint64_t lmbenchRange(double thousandths) {
  const double written = thousandths / 1000.0 * double(kMiB);
  if (!(written < double(kMaxBufferBytes))) return toBytes(written + 0.5);
  std::uint64_t best = 0;
  for (std::uint64_t k = 512; k <= kMaxBufferBytes;) {
    const double t = double(k) / double(kMiB) * 1000.0;
    if (t >= thousandths && t < thousandths + 1 &&
        (best == 0 || std::abs(double(k) - written) < std::abs(double(best) - written)))
      best = k;
    if (k < 1024) {
      k *= 2;
    } else if (k < 4 * 1024) {
      k += 1024;
    } else {
      std::uint64_t p = 4 * 1024;
      while (p <= k) p *= 2;
      k += p / 4;
    }
  }
  return best ? best : toBytes(written + 0.5);
}

void registerMemoryBenchmarks(Registry& r) { r.add(std::make_unique<MemoryBenchmarks>()); }

void setKernelCostProvider(KernelCostProvider provider) { kernelCostProvider() = std::move(provider); }

}  // namespace socsim::wl::memory
