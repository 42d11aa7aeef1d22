// Layout parsers (text -> RawTable) against the five TI guides and malformed input.
// Expected figures come from ../shared/seeds/INVENTORY.md §3.2 (line of the first header
// cell, rows, values, blank/missing cells) and were checked against the raw text.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>

#include "calibration/ingest/layouts.h"
#include "tests/support/seeds.h"

using namespace socsim::ingest;

namespace {

const char* k000 = "000_c397333184f33b18.txt";
const char* k001 = "001_508a313bc146f3fb.txt";
const char* k002 = "002_eb73a69247cbc681.txt";
const char* k003 = "003_5c626eb3448d1a85.txt";
const char* k004 = "004_d708b8e6c9b42985.txt";

std::string readSeed(const std::string& name) {
  std::ifstream f(socsim::test::seedPath(name), std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string stem(const std::string& name) {
  return name.substr(0, name.rfind('.'));
}

ParsedDocument parseSeed(const std::string& name) {
  std::string text = readSeed(name);
  auto layout = detectLayout(text);
  if (!layout) return {};
  switch (*layout) {
    case Layout::Spaced:
      return parseSpaced(text, stem(name));
    case Layout::Pipe:
      return parsePipe(text, stem(name));
    case Layout::CellPerLine:
      return parseCellPerLine(text, stem(name));
    case Layout::Mcu:
      return {};
  }
  return {};
}

struct Counts {
  std::size_t rows = 0, values = 0, blanks = 0;
};
Counts countOf(const RawTable& t) {
  Counts c;
  c.rows = t.rows.size();
  for (const RawRow& r : t.rows)
    for (const auto& cell : r.cells) (cell ? c.values : c.blanks)++;
  return c;
}

const RawTable* tableAtLine(const ParsedDocument& d, int line) {
  for (const RawTable& t : d.tables)
    if (t.line == line) return &t;
  return nullptr;
}
const RawTable* tableWithCaption(const ParsedDocument& d, const std::string& caption, int nth = 0) {
  for (const RawTable& t : d.tables)
    if (t.caption == caption && nth-- == 0) return &t;
  return nullptr;
}

// Every row: cellLines parallel to cells, keys one per key label.
void expectWellFormed(const ParsedDocument& d) {
  for (const RawTable& t : d.tables) {
    EXPECT_EQ(t.source, d.source);
    EXPECT_GT(t.line, 0);
    EXPECT_FALSE(t.keyLabels.empty()) << "table at line " << t.line;
    EXPECT_FALSE(t.columnLabels.empty()) << "table at line " << t.line;
    EXPECT_FALSE(t.rows.empty()) << "table at line " << t.line;
    for (const RawRow& r : t.rows) {
      EXPECT_EQ(r.cells.size(), r.cellLines.size()) << "row at line " << r.line;
      EXPECT_EQ(r.keys.size(), t.keyLabels.size()) << "row at line " << r.line;
      EXPECT_GE(r.line, t.line);
    }
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Detection

TEST(DetectLayout, RecognisesTheFiveGuides) {
  SOCSIM_REQUIRE_SEEDS();
  EXPECT_EQ(detectLayout(readSeed(k000)), Layout::Spaced);
  EXPECT_EQ(detectLayout(readSeed(k001)), Layout::Pipe);
  EXPECT_EQ(detectLayout(readSeed(k002)), Layout::Pipe);
  EXPECT_EQ(detectLayout(readSeed(k003)), Layout::CellPerLine);
  EXPECT_EQ(detectLayout(readSeed(k004)), Layout::Mcu);
}

TEST(DetectLayout, SyntheticExamplesOfEachLayout) {
  EXPECT_EQ(detectLayout("Benchmarks am62xx-sk: perf\nlat_ops-int-add 0.80\n"), Layout::Spaced);
  EXPECT_EQ(detectLayout("Benchmarks |\nam62xx-sk: perf |\n|---|---|\nx |\n1.00 |\n"),
            Layout::Pipe);
  EXPECT_EQ(detectLayout("2.2. Linux 12.00 Performance Guide\n\nTable 3.4 Stream Benchmarks\n\n"
                         "Benchmarks\n\nam62xx-sk: perf\n\ncopy (mb/s)\n\n1234.50\n"),
            Layout::CellPerLine);
  EXPECT_EQ(detectLayout("AM62x MCU+ SDK  10.00.00\nDatasheet\n"), Layout::Mcu);
  EXPECT_EQ(detectLayout("Datasheet\n  \xE2\x80\xA2 Core Operating Speed : 400 MHz\n"),
            Layout::Mcu);
}

TEST(DetectLayout, NoneForOtherText) {
  EXPECT_FALSE(detectLayout(""));
  EXPECT_FALSE(detectLayout("\n\n\n"));
  EXPECT_FALSE(detectLayout("Just some prose.\nNote: nothing here is a table.\nLatency: 3 ns\n"));
  std::string junk;
  for (int i = 0; i < 100000; ++i) junk += static_cast<char>((i * 2654435761u) >> 24);
  EXPECT_FALSE(detectLayout(junk));
  EXPECT_STREQ(layoutName(Layout::CellPerLine), "cell-per-line");
}

// ---------------------------------------------------------------------------------------------
// Table counts per file (INVENTORY §0 / §4.1)

TEST(Layouts, TableCountsPerSeed) {
  SOCSIM_REQUIRE_SEEDS();
  struct Expect {
    const char* file;
    std::size_t tables, boards;
  };
  for (const Expect& e :
       {Expect{k000, 109, 13}, Expect{k001, 23, 1}, Expect{k002, 27, 1}, Expect{k003, 95, 6}}) {
    ParsedDocument d = parseSeed(e.file);
    EXPECT_EQ(d.source, stem(e.file));
    EXPECT_EQ(d.tables.size(), e.tables) << e.file;
    EXPECT_EQ(d.boards.size(), e.boards) << e.file;
    expectWellFormed(d);
  }
}

TEST(Layouts, ValueTotalsPerSeed) {
  SOCSIM_REQUIRE_SEEDS();
  // All non-blank value cells: INVENTORY's primary values (000 3797, 001 356, 002 411, 003 2765)
  // plus the ID/config cells it leaves out (GLBenchmark Test Number 30/12/10, 000 IVA MHz 11,
  // sensor name 4/-/4). Blanks are 000's NBSP cells (272).
  struct Expect {
    const char* file;
    std::size_t values, blanks;
  };
  for (const Expect& e : {Expect{k000, 3842, 272}, Expect{k001, 368, 0}, Expect{k002, 425, 0},
                          Expect{k003, 2765, 0}}) {
    ParsedDocument d = parseSeed(e.file);
    std::size_t values = 0, blanks = 0;
    for (const RawTable& t : d.tables) {
      Counts c = countOf(t);
      values += c.values;
      blanks += c.blanks;
    }
    EXPECT_EQ(values, e.values) << e.file;
    EXPECT_EQ(blanks, e.blanks) << e.file;
  }
}

// ---------------------------------------------------------------------------------------------
// 000 (spaced)

TEST(Spaced, LmbenchKernel112RowsFiveBoards) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  const RawTable* t = tableAtLine(d, 38);
  ASSERT_NE(t, nullptr);
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 112u);
  EXPECT_EQ(c.values, 560u);
  EXPECT_EQ(c.blanks, 0u);
  EXPECT_EQ(t->part, "kernel");
  EXPECT_EQ(t->caption, "LM Bench Metrics");
  EXPECT_EQ(t->sections,
            (std::vector<std::string>{"2.2. Performance Guide", "2.2.1. Kernel Performance Guide",
                                      "2.2.1.1. System Benchmarks", "2.2.1.1.1. LMBench"}));
  EXPECT_EQ(t->keyLabels, std::vector<std::string>{"Benchmarks"});
  EXPECT_EQ(t->columnLabels,
            (std::vector<std::string>{"am335x-evm: perf", "am57xx-evm: perf", "am654x-evm: perf",
                                      "k2g-evm: perf", "omapl138-lcdk: perf"}));
  EXPECT_FALSE(t->cellsMayBeDropped);
  // L42: bw_mem-bzero-8mb with (min, max) suffixes kept in the cell text.
  const RawRow& r = t->rows.at(3);
  EXPECT_EQ(r.line, 42);
  EXPECT_EQ(r.keys, std::vector<std::string>{"bw_mem-bzero-8mb"});
  ASSERT_EQ(r.cells.size(), 5u);
  EXPECT_EQ(r.cells[0], "606.75 (min 219.09, max 994.41)");
  EXPECT_EQ(r.cells[4], "147.53 (min 100.90, max 194.15)");
  EXPECT_EQ(r.cellLines, std::vector<int>(5, 42));
}

TEST(Spaced, DhrystoneNbspIsBlank) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  const RawTable* t = tableAtLine(d, 158);
  ASSERT_NE(t, nullptr);
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 3u);
  EXPECT_EQ(c.values, 14u);
  EXPECT_EQ(c.blanks, 1u);
  const RawRow& clock = t->rows.at(0);  // L159: cpu_clock 1000.00 1500.00 800.00 <NBSP> 230.00
  EXPECT_EQ(clock.keys[0], "cpu_clock");
  ASSERT_EQ(clock.cells.size(), 5u);
  EXPECT_FALSE(clock.cells[3].has_value());
  EXPECT_EQ(clock.cells[4], "230.00");
}

TEST(Spaced, HdmiDisplayWithManyBlanks) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  const RawTable* t = tableAtLine(d, 286);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->caption, "Display performance (HDMI)");
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 37u);
  EXPECT_EQ(c.values, 54u);
  EXPECT_EQ(c.blanks, 94u);
  for (const RawRow& r : t->rows) {
    ASSERT_EQ(r.cells.size(), 4u) << "row at line " << r.line;
    EXPECT_FALSE(r.cells[2].has_value()) << "am654x column is blank, line " << r.line;
  }
  // LCD table before it (4 rows, one value each), then the empty "(DVI)" caption: no table.
  const RawTable* lcd = tableAtLine(d, 273);
  ASSERT_NE(lcd, nullptr);
  EXPECT_EQ(countOf(*lcd).values, 4u);
  EXPECT_EQ(countOf(*lcd).blanks, 12u);
  EXPECT_EQ(tableWithCaption(d, "Display performance (DVI)"), nullptr);
}

