// Ethernet: IEEE 802.3 framing of the MAC model, the packet simulation against closed forms
// (line rate minus framing, window / RTT, the RFC 2544 zero-loss search, interrupt pacing), the
// CPSW presets through the loader, the DMA port on the platform, and the workload's coverage of
// the measured Ethernet rows.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "calibration/dataset/measured_row.h"
#include "models/dma/dma_port.h"
#include "models/peripherals/cpsw/cpsw.h"
#include "models/peripherals/pcie/pcie_nic.h"
#include "soc/config/loader.h"
#include "soc/platform.h"
#include "validation/board_runner.h"
#include "workloads/cpu/workload_profile.h"
#include "workloads/net/board_network.h"
#include "workloads/net/net_config.h"
#include "workloads/net/net_sim.h"
#include "workloads/net/net_workloads.h"
#include "workloads/net/stack_costs.h"

using namespace socsim;
using namespace socsim::wl::net;
using models::Cpsw;
using models::CpswParams;

namespace {

std::string boardFile(const std::string& name) {
  return std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/" + name + ".yaml";
}

/// Software that costs nothing: the link and the protocol alone set the pace.
SoftwareCosts freeSoftware() {
  return SoftwareCosts{};
}

/// A plausible software cost set (seconds) for behaviour tests.
SoftwareCosts someSoftware() {
  SoftwareCosts k;
  k.irq = 2e-6;
  k.poll = 1e-6;
  k.rxFrame = 1e-6;
  k.rxIp = 0.8e-6;
  k.udpRx = 1e-6;
  k.tcpRx = 2e-6;
  k.gro = 0.3e-6;
  k.tcpAckTx = 1.5e-6;
  k.tcpAckRx = 1.2e-6;
  k.txSyscall = 1e-6;
  k.udpTx = 2e-6;
  k.tcpTx = 2e-6;
  k.txFrame = 0.6e-6;
  k.txComplete = 0.4e-6;
  k.rxSyscall = 1e-6;
  k.wakeup = 2e-6;
  k.appSend = 0.5e-6;
  k.appRecv = 0.5e-6;
  k.rxCopyPerByte = 1e-9;
  k.txCopyPerByte = 1e-9;
  k.dmaFixed = 0.3e-6;
  k.dmaPerByte = 2e-9;
  return k;
}

SimConfig baseConfig(Traffic t) {
  SimConfig c;
  c.traffic = t;
  c.cores = 2;
  c.appCores = {1, 1};
  c.stack.app_stall_ms = 0;  // no scheduling noise: the closed forms hold exactly
  c.warmup = 0.004;
  c.duration = 0.02;
  return c;
}

}  // namespace

// ------------------------------------------------------------------ framing (closed forms)

TEST(Framing, MinimumFramePreambleIfgAndFcs) {
  // Scenario: a 28-byte IP packet is padded to the 64-byte minimum frame; the wire adds the
  // 8-byte preamble+SFD and the 12-byte gap.
  EXPECT_EQ(Cpsw::frameBytes(28), 64);
  EXPECT_EQ(Cpsw::wireBytes(28), 84);
  // A full 1500-byte IP packet: 14 header + 4 FCS -> 1518, plus 20 on the wire -> 1538.
  EXPECT_EQ(Cpsw::frameBytes(1500), 1518);
  EXPECT_EQ(Cpsw::wireBytes(1500), 1538);
  Cpsw gbe(CpswParams{}, 1000);
  EXPECT_NEAR(gbe.wireSeconds(1500), 1538 * 8 / 1e9, 1e-15);
}

TEST(Framing, DatagramsBeyondTheMtuAreFragmented) {
  Cpsw mac(CpswParams{}, 1000);
  // 1470-byte payload + 8 UDP = 1478 fits (IP 1498).
  EXPECT_EQ(mac.ipPackets(1478), std::vector<int>({1498}));
  // 1500-byte payload + 8 UDP = 1508: 1480 (8-byte aligned) + 28, each with a 20-byte header.
  EXPECT_EQ(mac.ipPackets(1508), std::vector<int>({1500, 48}));
  EXPECT_EQ(mac.tcpMss(12), 1448);
  EXPECT_EQ(mac.tcpMss(0), 1460);
}

TEST(Framing, LinePayloadRatesClosedForm) {
  Cpsw fe(CpswParams{}, 100);
  // 100 Mbit/s, 1470-byte datagrams: 1470 / (1470 + 8 + 20 + 14 + 4 + 8 + 12) of the line.
  EXPECT_NEAR(udpLinePayloadBps(fe, 1470), 100e6 * 1470 / 1536, 1);
  // TCP with timestamps: 1448 / 1538 of the line.
  EXPECT_NEAR(tcpLinePayloadBps(fe, 12), 100e6 * 1448 / 1538, 1);
}

// ------------------------------------------------------------------ link limits

