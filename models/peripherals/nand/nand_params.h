#pragma once
/// @file nand_params.h
/// @brief Parameters of a parallel NAND interface (GPMC, AEMIF) and of the NAND part on it.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

/// The NAND host IP (GPMC/ELM, AEMIF) with its Linux driver. Scope: the IP.
struct NandControllerParams {
  std::string name = "gpmc";
  double read_cycle_ns = 60;     ///< one bus read access (RE# cycle as programmed), ns
  double write_cycle_ns = 60;    ///< one bus write access (WE# cycle), ns
  double ecc_page_us = 20;       ///< ECC syndrome/correction work per page (hardware + driver)
  bool cpu_moves_data = true;    ///< the CPU reads/writes the data port (no DMA): CPU busy
  double driver_page_instructions = 3000;  ///< Linux raw NAND + MTD + UBI work per page

  static const params::Schema<NandControllerParams>& schema() {
    using P = NandControllerParams;
    static const auto s =
        params::Schema<P>("nand_controller")
            .text("name", &P::name, "controller IP family", "SoC TRM")
            .real("read_cycle_ns", &P::read_cycle_ns, "ns", 1, 1e5,
                  "one data-port read access as the driver programs the interface timing",
                  "calibrated: GPMC/AEMIF timing of the SDK device tree (tens of ns)")
            .real("write_cycle_ns", &P::write_cycle_ns, "ns", 1, 1e5,
                  "one data-port write access", "calibrated: as read_cycle_ns")
            .real("ecc_page_us", &P::ecc_page_us, "us", 0, 1e5,
                  "ECC syndrome read-out and correction work per page",
                  "calibrated: BCH8 with the ELM (AM335x) / 4-bit ECC (DaVinci)")
            .flag("cpu_moves_data", &P::cpu_moves_data,
                  "the CPU moves page data through the data port (prefetch FIFO, no DMA)",
                  "Linux omap2 NAND / davinci_nand default transfer mode")
            .real("driver_page_instructions", &P::driver_page_instructions, "instructions", 0,
                  1e7, "Linux raw NAND + MTD + UBI work per page",
                  "calibrated: order of the nand_read_page path");
    return s;
  }
};

/// A raw NAND part. Scope: the part (device preset).
struct NandFlashParams {
  std::string name;
  std::uint64_t page_bytes = 2048;
  std::uint64_t oob_bytes = 64;
  std::uint64_t block_bytes = 131072;
  double read_us = 25;       ///< tR
  double program_us = 250;   ///< tPROG
  double erase_ms = 2;       ///< tBERS
  int bus_width_bits = 8;

  static const params::Schema<NandFlashParams>& schema() {
    using P = NandFlashParams;
    static const auto s =
        params::Schema<P>("nand_flash")
            .text("name", &P::name, "part name", "the part's datasheet")
            .required()
            .bytes("page_bytes", &P::page_bytes, 512, 1 << 20, "data bytes per page",
                   "the part's datasheet")
            .bytes("oob_bytes", &P::oob_bytes, 0, 1 << 16, "spare bytes per page",
                   "the part's datasheet")
            .bytes("block_bytes", &P::block_bytes, 4096, 1ull << 30, "erase block",
                   "the part's datasheet")
            .real("read_us", &P::read_us, "us", 0, 1e5, "array read time tR",
                  "the part's datasheet (maximum)")
            .real("program_us", &P::program_us, "us", 0, 1e5, "page program time tPROG",
                  "calibrated: the part's typical tPROG")
            .real("erase_ms", &P::erase_ms, "ms", 0, 1e4, "block erase time tBERS",
                  "calibrated: the part's typical tBERS")
            .integer("bus_width_bits", &P::bus_width_bits, "bits", 8, 16, "data bus width",
                     "the part's datasheet");
    return s;
  }
};

}  // namespace socsim::models
