#pragma once
/// @file core_memory_pages.h
/// @brief Virtual-to-physical page mapping seen by the core's memory front end (its MMU).
///
/// Workloads address memory with virtual addresses. Physically indexed caches (every L2/L3 and
/// most L1 data caches) and the DRAM address mapping see physical addresses, and under Linux
/// the physical frames of a freshly allocated buffer are scattered: the buddy allocator hands
/// out order-0 pages from its free lists in no particular order. That is what makes a buffer
/// the size of a 2-way L1 conflict with itself (the cache-index bits above the page offset come
/// from the frame number) and what gives the L2 knee of lat_mem_rd its width.
///
/// `identity` keeps physical = virtual (bare-metal tests, analytic checks); `scattered` maps
/// every 4 KiB page to a frame chosen by a fixed bijective hash of the page number (a stand-in
/// for the allocator's order: deterministic, collision-free, and with the frame's low bits
/// depending on all the page-number bits). `runs` is what a process that faults a fresh buffer
/// in page order gets from Linux: its order-0 pages come from the per-CPU page list, which
/// rmqueue_bulk refills `pcp->batch` pages at a time from split buddy blocks, added in physical
/// page order (mm/page_alloc.c; zone_batchsize() gives 31 pages for any zone of 512 MiB or
/// more), so consecutive virtual pages sit in runs of consecutive frames and only the runs are
/// scattered: kRunPages (32) aligned virtual pages map to 32 consecutive frames, each run at a
/// hashed place. A buffer then covers the cache colours evenly within each run, and a buffer
/// the size of a cache does not conflict with itself. Not modelled: TLBs and page walks, huge
/// pages, page faults.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace socsim::models {

class PageMap {
 public:
  enum class Kind { Identity, Scattered, Runs };
  static constexpr int kPageShift = 12;  ///< 4 KiB pages (ARM Linux default granule)
  /// log2 of the pages of one run of `runs` (32 = the per-CPU list batch of 31 pages rounded up
  /// to a power of two, so runs stay aligned and frames stay in the page's 4 GiB window).
  static constexpr int kRunShift = 5;

  PageMap() = default;
  explicit PageMap(Kind k, std::uint64_t seed = 0x5eed) : kind_(k), seed_(seed) {}
  /// "identity" | "scattered" | "runs" (throws std::invalid_argument otherwise).
  static PageMap fromName(const std::string& name);

  Kind kind() const { return kind_; }
  bool identity() const { return kind_ == Kind::Identity; }

  std::uint64_t translate(std::uint64_t va) const {
    if (kind_ == Kind::Identity) return va;
    const std::uint64_t off = va & ((1ull << kPageShift) - 1);
    const std::uint64_t vpn = va >> kPageShift;
    if (kind_ == Kind::Runs) {
      const std::uint64_t in = vpn & ((1ull << kRunShift) - 1);
      const std::uint64_t run = frame(vpn >> kRunShift, kFrameBits - kRunShift);
      return (((run << kRunShift) | in) << kPageShift) | off;
    }
    return (frame(vpn, kFrameBits) << kPageShift) | off;
  }
  /// Translate a line (block) number of `lineShift` bits per line.
  std::uint64_t translateBlock(std::uint64_t blk, int lineShift) const {
    return kind_ == Kind::Identity ? blk : translate(blk << lineShift) >> lineShift;
  }

 private:
  static constexpr int kFrameBits = 20;  ///< frames permuted within 4 GiB windows
  /// Bijection on the low `bits` bits of `x` (xor, odd multiply and xor-shift steps are each
  /// invertible modulo 2^bits); higher bits are kept. `scattered` permutes page numbers
  /// (kFrameBits: within 4 GiB windows), `runs` permutes run numbers (kFrameBits - kRunShift:
  /// the same windows).
  std::uint64_t frame(std::uint64_t x0, int bits) const {
    const std::uint64_t m = (1ull << bits) - 1;
    std::uint64_t x = (x0 ^ seed_) & m;
    x = (x * 0x9E3779B1ull) & m;
    x ^= x >> 11;
    x = (x * 0x85EBCA77ull) & m;
    x ^= x >> 7;
    x = (x * 0xC2B2AE3Dull) & m;
    x ^= x >> 13;
    return (x0 & ~m) | x;
  }

  Kind kind_ = Kind::Identity;
  std::uint64_t seed_ = 0x5eed;
};

inline PageMap PageMap::fromName(const std::string& name) {
  if (name == "identity") return PageMap(Kind::Identity);
  if (name == "scattered") return PageMap(Kind::Scattered);
  if (name == "runs") return PageMap(Kind::Runs);
  throw std::invalid_argument("physical page allocation '" + name +
                              "' (expected identity, scattered or runs)");
}

}  // namespace socsim::models
