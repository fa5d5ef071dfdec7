//===- RegisterBudgetTest.cpp - occupancyRegisterBudget, setEntryMaxNReg ---===//

#include "tilec/Runtime.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

TEST(RegisterBudget, KeepsTheOccupancy) {
  // The fp16 layer norms of docs/performance.md on an H100 (65536
  // registers per SM), 8 warps a CTA.
  EXPECT_EQ(occupancyRegisterBudget(112, 8, 2, 65536), 128u); // 16384 wide
  // 60 registers take 64 a thread's allocation already; with the limit
  // ptxas schedules for all 64 (+25% there).
  EXPECT_EQ(occupancyRegisterBudget(60, 8, 4, 65536), 64u);   // 8192 wide
  EXPECT_EQ(occupancyRegisterBudget(57, 8, 4, 65536), 64u);
  EXPECT_EQ(occupancyRegisterBudget(72, 8, 3, 65536), 80u);   // 85 -> 80
  // No slack: the budget is what the kernel uses.
  EXPECT_EQ(occupancyRegisterBudget(32, 8, 8, 65536), 0u);
  EXPECT_EQ(occupancyRegisterBudget(64, 8, 4, 65536), 0u);
  // One CTA: capped at 255.
  EXPECT_EQ(occupancyRegisterBudget(236, 8, 1, 65536), 255u);
  EXPECT_EQ(occupancyRegisterBudget(100, 4, 1, 65536), 255u);
  // Warps come in fours per SM sub-partition: 5 CTAs of 2 warps need 3 a
  // partition, 5461 registers a warp at most (not 65536 / 10 = 6553: at 200
  // registers only 4 CTAs would fit; cuda_occupancy.h).
  EXPECT_EQ(occupancyRegisterBudget(40, 2, 5, 65536), 168u);
  EXPECT_EQ(occupancyRegisterBudget(40, 1, 3, 65536), 255u);
  EXPECT_EQ(occupancyRegisterBudget(40, 1, 9, 65536), 168u);
  EXPECT_EQ(occupancyRegisterBudget(100, 4, 1, 65536, 200), 200u);
  // 1024 threads: 64 registers a thread at most.
  EXPECT_EQ(occupancyRegisterBudget(30, 32, 1, 65536), 64u);
  EXPECT_EQ(occupancyRegisterBudget(64, 32, 1, 65536), 0u);
  // Nothing known: no limit.
  EXPECT_EQ(occupancyRegisterBudget(0, 8, 2, 65536), 0u);
  EXPECT_EQ(occupancyRegisterBudget(100, 0, 2, 65536), 0u);
  EXPECT_EQ(occupancyRegisterBudget(100, 8, 0, 65536), 0u);
  EXPECT_EQ(occupancyRegisterBudget(100, 8, 2, 0), 0u);
}

TEST(RegisterBudget, RegisterLimitedCTAsIsItsInverse) {
  // The CTAs a register count allows, as occupancy calculators give them.
  EXPECT_EQ(registerLimitedCTAs(112, 8, 65536), 2u);
  EXPECT_EQ(registerLimitedCTAs(60, 8, 65536), 4u);
  EXPECT_EQ(registerLimitedCTAs(200, 2, 65536), 4u); // sub-partitions
  EXPECT_EQ(registerLimitedCTAs(65, 32, 65536), 0u); // over 64K a CTA
  EXPECT_EQ(registerLimitedCTAs(0, 8, 65536), 0u);
  // Every budget keeps its CTAs, and 8 registers more would lose one.
  for (unsigned warps : {1u, 2u, 4u, 8u, 16u, 32u})
    for (unsigned ctas = 1; ctas <= 16; ++ctas) {
      unsigned b = occupancyRegisterBudget(16, warps, ctas, 65536);
      if (b == 0)
        continue;
      EXPECT_GE(registerLimitedCTAs(b, warps, 65536), ctas);
      if (b + 8 <= 255) {
        EXPECT_LT(registerLimitedCTAs(b + 8, warps, 65536), ctas);
      }
    }
}

const char *kPtx = R"(//
.version 8.4
.target sm_90a
.address_size 64

	// .globl	k__aligned
.visible .entry k__aligned(
	.param .u64 .ptr .align 1 k__aligned_param_0,
	.param .u32 k__aligned_param_1
)
.reqntid 256, 1, 1
{
	ret;
}
	// .globl	k
.visible .entry k(
	.param .u64 .ptr .align 1 k_param_0
)
.reqntid 256, 1, 1
{
	ret;
}
)";

TEST(RegisterBudget, SetEntryMaxNReg) {
  std::string ptx = kPtx;
  ASSERT_TRUE(setEntryMaxNReg(ptx, "k", 128).ok());
  // On `k` only, not on `k__aligned`, whose name starts alike.
  EXPECT_NE(ptx.find("\t.param .u64 .ptr .align 1 k_param_0\n)\n.reqntid 256, "
                     "1, 1\n.maxnreg 128\n{"),
            std::string::npos)
      << ptx;
  EXPECT_EQ(ptx.find(".maxnreg"), ptx.rfind(".maxnreg")) << ptx;
  ASSERT_TRUE(setEntryMaxNReg(ptx, "k__aligned", 64).ok());
  EXPECT_NE(ptx.find("k__aligned_param_1\n)\n.reqntid 256, 1, 1\n.maxnreg 64\n{"),
            std::string::npos)
      << ptx;

  // A second limit, or one ptxas would refuse, is an error; the text stays.
  std::string before = ptx;
  EXPECT_EQ(setEntryMaxNReg(ptx, "k", 96).message(),
            "PTX entry 'k' already has .maxnreg");
  EXPECT_EQ(setEntryMaxNReg(ptx, "k", 8).message(),
            "cannot set .maxnreg 8 on entry 'k': expected 16 to 255 registers");
  EXPECT_EQ(setEntryMaxNReg(ptx, "k", 256).message(),
            "cannot set .maxnreg 256 on entry 'k': expected 16 to 255 "
            "registers");
  EXPECT_EQ(setEntryMaxNReg(ptx, "k_", 96).message(),
            "no PTX entry 'k_' (expected '.entry k_(')");
  EXPECT_EQ(setEntryMaxNReg(ptx, "aligned", 96).message(),
            "no PTX entry 'aligned' (expected '.entry aligned(')");
  EXPECT_EQ(ptx, before);

  std::string occupancy = ".entry m(\n)\n.minnctapersm 2\n{\n}\n";
  EXPECT_EQ(setEntryMaxNReg(occupancy, "m", 64).message(),
            "PTX entry 'm' already has .minnctapersm");
  std::string declaration = ".extern .entry d(\n);\n.entry e(\n)\n{\n}\n";
  EXPECT_EQ(setEntryMaxNReg(declaration, "d", 64).message(),
            "PTX entry 'd' has no body");
  std::string truncated = ".entry t(\n.param .u32 x";
  EXPECT_EQ(setEntryMaxNReg(truncated, "t", 64).message(),
            "PTX entry 't' has no body");
}

} // namespace
