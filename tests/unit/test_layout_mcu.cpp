// parseMcu (seed 004, AM64x MCU+ SDK 09.01 datasheet): row counts per table against
// INVENTORY.md §3.3, hand-picked values with their params, two-value and composite cells,
// '-' and zero handling, flags, and small synthetic documents for the traps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "calibration/dataset/measured_row.h"
#include "calibration/ingest/ingest.h"
#include "calibration/ingest/layouts.h"
#include "tests/support/seeds.h"

using socsim::calib::MeasuredRow;
using namespace socsim::ingest;

namespace {

const char* k004 = "004_d708b8e6c9b42985.txt";

std::string readSeed(const std::string& name) {
  std::ifstream in(socsim::test::seedPath(name), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const ParsedDocument& doc004() {
  static const ParsedDocument d = parseMcu(readSeed(k004), "004_d708b8e6c9b42985");
  return d;
}

/// Rows matching table, benchmark, metric and params exactly.
std::vector<MeasuredRow> find(const std::vector<MeasuredRow>& rows, const std::string& table,
                              const std::string& benchmark, const std::string& metric,
                              const std::string& params) {
  std::vector<MeasuredRow> out;
  for (const auto& r : rows)
    if (r.table == table && r.benchmark == benchmark && r.metric == metric && r.params == params)
      out.push_back(r);
  return out;
}

/// The single row with these keys; fails the test (and returns a dummy) otherwise.
MeasuredRow one(const std::vector<MeasuredRow>& rows, const std::string& table,
                const std::string& benchmark, const std::string& metric,
                const std::string& params) {
  auto f = find(rows, table, benchmark, metric, params);
  EXPECT_EQ(f.size(), 1u) << table << " / " << benchmark << " / " << metric << " / " << params;
  return f.empty() ? MeasuredRow{} : f.front();
}

int countDiagnostics(const ParsedDocument& d, const std::string& needle) {
  return static_cast<int>(std::count_if(
      d.diagnostics.begin(), d.diagnostics.end(),
      [&](const Diagnostic& x) { return x.message.find(needle) != std::string::npos; }));
}

// A tiny MCU+ datasheet exercising several traps without the seed.
const char* kMini =
    "AM64x MCU+ SDK  09.01.00\n"
    "Datasheet\n"
    "\n"
    "MCSPI performance\n"
    "\n"
    "  \xE2\x80\xA2 Transfer Length : 400 Bytes\n"
    "  \xE2\x80\xA2 SPI Clock speed : 50MHz\n"
    "Number of Words Word Width (Bits) Polled mode Throughput / Transfer time Dma mode (Mbps) "
    "Throughput / Transfer time\n"
    "400 08 15.63 Mbps / 204.78 us -\n"
    "200 16 32.49 Mbps / 98.48\n"
    "\n"
    "CPSW Performance\n"
    "\n"
    "UDP RX Performance(am243x-lp):\n"
    "\n"
    "  \xE2\x80\xA2 For Packet Size: 256 B\n"
    "Tx Side BW/Packet Size CPU load(%) Packet loss(%) Latency\n"
    "25 Mbps 42 0 -\n"
    "100 Mbps - - -\n"
    "Max(158 Mbps) 80.83 1.1 -\n";

}  // namespace

TEST(LayoutMcu, TotalsAndTablesMatchInventory) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& d = doc004();
  EXPECT_EQ(d.layout, Layout::Mcu);
  EXPECT_EQ(d.source, "004_d708b8e6c9b42985");
  EXPECT_TRUE(d.tables.empty()) << "004 emits finished rows only";
  // INVENTORY §3.3 counts 234 values; the RNDIS summary row "10 0.0-10.0 sec" adds 2 it
  // leaves out (printed values are never dropped).
  EXPECT_EQ(d.directRows.size(), 236u);

  std::map<std::pair<std::string, std::string>, int> perTable;
  for (const auto& r : d.directRows) ++perTable[{r.section, r.table}];
  const std::map<std::pair<std::string, std::string>, int> expected = {
      {{"SBL OSPI performance", "SBL OSPI performance"}, 8},                       // #1
      {{"SBL SD performance", "SBL SD performance"}, 9},                           // #2
      {{"XIP Benchmark", "XIP Benchmark: FIR operation"}, 3},                      // #3
      {{"XIP Benchmark", "XIP Benchmark: MEMCPY operation"}, 3},                   // #4
      {{"MCAN performance", "MCAN performance"}, 2},                               // #5
      {{"MCSPI performance", "MCSPI driver performance in different modes"}, 18},  // #6
      {{"CPSW Performance", "TCP Performance(am64x/243x emvs):"}, 7},              // #7
      {{"CPSW Performance", "TCP Performance(am243x-lp):"}, 7},                    // #8
      {{"CPSW Performance", "UDP TX Performance(am64x/243x emvs): For Packet Size: 1500 B"},
       6},                                                                                  // #9
      {{"CPSW Performance", "UDP TX Performance(am243x-lp): For Packet Size: 1500 B"}, 6},  // #10
      {{"CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 256 B"},
       4},  // #11
      {{"CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 512 B"},
       6},  // #12
      {{"CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 1500 B"},
       9},                                                                                  // #13
      {{"CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 256 B"}, 4},   // #14
      {{"CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 512 B"}, 6},   // #15
      {{"CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 1500 B"}, 6},  // #16
      {{"IPC performance", "IPC NOTIFY"}, 6},                                               // #17
      {{"IPC performance", "IPC RPMSG"}, 10},                                               // #18
      {{"MATHLIB", "MATHLIB BENCHMARK"}, 36},                                               // #19
      {{"SA2UL", "PKA RSA SIGN VERIFY"}, 6},                                                // #20
      {{"SA2UL", "SHA"}, 14},                                                               // #21
      {{"SA2UL", "PKA ECDSA"}, 6},                                                          // #22
      {{"SA2UL", "AES"}, 28},                                                               // #23
      {{"SA2UL", "RSA ENCRYPT DECRYPT"}, 4},                                                // #24
      {{"USB", "NET Driver ( RNDIS )"}, 22},  // #25 (20 + summary)
  };
  EXPECT_EQ(perTable, expected);

  std::map<std::string, int> perFamily;
  for (const auto& r : d.directRows) ++perFamily[r.family];
  // INVENTORY §4.2: boot 17, ethernet 61, sa2ul 58, XIP/MCAN/MCSPI/IPC/Mathlib 6/2/18/16/36, USB
  // 20(+2).
  const std::map<std::string, int> families = {{"boot", 17},    {"xip", 6},       {"mcan", 2},
                                               {"mcspi", 18},   {"ethernet", 61}, {"ipc", 16},
                                               {"mathlib", 36}, {"sa2ul", 58},    {"usb", 22}};
  EXPECT_EQ(perFamily, families);

  std::map<std::string, int> perBoard;
  for (const auto& r : d.directRows) ++perBoard[r.board];
  // INVENTORY §4.3: AM64x EVM 173 (+2 summary), am64x/243x evms 32 -> am64x-evm, am243x-lp 29.
  EXPECT_EQ(perBoard, (std::map<std::string, int>{{"am64x-evm", 175 + 32}, {"am243x-lp", 29}}));
}

TEST(LayoutMcu, HandPickedValuesWithParams) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& rows = doc004().directRows;
  const std::string ospi =
      "app_bytes=78848;boot_media=ospi;cores=m4f0-0,r5f0-0,r5f0-1,r5f1-0,r5f1-1;media_clock_mhz="
      "166.667;"
      "sbl_bytes=262144";
  auto total = one(rows, "SBL OSPI performance", "SBL : Total time taken", "Time", ospi);
  EXPECT_DOUBLE_EQ(total.value, 95.372);
  EXPECT_EQ(total.unit, "ms");
  EXPECT_EQ(total.board, "am64x-evm");
  EXPECT_EQ(total.family, "boot");
  EXPECT_EQ(total.line, 42);

