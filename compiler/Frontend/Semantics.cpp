//===- Semantics.cpp - Types, promotion and operators -----------*- C++ -*-===//
//
// triton.language's typing rules for the front end:
//  - Python numbers are compile-time values; combined with each other they
//    follow Python (`//` floors, `%` takes the divisor's sign);
//  - a scalar (compile-time or run-time) combined with a tile of the same or
//    a higher kind (bool < int < float) takes the tile's type; otherwise both
//    promote: fp64 > fp32 > fp16/bf16 (fp16 with bf16 gives fp32), floats
//    beat integers, wider integers beat narrower ones; `/` on integers and
//    `//`, `%` on fp16/bf16 compute in fp32 (Triton's computation_type_impl);
//  - run-time integer `//` and `%` truncate toward zero (C, PTX div/rem);
//  - unsigned integers (`tl.uint8`..`tl.uint64`, `u32` in signatures) are
//    signless integers in the IR, as in Triton: the front end carries the
//    dtype beside the value (PyValue::dtype) and picks the unsigned op
//    (divui, remui, shrui, cmpi ult.., maxui, extui, uitofp, fptoui); mixed
//    signedness promotes as Triton's integer_promote_impl (the unsigned side
//    wins at equal or greater width);
//  - tiles broadcast as numpy does; a pointer plus an integer is addptr.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"
#include "compiler/Frontend/Unicode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::BinOpKind;
using tilec::py::CmpOpKind;
using tilec::py::SourceLoc;
using tilec::py::UnaryOpKind;


namespace {
/// bool < int < float, as Triton orders kinds.
int kindRank(Type t) {
  if (t.isInteger(1))
    return 0;
  if (t.isInteger())
    return 1;
  return 2;
}

bool isFloat(Type t) { return isa<FloatType>(t); }


ArrayRef<int64_t> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t.getShape();
  return {};
}

/// Python's floor division and modulo on integers.
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }
} // namespace

PyValue PyValue::ofValue(Value v, Type dtype) {
  PyValue p;
  p.kind = Kind::Runtime;
  p.v = v;
  if (dtype && dtype != tile::getElementTypeOrSelf(v.getType()))
    p.dtype = dtype;
  return p;
}

bool frontend::isUnsignedInt(Type t) {
  auto i = dyn_cast_or_null<IntegerType>(t);
  return i && i.isUnsigned();
}

bool frontend::hasUnsignedOrder(Type t) {
  return isUnsignedInt(t) || (t && t.isInteger(1));
}

namespace {
/// Triton's name of a scalar dtype ("fp16", "int32", "uint8", "int1",
/// "fp8e4nv"); empty for others (pointers, blocks).
std::string tritonDTypeName(Type t) {
  if (auto i = dyn_cast_or_null<IntegerType>(t)) {
    if (i.getWidth() == 1)
      return "int1";
    return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth());
  }
  return tile::getFloatTypeName(t).str();
}
} // namespace

std::optional<bool> frontend::dtypePredicate(Type t, StringRef name) {
  // Triton 3.6's triton.language.core.dtype: predicates compare the name, so
  // a block type (named after its shape) is none of the scalar kinds.
  std::string n = tritonDTypeName(t);
  bool isFloat = n.rfind("fp", 0) == 0 || n == "bf16";
  bool isUint = n.rfind("uint", 0) == 0 || n == "int1";
  bool isSint = n.rfind("int", 0) == 0 && n != "int1";
  if (name.starts_with("is_fp8") || name == "is_fp16" || name == "is_bf16" ||
      name == "is_fp32" || name == "is_fp64" ||
      (name.starts_with("is_int") && name != "is_int" &&
       name != "is_int_signed" && name != "is_int_unsigned") ||
      name.starts_with("is_uint")) {
    StringRef want = name.drop_front(3);
    if (want == "fp8")
      return n.rfind("fp8", 0) == 0;
    return want == n;
  }
  return llvm::StringSwitch<std::optional<bool>>(name)
      .Case("is_floating", isFloat)
      .Case("is_standard_floating",
            n == "fp16" || n == "bf16" || n == "fp32" || n == "fp64")
      .Case("is_int", isUint || isSint)
      .Case("is_int_signed", isSint)
      .Case("is_int_unsigned", isUint)
      .Case("is_bool", n == "int1")
      .Case("is_void", false)
      .Case("is_const", false)
      .Case("is_ptr", isa_and_nonnull<tile::PtrType>(t))
      .Case("is_block", isa_and_nonnull<RankedTensorType>(t))
      .Default(std::nullopt);
}

std::optional<PyValue> frontend::dtypeAttribute(Type t, StringRef name) {
  std::string n = tritonDTypeName(t);
  bool isPtr = isa_and_nonnull<tile::PtrType>(t);
  if (name == "name" && !n.empty())
    return PyValue::ofStr(n);
  if (name == "primitive_bitwidth" || name == "itemsize") {
    unsigned bits = isPtr ? 64 : !n.empty() ? t.getIntOrFloatBitWidth() : 0;
    if (!bits)
      return std::nullopt;
    return PyValue::ofInt(name == "itemsize" ? std::max(1u, bits / 8) : bits);
  }
  auto i = dyn_cast_or_null<IntegerType>(t);
  if (name == "int_bitwidth" && i)
    return PyValue::ofInt(i.getWidth());
  if (name == "int_signedness" && i)
    // Triton's dtype.SIGNEDNESS: SIGNED 0, UNSIGNED 1 (int1 is unsigned).
    return PyValue::ofInt(i.getWidth() == 1 || i.isUnsigned() ? 1 : 0);
  if (auto f = dyn_cast_or_null<FloatType>(t)) {
    if (name == "fp_mantissa_width")
      return PyValue::ofInt(f.getFPMantissaWidth() - 1);
    if (name == "exponent_bias") {
      // 2^(exponent bits - 1) - 1, as Triton's table (fp8e4nv: 7).
      unsigned expBits = f.getWidth() - f.getFPMantissaWidth();
      return PyValue::ofInt((int64_t(1) << (expBits - 1)) - 1);
    }
  }
  return std::nullopt;
}

Type frontend::toIRType(Type t) {
  if (auto i = dyn_cast_or_null<IntegerType>(t))
    return i.isUnsigned() ? IntegerType::get(t.getContext(), i.getWidth()) : t;
  if (auto p = dyn_cast_or_null<tile::PtrType>(t))
    return tile::PtrType::get(t.getContext(), toIRType(p.getPointeeType()));
  if (auto r = dyn_cast_or_null<RankedTensorType>(t))
    return RankedTensorType::get(r.getShape(), toIRType(r.getElementType()),
                                 r.getEncoding());
  return t;
}

