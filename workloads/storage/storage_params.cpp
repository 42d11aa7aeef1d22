#include "workloads/storage/storage_params.h"

namespace socsim::wl::storage {

const params::Schema<LinuxIoParams>& LinuxIoParams::schema() {
  using P = LinuxIoParams;
  static const auto s =
      params::Schema<P>("linux_io")
          .bytes("page_bytes", &P::page_bytes, 1024, 65536, "page cache page",
                 "Linux PAGE_SIZE on the SDK's arm/arm64 kernels (4 KiB)")
          .bytes("readahead_bytes", &P::readahead_bytes, 4096, 1ull << 30,
                 "default readahead window (read_ahead_kb)",
                 "Linux include/linux/mm.h VM_READAHEAD_PAGES (128 KiB)")
          .bytes("max_sectors_bytes", &P::max_sectors_bytes, 4096, 1ull << 32,
                 "largest request the block layer builds by default (max_sectors_kb)",
                 "Linux include/linux/blkdev.h BLK_DEF_MAX_SECTORS (2560 sectors)")
          .integer("fio_iodepth", &P::fio_iodepth, "count", 1, 1024,
                   "I/Os fio keeps in flight (libaio, direct)",
                   "guide 003 PCIe FIO options '-iodepth=4'; assumed for the MMC/eMMC FIO "
                   "tables, which state no options")
          .real("syscall_instructions", &P::syscall_instructions, "instructions", 0, 1e7,
                "read()/write() system call entry, VFS dispatch and exit",
                "calibrated: order of lmbench null/read syscall paths (~1-2k instructions)")
          .real("fio_io_instructions", &P::fio_io_instructions, "instructions", 0, 1e8,
                "fio per I/O: its own loop and statistics, io_submit/io_getevents, direct-I/O "
                "page pinning and bio set-up",
                "calibrated: order of the Linux async direct-I/O path (Yang et al., FAST 2012: "
                "several microseconds per 4 KiB I/O on a 3 GHz core)")
          .real("block_request_instructions", &P::block_request_instructions, "instructions", 0,
                1e8, "block layer per request: bio/request allocation, merge, dispatch, completion",
                "calibrated: order of blk-mq submit and complete paths")
          .real("irq_instructions", &P::irq_instructions, "instructions", 0, 1e7,
                "one device interrupt: entry, GIC, handler, softirq completion, exit",
                "calibrated: order of an arm64 interrupt round trip")
          .real("rt_irq_thread_instructions", &P::rt_irq_thread_instructions, "instructions", 0,
                1e7, "extra per interrupt on PREEMPT_RT (threaded handler wake-up and switch)",
                "calibrated: one scheduler wake-up and context switch")
          .real("direct_io_fs_instructions", &P::direct_io_fs_instructions, "instructions", 0,
                1e7, "file-system block mapping per direct I/O (ext4 extent lookup)",
                "calibrated: one extent-tree lookup")
          .real("read_page_raw_instructions", &P::read_page_raw_instructions, "instructions", 0,
                1e7, "buffered read per page of a raw block device (page cache, readahead)",
                "calibrated: order of filemap read per page")
          .real("read_page_ext2_instructions", &P::read_page_ext2_instructions, "instructions",
                0, 1e7, "buffered read per page on ext2 (page cache + block mapping)",
                "calibrated: as raw plus ext2 get_block")
          .real("read_page_ext4_instructions", &P::read_page_ext4_instructions, "instructions",
                0, 1e7, "buffered read per page on ext4 (page cache + extent mapping)",
                "calibrated: as raw plus ext4_mpage_readpages")
          .real("read_page_vfat_instructions", &P::read_page_vfat_instructions, "instructions",
                0, 1e7, "buffered read per page on vfat (page cache + FAT chain walk)",
                "calibrated: as raw plus fat_get_block")
          .real("read_page_ubifs_instructions", &P::read_page_ubifs_instructions,
                "instructions", 0, 1e7,
                "UBIFS read per page (TNC lookup, data node read set-up, UBI/MTD), bytes apart",
                "calibrated: order of ubifs_readpage")
          .real("write_page_raw_instructions", &P::write_page_raw_instructions, "instructions",
                0, 1e7, "buffered write per page on a raw block device (write_begin/end, "
                "dirtying, writeback)", "calibrated: order of generic_perform_write per page")
          .real("write_page_ext2_instructions", &P::write_page_ext2_instructions,
                "instructions", 0, 1e7, "buffered write per page on ext2 (block allocation)",
                "calibrated: as raw plus ext2 block allocation")
          .real("write_page_ext4_instructions", &P::write_page_ext4_instructions,
                "instructions", 0, 1e7, "buffered write per page on ext4 (delalloc, mballoc, "
                "journal)", "calibrated: as raw plus ext4 delayed allocation and jbd2")
          .real("write_page_vfat_instructions", &P::write_page_vfat_instructions,
                "instructions", 0, 1e7, "buffered write per page on vfat (cluster allocation)",
                "calibrated: as raw plus fat_get_block allocation")
          .real("write_page_ubifs_instructions", &P::write_page_ubifs_instructions,
                "instructions", 0, 1e7,
                "UBIFS write per page (budgeting, journal, TNC), bytes apart",
                "calibrated: order of ubifs_write_end + journal")
          .real("ubifs_crc_instructions_per_byte", &P::ubifs_crc_instructions_per_byte,
                "instructions/byte", 0, 100, "CRC32 of UBIFS nodes, per byte",
                "calibrated: table-driven crc32 (slice-by-8, ~1-2 instructions per byte)")
          .real("ubifs_compress_instructions_per_byte", &P::ubifs_compress_instructions_per_byte,
                "instructions/byte", 0, 1000,
                "LZO compression attempt per written byte (kept uncompressed when it does not "
                "help)", "calibrated: LZO1X-1 compression speed (~10-20 instructions per byte)")
          .real("ubifs_write_amplification", &P::ubifs_write_amplification, "ratio", 1, 10,
                "flash bytes written per file byte (node headers, index, journal commit, UBI "
                "headers)", "calibrated: UBIFS index and commit overhead")
          .bytes("ubifs_node_header_bytes", &P::ubifs_node_header_bytes, 0, 4096,
                 "UBIFS data node header", "Linux fs/ubifs/ubifs-media.h (UBIFS_DATA_NODE_SZ 48)")
          .text("gadget_backing_store", &P::gadget_backing_store,
                "medium holding the USB mass-storage gadget's backing file: sd, emmc or ram",
                "set-up assumption: a file on the root file system, which the test EVMs boot "
                "from the SD card; the guides name no backing store")
          .text("gadget_backing_fs", &P::gadget_backing_fs,
                "file system of the gadget's backing file (ext2, ext4, vfat, raw)",
                "set-up assumption: the SDK's ext4 root file system");
  return s;
}

const params::Schema<UbootParams>& UbootParams::schema() {
  using P = UbootParams;
  static const auto s =
      params::Schema<P>("uboot")
          .real("timer_resolution_ms", &P::timer_resolution_ms, "ms", 0, 1000,
                "resolution of the elapsed time U-Boot reports (throughput = size / time)",
                "U-Boot get_timer() (milliseconds)")
          .bytes("mmc_max_blocks", &P::mmc_max_blocks, 1, 1ull << 32,
                 "blocks per MMC read/write command", "U-Boot CONFIG_SYS_MMC_MAX_BLK_COUNT (65535)")
          .bytes("ufs_max_transfer_bytes", &P::ufs_max_transfer_bytes, 4096, 1ull << 32,
                 "bytes per SCSI command of U-Boot's ufs/scsi read and write",
                 "U-Boot drivers/ufs: max_bytes_per_req = UFS_MAX_BYTES (128 PRDT entries x "
                 "256 KiB = 32 MiB); scsi_read/scsi_write split at it")
          .real("cache_maintenance_cycles_per_line", &P::cache_maintenance_cycles_per_line,
                "cycles", 0, 10000, "D-cache clean/invalidate per line around each DMA buffer",
                "calibrated: a DC CIVAC/IVAC loop iteration")
          .integer("cache_line_bytes", &P::cache_line_bytes, "bytes", 16, 256,
                   "cache line of the maintenance loop", "Arm core TRMs (64 bytes)")
          .real("command_setup_instructions", &P::command_setup_instructions, "instructions", 0,
                1e10, "U-Boot command parsing, device selection and block-layer set-up per command",
                "calibrated: order of a U-Boot command dispatch")
          .integer("fat_lookup_reads", &P::fat_lookup_reads, "count", 0, 1000,
                   "small reads to find a file (boot sector, FAT, directory clusters)",
                   "calibrated: FAT32 lookup of a file in the root directory")
          .integer("fat_metadata_writes", &P::fat_metadata_writes, "count", 0, 10000,
                   "small writes updating FAT copies and the directory after fatwrite",
                   "calibrated: two FAT copies plus directory entry")
          .bytes("fat_metadata_bytes", &P::fat_metadata_bytes, 512, 1 << 24,
                 "bytes per FAT lookup read / metadata write", "FAT cluster of the SD card (4 KiB)")
          .bytes("sf_read_chunk_bytes", &P::sf_read_chunk_bytes, 0, 1ull << 32,
                 "bytes per sf read operation (0 = one operation)", "U-Boot spi-mem (no limit)")
          .bytes("sf_dac_access_bytes", &P::sf_dac_access_bytes, 0, 4096,
                 "sf read on a controller with a direct-access (memory-mapped) window: the CPU "
                 "copies the data out of the window with loads of this width, and the "
                 "controller turns each load into a flash read of its own (0 = use the "
                 "indirect FIFO path)",
                 "assumption: U-Boot drivers/spi/cadence_qspi_apb.c cadence_qspi_apb_read_execute "
                 "copies from the AHB window with memcpy_fromio (32-bit device loads) when it "
                 "does not use DMA")
          .real("console_baud", &P::console_baud, "bit/s", 1200, 1e7,
                "serial console rate: the raw block commands (mmc read/write, scsi read/write) "
                "print a line before and after the transfer, and U-Boot's ns16550 putc waits "
                "for THRE (transmit FIFO empty), so each character costs 10 bits at this rate",
                "K3/Sitara EVM U-Boot console 115200 8N1; U-Boot drivers/serial/ns16550.c")
          .bytes("ufs_block_bytes", &P::ufs_block_bytes, 512, 1 << 20,
                 "logical block of the UFS LU (the count the scsi command prints)",
                 "UFS bLogicalBlockSize 0x0C (4 KiB), the UFS default");
  return s;
}

const params::Schema<SblParams>& SblParams::schema() {
  using P = SblParams;
  static const auto s =
      params::Schema<P>("sbl")
          .real("rom_init_ms", &P::rom_init_ms, "ms", 0, 10000,
                "boot ROM start-up before it reads the boot medium (scope: K3 boot ROM)",
                "calibrated: guess, no published figure")
          .real("rom_media_clock_mhz", &P::rom_media_clock_mhz, "MHz", 1, 1000,
                "OSPI clock the boot ROM reads the SBL at (scope: K3 boot ROM)",
                "calibrated: ROM boot uses a conservative OSPI clock")
          .text("rom_ospi_mode", &P::rom_ospi_mode, "OSPI mode of the ROM's reads",
                "AM64x TRM boot chapter: OSPI boot in octal SDR (background knowledge: unverified)")
          .text("rom_sd_mode", &P::rom_sd_mode, "SD mode of the ROM's reads",
                "SD default speed before the SBL switches modes")
          .real("rom_sd_clock_mhz", &P::rom_sd_clock_mhz, "MHz", 0.1, 1000,
                "SD clock of the ROM's reads", "SD default speed (25 MHz)")
          .bytes("sysfw_bytes", &P::sysfw_bytes, 0, 1ull << 30,
                 "SYSFW image the SBL copies to the security controller",
                 "calibrated: size of the AM64x SYSFW binary (background knowledge: unverified)")
          .real("sysfw_boot_ms", &P::sysfw_boot_ms, "ms", 0, 10000,
                "SYSFW start-up until it answers (scope: sysfw)",
                "calibrated: guess, no published figure")
          .real("system_init_ms", &P::system_init_ms, "ms", 0, 10000,
                "SBL system init: board configuration messages to SYSFW, clocks, pinmux",
                "calibrated: guess, a few TISCI messages")
          .real("tisci_round_trip_ms", &P::tisci_round_trip_ms, "ms", 0, 10000,
                "one TISCI message and response (Sciclient get version)",
                "calibrated: guess, secure-proxy message round trip")
          .real("ospi_open_us", &P::ospi_open_us, "us", 0, 1e7,
                "OSPI driver open without PHY tuning (reset, SFDP, mode switch)",
                "calibrated: guess, a few flash register operations")
          .integer("phy_tuning_reads", &P::phy_tuning_reads, "count", 0, 10000000,
                   "pattern reads of the OSPI PHY tuning search",
                   "calibrated: MCU+ SDK OSPI_phyTuneDDR delay-line search (background "
                   "knowledge: hundreds to thousands of points)")
          .bytes("phy_tuning_pattern_bytes", &P::phy_tuning_pattern_bytes, 1, 1 << 20,
                 "bytes per tuning pattern read", "MCU+ SDK OSPI PHY attack vector (128 bytes)")
          .real("phy_tuning_read_overhead_us", &P::phy_tuning_read_overhead_us, "us", 0, 1e6,
                "driver work per tuning point (delay register writes, compare)",
                "calibrated: a few register writes and a memcmp")
          .integer("core_load_tisci_messages", &P::core_load_tisci_messages, "count", 0, 1000,
                   "TISCI messages per core loaded, each one tisci_round_trip_ms",
                   "MCU+ SDK bootloader.c Bootloader_loadCpu + Bootloader_runCpu: processor "
                   "request, set clock (set + get), power-on reset (module on, local reset, "
                   "boot config), reset release (control, module state), release, get clock")
          .real("m4f_init_ms", &P::m4f_init_ms, "ms", 0, 10000,
                "extra for the M4F: its IRAM/DRAM initialization",
                "calibrated: guess, the guide names the cause, not the time")
          .integer("fat_lookup_reads", &P::fat_lookup_reads, "count", 0, 1000,
                   "small reads to find the appimage on the SD card's FAT partition",
                   "calibrated: FAT lookup of one file")
          .real("console_baud", &P::console_baud, "bit/s", 0, 1e8,
                "UART console the SBL logs to (DebugP_log waits for the UART, 10 bits/byte)",
                "MCU+ SDK SBL example configuration: UART0 at 115200 8N1")
          .bytes("version_log_bytes", &P::version_log_bytes, 0, 1 << 20,
                 "console bytes of Sciclient_getVersionCheck(1)",
                 "MCU+ SDK sciclient.c log format: 'DMSC Firmware Version ' + the 31-character "
                 "firmware description, 'DMSC Firmware revision 0x..', 'DMSC ABI revision x.y', "
                 "a blank line, each ending in CR LF (55 + 28 + 23 + 2)")
          .bytes("ospi_banner_log_bytes", &P::ospi_banner_log_bytes, 0, 1 << 20,
                 "console bytes the OSPI SBL logs between Drivers_open and Board_driversOpen",
                 "MCU+ SDK sbl_ospi main.c: DebugP_log of CR LF and 'Starting OSPI Bootloader "
                 "... ' CR LF (2 + 31)");
  return s;
}

const params::Schema<LinuxBootParams>& LinuxBootParams::schema() {
  using P = LinuxBootParams;
  static const auto s =
      params::Schema<P>("linux_boot")
          .real("kernel_init_instructions", &P::kernel_init_instructions, "instructions", 0,
                1e13, "kernel start to init: core work of the kernel's initialization",
                "calibrated: guess, order of 10^9 instructions")
          .real("kernel_fixed_delays_s", &P::kernel_fixed_delays_s, "s", 0, 1000,
                "waits in the kernel's boot that no core work explains (probe timeouts, "
                "deferred probing, card detection)", "calibrated: guess")
          .bytes("shell_read_bytes", &P::shell_read_bytes, 0, 1ull << 40,
                 "bytes read from the boot medium to reach a /bin/sh prompt",
                 "calibrated: guess, modules and the shell's libraries")
          .real("userspace_instructions", &P::userspace_instructions, "instructions", 0, 1e14,
                "core work of the default root file system's init (systemd and services) to "
                "the login prompt", "calibrated: guess")
          .real("userspace_fixed_delays_s", &P::userspace_fixed_delays_s, "s", 0, 1000,
                "waits in userspace init no core work explains (timeouts, udev settle)",
                "calibrated: guess")
          .bytes("userspace_read_bytes", &P::userspace_read_bytes, 0, 1ull << 40,
                 "bytes userspace init reads from the boot medium",
                 "calibrated: guess, binaries and libraries of the default services")
          .bytes("boot_read_request_bytes", &P::boot_read_request_bytes, 4096, 1ull << 30,
                 "typical request size of boot-time reads (page faults, small files)",
                 "calibrated: guess, a readahead window of small files")
          .real("console_baud", &P::console_baud, "bit/s", 1200, 1e8,
                "serial console rate; the boot log is written synchronously to it",
                "TI SDK bootargs console=<uart>,115200n8")
          .bytes("kernel_console_bytes", &P::kernel_console_bytes, 0, 1ull << 30,
                 "boot log the kernel prints on the console up to init (10 bits per byte on "
                 "an 8N1 UART)", "calibrated: guess, ~500 lines of a TI SDK kernel log")
          .bytes("userspace_console_bytes", &P::userspace_console_bytes, 0, 1ull << 30,
                 "console output of userspace init to the login prompt (service status lines)",
                 "calibrated: guess, ~130 systemd status lines")
          .integer("userspace_parallel_jobs", &P::userspace_parallel_jobs, "count", 1, 64,
                   "cores userspace init keeps busy on average: units start in parallel but "
                   "the boot's critical chain is mostly serial",
                   "calibrated: guess (systemd-analyze critical-chain: a few parallel units)");
  return s;
}

const params::Schema<XipParams>& XipParams::schema() {
  using P = XipParams;
  static const auto s =
      params::Schema<P>("xip")
          .integer("cache_line_bytes", &P::cache_line_bytes, "bytes", 8, 256,
                   "R5F cache line (fill unit from flash)", "Arm Cortex-R5 TRM (32-byte lines)")
          .real("fir_instructions", &P::fir_instructions, "instructions", 1, 1e9,
                "instructions of one fir_bench call (10 arm_fir_f32 blocks of 32 samples)",
                "derived: CMSIS-DSP arm_fir_f32 generic path with loop unrolling (2 loads + 8 "
                "MACs per coefficient per 8 outputs) for 320 samples x 29 taps = 11600, plus "
                "state copies, stores and loop set-up per block (~3000)")
          .bytes("fir_code_bytes", &P::fir_code_bytes, 0, 1ull << 30,
                 "code the FIR call executes from flash", "calibrated: guess")
          .bytes("fir_data_bytes", &P::fir_data_bytes, 0, 1ull << 30,
                 "data the FIR call reads from flash (coefficients, input)",
                 "xip_benchmark fir.c: 320 float inputs + 29 float coefficients = 1396 bytes")
          .real("memcpy_instructions", &P::memcpy_instructions, "instructions", 1, 1e9,
                "instructions of one memcpy call of the benchmark",
                "calibrated: guess, the copy size is not published")
          .bytes("memcpy_code_bytes", &P::memcpy_code_bytes, 0, 1ull << 30,
                 "code the memcpy call executes from flash", "calibrated: guess")
          .bytes("memcpy_data_bytes", &P::memcpy_data_bytes, 0, 1ull << 30,
                 "data the memcpy call reads from flash",
                 "xip_benchmark memcopy.c: MAX_CPY_ELEMS = 64 uint32 words = 256 bytes")
          .real("fss_latency_ns", &P::fss_latency_ns, "ns", 0, 1e6,
                "FSS/interconnect latency of a cache-line fill from the OSPI window, beyond "
                "the flash operation", "calibrated: a few interconnect hops")
          .integer("uncached_every", &P::uncached_every, "count", 1, 1000000,
                   "'not cached 1 of N iterations': caches invalidated every N-th call",
                   "guide 004 XIP row label ('1 of 10 iterations')");
  return s;
}

}  // namespace socsim::wl::storage
