#include "models/peripherals/pcie/pcie_nvme.h"

#include <algorithm>

#include "common/format.h"

namespace socsim::models {

double PcieNvme::rawBytesPerSecond(double gt, int lanes) {
  const double coding = gt >= 8 ? 128.0 / 130.0 : 0.8;
  return gt * 1e9 * coding / 8 * std::max(1, lanes);
}

storage::SerialLink PcieNvme::link(const PcieNvmeParams& rc, double gt, int lanes) {
  storage::SerialLink l;
  l.name = rc.name + " " + formatNumber(gt) + " GT/s x" + std::to_string(lanes);
  const double raw = rawBytesPerSecond(gt, lanes);
  const double mps = rc.max_payload_bytes;
  const double cpl = std::min(rc.read_completion_bytes, rc.max_payload_bytes);
  l.read_bytes_per_s = raw * mps / (mps + rc.tlp_overhead_bytes);
  l.write_bytes_per_s = raw * cpl / (cpl + rc.tlp_overhead_bytes);
  l.command_s = rc.command_overhead_us * 1e-6;
  l.dma_bytes_per_s = rc.dma_mbps * 1e6;
  l.max_request_bytes = rc.max_request_bytes;
  return l;
}

PcieNvme::PcieNvme(const PcieNvmeParams& rc, double gt, int lanes,
                   const storage::StorageDeviceParams& ssd)
    : SerialLinkPath(link(rc, gt, lanes), ssd), rc_(rc) {}

}  // namespace socsim::models
