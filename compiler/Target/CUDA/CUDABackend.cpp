//===- CUDABackend.cpp - SIMT IR to CUDA C++ --------------------*- C++ -*-===//
//
// One pass over each kernel's ops, in order: every SSA value becomes a local
// declared where it is defined (scf regions nest as C++ blocks, so dominance
// is scope), `scf.for` a `for` loop whose iteration arguments are variables
// updated at its end, `scf.if` an `if` assigning its results. Vectors (the
// lanes a thread holds) are a small aggregate with one element per lane
// (`tilec_vec<T, N>`), their element-wise ops loops over the lanes.
//
// Integer arithmetic wraps as LLVM's does: adds, subtractions, multiplies
// and left shifts go through the unsigned type (signed overflow is
// undefined in C++). Floating point follows nvcc's defaults, as the PTX
// backend's (IEEE division and square root, fma contraction allowed).
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/CUDA/CUDABackend.h"
#include "compiler/Target/KernelMetadata.h"
#include "compiler/Target/PTX/GraphMetadata.h"
#include "passes/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>

using namespace mlir;
using namespace tilec;

namespace {

/// What every file starts with: the lane aggregate and bit casts.
constexpr const char *kPrelude = R"cuda(
// Outputs an instruction writes that nothing reads (an atomic's old value)
// are variables set (550) or declared (177) and never used: no warning.
#pragma nv_diag_suppress 550
#pragma nv_diag_suppress 177
// Lanes a thread holds (an LLVM vector): element i is e[i].
template <typename T, int N> struct tilec_lanes_align {
  static constexpr int bytes = sizeof(T) * N;
  static constexpr int pow2 = bytes & -bytes; // largest power of 2 dividing
  static constexpr int value = pow2 >= 16 ? 16 : pow2;
};
template <typename T, int N>
struct alignas(tilec_lanes_align<T, N>::value) tilec_vec {
  T e[N];
};
// Reinterprets the bits of `from` (of the same size), through a union: nvcc
// and NVRTC both define it (NVRTC has no memcpy builtin).
template <typename To, typename From>
__device__ __forceinline__ To tilec_bitcast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bit cast of unequal sizes");
  union {
    From from;
    To to;
  } u;
  u.from = from;
  return u.to;
}
// f16 and bf16 values are their bits; arithmetic on them is PTX.
typedef unsigned short tilec_f16;
typedef unsigned short tilec_bf16;
// Two 16-bit lanes as one 32-bit word (a pair's f16x2 conversion or
// arithmetic), read and written through a type that may alias them.
typedef unsigned __attribute__((may_alias)) tilec_word;
// A TMA descriptor (CUDA's CUtensorMap: 128 opaque bytes, 64-aligned),
// passed as a __grid_constant__ parameter whose address the copies take.
struct alignas(64) tilec_tensormap {
  unsigned long long opaque[16];
};
)cuda";

/// Whether `n` is an ASCII C++ identifier (a variable, not a literal or
/// another expression: what an asm "+f" operand or `&n` needs).
static bool isIdentifier(StringRef n) {
  return !n.empty() && !llvm::isDigit(n[0]) &&
         llvm::all_of(n, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether `name` cannot be a parameter or kernel of the generated C++ as
/// it is: not an ASCII identifier, a C++ keyword or CUDA built-in, or one of
/// the names the printer generates (`v12`, `i`, `x_addr`, `tilec_*`).
bool isReservedName(StringRef name) {
  if (!isIdentifier(name))
    return true;
  static const llvm::StringSet<> kWords = {
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch",
      "char", "class", "const", "constexpr", "const_cast", "continue",
      "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
      "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
      "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
      "noexcept", "nullptr", "operator", "private", "protected", "public",
      "register", "reinterpret_cast", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
      "wchar_t", "while", "and", "or", "not", "xor", "bitand", "bitor", "compl",
      "and_eq", "or_eq", "xor_eq", "not_eq", "char8_t", "char16_t", "char32_t",
      "concept", "requires", "co_await", "co_return", "co_yield", "consteval",
      "constinit",
      // CUDA built-ins and functions the printed code calls or declares.
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "max", "min",
      "abs", "llabs", "fmaxf", "fminf", "fmax", "fmin", "i", "main", "printf",
      "vprintf", "malloc", "free", "memcpy", "memset", "assert", "dim3",
      // A local of the printed code's lambdas and pair loops.
      "r"};
  if (kWords.contains(name) || name.starts_with("tilec_") ||
      name.starts_with("__") || name.ends_with("_addr"))
    return true;
  // CUDA's vector types (float4, uchar2, ulonglong3, ...).
  static const llvm::Regex kVectorType(
      "^u?(char|short|int|long|longlong)[1-4]$|^(float|double)[1-4]$");
  if (kVectorType.match(name))
    return true;
  // Generated locals: a letter the printer uses, then digits.
  return name.size() > 1 && StringRef("vaicroby").contains(name[0]) &&
         llvm::all_of(name.drop_front(), llvm::isDigit);
}

/// `text` as the inside of a C string literal, byte for byte: a quote or
/// backslash escaped, every byte outside printable ASCII (and `?`, no
/// trigraphs) a three-digit octal escape. `readable` (asm text) writes a
/// newline and a tab as `\n` and `\t` and keeps `?`.
static std::string escapeCString(StringRef text, bool readable = false) {
  std::string s;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\')
      s += std::string("\\") + char(c);
    else if (readable && c == '\n')
      s += "\\n";
    else if (readable && c == '\t')
      s += "\\t";
    else if (c >= 0x20 && c < 0x7f && (readable || c != '?'))
      s += char(c);
    else
      s += std::string("\\") + char('0' + (c >> 6)) +
           char('0' + ((c >> 3) & 7)) + char('0' + (c & 7));
  }
  return s;
}

/// The C++ array of module global `symbol` (a constant string).
static std::string globalVar(StringRef symbol) {
  std::string s = "tilec_g_";
  for (char c : symbol)
    s += llvm::isAlnum(c) ? c : '_';
  return s;
}

class KernelEmitter {
public:
  KernelEmitter(gpu::GPUFuncOp func, raw_ostream &out, bool fpFusion,
                StringRef arch)
      : func(func), out(out), fpFusion(fpFusion), target(getTarget(arch)) {}
  LogicalResult emit();

private:
  // Types and names.
  FailureOr<std::string> typeName(Location loc, Type t);
  std::string scalarTypeName(Type t);
  std::string unsignedOf(Type t);
  std::string fresh(Value v, StringRef hint = "v");
  std::string name(Value v) { return names.lookup(v); }
  /// `name(v)` or, for a vector, its lane `lane` (`v.e[i]`).
  std::string lane(Value v, StringRef index) {
    return isa<VectorType>(v.getType()) ? name(v) + ".e[" + index.str() + "]"
                                        : name(v);
  }

  // Statements.
  raw_ostream &line() { return out.indent(indent); }
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitConstant(arith::ConstantOp op);
  LogicalResult emitFor(scf::ForOp op);
  LogicalResult emitIf(scf::IfOp op);
  LogicalResult emitWhile(scf::WhileOp op);
  LogicalResult emitLoopUpdate(ValueRange vars, ValueRange values);
  LogicalResult emitMulExtended(Operation *op);
  /// `prefix`: PTX printed first in the same asm statement.
  LogicalResult emitInlineAsm(LLVM::InlineAsmOp op, StringRef prefix = {});
  LogicalResult emitIntrinsic(LLVM::CallIntrinsicOp op);
  LogicalResult emitCall(LLVM::CallOp op);
  LogicalResult emitGEP(LLVM::GEPOp op);
  LogicalResult emitShuffle(gpu::ShuffleOp op);
  LogicalResult emitPrintf(gpu::PrintfOp op);
  /// NVVM ops: through upstream's PTX builder where the op has one, else
  /// as the PTX instruction NVPTX would select.
  LogicalResult emitNVVM(Operation *op);
  /// Pins, at the wgmma.fence `fence`, the f32 values computed from a
  /// wgmma.wait_group's results that are read after it (see the body).
  void pinAcrossWgmmaRun(Operation *fence);
  LogicalResult emitPtxBuilderOp(NVVM::BasicPtxBuilderInterface op);
  LogicalResult emitMma(NVVM::MmaOp op);
  LogicalResult emitLdMatrix(NVVM::LdMatrixOp op);
  /// Prints `asm volatile("text" : outs : ins : "memory");` (each entry of
  /// `outs`/`ins` a `"c"(expr)`).
  void emitAsm(StringRef text, ArrayRef<std::string> outs = {},
               ArrayRef<std::string> ins = {});
  /// The asm operand of a shared-memory pointer `v` (a .shared window
  /// address, 32-bit).
  std::string sharedAddress(Value v);
  /// Declares `v` as `type name = init;`.
  LogicalResult declare(Value v, StringRef init, StringRef hint = "v");
  /// Declares the vector `v` with lane i set to `laneExpr` (of `i`).
  LogicalResult declareLanes(Value v, StringRef laneExpr);
  /// Declares the vector `res` of 16-bit lanes, set two lanes at a time by
  /// `statement` (see the definition).
  LogicalResult emitPairLoop(Value res, StringRef statement);
  /// The scalar C++ expression of `op` (an element-wise op) on `operands`.
  FailureOr<std::string> scalarExpr(Operation *op, ArrayRef<std::string> a);
  InFlightDiagnostic unsupported(Operation *op);

  gpu::GPUFuncOp func;
  raw_ostream &out;
  bool fpFusion;
  /// Which PTX instructions exist (passes/Target.h).
  const TargetInfo &target;
  unsigned indent = 2;
  unsigned counter = 0;
  DenseMap<Value, std::string> names;
  /// The fields of an inline asm's struct result whose fields differ in
  /// type (no tilec_vec holds them): one variable each, read by
  /// llvm.extractvalue.
  DenseMap<Value, SmallVector<std::string>> structFields;
  /// A `wgmma.fence` not printed yet: folded into the asm of the
  /// wgmma.mma_async it orders (see hoistAboveFence).
  bool pendingFence = false;
  /// The values pinned at an earlier fence (pinAcrossWgmmaRun): computed
  /// before it, so before any later one too.
  DenseSet<Value> pinned;
  /// The last source line a comment named.
  std::string lastLoc;
};

InFlightDiagnostic KernelEmitter::unsupported(Operation *op) {
  // An op the lowering made without a location: at its kernel.
  Location loc = isa<UnknownLoc>(op->getLoc()) ? func.getLoc() : op->getLoc();
  return emitError(loc) << "'" << op->getName()
                        << "' is not supported by the CUDA C++ backend yet";
}

/// The C++ names of an integer (or index) type: signed, unsigned; null for
/// other types.
static std::pair<const char *, const char *> integerNames(Type t) {
  if (t.isIndex())
    return {"long long", "unsigned long long"};
  switch (t.isInteger() ? t.getIntOrFloatBitWidth() : 0) {
  case 1:
    return {"bool", "bool"};
  case 8:
    return {"signed char", "unsigned char"};
  case 16:
    return {"short", "unsigned short"};
  case 32:
    return {"int", "unsigned"};
  case 64:
    return {"long long", "unsigned long long"};
  default:
    return {nullptr, nullptr};
  }
}

std::string KernelEmitter::scalarTypeName(Type t) {
  if (const char *name = integerNames(t).first)
    return name;
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  if (t.isF16())
    return "tilec_f16";
  if (t.isBF16())
    return "tilec_bf16";
  if (auto p = dyn_cast<LLVM::LLVMPointerType>(t))
    // shared::cluster addresses are only asm operands: the 32-bit window
    // address (as mapa and cvta.shared::cluster.u32 give it).
    return p.getAddressSpace() == 7 ? "unsigned" : "char *";
  return "";
}

FailureOr<std::string> KernelEmitter::typeName(Location loc, Type t) {
  // Lanes: a vector, or a struct of one element type (registers an
  // instruction writes: an mma accumulator, a vector load).
  std::string elem;
  int64_t lanes = 0;
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    ArrayRef<Type> body = s.getBody();
    if (!body.empty() &&
        llvm::all_of(body, [&](Type f) { return f == body.front(); })) {
      elem = scalarTypeName(body.front());
      lanes = body.size();
    }
  } else if (auto v = dyn_cast<VectorType>(t)) {
    if (v.getRank() == 1 && !v.isScalable()) {
      elem = scalarTypeName(v.getElementType());
      lanes = v.getNumElements();
    }
  } else {
    elem = scalarTypeName(t);
  }
  if (elem.empty())
    return emitError(loc) << "type " << t
                          << " is not supported by the CUDA C++ backend yet";
  if (!lanes)
    return elem;
  return "tilec_vec<" + elem + ", " + std::to_string(lanes) + ">";
}

std::string KernelEmitter::unsignedOf(Type t) {
  if (const char *name = integerNames(t).second)
    return name;
  return scalarTypeName(t);
}

std::string KernelEmitter::fresh(Value v, StringRef hint) {
  std::string n = hint.str() + std::to_string(counter++);
  names[v] = n;
  return n;
}

LogicalResult KernelEmitter::declare(Value v, StringRef init, StringRef hint) {
  FailureOr<std::string> type = typeName(v.getLoc(), v.getType());
  if (failed(type))
    return failure();
  std::string n = fresh(v, hint);
  line() << *type << " " << n << " = " << init << ";\n";
  return success();
}

