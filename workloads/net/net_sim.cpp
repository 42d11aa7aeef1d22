#include "workloads/net/net_sim.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <stdexcept>
#include <utility>

namespace socsim::wl::net {

using models::Cpsw;
namespace eth = models::ethernet;

const char* trafficName(Traffic t) {
  switch (t) {
    case Traffic::UdpTx:
      return "udp-tx";
    case Traffic::UdpRx:
      return "udp-rx";
    case Traffic::TcpTx:
      return "tcp-tx";
    case Traffic::TcpRx:
      return "tcp-rx";
    case Traffic::TcpBidir:
      return "tcp-bidir";
  }
  return "?";
}

double SimResult::throughputBps(int dir) const {
  const double span = lastDelivery[dir] - firstDelivery[dir];
  if (!bursty && deliveries[dir] >= 2 && span > 0)
    return (payloadBytes[dir] - firstBytes[dir]) * 8 / span;
  return seconds > 0 ? payloadBytes[dir] * 8 / seconds : 0;
}

double SimResult::pps(int dir) const {
  const double span = lastDelivery[dir] - firstDelivery[dir];
  if (!bursty && datagramsDelivered[dir] >= 2 && span > 0)
    return (datagramsDelivered[dir] - 1) / span;
  return seconds > 0 ? datagramsDelivered[dir] / seconds : 0;
}

double SimResult::cpuLoadPercent() const {
  if (coreBusy.empty() || seconds <= 0) return 0;
  double s = 0;
  for (double b : coreBusy) s += std::min(b, seconds);
  return 100.0 * s / (seconds * static_cast<double>(coreBusy.size()));
}

double SimResult::coreLoadPercent(int core) const {
  if (core < 0 || core >= static_cast<int>(coreBusy.size()) || seconds <= 0) return 0;
  return 100.0 * std::min(coreBusy[static_cast<std::size_t>(core)], seconds) / seconds;
}

double udpLinePayloadBps(const Cpsw& mac, int datagramBytes) {
  double wire = 0;
  for (int ip : mac.ipPackets(datagramBytes + eth::kUdpHeaderBytes)) wire += mac.wireSeconds(ip);
  return wire > 0 ? datagramBytes * 8.0 / wire : 0;
}

double tcpLinePayloadBps(const Cpsw& mac, int tcpOptionBytes) {
  const int mss = mac.tcpMss(tcpOptionBytes);
  const int ip = mss + eth::kIpv4HeaderBytes + eth::kTcpHeaderBytes + tcpOptionBytes;
  return mss * 8.0 / mac.wireSeconds(ip);
}

namespace {

constexpr int kDut = 0;  // direction DUT -> peer
/// __do_softirq's MAX_SOFTIRQ_TIME: softirq processing longer than this (with work left) is
/// handed to ksoftirqd (Linux kernel/softirq.c).
constexpr double kSoftirqLimit = 2e-3;
constexpr int kPeer = 1;  // direction peer -> DUT

enum class Kind : std::uint8_t { Udp, TcpData, TcpAck };

struct Frame {
  Kind kind = Kind::Udp;
  int dir = kDut;
  int flow = 0;  // TCP flow index (0: DUT sends, 1: peer sends)
  int ipBytes = 0;
  int frameBytes = 0;
  int payload = 0;          // UDP: datagram payload (on every fragment); TCP: segment payload
  int fragments = 1;        // UDP: frames of the datagram
  std::int64_t dgram = -1;  // UDP datagram id
  bool lastFrag = true;
  std::uint64_t seqEnd = 0;  // TCP data: end of payload; ACK: cumulative ack
  double rwnd = 0;           // ACK: advertised window
  double arrived = 0;        // fully received by the DUT (wire end)
  bool completes = true;     // its transmit completion costs the driver a reap (TSO: per skb)
};

struct Piece {
  const char* part;
  double s;
};

struct Task {
  int prio = 2;  // 0 hard IRQ, 1 softirq, 2 application
  std::function<std::vector<Piece>()> begin;
  std::function<void()> end;
};

struct Core {
  std::deque<Task> q[3];
  bool busy = false;
  double softirqSince = -1;  // start of the current run of softirq work with the app waiting
  bool appTurn = false;      // ksoftirqd mode: the next pick alternates to the application
  double taskBusy = 0;       // in the window
  double spinBusy = 0;       // in the window
};

struct Datagram {
  int dir = 0;
  double sent = 0;
  int fragments = 1;
  int received = 0;
  bool lost = false;
  int payload = 0;
};

struct TcpFlow {
  bool active = false;
  bool dutSends = true;
  int mss = 1448;
  double window = 65536;
  // Sender state.
  std::uint64_t written = 0, sndUna = 0, sndNxt = 0;
  double cwnd = 0, rwnd = 0;
  bool appBlocked = false;
  // Receiver state.
  std::uint64_t rcvNxt = 0, queued = 0;  // queued: received, not read by the app
  int segsUnacked = 0;
  double lastAdvertised = 0;
  bool appSleeping = true, appBusy = false;
  bool peerAckScheduled = false;
  int appCore = 0;
};

class Sim {
 public:
  Sim(const SimConfig& c, const SoftwareCosts& k, const Cpsw& mac)
      : c_(c), k_(k), mac_(mac), cores_(static_cast<std::size_t>(std::max(1, c.cores))) {
    w0_ = c_.warmup;
    w1_ = c_.warmup + c_.duration;
    r_.seconds = c_.duration;
    r_.bursty = c_.burstDatagrams > 0;
    r_.coreBusy.assign(cores_.size(), 0);
    mss_ = mac_.tcpMss(c_.stack.tcp_option_bytes);
    irqLatency_ = c_.stack.irq_latency_us * 1e-6;
    pacingInterval_ = c_.stack.pacing_interval_us * 1e-6;
    pollPeriod_ = c_.stack.rx_poll_period_us * 1e-6;
    appStall_ = c_.stack.app_stall_ms * 1e-3;
    appStallPeriod_ = c_.stack.app_stall_period_ms * 1e-3;
    if (mss_ < 8) throw std::invalid_argument("net sim: MSS too small");
  }

