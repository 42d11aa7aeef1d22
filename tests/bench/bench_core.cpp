// Simulator speed of the core model: simulated instructions per host second on one host core,
// for a cache-resident workload (Dhrystone profile). Issue 4 asks for >= 50 M/s.
//
//   BM_CoreModelFixedMemory/<core>: generator + CoreModel + a plain L1 tag model (no SystemC);
//   BM_CoreModelPlatform/<core>:    generator + CoreModel + the platform's L1 caches through
//                                   PlatformPort inside a SystemC job (the path `socsim validate`
//                                   takes; L1 hits cost no TLM call).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "common/paths.h"
#include "soc/board_platform.h"
#include "soc/config/loader.h"
#include "soc/platform.h"
#include "workloads/cpu/cpu_workloads.h"
#include "workloads/cpu/platform_port.h"
#include "workloads/cpu/stream_generator.h"

using namespace socsim;

namespace {

const wl::cpu::WorkloadProfile& dhrystone() {
  static const auto profiles = wl::cpu::loadProfiles(wl::cpu::defaultProfileDir());
  for (const auto& p : profiles)
    if (p.info.name == "dhrystone") return p;
  throw std::runtime_error("no dhrystone profile");
}

const soc::BoardConfig& board(const std::string& name) {
  static std::map<std::string, soc::BoardConfig> boards;
  auto it = boards.find(name);
  if (it == boards.end())
    it = boards
             .emplace(name, soc::loadBoard(socsim::configsDir() + "/boards/" +
                                           name + ".yaml"))
             .first;
  return it->second;
}

constexpr std::uint64_t kInstructions = 2000000;

void BM_CoreModelFixedMemory(benchmark::State& state, const std::string& boardName) {
  const auto& c = board(boardName).mainCluster();
  models::FixedLatencyMemory::Config mc;
  mc.l1d_bytes = c.l1d->size_bytes;
  mc.l1i_bytes = c.l1i->size_bytes;
  mc.ways = c.l1d->associativity;
  mc.line_bytes = c.l1d->line_bytes;
  mc.l1_hit_latency_cycles = c.l1d->hit_latency_cycles;
  for (auto _ : state) {
    models::FixedLatencyMemory mem(mc);
    models::CoreModel core(c.core, c.timing, mem);
    wl::cpu::StreamGenerator gen(dhrystone());
    benchmark::DoNotOptimize(core.run(gen, kInstructions));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kInstructions);
  state.counters["sim_instructions_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kInstructions, benchmark::Counter::kIsRate);
}

// One platform per process (SystemC elaborates once): the j721e board's memory system.
soc::Platform& platform() {
  static soc::Platform p(soc::memorySystemFor(board("j721e-idk-gw")));
  return p;
}

void BM_CoreModelPlatform(benchmark::State& state) {
  const auto& c = board("j721e-idk-gw").mainCluster();
  soc::Platform& plat = platform();
  for (auto _ : state) {
    plat.run(0, [&](models::CoreMemory& cm) {
      wl::cpu::PlatformPort port(cm);
      models::CoreModel core(c.core, c.timing, port);
      wl::cpu::StreamGenerator gen(dhrystone());
      const std::uint64_t q = port.quantumCycles();
      for (std::uint64_t done = 0; done < kInstructions;) {
        done += core.run(gen, kInstructions - done, core.now() + q);
        port.sync(core.now());
      }
    });
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kInstructions);
  state.counters["sim_instructions_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kInstructions, benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK_CAPTURE(BM_CoreModelFixedMemory, cortex_a72, std::string("j721e-idk-gw"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CoreModelFixedMemory, cortex_a53, std::string("am654x-evm"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CoreModelFixedMemory, cortex_a8, std::string("am335x-evm"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CoreModelPlatform)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
