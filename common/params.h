#pragma once
/// @file params.h
/// @brief Typed, documented parameter schemas (STYLE.md rules 2, 3, 6).
///
/// Every model's parameter struct declares one `Schema` listing each field once: YAML key
/// (snake_case with a unit suffix where the unit is not in the type), unit, default (the
/// struct's member initializer), allowed range, one-line description, and the source of the
/// default (TRM section, datasheet, JEDEC standard, or "calibrated: <origin of the default>").
/// Models never parse config: the one loader in `soc/config/` fills structs through their
/// schema, and `socsim params` prints the schemas. Schemas are plain data (no YAML here).
///
/// Example:
/// @code
///   struct CacheParams {
///     std::uint64_t size_bytes = 32768;
///     int hit_latency_cycles = 4;
///     static const params::Schema<CacheParams>& schema();
///   };
///   const params::Schema<CacheParams>& CacheParams::schema() {
///     static const auto s = params::Schema<CacheParams>("cache")
///       .bytes("size", &CacheParams::size_bytes, 1, 1ull << 32, "capacity", "ARM TRM §7.1")
///       .integer("hit_latency_cycles", &CacheParams::hit_latency_cycles, "cycles", 1, 100,
///                "load-to-use latency of a hit", "calibrated: ARM Software Optimization Guide");
///     return s;
///   }
/// @endcode
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/format.h"

namespace socsim::params {

enum class Kind { Real, Integer, Bytes, Bool, Text, Choice };

/// Description of one field, independent of the struct type (for listings and the loader).
struct FieldInfo {
  std::string key;          ///< YAML key
  Kind kind = Kind::Real;
  std::string unit;         ///< "ns", "cycles", "MHz", "MT/s", "bytes", "bits", "count", "" ...
  double lo = 0, hi = 0;    ///< inclusive range for Real/Integer/Bytes (lo <= v <= hi)
  std::vector<std::string> choices;  ///< for Choice
  std::vector<double> values;        ///< Integer: the only values allowed (empty = any in range)
  std::string description;
  std::string source;       ///< where the default comes from
  bool required = false;    ///< must be given in the config (no meaningful default)
  bool calibrated = false;  ///< a free parameter fitted by `socsim calibrate` (source starts "calibrated")
};

/// A field value as text or number, before conversion to the field's type.
struct Value {
  std::optional<double> number;  ///< set when the value is numeric in the field's unit
  std::string text;              ///< set for Text/Choice/Bool
};

template <class T>
class Schema {
 public:
  explicit Schema(std::string typeName) : typeName_(std::move(typeName)) {}

  const std::string& typeName() const { return typeName_; }
  const std::vector<FieldInfo>& fields() const { return fields_; }

  Schema& real(const char* key, double T::*m, const char* unit, double lo, double hi,
                const char* description, const char* source) {
    add(key, Kind::Real, unit, lo, hi, {}, description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = *v.number; });
    getters_.push_back([m](const T& o) { return formatNumber(o.*m); });
    return *this;
  }
  Schema& integer(const char* key, int T::*m, const char* unit, double lo, double hi,
                  const char* description, const char* source) {
    add(key, Kind::Integer, unit, lo, hi, {}, description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = static_cast<int>(*v.number); });
    getters_.push_back([m](const T& o) { return std::to_string(o.*m); });
    return *this;
  }
  Schema& bytes(const char* key, std::uint64_t T::*m, double lo, double hi,
                const char* description, const char* source) {
    add(key, Kind::Bytes, "bytes", lo, hi, {}, description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = static_cast<std::uint64_t>(*v.number); });
    getters_.push_back([m](const T& o) { return std::to_string(o.*m); });
    return *this;
  }
  Schema& flag(const char* key, bool T::*m, const char* description, const char* source) {
    add(key, Kind::Bool, "", 0, 1, {}, description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = v.text == "true"; });
    getters_.push_back([m](const T& o) { return std::string(o.*m ? "true" : "false"); });
    return *this;
  }
  Schema& text(const char* key, std::string T::*m, const char* description, const char* source) {
    add(key, Kind::Text, "", 0, 0, {}, description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = v.text; });
    getters_.push_back([m](const T& o) { return o.*m; });
    return *this;
  }
  Schema& choice(const char* key, std::string T::*m, std::vector<std::string> choices,
                 const char* description, const char* source) {
    add(key, Kind::Choice, "", 0, 0, std::move(choices), description, source);
    setters_.push_back([m](T& o, const Value& v) { o.*m = v.text; });
    getters_.push_back([m](const T& o) { return o.*m; });
    return *this;
  }
  /// Restrict the last added (integer) field to these values inside its range, e.g. the data
  /// bus widths a DDR controller supports.
  Schema& values(std::vector<double> allowed) {
    fields_.back().values = std::move(allowed);
    return *this;
  }
  /// Mark the last added field as required (no meaningful default).
  Schema& required() {
    fields_.back().required = true;
    return *this;
  }

  /// Index of `key`, or -1.
  int find(const std::string& key) const {
    for (size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i].key == key) return static_cast<int>(i);
    return -1;
  }
  /// Set field i from an already converted and range-checked value (the loader's job).
  void set(T& obj, int i, const Value& v) const { setters_.at(i)(obj, v); }
  /// Field i as text in its unit (for resolved-config output).
  std::string get(const T& obj, int i) const { return getters_.at(i)(obj); }

 private:
  void add(const char* key, Kind k, const char* unit, double lo, double hi,
           std::vector<std::string> choices, const char* description, const char* source) {
    FieldInfo f;
    f.key = key;
    f.kind = k;
    f.unit = unit;
    f.lo = lo;
    f.hi = hi;
    f.choices = std::move(choices);
    f.description = description;
    f.source = source;
    f.calibrated = f.source.rfind("calibrated", 0) == 0;
    fields_.push_back(std::move(f));
  }
  std::string typeName_;
  std::vector<FieldInfo> fields_;
  std::vector<std::function<void(T&, const Value&)>> setters_;
  std::vector<std::function<std::string(const T&)>> getters_;
};

}  // namespace socsim::params
