#include "common/paths.h"
#include "workloads/storage/storage_data.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/error.h"
#include "soc/config/board_info.h"
#include "soc/config/config_tree.h"
#include "soc/config/group_file.h"
#include "soc/config/schema_io.h"

namespace fs = std::filesystem;

namespace socsim::wl::storage {

namespace {

std::string normalize(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> yamlFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".yaml")
      files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  return files;
}

ControllerPreset loadController(const std::string& file) {
  config::Node root = config::loadMapFile(file);
  ControllerPreset c;
  c.file = file;
  for (const auto& [key, node] : root.map) {
    if (key == config::kSourceKey || key == "description") continue;
    if (!c.group.empty())
      throw InputError(node.file, node.line, key,
                       "a controller preset holds one group; found '" + c.group + "' and '" +
                           key + "'");
    c.group = key;
    if (key == "mmc_host")
      c.mmc = config::fileGroup<models::MmcHostParams>(root, file, key);
    else if (key == "spi_nor_controller")
      c.spiNor = config::fileGroup<models::SpiNorControllerParams>(root, file, key);
    else if (key == "nand_controller")
      c.nand = config::fileGroup<models::NandControllerParams>(root, file, key);
    else if (key == "ufs_host")
      c.ufs = config::fileGroup<models::UfsHostParams>(root, file, key);
    else if (key == "ahci")
      c.ahci = config::fileGroup<models::AhciParams>(root, file, key);
    else if (key == "usb_host")
      c.usb = config::fileGroup<models::UsbHostParams>(root, file, key);
    else if (key == "pcie_nvme")
      c.pcie = config::fileGroup<models::PcieNvmeParams>(root, file, key);
    else
      throw InputError(node.file, node.line, key,
                       "unknown controller group '" + key + "'" +
                           config::suggestion(key, {"mmc_host", "spi_nor_controller",
                                                    "nand_controller", "ufs_host", "ahci",
                                                    "usb_host", "pcie_nvme"}));
  }
  if (c.group.empty()) throw InputError(file, root.line, "", "no controller group");
  return c;
}

DevicePreset loadDevice(const std::string& file) {
  config::Node root = config::loadMapFile(file);
  DevicePreset d;
  d.file = file;
  d.id = fs::path(file).stem().string();
  int groups = 0;
  for (const auto& [key, node] : root.map) {
    if (key == config::kSourceKey || key == "description") continue;
    ++groups;
    if (node.isMap())
      if (const config::Node* a = node.find("aliases")) {
        if (!a->isSeq()) throw InputError(a->file, a->line, key + ".aliases", "expected a list");
        for (const auto& s : a->seq) d.aliases.push_back(s.scalar);
      }
    if (key == "storage_device")
      d.block = config::fileGroup<models::storage::StorageDeviceParams>(root, file, key, {"aliases"});
    else if (key == "nor_flash")
      d.nor = config::fileGroup<models::NorFlashParams>(root, file, key, {"aliases"});
    else if (key == "nand_flash")
      d.nand = config::fileGroup<models::NandFlashParams>(root, file, key, {"aliases"});
    else
      throw InputError(node.file, node.line, key,
                       "unknown device group '" + key + "'" +
                           config::suggestion(key, {"storage_device", "nor_flash", "nand_flash"}));
  }
  if (groups != 1) throw InputError(file, root.line, "", "a device preset holds exactly one group");
  return d;
}

}  // namespace

std::string DevicePreset::name() const {
  if (block) return block->name;
  if (nor) return nor->name;
  if (nand) return nand->name;
  return id;
}

std::string defaultStorageDir() {
  return socsim::configsDir() + "/workloads/storage";
}

