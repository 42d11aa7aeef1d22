// Whole-pipeline tests on the five TI guides in ../shared/seeds: the committed measured
// dataset is exactly what `socsim ingest` makes of them, every table yields the number of
// values INVENTORY.md counts, hand-picked values match the raw text, known-bad values are
// flagged. Skipped when the seeds are absent (a user's clone).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "calibration/dataset/measured_row.h"
#include "calibration/ingest/families.h"
#include "calibration/ingest/ingest.h"
#include "calibration/ingest/units_norm.h"
#include "common/csv.h"
#include "tests/support/seeds.h"

using namespace socsim;
using namespace socsim::ingest;
using calib::MeasuredRow;

namespace {

const std::map<std::string, std::string>& stems() {
  static const std::map<std::string, std::string> s = {{"000", "000_c397333184f33b18"},
                                                       {"001", "001_508a313bc146f3fb"},
                                                       {"002", "002_eb73a69247cbc681"},
                                                       {"003", "003_5c626eb3448d1a85"},
                                                       {"004", "004_d708b8e6c9b42985"}};
  return s;
}

// All five guides ingested together, as `socsim ingest seeds/00*.txt` does.
const std::vector<IngestOutcome>& outcomes() {
  static const std::vector<IngestOutcome> o = [] {
    std::vector<std::string> paths;
    for (const auto& [id, stem] : stems()) paths.push_back(test::seedPath(stem + ".txt"));
    return ingestFiles(paths);
  }();
  return o;
}

const std::vector<MeasuredRow>& allRows() {
  static const std::vector<MeasuredRow> rows = [] {
    std::vector<MeasuredRow> all;
    for (const auto& o : outcomes())
      if (o.result) all.insert(all.end(), o.result->rows.begin(), o.result->rows.end());
    return all;
  }();
  return rows;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool hasFlag(const MeasuredRow& r, const std::string& part) {
  return r.flag.find(part) != std::string::npos;
}

}  // namespace

TEST(IngestSeeds, AllFiveDocumentsIngest) {
  SOCSIM_REQUIRE_SEEDS();
  for (const auto& o : outcomes()) EXPECT_TRUE(o.result) << o.error;
}

// The committed CSVs are generated files: re-ingesting the seeds gives them byte for byte.
// Regenerate with `build/bin/socsim ingest ../shared/seeds/00*.txt`.
TEST(IngestSeeds, CommittedDatasetIsByteIdentical) {
  SOCSIM_REQUIRE_SEEDS();
  namespace fs = std::filesystem;
  fs::path tmp = fs::temp_directory_path() / ("socsim_ingest_seeds_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  for (const auto& o : outcomes()) {
    ASSERT_TRUE(o.result) << o.error;
    writeIngestResult(*o.result, tmp.string());
  }
  fs::path committed = fs::path(SOCSIM_TEST_SOURCE_DIR) / "calibration" / "measured";
  std::set<std::string> made, have;
  for (const auto& e : fs::directory_iterator(tmp)) made.insert(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(committed))
    if (e.path().extension() == ".csv") have.insert(e.path().filename().string());
  EXPECT_EQ(made, have);
  for (const auto& name : made) {
    std::string a = readFile(tmp / name), b = readFile(committed / name);
    EXPECT_EQ(a.size(), b.size()) << name;
    EXPECT_TRUE(a == b) << name
                        << " differs from the committed file: regenerate calibration/measured";
  }
  fs::remove_all(tmp);
}

// Values per (source, section, table). 000-003: equal to INVENTORY.md 3.2's "values" column
// summed over the tables that share a section and caption (003 repeats captions per board:
// "OSPI Flash Driver" x5). 004: INVENTORY 3.3, except the RNDIS table: the inventory counts
// 10 intervals x 2 = 20 but the document also prints iperf's 0.0-10.0 s summary line (L357),
// which is a published number too: 22.
TEST(IngestSeeds, RowCountPerTable) {
  SOCSIM_REQUIRE_SEEDS();
  struct Expect {
    const char* src;
    const char* section;
    const char* table;
    int values;
  };
  static const Expect expected[] = {
      {"000", "2.2.1.1.1. LMBench", "LM Bench Metrics", 560},
      {"000", "2.2.1.1.2. Dhrystone", "Dhrystone Benchmark", 14},
      {"000", "2.2.1.1.3. Whetstone", "Whetstone Benchmark", 5},
      {"000", "2.2.1.1.4. Linpack", "Linpack Benchmark", 5},
      {"000", "2.2.1.1.5. NBench", "NBench Benchmarks", 45},
      {"000", "2.2.1.1.6. Stream", "Stream", 16},
      {"000", "2.2.1.2.1. Boot media: MMCSD", "Boot time MMC/SD", 9},
      {"000", "2.2.1.3. ALSA SoC Audio Driver", "Audio Capture", 100},
      {"000", "2.2.1.3. ALSA SoC Audio Driver", "Audio Playback", 100},
      {"000", "2.2.1.4. Sensor Capture", "Sensor Capture", 4},
      {"000", "2.2.1.5. Display Driver", "Display performance (LCD)", 4},
      {"000", "2.2.1.5. Display Driver", "Display performance (HDMI)", 54},
      {"000", "2.2.1.6.1. Performance (Fps)", "GLBenchmark 2.5 Performance", 12},
      {"000", "2.2.1.6.2. Vertex Throughput", "GLBenchmark 2.5 Vertex Throughput", 6},
      {"000", "2.2.1.6.3. Pixel Throughput", "GLBenchmark 2.5 Pixel Throughput", 4},
      {"000", "2.2.1.7.1. H264", "Gstreamer H264 in AVI Container Decode Performance", 6},
      {"000", "2.2.1.7.2. MPEG4", "GStreamer MPEG4 in 3GP Container Decode Performance", 2},
      {"000", "2.2.1.7.3. MPEG2", "GStreamer MPEG2 in MP4 Container Decode Performance", 1},
      {"000", "2.2.1.8.1. TCP Throughput", "TCP Throughput", 30},
      {"000", "2.2.1.8.1. TCP Throughput", "TCP Throughput Interrupt Pacing", 18},
      {"000", "2.2.1.8.2. UDP Throughput", "UDP Throughput Egress", 78},
      {"000", "2.2.1.8.2. UDP Throughput", "UDP Throughput Ingress", 81},
      {"000", "2.2.1.9.1. PCIe-ETH", "PCI Ethernet", 7},
      {"000", "2.2.1.10.1. AM335X-EVM", "L477", 20},
      {"000", "2.2.1.10.2. OMAPL138-LCDK", "L486", 20},
      {"000", "2.2.1.11.1.1. UBIFS", "L498", 16},
      {"000", "2.2.1.11.1.2. RAW", "L504", 1},
      {"000", "2.2.1.11.2. K2G-EVM", "L509", 16},
      {"000", "2.2.1.12.1. K2G-EVM", "L519", 16},
      {"000", "2.2.1.12.2. AM654X-EVM", "L527", 16},
      {"000", "2.2.1.13.1. AM57XX-EVM", "L542", 20},
      {"000", "2.2.1.13.1. AM57XX-EVM", "L549", 20},
      {"000", "2.2.1.13.1. AM57XX-EVM", "L556", 20},
      {"000", "2.2.1.13.2. AM654x-EVM", "L565", 20},
      {"000", "2.2.1.13.2. AM654x-EVM", "L572", 20},
      {"000", "2.2.1.13.2. AM654x-EVM", "L579", 20},
      {"000", "2.2.1.13.3. K2G-EVM", "L588", 20},
      {"000", "2.2.1.13.3. K2G-EVM", "L595", 20},
      {"000", "2.2.1.13.3. K2G-EVM", "L602", 20},
      {"000", "2.2.1.14. SATA Driver", "L614", 20},
      {"000", "2.2.1.14. SATA Driver", "L621", 20},
      {"000", "2.2.1.14.1. mSATA Driver", "L639", 20},
      {"000", "2.2.1.14.1. mSATA Driver", "L646", 20},
      {"000", "2.2.1.15.1. AM335x-EVM", "L667", 20},
      {"000", "2.2.1.15.1. AM335x-EVM", "L674", 20},
      {"000", "2.2.1.15.1. AM335x-EVM", "L681", 20},
      {"000", "2.2.1.15.2. AM57XX-EVM", "L702", 20},
      {"000", "2.2.1.15.2. AM57XX-EVM", "L709", 20},
      {"000", "2.2.1.15.2. AM57XX-EVM", "L716", 20},
      {"000", "2.2.1.15.3. AM654x-EVM", "L743", 20},
      {"000", "2.2.1.15.3. AM654x-EVM", "L750", 20},
      {"000", "2.2.1.15.3. AM654x-EVM", "L757", 20},
      {"000", "2.2.1.15.4. K2G-EVM", "L796", 20},
      {"000", "2.2.1.15.4. K2G-EVM", "L803", 20},
      {"000", "2.2.1.15.4. K2G-EVM", "L810", 20},
      {"000", "2.2.1.15.5. OMAPL138-LCDK", "L825", 20},
      {"000", "2.2.1.15.5. OMAPL138-LCDK", "L832", 20},
      {"000", "2.2.1.15.5. OMAPL138-LCDK", "L839", 20},
      {"000", "2.2.1.20.1. MUSB/XHCI Host controller", "USB Host VFAT", 24},
      {"000", "2.2.1.20.1. MUSB/XHCI Host controller", "USB Host EXT2", 36},
      {"000", "2.2.1.21.1. OpenSSL Performance", "L903", 104},
      {"000", "2.2.1.21.1. OpenSSL Performance", "L941", 21},
      {"000", "2.2.1.21.2. IPSec Performance", "L958", 30},
      {"000", "2.2.1.23.1. AM335x-EVM", "Active Power Consumption at various OPPs with idle system",
       105},
      {"000", "2.2.1.23.1. AM335x-EVM", "Active Power Consumption at various OPPs with 3D Graphics",
       105},
      {"000", "2.2.1.23.1. AM335x-EVM", "Active Power Consumption at various OPPs with video+audio",
       105},
      {"000", "2.2.1.23.1. AM335x-EVM",
       "Active Power Consumption at various OPPs with network load", 105},
      {"000", "2.2.1.23.1. AM335x-EVM", "Active Power Consumption at various OPPs with Dhrystone",
       105},
      {"000", "2.2.1.23.1. AM335x-EVM",
       "Active Power Consumption at various OPPs with Memory Tester", 105},
      {"000", "2.2.1.23.1. AM335x-EVM", "L1130", 42},
      {"000", "2.2.1.23.1. AM335x-EVM", "L1157", 5},
      {"000", "2.2.1.23.1. AM335x-EVM", "Power Consumption with ondemand governor", 126},
      {"000", "2.2.1.23.1. AM335x-EVM", "Power Consumption with performance governor", 126},
      {"000", "2.2.1.23.1. AM335x-EVM", "Power Consumption with powersave governor", 126},
      {"000", "2.2.1.23.1. AM335x-EVM", "Power Consumption with conservative governor", 126},
      {"000", "2.2.2.1.1. LMBench", "LM Bench Metrics", 112},
      {"000", "2.2.2.1.2. Dhrystone", "Dhrystone Benchmark", 3},
      {"000", "2.2.2.1.3. Whetstone", "Whetstone Benchmark", 1},
      {"000", "2.2.2.1.4. Linpack", "Linpack Benchmark", 1},
      {"000", "2.2.2.1.5. NBench", "NBench Benchmarks", 9},
      {"000", "2.2.2.1.6. Stream", "Stream", 4},
      {"000", "2.2.2.2.1. Shield (dedicated core) Case", "L1486", 8},
      {"000", "2.2.2.3.1. Boot media: MMCSD", "Boot time MMC/SD", 4},
      {"000", "2.2.2.4. ALSA SoC Audio Driver", "Audio Playback", 20},
      {"000", "2.2.2.6. Display Driver", "Display performance (LCD)", 1},
      {"000", "2.2.2.6. Display Driver", "Display performance (HDMI)", 37},
      {"000", "2.2.2.7.1. Performance (Fps)", "GLBenchmark 2.5 Performance", 6},
      {"000", "2.2.2.7.2. Vertex Throughput", "GLBenchmark 2.5 Vertex Throughput", 3},
      {"000", "2.2.2.7.3. Pixel Throughput", "GLBenchmark 2.5 Pixel Throughput", 2},
      {"000", "2.2.2.8.1. H264", "Gstreamer H264 in AVI Container Decode Performance", 3},
      {"000", "2.2.2.8.2. MPEG4", "GStreamer MPEG4 in 3GP Container Decode Performance", 2},
      {"000", "2.2.2.8.3. MPEG2", "GStreamer MPEG2 in MP4 Container Decode Performance", 1},
      {"000", "2.2.2.9.1. TCP Throughput", "TCP Throughput No Interrupt Pacing", 24},
      {"000", "2.2.2.9.1. TCP Throughput", "TCP Throughput Interrupt Pacing", 12},
      {"000", "2.2.2.9.2. UDP Throughput", "UDP Throughput Egress", 30},
      {"000", "2.2.2.9.2. UDP Throughput", "UDP Throughput Ingress", 33},
      {"000", "2.2.2.10.1. PCIe-ETH", "PCI Ethernet", 1},
      {"000", "2.2.2.12.1. AM574x-IDK", "L1732", 16},
      {"000", "2.2.2.12.2. AM654X-IDK", "L1740", 16},
      {"000", "2.2.2.14.1. AM574x-IDK", "L1758", 20},
      {"000", "2.2.2.14.2. AM654x-IDK", "L1767", 20},
      {"000", "2.2.2.14.2. AM654x-IDK", "L1774", 20},
      {"000", "2.2.2.14.2. AM654x-IDK", "L1781", 20},
      {"000", "2.2.2.16.1. AM654x-IDK", "L1812", 20},
      {"000", "2.2.2.16.1. AM654x-IDK", "L1819", 20},
      {"000", "2.2.2.16.1. AM654x-IDK", "L1826", 20},
      {"000", "2.2.2.22.1. OpenSSL Performance", "L1877", 69},
      {"000", "2.2.2.22.1. OpenSSL Performance", "L1915", 14},
      {"000", "2.2.2.22.2. IPSec Performance", "L1932", 3},
      {"001", "2.2.1.1. LMBench", "L22", 115},
      {"001", "2.2.1.2. Dhrystone", "L260", 3},
      {"001", "2.2.1.3. Whetstone", "L273", 1},
      {"001", "2.2.1.4. Linpack", "L280", 1},
      {"001", "2.2.1.5. NBench", "L287", 9},
      {"001", "2.2.1.6. Stream", "L312", 4},
      {"001", "2.2.2.1. Boot media: MMCSD", "L325", 1},
      {"001", "2.2.3. ALSA SoC Audio Driver", "L336", 20},
      {"001", "2.2.3. ALSA SoC Audio Driver", "L370", 20},
      {"001", "2.2.4.1.1. Performance (Fps)", "L408", 6},
      {"001", "2.2.4.1.1. Performance (Fps)", "L430", 2},
      {"001", "2.2.4.1.2. Vertex Throughput", "L441", 3},
      {"001", "2.2.4.1.3. Pixel Throughput", "L455", 2},
      {"001", "2.2.4.2. Glmark2", "L466", 2},
      {"001", "2.2.5.1. AM335X-EVM", "L475", 20},
      {"001", "2.2.6.1. MMC EXT4 FIO 1G", "L510", 16},
      {"001", "2.2.6.2. MMC EXT4", "L537", 20},
      {"001", "2.2.7.1. USB Device Controller", "L573", 1},
      {"001", "2.2.7.1. USB Device Controller", "L578", 1},
      {"001", "2.2.8.1. OpenSSL Performance", "L585", 72},
      {"001", "2.2.8.1. OpenSSL Performance", "L805", 13},
      {"001", "2.2.8.2. IPSec Hardware Performance", "L838", 12},
      {"001", "2.2.8.3. IPSec Software Performance", "L860", 12},
      {"002", "2.2.1.1. LMBench", "LM Bench Metrics", 112},
      {"002", "2.2.1.2. Dhrystone", "Dhrystone Benchmark", 3},
      {"002", "2.2.1.3. Whetstone", "Whetstone Benchmark", 1},
      {"002", "2.2.1.4. Linpack", "Linpack Benchmark", 1},
      {"002", "2.2.1.5. NBench", "NBench Benchmarks", 9},
      {"002", "2.2.1.6. Stream", "Stream", 4},
      {"002", "2.2.2.1. Boot media: MMCSD", "Boot time MMC/SD", 2},
      {"002", "2.2.3. ALSA SoC Audio Driver", "Audio Capture", 20},
      {"002", "2.2.3. ALSA SoC Audio Driver", "Audio Playback", 20},
      {"002", "2.2.4. Sensor Capture", "Sensor Capture", 4},
      {"002", "2.2.5.1.1. Performance (Fps)", "GLBenchmark 2.5 Performance", 6},
      {"002", "2.2.5.1.2. Vertex Throughput", "GLBenchmark 2.5 Vertex Throughput", 3},
      {"002", "2.2.5.1.3. Pixel Throughput", "GLBenchmark 2.5 Pixel Throughput", 2},
      {"002", "2.2.5.2. Glmark2", "Glmark2", 2},
      {"002", "2.2.6. SATA Driver", "L486", 20},
      {"002", "2.2.6. SATA Driver", "L517", 20},
      {"002", "2.2.6.1. mSATA Driver", "L552", 20},
      {"002", "2.2.6.1. mSATA Driver", "L583", 20},
      {"002", "2.2.6.1. mSATA Driver", "L614", 20},
      {"002", "2.2.7.1. AM57XX-EVM", "L651", 16},
      {"002", "2.2.8.1. AM57XX-EVM", "L682", 6},
      {"002", "2.2.9.1. USB Device Controller", "USBDEVICE HIGHSPEED SLAVE READ THROUGHPUT", 1},
      {"002", "2.2.9.1. USB Device Controller", "USBDEVICE HIGHSPEED SLAVE WRITE THROUGHPUT", 1},
      {"002", "2.2.10.1. OpenSSL Performance", "L713", 66},
      {"002", "2.2.10.1. OpenSSL Performance", "L915", 11},
      {"002", "2.2.10.2. IPSec Hardware Performance", "L944", 12},
      {"002", "2.2.10.3. IPSec Software Performance", "L966", 9},
      {"003", "2.2.1.1. LMBench", "LMBench Benchmarks", 690},
      {"003", "2.2.1.2. Dhrystone", "Dhrystone Benchmarks", 18},
      {"003", "2.2.1.3. Whetstone", "Whetstone Benchmarks", 6},
      {"003", "2.2.1.4. Linpack", "Linpack Benchmarks", 6},
      {"003", "2.2.1.5. NBench", "NBench Benchmarks", 54},
      {"003", "2.2.1.6. Stream", "Stream Benchmarks", 24},
      {"003", "2.2.1.7. CoreMarkPro", "CoreMarkPro Benchmarks", 60},
      {"003", "2.2.1.7. CoreMarkPro", "CoreMarkProTwoCore Benchmarks", 60},
      {"003", "2.2.1.7. CoreMarkPro", "CoreMarkProFourCore Benchmarks", 50},
      {"003", "2.2.1.7. CoreMarkPro", "CoreMarkProEightCore Benchmarks", 10},
      {"003", "2.2.1.8. MultiBench", "Multibench Benchmarks", 162},
      {"003", "2.2.2.1. Boot media: MMCSD", "Linux boot time MMCSD", 6},
      {"003", "2.2.3. ALSA SoC Audio Driver", "Audio Capture", 54},
      {"003", "2.2.3. ALSA SoC Audio Driver", "Audio Playback", 54},
      {"003", "2.2.4.1. GFXBench", "GFXBench Performance", 32},
      {"003", "2.2.4.2. Glmark2", "Glmark2 Performance", 13},
      {"003", "2.2.5.1. CPSW/CPSW2g/CPSW3g Ethernet Driver", "CPSW2g TCP Bidirectional Throughput",
       12},
      {"003", "2.2.5.1. CPSW/CPSW2g/CPSW3g Ethernet Driver",
       "CPSW2g TCP Bidirectional Throughput Interrupt Pacing", 8},
      {"003", "2.2.5.1. CPSW/CPSW2g/CPSW3g Ethernet Driver", "CPSW2g UDP Egress Throughput 0 loss",
       60},
      {"003", "2.2.5.1. CPSW/CPSW2g/CPSW3g Ethernet Driver", "CPSW2g UDP Ingress Throughput 0 loss",
       45},
      {"003", "2.2.5.1. CPSW/CPSW2g/CPSW3g Ethernet Driver",
       "CPSW2g UDP Ingress Throughput possible loss", 60},
      {"003", "2.2.6.1. PCIe-NVMe-SSD", "PCIE SSD EXT4 FIO 10G", 32},
      {"003", "2.2.7. Linux OSPI Flash Driver", "OSPI Flash Driver", 80},
      {"003", "2.2.7. Linux OSPI Flash Driver", "OSPI Raw Flash Driver", 5},
      {"003", "2.2.8. UBoot QSPI/OSPI Driver", "UBOOT QSPI or OSPI", 32},
      {"003", "2.2.9. UBoot UFS Driver", "UBOOT UFS RAW", 18},
      {"003", "2.2.10.1. EMMC EXT4 FIO 1G", "EMMC EXT4 FIO 1G", 96},
      {"003", "2.2.10.2. EMMC RAW FIO 1G", "EMMC RAW FIO 1G", 96},
      {"003", "2.2.11. UBoot EMMC Driver", "UBOOT EMMC RAW", 24},
      {"003", "2.2.12.1. MMC EXT4 FIO 1G", "MMC EXT4 FIO 1G", 96},
      {"003", "2.2.12.2. MMC RAW FIO 1G", "MMC RAW FIO 1G", 96},
      {"003", "2.2.12.3. MMC EXT4", "MMC EXT4", 120},
      {"003", "2.2.12.4. MMC EXT2", "MMC EXT2", 120},
      {"003", "2.2.13.1. UBOOT MMCSD FAT", "UBOOT MMCSD FAT", 36},
      {"003", "2.2.14.1. USB Device Controller", "USBDEVICE SUPERSPEED SLAVE_READ_THROUGHPUT", 1},
      {"003", "2.2.14.1. USB Device Controller", "USBDEVICE SUPERSPEED SLAVE_WRITE_THROUGHPUT", 1},
      {"003", "2.2.14.1. USB Device Controller", "USBDEVICE HIGHSPEED SLAVE_READ_THROUGHPUT", 5},
      {"003", "2.2.14.1. USB Device Controller", "USBDEVICE HIGHSPEED SLAVE_WRITE_THROUGHPUT", 5},
      {"003", "2.2.15.1. OpenSSL Performance", "OpenSSL Performance", 348},
      {"003", "2.2.15.1. OpenSSL Performance", "OpenSSL CPU Load", 58},
      {"003", "2.2.15.2. IPSec Software Performance", "IPSec Software Performance", 12},
      {"004", "SBL OSPI performance", "SBL OSPI performance", 8},
      {"004", "SBL SD performance", "SBL SD performance", 9},
      {"004", "XIP Benchmark", "XIP Benchmark: FIR operation", 3},
      {"004", "XIP Benchmark", "XIP Benchmark: MEMCPY operation", 3},
      {"004", "MCAN performance", "MCAN performance", 2},
      {"004", "MCSPI performance", "MCSPI driver performance in different modes", 18},
      {"004", "CPSW Performance", "TCP Performance(am64x/243x emvs):", 7},
      {"004", "CPSW Performance", "TCP Performance(am243x-lp):", 7},
      {"004", "CPSW Performance", "UDP TX Performance(am64x/243x emvs): For Packet Size: 1500 B",
       6},
      {"004", "CPSW Performance", "UDP TX Performance(am243x-lp): For Packet Size: 1500 B", 6},
      {"004", "CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 256 B", 4},
      {"004", "CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 512 B", 6},
      {"004", "CPSW Performance", "UDP RX Performance(am64x/243x emvs): For Packet Size: 1500 B",
       9},
      {"004", "CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 256 B", 4},
      {"004", "CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 512 B", 6},
      {"004", "CPSW Performance", "UDP RX Performance(am243x-lp): For Packet Size: 1500 B", 6},
      {"004", "IPC performance", "IPC NOTIFY", 6},
      {"004", "IPC performance", "IPC RPMSG", 10},
      {"004", "MATHLIB", "MATHLIB BENCHMARK", 36},
      {"004", "SA2UL", "PKA RSA SIGN VERIFY", 6},
      {"004", "SA2UL", "SHA", 14},
      {"004", "SA2UL", "PKA ECDSA", 6},
      {"004", "SA2UL", "AES", 28},
      {"004", "SA2UL", "RSA ENCRYPT DECRYPT", 4},
      {"004", "USB", "NET Driver ( RNDIS )", 22},
  };
  std::map<std::tuple<std::string, std::string, std::string>, int> got;
  for (const auto& r : allRows()) got[{r.source.substr(0, 3), r.section, r.table}]++;
  std::set<std::tuple<std::string, std::string, std::string>> listed;
  for (const auto& e : expected) {
    auto key = std::make_tuple(std::string(e.src), std::string(e.section), std::string(e.table));
    listed.insert(key);
    EXPECT_EQ(got[key], e.values) << e.src << " | " << e.section << " | " << e.table;
  }
  for (const auto& [key, n] : got)
    EXPECT_TRUE(listed.count(key))
        << "unexpected table " << std::get<0>(key) << " | " << std::get<1>(key) << " | "
        << std::get<2>(key) << " (" << n << " values)";
}

// Hand-picked values, each looked up in the raw text (line cited; 000 prints a row per line,
// 001-003 a cell per line, so the line is the value's own line there).
TEST(IngestSeeds, HandPickedValues) {
  SOCSIM_REQUIRE_SEEDS();
  struct Pick {
    const char* src;
    int line;
    const char* board;
    const char* benchmark;
    const char* metric;
    const char* params;
    const char* unit;
    double value;
    std::optional<double> min, max;
    const char* flag;  // substring that must be in the flag ("" = no flag at all)
  };
  const std::optional<double> no;
  const Pick picks[] = {
      // 000, kernel part
      {"000", 39, "am335x-evm", "bw_mmap_rd-mo-1mb", "perf", "", "MB/s", 268.89, no, no, ""},
      {"000", 42, "k2g-evm", "bw_mem-bzero-8mb", "perf", "", "MB/s", 2336.96, 1230.58, 3443.33,
       "mixed-minmax"},
      {"000", 159, "omapl138-lcdk", "cpu_clock", "perf", "", "MHz", 230, no, no, ""},
      {"000", 229, "am335x-evm", "Audio Capture", "Throughput", "sampling_rate=11025", "bit/s",
       352799, no, no, ""},
      {"000", 229, "omapl138-lcdk", "Audio Capture", "CPU Load", "sampling_rate=11025", "%", 2.89,
       no, no, ""},
      {"000", 403, "am335x-evm", "TCP Throughput", "Throughput", "stack=linux;window=16384",
       "Mbit/s", 288.8, no, no, ""},
      {"000", 435, "am654x-evm", "UDP Throughput Egress", "Throughput", "datagram=256;stack=linux",
       "Mbit/s", 7.4, no, no, "suspect-attribution:left-packed-row"},
      {"000", 368, "am57xx-evm", "Gstreamer H264 in AVI Container Decode Performance", "Fps",
       "iva_freq_mhz=532;resolution=720p", "fps", 59940, no, no, "outlier:fps-above-1000"},
      {"000", 906, "am654x-evm", "OpenSSL Performance", "throughput",
       "algorithm=aes-192-cbc;buffer_size=8192", "KB/s", 30158028.8, no, no, "outlier:"},
      {"000", 960, "am335x-evm", "IPSec Performance", "Packets/Sec", "algorithm=aes128", "kpps", 0,
       no, no, "zero-rate"},
      {"000", 986, "am335x-evm", "vdd_mpu_power", "Power", "load=idle;opp_mhz=300", "mW", 46.26,
       45.65, 47.03, ""},
      {"000", 997, "am335x-evm", "total_power", "Power", "load=idle;opp_mhz=300", "mW", 566.14,
       564.94, 566.99, ""},
      {"000", 263, "am57xx-evm", "Sensor Capture", "Fps",
       "format=rgb4;resolution=160x128;sensor=mt9t111", "fps", 40.88, 40.79, 41.0, ""},
      {"000", 287, "am335x-evm", "Display performance (HDMI)", "Fps", "mode=640x480@60", "fps",
       59.97, 59.02, 60.01, ""},
      {"000", 356, "am57xx-evm", "GLB25_FillTestC24Z16 test", "Rate", "test_number=2500101",
       "texel/s", 1435972864, no, no, ""},
      {"000", 1158, "am335x-evm", "resume_time", "Suspend UART", "", "ms", 2347.37, 2342.5, 2351.52,
       ""},
      {"000", 478, "am335x-evm", "NAND Driver", "Throughput",
       "buffer_size=262144;fs=ubifs;op=write", "MB/s", 4.36, 4.32, 4.39, ""},
      // 000, RT-kernel part
      {"000", 1301, "am654x-idk", "bw_mmap_rd-mo-1mb", "perf", "kernel=rt", "MB/s", 1449.8, no, no,
       ""},
      {"000", 1421, "am654x-idk", "cpu_clock", "perf", "kernel=rt", "MHz", 400, no, no,
       "outlier:cpu_clock-400-vs-800"},
      {"000", 1706, "am574x-idk", "UDP Throughput Ingress", "Throughput",
       "datagram=8000;kernel=rt;stack=linux", "Mbit/s", 95.6, no, no, "suspect-attribution"},
      // 001
      {"001", 26, "am335x-evm", "af_unix_sock_stream_latency", "perf", "", "us", 48.86, no, no,
       "alias-of:lat_unix"},
      {"001", 140, "am335x-evm", "lat_ctx-4-256k", "perf", "", "us", 0, no, no, "zero-time"},
      {"001", 329, "am335x-evm", "Boot media: MMCSD", "Boot time",
       "config=Linux boot time from SD with default rootfs (20 boot cycles)", "s", 65.09, 44.03,
       107.79, ""},
      {"001", 341, "am335x-evm", "Audio Capture", "Throughput", "sampling_rate=8000", "bit/s",
       255998, no, no, "inferred:caption-by-position"},
      {"001", 517, "am335x-evm", "MMC EXT4 FIO 1G", "Throughput", "bs=1048576;fs=ext4;op=write",
       "MB/s", 19.8, no, no, ""},
      {"001", 577, "am335x-evm", "USBDEVICE HIGHSPEED SLAVE READ THROUGHPUT", "Throughput",
       "blocks=150", "MB/s", 18.7, no, no, "inferred:caption-by-position"},
      {"001", 591, "am335x-evm", "OpenSSL Performance", "throughput",
       "algorithm=aes-128-cbc;buffer_size=1024", "KB/s", 45160.45, no, no, ""},
      {"001", 844, "am335x-evm", "IPSec Hardware Performance", "Throughput", "algorithm=3des",
       "Mbit/s", 0, no, no, "zero-rate"},
      // 002
      {"002", 43, "am57xx-evm", "bw_mem-bzero-1mb", "perf", "", "MB/s", 5524.33, 4991.05, 6057.6,
       "mixed-minmax"},
      {"002", 318, "am57xx-evm", "Boot time MMC/SD", "boot time",
       "config=Kernel boot time test when bootloader, kernel and sdk-rootfs are in mmc-sd", "s",
       37.4, 34.53, 41.28, ""},
      {"002", 406, "am57xx-evm", "Sensor Capture", "Fps",
       "format=nv12;resolution=1280x800;sensor=ov10635", "fps", 30.01, no, no, ""},
      {"002", 687, "am57xx-evm", "UBoot MMC/SD Driver", "Throughput", "op=write;size=4194304",
       "KB/s", 6159.4, no, no, ""},
      {"002", 703, "am57xx-evm", "USBDEVICE HIGHSPEED SLAVE READ THROUGHPUT", "Throughput",
       "blocks=150", "MB/s", 34.8, no, no, ""},
      {"002", 980, "am57xx-evm", "IPSec Software Performance", "Throughput", "algorithm=aes256",
       "Mbit/s", 5.4, no, no, "outlier:ipsec-cpu-per-byte(27x-aes128)"},
      {"002", 431, "am57xx-evm", "GLB25_EgyptTestC24Z16FixedTime test", "Fps",
       "test_number=2500005", "fps", 25.17, 14.63, 51.56, ""},
      // 003
      {"003", 77, "j7200-evm", "af_unix_sock_stream_latency", "perf", "", "us", 19.98, 19.51, 20.42,
       "alias-of:lat_unix"},
      {"003", 3600, "j721e-idk-gw", "CPSW2g UDP Egress Throughput 0 loss", "THROUGHPUT",
       "frame=64;stack=linux", "Mbit/s", 60.09, 0.0, 93.69, "min-zero"},
      {"003", 3602, "j721e-idk-gw", "CPSW2g UDP Egress Throughput 0 loss", "Packets Per Second",
       "frame=64;stack=linux", "kpps", 117.38, 0.0, 183.0, "min-zero"},
      {"003", 3606, "j722s_evm-fs", "CPSW2g UDP Egress Throughput 0 loss", "THROUGHPUT",
       "frame=64;stack=linux", "Mbit/s", 56.7, 54.36, 59.25, ""},
      {"003", 3411, "", "Glmark2-Wayland 4000x4000", "Score", "", "score", 81.63, 75.0, 85.0,
       "unattributed:dropped-cell"},
      {"003", 4503, "j721e-idk-gw", "UBOOT QSPI or OSPI", "Throughput", "op=write;size=4194304",
       "KB/s", 1029.58, 1018.15, 1041.18, ""},
      {"003", 2511, "j784s4-evm", "coremark-pro", "perf", "cores=8", "score", 14093.9, 13646.37,
       14258.78, ""},
      {"003", 1718, "j722s_evm-fs", "cpu_clock", "perf", "", "MHz", 1400, no, no, ""},
      {"003", 4042, "j721e-idk-gw", "PCIE SSD EXT4 FIO 10G", "Throughput",
       "bs=1048576;fs=ext4;op=read", "MB/s", 1513.88, 1512.0, 1516.0, ""},
      {"003", 3496, "j7200-evm", "CPSW2g TCP Bidirectional Throughput", "THROUGHPUT", "stack=linux",
       "Mbit/s", 998, 0.0, 1863.42, "min-zero"},
      // 004 (rows made by the MCU+ parser, passed through)
      {"004", 42, "am64x-evm", "SBL : Total time taken", "Time",
       "app_bytes=78848;boot_media=ospi;cores=m4f0-0,r5f0-0,r5f0-1,r5f1-0,r5f1-1;media_clock_mhz="
       "166.667;sbl_bytes=262144",
       "ms", 95.372, no, no, ""},
      {"004", 92, "am64x-evm", "CAN FD STANDARD FORMAT", "Throughput",
       "arb_bitrate_mbps=1;arb_phase_bits=27;data_bitrate_mbps=5;data_phase_bits=538;mcan_clock_"
       "mhz=80",
       "msg/s", 6666, no, no, ""},
      {"004", 211, "am64x-evm", "IPC RPMSG", "Average Message Latency",
       "local=r5f0-0;msg_bytes=4;remote=r5f0-1", "us", 0.571, no, no, ""},
      {"004", 281, "am64x-evm", "PKA ECDSA", "Sign", "key_bits=256", "ops/s", 1136, no, no, ""},
      {"004", 357, "am64x-evm", "NET Driver ( RNDIS )", "Transfer",
       "interval_s=0.0-10.0;tcp_window_bytes=87040", "MiB", 41.5, no, no, ""},
  };
  static_assert(sizeof(picks) / sizeof(picks[0]) >= 40, "at least 40 hand-picked values");
  for (const auto& p : picks) {
    std::string src = stems().at(p.src);
    std::vector<const MeasuredRow*> hits;
    for (const auto& r : allRows())
      if (r.source == src && r.board == p.board && r.benchmark == p.benchmark &&
          r.metric == p.metric && r.params == p.params && r.value == p.value)
        hits.push_back(&r);
    SCOPED_TRACE(std::string(p.src) + " L" + std::to_string(p.line) + " " + p.board + " " +
                 p.benchmark + " " + p.metric + " " + p.params);
    ASSERT_EQ(hits.size(), 1u);
    const MeasuredRow& r = *hits[0];
    EXPECT_EQ(r.unit, p.unit);
    EXPECT_EQ(r.min, p.min);
    EXPECT_EQ(r.max, p.max);
    EXPECT_EQ(r.line, p.line);
    if (std::string(p.flag).empty())
      EXPECT_EQ(r.flag, "");
    else
      EXPECT_TRUE(hasFlag(r, p.flag)) << r.flag;
  }
}

TEST(IngestSeeds, Totals) {
  SOCSIM_REQUIRE_SEEDS();
  const auto& rows = allRows();
  EXPECT_GE(rows.size(), 7000u);
  std::map<std::string, int> perSource;
  std::set<std::string> boards;
  for (const auto& r : rows) {
    perSource[r.source.substr(0, 3)]++;
    boards.insert(r.board);
  }
  // INVENTORY 4.1: 3797 / 356 / 411 / 2765 primary values; 004 ~234 (236 with RNDIS summary).
  EXPECT_EQ(perSource["000"], 3797);
  EXPECT_EQ(perSource["001"], 356);
  EXPECT_EQ(perSource["002"], 411);
  EXPECT_EQ(perSource["003"], 2765);
  EXPECT_GE(perSource["004"], 230);
  EXPECT_EQ(perSource.size(), 5u);
  for (const char* b : {"am335x-evm", "am57xx-evm", "am574x-idk", "am654x-evm", "am654x-idk",
                        "k2g-evm", "omapl138-lcdk", "j7200-evm", "j721e-idk-gw", "j721s2-evm",
                        "j722s_evm-fs", "j742s2_evm-fs", "j784s4-evm", "am64x-evm", "am243x-lp"})
    EXPECT_TRUE(boards.count(b)) << b;
  // INVENTORY 4.3 per board (000-003), the 50 recovered UDP values included.
  std::map<std::string, int> perBoard;
  for (const auto& r : rows) perBoard[r.board]++;
  const std::map<std::string, int> inv = {{"am335x-evm", 1941},   {"am57xx-evm", 950},
                                          {"am654x-evm", 447},    {"am654x-idk", 351},
                                          {"am574x-idk", 224},    {"k2g-evm", 386},
                                          {"omapl138-lcdk", 265}, {"j721e-idk-gw", 522},
                                          {"j784s4-evm", 504},    {"j742s2_evm-fs", 450},
                                          {"j721s2-evm", 435},    {"j722s_evm-fs", 399},
                                          {"j7200-evm", 382},     {"", 73}};
  for (const auto& [b, n] : inv) EXPECT_EQ(perBoard[b], n) << "board '" << b << "'";
  // Every row is complete: a family, a benchmark and (except dropped cells) metric and unit.
  for (const auto& r : rows) {
    EXPECT_FALSE(r.family.empty());
    EXPECT_FALSE(r.benchmark.empty());
    if (r.source.rfind("004", 0) != 0) {
      EXPECT_FALSE(r.unit.empty()) << r.source << " L" << r.line;
      EXPECT_FALSE(r.metric.empty()) << r.source << " L" << r.line;
      EXPECT_NE(r.family, "other") << r.source << " L" << r.line;
    }
  }
}

// INVENTORY 2: the values that look wrong carry a flag with the reason.
TEST(IngestSeeds, KnownBadValuesAreFlagged) {
  SOCSIM_REQUIRE_SEEDS();
  struct Bad {
    const char* src;
    const char* board;
    const char* benchmark;
    const char* metric;
    const char* params;
    const char* flag;
  };
  const Bad bad[] = {
      // 2.1-4: bw_mem (min, max) mix neighbouring sub-tests
      {"000", "am335x-evm", "bw_mem-fcp-1mb", "perf", "", "mixed-minmax"},
      {"001", "am335x-evm", "bw_mem-bzero-1mb", "perf", "", "mixed-minmax"},
      {"003", "j721s2-evm", "bw_mem-fcp-2mb", "perf", "", "mixed-minmax"},
      // 2.1-5: half latency
      {"000", "am335x-evm", "latency_for_1.00_mb_block_size", "perf", "", "half-latency"},
      {"003", "j784s4-evm", "latency_for_1.00_mb_block_size", "perf", "", "half-latency"},
      // 2.1-6: aliases
      {"000", "k2g-evm", "semaphore_latency", "perf", "", "alias-of:lat_sem"},
      {"002", "am57xx-evm", "select_on_200_tcp_fds", "perf", "", "alias-of:lat_select"},
      {"003", "j722s_evm-fs", "latency_for_0.50_mb_block_size", "perf", "",
       "alias-of:lat_mem_rd-stride128-sz500k"},
      // 2.1-7: UDP left-packing
      {"000", "k2g-evm", "UDP Throughput Egress", "Throughput", "datagram=1024;stack=linux",
       "suspect-attribution"},
      // 2.1-8: obviously wrong values
      {"000", "am57xx-evm", "Gstreamer H264 in AVI Container Decode Performance", "Fps",
       "iva_freq_mhz=532;resolution=1080i", "outlier:"},
      {"000", "am57xx-evm", "Gstreamer H264 in AVI Container Decode Performance", "Fps",
       "iva_freq_mhz=532;resolution=CIF", "outlier:"},
      {"000", "am574x-idk", "Gstreamer H264 in AVI Container Decode Performance", "Fps",
       "kernel=rt;resolution=CIF", "outlier:"},
      {"000", "am654x-evm", "PCI Ethernet", "Bandwidth", "window=131072", "zero-rate"},
      {"000", "am654x-idk", "PCI Ethernet", "Bandwidth", "kernel=rt;window=131072", "zero-rate"},
      {"000", "am654x-evm", "OpenSSL Performance", "throughput", "algorithm=des3;buffer_size=8192",
       "outlier:"},
      {"000", "am654x-idk", "OpenSSL Performance", "throughput",
       "algorithm=aes-192-cbc;buffer_size=8192;kernel=rt", "outlier:"},
      // am654x openssl columns: the call time does not grow with the buffer (~5.5 us per SHA-1
      // call from 16 B to 8 KiB), so no size of them measured processing.
      {"000", "am654x-evm", "OpenSSL Performance", "throughput", "algorithm=sha1;buffer_size=16",
       "outlier:flat-call-time"},
      {"000", "am654x-idk", "OpenSSL Performance", "throughput",
       "algorithm=md5;buffer_size=256;kernel=rt", "outlier:flat-call-time"},
      {"000", "am335x-evm", "IPSec Performance", "Packets/Sec", "algorithm=aes128", "zero-rate"},
      {"000", "am574x-idk", "Audio Playback", "CPU Load", "kernel=rt;sampling_rate=96000",
       "zero-load"},
      {"000", "omapl138-lcdk", "bw_mem-bcopy-16mb", "perf", "",
       "duplicate-value:bw_file_rd-o2c-1mb"},
      // 2.1-9: misreported clock and the DMIPS/MHz derived from it
      {"000", "am654x-idk", "cpu_clock", "perf", "kernel=rt", "outlier:cpu_clock"},
      {"000", "am654x-idk", "dhrystone_per_mhz", "perf", "kernel=rt",
       "outlier:derived-from-misreported-cpu_clock"},
      // 2.1-10: audio rate fallbacks
      {"000", "k2g-evm", "Audio Capture", "Throughput", "sampling_rate=8000", "off-nominal-rate"},
      {"000", "am574x-idk", "Audio Playback", "Throughput", "kernel=rt;sampling_rate=16000",
       "off-nominal-rate"},
      {"000", "am654x-evm", "Audio Playback", "Throughput", "sampling_rate=44100",
       "off-nominal-rate"},
      // 2.2-5/6
      {"001", "am335x-evm", "MMC EXT4", "Throughput", "buffer_size=102400;fs=raw;op=write",
       "caption-mismatch"},
      {"001", "am335x-evm", "lat_ctx-4-256k", "perf", "", "zero-time"},
      {"001", "am335x-evm", "IPSec Hardware Performance", "Throughput", "algorithm=aes128",
       "zero-rate"},
      {"001", "am335x-evm", "IPSec Software Performance", "CPU Load", "algorithm=aes256",
       "cpu-load-above-100"},
      {"002", "am57xx-evm", "IPSec Software Performance", "Packets/Sec", "algorithm=aes256",
       "zero-rate"},
      // 2.3-1..7
      {"003", "j722s_evm-fs", "MMC EXT4", "Throughput", "buffer_size=102400;fs=raw;op=write",
       "caption-mismatch"},
      {"003", "j721s2-evm", "bw_file_rd-io-1mb", "perf", "", "min-zero"},
      {"003", "j721s2-evm", "CPSW2g TCP Bidirectional Throughput", "THROUGHPUT", "stack=linux",
       "min-zero"},
      {"003", "j721e-idk-gw", "IPSec Software Performance", "Packets/Sec", "algorithm=aes256",
       "min-zero"},
      {"003", "j784s4-evm", "Audio Capture", "Throughput", "sampling_rate=16000",
       "off-nominal-rate"},
      {"003", "j7200-evm", "lat_proc-proccall", "perf", "", "zero-time"},
      // lat_tcp of ~1 us beside lat_pipe of 15-460 us: not a TCP loopback round trip
      {"000", "am335x-evm", "lat_tcp", "perf", "", "outlier:below-lat_pipe"},
      {"000", "omapl138-lcdk", "tcp_latency_using_localhost", "perf", "", "outlier:below-lat_pipe"},
      {"000", "am654x-idk", "lat_tcp", "perf", "kernel=rt", "outlier:below-lat_pipe"},
      {"001", "am335x-evm", "lat_tcp", "perf", "", "outlier:below-lat_pipe"},
      {"002", "am57xx-evm", "lat_tcp", "perf", "", "outlier:below-lat_pipe"},
      {"003", "j722s_evm-fs", "lat_tcp", "perf", "", "outlier:below-lat_pipe"},
      {"003", "j784s4-evm", "tcp_latency_using_localhost", "perf", "", "outlier:below-lat_pipe"},
  };
  for (const auto& b : bad) {
    std::string src = stems().at(b.src);
    int n = 0;
    for (const auto& r : allRows())
      if (r.source == src && r.board == b.board && r.benchmark == b.benchmark &&
          r.metric == b.metric && r.params == b.params) {
        ++n;
        EXPECT_TRUE(hasFlag(r, b.flag)) << b.src << " " << b.board << " " << b.benchmark << " "
                                        << b.params << ": '" << r.flag << "'";
      }
    EXPECT_EQ(n, 1) << b.src << " " << b.board << " " << b.benchmark << " " << b.params;
  }
  // The flat-call-time rule takes the am654x columns of guide 000 and nothing else.
  for (const auto& r : allRows())
    if (hasFlag(r, "flat-call-time")) {
      EXPECT_TRUE(r.board == "am654x-evm" || r.board == "am654x-idk") << r.board << " " << r.params;
    }
  // The speed-per-byte rule takes guide 000's am574x-idk column (software per byte 1.56x the
  // same SoC family's am57xx-evm under the same release) and nothing else: all 35 rows.
  int perByteFlagged = 0;
  for (const auto& r : allRows())
    if (hasFlag(r, "outlier:speed-per-byte(")) {
      ++perByteFlagged;
      EXPECT_EQ(r.board, "am574x-idk") << r.params;
      EXPECT_TRUE(hasFlag(r, "x-am57xx-evm-same-soc-family)")) << r.flag;
    }
  EXPECT_EQ(perByteFlagged, 35);
  // The IPSec rule takes six failed runs and nothing else (guide 000's tables, guide 001's
  // software table and guide 002's hardware table stay): 001 hardware (all 4 runs), 002
  // software AES-256, 003 AES-256 (min 0.1 Mbit/s); three rows each.
  std::map<std::string, int> ipsecFlagged;  // source board benchmark algorithm -> rows
  for (const auto& r : allRows())
    if (hasFlag(r, "ipsec-cpu-per-byte"))
      ++ipsecFlagged[r.source.substr(0, 3) + " " + r.board + " " + r.benchmark + " " + r.params];
  const std::map<std::string, int> expected = {
      {"001 am335x-evm IPSec Hardware Performance algorithm=3des", 3},
      {"001 am335x-evm IPSec Hardware Performance algorithm=aes128", 3},
      {"001 am335x-evm IPSec Hardware Performance algorithm=aes192", 3},
      {"001 am335x-evm IPSec Hardware Performance algorithm=aes256", 3},
      {"002 am57xx-evm IPSec Software Performance algorithm=aes256", 3},
      {"003 j721e-idk-gw IPSec Software Performance algorithm=aes256", 3}};
  EXPECT_EQ(ipsecFlagged, expected);
  // 2.3-1: 003 des3/sha1 rows (5 values for 6 boards) and Glmark2 4000x4000: 73 unattributed.
  int unattributed = 0;
  for (const auto& r : allRows())
    if (hasFlag(r, "unattributed:dropped-cell")) {
      ++unattributed;
      EXPECT_EQ(r.board, "");
      EXPECT_EQ(r.source, stems().at("003"));
    }
  EXPECT_EQ(unattributed, 73);
  // 2.3-1: the 50 UDP values behind the empty datagram-size column are recovered, not flagged.
  int udp = 0;
  for (const auto& r : allRows())
    if (r.source == stems().at("003") && r.benchmark.find("CPSW2g UDP") == 0) {
      ++udp;
      EXPECT_FALSE(r.board.empty());
      EXPECT_FALSE(hasFlag(r, "unattributed")) << r.line;
      EXPECT_FALSE(hasFlag(r, "kpps-check")) << r.line;
    }
  EXPECT_EQ(udp, 60 + 45 + 60);
  // 000's TCP tables state no direction: iperf's dual test sums both (am57xx 1042-1201 Mbit/s
  // are not above the line); no Linux Ethernet row exceeds what its directions carry.
  int tcpAboveOneWay = 0;
  for (const auto& r : allRows())
    if (r.family == "ethernet" && r.unit == "Mbit/s" && r.value > 1000 &&
        r.benchmark.rfind("TCP Throughput", 0) == 0) {
      ++tcpAboveOneWay;
      EXPECT_FALSE(hasFlag(r, "above-1GbE")) << r.board << " " << r.params;
    }
  EXPECT_EQ(tcpAboveOneWay, 5);
  for (const auto& r : allRows()) {
    if (r.family == "ethernet" && r.unit == "Mbit/s" &&
        r.benchmark.find("UDP") != std::string::npos) {
      EXPECT_EQ(hasFlag(r, "above-1GbE"), r.value > 1000) << r.board << " " << r.params;
    }
  }
}

// 000 prints no LMBench units; the derived units agree with what 001 and 003 print for the same
// benchmark.
TEST(IngestSeeds, DerivedUnitsAgreeWithPrintedOnes) {
  SOCSIM_REQUIRE_SEEDS();
  std::map<std::string, std::string> printed;  // benchmark -> unit in 001/003
  for (const auto& r : allRows())
    if ((r.source == stems().at("001") || r.source == stems().at("003")) &&
        r.family.rfind("lmbench", 0) == 0)
      printed[r.benchmark] = r.unit;
  int compared = 0;
  for (const auto& r : allRows()) {
    if (r.source != stems().at("000") || r.family.rfind("lmbench", 0) != 0) continue;
    auto it = printed.find(r.benchmark);
    if (it == printed.end()) continue;
    ++compared;
    EXPECT_EQ(r.unit, it->second) << r.benchmark;
  }
  EXPECT_EQ(compared, 672);
}

namespace {
std::string runCapture(const std::string& cmd, int& status) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = ::pclose(p);
  return out;
}
}  // namespace