  auto fir = one(rows, "XIP Benchmark: FIR operation", "FIR operation", "Cycles taken",
                 "caching=not-cached-1-of-10-iterations");
  EXPECT_DOUBLE_EQ(fir.value, 29552);
  EXPECT_EQ(fir.unit, "cycles");

  auto can = one(rows, "MCAN performance", "CAN FD EXTENDED FORMAT", "Throughput",
                 "arb_bitrate_mbps=1;arb_phase_bits=46;data_bitrate_mbps=5;data_phase_bits=538;"
                 "mcan_clock_mhz=80");
  EXPECT_DOUBLE_EQ(can.value, 5780);
  EXPECT_EQ(can.unit, "msg/s");

  auto tcp = one(rows, "TCP Performance(am243x-lp):", "TCP RX", "CPU load", "stack=lwip");
  EXPECT_DOUBLE_EQ(tcp.value, 31.01);
  EXPECT_EQ(tcp.unit, "%");
  EXPECT_EQ(tcp.board, "am243x-lp");
  EXPECT_EQ(tcp.family, "ethernet");

  auto udp = one(rows, "UDP RX Performance(am64x/243x emvs): For Packet Size: 512 B", "UDP RX",
                 "Packet loss", "packet_bytes=512;stack=lwip;tx_bw_mbps=100");
  EXPECT_DOUBLE_EQ(udp.value, 41);
  EXPECT_EQ(udp.board, "am64x-evm");

