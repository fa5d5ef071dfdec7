//===- LayoutsTest.cpp - Layout math unit tests -----------------*- C++ -*-===//
//
// Checks the linear layouts of the distributed encodings against
// independent formulas: Triton's blocked mapping (thread base plus
// register offset, wrapped modulo the shape), the mma.sync fragment tables
// of the PTX ISA (9.7.14.5.14) for accumulators and A/B operands, slices;
// and the layout algebra the lowering relies on (coverage, inversion,
// contiguity, offset maps, conversion plans).
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/Layouts.h"
#include "dialects/Tile/IR/TileOps.h"
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace mlir;
using namespace tilec::tile;
using LL = LinearLayout;

namespace {
class LayoutsTest : public ::testing::Test {
protected:
  LayoutsTest() { ctx.loadDialect<TileDialect>(); }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Attribute enc) {
    return RankedTensorType::get(shape, Float32Type::get(&ctx), enc);
  }
  LL layout(ArrayRef<int64_t> shape, Attribute enc) {
    return *getLinearLayout(tensor(shape, enc));
  }
  /// The coordinate thread `tid` holds in register `reg`.
  static LL::Coord at(const LL &l, int64_t tid, int64_t reg) {
    return l.apply(reg, tid % 32, tid / 32);
  }
  /// Every coordinate of the tile is held by at least one (thread,
  /// register), and every (thread, register) holds one inside the tile.
  void expectCovers(const LL &l) {
    std::set<std::vector<int64_t>> seen;
    int64_t threads = l.getNumLanes() * l.getNumWarps();
    int64_t numel = 1;
    for (int64_t s : l.getOutShape())
      numel *= s;
    for (int64_t tid = 0; tid < threads; ++tid)
      for (int64_t e = 0; e < l.getNumRegisters(); ++e) {
        LL::Coord c = at(l, tid, e);
        for (unsigned d = 0; d < c.size(); ++d) {
          ASSERT_GE(c[d], 0);
          ASSERT_LT(c[d], l.getOutShape()[d]);
        }
        seen.insert(std::vector<int64_t>(c.begin(), c.end()));
      }
    EXPECT_EQ(int64_t(seen.size()), numel);
  }
  MLIRContext ctx;
};

/// Triton's blocked mapping, written directly from its definition: thread
/// base = (warp coordinate * threadsPerWarp + lane coordinate) *
/// sizePerThread, register e = (rep, k) per dimension in `order`, element
/// = (base + rep * ctaTile + k) mod shape.
LL::Coord blockedOracle(BlockedEncodingAttr enc, ArrayRef<int64_t> shape,
                        int64_t tid, int64_t e) {
  unsigned rank = shape.size();
  auto spt = enc.getSizePerThread(), tpw = enc.getThreadsPerWarp(),
       wpc = enc.getWarpsPerCTA();
  int64_t lane = tid % 32, warp = tid / 32;
  SmallVector<int64_t> laneC(rank), warpC(rank), cta(rank), ept(rank);
  for (unsigned d : enc.getOrder()) {
    laneC[d] = lane % tpw[d];
    lane /= tpw[d];
    warpC[d] = warp % wpc[d];
    warp /= wpc[d];
  }
  for (unsigned d = 0; d < rank; ++d) {
    cta[d] = int64_t(spt[d]) * tpw[d] * wpc[d];
    ept[d] = spt[d] * std::max<int64_t>(1, shape[d] / cta[d]);
  }
  LL::Coord c(rank);
  for (unsigned d : enc.getOrder()) {
    int64_t k = e % ept[d];
    e /= ept[d];
    int64_t base = (warpC[d] * tpw[d] + laneC[d]) * spt[d];
    c[d] = (base + (k / spt[d]) * cta[d] + k % spt[d]) % shape[d];
  }
  return c;
}
} // namespace

TEST_F(LayoutsTest, VectorAddLayout) {
  // 1024 elements, 4 warps, 4 per thread: two repetitions of a 512 CTA tile.
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 4);
  EXPECT_EQ(enc.getSizePerThread()[0], 4u);
  EXPECT_EQ(enc.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(enc.getWarpsPerCTA()[0], 4u);
  LL l = layout({1024}, enc);
  EXPECT_EQ(l.getNumRegisters(), 8);
  // Thread 1 holds 4..7 and 516..519.
  EXPECT_EQ(at(l, 1, 0)[0], 4);
  EXPECT_EQ(at(l, 1, 3)[0], 7);
  EXPECT_EQ(at(l, 1, 4)[0], 516);
  // Warp 1, lane 0 starts at 128.
  EXPECT_EQ(at(l, 32, 0)[0], 128);
  EXPECT_EQ(l.getContiguousRegisters(0), 4);
  expectCovers(l);
}

