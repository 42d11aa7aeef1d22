#include "workloads/builtin.h"

#include "workloads/memory/memory_benchmarks.h"

namespace socsim::wl {

void registerBuiltinWorkloads(Registry& r) {
  memory::registerMemoryBenchmarks(r);
}

}  // namespace socsim::wl
