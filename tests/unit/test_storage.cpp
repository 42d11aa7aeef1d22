// Storage and boot paths (issue 7): each controller + device model against its closed form,
// the interface rate as an upper bound, request-size amortization, the Linux/U-Boot/SBL/XIP
// compositions, the data files, board coverage of the measured rows, and determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "calibration/dataset/measured_row.h"
#include "models/peripherals/mmc/mmc_host.h"
#include "models/peripherals/nand/nand_controller.h"
#include "models/peripherals/ospi/ospi_controller.h"
#include "models/peripherals/pcie/pcie_nvme.h"
#include "models/peripherals/sata/ahci.h"
#include "models/peripherals/ufs/ufs_host.h"
#include "models/peripherals/usb/usb_mass_storage.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"
#include "validation/board_runner.h"
#include "workloads/storage/firmware_paths.h"
#include "workloads/storage/linux_io.h"
#include "workloads/storage/storage_workloads.h"

using namespace socsim;
using namespace socsim::wl::storage;
using models::storage::Dir;
using models::storage::StorageDeviceParams;

namespace {

const std::vector<std::uint64_t> kSizes = {512,    4096,    65536,    131072,
                                           524288, 1048576, 4194304, 33554432};

StorageDeviceParams device(double rd, double wr, double rlat, double wlat, int qd = 1) {
  StorageDeviceParams d;
  d.name = "test device";
  d.kind = "sd";
  d.read_mbps = rd;
  d.write_mbps = wr;
  d.read_latency_us = rlat;
  d.write_latency_us = wlat;
  d.queue_depth = qd;
  return d;
}

/// Throughput of one request of n bytes on an idle path.
double rateOf(const models::storage::StoragePath& p, Dir d, std::uint64_t n) {
  return double(n) / p.request(d, n).total();
}

/// No request beats the interface, and bigger requests amortize the fixed part.
void checkBoundsAndAmortization(const models::storage::StoragePath& p, const std::string& what) {
  for (Dir d : {Dir::Read, Dir::Write}) {
    double last = 0;
    for (auto n : kSizes) {
      const double r = rateOf(p, d, n);
      EXPECT_LE(r, p.linkBytesPerSecond(d) * (1 + 1e-12)) << what << " " << n;
      EXPECT_GE(r, last * (1 - 1e-12)) << what << " " << n;
      last = r;
    }
  }
}

CoreCosts fakeCosts() {
  CoreCosts cc;
  cc.clockHz = 1e9;
  cc.linuxCores = 2;
  cc.kernelSecondsPerInstr = 1e-9;
  cc.loopSecondsPerInstr = 0.5e-9;
  cc.copySecondsPerByte = 0.5e-9;
  return cc;
}

const StorageData& data() {
  static const StorageData d = StorageData::load(defaultStorageDir());
  return d;
}

soc::BoardConfig board(const std::string& name) {
  return soc::loadBoard(std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/" + name + ".yaml");
}

/// An octal xSPI NOR: 2-byte opcodes, 4-byte addresses, 20 dummy clocks.
models::NorFlashParams octalNor() {
  models::NorFlashParams f;
  f.name = "nor";
  f.opcode_bytes = 2;
  f.address_bytes = 4;
  f.read_dummy_cycles = 20;
  return f;
}

/// A UBIFS read of 256 KiB buffers from an OSPI NOR.
StorageCase ubifsRead() {
  StorageCase c;
  c.medium = Medium::NorOspi;
  c.dir = Dir::Read;
  c.fs = "ubifs";
  c.bytes = 262144;
  return c;
}

}  // namespace

// --- controller + device models against their closed forms -------------------------------

// SD SDR104, 4 lines at 208 MHz: a 512-byte block is 1024 data + 16 CRC + 2 start/end clocks.
TEST(MmcHost, BusRateAndRequestTimeFollowTheSpecFraming) {
  models::MmcHostParams h;
  h.dma_mbps = 1e5;
  models::MmcBus bus{208e6, 4, false};
  const auto card = device(1e5, 1e5, 300, 1000);
  models::MmcHost m(h, bus, card);
  EXPECT_DOUBLE_EQ(m.linkBytesPerSecond(Dir::Read), 512 * 208e6 / 1042);
  EXPECT_DOUBLE_EQ(m.linkBytesPerSecond(Dir::Write), 512 * 208e6 / (1042 + h.write_block_gap_clocks));
  // T(n) = commands x (command clocks / f + host latency) + access latency + n / rate + descriptors
  for (auto n : kSizes) {
    const double cmd = 2 * (136 / 208e6 + 1e-6);
    const double desc = std::ceil(double(n) / 65536) * 200e-9;
    EXPECT_NEAR(m.request(Dir::Read, n).total(),
                cmd + 300e-6 + double(n) / m.linkBytesPerSecond(Dir::Read) + desc, 1e-12);
  }
  // DDR halves the data clocks, not the CRC.
  models::MmcHost ddr(h, models::MmcBus{200e6, 8, true}, card);
  EXPECT_DOUBLE_EQ(ddr.linkBytesPerSecond(Dir::Read), 512 * 200e6 / (256 + 18));
  // The card's own rate caps the data phase.
  models::MmcHost slow(h, bus, device(20, 10, 300, 1000));
  EXPECT_NEAR(slow.request(Dir::Write, 1 << 20).transfer, double(1 << 20) / 10e6, 1e-12);
  checkBoundsAndAmortization(m, "sdr104");
  checkBoundsAndAmortization(slow, "slow card");
}

// The host's buffer-drain gap stands between read blocks only: a block takes its bus clocks
// plus the gap, so the gap costs more at a fast clock (HS400) than at a slow one (HS 52 MHz).
TEST(MmcHost, ReadBlockGapSlowsReadsOnlyAndWeighsMoreAtFastClocks) {
  models::MmcHostParams h;
  h.dma_mbps = 1e5;
  h.read_block_gap_ns = 250;
  const auto card = device(1e5, 1e5, 300, 1000);
  models::MmcHost hs400(h, models::MmcBus{200e6, 8, true}, card);
  EXPECT_DOUBLE_EQ(hs400.linkBytesPerSecond(Dir::Read), 512 / (274 / 200e6 + 250e-9));
  EXPECT_DOUBLE_EQ(hs400.linkBytesPerSecond(Dir::Write),
                   512 * 200e6 / (274 + h.write_block_gap_clocks));
  models::MmcHost hs(h, models::MmcBus{52e6, 8, false}, card);
  h.read_block_gap_ns = 0;
  models::MmcHost hs400NoGap(h, models::MmcBus{200e6, 8, true}, card);
  models::MmcHost hsNoGap(h, models::MmcBus{52e6, 8, false}, card);
  const double lossHs400 =
      1 - hs400.linkBytesPerSecond(Dir::Read) / hs400NoGap.linkBytesPerSecond(Dir::Read);
  const double lossHs = 1 - hs.linkBytesPerSecond(Dir::Read) / hsNoGap.linkBytesPerSecond(Dir::Read);
  EXPECT_GT(lossHs400, 0.1);
  EXPECT_LT(lossHs, 0.03);
  checkBoundsAndAmortization(hs400, "hs400 with read gap");
}

// OSPI octal DTR at 166.667 MHz: 2 bytes per clock; a read is the bus rate minus the opcode
// (2 bytes = 1 clock), address (4 bytes = 2 clocks), dummy clocks and the controller overhead.
TEST(OspiController, OctalDtrReadsAtTheBusRateMinusCommandAndDummy) {
  models::SpiNorControllerParams c;
  c.dma_mbps = 1e5;  // no DMA ceiling
  c.transaction_overhead_ns = 500;
  models::NorFlashParams f = octalNor();
  const auto bus = models::spiBusFromMode("octal-ddr", 166.667, 8);
  EXPECT_EQ(bus.lines, 8);
  EXPECT_TRUE(bus.dtr);
  models::OspiController o(c, bus, f);
  const double clk = 166.667e6;
  EXPECT_DOUBLE_EQ(o.linkBytesPerSecond(Dir::Read), clk * 2);
  EXPECT_DOUBLE_EQ(o.readCommandClocks(), 1 + 2 + 20);
  for (auto n : kSizes) {
    const double t = 23 / clk + 500e-9 + double(n) / (2 * clk);
    EXPECT_NEAR(o.request(Dir::Read, n).total(), t, 1e-12) << n;
  }
  // Quad SDR: 4 bits per clock, the opcode on one line.
  models::OspiController q(c, models::spiBusFromMode("quad", 100, 4), f);
  EXPECT_DOUBLE_EQ(q.linkBytesPerSecond(Dir::Read), 100e6 * 4 / 8);
  EXPECT_DOUBLE_EQ(q.readCommandClocks(), 8 + 8 + 20);
  // Programme: per page write-enable + programme operation + tPP (+ half a poll interval).
  f.page_bytes = 256;
  f.page_program_us = 250;
  models::OspiController w(c, bus, f);
  const auto t = w.request(Dir::Write, 4096);
  EXPECT_NEAR(t.device, 16 * (250e-6 + 0.5 * c.status_poll_us * 1e-6), 1e-12);
  // Erase: whole sectors.
  f.sector_bytes = 65536;
  f.sector_erase_ms = 100;
  models::OspiController e(c, bus, f);
  EXPECT_NEAR(e.eraseSeconds(65536 * 3), 3 * 0.1, 3 * 1e-4);
  checkBoundsAndAmortization(o, "octal dtr");
}

// A host that transmits on one line (device tree spi-tx-bus-width 1) reads 1-1-4: the address
// goes on one line (32 clocks for 4 bytes instead of 8), the data on four; it programmes on one.
TEST(OspiController, OneLineTransmitSendsTheAddressAndTheProgrammeDataOnOneLine) {
  models::SpiNorControllerParams c;
  c.dma_mbps = 1e5;
  models::NorFlashParams f = octalNor();
  f.read_dummy_cycles = 8;
  f.address_bytes = 4;
  const auto q144 = models::spiBusFromMode("quad", 64, 4);
  const auto q114 = models::spiBusFromMode("quad 1-1-4", 64, 4);
  EXPECT_EQ(q144.address_lines, 0);
  EXPECT_EQ(q114.address_lines, 1);
  EXPECT_EQ(q114.lines, 4);
  models::OspiController a(c, q144, f), b(c, q114, f);
  EXPECT_DOUBLE_EQ(a.readCommandClocks(), 8 + 8 + 8);
  EXPECT_DOUBLE_EQ(b.readCommandClocks(), 8 + 32 + 8);
  // Same data rate on the read side.
  EXPECT_DOUBLE_EQ(a.linkBytesPerSecond(Dir::Read), b.linkBytesPerSecond(Dir::Read));
  // A page of programme data: 2 clocks per byte on four lines, 8 on one.
  const auto wa = a.request(Dir::Write, f.page_bytes), wb = b.request(Dir::Write, f.page_bytes);
  EXPECT_NEAR(wb.transfer, 4 * wa.transfer, 1e-15);
  EXPECT_NEAR(wb.transfer, double(f.page_bytes) * 8 / 64e6, 1e-15);
}

namespace {
// A controller that reads by DMA through the direct-access window in `burst`-byte bursts, with
// a 500 ns operation overhead, 120 ns chip-select set-up + hold and no tSHSL gap.
models::SpiNorControllerParams directWindowDma(std::uint64_t burst) {
  models::SpiNorControllerParams c;
  c.dma_mbps = 1e5;
  c.transaction_overhead_ns = 500;
  c.dac_cs_overhead_ns = 120;
  c.dac_cs_high_ns = 0;
  c.dac_burst_bytes = burst;
  return c;
}
}  // namespace

// DMA from the direct-access window: each DMA burst is a flash read of its own (chip select,
// opcode, address, dummy clocks), once per burst; the data clocks are unchanged.
TEST(OspiController, DmaThroughTheDirectWindowPaysOneCommandPerBurst) {
  const models::SpiNorControllerParams c = directWindowDma(256);
  models::NorFlashParams f = octalNor();
  models::OspiController o(c, models::spiBusFromMode("octal-ddr", 166.667, 8), f);
  const double clk = 166.667e6;
  for (std::uint64_t n : {256ull, 4096ull, 65536ull}) {
    const double bursts = double(n) / 256;
    const double t = 500e-9 + bursts * (23 / clk + 120e-9) + double(n) / (2 * clk);
    EXPECT_NEAR(o.request(Dir::Read, n).total(), t, 1e-12) << n;
  }
  // The sustained rate is the burst's: 256 bytes per (command + chip select + data) time.
  const double burst = 23 / clk + 120e-9 + 128 / clk;
  EXPECT_NEAR(4194304.0 / o.request(Dir::Read, 4194304).total(), 256 / burst, 256 / burst * 1e-3);
  checkBoundsAndAmortization(o, "octal dtr via the direct window");
}

// The controller holds chip select high for tSHSL (device tree cdns,tshsl-ns) between two flash
// reads: a DMA stream through the direct-access window pays it once per burst, so a longer tSHSL
// lowers the sustained read rate by exactly bursts x tSHSL, and the indirect path (one operation)
// does not see it.
TEST(OspiController, DirectWindowBurstsWaitChipSelectHighBetweenReads) {
  const models::SpiNorControllerParams c = directWindowDma(64);
  const models::NorFlashParams f = octalNor();
  const auto bus = models::spiBusFromMode("quad 1-1-4", 96, 4);
  models::SpiNorControllerParams longGap = c;
  longGap.dac_cs_high_ns = 500;
  const models::OspiController shortCs(c, bus, f), longCs(longGap, bus, f);
  const std::uint64_t n = 4096;
  const double bursts = double(n) / 64;
  EXPECT_NEAR(longCs.request(Dir::Read, n).total() - shortCs.request(Dir::Read, n).total(),
              bursts * 500e-9, 1e-12);
  EXPECT_LT(double(n) / longCs.request(Dir::Read, n).total(),
            double(n) / shortCs.request(Dir::Read, n).total());
  models::SpiNorControllerParams indirect = c, indirectLong = longGap;
  indirect.dac_burst_bytes = indirectLong.dac_burst_bytes = 0;
  EXPECT_DOUBLE_EQ(models::OspiController(indirect, bus, f).request(Dir::Read, n).total(),
                   models::OspiController(indirectLong, bus, f).request(Dir::Read, n).total());
}

// The K2G EVM's device tree asks for a 500 ns tSHSL (the K3 EVMs' 60 ns): its QSPI preset
// carries it, so the K2G's 64-byte DMA bursts each wait out the longer gap.
TEST(LinuxIo, K2gQspiBurstsHoldTheBoardsChipSelectHighTime) {
  const auto& d = data();
  BoardPath qspi = makeBoardPath(board("k2g-evm"), d, Medium::NorOspi);
  ASSERT_TRUE(qspi.nor);
  EXPECT_GT(qspi.nor->controller().dac_cs_high_ns, 100);
  BoardPath ospi = makeBoardPath(board("j721e-idk-gw"), d, Medium::NorOspi);
  ASSERT_TRUE(ospi.nor);
  EXPECT_GT(qspi.nor->controller().dac_cs_high_ns, ospi.nor->controller().dac_cs_high_ns);
}

// NAND page read: command/address cycles + tR + (page + spare) / bus width x access time + ECC.
// PIO without a FIFO (McSPI, KeyStone SPI driving a NOR): one 8-bit word per register access,
// and the driver waits for each word's receive before writing the next, so the word's shift
// time and the CPU's accesses add up; a 32-bit FIFO PIO path overlaps them (the slower wins).
TEST(OspiController, LockstepPioAddsEachWordsShiftToTheCpuAccess) {
  models::SpiNorControllerParams c;
  c.dma_mbps = 0;
  c.transaction_overhead_ns = 0;
  c.pio_word_ns = 700;
  models::NorFlashParams f = octalNor();
  const auto bus = models::spiBusFromMode("single", 48, 1);
  const double shift = 8 / 48e6;  // one byte on one line
  // FIFO PIO (the default 32-bit word, overlapped with the bus).
  models::OspiController fifo(c, bus, f);
  for (std::uint64_t n : {256ull, 4096ull})
    EXPECT_NEAR(fifo.request(Dir::Read, n).transfer,
                std::max(double(n) * shift, double(n) / 4 * 700e-9), 1e-12) << n;
  EXPECT_DOUBLE_EQ(fifo.pioInterrupts(4096), 0);
  // Lockstep, polled: every byte costs its access plus its shift, all of it CPU time.
  c.pio_word_bytes = 1;
  c.pio_word_lockstep = true;
  models::OspiController polled(c, bus, f);
  for (std::uint64_t n : {256ull, 4096ull}) {
    EXPECT_NEAR(polled.request(Dir::Read, n).transfer, double(n) * (700e-9 + shift), 1e-12);
    EXPECT_NEAR(polled.pioSeconds(n), double(n) * (700e-9 + shift), 1e-12);
    EXPECT_DOUBLE_EQ(polled.pioInterrupts(n), 0);
  }
  // The programme data of a page goes the same way.
  EXPECT_NEAR(polled.request(Dir::Write, 256).transfer, 256 * (700e-9 + shift), 1e-12);
  // Interrupt-driven: same wall time per word, but the CPU only runs the handler's accesses
  // and one interrupt per word (priced by the caller on the core).
  c.pio_word_interrupt = true;
  models::OspiController intr(c, bus, f);
  EXPECT_NEAR(intr.request(Dir::Read, 4096).transfer, 4096 * (700e-9 + shift), 1e-12);
  EXPECT_NEAR(intr.pioSeconds(4096), 4096 * 700e-9, 1e-12);
  EXPECT_DOUBLE_EQ(intr.pioInterrupts(4096), 4096);
  // A DMA read path has no PIO at all.
  c.dma_mbps = 100;
  models::OspiController dma(c, bus, f);
  EXPECT_DOUBLE_EQ(dma.pioSeconds(4096), 0);
  EXPECT_DOUBLE_EQ(dma.pioInterrupts(4096), 0);
}

TEST(NandController, PageReadAndProgrammeClosedForm) {
  models::NandControllerParams c;
  c.read_cycle_ns = 50;
  c.write_cycle_ns = 40;
  c.ecc_page_us = 10;
  models::NandFlashParams f;
  f.name = "nand";
  models::NandController n8(c, f, 8), n16(c, f, 16);
  const double cmd = 7 * 40e-9;
  EXPECT_NEAR(n8.request(Dir::Read, 2048).total(), cmd + 25e-6 + 2112 * 50e-9 + 10e-6, 1e-12);
  EXPECT_NEAR(n16.request(Dir::Read, 2048).total(), cmd + 25e-6 + 1056 * 50e-9 + 10e-6, 1e-12);
  EXPECT_NEAR(n8.request(Dir::Write, 4096).total(), 2 * (cmd + 250e-6 + 2112 * 40e-9 + 10e-6),
              1e-12);
  EXPECT_NEAR(n8.eraseSeconds(3 * 131072), 3 * (2e-3 + 5 * 40e-9), 1e-12);
}

// Serial links: payload rate = line rate x coding x framing.
TEST(SerialLinks, PayloadRatesFollowTheStandards) {
  const auto dev = device(1e5, 1e5, 0, 0);
  models::UfsHostParams u;
  models::UfsHost ufs(u, 5830, 2, dev);
  EXPECT_DOUBLE_EQ(ufs.linkBytesPerSecond(Dir::Read), 5830e6 * 2 * 0.8 / 8 * u.unipro_efficiency);
  models::AhciParams a;
  models::AhciController sata(a, 3000, dev);
  EXPECT_DOUBLE_EQ(sata.linkBytesPerSecond(Dir::Read), 3000e6 * 0.8 / 8 * 8192 / (8192 + 28.0));
  // A SATA II host caps a SATA III disk.
  auto ssd = dev;
  ssd.interface = "sata3";
  EXPECT_DOUBLE_EQ(models::AhciController(a, 3000, ssd).linkBytesPerSecond(Dir::Read),
                   sata.linkBytesPerSecond(Dir::Read));
  models::UsbHostParams h;
  models::UsbMassStorageHost hs(h, 480, dev);
  EXPECT_DOUBLE_EQ(hs.linkBytesPerSecond(Dir::Read), 13 * 512 / 125e-6);
  // A USB 2.0 disk on a super-speed port runs at high speed.
  auto usb2disk = dev;
  usb2disk.interface = "usb2";
  EXPECT_DOUBLE_EQ(models::UsbMassStorageHost(h, 5000, usb2disk).linkBytesPerSecond(Dir::Read),
                   hs.linkBytesPerSecond(Dir::Read));
  models::PcieNvmeParams p;
  models::PcieNvme nvme(p, 8, 2, dev);
  const double raw = 8e9 * 128 / 130 / 8 * 2;
  EXPECT_DOUBLE_EQ(nvme.linkBytesPerSecond(Dir::Read), raw * 256 / (256 + 24.0));
  EXPECT_DOUBLE_EQ(nvme.linkBytesPerSecond(Dir::Write), raw * 64 / (64 + 24.0));
  for (const models::storage::StoragePath* s :
       std::vector<const models::storage::StoragePath*>{&ufs, &sata, &hs, &nvme})
    checkBoundsAndAmortization(*s, s->describe());
  // Every path: T(n) = fixed + n / rate, with the fixed part (command + access latency) the
  // same for every size and the rate the slowest of link, device and DMA.
  for (const models::storage::StoragePath* s :
       std::vector<const models::storage::StoragePath*>{&ufs, &sata, &hs, &nvme}) {
    for (Dir d : {Dir::Read, Dir::Write}) {
      const auto t0 = s->request(d, 4096);
      const double fixed = t0.command + t0.device;
      const double rate = std::min(s->linkBytesPerSecond(d), 1e5 * 1e6);
      for (auto n : kSizes)
        EXPECT_NEAR(s->request(d, n).total(), fixed + double(n) / rate, 1e-12)
            << s->describe() << " " << n;
    }
  }
}

// --- software compositions ----------------------------------------------------------------

// A UBIFS readpage on the K3 OSPI (DMA read, completion interrupt) sleeps and is woken once
// per page: the CPU and the wall time grow by exactly the wait's kernel instructions; the
// SPI NORs (PIO, no completion interrupt) pay no wait. Two copies per page (node -> page -> user).
TEST(LinuxIo, UbifsReadPaysTheCompletionWaitAndTwoCopies) {
  const auto& d = data();
  StorageCase c = ubifsRead();
  BoardPath ospi = makeBoardPath(board("j7200-evm"), d, Medium::NorOspi);
  ASSERT_GT(ospi.irqsPerRequest, 0);
  CoreCosts cc = fakeCosts();
  const IoEstimate base = linuxUbifs(ospi, cc, d.linux, c);
  cc.syncWaitInstructions = 10000;
  const IoEstimate waited = linuxUbifs(ospi, cc, d.linux, c);
  EXPECT_NEAR(waited.cpu - base.cpu, 10000 * cc.kernelSecondsPerInstr, 1e-15);
  EXPECT_NEAR(waited.wall - base.wall, 10000 * cc.kernelSecondsPerInstr, 1e-15);
  CoreCosts copy2 = cc;
  copy2.copySecondsPerByte += 1e-9;
  EXPECT_NEAR(linuxUbifs(ospi, copy2, d.linux, c).cpu - waited.cpu, 2 * 4096 * 1e-9, 1e-12);
  c.medium = Medium::NorSpi;
  BoardPath spi = makeBoardPath(board("k2g-evm"), d, Medium::NorSpi);
  ASSERT_EQ(spi.irqsPerRequest, 0);
  CoreCosts none = fakeCosts();
  EXPECT_DOUBLE_EQ(linuxUbifs(spi, cc, d.linux, c).cpu, linuxUbifs(spi, none, d.linux, c).cpu);
}

// The K2G QSPI (cadence-quadspi, ti,k2g-qspi: direct mode) reads by DMA from the memory-mapped
// window, one flash read per DMA burst: a UBIFS readpage keeps the CPU busy for a fraction of its
// wall time (no PIO words), and more bursts per page (smaller bursts) make it slower. The same
// controller without a DMA read path (indirect FIFO, CPU-moved) is CPU-bound.
TEST(LinuxIo, K2gQspiReadsByDmaThroughTheDirectAccessWindow) {
  const auto& d = data();
  StorageCase c = ubifsRead();
  c.medium = Medium::NorOspi;
  BoardPath qspi = makeBoardPath(board("k2g-evm"), d, Medium::NorOspi);
  ASSERT_TRUE(qspi.nor);
  ASSERT_GT(qspi.nor->controller().dma_mbps, 0);
  ASSERT_GT(qspi.nor->controller().dac_burst_bytes, 0u);
  EXPECT_EQ(qspi.nor->pioSeconds(4096), 0);
  const CoreCosts cc = fakeCosts();
  const IoEstimate dma = linuxUbifs(qspi, cc, d.linux, c);
  EXPECT_LT(dma.cpu, 0.5 * dma.wall);
  models::SpiNorControllerParams small = qspi.nor->controller();
  small.dac_burst_bytes /= 2;
  BoardPath smallBursts = makeBoardPath(board("k2g-evm"), d, Medium::NorOspi);
  auto smallCtl = std::make_unique<models::OspiController>(small, qspi.nor->bus(), qspi.nor->flash());
  smallBursts.nor = smallCtl.get();
  smallBursts.path = std::move(smallCtl);
  EXPECT_GT(linuxUbifs(smallBursts, cc, d.linux, c).wall, dma.wall);
  models::SpiNorControllerParams pio = qspi.nor->controller();
  pio.dma_mbps = 0;
  pio.dac_burst_bytes = 0;
  BoardPath indirect = makeBoardPath(board("k2g-evm"), d, Medium::NorOspi);
  auto pioCtl = std::make_unique<models::OspiController>(pio, qspi.nor->bus(), qspi.nor->flash());
  indirect.nor = pioCtl.get();
  indirect.path = std::move(pioCtl);
  const IoEstimate cpuMoved = linuxUbifs(indirect, cc, d.linux, c);
  EXPECT_GT(cpuMoved.cpu, 0.9 * cpuMoved.wall);
}

// A UBIFS stream on NAND reads each flash page once (the MTD page cache serves the page two
// nodes share) and programmes through the write-buffer in whole pages: a node of N bytes costs
// N / page_bytes page requests, not ceil(N / page_bytes).
TEST(LinuxIo, UbifsOnNandPaysTheFlashPagesOfItsBytes) {
  const auto& d = data();
  const BoardPath lcdk = makeBoardPath(board("omapl138-lcdk"), d, Medium::Nand);
  ASSERT_NE(lcdk.nand, nullptr);
  const auto page = lcdk.nand->flash().page_bytes;
  const double node = double(d.linux.page_bytes + d.linux.ubifs_node_header_bytes);
  ASSERT_NE(std::fmod(node, double(page)), 0.0);  // a node that ends inside a flash page
  auto part = [](const IoEstimate& e, const std::string& name) {
    for (const auto& [n, sec] : e.parts.seconds)
      if (n == name) return sec;
    return -1.0;
  };
  StorageCase c = ubifsRead();
  c.medium = Medium::Nand;
  const IoEstimate rd = linuxUbifs(lcdk, fakeCosts(), d.linux, c);
  const double pages = node / double(page);
  EXPECT_NEAR(part(rd, "bus.transfer"), pages * lcdk.nand->request(Dir::Read, page).transfer, 1e-12);
  EXPECT_LT(part(rd, "bus.transfer"), lcdk.nand->request(Dir::Read, std::uint64_t(node)).transfer);
  c.dir = Dir::Write;
  const IoEstimate wr = linuxUbifs(lcdk, fakeCosts(), d.linux, c);
  const double flashPages = node * d.linux.ubifs_write_amplification / double(page);
  EXPECT_NEAR(part(wr, "device.access"),
              flashPages * lcdk.nand->request(Dir::Write, page).device, 1e-12);
}

// Interrupt-driven SPI PIO (spi-davinci without DMA channels: the K2G EVM's SPI NOR) takes one
// interrupt per 8-bit word: the readpage's wall and CPU time grow by exactly (node bytes) x the
// core's bare interrupt path; a polled McSPI (AM65x EVM) takes none.
TEST(LinuxIo, InterruptDrivenSpiPioPaysOneInterruptPerWord) {
  const auto& d = data();
  StorageCase c = ubifsRead();
  c.medium = Medium::NorSpi;
  BoardPath k2g = makeBoardPath(board("k2g-evm"), d, Medium::NorSpi);
  ASSERT_NE(k2g.nor, nullptr);
  EXPECT_TRUE(k2g.nor->controller().pio_word_interrupt);
  CoreCosts cc = fakeCosts();
  const IoEstimate base = linuxUbifs(k2g, cc, d.linux, c);
  cc.irqEntryInstructions = 700;
  const IoEstimate irq = linuxUbifs(k2g, cc, d.linux, c);
  const double node = double(d.linux.page_bytes + d.linux.ubifs_node_header_bytes);
  EXPECT_NEAR(irq.wall - base.wall, node * 700 * cc.kernelSecondsPerInstr, 1e-12);
  EXPECT_NEAR(irq.cpu - base.cpu, node * 700 * cc.kernelSecondsPerInstr, 1e-12);
  BoardPath am65 = makeBoardPath(board("am654x-evm"), d, Medium::NorSpi);
  ASSERT_NE(am65.nor, nullptr);
  EXPECT_FALSE(am65.nor->controller().pio_word_interrupt);
  EXPECT_DOUBLE_EQ(linuxUbifs(am65, cc, d.linux, c).wall,
                   linuxUbifs(am65, fakeCosts(), d.linux, c).wall);
  // The polled McSPI spins through every word: the flash read is CPU time.
  const double readT = am65.path->request(Dir::Read, static_cast<std::uint64_t>(node)).transfer;
  EXPECT_NEAR(am65.nor->pioSeconds(static_cast<std::uint64_t>(node)), readT, 1e-12);
}

TEST(LinuxIo, BufferedAndFioStayUnderTheLinkAndAmortizeOverhead) {
  const auto& d = data();
  const auto b = board("j7200-evm");
  for (Medium m : {Medium::Sd, Medium::Emmc, Medium::Nvme}) {
    BoardPath bp = makeBoardPath(b, d, m);
    const CoreCosts cc = fakeCosts();
    for (Dir dir : {Dir::Read, Dir::Write}) {
      StorageCase c;
      c.medium = m;
      c.dir = dir;
      c.fs = "ext4";
      double last = 0;
      for (std::uint64_t bs : {4096ull, 262144ull, 1048576ull, 4194304ull}) {
        c.bytes = bs;
        const IoEstimate e = linuxFio(bp, cc, d.linux, c);
        EXPECT_LE(e.throughput(), bp.path->linkBytesPerSecond(dir)) << bp.describe();
        EXPECT_GE(e.throughput(), last * (1 - 1e-9)) << bp.describe() << " bs " << bs;
        EXPECT_GE(e.loadPercent(cc.linuxCores), 0);
        EXPECT_LE(e.loadPercent(cc.linuxCores), 100);
        last = e.throughput();
      }
      last = 0;
      for (std::uint64_t buf : {102400ull, 262144ull, 524288ull, 1048576ull, 5242880ull}) {
        c.bytes = buf;
        const IoEstimate e = linuxBuffered(bp, cc, d.linux, c);
        EXPECT_LE(e.throughput(), bp.path->linkBytesPerSecond(dir));
        EXPECT_GE(e.throughput(), last * (1 - 1e-9)) << bp.describe() << " buffer " << buf;
        last = e.throughput();
      }
    }
  }
}

// eMMC command queuing needs both ends: an eMMC 5.1 device behind a host with a command-queue
// engine (K3 SDHCI, J7200) overlaps fio's iodepth-4 I/Os; an eMMC 4.5 part behind OMAP HSMMC
// (AM572x EVM) takes one command at a time.
namespace {
/// An eMMC row's case: direction and bytes per I/O.
StorageCase emmcCase(Dir dir, std::uint64_t bytes) {
  StorageCase c;
  c.medium = Medium::Emmc;
  c.dir = dir;
  c.bytes = bytes;
  return c;
}
}  // namespace

TEST(StoragePaths, EmmcCommandQueueNeedsTheHostEngineAndTheDevice) {
  const auto& d = data();
  BoardPath k3 = makeBoardPath(board("j7200-evm"), d, Medium::Emmc);
  EXPECT_EQ(k3.queueDepth, 32);
  EXPECT_EQ(makeBoardPath(board("am57xx-evm"), d, Medium::Emmc).queueDepth, 1);
  EXPECT_EQ(makeBoardPath(board("j7200-evm"), d, Medium::Sd).queueDepth, 1);  // SD card: none
  const CoreCosts cc = fakeCosts();
  const StorageCase c = emmcCase(Dir::Read, 4096);
  const IoEstimate queued = linuxFio(k3, cc, d.linux, c);
  k3.queueDepth = 1;
  const IoEstimate serial = linuxFio(k3, cc, d.linux, c);
  // 4 KiB reads are latency-bound one at a time; queued, the device overlaps them, never beyond
  // the bus ...
  EXPECT_GT(queued.throughput(), 2.0 * serial.throughput());
  // ... but no more than iodepth device accesses at once.
  EXPECT_GE(queued.wall,
            k3.path->request(Dir::Read, 4096).total() / d.linux.fio_iodepth * (1 - 1e-9));
  EXPECT_LE(queued.throughput(), k3.path->linkBytesPerSecond(Dir::Read));
}

// A write's busy after its data (DAT0 held low) keeps the data lines: command queueing overlaps
// queued reads' device accesses, not a write's busy, so a queued 4 KiB write pays it in full.
TEST(StoragePaths, EmmcWriteBusyHoldsTheBusUnderCommandQueueing) {
  const auto& d = data();
  BoardPath k3 = makeBoardPath(board("j7200-evm"), d, Medium::Emmc);
  ASSERT_GT(k3.queueDepth, 1);
  EXPECT_TRUE(k3.path->deviceTimeHoldsLink(Dir::Write));
  EXPECT_FALSE(k3.path->deviceTimeHoldsLink(Dir::Read));
  const CoreCosts cc = fakeCosts();
  const StorageCase c = emmcCase(Dir::Write, 4096);
  const IoEstimate queued = linuxFio(k3, cc, d.linux, c);
  const auto t = k3.path->request(Dir::Write, 4096);
  ASSERT_GT(t.device, 0);
  // One I/O takes at least command + data + busy: the queue depth does not divide the busy ...
  EXPECT_GE(queued.wall, (t.command + t.transfer + t.device) * (1 - 1e-9));
  // ... so a deeper fio queue does not speed queued 4 KiB writes up.
  LinuxIoParams deep = d.linux;
  deep.fio_iodepth = 32;
  EXPECT_NEAR(linuxFio(k3, cc, deep, c).wall, queued.wall, 1e-12);
}

// A board whose boot loader programs the NAND chip select (the OMAP-L138 LCDK: U-Boot sets CS3
// to the field maxima, 88 EMIFA clocks per access, and the device tree leaves it) moves page
// data at that access time; a board without such a set-up (AM335x GPMC) keeps the preset's.
TEST(StoragePaths, NandAccessTimeFollowsTheBoardsChipSelectClocks) {
  const auto& d = data();
  const BoardPath lcdk = makeBoardPath(board("omapl138-lcdk"), d, Medium::Nand);
  ASSERT_NE(lcdk.nand, nullptr);
  const auto& per = *lcdk.peripheral;
  ASSERT_GT(per.clock_mhz, 0);
  ASSERT_GT(per.read_cycle_clocks, 0);
  EXPECT_NEAR(lcdk.nand->controller().read_cycle_ns, per.read_cycle_clocks * 1e3 / per.clock_mhz,
              1e-9);
  EXPECT_NEAR(lcdk.nand->controller().write_cycle_ns,
              per.write_cycle_clocks * 1e3 / per.clock_mhz, 1e-9);
  EXPECT_NE(lcdk.nand->controller().read_cycle_ns, lcdk.controller->nand->read_cycle_ns);
  // The port time of a page is its 16-bit accesses at that time.
  const auto& f = lcdk.nand->flash();
  EXPECT_NEAR(lcdk.nand->portSeconds(Dir::Read, f.page_bytes),
              double(f.page_bytes + f.oob_bytes) / 2 * lcdk.nand->controller().read_cycle_ns * 1e-9,
              1e-12);
  const BoardPath am335x = makeBoardPath(board("am335x-evm"), d, Medium::Nand);
  ASSERT_NE(am335x.nand, nullptr);
  EXPECT_EQ(am335x.peripheral->read_cycle_clocks, 0);
  EXPECT_EQ(am335x.nand->controller().read_cycle_ns, am335x.controller->nand->read_cycle_ns);
}

// MUSB host (AM335x): reads move one 512-byte packet per CPPI 4.1 descriptor, so each packet's
// interrupt + reload is on the critical path; writes go as whole transfers, with no per-packet
// work at all.
TEST(LinuxIo, MusbReadsPayEachPacketsReloadWritesDoNot) {
  const auto& d = data();
  BoardPath bp = makeBoardPath(board("am335x-evm"), d, Medium::UsbHost);
  ASSERT_TRUE(bp.rxPacketAtATime);
  ASSERT_EQ(bp.packetBytes, 512u);
  const CoreCosts cc = fakeCosts();
  StorageCase c;
  c.medium = Medium::UsbHost;
  c.fs = "ext2";
  c.bytes = 1048576;
  c.dir = Dir::Read;
  const IoEstimate rd = linuxBuffered(bp, cc, d.linux, c);
  c.dir = Dir::Write;
  const IoEstimate wr = linuxBuffered(bp, cc, d.linux, c);
  BoardPath batched = makeBoardPath(board("am335x-evm"), d, Medium::UsbHost);
  batched.rxPacketAtATime = false;
  c.dir = Dir::Read;
  const IoEstimate rdBatched = linuxBuffered(batched, cc, d.linux, c);
  const double packets = rd.bytes / 512;
  const double perPacket =
      (bp.driverPacketInstructions + d.linux.irq_instructions) * cc.kernelSecondsPerInstr +
      bp.rxPacketLatencySeconds;
  ASSERT_GT(perPacket, 0);
  // Device-bound either way here: the difference is exactly the packets' serial work.
  EXPECT_NEAR(rd.wall - rdBatched.wall, packets * perPacket, 1e-9 * rd.wall);
  EXPECT_GT(rd.cpu, rdBatched.cpu);
  // Writes: the same request without any per-packet CPU (generic RNDIS mode DMA).
  batched.driverPacketInstructions = 0;
  c.dir = Dir::Write;
  EXPECT_DOUBLE_EQ(linuxBuffered(batched, cc, d.linux, c).cpu, wr.cpu);
}

TEST(Uboot, ReportsWholeTimerTicksAndFollowsTheCommands) {
  const auto& d = data();
  const auto b = board("j721e-idk-gw");
  StorageCase c;
  c.app = App::Uboot;
  c.dir = Dir::Read;
  for (Medium m : {Medium::Emmc, Medium::Ufs, Medium::NorOspi}) {
    BoardPath bp = makeBoardPath(b, d, m);
    c.medium = m;
    for (std::uint64_t size : {4194304ull, 16777216ull}) {
      c.bytes = size;
      const TimedRun r = ubootTransfer(bp, fakeCosts(), d.uboot, c);
      const double ticks = r.seconds / (d.uboot.timer_resolution_ms * 1e-3);
      EXPECT_NEAR(ticks, std::round(ticks), 1e-9) << bp.describe();
      EXPECT_GE(r.seconds, double(size) / bp.path->linkBytesPerSecond(Dir::Read) - 1e-3);
    }
  }
}

// The AM572x EVM's SD slot runs SDR50 under Linux; OMAP HSMMC's U-Boot driver has no UHS-I
// tuning and runs the card at high speed (48 MHz, SDR): a U-Boot read is slower than the
// Linux bus allows, and bounded by the high-speed bus.
TEST(Uboot, HostWithoutUhsInUbootRunsHighSpeed) {
  const auto& d = data();
  const auto b = board("am57xx-evm");
  BoardPath bp = makeBoardPath(b, d, Medium::Sd);
  ASSERT_NE(bp.mmc, nullptr);
  ASSERT_GT(bp.mmc->host().uboot_max_clock_mhz, 0);
  ASSERT_GT(bp.mmc->bus().clock_hz, bp.mmc->host().uboot_max_clock_mhz * 1e6);
  StorageCase c;
  c.app = App::Uboot;
  c.dir = Dir::Read;
  c.medium = Medium::Sd;
  c.bytes = 16777216;
  const TimedRun r = ubootTransfer(bp, fakeCosts(), d.uboot, c);
  auto hs = mmcWithBus(bp, "high-speed", bp.mmc->host().uboot_max_clock_mhz);
  EXPECT_LE(double(c.bytes) / r.seconds, hs->linkBytesPerSecond(Dir::Read));
  EXPECT_GT(r.seconds, double(c.bytes) / bp.path->linkBytesPerSecond(Dir::Read) * 1.5);
}

// A release whose Linux leaves the SD card at 3.3 V (software.sd_uhs false: guide 002's release
// on the AM572x EVM) runs the Linux rows at high speed, bounded by the high-speed bus; the
// board's own release (guide 000) keeps SDR50 and reads faster than that bus carries.
TEST(StorageWorkloads, ReleaseWithoutUhsRunsTheSdCardAtHighSpeed) {
  const auto b = board("am57xx-evm");
  const std::string g000 = "000_c397333184f33b18", g002 = "002_eb73a69247cbc681";
  ASSERT_TRUE(b.softwareFor(g000).sd_uhs);
  ASSERT_FALSE(b.softwareFor(g002).sd_uhs);
  BoardPath bp = makeBoardPath(b, data(), Medium::Sd);
  const double hsMhz = bp.mmc->host().high_speed_clock_mhz;
  ASSERT_GT(bp.mmc->bus().clock_hz, hsMhz * 1e6);
  const double hsLink = mmcWithBus(bp, "high-speed", hsMhz)->linkBytesPerSecond(Dir::Read) / 1e6;
  validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(b));
  StorageWorkloads w(defaultStorageDir());
  auto read = [&](const std::string& source) {
    return w.predict(ctx, {"mmc-sd", "MMC/SD Driver", "Throughput", "bs=1048576;fs=ext4;op=read",
                           "MB/s", source}).value;
  };
  EXPECT_LE(read(g002), hsLink * (1 + 1e-12));
  EXPECT_GT(read(g000), hsLink);
  EXPECT_EQ(read(""), read(g000));
}

