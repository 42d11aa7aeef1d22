#pragma once
/// @file kernel_path_params.h
/// @brief Linux kernel path parameters, scoped to the software stack (`software.kernel_paths`
///        in a board file, from `configs/components/software/linux_kernel_paths.yaml`): the
///        work the kernel executes for system calls, faults, signals, scheduling, pipes,
///        sockets, process creation and interrupts, as dynamic instruction counts that the core
///        model turns into time on each board (workloads/os/).
///
/// Instruction counts are for an AArch64 kernel; `aarch32_path_factor` / `armv5_path_factor`
/// scale them for 32-bit ARM kernels. Data the kernel moves (pipe and socket buffers, signal
/// frames, copy-on-write pages, zeroed page tables) is not in these counts: it goes through the
/// memory system as copies. Every board running the same stack shares these values (DESIGN.md
/// rule 2); fields whose source starts with "calibrated" are free parameters (issue 9).
/// Header-only so that the config loader can fill it without linking the workloads.
#include <cstdint>

#include "common/params.h"

namespace socsim::wl::os {

namespace detail {
/// Source of every path length: no published counts exist for these kernel paths.
inline constexpr const char* kKernelPathEstimate =
    "calibrated: estimate from the Linux code path named in the description (no published "
    "count; fitted by socsim calibrate)";
}  // namespace detail

/// The kernel paths of one software stack. Each field's unit, range, description (the kernel
/// functions it stands for) and source are declared once, in schema(); `socsim params --scope
/// kernel_paths` lists them. Path lengths (`*_instructions`) are dynamic AArch64 instructions.
struct KernelPathParams {
  // ---- code shape (bytes per instruction, path-length ratios)
  double code_bytes_per_instruction = 8.0;
  double data_bytes_per_instruction = 2.0;
  double path_code_bytes_max = 131072;
  double path_data_bytes_max = 131072;
  double aarch32_path_factor = 1.0;
  double armv5_path_factor = 1.1;
  double stack_path_factor = 1.0;
  // ---- entry and exit, file system calls
  double trap_instructions = 250;
  double trap_pipeline_refills = 2;
  double bhb_barrier_cycles = 100;
  bool spectre_bhb_mitigation = true;
  bool spectre_v2_switch_mm_hardening = true;
  bool lmbench_arrays_zero_page = false;
  double getppid_instructions = 40;
  double fd_instructions = 60;
  double vfs_rw_instructions = 250;
  double file_read_page_instructions = 500;
  double getname_instructions = 300;
  double path_component_instructions = 400;
  double stat_instructions = 400;
  double open_instructions = 3000;
  double close_instructions = 1500;
  // ---- signals
  double sigaction_instructions = 200;
  double kill_instructions = 300;
  double signal_send_instructions = 500;
  double signal_deliver_instructions = 1500;
  double sigreturn_instructions = 1200;
  std::uint64_t signal_frame_bytes = 1200;
  std::uint64_t aarch32_signal_frame_bytes = 888;
  double fault_signal_instructions = 800;
  // ---- memory management
  double fault_instructions = 800;
  int fault_around_pages = 16;
  double pte_map_instructions = 300;
  double pte_zap_instructions = 220;
  double page_mkwrite_instructions = 1500;
  double mmap_instructions = 3000;
  double munmap_instructions = 3000;
  double page_alloc_instructions = 400;
  double page_free_instructions = 250;
  double shmem_create_instructions = 4000;
  double shmem_write_instructions = 2000;
  double shmem_write_page_instructions = 4000;
  // ---- scheduler
  double wakeup_instructions = 800;
  double switch_instructions = 2000;
  double block_instructions = 400;
  // ---- cross-core wake-up (SMP: the woken task waits on another, idle core)
  double ipi_instructions = 600;
  double ipi_delivery_ns = 300;
  double wakeup_shared_lines = 12;
  // ---- pipes and sockets
  double pipe_call_instructions = 500;
  double pipe_page_instructions = 200;
  int pipe_buffer_pages = 16;
  int uaccess_user_access_bytes = 16;
  int aarch32_uaccess_access_bytes = 8;
  double unix_call_instructions = 1500;
  double unix_skb_instructions = 1500;
  std::uint64_t unix_skb_bytes = 36864;
  double tcp_call_instructions = 1500;
  double tcp_segment_instructions = 8000;
  double tcp_connect_instructions = 30000;
  double select_instructions = 600;
  double poll_fd_instructions = 150;
  double semop_instructions = 600;
  // ---- processes
  double fork_instructions = 80000;
  double vma_copy_instructions = 600;
  double pte_copy_instructions = 40;
  double exit_instructions = 60000;
  double exec_instructions = 100000;
  // ---- NFS client (the guides' lmbench scratch files live on the NFS root)
  double nfs_rpc_instructions = 25000;
  // ---- interrupts and real-time
  double irq_instructions = 700;
  double hrtimer_instructions = 600;
  double irq_thread_instructions = 0;
  double lock_instructions = 20;
  double locks_per_kilo_instruction = 3;
  double max_irqoff_instructions = 3000;

