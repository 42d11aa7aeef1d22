// Linux kernel-path workloads (LMBench OS rows, cyclictest): data loads, every measured row of
// lmbench-os and rt-latency on a Linux board is covered, copies go through the memory system
// (bw_pipe / bw_unix follow the cache and DDR configuration), lat_ctx grows with the working set
// as the cache model says, the same paths are slower on a slower core, predictions are
// deterministic and explain themselves.
//
// SystemC elaborates one platform per process, so every comparison between configurations
// predicts each configuration in a forked child process.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "calibration/dataset/measured_row.h"
#include "soc/config/loader.h"
#include "tests/support/child_process.h"
#include "validation/board_runner.h"
#include "validation/cross_guide.h"
#include "workloads/os/os_benchmarks.h"

using namespace socsim;
using namespace socsim::wl::os;

namespace {

std::string boardFile(const std::string& b) {
  return std::string(SOCSIM_TEST_SOURCE_DIR) + "/configs/boards/" + b + ".yaml";
}

wl::Query lm(const std::string& bench, const std::string& unit = "us") {
  return {"lmbench-os", bench, "perf", "", unit};
}

/// Predict `queries` on `board` with `overrides` in a child process (a fresh SystemC context);
/// returns the values in order (NaN for a query the child could not predict).
std::vector<double> predictInChild(const std::string& board,
                                   const std::vector<std::string>& overrides,
                                   const std::vector<wl::Query>& queries) {
  const std::string text = test::runInChild([&] {
    std::ostringstream os;
    try {
      validation::BoardRunContext ctx(
          std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile(board), overrides)));
      OsBenchmarks w(defaultOsDataDir());
      for (const auto& q : queries) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g\n", w.predict(ctx, q).value);
        os << buf;
      }
    } catch (const std::exception& e) {
      std::cerr << "child: " << e.what() << "\n";
    } catch (const wl::NotModelled& e) {
      std::cerr << "child: not modelled: " << e.reason << "\n";
    }
    return os.str();
  });
  std::vector<double> out;
  std::istringstream is(text);
  double v;
  while (is >> v) out.push_back(v);
  while (out.size() < queries.size()) out.push_back(NAN);
  return out;
}

double one(const std::string& board, const std::vector<std::string>& overrides,
           const wl::Query& q) {
  return predictInChild(board, overrides, {q}).at(0);
}

}  // namespace

TEST(OsWorkloadData, LoadsWithoutError) {
  OsBenchmarkData d;
  ASSERT_NO_THROW(d = loadOsBenchmarkData(defaultOsDataDir()));
  EXPECT_EQ(d.lmbench.xfer_bytes, 65536u);
  EXPECT_EQ(d.aliases.at("pipe_latency"), "lat_pipe");
  EXPECT_EQ(d.rtLoads.size(), 8u);
  EXPECT_NO_THROW(wl::cpu::loadProfile(d.kernelProfileFile));
}

// Every Linux board carries the stack's kernel paths; PREEMPT_RT changes only what it overrides.
TEST(OsWorkloadData, KernelPathsComeWithTheSoftwareStack) {
  auto evm = soc::loadBoard(boardFile("am654x-evm"));
  auto idk = soc::loadBoard(boardFile("am654x-idk"));
  EXPECT_EQ(evm.software.kernel_paths.switch_instructions,
            idk.software.kernel_paths.switch_instructions);
  EXPECT_LT(evm.software.kernel_paths.lock_instructions,
            idk.software.kernel_paths.lock_instructions);
  EXPECT_EQ(evm.software.kernel_paths.fault_around_pages, 16);
  EXPECT_NE(evm.sourceOf("software.kernel_paths.pipe_buffer_pages").find("PIPE_DEF_BUFFERS"),
            std::string::npos);
  auto o = soc::loadBoard(boardFile("am654x-evm"), {"software.kernel_paths.trap_instructions=500"});
  EXPECT_EQ(o.software.kernel_paths.trap_instructions, 500);
}

// Coverage: every measured lmbench-os / rt-latency row whose board runs Linux.
TEST(OsWorkloads, EveryMeasuredOsRowIsCovered) {
  auto rows = calib::readMeasuredDir(std::string(SOCSIM_TEST_SOURCE_DIR) + "/calibration/measured");
  OsBenchmarks w(defaultOsDataDir());
  int n = 0;
  std::set<std::string> missing;
  for (const auto& r : rows) {
    if (r.family != "lmbench-os" && r.family != "rt-latency") continue;
    ++n;
    wl::Query q{r.family, r.benchmark, r.metric, r.params, r.unit};
    if (!w.covers(q)) missing.insert(r.benchmark);
    if (r.family == "rt-latency") {
      auto uc = r.params.substr(r.params.find("use_case=") + 9);
      EXPECT_TRUE(w.data().rtLoads.count(uc)) << uc;
    }
  }
  EXPECT_GT(n, 580);
  for (const auto& b : missing) ADD_FAILURE() << "not covered: " << b;
  EXPECT_FALSE(w.covers(wl::Query{"lmbench-os", "lat_unknown", "perf", "", "us"}));
  EXPECT_FALSE(w.covers(wl::Query{"lmbench-mem", "bw_mem-rd-1mb", "perf", "", "MB/s"}));
}