TEST(NetSim, HundredMegabitLinkNeverCarriesMoreThanItsPayloadRate) {
  Cpsw fe(CpswParams{}, 100);
  for (int size : {64, 256, 1024, 1470, 1500}) {
    SimConfig c = baseConfig(Traffic::UdpTx);
    c.datagramBytes = size;
    SimResult r = simulate(c, freeSoftware(), fe);
    const double line = udpLinePayloadBps(fe, size);
    EXPECT_LE(r.throughputBps(0), line * 1.001) << size;
    // Independently of the model's framing code: an unfragmented datagram costs its payload
    // + 8 UDP + 20 IPv4 + 14 MAC header + 4 FCS + 8 preamble/SFD + 12 gap = payload + 66 bytes
    // of wire time (no padding from 18 bytes up).
    if (size <= 1472) {
      EXPECT_LE(r.throughputBps(0), 100e6 * size / (size + 66.0) * 1.001) << size;
    }
    // With free software the sender fills the line.
    EXPECT_GE(r.throughputBps(0), line * 0.97) << size;
    EXPECT_LE(r.wireBusy[0], r.seconds * 1.0001) << size;
  }
  SimConfig c = baseConfig(Traffic::TcpTx);
  SimResult r = simulate(c, freeSoftware(), fe);
  EXPECT_LE(r.throughputBps(0), tcpLinePayloadBps(fe, c.stack.tcp_option_bytes) * 1.001);
  EXPECT_GE(r.throughputBps(0), tcpLinePayloadBps(fe, c.stack.tcp_option_bytes) * 0.95);
}

TEST(NetSim, TcpIsBoundedByWindowOverRttAndByTheLine) {
  Cpsw gbe(CpswParams{}, 1000);
  const double line = tcpLinePayloadBps(gbe, 12);
  double prev = 0;
  for (double window : {4096.0, 8192.0, 16384.0, 65536.0, 1048576.0}) {
    for (Traffic t : {Traffic::TcpRx, Traffic::TcpTx}) {
      SimConfig c = baseConfig(t);
      c.tcpWindowBytes = window;
      c.peerTurnaround = 50e-6;
      SimResult r = simulate(c, someSoftware(), gbe);
      const int dir = t == Traffic::TcpTx ? 0 : 1;
      // A window's worth of data needs at least one round trip: the peer's turnaround plus
      // the wire time of a segment and of its ACK.
      const double rttMin = c.peerTurnaround + gbe.wireSeconds(1500) + gbe.wireSeconds(52);
      EXPECT_LE(r.throughputBps(dir), window * 8 / rttMin * 1.001) << window;
      EXPECT_LE(r.throughputBps(dir), line * 1.001) << window;
      EXPECT_GT(r.throughputBps(dir), 0) << window;
      if (t == Traffic::TcpRx) {
        EXPECT_GE(r.throughputBps(dir), prev * 0.98) << "throughput grows with the window";
        prev = r.throughputBps(dir);
      }
    }
  }
  // A window far beyond the bandwidth-delay product: the line is the limit.
  SimConfig c = baseConfig(Traffic::TcpRx);
  c.tcpWindowBytes = 4 << 20;
  EXPECT_GE(simulate(c, freeSoftware(), gbe).throughputBps(1), 0.95 * line);
}

TEST(NetSim, TsoRunsTcpOutputOncePerSkbNotPerFrame) {
  // A CPU-bound TCP sender: with segmentation offload the TCP/IP output, the driver's transmit
  // and its completion are paid once per skb of up to gso_max_segments frames; per frame they
  // cost the same without it. The payload copy stays per byte, the line the bound.
  Cpsw gbe(CpswParams{}, 1000);
  SoftwareCosts k = someSoftware();
  k.tcpTx = 20e-6;  // far beyond a frame's 12 us on the wire: the sender sets the pace
  SimConfig c = baseConfig(Traffic::TcpTx);
  c.tcpWindowBytes = 4 << 20;
  const SimResult plain = simulate(c, k, gbe);
  c.tso = true;
  const SimResult tso = simulate(c, k, gbe);
  const double perFrame = plain.cpuByPart.at("stack.tcp") / plain.frames[0];
  EXPECT_NEAR(perFrame, k.tcpTx, 0.01 * k.tcpTx);
  // Once the line is the bound, each ACK (every second segment) opens an skb of two or more.
  EXPECT_LT(tso.cpuByPart.at("stack.tcp") / tso.frames[0], 0.55 * perFrame);
  EXPECT_LT(tso.cpuByPart.at("driver.tx_complete") / tso.frames[0],
            0.55 * plain.cpuByPart.at("driver.tx_complete") / plain.frames[0]);
  const double line = tcpLinePayloadBps(gbe, c.stack.tcp_option_bytes);
  EXPECT_LT(plain.throughputBps(0), 0.7 * line);
  EXPECT_GT(tso.throughputBps(0), 0.97 * line);
  EXPECT_LE(tso.throughputBps(0), line * 1.001);
  // One skb never holds more than gso_max_segments frames.
  c.stack.gso_max_segments = 1;
  const SimResult one = simulate(c, k, gbe);
  EXPECT_NEAR(one.cpuByPart.at("stack.tcp") / one.frames[0], perFrame, 0.01 * perFrame);
}

TEST(NetSim, SmallWindowIsWindowOverRoundTrip) {
  // Free software, a window of 4 segments and a 200 us peer that acknowledges every second
  // segment: each ACK releases two segments, so throughput = W / RTT with RTT from the first
  // segment of a pair leaving to its ACK being taken in = 2 segments on the wire + the peer's
  // turnaround + the ACK on the wire + the DUT's store-and-forward latency and interrupt
  // latency (DMA and software cost nothing here).
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::TcpTx);
  c.tcpWindowBytes = 4 * 1448;
  c.peerTurnaround = 200e-6;
  SimResult r = simulate(c, freeSoftware(), gbe);
  const double rtt = 2 * gbe.wireSeconds(1500) + c.peerTurnaround + gbe.wireSeconds(52) +
                     CpswParams{}.switch_latency_ns * 1e-9 + c.stack.irq_latency_us * 1e-6;
  EXPECT_NEAR(r.throughputBps(0), c.tcpWindowBytes * 8 / rtt, 0.02 * c.tcpWindowBytes * 8 / rtt);
}

