// Placeholder: to be written (see layouts.h).
#include "calibration/ingest/layouts.h"

namespace socsim::ingest {

ParsedDocument parsePipe(const std::string& text, const std::string& source) {
  (void)text;
  ParsedDocument d;
  d.source = source;
  d.layout = Layout::Pipe;
  d.diagnostics.push_back({source, 0, "layout parser not written yet"});
  return d;
}

}  // namespace socsim::ingest