Type frontend::withElement(Type shapeOf, Type elem) {
  if (auto t = dyn_cast<RankedTensorType>(shapeOf))
    return RankedTensorType::get(t.getShape(), elem, t.getEncoding());
  return elem;
}

Type CodeGen::elementTypeOf(const PyValue &v) {
  switch (v.kind) {
  case PyValue::Kind::Runtime:
    return v.dtype ? v.dtype : tile::getElementTypeOrSelf(v.v.getType());
  case PyValue::Kind::Bool:
    return b.getI1Type();
  case PyValue::Kind::Int:
    // Triton's to_tensor: int32, else uint32 in [2^31, 2^32), else int64.
    if (v.i >= INT32_MIN && v.i <= INT32_MAX)
      return b.getI32Type();
    if (v.i > INT32_MAX && v.i <= int64_t(UINT32_MAX))
      return IntegerType::get(ctx, 32, IntegerType::Unsigned);
    return b.getI64Type();
  case PyValue::Kind::Float:
    return b.getF32Type();
  default:
    return {};
  }
}

Type CodeGen::frontendTypeOf(const PyValue &v) {
  if (!v.isRuntime())
    return elementTypeOf(v);
  return withElement(v.v.getType(), elementTypeOf(v));
}

LogicalResult CodeGen::checkIntRange(int64_t x, Type t, SourceLoc l) {
  unsigned w = t.getIntOrFloatBitWidth();
  if (w == 1)
    return success();
  if (isUnsignedInt(t)) {
    // Triton refuses a negative scalar with an unsigned tensor.
    if (x < 0 || (w < 64 && x > (int64_t(1) << w) - 1)) {
      error(l) << "integer " << x << " is out of range for " << t
               << (x < 0 ? " (cast one side explicitly to mix an unsigned "
                           "value with a negative one)"
                         : "");
      return failure();
    }
    return success();
  }
  // Out of range for the type: an error, as Triton gives.
  if (w < 64) {
    int64_t lo = -(int64_t(1) << (w - 1)), hi = (int64_t(1) << (w - 1)) - 1;
    if (x < lo || x > hi) {
      error(l) << "integer " << x << " is out of range for " << t;
      return failure();
    }
  }
  return success();
}

FailureOr<Value> CodeGen::toValue(const PyValue &v, SourceLoc l, Type hint) {
  Location lc = loc(l);
  if (v.isRuntime())
    return v.v;
  Type t = hint ? hint : elementTypeOf(v);
  if (!t || !v.isNumber()) {
    error(l) << "expected a number or a tile, found " << v.describe();
    return failure();
  }
  if (auto ft = dyn_cast<FloatType>(t)) {
    double d = v.kind == PyValue::Kind::Float ? v.f
               : v.kind == PyValue::Kind::Int ? double(v.i)
                                              : double(v.b);
    return arith::ConstantOp::create(b, lc, b.getFloatAttr(ft, d)).getResult();
  }
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (v.kind == PyValue::Kind::Float) {
      error(l) << "expected an integer, found a float constant";
      return failure();
    }
    int64_t x = v.kind == PyValue::Kind::Int ? v.i : int64_t(v.b);
    unsigned w = it.getWidth();
    if (w == 1)
      x = x != 0;
    else if (v.kind == PyValue::Kind::Int && failed(checkIntRange(x, it, l)))
      return failure();
    return arith::ConstantOp::create(b, lc,
                                     b.getIntegerAttr(toIRType(it), x))
        .getResult();
  }
  error(l) << "cannot make a constant of type " << t;
  return failure();
}

FailureOr<bool> CodeGen::truthiness(const PyValue &v, SourceLoc l) {
  switch (v.kind) {
  case PyValue::Kind::Bool: return v.b;
  case PyValue::Kind::Int: return v.i != 0;
  case PyValue::Kind::Float: return v.f != 0;
  case PyValue::Kind::None: return false;
  case PyValue::Kind::Str: return !v.s.empty();
  case PyValue::Kind::Tuple:
  case PyValue::Kind::Dict: return !v.elts.empty();
  case PyValue::Kind::Runtime:
    error(l) << "expected a compile-time condition, found a run-time "
             << v.v.getType();
    return failure();
  default:
    return true;
  }
}

FailureOr<Type> CodeGen::promote(const PyValue &a, const PyValue &b2,
                                 bool divOrMod, SourceLoc l) {
  Type ta = elementTypeOf(a), tb = elementTypeOf(b2);
  if (!ta || !tb) {
    error(l) << "unsupported operand types " << a.describe() << " and "
             << b2.describe();
    return failure();
  }
  // A Python number of a lower or equal kind takes the other operand's type
  // (only Python numbers: a run-time scalar promotes like a tile).
  if (a.isNumber() != b2.isNumber()) {
    Type number = a.isNumber() ? ta : tb, other = a.isNumber() ? tb : ta;
    if (kindRank(number) <= kindRank(other)) {
      if (divOrMod && (other.isF16() || other.isBF16()))
        return Type(b.getF32Type());
      return other;
    }
  }
  // Triton's computation_type_impl, in its order.
  if (isFloat(ta) || isFloat(tb)) {
    if (isa<Float8E4M3FNType, Float8E5M2Type>(ta) ||
        isa<Float8E4M3FNType, Float8E5M2Type>(tb)) {
      error(l) << "unsupported arithmetic on fp8 values (" << ta << ", " << tb
               << "); convert them with .to(tl.float16) or tl.float32 first";
      return failure();
    }
    if (ta.isF64() || tb.isF64())
      return Type(b.getF64Type());
    if (ta.isF32() || tb.isF32())
      return Type(b.getF32Type());
    if (ta.isF16() || tb.isF16())
      return divOrMod ? Type(b.getF32Type()) : Type(b.getF16Type());
    // bf16: only bf16 with bf16 stays bf16.
    if (!divOrMod && ta.isBF16() && tb.isBF16())
      return Type(b.getBF16Type());
    return Type(b.getF32Type());
  }
  if (!ta.isInteger() || !tb.isInteger()) {
    error(l) << "unsupported operand types " << a.describe() << " and "
             << b2.describe();
    return failure();
  }
  // Triton's integer_promote_impl: of one signedness the wider wins; else
  // the unsigned side wins when it is at least as wide as the signed one.
  unsigned wa = ta.getIntOrFloatBitWidth(), wb = tb.getIntOrFloatBitWidth();
  bool ua = isUnsignedInt(ta), ub = isUnsignedInt(tb);
  if (ua == ub)
    return wa >= wb ? ta : tb;
  if (divOrMod) {
    error(l) << "cannot use //, % or / with " << ta << " and " << tb
             << " because they have different signedness; cast them to the "
                "same signedness";
    return failure();
  }
  if (ua)
    return wa >= wb ? ta : tb;
  return wb >= wa ? tb : ta;
}

