#pragma once
/// @file firmware_paths.h
/// @brief Storage paths without Linux's I/O stack: U-Boot's mmc/ufs/sf/fat commands (polled,
///        one command at a time, timed with U-Boot's millisecond timer), the AM64x ROM + MCU+
///        SBL boot stages, Linux boot from SD, the R5F XIP benchmark and the USB mass-storage
///        gadget seen from its host.
#include <string>

#include "workloads/storage/linux_io.h"
#include "workloads/storage/storage_data.h"
#include "workloads/storage/storage_paths.h"

namespace socsim::wl::storage {

/// Elapsed time of one operation and its parts.
struct TimedRun {
  double seconds = 0;
  Breakdown parts;
  std::string note;
};

/// U-Boot `mmc read/write`, `fatload/fatwrite`, `ufs read/write` (scsi), `sf read/write`
/// of c.bytes; `seconds` is what U-Boot's timer reports (quantized to its resolution).
TimedRun ubootTransfer(const BoardPath& bp, const CoreCosts& cc, const UbootParams& u,
                       const StorageCase& c);

/// One SBL stage (c.stage is the row's benchmark name) or the total, in seconds.
/// `sd` / `ospi` are the board's SD and OSPI paths (either may be null when absent).
TimedRun sblStage(const BoardPath* sd, const BoardPath* ospi, const CoreCosts& cc,
                  const SblParams& s, const StorageCase& c);

/// Linux boot from SD: kernel to /bin/sh (c.stage "shell") or to the login prompt ("full").
TimedRun linuxBoot(const BoardPath& sd, const CoreCosts& cc, const LinuxBootParams& b,
                   const LinuxIoParams& io, const StorageCase& c);

/// XIP benchmark call in core cycles (returned in `seconds` as cycles).
TimedRun xipCycles(const BoardPath& ospi, const CoreCosts& cc, const XipParams& x,
                   const StorageCase& c);

/// USB mass-storage gadget throughput seen by the host: seconds per host request of
/// `bytesOut` bytes. `backing` is the medium holding the gadget's backing file (read or
/// written back through the gadget's page cache, overlapped with the link); null = RAM.
TimedRun gadgetRequest(const BoardPath& usb, const BoardPath* backing, const CoreCosts& cc,
                       const LinuxIoParams& io, const StorageCase& c, double& bytesOut);

}  // namespace socsim::wl::storage