  auto maxBw = one(rows, "UDP RX Performance(am64x/243x emvs): For Packet Size: 1500 B", "UDP RX",
                   "Tx Side BW", "packet_bytes=1500;stack=lwip;tx_bw_mbps=max");
  EXPECT_DOUBLE_EQ(maxBw.value, 158);
  EXPECT_EQ(maxBw.unit, "Mbit/s");

  auto rpmsg = one(rows, "IPC RPMSG", "IPC RPMSG", "Average Message Latency",
                   "local=r5f0-0;msg_bytes=112;remote=m4f0-0");
  EXPECT_DOUBLE_EQ(rpmsg.value, 3.179);
  EXPECT_EQ(rpmsg.unit, "us");
  EXPECT_EQ(rpmsg.family, "ipc");

  auto atan2 = one(rows, "MATHLIB BENCHMARK", "atan2", "avg cycles", "impl=clang");
  EXPECT_DOUBLE_EQ(atan2.value, 479.428009);
  EXPECT_EQ(atan2.unit, "cycles");
  auto err = one(rows, "MATHLIB BENCHMARK", "asin", "Err Max", "");
  EXPECT_DOUBLE_EQ(err.value, 0.0000003430);

  auto sha = one(rows, "SHA", "SHA", "Performance", "code_placement=ocmc;sha_bits=256;size=1024");
  EXPECT_DOUBLE_EQ(sha.value, 312.552461);
  EXPECT_EQ(sha.unit, "Mbit/s");
  EXPECT_EQ(sha.family, "sa2ul");

  auto aes = one(rows, "AES", "AES", "Performance",
                 "code_placement=ocmc;key_bits=256;op=decryption;size=32768");
  EXPECT_DOUBLE_EQ(aes.value, 1521.251732);

  auto rsa = one(rows, "RSA ENCRYPT DECRYPT", "RSA ENCRYPT DECRYPT", "Performance",
                 "code_placement=ocmc;key_bits=4096;op=decryption;size=512");
  EXPECT_DOUBLE_EQ(rsa.value, 0.400676);

  auto ecdsa = one(rows, "PKA ECDSA", "PKA ECDSA", "Sign and verify", "key_bits=384");
  EXPECT_DOUBLE_EQ(ecdsa.value, 218);
  EXPECT_EQ(ecdsa.unit, "ops/s");
  EXPECT_EQ(ecdsa.flag, "");

