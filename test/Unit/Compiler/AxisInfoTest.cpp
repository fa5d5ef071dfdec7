//===- AxisInfoTest.cpp - Axis analysis unit tests --------------*- C++ -*-===//
//
// Runs the axis analysis over small kernels and checks contiguity,
// divisibility and constancy, and the vector widths derived from them.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "dialects/Tile/IR/TileOps.h"
#include "passes/Analysis/AxisInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace tilec;

namespace {
class AxisInfoTest : public ::testing::Test {
protected:
  AxisInfoTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(StringRef src) {
    return parseSourceString<ModuleOp>(src, &ctx);
  }
  /// The value named by the `tag` attribute.
  Value tagged(ModuleOp m, StringRef tag) {
    Value v;
    m.walk([&](Operation *op) {
      if (op->hasAttr(tag))
        v = op->getResult(0);
    });
    return v;
  }
  MLIRContext ctx;
};

constexpr StringLiteral kVectorAdd = R"mlir(
tile.func @k(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %m: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 {t_start} : i32
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r {offs} : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %nv {mask} : tensor<1024xi32>
  %mv = tile.splat %m : i32 -> tensor<1024xi32>
  %mask2 = arith.cmpi slt, %offs, %mv {mask2} : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %offs {ptrs} : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %twice = arith.addi %r, %r {twice} : tensor<1024xi32>
  %xq = tile.addptr %xb, %twice {strided} : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.return
}
)mlir";
} // namespace

TEST_F(AxisInfoTest, VectorAddFacts) {
  auto m = parse(kVectorAdd);
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  AxisInfo start = axis.getAxisInfo(tagged(*m, "t_start"));
  EXPECT_EQ(start.getDivisibility(0), 1024);
  AxisInfo offs = axis.getAxisInfo(tagged(*m, "offs"));
  EXPECT_EQ(offs.getContiguity(0), 1024);
  EXPECT_EQ(offs.getDivisibility(0), 1024);
  EXPECT_EQ(offs.getConstancy(0), 1);
  AxisInfo ptrs = axis.getAxisInfo(tagged(*m, "ptrs"));
  EXPECT_EQ(ptrs.getContiguity(0), 1024);
  EXPECT_EQ(ptrs.getDivisibility(0), 16); // bytes
  EXPECT_EQ(axis.getPtrVectorWidth(tagged(*m, "ptrs"), 0, 8), 4);
  // n divisible by 16: the mask is constant over aligned runs of 16.
  EXPECT_EQ(axis.getMaskConstancy(tagged(*m, "mask"), 0), 16);
  // m without facts: one predicate per element.
  EXPECT_EQ(axis.getMaskConstancy(tagged(*m, "mask2"), 0), 1);
}

constexpr StringLiteral kBoundChecks = R"mlir(
tile.func @k(%k: i32, %m: i32, %c0: i32 {tile.divisibility = 64 : i32}) {
  %z = arith.constant dense<0> : tensor<64xi32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %s = tile.splat %c0 : i32 -> tensor<64xi32>
  %c = arith.addi %s, %r : tensor<64xi32>
  %kv = tile.splat %k : i32 -> tensor<64xi32>
  %lo = arith.cmpi sge, %c, %z {lo} : tensor<64xi32>
  %hi = arith.cmpi slt, %c, %kv {hi} : tensor<64xi32>
  %hi2 = arith.cmpi sgt, %kv, %c {hi2} : tensor<64xi32>
  %box = arith.andi %lo, %hi {box} : tensor<64xi1>
  %low = arith.cmpi sge, %c, %kv {low} : tensor<64xi32>
  %ult = arith.cmpi ult, %c, %kv {ult} : tensor<64xi32>
  %e = tile.expand_dims %box {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
  %b = tile.broadcast %e {bcast} : tensor<1x64xi1> -> tensor<32x64xi1>
  %mv = tile.splat %m : i32 -> tensor<32xi32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %rows = arith.cmpi slt, %r32, %mv : tensor<32xi32>
  %re = tile.expand_dims %rows {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
  %rb = tile.broadcast %re : tensor<32x1xi1> -> tensor<32x64xi1>
  %both = arith.andi %rb, %b {both} : tensor<32x64xi1>
  tile.return
}
)mlir";

TEST_F(AxisInfoTest, PrefixMasks) {
  auto m = parse(kBoundChecks);
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  // c = c0 + arange(64) with c0 % 64 == 0: `c >= 0` is constant over the
  // 64; `c < k` with k unknown is one predicate per element, but true on a
  // prefix of the 64, in either operand order, and so is their
  // conjunction (a descriptor's box check).
  EXPECT_EQ(axis.getMaskConstancy(tagged(*m, "lo"), 0), 64);
  EXPECT_EQ(axis.getMaskConstancy(tagged(*m, "hi"), 0), 1);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "hi"), 0), 64);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "hi2"), 0), 64);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "box"), 0), 64);
  // `c >= k` is false on a prefix (a suffix of trues); unsigned compares
  // are not monotone through -1 -> 0.
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "low"), 0), 1);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "ult"), 0), 1);
  // Through expand_dims and broadcast; a row check constant along dim 1
  // keeps the prefix there; along dim 0 rows are one predicate each.
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "bcast"), 1), 64);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "both"), 1), 64);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "both"), 0), 32);
}