TEST_F(LayoutsTest, TwoDimensionalRowMajor) {
  auto enc = getBlockedEncoding(&ctx, {16, 64}, 4, 4);
  EXPECT_EQ(enc.getOrder()[0], 1u);
  EXPECT_EQ(enc.getThreadsPerWarp()[1], 16u);
  EXPECT_EQ(enc.getThreadsPerWarp()[0], 2u);
  LL l = layout({16, 64}, enc);
  EXPECT_EQ(l.getNumRegisters(), 8);
  EXPECT_EQ(l.getContiguousRegisters(1), 4);
  EXPECT_EQ(l.getContiguousRegisters(0), 1);
  expectCovers(l);
}

TEST_F(LayoutsTest, MaskWithinBlock) {
  // 1024 over 4 warps, 4 per thread: register bits step 1, 2 and 512.
  LL l = layout({1024}, getBlockedEncoding(&ctx, {1024}, 4, 4));
  EXPECT_EQ(l.getMaskWithinBlock(LL::kRegister, {1}), 0u);
  EXPECT_EQ(l.getMaskWithinBlock(LL::kRegister, {2}), 1u);
  EXPECT_EQ(l.getMaskWithinBlock(LL::kRegister, {16}), 3u);
  EXPECT_EQ(l.getMaskWithinBlock(LL::kRegister, {1024}), 7u);
  // Lanes step 4 .. 64: inside a block of 8, only the first.
  EXPECT_EQ(l.getMaskWithinBlock(LL::kLane, {8}), 1u);
  // Registers r and r & ~mask hold elements of the same aligned block in
  // every thread.
  for (int64_t block : {2, 4, 16, 256}) {
    uint64_t mask = l.getMaskWithinBlock(LL::kRegister, {block});
    for (int64_t t = 0; t < 128; t += 5)
      for (int64_t r = 0; r < l.getNumRegisters(); ++r)
        EXPECT_EQ(at(l, t, r)[0] / block,
                  at(l, t, r & ~int64_t(mask))[0] / block);
  }
  // 2-D, 4 per thread along the rows' dimension 1: a block of 1 x 4 holds
  // the run, one of 2 x 2 half of it.
  LL m = layout({16, 64}, getBlockedEncoding(&ctx, {16, 64}, 4, 4));
  EXPECT_EQ(m.getMaskWithinBlock(LL::kRegister, {1, 4}), 3u);
  EXPECT_EQ(m.getMaskWithinBlock(LL::kRegister, {2, 2}), 1u);
}

TEST_F(LayoutsTest, SmallTileWraps) {
  // 32 elements over 128 threads: each element held by 4 threads, the
  // warps replicating it (zero warp bases).
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 1);
  LL l = layout({32}, enc);
  EXPECT_EQ(l.getNumRegisters(), 1);
  EXPECT_EQ(at(l, 33, 0)[0], 1);
  EXPECT_EQ(l.getFreeMask(LL::kWarp), 3u);
  EXPECT_EQ(l.getFreeMask(LL::kLane), 0u);
  expectCovers(l);
}

