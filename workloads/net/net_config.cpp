#include "workloads/net/net_config.h"

#include <filesystem>

#include "common/error.h"
#include "common/paths.h"
#include "soc/config/config_tree.h"
#include "soc/config/group_file.h"
#include "soc/config/schema_io.h"

namespace fs = std::filesystem;

namespace socsim::wl::net {

namespace {
constexpr const char* kPath =
    "calibrated: software-stack-scoped path length; default from published per-packet cost "
    "breakdowns of the Linux stack (order of 10^3 instructions per layer per packet)";
constexpr const char* kTool = "calibrated: tool-scoped; default from the tool's per-call loop";
}  // namespace

const params::Schema<NetStackParams>& NetStackParams::schema() {
  using P = NetStackParams;
  static const auto s =
      params::Schema<P>("net_stack")
          .text("name", &P::name, "software stack name (the board's software.stack)",
                "socsim software stack vocabulary")
          .required()
          .text("description", &P::description, "what the stack is", "config author")
          .text("code_profile", &P::code_profile,
                "instruction profile the stack's code runs as on the core model (path relative "
                "to this file)",
                "configs/workloads/net/profiles")
          .required()
          .flag("uses_kernel_paths", &P::uses_kernel_paths,
                "take system call entry/exit, wakeups and context switches, interrupt entry/exit, "
                "threaded interrupts and lock costs from the board's software.kernel_paths",
                "socsim: one set of kernel paths per software stack (workloads/os)")
          .real("irq_handler_instructions", &P::irq_handler_instructions, "instructions", 0, 1e6,
                "the Ethernet driver's interrupt handler (acknowledge, mask, NAPI schedule) beyond "
                "the generic interrupt entry/exit",
                kPath)
          .real("poll_instructions", &P::poll_instructions, "instructions", 0, 1e6,
                "one NAPI poll: softirq entry, poll loop, completion, interrupt unmask", kPath)
          .real("rx_frame_instructions", &P::rx_frame_instructions, "instructions", 0, 1e6,
                "driver receive per frame: descriptor, DMA sync, skb, buffer refill", kPath)
          .real("rx_ip_instructions", &P::rx_ip_instructions, "instructions", 0, 1e6,
                "per received IP packet: netif_receive_skb, ip_rcv, routing", kPath)
          .real("reassembly_instructions", &P::reassembly_instructions, "instructions", 0, 1e6,
                "per IPv4 fragment: reassembly on receive, fragmentation on transmit", kPath)
          .real("udp_rx_instructions", &P::udp_rx_instructions, "instructions", 0, 1e6,
                "per received datagram: UDP receive, socket lookup, queueing, wakeup check", kPath)
          .real("tcp_rx_instructions", &P::tcp_rx_instructions, "instructions", 0, 1e6,
                "per received TCP segment (per GRO aggregate with GRO)", kPath)
          .real("gro_instructions", &P::gro_instructions, "instructions", 0, 1e6,
                "per frame merged by GRO", kPath)
          .real("tcp_ack_tx_instructions", &P::tcp_ack_tx_instructions, "instructions", 0, 1e6,
                "building and sending one ACK (TCP and IP output)", kPath)
          .real("tcp_ack_rx_instructions", &P::tcp_ack_rx_instructions, "instructions", 0, 1e6,
                "sender: one received ACK (retransmit queue clean-up, congestion control)", kPath)
          .real("send_call_instructions", &P::send_call_instructions, "instructions", 0, 1e6,
                "per send call: socket layer (sendmsg) beyond the system call entry/exit", kPath)
          .real("udp_tx_instructions", &P::udp_tx_instructions, "instructions", 0, 1e6,
                "per sent datagram: UDP and IP output, neighbour, qdisc", kPath)
          .real("tcp_tx_instructions", &P::tcp_tx_instructions, "instructions", 0, 1e6,
                "per sent TCP segment: skb build, TCP and IP output, qdisc", kPath)
          .real("tx_frame_instructions", &P::tx_frame_instructions, "instructions", 0, 1e6,
                "driver transmit per frame: descriptor, DMA map, doorbell", kPath)
          .real("tx_complete_instructions", &P::tx_complete_instructions, "instructions", 0, 1e6,
                "per frame reaped after transmission: unmap, free", kPath)
          .real("recv_call_instructions", &P::recv_call_instructions, "instructions", 0, 1e6,
                "per receive call: socket layer (recvmsg, dequeue) beyond the system call "
                "entry/exit",
                kPath)
          .real("csum_instructions_per_byte", &P::csum_instructions_per_byte, "instructions", 0,
                100,
                "software TCP/UDP checksum per byte where the MAC does not offload it (folded "
                "into the copy loop)",
                "calibrated: ARM csum_partial adds one word per ADCS, loads by LDM")
          .real("path_factor", &P::path_factor, "ratio", 0.2, 10,
                "the stack's per-packet network paths relative to the path lengths above (a "
                "kernel variant's longer paths); not the checksum loop",
                "socsim: 1 for the base stack file; a variant's own value is calibrated")
          .flag("rx_copy", &P::rx_copy, "received payload is copied to the application",
                "Linux recvmsg copies; lwIP hands pbufs over")
          .flag("tx_copy", &P::tx_copy, "sent payload is copied from the application",
                "Linux sendmsg copies; lwIP tcp_write with TCP_WRITE_FLAG_COPY copies")
          .integer("rx_descriptors", &P::rx_descriptors, "count", 1, 65536,
                   "receive descriptors (buffers) the driver keeps posted to the DMA",
                   "calibrated: driver ring size")
          .integer("tx_descriptors", &P::tx_descriptors, "count", 1, 65536,
                   "transmit descriptors of the driver's ring", "calibrated: driver ring size")
          .integer("tx_queue_len", &P::tx_queue_len, "count", 0, 1 << 20,
                   "qdisc queue in front of the transmit ring (frames)",
                   "Linux default txqueuelen 1000")
          .integer("napi_budget", &P::napi_budget, "count", 1, 4096,
                   "frames one poll handles before polling again", "Linux NAPI_POLL_WEIGHT 64")
          .bytes("rcvbuf", &P::rcvbuf_bytes, 1024, 1ull << 32,
                 "socket receive buffer (truesize accounted)", "Linux net.core.rmem_default")
          .bytes("sndbuf", &P::sndbuf_bytes, 1024, 1ull << 32,
                 "socket send buffer (truesize accounted)", "Linux net.core.wmem_default")
          .flag("udp_send_buffer", &P::udp_send_buffer,
                "a UDP send waits while the socket's send buffer (sndbuf, truesize accounted) "
                "is full; false: the datagram goes to the driver at once",
                "Linux sock_alloc_send_skb against SO_SNDBUF; lwIP udp_sendto has no send "
                "buffer")
          .integer("rx_truesize_bytes", &P::rx_truesize_bytes, "bytes", 64, 1 << 20,
                   "receive-buffer accounting per frame (skb truesize of a driver RX buffer)",
                   "Linux skb truesize of a 2 KiB page fragment plus struct sk_buff")
          .integer("skb_overhead_bytes", &P::skb_overhead_bytes, "bytes", 0, 1 << 20,
                   "send-buffer accounting per skb beyond its data",
                   "Linux sizeof(struct sk_buff) + skb_shared_info")
          .flag("software_checksum", &P::software_checksum,
                "the stack computes L4 checksums on the core even when the MAC offloads them",
                "the stack's checksum configuration (Linux: uses the MAC's offload)")
          .flag("packet_memory_cached", &P::packet_memory_cached,
                "packet memory (DMA buffers, descriptors, buffer headers) is cacheable for the "
                "core; false: every access to it is a memory round trip",
                "the platform's memory attributes (Linux: cached, DMA API cache maintenance)")
          .real("packet_accesses_per_frame", &P::packet_accesses_per_frame, "count", 0, 1e5,
                "loads/stores of driver and stack to one frame's packet memory (descriptor, "
                "buffer header, protocol headers): a memory round trip each when not cached",
                "counted from the driver and stack source (0: none beyond the path lengths)")
          .real("task_switches_per_frame", &P::task_switches_per_frame, "count", 0, 100,
                "RTOS task switches per received frame (driver task to stack thread and back)",
                "the stack's threading (Linux: none, NAPI runs in softirq)")
          .real("task_switch_instructions", &P::task_switch_instructions, "instructions", 0,
                1e6, "one RTOS task switch with its queue post and receive",
                "the RTOS's queue and scheduler source")
          .flag("gro", &P::gro, "generic receive offload merges TCP segments per poll",
                "Linux NETIF_F_GRO (on by default)")
          .integer("gro_max_segments", &P::gro_max_segments, "count", 1, 1024,
                   "segments one GRO aggregate holds", "Linux GRO 64 KiB limit / MSS")
          .integer("gso_max_segments", &P::gso_max_segments, "count", 1, 1024,
                   "segments one TCP skb holds for a MAC that segments it (TSO)",
                   "Linux GSO_MAX_SIZE 64 KiB / MSS")
          .integer("delayed_ack_segments", &P::delayed_ack_segments, "count", 1, 64,
                   "full segments received before an ACK is sent",
                   "RFC 1122 / RFC 5681: ACK at least every second full segment")
          .integer("tcp_option_bytes", &P::tcp_option_bytes, "bytes", 0, 40,
                   "TCP options per segment (timestamps 12)", "Linux tcp_timestamps=1; lwIP none")
          .real("tcp_default_window_bytes", &P::tcp_default_window_bytes, "bytes", 1024, 1e9,
                "receive window when the tool sets none (autotuning maximum, or the stack's "
                "fixed window)",
                "Linux net.ipv4.tcp_rmem max / lwIP TCP_WND")
          .flag("pacing_default", &P::pacing_default,
                "the driver paces its interrupts on rows that do not say (rows named 'Interrupt "
                "Pacing' / 'No Interrupt Pacing' set it)",
                "the driver's default configuration")
          .real("pacing_interval_us", &P::pacing_interval_us, "us", 0, 1e6,
                "minimum interval between interrupts when interrupt pacing is on (the rows "
                "marked Interrupt Pacing)",
                "calibrated: the pacing setting of the guides' runs is not stated")
          .real("irq_latency_us", &P::irq_latency_us, "us", 0, 1e4,
                "interrupt assertion to handler start (controller, exception entry)",
                "calibrated: GIC delivery and exception entry, about 1 us")
          .real("rx_poll_period_us", &P::rx_poll_period_us, "us", 0, 1e6,
                "0: the driver is interrupt driven; > 0: it keeps its DMA events off and a "
                "periodic timer wakes its receive task (RX frames and TX completions), buffers "
                "handed to the stack return to the DMA at the next tick",
                "the driver's design (Linux NAPI drivers: 0)")
          .real("app_stall_ms", &P::app_stall_ms, "ms", 0, 1e4,
                "longest time a receiving application waits for its core during a trial (timer "
                "ticks, kernel threads, other tasks): received datagrams pile up in its socket "
                "meanwhile",
                "calibrated: Linux scheduling latency of a few ms on an idle system")
          .real("app_stall_period_ms", &P::app_stall_period_ms, "ms", 1, 1e7,
                "how often such a stall happens", "calibrated: about once per second");
  return s;
}

const params::Schema<NetToolParams>& NetToolParams::schema() {
  using P = NetToolParams;
  static const auto s =
      params::Schema<P>("net_tool")
          .text("name", &P::name, "tool name and version", "the guide's set-up")
          .required()
          .text("description", &P::description, "how the guide ran the tool", "the guide")
          .text("app_profile", &P::app_profile,
                "instruction profile of the tool's own code (path relative to this file)",
                "configs/workloads/net/profiles")
          .required()
          .real("send_instructions", &P::send_instructions, "instructions", 0, 1e7,
                "the tool's own work per send call (timing, rate control, bookkeeping)", kTool)
          .real("recv_instructions", &P::recv_instructions, "instructions", 0, 1e7,
                "the tool's own work per receive call", kTool)
          .flag("udp_spin", &P::udp_spin, "the UDP sender busy-waits for the next datagram's time",
                "the tool's source (iperf 2.0.5 delay_loop)")
          .choice("tcp_direction", &P::tcp_direction, {"rx", "tx", "bidir"},
                  "which way the DUT moves TCP data when the row does not say",
                  "the guide's set-up")
          .real("udp_rate_mbps", &P::udp_rate_mbps, "Mbit/s", 0, 1e6,
                "UDP sender rate limit (-b) when the row does not give one; 0 = line rate",
                "the guide's set-up")
          .integer("tcp_send_bytes", &P::tcp_send_bytes, "bytes", 1, 1 << 26,
                   "bytes per TCP send call", "the tool's default buffer length")
          .integer("tcp_recv_bytes", &P::tcp_recv_bytes, "bytes", 1, 1 << 26,
                   "bytes per TCP receive call (at most what is queued)",
                   "the tool's default buffer length")
          .real("peer_datagram_us", &P::peer_datagram_us, "us", 0, 1e6,
                "the peer PC as a UDP sender: its time per datagram (the tool's send loop and the "
                "PC's sendto path); it sends no faster; 0 = as fast as the line carries",
                "calibrated: measurement set-up; a PC's UDP send path, about a microsecond")
          .real("peer_byte_ns", &P::peer_byte_ns, "ns", 0, 1e6,
                "the peer PC as a UDP sender: its time per payload byte, a payload-rate limit "
                "pipelined with peer_datagram_us (a datagram takes the longer of the two); "
                "0 = none",
                "calibrated: measurement set-up (the tester PC's send path)")
          .real("peer_turnaround_us", &P::peer_turnaround_us, "us", 0, 1e6,
                "the peer PC as an ideal endpoint: time from a frame's arrival to its response "
                "(ACK, next segment)",
                "calibrated: measurement set-up; a PC's stack and NIC, tens of us")
          .real("burst_period_ms", &P::burst_period_ms, "ms", 0.001, 1e4,
                "interval of the RFC 2544 burst trials (netperf -w)", "the guide's set-up")
          .integer("app_on_irq_core_max_cores", &P::app_on_irq_core_max_cores, "cores", 0, 1024,
                   "on a DUT whose OS runs on at most this many cores, the tool's (first) "
                   "process shares the core taking the Ethernet interrupts; 0 = never",
                   "set-up interpretation: where the kernel's scheduler puts the tool")
          .real("max_rate_loss_percent", &P::max_rate_loss_percent, "%", 0, 100,
                "a 'max rate' row is the highest offered rate whose loss stays below this",
                "the guide's set-up (its max-rate row reports about 1 % loss)")
          .real("warmup_ms", &P::warmup_ms, "ms", 0, 1e5,
                "simulated time before measuring (steady state)", "simulation setting")
          .real("duration_ms", &P::duration_ms, "ms", 0.01, 1e5, "simulated time measured",
                "simulation setting");
  return s;
}

namespace {

template <class T>
T readTop(const std::string& file, const char* group, const char* pathKey,
          const std::string T::*pathField, std::string& resolved) {
  const config::Node root = config::loadMapFile(file);
  config::rejectUnknownGroups(root, {group});  // the file holds one group
  const config::Node* g = &config::requireGroup(root, file, group);
  T obj{};
  config::readFileGroup(root, file, group, obj);
  // A relative path is relative to the file that wrote it (a preset may hold it).
  std::string base = file;
  const config::Node* n = g->find(pathKey);
  if (n && !n->file.empty()) base = n->file;
  const std::string rel = obj.*pathField;
  resolved = (fs::path(base).parent_path() / rel).lexically_normal().string();
  std::error_code ec;
  if (!fs::is_regular_file(resolved, ec))
    throw InputError(n ? n->file : file, n ? n->line : g->line, std::string(group) + "." + pathKey,
                     "profile file '" + rel + "' not found (looked for " + resolved + ")");
  return obj;
}

}  // namespace

NetStack loadNetStack(const std::string& file) {
  NetStack s;
  s.file = file;
  s.p = readTop<NetStackParams>(file, "stack", "code_profile", &NetStackParams::code_profile,
                                s.codeProfileFile);
  return s;
}

NetTool loadNetTool(const std::string& file) {
  NetTool t;
  t.file = file;
  t.p = readTop<NetToolParams>(file, "tool", "app_profile", &NetToolParams::app_profile,
                               t.appProfileFile);
  return t;
}

std::string defaultNetDir() {
  return socsim::configsDir() + "/workloads/net";
}

}  // namespace socsim::wl::net
