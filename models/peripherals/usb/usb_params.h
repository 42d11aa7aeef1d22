#pragma once
/// @file usb_params.h
/// @brief Parameters of a USB controller used as a mass-storage host (MUSB, xHCI/DWC3) or as a
///        mass-storage gadget. The disk is a StorageDeviceParams preset.
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct UsbHostParams {
  std::string name = "xhci";
  int bot_stages_microframes = 2;     ///< CBW and CSW stages of a Bulk-Only command, microframes
  double packet_overhead_ns = 0;      ///< host time per max-size packet the pipe waits for (DMA re-arm)
  std::uint64_t max_request_bytes = 122880;  ///< usb-storage max_sectors (240 sectors at high speed)
  double dma_mbps = 1000;
  double driver_request_instructions = 15000;  ///< usb-storage + SCSI + HCD per request
  double driver_packet_instructions = 0;       ///< per packet when the driver handles packets
  int irqs_per_request = 3;
  /// Host reads move one max-size packet per DMA descriptor: each packet's completion
  /// interrupt reloads the descriptor and requests the next IN packet, so that work is on the
  /// critical path (and driver_packet_instructions apply to reads only).
  bool rx_one_packet_per_dma = false;
  double rx_packet_latency_ns = 0;  ///< per RX packet: DMA completion -> interrupt -> next IN token
  std::uint64_t gadget_buffer_bytes = 16384;   ///< f_mass_storage buffer per request
  double gadget_request_us = 30;               ///< device-side turnaround per gadget request

  static const params::Schema<UsbHostParams>& schema() {
    using P = UsbHostParams;
    static const auto s =
        params::Schema<P>("usb_host")
            .text("name", &P::name, "controller IP family (musb, xhci)", "SoC TRM USB chapter")
            .integer("bot_stages_microframes", &P::bot_stages_microframes, "microframes", 0, 64,
                     "microframes the CBW and CSW stages of one Bulk-Only command take",
                     "USB Mass Storage Bulk-Only Transport 1.0 (one bulk OUT and one bulk IN "
                     "stage per command)")
            .real("packet_overhead_ns", &P::packet_overhead_ns, "ns", 0, 1e6,
                  "host time per max-size packet the pipe waits for (per-packet DMA re-arm)",
                  "calibrated: 0 for ring-based hosts (xHCI)")
            .bytes("max_request_bytes", &P::max_request_bytes, 512, 1ull << 32,
                   "largest SCSI request per command",
                   "Linux drivers/usb/storage/scsiglue.c (240 sectors; 2048 at super speed)")
            .real("dma_mbps", &P::dma_mbps, "MB/s", 1, 1e5, "host DMA ceiling",
                  "calibrated: the controller's bus master")
            .real("driver_request_instructions", &P::driver_request_instructions,
                  "instructions", 0, 1e7, "Linux usb-storage + SCSI + HCD work per request",
                  "calibrated: order of the usb-storage path")
            .real("driver_packet_instructions", &P::driver_packet_instructions, "instructions",
                  0, 1e6, "driver work per packet (controllers without transfer-level DMA)",
                  "calibrated: 0 for ring-based hosts")
            .integer("irqs_per_request", &P::irqs_per_request, "count", 0, 1000,
                     "interrupts per mass-storage command (CBW, data, CSW)",
                     "USB Bulk-Only Transport (three stages)")
            .flag("rx_one_packet_per_dma", &P::rx_one_packet_per_dma,
                  "host reads move one max-size packet per DMA descriptor (per-packet completion "
                  "interrupt and reload on the critical path; the per-packet driver work applies "
                  "to reads only)",
                  "Linux drivers/usb/musb/musb_cppi41.c: AM335x advisory 1.0.13, RX falls back to "
                  "transparent mode with one packet per descriptor and reloads in the completion "
                  "callback; TX uses generic RNDIS mode (whole transfer)")
            .real("rx_packet_latency_ns", &P::rx_packet_latency_ns, "ns", 0, 1e6,
                  "per RX packet moved one at a time: DMA completion to interrupt and from the "
                  "reload to the next IN token, beyond the CPU work",
                  "calibrated: CPPI 4.1 completion queue and the USBSS interrupt, microseconds")
            .bytes("gadget_buffer_bytes", &P::gadget_buffer_bytes, 512, 1ull << 30,
                   "bytes per request of the mass-storage gadget",
                   "Linux drivers/usb/gadget/function/storage_common.h (FSG_BUFLEN 16 KiB)")
            .real("gadget_request_us", &P::gadget_request_us, "us", 0, 1e6,
                  "device-side turnaround per gadget request (UDC completion to next queue)",
                  "calibrated: interrupt plus gadget thread wake-up");
    return s;
  }
};

}  // namespace socsim::models
