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

#include <algorithm>
#include <cmath>

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
/// libdevice's `__nv_fast_<name>f` (fp32 only): the math op with the `afn`
/// fast-math flag, which upstream's math-to-NVVM lowers to that very call.
template <typename Op> Value fastOp(OpBuilder &b, Location l, ArrayRef<Value> v) {
  NamedAttribute fastmath(
      b.getStringAttr("fastmath"),
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::afn));
  return Op::create(b, l, TypeRange{v[0].getType()}, ValueRange(v),
                    ArrayRef<NamedAttribute>{fastmath});
}
/// `__nv_fast_tanhf` is PTX's tanh.approx.f32 (sm_75 and newer), which no
/// math op lowers to: the same instruction as element-wise inline asm.
Value fastTanh(OpBuilder &b, Location l, ArrayRef<Value> v) {
  return tile::ElementwiseInlineAsmOp::create(
             b, l, TypeRange{v[0].getType()}, "tanh.approx.f32 $0, $1;",
             "=r,r", /*pure=*/true, /*packed_element=*/1u, v)
      .getResult(0);
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
      // Triton's fast_* (fp32 only, spelled with their `f`).
      {"fast_expf", {1, fastOp<math::ExpOp>}},
      {"fast_logf", {1, fastOp<math::LogOp>}},
      {"fast_log2f", {1, fastOp<math::Log2Op>}},
      {"fast_log10f", {1, fastOp<math::Log10Op>}},
      {"fast_sinf", {1, fastOp<math::SinOp>}},
      {"fast_cosf", {1, fastOp<math::CosOp>}},
      {"fast_tanf", {1, fastOp<math::TanOp>}},
      {"fast_powf", {2, fastOp<math::PowFOp>}},
      {"fast_tanhf", {1, fastTanh}},
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
/// The functions Triton's CUDA libdevice module defines (its
/// `python/triton/language/extra/cuda/libdevice.py`, read at commit
/// 8efcf2df7 of triton-lang/triton; the same 197 names as an installed
/// Triton 3.6.0, checked 2026-12-06), sorted: an import of another name
/// raises ImportError in Python.
constexpr llvm::StringLiteral kTritonLibdevice[] = {
      "abs", "acos", "acosh", "add_rd", "add_rn", "add_ru", "add_rz", "asin",
      "asinh", "atan", "atan2", "atanh", "brev", "byte_perm", "cbrt", "ceil",
      "clz", "copysign", "cos", "cosh", "cospi", "cyl_bessel_i0",
      "cyl_bessel_i1", "div_rd", "div_rn", "div_ru", "div_rz",
      "double2float_rd", "double2float_rn", "double2float_ru",
      "double2float_rz", "double2hiint", "double2int_rd", "double2int_rn",
      "double2int_ru", "double2int_rz", "double2ll_rd", "double2ll_rn",
      "double2ll_ru", "double2ll_rz", "double2loint", "double2uint_rd",
      "double2uint_rn", "double2uint_ru", "double2uint_rz", "double2ull_rd",
      "double2ull_rn", "double2ull_ru", "double2ull_rz", "double_as_longlong",
      "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2",
      "expm1", "fast_cosf", "fast_dividef", "fast_exp10f", "fast_expf",
      "fast_log10f", "fast_log2f", "fast_logf", "fast_powf", "fast_sinf",
      "fast_tanf", "fdim", "ffs", "finitef", "float2int_rd", "float2int_rn",
      "float2int_ru", "float2int_rz", "float2ll_rd", "float2ll_rn",
      "float2ll_ru", "float2ll_rz", "float2uint_rd", "float2uint_rn",
      "float2uint_ru", "float2uint_rz", "float2ull_rd", "float2ull_rn",
      "float2ull_ru", "float2ull_rz", "float_as_int", "float_as_uint", "floor",
      "fma", "fma_rd", "fma_rn", "fma_ru", "fma_rz", "fmod", "hadd",
      "hiloint2double", "hypot", "ilogb", "int2double_rn", "int2float_rd",
      "int2float_rn", "int2float_ru", "int2float_rz", "int_as_float",
      "isfinited", "isinf", "isnan", "j0", "j1", "jn", "ldexp", "lgamma",
      "ll2double_rd", "ll2double_rn", "ll2double_ru", "ll2double_rz",
      "ll2float_rd", "ll2float_rn", "ll2float_ru", "ll2float_rz", "llrint",
      "llround", "log", "log10", "log1p", "log2", "logb", "longlong_as_double",
      "mul24", "mul_rd", "mul_rn", "mul_ru", "mul_rz", "mulhi", "nearbyint",
      "nextafter", "norm3d", "norm4d", "normcdf", "normcdfinv", "popc", "pow",
      "rcbrt", "rcp64h", "rcp_rd", "rcp_rn", "rcp_ru", "rcp_rz", "remainder",
      "rhadd", "rhypot", "rint", "rnorm3d", "rnorm4d", "round", "rsqrt",
      "rsqrt_rn", "sad", "saturatef", "scalbn", "signbit", "sin", "sinh",
      "sinpi", "sqrt", "sqrt_rd", "sqrt_rn", "sqrt_ru", "sqrt_rz", "sub_rd",
      "sub_rn", "sub_ru", "sub_rz", "tan", "tanh", "tgamma", "trunc",
      "uint2double_rn", "uint2float_rd", "uint2float_rn", "uint2float_ru",
      "uint2float_rz", "uint_as_float", "ull2double_rd", "ull2double_rn",
      "ull2double_ru", "ull2double_rz", "ull2float_rd", "ull2float_rn",
      "ull2float_ru", "ull2float_rz", "y0", "y1", "yn",
};
/// The operands' common element type, as Triton's dispatch promotes them:
/// a running binary-op promotion (Python numbers are weak: `fma(x, 2, 3)`
/// with fp32 `x` is fp32). fp16 with bf16 gives fp32, which no operand has;
/// after that only an fp64 tile or scalar widens it.
FailureOr<Type> commonOperandType(CodeGen &g, ArrayRef<PyValue> ops,
                                  StringRef what, SourceLoc l) {
  const PyValue *acc = &ops[0];
  Type type = g.elementTypeOf(ops[0]);
  if (!type) {
    g.error(l) << "expected a number or a tile as the argument of " << what
               << ", found " << ops[0].describe();
    return failure();
  }
  for (size_t i = 1; i < ops.size(); ++i) {
    Type next = g.elementTypeOf(ops[i]);
    if (!next) {
      g.error(l) << "expected a number or a tile as the argument of " << what
                 << ", found " << ops[i].describe();
      return failure();
    }
    if (!acc) { // the synthetic fp32 of fp16 with bf16
      if (!ops[i].isNumber() && next.isF64()) {
        acc = &ops[i];
        type = next;
      }
      continue;
    }
    FailureOr<Type> t = g.promote(*acc, ops[i], false, l);
    if (failed(t))
      return failure();
    if (*t == type)
      continue;
    type = *t;
    acc = *t == next ? &ops[i] : nullptr;
  }
  return type;
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
  // Triton's libdevice functions take arg0, arg1, ... (and _semantic).
  std::vector<std::optional<PyValue>> slots(fn.arity);
  if (args.args.size() > fn.arity) {
    error(l) << "libdevice." << name << " takes " << fn.arity
             << " argument" << (fn.arity == 1 ? "" : "s") << ", found "
             << args.args.size();
    return failure();
  }
  for (size_t i = 0; i < args.args.size(); ++i)
    slots[i] = args.args[i];
  for (auto &[k, v] : args.kwargs) {
    if (k == "_semantic" || k == "_builder")
      continue;
    unsigned idx = fn.arity;
    if (k.size() == 4 && k.rfind("arg", 0) == 0 && k[3] >= '0' && k[3] <= '9')
      idx = unsigned(k[3] - '0');
    if (idx >= fn.arity) {
      error(l) << "libdevice." << name << " got an unexpected keyword argument '"
               << k << "' (it takes arg0" << (fn.arity > 1 ? "..arg" : "")
               << (fn.arity > 1 ? std::to_string(fn.arity - 1) : "") << ")";
      return failure();
    }
    if (slots[idx]) {
      error(l) << "libdevice." << name << " got argument '" << k << "' twice";
      return failure();
    }
    slots[idx] = v;
  }
  CallArgs bound;
  for (unsigned i = 0; i < fn.arity; ++i) {
    if (!slots[i]) {
      error(l) << "libdevice." << name << " takes " << fn.arity
               << " argument" << (fn.arity == 1 ? "" : "s")
               << ", missing arg" << i;
      return failure();
    }
    bound.args.push_back(*slots[i]);
  }
  args = std::move(bound);
  TRY(type, commonOperandType(*this, args.args, "libdevice." + name, l));
  if (StringRef(name).starts_with("fast_") && !type.isF32()) {
    error(l) << "libdevice." << name
             << " expects fp32 operands (as Triton's libdevice: __nv_" << name
             << "), found " << type << "; convert with .to(tl.float32)";
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
  // Upstream's math.atan2 folder gives NaN for two zeros (IEEE / libdevice:
  // atan2(+0, -0) = pi, atan2(+0, +0) = +0): fold compile-time operands here.
  if (name == "atan2" && args.args[0].isNumber() && args.args[1].isNumber()) {
    auto num = [](const PyValue &v) {
      return v.kind == PyValue::Kind::Float ? v.f : double(v.kind == PyValue::Kind::Int ? v.i : v.b);
    };
    double y = num(args.args[0]), x = num(args.args[1]);
    double r = type.isF32() ? double(std::atan2(float(y), float(x)))
                            : std::atan2(y, x);
    return PyValue::ofValue(
        arith::ConstantOp::create(b, loc(l), b.getFloatAttr(type, r)));
  }
  TRY(vs, operandsAs(args.args, type, l));
  return PyValue::ofValue(fn.build(b, loc(l), vs));
}

/// `tl.extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict,
/// is_pure)`: Triton picks the entry of `arg_type_symbol_dict` whose key
/// (a tuple of dtypes) equals the operands' dtypes after broadcasting, and
/// calls its symbol. tilec implements the libdevice symbols of the table
/// above (`__nv_<name>f` on fp32, `__nv_<name>` on fp64) with the result
/// type the operands' own; any other symbol is a located `unimplemented:`.
FailureOr<PyValue> CodeGen::callExternElementwise(CallArgs &args,
                                                  SourceLoc l) {
  CallArgs plain = args; // Triton's internal plumbing in @core.extern wrappers
  llvm::erase_if(plain.kwargs, [](const auto &kv) {
    return kv.first == "_semantic" || kv.first == "_builder";
  });
  TRY(slot,
      bindArgs(*this, plain,
               {"lib_name", "lib_path", "args", "arg_type_symbol_dict",
                "is_pure"},
               4, "extern_elementwise", l));
  if (slot[2]->kind != PyValue::Kind::Tuple || slot[2]->elts.empty()) {
    error(l) << "expected a list of operands as extern_elementwise's args, "
                "found "
             << slot[2]->describe();
    return failure();
  }
  if (slot[3]->kind != PyValue::Kind::Dict) {
    error(l) << "expected a dict {(dtype, ...): (symbol, dtype)} as "
                "arg_type_symbol_dict, found "
             << slot[3]->describe();
    return failure();
  }
  // The operands' dtypes as Triton's dispatch sees them: several operands
  // are promoted to a common type first, as a binary op would.
  std::vector<PyValue> &ops = slot[2]->elts;
  TRY(common, commonOperandType(*this, ops, "extern_elementwise", l));
  SmallVector<Type> types(ops.size(), common);
  const std::vector<PyValue> &entries = slot[3]->elts;
  std::string symbol;
  Type result;
  std::string keysSeen;
  for (size_t e = 0; e + 1 < entries.size(); e += 2) {
    const PyValue &key = entries[e], &value = entries[e + 1];
    if (key.kind != PyValue::Kind::Tuple) {
      error(l) << "expected tuples of dtypes as the keys of "
                  "arg_type_symbol_dict (e.g. (tl.float32,)), found "
               << key.describe();
      return failure();
    }
    const std::vector<PyValue> &keyTypes = key.elts;
    std::string desc;
    bool match = keyTypes.size() == types.size();
    for (size_t i = 0; i < keyTypes.size(); ++i) {
      if (keyTypes[i].kind != PyValue::Kind::DType) {
        error(l) << "expected dtypes in the keys of arg_type_symbol_dict, "
                    "found "
                 << keyTypes[i].describe();
        return failure();
      }
      std::string t;
      llvm::raw_string_ostream os(t);
      os << keyTypes[i].dtype;
      desc += (i ? ", " : "") + t;
      match = match && keyTypes[i].dtype == types[i];
    }
    keysSeen += (keysSeen.empty() ? "(" : ", (") + desc + ")";
    if (!match)
      continue; // a later equal key replaces an earlier one, as in Python
    if (value.kind != PyValue::Kind::Tuple || value.elts.size() != 2 ||
        value.elts[0].kind != PyValue::Kind::Str ||
        value.elts[1].kind != PyValue::Kind::DType) {
      std::string found = value.describe();
      if (value.kind == PyValue::Kind::Tuple && value.elts.size() == 2)
        found = "(" + value.elts[0].describe() + ", " +
                value.elts[1].describe() + ")";
      error(l) << "expected (symbol string, dtype) values in "
                  "arg_type_symbol_dict, found "
               << found;
      return failure();
    }
    symbol = value.elts[0].s;
    result = value.elts[1].dtype;
  }
  if (entries.empty()) {
    error(l) << "extern_elementwise: arg_type_symbol_dict is empty";
    return failure();
  }
  if (symbol.empty()) {
    std::string got;
    llvm::raw_string_ostream os(got);
    for (size_t i = 0; i < types.size(); ++i)
      os << (i ? ", " : "") << types[i];
    error(l) << "extern_elementwise: no entry of arg_type_symbol_dict for "
                "operand types ("
             << got << "); expected one of " << keysSeen;
    return failure();
  }
  // __nv_<name>f on fp32, __nv_<name> on fp64, returning the operand type.
  llvm::StringRef sym(symbol);
  bool allF32 = llvm::all_of(types, [](Type t) { return t.isF32(); });
  bool allF64 = llvm::all_of(types, [](Type t) { return t.isF64(); });
  std::string name;
  if (sym.consume_front("__nv_") && result == types.front()) {
    if (allF32 && sym.ends_with("f") &&
        functions().count(sym.drop_back()))
      name = sym.drop_back().str();
    else if (allF64 && functions().count(sym))
      name = sym.str();
  }
  if (llvm::StringRef(symbol).starts_with("__nv_") && result != types.front()) {
    std::string want, got;
    llvm::raw_string_ostream(want) << types.front();
    llvm::raw_string_ostream(got) << result;
    error(l) << "extern_elementwise: '" << symbol << "' returns its operands' "
             << "type " << want << " in tilec's libdevice mapping, but the "
             << "dict declares " << got;
    return failure();
  }
  if (name.empty() || functions().lookup(name).arity != ops.size()) {
    error(l) << "unimplemented: extern_elementwise call of '" << symbol
             << "': tilec implements the libdevice math functions (__nv_<name>f "
                "on fp32, __nv_<name> on fp64, with the operands' type as the "
                "result; see libdevice in docs/language.md)";
    return failure();
  }
  CallArgs call;
  call.args = ops;
  return callLibdevice(name, call, l);
}

bool frontend::isLibdeviceName(llvm::StringRef name) {
  return functions().count(name) ||
         std::binary_search(std::begin(kTritonLibdevice),
                            std::end(kTritonLibdevice), name);
}