TEST_F(LayoutsTest, BlockedMatchesTritonDefinition) {
  // Random blocked encodings and shapes (larger, equal and smaller than the
  // CTA tile) against the direct formula.
  std::mt19937 rng(12345);
  auto pow2 = [&](int maxLog) { return int64_t(1) << (rng() % (maxLog + 1)); };
  for (int iter = 0; iter < 300; ++iter) {
    unsigned rank = 1 + rng() % 3;
    SmallVector<unsigned> spt(rank), tpw(rank, 1), wpc(rank, 1), order(rank);
    for (unsigned d = 0; d < rank; ++d) {
      spt[d] = unsigned(pow2(2));
      order[d] = d;
    }
    std::shuffle(order.begin(), order.end(), rng);
    // Distribute 32 lanes and up to 8 warps over the dimensions.
    for (int lanes = 32; lanes > 1; lanes /= 2)
      tpw[rng() % rank] *= 2;
    int warps = int(pow2(3));
    for (int w = warps; w > 1; w /= 2)
      wpc[rng() % rank] *= 2;
    auto enc = BlockedEncodingAttr::get(&ctx, spt, tpw, wpc, order);
    SmallVector<int64_t> shape(rank);
    for (unsigned d = 0; d < rank; ++d)
      shape[d] = pow2(rank == 1 ? 10 : rank == 2 ? 6 : 4);
    LL l = layout(shape, enc);
    for (int64_t tid = 0; tid < 32 * warps; tid += 7)
      for (int64_t e = 0; e < l.getNumRegisters(); ++e)
        ASSERT_EQ(at(l, tid, e), blockedOracle(enc, shape, tid, e))
            << "iteration " << iter << " tid " << tid << " reg " << e;
    expectCovers(l);
  }
}

TEST_F(LayoutsTest, SliceEnumeratesParent) {
  auto parent = getBlockedEncoding(&ctx, {16, 64}, 4, 4);
  LL rows = layout({16}, SliceEncodingAttr::get(&ctx, 1, parent));
  LL cols = layout({64}, SliceEncodingAttr::get(&ctx, 0, parent));
  // The expanded 16x1 and 1x64 tiles under the parent layout, without the
  // registers that hold copies (the parent's registers along the dropped
  // dimension).
  EXPECT_EQ(rows.insertOutDim(1),
            layout({16, 1}, parent).removeZeroBases(LL::kRegister));
  EXPECT_EQ(cols.insertOutDim(0),
            layout({1, 64}, parent).removeZeroBases(LL::kRegister));
  EXPECT_EQ(rows.getFreeMask(LL::kRegister), 0u);
  EXPECT_EQ(cols.getFreeMask(LL::kRegister), 0u);
  LL full = layout({16, 64}, parent);
  // A thread's row coordinate in the slice matches its row in the parent.
  for (int64_t tid : {0, 17, 45, 127})
    EXPECT_EQ(at(rows, tid, 0)[0], at(full, tid, 0)[0]);
  expectCovers(rows);
  expectCovers(cols);
}

TEST_F(LayoutsTest, SliceOfWgmmaAccumulatorHoldsEachRowOnce) {
  // A 128x64 wgmma accumulator over 8 warps: each thread holds 2 rows
  // (row and row + 8 of its warp's 16) in 32 registers. The row slice --
  // a row max or sum -- holds those 2 values, not 32 copies.
  auto mma = MmaEncodingAttr::get(&ctx, 3, {8, 1}, {64, 64, 16});
  LL full = layout({128, 64}, mma);
  LL rows = layout({128}, SliceEncodingAttr::get(&ctx, 1, mma));
  EXPECT_EQ(full.getNumRegisters(), 32);
  EXPECT_EQ(rows.getNumRegisters(), 2);
  for (int64_t tid : {0, 5, 33, 130, 255})
    for (int64_t e = 0; e < full.getNumRegisters(); ++e) {
      int64_t row = at(full, tid, e)[0];
      EXPECT_TRUE(row == at(rows, tid, 0)[0] || row == at(rows, tid, 1)[0])
          << "tid " << tid << " reg " << e;
    }
  expectCovers(rows);
}

TEST_F(LayoutsTest, MmaAccumulatorMatchesPtxFragment) {
  // mma.sync m16n8 accumulators (PTX ISA 9.7.14.5.14, "Matrix fragments for
  // mma.m16n8k16 with floating point type"): c_i of lane l is at
  // row = l/4 + 8*(i >= 2), col = 2*(l%4) + (i & 1).
  auto mma = MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 8});
  LL l = layout({64, 32}, mma);
  // Per warp: 64x32 over 2x2 warps = 32x16 per warp = 2x2 instruction
  // tiles of 4 registers.
  EXPECT_EQ(l.getNumRegisters(), 16);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t reg = 0; reg < 16; ++reg) {
        int64_t i = reg % 4, repN = reg / 4 % 2, repM = reg / 8;
        int64_t warpN = warp % 2, warpM = warp / 2;
        int64_t row = lane / 4 + 8 * (i >= 2) + 16 * warpM + 32 * repM;
        int64_t col = 2 * (lane % 4) + (i & 1) + 8 * warpN + 16 * repN;
        ASSERT_EQ(l.apply(reg, lane, warp), (LL::Coord{row, col}))
            << "warp " << warp << " lane " << lane << " reg " << reg;
      }
  expectCovers(l);
  // A 16x8 tile over 4 warps: every warp holds all of it.
  LL small = layout({16, 8}, mma);
  EXPECT_EQ(small.getFreeMask(LL::kWarp), 3u);
  expectCovers(small);
}