FailureOr<SmallVector<Value>> CodeGen::operandsAs(ArrayRef<PyValue> xs,
                                                  Type type, SourceLoc l) {
  SmallVector<Value> vs;
  for (const PyValue &x : xs) {
    TRY(v, toValue(x, l, type));
    vs.push_back(v);
  }
  for (auto [v, x] : llvm::zip(vs, xs)) {
    TRY(c, castTo(v, type, l, /*bitcast=*/false,
                  x.isRuntime() ? elementTypeOf(x) : type));
    v = c;
  }
  for (size_t i = 0; i < vs.size(); ++i)
    for (size_t j = i + 1; j < vs.size(); ++j)
      if (failed(broadcastPair(vs[i], vs[j], l)))
        return failure();
  return vs;
}

FailureOr<PyValue> CodeGen::castValue(const PyValue &v, Type to, SourceLoc l,
                                      bool bitcast) {
  TRY(x, toValue(v, l));
  TRY(r, castTo(x, to, l, bitcast, elementTypeOf(v)));
  return PyValue::ofValue(r, to);
}

FailureOr<Value> CodeGen::castTo(Value v, Type to, SourceLoc l, bool bitcast,
                                 Type from) {
  Location lc = loc(l);
  if (!from)
    from = tile::getElementTypeOrSelf(v.getType());
  // Types that differ in signedness only are one IR type: nothing to do.
  if (toIRType(from) == toIRType(to))
    return v;
  Type dst = withElement(v.getType(), toIRType(to));
  // A bitcast with a pointer on either side is a plain cast, as in
  // Triton's semantic.bitcast.
  if (isa<tile::PtrType>(from) || isa<tile::PtrType>(to))
    bitcast = false;
  if (bitcast) {
    if (!from.isIntOrFloat() || !to.isIntOrFloat() ||
        from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth()) {
      error(l) << "expected types of one bit width to bitcast, found " << from
               << " and " << to;
      return failure();
    }
    return arith::BitcastOp::create(b, lc, dst, v).getResult();
  }
  bool fromUnsigned = from.isInteger(1) || isUnsignedInt(from);
  // Pointers, as Triton's semantic.cast: from and to int64 (the address),
  // to int1 (non-null), and between pointee types.
  if (isa<tile::PtrType>(from) || isa<tile::PtrType>(to)) {
    Type i64 = withElement(v.getType(), b.getI64Type());
    if (isa<tile::PtrType>(from) && isa<tile::PtrType>(to))
      return tile::IntToPtrOp::create(
                 b, lc, dst, tile::PtrToIntOp::create(b, lc, i64, v))
          .getResult();
    if (isa<tile::PtrType>(to)) {
      if (!from.isInteger(64)) {
        error(l) << "expected an int64 to cast to a pointer, found " << from;
        return failure();
      }
      return tile::IntToPtrOp::create(b, lc, dst, v).getResult();
    }
    Value addr = tile::PtrToIntOp::create(b, lc, i64, v);
    if (to.isInteger(64))
      return addr;
    if (to.isInteger(1)) {
      TypedAttr zeroAttr =
          isa<RankedTensorType>(i64)
              ? TypedAttr(DenseElementsAttr::get(
                    cast<ShapedType>(i64), b.getI64IntegerAttr(0).getValue()))
              : TypedAttr(b.getI64IntegerAttr(0));
      Value zero = arith::ConstantOp::create(b, lc, zeroAttr);
      return arith::CmpIOp::create(b, lc, arith::CmpIPredicate::ne, addr, zero)
          .getResult();
    }
    error(l) << "expected int64 or int1 to cast a pointer to, found " << to;
    return failure();
  }
  // fp8 converts to and from floats only: integers go through fp32.
  auto isFp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  // So does fp64 (the fp8 conversions take 16- and 32-bit floats).
  if ((isFp8(from) && (!isFloat(to) || to.isF64())) ||
      (isFp8(to) && (!isFloat(from) || from.isF64()))) {
    TRY(mid, castTo(v, b.getF32Type(), l, false, from));
    return castTo(mid, to, l);
  }
  if (to.isInteger(1)) {
    // Truth value: != 0.
    Type zeroT = from;
    Value zero;
    if (isFloat(zeroT)) {
      auto c = arith::ConstantOp::create(b, lc, b.getFloatAttr(zeroT, 0.0));
      TRY(z, broadcastTo(c, shapeOf(v), l));
      return arith::CmpFOp::create(b, lc, arith::CmpFPredicate::UNE, v, z)
          .getResult();
    }
    auto c = arith::ConstantOp::create(b, lc,
                                       b.getIntegerAttr(toIRType(zeroT), 0));
    TRY(z, broadcastTo(c, shapeOf(v), l));
    return arith::CmpIOp::create(b, lc, arith::CmpIPredicate::ne, v, z)
        .getResult();
  }
  if (isFloat(from) && isFloat(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, lc, dst, v).getResult();
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, lc, dst, v).getResult();
    // fp16 <-> bf16: through fp32.
    Value wide = arith::ExtFOp::create(b, lc, withElement(v.getType(), b.getF32Type()), v);
    return arith::TruncFOp::create(b, lc, dst, wide).getResult();
  }
  if (from.isInteger() && to.isInteger()) {
    unsigned wf = from.getIntOrFloatBitWidth(), wt = to.getIntOrFloatBitWidth();
    // Widening follows the source's signedness (Triton's int cast).
    if (wf < wt)
      return fromUnsigned ? arith::ExtUIOp::create(b, lc, dst, v).getResult()
                          : arith::ExtSIOp::create(b, lc, dst, v).getResult();
    return arith::TruncIOp::create(b, lc, dst, v).getResult();
  }
  if (from.isInteger() && isFloat(to))
    return fromUnsigned ? arith::UIToFPOp::create(b, lc, dst, v).getResult()
                        : arith::SIToFPOp::create(b, lc, dst, v).getResult();
  if (isFloat(from) && to.isInteger())
    return isUnsignedInt(to)
               ? arith::FPToUIOp::create(b, lc, dst, v).getResult()
               : arith::FPToSIOp::create(b, lc, dst, v).getResult();
  error(l) << "unimplemented: conversion from " << from << " to " << to;
  return failure();
}

