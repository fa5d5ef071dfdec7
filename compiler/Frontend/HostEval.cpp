//===- HostEval.cpp - Autotune configs from host Python ---------*- C++ -*-===//
//
// `@triton.autotune(configs=..., key=[...])` is host Python: Triton runs it
// when the module is imported. tilec runs no Python, so this file evaluates
// the small part of host Python that config lists are written in: list and
// dict literals, `triton.Config(...)`, module constants, and calls of
// top-level host functions made of assignments, `if` and `return` (Triton
// 3.6's matmul tutorial: `configs=get_autotune_config()`, which returns
// `get_cuda_autotune_config()` when `is_cuda()`). The target is the one tilec
// compiles for: `triton.runtime.driver.active.get_current_target()` has
// backend "cuda", the --arch capability (90 for sm_90a) and warp size 32,
// so `is_cuda()` is true and the CUDA configs are chosen.
//
// List and dict comprehensions over lists, tuples and range() are evaluated
// too (Triton's tutorial 06 builds its configs with one). Anything else
// (loops, torch, other triton APIs) is a
// located `unimplemented:` error naming what to write instead; a module name
// that skipped top-level code changes in place (`configs.append(...)`) is
// refused too, since its assignment does not give its value. The host
// value model here (HostValue) is separate from the kernel's PyValue: host
// code has lists, dicts and config objects, and no tiles.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"
#include "compiler/Frontend/Unicode.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <tuple>
#include <functional>
#include <map>
#include <set>
#include <memory>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

namespace {

/// A host Python value.
struct HostValue {
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    Str,
    List,
    Tuple,
    Dict,
    Config,
    Function,
    Builtin,
    Module,
    Target,
    /// A value of the code generator's that host code passes along or
    /// calls (a triton.language function, a dtype, a jit function,
    /// packaging.version.Version): `device`.
    Device,
  };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;               ///< Str; Builtin and Module: dotted path
  std::vector<HostValue> elts; ///< List, Tuple; Dict: k0, v0, k1, v1, ...
  /// Values in this one with the nested lists', tuples' and dicts' (1 for a
  /// scalar): what copying it costs (values nest by copy).
  uint64_t nodes = 1;
  std::shared_ptr<AutotuneConfig> config;
  const py::FunctionDef *fn = nullptr;
  /// Function: the module it is defined in (its names are its globals).
  CodeGen::ModuleScope *home = nullptr;
  std::shared_ptr<PyValue> device;

  static HostValue ofInt(int64_t x) {
    HostValue v;
    v.kind = Kind::Int;
    v.i = x;
    return v;
  }
  static HostValue ofFloat(double x) {
    HostValue v;
    v.kind = Kind::Float;
    v.f = x;
    return v;
  }
  static HostValue ofBool(bool x) {
    HostValue v;
    v.kind = Kind::Bool;
    v.b = x;
    return v;
  }
  static HostValue ofStr(std::string x) {
    HostValue v;
    v.kind = Kind::Str;
    v.s = std::move(x);
    return v;
  }
  static HostValue ofPath(Kind k, std::string path) {
    HostValue v;
    v.kind = k;
    v.s = std::move(path);
    return v;
  }

  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  double asDouble() const {
    return kind == Kind::Float ? f : kind == Kind::Int ? double(i) : double(b);
  }

  std::string describe() const {
    switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Int:
      return "int " + std::to_string(i);
    case Kind::Float:
      return "float";
    case Kind::Bool:
      return b ? "True" : "False";
    case Kind::Str:
      return "str '" + s + "'";
    case Kind::List:
      return "list of " + std::to_string(elts.size());
    case Kind::Tuple:
      return "tuple of " + std::to_string(elts.size());
    case Kind::Dict:
      return "dict of " + std::to_string(elts.size() / 2);
    case Kind::Config:
      return "triton.Config";
    case Kind::Function:
      return "function '" + fn->name + "'";
    case Kind::Builtin:
      if (s == "exception" && elts.size() == 2) // `except E as e`
        return "exception " + elts[0].s;
      return "function '" + s + "'";
    case Kind::Module:
      return "module '" + s + "'";
    case Kind::Target:
      return "GPUTarget";
    case Kind::Device:
      return device->describe();
    }
    return "value";
  }
};

using Kind = HostValue::Kind;

/// The module named `name` (a host function's home), else the kernel's.
CodeGen::ModuleScope *homeModule(CodeGen &g, const std::string &name) {
  auto it = g.modulesByName.find(name);
  return it == g.modulesByName.end() ? g.moduleScopes.front().get()
                                     : it->second;
}

/// Modules host code uses that are not on the import path: triton's, the
/// host libraries whose facts tilec answers (torch, os, sys), itertools.
bool knownModule(StringRef dotted) {
  return isTritonModule(dotted) || CodeGen::isHostLibrary(dotted) ||
         dotted == "itertools";
}

/// The suggestion closing every refusal.
constexpr const char *kWhatIsRead =
    "tilec evaluates lists and list comprehensions of triton.Config(...), "
    "module constants "
    "and host functions made of assignments, 'if', loops, 'try', imports "
    "and 'return'";

/// Python's `==` on the values host code compares (numbers, strings, None,
/// and sequences of them).
bool equal(const HostValue &a, const HostValue &b) {
  // Integers (and bools) compare exactly; a float with either as doubles.
  if (a.isNumber() && b.isNumber() && a.kind != Kind::Float &&
      b.kind != Kind::Float)
    return (a.kind == Kind::Bool ? int64_t(a.b) : a.i) ==
           (b.kind == Kind::Bool ? int64_t(b.b) : b.i);
  if (a.isNumber() && b.isNumber())
    return a.asDouble() == b.asDouble();
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case Kind::None:
    return true;
  case Kind::Str:
  case Kind::Module:
  case Kind::Builtin:
    return a.s == b.s;
  case Kind::List:
  case Kind::Tuple:
    return a.elts.size() == b.elts.size() &&
           llvm::all_of(llvm::zip(a.elts, b.elts), [](auto p) {
             return equal(std::get<0>(p), std::get<1>(p));
           });
  case Kind::Dict: // the same keys with equal values, in any order
    if (a.elts.size() != b.elts.size())
      return false;
    for (size_t i = 0; i < a.elts.size(); i += 2) {
      bool found = false;
      for (size_t j = 0; j < b.elts.size() && !found; j += 2)
        found = equal(a.elts[i], b.elts[j]) &&
                equal(a.elts[i + 1], b.elts[j + 1]);
      if (!found)
        return false;
    }
    return true;
  case Kind::Function:
    return a.fn == b.fn;
  default:
    return false;
  }
}

/// `dict[key] = value` as Python does it: an existing key keeps its place
/// and takes the value, a new one goes last (dict literals, comprehensions,
/// `|` and item assignment).
void setItem(HostValue &dict, const HostValue &key, const HostValue &value) {
  for (size_t j = 0; j < dict.elts.size(); j += 2)
    if (equal(dict.elts[j], key)) {
      dict.nodes = dict.nodes - dict.elts[j + 1].nodes + value.nodes;
      dict.elts[j + 1] = value;
      return;
    }
  dict.elts.push_back(key);
  dict.elts.push_back(value);
  dict.nodes += key.nodes + value.nodes;
}

bool truthy(const HostValue &v) {
  switch (v.kind) {
  case Kind::None:
    return false;
  case Kind::Int:
    return v.i != 0;
  case Kind::Float:
    return v.f != 0;
  case Kind::Bool:
    return v.b;
  case Kind::Str:
    return !v.s.empty();
  case Kind::List:
  case Kind::Tuple:
  case Kind::Dict:
    return !v.elts.empty();
  default:
    return true;
  }
}

/// Evaluates host expressions and host functions for `@triton.autotune`.
/// Adds to `out` the names `target` binds (a name, or tuples and lists of
/// targets); items and attributes bind none.
void collectTargets(const py::Expr &target, std::set<std::string> &out) {
  if (auto *n = dyn_cast<py::Name>(&target))
    out.insert(n->id);
  else if (auto *t = dyn_cast<py::Tuple>(&target))
    for (const py::ExprPtr &x : t->elts)
      collectTargets(*x, out);
  else if (auto *l = dyn_cast<py::List>(&target))
    for (const py::ExprPtr &x : l->elts)
      collectTargets(*x, out);
}

/// Adds to `out` every name `body` binds, nested blocks included: a
/// function's locals, as Python decides them before it runs.
void collectBound(const py::StmtList &body, std::set<std::string> &out) {
  for (const py::StmtPtr &s : body) {
    if (auto *a = dyn_cast<py::Assign>(s.get())) {
      for (const py::ExprPtr &t : a->targets)
        collectTargets(*t, out);
    } else if (auto *a = dyn_cast<py::AugAssign>(s.get())) {
      collectTargets(*a->target, out);
    } else if (auto *a = dyn_cast<py::AnnAssign>(s.get())) {
      if (a->value)
        collectTargets(*a->target, out);
    } else if (auto *f = dyn_cast<py::For>(s.get())) {
      collectTargets(*f->target, out);
      collectBound(f->body, out);
      collectBound(f->orelse, out);
    } else if (auto *w = dyn_cast<py::While>(s.get())) {
      collectBound(w->body, out);
      collectBound(w->orelse, out);
    } else if (auto *i = dyn_cast<py::If>(s.get())) {
      collectBound(i->body, out);
      collectBound(i->orelse, out);
    } else if (auto *t = dyn_cast<py::Try>(s.get())) {
      collectBound(t->body, out);
      for (const py::ExceptHandler &h : t->handlers) {
        if (!h.name.empty())
          out.insert(h.name);
        collectBound(h.body, out);
      }
      collectBound(t->orelse, out);
      collectBound(t->finalbody, out);
    } else if (auto *im = dyn_cast<py::ImportStmt>(s.get())) {
      for (const py::Import::Alias &a : im->import.names)
        if (a.name != "*")
          out.insert(im->import.boundName(a));
    }
  }
}

class HostEvaluator {
public:
  /// Python's method `name` of `self` (callHostMethod's entry).
  FailureOr<HostValue> runMethod(const std::string &name,
                                 const HostValue &self,
                                 const std::vector<HostValue> &args,
                                 SourceLoc l) {
    return callMethod(name, self, args, l);
  }
  HostEvaluator(CodeGen &g) : g(g), scope(g.cur) {
    StringRef arch(g.options.arch);
    unsigned capability = 90;
    if (arch.consume_front("sm_"))
      (void)arch.take_while(llvm::isDigit).getAsInteger(10, capability);
    this->capability = capability;
  }

  FailureOr<HostValue> eval(const py::Expr &e);
  FailureOr<HostValue> evalExpr(const py::Expr &e);
  unsigned evalDepth = 0;
  /// Host code's work in one compile (values are copied where they are
  /// read, loops iterate): a budget of 2^21 units over every evaluator, so
  /// that hostile host code ends in seconds.
  LogicalResult charge(uint64_t units, SourceLoc l) {
    g.hostWork += units;
    if (g.hostWork <= (uint64_t(1) << 21))
      return success();
    error(l) << "host code exceeds tilec's budget of 2^21 units of work "
                "(values read and loop iterations) in one compile";
    return failure();
  }
  FailureOr<HostValue>
  callFunction(const py::FunctionDef &fn, CodeGen::ModuleScope *home,
               std::vector<HostValue> args,
               std::vector<std::pair<std::string, HostValue>> kwargs,
               SourceLoc l);

  /// A Python exception in flight: set by `raise`, it makes every
  /// evaluation fail without a diagnostic up to a `try` that handles it;
  /// past the host code, reportRaised says so at the use.
  struct Raised {
    std::string type;    ///< the exception's class name
    std::string message; ///< its first argument, when a string literal
    SourceLoc at;        ///< the raise
    CodeGen::ModuleScope *where = nullptr;
  };
  std::optional<Raised> raised;
  /// If host code raised, the error at `use` (with a note at the raise);
  /// returns failure() either way, for `return reportRaised(l);`.
  LogicalResult reportRaised(SourceLoc use, const Twine &what);

  /// The code generator's value as a host value, and back.
  FailureOr<HostValue> fromDevice(const PyValue &v, SourceLoc l);
  FailureOr<PyValue> toDevice(const HostValue &v, SourceLoc l);

private:
  CodeGen &g;
  /// The module whose names host code sees: the kernel's, or the module
  /// of the host function being run (a library's config helper).
  CodeGen::ModuleScope *scope;
  unsigned capability;
  /// Locals of the host function being evaluated.
  std::map<std::string, HostValue> locals;
  /// The names the running function binds anywhere in its body (Python's
  /// locals): reading one before it is bound raises UnboundLocalError
  /// rather than reading the module's name.
  std::set<std::string> functionLocals;
  std::map<std::string, HostValue> constants;
  std::vector<std::string> evaluating;
  /// Imports being followed (module:name), against cycles.
  std::vector<std::string> resolving;
  std::optional<HostValue> returned;
  unsigned depth = 0;
  /// Host functions called so far (a budget).
  unsigned calls = 0;

