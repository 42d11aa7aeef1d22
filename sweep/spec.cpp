#include "sweep/spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "calibration/dataset/vocabulary.h"
#include "common/error.h"
#include "common/format.h"
#include "common/units.h"
#include "soc/config/config_tree.h"
#include "soc/config/loader.h"

namespace socsim::sweep {

namespace fs = std::filesystem;
using config::Node;

namespace {

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, portable, and the same sequence everywhere
/// (std:: distributions are implementation-defined, which would break rule 5 across machines).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }

 private:
  std::uint64_t s_;
};

struct Ctx {
  std::string file;
  [[noreturn]] void fail(const Node& n, const std::string& path, const std::string& msg) const {
    throw InputError(file, n.line, path, msg);
  }
};

void checkKeys(const Ctx& c, const Node& map, const std::string& path, const std::vector<std::string>& valid) {
  for (const auto& [k, v] : map.map)
    if (std::find(valid.begin(), valid.end(), k) == valid.end())
      c.fail(v, path.empty() ? k : path + "." + k, "unknown key '" + k + "'" + config::suggestion(k, valid));
}

const Node& need(const Ctx& c, const Node& map, const std::string& key, const std::string& path) {
  const Node* n = map.find(key);
  if (!n || n->isNull()) c.fail(map, path, "missing required key '" + key + "'");
  return *n;
}

std::string scalar(const Ctx& c, const Node& n, const std::string& path) {
  if (!n.isScalar()) c.fail(n, path, std::string("expected a scalar, got a ") + n.typeName());
  return n.scalar;
}

double number(const Ctx& c, const Node& n, const std::string& path) {
  std::string s = scalar(c, n, path);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v)) c.fail(n, path, "expected a number, got '" + s + "'");
  return v;
}

std::vector<std::string> scalarList(const Ctx& c, const Node& n, const std::string& path) {
  std::vector<std::string> out;
  if (n.isScalar()) return {n.scalar};
  if (!n.isSeq()) c.fail(n, path, std::string("expected a list, got a ") + n.typeName());
  for (size_t i = 0; i < n.seq.size(); ++i) out.push_back(scalar(c, n.seq[i], path + "[" + std::to_string(i) + "]"));
  return out;
}

/// Number of points of a range's step lattice (inclusive of `to` within a rounding tolerance),
/// computed without building it: a step of 1e-7 over [1000, 2000] must not allocate 1e10 values.
double latticeCount(const Parameter& p) { return std::floor((p.to - p.from) / p.step + 1e-9) + 1.0; }

/// Point i of a range's step lattice.
double latticeValue(const Parameter& p, size_t i) { return p.from + static_cast<double>(i) * p.step; }

/// Largest lattice a swept range may have (a grid takes every point; a sweep spec with more is a
/// typo in `step`, reported before any point is built).
constexpr double kMaxLatticePoints = 1e6;

Parameter parseParameter(const Ctx& c, const Node& n, const std::string& path) {
  if (!n.isMap()) c.fail(n, path, std::string("expected a map with 'key' and 'values' or 'range', got a ") + n.typeName());
  checkKeys(c, n, path, {"key", "values", "range", "unit", "with"});
  Parameter p;
  p.line = n.line;
  p.key = scalar(c, need(c, n, "key", path), path + ".key");
  if (p.key.empty() || p.key.find('=') != std::string::npos)
    c.fail(n, path + ".key", "expected a config path such as clusters[0].core.clock_mhz, got '" + p.key + "'");
  const Node* values = n.find("values");
  const Node* range = n.find("range");
  if ((values != nullptr) == (range != nullptr))
    c.fail(n, path, "give exactly one of 'values' (a list) or 'range' ({from, to, step})");
  if (const Node* u = n.find("unit")) p.unit = scalar(c, *u, path + ".unit");
  if (values) {
    p.values = scalarList(c, *values, path + ".values");
    if (p.values.empty()) c.fail(*values, path + ".values", "empty list: a swept parameter needs at least one value");
    std::set<std::string> seen;
    for (const auto& v : p.values)
      if (!seen.insert(v).second) c.fail(*values, path + ".values", "value '" + v + "' listed twice");
    if (!p.unit.empty())
      for (auto& v : p.values) v += p.unit;
  } else {
    if (!range->isMap()) c.fail(*range, path + ".range", "expected {from: A, to: B, step: S}");
    checkKeys(c, *range, path + ".range", {"from", "to", "step"});
    p.isRange = true;
    p.from = number(c, need(c, *range, "from", path + ".range"), path + ".range.from");
    p.to = number(c, need(c, *range, "to", path + ".range"), path + ".range.to");
    if (const Node* s = range->find("step")) {
      p.step = number(c, *s, path + ".range.step");
      if (p.step <= 0) c.fail(*s, path + ".range.step", "step must be > 0, got " + formatNumber(p.step));
    }
    if (p.to < p.from)
      c.fail(*range, path + ".range", "empty range: from " + formatNumber(p.from) + " > to " + formatNumber(p.to));
    if (p.step > 0 && latticeCount(p) > kMaxLatticePoints)
      c.fail(*range->find("step"), path + ".range.step",
             "step " + formatNumber(p.step) + " gives " + formatSig(latticeCount(p), 3) +
                 " points from " + formatNumber(p.from) + " to " + formatNumber(p.to) +
                 "; expected at most " + formatNumber(kMaxLatticePoints) + " per swept key");
  }
  if (const Node* w = n.find("with")) {
    if (!w->isMap()) c.fail(*w, path + ".with", "expected a map of key: [values, one per entry of 'values']");
    if (!values) c.fail(*w, path + ".with", "'with' needs 'values' (one linked value per listed value), not a range");
    for (const auto& [k, v] : w->map) {
      auto vs = scalarList(c, v, path + ".with." + k);
      if (vs.size() != p.values.size())
        c.fail(v, path + ".with." + k,
               "expected " + std::to_string(p.values.size()) + " values (one per entry of 'values'), got " +
                   std::to_string(vs.size()));
      p.with.emplace_back(k, std::move(vs));
    }
  }
  return p;
}

