#pragma once
/// @file storage_workloads.h
/// @brief The storage and boot rows (families mmc-sd, emmc, flash, nand, sata, usb mass
///        storage and gadget, ufs, pcie NVMe, boot, xip) as one workload: each row is parsed into
///        a StorageCase, the board's path for its medium is built from the board's peripheral
///        facts and the controller/device presets, and the application's model (Linux I/O,
///        U-Boot, SBL, Linux boot, XIP, gadget) turns request times and core work into the row's
///        metric. Core work runs on the board's core model once per board (kernel-code and
///        data-loop profiles, a cold memcpy on the platform) and is cached.
///
/// Not covered (left to other workloads): PCIe Ethernet rows, USB RNDIS networking rows.
#include <map>
#include <memory>
#include <string>

#include "workloads/storage/firmware_paths.h"
#include "workloads/storage/linux_io.h"
#include "workloads/os/kernel_path_params.h"
#include "workloads/storage/storage_data.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct BoardConfig;
struct SoftwareParams;
}  // namespace socsim::soc

namespace socsim::wl::storage {

class StorageWorkloads : public Workload {
 public:
  explicit StorageWorkloads(std::string dir);
  std::string name() const override { return "storage"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

  /// The loaded data (throws the load error).
  const StorageData& data();
  /// The board's core costs (measured on first use, cached per board and overrides).
  const CoreCosts& coreCosts(RunContext& ctx);

 private:
  std::string dir_;
  std::unique_ptr<StorageData> data_;
  std::string loadError_;
  std::map<std::string, CoreCosts> costs_;
};

/// Measure a board's core costs (kernel-code and data-loop CPI, cold-copy rate, Linux cores).
CoreCosts measureCoreCosts(RunContext& ctx, const StorageData& data);

/// Kernel instructions of one synchronous wait for a device completion on board `b` under the
/// kernel paths `kp`: block + 2 x switch + wakeup, times the ISA path factor (AArch32 boards).
double syncWaitInstructions(const soc::BoardConfig& b, const os::KernelPathParams& kp);

/// The core costs of the Linux I/O paths of a row that ran on release `sw`: the storage path
/// counts (configs/workloads/storage/linux_io.yaml) and the completion wait are kernel paths, so
/// they take the release's path length, `sw.kernel_paths.stack_path_factor` (dimensionless; 1
/// for the older SDKs, fitted with the OS rows for a newer kernel generation) as the OS rows do
/// (CoreCosts::kernelPathFactor), and the wait its kernel_paths counts. fio's own loop, copies,
/// data loops and U-Boot work are not kernel paths and keep the measured costs.
CoreCosts linuxReleaseCosts(const CoreCosts& cc, const soc::BoardConfig& b,
                            const soc::SoftwareParams& sw);

/// Register the storage workloads (data from defaultStorageDir()).
void registerStorageWorkloads(Registry& r);

}  // namespace socsim::wl::storage
