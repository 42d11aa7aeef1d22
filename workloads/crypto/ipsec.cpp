#include "workloads/crypto/ipsec.h"

#include <algorithm>
#include <cmath>
#include <map>

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
          .real("driver_packet_instructions", &P::driver_packet_instructions, "instructions", 0,
                1e6,
                "Ethernet driver work per packet (transmit, DMA map, descriptor, completion): "
                "the stand-in until the Ethernet model supplies the network path",
                "calibrated: initial guess (CPSW driver transmit + completion)")
          .real("acks_per_segment", &P::acks_per_segment, "count", 0, 1,
                "ACKs the peer returns per full-sized data segment",
                "RFC 5681 §4.2 / RFC 1122 §4.2.3.2: an ACK at least every second full-sized "
                "segment (Linux delayed ACK)")
          .real("copy_bytes_per_instruction", &P::copy_bytes_per_instruction, "bytes", 1, 64,
                "payload bytes copied from user space per instruction",
                "copy_from_user with 16-byte load/store pairs (arm64 copy_template.S)");
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

NetworkPathCost crossStackNetworkPath(CryptoModel& m, RunContext& ctx, const IpsecParams& p,
                                      const EspPacket& pkt, const std::string& stackName) {
  const soc::BoardConfig& b = ctx.board();
  double lineMbps = 0;
  for (const auto& per : b.peripherals) {
    const std::string& ip = per.ip;
    const bool ethernet = ip.rfind("cpsw", 0) == 0 || ip.rfind("emac", 0) == 0 ||
                          ip.rfind("netcp", 0) == 0 || ip.rfind("gmac", 0) == 0 ||
                          ip.rfind("icss", 0) == 0;
    if (ethernet) lineMbps = std::max(lineMbps, per.link_speed_mbps);
  }
  if (!(lineMbps > 0))
    throw NotModelled{"board " + b.board.name + " has no Ethernet port with a link_speed_mbps"};
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  const double cpi = m.kernelCpi(ctx, m.stack(stackName));
  const auto& kp = b.software.kernel_paths;
  const double isaFactor = kernelPathIsaFactor(b);
  NetworkPathCost c;
  auto cpu = [&](const std::string& part, double instructions) {
    const double s = instructions * cpi / hz;
    c.cpuSeconds += s;
    c.breakdown.add(part, s);
  };
  cpu("net.tcp_segment", kp.tcp_segment_instructions * isaFactor);
  cpu("net.copy_from_user", pkt.payloadBytes / p.copy_bytes_per_instruction);
  cpu("net.driver", p.driver_packet_instructions);
  cpu("net.irq", kp.irq_instructions * isaFactor);
  // The peer's ACKs arrive through the driver's receive path with their own interrupt (their
  // TCP processing is in the segment path).
  cpu("net.ack_rx", p.acks_per_segment *
                        (p.driver_packet_instructions + kp.irq_instructions * isaFactor));
  c.wireSeconds = pkt.wireBytes * 8 / (lineMbps * 1e6);
  c.breakdown.add("net.wire", c.wireSeconds);
  return c;
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

IpsecResult ipsecStream(CryptoModel& m, RunContext& ctx, const IpsecParams& p,
                        const AlgorithmSpec& cipher, bool engine, const std::string& stackName,
                        const NetworkPathCost& net) {
  const soc::BoardConfig& b = ctx.board();
  const AlgorithmSpec* hash = m.data().algorithm(p.auth);
  if (!hash || hash->mode != "digest")
    throw NotModelled{"ESP authentication hash '" + p.auth + "' is not a digest in algorithms.yaml"};
  const CryptoStackParams& st = m.stack(stackName);
  const double hz = b.mainCluster().core.clock_mhz * 1e6;
  const EspPacket pkt = espPacket(p, models::cryptoBlockBytes(cipher.cryptoOp()));
  IpsecResult res;
  double cpuSeconds = net.cpuSeconds;
  std::map<std::string, double> engineSeconds;  // by engine IP: each is its own resource
  for (const auto& [n, s] : net.breakdown.seconds) res.breakdown.add(n, s);
  auto cpu = [&](const std::string& part, double s) {
    cpuSeconds += s;
    res.breakdown.add(part, s);
  };
  auto onEngine = [&](const EnginePreset& e, const soc::PeripheralParams& per,
                      const models::CryptoRequest& r, const std::string& what, double weight,
                      double extraEngineSeconds) {
    CallTiming t = m.engineRequest(ctx, e, per, r, st);
    cpuSeconds += weight * t.busySeconds;
    engineSeconds[e.ip] += weight * (t.seconds - t.busySeconds + extraEngineSeconds);
    for (const auto& [n, sec] : t.breakdown.seconds) res.breakdown.add(what + "." + n, weight * sec);
    if (extraEngineSeconds > 0)
      res.breakdown.add(what + ".engine.hash_stream", weight * extraEngineSeconds);
  };
  auto software = [&](const AlgorithmSpec& a, double blocks, const std::string& what,
                      double weight) {
    std::string k;
    const double sec = m.softwareSeconds(ctx, a, blocks, &k);
    cpu(what + ".kernel." + k, weight * sec);
  };
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
  // ESP on one packet `k` (`weight` per data segment): xfrm/ESP code, then the cipher and the
  // HMAC where the kernel runs them.
  auto esp = [&](const EspPacket& k, double weight, const std::string& tag) {
    cpu(tag + ".xfrm_esp", weight * st.esp_packet_instructions * m.kernelCpi(ctx, st) / hz);
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
      onEngine(*both, *cPer, c, tag + ".authenc", weight, extra);
      return;
    }
    if (ce)
      onEngine(*ce, *cPer, c, tag + ".cipher", weight, 0);
    else
      software(cipher, k.cipherBytes / blockBytes, tag + ".cipher", weight);
    if (he)
      onEngine(*he, *hPer, h, tag + ".hmac", weight, 0);
    else
      software(*hash, hmacBlocks, tag + ".hmac", weight);
  };
  esp(pkt, 1.0, "esp");
  // The peer's ACKs come back through the same SA: ESP input on each (authenticated and
  // decrypted like the data, a cipher block or three).
  esp(espAck(p, models::cryptoBlockBytes(cipher.cryptoOp())), p.acks_per_segment, "esp_ack");
  // Packets pipeline through the CPU, each engine and the wire: the slowest sets the period.
  res.periodSeconds = std::max(cpuSeconds, net.wireSeconds);
  res.bound = cpuSeconds >= net.wireSeconds ? "cpu" : "wire";
  for (const auto& [ip, s] : engineSeconds)
    if (s > res.periodSeconds) {
      res.periodSeconds = s;
      res.bound = "engine:" + ip;
    }
  res.mbitPerSecond = pkt.payloadBytes * 8 / res.periodSeconds / 1e6;
  res.kpps = 1e-3 / res.periodSeconds;
  const int cores = std::max(1, b.mainCluster().info.cores);
  res.cpuLoadPercent = 100.0 * cpuSeconds / (res.periodSeconds * cores);
  return res;
}

}  // namespace socsim::wl::crypto