  InFlightDiagnostic error(SourceLoc l) { return g.error(l); }
  LogicalResult unimplemented(SourceLoc l, const Twine &what) {
    error(l) << "unimplemented: " << what << " in host code; " << kWhatIsRead;
    return failure();
  }

  FailureOr<HostValue> name(const py::Name &n);
  FailureOr<HostValue> constant(const py::ModuleConstant &c, SourceLoc use);
  FailureOr<HostValue> path(const std::string &dotted, SourceLoc l);
  /// Name `attr` of the user module `dotted` (a module on the import
  /// path): a host function, a constant, an import, or a submodule.
  FailureOr<HostValue> member(const std::string &dotted,
                              const std::string &attr, SourceLoc l);
  /// A binding of the current module's imports (`import a.b as m`, `from a
  /// import f`), or nothing.
  FailureOr<std::optional<HostValue>> imported(const std::string &name,
                                               SourceLoc l);
  /// Runs `body` with `m` as the current module (its names, its file's
  /// locations).
  template <typename F> auto inModule(CodeGen::ModuleScope *m, F body) {
    CodeGen::ModuleScope *savedScope = scope, *savedCur = g.cur;
    scope = m;
    g.cur = m;
    auto r = body();
    scope = savedScope;
    g.cur = savedCur;
    return r;
  }
  FailureOr<HostValue> attribute(const py::Attribute &a);
  FailureOr<HostValue> call(const py::Call &c);
  /// A call of the code generator's function `callee` (Kind::Device).
  FailureOr<HostValue>
  callDevice(const HostValue &callee, std::vector<HostValue> args,
             std::vector<std::pair<std::string, HostValue>> kwargs,
             SourceLoc l);
  /// `dotted` as the code generator resolves it (triton.language's names,
  /// torch.cuda's facts, packaging.version).
  FailureOr<HostValue> devicePath(const std::string &dotted, SourceLoc l);
  LogicalResult execTry(const py::Try &t);
  LogicalResult execRaise(const py::Raise &r);
  LogicalResult execImport(const py::Import &imp);
  FailureOr<HostValue> subscript(const py::Subscript &s);
  FailureOr<HostValue>
  makeConfig(const py::Call &c, std::vector<HostValue> args,
             std::vector<std::pair<std::string, HostValue>> kwargs);
  FailureOr<HostValue> binary(const py::BinOp &op);
  FailureOr<HostValue> applyBinary(py::BinOpKind kind, const HostValue &a,
                                   const HostValue &b, SourceLoc loc);
  FailureOr<HostValue> compare(const py::Compare &c);
  LogicalResult execBlock(const py::StmtList &body);
  /// List and dict comprehensions (tutorial 06's config list).
  FailureOr<HostValue> comprehension(const py::Comprehension &c);
  LogicalResult generate(const py::Comprehension &c, size_t gen,
                         HostValue &out);
  /// Binds a `for` target (a name or a tuple of targets) to `v`.
  LogicalResult bindTarget(const py::Expr &target, const HostValue &v);
  FailureOr<HostValue> range(const py::Call &c,
                             const std::vector<HostValue> &args, size_t kwargs);
  /// Iterations of comprehensions so far (a budget).
  uint64_t iterations = 0;
  /// The exceptions being handled (innermost last), for a bare `raise`.
  std::vector<Raised> handling;
  /// Locals holding a list or dict this frame made (a literal, a
  /// comprehension, `+`, `*` or `|`) that nothing else can reach yet. Host
  /// values are copies, so only these may change in place: where Python
  /// would share the object (`b = a`, an argument, an element of a
  /// container, a parameter, a loop variable, a call's result), a change
  /// is refused rather than evaluated differently.
  std::set<std::string> fresh;
  /// `e` is bound or passed somewhere that may keep it: if it names a
  /// local, that local is no longer fresh.
  void escape(const py::Expr &e) {
    if (auto *n = dyn_cast<py::Name>(&e))
      fresh.erase(n->id);
    else if (auto *t = dyn_cast<py::Tuple>(&e))
      for (const py::ExprPtr &x : t->elts)
        escape(*x);
  }
  /// Names a target binds are new bindings: not fresh until shown so.
  void escapeTargets(const py::Expr &t) {
    if (auto *n = dyn_cast<py::Name>(&t))
      fresh.erase(n->id);
    else if (auto *tu = dyn_cast<py::Tuple>(&t))
      for (const py::ExprPtr &x : tu->elts)
        escapeTargets(*x);
    else if (auto *l = dyn_cast<py::List>(&t))
      for (const py::ExprPtr &x : l->elts)
        escapeTargets(*x);
  }
  static bool makesNewObject(const py::Expr &e) {
    if (isa<py::List, py::Dict, py::Comprehension>(e))
      return true;
    if (auto *b = dyn_cast<py::BinOp>(&e))
      return b->op == py::BinOpKind::Add || b->op == py::BinOpKind::Mul ||
             b->op == py::BinOpKind::BitOr;
    return false;
  }
  /// Refuses changing `name` in place unless it is fresh.
  LogicalResult checkFresh(const std::string &name, SourceLoc l) {
    if (fresh.count(name))
      return success();
    return unimplemented(l, "changing '" + name +
                                "' in place: tilec changes only a list or "
                                "dict this function made (a literal, a "
                                "comprehension, + or |) and has not passed, "
                                "stored or bound to another name, since "
                                "its values are copies where Python shares "
                                "the object");
  }
  /// A `break` or `continue` leaving the statements of a loop body.
  enum class Jump { None, Break, Continue } jump = Jump::None;
  LogicalResult execFor(const py::For &f);
  LogicalResult execWhile(const py::While &w);
  /// `x.append(v)` and the like on a local list or dict (an expression
  /// statement); false if `e` is not such a call.
  FailureOr<bool> execMutation(const py::Expr &e);
  /// `target op= value` and `d[k] = v` / `l[i] = v` on locals.
  LogicalResult assignItem(const py::Subscript &target, const HostValue &v);
  /// A method of a list, dict or string (`d.items()`, `s.lower()`).
  FailureOr<HostValue> callMethod(const std::string &name,
                                  const HostValue &self,
                                  const std::vector<HostValue> &args,
                                  SourceLoc l);
  /// The elements a `for` or comprehension iterates over.
  FailureOr<std::vector<HostValue>> iterate(const HostValue &seq, SourceLoc l);
};

FailureOr<HostValue> HostEvaluator::eval(const py::Expr &e) {
  // Expressions nest on the C++ stack, in every host call at once.
  if (evalDepth >= 2000) {
    error(e.loc) << "host code nested more than 2000 deep (expressions and "
                    "calls together)";
    return failure();
  }
  ++evalDepth;
  auto r = evalExpr(e);
  --evalDepth;
  return r;
}

FailureOr<HostValue> HostEvaluator::evalExpr(const py::Expr &e) {
  using py::ExprKind;
  switch (e.getKind()) {
  case ExprKind::Int: {
    auto &lit = cast<py::IntLiteral>(e);
    if (lit.overflow) {
      error(e.loc) << "integer literal " << lit.text
                   << " does not fit in 64 bits";
      return failure();
    }
    return HostValue::ofInt(lit.value);
  }
  case ExprKind::Float: {
    auto &lit = cast<py::FloatLiteral>(e);
    if (lit.isImaginary)
      return unimplemented(e.loc, "a complex number");
    return HostValue::ofFloat(lit.value);
  }
  case ExprKind::String: {
    auto &lit = cast<py::StringLiteral>(e);
    if (lit.isFString || lit.isBytes)
      return unimplemented(e.loc,
                           lit.isFString ? "an f-string" : "a bytes literal");
    return HostValue::ofStr(lit.value);
  }
  case ExprKind::Bool:
    return HostValue::ofBool(cast<py::BoolLiteral>(e).value);
  case ExprKind::None:
    return HostValue();
  case ExprKind::Name:
    return name(cast<py::Name>(e));
  case ExprKind::Attribute:
    return attribute(cast<py::Attribute>(e));
  case ExprKind::Call:
    return call(cast<py::Call>(e));
  case ExprKind::List:
  case ExprKind::Tuple: {
    const py::ExprList &elts =
        isa<py::List>(e) ? cast<py::List>(e).elts : cast<py::Tuple>(e).elts;
    HostValue out;
    out.kind = isa<py::List>(e) ? Kind::List : Kind::Tuple;
    for (const py::ExprPtr &x : elts) {
      if (isa<py::Starred>(*x))
        return unimplemented(x->loc, "'*' unpacking");
      escape(*x);
      TRY(v, eval(*x));
      out.nodes += v.nodes;
      out.elts.push_back(v);
    }
    if (out.nodes > (uint64_t(1) << 18)) {
      error(e.loc) << "a host-code list of " << out.nodes
                   << " values (nested lists' included) is larger than the limit of 262144";
      return failure();
    }
    return out;
  }
  case ExprKind::Dict: {
    auto &d = cast<py::Dict>(e);
    HostValue out;
    out.kind = Kind::Dict;
    for (size_t i = 0; i < d.keys.size(); ++i) {
      if (!d.keys[i])
        return unimplemented(d.values[i]->loc, "'**' in a dict");
      TRY(k, eval(*d.keys[i]));
      if (k.kind == Kind::List || k.kind == Kind::Dict) {
        raised = Raised{"TypeError",
                        "unhashable type: '" +
                            std::string(k.kind == Kind::List ? "list" : "dict") +
                            "'",
                        d.keys[i]->loc, scope};
        return failure();
      }
      escape(*d.values[i]);
      TRY(v, eval(*d.values[i]));
      setItem(out, k, v);
      if (out.nodes > (uint64_t(1) << 18)) {
        error(e.loc) << "a host-code dict of more than 262144 values (nested "
                        "ones included)";
        return failure();
      }
    }
    return out;
  }
  case ExprKind::Unary: {
    auto &u = cast<py::UnaryOp>(e);
    TRY(x, eval(*u.operand));
    if (u.op == py::UnaryOpKind::Not)
      return HostValue::ofBool(!truthy(x));
    if (x.kind == Kind::Int && u.op != py::UnaryOpKind::Invert)
    {
      if (u.op == py::UnaryOpKind::Minus && x.i == INT64_MIN) {
        error(e.loc) << "integer '-' in host code overflows 64 bits";
        return failure();
      }
      return HostValue::ofInt(u.op == py::UnaryOpKind::Minus ? -x.i : x.i);
    }
    if (x.kind == Kind::Float && u.op != py::UnaryOpKind::Invert)
      return HostValue::ofFloat(u.op == py::UnaryOpKind::Minus ? -x.f : x.f);
    if (x.isNumber()) { // ~n, -True: as the code generator folds them
      TRY(d, toDevice(x, e.loc));
      TRY(r, g.unary(u.op, d, e.loc));
      return fromDevice(r, e.loc);
    }
    error(e.loc) << "bad operand " << x.describe() << " for unary '"
                 << getSpelling(u.op) << "'";
    return failure();
  }
  case ExprKind::Binary:
    return binary(cast<py::BinOp>(e));
  case ExprKind::BoolOp: {
    // Python's and/or return the operand that decided.
    auto &bo = cast<py::BoolOp>(e);
    HostValue last;
    for (const py::ExprPtr &x : bo.values) {
      TRY(v, eval(*x));
      last = v;
      if (truthy(v) == (bo.op == py::BoolOpKind::Or))
        break;
    }
    return last;
  }
  case ExprKind::Compare:
    return compare(cast<py::Compare>(e));
  case ExprKind::IfExp: {
    auto &ie = cast<py::IfExp>(e);
    TRY(c, eval(*ie.test));
    return eval(truthy(c) ? *ie.body : *ie.orelse);
  }
  case ExprKind::Comprehension:
    return comprehension(cast<py::Comprehension>(e));
  case ExprKind::Lambda:
    return unimplemented(e.loc, "a lambda");
  case ExprKind::Subscript:
    return subscript(cast<py::Subscript>(e));
  default:
    return unimplemented(e.loc, "this expression");
  }
}

