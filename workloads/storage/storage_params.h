#pragma once
/// @file storage_params.h
/// @brief Parameters of the software on the storage paths: the Linux I/O stack (block layer,
///        page cache, file systems, fio/dd), U-Boot's storage commands, the MCU+ SBL and the
///        SYSFW it talks to, Linux boot, and the XIP benchmark. Scope: the software component
///        (data in `configs/workloads/storage/*.yaml`); instruction counts become time on the
///        board's core model (the kernel-code profile), copies go through the memory system.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::wl::storage {

/// The Linux I/O path. Scope: software stack `linux` (shared by every Linux board).
struct LinuxIoParams {
  std::uint64_t page_bytes = 4096;
  std::uint64_t readahead_bytes = 131072;
  std::uint64_t max_sectors_bytes = 1310720;
  int fio_iodepth = 4;
  double syscall_instructions = 1500;
  double fio_io_instructions = 15000;
  double block_request_instructions = 6000;
  double irq_instructions = 2500;
  double rt_irq_thread_instructions = 3000;
  double direct_io_fs_instructions = 1500;
  double read_page_raw_instructions = 1200;
  double read_page_ext2_instructions = 1800;
  double read_page_ext4_instructions = 2200;
  double read_page_vfat_instructions = 2000;
  double read_page_ubifs_instructions = 5000;
  double write_page_raw_instructions = 2000;
  double write_page_ext2_instructions = 3500;
  double write_page_ext4_instructions = 4500;
  double write_page_vfat_instructions = 4000;
  double write_page_ubifs_instructions = 8000;
  double ubifs_crc_instructions_per_byte = 1.5;
  double ubifs_compress_instructions_per_byte = 12;
  double ubifs_write_amplification = 1.25;
  std::uint64_t ubifs_node_header_bytes = 48;
  std::string gadget_backing_store = "sd";
  std::string gadget_backing_fs = "ext4";

  static const params::Schema<LinuxIoParams>& schema();
};

/// U-Boot storage commands. Scope: software `u-boot`.
struct UbootParams {
  double timer_resolution_ms = 1;
  std::uint64_t mmc_max_blocks = 65535;
  std::uint64_t ufs_max_transfer_bytes = 33554432;
  double cache_maintenance_cycles_per_line = 20;
  int cache_line_bytes = 64;
  double command_setup_instructions = 200000;
  int fat_lookup_reads = 6;
  int fat_metadata_writes = 6;
  std::uint64_t fat_metadata_bytes = 4096;
  std::uint64_t sf_read_chunk_bytes = 0;
  std::uint64_t sf_dac_access_bytes = 4;  ///< CPU load width reading the OSPI DAC window
  double console_baud = 115200;
  std::uint64_t ufs_block_bytes = 4096;

  static const params::Schema<UbootParams>& schema();
};

/// The MCU+ SDK secondary bootloader on the R5F, the ROM before it and the SYSFW it loads.
/// Scope: software `mcu-sbl` (stage work), `k3-rom` and `sysfw` (firmware response times).
struct SblParams {
  double rom_init_ms = 5;
  double rom_media_clock_mhz = 50;
  std::string rom_ospi_mode = "octal";
  std::string rom_sd_mode = "sd-default-speed";
  double rom_sd_clock_mhz = 25;
  std::uint64_t sysfw_bytes = 262144;
  double sysfw_boot_ms = 5;
  double system_init_ms = 0.5;
  double tisci_round_trip_ms = 0.2;
  double ospi_open_us = 200;
  int phy_tuning_reads = 2000;
  std::uint64_t phy_tuning_pattern_bytes = 128;
  double phy_tuning_read_overhead_us = 5;
  int core_load_tisci_messages = 10;
  double m4f_init_ms = 10;
  int fat_lookup_reads = 6;
  double console_baud = 115200;
  std::uint64_t version_log_bytes = 108;
  std::uint64_t ospi_banner_log_bytes = 33;

  static const params::Schema<SblParams>& schema();
};

/// Linux boot from SD, "Starting kernel" to the prompt. Scope: software stack `linux`.
struct LinuxBootParams {
  double kernel_init_instructions = 2e9;
  double kernel_fixed_delays_s = 2.0;
  std::uint64_t shell_read_bytes = 8388608;
  double userspace_instructions = 8e9;
  double userspace_fixed_delays_s = 3.0;
  std::uint64_t userspace_read_bytes = 104857600;
  std::uint64_t boot_read_request_bytes = 65536;
  double console_baud = 115200;
  std::uint64_t kernel_console_bytes = 40960;
  std::uint64_t userspace_console_bytes = 10240;
  int userspace_parallel_jobs = 2;

  static const params::Schema<LinuxBootParams>& schema();
};

/// The MCU+ xip_benchmark: FIR and memcpy with code/data in OSPI flash. Scope: the benchmark.
struct XipParams {
  int cache_line_bytes = 32;
  double fir_instructions = 14600;
  std::uint64_t fir_code_bytes = 2048;
  std::uint64_t fir_data_bytes = 1396;
  double memcpy_instructions = 1200;
  std::uint64_t memcpy_code_bytes = 512;
  std::uint64_t memcpy_data_bytes = 256;
  double fss_latency_ns = 100;
  int uncached_every = 10;

  static const params::Schema<XipParams>& schema();
};

}  // namespace socsim::wl::storage