  auto rndis = one(rows, "NET Driver ( RNDIS )", "NET Driver ( RNDIS )", "Transfer",
                   "interval_s=8.0-9.0;tcp_window_bytes=87040");
  EXPECT_DOUBLE_EQ(rndis.value, 4.25);
  EXPECT_EQ(rndis.unit, "MiB");
  EXPECT_EQ(rndis.family, "usb");
  auto rndisBw = one(rows, "NET Driver ( RNDIS )", "NET Driver ( RNDIS )", "Bandwidth",
                     "interval_s=9.0-10.0;tcp_window_bytes=87040");
  EXPECT_DOUBLE_EQ(rndisBw.value, 34.6);
  EXPECT_EQ(rndisBw.unit, "Mbit/s");
}

TEST(LayoutMcu, TwoValueCellsBecomeTwoRows) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& rows = doc004().directRows;
  const std::string t = "MCSPI driver performance in different modes";
  const std::string p8 = "spi_clock_mhz=50;transfer_bytes=400;word_width_bits=8;words=400";
  auto thr = one(rows, t, "Polled mode", "Throughput", p8);
  auto time = one(rows, t, "Polled mode", "Transfer time", p8);
  EXPECT_DOUBLE_EQ(thr.value, 15.63);
  EXPECT_EQ(thr.unit, "Mbit/s");
  EXPECT_DOUBLE_EQ(time.value, 204.78);
  EXPECT_EQ(time.unit, "us");
  EXPECT_EQ(thr.line, 107);
  auto dma = one(rows, t, "Dma mode", "Transfer time",
                 "spi_clock_mhz=50;transfer_bytes=400;word_width_bits=32;words=100");
  EXPECT_DOUBLE_EQ(dma.value, 3284.78);
  auto intr = one(rows, t, "Interrupt mode", "Throughput",
                  "spi_clock_mhz=50;transfer_bytes=400;word_width_bits=16;words=200");
  EXPECT_DOUBLE_EQ(intr.value, 31.46);
}

TEST(LayoutMcu, CompositeCellsSplitIntoTxAndRx) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& rows = doc004().directRows;
  const std::string t = "TCP Performance(am243x-lp):";
  EXPECT_DOUBLE_EQ(one(rows, t, "TCP Biderectional", "B/W", "stack=lwip;stream=tx").value, 93.20);
  EXPECT_DOUBLE_EQ(one(rows, t, "TCP Biderectional", "B/W", "stack=lwip;stream=rx").value, 93.2);
  // The CPU load of the bidirectional run is one value, with no stream.
  EXPECT_DOUBLE_EQ(one(rows, t, "TCP Biderectional", "CPU load", "stack=lwip").value, 63.28);
  // The printed sum is not a value of its own: no B/W row without a stream.
  EXPECT_TRUE(find(rows, t, "TCP Biderectional", "B/W", "stack=lwip").empty());
  EXPECT_DOUBLE_EQ(one(rows, "TCP Performance(am64x/243x emvs):", "TCP Biderectional", "B/W",
                       "stack=lwip;stream=rx")
                       .value,
                   87);
}

TEST(LayoutMcu, DashCellsAreCountedNotWritten) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& d = doc004();
  for (const auto& r : d.directRows) EXPECT_NE(r.metric, "Latency") << "every Latency cell is '-'";
  // 100 Mbps at 256 B printed "- - -" on both boards.
  for (const auto& r : d.directRows) {
    if (r.table.find("256 B") != std::string::npos) {
      EXPECT_EQ(r.params.find("tx_bw_mbps=100"), std::string::npos) << r.table;
    }
  }
  // Dashes: UDP TX 3+3, RX evms 5+3+4, RX lp 5+3+3 = 29, one Diagnostic per table.
  int dashes = 0, tables = 0;
  for (const auto& x : d.diagnostics) {
    auto p = x.message.find(" cell(s) printed '-'");
    if (p == std::string::npos) continue;
    dashes += std::stoi(x.message.substr(0, p));
    ++tables;
    EXPECT_GT(x.line, 0);
  }
  EXPECT_EQ(dashes, 29);
  EXPECT_EQ(tables, 8);
}