/// A C++ literal of `attr` (an integer or float) of type `t`.
static std::string literal(Attribute attr, Type t) {
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    if (t.isInteger(1))
      return i.getValue().isZero() ? "false" : "true";
    APInt v = i.getValue();
    if (t.isInteger(64) || t.isIndex()) {
      // -2^63 has no literal of its own.
      if (v.isMinSignedValue())
        return "(-9223372036854775807LL - 1)";
      return std::to_string(v.getSExtValue()) + "LL";
    }
    if (t.isInteger(32))
      return v.isMinSignedValue() ? "(-2147483647 - 1)"
                                  : std::to_string(v.getSExtValue());
    return "(" + std::string(t.isInteger(8) ? "signed char" : "short") + ")" +
           std::to_string(v.getSExtValue());
  }
  auto f = cast<FloatAttr>(attr);
  APFloat value = f.getValue();
  APInt bits = value.bitcastToAPInt();
  if ((t.isF32() || t.isF64()) && value.isFinite()) {
    // The shortest decimal that reads back as the same value.
    SmallString<32> text;
    value.toString(text, /*FormatPrecision=*/0, /*FormatMaxPadding=*/0);
    std::string s(text);
    if (s.find_first_of(".eE") == std::string::npos)
      s += ".0";
    return t.isF32() ? s + "f" : s;
  }
  if (t.isF32())
    return "__int_as_float(0x" + llvm::utohexstr(bits.getZExtValue()) + ")";
  if (t.isF64())
    return "__longlong_as_double(0x" + llvm::utohexstr(bits.getZExtValue()) +
           "LL)";
  // f16 / bf16: the bits.
  return "(unsigned short)0x" + llvm::utohexstr(bits.getZExtValue());
}

LogicalResult KernelEmitter::emitConstant(arith::ConstantOp op) {
  Type t = op.getType();
  if (auto v = dyn_cast<VectorType>(t)) {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense)
      return unsupported(op);
    FailureOr<std::string> type = typeName(op.getLoc(), t);
    if (failed(type))
      return failure();
    std::string n = fresh(op.getResult(), "c");
    line() << *type << " " << n << " = {{";
    Type elem = v.getElementType();
    llvm::interleaveComma(dense.getValues<Attribute>(), out,
                          [&](Attribute a) { out << literal(a, elem); });
    out << "}};\n";
    return success();
  }
  // Scalars are inlined at their uses.
  names[op.getResult()] = literal(op.getValue(), t);
  return success();
}

/// The C++ comparison `l pred r` of two floats (ordered: false on NaN;
/// unordered: true on NaN).
static FailureOr<std::string> cmpfExpr(arith::CmpFPredicate pred,
                                       const std::string &l,
                                       const std::string &r) {
  using P = arith::CmpFPredicate;
  auto ordered = [&](StringRef sym) {
    return "(" + l + " " + sym.str() + " " + r + ")";
  };
  auto unordered = [&](StringRef sym) {
    return "!(" + l + " " + sym.str() + " " + r + ")";
  };
  switch (pred) {
  case P::OEQ:
    return ordered("==");
  case P::OGT:
    return ordered(">");
  case P::OGE:
    return ordered(">=");
  case P::OLT:
    return ordered("<");
  case P::OLE:
    return ordered("<=");
  case P::ONE:
    return "(" + l + " < " + r + " || " + l + " > " + r + ")";
  case P::ORD:
    return "(" + l + " == " + l + " && " + r + " == " + r + ")";
  case P::UEQ:
    return "!(" + l + " < " + r + " || " + l + " > " + r + ")";
  case P::UGT:
    return unordered("<=");
  case P::UGE:
    return unordered("<");
  case P::ULT:
    return unordered(">=");
  case P::ULE:
    return unordered(">");
  case P::UNE:
    return ordered("!=");
  case P::UNO:
    return "(" + l + " != " + l + " || " + r + " != " + r + ")";
  case P::AlwaysTrue:
    return std::string("true");
  case P::AlwaysFalse:
    return std::string("false");
  }
  return failure();
}