TEST_F(LayoutsTest, MmaOperandsMatchPtxFragments) {
  auto mma = MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 8});
  // f16 m16n8k16 A (row): a_i of lane l, i in 0..7:
  // row = l/4 + 8*((i/2) % 2), k = 2*(l%4) + (i%2) + 8*(i/4).
  {
    LL a = layout({32, 32}, DotOperandEncodingAttr::get(&ctx, 0, mma, 2));
    EXPECT_EQ(a.getNumRegisters(), 16); // 2 K-steps x 1 M-rep x 8
    for (int64_t warp = 0; warp < 4; ++warp)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t reg = 0; reg < 16; ++reg) {
          int64_t i = reg % 8, repK = reg / 8, warpM = warp / 2;
          int64_t row = lane / 4 + 8 * ((i / 2) % 2) + 16 * warpM;
          int64_t k = 2 * (lane % 4) + (i % 2) + 8 * (i / 4) + 16 * repK;
          ASSERT_EQ(a.apply(reg, lane, warp), (LL::Coord{row, k}));
        }
    expectCovers(a);
  }
  // f16 m16n8k16 B (col): b_i, i in 0..3: k = 2*(l%4) + (i%2) + 8*(i/2),
  // n = l/4.
  {
    LL b = layout({16, 16}, DotOperandEncodingAttr::get(&ctx, 1, mma, 2));
    EXPECT_EQ(b.getNumRegisters(), 4);
    for (int64_t warp = 0; warp < 4; ++warp)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t reg = 0; reg < 4; ++reg) {
          int64_t k = 2 * (lane % 4) + (reg % 2) + 8 * (reg / 2);
          int64_t n = lane / 4 + 8 * (warp % 2);
          ASSERT_EQ(b.apply(reg, lane, warp), (LL::Coord{k, n}));
        }
    expectCovers(b);
  }
  // s8 m16n8k32 A: a_i, i in 0..15: row = l/4 + 8*((i/4) % 2),
  // k = 4*(l%4) + (i%4) + 16*(i/8).
  {
    LL a = layout({16, 32}, DotOperandEncodingAttr::get(&ctx, 0, mma, 4));
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t i = 0; i < 16; ++i) {
        int64_t row = lane / 4 + 8 * ((i / 4) % 2);
        int64_t k = 4 * (lane % 4) + (i % 4) + 16 * (i / 8);
        ASSERT_EQ(a.apply(i, lane, 0), (LL::Coord{row, k}));
      }
  }
  // tf32 m16n8k8 A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4);
  // B: b0 (k = t, n = g), b1 (k = t + 4).
  {
    LL a = layout({16, 8}, DotOperandEncodingAttr::get(&ctx, 0, mma, 1));
    LL b = layout({8, 8}, DotOperandEncodingAttr::get(&ctx, 1, mma, 1));
    for (int64_t lane = 0; lane < 32; ++lane) {
      int64_t g = lane / 4, t = lane % 4;
      EXPECT_EQ(a.apply(0, lane, 0), (LL::Coord{g, t}));
      EXPECT_EQ(a.apply(1, lane, 0), (LL::Coord{g + 8, t}));
      EXPECT_EQ(a.apply(2, lane, 0), (LL::Coord{g, t + 4}));
      EXPECT_EQ(a.apply(3, lane, 0), (LL::Coord{g + 8, t + 4}));
      EXPECT_EQ(b.apply(0, lane, 0), (LL::Coord{t, g}));
      EXPECT_EQ(b.apply(1, lane, 0), (LL::Coord{t + 4, g}));
    }
  }
}

