#include "models/base/stats.h"

#include <algorithm>

#include "common/format.h"

namespace socsim::stats {

Group::Group(std::string path) : path_(std::move(path)) { Registry::instance().add(this); }
Group::~Group() { Registry::instance().remove(this); }

void Group::counter(const char* name, const char* unit, const char* description, std::uint64_t* v) {
  entries_.push_back({name, unit, description, v, nullptr, {}});
}
void Group::counter(const char* name, const char* unit, const char* description, double* v) {
  entries_.push_back({name, unit, description, nullptr, v, {}});
}
void Group::formula(const char* name, const char* unit, const char* description,
                    std::function<double()> f) {
  entries_.push_back({name, unit, description, nullptr, nullptr, std::move(f)});
}
void Group::reset() {
  for (auto& e : entries_) {
    if (e.u) *e.u = 0;
    if (e.d) *e.d = 0;
  }
  if (resetHook_) resetHook_();
}
void Group::collect(std::vector<Sample>& out) const {
  for (const auto& e : entries_) {
    double v = e.u ? static_cast<double>(*e.u) : e.d ? *e.d : e.f();
    out.push_back({path_ + "." + e.name, v, e.unit, e.description});
  }
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}
void Registry::add(Group* g) { groups_.push_back(g); }
void Registry::remove(Group* g) {
  groups_.erase(std::remove(groups_.begin(), groups_.end(), g), groups_.end());
}
void Registry::resetAll() {
  for (auto* g : groups_) g->reset();
}
std::vector<Sample> Registry::samples() const { return samples(""); }
std::vector<Sample> Registry::samples(const std::string& prefix) const {
  std::vector<Sample> out;
  for (auto* g : groups_) g->collect(out);
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const Sample& s) { return s.path.compare(0, prefix.size(), prefix) != 0; }),
            out.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const Sample& a, const Sample& b) { return a.path < b.path; });
  return out;
}
void Registry::writeJson(std::ostream& os, const std::vector<Sample>& s) {
  os << "{\n";
  for (size_t i = 0; i < s.size(); ++i) {
    os << "  \"" << s[i].path << "\": {\"value\": "
       << (s[i].value == s[i].value ? formatNumber(s[i].value) : std::string("null"))
       << ", \"unit\": \"" << s[i].unit << "\"}" << (i + 1 < s.size() ? "," : "") << "\n";
  }
  os << "}\n";
}

}  // namespace socsim::stats