// The Linux I/O paths are kernel paths: a release whose paths are k times as long pays k times
// the MTD/UBIFS instructions and the completion wait; the CRC loop and the copies do not move,
// nor does fio's own per-I/O loop.
TEST(LinuxIo, ReleasePathFactorScalesKernelPathsOnly) {
  const auto& d = data();
  StorageCase c = ubifsRead();
  const auto b = board("j7200-evm");
  BoardPath ospi = makeBoardPath(b, d, Medium::NorOspi);
  CoreCosts cc = fakeCosts();
  cc.syncWaitInstructions = 10000;
  soc::SoftwareParams sw = b.software;
  sw.kernel_paths.stack_path_factor = 1;
  const CoreCosts one = linuxReleaseCosts(cc, b, sw);
  sw.kernel_paths.stack_path_factor = 2;
  const CoreCosts two = linuxReleaseCosts(cc, b, sw);
  EXPECT_EQ(two.kernelSecondsPerInstr, cc.kernelSecondsPerInstr);
  EXPECT_EQ(two.syncWaitInstructions, one.syncWaitInstructions);
  const IoEstimate e1 = linuxUbifs(ospi, one, d.linux, c), e2 = linuxUbifs(ospi, two, d.linux, c);
  const auto part = [](const IoEstimate& e, const std::string& n) {
    for (const auto& [name, sec] : e.parts.seconds)
      if (name == n) return sec;
    ADD_FAILURE() << "no part " << n;
    return 0.0;
  };
  EXPECT_NEAR(part(e2, "cpu.ubifs_mtd"), 2 * part(e1, "cpu.ubifs_mtd"), 1e-15);
  EXPECT_NEAR(part(e2, "cpu.completion_sleep_wake"), 2 * part(e1, "cpu.completion_sleep_wake"),
              1e-15);
  EXPECT_EQ(part(e2, "cpu.crc"), part(e1, "cpu.crc"));
  EXPECT_EQ(part(e2, "cpu.copy (node to page, page to user)"),
            part(e1, "cpu.copy (node to page, page to user)"));
  EXPECT_NEAR(e2.cpu - e1.cpu, part(e1, "cpu.ubifs_mtd") + part(e1, "cpu.completion_sleep_wake"),
              1e-15);
  StorageCase f;
  f.app = App::Fio;
  f.medium = Medium::Emmc;
  f.dir = Dir::Read;
  f.fs = "raw";
  f.bytes = 4096;
  BoardPath emmc = makeBoardPath(b, d, Medium::Emmc);
  const IoEstimate f1 = linuxFio(emmc, one, d.linux, f), f2 = linuxFio(emmc, two, d.linux, f);
  const auto prefixed = [](const IoEstimate& e, const std::string& n) {
    double t = 0;
    for (const auto& [name, sec] : e.parts.seconds)
      if (name.rfind(n, 0) == 0) t += sec;
    return t;
  };
  EXPECT_EQ(prefixed(f2, "cpu.fio_syscalls"), d.linux.fio_io_instructions * cc.kernelSecondsPerInstr);
  EXPECT_EQ(prefixed(f1, "cpu.fio_syscalls"), prefixed(f2, "cpu.fio_syscalls"));
  EXPECT_NEAR(f2.cpu - f1.cpu, f1.cpu - d.linux.fio_io_instructions * cc.kernelSecondsPerInstr,
              1e-15);
}

