#pragma once
/// @file board_info.h
/// @brief The small board-level param structs that have no model of their own: board identity,
///        cluster shape, software stack, on-chip SRAM and peripheral instances.
///
/// Peripherals without a model yet are described by facts only (IP, instance, clock, mode,
/// link speed, attached device); a peripheral model later takes its own params struct and the
/// loader fills it from the same group.
#include <cstdint>
#include <optional>
#include <string>

#include "common/params.h"
#include "workloads/os/kernel_path_params.h"
#include "models/peripherals/cpsw/cpsw_params.h"
#include "models/peripherals/pcie/pcie_nic_params.h"

namespace socsim::soc {

/// Which board this is and where it was measured.
struct BoardInfo {
  std::string name;         ///< board id = the guides' column id ("am335x-evm", "j722s_evm-fs")
  std::string soc;          ///< SoC part ("AM3358")
  std::string family;       ///< SoC family ("AM335x", "J721E (TDA4VM)")
  std::string evm;          ///< board product and revision as the guide names it
  std::string guides;       ///< seed guides (and part) that measured this column
  std::string description;  ///< one line for `socsim boards`

  static const params::Schema<BoardInfo>& schema() {
    using P = BoardInfo;
    static const auto s =
        params::Schema<P>("board")
            .text("name", &P::name, "board id: the guides' column id", "the guides' column header")
            .required()
            .text("soc", &P::soc, "SoC part number", "SoC datasheet")
            .required()
            .text("family", &P::family, "SoC family", "SoC datasheet")
            .text("evm", &P::evm, "evaluation board product and revision",
                  "the guide's Evaluation Modules table")
            .text("guides", &P::guides, "performance guides (seed files) that measured this column",
                  "calibration seeds README")
            .text("description", &P::description, "one-line description", "config author");
    return s;
  }
};

/// The shape of one cluster of identical cores (core/caches are groups of the cluster).
struct ClusterParams {
  std::string name;                  ///< "a72ss0", "r5fss0", "m4fss0"
  int cores = 1;                     ///< identical cores in the cluster (sharing the cluster's L2)
  std::string role = "application";  ///< application | realtime | mcu

  static const params::Schema<ClusterParams>& schema() {
    using P = ClusterParams;
    static const auto s =
        params::Schema<P>("cluster")
            .text("name", &P::name, "cluster instance name", "SoC TRM processor subsystem name")
            .required()
            .integer("cores", &P::cores, "count", 1, 64, "identical cores in the cluster",
                     "SoC datasheet device comparison table")
            .required()
            .choice("role", &P::role, {"application", "realtime", "mcu"},
                    "what the cluster runs in the measured set-up (the first application "
                    "cluster runs the guide's benchmarks)",
                    "the guide's set-up description");
    return s;
  }
};

/// The software stack the guide measured.
struct SoftwareParams {
  std::string stack = "linux";  ///< linux | linux-rt | mcu-nortos
  std::string sdk;              ///< SDK name and version
  std::string kernel;           ///< kernel flavour / version where stated
  /// The kernel runs a cpufreq driver for the application cores. The guides' benchmark scripts
  /// print its current frequency as `cpu_clock`; without one they print the kernel's BogoMIPS.
  bool cpufreq = true;
  /// The release's Linux MMC/SD host driver switches a UHS-I card to 1.8 V signalling and runs
  /// the board's UHS-I bus mode; false: the card stays at high speed (SDR, 3.3 V).
  bool sd_uhs = true;
  /// Linux kernel path parameters (the group's `kernel_paths` subgroup; workloads/os/).
  wl::os::KernelPathParams kernel_paths;

  static const params::Schema<SoftwareParams>& schema() {
    using P = SoftwareParams;
    static const auto s =
        params::Schema<P>("software")
            .choice("stack", &P::stack, {"linux", "linux-rt", "mcu-nortos"},
                    "software stack the benchmarks ran on", "the guide's title and set-up")
            .required()
            .text("sdk", &P::sdk, "SDK name and version", "the guide's title")
            .text("kernel", &P::kernel, "kernel flavour or version where stated",
                  "the guide's set-up")
            .flag("cpufreq", &P::cpufreq,
                  "the kernel runs a cpufreq driver for the application cores (the benchmark "
                  "scripts' cpu_clock is its current frequency; without one they print the "
                  "kernel's BogoMIPS)",
                  "the SDK kernel's device tree / board support (a cpufreq driver by default)")
            .flag("sd_uhs", &P::sd_uhs,
                  "the release's Linux MMC/SD host driver switches a UHS-I card to 1.8 V "
                  "signalling and runs the board's UHS-I bus mode (false: high speed, the host's "
                  "high_speed_clock_mhz)",
                  "the SDK kernel's MMC host driver and device tree (UHS-I by default where the "
                  "board's SD peripheral states a UHS-I mode)");
    return s;
  }
};

/// One on-chip SRAM (MSMC SRAM, OCMC RAM, MSRAM) that software can place code or data in.
struct SramParams {
  std::string name;              ///< "msram", "ocmc", "msmc"
  std::uint64_t size_bytes = 0;  ///< capacity
  double clock_mhz = 0;          ///< 0 = the interconnect clock

