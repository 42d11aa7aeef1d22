#include "models/peripherals/nand/nand_controller.h"

#include <algorithm>
#include <cmath>

#include "common/format.h"

namespace socsim::models {

using storage::Dir;
using storage::RequestTime;

namespace {
constexpr int kCommandCycles = 2;  // e.g. 00h/30h (read), 80h/10h (program), 60h/D0h (erase)
constexpr int kAddressCycles = 5;  // 2 column + 3 row (large-page NAND, ONFI)
}  // namespace

NandController::NandController(const NandControllerParams& ctl, const NandFlashParams& flash,
                               int busWidthBits)
    : ctl_(ctl), flash_(flash) {
  int w = busWidthBits > 0 ? busWidthBits : flash_.bus_width_bits;
  widthBytes_ = std::max(1, w / 8);
}

double NandController::portSeconds(Dir dir, std::uint64_t bytes) const {
  const double page = static_cast<double>(std::max<std::uint64_t>(1, flash_.page_bytes));
  const double pages = std::max(1.0, std::ceil(static_cast<double>(bytes) / page));
  const double perPage = static_cast<double>(flash_.page_bytes + flash_.oob_bytes) / widthBytes_;
  const double cyc = (dir == Dir::Read ? ctl_.read_cycle_ns : ctl_.write_cycle_ns) * 1e-9;
  return pages * perPage * cyc;
}

double NandController::linkBytesPerSecond(Dir dir) const {
  const double cyc = (dir == Dir::Read ? ctl_.read_cycle_ns : ctl_.write_cycle_ns) * 1e-9;
  return widthBytes_ / cyc;
}

RequestTime NandController::request(Dir dir, std::uint64_t bytes) const {
  RequestTime t;
  const double page = static_cast<double>(std::max<std::uint64_t>(1, flash_.page_bytes));
  const double pages = std::max(1.0, std::ceil(static_cast<double>(bytes) / page));
  t.command = pages * (kCommandCycles + kAddressCycles) * ctl_.write_cycle_ns * 1e-9;
  t.transfer = portSeconds(dir, bytes);
  t.device = pages * (dir == Dir::Read ? flash_.read_us : flash_.program_us) * 1e-6;
  t.setup = pages * ctl_.ecc_page_us * 1e-6;
  return t;
}

double NandController::eraseSeconds(std::uint64_t bytes) const {
  const double blk = static_cast<double>(std::max<std::uint64_t>(1, flash_.block_bytes));
  const double blocks = std::max(1.0, std::ceil(static_cast<double>(bytes) / blk));
  return blocks * (flash_.erase_ms * 1e-3 + (kCommandCycles + 3) * ctl_.write_cycle_ns * 1e-9);
}

std::string NandController::describe() const {
  return ctl_.name + " " + std::to_string(widthBytes_ * 8) + "-bit (" +
         formatNumber(std::round(ctl_.read_cycle_ns)) + "/" +
         formatNumber(std::round(ctl_.write_cycle_ns)) +
         " ns read/write access) + " + flash_.name;
}

}  // namespace socsim::models
