#pragma once
/// @file mcspi.h
/// @brief McSPI (multichannel SPI) master: time on the serial clock of a transfer of N words,
///        with the inter-word delay the controller inserts, and how many FIFO refills (DMA
///        events or interrupts) the transfer takes.
///
/// Word time = word_bits / f_SCLK. Between two words the controller adds
/// `inter_word_delay_ns` plus `inter_word_delay_bits` SPI clock periods (AM64x MCU+ SDK
/// datasheet, MCSPI: "hardware adds 160ns + 1bit time delay between each word transfer").
/// Not modelled: chip-select set-up/hold (TCS), turbo mode, multi-channel arbitration.
#include <cstdint>

#include "common/params.h"

namespace socsim::models {

struct McspiParams {
  double inter_word_delay_ns = 160;  ///< fixed delay between two words
  double inter_word_delay_bits = 1;  ///< plus this many SPI clock periods
  std::uint64_t fifo_bytes = 64;     ///< shared TX/RX FIFO of one channel

  static const params::Schema<McspiParams>& schema() {
    using P = McspiParams;
    static const auto s =
        params::Schema<P>("mcspi")
            .real("inter_word_delay_ns", &P::inter_word_delay_ns, "ns", 0, 1e6,
                  "fixed delay the controller inserts between two words",
                  "AM64x MCU+ SDK 09.01 datasheet, MCSPI performance: '160ns + 1bit time delay "
                  "between each word transfer'")
            .real("inter_word_delay_bits", &P::inter_word_delay_bits, "bits", 0, 64,
                  "plus this many SPI clock periods between two words",
                  "AM64x MCU+ SDK 09.01 datasheet, MCSPI performance ('+ 1bit time')")
            .bytes("fifo_bytes", &P::fifo_bytes, 1, 4096, "FIFO of one channel (TX+RX shared)",
                   "AM64x TRM (SPRUIM2) McSPI: 64-byte FIFO per module (background knowledge: "
                   "unverified)");
    return s;
  }
};

class Mcspi {
 public:
  explicit Mcspi(const McspiParams& p) : p_(p) {}
  /// Serial clock time of `words` words of `wordBits` bits at `clockHz`, without gaps.
  static double clockSeconds(std::uint64_t words, int wordBits, double clockHz) {
    return static_cast<double>(words) * wordBits / clockHz;
  }
  /// Delay between two consecutive words.
  double gapSeconds(double clockHz) const {
    return p_.inter_word_delay_ns * 1e-9 + p_.inter_word_delay_bits / clockHz;
  }
  /// One word including the gap that follows it (the controller's word period when the FIFO
  /// never runs dry).
  double wordPeriodSeconds(int wordBits, double clockHz) const {
    return wordBits / clockHz + gapSeconds(clockHz);
  }
  /// Whole transfer on the wire: words x word time + (words - 1) gaps.
  double transferSeconds(std::uint64_t words, int wordBits, double clockHz) const {
    if (words == 0) return 0;
    return clockSeconds(words, wordBits, clockHz) +
           static_cast<double>(words - 1) * gapSeconds(clockHz);
  }
  /// Words the FIFO holds (each word occupies its container: 1, 2 or 4 bytes).
  std::uint64_t fifoWords(int wordBits) const {
    const std::uint64_t container = wordBits <= 8 ? 1 : wordBits <= 16 ? 2 : 4;
    return p_.fifo_bytes / container;
  }
  const McspiParams& params() const { return p_; }

 private:
  McspiParams p_;
};

}  // namespace socsim::models
