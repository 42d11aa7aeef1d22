#include "soc/memory_system_config.h"

#include "soc/config/board_config.h"

namespace socsim::soc {

MemorySystemConfig memorySystemFromBoard(const BoardConfig& board, std::vector<int>* clusterIndex) {
  MemorySystemConfig m;
  m.clusters.clear();
  if (clusterIndex) clusterIndex->clear();
  for (std::size_t i = 0; i < board.clusters.size(); ++i) {
    const ClusterConfig& c = board.clusters[i];
    if (!c.l1d) continue;
    MemoryClusterConfig mc;
    mc.cores = c.info.cores;
    mc.core_clock_mhz = c.core.clock_mhz;
    mc.memory = c.memory;
    mc.l1d = *c.l1d;
    mc.l1i = c.l1i ? *c.l1i : *c.l1d;
    mc.l2 = c.l2;
    m.clusters.push_back(mc);
    if (clusterIndex) clusterIndex->push_back(static_cast<int>(i));
  }
  m.l3 = board.l3;
  m.interconnect = board.interconnect;
  if (board.ddrController) m.ddr_controller = *board.ddrController;
  if (board.dram) m.dram = *board.dram;
  return m;
}

}  // namespace socsim::soc