// ------------------------------------------------------------------ RFC 2544 search

TEST(NetSim, ZeroLossSearchReturnsTheHighestLosslessBurst) {
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.datagramBytes = 256;
  c.stack.rx_descriptors = 64;
  c.burstPeriod = 0.002;
  c.warmup = 0.002;
  c.duration = 0.008;
  SoftwareCosts k = someSoftware();
  SearchResult s = zeroLossSearch(c, k, gbe);
  ASSERT_GT(s.config.burstDatagrams, 0);
  EXPECT_TRUE(lossless(s.result, 1));
  // The returned setting itself runs without a drop (and is the run reported).
  SimResult again = simulate(s.config, k, gbe);
  EXPECT_TRUE(lossless(again, 1));
  EXPECT_DOUBLE_EQ(again.throughputBps(1), s.result.throughputBps(1));
  // One more datagram per burst loses some (the receiver is slower than the line).
  SimConfig more = s.config;
  more.burstDatagrams += 1;
  EXPECT_FALSE(lossless(simulate(more, k, gbe), 1));
  EXPECT_NEAR(s.offeredMbps, s.config.burstDatagrams * 256 * 8 / c.burstPeriod / 1e6, 1e-9);
}

TEST(NetSim, UnpacedReceiverOverloadDropsAndReportsLoss) {
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.datagramBytes = 64;
  SimResult r = simulate(c, someSoftware(), gbe);
  EXPECT_GT(r.loss(1), 0.5);  // 1.4 Mpps offered, a few hundred kpps handled
  EXPECT_GT(r.pps(1), 0);
  EXPECT_LT(r.throughputBps(1), udpLinePayloadBps(gbe, 64));
}

TEST(NetSim, PeerSendsNoFasterThanItsOwnPerDatagramPath) {
  // Free software on the DUT takes more than 900 kpps of 64-byte datagrams (line rate about
  // 1.49 Mpps); a peer that needs 2 us per datagram offers 500 kpps, all of it delivered.
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.datagramBytes = 64;
  const SimResult line = simulate(c, freeSoftware(), gbe);
  EXPECT_GT(line.pps(1), 9e5);
  c.peerDatagramGap = 2e-6;
  const SimResult paced = simulate(c, freeSoftware(), gbe);
  EXPECT_NEAR(paced.pps(1), 5e5, 5e3);
  EXPECT_EQ(paced.loss(1), 0);
  // Large datagrams: the line (81 kpps for 1472 bytes) is slower than the peer; no change.
  c.datagramBytes = 1472;
  const SimResult big = simulate(c, freeSoftware(), gbe);
  c.peerDatagramGap = 0;
  EXPECT_NEAR(big.pps(1), simulate(c, freeSoftware(), gbe).pps(1), 1);
}

TEST(NetSim, PeerSendsNoFasterThanItsPayloadRate) {
  // A peer with 2 us per datagram and 10 ns per payload byte (800 Mbit/s): large datagrams go
  // at the payload rate (1472 B: 14.72 us, 67.9 kpps, below the line's 81 kpps), small ones at
  // the per-datagram rate (the two stages are pipelined: the longer one governs).
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.peerDatagramGap = 2e-6;
  c.peerByteGap = 10e-9;
  c.datagramBytes = 1472;
  const SimResult big = simulate(c, freeSoftware(), gbe);
  EXPECT_NEAR(big.pps(1), 1.0 / 14.72e-6, 500);
  EXPECT_EQ(big.loss(1), 0);
  c.datagramBytes = 64;
  EXPECT_NEAR(simulate(c, freeSoftware(), gbe).pps(1), 5e5, 5e3);
  // Without the byte rate the 1472-byte datagrams go at the line rate again.
  c.datagramBytes = 1472;
  c.peerByteGap = 0;
  EXPECT_GT(simulate(c, freeSoftware(), gbe).pps(1), 8e4);
}

TEST(NetSim, SenderSharingTheInterruptCoreCarriesOneCoresWorth) {
  // A CPU-bound UDP sender: on its own core it overlaps with the completion interrupts on the
  // interrupt core; sharing that core, every datagram's whole path runs on one core and the
  // other core stays idle.
  Cpsw gbe(CpswParams{}, 1000);
  SoftwareCosts k = someSoftware();
  k.udpTx = 8e-6;  // the sender, not the line, sets the pace
  SimConfig c = baseConfig(Traffic::UdpTx);
  c.datagramBytes = 64;
  const SimResult own = simulate(c, k, gbe);
  c.appCores = {0, 1};
  const SimResult shared = simulate(c, k, gbe);
  EXPECT_LT(shared.pps(0), own.pps(0) * 0.95);
  EXPECT_EQ(shared.coreLoadPercent(1), 0);
  EXPECT_GT(shared.coreLoadPercent(0), 95);
  EXPECT_GT(own.coreLoadPercent(1), 95);
}

