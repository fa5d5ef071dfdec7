//===- AST.cpp - Syntax tree of Triton-language kernels ---------*- C++ -*-===//
//
// Operator spellings, small queries, and the two printers: the indented tree
// of `tilec --emit=ast` and the one-line, fully parenthesized source form
// used by tests and diagnostics.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/AST.h"

#include "llvm/Support/Format.h"

using namespace tilec::py;
using llvm::cast;
using llvm::dyn_cast;
using llvm::raw_ostream;

const char *tilec::py::getSpelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Plus: return "+";
  case UnaryOpKind::Minus: return "-";
  case UnaryOpKind::Invert: return "~";
  case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char *tilec::py::getSpelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add: return "+";
  case BinOpKind::Sub: return "-";
  case BinOpKind::Mul: return "*";
  case BinOpKind::Div: return "/";
  case BinOpKind::FloorDiv: return "//";
  case BinOpKind::Mod: return "%";
  case BinOpKind::MatMul: return "@";
  case BinOpKind::Pow: return "**";
  case BinOpKind::LShift: return "<<";
  case BinOpKind::RShift: return ">>";
  case BinOpKind::BitOr: return "|";
  case BinOpKind::BitXor: return "^";
  case BinOpKind::BitAnd: return "&";
  }
  return "?";
}

const char *tilec::py::getSpelling(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}

const char *tilec::py::getSpelling(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq: return "==";
  case CmpOpKind::NotEq: return "!=";
  case CmpOpKind::Lt: return "<";
  case CmpOpKind::LtE: return "<=";
  case CmpOpKind::Gt: return ">";
  case CmpOpKind::GtE: return ">=";
  case CmpOpKind::In: return "in";
  case CmpOpKind::NotIn: return "not in";
  case CmpOpKind::Is: return "is";
  case CmpOpKind::IsNot: return "is not";
  }
  return "?";
}

bool Call::hasStarArgs() const {
  for (const ExprPtr &arg : args)
    if (llvm::isa<Starred>(arg.get()))
      return true;
  return false;
}

bool Call::hasDoubleStarArgs() const {
  for (const Keyword &kw : keywords)
    if (kw.isDoubleStar())
      return true;
  return false;
}

const StringLiteral *FunctionDef::getDocstring() const {
  if (body.empty())
    return nullptr;
  if (auto *stmt = dyn_cast<ExprStmt>(body.front().get()))
    if (auto *str = dyn_cast<StringLiteral>(stmt->value.get()))
      if (!str->isFString && !str->isBytes)
        return str;
  return nullptr;
}

const FunctionDef *Module::lookupFunction(std::string_view name) const {
  for (const auto &fn : functions)
    if (fn->name == name)
      return fn.get();
  return nullptr;
}

const FunctionDef *Module::lookupHostFunction(std::string_view name) const {
  for (auto it = hostFunctions.rbegin(); it != hostFunctions.rend(); ++it)
    if ((*it)->name == name)
      return it->get();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// One-line printer
//===----------------------------------------------------------------------===//

namespace {

/// Writes `s` as a Python string literal in single quotes.
void printQuoted(raw_ostream &os, const std::string &s, bool isBytes) {
  if (isBytes)
    os << 'b';
  os << '\'';
  for (unsigned char c : s) {
    switch (c) {
    case '\\': os << "\\\\"; break;
    case '\'': os << "\\'"; break;
    case '\n': os << "\\n"; break;
    case '\t': os << "\\t"; break;
    case '\r': os << "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7f || (isBytes && c >= 0x80))
        os << llvm::format("\\x%02x", c);
      else
        os << c;
    }
  }
  os << '\'';
}

void printParams(raw_ostream &os, const std::vector<Param> &params) {
  bool first = true;
  bool sawKwOnlyMarker = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    if (p.kind == Param::Kind::KeywordOnly && !sawKwOnlyMarker) {
      bool hasVarArgs = false;
      for (const Param &q : params)
        hasVarArgs |= q.kind == Param::Kind::VarArgs;
      if (!hasVarArgs) {
        os << (first ? "" : ", ") << "*";
        first = false;
      }
      sawKwOnlyMarker = true;
    }
    os << (first ? "" : ", ");
    first = false;
    if (p.kind == Param::Kind::VarArgs)
      os << '*';
    else if (p.kind == Param::Kind::KwArgs)
      os << "**";
    os << p.name;
    if (p.annotation) {
      os << ": ";
      printExpr(*p.annotation, os);
    }
    if (p.defaultValue) {
      os << (p.annotation ? " = " : "=");
      printExpr(*p.defaultValue, os);
    }
    bool lastPosOnly = p.kind == Param::Kind::PositionalOnly &&
                       (i + 1 == params.size() ||
                        params[i + 1].kind != Param::Kind::PositionalOnly);
    if (lastPosOnly)
      os << ", /";
  }
}

void printList(raw_ostream &os, const ExprList &elts) {
  for (size_t i = 0; i < elts.size(); ++i) {
    if (i)
      os << ", ";
    printExpr(*elts[i], os);
  }
}

void printGenerators(raw_ostream &os,
                     const std::vector<ComprehensionFor> &generators) {
  for (const ComprehensionFor &gen : generators) {
    os << (gen.isAsync ? " async for " : " for ");
    printExpr(*gen.target, os);
    os << " in ";
    printExpr(*gen.iter, os);
    for (const ExprPtr &cond : gen.ifs) {
      os << " if ";
      printExpr(*cond, os);
    }
  }
}

} // namespace