  static const params::Schema<SramParams>& schema() {
    using P = SramParams;
    static const auto s =
        params::Schema<P>("sram")
            .text("name", &P::name, "SRAM instance name", "SoC TRM memory map")
            .required()
            .bytes("size", &P::size_bytes, 1, 1ull << 34, "capacity", "SoC datasheet / TRM")
            .required()
            .real("clock_mhz", &P::clock_mhz, "MHz", 0, 10000,
                  "SRAM clock; 0 = the interconnect clock", "SoC TRM clock tree");
    return s;
  }
};

/// One peripheral instance as facts (no model yet for most IPs).
struct PeripheralParams {
  std::string ip;  ///< IP type: cpsw2g, cpsw3g, ospi, qspi, mmcsd, sa2ul, gpmc, ufs, pcie, usb,
                   ///< mcan, mcspi ...
  std::string instance;        ///< instance name on the SoC ("cpsw0", "ospi0", "mmc1")
  std::string version;         ///< IP flavour/version where known ("CPSW3G", "Cadence xSPI")
  double clock_mhz = 0;        ///< functional/interface clock; 0 = not stated
  std::string mode;            ///< interface mode ("rgmii", "octal-ddr", "sdr104", "hs200", "gen3")
  double link_speed_mbps = 0;  ///< line rate per port/lane; 0 = not applicable
  int ports = 0;               ///< external ports (Ethernet); 0 = not applicable
  int lanes = 0;               ///< serial lanes (PCIe/USB/UFS); 0 = not applicable
  int bus_width_bits = 0;  ///< parallel data width (OSPI 8, QSPI 4, MMC 4/8, NAND 8/16); 0 = n/a
  std::string device;      ///< attached device in the measured set-up (flash part, card, SSD)
  /// Asynchronous memory interface (AEMIF/GPMC chip select) access cycles as the boot loader or
  /// the device tree programs them, in interface clocks (`clock_mhz`): setup + strobe + hold of
  /// one read / one write access; 0 = the controller preset's access time.
  int read_cycle_clocks = 0;
  int write_cycle_clocks = 0;
  /// Ethernet MAC/switch model parameters (the group's `cpsw` subgroup; Ethernet IPs only).
  std::optional<models::CpswParams> cpsw;
  /// PCIe-attached Ethernet NIC: its port and its DMA over the link (the group's `nic`
  /// subgroup; with `cpsw` for the NIC's MAC side). The peripheral's `link_speed_mbps` and
  /// `lanes` are then the PCIe link's.
  std::optional<models::PcieNicParams> nic;

  static const params::Schema<PeripheralParams>& schema() {
    using P = PeripheralParams;
    static const auto s =
        params::Schema<P>("peripheral")
            .text("ip", &P::ip, "IP type (cpsw2g, cpsw3g, ospi, mmcsd, sa2ul, ...)", "SoC TRM")
            .required()
            .text("instance", &P::instance, "instance name on the SoC", "SoC TRM")
            .required()
            .text("version", &P::version, "IP flavour or version", "SoC TRM")
            .real("clock_mhz", &P::clock_mhz, "MHz", 0, 10000,
                  "functional or interface clock; 0 = not stated", "SoC TRM / the guide's set-up")
            .text("mode", &P::mode, "interface mode (rgmii, octal-ddr, sdr104, hs200, gen3, ...)",
                  "SoC TRM / the guide's set-up")
            .real("link_speed_mbps", &P::link_speed_mbps, "Mbit/s", 0, 1e6,
                  "line rate per port or lane; 0 = not applicable", "SoC TRM / standard")
            .integer("ports", &P::ports, "count", 0, 64, "external ports; 0 = not applicable",
                     "SoC TRM")
            .integer("lanes", &P::lanes, "count", 0, 32, "serial lanes; 0 = not applicable",
                     "SoC TRM / the guide's set-up")
            .integer("bus_width_bits", &P::bus_width_bits, "bits", 0, 128,
                     "parallel data width; 0 = not applicable", "SoC TRM / the guide's set-up")
            .text("device", &P::device, "attached device in the measured set-up",
                  "the guide's set-up description")
            .integer("read_cycle_clocks", &P::read_cycle_clocks, "clocks", 0, 100000,
                     "asynchronous chip-select read access (setup + strobe + hold) in interface "
                     "clocks (clock_mhz); 0 = the controller preset's read_cycle_ns",
                     "the boot loader's or device tree's chip-select timing for this board")
            .integer("write_cycle_clocks", &P::write_cycle_clocks, "clocks", 0, 100000,
                     "asynchronous chip-select write access (setup + strobe + hold) in interface "
                     "clocks (clock_mhz); 0 = the controller preset's write_cycle_ns",
                     "the boot loader's or device tree's chip-select timing for this board");
    return s;
  }
};

}  // namespace socsim::soc
