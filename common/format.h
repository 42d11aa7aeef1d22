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
/// Significant digits of a computed result in machine-readable output (csv, json).
inline constexpr int kResultDigits = 6;
/// A computed result (prediction, error, interval bound, breakdown seconds, summary statistic)
/// for csv/json: rounded to kResultDigits significant digits, then written as formatNumber does
/// ("0.3" for 0.30000000000000004, "3759400" for 3759398.4962, "1.23457e-05"). The model is
/// nowhere near 6 digits accurate, so the digits dropped are float noise. Measured values keep
/// formatNumber (they are printed as published).
std::string formatResult(double v);
/// Same, "" when empty.
std::string formatResult(const std::optional<double>& v);
/// Fixed number of significant digits, for human tables ("%.4g"-like, no exponent below 1e9).
std::string formatSig(double v, int digits = 4);

}  // namespace socsim