// One board, every OS row: positive values in their units, a breakdown that adds up, a note
// naming the kernel instructions; bw_pipe's breakdown shows the copy through the memory system.
TEST(OsWorkloads, PredictsAndExplainsOnThePlatform) {
  validation::BoardRunContext ctx(
      std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am654x-evm"))));
  OsBenchmarks w(defaultOsDataDir());
  const std::vector<std::string> us = {
      "lat_syscall-null",  "lat_syscall-read",  "lat_syscall-write", "lat_syscall-stat",
      "lat_syscall-fstat", "lat_syscall-open",  "lat_sig-install",   "lat_sig-catch",
      "lat_sig-prot",      "lat_proc-proccall", "lat_proc-fork",     "lat_proc-exec",
      "lat_ctx-2-128k",    "lat_pipe",          "lat_unix",          "lat_tcp",
      "lat_connect",       "lat_select",        "lat_sem",           "lat_pagefault",
      "lat_mmap-1m"};
  std::map<std::string, double> v;
  for (const auto& b : us) {
    auto p = w.predict(ctx, lm(b));
    v[b] = p.value;
    EXPECT_GT(p.value, 0) << b;
    double sum = 0;
    for (const auto& [part, s] : p.breakdown.seconds) sum += s;
    if (b != "lat_sig-prot") {
      EXPECT_NEAR(sum * 1e6, p.value, 1e-6 * p.value) << b;
    }
    EXPECT_NE(p.note.find("instructions"), std::string::npos) << b;
  }
  // Orders of magnitude lmbench's structure implies: a null call < a read < a pipe round trip
  // < fork < fork + exec.
  EXPECT_LT(v["lat_syscall-null"], v["lat_syscall-read"]);
  EXPECT_LT(v["lat_syscall-read"], v["lat_pipe"]);
  EXPECT_LT(v["lat_pipe"], v["lat_proc-fork"]);
  EXPECT_LT(v["lat_proc-fork"], v["lat_proc-exec"]);
  EXPECT_LT(v["lat_proc-proccall"], 0.1);
  auto bw = w.predict(ctx, lm("bw_pipe", "MB/s"));
  bool copy = false, kernel = false;
  for (const auto& [part, s] : bw.breakdown.seconds) {
    copy |= part.rfind("copy.", 0) == 0 && s > 0;
    kernel |= part.rfind("kernel.", 0) == 0 && s > 0;
  }
  EXPECT_TRUE(copy && kernel);
  EXPECT_GT(w.predict(ctx, lm("lat_fs-0k", "files/s")).value,
            w.predict(ctx, lm("lat_fs-10k", "files/s")).value);
  // lat_mmap scales with the mapping size (lmbench touches size/10 of it, one write fault per
  // 16 KiB); fork's page-table work makes it far dearer than a page fault.
  EXPECT_LT(v["lat_mmap-1m"], w.predict(ctx, lm("lat_mmap-4m")).value);
  EXPECT_GT(v["lat_proc-fork"], 50 * v["lat_pagefault"]);
  // Aliases are the same prediction.
  EXPECT_DOUBLE_EQ(w.predict(ctx, lm("pipe_latency")).value, v["lat_pipe"]);
  // A row in another unit is not modelled rather than mis-scaled.
  EXPECT_THROW(w.predict(ctx, lm("bw_pipe", "us")), wl::NotModelled);
}

// bw_pipe and bw_unix are copies through the memory system: with the L2 of am335x-evm cut below
// the transfer's working set (writer buffer + pipe pages + reader buffer, 3 x 64 KiB) the
// bandwidth drops, and then follows the DDR data rate; a faster DDR does not speed up a
// cache-resident copy much.
TEST(OsWorkloads, PipeAndUnixBandwidthMoveWithDdrAndCaches) {
  const std::vector<wl::Query> q = {lm("bw_pipe", "MB/s"), lm("bw_unix", "MB/s")};
  auto base = predictInChild("am335x-evm", {}, q);
  auto smallL2 = predictInChild("am335x-evm", {"clusters[0].l2.size=64KiB"}, q);
  auto smallL2SlowDdr =
      predictInChild("am335x-evm", {"clusters[0].l2.size=64KiB", "dram.data_rate=400MT/s"}, q);
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(q[static_cast<std::size_t>(i)].benchmark);
    ASSERT_TRUE(std::isfinite(base[i]) && std::isfinite(smallL2[i]) &&
                std::isfinite(smallL2SlowDdr[i]));
    EXPECT_LT(smallL2[i], 0.9 * base[i]);
    EXPECT_LT(smallL2SlowDdr[i], 0.95 * smallL2[i]);
  }
  std::cout << "bw_pipe MB/s: base " << base[0] << ", L2 64 KiB " << smallL2[0]
            << ", + DDR 400 MT/s " << smallL2SlowDdr[0] << "\n";
}

