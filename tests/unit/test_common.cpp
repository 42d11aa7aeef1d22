#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

#include "calibration/dataset/measured_row.h"
#include "common/csv.h"
#include "common/error.h"
#include "common/format.h"
#include "common/format_time.h"
#include "common/stop_signal.h"
#include "common/table.h"

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

// Found: validate's table was ~358 characters wide. With fitWidth the widest text columns are
// narrowed and their cells continue on the next lines; numbers are never broken.
TEST(Table, FitWidthWrapsTextColumnsAndKeepsNumbers) {
  Table t;
  t.columns = {"name", "params", "value"};
  t.numeric = {false, false, true};
  t.fitWidth = 40;
  t.addRow({"a-rather-long-benchmark-name", "config=Kernel boot time test when init is /bin/sh",
            "1234567.25"});
  t.addRow({"short", "", "1"});
  std::ostringstream os;
  t.print(os, Format::Table);
  std::istringstream lines(os.str());
  std::string line, all;
  int n = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 40u) << line;
    all += line + "\n";
    ++n;
  }
  EXPECT_GT(n, 4) << all;  // header, rule, the long row on several lines, the short row
  EXPECT_NE(all.find("1234567.25"), std::string::npos) << all;
  for (const char* word : {"Kernel boot", "init is", "/bin/sh", "a-rather-", "benchmark-"})
    EXPECT_NE(all.find(word), std::string::npos) << word << "\n" << all;
  // csv is not affected.
  std::ostringstream csv;
  t.print(csv, Format::Csv);
  EXPECT_NE(csv.str().find("config=Kernel boot time test when init is /bin/sh"), std::string::npos);
}

// Found (session 7): `socsim params` broke every parameter name over eight lines of eight
// characters: a column marked keepWhole is never narrowed, the others give way.
TEST(Table, KeepWholeColumnIsNeverBroken) {
  Table t;
  t.columns = {"name", "source"};
  t.fitWidth = 40;
  t.keepWhole = {true, false};
  t.addRow({"components/cores/cortex_a72.fp_latency", "calibrated: initial value, no source"});
  std::ostringstream os;
  t.print(os, Format::Table);
  EXPECT_NE(os.str().find("components/cores/cortex_a72.fp_latency"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("calibr"), std::string::npos) << os.str();  // wrapped, not lost
  // Without keepWhole the same table breaks the name.
  t.keepWhole.clear();
  std::ostringstream broken;
  t.print(broken, Format::Table);
  EXPECT_EQ(broken.str().find("components/cores/cortex_a72.fp_latency"), std::string::npos)
      << broken.str();
}

// Found (session 7 review): `socsim params` cut each source to the terminal's width in bytes,
// splitting a UTF-8 character (e.g. COLUMNS=218 printed invalid UTF-8). clipText counts code
// points and never cuts inside one.
TEST(Table, ClipTextCutsCodePointsNotBytes) {
  EXPECT_EQ(clipText("short", 10), "short");
  EXPECT_EQ(clipText("abcdefghijkl", 8), "abcde...");
  const std::string mu = "\xC2\xB5";  // U+00B5, two bytes
  EXPECT_EQ(clipText("12" + mu + "s per call", 6), "12" + mu + "...");
  EXPECT_EQ(displayWidth(clipText("12" + mu + "s per call", 6)), 6u);
  for (std::size_t w = 4; w < 12; ++w) {
    std::string c = clipText("a" + mu + mu + mu + "bcdefghij", w);
    EXPECT_LE(displayWidth(c), w) << w;
    EXPECT_NE(static_cast<unsigned char>(c[c.size() - 4]), 0xC2u) << w << ": " << c;
  }
}

// Found (session 3): explain printed times as 0.000001234 (seconds with many leading zeros).
TEST(Format, SecondsInEngineeringUnits) {
  EXPECT_EQ(formatSecondsEng(1.2345e-8), "12.35 ns");
  EXPECT_EQ(formatSecondsEng(4.5e-6), "4.500 us");
  EXPECT_EQ(formatSecondsEng(0.0012), "1.200 ms");
  EXPECT_EQ(formatSecondsEng(3.04), "3.040 s");
  EXPECT_EQ(formatSecondsEng(999.96e-6), "1.000 ms");  // rounds into the next unit
  EXPECT_EQ(formatSecondsEng(2.5e-10), "0.2500 ns");
  EXPECT_EQ(formatSecondsEng(0), "0 s");
  EXPECT_EQ(formatSecondsEng(-2e-3, 3), "-2.00 ms");
}


// Found (session 6): the validate table printed whetstone's MdAPE 9.9996 % as "10.00" (4
// significant digits where every other cell has 3): a value that rounds up to the next power
// of ten gets one decimal fewer.
TEST(FormatSig, RoundingUpToTheNextPowerOfTenKeepsTheDigitCount) {
  EXPECT_EQ(socsim::formatSig(9.9996, 3), "10.0");
  EXPECT_EQ(socsim::formatSig(0.99951, 3), "1.00");
  EXPECT_EQ(socsim::formatSig(99.96, 3), "100");
  EXPECT_EQ(socsim::formatSig(-9.9996, 3), "-10.0");
  EXPECT_EQ(socsim::formatSig(9.994, 3), "9.99");
  EXPECT_EQ(socsim::formatSig(4.00274, 3), "4.00");
  EXPECT_EQ(socsim::formatSig(999.6, 3), "1000");
}

// Found (session 9): `validate` sometimes exited 0 after SIGTERM. The signal was taken between
// the loop's stop check and its poll(), which then blocked until the workers finished, and a
// signal during the last wait was never looked at. Now a stop signal waits (blocked) for the
// guard's poll, which returns at once.
TEST(StopSignalGuard, ASignalBeforeTheWaitEndsTheWaitAtOnce) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    StopSignalGuard guard;
    EXPECT_FALSE(StopSignalGuard::stopRequested());
    kill(getpid(), SIGTERM);  // after the check, before the wait
    EXPECT_TRUE(StopSignalGuard::stopRequestedOrPending());
    pollfd p{fds[0], POLLIN, 0};
    const auto t0 = std::chrono::steady_clock::now();
    int rc = guard.poll(&p, 1, 20000);  // nothing is ever written: only the signal can end it
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(rc, -1);
    EXPECT_LT(s, 5.0);
    EXPECT_TRUE(StopSignalGuard::stopRequested());
  }
  close(fds[0]);
  close(fds[1]);
}

// A stop signal that never met a wait is taken when the guard ends (the process lives on), and a
// forked worker that got one before resetStopSignalsInChild stops there (default action).
TEST(StopSignalGuard, APendingSignalIsTakenAtTheEndAndStopsAResetWorker) {
  {
    StopSignalGuard guard;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      kill(getpid(), SIGTERM);  // blocked: inherited mask
      resetStopSignalsInChild();
      _exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
    kill(getpid(), SIGINT);
    EXPECT_FALSE(StopSignalGuard::stopRequested());
  }
  EXPECT_TRUE(StopSignalGuard::stopRequested());
  StopSignalGuard next;  // a new guard starts clean
  EXPECT_FALSE(StopSignalGuard::stopRequested());
}
