#pragma once
/// @file test_initiator.h
/// @brief TestInitiator: issues timed TLM reads/writes into a model's cpu_side from test code.
///
/// The memory-system models never call wait() in b_transport, so a test may call `read` and
/// `write` from sc_main context once elaboration is done (`elaborate()` = sc_start(0)).
/// Times are absolute picoseconds.
#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/base/transaction.h"

namespace socsim::test {

class TestInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TestInitiator> mem_side;

  explicit TestInitiator(sc_core::sc_module_name name) : sc_module(name), mem_side("mem_side") {
    payload_.set_extension(&ext_);
  }
  ~TestInitiator() override { payload_.clear_extension(&ext_); }

  /// Issue at absolute time `atPs` (>= sc_time_stamp); returns the completion time (ps).
  std::uint64_t read(std::uint64_t addr, unsigned bytes, std::uint64_t atPs) {
    return issue(tlm::TLM_READ_COMMAND, addr, bytes, atPs);
  }
  std::uint64_t write(std::uint64_t addr, unsigned bytes, std::uint64_t atPs) {
    return issue(tlm::TLM_WRITE_COMMAND, addr, bytes, atPs);
  }
  /// Requester id the following transactions carry (MemExtension::initiator): several cores.
  void setInitiator(int id) { ext_.initiator = id; }
  /// Latency parts of the last transaction.
  const models::MemExtension& last() const { return ext_; }

 private:
  std::uint64_t issue(tlm::tlm_command cmd, std::uint64_t addr, unsigned bytes, std::uint64_t atPs) {
    payload_.set_command(cmd);
    payload_.set_address(addr);
    payload_.set_data_length(bytes);
    payload_.set_data_ptr(nullptr);
    payload_.set_streaming_width(bytes);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext_.clearParts();
    const std::uint64_t now = models::nowPs();
    sc_core::sc_time d = models::fromPs(atPs > now ? atPs - now : 0);
    mem_side->b_transport(payload_, d);
    return now + models::ps(d);
  }
  tlm::tlm_generic_payload payload_;
  models::MemExtension ext_;
};

/// Finish elaboration so that sockets can be used (call once, after building the modules).
inline void elaborate() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }

}  // namespace socsim::test
