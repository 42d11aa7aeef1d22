#pragma once
/// @file units.h
/// @brief SI / IEC quantity strings parsed once, at load time ("32KiB", "2GHz", "15ns", "4266MT/s").
///
/// Owner: the config loader. Each parser accepts a bare number (already in the base unit
/// named by the function) or a number followed by a unit; throws InputError (message only:
/// the caller adds file/line/path) naming the accepted forms.
#include <cstdint>
#include <string>

namespace socsim::units {

/// Bytes: "32KiB", "32KB" (=1024, as datasheets mean it), "1MiB", "2 MB", "512B", "4096 bytes".
std::uint64_t parseBytes(const std::string& text);
/// Hertz: "2GHz", "800MHz", "166.667 MHz", "1e9".
double parseHz(const std::string& text);
/// Seconds: "15ns", "7.8us", "64ms", "1.25 ns".
double parseSeconds(const std::string& text);
/// Transfers per second: "4266MT/s", "1600 MT/s" -> 4.266e9.
double parseTransfersPerSecond(const std::string& text);
/// Bits per second: "1Gbps", "100 Mbps", "100Mbit/s"; "8GT/s" is NOT accepted here.
double parseBitsPerSecond(const std::string& text);

}  // namespace socsim::units

namespace socsim::units {
/// Convert "15ns" / "2GHz" / "32KiB" / "4266MT/s" / a bare number into the number expressed in
/// `unit` (a params::FieldInfo unit: ns, us, ms, s, ps, Hz, kHz, MHz, GHz, MT/s, GT/s, bytes,
/// bit/s, Mbit/s, Gbit/s; any other unit accepts a bare number or the number followed by exactly
/// that unit). Zero and negative values are left to the field's range check (a zero clock is
/// "out of range"), except sizes, which must not be negative. Throws InputError (message only)
/// naming the expected form.
double parseIn(const std::string& text, const std::string& unit);
}  // namespace socsim::units