  SimResult run() {
    if (pollPeriod_ > 0) {
      irqEnabled_ = false;  // the DMA events stay off: the timer polls
      at(pollPeriod_, [this] { pollTick(); });
    }
    switch (c_.traffic) {
      case Traffic::UdpTx:
        startUdpSender();
        break;
      case Traffic::UdpRx:
        startPeerUdp();
        if (appStall_ > 0 && appStallPeriod_ > 0)
          for (double t = w0_; t <= w1_; t += appStallPeriod_)
            at(t, [this] { stalledUntil_ = std::max(stalledUntil_, now_ + appStall_); });
        break;
      case Traffic::TcpTx:
        startTcp(0, true, appCore(0));
        break;
      case Traffic::TcpRx:
        startTcp(1, false, appCore(0));
        break;
      case Traffic::TcpBidir:
        startTcp(0, true, appCore(0));
        startTcp(1, false, appCore(1));
        break;
    }
    while (!ev_.empty()) {
      Ev e = ev_.top();
      if (e.t > w1_) break;
      ev_.pop();
      now_ = e.t;
      auto fn = std::move(fns_[e.id]);
      fns_[e.id] = nullptr;
      free_.push_back(e.id);
      fn();
    }
    for (std::size_t i = 0; i < cores_.size(); ++i)
      r_.coreBusy[i] = std::min(c_.duration, cores_[i].taskBusy + cores_[i].spinBusy);
    return r_;
  }

