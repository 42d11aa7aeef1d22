#include "workloads/mcu/mcu_workloads.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/error.h"
#include "common/format.h"
#include "common/paths.h"
#include "models/cpu/core_model.h"
#include "models/peripherals/mcan/can_fd_frame.h"
#include "models/peripherals/mcspi/mcspi.h"
#include "soc/config/board_config.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/storage/storage_case.h"

namespace socsim::wl::mcu {

namespace {

std::string g3(double v) {
  return formatSig(v, 3);
}

std::string param(const std::map<std::string, std::string>& m, const char* k) {
  auto it = m.find(k);
  if (it == m.end()) throw NotModelled{std::string("params carry no ") + k};
  return it->second;
}

double number(const std::map<std::string, std::string>& m, const char* k) {
  const std::string v = param(m, k);
  try {
    return std::stod(v);
  } catch (const std::exception&) {
    throw NotModelled{std::string("param ") + k + "='" + v + "' is not a number"};
  }
}

const soc::PeripheralParams* peripheral(const soc::BoardConfig& b, const std::string& ip) {
  for (const auto& p : b.peripherals)
    if (p.ip == ip) return &p;
  return nullptr;
}

void requireMcu(const soc::BoardConfig& b) {
  if (b.software.stack != "mcu-nortos")
    throw NotModelled{"the MCU+ driver tests run under the MCU+ SDK (no RTOS); board " +
                      b.board.name + " runs " + b.software.stack};
}

/// Guide 004 core names ("r5f0-1", "m4f0-0", "a530-0") -> the board's cluster.
const soc::ClusterConfig& clusterOf(const soc::BoardConfig& b, const std::string& core) {
  const auto dash = core.find('-');
  if (dash == std::string::npos || dash < 2) throw NotModelled{"core name '" + core + "'"};
  const std::string kind = core.substr(0, dash - 1);  // "r5f", "m4f", "a53"
  const std::string inst = core.substr(dash - 1, 1);  // subsystem index
  for (const auto& c : b.clusters)
    if (c.info.name == kind + "ss" + inst) return c;
  throw NotModelled{"board " + b.board.name + " has no cluster for core '" + core + "'"};
}

bool isM4(const soc::ClusterConfig& c) {
  return c.core.type.find("m4") != std::string::npos;
}

/// Read times of one MCU-core access across the board's interconnect, ns.
struct BusReads {
  double mmio = 0;    ///< peripheral register
  double shared = 0;  ///< non-cached on-chip SRAM (IPC shared memory)
};
BusReads busReads(const soc::BoardConfig& b, const McuBusParams& bus) {
  const double fabricMhz = b.interconnect.clock_mhz > 0 ? b.interconnect.clock_mhz : 250;
  const double roundTrip = b.interconnect.latency_cycles * 1000.0 / fabricMhz;
  double sramMhz = fabricMhz;
  for (const auto& s : b.sram)
    if (s.clock_mhz > 0) {
      sramMhz = s.clock_mhz;
      break;
    }
  return {roundTrip + bus.peripheral_bridge_read_ns, roundTrip + 1000.0 / sramMhz};
}

}  // namespace

McuWorkloads::McuWorkloads(std::string file) : file_(std::move(file)) {
  try {
    data_ = loadMcuData(file_);
    // Driver code: the kernel-path instruction stream (short straight-line code, structure
    // accesses), with a driver's small code and data footprint (warm in L1 / TCM).
    driverProfile_ = cpu::loadProfile(configsDir() + "/workloads/os/base/kernel.yaml");
    driverProfile_.code.footprint_bytes = 8192;
    driverProfile_.data.hot_bytes = 4096;
  } catch (const InputError& e) {
    loadError_ = e.what();
  } catch (const std::exception& e) {
    loadError_ = std::string("loading MCU workload data: ") + e.what();
  }
}

bool McuWorkloads::covers(const Query& q) const {
  if (q.family == "ipc" || q.family == "mcan" || q.family == "mcspi") return true;
  return q.family == "usb" && q.benchmark.find("RNDIS") != std::string::npos;
}

double McuWorkloads::cpi(const soc::ClusterConfig& c) {
  const std::string key = c.core.type + "@" + std::to_string(c.core.clock_mhz);
  auto it = cpi_.find(key);
  if (it != cpi_.end()) return it->second;
  models::FixedLatencyMemory::Config mc;
  mc.l1_hit_latency_cycles = data_.bus.l1_hit_cycles;
  models::FixedLatencyMemory mem(mc);
  const cpu::ProfileRun r = cpu::runProfileOn(driverProfile_, c.core, c.timing, mem);
  const double ipu = driverProfile_.instructionsPerUnit(c.core.isa);
  const double v = ipu > 0 && r.cyclesPerUnit > 0 ? r.cyclesPerUnit / ipu : 1.0;
  return cpi_.emplace(key, v).first->second;
}

Prediction McuWorkloads::predict(RunContext& ctx, const Query& q) {
  if (!loadError_.empty()) throw InputError(file_, 0, "", loadError_);
  requireMcu(ctx.board());
  if (q.family == "ipc") return ipc(ctx, q);
  if (q.family == "mcan") return mcan(ctx, q);
  if (q.family == "mcspi") return mcspi(ctx, q);
  return rndis(ctx, q);
}

// ---- IPC --------------------------------------------------------------------------------
// The echo tests send a message, the remote core's ISR echoes it, the local ISR receives it;
// the average one-way latency is half that round trip.
Prediction McuWorkloads::ipc(RunContext& ctx, const Query& q) {
  if (q.unit != "us") throw NotModelled{"unit " + q.unit};
  const soc::BoardConfig& b = ctx.board();
  const auto ps = storage::parseParams(q.params);
  const soc::ClusterConfig& local = clusterOf(b, param(ps, "local"));
  const soc::ClusterConfig& remote = clusterOf(b, param(ps, "remote"));
  const bool rpmsg = q.benchmark.find("RPMSG") != std::string::npos;
  if (!rpmsg && q.benchmark.find("NOTIFY") == std::string::npos)
    throw NotModelled{"IPC benchmark '" + q.benchmark + "'"};
  const double bytes = rpmsg ? number(ps, "msg_bytes") : 0;
  const McuBusParams& bus = data_.bus;
  const BusReads rd = busReads(b, bus);
  const IpcParams& ip = data_.ipc;
  Prediction p;
  auto side = [&](const soc::ClusterConfig& c, const std::string& who) {
    const double hz = c.core.clock_mhz * 1e6;
    const double k = isM4(c) ? bus.m4f_bus_factor : 1.0;
    const double c_ = cpi(c);
    double sendI = ip.notify_send_instructions,
           recvI = ip.notify_isr_instructions + ip.notify_callback_instructions;
    if (rpmsg) {
      sendI += ip.rpmsg_send_instructions;
      recvI += ip.rpmsg_receive_instructions + ip.rpmsg_task_wake_instructions;
    }
    const double send = sendI * c_ / hz + ip.mailbox_writes_per_send * bus.mmio_write_ns * k * 1e-9;
    const double recv = recvI * c_ / hz +
                        (isM4(c) ? bus.m4f_irq_latency_cycles : bus.r5f_irq_latency_cycles) / hz +
                        (ip.mailbox_reads_per_receive * rd.mmio +
                         ip.mailbox_writes_per_receive * bus.mmio_write_ns) *
                            k * 1e-9;
    // RPMsg: the sender writes header + payload into the vring buffer in shared memory, the
    // receiver reads them back (non-cached, rpmsg_copy_access_bytes per access).
    double copy = 0;
    if (rpmsg) {
      const double accesses =
          std::ceil((bytes + static_cast<double>(ip.rpmsg_header_bytes)) /
                    static_cast<double>(std::max<std::uint64_t>(1, ip.rpmsg_copy_access_bytes)));
      copy = accesses * (bus.shared_write_ns + rd.shared) * k * 1e-9;
    }
    p.breakdown.add(who + ".send.cpu", send / 2);
    p.breakdown.add(who + ".receive.cpu", recv / 2);
    if (copy > 0) p.breakdown.add(who + ".shared_memory", copy / 2);
    return send + recv + copy;
  };
  const double rt =
      side(local, "local") + side(remote, "remote") + 2 * ip.interrupt_propagation_ns * 1e-9;
  p.breakdown.add("interrupt.propagation", ip.interrupt_propagation_ns * 1e-9);
  p.value = rt / 2 * 1e6;
  std::string printed;
  if (rpmsg && ip.rpmsg_loop_messages != ip.rpmsg_reported_messages) {
    // The test as it prints: its loop's time over twice a message count it does not run.
    const double f = static_cast<double>(ip.rpmsg_loop_messages) / ip.rpmsg_reported_messages;
    p.value *= f;  // the breakdown keeps the real one-way time
    printed = "; printed as " + std::to_string(ip.rpmsg_loop_messages) + " round trips / (2 x " +
              std::to_string(ip.rpmsg_reported_messages) + ")";
  }
  p.note = "one-way = round trip / 2" + printed + "; mailbox read " + g3(rd.mmio) +
           " ns, shared-memory read " +
           g3(rd.shared) + " ns (interconnect round trip incl.); driver CPI " + g3(cpi(local)) +
           " (" + local.core.type + ") / " + g3(cpi(remote)) + " (" + remote.core.type + ")";
  return p;
}

// ---- MCAN -------------------------------------------------------------------------------
Prediction McuWorkloads::mcan(RunContext& ctx, const Query& q) {
  if (q.unit != "msg/s") throw NotModelled{"unit " + q.unit};
  const soc::BoardConfig& b = ctx.board();
  if (!peripheral(b, "mcan")) throw NotModelled{"board " + b.board.name + " lists no MCAN"};
  const auto ps = storage::parseParams(q.params);
  const double arb = number(ps, "arb_bitrate_mbps") * 1e6;
  const double dat = number(ps, "data_bitrate_mbps") * 1e6;
  const McanTestParams& t = data_.mcan;
  models::CanFdFrameSpec f;
  if (q.benchmark.find("EXTENDED") != std::string::npos) {
    f.extended = true;
    f.id = static_cast<std::uint32_t>(t.ext_id);
  } else if (q.benchmark.find("STANDARD") != std::string::npos) {
    f.id = static_cast<std::uint32_t>(t.std_id);
  } else {
    throw NotModelled{"frame format of '" + q.benchmark + "'"};
  }
  for (int i = 0; i < t.payload_bytes; ++i) f.data.push_back(static_cast<std::uint8_t>(i));
  const models::CanFdFrameBits bits = models::canFdFrameBits(f);
  const soc::ClusterConfig& c = b.mainCluster();
  const double hz = c.core.clock_mhz * 1e6;
  const McuBusParams& bus = data_.bus;
  const double mmioRead = busReads(b, bus).mmio;
  const double words = t.msg_ram_header_words + std::ceil(t.payload_bytes / 4.0);
  const double cpu = (t.tx_instructions + t.rx_instructions) * cpi(c) / hz;
  const double mmio =
      (words * (bus.mmio_write_ns + mmioRead) + t.status_reads_per_message * mmioRead) * 1e-9;
  const double wireNominal = bits.nominalRateBits() / arb;
  const double wireData = bits.dataRateBits() / dat;
  Prediction p;
  p.breakdown.add("mcan.arbitration_phase", wireNominal);
  p.breakdown.add("mcan.data_phase", wireData);
  p.breakdown.add("driver.cpu", cpu);
  p.breakdown.add("driver.message_ram", mmio);
  p.value = 1.0 / (wireNominal + wireData + cpu + mmio);
  p.note = "frame " + std::to_string(bits.nominalRateBits()) + " bits at " + g3(arb / 1e6) +
           " Mbit/s (" + std::to_string(bits.dynamicStuffArbitration) + " stuff) + " +
           std::to_string(bits.dataRateBits()) + " bits at " + g3(dat / 1e6) + " Mbit/s (" +
           std::to_string(bits.dynamicStuffData) + " dynamic + " +
           std::to_string(bits.fixedStuffBits) + " fixed stuff); send and receive serialized";
  return p;
}

// ---- MCSPI ------------------------------------------------------------------------------
Prediction McuWorkloads::mcspi(RunContext& ctx, const Query& q) {
  const soc::BoardConfig& b = ctx.board();
  if (!peripheral(b, "mcspi")) throw NotModelled{"board " + b.board.name + " lists no McSPI"};
  const auto ps = storage::parseParams(q.params);
  const double clk = number(ps, "spi_clock_mhz") * 1e6;
  const int wordBits = static_cast<int>(number(ps, "word_width_bits"));
  const auto words = static_cast<std::uint64_t>(number(ps, "words"));
  const double bytes = number(ps, "transfer_bytes");
  const models::Mcspi spi{data_.mcspiController};
  const McspiDriverParams& d = data_.mcspi;
  const McuBusParams& bus = data_.bus;
  const double mmioRead = busReads(b, bus).mmio;
  const soc::ClusterConfig& c = b.mainCluster();
  const double hz = c.core.clock_mhz * 1e6;
  const double ci = cpi(c);
  Prediction p;
  const double setup = d.transfer_setup_instructions * ci / hz +
                       d.transfer_setup_mmio_writes * bus.mmio_write_ns * 1e-9;
  p.breakdown.add("driver.setup", setup);
  const double wire = spi.transferSeconds(words, wordBits, clk);
  double t = setup;
  if (q.benchmark.find("Polled") != std::string::npos) {
    // The loop moves one word per iteration; the FIFO lets it run while the wire shifts, so
    // the slower of the two sets the pace.
    const double perWord = d.polled_word_instructions * ci / hz +
                           (d.polled_word_mmio_reads * mmioRead + bus.mmio_write_ns) * 1e-9;
    const double cpu = perWord * static_cast<double>(words);
    p.breakdown.add(cpu > wire ? "driver.word_loop" : "mcspi.wire", std::max(cpu, wire));
    t += std::max(cpu, wire);
  } else if (q.benchmark.find("Interrupt") != std::string::npos) {
    const double fifoWords = static_cast<double>(spi.fifoWords(wordBits));
    const double irqs = std::ceil(static_cast<double>(words) / std::max(1.0, fifoWords / 2));
    const double cpu =
        irqs * (d.irq_instructions * ci / hz + bus.r5f_irq_latency_cycles / hz + mmioRead * 1e-9) +
        static_cast<double>(words) *
            (d.irq_word_instructions * ci / hz + (mmioRead + bus.mmio_write_ns) * 1e-9);
    p.breakdown.add(cpu > wire ? "driver.isr" : "mcspi.wire", std::max(cpu, wire));
    t += std::max(cpu, wire);
  } else if (q.benchmark.find("Dma") != std::string::npos ||
             q.benchmark.find("DMA") != std::string::npos) {
    const double dsetup = d.dma_setup_instructions * ci / hz;
    const double events = static_cast<double>(words) * d.dma_event_ns * 1e-9;
    p.breakdown.add("dma.setup", dsetup);
    p.breakdown.add(events > wire ? "dma.events" : "mcspi.wire", std::max(events, wire));
    t += dsetup + std::max(events, wire);
  } else {
    throw NotModelled{"McSPI mode '" + q.benchmark + "'"};
  }
  if (q.unit == "us") {
    p.value = t * 1e6;
  } else if (q.unit == "Mbit/s") {
    p.value = bytes * 8 / t / 1e6;
  } else {
    throw NotModelled{"unit " + q.unit};
  }
  p.note = "wire " + g3(wire * 1e6) + " us (" +
           g3(models::Mcspi::clockSeconds(words, wordBits, clk) * 1e6) + " us clocks + " +
           std::to_string(words ? words - 1 : 0) + " inter-word delays)";
  return p;
}

// ---- RNDIS ------------------------------------------------------------------------------
// iperf TCP TX from lwIP on the R5F through the TinyUSB RNDIS function to the host. A segment
// costs the R5F its lwIP and USB driver work; the link moves it at the high-speed bulk rate;
// lwIP keeps at most TCP_SND_BUF unacknowledged, so each window waits for the host's ACK.
Prediction McuWorkloads::rndis(RunContext& ctx, const Query& q) {
  const soc::BoardConfig& b = ctx.board();
  const soc::PeripheralParams* usb = peripheral(b, "usb");
  if (!usb || usb->link_speed_mbps <= 0) throw NotModelled{"board lists no USB controller"};
  const RndisParams& r = data_.rndis;
  const soc::ClusterConfig& c = b.mainCluster();
  const double hz = c.core.clock_mhz * 1e6;
  const double frame = static_cast<double>(r.mss_bytes + r.frame_overhead_bytes);
  // High speed: 13 bulk packets of 512 bytes per 125 us microframe (USB 2.0 §5.8.4).
  const double linkBps = usb->link_speed_mbps >= 480 && usb->link_speed_mbps < 5000
                             ? 13.0 * 512 / 125e-6
                             : usb->link_speed_mbps * 1e6 / 8 * 0.8;
  const double cpuSeg = (r.lwip_segment_instructions + r.usb_transfer_instructions) * cpi(c) / hz;
  const double linkSeg = frame / linkBps;
  const double segs = std::max(
      1.0, std::floor(static_cast<double>(r.tcp_snd_buf_bytes) / static_cast<double>(r.mss_bytes)));
  // One frame in flight: TinyUSB's RNDIS class has one transmit buffer, and the example's
  // linkoutput spins in tud_task until the previous frame has left (MCU+ SDK
  // examples/usb/device/rndis/rndis_main.c). The device arms each frame after the host's last
  // IN poll was NAKed, so the frame leaves at the host's next retry: a frame costs its CPU
  // work and its transfer rounded up to whole retry intervals.
  const double retry = r.bulk_in_retry_us * 1e-6;
  const double busy = cpuSeg + linkSeg;
  const double perFrame = retry > 0 ? std::ceil(busy / retry - 1e-9) * retry : busy;
  // One window: its segments one after another, then the ACK comes back from the host (the
  // example takes it in only from its main loop, service_traffic, after the burst).
  const double window = segs * perFrame + r.host_ack_us * 1e-6;
  const double bps = segs * static_cast<double>(r.mss_bytes) * 8 / window;
  Prediction p;
  p.breakdown.add("driver.cpu", segs * cpuSeg);
  p.breakdown.add("usb.link", segs * linkSeg);
  p.breakdown.add("usb.in_retry_wait", segs * (perFrame - busy));
  p.breakdown.add("host.ack", r.host_ack_us * 1e-6);
  const auto ps = storage::parseParams(q.params);
  if (q.unit == "Mbit/s") {
    p.value = bps / 1e6;
  } else if (q.unit == "MiB") {
    // iperf's "Transfer" column: bytes in the interval, in 2^20 units.
    const std::string iv = param(ps, "interval_s");
    const auto dash = iv.find('-');
    if (dash == std::string::npos) throw NotModelled{"interval '" + iv + "'"};
    const double secs = std::stod(iv.substr(dash + 1)) - std::stod(iv.substr(0, dash));
    p.value = bps / 8 * secs / (1024.0 * 1024.0);
  } else {
    throw NotModelled{"unit " + q.unit};
  }
  p.note = g3(segs) + " segments per window of " + std::to_string(r.tcp_snd_buf_bytes) +
           " B; per segment CPU " + g3(cpuSeg * 1e6) + " us, link " + g3(linkSeg * 1e6) +
           " us, one frame in flight: " + g3(perFrame * 1e6) + " us per frame";
  return p;
}

void registerMcuWorkloads(Registry& r) {
  r.add(std::make_unique<McuWorkloads>(configsDir() + "/workloads/mcu/mcu.yaml"));
}

}  // namespace socsim::wl::mcu
