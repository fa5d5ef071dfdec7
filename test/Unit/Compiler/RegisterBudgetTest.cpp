//===- RegisterBudgetTest.cpp - ptxas usage and resident CTAs -------------===//
//
// The compile-time half of the register budget (assembleCubin): what
// `ptxas -v` says of each entry, and the occupancy the target's limits
// give, against the CUDA occupancy calculator's figures.
//
//===----------------------------------------------------------------------===//

#include "compiler/Jit/Compiler.h"
#include "passes/Target.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

TEST(RegisterBudget, ParsePtxasUsage) {
  // ptxas 13's -v output (static shared memory and cmem printed only when
  // used).
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'ln__aligned' for 'sm_90a'\n"
      "ptxas info    : Function properties for ln__aligned\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 112 registers, used 1 barriers\n"
      "ptxas info    : Compile time = 21.483 ms\n"
      "ptxas info    : Compiling entry function 'ln' for 'sm_90a'\n"
      "ptxas info    : Function properties for ln\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 236 registers, used 1 barriers, 1024 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'odd' for 'sm_90a'\n";
  std::map<std::string, PtxasUsage> usage = parsePtxasUsage(log);
  ASSERT_EQ(usage.size(), 3u);
  EXPECT_EQ(usage["ln__aligned"].registers, 112u);
  EXPECT_EQ(usage["ln__aligned"].sharedBytes, 0u);
  EXPECT_EQ(usage["ln"].registers, 236u);
  EXPECT_EQ(usage["ln"].sharedBytes, 1024u);
  EXPECT_EQ(usage["odd"].registers, 0u); // no usage line: unknown
  EXPECT_TRUE(parsePtxasUsage("").empty());
  EXPECT_TRUE(parsePtxasUsage("ptxas info    : Used 12 registers\n").empty());
}

TEST(RegisterBudget, ResidentCTAs) {
  const TargetInfo &h100 = getTarget("sm_90a");
  // Registers bound (8 warps): 112 -> 2, 125 -> 2, 60 -> 4, 72 -> 3.
  EXPECT_EQ(h100.residentCTAs(8, 112, 0), 2u);
  EXPECT_EQ(h100.residentCTAs(8, 128, 0), 2u);
  EXPECT_EQ(h100.residentCTAs(8, 129, 0), 1u);
  EXPECT_EQ(h100.residentCTAs(8, 60, 0), 4u);
  EXPECT_EQ(h100.residentCTAs(8, 72, 0), 3u);
  // Warps bound: 64 a SM.
  EXPECT_EQ(h100.residentCTAs(8, 32, 0), 8u);
  EXPECT_EQ(h100.residentCTAs(4, 16, 0), 16u);
  // CTAs bound: 32 a SM.
  EXPECT_EQ(h100.residentCTAs(1, 16, 0), 32u);
  // Shared memory bound: 228 KiB a SM, 1 KiB reserved a CTA.
  EXPECT_EQ(h100.residentCTAs(4, 32, 100 * 1024), 2u);
  EXPECT_EQ(h100.residentCTAs(4, 32, 227 * 1024), 1u);
  EXPECT_EQ(h100.residentCTAs(4, 32, 227 * 1024 + 1), 0u);
  // Sub-partitions: 2-warp CTAs at 200 registers (6400 a warp): 2 warps
  // a partition, 8 an SM, 4 CTAs (not 65536 / 12800 = 5); at 168, 6.
  EXPECT_EQ(h100.residentCTAs(2, 200, 0), 4u);
  EXPECT_EQ(h100.residentCTAs(2, 168, 0), 6u);
  EXPECT_EQ(h100.residentCTAs(1, 255, 0), 8u);
  // Does not fit at all.
  EXPECT_EQ(h100.residentCTAs(32, 255, 0), 0u);
  EXPECT_EQ(h100.residentCTAs(0, 32, 0), 0u);
  // 48 warps and 16 CTAs a SM on sm_86.
  const TargetInfo &ga102 = getTarget("sm_86");
  EXPECT_EQ(ga102.residentCTAs(8, 32, 0), 6u);
  EXPECT_EQ(ga102.residentCTAs(1, 16, 0), 16u);
  EXPECT_EQ(getTarget("sm_89").maxCTAsPerSM(), 24u);
  EXPECT_EQ(getTarget("sm_120").maxWarpsPerSM(), 48u);
  EXPECT_EQ(getTarget("sm_100a").maxWarpsPerSM(), 64u);
}

} // namespace
