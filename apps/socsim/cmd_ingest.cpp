// socsim ingest FILE... [--out DIR]
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "apps/socsim/commands.h"
#include "calibration/dataset/measured_row.h"
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
  auto* outOpt = sub->add_option("--out", o->out,
                                 "output folder (default: the built-in calibration/measured)");
  sub->add_flag("--quiet", o->quiet, "do not print warnings");
  return [o, outOpt]() {
    // `--out ''` is a mistake, not a request for the built-in dataset folder.
    if (outOpt->count() > 0 && o->out.empty())
      throw InputError("", 0, "--out", "empty output folder name (omit --out for the default)");
    std::string out = o->out.empty() ? measuredDir() : o->out;
    int failed = 0, droppedTotal = 0;
    // All documents are ingested together so that flagOutliers compares the same
    // measurement across guides; a bad document does not stop the others.
    // The same file named twice is ingested once: twice would also make the cross-document
    // pass see every value repeated in "another" guide.
    std::vector<std::string> files;
    std::set<std::string> canonical;
    for (const auto& f : o->files) {
      std::error_code ec;
      auto c = std::filesystem::weakly_canonical(f, ec);
      if (!canonical.insert(ec ? f : c.string()).second) {
        std::cerr << "socsim: warning: " << f << ": given twice, ingested once\n";
        continue;
      }
      files.push_back(f);
    }
    auto outcomes = ingest::ingestFiles(files);
    // Output file -> the input that wrote it: two inputs with the same file stem would write the
    // same <stem>.csv, the second silently replacing the first's rows.
    std::map<std::string, std::string> writtenBy;
    for (size_t i = 0; i < files.size(); ++i) {
      const auto& f = files[i];
      try {
        if (!outcomes[i].result) throw InputError(outcomes[i].error);
        const auto& r = *outcomes[i].result;
        const std::string suffix = ".boards";
        if (r.source.size() >= suffix.size() &&
            r.source.compare(r.source.size() - suffix.size(), suffix.size(), suffix) == 0)
          throw InputError(f, 0, "",
                           "a guide named '*.boards.*' would write " + r.source +
                               ".csv, which the dataset reader takes for a board list and skips; "
                               "rename the file (it was not written)");
        auto [it, fresh] = writtenBy.emplace(r.source, f);
        if (!fresh)
          throw InputError(f, 0, "",
                           "has the same file name stem '" + r.source + "' as " + it->second +
                               ": both would write " + out + "/" + r.source +
                               ".csv (this one was not written; rename one of them)");
        ingest::writeIngestResult(r, out);
        if (!o->quiet)
          for (const auto& d : r.diagnostics)
            std::cerr << "socsim: warning: " << d.file << (d.line ? ":" + std::to_string(d.line) : "")
                      << ": " << d.message << "\n";
        int lost = 0;
        for (const auto& d : r.diagnostics) lost += d.dropped;
        droppedTotal += lost;
        std::cerr << f << ": " << ingest::layoutName(r.layout) << " layout, " << r.tables
                  << " tables, " << r.rows.size() << " values -> " << out << "/" << r.source
                  << ".csv"
                  << (lost ? "; " + std::to_string(lost) + " printed item(s) not ingested" +
                                 (o->quiet ? " (run without --quiet to list them)" : " (warnings above)")
                           : std::string())
                  << "\n";
        // What ingest writes must read back as measured data (`measured`/`validate --measured`
        // check vocabulary, params, min/max and duplicates): a garbled guide (a block pasted
        // twice, a table cut short) made a CSV that every later command rejected, after exit 0.
        const std::string written = out + "/" + r.source + ".csv";
        try {
          (void)calib::readMeasuredCsv(written);
        } catch (const InputError& e) {
          throw InputError(f, 0, "",
                           "the rows written to " + written +
                               " do not read back as measured data (check the guide there): " +
                               e.what());
        }
      } catch (const InputError& e) {
        // Keep going: results of the other documents are not lost.
        std::cerr << "socsim: error: " << e.what() << "\n";
        ++failed;
      }
    }
    // DESIGN.md: nothing is silently dropped, and exit 2 is bad input (data). Printed items that
    // could not be ingested are bad data: the CSVs are written all the same, the status says so.
    if (droppedTotal)
      std::cerr << "socsim: ingest: " << droppedTotal
                << " printed item(s) were not ingested (exit status 2)\n";
    return failed || droppedTotal ? 2 : 0;
  };
}

}  // namespace socsim::app