TEST(Spaced, OpensslTwoKeyColumns) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  const RawTable* t = tableAtLine(d, 903);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->keyLabels, (std::vector<std::string>{"Algorithm", "Buffer Size"}));
  EXPECT_EQ(t->caption, "");
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 35u);
  EXPECT_EQ(c.values, 104u);
  EXPECT_EQ(c.blanks, 1u);
  EXPECT_EQ(t->rows[0].keys, (std::vector<std::string>{"sha1", "1024"}));
  EXPECT_EQ(t->rows[0].cells[2], "185589.76");
  // The RT part's copy: two boards, 69 values + 1 blank.
  const RawTable* rt = tableAtLine(d, 1877);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->part, "rt");
  EXPECT_EQ(rt->keyLabels.size(), 2u);
  EXPECT_EQ(countOf(*rt).rows, 35u);
  EXPECT_EQ(countOf(*rt).values, 69u);
}

TEST(Spaced, KeysWithSpacesAndTwoKeySensorTable) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  const RawTable* boot = tableAtLine(d, 212);
  ASSERT_NE(boot, nullptr);
  EXPECT_EQ(boot->caption, "Boot time MMC/SD");
  EXPECT_EQ(boot->keyLabels, std::vector<std::string>{"Boot Configuration"});
  ASSERT_EQ(boot->rows.size(), 2u);
  EXPECT_EQ(boot->rows[0].keys[0],
            "Kernel boot time test when init is /bin/sh and bootloader, kernel and sdk-rootfs are "
            "in mmc-sd");
  EXPECT_EQ(boot->rows[0].cells[0], "5.60 (min 5.57, max 5.62)");
  EXPECT_FALSE(boot->rows[0].cells[4].has_value());  // omapl138 /bin/sh blank
  EXPECT_EQ(countOf(*boot).values, 9u);

  const RawTable* sensor = tableAtLine(d, 262);
  ASSERT_NE(sensor, nullptr);
  EXPECT_EQ(sensor->keyLabels, (std::vector<std::string>{"Resolution", "Format"}));
  EXPECT_EQ(sensor->rows[0].keys, (std::vector<std::string>{"160x128", "rgb4"}));
  EXPECT_EQ(sensor->rows[0].cells,
            (std::vector<std::optional<std::string>>{"40.88 (min 40.79, max 41.00)", "mt9t111"}));

  const RawTable* glb = tableAtLine(d, 334);  // keys "GLB25_... test" stay one column
  ASSERT_NE(glb, nullptr);
  EXPECT_EQ(glb->keyLabels.size(), 1u);
  EXPECT_EQ(glb->rows[0].keys[0], "GLB25_EgyptTestC24Z24MS4 test");
}

