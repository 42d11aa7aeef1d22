#include "models/cpu/core_model.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace socsim::models {

namespace {

constexpr const char* kClassNames[kOpClasses] = {
    "int_alu", "int_mul", "int_div",    "int64_alu",   "int64_mul", "int64_div",
    "load",    "store",   "load_multi", "store_multi", "branch",    "fp_add",
    "fp_mul",  "fp_mac",  "fp_div",     "fp_sqrt",     "dp_add",    "dp_mul",
    "dp_mac",  "dp_div",  "dp_sqrt",    "fp_move"};

enum Pool : std::uint8_t { kAlu, kMul, kDiv, kLs, kBr, kFp, kFpDiv, kLoadPipe, kStorePipe, kPools };

/// How one class executes on this core.
struct ClassTiming {
  Pool pool = kAlu;
  Pool pool2 = kPools;  ///< a second resource the class needs in the same cycles (load/store pipe)
  std::uint32_t latency = 1;
  std::uint32_t interval = 1;
  std::uint32_t uops = 1;
  bool software = false;
};

constexpr std::size_t kRing = 1024;  // dependency / ROB window (power of two)
constexpr std::size_t kRingMask = kRing - 1;
constexpr std::size_t kCalendar = 1 << 14;  // cycles of unit reservations remembered

/// Per-cycle slot counts of one resource over a sliding window of cycles.
class SlotCalendar {
 public:
  void init(int capacity) {
    cap_ = static_cast<std::uint16_t>(capacity);
    tag_.assign(kCalendar, std::numeric_limits<std::uint64_t>::max());
    count_.assign(kCalendar, 0);
  }
  std::uint16_t used(std::uint64_t c) const {
    std::size_t k = c & (kCalendar - 1);
    return tag_[k] == c ? count_[k] : 0;
  }
  bool free(std::uint64_t c) const { return used(c) < cap_; }
  void take(std::uint64_t c) {
    std::size_t k = c & (kCalendar - 1);
    if (tag_[k] != c) {
      tag_[k] = c;
      count_[k] = 0;
    }
    ++count_[k];
  }
  /// First cycle >= t where `interval` consecutive cycles have a free slot.
  std::uint64_t findFree(std::uint64_t t, std::uint32_t interval) const {
    for (;;) {
      std::uint32_t j = 0;
      while (j < interval && free(t + j)) ++j;
      if (j == interval) return t;
      t += j + 1;
    }
  }
  void reserve(std::uint64_t t, std::uint32_t interval) {
    for (std::uint32_t j = 0; j < interval; ++j) take(t + j);
  }

 private:
  std::uint16_t cap_ = 1;
  std::vector<std::uint64_t> tag_;
  std::vector<std::uint16_t> count_;
};

/// Direction predictor: 2-bit saturating counters, indexed by PC (bimodal) or PC xor global
/// history (gshare); or static not-taken.
class DirectionPredictor {
 public:
  void init(const CoreTimingParams& t) {
    if (t.branch_predictor == "static_not_taken")
      kind_ = 0;
    else if (t.branch_predictor == "bimodal")
      kind_ = 1;
    else if (t.branch_predictor == "gshare")
      kind_ = 2;
    else
      throw std::invalid_argument("unknown branch_predictor '" + t.branch_predictor + "'");
    std::size_t n = 1;
    bits_ = 0;
    while (n < static_cast<std::size_t>(std::max(1, t.bp_table_entries))) {
      n <<= 1;
      ++bits_;
    }
    table_.assign(n, 1);  // weakly not-taken
    mask_ = n - 1;
    histMask_ = t.bp_history_bits >= 63 ? ~0ull : ((1ull << t.bp_history_bits) - 1);
    ghr_ = 0;
  }
  /// Predict, update, and return whether the prediction was right.
  bool predict(std::uint64_t pc, bool taken) {
    if (kind_ == 0) return !taken;
    // Fibonacci hash of the instruction address spreads neighbouring branch sites over the
    // table, so that XOR-ing the history in does not alias them systematically.
    std::uint64_t idx = bits_ ? ((pc >> 2) * 0x9E3779B97F4A7C15ull) >> (64 - bits_) : 0;
    if (kind_ == 2) idx ^= ghr_;
    std::uint8_t& c = table_[idx & mask_];
    bool pred = c >= 2;
    if (taken) {
      if (c < 3) ++c;
    } else if (c > 0) {
      --c;
    }
    if (kind_ == 2) ghr_ = ((ghr_ << 1) | (taken ? 1 : 0)) & histMask_;
    return pred == taken;
  }

