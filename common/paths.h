// Where socsim finds its own data: the source tree (configs/, calibration/) and the seed guides.
// One place for these paths, so that a relocated install (SOCSIM_HOME) moves every reader at once.
#pragma once

#include <string>

namespace socsim {

/// @brief Root of the socsim tree holding configs/ and calibration/: $SOCSIM_HOME when set and
///        non-empty, else the source directory this binary was built from.
std::string sourceDir();

/// @brief `sourceDir() + "/configs"`: board, component and workload YAML.
std::string configsDir();

/// @brief The seed guides: $SOCSIM_SEEDS_DIR when set and non-empty, else `../shared/seeds` beside
///        the source directory this binary was built from.
std::string seedsDir();

/// @brief The project version ("0.1.0"), from CMake's project(VERSION).
std::string version();

}  // namespace socsim
