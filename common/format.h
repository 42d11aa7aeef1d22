#pragma once
/// @file format.h
/// @brief Deterministic number formatting for every socsim output (CSV, tables, JSON).
#include <optional>
#include <string>

namespace socsim {

/// Shortest decimal text that round-trips to the same double ("187.41", "1e-05", "3").
/// Deterministic across runs and hosts (fmt's shortest representation).
std::string formatNumber(double v);
/// Same, "" when empty.
std::string formatNumber(const std::optional<double>& v);
/// Fixed number of significant digits, for human tables ("%.4g"-like, no exponent below 1e9).
std::string formatSig(double v, int digits = 4);

}  // namespace socsim