/// The PTX instruction (without operands) of the f16/bf16 arithmetic op
/// `op` on type `h` ("f16", "bf16"; "f16x2", "bf16x2" for two lanes): the
/// rounding modifier only without fp fusion, as NVPTX selects them so that
/// ptxas may contract (PTX ISA 9.7.4, half precision). None for other ops.
static std::optional<std::string> halfInstruction(Operation *op, StringRef h,
                                                  bool fpFusion) {
  std::string rn = fpFusion ? "" : ".rn";
  std::string t = "." + h.str();
  return llvm::TypeSwitch<Operation *, std::optional<std::string>>(op)
      .Case([&](arith::AddFOp) { return "add" + rn + t; })
      .Case([&](arith::SubFOp) { return "sub" + rn + t; })
      .Case([&](arith::MulFOp) { return "mul" + rn + t; })
      .Case([&](math::FmaOp) { return "fma.rn" + t; })
      .Case([&](arith::NegFOp) { return "neg" + t; })
      .Case([&](arith::MaxNumFOp) { return "max" + t; })
      .Case([&](arith::MinNumFOp) { return "min" + t; })
      .Case([&](arith::MaximumFOp) { return "max.NaN" + t; })
      .Case([&](arith::MinimumFOp) { return "min.NaN" + t; })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<std::string> KernelEmitter::scalarExpr(Operation *op,
                                                 ArrayRef<std::string> a) {
  Type resType = getElementTypeOrSelf(op->getResult(0).getType());
  Type inType = op->getNumOperands()
                    ? getElementTypeOrSelf(op->getOperand(0).getType())
                    : resType;
  std::string T = scalarTypeName(resType), U = unsignedOf(resType);
  // Narrow types promote to int in C++: wrap them through 32 bits.
  std::string W = resType.isInteger(8) || resType.isInteger(16)
                      ? std::string("unsigned")
                      : U;
  std::string inU = unsignedOf(inType);
  auto wrap = [&](StringRef sym) -> std::string {
    if (resType.isInteger(1))
      return "(" + a[0] + (sym == "*" ? " & " : " ^ ") + a[1] + ")";
    return "(" + T + ")((" + W + ")" + a[0] + " " + sym.str() + " (" + W + ")" +
           a[1] + ")";
  };
  auto bin = [&](StringRef sym) {
    return "(" + a[0] + " " + sym.str() + " " + a[1] + ")";
  };
  auto unsignedBin = [&](StringRef sym) {
    return "(" + T + ")((" + U + ")" + a[0] + " " + sym.str() + " (" + U + ")" +
           a[1] + ")";
  };
  auto call = [&](StringRef fn) {
    return fn.str() + "(" + llvm::join(a, ", ") + ")";
  };
  // PTX for what C++ lacks (f16 arithmetic, NaN-propagating min/max).
  auto ptx = [&](StringRef text, StringRef c) -> std::string {
    std::string s = "[&] { " + T + " r; asm(\"" + text.str() +
                    "\" : \"=" + c.str() + "\"(r)";
    for (size_t i = 0; i < a.size(); ++i)
      s += (i ? ", " : " : ") + ("\"" + c.str() + "\"(" + a[i] + ")");
    return s + "); return r; }()";
  };
  bool isF32 = resType.isF32();
  // Without fp fusion every multiply and add rounds (as the PTX backend's
  // .rn): nvcc and NVRTC contract `a * b + c` otherwise.
  auto fbin = [&](StringRef sym, StringRef rn) {
    if (fpFusion || (!isF32 && !resType.isF64()))
      return bin(sym);
    return (isF32 ? "__f" : "__d") + rn.str() + "_rn(" + a[0] + ", " + a[1] +
           ")";
  };
  // i1 is signed in LLVM (true is -1): signed ops on it are not C++'s
  // (signed compares are printed reversed, below).
  if (inType.isInteger(1) &&
      isa<arith::SIToFPOp, arith::MaxSIOp, arith::MinSIOp, arith::DivSIOp,
          arith::RemSIOp, arith::ShRSIOp>(op))
    return failure();
  // f16/bf16 arithmetic: PTX's instructions on the bits (sm_80 and newer;
  // the rounding modifier only without fp fusion, as NVPTX selects them so
  // that ptxas may contract); division and comparisons through f32, as
  // NVPTX promotes them.
  if ((inType.isF16() || inType.isBF16()) &&
      (resType == inType || isa<arith::CmpFOp>(op))) {
    std::string h = inType.isF16() ? "f16" : "bf16";
    auto toF32 = [&](const std::string &x) {
      return "[&] { float r; asm(\"cvt.f32." + h +
             " %0, %1;\" : \"=f\"(r) : \"h\"(" + x + ")); return r; }()";
    };
    std::optional<std::string> text = halfInstruction(op, h, fpFusion);
    // bf16 add, sub and mul are sm_90's; before it, fma with 1.0, -1.0 or
    // -0.0 (exact, as NVPTX selects them).
    if (h == "bf16" && !target.hasBf16Arithmetic() &&
        isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op)) {
      const char *k = isa<arith::AddFOp>(op)   ? "0x3F80"
                      : isa<arith::SubFOp>(op) ? "0xBF80"
                                               : "0x8000";
      std::string fma = isa<arith::MulFOp>(op)
                            ? "fma.rn.bf16 %0, %1, %2, tilec_k;"
                            : "fma.rn.bf16 %0, %2, tilec_k, %1;";
      return ptx(std::string("{ .reg .b16 tilec_k; mov.b16 tilec_k, ") + k +
                     "; " + fma + " }",
                 "h");
    }
    if (text) {
      std::string ops = " %0";
      for (size_t i = 0; i < a.size(); ++i)
        ops += ", %" + std::to_string(i + 1);
      return ptx(*text + ops + ";", "h");
    }
    if (isa<arith::DivFOp>(op))
      return ptx("{ .reg .f32 tilec_a, tilec_b; cvt.f32." + h +
                     " tilec_a, %1; cvt.f32." + h +
                     " tilec_b, %2; div.rn.f32 tilec_a, tilec_a, tilec_b; "
                     "cvt.rn." +
                     h + ".f32 %0, tilec_a; }",
                 "h");
    if (auto c = dyn_cast<arith::CmpFOp>(op))
      return cmpfExpr(c.getPredicate(), toF32(a[0]), toF32(a[1]));
  }
  // Integers to and from f16/bf16: one cvt each way, as NVPTX selects them
  // (PTX ISA 9.7.9.21): cvt.rn.{f16,bf16}.{s,u}{16,32,64} and
  // cvt.rzi.{s,u}{16,32,64}.{f16,bf16}, 8-bit integers through 16 bits;
  // bf16 before sm_90 through f32, as NVPTX promotes it there.
  bool toHalf = isa<arith::SIToFPOp, arith::UIToFPOp>(op) &&
                (resType.isF16() || resType.isBF16());
  bool fromHalf = isa<arith::FPToSIOp, arith::FPToUIOp>(op) &&
                  (inType.isF16() || inType.isBF16());
  if (toHalf || fromHalf) {
    Type half = toHalf ? resType : inType;
    unsigned w = (toHalf ? inType : resType).getIntOrFloatBitWidth();
    if (fromHalf && w == 1)
      return failure();
    bool isSigned = isa<arith::SIToFPOp, arith::FPToSIOp>(op);
    unsigned pw = std::max(w, 16u);
    std::string it = (isSigned ? "s" : "u") + std::to_string(pw);
    std::string ic = pw == 64 ? "l" : pw == 32 ? "r" : "h";
    std::string ct =
        std::string(isSigned ? "" : "unsigned ") + (pw == 64   ? "long long"
                                                    : pw == 32 ? "int"
                                                               : "short");
    if (!isSigned && pw == 32)
      ct = "unsigned";
    std::string h = half.isF16() ? "f16" : "bf16";
    bool viaF32 = half.isBF16() && !target.hasBf16Arithmetic();
    if (toHalf) {
      // Widened as the source's signedness says (uitofp of an i8 is of
      // its unsigned value).
      std::string x =
          isSigned ? "(" + ct + ")" + a[0] : "(" + ct + ")(" + inU + ")" + a[0];
      std::string cvt = viaF32
                            ? "{ .reg .f32 tilec_f; cvt.rn.f32." + it +
                                  " tilec_f, %1; cvt.rn.bf16.f32 %0, tilec_f; }"
                            : "cvt.rn." + h + "." + it + " %0, %1;";
      return "[&] { unsigned short r; asm(\"" + cvt + "\" : \"=h\"(r) : \"" +
             ic + "\"(" + x + ")); return r; }()";
    }
    std::string cvt = viaF32 ? "{ .reg .f32 tilec_f; cvt.f32.bf16 tilec_f, "
                               "%1; cvt.rzi." +
                                   it + ".f32 %0, tilec_f; }"
                             : "cvt.rzi." + it + "." + h + " %0, %1;";
    return "(" + T + ")[&] { " + ct + " r; asm(\"" + cvt + "\" : \"=" + ic +
           "\"(r) : \"h\"(" + a[0] + ")); return r; }()";
  }
  // Other f16/bf16 operands are bits: only conversions to f32 read them.
  if ((inType.isF16() || inType.isBF16()) &&
      !isa<arith::ExtFOp, arith::BitcastOp, arith::SelectOp>(op))
    return failure();
  // i1 and/or/xor on the bool lanes as &&, ||, !=: the bitwise operators
  // widen bools to int, and NVVM's form of a widened compare is arithmetic
  // (x >= 0 as ~x >> 31), so masks were combined in 16-bit registers where
  // NVPTX keeps predicates (docs/architecture.md, CUDA backend, (6)).
  bool isBool = resType.isInteger(1);
  StringRef n = op->getName().getStringRef();
  if (resType.isF16() || resType.isBF16() ||
      ((n == "arith.cmpf") && (inType.isF16() || inType.isBF16())))
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp, arith::SelectOp>(
            op))
      return failure();
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](arith::AddIOp) { return wrap("+"); })
      .Case([&](arith::SubIOp) { return wrap("-"); })
      .Case([&](arith::MulIOp) { return wrap("*"); })
      .Case([&](arith::DivSIOp) { return bin("/"); })
      .Case([&](arith::RemSIOp) { return bin("%"); })
      .Case([&](arith::DivUIOp) { return unsignedBin("/"); })
      .Case([&](arith::RemUIOp) { return unsignedBin("%"); })
      .Case([&](arith::AndIOp) { return bin(isBool ? "&&" : "&"); })
      .Case([&](arith::OrIOp) { return bin(isBool ? "||" : "|"); })
      .Case([&](arith::XOrIOp) { return bin(isBool ? "!=" : "^"); })
      .Case([&](arith::ShLIOp) {
        return "(" + T + ")((" + U + ")" + a[0] + " << " + a[1] + ")";
      })
      .Case([&](arith::ShRUIOp) {
        return "(" + T + ")((" + U + ")" + a[0] + " >> " + a[1] + ")";
      })
      .Case([&](arith::ShRSIOp) { return bin(">>"); })
      .Case([&](arith::MaxSIOp) { return call("max"); })
      .Case([&](arith::MinSIOp) { return call("min"); })
      .Case([&](arith::MaxUIOp) {
        return "(" + T + ")max((" + U + ")" + a[0] + ", (" + U + ")" + a[1] +
               ")";
      })
      .Case([&](arith::MinUIOp) {
        return "(" + T + ")min((" + U + ")" + a[0] + ", (" + U + ")" + a[1] +
               ")";
      })
      .Case([&](arith::CmpIOp c) -> FailureOr<std::string> {
        using P = arith::CmpIPredicate;
        std::string l = a[0], r = a[1];
        P p = c.getPredicate();
        if (p == P::ult || p == P::ule || p == P::ugt || p == P::uge) {
          l = "(" + inU + ")" + l;
          r = "(" + inU + ")" + r;
        }
        // On i1, signed order is the reverse of a bool's (true, -1, is the
        // smaller): slt is `>` (tile IR may say so; the front end orders i1
        // as unsigned, as Triton does).
        if (inType.isInteger(1)) {
          switch (p) {
          case P::slt:
            p = P::ugt;
            break;
          case P::sle:
            p = P::uge;
            break;
          case P::sgt:
            p = P::ult;
            break;
          case P::sge:
            p = P::ule;
            break;
          default:
            break;
          }
        }
        StringRef sym =
            llvm::StringSwitch<StringRef>(arith::stringifyCmpIPredicate(p))
                .Case("eq", "==")
                .Case("ne", "!=")
                .Cases({"slt", "ult"}, "<")
                .Cases({"sle", "ule"}, "<=")
                .Cases({"sgt", "ugt"}, ">")
                .Default(">=");
        return "(" + l + " " + sym.str() + " " + r + ")";
      })
      .Case([&](arith::SelectOp) {
        return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
      })
      .Case([&](arith::ExtSIOp) -> std::string {
        if (inType.isInteger(1))
          return "(" + a[0] + " ? (" + T + ")-1 : (" + T + ")0)";
        return "(" + T + ")" + a[0];
      })
      .Case([&](arith::ExtUIOp) -> std::string {
        return "(" + T + ")(" + inU + ")" + a[0];
      })
      .Case([&](arith::TruncIOp) -> std::string {
        if (resType.isInteger(1))
          return "(bool)(" + a[0] + " & 1)";
        return "(" + T + ")" + a[0];
      })
      .Case([&](arith::IndexCastOp) { return "(" + T + ")" + a[0]; })
      .Case([&](arith::IndexCastUIOp) -> std::string {
        return "(" + T + ")(" + inU + ")" + a[0];
      })
      .Case([&](arith::SIToFPOp) { return "(" + T + ")" + a[0]; })
      .Case([&](arith::UIToFPOp) -> std::string {
        return "(" + T + ")(" + inU + ")" + a[0];
      })
      .Case([&](arith::FPToSIOp) { return "(" + T + ")" + a[0]; })
      .Case([&](arith::FPToUIOp) -> std::string {
        return "(" + T + ")(" + U + ")" + a[0];
      })
      .Case([&](arith::ExtFOp) -> FailureOr<std::string> {
        if (inType.isF32() && resType.isF64())
          return "(double)" + a[0];
        if ((inType.isF16() || inType.isBF16()) &&
            (resType.isF32() || resType.isF64())) {
          // To f64 through f32: both steps exact.
          std::string s = "[&] { float r; asm(\"cvt.f32." +
                          std::string(inType.isF16() ? "f16" : "bf16") +
                          " %0, %1;\" : \"=f\"(r) : \"h\"(" + a[0] +
                          ")); return r; }()";
          return resType.isF64() ? "(double)" + s : s;
        }
        return failure();
      })
      .Case([&](arith::TruncFOp) -> FailureOr<std::string> {
        if (inType.isF64() && resType.isF32())
          return "(float)" + a[0];
        if (inType.isF32() && (resType.isF16() || resType.isBF16()))
          return "[&] { unsigned short r; asm(\"cvt.rn." +
                 std::string(resType.isF16() ? "f16" : "bf16") +
                 ".f32 %0, %1;\" : \"=h\"(r) : \"f\"(" + a[0] +
                 ")); return r; }()";
        return failure();
      })
      .Case([&](arith::BitcastOp) -> std::string {
        return "tilec_bitcast<" + T + ">(" + a[0] + ")";
      })
      .Case([&](arith::AddFOp) { return fbin("+", "add"); })
      .Case([&](arith::SubFOp) { return fbin("-", "sub"); })
      .Case([&](arith::MulFOp) { return fbin("*", "mul"); })
      .Case([&](arith::DivFOp) { return bin("/"); })
      .Case([&](arith::RemFOp) { return call(isF32 ? "fmodf" : "fmod"); })
      .Case([&](arith::NegFOp) { return "(-" + a[0] + ")"; })
      .Case([&](arith::MaxNumFOp) { return call(isF32 ? "fmaxf" : "fmax"); })
      .Case([&](arith::MinNumFOp) { return call(isF32 ? "fminf" : "fmin"); })
      .Case([&](arith::MaximumFOp) -> FailureOr<std::string> {
        if (!isF32)
          return failure();
        return ptx("max.NaN.f32 %0, %1, %2;", "f");
      })
      .Case([&](arith::MinimumFOp) -> FailureOr<std::string> {
        if (!isF32)
          return failure();
        return ptx("min.NaN.f32 %0, %1, %2;", "f");
      })
      .Case([&](arith::CmpFOp c) -> FailureOr<std::string> {
        return cmpfExpr(c.getPredicate(), a[0], a[1]);
      })
      .Case([&](math::ExpOp) { return call(isF32 ? "expf" : "exp"); })
      .Case([&](math::Exp2Op) { return call(isF32 ? "exp2f" : "exp2"); })
      .Case([&](math::LogOp) { return call(isF32 ? "logf" : "log"); })
      .Case([&](math::Log2Op) { return call(isF32 ? "log2f" : "log2"); })
      .Case([&](math::Log1pOp) { return call(isF32 ? "log1pf" : "log1p"); })
      .Case([&](math::SqrtOp) { return call(isF32 ? "sqrtf" : "sqrt"); })
      .Case([&](math::RsqrtOp) { return call(isF32 ? "rsqrtf" : "rsqrt"); })
      .Case([&](math::TanhOp) { return call(isF32 ? "tanhf" : "tanh"); })
      .Case([&](math::SinOp) { return call(isF32 ? "sinf" : "sin"); })
      .Case([&](math::CosOp) { return call(isF32 ? "cosf" : "cos"); })
      .Case([&](math::ErfOp) { return call(isF32 ? "erff" : "erf"); })
      .Case([&](math::AbsFOp) { return call(isF32 ? "fabsf" : "fabs"); })
      .Case([&](math::FloorOp) { return call(isF32 ? "floorf" : "floor"); })
      .Case([&](math::CeilOp) { return call(isF32 ? "ceilf" : "ceil"); })
      .Case([&](math::FmaOp) { return call(isF32 ? "fmaf" : "fma"); })
      .Case([&](math::PowFOp) { return call(isF32 ? "powf" : "pow"); })
      .Case([&](math::Atan2Op) { return call(isF32 ? "atan2f" : "atan2"); })
      .Case([&](math::CbrtOp) { return call(isF32 ? "cbrtf" : "cbrt"); })
      .Case([&](math::ErfcOp) { return call(isF32 ? "erfcf" : "erfc"); })
      .Case([&](math::SinhOp) { return call(isF32 ? "sinhf" : "sinh"); })
      .Case([&](math::CoshOp) { return call(isF32 ? "coshf" : "cosh"); })
      .Case([&](math::TanOp) { return call(isF32 ? "tanf" : "tan"); })
      .Case([&](math::AtanOp) { return call(isF32 ? "atanf" : "atan"); })
      .Case([&](math::AsinOp) { return call(isF32 ? "asinf" : "asin"); })
      .Case([&](math::AcosOp) { return call(isF32 ? "acosf" : "acos"); })
      .Case([&](math::ExpM1Op) { return call(isF32 ? "expm1f" : "expm1"); })
      .Case([&](math::Log10Op) { return call(isF32 ? "log10f" : "log10"); })
      .Case([&](math::RoundOp) { return call(isF32 ? "roundf" : "round"); })
      .Case([&](math::TruncOp) { return call(isF32 ? "truncf" : "trunc"); })
      .Case([&](math::AbsIOp) {
        return resType.isInteger(64) ? call("llabs") : call("abs");
      })
      .Default([](Operation *) { return failure(); });
}

LogicalResult KernelEmitter::emitElementwise(Operation *op) {
  Value res = op->getResult(0);
  auto vec = dyn_cast<VectorType>(res.getType());
  if (!vec) {
    SmallVector<std::string> a;
    for (Value v : op->getOperands())
      a.push_back(name(v));
    FailureOr<std::string> e = scalarExpr(op, a);
    if (failed(e))
      return unsupported(op);
    return declare(res, *e);
  }
  // f32 to f16/bf16 two lanes at a time, as NVPTX selects a vector
  // fptrunc: cvt.rn.{f16x2,bf16x2}.f32 d, a, b (PTX ISA 9.7.9.21; sm_80)
  // puts a in d's upper half, b in its lower.
  Type inElem = getElementTypeOrSelf(op->getOperand(0).getType());
  Type outElem = vec.getElementType();
  if (isa<arith::TruncFOp>(op) && inElem.isF32() &&
      (outElem.isF16() || outElem.isBF16()) && vec.getNumElements() % 2 == 0 &&
      !cast<arith::TruncFOp>(op).getRoundingmodeAttr()) {
    std::string in = name(op->getOperand(0));
    return emitPairLoop(res, std::string("asm(\"cvt.rn.") +
                                 (outElem.isF16() ? "f16x2" : "bf16x2") +
                                 ".f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(" +
                                 in + ".e[i + 1]), \"f\"(" + in + ".e[i]));");
  }
  // f16/bf16 arithmetic two lanes at a time, as NVPTX selects it for a
  // <2 x half> (LLVM may scalarize wider vectors first; ptxas contracts a
  // mul.f16x2 + add.f16x2 as it does the scalar ones):
  // {add,sub,mul,fma,neg,min,max}.{f16x2,bf16x2} on the pair's
  // 32-bit word (PTX ISA 9.7.4; the bf16x2 add, sub and mul are sm_90's).
  // Lane by lane, the pairs were split and rebuilt around every op.
  // NaN-propagating max/min stay lane by lane, as NVPTX leaves them (ptxas
  // pairs them into HMNMX2.NAN itself): a max.NaN.{f16x2,bf16x2} against
  // zero after an add is fused by ptxas into HFMA2.RELU, which ran
  // graph_epilogue's relu(2x + b) at 0.87-0.93x the NVPTX build on an H100
  // (the same kernel with the pair form, or NVPTX's PTX given it: the same
  // loss; docs/performance.md, issue 16, seventh part).
  std::optional<std::string> half;
  if ((outElem.isF16() || outElem.isBF16()) && inElem == outElem &&
      vec.getNumElements() % 2 == 0 &&
      !isa<arith::MaximumFOp, arith::MinimumFOp>(op) &&
      (outElem.isF16() || target.hasBf16Arithmetic() ||
       !isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op)) &&
      llvm::all_of(op->getOperands(),
                   [&](Value v) { return isIdentifier(name(v)); }))
    half = halfInstruction(op, outElem.isF16() ? "f16x2" : "bf16x2", fpFusion);
  if (half) {
    std::string ops = " %0";
    std::string ins;
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      ops += ", %" + std::to_string(i + 1);
      ins += std::string(i ? ", " : "") +
             "\"r\"(*reinterpret_cast<const tilec_word *>(&" + name(v) +
             ".e[i]))";
    }
    return emitPairLoop(res, "asm(\"" + *half + ops +
                                 ";\" : \"=r\"(r) : " + ins + ");");
  }
  SmallVector<std::string> a;
  for (Value v : op->getOperands())
    a.push_back(lane(v, "i"));
  FailureOr<std::string> e = scalarExpr(op, a);
  if (failed(e))
    return unsupported(op);
  return declareLanes(res, *e);
}

