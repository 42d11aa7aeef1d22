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
/// depending on all the page-number bits). Not modelled: TLBs and page walks, huge pages,
/// page faults.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace socsim::models {

class PageMap {
 public:
  enum class Kind { Identity, Scattered };
  static constexpr int kPageShift = 12;  ///< 4 KiB pages (ARM Linux default granule)

  PageMap() = default;
  explicit PageMap(Kind k, std::uint64_t seed = 0x5eed) : kind_(k), seed_(seed) {}
  /// "identity" | "scattered" (throws std::invalid_argument otherwise).
  static PageMap fromName(const std::string& name);

  Kind kind() const { return kind_; }
  bool identity() const { return kind_ == Kind::Identity; }

  std::uint64_t translate(std::uint64_t va) const {
    if (kind_ == Kind::Identity) return va;
    const std::uint64_t off = va & ((1ull << kPageShift) - 1);
    return (frame(va >> kPageShift) << kPageShift) | off;
  }
  /// Translate a line (block) number of `lineShift` bits per line.
  std::uint64_t translateBlock(std::uint64_t blk, int lineShift) const {
    return kind_ == Kind::Identity ? blk : translate(blk << lineShift) >> lineShift;
  }

 private:
  static constexpr int kFrameBits = 20;  ///< frames permuted within 4 GiB windows
  /// Bijection on the low kFrameBits bits of the page number (xor, odd multiply and
  /// xor-shift steps are each invertible modulo 2^kFrameBits); higher bits are kept.
  std::uint64_t frame(std::uint64_t vpn) const {
    constexpr std::uint64_t m = (1ull << kFrameBits) - 1;
    std::uint64_t x = (vpn ^ seed_) & m;
    x = (x * 0x9E3779B1ull) & m;
    x ^= x >> 11;
    x = (x * 0x85EBCA77ull) & m;
    x ^= x >> 7;
    x = (x * 0xC2B2AE3Dull) & m;
    x ^= x >> 13;
    return (vpn & ~m) | x;
  }

  Kind kind_ = Kind::Identity;
  std::uint64_t seed_ = 0x5eed;
};

inline PageMap PageMap::fromName(const std::string& name) {
  if (name == "identity") return PageMap(Kind::Identity);
  if (name == "scattered") return PageMap(Kind::Scattered);
  throw std::invalid_argument("physical page allocation '" + name +
                              "' (expected identity or scattered)");
}

}  // namespace socsim::models
