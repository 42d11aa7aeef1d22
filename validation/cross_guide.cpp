#include "validation/cross_guide.h"

#include <cmath>
#include <map>

#include "common/format.h"

namespace socsim::validation {

namespace {

std::string identity(const calib::MeasuredRow& m) {
  return m.board + '\x1f' + m.family + '\x1f' + m.benchmark + '\x1f' + m.metric + '\x1f' +
         m.params + '\x1f' + m.unit;
}

std::string shortSource(const std::string& source) {
  auto us = source.find('_');
  return us == std::string::npos ? source : source.substr(0, us);
}

std::string errText(double e, bool pp, bool sign) {
  std::string s = formatSig(pp ? e : 100.0 * e, 2);
  if (sign && e >= 0) s = "+" + s;
  return s + (pp ? "pp" : "%");
}

}  // namespace

std::vector<CrossGuide> crossGuide(const std::vector<ValidationRow>& rows) {
  std::map<std::string, std::vector<std::size_t>> byId;
  for (std::size_t i = 0; i < rows.size(); ++i) byId[identity(rows[i].measured)].push_back(i);
  std::vector<CrossGuide> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ValidationRow& r = rows[i];
    const calib::MeasuredRow& m = r.measured;
    const ErrorKind kind = errorKindFor(m.unit);
    CrossGuide& c = out[i];
    for (std::size_t j : byId[identity(m)]) {
      const calib::MeasuredRow& o = rows[j].measured;
      if (o.source == m.source) continue;
      if (!c.has || o.source < c.otherSource) {
        c.has = true;
        c.otherSource = o.source;
        c.otherValue = o.value;
      }
    }
    if (!c.has) continue;
    c.pp = kind == ErrorKind::PercentagePoints;
    if (kind == ErrorKind::PercentagePoints)
      c.disagreement = c.otherValue - m.value;
    else
      c.disagreement = m.value != 0 ? (c.otherValue - m.value) / m.value : NAN;
    if (r.predicted) {
      c.modelError = signedError(kind, m.value, *r.predicted);
      c.hasModelError = std::isfinite(c.modelError);
    }
    c.exceeds = c.hasModelError && std::isfinite(c.disagreement) &&
                std::fabs(c.disagreement) > std::fabs(c.modelError);
  }
  return out;
}

std::string crossGuideCell(const CrossGuide& c) {
  if (!c.has) return "";
  std::string s = shortSource(c.otherSource) + ": ";
  if (!std::isfinite(c.disagreement)) return s + formatSig(c.otherValue, 4);
  s += errText(c.disagreement, c.pp, true);
  if (!c.hasModelError) return s;
  return s + (c.exceeds ? " > model " : " within model ") +
         errText(std::fabs(c.modelError), c.pp, false);
}

}  // namespace socsim::validation
