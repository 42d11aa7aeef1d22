#include "workloads/memory/memory_benchmarks.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
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

/// "1mb", "16m", "512k", "64kb" -> bytes (binary multiples, as lmbench parses its size argument).
std::optional<std::uint64_t> parseSize(const std::string& s) {
  static const std::regex re(R"(^([0-9]+(?:\.[0-9]+)?)(k|kb|m|mb)?$)");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return std::nullopt;
  double v = std::strtod(m[1].str().c_str(), nullptr);
  std::string u = m[2].str();
  double mul = u.empty() ? 1 : (u[0] == 'k' ? 1024.0 : double(kMiB));
  return static_cast<std::uint64_t>(v * mul);
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
    // lmbench prints sizes in MB; the guide's "szNk" is N/1000 MB. "sz50" (no k) is read as
    // lmbench's smallest size, 512 bytes (0.00049 MB).
    std::uint64_t bytes = m[3].matched && !m[3].str().empty()
                              ? static_cast<std::uint64_t>(n / 1000.0 * double(kMiB) + 0.5)
                              : 512;
    if (stride == 0) return std::nullopt;
    return Spec{Kind::LatMemRd, "chase", std::max(bytes, stride), stride};
  }
  if (std::regex_match(q.benchmark, m, latFor)) {
    double mb = std::strtod(m[1].str().c_str(), nullptr);
    return Spec{Kind::LatMemRd, "chase", static_cast<std::uint64_t>(mb * double(kMiB)), 128};
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

/// lmbench `rd`: a 4-byte load every 16 bytes (`f` variants: every 4 bytes).
void rdLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step) {
  for (std::uint64_t off = 0; off < n; off += step) c.load(a + off, 4);
}
void wrLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step) {
  for (std::uint64_t off = 0; off < n; off += step) c.store(a + off, 4);
}
void rdwrLoop(CoreMemory& c, std::uint64_t a, std::uint64_t n, unsigned step) {
  for (std::uint64_t off = 0; off < n; off += step) {
    c.load(a + off, 4);
    c.store(a + off, 4);
  }
}
void cpLoop(CoreMemory& c, std::uint64_t dst, std::uint64_t src, std::uint64_t n, unsigned step) {
  for (std::uint64_t off = 0; off < n; off += step) {
    c.load(src + off, 4);
    c.store(dst + off, 4);
  }
}

/// lmbench3's lat_mem_rd chain: every `stride`-th word of the range, visited page by page in a
/// pseudo-random page order and, within a page, in a pseudo-random order of offsets (lmbench3
/// lib_mem), which defeats stride prefetchers. Fixed seed: deterministic.
std::vector<std::uint64_t> chaseOrder(std::uint64_t base, std::uint64_t bytes, std::uint64_t stride) {
  std::mt19937_64 rng(0x5eed);
  std::uint64_t pageBytes = std::max(kPage, stride);
  std::uint64_t pages = std::max<std::uint64_t>(1, bytes / pageBytes);
  std::uint64_t perPage = std::max<std::uint64_t>(1, std::min(bytes, pageBytes) / stride);
  std::vector<std::uint64_t> pageOrder(pages), offs(perPage);
  std::iota(pageOrder.begin(), pageOrder.end(), 0);
  std::shuffle(pageOrder.begin(), pageOrder.end(), rng);
  std::vector<std::uint64_t> out;
  out.reserve(pages * perPage);
  for (auto p : pageOrder) {
    std::iota(offs.begin(), offs.end(), 0);
    std::shuffle(offs.begin(), offs.end(), rng);
    for (auto o : offs) out.push_back(base + p * pageBytes + o * stride);
  }
  return out;
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
      if (op == "rd") job = [=](CoreMemory& c) { rdLoop(c, a, n, 16); };
      else if (op == "frd") job = [=](CoreMemory& c) { rdLoop(c, a, n, 4); };
      else if (op == "wr") job = [=](CoreMemory& c) { wrLoop(c, a, n, 16); };
      else if (op == "fwr") job = [=](CoreMemory& c) { wrLoop(c, a, n, 4); };
      else if (op == "rdwr") job = [=](CoreMemory& c) { rdwrLoop(c, a, n, 16); };
      else if (op == "cp") job = [=](CoreMemory& c) { cpLoop(c, b, a, n, 16); }, footprint = 2 * n;
      else if (op == "fcp") job = [=](CoreMemory& c) { cpLoop(c, b, a, n, 4); }, footprint = 2 * n;
      else if (op == "bzero") job = [=](CoreMemory& c) { c.memzero(a, n); };
      else job = [=](CoreMemory& c) { c.memcpy(b, a, n); }, footprint = 2 * n;  // bcopy
      auto r = measure(footprint, job);
      out = fromRun(double(n) / r.seconds / kMB, r);
      break;
    }
    case Kind::LatMemRd: {
      auto order = chaseOrder(a, spec->bytes, spec->stride);
      Job job = [&order](CoreMemory& c) {
        for (auto addr : order) c.chase(addr);
      };
      auto r = measure(spec->bytes, job);
      out = fromRun(r.seconds * 1e9 / double(order.size()), r);
      break;
    }
    case Kind::MmapRd: {
      const std::uint64_t n = spec->bytes;
      auto r = measure(n, [=](CoreMemory& c) { rdLoop(c, a, n, 16); });
      out = fromRun(double(n) / r.seconds / kMB, r);
      out.note = "mmap()/munmap() and page faults are not modelled (kernel paths: a later issue)";
      break;
    }
    case Kind::FileRd: {
      // read() in 64 KiB chunks: the kernel copies page-cache pages to the user buffer, then
      // lmbench sums the buffer (rd). Syscall and open/close costs are not modelled.
      const std::uint64_t n = spec->bytes, chunk = 64 * 1024, user = nextBuffer(a, n);
      Job job = [=](CoreMemory& c) {
        for (std::uint64_t off = 0; off < n; off += chunk) {
          std::uint64_t len = std::min(chunk, n - off);
          c.memcpy(user, a + off, len);
          rdLoop(c, user, len, 16);
        }
      };
      auto r = measure(n + chunk, job);
      out = fromRun(double(n) / r.seconds / kMB, r);
      out.note = "read() syscall and open/close costs are not modelled (kernel paths: a later issue)";
      break;
    }
    case Kind::Stream: {
      // Arrays well beyond the last-level cache: 4x the cache capacity, at least 8 MiB.
      const std::uint64_t n = std::max<std::uint64_t>(8 * kMiB, roundUp(4 * cacheBytes, kMiB));
      const std::uint64_t A = a, B = nextBuffer(A, n), C = nextBuffer(B, n);
      const std::string op = spec->op;
      const unsigned w = 8;  // one double per load/store (compiled STREAM loop)
      Job job = [=](CoreMemory& c) {
        for (std::uint64_t off = 0; off < n; off += w) {
          if (op == "copy") {  // c = a
            c.load(A + off, w);
            c.store(C + off, w);
          } else if (op == "scale") {  // b = s*c
            c.load(C + off, w);
            c.store(B + off, w);
          } else if (op == "add") {  // c = a + b
            c.load(A + off, w);
            c.load(B + off, w);
            c.store(C + off, w);
          } else {  // triad: a = b + s*c
            c.load(B + off, w);
            c.load(C + off, w);
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

void registerMemoryBenchmarks(Registry& r) { r.add(std::make_unique<MemoryBenchmarks>()); }

}  // namespace socsim::wl::memory
