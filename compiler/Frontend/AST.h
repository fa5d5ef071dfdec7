//===- AST.h - Syntax tree of Triton-language kernels -----------*- C++ -*-===//
//
// The syntax tree the parser builds from a `.py` file: the Python subset that
// `@triton.jit` functions are written in, shaped like Python's own `ast`
// module (Name, Call, Attribute, Subscript, Assign, For, ...). Nodes own
// their children through std::unique_ptr and copy every name and literal,
// so the tree does not refer to the source text. Every node carries the
// location of its first token and of the end of its last one.
//
// Kinds and LLVM-style RTTI: `llvm::isa<py::Call>(expr)`,
// `llvm::dyn_cast<py::For>(stmt)`. The tree lives in namespace `tilec::py`
// so that its Attribute, Module and Call do not collide with MLIR's names.
//
// The Module keeps only what the compiler reads: imports, module-level
// constants, and the jit functions; the rest of the file (host code) is
// skipped by token structure and listed as ranges for debugging.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_AST_H
#define TILEC_COMPILER_FRONTEND_AST_H

#include "compiler/Frontend/Lexer.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilec {
namespace py {

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

enum class UnaryOpKind { Plus, Minus, Invert, Not };
enum class BinOpKind {
  Add, Sub, Mul, Div, FloorDiv, Mod, MatMul, Pow,
  LShift, RShift, BitOr, BitXor, BitAnd,
};
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, In, NotIn, Is, IsNot };

/// Python spellings: "-", "not", "//", "and", "not in", "is not".
const char *getSpelling(UnaryOpKind op);
const char *getSpelling(BinOpKind op);
const char *getSpelling(BoolOpKind op);
const char *getSpelling(CmpOpKind op);

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Name, Int, Float, String, Bool, None, Ellipsis,
  Unary, Binary, BoolOp, Compare, IfExp, Call, Attribute, Subscript, Slice,
  Tuple, List, Dict, Set, Lambda, Starred, Comprehension,
};

class Expr {
public:
  virtual ~Expr() = default;
  ExprKind getKind() const { return kind; }