/// Declares the vector `res` (an even count of 16-bit lanes) and sets it a
/// pair of lanes at a time: `statement` (of the pair's first lane `i`)
/// sets `unsigned r`, stored as the pair's 32-bit word -- lanes i, i + 1
/// are 4-byte aligned (tilec_lanes_align) and tilec_word may alias them,
/// as cuda_fp16.hpp's __HALF2_TO_UI stores a __half2. (Stored as two
/// 16-bit halves, a pair took a shift and a byte permute to rebuild
/// wherever it is read as 32 bits again -- a wgmma A fragment, a vector
/// store: 16 PRMT and 16 SHF per k-step of the attention forward's SASS.)
LogicalResult KernelEmitter::emitPairLoop(Value res, StringRef statement) {
  auto vec = cast<VectorType>(res.getType());
  FailureOr<std::string> type = typeName(res.getLoc(), vec);
  if (failed(type))
    return failure();
  std::string n = fresh(res);
  line() << *type << " " << n << ";\n";
  line() << "#pragma unroll\n";
  line() << "for (int i = 0; i < " << vec.getNumElements() << "; i += 2) {\n";
  line() << "  unsigned r;\n";
  line() << "  " << statement << "\n";
  line() << "  *reinterpret_cast<tilec_word *>(&" << n << ".e[i]) = r;\n";
  line() << "}\n";
  return success();
}

LogicalResult KernelEmitter::declareLanes(Value v, StringRef laneExpr) {
  auto vec = cast<VectorType>(v.getType());
  FailureOr<std::string> type = typeName(v.getLoc(), vec);
  if (failed(type))
    return failure();
  std::string n = fresh(v);
  line() << *type << " " << n << ";\n";
  // Fully unrolled, whatever the lane's cost (an erff): a loop nvcc
  // leaves rolled indexes the lanes, and the vector goes to local memory
  // (1 KB of stack and half the speed in a GELU epilogue).
  line() << "#pragma unroll\n";
  line() << "for (int i = 0; i < " << vec.getNumElements() << "; ++i) " << n
         << ".e[i] = " << laneExpr << ";\n";
  return success();
}

/// A loop's iteration variables `vars` take `values`: through temporaries,
/// as the new values may read the old.
LogicalResult KernelEmitter::emitLoopUpdate(ValueRange vars,
                                            ValueRange values) {
  SmallVector<std::string> temps;
  for (Value v : values) {
    FailureOr<std::string> t = typeName(v.getLoc(), v.getType());
    if (failed(t))
      return failure();
    temps.push_back("y" + std::to_string(counter++));
    line() << *t << " " << temps.back() << " = " << name(v) << ";\n";
  }
  for (auto [var, tmp] : llvm::zip(vars, temps))
    line() << name(var) << " = " << tmp << ";\n";
  return success();
}

LogicalResult KernelEmitter::emitFor(scf::ForOp op) {
  // Iteration arguments: variables before the loop, the results after it.
  for (auto [arg, init, res] :
       llvm::zip(op.getRegionIterArgs(), op.getInitArgs(), op.getResults())) {
    if (failed(declare(arg, name(init), "a")))
      return failure();
    names[res] = name(arg);
  }
  FailureOr<std::string> ivType =
      typeName(op.getLoc(), op.getInductionVar().getType());
  if (failed(ivType))
    return failure();
  std::string iv = fresh(op.getInductionVar(), "i");
  std::string ub = name(op.getUpperBound());
  std::string cmp = iv + " < " + ub;
  if (op.getUnsignedCmp())
    cmp = "(" + unsignedOf(op.getInductionVar().getType()) + ")" + iv + " < (" +
          unsignedOf(op.getInductionVar().getType()) + ")" + ub;
  line() << "for (" << *ivType << " " << iv << " = " << name(op.getLowerBound())
         << "; " << cmp << "; " << iv << " += " << name(op.getStep())
         << ") {\n";
  indent += 2;
  if (failed(emitBlock(*op.getBody())))
    return failure();
  auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
  if (failed(emitLoopUpdate(op.getRegionIterArgs(), yield.getOperands())))
    return failure();
  indent -= 2;
  line() << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp op) {
  SmallVector<std::string> vars;
  for (Value r : op.getResults()) {
    FailureOr<std::string> t = typeName(op.getLoc(), r.getType());
    if (failed(t))
      return failure();
    std::string n = fresh(r, "r");
    line() << *t << " " << n << ";\n";
    vars.push_back(n);
  }
  auto branch = [&](Region &region) -> LogicalResult {
    indent += 2;
    Block &block = region.front();
    if (failed(emitBlock(block)))
      return failure();
    if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
      for (auto [var, v] : llvm::zip(vars, yield.getOperands()))
        line() << var << " = " << name(v) << ";\n";
    indent -= 2;
    return success();
  };
  line() << "if (" << name(op.getCondition()) << ") {\n";
  if (failed(branch(op.getThenRegion())))
    return failure();
  if (!op.getElseRegion().empty()) {
    line() << "} else {\n";
    if (failed(branch(op.getElseRegion())))
      return failure();
  }
  line() << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitWhile(scf::WhileOp op) {
  // while (true) { before; if (!cond) { results = args; break; } after; }
  for (auto [arg, init] : llvm::zip(op.getBeforeArguments(), op.getInits()))
    if (failed(declare(arg, name(init), "a")))
      return failure();
  SmallVector<std::string> results;
  for (Value r : op.getResults()) {
    FailureOr<std::string> t = typeName(op.getLoc(), r.getType());
    if (failed(t))
      return failure();
    results.push_back(fresh(r, "r"));
    line() << *t << " " << results.back() << ";\n";
  }
  line() << "while (true) {\n";
  indent += 2;
  if (failed(emitBlock(*op.getBeforeBody())))
    return failure();
  scf::ConditionOp cond = op.getConditionOp();
  line() << "if (!" << name(cond.getCondition()) << ") {\n";
  for (auto [r, v] : llvm::zip(results, cond.getArgs()))
    line() << "  " << r << " = " << name(v) << ";\n";
  line() << "  break;\n";
  line() << "}\n";
  for (auto [arg, v] : llvm::zip(op.getAfterArguments(), cond.getArgs()))
    if (failed(declare(arg, name(v), "a")))
      return failure();
  if (failed(emitBlock(*op.getAfterBody())))
    return failure();
  if (failed(emitLoopUpdate(op.getBeforeArguments(),
                            op.getYieldOp().getOperands())))
    return failure();
  indent -= 2;
  line() << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitMulExtended(Operation *op) {
  // The low half wraps; the high half is __[u]mulhi / __[u]mul64hi.
  Type t = getElementTypeOrSelf(op->getResult(0).getType());
  bool isSigned = isa<arith::MulSIExtendedOp>(op);
  if (!t.isInteger(32) && !t.isInteger(64))
    return unsupported(op);
  std::string T = scalarTypeName(t), U = unsignedOf(t);
  std::string hi = t.isInteger(32) ? (isSigned ? "__mulhi" : "__umulhi")
                                   : (isSigned ? "__mul64hi" : "__umul64hi");
  auto expr = [&](StringRef a, StringRef b, bool high) -> std::string {
    if (!high)
      return "(" + T + ")((" + U + ")" + a.str() + " * (" + U + ")" + b.str() +
             ")";
    if (isSigned)
      return hi + "(" + a.str() + ", " + b.str() + ")";
    return "(" + T + ")" + hi + "((" + U + ")" + a.str() + ", (" + U + ")" +
           b.str() + ")";
  };
  for (int high = 0; high < 2; ++high) {
    Value res = op->getResult(high);
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (isa<VectorType>(res.getType())) {
      if (failed(declareLanes(res, expr(lane(a, "i"), lane(b, "i"), high))))
        return failure();
    } else if (failed(declare(res, expr(name(a), name(b), high)))) {
      return failure();
    }
  }
  return success();
}

/// The CUDA constraint letter of an operand or result of type `t`.
static StringRef constraintOf(Type t) {
  if (t.isInteger(16) || t.isF16() || t.isBF16())
    return "h";
  if (t.isInteger(32) || t.isInteger(1))
    return "r";
  if (t.isInteger(64) || isa<LLVM::LLVMPointerType>(t))
    return "l";
  if (t.isF32())
    return "f";
  if (t.isF64())
    return "d";
  return "";
}

/// The bits of a register operand of type `t` (a scalar or a vector of
/// scalars: `vector<2xf16>` under "r"); 0 if not such a type.
static unsigned registerBits(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getRank() == 1 && !v.isScalable() &&
                   v.getElementType().isIntOrFloat()
               ? unsigned(v.getNumElements()) *
                     v.getElementType().getIntOrFloatBitWidth()
               : 0;
  return t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
}

/// The unsigned integer type of a register constraint letter ("h", "r",
/// "l") and its bits; {nullptr, 0} for another letter.
static std::pair<const char *, unsigned> registerOfLetter(StringRef c) {
  if (c == "h")
    return {"unsigned short", 16};
  if (c == "r")
    return {"unsigned", 32};
  if (c == "l")
    return {"unsigned long long", 64};
  return {nullptr, 0};
}

LogicalResult KernelEmitter::emitInlineAsm(LLVM::InlineAsmOp op,
                                           StringRef prefix) {
  // LLVM's constraints: outputs ("=r"), inputs ("r", "b" for a predicate,
  // "n" for an immediate), clobbers ("~{memory}").
  SmallVector<StringRef> constraints;
  StringRef(op.getConstraints()).split(constraints, ',');
  SmallVector<Type> resultTypes;
  Type resType = op.getNumResults() ? op.getResult(0).getType() : Type();
  if (auto s = dyn_cast_or_null<LLVM::LLVMStructType>(resType))
    llvm::append_range(resultTypes, s.getBody());
  else if (resType)
    resultTypes.push_back(resType);
  // Operand i of the asm text: its C++ expression, constraint, and whether
  // it is a predicate (set up in, or copied out of, a .pred register).
  struct Operand {
    std::string expr, constraint;
    std::string var;     // an output's variable
    std::string varType; // its C++ type
    /// An output or tied operand passed in an integer register of another
    /// type than its own (a `vector<2xf16>` or a float under "r"): the
    /// register's variable and type; `var` is bit-cast from it after the
    /// asm.
    std::string temp, tempType;
    bool pred = false, output = false;
    /// An i1 output in a 32-bit register ("=r"): `var` is the register's
    /// low bit, as NVPTX truncates it (a C++ bool is not a register).
    bool lowBit = false;
    /// An input tied to output `tied` ("0"): the output is read and written
    /// ("+f"), the input itself not passed.
    int tied = -1;
  };
  SmallVector<Operand> operands;
  // A struct result: one variable, its lanes the outputs.
  std::string structVar;
  // A struct of fields of different types (`inline_asm_elementwise` with
  // several dtypes): a variable per field, read by llvm.extractvalue only.
  bool mixed = resultTypes.size() > 1 && !llvm::all_equal(resultTypes);
  if (mixed) {
    for (Operation *user : op.getResult(0).getUsers()) {
      auto ev = dyn_cast<LLVM::ExtractValueOp>(user);
      if (!ev || ev.getPosition().size() != 1)
        return unsupported(user)
               << " (an inline asm's result of mixed types is read only "
                  "through llvm.extractvalue by this backend)";
    }
  } else if (isa_and_nonnull<LLVM::LLVMStructType>(resType)) {
    FailureOr<std::string> tn = typeName(op.getLoc(), resType);
    if (failed(tn))
      return failure();
    structVar = fresh(op.getResult(0), "o");
    line() << *tn << " " << structVar << ";\n";
  }
  bool memory = false;
  unsigned nextResult = 0, nextInput = 0;
  for (StringRef c : constraints) {
    c = c.trim();
    if (c.starts_with("~")) {
      memory |= c == "~{memory}";
      continue;
    }
    Operand o;
    if (c.consume_front("=")) {
      c.consume_front("&");
      if (nextResult >= resultTypes.size())
        return op.emitError("inline assembly with more outputs than results");
      Type t = resultTypes[nextResult++];
      o.output = true;
      o.pred = c == "b";
      std::string var;
      FailureOr<std::string> tn = typeName(op.getLoc(), t);
      if (failed(tn))
        return failure();
      if (mixed) {
        var = "o" + std::to_string(counter++);
        structFields[op.getResult(0)].push_back(var);
        line() << *tn << " " << var << ";\n";
      } else if (structVar.empty()) {
        var = fresh(op.getResult(0), "o");
        line() << *tn << " " << var << ";\n";
      } else {
        var = structVar + ".e[" + std::to_string(nextResult - 1) + "]";
      }
      o.var = var;
      o.varType = *tn;
      if (o.pred) {
        std::string tmp = "b" + std::to_string(counter++);
        line() << "int " << tmp << ";\n";
        o.expr = tmp;
        o.constraint = "=r";
      } else if (t.isInteger(1) && c == "r") {
        o.lowBit = true;
        o.temp = "t" + std::to_string(counter++);
        o.tempType = "unsigned";
        line() << "unsigned " << o.temp << ";\n";
        o.expr = o.temp;
        o.constraint = "=r";
      } else {
        o.expr = var;
        StringRef letter = constraintOf(t);
        if (letter.empty() || c != letter) {
          // Another register of the same bits (a vector<2xf16> or a float
          // under "=r"): written to a temporary of the register's type.
          auto [reg, bits] = registerOfLetter(c);
          if (!reg || bits != registerBits(t))
            return unsupported(op) << " (output constraint '=" << c
                                   << "' for a result of type " << t << ")";
          o.temp = "t" + std::to_string(counter++);
          o.tempType = reg;
          line() << reg << " " << o.temp << ";\n";
          o.expr = o.temp;
        }
        o.constraint = ("=" + c).str();
      }
    } else {
      if (nextInput >= op.getOperands().size())
        return op.emitError("inline assembly with more inputs than operands");
      Value v = op.getOperands()[nextInput++];
      o.pred = c == "b";
      unsigned k = 0;
      if (!c.getAsInteger(10, k)) {
        // Tied to output k: the output's variable (or register) starts as
        // this input.
        // (Of the same register kind: its type's letter, or the same bits
        // -- an f32 tied to an i32 output under "r" -- bit-cast.)
        bool same = k < operands.size() && operands[k].output &&
                    !operands[k].pred && operands[k].constraint.size() == 2;
        StringRef letter;
        if (same) {
          letter = StringRef(operands[k].constraint).substr(1);
          same = constraintOf(v.getType()) == letter ||
                 registerBits(v.getType()) == registerOfLetter(letter).second;
        }
        if (!same)
          return op.emitError("inline assembly operand tied to $")
                 << k << ", which is not an output of the same register kind";
        if (operands[k].lowBit)
          line() << operands[k].temp << " = (unsigned)" << name(v) << ";\n";
        else if (!operands[k].temp.empty())
          line() << operands[k].temp << " = tilec_bitcast<"
                 << operands[k].tempType << ">(" << name(v) << ");\n";
        else if (constraintOf(v.getType()) == letter)
          line() << operands[k].var << " = " << name(v) << ";\n";
        else
          line() << operands[k].var << " = tilec_bitcast<"
                 << operands[k].varType << ">(" << name(v) << ");\n";
        operands[k].constraint[0] = '+';
        o.tied = int(k);
      } else if (o.pred) {
        o.expr = "(int)" + name(v);
        o.constraint = "r";
      } else if (c == "n") {
        o.expr = name(v);
        o.constraint = "n";
      } else if (auto p = dyn_cast<LLVM::LLVMPointerType>(v.getType())) {
        // A shared-memory pointer: the .shared window address, as the PTX
        // backend passes it (a generic address is undefined there); a
        // shared::cluster one is that address already; a generic one its
        // 64 bits.
        unsigned space = p.getAddressSpace();
        if ((c != "l" && c != "r") || (c == "r" && space != 3 && space != 7))
          return unsupported(op);
        if (space == 3)
          o.expr = c == "r" ? sharedAddress(v)
                            : "__cvta_generic_to_shared(" + name(v) + ")";
        else if (space == 7)
          o.expr = (c == "l" ? "(unsigned long long)" : "") + name(v);
        else if (space == 0 || space == 1)
          o.expr = "(unsigned long long)" + name(v);
        else
          return unsupported(op);
        o.constraint = c.str();
      } else {
        StringRef letter = constraintOf(v.getType());
        auto [reg, bits] = registerOfLetter(c);
        if (!letter.empty() && c == letter) {
          o.expr = v.getType().isInteger(1) ? "(int)" + name(v) : name(v);
        } else if (reg && bits == registerBits(v.getType())) {
          // Another register of the same bits (a vector<2xf16> under "r"):
          // its bits.
          o.expr = std::string("tilec_bitcast<") + reg + ">(" + name(v) + ")";
        } else {
          return unsupported(op)
                 << " (input constraint '" << c << "' for an operand of type "
                 << v.getType() << ")";
        }
        o.constraint = c.str();
      }
    }
    operands.push_back(o);
  }
  // CUDA's numbering: the operands passed (tied inputs are not), in order;
  // a tied input is its output's number.
  SmallVector<unsigned> number(operands.size());
  unsigned passed = 0;
  for (auto [k, o] : llvm::enumerate(operands))
    number[k] = o.tied >= 0 ? number[o.tied] : passed++;
  // The text: $N -> %N (a predicate: a .pred register), % -> %%.
  std::string text;
  StringRef s = op.getAsmString();
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == '%') {
      text += "%%";
    } else if (ch == '$' && i + 1 < s.size() && s[i + 1] == '$') {
      text += '$';
      ++i;
    } else if (ch == '$' && i + 1 < s.size() && llvm::isDigit(s[i + 1])) {
      size_t j = i + 1;
      while (j < s.size() && llvm::isDigit(s[j]))
        ++j;
      unsigned k = 0;
      StringRef(s.data() + i + 1, j - i - 1).getAsInteger(10, k);
      if (k >= operands.size())
        return op.emitError("inline assembly refers to operand $")
               << k << " of " << operands.size();
      text += operands[k].pred ? "tilec_p" + std::to_string(k)
                               : "%" + std::to_string(number[k]);
      i = j - 1;
    } else if (ch == '$') {
      return op.emitError("inline assembly operand modifiers (${...}) are "
                          "not supported by the CUDA C++ backend yet");
    } else {
      text += ch;
    }
  }
  // Predicates: declared and set from (or copied to) their integers.
  std::string prologue, epilogue;
  for (auto [k, o] : llvm::enumerate(operands)) {
    if (!o.pred)
      continue;
    std::string p = "tilec_p" + std::to_string(k);
    std::string reg = "%" + std::to_string(number[k]);
    prologue += ".reg .pred " + p + ";\n\t";
    if (o.output)
      epilogue += "\n\tselp.u32 " + reg + ", 1, 0, " + p + ";";
    else
      prologue += "setp.ne.b32 " + p + ", " + reg + ", 0;\n\t";
  }
  if (!prologue.empty() || !epilogue.empty())
    text = "{\n\t" + prologue + text + epilogue + "\n\t}";
  bool sideEffects = op.getHasSideEffects() || !prefix.empty();
  text = prefix.str() + text;
  line() << "asm" << (sideEffects ? " volatile" : "") << "(\""
         << escapeCString(text, /*readable=*/true) << "\"";
  auto emitList = [&](bool outputs) {
    out << " :";
    bool first = true;
    for (const Operand &o : operands) {
      if (o.output != outputs || o.tied >= 0)
        continue;
      out << (first ? " " : ", ") << "\"" << o.constraint << "\"(" << o.expr
          << ")";
      first = false;
    }
  };
  emitList(true);
  emitList(false);
  // An asm with side effects may touch memory, as LLVM takes it (the PTX
  // backend's semantics): without the clobber, nvcc would move C++ loads
  // and stores across it (a shared load above an mbarrier wait).
  if (memory || sideEffects)
    out << " : \"memory\"";
  out << ");\n";
  for (const Operand &o : operands) {
    if (o.output && o.pred)
      line() << o.var << " = " << o.expr << " != 0;\n";
    else if (o.output && o.lowBit)
      line() << o.var << " = (bool)(" << o.temp << " & 1);\n";
    else if (o.output && !o.temp.empty())
      line() << o.var << " = tilec_bitcast<" << o.varType << ">(" << o.temp
             << ");\n";
  }
  return success();
}

