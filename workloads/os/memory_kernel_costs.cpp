#include "workloads/os/memory_kernel_costs.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "soc/config/board_config.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/os/os_benchmark_params.h"
#include "workloads/os/os_machine.h"

namespace socsim::wl::os {

namespace {

constexpr double kPageBytes = 4096;  // Linux page size on these ARM kernels (4 KiB granule)

/// configs/workloads/os and the kernel code profile, loaded once; warm code runs are kept across
/// boards (OsMachine keys them by board file and overrides).
struct Shared {
  OsBenchmarkData data;
  cpu::WorkloadProfile kernel;
  CodeRunCache runs;
  std::string error;
};

Shared& shared() {
  static Shared s = [] {
    Shared x;
    try {
      x.data = loadOsBenchmarkData(defaultOsDataDir());
      x.kernel = cpu::loadProfile(x.data.kernelProfileFile);
    } catch (const std::exception& e) {
      x.error = e.what();
    }
    return x;
  }();
  return s;
}

}  // namespace

std::optional<memory::KernelCosts> memoryKernelCosts(RunContext& ctx, std::uint64_t passBytes) {
  const soc::BoardConfig& b = ctx.board();
  if (b.software.stack != "linux" && b.software.stack != "linux-rt") return std::nullopt;
  Shared& s = shared();
  if (!s.error.empty()) throw InputError(defaultOsDataDir(), 0, "", s.error);
  try {
    OsMachine m(ctx, b.software.kernel_paths, s.kernel, s.runs);
    const KernelPathParams& k = m.kernel();
    const LmbenchParams& L = s.data.lmbench;
    const SetupParams& S = s.data.setup;
    auto sys = [&](double body) { return path(k.trap_instructions + body, 1, 1); };
    auto ns = [](const Timed& t) { return t.seconds * 1e9; };

    memory::KernelCosts c;
    CodeWork open = sys(k.getname_instructions +
                        L.file_path_components * k.path_component_instructions +
                        k.open_instructions);
    open += sys(k.fd_instructions + k.close_instructions);
    open += path(k.nfs_rpc_instructions, S.open_rpcs);
    const double openNs = ns(m.codeAfterData(open, passBytes));
    c.openCloseNs = openNs + S.open_rpcs * S.nfs_rtt_us * 1e3;

    CodeWork mm = sys(k.mmap_instructions);
    mm += sys(k.munmap_instructions);
    // mmap/munmap run in the same stretch of kernel work as open/close (one pass apart): their
    // cost is what they add to it.
    CodeWork all = open;
    all += mm;
    c.mmapMunmapNs = passBytes > 0 ? std::max(0.0, ns(m.codeAfterData(all, passBytes)) - openNs)
                                   : ns(m.code(mm));

    const int fa = std::max(1, k.fault_around_pages);
    CodeWork fault = path(k.trap_instructions + k.fault_instructions, 1, 1);
    fault += path(k.pte_map_instructions + k.pte_zap_instructions, fa);
    c.pageFaultNs = ns(m.code(fault));
    c.faultAroundBytes = fa * kPageBytes;

    c.syscallNs = ns(m.code(sys(k.fd_instructions + k.vfs_rw_instructions)));
    // The pages of one 64 KiB read() (lmbench XFERSIZE) run back to back: time them as a batch.
    const double batch = double(L.xfer_bytes) / kPageBytes;
    c.readPageNs = ns(m.code(path(k.file_read_page_instructions, batch))) / batch;
    return c;
  } catch (const NotModelled&) {
    return std::nullopt;  // the board cannot run Linux (no MMU, no L1 data cache)
  }
}

}  // namespace socsim::wl::os
