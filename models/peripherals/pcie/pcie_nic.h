#pragma once
/// @file pcie_nic.h
/// @brief The PCIe link under an Ethernet NIC: what one frame's DMA costs on the link.
///
/// Receive: the NIC writes the frame into host memory in posted writes of at most the max
/// payload size and writes the descriptor back (descriptors are prefetched in batches, so the
/// fetch is shared by `descriptors_per_fetch` frames); posted writes do not wait for a reply.
/// Transmit: the NIC reads the frame, waiting one read latency for the first completion, and
/// the data comes back in completions of the read completion size; then it writes the
/// descriptor back. Each TLP costs its header and framing; line coding 8b/10b up to 5 GT/s,
/// 128b/130b from 8 GT/s (models::PcieNvme::rawBytesPerSecond).
/// The memory-system side of the DMA (root complex into DDR) is the platform's DMA port, as for
/// an on-chip MAC; this class adds only the link. Not modelled: flow-control credit stalls,
/// ASPM exit latency, relaxed ordering, several read requests in flight for one frame.
#include "models/peripherals/pcie/pcie_nic_params.h"

namespace socsim::models {

class PcieNic {
 public:
  /// @param gtPerSecond link rate per lane, GT/s; @param lanes link width;
  /// @param descriptorBytes one DMA descriptor (the NIC's `cpsw.descriptor_bytes`).
  PcieNic(const PcieNicParams& p, double gtPerSecond, int lanes, int descriptorBytes);

  const PcieNicParams& params() const { return p_; }
  double gtPerSecond() const { return gt_; }
  int lanes() const { return lanes_; }
  /// Raw link data rate per direction after line coding, bytes/s.
  double rawBytesPerSecond() const;
  /// Bytes on the link for `bytes` of payload in TLPs of at most `tlpPayload` bytes.
  double linkBytes(double bytes, int tlpPayload) const;
  /// Seconds of link time for one received frame of `frameBytes` (data + write-back + share
  /// of the descriptor fetch).
  double rxFrameSeconds(int frameBytes) const;
  /// Seconds for one transmitted frame (descriptor share, read latency, completions,
  /// write-back).
  double txFrameSeconds(int frameBytes) const;

 private:
  PcieNicParams p_;
  double gt_;
  int lanes_;
  int descriptorBytes_;
};

}  // namespace socsim::models