 private:
  int kind_ = 0;
  int bits_ = 0;
  std::vector<std::uint8_t> table_;
  std::uint64_t mask_ = 0, histMask_ = 0, ghr_ = 0;
};

}  // namespace

const char* opClassName(OpClass c) {
  int i = static_cast<int>(c);
  return i >= 0 && i < kOpClasses ? kClassNames[i] : "?";
}

std::optional<OpClass> opClassFromName(const std::string& name) {
  for (int i = 0; i < kOpClasses; ++i)
    if (name == kClassNames[i]) return static_cast<OpClass>(i);
  return std::nullopt;
}

std::size_t RepeatSource::next(DynInst* out, std::size_t n) {
  std::size_t k = 0;
  while (k < n && left_ > 0) {
    out[k++] = body_[pos_];
    if (++pos_ == body_.size()) pos_ = 0;
    --left_;
  }
  return k;
}

// ---------------------------------------------------------------------------------------------

struct CoreModel::Impl {
  Impl(const CoreParams& core, const CoreTimingParams& t, CoreMemoryPort& m) : tp(t), mem(m) {
    if (core.pipeline == "out-of-order")
      ooo = true;
    else if (core.pipeline == "in-order")
      ooo = false;
    else
      throw std::invalid_argument("unknown pipeline '" + core.pipeline + "'");
    dispatchWidth =
        static_cast<std::uint32_t>(std::max(1, std::min(core.issue_width, t.fetch_width)));
    // In-order cores issue at most what they decode; out-of-order cores may issue wider.
    issueWidth = static_cast<std::uint32_t>(std::max(
        1, ooo ? t.issue_width : std::min(t.issue_width, static_cast<int>(dispatchWidth))));
    retireWidth = static_cast<std::uint32_t>(std::max(1, t.retire_width));
    rob =
        ooo ? static_cast<std::uint64_t>(std::clamp(t.rob_entries, 1, static_cast<int>(kRing))) : 0;
    lsq =
        ooo ? static_cast<std::uint64_t>(std::clamp(t.lsq_entries, 1, static_cast<int>(kRing))) : 0;
    sbEntries =
        static_cast<std::uint64_t>(std::clamp(t.store_buffer_entries, 1, static_cast<int>(kRing)));
    penalty = static_cast<std::uint64_t>(std::max(0, t.mispredict_penalty_cycles));
    bubble = static_cast<std::uint64_t>(std::max(0, t.taken_branch_bubble_cycles));
    multiBytes = static_cast<std::uint32_t>(std::max(1, t.ls_multi_bytes_per_cycle));
    accLatency = static_cast<std::uint64_t>(std::max(0, t.mac_accumulate_latency_cycles));
    narrowExtra = static_cast<std::uint64_t>(std::max(0, t.narrow_load_extra_latency_cycles));
    holdIssue = !ooo && t.multicycle_holds_issue;

    auto set = [&](OpClass c, Pool p, int lat, int ivl, int uops = 1) {
      auto& ct = cls[static_cast<int>(c)];
      ct.pool = p;
      ct.latency = static_cast<std::uint32_t>(std::max(1, lat));
      ct.interval = static_cast<std::uint32_t>(std::max(1, ivl));
      ct.uops = static_cast<std::uint32_t>(std::max(1, uops));
    };
    set(OpClass::IntAlu, kAlu, t.int_alu_latency_cycles, 1);
    set(OpClass::IntMul, kMul, t.int_mul_latency_cycles, t.int_mul_interval_cycles);
    set(OpClass::IntDiv, kDiv, t.int_div_latency_cycles, t.int_div_interval_cycles);
    set(OpClass::Int64Alu, kAlu, t.int64_alu_latency_cycles, 1, t.int64_alu_uops);
    set(OpClass::Int64Mul, kMul, t.int64_mul_latency_cycles, t.int64_mul_interval_cycles,
        t.int64_mul_uops);
    set(OpClass::Int64Div, kDiv, t.int64_div_latency_cycles, t.int64_div_interval_cycles);
    set(OpClass::Load, kLs, 1, 1);
    set(OpClass::Store, kLs, 1, 1);
    set(OpClass::LoadMulti, kLs, 1, 1);
    set(OpClass::StoreMulti, kLs, 1, 1);
    // Split load/store pipelines (Cortex-A15/A57/A72: one load pipe L, one store pipe S): a
    // load needs an address-generation slot of the ls pool and the load pipe.
    if (t.load_pipes > 0) {
      cls[static_cast<int>(OpClass::Load)].pool2 = kLoadPipe;
      cls[static_cast<int>(OpClass::LoadMulti)].pool2 = kLoadPipe;
    }
    if (t.store_pipes > 0) {
      cls[static_cast<int>(OpClass::Store)].pool2 = kStorePipe;
      cls[static_cast<int>(OpClass::StoreMulti)].pool2 = kStorePipe;
    }
    set(OpClass::Branch, kBr, t.branch_latency_cycles, 1);
    set(OpClass::FpAdd, kFp, t.fp_add_latency_cycles, t.fp_add_interval_cycles);
    set(OpClass::FpMul, kFp, t.fp_mul_latency_cycles, t.fp_mul_interval_cycles);
    set(OpClass::FpMac, kFp, t.fp_mac_latency_cycles, t.fp_mac_interval_cycles);
    set(OpClass::FpDiv, kFpDiv, t.fp_div_latency_cycles, t.fp_div_interval_cycles);
    set(OpClass::FpSqrt, kFpDiv, t.fp_sqrt_latency_cycles, t.fp_sqrt_interval_cycles);
    set(OpClass::DpAdd, kFp, t.dp_add_latency_cycles, t.dp_add_interval_cycles);
    set(OpClass::DpMul, kFp, t.dp_mul_latency_cycles, t.dp_mul_interval_cycles);
    set(OpClass::DpMac, kFp, t.dp_mac_latency_cycles, t.dp_mac_interval_cycles);
    set(OpClass::DpDiv, kFpDiv, t.dp_div_latency_cycles, t.dp_div_interval_cycles);
    set(OpClass::DpSqrt, kFpDiv, t.dp_sqrt_latency_cycles, t.dp_sqrt_interval_cycles);
    set(OpClass::FpMove, kFp, t.fp_move_latency_cycles, 1);

    // software_classes: comma/space separated names.
    std::string name;
    auto flush = [&] {
      if (name.empty()) return;
      auto c = opClassFromName(name);
      if (!c || isMemory(*c) || *c == OpClass::Branch) {
        std::string valid;
        for (int i = 0; i < kOpClasses; ++i)
          if (!isMemory(static_cast<OpClass>(i)) && static_cast<OpClass>(i) != OpClass::Branch)
            valid += (valid.empty() ? "" : ", ") + std::string(kClassNames[i]);
        throw std::invalid_argument("software_classes: '" + name +
                                    "' is not a computational class (valid: " + valid + ")");
      }
      cls[static_cast<int>(*c)].software = true;
      name.clear();
    };
    for (char ch : t.software_classes) {
      if (ch == ',' || ch == ' ' || ch == ';')
        flush();
      else
        name += ch;
    }
    flush();

    const int units[kPools] = {t.alu_units,    t.mul_units,   t.div_units,
                               t.ls_units,     t.branch_units, t.fp_units,
                               t.fpdiv_units,  t.load_pipes,   t.store_pipes};
    for (int p = 0; p < kPools; ++p) pools[p].init(std::max(1, units[p]));
    issueCal.init(static_cast<int>(issueWidth));
    predictor.init(t);
    lineShift = 0;
    unsigned lb = std::max(4u, mem.fetchLineBytes());
    while ((1u << lineShift) < lb) ++lineShift;
    levelNames = mem.levelNames();
    if (levelNames.empty()) levelNames = {"l1d"};
    stats.partNames = {"core.issue",
                       "core.dependency",
                       "core.branch_mispredict",
                       "core.taken_branch",
                       "core.structural",
                       "core.window",
                       "l1i"};
    for (const auto& n : levelNames) stats.partNames.push_back(n);
    resetStats();
  }

