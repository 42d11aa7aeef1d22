#include "models/peripherals/ospi/ospi_controller.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/format.h"

namespace socsim::models {

using storage::Dir;
using storage::RequestTime;

SpiBus spiBusFromMode(const std::string& mode, double clockMhz, int busWidthBits) {
  std::string m;
  for (char c : mode) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  SpiBus b;
  b.clock_hz = (clockMhz > 0 ? clockMhz : 50) * 1e6;
  if (m.find("octal") != std::string::npos)
    b.lines = 8;
  else if (m.find("quad") != std::string::npos)
    b.lines = 4;
  else if (m.find("dual") != std::string::npos)
    b.lines = 2;
  else if (busWidthBits > 0)
    b.lines = std::min(8, busWidthBits);
  else
    b.lines = 1;
  b.dtr = m.find("ddr") != std::string::npos || m.find("dtr") != std::string::npos;
  // "1-1-4" / "1-1-2" / "1-1-8": opcode and address on one line, data on the wide bus.
  if (m.find("1-1-") != std::string::npos) b.address_lines = 1;
  return b;
}

OspiController::OspiController(const SpiNorControllerParams& ctl, const SpiBus& bus,
                               const NorFlashParams& flash)
    : ctl_(ctl), bus_(bus), flash_(flash) {
  bus_.lines = std::max(1, bus_.lines);
  if (!(bus_.clock_hz > 0)) bus_.clock_hz = 50e6;
}

double OspiController::clocksForBytes(double bytes) const {
  return bytes * 8 / bus_.lines / (bus_.dtr ? 2 : 1);
}

double OspiController::txClocksForBytes(double bytes) const {
  if (bus_.address_lines <= 0) return clocksForBytes(bytes);
  return bytes * 8 / bus_.address_lines / (bus_.dtr ? 2 : 1);
}

double OspiController::readCommandClocks() const {
  return opcodeClocks() + txClocksForBytes(flash_.address_bytes) + flash_.read_dummy_cycles;
}

double OspiController::opcodeClocks() const {
  const int opBytes = bus_.dtr ? std::max(2, flash_.opcode_bytes) : 1;
  // The opcode goes on all lines in octal/DTR protocols (8D-8D-8D), on one line otherwise
  // (1-1-4 / 1-4-4 fast reads send the opcode on DQ0).
  return bus_.lines >= 8 ? clocksForBytes(opBytes) : 8.0 * opBytes;
}

double OspiController::linkBytesPerSecond(Dir) const {
  return bus_.clock_hz * bus_.lines * (bus_.dtr ? 2 : 1) / 8;
}

double OspiController::pioWords(std::uint64_t bytes) const {
  if (ctl_.dma_mbps > 0) return 0;
  const double w = static_cast<double>(std::max<std::uint64_t>(1, ctl_.pio_word_bytes));
  return std::ceil(static_cast<double>(bytes) / w);
}

double OspiController::pioSeconds(std::uint64_t bytes, Dir dir) const {
  const double words = pioWords(bytes);
  double perWord = ctl_.pio_word_ns * 1e-9;
  if (ctl_.pio_word_lockstep && !ctl_.pio_word_interrupt) perWord += wordShiftSeconds(dir);
  return words * perWord;
}

double OspiController::pioInterrupts(std::uint64_t bytes) const {
  return ctl_.pio_word_interrupt ? pioWords(bytes) : 0;
}

double OspiController::dataClocks(Dir dir, double bytes) const {
  return dir == Dir::Write ? txClocksForBytes(bytes) : clocksForBytes(bytes);
}

double OspiController::wordShiftSeconds(Dir dir) const {
  return dataClocks(dir, static_cast<double>(std::max<std::uint64_t>(1, ctl_.pio_word_bytes))) /
         bus_.clock_hz;
}

double OspiController::dataSeconds(Dir dir, std::uint64_t bytes) const {
  const double n = static_cast<double>(bytes);
  const double onBus = dataClocks(dir, n) / bus_.clock_hz;
  if (ctl_.dma_mbps > 0) return std::max(onBus, n / (ctl_.dma_mbps * 1e6));
  // Lockstep PIO: every word's register accesses and its shift follow one another.
  if (ctl_.pio_word_lockstep)
    return pioWords(bytes) * (ctl_.pio_word_ns * 1e-9 + wordShiftSeconds(dir));
  return std::max(onBus, pioSeconds(bytes, dir));
}

RequestTime OspiController::request(Dir dir, std::uint64_t bytes) const {
  RequestTime t;
  const double n = static_cast<double>(bytes);
  const double clk = bus_.clock_hz;
  const double ovh = ctl_.transaction_overhead_ns * 1e-9;
  if (dir == Dir::Read) {
    const double ops =
        ctl_.max_op_bytes ? std::max(1.0, std::ceil(n / static_cast<double>(ctl_.max_op_bytes)))
                          : 1.0;
    t.command = ops * (readCommandClocks() / clk + ovh);
    if (ctl_.dma_mbps > 0 && ctl_.dac_burst_bytes > 0) {
      // DMA from the direct-access window: every burst is a flash read of its own, and the
      // controller holds chip select high for tSHSL before it starts the next one.
      const double bursts = std::ceil(n / static_cast<double>(ctl_.dac_burst_bytes));
      const double csNs = ctl_.dac_cs_overhead_ns + ctl_.dac_cs_high_ns;
      t.command = ops * ovh + bursts * (readCommandClocks() / clk + csNs * 1e-9);
    }
    t.transfer = dataSeconds(Dir::Read, bytes);
    return t;
  }
  // Page programs: write enable (opcode only), program (opcode + address + page data), tPP.
  const double page = static_cast<double>(std::max<std::uint64_t>(1, flash_.page_bytes));
  const double pages = std::max(1.0, std::ceil(n / page));
  const double opClocks = opcodeClocks();
  t.command = pages * (2 * (opClocks / clk + ovh) + txClocksForBytes(flash_.address_bytes) / clk);
  // With a DMA read path the programme data streams at the bus rate; without one the CPU's
  // PIO path moves it (in lockstep word by word where the controller has no FIFO). A host
  // that transmits on one line (1-1-4 reads) programmes on one line too (dataClocks).
  t.transfer = ctl_.dma_mbps > 0 ? dataClocks(Dir::Write, n) / clk : dataSeconds(Dir::Write, bytes);
  // The driver polls status every status_poll_us: on average half an interval is lost.
  t.device = pages * (flash_.page_program_us + 0.5 * ctl_.status_poll_us) * 1e-6;
  return t;
}

double OspiController::directReadSeconds(std::uint64_t bytes) const {
  return ctl_.dac_cs_overhead_ns * 1e-9 +
         (readCommandClocks() + clocksForBytes(static_cast<double>(bytes))) / bus_.clock_hz;
}

double OspiController::eraseSeconds(std::uint64_t bytes) const {
  const double sector = static_cast<double>(std::max<std::uint64_t>(1, flash_.sector_bytes));
  const double sectors = std::max(1.0, std::ceil(static_cast<double>(bytes) / sector));
  const double opClocks = opcodeClocks();
  const double ops = 2 * (opClocks / bus_.clock_hz + ctl_.transaction_overhead_ns * 1e-9) +
                     txClocksForBytes(flash_.address_bytes) / bus_.clock_hz;
  return sectors * (ops + flash_.sector_erase_ms * 1e-3 + 0.5 * ctl_.status_poll_us * 1e-6);
}

std::string OspiController::describe() const {
  return ctl_.name + " " + std::to_string(bus_.lines) + "-line " +
         (bus_.address_lines > 0 ? "(address on " + std::to_string(bus_.address_lines) + ") " : "") +
         (bus_.dtr ? "DTR " : "STR ") +
         formatNumber(bus_.clock_hz / 1e6) + " MHz + " + flash_.name;
}

}  // namespace socsim::models
