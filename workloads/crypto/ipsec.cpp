#include "workloads/crypto/ipsec.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/error.h"
#include "models/peripherals/sa2ul/sa2ul.h"
#include "soc/config/board_config.h"
#include "soc/config/config_tree.h"
#include "soc/config/schema_io.h"
#include "workloads/crypto/crypto_workloads.h"

namespace socsim::wl::crypto {

const params::Schema<IpsecParams>& IpsecParams::schema() {
  using P = IpsecParams;
  static const auto s =
      params::Schema<P>("ipsec")
          .real("mtu_bytes", &P::mtu_bytes, "bytes", 576, 9216, "IP MTU of the Ethernet link",
                "IEEE 802.3 standard frame (the guides' pps figures imply ~1410-byte payloads)")
          .real("ip_header_bytes", &P::ip_header_bytes, "bytes", 20, 60, "IPv4 header",
                "RFC 791 (no options)")
          .real("tcp_header_bytes", &P::tcp_header_bytes, "bytes", 20, 60,
                "TCP header with options", "RFC 7323 timestamps, on by default in Linux")
          .real("esp_header_bytes", &P::esp_header_bytes, "bytes", 0, 64,
                "ESP header (SPI, sequence number)", "RFC 4303 §2")
          .real("esp_trailer_bytes", &P::esp_trailer_bytes, "bytes", 0, 64,
                "ESP trailer (pad length, next header)", "RFC 4303 §2.4-2.6")
          .real("icv_bytes", &P::icv_bytes, "bytes", 0, 64, "integrity check value",
                "RFC 2404 HMAC-SHA1-96")
          .text("auth", &P::auth, "hash of the HMAC (an algorithms.yaml digest)",
                "set-up fact: the guides do not name it; HMAC-SHA1 is the kernel's and TI's test "
                "scripts' default ESP authentication (background knowledge: unverified)")
          .real("ethernet_overhead_bytes", &P::ethernet_overhead_bytes, "bytes", 0, 100,
                "per frame on the wire besides the IP packet",
                "IEEE 802.3: preamble+SFD 8, MAC header 14, FCS 4, inter-frame gap 12")
          .text("net_tool", &P::net_tool,
                "the TCP stream's tool file, relative to configs/workloads/net (its own work per "
                "call, send size, the peer's response time)",
                "set-up fact: the IPSec sections do not name their tool; iperf is the TCP "
                "stream tool of the same guides' Ethernet tables");
  return s;
}

IpsecParams loadIpsecParams(const std::string& file) {
  config::Node root = config::parseYamlFile(file);
  config::resolvePresets(root);
  const config::Node* g = root.isMap() ? root.find("ipsec") : nullptr;
  if (!g) throw InputError(file, root.line, "ipsec", "missing group 'ipsec'");
  for (const auto& [k, v] : root.map)
    if (k != "ipsec") throw InputError(v.file, v.line, k, "unknown group '" + k + "' (expected ipsec)");
  IpsecParams p;
  config::Sources src;
  config::readGroup(IpsecParams::schema(), p, *g, "ipsec", file, src);
  return p;
}

EspPacket espPacket(const IpsecParams& p, int blockBytes) {
  const double block = std::max(1, blockBytes);
  EspPacket k;
  // Room for the encrypted part: MTU - IP header - ESP header - IV - ICV, floored to a block.
  const double room = p.mtu_bytes - p.ip_header_bytes - p.esp_header_bytes - block - p.icv_bytes;
  k.cipherBytes = std::floor(room / block) * block;
  k.payloadBytes = std::max(0.0, k.cipherBytes - p.esp_trailer_bytes - p.tcp_header_bytes);
  k.authBytes = p.esp_header_bytes + block + k.cipherBytes;
  k.wireBytes = p.ip_header_bytes + k.authBytes + p.icv_bytes + p.ethernet_overhead_bytes;
  return k;
}

EspPacket espAck(const IpsecParams& p, int blockBytes) {
  const double block = std::max(1, blockBytes);
  EspPacket k;
  k.cipherBytes = std::ceil((p.tcp_header_bytes + p.esp_trailer_bytes) / block) * block;
  k.payloadBytes = 0;
  k.authBytes = p.esp_header_bytes + block + k.cipherBytes;
  k.wireBytes = std::max(64.0, p.ip_header_bytes + k.authBytes + p.icv_bytes + 18) + 20;
  return k;
}

namespace {

models::CryptoRequest cipherRequest(const AlgorithmSpec& a, double bytes) {
  models::CryptoRequest r;
  r.op = a.cryptoOp();
  r.keyBits = a.key_bits;
  r.chained = a.mode != "ecb";
  r.bytes = static_cast<std::uint64_t>(bytes);
  return r;
}

}  // namespace

EspCost espCost(CryptoModel& m, RunContext& ctx, const IpsecParams& p, const EspPacket& pkt,
                const EspPacket& ackPkt, const AlgorithmSpec& cipher, bool engine,
                const std::string& stackName, const ReleaseSpec* release) {
  const soc::BoardConfig& b = ctx.board();
  const AlgorithmSpec* hash = m.data().algorithm(p.auth);
  if (!hash || hash->mode != "digest")
    throw NotModelled{"ESP authentication hash '" + p.auth + "' is not a digest in algorithms.yaml"};
  const CryptoStackParams& st = m.stack(stackName);
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  EspCost res;
  const soc::PeripheralParams* cPer = nullptr;
  const soc::PeripheralParams* hPer = nullptr;
  const std::string authencName = "authenc-hmac-" + hash->name + "-" + cipher.engineName();
  const EnginePreset* both = nullptr;
  const EnginePreset* ce = nullptr;
  const EnginePreset* he = nullptr;
  if (engine) {
    // The kernel picks the highest-priority implementation: a driver's combined authenc first,
    // else the template over the drivers' cipher and HMAC.
    for (const auto& per : b.peripherals) {
      auto it = m.data().engines.find(per.ip);
      if (it == m.data().engines.end()) continue;
      const CryptoDriverParams& d = it->second.linuxDriver;
      if (!both && d.offers(authencName)) {
        both = &it->second;
        cPer = &per;
      }
      if (!ce && d.offers(cipher.engineName())) {
        ce = &it->second;
        if (!both) cPer = &per;
      }
      if (!he && d.offers("hmac-" + hash->name)) {
        he = &it->second;
        hPer = &per;
      }
    }
  }
  if (both) {
    res.path = "engine:" + both->ip;
  } else {
    res.path = ce ? "engine:" + ce->ip : "software";
    if (he) res.path += (ce ? "+" : "+engine:") + he->ip;
    if (ce && !he) res.path += "+software-hmac";
  }
  // ESP on one packet `k`: xfrm/ESP code, then the cipher and the HMAC where the kernel runs
  // them; CPU seconds into `cpuSeconds`, engine seconds into `engineSeconds`, parts into `bd`.
  auto esp = [&](const EspPacket& k, double& cpuSeconds, std::map<std::string, double>& engineSeconds,
                 Breakdown& bd) {
    auto cpu = [&](const std::string& part, double s) {
      cpuSeconds += s;
      bd.add(part, s);
    };
    auto onEngine = [&](const EnginePreset& e, const soc::PeripheralParams& per,
                        const models::CryptoRequest& r, const std::string& what,
                        double extraEngineSeconds) {
      CallTiming t = m.engineRequest(ctx, e, per, r, st, false, release);
      cpuSeconds += t.busySeconds + t.otherCpuSeconds;  // the system's CPU, any context
      // What holds the engine per request: the hardware time, or, for a driver with one
      // request in flight, the whole request from its start to its completion callback.
      const double hardware = t.seconds - t.busySeconds - t.otherCpuSeconds;
      engineSeconds[e.ip] +=
          (e.linuxDriver.one_request_at_a_time ? t.seconds : hardware) + extraEngineSeconds;
      for (const auto& [n, sec] : t.breakdown.seconds) bd.add(what + "." + n, sec);
      if (extraEngineSeconds > 0) bd.add(what + ".engine.hash_stream", extraEngineSeconds);
    };
    auto software = [&](const AlgorithmSpec& a, double blocks, const std::string& what) {
      std::string kn;
      const double sec = m.softwareSeconds(ctx, a, blocks, &kn);
      cpu(what + ".kernel." + kn, sec);
    };
    cpu("xfrm_esp", st.esp_packet_instructions * m.kernelCpi(ctx, st) / hz);
    const double blockBytes = models::cryptoBlockBytes(cipher.cryptoOp());
    models::CryptoRequest c = cipherRequest(cipher, k.cipherBytes);
    models::CryptoRequest h;
    h.op = hash->cryptoOp();
    h.bytes = static_cast<std::uint64_t>(k.authBytes);
    // HMAC with the ipad/opad states precomputed at set-up: the inner hash over the
    // authenticated bytes continues a 64-byte block, the outer hash is one more block.
    const double hmacBlocks = static_cast<double>(
        models::cryptoBlocks(hash->cryptoOp(), static_cast<std::uint64_t>(k.authBytes) + 64));
    if (both) {
      // One request: the packet streams through the cipher, then the authentication core.
      double extra = 0;
      if (both->model == "sa2ul") {
        models::Sa2ulParams sp = both->sa2ul;
        if (cPer->clock_mhz > 0) sp.clock_mhz = cPer->clock_mhz;
        const models::Sa2ul e(sp);
        extra = std::max(0.0, e.request(h).processSeconds - e.request(c).processSeconds);
      }
      onEngine(*both, *cPer, c, "authenc", extra);
      return;
    }
    if (ce)
      onEngine(*ce, *cPer, c, "cipher", 0);
    else
      software(cipher, k.cipherBytes / blockBytes, "cipher");
    if (he)
      onEngine(*he, *hPer, h, "hmac", 0);
    else
      software(*hash, hmacBlocks, "hmac");
  };
  esp(pkt, res.dataCpuSeconds, res.engineDataSeconds, res.data);
  // The peer's ACKs come back through the same SA: ESP input on each (authenticated and
  // decrypted like the data, a cipher block or three).
  esp(ackPkt, res.ackCpuSeconds, res.engineAckSeconds, res.ack);
  return res;
}

EthernetPath ethernetPath(RunContext& ctx, const std::string& netDir, const std::string& stackName,
                          const std::string& toolFile, double linkMbps) {
  return net::boardNetwork(ctx, netDir + "/stacks/" + stackName + ".yaml", stackName,
                           netDir + "/" + toolFile, linkMbps);
}

IpsecResult ipsecStream(const EspPacket& pkt, const EspCost& esp, const EthernetPath& eth) {
  const net::NetStackParams& s = eth.stack.p;
  const models::Cpsw& mac = *eth.mac;
  net::SimConfig c = net::defaultSimConfig(eth.stack, eth.tool, mac, eth.cores, net::Traffic::TcpTx);
  // ESP's header, IV, padding, trailer and ICV take room from the segment: the MSS is the ESP
  // packet's payload, the frame stays full.
  const int plainMss = mac.tcpMss(s.tcp_option_bytes);
  const int espOverhead = std::max(0, plainMss - static_cast<int>(pkt.payloadBytes));
  c.stack.tcp_option_bytes = s.tcp_option_bytes + espOverhead;
  net::SoftwareCosts k = eth.costs;
  // ESP on every segment out and every ACK in; the TCP checksum of the segment is computed by
  // the stack before encryption (a MAC cannot checksum an encrypted segment). TCP hands IP a
  // clone of its segment (it keeps the original for retransmission), and esp_output writes in
  // place only into an skb that is not cloned: skb_cow_data copies the segment into a private
  // linear buffer first (Linux net/ipv4/esp4.c esp_output_head -> skb_cow_data), a memcpy of
  // the packet at the board's measured copy rate.
  const double cowCopy = pkt.authBytes * eth.measured.txCopyPerByte;
  // ESP also takes GSO away from the socket: the dst of an xfrm route has a header_len and no
  // offload, so sk_setup_caps clears NETIF_F_GSO_MASK (Linux net/core/sock.c) and TCP hands IP
  // one MSS-sized skb at a time. Plain TCP, which the stack's per-segment tcp_tx is fitted on,
  // sends GSO skbs and runs tcp_transmit_skb, the IP output, netfilter, the neighbour and the
  // qdisc once per skb of many segments; through ESP every segment runs them: the stack's path
  // of a segment sent on its own, as an ACK is (tcp_ack_tx: tcp_transmit_skb -> ip_queue_xmit
  // -> qdisc for a segment without payload). The software segmentation (skb_segment) that the
  // per-segment tcp_tx carries is not taken off: no parameter separates it.
  const double noGso = k.tcpAckTx;
  k.tcpTx += esp.dataCpuSeconds + cowCopy + noGso;
  k.tcpAckRx += esp.ackCpuSeconds;
  k.txCsumPerByte = s.csum_instructions_per_byte * eth.measured.codePathFactor *
                    eth.measured.codeCpi / eth.measured.clockHz;
  const net::SimResult r = net::simulate(c, k, mac);

  IpsecResult res;
  res.path = esp.path;
  const double mss = mac.tcpMss(c.stack.tcp_option_bytes);
  const double bps = r.throughputBps(0);
  if (!(bps > 0)) throw NotModelled{"the simulated ESP stream delivered nothing"};
  const double netPeriod = mss * 8 / bps;
  res.acksPerSegment = r.frames[0] > 0 ? r.frames[1] / r.frames[0] : 0;
  res.periodSeconds = netPeriod;
  const double wireUtil = r.seconds > 0 ? r.wireBusy[0] / r.seconds : 0;
  res.bound = wireUtil > 0.95 ? "wire" : "cpu";
  std::set<std::string> ips;
  for (const auto& [ip, sec] : esp.engineDataSeconds) ips.insert(ip);
  for (const auto& [ip, sec] : esp.engineAckSeconds) ips.insert(ip);
  for (const auto& ip : ips) {
    auto at = [](const std::map<std::string, double>& mp, const std::string& key) {
      auto it = mp.find(key);
      return it == mp.end() ? 0.0 : it->second;
    };
    const double sec =
        at(esp.engineDataSeconds, ip) + res.acksPerSegment * at(esp.engineAckSeconds, ip);
    if (sec > res.periodSeconds) {
      res.periodSeconds = sec;
      res.bound = "engine:" + ip;
    }
  }
  res.mbitPerSecond = mss * 8 / res.periodSeconds / 1e6;
  res.kpps = 1e-3 / res.periodSeconds;
  res.cpuLoadPercent = r.cpuLoadPercent() * netPeriod / res.periodSeconds;
  // Per data segment: the simulated network path by part (ESP's share taken out of the TCP
  // output and ACK parts it was added to), then ESP's parts.
  const double segments = r.payloadBytes[0] / mss;
  const double acks = res.acksPerSegment * segments;
  for (const auto& [part, sec] : r.cpuByPart) {
    double v = sec;
    if (part == "stack.tcp") v -= segments * (esp.dataCpuSeconds + cowCopy + noGso);
    if (part == "stack.tcp_ack") v -= acks * esp.ackCpuSeconds;
    if (v > 0 && segments > 0) res.breakdown.add("net.cpu." + part, v / segments);
  }
  res.breakdown.add("net.link.wire", mac.wireSeconds(mac.params().mtu_bytes));
  res.breakdown.add("esp.skb_cow_data", cowCopy);
  res.breakdown.add("esp.tcp_output_without_gso", noGso);
  for (const auto& [n, sec] : esp.data.seconds) res.breakdown.add("esp." + n, sec);
  for (const auto& [n, sec] : esp.ack.seconds)
    res.breakdown.add("esp_ack." + n, res.acksPerSegment * sec);
  return res;
}

}  // namespace socsim::wl::crypto