TEST(Spaced, AudioUdpAndPowerTables) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  struct Expect {
    int line;
    std::size_t rows, values, blanks, cols;
  };
  for (const Expect& e : {Expect{228, 10, 100, 0, 10},    // audio capture
                          Expect{428, 7, 78, 27, 15},     // UDP egress
                          Expect{441, 7, 81, 24, 15},     // UDP ingress
                          Expect{463, 6, 7, 5, 2},        // PCIe-ETH
                          Expect{976, 21, 105, 0, 5},     // power, idle
                          Expect{1130, 21, 42, 0, 2},     // suspend/standby
                          Expect{1698, 8, 33, 15, 6}}) {  // RT UDP ingress
    const RawTable* t = tableAtLine(d, e.line);
    ASSERT_NE(t, nullptr) << "L" << e.line;
    Counts c = countOf(*t);
    EXPECT_EQ(c.rows, e.rows) << "L" << e.line;
    EXPECT_EQ(c.values, e.values) << "L" << e.line;
    EXPECT_EQ(c.blanks, e.blanks) << "L" << e.line;
    EXPECT_EQ(t->columnLabels.size(), e.cols) << "L" << e.line;
  }
  const RawTable* cap = tableAtLine(d, 228);
  EXPECT_EQ(cap->columnLabels[0], "am335x-evm: Throughput (bits/sec)");
  EXPECT_EQ(cap->keyLabels, std::vector<std::string>{"Sampling Rate (Hz)"});
}