LogicalResult KernelEmitter::emitIntrinsic(LLVM::CallIntrinsicOp op) {
  // NVVM intrinsics the lowering calls, as their PTX instruction.
  StringRef intr = op.getIntrin();
  static const std::map<std::string, std::string> kPTX = {
      {"llvm.nvvm.ex2.approx.f32", "ex2.approx.f32"},
      {"llvm.nvvm.ex2.approx.ftz.f32", "ex2.approx.ftz.f32"},
      {"llvm.nvvm.lg2.approx.f32", "lg2.approx.f32"},
      {"llvm.nvvm.lg2.approx.ftz.f32", "lg2.approx.ftz.f32"},
      {"llvm.nvvm.rcp.approx.ftz.f32", "rcp.approx.ftz.f32"},
      {"llvm.nvvm.rsqrt.approx.f32", "rsqrt.approx.f32"},
      {"llvm.nvvm.rsqrt.approx.ftz.f32", "rsqrt.approx.ftz.f32"},
      {"llvm.nvvm.sqrt.approx.f32", "sqrt.approx.f32"},
      {"llvm.nvvm.sin.approx.f32", "sin.approx.f32"},
      {"llvm.nvvm.cos.approx.f32", "cos.approx.f32"},
      {"llvm.nvvm.tanh.approx.f32", "tanh.approx.f32"},
  };
  auto it = kPTX.find(intr.str());
  if (it == kPTX.end() || op.getNumResults() != 1 || op.getArgs().size() != 1 ||
      !op.getResult(0).getType().isF32())
    return op.emitError("intrinsic '")
           << intr << "' is not supported by the CUDA C++ backend yet";
  std::string n = fresh(op.getResult(0));
  line() << "float " << n << ";\n";
  line() << "asm(\"" << it->second << " %0, %1;\" : \"=f\"(" << n
         << ") : \"f\"(" << name(op.getArgs()[0]) << "));\n";
  return success();
}

LogicalResult KernelEmitter::emitCall(LLVM::CallOp op) {
  std::optional<StringRef> callee = op.getCallee();
  // tl.device_assert's failure (--debug): CUDA's own __assertfail(message,
  // file, line, function, char size), declared in the file's prelude.
  if (callee == "__assertfail" && op.getNumResults() == 0 &&
      op.getArgOperands().size() == 5) {
    ValueRange a = op.getArgOperands();
    line() << "__assertfail(" << name(a[0]) << ", " << name(a[1])
           << ", (unsigned)" << name(a[2]) << ", " << name(a[3])
           << ", (unsigned long)" << name(a[4]) << ");\n";
    return success();
  }
  // libdevice (`__nv_expf`) is CUDA's math library under other names.
  if (!callee || !callee->starts_with("__nv_") || op.getNumResults() != 1)
    return unsupported(op);
  std::string fn = callee->drop_front(5).str();
  SmallVector<std::string> args;
  for (Value v : op.getArgOperands())
    args.push_back(name(v));
  return declare(op.getResult(), fn + "(" + llvm::join(args, ", ") + ")");
}

LogicalResult KernelEmitter::emitGEP(LLVM::GEPOp op) {
  // base + index * sizeof(element), in bytes.
  auto indices = op.getIndices();
  // All-zero indices (an array's first element: a string's start) are the
  // base itself.
  if (llvm::all_of(indices, [](auto i) {
        auto a = dyn_cast<IntegerAttr>(i);
        return a && a.getValue().isZero();
      }))
    return declare(op.getResult(), name(op.getBase()));
  if (indices.size() != 1)
    return unsupported(op);
  FailureOr<std::string> elem = typeName(op.getLoc(), op.getElemType());
  if (failed(elem))
    return failure();
  std::string index;
  if (auto v = dyn_cast<Value>(indices[0]))
    index = "(long long)" + name(v);
  else
    index = std::to_string(cast<IntegerAttr>(indices[0]).getInt()) + "LL";
  return declare(op.getResult(), name(op.getBase()) + " + " + index +
                                     " * (long long)sizeof(" + *elem + ")");
}

LogicalResult KernelEmitter::emitPrintf(gpu::PrintfOp op) {
  // tl.device_print (--debug): printf with C's argument promotions, as the
  // PTX backend's vprintf buffer has them (f32 as double).
  std::string call = "printf(\"" + escapeCString(op.getFormat()) + "\"";
  for (Value v : op.getArgs()) {
    Type t = v.getType();
    if (t.isF32())
      call += ", (double)" + name(v);
    else if (t.isInteger(1) || t.isInteger(8) || t.isInteger(16))
      call += ", (int)" + name(v);
    else if (t.isInteger(32) || t.isInteger(64) || t.isF64())
      call += ", " + name(v);
    else
      return unsupported(op);
  }
  line() << call << ");\n";
  return success();
}

LogicalResult KernelEmitter::emitShuffle(gpu::ShuffleOp op) {
  StringRef fn;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    fn = "__shfl_xor_sync";
    break;
  case gpu::ShuffleMode::DOWN:
    fn = "__shfl_down_sync";
    break;
  case gpu::ShuffleMode::UP:
    fn = "__shfl_up_sync";
    break;
  case gpu::ShuffleMode::IDX:
    fn = "__shfl_sync";
    break;
  }
  Type t = op.getValue().getType();
  if (!t.isF32() && !t.isInteger(32) && !t.isInteger(64) && !t.isF64())
    return unsupported(op);
  if (failed(declare(op.getShuffleResult(),
                     (fn + "(0xffffffffu, " + name(op.getValue()) + ", " +
                      name(op.getOffset()) + ", " + name(op.getWidth()) + ")")
                         .str())))
    return failure();
  // Every lane takes part (the lowering shuffles whole warps).
  names[op.getValid()] = "true";
  return success();
}

std::string KernelEmitter::sharedAddress(Value v) {
  return "(unsigned)__cvta_generic_to_shared(" + name(v) + ")";
}

void KernelEmitter::emitAsm(StringRef text, ArrayRef<std::string> outs,
                            ArrayRef<std::string> ins) {
  line() << "asm volatile(\"" << escapeCString(text, /*readable=*/true) << "\"";
  if (outs.empty() && ins.empty())
    out << " ::: ";
  else
    out << " : " << llvm::join(outs, ", ") << " : " << llvm::join(ins, ", ")
        << " : ";
  out << "\"memory\");\n";
}

