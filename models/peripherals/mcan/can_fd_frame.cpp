#include "models/peripherals/mcan/can_fd_frame.h"

#include <stdexcept>

namespace socsim::models {

int canFdDlc(std::size_t bytes) {
  if (bytes <= 8) return static_cast<int>(bytes);
  static const std::size_t sizes[] = {12, 16, 20, 24, 32, 48, 64};
  for (int i = 0; i < 7; ++i)
    if (bytes == sizes[i]) return 9 + i;
  throw std::invalid_argument("CAN FD cannot send a " + std::to_string(bytes) + "-byte payload");
}

int canFdCrcBits(std::size_t bytes) {
  return bytes <= 16 ? 17 : 21;
}

namespace {

void push(std::vector<int>& v, std::uint32_t value, int bits) {
  for (int i = bits - 1; i >= 0; --i) v.push_back(static_cast<int>((value >> i) & 1u));
}

/// Stuff bits dynamic stuffing inserts into `bits` from position `from` to `to` (exclusive),
/// continuing the run state of the bits before `from`.
struct Stuffer {
  int last = -1, run = 0;
  int feed(int b) {
    int stuffed = 0;
    if (b == last) {
      ++run;
    } else {
      last = b;
      run = 1;
    }
    if (run == 5) {  // insert the complement; it starts a new run of length 1
      stuffed = 1;
      last = 1 - b;
      run = 1;
    }
    return stuffed;
  }
};

}  // namespace

CanFdFrameBits canFdFrameBits(const CanFdFrameSpec& f) {
  const int dlc = canFdDlc(f.data.size());
  std::vector<int> arb, dat;  // dominant = 0, recessive = 1
  arb.push_back(0);           // SOF
  if (!f.extended) {
    push(arb, f.id & 0x7FFu, 11);
    arb.push_back(0);  // RRS
    arb.push_back(0);  // IDE: base format
  } else {
    push(arb, (f.id >> 18) & 0x7FFu, 11);
    arb.push_back(1);  // SRR
    arb.push_back(1);  // IDE: extended format
    push(arb, f.id & 0x3FFFFu, 18);
    arb.push_back(0);  // RRS
  }
  arb.push_back(1);                        // FDF
  arb.push_back(0);                        // res
  arb.push_back(f.bitRateSwitch ? 1 : 0);  // BRS
  dat.push_back(0);                        // ESI: error active
  push(dat, static_cast<std::uint32_t>(dlc), 4);
  for (std::uint8_t b : f.data) push(dat, b, 8);

  CanFdFrameBits r;
  Stuffer s;
  for (int b : arb) r.dynamicStuffArbitration += s.feed(b);
  for (int b : dat) r.dynamicStuffData += s.feed(b);
  const int crc = canFdCrcBits(f.data.size());
  // CRC delimiter, ACK slot, ACK delimiter, EOF: sent at the nominal rate, never stuffed.
  r.arbitrationBits = static_cast<int>(arb.size()) + 1 + 1 + 1 + 7;
  r.dataBits = static_cast<int>(dat.size()) + crc;
  r.stuffCountBits = 4;
  // One fixed stuff bit before the stuff count, then one after every fourth bit of
  // stuff count + CRC sequence (17-bit CRC: 6, 21-bit CRC: 7).
  r.fixedStuffBits = 1 + (4 + crc - 1) / 4;
  r.intermissionBits = 3;
  return r;
}

}  // namespace socsim::models
