#include "models/memory/scheduler/fcfs.h"

namespace socsim::models {

void registerFcfs() {
  SchedulerFactory::add("fcfs", [](int) { return std::unique_ptr<Scheduler>(new Fcfs()); });
}

}  // namespace socsim::models