// U-Boot's raw block commands print a line before and after the transfer; the console costs
// 10 bits per character at the console rate (counted here by hand from the printed text), and
// a UFS read of up to 32 MiB is one SCSI command.
TEST(Uboot, RawBlockCommandsPayTheirConsoleLines) {
  const auto& d = data();
  UbootParams u = d.uboot;
  const auto b = board("j721e-idk-gw");
  StorageCase c;
  c.bytes = 4194304;
  c.app = App::Uboot;
  c.dir = Dir::Read;
  u.timer_resolution_ms = 0;
  struct Case {
    Medium m;
    double chars;  // CR LF, "SCSI read: device 0 block # 0, count 1024 ... ", "1024 blocks read: OK", CR LF
  };
  for (const Case& k : {Case{Medium::Ufs, 2 + 46 + 20 + 2}, Case{Medium::Emmc, 2 + 45 + 20 + 2}}) {
    BoardPath bp = makeBoardPath(b, d, k.m);
    c.medium = k.m;
    if (k.m == Medium::Emmc) c.bytes = 4096 * 128;  // 1024 blocks of 512 bytes
    u.console_baud = 115200;
    const TimedRun slow = ubootTransfer(bp, fakeCosts(), u, c);
    u.console_baud = 230400;
    const TimedRun fast = ubootTransfer(bp, fakeCosts(), u, c);
    EXPECT_NEAR(slow.seconds - fast.seconds, k.chars * 10 / 230400, 1e-12) << bp.describe();
    double console = -1;
    for (const auto& [name, sec] : slow.parts.seconds)
      if (name == "console.uart") console = sec;
    EXPECT_NEAR(console, k.chars * 10 / 115200, 1e-12);
  }
  c.medium = Medium::Ufs;
  c.bytes = 16777216;
  BoardPath ufs = makeBoardPath(b, d, Medium::Ufs);
  EXPECT_NE(ubootTransfer(ufs, fakeCosts(), u, c).note.find("1 command(s)"), std::string::npos);
}

