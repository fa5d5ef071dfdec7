//===- Builtins.cpp - triton.language functions -----------------*- C++ -*-===//
//
// The triton and triton.language names the front end knows: dtypes and the
// tl.* functions, each emitting tile IR with the semantics of
// triton.language (noted per function), plus the Python builtins a kernel
// may use on compile-time values. A tl.* name tilec does not implement is a
// located "unimplemented" error, never a crash.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <charconv>
#include <functional>

#include <cmath>
#include <limits>
#include <set>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::BinOpKind;
using tilec::py::SourceLoc;


/// Binds call arguments to parameter `names` (Python rules); `required` of
/// them must be present. Unknown keywords and surplus arguments are errors.
FailureOr<ArgSlots> frontend::bindArgs(CodeGen &g, const CallArgs &args,
                          ArrayRef<StringRef> names, unsigned required,
                          StringRef fname, SourceLoc l) {
  ArgSlots slots(names.size());
  if (args.args.size() > names.size()) {
    g.error(l) << fname << "() takes at most " << names.size()
               << " arguments, found " << args.args.size();
    return failure();
  }
  for (size_t i = 0; i < args.args.size(); ++i)
    slots[i] = args.args[i];
  for (auto &[k, v] : args.kwargs) {
    auto it = llvm::find(names, k);
    if (it == names.end()) {
      g.error(l) << fname << "() got an unexpected keyword argument '" << k
                 << "'";
      return failure();
    }
    size_t i = it - names.begin();
    if (slots[i]) {
      g.error(l) << fname << "() got multiple values for '" << k << "'";
      return failure();
    }
    slots[i] = v;
  }
  for (unsigned i = 0; i < required; ++i)
    if (!slots[i]) {
      g.error(l) << fname << "() missing required argument '" << names[i]
                 << "'";
      return failure();
    }
  // A dtype given by name on the command line (`-D DTYPE=bf16` stays a
  // string, which kernels may compare) is the dtype where one is expected.
  for (auto [k, n] : llvm::enumerate(names))
    if ((n == "dtype" || n == "element_ty" || n == "out_dtype") && slots[k] &&
        slots[k]->kind == PyValue::Kind::Str)
      if (Type t = g.dtypeByName(StringRef(slots[k]->s)))
        slots[k] = PyValue::ofDType(t);
  return slots;
}

bool frontend::present(const std::optional<PyValue> &v) {
  return v && v->kind != PyValue::Kind::None;
}

FailureOr<bool> frontend::propagateNanArg(CodeGen &g,
                                          const std::optional<PyValue> &v,
                                          SourceLoc l) {
  if (!present(v))
    return false;
  if (v->kind == PyValue::Kind::Bool)
    return v->b;
  if (v->kind == PyValue::Kind::Int && (v->i == 0 || v->i == 0xFFFF))
    return v->i == 0xFFFF;
  g.error(l) << "expected tl.PropagateNan.NONE or tl.PropagateNan.ALL for "
                "propagate_nan, found "
             << v->describe();
  return failure();
}

FailureOr<Value> frontend::memoryMask(CodeGen &g, const PyValue &maskArg,
                                      Value &ptr, SourceLoc l) {
  Type i1 = g.b.getI1Type();
  if (Type et = g.elementTypeOf(maskArg); et && isa<FloatType>(et)) {
    g.error(l) << "expected a bool or integer mask, found "
               << maskArg.describe();
    return failure();
  }
  FailureOr<Value> m = g.toValue(maskArg, l, i1);
  if (succeeded(m) && !tile::getElementTypeOrSelf(m->getType()).isInteger(1))
    m = g.castTo(*m, i1, l);
  if (failed(m) || failed(g.broadcastPair(ptr, *m, l)))
    return failure();
  return *m;
}

namespace {

/// A shape argument: an int or a tuple/list of ints (compile-time).
FailureOr<SmallVector<int64_t>> shapeArg(CodeGen &g, const PyValue &v,
                                         SourceLoc l) {
  SmallVector<int64_t> shape;
  if (v.kind == PyValue::Kind::Int) {
    shape.push_back(v.i);
    return shape;
  }
  if (v.kind == PyValue::Kind::Tuple) {
    if (v.elts.empty()) {
      g.error(l) << "unimplemented: a tile of rank 0 (shape ()); use a scalar";
      return failure();
    }
    for (const PyValue &e : v.elts) {
      if (e.kind != PyValue::Kind::Int || e.i <= 0) {
        g.error(l) << "expected a shape of positive compile-time integers, "
                      "found "
                   << e.describe();
        return failure();
      }
      shape.push_back(e.i);
    }
    int64_t numel = 1;
    for (int64_t d : shape)
      numel = std::min<int64_t>(numel * d, int64_t(1) << 40);
    if (numel > (int64_t(1) << 20)) {
      g.error(l) << "a tile of " << numel << " elements is larger than the "
                 << "limit of 1048576 (2^20, as Triton's TRITON_MAX_TENSOR_NUMEL)";
      return failure();
    }
    return shape;
  }
  g.error(l) << "expected a shape (a tuple of compile-time integers), found "
             << v.describe();
  return failure();
}

FailureOr<int64_t> intArg(CodeGen &g, const std::optional<PyValue> &v,
                          StringRef what, SourceLoc l) {
  if (!v || v->kind != PyValue::Kind::Int) {
    g.error(l) << "expected a compile-time integer for " << what << ", found "
               << (v ? v->describe() : std::string("nothing"));
    return failure();
  }
  return v->i;
}

} // namespace

LogicalResult frontend::setAccessHints(CodeGen &g, Operation *op,
                                       const std::optional<PyValue> &cache,
                                       const std::optional<PyValue> &evict,
                                       const std::optional<PyValue> &isVolatile,
                                       SourceLoc l) {
  // Triton 3.6's _str_to_load_cache_modifier / _str_to_store_cache_modifier
  // / _str_to_eviction_policy; "" is none.
  bool isLoad = isa<tile::LoadOp>(op);
  auto str = [&](const std::optional<PyValue> &v, StringRef what,
                 ArrayRef<StringRef> allowed) -> FailureOr<std::string> {
    if (!present(v))
      return std::string();
    if (v->kind != PyValue::Kind::Str ||
        (!v->s.empty() && !llvm::is_contained(allowed, StringRef(v->s)))) {
      g.error(l) << what << " " << v->describe() << " is not supported by tl."
                 << (isLoad ? "load" : "store") << " (expected \"\", \""
                 << llvm::join(allowed, "\", \"") << "\")";
      return failure();
    }
    return v->s;
  };
  SmallVector<StringRef> caches =
      isLoad ? SmallVector<StringRef>{".ca", ".cg", ".cv"}
             : SmallVector<StringRef>{".wb", ".cg", ".cs", ".wt"};
  TRY(c, str(cache, "cache_modifier", caches));
  TRY(e, str(evict, "eviction_policy", {"evict_first", "evict_last"}));
  if (!c.empty())
    op->setAttr(tile::TileDialect::getCacheModifierAttrName(),
                g.b.getStringAttr(c));
  if (!e.empty()) {
    if (!c.empty())
      // ptxas refuses `ld.global.cg.L1::evict_last`: the cache operator
      // stays, the hint goes.
      emitWarning(g.loc(l)) << "eviction_policy='" << e
                            << "' is ignored: PTX does not combine an L1 "
                               "eviction priority with cache_modifier='"
                            << c << "'";
    else
      op->setAttr(tile::TileDialect::getEvictionPolicyAttrName(),
                  g.b.getStringAttr(e));
  }
  if (present(isVolatile)) {
    if (isVolatile->kind != PyValue::Kind::Bool) {
      g.error(l) << "expected a compile-time bool for volatile, found "
                 << isVolatile->describe();
      return failure();
    }
    if (isVolatile->b)
      op->setAttr(tile::TileDialect::getVolatileAttrName(), g.b.getUnitAttr());
  }
  return success();
}