TEST_F(LayoutsTest, FmaOperandsHoldWholeK) {
  auto parent = getBlockedEncoding(&ctx, {32, 32}, 4, 1);
  LL c = layout({32, 32}, parent);
  LL a = layout({32, 16}, DotOperandEncodingAttr::get(&ctx, 0, parent, 0));
  LL b = layout({16, 32}, DotOperandEncodingAttr::get(&ctx, 1, parent, 0));
  // Every result element's row (A) and column (B), for every k, is in the
  // thread that computes it.
  for (int64_t tid = 0; tid < 128; ++tid)
    for (int64_t r = 0; r < c.getNumRegisters(); ++r) {
      LL::Coord rc = at(c, tid, r);
      std::set<std::pair<int64_t, int64_t>> as, bs;
      for (int64_t e = 0; e < a.getNumRegisters(); ++e) {
        LL::Coord x = at(a, tid, e);
        as.insert({x[0], x[1]});
      }
      for (int64_t e = 0; e < b.getNumRegisters(); ++e) {
        LL::Coord x = at(b, tid, e);
        bs.insert({x[0], x[1]});
      }
      for (int64_t k = 0; k < 16; ++k) {
        EXPECT_TRUE(as.count({rc[0], k}));
        EXPECT_TRUE(bs.count({k, rc[1]}));
      }
    }
}

TEST_F(LayoutsTest, InvertAndComposeFindsHolders) {
  auto mma = MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 8});
  LL src = layout({32, 64}, mma);
  LL dst = layout({32, 64}, getBlockedEncoding(&ctx, {32, 64}, 4, 4));
  auto cols = src.invertAndCompose(dst);
  ASSERT_TRUE(cols.has_value());
  unsigned rb = src.getNumBits(LL::kRegister), lb = src.getNumBits(LL::kLane);
  for (int64_t tid = 0; tid < 128; tid += 5)
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
      // XOR of the columns of the set bits of (r, lane, warp).
      uint64_t hw = uint64_t(r) | uint64_t(tid % 32) << dst.getNumBits(LL::kRegister) |
                    uint64_t(tid / 32) << (dst.getNumBits(LL::kRegister) +
                                           dst.getNumBits(LL::kLane));
      uint64_t loc = 0;
      for (unsigned j = 0; j < cols->size(); ++j)
        if (hw >> j & 1)
          loc ^= (*cols)[j];
      int64_t sr = loc & ((1u << rb) - 1), sl = (loc >> rb) & 31,
              sw = loc >> (rb + lb);
      EXPECT_EQ(src.apply(sr, sl, sw), at(dst, tid, r));
    }
}

TEST_F(LayoutsTest, SamePlacement) {
  auto a = getBlockedEncoding(&ctx, {256}, 4, 1);
  auto b = getBlockedEncoding(&ctx, {256}, 4, 2);
  EXPECT_TRUE(haveSameElementPlacement(tensor({256}, a), tensor({256}, a)));
  EXPECT_FALSE(haveSameElementPlacement(tensor({256}, a), tensor({256}, b)));
}

TEST_F(LayoutsTest, ConversionPlans) {
  using tilec::simt::ConversionPlan;
  using tilec::simt::planConversion;
  auto make = [](SmallVector<LL::Coord> regs, SmallVector<LL::Coord> lanes,
                 SmallVector<LL::Coord> warps) {
    return LL(LL::Bases{regs, lanes, warps}, {32, 16});
  };
  SmallVector<LL::Coord> lanes = {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}};
  SmallVector<LL::Coord> warps = {{4, 0}, {8, 0}};
  // Same thread, different register order: registers only.
  ConversionPlan p = planConversion(make({{0, 8}, {16, 0}}, lanes, warps),
                                    make({{16, 0}, {0, 8}}, lanes, warps));
  EXPECT_EQ(p.kind, ConversionPlan::Kind::Registers);
  EXPECT_EQ(p.srcRegister, (SmallVector<int64_t>{0, 2, 1, 3}));
  // A transpose of the lanes inside each warp: shuffles.
  LL s = make({{0, 8}, {16, 0}}, lanes, warps);
  LL d = make({{16, 0}, {0, 8}}, {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}},
              warps);
  p = planConversion(s, d);
  ASSERT_EQ(p.kind, ConversionPlan::Kind::WarpShuffle);
  // Simulate the shuffle: target register r of lane l reads source register
  // srcRegister[r] of lane (linear(l) ^ srcLaneXor[r]).
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < d.getNumRegisters(); ++r) {
        int64_t from = p.srcLaneXor[r];
        for (unsigned i = 0; i < p.laneBases.size(); ++i)
          if (lane >> i & 1)
            from ^= p.laneBases[i];
        EXPECT_EQ(s.apply(p.srcRegister[r], from, warp), d.apply(r, lane, warp));
      }
  // Across warps: shared memory.
  auto w1 = getBlockedEncoding(&ctx, {64, 64}, 4, 4, {1, 0});
  auto w2 = getBlockedEncoding(&ctx, {64, 64}, 4, 4, {0, 1});
  EXPECT_EQ(planConversion(layout({64, 64}, w1), layout({64, 64}, w2)).kind,
            ConversionPlan::Kind::Shared);
}