LogicalResult
KernelEmitter::emitPtxBuilderOp(NVVM::BasicPtxBuilderInterface op) {
  // Upstream's PtxBuilder makes the llvm.inline_asm that NVVM-to-LLVM
  // would (with the operands' extractions and immediates before it); it is
  // printed as any other asm and erased again.
  Operation *nvvm = op.getOperation();
  PatternRewriter rewriter(nvvm->getContext());
  rewriter.setInsertionPoint(nvvm);
  Operation *before = nvvm->getPrevNode();
  SmallVector<std::pair<Value, NVVM::PTXRegisterMod>> values;
  NVVM::PtxBuilder builder(nvvm, rewriter);
  op.getAsmValues(rewriter, values);
  bool ok = true;
  for (auto &[v, mod] : values)
    ok &= succeeded(builder.insertValue(v, mod));
  Operation *asmOp = builder.build();
  // An op's read-write struct (wgmma's accumulator) comes back from
  // MLIR 22's builder nested in another struct: the asm returns the op's
  // own type, one register a field, as its outputs are.
  if (nvvm->getNumResults() == 1 && asmOp->getNumResults() == 1 &&
      asmOp->getResult(0).getType() != nvvm->getResult(0).getType()) {
    OperationState state(asmOp->getLoc(), asmOp->getName());
    state.addOperands(asmOp->getOperands());
    state.addAttributes(asmOp->getAttrs());
    state.addTypes(nvvm->getResultTypes());
    Operation *fixed = rewriter.create(state);
    asmOp->erase();
    asmOp = fixed;
  }
  SmallVector<Operation *> made;
  for (Operation *o = before ? before->getNextNode()
                             : &nvvm->getBlock()->front();
       o != nvvm; o = o->getNextNode())
    made.push_back(o);
  LogicalResult result = ok ? success() : unsupported(nvvm);
  // (The wgmma's asm takes a pending fence in emitOp, as any wgmma asm.)
  for (Operation *o : made)
    if (succeeded(result))
      result = emitOp(o);
  if (succeeded(result)) {
    if (asmOp->getNumResults() == nvvm->getNumResults())
      for (auto [from, to] : llvm::zip(nvvm->getResults(), asmOp->getResults()))
        names[from] = name(to);
    else if (nvvm->getNumResults())
      result = unsupported(nvvm);
  }
  for (Operation *o : llvm::reverse(made)) {
    for (Value r : o->getResults())
      structFields.erase(r); // no stale key for a later op at this address
    o->erase();
  }
  return result;
}

LogicalResult KernelEmitter::emitLdMatrix(NVVM::LdMatrixOp op) {
  // ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 (PTX ISA
  // 9.7.14.5.15): one 32-bit register per matrix.
  if (op.getEltType() != NVVM::LdStMatrixEltType::B16 ||
      op.getShape().getM() != 8 || op.getShape().getN() != 8)
    return unsupported(op);
  uint32_t num = op.getNum();
  FailureOr<std::string> t = typeName(op.getLoc(), op.getType());
  if (failed(t))
    return failure();
  std::string n = fresh(op.getResult(), "o");
  line() << *t << " " << n << ";\n";
  SmallVector<std::string> outs;
  std::string regs;
  for (uint32_t i = 0; i < num; ++i) {
    outs.push_back("\"=r\"(" +
                   (num == 1 ? n : n + ".e[" + std::to_string(i) + "]") + ")");
    regs += (i ? ", %" : "%") + std::to_string(i);
  }
  std::string text = llvm::formatv(
      "ldmatrix.sync.aligned.m8n8.x{0}{1}.shared.b16 {{{2}}, [%{3}];", num,
      op.getLayout() == NVVM::MMALayout::col ? ".trans" : "", regs, num);
  emitAsm(text, outs, {"\"r\"(" + sharedAddress(op.getPtr()) + ")"});
  return success();
}

/// The PTX type of mma.sync operand registers of type `t`, `attr` if given.
static std::string mmaTypeName(std::optional<NVVM::MMATypes> attr, Type t) {
  if (attr)
    return NVVM::stringifyMMATypes(*attr).str();
  Type e = getElementTypeOrSelf(t);
  if (e.isF16())
    return "f16";
  if (e.isBF16())
    return "bf16";
  if (e.isF32())
    return "f32";
  if (e.isF64())
    return "f64";
  if (e.isInteger(32))
    return "s32";
  return "";
}

LogicalResult KernelEmitter::emitMma(NVVM::MmaOp op) {
  // mma.sync.aligned.shape.alayout.blayout{.satfinite}.dtype.atype.btype
  // .ctype {d}, {a}, {b}, {c} (PTX ISA 9.7.14.5.14); registers of 32 bits
  // (two f16 lanes each) or one f32/f64.
  auto res = dyn_cast<LLVM::LLVMStructType>(op.getType());
  // b1 (its .xor.popc / .and.popc) is not printed yet.
  if (!res || op.getB1Op())
    return unsupported(op);
  std::string a = mmaTypeName(op.getMultiplicandAPtxType(),
                              op.getOperandA().front().getType());
  std::string b = mmaTypeName(op.getMultiplicandBPtxType(),
                              op.getOperandB().front().getType());
  std::string c = mmaTypeName(std::nullopt, op.getOperandC().front().getType());
  std::string d = mmaTypeName(std::nullopt, res.getBody().front());
  if (a.empty() || b.empty() || c.empty() || d.empty())
    return unsupported(op);
  FailureOr<std::string> t = typeName(op.getLoc(), res);
  if (failed(t))
    return failure();
  std::string n = fresh(op.getResult(), "o");
  line() << *t << " " << n << ";\n";
  SmallVector<std::string> outs, ins;
  unsigned reg = 0;
  auto list = [&](unsigned count) {
    std::string s = "{";
    for (unsigned i = 0; i < count; ++i)
      s += (i ? ", %" : "%") + std::to_string(reg++);
    return s + "}";
  };
  for (auto [i, f] : llvm::enumerate(res.getBody())) {
    StringRef letter = constraintOf(f);
    if (letter.empty())
      return unsupported(op);
    outs.push_back("\"=" + letter.str() + "\"(" + n + ".e[" +
                   std::to_string(i) + "])");
  }
  std::string dRegs = list(outs.size());
  auto inputs = [&](ValueRange vs) -> FailureOr<std::string> {
    for (Value v : vs) {
      Type vt = v.getType();
      auto vec = dyn_cast<VectorType>(vt);
      if (vec && vec.getNumElements() * vec.getElementTypeBitWidth() == 32)
        ins.push_back("\"r\"(tilec_bitcast<unsigned>(" + name(v) + "))");
      else if (StringRef letter = constraintOf(vt); !letter.empty())
        ins.push_back("\"" + letter.str() + "\"(" + name(v) + ")");
      else
        return failure();
    }
    return list(vs.size());
  };
  FailureOr<std::string> aRegs = inputs(op.getOperandA());
  FailureOr<std::string> bRegs =
      failed(aRegs) ? aRegs : inputs(op.getOperandB());
  FailureOr<std::string> cRegs =
      failed(bRegs) ? bRegs : inputs(op.getOperandC());
  if (failed(cRegs))
    return unsupported(op);
  NVVM::MMAShapeAttr shape = op.getShape();
  bool satfinite =
      op.getIntOverflowBehavior() == NVVM::MMAIntOverflow::satfinite;
  std::string text = llvm::formatv(
      "mma.sync.aligned.m{0}n{1}k{2}.{3}.{4}{5}.{6}.{7}.{8}.{9} {10}, {11}, "
      "{12}, {13};",
      shape.getM(), shape.getN(), shape.getK(),
      NVVM::stringifyMMALayout(op.getLayoutA()),
      NVVM::stringifyMMALayout(op.getLayoutB()), satfinite ? ".satfinite" : "",
      d, a, b, c, dRegs, *aRegs, *bRegs, *cRegs);
  line() << "asm(\"" << text << "\" : " << llvm::join(outs, ", ") << " : "
         << llvm::join(ins, ", ") << ");\n";
  return success();
}

/// A wgmma.mma_async: NVVM's op, or the lowering's inline PTX of one (A
/// from registers, a run-time scale-d; SIMT/Dot.cpp).
static bool isWgmma(Operation *op) {
  if (isa<NVVM::WgmmaMmaAsyncOp>(op))
    return true;
  auto a = dyn_cast<LLVM::InlineAsmOp>(op);
  return a && StringRef(a.getAsmString()).contains("wgmma.mma_async");
}

/// Whether `op` only computes registers: no regions, no memory effects
/// (an inline asm: none declared), so nvcc may move it across asm
/// statements and the printer may move it across a wgmma.fence.
static bool isRegisterOnly(Operation *op) {
  auto a = dyn_cast<LLVM::InlineAsmOp>(op);
  return !op->getNumRegions() &&
         (a ? !a.getHasSideEffects() : isMemoryEffectFree(op));
}

/// Prepares the wgmma.fence `fence` for printing; true if it is to be
/// printed inside the asm of the first wgmma after it. nvcc computes pure
/// register values where it likes between two asm statements (a memory
/// clobber does not hold them), so the packing of a register A operand,
/// which the SIMT IR has after the fence, lands between the fence and its
/// wgmma, and ptxas injects another warpgroup.arrive (C7519) or serializes
/// the wgmmas (C7514) -- NVPTX happens to schedule it above. So, over the
/// fence's run (up to the commit_group, or the first op that is neither
/// a wgmma nor free of memory effects): the pure ops that do not read a
/// wgmma result of the run move above the fence, in order (the registers
/// written before the fence, as the PTX ISA 9.7.15.5.1 asks of them), and
/// the fence goes into the first wgmma's asm statement (true when there is
/// one). `hoist`: the ops moved, to be printed now (the
/// printer's walk is past them).
static bool hoistAboveFence(Operation *fence,
                            SmallVectorImpl<Operation *> &hoist) {
  DenseSet<Operation *> stay; // the run's wgmmas and what reads them
  Operation *first = nullptr;
  for (Operation *op = fence->getNextNode(); op; op = op->getNextNode()) {
    if (isa<NVVM::WgmmaGroupSyncAlignedOp>(op) ||
        op->hasTrait<OpTrait::IsTerminator>())
      break;
    bool wgmma = isWgmma(op);
    if (!wgmma && !isRegisterOnly(op))
      break;
    bool readsRun = llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && stay.contains(def);
    });
    if (wgmma || readsRun) {
      stay.insert(op);
      if (wgmma && !first)
        first = op;
      continue;
    }
    hoist.push_back(op);
  }
  if (!first) {
    hoist.clear();
    return false;
  }
  // Every op before `first` is hoisted (none can read a wgmma of the run),
  // so the fence now sits right before it.
  for (Operation *op : hoist)
    op->moveBefore(fence);
  return true;
}

/// The lowering's wgmma.wait_group as inline PTX whose tied operands are
/// the accumulators it waits for (SIMT/Dot.cpp): its results are the
/// completed registers.
static bool isWgmmaWaitAsm(Operation *op) {
  auto a = dyn_cast<LLVM::InlineAsmOp>(op);
  return a && a.getNumResults() &&
         StringRef(a.getAsmString()).trim().starts_with("wgmma.wait_group");
}

/// nvcc moves pure register computations across asm statements where it
/// likes. Where one reads a waited wgmma result (fp8's deferred
/// accumulation: acc += the previous k-step's product, after its
/// wait_group) and is used only after the next wgmmas, nvcc sinks it past
/// them; the waited registers then stay live across the wgmmas, the loop's
/// carried in-flight product can no longer share their registers and is
/// copied at the loop's end while its wgmmas run, and ptxas serializes
/// every wgmma of the loop (C7514: "non wgmma instructions reading
/// accumulator registers"). So, at each wgmma.fence, every f32 value of the
/// block computed (by ops free of memory effects) from a wait_group's
/// results and read after the fence goes through an empty asm volatile
/// that reads and writes it: computed before the fence, as CUTLASS's
/// warpgroup_fence_operand holds its accumulators around a wgmma batch.
void KernelEmitter::pinAcrossWgmmaRun(Operation *fence) {
  Block *block = fence->getBlock();
  DenseSet<Value> fromWait;
  SmallVector<Value> pin;
  for (Operation &op : *block) {
    if (&op == fence)
      break;
    bool derived =
        isWgmmaWaitAsm(&op) ||
        (isRegisterOnly(&op) && llvm::any_of(op.getOperands(), [&](Value v) {
           return fromWait.contains(v);
         }));
    if (!derived)
      continue;
    for (Value r : op.getResults()) {
      fromWait.insert(r);
      if (!getElementTypeOrSelf(r.getType()).isF32() ||
          !isa<FloatType, VectorType>(r.getType()))
        continue;
      bool readAfter = llvm::any_of(r.getUsers(), [&](Operation *user) {
        Operation *at = block->findAncestorOpInBlock(*user);
        return at && fence->isBeforeInBlock(at);
      });
      std::string n = name(r); // passed as "+f": a variable
      if (readAfter && isIdentifier(n) && pinned.insert(r).second)
        pin.push_back(r);
    }
  }
  if (pin.empty())
    return;
  line() << "// Values read after the wgmmas below, computed before them "
            "(an empty asm reading and writing each).\n";
  for (Value v : pin) {
    if (auto vec = dyn_cast<VectorType>(v.getType())) {
      line() << "#pragma unroll\n";
      line() << "for (int i = 0; i < " << vec.getNumElements()
             << "; ++i) asm volatile(\"\" : \"+f\"(" << name(v) << ".e[i]));\n";
    } else {
      line() << "asm volatile(\"\" : \"+f\"(" << name(v) << "));\n";
    }
  }
}

