#pragma once
/// @file mcu_params.h
/// @brief Parameters of the MCU+ SDK (no RTOS) driver paths of guide 004 (workloads/mcu/): IPC
///        Notify / RPMsg, the MCAN and MCSPI drivers, and the USB RNDIS + lwIP TCP path.
///        Software work is in instructions (run on the core model of the core that executes
///        it); bus accesses to peripheral registers and shared memory in ns. Loaded from
///        configs/workloads/mcu/mcu.yaml. Sources starting with "calibrated" are free
///        parameters (initial estimates, not fitted).
#include <cstdint>
#include <string>

#include "common/params.h"
#include "models/peripherals/mcspi/mcspi.h"

namespace socsim::wl::mcu {

/// Costs common to all MCU+ drivers. A non-posted read crosses the board's interconnect and back
/// (interconnect latency_cycles at its clock, from the board config) plus, for a peripheral
/// register, the peripheral bridge, or for shared SRAM one SRAM cycle.
struct McuBusParams {
  double peripheral_bridge_read_ns = 60;  ///< peripheral read beyond the fabric round trip
  double mmio_write_ns = 15;              ///< one posted peripheral register write
  double shared_write_ns = 10;            ///< one 32-bit posted write of non-cached shared memory
  double m4f_bus_factor = 2.0;            ///< M4F accesses through the MCU-to-main bridge: x this
  double r5f_irq_latency_cycles = 30;     ///< interrupt to first ISR instruction (VIM + entry)
  double m4f_irq_latency_cycles = 12;     ///< interrupt to first ISR instruction (NVIC)
  int l1_hit_cycles = 1;                  ///< load-to-use of driver data in cache/TCM
  static const params::Schema<McuBusParams>& schema();
};

struct IpcParams {
  double notify_send_instructions = 120;     ///< IpcNotify_sendMsg: checks, FIFO full test, write
  double notify_isr_instructions = 200;      ///< mailbox ISR: status, read, dispatch, clear
  double notify_callback_instructions = 60;  ///< the echo test's callback
  int mailbox_reads_per_receive = 3;         ///< IRQ status, FIFO message status, message
  int mailbox_writes_per_send = 1;           ///< message into the FIFO
  int mailbox_writes_per_receive = 1;        ///< IRQ status clear
  double interrupt_propagation_ns = 40;      ///< mailbox -> interrupt router -> core controller
  double rpmsg_send_instructions = 350;      ///< RPMessage_send: vring buffer, header, notify
  double rpmsg_receive_instructions = 450;   ///< vring used, endpoint lookup, copy-out, free
  std::uint64_t rpmsg_header_bytes = 16;     ///< RPMsg header in the vring buffer
  /// Bytes per access of the vring copies (memcpy into and out of non-cached shared memory).
  std::uint64_t rpmsg_copy_access_bytes = 4;
  /// Waking the task blocked in RPMessage_recv: semaphore post from the notify ISR, scheduler,
  /// context switch, semaphore pend return (instructions, per received message).
  double rpmsg_task_wake_instructions = 0;
  /// The RPMsg latency test's exchanges and the count its printout divides by (the printed
  /// one-way latency is the loop's time / (2 x rpmsg_reported_messages)).
  int rpmsg_loop_messages = 1;
  int rpmsg_reported_messages = 1;
  static const params::Schema<IpcParams>& schema();
};

struct McanTestParams {
  int std_id = 0xC0;                 ///< 11-bit identifier of the standard-format test frames
  int ext_id = 0x10000000;           ///< 29-bit identifier of the extended-format frames
  int payload_bytes = 64;            ///< CAN FD payload per message
  double tx_instructions = 250;      ///< MCAN_writeMsgRam + add request, per message
  double rx_instructions = 300;      ///< new-data check, MCAN_readMsgRam, flags, per message
  int msg_ram_header_words = 2;      ///< message RAM element header (T0/T1, R0/R1)
  int status_reads_per_message = 4;  ///< TX-done and RX new-data polls, interrupt status
  static const params::Schema<McanTestParams>& schema();
};

struct McspiDriverParams {
  double transfer_setup_instructions = 1500;  ///< MCSPI_transfer: checks, channel config
  int transfer_setup_mmio_writes = 8;         ///< channel config, word count, enable
  double polled_word_instructions = 30;       ///< polled loop per word
  int polled_word_mmio_reads = 3;             ///< CH_STAT for TXS, CH_STAT for RXS, RX
  double irq_instructions = 250;              ///< one FIFO-level interrupt (entry to exit)
  double irq_word_instructions = 12;          ///< per word moved inside the ISR
  double dma_setup_instructions = 20000;      ///< UDMA TR/ring set-up, cache ops, per transfer
  double dma_event_ns = 700;                  ///< one DMA event (word request -> TR -> done)
  static const params::Schema<McspiDriverParams>& schema();
};

struct RndisParams {
  std::uint64_t mss_bytes = 1460;           ///< TCP maximum segment size
  std::uint64_t frame_overhead_bytes = 98;  ///< Ethernet 14 + IP 20 + TCP 20 + RNDIS 44
  std::uint64_t tcp_snd_buf_bytes = 5840;   ///< lwIP TCP_SND_BUF (unacknowledged data)
  double lwip_segment_instructions = 4000;  ///< lwIP tcp_write/tcp_output/ip/netif per segment
  double usb_transfer_instructions = 2500;  ///< TinyUSB RNDIS + device-controller driver per frame
  double host_ack_us = 100;                 ///< host: USB completion -> rndis_host -> TCP ACK back
  double bulk_in_retry_us = 125;            ///< host's retry of a NAKed bulk IN (one microframe)
  static const params::Schema<RndisParams>& schema();
};

struct McuData {
  McuBusParams bus;
  IpcParams ipc;
  McanTestParams mcan;
  models::McspiParams mcspiController;  ///< the McSPI controller (wire timing, FIFO)
  McspiDriverParams mcspi;
  RndisParams rndis;
};

/// Load configs/workloads/mcu/mcu.yaml. @throws InputError naming file and line.
McuData loadMcuData(const std::string& file);

}  // namespace socsim::wl::mcu