void tilec::py::printExpr(const Expr &expr, raw_ostream &os) {
  switch (expr.getKind()) {
  case ExprKind::Name:
    os << cast<Name>(expr).id;
    return;
  case ExprKind::Int:
    os << cast<IntLiteral>(expr).text;
    return;
  case ExprKind::Float:
    os << cast<FloatLiteral>(expr).text;
    return;
  case ExprKind::String: {
    auto &s = cast<StringLiteral>(expr);
    if (s.isFString) {
      for (size_t i = 0; i < s.parts.size(); ++i)
        os << (i ? " " : "") << s.parts[i];
      return;
    }
    printQuoted(os, s.value, s.isBytes);
    return;
  }
  case ExprKind::Bool:
    os << (cast<BoolLiteral>(expr).value ? "True" : "False");
    return;
  case ExprKind::None:
    os << "None";
    return;
  case ExprKind::Ellipsis:
    os << "...";
    return;
  case ExprKind::Unary: {
    auto &u = cast<UnaryOp>(expr);
    os << '(' << getSpelling(u.op) << (u.op == UnaryOpKind::Not ? " " : "");
    printExpr(*u.operand, os);
    os << ')';
    return;
  }
  case ExprKind::Binary: {
    auto &b = cast<BinOp>(expr);
    os << '(';
    printExpr(*b.lhs, os);
    os << ' ' << getSpelling(b.op) << ' ';
    printExpr(*b.rhs, os);
    os << ')';
    return;
  }
  case ExprKind::BoolOp: {
    auto &b = cast<BoolOp>(expr);
    os << '(';
    for (size_t i = 0; i < b.values.size(); ++i) {
      if (i)
        os << ' ' << getSpelling(b.op) << ' ';
      printExpr(*b.values[i], os);
    }
    os << ')';
    return;
  }
  case ExprKind::Compare: {
    auto &c = cast<Compare>(expr);
    os << '(';
    printExpr(*c.operands[0], os);
    for (size_t i = 0; i < c.ops.size(); ++i) {
      os << ' ' << getSpelling(c.ops[i]) << ' ';
      printExpr(*c.operands[i + 1], os);
    }
    os << ')';
    return;
  }
  case ExprKind::IfExp: {
    auto &e = cast<IfExp>(expr);
    os << '(';
    printExpr(*e.body, os);
    os << " if ";
    printExpr(*e.test, os);
    os << " else ";
    printExpr(*e.orelse, os);
    os << ')';
    return;
  }
  case ExprKind::Call: {
    auto &c = cast<Call>(expr);
    printExpr(*c.func, os);
    os << '(';
    printList(os, c.args);
    bool first = c.args.empty();
    for (const Keyword &kw : c.keywords) {
      os << (first ? "" : ", ");
      first = false;
      if (kw.isDoubleStar())
        os << "**";
      else
        os << kw.name << '=';
      printExpr(*kw.value, os);
    }
    os << ')';
    return;
  }
  case ExprKind::Attribute: {
    auto &a = cast<Attribute>(expr);
    printExpr(*a.value, os);
    os << '.' << a.attr;
    return;
  }
  case ExprKind::Subscript: {
    auto &s = cast<Subscript>(expr);
    printExpr(*s.value, os);
    os << '[';
    printList(os, s.indices);
    if (s.isTuple && s.indices.size() == 1)
      os << ',';
    os << ']';
    return;
  }
  case ExprKind::Slice: {
    auto &s = cast<Slice>(expr);
    if (s.lower)
      printExpr(*s.lower, os);
    os << ':';
    if (s.upper)
      printExpr(*s.upper, os);
    if (s.step) {
      os << ':';
      printExpr(*s.step, os);
    }
    return;
  }
  case ExprKind::Tuple: {
    auto &t = cast<Tuple>(expr);
    os << '(';
    printList(os, t.elts);
    if (t.elts.size() == 1)
      os << ',';
    os << ')';
    return;
  }
  case ExprKind::List:
    os << '[';
    printList(os, cast<List>(expr).elts);
    os << ']';
    return;
  case ExprKind::Dict: {
    auto &d = cast<Dict>(expr);
    os << '{';
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (i)
        os << ", ";
      if (d.keys[i]) {
        printExpr(*d.keys[i], os);
        os << ": ";
      } else {
        os << "**";
      }
      printExpr(*d.values[i], os);
    }
    os << '}';
    return;
  }
  case ExprKind::Set:
    os << '{';
    printList(os, cast<Set>(expr).elts);
    os << '}';
    return;
  case ExprKind::Lambda: {
    auto &l = cast<Lambda>(expr);
    os << "(lambda";
    if (!l.params.empty())
      os << ' ';
    printParams(os, l.params);
    os << ": ";
    printExpr(*l.body, os);
    os << ')';
    return;
  }
  case ExprKind::Starred:
    os << '*';
    printExpr(*cast<Starred>(expr).value, os);
    return;
  case ExprKind::Comprehension: {
    auto &c = cast<Comprehension>(expr);
    using K = Comprehension::Kind;
    K k = c.comprehensionKind;
    os << (k == K::List ? '[' : k == K::Generator ? '(' : '{');
    printExpr(*c.elt, os);
    if (c.value) {
      os << ": ";
      printExpr(*c.value, os);
    }
    printGenerators(os, c.generators);
    os << (k == K::List ? ']' : k == K::Generator ? ')' : '}');
    return;
  }
  }
}

