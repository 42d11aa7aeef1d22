#pragma once
/// @file code_run_store.h
/// @brief Warm kernel-code runs (CodeRun: CPI and misses of a kernel-code footprint on one
///        board) shared between processes through a folder, so that repeated predictions of the
///        same boards (every evaluation of `socsim calibrate`, each in fresh forked workers) do
///        not re-simulate code whose inputs did not change.
///
/// A run depends on the board's resolved hardware (cores, caches, memory system: everything but
/// the software stack's kernel-path counts) and on the kernel instruction-stream profile with
/// the path's footprint. The key is a fingerprint of exactly those: the resolved board config
/// written with default kernel paths, and every field of the profile. A stored entry carries
/// its full key and is used only when the key matches (no hash collision can return another
/// board's run). Files are written to a temporary name and renamed, so concurrent workers never
/// read a half-written entry.
///
/// Off (empty folder) by default: `socsim validate` predicts every board once per process and
/// gains nothing; `socsim calibrate` turns it on for its own run with a fresh temporary folder
/// and removes it afterwards (the entries are only valid for one build of the models).
#include <istream>
#include <optional>
#include <string>

#include "workloads/cpu/workload_profile.h"
#include "workloads/os/os_machine.h"

namespace socsim::soc {
struct BoardConfig;
}

namespace socsim::wl::os {

/// Share warm code runs through `dir` (created when missing); "" turns sharing off.
void setCodeRunStoreDir(const std::string& dir);
/// The folder set by setCodeRunStoreDir ("" when off).
const std::string& codeRunStoreDir();

/// Fingerprint of a board's hardware as the kernel code sees it (resolved config with default
/// kernel-path counts).
std::string hardwareFingerprint(const soc::BoardConfig& board);
/// Fingerprint of an instruction-stream profile (every schema field of every group).
std::string profileFingerprint(const cpu::WorkloadProfile& p);

/// The file of the entry stored under `key` with extension `ext` (in the shared folder).
std::string storeEntryFile(const std::string& key, const std::string& ext);
/// Read an entry's header (key length, then the key) from `in`: true when it is `key`'s.
bool readEntryKey(std::istream& in, const std::string& key);
/// Store `body` under `key` with extension `ext`: written to a temporary name, then renamed
/// (concurrent workers never read a half-written entry); no-op when sharing is off.
void writeEntry(const std::string& key, const std::string& ext, const std::string& body);

/// The stored run for `key`, when sharing is on and one was stored.
std::optional<CodeRun> loadCodeRun(const std::string& key);
/// Store `run` under `key` (no-op when sharing is off; I/O errors only lose the sharing).
void saveCodeRun(const std::string& key, const CodeRun& run);

}  // namespace socsim::wl::os
