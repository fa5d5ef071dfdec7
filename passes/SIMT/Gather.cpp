//===- Gather.cpp - tile.gather lowering ------------------------*- C++ -*-===//
//
// tl.gather through shared memory, in the op's scratch (getScratchBytes:
// the source's elements, i1 as a byte and pointers as i64): the first
// replica of each source element stores it at its row-major index
// (storeToShared, vectorized where the layout allows), a CTA barrier, then
// every thread loads, for each of its result elements, the source element
// at that element's coordinates with the axis coordinate replaced by the
// index. tile-insert-barriers orders the stores against earlier users of
// the bytes, as for the other scratch users.
//
// An index outside [0, n) (n = the source's size along the axis) is
// undefined behaviour in Triton; here it is clamped as an unsigned number,
// `umin(index, n - 1)` after sign extension to 32 bits (i64 indices are
// clamped before truncation), so every load stays inside the scratch
// buffer and an out-of-range index reads element n - 1.
//
// Triton 3.6 also has a warp-shuffle path when the gather axis lies within
// a warp in both layouts; tilec always goes through shared memory.
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

using LL = tile::LinearLayout;

/// The index element `idx` (any integer width) as an i32 in [0, n).
Value clampIndex(OpBuilder &b, Location loc, Value idx, int64_t n) {
  Type i32 = b.getI32Type();
  unsigned bits = idx.getType().getIntOrFloatBitWidth();
  if (bits > 32) {
    Value last = arith::ConstantIntOp::create(b, loc, idx.getType(), n - 1);
    idx = arith::MinUIOp::create(b, loc, idx, last);
    return arith::TruncIOp::create(b, loc, i32, idx);
  }
  if (bits < 32)
    idx = arith::ExtSIOp::create(b, loc, i32, idx);
  return arith::MinUIOp::create(b, loc, idx, i32Const(b, loc, n - 1));
}

struct GatherLowering : public OpConversionPattern<tile::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resType = cast<RankedTensorType>(op.getType());
    if (resType.getEncoding() !=
        cast<RankedTensorType>(op.getIndex().getType()).getEncoding())
      return rewriter.notifyMatchFailure(
          op, "expected the result in the index's layout");
    FailureOr<int64_t> offset = getSharedOffset(op);
    if (failed(offset))
      return failure();
    Value base = getSharedBase(b, loc, *offset);
    unsigned axis = op.getAxis();
    ArrayRef<int64_t> srcShape = srcType.getShape();

    // Shared-memory element type: i1 as a byte; pointers are already i64.
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    Type smemElem = elem.isInteger(1) ? b.getI8Type() : elem;
    Value src = adaptor.getSrc();
    LL sl = getLayout(srcType);
    if (smemElem != elem)
      src = arith::ExtUIOp::create(
          b, loc, VectorType::get({sl.getNumRegisters()}, smemElem), src);

    // 1. Each source element once, at its row-major index.
    storeToShared(b, loc, base, src,
                  tile::OffsetMap::rowMajor(sl.getOutShape()).compose(sl));
    gpu::BarrierOp::create(b, loc);

    // 2. Each result element from the source at its coordinates, the
    // axis coordinate replaced by its (clamped) index.
    LL rl = getLayout(resType);
    ThreadCoords thread = emitThreadCoords(b, loc, rl);
    uint64_t freeRegs = rl.getFreeMask(LL::kRegister);
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
    int64_t n = rl.getNumRegisters();
    SmallVector<Value> regs(n);
    for (int64_t r = 0; r < n; ++r) {
      if (uint64_t(r) & freeRegs) {
        // A replica of an earlier register (the same index element).
        regs[r] = regs[r & ~int64_t(freeRegs)];
        continue;
      }
      SmallVector<Value> coords = emitElementCoords(b, loc, rl, thread, r);
      coords[axis] = clampIndex(
          b, loc, extractElement(b, loc, adaptor.getIndex(), r),
          srcShape[axis]);
      Value linear = emitRowMajorIndex(b, loc, coords, srcShape);
      Value ptr = LLVM::GEPOp::create(b, loc, ptrType, smemElem, base,
                                      ArrayRef<LLVM::GEPArg>{linear});
      regs[r] = LLVM::LoadOp::create(b, loc, smemElem, ptr,
                                     unsigned(getElementBytes(smemElem)));
      if (smemElem != elem)
        regs[r] = arith::TruncIOp::create(b, loc, elem, regs[r]);
    }
    Value result =
        poisonValue(b, loc, getTypeConverter()->convertType(resType));
    for (int64_t r = 0; r < n; ++r)
      result = insertElement(b, loc, result, regs[r], r);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

int64_t simt::getGatherSharedMemoryBytes(tile::GatherOp op) {
  auto src = cast<RankedTensorType>(op.getSrc().getType());
  Type elem = src.getElementType();
  int64_t bytes = isa<tile::PtrType>(elem) ? 8 : getElementBytes(elem);
  return src.getNumElements() * bytes;
}

void simt::populateGatherToSIMTPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, patterns.getContext());
}
