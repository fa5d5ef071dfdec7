//===- Histogram.cpp - tile.histogram lowering ------------------*- C++ -*-===//
//
// tl.histogram through shared memory: the CTA zeroes num_bins counters in
// the op's scratch, a barrier, the first replica of each element of the
// source adds 1 to its bin with `red.shared.add.u32` (PTX ISA 9.7.13.6),
// a barrier, and every thread reads the counters its result elements name.
// Which bin a value falls in follows Triton 3.6 (the op's description in
// TileOps.td): its low log2(max(num_bins, 32)) bits, dropped when that
// bin is past the last.
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

/// Counter `bin` (i32) of the histogram at `base`.
Value counterAddress(OpBuilder &b, Location loc, Value base, Value bin) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI32Type(), base,
                             ValueRange{bin});
}

struct HistogramLowering : public OpConversionPattern<tile::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resType = cast<RankedTensorType>(op.getType());
    int64_t numBins = resType.getDimSize(0);
    FailureOr<int64_t> offset = getSharedOffset(op);
    if (failed(offset))
      return failure();
    Value base = getSharedBase(b, loc, *offset);
    Type i32 = b.getI32Type();
    Value zero = i32Const(b, loc, 0);

    // 1. Zero the counters: thread t clears t, t + T, ... (T threads).
    LL src = getLayout(srcType);
    int64_t threads = 32 * src.getNumWarps();
    Value tid = emitThreadId(b, loc);
    for (int64_t first = 0; first < numBins; first += threads) {
      Value bin = arith::AddIOp::create(b, loc, tid, i32Const(b, loc, first));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           bin, i32Const(b, loc, numBins));
      createPredicatedSharedStore(b, loc, inside,
                                  counterAddress(b, loc, base, bin), zero);
    }
    gpu::BarrierOp::create(b, loc);

    // 2. Count: each element once (its first replica), unless masked off
    // or past the last bin.
    uint64_t freeRegs = src.getFreeMask(LL::kRegister);
    Value owner = emitReplicaPredicate(b, loc, src);
    int64_t window = std::max<int64_t>(numBins, 32);
    for (int64_t e = 0; e < src.getNumRegisters(); ++e) {
      if (uint64_t(e) & freeRegs)
        continue;
      Value v = extractElement(b, loc, adaptor.getSrc(), e);
      unsigned bits = v.getType().getIntOrFloatBitWidth();
      if (bits > 32)
        v = arith::TruncIOp::create(b, loc, i32, v);
      else if (bits < 32)
        v = arith::ExtUIOp::create(b, loc, i32, v); // low bits are kept
      Value bin =
          arith::AndIOp::create(b, loc, v, i32Const(b, loc, window - 1));
      Value pred = owner;
      auto both = [&](Value p, Value q) {
        return p ? Value(arith::AndIOp::create(b, loc, p, q)) : q;
      };
      if (window > numBins)
        pred = both(pred, arith::CmpIOp::create(b, loc,
                                                arith::CmpIPredicate::ult, bin,
                                                i32Const(b, loc, numBins)));
      if (adaptor.getMask())
        pred = both(pred, extractElement(b, loc, adaptor.getMask(), e));
      if (!pred)
        pred = arith::ConstantIntOp::create(b, loc, 1, 1);
      createInlineAsm(b, loc, TypeRange(),
                      ValueRange{pred, counterAddress(b, loc, base, bin)},
                      "@$0 red.shared.add.u32 [ $1 + 0 ], 1;", "b,l",
                      /*hasSideEffects=*/true);
    }
    gpu::BarrierOp::create(b, loc);

    // 3. Every thread reads the counters of its result elements.
    LL res = getLayout(resType);
    ThreadCoords thread = emitThreadCoords(b, loc, res);
    Value result = poisonValue(b, loc, getTypeConverter()->convertType(resType));
    for (int64_t r = 0; r < res.getNumRegisters(); ++r) {
      Value bin = emitElementCoords(b, loc, res, thread, r)[0];
      Value count = LLVM::LoadOp::create(b, loc, i32,
                                         counterAddress(b, loc, base, bin));
      result = insertElement(b, loc, result, count, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

int64_t simt::getHistogramSharedMemoryBytes(tile::HistogramOp op) {
  return 4 * cast<RankedTensorType>(op.getType()).getDimSize(0);
}

void simt::populateHistogramToSIMTPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<HistogramLowering>(converter, patterns.getContext());
}
