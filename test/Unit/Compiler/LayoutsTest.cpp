//===- LayoutsTest.cpp - Layout math unit tests -----------------*- C++ -*-===//
//
// Checks the element-to-thread mapping of blocked and slice encodings: every
// element of a tile is held by some thread, tiles larger than the CTA tile
// repeat, smaller ones wrap, and slices enumerate their parent's registers.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/Layouts.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>
#include <set>

using namespace mlir;
using namespace tilec::tile;

namespace {
class LayoutsTest : public ::testing::Test {
protected:
  LayoutsTest() { ctx.loadDialect<TileDialect>(); }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Attribute enc) {
    return RankedTensorType::get(shape, Float32Type::get(&ctx), enc);
  }
  /// Every coordinate of the tile is held by at least one (thread, register).
  void expectCovers(RankedTensorType t, unsigned numThreads) {
    DistributedLayout l = *getDistributedLayout(t);
    std::set<std::vector<int64_t>> seen;
    for (unsigned tid = 0; tid < numThreads; ++tid)
      for (int64_t e = 0; e < l.totalElemsPerThread; ++e) {
        SmallVector<int64_t> c = l.getElementCoords(tid, e);
        for (unsigned d = 0; d < c.size(); ++d) {
          ASSERT_GE(c[d], 0);
          ASSERT_LT(c[d], t.getDimSize(d));
        }
        seen.insert(std::vector<int64_t>(c.begin(), c.end()));
      }
    EXPECT_EQ(int64_t(seen.size()), t.getNumElements());
  }
  MLIRContext ctx;
};
} // namespace

TEST_F(LayoutsTest, VectorAddLayout) {
  // 1024 elements, 4 warps, 4 per thread: two repetitions of a 512 CTA tile.
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 4);
  EXPECT_EQ(enc.getSizePerThread()[0], 4u);
  EXPECT_EQ(enc.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(enc.getWarpsPerCTA()[0], 4u);
  auto t = tensor({1024}, enc);
  DistributedLayout l = *getDistributedLayout(t);
  EXPECT_EQ(l.totalElemsPerThread, 8);
  // Thread 1 holds 4..7 and 516..519.
  EXPECT_EQ(l.getElementCoords(1, 0)[0], 4);
  EXPECT_EQ(l.getElementCoords(1, 3)[0], 7);
  EXPECT_EQ(l.getElementCoords(1, 4)[0], 516);
  // Warp 1, lane 0 starts at 128.
  EXPECT_EQ(l.getElementCoords(32, 0)[0], 128);
  EXPECT_EQ(l.getContiguityPerThread(0), 4);
  expectCovers(t, 128);
}

TEST_F(LayoutsTest, TwoDimensionalRowMajor) {
  auto enc = getBlockedEncoding(&ctx, {16, 64}, 4, 4);
  EXPECT_EQ(enc.getOrder()[0], 1u);
  EXPECT_EQ(enc.getThreadsPerWarp()[1], 16u);
  EXPECT_EQ(enc.getThreadsPerWarp()[0], 2u);
  auto t = tensor({16, 64}, enc);
  EXPECT_EQ(getDistributedLayout(t)->totalElemsPerThread, 8);
  expectCovers(t, 128);
}

TEST_F(LayoutsTest, SmallTileWraps) {
  // 32 elements over 128 threads: each element held by 4 threads.
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 1);
  auto t = tensor({32}, enc);
  DistributedLayout l = *getDistributedLayout(t);
  EXPECT_EQ(l.totalElemsPerThread, 1);
  EXPECT_TRUE(l.wraps(0));
  EXPECT_EQ(l.getElementCoords(33, 0)[0], 1);
  expectCovers(t, 128);
}

TEST_F(LayoutsTest, SliceEnumeratesParent) {
  auto parent = getBlockedEncoding(&ctx, {16, 64}, 4, 4);
  auto rows = tensor({16}, SliceEncodingAttr::get(&ctx, 1, parent));
  auto cols = tensor({64}, SliceEncodingAttr::get(&ctx, 0, parent));
  DistributedLayout lr = *getDistributedLayout(rows);
  DistributedLayout lc = *getDistributedLayout(cols);
  // The expanded 16x1 and 1x64 tiles under the parent layout.
  EXPECT_EQ(lr.totalElemsPerThread,
            getDistributedLayout(tensor({16, 1}, parent))->totalElemsPerThread);
  EXPECT_EQ(lc.totalElemsPerThread,
            getDistributedLayout(tensor({1, 64}, parent))->totalElemsPerThread);
  DistributedLayout full = *getDistributedLayout(tensor({16, 64}, parent));
  // A thread's row coordinate in the slice matches its row in the parent.
  for (unsigned tid : {0u, 17u, 45u, 127u})
    EXPECT_EQ(lr.getElementCoords(tid, 0)[0], full.getElementCoords(tid, 0)[0]);
  expectCovers(rows, 128);
  expectCovers(cols, 128);
}

TEST_F(LayoutsTest, SamePlacement) {
  auto a = getBlockedEncoding(&ctx, {256}, 4, 1);
  auto b = getBlockedEncoding(&ctx, {256}, 4, 2);
  EXPECT_TRUE(haveSameElementPlacement(tensor({256}, a), tensor({256}, a)));
  EXPECT_FALSE(haveSameElementPlacement(tensor({256}, a), tensor({256}, b)));
}

TEST_F(LayoutsTest, RejectsNonPowerOfTwo) {
  auto enc = getBlockedEncoding(&ctx, {1024}, 4, 4);
  EXPECT_TRUE(failed(getDistributedLayout(tensor({1000}, enc))));
}