FailureOr<HostValue> HostEvaluator::name(const py::Name &n) {
  auto l = locals.find(n.id);
  if (l != locals.end()) {
    if (failed(charge(l->second.nodes, n.loc)))
      return failure();
    return l->second;
  }
  if (functionLocals.count(n.id)) {
    raised = Raised{"UnboundLocalError",
                    "local variable '" + n.id +
                        "' referenced before assignment",
                    n.loc, scope};
    return failure();
  }
  // Module scope: the binding Python sees there (the last, where the module
  // has run to its end).
  if (failed(g.checkReadOrder(*scope, n.id, n.loc)))
    return failure();
  const py::Module &module = *scope->ast;
  const py::ModuleConstant *bound = g.boundConstant(*scope, n.id);
  if (const py::FunctionDef *fn = g.lookupHostFunction(*scope, n.id);
      fn && (!bound || std::make_pair(bound->loc.line, bound->loc.col) <
                           std::make_pair(fn->loc.line, fn->loc.col))) {
    HostValue v;
    v.kind = Kind::Function;
    v.fn = fn;
    v.home = scope;
    return v;
  }
  if (module.lookupFunction(n.id)) {
    error(n.loc) << "unimplemented: the @triton.jit function '" << n.id
                 << "' as a value in host code (tilec runs host code while "
                    "compiling; a jit function is a value only in a kernel)";
    return failure();
  }
  if (bound)
    return constant(*bound, n.loc);
  TRY(imp, imported(n.id, n.loc));
  if (imp)
    return *imp;
  if (n.id == "range" || n.id == "zip" || n.id == "tuple" || n.id == "list")
    return HostValue::ofPath(Kind::Builtin, n.id);
  // Python's builtins on compile-time values, as the code generator has
  // them.
  static constexpr StringRef kDeviceBuiltins[] = {
      "len", "min", "max", "str", "int", "float", "bool", "abs", "hasattr",
      "getattr"};
  if (llvm::is_contained(kDeviceBuiltins, n.id))
    return fromDevice(PyValue::builtin("py." + n.id), n.loc);
  static constexpr StringRef kPythonBuiltins[] = {"dict"};
  if (llvm::is_contained(kPythonBuiltins, n.id))
    return unimplemented(n.loc, "'" + n.id + "'");
  error(n.loc) << "name '" << n.id << "' is not defined";
  return failure();
}

FailureOr<HostValue> HostEvaluator::constant(const py::ModuleConstant &c,
                                             SourceLoc use) {
  for (const auto &[name, where] : scope->ast->mutatedNames)
    if (name == c.name) {
      error(use) << "unimplemented: module variable '" << c.name
                 << "' is changed by host code at line " << where.line
                 << " after its assignment at line " << c.loc.line
                 << "; tilec reads only the assignment: build the list in "
                    "one expression or a host function";
      return failure();
    }
  std::string key = scope->name + ":" + c.name;
  auto cached = constants.find(key);
  if (cached != constants.end()) {
    if (failed(charge(cached->second.nodes, use)))
      return failure();
    return cached->second;
  }
  if (llvm::is_contained(evaluating, key)) {
    error(use) << "module constant '" << c.name << "' refers to itself";
    return failure();
  }
  if (evaluating.size() >= 64) {
    error(use) << "module constants nested more than 64 deep (at '" << c.name
               << "')";
    return failure();
  }
  // Evaluated in the module's scope, as Python would.
  evaluating.push_back(key);
  g.moduleRunPoints.push_back(
      {scope, c.loc, "module constant '" + c.name + "'"});
  std::map<std::string, HostValue> saved;
  std::swap(saved, locals);
  auto v = eval(*c.value);
  std::swap(saved, locals);
  g.moduleRunPoints.pop_back();
  evaluating.pop_back();
  if (failed(v))
    return failure();
  constants[key] = *v;
  return *v;
}

FailureOr<std::optional<HostValue>>
HostEvaluator::imported(const std::string &name, SourceLoc l) {
  // The module's import bindings (CodeGen::bindModule): relative imports
  // resolved, module-level ifs decided.
  auto it = scope->globals.find(name);
  if (it == scope->globals.end() || it->second.kind != PyValue::Kind::Module)
    return std::optional<HostValue>();
  if (auto parts = fromImportParts(it->second)) {
    auto [from, attr] = *parts;
    TRY(v, isTritonModule(from) ? path(from + "." + attr, l)
                                : member(from, attr, l));
    return std::optional<HostValue>(v);
  }
  TRY(v, path(it->second.s, l));
  return std::optional<HostValue>(v);
}

FailureOr<HostValue> HostEvaluator::member(const std::string &dotted,
                                           const std::string &attr,
                                           SourceLoc l) {
  TRY(m, g.loadModule(dotted, l));
  if (!m) // packaging.version, torch: what the code generator knows
    return devicePath(dotted + "." + attr, l);
  if (failed(g.checkReadOrder(*m, attr, l)))
    return failure();
  if (const py::FunctionDef *fn = g.lookupHostFunction(*m, attr)) {
    HostValue v;
    v.kind = Kind::Function;
    v.fn = fn;
    v.home = m;
    return v;
  }
  if (const py::ModuleConstant *c = g.boundConstant(*m, attr))
    return inModule(m, [&] { return constant(*c, l); });
  // An import of m (`from .sub import f` in a package's __init__); not
  // `from m import attr` in m itself, which names the submodule m.attr.
  auto bound = m->globals.find(attr);
  if (bound != m->globals.end() &&
      bound->second.s != "from:" + m->name + ":" + attr) {
    std::string key = m->name + ":" + attr;
    if (llvm::is_contained(resolving, key) || resolving.size() >= 256) {
      error(l) << "import cycle: '" << attr << "' of module '" << m->name
               << "' leads back to itself";
      return failure();
    }
    resolving.push_back(key);
    // m's names, the use's file (l is where the kernel's module uses it).
    CodeGen::ModuleScope *saved = scope;
    scope = m;
    auto r = imported(attr, l);
    scope = saved;
    resolving.pop_back();
    if (failed(r))
      return failure();
    if (*r)
      return **r;
  }
  // `from .device import *` in m: the public names of those modules, the
  // latest such import first.
  if (!attr.empty() && attr.front() != '_')
    for (auto it = m->starImports.rbegin(); it != m->starImports.rend();
         ++it) {
      TRY(src, g.loadModule(*it, l));
      if (!src)
        continue;
      bool defines = g.lookupHostFunction(*src, attr) ||
                     src->globals.count(attr) ||
                     llvm::any_of(src->ast->constants,
                                  [&](const py::ModuleConstant &c) {
                                    return c.name == attr;
                                  });
      std::string key = m->name + ":*" + *it + ":" + attr;
      if (!defines || llvm::is_contained(resolving, key) ||
          resolving.size() >= 256)
        continue;
      resolving.push_back(key);
      auto r = member(src->name, attr, l);
      resolving.pop_back();
      return r;
    }
  TRY(sub, g.loadModule(dotted + "." + attr, l));
  if (sub)
    return HostValue::ofPath(Kind::Module, sub->name);
  return unimplemented(l, "'" + dotted + "." + attr + "'");
}

FailureOr<HostValue> HostEvaluator::path(const std::string &dotted,
                                         SourceLoc l) {
  // What host code may name in the triton package.
  static constexpr StringRef kModules[] = {
      "triton", "triton.runtime", "triton.runtime.driver",
      "triton.runtime.driver.active", "triton.runtime.autotuner"};
  if (llvm::is_contained(kModules, dotted))
    return HostValue::ofPath(Kind::Module, dotted);
  if (dotted == "triton.Config" || dotted == "triton.runtime.Config" ||
      dotted == "triton.runtime.autotuner.Config")
    return HostValue::ofPath(Kind::Builtin, "triton.Config");
  if (dotted == "triton.runtime.driver.active.get_current_target")
    return HostValue::ofPath(Kind::Builtin, dotted);
  if (dotted == "itertools")
    return HostValue::ofPath(Kind::Module, dotted);
  if (dotted == "itertools.product")
    return HostValue::ofPath(Kind::Builtin, dotted);
  // A module of the kernel's package (or any on the import path).
  if (!isTritonModule(dotted) && !CodeGen::isHostLibrary(dotted)) {
    TRY(m, g.loadModule(dotted, l));
    if (m)
      return HostValue::ofPath(Kind::Module, m->name);
  }
  return devicePath(dotted, l);
}

FailureOr<HostValue> HostEvaluator::devicePath(const std::string &dotted,
                                               SourceLoc l) {
  auto [parent, attr] = StringRef(dotted).rsplit('.');
  if (attr.empty() || parent == dotted) {
    if (isTritonModule(dotted) || CodeGen::isHostLibrary(dotted))
      return HostValue::ofPath(Kind::Module, dotted);
    return unimplemented(l, "'" + dotted + "'");
  }
  auto v = g.moduleAttr(parent.str(), attr.str(), l);
  if (failed(v))
    return failure();
  return fromDevice(*v, l);
}

FailureOr<HostValue> HostEvaluator::attribute(const py::Attribute &a) {
  TRY(base, eval(*a.value));
  if (base.kind == Kind::Module && knownModule(base.s))
    return path(base.s + "." + a.attr, a.loc);
  if (base.kind == Kind::Device) {
    auto v = g.getAttr(*base.device, a.attr, a.loc);
    if (failed(v))
      return failure();
    return fromDevice(*v, a.loc);
  }
  if (base.kind == Kind::Module)
    return member(base.s, a.attr, a.loc);
  if (base.kind == Kind::Target) {
    if (a.attr == "backend")
      return HostValue::ofStr("cuda");
    if (a.attr == "arch")
      return HostValue::ofInt(capability);
    if (a.attr == "warp_size")
      return HostValue::ofInt(32);
    // Triton 3.6+'s predicates on the target (tutorial 03's is_cuda()).
    if (a.attr == "is_cuda_backend" || a.attr == "is_hip_backend")
      return HostValue::ofPath(Kind::Builtin, "GPUTarget." + a.attr);
    error(a.loc) << "GPUTarget has no attribute '" << a.attr
                 << "' (backend, arch, warp_size, is_cuda_backend(), "
                    "is_hip_backend())";
    return failure();
  }
  if (base.kind == Kind::List || base.kind == Kind::Dict ||
      base.kind == Kind::Str || base.kind == Kind::Tuple) {
    HostValue m = HostValue::ofPath(Kind::Builtin, "method." + a.attr);
    m.elts.push_back(base);
    m.nodes += base.nodes;
    return m;
  }
  return unimplemented(a.loc,
                       "attribute '" + a.attr + "' of " + base.describe());
}

FailureOr<HostValue> HostEvaluator::call(const py::Call &c) {
  TRY(callee, eval(*c.func));
  std::vector<HostValue> args;
  std::vector<std::pair<std::string, HostValue>> kwargs;
  for (const py::ExprPtr &a : c.args) {
    if (isa<py::Starred>(*a) || isa<py::Comprehension>(*a))
      return unimplemented(a->loc, isa<py::Starred>(*a)
                                       ? "'*' arguments"
                                       : "a generator argument");
    // Python's builtins (len, min, ...) keep nothing; a function may.
    if (callee.kind != Kind::Device)
      escape(*a);
    TRY(v, eval(*a));
    args.push_back(v);
  }
  for (const py::Keyword &k : c.keywords) {
    if (k.isDoubleStar())
      return unimplemented(k.loc, "'**' arguments");
    // triton.Config's hooks are functions: noted, never evaluated.
    if (callee.kind == Kind::Builtin && callee.s == "triton.Config" &&
        (k.name == "pre_hook" || k.name == "ir_override")) {
      HostValue given = HostValue::ofBool(!isa<py::NoneLiteral>(*k.value));
      kwargs.emplace_back(k.name, given);
      continue;
    }
    if (callee.kind != Kind::Device)
      escape(*k.value);
    TRY(v, eval(*k.value));
    kwargs.emplace_back(k.name, v);
  }
  if (callee.kind == Kind::Function)
    return callFunction(*callee.fn, callee.home ? callee.home : scope,
                        std::move(args), std::move(kwargs), c.loc);
  if (callee.kind == Kind::Device)
    return callDevice(callee, std::move(args), std::move(kwargs), c.loc);
  if (callee.kind == Kind::Builtin &&
      StringRef(callee.s).starts_with("method.")) {
    if (!kwargs.empty())
      return unimplemented(c.loc, "keyword arguments of a method");
    return callMethod(callee.s.substr(7), callee.elts[0], args, c.loc);
  }
  if (callee.kind == Kind::Builtin && callee.s == "itertools.product") {
    // product(*iterables, repeat=1): tuples, the last iterable fastest.
    int64_t repeat = 1;
    for (auto &[k, v] : kwargs) {
      if (k != "repeat" || v.kind != Kind::Int || v.i < 0) {
        error(c.loc) << "expected itertools.product(*iterables, repeat=N)";
        return failure();
      }
      repeat = v.i;
    }
    if (repeat > 64) {
      error(c.loc) << "itertools.product with repeat=" << repeat
                   << " in host code: tilec allows at most 64";
      return failure();
    }
    std::vector<std::vector<HostValue>> pools;
    for (int64_t r = 0; r < repeat; ++r)
      for (const HostValue &a : args) {
        TRY(pool, iterate(a, c.loc));
        pools.push_back(pool);
      }
    HostValue out;
    out.kind = Kind::List;
    std::vector<HostValue> prefix;
    std::function<LogicalResult(size_t)> expand = [&](size_t k) {
      if (k == pools.size()) {
        HostValue t;
        t.kind = Kind::Tuple;
        t.elts = prefix;
        for (const HostValue &x : prefix)
          t.nodes += x.nodes;
        out.nodes += t.nodes;
        if (++iterations > (uint64_t(1) << 20) ||
            out.nodes > (uint64_t(1) << 18)) {
          error(c.loc) << "itertools.product in host code is larger than the "
                          "limit of 262144 values";
          return failure();
        }
        out.elts.push_back(std::move(t));
        return success();
      }
      for (const HostValue &x : pools[k]) {
        prefix.push_back(x);
        if (failed(expand(k + 1)))
          return failure();
        prefix.pop_back();
      }
      return success();
    };
    if (failed(expand(0)))
      return failure();
    return out;
  }
  if (callee.kind == Kind::Builtin && callee.s == "triton.Config")
    return makeConfig(c, std::move(args), std::move(kwargs));
  if (callee.kind == Kind::Builtin && callee.s == "range")
    return range(c, args, kwargs.size());
  if (callee.kind == Kind::Builtin &&
      (callee.s == "tuple" || callee.s == "list")) {
    // tuple(iterable) / list(iterable): its elements (a dict's keys, a
    // string's characters), in a new sequence.
    if (!kwargs.empty() || args.size() > 1) {
      error(c.loc) << "expected " << callee.s
                   << "() of at most one iterable in host code";
      return failure();
    }
    HostValue out;
    out.kind = callee.s == "tuple" ? Kind::Tuple : Kind::List;
    if (!args.empty()) {
      TRY(elts, iterate(args[0], c.loc));
      for (HostValue &e : elts) {
        out.nodes += e.nodes;
        out.elts.push_back(std::move(e));
      }
    }
    return out;
  }
  if (callee.kind == Kind::Builtin && callee.s == "zip") {
    // zip(a, b, ...) of lists and tuples: a list of tuples, as long as the
    // shortest (Python's default).
    if (!kwargs.empty() || llvm::any_of(args, [](const HostValue &a) {
          return a.kind != Kind::List && a.kind != Kind::Tuple;
        })) {
      error(c.loc) << "expected zip() of lists and tuples in host code";
      return failure();
    }
    HostValue out;
    out.kind = Kind::List;
    size_t n = args.empty() ? 0 : SIZE_MAX;
    for (const HostValue &a : args)
      n = std::min(n, a.elts.size());
    for (size_t k = 0; k < n; ++k) {
      HostValue t;
      t.kind = Kind::Tuple;
      for (const HostValue &a : args) {
        t.elts.push_back(a.elts[k]);
        t.nodes += a.elts[k].nodes;
      }
      out.nodes += t.nodes;
      if (out.nodes > (uint64_t(1) << 18)) {
        error(c.loc) << "a host-code list larger than the limit of 262144 "
                        "values";
        return failure();
      }
      out.elts.push_back(std::move(t));
    }
    return out;
  }
  if (callee.kind == Kind::Builtin && StringRef(callee.s).starts_with(
                                          "GPUTarget.")) {
    if (!args.empty() || !kwargs.empty()) {
      error(c.loc) << callee.s.substr(10) << "() takes no arguments";
      return failure();
    }
    // tilec compiles for CUDA only.
    return HostValue::ofBool(callee.s == "GPUTarget.is_cuda_backend");
  }
  if (callee.kind == Kind::Builtin) { // get_current_target()
    if (!args.empty() || !kwargs.empty()) {
      error(c.loc) << "get_current_target() takes no arguments";
      return failure();
    }
    HostValue t;
    t.kind = Kind::Target;
    return t;
  }
  error(c.loc) << "expected a function to call, found " << callee.describe();
  return failure();
}

