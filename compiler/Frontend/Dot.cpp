//===- Dot.cpp - tl.dot: argument checks and the result type ----*- C++ -*-===//
//
// `tl.dot(input, other, acc=None, input_precision=None, allow_tf32=None,
// max_num_imprecise_acc=None, out_dtype=tl.float32)` with Triton 3.6's
// rules on CUDA (triton/language/core.py `dot` and semantic.py
// `TritonSemantic.dot`, the NVIDIA backend's `min_dot_size` and options),
// emitted as one `tile.dot`:
//
// - operands: tiles of one rank >= 2 with equal batch dimensions and
//   input's last dimension equal to other's second to last; ranks above 3
//   are flattened to one batch dimension and the result reshaped back;
// - types: int8, float16, bfloat16, float32 or float64, the same on both
//   sides, or any two fp8 types; K >= 16 (>= 32 for 8-bit types);
// - result type: int32 for int8, float32 for float32 and bfloat16, float64
//   for float64, `out_dtype` (float16 or float32) for float16 and fp8;
//   out_dtype=bfloat16 is an error; an accumulator must have the result's
//   shape and out_dtype as its type;
// - precision: `input_precision` ("tf32" by default, as Triton's default on
//   CUDA; allow_tf32=False gives "ieee"; the two may not both be given);
//   "bf16x3" and "bf16x6", which Triton 3.6 accepts on CUDA, are
//   unimplemented (tile.dot takes "tf32", "tf32x3" and "ieee");
// - max_num_imprecise_acc: for two fp8 operands at most K, default 2^30 on
//   sm_90 and 0 elsewhere (the CUDA options' default).
//
// Every refusal is located at the call; uint8 operands are refused, as
// Triton refuses them (tl.int8 is the integer type tl.dot takes).
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

namespace {
bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// Triton's name of an element type, for messages: tl.float16, tl.int32.
std::string tlName(Type t) {
  if (t.isInteger(1))
    return "tl.int1";
  if (auto i = dyn_cast<IntegerType>(t))
    return (i.isUnsigned() ? "tl.uint" : "tl.int") + std::to_string(i.getWidth());
  if (t.isF16())
    return "tl.float16";
  if (t.isBF16())
    return "tl.bfloat16";
  if (t.isF32())
    return "tl.float32";
  if (t.isF64())
    return "tl.float64";
  if (isa<Float8E5M2Type>(t))
    return "tl.float8e5";
  if (isa<Float8E4M3FNType>(t))
    return "tl.float8e4nv";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}
} // namespace