std::string tilec::py::toString(const Expr &expr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printExpr(expr, os);
  return s;
}

//===----------------------------------------------------------------------===//
// Tree printer
//===----------------------------------------------------------------------===//

namespace {

raw_ostream &at(raw_ostream &os, SourceLoc loc) {
  return os << " @" << loc.line << ':' << loc.col;
}

void dumpExprImpl(const Expr &expr, raw_ostream &os, unsigned indent,
                  const std::string &label);

void child(const Expr *expr, raw_ostream &os, unsigned indent,
           const std::string &label = "") {
  if (expr)
    dumpExprImpl(*expr, os, indent, label);
}

void dumpExprImpl(const Expr &expr, raw_ostream &os, unsigned indent,
                  const std::string &label) {
  os.indent(indent) << label << (label.empty() ? "" : ": ");
  unsigned in = indent + 2;
  switch (expr.getKind()) {
  case ExprKind::Name:
    at(os << "Name " << cast<Name>(expr).id, expr.loc) << '\n';
    return;
  case ExprKind::Int: {
    auto &i = cast<IntLiteral>(expr);
    if (i.overflow)
      os << "Int <overflow> " << i.text;
    else if (std::to_string(i.value) == i.text)
      os << "Int " << i.value;
    else
      os << "Int " << i.value << " (" << i.text << ')';
    at(os, expr.loc) << '\n';
    return;
  }
  case ExprKind::Float: {
    auto &f = cast<FloatLiteral>(expr);
    os << (f.isImaginary ? "Imaginary " : "Float ") << f.text;
    at(os, expr.loc) << '\n';
    return;
  }
  case ExprKind::String: {
    auto &s = cast<StringLiteral>(expr);
    os << (s.isFString ? "FString " : s.isBytes ? "Bytes " : "String ");
    printExpr(expr, os);
    at(os, expr.loc) << '\n';
    return;
  }
  case ExprKind::Bool:
    os << "Bool " << (cast<BoolLiteral>(expr).value ? "True" : "False");
    at(os, expr.loc) << '\n';
    return;
  case ExprKind::None:
    at(os << "None", expr.loc) << '\n';
    return;
  case ExprKind::Ellipsis:
    at(os << "Ellipsis", expr.loc) << '\n';
    return;
  case ExprKind::Unary: {
    auto &u = cast<UnaryOp>(expr);
    at(os << "UnaryOp " << getSpelling(u.op), expr.loc) << '\n';
    child(u.operand.get(), os, in);
    return;
  }
  case ExprKind::Binary: {
    auto &b = cast<BinOp>(expr);
    at(os << "BinOp " << getSpelling(b.op), expr.loc) << '\n';
    child(b.lhs.get(), os, in);
    child(b.rhs.get(), os, in);
    return;
  }
  case ExprKind::BoolOp: {
    auto &b = cast<BoolOp>(expr);
    at(os << "BoolOp " << getSpelling(b.op), expr.loc) << '\n';
    for (const ExprPtr &v : b.values)
      child(v.get(), os, in);
    return;
  }
  case ExprKind::Compare: {
    auto &c = cast<Compare>(expr);
    os << "Compare";
    for (CmpOpKind op : c.ops)
      os << " '" << getSpelling(op) << '\'';
    at(os, expr.loc) << '\n';
    for (const ExprPtr &v : c.operands)
      child(v.get(), os, in);
    return;
  }
  case ExprKind::IfExp: {
    auto &e = cast<IfExp>(expr);
    at(os << "IfExp", expr.loc) << '\n';
    child(e.test.get(), os, in, "test");
    child(e.body.get(), os, in, "body");
    child(e.orelse.get(), os, in, "orelse");
    return;
  }
  case ExprKind::Call: {
    auto &c = cast<Call>(expr);
    at(os << "Call", expr.loc) << '\n';
    child(c.func.get(), os, in, "func");
    for (const ExprPtr &a : c.args)
      child(a.get(), os, in, "arg");
    for (const Keyword &kw : c.keywords)
      child(kw.value.get(), os, in,
            kw.isDoubleStar() ? "keyword **" : "keyword " + kw.name);
    return;
  }
  case ExprKind::Attribute: {
    auto &a = cast<Attribute>(expr);
    at(os << "Attribute ." << a.attr, expr.loc) << '\n';
    child(a.value.get(), os, in);
    return;
  }
  case ExprKind::Subscript: {
    auto &s = cast<Subscript>(expr);
    os << "Subscript" << (s.isTuple ? " tuple" : "");
    at(os, expr.loc) << '\n';
    child(s.value.get(), os, in, "value");
    for (const ExprPtr &i : s.indices)
      child(i.get(), os, in, "index");
    return;
  }
  case ExprKind::Slice: {
    auto &s = cast<Slice>(expr);
    at(os << "Slice", expr.loc) << '\n';
    child(s.lower.get(), os, in, "lower");
    child(s.upper.get(), os, in, "upper");
    child(s.step.get(), os, in, "step");
    return;
  }
  case ExprKind::Tuple: {
    auto &t = cast<Tuple>(expr);
    at(os << "Tuple", expr.loc) << '\n';
    for (const ExprPtr &e : t.elts)
      child(e.get(), os, in);
    return;
  }
  case ExprKind::List: {
    at(os << "List", expr.loc) << '\n';
    for (const ExprPtr &e : cast<List>(expr).elts)
      child(e.get(), os, in);
    return;
  }
  case ExprKind::Set: {
    at(os << "Set", expr.loc) << '\n';
    for (const ExprPtr &e : cast<Set>(expr).elts)
      child(e.get(), os, in);
    return;
  }
  case ExprKind::Dict: {
    auto &d = cast<Dict>(expr);
    at(os << "Dict", expr.loc) << '\n';
    for (size_t i = 0; i < d.values.size(); ++i) {
      if (d.keys[i])
        child(d.keys[i].get(), os, in, "key");
      child(d.values[i].get(), os, in, d.keys[i] ? "value" : "**");
    }
    return;
  }
  case ExprKind::Lambda: {
    auto &l = cast<Lambda>(expr);
    os << "Lambda (";
    printParams(os, l.params);
    at(os << ')', expr.loc) << '\n';
    child(l.body.get(), os, in, "body");
    return;
  }
  case ExprKind::Starred:
    at(os << "Starred", expr.loc) << '\n';
    child(cast<Starred>(expr).value.get(), os, in);
    return;
  case ExprKind::Comprehension: {
    auto &c = cast<Comprehension>(expr);
    using K = Comprehension::Kind;
    K k = c.comprehensionKind;
    os << (k == K::List  ? "ListComp"
           : k == K::Set ? "SetComp"
           : k == K::Dict ? "DictComp"
                          : "GeneratorExp");
    at(os, expr.loc) << '\n';
    child(c.elt.get(), os, in, k == K::Dict ? "key" : "elt");
    child(c.value.get(), os, in, "value");
    for (const ComprehensionFor &gen : c.generators) {
      child(gen.target.get(), os, in, gen.isAsync ? "async for" : "for");
      child(gen.iter.get(), os, in, "in");
      for (const ExprPtr &cond : gen.ifs)
        child(cond.get(), os, in, "if");
    }
    return;
  }
  }
}

void dumpBlock(const StmtList &body, raw_ostream &os, unsigned indent,
               const char *label) {
  os.indent(indent) << label << ":\n";
  for (const StmtPtr &s : body)
    dumpStmt(*s, os, indent + 2);
}

} // namespace