FailureOr<Value> CodeGen::broadcastTo(Value v, ArrayRef<int64_t> shape,
                                      SourceLoc l) {
  Location lc = loc(l);
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t) {
    if (shape.empty())
      return v;
    return tile::SplatOp::create(b, lc, RankedTensorType::get(shape, v.getType()), v)
        .getResult();
  }
  if (t.getShape() == shape)
    return v;
  if (t.getRank() > int64_t(shape.size())) {
    error(l) << "cannot broadcast a tile of rank " << t.getRank()
             << " to rank " << shape.size();
    return failure();
  }
  // Leading dimensions of size 1, then stretch.
  while (t.getRank() < int64_t(shape.size())) {
    TRY(e, expandDims(v, 0, l));
    v = e;
    t = cast<RankedTensorType>(v.getType());
  }
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (t.getDimSize(d) != shape[d] && t.getDimSize(d) != 1) {
      error(l) << "cannot broadcast shape [" << t.getShape() << "] to ["
               << shape << "]: dimension " << d << " is " << t.getDimSize(d);
      return failure();
    }
  return tile::BroadcastOp::create(
             b, lc, RankedTensorType::get(shape, t.getElementType()), v)
      .getResult();
}

LogicalResult CodeGen::broadcastPair(Value &x, Value &y, SourceLoc l) {
  ArrayRef<int64_t> sa = shapeOf(x), sb = shapeOf(y);
  if (sa == sb)
    return success();
  size_t rank = std::max(sa.size(), sb.size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - sa.size() ? 1 : sa[i - (rank - sa.size())];
    int64_t db = i < rank - sb.size() ? 1 : sb[i - (rank - sb.size())];
    if (da != db && da != 1 && db != 1) {
      error(l) << "incompatible shapes for broadcasting: [" << sa << "] and ["
               << sb << "]";
      return failure();
    }
    shape[i] = std::max(da, db);
  }
  auto nx = broadcastTo(x, shape, l);
  if (failed(nx))
    return failure();
  auto ny = broadcastTo(y, shape, l);
  if (failed(ny))
    return failure();
  x = *nx;
  y = *ny;
  return success();
}

FailureOr<Value> CodeGen::expandDims(Value v, int64_t axis, SourceLoc l) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t) {
    error(l) << "expected a tile to expand, found " << v.getType();
    return failure();
  }
  if (axis < 0)
    axis += t.getRank() + 1;
  if (axis < 0 || axis > t.getRank()) {
    error(l) << "expected an axis in [" << -(t.getRank() + 1) << ", "
             << t.getRank() << "], found " << axis;
    return failure();
  }
  SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + axis, 1);
  return tile::ExpandDimsOp::create(
             b, loc(l), RankedTensorType::get(shape, t.getElementType()), v,
             b.getI32IntegerAttr(int32_t(axis)))
      .getResult();
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

