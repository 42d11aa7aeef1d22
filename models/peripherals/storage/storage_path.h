#pragma once
/// @file storage_path.h
/// @brief What every storage controller + device model answers: the time of one request on the
///        medium, split into the parts `socsim explain` shows, and the interface's peak rate.
///
/// A storage path is a host controller (MMC/SD host, OSPI/QSPI controller, GPMC NAND, UFS host,
/// AHCI, USB host, PCIe root port) bound to the device the board's set-up attached to it (card,
/// flash part, disk, SSD). Models are transaction-level and closed-form: one call returns the
/// time one request of `bytes` takes when the path is otherwise idle (no queueing: the
/// software model on top decides what overlaps). Not modelled here: the software (block layer,
/// file systems, drivers: workloads/storage), DMA contention in the memory system.
#include <cstdint>
#include <string>

namespace socsim::models::storage {

enum class Dir { Read, Write };

/// Time of one request, by part, in seconds.
struct RequestTime {
  double command = 0;   ///< protocol commands/responses/handshakes on the link (not data)
  double device = 0;    ///< device access: latency to first data (read), programme/busy (write)
  double transfer = 0;  ///< data phase at the slowest of link, device streaming and DMA rates
  double setup = 0;     ///< controller work per request the link does not overlap (DMA set-up)
  double erase = 0;     ///< flash erase a write needs first (NOR/NAND; 0 for managed media)
  double total() const { return command + device + transfer + setup + erase; }
};

/// A host controller bound to its device.
class StoragePath {
 public:
  virtual ~StoragePath() = default;
  /// One request of `bytes` (the path splits nothing: callers keep to maxRequestBytes()).
  virtual RequestTime request(Dir dir, std::uint64_t bytes) const = 0;
  /// Peak data rate of the interface (bus or link, after line coding and framing), bytes/s:
  /// no request moves data faster.
  virtual double linkBytesPerSecond(Dir dir) const = 0;
  /// Seconds the controller's DMA engine moves `bytes` to or from memory at its own rate
  /// (overlapped with the data phase; 0 when the CPU moves the data).
  virtual double dmaSeconds(Dir dir, std::uint64_t bytes) const {
    (void)dir;
    (void)bytes;
    return 0;
  }
  /// True when the device's access/busy time of a `dir` request holds the link, so requests
  /// queued in the device (command queuing) cannot overlap it with another request's data
  /// phase: it is serial with the transfers whatever the queue depth (false: the device works
  /// on queued requests' accesses concurrently).
  virtual bool deviceTimeHoldsLink(Dir dir) const {
    (void)dir;
    return false;
  }
  /// Largest request the controller takes in one command (0 = no limit of its own).
  virtual std::uint64_t maxRequestBytes() const { return 0; }
  /// One line: controller, mode, device.
  virtual std::string describe() const = 0;
};

/// Bytes per second of `bytes` over `seconds` (0 when seconds is 0).
inline double rate(double bytes, double seconds) { return seconds > 0 ? bytes / seconds : 0; }

}  // namespace socsim::models::storage
