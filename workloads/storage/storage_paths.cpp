#include "workloads/storage/storage_paths.h"

#include <algorithm>
#include <cmath>

#include "models/peripherals/pcie/pcie_nvme.h"
#include "models/peripherals/sata/ahci.h"
#include "models/peripherals/ufs/ufs_host.h"
#include "workloads/workload.h"

namespace socsim::wl::storage {

namespace {

std::vector<std::string> ipsOf(Medium m) {
  switch (m) {
    case Medium::Sd: return {"mmcsd"};
    case Medium::Emmc: return {"emmc"};
    case Medium::NorOspi: return {"ospi", "qspi"};
    case Medium::NorSpi: return {"mcspi", "spi"};
    case Medium::Nand: return {"gpmc", "aemif"};
    case Medium::Sata:
    case Medium::Msata: return {"sata"};
    case Medium::UsbHost:
    case Medium::UsbGadget: return {"usb"};
    case Medium::Ufs: return {"ufs"};
    case Medium::Nvme: return {"pcie"};
  }
  return {};
}

[[noreturn]] void missing(const soc::BoardConfig& b, const std::string& what) {
  throw NotModelled{"board " + b.board.name + ": " + what};
}

}  // namespace

std::string BoardPath::describe() const {
  return (peripheral ? peripheral->instance + ": " : std::string()) + (path ? path->describe() : "");
}

models::storage::StorageDeviceParams instantDevice(const std::string& name) {
  models::storage::StorageDeviceParams d;
  d.name = name;
  d.read_mbps = 0;
  d.write_mbps = 0;
  d.read_latency_us = 0;
  d.write_latency_us = 0;
  return d;
}

BoardPath makeBoardPath(const soc::BoardConfig& board, const StorageData& data, Medium medium) {
  BoardPath bp;
  const auto ips = ipsOf(medium);
  std::vector<const soc::PeripheralParams*> cands;
  for (const auto& p : board.peripherals)
    if (std::find(ips.begin(), ips.end(), p.ip) != ips.end()) cands.push_back(&p);
  if (cands.empty())
    missing(board, std::string("no ") + mediumName(medium) + " peripheral (ip " + ips[0] +
                       ") in the board config");
  // Pick the instance whose device fits the medium (SATA HDD vs mSATA SSD; a NOR on McSPI).
  for (const auto* p : cands) {
    const DevicePreset* d = data.deviceFor(p->device);
    if (medium == Medium::Sata && !(d && d->block && d->block->kind == "hdd")) continue;
    if (medium == Medium::Msata && !(d && d->block && d->block->kind == "ssd")) continue;
    if (medium == Medium::NorSpi && !(d && d->nor)) continue;
    bp.peripheral = p;
    bp.device = d;
    break;
  }
  if (!bp.peripheral)
    missing(board, std::string("no ") + mediumName(medium) +
                       " peripheral whose 'device' names a matching device preset");
  const soc::PeripheralParams& per = *bp.peripheral;
  bp.controller = data.controllerFor(per);
  if (!bp.controller)
    missing(board, "no controller rule in configs/workloads/storage/controllers.yaml for ip '" +
                       per.ip + "' version '" + per.version + "'");
  const bool gadget = medium == Medium::UsbGadget;
  if (!bp.device && !gadget)
    missing(board, "peripheral " + per.instance + " device '" + per.device +
                       "' has no preset in configs/components/peripherals/devices/");

  const ControllerPreset& c = *bp.controller;
  auto needBlock = [&]() -> const models::storage::StorageDeviceParams& {
    if (!bp.device || !bp.device->block)
      missing(board, "device '" + per.device + "' of " + per.instance +
                         " is not a block device preset");
    return *bp.device->block;
  };
  if (c.mmc) {
    const auto& card = needBlock();
    models::MmcBus bus;
    bus.clock_hz = (per.clock_mhz > 0 ? per.clock_mhz : 25) * 1e6;
    bus.width_bits = per.bus_width_bits > 0 ? per.bus_width_bits : 4;
    bus.ddr = models::mmcModeIsDdr(per.mode);
    auto m = std::make_unique<models::MmcHost>(*c.mmc, bus, card);
    bp.mmc = m.get();
    bp.path = std::move(m);
    bp.driverRequestInstructions = c.mmc->driver_request_instructions;
    bp.irqsPerRequest = c.mmc->irqs_per_request;
    bp.ubootCommandSeconds = c.mmc->uboot_command_us * 1e-6;
    bp.queueDepth = std::max(1, std::min(card.queue_depth, c.mmc->command_queue_slots));
  } else if (c.spiNor) {
    if (!bp.device || !bp.device->nor)
      missing(board, "device '" + per.device + "' of " + per.instance + " is not a NOR preset");
    auto o = std::make_unique<models::OspiController>(
        *c.spiNor, models::spiBusFromMode(per.mode, per.clock_mhz, per.bus_width_bits),
        *bp.device->nor);
    bp.nor = o.get();
    bp.path = std::move(o);
    bp.driverRequestInstructions = c.spiNor->driver_op_instructions;
    bp.irqsPerRequest = c.spiNor->dma_mbps > 0 ? 1 : 0;
  } else if (c.nand) {
    if (!bp.device || !bp.device->nand)
      missing(board, "device '" + per.device + "' of " + per.instance + " is not a NAND preset");
    // A board whose boot loader programs the chip-select timing (and whose device tree leaves
    // it alone) sets the access cycles in interface clocks: they replace the preset's times.
    models::NandControllerParams ctl = *c.nand;
    if (per.clock_mhz > 0 && per.read_cycle_clocks > 0)
      ctl.read_cycle_ns = per.read_cycle_clocks * 1e3 / per.clock_mhz;
    if (per.clock_mhz > 0 && per.write_cycle_clocks > 0)
      ctl.write_cycle_ns = per.write_cycle_clocks * 1e3 / per.clock_mhz;
    auto n = std::make_unique<models::NandController>(ctl, *bp.device->nand, per.bus_width_bits);
    bp.nand = n.get();
    bp.path = std::move(n);
    bp.driverRequestInstructions = c.nand->driver_page_instructions;
    bp.irqsPerRequest = 0;
  } else if (c.ufs) {
    bp.path = std::make_unique<models::UfsHost>(
        *c.ufs, per.link_speed_mbps > 0 ? per.link_speed_mbps : 5830,
        per.lanes > 0 ? per.lanes : 1, needBlock());
    bp.driverRequestInstructions = c.ufs->driver_request_instructions;
    bp.irqsPerRequest = c.ufs->irqs_per_request;
    bp.ubootCommandSeconds = c.ufs->uboot_command_us * 1e-6;
  } else if (c.ahci) {
    bp.path = std::make_unique<models::AhciController>(*c.ahci, per.link_speed_mbps, needBlock());
    bp.driverRequestInstructions = c.ahci->driver_request_instructions;
    bp.irqsPerRequest = c.ahci->irqs_per_request;
  } else if (c.usb) {
    auto u = std::make_unique<models::UsbMassStorageHost>(
        *c.usb, per.link_speed_mbps, gadget ? instantDevice("gadget link") : needBlock());
    bp.usb = u.get();
    bp.packetBytes = static_cast<std::uint64_t>(
        models::UsbMassStorageHost::maxPacketBytes(per.link_speed_mbps));
    bp.path = std::move(u);
    bp.driverRequestInstructions = c.usb->driver_request_instructions;
    bp.driverPacketInstructions = c.usb->driver_packet_instructions;
    bp.rxPacketAtATime = c.usb->rx_one_packet_per_dma && !gadget;
    bp.rxPacketLatencySeconds = c.usb->rx_packet_latency_ns * 1e-9;
    bp.irqsPerRequest = c.usb->irqs_per_request;
  } else if (c.pcie) {
    bp.path = std::make_unique<models::PcieNvme>(
        *c.pcie, (per.link_speed_mbps > 0 ? per.link_speed_mbps : 8000) / 1000.0,
        per.lanes > 0 ? per.lanes : 1, needBlock());
    bp.driverRequestInstructions = c.pcie->driver_request_instructions;
    bp.irqsPerRequest = c.pcie->irqs_per_request;
  } else {
    missing(board, "controller preset " + c.file + " has no usable group");
  }
  // Block devices behind a non-MMC host (UFS, AHCI NCQ, NVMe, USB) queue as deep as the device.
  if (!c.mmc && bp.device && bp.device->block) bp.queueDepth = std::max(1, bp.device->block->queue_depth);
  return bp;
}

std::unique_ptr<models::MmcHost> mmcWithBus(const BoardPath& bp, const std::string& mode,
                                            double clockMhz) {
  models::MmcBus bus = bp.mmc->bus();
  bus.clock_hz = clockMhz * 1e6;
  bus.ddr = models::mmcModeIsDdr(mode);
  return std::make_unique<models::MmcHost>(bp.mmc->host(), bus, bp.mmc->card());
}

std::unique_ptr<models::OspiController> norWith(const BoardPath& bp, const std::string& mode,
                                                double clockMhz, bool pio) {
  models::SpiNorControllerParams ctl = bp.nor->controller();
  if (pio) ctl.dma_mbps = 0;
  models::SpiBus bus = mode.empty() ? bp.nor->bus()
                                    : models::spiBusFromMode(mode, clockMhz,
                                                             bp.peripheral->bus_width_bits);
  if (clockMhz > 0) bus.clock_hz = clockMhz * 1e6;
  return std::make_unique<models::OspiController>(ctl, bus, bp.nor->flash());
}

}  // namespace socsim::wl::storage
