#include "models/peripherals/cpsw/cpsw.h"

#include <algorithm>
#include <stdexcept>

#include "models/dma/dma_port.h"

namespace socsim::models {

using namespace ethernet;

Cpsw::Cpsw(const CpswParams& p, double linkMbps) : p_(p), linkBps_(linkMbps * 1e6) {
  if (!(linkMbps > 0)) throw std::invalid_argument("cpsw: link speed must be > 0 Mbit/s");
  if (p_.mtu_bytes < kIpv4HeaderBytes + kTcpHeaderBytes + 8)
    throw std::invalid_argument("cpsw: MTU too small");
}

int Cpsw::frameBytes(int ipBytes) {
  return std::max(kMinFrameBytes, ipBytes + kHeaderBytes + kFcsBytes);
}

double Cpsw::wireSeconds(int ipBytes) const {
  return static_cast<double>(wireBytes(ipBytes)) * 8.0 / linkBps_;
}

std::vector<int> Cpsw::ipPackets(int l4Bytes) const {
  std::vector<int> out;
  const int room = p_.mtu_bytes - kIpv4HeaderBytes;
  if (l4Bytes <= room) {
    out.push_back(l4Bytes + kIpv4HeaderBytes);
    return out;
  }
  const int frag = room / 8 * 8;  // fragment offsets count 8-byte units
  int left = l4Bytes;
  while (left > 0) {
    int n = left > room ? frag : left;
    out.push_back(n + kIpv4HeaderBytes);
    left -= n;
  }
  return out;
}

int Cpsw::tcpMss(int tcpOptionBytes) const {
  return p_.mtu_bytes - kIpv4HeaderBytes - kTcpHeaderBytes - tcpOptionBytes;
}

Cpsw::DmaTiming Cpsw::move(DmaPort& dma, bool toMemory, std::uint64_t descAddr,
                           std::uint64_t bufAddr, int frameBytes, std::uint64_t atPs) const {
  const auto burst = static_cast<unsigned>(p_.dma_burst_bytes);
  const auto out = static_cast<unsigned>(p_.dma_outstanding);
  const auto desc = static_cast<std::uint64_t>(p_.descriptor_bytes);
  DmaTiming t;
  const std::uint64_t start = atPs + static_cast<std::uint64_t>(p_.dma_packet_overhead_ns * 1e3);
  auto d = dma.transfer(false, descAddr, desc, start, burst, 1);
  t.startPs = d.startPs;
  auto b =
      dma.transfer(toMemory, bufAddr, static_cast<std::uint64_t>(frameBytes), d.endPs, burst, out);
  auto w = dma.transfer(true, descAddr, desc, b.endPs, burst, 1);
  t.endPs = w.endPs;
  for (int k = 0; k < kParts; ++k) {
    auto i = static_cast<std::size_t>(k);
    t.parts[i] = d.parts[i] + b.parts[i] + w.parts[i];
  }
  return t;
}

Cpsw::DmaTiming Cpsw::rxFrame(DmaPort& dma, std::uint64_t descAddr, std::uint64_t bufAddr,
                              int frameBytes, std::uint64_t atPs) const {
  return move(dma, true, descAddr, bufAddr, frameBytes, atPs);
}

Cpsw::DmaTiming Cpsw::txFrame(DmaPort& dma, std::uint64_t descAddr, std::uint64_t bufAddr,
                              int frameBytes, std::uint64_t atPs) const {
  return move(dma, false, descAddr, bufAddr, frameBytes, atPs);
}

}  // namespace socsim::models