TEST(NetWorkload, NetperfSharesTheInterruptCoreOnlyOnTwoCoreBoards) {
  // tools/netperf.yaml app_on_irq_core_max_cores: on a two-core DUT (j721e) netperf runs on the
  // core taking the Ethernet interrupts, on four or eight cores (j742s2, j784s4) on a core of
  // its own; iperf (guide 000) keeps its own core on the two-core AM57xx.
  const std::string dir = defaultNetDir();
  const NetStack linux = loadNetStack(dir + "/stacks/linux.yaml");
  const Cpsw gbe(CpswParams{}, 1000);
  auto shared = [&](const std::string& tool, int cores) {
    const SimConfig c = defaultSimConfig(linux, loadNetTool(dir + "/tools/" + tool), gbe, cores,
                                         Traffic::UdpTx);
    return !c.appCores.empty() && c.appCores[0] == c.irqCore;
  };
  EXPECT_TRUE(shared("netperf.yaml", 2));
  EXPECT_FALSE(shared("netperf.yaml", 4));
  EXPECT_FALSE(shared("netperf.yaml", 8));
  EXPECT_FALSE(shared("iperf.yaml", 2));
}

// ------------------------------------------------------------------ interrupt pacing

TEST(NetSim, PacingLowersCpuLoadAndRaisesLatency) {
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.datagramBytes = 1024;
  c.offeredBps = 200e6;  // well below what the receiver handles
  SoftwareCosts k = someSoftware();
  SimResult off = simulate(c, k, gbe);
  c.pacing = true;
  c.stack.pacing_interval_us = 250;
  SimResult on = simulate(c, k, gbe);
  EXPECT_NEAR(on.throughputBps(1), off.throughputBps(1), 0.02 * off.throughputBps(1));
  EXPECT_LT(on.interrupts, off.interrupts / 4);
  EXPECT_LT(on.cpuLoadPercent(), off.cpuLoadPercent());
  EXPECT_GT(on.meanRxLatency(), off.meanRxLatency() + 50e-6);
}

// ------------------------------------------------------------------ timer-polled receive

TEST(NetSim, TimerPolledTcpReceiveCarriesOneWindowPerPollPeriod) {
  // A driver that polls every 1 ms (interrupts off): the peer's window of 8 segments arrives
  // well within a period and is acknowledged only at the next poll, so the flow carries one
  // window per period (8 x 1460 B / 1 ms = 93.44 Mbit/s), far below the gigabit line.
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::TcpRx);
  c.cores = 1;
  c.appCores = {0};
  c.stack.tcp_option_bytes = 0;
  c.stack.gro = false;
  c.tcpRecvBytes = 1460;
  c.tcpWindowBytes = 8 * 1460;
  c.stack.rx_descriptors = 32;
  c.stack.rx_poll_period_us = 1000;
  c.duration = 0.1;
  const double r = simulate(c, someSoftware(), gbe).throughputBps(1);
  EXPECT_NEAR(r, 8 * 1460 * 8 / 1e-3, 0.02 * 8 * 1460 * 8 / 1e-3);
}

TEST(NetSim, TimerPolledReceiveTakesAtMostHalfTheRingPerPeriod) {
  // Buffers handed to the stack at one poll return to the DMA at the next one: at saturation
  // the ring holds one period's frames waiting for the poll and one period's frames being
  // returned, so at most rxDescriptors / 2 frames are delivered per period.
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpRx);
  c.cores = 1;
  c.appCores = {0};
  c.datagramBytes = 256;
  c.stack.rx_descriptors = 32;
  c.stack.rx_poll_period_us = 1000;
  c.offeredBps = 100e6;  // 48.8 kpps offered
  c.duration = 0.05;
  SimResult r = simulate(c, someSoftware(), gbe);
  EXPECT_GT(r.loss(1), 0.5);
  const double perPeriod = r.datagramsDelivered[1] / (r.seconds / 1e-3);
  EXPECT_LE(perPeriod, 16 + 1.0);  // one poll more or less in the measured interval
  EXPECT_GE(perPeriod, 16 * 0.9);
  // Below the ceiling nothing is lost.
  c.offeredBps = 20e6;  // 9.8 kpps
  EXPECT_TRUE(lossless(simulate(c, someSoftware(), gbe), 1));
}

TEST(NetSim, TimerPolledSenderWithoutSendBufferReclaimsDescriptorsOnDemand) {
  // 100 Mbit/s of 1472-byte datagrams from a busy-waiting sender over a driver that polls
  // every 1 ms. With a socket send buffer of 8 frames the sender stalls until the next poll
  // reaps the completions (about 8 datagrams per ms, ~94 Mbit/s at most); lwIP has no UDP
  // send buffer and the driver reclaims completed descriptors when its ring runs out, so the
  // offered rate goes out and the busy-wait keeps the core fully loaded.
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::UdpTx);
  c.cores = 1;
  c.appCores = {0};
  c.appSpin = true;
  c.datagramBytes = 1472;
  c.offeredBps = 100e6;
  c.stack.tx_descriptors = 16;
  c.stack.tx_queue_len = 0;
  c.stack.sndbuf_bytes = 8 * 1538;
  c.stack.skb_overhead_bytes = 0;
  c.stack.rx_poll_period_us = 1000;
  c.duration = 0.05;
  c.stack.udp_send_buffer = true;
  SimResult buffered = simulate(c, someSoftware(), gbe);
  c.stack.udp_send_buffer = false;
  SimResult direct = simulate(c, someSoftware(), gbe);
  EXPECT_LT(buffered.throughputBps(0), 0.95 * 100e6);
  EXPECT_NEAR(direct.throughputBps(0), 100e6, 0.02 * 100e6);
  EXPECT_TRUE(lossless(direct, 0));
  EXPECT_GT(direct.cpuLoadPercent(), 99.0);
}

