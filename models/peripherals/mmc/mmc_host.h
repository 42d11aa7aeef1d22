#pragma once
/// @file mmc_host.h
/// @brief MMC/SD host controller with its card (SD card or eMMC device).
///
/// Modelled: the bus (clock, 1/4/8 data lines, SDR or DDR) with the per-block framing of the
/// SD/eMMC specifications (start bit, CRC16 per line, end bit, CRC status token on writes),
/// the commands of a multi-block transfer on the CMD line, the host's per-command latency and
/// ADMA2 descriptors, the host's buffer-drain gap between read blocks (the card clock stops
/// until the block buffer is free again), and the card's access latency and internal streaming
/// rates (the slower of bus, card and DMA sets the data phase). A write's busy time holds the
/// data lines (deviceTimeHoldsLink). Not modelled here: tuning, card-internal garbage
/// collection pauses, boot partitions, SPI mode (command queueing is the software model's:
/// workloads/storage/linux_io.cpp).
#include <string>

#include "models/peripherals/mmc/mmc_params.h"
#include "models/peripherals/storage/storage_device_params.h"
#include "models/peripherals/storage/storage_path.h"

namespace socsim::models {

class MmcHost : public storage::StoragePath {
 public:
  MmcHost(const MmcHostParams& host, const MmcBus& bus, const storage::StorageDeviceParams& card);
  storage::RequestTime request(storage::Dir dir, std::uint64_t bytes) const override;
  double linkBytesPerSecond(storage::Dir dir) const override;
  std::uint64_t maxRequestBytes() const override { return host_.max_request_bytes; }
  double dmaSeconds(storage::Dir, std::uint64_t bytes) const override {
    return static_cast<double>(bytes) / (host_.dma_mbps * 1e6);
  }
  /// Writes: after a write's last block the card holds DAT0 low (busy) until it can take more
  /// data (the busy signalling of JESD84-B51 and of the SD Physical Layer
  /// Simplified Spec data write); a queued task's data phase waits
  /// for it (eMMC CMDQ queues commands, not data). Reads: queued tasks' accesses overlap.
  bool deviceTimeHoldsLink(storage::Dir dir) const override { return dir == storage::Dir::Write; }
  std::string describe() const override;

  /// Bus clocks one 512-byte block occupies on the data lines.
  double blockClocks(storage::Dir dir) const;
  const MmcHostParams& host() const { return host_; }
  const MmcBus& bus() const { return bus_; }
  const storage::StorageDeviceParams& card() const { return card_; }

 private:
  MmcHostParams host_;
  MmcBus bus_;
  storage::StorageDeviceParams card_;
};

/// Bus mode from the peripheral's `mode` text: DDR for ddr50/ddr52/hs400.
bool mmcModeIsDdr(const std::string& mode);

}  // namespace socsim::models
