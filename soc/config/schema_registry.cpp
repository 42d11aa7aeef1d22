#include "soc/config/schema_registry.h"

#include "soc/config/board_config.h"

namespace socsim::soc {

namespace {
template <class T>
SchemaListing listing(const std::string& where) {
  const auto& s = T::schema();
  SchemaListing l;
  l.scope = s.typeName();
  l.where = where;
  l.fields = s.fields();
  T def{};
  for (size_t i = 0; i < l.fields.size(); ++i)
    l.defaults.push_back(s.get(def, static_cast<int>(i)));
  return l;
}
}  // namespace

std::vector<SchemaListing> allSchemas() {
  return {
      listing<BoardInfo>("board"),
      listing<SoftwareParams>("software"),
      listing<ClusterParams>("clusters[]"),
      listing<models::CoreParams>("clusters[].core"),
      listing<models::CoreTimingParams>("clusters[].core.timing"),
      listing<models::CoreMemoryParams>("clusters[].memory"),
      listing<models::CacheParams>("clusters[].l1i, clusters[].l1d, clusters[].l2, l3"),
      listing<SramParams>("sram[]"),
      listing<models::InterconnectParams>("interconnect"),
      listing<models::DdrControllerParams>("ddr_controller"),
      listing<models::DramParams>("dram"),
      listing<PeripheralParams>("peripherals[]"),
  };
}

}  // namespace socsim::soc
