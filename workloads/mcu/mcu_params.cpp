#include "workloads/mcu/mcu_params.h"

#include "common/error.h"
#include "soc/config/config_tree.h"
#include "soc/config/group_file.h"
#include "soc/config/schema_io.h"

namespace socsim::wl::mcu {

namespace {
constexpr const char* kEst =
    "calibrated: estimate from the MCU+ SDK 09.01 driver code path named in the description "
    "(no published count)";
}

const params::Schema<McuBusParams>& McuBusParams::schema() {
  using P = McuBusParams;
  static const auto s =
      params::Schema<P>("mcu_bus")
          .real("peripheral_bridge_read_ns", &P::peripheral_bridge_read_ns, "ns", 0, 1e5,
                "a peripheral register read from an MCU core beyond the interconnect round trip "
                "(the bridge to the peripheral's bus and the register access; non-posted, the "
                "core stalls)",
                "calibrated: AM64x TRM interconnect chapter (CBASS to the peripheral VBUSP "
                "bridges) gives no number")
          .real("mmio_write_ns", &P::mmio_write_ns, "ns", 0, 1e5,
                "one posted peripheral register write", "calibrated: posted write, a few cycles")
          .real("shared_write_ns", &P::shared_write_ns, "ns", 0, 1e5,
                "one 32-bit posted write to non-cached shared memory", "calibrated")
          .real("m4f_bus_factor", &P::m4f_bus_factor, "ratio", 1, 20,
                "bus access time of the M4F relative to an R5F (MCU domain, through the "
                "MCU-to-main bridge)",
                "calibrated: AM64x TRM: M4F in the MCU domain reaches MSRAM/mailboxes through "
                "the domain bridge")
          .real("r5f_irq_latency_cycles", &P::r5f_irq_latency_cycles, "cycles", 0, 1e4,
                "interrupt assertion to first ISR instruction on an R5F (VIM vector, exception "
                "entry)",
                "Arm Cortex-R5 TRM r1p2 (DDI 0460) §3.8: 20+ cycles interrupt latency; plus VIM")
          .real("m4f_irq_latency_cycles", &P::m4f_irq_latency_cycles, "cycles", 0, 1e4,
                "interrupt assertion to first ISR instruction on the M4F",
                "Arm Cortex-M4 TRM r0p1 (DDI 0439) §2.3: 12-cycle interrupt latency")
          .integer("l1_hit_cycles", &P::l1_hit_cycles, "cycles", 0, 100,
                   "load-to-use of driver data in L1 cache / TCM (driver code runs warm)",
                   "Cortex-R5/M4 TRMs: single-cycle TCM/cache access");
  return s;
}

const params::Schema<IpcParams>& IpcParams::schema() {
  using P = IpcParams;
  static const auto s =
      params::Schema<P>("ipc")
          .real("notify_send_instructions", &P::notify_send_instructions, "instructions", 0, 1e6,
                "IpcNotify_sendMsg: argument checks, FIFO-full test, message write", kEst)
          .real("notify_isr_instructions", &P::notify_isr_instructions, "instructions", 0, 1e6,
                "IpcNotify mailbox ISR: pending status, message read, client dispatch, clear", kEst)
          .real("notify_callback_instructions", &P::notify_callback_instructions, "instructions", 0,
                1e6, "the ipc_notify_echo test's callback (echo or count)", kEst)
          .integer("mailbox_reads_per_receive", &P::mailbox_reads_per_receive, "count", 0, 100,
                   "mailbox register reads per received message",
                   "AM64x TRM mailbox: IRQSTATUS, MSGSTATUS, MESSAGE registers")
          .integer("mailbox_writes_per_send", &P::mailbox_writes_per_send, "count", 0, 100,
                   "mailbox register writes per sent message", "AM64x TRM mailbox: MESSAGE")
          .integer("mailbox_writes_per_receive", &P::mailbox_writes_per_receive, "count", 0, 100,
                   "mailbox register writes per received message (status clear)",
                   "AM64x TRM mailbox: IRQSTATUS_CLR")
          .real("interrupt_propagation_ns", &P::interrupt_propagation_ns, "ns", 0, 1e5,
                "mailbox interrupt through the interrupt router to the core's controller",
                "calibrated: a few interconnect clock cycles")
          .real("rpmsg_send_instructions", &P::rpmsg_send_instructions, "instructions", 0, 1e6,
                "RPMessage_send: free vring buffer, header, used ring update, IpcNotify", kEst)
          .real("rpmsg_receive_instructions", &P::rpmsg_receive_instructions, "instructions", 0,
                1e6, "RPMessage receive: used ring, endpoint lookup, copy-out call, buffer return",
                kEst)
          .bytes("rpmsg_header_bytes", &P::rpmsg_header_bytes, 0, 4096,
                 "RPMsg header written with each message",
                 "MCU+ SDK ipc_rpmsg_priv.h RPMessage_Header (src, dst, len, flags: 16 bytes)")
          .bytes("rpmsg_copy_access_bytes", &P::rpmsg_copy_access_bytes, 1, 64,
                 "bytes per access of the vring copies (memcpy into and out of non-cached "
                 "shared memory): one posted write or one read round trip each",
                 "calibrated: the copy routine's access width on non-cached memory")
          .real("rpmsg_task_wake_instructions", &P::rpmsg_task_wake_instructions, "instructions",
                0, 1e6,
                "waking the task blocked in RPMessage_recv: semaphore post in the notify ISR, "
                "scheduler and context switch, pend return (per received message)",
                kEst)
          .integer("rpmsg_loop_messages", &P::rpmsg_loop_messages, "count", 1, 1 << 30,
                   "round trips the RPMsg latency test runs",
                   "the test's source (MCU+ SDK test_ipc_rpmsg.c)")
          .integer("rpmsg_reported_messages", &P::rpmsg_reported_messages, "count", 1, 1 << 30,
                   "the count the RPMsg latency test's printout divides by (x 2 for one way)",
                   "the test's source (MCU+ SDK test_ipc_rpmsg.c)");
  return s;
}

const params::Schema<McanTestParams>& McanTestParams::schema() {
  using P = McanTestParams;
  static const auto s =
      params::Schema<P>("mcan_test")
          .integer("std_id", &P::std_id, "identifier", 0, 0x7FF,
                   "11-bit identifier of the standard-format frames",
                   "set-up fact: MCU+ SDK MCAN examples (APP_MCAN_STD_ID 0xC0; background "
                   "knowledge: unverified)")
          .integer("ext_id", &P::ext_id, "identifier", 0, 0x1FFFFFFF,
                   "29-bit identifier of the extended-format frames",
                   "set-up fact: MCU+ SDK MCAN examples (APP_MCAN_EXT_ID 0x10000000; background "
                   "knowledge: unverified)")
          .integer("payload_bytes", &P::payload_bytes, "bytes", 0, 64, "payload per message",
                   "guide 004 'Data Phase bits 538' = ESI + DLC + 64 x 8 + CRC-21")
          .real("tx_instructions", &P::tx_instructions, "instructions", 0, 1e6,
                "MCAN_writeMsgRam + MCAN_txBufAddReq per message", kEst)
          .real("rx_instructions", &P::rx_instructions, "instructions", 0, 1e6,
                "MCAN_getNewDataStatus, MCAN_readMsgRam, MCAN_clearNewDataStatus per message", kEst)
          .integer("msg_ram_header_words", &P::msg_ram_header_words, "words", 0, 16,
                   "message RAM element header words (written on TX, read on RX)",
                   "Bosch M_CAN user manual: Tx buffer element T0/T1, Rx element R0/R1")
          .integer("status_reads_per_message", &P::status_reads_per_message, "count", 0, 1000,
                   "status register reads per message (TX occurrence, new data, interrupt)", kEst);
  return s;
}

const params::Schema<McspiDriverParams>& McspiDriverParams::schema() {
  using P = McspiDriverParams;
  static const auto s =
      params::Schema<P>("mcspi_driver")
          .real("transfer_setup_instructions", &P::transfer_setup_instructions, "instructions", 0,
                1e7, "MCSPI_transfer: checks, channel configuration, completion", kEst)
          .integer("transfer_setup_mmio_writes", &P::transfer_setup_mmio_writes, "count", 0, 1000,
                   "register writes to start a transfer (CH_CONF, XFERLEVEL, CH_CTRL, ...)",
                   "AM64x TRM McSPI programming model")
          .real("polled_word_instructions", &P::polled_word_instructions, "instructions", 0, 1e5,
                "polled mode: loop per word (FIFO space check, write, read back)", kEst)
          .integer("polled_word_mmio_reads", &P::polled_word_mmio_reads, "count", 0, 100,
                   "register reads per word in polled mode",
                   "AM64x TRM McSPI: CH_STAT TXS, "
                   "CH_STAT RXS, RX register")
          .real("irq_instructions", &P::irq_instructions, "instructions", 0, 1e6,
                "interrupt mode: one FIFO-level interrupt, entry to exit", kEst)
          .real("irq_word_instructions", &P::irq_word_instructions, "instructions", 0, 1e5,
                "interrupt mode: per word moved inside the ISR", kEst)
          .real("dma_setup_instructions", &P::dma_setup_instructions, "instructions", 0, 1e9,
                "DMA mode: UDMA TR and ring set-up, cache write-back/invalidate, per transfer",
                kEst)
          .real("dma_event_ns", &P::dma_event_ns, "ns", 0, 1e6,
                "DMA mode: one word event (McSPI DMA request -> PDMA/UDMA TR -> completion)",
                "calibrated: K3 PSI-L/PDMA event round trip, order of a microsecond");
  return s;
}

const params::Schema<RndisParams>& RndisParams::schema() {
  using P = RndisParams;
  static const auto s =
      params::Schema<P>("rndis")
          .bytes("mss_bytes", &P::mss_bytes, 64, 65536, "TCP maximum segment size",
                 "TinyUSB net_lwip_webserver lwipopts.h TCP_MSS (1500 mtu - 20 iphdr - 20 tcphdr)")
          .bytes(
              "frame_overhead_bytes", &P::frame_overhead_bytes, 0, 4096,
              "per segment on the USB link: Ethernet + IP + TCP headers + RNDIS packet header",
              "IEEE 802.3 (14), RFC 791 (20), RFC 793 (20), MS-RNDIS REMOTE_NDIS_PACKET_MSG (44)")
          .bytes("tcp_snd_buf_bytes", &P::tcp_snd_buf_bytes, 1, 1ull << 30,
                 "lwIP TCP_SND_BUF: data in flight before an ACK is needed",
                 "TinyUSB examples/device/net_lwip_webserver/src/lwipopts.h TCP_SND_BUF (4 * "
                 "TCP_MSS); the rndis_nortos example derives from it (same 192.168.7.1 address; "
                 "assumption)")
          .real("lwip_segment_instructions", &P::lwip_segment_instructions, "instructions", 0, 1e7,
                "lwIP per TCP segment: tcp_write/tcp_output, IP, netif, pbuf", kEst)
          .real("usb_transfer_instructions", &P::usb_transfer_instructions, "instructions", 0, 1e7,
                "TinyUSB RNDIS class + device-controller driver per Ethernet frame", kEst)
          .real("host_ack_us", &P::host_ack_us, "us", 0, 1e6,
                "host side: USB completion interrupt (moderated), rndis_host, TCP ACK back "
                "over bulk OUT",
                "calibrated: Linux xHCI interrupt moderation 40 us + host stack + next "
                "microframe")
          .real("bulk_in_retry_us", &P::bulk_in_retry_us, "us", 0, 1e5,
                "interval at which the host retries a bulk IN endpoint that NAKed: a frame the "
                "device arms after the host's last poll leaves at the next retry",
                "USB 2.0 spec 5.8.4 / EHCI 1.0 4.10.3: a NAKed high-speed bulk endpoint is "
                "retried once its NAK counter reloads, at the next 125 us microframe");
  return s;
}

McuData loadMcuData(const std::string& file) {
  const config::Node root = config::loadMapFile(file);
  McuData d;
  config::readFileGroup(root, file, "mcu_bus", d.bus);
  config::readFileGroup(root, file, "ipc", d.ipc);
  config::readFileGroup(root, file, "mcan_test", d.mcan);
  config::readFileGroup(root, file, "mcspi", d.mcspiController);
  config::readFileGroup(root, file, "mcspi_driver", d.mcspi);
  config::readFileGroup(root, file, "rndis", d.rndis);
  config::rejectUnknownGroups(root, {"mcu_bus", "ipc", "mcan_test", "mcspi", "mcspi_driver", "rndis"});
  return d;
}

}  // namespace socsim::wl::mcu