  void resetStats() {
    stats.instructions = stats.cycles = 0;
    stats.branches = stats.mispredicts = stats.takenBranches = 0;
    stats.loads = stats.stores = stats.fetchLines = stats.fetchMisses = 0;
    stats.loadsByLevel.assign(levelNames.size(), 0);
    stats.partCycles.assign(stats.partNames.size(), 0.0);
    statsBase = lastRetire;
  }

  std::uint64_t run(InstructionSource& src, std::uint64_t maxN, std::uint64_t until);
  void step(const DynInst& in);

  // configuration
  CoreTimingParams tp;
  CoreMemoryPort& mem;
  bool ooo = false;
  std::uint32_t dispatchWidth = 1, issueWidth = 1, retireWidth = 1, multiBytes = 8;
  std::uint64_t rob = 0, lsq = 0, sbEntries = 8, penalty = 0, bubble = 0, accLatency = 0;
  std::uint64_t narrowExtra = 0;  // extra latency of byte/halfword loads
  bool holdIssue = false;         // multi-cycle instructions hold the (in-order) issue stage
  std::array<ClassTiming, kOpClasses> cls{};
  int lineShift = 6;
  std::vector<std::string> levelNames;

  // state
  std::uint64_t seq = 0;  // instructions executed so far
  std::uint64_t memSeq = 0, storeSeq = 0;
  std::uint64_t dispCycle = 0;  // current dispatch group
  std::uint32_t dispCount = 0;
  std::uint64_t feReady = 0;  // front end may dispatch from here
  int feCause = kIssue;
  std::uint64_t lastIssue = 0;  // in-order: issue of the previous instruction
  std::uint64_t heldUntil = 0;  // in-order with holdIssue: issue stage busy until this cycle
  std::uint64_t lastRetire = 0;
  std::uint32_t retireCount = 0;
  std::uint64_t lastLine = ~0ull;
  std::array<std::uint64_t, kRing> ready{};
  std::array<std::uint8_t, kRing> readyCause{};
  std::array<std::uint64_t, kRing> accReady{};  // multiply-accumulates: ready as an accumulator
  std::array<std::uint64_t, kRing> retireAt{};
  std::array<std::uint64_t, kRing> memRetire{};
  std::array<std::uint64_t, kRing> sbDrain{};
  SlotCalendar pools[kPools];
  SlotCalendar issueCal;
  DirectionPredictor predictor;