FailureOr<HostValue> HostEvaluator::callFunction(
    const py::FunctionDef &fn, CodeGen::ModuleScope *home,
    std::vector<HostValue> args,
    std::vector<std::pair<std::string, HostValue>> kwargs, SourceLoc l) {
  if (!fn.unreadable.empty()) {
    StringRef why(fn.unreadable);
    why.consume_front("unsupported Python construct in a @triton.jit "
                      "function: ");
    auto d = error(l);
    d << "unimplemented: host function '" << fn.name << "' is ";
    if (why == "a decorated host function")
      d << "decorated";
    else
      d << "not evaluated: its body has Python that tilec does not read ("
        << why << ", line " << fn.unreadableLoc.line << ")";
    d << "; " << kWhatIsRead;
    return failure();
  }
  if (depth >= 64) {
    error(l) << "unimplemented: host calls nested more than 64 deep "
                "(recursion?) at '"
             << fn.name << "'";
    return failure();
  }
  // From here on, default values included, this call counts as a level.
  ++depth;
  struct Level {
    unsigned &d;
    ~Level() { --d; }
  } level{depth};
  // A budget on the host code's work: real autotune helpers make a few
  // calls; a doubling recursion would make 2^depth.
  if (++calls > 100000) {
    error(l) << "host code run while compiling exceeds the budget "
                "of 100000 function calls at '"
             << fn.name << "'";
    return failure();
  }
  // Python's binding of arguments to parameters: positional ones in order,
  // the rest in *args (a tuple); keywords by name, the rest in **kwargs (a
  // dict); then defaults.
  using PK = py::Param::Kind;
  std::map<std::string, HostValue> frame;
  std::vector<bool> bound(fn.params.size(), false);
  const py::Param *varArgs = nullptr, *kwArgs = nullptr;
  for (const py::Param &p : fn.params) {
    if (p.kind == PK::VarArgs)
      varArgs = &p;
    if (p.kind == PK::KwArgs)
      kwArgs = &p;
  }
  HostValue extraArgs, extraKwargs;
  extraArgs.kind = Kind::Tuple;
  extraKwargs.kind = Kind::Dict;
  size_t next = 0;
  for (HostValue &a : args) {
    while (next < fn.params.size() && fn.params[next].kind != PK::Positional &&
           fn.params[next].kind != PK::PositionalOnly)
      ++next;
    // Positional parameters end at *args or the keyword-only ones.
    bool past = next >= fn.params.size() ||
                llvm::any_of(llvm::ArrayRef(fn.params).take_front(next),
                             [](const py::Param &p) {
                               return p.kind == PK::VarArgs ||
                                      p.kind == PK::KeywordOnly;
                             });
    if (past) {
      if (!varArgs) {
        size_t positional = llvm::count_if(fn.params, [](const py::Param &p) {
          return p.kind == PK::Positional || p.kind == PK::PositionalOnly;
        });
        error(l) << "'" << fn.name << "' takes " << positional
                 << " positional argument" << (positional == 1 ? "" : "s")
                 << ", found " << args.size();
        return failure();
      }
      extraArgs.nodes += a.nodes;
      extraArgs.elts.push_back(a);
      continue;
    }
    frame[fn.params[next].name] = a;
    bound[next++] = true;
  }
  for (auto &[name, v] : kwargs) {
    auto it = llvm::find_if(fn.params, [&, n = name](const py::Param &p) {
      return p.name == n && p.kind != PK::VarArgs && p.kind != PK::KwArgs &&
             p.kind != PK::PositionalOnly;
    });
    if (it != fn.params.end() && !bound[it - fn.params.begin()]) {
      frame[name] = v;
      bound[it - fn.params.begin()] = true;
      continue;
    }
    if (it == fn.params.end() && kwArgs) {
      HostValue key = HostValue::ofStr(name);
      bool repeated = false;
      for (size_t k = 0; k < extraKwargs.elts.size(); k += 2)
        repeated |= equal(extraKwargs.elts[k], key);
      if (!repeated) {
        setItem(extraKwargs, key, v);
        continue;
      }
    }
    error(l) << "'" << fn.name << "' "
             << (it == fn.params.end() && !kwArgs ? "has no parameter '"
                                                  : "got twice the parameter '")
             << name << "'";
    return failure();
  }
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const py::Param &p = fn.params[i];
    if (bound[i])
      continue;
    if (p.kind == PK::VarArgs) {
      frame[p.name] = extraArgs;
      continue;
    }
    if (p.kind == PK::KwArgs) {
      frame[p.name] = extraKwargs;
      continue;
    }
    if (!p.defaultValue) {
      error(l) << "missing argument '" << p.name << "' in the call of '"
               << fn.name << "'";
      return failure();
    }
    // Defaults are evaluated in the module scope (the function's module).
    std::map<std::string, HostValue> saved;
    std::swap(saved, locals);
    auto v = inModule(home, [&] { return eval(*p.defaultValue); });
    std::swap(saved, locals);
    if (failed(v))
      return failure();
    frame[p.name] = *v;
  }

  std::swap(locals, frame);
  std::set<std::string> ownLocals;
  for (const py::Param &p : fn.params)
    ownLocals.insert(p.name);
  collectBound(fn.body, ownLocals);
  std::swap(functionLocals, ownLocals);
  std::set<std::string> callerFresh; // parameters are the caller's
  std::swap(fresh, callerFresh);
  g.callStack.push_back(g.loc(l));
  std::optional<HostValue> savedReturn = std::move(returned);
  returned.reset();
  LogicalResult r = inModule(home, [&] { return execBlock(fn.body); });
  HostValue result = returned ? *returned : HostValue();
  returned = std::move(savedReturn);
  g.callStack.pop_back();
  std::swap(fresh, callerFresh);
  std::swap(functionLocals, ownLocals);
  std::swap(locals, frame);
  if (failed(r))
    return failure();
  return result;
}

FailureOr<HostValue> HostEvaluator::range(const py::Call &c,
                                          const std::vector<HostValue> &args,
                                          size_t kwargs) {
  if (kwargs || args.empty() || args.size() > 3 ||
      llvm::any_of(args,
                   [](const HostValue &a) { return a.kind != Kind::Int; })) {
    error(c.loc) << "expected range(stop), range(start, stop) or range(start, "
                    "stop, step) of integers in host code";
    return failure();
  }
  int64_t start = args.size() > 1 ? args[0].i : 0;
  int64_t stop = args.size() > 1 ? args[1].i : args[0].i;
  int64_t step = args.size() > 2 ? args[2].i : 1;
  if (step == 0) {
    error(c.loc) << "range() arg 3 must not be zero";
    return failure();
  }
  HostValue out;
  out.kind = Kind::List;
  for (int64_t x = start; step > 0 ? x < stop : x > stop; x += step) {
    if (out.elts.size() >= (size_t(1) << 18)) {
      error(c.loc) << "a host-code range of more than 262144 values";
      return failure();
    }
    out.elts.push_back(HostValue::ofInt(x));
    ++out.nodes;
    if ((step > 0 && x > INT64_MAX - step) ||
        (step < 0 && x < INT64_MIN - step))
      break;
  }
  return out;
}

LogicalResult HostEvaluator::bindTarget(const py::Expr &target,
                                        const HostValue &v) {
  if (auto *n = dyn_cast<py::Name>(&target)) {
    locals[n->id] = v;
    return success();
  }
  const py::ExprList *elts = nullptr;
  if (auto *t = dyn_cast<py::Tuple>(&target))
    elts = &t->elts;
  else if (auto *l = dyn_cast<py::List>(&target))
    elts = &l->elts;
  if (!elts)
    return unimplemented(target.loc, "this loop target");
  if ((v.kind != Kind::List && v.kind != Kind::Tuple) ||
      v.elts.size() != elts->size()) {
    error(target.loc) << "cannot unpack " << v.describe() << " into "
                      << elts->size() << " names";
    return failure();
  }
  for (size_t i = 0; i < elts->size(); ++i)
    if (failed(bindTarget(*(*elts)[i], v.elts[i])))
      return failure();
  return success();
}

FailureOr<HostValue> HostEvaluator::comprehension(const py::Comprehension &c) {
  using CK = py::Comprehension::Kind;
  if (c.comprehensionKind == CK::Set || c.comprehensionKind == CK::Generator)
    return unimplemented(c.loc, c.comprehensionKind == CK::Set
                                    ? "a set comprehension"
                                    : "a generator expression");
  HostValue out;
  out.kind = c.comprehensionKind == CK::Dict ? Kind::Dict : Kind::List;
  // The comprehension's variables are its own (Python 3).
  std::map<std::string, HostValue> saved = locals;
  LogicalResult r = generate(c, 0, out);
  locals = std::move(saved);
  if (failed(r))
    return failure();
  return out;
}

LogicalResult HostEvaluator::generate(const py::Comprehension &c, size_t gen,
                                      HostValue &out) {
  if (gen == c.generators.size()) {
    TRY(v, eval(*c.elt));
    if (out.kind == Kind::Dict) {
      if (v.kind == Kind::List || v.kind == Kind::Dict) {
        raised = Raised{"TypeError",
                        "unhashable type: '" +
                            std::string(v.kind == Kind::List ? "list" : "dict") +
                            "'",
                        c.elt->loc, scope};
        return failure();
      }
      TRY(value, eval(*c.value));
      setItem(out, v, value);
    } else {
      out.elts.push_back(v);
      out.nodes += v.nodes;
    }
    if (out.nodes > (uint64_t(1) << 18)) {
      error(c.loc) << "a host-code list of " << out.nodes
                   << " values (nested lists' included) is larger than the "
                      "limit of 262144";
      return failure();
    }
    return success();
  }
  const py::ComprehensionFor &f = c.generators[gen];
  if (f.isAsync)
    return unimplemented(f.iter->loc, "'async for'");
  TRY(seqValue, eval(*f.iter));
  TRY(seq, iterate(seqValue, f.iter->loc));
  for (const HostValue &x : seq) {
    if (++iterations > (uint64_t(1) << 20)) {
      error(c.loc) << "comprehensions in host code run while compiling "
                      "exceed the budget of 2^20 iterations";
      return failure();
    }
    if (failed(bindTarget(*f.target, x)))
      return failure();
    bool keep = true;
    for (const py::ExprPtr &cond : f.ifs) {
      TRY(cv, eval(*cond));
      if (!truthy(cv)) {
        keep = false;
        break;
      }
    }
    if (keep && failed(generate(c, gen + 1, out)))
      return failure();
  }
  return success();
}