// U-Boot sf read on the K3 OSPI (a direct-access window): the CPU copies the flash out of the
// window with device loads, each one a flash read of its own, so the transfer is the number of
// loads times one such read; wider loads mean fewer reads; 0 falls back to the FIFO path.
TEST(Uboot, OspiReadIsOneFlashReadPerCpuLoad) {
  const auto& d = data();
  UbootParams u = d.uboot;
  u.timer_resolution_ms = 0;
  BoardPath bp = makeBoardPath(board("j784s4-evm"), d, Medium::NorOspi);
  ASSERT_TRUE(bp.nor);
  ASSERT_GT(bp.nor->controller().dac_burst_bytes, 0u);
  StorageCase c;
  c.app = App::Uboot;
  c.medium = Medium::NorOspi;
  c.dir = Dir::Read;
  c.bytes = 4194304;
  const CoreCosts cc = fakeCosts();
  auto partOf = [](const TimedRun& r, const std::string& prefix) {
    double s = 0;
    for (const auto& [name, sec] : r.parts.seconds)
      if (name.rfind(prefix, 0) == 0) s += sec;
    return s;
  };
  u.sf_dac_access_bytes = 4;
  const TimedRun r4 = ubootTransfer(bp, cc, u, c);
  EXPECT_NEAR(partOf(r4, "bus.dac_reads"), 1048576 * bp.nor->directReadSeconds(4),
              1e-12 * r4.seconds);
  EXPECT_NEAR(r4.seconds,
              partOf(r4, "bus.dac_reads") + partOf(r4, "cpu.uboot_command") +
                  partOf(r4, "cpu.cache_maintenance"),
              1e-12 * r4.seconds);
  u.sf_dac_access_bytes = 8;
  EXPECT_LT(ubootTransfer(bp, cc, u, c).seconds, r4.seconds);
  u.sf_dac_access_bytes = 0;
  const TimedRun fifo = ubootTransfer(bp, cc, u, c);
  EXPECT_EQ(partOf(fifo, "bus.dac_reads"), 0);
  EXPECT_GT(partOf(fifo, "bus.transfer"), 0);
}

