#pragma once
/// @file transaction.h
/// @brief What the memory-system models add to a TLM generic payload: hints and a latency
///        breakdown, plus picosecond time helpers.
///
/// Models compute timing from absolute timestamps in picoseconds (the SystemC time resolution
/// must stay at its default, 1 ps). A request arrives at `sc_time_stamp() + delay`; each model
/// adds its share to `delay` and to the breakdown, so the initiator knows where the time went.
#include <array>
#include <cstdint>

#include <systemc>
#include <tlm>

namespace socsim::models {

/// Parts of a memory access's latency, for `socsim explain` (DESIGN.md modelling rule 4).
enum class Part : int {
  Core,          ///< issue slots and loop overhead in the core
  L1,            ///< L1 hit latency and L1 miss handling
  L2,
  L3,
  Interconnect,  ///< fabric latency and link contention
  Controller,    ///< DDR controller front end and back end (PHY)
  DramAccess,    ///< CAS latency and data bursts
  DramBusy,      ///< waiting for a busy bank, data bus or read/write turnaround
  DramRowMiss,   ///< precharge + activate on a row miss / closed row
  DramRefresh,   ///< waiting for a refresh
  Count
};
constexpr int kParts = static_cast<int>(Part::Count);
/// Stable names: "core", "l1", "l2", "l3", "interconnect", "ddr_controller", "dram.access",
/// "dram.busy", "dram.row_miss", "dram.refresh".
const char* partName(Part p);

using PartTimes = std::array<std::uint64_t, kParts>;  ///< picoseconds per part

/// Extension carried by every memory-system transaction.
struct MemExtension : tlm::tlm_extension<MemExtension> {
  PartTimes parts{};           ///< latency added by each part (ps)
  bool noAllocateL2 = false;   ///< write streaming beyond the L2 threshold: do not allocate below L1
  bool prefetch = false;       ///< a prefetch (counted apart from demand misses)
  bool cleanEviction = false;  ///< a clean victim sent to an exclusive lower level
  int initiator = 0;           ///< requester id (core index, DMA)
  std::uint32_t pc = 0;        ///< load instruction that caused the access (0 = unknown), for PC-indexed prefetchers

  void clearParts() { parts.fill(0); }
  void add(Part p, std::uint64_t ps) { parts[static_cast<int>(p)] += ps; }

  tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override {
    *this = static_cast<const MemExtension&>(e);
  }
};

/// The extension of `p`, or a scratch one when the initiator attached none.
inline MemExtension& memExt(tlm::tlm_generic_payload& p) {
  MemExtension* e = nullptr;
  p.get_extension(e);
  if (e) return *e;
  thread_local MemExtension scratch;
  scratch.clearParts();
  return scratch;
}

inline std::uint64_t ps(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time fromPs(std::uint64_t v) { return sc_core::sc_time::from_value(v); }
inline std::uint64_t nowPs() { return sc_core::sc_time_stamp().value(); }
/// Period of a clock in ps, rounded to the nearest ps.
inline std::uint64_t periodPs(double mhz) { return static_cast<std::uint64_t>(1e6 / mhz + 0.5); }
/// Throws std::logic_error unless the SystemC time resolution is 1 ps.
void requirePicosecondResolution();

}  // namespace socsim::models
