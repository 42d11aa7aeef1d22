#include "common/paths.h"
#include "workloads/os/os_benchmark_params.h"

#include <algorithm>
#include <vector>

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/group_file.h"
#include "soc/config/schema_io.h"

namespace socsim::wl::os {

namespace {
constexpr const char* kImage =
    "calibrated: small dynamically linked lmbench process (background knowledge: "
    "/proc/PID/maps of such a process; unverified)";
}  // namespace

const params::Schema<LmbenchParams>& LmbenchParams::schema() {
  using P = LmbenchParams;
  static const auto s =
      params::Schema<P>("lmbench_os")
          .integer("process_vmas", &P::process_vmas, "count", 1, 10000,
                   "VMAs of the lmbench process that forks (binary, ld.so, libc, heap, stack, "
                   "vdso)",
                   kImage)
          .integer("process_anon_pages", &P::process_anon_pages, "pages", 0, 1 << 20,
                   "present anonymous pages (heap, stack, data, relocations) whose PTEs fork "
                   "copies",
                   kImage)
          .integer("process_page_tables", &P::process_page_tables, "pages", 0, 1 << 16,
                   "page-table pages the forked child allocates", kImage)
          .integer("fork_cow_pages", &P::fork_cow_pages, "pages", 0, 1 << 16,
                   "pages written after fork by parent and child (copy-on-write faults)", kImage)
          .integer("exec_image_pages", &P::exec_image_pages, "pages", 0, 1 << 16,
                   "pages the exec'ed program (lmbench's hello) faults in: text, data, bss, "
                   "stack, vdso",
                   kImage)
          .integer("fork_child_text_faults", &P::fork_child_text_faults, "faults", 0, 1 << 16,
                   "read faults on file-backed text the lat_proc fork child takes before it is "
                   "gone (fork copies no PTEs of a private mapping without anonymous pages, so "
                   "the child faults in every 64 KiB window of code it runs; each fault maps "
                   "fault_around_pages pages, which exit unmaps): glibc fork's child side, "
                   "exit(1) with its exit handlers (ld.so _dl_fini, stdio _IO_cleanup), _exit, "
                   "lmbench's do_fork",
                   "calibrated: estimate from lmbench3 src/lat_proc.c do_fork (the child calls "
                   "exit(1)), Linux mm/memory.c copy_page_range (VMAs without anon_vma are "
                   "skipped) and do_fault_around; the count of code windows is an estimate")
          .integer("exec_child_text_faults", &P::exec_child_text_faults, "faults", 0, 1 << 16,
                   "read faults on file-backed text the lat_proc exec child takes before execve "
                   "replaces its image (glibc fork's child side, close, execve; lmbench's "
                   "do_forkexec); execve unmaps the pages each fault mapped",
                   "calibrated: estimate from lmbench3 src/lat_proc.c do_forkexec (close(1); "
                   "execve) and Linux mm/memory.c do_fault_around; the count is an estimate")
          .integer("exec_path_components", &P::exec_path_components, "count", 1, 64,
                   "components of the exec'ed program's path", "calibrated: lmbench bin folder")
          .integer("file_path_components", &P::file_path_components, "count", 1, 64,
                   "components of the scratch file's path (lat_syscall stat/open)",
                   "calibrated: lmbench scratch file in a temporary folder")
          .real("user_handler_instructions", &P::user_handler_instructions, "instructions", 0, 1e5,
                "empty signal handler + libc sigreturn trampoline",
                "lmbench3 src/lat_sig.c: handler() { }")
          .real("proccall_instructions", &P::proccall_instructions, "instructions", 1, 1e4,
                "lat_proc procedure call: call, return, loop counter and test",
                "calibrated: lmbench3 src/lat_proc.c do_procedure calls use_int(r) once per "
                "iteration (lib_timing.c: use_result_dummy += result): loop decrement, test and "
                "branch, call, the global's address, load, add, store, return (9; the chain "
                "through use_result_dummy in memory, store-to-load, is not modelled)")
          .bytes("xfer_bytes", &P::xfer_bytes, 1, 1ull << 30,
                 "bytes per read()/write() of bw_pipe and bw_unix",
                 "lmbench3 src/bench.h XFERSIZE (64 KiB)")
          .integer("reader_offset_bytes", &P::reader_offset_bytes, "bytes", 0, 4096,
                   "bw_pipe reader buffer offset from page alignment",
                   "lmbench3 src/bw_pipe.c: state->buf += 128")
          .integer("select_fds", &P::select_fds, "count", 1, 65536, "descriptors lat_select polls",
                   "the guides' row 'select_on_200_tcp_fds'")
          .bytes("mmap_touch_stride_bytes", &P::mmap_touch_stride_bytes, 4096, 1ull << 30,
                 "lat_mmap writes one byte every PSIZE bytes", "lmbench3 src/lat_mmap.c PSIZE")
          .integer("mmap_touch_divisor", &P::mmap_touch_divisor, "count", 1, 1000,
                   "lat_mmap touches the first size/N bytes of the mapping",
                   "lmbench3 src/lat_mmap.c N")
          .bytes("pagefault_file_bytes", &P::pagefault_file_bytes, 1 << 20, 1ull << 34,
                 "size of the file lat_pagefault maps (pages touched in random order)",
                 "calibrated: lmbench's scratch file (>= 1 MB, src/lat_pagefault.c)")
          .integer("sum_access_bytes", &P::sum_access_bytes, "bytes", 1, 64,
                   "width of lat_ctx sumit() loads", "lmbench3 src/lat_ctx.c sumit (int)")
          .real("benchmp_enough_us", &P::benchmp_enough_us, "us", 100, 1e7,
                "benchmp's timing interval: each timed run is sized to last about this long",
                "lmbench3 src/lib_timing.c compute_enough: the first of 5000, 10000, 50000, "
                "100000 us whose timing scales linearly (5000 on a quiet board; the ENOUGH "
                "variable of lmbench's scripts carries it)")
          .real("benchmp_iteration_margin", &P::benchmp_iteration_margin, "ratio", 1, 2,
                "benchmp sets the iterations of the next run to margin x enough / the time of "
                "one iteration (+1) and keeps them while a run lasts 0.99-1.2 x enough; lat_fs "
                "prints that count as its number of files",
                "lmbench3 src/lib_timing.c benchmp_interval (tmp *= 1.1 * state->enough)");
  return s;
}

const params::Schema<SetupParams>& SetupParams::schema() {
  using P = SetupParams;
  static const auto s =
      params::Schema<P>("measurement_setup")
          .real("nfs_rtt_us", &P::nfs_rtt_us, "us", 0, 1e6,
                "NFS RPC round trip over the lab network incl. the server's turnaround for a "
                "cached operation",
                "calibrated: set-up fact, Gigabit LAN + Linux NFS server (~100-200 us)")
          .real("nfs_sync_op_us", &P::nfs_sync_op_us, "us", 0, 1e7,
                "server time of an operation committed to stable storage (CREATE, COMMIT)",
                "calibrated: set-up fact, one journal commit on the server's disk")
          .integer("open_rpcs", &P::open_rpcs, "count", 0, 100,
                   "RPCs of open()+close() of an unmodified file (close-to-open GETATTR)",
                   "RFC 7530 / Linux NFS close-to-open consistency")
          .real("link_mbps", &P::link_mbps, "Mbit/s", 0, 1e6,
                "lab link rate for the NFS data; 0 = the board's Ethernet port speed",
                "board fact (peripherals[].link_speed_mbps)");
  return s;
}

const params::Schema<CyclictestParams>& CyclictestParams::schema() {
  using P = CyclictestParams;
  static const auto s =
      params::Schema<P>("cyclictest")
          .real("user_instructions", &P::user_instructions, "instructions", 0, 1e6,
                "cyclictest's loop between wake-up and its time stamp (clock_gettime in the vDSO)",
                "calibrated: rt-tests cyclictest.c timerthread loop")
          .bytes("stream_bytes", &P::stream_bytes, 4096, 1ull << 32,
                 "working set of one background memory stream",
                 "calibrated: beyond the L2, as memory stress tools use");
  return s;
}

const params::Schema<RtLoadParams>& RtLoadParams::schema() {
  using P = RtLoadParams;
  static const auto s =
      params::Schema<P>("rt_load")
          .text("description", &P::description, "what the background load runs",
                "the guide's use-case name")
          .integer("memory_streams", &P::memory_streams, "count", 0, 64,
                   "other cores streaming memory during the measurement",
                   "calibrated: assumption from the use-case name")
          .integer("irq_sources", &P::irq_sources, "count", 0, 64,
                   "device interrupts that can be taken on the isolated core just before the "
                   "timer interrupt",
                   "calibrated: assumption from the use-case name");
  return s;
}

OsBenchmarkData loadOsBenchmarkData(const std::string& dir) {
  OsBenchmarkData d;
  config::Sources src;
  {
    const std::string file = dir + "/lmbench_os.yaml";
    config::Node root = config::loadMapFile(file);
    config::rejectUnknownGroups(root, {"lmbench", "setup", "aliases", "kernel_profile"});
    config::readFileGroup(root, file, "lmbench", d.lmbench);
    config::readFileGroup(root, file, "setup", d.setup);
    if (const config::Node* a = root.find("aliases")) {
      if (!a->isMap())
        throw InputError(a->file, a->line, "aliases", "expected a map name: lmbench_name");
      for (const auto& [k, v] : a->map) {
        if (!v.isScalar() || v.scalar.empty())
          throw InputError(v.file, v.line, "aliases." + k, "expected an lmbench benchmark name");
        d.aliases[k] = v.scalar;
      }
    }
    const config::Node* kp = root.find("kernel_profile");
    if (!kp || !kp->isScalar())
      throw InputError(file, root.line, "kernel_profile",
                       "expected the kernel code profile's file (relative to this file)");
    d.kernelProfileFile = dir + "/" + kp->scalar;
  }
  {
    const std::string file = dir + "/cyclictest.yaml";
    config::Node root = config::loadMapFile(file);
    config::rejectUnknownGroups(root, {"cyclictest", "use_cases"});
    config::readFileGroup(root, file, "cyclictest", d.cyclictest);
    const config::Node* u = root.find("use_cases");
    if (!u || !u->isMap() || u->map.empty())
      throw InputError(file, root.line, "use_cases",
                       "expected a map USE_CASE: {memory_streams, ...}");
    for (const auto& [k, v] : u->map) {
      RtLoadParams r;
      config::readGroup(RtLoadParams::schema(), r, v, "use_cases." + k, file, src);
      d.rtLoads[k] = r;
    }
  }
  return d;
}

std::string defaultOsDataDir() {
  return socsim::configsDir() + "/workloads/os";
}

}  // namespace socsim::wl::os
