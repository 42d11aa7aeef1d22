#include "soc/config/schema_registry.h"

#include "soc/config/board_config.h"

#include "models/peripherals/mcspi/mcspi.h"
#include "models/peripherals/mmc/mmc_params.h"
#include "models/peripherals/nand/nand_params.h"
#include "models/peripherals/ospi/ospi_params.h"
#include "models/peripherals/pcie/pcie_params.h"
#include "models/peripherals/sata/sata_params.h"
#include "models/peripherals/storage/storage_device_params.h"
#include "models/peripherals/ufs/ufs_params.h"
#include "models/peripherals/usb/usb_params.h"

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
      listing<wl::os::KernelPathParams>("software.kernel_paths"),
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
      // Storage controller presets (configs/components/peripherals/controllers/) and device
      // presets (configs/components/peripherals/devices/), issue 7.
      listing<models::MmcHostParams>("controllers/*.yaml mmc_host"),
      listing<models::SpiNorControllerParams>("controllers/*.yaml spi_nor_controller"),
      listing<models::NandControllerParams>("controllers/*.yaml nand_controller"),
      listing<models::UfsHostParams>("controllers/*.yaml ufs_host"),
      listing<models::AhciParams>("controllers/*.yaml ahci"),
      listing<models::UsbHostParams>("controllers/*.yaml usb_host"),
      listing<models::PcieNvmeParams>("controllers/*.yaml pcie_nvme"),
      listing<models::storage::StorageDeviceParams>("devices/*.yaml storage_device"),
      listing<models::NorFlashParams>("devices/*.yaml nor_flash"),
      listing<models::NandFlashParams>("devices/*.yaml nand_flash"),
      listing<models::CpswParams>("peripherals[].cpsw"),
      listing<models::PcieNicParams>("peripherals[].nic"),
      // McSPI controller (issue 11), configs/workloads/mcu/mcu.yaml group mcspi.
      listing<models::McspiParams>("workloads/mcu/mcu.yaml mcspi"),
  };
}

}  // namespace socsim::soc
