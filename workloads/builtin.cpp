#include "workloads/builtin.h"

namespace socsim::wl {

void registerBuiltinWorkloads(Registry& r) {
  (void)r;
}

}  // namespace socsim::wl