namespace {
FailureOr<PyValue> foldBinary(CodeGen &g, BinOpKind op, const PyValue &a,
                              const PyValue &b, SourceLoc l) {
  using K = PyValue::Kind;
  // Compile-time tuples and strings stay under 2^20 elements / bytes (a
  // doubling loop would otherwise exhaust memory).
  constexpr size_t kMaxSequence = size_t(1) << 20;
  auto tooLong = [&](size_t n) {
    g.error(l) << "a compile-time " << (a.kind == K::Str ? "string" : "tuple")
               << " of " << n << (a.kind == K::Str ? " bytes" : " elements")
               << " is longer than the limit of " << kMaxSequence;
    return failure();
  };
  if (op == BinOpKind::Add && a.kind == K::Tuple && b.kind == K::Tuple) {
    if (a.elts.size() + b.elts.size() > kMaxSequence)
      return tooLong(a.elts.size() + b.elts.size());
    if (a.nodes + b.nodes > kMaxCompileTimeValues) {
      g.error(l) << "a compile-time tuple of " << a.nodes + b.nodes - 1
                 << " values (nested tuples' included) is larger than the limit of "
                 << kMaxCompileTimeValues;
      return failure();
    }
    std::vector<PyValue> e = a.elts;
    e.insert(e.end(), b.elts.begin(), b.elts.end());
    return PyValue::ofTuple(e);
  }
  if (op == BinOpKind::Add && a.kind == K::Str && b.kind == K::Str) {
    if (a.s.size() + b.s.size() > kMaxSequence)
      return tooLong(a.s.size() + b.s.size());
    return PyValue::ofStr(a.s + b.s);
  }
  // Repetition: 'ab' * 2, (x,) * n, n * (x,) (a count below 1 gives an
  // empty one, as in Python).
  if (op == BinOpKind::Mul &&
      (((a.kind == K::Str || a.kind == K::Tuple) &&
        (b.kind == K::Int || b.kind == K::Bool)) ||
       ((b.kind == K::Str || b.kind == K::Tuple) &&
        (a.kind == K::Int || a.kind == K::Bool)))) {
    bool seqFirst = a.kind == K::Str || a.kind == K::Tuple;
    const PyValue &seq = seqFirst ? a : b, &count = seqFirst ? b : a;
    uint64_t n = count.kind == K::Bool ? count.b : std::max<int64_t>(0, count.i);
    uint64_t len = seq.kind == K::Str ? seq.s.size() : seq.elts.size();
    if (len != 0 && n > kMaxSequence / len)
      return tooLong(len * std::min<uint64_t>(n, kMaxSequence + 1));
    if (seq.kind == K::Str) {
      std::string out;
      out.reserve(len * n);
      for (uint64_t k = 0; k < n; ++k)
        out += seq.s;
      return PyValue::ofStr(std::move(out));
    }
    if (len != 0 && (seq.nodes - 1) * n + 1 > kMaxCompileTimeValues) {
      g.error(l) << "a compile-time tuple repeated " << n
                 << " times is larger than the limit of "
                 << kMaxCompileTimeValues << " values";
      return failure();
    }
    std::vector<PyValue> e;
    e.reserve(len * n);
    for (uint64_t k = 0; k < n; ++k)
      e.insert(e.end(), seq.elts.begin(), seq.elts.end());
    return PyValue::ofTuple(std::move(e));
  }
  if (!a.isNumber() || !b.isNumber()) {
    g.error(l) << "unsupported operand types for " << getSpelling(op) << ": "
               << a.describe() << " and " << b.describe();
    return failure();
  }
  bool isF = a.kind == K::Float || b.kind == K::Float;
  auto asF = [](const PyValue &v) {
    return v.kind == K::Float ? v.f : v.kind == K::Int ? double(v.i) : double(v.b);
  };
  auto asI = [](const PyValue &v) { return v.kind == K::Int ? v.i : int64_t(v.b); };
  double fa = asF(a), fb = asF(b);
  int64_t ia = asI(a), ib = asI(b);
  auto divByZero = [&]() -> FailureOr<PyValue> {
    g.error(l) << "division by zero in a compile-time expression";
    return failure();
  };
  // Compile-time integers are 64-bit here (Python's are unbounded): an
  // overflow is an error rather than a wrapped value.
  auto overflow = [&]() -> FailureOr<PyValue> {
    g.error(l) << "integer overflow in a compile-time expression (tilec's "
                  "compile-time integers are 64-bit)";
    return failure();
  };
  int64_t r64;
  switch (op) {
  case BinOpKind::Add:
    if (isF)
      return PyValue::ofFloat(fa + fb);
    if (__builtin_add_overflow(ia, ib, &r64))
      return overflow();
    return PyValue::ofInt(r64);
  case BinOpKind::Sub:
    if (isF)
      return PyValue::ofFloat(fa - fb);
    if (__builtin_sub_overflow(ia, ib, &r64))
      return overflow();
    return PyValue::ofInt(r64);
  case BinOpKind::Mul:
    if (isF)
      return PyValue::ofFloat(fa * fb);
    if (__builtin_mul_overflow(ia, ib, &r64))
      return overflow();
    return PyValue::ofInt(r64);
  case BinOpKind::Div:
    if (fb == 0)
      return divByZero();
    return PyValue::ofFloat(fa / fb);
  case BinOpKind::FloorDiv:
    if (isF) {
      if (fb == 0)
        return divByZero();
      return PyValue::ofFloat(std::floor(fa / fb));
    }
    if (ib == 0)
      return divByZero();
    if (ia == INT64_MIN && ib == -1)
      return overflow();
    return PyValue::ofInt(floorDiv(ia, ib));
  case BinOpKind::Mod:
    if (isF) {
      if (fb == 0)
        return divByZero();
      double r = std::fmod(fa, fb);
      if (r != 0 && ((r < 0) != (fb < 0)))
        r += fb;
      return PyValue::ofFloat(r);
    }
    if (ib == 0)
      return divByZero();
    if (ib == -1)
      return PyValue::ofInt(0);
    return PyValue::ofInt(floorMod(ia, ib));
  case BinOpKind::Pow:
    if (!isF && ib >= 0) {
      // Square and multiply: O(log ib) (1 ** (2**63 - 1) is instant, as in
      // Python); any overflow is reported.
      int64_t r = 1, base = ia, e = ib;
      while (e > 0) {
        if ((e & 1) && __builtin_mul_overflow(r, base, &r))
          return overflow();
        e >>= 1;
        if (e > 0 && __builtin_mul_overflow(base, base, &base)) {
          // The base only matters while bits of e remain.
          return overflow();
        }
      }
      return PyValue::ofInt(r);
    }
    // Python's errors: 0 ** -1 and 0.0 ** -1.0 raise ZeroDivisionError, a
    // negative base to a fractional power is complex, and a finite result
    // too large for a double raises OverflowError.
    if (fa == 0 && fb < 0) {
      g.error(l) << "0.0 cannot be raised to a negative power in a "
                    "compile-time expression";
      return failure();
    }
    if (fa < 0 && std::isfinite(fb) && fb != std::floor(fb)) {
      g.error(l) << "unsupported: a negative number raised to a fractional "
                    "power is complex";
      return failure();
    }
    {
      double r = std::pow(fa, fb);
      if (std::isinf(r) && std::isfinite(fa) && std::isfinite(fb)) {
        g.error(l) << "floating-point overflow in a compile-time expression "
                      "(** gives a value past the largest double)";
        return failure();
      }
      return PyValue::ofFloat(r);
    }
  case BinOpKind::LShift:
  case BinOpKind::RShift:
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor: {
    if (isF) {
      g.error(l) << "unsupported operand types for " << getSpelling(op)
                 << ": float";
      return failure();
    }
    if ((op == BinOpKind::LShift || op == BinOpKind::RShift) && ib < 0) {
      g.error(l) << "negative shift count in a compile-time expression";
      return failure();
    }
    if (op == BinOpKind::LShift &&
        (ib >= 63 || (ia != 0 && (ia > (INT64_MAX >> ib) ||
                                  ia < (INT64_MIN >> ib)))))
      return overflow();
    if (op == BinOpKind::RShift && ib >= 64)
      ib = 63;
    int64_t r = op == BinOpKind::LShift   ? (ia << ib)
                : op == BinOpKind::RShift ? (ia >> ib)
                : op == BinOpKind::BitAnd ? (ia & ib)
                : op == BinOpKind::BitOr  ? (ia | ib)
                                          : (ia ^ ib);
    if (a.kind == K::Bool && b.kind == K::Bool)
      return PyValue::ofBool(r != 0);
    return PyValue::ofInt(r);
  }
  case BinOpKind::MatMul:
    break;
  }
  g.error(l) << "unsupported operator " << getSpelling(op)
             << " on compile-time values";
  return failure();
}
} // namespace

