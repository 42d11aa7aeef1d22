#include "soc/config/schema_io.h"

#include <algorithm>
#include <cctype>

namespace socsim::config {

namespace {
std::string kindText(const params::FieldInfo& f) {
  switch (f.kind) {
    case params::Kind::Real:
      return "a number" + (f.unit.empty() ? "" : " in " + f.unit);
    case params::Kind::Integer:
      return "an integer" + (f.unit.empty() ? "" : " in " + f.unit);
    case params::Kind::Bytes:
      return "a size such as 32KiB, 1MiB or 4096";
    case params::Kind::Bool:
      return "true or false";
    case params::Kind::Text:
      return "a string";
    case params::Kind::Choice: {
      std::string c;
      for (const auto& x : f.choices) c += (c.empty() ? "" : ", ") + x;
      return "one of " + c;
    }
  }
  return "a value";
}
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

params::Value convertScalar(const params::FieldInfo& f, const Node& n, const std::string& path) {
  if (n.isNull()) throw InputError(n.file, n.line, path, "missing value: expected " + kindText(f));
  if (!n.isScalar()) {
    // A map with 'value' or 'unit' is a value form with a typo ({value: 1000, sorce: x}):
    // name the odd key rather than only "got a map".
    std::string hint;
    if (n.isMap() && (n.find("value") || n.find("unit"))) {
      for (const auto& [k, v] : n.map)
        if (k != "value" && k != "unit" && k != kSourceKey) {
          hint = ": unknown key '" + k + "' in a value form {value, unit, source}" +
                 suggestion(k, {"value", "unit", kSourceKey});
          break;
        }
      if (hint.empty() && !n.find("value"))
        hint = ": a value form {value, unit, source} needs 'value'";
    }
    throw InputError(n.file, n.line, path,
                     "wrong type: expected " + kindText(f) + " (" + f.description + "), got a " +
                         n.typeName() + hint);
  }
  noteRead(n);
  params::Value v;
  const std::string& t = n.scalar;
  switch (f.kind) {
    case params::Kind::Real:
    case params::Kind::Integer:
    case params::Kind::Bytes: {
      double x;
      try {
        x = units::parseIn(t, f.kind == params::Kind::Bytes ? "bytes" : f.unit);
      } catch (const InputError& e) {
        throw InputError(n.file, n.line, path, std::string("bad value: ") + e.what());
      }
      if (f.kind != params::Kind::Real && x != std::floor(x))
        throw InputError(n.file, n.line, path,
                         "wrong type: expected " + kindText(f) + ", got '" + t + "'");
      if (f.values.empty() && (x < f.lo || x > f.hi)) {
        std::string got = "'" + t + "'";
        if (t != formatNumber(x))
          got += " = " + formatNumber(x) + (f.unit.empty() ? "" : " " + f.unit);
        throw InputError(n.file, n.line, path,
                         "out of range: expected " + formatNumber(f.lo) + " .. " +
                             formatNumber(f.hi) + (f.unit.empty() ? "" : " " + f.unit) + " (" +
                             f.description + "), got " + got);
      }
      if (!f.values.empty() && std::find(f.values.begin(), f.values.end(), x) == f.values.end()) {
        std::string allowed;
        for (double a : f.values) allowed += (allowed.empty() ? "" : ", ") + formatNumber(a);
        throw InputError(n.file, n.line, path,
                         "not an allowed value: expected one of " + allowed +
                             (f.unit.empty() ? "" : " " + f.unit) + " (" + f.description +
                             "), got '" + t + "'");
      }
      v.number = x;
      return v;
    }
    case params::Kind::Bool: {
      std::string l = lower(t);
      if (l == "true" || l == "yes" || l == "on")
        v.text = "true";
      else if (l == "false" || l == "no" || l == "off")
        v.text = "false";
      else
        throw InputError(n.file, n.line, path,
                         "wrong type: expected true or false, got '" + t + "'");
      return v;
    }
    case params::Kind::Choice: {
      if (std::find(f.choices.begin(), f.choices.end(), t) == f.choices.end()) {
        std::string near = nearest(t, f.choices);
        throw InputError(n.file, n.line, path,
                         "unknown value '" + t + "': expected " + kindText(f) +
                             (near.empty() ? "" : " (did you mean '" + near + "'?)"));
      }
      v.text = t;
      return v;
    }
    case params::Kind::Text:
      v.text = t;
      return v;
  }
  return v;
}

}  // namespace socsim::config
