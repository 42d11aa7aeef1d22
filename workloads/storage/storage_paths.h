#pragma once
/// @file storage_paths.h
/// @brief A board's storage path for a medium: the peripheral instance that serves it, the
///        controller preset its IP maps to, the device preset its set-up names, the model built
///        from them, and the controller driver's software costs.
#include <memory>
#include <string>

#include "models/peripherals/mmc/mmc_host.h"
#include "models/peripherals/nand/nand_controller.h"
#include "models/peripherals/ospi/ospi_controller.h"
#include "models/peripherals/usb/usb_mass_storage.h"
#include "soc/config/board_config.h"
#include "workloads/storage/storage_case.h"
#include "workloads/storage/storage_data.h"

namespace socsim::wl::storage {

struct BoardPath {
  std::unique_ptr<models::storage::StoragePath> path;
  const soc::PeripheralParams* peripheral = nullptr;
  const ControllerPreset* controller = nullptr;
  const DevicePreset* device = nullptr;
  /// Linux driver work of the controller per request / per packet, interrupts per request.
  double driverRequestInstructions = 0;
  double driverPacketInstructions = 0;
  std::uint64_t packetBytes = 0;
  int irqsPerRequest = 1;
  /// Reads move one packet per DMA descriptor (MUSB host RX): the per-packet driver work and an
  /// interrupt are on the critical path of each packet, plus this latency (s). The per-packet
  /// driver work then applies to reads only.
  bool rxPacketAtATime = false;
  double rxPacketLatencySeconds = 0;
  /// Commands the device works on together: its own queue depth, bounded by the host's
  /// command-queue slots (an MMC host without a command-queue engine issues one at a time).
  int queueDepth = 1;
  double ubootCommandSeconds = 0;
  /// Typed views of `path` for the media with extra operations (erase, PIO, bus modes).
  const models::MmcHost* mmc = nullptr;
  const models::OspiController* nor = nullptr;
  const models::NandController* nand = nullptr;
  const models::UsbMassStorageHost* usb = nullptr;
  std::string describe() const;
};

/// A device that answers at once (no access latency, no rate limit of its own): the link
/// alone, e.g. the USB gadget's side of the bus.
models::storage::StorageDeviceParams instantDevice(const std::string& name);

/// Build the path of `medium` on `board`. Throws NotModelled naming what is missing (no such
/// peripheral, no controller rule for its IP, no preset for its device).
BoardPath makeBoardPath(const soc::BoardConfig& board, const StorageData& data, Medium medium);

/// The same controller and device with the bus of `p` replaced (SBL ROM modes, U-Boot PIO).
std::unique_ptr<models::MmcHost> mmcWithBus(const BoardPath& bp, const std::string& mode,
                                            double clockMhz);
std::unique_ptr<models::OspiController> norWith(const BoardPath& bp, const std::string& mode,
                                                double clockMhz, bool pio);

}  // namespace socsim::wl::storage
