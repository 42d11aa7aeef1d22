#include "models/peripherals/sata/ahci.h"

#include <algorithm>
#include <cctype>

#include "common/format.h"

namespace socsim::models {

double interfaceLineMbps(const std::string& interface) {
  std::string s;
  for (char c : interface) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "sata1") return 1500;
  if (s == "sata2") return 3000;
  if (s == "sata3") return 6000;
  if (s == "usb2") return 480;
  if (s == "usb3" || s == "usb3.0") return 5000;
  if (s == "usb3.1") return 10000;
  return 0;
}

storage::SerialLink AhciController::link(const AhciParams& h, double lineMbps,
                                         const storage::StorageDeviceParams& disk) {
  double line = lineMbps > 0 ? lineMbps : 3000;
  const double dev = interfaceLineMbps(disk.interface);
  if (dev > 0) line = std::min(line, dev);
  storage::SerialLink l;
  l.name = h.name + " " + formatNumber(line / 1000) + " Gbit/s";
  const double p = h.data_fis_payload_bytes;
  const double payload = line * 1e6 * 0.8 / 8 * p / (p + h.fis_overhead_bytes);  // 8b/10b
  l.read_bytes_per_s = payload;
  l.write_bytes_per_s = payload;
  l.command_s = h.command_overhead_us * 1e-6;
  l.dma_bytes_per_s = h.dma_mbps * 1e6;
  l.max_request_bytes = h.max_request_bytes;
  return l;
}

AhciController::AhciController(const AhciParams& host, double lineMbps,
                               const storage::StorageDeviceParams& disk)
    : SerialLinkPath(link(host, lineMbps, disk), disk), host_(host) {}

}  // namespace socsim::models
