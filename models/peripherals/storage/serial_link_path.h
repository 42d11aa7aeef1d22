#pragma once
/// @file serial_link_path.h
/// @brief The shared timing of a serial-link storage path (UFS, SATA, USB mass storage, NVMe
///        over PCIe): per-command protocol overhead, data at the slowest of the link's payload
///        rate, the device's streaming rate and the host DMA, plus the device's access latency.
///
/// Each block (ufs/, sata/, usb/, pcie/) derives the link's payload rate from its own standard
/// (line rate, lanes, line coding, packet/frame overheads) and its command overhead from its
/// protocol; this class only composes them with the device.
#include <cstdint>
#include <string>

#include "models/peripherals/storage/storage_device_params.h"
#include "models/peripherals/storage/storage_path.h"

namespace socsim::models::storage {

struct SerialLink {
  std::string name;                 ///< "UFS HS-G3 x2"
  double read_bytes_per_s = 0;      ///< payload rate device -> host after coding and framing
  double write_bytes_per_s = 0;     ///< payload rate host -> device
  double command_s = 0;             ///< protocol exchange per command (command, status, doorbells)
  double dma_bytes_per_s = 0;       ///< host DMA ceiling; 0 = none
  std::uint64_t max_request_bytes = 0;
};

class SerialLinkPath : public StoragePath {
 public:
  SerialLinkPath(const SerialLink& link, const StorageDeviceParams& device)
      : link_(link), device_(device) {}
  RequestTime request(Dir dir, std::uint64_t bytes) const override;
  double linkBytesPerSecond(Dir dir) const override {
    return dir == Dir::Read ? link_.read_bytes_per_s : link_.write_bytes_per_s;
  }
  std::uint64_t maxRequestBytes() const override { return link_.max_request_bytes; }
  double dmaSeconds(Dir, std::uint64_t bytes) const override {
    return link_.dma_bytes_per_s > 0 ? static_cast<double>(bytes) / link_.dma_bytes_per_s : 0;
  }
  std::string describe() const override { return link_.name + " + " + device_.name; }
  const SerialLink& link() const { return link_; }
  const StorageDeviceParams& device() const { return device_; }

 private:
  SerialLink link_;
  StorageDeviceParams device_;
};

inline RequestTime SerialLinkPath::request(Dir dir, std::uint64_t bytes) const {
  RequestTime t;
  const bool rd = dir == Dir::Read;
  t.command = link_.command_s;
  t.device = (rd ? device_.read_latency_us : device_.write_latency_us) * 1e-6;
  double r = linkBytesPerSecond(dir);
  const double dev = (rd ? device_.read_mbps : device_.write_mbps) * 1e6;
  if (dev > 0 && dev < r) r = dev;
  if (link_.dma_bytes_per_s > 0 && link_.dma_bytes_per_s < r) r = link_.dma_bytes_per_s;
  t.transfer = r > 0 ? static_cast<double>(bytes) / r : 0;
  return t;
}

}  // namespace socsim::models::storage