/// Whether upstream's PTX builder text says all that `op` asks for. Where
/// NVVM-to-LLVM takes the intrinsic instead (hasIntrinsic), the builder's
/// text may drop attributes (a scope, a load mode): only the forms whose
/// text was checked are taken.
static bool ptxBuilderCovers(NVVM::BasicPtxBuilderInterface op) {
  if (!op.hasIntrinsic())
    return true;
  auto addrSpace = [](Value v) {
    return cast<LLVM::LLVMPointerType>(v.getType()).getAddressSpace();
  };
  return llvm::TypeSwitch<Operation *, bool>(op.getOperation())
      .Case([&](NVVM::MBarrierInitOp o) { return addrSpace(o.getAddr()) != 7; })
      .Case([&](NVVM::MBarrierArriveExpectTxOp o) {
        return o.getScope() == NVVM::MemScopeKind::CTA && !o.getRelaxed() &&
               !o.getRes() && addrSpace(o.getAddr()) != 7;
      })
      .Case([&](NVVM::MBarrierTryWaitParityOp o) {
        return addrSpace(o.getAddr()) != 7;
      })
      .Case([&](NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp o) {
        return !o.getIsCTAOnly() && !o.getGroup() &&
               (o.getMode() == NVVM::TMALoadMode::TILE ||
                o.getMode() == NVVM::TMALoadMode::IM2COL);
      })
      .Case([&](NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp o) {
        return o.getMode() == NVVM::TMAStoreMode::TILE;
      })
      .Default([](Operation *) { return false; });
}

LogicalResult KernelEmitter::emitNVVM(Operation *op) {
  if (auto pb = dyn_cast<NVVM::BasicPtxBuilderInterface>(op)) {
    if (!ptxBuilderCovers(pb))
      return unsupported(op);
    return emitPtxBuilderOp(pb);
  }
  StringRef opName = op->getName().getStringRef();
  // Special registers: mov from %name (PTX ISA 10), the cluster ones
  // spelled cluster_*.
  if (opName.consume_front("nvvm.read.ptx.sreg.")) {
    // The op's name with `_` for the dots inside the register's name
    // (cluster.ctarank -> %cluster_ctarank, lanemask.lt -> %lanemask_lt,
    // globaltimer.lo -> %globaltimer_lo), a last .x/.y/.z kept (%tid.x,
    // %cluster_ctaid.x); warpsize is the constant WARP_SZ.
    Type t = op->getNumResults() == 1 ? op->getResult(0).getType() : Type();
    if (!t || !(t.isInteger(32) || t.isInteger(64)))
      return unsupported(op);
    std::string reg = opName.str();
    size_t keep = reg.size();
    if (reg.size() > 2 && reg[reg.size() - 2] == '.' &&
        StringRef("xyz").contains(reg.back()))
      keep = reg.size() - 2;
    for (size_t i = 0; i < keep; ++i)
      if (reg[i] == '.')
        reg[i] = '_';
    reg = reg == "warpsize" ? "WARP_SZ" : "%%" + reg;
    bool wide = t.isInteger(64);
    std::string n = fresh(op->getResult(0));
    line() << (wide ? "long long " : "int ") << n << ";\n";
    // Clocks and timers change between reads: volatile, not merged.
    line() << (isMemoryEffectFree(op) ? "asm(" : "asm volatile(") << "\"mov.u"
           << (wide ? "64" : "32") << " %0, " << reg
           << ";\" : \"=" << (wide ? "l" : "r") << "\"(" << n << "));\n";
    return success();
  }
  // Instructions without operands.
  static const llvm::StringMap<const char *> kFixed = {
      {"nvvm.wgmma.fence.aligned", "wgmma.fence.sync.aligned;"},
      {"nvvm.wgmma.commit.group.sync.aligned",
       "wgmma.commit_group.sync.aligned;"},
      {"nvvm.fence.mbarrier.init", "fence.mbarrier_init.release.cluster;"},
      {"nvvm.cp.async.bulk.commit.group", "cp.async.bulk.commit_group;"},
  };
  if (isa<NVVM::WgmmaFenceAlignedOp>(op)) {
    SmallVector<Operation *> hoisted;
    bool fold = hoistAboveFence(op, hoisted);
    for (Operation *h : hoisted)
      if (failed(emitOp(h)))
        return failure();
    pinAcrossWgmmaRun(op);
    if (fold) {
      pendingFence = true;
      return success();
    }
  }
  if (auto it = kFixed.find(op->getName().getStringRef()); it != kFixed.end()) {
    emitAsm(it->second);
    return success();
  }
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](NVVM::WgmmaWaitGroupSyncOp o) {
        emitAsm(
            llvm::formatv("wgmma.wait_group.sync.aligned {0};", o.getGroup())
                .str());
        return success();
      })
      .Case([&](NVVM::CpAsyncBulkWaitGroupOp o) {
        emitAsm(llvm::formatv("cp.async.bulk.wait_group{0} {1};",
                              o.getRead() ? ".read" : "", o.getGroup())
                    .str());
        return success();
      })
      .Case([&](NVVM::FenceProxyOp o) {
        std::string text =
            "fence.proxy." + NVVM::stringifyProxyKind(o.getKind()).str();
        if (std::optional<NVVM::SharedSpace> space = o.getSpace())
          text +=
              *space == NVVM::SharedSpace::shared_cta ? "::cta" : "::cluster";
        emitAsm(text + ";");
        return success();
      })
      .Case([&](NVVM::MBarrierInvalOp o) -> LogicalResult {
        auto p = dyn_cast<LLVM::LLVMPointerType>(o.getAddr().getType());
        if (!p || p.getAddressSpace() != 3)
          return unsupported(o);
        emitAsm("mbarrier.inval.shared.b64 [%0];", {},
                {"\"r\"(" + sharedAddress(o.getAddr()) + ")"});
        return success();
      })
      .Case([&](NVVM::BarrierOp o) -> LogicalResult {
        if (o.getReductionOp() || o.getNumResults())
          return unsupported(o);
        if (!o.getBarrierId() && !o.getNumberOfThreads()) {
          line() << "__syncthreads();\n";
          return success();
        }
        // bar.sync id{, count} (PTX ISA 9.7.13.1).
        std::string id = o.getBarrierId() ? name(o.getBarrierId()) : "0";
        if (o.getNumberOfThreads())
          emitAsm("bar.sync %0, %1;", {},
                  {"\"r\"(" + id + ")",
                   "\"r\"(" + name(o.getNumberOfThreads()) + ")"});
        else
          emitAsm("bar.sync %0;", {}, {"\"r\"(" + id + ")"});
        return success();
      })
      .Case([&](NVVM::SyncWarpOp o) {
        line() << "__syncwarp((unsigned)" << name(o.getMask()) << ");\n";
        return success();
      })
      .Case([&](NVVM::SetMaxRegisterOp o) {
        emitAsm(
            llvm::formatv("setmaxnreg.{0}.sync.aligned.u32 {1};",
                          o.getAction() == NVVM::SetMaxRegisterAction::increase
                              ? "inc"
                              : "dec",
                          o.getRegCount())
                .str());
        return success();
      })
      .Case([&](NVVM::ClusterArriveOp o) {
        emitAsm(std::string("barrier.cluster.arrive") +
                (o.getAligned() ? ".aligned;" : ";"));
        return success();
      })
      .Case([&](NVVM::ClusterArriveRelaxedOp o) {
        emitAsm(std::string("barrier.cluster.arrive.relaxed") +
                (o.getAligned() ? ".aligned;" : ";"));
        return success();
      })
      .Case([&](NVVM::ClusterWaitOp o) {
        emitAsm(std::string("barrier.cluster.wait") +
                (o.getAligned() ? ".aligned;" : ";"));
        return success();
      })
      .Case([&](NVVM::MapaOp o) -> LogicalResult {
        // mapa.shared::cluster.u32 (PTX ISA 9.7.9.21): a shared address of
        // this CTA to the same address in CTA `b` of the cluster.
        auto from = cast<LLVM::LLVMPointerType>(o.getA().getType());
        auto to = cast<LLVM::LLVMPointerType>(o.getType());
        if (from.getAddressSpace() != 3 || to.getAddressSpace() != 7)
          return unsupported(o);
        std::string n = fresh(o.getResult(), "v");
        line() << "unsigned " << n << ";\n";
        emitAsm("mapa.shared::cluster.u32 %0, %1, %2;", {"\"=r\"(" + n + ")"},
                {"\"r\"(" + sharedAddress(o.getA()) + ")",
                 "\"r\"(" + name(o.getB()) + ")"});
        return success();
      })
      .Case([&](NVVM::LdMatrixOp o) { return emitLdMatrix(o); })
      .Case([&](NVVM::MmaOp o) { return emitMma(o); })
      .Default([&](Operation *o) { return unsupported(o); });
}

