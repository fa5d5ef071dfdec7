//===- ImportToTile.cpp - Triton-language AST to tile IR --------*- C++ -*-===//
//
// The driver of the front end's code generator and its expression and
// statement visitors. Control flow follows Triton's code generator: an `if`
// on a constexpr compiles only the taken branch; an `if` on a run-time
// value becomes scf.if yielding the variables either branch assigns; `for`
// over range()/tl.range() becomes scf.for carrying the variables the body
// re-assigns (found by generating the body once in a scratch block to learn
// their types, as Triton does); tl.static_range unrolls; `while` becomes
// scf.while. Helpers are inlined with their own scope; ops inside carry a
// CallSiteLoc so errors show the call site as a note.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"
#include "tilec/Runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;


//===----------------------------------------------------------------------===//
// PyValue
//===----------------------------------------------------------------------===//

bool PyValue::isConstexpr() const {
  switch (kind) {
  case Kind::Runtime:
  case Kind::Descriptor:
  case Kind::BlockPtr:
    return false;
  case Kind::Tuple:
  case Kind::Dict:
    return llvm::all_of(elts, [](const PyValue &e) { return e.isConstexpr(); });
  default:
    return true;
  }
}

std::string PyValue::describe() const {
  switch (kind) {
  case Kind::None: return "None";
  case Kind::Int: return "int " + std::to_string(i);
  case Kind::Float: return "float";
  case Kind::Bool: return b ? "True" : "False";
  case Kind::Str: return "str '" + s + "'";
  case Kind::DType: {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << "dtype " << dtype;
    return out;
  }
  case Kind::Tuple: return "tuple of " + std::to_string(elts.size());
  case Kind::Dict: return "dict of " + std::to_string(elts.size() / 2);
  case Kind::BlockPtr: {
    std::string out = "block pointer to ";
    llvm::raw_string_ostream os(out);
    for (const PyValue &d : elts[4].elts)
      os << d.i << "x";
    os << cast<tile::PtrType>(elts[0].v.getType()).getPointeeType();
    return out;
  }
  case Kind::Runtime:
  case Kind::Descriptor: {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << v.getType();
    return out;
  }
  case Kind::JitFunction: return "function '" + fn->name + "'";
  case Kind::HostFunction: return "host function '" + fn->name + "'";
  case Kind::Builtin: return "function '" + s + "'";
  case Kind::Method: return "method '" + s + "'";
  case Kind::Module: return "module '" + s + "'";
  case Kind::Slice: return "slice";
  }
  return "value";
}