// copy_{from,to}_user: an SDK 11 (Linux 6.12) AArch64 kernel reaches user memory through
// 8-byte LDTR/STTR, the older kernels through LDP/STP pairs; the narrower user side slows the
// L2-resident pipe and socket copies of the J7 boards, and a 32-bit kernel ignores the setting.
TEST(OsWorkloads, UserSideOfTheKernelCopyFollowsTheStack) {
  EXPECT_EQ(soc::loadBoard(boardFile("j721e-idk-gw")).software.kernel_paths.uaccess_user_access_bytes, 8);
  EXPECT_EQ(soc::loadBoard(boardFile("am654x-evm")).software.kernel_paths.uaccess_user_access_bytes, 16);
  const std::vector<wl::Query> q = {lm("bw_pipe", "MB/s"), lm("bw_unix", "MB/s")};
  const std::string pairs = "software.kernel_paths.uaccess_user_access_bytes=16";
  auto ldtr = predictInChild("j721e-idk-gw", {}, q);
  auto ldp = predictInChild("j721e-idk-gw", {pairs}, q);
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(q[static_cast<std::size_t>(i)].benchmark);
    ASSERT_TRUE(std::isfinite(ldtr[i]) && std::isfinite(ldp[i]));
    EXPECT_LT(ldtr[i], 0.95 * ldp[i]);
  }
  const auto pipe = lm("bw_pipe", "MB/s");
  EXPECT_EQ(one("am335x-evm", {}, pipe), one("am335x-evm", {pairs}, pipe));
  EXPECT_GT(one("am335x-evm", {}, pipe),
            one("am335x-evm", {"software.kernel_paths.aarch32_uaccess_access_bytes=4"}, pipe));
}

// lat_ctx: the switch refills the next process's working set. On am654x-evm (512 KiB L2 per
// cluster) 2 x 128 KiB stays in the L2, 2 x 256 KiB fills it, 4 x 256 KiB goes to DDR on every
// switch; a bigger L2 brings 4 x 256 KiB back down.
TEST(OsWorkloads, ContextSwitchGrowsWithTheWorkingSet) {
  const std::vector<wl::Query> q = {lm("lat_ctx-2-128k"), lm("lat_ctx-2-256k"),
                                    lm("lat_ctx-4-128k"), lm("lat_ctx-4-256k")};
  auto v = predictInChild("am654x-evm", {}, q);
  for (double x : v) ASSERT_TRUE(std::isfinite(x));
  EXPECT_LE(v[0], v[1]);
  EXPECT_LE(v[0], v[2]);
  EXPECT_LT(v[1], v[3]);
  EXPECT_GT(v[3], 3 * v[0]);
  auto big = predictInChild("am654x-evm", {"clusters[0].l2.size=2MiB"}, {q[3]});
  EXPECT_LT(big[0], 0.6 * v[3]);
  std::cout << "lat_ctx us (2-128k, 2-256k, 4-128k, 4-256k): " << v[0] << ", " << v[1] << ", "
            << v[2] << ", " << v[3] << "; 4-256k with a 2 MiB L2: " << big[0] << "\n";
}

// SDK 11's lmbench never writes lat_ctx's arrays (malloc + bzero folded into calloc of a fresh
// mmap chunk): every page reads the shared zero page, so the ring is as fast at 4 x 256 KiB as at
// 2 x 128 KiB, even in the J722S's 512 KiB L2. A stack without the fold refills as before, and
// arrays below glibc's 128 KiB mmap threshold are real memory either way.
TEST(OsWorkloads, ZeroPageArraysDoNotRefill) {
  EXPECT_TRUE(soc::loadBoard(boardFile("j722s_evm-fs")).software.kernel_paths.lmbench_arrays_zero_page);
  EXPECT_FALSE(soc::loadBoard(boardFile("am654x-evm")).software.kernel_paths.lmbench_arrays_zero_page);
  const std::vector<wl::Query> q = {lm("lat_ctx-2-128k"), lm("lat_ctx-4-256k"), lm("lat_ctx-4-64k")};
  auto on = predictInChild("j722s_evm-fs", {}, q);
  auto off = predictInChild("j722s_evm-fs", {"software.kernel_paths.lmbench_arrays_zero_page=false"}, q);
  for (double x : on) ASSERT_TRUE(std::isfinite(x));
  EXPECT_NEAR(on[1] / on[0], 1.0, 0.2);
  EXPECT_GT(off[1], 3 * on[1]);
  EXPECT_EQ(on[2], off[2]);
  std::cout << "j722s lat_ctx us (2-128k, 4-256k): zero page " << on[0] << ", " << on[1]
            << "; written arrays " << off[0] << ", " << off[1] << "\n";
}