TEST(LayoutMcu, FlagsZerosMismatchesAndSuspectValues) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& d = doc004();
  std::map<std::string, int> flags;
  for (const auto& r : d.directRows)
    if (r.flagged()) ++flags[r.flag];
  EXPECT_EQ(flags["zero-not-measured"], 3);  // IPC a530-0, a530-1; SBL SD Board_driversOpen
  EXPECT_EQ(flags["caption-mismatch:header-says-ECDSA"], 6);
  EXPECT_EQ(flags["max-below-avg"], 6);  // mcusdk max 52 < avg 52.226, ... (not atan2)
  EXPECT_EQ(flags.size(), 3u);
  auto z = one(d.directRows, "IPC NOTIFY", "IPC NOTIFY", "Average Message Latency",
               "local=r5f0-0;remote=a530-1");
  EXPECT_EQ(z.flag, "zero-not-measured");
  EXPECT_EQ(z.value, 0);
  EXPECT_EQ(countDiagnostics(d, "header names ECDSA"), 1);
  EXPECT_EQ(countDiagnostics(d, "board printed as 'am64x/243x emvs' recorded as am64x-evm"), 5);
  EXPECT_EQ(countDiagnostics(d, "boot stages sum"), 0) << "both SBL totals equal their row sums";
}

TEST(LayoutMcu, SincosCosHasOnlyErrMax) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& d = doc004();
  std::vector<MeasuredRow> sc;
  for (const auto& r : d.directRows)
    if (r.benchmark == "sincos cos") sc.push_back(r);
  ASSERT_EQ(sc.size(), 1u);
  EXPECT_EQ(sc[0].metric, "Err Max");
  EXPECT_DOUBLE_EQ(sc[0].value, 0.00000019);
  EXPECT_EQ(sc[0].line, 233);
  EXPECT_EQ(countDiagnostics(d, "'sincos cos' has 1 of 5 values"), 1);
}

TEST(LayoutMcu, SchemaIsComplete) {
  SOCSIM_REQUIRE_SEEDS();
  for (const auto& r : doc004().directRows) {
    EXPECT_EQ(r.source, "004_d708b8e6c9b42985");
    EXPECT_FALSE(r.section.empty());
    EXPECT_FALSE(r.table.empty());
    EXPECT_FALSE(r.board.empty());
    EXPECT_FALSE(r.benchmark.empty());
    EXPECT_FALSE(r.metric.empty());
    EXPECT_GT(r.line, 0);
    EXPECT_FALSE(r.min.has_value());
    if (r.metric != "Err Max") {
      EXPECT_FALSE(r.unit.empty()) << r.benchmark << " " << r.metric;
    }
    static const std::vector<std::string> units = {"ms", "cycles", "msg/s", "Mbit/s", "us",
                                                   "%",  "ops/s",  "MiB",   ""};
    EXPECT_NE(std::find(units.begin(), units.end(), r.unit), units.end()) << r.unit;
    // params: sorted keys, key=value
    auto kv = socsim::calib::parseParams(r.params);
    for (size_t i = 0; i < kv.size(); ++i) {
      EXPECT_FALSE(kv[i].second.empty()) << r.params;
      if (i) {
        EXPECT_LT(kv[i - 1].first, kv[i].first) << r.params;
      }
    }
  }
}

TEST(LayoutMcu, SocDetailsBecomeBoardDescription) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& d = doc004();
  ASSERT_EQ(d.boards.size(), 1u);
  EXPECT_EQ(d.boards[0].name, "AM64X-EVM");
  EXPECT_EQ(d.boards[0].line, 12);
  EXPECT_NE(d.boards[0].description.find("Core R5F"), std::string::npos);
  EXPECT_NE(d.boards[0].description.find("Core Operating Speed 800 MHz"), std::string::npos);
  EXPECT_NE(d.boards[0].description.find("Cache Status Enabled"), std::string::npos);
}

