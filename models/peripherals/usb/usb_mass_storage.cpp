#include "models/peripherals/usb/usb_mass_storage.h"

#include <algorithm>

#include "common/format.h"
#include "models/peripherals/sata/ahci.h"

namespace socsim::models {

namespace {
constexpr double kMicroframeS = 125e-6;   // USB 2.0 high-speed microframe
constexpr double kHsBulkPerUframe = 13;   // USB 2.0 5.8.4: max 13 x 512-byte bulk per microframe
constexpr double kSsPacketOverhead = 30;  // DPH (16) + DPP CRC (4) + framing, bytes per 1024
}  // namespace

int UsbMassStorageHost::maxPacketBytes(double lineMbps) { return lineMbps > 480 ? 1024 : 512; }

double UsbMassStorageHost::bulkBytesPerSecond(double lineMbps) {
  if (lineMbps <= 12) return lineMbps * 1e6 / 8 * 0.8;  // full speed: 19 x 64 B per frame ~ 0.97 MB/s
  if (lineMbps <= 480) return kHsBulkPerUframe * 512 / kMicroframeS;
  return lineMbps * 1e6 * 0.8 / 8 * 1024 / (1024 + kSsPacketOverhead);
}

storage::SerialLink UsbMassStorageHost::link(const UsbHostParams& h, double lineMbps,
                                             const std::string& deviceInterface) {
  double line = lineMbps > 0 ? lineMbps : 480;
  const double dev = interfaceLineMbps(deviceInterface);
  if (dev > 0) line = std::min(line, dev);
  storage::SerialLink l;
  l.name = h.name + " USB " + (line > 480 ? "super speed" : "high speed");
  const double pkt = maxPacketBytes(line);
  double r = bulkBytesPerSecond(line);
  // Per-packet host gaps stretch each packet's slot.
  if (h.packet_overhead_ns > 0) r = pkt / (pkt / r + h.packet_overhead_ns * 1e-9);
  l.read_bytes_per_s = r;
  l.write_bytes_per_s = r;
  l.command_s = h.bot_stages_microframes * (line > 480 ? 0.125 * kMicroframeS : kMicroframeS);
  l.dma_bytes_per_s = h.dma_mbps * 1e6;
  l.max_request_bytes = line > 480 ? std::max<std::uint64_t>(h.max_request_bytes, 1048576)
                                   : h.max_request_bytes;
  return l;
}

UsbMassStorageHost::UsbMassStorageHost(const UsbHostParams& host, double lineMbps,
                                       const storage::StorageDeviceParams& disk)
    : SerialLinkPath(link(host, lineMbps, disk.interface), disk), host_(host) {}

}  // namespace socsim::models