TEST(Spaced, PartsCaptionsAndEmptySections) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  std::size_t kernel = 0, rt = 0;
  for (const RawTable& t : d.tables) (t.part == "kernel" ? kernel : rt)++;
  EXPECT_EQ(kernel, 75u);
  EXPECT_EQ(rt, 34u);
  // "Boot media: NAND" is captioned "Boot time MMC/SD" but has no data: still only the kernel
  // and RT MMC/SD tables carry that caption.
  ASSERT_NE(tableWithCaption(d, "Boot time MMC/SD", 0), nullptr);
  EXPECT_EQ(tableWithCaption(d, "Boot time MMC/SD", 0)->line, 212);
  ASSERT_NE(tableWithCaption(d, "Boot time MMC/SD", 1), nullptr);
  EXPECT_EQ(tableWithCaption(d, "Boot time MMC/SD", 1)->line, 1500);
  EXPECT_EQ(tableWithCaption(d, "Boot time MMC/SD", 2), nullptr);
  // RT LMBench: one board, 112 rows.
  const RawTable* t = tableAtLine(d, 1300);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->part, "rt");
  EXPECT_EQ(t->sections.at(1), "2.2.2. RT Kernel Performance Guide");
  EXPECT_EQ(countOf(*t).rows, 112u);
  EXPECT_EQ(countOf(*t).values, 112u);
  EXPECT_TRUE(d.diagnostics.empty()) << d.diagnostics.front().message;
}

TEST(Spaced, BoardDescriptionsKernelAndRt) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k000);
  ASSERT_EQ(d.boards.size(), 13u);
  EXPECT_EQ(d.boards[0].name, "AM335x");
  EXPECT_EQ(d.boards[0].part, "kernel");
  EXPECT_EQ(d.boards[0].line, 10);
  EXPECT_EQ(d.boards[0].description,
            "AM335x Evaluation Module rev 1.5B with ARM running at 1000MHz, DDR3-400 (400MHz/800 "
            "MT/S), TMDXEVM3358");
  EXPECT_EQ(d.boards[2].name, "AM572x EVM");
  EXPECT_EQ(d.boards[3].name, "K2HK EVM");
  EXPECT_EQ(d.boards[3].description.rfind("K2 Hawkings Evaluation Module", 0), 0u);
  EXPECT_EQ(d.boards[4].description,
            "K2 Galileo Evaluation Module rev C, DDR3-1333 (666 MHz/1333 MT/S), EVMK2G");
  EXPECT_EQ(d.boards[6].part, "rt");
  EXPECT_EQ(d.boards[6].line, 1271);
  EXPECT_EQ(d.boards[9].name, "AM574x IDK");
  EXPECT_EQ(d.boards[9].description.rfind("AM57xx Industrial Development Kit rev 1.0A", 0), 0u);
  for (const BoardDescription& b : d.boards) EXPECT_EQ(b.source, d.source);
}

// ---------------------------------------------------------------------------------------------
// 001 / 002 (pipe)

TEST(Pipe, AudioTablesBackToBack) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k001);
  const RawTable* capture = tableAtLine(d, 336);
  const RawTable* playback = tableAtLine(d, 370);
  ASSERT_NE(capture, nullptr);
  ASSERT_NE(playback, nullptr);
  for (const RawTable* t : {capture, playback}) {
    EXPECT_EQ(t->caption, "");  // 001 has no captions
    EXPECT_EQ(t->keyLabels, std::vector<std::string>{"Sampling Rate (Hz)"});
    EXPECT_EQ(t->columnLabels, (std::vector<std::string>{"am335x-evm: Throughput (bits/sec)",
                                                         "am335x-evm: CPU Load (%)"}));
    Counts c = countOf(*t);
    EXPECT_EQ(c.rows, 10u);
    EXPECT_EQ(c.values, 20u);
    EXPECT_EQ(t->rows.front().keys[0], "8000");
    EXPECT_EQ(t->rows.back().keys[0], "96000");
    EXPECT_EQ(t->sections.back(), "2.2.3. ALSA SoC Audio Driver");
  }
  // The capture table's last row is 96000 (L367-L369); the next header starts at L370.
  EXPECT_EQ(capture->rows.back().line, 367);
  EXPECT_EQ(capture->rows.back().cellLines, (std::vector<int>{368, 369}));
  EXPECT_EQ(capture->rows.back().cells[0], "3071956.00");
  EXPECT_EQ(playback->rows.front().line, 374);
}

