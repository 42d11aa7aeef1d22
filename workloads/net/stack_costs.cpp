#include "workloads/net/stack_costs.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "models/cpu/core_memory.h"
#include "models/dma/dma_port.h"
#include "soc/config/board_config.h"
#include "soc/platform.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"

namespace socsim::wl::net {

namespace {

// Address map of the measurement (DDR; the platform routes everything to it).
constexpr std::uint64_t kCodeData = 0x40000000ull;  // the profiles' data regions
constexpr std::uint64_t kAppData = 0x48000000ull;
constexpr std::uint64_t kDmaBuffers = 0x60000000ull;  // packet buffers the DMA writes/reads
constexpr std::uint64_t kDescriptors = 0x5ff00000ull;
constexpr std::uint64_t kUserBuffer = 0x58000000ull;  // the application's buffer (warm)
constexpr std::uint64_t kBufferStride = 2048;         // one driver buffer per frame
constexpr int kRing = 256;                            // descriptors cycled through
constexpr int kCopies = 48;                           // copies measured per direction
constexpr int kCopyBytes = 1448;                      // one full TCP segment's payload
constexpr int kBigFrame = 1518, kSmallFrame = 64;

/// Frames the DMA receives at line rate while the core runs (background contention).
struct Background {
  const models::Cpsw& mac;
  models::DmaPort& dma;
  std::uint64_t nextPs = 0, periodPs = 0;
  std::uint64_t index = 0;
  void pumpUntil(std::uint64_t ps) {
    while (nextPs <= ps) {
      const std::uint64_t i = index++;
      mac.rxFrame(dma, kDescriptors + (i % kRing) * 64, kDmaBuffers + i * kBufferStride, kBigFrame,
                  nextPs);
      nextPs += periodPs;
    }
  }
};

/// The profile's variants on `core`: each warms up, then its share of the measured
/// instructions runs with fresh statistics; `run(gen, n)` executes n instructions of `gen`.
/// Returns the statistics summed over the variants.
template <class RunFn>
models::CoreRunStats runVariants(models::CoreModel& core, const cpu::WorkloadProfile& p,
                                 std::uint64_t dataBase, RunFn run) {
  models::CoreRunStats total;
  const int variants = std::max(1, p.info.variants);
  const auto warm = static_cast<std::uint64_t>(std::max(0, p.info.warmup_instructions));
  const auto measure = static_cast<std::uint64_t>(std::max(1, p.info.measure_instructions));
  for (int v = 0; v < variants; ++v) {
    cpu::StreamGenerator gen(p, 0, dataBase, v);
    run(gen, v == 0 ? warm : warm / 4);
    core.resetStats();
    run(gen, measure / static_cast<std::uint64_t>(variants));
    const auto& s = core.stats();
    if (total.partNames.empty()) {
      total = s;
    } else {
      total.instructions += s.instructions;
      total.cycles += s.cycles;
      for (std::size_t i = 0; i < total.partCycles.size() && i < s.partCycles.size(); ++i)
        total.partCycles[i] += s.partCycles[i];
    }
  }
  return total;
}

/// Run a profile on `core`, the DMA pumping frames meanwhile; returns the measured stats.
models::CoreRunStats runProfile(models::CoreModel& core, cpu::PlatformPort& port,
                                const cpu::WorkloadProfile& p, std::uint64_t dataBase,
                                Background& bg) {
  const std::uint64_t q = port.quantumCycles();
  return runVariants(core, p, dataBase, [&](cpu::StreamGenerator& gen, std::uint64_t n) {
    for (std::uint64_t done = 0; done < n;) {
      bg.pumpUntil(port.psOf(core.now() + q));
      const std::uint64_t k = core.run(gen, n - done, core.now() + q);
      if (k == 0) break;
      done += k;
      port.sync(core.now());
    }
  });
}

/// A copy loop as the core runs it: 16-byte load-multiple / store-multiple pairs with the loop
/// branch, over a source the core has not cached and a destination it keeps reusing.
class CopySource : public models::InstructionSource {
 public:
  CopySource(std::uint64_t src, std::uint64_t dst, std::uint64_t bytes)
      : src_(src), dst_(dst), chunks_(bytes / 16) {}
  std::size_t next(models::DynInst* out, std::size_t n) override {
    std::size_t k = 0;
    while (k < n && i_ < chunks_ * 3) {
      models::DynInst d;
      const std::uint64_t chunk = i_ / 3;
      d.pc = 0x2000 + (i_ % 3) * 4;
      switch (i_ % 3) {
        case 0:
          d.cls = models::OpClass::LoadMulti;
          d.addr = src_ + chunk * 16;
          d.bytes = 16;
          break;
        case 1:
          d.cls = models::OpClass::StoreMulti;
          d.addr = dst_ + chunk * 16;
          d.bytes = 16;
          d.dep1 = 1;
          break;
        default:
          d.cls = models::OpClass::Branch;
          d.taken = chunk + 1 < chunks_;
          break;
      }
      out[k++] = d;
      ++i_;
    }
    return k;
  }

