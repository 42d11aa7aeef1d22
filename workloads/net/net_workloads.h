#pragma once
/// @file net_workloads.h
/// @brief The Ethernet benchmarks of the guides as one workload: iperf 2.0.5 TCP/UDP (guide 000,
///        Linux and RT Linux), netperf 2.7.1 TCP bidirectional and UDP RFC 2544 searches
///        (guide 003, CPSW2g), and the MCU+ lwIP iperf (guide 004, R5F).
///
/// A row is predicted by (1) measuring the board's network software costs on its core model
/// and memory system (stack_costs.h, once per board), (2) simulating the test packet by packet
/// (net_sim.h) with the board's MAC (models::Cpsw from the peripheral's `cpsw` group), the
/// software stack's parameters (`configs/workloads/net/stacks/<software.stack>.yaml`) and the
/// tool's (`configs/workloads/net/tools/*.yaml`), and (3) reading the row's metric off the
/// result as the tool reports it: throughput of payload in Mbit/s, packets (datagrams) per
/// second, loss, and CPU load = busy time of the OS's cores over the test time (netperf: all
/// cores; iperf: all cores; MCU+: the R5F). RFC 2544 rows (netperf "0 loss") search the
/// largest burst per `burst_period_ms` that the model delivers without a drop; "max" rows
/// (lwIP UDP RX) the largest offered rate with loss below the tool's threshold.
///
/// PCIe-attached Ethernet rows (guide 000 'PCI Ethernet', family `pcie`) run iperf TCP over the
/// board's PCIe NIC (the peripheral with a `nic` group: models::PcieNic under models::Cpsw), the
/// same Linux stack on the cores, the DMA crossing the PCIe link; set-up interpretation: iperf's
/// dual test (both directions at once, the sum reported), as its rates above a gigabit line say.
/// Not modelled (reported with the reason): boards without an Ethernet MAC model.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "models/peripherals/pcie/pcie_nic.h"
#include "workloads/net/net_config.h"
#include "workloads/net/net_sim.h"
#include "workloads/net/stack_costs.h"
#include "workloads/workload.h"

namespace socsim::wl::net {

enum class Tool { Iperf, Netperf, Lwiperf };
enum class Mode { Steady, ZeroLoss, MaxRate };
enum class Metric { Throughput, CpuLoad, Pps, Loss, OfferedRate };

/// What one measured row asks for.
struct RowTest {
  Tool tool = Tool::Iperf;
  Traffic traffic = Traffic::TcpRx;
  Mode mode = Mode::Steady;
  Metric metric = Metric::Throughput;
  int pacing = -1;           ///< 1 on, 0 off (the row says), -1 the stack's default
  double windowBytes = 0;    ///< TCP window (0 = the stack's default)
  int datagramBytes = 1470;  ///< UDP payload
  double offeredMbps = -1;   ///< UDP sender rate; -1 = the tool's default
  int stream = -1;           ///< bidirectional rows: 0 = DUT transmit, 1 = receive, -1 = sum
  bool pcie = false;         ///< over the board's PCIe-attached NIC (family `pcie`)
  /// Identity of the simulation (everything but the metric and stream).
  std::string simKey() const;
};

/// Parse a row's identity; nullopt when this workload does not cover it, NotModelled thrown
/// when it covers it but cannot model it.
std::optional<RowTest> parseRow(const Query& q);

class NetworkBenchmarks : public Workload {
 public:
  explicit NetworkBenchmarks(std::string dir);
  std::string name() const override { return "ethernet"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;

 private:
  struct BoardCosts {
    std::unique_ptr<models::Cpsw> mac;
    std::optional<models::PcieNic> pcieNic;  ///< set for a PCIe-attached NIC
    NetStack stack;
    NetTool tool;
    MeasuredCosts measured;
    SoftwareCosts costs;
    int cores = 1;
  };
  BoardCosts& costsFor(RunContext& ctx, Tool tool, bool pcie = false);
  SimConfig simConfig(const BoardCosts& bc, const RowTest& t) const;
  SimResult runTest(const BoardCosts& bc, const RowTest& t, SimConfig& used, double& offered);

  std::string dir_;
  std::map<std::string, BoardCosts> costs_;
  struct Run {
    SimResult r;
    SimConfig cfg;
    double offeredMbps = 0;
  };
  std::map<std::string, Run> runs_;
};

void registerNetWorkloads(Registry& r);

}  // namespace socsim::wl::net