TEST(NetSim, Deterministic) {
  Cpsw gbe(CpswParams{}, 1000);
  SimConfig c = baseConfig(Traffic::TcpBidir);
  SimResult a = simulate(c, someSoftware(), gbe), b = simulate(c, someSoftware(), gbe);
  EXPECT_EQ(a.payloadBytes[0], b.payloadBytes[0]);
  EXPECT_EQ(a.payloadBytes[1], b.payloadBytes[1]);
  EXPECT_EQ(a.coreBusy, b.coreBusy);
  EXPECT_EQ(a.interrupts, b.interrupts);
}

// ------------------------------------------------------------------ config and platform

TEST(CpswConfig, PresetsLoadThroughTheBoards) {
  auto j7 = soc::loadBoard(boardFile("j721e-idk-gw"));
  ASSERT_FALSE(j7.peripherals.empty());
  ASSERT_TRUE(j7.peripherals[0].cpsw.has_value());
  EXPECT_EQ(j7.peripherals[0].ip, "cpsw2g");
  EXPECT_EQ(j7.peripherals[0].cpsw->dma, "udma");
  EXPECT_TRUE(j7.peripherals[0].cpsw->rx_checksum_offload);
  auto am3 = soc::loadBoard(boardFile("am335x-evm"));
  ASSERT_TRUE(am3.peripherals[0].cpsw.has_value());
  EXPECT_EQ(am3.peripherals[0].cpsw->dma, "cpdma");
  EXPECT_FALSE(am3.peripherals[0].cpsw->rx_checksum_offload);
  auto omap = soc::loadBoard(boardFile("omapl138-lcdk"));
  EXPECT_DOUBLE_EQ(omap.peripherals[0].link_speed_mbps, 100);
  // A what-if on the IP's parameter reaches the struct.
  soc::applyOverride(am3, "peripherals[0].cpsw.rx_fifo", "8KiB");
  EXPECT_EQ(am3.peripherals[0].cpsw->rx_fifo_bytes, 8192u);
}

TEST(CpswConfig, StackAndToolFilesLoad) {
  for (const char* s : {"linux", "linux-rt", "mcu-nortos"}) {
    NetStack st = loadNetStack(defaultNetDir() + "/stacks/" + s + ".yaml");
    EXPECT_FALSE(st.p.name.empty());
    EXPECT_NO_THROW(wl::cpu::loadProfile(st.codeProfileFile)) << s;
  }
  for (const char* t : {"iperf", "netperf", "lwiperf"}) {
    NetTool tl = loadNetTool(defaultNetDir() + "/tools/" + t + ".yaml");
    EXPECT_NO_THROW(wl::cpu::loadProfile(tl.appProfileFile)) << t;
  }
  NetStack rt = loadNetStack(defaultNetDir() + "/stacks/linux-rt.yaml");
  EXPECT_EQ(rt.p.name, "linux-rt");  // the RT file starts from the Linux one
  EXPECT_EQ(rt.p.rx_frame_instructions,
            loadNetStack(defaultNetDir() + "/stacks/linux.yaml").p.rx_frame_instructions);
}

TEST(DmaPort, DmaTrafficGoesThroughTheMemorySystem) {
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am335x-evm")));
  validation::BoardRunContext ctx(std::move(b));
  soc::Platform& p = ctx.platform();
  Cpsw mac(*ctx.board().peripherals[0].cpsw, 1000);
  std::uint64_t bigEnd = 0, smallEnd = 0, start = 0;
  p.run(0, [&](models::CoreMemory&) {
    start = models::nowPs();
    bigEnd = mac.rxFrame(p.dma(), 0x5ff00000, 0x60000000, 1518, start).endPs;
    smallEnd = mac.rxFrame(p.dma(), 0x5ff00040, 0x60100000, 64, bigEnd).endPs;
  });
  const double big = static_cast<double>(bigEnd - start) * 1e-12;
  const double small = static_cast<double>(smallEnd - bigEnd) * 1e-12;
  EXPECT_GT(big, small);
  // A 1518-byte frame cannot move faster than the DRAM's peak bandwidth.
  EXPECT_GE(big, 1518.0 / p.dramPeakBytesPerSecond());
  double written = 0;
  for (const auto& s : p.stats())
    if (s.path == "soc.dma.write_bytes") written = s.value;
  EXPECT_EQ(written, 1518 + 64 + 2 * 16);  // two frames + two descriptor write-backs of 16 B
}

