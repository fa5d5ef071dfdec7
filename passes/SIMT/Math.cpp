//===- Math.cpp - Fast math lowerings matching Triton ------------*- C++ -*-===//
//
// fp32 `math.exp` and `math.exp2` lower to the hardware `ex2.approx.f32`
// (exp(x) = 2^(x * log2 e)), as Triton does for tl.exp / tl.exp2 on fp32:
// two instructions instead of libdevice's accurate __nv_expf sequence
// (PTX ISA 9.7.3.22, ex2: maximum relative error 2^-22.5 for |x| in the
// normal range; subnormal results are kept since `.ftz` is not used).
// Every other math op (and exp on other types) goes to libdevice through
// the upstream math-to-NVVM lowering. docs/language.md lists which is which.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

bool isF32OrVectorOfF32(Type t) {
  return tile::getElementTypeOrSelf(t).isF32() ||
         (isa<VectorType>(t) && cast<VectorType>(t).getElementType().isF32());
}

Value ex2Approx(OpBuilder &b, Location loc, Value x) {
  auto call = LLVM::CallIntrinsicOp::create(
      b, loc, b.getF32Type(), b.getStringAttr("llvm.nvvm.ex2.approx.f32"),
      ValueRange{x});
  return call.getResult(0);
}

template <typename MathOp, bool ScaleByLog2e>
struct FastExpLowering : public OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<MathOp>::OpAdaptor;

  LogicalResult
  matchAndRewrite(MathOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    if (!isF32OrVectorOfF32(x.getType()))
      return rewriter.notifyMatchFailure(op, "not fp32");
    if (ScaleByLog2e) {
      TypedAttr log2e = rewriter.getF32FloatAttr(1.4426950408889634f);
      if (auto vt = dyn_cast<VectorType>(x.getType()))
        log2e = SplatElementsAttr::get(vt, log2e);
      Value c = arith::ConstantOp::create(rewriter, loc, log2e);
      x = arith::MulFOp::create(rewriter, loc, x, c);
    }
    auto vt = dyn_cast<VectorType>(x.getType());
    if (!vt) {
      rewriter.replaceOp(op, ex2Approx(rewriter, loc, x));
      return success();
    }
    Value out = poisonValue(rewriter, loc, vt);
    for (int64_t i = 0; i < vt.getNumElements(); ++i)
      out = insertElement(rewriter, loc, out,
                          ex2Approx(rewriter, loc,
                                    extractElement(rewriter, loc, x, i)),
                          i);
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void simt::populateMathToSIMTPatterns(TileTypeConverter &converter,
                                      ConversionTarget &target,
                                      RewritePatternSet &patterns) {
  // fp32 exp/exp2 must take the fast path; other types stay for libdevice.
  auto legal = [&converter](Operation *op) {
    return converter.isLegal(op) &&
           !isF32OrVectorOfF32(op->getResult(0).getType());
  };
  target.addDynamicallyLegalOp<math::ExpOp, math::Exp2Op>(legal);
  patterns.add<FastExpLowering<math::ExpOp, true>,
               FastExpLowering<math::Exp2Op, false>>(converter,
                                                     patterns.getContext(),
                                                     /*benefit=*/2);
}