LogicalResult HostEvaluator::execBlock(const py::StmtList &body) {
  using py::StmtKind;
  for (const py::StmtPtr &s : body) {
    if (returned || jump != Jump::None)
      return success();
    switch (s->getKind()) {
    case StmtKind::Pass:
      continue;
    case StmtKind::Expr: {
      const py::Expr &value = *cast<py::ExprStmt>(*s).value;
      if (isa<py::StringLiteral>(value)) // a docstring
        continue;
      TRY(mutated, execMutation(value));
      if (mutated)
        continue;
      // A host function called for its effect: run (its value dropped).
      if (auto *c = dyn_cast<py::Call>(&value)) {
        TRY(callee, eval(*c->func));
        if (callee.kind == Kind::Function) {
          TRY(r, eval(value));
          (void)r;
          continue;
        }
      }
      return unimplemented(s->loc, "an expression statement");
    }
    case StmtKind::Break:
    case StmtKind::Continue:
      jump = s->getKind() == StmtKind::Break ? Jump::Break : Jump::Continue;
      return success();
    case StmtKind::Return: {
      auto &r = cast<py::Return>(*s);
      if (!r.value) {
        returned = HostValue();
        return success();
      }
      TRY(v, eval(*r.value));
      returned = v;
      return success();
    }
    case StmtKind::Assign: {
      auto &a = cast<py::Assign>(*s);
      for (const py::ExprPtr &t : a.targets)
        if (!isa<py::Name, py::Tuple, py::List, py::Subscript>(*t))
          return unimplemented(t->loc, "assignment to an attribute");
      escape(*a.value);
      TRY(v, eval(*a.value));
      for (const py::ExprPtr &t : a.targets) { // `major, minor = cap` too
        escapeTargets(*t);
        if (auto *n = dyn_cast<py::Name>(t.get());
            n && a.targets.size() == 1 && makesNewObject(*a.value))
          fresh.insert(n->id);
        if (auto *sub = dyn_cast<py::Subscript>(t.get())) {
          if (failed(assignItem(*sub, v)))
            return failure();
        } else if (failed(bindTarget(*t, v))) {
          return failure();
        }
      }
      continue;
    }
    case StmtKind::If: {
      auto &i = cast<py::If>(*s);
      TRY(c, eval(*i.test));
      if (failed(execBlock(truthy(c) ? i.body : i.orelse)))
        return failure();
      continue;
    }
    case StmtKind::AnnAssign: {
      auto &a = cast<py::AnnAssign>(*s);
      if (!isa<py::Name>(*a.target) || !a.value)
        return unimplemented(s->loc, "this annotated assignment");
      escape(*a.value);
      TRY(v, eval(*a.value));
      const std::string &name = cast<py::Name>(*a.target).id;
      locals[name] = v;
      fresh.erase(name);
      if (makesNewObject(*a.value))
        fresh.insert(name);
      continue;
    }
    case StmtKind::Try:
      if (failed(execTry(cast<py::Try>(*s))))
        return failure();
      continue;
    case StmtKind::Raise:
      return execRaise(cast<py::Raise>(*s));
    case StmtKind::Import:
      if (failed(execImport(cast<py::ImportStmt>(*s).import)))
        return failure();
      continue;
    case StmtKind::For:
      if (failed(execFor(cast<py::For>(*s))))
        return failure();
      continue;
    case StmtKind::While:
      if (failed(execWhile(cast<py::While>(*s))))
        return failure();
      continue;
    case StmtKind::AugAssign: {
      auto &a = cast<py::AugAssign>(*s);
      auto *n = dyn_cast<py::Name>(a.target.get());
      if (!n || !locals.count(n->id))
        return unimplemented(s->loc, n ? "an augmented assignment to a "
                                         "module variable"
                                       : "an augmented assignment to an "
                                         "attribute or item");
      // `+=` changes a list in place, `|=` a dict.
      if ((locals[n->id].kind == Kind::List ||
           locals[n->id].kind == Kind::Dict) &&
          failed(checkFresh(n->id, s->loc)))
        return failure();
      escape(*a.value);
      TRY(rhs, eval(*a.value));
      TRY(v, applyBinary(a.op, locals[n->id], rhs, s->loc));
      locals[n->id] = v;
      continue;
    }
    default:
      return unimplemented(s->loc, "this statement");
    }
  }
  return success();
}

FailureOr<HostValue> HostEvaluator::makeConfig(
    const py::Call &c, std::vector<HostValue> args,
    std::vector<std::pair<std::string, HostValue>> kwargs) {
  // Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
  //        pre_hook=None, ir_override=None), as in Triton 3.6.
  static constexpr StringRef kParams[] = {
      "kwargs",  "num_warps", "num_stages", "num_ctas",
      "maxnreg", "pre_hook",  "ir_override"};
  std::optional<HostValue> slots[std::size(kParams)];
  if (args.size() > std::size(kParams)) {
    error(c.loc) << "triton.Config takes at most " << std::size(kParams)
                 << " arguments, found " << args.size();
    return failure();
  }
  for (size_t i = 0; i < args.size(); ++i)
    slots[i] = args[i];
  for (auto &[k, v] : kwargs) {
    auto *it = llvm::find(kParams, k);
    if (it == std::end(kParams)) {
      error(c.loc) << "unknown keyword '" << k << "' of triton.Config";
      return failure();
    }
    if (slots[it - kParams]) {
      error(c.loc) << "triton.Config got '" << k << "' twice";
      return failure();
    }
    slots[it - kParams] = v;
  }
  if (!slots[0] || slots[0]->kind != Kind::Dict) {
    error(c.loc) << "expected a dict of constexpr values as the first "
                    "argument of triton.Config, found "
                 << (slots[0] ? slots[0]->describe() : "nothing");
    return failure();
  }
  auto cfg = std::make_shared<AutotuneConfig>();
  cfg->loc = c.loc;
  for (size_t i = 0; i < slots[0]->elts.size(); i += 2) {
    const HostValue &k = slots[0]->elts[i], &v = slots[0]->elts[i + 1];
    if (k.kind != Kind::Str) {
      error(c.loc) << "expected string keys (constexpr names) in the dict of "
                      "triton.Config, found "
                   << k.describe();
      return failure();
    }
    PyValue p;
    switch (v.kind) {
    case Kind::Int:
      p = PyValue::ofInt(v.i);
      break;
    case Kind::Float:
      p = PyValue::ofFloat(v.f);
      break;
    case Kind::Bool:
      p = PyValue::ofBool(v.b);
      break;
    case Kind::Str:
      p = PyValue::ofStr(v.s);
      break;
    case Kind::None:
      break;
    default:
      error(c.loc) << "expected an int, float, bool, str or None for '" << k.s
                   << "' in triton.Config, found " << v.describe();
      return failure();
    }
    cfg->constexprs.emplace_back(k.s, p);
  }
  auto intSlot = [&](size_t idx, int64_t &out,
                     bool allowNone) -> LogicalResult {
    if (!slots[idx] || (allowNone && slots[idx]->kind == Kind::None))
      return success();
    if (slots[idx]->kind != Kind::Int) {
      error(c.loc) << "expected an int for " << kParams[idx]
                   << " of triton.Config, found " << slots[idx]->describe();
      return failure();
    }
    out = slots[idx]->i;
    return success();
  };
  int64_t maxnreg = 0;
  if (failed(intSlot(1, cfg->numWarps, false)) ||
      failed(intSlot(2, cfg->numStages, false)) ||
      failed(intSlot(3, cfg->numCtas, false)) ||
      failed(intSlot(4, maxnreg, true)))
    return failure();
  if (slots[4] && slots[4]->kind == Kind::Int)
    cfg->maxnreg = maxnreg;
  cfg->hasPreHook = slots[5] && truthy(*slots[5]);
  cfg->hasIROverride = slots[6] && truthy(*slots[6]);
  HostValue out;
  out.kind = Kind::Config;
  out.config = cfg;
  return out;
}

FailureOr<HostValue> HostEvaluator::binary(const py::BinOp &op) {
  TRY(a, eval(*op.lhs));
  TRY(b, eval(*op.rhs));
  return applyBinary(op.op, a, b, op.loc);
}

FailureOr<HostValue> HostEvaluator::applyBinary(py::BinOpKind kind,
                                                const HostValue &a,
                                                const HostValue &b,
                                                SourceLoc loc) {
  using py::BinOpKind;
  // Concatenation of lists (or tuples), and the dict union of Python 3.9.
  if (kind == BinOpKind::Add && a.kind == b.kind &&
      (a.kind == Kind::List || a.kind == Kind::Tuple)) {
    if (a.elts.size() + b.elts.size() > (size_t(1) << 20)) {
      error(loc)
          << "a host-code list of " << a.elts.size() + b.elts.size()
          << " elements is longer than the limit of 1048576";
      return failure();
    }
    if (a.nodes + b.nodes > (uint64_t(1) << 18)) {
      error(loc) << "a host-code list of " << a.nodes + b.nodes - 1
                    << " values (nested lists' included) is larger than the limit of 262144";
      return failure();
    }
    HostValue out = a;
    out.elts.insert(out.elts.end(), b.elts.begin(), b.elts.end());
    out.nodes = a.nodes + b.nodes - 1;
    return out;
  }
  // Repetition: [x] * n (or n * [x]).
  if (kind == BinOpKind::Mul &&
      (((a.kind == Kind::List || a.kind == Kind::Tuple) &&
        b.kind == Kind::Int) ||
       ((b.kind == Kind::List || b.kind == Kind::Tuple) &&
        a.kind == Kind::Int))) {
    const HostValue &seq = a.kind == Kind::Int ? b : a;
    int64_t n = std::max<int64_t>(0, a.kind == Kind::Int ? a.i : b.i);
    uint64_t nodes = (seq.nodes - 1) * uint64_t(n) + 1;
    if (n > 0 && (seq.nodes - 1) > 0 && nodes / uint64_t(n) < seq.nodes - 1)
      nodes = UINT64_MAX; // overflow
    if (uint64_t(n) * seq.elts.size() > (uint64_t(1) << 20) ||
        nodes > (uint64_t(1) << 18)) {
      error(loc) << "a host-code list repeated " << n
                    << " times is larger than the limit of 262144 values";
      return failure();
    }
    HostValue out = seq;
    out.elts.clear();
    for (int64_t k = 0; k < n; ++k)
      out.elts.insert(out.elts.end(), seq.elts.begin(), seq.elts.end());
    out.nodes = nodes;
    return out;
  }
  if (kind == BinOpKind::BitOr && a.kind == Kind::Dict &&
      b.kind == Kind::Dict) {
    HostValue out = a;
    for (size_t j = 0; j < b.elts.size(); j += 2)
      setItem(out, b.elts[j], b.elts[j + 1]);
    if (out.nodes > (uint64_t(1) << 18)) {
      error(loc) << "a host-code dict of more than 262144 values (nested "
                    "ones included)";
      return failure();
    }
    return out;
  }
  if (a.isNumber() && b.isNumber()) {
    bool ints = a.kind != Kind::Float && b.kind != Kind::Float;
    int64_t x = a.kind == Kind::Bool ? a.b : a.i;
    int64_t y = b.kind == Kind::Bool ? b.b : b.i;
    int64_t r = 0;
    auto overflow = [&]() -> FailureOr<HostValue> {
      error(loc) << "integer '" << getSpelling(kind)
                    << "' in host code overflows 64 bits";
      return failure();
    };
    switch (kind) {
    case BinOpKind::Add:
      if (ints && __builtin_add_overflow(x, y, &r))
        return overflow();
      return ints ? HostValue::ofInt(r)
                  : HostValue::ofFloat(a.asDouble() + b.asDouble());
    case BinOpKind::Sub:
      if (ints && __builtin_sub_overflow(x, y, &r))
        return overflow();
      return ints ? HostValue::ofInt(r)
                  : HostValue::ofFloat(a.asDouble() - b.asDouble());
    case BinOpKind::Mul:
      if (ints && __builtin_mul_overflow(x, y, &r))
        return overflow();
      return ints ? HostValue::ofInt(r)
                  : HostValue::ofFloat(a.asDouble() * b.asDouble());
    case BinOpKind::Pow:
      // `2**k` (config lists); a negative exponent is a float in Python.
      if (ints && y >= 0) {
        if (x == 0 || x == 1)
          return HostValue::ofInt(y == 0 ? 1 : x);
        if (x == -1)
          return HostValue::ofInt(y % 2 ? -1 : 1);
        // |x| >= 2: at most 63 steps before an overflow.
        int64_t p = 1;
        for (int64_t k = 0; k < y; ++k)
          if (__builtin_mul_overflow(p, x, &p))
            return overflow();
        return HostValue::ofInt(p);
      }
      if (a.asDouble() == 0 && b.asDouble() < 0) {
        raised = Raised{"ZeroDivisionError",
                        "0.0 cannot be raised to a negative power", loc,
                        scope};
        return failure();
      }
      if (a.asDouble() < 0 && b.asDouble() != std::trunc(b.asDouble()))
        return unimplemented(loc, "a negative number to a fractional power "
                                  "(a complex number)");
      return HostValue::ofFloat(std::pow(a.asDouble(), b.asDouble()));
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod:
      if (ints) {
        if (y == 0) {
          raised = Raised{"ZeroDivisionError",
                          "integer division or modulo by zero", loc, scope};
          return failure();
        }
        // Python's floor division and a remainder with the divisor's sign.
        if (x == INT64_MIN && y == -1) {
          if (kind == BinOpKind::Mod)
            return HostValue::ofInt(0);
          return overflow();
        }
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) {
          --q;
          r += y;
        }
        return HostValue::ofInt(kind == BinOpKind::FloorDiv ? q : r);
      }
      break;
    default:
      break;
    }
  }
  // The rest on numbers and strings (/, // and % of floats, shifts and
  // bitwise operators, str + str, str * n): the code generator's
  // compile-time folding, so that a module constant and a host function
  // compute the same value. A zero divisor raises here first (a `try` may
  // catch it).
  auto scalar = [](const HostValue &v) {
    return v.isNumber() || v.kind == Kind::Str;
  };
  if (scalar(a) && scalar(b)) {
    if ((kind == BinOpKind::Div || kind == BinOpKind::FloorDiv ||
         kind == BinOpKind::Mod) &&
        a.isNumber() && b.isNumber() && b.asDouble() == 0) {
      raised = Raised{"ZeroDivisionError", "division by zero", loc, scope};
      return failure();
    }
    TRY(x, toDevice(a, loc));
    TRY(y, toDevice(b, loc));
    TRY(r, g.binary(kind, x, y, loc));
    return fromDevice(r, loc);
  }
  return unimplemented(loc, "'" + std::string(getSpelling(kind)) + "' on " +
                                   a.describe() + " and " + b.describe());
}