// The same kernel path is slower on a Cortex-A8 at 1 GHz than on a Cortex-A72 at 2 GHz, and a
// system call's time follows the core clock.
TEST(OsWorkloads, KernelPathsFollowTheCore) {
  double a8 = one("am335x-evm", {}, lm("lat_syscall-null"));
  double a72 = one("j721e-idk-gw", {}, lm("lat_syscall-null"));
  EXPECT_GT(a8, 1.5 * a72);
  double half = one("j721e-idk-gw", {"clusters[0].core.clock_mhz=1000"}, lm("lat_syscall-null"));
  EXPECT_NEAR(half / a72, 2.0, 0.25);
  // A stack parameter moves every board running the stack.
  double heavier =
      one("j721e-idk-gw", {"software.kernel_paths.trap_instructions=1000"}, lm("lat_syscall-null"));
  EXPECT_GT(heavier, 2 * a72);
}

// The path lengths are AArch64 counts: a 32-bit kernel runs more instructions for the same C
// (64-bit quantities in register pairs, fewer registers, no divide on older cores), by its
// ISA's factor: ARMv7 boards take aarch32_path_factor, ARMv5 boards armv5_path_factor, AArch64
// boards neither. The presets' defaults are above 1 for both.
TEST(OsWorkloads, ThirtyTwoBitKernelsRunLongerPaths) {
  auto a8 = soc::loadBoard(boardFile("am335x-evm"));
  EXPECT_GT(a8.software.kernel_paths.aarch32_path_factor, 1.0);
  EXPECT_GT(a8.software.kernel_paths.armv5_path_factor, 1.0);
  const std::string v7 = "software.kernel_paths.aarch32_path_factor=";
  const std::string v5 = "software.kernel_paths.armv5_path_factor=";
  const wl::Query q = lm("lat_syscall-stat");
  const double a8One = one("am335x-evm", {v7 + "1"}, q), a8Two = one("am335x-evm", {v7 + "2"}, q);
  EXPECT_GT(a8Two, 1.5 * a8One);
  EXPECT_EQ(one("am335x-evm", {v5 + "1"}, q), one("am335x-evm", {v5 + "2"}, q));
  const double arm9One = one("omapl138-lcdk", {v5 + "1"}, q);
  EXPECT_GT(one("omapl138-lcdk", {v5 + "2"}, q), 1.5 * arm9One);
  EXPECT_EQ(one("omapl138-lcdk", {v7 + "1"}, q), one("omapl138-lcdk", {v7 + "2"}, q));
  EXPECT_EQ(one("j721e-idk-gw", {v7 + "1", v5 + "1"}, q),
            one("j721e-idk-gw", {v7 + "2", v5 + "2"}, q));
}

// SMP: the two ends of a ping-pong keep a core each, so every hand-over is a cross-core
// wake-up (IPI delivery, the target's IPI path, the lines the waker wrote). A uniprocessor
// (the same board with one core) pays none of it; a system call never does.
TEST(OsWorkloads, CrossCoreWakeupOnlyOnSmp) {
  const std::vector<wl::Query> q = {lm("lat_pipe"), lm("lat_sem"), lm("lat_syscall-null")};
  const std::string ipi = "software.kernel_paths.ipi_delivery_ns=300";
  const std::string slowIpi = "software.kernel_paths.ipi_delivery_ns=5000";
  const std::string up = "clusters[0].cores=1";
  auto smp = predictInChild("j721e-idk-gw", {ipi}, q);
  auto smpSlow = predictInChild("j721e-idk-gw", {slowIpi}, q);
  auto uni = predictInChild("j721e-idk-gw", {up, ipi}, q);
  auto uniSlow = predictInChild("j721e-idk-gw", {up, slowIpi}, q);
  for (auto* v : {&smp, &smpSlow, &uni, &uniSlow})
    for (double x : *v) ASSERT_TRUE(std::isfinite(x));
  // lat_pipe is a round trip (two hand-overs); lat_sem reports a sixth of a cycle of two.
  EXPECT_NEAR(smpSlow[0] - smp[0], 2 * (5.0 - 0.3), 0.2);
  EXPECT_NEAR(smpSlow[1] - smp[1], (5.0 - 0.3) / 3, 0.05);
  EXPECT_EQ(uniSlow[0], uni[0]);
  EXPECT_EQ(uniSlow[1], uni[1]);
  EXPECT_EQ(smpSlow[2], smp[2]);
  EXPECT_EQ(uni[2], smp[2]);
  // More shared lines cost more on the SMP board only.
  const std::string lines = "software.kernel_paths.wakeup_shared_lines=64";
  EXPECT_GT(one("j721e-idk-gw", {ipi, lines}, q[0]), smp[0] * 1.02);
  EXPECT_EQ(one("j721e-idk-gw", {up, ipi, lines}, q[0]), uni[0]);
  std::cout << "lat_pipe us: SMP " << smp[0] << ", one core " << uni[0] << "\n";
}

