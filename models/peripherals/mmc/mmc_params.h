#pragma once
/// @file mmc_params.h
/// @brief Parameters of an MMC/SD host controller (SDHCI-class: K3 sdhci, OMAP HSMMC,
///        DaVinci MMC/SD) and of the bus mode it runs. The card is a StorageDeviceParams preset.
///
/// Scope: the host IP (with its Linux driver's per-request work), shared by every board that
/// has the IP. Bus facts (clock, width, mode) come from the board's peripheral instance.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct MmcHostParams {
  std::string name = "sdhci";            ///< host IP family
  int commands_per_request = 2;          ///< bus commands per multi-block transfer
  int command_clocks = 136;              ///< CMD + Ncr + response + Nrc, bus clocks
  double host_command_ns = 1000;         ///< host latency per command (issue to CMD line, status)
  int write_block_gap_clocks = 10;       ///< CRC status token and gaps after each written block
  double read_block_gap_ns = 0;          ///< bus stopped between read blocks while the host drains its buffer
  double dma_mbps = 1000;                ///< ADMA2 master rate into the interconnect, MB/s
  std::uint64_t descriptor_bytes = 65536;  ///< largest buffer one ADMA2 descriptor moves
  double descriptor_ns = 200;            ///< per descriptor fetch and set-up
  std::uint64_t max_request_bytes = 524288;  ///< largest request the Linux host driver takes
  double driver_request_instructions = 6000;  ///< Linux mmc core + host driver per request
  int irqs_per_request = 2;              ///< interrupts per request (command done, data done)
  double uboot_command_us = 50;          ///< U-Boot driver per command (polled, cache maintenance)
  double uboot_max_clock_mhz = 0;        ///< bus clock cap of the U-Boot driver (high speed, SDR); 0 = as Linux
  double high_speed_clock_mhz = 50;      ///< bus clock the host runs an SD card at in high speed (SDR, 3.3 V)
  int command_queue_slots = 1;           ///< tasks the host queues to an eMMC 5.1 card (CQHCI; 1 = none)

  static const params::Schema<MmcHostParams>& schema() {
    using P = MmcHostParams;
    static const auto s =
        params::Schema<P>("mmc_host")
            .text("name", &P::name, "host IP family", "SoC TRM MMCSD chapter")
            .integer("commands_per_request", &P::commands_per_request, "count", 1, 4,
                     "bus commands per multi-block transfer (CMD18/CMD25 plus CMD12 or CMD23)",
                     "SD Physical Layer Simplified Spec 4.3 / JESD84-B51 multi-block transfers")
            .integer("command_clocks", &P::command_clocks, "clocks", 50, 1000,
                     "one command and its response on the CMD line: 48 + Ncr + 48 + Nrc clocks",
                     "SD Physical Layer Simplified Spec 4.12 timing (48-bit tokens, Ncr <= 64, "
                     "Nrc >= 8; 32 assumed for Ncr)")
            .real("host_command_ns", &P::host_command_ns, "ns", 0, 1e6,
                  "host latency per command from issue to CMD line and back to status",
                  "calibrated: a few hundred interface-clock cycles of an SDHCI host")
            .integer("write_block_gap_clocks", &P::write_block_gap_clocks, "clocks", 0, 1000,
                     "CRC status token and line turnarounds after each written block",
                     "SD Physical Layer Simplified Spec 4.12 (Ncrc + status token + Nwr)")
            .real("read_block_gap_ns", &P::read_block_gap_ns, "ns", 0, 1e5,
                  "time the bus stands between the blocks of a multi-block read: the host stops "
                  "the card clock (SDHCI read wait / clock stop) until its DMA has drained the "
                  "block buffer and re-armed it for the next block",
                  "calibrated: SD Host Controller Simplified Spec 3.00 (buffer read enable, "
                  "clock stop at block gaps); of the order of one 512-byte DMA drain through the "
                  "host's interconnect port")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 1, 100000,
                  "ADMA2 master rate into the interconnect",
                  "calibrated: 64-bit AXI/OCP master at a few hundred MHz")
            .bytes("descriptor_bytes", &P::descriptor_bytes, 512, 1 << 30,
                   "largest buffer one ADMA2 descriptor moves",
                   "SD Host Controller Simplified Spec 3.00 ADMA2 (16-bit length: 64 KiB)")
            .real("descriptor_ns", &P::descriptor_ns, "ns", 0, 1e6,
                  "per ADMA2 descriptor fetch and set-up", "calibrated: one interconnect read")
            .bytes("max_request_bytes", &P::max_request_bytes, 512, 1ull << 32,
                   "largest request the Linux host driver accepts (mmc max_req_size)",
                   "Linux drivers/mmc/host/sdhci.c (max_req_size 512 KiB)")
            .real("driver_request_instructions", &P::driver_request_instructions,
                  "instructions", 0, 1e7,
                  "Linux mmc block + core + host driver work per request (issue, completion)",
                  "calibrated: order of the mmc_blk/mmc_core/sdhci request path")
            .integer("irqs_per_request", &P::irqs_per_request, "count", 0, 100,
                     "interrupts per request (command complete, transfer complete)",
                     "SD Host Controller Simplified Spec 3.00 interrupt status")
            .real("uboot_command_us", &P::uboot_command_us, "us", 0, 1e6,
                  "U-Boot host driver time per command (polled status, cache maintenance set-up)",
                  "calibrated: tens of microseconds of polled register access")
            .real("uboot_max_clock_mhz", &P::uboot_max_clock_mhz, "MHz", 0, 1000,
                  "fastest bus clock the host's U-Boot driver runs (high speed, SDR: a driver "
                  "without UHS-I/HS200 tuning); 0 = the bus mode Linux runs",
                  "the host's U-Boot driver (drivers/mmc/)")
            .real("high_speed_clock_mhz", &P::high_speed_clock_mhz, "MHz", 1, 52,
                  "bus clock the host runs an SD card at in high speed (SDR, 3.3 V signalling): "
                  "the fastest divider of its reference clock at or below 50 MHz; used when a "
                  "release's Linux does not switch the card to UHS-I (software.sd_uhs false)",
                  "SD Physical Layer Simplified Spec (high speed: 50 MHz max)")
            .integer("command_queue_slots", &P::command_queue_slots, "count", 1, 32,
                     "tasks the host can queue to an eMMC 5.1 device that supports command "
                     "queuing (CQHCI task slots; 1 = the host has no command-queue engine)",
                     "eMMC CQHCI (JESD84-B51 section 6.6.39, 32 tasks) and the host's Linux "
                     "driver registering it");
    return s;
  }
};

/// The bus a host runs, from the board's peripheral facts.
struct MmcBus {
  double clock_hz = 50e6;
  int width_bits = 4;
  bool ddr = false;  ///< DDR50 / DDR52 / HS400
};

}  // namespace socsim::models