// An SBL boot's total is the sum of its stages, for both boot media.
TEST(Sbl, TotalIsTheSumOfTheModelledStages) {
  const auto& d = data();
  const auto b = board("am64x-evm");
  BoardPath sd = makeBoardPath(b, d, Medium::Sd), ospi = makeBoardPath(b, d, Medium::NorOspi);
  const CoreCosts cc = fakeCosts();
  struct Medium_ {
    Medium m;
    std::string params;
    std::vector<std::string> stages;
  };
  const std::vector<Medium_> media = {
      {Medium::NorOspi,
       "app_bytes=78848;boot_media=ospi;cores=m4f0-0,r5f0-0,r5f0-1,r5f1-0,r5f1-1;sbl_bytes=262144",
       {"ROM : init + SBL load from flash", "SBL : SYSFW Load", "SBL : System Init",
        "SBL : Drivers_open", "SBL : Board_driversOpen", "SBL : Sciclient Get Version",
        "SBL : CPU Load"}},
      {Medium::Sd, "app_bytes=34816;boot_media=sd;cores=r5f0-0;sbl_bytes=307200",
       {"ROM : init + SBL load from flash", "SBL : SYSFW Load", "SBL : System Init",
        "SBL : Drivers_open", "SBL : Board_driversOpen", "SBL : Sciclient Get Version",
        "SBL : File read from SD Card", "SBL : CPU Load"}}};
  for (const auto& m : media) {
    StorageCase c;
    c.app = App::Sbl;
    c.medium = m.m;
    c.params = parseParams(m.params);
    double sum = 0;
    for (const auto& s : m.stages) {
      c.stage = s;
      const double t = sblStage(&sd, &ospi, cc, d.sbl, c).seconds;
      EXPECT_GE(t, 0) << s;
      sum += t;
    }
    c.stage = "SBL : Total time taken";
    EXPECT_NEAR(sblStage(&sd, &ospi, cc, d.sbl, c).seconds, sum, 1e-12);
  }
}

