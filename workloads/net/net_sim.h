#pragma once
/// @file net_sim.h
/// @brief Packet-level, event-driven simulation of one network test on the device under test
///        (DUT): the link, the MAC's FIFOs and DMA (models::Cpsw), descriptor rings, interrupts
///        with NAPI polling and interrupt pacing, the network stack and the applications as work
///        on the DUT's cores, TCP flow control against an ideal peer, and the test tools' rate
///        control (iperf `-b`, netperf `-b/-w` bursts).
///
/// The CPU time of each piece of software (SoftwareCosts) comes from running the stack's
/// instruction profile and its copies on the board's core model over the platform
/// (workloads/net/stack_costs.h); the simulation only schedules that work on the cores.
///
/// Model:
/// - **Wire**: full duplex, one frame at a time per direction, IEEE 802.3 framing
///   (Cpsw::wireSeconds); datagrams larger than the MTU travel as IPv4 fragments.
/// - **Receive**: a frame that has arrived waits in the RX FIFO (dropped when it does not fit)
///   for a free RX descriptor and the DMA (serial; fixed + per-byte time, store-and-forward
///   latency); then it is ready in the ring and the interrupt logic runs.
/// - **Interrupts**: one interrupt line for RX and TX completion. When enabled, a ready frame or
///   completion raises it after `irq_latency_us`; with pacing, no sooner than `pacing_interval_us` after
///   the previous one. The handler (IRQ task) masks it and schedules the NAPI poll; the poll
///   handles up to `napi_budget` frames (each its own softirq task, so the stack's latency is
///   per frame), reaps TX completions, refills descriptors, and either polls again (budget used)
///   or completes and unmasks. With `rx_poll_period_us` the interrupt stays off: a timer starts a
///   poll every period, and a frame's descriptor returns to the DMA at the poll after the one
///   that handled it (so at most half the ring arrives per period at saturation).
/// - **Cores**: each runs one task at a time, hard IRQ before softirq before application work,
///   without preemption inside a task (tasks are one frame's or one call's worth of work).
///   The IRQ and softirq work runs on `irqCore`; application threads on `appCores`.
/// - **UDP**: the sender app sends one datagram per call (rate-limited by `offeredBps`, or in
///   bursts of `burstDatagrams` per `burstPeriod`, or as fast as it can), blocking while the
///   socket's send buffer is full; `appSpin` makes its waits busy (iperf 2's delay loop). The
///   receiver queues datagrams in the socket (truesize-accounted, dropped when the receive buffer
///   is full) and the app reads one per call; once per `app_stall_period_ms` (first at the start of
///   the measured interval) the receiving application cannot run for `app_stall_ms` (scheduling
///   noise), so the socket must absorb what arrives meanwhile. The peer is ideal: it receives
///   everything and, as a sender, puts datagrams on the wire at the offered rate (line rate when
///   0), no faster than one per max(`peerDatagramGap`, `peerByteGap` x payload) (the PC's own
///   send path: per-datagram work and payload rate, pipelined).
/// - **TCP**: segments of `mss` bytes; the sender keeps at most the window in flight (slow start
///   from 10 segments, no loss); the receiver acknowledges every `delayed_ack_segments` segments
///   (per GRO aggregate when GRO merges), and when the application reads (window update); the
///   peer answers after `peerTurnaround` (its ideal-endpoint round trip).
/// - **CPU load** = busy time (tasks + spinning) over the measured interval, per core.
/// Not modelled: loss recovery, retransmission timers, Nagle, TSO/GSO, RPS, scheduler noise.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/peripherals/cpsw/cpsw.h"
#include "workloads/net/net_config.h"