void tilec::py::dumpExpr(const Expr &expr, raw_ostream &os, unsigned indent) {
  dumpExprImpl(expr, os, indent, "");
}

void tilec::py::dumpStmt(const Stmt &stmt, raw_ostream &os, unsigned indent) {
  os.indent(indent);
  unsigned in = indent + 2;
  switch (stmt.getKind()) {
  case StmtKind::Expr:
    at(os << "ExprStmt", stmt.loc) << '\n';
    child(cast<ExprStmt>(stmt).value.get(), os, in);
    return;
  case StmtKind::Assign: {
    auto &a = cast<Assign>(stmt);
    at(os << "Assign", stmt.loc) << '\n';
    for (const ExprPtr &t : a.targets)
      child(t.get(), os, in, "target");
    child(a.value.get(), os, in, "value");
    return;
  }
  case StmtKind::AugAssign: {
    auto &a = cast<AugAssign>(stmt);
    at(os << "AugAssign " << getSpelling(a.op) << '=', stmt.loc) << '\n';
    child(a.target.get(), os, in, "target");
    child(a.value.get(), os, in, "value");
    return;
  }
  case StmtKind::AnnAssign: {
    auto &a = cast<AnnAssign>(stmt);
    at(os << "AnnAssign", stmt.loc) << '\n';
    child(a.target.get(), os, in, "target");
    child(a.annotation.get(), os, in, "annotation");
    child(a.value.get(), os, in, "value");
    return;
  }
  case StmtKind::If: {
    auto &s = cast<If>(stmt);
    at(os << (s.isElif ? "If (elif)" : "If"), stmt.loc) << '\n';
    child(s.test.get(), os, in, "test");
    dumpBlock(s.body, os, in, "then");
    if (!s.orelse.empty())
      dumpBlock(s.orelse, os, in, "else");
    return;
  }
  case StmtKind::For: {
    auto &s = cast<For>(stmt);
    at(os << "For", stmt.loc) << '\n';
    child(s.target.get(), os, in, "target");
    child(s.iter.get(), os, in, "iter");
    dumpBlock(s.body, os, in, "body");
    if (!s.orelse.empty())
      dumpBlock(s.orelse, os, in, "else");
    return;
  }
  case StmtKind::While: {
    auto &s = cast<While>(stmt);
    at(os << "While", stmt.loc) << '\n';
    child(s.test.get(), os, in, "test");
    dumpBlock(s.body, os, in, "body");
    if (!s.orelse.empty())
      dumpBlock(s.orelse, os, in, "else");
    return;
  }
  case StmtKind::Return:
    at(os << "Return", stmt.loc) << '\n';
    child(cast<Return>(stmt).value.get(), os, in);
    return;
  case StmtKind::Pass:
    at(os << "Pass", stmt.loc) << '\n';
    return;
  case StmtKind::Break:
    at(os << "Break", stmt.loc) << '\n';
    return;
  case StmtKind::Continue:
    at(os << "Continue", stmt.loc) << '\n';
    return;
  case StmtKind::Assert: {
    auto &a = cast<Assert>(stmt);
    at(os << "Assert", stmt.loc) << '\n';
    child(a.test.get(), os, in, "test");
    child(a.msg.get(), os, in, "msg");
    return;
  }
  case StmtKind::Try: {
    auto &t = cast<Try>(stmt);
    at(os << "Try", stmt.loc) << '\n';
    dumpBlock(t.body, os, in, "body");
    for (const ExceptHandler &h : t.handlers) {
      os.indent(in) << "except";
      if (!h.name.empty())
        os << " as " << h.name;
      at(os, h.loc) << '\n';
      child(h.type.get(), os, in + 2, "type");
      dumpBlock(h.body, os, in + 2, "body");
    }
    if (!t.orelse.empty())
      dumpBlock(t.orelse, os, in, "else");
    if (!t.finalbody.empty())
      dumpBlock(t.finalbody, os, in, "finally");
    return;
  }
  case StmtKind::Raise:
    at(os << "Raise", stmt.loc) << '\n';
    child(cast<Raise>(stmt).exc.get(), os, in);
    return;
  case StmtKind::Import: {
    const Import &imp = cast<ImportStmt>(stmt).import;
    at(os << "Import", stmt.loc);
    if (imp.isFrom)
      os << " from " << std::string(imp.level, '.') << imp.module;
    for (const Import::Alias &a : imp.names)
      os << ' ' << a.name << (a.asName.empty() ? "" : " as " + a.asName);
    os << '\n';
    return;
  }
  }
}