FailureOr<PyValue> CodeGen::binary(BinOpKind op, const PyValue &a,
                                   const PyValue &b2, SourceLoc l) {
  if (a.isConstexpr() && b2.isConstexpr())
    return foldBinary(*this, op, a, b2, l);
  Location lc = loc(l);
  if (!a.isNumber() && !a.isRuntime()) {
    error(l) << "unsupported operand " << a.describe() << " of "
             << getSpelling(op);
    return failure();
  }
  if (!b2.isNumber() && !b2.isRuntime()) {
    error(l) << "unsupported operand " << b2.describe() << " of "
             << getSpelling(op);
    return failure();
  }
  // Pointer arithmetic.
  Type ea = elementTypeOf(a), eb = elementTypeOf(b2);
  if (isa<tile::PtrType>(ea) || isa<tile::PtrType>(eb)) {
    bool aPtr = isa<tile::PtrType>(ea);
    const PyValue &p = aPtr ? a : b2, &o = aPtr ? b2 : a;
    if ((op != BinOpKind::Add && op != BinOpKind::Sub) ||
        isa<tile::PtrType>(elementTypeOf(o)) || (op == BinOpKind::Sub && !aPtr) ||
        !elementTypeOf(o).isInteger()) {
      error(l) << "unsupported pointer arithmetic: " << a.describe() << " "
               << getSpelling(op) << " " << b2.describe()
               << " (pointers take + or - of an integer)";
      return failure();
    }
    TRY(pv, toValue(p, l));
    TRY(ov, toValue(o, l));
    Value pp = pv, oo = ov;
    // addptr reads its offset as signed: an unsigned one narrower than 64
    // bits is zero-extended to i64 first (as Triton's add does).
    Type ot = elementTypeOf(o);
    if (isUnsignedInt(ot) && ot.getIntOrFloatBitWidth() < 64) {
      TRY(wide, castTo(oo, b.getI64Type(), l, false, ot));
      oo = wide;
    }
    if (failed(broadcastPair(pp, oo, l)))
      return failure();
    if (op == BinOpKind::Sub) {
      Type ot = oo.getType();
      Type et = tile::getElementTypeOrSelf(ot);
      auto zero = arith::ConstantOp::create(b, lc, b.getIntegerAttr(et, 0));
      TRY(z, broadcastTo(zero, shapeOf(oo), l));
      oo = arith::SubIOp::create(b, lc, z, oo);
    }
    return PyValue::ofValue(
        tile::AddPtrOp::create(b, lc, pp.getType(), pp, oo).getResult(),
        elementTypeOf(p));
  }

  // Triton's truediv passes div_or_mod too: fp16 / fp16 computes in fp32.
  bool divOrMod = op == BinOpKind::FloorDiv || op == BinOpKind::Mod ||
                  op == BinOpKind::Div;
  TRY(type, promote(a, b2, divOrMod, l));
  Type et = type;
  if (op == BinOpKind::Div && !isFloat(et))
    et = b.getF32Type(); // true division computes in floating point
  bool isBitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr ||
                   op == BinOpKind::BitXor || op == BinOpKind::LShift ||
                   op == BinOpKind::RShift;
  if (isBitwise && isFloat(et)) {
    error(l) << "unsupported operator " << getSpelling(op)
             << " on floating-point values";
    return failure();
  }
  if (op == BinOpKind::FloorDiv && isFloat(et)) {
    error(l) << "unimplemented: // on floating-point values";
    return failure();
  }
  if (op == BinOpKind::Pow || op == BinOpKind::MatMul) {
    error(l) << "unsupported operator " << getSpelling(op)
             << " on run-time values"
             << (op == BinOpKind::MatMul ? " (use tl.dot)" : "");
    return failure();
  }
  TRY(xy, operandsAs({a, b2}, et, l));
  Value xv = xy[0], yv = xy[1];
  Value r;
  bool f = isFloat(et);
  bool u = isUnsignedInt(et);
  switch (op) {
  case BinOpKind::Add:
    r = f ? Value(arith::AddFOp::create(b, lc, xv, yv))
          : Value(arith::AddIOp::create(b, lc, xv, yv));
    break;
  case BinOpKind::Sub:
    r = f ? Value(arith::SubFOp::create(b, lc, xv, yv))
          : Value(arith::SubIOp::create(b, lc, xv, yv));
    break;
  case BinOpKind::Mul:
    r = f ? Value(arith::MulFOp::create(b, lc, xv, yv))
          : Value(arith::MulIOp::create(b, lc, xv, yv));
    break;
  case BinOpKind::Div:
    // `/` may be approximate (Triton lowers it to div.full.f32); tl.div_rn
    // is the IEEE-rounded division.
    r = arith::DivFOp::create(b, lc, xv, yv, arith::FastMathFlags::afn);
    break;
  case BinOpKind::FloorDiv:
    r = u ? Value(arith::DivUIOp::create(b, lc, xv, yv))
          : Value(arith::DivSIOp::create(b, lc, xv, yv));
    break;
  case BinOpKind::Mod:
    r = f ? Value(arith::RemFOp::create(b, lc, xv, yv))
        : u ? Value(arith::RemUIOp::create(b, lc, xv, yv))
            : Value(arith::RemSIOp::create(b, lc, xv, yv));
    break;
  case BinOpKind::BitAnd:
    r = arith::AndIOp::create(b, lc, xv, yv);
    break;
  case BinOpKind::BitOr:
    r = arith::OrIOp::create(b, lc, xv, yv);
    break;
  case BinOpKind::BitXor:
    r = arith::XOrIOp::create(b, lc, xv, yv);
    break;
  case BinOpKind::LShift:
    r = arith::ShLIOp::create(b, lc, xv, yv);
    break;
  case BinOpKind::RShift:
    // Logical for unsigned values, arithmetic for signed ones.
    r = u ? Value(arith::ShRUIOp::create(b, lc, xv, yv))
          : Value(arith::ShRSIOp::create(b, lc, xv, yv));
    break;
  default:
    break;
  }
  return PyValue::ofValue(r, et);
}