  CoreRunStats stats;
  std::uint64_t statsBase = 0;
  std::vector<DynInst> buf = std::vector<DynInst>(256);
};

void CoreModel::Impl::step(const DynInst& in) {
  const ClassTiming& ct = cls[static_cast<int>(in.cls)];
  const std::uint64_t i = seq;
  int cause = kIssue;

  // ---- front end: dispatch slot ----
  // In-order cores dispatch and issue in the same stage: `dispCycle` follows the last issue.
  std::uint64_t d = ooo ? dispCycle : lastIssue;
  if (feReady > d) {
    d = feReady;
    cause = feCause;
  }
  if (ooo) {
    if (i >= rob && retireAt[(i - rob) & kRingMask] > d) {
      d = retireAt[(i - rob) & kRingMask];
      cause = kWindow;
    }
    if (isMemory(in.cls) && memSeq >= lsq && memRetire[(memSeq - lsq) & kRingMask] > d) {
      d = memRetire[(memSeq - lsq) & kRingMask];
      cause = kWindow;
    }
  }
  // Instruction fetch: one lookup per new line.
  std::uint64_t line = in.pc >> lineShift;
  if (line != lastLine) {
    lastLine = line;
    ++stats.fetchLines;
    CoreMemoryPort::Access a = mem.fetch(in.pc, d);
    if (a.level > 0) ++stats.fetchMisses;
    if (a.ready > d) {
      d = a.ready;
      cause = kICache;
    }
  }
  if (ooo) {
    if (d > dispCycle) {
      dispCycle = d;
      dispCount = 0;
    }
    if (dispCount + ct.uops > dispatchWidth && dispCount > 0) {
      ++dispCycle;
      dispCount = 0;
    }
    d = dispCycle;
    dispCount += ct.uops;
  }

  // ---- operands ----
  std::uint64_t r = d;
  auto dep = [&](std::uint16_t dist) {
    if (dist == 0 || dist > i || dist >= kRing) return;
    std::size_t k = (i - dist) & kRingMask;
    if (ready[k] > r) {
      r = ready[k];
      cause = readyCause[k];
    }
  };
  const bool isMac = in.cls == OpClass::FpMac || in.cls == OpClass::DpMac;
  if (accLatency > 0 && isMac && in.accumulate && in.dep1 != 0 && in.dep1 <= i &&
      in.dep1 < kRing) {
    // The accumulator comes by late forwarding from the previous multiply-accumulate.
    std::size_t k = (i - in.dep1) & kRingMask;
    if (accReady[k] > r) {
      r = accReady[k];
      cause = readyCause[k];
    }
  } else {
    dep(in.dep1);
  }
  dep(in.dep2);
  // A multi-cycle predecessor still occupies the issue stage (single-issue in-order pipelines).
  if (heldUntil > r) {
    r = heldUntil;
    cause = kStructural;
  }

  // ---- issue: a unit and an issue slot free ----
  Pool pool = ct.pool;
  const Pool pool2 = ct.pool2;
  std::uint32_t occupancy = ct.interval;
  if (in.cls == OpClass::LoadMulti || in.cls == OpClass::StoreMulti)
    occupancy = std::max<std::uint32_t>(1, (in.bytes + multiBytes - 1) / multiBytes);
  std::uint64_t t = r;
  if (!ct.software) {
    // The first cycle with a free issue slot: a wait up to it is the issue width's (base issue),
    // beyond it a busy functional unit's (structural).
    std::uint64_t slot = t;
    while (!issueCal.free(slot)) ++slot;
    for (std::uint32_t u = 0; u < ct.uops; ++u) {
      std::uint64_t s = t;
      for (;;) {
        s = pools[pool].findFree(s, occupancy);
        if (pool2 != kPools) {
          std::uint64_t s2 = pools[pool2].findFree(s, occupancy);
          if (s2 != s) {
            s = s2;
            continue;
          }
        }
        if (issueCal.free(s)) break;
        ++s;
      }
      pools[pool].reserve(s, occupancy);
      if (pool2 != kPools) pools[pool2].reserve(s, occupancy);
      issueCal.take(s);
      if (holdIssue && occupancy > 1) heldUntil = std::max(heldUntil, s + occupancy);
      if (u == 0) {
        if (s > slot)
          cause = kStructural;
        else if (s > t)
          cause = kIssue;
        t = s;
      }
    }
  }
  // In order: the next instruction cannot issue before this one (the same cycle is allowed
  // while issue slots remain, which the issue calendar enforces).
  if (!ooo) lastIssue = t;

  // ---- execute ----
  std::uint64_t done = t + ct.latency;
  std::uint8_t rcause = kDependency;
  switch (in.cls) {
    case OpClass::Load:
    case OpClass::LoadMulti: {
      CoreMemoryPort::Access a = mem.load(in.addr, in.bytes, t);
      done = std::max(a.ready, t + 1) + (occupancy - 1);
      // Bytes and halfwords pass the align / sign-extend stage after the data arrives.
      if (in.cls == OpClass::Load && in.bytes < 4) done += narrowExtra;
      int lvl = std::clamp(a.level, 0, static_cast<int>(levelNames.size()) - 1);
      rcause = static_cast<std::uint8_t>(kFirstMemoryPart + lvl);
      ++stats.loads;
      ++stats.loadsByLevel[lvl];
      break;
    }
    case OpClass::Store:
    case OpClass::StoreMulti: {
      // The store buffer entry of the store `sbEntries` older must have drained.
      if (storeSeq >= sbEntries) {
        std::uint64_t freeAt = sbDrain[(storeSeq - sbEntries) & kRingMask];
        if (freeAt > t) {
          t = freeAt;
          cause = kWindow;
          if (!ooo) lastIssue = t;
        }
      }
      CoreMemoryPort::Access a = mem.store(in.addr, in.bytes, t);
      std::uint64_t prevDrain = storeSeq ? sbDrain[(storeSeq - 1) & kRingMask] : 0;
      sbDrain[storeSeq & kRingMask] = std::max({a.ready, t + 1, prevDrain});
      ++storeSeq;
      ++stats.stores;
      done = t + occupancy;
      break;
    }
    case OpClass::Branch: {
      ++stats.branches;
      bool right = predictor.predict(in.pc, in.taken);
      if (!right) {
        ++stats.mispredicts;
        std::uint64_t fe = t + penalty;
        if (fe > feReady) {
          feReady = fe;
          feCause = kMispredict;
        }
      } else if (in.taken) {
        // The fetch group ends at a taken branch; the target starts the next group.
        std::uint64_t fe = (ooo ? d : t) + 1 + bubble;
        if (fe > feReady) {
          feReady = fe;
          feCause = kTakenBranch;
        }
      }
      if (in.taken) ++stats.takenBranches;
      break;
    }
    default:
      break;
  }
  if (ct.software) {
    // A library routine holds the pipeline for its whole run (its latency).
    std::uint64_t fe = t + ct.latency;
    if (fe > feReady) {
      feReady = fe;
      feCause = kStructural;
    }
    cause = kStructural;
  }
  ready[i & kRingMask] = done;
  readyCause[i & kRingMask] = rcause;
  accReady[i & kRingMask] = isMac && accLatency > 0 ? std::min(done, t + accLatency) : done;

  // ---- retire (in order) ----
  std::uint64_t ret = std::max(done, lastRetire);
  if (ret == lastRetire) {
    if (retireCount >= retireWidth) {
      ++ret;
      retireCount = 0;
    }
  } else {
    retireCount = 0;
  }
  ++retireCount;
  if (isMemory(in.cls)) {
    memRetire[memSeq & kRingMask] = ret;
    ++memSeq;
  }
  retireAt[i & kRingMask] = ret;
  if (ret > lastRetire) {
    // The cycles this instruction added to the run go to what delayed it; when it retires
    // by its own latency, to its latency's cause.
    int part = cause;
    if (part == kIssue && done > t + 1) part = rcause;
    stats.partCycles[static_cast<std::size_t>(part)] += static_cast<double>(ret - lastRetire);
    lastRetire = ret;
  }
  ++seq;
  ++stats.instructions;
}

