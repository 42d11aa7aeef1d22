#pragma once
/// @file timeline.h
/// @brief Reservation calendar of one shared resource (a data bus, a link, a cache port).
///
/// Loosely-timed models compute each transaction's timing when it is called, from absolute
/// timestamps in picoseconds. Because initiators run temporally decoupled, calls do not arrive in
/// time order; a plain "busy until" counter would push an early request behind a later one. The
/// timeline keeps the reserved intervals of a recent window and places each request in the first
/// gap at or after its earliest start, honouring a gap that may depend on the kinds of the
/// neighbouring reservations (e.g. DRAM read-to-write / write-to-read bus turnaround).
/// Intervals older than the window are forgotten (their gaps can no longer be filled).
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace socsim::models {

class Timeline {
 public:
  static constexpr int kKinds = 2;
  /// @param window how many intervals to keep before forgetting the oldest half.
  explicit Timeline(std::size_t window = 256) : window_(window) { gap_.fill({0, 0}); }

  /// Required idle time between a reservation of kind `before` and one of kind `after`.
  void setGap(int before, int after, std::uint64_t ps) { gap_[before][after] = ps; }

  /// Reserve `duration` ps starting at or after `earliest`; returns the start.
  std::uint64_t reserve(std::uint64_t earliest, std::uint64_t duration, int kind = 0) {
    std::uint64_t s = std::max(earliest, floor_);
    // First interval that could constrain s: intervals are disjoint and sorted, so ends are
    // sorted too; skip those ending (plus the largest gap) before s.
    std::size_t i = static_cast<std::size_t>(
        std::lower_bound(iv_.begin(), iv_.end(), s,
                         [this](const Interval& a, std::uint64_t v) { return a.end + maxGap() <= v; }) -
        iv_.begin());
    for (;; ++i) {
      if (i > 0) s = std::max(s, iv_[i - 1].end + gap_[iv_[i - 1].lastKind][kind]);
      if (i == iv_.size() || s + duration + gap_[kind][iv_[i].firstKind] <= iv_[i].start) break;
    }
    insert(i, s, s + duration, kind);
    busyPs_ += duration;
    return s;
  }

  /// End of the latest reservation (0 if none).
  std::uint64_t lastEnd() const { return iv_.empty() ? floor_ : iv_.back().end; }
  /// Kind of the latest reservation (-1 if none).
  int lastKind() const { return iv_.empty() ? -1 : iv_.back().lastKind; }
  /// Total reserved time since construction or resetBusy().
  std::uint64_t busyPs() const { return busyPs_; }
  void resetBusy() { busyPs_ = 0; }
  /// Forget every reservation (new benchmark); keeps the floor at `nowPs`.
  void clear(std::uint64_t nowPs) {
    iv_.clear();
    floor_ = nowPs;
  }

 private:
  struct Interval {
    std::uint64_t start, end;
    int firstKind, lastKind;
  };
  std::uint64_t maxGap() const {
    std::uint64_t m = 0;
    for (auto& r : gap_)
      for (auto g : r) m = std::max(m, g);
    return m;
  }
  void insert(std::size_t i, std::uint64_t s, std::uint64_t e, int kind) {
    bool joinPrev = i > 0 && iv_[i - 1].end == s && iv_[i - 1].lastKind == kind;
    bool joinNext = i < iv_.size() && iv_[i].start == e && iv_[i].firstKind == kind;
    if (joinPrev && joinNext) {
      iv_[i - 1].end = iv_[i].end;
      iv_[i - 1].lastKind = iv_[i].lastKind;
      iv_.erase(iv_.begin() + static_cast<long>(i));
    } else if (joinPrev) {
      iv_[i - 1].end = e;
    } else if (joinNext) {
      iv_[i].start = s;
    } else {
      iv_.insert(iv_.begin() + static_cast<long>(i), Interval{s, e, kind, kind});
      if (iv_.size() > window_) {
        std::size_t drop = iv_.size() / 2;
        floor_ = std::max(floor_, iv_[drop - 1].end);
        iv_.erase(iv_.begin(), iv_.begin() + static_cast<long>(drop));
      }
    }
  }

  std::size_t window_;
  std::vector<Interval> iv_;
  std::array<std::array<std::uint64_t, kKinds>, kKinds> gap_;
  std::uint64_t floor_ = 0;
  std::uint64_t busyPs_ = 0;
};

}  // namespace socsim::models