FailureOr<PyValue> CodeGen::callDot(CallArgs &args, SourceLoc l) {
  using K = PyValue::Kind;
  Location lc = loc(l);
  TRY(s, bindArgs(*this, args,
                  {"input", "other", "acc", "input_precision", "allow_tf32",
                   "max_num_imprecise_acc", "out_dtype"},
                  2, "dot", l));

  // How fp32 products are formed.
  if (present(s[3]) && present(s[4])) {
    error(l) << "tl.dot takes input_precision or allow_tf32, not both "
                "(allow_tf32 is deprecated: use input_precision)";
    return failure();
  }
  std::string precision = "tf32";
  if (present(s[3])) {
    if (s[3]->kind != K::Str) {
      error(l) << "expected a string for input_precision of tl.dot, found "
               << s[3]->describe();
      return failure();
    }
    precision = llvm::StringRef(s[3]->s).lower();
    if (precision == "bf16x3" || precision == "bf16x6") {
      error(l) << "unimplemented: input_precision '" << s[3]->s
               << "' of tl.dot (tilec has 'tf32', 'tf32x3' and 'ieee')";
      return failure();
    }
    if (precision != "tf32" && precision != "tf32x3" && precision != "ieee") {
      error(l) << "expected input_precision 'tf32', 'tf32x3', 'ieee', "
                  "'bf16x3' or 'bf16x6' for tl.dot, found '"
               << s[3]->s << "'";
      return failure();
    }
  } else if (present(s[4])) {
    if (!s[4]->isConstexpr()) {
      error(l) << "expected a compile-time bool for allow_tf32 of tl.dot, "
                  "found "
               << s[4]->describe();
      return failure();
    }
    TRY(allow, truthiness(*s[4], l));
    precision = allow ? "tf32" : "ieee";
  }

  Type outDtype = b.getF32Type();
  if (present(s[6])) {
    if (s[6]->kind != K::DType) {
      error(l) << "expected a dtype for out_dtype of tl.dot, found "
               << s[6]->describe();
      return failure();
    }
    outDtype = s[6]->dtype;
  }

  // Operands: tiles of one rank >= 2, batch dimensions equal, inner
  // dimensions matching.
  RankedTensorType ta, tb;
  for (int i = 0; i < 2; ++i) {
    auto t = s[i]->isRuntime() ? dyn_cast<RankedTensorType>(s[i]->v.getType())
                               : RankedTensorType();
    if (!t) {
      error(l) << "expected a tile for " << (i ? "other" : "input")
               << " of tl.dot, found " << s[i]->describe();
      return failure();
    }
    (i ? tb : ta) = t;
  }
  ArrayRef<int64_t> as = ta.getShape(), bs = tb.getShape();
  int64_t rank = ta.getRank();
  if (rank < 2 || tb.getRank() != rank) {
    error(l) << "expected tiles of one rank, 2 or more, for tl.dot, found "
             << ta << " and " << tb;
    return failure();
  }
  if (as.drop_back(2) != bs.drop_back(2)) {
    error(l) << "expected equal batch dimensions for tl.dot, found " << ta
             << " and " << tb;
    return failure();
  }
  int64_t m = as[rank - 2], kDim = as[rank - 1], n = bs[rank - 1];
  if (bs[rank - 2] != kDim) {
    error(l) << "expected the rows of other to equal the columns of input ("
             << kDim << ") for tl.dot, found " << ta << " and " << tb;
    return failure();
  }

  // Element types.
  Type ea = elementTypeOf(*s[0]), eb = elementTypeOf(*s[1]);
  bool fp8 = isFp8(ea) && isFp8(eb);
  if (!fp8) {
    for (Type e : {ea, eb})
      if (!e.isSignlessInteger(8) && !e.isF16() && !e.isBF16() && !e.isF32() &&
          !e.isF64()) {
        error(l) << "unsupported operand type " << tlName(e)
                 << " for tl.dot: expected tl.int8, tl.float16, tl.bfloat16, "
                    "tl.float32 or tl.float64 on both sides, or two fp8 types";
        return failure();
      }
    if (ea != eb) {
      error(l) << "expected operands of one type for tl.dot (or two fp8 "
                  "types), found "
               << tlName(ea) << " and " << tlName(eb);
      return failure();
    }
  }
  // The NVIDIA backend's minimum: K >= 16, or 32 for 8-bit types; M and N
  // may be anything.
  int64_t minK = ea.getIntOrFloatBitWidth() == 8 ? 32 : 16;
  if (kDim < minK) {
    error(l) << "expected K >= " << minK << " for tl.dot of " << tlName(ea)
             << " tiles (the columns of input), found " << ta << " and " << tb;
    return failure();
  }

  // The result type.
  Type resultType;
  if (ea.isInteger(8)) {
    resultType = b.getI32Type();
  } else if (outDtype.isBF16()) {
    error(l) << "out_dtype=tl.bfloat16 is not supported by tl.dot: use "
                "tl.float32 (or tl.float16) and convert the result with "
                ".to(tl.bfloat16)";
    return failure();
  } else if (ea.isF32() || ea.isBF16()) {
    resultType = b.getF32Type();
  } else if (ea.isF64()) {
    resultType = b.getF64Type();
  } else {
    if (!outDtype.isF16() && !outDtype.isF32()) {
      error(l) << "expected out_dtype tl.float32 or tl.float16 for tl.dot of "
               << tlName(ea) << " tiles, found " << tlName(outDtype);
      return failure();
    }
    resultType = outDtype;
  }
  SmallVector<int64_t> shape(as.drop_back(1));
  shape.push_back(n);
  auto accType = RankedTensorType::get(shape, resultType);

  Value acc;
  if (present(s[2])) {
    auto t = s[2]->isRuntime() ? dyn_cast<RankedTensorType>(s[2]->v.getType())
                               : RankedTensorType();
    if (!t) {
      error(l) << "expected a tile or None for acc of tl.dot, found "
               << s[2]->describe();
      return failure();
    }
    if (t.getShape() != ArrayRef<int64_t>(shape)) {
      error(l) << "expected an accumulator of shape " << shapeStr(shape)
               << " for tl.dot, found " << t;
      return failure();
    }
    if (t.getElementType() != outDtype) {
      error(l) << "expected an accumulator of out_dtype " << tlName(outDtype)
               << " for tl.dot, found " << tlName(t.getElementType())
               << " (pass out_dtype=" << tlName(t.getElementType()) << ")";
      return failure();
    }
    if (t.getElementType() != resultType) {
      error(l) << "tl.dot of " << tlName(ea) << " tiles accumulates in "
               << tlName(resultType) << ", found an accumulator and out_dtype "
               << tlName(t.getElementType());
      return failure();
    }
    acc = s[2]->v;
  }

  // Ranks above 3: one batch dimension, as Triton flattens them.
  int64_t batch = 1;
  for (int64_t d : as.drop_back(2))
    batch *= d;
  auto batched = [&](int64_t r, int64_t c, Type et) {
    return rank > 3 ? RankedTensorType::get({batch, r, c}, et)
                    : RankedTensorType::get(
                          llvm::to_vector(llvm::concat<const int64_t>(
                              as.drop_back(2), ArrayRef<int64_t>{r, c})),
                          et);
  };
  auto flat = [&](Value v, int64_t r, int64_t c) -> Value {
    if (rank <= 3)
      return v;
    auto et = cast<RankedTensorType>(v.getType()).getElementType();
    return tile::ReshapeOp::create(b, lc, batched(r, c, et), v);
  };
  if (acc) {
    acc = flat(acc, m, n);
  } else {
    Attribute zero = isa<FloatType>(resultType)
                         ? Attribute(b.getFloatAttr(resultType, 0.0))
                         : Attribute(b.getIntegerAttr(resultType, 0));
    acc = arith::ConstantOp::create(
        b, lc, DenseElementsAttr::get(batched(m, n, resultType), zero));
  }

  // fp8 products accumulated at reduced precision before promotion.
  IntegerAttr imprecise;
  if (present(s[5])) {
    if (s[5]->kind != K::Int) {
      error(l) << "expected a compile-time int for max_num_imprecise_acc of "
                  "tl.dot, found "
               << s[5]->describe();
      return failure();
    }
    int64_t v = s[5]->i;
    if (v < 0 || v > std::numeric_limits<int32_t>::max()) {
      error(l) << "expected max_num_imprecise_acc in [0, 2^31) for tl.dot, "
                  "found "
               << v;
      return failure();
    }
    if (fp8 && v > kDim) {
      error(l) << "expected max_num_imprecise_acc <= K (" << kDim
               << ") for tl.dot of fp8 tiles, found " << v;
      return failure();
    }
    imprecise = b.getI32IntegerAttr(int32_t(v));
  } else if (fp8) {
    bool sm90 = llvm::StringRef(options.arch).starts_with("sm_90");
    imprecise = b.getI32IntegerAttr(sm90 ? int32_t(1) << 30 : 0);
  }

  Value a = flat(s[0]->v, m, kDim);
  Value bv = flat(s[1]->v, kDim, n);
  auto dot = tile::DotOp::create(b, lc, acc.getType(), a, bv, acc,
                                 b.getStringAttr(precision), imprecise);
  Value result = dot.getResult();
  if (rank > 3)
    result = tile::ReshapeOp::create(b, lc, accType, result);
  return PyValue::ofValue(result);
}
