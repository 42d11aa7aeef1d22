#include "workloads/cpu/stream_generator.h"

#include <algorithm>
#include <cmath>

namespace socsim::wl::cpu {

using models::DynInst;
using models::OpClass;

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Index drawn from unnormalized weights (falls back to the last positive one).
int draw(const std::vector<double>& w, double u) {
  double total = 0;
  for (double x : w) total += x;
  if (!(total > 0)) return 0;
  double acc = 0;
  int last = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] <= 0) continue;
    last = static_cast<int>(i);
    acc += w[i] / total;
    if (u < acc) return static_cast<int>(i);
  }
  return last;
}

std::uint64_t alignDown(std::uint64_t v, std::uint64_t a) {
  return a ? v - v % a : v;
}

}  // namespace

std::uint64_t StreamGenerator::rand64() {
  return splitmix(rng_);
}

StreamGenerator::StreamGenerator(const WorkloadProfile& p, std::uint64_t salt,
                                 std::uint64_t dataBase, int variant, const std::string& isa) {
  // The static program is the same for every thread (shared code); data differ by salt.
  rng_ = 0x5eed0000ull + static_cast<std::uint64_t>(p.info.seed) +
         static_cast<std::uint64_t>(variant) * 0x632be59bd9b4e019ull;
  auto u01 = [&] { return static_cast<double>(rand64() >> 11) * (1.0 / 9007199254740992.0); };

  instBytes_ = std::max(1, p.code.instruction_bytes);
  std::size_t n = static_cast<std::size_t>(
      std::max<std::uint64_t>(16, p.code.footprint_bytes / static_cast<std::uint64_t>(instBytes_)));
  prog_.resize(n);
  accessBytes_ = static_cast<std::uint32_t>(std::max(1, p.data.access_bytes));

  std::vector<double> mixW(models::kOpClasses);
  for (int c = 0; c < models::kOpClasses; ++c) mixW[c] = p.mix.of(static_cast<OpClass>(c));
  const auto& d = p.deps;
  const std::vector<double> depW = {d.d1,     d.d2,     d.d3_4, d.d5_8, d.d9_16,
                                    d.d17_32, d.d33_64, d.far,  d.none};
  const int lo[] = {1, 2, 3, 5, 9, 17, 33, 65, 0};
  const int hi[] = {1, 2, 4, 8, 16, 32, 64, 255, 0};
  const auto& dt = p.data;
  const std::vector<double> regW = {dt.hot_fraction, dt.stream_fraction, dt.random_fraction,
                                    dt.chase_fraction};
  const auto& b = p.branches;
  const std::vector<double> brW = {b.always_taken, b.loop, b.biased, b.pattern, b.random};

  auto distance = [&]() -> std::uint16_t {
    int k = draw(depW, u01());
    if (hi[k] == 0) return 0;
    return static_cast<std::uint16_t>(
        lo[k] + static_cast<int>(rand64() % static_cast<std::uint64_t>(hi[k] - lo[k] + 1)));
  };

  // Classes: exactly the mix's counts (largest remainder), in a random order (Fisher-Yates), so a
  // short program still matches the mix while basic blocks keep their irregular sizes.
  std::vector<OpClass> classes;
  {
    double total = 0;
    for (double w : mixW) total += w;
    std::vector<std::pair<double, int>> rem;
    for (int c = 0; c < models::kOpClasses; ++c) {
      double exact = total > 0 ? mixW[c] / total * static_cast<double>(n) : 0;
      auto whole = static_cast<std::size_t>(exact);
      classes.insert(classes.end(), whole, static_cast<OpClass>(c));
      rem.emplace_back(exact - static_cast<double>(whole), -c);
    }
    std::sort(rem.rbegin(), rem.rend());
    for (std::size_t i = 0; classes.size() < n && i < rem.size(); ++i)
      classes.push_back(static_cast<OpClass>(-rem[i].second));
    while (classes.size() < n) classes.push_back(OpClass::IntAlu);
    for (std::size_t i = n - 1; i > 0; --i) std::swap(classes[i], classes[rand64() % (i + 1)]);
  }
  const std::uint64_t hot = std::max<std::uint64_t>(64, dt.hot_bytes);
  // Narrow loads and their consumers draw from their own generator, so that the rest of the
  // program is the same with or without them (and on every ISA).
  const double narrow = dt.narrowLoadFraction(isa);
  std::uint64_t narrowRng = rng_ ^ 0x6e6172726f77ull;
  auto narrowU01 = [&] {
    return static_cast<double>(splitmix(narrowRng) >> 11) * (1.0 / 9007199254740992.0);
  };
  std::uint64_t lastHotLoad = ~0ull;  // address of the closest earlier hot-region load
  for (std::size_t k = 0; k < n; ++k) {
    StaticInst& s = prog_[k];
    s.cls = classes[k];
    s.dep1 = distance();
    if (u01() < d.second_source) s.dep2 = distance();
    if ((s.cls == OpClass::Load || s.cls == OpClass::LoadMulti) && u01() >= d.load_address_recent) {
      // Address from a long-lived base register: only the second source (if any) is recent.
      s.dep1 = s.dep2;
      s.dep2 = 0;
    }
    if (models::isMemory(s.cls)) {
      bool multi = s.cls == OpClass::LoadMulti || s.cls == OpClass::StoreMulti;
      s.bytes = static_cast<std::uint16_t>(multi ? std::max(4, dt.multi_bytes) : accessBytes_);
      s.region = static_cast<std::uint8_t>(draw(regW, u01()));
      // A store is not a link of the pointer chain. Where the profile has a random-access
      // region (tables) it writes there; otherwise it writes a node of the linked structure the
      // chase walks (tree and list updates: huffman's node counts and links, a list's pointers),
      // at a random node off the chain, not the never-loaded default random span.
      if (s.region == kChase && models::isStore(s.cls) && dt.random_fraction > 0) s.region = kRandom;
      s.stream = static_cast<std::uint8_t>(k % static_cast<std::size_t>(std::max(1, dt.streams)));
      s.addr = alignDown(rand64() % hot, s.bytes);
      if (s.cls == OpClass::Load && narrow > 0 && narrowU01() < narrow) s.bytes = 1;
      if (s.region == kHot && !models::isStore(s.cls)) lastHotLoad = s.addr;
      // Drawn only when enabled, so profiles without it keep their random sequence.
      if (s.region == kHot && models::isStore(s.cls) && lastHotLoad != ~0ull &&
          dt.hot_store_to_loaded_fraction > 0 && u01() < dt.hot_store_to_loaded_fraction)
        s.addr = alignDown(lastHotLoad, 64) + alignDown(s.addr % 64, s.bytes);
      // Drawn only when enabled, so profiles without it keep their random sequence.
      if (s.region == kRandom && models::isStore(s.cls) &&
          dt.random_store_to_loaded_fraction > 0 && u01() < dt.random_store_to_loaded_fraction)
        s.toLoaded = true;
    }
    if (s.cls == OpClass::Branch) {
      s.kind = static_cast<std::uint8_t>(draw(brW, u01()));
      switch (s.kind) {
        case kLoop: {
          // Trip counts and body lengths spread around their means (0.5x .. 1.5x).
          double t = b.loop_trip_count * (0.5 + u01());
          s.param = static_cast<std::uint32_t>(std::max(2.0, std::round(t)));
          double body = std::max(1.0, std::round(b.loop_body_instructions * (0.5 + u01())));
          s.target = static_cast<std::uint32_t>(k > body ? k - static_cast<std::size_t>(body) : 0);
          break;
        }
        case kBiased:
          s.param = static_cast<std::uint32_t>(
              std::min(4294967295.0, b.biased_probability * 4294967296.0));
          s.usual = u01() < 0.5;
          break;
        case kPattern:
          s.param = static_cast<std::uint32_t>(std::max(2, b.pattern_period));
          s.pattern = rand64();
          break;
        default:
          break;
      }
    }
  }

  // Streaming dataflow: arithmetic takes the nearest preceding loads as its sources, stores take
  // the nearest preceding result (within the dependency window).
  if (d.consume_loads > 0 || d.store_result > 0) {
    auto computational = [](OpClass c) { return !models::isMemory(c) && c != OpClass::Branch; };
    // The data arithmetic (multiplies and floating point); additions and logic are also the
    // kernel's address and loop-control arithmetic, which does not consume loaded data.
    auto dataOp = [](OpClass c) {
      return c == OpClass::IntMul || c == OpClass::Int64Mul ||
             static_cast<int>(c) >= static_cast<int>(OpClass::FpAdd);
    };
    for (std::size_t k = 0; k < n; ++k) {
      StaticInst& s = prog_[k];
      if (dataOp(s.cls) && d.consume_loads > 0 && u01() < d.consume_loads) {
        std::uint16_t found[2] = {0, 0};
        int got = 0;
        for (std::size_t j = 1; j <= 64 && j <= k && got < 2; ++j) {
          OpClass c = prog_[k - j].cls;
          if (c == OpClass::Load || c == OpClass::LoadMulti)
            found[got++] = static_cast<std::uint16_t>(j);
        }
        if (got > 0) {
          s.dep1 = found[0];
          s.dep2 = got > 1 && s.dep2 != 0 ? found[1] : 0;
        }
      } else if (models::isStore(s.cls) && d.store_result > 0 && u01() < d.store_result) {
        for (std::size_t j = 1; j <= 64 && j <= k; ++j)
          if (computational(prog_[k - j].cls)) {
            s.dep1 = static_cast<std::uint16_t>(j);
            s.dep2 = 0;
            break;
          }
      }
    }
  }

  // Index arithmetic of counted loops: integer ALU operations, branches and load addresses take
  // their sources from the nearest preceding integer ALU results at the drawn distance (or
  // further back), never from loaded or floating-point data.
  if (d.index_chains > 0) {
    auto intAlu = [](OpClass c) { return c == OpClass::IntAlu || c == OpClass::Int64Alu; };
    auto toAlu = [&](std::size_t k, std::uint16_t dist) -> std::uint16_t {
      if (dist == 0) return 0;
      for (std::size_t j = dist; j <= 64 && j <= k; ++j)
        if (intAlu(prog_[k - j].cls)) return static_cast<std::uint16_t>(j);
      return 0;
    };
    for (std::size_t k = 0; k < n; ++k) {
      StaticInst& s = prog_[k];
      const bool control = intAlu(s.cls) || s.cls == OpClass::Branch ||
                           s.cls == OpClass::Load || s.cls == OpClass::LoadMulti;
      if (!control || !(u01() < d.index_chains)) continue;
      s.dep1 = toAlu(k, s.dep1);
      s.dep2 = toAlu(k, s.dep2);
    }
  }

  // Character loops: one of the next two instructions consumes the loaded byte.
  if (d.narrow_load_used_soon > 0) {
    for (std::size_t k = 0; k + 2 < n; ++k) {
      if (prog_[k].cls != OpClass::Load || prog_[k].bytes >= 4) continue;
      if (!(narrowU01() < d.narrow_load_used_soon)) continue;
      const std::uint16_t dist = static_cast<std::uint16_t>(1 + (splitmix(narrowRng) & 1));
      StaticInst& next = prog_[k + dist];
      // Not a load (its first source is its address) nor a load/store-multiple.
      if (next.cls == OpClass::Load || next.cls == OpClass::LoadMulti ||
          next.cls == OpClass::StoreMulti)
        continue;
      if (next.dep1 != dist) next.dep2 = next.dep1;
      next.dep1 = dist;
    }
  }

  // Reductions: a multiply-accumulate accumulates into the previous one of its precision.
  if (d.accumulator_chains > 0) {
    for (std::size_t k = 0; k < n; ++k) {
      StaticInst& s = prog_[k];
      if (s.cls != OpClass::FpMac && s.cls != OpClass::DpMac) continue;
      if (!(u01() < d.accumulator_chains)) continue;
      for (std::size_t j = 1; j <= 64 && j <= k; ++j)
        if (prog_[k - j].cls == s.cls) {
          // The products' inputs stay (the nearest load, when the profile says so).
          if (s.dep2 == 0) s.dep2 = s.dep1 != static_cast<std::uint16_t>(j) ? s.dep1 : 0;
          s.dep1 = static_cast<std::uint16_t>(j);
          s.accumulate = true;
          break;
        }
    }
  }

  // Data regions: per thread, disjoint from the other threads (dataBase) and from each other.
  rng_ ^= 0xda7a5a17ull + salt * 0x9e3779b97f4a7c15ull;
  const std::uint64_t align = 1ull << 20;
  std::uint64_t base = dataBase;
  for (auto& s : prog_) s.addr += base;  // hot region at the base
  base += alignDown(hot + align - 1, align) + align;
  int streams = std::max(1, dt.streams);
  streamSpan_ = std::max<std::uint64_t>(64, dt.stream_bytes / static_cast<std::uint64_t>(streams));
  stride_ = static_cast<std::uint32_t>(std::max(1, dt.stream_stride_bytes));
  for (int k = 0; k < streams; ++k) {
    streamBase_.push_back(base);
    streamPos_.push_back(0);
    base += alignDown(streamSpan_ + align - 1, align) + align;
  }
  if (dt.store_stride_bytes > 0) {
    // The output array of the column-walking stores: as big as the arrays the loads walk.
    outStride_ = static_cast<std::uint64_t>(dt.store_stride_bytes);
    outBase_ = base;
    outSpan_ = std::max<std::uint64_t>(64, dt.stream_bytes / static_cast<std::uint64_t>(streams));
    base += alignDown(outSpan_ + align - 1, align) + align;
  }
  randomBase_ = base;
  randomSpan_ = std::max<std::uint64_t>(64, dt.random_bytes);
  recordBytes_ = std::min<std::uint64_t>(
      randomSpan_, std::max<std::uint64_t>(accessBytes_, static_cast<std::uint64_t>(
                                                             std::max(1, dt.random_record_bytes))));
  recordAccesses_ = static_cast<std::uint32_t>(std::max(1, dt.random_record_accesses));
  base += alignDown(randomSpan_ + align - 1, align) + align;
  chaseBase_ = base;
  chaseSpan_ = std::max<std::uint64_t>(64, dt.chase_bytes);
}

