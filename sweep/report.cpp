#include "sweep/report.h"

#include "common/error.h"

namespace socsim::sweep {

void writeSweepReport(const ResultsDb&, const SweepInfo&, const std::string&) {
  throw InputError("", 0, "--report", "not implemented yet");
}

}  // namespace socsim::sweep
