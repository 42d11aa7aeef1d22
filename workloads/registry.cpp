#include "workloads/workload.h"

#include "workloads/builtin.h"

namespace socsim::wl {

Workload* Registry::find(const Query& q) const {
  for (const auto& w : items_)
    if (w->covers(q)) return w.get();
  return nullptr;
}

Registry& builtinRegistry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    registerBuiltinWorkloads(*reg);
    return reg;
  }();
  return *r;
}

}  // namespace socsim::wl
