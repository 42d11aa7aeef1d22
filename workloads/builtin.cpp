#include "workloads/builtin.h"

#include "workloads/memory/memory_benchmarks.h"

#include "workloads/cpu/cpu_workloads.h"

namespace socsim::wl {

void registerBuiltinWorkloads(Registry& r) {
  memory::registerMemoryBenchmarks(r);
  cpu::registerCpuWorkloads(r);
}

}  // namespace socsim::wl