  SourceLoc loc;    ///< first token
  SourceLoc endLoc; ///< just past the last token

protected:
  Expr(ExprKind kind, SourceLoc loc) : loc(loc), kind(kind) {}

private:
  ExprKind kind;
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// Defines the constructor and classof of a node class.
#define TILEC_PY_EXPR(Class, Kind)                                             \
  explicit Class(SourceLoc loc) : Expr(ExprKind::Kind, loc) {}                 \
  static bool classof(const Expr *e) { return e->getKind() == ExprKind::Kind; }

class Name : public Expr {
public:
  TILEC_PY_EXPR(Name, Name)
  std::string id;
};

/// An integer literal. `value` holds it if it fits in int64; otherwise
/// `overflow` is set (Python integers are unbounded) and `text` is all
/// there is.
class IntLiteral : public Expr {
public:
  TILEC_PY_EXPR(IntLiteral, Int)
  int64_t value = 0;
  bool overflow = false;
  std::string text; ///< as written: "0x_FF", "1_000"
};

/// A float or imaginary literal (`1.5`, `1e-5`, `.5`, `2j`).
class FloatLiteral : public Expr {
public:
  TILEC_PY_EXPR(FloatLiteral, Float)
  double value = 0;
  bool isImaginary = false;
  std::string text;
};

/// One or more adjacent string literals, concatenated. For plain and bytes
/// strings `value` is the decoded content (escapes resolved, UTF-8);
/// f-strings are not decoded: `isFString` is set and `value` holds the
/// concatenated source text of the parts.
class StringLiteral : public Expr {
public:
  TILEC_PY_EXPR(StringLiteral, String)
  std::string value;
  bool isBytes = false;
  bool isFString = false;
  std::vector<std::string> parts; ///< each literal as written, with quotes
};

class BoolLiteral : public Expr {
public:
  TILEC_PY_EXPR(BoolLiteral, Bool)
  bool value = false;
};

class NoneLiteral : public Expr {
public:
  TILEC_PY_EXPR(NoneLiteral, None)
};

/// `...`
class EllipsisLiteral : public Expr {
public:
  TILEC_PY_EXPR(EllipsisLiteral, Ellipsis)
};

class UnaryOp : public Expr {
public:
  TILEC_PY_EXPR(UnaryOp, Unary)
  UnaryOpKind op = UnaryOpKind::Minus;
  ExprPtr operand;
};

class BinOp : public Expr {
public:
  TILEC_PY_EXPR(BinOp, Binary)
  BinOpKind op = BinOpKind::Add;
  ExprPtr lhs, rhs;
};

/// `a and b and c`: one node with all operands.
class BoolOp : public Expr {
public:
  TILEC_PY_EXPR(BoolOp, BoolOp)
  BoolOpKind op = BoolOpKind::And;
  ExprList values;
};

/// A comparison chain `a < b <= c`: operands.size() == ops.size() + 1.
class Compare : public Expr {
public:
  TILEC_PY_EXPR(Compare, Compare)
  std::vector<CmpOpKind> ops;
  ExprList operands;
};

/// `body if test else orelse`
class IfExp : public Expr {
public:
  TILEC_PY_EXPR(IfExp, IfExp)
  ExprPtr test, body, orelse;
};

/// A keyword argument `name=value`, or `**value` (empty name).
struct Keyword {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
  bool isDoubleStar() const { return name.empty(); }
};

/// `func(args..., keywords...)`. `*x` arguments are Starred nodes in `args`;
/// `**x` arguments are keywords without a name. A lone generator argument
/// (`sum(x for x in y)`) is a Comprehension in `args`.
class Call : public Expr {
public:
  TILEC_PY_EXPR(Call, Call)
  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
  bool hasStarArgs() const;
  bool hasDoubleStarArgs() const;
};

/// `value.attr`
class Attribute : public Expr {
public:
  TILEC_PY_EXPR(Attribute, Attribute)
  ExprPtr value;
  std::string attr;
};

/// `value[i0, i1, ...]`. Each index is an expression, a Slice, `None` or a
/// Starred. `isTuple` is set when the brackets hold a comma (`x[0,]`, `x[:,
/// None]`), i.e. when Python would index with a tuple.
class Subscript : public Expr {
public:
  TILEC_PY_EXPR(Subscript, Subscript)
  ExprPtr value;
  ExprList indices;
  bool isTuple = false;
};

/// `lower:upper:step` inside a subscript; each part may be missing.
class Slice : public Expr {
public:
  TILEC_PY_EXPR(Slice, Slice)
  ExprPtr lower, upper, step;
};

class Tuple : public Expr {
public:
  TILEC_PY_EXPR(Tuple, Tuple)
  ExprList elts;
  bool parenthesized = false;
};

class List : public Expr {
public:
  TILEC_PY_EXPR(List, List)
  ExprList elts;
};

/// `{k: v, **m}`: keys[i] is null for a `**m` entry.
class Dict : public Expr {
public:
  TILEC_PY_EXPR(Dict, Dict)
  ExprList keys, values;
};

class Set : public Expr {
public:
  TILEC_PY_EXPR(Set, Set)
  ExprList elts;
};

/// A parameter of a def or lambda.
struct Param {
  enum class Kind {
    PositionalOnly, ///< before a `/`
    Positional,
    VarArgs,     ///< *args
    KeywordOnly, ///< after `*` or `*args`
    KwArgs,      ///< **kwargs
  };
  std::string name;
  ExprPtr annotation; ///< may be null
  ExprPtr defaultValue; ///< may be null
  Kind kind = Kind::Positional;
  SourceLoc loc;
};

class Lambda : public Expr {
public:
  TILEC_PY_EXPR(Lambda, Lambda)
  std::vector<Param> params;
  ExprPtr body;
};

/// `*value` in a call, a tuple, a list or an assignment target.
class Starred : public Expr {
public:
  TILEC_PY_EXPR(Starred, Starred)
  ExprPtr value;
};

/// One `for target in iter if cond...` clause of a comprehension.
struct ComprehensionFor {
  ExprPtr target, iter;
  ExprList ifs;
  bool isAsync = false;
};

/// `[elt for ...]`, `{elt for ...}`, `{key: value for ...}` or
/// `(elt for ...)`.
class Comprehension : public Expr {
public:
  enum class Kind { List, Set, Dict, Generator };
  TILEC_PY_EXPR(Comprehension, Comprehension)
  Kind comprehensionKind = Kind::List;
  ExprPtr elt;   ///< the element, or the key of a dict comprehension
  ExprPtr value; ///< dict comprehensions only
  std::vector<ComprehensionFor> generators;
};

#undef TILEC_PY_EXPR

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

enum class StmtKind {
  Expr, Assign, AugAssign, AnnAssign, If, For, While, Return,
  Pass, Break, Continue, Assert,
  // Host functions only (the parser refuses them in @triton.jit bodies).
  Try, Raise, Import,
};

class Stmt {
public:
  virtual ~Stmt() = default;
  StmtKind getKind() const { return kind; }

