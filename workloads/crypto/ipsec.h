#pragma once
/// @file ipsec.h
/// @brief IPSec ESP throughput (family `ipsec`): one TCP stream through an ESP security
///        association, the cipher (AES-CBC or 3DES-CBC) and the HMAC on the CPU or on the SoC's
///        crypto engine, over the board's Ethernet port.
///
/// Per packet (transport mode, `EspPacket`): the TCP segment, padded to the cipher's block, with
/// the ESP header, IV, trailer and ICV (RFC 4303, RFC 2404), in one full-MTU frame. The costs:
/// - the network path outside ESP comes from the Ethernet model (workloads/net): the board's MAC
///   (models::Cpsw), the network stack's and the test tool's software costs measured on the
///   board's core model over its platform (`net::measureCosts`), and the packet-level simulation
///   of one TCP stream sent by the device (`net::simulate`, Traffic::TcpTx: send calls, TCP
///   output per segment, the driver, interrupts with NAPI and pacing, the peer's delayed ACKs,
///   window, wire). ESP changes four things in that stream: the MSS shrinks by the ESP
///   overhead (the frame stays full), the MAC can no longer checksum the (encrypted) TCP
///   segment so the stack does it in software, esp_output copies each (cloned) TCP segment
///   before encrypting it in place (skb_cow_data, at the board's measured memcpy rate), and
///   every segment out and every ACK in passes through the SA;
/// - ESP itself (`EspCost`): xfrm output / esp_output per data segment and esp_input per ACK
///   (`esp_packet_instructions` of the crypto stack on the core model), the cipher and the HMAC
///   either in the kernel's software (the crypto kernels on the core model, as for
///   `openssl speed`) or on the engine (the driver's CPU work on the core, the engine model's
///   time): one authenc request where the driver offers the combined algorithm (SA2UL), else a
///   cipher request and an HMAC request on the engines that offer them (OMAP AES/DES + SHAM),
///   the HMAC in software where no engine offers it. The CPU part is added to the stack's TCP
///   output per segment and to its ACK processing, so the simulation schedules it on the cores.
/// Engine requests are asynchronous (the stack continues with the next packet while the engine
/// works), so an engine is a resource of its own: when its time per segment (the ACKs' share
/// included) exceeds the simulated stream's period, it sets the period and the CPU work is
/// spread over it (the simulation does not hold segments back for the engine). Throughput =
/// payload / period, kpps = 1 / period, CPU load = busy time of the OS's cores / (period x
/// cores). The guides print whole kpps (119 Mbit/s of ~1406-byte packets is printed 10, not
/// 11): the Packets/Sec rows are predicted as floor(kpps). Not modelled: several flows, the
/// receive side (the DUT is taken to be the sender: the guides do not say), loss, GSO/TSO.
#include <map>
#include <memory>
#include <string>

#include "common/params.h"
#include "workloads/net/board_network.h"
#include "workloads/net/net_sim.h"
#include "workloads/workload.h"

namespace socsim::wl::crypto {

class CryptoModel;
struct AlgorithmSpec;
struct ReleaseSpec;

/// ESP set-up facts (configs/workloads/crypto/ipsec.yaml).
struct IpsecParams {
  double mtu_bytes = 1500;               ///< IP MTU of the Ethernet link (the MAC's when it has one)
  double ip_header_bytes = 20;           ///< IPv4 header (transport mode: the only one)
  double tcp_header_bytes = 32;          ///< TCP header with the timestamp option
  double esp_header_bytes = 8;           ///< SPI + sequence number (RFC 4303)
  double esp_trailer_bytes = 2;          ///< pad length + next header (RFC 4303)
  double icv_bytes = 12;                 ///< HMAC-SHA1-96 (RFC 2404)
  std::string auth = "sha1";             ///< the HMAC's hash
  double ethernet_overhead_bytes = 38;   ///< preamble 8 + MAC header 14 + FCS 4 + IFG 12
  std::string net_tool = "tools/iperf.yaml";  ///< the TCP stream's tool (configs/workloads/net)
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

/// ESP's own work (everything but the network path) on the CPU and on the engines.
struct EspCost {
  double dataCpuSeconds = 0;  ///< per data segment sent: ESP output, cipher + HMAC or driver work
  double ackCpuSeconds = 0;   ///< per ACK received through the SA: ESP input of a small packet
  std::map<std::string, double> engineDataSeconds;  ///< per data segment, by engine IP
  std::map<std::string, double> engineAckSeconds;   ///< per ACK, by engine IP
  Breakdown data;             ///< per data segment
  Breakdown ack;              ///< per ACK
  std::string path;           ///< "software", "engine:<ip>[+<ip>]", "+software-hmac"
};

/// ESP's cost with `cipher` (a cipher algorithm of algorithms.yaml) on the engine (`engine`
/// true, where a driver offers it) or in software, for the data packet `pkt` and the ACK `ack`.
/// `release` (when given): the software release of the row, whose kernel's drivers may queue
/// differently (ReleaseSpec::direct_queue_drivers).
/// Throws NotModelled when the authentication hash is not a digest of algorithms.yaml.
EspCost espCost(CryptoModel& m, RunContext& ctx, const IpsecParams& p, const EspPacket& pkt,
                const EspPacket& ack, const AlgorithmSpec& cipher, bool engine,
                const std::string& stackName, const ReleaseSpec* release = nullptr);

/// The Ethernet model of the board under one software stack (workloads/net): its MAC, the
/// stack's and the tool's parameters, and the software costs measured on the board's core model.
using EthernetPath = net::BoardNetwork;

/// Build the board's Ethernet path for `stackName` (`<netDir>/stacks/<stackName>.yaml`) and the
/// tool file `toolFile` (relative to `netDir`), the link at `linkMbps` when > 0 and below the
/// port's speed (a link partner negotiating less), else at the port's `link_speed_mbps`. Throws
/// NotModelled when the board has no MAC with a model group and a link speed, or there is no
/// network-stack model for the stack.
EthernetPath ethernetPath(RunContext& ctx, const std::string& netDir, const std::string& stackName,
                          const std::string& toolFile, double linkMbps = 0);

/// One stream's figures.
struct IpsecResult {
  double periodSeconds = 0;  ///< per data segment
  double mbitPerSecond = 0;  ///< TCP payload
  double kpps = 0;
  double cpuLoadPercent = 0;  ///< over the OS's cores
  double acksPerSegment = 0;  ///< ACKs through the SA per data segment (simulated)
  std::string path;           ///< EspCost::path
  std::string bound;          ///< cpu | engine:<ip> | wire
  Breakdown breakdown;        ///< per data segment
};

/// The TCP stream through the SA: the Ethernet model's simulation with ESP's CPU work and packet
/// overhead, then the engines as resources of their own (see the file comment). `pkt` is the
/// geometry the simulation's MSS is set from (its payload is the MSS). ESP takes GSO away from
/// the socket, so every data segment also runs the stack's output path of a segment sent alone
/// (the stack's tcpAckTx; breakdown part esp.tcp_output_without_gso).
IpsecResult ipsecStream(const EspPacket& pkt, const EspCost& esp, const EthernetPath& eth);

/// `configs/workloads/crypto/ipsec.yaml` (group `ipsec`).
IpsecParams loadIpsecParams(const std::string& file);

}  // namespace socsim::wl::crypto
