#include "models/dma/dma_port.h"

#include <algorithm>
#include <vector>

namespace socsim::models {

DmaPort::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("transfers", "count", "buffer moves requested", &transfers);
  counter("bursts", "count", "bus transactions issued", &bursts);
  counter("read_bytes", "bytes", "bytes read from memory (memory -> device)", &readBytes);
  counter("write_bytes", "bytes", "bytes written to memory (device -> memory)", &writeBytes);
  counter("latency_ns", "ns", "sum of burst latencies (issue to completion)", &latencyNs);
  formula("avg_burst_latency_ns", "ns", "mean burst latency",
          [this] { return bursts ? latencyNs / static_cast<double>(bursts) : 0.0; });
}

DmaPort::DmaPort(sc_core::sc_module_name name, int initiatorId)
    : sc_module(name), mem_side("mem_side"), id_(initiatorId), stats_(std::string(this->name())) {
  requirePicosecondResolution();
  payload_.set_extension(&ext_);
}

DmaPort::~DmaPort() {
  payload_.clear_extension(&ext_);
}

DmaPort::Transfer DmaPort::transfer(bool write, std::uint64_t addr, std::uint64_t bytes,
                                    std::uint64_t atPs, unsigned burstBytes, unsigned outstanding) {
  Transfer t;
  const std::uint64_t now = nowPs();
  const std::uint64_t start = std::max(atPs, now);
  t.startPs = start;
  t.endPs = start;
  if (bytes == 0) return t;
  burstBytes = std::max(1u, burstBytes);
  outstanding = std::max(1u, outstanding);
  std::vector<std::uint64_t> done;  // completion time of each burst, in issue order
  ++stats_.transfers;
  std::uint64_t a = addr;
  const std::uint64_t end = addr + bytes;
  while (a < end) {
    // A burst does not cross a burst-aligned boundary (bus bursts are aligned).
    const std::uint64_t next = std::min(end, (a / burstBytes + 1) * burstBytes);
    const unsigned len = static_cast<unsigned>(next - a);
    std::uint64_t issue = start;
    if (done.size() >= outstanding) issue = std::max(issue, done[done.size() - outstanding]);
    payload_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    payload_.set_address(a);
    payload_.set_data_length(len);
    payload_.set_data_ptr(nullptr);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext_.clearParts();
    ext_.prefetch = false;
    ext_.noAllocateL2 = false;
    ext_.cleanEviction = false;
    ext_.initiator = id_;
    sc_core::sc_time d = fromPs(issue - nowPs());
    mem_side->b_transport(payload_, d);
    const std::uint64_t c = std::max(issue, nowPs() + ps(d));
    for (int k = 0; k < kParts; ++k)
      t.parts[static_cast<std::size_t>(k)] += ext_.parts[static_cast<std::size_t>(k)];
    done.push_back(c);
    t.endPs = std::max(t.endPs, c);
    ++stats_.bursts;
    stats_.latencyNs += static_cast<double>(c - issue) * 1e-3;
    (write ? stats_.writeBytes : stats_.readBytes) += len;
    a = next;
  }
  return t;
}

}  // namespace socsim::models
