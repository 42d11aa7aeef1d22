#include "models/memory/scheduler/scheduler.h"

#include "models/memory/scheduler/fcfs.h"
#include "models/memory/scheduler/frfcfs.h"

namespace socsim::models {

void registerBuiltinSchedulers() {
  static const bool once = [] {
    registerFrFcfs();
    registerFcfs();
    return true;
  }();
  (void)once;
}

std::unique_ptr<Scheduler> makeScheduler(const std::string& name, int maxRowHits) {
  registerBuiltinSchedulers();
  return SchedulerFactory::create(name, maxRowHits);
}

}  // namespace socsim::models
