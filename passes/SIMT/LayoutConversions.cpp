//===- LayoutConversions.cpp - convert_layout and reshape -------*- C++ -*-===//
//
// Moves tile elements between threads through shared memory: every thread
// writes the elements it holds at their row-major position, a CTA barrier,
// every thread reads the elements the target layout gives it, and a second
// barrier so the next conversion may reuse the buffer. Replicated elements
// are written by several threads with the same value, which is benign. A
// reshape is the same exchange with the destination read under another
// shape. Conversions between encodings that place every element in the same
// register of the same thread are free.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

/// Row-major linear index (i32) of `coords` in `shape`.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                  ArrayRef<int64_t> shape) {
  Value idx;
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value term = stride == 1 ? coords[d]
                             : arith::MulIOp::create(b, loc, coords[d],
                                                     i32Const(b, loc, stride));
    idx = idx ? arith::AddIOp::create(b, loc, idx, term).getResult() : term;
    stride *= shape[d];
  }
  return idx;
}

bool isFreeConversion(RankedTensorType src, RankedTensorType dst) {
  return tile::haveSameElementPlacement(src, dst);
}

/// Shared-memory element type: i1 as a byte, pointers as i64.
Type sharedType(Type converted) {
  if (converted.isInteger(1))
    return IntegerType::get(converted.getContext(), 8);
  return converted;
}

Value exchangeThroughShared(OpBuilder &b, Location loc, Value src,
                            RankedTensorType srcType, RankedTensorType dstType,
                            const TypeConverter &tc) {
  tile::DistributedLayout sl = *tile::getDistributedLayout(srcType);
  tile::DistributedLayout dl = *tile::getDistributedLayout(dstType);
  Type elem = tc.convertType(srcType.getElementType());
  Type smemElem = sharedType(elem);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedMemoryName);
  auto elemPtr = [&](Value index) {
    return LLVM::GEPOp::create(b, loc, ptrType, smemElem, base,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  // The previous user of the buffer may still be reading it.
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> srcBase = emitThreadBase(b, loc, sl);
  for (int64_t e = 0; e < sl.totalElemsPerThread; ++e) {
    SmallVector<Value> c = emitElementCoords(b, loc, sl, srcBase, e);
    Value v = extractElement(b, loc, src, e);
    if (smemElem != elem)
      v = arith::ExtUIOp::create(b, loc, smemElem, v);
    LLVM::StoreOp::create(b, loc, v,
                          elemPtr(linearIndex(b, loc, c, srcType.getShape())));
  }
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> dstBase = emitThreadBase(b, loc, dl);
  Value result = poisonValue(
      b, loc, VectorType::get({dl.totalElemsPerThread}, elem));
  for (int64_t e = 0; e < dl.totalElemsPerThread; ++e) {
    SmallVector<Value> c = emitElementCoords(b, loc, dl, dstBase, e);
    Value v = LLVM::LoadOp::create(
        b, loc, smemElem, elemPtr(linearIndex(b, loc, c, dstType.getShape())));
    if (smemElem != elem)
      v = arith::TruncIOp::create(b, loc, elem, v);
    result = insertElement(b, loc, result, v, e);
  }
  return result;
}

struct ConvertLayoutLowering
    : public OpConversionPattern<tile::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (isFreeConversion(srcType, dstType)) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    rewriter.replaceOp(op, exchangeThroughShared(rewriter, op.getLoc(),
                                                 adaptor.getSrc(), srcType,
                                                 dstType, *getTypeConverter()));
    return success();
  }
};

struct ReshapeLowering : public OpConversionPattern<tile::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(op, exchangeThroughShared(rewriter, op.getLoc(),
                                                 adaptor.getSrc(), srcType,
                                                 dstType, *getTypeConverter()));
    return success();
  }
};

} // namespace

int64_t simt::getSharedMemoryBytes(Operation *op) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return getReduceSharedMemoryBytes(reduce);
  RankedTensorType src, dst;
  if (auto cvt = dyn_cast<tile::ConvertLayoutOp>(op)) {
    src = cast<RankedTensorType>(cvt.getSrc().getType());
    dst = cast<RankedTensorType>(cvt.getType());
    if (isFreeConversion(src, dst))
      return 0;
  } else if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    src = cast<RankedTensorType>(reshape.getSrc().getType());
  } else {
    return 0;
  }
  Type elem = src.getElementType();
  int64_t bytes = isa<tile::PtrType>(elem) ? 8 : getElementBytes(elem);
  return src.getNumElements() * bytes;
}

void simt::populateLayoutConversionToSIMTPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering, ReshapeLowering>(converter,
                                                       patterns.getContext());
}