TEST_F(LayoutsTest, OffsetMaps) {
  OffsetMap rm = OffsetMap::rowMajor({4, 8});
  EXPECT_EQ(rm.apply({2, 5}), 21);
  OffsetMap cm = OffsetMap::dense({4, 8}, {0, 1});
  EXPECT_EQ(cm.apply({2, 5}), 22);
  // Composition with a layout gives each register's offset.
  auto enc = getBlockedEncoding(&ctx, {16, 64}, 4, 4);
  LL l = layout({16, 64}, enc);
  LL off = OffsetMap::rowMajor({16, 64}).compose(l);
  for (int64_t tid = 0; tid < 128; tid += 3)
    for (int64_t r = 0; r < l.getNumRegisters(); ++r) {
      LL::Coord c = at(l, tid, r);
      EXPECT_EQ(at(off, tid, r)[0], c[0] * 64 + c[1]);
    }
  EXPECT_EQ(off.getContiguousRegisters(0), 4);
}

// tile.memdesc_trans of a 2-D NVMMA buffer is the flipped encoding on the
// swapped shape: the view's offset map must give every element the byte
// the buffer holds it at (what the wgmma descriptors of a `b.T` view read
// from a buffer cp.async filled untransposed).
TEST_F(LayoutsTest, NvmmaTransposedViewIsTheSameBytes) {
  Type f16 = Float16Type::get(&ctx), f8 = Float8E4M3FNType::get(&ctx);
  for (Type elem : {f16, f8})
    for (unsigned swizzle : {32u, 64u, 128u})
      for (bool transposed : {false, true})
        for (auto shape : {std::pair<int64_t, int64_t>{256, 64}, {64, 128},
                           {128, 32}, {16, 256}}) {
          auto enc = NVMMASharedEncodingAttr::get(&ctx, swizzle, transposed);
          auto src = MemDescType::get({shape.first, shape.second}, elem, enc,
                                      /*mutableMemory=*/true);
          MemDescType view = getTransposedMemDescType(src, {1, 0});
          ASSERT_TRUE(view);
          EXPECT_EQ(view.getShape(),
                    (ArrayRef<int64_t>{shape.second, shape.first}));
          auto venc = cast<NVMMASharedEncodingAttr>(view.getEncoding());
          EXPECT_EQ(venc.getSwizzle(), swizzle);
          EXPECT_EQ(venc.getTransposed(), !transposed);
          OffsetMap a = enc.toOffsetMap(src.getShape(), elem);
          OffsetMap b = venc.toOffsetMap(view.getShape(), elem);
          for (int64_t r = 0; r < shape.first; ++r)
            for (int64_t c = 0; c < shape.second; ++c)
              ASSERT_EQ(a.apply({r, c}), b.apply({c, r}))
                  << "swizzle " << swizzle << " transposed " << transposed
                  << " shape " << shape.first << "x" << shape.second
                  << " at (" << r << ", " << c << ")";
        }
  // No other permutation, and no multi-buffered source.
  auto enc = NVMMASharedEncodingAttr::get(&ctx, 128, false);
  EXPECT_FALSE(getTransposedMemDescType(
      MemDescType::get({64, 64}, f16, enc, true), {0, 1}));
  EXPECT_FALSE(getTransposedMemDescType(
      MemDescType::get({2, 64, 64}, f16, enc, true), {0, 2, 1}));
}

TEST_F(LayoutsTest, RejectsNonPowerOfTwo) {
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 4);
  EXPECT_TRUE(failed(getLinearLayout(tensor({1000}, enc))));
}
