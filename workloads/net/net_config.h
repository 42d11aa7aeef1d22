#pragma once
/// @file net_config.h
/// @brief Parameters of the network software (data, in `configs/workloads/net/`):
///        - `stacks/<software.stack>.yaml` (`stack:` group, NetStackParams): the network stack
///          and driver of a software stack (Linux, Linux PREEMPT_RT, lwIP on MCU+): the path
///          length of each piece of work in instructions, the instruction profile those paths
///          run as on the core model, buffer and ring sizes, GRO, delayed ACK, pacing;
///        - `tools/<tool>.yaml` (`tool:` group, NetToolParams): one test tool as a guide ran it
///          (iperf 2.0.5 of guide 000, netperf 2.7.1 of guide 003, the MCU+ lwIP iperf of guide
///          004): its own work per call, its rate control, its buffer sizes, how it reports CPU
///          load, and the peer PC as an ideal endpoint with a response time.
///
/// Path lengths are AArch64-equivalent instructions; 32-bit cores scale them by the code
/// profile's `aarch32_path_factor` / `armv5_path_factor` (as the CPU benchmarks do). Fields whose
/// source starts with "calibrated" are free parameters scoped to the software stack or the tool
/// (issue 9). Every field has a schema: unknown keys, wrong units and out-of-range values are
/// errors naming file, line and path.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::wl::net {

struct NetStackParams {
  std::string name;  ///< "linux", "linux-rt", "lwip"
  std::string description;
  std::string code_profile;  ///< instruction profile of the stack's code (relative path)
  /// Linux stacks take the generic kernel paths (system call entry/exit, wakeup and context
  /// switch, interrupt entry/exit, threaded interrupts, lock costs) from the board's
  /// `software.kernel_paths` (workloads/os/kernel_path_params.h), shared with the OS rows;
  /// a bare-metal stack has none of them.
  bool uses_kernel_paths = true;
  // Network path lengths (instructions), beyond the generic kernel paths.
  double irq_handler_instructions = 400;
  double poll_instructions = 800;
  double rx_frame_instructions = 900;
  double rx_ip_instructions = 700;
  double reassembly_instructions = 1200;
  double udp_rx_instructions = 900;
  double tcp_rx_instructions = 2500;
  double gro_instructions = 300;
  double tcp_ack_tx_instructions = 2000;
  double tcp_ack_rx_instructions = 1500;
  double send_call_instructions = 1200;
  double udp_tx_instructions = 2500;
  double tcp_tx_instructions = 2500;
  double tx_frame_instructions = 700;
  double tx_complete_instructions = 500;
  double recv_call_instructions = 1200;
  double csum_instructions_per_byte = 0.3;
  /// The stack's network path lengths relative to the ones above (a kernel variant that
  /// lengthens every per-packet path, e.g. PREEMPT_RT's local locks for bottom-half sections);
  /// scales every `*_instructions` path of the stack, not the checksum loop.
  double path_factor = 1.0;
  /// The stack verifies / generates the L4 checksum on the core even when the MAC could
  /// offload it (a stack without per-interface checksum control).
  bool software_checksum = false;
  /// Packet memory (DMA buffers, descriptors, the stack's buffer headers) is not cacheable for
  /// the core: every access to it is a round trip to the memory (no cache maintenance needed).
  bool packet_memory_cached = true;
  /// Accesses (loads/stores) of the driver and the stack to one frame's packet memory:
  /// descriptor, buffer header, protocol headers; they cost a memory round trip each when
  /// packet memory is not cached, and nothing beyond the path length otherwise.
  double packet_accesses_per_frame = 0;
  /// RTOS task switches per received frame (driver task -> stack thread mailbox and back).
  double task_switches_per_frame = 0;
  /// One RTOS task switch: queue post/receive, scheduler, context save/restore (instructions).
  double task_switch_instructions = 0;
  bool rx_copy = true;  ///< received payload is copied to the application
  bool tx_copy = true;  ///< sent payload is copied from the application
  // Driver and stack buffers.
  int rx_descriptors = 128;
  int tx_descriptors = 128;
  int tx_queue_len = 1000;
  int napi_budget = 64;
  std::uint64_t rcvbuf_bytes = 212992;
  std::uint64_t sndbuf_bytes = 212992;
  bool udp_send_buffer = true;  ///< UDP sends wait for room in the send buffer (sndbuf)
  int rx_truesize_bytes = 2304;
  int skb_overhead_bytes = 768;
  bool gro = true;
  int gro_max_segments = 44;
  int gso_max_segments = 44;  ///< segments one TSO skb holds (64 KiB / MSS)
  int delayed_ack_segments = 2;
  int tcp_option_bytes = 12;
  double tcp_default_window_bytes = 4194304;
  // Interrupts.
  bool pacing_default = false;  ///< the driver paces interrupts unless a row says otherwise
  double pacing_interval_us = 250;
  double irq_latency_us = 1;
  double rx_poll_period_us = 0;  ///< > 0: DMA interrupts off, a timer polls at this period
  // Scheduling.
  double app_stall_ms = 4;            ///< longest wait of a receiving application for its core
  double app_stall_period_ms = 1000;  ///< how often it happens

  static const params::Schema<NetStackParams>& schema();
};

struct NetToolParams {
  std::string name;  ///< "iperf-2.0.5", "netperf-2.7.1", "lwiperf"
  std::string description;
  std::string app_profile;           ///< instruction profile of the tool's own code (relative path)
  double send_instructions = 1500;   ///< the tool's own work per send call
  double recv_instructions = 800;    ///< the tool's own work per receive call
  bool udp_spin = false;             ///< the UDP sender busy-waits between datagrams
  std::string tcp_direction = "rx";  ///< rx | tx | bidir: which way the DUT moves TCP data
  double udp_rate_mbps = 0;          ///< UDP sender rate limit (-b); 0 = line rate
  int tcp_send_bytes = 131072;
  int tcp_recv_bytes = 131072;
  double peer_turnaround_us = 20;
  /// The peer PC as a UDP sender: its own time per datagram (the tool's send loop and the PC's
  /// sendto path), so it offers no more than one datagram per this interval; 0 = the line rate.
  double peer_datagram_us = 0;
  /// The peer PC as a UDP sender: its time per payload byte, a payload-rate limit pipelined with
  /// peer_datagram_us (a datagram takes the longer of the two); 0 = none.
  double peer_byte_ns = 0;
  double burst_period_ms = 10;       ///< netperf -w interval of the RFC 2544 trials
  /// On a DUT whose OS runs on at most this many cores, the tool's (first) process runs on the
  /// core that takes the Ethernet interrupts and their softirq work instead of a core of its
  /// own; 0 = never. A set-up interpretation of where the scheduler puts the tool.
  int app_on_irq_core_max_cores = 0;
  double max_rate_loss_percent = 1;  ///< "max rate" rows: highest offered rate with loss below
  double warmup_ms = 5;
  double duration_ms = 20;

  static const params::Schema<NetToolParams>& schema();
};

/// A stack file: the params and the file they came from (code_profile resolved to a path).
struct NetStack {
  std::string file;
  std::string codeProfileFile;
  NetStackParams p;
};
struct NetTool {
  std::string file;
  std::string appProfileFile;
  NetToolParams p;
};

/// Load `stacks/<name>.yaml` style files (presets resolved). Throws InputError.
NetStack loadNetStack(const std::string& file);
NetTool loadNetTool(const std::string& file);

/// The folder with the built-in network configs (`configs/workloads/net`).
std::string defaultNetDir();

}  // namespace socsim::wl::net