// A kernel generation is a software stack: the SDK 11 boards share its path factor (a free
// parameter of linux_sdk11.yaml); the other boards keep the base stack's factor of 1.
TEST(OsWorkloads, KernelGenerationScalesItsStacksPaths) {
  auto j7 = soc::loadBoard(boardFile("j721e-idk-gw"));
  auto j722s = soc::loadBoard(boardFile("j722s_evm-fs"));
  auto a8 = soc::loadBoard(boardFile("am335x-evm"));
  const std::string key = "software.kernel_paths.stack_path_factor";
  EXPECT_NE(j7.sourceOf(key).find("calibrated"), std::string::npos);
  EXPECT_EQ(j7.sourceOf(key), j722s.sourceOf(key));
  EXPECT_EQ(a8.sourceOf(key).find("calibrated"), std::string::npos);
  EXPECT_EQ(a8.software.kernel_paths.stack_path_factor, 1.0);
  double base = one("j721e-idk-gw", {key + "=1"}, lm("lat_syscall-null"));
  double twice = one("j721e-idk-gw", {key + "=2"}, lm("lat_syscall-null"));
  // Instructions double; the entry's pipeline refills and BHB barrier do not.
  EXPECT_GT(twice, 1.5 * base);
  EXPECT_LT(twice, 2.0 * base);
}

// fork copies no PTEs of the file-backed text, so the lat_proc fork child faults in each
// fault-around window of code it runs before exit(1), and exit unmaps them: fork + exit grows
// with the window, and more than fork + execve, whose child runs less code before execve.
TEST(OsWorkloads, ForkChildFaultsInTheCodeItRuns) {
  const std::string key = "software.kernel_paths.fault_around_pages";
  const std::vector<wl::Query> q = {lm("lat_proc-fork"), lm("lat_proc-exec")};
  auto wide = predictInChild("am57xx-evm", {key + "=16"}, q);
  auto one = predictInChild("am57xx-evm", {key + "=1"}, q);
  const double dFork = wide[0] - one[0], dExec = wide[1] - one[1];
  EXPECT_GT(dFork, 0.1 * one[0]);
  EXPECT_GT(dExec, 0);
  // 8 faults against 3 (lmbench_os.yaml), the same per-fault work.
  EXPECT_GT(dFork / dExec, 2.0);
  EXPECT_LT(dFork / dExec, 3.5);
}

// A board measured in two releases runs each release's stack on that release's rows: AM335x's
// guide 001 rows (SDK 09.03) take linux_sdk09.yaml, its guide 000 rows linux.yaml; AM57xx's
// guide 002 rows take the same generation (linux_guide002.yaml presets linux_sdk09.yaml) without
// the Spectre-BHB loop. Only the release's rows move with its stack's factor.
TEST(OsWorkloads, RowsRunOnTheirReleasesStack) {
  const std::string g001 = "001_508a313bc146f3fb", g002 = "002_eb73a69247cbc681";
  auto a8 = soc::loadBoard(boardFile("am335x-evm"));
  ASSERT_EQ(a8.softwareReleases.count(g001), 1u);
  EXPECT_EQ(a8.softwareFor(g001).sdk, "Processor SDK Linux 09.03");
  EXPECT_EQ(&a8.softwareFor("000_c397333184f33b18"), &a8.software);
  EXPECT_EQ(&a8.softwareFor(""), &a8.software);
  const std::string key = "kernel_paths.stack_path_factor";
  EXPECT_NE(a8.sourceOf("software_releases." + g001 + "." + key).find("calibrated"),
            std::string::npos);
  auto a15 = soc::loadBoard(boardFile("am57xx-evm"));
  EXPECT_FALSE(a15.softwareFor(g002).kernel_paths.spectre_bhb_mitigation);
  EXPECT_EQ(a15.sourceOf("software_releases." + g002 + "." + key),
            a8.sourceOf("software_releases." + g001 + "." + key));

  wl::Query old = lm("lat_syscall-null"), rel = old;
  old.source = "000_c397333184f33b18";
  rel.source = g001;
  const std::string twice = "software_releases." + g001 + "." + key + "=2";
  auto base = predictInChild("am335x-evm", {}, {old, rel});
  auto moved = predictInChild("am335x-evm", {twice}, {old, rel});
  EXPECT_EQ(base[0], base[1]);  // the same paths until the fit moves the release's factor
  EXPECT_EQ(moved[0], base[0]);
  EXPECT_GT(moved[1], 1.5 * base[1]);
}