TEST(Pipe, LmbenchOpensslAndUsbIn001) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k001);
  const RawTable* lm = tableAtLine(d, 22);
  ASSERT_NE(lm, nullptr);
  EXPECT_EQ(countOf(*lm).rows, 115u);
  EXPECT_EQ(countOf(*lm).values, 115u);
  EXPECT_EQ(lm->rows[0].keys[0], "af_unix_sock_stream_latency (microsec)");  // unit kept in key
  EXPECT_EQ(lm->rows[0].cells[0], "48.86");
  EXPECT_EQ(lm->rows[0].cellLines[0], 26);
  EXPECT_EQ(lm->part, "");

  const RawTable* ssl = tableAtLine(d, 585);
  ASSERT_NE(ssl, nullptr);
  EXPECT_EQ(ssl->keyLabels, (std::vector<std::string>{"Algorithm", "Buffer Size (in bytes)"}));
  EXPECT_EQ(countOf(*ssl).rows, 72u);
  EXPECT_EQ(countOf(*ssl).values, 72u);
  EXPECT_EQ(ssl->rows[0].keys, (std::vector<std::string>{"aes-128-cbc", "1024"}));
  EXPECT_EQ(ssl->rows[0].line, 589);

  for (int line : {573, 578}) {
    const RawTable* usb = tableAtLine(d, line);
    ASSERT_NE(usb, nullptr) << line;
    EXPECT_EQ(countOf(*usb).rows, 1u);
    EXPECT_EQ(countOf(*usb).values, 1u);
  }
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(Pipe, CaptionsAndHexKeysIn002) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k002);
  const RawTable* lm = tableAtLine(d, 19);
  ASSERT_NE(lm, nullptr);
  EXPECT_EQ(lm->caption, "LM Bench Metrics");
  EXPECT_EQ(countOf(*lm).rows, 112u);
  EXPECT_EQ(lm->sections.back(), "2.2.1.1. LMBench");  // pilcrow stripped
  EXPECT_EQ(lm->sections.front(), "2.2. Linux Performance Guide");

  const RawTable* uboot = tableAtLine(d, 682);
  ASSERT_NE(uboot, nullptr);
  EXPECT_EQ(uboot->keyLabels, std::vector<std::string>{"File size (bytes in hex)"});
  EXPECT_EQ(countOf(*uboot).rows, 3u);
  EXPECT_EQ(countOf(*uboot).values, 6u);
  EXPECT_EQ(uboot->rows[2].keys[0], "1000000");

  const RawTable* ssl = tableAtLine(d, 713);
  ASSERT_NE(ssl, nullptr);
  EXPECT_EQ(countOf(*ssl).rows, 66u);
  EXPECT_EQ(tableWithCaption(d, "USBDEVICE HIGHSPEED SLAVE WRITE THROUGHPUT")->line, 705);
  EXPECT_TRUE(d.diagnostics.empty());
}

TEST(Pipe, BoardDescriptions) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d1 = parseSeed(k001);
  ASSERT_EQ(d1.boards.size(), 1u);
  EXPECT_EQ(d1.boards[0].name, "AM335x EVM");
  EXPECT_EQ(d1.boards[0].line, 7);
  EXPECT_EQ(d1.boards[0].description.rfind("AM335x Evaluation Module rev 1.5B", 0), 0u);
  ParsedDocument d2 = parseSeed(k002);
  ASSERT_EQ(d2.boards.size(), 1u);
  EXPECT_EQ(d2.boards[0].name, "AM572x EVM");
  EXPECT_EQ(d2.boards[0].description,
            "AM57xx Evaluation Module rev A2 with ARM running at 1500MHz, DDR3L-533 (533 MHz/1066 "
            "MT/S), TMDSEVM572x");
}

// ---------------------------------------------------------------------------------------------
// 003 (cell per line)

