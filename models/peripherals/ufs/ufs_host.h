#pragma once
/// @file ufs_host.h
/// @brief UFS host (UFSHCI, M-PHY HS gears) with its UFS device.
///
/// Link payload rate = lanes x HS-gear line rate x 8b/10b x UniPro frame efficiency; each
/// command adds the UTP exchange (doorbell, UPIUs, completion). Device: access latency and
/// streaming rates. Not modelled: power-mode changes, write booster, command queueing beyond
/// one command in flight.
#include "models/peripherals/storage/serial_link_path.h"
#include "models/peripherals/ufs/ufs_params.h"

namespace socsim::models {

class UfsHost : public storage::SerialLinkPath {
 public:
  /// `laneMbps`: line rate per lane (HS-G3 rate A 4980 / rate B 5830 Mbit/s).
  UfsHost(const UfsHostParams& host, double laneMbps, int lanes,
          const storage::StorageDeviceParams& device);
  static storage::SerialLink link(const UfsHostParams& host, double laneMbps, int lanes);
  const UfsHostParams& host() const { return host_; }

 private:
  UfsHostParams host_;
};

}  // namespace socsim::models