TEST(LayoutMcu, DeterministicAndThroughIngest) {
  SOCSIM_REQUIRE_SEEDS();
  auto again = parseMcu(readSeed(k004), "004_d708b8e6c9b42985");
  std::ostringstream a, b;
  socsim::calib::writeMeasuredCsv(a, doc004().directRows);
  socsim::calib::writeMeasuredCsv(b, again.directRows);
  EXPECT_EQ(a.str(), b.str());
  auto r = ingestFile(socsim::test::seedPath(k004));
  EXPECT_EQ(r.layout, Layout::Mcu);
  EXPECT_EQ(r.rows.size(), 236u);
  EXPECT_EQ(r.boards.size(), 1u);
}

TEST(LayoutMcu, MiniDocumentTraps) {
  auto d = parseMcu(kMini, "mini");
  // MCSPI: first row polled pair + a '-' DMA cell (2 values not measured); second row is ragged.
  auto rows = d.directRows;
  EXPECT_EQ(find(rows, "MCSPI performance", "Polled mode", "Throughput",
                 "spi_clock_mhz=50;transfer_bytes=400;word_width_bits=8;words=400")
                .size(),
            1u);
  int mcspi = 0, udp = 0;
  for (const auto& r : rows) (r.family == "mcspi" ? mcspi : udp) += 1;
  EXPECT_EQ(mcspi, 2);
  // UDP: 25 Mbps -> 2 rows; 100 Mbps all '-' -> none; Max -> Tx Side BW + 2 rows.
  EXPECT_EQ(udp, 5);
  for (const auto& r : rows)
    if (r.family == "ethernet") {
      EXPECT_EQ(r.board, "am243x-lp");
      EXPECT_EQ(r.benchmark, "UDP RX");
    }
  EXPECT_EQ(countDiagnostics(d, "row not understood"), 1);     // "200 16 32.49 Mbps / 98.48"
  EXPECT_EQ(countDiagnostics(d, "2 cell(s) printed '-'"), 1);  // MCSPI DMA pair
  EXPECT_EQ(countDiagnostics(d, "5 cell(s) printed '-'"), 1);  // UDP: 1 + 3 + 1
  for (const auto& x : d.diagnostics) EXPECT_EQ(x.file, "mini");
}

TEST(LayoutMcu, NeverThrowsOnJunk) {
  EXPECT_NO_THROW(parseMcu("", "e"));
  EXPECT_NO_THROW(parseMcu(std::string("\0\0\xff\xfe", 4), "e"));
  EXPECT_NO_THROW(
      parseMcu("Boot time breakdown Time (ms)\n- - -\nTCP direction B/W (Mb/s) CPU load(%)\nTCP X "
               "= = + RX = 5 =\n"
               "Tx Side BW/Packet Size CPU load(%) Packet loss(%) Latency\nMax( 1 2\nMax(\n"
               "ID Interval Transfer Bandwidth\n1 sec\n1 2-3 sec 4 MBytes 5\n"
               "Number of Words Word Width (Bits) Polled mode\n1 2 3 Mbps / 4\n",
               "e"));
  auto d = parseMcu("just some text\n1 2 3\n", "e");
  EXPECT_TRUE(d.directRows.empty());
  EXPECT_FALSE(d.diagnostics.empty());
  // Huge numbers do not overflow anything.
  auto big = parseMcu(
      "SHA\n\n    SHA Size Performance (Mbps)\n    512 1e308 KB 5\n    512 99999999999999999999999 "
      "KB 5\n"
      "    512 9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
      "99999999999999999999999999999999999999999999999999999999999999999999999999999999999999999"
      "999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999"
      "9999999999999999999999999999999999999999999999999999999999999999999999999999999999 B 5\n",
      "e");
  EXPECT_TRUE(big.directRows.empty());
}