TEST(StackCosts, MeasuredOnTheBoardsCoreAndMemory) {
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am335x-evm")));
  validation::BoardRunContext ctx(std::move(b));
  NetStack st = loadNetStack(defaultNetDir() + "/stacks/linux.yaml");
  NetTool tl = loadNetTool(defaultNetDir() + "/tools/iperf.yaml");
  auto code = wl::cpu::loadProfile(st.codeProfileFile);
  auto app = wl::cpu::loadProfile(tl.appProfileFile);
  Cpsw mac(*ctx.board().peripherals[0].cpsw, 1000);
  MeasuredCosts m = measureCosts(ctx, code, app, mac);
  EXPECT_GT(m.codeCpi, 0.3);
  EXPECT_LT(m.codeCpi, 20);
  EXPECT_GT(m.rxCopyPerByte, 0);
  EXPECT_GT(m.dmaPerByte, 0);
  SoftwareCosts k =
      toSoftwareCosts(m, st.p, tl.p, mac.params(), &ctx.board().software.kernel_paths);
  // AM335x CPSW does not offload checksums: the stack computes them.
  EXPECT_GT(k.rxCsumPerByte, 0);
  EXPECT_GT(k.txSyscall, 0);
  EXPECT_GT(k.wakeup, 0);
  EXPECT_EQ(k.irqThread, 0);  // standard kernel: hard interrupts
  EXPECT_NEAR(k.rxFrame / k.poll, st.p.rx_frame_instructions / st.p.poll_instructions, 1e-9);
}

TEST(StackCosts, KernelPathsComeFromTheBoardsSoftwareStack) {
  // The same measured core, the standard and the PREEMPT_RT kernel paths: RT threads its
  // interrupts and pays for sleeping locks; a bare-metal stack has no system calls or wakeups.
  MeasuredCosts m;
  m.isa = "armv7-a";
  m.clockHz = 1e9;
  NetStack linux = loadNetStack(defaultNetDir() + "/stacks/linux.yaml");
  NetStack lwip = loadNetStack(defaultNetDir() + "/stacks/mcu-nortos.yaml");
  NetTool tl = loadNetTool(defaultNetDir() + "/tools/iperf.yaml");
  auto std_ = soc::loadBoard(boardFile("am57xx-evm"));
  auto rt = soc::loadBoard(boardFile("am574x-idk"));
  CpswParams mac;
  SoftwareCosts a = toSoftwareCosts(m, linux.p, tl.p, mac, &std_.software.kernel_paths);
  SoftwareCosts b = toSoftwareCosts(m, linux.p, tl.p, mac, &rt.software.kernel_paths);
  EXPECT_EQ(a.irqThread, 0);
  EXPECT_GT(b.irqThread, 0);
  EXPECT_GT(b.rxFrame, a.rxFrame);
  SoftwareCosts c = toSoftwareCosts(m, lwip.p, tl.p, mac, nullptr);
  EXPECT_EQ(c.txSyscall, 0);
  EXPECT_EQ(c.wakeup, 0);
  EXPECT_EQ(c.rxCopyPerByte, 0);  // lwIP hands pbufs to the application
}

TEST(StackCosts, UncachedPacketMemoryHandoffsAndSoftwareChecksum) {
  // A stack whose packet memory the core does not cache pays a memory round trip per access to
  // a frame (driver receive and transmit) and per 32-bit load of its software checksum; RTOS
  // hand-offs add their instructions to each received packet. Closed forms on a fixed core.
  MeasuredCosts m;
  m.isa = "armv7-r";
  m.clockHz = 1e9;
  m.codeCpi = 2;
  m.uncachedAccess = 60e-9;
  NetStack lwip = loadNetStack(defaultNetDir() + "/stacks/mcu-nortos.yaml");
  NetTool tl = loadNetTool(defaultNetDir() + "/tools/lwiperf.yaml");
  CpswParams mac;
  mac.rx_checksum_offload = true;
  mac.tx_checksum_offload = true;
  NetStackParams p = lwip.p;
  p.packet_memory_cached = true;
  p.software_checksum = false;
  p.task_switches_per_frame = 0;
  const SoftwareCosts base = toSoftwareCosts(m, p, tl.p, mac, nullptr);
  EXPECT_EQ(base.rxCsumPerByte, 0);  // offloaded
  p.software_checksum = true;
  const SoftwareCosts sw = toSoftwareCosts(m, p, tl.p, mac, nullptr);
  const double perInstr = m.codeCpi / m.clockHz * m.codePathFactor;
  EXPECT_NEAR(sw.rxCsumPerByte, p.csum_instructions_per_byte * perInstr, 1e-15);
  EXPECT_NEAR(sw.txCsumPerByte, sw.rxCsumPerByte, 1e-15);
  EXPECT_DOUBLE_EQ(sw.rxFrame, base.rxFrame);
  p.packet_memory_cached = false;
  p.packet_accesses_per_frame = 100;
  const SoftwareCosts unc = toSoftwareCosts(m, p, tl.p, mac, nullptr);
  EXPECT_NEAR(unc.rxFrame - base.rxFrame, 100 * 60e-9, 1e-12);
  EXPECT_NEAR(unc.txFrame - base.txFrame, 100 * 60e-9, 1e-12);
  EXPECT_NEAR(unc.rxCsumPerByte - sw.rxCsumPerByte, 60e-9 / 4, 1e-15);
  p.task_switches_per_frame = 2;
  p.task_switch_instructions = 400;
  const SoftwareCosts ho = toSoftwareCosts(m, p, tl.p, mac, nullptr);
  EXPECT_NEAR(ho.rxIp - unc.rxIp, 800 * perInstr, 1e-12);
  EXPECT_DOUBLE_EQ(ho.udpRx, unc.udpRx);
  // The lwIP stack file uses all three (the MCU+ lwIP-Enet set-up).
  EXPECT_FALSE(lwip.p.packet_memory_cached);
  EXPECT_TRUE(lwip.p.software_checksum);
  EXPECT_GT(lwip.p.task_switches_per_frame, 0);
}

