#include "soc/board_platform.h"

#include "common/error.h"

namespace socsim::soc {

namespace {
bool hasMemorySide(const ClusterConfig& c) { return c.l1d.has_value(); }
}  // namespace

MemorySystemConfig memorySystemFor(const BoardConfig& board) {
  MemorySystemConfig m;
  m.clusters.clear();
  for (const auto& c : board.clusters) {
    if (!hasMemorySide(c)) continue;
    MemoryClusterConfig mc;
    mc.cores = c.info.cores;
    mc.core_clock_mhz = c.core.clock_mhz;
    mc.memory = c.memory;
    mc.l1d = *c.l1d;
    mc.l1i = c.l1i ? *c.l1i : *c.l1d;
    mc.l2 = c.l2;
    m.clusters.push_back(mc);
  }
  if (m.clusters.empty())
    throw InputError(board.file, 0, "clusters", "no cluster with an L1 data cache: the memory system cannot be built");
  if (!board.dram || !board.ddrController)
    throw InputError(board.file, 0, "dram", "the board has no DDR (dram and ddr_controller groups): memory benchmarks need one");
  m.l3 = board.l3;
  m.interconnect = board.interconnect;
  m.ddr_controller = *board.ddrController;
  m.dram = *board.dram;
  // Linux hands a process scattered physical frames (buddy allocator order-0 pages).
  m.physical_pages = board.software.stack.rfind("linux", 0) == 0 ? "scattered" : "identity";
  return m;
}

int mainMemoryCluster(const BoardConfig& board) {
  const ClusterConfig* main = &board.mainCluster();
  int idx = 0;
  for (const auto& c : board.clusters) {
    if (!hasMemorySide(c)) continue;
    if (&c == main) return idx;
    ++idx;
  }
  return 0;
}

}  // namespace socsim::soc