 private:
  std::uint64_t src_, dst_, chunks_, i_ = 0;
};

/// Run a profile on a core over a stand-in memory (no platform).
models::CoreRunStats runProfileStandalone(models::CoreModel& core, const cpu::WorkloadProfile& p,
                                          std::uint64_t dataBase) {
  return runVariants(core, p, dataBase,
                     [&](cpu::StreamGenerator& gen, std::uint64_t n) { core.run(gen, n); });
}

double pathFactor(const cpu::WorkloadProfile& p, const std::string& isa) {
  return p.info.instructions_per_unit > 0
             ? p.instructionsPerUnit(isa) / p.info.instructions_per_unit
             : 1.0;
}

}  // namespace

std::vector<int> osCores(const soc::BoardConfig& b, bool smp) {
  const soc::ClusterConfig& main = b.mainCluster();
  std::vector<int> flat;
  int base = 0;
  bool seen = false;
  for (const auto& c : b.clusters) {
    if (!c.l1d) continue;  // the platform leaves clusters without a data cache out
    const bool use = &c == &main || (smp && seen && c.info.role == main.info.role &&
                                     c.core.type == main.core.type);
    if (&c == &main) seen = true;
    for (int i = 0; use && i < c.info.cores; ++i) flat.push_back(base + i);
    base += c.info.cores;
  }
  if (!smp && flat.size() > 1) flat.resize(1);
  return flat;
}

MeasuredCosts measureCostsOnSram(const soc::BoardConfig& b, const cpu::WorkloadProfile& code,
                                 const cpu::WorkloadProfile& app, const models::Cpsw& mac) {
  const soc::ClusterConfig& main = b.mainCluster();
  if (!main.l1i || !main.l1d)
    throw NotModelled{"core " + main.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config (tightly-coupled memory not modelled)"};
  MeasuredCosts m;
  m.isa = main.core.isa;
  m.clockHz = main.core.clock_mhz * 1e6;
  m.codePathFactor = pathFactor(code, main.core.isa);
  m.appPathFactor = pathFactor(app, main.core.isa);
  // The on-chip SRAM behind the interconnect: its round trip in core cycles (the SRAM's own
  // access folded into the interconnect's pipeline latency).
  const models::InterconnectParams& ic = b.interconnect;
  const double icCycleNs = 1e3 / ic.clock_mhz;
  const double sramNs = (ic.latency_cycles + 2) * icCycleNs;
  models::FixedLatencyMemory::Config mc;
  mc.l1d_bytes = main.l1d->size_bytes;
  mc.l1i_bytes = main.l1i->size_bytes;
  mc.ways = main.l1d->associativity;
  mc.line_bytes = main.l1d->line_bytes;
  mc.l1_hit_latency_cycles = main.l1d->hit_latency_cycles;
  mc.next_level_latency_cycles =
      std::max(1, static_cast<int>(std::ceil(sramNs * main.core.clock_mhz / 1e3)));
  mc.mshrs = std::max(1, main.memory.line_fill_buffers);
  {
    models::FixedLatencyMemory mem(mc);
    models::CoreModel core(main.core, main.timing, mem);
    m.codeStats = runProfileStandalone(core, code, kCodeData);
  }
  {
    models::FixedLatencyMemory mem(mc);
    models::CoreModel core(main.core, main.timing, mem);
    m.appCpi = runProfileStandalone(core, app, kAppData).cpi();
  }
  m.codeCpi = m.codeStats.cpi();
  {
    // Copies of one segment's payload out of buffers the DMA filled (not cached).
    models::FixedLatencyMemory mem(mc);
    models::CoreModel core(main.core, main.timing, mem);
    CopySource warm(kUserBuffer, kUserBuffer + 0x10000, 4096);
    core.run(warm, ~0ull);
    core.resetStats();
    for (int i = 0; i < kCopies; ++i) {
      CopySource cp(kDmaBuffers + static_cast<std::uint64_t>(i) * kBufferStride,
                    kUserBuffer + static_cast<std::uint64_t>(i % 2) * 2048, kCopyBytes);
      core.run(cp, ~0ull);
    }
    m.rxCopyPerByte = static_cast<double>(core.stats().cycles) / m.clockHz / kCopies / kCopyBytes;
    m.txCopyPerByte = m.rxCopyPerByte;
  }
  // The DMA moves frames into the SRAM at the interconnect's width per cycle; per frame it
  // fetches and writes back a descriptor (one round trip each) on top of its own overhead.
  const auto& cp = mac.params();
  m.dmaPerByte = icCycleNs * 1e-9 / std::max(1, ic.width_bytes);
  m.dmaFixed = cp.dma_packet_overhead_ns * 1e-9 + 2 * sramNs * 1e-9 +
               2.0 * cp.descriptor_bytes * m.dmaPerByte;
  m.dmaParts.emplace_back("interconnect", m.dmaFixed + kBigFrame * m.dmaPerByte);
  m.uncachedAccess = sramNs * 1e-9;
  return m;
}

MeasuredCosts measureCosts(RunContext& ctx, const cpu::WorkloadProfile& code,
                           const cpu::WorkloadProfile& app, const models::Cpsw& mac) {
  const soc::BoardConfig& b = ctx.board();
  // Bare-metal stacks run out of on-chip SRAM (MCU+ examples place code, pbufs and descriptors
  // in MSRAM), as does any board without DDR: the platform (a DDR memory system) is not used.
  if (b.software.stack == "mcu-nortos" || !b.dram || !b.ddrController)
    return measureCostsOnSram(b, code, app, mac);
  const soc::ClusterConfig& main = b.mainCluster();
  if (!main.l1i || !main.l1d)
    throw NotModelled{"core " + main.core.type + " of board " + b.board.name +
                      " has no L1 caches in its config (tightly-coupled memory not modelled)"};
  const std::vector<int> cores = osCores(b, false);
  if (cores.empty()) throw NotModelled{"board " + b.board.name + " has no core to run the stack"};

  soc::Platform& plat = ctx.platform();
  plat.flushCaches();
  plat.resetStats();

  MeasuredCosts m;
  m.isa = main.core.isa;
  m.clockHz = main.core.clock_mhz * 1e6;
  m.codePathFactor = pathFactor(code, main.core.isa);
  m.appPathFactor = pathFactor(app, main.core.isa);
  const double framePs = mac.wireSeconds(kBigFrame - 18) * 1e12;

  plat.run(cores[0], [&](models::CoreMemory& cm) {
    cpu::PlatformPort port(cm);
    Background bg{mac, plat.dma(), cm.localPs(), static_cast<std::uint64_t>(framePs), 0};
    {
      models::CoreModel core(main.core, main.timing, port);
      m.codeStats = runProfile(core, port, code, kCodeData, bg);
      port.sync(core.now());
    }
    // A new core model counts cycles from 0: it gets a port whose time base is now.
    cpu::PlatformPort appPort(cm);
    models::CoreModel appCore(main.core, main.timing, appPort);
    models::CoreRunStats as = runProfile(appCore, appPort, app, kAppData, bg);
    appPort.sync(appCore.now());
    m.codeCpi = m.codeStats.cpi();
    m.appCpi = as.cpi();

    // Copies: received payload out of DMA-written buffers (not in any cache) into the
    // application's buffer, and the application's payload into fresh transmit buffers.
    const std::uint64_t firstCopy = bg.index + 1000;
    double rxPs = 0, txPs = 0, dmaBigPs = 0, dmaSmallPs = 0;
    models::PartTimes bigParts{};
    cm.memzero(kUserBuffer, 64 * 1024);  // warm the user buffer
    for (int i = 0; i < kCopies; ++i) {
      bg.pumpUntil(cm.localPs());
      const std::uint64_t idx = firstCopy + static_cast<std::uint64_t>(i);
      const std::uint64_t buf = kDmaBuffers + idx * kBufferStride;
      const std::uint64_t t0 = cm.localPs();
      auto d = mac.rxFrame(plat.dma(), kDescriptors + (idx % kRing) * 64, buf, kBigFrame, t0);
      dmaBigPs += static_cast<double>(d.endPs - t0);
      for (int k = 0; k < models::kParts; ++k)
        bigParts[static_cast<std::size_t>(k)] += d.parts[static_cast<std::size_t>(k)];
      // The driver hands the frame up once the DMA is done; the copy starts then.
      if (d.endPs > cm.localPs())
        cm.compute((d.endPs - cm.localPs()) / std::max<std::uint64_t>(1, cm.cyclePs()));
      const std::uint64_t c0 = cm.localPs();
      cm.memcpy(kUserBuffer + static_cast<std::uint64_t>(i % 32) * 2048, buf + 66, kCopyBytes);
      cm.fence();
      rxPs += static_cast<double>(cm.localPs() - c0);
    }
    for (int i = 0; i < kCopies; ++i) {
      bg.pumpUntil(cm.localPs());
      const std::uint64_t idx = firstCopy + kCopies + static_cast<std::uint64_t>(i);
      const std::uint64_t buf = kDmaBuffers + idx * kBufferStride;
      const std::uint64_t c0 = cm.localPs();
      cm.memcpy(buf + 66, kUserBuffer + static_cast<std::uint64_t>(i % 32) * 2048, kCopyBytes);
      cm.fence();
      txPs += static_cast<double>(cm.localPs() - c0);
      const std::uint64_t t0 = cm.localPs();
      auto d = mac.txFrame(plat.dma(), kDescriptors + (idx % kRing) * 64, buf, kSmallFrame, t0);
      dmaSmallPs += static_cast<double>(d.endPs - t0);
    }
    m.rxCopyPerByte = rxPs * 1e-12 / kCopies / kCopyBytes;
    m.txCopyPerByte = txPs * 1e-12 / kCopies / kCopyBytes;
    const double big = dmaBigPs * 1e-12 / kCopies, small = dmaSmallPs * 1e-12 / kCopies;
    m.dmaPerByte = std::max(0.0, (big - small) / (kBigFrame - kSmallFrame));
    m.dmaFixed = std::max(0.0, small - m.dmaPerByte * kSmallFrame);
    // A core access to packet memory it does not cache: one line's worth of the copy out of
    // a DMA-written (uncached) buffer, which is a memory round trip per line.
    m.uncachedAccess = m.rxCopyPerByte * main.l1d->line_bytes;
    for (int k = 0; k < models::kParts; ++k) {
      const double s = static_cast<double>(bigParts[static_cast<std::size_t>(k)]) * 1e-12 / kCopies;
      if (s > 0) m.dmaParts.emplace_back(models::partName(static_cast<models::Part>(k)), s);
    }
  });
  return m;
}

SoftwareCosts toSoftwareCosts(const MeasuredCosts& m, const NetStackParams& s,
                              const NetToolParams& t, const models::CpswParams& mac,
                              const os::KernelPathParams* kp) {
  SoftwareCosts k;
  const double perInstr = m.codeCpi / m.clockHz;   // s per instruction of kernel-like code
  const double net = m.codePathFactor * perInstr;  // s per AArch64 network-path instruction
  const double appS = m.appPathFactor * m.appCpi / m.clockHz;
  // Generic kernel paths (s) and the lock cost every kernel path carries (PREEMPT_RT's
  // sleeping spinlocks), as the OS rows model them.
  double trap = 0, wake = 0, irqEntry = 0, irqThread = 0, lock = 1;
  if (kp && s.uses_kernel_paths) {
    const double f = m.isa == "armv8-a"   ? 1.0
                     : m.isa == "armv5te" ? kp->armv5_path_factor
                                          : kp->aarch32_path_factor;
    lock = 1 + kp->locks_per_kilo_instruction * kp->lock_instructions / 1000;
    const double kpS = f * perInstr * lock;
    trap = kp->trap_instructions * kpS;
    wake = (kp->wakeup_instructions + kp->switch_instructions + kp->block_instructions) * kpS;
    irqEntry = kp->irq_instructions * kpS;
    // A threaded handler: the hard interrupt wakes the thread, which is switched in and out.
    if (kp->irq_thread_instructions > 0)
      irqThread = (kp->irq_thread_instructions + 2 * kp->switch_instructions) * kpS;
  }
  const double stk = net * lock * s.path_factor;
  // Packet memory the core does not cache: each of the driver's and the stack's accesses to a
  // frame's descriptor, buffer header and protocol headers is a memory round trip.
  const double packetMem =
      s.packet_memory_cached ? 0 : s.packet_accesses_per_frame * m.uncachedAccess;
  // RTOS hand-offs of each received frame (driver task -> stack thread and back).
  const double handoff = s.task_switches_per_frame * s.task_switch_instructions * stk;
  // Software checksum: the loop's instructions per byte, plus one round trip per 32-bit load
  // when the payload sits in memory the core does not cache.
  const double csum = s.csum_instructions_per_byte * net +
                      (s.packet_memory_cached ? 0 : m.uncachedAccess / 4);
  k.irq = irqEntry + s.irq_handler_instructions * stk;
  k.irqThread = irqThread;
  k.poll = s.poll_instructions * stk;
  k.rxFrame = s.rx_frame_instructions * stk + packetMem;
  k.rxIp = s.rx_ip_instructions * stk + handoff;
  k.reassembly = s.reassembly_instructions * stk;
  k.udpRx = s.udp_rx_instructions * stk;
  k.tcpRx = s.tcp_rx_instructions * stk;
  k.gro = s.gro_instructions * stk;
  k.tcpAckTx = s.tcp_ack_tx_instructions * stk;
  k.tcpAckRx = s.tcp_ack_rx_instructions * stk;
  k.txSyscall = trap + s.send_call_instructions * stk;
  k.udpTx = s.udp_tx_instructions * stk;
  k.tcpTx = s.tcp_tx_instructions * stk;
  k.txFrame = s.tx_frame_instructions * stk + packetMem;
  k.txComplete = s.tx_complete_instructions * stk;
  k.rxSyscall = trap + s.recv_call_instructions * stk;
  k.wakeup = wake;
  k.appSend = t.send_instructions * appS;
  k.appRecv = t.recv_instructions * appS;
  k.rxCopyPerByte = s.rx_copy ? m.rxCopyPerByte : 0;
  k.txCopyPerByte = s.tx_copy ? m.txCopyPerByte : 0;
  k.rxCsumPerByte = mac.rx_checksum_offload && !s.software_checksum ? 0 : csum;
  k.txCsumPerByte = mac.tx_checksum_offload && !s.software_checksum ? 0 : csum;
  k.dmaFixed = m.dmaFixed;
  k.dmaPerByte = m.dmaPerByte;
  return k;
}

}  // namespace socsim::wl::net
