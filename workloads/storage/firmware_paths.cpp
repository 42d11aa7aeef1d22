#include "workloads/storage/firmware_paths.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/format.h"

namespace socsim::wl::storage {

using models::storage::Dir;
using models::storage::RequestTime;

namespace {

/// `n` requests of `bytes` on `path`, parts added to `r` under `prefix`.
double requests(const models::storage::StoragePath& path, Dir dir, std::uint64_t bytes, double n,
                TimedRun& r) {
  if (n <= 0 || bytes == 0) return 0;
  const RequestTime t = path.request(dir, bytes);
  addRequestParts(r.parts, t, n);
  return n * t.total();
}

/// Whole requests of at most `chunk` bytes covering `total` bytes.
double chunked(const models::storage::StoragePath& path, Dir dir, std::uint64_t total,
               std::uint64_t chunk, double perCommand, TimedRun& r, double* commands = nullptr) {
  if (chunk == 0 || chunk >= total) {
    if (commands) *commands = 1;
    return requests(path, dir, total, 1, r) + perCommand;
  }
  const double full = std::floor(double(total) / double(chunk));
  const std::uint64_t rest = total - static_cast<std::uint64_t>(full) * chunk;
  double s = requests(path, dir, chunk, full, r) + requests(path, dir, rest, rest ? 1 : 0, r);
  const double cmds = full + (rest ? 1 : 0);
  if (commands) *commands = cmds;
  return s + cmds * perCommand;
}

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

TimedRun ubootTransfer(const BoardPath& bp, const CoreCosts& cc, const UbootParams& u,
                       const StorageCase& c) {
  TimedRun r;
  const std::uint64_t size = c.bytes;
  const double setup = u.command_setup_instructions * cc.kernelSecondsPerInstr;
  const double maint = std::ceil(double(size) / u.cache_line_bytes) *
                       u.cache_maintenance_cycles_per_line / cc.clockHz;
  double t = setup + maint;
  r.parts.add("cpu.uboot_command", setup);
  r.parts.add("cpu.cache_maintenance", maint);
  double commands = 0;
  if (bp.mmc) {
    // A host whose U-Boot driver has no UHS/HS200 support runs the bus at high speed (SDR).
    const models::storage::StoragePath* path = bp.path.get();
    std::unique_ptr<models::MmcHost> highSpeed;
    const double capMhz = bp.mmc->host().uboot_max_clock_mhz;
    if (capMhz > 0 && bp.mmc->bus().clock_hz > capMhz * 1e6) {
      highSpeed = mmcWithBus(bp, "high-speed", capMhz);
      path = highSpeed.get();
    }
    const std::uint64_t chunk = u.mmc_max_blocks * 512;
    t += chunked(*path, c.dir, size, chunk, bp.ubootCommandSeconds, r, &commands);
    if (c.app == App::UbootFat) {
      t += requests(*path, Dir::Read, u.fat_metadata_bytes, u.fat_lookup_reads, r);
      if (c.dir == Dir::Write)
        t += requests(*path, Dir::Write, u.fat_metadata_bytes, u.fat_metadata_writes, r);
      commands += u.fat_lookup_reads + (c.dir == Dir::Write ? u.fat_metadata_writes : 0);
      t += (u.fat_lookup_reads + (c.dir == Dir::Write ? u.fat_metadata_writes : 0)) *
           bp.ubootCommandSeconds;
    }
  } else if (bp.nor) {
    // U-Boot's SPI NOR drivers move the data with the CPU (indirect FIFO reads/writes).
    auto pio = norWith(bp, "", 0, true);
    if (c.dir == Dir::Read && bp.nor->controller().dac_burst_bytes > 0 &&
        u.sf_dac_access_bytes > 0) {
      // The controller maps the flash (direct-access window): the CPU copies it out with
      // device loads, and each load is a flash read of its own (command, address, dummy
      // cycles, chip-select overhead, then the load's bytes).
      const double loads = std::ceil(double(size) / double(u.sf_dac_access_bytes));
      const double s = loads * pio->directReadSeconds(u.sf_dac_access_bytes);
      t += s;
      r.parts.add("bus.dac_reads (one flash read per CPU load)", s);
      commands = 1;
    } else if (c.dir == Dir::Read) {
      t += chunked(*pio, Dir::Read, size, u.sf_read_chunk_bytes, 0, r, &commands);
    } else {
      t += requests(*pio, Dir::Write, size, 1, r);
      commands = 1;
    }
  } else {
    t += chunked(*bp.path, c.dir, size, u.ufs_max_transfer_bytes, bp.ubootCommandSeconds, r,
                 &commands);
  }
  if (bp.ubootCommandSeconds > 0 && commands > 0)
    r.parts.add("cpu.uboot_driver", commands * bp.ubootCommandSeconds);
  // The raw block commands print a line before and after the transfer (cmd/mmc.c and
  // cmd/blk_common.c: "\nMMC read: dev # 0, block # 0, count N ... " / "\nSCSI read: device 0
  // block # 0, count N ... " and "N blocks read: OK\n"; '\n' goes out as CR LF). The ns16550
  // putc waits for an empty transmit FIFO, so the console time adds to the command's.
  if (c.app == App::Uboot && (bp.mmc || c.medium == Medium::Ufs) && u.console_baud > 0) {
    const bool rd = c.dir == Dir::Read;
    const std::uint64_t block = bp.mmc ? 512 : std::max<std::uint64_t>(u.ufs_block_bytes, 1);
    const std::string n = std::to_string((size + block - 1) / block);
    const std::string before = bp.mmc ? std::string("\r\nMMC ") + (rd ? "read" : "write") +
                                            ": dev # 0, block # 0, count " + n + " ... "
                                      : std::string("\r\nSCSI ") + (rd ? "read" : "write") +
                                            ": device 0 block # 0, count " + n + " ... ";
    const std::string after = n + " blocks " + (rd ? "read" : "written") + ": OK\r\n";
    const double console = double(before.size() + after.size()) * 10 / u.console_baud;
    t += console;
    r.parts.add("console.uart", console);
  }
  // U-Boot reports whole timer ticks.
  const double res = u.timer_resolution_ms * 1e-3;
  r.seconds = res > 0 ? std::max(res, std::round(t / res) * res) : t;
  r.note = g3(commands) + " command(s); " + g3(t * 1e3) +
           " ms before the timer's rounding";
  return r;
}

TimedRun sblStage(const BoardPath* sd, const BoardPath* ospi, const CoreCosts& cc,
                  const SblParams& s, const StorageCase& c) {
  const bool isSd = c.medium == Medium::Sd;
  const BoardPath* bp = isSd ? sd : ospi;
  if (!bp) throw NotModelled{"the board has no " + std::string(isSd ? "SD" : "OSPI") + " path"};
  auto num = [&](const char* k) {
    auto it = c.params.find(k);
    return it == c.params.end() ? 0.0 : std::strtod(it->second.c_str(), nullptr);
  };
  const std::uint64_t sblBytes = static_cast<std::uint64_t>(num("sbl_bytes"));
  const std::uint64_t appBytes = static_cast<std::uint64_t>(num("app_bytes"));
  const auto cores = splitList(c.params.count("cores") ? c.params.at("cores") : "");

  // DebugP_log waits for the UART: 8N1 is 10 bits per byte.
  auto console = [&](std::uint64_t bytes) {
    return s.console_baud > 0 ? double(bytes) * 10.0 / s.console_baud : 0.0;
  };
  auto stage = [&](const std::string& name) {
    TimedRun r;
    if (name.rfind("ROM", 0) == 0) {
      r.parts.add("rom.init", s.rom_init_ms * 1e-3);
      r.seconds = s.rom_init_ms * 1e-3;
      if (isSd) {
        auto rom = mmcWithBus(*bp, s.rom_sd_mode, s.rom_sd_clock_mhz);
        r.seconds += requests(*rom, Dir::Read, 4096, s.fat_lookup_reads, r);
        r.seconds += requests(*rom, Dir::Read, sblBytes, 1, r);
      } else {
        auto rom = norWith(*bp, s.rom_ospi_mode, s.rom_media_clock_mhz, false);
        r.seconds += requests(*rom, Dir::Read, sblBytes, 1, r);
      }
    } else if (name.find("SYSFW Load") != std::string::npos) {
      const double copy = double(s.sysfw_bytes) * cc.copySecondsPerByte;
      r.parts.add("cpu.copy", copy);
      r.parts.add("sysfw.boot", s.sysfw_boot_ms * 1e-3);
      r.seconds = copy + s.sysfw_boot_ms * 1e-3;
    } else if (name.find("System Init") != std::string::npos) {
      r.parts.add("sysfw.system_init", s.system_init_ms * 1e-3);
      r.seconds = s.system_init_ms * 1e-3;
    } else if (name.find("Board_driversOpen") != std::string::npos) {
      if (!isSd) {
        const double per = bp->path->request(Dir::Read, s.phy_tuning_pattern_bytes).total() +
                           s.phy_tuning_read_overhead_us * 1e-6;
        const double banner = console(s.ospi_banner_log_bytes);
        r.parts.add("ospi.phy_tuning", s.phy_tuning_reads * per);
        r.parts.add("console.log", banner);
        r.seconds = s.phy_tuning_reads * per + banner;
      }
    } else if (name.find("Drivers_open") != std::string::npos) {
      if (isSd) {
        const double init = bp->mmc ? bp->mmc->card().init_ms * 1e-3 : 0;
        r.parts.add("device.init", init);
        r.seconds = init;
      } else {
        r.parts.add("ospi.open", s.ospi_open_us * 1e-6);
        r.seconds = s.ospi_open_us * 1e-6;
      }
    } else if (name.find("Sciclient Get Version") != std::string::npos) {
      // One TISCI_MSG_VERSION round trip, then the version banner on the console.
      const double log = console(s.version_log_bytes);
      r.parts.add("sysfw.tisci", s.tisci_round_trip_ms * 1e-3);
      r.parts.add("console.log", log);
      r.seconds = s.tisci_round_trip_ms * 1e-3 + log;
    } else if (name.find("File read") != std::string::npos) {
      r.seconds = requests(*bp->path, Dir::Read, 4096, s.fat_lookup_reads, r) +
                  requests(*bp->path, Dir::Read, appBytes, 1, r);
    } else if (name.find("CPU Load") != std::string::npos) {
      const double n = std::max<double>(1, double(cores.size()));
      const std::uint64_t perCore = static_cast<std::uint64_t>(double(appBytes) / n);
      // Each core: the TISCI messages of Bootloader_loadCpu + Bootloader_runCpu.
      const double control = s.core_load_tisci_messages * s.tisci_round_trip_ms * 1e-3;
      double t = 0, m4f = 0;
      for (const auto& core : cores) {
        t += control;
        if (core.rfind("m4f", 0) == 0) m4f += s.m4f_init_ms * 1e-3;
      }
      if (cores.empty()) t += control;
      r.parts.add("sysfw.core_control", t);
      if (m4f > 0) r.parts.add("m4f.memory_init", m4f);
      t += m4f;
      if (isSd) {
        const double copy = double(appBytes) * cc.copySecondsPerByte;
        r.parts.add("cpu.copy", copy);
        t += copy;
      } else {
        t += requests(*bp->path, Dir::Read, perCore, n, r);
      }
      r.seconds = t;
    } else {
      throw NotModelled{"SBL stage '" + name + "' not modelled"};
    }
    return r;
  };

  if (c.stage.find("Total") == std::string::npos) return stage(c.stage);
  std::vector<std::string> stages = {"ROM", "SYSFW Load", "System Init", "Drivers_open",
                                     "Board_driversOpen", "Sciclient Get Version", "CPU Load"};
  if (isSd) stages.insert(stages.end() - 1, "File read");
  TimedRun total;
  for (const auto& st : stages) {
    TimedRun r = stage(st);
    total.seconds += r.seconds;
    total.parts.add("stage." + st, r.seconds);
  }
  total.note = "sum of " + std::to_string(stages.size()) + " modelled stages";
  return total;
}

TimedRun linuxBoot(const BoardPath& sd, const CoreCosts& cc, const LinuxBootParams& b,
                   const LinuxIoParams& io, const StorageCase& c) {
  TimedRun r;
  auto reads = [&](std::uint64_t bytes, const char* part) {
    const std::uint64_t req = std::max<std::uint64_t>(b.boot_read_request_bytes, 512);
    const double n = std::ceil(double(bytes) / double(req));
    const double dev = n * sd.path->request(Dir::Read, req).total();
    const double instr = n * (io.block_request_instructions + sd.driverRequestInstructions +
                              sd.irqsPerRequest * io.irq_instructions +
                              double(req) / double(io.page_bytes) * io.read_page_ext4_instructions);
    const double cpu = instr * cc.kernelSecondsPerInstr;
    r.parts.add(std::string(part) + ".device", dev);
    r.parts.add(std::string(part) + ".cpu_io", cpu);
    return dev + cpu;
  };
  // The boot log goes to the serial console synchronously (8N1: 10 bits per byte), whatever
  // the core's speed.
  auto console = [&](std::uint64_t bytes) {
    return b.console_baud > 0 ? double(bytes) * 10.0 / b.console_baud : 0.0;
  };
  double t = 0;
  const double kcpu = b.kernel_init_instructions * cc.kernelSecondsPerInstr;
  const double kcon = console(b.kernel_console_bytes);
  r.parts.add("kernel.cpu", kcpu);
  r.parts.add("kernel.console", kcon);
  r.parts.add("kernel.fixed_delays", b.kernel_fixed_delays_s);
  t += kcpu + kcon + b.kernel_fixed_delays_s + reads(b.shell_read_bytes, "kernel");
  if (c.stage == "full") {
    const int jobs = std::max(1, std::min(cc.linuxCores, b.userspace_parallel_jobs));
    const double ucpu = b.userspace_instructions * cc.kernelSecondsPerInstr / jobs;
    const double ucon = console(b.userspace_console_bytes);
    r.parts.add("userspace.cpu", ucpu);
    r.parts.add("userspace.console", ucon);
    r.parts.add("userspace.fixed_delays", b.userspace_fixed_delays_s);
    t += ucpu + ucon + b.userspace_fixed_delays_s + reads(b.userspace_read_bytes, "userspace");
  }
  r.seconds = t;
  r.note = c.stage == "full" ? "kernel + default root file system to the login prompt"
                             : "kernel to /bin/sh";
  return r;
}

TimedRun xipCycles(const BoardPath& ospi, const CoreCosts& cc, const XipParams& x,
                   const StorageCase& c) {
  TimedRun r;
  const bool fir = c.stage == "fir";
  const double instr = fir ? x.fir_instructions : x.memcpy_instructions;
  const double bytes = double(fir ? x.fir_code_bytes + x.fir_data_bytes
                                  : x.memcpy_code_bytes + x.memcpy_data_bytes);
  const double perInstr =
      fir && cc.firSecondsPerInstr > 0 ? cc.firSecondsPerInstr : cc.loopSecondsPerInstr;
  const double cached = instr * perInstr * cc.clockHz;
  const double lines = std::ceil(bytes / x.cache_line_bytes);
  if (!ospi.nor) throw NotModelled{"XIP needs a SPI NOR (OSPI/QSPI) path"};
  // A line fill is a hardware burst through the OSPI direct-access window (the bootloader leaves
  // the flash in DAC mode): no driver operation and no DMA, unlike the Linux/U-Boot reads.
  const double fill =
      (ospi.nor->directReadSeconds(static_cast<std::uint64_t>(x.cache_line_bytes)) +
       x.fss_latency_ns * 1e-9) *
      cc.clockHz;
  const double uncached = cached + lines * fill;
  auto it = c.params.find("caching");
  const std::string caching = it == c.params.end() ? "" : it->second;
  double cycles = cached;
  if (caching == "not-cached")
    cycles = uncached;
  else if (caching.find("not-cached-1-of") == 0)
    cycles = ((x.uncached_every - 1) * cached + uncached) / x.uncached_every;
  r.seconds = cycles;
  r.parts.add("core.compute", cached / cc.clockHz);
  if (cycles > cached) r.parts.add("flash.line_fills", (cycles - cached) / cc.clockHz);
  r.note = g3(lines) + " cache lines from flash at " + g3(fill) +
           " cycles each when not cached";
  return r;
}

TimedRun gadgetRequest(const BoardPath& usb, const BoardPath* backing, const CoreCosts& cc,
                       const LinuxIoParams& io, const StorageCase& c, double& bytesOut) {
  TimedRun r;
  if (!usb.controller || !usb.controller->usb) throw NotModelled{"no USB controller preset"};
  const models::UsbHostParams& host = *usb.controller->usb;
  // The row's speed: a high-speed test runs at 480 Mbit/s even on a super-speed port.
  double line = usb.peripheral && usb.peripheral->link_speed_mbps > 0
                    ? usb.peripheral->link_speed_mbps
                    : 480;
  if (c.stage == "high-speed") line = std::min(line, 480.0);
  if (c.stage == "super-speed" && line < 5000)
    throw NotModelled{"the board's USB controller is not super speed"};
  // The link alone: the bus protocol with an instant device behind it.
  const models::storage::SerialLinkPath path(models::UsbMassStorageHost::link(host, line, ""),
                                             instantDevice("gadget link"));
  const std::uint64_t req = path.maxRequestBytes() ? path.maxRequestBytes() : 122880;
  const RequestTime t = path.request(c.dir, req);
  const double buffers =
      std::ceil(double(req) / double(std::max<std::uint64_t>(1, host.gadget_buffer_bytes)));
  const double turn = buffers * host.gadget_request_us * 1e-6;
  const double link = t.total() + turn;
  // The backing file: f_mass_storage reads it through the page cache (readahead) in
  // gadget-buffer units and writes it back through the page cache; the host's closing
  // SYNCHRONIZE CACHE makes the gadget flush, so a write moves at the writeback rate. The
  // gadget's two buffers overlap the backing store with the link (f_mass_storage double
  // buffering): per host request, the slower of the two.
  double store = 0;
  std::string storeNote = "RAM backing store";
  if (backing) {
    StorageCase bc;
    bc.app = App::Buffered;
    bc.dir = c.dir;
    bc.fs = io.gadget_backing_fs;
    bc.bytes = host.gadget_buffer_bytes;
    const IoEstimate e = linuxBuffered(*backing, cc, io, bc);
    if (e.throughput() > 0) store = double(req) / e.throughput();
    storeNote = "backing file on " + backing->describe() + " (" + bc.fs + ", " +
                g3(e.throughput() / 1e6) + " MB/s buffered " +
                (c.dir == Dir::Read ? "read" : "write-back") + ")";
  }
  const bool storeBound = store > link;
  const std::string lOv = storeBound ? " (overlapped)" : "", sOv = storeBound ? "" : " (overlapped)";
  addRequestParts(r.parts, t, 1, lOv);
  r.parts.add("gadget.turnaround" + lOv, turn);
  if (store > 0) r.parts.add("gadget.backing_store" + sOv, store);
  r.seconds = std::max(link, store);
  bytesOut = double(req);
  r.note = path.describe() + "; host requests of " + g3(double(req) / 1024) +
           " KiB, gadget buffers of " + g3(double(host.gadget_buffer_bytes) / 1024) + " KiB; " +
           storeNote + "; " + (storeBound ? "backing-store-bound" : "link-bound");
  return r;
}

}  // namespace socsim::wl::storage
