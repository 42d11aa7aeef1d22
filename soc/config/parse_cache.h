#pragma once
/// @file parse_cache.h
/// @brief The process's cache of parsed config files (parseYamlFile, config_tree.h).
///
/// parseYamlFile keeps each file's parsed tree (before the parsed-file hook: the calibration
/// overrides apply to a copy) keyed by its path and checked against the file's text, so a
/// repeated parse of an unchanged file is a copy of the tree, and a changed file is parsed again.
/// Why: a calibration evaluation forks one worker per board, and each worker parsed the board,
/// its presets and the workload profiles again: for a cheap board (3 Dhrystone rows on
/// j7200-evm) yaml-cpp was about 40 % of the worker's CPU time (perf, session 10).
/// preparseYamlTree, called in the parent before the workers fork, fills the cache once; the
/// workers inherit it.
#include <string>

namespace socsim::config {

/// Parse every `*.yaml` below `dir` into the cache (files that fail to parse are left out: their
/// error is reported where they are used). Returns how many files are cached.
int preparseYamlTree(const std::string& dir);

}  // namespace socsim::config
