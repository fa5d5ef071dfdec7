//===- CodeGen.h - Front-end code generator (internal) ----------*- C++ -*-===//
//
// Internal to the front end: the compile-time value model (PyValue) and the
// code generator that walks the AST of a jit function, evaluating constexpr
// code and emitting tile IR for the rest. Split over ImportToTile.cpp
// (driver, statements, expressions), Semantics.cpp (types, promotion,
// broadcasting, operators), Builtins.cpp, BuiltinsExt.cpp, Dot.cpp,
// Random.cpp and Libdevice.cpp (triton.language functions) and HostEval.cpp
// (autotune configs built by host Python).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_CODEGEN_H
#define TILEC_COMPILER_FRONTEND_CODEGEN_H

#include "compiler/Frontend/AST.h"
#include "compiler/Frontend/ImportToTile.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/// `TRY(v, expr)`: evaluates a FailureOr `expr`, returns failure() from the
/// enclosing function if it failed, else binds `v` to its value (used by the
/// code generator's .cpp files).
#define TRY(var, expr)                                                         \
  auto var##OrFail = (expr);                                                   \
  if (failed(var##OrFail))                                                     \
    return failure();                                                          \
  auto &var = *var##OrFail;

namespace tilec::frontend {

/// A value during code generation: a compile-time Python value (int, float,
/// bool, str, None, dtype, tuple, function, module), or a run-time value
/// (an SSA value of scalar or tile type).
struct PyValue {
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    Str,
    DType,
    Tuple,
    Runtime,
    JitFunction,
    Builtin,
    Module,
    Method,
    Slice,
    Descriptor,
    Dict,
    /// tl.make_block_ptr's value (BlockPointers.cpp): elts = [base,
    /// (shape...), (strides...), (offsets...), (block_shape...), (order...)].
    BlockPtr,
    /// A host (undecorated or cached) Python function: `fn`, defined in the
    /// module named `s`; called, HostEval.cpp runs it (callHost).
    HostFunction,
  };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;           ///< Str; Builtin/Method name; Module path
  /// DType: the triton dtype (unsigned integers are MLIR's unsigned integer
  /// types, `ui32`, and pointers to them `!tile.ptr<ui32>`). Runtime and
  /// Descriptor: the dtype of the elements where the IR's signless type does
  /// not say it all (unsigned integers, pointers to them), else null.
  mlir::Type dtype;
  mlir::Value v;           ///< Runtime, Descriptor
  std::vector<PyValue> elts; ///< Tuple; Method: [receiver]; Dict: k0, v0, k1, ...
  /// Values in this one, nested tuples' included (1 for a non-tuple): what
  /// copying it costs (tuples nest by value), bounded like their length.
  uint64_t nodes = 1;
  const py::FunctionDef *fn = nullptr;

  static PyValue none() { return PyValue(); }
  static PyValue ofInt(int64_t x) { PyValue p; p.kind = Kind::Int; p.i = x; return p; }
  static PyValue ofFloat(double x) { PyValue p; p.kind = Kind::Float; p.f = x; return p; }
  static PyValue ofBool(bool x) { PyValue p; p.kind = Kind::Bool; p.b = x; return p; }
  static PyValue ofStr(std::string x) { PyValue p; p.kind = Kind::Str; p.s = std::move(x); return p; }
  static PyValue ofDType(mlir::Type t) { PyValue p; p.kind = Kind::DType; p.dtype = t; return p; }
  /// A run-time value whose elements have triton dtype `dtype` (null: the
  /// IR's element type, signed for integers).
  static PyValue ofValue(mlir::Value v, mlir::Type dtype = {});
  static PyValue ofTuple(std::vector<PyValue> e) {
    PyValue p;
    p.kind = Kind::Tuple;
    for (const PyValue &x : e)
      p.nodes = std::min<uint64_t>(p.nodes + x.nodes, uint64_t(1) << 62);
    p.elts = std::move(e);
    return p;
  }
  static PyValue builtin(std::string name) { PyValue p; p.kind = Kind::Builtin; p.s = std::move(name); return p; }
  static PyValue module(std::string path) { PyValue p; p.kind = Kind::Module; p.s = std::move(path); return p; }
  static PyValue method(std::string name, PyValue self) {
    PyValue p; p.kind = Kind::Method; p.s = std::move(name); p.elts.push_back(std::move(self)); return p;
  }

  bool isRuntime() const { return kind == Kind::Runtime; }
  bool isNumber() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  /// A compile-time value (constexpr in Triton's terms).
  bool isConstexpr() const;
  /// Python's type name, for messages: "int", "tensor<128xf32>", "function".
  std::string describe() const;
};

/// The block shape of a block pointer (PyValue::Kind::BlockPtr).
llvm::SmallVector<int64_t> blockShapeOf(const PyValue &bp);

/// What a load or store through a block pointer accesses: a pointer tile of
/// the block's shape and, where boundary_check asks for it, the mask of the
/// elements inside the tensor.
struct BlockAccess {
  mlir::Value ptrs;
  mlir::Value mask; ///< null: no boundary check
};

/// A plain integer parameter remarkDivisibility considers.
struct DivisibilityCandidate {
  std::string name; ///< the parameter
  std::string type; ///< its signature type (`u32`), for the suggestion
  unsigned arg;     ///< its argument number in the kernel
};
/// One remark per plain integer parameter of `params` that would widen a
/// load or store of `func` if it were known to be a multiple of 16
/// (DivisibilityRemarks.cpp).
void remarkDivisibility(mlir::ModuleOp module, tile::FuncOp func,
                        llvm::ArrayRef<DivisibilityCandidate> params);

/// Structured values: block pointers, and tuples holding run-time values.
/// Ifs and loops carry their leaves (the run-time values and numbers inside
/// them, in order) as separate IR values; the rest must agree.
bool isStructured(const PyValue &v);
/// Whether `a` and `b` (one variable's values on two paths) merge leaf by
/// leaf: either is structured, or both are tuples (of numbers).
bool isStructuredPair(const PyValue &a, const PyValue &b);
/// The leaves of `v` (v itself for a run-time value or a number).
std::vector<PyValue *> leavesOf(PyValue &v);
std::vector<const PyValue *> leavesOf(const PyValue &v);
/// Whether `a` and `b` are alike but for their leaves: the same kinds and
/// sizes, equal compile-time parts other than numbers.
bool sameStructure(const PyValue &a, const PyValue &b);
/// Where `a` and `b` first differ other than in their leaves, for errors:
/// "the order (1, 0) and (0, 1)", "element [1]: dtype f16 and dtype f32";
/// empty if they do not.
std::string structureDifference(const PyValue &a, const PyValue &b,
                                const std::string &path = "");

/// What one name (or a helper's return value) holds at the ends of the two
/// branches of an `if` on a run-time value; `what` names it in errors.
struct BranchValues {
  std::string what;
  PyValue onThen, onElse;
};

/// One IR value an if or loop carries: variable `name`, or run-time leaf
/// `leaf` of the structured value it holds.
struct CarriedSlot {
  std::string name;
  int leaf = -1;
};

/// Call arguments, evaluated.
struct CallArgs {
  std::vector<PyValue> args;
  std::vector<std::pair<std::string, PyValue>> kwargs;
  std::vector<mlir::Location> argLocs;
};

class CodeGen;

/// Call arguments bound to parameter names: one slot per name.
using ArgSlots = std::vector<std::optional<PyValue>>;
/// Binds `args` to parameter `names` by Python's rules (positional, then
/// keywords); the first `required` must be present. Surplus arguments,
/// unknown or repeated keywords are errors naming `fname`.
mlir::FailureOr<ArgSlots> bindArgs(CodeGen &g, const CallArgs &args,
                                   llvm::ArrayRef<llvm::StringRef> names,
                                   unsigned required, llvm::StringRef fname,
                                   py::SourceLoc l);
/// Triton's cache_modifier, eviction_policy and volatile of tl.load /
/// tl.store as attributes of `op` (docs/language.md); located errors for
/// values Triton refuses.
mlir::LogicalResult setAccessHints(CodeGen &g, mlir::Operation *op,
                                   const std::optional<PyValue> &cache,
                                   const std::optional<PyValue> &evict,
                                   const std::optional<PyValue> &isVolatile,
                                   py::SourceLoc l);
/// tl.load / tl.store through a block pointer, `s` bound to their
/// parameters (BlockPointers.cpp).
mlir::FailureOr<PyValue> loadBlockPointer(CodeGen &g, const ArgSlots &s,
                                          py::SourceLoc l);
mlir::FailureOr<PyValue> storeBlockPointer(CodeGen &g, const ArgSlots &s,
                                           py::SourceLoc l);
/// Triton's error for `boundary_check` / `padding_option` given to an access
/// through pointers rather than a block pointer.
mlir::LogicalResult
noBlockPointerArgs(CodeGen &g, const std::optional<PyValue> &boundaryCheck,
                   const std::optional<PyValue> &padding, llvm::StringRef op,
                   py::SourceLoc l);
/// `shapeOf`'s shape and encoding with element type `elem` (just `elem` for
/// a scalar).
mlir::Type withElement(mlir::Type shapeOf, mlir::Type elem);
/// A bound argument that is given and not None.
bool present(const std::optional<PyValue> &v);
/// The `mask` of a memory operation (tl.load, tl.store, the atomics):
/// any scalar or tile, converted to i1 as Triton's `mask.to(tl.int1)` (a
/// nonzero value is true) and broadcast together with `ptr`.
mlir::FailureOr<mlir::Value> memoryMask(CodeGen &g, const PyValue &maskArg,
                                        mlir::Value &ptr, py::SourceLoc l);
/// Triton's `propagate_nan` argument (tl.maximum, tl.minimum, and tilec's
/// extension on tl.max, tl.min, tl.argmax, tl.argmin): true for
/// `tl.PropagateNan.ALL` (NaN wins), false for `tl.PropagateNan.NONE` or
/// absent (the non-NaN operand wins). A bool is accepted as well (True:
/// ALL). Anything else: an error naming what was found.
mlir::FailureOr<bool> propagateNanArg(CodeGen &cg,
                                      const std::optional<PyValue> &v,
                                      py::SourceLoc l);
/// Whether `name` (without `tl.`) is one of triton.language's random-number
/// functions (randint, rand, randn, their 4x forms, philox, philox_impl,
/// uint_to_uniform_float, pair_uniform_to_normal; Random.cpp).
bool isRandomFunction(llvm::StringRef name);
/// `triton` or one of its submodules (tilec's own surface, not a module on
/// the import path).
inline bool isTritonModule(llvm::StringRef dotted) {
  return dotted == "triton" || dotted.starts_with("triton.");
}
/// Whether Triton 3.6 has module `dotted` (a `triton...` path): exactly for
/// triton itself, triton.language and triton.runtime, the modules kernels
/// import (checked against an installed Triton 3.6.0 on 2026-12-06); anything under the packages whose modules tilec does not list
/// (triton.backends, triton.compiler, triton.experimental, triton.tools,
/// triton.profiler, triton._C) is taken to exist.
bool tritonModuleExists(llvm::StringRef dotted);
/// Whether Triton's CUDA libdevice module defines function `name` (tilec may
/// still not implement it: callLibdevice says so).
bool isLibdeviceName(llvm::StringRef name);
/// A `from M import X` binding (PyValue::module("from:M:X")): M and X.
std::optional<std::pair<std::string, std::string>>
fromImportParts(const PyValue &v);
/// Python's int(text) in base 10: surrounding whitespace, an optional sign,
/// digits with single underscores between them. Fills `out`; Invalid for
/// other text (Python's ValueError), TooBig past 64 bits.
enum class IntParse { Ok, Invalid, TooBig };
IntParse parsePythonInt(llvm::StringRef text, int64_t &out);
/// Whether `t` is an unsigned integer dtype (`ui8`..`ui64`).
bool isUnsignedInt(mlir::Type t);
/// Whether values of `t` are ordered as unsigned: `ui8`..`ui64` and `i1`
/// (Triton's int1 is unsigned, tl.dtype.UINT_TYPES: False < True in
/// compares, tl.maximum/minimum and argmax/argmin; MLIR's signed order on
/// i1 puts true, -1, first).
bool hasUnsignedOrder(mlir::Type t);
/// Triton 3.6's tl.dtype predicates (`is_fp16`, `is_int_signed`,
/// `is_floating`, `is_ptr`, `is_block`, ...) of triton dtype `t` (unsigned
/// integers as MLIR's unsigned types, a block type as a ranked tensor);
/// nullopt for a name that is not one.
std::optional<bool> dtypePredicate(mlir::Type t, llvm::StringRef name);
/// Its attributes (`primitive_bitwidth`, `int_bitwidth`, `fp_mantissa_width`,
/// `exponent_bias`, `itemsize`, `int_signedness`, `name`); nullopt for a
/// name that is not one or a dtype that has none.
std::optional<PyValue> dtypeAttribute(mlir::Type t, llvm::StringRef name);
/// The IR type of a front-end type: unsigned integers become signless ones,
/// in pointers and tensors too (as in Triton, the IR's integers are
/// signless and the front end picks the signed or unsigned op).
mlir::Type toIRType(mlir::Type t);

/// One `triton.Config(...)` of an `@triton.autotune`, as host code built it
/// (HostEval.cpp), with Triton's defaults for what it leaves out.
struct AutotuneConfig {
  /// The constexpr values of its dict, in source order.
  std::vector<std::pair<std::string, PyValue>> constexprs;
  int64_t numWarps = 4, numStages = 3, numCtas = 1;
  std::optional<int64_t> maxnreg;
  bool hasPreHook = false, hasIROverride = false;
  py::SourceLoc loc; ///< the triton.Config call
};

/// The evaluated arguments of `@triton.autotune(configs=..., key=...)`.
struct AutotuneSpec {
  std::vector<AutotuneConfig> configs;
  std::vector<std::string> key;
  /// reset_to_zero= and restore_value= (parameter names).
  std::vector<std::string> resetToZero, restoreValue;
  py::SourceLoc loc; ///< the decorator call
};

/// Runs the host function `callee` (PyValue::Kind::HostFunction) on
/// compile-time arguments, as Python would when the module defining a
/// constant or condition ran: the bridge from the code generator to host
/// code (HostEval.cpp). Arguments and the result are numbers, strings,
/// None, tuples (lists become tuples), modules and functions; anything else
/// is a located error, as is an exception the host code raises.
mlir::FailureOr<PyValue> callHost(CodeGen &g, const PyValue &callee,
                                  CallArgs &args, py::SourceLoc l);
/// Python's method `name` of a compile-time string or dict `self`
/// (`triton.__version__.startswith("3.")`, `CFG.get("BLOCK", 64)`), as host
/// code runs it: one implementation of them for module constants, module
/// conditions and kernels (HostEval.cpp).
mlir::FailureOr<PyValue> callHostMethod(CodeGen &g, const std::string &name,
                                        const PyValue &self, CallArgs &args,
                                        py::SourceLoc l);

/// Evaluates `decorator` (a call of triton.autotune) at compile time: its
/// `configs` may be a list literal, a module constant, or a call of host
/// functions made of assignments, `if` and `return` that build lists of
/// triton.Config; the target they see is CUDA (`is_cuda()` is true). Other
/// host Python is a located `unimplemented:` error (HostEval.cpp).
mlir::FailureOr<AutotuneSpec> evalAutotune(CodeGen &g,
                                           const py::Call &decorator);

/// The code generator for one kernel.
class CodeGen {
public:
  CodeGen(const py::Module &module, const KernelOptions &options,
          mlir::MLIRContext *ctx);
  mlir::OwningOpRef<mlir::ModuleOp> run();

  // --- locations and errors (Errors return failure; callers propagate) ---
  mlir::Location loc(py::SourceLoc l);
  mlir::InFlightDiagnostic error(py::SourceLoc l);
  mlir::InFlightDiagnostic error(mlir::Location l);

  // --- expressions (ImportToTile.cpp) ---
  mlir::FailureOr<PyValue> eval(const py::Expr &e);
  mlir::FailureOr<PyValue> evalExpr(const py::Expr &e);
  /// Statements in order, then (if none returned) the continuation
  /// `cont`: what follows the enclosing ifs (execBlock: a whole block).
  mlir::LogicalResult
  execStmts(llvm::ArrayRef<py::StmtPtr> stmts,
            llvm::ArrayRef<llvm::ArrayRef<py::StmtPtr>> cont);
  /// An `if` with a return inside, followed by `rest` and then `cont`:
  /// compiled with everything after it in its branches, so that a return
  /// ends the program instance there (an scf.if on a run-time condition;
  /// bare returns only). False (nothing generated) without a return.
  mlir::FailureOr<bool>
  execIfWithReturn(const py::If &i, llvm::ArrayRef<py::StmtPtr> rest,
                   llvm::ArrayRef<llvm::ArrayRef<py::StmtPtr>> cont);
  /// A run-time `if`/`while` condition as an i1 (a scalar compared with 0).
  mlir::FailureOr<mlir::Value> runtimeCondition(const PyValue &c,
                                                py::SourceLoc l);
  /// Nesting of eval (through helpers and constants too), and its bound:
  /// deep enough for any real kernel, shallow enough for an 8 MiB stack.
  unsigned evalDepth = 0;
  static constexpr unsigned kMaxEvalDepth = 3000;
  mlir::FailureOr<PyValue> lookup(const std::string &name, py::SourceLoc l);
  mlir::FailureOr<PyValue> getAttr(const PyValue &v, const std::string &attr,
                                   py::SourceLoc l);
  mlir::FailureOr<PyValue> call(const PyValue &callee, CallArgs &args,
                                py::SourceLoc l);
  mlir::FailureOr<PyValue> callJit(const py::FunctionDef &fn, CallArgs &args,
                                   py::SourceLoc l);

  // --- statements (ImportToTile.cpp) ---
  mlir::LogicalResult execBlock(const py::StmtList &stmts);
  mlir::LogicalResult exec(const py::Stmt &s);
  mlir::LogicalResult assign(const py::Expr &target, const PyValue &v);

  // --- semantics (Semantics.cpp) ---
  /// A run-time value of `v` (a constexpr becomes a constant: int -> i32 or
  /// i64, float -> f32, bool -> i1); `hint` (an element type) types the
  /// constant instead where given.
  mlir::FailureOr<mlir::Value> toValue(const PyValue &v, py::SourceLoc l,
                                       mlir::Type hint = {});
  mlir::FailureOr<PyValue> binary(py::BinOpKind op, const PyValue &a,
                                  const PyValue &b, py::SourceLoc l);
  mlir::FailureOr<PyValue> compare(py::CmpOpKind op, const PyValue &a,
                                   const PyValue &b, py::SourceLoc l);
  mlir::FailureOr<PyValue> unary(py::UnaryOpKind op, const PyValue &a,
                                 py::SourceLoc l);
  /// Converts `v`, whose elements have dtype `from` (null: its IR element
  /// type), to dtype `elem` (keeping its shape), as `.to()`: integers widen
  /// by the source's signedness, integers and floats convert by the integer
  /// side's (Triton's cast).
  mlir::FailureOr<mlir::Value> castTo(mlir::Value v, mlir::Type elem,
                                      py::SourceLoc l, bool bitcast = false,
                                      mlir::Type from = {});
  /// `v` as a run-time value converted to dtype `elem` (castTo on a PyValue).
  mlir::FailureOr<PyValue> castValue(const PyValue &v, mlir::Type elem,
                                     py::SourceLoc l, bool bitcast = false);
  /// Splats/broadcasts `v` to `shape` (numpy rules).
  mlir::FailureOr<mlir::Value> broadcastTo(mlir::Value v,
                                           llvm::ArrayRef<int64_t> shape,
                                           py::SourceLoc l);
  /// `xs` as run-time values of element type `type` (constants typed by
  /// it, others converted as `.to()`), broadcast to one shape.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  operandsAs(llvm::ArrayRef<PyValue> xs, mlir::Type type, py::SourceLoc l);
  /// Broadcasts two run-time values to a common shape.
  mlir::LogicalResult broadcastPair(mlir::Value &a, mlir::Value &b,
                                    py::SourceLoc l);
  /// Triton's type for a binary op of `a` and `b` (either may be a constexpr).
  mlir::FailureOr<mlir::Type> promote(const PyValue &a, const PyValue &b,
                                      bool divOrMod, py::SourceLoc l);
  /// The dtype of `v`'s elements (unsigned integers included), or null.
  mlir::Type elementTypeOf(const PyValue &v);
  /// `v`'s type with its dtype as element type (`tensor<4xui8>`): what
  /// loop-carried and branch variables must keep.
  mlir::Type frontendTypeOf(const PyValue &v);
  /// Checks that integer `x` fits dtype `t` (signed or unsigned range, or
  /// either for signless widths below 64, as Triton's constants do).
  mlir::LogicalResult checkIntRange(int64_t x, mlir::Type t, py::SourceLoc l);
  mlir::FailureOr<mlir::Value> expandDims(mlir::Value v, int64_t axis,
                                          py::SourceLoc l);
  mlir::FailureOr<PyValue> subscript(const PyValue &v,
                                     const py::Subscript &sub);
  mlir::FailureOr<PyValue> select(const PyValue &cond, const PyValue &x,
                                  const PyValue &y, py::SourceLoc l);
  mlir::FailureOr<bool> truthiness(const PyValue &v, py::SourceLoc l);

  // --- builtins (Builtins.cpp) ---
  mlir::FailureOr<PyValue> callBuiltin(const std::string &name, CallArgs &args,
                                       py::SourceLoc l);
  /// Reductions, scans, dot, atomics, transposes, hints and tensor
  /// descriptors (BuiltinsExt.cpp).
  mlir::FailureOr<PyValue> callExtendedBuiltin(const std::string &name,
                                               CallArgs &args,
                                               py::SourceLoc l);
  /// tl.dot with Triton 3.6's argument checks and result type (Dot.cpp).
  mlir::FailureOr<PyValue> callDot(CallArgs &args, py::SourceLoc l);
  /// `name` ("tl.randint", ...: isRandomFunction) with Triton 3.6's Philox
  /// semantics (Random.cpp).
  mlir::FailureOr<PyValue> callRandom(const std::string &name, CallArgs &args,
                                      py::SourceLoc l);
  /// tl.sort / tl.topk: Triton 3.6's bitonic sort on the last dimension
  /// (Standard.cpp).
  mlir::FailureOr<PyValue> callSort(const std::string &name, CallArgs &args,
                                    py::SourceLoc l);
  /// The fp32/fp64 functions of triton.language.extra.libdevice
  /// (Libdevice.cpp), as math/arith ops lowered to `__nv_*` calls.
  mlir::FailureOr<PyValue> callLibdevice(const std::string &name,
                                         CallArgs &args, py::SourceLoc l);
  /// tl.extern_elementwise on libdevice symbols (Libdevice.cpp).
  mlir::FailureOr<PyValue> callExternElementwise(CallArgs &args,
                                                 py::SourceLoc l);
  // --- debugging (Debug.cpp) ---
  /// tl.device_print, and Python's print (`viaPrint`, the same function in
  /// a jit function): a tile.print with Triton's prefix shaping.
  mlir::FailureOr<PyValue> callDevicePrint(CallArgs &args, py::SourceLoc l,
                                           bool viaPrint);
  /// tl.device_assert(cond, msg).
  mlir::FailureOr<PyValue> callDeviceAssert(CallArgs &args, py::SourceLoc l);
  /// A run-time assertion (tl.device_assert named `fname`, or an `assert`
  /// statement): checks its arguments, then emits tile.assert only under
  /// KernelOptions::debug (Triton's debug=True).
  mlir::LogicalResult emitDeviceAssert(const PyValue &cond,
                                       const std::optional<PyValue> &msg,
                                       py::SourceLoc l, llvm::StringRef fname);
  mlir::FailureOr<PyValue> callMethod(const std::string &name,
                                      const PyValue &self, CallArgs &args,
                                      py::SourceLoc l);
  /// Resolves `module.attr` for the triton modules.
  mlir::FailureOr<PyValue> moduleAttr(const std::string &path,
                                      const std::string &attr,
                                      py::SourceLoc l);
  /// The host libraries whose state host code at module level asks about
  /// (torch, os, ...; HostFacts.cpp): `dotted` or a module under one.
  static bool isHostLibrary(llvm::StringRef dotted);
  /// `path.attr` in a host library: the facts of the target tilec compiles
  /// for (torch.cuda.get_device_capability() of --arch), the process
  /// environment (os.environ.get), or a located error naming what tilec
  /// answers.
  mlir::FailureOr<PyValue> hostLibraryAttr(const std::string &path,
                                           const std::string &attr,
                                           py::SourceLoc l);
  /// Calls a function hostLibraryAttr returned (`host.torch.cuda....`).
  mlir::FailureOr<PyValue> callHostFact(const std::string &name,
                                        CallArgs &args, py::SourceLoc l);
  /// Python's math.`fn` on compile-time numbers (HostFacts.cpp): CPython's
  /// results; a domain or range error is a located error.
  mlir::FailureOr<PyValue> callMath(const std::string &fn, CallArgs &args,
                                    py::SourceLoc l);
  /// A triton dtype by its name (`float16`, `fp16`, `int32`, ...).
  mlir::Type dtypeByName(llvm::StringRef name);
  /// A command-line constexpr `tl.NAME` / `triton.language.NAME` as the
  /// dtype it names; anything else unchanged.
  PyValue dtypeOrValue(PyValue v);
  /// Triton's checks of a tensor descriptor's block (a TMA box): rank 1 to
  /// 5, powers of two up to 256, at least 16 bytes in the last dimension.
  /// tl.make_block_ptr and tl.advance (BlockPointers.cpp).
  mlir::FailureOr<PyValue> callBlockPointerBuiltin(const std::string &name,
                                                   CallArgs &args,
                                                   py::SourceLoc l);
  /// The pointers and mask of an access through block pointer `bp` with
  /// Triton's `boundary_check` (dimensions; absent: none).
  mlir::FailureOr<BlockAccess>
  blockPointerAccess(const PyValue &bp,
                     const std::optional<PyValue> &boundaryCheck,
                     py::SourceLoc l);
  /// The scalars of a block pointer's shape / strides (`type` i64) or
  /// offsets (i32), converted as Triton's _convert_to_ir_values.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  blockPointerScalars(const PyValue &list, mlir::Type type,
                      llvm::StringRef what, py::SourceLoc l);
  mlir::LogicalResult checkDescriptorBlock(llvm::ArrayRef<int64_t> block,
                                           mlir::Type elem, mlir::Location l);

  // --- modules (Modules.cpp) ---
  /// One Python module's names: the kernel's file, or a module it imports
  /// (found on the import path, parsed on first use).
  struct ModuleScope {
    const py::Module *ast = nullptr;
    std::unique_ptr<py::Module> owned; ///< imported modules' syntax trees
    /// Dotted name ("__main__" for a kernel file outside any package) and
    /// the package relative imports start from ("" for none).
    std::string name, package;
    mlir::StringAttr fileName;
    /// Module-level names: imports and functions; constants are evaluated
    /// on first use.
    std::map<std::string, PyValue> globals;
    std::map<std::string, const py::ModuleConstant *> pendingConstants;
    /// The modules of its `from M import *`, in order (their public names
    /// are its names too).
    std::vector<std::string> starImports;
    /// Every module-level binding of each name (imports, functions, host
    /// functions, constants, guarded or not), where and under which ifs:
    /// checkReadOrder's index, built on its first use.
    std::optional<std::map<std::string,
                           std::vector<std::pair<py::SourceLoc,
                                                 const py::ModuleGuard *>>>>
        bindings;
  };
  /// Binds the imports, constants and jit functions of `m`.
  mlir::LogicalResult bindModule(ModuleScope &m);
  /// The module `dotted` from the import path (null if none has it; a
  /// module that does not parse is reported and fails).
  /// Whether `m` defines `name` only under module-level ifs or trys (for
  /// the note kUnderGuard adds to a "not defined" error).
  bool definedUnderGuard(const ModuleScope &m, const std::string &name);
  static const char *const kUnderGuard;
  /// " (line N binds it in module-level code tilec does not read ...)" when
  /// skipped top-level code of `m` binds `name` (tuple unpacking, a loop, a
  /// class), else "": why a use finds no value.
  static std::string skippedBindingNote(const ModuleScope &m,
                                        const std::string &name);
  /// Host code raised an exception that escaped (set by callHost as it
  /// reports it), and one did so in a module-level condition (the compile
  /// fails, as Python's import would).
  bool hostRaised = false;
  bool importRaised = false;
  /// Work host code did in this compile (HostEval.cpp's budget).
  uint64_t hostWork = 0;
  /// The module a from-import in `m` reads (`from ..x import y` in package
  /// `p.q`: `p.x`); one that climbs above the top package stays relative
  /// (`..x`), an error where it is used.
  std::string importSource(const ModuleScope &m, const py::Import &imp);
  mlir::FailureOr<ModuleScope *> loadModule(const std::string &dotted,
                                            py::SourceLoc l);
  /// `attr` of user module `m`: a function, constant or import of it, or
  /// its submodule `m.attr`.
  mlir::FailureOr<PyValue> moduleMember(ModuleScope &m, const std::string &attr,
                                        py::SourceLoc l);
  /// A module-level name of `m`, if it has one (a constant is evaluated
  /// in `m` on first use; errors about the name are located at `l` of the
  /// current module).
  mlir::FailureOr<std::optional<PyValue>>
  lookupGlobal(ModuleScope &m, const std::string &name, py::SourceLoc l);
  /// The folders imports search: the kernel file's, then options.importPaths.
  const std::vector<std::string> &importSearchPath();
  std::optional<std::vector<std::string>> searchPath;
  /// Where imports look for and read files: options.fileSystem, else the
  /// real file system.
  llvm::vfs::FileSystem &fileSystem();
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs;
  /// The function `c` makes a jit function by a call (`k = triton.jit(f)`,
  /// keywords allowed: `triton.jit(f)` with the options of the decorator
  /// form are not read), or null.
  const py::FunctionDef *jitByCall(ModuleScope &m, const py::ModuleConstant &c);
  /// The host function `name` of `m` as Python would see it after running
  /// the module: its last definition whose module-level ifs hold.
  const py::FunctionDef *lookupHostFunction(ModuleScope &m,
                                            llvm::StringRef name);
  /// Whether every condition of `guard` (module-level ifs) is known to
  /// have its wanted value, evaluated in `m` at compile time.
  bool guardHolds(ModuleScope &m, const py::ModuleGuard &guard);
  /// Whether `guard` holds: nullopt when a test cannot be decided (and
  /// none is decided false).
  std::optional<bool> guardState(ModuleScope &m, const py::ModuleGuard &guard);
  /// A key equal for values an undecidable module-level if may bind
  /// interchangeably (one value; one math function of tl, tl.math or
  /// libdevice), nullopt for values never compared so.
  static std::optional<std::string> sameValueKey(const PyValue &v);
  std::map<const py::Expr *, std::optional<bool>> guardResults;
  /// Whether `dotted` is a folder without __init__.py on the import path (a
  /// namespace package: only its submodules are names).
  bool isNamespacePackage(const std::string &dotted);

  // --- state ---
  const py::Module &module;
  const KernelOptions &options;
  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  mlir::OwningOpRef<mlir::ModuleOp> out;
  /// Every module read, the kernel's first; `cur` is the one whose names
  /// the code being generated sees (the module of the function inlined).
  std::vector<std::unique_ptr<ModuleScope>> moduleScopes;
  ModuleScope *cur = nullptr;
  std::map<std::string, ModuleScope *> modulesByName;
  std::map<const py::FunctionDef *, ModuleScope *> moduleOfFunction;
  /// `module:name` of the from-imports being resolved (cycles, depth).
  std::vector<std::string> resolvingImports;
  /// The folder of each package read (its submodules are found there).
  std::map<std::string, std::string> packageDirs;
  uint64_t moduleBytesRead = 0;
  /// Variables of the function being generated (Python function scope).
  std::map<std::string, PyValue> scope;
  /// Call sites of the helpers being inlined (innermost last).
  std::vector<mlir::Location> callStack;
  /// > 0 inside an inlined `@core.extern` function (dict literals allowed).
  int externDepth = 0;
  std::vector<std::string> evaluatingConstants;
  /// Where each module being run stands: Python runs a module top to
  /// bottom, so a module-level statement reads the names bound above it.
  /// One entry per module constant or module-level test being evaluated
  /// (by the code generator or HostEval.cpp), innermost last.
  struct ModuleRunPoint {
    const ModuleScope *module;
    py::SourceLoc at;
    std::string reader; ///< "module constant 'B'", "the module-level if"
  };
  std::vector<ModuleRunPoint> moduleRunPoints;
  /// A read of module-level `name` of `m` (at `use`) while `m` runs: tilec
  /// keeps one value per module-level name, its last binding, so a read
  /// before that binding is refused (Python would see an earlier binding,
  /// or raise NameError). Succeeds where `m` is not running.
  mlir::LogicalResult checkReadOrder(ModuleScope &m, const std::string &name,
                                     py::SourceLoc use);
  /// The assignment that gives module constant `name` of `m` its value
  /// (bindModule's choice; else the last one whose ifs hold), or null.
  const py::ModuleConstant *boundConstant(ModuleScope &m,
                                          const std::string &name);
  /// Set by a `return` in an inlined helper.
  std::optional<PyValue> returnValue;
  unsigned inlineDepth = 0;
  /// Inside a dry run of a loop body (generated in a scratch block to learn
  /// which variables it carries): a loop met there runs its body once and
  /// binds stand-ins for its results (bindDryRunResults) rather than
  /// generating the body a second time.
  bool dryRun = false;
  /// Binds each of `slots` to a stand-in value of its init's type and the
  /// matching dtype: what a loop yields, as far as a dry run needs to know.
  void bindDryRunResults(llvm::ArrayRef<CarriedSlot> slots,
                         mlir::ValueRange inits,
                         llvm::ArrayRef<mlir::Type> dtypes, mlir::Location l);
  /// The values after `ifOp` (on `cond`, its branches generated) of each of
  /// `values`: those that differ become results of the if (re-created with
  /// them; `ifOp` is updated), a structured value leaf by leaf. Errors for
  /// different compile-time values, structures or types, located at `l`.
  mlir::FailureOr<std::vector<PyValue>>
  mergeBranches(mlir::scf::IfOp &ifOp, mlir::Value cond,
                llvm::ArrayRef<BranchValues> values, py::SourceLoc l);
  /// The leaves of structured variable `name` a loop carries, from its
  /// values before the loop and at the end of the dry run: every run-time
  /// leaf and the numbers that change; a located error if the two differ
  /// otherwise.
  mlir::FailureOr<llvm::SmallVector<int>>
  loopCarriedLeaves(llvm::StringRef name, const PyValue &init,
                    const PyValue &next, py::SourceLoc l);
  /// Binds `slot` in the current scope to `v` (a structured variable's leaf
  /// is replaced inside it).
  void bindSlot(const CarriedSlot &slot, PyValue v);
  /// Work done so far, against KernelOptions' budgets.
  unsigned inlinedCalls = 0;
  unsigned unrolledIterations = 0;
  /// tl.static_print remarks so far (at most kMaxStaticPrints are shown).
  unsigned staticPrints = 0;
  /// Counts the work of the operations `b` creates (tile::getOperationWork:
  /// scalar operations per thread once lowered), dry runs included.
  struct OpCounter : public mlir::OpBuilder::Listener {
    uint64_t count = 0;
    int64_t threadsPerCTA = 128;
    void notifyOperationInserted(mlir::Operation *op,
                                 mlir::OpBuilder::InsertPoint) override {
      count += tile::getOperationWork(op, threadsPerCTA);
    }
  } opCounter;
  /// An error at `l` when the kernel's tile IR has grown past
  /// KernelOptions::maxOperations.
  mlir::LogicalResult checkOperationBudget(py::SourceLoc l);
};

/// The most values in a compile-time tuple with its nested tuples' (2^18:
/// a copy of one that large takes about 150 MB).
inline constexpr uint64_t kMaxCompileTimeValues = uint64_t(1) << 18;

/// Whether an annotation expression names tl.constexpr.
bool isConstexprAnnotation(const py::Expr *annotation);

} // namespace tilec::frontend

#endif // TILEC_COMPILER_FRONTEND_CODEGEN_H