 private:
  // ---------------------------------------------------------------- events
  struct Ev {
    double t;
    std::uint64_t seq;
    std::size_t id;
    bool operator<(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  void at(double t, std::function<void()> fn) {
    std::size_t id;
    if (!free_.empty()) {
      id = free_.back();
      free_.pop_back();
      fns_[id] = std::move(fn);
    } else {
      id = fns_.size();
      fns_.push_back(std::move(fn));
    }
    ev_.push({std::max(t, now_), seq_++, id});
  }
  bool inWindow(double t) const { return t >= w0_ && t <= w1_; }
  double overlap(double a, double b) const {
    return std::max(0.0, std::min(b, w1_) - std::max(a, w0_));
  }
  int appCore(int i) const {
    if (c_.appCores.empty()) return 0;
    int v = c_.appCores[static_cast<std::size_t>(i) % c_.appCores.size()];
    return std::clamp(v, 0, static_cast<int>(cores_.size()) - 1);
  }
  int irqCore() const { return std::clamp(c_.irqCore, 0, static_cast<int>(cores_.size()) - 1); }

  // ---------------------------------------------------------------- cores
  void submit(int core, Task t) {
    Core& c = cores_[static_cast<std::size_t>(core)];
    c.q[std::clamp(t.prio, 0, 2)].push_back(std::move(t));
    dispatch(core);
  }
  void dispatch(int core) {
    Core& c = cores_[static_cast<std::size_t>(core)];
    if (c.busy) return;
    // Softirq work runs before the application; after kSoftirqLimit of it while the
    // application waits, Linux defers it to ksoftirqd, which the scheduler time-shares with the
    // application: the picks then alternate.
    int pick = -1;
    for (int i = 0; i < 3 && pick < 0; ++i)
      if (!c.q[i].empty()) pick = i;
    if (pick < 0) return;
    if (pick == 1 && !c.q[2].empty()) {
      if (c.softirqSince < 0) c.softirqSince = now_;
      if (now_ - c.softirqSince >= kSoftirqLimit) {
        if (c.appTurn) pick = 2;
        c.appTurn = !c.appTurn;
      }
    } else if (pick == 2 || c.q[2].empty()) {
      c.softirqSince = -1;
      c.appTurn = false;
    }
    {
      auto& q = c.q[pick];
      Task t = std::move(q.front());
      q.pop_front();
      std::vector<Piece> pieces = t.begin ? t.begin() : std::vector<Piece>{};
      double dur = 0;
      for (const auto& p : pieces) dur += std::max(0.0, p.s);
      const double a = now_, b = now_ + dur;
      const double ov = overlap(a, b);
      if (ov > 0 && dur > 0) {
        c.taskBusy += ov;
        for (const auto& p : pieces) r_.cpuByPart[p.part] += ov * std::max(0.0, p.s) / dur;
      }
      c.busy = true;
      auto end = std::move(t.end);
      at(b, [this, core, end = std::move(end)] {
        cores_[static_cast<std::size_t>(core)].busy = false;
        if (end) end();
        dispatch(core);
      });
      return;
    }
  }
  void spin(int core, double a, double b) {
    if (b <= a) return;
    const double ov = overlap(a, b);
    cores_[static_cast<std::size_t>(core)].spinBusy += ov;
    r_.cpuByPart["app.spin"] += ov;
  }

  // ---------------------------------------------------------------- wire
  /// Put `f` on the wire of its direction no earlier than now; calls `arrive` at its end.
  void wire(const Frame& f, std::function<void(double start)> started,
            std::function<void()> arrive) {
    double& free = wireFree_[f.dir];
    const double start = std::max(now_, free);
    const double d = mac_.wireSeconds(f.ipBytes);
    free = start + d;
    r_.wireBusy[f.dir] += overlap(start, free);
    if (inWindow(start)) r_.frames[f.dir] += 1;
    if (started) started(start);
    at(free, std::move(arrive));
  }

  // ---------------------------------------------------------------- DUT transmit path
  void enqueueTx(const Frame& f) {
    if (txRingUsed_ >= c_.stack.tx_descriptors && pollPeriod_ > 0 && !txCompletions_.empty()) {
      // A timer-polled driver out of transmit descriptors retrieves the completed ones at once
      // instead of waiting for its next poll (its cost is not charged: a ring read).
      std::vector<Frame> done;
      done.swap(txCompletions_);
      for (const Frame& g : done) txReaped(g);
    }
    if (txRingUsed_ < c_.stack.tx_descriptors) {
      ++txRingUsed_;
      txPending_.push_back(f);
      tryTxDma();
    } else if (static_cast<int>(qdisc_.size()) < c_.stack.tx_queue_len) {
      qdisc_.push_back(f);
    } else {
      ++r_.qdiscDrops;
      dropDatagram(f);
    }
  }
  void tryTxDma() {
    if (txDmaBusy_ || txPending_.empty()) return;
    const Frame f = txPending_.front();
    if (txFifoBytes_ + static_cast<std::uint64_t>(f.frameBytes) > mac_.params().tx_fifo_bytes &&
        txFifoBytes_ > 0)
      return;  // resumes when the wire drains the FIFO
    txPending_.pop_front();
    txDmaBusy_ = true;
    const double d = k_.dmaFixed + k_.txDmaFixed + (k_.dmaPerByte + k_.txDmaPerByte) * f.frameBytes;
    r_.dmaBusy[kDut] += overlap(now_, now_ + d);
    at(now_ + d, [this, f] {
      txDmaBusy_ = false;
      txFifoBytes_ += static_cast<std::uint64_t>(f.frameBytes);
      wire(f, nullptr, [this, f] {
        txFifoBytes_ -= static_cast<std::uint64_t>(f.frameBytes);
        peerReceive(f);
        txCompletions_.push_back(f);
        workPending();
        tryTxDma();
      });
      tryTxDma();
    });
  }

  // ---------------------------------------------------------------- DUT receive path
  void dutReceive(Frame f) {
    f.arrived = now_;
    const auto fb = static_cast<std::uint64_t>(f.frameBytes);
    if (rxFifoBytes_ + fb > mac_.params().rx_fifo_bytes) {
      ++r_.fifoDrops;
      dropDatagram(f);
      return;
    }
    rxFifoBytes_ += fb;
    rxFifo_.push_back(f);
    tryRxDma();
  }
  void tryRxDma() {
    if (rxDmaBusy_ || rxFifo_.empty() || rxRingUsed_ >= c_.stack.rx_descriptors) return;
    const Frame f = rxFifo_.front();
    const double start = std::max(now_, f.arrived + mac_.params().switch_latency_ns * 1e-9);
    const double d = k_.dmaFixed + k_.rxDmaFixed + (k_.dmaPerByte + k_.rxDmaPerByte) * f.frameBytes;
    rxDmaBusy_ = true;
    ++rxRingUsed_;  // the descriptor is taken when the DMA starts on it
    r_.dmaBusy[kPeer] += overlap(start, start + d);
    at(start + d, [this] {
      Frame g = rxFifo_.front();
      rxFifo_.pop_front();
      rxFifoBytes_ -= static_cast<std::uint64_t>(g.frameBytes);
      rxDmaBusy_ = false;
      rxReady_.push_back(g);
      workPending();
      tryRxDma();
    });
  }

  // ---------------------------------------------------------------- interrupts and NAPI
  void workPending() {
    if (!irqEnabled_ || irqScheduled_) return;
    if (rxReady_.empty() && txCompletions_.empty()) return;
    double t = now_ + irqLatency_;
    if (c_.pacing) t = std::max(t, lastIrq_ + pacingInterval_);
    irqScheduled_ = true;
    at(t, [this] {
      irqScheduled_ = false;
      lastIrq_ = now_;
      irqEnabled_ = false;
      if (inWindow(now_)) ++r_.interrupts;
      Task t;
      t.prio = 0;
      t.begin = [this] {
        std::vector<Piece> p{{"irq", k_.irq}};
        if (k_.irqThread > 0) p.push_back({"irq.thread", k_.irqThread});
        return p;
      };
      t.end = [this] { startPoll(); };
      submit(irqCore(), std::move(t));
    });
  }
  /// Timer-driven receive (rxPollPeriod): arm the next tick and wake the driver's receive
  /// task, which polls (startPoll).
  void pollTick() {
    at(now_ + pollPeriod_, [this] { pollTick(); });
    if (polling_) return;  // the previous poll is still running: it picks up the new work
    polling_ = true;
    if (inWindow(now_)) ++r_.interrupts;
    Task t;
    t.prio = 0;
    t.begin = [this] { return std::vector<Piece>{{"irq", k_.irq}}; };
    t.end = [this] { startPoll(); };
    submit(irqCore(), std::move(t));
  }
  void startPoll() {
    if (inWindow(now_)) ++r_.polls;
    pollDone_ = 0;
    pollBudget_ = c_.stack.napi_budget;
    if (pollPeriod_ > 0) {
      // Retrieve what the DMA completed by now (only that is handed up), then give the
      // buffers the stack freed since the last poll back to the DMA.
      pollBudget_ = std::min(c_.stack.napi_budget, static_cast<int>(rxReady_.size()));
      rxRingUsed_ -= rxRefill_;
      rxRefill_ = 0;
      tryRxDma();
    }
    Task t;
    t.prio = 1;
    t.begin = [this] { return std::vector<Piece>{{"napi.poll", k_.poll}}; };
    t.end = [this] { pollNext(); };
    submit(irqCore(), std::move(t));
  }
  void pollNext() {
    if (!txCompletions_.empty()) {
      auto done =
          std::make_shared<std::vector<Frame>>(txCompletions_.begin(), txCompletions_.end());
      txCompletions_.clear();
      Task t;
      t.prio = 1;
      t.begin = [this, done] {
        const auto reaps = std::count_if(done->begin(), done->end(),
                                         [](const Frame& f) { return f.completes; });
        return std::vector<Piece>{
            {"driver.tx_complete", k_.txComplete * static_cast<double>(reaps)}};
      };
      t.end = [this, done] {
        for (const Frame& f : *done) txReaped(f);
        pollNext();
      };
      submit(irqCore(), std::move(t));
      return;
    }
    if (pollDone_ < pollBudget_ && !rxReady_.empty()) {
      Frame f = rxReady_.front();
      rxReady_.pop_front();
      ++pollDone_;
      Task t;
      t.prio = 1;
      t.begin = [this, f] { return rxPieces(f); };
      t.end = [this, f] {
        if (pollPeriod_ > 0) {
          ++rxRefill_;  // resubmitted at the next tick
        } else {
          --rxRingUsed_;  // descriptor refilled
          tryRxDma();
        }
        rxProcessed(f);
        pollNext();
      };
      submit(irqCore(), std::move(t));
      return;
    }
    // End of the poll: GRO flushes its aggregates, then NAPI completes or polls again.
    if (groSegs_ > 0) {
      flushGro([this] { pollNext(); });
      return;
    }
    if (pollPeriod_ > 0) {
      polling_ = false;  // sleeps until the next tick
      return;
    }
    if (pollDone_ >= c_.stack.napi_budget && !rxReady_.empty()) {
      startPoll();
      return;
    }
    irqEnabled_ = true;
    workPending();
  }

  std::vector<Piece> rxPieces(const Frame& f) {
    std::vector<Piece> p{{"driver.rx", k_.rxFrame}, {"stack.ip", k_.rxIp}};
    if (f.kind == Kind::Udp) {
      if (f.fragments > 1) p.push_back({"stack.reassembly", k_.reassembly});
      if (f.lastFrag) p.push_back({"stack.udp", k_.udpRx});
    } else if (f.kind == Kind::TcpAck) {
      p.push_back({"stack.tcp_ack", k_.tcpAckRx});
    } else if (c_.stack.gro) {
      p.push_back({"stack.gro", k_.gro});
    } else {
      p.push_back({"stack.tcp", k_.tcpRx});
      p.push_back({"csum", k_.rxCsumPerByte * f.payload});
    }
    return p;
  }

  void txReaped(const Frame& f) {
    --txRingUsed_;
    if (!qdisc_.empty()) {
      Frame g = qdisc_.front();
      qdisc_.pop_front();
      ++txRingUsed_;
      txPending_.push_back(g);
      tryTxDma();
    }
    if (f.kind == Kind::Udp) {
      wmem_ -= static_cast<double>(f.frameBytes + c_.stack.skb_overhead_bytes);
      if (udpBlocked_ && wmem_ + udpTruesize() <= static_cast<double>(c_.stack.sndbuf_bytes)) {
        udpBlocked_ = false;
        udpSendNext(true);
      }
    }
  }

  // ---------------------------------------------------------------- UDP
  int udpL4() const { return c_.datagramBytes + eth::kUdpHeaderBytes; }
  double udpTruesize() const {
    double s = 0;
    for (int ip : mac_.ipPackets(udpL4())) s += Cpsw::frameBytes(ip) + c_.stack.skb_overhead_bytes;
    return s;
  }
  std::vector<Frame> udpFrames(int dir, std::int64_t id) const {
    std::vector<Frame> out;
    auto ips = mac_.ipPackets(udpL4());
    for (std::size_t i = 0; i < ips.size(); ++i) {
      Frame f;
      f.kind = Kind::Udp;
      f.dir = dir;
      f.ipBytes = ips[i];
      f.frameBytes = Cpsw::frameBytes(ips[i]);
      f.payload = c_.datagramBytes;
      f.fragments = static_cast<int>(ips.size());
      f.dgram = id;
      f.lastFrag = i + 1 == ips.size();
      out.push_back(f);
    }
    return out;
  }
  std::int64_t newDatagram(int dir) {
    Datagram d;
    d.dir = dir;
    d.sent = now_;
    d.fragments = static_cast<int>(mac_.ipPackets(udpL4()).size());
    d.payload = c_.datagramBytes;
    dgrams_.push_back(d);
    if (inWindow(now_)) r_.datagramsSent[dir] += 1;
    return static_cast<std::int64_t>(dgrams_.size()) - 1;
  }
  void dropDatagram(const Frame& f) {
    if (f.kind != Kind::Udp || f.dgram < 0) return;
    markLost(dgrams_[static_cast<std::size_t>(f.dgram)]);
  }
  void markLost(Datagram& d) {
    if (d.lost) return;
    d.lost = true;
    if (inWindow(d.sent)) r_.datagramsLost[d.dir] += 1;
  }
  /// A datagram fully arrived at its receiving socket (or the peer): count it.
  void deliverDatagram(int dir, const Datagram& d) {
    if (!inWindow(now_)) return;
    r_.datagramsDelivered[dir] += 1;
    delivered(dir, d.payload);
  }
  /// Payload reaching the receiving application (or the peer) now.
  void delivered(int dir, double bytes) {
    if (!inWindow(now_) || bytes <= 0) return;
    if (r_.deliveries[dir] == 0) {
      r_.firstDelivery[dir] = now_;
      r_.firstBytes[dir] = bytes;
    }
    r_.lastDelivery[dir] = now_;
    r_.deliveries[dir] += 1;
    r_.payloadBytes[dir] += bytes;
  }

  // DUT sender (iperf client / netperf UDP_STREAM from the DUT).
  void startUdpSender() {
    nextSend_ = 0;
    burstLeft_ = c_.burstDatagrams;
    burstStart_ = 0;
    udpSendNext(false);
  }
  void udpSendNext(bool woken) {
    const int core = appCore(0);
    if (c_.stack.udp_send_buffer &&
        wmem_ + udpTruesize() > static_cast<double>(c_.stack.sndbuf_bytes)) {
      udpBlocked_ = true;  // sleeps until transmit completions free the send buffer
      return;
    }
    double t = now_;
    if (c_.burstDatagrams > 0) {
      if (burstLeft_ <= 0) {
        // netperf -b/-w: after a burst the sender sleeps until the next interval tick (it
        // continues at once when it is late).
        burstStart_ += c_.burstPeriod;
        burstLeft_ = c_.burstDatagrams;
        if (burstStart_ > now_) {
          t = burstStart_;
          woken = true;
        }
      }
    } else if (c_.offeredBps > 0) {
      // iperf -b: each datagram has a target time; a sender behind schedule sends at once.
      t = std::max(now_, nextSend_);
      nextSend_ = t + c_.datagramBytes * 8.0 / c_.offeredBps;
      if (t > now_) {
        if (c_.appSpin)
          spin(core, now_, t);
        else
          woken = true;
      }
    }
    auto go = [this, core, woken] {
      Task task;
      task.prio = 2;
      task.begin = [this, woken] {
        const int nf = static_cast<int>(mac_.ipPackets(udpL4()).size());
        std::vector<Piece> p;
        if (woken) p.push_back({"sched.wakeup", k_.wakeup});
        p.push_back({"app", k_.appSend});
        p.push_back({"syscall", k_.txSyscall});
        p.push_back({"stack.udp", k_.udpTx + (nf - 1) * k_.reassembly});
        p.push_back({"copy", k_.txCopyPerByte * c_.datagramBytes});
        p.push_back({"csum", k_.txCsumPerByte * c_.datagramBytes});
        p.push_back({"driver.tx", k_.txFrame * nf});
        return p;
      };
      task.end = [this] {
        const std::int64_t id = newDatagram(kDut);
        for (const Frame& f : udpFrames(kDut, id)) {
          wmem_ += f.frameBytes + c_.stack.skb_overhead_bytes;
          enqueueTx(f);
        }
        if (c_.burstDatagrams > 0) --burstLeft_;
        udpSendNext(false);
      };
      submit(core, std::move(task));
    };
    if (t > now_)
      at(t, go);
    else
      go();
  }

  // Peer sender (iperf / netperf client on the tester).
  void startPeerUdp() {
    nextSend_ = 0;
    burstLeft_ = c_.burstDatagrams;
    burstStart_ = 0;
    peerUdpNext();
  }
  void peerUdpNext() {
    // The peer's own send path: no faster than one datagram per peerDatagramGap, nor faster
    // than its payload rate (the slower of the two pipelined stages governs).
    const double gap = std::max(c_.peerDatagramGap, c_.peerByteGap * c_.datagramBytes);
    double t = std::max({now_, wireFree_[kPeer], peerLastSend_ + gap});
    if (c_.burstDatagrams > 0) {
      if (burstLeft_ <= 0) {
        burstStart_ += c_.burstPeriod;
        burstLeft_ = c_.burstDatagrams;
        t = std::max(t, burstStart_);
      }
      --burstLeft_;
    } else if (c_.offeredBps > 0) {
      t = std::max(t, nextSend_);
      nextSend_ = t + c_.datagramBytes * 8.0 / c_.offeredBps;
    }
    at(t, [this] {
      peerLastSend_ = now_;
      const std::int64_t id = newDatagram(kPeer);
      auto frames = udpFrames(kPeer, id);
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const Frame f = frames[i];
        const bool last = i + 1 == frames.size();
        wire(f, nullptr, [this, f] { dutReceive(f); });
        if (last) at(wireFree_[kPeer], [this] { peerUdpNext(); });
      }
    });
  }

