#include "workloads/os/code_run_store.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "common/format.h"
#include "soc/config/board_config.h"
#include "soc/config/loader.h"

namespace fs = std::filesystem;

namespace socsim::wl::os {

namespace {

std::string& storeDir() {
  static std::string dir;
  return dir;
}

template <class T>
void appendFields(std::string& out, const T& obj) {
  const auto& s = T::schema();
  out += s.typeName() + "{";
  for (int i = 0; i < static_cast<int>(s.fields().size()); ++i)
    out += s.fields()[static_cast<size_t>(i)].key + "=" + s.get(obj, i) + ";";
  out += "}";
}

}  // namespace

void setCodeRunStoreDir(const std::string& dir) {
  storeDir() = dir;
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
  }
}

const std::string& codeRunStoreDir() {
  return storeDir();
}

std::string hardwareFingerprint(const soc::BoardConfig& board) {
  soc::BoardConfig b = board;
  // Values only: sources name the params file or trial a value came from, not the value.
  b.software.kernel_paths = KernelPathParams{};
  b.sources = {};
  b.presets.clear();
  std::ostringstream os;
  soc::WriteOptions wo;
  wo.presetComments = false;
  soc::writeResolvedConfig(b, os, wo);
  return os.str();
}

std::string profileFingerprint(const cpu::WorkloadProfile& p) {
  std::string out;
  appendFields(out, p.info);
  appendFields(out, p.mix);
  appendFields(out, p.deps);
  appendFields(out, p.branches);
  appendFields(out, p.code);
  appendFields(out, p.data);
  return out;
}

std::string storeEntryFile(const std::string& key, const std::string& ext) {
  std::ostringstream name;
  name << std::hex << std::hash<std::string>{}(key) << ext;
  return (fs::path(storeDir()) / name.str()).string();
}

bool readEntryKey(std::istream& in, const std::string& key) {
  size_t len = 0;
  if (!(in >> len) || len != key.size()) return false;
  in.get();
  std::string stored(len, '\0');
  return in.read(stored.data(), static_cast<std::streamsize>(len)) && stored == key;
}

void writeEntry(const std::string& key, const std::string& ext, const std::string& body) {
  if (storeDir().empty()) return;
  const std::string file = storeEntryFile(key, ext);
  const std::string tmp = file + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;
    out << key.size() << "\n" << key << "\n" << body;
    if (!out) return;
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

std::optional<CodeRun> loadCodeRun(const std::string& key) {
  if (storeDir().empty()) return std::nullopt;
  std::ifstream in(storeEntryFile(key, ".run"), std::ios::binary);
  // Layout: key length, the key, then "cpi l1i l1d parts", then one "share name" per part.
  if (!in || !readEntryKey(in, key)) return std::nullopt;
  CodeRun r;
  size_t parts = 0;
  if (!(in >> r.cpi >> r.l1iPerKi >> r.l1dPerKi >> parts)) return std::nullopt;
  for (size_t i = 0; i < parts; ++i) {
    double share = 0;
    std::string name;
    if (!(in >> share) || in.get() != ' ' || !std::getline(in, name)) return std::nullopt;
    r.shares.emplace_back(name, share);
  }
  return r;
}

void saveCodeRun(const std::string& key, const CodeRun& run) {
  std::ostringstream out;
  out << formatNumber(run.cpi) << " " << formatNumber(run.l1iPerKi) << " "
      << formatNumber(run.l1dPerKi) << " " << run.shares.size() << "\n";
  for (const auto& [name, share] : run.shares) out << formatNumber(share) << " " << name << "\n";
  writeEntry(key, ".run", out.str());
}

}  // namespace socsim::wl::os
