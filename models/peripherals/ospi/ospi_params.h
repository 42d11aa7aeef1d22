#pragma once
/// @file ospi_params.h
/// @brief Parameters of a SPI NOR host (Cadence OSPI/QSPI, TI QSPI, McSPI driving a NOR) and of
///        the NOR flash part on it.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

/// The controller IP (with its Linux driver's per-operation work). Scope: the IP.
struct SpiNorControllerParams {
  std::string name = "cadence-ospi";
  double transaction_overhead_ns = 500;  ///< per flash operation: chip-select, set-up, restart
  double dma_mbps = 400;                 ///< read data path ceiling (DAC window + DMA); 0 = CPU PIO
  double pio_word_ns = 100;              ///< CPU time per FIFO/data-register access (PIO paths)
  std::uint64_t pio_word_bytes = 4;      ///< bytes moved per PIO access (4: 32-bit FIFO word)
  bool pio_word_lockstep = false;        ///< PIO sends a word and waits for its receive (no FIFO)
  bool pio_word_interrupt = false;       ///< each PIO word completes by its own interrupt
  std::uint64_t max_op_bytes = 0;        ///< largest data phase of one operation; 0 = no limit
  double driver_op_instructions = 4000;  ///< Linux spi-mem/spi-nor/mtd work per flash operation
  double status_poll_us = 10;            ///< interval between WIP status polls while busy
  double dac_cs_overhead_ns = 120;       ///< chip-select set-up + hold of one direct-access burst
  double dac_cs_high_ns = 0;             ///< minimum chip-select high (tSHSL) between two bursts
  std::uint64_t dac_burst_bytes = 0;     ///< DMA read burst through the direct-access window; 0 = one op

  static const params::Schema<SpiNorControllerParams>& schema() {
    using P = SpiNorControllerParams;
    static const auto s =
        params::Schema<P>("spi_nor_controller")
            .text("name", &P::name, "controller IP family", "SoC TRM")
            .real("transaction_overhead_ns", &P::transaction_overhead_ns, "ns", 0, 1e6,
                  "per flash operation: chip-select set-up/hold and controller restart",
                  "calibrated: tens of controller clocks")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 0, 100000,
                  "read data path ceiling (direct-access window with DMA); 0 = the CPU copies",
                  "calibrated: the FSS/DMA path of the SoC TRM")
            .real("pio_word_ns", &P::pio_word_ns, "ns", 0, 1e6,
                  "CPU time per FIFO, window or data-register access when the CPU moves the data",
                  "calibrated: one uncached peripheral access over the interconnect")
            .bytes("pio_word_bytes", &P::pio_word_bytes, 1, 64,
                   "bytes the CPU moves per PIO access: 4 for a 32-bit FIFO or window word; 1 "
                   "when the controller's data register holds one SPI word and the Linux "
                   "spi-nor layer transfers 8-bit words",
                   "the controller's TRM (data register width) and Linux spi-nor (bits_per_word 8)")
            .flag("pio_word_lockstep", &P::pio_word_lockstep,
                  "PIO without a FIFO: the driver writes one word and waits until it is received "
                  "before the next, so each word's shift time on the bus adds to the CPU's "
                  "register accesses instead of overlapping them",
                  "Linux spi-omap2-mcspi PIO loop (wait TXS, write TX, wait RXS, read RX) and "
                  "spi-davinci (one word per transmit/receive event)")
            .flag("pio_word_interrupt", &P::pio_word_interrupt,
                  "each PIO word completes by an interrupt (no DMA channel in the device tree: "
                  "spi-davinci's interrupt mode), so every word also pays the kernel's interrupt "
                  "entry and exit on the core",
                  "Linux spi-davinci: SPI_IO_TYPE_INTR unless DMA channels are given")
            .bytes("max_op_bytes", &P::max_op_bytes, 0, 1ull << 32,
                   "largest data phase of one operation (0 = no limit)",
                   "the Linux spi-mem driver's max transfer size")
            .real("driver_op_instructions", &P::driver_op_instructions, "instructions", 0, 1e7,
                  "Linux mtd + spi-nor + spi-mem + controller driver work per flash operation",
                  "calibrated: order of the spi-mem exec_op path")
            .real("status_poll_us", &P::status_poll_us, "us", 0, 1e6,
                  "interval between write-in-progress polls while the flash is busy",
                  "Linux spi-nor (busy polling, no sleep)")
            .real("dac_cs_overhead_ns", &P::dac_cs_overhead_ns, "ns", 0, 1e5,
                  "chip-select set-up (tSLCH) + hold (tCHSH) of one hardware burst through the "
                  "direct-access (memory-mapped) window, e.g. an XIP cache-line fill; no driver "
                  "work is involved",
                  "K3 EVM device trees: cdns,tslch-ns = 60 + cdns,tchsh-ns = 60 (OSPI_DEV_DELAY)")
            .real("dac_cs_high_ns", &P::dac_cs_high_ns, "ns", 0, 1e5,
                  "minimum chip-select deassert time (tSHSL) the controller holds between two "
                  "flash operations; a DMA stream through the direct-access window pays it once "
                  "per burst, on top of the chip-select set-up and hold (0 = no gap beyond the "
                  "set-up and hold)",
                  "the board's device tree cdns,tshsl-ns (Cadence QSPI/OSPI DEV_DELAY register, "
                  "Linux spi-cadence-quadspi cqspi_delay): 60 ns on the K3 EVMs, 500 ns on "
                  "the K2G EVM")
            .bytes("dac_burst_bytes", &P::dac_burst_bytes, 0, 1ull << 20,
                   "bytes of one DMA read burst through the direct-access window when the "
                   "driver reads by DMA from the memory-mapped flash: the direct-access "
                   "controller turns each burst into its own flash read (chip select, opcode, "
                   "address, dummy clocks); 0 = the whole operation is one flash read "
                   "(indirect mode)",
                   "calibrated: the SoC DMA's read burst on the FSS data region (64-256 bytes)");
    return s;
  }
};

