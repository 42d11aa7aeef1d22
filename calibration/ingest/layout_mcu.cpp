// Placeholder: to be written (see layouts.h).
#include "calibration/ingest/layouts.h"

namespace socsim::ingest {

ParsedDocument parseMcu(const std::string& text, const std::string& source) {
  (void)text;
  ParsedDocument d;
  d.source = source;
  d.layout = Layout::Mcu;
  d.diagnostics.push_back({source, 0, "layout parser not written yet"});
  return d;
}

}  // namespace socsim::ingest
