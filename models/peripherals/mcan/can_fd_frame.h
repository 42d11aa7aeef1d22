#pragma once
/// @file can_fd_frame.h
/// @brief Bit-level length of one CAN FD data frame (ISO 11898-1:2015), as the MCAN (Bosch M_CAN)
///        puts it on the bus: the bits sent at the nominal (arbitration) bit rate and at the
///        data bit rate, dynamic stuff bits from SOF to the end of the data field, the stuff
///        count and the fixed stuff bits of the CRC field, and the intermission.
///
/// Layout (ISO 11898-1 §10.4): SOF, identifier (11 bits; extended: 11 + SRR + IDE + 18), RRS,
/// IDE (base format), FDF, res, BRS | ESI, DLC, data, stuff count (4), CRC (17 bits up to 16
/// data bytes, else 21) | CRC delimiter, ACK slot, ACK delimiter, EOF (7), intermission (3).
/// The bit rate switches at BRS and back at the CRC delimiter. Dynamic stuffing: after five
/// equal bits a complement bit is inserted (it counts toward the next run). Fixed stuff bits:
/// one before the stuff count and one after every fourth bit of stuff count + CRC.
///
/// Not modelled: error frames, overload frames, bus arbitration losses (loopback has one node),
/// the exact bit time of the rate switch (sample point within BRS / CRC delimiter).
#include <cstdint>
#include <vector>

namespace socsim::models {

/// One CAN FD data frame.
struct CanFdFrameSpec {
  bool extended = false;           ///< 29-bit identifier (extended format)
  std::uint32_t id = 0;            ///< 11- or 29-bit identifier
  std::vector<std::uint8_t> data;  ///< payload: 0-8, 12, 16, 20, 24, 32, 48 or 64 bytes
  bool bitRateSwitch = true;       ///< BRS: data phase at the data bit rate (without it, pass the
                                   ///< nominal rate as the data rate to seconds())
};

/// Bits of one frame. "Nominal" counts exclude all stuff bits (the way a datasheet counts them).
struct CanFdFrameBits {
  int arbitrationBits = 0;  ///< SOF..BRS plus CRC delimiter, ACK, ACK delimiter, EOF (nominal rate)
  int dataBits = 0;         ///< ESI, DLC, data field, CRC sequence (data rate)
  int stuffCountBits = 0;   ///< 4 (3-bit Gray-coded count + parity), data rate
  int fixedStuffBits = 0;   ///< fixed stuff bits of the CRC field, data rate
  int dynamicStuffArbitration = 0;  ///< dynamic stuff bits inserted SOF..BRS (nominal rate)
  int dynamicStuffData = 0;         ///< dynamic stuff bits inserted ESI..end of data (data rate)
  int intermissionBits = 0;         ///< 3 recessive bits before the next frame (nominal rate)

  int nominalRateBits() const {
    return arbitrationBits + dynamicStuffArbitration + intermissionBits;
  }
  int dataRateBits() const { return dataBits + stuffCountBits + fixedStuffBits + dynamicStuffData; }
  /// Time on the bus from SOF to the end of the intermission.
  double seconds(double nominalBitsPerSecond, double dataBitsPerSecond) const {
    return nominalRateBits() / nominalBitsPerSecond + dataRateBits() / dataBitsPerSecond;
  }
};

/// DLC code of a payload length; throws std::invalid_argument for a length CAN FD cannot send.
int canFdDlc(std::size_t bytes);
/// CRC sequence length: 17 bits up to 16 data bytes, 21 bits above (ISO 11898-1 §10.4.2.6).
int canFdCrcBits(std::size_t bytes);
/// The frame's bits (bit-exact dynamic stuffing of the actual identifier and payload).
CanFdFrameBits canFdFrameBits(const CanFdFrameSpec& f);

}  // namespace socsim::models
