#pragma once
/// @file cpsw_params.h
/// @brief Parameters of one Ethernet MAC/switch IP with its DMA: TI CPSW (3-port CPSW_3G of
///        AM335x/AM57xx, CPSW2g/CPSW3g/CPSW9g of K3), the DaVinci EMAC of OMAP-L138 and the
///        Keystone NetCP GbE subsystem. Variants are presets (configs/components/peripherals/);
///        the board's peripheral group holds the facts (link speed, ports, clock) and this
///        `cpsw` subgroup the modelling parameters of the IP.
///
/// Ethernet framing (preamble, IFG, header, FCS, minimum frame) is the IEEE 802.3 standard and
/// lives in code (models/peripherals/cpsw/cpsw.h); the MTU is here because the OS sets it.
/// Fields whose source starts with "calibrated" are free parameters scoped to the IP (issue 9).
#include <cstdint>
#include <string>

#include "common/params.h"

namespace socsim::models {

struct CpswParams {
  std::string dma = "cpdma";            ///< cpdma | udma | pktdma | pcie: the host-port DMA engine
  int descriptor_bytes = 16;            ///< one buffer descriptor as the DMA reads/writes it
  int dma_burst_bytes = 64;             ///< largest bus transaction of the DMA engine
  int dma_outstanding = 4;              ///< bus transactions the DMA keeps in flight
  double dma_packet_overhead_ns = 200;  ///< per packet: channel arbitration, descriptor handling
  std::uint64_t rx_fifo_bytes = 16384;  ///< receive FIFO of the port (frames wait here for DMA)
  std::uint64_t tx_fifo_bytes = 16384;  ///< transmit FIFO of the port
  double switch_latency_ns = 1000;      ///< store-and-forward: last byte in to DMA start
  bool rx_checksum_offload = false;     ///< the IP verifies IPv4 TCP/UDP checksums on receive
  bool tx_checksum_offload = false;     ///< the IP inserts TCP/UDP checksums on transmit
  bool interrupt_pacing = true;         ///< the IP can pace (coalesce) its host interrupts
  bool tso_offload = false;             ///< the IP segments TCP (the stack sends 64 KiB skbs)
  int mtu_bytes = 1500;                 ///< IP MTU of the interface (OS setting)

  static const params::Schema<CpswParams>& schema() {
    using P = CpswParams;
    static const auto s =
        params::Schema<P>("cpsw")
            .choice("dma", &P::dma, {"cpdma", "udma", "pktdma", "pcie"},
                    "host-port DMA engine: CPDMA (AM335x/AM57xx CPSW, DaVinci EMAC), UDMA/"
                    "packet DMA of K3 NAVSS/DMSS (CPSW2g/3g/9g), Keystone packet DMA (NetCP), "
                    "bus-master DMA of a PCIe-attached NIC through the root complex (pcie)",
                    "SoC TRM Ethernet subsystem chapter")
            .integer("descriptor_bytes", &P::descriptor_bytes, "bytes", 8, 512,
                     "one buffer descriptor as the DMA fetches and writes it back",
                     "SoC TRM: CPDMA buffer descriptor 4 words; K3 host packet descriptor")
            .integer("dma_burst_bytes", &P::dma_burst_bytes, "bytes", 4, 4096,
                     "largest bus transaction the DMA issues",
                     "SoC TRM interconnect initiator port width x burst length")
            .integer("dma_outstanding", &P::dma_outstanding, "count", 1, 256,
                     "bus transactions the DMA keeps in flight",
                     "calibrated: SoC TRM initiator port outstanding-transaction limits")
            .real("dma_packet_overhead_ns", &P::dma_packet_overhead_ns, "ns", 0, 100000,
                  "per packet: channel scheduling, descriptor processing, completion queueing",
                  "calibrated: order of a few hundred ns per packet in DMA engines of this class")
            .bytes("rx_fifo", &P::rx_fifo_bytes, 512, 1ull << 24,
                   "receive FIFO of the external port: frames wait here for the DMA; a frame "
                   "that does not fit is dropped",
                   "SoC TRM Ethernet port FIFO sizes")
            .bytes("tx_fifo", &P::tx_fifo_bytes, 512, 1ull << 24,
                   "transmit FIFO of the external port", "SoC TRM Ethernet port FIFO sizes")
            .real("switch_latency_ns", &P::switch_latency_ns, "ns", 0, 1e6,
                  "from the last byte of a frame received to the start of its DMA "
                  "(store-and-forward, address lookup, classification)",
                  "calibrated: store-and-forward switches of this class, about 1 us")
            .flag("rx_checksum_offload", &P::rx_checksum_offload,
                  "the IP verifies TCP/UDP checksums on receive (the stack skips them)",
                  "SoC TRM / Linux driver NETIF_F_RXCSUM")
            .flag("tx_checksum_offload", &P::tx_checksum_offload,
                  "the IP inserts TCP/UDP checksums on transmit (the stack skips them)",
                  "SoC TRM / Linux driver NETIF_F_HW_CSUM")
            .flag("interrupt_pacing", &P::interrupt_pacing,
                  "the IP can pace (coalesce) its host interrupts with a timer",
                  "SoC TRM interrupt pacing registers")
            .flag("tso_offload", &P::tso_offload,
                  "TCP segmentation offload: the stack hands the IP one skb of up to the "
                  "stack's gso_max_segments segments, the IP cuts it into frames, and the "
                  "driver reaps it once",
                  "SoC TRM / NIC datasheet; Linux driver NETIF_F_TSO")
            .integer("mtu_bytes", &P::mtu_bytes, "bytes", 576, 9000, "IP MTU of the interface",
                     "Linux / lwIP default (1500)");
    return s;
  }
};

}  // namespace socsim::models
