// socsim: command-line entry. Thin: parses arguments, calls the libraries (DESIGN.md,
// "Command-line contract"). Exit 0 = success, 2 = bad input, 1 = internal error.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <map>

#include "apps/socsim/commands.h"
#include "common/error.h"
#include "common/paths.h"

namespace socsim::app {

std::string sourceDir() { return socsim::sourceDir(); }
std::string measuredDir() { return socsim::sourceDir() + "/calibration/measured"; }

}  // namespace socsim::app

int main(int argc, char** argv) {
  using namespace socsim::app;
  CLI::App app{"socsim: performance model of TI Sitara/Jacinto SoCs (SystemC/TLM-2.0)", "socsim"};
  app.set_version_flag("--version", "socsim " + socsim::version());
  app.require_subcommand(1);
  std::map<std::string, Action> actions;
  actions["ingest"] = addIngest(app);
  actions["measured"] = addMeasured(app);
  actions["validate"] = addValidate(app);
  actions["run"] = addRun(app);
  actions["explain"] = addExplain(app);
  actions["boards"] = addBoards(app);
  actions["config"] = addConfig(app);
  actions["params"] = addParams(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    for (auto* sub : app.get_subcommands()) return actions.at(sub->get_name())();
    return 2;
  } catch (const socsim::InputError& e) {
    std::cerr << "socsim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "socsim: internal error: " << e.what() << "\n";
    return 1;
  }
}