// "Not cached 1 of 10 iterations" is nine cached calls and one uncached call, averaged.
TEST(Xip, OneInTenIsTheAverageOfNineCachedAndOneUncached) {
  const auto& d = data();
  BoardPath ospi = makeBoardPath(board("am64x-evm"), d, Medium::NorOspi);
  StorageCase c;
  c.app = App::Xip;
  for (const char* op : {"fir", "memcpy"}) {
    c.stage = op;
    c.params = parseParams("caching=fully-cached");
    const double cached = xipCycles(ospi, fakeCosts(), d.xip, c).seconds;
    c.params = parseParams("caching=not-cached");
    const double uncached = xipCycles(ospi, fakeCosts(), d.xip, c).seconds;
    c.params = parseParams("caching=not-cached-1-of-10-iterations");
    const double one = xipCycles(ospi, fakeCosts(), d.xip, c).seconds;
    EXPECT_GT(uncached, cached);
    EXPECT_NEAR(one, (9 * cached + uncached) / 10, 1e-9);
  }
}

// An XIP cache-line fill is one hardware burst through the direct-access window: chip-select
// set-up/hold + opcode/address/dummy + data clocks, without the driver's per-operation overhead.
TEST(OspiController, DirectAccessBurstHasNoDriverOverhead) {
  models::SpiNorControllerParams c;
  c.transaction_overhead_ns = 500;
  c.dac_cs_overhead_ns = 120;
  models::NorFlashParams f = octalNor();
  models::OspiController o(c, models::spiBusFromMode("octal-ddr", 166.667, 8), f);
  const double clk = 166.667e6;
  // 32-byte line: 1 + 2 + 20 command clocks and 16 data clocks.
  EXPECT_NEAR(o.directReadSeconds(32), 120e-9 + (23 + 16) / clk, 1e-15);
  EXPECT_LT(o.directReadSeconds(32), o.request(Dir::Read, 32).total());
}

