#include "workloads/storage/storage_workloads.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/error.h"
#include "common/format.h"
#include "models/cpu/core_memory.h"
#include "soc/config/board_config.h"
#include "soc/platform.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/os/kernel_path_params.h"

namespace socsim::wl::storage {

using models::storage::Dir;

StorageWorkloads::StorageWorkloads(std::string dir) : dir_(std::move(dir)) {}

bool StorageWorkloads::covers(const Query& q) const { return parseCase(q).has_value(); }

const StorageData& StorageWorkloads::data() {
  if (!data_ && loadError_.empty()) {
    try {
      data_ = std::make_unique<StorageData>(StorageData::load(dir_));
    } catch (const InputError& e) {
      loadError_ = e.what();
    } catch (const std::exception& e) {
      loadError_ = std::string("loading storage data: ") + e.what();
    }
  }
  if (!data_) throw InputError(dir_, 0, "", loadError_);
  return *data_;
}

double isaPathFactor(const soc::BoardConfig& b, const os::KernelPathParams& kp) {
  return b.mainCluster().core.isa == "armv8-a" ? 1.0 : kp.aarch32_path_factor;
}

double syncWaitInstructions(const soc::BoardConfig& b, const os::KernelPathParams& kp) {
  return isaPathFactor(b, kp) *
         (kp.block_instructions + 2 * kp.switch_instructions + kp.wakeup_instructions);
}

CoreCosts linuxReleaseCosts(const CoreCosts& cc, const soc::BoardConfig& b,
                            const soc::SoftwareParams& sw) {
  CoreCosts out = cc;
  const os::KernelPathParams& kp = sw.kernel_paths;
  out.kernelPathFactor = kp.stack_path_factor;
  out.syncWaitInstructions = syncWaitInstructions(b, kp);
  out.irqEntryInstructions = isaPathFactor(b, kp) * kp.irq_instructions;
  return out;
}

CoreCosts measureCoreCosts(RunContext& ctx, const StorageData& data) {
  const soc::BoardConfig& b = ctx.board();
  const soc::ClusterConfig& main = b.mainCluster();
  CoreCosts cc;
  cc.clockHz = main.core.clock_mhz * 1e6;
  // Cores the guides' CPU load is averaged over: the main cluster and later clusters of the
  // same role and core type (the cores Linux runs on).
  int cores = 0;
  bool seen = false;
  for (const auto& c : b.clusters) {
    if (&c == &main) seen = true;
    if (&c == &main || (seen && c.info.role == main.info.role && c.core.type == main.core.type))
      cores += c.info.cores;
  }
  cc.linuxCores = std::max(1, cores);
  const cpu::ProfileRun k = cpu::runProfile(ctx, data.kernelProfile, 1);
  const double ipuK = data.kernelProfile.instructionsPerUnit("armv8-a");
  cc.kernelSecondsPerInstr = k.cyclesPerUnit / ipuK / cc.clockHz;
  cc.kernelIpc = k.stats.ipc();
  cc.syncWaitInstructions = syncWaitInstructions(b, b.software.kernel_paths);
  cc.irqEntryInstructions = isaPathFactor(b, b.software.kernel_paths) *
                            b.software.kernel_paths.irq_instructions;
  const cpu::ProfileRun l = cpu::runProfile(ctx, data.loopProfile, 1);
  cc.loopSecondsPerInstr = l.cyclesPerUnit / data.loopProfile.instructionsPerUnit("armv8-a") /
                           cc.clockHz;
  // Copy of data a DMA just wrote (not in any cache) into a user buffer.
  soc::Platform& p = ctx.platform();
  constexpr std::uint64_t kBytes = 1 << 20;
  p.flushCaches();
  p.resetStats();
  const auto run = p.run(0, [&](models::CoreMemory& c) { c.memcpy(0x30000000ull, 0x20000000ull, kBytes); });
  cc.copySecondsPerByte = run.seconds / double(kBytes);
  p.flushCaches();
  return cc;
}

const CoreCosts& StorageWorkloads::coreCosts(RunContext& ctx) {
  const auto& b = ctx.board();
  std::string key = b.file + "|";
  for (const auto& o : b.overrides) key += o + ";";
  auto it = costs_.find(key);
  if (it != costs_.end()) return it->second;
  return costs_.emplace(key, measureCoreCosts(ctx, data())).first->second;
}

namespace {

void mergeParts(Prediction& out, const Breakdown& parts) {
  for (const auto& [name, s] : parts.seconds) out.breakdown.add(name, s);
}

double valueOf(const StorageCase& c, double bytes, double seconds) {
  switch (c.metric) {
    case Metric::MBps: return seconds > 0 ? bytes / seconds / 1e6 : 0;
    case Metric::KBps: return seconds > 0 ? bytes / 1024 / seconds : 0;
    case Metric::Milliseconds: return seconds * 1e3;
    case Metric::Seconds: return seconds;
    default: return seconds;
  }
}

}  // namespace

Prediction StorageWorkloads::predict(RunContext& ctx, const Query& q) {
  const StorageData& d = data();
  auto parsed = parseCase(q);
  if (!parsed) throw NotModelled{"not a storage row"};
  const StorageCase& c = *parsed;
  const soc::BoardConfig& board = ctx.board();
  Prediction out;

  if (c.app == App::Sbl) {
    std::unique_ptr<BoardPath> sd, ospi;
    try {
      sd = std::make_unique<BoardPath>(makeBoardPath(board, d, Medium::Sd));
    } catch (const NotModelled&) {
    }
    try {
      ospi = std::make_unique<BoardPath>(makeBoardPath(board, d, Medium::NorOspi));
    } catch (const NotModelled&) {
    }
    const CoreCosts& cc = coreCosts(ctx);
    TimedRun r = sblStage(sd.get(), ospi.get(), cc, d.sbl, c);
    out.value = valueOf(c, 0, r.seconds);
    mergeParts(out, r.parts);
    out.note = r.note;
    return out;
  }

  BoardPath bp = makeBoardPath(board, d, c.medium);
  // A release whose Linux leaves a UHS-I card at 3.3 V runs the SD bus at high speed.
  if (c.medium == Medium::Sd && bp.mmc && (c.app == App::Buffered || c.app == App::Fio) &&
      !board.softwareFor(q.source).sd_uhs) {
    const double hsHz = bp.mmc->host().high_speed_clock_mhz * 1e6;
    if (bp.mmc->bus().clock_hz > hsHz || bp.mmc->bus().ddr) {
      auto hs = mmcWithBus(bp, "high-speed", std::min(hsHz, bp.mmc->bus().clock_hz) / 1e6);
      bp.mmc = hs.get();
      bp.path = std::move(hs);
    }
  }
  // U-Boot, XIP and the boot's own work run at the measured core costs; the Linux I/O paths
  // run as long as the row's release makes its kernel paths.
  const CoreCosts& base = coreCosts(ctx);
  const bool linuxIo = c.app == App::Buffered || c.app == App::Fio ||
                       c.app == App::RawFlashRead || c.app == App::Gadget;
  const CoreCosts cc =
      linuxIo ? linuxReleaseCosts(base, board, board.softwareFor(q.source)) : base;
  const std::string core = "; core: kernel-path IPC " + g3(cc.kernelIpc) + " (" +
                           g3(cc.kernelSecondsPerInstr * 1e9) + " ns/instruction), cold copy " +
                           g3(1e-6 / cc.copySecondsPerByte) + " MB/s";
  auto finish = [&](double bytes, double seconds, const Breakdown& parts, const std::string& note) {
    out.value = valueOf(c, bytes, seconds);
    mergeParts(out, parts);
    out.note = bp.describe() + (note.empty() ? "" : "; " + note) + core;
  };

  switch (c.app) {
    case App::Buffered:
    case App::Fio:
    case App::RawFlashRead: {
      const bool flash = c.medium == Medium::NorOspi || c.medium == Medium::NorSpi ||
                         c.medium == Medium::Nand;
      IoEstimate e;
      if (c.app == App::RawFlashRead)
        e = linuxRawFlashRead(bp, cc, d.linux, c);
      else if (flash)
        e = linuxUbifs(bp, cc, d.linux, c);
      else if (c.app == App::Fio)
        e = linuxFio(bp, cc, d.linux, c);
      else
        e = linuxBuffered(bp, cc, d.linux, c);
      if (c.metric == Metric::CpuLoad) {
        out.value = e.loadPercent(cc.linuxCores);
        mergeParts(out, e.parts);
        out.note = bp.describe() + "; " + e.note + "; CPU " + g3(e.cpu * 1e6) +
                   " us per " + g3(e.wall * 1e6) + " us over " +
                   std::to_string(cc.linuxCores) + " core(s)" + core;
        return out;
      }
      finish(e.bytes, e.wall, e.parts, e.note);
      return out;
    }
    case App::Uboot:
    case App::UbootFat: {
      TimedRun r = ubootTransfer(bp, cc, d.uboot, c);
      finish(double(c.bytes), r.seconds, r.parts, r.note);
      return out;
    }
    case App::LinuxBoot: {
      TimedRun r = linuxBoot(bp, cc, d.boot, d.linux, c);
      finish(0, r.seconds, r.parts, r.note);
      return out;
    }
    case App::Xip: {
      // The FIR call is float code: its own profile on the board's core (VFP latencies).
      CoreCosts xc = cc;
      if (c.stage == "fir") {
        const cpu::ProfileRun f = cpu::runProfile(ctx, d.firProfile, 1);
        xc.firSecondsPerInstr =
            f.cyclesPerUnit / d.firProfile.instructionsPerUnit("armv8-a") / cc.clockHz;
      }
      TimedRun r = xipCycles(bp, xc, d.xip, c);
      out.value = r.seconds;  // cycles
      mergeParts(out, r.parts);
      out.note = bp.describe() + "; " + r.note;
      return out;
    }
    case App::Gadget: {
      double bytes = 0;
      std::unique_ptr<BoardPath> backing;
      const std::string& store = d.linux.gadget_backing_store;
      if (store == "sd" || store == "emmc")
        backing = std::make_unique<BoardPath>(
            makeBoardPath(board, d, store == "sd" ? Medium::Sd : Medium::Emmc));
      else if (store != "ram")
        throw InputError(dir_ + "/linux_io.yaml", 0, "linux_io.gadget_backing_store",
                         "unknown backing store '" + store + "' (sd, emmc or ram)");
      TimedRun r = gadgetRequest(bp, backing.get(), cc, d.linux, c, bytes);
      finish(bytes, r.seconds, r.parts, r.note);
      return out;
    }
    case App::Sbl:
      break;
  }
  throw NotModelled{"storage case not modelled"};
}

void registerStorageWorkloads(Registry& r) {
  r.add(std::make_unique<StorageWorkloads>(defaultStorageDir()));
}

}  // namespace socsim::wl::storage
