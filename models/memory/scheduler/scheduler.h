#pragma once
/// @file scheduler.h
/// @brief DDR request scheduler interface and registry ("frfcfs", "fcfs").
///
/// Reads are timed when they arrive (loosely-timed); the scheduler decides whether a read may
/// take a data-bus slot earlier than reads scheduled before it (first-ready: its bank is ready
/// sooner, typically a row hit) and which queued write a drain issues next.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/base/factory.h"

namespace socsim::models {

/// A posted write waiting in the controller's write queue.
struct QueuedWrite {
  std::uint64_t arrivalPs = 0;
  std::uint64_t addr = 0;
  unsigned bytes = 0;
  int slot = 0;  ///< write-queue slot it occupies
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// True when a read may be served before reads that arrived earlier.
  virtual bool reorderReads() const = 0;
  /// Index in `q` of the write to issue next; `isRowHit(w)` tells whether its row is open.
  virtual std::size_t pickWrite(const std::vector<QueuedWrite>& q,
                                const std::function<bool(const QueuedWrite&)>& isRowHit) = 0;
};

/// Argument: the row-hit streak cap (max_row_hits).
using SchedulerFactory = Factory<Scheduler, int>;
void registerBuiltinSchedulers();
std::unique_ptr<Scheduler> makeScheduler(const std::string& name, int maxRowHits);

}  // namespace socsim::models
