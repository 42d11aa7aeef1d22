// socsim boards [--format table|csv|json]: one row per board file in configs/boards/.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "apps/socsim/commands.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"
#include "soc/config/loader.h"

namespace socsim::app {

namespace {
std::string sizeText(std::uint64_t bytes) {
  if (bytes == 0) return "";
  if (bytes % (1024ull * 1024) == 0) return std::to_string(bytes / (1024ull * 1024)) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string coresText(const soc::BoardConfig& b) {
  // "2x cortex-a72" or "4x cortex-r5f (2 clusters) + 1x cortex-m4f"
  std::vector<std::pair<std::string, std::pair<int, int>>> byType;  // type -> (cores, clusters)
  for (const auto& c : b.clusters) {
    auto it = std::find_if(byType.begin(), byType.end(),
                           [&](const auto& p) { return p.first == c.core.type; });
    if (it == byType.end())
      byType.push_back({c.core.type, {c.info.cores, 1}});
    else {
      it->second.first += c.info.cores;
      it->second.second += 1;
    }
  }
  std::string s;
  for (const auto& [type, n] : byType) {
    if (!s.empty()) s += " + ";
    s += std::to_string(n.first) + "x " + type;
    if (n.second > 1) s += " (" + std::to_string(n.second) + " clusters)";
  }
  return s;
}

std::string l2Text(const soc::BoardConfig& b) {
  const auto& m = b.mainCluster();
  if (!m.l2) return "";
  int withL2 = 0;
  for (const auto& c : b.clusters)
    if (c.l2 && c.core.type == m.core.type) ++withL2;
  return sizeText(m.l2->size_bytes) + (withL2 > 1 ? " x" + std::to_string(withL2) : "");
}

std::string dramText(const soc::BoardConfig& b) {
  if (!b.dram) return "";
  const auto& d = *b.dram;
  std::string s = d.standard + " " + formatNumber(d.data_rate_mts) + " MT/s ";
  if (d.channels > 1) s += std::to_string(d.channels) + "x";
  return s + std::to_string(d.bus_width_bits) + "-bit";
}
}  // namespace

Action addBoards(CLI::App& app) {
  struct Opts {
    std::string format = "table";
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("boards", "list the boards in configs/boards/");
  sub->add_option("--format", o->format, "table|csv|json");
  return [o]() {
    Format fmt = parseFormat(o->format);
    Table t;
    t.columns = {"name", "soc", "cores", "clock_mhz", "l2", "l3", "dram", "stack", "file"};
    t.numeric = {false, false, false, true, false, false, false, false, false};
    auto files = soc::listBoardFiles(boardsDir());
    if (files.empty()) throw InputError(boardsDir(), 0, "", "no board files (*.yaml) found");
    // A broken board file is reported and the others are still listed (exit status 2).
    int broken = 0;
    for (const auto& f : files) {
      std::optional<soc::BoardConfig> loaded;
      try {
        loaded.emplace(soc::loadBoard(f));
      } catch (const InputError& e) {
        std::cerr << "socsim: error: " << e.what() << "\n";
        ++broken;
        continue;
      }
      const soc::BoardConfig& b = *loaded;
      const auto& m = b.mainCluster();
      std::string rel = std::filesystem::path(f).lexically_relative(sourceDir()).string();
      t.addRow({b.board.name, b.board.soc, coresText(b), formatNumber(m.core.clock_mhz), l2Text(b),
                b.l3 ? sizeText(b.l3->size_bytes) : "", dramText(b), b.software.stack,
                rel.empty() || rel.rfind("..", 0) == 0 ? f : rel});
    }
    t.print(std::cout, fmt);
    if (broken)
      std::cerr << "socsim: " << broken << " of " << files.size()
                << " board files could not be loaded (see above)\n";
    return broken ? 2 : 0;
  };
}

}  // namespace socsim::app
