#include <gtest/gtest.h>

#include <sstream>

#include "calibration/dataset/measured_row.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"

using namespace socsim;

TEST(Csv, RoundTripsQuotedFields) {
  std::vector<std::string> rec = {"a", "b,c", "say \"hi\"", "", "line\nbreak"};
  auto parsed = csv::parse(csv::joinRecord(rec) + "\n", "mem");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0], rec);
}

TEST(Csv, UnterminatedQuoteNamesFileAndLine) {
  try {
    csv::parse("a,b\n\"open,c\n", "x.csv");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "x.csv");
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(Format, ShortestRoundTrip) {
  EXPECT_EQ(formatNumber(187.41), "187.41");
  EXPECT_EQ(formatNumber(3.0), "3");
  EXPECT_EQ(formatNumber(std::optional<double>()), "");
}

// Found: csv/json printed float noise (0.30000000000000004, 5.3008746609375); computed results
// keep kResultDigits (6) significant digits.
TEST(Format, ResultsKeepSixSignificantDigits) {
  EXPECT_EQ(formatResult(0.1 + 0.2), "0.3");
  EXPECT_EQ(formatResult(5.3008746609375), "5.30087");
  EXPECT_EQ(formatResult(3759398.4962), "3759400");
  EXPECT_EQ(formatResult(-0.45295411135835910), "-0.452954");
  EXPECT_EQ(formatResult(0.00013795157586772667), "0.000137952");
  EXPECT_EQ(formatResult(1.0), "1");
  EXPECT_EQ(formatResult(0.0), "0");
  EXPECT_EQ(formatResult(std::optional<double>()), "");
  EXPECT_EQ(formatResult(1e300 * 1e10), "inf");
}

TEST(MeasuredRow, ParamsLookup) {
  EXPECT_EQ(calib::paramValue("size=1048576;stack=linux", "stack").value(), "linux");
  EXPECT_FALSE(calib::paramValue("size=1", "stack").has_value());
}