void tilec::py::dumpFunction(const FunctionDef &fn, raw_ostream &os,
                             unsigned indent) {
  os.indent(indent) << "FunctionDef " << fn.name;
  at(os, fn.loc) << " decorators=" << fn.decorators.size()
                 << " params=" << fn.params.size() << '\n';
  unsigned in = indent + 2;
  for (const ExprPtr &d : fn.decorators)
    child(d.get(), os, in, "decorator");
  for (const Param &p : fn.params) {
    os.indent(in) << "Param ";
    switch (p.kind) {
    case Param::Kind::PositionalOnly: os << "(positional-only) "; break;
    case Param::Kind::Positional: break;
    case Param::Kind::VarArgs: os << '*'; break;
    case Param::Kind::KeywordOnly: os << "(keyword-only) "; break;
    case Param::Kind::KwArgs: os << "**"; break;
    }
    os << p.name;
    if (p.annotation) {
      os << " : ";
      printExpr(*p.annotation, os);
    }
    if (p.defaultValue) {
      os << " = ";
      printExpr(*p.defaultValue, os);
    }
    at(os, p.loc) << '\n';
  }
  child(fn.returns.get(), os, in, "returns");
  dumpBlock(fn.body, os, in, "body");
}

void tilec::py::dumpAST(const Module &module, raw_ostream &os) {
  os << "Module " << module.fileName << '\n';
  for (const Import &imp : module.imports) {
    os.indent(2) << (imp.isFrom ? "ImportFrom " : "Import ");
    if (imp.isFrom)
      os << std::string(imp.level, '.') << imp.module << " :";
    for (size_t i = 0; i < imp.names.size(); ++i) {
      const Import::Alias &a = imp.names[i];
      os << (i ? ", " : imp.isFrom ? " " : "") << a.name;
      if (!a.asName.empty())
        os << " as " << a.asName;
    }
    at(os, imp.loc) << '\n';
  }
  for (const ModuleConstant &c : module.constants) {
    at(os.indent(2) << "Constant " << c.name, c.loc) << '\n';
    child(c.annotation.get(), os, 4, "annotation");
    child(c.value.get(), os, 4, "value");
  }
  for (const auto &fn : module.functions)
    dumpFunction(*fn, os, 2);
  for (const SkippedRange &r : module.skipped)
    os.indent(2) << "Skipped " << r.what << " @" << r.begin.line << ':'
                 << r.begin.col << '-' << r.end.line << ':' << r.end.col
                 << '\n';
}