  static const params::Schema<KernelPathParams>& schema();
};

inline const params::Schema<KernelPathParams>& KernelPathParams::schema() {
  using P = KernelPathParams;
  // Default sources: kernel functions named per path (Linux 5.10-6.6, arch/arm64 unless noted).
  static const auto s = [] {
    params::Schema<P> sc("kernel_paths");
    // A path length: dynamic instructions from 0 to `hi`, a calibrated estimate.
    auto path = [&sc](const char* key, double P::*m, double hi, const char* what) {
      sc.real(key, m, "instructions", 0, hi, what, detail::kKernelPathEstimate);
    };
    sc.real("code_bytes_per_instruction", &P::code_bytes_per_instruction, "bytes", 0.1, 16,
            "instruction-cache footprint per dynamic instruction of a path: the whole 64-byte "
            "lines its straight-line code touches",
            "calibrated: a path executes about half of each line it fetches (error and slow-path "
            "branches interleaved with the fast path), 4-byte instructions");
    sc.real("data_bytes_per_instruction", &P::data_bytes_per_instruction, "bytes", 0, 64,
            "distinct kernel data (task, file, inode, socket, stack) touched per dynamic "
            "instruction of a path",
            "calibrated: about one 64-byte line per 32 instructions");
    sc.real("path_code_bytes_max", &P::path_code_bytes_max, "bytes", 4096, 4194304,
            "most distinct kernel code (instruction-cache footprint) one benchmark's paths "
            "execute: long paths (fork + exit, exec, connect) repeat the same helpers "
            "(allocators, locks, list, reference-count and copy helpers) and loop over "
            "structures, so their footprint stops growing with their dynamic length",
            "calibrated: estimate, the kernel text a fork + exit + wait4 touches (several hundred "
            "functions of a few hundred bytes each: about 128 KiB); bounds 32 KiB..2 MiB");
    sc.real("path_data_bytes_max", &P::path_data_bytes_max, "bytes", 4096, 4194304,
            "most distinct kernel data one benchmark's paths touch: long paths walk the same "
            "task, mm, VMA and page structures again and again, so their data footprint stops "
            "growing with their dynamic length",
            "calibrated: estimate, the structures a fork + exit + wait4 touches (task_struct and "
            "kernel stack, mm and VMAs, page tables and struct pages of the parent's pages: about "
            "128 KiB); bounds 16 KiB..2 MiB");
    sc.real("aarch32_path_factor", &P::aarch32_path_factor, "ratio", 0.3, 3,
            "path length of a 32-bit ARMv7 kernel relative to the AArch64 counts",
            "calibrated: same C paths; fewer registers to save, no KPTI/BHB entry code");
    sc.real("armv5_path_factor", &P::armv5_path_factor, "ratio", 0.3, 3,
            "path length of an ARMv5 kernel relative to the AArch64 counts",
            "calibrated: as ARMv7, plus no MOVW/MOVT and more literal loads");
    sc.real("stack_path_factor", &P::stack_path_factor, "ratio", 0.3, 5,
            "path length of this stack's kernel relative to the shared counts: what a kernel "
            "generation adds or removes on every path (entry code, hardening, tracing hooks); 1 "
            "for the base stack",
            "linux_kernel_paths.yaml: 1 by definition; a newer stack's preset declares its own "
            "(calibrated)");
    path("trap_instructions", &P::trap_instructions, 1e5,
         "kernel entry and exit of one system call or exception from user space (register "
         "save/restore, dispatch, work checks on return: entry.S, el0_svc_common, "
         "exit_to_user_mode)");
    sc.real("trap_pipeline_refills", &P::trap_pipeline_refills, "count", 0, 20,
            "pipeline refills per kernel entry and exit (exception entry and exception return are "
            "context-synchronizing); each costs the core's pipeline depth",
            "calibrated: ARM ARM: exception entry and ERET synchronize the context");
    sc.real("bhb_barrier_cycles", &P::bhb_barrier_cycles, "cycles", 0, 1e4,
            "on cores the kernel mitigates for Spectre-BHB with the branch loop (core fact "
            "`bhb_loop_iterations`): the `dsb nsh; isb` that ends the loop on every entry from "
            "user space waits for the instructions in flight and refills the pipeline",
            "calibrated: Linux arch/arm64/kernel/entry.S __mitigate_spectre_bhb_loop / arch/arm/"
            "kernel/entry-armv.S vector_bhb_loop8; no published cycle count; bounds 10..1000");
    sc.flag("spectre_bhb_mitigation", &P::spectre_bhb_mitigation,
            "the kernel runs the Spectre-BHB branch loop on entry from user space on the cores "
            "it lists as affected (core fact `bhb_loop_iterations`); false for kernels older "
            "than the mitigation",
            "Linux 5.17 / stable 4.19.y-5.15.y of March 2022 (arm64 and arm Spectre-BHB "
            "mitigations, CVE-2022-23960): a stack's kernel has it or not");
    sc.flag("lmbench_arrays_zero_page", &P::lmbench_arrays_zero_page,
            "the stack's lmbench build never writes lat_ctx's per-process arrays: the compiler "
            "folds lat_ctx.c's malloc + bzero (doit, initialize_overhead) into calloc, and glibc "
            "calloc leaves a fresh mmap chunk (sizes of M_MMAP_THRESHOLD, 128 KiB, and up) as the "
            "kernel handed it over, so bread's reads fault every page of every array in as the "
            "shared zero page: one physical page, no cache refill",
            "GCC -O2 tree-ssa-strlen malloc+memset->calloc fold (checked: GCC 12.2 -O2 on "
            "lmbench3 lat_ctx.c doit emits calloc and no memset); glibc malloc/malloc.c calloc "
            "(mmapped chunks are not cleared) and DEFAULT_MMAP_THRESHOLD_MIN 128 KiB; Linux "
            "mm/memory.c do_anonymous_page maps the zero page on a read fault");
    sc.flag("spectre_v2_switch_mm_hardening", &P::spectre_v2_switch_mm_hardening,
            "the kernel hardens the branch predictor on every switch of address space with the "
            "method its core list names (core fact `switch_mm_invalidates_icache`: the whole "
            "L1 instruction cache on Cortex-A15); false for kernels older than the hardening",
            "Linux 4.18 arch/arm/mm/proc-v7-bugs.c (CONFIG_HARDEN_BRANCH_PREDICTOR, Spectre v2, "
            "CVE-2017-5715), in the 4.14.y/4.9.y stable kernels of 2018: every release the "
            "guides measured with Linux (2018 or later) has it");
    path("getppid_instructions", &P::getppid_instructions, 1e5,
         "sys_getppid body (lmbench lat_syscall null)");
    path("fd_instructions", &P::fd_instructions, 1e5,
         "file descriptor lookup and release (fdget_pos / fdput_pos)");
    path("vfs_rw_instructions", &P::vfs_rw_instructions, 1e5,
         "vfs_read / vfs_write with rw_verify_area, security and fsnotify hooks and the character "
         "device's read_zero / write_null");
    path("file_read_page_instructions", &P::file_read_page_instructions, 1e5,
         "per page-cache page a buffered read() copies: filemap_read's batched page-cache "
         "lookup (filemap_get_read_batch, folio reference get/put), uptodate and readahead-mark "
         "checks, folio_mark_accessed, copy_page_to_iter with the iov_iter bookkeeping and the "
         "uaccess enable/disable around copy_to_user (kmap_local_page on 32-bit highmem); the "
         "4 KiB copy itself runs on the memory system");
    path("getname_instructions", &P::getname_instructions, 1e5,
         "getname: allocate a name buffer and strncpy_from_user");
    path("path_component_instructions", &P::path_component_instructions, 1e5,
         "path walk per component (hash_name, RCU dcache lookup, may_lookup)");
    path("stat_instructions", &P::stat_instructions, 1e5,
         "vfs_getattr + cp_new_stat + copy_to_user");
    path("open_instructions", &P::open_instructions, 1e6,
         "path_openat tail: alloc_empty_file, do_dentry_open, fd_install");
    path("close_instructions", &P::close_instructions, 1e6,
         "close_fd + filp_close + __fput (task work)");
    path("sigaction_instructions", &P::sigaction_instructions, 1e5,
         "do_sigaction with the sigaction copies");
    path("kill_instructions", &P::kill_instructions, 1e5,
         "kill(): find_vpid + check_kill_permission (signal 0 stops here)");
    path("signal_send_instructions", &P::signal_send_instructions, 1e5,
         "__send_signal: sigqueue allocation, pending set, complete_signal");
    path("signal_deliver_instructions", &P::signal_deliver_instructions, 1e5,
         "do_signal / get_signal + setup_rt_frame (the frame's bytes go through the memory system "
         "separately)");
    path("sigreturn_instructions", &P::sigreturn_instructions, 1e5,
         "rt_sigreturn: restore_sigframe incl. FP/SIMD state");
    sc.bytes("signal_frame_bytes", &P::signal_frame_bytes, 64, 65536,
             "signal frame an AArch64 (armv8-a) kernel writes to the user stack and sigreturn "
             "reads back",
             "arch/arm64/kernel/signal.c rt_sigframe: siginfo (128 B) + ucontext with sigcontext "
             "(272 B) and fpsimd_context (528 B) + frame record");
    sc.bytes("aarch32_signal_frame_bytes", &P::aarch32_signal_frame_bytes, 64, 65536,
             "signal frame a 32-bit ARM (ARMv7, ARMv5) kernel writes to the user stack and "
             "sigreturn reads back",
             "arch/arm/kernel/signal.h rt_sigframe = siginfo (128 B) + sigframe: struct ucontext "
             "(arch/arm/include/asm/ucontext.h: uc_flags, uc_link, stack_t 12 B, sigcontext 84 B, "
             "sigset 8 B, pad to a 128 B mask, uc_regspace 512 B holding the VFP frame) 744 B + "
             "retcode[4] 16 B = 888 B");
    path("fault_signal_instructions", &P::fault_signal_instructions, 1e5,
         "do_page_fault on a write to a read-only mapping up to arm64_force_sig_fault");
    path("fault_instructions", &P::fault_instructions, 1e5,
         "page fault: do_page_fault, VMA lookup, handle_mm_fault up to the page-cache lookup "
         "(filemap_map_pages base)");
    sc.integer("fault_around_pages", &P::fault_around_pages, "pages", 1, 512,
               "pages a read fault on a file mapping maps at once (fault-around)",
               "Linux mm/memory.c: fault_around_bytes default 65536 (16 pages of 4 KiB)");
    path("pte_map_instructions", &P::pte_map_instructions, 1e5,
         "per page mapped by a fault: page-cache xarray lookup, page reference, rmap, set_pte_at");
    path("pte_zap_instructions", &P::pte_zap_instructions, 1e5,
         "per present page at unmap or exit: zap_pte_range, rmap removal, TLB batching");
    path("page_mkwrite_instructions", &P::page_mkwrite_instructions, 1e5,
         "a write fault on a shared file mapping beyond the read fault (do_shared_fault): the "
         "file system's ->page_mkwrite (NFS nfs_vm_page_mkwrite: page lock, writeback wait, "
         "nfs_flush_incompatible, nfs_update_folio with its write request), then "
         "fault_dirty_shared_page (folio_mark_dirty, balance_dirty_pages_ratelimited); no "
         "fault-around for write faults");
    path("mmap_instructions", &P::mmap_instructions, 1e6,
         "do_mmap + mmap_region: get_unmapped_area, VMA allocation and linking");
    path("munmap_instructions", &P::munmap_instructions, 1e6,
         "do_munmap base: VMA unlink, unmap_region, free_pgtables, TLB flush");
    path("page_alloc_instructions", &P::page_alloc_instructions, 1e5,
         "allocate one page from the per-CPU lists (+ memcg charge)");
    path("page_free_instructions", &P::page_free_instructions, 1e5,
         "free one page to the per-CPU lists");
    path("shmem_create_instructions", &P::shmem_create_instructions, 1e6,
         "creat() of a new file on tmpfs beyond the path walk and the open tail: lookup_open "
         "(d_alloc_parallel, security_inode_create), shmem_mknod -> shmem_get_inode (new_inode, "
         "inode_init_always, shmem_reserve_inode, timestamps; simple_offset_add since 6.6), "
         "d_instantiate, the directory's size and times, fsnotify_create");
    path("shmem_write_instructions", &P::shmem_write_instructions, 1e5,
         "a buffered write() to a tmpfs file beyond the descriptor and vfs_write: "
         "shmem_file_write_iter / generic_file_write_iter with the inode lock, "
         "generic_write_checks, file_remove_privs, file_update_time (timestamps, "
         "mark_inode_dirty) and the i_size update of an extending write");
    path("shmem_write_page_instructions", &P::shmem_write_page_instructions, 1e5,
         "per page a buffered write() adds to a tmpfs file, beyond the page allocation: "
         "generic_perform_write -> shmem_write_begin (shmem_get_folio_gfp: page-cache miss, "
         "shmem_alloc_and_add_folio with the memcg charge, xarray insert, lruvec statistics, "
         "folio_add_lru), shmem_write_end (folio_mark_dirty, unlock, put), "
         "balance_dirty_pages_ratelimited; the copy and the zeroed tail run on the memory system");
    path("wakeup_instructions", &P::wakeup_instructions, 1e5,
         "try_to_wake_up: select_task_rq, enqueue_task, check_preempt");
    path("switch_instructions", &P::switch_instructions, 1e5,
         "__schedule: dequeue, pick_next_task, context_switch (switch_mm with ASIDs, "
         "cpu_switch_to, finish_task_switch)");
    path("block_instructions", &P::block_instructions, 1e5,
         "prepare_to_wait / finish_wait around a blocking read");
    path("ipi_instructions", &P::ipi_instructions, 1e5,
         "on the woken task's idle core: the reschedule IPI (gic_handle_irq, "
         "generic_smp_call_function_single_interrupt / sched_ttwu_pending activating the queued "
         "task, irq_exit) and the idle loop's exit into schedule()");
    sc.real("ipi_delivery_ns", &P::ipi_delivery_ns, "ns", 0, 1e5,
            "from the waker's SGI write (ICC_SGI1R_EL1 / GICD_SGIR) to the target core running "
            "its interrupt vector: GIC forwarding plus the core's exit from WFI (the idle loop "
            "of these kernels, no deeper idle state)",
            "calibrated: no published latency for the GIC-400/GIC-500 of these SoCs; first "
            "estimate 300 ns; bounds 50..3000");
    sc.real("wakeup_shared_lines", &P::wakeup_shared_lines, "lines", 0, 1000,
            "cache lines the waker writes and the woken task then reads on its own core (pipe / "
            "socket / semaphore state and wait queue, the wakee's scheduling fields, the target "
            "run queue's wake list, the message): each is fetched from the other core through "
            "the cluster's shared cache level",
            "calibrated: estimate from the structures try_to_wake_up and pipe_read touch; "
            "bounds 4..64");
    path("pipe_call_instructions", &P::pipe_call_instructions, 1e5,
         "pipe_read / pipe_write per call: pipe mutex, wait queues, file times");
    path("pipe_page_instructions", &P::pipe_page_instructions, 1e5,
         "per pipe buffer page: pipe_buffer bookkeeping (page allocation separate)");
    sc.integer("pipe_buffer_pages", &P::pipe_buffer_pages, "pages", 1, 4096, "pipe capacity",
               "Linux fs/pipe.c PIPE_DEF_BUFFERS = 16");
    sc.integer("uaccess_user_access_bytes", &P::uaccess_user_access_bytes, "bytes", 4, 16,
               "bytes per load or store on the user side of an AArch64 kernel's "
               "copy_from_user / copy_to_user (the kernel side moves LDP/STP pairs, the core's "
               "max_access_bytes): pipe, socket and file data crossing the user boundary",
               "arch/arm64/lib/copy_template.S with the uao_ldp/uao_stp alternatives of kernels "
               "before Linux 5.11: plain LDP/STP (16 B) on ARMv8.0 cores without UAO");
    sc.integer("aarch32_uaccess_access_bytes", &P::aarch32_uaccess_access_bytes, "bytes", 4, 16,
               "bytes a 32-bit ARM kernel's copy_from_user / copy_to_user moves per core cycle on "
               "either side (an ARMv5 kernel's user side is one LDRT/STRT word)",
               "arch/arm/lib/copy_template.S: LDM/STM of eight registers per 32 B, which ARMv7 "
               "cores transfer 64 bits per cycle (background knowledge: unverified)");
    path("unix_call_instructions", &P::unix_call_instructions, 1e5,
         "unix_stream_sendmsg / unix_stream_recvmsg per call");
    path("unix_skb_instructions", &P::unix_skb_instructions, 1e5,
         "per AF_UNIX socket buffer: alloc_skb_with_frags, queue, consume_skb");
    sc.bytes("unix_skb_bytes", &P::unix_skb_bytes, 256, 1 << 24,
             "payload of one AF_UNIX stream socket buffer",
             "Linux net/unix/af_unix.c unix_stream_sendmsg: SKB_MAX_HEAD(0) + UNIX_SKB_FRAGS_SZ "
             "(32 KiB)");
    path("tcp_call_instructions", &P::tcp_call_instructions, 1e5,
         "tcp_sendmsg / tcp_recvmsg per call (socket lock, wait for data)");
    path("tcp_segment_instructions", &P::tcp_segment_instructions, 1e6,
         "one TCP segment over loopback, both ends: tcp_transmit_skb, ip_queue_xmit, "
         "loopback_xmit, netif_rx, net_rx_action, ip_rcv, tcp_v4_rcv, ACK");
    path("tcp_connect_instructions", &P::tcp_connect_instructions, 1e7,
         "TCP connect + accept + close over loopback: socket set-up, three-way handshake, FIN "
         "exchange, TIME_WAIT");
    path("select_instructions", &P::select_instructions, 1e5,
         "core_sys_select base: fd set copies, poll_initwait");
    path("poll_fd_instructions", &P::poll_fd_instructions, 1e5,
         "select() per descriptor: fdget, sock_poll / tcp_poll, fdput");
    path("semop_instructions", &P::semop_instructions, 1e5,
         "do_semtimedop: IPC lookup, semaphore lock, update, wake-up queue");
    path("fork_instructions", &P::fork_instructions, 1e8,
         "kernel_clone / copy_process base: task, credentials, files, signal handlers, mm_struct, "
         "sched_fork, wake_up_new_task");
    path("vma_copy_instructions", &P::vma_copy_instructions, 1e6,
         "per VMA at fork: vm_area_dup, anon_vma_fork, copy_page_range set-up");
    path("pte_copy_instructions", &P::pte_copy_instructions, 1e5,
         "per present anonymous PTE at fork: copy_present_pte, write-protect, rmap");
    path("exit_instructions", &P::exit_instructions, 1e8,
         "do_exit + exit_mmap base + release_task + the parent's wait4");
    path("exec_instructions", &P::exec_instructions, 1e8,
         "do_execveat of a small static binary: bprm set-up, load_elf_binary, begin_new_exec, "
         "start_thread");
    path("nfs_rpc_instructions", &P::nfs_rpc_instructions, 1e8,
         "one NFS RPC on the client: nfs/sunrpc request, TCP send and receive, Ethernet driver "
         "transmit and receive interrupt");
    path("irq_instructions", &P::irq_instructions, 1e5,
         "interrupt entry, GIC acknowledge and EOI, irq_exit");
    path("hrtimer_instructions", &P::hrtimer_instructions, 1e5,
         "hrtimer_interrupt: expire the timer, reprogram the next event");
    path("irq_thread_instructions", &P::irq_thread_instructions, 1e5,
         "extra work to wake a threaded interrupt handler (PREEMPT_RT forces threaded handlers; 0 "
         "on a standard kernel)");
    path("lock_instructions", &P::lock_instructions, 1e4,
         "one kernel lock + unlock pair on the paths (spinlock; a sleeping rt_mutex-based lock "
         "with migrate_disable on PREEMPT_RT)");
    sc.real("locks_per_kilo_instruction", &P::locks_per_kilo_instruction, "count", 0, 100,
            "kernel lock + unlock pairs per 1000 instructions of a path (scales the paths by 1 + "
            "this x lock_instructions / 1000)",
            "calibrated: syscall paths take a few locks (fd table, wait queue, inode, socket)");
    path("max_irqoff_instructions", &P::max_irqoff_instructions, 1e7,
         "longest section with interrupts or preemption disabled that a high-priority wake-up can "
         "meet on an isolated core");
    return sc;
  }();
  return s;
}

}  // namespace socsim::wl::os