namespace {
/// The names of triton.language tilec implements (others: unimplemented).
const std::set<std::string> &knownTlFunctions() {
  static const std::set<std::string> names = {
      "program_id", "num_programs", "arange", "zeros", "zeros_like", "full",
      "full_like", "load", "store", "where", "maximum", "minimum", "exp",
      "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "sin", "cos", "floor",
      "ceil", "erf", "fma", "sigmoid", "cdiv", "static_assert", "static_print",
      "broadcast_to", "broadcast", "expand_dims", "reshape", "view", "cast",
      "constexpr", "range", "static_range", "multiple_of", "max_contiguous",
      "max_constancy", "assume", "debug_barrier", "dot", "sum", "max", "min",
      "argmax", "argmin", "reduce", "xor_sum", "cumsum", "cumprod",
      "associative_scan", "atomic_add", "atomic_max", "atomic_min",
      "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas",
      "trans", "permute", "make_tensor_descriptor", "device_print",
      "device_assert", "sqrt_rn", "div_rn", "fdiv", "umulhi", "clamp", "softmax",
      "inline_asm_elementwise", "extern_elementwise", "join", "split", "cat",
      "interleave",
      "ravel", "flip", "sort", "topk", "histogram", "gather", "make_block_ptr",
      "advance", "rand", "randn", "randint", "pointer_type", "tensor", "dtype"};
  return names;
}
} // namespace

Type CodeGen::dtypeByName(StringRef name) {
  auto u = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Unsigned);
  };
  return llvm::StringSwitch<Type>(name)
      .Cases({"int1", "i1", "bool"}, b.getI1Type())
      .Cases({"int8", "i8"}, b.getI8Type())
      .Cases({"int16", "i16"}, b.getI16Type())
      .Cases({"int32", "i32"}, b.getI32Type())
      .Cases({"int64", "i64"}, b.getI64Type())
      .Cases({"uint8", "u8"}, u(8))
      .Cases({"uint16", "u16"}, u(16))
      .Cases({"uint32", "u32"}, u(32))
      .Cases({"uint64", "u64"}, u(64))
      .Cases({"float16", "fp16"}, b.getF16Type())
      .Cases({"bfloat16", "bf16"}, b.getBF16Type())
      .Cases({"float32", "fp32"}, b.getF32Type())
      .Cases({"float64", "fp64"}, b.getF64Type())
      .Cases({"float8e5", "fp8e5"}, Float8E5M2Type::get(ctx))
      .Cases({"float8e4nv", "fp8e4nv"}, Float8E4M3FNType::get(ctx))
      .Default(Type());
}

bool frontend::tritonModuleExists(StringRef dotted) {
  static constexpr StringRef kModules[] = {
      "triton", "triton.errors", "triton.knobs", "triton.testing",
      "triton._utils", "triton._internal_testing", "triton._filecheck",
      "triton.language", "triton.language.core", "triton.language.math",
      "triton.language.standard", "triton.language.random",
      "triton.language.semantic", "triton.language.target_info",
      "triton.language.extra",
      "triton.language.extra.libdevice", "triton.language.extra.cuda",
      "triton.language.extra.hip", "triton.runtime",
      "triton.runtime.autotuner", "triton.runtime.build",
      "triton.runtime.cache", "triton.runtime.driver",
      "triton.runtime.errors", "triton.runtime.interpreter",
      "triton.runtime.jit", "triton.runtime._allocation",
      "triton.runtime._async_compile"};
  static constexpr StringRef kPackages[] = {
      "triton.backends.", "triton.compiler", "triton.experimental",
      "triton.tools", "triton.profiler", "triton._C",
      "triton.language.extra.cuda.", "triton.language.extra.hip."};
  if (llvm::is_contained(kModules, dotted))
    return true;
  return llvm::any_of(kPackages, [&](StringRef p) {
    return dotted.starts_with(p) &&
           (p.ends_with(".") || dotted.size() == p.size() ||
            dotted[p.size()] == '.');
  });
}

IntParse frontend::parsePythonInt(StringRef text, int64_t &out) {
  StringRef t = text.trim(" \t\n\r\f\v");
  bool negative = t.consume_front("-");
  if (!negative)
    (void)t.consume_front("+");
  if (t.empty() || !llvm::isDigit(t.front()) || !llvm::isDigit(t.back()))
    return IntParse::Invalid;
  uint64_t magnitude = 0;
  for (size_t k = 0; k < t.size(); ++k) {
    if (t[k] == '_') {
      if (!llvm::isDigit(t[k + 1])) // never last (checked above)
        return IntParse::Invalid;
      continue;
    }
    if (!llvm::isDigit(t[k]))
      return IntParse::Invalid;
    uint64_t d = uint64_t(t[k] - '0');
    if (magnitude > ((uint64_t(1) << 63) - d) / 10)
      return IntParse::TooBig;
    magnitude = magnitude * 10 + d;
  }
  if (!negative && magnitude > uint64_t(INT64_MAX))
    return IntParse::TooBig;
  out = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
  return IntParse::Ok;
}

FailureOr<PyValue> CodeGen::moduleAttr(const std::string &path,
                                       const std::string &attr, SourceLoc l) {
  if (isHostLibrary(path))
    return hostLibraryAttr(path, attr, l);
  if (path == "triton") {
    if (attr == "language")
      return PyValue::module("triton.language");
    // The Triton whose semantics tilec follows.
    if (attr == "__version__")
      return PyValue::ofStr("3.6.0");
    if (attr == "cdiv")
      return PyValue::builtin("tl.cdiv");
    if (attr == "next_power_of_2" || attr == "jit" || attr == "Config" ||
        attr == "autotune" || attr == "heuristics")
      return PyValue::builtin("triton." + attr);
  }
  // packaging.version.Version / parse (unsloth's version checks at module
  // level): the release numbers as a tuple.
  if (path == "packaging.version" && (attr == "Version" || attr == "parse"))
    return PyValue::builtin("packaging.version.Version");
  if (path == "packaging" && attr == "version")
    return PyValue::module("packaging.version");
  // libdevice: triton.language.extra.libdevice (Triton 3.x, backend
  // dispatched) or triton.language.extra.cuda.libdevice.
  if (path == "triton.language.extra.libdevice" ||
      path == "triton.language.extra.cuda.libdevice") {
    // Triton's names resolve (one tilec lacks fails at the call, named).
    if (isLibdeviceName(attr))
      return PyValue::builtin("libdevice." + attr);
    error(l) << "Triton's libdevice module ('" << path
             << "') has no function '" << attr << "'";
    return failure();
  }
  // triton.language.extra.cuda's num_threads() / num_warps(): constants of
  // the kernel being compiled.
  if (path == "triton.language.extra.cuda" &&
      (attr == "num_threads" || attr == "num_warps"))
    return PyValue::builtin("tl.extra.cuda." + attr);
  if ((path == "triton.language.extra" && (attr == "cuda" || attr == "libdevice")) ||
      (path == "triton.language.extra.cuda" && attr == "libdevice") ||
      (path == "triton.language" && (attr == "extra" || attr == "standard")))
    return PyValue::module(path + "." + attr);
  // triton.language.standard: the functions triton.language re-exports,
  // and two host helpers libraries import.
  if (path == "triton.language.standard") {
    if (attr == "_log2" || attr == "_is_power_of_two")
      return PyValue::builtin("tl.standard." + attr);
    if (knownTlFunctions().count(attr))
      return PyValue::builtin("tl." + attr);
  }
  if (path == "triton.language" || path == "triton.language.core" ||
      path == "triton.language.math" || path == "triton.language.extra") {
    if (attr == "math")
      return PyValue::module("triton.language.math");
    if (attr == "PropagateNan")
      return PyValue::module("triton.language.PropagateNan");
    if (Type t = dtypeByName(attr))
      return PyValue::ofDType(t);
    if (knownTlFunctions().count(attr))
      return PyValue::builtin("tl." + attr);
    if (attr == "random" && path == "triton.language")
      return PyValue::module("triton.language.random");
  }
  // triton.language.random (Random.cpp): its functions, as tl.NAME.
  if ((path == "triton.language" || path == "triton.language.random") &&
      isRandomFunction(attr))
    return PyValue::builtin("tl." + attr);
  // Triton's enum PropagateNan { NONE = 0x0000, ALL = 0xFFFF }.
  if (path == "triton.language.PropagateNan" && (attr == "NONE" || attr == "ALL"))
    return PyValue::ofInt(attr == "ALL" ? 0xFFFF : 0);
  if (isTritonModule(path)) {
    if (!tritonModuleExists(path)) {
      error(l) << "no module named '" << path << "' in Triton 3.6";
      return failure();
    }
    error(l) << "unimplemented: '" << attr << "' of module '" << path
             << "' is not supported by tilec";
    return failure();
  }
  // A module on the import path: the kernel's package, its helpers.
  if (!path.empty() && path.front() == '.') {
    error(l) << "relative import from '" << path << "' in a module outside "
             << "any package: put the package root on the import path "
                "(-I DIR) so that the file's package is known";
    return failure();
  }
  TRY(m, loadModule(path, l));
  if (m)
    return moduleMember(*m, attr, l);
  // A namespace package (a folder without __init__.py): its submodules.
  if (isNamespacePackage(path)) {
    std::string sub = path + "." + attr;
    TRY(s, loadModule(sub, l));
    if (s || isNamespacePackage(sub))
      return PyValue::module(sub);
    error(l) << "namespace package '" << path << "' has no submodule '"
             << attr << "'";
    return failure();
  }
  std::string searched;
  for (const std::string &d : importSearchPath())
    searched += (searched.empty() ? "" : ", ") + d;
  error(l) << "unsupported: module '" << path
           << "' cannot be used in a @triton.jit function (no " << path
           << " module on the import path: "
           << (searched.empty() ? "(empty)" : searched)
           << "; -I DIR or TILEC_PYTHONPATH add folders)";
  return failure();
}