std::string valueText(const Parameter& p, double v) {
  // Twelve significant digits: removes binary noise of from + i*step without losing set points.
  std::string t = formatNumber(std::stod(formatSig(v, 12)));
  return t + p.unit;
}

/// Number of distinct values of a parameter for a grid, or 0 for a continuous range.
size_t cardinality(const Parameter& p) {
  if (!p.isRange) return p.values.size();
  if (p.step > 0) return static_cast<size_t>(latticeCount(p));
  return 0;
}

/// Value of parameter p at quantile q in [0,1): index into values/lattice, or a continuous value.
/// Returns (text, index into values or -1).
std::pair<std::string, int> valueAt(const Parameter& p, double q) {
  size_t k = cardinality(p);
  if (k == 0) return {valueText(p, p.from + q * (p.to - p.from)), -1};
  size_t i = std::min(k - 1, static_cast<size_t>(q * static_cast<double>(k)));
  if (!p.isRange) return {p.values[i], static_cast<int>(i)};
  return {valueText(p, latticeValue(p, i)), -1};
}

void addValue(Point& pt, const Parameter& p, const std::string& text, int index) {
  pt.swept.emplace_back(p.key, text);
  pt.overrides.push_back(p.key + "=" + text);
  if (index >= 0)
    for (const auto& [k, vs] : p.with) pt.overrides.push_back(k + "=" + vs[static_cast<size_t>(index)]);
}

}  // namespace

