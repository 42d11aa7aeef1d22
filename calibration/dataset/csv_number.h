#pragma once
/// @file csv_number.h
/// @brief One number cell of a data CSV (measured, validate): "" is no value; anything but a
///        whole finite number is an InputError naming the file, line and column.
#include <optional>
#include <string>

namespace socsim::calib {

/// nullopt for ""; the number for a cell that is exactly one finite number ("1.5", "2e3");
/// throws InputError(file, line, column) for text, trailing junk, nan, inf and overflow (1e999:
/// not a measurement, and invalid in JSON output).
std::optional<double> parseCsvNumber(const std::string& cell, const std::string& file, int line,
                                     const char* column);

}  // namespace socsim::calib