// `m_{i+1} = m_i & m_i`, 40 deep: the prefix walk is bounded (it would
// visit 2^40 operands), and the shape it cannot see through counts as its
// constancy.
TEST_F(AxisInfoTest, PrefixWalkIsBounded) {
  std::string src = R"mlir(
tile.func @k(%k: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %kv = tile.splat %k : i32 -> tensor<64xi32>
  %m0 = arith.cmpi slt, %r, %kv : tensor<64xi32>
)mlir";
  for (int i = 0; i < 40; ++i)
    src += "  %m" + std::to_string(i + 1) + " = arith.andi %m" +
           std::to_string(i) + ", %m" + std::to_string(i) + (i == 39 ? " {last}" : "") +
           " : tensor<64xi1>\n";
  src += "  tile.return\n}\n";
  auto m = parse(src);
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  EXPECT_EQ(axis.getMaskPrefixWidth(tagged(*m, "last"), 0),
            axis.getMaskConstancy(tagged(*m, "last"), 0));
}

TEST_F(AxisInfoTest, BrokenRunsAreNotContiguous) {
  auto m = parse(kVectorAdd);
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  // arange + arange = 0, 2, 4, ...: no runs, and only even.
  AxisInfo twice = axis.getAxisInfo(tagged(*m, "twice"));
  EXPECT_EQ(twice.getContiguity(0), 1);
  EXPECT_EQ(twice.getDivisibility(0), 1);
  EXPECT_EQ(axis.getPtrVectorWidth(tagged(*m, "strided"), 0, 8), 1);
}

TEST_F(AxisInfoTest, JoinIsGcd) {
  AxisInfo a({4}, {16}, {1});
  AxisInfo b({8}, {4}, {2});
  AxisInfo j = AxisInfo::join(a, b);
  EXPECT_EQ(j.getContiguity(0), 4);
  EXPECT_EQ(j.getDivisibility(0), 4);
  EXPECT_EQ(j.getConstancy(0), 1);
  EXPECT_EQ(AxisInfo::join(AxisInfo(), a), a);
}

