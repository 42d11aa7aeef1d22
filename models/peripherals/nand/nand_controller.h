#pragma once
/// @file nand_controller.h
/// @brief Parallel NAND host (GPMC with ELM, AEMIF) with its NAND part.
///
/// Modelled per page: command and address cycles, the array read tR or program tPROG, the data
/// and spare bytes through the data port at the programmed access time (8 or 16 bits per
/// access), ECC work, and block erase tBERS. When the CPU moves the data (no DMA) the transfer is
/// CPU time. Not modelled: cache read/program, multi-plane, bad blocks, read retry.
#include <string>

#include "models/peripherals/nand/nand_params.h"
#include "models/peripherals/storage/storage_path.h"

namespace socsim::models {

class NandController : public storage::StoragePath {
 public:
  NandController(const NandControllerParams& ctl, const NandFlashParams& flash, int busWidthBits);
  /// Whole pages: ceil(bytes / page) page reads or programs.
  storage::RequestTime request(storage::Dir dir, std::uint64_t bytes) const override;
  double linkBytesPerSecond(storage::Dir dir) const override;
  std::string describe() const override;
  /// Block erases for `bytes` (whole blocks).
  double eraseSeconds(std::uint64_t bytes) const;
  /// Seconds the data port is busy moving `bytes` of page data plus spare (CPU time when the
  /// CPU moves data).
  double portSeconds(storage::Dir dir, std::uint64_t bytes) const;
  const NandControllerParams& controller() const { return ctl_; }
  const NandFlashParams& flash() const { return flash_; }

 private:
  NandControllerParams ctl_;
  NandFlashParams flash_;
  int widthBytes_ = 1;
};

}  // namespace socsim::models
