#pragma once
/// @file ipsec.h
/// @brief IPSec ESP throughput (family `ipsec`): one TCP stream through an ESP security
///        association, the cipher (AES-CBC or 3DES-CBC) and the HMAC on the CPU or on the SoC's
///        crypto engine, over the board's Ethernet port.
///
/// Per packet (transport mode, `EspPacket`): the TCP segment of one MTU, padded to the cipher's
/// block, with the ESP header, IV, trailer and ICV (RFC 4303, RFC 2404). Its costs are
/// - the network path outside ESP (TCP/IP, the Ethernet driver, the wire): `NetworkPathCost`,
///   the seam where the Ethernet / network-stack model plugs in. Until it does,
///   `crossStackNetworkPath()` stands in: the stack's TCP segment path from the board's
///   `software.kernel_paths` (the LMBench model's), the payload copy, a driver allowance per
///   packet and one interrupt, on the core model, and the wire time at the fastest Ethernet port
///   of the board config;
/// - ESP itself (xfrm output, esp_output, the AEAD request): `esp_packet_instructions` of the
///   software stack on the core model; the peer's ACKs (`acks_per_segment`) come back through
///   the same SA and cost an ESP input each (code, cipher and HMAC of a small packet: on the
///   engine path a whole request with its driver overhead);
/// - the cipher and the HMAC: either the kernel's software implementations (the crypto kernels on
///   the core model, as for `openssl speed`), or the engine path (driver CPU work on the core,
///   the engine model's time) — one authenc request where the driver offers the combined
///   algorithm (SA2UL), else a cipher request and an HMAC request on the engines that offer them
///   (OMAP AES/DES + SHAM), the HMAC in software where no engine offers it.
/// Requests are asynchronous (the stack continues with the next packet while the engine works),
/// so the packet period is the slowest of the CPU's work per packet, each engine's time per
/// packet and the wire time: throughput = payload / period, kpps = 1 / period, CPU load = CPU
/// work / (period x cores). The guides print whole kpps (119 Mbit/s of ~1406-byte packets is
/// printed 10, not 11): the Packets/Sec rows are predicted as floor(kpps). Not modelled: several flows, the receive side (the DUT is taken to be the
/// sender: the guides do not say), TCP window and loss effects, GRO/GSO.
#include <string>

#include "common/params.h"
#include "workloads/workload.h"

namespace socsim::wl::crypto {

class CryptoModel;
struct AlgorithmSpec;

/// ESP set-up facts and the crypto side's stand-in for the network path.
struct IpsecParams {
  double mtu_bytes = 1500;               ///< IP MTU of the Ethernet link
  double ip_header_bytes = 20;           ///< IPv4 header (transport mode: the only one)
  double tcp_header_bytes = 32;          ///< TCP header with the timestamp option
  double esp_header_bytes = 8;           ///< SPI + sequence number (RFC 4303)
  double esp_trailer_bytes = 2;          ///< pad length + next header (RFC 4303)
  double icv_bytes = 12;                 ///< HMAC-SHA1-96 (RFC 2404)
  std::string auth = "sha1";             ///< the HMAC's hash
  double ethernet_overhead_bytes = 38;   ///< preamble 8 + MAC header 14 + FCS 4 + IFG 12
  double driver_packet_instructions = 3000;  ///< Ethernet driver per packet (stand-in)
  double copy_bytes_per_instruction = 8;     ///< user -> kernel payload copy (LDP/STP pairs)
  double acks_per_segment = 0.5;             ///< peer ACKs per data segment (delayed ACK)
  static const params::Schema<IpsecParams>& schema();
};

/// One ESP packet of a full-MTU TCP segment (transport mode).
struct EspPacket {
  double payloadBytes = 0;  ///< TCP payload (what iperf counts)
  double cipherBytes = 0;   ///< encrypted: TCP segment + padding + trailer (a block multiple)
  double authBytes = 0;     ///< authenticated: ESP header + IV + cipherBytes
  double wireBytes = 0;     ///< on the wire, Ethernet overhead included
};

/// Packet geometry for a cipher of `blockBytes` (IV = one block).
EspPacket espPacket(const IpsecParams& p, int blockBytes);
/// A pure ACK (TCP header only) through the same SA.
EspPacket espAck(const IpsecParams& p, int blockBytes);

/// The network path's per-packet cost outside ESP: what the Ethernet / network-stack model
/// supplies (CPU work on the flow's core, time on the wire).
struct NetworkPathCost {
  double cpuSeconds = 0;   ///< CPU busy per packet (TCP/IP, driver, interrupt)
  double wireSeconds = 0;  ///< link occupancy per packet at the port's line rate
  Breakdown breakdown;
};

/// The crypto side's stand-in for the network path (see the file comment). Throws NotModelled
/// when the board has no Ethernet port with a line rate.
NetworkPathCost crossStackNetworkPath(CryptoModel& m, RunContext& ctx, const IpsecParams& p,
                                      const EspPacket& pkt, const std::string& stackName);

/// One stream's figures.
struct IpsecResult {
  double periodSeconds = 0;  ///< per packet
  double mbitPerSecond = 0;  ///< TCP payload
  double kpps = 0;
  double cpuLoadPercent = 0;  ///< over all cores of the main cluster
  std::string path;           ///< "software", "engine:<ip>[+<ip>]", "+software-hmac"
  std::string bound;          ///< cpu | engine:<ip> | wire
  Breakdown breakdown;        ///< per packet
};

/// ESP throughput of one TCP stream with `cipher` (a cipher algorithm of algorithms.yaml) on the
/// engine (`engine` true, where a driver offers it) or in software, given the network path's
/// per-packet cost.
IpsecResult ipsecStream(CryptoModel& m, RunContext& ctx, const IpsecParams& p,
                        const AlgorithmSpec& cipher, bool engine, const std::string& stackName,
                        const NetworkPathCost& net);

/// `configs/workloads/crypto/ipsec.yaml` (group `ipsec`).
IpsecParams loadIpsecParams(const std::string& file);

}  // namespace socsim::wl::crypto
