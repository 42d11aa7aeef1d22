// socsim: command-line entry. Thin: parses arguments, calls the libraries (DESIGN.md,
// "Command-line contract"). Exit 0 = success, 2 = bad input, 1 = internal error.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "apps/socsim/commands.h"
#include "calibration/fit/calibrate.h"
#include "common/error.h"
#include "common/paths.h"
#include "soc/config/config_tree.h"

namespace socsim::app {

std::string sourceDir() { return socsim::sourceDir(); }
std::string measuredDir() { return socsim::sourceDir() + "/calibration/measured"; }

}  // namespace socsim::app

int main(int argc, char** argv) {
  using namespace socsim::app;
  CLI::App app{"socsim: performance model of TI Sitara/Jacinto SoCs (SystemC/TLM-2.0)", "socsim"};
  app.set_version_flag("--version", "socsim " + socsim::version());
  app.require_subcommand(1);
  app.footer(
      "Environment: SOCSIM_NO_CALIBRATION=1 ignores calibration/params (the presets' documented\n"
      "defaults only); SOCSIM_SEEDS_DIR names the seed guides for the tests.");
  std::map<std::string, Action> actions;
  actions["ingest"] = addIngest(app);
  actions["measured"] = addMeasured(app);
  actions["validate"] = addValidate(app);
  actions["run"] = addRun(app);
  actions["explain"] = addExplain(app);
  actions["boards"] = addBoards(app);
  actions["config"] = addConfig(app);
  actions["params"] = addParams(app);
  actions["sweep"] = addSweep(app);
  actions["plot"] = addPlot(app);
  actions["calibrate"] = addCalibrate(app);
  // CLI11 reports an unknown first word as "A subcommand is required": name it instead.
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    if (actions.count(word)) break;
    std::vector<std::string> names;
    std::string all;
    for (const auto& [name, action] : actions) {
      names.push_back(name);
      all += (all.empty() ? "" : ", ") + name;
    }
    std::string hint = socsim::config::suggestion(word, names);
    if (hint.find("did you mean") == std::string::npos) hint.clear();
    std::cerr << "socsim: error: unknown subcommand '" << word << "'" << hint
              << "; subcommands: " << all << " (socsim --help)\n";
    return 2;
  }
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
  int status = 2;
  try {
    for (auto* sub : app.get_subcommands()) {
      // Commands that load boards use the committed fitted parameters (calibration/params/);
      // calibrate manages its own, params lists them, ingest and measured load no config.
      const std::string name = sub->get_name();
      // SOCSIM_NO_CALIBRATION=1 runs on the presets' physical defaults only (the "before
      // calibration" figures the model issues ask for).
      const char* noCalib = std::getenv("SOCSIM_NO_CALIBRATION");
      const bool calibrated = !(noCalib && *noCalib && std::string(noCalib) != "0");
      if (calibrated && name != "ingest" && name != "measured" && name != "params" &&
          name != "calibrate")
        socsim::calib::installCommittedParams(socsim::sourceDir(), [](const std::string& w) {
          std::cerr << "socsim: warning: " << w << "\n";
        });
      status = actions.at(name)();
      break;
    }
  } catch (const socsim::InputError& e) {
    std::cerr << "socsim: error: " << e.what() << "\n";
    status = 2;
  } catch (const std::filesystem::filesystem_error& e) {
    // An output folder that cannot be created or written (--report /proc/x, a path that is a
    // file) is the user's input, not a defect of the tool.
    std::cerr << "socsim: error: " << e.path1().string() << ": " << e.code().message()
              << " (" << e.what() << ")\n";
    status = 2;
  } catch (const std::exception& e) {
    std::cerr << "socsim: internal error: " << e.what() << "\n";
    status = 1;
  }
  return checkStdout(status);
}