std::uint64_t CoreModel::Impl::run(InstructionSource& src, std::uint64_t maxN,
                                   std::uint64_t until) {
  std::uint64_t n = 0;
  // With a cycle limit, pull small batches so that the run stops close to it.
  const std::size_t batch = until == ~0ull ? buf.size() : 32;
  while (n < maxN && lastRetire < until) {
    std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(batch, maxN - n));
    std::size_t got = src.next(buf.data(), want);
    if (got == 0) break;
    for (std::size_t k = 0; k < got; ++k) step(buf[k]);
    n += got;
  }
  stats.cycles = lastRetire - statsBase;
  return n;
}

CoreModel::CoreModel(const CoreParams& core, const CoreTimingParams& timing, CoreMemoryPort& mem)
    : impl_(std::make_unique<Impl>(core, timing, mem)) {}
CoreModel::~CoreModel() = default;
std::uint64_t CoreModel::run(InstructionSource& src, std::uint64_t maxInstructions,
                             std::uint64_t untilCycle) {
  return impl_->run(src, maxInstructions, untilCycle);
}
void CoreModel::resetStats() {
  impl_->resetStats();
}
const CoreRunStats& CoreModel::stats() const {
  return impl_->stats;
}
std::uint64_t CoreModel::now() const {
  return impl_->lastRetire;
}
bool CoreModel::outOfOrder() const {
  return impl_->ooo;
}

