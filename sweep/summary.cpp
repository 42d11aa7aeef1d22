#include "sweep/summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace socsim::sweep {

std::vector<BenchmarkSpread> summarize(const SweepInfo& info, const std::vector<ResultRow>& rows) {
  // Group rows by benchmark identity, keeping first-seen order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ResultRow*>> groups;
  for (const auto& r : rows) {
    std::string k = r.board + "|" + r.family + "|" + r.benchmark + "|" + r.metric + "|" + r.params + "|" + r.unit;
    if (!groups.count(k)) order.push_back(k);
    groups[k].push_back(&r);
  }
  std::vector<BenchmarkSpread> out;
  for (const auto& k : order) {
    const auto& g = groups[k];
    BenchmarkSpread b;
    const ResultRow& f = *g.front();
    b.board = f.board;
    b.family = f.family;
    b.benchmark = f.benchmark;
    b.metric = f.metric;
    b.params = f.params;
    b.unit = f.unit;
    std::vector<const ResultRow*> ok;
    for (const auto* r : g) (r->status == "ok" && r->predicted ? ok.push_back(r), b.ok : b.notOk)++;
    if (!ok.empty()) {
      b.min = b.max = *ok.front()->predicted;
      double sum = 0;
      for (const auto* r : ok) {
        b.min = std::min(b.min, *r->predicted);
        b.max = std::max(b.max, *r->predicted);
        sum += *r->predicted;
      }
      b.mean = sum / static_cast<double>(ok.size());
      b.spread = b.mean != 0 ? (b.max - b.min) / std::fabs(b.mean) : 0;
      for (size_t j = 0; j < info.keys.size(); ++j) {
        std::set<std::string> distinct;
        double lo = INFINITY, hi = -INFINITY;
        bool numeric = true;
        for (const auto* r : ok) {
          if (j >= r->values.size()) continue;
          distinct.insert(r->values[j]);
          double v = numericValue(r->values[j]);
          if (std::isnan(v)) numeric = false;
          else lo = std::min(lo, v), hi = std::max(hi, v);
        }
        bool bin = numeric && distinct.size() > 8 && hi > lo;
        std::map<std::string, std::pair<double, int>> acc;
        for (const auto* r : ok) {
          if (j >= r->values.size()) continue;
          std::string key = r->values[j];
          if (bin) {
            int i = std::min(4, static_cast<int>(5 * (numericValue(key) - lo) / (hi - lo)));
            key = std::to_string(i);
          }
          acc[key].first += *r->predicted;
          acc[key].second++;
        }
        double mn = INFINITY, mx = -INFINITY;
        for (const auto& [v, s] : acc) {
          double m = s.first / s.second;
          mn = std::min(mn, m);
          mx = std::max(mx, m);
        }
        b.effects.push_back({info.keys[j], acc.size() > 1 && b.mean != 0 ? (mx - mn) / std::fabs(b.mean) : 0});
      }
      std::stable_sort(b.effects.begin(), b.effects.end(),
                       [](const KeyEffect& x, const KeyEffect& y) { return x.effect > y.effect; });
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace socsim::sweep
