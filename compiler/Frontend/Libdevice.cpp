//===- Libdevice.cpp - triton.language.extra.libdevice ----------*- C++ -*-===//
//
// The floating-point functions of Triton's CUDA libdevice module
// (`from triton.language.extra import libdevice`, or
// `tl.extra.cuda.libdevice`): each becomes the math/arith dialect op whose
// upstream lowering (math-to-NVVM) calls the same `__nv_*` function of the
// CUDA toolkit's libdevice, which the PTX backend links. As in Triton, the
// operands (tiles or scalars, broadcast together) must be fp32 or fp64
// (`__nv_<name>f` / `__nv_<name>`); other types are refused with the types
// found. Functions outside the table are `unimplemented:` errors.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

namespace {
using Build = Value (*)(OpBuilder &, Location, ArrayRef<Value>);

struct Function {
  unsigned arity;
  Build build;
};

template <typename Op> Value unaryOp(OpBuilder &b, Location l, ArrayRef<Value> v) {
  return Op::create(b, l, v[0]);
}
template <typename Op> Value binaryOp(OpBuilder &b, Location l, ArrayRef<Value> v) {
  return Op::create(b, l, v[0], v[1]);
}

/// libdevice name (without `__nv_` and the fp32 `f` suffix) -> op.
const llvm::StringMap<Function> &functions() {
  static const llvm::StringMap<Function> table = {
      {"abs", {1, unaryOp<math::AbsFOp>}},
      {"fabs", {1, unaryOp<math::AbsFOp>}},
      {"acos", {1, unaryOp<math::AcosOp>}},
      {"acosh", {1, unaryOp<math::AcoshOp>}},
      {"asin", {1, unaryOp<math::AsinOp>}},
      {"asinh", {1, unaryOp<math::AsinhOp>}},
      {"atan", {1, unaryOp<math::AtanOp>}},
      {"atanh", {1, unaryOp<math::AtanhOp>}},
      {"cbrt", {1, unaryOp<math::CbrtOp>}},
      {"ceil", {1, unaryOp<math::CeilOp>}},
      {"cos", {1, unaryOp<math::CosOp>}},
      {"cosh", {1, unaryOp<math::CoshOp>}},
      {"erf", {1, unaryOp<math::ErfOp>}},
      {"erfc", {1, unaryOp<math::ErfcOp>}},
      {"exp", {1, unaryOp<math::ExpOp>}},
      {"exp2", {1, unaryOp<math::Exp2Op>}},
      {"expm1", {1, unaryOp<math::ExpM1Op>}},
      {"floor", {1, unaryOp<math::FloorOp>}},
      {"log", {1, unaryOp<math::LogOp>}},
      {"log10", {1, unaryOp<math::Log10Op>}},
      {"log1p", {1, unaryOp<math::Log1pOp>}},
      {"log2", {1, unaryOp<math::Log2Op>}},
      {"rint", {1, unaryOp<math::RoundEvenOp>}},
      {"nearbyint", {1, unaryOp<math::RoundEvenOp>}},
      {"round", {1, unaryOp<math::RoundOp>}},
      {"rsqrt", {1, unaryOp<math::RsqrtOp>}},
      {"sin", {1, unaryOp<math::SinOp>}},
      {"sinh", {1, unaryOp<math::SinhOp>}},
      {"sqrt", {1, unaryOp<math::SqrtOp>}},
      {"tan", {1, unaryOp<math::TanOp>}},
      {"tanh", {1, unaryOp<math::TanhOp>}},
      {"atan2", {2, binaryOp<math::Atan2Op>}},
      {"copysign", {2, binaryOp<math::CopySignOp>}},
      {"fmax", {2, binaryOp<arith::MaxNumFOp>}},
      {"fmin", {2, binaryOp<arith::MinNumFOp>}},
      {"fmod", {2, binaryOp<arith::RemFOp>}},
      {"pow", {2, binaryOp<math::PowFOp>}},
      {"fma", {3, [](OpBuilder &b, Location l, ArrayRef<Value> v) -> Value {
                 return math::FmaOp::create(b, l, v[0], v[1], v[2]);
               }}},
  };
  return table;
}
} // namespace

FailureOr<PyValue> CodeGen::callLibdevice(const std::string &name,
                                          CallArgs &args, SourceLoc l) {
  auto it = functions().find(name);
  if (it == functions().end()) {
    error(l) << "unimplemented: libdevice." << name
             << " is not supported by tilec";
    return failure();
  }
  const Function &fn = it->second;
  if (!args.kwargs.empty() || args.args.size() != fn.arity) {
    error(l) << "libdevice." << name << " takes " << fn.arity
             << " positional argument" << (fn.arity == 1 ? "" : "s")
             << ", found " << args.args.size()
             << (args.kwargs.empty() ? "" : " and keyword arguments");
    return failure();
  }
  // The operands' common type: Triton's promotion of each pair, the widest.
  Type type = elementTypeOf(args.args[0]);
  for (unsigned i = 0; i < fn.arity; ++i)
    for (unsigned j = i + 1; j < fn.arity; ++j) {
      FailureOr<Type> t = promote(args.args[i], args.args[j], false, l);
      if (failed(t))
        return failure();
      if (i == 0 && j == 1)
        type = *t;
      else if (t->isF64() || (type.isF32() && !t->isF32()))
        type = *t;
    }
  if (!type) {
    error(l) << "expected a number or a tile as the argument of libdevice."
             << name << ", found " << args.args[0].describe();
    return failure();
  }
  if (!type.isF32() && !type.isF64()) {
    error(l) << "libdevice." << name
             << " expects fp32 or fp64 operands (as Triton's libdevice: "
                "__nv_"
             << name << "f / __nv_" << name << "), found " << type
             << "; convert with .to(tl.float32)";
    return failure();
  }
  SmallVector<Value> vs;
  for (const PyValue &a : args.args) {
    FailureOr<Value> v0 = toValue(a, l, type);
    if (failed(v0))
      return failure();
    FailureOr<Value> v = castTo(*v0, type, l);
    if (failed(v))
      return failure();
    vs.push_back(*v);
  }
  for (unsigned i = 0; i < vs.size(); ++i)
    for (unsigned j = i + 1; j < vs.size(); ++j)
      if (failed(broadcastPair(vs[i], vs[j], l)))
        return failure();
  return PyValue::ofValue(fn.build(b, loc(l), vs));
}