namespace socsim::wl::net {

/// CPU seconds of each piece of network software on one core of the DUT.
struct SoftwareCosts {
  double irq = 0;            ///< hard IRQ: entry, handler, NAPI schedule, exit
  double irqThread = 0;      ///< threaded IRQ (PREEMPT_RT): waking and switching to the IRQ thread
  double poll = 0;           ///< per NAPI poll: softirq entry, poll loop, completion, unmask
  double rxFrame = 0;        ///< driver receive per frame: descriptor, buffer, refill
  double rxIp = 0;           ///< per IP packet: netif_receive_skb, ip_rcv, routing
  double reassembly = 0;     ///< per IPv4 fragment reassembled
  double udpRx = 0;          ///< per datagram: UDP receive, socket lookup, queueing, wakeup check
  double tcpRx = 0;          ///< per TCP segment (or GRO aggregate): TCP receive processing
  double gro = 0;            ///< per frame merged by GRO
  double tcpAckTx = 0;       ///< building and sending one ACK (IP output included)
  double tcpAckRx = 0;       ///< sender: processing one received ACK
  double txSyscall = 0;      ///< per send call: syscall entry/exit and socket layer
  double udpTx = 0;          ///< per datagram: UDP/IP output, neighbour, qdisc
  double tcpTx = 0;          ///< per TCP segment sent: skb build, TCP/IP output, qdisc
  double txFrame = 0;        ///< driver transmit per frame: descriptor, DMA map, doorbell
  double txComplete = 0;     ///< per frame reaped after transmission
  double rxSyscall = 0;      ///< per receive call
  double wakeup = 0;         ///< waking a sleeping application thread (switch in and out)
  double appSend = 0;        ///< the application's own work per send call
  double appRecv = 0;        ///< the application's own work per receive call
  double rxCopyPerByte = 0;  ///< copying received payload to the application (s/byte)
  double txCopyPerByte = 0;  ///< copying the application's payload into the stack (s/byte)
  double rxCsumPerByte = 0;  ///< software checksum on receive (0 when the MAC offloads it)
  double txCsumPerByte = 0;  ///< software checksum on transmit (0 when offloaded)
  double dmaFixed = 0;       ///< DMA time per frame independent of its size (descriptors)
  double dmaPerByte = 0;     ///< DMA time per byte of frame
  /// Receive / transmit DMA time beyond dmaFixed + dmaPerByte (a PCIe NIC's link: posted
  /// writes on receive, read latency and completions on transmit); 0 for an on-chip MAC.
  double rxDmaFixed = 0, rxDmaPerByte = 0;
  double txDmaFixed = 0, txDmaPerByte = 0;
};

enum class Traffic { UdpTx, UdpRx, TcpTx, TcpRx, TcpBidir };
const char* trafficName(Traffic t);

struct SimConfig {
  Traffic traffic = Traffic::UdpTx;
  /// The driver's and the stack's rings, buffers, interrupt handling and TCP settings, as the
  /// stack file gives them (net_config.h, in its units). With rx_poll_period_us > 0 the driver
  /// keeps its DMA interrupts off and a periodic timer wakes its receive task instead (a poll
  /// per tick: RX frames and TX completions); the buffers of the frames a poll handed to the
  /// stack go back to the DMA at the next tick (the stack frees them after the poll, the driver
  /// resubmits free buffers when it polls).
  NetStackParams stack;
  bool pacing = false;  ///< interrupt pacing on (the row's setting and the MAC's capability)
  /// TCP segmentation offload (the MAC's capability): TCP/IP output, the driver's transmit and
  /// its completion run once per skb of up to stack.gso_max_segments segments, not per frame.
  bool tso = false;
  // Cores.
  int cores = 1;
  int irqCore = 0;
  std::vector<int> appCores{0};  ///< [0]: sender / only app; [1]: receiver app (bidirectional)
  bool appSpin = false;
  // Application.
  int datagramBytes = 1470;         ///< UDP payload per datagram
  int tcpSendBytes = 131072;        ///< bytes per send call
  int tcpRecvBytes = 131072;        ///< bytes per receive call (at most what is queued)
  double offeredBps = 0;            ///< UDP payload rate of the sender (0 = as fast as possible)
  int burstDatagrams = 0;           ///< > 0: send this many back-to-back per burstPeriod
  double burstPeriod = 0.01;        ///< s
  double tcpWindowBytes = 1 << 22;  ///< receive window / send buffer limit of the flow
  double peerTurnaround = 20e-6;    ///< s, the ideal peer's response time
  double peerDatagramGap = 0;       ///< s, the peer's own time per UDP datagram sent (0: none)
  double peerByteGap = 0;           ///< s per payload byte: the peer's payload rate limit (0: none)
  // Run.
  double warmup = 0.005;   ///< s before measuring
  double duration = 0.02;  ///< s measured
};

struct SimResult {
  double seconds = 0;  ///< measured interval
  /// Per direction (0: DUT -> peer, 1: peer -> DUT): payload delivered to the receiving
  /// application, datagrams sent and delivered, frames on the wire, wire busy time.
  double payloadBytes[2] = {0, 0};
  double datagramsSent[2] = {0, 0};
  double datagramsDelivered[2] = {0, 0};
  double datagramsLost[2] = {0, 0};  ///< of the datagrams sent in the interval
  double frames[2] = {0, 0};
  double wireBusy[2] = {0, 0};
  double dmaBusy[2] = {0, 0};
  std::vector<double> coreBusy;  ///< s per core in the interval (tasks + spin)
  std::uint64_t interrupts = 0, polls = 0, fifoDrops = 0, socketDrops = 0, qdiscDrops = 0;
  double rxLatencySum = 0;  ///< s: frame fully received -> delivered to the socket, summed
  double rxLatencyCount = 0;
  std::map<std::string, double> cpuByPart;  ///< s of CPU per part in the interval