  void rxProcessed(const Frame& f) {
    if (f.kind == Kind::Udp) {
      Datagram& d = dgrams_[static_cast<std::size_t>(f.dgram)];
      ++d.received;
      if (!f.lastFrag) return;
      if (d.lost || d.received < d.fragments) {
        markLost(d);
        return;
      }
      udpToSocket(f);
      return;
    }
    if (f.kind == Kind::TcpAck) {
      tcpAckAtDut(f);
      return;
    }
    // TCP data for flow 1 (the peer sends).
    if (c_.stack.gro) {
      groSegs_ += 1;
      groBytes_ += static_cast<std::uint64_t>(f.payload);
      groLatency_ += now_ - f.arrived;
      if (groSegs_ >= c_.stack.gro_max_segments) flushGro(nullptr);
      return;
    }
    tcpDataAtDut(f.payload, 1, now_ - f.arrived);
  }

  void udpToSocket(const Frame& f) {
    const double truesize = static_cast<double>(c_.stack.rx_truesize_bytes) * f.fragments;
    Datagram& d = dgrams_[static_cast<std::size_t>(f.dgram)];
    if (rcvbufUsed_ + truesize > static_cast<double>(c_.stack.rcvbuf_bytes)) {
      ++r_.socketDrops;
      markLost(d);
      return;
    }
    rcvbufUsed_ += truesize;
    sockQ_.push_back(f.dgram);
    if (inWindow(now_)) {
      r_.rxLatencySum += now_ - f.arrived;
      r_.rxLatencyCount += 1;
    }
    if (!udpAppBusy_) udpRecvNext();
  }
  void udpRecvNext() {
    if (sockQ_.empty()) {
      udpAppSleeping_ = true;
      return;
    }
    if (now_ < stalledUntil_) {
      // Descheduled: the application resumes (and is woken) when the stall ends.
      if (!stallRetry_) {
        stallRetry_ = true;
        udpAppSleeping_ = true;
        at(stalledUntil_, [this] {
          stallRetry_ = false;
          if (!udpAppBusy_) udpRecvNext();
        });
      }
      return;
    }
    const bool woken = udpAppSleeping_;
    udpAppSleeping_ = false;
    udpAppBusy_ = true;
    const std::int64_t id = sockQ_.front();
    sockQ_.pop_front();
    Task t;
    t.prio = 2;
    t.begin = [this, woken] {
      std::vector<Piece> p;
      if (woken) p.push_back({"sched.wakeup", k_.wakeup});
      p.push_back({"syscall", k_.rxSyscall});
      p.push_back({"copy", k_.rxCopyPerByte * c_.datagramBytes});
      p.push_back({"csum", k_.rxCsumPerByte * c_.datagramBytes});
      p.push_back({"app", k_.appRecv});
      return p;
    };
    t.end = [this, id] {
      const Datagram& d = dgrams_[static_cast<std::size_t>(id)];
      rcvbufUsed_ -= static_cast<double>(c_.stack.rx_truesize_bytes) * d.fragments;
      deliverDatagram(kPeer, d);
      udpAppBusy_ = false;
      udpRecvNext();
    };
    submit(appCore(0), std::move(t));
  }