LogicalResult KernelEmitter::emitOp(Operation *op) {
  // A comment at each new source line.
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc())) {
    std::string where =
        llvm::formatv("{0}:{1}", loc.getFilename().getValue(), loc.getLine());
    if (where != lastLoc) {
      lastLoc = where;
      line() << "// " << llvm::sys::path::filename(loc.getFilename().getValue())
             << ":" << loc.getLine() << "\n";
    }
  }
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return emitConstant(c);
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      op->getNumResults() == 1)
    return emitElementwise(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](scf::ForOp o) { return emitFor(o); })
      .Case([&](scf::IfOp o) { return emitIf(o); })
      .Case([&](gpu::ThreadIdOp o) {
        return declare(o, "(long long)threadIdx." +
                              gpu::stringifyDimension(o.getDimension()).str());
      })
      .Case([&](gpu::BlockIdOp o) {
        return declare(o, "(long long)blockIdx." +
                              gpu::stringifyDimension(o.getDimension()).str());
      })
      .Case([&](gpu::BlockDimOp o) {
        return declare(o, "(long long)blockDim." +
                              gpu::stringifyDimension(o.getDimension()).str());
      })
      .Case([&](gpu::GridDimOp o) {
        return declare(o, "(long long)gridDim." +
                              gpu::stringifyDimension(o.getDimension()).str());
      })
      .Case([&](gpu::BarrierOp) {
        line() << "__syncthreads();\n";
        return success();
      })
      .Case([&](gpu::ShuffleOp o) { return emitShuffle(o); })
      .Case([&](gpu::ReturnOp) {
        line() << "return;\n";
        return success();
      })
      .Case([&](LLVM::PoisonOp o) { return declare(o, "{}"); })
      .Case([&](LLVM::UndefOp o) { return declare(o, "{}"); })
      .Case([&](LLVM::ZeroOp o) { return declare(o, "{}"); })
      .Case([&](LLVM::InsertElementOp o) -> LogicalResult {
        if (failed(declare(o, name(o.getVector()))))
          return failure();
        line() << name(o) << ".e[" << name(o.getPosition())
               << "] = " << name(o.getValue()) << ";\n";
        return success();
      })
      .Case([&](LLVM::ExtractElementOp o) {
        return declare(o, name(o.getVector()) + ".e[" + name(o.getPosition()) +
                              "]");
      })
      .Case([&](LLVM::ShuffleVectorOp o) -> LogicalResult {
        int64_t n1 = cast<VectorType>(o.getV1().getType()).getNumElements();
        if (failed(declare(o, "{}")))
          return failure();
        for (auto [i, m] : llvm::enumerate(o.getMask())) {
          if (m < 0)
            continue;
          line() << name(o) << ".e[" << i << "] = "
                 << (m < n1 ? name(o.getV1()) + ".e[" + std::to_string(m)
                            : name(o.getV2()) + ".e[" + std::to_string(m - n1))
                 << "];\n";
        }
        return success();
      })
      .Case([&](LLVM::BitcastOp o) -> LogicalResult {
        FailureOr<std::string> t = typeName(o.getLoc(), o.getType());
        if (failed(t))
          return failure();
        return declare(o,
                       "tilec_bitcast<" + *t + ">(" + name(o.getArg()) + ")");
      })
      .Case([&](LLVM::ExtractValueOp o) -> LogicalResult {
        if (o.getPosition().size() != 1)
          return unsupported(o);
        auto fields = structFields.find(o.getContainer());
        if (fields != structFields.end())
          return declare(o, fields->second[o.getPosition()[0]]);
        return declare(o, name(o.getContainer()) + ".e[" +
                              std::to_string(o.getPosition()[0]) + "]");
      })
      .Case([&](LLVM::InsertValueOp o) -> LogicalResult {
        if (o.getPosition().size() != 1)
          return unsupported(o);
        if (failed(declare(o, name(o.getContainer()))))
          return failure();
        line() << name(o) << ".e[" << o.getPosition()[0]
               << "] = " << name(o.getValue()) << ";\n";
        return success();
      })
      .Case([&](LLVM::FMAOp o) {
        return declare(o, (o.getType().isF32() ? "fmaf(" : "fma(") +
                              name(o.getA()) + ", " + name(o.getB()) + ", " +
                              name(o.getC()) + ")");
      })
      .Case([&](scf::WhileOp o) { return emitWhile(o); })
      .Case([&](NVVM::CpAsyncOp o) -> LogicalResult {
        // cp.async.{ca,cg}.shared.global [dst], [src], size[, src-size]:
        // the shared address as the 32-bit window offset.
        line() << "asm volatile(\"cp.async."
               << NVVM::stringifyLoadCacheModifierKind(o.getModifier())
               << ".shared.global [%0], [%1], " << o.getSize()
               << (o.getCpSize() ? ", %2" : "") << ";\" :: \"r\"("
               << sharedAddress(o.getDst()) << "), \"l\"(" << name(o.getSrc())
               << ")";
        if (o.getCpSize())
          out << ", \"r\"(" << name(o.getCpSize()) << ")";
        out << " : \"memory\");\n";
        return success();
      })
      .Case([&](NVVM::CpAsyncCommitGroupOp) {
        line() << "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");\n";
        return success();
      })
      .Case([&](NVVM::CpAsyncWaitGroupOp o) {
        line() << "asm volatile(\"cp.async.wait_group " << o.getN()
               << ";\" ::: \"memory\");\n";
        return success();
      })
      .Case([&](arith::MulUIExtendedOp o) { return emitMulExtended(o); })
      .Case([&](arith::MulSIExtendedOp o) { return emitMulExtended(o); })
      .Case([&](LLVM::InlineAsmOp o) {
        if (!pendingFence || !isWgmma(o))
          return emitInlineAsm(o);
        pendingFence = false;
        return emitInlineAsm(o, "wgmma.fence.sync.aligned;\n\t");
      })
      .Case([&](LLVM::CallIntrinsicOp o) { return emitIntrinsic(o); })
      .Case([&](LLVM::CallOp o) { return emitCall(o); })
      .Case([&](LLVM::AddressOfOp o) -> LogicalResult {
        if (o.getGlobalName() == "tilec_shared") {
          names[o.getResult()] = "tilec_shared";
          return success();
        }
        // A constant string of the module (an assert's message): the
        // array the prelude declares (printGlobalStrings).
        auto global = dyn_cast_or_null<LLVM::GlobalOp>(
            SymbolTable::lookupNearestSymbolFrom(o, o.getGlobalNameAttr()));
        if (!global || !isa_and_nonnull<StringAttr>(global.getValueOrNull()))
          return unsupported(o);
        names[o.getResult()] = "(char *)" + globalVar(o.getGlobalName());
        return success();
      })
      .Case([&](gpu::PrintfOp o) { return emitPrintf(o); })
      .Case([&](LLVM::GEPOp o) { return emitGEP(o); })
      .Case([&](LLVM::LoadOp o) -> LogicalResult {
        FailureOr<std::string> t = typeName(o.getLoc(), o.getType());
        if (failed(t))
          return failure();
        if (cast<LLVM::LLVMPointerType>(o.getAddr().getType())
                .getAddressSpace() == 7) {
          // Another CTA's shared memory (a mapa address): no C++ pointer
          // reaches it; ld.shared::cluster does (PTX ISA 9.7.9.8).
          StringRef letter = constraintOf(o.getType());
          if (letter.empty() || !o.getType().isIntOrFloat() ||
              o.getType().isInteger(1))
            return unsupported(o);
          std::string n = fresh(o.getResult());
          line() << *t << " " << n << ";\n";
          emitAsm(llvm::formatv("ld.shared::cluster.b{0} %0, [%1];",
                                o.getType().getIntOrFloatBitWidth())
                      .str(),
                  {"\"=" + letter.str() + "\"(" + n + ")"},
                  {"\"r\"(" + name(o.getAddr()) + ")"});
          return success();
        }
        return declare(o, "*(" +
                              std::string(o.getVolatile_() ? "volatile " : "") +
                              *t + " *)" + name(o.getAddr()));
      })
      .Case([&](LLVM::StoreOp o) -> LogicalResult {
        FailureOr<std::string> t = typeName(o.getLoc(), o.getValue().getType());
        if (failed(t))
          return failure();
        if (cast<LLVM::LLVMPointerType>(o.getAddr().getType())
                .getAddressSpace() == 7) {
          Type vt = o.getValue().getType();
          StringRef letter = constraintOf(vt);
          if (letter.empty() || !vt.isIntOrFloat() || vt.isInteger(1))
            return unsupported(o);
          emitAsm(llvm::formatv("st.shared::cluster.b{0} [%0], %1;",
                                vt.getIntOrFloatBitWidth())
                      .str(),
                  {},
                  {"\"r\"(" + name(o.getAddr()) + ")",
                   "\"" + letter.str() + "\"(" + name(o.getValue()) + ")"});
          return success();
        }
        line() << "*(" << (o.getVolatile_() ? "volatile " : "") << *t << " *)"
               << name(o.getAddr()) << " = " << name(o.getValue()) << ";\n";
        return success();
      })
      .Case([&](LLVM::ConstantOp o) -> LogicalResult {
        // The PTX builder's immediates ("n" operands).
        auto i = dyn_cast<IntegerAttr>(o.getValue());
        if (!i || !o.getType().isIntOrIndex())
          return unsupported(o);
        names[o.getResult()] = literal(i, o.getType());
        return success();
      })
      .Case([&](LLVM::AddrSpaceCastOp o) -> LogicalResult {
        unsigned from =
            cast<LLVM::LLVMPointerType>(o.getArg().getType()).getAddressSpace();
        unsigned to =
            cast<LLVM::LLVMPointerType>(o.getType()).getAddressSpace();
        // Generic and shared pointers are both generic in C++; shared::cluster
        // is the shared window address.
        if ((from == 0 || from == 3) && (to == 0 || to == 3))
          return declare(o, name(o.getArg()));
        if (from == 3 && to == 7)
          return declare(o, sharedAddress(o.getArg()));
        return unsupported(o);
      })
      .Case([&](LLVM::PtrToIntOp o) {
        return declare(o, "(long long)" + name(o.getArg()));
      })
      .Case([&](LLVM::IntToPtrOp o) {
        return declare(o, "(char *)" + name(o.getArg()));
      })
      .Default([&](Operation *o) -> LogicalResult {
        if (isa<NVVM::NVVMDialect>(o->getDialect()))
          return emitNVVM(o);
        return unsupported(o);
      });
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(&op)))
      return failure();
  Operation *term = block.getTerminator();
  if (isa<gpu::ReturnOp>(term))
    return emitOp(term);
  return success();
}

LogicalResult KernelEmitter::emit() {
  // Parameters: the source's names; pointers (an i64 in SIMT IR) typed by
  // the signature ("*fp32" -> float *).
  auto sig = func->getAttrOfType<StringAttr>("tile.signature");
  // Its entries (commas inside tensordesc<...[..]> do not split); a
  // signature whose entries are not one per argument (a descriptor the
  // lowering split) types nothing.
  SmallVector<StringRef> entries;
  if (sig) {
    StringRef text = sig.getValue();
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      char ch = i < text.size() ? text[i] : ',';
      depth += (ch == '<' || ch == '[') - (ch == '>' || ch == ']');
      if (ch == ',' && depth == 0) {
        entries.push_back(text.slice(start, i));
        start = i + 1;
      }
    }
  }
  // TMA descriptors: parameters of their own after the signature's.
  llvm::SmallDenseSet<unsigned> tensorMaps;
  if (auto maps = func->getAttrOfType<DenseI32ArrayAttr>("tile.tensormap_args"))
    tensorMaps.insert(maps.asArrayRef().begin(), maps.asArrayRef().end());
  if (entries.size() + tensorMaps.size() != func.getNumArguments())
    entries.clear();
  if (isReservedName(func.getName()))
    return func.emitError("kernel name '")
           << func.getName()
           << "' is reserved in CUDA C++ (a keyword or a name the backend "
              "uses): the CUDA C++ backend cannot keep it";
  out << "extern \"C\" __global__ void";
  // A register limit of the kernel's own (nvvm.maxnreg; __launch_bounds__
  // cannot go with it), else the block size and nvvm.minctasm.
  auto maxnreg =
      func->getAttrOfType<IntegerAttr>(NVVM::NVVMDialect::getMaxnregAttrName());
  auto minctasm = func->getAttrOfType<IntegerAttr>(
      NVVM::NVVMDialect::getMinctasmAttrName());
  if (maxnreg) {
    out << " __maxnreg__(" << maxnreg.getInt() << ")";
  } else if (auto w = func->getAttrOfType<IntegerAttr>("tile.num_warps")) {
    out << " __launch_bounds__(" << 32 * w.getInt();
    if (minctasm)
      out << ", " << minctasm.getInt();
    out << ")";
  }
  out << "\n" << func.getName() << "(";
  SmallVector<std::string> casts;
  llvm::StringSet<> used;
  unsigned nextEntry = 0;
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    std::string pname = "arg" + std::to_string(i);
    if (auto n = dyn_cast<NameLoc>(arg.getLoc()))
      pname = n.getName().str();
    // A name C++ or the generated code has (`new`, `i`, `v12`, non-ASCII):
    // prefixed.
    if (isReservedName(pname)) {
      std::string clean;
      for (char ch : pname)
        clean += llvm::isAlnum(ch) || ch == '_' ? ch : '_';
      pname = "p_" + clean;
    }
    // A parameter the lowering split (a tensor descriptor's base, sizes
    // and strides) repeats its name: number the repeats.
    for (unsigned k = 1; !used.insert(pname).second; ++k)
      pname = (k == 1 ? pname : pname.substr(0, pname.rfind('_'))) + "_" +
              std::to_string(k);
    StringRef entry;
    if (!tensorMaps.contains(i) && nextEntry < entries.size())
      entry = entries[nextEntry++].split(':').first;
    std::string ptype;
    if (tensorMaps.contains(i)) {
      if (!isa<LLVM::LLVMPointerType>(arg.getType()))
        return func.emitError("TMA descriptor parameter ")
               << i << " is not a pointer";
      ptype = "const __grid_constant__ tilec_tensormap ";
      names[arg] = pname + "_addr";
      casts.push_back("char *" + pname + "_addr = (char *)&" + pname + ";");
    } else if (entry.consume_front("*")) {
      ptype = llvm::StringSwitch<std::string>(entry)
                  .Case("fp32", "float *")
                  .Case("fp64", "double *")
                  .Cases({"fp16", "bf16"}, "unsigned short *")
                  .Cases({"i32", "u32"}, "int *")
                  .Cases({"i64", "u64"}, "long long *")
                  .Cases({"i16", "u16"}, "short *")
                  .Default("void *");
      // The body computes with the address as an integer.
      names[arg] = pname + "_addr";
      casts.push_back("long long " + pname + "_addr = (long long)" + pname +
                      ";");
    } else {
      FailureOr<std::string> t = typeName(arg.getLoc(), arg.getType());
      if (failed(t))
        return failure();
      ptype = *t + " ";
      names[arg] = pname;
    }
    out << (i ? ",\n    " : "") << ptype << pname;
  }
  out << ") {\n";
  if (func->getAttrOfType<IntegerAttr>("tile.shared"))
    line() << "extern __shared__ __align__(1024) char tilec_shared[];\n";
  for (const std::string &c : casts)
    line() << c << "\n";
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  out << "}\n";
  return success();
}

} // namespace

/// What `--debug` kernels call and read, declared once before the kernels:
/// printf and __assertfail (NVRTC declares neither; nvcc needs no header
/// for these declarations either), and the module's constant strings (an
/// assert's message, file and function) as `tilec_g_NAME` arrays.
static void printDebugDeclarations(gpu::GPUModuleOp module, raw_ostream &os) {
  bool printf = false;
  module.walk([&](gpu::PrintfOp) { printf = true; });
  if (printf)
    os << "extern \"C\" __device__ int printf(const char *, ...);\n";
  if (module.lookupSymbol("__assertfail"))
    os << "extern \"C\" __device__ void __assertfail(const char *, const "
          "char *, unsigned, const char *, unsigned long);\n";
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto text = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (!text || global.getAddrSpace() != 0)
      continue;
    StringRef bytes = text.getValue();
    // The literal's own NUL ends it.
    if (bytes.ends_with(StringRef("\0", 1)))
      bytes = bytes.drop_back();
    os << "static __device__ const char " << globalVar(global.getSymName())
       << "[] = \"" << escapeCString(bytes) << "\";\n";
  }
}

LogicalResult tilec::emitCUDA(ModuleOp module, StringRef arch, raw_ostream &os,
                              bool autoMaxNReg, bool fpFusion) {
  gpu::GPUModuleOp gpuModule;
  module.walk([&](gpu::GPUModuleOp m) { gpuModule = m; });
  if (!gpuModule)
    return module.emitError("expected a gpu.module of lowered kernels (run "
                            "the pipeline to the SIMT stage first)");
  std::string body;
  llvm::raw_string_ostream bodyStream(body);
  std::vector<KernelMetadata> kernels;
  for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
    if (!func.isKernel())
      return func.emitError("device functions are not supported by the CUDA "
                            "C++ backend yet");
    if (func.getBody().getBlocks().size() != 1)
      return func.emitError("unstructured control flow is not supported by "
                            "the CUDA C++ backend");
    if (std::optional<KernelMetadata> k = readKernelMetadata(func)) {
      k->autoMaxNReg = autoMaxNReg && k->loaderMayBudgetRegisters();
      kernels.push_back(*k);
    }
    bodyStream << "\n";
    if (failed(KernelEmitter(func, bodyStream, fpFusion, arch).emit()))
      return failure();
  }
  if (kernels.empty())
    return module.emitError("no kernel to compile: expected at least one "
                            "public tile.func");
  // nvcc's -arch=sm_90a also makes compute_90 PTX, where sm_90a's own
  // instructions (wgmma, setmaxnreg) do not exist: the arch's code alone.
  std::string virt = arch.str();
  if (StringRef(virt).starts_with("sm_"))
    virt = "compute_" + virt.substr(3);
  os << "//\n// Generated by tilec for " << arch
     << " as CUDA C++ (tilec --emit=cuda); nvcc -gencode arch=" << virt
     << ",code=" << arch << " or NVRTC (--gpu-architecture=" << arch
     << ") compile it as it is.\n//\n";
  for (const KernelMetadata &k : kernels)
    printKernelMetadata(os, k);
  if (failed(emitGraphMetadata(module, os)))
    return failure();
  os << kPrelude;
  printDebugDeclarations(gpuModule, os);
  os << body;
  return success();
}
