//===- Math.cpp - Fast math lowerings matching Triton ------------*- C++ -*-===//
//
// The fp32 operations Triton lowers to fast hardware instructions:
//  - `math.exp` -> `ex2.approx.f32` of x log2(e), as Triton's tl.exp (PTX
//    ISA 9.7.3.22: relative error 2^-22.5; no `.ftz`, so subnormal results
//    are kept); `math.exp2` -> `ex2.approx.ftz.f32`, as Triton's
//    tl.math.exp2 (libdevice's exp2f under Triton's nvvm-reflect FTZ = 1):
//    results below 2^-126 flush to zero. The non-ftz form costs a compare,
//    two predicated multiplies and a dependency around every MUFU.EX2 --
//    in a softmax, on every score;
//  - `arith.divf` marked `afn` (the front end's `/`) -> `div.full.f32`
//    (PTX ISA 9.7.3.8, max 2 ulp), as Triton's `/`; unmarked divf (tl.div_rn)
//    stays IEEE `div.rn.f32`;
//  - `math.sqrt` marked `afn` (tl.sqrt) -> `sqrt.approx.f32`; unmarked
//    (tl.sqrt_rn) -> IEEE `sqrt.rn.f32`.
// Every other math op goes to libdevice through the upstream math-to-NVVM
// lowering. docs/language.md lists which is which.
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

Value ex2Approx(OpBuilder &b, Location loc, Value x, bool ftz) {
  auto call = LLVM::CallIntrinsicOp::create(
      b, loc, b.getF32Type(),
      b.getStringAttr(ftz ? "llvm.nvvm.ex2.approx.ftz.f32"
                          : "llvm.nvvm.ex2.approx.f32"),
      ValueRange{x});
  return call.getResult(0);
}

/// exp (ScaleByLog2e: 2^(x log2 e), subnormal results kept) or exp2
/// (flushed to zero below 2^-126), as Triton lowers them.
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
    rewriter.replaceOp(op, mapElements(rewriter, loc, x, rewriter.getF32Type(),
                                       [&](ValueRange e) {
                                         return ex2Approx(rewriter, loc, e[0],
                                                          /*ftz=*/!ScaleByLog2e);
                                       }));
    return success();
  }
};

Value inlinePTX(OpBuilder &b, Location loc, StringRef text, ValueRange args) {
  std::string constraints = "=f";
  for (size_t i = 0; i < args.size(); ++i)
    constraints += ",f";
  return createInlineAsm(b, loc, b.getF32Type(), args, text, constraints, /*hasSideEffects=*/false)
      ->getResult(0);
}

bool allowsApprox(arith::FastMathFlags flags) {
  return arith::bitEnumContainsAll(flags, arith::FastMathFlags::afn);
}

struct FastDivLowering : public OpConversionPattern<arith::DivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!allowsApprox(op.getFastmath()) ||
        !isF32OrVectorOfF32(adaptor.getLhs().getType()))
      return rewriter.notifyMatchFailure(op, "not an approximate fp32 divide");
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, mapElements(rewriter, loc, {adaptor.getLhs(), adaptor.getRhs()}, rewriter.getF32Type(),
                       [&](ValueRange e) {
                         return inlinePTX(rewriter, loc,
                                          "div.full.f32 $0, $1, $2;", e);
                       }));
    return success();
  }
};

struct SqrtLowering : public OpConversionPattern<math::SqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::SqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getOperand();
    if (!isF32OrVectorOfF32(x.getType()))
      return rewriter.notifyMatchFailure(op, "not fp32");
    Location loc = op.getLoc();
    // (llvm.intr.sqrt would be rejected by convert-gpu-to-nvvm, which sends
    // math to libdevice; the PTX is spelled out instead.)
    StringRef text = allowsApprox(op.getFastmath()) ? "sqrt.approx.f32 $0, $1;"
                                                    : "sqrt.rn.f32 $0, $1;";
    rewriter.replaceOp(op, mapElements(rewriter, loc, {x}, rewriter.getF32Type(), [&](ValueRange e) {
                         return inlinePTX(rewriter, loc, text, e);
                       }));
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
  target.addDynamicallyLegalOp<math::ExpOp, math::Exp2Op, math::SqrtOp>(legal);
  target.addDynamicallyLegalOp<arith::DivFOp>([&converter](arith::DivFOp op) {
    return converter.isLegal(op.getOperation()) &&
           !(allowsApprox(op.getFastmath()) &&
             isF32OrVectorOfF32(op.getType()));
  });
  patterns.add<FastDivLowering, SqrtLowering>(converter, patterns.getContext(),
                                              /*benefit=*/2);
  patterns.add<FastExpLowering<math::ExpOp, true>,
               FastExpLowering<math::Exp2Op, false>>(converter,
                                                     patterns.getContext(),
                                                     /*benefit=*/2);
}