FailureOr<HostValue> HostEvaluator::compare(const py::Compare &c) {
  TRY(first, eval(*c.operands[0]));
  HostValue lhs = first;
  for (size_t i = 0; i < c.ops.size(); ++i) {
    TRY(rhs, eval(*c.operands[i + 1]));
    bool r;
    using py::CmpOpKind;
    switch (c.ops[i]) {
    case CmpOpKind::Eq:
      r = equal(lhs, rhs);
      break;
    case CmpOpKind::NotEq:
      r = !equal(lhs, rhs);
      break;
    case CmpOpKind::Is:
    case CmpOpKind::IsNot:
      if (lhs.kind != Kind::None && rhs.kind != Kind::None &&
          lhs.kind != Kind::Bool && rhs.kind != Kind::Bool)
        return unimplemented(c.loc, "'is' on " + lhs.describe());
      r = lhs.kind == rhs.kind && equal(lhs, rhs);
      if (c.ops[i] == CmpOpKind::IsNot)
        r = !r;
      break;
    case CmpOpKind::In:
    case CmpOpKind::NotIn:
      if (rhs.kind == Kind::Str && lhs.kind == Kind::Str) {
        r = StringRef(rhs.s).contains(lhs.s); // a substring
      } else if (rhs.kind == Kind::Dict) {
        r = false; // a key
        for (size_t k = 0; k < rhs.elts.size(); k += 2)
          r |= equal(lhs, rhs.elts[k]);
      } else if (rhs.kind == Kind::List || rhs.kind == Kind::Tuple) {
        r = llvm::any_of(rhs.elts,
                         [&](const HostValue &e) { return equal(lhs, e); });
      } else {
        return unimplemented(c.loc, "'in' on " + rhs.describe());
      }
      if (c.ops[i] == CmpOpKind::NotIn)
        r = !r;
      break;
    default: {
      if (lhs.kind == rhs.kind &&
          (lhs.kind == Kind::Tuple || lhs.kind == Kind::List ||
           lhs.kind == Kind::Str)) {
        // Python orders sequences lexicographically (version tuples,
        // packaging.version's release numbers) and strings by code point.
        int order = 0;
        if (lhs.kind == Kind::Str) {
          order = lhs.s.compare(rhs.s);
        } else {
          size_t k = 0;
          for (; k < lhs.elts.size() && k < rhs.elts.size(); ++k) {
            const HostValue &x = lhs.elts[k], &y = rhs.elts[k];
            if (equal(x, y))
              continue;
            if (!x.isNumber() || !y.isNumber())
              return unimplemented(c.loc, "ordering " + x.describe() +
                                              " and " + y.describe());
            order = x.asDouble() < y.asDouble() ? -1 : 1;
            break;
          }
          if (!order && k == std::min(lhs.elts.size(), rhs.elts.size()))
            order = lhs.elts.size() < rhs.elts.size()   ? -1
                    : lhs.elts.size() > rhs.elts.size() ? 1
                                                        : 0;
        }
        r = c.ops[i] == CmpOpKind::Lt    ? order < 0
            : c.ops[i] == CmpOpKind::LtE ? order <= 0
            : c.ops[i] == CmpOpKind::Gt  ? order > 0
                                         : order >= 0;
        break;
      }
      if (!lhs.isNumber() || !rhs.isNumber())
        return unimplemented(c.loc, "'" + std::string(getSpelling(c.ops[i])) +
                                        "' on " + lhs.describe() + " and " +
                                        rhs.describe());
      double x = lhs.asDouble(), y = rhs.asDouble();
      r = c.ops[i] == CmpOpKind::Lt    ? x < y
          : c.ops[i] == CmpOpKind::LtE ? x <= y
          : c.ops[i] == CmpOpKind::Gt  ? x > y
                                       : x >= y;
    }
    }
    if (!r)
      return HostValue::ofBool(false);
    lhs = rhs;
  }
  return HostValue::ofBool(true);
}

FailureOr<std::vector<HostValue>> HostEvaluator::iterate(const HostValue &seq,
                                                        SourceLoc l) {
  switch (seq.kind) {
  case Kind::List:
  case Kind::Tuple:
    return seq.elts;
  case Kind::Dict: { // its keys, in order
    std::vector<HostValue> keys;
    for (size_t k = 0; k < seq.elts.size(); k += 2)
      keys.push_back(seq.elts[k]);
    return keys;
  }
  case Kind::Str: {
    std::vector<HostValue> chars;
    for (std::string_view c : py::splitCodePoints(seq.s))
      chars.push_back(HostValue::ofStr(std::string(c)));
    return chars;
  }
  default:
    error(l) << "expected a list, a tuple, a dict, a string or a range to "
                "iterate over in host code, found "
             << seq.describe();
    return failure();
  }
}

LogicalResult HostEvaluator::execFor(const py::For &f) {
  TRY(seqValue, eval(*f.iter));
  TRY(seq, iterate(seqValue, f.iter->loc));
  for (const HostValue &x : seq) {
    if (++iterations > (uint64_t(1) << 20)) {
      error(f.loc) << "loops in host code exceed the budget of 2^20 "
                      "iterations";
      return failure();
    }
    if (failed(charge(1, f.loc)))
      return failure();
    escapeTargets(*f.target);
    if (failed(bindTarget(*f.target, x)) || failed(execBlock(f.body)))
      return failure();
    if (returned)
      return success();
    Jump j = jump;
    jump = Jump::None;
    if (j == Jump::Break)
      return success(); // no `else`
  }
  return execBlock(f.orelse);
}

LogicalResult HostEvaluator::execWhile(const py::While &w) {
  while (true) {
    TRY(c, eval(*w.test));
    if (!truthy(c))
      break;
    if (++iterations > (uint64_t(1) << 20)) {
      error(w.loc) << "loops in host code exceed the budget of 2^20 "
                      "iterations";
      return failure();
    }
    if (failed(charge(1, w.loc)))
      return failure();
    if (failed(execBlock(w.body)))
      return failure();
    if (returned)
      return success();
    Jump j = jump;
    jump = Jump::None;
    if (j == Jump::Break)
      return success();
  }
  return execBlock(w.orelse);
}

FailureOr<bool> HostEvaluator::execMutation(const py::Expr &e) {
  auto *c = dyn_cast<py::Call>(&e);
  auto *a = c ? dyn_cast<py::Attribute>(c->func.get()) : nullptr;
  auto *n = a ? dyn_cast<py::Name>(a->value.get()) : nullptr;
  static constexpr StringRef kMutators[] = {"append", "extend", "insert",
                                            "update", "clear"};
  if (!n || !llvm::is_contained(kMutators, a->attr))
    return false;
  auto local = locals.find(n->id);
  if (local == locals.end()) {
    (void)unimplemented(e.loc, "changing module variable '" + n->id +
                                   "' in place");
    return failure();
  }
  if (!c->keywords.empty() || c->hasStarArgs())
    return false;
  if (failed(checkFresh(n->id, e.loc)))
    return failure();
  std::vector<HostValue> args;
  for (const py::ExprPtr &x : c->args) {
    escape(*x);
    TRY(v, eval(*x));
    args.push_back(v);
  }
  if (failed(checkFresh(n->id, e.loc))) // `a.append(a)`
    return failure();
  HostValue &self = locals[n->id];
  auto bad = [&]() -> FailureOr<bool> {
    error(e.loc) << "bad arguments for " << self.describe() << "."
                 << a->attr << "() in host code";
    return failure();
  };
  if (self.kind == Kind::List) {
    if (a->attr == "append" && args.size() == 1) {
      self.nodes += args[0].nodes;
      self.elts.push_back(args[0]);
    } else if (a->attr == "extend" && args.size() == 1) {
      TRY(more, iterate(args[0], e.loc));
      for (HostValue &x : more) {
        self.nodes += x.nodes;
        self.elts.push_back(std::move(x));
      }
    } else if (a->attr == "insert" && args.size() == 2 &&
               args[0].kind == Kind::Int) {
      int64_t size = int64_t(self.elts.size());
      int64_t i = std::clamp<int64_t>(
          args[0].i < 0 ? args[0].i + size : args[0].i, 0, size);
      self.nodes += args[1].nodes;
      self.elts.insert(self.elts.begin() + i, args[1]);
    } else if (a->attr == "clear" && args.empty()) {
      self.elts.clear();
      self.nodes = 1;
    } else {
      return bad();
    }
  } else if (self.kind == Kind::Dict) {
    if (a->attr == "update" && args.size() == 1 && args[0].kind == Kind::Dict) {
      TRY(merged, applyBinary(py::BinOpKind::BitOr, self, args[0], e.loc));
      self = merged;
    } else if (a->attr == "clear" && args.empty()) {
      self.elts.clear();
      self.nodes = 1;
    } else {
      return bad();
    }
  } else {
    return false;
  }
  if (self.nodes > (uint64_t(1) << 18)) {
    error(e.loc) << "a host-code list larger than the limit of 262144 values";
    return failure();
  }
  return true;
}

LogicalResult HostEvaluator::assignItem(const py::Subscript &target,
                                        const HostValue &v) {
  auto *n = dyn_cast<py::Name>(target.value.get());
  if (!n || target.isTuple || target.indices.size() != 1 ||
      isa<py::Slice>(*target.indices[0]) || !locals.count(n->id))
    return unimplemented(target.loc, "this item assignment (tilec assigns "
                                     "items of local lists and dicts)");
  if (failed(checkFresh(n->id, target.loc)))
    return failure();
  TRY(key, eval(*target.indices[0]));
  HostValue &self = locals[n->id];
  if (self.kind == Kind::Dict) {
    setItem(self, key, v);
    if (self.nodes > (uint64_t(1) << 18)) {
      error(target.loc) << "a host-code dict of more than 262144 values "
                           "(nested ones included)";
      return failure();
    }
    return success();
  }
  if (self.kind == Kind::List && key.kind == Kind::Int) {
    int64_t size = int64_t(self.elts.size());
    int64_t i = key.i < 0 ? key.i + size : key.i;
    if (i < 0 || i >= size) {
      raised = Raised{"IndexError", "list assignment index out of range",
                      target.loc, scope};
      return failure();
    }
    self.nodes += v.nodes;
    self.nodes -= std::min(self.nodes - 1, self.elts[i].nodes);
    self.elts[i] = v;
    if (self.nodes > (uint64_t(1) << 18)) {
      error(target.loc) << "a host-code list of more than 262144 values "
                           "(nested ones included)";
      return failure();
    }
    return success();
  }
  return unimplemented(target.loc, "assigning an item of " + self.describe());
}

