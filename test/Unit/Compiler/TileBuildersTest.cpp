//===- TileBuildersTest.cpp - C++ builders of the tile ops ------*- C++ -*-===//
//
// Builds the ops a front end emits for Triton's reductions, scans, dots,
// transposes, atomics, tensor descriptors and hints through their C++
// `create` builders (result types inferred where the op defines them, the
// reduce/scan combiner filled through addCombinerBlock()), and checks that
// the result verifies and prints as the documented syntax.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {
class TileBuildersTest : public ::testing::Test {
protected:
  TileBuildersTest() : b(&ctx), loc(b.getUnknownLoc()) {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    module = ModuleOp::create(loc);
  }
  /// A kernel `@k(args)` with its body's insertion point set.
  FuncOp kernel(ArrayRef<Type> args) {
    b.setInsertionPointToEnd(module->getBody());
    auto f = FuncOp::create(b, loc, "k", b.getFunctionType(args, {}));
    Block *entry = new Block();
    f.getBody().push_back(entry);
    for (Type t : args)
      entry->addArgument(t, loc);
    b.setInsertionPointToStart(entry);
    return f;
  }
  std::string print(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    op->print(os);
    return s;
  }
  MLIRContext ctx;
  OpBuilder b;
  Location loc;
  OwningOpRef<ModuleOp> module;
};
} // namespace

TEST_F(TileBuildersTest, ReduceScanDotTrans) {
  auto f32 = b.getF32Type();
  FuncOp f = kernel({});
  auto t = RankedTensorType::get({16, 64}, f32);
  Value a = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(t, b.getF32FloatAttr(1.0f)));

  // tl.sum(a, axis=1): result type inferred, combiner block added.
  auto reduce = ReduceOp::create(b, loc, ValueRange{a}, /*axis=*/1);
  EXPECT_EQ(reduce.getResult()[0].getType(),
            RankedTensorType::get({16}, f32));
  {
    OpBuilder::InsertionGuard g(b);
    Block *combine = reduce.addCombinerBlock();
    ASSERT_EQ(combine->getNumArguments(), 2u);
    b.setInsertionPointToStart(combine);
    Value s = arith::AddFOp::create(b, loc, combine->getArgument(0),
                                    combine->getArgument(1));
    ReduceReturnOp::create(b, loc, ValueRange{s});
  }
  // A 1-D reduction gives a scalar.
  auto total = ReduceOp::create(b, loc, reduce.getResult(), /*axis=*/0);
  EXPECT_EQ(total.getResult()[0].getType(), f32);
  {
    OpBuilder::InsertionGuard g(b);
    Block *combine = total.addCombinerBlock();
    b.setInsertionPointToStart(combine);
    Value m = arith::MaximumFOp::create(b, loc, combine->getArgument(0),
                                        combine->getArgument(1));
    ReduceReturnOp::create(b, loc, ValueRange{m});
  }

  auto scan = ScanOp::create(b, loc, ValueRange{a}, /*axis=*/0,
                             /*reverse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    Block *combine = scan.addCombinerBlock();
    b.setInsertionPointToStart(combine);
    Value s = arith::AddFOp::create(b, loc, combine->getArgument(0),
                                    combine->getArgument(1));
    ScanReturnOp::create(b, loc, ValueRange{s});
  }

  auto trans = TransOp::create(b, loc, a, ArrayRef<int32_t>{1, 0});
  EXPECT_EQ(trans.getType(), RankedTensorType::get({64, 16}, f32));
  auto accType = RankedTensorType::get({16, 16}, f32);
  Value acc = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0f)));
  auto dot = DotOp::create(b, loc, accType, a, trans, acc,
                           /*input_precision=*/"ieee",
                           /*max_num_imprecise_acc=*/IntegerAttr());
  EXPECT_EQ(dot.getInputPrecision(), "ieee");
  ReturnOp::create(b, loc);

  ASSERT_TRUE(succeeded(verify(*module)));
  std::string s = print(f);
  EXPECT_NE(s.find("tile.reduce(%cst) {axis = 1 : i32} : (tensor<16x64xf32>) "
                   "-> tensor<16xf32> {"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("tile.scan(%cst) {axis = 0 : i32, reverse = true}"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("tile.trans %cst {order = array<i32: 1, 0>}"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("{input_precision = \"ieee\"}"), std::string::npos) << s;
}

TEST_F(TileBuildersTest, AtomicsDescriptorsHints) {
  auto f16 = b.getF16Type(), f32 = b.getF32Type();
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  FuncOp f = kernel({PtrType::get(&ctx, f32), PtrType::get(&ctx, i32),
                     PtrType::get(&ctx, f16), i32, i64});
  Value x = f.getArgument(0), lock = f.getArgument(1), h = f.getArgument(2);
  Value n = f.getArgument(3), ld = f.getArgument(4);

  // tl.multiple_of(n, 16).
  auto hn = HintOp::create(b, loc, n, b.getDenseI64ArrayAttr({16}),
                           /*contiguity=*/nullptr, /*constancy=*/nullptr);
  EXPECT_EQ(hn.getType(), i32);
  // tl.atomic_add(x, 1.0) and tl.atomic_cas(lock, 0, n), default sem/scope.
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
  auto rmw = AtomicRMWOp::create(b, loc, RMWKind::FAdd, x, one);
  EXPECT_EQ(rmw.getType(), f32);
  EXPECT_EQ(rmw.getSem(), MemSemantic::AcqRel);
  EXPECT_EQ(rmw.getScope(), MemScope::GPU);
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  auto cas = AtomicCASOp::create(b, loc, lock, zero, hn, MemSemantic::Acquire,
                                 MemScope::CTA);
  EXPECT_EQ(cas.getType(), i32);

  // tl.make_tensor_descriptor(h, [n, n], [ld, 1], [64, 64]).
  auto block = RankedTensorType::get({64, 64}, f16);
  Value c1 = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
  auto desc = MakeTensorDescOp::create(b, loc, TensorDescType::get(&ctx, block),
                                       h, ValueRange{n, n}, ValueRange{ld, c1});
  auto load = DescLoadOp::create(b, loc, block, desc, ValueRange{zero, zero});
  DescStoreOp::create(b, loc, desc, ValueRange{zero, hn}, load);
  tile::AssumeOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n, zero));
  BarrierOp::create(b, loc);
  ReturnOp::create(b, loc);

  ASSERT_TRUE(succeeded(verify(*module)));
  std::string s = print(f);
  EXPECT_NE(s.find("tile.atomic_rmw fadd, acq_rel, gpu, %arg0, %cst"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("tile.atomic_cas acquire, cta, %arg1"), std::string::npos)
      << s;
  EXPECT_NE(s.find("-> !tile.tensordesc<tensor<64x64xf16>>"),
            std::string::npos)
      << s;
}