  SourceLoc loc;    ///< first token
  SourceLoc endLoc; ///< just past the last token of the statement's line(s)

protected:
  Stmt(StmtKind kind, SourceLoc loc) : loc(loc), kind(kind) {}

private:
  StmtKind kind;
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

#define TILEC_PY_STMT(Class, Kind)                                             \
  explicit Class(SourceLoc loc) : Stmt(StmtKind::Kind, loc) {}                 \
  static bool classof(const Stmt *s) { return s->getKind() == StmtKind::Kind; }

/// An expression evaluated for its effect (a call, or a docstring).
class ExprStmt : public Stmt {
public:
  TILEC_PY_STMT(ExprStmt, Expr)
  ExprPtr value;
};

/// `t1 = t2 = value`. Targets are Name, Attribute, Subscript, Starred, or
/// Tuple/List of targets.
class Assign : public Stmt {
public:
  TILEC_PY_STMT(Assign, Assign)
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`; the target is a Name, Attribute or Subscript.
class AugAssign : public Stmt {
public:
  TILEC_PY_STMT(AugAssign, AugAssign)
  ExprPtr target;
  BinOpKind op = BinOpKind::Add;
  ExprPtr value;
};

/// `target: annotation [= value]`
class AnnAssign : public Stmt {
public:
  TILEC_PY_STMT(AnnAssign, AnnAssign)
  ExprPtr target, annotation;
  ExprPtr value; ///< may be null
};

/// `if test: body else: orelse`. An `elif` is an If alone in the orelse of
/// the previous one, with `isElif` set.
class If : public Stmt {
public:
  TILEC_PY_STMT(If, If)
  ExprPtr test;
  StmtList body, orelse;
  bool isElif = false;
};

/// `for target in iter: body else: orelse`
class For : public Stmt {
public:
  TILEC_PY_STMT(For, For)
  ExprPtr target, iter;
  StmtList body, orelse;
};

class While : public Stmt {
public:
  TILEC_PY_STMT(While, While)
  ExprPtr test;
  StmtList body, orelse;
};

/// `return [value]`; `return a, b` holds a Tuple.
class Return : public Stmt {
public:
  TILEC_PY_STMT(Return, Return)
  ExprPtr value; ///< may be null
};

class Pass : public Stmt {
public:
  TILEC_PY_STMT(Pass, Pass)
};

class Break : public Stmt {
public:
  TILEC_PY_STMT(Break, Break)
};

class Continue : public Stmt {
public:
  TILEC_PY_STMT(Continue, Continue)
};

/// `assert test[, msg]`
class Assert : public Stmt {
public:
  TILEC_PY_STMT(Assert, Assert)
  ExprPtr test;
  ExprPtr msg; ///< may be null
};

/// One `except [type [as name]]:` clause of a Try.
struct ExceptHandler {
  ExprPtr type;     ///< may be null (a bare `except:`)
  std::string name; ///< empty without `as`
  StmtList body;
  SourceLoc loc;
};

/// `try: body except ...: handlers else: orelse finally: finalbody`, in
/// host functions only.
class Try : public Stmt {
public:
  TILEC_PY_STMT(Try, Try)
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse, finalbody;
};

/// `raise [exc]` (the `from cause` is read and dropped), in host functions
/// only.
class Raise : public Stmt {
public:
  TILEC_PY_STMT(Raise, Raise)
  ExprPtr exc; ///< may be null (a bare re-raise)
};

#undef TILEC_PY_STMT

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// The module-level `if` conditions a definition lies under: each test
/// (owned by the Module) with the value it must have (`elif`/`else` want
/// the earlier tests false). Empty for an unconditional definition.
using ModuleGuard = std::vector<std::pair<const Expr *, bool>>;

/// A `@triton.jit` function: its decorators (all of them, in source order, as
/// parsed expressions: `triton.autotune(...)`, `triton.jit`, ...), its
/// parameters, the return annotation and the body.
struct FunctionDef {
  std::string name;
  std::vector<Param> params;
  ExprList decorators;
  ExprPtr returns; ///< may be null
  StmtList body;
  SourceLoc loc;    ///< the `def` keyword
  ModuleGuard guard; ///< the module-level ifs it is defined under
  SourceLoc endLoc; ///< end of the last line of the body
  /// `@core.extern` (Triton's libdevice wrappers, Python run at compile
  /// time): inlined like a jit helper, may build dicts; never a kernel.
  bool isExtern = false;
  /// Host functions only (Module::hostFunctions): why tilec cannot read the
  /// function (a decorator, or the first construct the parser refused, with
  /// its location); empty when the body parsed.
  std::string unreadable;
  SourceLoc unreadableLoc;

  /// The docstring, if the body opens with a string expression statement.
  const StringLiteral *getDocstring() const;
};

/// `import a.b as c, d` (isFrom false: each name is a dotted module) or
/// `from ..a.b import x as y, z` (isFrom true; `level` counts the dots;
/// a `*` import has the single name "*").
struct Import {
  struct Alias {
    std::string name;
    std::string asName; ///< empty without `as`
    SourceLoc loc;
  };
  bool isFrom = false;
  std::string module; ///< from-imports only
  unsigned level = 0;
  std::vector<Alias> names;
  SourceLoc loc;
  ModuleGuard guard;

  /// The name `a` binds: its `as` name, else (`import a.b`) the first
  /// component of a module path, or the imported name.
  std::string boundName(const Alias &a) const {
    if (!a.asName.empty())
      return a.asName;
    return isFrom ? a.name : a.name.substr(0, a.name.find('.'));
  }
};

/// An import statement inside a host function's body.
class ImportStmt : public Stmt {
public:
  explicit ImportStmt(SourceLoc loc) : Stmt(StmtKind::Import, loc) {}
  static bool classof(const Stmt *s) {
    return s->getKind() == StmtKind::Import;
  }
  Import import;
};

/// A module-level `NAME = value` or `NAME: annotation = value`.
struct ModuleConstant {
  std::string name;
  ExprPtr annotation; ///< may be null
  ExprPtr value;
  SourceLoc loc;
  ModuleGuard guard;
};

/// A top-level statement the parser skipped (host code).
struct SkippedRange {
  std::string what; ///< "def main", "class Foo", "if", "expression", ...
  SourceLoc begin, end;
};

struct Module {
  std::string fileName;
  std::vector<Import> imports;
  std::vector<ModuleConstant> constants;
  std::vector<std::unique_ptr<FunctionDef>> functions;
  std::vector<SkippedRange> skipped;
  /// Top-level functions without a jit decorator (host code, also listed in
  /// `skipped`), read so that host helpers returning autotune configs
  /// (`configs=get_autotune_config()`) can be evaluated at compile time.
  std::vector<std::unique_ptr<FunctionDef>> hostFunctions;
  /// The tests of module-level `if`s whose bodies were read (ModuleGuard).
  std::vector<ExprPtr> guardTests;
  /// Those of guardTests that stand for a top-level `try:` (true: its body
  /// ran without an exception; false: a handler ran). No expression decides
  /// them: CodeGen::bindModule does, name by name.
  std::set<const Expr *> tryTests;
  /// Module-level names that skipped top-level code changes in place
  /// (`NAME.append(...)`, `NAME += ...`), with the first such place: such a
  /// name's value is not what its assignment says.
  std::vector<std::pair<std::string, SourceLoc>> mutatedNames;
  /// The names skipped top-level `def`s and `class`es bind, where (a
  /// later one rebinds a module constant of that name).
  std::vector<std::pair<std::string, SourceLoc>> definedNames;

  /// The jit function named `name`, or null.
  const FunctionDef *lookupFunction(std::string_view name) const;
  /// The last host function named `name` (as Python binds it), or null.
  const FunctionDef *lookupHostFunction(std::string_view name) const;
};

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints the module as an indented tree, one node per line with its
/// location (`@line:col`), children indented by two spaces and labelled
/// where their role is not implied by their position (`test:`, `body:`,
/// `keyword axis:`). The format is stable, for `tilec --emit=ast` and
/// FileCheck.
void dumpAST(const Module &module, llvm::raw_ostream &os);
void dumpFunction(const FunctionDef &fn, llvm::raw_ostream &os,
                  unsigned indent = 0);
void dumpStmt(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent = 0);
void dumpExpr(const Expr &expr, llvm::raw_ostream &os, unsigned indent = 0);

/// Prints `expr` on one line as Python source with every compound
/// subexpression parenthesized: `-x**2` prints `(-(x ** 2))`, `a[:, None]`
/// prints `a[:, None]`. For diagnostics and tests.
void printExpr(const Expr &expr, llvm::raw_ostream &os);
std::string toString(const Expr &expr);

} // namespace py
} // namespace tilec

#endif // TILEC_COMPILER_FRONTEND_AST_H
