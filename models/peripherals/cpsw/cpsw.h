#pragma once
/// @file cpsw.h
/// @brief One Ethernet MAC/switch port with its host DMA: TI CPSW (CPSW_3G, CPSW2g, CPSW3g,
///        CPSW9g), the DaVinci EMAC and the Keystone NetCP GbE, told apart by their presets.
///
/// Models:
/// - the wire: IEEE 802.3 framing (8-byte preamble+SFD, 12-byte inter-frame gap, 14-byte MAC
///   header, 4-byte FCS, 64-byte minimum frame) at the port's link speed, full duplex, and IPv4
///   fragmentation of datagrams larger than the MTU;
/// - the port FIFOs: a received frame waits in the RX FIFO until the DMA takes it; when it does
///   not fit, the frame is dropped (overrun);
/// - store-and-forward latency from the last byte in to the DMA start;
/// - the host DMA (CPDMA / UDMA / packet DMA) moving each frame and its descriptors through the
///   platform's memory system (models::DmaPort): descriptor fetch, buffer burst(s), descriptor
///   write-back, so DMA traffic contends with the cores in the interconnect, L3 and DDR.
/// Does not model: switching between external ports, ALE/VLAN tables, flow control (PAUSE),
/// time stamping, QoS queues, the PHY's own latency.
///
/// The packet-level behaviour over time (rings, interrupts, the stack) is the job of the network
/// simulation in workloads/net, which asks this class for wire times and DMA costs.
#include <cstdint>
#include <vector>

#include "models/base/transaction.h"
#include "models/peripherals/cpsw/cpsw_params.h"

namespace socsim::models {

class DmaPort;

/// IEEE 802.3 / IPv4 constants (standard facts, STYLE.md rule 6).
namespace ethernet {
constexpr int kPreambleBytes = 8;   ///< preamble + start-of-frame delimiter
constexpr int kIfgBytes = 12;       ///< minimum inter-frame gap
constexpr int kHeaderBytes = 14;    ///< destination, source, EtherType
constexpr int kFcsBytes = 4;        ///< frame check sequence
constexpr int kMinFrameBytes = 64;  ///< header + payload (padded) + FCS
constexpr int kIpv4HeaderBytes = 20;
constexpr int kUdpHeaderBytes = 8;
constexpr int kTcpHeaderBytes = 20;
}  // namespace ethernet

class Cpsw {
 public:
  /// @param linkMbps line rate of the port (the board fact), Mbit/s.
  Cpsw(const CpswParams& p, double linkMbps);

  const CpswParams& params() const { return p_; }
  double linkBitsPerSecond() const { return linkBps_; }

  // ---- wire ------------------------------------------------------------------------------
  /// Bytes of the MAC frame (header + FCS, padded to the minimum) carrying `ipBytes` of IPv4.
  static int frameBytes(int ipBytes);
  /// Bytes the frame occupies on the wire (frame + preamble + IFG).
  static int wireBytes(int ipBytes) {
    return frameBytes(ipBytes) + ethernet::kPreambleBytes + ethernet::kIfgBytes;
  }
  /// Seconds the wire is busy with one frame carrying `ipBytes`.
  double wireSeconds(int ipBytes) const;
  /// IPv4 packet sizes (header included) a transport datagram of `l4Bytes` (transport header
  /// + payload) travels in: one packet up to the MTU, else fragments of MTU-sized 8-byte-aligned
  /// payloads plus the remainder.
  std::vector<int> ipPackets(int l4Bytes) const;
  /// Largest TCP payload in one segment (MTU - IPv4 - TCP header - `tcpOptionBytes`).
  int tcpMss(int tcpOptionBytes) const;

  // ---- DMA through the memory system ---------------------------------------------------
  /// Timing of one frame moved by the DMA.
  struct DmaTiming {
    std::uint64_t startPs = 0, endPs = 0;
    PartTimes parts{};
  };
  /// Receive: fetch the free-buffer descriptor, write the frame to `bufAddr`, write the
  /// descriptor back at `descAddr`. Starts no earlier than `atPs` (+ the per-packet overhead).
  /// Call from a SystemC thread process.
  DmaTiming rxFrame(DmaPort& dma, std::uint64_t descAddr, std::uint64_t bufAddr, int frameBytes,
                    std::uint64_t atPs) const;
  /// Transmit: fetch the descriptor, read the frame from `bufAddr`, write the descriptor back.
  DmaTiming txFrame(DmaPort& dma, std::uint64_t descAddr, std::uint64_t bufAddr, int frameBytes,
                    std::uint64_t atPs) const;

 private:
  DmaTiming move(DmaPort& dma, bool toMemory, std::uint64_t descAddr, std::uint64_t bufAddr,
                 int frameBytes, std::uint64_t atPs) const;
  CpswParams p_;
  double linkBps_;
};

}  // namespace socsim::models