// The XIP uncached penalty is (lines of code + data) x (burst + FSS latency), in core cycles.
TEST(Xip, UncachedPenaltyIsLinesTimesTheDirectAccessBurst) {
  const auto& d = data();
  BoardPath ospi = makeBoardPath(board("am64x-evm"), d, Medium::NorOspi);
  ASSERT_NE(ospi.nor, nullptr);
  StorageCase c;
  c.app = App::Xip;
  c.stage = "memcpy";
  const CoreCosts cc = fakeCosts();
  c.params = parseParams("caching=fully-cached");
  const double cached = xipCycles(ospi, cc, d.xip, c).seconds;
  c.params = parseParams("caching=not-cached");
  const double uncached = xipCycles(ospi, cc, d.xip, c).seconds;
  const double lines = std::ceil(double(d.xip.memcpy_code_bytes + d.xip.memcpy_data_bytes) /
                                 d.xip.cache_line_bytes);
  const double fill =
      (ospi.nor->directReadSeconds(d.xip.cache_line_bytes) + d.xip.fss_latency_ns * 1e-9) *
      cc.clockHz;
  EXPECT_NEAR(uncached - cached, lines * fill, 1e-6);
}

// Linux boot: the console log costs bytes x 10 bits / baud whatever the core; userspace CPU is
// spread over at most userspace_parallel_jobs cores.
TEST(LinuxBoot, ConsoleLogAndUserspaceParallelism) {
  const auto& d = data();
  BoardPath sd = makeBoardPath(board("am335x-evm"), d, Medium::Sd);
  StorageCase c;
  c.app = App::LinuxBoot;
  c.stage = "full";
  CoreCosts cc = fakeCosts();
  cc.linuxCores = 8;
  LinuxBootParams b = d.boot;
  b.userspace_parallel_jobs = 2;
  const double base = linuxBoot(sd, cc, b, d.linux, c).seconds;
  LinuxBootParams more = b;
  more.kernel_console_bytes += 11520;  // 115200 bits at 10 bits per byte
  more.console_baud = 115200;
  b.console_baud = 115200;
  EXPECT_NEAR(linuxBoot(sd, cc, more, d.linux, c).seconds -
                  linuxBoot(sd, cc, b, d.linux, c).seconds,
              1.0, 1e-9);
  // Twice the userspace work on 2 of 8 cores: half of it more in time.
  LinuxBootParams twice = b;
  twice.userspace_instructions *= 2;
  EXPECT_NEAR(linuxBoot(sd, cc, twice, d.linux, c).seconds - base,
              b.userspace_instructions * cc.kernelSecondsPerInstr / 2, 1e-9);
}

// "Sciclient Get Version" is one TISCI round trip plus the version banner on the console
// (DebugP_log waits for the UART: 10 bits per byte); the OSPI Board_driversOpen stage carries
// the bootloader banner on top of the PHY tuning.
TEST(Sbl, VersionCheckIsOneRoundTripPlusTheConsoleBanner) {
  const auto& d = data();
  const auto b = board("am64x-evm");
  BoardPath sd = makeBoardPath(b, d, Medium::Sd), ospi = makeBoardPath(b, d, Medium::NorOspi);
  StorageCase c;
  c.app = App::Sbl;
  c.medium = Medium::NorOspi;
  c.params = parseParams("app_bytes=78848;boot_media=ospi;cores=r5f0-0;sbl_bytes=262144");
  c.stage = "SBL : Sciclient Get Version";
  SblParams s = d.sbl;
  s.console_baud = 115200;
  s.version_log_bytes = 108;
  s.tisci_round_trip_ms = 0.25;
  EXPECT_NEAR(sblStage(&sd, &ospi, fakeCosts(), s, c).seconds, 0.25e-3 + 108 * 10 / 115200.0,
              1e-12);
  // Twice the baud rate halves the console part only.
  s.console_baud = 230400;
  EXPECT_NEAR(sblStage(&sd, &ospi, fakeCosts(), s, c).seconds, 0.25e-3 + 108 * 10 / 230400.0,
              1e-12);
  s.console_baud = 115200;
  c.stage = "SBL : Board_driversOpen";
  const double withBanner = sblStage(&sd, &ospi, fakeCosts(), s, c).seconds;
  s.ospi_banner_log_bytes = 0;
  EXPECT_NEAR(withBanner - sblStage(&sd, &ospi, fakeCosts(), s, c).seconds,
              d.sbl.ospi_banner_log_bytes * 10 / 115200.0, 1e-12);
  // CPU load: each core costs core_load_tisci_messages round trips; the M4F adds its memory
  // initialization.
  c.stage = "SBL : CPU Load";
  c.params = parseParams("app_bytes=0;boot_media=ospi;cores=r5f0-0,r5f0-1;sbl_bytes=262144");
  const double two = sblStage(&sd, &ospi, fakeCosts(), s, c).seconds;
  EXPECT_NEAR(two, 2 * s.core_load_tisci_messages * s.tisci_round_trip_ms * 1e-3, 1e-9);
  c.params = parseParams("app_bytes=0;boot_media=ospi;cores=r5f0-0,m4f0-0;sbl_bytes=262144");
  EXPECT_NEAR(sblStage(&sd, &ospi, fakeCosts(), s, c).seconds - two, s.m4f_init_ms * 1e-3, 1e-9);
}

// The USB mass-storage gadget: never faster than its link, and the slower of link and
// backing store per host request (f_mass_storage double-buffers the two).
TEST(UsbGadget, NeverBeatsTheLinkAndFollowsTheSlowerOfLinkAndBackingStore) {
  const auto& d = data();
  for (const char* name : {"am335x-evm", "j742s2_evm-fs"}) {
    const auto b = board(name);
    BoardPath usb = makeBoardPath(b, d, Medium::UsbGadget);
    BoardPath sd = makeBoardPath(b, d, Medium::Sd);
    const CoreCosts cc = fakeCosts();
    for (Dir dir : {Dir::Read, Dir::Write}) {
      for (const char* speed : {"high-speed", "super-speed"}) {
        StorageCase c;
        c.medium = Medium::UsbGadget;
        c.app = App::Gadget;
        c.dir = dir;
        c.stage = speed;
        double ramBytes = 0, sdBytes = 0;
        TimedRun ram, onSd;
        try {
          ram = gadgetRequest(usb, nullptr, cc, d.linux, c, ramBytes);
        } catch (const wl::NotModelled&) {
          continue;  // no super-speed port
        }
        onSd = gadgetRequest(usb, &sd, cc, d.linux, c, sdBytes);
        ASSERT_EQ(ramBytes, sdBytes);
        const double ramRate = ramBytes / ram.seconds, sdRate = sdBytes / onSd.seconds;
        const double line = std::string(speed) == "high-speed" ? 480e6 : 5000e6;
        EXPECT_LT(ramRate, line / 8) << name << " " << speed;
        EXPECT_LE(sdRate, ramRate * (1 + 1e-12)) << name << " " << speed;
        // The backing store's own buffered rate bounds the gadget too.
        StorageCase bc;
        bc.app = App::Buffered;
        bc.dir = dir;
        bc.fs = d.linux.gadget_backing_fs;
        bc.bytes = 16384;
        const double store = linuxBuffered(sd, cc, d.linux, bc).throughput();
        EXPECT_NEAR(sdRate, std::min(ramRate, store), 1e-9 * ramRate) << name << " " << speed;
      }
    }
  }
}

