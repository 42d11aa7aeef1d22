#pragma once
/// @file builtin.h
/// @brief One register function per workload file; `registerBuiltinWorkloads` calls them all.
#include "workloads/workload.h"

namespace socsim::wl {

void registerBuiltinWorkloads(Registry& r);

}  // namespace socsim::wl