// ---------------------------------------------------------------------------------------------

struct FixedLatencyMemory::Tags {
  Tags(std::uint64_t bytes, int ways, int lineBytes) : ways(ways) {
    lineShift = 0;
    while ((1 << lineShift) < lineBytes) ++lineShift;
    sets = std::max<std::uint64_t>(1, bytes / (static_cast<std::uint64_t>(lineBytes) * ways));
    tag.assign(sets * ways, ~0ull);
    age.assign(sets * ways, 0);
  }
  /// True on a hit; allocates on a miss (LRU victim).
  bool access(std::uint64_t line) {
    std::uint64_t set = line % sets;
    std::uint64_t* tg = &tag[set * ways];
    std::uint64_t* ag = &age[set * ways];
    ++clock;
    for (int w = 0; w < ways; ++w)
      if (tg[w] == line) {
        ag[w] = clock;
        return true;
      }
    int v = 0;
    for (int w = 1; w < ways; ++w)
      if (ag[w] < ag[v]) v = w;
    tg[v] = line;
    ag[v] = clock;
    return false;
  }
  int ways, lineShift;
  std::uint64_t sets, clock = 0;
  std::vector<std::uint64_t> tag, age;
};

FixedLatencyMemory::FixedLatencyMemory(const Config& c)
    : c_(c),
      d_(std::make_unique<Tags>(c.l1d_bytes, c.ways, c.line_bytes)),
      i_(std::make_unique<Tags>(c.l1i_bytes, c.ways, c.line_bytes)),
      mshrFree_(static_cast<std::size_t>(std::max(1, c.mshrs)), 0) {}