TEST(NetWorkload, CoversEveryMeasuredEthernetRow) {
  auto rows = calib::readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  NetworkBenchmarks w(defaultNetDir());
  int ethernet = 0, covered = 0;
  for (const auto& r : rows) {
    if (r.family != "ethernet" && !(r.family == "pcie" && r.benchmark == "PCI Ethernet")) continue;
    ++ethernet;
    wl::Query q{r.family, r.benchmark, r.metric, r.params, r.unit};
    if (w.covers(q))
      ++covered;
    else
      ADD_FAILURE() << r.board << " " << r.benchmark << " " << r.metric << " " << r.params;
  }
  EXPECT_GT(ethernet, 550);
  EXPECT_EQ(covered, ethernet);
  // NVMe rows belong to the storage workloads.
  EXPECT_FALSE(w.covers({"pcie", "PCIE SSD EXT4 FIO 10G", "Throughput", "", "MB/s"}));
}

TEST(NetWorkload, ReceiverStallDropsCountWithTheShareOfTheTestTheyStandFor) {
  // netperf ingress 'possible loss' at 1024-byte datagrams on j784s4: the DUT keeps up with what
  // the tester offers, so every drop comes from the one receiver stall in the simulated
  // interval. Counted at its real weight (interval / stall period), the loss is the interval's
  // share of it, and only that share comes off the throughput; the CPU load is the calm run's.
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("j784s4-evm")));
  validation::BoardRunContext ctx(std::move(b));
  NetworkBenchmarks w(defaultNetDir());
  auto row = [&](const std::string& metric, const std::string& unit) {
    return w.predict(ctx, {"ethernet", "CPSW2g UDP Ingress Throughput possible loss", metric,
                           "frame=1024;stack=linux", unit});
  };
  const wl::Prediction p = row("Packet Loss", "%");
  // The same test simulated directly: with the stall in the interval, and without it.
  const std::string dir = defaultNetDir();
  BoardNetwork n = boardNetwork(ctx, dir + "/stacks/linux.yaml", "linux", dir + "/tools/netperf.yaml");
  SimConfig c = defaultSimConfig(n.stack, n.tool, *n.mac, n.cores, Traffic::UdpRx);
  c.datagramBytes = 1024;
  ASSERT_GT(c.stack.app_stall_ms, 0);
  const SimResult stalledRun = simulate(c, n.costs, *n.mac);
  const double stalled = stalledRun.loss(1);
  SimConfig calm = c;
  calm.stack.app_stall_ms = 0;
  const SimResult calmRun = simulate(calm, n.costs, *n.mac);
  EXPECT_EQ(calmRun.loss(1), 0);
  ASSERT_GT(stalled, 0);  // the socket cannot hold what arrives during a stall
  const double share = c.duration / (c.stack.app_stall_period_ms * 1e-3);
  EXPECT_NEAR(p.value, 100 * stalled * share, 1e-9 + 1e-3 * p.value);
  EXPECT_LT(p.value, 100 * stalled / 2);
  // The throughput is the calm run's less the weighted drops (not the stalled interval's).
  const double mbps = row("THROUGHPUT", "Mbit/s").value;
  EXPECT_NEAR(mbps, calmRun.throughputBps(1) / 1e6 * (1 - p.value / 100), 1e-3 * mbps);
  EXPECT_DOUBLE_EQ(row("CPU Load", "%").value, calmRun.cpuLoadPercent());
}

TEST(NetWorkload, RowParsing) {
  auto t = parseRow({"ethernet", "CPSW2g UDP Ingress Throughput 0 loss", "THROUGHPUT",
                     "frame=1518;stack=linux", "Mbit/s"});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->datagramBytes, 1472);
  EXPECT_EQ(t->mode, Mode::ZeroLoss);
  t = parseRow({"ethernet", "CPSW2g UDP Egress Throughput 0 loss", "THROUGHPUT",
                "frame=1518;stack=linux", "Mbit/s"});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->datagramBytes, 1518);
  t = parseRow({"ethernet", "UDP RX", "Tx Side BW", "packet_bytes=1500;stack=lwip;tx_bw_mbps=max",
                "Mbit/s"});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->mode, Mode::MaxRate);
  EXPECT_EQ(t->metric, Metric::OfferedRate);
  EXPECT_FALSE(parseRow({"ethernet", "TCP Throughput", "Throughput", "stack=linux;window=8192",
                         "MB/s"}));  // wrong unit
}

// ------------------------------------------------------------------ PCIe-attached NIC

