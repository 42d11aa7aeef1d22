// socsim config --board B [--set PATH=VALUE]... [--format yaml|table|csv|json]
// socsim boards [--format table|csv|json]
// socsim params [--scope S] [--format table|csv|json]
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
#include "common/error.h"
#include "common/format.h"
#include "common/table.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"

namespace socsim::app {

std::string boardsDir() {
  return sourceDir() + "/configs/boards";
}

std::set<std::string> boardNames() {
  std::set<std::string> names;
  for (const auto& f : soc::listBoardFiles(boardsDir()))
    names.insert(std::filesystem::path(f).stem().string());
  return names;
}

std::vector<calib::MeasuredRow> readMeasuredArg(const std::vector<std::string>& files) {
  auto boards = boardNames();
  if (files.empty()) return calib::readMeasuredDir(measuredDir(), &boards);
  return calib::readMeasuredFiles(files, &boards);
}

soc::BoardConfig loadBoardArg(const std::string& board, const std::vector<std::string>& overrides) {
  return soc::loadBoard(soc::findBoardFile(board, boardsDir()), overrides);
}

void printOverrideWarnings(const soc::BoardConfig& board) {
  static std::set<std::string> shown;
  for (const auto& w : soc::overrideWarnings(board))
    if (shown.insert(w).second) std::cerr << "warning: " << w << "\n";
}

Action addConfig(CLI::App& app) {
  struct Opts {
    std::string board, format = "yaml";
    std::vector<std::string> sets;
    bool noComments = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand(
      "config", "print a board's resolved configuration: every field, its unit and its source");
  sub->add_option("--board", o->board,
                  "board name from configs/boards/ or the path to a board YAML file")
      ->required();
  sub->add_option("--set", o->sets,
                  "override PATH=VALUE (repeatable): " + config::overridePathSyntax() +
                      " A --set dram.data_rate=R keeps the DRAM preset's speed-bin timings (the "
                      "preset is not switched; a warning on stderr names the preset of that rate "
                      "if one exists: add --set dram.preset=../components/dram/<file> before it "
                      "for that bin's timings).");
  sub->add_option("--format", o->format,
                  "yaml (default, loadable as a board file) | table | csv | json");
  sub->add_flag("--no-comments", o->noComments, "yaml: omit the preset comments");
  return [o]() {
    if (o->format != "yaml" && o->format != "table" && o->format != "csv" && o->format != "json")
      throw InputError("", 0, "--format",
                       "expected yaml, table, csv or json, got '" + o->format + "'");
    soc::BoardConfig b = loadBoardArg(o->board, o->sets);
    printOverrideWarnings(b);
    if (o->format == "yaml") {
      soc::WriteOptions opt;
      opt.presetComments = !o->noComments;
      soc::writeResolvedConfig(b, std::cout, opt);
      return 0;
    }
    Format fmt = parseFormat(o->format);
    Table t;
    t.columns = {"path", "value", "unit", "source"};
    t.numeric = {false, false, false, false};
    for (const auto& f : soc::resolvedFields(b)) t.addRow({f.path, f.value, f.unit, f.source});
    t.print(std::cout, fmt);
    return 0;
  };
}

}  // namespace socsim::app
