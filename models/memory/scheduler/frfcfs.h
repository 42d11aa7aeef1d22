#pragma once
/// @file frfcfs.h
/// @brief First-ready FCFS: row hits first, then the oldest; reads may overtake older reads.
#include "models/memory/scheduler/scheduler.h"

namespace socsim::models {

class FrFcfs : public Scheduler {
 public:
  explicit FrFcfs(int maxRowHits = 16) : maxRowHits_(maxRowHits) {}
  bool reorderReads() const override { return true; }
  std::size_t pickWrite(const std::vector<QueuedWrite>& q,
                        const std::function<bool(const QueuedWrite&)>& isRowHit) override;

 private:
  int maxRowHits_;
  int streak_ = 0;
};
void registerFrFcfs();

}  // namespace socsim::models