  // ---------------------------------------------------------------- TCP
  void startTcp(int idx, bool dutSends, int core) {
    TcpFlow& fl = flows_[idx];
    fl.active = true;
    fl.dutSends = dutSends;
    fl.mss = mss_;
    fl.window = std::max<double>(mss_, c_.tcpWindowBytes);
    fl.cwnd = 10.0 * mss_;
    fl.rwnd = fl.window;
    fl.lastAdvertised = fl.window;
    fl.appCore = core;
    if (dutSends)
      tcpAppWrite(idx, false);
    else
      peerTcpSend();
  }
  double inflightLimit(const TcpFlow& fl) const { return std::min(fl.cwnd, fl.rwnd); }
  /// Full segments the sender may put on the wire now.
  int sendableSegments(const TcpFlow& fl) const {
    const double room = inflightLimit(fl) - static_cast<double>(fl.sndNxt - fl.sndUna);
    const std::uint64_t unsent = fl.written - fl.sndNxt;
    const double bytes = std::min(room, static_cast<double>(unsent));
    return bytes >= fl.mss ? static_cast<int>(bytes / fl.mss) : 0;
  }
  Frame tcpDataFrame(int dir, int flow, std::uint64_t seqEnd, int payload) const {
    Frame f;
    f.kind = Kind::TcpData;
    f.dir = dir;
    f.flow = flow;
    f.payload = payload;
    f.ipBytes = payload + eth::kIpv4HeaderBytes + eth::kTcpHeaderBytes + c_.stack.tcp_option_bytes;
    f.frameBytes = Cpsw::frameBytes(f.ipBytes);
    f.seqEnd = seqEnd;
    return f;
  }
  Frame tcpAckFrame(int dir, int flow, std::uint64_t ack, double rwnd) const {
    Frame f;
    f.kind = Kind::TcpAck;
    f.dir = dir;
    f.flow = flow;
    f.ipBytes = eth::kIpv4HeaderBytes + eth::kTcpHeaderBytes + c_.stack.tcp_option_bytes;
    f.frameBytes = Cpsw::frameBytes(f.ipBytes);
    f.seqEnd = ack;
    f.rwnd = rwnd;
    return f;
  }

