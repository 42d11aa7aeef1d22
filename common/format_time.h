#pragma once
/// @file format_time.h
/// @brief Times for human tables in engineering units ("12.35 ns", "4.500 us"), instead of
///        seconds with leading zeros. Machine-readable output (csv, json) keeps seconds.
#include <string>

namespace socsim {

/// A time in seconds in the engineering unit (ns, us, ms, s) that puts 1..999 before the point,
/// with `digits` significant digits: "12.35 ns", "4.500 us", "1.200 ms", "3.040 s"; below 1 ns
/// fractional nanoseconds; "0 s" for zero; negative values keep their sign.
std::string formatSecondsEng(double seconds, int digits = 4);

}  // namespace socsim