TEST(PcieNic, LinkTimeIsPayloadPlusTlpOverheadAtTheCodedRate) {
  models::PcieNicParams p;  // MPS 128, RCB 64, 24-byte TLP overhead, 1 us reads, 4 per fetch
  models::PcieNic gen1(p, 2.5, 1, 16);
  const double raw = 2.5e9 * 0.8 / 8;  // 8b/10b: 250 MB/s per lane
  EXPECT_DOUBLE_EQ(gen1.rawBytesPerSecond(), raw);
  // Receive: 1518 B in 12 posted writes of <= 128 B, a 16-byte write-back, a quarter of a
  // descriptor-fetch request.
  EXPECT_NEAR(gen1.rxFrameSeconds(1518), (1518 + 12 * 24 + 16 + 24 + 24.0 / 4) / raw, 1e-15);
  // Transmit: a quarter of one descriptor fetch (a read: latency + 64 B in one completion),
  // one read latency, then 1518 B in 24 completions of <= 64 B.
  const double fetch = (1e-6 + (64 + 24) / raw) / 4;
  EXPECT_NEAR(gen1.txFrameSeconds(1518), fetch + 1e-6 + (1518 + 24 * 24) / raw, 1e-15);
  // Gen3 codes 128b/130b; more lanes carry more.
  models::PcieNic gen3x2(p, 8, 2, 16);
  EXPECT_DOUBLE_EQ(gen3x2.rawBytesPerSecond(), 8e9 * 128 / 130 / 8 * 2);
  EXPECT_LT(gen3x2.rxFrameSeconds(1518), gen1.rxFrameSeconds(1518));
  // A gigabit port's full frames fit in a 2.5 GT/s x1 link both ways.
  Cpsw gbe(CpswParams{}, 1000);
  EXPECT_LT(gen1.rxFrameSeconds(1518), gbe.wireSeconds(1500));
  EXPECT_LT(gen1.txFrameSeconds(1518), gbe.wireSeconds(1500));
}

TEST(PcieNic, PresetLoadsOnTheBoardsWithPcieEthernetRows) {
  for (const char* name : {"am654x-evm", "am654x-idk", "k2g-evm"}) {
    auto b = soc::loadBoard(boardFile(name));
    int nics = 0;
    for (const auto& p : b.peripherals)
      if (p.nic) {
        ++nics;
        ASSERT_TRUE(p.cpsw.has_value()) << name;
        EXPECT_EQ(p.cpsw->dma, "pcie");
        EXPECT_EQ(p.nic->ethernet_link_mbps, 1000);
        EXPECT_EQ(p.lanes, 1);
      }
    EXPECT_EQ(nics, 1) << name;
  }
}

TEST(NetWorkload, PcieEthernetRowsRunOverTheNicAndItsLink) {
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am654x-evm")));
  validation::BoardRunContext ctx(std::move(b));
  NetworkBenchmarks w(defaultNetDir());
  auto row = [](const char* window) {
    return wl::Query{"pcie", "PCI Ethernet", "Bandwidth", std::string("window=") + window,
                     "Mbit/s"};
  };
  wl::Prediction small = w.predict(ctx, row("8192"));
  wl::Prediction big = w.predict(ctx, row("262144"));
  Cpsw gbe(CpswParams{}, 1000);
  const double line = tcpLinePayloadBps(gbe, 12) / 1e6;
  // Both directions of a gigabit port at most; a larger window never carries less.
  EXPECT_GT(small.value, 0);
  EXPECT_LE(big.value, 2 * line * 1.001);
  EXPECT_GE(big.value, small.value * 0.98);
  bool link = false;
  for (const auto& [part, s] : big.breakdown.seconds)
    if (part == "dma.pcie_link") link = s > 0;
  EXPECT_TRUE(link);
  EXPECT_NE(big.note.find("NIC on PCIe 2.5 GT/s x1"), std::string::npos) << big.note;
}

TEST(NetWorkload, PcieEthernetIsNotModelledWithoutANic) {
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("j721e-idk-gw")));
  validation::BoardRunContext ctx(std::move(b));
  NetworkBenchmarks w(defaultNetDir());
  EXPECT_THROW(w.predict(ctx, {"pcie", "PCI Ethernet", "Bandwidth", "window=131072", "Mbit/s"}),
               wl::NotModelled);
}

TEST(NetWorkload, ExplainOfANetperfRowShowsLinkDmaInterruptAndStackTimePerPacket) {
  auto b = std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("j721e-idk-gw")));
  validation::BoardRunContext ctx(std::move(b));
  NetworkBenchmarks w(defaultNetDir());
  wl::Prediction p = w.predict(ctx, {"ethernet", "CPSW2g TCP Bidirectional Throughput",
                                     "THROUGHPUT", "stack=linux", "Mbit/s"});
  std::map<std::string, double> parts;
  double stack = 0;
  for (const auto& [part, s] : p.breakdown.seconds) {
    parts[part] = s;
    if (part.rfind("cpu.stack.", 0) == 0) stack += s;
  }
  Cpsw gbe(CpswParams{}, 1000);
  // Per packet: a full frame's wire time, the DMA's time, the interrupt's and the stack's CPU.
  EXPECT_NEAR(parts["link.wire"], gbe.wireSeconds(1500), 1e-12);
  EXPECT_GT(parts["dma"], 0);
  EXPECT_LT(parts["dma"], parts["link.wire"]);
  EXPECT_GT(parts["cpu.irq"], 0);
  EXPECT_GT(stack, parts["cpu.irq"]);
  // The link utilisation and interrupts per packet are in the note.
  EXPECT_NE(p.note.find("Mbit/s link ("), std::string::npos) << p.note;
  EXPECT_NE(p.note.find("% busy"), std::string::npos) << p.note;
  EXPECT_NE(p.note.find("interrupts"), std::string::npos) << p.note;
}
