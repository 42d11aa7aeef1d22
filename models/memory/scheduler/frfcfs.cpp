#include "models/memory/scheduler/frfcfs.h"

namespace socsim::models {

std::size_t FrFcfs::pickWrite(const std::vector<QueuedWrite>& q,
                              const std::function<bool(const QueuedWrite&)>& isRowHit) {
  // q is in arrival order: index 0 is the oldest.
  if (streak_ < maxRowHits_)
    for (std::size_t i = 0; i < q.size(); ++i)
      if (isRowHit(q[i])) {
        ++streak_;
        return i;
      }
  streak_ = 0;
  return 0;
}

void registerFrFcfs() {
  SchedulerFactory::add("frfcfs", [](int cap) { return std::unique_ptr<Scheduler>(new FrFcfs(cap)); });
}

}  // namespace socsim::models
