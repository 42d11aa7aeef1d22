#include "workloads/net/board_network.h"

#include <algorithm>
#include <filesystem>

#include "soc/config/board_config.h"
#include "workloads/cpu/workload_profile.h"

namespace socsim::wl::net {

BoardNetwork boardNetwork(RunContext& ctx, const std::string& stackFile,
                          const std::string& stackName, const std::string& toolFile,
                          double linkMbps, bool pcie) {
  const soc::BoardConfig& b = ctx.board();
  // An on-chip MAC: the first peripheral with a `cpsw` group and no `nic` group; a PCIe NIC:
  // the first with both.
  const soc::PeripheralParams* eth = nullptr;
  for (const auto& p : b.peripherals)
    if (p.cpsw && p.nic.has_value() == pcie) {
      eth = &p;
      break;
    }
  if (!eth)
    throw NotModelled{
        "board " + b.board.name +
        (pcie ? " has no PCIe-attached Ethernet NIC (peripherals[] with `nic` and `cpsw` groups)"
              : " has no Ethernet MAC with a model group (peripherals[].cpsw)")};
  const double portMbps = pcie ? eth->nic->ethernet_link_mbps : eth->link_speed_mbps;
  if (!(portMbps > 0))
    throw NotModelled{"Ethernet peripheral " + eth->instance + " of board " + b.board.name +
                      " has no link speed"};
  if (pcie && !(eth->link_speed_mbps > 0 && eth->lanes > 0))
    throw NotModelled{"PCIe NIC " + eth->instance + " of board " + b.board.name +
                      " has no PCIe link speed or width"};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(stackFile, ec))
    throw NotModelled{"no network stack model for software stack '" + stackName + "' (" +
                      stackFile + ")"};
  BoardNetwork n;
  n.port = eth;
  const double link = linkMbps > 0 ? std::min(linkMbps, portMbps) : portMbps;
  n.mac = std::make_unique<models::Cpsw>(*eth->cpsw, link);
  n.stack = loadNetStack(stackFile);
  n.tool = loadNetTool(toolFile);
  const cpu::WorkloadProfile code = cpu::loadProfile(n.stack.codeProfileFile);
  const cpu::WorkloadProfile app = cpu::loadProfile(n.tool.appProfileFile);
  n.measured = measureCosts(ctx, code, app, *n.mac);
  n.costs = toSoftwareCosts(n.measured, n.stack.p, n.tool.p, *eth->cpsw, &b.software.kernel_paths);
  n.cores = static_cast<int>(osCores(b, n.stack.p.uses_kernel_paths).size());
  return n;
}

SimConfig defaultSimConfig(const NetStack& stack, const NetTool& tool, const models::Cpsw& mac,
                           int cores, Traffic traffic) {
  const NetStackParams& s = stack.p;
  const NetToolParams& tp = tool.p;
  SimConfig c;
  c.traffic = traffic;
  c.stack = s;
  c.pacing = s.pacing_default && mac.params().interrupt_pacing;
  c.tso = mac.params().tso_offload;
  c.cores = std::max(1, cores);
  c.irqCore = 0;
  c.appCores = {1 % c.cores, 2 % c.cores};
  if (c.cores <= tp.app_on_irq_core_max_cores) c.appCores = {c.irqCore, 1 % c.cores};
  c.appSpin = tp.udp_spin;
  c.tcpSendBytes = tp.tcp_send_bytes;
  c.tcpRecvBytes = tp.tcp_recv_bytes;
  c.tcpWindowBytes = s.tcp_default_window_bytes;
  c.peerTurnaround = tp.peer_turnaround_us * 1e-6;
  c.peerDatagramGap = tp.peer_datagram_us * 1e-6;
  c.peerByteGap = tp.peer_byte_ns * 1e-9;
  c.burstPeriod = tp.burst_period_ms * 1e-3;
  c.warmup = tp.warmup_ms * 1e-3;
  c.duration = tp.duration_ms * 1e-3;
  c.offeredBps = tp.udp_rate_mbps * 1e6;
  return c;
}

}  // namespace socsim::wl::net
