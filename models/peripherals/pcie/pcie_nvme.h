#pragma once
/// @file pcie_nvme.h
/// @brief PCIe link (generation, lanes) to an NVMe SSD.
///
/// Payload rates: reads (the SSD writes host memory) move in posted writes of the max payload
/// size; writes (the SSD reads host memory) come back in completions of the read completion
/// size; each TLP costs its header and framing. Line coding: 8b/10b up to 5 GT/s, 128b/130b
/// from 8 GT/s. Each command adds the NVMe queue exchange. Not modelled: ASPM, link
/// retraining, several queues in parallel (the software model handles queue depth).
#include "models/peripherals/pcie/pcie_params.h"
#include "models/peripherals/storage/serial_link_path.h"

namespace socsim::models {

class PcieNvme : public storage::SerialLinkPath {
 public:
  /// `gtPerSecond` per lane in GT/s (2.5, 5, 8, 16), `lanes` 1..16.
  PcieNvme(const PcieNvmeParams& rc, double gtPerSecond, int lanes,
           const storage::StorageDeviceParams& ssd);
  static storage::SerialLink link(const PcieNvmeParams& rc, double gtPerSecond, int lanes);
  /// Raw data rate after line coding, bytes/s.
  static double rawBytesPerSecond(double gtPerSecond, int lanes);
  const PcieNvmeParams& rootComplex() const { return rc_; }

 private:
  PcieNvmeParams rc_;
};

}  // namespace socsim::models