  // DUT sender (flow 0): the application's write calls; transmission in process context here,
  // and from the softirq when ACKs open the window (tcpAckAtDut).
  void tcpAppWrite(int idx, bool woken) {
    TcpFlow& fl = flows_[idx];
    const double sndbuf = static_cast<double>(c_.stack.sndbuf_bytes);
    const double used = static_cast<double>(fl.written - fl.sndUna) *
                        (1.0 + static_cast<double>(c_.stack.skb_overhead_bytes) / fl.mss);
    const double space = sndbuf - used;
    if (space < fl.mss) {
      fl.appBlocked = true;
      return;
    }
    const auto n = static_cast<std::uint64_t>(std::min<double>(
        c_.tcpSendBytes, space / (1.0 + static_cast<double>(c_.stack.skb_overhead_bytes) / fl.mss)));
    auto segs = std::make_shared<int>(0);
    auto first = std::make_shared<std::uint64_t>(0);
    Task t;
    t.prio = 2;
    t.begin = [this, idx, n, woken, segs, first] {
      TcpFlow& f = flows_[idx];
      f.written += n;  // data is in the socket once copied (counted at begin for sendable)
      *segs = sendableSegments(f);
      *first = f.sndNxt;
      std::vector<Piece> p;
      if (woken) p.push_back({"sched.wakeup", k_.wakeup});
      p.push_back({"app", k_.appSend});
      p.push_back({"syscall", k_.txSyscall});
      p.push_back({"copy", k_.txCopyPerByte * static_cast<double>(n)});
      p.push_back({"csum", k_.txCsumPerByte * static_cast<double>(n)});
      p.push_back({"stack.tcp", k_.tcpTx * skbs(*segs)});
      p.push_back({"driver.tx", k_.txFrame * skbs(*segs)});
      f.sndNxt += static_cast<std::uint64_t>(*segs) * static_cast<std::uint64_t>(f.mss);
      return p;
    };
    t.end = [this, idx, segs, first] {
      transmitSegments(idx, *segs, *first);
      tcpAppWrite(idx, false);
    };
    submit(fl.appCore, std::move(t));
  }
  /// TCP/IP output and driver transmit calls for `segs` segments sent at once: one per
  /// segment, or with TSO one per skb of up to gso_max_segments.
  double skbs(int segs) const {
    if (!c_.tso) return segs;
    const int per = std::max(1, c_.stack.gso_max_segments);
    return static_cast<double>((segs + per - 1) / per);
  }
  void transmitSegments(int idx, int segs, std::uint64_t firstSeq) {
    TcpFlow& fl = flows_[idx];
    const int per = c_.tso ? std::max(1, c_.stack.gso_max_segments) : 1;
    for (int i = 0; i < segs; ++i) {
      const std::uint64_t end = firstSeq + static_cast<std::uint64_t>(i + 1) * fl.mss;
      Frame f = tcpDataFrame(kDut, idx, end, fl.mss);
      f.completes = (i + 1) % per == 0 || i + 1 == segs;  // the skb's last frame
      enqueueTx(f);
    }
  }
  void tcpAckAtDut(const Frame& a) {
    TcpFlow& fl = flows_[a.flow];
    if (a.seqEnd > fl.sndUna) {
      const double acked = static_cast<double>(a.seqEnd - fl.sndUna);
      fl.sndUna = a.seqEnd;
      fl.cwnd += acked;  // slow start, no loss
    }
    fl.rwnd = a.rwnd;
    const int segs = sendableSegments(fl);
    if (segs > 0) {
      const std::uint64_t first = fl.sndNxt;
      fl.sndNxt += static_cast<std::uint64_t>(segs) * fl.mss;
      Task t;
      t.prio = 1;
      t.begin = [this, segs] {
        return std::vector<Piece>{{"stack.tcp", k_.tcpTx * skbs(segs)},
                                  {"driver.tx", k_.txFrame * skbs(segs)}};
      };
      t.end = [this, idx = a.flow, segs, first] { transmitSegments(idx, segs, first); };
      submit(irqCore(), std::move(t));
    }
    if (fl.appBlocked) {
      const double used = static_cast<double>(fl.written - fl.sndUna) *
                          (1.0 + static_cast<double>(c_.stack.skb_overhead_bytes) / fl.mss);
      if (static_cast<double>(c_.stack.sndbuf_bytes) - used >= static_cast<double>(c_.stack.sndbuf_bytes) / 3) {
        fl.appBlocked = false;
        tcpAppWrite(a.flow, true);
      }
    }
  }

