#pragma once
/// @file mcu_workloads.h
/// @brief MCU+ SDK rows of guide 004 (no RTOS, R5F at 800 MHz): IPC Notify / RPMsg latency
///        (`ipc`), MCAN CAN FD loopback messages per second (`mcan`), McSPI transfers in polled,
///        interrupt and DMA mode (`mcspi`), and USB RNDIS lwIP TCP TX (`usb`, NET Driver rows).
///
/// Driver software is instruction counts (configs/workloads/mcu/mcu.yaml) run on the core model
/// of the core executing them (R5F, M4F, A53: CPI of driver-like code from the core model over
/// an L1/TCM-resident memory); register and shared-memory accesses are bus times; the wire
/// parts are the closed forms of models/peripherals/mcan (CAN FD frame bits incl. stuffing)
/// and models/peripherals/mcspi (word time + inter-word delay).
#include <map>
#include <string>

#include "workloads/cpu/workload_profile.h"
#include "workloads/mcu/mcu_params.h"
#include "workloads/workload.h"

namespace socsim::soc {
struct ClusterConfig;
}

namespace socsim::wl::mcu {

class McuWorkloads : public Workload {
 public:
  explicit McuWorkloads(std::string file);
  std::string name() const override { return "mcu-drivers"; }
  bool covers(const Query& q) const override;
  Prediction predict(RunContext& ctx, const Query& q) override;
  const McuData& data() const { return data_; }

 private:
  /// Cycles per instruction of driver code on `c` (core model, cached per core type/clock).
  double cpi(const soc::ClusterConfig& c);
  Prediction ipc(RunContext& ctx, const Query& q);
  Prediction mcan(RunContext& ctx, const Query& q);
  Prediction mcspi(RunContext& ctx, const Query& q);
  Prediction rndis(RunContext& ctx, const Query& q);

  std::string file_;
  McuData data_;
  std::string loadError_;
  cpu::WorkloadProfile driverProfile_;
  std::map<std::string, double> cpi_;
};

void registerMcuWorkloads(Registry& r);

}  // namespace socsim::wl::mcu