TEST_F(AxisInfoTest, HintRaisesFacts) {
  // A pointer tile with no divisibility fact on its base, and offsets of
  // unknown provenance: hints raise exactly the facts they name.
  auto m = parse(R"mlir(
tile.func @k(%x: !tile.ptr<f32>, %n: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r {ptrs} : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %hp = tile.hint %xp {divisibility = array<i64: 16>, hinted} : tensor<64x!tile.ptr<f32>>
  %hn = tile.hint %n {divisibility = array<i64: 8>, contiguity = array<i64: 1>, scalar} : i32
  %nv = tile.splat %n : i32 -> tensor<64xi32>
  %hc = tile.hint %nv {constancy = array<i64: 2>, runs} : tensor<64xi32>
  %lo = tile.hint %r {contiguity = array<i64: 2>, divisibility = array<i64: 1>, lower} : tensor<64xi32>
  tile.return
}
)mlir");
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  AxisInfo ptrs = axis.getAxisInfo(tagged(*m, "ptrs"));
  EXPECT_EQ(ptrs.getContiguity(0), 64);
  EXPECT_EQ(ptrs.getDivisibility(0), 1); // nothing known of %x
  EXPECT_EQ(axis.getPtrVectorWidth(tagged(*m, "ptrs"), 0, 4), 1);
  AxisInfo hinted = axis.getAxisInfo(tagged(*m, "hinted"));
  EXPECT_EQ(hinted.getContiguity(0), 64);
  EXPECT_EQ(hinted.getDivisibility(0), 16);
  EXPECT_EQ(hinted.getConstancy(0), 1);
  EXPECT_EQ(axis.getPtrVectorWidth(tagged(*m, "hinted"), 0, 4), 4);
  AxisInfo scalar = axis.getAxisInfo(tagged(*m, "scalar"));
  EXPECT_EQ(scalar.getDivisibility(0), 8);
  EXPECT_EQ(scalar.getContiguity(0), 1);
  // Constancy of the splat (64) stays: a hint only raises.
  AxisInfo runs = axis.getAxisInfo(tagged(*m, "runs"));
  EXPECT_EQ(runs.getContiguity(0), 1);
  EXPECT_EQ(runs.getConstancy(0), 64);
  // A hint weaker than what the analysis knows changes nothing.
  AxisInfo lower = axis.getAxisInfo(tagged(*m, "lower"));
  EXPECT_EQ(lower.getContiguity(0), 64);
  EXPECT_EQ(lower.getDivisibility(0), AxisInfo::kMaxDivisor); // starts at 0
}

namespace {
// Signed division and remainder of possibly negative values, and a masked
// load with `other` (found by review: each fact was read as a run where the
// values differ, and the per-block values of tile-lower-to-simt would have
// computed wrong results from it).
constexpr StringLiteral kSigned = R"mlir(
tile.func @k(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  %c4 = arith.constant dense<4> : tensor<64xi32>
  %pid = tile.program_id 0 : i32
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %nv = tile.splat %n : i32 -> tensor<64xi32>
  %rel = arith.subi %r, %nv : tensor<64xi32>
  %q = arith.divsi %rel, %c4 {q} : tensor<64xi32>
  %rm = arith.remsi %rel, %c4 {rm} : tensor<64xi32>
  %bv = tile.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %bv, %r : tensor<64xi32>
  %q2 = arith.divsi %offs, %c4 {q_nonneg} : tensor<64xi32>
  %rm2 = arith.remsi %offs, %nv {rm_nonneg} : tensor<64xi32>
  %pb = tile.splat %p : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
  %mask = arith.cmpi slt, %r, %nv : tensor<64xi32>
  %m1 = arith.constant dense<-1> : tensor<64xi32>
  %x = tile.load %pb, %mask, %m1 {x} : tensor<64x!tile.ptr<i32>>
  %y = tile.load %pb {y} : tensor<64x!tile.ptr<i32>>
  tile.return
}
)mlir";
} // namespace

TEST_F(AxisInfoTest, SignedDivisionAndMaskedLoads) {
  auto m = parse(kSigned);
  ASSERT_TRUE(m);
  ModuleAxisInfo axis(*m);
  // (r - n) / 4 with r - n in -n..63-n: -8..-5 / 4 is -2, -1, -1, -1.
  EXPECT_EQ(axis.getAxisInfo(tagged(*m, "q")).getConstancy(0), 1);
  // (r - n) % 4: -8..-5 % 4 is 0, -3, -2, -1, not a run.
  AxisInfo rm = axis.getAxisInfo(tagged(*m, "rm"));
  EXPECT_EQ(rm.getContiguity(0), 1);
  EXPECT_EQ(rm.getConstancy(0), 1);
  // pid * 64 + r is non-negative: the aligned runs stay.
  EXPECT_EQ(axis.getAxisInfo(tagged(*m, "q_nonneg")).getConstancy(0), 4);
  EXPECT_EQ(axis.getAxisInfo(tagged(*m, "rm_nonneg")).getContiguity(0), 16);
  // Same pointer everywhere, but masked-off elements read -1: constant
  // only as far as the mask is.
  EXPECT_EQ(axis.getAxisInfo(tagged(*m, "x")).getConstancy(0), 16);
  EXPECT_EQ(axis.getAxisInfo(tagged(*m, "y")).getConstancy(0), 64);
}