  // Peer receiver of flow 0.
  void peerTcpData(const Frame& f) {
    TcpFlow& fl = flows_[f.flow];
    if (f.seqEnd > fl.rcvNxt) {
      delivered(kDut, static_cast<double>(f.seqEnd - fl.rcvNxt));
      fl.rcvNxt = f.seqEnd;
    }
    ++fl.segsUnacked;
    const int flow = f.flow;
    if (fl.segsUnacked >= 2) {
      fl.segsUnacked = 0;
      peerAck(flow);
    } else if (!fl.peerAckScheduled) {
      // Ideal peer: an odd segment is acknowledged after one more turnaround.
      fl.peerAckScheduled = true;
      at(now_ + c_.peerTurnaround, [this, flow] {
        TcpFlow& g = flows_[flow];
        g.peerAckScheduled = false;
        if (g.segsUnacked > 0) {
          g.segsUnacked = 0;
          peerAck(flow);
        }
      });
    }
  }
  void peerAck(int flow) {
    const std::uint64_t ack = flows_[flow].rcvNxt;
    const double rwnd = flows_[flow].window;
    at(now_ + c_.peerTurnaround, [this, flow, ack, rwnd] {
      Frame a = tcpAckFrame(kPeer, flow, ack, rwnd);
      wire(a, nullptr, [this, a] { dutReceive(a); });
    });
  }

  // Peer sender of flow 1.
  void peerTcpSend() {
    TcpFlow& fl = flows_[1];
    if (peerSending_) return;
    const double room = inflightLimit(fl) - static_cast<double>(fl.sndNxt - fl.sndUna);
    if (room < fl.mss) return;
    peerSending_ = true;
    fl.sndNxt += static_cast<std::uint64_t>(fl.mss);
    Frame f = tcpDataFrame(kPeer, 1, fl.sndNxt, fl.mss);
    wire(f, nullptr, [this, f] { dutReceive(f); });
    at(wireFree_[kPeer], [this] {
      peerSending_ = false;
      peerTcpSend();
    });
  }
  void peerAckArrived(const Frame& a) {
    at(now_ + c_.peerTurnaround, [this, a] {
      TcpFlow& fl = flows_[1];
      if (a.seqEnd > fl.sndUna) {
        fl.cwnd += static_cast<double>(a.seqEnd - fl.sndUna);
        fl.sndUna = a.seqEnd;
      }
      fl.rwnd = a.rwnd;
      peerTcpSend();
    });
  }

  // DUT receiver of flow 1.
  void flushGro(std::function<void()> then) {
    const int segs = groSegs_;
    const std::uint64_t bytes = groBytes_;
    const double lat = groLatency_;
    groSegs_ = 0;
    groBytes_ = 0;
    groLatency_ = 0;
    Task t;
    t.prio = 1;
    t.begin = [this, bytes] {
      return std::vector<Piece>{{"stack.tcp", k_.tcpRx},
                                {"csum", k_.rxCsumPerByte * static_cast<double>(bytes)}};
    };
    t.end = [this, segs, bytes, lat, then = std::move(then)] {
      tcpDataAtDut(static_cast<int>(bytes), segs, segs > 0 ? lat / segs : 0);
      if (then) then();
    };
    submit(irqCore(), std::move(t));
  }
  double advertised(const TcpFlow& fl) const {
    return std::max(0.0, fl.window - static_cast<double>(fl.queued));
  }
  void tcpDataAtDut(int bytes, int segs, double latency) {
    TcpFlow& fl = flows_[1];
    fl.rcvNxt += static_cast<std::uint64_t>(bytes);
    fl.queued += static_cast<std::uint64_t>(bytes);
    fl.segsUnacked += segs;
    if (inWindow(now_)) {
      r_.rxLatencySum += latency * segs;
      r_.rxLatencyCount += segs;
    }
    if (fl.segsUnacked >= c_.stack.delayed_ack_segments) dutSendAck(irqCore(), 1);
    if (!fl.appBusy) tcpAppRead();
  }
  void dutSendAck(int core, int flow) {
    TcpFlow& fl = flows_[flow];
    fl.segsUnacked = 0;
    fl.lastAdvertised = advertised(fl);
    Task t;
    t.prio = core == irqCore() ? 1 : 2;
    t.begin = [this] {
      return std::vector<Piece>{{"stack.tcp_ack", k_.tcpAckTx}, {"driver.tx", k_.txFrame}};
    };
    t.end = [this, flow] {
      TcpFlow& f = flows_[flow];
      enqueueTx(tcpAckFrame(kDut, flow, f.rcvNxt, advertised(f)));
    };
    submit(core, std::move(t));
  }
  void tcpAppRead() {
    TcpFlow& fl = flows_[1];
    if (fl.queued == 0) {
      fl.appSleeping = true;
      return;
    }
    const bool woken = fl.appSleeping;
    fl.appSleeping = false;
    fl.appBusy = true;
    const std::uint64_t n =
        std::min<std::uint64_t>(fl.queued, static_cast<std::uint64_t>(c_.tcpRecvBytes));
    Task t;
    t.prio = 2;
    t.begin = [this, n, woken] {
      std::vector<Piece> p;
      if (woken) p.push_back({"sched.wakeup", k_.wakeup});
      p.push_back({"syscall", k_.rxSyscall});
      p.push_back({"copy", k_.rxCopyPerByte * static_cast<double>(n)});
      p.push_back({"app", k_.appRecv});
      return p;
    };
    t.end = [this, n] {
      TcpFlow& f = flows_[1];
      f.queued -= n;
      delivered(kPeer, static_cast<double>(n));
      f.appBusy = false;
      // Window update: acknowledge what is pending, or advertise a window that grew by 2 MSS.
      if (f.segsUnacked > 0 || advertised(f) - f.lastAdvertised >= 2.0 * f.mss)
        dutSendAck(f.appCore, 1);
      tcpAppRead();
    };
    submit(fl.appCore, std::move(t));
  }

  // ---------------------------------------------------------------- the peer
  void peerReceive(const Frame& f) {
    if (f.kind == Kind::Udp) {
      Datagram& d = dgrams_[static_cast<std::size_t>(f.dgram)];
      ++d.received;
      if (f.lastFrag && !d.lost && d.received == d.fragments) deliverDatagram(kDut, d);
    } else if (f.kind == Kind::TcpData) {
      peerTcpData(f);
    } else {
      peerAckArrived(f);
    }
  }

