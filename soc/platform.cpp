#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "soc/platform.h"

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "models/cache/cache.h"
#include "models/cpu/core_memory.h"
#include "models/dma/dma_port.h"
#include "models/interconnect/interconnect.h"
#include "models/memory/ddr_controller.h"

namespace socsim::soc {

using namespace socsim::models;

/// One cluster: its cores (each with L1I/L1D) and the shared L2.
class Cluster : public sc_core::sc_module {
 public:
  std::vector<std::unique_ptr<CoreMemory>> cpus;
  std::unique_ptr<Cache> l2;

  Cluster(sc_core::sc_module_name name, const MemoryClusterConfig& c, int firstId)
      : sc_module(name) {
    if (c.cores < 1) throw std::invalid_argument(std::string(this->name()) + ": cores < 1");
    for (int i = 0; i < c.cores; ++i)
      cpus.push_back(std::make_unique<CoreMemory>(("cpu" + std::to_string(i)).c_str(), c.memory,
                                                  c.l1i, c.l1d, c.core_clock_mhz, firstId + i));
    if (c.l2) {
      l2 = std::make_unique<Cache>("l2", *c.l2, c.core_clock_mhz, Part::L2);
      for (auto& cpu : cpus) {
        cpu->l1i.mem_side.bind(l2->cpu_side);
        cpu->l1d.mem_side.bind(l2->cpu_side);
      }
      if (c.l2->inclusion == "exclusive")
        for (auto& cpu : cpus) cpu->l1d.setEvictClean(true);
    }
  }
};

/// The "soc" module: creates every block in its constructor (so the hierarchy is soc.*) and
/// does all the binding (STYLE.md rule 7).
class SocTop : public sc_core::sc_module {
 public:
  std::vector<std::unique_ptr<Cluster>> clusters;
  std::vector<CoreMemory*> cores;
  std::unique_ptr<Interconnect> interconnect;
  std::unique_ptr<Cache> l3;
  std::unique_ptr<DdrController> ddr;
  std::unique_ptr<DmaPort> dma;  ///< peripheral DMA bus master (issue 6), after the clusters
  /// Clusters' own paths to memory (MemoryClusterConfig::memory_port), bound beside the
  /// shared interconnect to the L3 or DDR.
  std::vector<std::unique_ptr<Interconnect>> memoryPorts;

  SocTop(sc_core::sc_module_name name, const MemorySystemConfig& cfg) : sc_module(name) {
    if (cfg.clusters.empty()) throw std::invalid_argument("memory system: no cluster");
    interconnect = std::make_unique<Interconnect>("interconnect", cfg.interconnect);
    int id = 0;
    for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
      clusters.push_back(
          std::make_unique<Cluster>(("cluster" + std::to_string(c)).c_str(), cfg.clusters[c], id));
      Cluster& cl = *clusters.back();
      for (auto& cpu : cl.cpus) cores.push_back(cpu.get());
      id += cfg.clusters[c].cores;
      Interconnect* path = interconnect.get();
      if (cfg.clusters[c].memory_port) {
        memoryPorts.push_back(std::make_unique<Interconnect>(
            ("memory_port" + std::to_string(c)).c_str(), *cfg.clusters[c].memory_port));
        path = memoryPorts.back().get();
      }
      if (cl.l2) {
        cl.l2->mem_side.bind(path->cpu_side);
      } else {
        for (auto& cpu : cl.cpus) {
          cpu->l1i.mem_side.bind(path->cpu_side);
          cpu->l1d.mem_side.bind(path->cpu_side);
        }
      }
    }
    dma = std::make_unique<DmaPort>("dma", Platform::kDmaInitiatorId);
    dma->mem_side.bind(interconnect->cpu_side);
    ddr = std::make_unique<DdrController>("ddr", cfg.ddr_controller, cfg.dram);
    if (cfg.l3) {
      l3 = std::make_unique<Cache>("l3", *cfg.l3, cfg.interconnect.clock_mhz, Part::L3);
      interconnect->mem_side.bind(l3->cpu_side);
      for (auto& mp : memoryPorts) mp->mem_side.bind(l3->cpu_side);
      l3->mem_side.bind(ddr->cpu_side);
    } else {
      interconnect->mem_side.bind(ddr->cpu_side);
      for (auto& mp : memoryPorts) mp->mem_side.bind(ddr->cpu_side);
    }
  }
};

double TimeBreakdown::total() const {
  double s = 0;
  for (double x : seconds) s += x;
  return s;
}

std::vector<std::pair<std::string, double>> TimeBreakdown::items() const {
  std::vector<std::pair<std::string, double>> out;
  for (int i = 0; i < kParts; ++i)
    if (seconds[static_cast<std::size_t>(i)] > 0)
      out.emplace_back(partName(static_cast<Part>(i)), seconds[static_cast<std::size_t>(i)]);
  return out;
}

