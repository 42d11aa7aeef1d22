// Placeholder: to be written (see normalize.h).
#include "calibration/ingest/normalize.h"

#include <cstdlib>
#include <regex>

namespace socsim::ingest {

std::optional<ValueCell> parseValueCell(const std::string& text) {
  static const std::regex re(
      R"(^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*(?:\(\s*min\s+(-?[0-9.]+)\s*,\s*max\s+(-?[0-9.]+)\s*\))?\s*$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  ValueCell c;
  c.value = std::strtod(m[1].str().c_str(), nullptr);
  if (m[2].matched) c.min = std::strtod(m[2].str().c_str(), nullptr);
  if (m[3].matched) c.max = std::strtod(m[3].str().c_str(), nullptr);
  return c;
}

std::vector<calib::MeasuredRow> normalize(ParsedDocument& doc) { return doc.directRows; }

void flagOutliers(std::vector<calib::MeasuredRow>&) {}

}  // namespace socsim::ingest