FailureOr<HostValue>
HostEvaluator::callMethod(const std::string &name, const HostValue &self,
                          const std::vector<HostValue> &args, SourceLoc l) {
  auto list = [&](std::vector<HostValue> elts) {
    HostValue out;
    out.kind = Kind::List;
    for (HostValue &x : elts) {
      out.nodes += x.nodes;
      out.elts.push_back(std::move(x));
    }
    return out;
  };
  if (self.kind == Kind::Dict) {
    if ((name == "keys" || name == "values" || name == "items") &&
        args.empty()) {
      std::vector<HostValue> out;
      for (size_t k = 0; k < self.elts.size(); k += 2) {
        if (name == "keys") {
          out.push_back(self.elts[k]);
        } else if (name == "values") {
          out.push_back(self.elts[k + 1]);
        } else {
          HostValue t;
          t.kind = Kind::Tuple;
          t.elts = {self.elts[k], self.elts[k + 1]};
          t.nodes = 1 + self.elts[k].nodes + self.elts[k + 1].nodes;
          out.push_back(std::move(t));
        }
      }
      return list(std::move(out));
    }
    if (name == "get" && (args.size() == 1 || args.size() == 2)) {
      for (size_t k = 0; k < self.elts.size(); k += 2)
        if (equal(self.elts[k], args[0]))
          return self.elts[k + 1];
      return args.size() == 2 ? args[1] : HostValue();
    }
  }
  if (self.kind == Kind::Str) {
    StringRef str(self.s);
    constexpr size_t kMaxString = size_t(1) << 20;
    auto tooLong = [&]() -> FailureOr<HostValue> {
      error(l) << "'" << name << "' in host code makes a string longer than "
               << kMaxString << " bytes";
      return failure();
    };
    // Splitting, replacing and joining at a given string are byte-exact on
    // UTF-8, so they hold for any text.
    if (name == "split" && args.size() == 1 && args[0].kind == Kind::Str) {
      if (args[0].s.empty()) {
        raised = Raised{"ValueError", "empty separator", l, scope};
        return failure();
      }
      SmallVector<StringRef> parts;
      str.split(parts, args[0].s);
      if (parts.size() > (size_t(1) << 18)) {
        error(l) << "'split' in host code makes a list of " << parts.size()
                 << " strings, more than the limit of 262144 values";
        return failure();
      }
      std::vector<HostValue> out;
      for (StringRef p : parts)
        out.push_back(HostValue::ofStr(p.str()));
      return list(std::move(out));
    }
    if (name == "replace" && args.size() == 2 && args[0].kind == Kind::Str &&
        args[1].kind == Kind::Str && !args[0].s.empty()) {
      std::string out;
      for (StringRef rest = str;;) {
        size_t at = rest.find(args[0].s);
        out += rest.take_front(at).str();
        if (at == StringRef::npos)
          break;
        out += args[1].s;
        if (out.size() > kMaxString)
          return tooLong();
        rest = rest.drop_front(at + args[0].s.size());
      }
      return HostValue::ofStr(std::move(out));
    }
    if (name == "join" && args.size() == 1) {
      TRY(parts, iterate(args[0], l));
      std::string out;
      for (size_t k = 0; k < parts.size(); ++k) {
        if (parts[k].kind != Kind::Str) {
          raised = Raised{"TypeError",
                          "sequence item " + std::to_string(k) +
                              ": expected str instance, " +
                              parts[k].describe() + " found",
                          l, scope};
          return failure();
        }
        out += (k ? self.s : std::string()) + parts[k].s;
        if (out.size() > kMaxString)
          return tooLong();
      }
      return HostValue::ofStr(std::move(out));
    }
    // Case and whitespace beyond ASCII need Unicode tables tilec does not
    // have: refused rather than answered for ASCII only.
    if (!llvm::all_of(str, [](char ch) { return uint8_t(ch) < 0x80; }) &&
        name != "startswith" && name != "endswith")
      return unimplemented(l, "'" + name + "' of a string with non-ASCII "
                                           "characters");
    if ((name == "lower" || name == "upper" || name == "strip" ||
         name == "lstrip" || name == "rstrip") &&
        args.empty()) {
      if (name == "lower")
        return HostValue::ofStr(str.lower());
      if (name == "upper")
        return HostValue::ofStr(str.upper());
      return HostValue::ofStr(
          (name == "strip"    ? str.trim()
           : name == "lstrip" ? str.ltrim()
                              : str.rtrim())
              .str());
    }
    if ((name == "startswith" || name == "endswith") && args.size() == 1 &&
        args[0].kind == Kind::Str)
      return HostValue::ofBool(name == "startswith"
                                   ? str.starts_with(args[0].s)
                                   : str.ends_with(args[0].s));
  }
  if ((self.kind == Kind::List || self.kind == Kind::Tuple) &&
      (name == "index" || name == "count") && args.size() == 1) {
    int64_t count = 0;
    for (size_t k = 0; k < self.elts.size(); ++k)
      if (equal(self.elts[k], args[0])) {
        if (name == "index")
          return HostValue::ofInt(int64_t(k));
        ++count;
      }
    if (name == "count")
      return HostValue::ofInt(count);
    raised = Raised{"ValueError", "value is not in the list", l, scope};
    return failure();
  }
  return unimplemented(l, "method '" + name + "' of " + self.describe());
}

/// Whether Python's exception class `type` is `of` or derives from it (the
/// builtin exceptions host code catches; any other class derives from
/// Exception only).
bool isSubclass(StringRef type, StringRef of) {
  if (of == "BaseException")
    return true;
  if (of == "Exception")
    return type != "KeyboardInterrupt" && type != "SystemExit" &&
           type != "GeneratorExit";
  static constexpr std::pair<StringRef, StringRef> kParents[] = {
      {"ModuleNotFoundError", "ImportError"},
      {"KeyError", "LookupError"},
      {"IndexError", "LookupError"},
      {"NotImplementedError", "RuntimeError"},
      {"RecursionError", "RuntimeError"},
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"FileNotFoundError", "OSError"},
      {"PermissionError", "OSError"},
      {"FileExistsError", "OSError"},
      {"IsADirectoryError", "OSError"},
      {"NotADirectoryError", "OSError"},
      {"TimeoutError", "OSError"},
      {"ConnectionError", "OSError"},
      {"IOError", "OSError"},
      {"EnvironmentError", "OSError"},
      {"UnboundLocalError", "NameError"},
      {"UnicodeDecodeError", "UnicodeError"},
      {"UnicodeEncodeError", "UnicodeError"},
      {"UnicodeError", "ValueError"},
      {"FloatingPointError", "ArithmeticError"}};
  for (StringRef t = type; !t.empty();) {
    if (t == of)
      return true;
    StringRef parent;
    for (auto [child, p] : kParents)
      if (child == t)
        parent = p;
    t = parent;
  }
  return false;
}

/// The class an `except` clause or `raise` names (`importlib.metadata.
/// PackageNotFoundError`: its last component).
std::string exceptionClass(const py::Expr &e) {
  std::string text = py::toString(e);
  StringRef t(text);
  std::string name = t.contains('.') ? t.rsplit('.').second.str() : text;
  if (name == "IOError" || name == "EnvironmentError")
    return "OSError"; // aliases since Python 3.3
  return name;
}

LogicalResult HostEvaluator::reportRaised(SourceLoc use, const Twine &what) {
  if (!raised)
    return failure();
  Raised ex = *raised;
  raised.reset();
  auto d = error(use);
  d << what << " raised " << ex.type;
  if (!ex.message.empty())
    d << ": " << ex.message;
  if (ex.where) {
    CodeGen::ModuleScope *saved = g.cur;
    g.cur = ex.where;
    d.attachNote(g.loc(ex.at)) << "raised here";
    g.cur = saved;
  }
  return failure();
}

LogicalResult HostEvaluator::execRaise(const py::Raise &r) {
  if (!r.exc) {
    if (handling.empty()) {
      error(r.loc) << "'raise' with no exception being handled";
      return failure();
    }
    raised = handling.back();
    return failure();
  }
  const py::Expr *e = r.exc.get();
  // `except X as e: ... raise e`: the exception e holds.
  if (auto *n = dyn_cast<py::Name>(e)) {
    auto local = locals.find(n->id);
    if (local != locals.end()) {
      const HostValue &v = local->second;
      if (v.kind != Kind::Builtin || v.s != "exception") {
        error(r.loc) << "exceptions must derive from BaseException, found "
                     << v.describe();
        return failure();
      }
      raised = Raised{v.elts[0].s, v.elts[1].s, r.loc, scope};
      return failure();
    }
  }
  std::string message;
  if (auto *c = dyn_cast<py::Call>(e)) {
    if (!c->args.empty())
      if (auto *str = dyn_cast<py::StringLiteral>(c->args[0].get());
          str && !str->isFString && !str->isBytes)
        message = str->value;
    e = c->func.get();
  }
  raised = Raised{exceptionClass(*e), message, r.loc, scope};
  return failure();
}

LogicalResult HostEvaluator::execTry(const py::Try &t) {
  LogicalResult r = execBlock(t.body);
  if (failed(r) && !raised)
    return failure(); // an error tilec reported, not a Python exception
  if (raised) {
    Raised ex = *raised;
    const py::ExceptHandler *handler = nullptr;
    for (const py::ExceptHandler &h : t.handlers) {
      bool matches = !h.type;
      if (auto *tuple = dyn_cast_or_null<py::Tuple>(h.type.get())) {
        for (const py::ExprPtr &x : tuple->elts)
          matches |= isSubclass(ex.type, exceptionClass(*x));
      } else if (h.type) {
        matches = isSubclass(ex.type, exceptionClass(*h.type));
      }
      if (matches) {
        handler = &h;
        break;
      }
    }
    if (handler) {
      raised.reset();
      if (!handler->name.empty()) {
        // The exception object: `raise e` re-raises it; other uses are
        // refused (tilec has no exception objects to read).
        HostValue obj = HostValue::ofPath(Kind::Builtin, "exception");
        obj.elts = {HostValue::ofStr(ex.type), HostValue::ofStr(ex.message)};
        locals[handler->name] = obj;
      }
      handling.push_back(ex);
      r = execBlock(handler->body);
      handling.pop_back();
      if (!handler->name.empty()) // Python deletes it after the clause
        locals.erase(handler->name);
      if (failed(r) && !raised)
        return failure();
    }
  } else if (!returned && jump == Jump::None) {
    if (failed(execBlock(t.orelse)) && !raised)
      return failure();
  }
  if (!t.finalbody.empty()) {
    // `finally` runs on every way out (an exception, a return, a break or
    // continue); its own raise, return, break or continue wins.
    std::optional<Raised> pending = std::move(raised);
    raised.reset();
    std::optional<HostValue> pendingReturn = std::move(returned);
    returned.reset();
    Jump pendingJump = jump;
    jump = Jump::None;
    if (failed(execBlock(t.finalbody)))
      return failure();
    if (!returned && jump == Jump::None) {
      returned = std::move(pendingReturn);
      jump = pendingJump;
      raised = std::move(pending);
    }
  }
  return raised ? failure() : success();
}

LogicalResult HostEvaluator::execImport(const py::Import &imp) {
  auto notFound = [&](const std::string &dotted, SourceLoc at) {
    raised = Raised{"ModuleNotFoundError",
                    "No module named '" + dotted + "'" +
                        (isTritonModule(dotted) ? " (in Triton 3.6)"
                                                : " (on the import path)"),
                    at, scope};
    return failure();
  };
  auto known = [](const std::string &dotted) { return knownModule(dotted); };
  std::string from = g.importSource(*scope, imp);
  for (const py::Import::Alias &a : imp.names) {
    if (a.name == "*")
      return unimplemented(a.loc, "'from ... import *' in a host function");
    if (!imp.isFrom) {
      // `import a.b` binds a; `import a.b as c` binds c to a.b. Modules
      // neither on the import path nor known to tilec are not installed.
      if (!known(a.name)) {
        TRY(m, g.loadModule(a.name, a.loc));
        if (!m)
          return notFound(a.name, a.loc);
      } else if (isTritonModule(a.name) && !tritonModuleExists(a.name)) {
        return notFound(a.name, a.loc);
      }
      std::string bound = imp.boundName(a);
      locals[bound] = HostValue::ofPath(Kind::Module,
                                        a.asName.empty() ? bound : a.name);
      continue;
    }
    if (StringRef(from).starts_with(".")) {
      error(a.loc) << "relative import '" << from
                   << "' beyond the top-level package (put the package root "
                      "on the import path, -I DIR)";
      return failure();
    }
    HostValue v;
    if (isTritonModule(from) && !tritonModuleExists(from))
      return notFound(from, a.loc);
    if ((from == "triton.language.extra.libdevice" ||
         from == "triton.language.extra.cuda.libdevice") &&
        !isLibdeviceName(a.name)) {
      raised = Raised{"ImportError",
                      "cannot import name '" + a.name + "' from '" + from + "'",
                      a.loc, scope};
      return failure();
    }
    if (known(from)) {
      TRY(x, path(from + "." + a.name, a.loc));
      v = x;
    } else {
      TRY(m, g.loadModule(from, a.loc));
      if (!m)
        return notFound(from, a.loc);
      TRY(x, member(from, a.name, a.loc));
      v = x;
    }
    locals[a.asName.empty() ? a.name : a.asName] = v;
  }
  return success();
}

