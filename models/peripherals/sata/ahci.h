#pragma once
/// @file ahci.h
/// @brief AHCI SATA host with its disk.
///
/// Link payload rate = line rate x 8b/10b x DATA FIS payload / (payload + framing), the
/// slower of host generation and the disk's interface; per command the AHCI/FIS exchange.
/// Disk: access latency and sustained media rate (HDD: the outer zones of a sequential file;
/// SSD: its sequential figures). Not modelled: NCQ reordering, seeks beyond sequential
/// access, spin-up, port multipliers.
#include "models/peripherals/sata/sata_params.h"
#include "models/peripherals/storage/serial_link_path.h"

namespace socsim::models {

class AhciController : public storage::SerialLinkPath {
 public:
  /// `lineMbps`: the host's SATA generation (1500, 3000, 6000 Mbit/s).
  AhciController(const AhciParams& host, double lineMbps,
                 const storage::StorageDeviceParams& disk);
  static storage::SerialLink link(const AhciParams& host, double lineMbps,
                                  const storage::StorageDeviceParams& disk);
  const AhciParams& host() const { return host_; }

 private:
  AhciParams host_;
};

/// Line rate of a device interface text ("sata1/2/3", "usb2", "usb3"...) in Mbit/s; 0 = unknown.
double interfaceLineMbps(const std::string& interface);

}  // namespace socsim::models