TEST(CellPerLine, LmbenchTable21) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k003);
  const RawTable* t = tableWithCaption(d, "LMBench Benchmarks");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->line, 61);
  EXPECT_TRUE(t->cellsMayBeDropped);
  EXPECT_EQ(t->columnLabels.size(), 6u);
  EXPECT_EQ(t->columnLabels[3], "j722s_evm-fs: perf");
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 115u);
  EXPECT_EQ(c.values, 690u);
  EXPECT_EQ(t->rows[0].line, 75);
  EXPECT_EQ(t->rows[0].cellLines, (std::vector<int>{77, 79, 81, 83, 85, 87}));
  EXPECT_EQ(t->rows[0].cells[0], "19.98 (min 19.51, max 20.42)");
  EXPECT_EQ(t->sections,
            (std::vector<std::string>{"2.2. Linux 11.02 Performance Guide",
                                      "2.2.1. System Benchmarks", "2.2.1.1. LMBench"}));
}

TEST(CellPerLine, UdpTable219DroppedCells) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k003);
  const RawTable* t = tableWithCaption(d, "CPSW2g UDP Egress Throughput 0 loss");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->keyLabels, std::vector<std::string>{"Frame Size(bytes)"});
  EXPECT_EQ(t->columnLabels.size(), 16u);
  EXPECT_EQ(t->columnLabels[0], "j721e-idk-gw: UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)");
  EXPECT_TRUE(t->cellsMayBeDropped);
  ASSERT_EQ(t->rows.size(), 5u);
  for (const RawRow& r : t->rows) EXPECT_EQ(r.cells.size(), 12u) << "row " << r.keys[0];
  EXPECT_EQ(t->rows[0].keys[0], "64");
  EXPECT_EQ(t->rows[0].cells[0], "60.09 (min 0.00, max 93.69)");
  EXPECT_EQ(t->rows[4].keys[0], "1518");
  EXPECT_EQ(countOf(*t).values, 60u);
  // Tables 2.20 / 2.21: 9 of 12 and 12 of 15 per row.
  const RawTable* in0 = tableWithCaption(d, "CPSW2g UDP Ingress Throughput 0 loss");
  ASSERT_NE(in0, nullptr);
  EXPECT_EQ(countOf(*in0).values, 45u);
  const RawTable* inLoss = tableWithCaption(d, "CPSW2g UDP Ingress Throughput possible loss");
  ASSERT_NE(inLoss, nullptr);
  EXPECT_EQ(inLoss->columnLabels.size(), 15u);
  EXPECT_EQ(countOf(*inLoss).values, 60u);
}

TEST(CellPerLine, OpensslTwoKeyRowsAndShortRows) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k003);
  const RawTable* t = tableWithCaption(d, "OpenSSL Performance");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->keyLabels, (std::vector<std::string>{"Algorithm", "Buffer Size (in bytes)"}));
  Counts c = countOf(*t);
  EXPECT_EQ(c.rows, 60u);
  EXPECT_EQ(c.values, 348u);
  EXPECT_EQ(t->rows[0].keys, (std::vector<std::string>{"aes-128-cbc", "1024"}));
  EXPECT_EQ(t->rows[0].cells.size(), 6u);
  std::size_t five = 0;
  for (const RawRow& r : t->rows) {
    if (r.keys[0] == "des3" || r.keys[0] == "sha1") {
      EXPECT_EQ(r.cells.size(), 5u) << r.keys[0] << " " << r.keys[1];
      ++five;
    } else {
      EXPECT_EQ(r.cells.size(), 6u) << r.keys[0] << " " << r.keys[1];
    }
  }
  EXPECT_EQ(five, 12u);
  const RawTable* load = tableWithCaption(d, "OpenSSL CPU Load");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(countOf(*load).rows, 10u);
  EXPECT_EQ(countOf(*load).values, 58u);
}