/// A serial NOR flash part. Scope: the part (a device preset).
struct NorFlashParams {
  std::string name;
  std::uint64_t page_bytes = 256;        ///< program page
  std::uint64_t sector_bytes = 65536;    ///< erase unit the software uses
  double page_program_us = 250;          ///< tPP, typical
  double sector_erase_ms = 300;          ///< tSE of one sector, typical
  int opcode_bytes = 1;                  ///< 1 (SPI) or 2 (octal DTR command extension)
  int address_bytes = 4;
  int read_dummy_cycles = 8;             ///< fast-read dummy clocks at the board's clock
  double max_clock_mhz = 133;

  static const params::Schema<NorFlashParams>& schema() {
    using P = NorFlashParams;
    static const auto s =
        params::Schema<P>("nor_flash")
            .text("name", &P::name, "part name", "the part's datasheet")
            .required()
            .bytes("page_bytes", &P::page_bytes, 1, 1 << 20, "program page size",
                   "the part's datasheet")
            .bytes("sector_bytes", &P::sector_bytes, 256, 1 << 30,
                   "erase unit the software uses (UBI physical eraseblock)", "the part's datasheet")
            .real("page_program_us", &P::page_program_us, "us", 0, 1e6,
                  "page program time tPP", "calibrated: the part's typical tPP")
            .real("sector_erase_ms", &P::sector_erase_ms, "ms", 0, 1e5,
                  "sector erase time tSE", "calibrated: the part's typical tSE")
            .integer("opcode_bytes", &P::opcode_bytes, "bytes", 1, 2,
                     "opcode bytes (2 in octal DTR mode: opcode + extension)",
                     "JESD251 xSPI / the part's datasheet")
            .integer("address_bytes", &P::address_bytes, "bytes", 2, 4, "address bytes",
                     "the part's datasheet (4-byte addressing above 16 MiB)")
            .integer("read_dummy_cycles", &P::read_dummy_cycles, "clocks", 0, 64,
                     "fast-read dummy clocks at the board's clock", "the part's datasheet")
            .real("max_clock_mhz", &P::max_clock_mhz, "MHz", 1, 1000, "highest SPI clock",
                  "the part's datasheet");
    return s;
  }
};

/// Lines and clock the board runs the flash at.
struct SpiBus {
  double clock_hz = 50e6;
  int lines = 1;     ///< 1, 2, 4, 8
  bool dtr = false;  ///< data on both edges
  /// Lines the address goes on: 0 = the data lines (1-4-4, 8D-8D-8D); 1 when the host's
  /// transmit side is one line (device tree spi-tx-bus-width 1: a 1-1-4 quad output read).
  int address_lines = 0;
};

}  // namespace socsim::models