std::vector<double> StreamGenerator::staticMix() const {
  std::vector<double> m(models::kOpClasses, 0.0);
  for (const auto& s : prog_) m[static_cast<int>(s.cls)] += 1.0;
  for (auto& x : m) x /= static_cast<double>(prog_.size());
  return m;
}

std::size_t StreamGenerator::next(DynInst* out, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    StaticInst& s = prog_[pc_];
    DynInst& o = out[k];
    o.pc = codeBase_ + static_cast<std::uint64_t>(pc_) * static_cast<std::uint64_t>(instBytes_);
    o.cls = s.cls;
    o.dep1 = s.dep1;
    o.dep2 = s.dep2;
    o.bytes = s.bytes;
    o.taken = false;
    o.accumulate = s.accumulate;
    if (models::isMemory(s.cls)) {
      switch (s.region) {
        case kHot:
          o.addr = s.addr;
          break;
        case kStream: {
          if (outStride_ > 0 && models::isStore(s.cls)) {
            // Column walk of the output array: down a column, then the next column.
            o.addr = outBase_ + outPos_;
            outPos_ += outStride_;
            if (outPos_ + s.bytes > outSpan_) {
              outColumn_ += s.bytes;
              if (outColumn_ >= outStride_) outColumn_ = 0;
              outPos_ = outColumn_;
            }
            break;
          }
          std::uint64_t& pos = streamPos_[s.stream];
          o.addr = streamBase_[s.stream] + pos;
          pos += stride_;
          if (pos + s.bytes > streamSpan_) pos = 0;
          break;
        }
        case kRandom:
          if (s.toLoaded && lastRandomLoad_ != ~0ull) {
            o.addr = alignDown(lastRandomLoad_, s.bytes);
            break;
          }
          if (recordAccesses_ <= 1) {
            o.addr = randomBase_ + alignDown(rand64() % randomSpan_, s.bytes);
            if (!models::isStore(s.cls)) lastRandomLoad_ = o.addr;
            break;
          }
          if (recordLeft_ == 0) {
            recordBase_ = alignDown(rand64() % (randomSpan_ - recordBytes_ + 1), 64);
            recordOffset_ = 0;
            recordLeft_ = recordAccesses_;
          }
          o.addr = randomBase_ + recordBase_ + alignDown(recordOffset_, s.bytes);
          recordOffset_ += s.bytes;
          if (recordOffset_ + s.bytes > recordBytes_) recordOffset_ = 0;
          --recordLeft_;
          if (!models::isStore(s.cls)) lastRandomLoad_ = o.addr;
          break;
        default: {  // chase: the address comes from the previous chase load
          o.addr = chaseBase_ + alignDown(rand64() % chaseSpan_, s.bytes);
          if (models::isStore(s.cls)) break;  // a node written off the chain (see above)
          std::uint64_t dist = lastChase_ != ~0ull ? seq_ - lastChase_ : 0;
          o.dep1 = static_cast<std::uint16_t>(dist > 0 && dist < 1024 ? dist : 0);
          lastChase_ = seq_;
          break;
        }
      }
    } else if (s.cls == OpClass::Branch) {
      switch (s.kind) {
        case kAlways:
          o.taken = true;
          break;
        case kLoop:
          o.taken = ++s.state % s.param != 0;
          break;
        case kBiased:
          o.taken = (static_cast<std::uint32_t>(rand64() >> 32) < s.param) == s.usual;
          break;
        case kPattern:
          o.taken = (s.pattern >> (s.state++ % s.param)) & 1;
          break;
        default:
          o.taken = rand64() & 1;
          break;
      }
    }
    ++seq_;
    if (o.taken && s.kind == kLoop && s.cls == OpClass::Branch)
      pc_ = s.target;
    else if (++pc_ == prog_.size())
      pc_ = 0;
  }
  return n;
}

}  // namespace socsim::wl::cpu