FailureOr<PyValue> CodeGen::compare(CmpOpKind op, const PyValue &a,
                                    const PyValue &b2, SourceLoc l) {
  using K = PyValue::Kind;
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    if (!a.isConstexpr() || !b2.isConstexpr()) {
      // `x is None` for a run-time x is False.
      bool isNone = (a.kind == K::None) || (b2.kind == K::None);
      bool same = !isNone ? false : (a.kind == b2.kind);
      return PyValue::ofBool((op == CmpOpKind::Is) == same);
    }
    bool same = a.kind == b2.kind &&
                (a.kind == K::None || (a.kind == K::Bool && a.b == b2.b) ||
                 (a.kind == K::DType && a.dtype == b2.dtype));
    return PyValue::ofBool((op == CmpOpKind::Is) == same);
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    if (b2.kind == K::Str && a.kind == K::Str) // a substring
      return PyValue::ofBool((op == CmpOpKind::In) ==
                             StringRef(b2.s).contains(a.s));
    if (b2.kind != K::Tuple || !a.isConstexpr()) {
      error(l) << "unsupported operand of 'in': " << b2.describe();
      return failure();
    }
    bool found = false;
    for (const PyValue &e : b2.elts) {
      auto eq = compare(CmpOpKind::Eq, a, e, l);
      if (succeeded(eq) && eq->kind == K::Bool && eq->b)
        found = true;
    }
    return PyValue::ofBool((op == CmpOpKind::In) == found);
  }
  if (a.kind == K::Tuple && b2.kind == K::Tuple && a.isConstexpr() &&
      b2.isConstexpr()) {
    // Python's lexicographic order: the first unequal elements decide,
    // else the shorter tuple is less (version tuples, Version(...)).
    size_t n = std::min(a.elts.size(), b2.elts.size()), k = 0;
    for (; k < n; ++k) {
      TRY(eq, compare(CmpOpKind::Eq, a.elts[k], b2.elts[k], l));
      if (!(eq.kind == K::Bool && eq.b))
        break;
    }
    if (k < n) {
      if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq)
        return PyValue::ofBool(op == CmpOpKind::NotEq);
      return compare(op, a.elts[k], b2.elts[k], l);
    }
    size_t x = a.elts.size(), y = b2.elts.size();
    switch (op) {
    case CmpOpKind::Eq: return PyValue::ofBool(x == y);
    case CmpOpKind::NotEq: return PyValue::ofBool(x != y);
    case CmpOpKind::Lt: return PyValue::ofBool(x < y);
    case CmpOpKind::LtE: return PyValue::ofBool(x <= y);
    case CmpOpKind::Gt: return PyValue::ofBool(x > y);
    case CmpOpKind::GtE: return PyValue::ofBool(x >= y);
    default: break;
    }
  }
  if (a.isConstexpr() && b2.isConstexpr()) {
    if (a.kind == K::Str || b2.kind == K::Str || a.kind == K::DType ||
        b2.kind == K::DType || a.kind == K::None || b2.kind == K::None) {
      bool eq = a.kind == b2.kind &&
                ((a.kind == K::Str && a.s == b2.s) ||
                 (a.kind == K::DType && a.dtype == b2.dtype) || a.kind == K::None);
      // A dtype named on the command line (`-D DT=bf16`, a string) equals
      // that dtype, as it is that dtype where one is expected.
      if ((a.kind == K::Str && b2.kind == K::DType) ||
          (a.kind == K::DType && b2.kind == K::Str)) {
        const PyValue &str = a.kind == K::Str ? a : b2;
        const PyValue &dt = a.kind == K::Str ? b2 : a;
        Type named = dtypeByName(StringRef(str.s));
        eq = named && named == dt.dtype;
      }
      if (op == CmpOpKind::Eq)
        return PyValue::ofBool(eq);
      if (op == CmpOpKind::NotEq)
        return PyValue::ofBool(!eq);
      // Strings order lexicographically, as in Python (version checks
      // such as `triton.__version__ >= "3.0"`).
      if (a.kind == K::Str && b2.kind == K::Str) {
        int c = a.s.compare(b2.s);
        switch (op) {
        case CmpOpKind::Lt: return PyValue::ofBool(c < 0);
        case CmpOpKind::LtE: return PyValue::ofBool(c <= 0);
        case CmpOpKind::Gt: return PyValue::ofBool(c > 0);
        case CmpOpKind::GtE: return PyValue::ofBool(c >= 0);
        default: break;
        }
      }
      error(l) << "unsupported comparison of " << a.describe() << " and "
               << b2.describe();
      return failure();
    }
    if (!a.isNumber() || !b2.isNumber()) {
      error(l) << "unsupported comparison of " << a.describe() << " and "
               << b2.describe();
      return failure();
    }
    auto asF = [](const PyValue &v) {
      return v.kind == K::Float ? v.f : v.kind == K::Int ? double(v.i) : double(v.b);
    };
    bool isF = a.kind == K::Float || b2.kind == K::Float;
    auto ia = a.kind == K::Int ? a.i : int64_t(a.b);
    auto ib = b2.kind == K::Int ? b2.i : int64_t(b2.b);
    double fa = asF(a), fb = asF(b2);
    bool r = false;
    switch (op) {
    case CmpOpKind::Eq: r = isF ? fa == fb : ia == ib; break;
    case CmpOpKind::NotEq: r = isF ? fa != fb : ia != ib; break;
    case CmpOpKind::Lt: r = isF ? fa < fb : ia < ib; break;
    case CmpOpKind::LtE: r = isF ? fa <= fb : ia <= ib; break;
    case CmpOpKind::Gt: r = isF ? fa > fb : ia > ib; break;
    case CmpOpKind::GtE: r = isF ? fa >= fb : ia >= ib; break;
    default: break;
    }
    return PyValue::ofBool(r);
  }
  Location lc = loc(l);
  if (isa_and_nonnull<tile::PtrType>(elementTypeOf(a)) ||
      isa_and_nonnull<tile::PtrType>(elementTypeOf(b2))) {
    error(l) << "unimplemented: comparison of pointers";
    return failure();
  }
  TRY(type, promote(a, b2, false, l));
  TRY(xy, operandsAs({a, b2}, type, l));
  Value xv = xy[0], yv = xy[1];
  if (isFloat(type)) {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOpKind::Eq: p = arith::CmpFPredicate::OEQ; break;
    case CmpOpKind::NotEq: p = arith::CmpFPredicate::UNE; break;
    case CmpOpKind::Lt: p = arith::CmpFPredicate::OLT; break;
    case CmpOpKind::LtE: p = arith::CmpFPredicate::OLE; break;
    case CmpOpKind::Gt: p = arith::CmpFPredicate::OGT; break;
    default: p = arith::CmpFPredicate::OGE; break;
    }
    return PyValue::ofValue(arith::CmpFOp::create(b, lc, p, xv, yv));
  }
  arith::CmpIPredicate p;
  bool u = hasUnsignedOrder(type);
  using P = arith::CmpIPredicate;
  switch (op) {
  case CmpOpKind::Eq: p = P::eq; break;
  case CmpOpKind::NotEq: p = P::ne; break;
  case CmpOpKind::Lt: p = u ? P::ult : P::slt; break;
  case CmpOpKind::LtE: p = u ? P::ule : P::sle; break;
  case CmpOpKind::Gt: p = u ? P::ugt : P::sgt; break;
  default: p = u ? P::uge : P::sge; break;
  }
  return PyValue::ofValue(arith::CmpIOp::create(b, lc, p, xv, yv));
}

FailureOr<PyValue> CodeGen::unary(UnaryOpKind op, const PyValue &a,
                                  SourceLoc l) {
  using K = PyValue::Kind;
  if (a.isConstexpr()) {
    if (op == UnaryOpKind::Not) {
      TRY(t, truthiness(a, l));
      return PyValue::ofBool(!t);
    }
    if (!a.isNumber()) {
      error(l) << "unsupported operand " << a.describe() << " of "
               << getSpelling(op);
      return failure();
    }
    if (op == UnaryOpKind::Plus)
      return a;
    if (op == UnaryOpKind::Minus) {
      if (a.kind == K::Float)
        return PyValue::ofFloat(-a.f);
      int64_t v = a.kind == K::Int ? a.i : int64_t(a.b), r;
      if (__builtin_sub_overflow(int64_t(0), v, &r)) {
        error(l) << "integer overflow in a compile-time expression (tilec's "
                    "compile-time integers are 64-bit)";
        return failure();
      }
      return PyValue::ofInt(r);
    }
    if (a.kind == K::Float) {
      error(l) << "unsupported operand float of ~";
      return failure();
    }
    return PyValue::ofInt(~(a.kind == K::Int ? a.i : int64_t(a.b)));
  }
  if (!a.isRuntime()) {
    error(l) << "unsupported operand " << a.describe() << " of "
             << getSpelling(op);
    return failure();
  }
  Location lc = loc(l);
  Value v = a.v;
  Type et = tile::getElementTypeOrSelf(v.getType());
  switch (op) {
  case UnaryOpKind::Plus:
    return a;
  case UnaryOpKind::Minus:
    if (isFloat(et))
      return PyValue::ofValue(arith::NegFOp::create(b, lc, v));
    return binary(BinOpKind::Sub, PyValue::ofInt(0), a, l);
  case UnaryOpKind::Invert:
  case UnaryOpKind::Not: {
    if (!et.isInteger()) {
      error(l) << "unsupported operand " << v.getType() << " of "
               << getSpelling(op);
      return failure();
    }
    if (op == UnaryOpKind::Not && !et.isInteger(1)) {
      error(l) << "expected a boolean operand of 'not', found " << v.getType();
      return failure();
    }
    auto ones = arith::ConstantOp::create(b, lc, b.getIntegerAttr(et, -1));
    TRY(m, broadcastTo(ones, shapeOf(v), l));
    return PyValue::ofValue(arith::XOrIOp::create(b, lc, v, m),
                            elementTypeOf(a));
  }
  }
  return failure();
}

