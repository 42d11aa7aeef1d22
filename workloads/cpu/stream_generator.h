#pragma once
/// @file stream_generator.h
/// @brief Turns a WorkloadProfile into a deterministic dynamic instruction stream for CoreModel.
///
/// The generator first builds a static program of `code.footprint / code.instruction_bytes`
/// instructions (statistical flow-graph synthesis in the manner of performance cloning: Bell &
/// John, ICS 2005; Joshi, Eeckhout, Bell & John, IISWC 2006): each static instruction gets a class
/// drawn from the mix, register dependency distances drawn from the distance distribution, a data
/// region (hot / stream / random / chase) when it accesses memory, and a branch behaviour (always
/// taken, loop with a trip count, biased, periodic pattern, random) when it is a branch. The
/// dynamic stream then walks the static program in order, wrapping around, so the code footprint
/// is what the instruction cache sees; branch outcomes come from each site's behaviour and data
/// addresses from each region's walker. A fixed seed (profile seed, plus a salt per thread) makes
/// the stream identical from run to run.
#include <cstdint>
#include <string>
#include <vector>

#include "models/cpu/core_model.h"
#include "workloads/cpu/workload_profile.h"

namespace socsim::wl::cpu {

class StreamGenerator : public models::InstructionSource {
 public:
  /// @param salt distinguishes threads of the same profile (different data, same code).
  /// @param dataBase base address of the data regions (threads use disjoint bases).
  /// @param variant selects one of the profile's statistically equivalent programs (the profile
  ///        describes a distribution; runs average over `profile.variants` draws of it).
  /// @param isa the core's ISA ("armv8-a", "armv7-a", "armv5te"; "" = not ISA-specific):
  ///        selects ISA-specific profile values (data.armv5_narrow_load_fraction).
  StreamGenerator(const WorkloadProfile& p, std::uint64_t salt = 0,
                  std::uint64_t dataBase = 0x40000000ull, int variant = 0,
                  const std::string& isa = "");
  std::size_t next(models::DynInst* out, std::size_t n) override;

  std::size_t staticInstructions() const { return prog_.size(); }
  /// Dynamic fraction of each class in the static program (tests).
  std::vector<double> staticMix() const;

 private:
  enum Region : std::uint8_t { kHot, kStream, kRandom, kChase };
  enum BranchKind : std::uint8_t { kAlways, kLoop, kBiased, kPattern, kRandomBranch };
  struct StaticInst {
    std::uint64_t addr = 0;     ///< fixed address (hot region)
    std::uint64_t pattern = 0;  ///< branch pattern bits
    std::uint32_t param = 0;    ///< loop trip count, pattern period, biased threshold (2^32 scale)
    std::uint32_t state = 0;    ///< loop / pattern counter
    std::uint32_t target = 0;   ///< loop branch: index of the loop head
    std::uint16_t dep1 = 0, dep2 = 0, bytes = 4;
    models::OpClass cls = models::OpClass::IntAlu;
    std::uint8_t region = kHot;
    std::uint8_t stream = 0;
    std::uint8_t kind = kAlways;
    bool usual = true;        ///< biased branch: the usual direction is taken
    bool accumulate = false;  ///< multiply-accumulate: dep1 is the accumulator
    bool toLoaded = false;    ///< random-region store: writes the latest random load's address
  };
  std::uint64_t rand64();

  std::vector<StaticInst> prog_;
  std::vector<std::uint64_t> streamPos_, streamBase_;
  std::uint64_t streamSpan_ = 64, randomBase_ = 0, randomSpan_ = 64, chaseBase_ = 0,
                chaseSpan_ = 64;
  // Output array walked column by column by the stores (store_stride_bytes > 0).
  std::uint64_t outBase_ = 0, outSpan_ = 64, outPos_ = 0, outColumn_ = 0, outStride_ = 0;
  // Current record of the random region.
  std::uint64_t recordBase_ = 0, recordOffset_ = 0, recordBytes_ = 64;
  std::uint32_t recordLeft_ = 0, recordAccesses_ = 1;
  std::uint64_t codeBase_ = 0x10000, rng_ = 0, seq_ = 0, lastChase_ = ~0ull;
  std::uint64_t lastRandomLoad_ = ~0ull;  ///< address of the latest random-region load
  std::uint32_t stride_ = 4, accessBytes_ = 4;
  std::size_t pc_ = 0;
  int instBytes_ = 4;
};

}  // namespace socsim::wl::cpu
