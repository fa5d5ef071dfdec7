//===- FloatConversions.cpp - fp8, rounding-mode conversions ---*- C++ -*-===//
//
// fp8 (e4m3 `f8E4M3FN`, Triton's float8e4nv; e5m2 `f8E5M2`, float8e5) values
// live in registers as their bytes. Conversions use the sm_89+ PTX
// conversions (PTX ISA 9.7.9.21, cvt with .e4m3x2/.e5m2x2): to fp8,
// `cvt.rn.satfinite.e4m3x2.f32` — round to nearest even, saturating to the
// largest finite value, NaN kept — from fp32 (fp16/bf16 convert through
// fp32 exactly); from fp8, `cvt.rn.f16x2.e4m3x2`, exact, then fp16 to the
// wider type exactly. sm_80 has no fp8 cvt: there, from fp8 is integer
// arithmetic on the byte (exact too), and to fp8 is refused before lowering. Arithmetic on fp8 itself is not defined (Triton
// refuses it too). Toward-zero truncations (Triton's
// fp_downcast_rounding="rtz") lower here too, to cvt.rz.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"
#include "passes/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

std::string fp8Name(Type t) {
  return isa<Float8E4M3FNType>(t) ? "e4m3" : "e5m2";
}

Value asm1(OpBuilder &b, Location loc, Type result, StringRef text,
           StringRef constraints, ValueRange args) {
  return createInlineAsm(b, loc, result, args, text, constraints, /*hasSideEffects=*/false)
      ->getResult(0);
}

/// mapElements over one operand.
Value perElement(OpBuilder &b, Location loc, Value x, Type resultElem,
                 function_ref<Value(Value)> fn) {
  return mapElements(b, loc, x, resultElem,
                     [&](ValueRange e) { return fn(e[0]); });
}

/// fp32 -> fp8 byte (RNE, satfinite).
Value f32ToFp8(OpBuilder &b, Location loc, Value f, Type fp8) {
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  std::string text = "cvt.rn.satfinite." + fp8Name(fp8) + "x2.f32 $0, $1, $2;";
  Value pair = asm1(b, loc, b.getI16Type(), text, "=h,f,f", {zero, f});
  return arith::TruncIOp::create(b, loc, b.getI8Type(), pair);
}

/// fp8 byte -> fp16 (exact).
Value fp8ToF16(OpBuilder &b, Location loc, Value byte, Type fp8) {
  Value pair = arith::ExtUIOp::create(b, loc, b.getI16Type(), byte);
  std::string text = "cvt.rn.f16x2." + fp8Name(fp8) + "x2 $0, $1;";
  Value halves = asm1(b, loc, b.getI32Type(), text, "=r,h", {pair});
  Value low = arith::TruncIOp::create(b, loc, b.getI16Type(), halves);
  return arith::BitcastOp::create(b, loc, b.getF16Type(), low);
}

struct TruncToFp8 : public OpConversionPattern<arith::TruncFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = tile::getElementTypeOrSelf(op.getType());
    if (!isFp8(to))
      return rewriter.notifyMatchFailure(op, "not to fp8");
    Location loc = op.getLoc();
    Value x = adaptor.getIn();
    rewriter.replaceOp(op, perElement(rewriter, loc, x, rewriter.getI8Type(),
                                      [&](Value e) {
                                        if (!e.getType().isF32())
                                          e = arith::ExtFOp::create(
                                              rewriter, loc,
                                              rewriter.getF32Type(), e);
                                        return f32ToFp8(rewriter, loc, e, to);
                                      }));
    return success();
  }
};

/// fp8 byte -> fp16 without fp8 cvt (sm_80), exact. e5m2 is the high byte
/// of the f16 with the same value (same exponent bias 15, fewer mantissa
/// bits). e4m3fn (bias 7, no infinities, S.1111.111 NaN): the byte's
/// exponent and mantissa placed in an f16's fields give x * 2^-8 for
/// normal and subnormal x alike, so one exact f16 multiply by 2^8
/// rescales it; NaN bytes are selected separately.
Value fp8ToF16Bits(OpBuilder &b, Location loc, Value byte, Type fp8) {
  Type i16 = b.getI16Type();
  auto c16 = [&](int v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(i16, v));
  };
  Value x = arith::ExtUIOp::create(b, loc, i16, byte);
  if (isa<Float8E5M2Type>(fp8))
    return arith::BitcastOp::create(
        b, loc, b.getF16Type(), arith::ShLIOp::create(b, loc, x, c16(8)));
  Value sign = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, x, c16(0x80)), c16(8));
  Value mag = arith::AndIOp::create(b, loc, x, c16(0x7f));
  Value scaledBits = arith::ShLIOp::create(b, loc, mag, c16(7));
  Value scaled = arith::BitcastOp::create(b, loc, b.getF16Type(), scaledBits);
  Value two8 = arith::ConstantOp::create(b, loc, b.getF16FloatAttr(256.0));
  Value value = arith::MulFOp::create(b, loc, scaled, two8);
  Value isNan = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mag,
                                      c16(0x7f));
  Value nan = arith::BitcastOp::create(b, loc, b.getF16Type(), c16(0x7e00));
  Value unsignedValue = arith::SelectOp::create(b, loc, isNan, nan, value);
  Value bits = arith::BitcastOp::create(b, loc, i16, unsignedValue);
  return arith::BitcastOp::create(b, loc, b.getF16Type(),
                                  arith::OrIOp::create(b, loc, bits, sign));
}