TEST(CellPerLine, OtherTables) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k003);
  const RawTable* glmark = tableWithCaption(d, "Glmark2 Performance");
  ASSERT_NE(glmark, nullptr);
  EXPECT_EQ(countOf(*glmark).rows, 3u);
  EXPECT_EQ(countOf(*glmark).values, 13u);
  EXPECT_EQ(glmark->rows[2].keys[0], "Glmark2-Wayland 4000x4000");
  EXPECT_EQ(glmark->rows[2].cells.size(), 3u);

  const RawTable* tcp = tableWithCaption(d, "CPSW2g TCP Bidirectional Throughput");
  ASSERT_NE(tcp, nullptr);
  EXPECT_EQ(tcp->keyLabels, std::vector<std::string>{"Command Used"});
  ASSERT_EQ(tcp->rows.size(), 1u);
  EXPECT_EQ(tcp->rows[0].keys[0].rfind("netperf -H 192.168.0.1", 0), 0u);
  EXPECT_EQ(tcp->rows[0].cells.size(), 12u);

  const RawTable* uboot = tableWithCaption(d, "UBOOT MMCSD FAT");  // first of six
  ASSERT_NE(uboot, nullptr);
  EXPECT_EQ(countOf(*uboot).rows, 3u);
  EXPECT_EQ(uboot->rows[0].keys[0], "400000");
  EXPECT_EQ(uboot->columnLabels[0], "j7200-evm: Write Throughput (Kbytes/sec)");

  const RawTable* eight = tableWithCaption(d, "CoreMarkProEightCore Benchmarks");
  ASSERT_NE(eight, nullptr);
  EXPECT_EQ(countOf(*eight).values, 10u);
  EXPECT_EQ(eight->columnLabels, std::vector<std::string>{"j784s4-evm: perf"});

  const RawTable* fio = tableWithCaption(d, "EMMC RAW FIO 1G", 5);
  ASSERT_NE(fio, nullptr);
  EXPECT_EQ(fio->rows[2].keys[0], "4k");
  EXPECT_EQ(fio->rows[2].cells.size(), 4u);

  // Only the short-row notes (Glmark2, 3 UDP tables, 2 OpenSSL tables).
  EXPECT_EQ(d.diagnostics.size(), 6u);
}