FailureOr<PyValue> CodeGen::select(const PyValue &cond, const PyValue &x,
                                   const PyValue &y, SourceLoc l) {
  TRY(c0, toValue(cond, l, b.getI1Type()));
  Value c = c0;
  if (!tile::getElementTypeOrSelf(c.getType()).isInteger(1)) {
    TRY(cb, castTo(c, b.getI1Type(), l));
    c = cb;
  }
  // Pointers select as they are (Triton's where takes two pointers of one
  // type); everything else promotes as arithmetic does.
  Type type;
  Type px = elementTypeOf(x), py = elementTypeOf(y);
  if (isa_and_nonnull<tile::PtrType>(px) || isa_and_nonnull<tile::PtrType>(py)) {
    if (px != py) {
      error(l) << "expected two pointers of one type for tl.where, found "
               << x.describe() << " and " << y.describe();
      return failure();
    }
    type = px;
  } else {
    TRY(t, promote(x, y, false, l));
    type = t;
  }
  TRY(xv0, toValue(x, l, type));
  TRY(yv0, toValue(y, l, type));
  TRY(xv, castTo(xv0, type, l, false, x.isRuntime() ? elementTypeOf(x) : type));
  TRY(yv, castTo(yv0, type, l, false, y.isRuntime() ? elementTypeOf(y) : type));
  Value a = xv, bb = yv;
  if (failed(broadcastPair(a, bb, l)))
    return failure();
  if (isa<RankedTensorType>(c.getType()) || isa<RankedTensorType>(a.getType())) {
    Value cc = c;
    if (failed(broadcastPair(cc, a, l)) || failed(broadcastPair(cc, bb, l)) ||
        failed(broadcastPair(a, bb, l)))
      return failure();
    c = cc;
  }
  return PyValue::ofValue(arith::SelectOp::create(b, loc(l), c, a, bb), type);
}

FailureOr<PyValue> CodeGen::subscript(const PyValue &v,
                                      const py::Subscript &sub) {
  SourceLoc l = sub.loc;
  if (v.kind == PyValue::Kind::Tuple) {
    if (sub.indices.size() != 1) {
      error(l) << "expected one index into a tuple";
      return failure();
    }
    TRY(idx, eval(*sub.indices[0]));
    if (idx.kind != PyValue::Kind::Int) {
      error(l) << "expected a compile-time integer index into a tuple, found "
               << idx.describe();
      return failure();
    }
    int64_t i = idx.i < 0 ? idx.i + int64_t(v.elts.size()) : idx.i;
    if (i < 0 || i >= int64_t(v.elts.size())) {
      error(l) << "tuple index " << idx.i << " out of range for "
               << v.elts.size() << " elements";
      return failure();
    }
    return v.elts[i];
  }
  if (v.kind == PyValue::Kind::Dict && sub.indices.size() == 1 &&
      !isa<py::Slice>(*sub.indices[0])) {
    // A dict host code made (its keys and values alternate in elts).
    TRY(key, eval(*sub.indices[0]));
    for (size_t k = 0; k + 1 < v.elts.size(); k += 2) {
      // Keys of other kinds are just unequal (no "unsupported comparison").
      ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
      auto eq = compare(CmpOpKind::Eq, key, v.elts[k], l);
      if (succeeded(eq) && eq->kind == PyValue::Kind::Bool && eq->b)
        return v.elts[k + 1];
    }
    error(l) << "KeyError: " << key.describe() << " is not a key of the dict";
    return failure();
  }
  if (v.kind == PyValue::Kind::Str && sub.indices.size() == 1 &&
      !isa<py::Slice>(*sub.indices[0])) {
    // A character (a code point), as Python indexes a string.
    TRY(idx, eval(*sub.indices[0]));
    std::vector<std::string_view> chars = py::splitCodePoints(v.s);
    if (idx.kind != PyValue::Kind::Int) {
      error(l) << "expected a compile-time integer index into a string, "
                  "found "
               << idx.describe();
      return failure();
    }
    int64_t i = idx.i < 0 ? idx.i + int64_t(chars.size()) : idx.i;
    if (i < 0 || i >= int64_t(chars.size())) {
      error(l) << "string index " << idx.i << " out of range for "
               << chars.size() << " characters";
      return failure();
    }
    return PyValue::ofStr(std::string(chars[i]));
  }
  if (v.isRuntime() && !isa<RankedTensorType>(v.v.getType()) &&
      llvm::all_of(sub.indices, [](const py::ExprPtr &e) {
        return llvm::isa<py::NoneLiteral>(e.get());
      })) {
    // A scalar's x[None] (x[None, None], ...): a tile of that many
    // dimensions of 1, as Triton's expand_dims of a scalar.
    SmallVector<int64_t> ones(sub.indices.size(), 1);
    TRY(t, broadcastTo(v.v, ones, l));
    return PyValue::ofValue(t, elementTypeOf(v));
  }
  if (!v.isRuntime() || !isa<RankedTensorType>(v.v.getType())) {
    error(l) << "unsupported subscript of " << v.describe();
    return failure();
  }
  Type dtype = elementTypeOf(v);
  // Tiles: `None` inserts a dimension, `:` keeps one.
  Value cur = v.v;
  int64_t dim = 0;
  for (const py::ExprPtr &e : sub.indices) {
    if (llvm::isa<py::NoneLiteral>(e.get())) {
      TRY(x, expandDims(cur, dim, e->loc));
      cur = x;
      ++dim;
      continue;
    }
    if (auto *s = llvm::dyn_cast<py::Slice>(e.get())) {
      if (s->lower || s->upper || s->step) {
        error(e->loc) << "unsupported subscript of a tile: only ':' and None "
                         "are allowed (slicing with bounds is not)";
        return failure();
      }
      ++dim;
      continue;
    }
    error(e->loc) << "unsupported subscript of a tile: only ':' and None are "
                     "allowed, found "
                  << py::toString(*e);
    return failure();
  }
  if (dim > cast<RankedTensorType>(cur.getType()).getRank()) {
    error(l) << "too many indices for a tile of rank "
             << cast<RankedTensorType>(v.v.getType()).getRank();
    return failure();
  }
  return PyValue::ofValue(cur, dtype);
}
