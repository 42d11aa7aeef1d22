#pragma once
/// @file usb_mass_storage.h
/// @brief USB host controller with a Bulk-Only mass-storage disk, and the same controller as a
///        mass-storage gadget.
///
/// Link payload: high speed moves at most 13 bulk packets of 512 bytes per 125 us microframe;
/// super speed 1024-byte packets at 5 Gbit/s after 8b/10b with packet headers. The speed is
/// the lower of the controller's and the disk's. Each command adds its CBW and CSW stages;
/// hosts that re-arm DMA per packet add a gap per packet. Not modelled: UAS, split
/// transactions through hubs, other traffic on the bus.
#include "models/peripherals/storage/serial_link_path.h"
#include "models/peripherals/usb/usb_params.h"

namespace socsim::models {

class UsbMassStorageHost : public storage::SerialLinkPath {
 public:
  /// `lineMbps`: the controller's speed (480 high speed, 5000 super speed).
  UsbMassStorageHost(const UsbHostParams& host, double lineMbps,
                     const storage::StorageDeviceParams& disk);
  static storage::SerialLink link(const UsbHostParams& host, double lineMbps,
                                  const std::string& deviceInterface);
  /// Max packet size at the negotiated speed (512 high speed, 1024 super speed).
  static int maxPacketBytes(double lineMbps);
  /// Peak bulk payload rate at a line rate, bytes/s.
  static double bulkBytesPerSecond(double lineMbps);
  const UsbHostParams& host() const { return host_; }

 private:
  UsbHostParams host_;
};

}  // namespace socsim::models