TEST(CellPerLine, BoardDescriptions) {
  SOCSIM_REQUIRE_SEEDS();
  ParsedDocument d = parseSeed(k003);
  ASSERT_EQ(d.boards.size(), 6u);
  EXPECT_EQ(d.boards[0].name, "J721e EVM");
  EXPECT_EQ(d.boards[0].line, 11);
  EXPECT_EQ(d.boards[0].description,
            "J721e Evaluation Module rev E2 with ARM running at 2GHz, DDR data rate 4266 MT/S, L3 "
            "Cache size 3MB");
  EXPECT_EQ(d.boards[5].name, "J722S EVM");
  EXPECT_EQ(d.boards[5].description.find("L3"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Ragged and malformed input: never crash, hang or throw; oddities become diagnostics.

TEST(Malformed, SpacedRaggedRowKeptAndNoted) {
  std::string text =
      "2.2. Guide\n\nBenchmarks am62xx-sk: perf am64xx-evm: perf\nlat_a 1.00 2.00\nlat_b 3.00\n"
      "\nTable: Thing\n";
  ParsedDocument d = parseSpaced(text, "syn");
  ASSERT_EQ(d.tables.size(), 1u);
  EXPECT_EQ(d.tables[0].caption, "Thing");
  ASSERT_EQ(d.tables[0].rows.size(), 2u);
  EXPECT_EQ(d.tables[0].rows[1].keys[0], "lat_b");
  EXPECT_EQ(d.tables[0].rows[1].cells.size(), 1u);
  ASSERT_EQ(d.diagnostics.size(), 1u);
  EXPECT_EQ(d.diagnostics[0].line, 5);
  EXPECT_EQ(d.diagnostics[0].file, "syn");
}

TEST(Malformed, PipeRaggedAndOrphanSeparator) {
  std::string text = "|---|---|\nBenchmarks |\nam62xx-sk: perf |\n|---|---|\nx |\n1.00 |\ny |\n";
  ParsedDocument d = parsePipe(text, "syn");
  ASSERT_EQ(d.tables.size(), 1u);
  ASSERT_EQ(d.tables[0].rows.size(), 2u);
  EXPECT_TRUE(d.tables[0].rows[1].cells.empty());
  EXPECT_EQ(d.diagnostics.size(), 2u);  // orphan separator, ragged data
}

TEST(Malformed, CellOrphanValuesAndTruncation) {
  std::string text =
      "Table 2.1 Thing\n\nBenchmarks\n\nam62xx-sk: perf\n\nam64xx-evm: perf\n\n1.00\n\n"
      "lat_a\n\n1.00\n\n2.00\n\n3.00\n\nlat_b\n";
  ParsedDocument d = parseCellPerLine(text, "syn");
  ASSERT_EQ(d.tables.size(), 1u);
  ASSERT_EQ(d.tables[0].rows.size(), 1u);
  EXPECT_EQ(d.tables[0].rows[0].cells.size(), 3u);  // more cells than columns: kept
  EXPECT_GE(d.diagnostics.size(), 3u);              // orphan value, ragged row, truncated
}

namespace {

using Parser = std::function<ParsedDocument(const std::string&, const std::string&)>;
const std::vector<std::pair<const char*, Parser>>& parsers() {
  static const std::vector<std::pair<const char*, Parser>> p = {
      {"spaced", parseSpaced}, {"pipe", parsePipe}, {"cell", parseCellPerLine}};
  return p;
}

double secondsFor(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST(Malformed, EmptyAndJunkInputs) {
  std::string junk;
  std::uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1664525u + 1013904223u;
    junk += static_cast<char>(x >> 24);
  }
  std::vector<std::string> inputs = {"",
                                     "\n",
                                     "\r\n\r\n",
                                     std::string(1000, '\0'),
                                     junk,
                                     "|",
                                     "|---|",
                                     " |\n|---|---|\n",
                                     "Table 2.1\n",
                                     "Name Description\n",
                                     "Name\n\nDescription\n",
                                     "2.2. \n2.2.1.\n1.1.1.1.1.1.1.1.1.1.1.1.1. x\n",
                                     "a: b c-1: d\n\xC2\xA0 \xC2\xA0\n",
                                     "x am62-sk: (min\n1 (min 2, max\n"};
  for (const auto& [name, parse] : parsers())
    for (const std::string& in : inputs) {
      ParsedDocument d;
      EXPECT_NO_THROW(d = parse(in, "junk")) << name;
      EXPECT_EQ(d.source, "junk");
    }
}

TEST(Malformed, TruncatedSeedsAndWrongLayout) {
  SOCSIM_REQUIRE_SEEDS();
  for (const char* f : {k000, k001, k002, k003, k004}) {
    std::string text = readSeed(f);
    for (const auto& [name, parse] : parsers()) {
      // Every parser on every seed (wrong layouts included), and cut at 50 points, many of
      // them mid-table and mid-line.
      EXPECT_NO_THROW(parse(text, "x")) << name << " " << f;
      for (int k = 1; k < 50; ++k) {
        std::size_t cut = text.size() * static_cast<std::size_t>(k) / 50 + 7 * k;
        if (cut > text.size()) cut = text.size();
        EXPECT_NO_THROW(parse(text.substr(0, cut), "x")) << name << " " << f << " @" << cut;
      }
    }
  }
  // A table cut in the middle of its rows keeps the rows before the cut.
  std::string t000 = readSeed(k000);
  std::size_t cut = t000.find("lat_ops-int-add 1.01");
  ASSERT_NE(cut, std::string::npos);
  ParsedDocument d = parseSpaced(t000.substr(0, cut + 10), "x");
  ASSERT_EQ(d.tables.size(), 1u);
  EXPECT_GT(d.tables[0].rows.size(), 10u);
}

TEST(Malformed, TenMegabyteLinesAreLinear) {
  const std::size_t big = 10u << 20;
  std::vector<std::string> inputs;
  inputs.push_back(std::string(big, 'a'));
  {
    std::string s = "Benchmarks am62xx-sk: perf\nk ";
    while (s.size() < big) s += "1.00 (min 0.50, max 2.00) ";
    inputs.push_back(s + "\n");
  }
  {
    std::string s = "Benchmarks am62xx-sk: perf ";
    while (s.size() < big) s += "am62xx-sk: x ";
    inputs.push_back(s + "\nrow 1.00\n");
  }
  {
    std::string s = "x";
    while (s.size() < big) s += " |";
    inputs.push_back(s + "\n|---|---|\n" + s + "\n");
  }
  inputs.push_back("Table 2.1 " + std::string(big, '.') + "\n\nk\n\nam62-sk: p\n\n" +
                   std::string(big, '7') + ".5\n");
  inputs.push_back(std::string(big / 2, ' ') + std::string(big / 2, '\xA0'));
  for (const std::string& in : inputs) {
    EXPECT_LT(secondsFor([&] { (void)detectLayout(in); }), 5.0);
    for (const auto& [name, parse] : parsers())
      EXPECT_LT(secondsFor([&] { EXPECT_NO_THROW(parse(in, "big")); }), 5.0) << name;
  }
}

TEST(Performance, SeedParseTimes) {
  SOCSIM_REQUIRE_SEEDS();
  for (const char* f : {k000, k001, k002, k003}) {
    std::string text = readSeed(f);
    ParsedDocument d;
    const int reps = 20;
    double s = secondsFor([&] {
      for (int i = 0; i < reps; ++i) d = parseSeed(f);
    });
    double ms = 1000.0 * s / reps;  // includes reading the file and detectLayout
    std::cout << "[ parse    ] " << f << ": " << d.tables.size() << " tables in " << ms
              << " ms (read + detect + parse)\n";
    RecordProperty(stem(f), std::to_string(ms));
    EXPECT_LT(ms, 1000.0) << f;
  }
}