bool frontend::isConstexprAnnotation(const py::Expr *a) {
  if (!a)
    return false;
  if (auto *attr = llvm::dyn_cast<py::Attribute>(a))
    return attr->attr == "constexpr";
  if (auto *name = llvm::dyn_cast<py::Name>(a))
    return name->id == "constexpr";
  if (auto *str = llvm::dyn_cast<py::StringLiteral>(a))
    return llvm::StringRef(str->value).ends_with("constexpr");
  return false;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

CodeGen::CodeGen(const py::Module &module, const KernelOptions &options,
                 MLIRContext *ctx)
    : module(module), options(options), ctx(ctx), b(ctx) {
  b.setListener(&opCounter);
  auto main = std::make_unique<ModuleScope>();
  main->ast = &module;
  main->fileName = StringAttr::get(ctx, module.fileName);
  cur = main.get();
  moduleScopes.push_back(std::move(main));
}

LogicalResult CodeGen::checkOperationBudget(SourceLoc l) {
  if (options.maxOperations == 0 || opCounter.count <= options.maxOperations)
    return success();
  error(l) << "the kernel's tile IR exceeds the budget of "
           << options.maxOperations
           << " operations " << frontend::kOperationWorkRule;
  return failure();
}

void CodeGen::bindDryRunResults(llvm::ArrayRef<CarriedSlot> slots,
                                ValueRange inits, llvm::ArrayRef<Type> dtypes,
                                Location l) {
  for (auto [slot, init, dtype] : llvm::zip_equal(slots, inits, dtypes)) {
    // A stand-in of the loop result's type; the dry run's block is erased.
    Value v = UnrealizedConversionCastOp::create(b, l, init.getType(),
                                                 ValueRange{})
                  .getResult(0);
    bindSlot(slot, PyValue::ofValue(v, tile::getElementTypeOrSelf(dtype)));
  }
}

void CodeGen::bindSlot(const CarriedSlot &slot, PyValue v) {
  if (slot.leaf < 0) {
    scope[slot.name] = std::move(v);
    return;
  }
  *leavesOf(scope[slot.name])[slot.leaf] = std::move(v);
}

bool frontend::isStructured(const PyValue &v) {
  return v.kind == PyValue::Kind::BlockPtr ||
         (v.kind == PyValue::Kind::Tuple && !v.isConstexpr());
}

bool frontend::isStructuredPair(const PyValue &a, const PyValue &b) {
  // Two tuples of numbers that differ are carried leaf by leaf too, as
  // Triton makes their numbers tensors.
  return isStructured(a) || isStructured(b) ||
         (a.kind == PyValue::Kind::Tuple && b.kind == PyValue::Kind::Tuple);
}

namespace {
template <typename V, typename Out> void collectLeaves(V &v, Out &out) {
  // Numbers too: a loop may make one a run-time value, as it does a
  // variable's.
  if (v.kind == PyValue::Kind::Runtime || v.isNumber()) {
    out.push_back(&v);
    return;
  }
  if (v.kind == PyValue::Kind::Tuple)
    for (auto &e : v.elts)
      collectLeaves(e, out);
  // A block pointer's base, shape, strides and offsets; its block shape
  // and order are constants.
  if (v.kind == PyValue::Kind::BlockPtr)
    for (size_t k = 0; k < 4; ++k)
      collectLeaves(v.elts[k], out);
}
} // namespace

std::vector<PyValue *> frontend::leavesOf(PyValue &v) {
  std::vector<PyValue *> out;
  collectLeaves(v, out);
  return out;
}

std::vector<const PyValue *> frontend::leavesOf(const PyValue &v) {
  std::vector<const PyValue *> out;
  collectLeaves(v, out);
  return out;
}

Location CodeGen::loc(SourceLoc l) {
  Location result = FileLineColLoc::get(cur->fileName, l.line, l.col);
  // The innermost call site already carries its own callers.
  if (!callStack.empty())
    result = CallSiteLoc::get(result, callStack.back());
  return result;
}

InFlightDiagnostic CodeGen::error(SourceLoc l) { return error(loc(l)); }
InFlightDiagnostic CodeGen::error(Location l) { return emitError(l); }

namespace {
/// A parsed signature entry.
struct SigEntry {
  bool isPointer = false;
  /// `tensordesc<T[B0,...]>`: a host-side tensor descriptor of `type`
  /// elements (the block's), passed as base, sizes and strides.
  bool isTensorDesc = false;
  SmallVector<int64_t> block;
  Type type; ///< the dtype: `ui32`, `!tile.ptr<ui32>` for unsigned entries
  int64_t divisibility = 1;
  bool equalToOne = false;
  std::string text;
};

std::string trim(llvm::StringRef s) { return s.trim().str(); }

/// A constexpr value from text: int, float, bool, None, a tuple of these
/// (`(64, 2)`, `[64, 2]`, `(64,)`, `()`), else a string.
PyValue parseConstexprText(llvm::StringRef text, bool &tooBig, bool &malformed,
                           unsigned nesting = 0) {
  // As Triton's compile.py: int(text) (decimal, an optional sign, `_`
  // separators: "0100" is 100, "+64" is 64), else float(text) (no hex), else
  // the string.
  tooBig = false;
  if (nesting == 0)
    malformed = false;
  text = text.trim();
  if (!text.empty() && (text.front() == '(' || text.front() == '[')) {
    // A tuple; text that starts like one and does not parse is an error,
    // not a string, and nesting is bounded as the parser bounds it.
    if (nesting >= 200 || text.size() < 2 ||
        text.back() != (text.front() == '(' ? ')' : ']')) {
      malformed = true;
      return PyValue::none();
    }
    // Top-level commas separate the elements; a trailing one is allowed.
    llvm::StringRef body = text.drop_front().drop_back();
    std::vector<PyValue> elts;
    int depth = 0;
    char quote = 0;
    size_t start = 0;
    bool ok = true;
    for (size_t k = 0; k <= body.size() && ok; ++k) {
      char c = k < body.size() ? body[k] : ',';
      if (quote) {
        if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '"' || c == '\'')
        quote = c;
      else if (c == '(' || c == '[')
        ++depth;
      else if (c == ')' || c == ']')
        ok = --depth >= 0;
      else if (c == ',' && depth == 0) {
        llvm::StringRef part = body.slice(start, k).trim();
        start = k + 1;
        if (part.empty()) {
          // `(64,)`'s trailing comma or `()`; `(,)` and `(1,,2)` are not.
          ok = k == body.size() && (!elts.empty() || body.trim().empty());
          continue;
        }
        if (elts.size() >= (size_t(1) << 16)) {
          ok = false;
          break;
        }
        PyValue e = parseConstexprText(part, tooBig, malformed, nesting + 1);
        if (tooBig || malformed)
          return PyValue::none();
        // An unquoted element is one word: `(1 2)` is not a tuple of one
        // string.
        if (e.kind == PyValue::Kind::Str && part.front() != '"' &&
            part.front() != '\'' &&
            part.find_first_of(" \t") != llvm::StringRef::npos)
          ok = false;
        elts.push_back(std::move(e));
      }
    }
    if (!ok || depth != 0 || quote) {
      malformed = true;
      return PyValue::none();
    }
    return PyValue::ofTuple(std::move(elts));
  }
  if (!text.empty() && (text.back() == ')' || text.back() == ']')) {
    malformed = true;
    return PyValue::none();
  }
  int64_t value = 0;
  switch (parsePythonInt(text, value)) {
  case IntParse::Ok:
    return PyValue::ofInt(value);
  case IntParse::TooBig: // an error, not a float
    tooBig = true;
    return PyValue::none();
  case IntParse::Invalid:
    break;
  }
  double d;
  if (!text.contains_insensitive("x") && !text.getAsDouble(d))
    return PyValue::ofFloat(d);
  if (text == "True" || text == "true")
    return PyValue::ofBool(true);
  if (text == "False" || text == "false")
    return PyValue::ofBool(false);
  if (text == "None")
    return PyValue::none();
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    text = text.drop_front().drop_back();
  return PyValue::ofStr(text.str());
}
} // namespace

PyValue CodeGen::dtypeOrValue(PyValue v) {
  // `-D DTYPE=tl.bfloat16` (or triton.language.bfloat16): the dtype. A
  // bare `bf16` stays a string (kernels compare precision strings).
  if (v.kind != PyValue::Kind::Str)
    return v;
  llvm::StringRef t(v.s);
  if (t.consume_front("tl.") || t.consume_front("triton.language."))
    if (Type d = dtypeByName(t))
      return PyValue::ofDType(d);
  return v;
}

OwningOpRef<ModuleOp> CodeGen::run() {
  Location fileLoc = FileLineColLoc::get(cur->fileName, 1, 1);
  // Errors about the file or the options as a whole (printed as
  // `file: error: ...`, DiagnosticReporter).
  Location wholeFile = FileLineColLoc::get(cur->fileName, 0, 0);
  out = ModuleOp::create(fileLoc);
  // Module-level code evaluated before the kernel exists (the bindings of
  // module-level trys and undecidable ifs, autotune configs) may build ops
  // that are not compile-time values and are discarded: they go to this
  // block, freed when run() returns (built with no insertion point, each
  // leaked; found by the fuzzer).
  Block preamble;
  b.setInsertionPointToStart(&preamble);

  // Module-level names.
  if (failed(bindModule(*cur)))
    return nullptr;

  // The module's binding of the name first (`k = triton.jit(f)`, a
  // definition under a module-level if), else any jit function of it.
  const py::FunctionDef *kernel = nullptr;
  if (!options.kernelName.empty()) {
    auto g = cur->globals.find(options.kernelName);
    if (g != cur->globals.end() && g->second.kind == PyValue::Kind::JitFunction)
      kernel = g->second.fn;
    else if (const py::FunctionDef *f = module.lookupFunction(options.kernelName);
             f && f->guard.empty())
      kernel = f; // (one under an if that does not hold is not defined)
  }
  if (!kernel) {
    // The file's jit functions, at most 20 of them.
    std::string names;
    size_t shown = 0;
    std::vector<std::string> all;
    for (const auto &fn : module.functions)
      all.push_back(fn->name);
    // ... and the names bound by a call (`k = triton.jit(f)`).
    for (const auto &[name, v] : cur->globals)
      if (v.kind == PyValue::Kind::JitFunction &&
          !llvm::is_contained(all, name))
        all.push_back(name);
    for (const std::string &name : all)
      if (shown++ < 20)
        names += (names.empty() ? "" : ", ") + name;
    if (all.size() > 20)
      names += ", and " + std::to_string(all.size() - 20) + " more";
    // About the file as a whole: line 0 (printed as `file: error: ...`).
    InFlightDiagnostic d = emitError(FileLineColLoc::get(cur->fileName, 0, 0));
    if (options.kernelName.empty())
      d << "expected --kernel NAME, the @triton.jit function to compile";
    else if (module.lookupFunction(options.kernelName))
      d << "kernel '" << options.kernelName
        << "' is defined only under a module-level if whose condition is "
           "false or cannot be decided at compile time";
    else
      d << "kernel '" << options.kernelName
        << "' not found: expected a @triton.jit function of that name";
    d << "; the file's jit functions are: " << (names.empty() ? "(none)" : names);
    return nullptr;
  }
  Location kernelLoc = loc(kernel->loc);
  if (kernel->isExtern) {
    emitError(kernelLoc) << "'" << options.kernelName
                         << "' is a @core.extern function, not a kernel: "
                            "expected a @triton.jit function";
    return nullptr;
  }

  // Constexpr values from -D, then the chosen autotune config's.
  std::map<std::string, PyValue> constexprValues;
  for (auto &[name, text] : options.constexprs) {
    if (constexprValues.count(name)) {
      emitError(wholeFile) << "-D " << name << " given more than once";
      return nullptr;
    }
    bool tooBig, malformed;
    constexprValues[name] =
        dtypeOrValue(parseConstexprText(text, tooBig, malformed));
    if (tooBig) {
      emitError(wholeFile) << "-D " << name << "=" << text
                         << ": the integer does not fit in 64 bits (tilec's "
                            "compile-time integers are 64-bit)";
      return nullptr;
    }
    if (malformed) {
      emitError(wholeFile)
          << "-D " << name << "=" << StringRef(text).take_front(80)
          << (text.size() > 80 ? "..." : "")
          << ": expected a tuple such as (64, 2), [64, 2] or (64,) of numbers, "
             "True/False/None, quoted strings and tuples, nested at most 200 "
             "deep";
      return nullptr;
    }
  }
  unsigned numWarps = options.numWarps, numStages = options.numStages;
  // The autotune config's maxnreg (tile.maxnreg; tilec --maxnreg applies to
  // kernels without one, in tile-lower-to-simt).
  int64_t maxNReg = 0;
  // num_stages: as tl.range's, at most 1024 (a pipeline that deep has no
  // use, and each stage is unrolled into the prologue).
  constexpr unsigned kMaxNumStages = 1024;
  if (numStages > kMaxNumStages) {
    emitError(wholeFile) << "expected num_stages in [1, " << kMaxNumStages
                       << "], found " << numStages;
    return nullptr;
  }
  std::optional<AutotuneSpec> autotune;
  for (const py::ExprPtr &dec : kernel->decorators) {
    auto *callExpr = llvm::dyn_cast<py::Call>(dec.get());
    if (!callExpr)
      continue;
    auto *attr = llvm::dyn_cast<py::Attribute>(callExpr->func.get());
    std::string fname = attr ? attr->attr : "";
    if (auto *n = llvm::dyn_cast<py::Name>(callExpr->func.get()))
      fname = n->id;
    if (fname != "autotune")
      continue;
    if (autotune) {
      emitError(loc(callExpr->loc))
          << "unimplemented: a second @triton.autotune on '" << kernel->name
          << "'";
      return nullptr;
    }
    // Configs that cannot matter (no --autotune-config, every constexpr
    // given with -D) are read if tilec can; if it cannot (a library's
    // tuning tables, a torch query deciding num_warps), the kernel is
    // compiled from the command line with a warning instead of failing.
    bool configsOptional =
        options.autotuneConfig < 0 &&
        llvm::all_of(kernel->params, [&](const py::Param &p) {
          return !isConstexprAnnotation(p.annotation.get()) ||
                 constexprValues.count(p.name);
        });
    std::string why;
    Location whyLoc = loc(callExpr->loc);
    FailureOr<AutotuneSpec> spec = failure();
    {
      std::optional<ScopedDiagnosticHandler> capture;
      if (configsOptional)
        capture.emplace(ctx, [&](Diagnostic &d) -> LogicalResult {
          if (d.getSeverity() != DiagnosticSeverity::Error)
            return failure(); // not ours: passed on
          if (why.empty()) {
            why = d.str();
            whyLoc = d.getLocation();
          }
          return success();
        });
      spec = evalAutotune(*this, *callExpr);
    }
    if (failed(spec)) {
      if (!configsOptional)
        return nullptr;
      emitWarning(whyLoc)
          << "@triton.autotune configs of '" << kernel->name
          << "' not evaluated (" << why
          << "); every constexpr parameter is given with -D, so tilec "
             "compiles with num_warps="
          << (numWarps ? numWarps : 4)
          << " and num_stages=" << (numStages ? numStages : 3)
          << " (--num-warps, --num-stages)";
      continue;
    }
    autotune = std::move(*spec);
    // An empty list is Triton's one default config.
    if (autotune->configs.empty()) {
      autotune->configs.emplace_back();
      autotune->configs.back().loc = autotune->loc;
    }
  }
  if (options.autotuneConfig >= 0 && !autotune) {
    emitError(kernelLoc) << "--autotune-config " << options.autotuneConfig
                         << ": kernel '" << kernel->name
                         << "' has no @triton.autotune configs to choose from";
    return nullptr;
  }
  SmallVector<NamedAttribute> autotuneAttrs;
  if (autotune) {
    size_t index = std::max(options.autotuneConfig, 0);
    size_t count = autotune->configs.size();
    if (index >= count) {
      emitError(loc(autotune->loc))
          << "--autotune-config " << index << " is out of range: the "
          << "@triton.autotune of '" << kernel->name << "' has " << count
          << (count == 1 ? " config (index 0)"
                         : " configs (0 to " + std::to_string(count - 1) + ")");
      return nullptr;
    }
    const AutotuneConfig &cfg = autotune->configs[index];
    Location cfgLoc = loc(cfg.loc);
    auto refuse = [&](StringRef what) {
      emitError(cfgLoc) << "unimplemented: " << what << " in autotune config "
                        << index << " of '" << kernel->name
                        << "'; choose another with --autotune-config";
      return nullptr;
    };
    if (cfg.numCtas != 1)
      return refuse("num_ctas=" + std::to_string(cfg.numCtas) +
                    " (thread-block clusters)");
    if (cfg.maxnreg && (*cfg.maxnreg < 16 || *cfg.maxnreg > 255)) {
      emitError(cfgLoc) << "expected maxnreg in [16, 255] in autotune config "
                        << index << ", found " << *cfg.maxnreg;
      return nullptr;
    }
    if (cfg.hasPreHook)
      return refuse("a pre_hook (host code run before each launch)");
    if (cfg.hasIROverride)
      return refuse("an ir_override");
    if (!numWarps && (cfg.numWarps < 1 || cfg.numWarps > 32 ||
                      (cfg.numWarps & (cfg.numWarps - 1)))) {
      emitError(cfgLoc) << "expected num_warps a power of two in [1, 32] in "
                           "autotune config "
                        << index << ", found " << cfg.numWarps;
      return nullptr;
    }
    if (!numStages && (cfg.numStages < 1 || cfg.numStages > kMaxNumStages)) {
      emitError(cfgLoc) << "expected num_stages in [1, " << kMaxNumStages
                        << "] in autotune config "
                        << index << ", found " << cfg.numStages;
      return nullptr;
    }
    for (auto &[name, value] : cfg.constexprs) {
      if (!llvm::any_of(kernel->params, [&, n = name](const py::Param &p) {
            return p.name == n && isConstexprAnnotation(p.annotation.get());
          })) {
        emitError(cfgLoc) << "autotune config " << index << " sets '" << name
                          << "', which is not a tl.constexpr parameter of '"
                          << kernel->name << "'";
        return nullptr;
      }
      // -D and the signature win over the config.
      constexprValues.emplace(name, value);
    }
    if (!numWarps)
      numWarps = unsigned(cfg.numWarps);
    if (!numStages)
      numStages = unsigned(cfg.numStages);
    if (cfg.maxnreg)
      maxNReg = *cfg.maxnreg;

    // Every config, as data on the kernel.
    SmallVector<Attribute> configs;
    for (const AutotuneConfig &c : autotune->configs) {
      SmallVector<NamedAttribute> values, entries;
      for (auto &[name, v] : c.constexprs) {
        Attribute a;
        switch (v.kind) {
        case PyValue::Kind::Int:
          a = b.getI64IntegerAttr(v.i);
          break;
        case PyValue::Kind::Float:
          a = b.getF64FloatAttr(v.f);
          break;
        case PyValue::Kind::Bool:
          a = b.getBoolAttr(v.b);
          break;
        case PyValue::Kind::Str:
          a = b.getStringAttr(v.s);
          break;
        default: // None
          a = b.getUnitAttr();
          break;
        }
        values.push_back(b.getNamedAttr(name, a));
      }
      entries.push_back(
          b.getNamedAttr("constexprs", b.getDictionaryAttr(values)));
      entries.push_back(
          b.getNamedAttr("num_warps", b.getI64IntegerAttr(c.numWarps)));
      entries.push_back(
          b.getNamedAttr("num_stages", b.getI64IntegerAttr(c.numStages)));
      if (c.numCtas != 1)
        entries.push_back(
            b.getNamedAttr("num_ctas", b.getI64IntegerAttr(c.numCtas)));
      if (c.maxnreg)
        entries.push_back(
            b.getNamedAttr("maxnreg", b.getI64IntegerAttr(*c.maxnreg)));
      if (c.hasPreHook)
        entries.push_back(b.getNamedAttr("pre_hook", b.getUnitAttr()));
      if (c.hasIROverride)
        entries.push_back(b.getNamedAttr("ir_override", b.getUnitAttr()));
      configs.push_back(b.getDictionaryAttr(entries));
    }
    SmallVector<Attribute> keys;
    for (const std::string &k : autotune->key)
      keys.push_back(b.getStringAttr(k));
    autotuneAttrs.push_back(b.getNamedAttr("configs", b.getArrayAttr(configs)));
    autotuneAttrs.push_back(b.getNamedAttr("key", b.getArrayAttr(keys)));
    for (auto [name, list] :
         {std::pair{"reset_to_zero", &autotune->resetToZero},
          std::pair{"restore_value", &autotune->restoreValue}})
      if (!list->empty()) {
        SmallVector<Attribute> names;
        for (const std::string &n : *list)
          names.push_back(b.getStringAttr(n));
        autotuneAttrs.push_back(b.getNamedAttr(name, b.getArrayAttr(names)));
      }
    autotuneAttrs.push_back(
        b.getNamedAttr("selected", b.getI64IntegerAttr(int64_t(index))));
  }
  if (!numWarps)
    numWarps = 4;
  if (!numStages)
    numStages = 3;
  opCounter.threadsPerCTA = 32 * int64_t(numWarps);

  // Signature entries -> parameters.
  std::vector<const py::Param *> params;
  for (const py::Param &p : kernel->params) {
    if (p.kind != py::Param::Kind::Positional &&
        p.kind != py::Param::Kind::PositionalOnly) {
      emitError(loc(p.loc)) << "unimplemented: kernel parameter '" << p.name
                            << "' is not a plain positional parameter";
      return nullptr;
    }
    params.push_back(&p);
  }
  SmallVector<std::string> entries;
  if (!llvm::StringRef(options.signature).trim().empty()) {
    // Commas inside a descriptor's block (`tensordesc<fp16[64, 64]>`) or a
    // tuple value (`(64, 2)`) do not separate entries.
    std::vector<std::string_view> parts =
        tilec::Signature::splitEntries(options.signature);
    for (auto [i, part] : llvm::enumerate(parts)) {
      llvm::StringRef p(part.data(), part.size());
      if (p.trim().empty()) {
        emitError(wholeFile) << "expected a type or a value for signature entry "
                           << i + 1 << " of '" << options.signature
                           << "', found an empty entry";
        return nullptr;
      }
      entries.push_back(trim(p));
    }
  }
  unsigned numRuntime = llvm::count_if(params, [](const py::Param *p) {
    return !isConstexprAnnotation(p->annotation.get());
  });
  bool positionalAll = entries.size() == params.size();
  if (!positionalAll && entries.size() != numRuntime) {
    auto d = emitError(kernelLoc);
    d << "expected a signature of " << numRuntime
      << (numRuntime == 1 ? " entry" : " entries");
    if (numRuntime != params.size())
      d << " (one per non-constexpr parameter) or " << params.size()
        << " (one per parameter)";
    d << ", found " << entries.size() << " in '" << options.signature << "'";
    return nullptr;
  }

  SmallVector<Type> argTypes;
  SmallVector<SigEntry> sig;
  SmallVector<const py::Param *> runtimeParams;
  std::set<std::string> noneParams;
  size_t next = 0;
  for (const py::Param *p : params) {
    bool isConst = isConstexprAnnotation(p->annotation.get());
    if (isConst) {
      if (positionalAll) {
        std::string text = entries[next++];
        for (auto &[name, value] : options.constexprs)
          if (name == p->name && value != text) {
            emitError(loc(p->loc))
                << "constexpr '" << p->name << "' given twice: '" << text
                << "' in the signature and '" << value << "' with -D";
            return nullptr;
          }
        // The signature's value wins over an autotune config's.
        bool tooBig, malformed;
        constexprValues[p->name] =
            dtypeOrValue(parseConstexprText(text, tooBig, malformed));
        if (malformed) {
          emitError(loc(p->loc))
              << "constexpr '" << p->name
              << "' = " << StringRef(text).take_front(80)
              << (text.size() > 80 ? "..." : "")
              << " in the signature: expected a tuple such as (64, 2), "
                 "[64, 2] or (64,) of numbers, True/False/None, quoted "
                 "strings and tuples, nested at most 200 deep";
          return nullptr;
        }
        if (tooBig) {
          emitError(loc(p->loc))
              << "constexpr '" << p->name << "' = " << text
              << " in the signature does not fit in 64 bits (tilec's "
                 "compile-time integers are 64-bit)";
          return nullptr;
        }
      }
      continue;
    }
    std::string text = entries[next++];
    // A parameter given as None (in the signature, or -D NAME=None) is the
    // compile-time None, as Triton's JIT specializes a None argument: the
    // kernel tests it with `is None` and it is not passed at launch.
    bool noneByD = llvm::any_of(options.constexprs, [&](const auto &kv) {
      return kv.first == p->name && llvm::StringRef(kv.second).trim() == "None";
    });
    if (llvm::StringRef(text).trim() == "None" || noneByD) {
      noneParams.insert(p->name);
      continue;
    }
    // The runtime's parser: one definition of the syntax (runtime.md).
    SigEntry e;
    e.text = text;
    tilec::ParamType entry;
    if (tilec::Status st = tilec::ParamType::parse(trim(text), entry);
        !st.ok()) {
      emitError(loc(p->loc)) << "signature entry '" << text
                             << "' for parameter '" << p->name
                             << "': " << st.message();
      return nullptr;
    }
    Type elem = dtypeByName(tilec::toString(entry.type));
    if (entry.isTensorDesc) {
      SmallVector<int64_t> block(entry.block.begin(), entry.block.end());
      if (failed(checkDescriptorBlock(block, elem, loc(p->loc))))
        return nullptr;
      e.isTensorDesc = true;
      e.block = block;
      e.type = elem;
      argTypes.push_back(tile::PtrType::get(ctx, toIRType(elem)));
      for (size_t k = 0; k < block.size(); ++k)
        argTypes.push_back(b.getI32Type());
      for (size_t k = 0; k + 1 < block.size(); ++k)
        argTypes.push_back(b.getI64Type());
      sig.push_back(e);
      runtimeParams.push_back(p);
      continue;
    }
    e.isPointer = entry.isPointer;
    e.equalToOne = entry.equalToOne;
    if (entry.divisibility > (uint64_t(1) << 30)) {
      emitError(loc(p->loc))
          << "signature entry '" << text << "' for parameter '" << p->name
          << "': divisibility " << entry.divisibility
          << " is more than tilec's limit of 2^30";
      return nullptr;
    }
    if (entry.divisibility > 1)
      e.divisibility = int64_t(entry.divisibility);
    e.type = e.isPointer ? Type(tile::PtrType::get(ctx, elem)) : elem;
    argTypes.push_back(toIRType(e.type));
    sig.push_back(e);
    runtimeParams.push_back(p);
  }

  // The kernel.
  b.setInsertionPointToEnd(out->getBody());
  auto func = tile::FuncOp::create(b, kernelLoc, kernel->name,
                                   b.getFunctionType(argTypes, {}));
  func->setAttr(tile::TileDialect::getNumWarpsAttrName(),
                b.getI32IntegerAttr(numWarps));
  func->setAttr(tile::TileDialect::getNumStagesAttrName(),
                b.getI32IntegerAttr(numStages));
  if (maxNReg)
    func->setAttr(tile::TileDialect::getMaxNRegAttrName(),
                  b.getI32IntegerAttr(int32_t(maxNReg)));
  if (!autotuneAttrs.empty())
    func->setAttr("tile.autotune", b.getDictionaryAttr(autotuneAttrs));
  Block *entry = func.addEntryBlock();
  // The first function argument of each signature entry (a descriptor
  // occupies 2 * rank).
  SmallVector<unsigned> firstArg;
  unsigned argNo = 0;
  for (auto [k, e] : llvm::enumerate(sig)) {
    unsigned i = argNo;
    firstArg.push_back(i);
    // The parameter's name and place: diagnostics use the place, the AOT
    // launcher (tilec --aot) the name.
    Location argLoc = NameLoc::get(b.getStringAttr(runtimeParams[k]->name),
                                   loc(runtimeParams[k]->loc));
    if (e.isTensorDesc) {
      unsigned rank = e.block.size();
      auto ptr = cast<tile::PtrType>(argTypes[i]);
      auto blockType = RankedTensorType::get(e.block, ptr.getPointeeType());
      // Base 16-byte aligned, strides multiples of 16 bytes: what TMA and
      // Triton's TensorDescriptor require, and the runtime checks.
      func.setArgAttr(i, tile::TileDialect::getTensorDescAttrName(),
                      TypeAttr::get(blockType));
      func.setArgAttr(i, tile::TileDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(16));
      if (e.type != ptr.getPointeeType())
        func.setArgAttr(i, tile::TileDialect::getUnsignedAttrName(),
                        b.getUnitAttr());
      int64_t bytes =
          std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
      for (unsigned d = 0; d + 1 < rank; ++d)
        if (16 / bytes > 1)
          func.setArgAttr(i + 1 + rank + d,
                          tile::TileDialect::getDivisibilityAttrName(),
                          b.getI32IntegerAttr(int32_t(16 / bytes)));
      for (unsigned j = 0; j < 2 * rank; ++j)
        entry->getArgument(i + j).setLoc(argLoc);
      argNo += 2 * rank;
      continue;
    }
    if (e.divisibility > 1)
      func.setArgAttr(i, tile::TileDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(e.divisibility));
    if (e.equalToOne)
      func.setArgAttr(i, tile::TileDialect::getEqualToAttrName(),
                      b.getI32IntegerAttr(1));
    if (e.type != argTypes[i])
      func.setArgAttr(i, tile::TileDialect::getUnsignedAttrName(),
                      b.getUnitAttr());
    entry->getArgument(i).setLoc(argLoc);
    ++argNo;
  }
  b.setInsertionPointToStart(entry);

  for (auto &[name, text] : options.constexprs)
    if (!options.constexprsForSomeKernel && !noneParams.count(name) &&
        !llvm::any_of(params, [&, n = name](const py::Param *p) {
          return p->name == n && isConstexprAnnotation(p->annotation.get());
        })) {
      emitError(kernelLoc) << "-D " << name << ": kernel '" << kernel->name
                           << "' has no constexpr parameter of that name";
      return nullptr;
    }
  size_t argIndex = 0;
  for (const py::Param *p : params) {
    if (noneParams.count(p->name)) {
      scope[p->name] = PyValue::none();
      continue;
    }
    if (!isConstexprAnnotation(p->annotation.get())) {
      const SigEntry &e = sig[argIndex];
      unsigned first = firstArg[argIndex];
      ++argIndex;
      // An `i32:1` argument is the constant 1, as Triton specializes it (the
      // parameter stays in the signature; the runtime checks it).
      if (e.equalToOne) {
        scope[p->name] = PyValue::ofInt(1);
        continue;
      }
      if (e.isTensorDesc) {
        // The descriptor the arguments describe; its last stride is 1.
        unsigned rank = e.block.size();
        Value base = entry->getArgument(first);
        SmallVector<Value> shape, strides;
        for (unsigned d = 0; d < rank; ++d)
          shape.push_back(entry->getArgument(first + 1 + d));
        for (unsigned d = 0; d + 1 < rank; ++d)
          strides.push_back(entry->getArgument(first + 1 + rank + d));
        Location argLoc = loc(p->loc);
        strides.push_back(arith::ConstantOp::create(
            b, argLoc, b.getI64IntegerAttr(1)));
        auto ptr = cast<tile::PtrType>(base.getType());
        auto descType = tile::TensorDescType::get(
            ctx, RankedTensorType::get(e.block, ptr.getPointeeType()));
        PyValue d;
        d.kind = PyValue::Kind::Descriptor;
        d.v = tile::MakeTensorDescOp::create(b, argLoc, descType, base, shape,
                                             strides);
        if (e.type != ptr.getPointeeType())
          d.dtype = e.type;
        scope[p->name] = d;
        continue;
      }
      scope[p->name] = PyValue::ofValue(entry->getArgument(first), e.type);
      continue;
    }
    auto it = constexprValues.find(p->name);
    if (it != constexprValues.end()) {
      scope[p->name] = it->second;
    } else if (p->defaultValue) {
      auto v = eval(*p->defaultValue);
      if (failed(v))
        return nullptr;
      scope[p->name] = *v;
    } else {
      auto d = emitError(loc(p->loc));
      d << "missing value for constexpr parameter '" << p->name
        << "': give it with -D " << p->name << "=VALUE or in the signature";
      // A @triton.heuristics entry computes it from the launch's arguments
      // in Triton; tilec compiles before any launch.
      for (const py::ExprPtr &dec : kernel->decorators) {
        auto *call = llvm::dyn_cast<py::Call>(dec.get());
        if (!call ||
            !StringRef(py::toString(*call->func)).ends_with("heuristics"))
          continue;
        const py::Expr *values =
            call->args.empty() ? nullptr : call->args[0].get();
        for (const py::Keyword &k : call->keywords)
          if (k.name == "values")
            values = k.value.get();
        auto *dict = llvm::dyn_cast_or_null<py::Dict>(values);
        if (!dict)
          continue;
        for (const py::ExprPtr &key : dict->keys)
          if (auto *str = llvm::dyn_cast_or_null<py::StringLiteral>(key.get());
              str && str->value == p->name)
            d << " (Triton computes it at each launch with the "
                 "@triton.heuristics on line "
              << dec->loc.line
              << "; tilec compiles before any launch, so give the value "
                 "the heuristic would give)";
      }
      return nullptr;
    }
  }

  if (failed(execBlock(kernel->body)))
    return nullptr;
  if (returnValue && returnValue->kind != PyValue::Kind::None) {
    emitError(kernelLoc) << "expected a kernel to return nothing, found a "
                            "return of "
                         << returnValue->describe();
    return nullptr;
  }
  b.setInsertionPointToEnd(entry);
  tile::ReturnOp::create(b, kernelLoc);
  if (failed(verify(*out)))
    return nullptr;
  if (options.divisibilityRemarks) {
    std::vector<DivisibilityCandidate> plainInts;
    for (auto [k, e] : llvm::enumerate(sig))
      if (!e.isPointer && !e.isTensorDesc && e.type.isInteger() &&
          !e.type.isInteger(1) && e.divisibility <= 1 && !e.equalToOne)
        plainInts.push_back({runtimeParams[k]->name,
                             StringRef(e.text).split(':').first.trim().str(),
                             firstArg[k]});
    remarkDivisibility(*out, func, plainInts);
  }
  // A module-level condition whose host code raised: Python's import of
  // that module fails (the error was reported where it raised).
  if (importRaised)
    return nullptr;
  return std::move(out);
}

OwningOpRef<ModuleOp> frontend::importKernel(const py::Module &module,
                                             const KernelOptions &options,
                                             MLIRContext *ctx) {
  ctx->loadDialect<tile::TileDialect, arith::ArithDialect, scf::SCFDialect>();
  CodeGen gen(module, options, ctx);
  return gen.run();
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

FailureOr<PyValue> CodeGen::lookup(const std::string &name, SourceLoc l) {
  auto it = scope.find(name);
  if (it != scope.end())
    return it->second;
  TRY(global, lookupGlobal(*cur, name, l));
  if (global)
    return *global;
  static const std::set<std::string> pyBuiltins = {
      "range", "min", "max", "abs", "len", "float", "int", "bool", "print",
      "isinstance", "tuple", "list", "getattr", "hasattr", "enumerate", "zip",
      "str"};
  if (pyBuiltins.count(name))
    return PyValue::builtin("py." + name);
  error(l) << "name '" << name << "' is not defined"
           << (definedUnderGuard(*cur, name) ? kUnderGuard : "")
           << skippedBindingNote(*cur, name);
  return failure();
}

std::string CodeGen::skippedBindingNote(const ModuleScope &m,
                                        const std::string &name) {
  for (const auto *names : {&m.ast->mutatedNames, &m.ast->definedNames})
    for (const auto &[bound, where] : *names)
      if (bound == name)
        return " (line " + std::to_string(where.line) +
               " binds it in module-level code tilec does not read: tuple "
               "unpacking, `X = Y = ...`, a loop, a `with`, a class or an "
               "unreadable statement; assign it alone, `NAME = value`)";
  return "";
}

const char *const CodeGen::kUnderGuard =
    " (the module defines it under a module-level if or try that does not "
    "hold or that tilec cannot decide, and not with one value on every way "
    "Python may go)";

bool CodeGen::definedUnderGuard(const ModuleScope &m, const std::string &name) {
  // Defined only under a module-level if that did not hold?
  bool guarded = false;
  for (const py::ModuleConstant &c : m.ast->constants)
    guarded |= c.name == name && !c.guard.empty();
  for (const auto &fn : m.ast->functions)
    guarded |= fn->name == name && !fn->guard.empty();
  for (const py::Import &imp : m.ast->imports)
    for (const py::Import::Alias &a : imp.names)
      guarded |= !imp.guard.empty() && imp.boundName(a) == name;
  return guarded;
}

FailureOr<PyValue> CodeGen::getAttr(const PyValue &v, const std::string &attr,
                                    SourceLoc l) {
  // tl.constexpr(x).value is x: compile-time values are not wrapped here.
  if (attr == "value" && v.isConstexpr() && v.kind != PyValue::Kind::Module)
    return v;
  switch (v.kind) {
  case PyValue::Kind::Module:
    return moduleAttr(v.s, attr, l);
  case PyValue::Kind::Runtime: {
    Type t = v.v.getType();
    if (attr == "dtype")
      return PyValue::ofDType(elementTypeOf(v));
    // Triton's tensor.type: the dtype of a scalar, a block type (shape and
    // element_ty) of a tile; tensor.numel: its element count.
    if (attr == "type")
      return PyValue::ofDType(withElement(t, elementTypeOf(v)));
    if (attr == "numel") {
      auto tensor = dyn_cast<RankedTensorType>(t);
      return PyValue::ofInt(tensor ? tensor.getNumElements() : 1);
    }
    if (attr == "shape") {
      std::vector<PyValue> dims;
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        for (int64_t d : tensor.getShape())
          dims.push_back(PyValue::ofInt(d));
      return PyValue::ofTuple(dims);
    }
    if (attr == "T") {
      CallArgs none;
      return callMethod("T", v, none, l);
    }
    return PyValue::method(attr, v);
  }
  case PyValue::Kind::Descriptor: {
    // triton.language.tensor_descriptor_base's properties: the block's
    // shape and element type are compile-time facts of the descriptor.
    auto block = cast<tile::TensorDescType>(v.v.getType()).getBlockType();
    if (attr == "block_shape") {
      std::vector<PyValue> dims;
      for (int64_t d : block.getShape())
        dims.push_back(PyValue::ofInt(d));
      return PyValue::ofTuple(dims);
    }
    if (attr == "dtype")
      return PyValue::ofDType(v.dtype ? v.dtype : block.getElementType());
    // The tensor's sizes (i32) and strides (i64, in elements): run-time
    // values, the operands the descriptor was made from.
    if (attr == "shape" || attr == "strides")
      if (auto make = v.v.getDefiningOp<tile::MakeTensorDescOp>()) {
        std::vector<PyValue> vals;
        for (Value x : attr == "shape" ? make.getShape() : make.getStrides())
          vals.push_back(PyValue::ofValue(x));
        return PyValue::ofTuple(vals);
      }
    return PyValue::method("desc." + attr, v);
  }
  case PyValue::Kind::Str:
    // A dtype named on the command line (`-D DT=bf16`): its attributes.
    if (Type t = dtypeByName(StringRef(v.s)))
      return getAttr(PyValue::ofDType(t), attr, l);
    [[fallthrough]];
  case PyValue::Kind::Dict:
    // Python's string and dict methods, as host code runs them.
    return PyValue::method("host." + attr, v);
  case PyValue::Kind::DType: {
    if (auto block = dyn_cast<RankedTensorType>(v.dtype)) {
      // A block type (x.type of a tile).
      if (attr == "element_ty" || attr == "scalar")
        return PyValue::ofDType(block.getElementType());
      if (attr == "shape") {
        std::vector<PyValue> dims;
        for (int64_t d : block.getShape())
          dims.push_back(PyValue::ofInt(d));
        return PyValue::ofTuple(dims);
      }
      if (attr == "numel")
        return PyValue::ofInt(block.getNumElements());
    } else if (attr == "element_ty") {
      if (auto ptr = dyn_cast<tile::PtrType>(v.dtype))
        return PyValue::ofDType(ptr.getPointeeType());
      error(l) << "'element_ty' of a non-pointer dtype " << v.describe();
      return failure();
    }
    if (attr == "scalar")
      return v;
    if (auto a = dtypeAttribute(v.dtype, attr))
      return *a;
    if (dtypePredicate(v.dtype, attr) || attr == "get_int_max_value" ||
        attr == "get_int_min_value" || attr == "to_int_type")
      return PyValue::method("dtype." + attr, v);
    static constexpr StringLiteral kUnimplemented[] = {"is_dtype",
                                                       "kind",
                                                       "with_element_ty",
                                                       "mangle",
                                                       "codegen_name",
                                                       "address_space",
                                                       "exponent_bias",
                                                       "fp_mantissa_width",
                                                       "int_bitwidth",
                                                       "int_signedness",
                                                       "name",
                                                       "primitive_bitwidth",
                                                       "itemsize"};
    if (llvm::is_contained(kUnimplemented, attr)) {
      error(l) << "unimplemented: '" << attr << "' of " << v.describe();
      return failure();
    }
    error(l) << "a dtype has no attribute '" << attr << "' (" << v.describe()
             << ")";
    return failure();
  }
  default:
    break;
  }
  error(l) << "unimplemented: attribute '" << attr << "' of " << v.describe();
  return failure();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<PyValue> CodeGen::eval(const py::Expr &e) {
  // Each limit (expression depth, helper depth, constants, modules) holds
  // alone, but they multiply: a chain of helpers or module constants, each
  // a deeply nested expression, must end in an error, not a stack overflow.
  if (evalDepth >= kMaxEvalDepth) {
    error(e.loc) << "expressions, helper calls and module constants nested "
                    "more than "
                 << kMaxEvalDepth << " deep in all";
    return failure();
  }
  ++evalDepth;
  struct Leave {
    unsigned &d;
    ~Leave() { --d; }
  } leave{evalDepth};
  return evalExpr(e);
}

FailureOr<PyValue> CodeGen::evalExpr(const py::Expr &e) {
  using namespace py;
  switch (e.getKind()) {
  case ExprKind::Name:
    return lookup(llvm::cast<Name>(e).id, e.loc);
  case ExprKind::Int: {
    auto &lit = llvm::cast<IntLiteral>(e);
    if (lit.overflow) {
      error(e.loc) << "integer literal " << lit.text
                   << " does not fit in 64 bits";
      return failure();
    }
    return PyValue::ofInt(lit.value);
  }
  case ExprKind::Float: {
    auto &lit = llvm::cast<FloatLiteral>(e);
    if (lit.isImaginary) {
      error(e.loc) << "unsupported Python construct in a @triton.jit "
                      "function: complex number";
      return failure();
    }
    return PyValue::ofFloat(lit.value);
  }
  case ExprKind::String: {
    auto &lit = llvm::cast<py::StringLiteral>(e);
    if (lit.isFString || lit.isBytes) {
      error(e.loc) << "unsupported Python construct in a @triton.jit "
                      "function: "
                   << (lit.isFString ? "f-string" : "bytes literal");
      return failure();
    }
    return PyValue::ofStr(lit.value);
  }
  case ExprKind::Bool:
    return PyValue::ofBool(llvm::cast<BoolLiteral>(e).value);
  case ExprKind::None:
    return PyValue::none();
  case ExprKind::Unary: {
    auto &u = llvm::cast<UnaryOp>(e);
    TRY(x, eval(*u.operand));
    return unary(u.op, x, e.loc);
  }
  case ExprKind::Binary: {
    auto &bin = llvm::cast<BinOp>(e);
    TRY(lhs, eval(*bin.lhs));
    TRY(rhs, eval(*bin.rhs));
    return binary(bin.op, lhs, rhs, e.loc);
  }
  case ExprKind::BoolOp: {
    auto &bo = llvm::cast<BoolOp>(e);
    bool isAnd = bo.op == BoolOpKind::And;
    TRY(first, eval(*bo.values[0]));
    PyValue acc = first;
    for (size_t i = 1; i < bo.values.size(); ++i) {
      if (acc.isConstexpr()) {
        // Python short-circuit on compile-time values.
        TRY(t, truthiness(acc, bo.values[i - 1]->loc));
        if (t != isAnd)
          return acc;
        TRY(next, eval(*bo.values[i]));
        acc = next;
        continue;
      }
      TRY(next, eval(*bo.values[i]));
      TRY(lhs, toValue(acc, bo.values[i - 1]->loc));
      TRY(rhs, toValue(next, bo.values[i]->loc));
      auto isBool = [](Value v) {
        return tile::getElementTypeOrSelf(v.getType()).isInteger(1);
      };
      if (!isBool(lhs) || !isBool(rhs)) {
        error(e.loc) << "expected boolean operands of '"
                     << getSpelling(bo.op) << "' on run-time values, found "
                     << lhs.getType() << " and " << rhs.getType()
                     << " (use & and | for bitwise logic)";
        return failure();
      }
      TRY(r, binary(isAnd ? BinOpKind::BitAnd : BinOpKind::BitOr,
                    PyValue::ofValue(lhs), PyValue::ofValue(rhs), e.loc));
      acc = r;
    }
    return acc;
  }
  case ExprKind::Compare: {
    auto &c = llvm::cast<Compare>(e);
    TRY(lhs0, eval(*c.operands[0]));
    PyValue lhs = lhs0, result;
    for (size_t i = 0; i < c.ops.size(); ++i) {
      TRY(rhs, eval(*c.operands[i + 1]));
      TRY(r, compare(c.ops[i], lhs, rhs, e.loc));
      if (i == 0) {
        result = r;
      } else {
        TRY(both, binary(BinOpKind::BitAnd, result, r, e.loc));
        result = both;
      }
      lhs = rhs;
    }
    return result;
  }
  case ExprKind::IfExp: {
    auto &ie = llvm::cast<IfExp>(e);
    TRY(cond, eval(*ie.test));
    if (cond.isConstexpr()) {
      TRY(t, truthiness(cond, ie.test->loc));
      return eval(t ? *ie.body : *ie.orelse);
    }
    TRY(x, eval(*ie.body));
    TRY(y, eval(*ie.orelse));
    return select(cond, x, y, e.loc);
  }
  case ExprKind::Call: {
    auto &c = llvm::cast<Call>(e);
    TRY(callee, eval(*c.func));
    if (c.hasStarArgs() || c.hasDoubleStarArgs()) {
      error(e.loc) << "unsupported Python construct in a @triton.jit "
                      "function: *args or **kwargs in a call";
      return failure();
    }
    CallArgs args;
    for (const ExprPtr &a : c.args) {
      TRY(v, eval(*a));
      args.args.push_back(v);
      args.argLocs.push_back(loc(a->loc));
    }
    for (const Keyword &kw : c.keywords) {
      TRY(v, eval(*kw.value));
      args.kwargs.emplace_back(kw.name, v);
    }
    return call(callee, args, e.loc);
  }
  case ExprKind::Attribute: {
    auto &a = llvm::cast<py::Attribute>(e);
    TRY(v, eval(*a.value));
    return getAttr(v, a.attr, e.loc);
  }
  case ExprKind::Subscript: {
    auto &s = llvm::cast<Subscript>(e);
    TRY(v, eval(*s.value));
    return subscript(v, s);
  }
  case ExprKind::Tuple:
  case ExprKind::List: {
    const ExprList &elts = e.getKind() == ExprKind::Tuple
                               ? llvm::cast<py::Tuple>(e).elts
                               : llvm::cast<py::List>(e).elts;
    std::vector<PyValue> values;
    for (const ExprPtr &x : elts) {
      TRY(v, eval(*x));
      values.push_back(v);
    }
    PyValue t = PyValue::ofTuple(std::move(values));
    // Nested tuples are values: (t, t) doubles the copy of t, so a loop of
    // them would exhaust memory before any length check.
    if (t.nodes > kMaxCompileTimeValues) {
      error(e.loc) << "a compile-time tuple of " << t.nodes
                   << " values (nested tuples' included) is larger than the limit of "
                   << kMaxCompileTimeValues;
      return failure();
    }
    return t;
  }
  case ExprKind::Dict: {
    // A compile-time dict, in a @core.extern function (Triton's jit
    // functions cannot build dicts: tl.extern_elementwise's
    // arg_type_symbol_dict) or in module-level code (a constant table,
    // `DTYPES = {"fp16": tl.float16}`).
    const auto &d = llvm::cast<py::Dict>(e);
    if ((externDepth == 0 && moduleRunPoints.empty()) ||
        d.keys.size() != d.values.size())
      break; // `**x` unpacking
    PyValue out;
    out.kind = PyValue::Kind::Dict;
    for (size_t i = 0; i < d.keys.size(); ++i) {
      if (!d.keys[i])
        break;
      TRY(k, eval(*d.keys[i]));
      TRY(v, eval(*d.values[i]));
      out.elts.push_back(k);
      out.elts.push_back(v);
    }
    if (out.elts.size() == 2 * d.keys.size())
      return out;
    break;
  }
  case ExprKind::Slice:
  case ExprKind::Ellipsis:
  case ExprKind::Set:
  case ExprKind::Lambda:
  case ExprKind::Starred:
  case ExprKind::Comprehension:
    break;
  }
  static const char *names[] = {"name", "int", "float", "string", "bool",
                                "None", "Ellipsis", "unary", "binary",
                                "boolop", "compare", "conditional", "call",
                                "attribute", "subscript", "slice", "tuple",
                                "list", "dict", "set", "lambda", "starred",
                                "comprehension"};
  error(e.loc) << "unsupported Python construct in a @triton.jit function: "
               << names[int(e.getKind())] << " expression";
  return failure();
}

FailureOr<PyValue> CodeGen::call(const PyValue &callee, CallArgs &args,
                                 SourceLoc l) {
  switch (callee.kind) {
  case PyValue::Kind::JitFunction:
    return callJit(*callee.fn, args, l);
  case PyValue::Kind::Builtin:
    return callBuiltin(callee.s, args, l);
  case PyValue::Kind::HostFunction:
    return callHost(*this, callee, args, l);
  case PyValue::Kind::DType: {
    // `tl.float32(-float("inf"))`: Triton's dtype called on a value is that
    // value cast to it (core.dtype.__call__).
    if (args.args.size() != 1 || !args.kwargs.empty()) {
      error(l) << "a dtype called as a function takes one argument";
      return failure();
    }
    return castValue(args.args[0], callee.dtype, l);
  }
  case PyValue::Kind::Method:
    return callMethod(callee.s, callee.elts[0], args, l);
  case PyValue::Kind::Str: {
    // A function given on the command line (`-D ACT=relu`,
    // `-D ACT=helpers.gelu`) arrives as a string, and stays one where it is
    // compared (`ACTIVATION == "leaky_relu"`); called, it names a jit
    // function in scope: a name, or a module attribute chain.
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(callee.s).split(parts, '.');
    bool dotted = !parts.empty();
    for (llvm::StringRef p : parts)
      dotted &= !p.empty() && (llvm::isAlpha(p.front()) || p.front() == '_') &&
                llvm::all_of(p, [](char c) {
                  return llvm::isAlnum(c) || c == '_';
                });
    if (dotted) {
      // In the kernel file's names: the command line speaks of them.
      TRY(g, lookupGlobal(*moduleScopes.front(), parts.front().str(), l));
      std::optional<PyValue> f = g;
      for (size_t k = 1; f && k < parts.size(); ++k) {
        if (f->kind != PyValue::Kind::Module)
          f.reset();
        else {
          TRY(next, getAttr(*f, parts[k].str(), l));
          f = next;
        }
      }
      if (f && f->kind == PyValue::Kind::JitFunction)
        return callJit(*f->fn, args, l);
    }
    error(l) << "expected a function to call, found " << callee.describe()
             << " (a constexpr string is called as the jit function it names "
                "in the kernel's file, and it has no jit function '"
             << callee.s << "')";
    return failure();
  }
  default:
    error(l) << "expected a function to call, found " << callee.describe();
    return failure();
  }
}

FailureOr<PyValue> CodeGen::callJit(const py::FunctionDef &fn, CallArgs &args,
                                    SourceLoc l) {
  if (inlineDepth >= 64) {
    error(l) << "unimplemented: calls nested more than 64 deep (recursion?) "
                "when inlining '"
             << fn.name << "'";
    return failure();
  }
  if (options.maxInlinedCalls && ++inlinedCalls > options.maxInlinedCalls) {
    error(l) << "inlining '" << fn.name << "' exceeds the budget of "
             << options.maxInlinedCalls
             << " helper calls per kernel (--max-inlined-calls=N raises it; "
                "0: no limit)";
    return failure();
  }
  for (const py::Param &p : fn.params)
    if (p.kind == py::Param::Kind::VarArgs ||
        p.kind == py::Param::Kind::KwArgs) {
      error(l) << "unimplemented: the "
               << (p.kind == py::Param::Kind::VarArgs ? "*" : "**") << p.name
               << " parameter of '" << fn.name
               << "' (helpers take named parameters only)";
      return failure();
    }
  // Bind parameters as Python does: positional, keywords, defaults.
  std::map<std::string, PyValue> frame;
  std::vector<bool> bound(fn.params.size(), false);
  size_t pos = 0;
  for (size_t i = 0; i < args.args.size(); ++i) {
    while (pos < fn.params.size() &&
           fn.params[pos].kind == py::Param::Kind::KeywordOnly)
      ++pos;
    if (pos >= fn.params.size() ||
        fn.params[pos].kind == py::Param::Kind::VarArgs ||
        fn.params[pos].kind == py::Param::Kind::KwArgs) {
      error(l) << "'" << fn.name << "' takes " << fn.params.size()
               << " arguments, found " << args.args.size() << " positional";
      return failure();
    }
    frame[fn.params[pos].name] = args.args[i];
    bound[pos++] = true;
  }
  for (auto &[name, v] : args.kwargs) {
    auto it = llvm::find_if(fn.params,
                            [&, n = name](const py::Param &p) { return p.name == n; });
    if (it == fn.params.end()) {
      error(l) << "'" << fn.name << "' has no parameter '" << name << "'";
      return failure();
    }
    size_t idx = it - fn.params.begin();
    if (bound[idx]) {
      error(l) << "'" << fn.name << "' got parameter '" << name << "' twice";
      return failure();
    }
    frame[name] = v;
    bound[idx] = true;
  }
  // The callee sees its own module's names (a helper imported from another
  // file), from its defaults on.
  Location callSite = loc(l);
  ModuleScope *callerModule = cur;
  auto owner = moduleOfFunction.find(&fn);
  ModuleScope *calleeModule =
      owner != moduleOfFunction.end() ? owner->second : cur;
  struct Restore {
    CodeGen &g;
    ModuleScope *m;
    ~Restore() { g.cur = m; }
  } restore{*this, callerModule};
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const py::Param &p = fn.params[i];
    if (bound[i])
      continue;
    if (!p.defaultValue) {
      error(callSite) << "missing argument '" << p.name
                      << "' in the call of '" << fn.name << "'";
      return failure();
    }
    // Defaults are evaluated in the module scope.
    std::map<std::string, PyValue> saved;
    std::swap(saved, scope);
    cur = calleeModule;
    auto v = eval(*p.defaultValue);
    cur = callerModule;
    std::swap(saved, scope);
    if (failed(v))
      return failure();
    frame[p.name] = *v;
  }
  // A helper's `tl.constexpr` annotation does not make its parameter a
  // compile-time one: as in Triton 3.6 (call_JitFunction), the value passed
  // decides, and a run-time value is bound as such (tutorial 06 passes
  // tiles to `offs_m: tl.constexpr`).

  std::swap(scope, frame);
  callStack.push_back(callSite);
  cur = calleeModule;
  ++inlineDepth;
  externDepth += fn.isExtern;
  auto savedReturn = std::move(returnValue);
  returnValue.reset();
  LogicalResult r = execBlock(fn.body);
  PyValue result = returnValue ? *returnValue : PyValue::none();
  returnValue = std::move(savedReturn);
  --inlineDepth;
  externDepth -= fn.isExtern;
  callStack.pop_back();
  std::swap(scope, frame);
  if (failed(r))
    return failure();
  return result;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {
/// Names a statement list assigns (targets of =, op=, annotated =, for).
void collectAssigned(const py::StmtList &stmts, std::set<std::string> &names);

void collectTargets(const py::Expr &t, std::set<std::string> &names) {
  if (auto *n = llvm::dyn_cast<py::Name>(&t))
    names.insert(n->id);
  else if (auto *tup = llvm::dyn_cast<py::Tuple>(&t))
    for (const py::ExprPtr &e : tup->elts)
      collectTargets(*e, names);
  else if (auto *list = llvm::dyn_cast<py::List>(&t))
    for (const py::ExprPtr &e : list->elts)
      collectTargets(*e, names);
}

void collectAssigned(const py::StmtList &stmts, std::set<std::string> &names) {
  for (const py::StmtPtr &s : stmts) {
    if (auto *a = llvm::dyn_cast<py::Assign>(s.get()))
      for (const py::ExprPtr &t : a->targets)
        collectTargets(*t, names);
    else if (auto *a = llvm::dyn_cast<py::AugAssign>(s.get()))
      collectTargets(*a->target, names);
    else if (auto *a = llvm::dyn_cast<py::AnnAssign>(s.get()))
      collectTargets(*a->target, names);
    else if (auto *f = llvm::dyn_cast<py::For>(s.get())) {
      collectTargets(*f->target, names);
      collectAssigned(f->body, names);
    } else if (auto *w = llvm::dyn_cast<py::While>(s.get()))
      collectAssigned(w->body, names);
    else if (auto *i = llvm::dyn_cast<py::If>(s.get())) {
      collectAssigned(i->body, names);
      collectAssigned(i->orelse, names);
    }
  }
}

/// Whether some return in `stmts` (in ifs and loops, at any depth)
/// satisfies `pred`, which is told whether it lies in a loop.
bool anyReturn(llvm::ArrayRef<py::StmtPtr> stmts,
               llvm::function_ref<bool(const py::Return &, bool)> pred,
               bool inLoop = false) {
  for (const py::StmtPtr &s : stmts) {
    if (auto *r = llvm::dyn_cast<py::Return>(s.get()))
      if (pred(*r, inLoop))
        return true;
    if (auto *i = llvm::dyn_cast<py::If>(s.get()))
      if (anyReturn(i->body, pred, inLoop) || anyReturn(i->orelse, pred, inLoop))
        return true;
    if (auto *f = llvm::dyn_cast<py::For>(s.get()))
      if (anyReturn(f->body, pred, true))
        return true;
    if (auto *w = llvm::dyn_cast<py::While>(s.get()))
      if (anyReturn(w->body, pred, true))
        return true;
  }
  return false;
}

bool containsReturn(const py::StmtList &stmts) {
  return anyReturn(stmts, [](const py::Return &, bool) { return true; });
}

bool sameBinding(const PyValue &a, const PyValue &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case PyValue::Kind::Runtime:
  case PyValue::Kind::Descriptor:
    return a.v == b.v && a.dtype == b.dtype;
  case PyValue::Kind::Int: return a.i == b.i;
  case PyValue::Kind::Float: return a.f == b.f || (a.f != a.f && b.f != b.f);
  case PyValue::Kind::Bool: return a.b == b.b;
  case PyValue::Kind::Str: return a.s == b.s;
  case PyValue::Kind::DType: return a.dtype == b.dtype;
  case PyValue::Kind::None: return true;
  case PyValue::Kind::Tuple:
  case PyValue::Kind::Dict:
  case PyValue::Kind::BlockPtr:
    if (a.elts.size() != b.elts.size())
      return false;
    for (size_t i = 0; i < a.elts.size(); ++i)
      if (!sameBinding(a.elts[i], b.elts[i]))
        return false;
    return true;
  default:
    return a.fn == b.fn && a.s == b.s;
  }
}
} // namespace

bool frontend::sameStructure(const PyValue &a, const PyValue &b) {
  auto leaf = [](const PyValue &x) { return x.isRuntime() || x.isNumber(); };
  if (leaf(a) || leaf(b))
    return leaf(a) && leaf(b);
  if (a.kind != b.kind)
    return false;
  // The first n elements alike but for their leaves.
  auto sameElts = [&](size_t n) {
    for (size_t i = 0; i < n; ++i)
      if (!sameStructure(a.elts[i], b.elts[i]))
        return false;
    return true;
  };
  switch (a.kind) {
  case PyValue::Kind::BlockPtr:
    // Base, shape, strides, offsets; the block shape and order (numbers,
    // which are leaves elsewhere) are constants here.
    return sameBinding(a.elts[4], b.elts[4]) &&
           sameBinding(a.elts[5], b.elts[5]) && sameElts(4);
  case PyValue::Kind::Tuple:
    return a.elts.size() == b.elts.size() && sameElts(a.elts.size());
  default:
    return sameBinding(a, b);
  }
}

std::string frontend::structureDifference(const PyValue &a, const PyValue &b,
                                          const std::string &path) {
  auto leaf = [](const PyValue &x) { return x.isRuntime() || x.isNumber(); };
  auto both = [&](const std::string &x, const std::string &y) {
    return (path.empty() ? std::string() : "element " + path + ": ") + x +
           " and " + y;
  };
  if (leaf(a) && leaf(b))
    return "";
  if (leaf(a) || leaf(b) || a.kind != b.kind)
    return both(a.describe(), b.describe());
  auto ints = [](const PyValue &t) {
    std::string out = "(";
    for (size_t k = 0; k < t.elts.size(); ++k)
      out += (k ? ", " : "") + std::to_string(t.elts[k].i);
    return out + (t.elts.size() == 1 ? ",)" : ")");
  };
  switch (a.kind) {
  case PyValue::Kind::BlockPtr:
    if (!sameBinding(a.elts[4], b.elts[4]))
      return both("the block shape " + ints(a.elts[4]), ints(b.elts[4]));
    if (!sameBinding(a.elts[5], b.elts[5]))
      return both("the order " + ints(a.elts[5]), ints(b.elts[5]));
    for (size_t k = 0; k < 4; ++k)
      if (std::string d = structureDifference(a.elts[k], b.elts[k], path);
          !d.empty())
        return d;
    return "";
  case PyValue::Kind::Tuple:
    if (a.elts.size() != b.elts.size())
      return both("length " + std::to_string(a.elts.size()),
                  std::to_string(b.elts.size()));
    for (size_t k = 0; k < a.elts.size(); ++k)
      if (std::string d = structureDifference(
              a.elts[k], b.elts[k], path + "[" + std::to_string(k) + "]");
          !d.empty())
        return d;
    return "";
  default:
    return sameBinding(a, b) ? "" : both(a.describe(), b.describe());
  }
}

namespace {} // namespace

FailureOr<SmallVector<int>> CodeGen::loopCarriedLeaves(StringRef name,
                                                       const PyValue &init,
                                                       const PyValue &next,
                                                       SourceLoc l) {
  if (!sameStructure(init, next)) {
    error(l) << "variable '" << name << "' is " << init.describe()
             << " before the loop and " << next.describe()
             << " in it; only its run-time values may change ("
             << structureDifference(init, next) << ")";
    return failure();
  }
  // Every run-time leaf (see the loop's carried variables) and the numbers
  // the body changes.
  SmallVector<int> out;
  auto il = leavesOf(init), nl = leavesOf(next);
  for (size_t k = 0; k < il.size(); ++k)
    if (il[k]->isRuntime() || !sameBinding(*il[k], *nl[k]))
      out.push_back(int(k));
  return out;
}

FailureOr<std::vector<PyValue>>
CodeGen::mergeBranches(scf::IfOp &ifOp, Value cond,
                       ArrayRef<BranchValues> values, SourceLoc sl) {
  std::vector<PyValue> out;
  std::vector<std::pair<size_t, int>> slots; // (value, leaf) per if result
  SmallVector<Value> thenVals, elseVals;
  std::vector<Type> dtypes;
  for (auto [n, bv] : llvm::enumerate(values)) {
    const PyValue &t0 = bv.onThen, &e0 = bv.onElse;
    out.push_back(t0);
    if (sameBinding(t0, e0))
      continue;
    std::vector<std::pair<int, std::pair<PyValue, PyValue>>> sides;
    if (isStructuredPair(t0, e0)) {
      // A block pointer or a tuple of run-time values: its differing
      // leaves become results of the if.
      if (!sameStructure(t0, e0)) {
        error(sl) << bv.what << " is " << t0.describe()
                  << " in one branch of an if on a run-time value and "
                  << e0.describe()
                  << " in the other; only their run-time values may differ ("
                  << structureDifference(t0, e0) << ")";
        return failure();
      }
      auto tl = leavesOf(t0), el = leavesOf(e0);
      for (size_t k = 0; k < tl.size(); ++k)
        if (!sameBinding(*tl[k], *el[k]))
          sides.push_back({int(k), {*tl[k], *el[k]}});
    } else {
      if (t0.isConstexpr() && e0.isConstexpr() && !t0.isNumber()) {
        error(sl) << bv.what
                  << " gets different compile-time values in the branches of "
                     "an if on a run-time value";
        return failure();
      }
      sides.push_back({-1, {t0, e0}});
    }
    for (auto &[leaf, te] : sides) {
      const PyValue &t = te.first, &e = te.second;
      // Types (dtypes, so signedness too): a run-time side decides;
      // constexpr numbers follow it.
      Type type = t.isRuntime()   ? frontendTypeOf(t)
                  : e.isRuntime() ? frontendTypeOf(e)
                                  : Type();
      Type hint = type ? tile::getElementTypeOrSelf(type) : Type();
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      TRY(tv, toValue(t, sl, hint));
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      TRY(ev, toValue(e, sl, hint));
      auto typeOf = [&](const PyValue &x) {
        return x.isRuntime() ? frontendTypeOf(x)
               : hint        ? hint
                             : elementTypeOf(x);
      };
      if (typeOf(t) != typeOf(e)) {
        error(sl) << bv.what << " has different types in the branches of an "
                  << "if: " << typeOf(t) << " and " << typeOf(e);
        return failure();
      }
      dtypes.push_back(tile::getElementTypeOrSelf(typeOf(t)));
      slots.push_back({n, leaf});
      thenVals.push_back(tv);
      elseVals.push_back(ev);
    }
  }
  if (slots.empty())
    return out;
  // The if again, with results: its regions move over.
  Location l = ifOp.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp);
  SmallVector<Type> types;
  for (Value v : thenVals)
    types.push_back(v.getType());
  auto newIf = scf::IfOp::create(b, l, types, cond, /*withElse=*/true);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  newIf.thenBlock()->getTerminator()->erase();
  newIf.elseBlock()->getTerminator()->erase();
  b.setInsertionPointToEnd(newIf.thenBlock());
  scf::YieldOp::create(b, l, thenVals);
  b.setInsertionPointToEnd(newIf.elseBlock());
  scf::YieldOp::create(b, l, elseVals);
  ifOp.erase();
  ifOp = newIf;
  for (auto [k, slot] : llvm::enumerate(slots)) {
    PyValue r = PyValue::ofValue(newIf.getResult(k), dtypes[k]);
    if (slot.second < 0)
      out[slot.first] = r;
    else
      *leavesOf(out[slot.first])[slot.second] = r;
  }
  return out;
}

FailureOr<Value> CodeGen::runtimeCondition(const PyValue &c, SourceLoc l) {
  TRY(v, toValue(c, l));
  Value cond = v;
  if (cond.getType() != b.getI1Type()) {
    if (isa<RankedTensorType>(cond.getType())) {
      error(l) << "expected a scalar condition, found a tile "
               << cond.getType();
      return failure();
    }
    TRY(r, compare(py::CmpOpKind::NotEq, PyValue::ofValue(cond), PyValue::ofInt(0),
                   l));
    cond = r.v;
  }
  return cond;
}

FailureOr<bool> CodeGen::execIfWithReturn(const py::If &i,
                                           llvm::ArrayRef<py::StmtPtr> rest,
                                           ArrayRef<ArrayRef<py::StmtPtr>> cont) {
  if (!containsReturn(i.body) && !containsReturn(i.orelse))
    return false;
  // What runs if a branch falls off its end: the rest of this block, then
  // the enclosing blocks' rests (a return anywhere skips all of them).
  SmallVector<ArrayRef<py::StmtPtr>> after;
  after.push_back(rest);
  after.append(cont.begin(), cont.end());
  TRY(c, eval(*i.test));
  if (c.isConstexpr()) {
    // Only the taken branch is compiled.
    TRY(t, truthiness(c, i.test->loc));
    return succeeded(execStmts(t ? i.body : i.orelse, after))
               ? FailureOr<bool>(true)
               : FailureOr<bool>(failure());
  }
  // A run-time condition: an scf.if whose branches each run their own
  // statements, then (unless they returned) everything after the if --
  // which is therefore generated in each branch that can fall through. The
  // values the two branches return become the if's results (Triton 3.6
  // accepts returns under an if, not in loops).
  TRY(cond, runtimeCondition(c, i.test->loc));
  std::map<std::string, PyValue> before = scope;
  auto ifOp = scf::IfOp::create(b, loc(i.loc), TypeRange(), cond,
                                /*withElse=*/true);
  OpBuilder::InsertionGuard guard(b);
  PyValue returned[2];
  for (auto [k, stmts] : llvm::enumerate(
           std::array<const py::StmtList *, 2>{&i.body, &i.orelse})) {
    Block *block = k == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    b.setInsertionPoint(block->getTerminator());
    scope = before;
    returnValue.reset();
    if (failed(execStmts(*stmts, after)))
      return failure();
    // A path that runs to the end of the function returns None.
    returned[k] = returnValue ? *returnValue : PyValue::none();
  }
  scope = before;
  if (returned[0].kind == PyValue::Kind::None &&
      returned[1].kind == PyValue::Kind::None) {
    returnValue = PyValue::none();
    return true;
  }
  if (inlineDepth == 0) {
    // The kernel itself.
    error(i.loc) << "expected a kernel to return nothing, found a return of "
                 << (returned[0].kind == PyValue::Kind::None
                         ? returned[1].describe()
                         : returned[0].describe())
                 << " on a path through this if";
    return failure();
  }
  if ((returned[0].kind == PyValue::Kind::None) !=
      (returned[1].kind == PyValue::Kind::None)) {
    error(i.loc) << "one path through this if on a run-time value returns "
                 << (returned[0].kind == PyValue::Kind::None
                         ? returned[1].describe()
                         : returned[0].describe())
                 << " and the other None; return a value on every path";
    return failure();
  }
  TRY(merged,
      mergeBranches(
          ifOp, cond,
          {BranchValues{"the return value", returned[0], returned[1]}}, i.loc));
  returnValue = merged[0];
  return true;
}

LogicalResult CodeGen::execBlock(const py::StmtList &stmts) {
  return execStmts(stmts, {});
}

LogicalResult CodeGen::execStmts(ArrayRef<py::StmtPtr> stmts,
                                 ArrayRef<ArrayRef<py::StmtPtr>> cont) {
  for (size_t k = 0; k < stmts.size(); ++k) {
    const py::StmtPtr &s = stmts[k];
    if (returnValue) {
      // Code after a return is dead, as in Python.
      return success();
    }
    if (auto *i = llvm::dyn_cast<py::If>(s.get())) {
      FailureOr<bool> done = execIfWithReturn(*i, stmts.drop_front(k + 1), cont);
      if (failed(done) || failed(checkOperationBudget(s->loc)))
        return failure();
      if (*done)
        return success(); // it ran (or returned before) everything after
    }
    if (failed(exec(*s)) || failed(checkOperationBudget(s->loc)))
      return failure();
  }
  if (!returnValue && !cont.empty())
    return execStmts(cont.front(), cont.drop_front());
  return success();
}

LogicalResult CodeGen::assign(const py::Expr &target, const PyValue &v) {
  if (auto *n = llvm::dyn_cast<py::Name>(&target)) {
    scope[n->id] = v;
    return success();
  }
  const py::ExprList *elts = nullptr;
  if (auto *t = llvm::dyn_cast<py::Tuple>(&target))
    elts = &t->elts;
  else if (auto *t = llvm::dyn_cast<py::List>(&target))
    elts = &t->elts;
  if (elts) {
    if (v.kind != PyValue::Kind::Tuple) {
      error(target.loc) << "cannot unpack " << v.describe() << " into "
                        << elts->size() << " names";
      return failure();
    }
    if (v.elts.size() != elts->size()) {
      error(target.loc) << "expected " << elts->size()
                        << " values to unpack, found " << v.elts.size();
      return failure();
    }
    for (size_t i = 0; i < elts->size(); ++i)
      if (failed(assign(*(*elts)[i], v.elts[i])))
        return failure();
    return success();
  }
  error(target.loc) << "unsupported Python construct in a @triton.jit "
                       "function: assignment to "
                    << (llvm::isa<py::Subscript>(target) ? "a subscript"
                        : llvm::isa<py::Attribute>(target) ? "an attribute"
                                                           : "this target")
                    << " (tiles are immutable; build a new one)";
  return failure();
}

LogicalResult CodeGen::exec(const py::Stmt &s) {
  using namespace py;
  switch (s.getKind()) {
  case StmtKind::Expr: {
    auto &es = llvm::cast<ExprStmt>(s);
    if (llvm::isa<py::StringLiteral>(es.value.get()))
      return success(); // docstring
    return success(succeeded(eval(*es.value)));
  }
  case StmtKind::Assign: {
    auto &a = llvm::cast<Assign>(s);
    auto v = eval(*a.value);
    if (failed(v))
      return failure();
    for (const ExprPtr &t : a.targets)
      if (failed(assign(*t, *v)))
        return failure();
    return success();
  }
  case StmtKind::AugAssign: {
    auto &a = llvm::cast<AugAssign>(s);
    auto *n = llvm::dyn_cast<Name>(a.target.get());
    if (!n) {
      error(a.target->loc) << "unsupported Python construct in a @triton.jit "
                              "function: augmented assignment to a "
                              "non-name";
      return failure();
    }
    auto cur = lookup(n->id, n->loc);
    if (failed(cur))
      return failure();
    auto rhs = eval(*a.value);
    if (failed(rhs))
      return failure();
    auto r = binary(a.op, *cur, *rhs, s.loc);
    if (failed(r))
      return failure();
    scope[n->id] = *r;
    return success();
  }
  case StmtKind::AnnAssign: {
    auto &a = llvm::cast<AnnAssign>(s);
    if (!a.value)
      return success();
    auto v = eval(*a.value);
    if (failed(v))
      return failure();
    if (isConstexprAnnotation(a.annotation.get()) && !v->isConstexpr()) {
      error(a.value->loc) << "expected a compile-time value for a "
                             "tl.constexpr variable, found "
                          << v->describe();
      return failure();
    }
    return assign(*a.target, *v);
  }
  case StmtKind::Pass:
    return success();
  case StmtKind::Return: {
    auto &r = llvm::cast<Return>(s);
    PyValue v;
    if (r.value) {
      auto e = eval(*r.value);
      if (failed(e))
        return failure();
      v = *e;
    }
    returnValue = v;
    return success();
  }
  case StmtKind::Break:
  case StmtKind::Continue:
    error(s.loc) << "unsupported Python construct in a @triton.jit function: '"
                 << (s.getKind() == StmtKind::Break ? "break" : "continue")
                 << "' (Triton loops have no early exit)";
    return failure();
  case StmtKind::Try:
  case StmtKind::Raise:
  case StmtKind::Import:
    // Read in host functions only; a jit body never holds them.
    error(s.loc) << "unsupported Python construct in a @triton.jit function: "
                 << (s.getKind() == StmtKind::Try     ? "'try' statement"
                     : s.getKind() == StmtKind::Raise ? "'raise' statement"
                                                      : "an import");
    return failure();
  case StmtKind::Assert: {
    auto &a = llvm::cast<Assert>(s);
    auto c = eval(*a.test);
    if (failed(c))
      return failure();
    if (!c->isConstexpr()) {
      // Triton: a run-time assert is tl.device_assert (Debug.cpp).
      std::optional<PyValue> msg;
      if (a.msg) {
        auto m = eval(*a.msg);
        if (failed(m))
          return failure();
        msg = *m;
      }
      return emitDeviceAssert(*c, msg, s.loc, "assert");
    }
    auto t = truthiness(*c, a.test->loc);
    if (failed(t))
      return failure();
    if (!*t) {
      std::string msg;
      if (a.msg)
        if (auto m = eval(*a.msg); succeeded(m) && m->kind == PyValue::Kind::Str)
          msg = m->s;
      error(s.loc) << "assertion failed" << (msg.empty() ? "" : ": ") << msg;
      return failure();
    }
    return success();
  }
  case StmtKind::If: {
    auto &i = llvm::cast<If>(s);
    auto c = eval(*i.test);
    if (failed(c))
      return failure();
    if (c->isConstexpr()) {
      // A constexpr condition: only the taken branch is compiled.
      auto t = truthiness(*c, i.test->loc);
      if (failed(t))
        return failure();
      return execBlock(*t ? i.body : i.orelse);
    }
    if (containsReturn(i.body) || containsReturn(i.orelse)) {
      error(s.loc) << "unimplemented: return inside an if on a run-time "
                      "value, except a bare return ending a branch (the "
                      "rest of the function then runs in the other one)";
      return failure();
    }
    TRY(cond, runtimeCondition(*c, i.test->loc));
    Location l = loc(s.loc);
    std::map<std::string, PyValue> before = scope;
    auto ifOp = scf::IfOp::create(b, l, TypeRange(), cond, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    if (failed(execBlock(i.body)))
      return failure();
    std::map<std::string, PyValue> thenScope = scope;
    scope = before;
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    if (failed(execBlock(i.orelse)))
      return failure();
    std::map<std::string, PyValue> elseScope = scope;

    // Variables either branch changed and that exist on both paths.
    std::set<std::string> assigned;
    collectAssigned(i.body, assigned);
    collectAssigned(i.orelse, assigned);
    std::vector<BranchValues> vars;
    scope = before;
    for (const std::string &name : assigned) {
      auto t = thenScope.find(name), e = elseScope.find(name);
      if (t == thenScope.end() || e == elseScope.end())
        continue; // defined on one path only: not visible after
      vars.push_back({"variable '" + name + "'", t->second, e->second});
    }
    TRY(merged, mergeBranches(ifOp, cond, vars, s.loc));
    size_t k = 0;
    for (const std::string &name : assigned)
      if (thenScope.count(name) && elseScope.count(name))
        scope[name] = merged[k++];
    return success();
  }
  case StmtKind::For:
  case StmtKind::While:
    break;
  }
  if (auto *f = llvm::dyn_cast<For>(&s)) {
    if (!f->orelse.empty()) {
      error(s.loc) << "unsupported Python construct in a @triton.jit "
                      "function: for ... else";
      return failure();
    }
    if (containsReturn(f->body)) {
      error(s.loc) << "unimplemented: return inside a loop";
      return failure();
    }
    auto *callExpr = llvm::dyn_cast<Call>(f->iter.get());
    if (!callExpr) {
      error(f->iter->loc) << "expected range(...), tl.range(...) or "
                             "tl.static_range(...) to loop over, found "
                          << toString(*f->iter);
      return failure();
    }
    auto callee = eval(*callExpr->func);
    if (failed(callee))
      return failure();
    std::string kind = callee->kind == PyValue::Kind::Builtin ? callee->s : "";
    if (kind != "py.range" && kind != "tl.range" && kind != "tl.static_range") {
      error(f->iter->loc) << "expected range(...), tl.range(...) or "
                             "tl.static_range(...) to loop over, found a call "
                             "of "
                          << callee->describe();
      return failure();
    }
    std::vector<PyValue> bounds;
    std::vector<SourceLoc> boundLocs;
    for (const ExprPtr &a : callExpr->args) {
      auto v = eval(*a);
      if (failed(v))
        return failure();
      bounds.push_back(*v);
      boundLocs.push_back(a->loc);
    }
    // tl.range(arg1, arg2=None, step=None, num_stages=None,
    //          loop_unroll_factor=None, disallow_acc_multi_buffer=False,
    //          flatten=False, warp_specialize=False, disable_licm=False), as
    // in Triton 3.6: the hints become attributes of the scf.for (Triton's
    // tt.* loop attributes, named tile.*); range() takes no keywords.
    static constexpr StringRef kLoopHints[] = {
        "num_stages", "loop_unroll_factor", "disallow_acc_multi_buffer",
        "flatten",    "warp_specialize",    "disable_licm"};
    std::vector<std::tuple<StringRef, PyValue, SourceLoc>> hints;
    if (kind == "tl.range" && bounds.size() > 3) {
      if (bounds.size() > 3 + std::size(kLoopHints)) {
        error(f->iter->loc)
            << "tl.range takes at most " << 3 + std::size(kLoopHints)
            << " arguments, found " << bounds.size();
        return failure();
      }
      for (size_t i = 3; i < bounds.size(); ++i)
        hints.emplace_back(kLoopHints[i - 3], bounds[i], boundLocs[i]);
      bounds.resize(3);
    }
    for (const Keyword &kw : callExpr->keywords) {
      if (kind == "py.range") {
        error(kw.loc) << "range() takes no keyword arguments (tl.range takes "
                         "the loop hints)";
        return failure();
      }
      if (kind != "tl.range" || !llvm::is_contained(kLoopHints, kw.name)) {
        error(kw.loc) << "unknown keyword '" << kw.name << "' of " << kind;
        return failure();
      }
      if (llvm::any_of(hints,
                       [&](auto &h) { return std::get<0>(h) == kw.name; })) {
        error(kw.loc) << "tl.range got '" << kw.name << "' twice";
        return failure();
      }
      auto v = eval(*kw.value);
      if (failed(v))
        return failure();
      hints.emplace_back(*llvm::find(kLoopHints, kw.name), *v, kw.loc);
    }
    SmallVector<NamedAttribute> loopAttrs;
    for (auto &[name, v, hl] : hints) {
      if (v.kind == PyValue::Kind::None)
        continue;
      if (name == "num_stages" || name == "loop_unroll_factor") {
        int64_t least = name == "num_stages" ? 0 : 1;
        if (v.kind != PyValue::Kind::Int || v.i < least || v.i > 1024) {
          error(hl) << "expected a compile-time int in [" << least
                    << ", 1024] or None for " << name << " of tl.range, found "
                    << v.describe();
          return failure();
        }
        loopAttrs.push_back(
            b.getNamedAttr(("tile." + name).str(), b.getI32IntegerAttr(v.i)));
        continue;
      }
      if (!v.isConstexpr()) {
        error(hl) << "expected a compile-time bool for " << name
                  << " of tl.range, found " << v.describe();
        return failure();
      }
      auto on = truthiness(v, hl);
      if (failed(on))
        return failure();
      if (*on)
        loopAttrs.push_back(
            b.getNamedAttr(("tile." + name).str(), b.getUnitAttr()));
    }
    if (bounds.empty() || bounds.size() > 3) {
      error(f->iter->loc) << "expected 1 to 3 arguments to " << kind
                          << ", found " << bounds.size();
      return failure();
    }
    PyValue lb = PyValue::ofInt(0), ub, step = PyValue::ofInt(1);
    if (bounds.size() == 1) {
      ub = bounds[0];
    } else {
      lb = bounds[0];
      ub = bounds[1];
      if (bounds.size() == 3)
        step = bounds[2];
    }
    auto *targetName = llvm::dyn_cast<Name>(f->target.get());
    if (!targetName) {
      error(f->target->loc) << "expected a name as the loop variable";
      return failure();
    }
    if (kind == "tl.static_range") {
      if (lb.kind != PyValue::Kind::Int || ub.kind != PyValue::Kind::Int ||
          step.kind != PyValue::Kind::Int || step.i == 0) {
        error(f->iter->loc) << "expected compile-time integer bounds and a "
                               "non-zero step for tl.static_range";
        return failure();
      }
      for (int64_t k = lb.i; step.i > 0 ? k < ub.i : k > ub.i; k += step.i) {
        if (options.maxUnrolledIterations &&
            ++unrolledIterations > options.maxUnrolledIterations) {
          error(f->iter->loc)
              << "unrolling exceeds the budget of "
              << options.maxUnrolledIterations
              << " tl.static_range iterations per kernel "
                 "(--max-unrolled-iterations=N raises it; 0: no limit)";
          return failure();
        }
        scope[targetName->id] = PyValue::ofInt(k);
        if (failed(execBlock(f->body)))
          return failure();
      }
      return success();
    }
    // A run-time loop: scf.for, whose step must be positive. A constant
    // negative step runs the loop over [ub, lb) with the positive step and
    // maps the induction variable back to lb + ub - iv (as Triton does):
    // range(10, 0, -3) gives 10, 7, 4, 1. A run-time step is assumed
    // positive (Triton's assumption too).
    bool negativeStep = false;
    if (!step.isRuntime() && (step.kind == PyValue::Kind::Int ||
                              step.kind == PyValue::Kind::Bool)) {
      int64_t st = step.kind == PyValue::Kind::Int ? step.i : int64_t(step.b);
      if (st == 0) {
        error(f->iter->loc) << "expected a non-zero step for "
                            << (kind == "py.range" ? StringRef("range") : kind)
                            << " (Python's range raises on 0)";
        return failure();
      }
      if (st < 0) {
        negativeStep = true;
        step = PyValue::ofInt(-st);
        std::swap(lb, ub);
      }
    }
    Location l = loc(s.loc);
    auto isWide = [&](const PyValue &v) {
      return v.isRuntime() && tile::getElementTypeOrSelf(v.v.getType()).isInteger(64);
    };
    Type ivType = (isWide(lb) || isWide(ub) || isWide(step)) ? b.getI64Type()
                                                            : b.getI32Type();
    // An unsigned bound makes the loop unsigned (Triton types the counter
    // as integer_promote_impl of the bounds): the counter is a uint and the
    // loop compares unsigned.
    bool unsignedLoop = llvm::any_of(
        std::vector<PyValue>{lb, ub, step}, [&](const PyValue &v) {
          return v.isRuntime() && isUnsignedInt(elementTypeOf(v));
        });
    Type ivDtype = unsignedLoop ? Type(IntegerType::get(
                                      ctx, ivType.getIntOrFloatBitWidth(),
                                      IntegerType::Unsigned))
                                : Type();
    SmallVector<Value> bvals;
    for (auto [k, v] : llvm::enumerate(std::vector<PyValue>{lb, ub, step})) {
      if (!v.isRuntime() && v.kind != PyValue::Kind::Int &&
          v.kind != PyValue::Kind::Bool) {
        error(f->iter->loc) << "expected integer loop bounds, found "
                            << v.describe();
        return failure();
      }
      auto val = toValue(v, f->iter->loc, ivType);
      if (failed(val))
        return failure();
      Value x = *val;
      if (!x.getType().isInteger() || isa<RankedTensorType>(x.getType())) {
        error(f->iter->loc) << "expected scalar integer loop bounds, found "
                            << x.getType();
        return failure();
      }
      if (x.getType() != ivType) {
        // Widened by the bound's signedness.
        auto wide = castTo(x, ivType, f->iter->loc, false,
                           v.isRuntime() ? elementTypeOf(v) : Type());
        if (failed(wide))
          return failure();
        x = *wide;
      }
      bvals.push_back(x);
    }
    // Which variables the body carries, and their types: generate the body
    // once in a scratch block (Triton does the same). Inside a dry run that
    // one run is all the outer run needs (the loop's results), so a loop
    // nested d deep is generated O(d) times, not 2^d.
    std::set<std::string> assigned;
    collectAssigned(f->body, assigned);
    std::map<std::string, PyValue> before = scope;
    std::vector<CarriedSlot> carried;
    std::vector<Type> carriedTypes;
    const bool outerDryRun = dryRun;
    {
      Block scratch;
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&scratch);
      Value iv = scratch.addArgument(ivType, l);
      scope[targetName->id] = PyValue::ofValue(iv, ivDtype);
      dryRun = true;
      LogicalResult r = execBlock(f->body);
      dryRun = outerDryRun;
      std::map<std::string, PyValue> after = scope;
      scope = before;
      // Read the body's types before its scratch ops are erased.
      if (succeeded(r)) {
        for (const std::string &name : assigned) {
          if (name == targetName->id || !before.count(name) ||
              !after.count(name))
            continue;
          const PyValue &init = before[name], &next = after[name];
          // Every run-time value the body assigns is carried, changed or
          // not: the dry run binds the values before the loop, so `a = b`
          // where both start as n looks unchanged while each iteration
          // changes it (yields of an unchanged value fold away later).
          bool structured = isStructuredPair(init, next);
          auto runtimeLeaf = [](const PyValue *x) { return x->isRuntime(); };
          if (sameBinding(init, next) && !init.isRuntime() &&
              !(structured && llvm::any_of(leavesOf(init), runtimeLeaf)))
            continue;
          if (structured) {
            // A block pointer or a tuple: the loop carries its run-time
            // leaves and the numbers the body changes.
            auto leaves = loopCarriedLeaves(name, init, next, s.loc);
            if (failed(leaves)) {
              r = failure();
              break;
            }
            auto il = leavesOf(init), nl = leavesOf(next);
            for (int k : *leaves) {
              carried.push_back({name, int(k)});
              carriedTypes.push_back(nl[k]->isRuntime() ? frontendTypeOf(*nl[k])
                                     : il[k]->isRuntime()
                                         ? frontendTypeOf(*il[k])
                                         : Type());
            }
            continue;
          }
          if (!next.isRuntime() && init.isConstexpr() && next.isConstexpr() &&
              !init.isNumber()) {
            error(s.loc) << "variable '" << name << "' changes its "
                            "compile-time value in a loop over run-time "
                            "bounds";
            r = failure();
            break;
          }
          Type t = next.isRuntime() ? frontendTypeOf(next)
                   : init.isRuntime() ? frontendTypeOf(init)
                                      : Type();
          carried.push_back({name});
          carriedTypes.push_back(t);
        }
      }
      scratch.dropAllDefinedValueUses();
      while (!scratch.empty())
        scratch.back().erase();
      if (failed(r))
        return failure();
    }
    SmallVector<Value> inits;
    auto slotValue = [&](std::map<std::string, PyValue> &sc,
                         const CarriedSlot &slot) -> PyValue & {
      return slot.leaf < 0 ? sc[slot.name]
                           : *leavesOf(sc[slot.name])[slot.leaf];
    };
    for (auto [k, slot] : llvm::enumerate(carried)) {
      const std::string &name = slot.name;
      const PyValue &init = slotValue(before, slot);
      Type t = carriedTypes[k];
      if (init.kind == PyValue::Kind::Descriptor ||
          (t && isa<tile::TensorDescType>(t))) {
        error(s.loc) << "unimplemented: tensor descriptor '" << name
                     << "' is reassigned in a loop; make each descriptor "
                        "once, outside the loop (tilec lowers accesses "
                        "through the tl.make_tensor_descriptor they come "
                        "from)";
        return failure();
      }
      if (t && isa<RankedTensorType>(t) && !init.isRuntime()) {
        error(s.loc) << "loop-carried variable '" << name << "' starts as "
                     << init.describe() << " but the loop makes it a tile "
                     << t << "; initialize it as a tile (e.g. tl.zeros)";
        return failure();
      }
      Type hint = t ? tile::getElementTypeOrSelf(t) : Type();
      auto v = toValue(init, s.loc, hint);
      if (failed(v))
        return failure();
      Type initType = init.isRuntime() ? frontendTypeOf(init)
                      : hint           ? hint
                                       : elementTypeOf(init);
      if (t && initType != t) {
        error(s.loc) << "loop-carried variable '" << name << "' has type "
                     << initType << " before the loop and " << t
                     << " in it; keep its type the same";
        return failure();
      }
      carriedTypes[k] = initType;
      inits.push_back(*v);
    }
    if (outerDryRun) {
      scope = before;
      bindDryRunResults(carried, inits, carriedTypes, l);
      return success();
    }
    auto forOp = scf::ForOp::create(b, l, bvals[0], bvals[1], bvals[2], inits);
    if (unsignedLoop)
      forOp.setUnsignedCmp(true);
    for (NamedAttribute a : loopAttrs)
      forOp->setAttr(a.getName(), a.getValue());
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = forOp.getBody();
      if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
        body->back().erase();
      b.setInsertionPointToEnd(body);
      Value iv = forOp.getInductionVar();
      if (negativeStep)
        iv = arith::SubIOp::create(
            b, l, arith::AddIOp::create(b, l, bvals[0], bvals[1]), iv);
      scope[targetName->id] = PyValue::ofValue(iv, ivDtype);
      for (auto [k, slot] : llvm::enumerate(carried))
        bindSlot(slot,
                 PyValue::ofValue(forOp.getRegionIterArg(k),
                                  tile::getElementTypeOrSelf(carriedTypes[k])));
      if (failed(execBlock(f->body)))
        return failure();
      SmallVector<Value> yields;
      for (auto [k, slot] : llvm::enumerate(carried)) {
        const std::string &name = slot.name;
        if (slot.leaf >= 0 && !sameStructure(before[name], scope[name])) {
          error(s.loc) << "variable '" << name << "' is "
                       << before[name].describe() << " before the loop and "
                       << scope[name].describe() << " at the end of its body";
          return failure();
        }
        const PyValue &end = slotValue(scope, slot);
        Type hint = tile::getElementTypeOrSelf(carriedTypes[k]);
        auto v = toValue(end, s.loc, hint);
        if (failed(v))
          return failure();
        Type endType = end.isRuntime() ? frontendTypeOf(end) : hint;
        if (endType != carriedTypes[k]) {
          error(s.loc) << "loop-carried variable '" << name << "' has type "
                       << carriedTypes[k] << " before the loop and "
                       << endType << " at the end of its body";
          return failure();
        }
        yields.push_back(*v);
      }
      scf::YieldOp::create(b, l, yields);
    }
    scope = before;
    for (auto [k, slot] : llvm::enumerate(carried))
      bindSlot(slot,
               PyValue::ofValue(forOp.getResult(k),
                                tile::getElementTypeOrSelf(carriedTypes[k])));
    return success();
  }

  // while: scf.while carrying what the body re-assigns.
  auto &w = llvm::cast<While>(s);
  if (!w.orelse.empty()) {
    error(s.loc) << "unsupported Python construct in a @triton.jit function: "
                    "while ... else";
    return failure();
  }
  if (containsReturn(w.body)) {
    error(s.loc) << "unimplemented: return inside a loop";
    return failure();
  }
  Location l = loc(s.loc);
  std::set<std::string> assigned;
  collectAssigned(w.body, assigned);
  std::map<std::string, PyValue> before = scope;
  std::vector<std::string> carried;
  for (const std::string &name : assigned)
    if (before.count(name))
      carried.push_back(name);
  SmallVector<Value> inits;
  SmallVector<Type> types;   // IR types of the carried values
  SmallVector<Type> dtypes;  // and their dtypes
  // Types from a scratch run of the body (for constexpr initial values),
  // and which variables it changes: a compile-time value the body changes
  // becomes a run-time loop variable, since the trip count is not known.
  std::map<std::string, Type> bodyTypes;
  std::set<std::string> changedInBody;
  // Structured variables (block pointers, tuples of run-time values): the
  // leaves the body changes.
  // Each with the element type the body gives it (null: a number).
  std::map<std::string, std::vector<std::pair<int, Type>>> changedLeaves;
  const bool outerDryRun = dryRun;
  {
    Block scratch;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&scratch);
    dryRun = true;
    LogicalResult r = execBlock(w.body);
    dryRun = outerDryRun;
    for (const std::string &name : carried) {
      if (!scope.count(name))
        continue;
      const PyValue &init = before[name], &next = scope[name];
      if (succeeded(r) && isStructuredPair(init, next) &&
          (!sameBinding(next, init) ||
           llvm::any_of(leavesOf(init),
                        [](const PyValue *x) { return x->isRuntime(); }))) {
        auto carriedLeaves = loopCarriedLeaves(name, init, next, s.loc);
        if (failed(carriedLeaves)) {
          r = failure();
          break;
        }
        auto il = leavesOf(init), nl = leavesOf(next);
        auto &leaves = changedLeaves[name];
        for (int k : *carriedLeaves)
          leaves.push_back(
              {int(k), nl[k]->isRuntime()
                           ? tile::getElementTypeOrSelf(frontendTypeOf(*nl[k]))
                           : Type()});
        continue;
      }
      if (next.isRuntime())
        bodyTypes[name] = frontendTypeOf(next);
      if (!sameBinding(next, init))
        changedInBody.insert(name);
    }
    scope = before;
    scratch.dropAllDefinedValueUses();
    while (!scratch.empty())
      scratch.back().erase();
    if (failed(r))
      return failure();
  }
  std::vector<CarriedSlot> kept;
  for (const std::string &name : carried) {
    if (auto it = changedLeaves.find(name); it != changedLeaves.end()) {
      auto il = leavesOf(before[name]);
      for (auto [k, hint] : it->second) {
        TRY(v, toValue(*il[k], s.loc, hint));
        kept.push_back({name, k});
        inits.push_back(v);
        types.push_back(v.getType());
        dtypes.push_back(il[k]->isRuntime() || !hint ? elementTypeOf(*il[k])
                                                     : hint);
      }
      continue;
    }
    const PyValue &init = before[name];
    Type t = bodyTypes.count(name) ? bodyTypes[name] : Type();
    if (!init.isRuntime() && !t && !changedInBody.count(name))
      continue; // stays a compile-time value
    if (!init.isRuntime() && !t && !init.isNumber()) {
      error(s.loc) << "variable '" << name << "' changes its compile-time "
                      "value in a loop on a run-time condition";
      return failure();
    }
    Type hint = t ? tile::getElementTypeOrSelf(t) : Type();
    auto v = toValue(init, s.loc, hint);
    if (failed(v))
      return failure();
    kept.push_back({name});
    inits.push_back(*v);
    types.push_back(v->getType());
    dtypes.push_back(init.isRuntime() ? elementTypeOf(init)
                     : hint           ? hint
                                      : elementTypeOf(init));
  }
  if (outerDryRun) {
    scope = before;
    std::vector<Type> dtypeList(dtypes.begin(), dtypes.end());
    bindDryRunResults(kept, inits, dtypeList, l);
    return success();
  }
  SmallVector<Location> locs(types.size(), l);
  auto whileOp = scf::WhileOp::create(b, l, types, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *beforeBlock = b.createBlock(&whileOp.getBefore(), {}, types, locs);
    for (auto [k, slot] : llvm::enumerate(kept))
      bindSlot(slot, PyValue::ofValue(beforeBlock->getArgument(k), dtypes[k]));
    auto c = eval(*w.test);
    if (failed(c))
      return failure();
    auto cv = toValue(*c, w.test->loc);
    if (failed(cv))
      return failure();
    if (cv->getType() != b.getI1Type()) {
      error(w.test->loc) << "expected a scalar boolean loop condition, found "
                         << cv->getType();
      return failure();
    }
    scf::ConditionOp::create(b, l, *cv, beforeBlock->getArguments());
    Block *afterBlock = b.createBlock(&whileOp.getAfter(), {}, types, locs);
    for (auto [k, slot] : llvm::enumerate(kept))
      bindSlot(slot, PyValue::ofValue(afterBlock->getArgument(k), dtypes[k]));
    if (failed(execBlock(w.body)))
      return failure();
    SmallVector<Value> yields;
    for (auto [k, slot] : llvm::enumerate(kept)) {
      const std::string &name = slot.name;
      if (slot.leaf >= 0 && !sameStructure(before[name], scope[name])) {
        error(s.loc) << "variable '" << name << "' is "
                     << before[name].describe() << " before the loop and "
                     << scope[name].describe() << " at the end of its body";
        return failure();
      }
      const PyValue &end =
          slot.leaf < 0 ? scope[name] : *leavesOf(scope[name])[slot.leaf];
      auto v = toValue(end, s.loc, dtypes[k]);
      if (failed(v))
        return failure();
      Type startType = withElement(types[k], dtypes[k]);
      Type endType = end.isRuntime() ? frontendTypeOf(end) : dtypes[k];
      if (endType != startType) {
        error(s.loc) << "loop-carried variable '" << name << "' has type "
                     << startType << " before the loop and " << endType
                     << " at the end of its body";
        return failure();
      }
      yields.push_back(*v);
    }
    scf::YieldOp::create(b, l, yields);
  }
  scope = before;
  for (auto [k, slot] : llvm::enumerate(kept))
    bindSlot(slot, PyValue::ofValue(whileOp.getResult(k), dtypes[k]));
  return success();
}