FailureOr<HostValue> HostEvaluator::subscript(const py::Subscript &sub) {
  TRY(base, eval(*sub.value));
  if (sub.isTuple || sub.indices.size() != 1 ||
      isa<py::Slice>(*sub.indices[0]))
    return unimplemented(sub.loc, "slicing " + base.describe());
  TRY(idx, eval(*sub.indices[0]));
  if (base.kind == Kind::Dict) {
    for (size_t k = 0; k < base.elts.size(); k += 2)
      if (equal(idx, base.elts[k]))
        return base.elts[k + 1];
    raised = Raised{"KeyError", idx.kind == Kind::Str ? idx.s : "", sub.loc,
                    scope};
    return failure();
  }
  if ((base.kind == Kind::List || base.kind == Kind::Tuple ||
       base.kind == Kind::Str) &&
      (idx.kind == Kind::Int || idx.kind == Kind::Bool)) {
    std::vector<std::string_view> chars;
    if (base.kind == Kind::Str)
      chars = py::splitCodePoints(base.s);
    int64_t n = base.kind == Kind::Str ? int64_t(chars.size())
                                       : int64_t(base.elts.size());
    int64_t i = idx.kind == Kind::Bool ? int64_t(idx.b) : idx.i;
    if (i < 0)
      i += n;
    if (i < 0 || i >= n) {
      raised = Raised{"IndexError", "index out of range", sub.loc, scope};
      return failure();
    }
    if (base.kind == Kind::Str)
      return HostValue::ofStr(std::string(chars[i]));
    return base.elts[i];
  }
  return unimplemented(sub.loc, "indexing " + base.describe() + " with " +
                                    idx.describe());
}

FailureOr<HostValue> HostEvaluator::fromDevice(const PyValue &v, SourceLoc l) {
  using PK = PyValue::Kind;
  switch (v.kind) {
  case PK::None:
    return HostValue();
  case PK::Int:
    return HostValue::ofInt(v.i);
  case PK::Float:
    return HostValue::ofFloat(v.f);
  case PK::Bool:
    return HostValue::ofBool(v.b);
  case PK::Str:
    return HostValue::ofStr(v.s);
  case PK::Tuple:
  case PK::Dict: {
    HostValue out;
    out.kind = v.kind == PK::Dict ? Kind::Dict : Kind::Tuple;
    for (const PyValue &e : v.elts) {
      TRY(x, fromDevice(e, l));
      out.nodes += x.nodes;
      out.elts.push_back(x);
    }
    return out;
  }
  case PK::Module:
    return HostValue::ofPath(Kind::Module, v.s);
  case PK::HostFunction: {
    HostValue f;
    f.kind = Kind::Function;
    f.fn = v.fn;
    f.home = homeModule(g, v.s);
    return f;
  }
  default:
    break;
  }
  if (!v.isConstexpr()) {
    error(l) << "expected a compile-time value in host code, found "
             << v.describe();
    return failure();
  }
  HostValue d;
  d.kind = Kind::Device;
  d.device = std::make_shared<PyValue>(v);
  return d;
}

FailureOr<PyValue> HostEvaluator::toDevice(const HostValue &v, SourceLoc l) {
  switch (v.kind) {
  case Kind::None:
    return PyValue::none();
  case Kind::Int:
    return PyValue::ofInt(v.i);
  case Kind::Float:
    return PyValue::ofFloat(v.f);
  case Kind::Bool:
    return PyValue::ofBool(v.b);
  case Kind::Str:
    return PyValue::ofStr(v.s);
  case Kind::List:
  case Kind::Tuple:
  case Kind::Dict: {
    std::vector<PyValue> elts;
    for (const HostValue &e : v.elts) {
      TRY(x, toDevice(e, l));
      elts.push_back(x);
    }
    if (v.kind != Kind::Dict)
      return PyValue::ofTuple(std::move(elts));
    PyValue d = PyValue::ofTuple(std::move(elts));
    d.kind = PyValue::Kind::Dict;
    return d;
  }
  case Kind::Module:
    return PyValue::module(v.s);
  case Kind::Function: {
    PyValue f;
    f.kind = PyValue::Kind::HostFunction;
    f.fn = v.fn;
    f.s = v.home ? v.home->name : scope->name;
    return f;
  }
  case Kind::Device:
    return *v.device;
  default:
    error(l) << "host code gave " << v.describe()
             << ", which a @triton.jit function cannot use (numbers, strings, "
                "None, tuples, lists, dicts, modules and functions pass)";
    return failure();
  }
}

FailureOr<HostValue>
HostEvaluator::callDevice(const HostValue &callee, std::vector<HostValue> args,
                          std::vector<std::pair<std::string, HostValue>> kwargs,
                          SourceLoc l) {
  CallArgs a;
  for (const HostValue &x : args) {
    TRY(v, toDevice(x, l));
    a.args.push_back(v);
    a.argLocs.push_back(g.loc(l));
  }
  for (auto &[k, x] : kwargs) {
    TRY(v, toDevice(x, l));
    a.kwargs.emplace_back(k, v);
  }
  TRY(r, g.call(*callee.device, a, l));
  return fromDevice(r, l);
}

} // namespace

namespace {
/// The bridge from the code generator into host code: `args` converted,
/// `run` on them, its result converted back; an exception the host code
/// raised is reported at `l` as `what`'s.
FailureOr<PyValue> runOnHost(
    CodeGen &g, CallArgs &args, SourceLoc l, const std::string &what,
    llvm::function_ref<FailureOr<HostValue>(
        HostEvaluator &, std::vector<HostValue>,
        std::vector<std::pair<std::string, HostValue>>)>
        run) {
  HostEvaluator host(g);
  std::vector<HostValue> hostArgs;
  std::vector<std::pair<std::string, HostValue>> hostKwargs;
  for (const PyValue &a : args.args) {
    TRY(v, host.fromDevice(a, l));
    hostArgs.push_back(v);
  }
  for (auto &[k, a] : args.kwargs) {
    TRY(v, host.fromDevice(a, l));
    hostKwargs.emplace_back(k, v);
  }
  auto r = run(host, std::move(hostArgs), std::move(hostKwargs));
  if (failed(r)) {
    if (host.raised) {
      g.hostRaised = true;
      (void)host.reportRaised(l, what);
    }
    return failure();
  }
  return host.toDevice(*r, l);
}
} // namespace

FailureOr<PyValue> frontend::callHost(CodeGen &g, const PyValue &callee,
                                      CallArgs &args, SourceLoc l) {
  return runOnHost(g, args, l, "host function '" + callee.fn->name + "'",
                   [&](HostEvaluator &host, std::vector<HostValue> hostArgs,
                       std::vector<std::pair<std::string, HostValue>> kw) {
                     return host.callFunction(*callee.fn,
                                              homeModule(g, callee.s),
                                              std::move(hostArgs),
                                              std::move(kw), l);
                   });
}

FailureOr<PyValue> frontend::callHostMethod(CodeGen &g,
                                            const std::string &name,
                                            const PyValue &self,
                                            CallArgs &args, SourceLoc l) {
  if (!args.kwargs.empty()) {
    g.error(l) << "unimplemented: keyword arguments of the " << self.describe()
               << " method '" << name << "'";
    return failure();
  }
  return runOnHost(
      g, args, l, "method '" + name + "'",
      [&](HostEvaluator &host, std::vector<HostValue> hostArgs,
          std::vector<std::pair<std::string, HostValue>>)
          -> FailureOr<HostValue> {
        TRY(hostSelf, host.fromDevice(self, l));
        return host.runMethod(name, hostSelf, hostArgs, l);
      });
}

FailureOr<AutotuneSpec> frontend::evalAutotune(CodeGen &g,
                                               const py::Call &decorator) {
  // autotune(configs, key, prune_configs_by=None, reset_to_zero=None,
  //          restore_value=None, pre_hook=None, post_hook=None, warmup=None,
  //          rep=None, use_cuda_graph=False, do_bench=None,
  //          cache_results=False), as in Triton 3.6. Only configs and key
  // matter to a compiler; the rest steer Triton's run-time benchmarking and
  // are not evaluated.
  static constexpr StringRef kParams[] = {
      "configs",        "key",           "prune_configs_by",
      "reset_to_zero",  "restore_value", "pre_hook",
      "post_hook",      "warmup",        "rep",
      "use_cuda_graph", "do_bench",      "cache_results"};
  const py::Expr *slots[std::size(kParams)] = {};
  if (decorator.args.size() > std::size(kParams)) {
    g.error(decorator.loc) << "triton.autotune takes at most "
                           << std::size(kParams) << " arguments, found "
                           << decorator.args.size();
    return failure();
  }
  for (size_t i = 0; i < decorator.args.size(); ++i)
    slots[i] = decorator.args[i].get();
  for (const py::Keyword &k : decorator.keywords) {
    // `**cache_kwargs`: more of the keywords that steer Triton's run-time
    // benchmarking (flash-linear-attention passes cache_results so), which
    // tilec does not do: accepted and not evaluated.
    if (k.isDoubleStar())
      continue;
    auto *it = llvm::find(kParams, k.name);
    if (it == std::end(kParams)) {
      g.error(k.loc) << "unknown keyword '" << k.name << "' of triton.autotune";
      return failure();
    }
    if (slots[it - kParams]) {
      g.error(k.loc) << "triton.autotune got '" << k.name << "' twice";
      return failure();
    }
    slots[it - kParams] = k.value.get();
  }
  if (!slots[0] || !slots[1]) {
    g.error(decorator.loc) << "triton.autotune() missing required argument '"
                           << (slots[0] ? "key" : "configs") << "'";
    return failure();
  }
  HostEvaluator host(g);
  AutotuneSpec spec;
  spec.loc = decorator.loc;
  auto configsOrRaised = host.eval(*slots[0]);
  if (failed(configsOrRaised)) {
    (void)host.reportRaised(slots[0]->loc, "host code for the configs");
    return failure();
  }
  HostValue &configs = *configsOrRaised;
  if (configs.kind != HostValue::Kind::List &&
      configs.kind != HostValue::Kind::Tuple) {
    g.error(slots[0]->loc) << "expected a list of triton.Config for "
                              "configs of triton.autotune, found "
                           << configs.describe();
    return failure();
  }
  for (const HostValue &c : configs.elts) {
    if (c.kind != HostValue::Kind::Config) {
      g.error(slots[0]->loc) << "expected a list of triton.Config for "
                                "configs of triton.autotune, found an element "
                             << c.describe();
      return failure();
    }
    spec.configs.push_back(*c.config);
  }
  auto keyOrRaised = host.eval(*slots[1]);
  if (failed(keyOrRaised)) {
    (void)host.reportRaised(slots[1]->loc, "host code for the key");
    return failure();
  }
  HostValue &key = *keyOrRaised;
  if (key.kind != HostValue::Kind::List && key.kind != HostValue::Kind::Tuple) {
    g.error(slots[1]->loc) << "expected a list of parameter names for key of "
                              "triton.autotune, found "
                           << key.describe();
    return failure();
  }
  for (const HostValue &k : key.elts) {
    if (k.kind != HostValue::Kind::Str) {
      g.error(slots[1]->loc) << "expected a list of parameter names for key "
                                "of triton.autotune, found an element "
                             << k.describe();
      return failure();
    }
    spec.key.push_back(k.s);
  }
  // reset_to_zero and restore_value: parameter names whose buffers the
  // benchmarking zeroes before each run, or saves and restores around it
  // (the JIT's autotuner honours them; tilec/Jit.h).
  for (auto [slot, out, what] :
       {std::tuple{slots[3], &spec.resetToZero, "reset_to_zero"},
        std::tuple{slots[4], &spec.restoreValue, "restore_value"}}) {
    if (!slot)
      continue;
    auto namesOrRaised = host.eval(*slot);
    if (failed(namesOrRaised)) {
      (void)host.reportRaised(slot->loc, std::string("host code for ") + what);
      return failure();
    }
    HostValue &names = *namesOrRaised;
    if (names.kind == HostValue::Kind::None)
      continue;
    if (names.kind != HostValue::Kind::List &&
        names.kind != HostValue::Kind::Tuple) {
      g.error(slot->loc) << "expected a list of parameter names for " << what
                         << " of triton.autotune, found " << names.describe();
      return failure();
    }
    for (const HostValue &n : names.elts) {
      if (n.kind != HostValue::Kind::Str) {
        g.error(slot->loc) << "expected a list of parameter names for "
                           << what << " of triton.autotune, found an element "
                           << n.describe();
        return failure();
      }
      out->push_back(n.s);
    }
  }
  return spec;
}