// Spectre-BHB: cores in the kernel's loop list (Cortex-A72, A15) pay the branch loop and its
// barrier on every entry from user space; a Cortex-A53 does not.
TEST(OsWorkloads, BranchHistoryLoopOnlyOnAffectedCores) {
  const std::string base = "software.kernel_paths.bhb_barrier_cycles=100";
  auto a72 = predictInChild("j721e-idk-gw", {base}, {lm("lat_syscall-null")});
  auto a53 = predictInChild("am654x-evm", {base}, {lm("lat_syscall-null")});
  const std::string barrier = "software.kernel_paths.bhb_barrier_cycles=1000";
  auto a72b = predictInChild("j721e-idk-gw", {barrier}, {lm("lat_syscall-null")});
  auto a53b = predictInChild("am654x-evm", {barrier}, {lm("lat_syscall-null")});
  auto a72off =
      predictInChild("j721e-idk-gw", {"clusters[0].core.bhb_loop_iterations=0"}, {lm("lat_syscall-null")});
  // One entry per null call: 900 more cycles at 2 GHz.
  EXPECT_NEAR(a72b[0] - a72[0], 900 / 2000.0, 0.01);
  EXPECT_EQ(a53b[0], a53[0]);
  EXPECT_LT(a72off[0], a72[0]);
}

// The older guides' kernel (linux.yaml, guide 000's release of about 2018-2019) predates the
// Spectre-BHB mitigation: its Cortex-A15 boards pay no branch loop until the stack says so.
TEST(OsWorkloads, BranchHistoryLoopOnlyInKernelsThatHaveIt) {
  auto am57 = soc::loadBoard(boardFile("am57xx-evm"));
  EXPECT_FALSE(am57.software.kernel_paths.spectre_bhb_mitigation);
  EXPECT_NE(am57.sourceOf("software.kernel_paths.spectre_bhb_mitigation").find("5.17"),
            std::string::npos);
  EXPECT_TRUE(soc::loadBoard(boardFile("j721e-idk-gw")).software.kernel_paths.spectre_bhb_mitigation);
  const std::string b100 = "software.kernel_paths.bhb_barrier_cycles=100";
  const std::string b1000 = "software.kernel_paths.bhb_barrier_cycles=1000";
  const std::string on = "software.kernel_paths.spectre_bhb_mitigation=true";
  const auto q = lm("lat_syscall-null");
  const double old100 = one("am57xx-evm", {b100}, q), old1000 = one("am57xx-evm", {b1000}, q);
  const double on100 = one("am57xx-evm", {on, b100}, q), on1000 = one("am57xx-evm", {on, b1000}, q);
  EXPECT_EQ(old100, old1000);
  EXPECT_GT(on100, old100);
  // One entry per null call: 900 more cycles at 1.5 GHz.
  EXPECT_NEAR(on1000 - on100, 900 / 1500.0, 0.01);
}

// Spectre v2 on Cortex-A15: Linux invalidates the whole L1 I-cache on every switch of address
// space (cpu_v7_iciallu_switch_mm). On the uniprocessor K2G every lat_pipe hand-over switches
// process, so the hop's code refetches from L2; a Cortex-A53 (AM654x) has no such switch, and a
// kernel without the hardening pays nothing.
TEST(OsWorkloads, SwitchMmInvalidatesTheA15InstructionCache) {
  const std::string off = "software.kernel_paths.spectre_v2_switch_mm_hardening=false";
  auto a15 = soc::loadBoard(boardFile("k2g-evm"));
  EXPECT_TRUE(a15.mainCluster().core.switch_mm_invalidates_icache);
  EXPECT_FALSE(soc::loadBoard(boardFile("am654x-evm")).mainCluster().core.switch_mm_invalidates_icache);
  const auto q = lm("lat_pipe");
  const double on = one("k2g-evm", {}, q), without = one("k2g-evm", {off}, q);
  EXPECT_GT(on, without * 1.05);
  EXPECT_LT(on, without * 3);
  EXPECT_EQ(one("am654x-evm", {}, q), one("am654x-evm", {off}, q));
  // A system call switches no address space.
  EXPECT_EQ(one("k2g-evm", {}, lm("lat_syscall-null")), one("k2g-evm", {off}, lm("lat_syscall-null")));
}

// lmbench3 lat_sem: each task's semop also performs the sleeping peer's queued operation, so a
// cycle is two hand-overs and three semops per task, reported as six units. On one core every
// semop is on the path (one kernel entry per unit; lat_pipe's round trip has four); with a core
// each, only the waking semop and the woken core's IPI entry (4 entries per 6 units; lat_pipe
// has 6 per round trip). Pipeline refills per entry are pure time: their effect is exact.
TEST(OsWorkloads, SemaphoreCycleIsTwoHandOversPerSixUnits) {
  const std::vector<wl::Query> q = {lm("lat_sem"), lm("lat_pipe")};
  const std::string r2 = "software.kernel_paths.trap_pipeline_refills=2";
  const std::string r12 = "software.kernel_paths.trap_pipeline_refills=12";
  for (const auto& [board, ratio] :
       std::vector<std::pair<std::string, double>>{{"am335x-evm", 1.0 / 4}, {"j721e-idk-gw", 1.0 / 9}}) {
    auto lo = predictInChild(board, {r2}, q), hi = predictInChild(board, {r12}, q);
    const double dSem = hi[0] - lo[0], dPipe = hi[1] - lo[1];
    ASSERT_GT(dPipe, 0) << board;
    EXPECT_NEAR(dSem / dPipe, ratio, 1e-6 * ratio + 1e-9) << board;
  }
}