// Every storage path every board builds: one request of n bytes takes fixed + n / rate (so
// throughput is n / (overhead + n / rate)) at sizes that are whole pages, descriptors and
// sectors, and no request beats the path's bus or link peak.
TEST(StoragePaths, EveryBoardPathIsAffineInSizeAndUnderItsPeak) {
  const auto& d = data();
  const std::vector<std::uint64_t> sizes = {65536, 131072, 262144, 524288};
  int checked = 0;
  for (const char* name : {"am335x-evm", "am57xx-evm", "am654x-evm", "k2g-evm", "j7200-evm",
                           "j721e-idk-gw", "j784s4-evm", "omapl138-lcdk", "am64x-evm"}) {
    const auto b = board(name);
    for (Medium m : {Medium::Sd, Medium::Emmc, Medium::NorOspi, Medium::NorSpi, Medium::Nand,
                     Medium::Sata, Medium::UsbHost, Medium::Ufs, Medium::Nvme}) {
      std::unique_ptr<BoardPath> bp;
      try {
        bp = std::make_unique<BoardPath>(makeBoardPath(b, d, m));
      } catch (const wl::NotModelled&) {
        continue;
      }
      const auto& p = *bp->path;
      for (Dir dir : {Dir::Read, Dir::Write}) {
        const std::uint64_t lim = p.maxRequestBytes() ? p.maxRequestBytes() : (1ull << 40);
        std::vector<double> t;
        for (auto n : sizes)
          if (n <= lim) t.push_back(p.request(dir, n).total());
        for (std::size_t i = 0; i < t.size(); ++i) {
          const double n = double(sizes[i]);
          EXPECT_LE(n / t[i], p.linkBytesPerSecond(dir) * (1 + 1e-12))
              << name << " " << bp->describe() << " " << n;
        }
        if (t.size() < 3) continue;
        // Affine: equal size steps cost equal time (sizes double, so steps are n, 2n, ...).
        const double slope = (t[1] - t[0]) / double(sizes[1] - sizes[0]);
        for (std::size_t i = 2; i < t.size(); ++i)
          EXPECT_NEAR((t[i] - t[i - 1]) / double(sizes[i] - sizes[i - 1]), slope, 1e-9 * slope)
              << name << " " << bp->describe() << " " << (dir == Dir::Read ? "read" : "write");
        const double fixed = t[0] - slope * double(sizes[0]);
        EXPECT_GE(fixed, -1e-12) << name << " " << bp->describe();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20);
}

// `socsim explain` for an fio row: the breakdown names device, bus, DMA, file-system CPU and
// copy time.
TEST(StorageWorkloads, FioBreakdownShowsDeviceBusDmaFileSystemAndCopy) {
  validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(board("j7200-evm")));
  StorageWorkloads w(defaultStorageDir());
  for (const char* params : {"bs=4096;fs=ext4;op=read", "bs=1048576;fs=ext4;op=write"}) {
    const auto p = w.predict(ctx, {"emmc", "EMMC EXT4 FIO 1G", "Throughput", params, "MB/s"});
    std::set<std::string> kinds;
    for (const auto& [part, s] : p.breakdown.seconds) {
      EXPECT_GE(s, 0) << part;
      for (const char* k : {"device.", "bus.", "dma", "fs_", "copy"})
        if (part.find(k) != std::string::npos) kinds.insert(k);
    }
    EXPECT_EQ(kinds.size(), 5u) << params;
  }
}

// --- data and coverage ----------------------------------------------------------------------

TEST(StorageData, LoadsAndResolvesEveryPreset) {
  StorageData d;
  ASSERT_NO_THROW(d = StorageData::load(defaultStorageDir()));
  EXPECT_FALSE(d.rules.empty());
  EXPECT_FALSE(d.devices.empty());
  std::set<std::string> ids;
  for (const auto& dev : d.devices) EXPECT_TRUE(ids.insert(dev.id).second) << dev.id;
  EXPECT_NE(d.deviceFor("SanDisk Max Endurance SD card (SDSQQVR-032G-GN6IA)"), nullptr);
  EXPECT_NE(d.deviceFor("plextor px-128m8pey"), nullptr);
  EXPECT_EQ(d.deviceFor("no such card"), nullptr);
}

// calibrate's memo keys and candidate parameters come from the scalars a board's models
// consumed (config::ReadRecorder). Every device and controller preset is loaded, but a board
// records only the ones its peripherals pick: a screening step on one eMMC part re-runs the
// board with that part, not every board with storage rows.
TEST(StorageData, ABoardRecordsTheReadsOfThePresetsItPicksNotOfEveryPreset) {
  auto inFile = [](const config::ReadSet& reads, const std::string& stem) {
    for (const auto& [file, line] : reads)
      if (std::filesystem::path(file).stem() == stem) return true;
    return false;
  };
  StorageData d;
  config::ReadSet atLoad, picked;
  {
    config::ReadRecorder rec;
    d = StorageData::load(defaultStorageDir());
    atLoad = rec.reads();
  }
  EXPECT_TRUE(inFile(atLoad, "linux_io"));  // shared by every storage row
  EXPECT_FALSE(inFile(atLoad, "micron_mt29f2g08abaea"));
  EXPECT_FALSE(inFile(atLoad, "emmc_j721e_evm"));
  {
    config::ReadRecorder rec;
    ASSERT_NE(d.deviceFor("micron_mt29f2g08abaea"), nullptr);
    picked = rec.reads();
  }
  EXPECT_TRUE(inFile(picked, "micron_mt29f2g08abaea"));
  EXPECT_FALSE(inFile(picked, "micron_mt29f4g16abada"));
  // A recorder made later sees the pick again (each board's worker records its own).
  config::ReadRecorder again;
  d.deviceFor("micron_mt29f2g08abaea");
  EXPECT_TRUE(inFile(again.reads(), "micron_mt29f2g08abaea"));
}

// Every measured storage/boot row is covered (RNDIS networking and PCIe Ethernet belong to
// other workloads) and its board has the path the row needs.
TEST(StorageCoverage, EveryMeasuredRowIsCoveredAndHasAPath) {
  auto rows = calib::readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  const std::set<std::string> fams = {"mmc-sd", "emmc", "flash", "sata", "usb",
                                      "nand",   "ufs",  "boot",  "xip",  "pcie"};
  StorageWorkloads w(defaultStorageDir());
  const auto& d = w.data();
  std::map<std::string, soc::BoardConfig> boards;
  int n = 0;
  for (const auto& r : rows) {
    if (!fams.count(r.family)) continue;
    wl::Query q{r.family, r.benchmark, r.metric, r.params, r.unit};
    const bool other = r.benchmark.find("RNDIS") != std::string::npos ||
                       r.benchmark.find("PCI Ethernet") != std::string::npos;
    EXPECT_EQ(w.covers(q), !other) << r.family << " " << r.benchmark << " " << r.params;
    if (other) continue;
    ++n;
    auto c = parseCase(q);
    ASSERT_TRUE(c);
    if (c->app == App::Sbl) continue;
    if (!boards.count(r.board)) boards.emplace(r.board, board(r.board));
    EXPECT_NO_THROW(makeBoardPath(boards.at(r.board), d, c->medium))
        << r.board << " " << r.benchmark;
  }
  EXPECT_GT(n, 1900);
}

// Predictions on the platform are deterministic and finite.
TEST(StorageWorkloads, PredictionsOnThePlatformAreDeterministic) {
  validation::BoardRunContext ctx(std::make_unique<soc::BoardConfig>(board("j7200-evm")));
  StorageWorkloads w(defaultStorageDir());
  const std::vector<wl::Query> qs = {
      {"mmc-sd", "MMC RAW FIO 1G", "Throughput", "bs=4096;fs=raw;op=read", "MB/s"},
      {"mmc-sd", "MMC RAW FIO 1G", "CPU Load", "bs=4096;fs=raw;op=read", "%"},
      {"emmc", "EMMC EXT4 FIO 1G", "Throughput", "bs=1048576;fs=ext4;op=write", "MB/s"},
      {"flash", "OSPI Flash Driver", "Throughput", "buffer_size=262144;fs=ubifs;op=read", "MB/s"},
      {"boot", "Linux boot time MMCSD", "Boot time",
       "config=Linux boot time from SD with default rootfs (20 boot cycles)", "s"}};
  for (const auto& q : qs) {
    const auto a = w.predict(ctx, q), b = w.predict(ctx, q);
    EXPECT_EQ(a.value, b.value) << q.benchmark;
    EXPECT_TRUE(std::isfinite(a.value) && a.value > 0) << q.benchmark;
    EXPECT_FALSE(a.breakdown.seconds.empty()) << q.benchmark;
  }
  // A fresh workload object (cold caches of core costs) gives the same numbers.
  StorageWorkloads w2(defaultStorageDir());
  EXPECT_EQ(w.predict(ctx, qs[0]).value, w2.predict(ctx, qs[0]).value);
}
