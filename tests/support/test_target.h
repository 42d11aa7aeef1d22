#pragma once
/// @file test_target.h
/// @brief TestTarget: a memory with a fixed latency per access that records what it received.
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "models/base/transaction.h"

namespace socsim::test {

class TestTarget : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<TestTarget> cpu_side;

  struct Access {
    bool write;
    std::uint64_t addr;
    unsigned bytes;
    std::uint64_t atPs;  ///< arrival time
  };
  std::vector<Access> log;
  std::uint64_t latencyPs;

  TestTarget(sc_core::sc_module_name name, std::uint64_t latencyPs)
      : sc_module(name), cpu_side("cpu_side"), latencyPs(latencyPs) {
    cpu_side.register_b_transport(this, &TestTarget::b_transport);
  }

  void b_transport(int, tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const std::uint64_t at = models::nowPs() + models::ps(delay);
    log.push_back({p.is_write(), p.get_address(), p.get_data_length(), at});
    models::memExt(p).add(models::Part::DramAccess, latencyPs);
    delay += models::fromPs(latencyPs);
    p.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  std::size_t reads() const {
    std::size_t n = 0;
    for (auto& a : log) n += !a.write;
    return n;
  }
  std::size_t writes() const { return log.size() - reads(); }
};

}  // namespace socsim::test
