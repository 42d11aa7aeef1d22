#include "models/peripherals/mmc/mmc_host.h"

#include <algorithm>
#include <cmath>

#include "common/format.h"

namespace socsim::models {

using storage::Dir;
using storage::RequestTime;

namespace {
constexpr double kBlockBytes = 512;  // SD/eMMC data block (SDHC/SDXC, eMMC > 2 GB)
constexpr int kCrcBits = 16;         // CRC16 per data line per block
constexpr int kStartEndBits = 2;
}  // namespace

bool mmcModeIsDdr(const std::string& mode) {
  std::string m;
  for (char c : mode) m += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return m.find("ddr") != std::string::npos || m.find("hs400") != std::string::npos;
}

MmcHost::MmcHost(const MmcHostParams& host, const MmcBus& bus,
                 const storage::StorageDeviceParams& card)
    : host_(host), bus_(bus), card_(card) {
  bus_.width_bits = std::max(1, bus_.width_bits);
  if (!(bus_.clock_hz > 0)) bus_.clock_hz = 25e6;
}

double MmcHost::blockClocks(Dir dir) const {
  double data = kBlockBytes * 8 / bus_.width_bits;
  if (bus_.ddr) data /= 2;  // both edges; the CRC of each edge's bits takes the same 16 clocks
  double c = data + kCrcBits + kStartEndBits;
  if (dir == Dir::Write) c += host_.write_block_gap_clocks;
  return c;
}

double MmcHost::linkBytesPerSecond(Dir dir) const {
  // A read block is followed by the host's buffer-drain gap (the card clock stands still).
  const double gap = dir == Dir::Read ? host_.read_block_gap_ns * 1e-9 : 0.0;
  return kBlockBytes / (blockClocks(dir) / bus_.clock_hz + gap);
}

RequestTime MmcHost::request(Dir dir, std::uint64_t bytes) const {
  RequestTime t;
  const double n = static_cast<double>(bytes);
  t.command = host_.commands_per_request *
              (host_.command_clocks / bus_.clock_hz + host_.host_command_ns * 1e-9);
  const bool rd = dir == Dir::Read;
  t.device = (rd ? card_.read_latency_us : card_.write_latency_us) * 1e-6;
  const double cardRate = (rd ? card_.read_mbps : card_.write_mbps) * 1e6;
  const double r = std::min({linkBytesPerSecond(dir), cardRate, host_.dma_mbps * 1e6});
  t.transfer = n / r;
  const double desc = std::ceil(n / static_cast<double>(std::max<std::uint64_t>(1, host_.descriptor_bytes)));
  t.setup = desc * host_.descriptor_ns * 1e-9;
  return t;
}

std::string MmcHost::describe() const {
  return host_.name + " " + formatNumber(bus_.clock_hz / 1e6) + " MHz " +
         std::to_string(bus_.width_bits) + "-bit " + (bus_.ddr ? "DDR" : "SDR") + " + " +
         card_.name;
}

}  // namespace socsim::models
