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

TEST(MeasuredRow, ParamsLookup) {
  EXPECT_EQ(calib::paramValue("size=1048576;stack=linux", "stack").value(), "linux");
  EXPECT_FALSE(calib::paramValue("size=1", "stack").has_value());
}
