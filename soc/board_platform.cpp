#include "soc/board_platform.h"

#include <utility>

#include "common/error.h"

namespace socsim::soc {

MissingPart::MissingPart(const std::string& file, const std::string& group, std::string part)
    : InputError(file, 0, group, "the board has no " + part + ", which the benchmark's memory system needs"),
      part_(std::move(part)) {}

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
    mc.memory_port = c.memory_port;
    m.clusters.push_back(mc);
  }
  if (m.clusters.empty())
    throw MissingPart(board.file, "clusters", "cluster with an L1 data cache");
  if (!board.dram || !board.ddrController)
    throw MissingPart(board.file, "dram", "DDR (dram and ddr_controller groups)");
  m.l3 = board.l3;
  m.interconnect = board.interconnect;
  m.ddr_controller = *board.ddrController;
  m.dram = *board.dram;
  // Linux hands a process scattered physical frames (buddy allocator order-0 pages). The
  // per-CPU lists' runs of consecutive frames ("runs", core_memory_pages.h) are closer to the
  // allocator, but measured on lmbench-mem + stream (session 8) they fit worse: physical
  // defaults MdAPE 15.2 -> 17.8 %, within 25 % 236 -> 202 of 335 rows (a cache-sized chase then
  // fits a 2-way L1 exactly, where the A15/A72 guides show ~40 % misses, and the DDR-bound
  // rows' bank spread changes); they fix the A53 rows (31k/62k/500k).
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
