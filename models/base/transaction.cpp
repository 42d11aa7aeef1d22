#include "models/base/transaction.h"

#include <stdexcept>

namespace socsim::models {

const char* partName(Part p) {
  switch (p) {
    case Part::Core: return "core";
    case Part::L1: return "l1";
    case Part::L2: return "l2";
    case Part::L3: return "l3";
    case Part::Interconnect: return "interconnect";
    case Part::Controller: return "ddr_controller";
    case Part::DramAccess: return "dram.access";
    case Part::DramBusy: return "dram.busy";
    case Part::DramRowMiss: return "dram.row_miss";
    case Part::DramRefresh: return "dram.refresh";
    case Part::Count: break;
  }
  return "?";
}

void requirePicosecondResolution() {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    throw std::logic_error("socsim memory models need the SystemC time resolution at 1 ps");
}

}  // namespace socsim::models


