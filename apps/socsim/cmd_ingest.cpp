// socsim ingest FILE... [--out DIR]
#include <iostream>
#include <memory>

#include "apps/socsim/commands.h"
#include "calibration/ingest/ingest.h"
#include "common/error.h"

namespace socsim::app {

Action addIngest(CLI::App& app) {
  struct Opts {
    std::vector<std::string> files;
    std::string out;
    bool quiet = false;
  };
  auto o = std::make_shared<Opts>();
  auto* sub = app.add_subcommand("ingest", "parse TI performance guides into the measured dataset");
  sub->add_option("FILE", o->files, "guide text files")->required();
  sub->add_option("--out", o->out, "output folder (default: the built-in calibration/measured)");
  sub->add_flag("--quiet", o->quiet, "do not print warnings");
  return [o]() {
    std::string out = o->out.empty() ? measuredDir() : o->out;
    int failed = 0;
    // All documents are ingested together so that flagOutliers compares the same
    // measurement across guides; a bad document does not stop the others.
    auto outcomes = ingest::ingestFiles(o->files);
    for (size_t i = 0; i < o->files.size(); ++i) {
      const auto& f = o->files[i];
      try {
        if (!outcomes[i].result) throw InputError(outcomes[i].error);
        const auto& r = *outcomes[i].result;
        ingest::writeIngestResult(r, out);
        if (!o->quiet)
          for (const auto& d : r.diagnostics)
            std::cerr << "socsim: warning: " << d.file << (d.line ? ":" + std::to_string(d.line) : "")
                      << ": " << d.message << "\n";
        std::cerr << f << ": " << ingest::layoutName(r.layout) << " layout, " << r.tables
                  << " tables, " << r.rows.size() << " values -> " << out << "/" << r.source
                  << ".csv\n";
      } catch (const InputError& e) {
        // Keep going: results of the other documents are not lost.
        std::cerr << "socsim: error: " << e.what() << "\n";
        ++failed;
      }
    }
    return failed ? 2 : 0;
  };
}

}  // namespace socsim::app
