#pragma once
/// @file ospi_controller.h
/// @brief SPI NOR host (OSPI/QSPI/SPI) with its NOR flash part.
///
/// Modelled: each flash operation as opcode, address and dummy clocks plus data clocks on 1/2/4/8
/// lines in STR or DTR (JESD251 xSPI octal DTR sends a 2-byte opcode and the address on both
/// edges), the controller's per-operation overhead, the read data path ceiling (direct-access
/// window with DMA, or the CPU copying words when there is no DMA), page program (write enable,
/// program operation, tPP with status polling) and sector erase (tSE). Not modelled: PHY/DLL
/// tuning of the read path (the SBL model adds its pattern reads), XIP prefetch, ECC.
#include <string>

#include "models/peripherals/ospi/ospi_params.h"
#include "models/peripherals/storage/storage_path.h"

namespace socsim::models {

class OspiController : public storage::StoragePath {
 public:
  OspiController(const SpiNorControllerParams& ctl, const SpiBus& bus, const NorFlashParams& flash);
  /// Read: ceil(bytes / max_op_bytes) read operations. Write: page programs only (the
  /// sectors must be erased: see erase()).
  storage::RequestTime request(storage::Dir dir, std::uint64_t bytes) const override;
  double linkBytesPerSecond(storage::Dir dir) const override;
  std::uint64_t maxRequestBytes() const override { return ctl_.max_op_bytes; }
  double dmaSeconds(storage::Dir dir, std::uint64_t bytes) const override {
    return dir == storage::Dir::Read && ctl_.dma_mbps > 0
               ? static_cast<double>(bytes) / (ctl_.dma_mbps * 1e6)
               : 0;
  }
  std::string describe() const override;

  /// Erasing `bytes` (whole sectors): write-enable + erase operation + tSE per sector.
  double eraseSeconds(std::uint64_t bytes) const;
  /// One hardware read burst of `bytes` through the direct-access (memory-mapped) window, as an
  /// XIP cache-line fill issues it: chip-select set-up/hold + opcode/address/dummy clocks + data
  /// clocks. No driver or per-operation software overhead (transaction_overhead_ns is the
  /// driver-issued operation's), no DMA ceiling (the requester is the CPU's bus master).
  double directReadSeconds(std::uint64_t bytes) const;
  /// Clocks of the command part (opcode, address, dummy) of one read operation.
  double readCommandClocks() const;
  /// CPU-busy seconds of CPU-moved data (PIO) within a read of `bytes` (0 with DMA): the
  /// register accesses of every PIO word, plus each word's shift time when the CPU polls in
  /// lockstep (it spins while the word is on the bus). Interrupt entries are not included
  /// (pioInterrupts: the caller prices them on the core). `dir` Write: programme data, on
  /// the host's transmit lines (dataClocks).
  double pioSeconds(std::uint64_t bytes, storage::Dir dir = storage::Dir::Read) const;
  /// Interrupts the CPU takes to move `bytes` by PIO (one per word with pio_word_interrupt).
  double pioInterrupts(std::uint64_t bytes) const;
  const SpiBus& bus() const { return bus_; }
  const NorFlashParams& flash() const { return flash_; }
  const SpiNorControllerParams& controller() const { return ctl_; }

 private:
  double clocksForBytes(double bytes) const;  ///< bytes on the data lines
  double opcodeClocks() const;  ///< one command opcode (write enable, program, erase, read)
  /// Bytes the host drives (address, programme data): on one line when the bus's
  /// address_lines is 1 (1-1-4), else on the data lines.
  double txClocksForBytes(double bytes) const;
  /// Clocks of `bytes` of data in direction `dir`: reads on the data lines, writes
  /// (programme data) on the lines the host transmits on (txClocksForBytes).
  double dataClocks(storage::Dir dir, double bytes) const;
  double pioWords(std::uint64_t bytes) const;          ///< PIO accesses for `bytes` (0 with DMA)
  double wordShiftSeconds(storage::Dir dir) const;     ///< one PIO word on the bus
  /// Data phase of `bytes` in direction `dir`: the bus, capped by the DMA ceiling or the CPU's
  /// PIO path.
  double dataSeconds(storage::Dir dir, std::uint64_t bytes) const;
  SpiNorControllerParams ctl_;
  SpiBus bus_;
  NorFlashParams flash_;
};

/// Lines and DTR from the peripheral's mode text ("octal-ddr", "octal", "quad", "dual", "single").
SpiBus spiBusFromMode(const std::string& mode, double clockMhz, int busWidthBits);

}  // namespace socsim::models
