#include "models/peripherals/pcie/pcie_nic.h"

#include <algorithm>
#include <cmath>

#include "models/peripherals/pcie/pcie_nvme.h"

namespace socsim::models {

PcieNic::PcieNic(const PcieNicParams& p, double gtPerSecond, int lanes, int descriptorBytes)
    : p_(p), gt_(gtPerSecond), lanes_(std::max(1, lanes)), descriptorBytes_(descriptorBytes) {}

double PcieNic::rawBytesPerSecond() const {
  return PcieNvme::rawBytesPerSecond(gt_, lanes_);
}

double PcieNic::linkBytes(double bytes, int tlpPayload) const {
  const double tlps = std::ceil(bytes / std::max(1, tlpPayload));
  return bytes + tlps * p_.tlp_overhead_bytes;
}

double PcieNic::rxFrameSeconds(int frameBytes) const {
  const double raw = rawBytesPerSecond();
  // Posted writes of the data and of the descriptor write-back (upstream), plus this frame's
  // share of one descriptor fetch (a read request upstream; its completion comes downstream
  // and does not delay the data).
  const double up = linkBytes(frameBytes, p_.max_payload_bytes) +
                    linkBytes(descriptorBytes_, p_.max_payload_bytes) +
                    static_cast<double>(p_.tlp_overhead_bytes) / p_.descriptors_per_fetch;
  return up / raw;
}

double PcieNic::txFrameSeconds(int frameBytes) const {
  const double raw = rawBytesPerSecond();
  // Descriptor fetch (shared), the read of the frame: one latency to the first completion,
  // then the completions stream at the link rate; the write-back goes upstream in parallel.
  const int cpl = std::min(p_.read_completion_bytes, p_.max_payload_bytes);
  const double fetch = (p_.read_latency_ns * 1e-9 +
                        linkBytes(descriptorBytes_ * p_.descriptors_per_fetch, cpl) / raw) /
                       p_.descriptors_per_fetch;
  return fetch + p_.read_latency_ns * 1e-9 + linkBytes(frameBytes, cpl) / raw;
}

}  // namespace socsim::models
