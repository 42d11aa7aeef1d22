#pragma once
/// @file vocabulary.h
/// @brief The one list of the measured dataset's fixed vocabularies: benchmark families
///        (DESIGN.md, "Families"), normalized units and flag reasons. Ingest writes only these,
///        the measured-CSV reader accepts only these, and the commands check `--family` (and
///        sweep specs their `families:`) against this list, so a misspelt family is an error
///        instead of an empty selection.
#include <string>
#include <vector>

namespace socsim::calib {

/// Every family of DESIGN.md's fixed vocabulary, plus `other` (ingest's family for a table that
/// no family rule recognises; it says so in a warning). Sorted.
const std::vector<std::string>& measuredFamilies();
bool isMeasuredFamily(const std::string& family);

/// Every normalized unit a measured row may carry (ingest's canonical spellings: MB/s, Mbit/s,
/// KB/s, ns, us, %, DMIPS/MHz, ...; MB/KB/MiB/KiB are sizes of 2^20 / 2^10 bytes). The empty
/// unit is allowed: a dimensionless value (mathlib's maximum error) or a row whose unit the
/// guide did not print legibly, which ingest flags `unattributed:unit`.
const std::vector<std::string>& measuredUnits();
bool isMeasuredUnit(const std::string& unit);

/// The reasons a flag may give (the part of each `;`-separated item before `:`), e.g.
/// `zero-rate`, `outlier`, `unattributed`, `alias-of`. Sorted.
const std::vector<std::string>& flagReasons();

/// What is wrong with a flag field ("" when it is empty or every item has a known reason and,
/// where it has one, a non-empty detail after the ':').
std::string flagError(const std::string& flag);

/// The params keys whose value is a positive number (a size in bytes, a rate, a clock, a count
/// of words or bits), as ingest writes them. Sorted.
const std::vector<std::string>& numericParamKeys();

/// What is wrong with a params field ("" when it is empty or well-formed): `key=value` items
/// separated by ';', no empty or repeated key, and the value of a numericParamKeys() key a plain
/// decimal number > 0 and <= 1e12 (`tx_bw_mbps` may also be `max`). A workload reads these sizes
/// and rates as they are: 0, negative or absurd ones gave 0, negative or NaN predictions.
std::string paramsError(const std::string& params);

/// "a, b, c" of `names` (for "expected one of ..." messages).
std::string joinNames(const std::vector<std::string>& names);

}  // namespace socsim::calib
