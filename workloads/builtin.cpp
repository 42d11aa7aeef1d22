#include "workloads/builtin.h"

#include "workloads/memory/memory_benchmarks.h"

#include "workloads/cpu/cpu_workloads.h"
#include "workloads/net/net_workloads.h"
#include "workloads/crypto/crypto_workloads.h"
#include "workloads/storage/storage_workloads.h"
#include "workloads/os/memory_kernel_costs.h"
#include "workloads/os/os_benchmarks.h"

#include "workloads/mcu/mcu_workloads.h"
#include "workloads/media/media_workloads.h"

namespace socsim::wl {

void registerBuiltinWorkloads(Registry& r) {
  memory::registerMemoryBenchmarks(r);
  // The o2c memory rows' kernel part comes from the Linux kernel-path model.
  memory::setKernelCostProvider(os::memoryKernelCosts);
  cpu::registerCpuWorkloads(r);
  net::registerNetWorkloads(r);
  crypto::registerCryptoWorkloads(r);
  storage::registerStorageWorkloads(r);
  os::registerOsWorkloads(r);
  mcu::registerMcuWorkloads(r);
  media::registerMediaWorkloads(r);
}

}  // namespace socsim::wl