  const SimConfig& c_;
  const SoftwareCosts& k_;
  const Cpsw& mac_;
  SimResult r_;
  double w0_ = 0, w1_ = 0, now_ = 0;
  int mss_ = 1448;
  // The stack's times in seconds.
  double irqLatency_ = 0, pacingInterval_ = 0, pollPeriod_ = 0, appStall_ = 0, appStallPeriod_ = 1;
  std::priority_queue<Ev> ev_;
  std::vector<std::function<void()>> fns_;
  std::vector<std::size_t> free_;
  std::uint64_t seq_ = 0;
  std::vector<Core> cores_;
  double wireFree_[2] = {0, 0};
  // Transmit.
  int txRingUsed_ = 0;
  std::deque<Frame> txPending_, qdisc_;
  std::vector<Frame> txCompletions_;
  bool txDmaBusy_ = false;
  std::uint64_t txFifoBytes_ = 0;
  // Receive.
  std::deque<Frame> rxFifo_, rxReady_;
  std::uint64_t rxFifoBytes_ = 0;
  int rxRingUsed_ = 0;
  int rxRefill_ = 0;  // timer-polled driver: buffers to resubmit at the next tick
  bool rxDmaBusy_ = false;
  bool polling_ = false;  // timer-polled driver: a poll is running
  // Interrupts / NAPI.
  bool irqEnabled_ = true, irqScheduled_ = false;
  double lastIrq_ = -1;
  int pollDone_ = 0;
  int pollBudget_ = 0;  // frames this poll may hand up
  int groSegs_ = 0;
  std::uint64_t groBytes_ = 0;
  double groLatency_ = 0;
  // UDP.
  std::vector<Datagram> dgrams_;
  double wmem_ = 0, rcvbufUsed_ = 0, nextSend_ = 0, burstStart_ = 0;
  int burstLeft_ = 0;
  bool udpBlocked_ = false, udpAppBusy_ = false, udpAppSleeping_ = true;
  std::deque<std::int64_t> sockQ_;
  double stalledUntil_ = 0;
  bool stallRetry_ = false;
  // TCP.
  TcpFlow flows_[2];
  bool peerSending_ = false;
  double peerLastSend_ = -1;  // UDP: when the peer last sent a datagram
};

}  // namespace

SimResult simulate(const SimConfig& cfg, const SoftwareCosts& costs, const Cpsw& mac) {
  if (!(cfg.duration > 0)) throw std::invalid_argument("net sim: duration must be > 0");
  if (cfg.datagramBytes < 1 || cfg.datagramBytes > 65507)
    throw std::invalid_argument("net sim: datagram size out of range");
  Sim s(cfg, costs, mac);
  return s.run();
}

bool lossless(const SimResult& r, int dir) {
  return r.datagramsLost[dir] == 0 && r.fifoDrops == 0 && r.socketDrops == 0 && r.qdiscDrops == 0 &&
         r.datagramsDelivered[dir] > 0;
}

namespace {
int udpDir(const SimConfig& c) {
  return c.traffic == Traffic::UdpTx ? 0 : 1;
}
}  // namespace

SearchResult zeroLossSearch(const SimConfig& cfg, const SoftwareCosts& costs, const Cpsw& mac) {
  if (cfg.traffic != Traffic::UdpTx && cfg.traffic != Traffic::UdpRx)
    throw std::invalid_argument("zero-loss search: UDP traffic only");
  const int dir = udpDir(cfg);
  SimConfig c = cfg;
  c.offeredBps = 0;
  const double line = udpLinePayloadBps(mac, c.datagramBytes);
  const int nMax =
      std::max(1, static_cast<int>(std::ceil(line * c.burstPeriod / (c.datagramBytes * 8.0))));
  auto trial = [&](int n) {
    SimConfig x = c;
    x.burstDatagrams = n;
    return simulate(x, costs, mac);
  };
  SearchResult out;
  int best = nMax;
  out.result = trial(nMax);
  if (!lossless(out.result, dir)) {
    int lo = 0, hi = nMax;  // lo: lossless (0: none yet), hi: lossy
    SimResult loR;
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      SimResult r = trial(mid);
      if (lossless(r, dir)) {
        lo = mid;
        loR = std::move(r);
      } else {
        hi = mid;
      }
    }
    best = std::max(1, lo);
    out.result = lo > 0 ? std::move(loR) : trial(1);
  }
  c.burstDatagrams = best;
  out.config = c;
  out.offeredMbps = best * c.datagramBytes * 8.0 / c.burstPeriod / 1e6;
  return out;
}

SearchResult maxRateSearch(const SimConfig& cfg, double maxLoss, const SoftwareCosts& costs,
                           const Cpsw& mac) {
  if (cfg.traffic != Traffic::UdpTx && cfg.traffic != Traffic::UdpRx)
    throw std::invalid_argument("max-rate search: UDP traffic only");
  const int dir = udpDir(cfg);
  SimConfig c = cfg;
  c.burstDatagrams = 0;
  auto trial = [&](double bps) {
    SimConfig x = c;
    x.offeredBps = bps;
    return simulate(x, costs, mac);
  };
  double lo = 0, hi = udpLinePayloadBps(mac, c.datagramBytes);
  SearchResult out;
  SimResult top = trial(hi);
  if (top.loss(dir) <= maxLoss) {
    lo = hi;
    out.result = std::move(top);
  } else {
    for (int i = 0; i < 14; ++i) {
      const double mid = 0.5 * (lo + hi);
      SimResult r = trial(mid);
      if (r.loss(dir) <= maxLoss) {
        lo = mid;
        out.result = std::move(r);
      } else {
        hi = mid;
      }
    }
    if (lo == 0) out.result = trial(hi);
  }
  c.offeredBps = lo > 0 ? lo : hi;
  out.config = c;
  out.offeredMbps = c.offeredBps / 1e6;
  return out;
}

}  // namespace socsim::wl::net
