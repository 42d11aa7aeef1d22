#pragma once
/// @file board_network.h
/// @brief A board's Ethernet side as the network models use it: its modelled MAC (the first
///        peripheral with a `cpsw` group, models::Cpsw), the network stack's and the test tool's
///        parameters (net_config.h), and the software costs measured on the board's core model
///        over its platform (stack_costs.h). Shared by the Ethernet benchmarks and by the IPSec
///        rows of workloads/crypto, which run an ESP stream over the same network path.
#include <memory>
#include <string>

#include "models/peripherals/cpsw/cpsw.h"
#include "workloads/net/net_config.h"
#include "workloads/net/net_sim.h"
#include "workloads/net/stack_costs.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct PeripheralParams;
}

namespace socsim::wl::net {

struct BoardNetwork {
  const soc::PeripheralParams* port = nullptr;  ///< the board config's Ethernet peripheral
  std::unique_ptr<models::Cpsw> mac;            ///< at the link rate asked for
  NetStack stack;
  NetTool tool;
  MeasuredCosts measured;
  SoftwareCosts costs;
  int cores = 1;  ///< the OS's cores (osCores)
};

/// Load the stack file `stackFile` (of the software stack `stackName`, for messages) and the
/// tool file `toolFile`, and measure the board's network software costs. The port is the first
/// peripheral with a `cpsw` group and no `nic` group (an on-chip MAC), or with `pcie` the first
/// with both (a PCIe-attached NIC; the caller adds the PCIe link's DMA time). The link runs at
/// the port's Ethernet rate (`link_speed_mbps`, a NIC's `ethernet_link_mbps`), or at `linkMbps`
/// when that is > 0 and slower (a link partner that negotiates less). Throws NotModelled when
/// the board has no such port, it has no link speed (a NIC: no PCIe link speed or width), or
/// the stack file does not exist; InputError for bad files.
BoardNetwork boardNetwork(RunContext& ctx, const std::string& stackFile,
                          const std::string& stackName, const std::string& toolFile,
                          double linkMbps = 0, bool pcie = false);

/// A test's simulation set-up with the stack's and the tool's defaults: interrupt pacing as the
/// driver defaults it (where the MAC paces), the interrupt on the first of `cores` OS cores and
/// the applications on the next ones, the tool's send and receive sizes, UDP rate and busy-wait,
/// the stack's default TCP window, the peer's response time, and the tool's warm-up, measured
/// time and burst period. A row's own settings (pacing, window, datagram size, rate) go on top.
SimConfig defaultSimConfig(const NetStack& stack, const NetTool& tool, const models::Cpsw& mac,
                           int cores, Traffic traffic);

}  // namespace socsim::wl::net