TEST(IngestSeeds, MeasuredCommandShowsTheDataset) {
  SOCSIM_REQUIRE_SEEDS();
  std::string bin = std::string(SOCSIM_TEST_BIN_DIR) + "/socsim";
  if (!std::filesystem::exists(bin)) GTEST_SKIP() << bin << " not built";
  int status = 0;
  std::string summary = runCapture(bin + " measured --summary", status);
  EXPECT_EQ(status, 0);
  for (const auto& [id, stem] : stems()) EXPECT_NE(summary.find(stem), std::string::npos) << stem;
  EXPECT_NE(summary.find("5 sources, "), std::string::npos);
  for (const char* b : {"am335x-evm", "am57xx-evm", "am574x-idk", "am654x-evm", "am654x-idk",
                        "k2g-evm", "omapl138-lcdk", "j7200-evm", "j721e-idk-gw", "j721s2-evm",
                        "j722s_evm-fs", "j742s2_evm-fs", "j784s4-evm", "am64x-evm", "am243x-lp"})
    EXPECT_NE(summary.find(b), std::string::npos) << b;
  auto p = summary.find(" sources, ");
  ASSERT_NE(p, std::string::npos);
  EXPECT_GE(std::stoi(summary.substr(p + 10)), 7000);

  std::string csvText = runCapture(bin + " measured --format csv", status);
  EXPECT_EQ(status, 0);
  auto records = csv::parse(csvText, "stdout");
  ASSERT_GE(records.size(), 7001u);
  EXPECT_EQ(records[0], calib::measuredCsvHeader());
  for (const auto& rec : records) EXPECT_EQ(rec.size(), 13u);
}
