#include "models/interconnect/interconnect.h"

#include <algorithm>
#include <string>

namespace socsim::models {

Interconnect::Stats::Stats(const std::string& path) : stats::Group(path) {
  counter("transactions", "count", "requests routed", &transactions);
  counter("read_bytes", "bytes", "read data carried", &readBytes);
  counter("write_bytes", "bytes", "write data carried", &writeBytes);
  counter("outstanding_stalls", "count", "requests that waited for a per-port in-flight slot",
          &outstandingStalls);
  counter("wait_ns", "ns", "time requests and responses waited for a busy link", &waitNs);
  counter("busy_ns", "ns", "link occupancy, request plus response", &busyNs);
}

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectParams& p)
    : sc_module(name), cpu_side("cpu_side"), mem_side("mem_side"), p_(p),
      stats_(std::string(this->name())) {
  requirePicosecondResolution();
  period_ = models::periodPs(p.clock_mhz);
  reqLat_ = period_ * static_cast<std::uint64_t>(p.latency_cycles / 2);
  respLat_ = period_ * static_cast<std::uint64_t>(p.latency_cycles - p.latency_cycles / 2);
  cpu_side.register_b_transport(this, &Interconnect::b_transport);
}

void Interconnect::addRoute(std::uint64_t base, std::uint64_t size, int index) {
  routes_.push_back({base, size, index});
}

int Interconnect::route(std::uint64_t addr) const {
  for (auto it = routes_.rbegin(); it != routes_.rend(); ++it)
    if (addr >= it->base && addr - it->base < it->size) return it->index;
  return 0;
}

void Interconnect::reset() {
  reqLink_.clear(nowPs());
  respLink_.clear(nowPs());
  for (auto& v : inFlight_) std::fill(v.begin(), v.end(), 0);
  for (auto& v : writesInFlight_) std::fill(v.begin(), v.end(), 0);
  for (auto& v : readsInFlight_) std::fill(v.begin(), v.end(), 0);
}

std::uint64_t* Interconnect::takeSlot(std::vector<std::vector<std::uint64_t>>& table, int id, int n,
                                      std::uint64_t& t) {
  if (table.size() <= static_cast<std::size_t>(id)) table.resize(static_cast<std::size_t>(id) + 1);
  auto& v = table[static_cast<std::size_t>(id)];
  if (v.empty()) v.assign(static_cast<std::size_t>(n), 0);
  std::uint64_t* slot = &*std::min_element(v.begin(), v.end());
  if (*slot > t) {
    ++stats_.outstandingStalls;
    t = *slot;
  }
  return slot;
}

void Interconnect::b_transport(int id, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  MemExtension& ext = memExt(p);
  std::uint64_t t = nowPs() + ps(delay);
  const std::uint64_t requested = t;
  const unsigned bytes = p.get_data_length();
  const std::uint64_t w = static_cast<std::uint64_t>(p_.width_bytes);
  const std::uint64_t occ = std::max<std::uint64_t>(1, (bytes + w - 1) / w) * period_;
  const bool write = p.is_write();

  std::uint64_t* slot = nullptr;
  std::uint64_t* dirSlot = nullptr;
  if (write && p_.max_outstanding_writes > 0)
    dirSlot = takeSlot(writesInFlight_, id, p_.max_outstanding_writes, t);
  if (!write && p_.max_outstanding_reads > 0)
    dirSlot = takeSlot(readsInFlight_, id, p_.max_outstanding_reads, t);
  if (p_.max_outstanding > 0) slot = takeSlot(inFlight_, id, p_.max_outstanding, t);
  // Request: a command beat, or the write data.
  const std::uint64_t reqOcc = write ? occ : period_;
  const std::uint64_t reqStart = reqLink_.reserve(t, reqOcc);
  const std::uint64_t arrive = reqStart + reqLat_;
  const std::uint64_t partsBefore = [&] {
    std::uint64_t s = 0;
    for (auto x : ext.parts) s += x;
    return s;
  }();
  sc_core::sc_time d = fromPs(arrive - nowPs());
  mem_side[static_cast<unsigned>(route(p.get_address()))]->b_transport(p, d);
  std::uint64_t back = nowPs() + ps(d);
  std::uint64_t targetPs = 0;
  for (auto x : ext.parts) targetPs += x;
  targetPs -= partsBefore;
  std::uint64_t done;
  if (write) {
    done = back + respLat_;
  } else {
    // Cut-through: the response link streams the data as the target returns it.
    const std::uint64_t respStart = respLink_.reserve(back >= occ ? back - occ : 0, occ);
    done = std::max(back, respStart + occ) + respLat_;
  }
  if (slot) *slot = done;
  if (dirSlot) *dirSlot = done;
  ++stats_.transactions;
  (write ? stats_.writeBytes : stats_.readBytes) += bytes;
  stats_.busyNs += static_cast<double>(reqOcc + (write ? 0 : occ)) / 1000.0;
  const std::uint64_t total = done - requested;
  const std::uint64_t own = total > targetPs ? total - targetPs : 0;
  stats_.waitNs += static_cast<double>(own - std::min(own, reqLat_ + respLat_)) / 1000.0;
  ext.add(Part::Interconnect, own);
  delay = fromPs(done - nowPs());
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace socsim::models