FailureOr<PyValue> CodeGen::callMethod(const std::string &name,
                                       const PyValue &self, CallArgs &args,
                                       SourceLoc l) {
  if (StringRef(name).starts_with("host."))
    return callHostMethod(*this, name.substr(5), self, args, l);
  if (name == "to") {
    TRY(s, bindArgs(*this, args, {"dtype", "fp_downcast_rounding", "bitcast"},
                    1, "to", l));
    if (s[0]->kind != PyValue::Kind::DType) {
      error(l) << "expected a dtype for .to(), found " << s[0]->describe();
      return failure();
    }
    if (present(s[2]) && s[2]->kind != PyValue::Kind::Bool) {
      error(l) << "expected a compile-time bool for bitcast, found "
               << s[2]->describe();
      return failure();
    }
    bool bitcast = present(s[2]) && s[2]->b;
    bool towardZero = false;
    if (present(s[1])) {
      if (s[1]->kind != PyValue::Kind::Str ||
          (s[1]->s != "rtne" && s[1]->s != "rtz")) {
        error(l) << "expected fp_downcast_rounding='rtne' or 'rtz', found "
                 << s[1]->describe();
        return failure();
      }
      towardZero = s[1]->s == "rtz";
    }
    TRY(v, toValue(self, l));
    // bitcast=True reinterprets the bits: no rounding applies (Triton).
    if (towardZero && !bitcast && elementTypeOf(self) != s[0]->dtype) {
      // Triton: the rounding mode applies to floating-point downcasts only
      // (a cast to the same type returns the value first).
      Type from = elementTypeOf(self), to = s[0]->dtype;
      bool fromOk = from.isF32() || from.isF64();
      bool toOk = to.isF16() || to.isBF16() || (to.isF32() && from.isF64());
      if (!fromOk || !toOk) {
        error(l) << "fp_downcast_rounding='rtz' is implemented for fp32/fp64 "
                    "to fp16/bf16 and fp64 to fp32 downcasts; found "
                 << from << " to " << to;
        return failure();
      }
      Type dst = withElement(v.getType(), to);
      return PyValue::ofValue(
          arith::TruncFOp::create(
              b, loc(l), dst, v,
              arith::RoundingModeAttr::get(b.getContext(),
                                           arith::RoundingMode::toward_zero),
              arith::FastMathFlagsAttr())
              .getResult());
    }
    TRY(r, castTo(v, s[0]->dtype, l, bitcast, elementTypeOf(self)));
    return PyValue::ofValue(r, s[0]->dtype);
  }
  if (name == "T") {
    // Triton's code generator makes `x.T` permute(x, (1, 0)): 2-D only.
    auto t = self.isRuntime() ? dyn_cast<RankedTensorType>(self.v.getType())
                              : RankedTensorType();
    if (!t || t.getRank() != 2) {
      error(l) << "expected a 2-D tile for .T, found " << self.describe()
               << " (tl.trans(x) swaps the last two dimensions of any rank)";
      return failure();
    }
    CallArgs a;
    a.args = {self, PyValue::ofTuple({PyValue::ofInt(1), PyValue::ofInt(0)})};
    return callBuiltin("tl.permute", a, l);
  }
  if (name == "trans" || name == "permute") {
    CallArgs a = args;
    a.args.insert(a.args.begin(), self);
    return callBuiltin("tl." + name, a, l);
  }
  if (name.rfind("dtype.", 0) == 0) {
    if (!args.args.empty() || !args.kwargs.empty()) {
      error(l) << "'" << name.substr(6) << "' of a dtype takes no arguments";
      return failure();
    }
    if (auto p = dtypePredicate(self.dtype, StringRef(name).drop_front(6)))
      return PyValue::ofBool(*p);
    // Triton 3.6's dtype.get_int_max_value / get_int_min_value /
    // to_int_type.
    auto it = dyn_cast_or_null<IntegerType>(self.dtype);
    if ((name == "dtype.get_int_max_value" ||
         name == "dtype.get_int_min_value") &&
        it && it.getWidth() > 1) {
      unsigned w = it.getWidth();
      bool isUnsigned = it.isUnsigned();
      if (name == "dtype.get_int_min_value")
        return PyValue::ofInt(isUnsigned ? 0 : INT64_MIN >> (64 - w));
      if (isUnsigned && w == 64) {
        error(l) << "unimplemented: uint64's largest value (2^64 - 1) as a "
                    "compile-time integer (tilec's are 64-bit signed)";
        return failure();
      }
      return PyValue::ofInt(isUnsigned ? int64_t((uint64_t(1) << w) - 1)
                                       : INT64_MAX >> (64 - w));
    }
    if (name == "dtype.to_int_type" && self.dtype.isIntOrFloat())
      return PyValue::ofDType(
          self.dtype.isInteger()
              ? self.dtype
              : Type(b.getIntegerType(self.dtype.getIntOrFloatBitWidth())));
    error(l) << "unimplemented: method '" << name.substr(6) << "' of "
             << self.describe();
    return failure();
  }
  if (name.rfind("desc.", 0) == 0) {
    CallArgs a = args;
    a.args.insert(a.args.begin(), self);
    return callBuiltin("tl." + name, a, l);
  }
  // Tile methods that mirror tl functions: x.sum(axis), x.reshape(...).
  static const std::set<std::string> mirrored = {
      "sum",     "cast",         "max",         "min",  "argmax", "argmin",
      "reshape", "broadcast_to", "expand_dims", "exp",  "log",    "sqrt",
      "abs",     "cumsum",       "reduce",      "view", "split",  "join",
      "ravel",   "flip",         "softmax",     "sort", "topk", "gather"};
  if (mirrored.count(name)) {
    CallArgs a = args;
    a.args.insert(a.args.begin(), self);
    return callBuiltin("tl." + name, a, l);
  }
  if (name == "dot") {
    // Triton 3.6 has tl.dot only (no tensor.dot).
    error(l) << "a tile has no method 'dot': use tl.dot(x, y)";
    return failure();
  }
  error(l) << "unimplemented: method '" << name << "' of " << self.describe();
  return failure();
}

