#pragma once
/// @file stats.h
/// @brief One statistics registry for all models (STYLE.md rules 10, 11).
///
/// A model owns a `stats::Group` named after its SystemC instance path and registers its counters
/// (plain `std::uint64_t`/`double` members it increments on the hot path) and derived formulas,
/// each with a name, unit and description. `Registry::instance()` lists every group; `resetAll()`
/// zeroes counters at the start of a region of interest; `samples()` returns
/// `path.name = value unit` rows sorted by path (the SystemC hierarchy), for JSON or table output.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace socsim::stats {

/// One value of one stat, as dumped.
struct Sample {
  std::string path;  ///< "soc.cluster0.cpu1.l1d.misses"
  double value = 0;
  std::string unit;  ///< "count", "bytes", "ns", "ratio", "GB/s", ...
  std::string description;
};

class Group {
 public:
  /// @param path the owner's SystemC instance name (`sc_object::name()`).
  explicit Group(std::string path);
  virtual ~Group();
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

  /// Register a counter the owner increments; zeroed by reset().
  void counter(const char* name, const char* unit, const char* description, std::uint64_t* v);
  void counter(const char* name, const char* unit, const char* description, double* v);
  /// Register a derived stat computed when dumped (miss_rate, bandwidth, average latency).
  void formula(const char* name, const char* unit, const char* description,
               std::function<double()> f);
  /// Zero every counter; then call the owner's hook (e.g. to restart a bandwidth window).
  void reset();
  void onReset(std::function<void()> hook) { resetHook_ = std::move(hook); }

  const std::string& path() const { return path_; }
  void collect(std::vector<Sample>& out) const;

 private:
  struct Entry {
    std::string name, unit, description;
    std::uint64_t* u = nullptr;
    double* d = nullptr;
    std::function<double()> f;
  };
  std::string path_;
  std::vector<Entry> entries_;
  std::function<void()> resetHook_;
};

/// All live groups of this process (one elaboration per process).
class Registry {
 public:
  static Registry& instance();
  void add(Group* g);
  void remove(Group* g);
  void resetAll();
  /// Every stat, sorted by path.
  std::vector<Sample> samples() const;
  /// Only stats whose path starts with `prefix`.
  std::vector<Sample> samples(const std::string& prefix) const;
  /// `{"path": {"value": v, "unit": "u"}, ...}` sorted by path.
  static void writeJson(std::ostream& os, const std::vector<Sample>& s);

 private:
  std::vector<Group*> groups_;
};

}  // namespace socsim::stats