// PREEMPT_RT's sleeping spinlocks slow the paths' bodies, not the kernel entry and exit: a null
// system call (almost all entry) grows far less with the lock cost than stat (a long body).
TEST(OsWorkloads, LockCostSparesTheEntryPath) {
  const std::vector<wl::Query> q = {lm("lat_syscall-null"), lm("lat_syscall-stat")};
  auto none = predictInChild("am654x-idk", {"software.kernel_paths.locks_per_kilo_instruction=0"}, q);
  auto many = predictInChild("am654x-idk", {"software.kernel_paths.locks_per_kilo_instruction=10"}, q);
  const double nullRatio = many[0] / none[0], statRatio = many[1] / none[1];
  EXPECT_LT(nullRatio, 1.5);
  EXPECT_GT(statRatio, nullRatio + 0.3);
}

// lat_fs prints benchmp's iteration count of its timed create loop (lmbench3 lat_fs.c
// measure: get_n()), which benchmp sizes to 1.1 x ENOUGH (5000 us) per run: a count of files,
// inversely proportional to the time of one creat + write + close in /tmp (tmpfs, in memory).
// A file of 1 KiB and one of 4 KiB each take one new page; 10 KiB takes three.
TEST(OsWorkloads, FileCreateCountFollowsTheKernelPathsInMemory) {
  const std::vector<wl::Query> q = {lm("lat_fs-0k", "files/s"), lm("lat_fs-1k", "files/s"),
                                    lm("lat_fs-4k", "files/s"), lm("lat_fs-10k", "files/s")};
  auto n = predictInChild("j721e-idk-gw", {}, q);
  EXPECT_GT(n[0], 1.3 * n[1]);
  EXPECT_NEAR(n[1] / n[2], 1.0, 0.1);
  EXPECT_GT(n[2], 1.2 * n[3]);
  // Tens of microseconds per file on a 2 GHz Cortex-A72: hundreds of files per 5.5 ms run.
  EXPECT_GT(n[0], 100);
  EXPECT_LT(n[0], 5000);
  // The count is 5500 us / (time of one file) + 1: doubling the create path's length lowers it.
  auto longer = predictInChild("j721e-idk-gw",
                               {"software.kernel_paths.shmem_create_instructions=40000"}, q);
  EXPECT_LT(longer[0], 0.6 * n[0]);
  // The per-page write path moves the written sizes, not the empty file.
  auto pages = predictInChild("j721e-idk-gw",
                              {"software.kernel_paths.shmem_write_page_instructions=20000"}, q);
  EXPECT_DOUBLE_EQ(pages[0], n[0]);
  EXPECT_LT(pages[3] / n[3], pages[2] / n[2]);
}

// Found: the 32-bit boards' signal frame came from arch/arm64 (1200 B); a 32-bit ARM kernel
// builds arch/arm/kernel/signal.h's 888 B rt_sigframe. Each ISA uses its own field.
TEST(OsWorkloads, SignalFrameFollowsTheKernelArchitecture) {
  auto a8 = soc::loadBoard(boardFile("am335x-evm"));
  EXPECT_EQ(a8.software.kernel_paths.aarch32_signal_frame_bytes, 888u);
  EXPECT_NE(a8.sourceOf("software.kernel_paths.aarch32_signal_frame_bytes")
                .find("arch/arm/kernel/signal.h"),
            std::string::npos);
  const auto catchQ = lm("lat_sig-catch");
  const std::string big32 = "software.kernel_paths.aarch32_signal_frame_bytes=65536";
  const std::string big64 = "software.kernel_paths.signal_frame_bytes=65536";
  double base32 = one("am335x-evm", {}, catchQ);
  EXPECT_GT(one("am335x-evm", {big32}, catchQ), base32 * 1.05);
  EXPECT_EQ(one("am335x-evm", {big64}, catchQ), base32);
  double base64 = one("j721e-idk-gw", {}, catchQ);
  EXPECT_GT(one("j721e-idk-gw", {big64}, catchQ), base64 * 1.05);
  EXPECT_EQ(one("j721e-idk-gw", {big32}, catchQ), base64);
}

// PREEMPT_RT: the same SoC with the RT kernel has slower lock-heavy paths; cyclictest's worst
// case grows with the background load's memory traffic and interrupts.
TEST(OsWorkloads, RtKernelAndCyclictest) {
  double evm = one("am654x-evm", {}, lm("lat_sem"));
  auto rt = predictInChild("am654x-idk", {},
                           {lm("lat_sem"),
                            {"rt-latency", "Shield (dedicated core) Case", "Latency",
                             "kernel=rt;use_case=L_PERF_SHIELD_SMP_NO_LOAD", "us"},
                            {"rt-latency", "Shield (dedicated core) Case", "Latency",
                             "kernel=rt;use_case=L_PERF_SHIELD_SMP_MEM", "us"},
                            {"rt-latency", "Shield (dedicated core) Case", "Latency",
                             "kernel=rt;use_case=L_PERF_SHIELD_SMP_USB_NET", "us"}});
  EXPECT_GT(rt[0], evm);
  EXPECT_GT(rt[1], 1.0);
  EXPECT_GT(rt[2], rt[1]);
  EXPECT_GT(rt[3], rt[1]);
  std::cout << "cyclictest max us: no load " << rt[1] << ", mem " << rt[2] << ", usb+net " << rt[3]
            << "\n";
}