FailureOr<PyValue> CodeGen::callBuiltin(const std::string &name,
                                        CallArgs &args, SourceLoc l) {
  Location lc = loc(l);
  using K = PyValue::Kind;
  if (name.rfind("libdevice.", 0) == 0)
    return callLibdevice(name.substr(10), args, l);
  if (name.rfind("host.", 0) == 0)
    return callHostFact(name, args, l);
  if (name.rfind("tl.", 0) == 0 && isRandomFunction(name.substr(3)))
    return callRandom(name, args, l);
  if (name == "tl.sort" || name == "tl.topk")
    return callSort(name, args, l);
  if (name == "tl.extern_elementwise")
    return callExternElementwise(args, l);
  if (name == "tl.dtype") {
    // tl.dtype("fp32"), as Triton's libdevice tables write their keys.
    Type t;
    if (args.args.size() == 1 && args.kwargs.empty() &&
        args.args[0].kind == K::Str)
      t = dtypeByName(args.args[0].s);
    if (!t) {
      error(l) << "expected tl.dtype(NAME) with a dtype name such as 'fp32'";
      return failure();
    }
    return PyValue::ofDType(t);
  }

  // --- Python builtins on compile-time values ---
  if (name == "py.min" || name == "py.max") {
    // Python: one argument must be an iterable (min(1) is a TypeError), an
    // empty one is a ValueError.
    if (args.args.size() == 1 && args.args[0].kind != K::Tuple) {
      error(l) << name.substr(3) << "() of one argument expects a tuple, "
               << "found " << args.args[0].describe()
               << " (Python raises TypeError: it is not iterable)";
      return failure();
    }
    if (args.args.size() == 1 && args.args[0].elts.empty()) {
      error(l) << name.substr(3) << "() of an empty tuple (Python raises "
                                    "ValueError)";
      return failure();
    }
    const std::vector<PyValue> &xs =
        args.args.size() == 1 && args.args[0].kind == K::Tuple
            ? args.args[0].elts
            : args.args;
    // On run-time values Triton maps the builtins to tl.minimum/maximum.
    if (xs.size() >= 2 &&
        llvm::any_of(xs, [](const PyValue &v) { return v.isRuntime(); })) {
      PyValue acc = xs[0];
      for (size_t i = 1; i < xs.size(); ++i) {
        CallArgs a;
        a.args = {acc, xs[i]};
        TRY(r, callBuiltin(name == "py.min" ? "tl.minimum" : "tl.maximum", a, l));
        acc = r;
      }
      return acc;
    }
    if (xs.empty() || !llvm::all_of(xs, [](const PyValue &v) { return v.isNumber(); })) {
      error(l) << name.substr(3) << "() expects compile-time numbers (use "
               << "tl.minimum/tl.maximum for tiles)";
      return failure();
    }
    PyValue best = xs[0];
    for (const PyValue &x : xs) {
      TRY(lt, compare(py::CmpOpKind::Lt, x, best, l));
      if (lt.b == (name == "py.min"))
        best = x;
    }
    return best;
  }
  if (name == "py.abs") {
    if (args.args.size() == 1 && args.args[0].isNumber()) {
      const PyValue &x = args.args[0];
      if (x.kind == K::Int && x.i == INT64_MIN) {
        error(l) << "integer overflow in a compile-time expression (tilec's "
                    "compile-time integers are 64-bit)";
        return failure();
      }
      return x.kind == K::Float ? PyValue::ofFloat(std::fabs(x.f))
                                : PyValue::ofInt(std::llabs(x.kind == K::Int ? x.i : int64_t(x.b)));
    }
    return callBuiltin("tl.abs", args, l);
  }
  if (name == "py.hasattr") {
    // hasattr(module, "name"): whether tilec knows the attribute (a
    // version check's way of asking for a feature).
    if (args.args.size() != 2 || args.args[1].kind != K::Str) {
      error(l) << "hasattr() expects an object and a string";
      return failure();
    }
    // torch, os, sys: tilec cannot tell a missing attribute from one it
    // does not answer, so the question is an error, not False.
    if (args.args[0].kind == K::Module && isHostLibrary(args.args[0].s)) {
      TRY(v, getAttr(args.args[0], args.args[1].s, l));
      (void)v;
      return PyValue::ofBool(true);
    }
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    return PyValue::ofBool(succeeded(getAttr(args.args[0], args.args[1].s, l)));
  }
  if (name == "py.getattr") {
    // getattr(obj, "name"[, default]) (unsloth's
    // `getattr(getattr(torch, "version", None), "hip", None)`).
    if (args.args.size() < 2 || args.args.size() > 3 || !args.kwargs.empty() ||
        args.args[1].kind != K::Str) {
      error(l) << "getattr() expects an object, a string and an optional "
                  "default";
      return failure();
    }
    if (args.args.size() == 2 ||
        (args.args[0].kind == K::Module && isHostLibrary(args.args[0].s)))
      return getAttr(args.args[0], args.args[1].s, l); // as hasattr
    std::optional<PyValue> found;
    {
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      auto r = getAttr(args.args[0], args.args[1].s, l);
      if (succeeded(r))
        found = *r;
    }
    return found ? *found : args.args[2];
  }
  if (name == "py.str") {
    // str() of a compile-time scalar, as Python spells it.
    if (args.args.size() == 1 && args.kwargs.empty()) {
      const PyValue &x = args.args[0];
      switch (x.kind) {
      case K::Str:
        return x;
      case K::Int:
        return PyValue::ofStr(std::to_string(x.i));
      case K::Bool:
        return PyValue::ofStr(x.b ? "True" : "False");
      case K::None:
        return PyValue::ofStr("None");
      default:
        break;
      }
    }
    error(l) << "str() expects one compile-time integer, bool, string or None";
    return failure();
  }
  if (name == "py.len") {
    if (args.args.size() == 1 && args.args[0].kind == K::Tuple)
      return PyValue::ofInt(int64_t(args.args[0].elts.size()));
    if (args.args.size() == 1 && args.args[0].kind == K::Dict)
      return PyValue::ofInt(int64_t(args.args[0].elts.size() / 2));
    if (args.args.size() == 1 && args.args[0].kind == K::Str) // code points
      return PyValue::ofInt(int64_t(llvm::count_if(
          args.args[0].s, [](char c) { return (uint8_t(c) & 0xC0) != 0x80; })));
    if (args.args.size() == 1 && args.args[0].isRuntime())
      if (auto t = dyn_cast<RankedTensorType>(args.args[0].v.getType()))
        return PyValue::ofInt(t.getDimSize(0));
    error(l) << "len() expects a tuple, dict, string or tile";
    return failure();
  }
  if (name == "py.float") {
    if (args.args.size() == 1 && args.args[0].kind == K::Str) {
      std::string s = args.args[0].s;
      if (s == "inf" || s == "+inf")
        return PyValue::ofFloat(std::numeric_limits<double>::infinity());
      if (s == "-inf")
        return PyValue::ofFloat(-std::numeric_limits<double>::infinity());
      if (s == "nan")
        return PyValue::ofFloat(std::numeric_limits<double>::quiet_NaN());
      double d;
      if (!llvm::StringRef(s).getAsDouble(d))
        return PyValue::ofFloat(d);
    }
    if (args.args.size() == 1 && args.args[0].isNumber()) {
      const PyValue &x = args.args[0];
      return PyValue::ofFloat(x.kind == K::Float ? x.f
                              : x.kind == K::Int ? double(x.i)
                                                 : double(x.b));
    }
    error(l) << "float() expects a compile-time number or string";
    return failure();
  }
  if (name == "py.bool" && args.args.size() == 1 && args.kwargs.empty() &&
      args.args[0].isConstexpr()) {
    // bool(None), bool("cuda"), bool(()): Python's truth value.
    TRY(t, truthiness(args.args[0], l));
    return PyValue::ofBool(t);
  }
  if (name == "py.int" || name == "py.bool") {
    if (args.args.size() == 1 && args.args[0].isNumber()) {
      const PyValue &x = args.args[0];
      if (name == "py.bool") {
        TRY(t, truthiness(x, l));
        return PyValue::ofBool(t);
      }
      if (x.kind == K::Float) {
        // Python: int(inf) and int(nan) raise; tilec's integers are 64-bit.
        if (std::isnan(x.f) || std::isinf(x.f)) {
          error(l) << "cannot convert float " << (std::isnan(x.f) ? "NaN" : "infinity")
                   << " to integer (Python raises)";
          return failure();
        }
        double t = std::trunc(x.f);
        if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) {
          error(l) << "int() of " << x.f
                   << " does not fit in 64 bits (tilec's compile-time "
                      "integers are 64-bit)";
          return failure();
        }
        return PyValue::ofInt(int64_t(t));
      }
      return PyValue::ofInt(x.kind == K::Int ? x.i : int64_t(x.b));
    }
    if (name == "py.int" && args.args.size() == 1 &&
        args.args[0].kind == K::Str) {
      // (bool() of a string is its truth value, above.)
      const std::string &text = args.args[0].s;
      // Messages show at most 40 bytes of the string.
      std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
      int64_t value = 0;
      switch (parsePythonInt(text, value)) {
      case IntParse::Ok:
        return PyValue::ofInt(value);
      case IntParse::TooBig:
        error(l) << "int() of '" << shown
                 << "' does not fit in 64 bits (tilec's compile-time "
                    "integers are 64-bit)";
        return failure();
      case IntParse::Invalid:
        error(l) << "invalid literal for int() with base 10: '" << shown
                 << "' (Python's ValueError)";
        return failure();
      }
    }
    error(l) << name.substr(3) << "() expects a compile-time number"
             << (name == "py.int" ? " or string" : "");
    return failure();
  }
  if (name == "py.range" || name == "tl.range" || name == "tl.static_range") {
    error(l) << "expected " << name.substr(3)
             << "(...) only as the iterable of a for loop";
    return failure();
  }
  if (name == "tl.static_print") {
    // Printed while compiling, as Triton's static_print: a remark at the
    // call (with the other diagnostics: stderr for tilec, the diagnostics
    // string for compileTritonToPTX).
    std::string text;
    std::function<void(const PyValue &)> str = [&](const PyValue &v) {
      switch (v.kind) {
      case K::Str: text += v.s; return;
      case K::Int: text += std::to_string(v.i); return;
      case K::Bool: text += v.b ? "True" : "False"; return;
      case K::None: text += "None"; return;
      case K::Float: {
        // Python's repr: the shortest round-trip digits, a '.0' on integers.
        if (std::isnan(v.f)) {
          text += "nan";
          return;
        }
        if (std::isinf(v.f)) {
          text += v.f < 0 ? "-inf" : "inf";
          return;
        }
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v.f);
        std::string f(buf, ec == std::errc() ? end : buf);
        if (f.find_first_of(".e") == std::string::npos)
          f += ".0";
        text += f;
        return;
      }
      case K::Tuple:
        text += "(";
        for (size_t i = 0; i < v.elts.size(); ++i) {
          if (i)
            text += ", ";
          str(v.elts[i]);
        }
        text += v.elts.size() == 1 ? ",)" : ")";
        return;
      default: text += v.describe(); return;
      }
    };
    for (size_t i = 0; i < args.args.size(); ++i) {
      if (i)
        text += " ";
      str(args.args[i]);
    }
    // A loop body's dry run would print it twice; an unrolled loop of
    // prints is capped (untrusted source must not flood the host's log).
    constexpr unsigned kMaxStaticPrints = 100;
    if (!dryRun && ++staticPrints <= kMaxStaticPrints)
      emitRemark(lc) << "static_print: " << text;
    else if (!dryRun && staticPrints == kMaxStaticPrints + 1)
      emitRemark(lc) << "static_print: further output of this kernel not "
                        "shown (the limit is "
                     << kMaxStaticPrints << " prints)";
    return PyValue::none();
  }
  if (name == "py.print" || name == "tl.device_print")
    return callDevicePrint(args, l, name == "py.print");
  if (name == "tl.device_assert")
    return callDeviceAssert(args, l);
  if (name == "tl.constexpr") {
    if (args.args.size() != 1) {
      error(l) << "tl.constexpr() expects one value";
      return failure();
    }
    return args.args[0];
  }
  if (name == "triton.next_power_of_2") {
    TRY(s, bindArgs(*this, args, {"n"}, 1, "next_power_of_2", l));
    TRY(n, intArg(*this, s[0], "n", l));
    // Triton's bit trick: 0 for n <= 0, else the least power of two >= n.
    if (n <= 0)
      return PyValue::ofInt(0);
    if (n > (int64_t(1) << 62)) {
      error(l) << "triton.next_power_of_2(" << n
               << ") does not fit in 64 bits (tilec's compile-time integers "
                  "are 64-bit)";
      return failure();
    }
    int64_t p = 1;
    while (p < n)
      p <<= 1;
    return PyValue::ofInt(p);
  }
  if (name == "packaging.version.Version") {
    // The release segment "N(.N)*" as a tuple of ints, trailing zeros
    // dropped (Version("3.0") == Version("3.0.0")); pre-release, post and
    // local parts ("3.6.0+cu128", "3.0.0rc1") are ignored.
    TRY(s, bindArgs(*this, args, {"version"}, 1, "Version", l));
    if (s[0]->kind != PyValue::Kind::Str) {
      error(l) << "expected Version(str), found " << s[0]->describe();
      return failure();
    }
    StringRef text = StringRef(s[0]->s).trim();
    (void)text.consume_front("v");
    std::vector<PyValue> parts;
    while (!text.empty() && llvm::isDigit(text.front())) {
      StringRef digits = text.take_while(llvm::isDigit);
      uint64_t n;
      if (digits.size() > 18 || digits.getAsInteger(10, n))
        break;
      parts.push_back(PyValue::ofInt(int64_t(n)));
      text = text.drop_front(digits.size());
      if (!text.consume_front("."))
        break;
    }
    if (parts.empty()) {
      error(l) << "expected a version such as '3.6.0' in Version(), found '"
               << StringRef(s[0]->s).take_front(40) << "'";
      return failure();
    }
    while (parts.size() > 1 && parts.back().i == 0)
      parts.pop_back();
    return PyValue::ofTuple(parts);
  }
  if (name == "tl.standard._log2" || name == "tl.standard._is_power_of_two") {
    // Host helpers of triton/language/standard.py that libraries import
    // (flash-linear-attention: tl.standard._log2(n)): floor(log2(n)) (0 for
    // n <= 1), and n is a positive power of two.
    bool log2 = name == "tl.standard._log2";
    TRY(s, bindArgs(*this, args, {"i"}, 1, log2 ? "_log2" : "_is_power_of_two",
                    l));
    TRY(n, intArg(*this, s[0], "i", l));
    if (log2)
      return PyValue::ofInt(n > 1 ? llvm::Log2_64(uint64_t(n)) : 0);
    return PyValue::ofBool(n > 0 && (n & (n - 1)) == 0);
  }
  if (name == "tl.static_assert") {
    TRY(s, bindArgs(*this, args, {"cond", "msg"}, 1, "static_assert", l));
    if (!s[0]->isConstexpr()) {
      error(l) << "tl.static_assert expects a compile-time condition, found "
               << s[0]->describe();
      return failure();
    }
    TRY(t, truthiness(*s[0], l));
    if (!t) {
      error(l) << "static assertion failed"
               << (present(s[1]) && s[1]->kind == K::Str ? ": " + s[1]->s : "");
      return failure();
    }
    return PyValue::none();
  }

  // --- indices and construction ---
  if (name == "tl.program_id" || name == "tl.num_programs") {
    TRY(s, bindArgs(*this, args, {"axis"}, 0, name.substr(3), l));
    int64_t axis = 0;
    if (s[0]) {
      TRY(a, intArg(*this, s[0], "axis", l));
      axis = a;
    }
    if (axis < 0 || axis > 2) {
      error(l) << "expected axis 0, 1 or 2, found " << axis;
      return failure();
    }
    Value r = name == "tl.program_id"
                  ? Value(tile::ProgramIdOp::create(b, lc, b.getI32Type(),
                                                    int32_t(axis)))
                  : Value(tile::NumProgramsOp::create(b, lc, b.getI32Type(),
                                                      int32_t(axis)));
    return PyValue::ofValue(r);
  }
  if (name == "tl.arange") {
    TRY(s, bindArgs(*this, args, {"start", "end"}, 2, "arange", l));
    TRY(start, intArg(*this, s[0], "start", l));
    TRY(end, intArg(*this, s[1], "end", l));
    if (end <= start) {
      error(l) << "expected end > start in tl.arange, found start = " << start
               << ", end = " << end;
      return failure();
    }
    // Triton's semantic.arange: both bounds non-negative and within 32
    // bits; the values (end - 1 at most) must also fit int32 here.
    if (start < 0 || end > (int64_t(1) << 31)) {
      error(l) << "tl.arange bounds must fit in int32 (0 <= start < end <= "
                  "2^31), found start = "
               << start << ", end = " << end;
      return failure();
    }
    int64_t n = end - start;
    if (end > INT32_MAX && n <= (int64_t(1) << 20) && !(n & (n - 1))) {
      // tile.make_range's end attribute is an i32: an end of 2^31 is
      // arange(0, n) + start.
      auto t = RankedTensorType::get({n}, b.getI32Type());
      Value r = tile::MakeRangeOp::create(b, lc, t, b.getI32IntegerAttr(0),
                                          b.getI32IntegerAttr(int32_t(n)));
      Value off = tile::SplatOp::create(
          b, lc, t, arith::ConstantIntOp::create(b, lc, start, 32));
      return PyValue::ofValue(arith::AddIOp::create(b, lc, r, off));
    }
    if (n > (int64_t(1) << 20)) {
      error(l) << "tl.arange of " << n << " elements is larger than the limit "
               << "of 1048576 (2^20, as Triton's TRITON_MAX_TENSOR_NUMEL)";
      return failure();
    }
    if (n & (n - 1)) {
      error(l) << "expected a power of two for the length of tl.arange (as "
                  "Triton requires), found "
               << n << " elements";
      return failure();
    }
    auto t = RankedTensorType::get({n}, b.getI32Type());
    return PyValue::ofValue(tile::MakeRangeOp::create(
        b, lc, t, b.getI32IntegerAttr(int32_t(start)),
        b.getI32IntegerAttr(int32_t(end))));
  }
  if (name == "tl.zeros" || name == "tl.full") {
    bool full = name == "tl.full";
    TRY(s, full ? bindArgs(*this, args, {"shape", "value", "dtype"}, 3, "full", l)
                : bindArgs(*this, args, {"shape", "dtype"}, 2, "zeros", l));
    if (s[0]->kind == K::Tuple && s[0]->elts.empty()) {
      // Shape (): Triton's rank-0 tensor is a scalar of the dtype.
      const PyValue &dt0 = *s[full ? 2 : 1];
      if (dt0.kind != K::DType) {
        error(l) << "expected a dtype, found " << dt0.describe();
        return failure();
      }
      PyValue value = full ? *s[1] : PyValue::ofInt(0);
      if (value.isRuntime() && isa<RankedTensorType>(value.v.getType())) {
        error(l) << "expected a scalar fill value for shape (), found "
                 << value.describe();
        return failure();
      }
      if (value.kind == K::Float && !isa<FloatType>(dt0.dtype)) {
        error(l) << "expected an integer fill value for " << dt0.dtype;
        return failure();
      }
      return castValue(value, dt0.dtype, l);
    }
    TRY(shape, shapeArg(*this, *s[0], l));
    const PyValue &dt = *s[full ? 2 : 1];
    if (dt.kind != K::DType) {
      error(l) << "expected a dtype, found " << dt.describe();
      return failure();
    }
    Type et = dt.dtype;
    auto t = RankedTensorType::get(shape, toIRType(et));
    PyValue value = full ? *s[1] : PyValue::ofInt(0);
    if (value.isNumber()) {
      Attribute elem;
      if (auto ft = dyn_cast<FloatType>(et))
        elem = b.getFloatAttr(ft, value.kind == K::Float ? value.f
                                  : value.kind == K::Int ? double(value.i)
                                                         : double(value.b));
      else if (value.kind == K::Float) {
        error(l) << "expected an integer fill value for " << et;
        return failure();
      } else {
        int64_t x = value.kind == K::Int ? value.i : int64_t(value.b);
        if (et.isInteger(1))
          x = x != 0;
        else if (failed(checkIntRange(x, et, l)))
          return failure();
        elem = b.getIntegerAttr(toIRType(et), x);
      }
      return PyValue::ofValue(
          arith::ConstantOp::create(b, lc, DenseElementsAttr::get(t, elem)),
          et);
    }
    TRY(v0, toValue(value, l));
    TRY(v, castTo(v0, et, l, false, elementTypeOf(value)));
    if (isa<RankedTensorType>(v.getType())) {
      error(l) << "expected a scalar fill value, found a tile";
      return failure();
    }
    return PyValue::ofValue(tile::SplatOp::create(b, lc, t, v), et);
  }
  if (name == "tl.zeros_like" || name == "tl.full_like") {
    if (args.args.empty() || !args.args[0].isRuntime()) {
      error(l) << name.substr(3) << "() expects a tile";
      return failure();
    }
    Value x = args.args[0].v;
    std::vector<PyValue> dims;
    for (int64_t d : cast<RankedTensorType>(x.getType()).getShape())
      dims.push_back(PyValue::ofInt(d));
    CallArgs a;
    a.args.push_back(PyValue::ofTuple(dims));
    if (name == "tl.full_like") {
      if (args.args.size() < 2) {
        error(l) << "full_like() missing required argument 'fill_value'";
        return failure();
      }
      a.args.push_back(args.args[1]);
    }
    a.args.push_back(PyValue::ofDType(elementTypeOf(args.args[0])));
    return callBuiltin(name == "tl.zeros_like" ? "tl.zeros" : "tl.full", a, l);
  }

  // --- memory ---
  if (name == "tl.load") {
    TRY(s, bindArgs(*this, args,
                    {"pointer", "mask", "other", "boundary_check",
                     "padding_option", "cache_modifier", "eviction_policy",
                     "volatile"},
                    1, "load", l));
    if (s[0]->kind == K::BlockPtr)
      return loadBlockPointer(*this, s, l);
    if (!s[0]->isRuntime() ||
        !isa<tile::PtrType>(tile::getElementTypeOrSelf(s[0]->v.getType()))) {
      error(l) << "expected a pointer, a tile of pointers or a block pointer "
                  "for tl.load, found "
               << s[0]->describe();
      return failure();
    }
    if (failed(noBlockPointerArgs(*this, s[3], s[4], "load", l)))
      return failure();
    Value ptr = s[0]->v;
    Value mask;
    if (!isa<RankedTensorType>(ptr.getType()) && present(s[1]) &&
        s[1]->isRuntime() && isa<RankedTensorType>(s[1]->v.getType())) {
      error(l) << "expected a scalar mask for a load through a scalar pointer, "
                  "found a tile (as Triton: the mask cannot be a block if the "
                  "pointer is not)";
      return failure();
    }
    if (present(s[1])) {
      TRY(m, memoryMask(*this, *s[1], ptr, l));
      mask = m;
    }
    // The pointee's dtype (unsigned for `*u32`).
    Type pointee = cast<tile::PtrType>(elementTypeOf(*s[0])).getPointeeType();
    Value other;
    if (mask && present(s[2])) {
      TRY(o0, toValue(*s[2], l, pointee));
      TRY(o1, castTo(o0, pointee, l, false,
                     s[2]->isRuntime() ? elementTypeOf(*s[2]) : pointee));
      TRY(o, broadcastTo(o1, isa<RankedTensorType>(ptr.getType())
                                 ? cast<RankedTensorType>(ptr.getType()).getShape()
                                 : ArrayRef<int64_t>{},
                         l));
      other = o;
    }
    Type resultType = tile::getPointeeTypeOf(ptr.getType());
    auto load = tile::LoadOp::create(b, lc, resultType, ptr, mask, other);
    if (failed(setAccessHints(*this, load, s[5], s[6], s[7], l)))
      return failure();
    return PyValue::ofValue(load, pointee);
  }
  if (name == "tl.store") {
    TRY(s, bindArgs(*this, args,
                    {"pointer", "value", "mask", "boundary_check",
                     "cache_modifier", "eviction_policy"},
                    2, "store", l));
    if (s[0]->kind == K::BlockPtr)
      return storeBlockPointer(*this, s, l);
    if (!s[0]->isRuntime() ||
        !isa<tile::PtrType>(tile::getElementTypeOrSelf(s[0]->v.getType()))) {
      error(l) << "expected a pointer, a tile of pointers or a block pointer "
                  "for tl.store, found "
               << s[0]->describe();
      return failure();
    }
    if (failed(noBlockPointerArgs(*this, s[3], std::nullopt, "store", l)))
      return failure();
    Value ptr = s[0]->v;
    Type pointee = cast<tile::PtrType>(elementTypeOf(*s[0])).getPointeeType();
    TRY(v0, toValue(*s[1], l, pointee));
    Value v = v0;
    if (!isa<RankedTensorType>(ptr.getType()) &&
        (isa<RankedTensorType>(v.getType()) ||
         (present(s[2]) && s[2]->isRuntime() &&
          isa<RankedTensorType>(s[2]->v.getType())))) {
      error(l) << "expected a scalar value and mask for a store through a "
                  "scalar pointer, found a tile (as Triton: the value cannot "
                  "be a block if the pointer is not)";
      return failure();
    }
    Value mask;
    if (present(s[2])) {
      TRY(m, memoryMask(*this, *s[2], ptr, l));
      mask = m;
    }
    if (failed(broadcastPair(ptr, v, l)))
      return failure();
    if (mask && failed(broadcastPair(ptr, mask, l)))
      return failure();
    TRY(vc, castTo(v, pointee, l, false,
                   s[1]->isRuntime() ? elementTypeOf(*s[1]) : pointee));
    auto store = tile::StoreOp::create(b, lc, ptr, vc, mask);
    if (failed(setAccessHints(*this, store, s[4], s[5], std::nullopt, l)))
      return failure();
    return PyValue::none();
  }

  // --- elementwise ---
  if (name == "tl.where") {
    TRY(s, bindArgs(*this, args, {"condition", "x", "y"}, 3, "where", l));
    return select(*s[0], *s[1], *s[2], l);
  }
  if (name == "tl.maximum" || name == "tl.minimum") {
    TRY(s, bindArgs(*this, args, {"x", "y", "propagate_nan"}, 2,
                    name.substr(3), l));
    TRY(type, promote(*s[0], *s[1], false, l));
    TRY(xy, operandsAs({*s[0], *s[1]}, type, l));
    Value xv = xy[0], yv = xy[1];
    bool isMax = name == "tl.maximum";
    TRY(propagateNan, propagateNanArg(*this, s[2], l));
    Value r;
    if (isa<FloatType>(type)) {
      // NONE (default): the non-NaN operand wins (maxnum); ALL: NaN wins.
      if (propagateNan)
        r = isMax ? Value(arith::MaximumFOp::create(b, lc, xv, yv))
                  : Value(arith::MinimumFOp::create(b, lc, xv, yv));
      else
        r = isMax ? Value(arith::MaxNumFOp::create(b, lc, xv, yv))
                  : Value(arith::MinNumFOp::create(b, lc, xv, yv));
    } else if (hasUnsignedOrder(type)) {
      r = isMax ? Value(arith::MaxUIOp::create(b, lc, xv, yv))
                : Value(arith::MinUIOp::create(b, lc, xv, yv));
    } else {
      r = isMax ? Value(arith::MaxSIOp::create(b, lc, xv, yv))
                : Value(arith::MinSIOp::create(b, lc, xv, yv));
    }
    return PyValue::ofValue(r, type);
  }
  static const std::set<std::string> unaryMath = {
      "tl.exp", "tl.exp2", "tl.log", "tl.log2", "tl.sqrt", "tl.rsqrt",
      "tl.sin", "tl.cos", "tl.floor", "tl.ceil", "tl.erf", "tl.abs",
      "tl.sigmoid"};
  if (unaryMath.count(name)) {
    TRY(s, bindArgs(*this, args, {"x"}, 1, name.substr(3), l));
    TRY(v, toValue(*s[0], l));
    Type et = tile::getElementTypeOrSelf(v.getType());
    // |x| of an unsigned value is x (Triton's abs).
    if (name == "tl.abs" && isUnsignedInt(elementTypeOf(*s[0])))
      return PyValue::ofValue(v, elementTypeOf(*s[0]));
    if (name == "tl.abs" && et.isInteger())
      return PyValue::ofValue(math::AbsIOp::create(b, lc, v));
    if (!isa<FloatType>(et) || isa<Float8E4M3FNType, Float8E5M2Type>(et)) {
      error(l) << "expected a floating-point (fp16, bf16, fp32, fp64) operand "
                  "of "
               << name << ", found " << v.getType();
      return failure();
    }
    Value r;
    if (name == "tl.exp") r = math::ExpOp::create(b, lc, v);
    else if (name == "tl.exp2") r = math::Exp2Op::create(b, lc, v);
    else if (name == "tl.log") r = math::LogOp::create(b, lc, v);
    else if (name == "tl.log2") r = math::Log2Op::create(b, lc, v);
    // tl.sqrt may be approximate (Triton: sqrt.approx); tl.sqrt_rn is IEEE.
    else if (name == "tl.sqrt")
      r = math::SqrtOp::create(b, lc, v, arith::FastMathFlags::afn);
    else if (name == "tl.rsqrt") r = math::RsqrtOp::create(b, lc, v);
    else if (name == "tl.sin") r = math::SinOp::create(b, lc, v);
    else if (name == "tl.cos") r = math::CosOp::create(b, lc, v);
    else if (name == "tl.floor") r = math::FloorOp::create(b, lc, v);
    else if (name == "tl.ceil") r = math::CeilOp::create(b, lc, v);
    else if (name == "tl.erf") r = math::ErfOp::create(b, lc, v);
    else if (name == "tl.abs") r = math::AbsFOp::create(b, lc, v);
    else {
      // sigmoid(x) = 1 / (1 + exp(-x))
      TRY(neg, unary(py::UnaryOpKind::Minus, PyValue::ofValue(v), l));
      Value e = math::ExpOp::create(b, lc, neg.v);
      TRY(den, binary(BinOpKind::Add, PyValue::ofFloat(1.0), PyValue::ofValue(e), l));
      TRY(q, binary(BinOpKind::Div, PyValue::ofFloat(1.0), den, l));
      return q;
    }
    return PyValue::ofValue(r);
  }
  if (name == "tl.clamp") {
    // clamp(x, min, max) = minimum(maximum(x, min), max), as Triton (NaN in
    // x: propagate_nan decides, like tl.maximum).
    TRY(s, bindArgs(*this, args, {"x", "min", "max", "propagate_nan"}, 3,
                    "clamp", l));
    CallArgs lo;
    lo.args = {*s[0], *s[1]};
    if (s[3])
      lo.kwargs.emplace_back("propagate_nan", *s[3]);
    TRY(m, callBuiltin("tl.maximum", lo, l));
    CallArgs hi;
    hi.args = {m, *s[2]};
    if (s[3])
      hi.kwargs.emplace_back("propagate_nan", *s[3]);
    return callBuiltin("tl.minimum", hi, l);
  }
  if (name == "tl.umulhi") {
    // The high 32 (64) bits of the unsigned product (PTX mul.hi.u32).
    TRY(s, bindArgs(*this, args, {"x", "y"}, 2, "umulhi", l));
    TRY(type, promote(*s[0], *s[1], false, l));
    if (!type.isInteger() || type.isInteger(1)) {
      error(l) << "expected integer operands of tl.umulhi, found " << type;
      return failure();
    }
    TRY(xy, operandsAs({*s[0], *s[1]}, type, l));
    Value xv = xy[0], yv = xy[1];
    return PyValue::ofValue(
        arith::MulUIExtendedOp::create(b, lc, xv, yv).getHigh(), type);
  }
  if (name == "tl.sqrt_rn") {
    TRY(s, bindArgs(*this, args, {"x"}, 1, "sqrt_rn", l));
    TRY(v, toValue(*s[0], l));
    if (!isa<FloatType>(tile::getElementTypeOrSelf(v.getType()))) {
      error(l) << "expected a floating-point operand of tl.sqrt_rn, found "
               << v.getType();
      return failure();
    }
    return PyValue::ofValue(math::SqrtOp::create(b, lc, v));
  }
  if (name == "tl.div_rn") {
    TRY(s, bindArgs(*this, args, {"x", "y"}, 2, "div_rn", l));
    TRY(type, promote(*s[0], *s[1], true, l));
    Type et = isa<FloatType>(type) ? type : Type(b.getF32Type());
    TRY(xy, operandsAs({*s[0], *s[1]}, et, l));
    Value xv = xy[0], yv = xy[1];
    return PyValue::ofValue(arith::DivFOp::create(b, lc, xv, yv));
  }
  if (name == "tl.fdiv") {
    // Triton: both operands floating-point; ieee_rounding=True is the
    // IEEE-rounded division (div.rn, as tl.div_rn), False (default) may be
    // approximate (as `/`: div.full.f32 for fp32).
    TRY(s, bindArgs(*this, args, {"x", "y", "ieee_rounding"}, 2, "fdiv", l));
    for (int i = 0; i < 2; ++i) {
      Type et = elementTypeOf(*s[i]);
      if (s[i]->kind == K::Float)
        continue;
      if (!et || !isa<FloatType>(et) || isa<Float8E4M3FNType, Float8E5M2Type>(et)) {
        error(l) << "expected floating-point operands of tl.fdiv (fp16, bf16, "
                    "fp32, fp64), found "
                 << s[i]->describe() << " for " << (i ? "y" : "x");
        return failure();
      }
    }
    bool ieee = false;
    if (present(s[2])) {
      if (s[2]->kind != K::Bool) {
        error(l) << "expected a compile-time bool for ieee_rounding, found "
                 << s[2]->describe();
        return failure();
      }
      ieee = s[2]->b;
    }
    TRY(type, promote(*s[0], *s[1], true, l));
    TRY(xy, operandsAs({*s[0], *s[1]}, type, l));
    if (ieee)
      return PyValue::ofValue(arith::DivFOp::create(b, lc, xy[0], xy[1]));
    return PyValue::ofValue(arith::DivFOp::create(b, lc, xy[0], xy[1],
                                                  arith::FastMathFlags::afn));
  }
  if (name == "tl.fma") {
    TRY(s, bindArgs(*this, args, {"x", "y", "z"}, 3, "fma", l));
    TRY(t1, promote(*s[0], *s[1], false, l));
    TRY(t2, promote(*s[0], *s[2], false, l));
    Type et = isa<FloatType>(t1) ? t1 : t2;
    TRY(vs, operandsAs({*s[0], *s[1], *s[2]}, et, l));
    if (!isa<FloatType>(et)) {
      error(l) << "expected floating-point operands of tl.fma";
      return failure();
    }
    return PyValue::ofValue(math::FmaOp::create(b, lc, vs[0], vs[1], vs[2]));
  }
  if (name == "tl.cdiv") {
    TRY(s, bindArgs(*this, args, {"x", "div"}, 2, "cdiv", l));
    if (s[0]->kind == K::Int && s[1]->kind == K::Int) {
      // Python's (x + div - 1) // div without an intermediate overflow
      // (cdiv(2**63 - 1, 2) is 2**62).
      __int128 x = s[0]->i, d = s[1]->i;
      if (d == 0) {
        error(l) << "division by zero in a compile-time expression";
        return failure();
      }
      __int128 n = x + d - 1, q = n / d;
      if ((n % d != 0) && ((n < 0) != (d < 0)))
        --q; // floor
      if (q > INT64_MAX || q < INT64_MIN) {
        error(l) << "integer overflow in a compile-time expression (tilec's "
                    "compile-time integers are 64-bit)";
        return failure();
      }
      return PyValue::ofInt(int64_t(q));
    }
    // (x + div - 1) // div, folded for compile-time values.
    TRY(sum, binary(BinOpKind::Add, *s[0], *s[1], l));
    TRY(m1, binary(BinOpKind::Sub, sum, PyValue::ofInt(1), l));
    return binary(BinOpKind::FloorDiv, m1, *s[1], l);
  }
  if (name == "tl.pointer_type") {
    // Triton's pointer_type(element_ty, address_space=1, const=False): a
    // dtype for .to() (tutorial 08: an int64 address loaded from memory).
    TRY(s, bindArgs(*this, args, {"element_ty", "address_space", "const"}, 1,
                    "pointer_type", l));
    if (s[0]->kind != K::DType) {
      error(l) << "expected a dtype for pointer_type, found "
               << s[0]->describe();
      return failure();
    }
    if (present(s[1]) && !(s[1]->kind == K::Int && s[1]->i == 1)) {
      error(l) << "unimplemented: pointer_type in address space "
               << (s[1]->kind == K::Int ? std::to_string(s[1]->i)
                                        : s[1]->describe())
               << " (global memory, 1, only)";
      return failure();
    }
    if (present(s[2]) && s[2]->kind != K::Bool) {
      error(l) << "expected a compile-time bool for const, found "
               << s[2]->describe();
      return failure();
    }
    return PyValue::ofDType(tile::PtrType::get(ctx, s[0]->dtype));
  }
  if (name == "tl.cast") {
    TRY(s, bindArgs(*this, args, {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, "cast", l));
    CallArgs a;
    a.args.push_back(*s[1]);
    if (s[2])
      a.kwargs.emplace_back("fp_downcast_rounding", *s[2]);
    if (s[3])
      a.kwargs.emplace_back("bitcast", *s[3]);
    return callMethod("to", *s[0], a, l);
  }

  // --- shapes ---
  if (name == "tl.expand_dims") {
    TRY(s, bindArgs(*this, args, {"input", "axis"}, 2, "expand_dims", l));
    TRY(v, toValue(*s[0], l));
    if (s[1]->kind == K::Tuple) {
      Value cur = v;
      for (const PyValue &a : s[1]->elts) {
        TRY(ax, intArg(*this, a, "axis", l));
        TRY(e, expandDims(cur, ax, l));
        cur = e;
      }
      return PyValue::ofValue(cur, elementTypeOf(*s[0]));
    }
    TRY(axis, intArg(*this, s[1], "axis", l));
    TRY(e, expandDims(v, axis, l));
    return PyValue::ofValue(e, elementTypeOf(*s[0]));
  }
  if (name == "tl.broadcast_to" || name == "tl.reshape" || name == "tl.view") {
    if (args.args.empty()) {
      error(l) << name.substr(3) << "() missing required argument 'input'";
      return failure();
    }
    PyValue shapeV;
    if (args.args.size() == 2)
      shapeV = args.args[1];
    else {
      std::vector<PyValue> dims(args.args.begin() + 1, args.args.end());
      shapeV = PyValue::ofTuple(dims);
    }
    for (auto &[k, v] : args.kwargs)
      if (k == "shape")
        shapeV = v;
    TRY(shape, shapeArg(*this, shapeV, l));
    TRY(v, toValue(args.args[0], l));
    Type dtype = elementTypeOf(args.args[0]);
    if (name == "tl.broadcast_to") {
      TRY(r, broadcastTo(v, shape, l));
      return PyValue::ofValue(r, dtype);
    }
    auto t = dyn_cast<RankedTensorType>(v.getType());
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    if (!t || t.getNumElements() != n) {
      error(l) << "cannot reshape " << v.getType() << " to " << n
               << " elements";
      return failure();
    }
    return PyValue::ofValue(
        tile::ReshapeOp::create(
            b, lc, RankedTensorType::get(shape, t.getElementType()), v),
        dtype);
  }
  if (name == "tl.broadcast") {
    TRY(s, bindArgs(*this, args, {"input", "other"}, 2, "broadcast", l));
    TRY(x, toValue(*s[0], l));
    TRY(y, toValue(*s[1], l));
    Value xv = x, yv = y;
    if (failed(broadcastPair(xv, yv, l)))
      return failure();
    return PyValue::ofTuple({PyValue::ofValue(xv, elementTypeOf(*s[0])),
                             PyValue::ofValue(yv, elementTypeOf(*s[1]))});
  }

  return callExtendedBuiltin(name, args, l);
}
