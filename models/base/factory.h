#pragma once
/// @file factory.h
/// @brief Variants picked by name through one small registry (STYLE.md rule 9).
///
/// `Factory<Base, Args...>::add("lru", maker)` registers a variant next to its implementation;
/// `create("lru", args...)` builds it; an unknown name throws std::invalid_argument listing the
/// registered names. Registration is explicit (a `registerX()` function per variant, called by
/// the family's `builtins()`), so static linking cannot drop a variant.
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace socsim::models {

template <class Base, class... Args>
class Factory {
 public:
  using Maker = std::function<std::unique_ptr<Base>(Args...)>;
  static void add(const std::string& name, Maker m) { table()[name] = std::move(m); }
  static bool has(const std::string& name) { return table().count(name) != 0; }
  static std::string names() {
    std::string s;
    for (auto& [k, v] : table()) s += (s.empty() ? "" : ", ") + k;
    return s;
  }
  static std::unique_ptr<Base> create(const std::string& name, Args... args) {
    auto it = table().find(name);
    if (it == table().end())
      throw std::invalid_argument("unknown variant '" + name + "' (registered: " + names() + ")");
    return it->second(std::forward<Args>(args)...);
  }

 private:
  static std::map<std::string, Maker>& table() {
    static std::map<std::string, Maker> t;
    return t;
  }
};

}  // namespace socsim::models