Spec parseSpecText(const std::string& text, const std::string& displayName, const std::string& boardsDir) {
  Ctx c{displayName};
  Node root = config::parseYamlText(text, displayName);
  if (!root.isMap()) c.fail(root, "", "a sweep spec is a map with name, boards, benchmarks, parameters");
  checkKeys(c, root, "", {"name", "description", "boards", "benchmarks", "parameters", "sampling", "timeout_s"});
  Spec s;
  s.file = displayName;
  s.text = text;
  s.name = scalar(c, need(c, root, "name", ""), "name");
  if (s.name.empty()) c.fail(root, "name", "empty sweep name");
  // The name is a folder name (the Slurm shard folder <db>.shards/<name>): '../x' or 'a/b'
  // wrote outside it.
  for (char ch : s.name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.'))
      c.fail(*root.find("name"), "name",
             "sweep name '" + s.name + "': expected letters, digits, '-', '_' and '.' only (it names a folder)");
  if (s.name[0] == '.')
    c.fail(*root.find("name"), "name", "sweep name '" + s.name + "' starts with '.' (it names a folder)");
  if (const Node* d = root.find("description")) s.description = scalar(c, *d, "description");

  const Node& boards = need(c, root, "boards", "");
  s.boards = scalarList(c, boards, "boards");
  if (s.boards.empty()) c.fail(boards, "boards", "no base board");
  fs::path specDir = fs::path(displayName).parent_path();
  for (size_t i = 0; i < s.boards.size(); ++i) {
    const std::string& b = s.boards[i];
    std::string candidate = b;
    bool isPath = b.find('/') != std::string::npos || (b.size() > 5 && b.substr(b.size() - 5) == ".yaml");
    if (isPath && fs::path(b).is_relative()) candidate = (specDir / b).string();
    try {
      s.boardFiles.push_back(soc::findBoardFile(candidate, boardsDir));
    } catch (const InputError& e) {
      c.fail(boards.isSeq() ? boards.seq[i] : boards, "boards[" + std::to_string(i) + "]", e.what());
    }
  }

  const Node& bench = need(c, root, "benchmarks", "");
  if (!bench.isSeq() || bench.seq.empty())
    c.fail(bench, "benchmarks", "expected a non-empty list of {family: F, benchmark: GLOB} selectors");
  for (size_t i = 0; i < bench.seq.size(); ++i) {
    const Node& b = bench.seq[i];
    std::string path = "benchmarks[" + std::to_string(i) + "]";
    BenchmarkSelector sel;
    sel.line = b.line;
    if (b.isScalar()) {
      sel.benchmark = b.scalar;
    } else if (b.isMap()) {
      checkKeys(c, b, path, {"family", "benchmark"});
      if (const Node* f = b.find("family")) {
        sel.families = scalarList(c, *f, path + ".family");
        for (const auto& fam : sel.families)
          if (!calib::isMeasuredFamily(fam))
          {
            std::string hint = config::suggestion(fam, calib::measuredFamilies());
            if (hint.find("did you mean") == std::string::npos) hint.clear();
            c.fail(*f, path + ".family",
                   "unknown family '" + fam + "'" + hint + " (expected one of " +
                       calib::joinNames(calib::measuredFamilies()) + ")");
          }
      }
      if (const Node* g = b.find("benchmark")) sel.benchmark = scalar(c, *g, path + ".benchmark");
      if (sel.families.empty() && sel.benchmark.empty()) c.fail(b, path, "selects every benchmark: give a family or a benchmark glob");
    } else {
      c.fail(b, path, "expected a benchmark glob or {family: F, benchmark: GLOB}");
    }
    s.benchmarks.push_back(sel);
  }

  if (const Node* sm = root.find("sampling")) {
    if (!sm->isMap()) c.fail(*sm, "sampling", "expected {method: grid|random|lhs, samples: N, seed: S}");
    checkKeys(c, *sm, "sampling", {"method", "samples", "seed"});
    if (const Node* m = sm->find("method")) s.method = scalar(c, *m, "sampling.method");
    if (s.method != "grid" && s.method != "random" && s.method != "lhs")
      c.fail(*sm, "sampling.method", "unknown method '" + s.method + "'" +
                                         config::suggestion(s.method, {"grid", "random", "lhs"}));
    if (const Node* n = sm->find("samples")) {
      double v = number(c, *n, "sampling.samples");
      if (v < 1 || v != std::floor(v) || v > 1e7)
        c.fail(*n, "sampling.samples", "expected a whole number of points >= 1, got " + n->scalar);
      s.samples = static_cast<int>(v);
    }
    if (const Node* n = sm->find("seed")) {
      double v = number(c, *n, "sampling.seed");
      if (v < 0 || v != std::floor(v) || v > 9.0e15) c.fail(*n, "sampling.seed", "expected a whole number >= 0");
      s.seed = static_cast<std::uint64_t>(v);
    }
    if (s.method != "grid" && s.samples == 0)
      c.fail(*sm, "sampling.samples", "method " + s.method + " needs 'samples: N'");
    if (s.method == "grid" && s.samples != 0)
      c.fail(*sm, "sampling.samples", "a grid takes every combination; 'samples' is for random and lhs");
  }
  if (const Node* t = root.find("timeout_s")) {
    s.timeoutSeconds = number(c, *t, "timeout_s");
    if (s.timeoutSeconds <= 0) c.fail(*t, "timeout_s", "expected seconds > 0");
  }

  const Node& params = need(c, root, "parameters", "");
  if (!params.isSeq() || params.seq.empty()) c.fail(params, "parameters", "expected a non-empty list of swept keys");
  std::set<std::string> keys;
  for (size_t i = 0; i < params.seq.size(); ++i) {
    std::string path = "parameters[" + std::to_string(i) + "]";
    Parameter p = parseParameter(c, params.seq[i], path);
    if (s.method == "grid" && p.isRange && p.step == 0)
      c.fail(params.seq[i], path + ".range", "a grid needs a step (or use sampling method random / lhs)");
    if (!keys.insert(p.key).second) c.fail(params.seq[i], path + ".key", "key '" + p.key + "' swept twice");
    for (const auto& [k, v] : p.with)
      if (!keys.insert(k).second) c.fail(params.seq[i], path + ".with", "key '" + k + "' set twice");
    s.parameters.push_back(std::move(p));
  }
  return s;
}

Spec parseSpec(const std::string& file, const std::string& boardsDir) {
  std::ifstream in(file);
  if (!in) throw InputError(file, 0, "", "cannot read the sweep spec");
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSpecText(ss.str(), file, boardsDir);
}

std::vector<Point> expand(const Spec& spec) {
  std::vector<Point> out;
  for (size_t b = 0; b < spec.boards.size(); ++b) {
    if (spec.method == "grid") {
      std::vector<size_t> card;
      size_t total = 1;
      for (const auto& p : spec.parameters) {
        card.push_back(cardinality(p));
        total *= card.back();
        if (total > 10000000) throw InputError(spec.file, 0, "parameters", "more than 10 million grid points");
      }
      for (size_t k = 0; k < total; ++k) {
        Point pt;
        pt.boardIndex = static_cast<int>(b);
        // First parameter varies slowest.
        size_t rest = k;
        std::vector<size_t> idx(card.size());
        for (size_t j = card.size(); j-- > 0;) {
          idx[j] = rest % card[j];
          rest /= card[j];
        }
        for (size_t j = 0; j < card.size(); ++j) {
          const auto& p = spec.parameters[j];
          double q = (static_cast<double>(idx[j]) + 0.5) / static_cast<double>(card[j]);
          auto [text, vi] = valueAt(p, q);
          addValue(pt, p, text, vi);
        }
        out.push_back(std::move(pt));
      }
    } else {
      // One stream per board so adding a board does not move the other boards' points.
      Rng rng(spec.seed * 0x100000001B3ull + b);
      size_t n = static_cast<size_t>(spec.samples);
      std::vector<std::vector<double>> q(spec.parameters.size(), std::vector<double>(n));
      for (size_t j = 0; j < spec.parameters.size(); ++j) {
        if (spec.method == "random") {
          for (auto& x : q[j]) x = rng.uniform();
        } else {
          std::vector<size_t> perm(n);
          for (size_t i = 0; i < n; ++i) perm[i] = i;
          for (size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
          for (size_t i = 0; i < n; ++i)
            q[j][i] = (static_cast<double>(perm[i]) + rng.uniform()) / static_cast<double>(n);
        }
      }
      for (size_t i = 0; i < n; ++i) {
        Point pt;
        pt.boardIndex = static_cast<int>(b);
        for (size_t j = 0; j < spec.parameters.size(); ++j) {
          auto [text, vi] = valueAt(spec.parameters[j], q[j][i]);
          addValue(pt, spec.parameters[j], text, vi);
        }
        out.push_back(std::move(pt));
      }
    }
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].index = static_cast<int>(i);
  return out;
}

void checkAgainstBoards(const Spec& spec, const std::vector<Point>& points) {
  for (size_t b = 0; b < spec.boardFiles.size(); ++b) {
    const std::string& file = spec.boardFiles[b];
    auto tryLoad = [&](const std::vector<std::string>& ov, const Parameter* p) {
      try {
        soc::loadBoard(file, ov);
      } catch (const InputError& e) {
        throw InputError(spec.file, p ? p->line : 0, p ? p->key : "parameters",
                         "on board " + spec.boards[b] + ": " + e.what());
      }
    };
    for (const auto& p : spec.parameters) {
      if (p.isRange) {
        tryLoad({p.key + "=" + valueText(p, p.from)}, &p);
        tryLoad({p.key + "=" + valueText(p, p.to)}, &p);
        continue;
      }
      for (size_t i = 0; i < p.values.size(); ++i) {
        std::vector<std::string> ov = {p.key + "=" + p.values[i]};
        for (const auto& [k, vs] : p.with) ov.push_back(k + "=" + vs[i]);
        tryLoad(ov, &p);
      }
    }
    for (const auto& pt : points)
      if (pt.boardIndex == static_cast<int>(b)) {
        tryLoad(pt.overrides, nullptr);
        break;
      }
  }
}

std::string hashHex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string sweepId(const Spec& spec, const std::vector<Point>& points) {
  std::ostringstream os;
  os << "name=" << spec.name << "\n";
  for (const auto& b : spec.boards) os << "board=" << b << "\n";
  for (const auto& sel : spec.benchmarks) {
    os << "bench=";
    for (const auto& f : sel.families) os << f << ",";
    os << "|" << sel.benchmark << "\n";
  }
  for (const auto& p : points) {
    os << p.index << ":" << p.boardIndex;
    for (const auto& o : p.overrides) os << ";" << o;
    os << "\n";
  }
  return hashHex(os.str());
}

double numericValue(const std::string& text) {
  bool isSize = text.size() > 1 && (text.back() == 'B' || text.find("iB") != std::string::npos);
  if (isSize) {
    try {
      return static_cast<double>(units::parseBytes(text)) / 1024.0;
    } catch (const InputError&) {
    }
  }
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return std::nan("");
  return v;
}

}  // namespace socsim::sweep