FixedLatencyMemory::~FixedLatencyMemory() = default;

CoreMemoryPort::Access FixedLatencyMemory::miss(std::uint64_t, std::uint64_t cycle) {
  auto it = std::min_element(mshrFree_.begin(), mshrFree_.end());
  std::uint64_t start = std::max(cycle, *it);
  std::uint64_t ready = start + static_cast<std::uint64_t>(c_.next_level_latency_cycles);
  *it = ready;
  return {ready, 1};
}

CoreMemoryPort::Access FixedLatencyMemory::load(std::uint64_t addr, unsigned, std::uint64_t cycle) {
  if (d_->access(addr >> d_->lineShift))
    return {cycle + static_cast<std::uint64_t>(c_.l1_hit_latency_cycles), 0};
  Access a = miss(addr >> d_->lineShift, cycle);
  a.ready += static_cast<std::uint64_t>(c_.l1_hit_latency_cycles);
  return a;
}

CoreMemoryPort::Access FixedLatencyMemory::store(std::uint64_t addr, unsigned,
                                                 std::uint64_t cycle) {
  if (d_->access(addr >> d_->lineShift)) return {cycle + 1, 0};
  return miss(addr >> d_->lineShift, cycle);
}

CoreMemoryPort::Access FixedLatencyMemory::fetch(std::uint64_t addr, std::uint64_t cycle) {
  if (i_->access(addr >> i_->lineShift)) return {cycle, 0};
  return miss(addr >> i_->lineShift, cycle);
}

}  // namespace socsim::models
