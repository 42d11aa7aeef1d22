#include "models/peripherals/ufs/ufs_host.h"

#include <algorithm>

#include "common/format.h"

namespace socsim::models {

namespace {
constexpr double k8b10b = 0.8;  // M-PHY HS mode line coding
}

storage::SerialLink UfsHost::link(const UfsHostParams& h, double laneMbps, int lanes) {
  storage::SerialLink l;
  l.name = h.name + " " + formatNumber(laneMbps) + " Mbit/s x" + std::to_string(lanes);
  const double payload = laneMbps * 1e6 * std::max(1, lanes) * k8b10b / 8 * h.unipro_efficiency;
  l.read_bytes_per_s = payload;
  l.write_bytes_per_s = payload;
  l.command_s = h.command_overhead_us * 1e-6;
  l.dma_bytes_per_s = h.dma_mbps * 1e6;
  l.max_request_bytes = h.max_request_bytes;
  return l;
}

UfsHost::UfsHost(const UfsHostParams& host, double laneMbps, int lanes,
                 const storage::StorageDeviceParams& device)
    : SerialLinkPath(link(host, laneMbps, lanes), device), host_(host) {}

}  // namespace socsim::models