Platform::Platform(const MemorySystemConfig& cfg) : cfg_(cfg) {
  requirePicosecondResolution();
  tlm::tlm_global_quantum::instance().set(
      sc_core::sc_time(std::max(1.0, cfg.quantum_ns), sc_core::SC_NS));
  top_ = std::make_unique<SocTop>("soc", cfg_);
  const PageMap pages = PageMap::fromName(cfg_.physical_pages);
  for (auto* c : top_->cores) c->setPageMap(pages);
}

Platform::~Platform() = default;

int Platform::coreCount() const { return static_cast<int>(top_->cores.size()); }
int Platform::clusterCount() const { return static_cast<int>(top_->clusters.size()); }

CoreMemory& Platform::core(int index) {
  if (index < 0 || index >= coreCount())
    throw std::out_of_range("core " + std::to_string(index) + " (platform has " +
                            std::to_string(coreCount()) + ")");
  return *top_->cores[static_cast<std::size_t>(index)];
}

CoreMemory& Platform::core(int cluster, int index) {
  auto& cl = *top_->clusters.at(static_cast<std::size_t>(cluster));
  return *cl.cpus.at(static_cast<std::size_t>(index));
}

Cache* Platform::l2(int cluster) { return top_->clusters.at(static_cast<std::size_t>(cluster))->l2.get(); }
Cache* Platform::l3() { return top_->l3.get(); }
Interconnect& Platform::interconnect() { return *top_->interconnect; }
DdrController& Platform::ddr() { return *top_->ddr; }
DmaPort& Platform::dma() { return *top_->dma; }

RunResult Platform::run(int core, const Job& job) { return run({{core, job}}); }

void Platform::syncToHorizon() {
  for (int i = 0; i < coreCount(); ++i) horizonPs_ = std::max(horizonPs_, core(i).localPs());
  if (horizonPs_ > nowPs()) sc_core::sc_start(fromPs(horizonPs_ - nowPs()));
  else if (!sc_core::sc_start_of_simulation_invoked()) sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

RunResult Platform::run(const std::vector<std::pair<int, Job>>& jobs) {
  // Start every job at one SystemC time no earlier than anything a previous run reserved.
  syncToHorizon();
  const std::uint64_t start = nowPs();

  const std::size_t n = jobs.size();
  std::vector<std::uint64_t> end(n, start);
  std::vector<std::array<double, kParts>> before(n);
  std::exception_ptr error;
  int remaining = static_cast<int>(n);
  for (std::size_t j = 0; j < n; ++j) {
    CoreMemory& c = core(jobs[j].first);
    before[j] = c.breakdown();
    const Job* fn = &jobs[j].second;
    sc_core::sc_spawn(
        [&, j, fn, cp = &c] {
          try {
            cp->begin();
            (*fn)(*cp);
            cp->fence();
          } catch (...) {
            if (!error) error = std::current_exception();
          }
          end[j] = cp->localPs();
          --remaining;
        },
        sc_core::sc_gen_unique_name("job"));
  }
  const sc_core::sc_time step = tlm::tlm_global_quantum::instance().get();
  while (remaining > 0) sc_core::sc_start(step);
  if (error) std::rethrow_exception(error);

  RunResult r;
  std::size_t slowest = 0;
  for (std::size_t j = 0; j < n; ++j) {
    r.jobSeconds.push_back(static_cast<double>(end[j] - start) * 1e-12);
    if (end[j] > end[slowest]) slowest = j;
    horizonPs_ = std::max(horizonPs_, end[j]);
  }
  if (n > 0) {
    r.seconds = r.jobSeconds[slowest];
    const auto& after = core(jobs[slowest].first).breakdown();
    for (int i = 0; i < kParts; ++i) {
      auto k = static_cast<std::size_t>(i);
      r.breakdown.seconds[k] = (after[k] - before[slowest][k]) * 1e-12;
    }
  }
  return r;
}

void Platform::flushCaches() {
  // Reset at the time the next run starts, so that its timing (refresh phase included) does
  // not depend on what ran before.
  syncToHorizon();
  for (auto* c : top_->cores) c->resetState();
  for (auto& cl : top_->clusters)
    if (cl->l2) cl->l2->invalidateAll();
  if (top_->l3) top_->l3->invalidateAll();
  top_->interconnect->reset();
  for (auto& mp : top_->memoryPorts) mp->reset();
  top_->ddr->reset();
}

void Platform::resetStats() {
  stats::Registry::instance().resetAll();
  for (auto* c : top_->cores) c->resetBreakdown();
}

std::vector<stats::Sample> Platform::stats() const {
  return stats::Registry::instance().samples(std::string(top_->name()) + ".");
}

void Platform::writeStatsJson(std::ostream& os) const { stats::Registry::writeJson(os, stats()); }

double Platform::dramPeakBytesPerSecond() const { return cfg_.dram.peakBytesPerSecond(); }

}  // namespace socsim::soc