  /// Deliveries in the interval: first and last time, payload and count of the first one.
  double firstDelivery[2] = {-1, -1}, lastDelivery[2] = {-1, -1};
  double firstBytes[2] = {0, 0}, deliveries[2] = {0, 0};

  bool bursty = false;  ///< bursts per period: rates are over the whole interval (whole periods)

  /// Steady-state payload rate, bit/s: the bytes delivered after the first delivery of the
  /// interval over the time to the last one (no window-edge rounding); for bursty traffic the
  /// bytes of the interval (a whole number of burst periods) over its length.
  double throughputBps(int dir) const;
  /// Datagrams delivered per second, measured the same way.
  double pps(int dir) const;
  /// Fraction of the datagrams sent in the interval that were dropped (UDP).
  double loss(int dir) const {
    return datagramsSent[dir] > 0 ? datagramsLost[dir] / datagramsSent[dir] : 0;
  }
  /// Mean busy fraction over all cores, percent.
  double cpuLoadPercent() const;
  /// Busy fraction of one core, percent.
  double coreLoadPercent(int core) const;
  double meanRxLatency() const { return rxLatencyCount > 0 ? rxLatencySum / rxLatencyCount : 0; }
};

/// Run one test. Deterministic: the same inputs give the same result.
SimResult simulate(const SimConfig& cfg, const SoftwareCosts& costs, const models::Cpsw& mac);

/// True when no datagram of direction `dir` was dropped anywhere and some were delivered.
bool lossless(const SimResult& r, int dir);

/// Outcome of a search over offered loads.
struct SearchResult {
  SimResult result;  ///< the run at the chosen load
  SimConfig config;  ///< with the chosen burstDatagrams / offeredBps
  double offeredMbps = 0;
};
/// RFC 2544 throughput (section 26.1) as netperf -b/-w runs it: the largest burst of datagrams
/// per `cfg.burstPeriod` (sent back-to-back by the UDP sender) that is delivered without a
/// drop. Bisection between 1 and the bursts the line could carry (the model's loss is monotone
/// in the burst size).
SearchResult zeroLossSearch(const SimConfig& cfg, const SoftwareCosts& costs,
                            const models::Cpsw& mac);
/// The largest offered rate (paced sender) whose loss stays at or below `maxLoss` (fraction).
SearchResult maxRateSearch(const SimConfig& cfg, double maxLoss, const SoftwareCosts& costs,
                           const models::Cpsw& mac);

/// Payload bytes per second a link can carry for UDP datagrams of `datagramBytes` (closed form:
/// the wire time of the datagram's IPv4 packets, fragments included).
double udpLinePayloadBps(const models::Cpsw& mac, int datagramBytes);
/// Same for a TCP stream of full segments (MSS from the MAC's MTU and `tcpOptionBytes`).
double tcpLinePayloadBps(const models::Cpsw& mac, int tcpOptionBytes);

}  // namespace socsim::wl::net
