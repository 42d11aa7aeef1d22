#include "workloads/storage/linux_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/format.h"

namespace socsim::wl::storage {

using models::storage::Dir;
using models::storage::RequestTime;

std::string g3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

double pageInstructions(const LinuxIoParams& p, const std::string& fs, Dir dir) {
  const bool rd = dir == Dir::Read;
  if (fs == "ext2") return rd ? p.read_page_ext2_instructions : p.write_page_ext2_instructions;
  if (fs == "ext4") return rd ? p.read_page_ext4_instructions : p.write_page_ext4_instructions;
  if (fs == "vfat") return rd ? p.read_page_vfat_instructions : p.write_page_vfat_instructions;
  if (fs == "ubifs") return rd ? p.read_page_ubifs_instructions : p.write_page_ubifs_instructions;
  return rd ? p.read_page_raw_instructions : p.write_page_raw_instructions;
}

void addRequestParts(Breakdown& b, const RequestTime& t, double k, const std::string& suffix) {
  if (t.device > 0) b.add("device.access" + suffix, k * t.device);
  if (t.command > 0) b.add("bus.command" + suffix, k * t.command);
  if (t.transfer > 0) b.add("bus.transfer" + suffix, k * t.transfer);
  if (t.setup > 0) b.add("controller.setup" + suffix, k * t.setup);
  if (t.erase > 0) b.add("flash.erase" + suffix, k * t.erase);
}

namespace {

std::uint64_t requestLimit(const BoardPath& bp, const LinuxIoParams& p) {
  std::uint64_t lim = p.max_sectors_bytes;
  const std::uint64_t hw = bp.path->maxRequestBytes();
  if (hw > 0) lim = std::min(lim, hw);
  return std::max<std::uint64_t>(lim, 512);
}

std::uint64_t roundUp(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

/// Interrupt work per request (threaded handlers on PREEMPT_RT).
/// Interrupt entries of word-by-word interrupt-driven SPI PIO while moving `bytes` (0 unless the
/// NOR controller takes one interrupt per word): the core's bare interrupt path per word.
double pioIrqSeconds(const BoardPath& bp, const CoreCosts& cc, std::uint64_t bytes) {
  if (!bp.nor) return 0;
  return bp.nor->pioInterrupts(bytes) * cc.irqEntryInstructions * cc.kernelPathSeconds();
}

double irqInstructions(const BoardPath& bp, const LinuxIoParams& p, bool rt) {
  return bp.irqsPerRequest * (p.irq_instructions + (rt ? p.rt_irq_thread_instructions : 0));
}

/// Reads of a host that moves one packet per DMA descriptor.
bool serialPackets(const BoardPath& bp, Dir dir) { return bp.rxPacketAtATime && dir == Dir::Read; }

/// Packets of `bytes` the driver handles one by one (0 when the DMA moves whole transfers; a
/// host with one-packet RX DMA handles only its reads packet by packet).
double packetCount(const BoardPath& bp, Dir dir, std::uint64_t bytes) {
  if (!bp.packetBytes) return 0;
  if (bp.rxPacketAtATime && dir != Dir::Read) return 0;
  return std::ceil(double(bytes) / double(bp.packetBytes));
}


// One UBIFS node of a sequential stream on the flash path. On NAND the stream costs
// bytes / page_bytes flash pages, not a whole number per node: reads keep the last page read
// (nand_do_read_ops serves an unaligned read from chip->pagecache, so the page a node shares
// with the next is read once), and UBIFS programmes through its write-buffer in whole min. I/O
// units (pages), so a node's flash bytes are a fraction of the pages the buffer flushes. NOR
// reads and programmes are byte-addressed: one request of the node's bytes.
RequestTime streamRequest(const BoardPath& bp, Dir dir, double bytes) {
  if (bp.nand) {
    const auto page = std::max<std::uint64_t>(1, bp.nand->flash().page_bytes);
    const double pages = bytes / double(page);
    RequestTime t = bp.path->request(dir, page);
    t.command *= pages;
    t.device *= pages;
    t.transfer *= pages;
    t.setup *= pages;
    t.erase *= pages;
    return t;
  }
  return bp.path->request(dir, static_cast<std::uint64_t>(std::ceil(bytes)));
}
}  // namespace

IoEstimate linuxBuffered(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                         const StorageCase& c) {
  IoEstimate e;
  const std::uint64_t lim = requestLimit(bp, p);
  const std::uint64_t buf = std::max<std::uint64_t>(c.bytes, 1);
  std::uint64_t r = c.dir == Dir::Read ? std::min(std::max(p.readahead_bytes, buf), lim) : lim;
  r = std::max<std::uint64_t>(p.page_bytes, r / p.page_bytes * p.page_bytes);
  const RequestTime t = bp.path->request(c.dir, r);
  const double pages = static_cast<double>(r) / static_cast<double>(p.page_bytes);
  const double packets = packetCount(bp, c.dir, r);
  const double irq = irqInstructions(bp, p, c.rt);
  const double fsInstr = pages * pageInstructions(p, c.fs, c.dir);
  const double sysInstr = double(r) / double(buf) * p.syscall_instructions;
  // Packets moved one at a time: each takes an interrupt and the driver's reload.
  const double serialPacketInstr =
      serialPackets(bp, c.dir) ? packets * (bp.driverPacketInstructions + p.irq_instructions) : 0;
  const double blkInstr = p.block_request_instructions + bp.driverRequestInstructions + irq +
                          (serialPacketInstr > 0 ? serialPacketInstr
                                                 : packets * bp.driverPacketInstructions);
  const double copy = double(r) * cc.copySecondsPerByte;
  const double cpuInstr = (fsInstr + sysInstr + blkInstr) * cc.kernelPathSeconds();
  const double packetTurn = serialPacketInstr > 0
                                ? serialPacketInstr * cc.kernelPathSeconds() +
                                      packets * bp.rxPacketLatencySeconds
                                : 0;
  const double turn = (bp.driverRequestInstructions + irq) * cc.kernelPathSeconds() + packetTurn;
  const double dev = t.total();
  e.bytes = double(r);
  e.cpu = cpuInstr + copy;
  e.wall = std::max(dev + turn, e.cpu);
  const bool deviceBound = dev + turn >= e.cpu;
  const std::string dOv = deviceBound ? "" : " (overlapped)", cOv = deviceBound ? " (overlapped)" : "";
  addRequestParts(e.parts, t, 1, dOv);
  e.parts.add("cpu.driver_turnaround", turn - packetTurn);  // on the critical path either way
  if (packetTurn > 0) e.parts.add("cpu.packet_reload (one packet per DMA descriptor)", packetTurn);
  if (bp.path->dmaSeconds(c.dir, r) > 0)
    e.parts.add("controller.dma (overlapped)", bp.path->dmaSeconds(c.dir, r));
  e.parts.add("cpu.fs_page_cache" + cOv, (fsInstr + sysInstr) * cc.kernelPathSeconds());
  e.parts.add("cpu.block_driver_irq" + cOv,
              (blkInstr - bp.driverRequestInstructions - irq - serialPacketInstr) *
                  cc.kernelPathSeconds());
  e.parts.add("cpu.copy" + cOv, copy);
  e.note = deviceBound ? "device-bound" : "CPU-bound";
  e.note += "; " + g3(double(r) / 1024) + " KiB requests (" +
            (c.dir == Dir::Read ? "readahead" : "writeback") + "), device " +
            g3(dev * 1e6) + " us, CPU " + g3(e.cpu * 1e6) + " us per request";
  return e;
}

IoEstimate linuxFio(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                    const StorageCase& c) {
  IoEstimate e;
  const std::uint64_t lim = requestLimit(bp, p);
  const std::uint64_t bs = std::max<std::uint64_t>(c.bytes, 512);
  const double k = std::ceil(double(bs) / double(lim));
  const std::uint64_t req = roundUp(static_cast<std::uint64_t>(std::ceil(double(bs) / k)), 512);
  const RequestTime t = bp.path->request(c.dir, req);
  const double irq = irqInstructions(bp, p, c.rt);
  const double packets = packetCount(bp, c.dir, req);
  const double perReq =
      p.block_request_instructions + bp.driverRequestInstructions + irq +
      packets * (bp.driverPacketInstructions + (serialPackets(bp, c.dir) ? p.irq_instructions : 0));
  const double instr =
      p.fio_io_instructions + k * perReq + (c.fs == "raw" ? 0 : p.direct_io_fs_instructions);
  e.bytes = double(bs);
  // fio's own loop runs at the measured cost; the kernel's share at the release's path length.
  e.cpu = p.fio_io_instructions * cc.kernelSecondsPerInstr +
          (instr - p.fio_io_instructions) * cc.kernelPathSeconds();
  // Device concurrency: I/Os in flight the device works on together.
  const int qd = std::max(1, bp.queueDepth);
  const int m = std::max(1, std::min(p.fio_iodepth, qd));
  // Device time that holds the link (an MMC write's DAT0 busy) is serial with the transfers
  // however many I/Os the device has queued.
  const bool held = bp.path->deviceTimeHoldsLink(c.dir);
  const double serial = k * (t.command + t.transfer + (held ? t.device : 0));
  const double dev = std::max(serial, k * t.total() / m);
  // Packets moved one at a time (one-packet RX DMA) serialize with the link whatever the depth.
  const double packetTurn =
      serialPackets(bp, c.dir)
          ? k * packets *
                ((bp.driverPacketInstructions + p.irq_instructions) * cc.kernelPathSeconds() +
                 bp.rxPacketLatencySeconds)
          : 0;
  const double turn =
      (m == 1 ? k * (bp.driverRequestInstructions + irq) * cc.kernelPathSeconds() : 0) +
      packetTurn;
  e.wall = std::max(dev + turn, e.cpu);
  const bool deviceBound = dev + turn >= e.cpu;
  const std::string dOv = deviceBound ? "" : " (overlapped)", cOv = deviceBound ? " (overlapped)" : "";
  if (m > 1 && serial > k * t.total() / m) {
    e.parts.add("bus.command" + dOv, k * t.command);
    e.parts.add("bus.transfer" + dOv, k * t.transfer);
    if (held)
      e.parts.add("device.busy (holds the link)" + dOv, k * t.device);
    else
      e.parts.add("device.access (overlapped in the device queue)", k * t.device / m);
  } else {
    addRequestParts(e.parts, t, k / m, dOv);
  }
  if (turn > 0) e.parts.add("cpu.driver_turnaround" + dOv, turn);
  // Every part is listed, zero or not, so an fio row's breakdown always shows device, bus,
  // DMA, file-system CPU and copy time.
  e.parts.add("controller.dma (overlapped)", k * bp.path->dmaSeconds(c.dir, req));
  const double fsCpu = (c.fs == "raw" ? 0 : p.direct_io_fs_instructions) * cc.kernelPathSeconds();
  e.parts.add("cpu.fs_extent_map" + cOv, fsCpu);
  e.parts.add("cpu.fio_syscalls" + cOv, p.fio_io_instructions * cc.kernelSecondsPerInstr);  // fio's loop + libaio
  e.parts.add("cpu.block_driver_irq" + cOv, k * perReq * cc.kernelPathSeconds());
  // O_DIRECT: the controller's DMA moves the data into the user buffer; no CPU copy.
  e.parts.add("cpu.copy (direct I/O: none)", 0);
  e.note = deviceBound ? "device-bound" : "CPU-bound";
  e.note += "; " + g3(k) + " request(s) of " + g3(double(req) / 1024) +
            " KiB per I/O, " + std::to_string(m) + " I/O(s) overlapped in the device";
  return e;
}

IoEstimate linuxUbifs(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                      const StorageCase& c) {
  IoEstimate e;
  const double page = double(p.page_bytes);
  const std::uint64_t node = p.page_bytes + p.ubifs_node_header_bytes;
  const double buf = double(std::max<std::uint64_t>(c.bytes, 1));
  const double sys = page / buf * p.syscall_instructions;
  const double copy = page * cc.copySecondsPerByte;
  e.bytes = page;
  if (c.dir == Dir::Read) {
    const RequestTime t = streamRequest(bp, Dir::Read, double(node));
    const double instr = p.read_page_ubifs_instructions + bp.driverRequestInstructions +
                         bp.irqsPerRequest * p.irq_instructions + sys;
    const double loop = p.ubifs_crc_instructions_per_byte * double(node);
    // The MTD read sleeps until the controller's DMA completion interrupt wakes it.
    const double wait = bp.irqsPerRequest > 0 ? cc.syncWaitInstructions * cc.kernelPathSeconds() : 0;
    // ubifs_decompress copies the node's data into the page, then the read copies it out.
    const double copies = 2 * copy;
    const double cpu =
        instr * cc.kernelPathSeconds() + loop * cc.loopSecondsPerInstr + wait + copies;
    // The CPU is busy through the flash read when it moves the data or polls (NAND, PIO NOR).
    double busy = 0;
    if (bp.nand && bp.nand->controller().cpu_moves_data) busy = t.total();
    if (bp.nor) busy = bp.nor->pioSeconds(node);
    const double wordIrqs = pioIrqSeconds(bp, cc, node);
    e.wall = t.total() + cpu + wordIrqs;
    e.cpu = cpu + busy + wordIrqs;
    addRequestParts(e.parts, t);
    if (wordIrqs > 0) e.parts.add("cpu.pio_word_irqs", wordIrqs);
    e.parts.add("cpu.ubifs_mtd", instr * cc.kernelPathSeconds());
    if (wait > 0) e.parts.add("cpu.completion_sleep_wake", wait);
    e.parts.add("cpu.crc", loop * cc.loopSecondsPerInstr);
    e.parts.add("cpu.copy (node to page, page to user)", copies);
    e.note = "UBIFS readpage, one " + std::to_string(node) + "-byte node per page";
    return e;
  }
  const double flashBytes = double(node) * p.ubifs_write_amplification;
  RequestTime t = streamRequest(bp, Dir::Write, flashBytes);
  double eraseUnit = 0, eraseTime = 0;
  if (bp.nor) {
    eraseUnit = double(bp.nor->flash().sector_bytes);
    eraseTime = bp.nor->eraseSeconds(bp.nor->flash().sector_bytes);
  } else if (bp.nand) {
    eraseUnit = double(bp.nand->flash().block_bytes);
    eraseTime = bp.nand->eraseSeconds(bp.nand->flash().block_bytes);
  }
  t.erase = eraseUnit > 0 ? eraseTime * flashBytes / eraseUnit : 0;
  const double ops = bp.nor ? std::ceil(flashBytes / double(bp.nor->flash().page_bytes)) : 1;
  const double instr =
      p.write_page_ubifs_instructions + ops * bp.driverRequestInstructions + sys;
  const double loop =
      (p.ubifs_compress_instructions_per_byte + p.ubifs_crc_instructions_per_byte) * page;
  const double cpu = instr * cc.kernelPathSeconds() + loop * cc.loopSecondsPerInstr + copy;
  const double wordIrqs =
      pioIrqSeconds(bp, cc, static_cast<std::uint64_t>(std::ceil(flashBytes)));
  e.wall = t.total() + cpu + wordIrqs;
  e.cpu = cpu + t.total() + wordIrqs;  // programme and erase are polled
  addRequestParts(e.parts, t);
  if (wordIrqs > 0) e.parts.add("cpu.pio_word_irqs", wordIrqs);
  e.parts.add("cpu.ubifs_mtd", instr * cc.kernelPathSeconds());
  e.parts.add("cpu.compress_crc", loop * cc.loopSecondsPerInstr);
  e.parts.add("cpu.copy", copy);
  e.note = "UBIFS write, " + g3(flashBytes) + " flash bytes per page (programme and "
           "erase polled)";
  return e;
}

IoEstimate linuxRawFlashRead(const BoardPath& bp, const CoreCosts& cc, const LinuxIoParams& p,
                             const StorageCase& c) {
  IoEstimate e;
  (void)c;
  std::uint64_t chunk = 65536;
  if (bp.nor) chunk = std::max<std::uint64_t>(bp.nor->flash().sector_bytes, 4096);
  if (bp.nand) chunk = std::max<std::uint64_t>(bp.nand->flash().block_bytes, 4096);
  const RequestTime t = bp.path->request(Dir::Read, chunk);
  const double instr = p.syscall_instructions + bp.driverRequestInstructions +
                       bp.irqsPerRequest * p.irq_instructions;
  const double copy = double(chunk) * cc.copySecondsPerByte;
  const double wait = bp.irqsPerRequest > 0 ? cc.syncWaitInstructions * cc.kernelPathSeconds() : 0;
  const double cpu = instr * cc.kernelPathSeconds() + wait + copy;
  double busy = bp.nor ? bp.nor->pioSeconds(chunk) : 0;
  if (bp.nand && bp.nand->controller().cpu_moves_data) busy = t.total();
  const double wordIrqs = pioIrqSeconds(bp, cc, chunk);
  e.bytes = double(chunk);
  e.wall = t.total() + cpu + wordIrqs;
  e.cpu = cpu + busy + wordIrqs;
  addRequestParts(e.parts, t);
  if (wordIrqs > 0) e.parts.add("cpu.pio_word_irqs", wordIrqs);
  e.parts.add("cpu.mtd_syscall", instr * cc.kernelPathSeconds());
  if (wait > 0) e.parts.add("cpu.completion_sleep_wake", wait);
  e.parts.add("cpu.copy", copy);
  e.note = "raw MTD read in " + g3(double(chunk) / 1024) + " KiB operations";
  return e;
}

}  // namespace socsim::wl::storage
