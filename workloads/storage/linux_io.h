#pragma once
/// @file linux_io.h
/// @brief The Linux side of the storage rows: dd-style buffered file I/O (page cache,
///        readahead, writeback), fio direct asynchronous I/O, UBIFS on raw flash and raw MTD
///        reads, as instruction counts run on the board's core model plus copies through the
///        memory system, composed with the storage path's request times.
///
/// Steady state of a sequential stream, per unit of work (one block request, one fio I/O,
/// one UBIFS page):
///  - block media, buffered: reads go out as readahead requests of
///    min(max(readahead, buffer), max request) bytes, writes as writeback requests of the
///    largest request size; the device and the CPU overlap (asynchronous readahead and
///    writeback), except the driver's completion-to-next-issue turnaround, so
///    wall = max(device + turnaround, CPU);
///  - fio (libaio, direct, iodepth N): each I/O splits into requests of at most the largest
///    request size; CPU overlaps the device; devices with internal queues overlap up to
///    min(N, queue depth) I/Os;
///  - UBIFS: one page at a time (synchronous readpage; journal writes with programme and
///    erase polled by the CPU), so wall = device + CPU.
/// CPU load = CPU busy / (wall x Linux cores) x 100.
#include <string>

#include "workloads/storage/storage_case.h"
#include "workloads/storage/storage_params.h"
#include "workloads/storage/storage_paths.h"
#include "workloads/workload.h"

namespace socsim::wl::storage {

/// What the board's cores cost, measured once per board on its core and memory models.
struct CoreCosts {
  double clockHz = 1e9;
  int linuxCores = 1;                  ///< cores the load is averaged over
  double kernelSecondsPerInstr = 1e-9; ///< kernel control code (kernel_path profile)
  /// Path length of the row's Linux release relative to the shared counts of linux_io.yaml
  /// (dimensionless; `software.kernel_paths.stack_path_factor`, linuxReleaseCosts; 1 = as
  /// counted). It scales the kernel paths of the Linux I/O rows, not fio's own loop.
  double kernelPathFactor = 1;
  double loopSecondsPerInstr = 1e-9;   ///< tight data loops (data_loop profile)
  /// The XIP benchmark's single-precision FIR loop (fir_f32 profile, measured only for XIP
  /// rows); 0 = not measured, the data-loop cost stands in.
  double firSecondsPerInstr = 0;
  double copySecondsPerByte = 1e-9;    ///< copy of cold page-cache data (memcpy on the platform)
  double kernelIpc = 1;
  /// Kernel instructions (AArch64 count times the board's ISA path factor) of one synchronous
  /// wait for a device completion: prepare/finish_wait, the switch to the idle task and back,
  /// and the wake-up from the completion handler (`software.kernel_paths` block + 2 x switch +
  /// wakeup, shared with the OS rows; the row's release's counts for Linux rows, linuxReleaseCosts;
  /// a kernel path, so it runs at kernelPathSeconds()). Paid by every flash operation that completes by interrupt (the caller
  /// sleeps in wait_for_completion).
  double syncWaitInstructions = 0;
  /// Kernel instructions of one bare interrupt (entry, GIC acknowledge, exit; the handler's own
  /// register accesses are the controller's): `software.kernel_paths.irq_instructions` times the
  /// board's ISA path factor, a kernel path. Paid per word by interrupt-driven SPI PIO.
  double irqEntryInstructions = 0;
  /// Seconds per instruction of a Linux kernel path of the row's release.
  double kernelPathSeconds() const { return kernelSecondsPerInstr * kernelPathFactor; }
};

/// Seconds of one unit of work and its parts.
struct IoEstimate {
  double bytes = 0;  ///< payload per unit
  double wall = 0;   ///< seconds per unit
  double cpu = 0;    ///< CPU busy seconds per unit (all cores)
  Breakdown parts;   ///< the critical path
  std::string note;
  double throughput() const { return wall > 0 ? bytes / wall : 0; }
  double loadPercent(int cores) const {
    return wall > 0 ? 100.0 * cpu / (wall * std::max(1, cores)) : 0;
  }
};

IoEstimate linuxBuffered(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                         const StorageCase& c);
IoEstimate linuxFio(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                    const StorageCase& c);
IoEstimate linuxUbifs(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                      const StorageCase& c);
IoEstimate linuxRawFlashRead(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                             const StorageCase& c);

/// `v` with three significant digits (for notes).
std::string g3(double v);

/// Instructions of the per-page file-system work of `fs` ("raw", "ext2", "ext4", "vfat",
/// "ubifs") for reads or writes.
double pageInstructions(const LinuxIoParams& p, const std::string& fs, models::storage::Dir dir);

/// The path's request time added to `b` under part names ("device.access", "bus.command",
/// "bus.transfer", "controller.setup", "flash.erase"), scaled by `k`, each name followed by
/// `suffix`. Breakdowns list the critical path of one unit of work; parts that run in
/// parallel with it carry the suffix " (overlapped)" and are not part of its time.
void addRequestParts(Breakdown& b, const models::storage::RequestTime& t, double k = 1,
                     const std::string& suffix = "");

}  // namespace socsim::wl::storage