// Bit-identical predictions from two independent runs.
TEST(OsWorkloads, Deterministic) {
  const std::vector<wl::Query> q = {lm("lat_ctx-4-256k"),
                                    lm("bw_pipe", "MB/s"),
                                    lm("lat_proc-fork"),
                                    lm("lat_pagefault"),
                                    {"rt-latency", "Shield (dedicated core) Case", "Latency",
                                     "kernel=rt;use_case=L_PERF_SHIELD_SMP_MEM", "us"}};
  auto a = predictInChild("am654x-idk", {}, q);
  auto b = predictInChild("am654x-idk", {}, q);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(std::isfinite(a[i])) << q[i].benchmark;
    EXPECT_EQ(a[i], b[i]) << q[i].benchmark;
  }
}

// A board without Linux is not modelled (reported with the reason), not guessed.
TEST(OsWorkloads, NotLinuxIsNotModelled) {
  validation::BoardRunContext ctx(
      std::make_unique<soc::BoardConfig>(soc::loadBoard(boardFile("am64x-evm"))));
  OsBenchmarks w(defaultOsDataDir());
  EXPECT_THROW(w.predict(ctx, lm("lat_syscall-null")), wl::NotModelled);
}

// The validation table's cross-guide column: the other guide's value and whether the spread
// between guides exceeds the model's error on the row.
TEST(CrossGuide, ComparesTheSameRowAcrossGuides) {
  auto row = [](const std::string& src, double v, std::optional<double> pred) {
    validation::ValidationRow r;
    r.measured.source = src;
    r.measured.board = "am335x-evm";
    r.measured.family = "lmbench-os";
    r.measured.benchmark = "lat_pipe";
    r.measured.metric = "perf";
    r.measured.unit = "us";
    r.measured.value = v;
    r.predicted = pred;
    return r;
  };
  std::vector<validation::ValidationRow> rows = {
      row("000_x", 34.55, 30.0), row("001_y", 38.21, 30.0), row("000_x", 1.0, std::nullopt)};
  rows[2].measured.benchmark = "lat_tcp";
  auto c = validation::crossGuide(rows);
  ASSERT_TRUE(c[0].has);
  EXPECT_EQ(c[0].otherSource, "001_y");
  EXPECT_NEAR(c[0].disagreement, 38.21 / 34.55 - 1, 1e-12);
  EXPECT_FALSE(c[0].exceeds);  // 10.6 % spread < 13 % model error
  EXPECT_TRUE(c[1].has);
  EXPECT_EQ(c[1].otherSource, "000_x");
  EXPECT_FALSE(c[2].has);
  EXPECT_EQ(validation::crossGuideCell(c[2]), "");
  EXPECT_EQ(validation::crossGuideCell(c[0]).rfind("001: +11%", 0), 0u)
      << validation::crossGuideCell(c[0]);
  rows[0].predicted = 34.0;  // 1.6 % model error: the guides disagree by more
  c = validation::crossGuide(rows);
  EXPECT_TRUE(c[0].exceeds);
  EXPECT_NE(validation::crossGuideCell(c[0]).find("> model"), std::string::npos);
}

// lmbench subtracts a baseline (lat_ctx: the warm single-process sum; lat_sig-prot: the signal
// send). Found: a part the baseline spent more time in was dropped while its time stayed in the
// total, so explain showed a negative 'other'. The grown parts now share the net time.
TEST(OsTimed, SubtractKeepsPartsSummingToTheTotalAndNonNegative) {
  using socsim::wl::os::Timed;
  Timed hop, warm;
  hop.add("dram", 30e-6);
  hop.add("l2", 5e-6);
  warm.add("l2", 20e-6);
  warm.add("l1", 3e-6);
  hop.subtract(warm);  // net 35 - 23 = 12 us: dram grew by 30, l2 shrank by 15, l1 by 3
  EXPECT_NEAR(hop.seconds, 12e-6, 1e-15);
  ASSERT_EQ(hop.parts.size(), 1u);
  EXPECT_EQ(hop.parts[0].first, "dram");
  EXPECT_NEAR(hop.parts[0].second, 12e-6, 1e-15);
  Timed total;
  total.add(hop);
  for (const auto& [name, s] : total.parts) EXPECT_GT(s, 0) << name;  // no negative "other"
  Timed less;
  less.add("l2", 1e-6);
  less.subtract(warm);
  EXPECT_TRUE(less.parts.empty());
}
