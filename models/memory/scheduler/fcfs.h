#pragma once
/// @file fcfs.h
/// @brief Strict FCFS: data returns in arrival order, writes drain oldest first.
#include "models/memory/scheduler/scheduler.h"

namespace socsim::models {

class Fcfs : public Scheduler {
 public:
  bool reorderReads() const override { return false; }
  std::size_t pickWrite(const std::vector<QueuedWrite>&,
                        const std::function<bool(const QueuedWrite&)>&) override {
    return 0;
  }
};
void registerFcfs();

}  // namespace socsim::models