struct ExtFromFp8 : public OpConversionPattern<arith::ExtFOp> {
  ExtFromFp8(TileTypeConverter &converter, MLIRContext *ctx, unsigned benefit,
             bool hasFp8Cvt)
      : OpConversionPattern(converter, ctx, benefit), hasFp8Cvt(hasFp8Cvt) {}
  bool hasFp8Cvt;
  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = tile::getElementTypeOrSelf(op.getIn().getType());
    if (!isFp8(from))
      return rewriter.notifyMatchFailure(op, "not from fp8");
    Location loc = op.getLoc();
    Type to = tile::getElementTypeOrSelf(op.getType());
    rewriter.replaceOp(
        op, perElement(rewriter, loc, adaptor.getIn(), to, [&](Value e) {
          Value h = hasFp8Cvt ? fp8ToF16(rewriter, loc, e, from)
                              : fp8ToF16Bits(rewriter, loc, e, from);
          if (to.isF16())
            return h;
          Value f = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), h);
          if (to.isF32())
            return f;
          if (to.isF64())
            return Value(arith::ExtFOp::create(rewriter, loc, to, f));
          // bf16: every fp8 value is exact in bf16.
          return Value(arith::TruncFOp::create(rewriter, loc, to, f));
        }));
    return success();
  }
};

bool isTowardZero(arith::TruncFOp op) {
  auto mode = op.getRoundingmodeAttr();
  return mode && mode.getValue() == arith::RoundingMode::toward_zero;
}

/// `x.to(fp16|bf16|fp32, fp_downcast_rounding="rtz")`: PTX cvt.rz (PTX ISA
/// 9.7.9.21). fp64 -> fp16/bf16 goes through fp32 toward zero: two
/// truncations toward zero give the one truncation.
struct TruncTowardZero : public OpConversionPattern<arith::TruncFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = tile::getElementTypeOrSelf(op.getType());
    if (!isTowardZero(op) || isFp8(to))
      return rewriter.notifyMatchFailure(op, "not a toward-zero truncation");
    if (!to.isF16() && !to.isBF16() && !to.isF32())
      return op.emitOpError("toward-zero truncation to ")
             << to << " has no lowering";
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op, perElement(rewriter, loc, adaptor.getIn(), to, [&](Value e) {
          if (e.getType().isF64())
            e = asm1(rewriter, loc, rewriter.getF32Type(),
                     "cvt.rz.f32.f64 $0, $1;", "=f,d", {e});
          if (to.isF32())
            return e;
          std::string text = std::string("cvt.rz.") +
                             (to.isF16() ? "f16" : "bf16") + ".f32 $0, $1;";
          Value bits = asm1(rewriter, loc, rewriter.getI16Type(), text,
                            "=h,f", {e});
          return Value(arith::BitcastOp::create(rewriter, loc, to, bits));
        }));
    return success();
  }
};

} // namespace

void simt::populateFloatConversionToSIMTPatterns(TileTypeConverter &converter,
                                     ConversionTarget &target,
                                     RewritePatternSet &patterns,
                                     StringRef chip) {
  auto touchesFp8 = [](Operation *op) {
    for (Type t : op->getOperandTypes())
      if (isFp8(tile::getElementTypeOrSelf(t)))
        return true;
    for (Type t : op->getResultTypes())
      if (isFp8(tile::getElementTypeOrSelf(t)))
        return true;
    return false;
  };
  target.addDynamicallyLegalOp<arith::TruncFOp, arith::ExtFOp>(
      [touchesFp8, &converter](Operation *op) {
        if (auto t = dyn_cast<arith::TruncFOp>(op); t && isTowardZero(t))
          return false;
        return converter.isLegal(op) && !touchesFp8(op);
      });
  patterns.add<TruncToFp8, TruncTowardZero>(converter, patterns.getContext(),
                                            /*benefit=*/3);
  patterns.add<ExtFromFp8>(converter, patterns.getContext(), /*benefit=*/3,
                           /*hasFp8Cvt=*/getTarget(chip).hasFp8());
}

bool simt::isFp8Conversion(Operation *op) {
  return isa<arith::TruncFOp, arith::ExtFOp>(op);
}
