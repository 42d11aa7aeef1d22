#pragma once
/// @file storage_data.h
/// @brief The data behind the storage workloads, loaded once: software parameters
///        (`configs/workloads/storage/*.yaml`), the controller presets each board peripheral
///        maps to (`controllers.yaml` rules -> `configs/components/peripherals/controllers/`),
///        device presets (`configs/components/peripherals/devices/`), and the instruction
///        profiles that turn instruction counts into time on a board's core.
///
/// Every file goes through the config loader's tree and schemas: unknown keys, wrong units and
/// out-of-range values are InputErrors naming file, line and YAML path.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/peripherals/mmc/mmc_params.h"
#include "models/peripherals/nand/nand_params.h"
#include "models/peripherals/ospi/ospi_params.h"
#include "models/peripherals/pcie/pcie_params.h"
#include "models/peripherals/sata/sata_params.h"
#include "models/peripherals/storage/storage_device_params.h"
#include "models/peripherals/ufs/ufs_params.h"
#include "models/peripherals/usb/usb_params.h"
#include "soc/config/config_tree.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/storage/storage_params.h"

namespace socsim::soc {
struct PeripheralParams;
}

namespace socsim::wl::storage {

/// A controller preset: which model group it fills (mmc_host, spi_nor_controller, ...).
struct ControllerPreset {
  std::string file;
  std::string group;  ///< top-level key: the model's schema name
  std::optional<models::MmcHostParams> mmc;
  std::optional<models::SpiNorControllerParams> spiNor;
  std::optional<models::NandControllerParams> nand;
  std::optional<models::UfsHostParams> ufs;
  std::optional<models::AhciParams> ahci;
  std::optional<models::UsbHostParams> usb;
  std::optional<models::PcieNvmeParams> pcie;
  /// The scalars its load consumed (config::ReadCapture): noted again whenever controllerFor
  /// picks it, so a board's recorded reads hold the controller it uses, not every preset.
  config::ReadSet reads;
};

/// A device preset: one of a managed block device, a NOR part, a NAND part.
struct DevicePreset {
  std::string file, id;  ///< id = file stem
  std::vector<std::string> aliases;
  std::optional<models::storage::StorageDeviceParams> block;
  std::optional<models::NorFlashParams> nor;
  std::optional<models::NandFlashParams> nand;
  /// The scalars its load consumed: noted again whenever deviceFor picks it (as the
  /// controller's), so calibrate re-runs a board only for the device its peripheral names.
  config::ReadSet reads;
  std::string name() const;
};

/// Maps a board peripheral (ip, version) to a controller preset; first matching rule wins.
struct ControllerRule {
  std::string ip;       ///< peripheral `ip` ("mmcsd", "emmc", "ospi", ...)
  std::string version;  ///< substring of the peripheral's `version` ("" = any)
  std::string preset;   ///< the rule's `controller`: preset file (resolved path)
};

struct StorageData {
  std::string dir;  ///< configs/workloads/storage
  LinuxIoParams linux;
  UbootParams uboot;
  SblParams sbl;
  LinuxBootParams boot;
  XipParams xip;
  std::vector<ControllerRule> rules;
  std::map<std::string, ControllerPreset> controllers;  ///< by resolved file
  std::vector<DevicePreset> devices;
  cpu::WorkloadProfile kernelProfile;  ///< kernel control code (unit: 1000 instructions)
  cpu::WorkloadProfile loopProfile;    ///< tight data loops (unit: 1000 instructions)
  cpu::WorkloadProfile firProfile;     ///< the XIP benchmark's float FIR loop (unit: 1000 instructions)

  /// Load everything under `dir` (and the component folders it names).
  static StorageData load(const std::string& dir);
  /// The controller preset for a board peripheral; nullptr when no rule matches.
  const ControllerPreset* controllerFor(const soc::PeripheralParams& p) const;
  /// The device preset a peripheral's `device` text names (file stem, name or alias, case and
  /// punctuation insensitive); nullptr when none does.
  const DevicePreset* deviceFor(const std::string& text) const;
};

/// `configs/workloads/storage` of the source tree.
std::string defaultStorageDir();

}  // namespace socsim::wl::storage