StorageData StorageData::load(const std::string& dir) {
  StorageData d;
  d.dir = dir;
  d.linux = config::loadGroupFile<LinuxIoParams>(dir + "/linux_io.yaml", "linux_io");
  d.uboot = config::loadGroupFile<UbootParams>(dir + "/uboot.yaml", "uboot");
  d.sbl = config::loadGroupFile<SblParams>(dir + "/sbl.yaml", "sbl");
  d.boot = config::loadGroupFile<LinuxBootParams>(dir + "/linux_boot.yaml", "linux_boot");
  d.xip = config::loadGroupFile<XipParams>(dir + "/xip.yaml", "xip");
  d.kernelProfile = cpu::loadProfile(dir + "/base/kernel_path.yaml");
  d.loopProfile = cpu::loadProfile(dir + "/base/data_loop.yaml");
  d.firProfile = cpu::loadProfile(dir + "/base/fir_f32.yaml");

  const std::string rulesFile = dir + "/controllers.yaml";
  config::Node rules = config::loadMapFile(rulesFile);
  const config::Node* list = rules.find("controllers");
  if (!list || !list->isSeq())
    throw InputError(rulesFile, rules.line, "controllers", "expected a list of rules");
  for (size_t i = 0; i < list->seq.size(); ++i) {
    const config::Node& r = list->seq[i];
    const std::string path = "controllers[" + std::to_string(i) + "]";
    if (!r.isMap()) throw InputError(r.file, r.line, path, "expected {ip, version, controller}");
    ControllerRule rule;
    for (const auto& [k, v] : r.map) {
      if (!v.isScalar()) throw InputError(v.file, v.line, path + "." + k, "expected a scalar");
      if (k == "ip")
        rule.ip = v.scalar;
      else if (k == "version")
        rule.version = v.scalar;
      else if (k == "controller")
        rule.preset = (fs::path(v.file).parent_path() / v.scalar).lexically_normal().string();
      else if (k != config::kSourceKey)
        throw InputError(v.file, v.line, path + "." + k,
                         "unknown key '" + k + "'" +
                             config::suggestion(k, {"ip", "version", "controller"}));
    }
    if (rule.ip.empty() || rule.preset.empty())
      throw InputError(r.file, r.line, path, "a rule needs 'ip' and 'controller'");
    if (!d.controllers.count(rule.preset)) {
      if (!fs::exists(rule.preset))
        throw InputError(r.file, r.line, path + ".controller", "no such file: " + rule.preset);
      config::ReadCapture capture;  // noted when a board's peripheral picks it
      ControllerPreset c = loadController(rule.preset);
      c.reads = capture.reads();
      d.controllers.emplace(rule.preset, std::move(c));
    }
    d.rules.push_back(rule);
  }
  const std::string devDir =
      (fs::path(dir) / "../../components/peripherals/devices").lexically_normal().string();
  // Every device preset is loaded (a bad file is an error whichever board runs), but its
  // reads count for a board only when deviceFor picks it.
  for (const auto& f : yamlFiles(devDir)) {
    config::ReadCapture capture;
    d.devices.push_back(loadDevice(f));
    d.devices.back().reads = capture.reads();
  }
  return d;
}

const ControllerPreset* StorageData::controllerFor(const soc::PeripheralParams& p) const {
  for (const auto& r : rules) {
    if (r.ip != p.ip) continue;
    if (!r.version.empty() && p.version.find(r.version) == std::string::npos) continue;
    auto it = controllers.find(r.preset);
    if (it == controllers.end()) return nullptr;
    config::noteReads(it->second.reads);
    return &it->second;
  }
  return nullptr;
}

const DevicePreset* StorageData::deviceFor(const std::string& text) const {
  const std::string key = normalize(text);
  if (key.empty()) return nullptr;
  auto picked = [](const DevicePreset& d) {
    config::noteReads(d.reads);
    return &d;
  };
  for (const auto& d : devices) {
    if (normalize(d.id) == key || normalize(d.name()) == key) return picked(d);
    for (const auto& a : d.aliases)
      if (normalize(a) == key) return picked(d);
  }
  return nullptr;
}

}  // namespace socsim::wl::storage
