//===- Parser.cpp - Parser of Triton-language kernel files ------*- C++ -*-===//
//
// One function per rule of Python's expression grammar (the 3.12 PEG
// grammar, Grammar/python.gram, restricted to what is unambiguous with one
// token of lookahead: lambda < ifexp < or < and < not < comparison < | < ^ <
// & < shifts < + - < * / // % @ < unary < ** < primary), and one per
// statement. Errors set `panic` so that one mistake yields one diagnostic;
// statement loops then resynchronize at the next NEWLINE of the same block
// (skipping an indented block that follows a broken header).
//
// Top-level statements other than imports, `NAME = expr` and jit functions
// are skipped by token structure. Imports and constants are parsed
// speculatively: if they do not parse, their diagnostics are dropped and the
// statement is skipped like any other host code. Undecorated host functions
// are parsed the same way into Module::hostFunctions (a body that does not
// parse keeps the first reason, for a later error if the function is ever
// evaluated), and skipped code that changes a module name in place
// (`configs.append(...)`) is noted in Module::mutatedNames.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Parser.h"

#include <array>
#include <set>
#include "compiler/Frontend/Unicode.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

using namespace tilec::py;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Removes the `_` digit separators of a number literal.
std::string stripUnderscores(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text)
    if (c != '_')
      s += c;
  return s;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Resolves the escapes of a non-raw string body (Python's
/// string-literal rules; unknown escapes keep their backslash).
std::string decodeEscapes(std::string_view body, bool isBytes) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
    case '\n': break;
    case '\r':
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      break;
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case '0': case '1': case '2': case '3':
    case '4': case '5': case '6': case '7': {
      unsigned v = 0, n = 0;
      while (n < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7') {
        v = v * 8 + (body[i] - '0');
        ++i;
        ++n;
      }
      --i;
      if (isBytes)
        out += char(v & 0xFF);
      else
        appendUTF8(out, v);
      break;
    }
    case 'x':
    case 'u':
    case 'U': {
      unsigned digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      // The digits are body[i + 1 .. i + digits].
      if ((e != 'x' && isBytes) || i + digits >= body.size()) {
        out += '\\';
        out += e;
        break;
      }
      uint32_t v = 0;
      bool ok = true;
      for (unsigned k = 1; k <= digits; ++k) {
        int h = hexValue(body[i + k]);
        if (h < 0) {
          ok = false;
          break;
        }
        v = v * 16 + h;
      }
      if (!ok || v > 0x10FFFF) {
        out += '\\';
        out += e;
        break;
      }
      i += digits;
      if (isBytes)
        out += char(v);
      else
        appendUTF8(out, v);
      break;
    }
    default:
      // Unknown escapes (and \N{...}) stay as written.
      out += '\\';
      out += e;
    }
  }
  return out;
}

class Parser {
public:
  Parser(const LexResult &lex, std::vector<Diagnostic> &diags)
      : lex(lex), toks(lex.tokens), diags(diags) {}

  std::unique_ptr<Module> parseFile(std::string_view fileName);
  ExprPtr parseExpressionInput();
  StmtList parseStatementsInput();

private:
  const LexResult &lex;
  const std::vector<Token> &toks;
  std::vector<Diagnostic> &diags;
  size_t pos = 0;
  /// Set by the first error of a statement; cleared when the statement loop
  /// resynchronizes. Further errors are not reported meanwhile.
  bool panic = false;
  unsigned depth = 0;
  /// Operators in the binary-operator chains being parsed (each deepens the
  /// left-associative tree; limited separately from nesting).
  unsigned chain = 0;
  Module *module = nullptr;
  /// Names bound to `jit` by from-imports (`from triton import jit as j`).
  std::vector<std::string> jitNames;

  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//

  const Token &tok() const { return toks[pos]; }
  const Token &peekTok(size_t n = 1) const {
    return toks[std::min(pos + n, toks.size() - 1)];
  }
  bool atEnd() const { return tok().is(TokenKind::EndOfFile); }
  void advance() {
    if (!atEnd())
      ++pos;
  }
  bool isOp(std::string_view op) const { return tok().isOp(op); }
  bool isKeyword(std::string_view kw) const { return tok().isKeyword(kw); }
  bool consumeOp(std::string_view op) {
    if (!isOp(op))
      return false;
    advance();
    return true;
  }
  bool consumeKeyword(std::string_view kw) {
    if (!isKeyword(kw))
      return false;
    advance();
    return true;
  }
  /// The location just past the previous token.
  SourceLoc prevEnd() const {
    if (pos == 0)
      return tok().getLoc();
    const Token &t = toks[pos - 1];
    return lex.getLoc(t.offset + t.text.size());
  }
  /// The location just past the last token before `pos` that is not a
  /// layout token (the end of a statement, compound ones included).
  SourceLoc lastRealEnd() const {
    for (size_t i = pos; i-- > 0;) {
      const Token &t = toks[i];
      if (t.is(TokenKind::Newline) || t.is(TokenKind::Indent) ||
          t.is(TokenKind::Dedent))
        continue;
      return lex.getLoc(t.offset + t.text.size());
    }
    return tok().getLoc();
  }
  template <typename T> std::unique_ptr<T> finish(std::unique_ptr<T> node) {
    node->endLoc = prevEnd();
    return node;
  }

  void error(SourceLoc loc, std::string message) {
    if (panic)
      return;
    panic = true;
    diags.push_back({loc, std::move(message)});
  }
  void errorExpected(const std::string &what) {
    error(tok().getLoc(), "expected " + what + ", found " + describeToken(tok()));
  }
  bool expectOp(std::string_view op, const std::string &context = "") {
    if (consumeOp(op))
      return true;
    errorExpected("'" + std::string(op) + "'" + context);
    return false;
  }
  void unsupported(SourceLoc loc, const std::string &what) {
    error(loc, "unsupported Python construct in a @triton.jit function: " +
                   what);
  }

  /// Restores `depth` when a recursive rule returns.
  struct DepthScope {
    Parser &p;
    unsigned saved;
    explicit DepthScope(Parser &p) : p(p), saved(p.depth) {}
    ~DepthScope() { p.depth = saved; }
  };
  /// Counts one more level of nesting; false (after a diagnostic) past the
  /// limit.
  bool deeper() {
    if (++depth <= kMaxNestingDepth)
      return true;
    error(tok().getLoc(), "expression nested too deeply (limit " +
                              std::to_string(kMaxNestingDepth) + ")");
    return false;
  }

  /// Skips one statement by token structure: up to its NEWLINE, then the
  /// indented block that follows, if any. Stops before a DEDENT that closes
  /// the enclosing block. Stray INDENT..DEDENT runs are skipped whole.
  void skipStatement();

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  bool startsExpression() const;
  ExprPtr parseExpr();
  ExprPtr parseNamedExpr();
  ExprPtr parseStarOrExpr();
  ExprPtr parseStarExpressions();
  ExprPtr parseTargetList();
  ExprPtr parseLambda();
  ExprPtr parseOr();
  ExprPtr parseAnd();
  ExprPtr parseNot();
  ExprPtr parseComparison();
  ExprPtr parseBinary(unsigned level);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  ExprPtr parseNumber();
  ExprPtr parseStrings();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseBraceDisplay();
  bool parseCallArgs(Call &call);
  bool parseSubscriptIndices(Subscript &sub);
  ExprPtr parseSliceItem();
  /// Parses the `for ... in ... if ...` clauses up to `closer`, which is
  /// consumed unless `keepCloser` (a generator argument ends a call).
  bool parseComprehensionFors(Comprehension &comp, std::string_view closer,
                              bool keepCloser = false);
  bool parseParams(std::vector<Param> &params, std::string_view closer,
                   bool allowAnnotations);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  bool checkTarget(const Expr &target, bool augmented);
  void parseStatement(StmtList &out);
  void parseSimpleStatements(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtPtr parseExprOrAssign();
  /// `elifs`: the 'elif' branches before this one in its chain (an
  /// 'elif' is an If nested in the previous one's else: the chain is
  /// bounded like nesting, kMaxElifChain).
  StmtPtr parseIf(bool isElif, unsigned elifs = 0);
  StmtPtr parseFor();
  StmtPtr parseWhile();
  bool parseBlock(StmtList &out, const char *what, unsigned headerLine);
  void parseStatementsUntilDedent(StmtList &out);
  /// For a compound statement header at `tok()`, the name of the construct
  /// if a jit function cannot hold it.
  const char *unsupportedStatement() const;

  //===--------------------------------------------------------------------===//
  // Top level
  //===--------------------------------------------------------------------===//

  void parseTopLevelStatement();
  void parseDecorated();
  std::unique_ptr<FunctionDef> parseFunctionDef(ExprList decorators);
  bool parseImport(Import &imp);
  /// A top-level `try:` whose body holds imports (see the definition).
  bool parseTryImports();
  /// A top-level `if`/`elif`/`else` (version checks, feature tests): the
  /// definitions in its bodies are read with their conditions
  /// (ModuleGuard), for the code generator to decide.
  bool parseTopLevelIf();
  /// A module-level clause's block (from its `:`), its definitions under
  /// `guard` (nested ifs and trys keep their longer guards).
  void parseGuardedBlock(const ModuleGuard &guard);
  /// The conditions of the module-level ifs being read.
  ModuleGuard currentGuard;
  /// Adds a parsed top-level import to the module (`from triton import jit
  /// as j` also makes `j` a jit decorator name).
  void recordImport(Import imp);
  void skipTopLevel(const std::string &what);
  /// Parses an undecorated top-level `def` (host code) into
  /// Module::hostFunctions without diagnostics, then skips it like any other
  /// host code.
  void parseHostFunction();
  /// Records the names that tokens [from, to) change in place.
  void recordMutations(size_t from, size_t to);
  /// Parsing a host function's body: `try`, `raise` and imports are read
  /// (HostEval.cpp runs them); a jit function's body refuses them.
  bool hostBody = false;
  /// `try:` ... in a host function's body (at `try`).
  StmtPtr parseTry();
  /// Whether every decorator of a host function only caches its results
  /// (functools.cache, lru_cache(...), however imported from functools):
  /// its value is the function's.
  bool onlyCaches(const ExprList &decorators) const;
};

//===----------------------------------------------------------------------===//
// Skipping
//===----------------------------------------------------------------------===//

void Parser::skipStatement() {
  unsigned level = 0;
  size_t start = pos;
  while (!atEnd()) {
    const Token &t = tok();
    if (t.is(TokenKind::Indent)) {
      ++level;
    } else if (t.is(TokenKind::Dedent)) {
      if (level == 0) {
        // Always make progress when called on a stray DEDENT.
        if (pos == start)
          advance();
        return;
      }
      advance();
      if (--level == 0)
        return;
      continue;
    } else if (t.is(TokenKind::Newline)) {
      advance();
      if (level == 0) {
        if (tok().is(TokenKind::Indent)) {
          // The block of a compound statement.
          unsigned blockLevel = 0;
          do {
            if (tok().is(TokenKind::Indent))
              ++blockLevel;
            else if (tok().is(TokenKind::Dedent))
              --blockLevel;
            advance();
          } while (blockLevel > 0 && !atEnd());
        }
        return;
      }
      continue;
    }
    advance();
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool Parser::startsExpression() const {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Name:
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::Imaginary:
  case TokenKind::String:
    return true;
  case TokenKind::Keyword:
    return t.text == "True" || t.text == "False" || t.text == "None" ||
           t.text == "not" || t.text == "lambda" || t.text == "await";
  case TokenKind::Op:
    return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" ||
           t.text == "+" || t.text == "~" || t.text == "..." || t.text == "*";
  default:
    return false;
  }
}

/// expression: lambda | disjunction ['if' disjunction 'else' expression]
ExprPtr Parser::parseExpr() {
  // Depth is counted where the grammar recurses: brackets, unary operators,
  // operator chains, trailers, lambda bodies and `else` branches.
  DepthScope scope(*this);
  if (isKeyword("lambda"))
    return deeper() ? parseLambda() : nullptr;
  SourceLoc loc = tok().getLoc();
  ExprPtr body = parseOr();
  if (!body)
    return nullptr;
  if (!isKeyword("if"))
    return body;
  advance();
  auto e = std::make_unique<IfExp>(loc);
  e->body = std::move(body);
  e->test = parseOr();
  if (!e->test)
    return nullptr;
  if (!consumeKeyword("else")) {
    errorExpected("'else' in conditional expression");
    return nullptr;
  }
  if (!deeper())
    return nullptr;
  e->orelse = parseExpr();
  if (!e->orelse)
    return nullptr;
  return finish(std::move(e));
}

/// named_expression: expression, with `:=` rejected.
ExprPtr Parser::parseNamedExpr() {
  ExprPtr e = parseExpr();
  if (e && isOp(":=")) {
    unsupported(tok().getLoc(), "assignment expression ':='");
    return nullptr;
  }
  return e;
}

/// star_named_expression: '*' bitwise_or | named_expression
ExprPtr Parser::parseStarOrExpr() {
  if (!isOp("*"))
    return parseNamedExpr();
  SourceLoc loc = tok().getLoc();
  advance();
  auto s = std::make_unique<Starred>(loc);
  s->value = parseBinary(0);
  if (!s->value)
    return nullptr;
  return finish(std::move(s));
}

/// star_expressions: an expression, or a tuple without parentheses
/// (`a, b`, `a,`, `*a, b`).
ExprPtr Parser::parseStarExpressions() {
  SourceLoc loc = tok().getLoc();
  ExprPtr first = parseStarOrExpr();
  if (!first || !isOp(","))
    return first;
  auto t = std::make_unique<Tuple>(loc);
  t->elts.push_back(std::move(first));
  while (consumeOp(",")) {
    if (!startsExpression())
      break;
    ExprPtr e = parseStarOrExpr();
    if (!e)
      return nullptr;
    t->elts.push_back(std::move(e));
  }
  return finish(std::move(t));
}

/// The targets of `for` and comprehensions: `|`-level expressions, so that
/// `in` ends them (Python's star_targets).
ExprPtr Parser::parseTargetList() {
  SourceLoc loc = tok().getLoc();
  auto one = [&]() -> ExprPtr {
    if (!isOp("*"))
      return parseBinary(0);
    SourceLoc l = tok().getLoc();
    advance();
    auto s = std::make_unique<Starred>(l);
    s->value = parseBinary(0);
    if (!s->value)
      return nullptr;
    return finish(std::move(s));
  };
  ExprPtr first = one();
  if (!first || !isOp(","))
    return first;
  auto t = std::make_unique<Tuple>(loc);
  t->elts.push_back(std::move(first));
  while (consumeOp(",")) {
    if (isKeyword("in") || isOp("="))
      break;
    ExprPtr e = one();
    if (!e)
      return nullptr;
    t->elts.push_back(std::move(e));
  }
  return finish(std::move(t));
}

ExprPtr Parser::parseLambda() {
  SourceLoc loc = tok().getLoc();
  advance(); // lambda
  auto l = std::make_unique<Lambda>(loc);
  if (!parseParams(l->params, ":", /*allowAnnotations=*/false))
    return nullptr;
  if (!expectOp(":", " after lambda parameters"))
    return nullptr;
  l->body = parseExpr();
  if (!l->body)
    return nullptr;
  return finish(std::move(l));
}

ExprPtr Parser::parseOr() {
  SourceLoc loc = tok().getLoc();
  ExprPtr first = parseAnd();
  if (!first || !isKeyword("or"))
    return first;
  auto b = std::make_unique<BoolOp>(loc);
  b->op = BoolOpKind::Or;
  b->values.push_back(std::move(first));
  while (consumeKeyword("or")) {
    ExprPtr e = parseAnd();
    if (!e)
      return nullptr;
    b->values.push_back(std::move(e));
  }
  return finish(std::move(b));
}

ExprPtr Parser::parseAnd() {
  SourceLoc loc = tok().getLoc();
  ExprPtr first = parseNot();
  if (!first || !isKeyword("and"))
    return first;
  auto b = std::make_unique<BoolOp>(loc);
  b->op = BoolOpKind::And;
  b->values.push_back(std::move(first));
  while (consumeKeyword("and")) {
    ExprPtr e = parseNot();
    if (!e)
      return nullptr;
    b->values.push_back(std::move(e));
  }
  return finish(std::move(b));
}

ExprPtr Parser::parseNot() {
  if (!isKeyword("not"))
    return parseComparison();
  DepthScope scope(*this);
  if (!deeper())
    return nullptr;
  auto u = std::make_unique<UnaryOp>(tok().getLoc());
  advance();
  u->op = UnaryOpKind::Not;
  u->operand = parseNot();
  if (!u->operand)
    return nullptr;
  return finish(std::move(u));
}

ExprPtr Parser::parseComparison() {
  SourceLoc loc = tok().getLoc();
  ExprPtr first = parseBinary(0);
  if (!first)
    return nullptr;
  std::unique_ptr<Compare> cmp;
  while (true) {
    CmpOpKind op;
    const Token &t = tok();
    if (t.isOp("<"))
      op = CmpOpKind::Lt;
    else if (t.isOp(">"))
      op = CmpOpKind::Gt;
    else if (t.isOp("=="))
      op = CmpOpKind::Eq;
    else if (t.isOp(">="))
      op = CmpOpKind::GtE;
    else if (t.isOp("<="))
      op = CmpOpKind::LtE;
    else if (t.isOp("!="))
      op = CmpOpKind::NotEq;
    else if (t.isKeyword("in"))
      op = CmpOpKind::In;
    else if (t.isKeyword("not") && peekTok().isKeyword("in"))
      op = CmpOpKind::NotIn;
    else if (t.isKeyword("is"))
      op = peekTok().isKeyword("not") ? CmpOpKind::IsNot : CmpOpKind::Is;
    else
      break;
    advance();
    if (op == CmpOpKind::NotIn || op == CmpOpKind::IsNot)
      advance();
    if (!cmp) {
      cmp = std::make_unique<Compare>(loc);
      cmp->operands.push_back(std::move(first));
    }
    cmp->ops.push_back(op);
    ExprPtr rhs = parseBinary(0);
    if (!rhs)
      return nullptr;
    cmp->operands.push_back(std::move(rhs));
  }
  if (!cmp)
    return first;
  return finish(std::move(cmp));
}

/// The left-associative binary levels, loosest first: | ^ & shifts + -
/// and * / // % @. Level 6 is the unary `factor` rule.
ExprPtr Parser::parseBinary(unsigned level) {
  if (level == 6)
    return parseFactor();
  SourceLoc loc = tok().getLoc();
  ExprPtr lhs = parseBinary(level + 1);
  if (!lhs)
    return nullptr;
  DepthScope scope(*this);
  struct ChainScope {
    Parser &p;
    unsigned saved;
    ~ChainScope() { p.chain = saved; }
  } chainScope{*this, chain};
  while (true) {
    const Token &t = tok();
    if (!t.is(TokenKind::Op))
      break;
    std::string_view s = t.text;
    BinOpKind op;
    bool match = true;
    switch (level) {
    case 0:
      match = s == "|";
      op = BinOpKind::BitOr;
      break;
    case 1:
      match = s == "^";
      op = BinOpKind::BitXor;
      break;
    case 2:
      match = s == "&";
      op = BinOpKind::BitAnd;
      break;
    case 3:
      match = s == "<<" || s == ">>";
      op = s == "<<" ? BinOpKind::LShift : BinOpKind::RShift;
      break;
    case 4:
      match = s == "+" || s == "-";
      op = s == "+" ? BinOpKind::Add : BinOpKind::Sub;
      break;
    default:
      if (s == "*")
        op = BinOpKind::Mul;
      else if (s == "/")
        op = BinOpKind::Div;
      else if (s == "//")
        op = BinOpKind::FloorDiv;
      else if (s == "%")
        op = BinOpKind::Mod;
      else if (s == "@")
        op = BinOpKind::MatMul;
      else
        match = false;
    }
    if (!match)
      break;
    // Each operator of a chain deepens the tree one level (consumers
    // recurse over it), but a flat chain is not source nesting: it has its
    // own, larger limit.
    if (++chain > kMaxChainLength) {
      error(tok().getLoc(), "chain of binary operators longer than " +
                                std::to_string(kMaxChainLength) +
                                " (split it into several statements)");
      return nullptr;
    }
    advance();
    ExprPtr rhs = parseBinary(level + 1);
    if (!rhs)
      return nullptr;
    auto b = std::make_unique<BinOp>(loc);
    b->op = op;
    b->lhs = std::move(lhs);
    b->rhs = std::move(rhs);
    lhs = finish(std::move(b));
  }
  return lhs;
}

/// factor: ('+' | '-' | '~') factor | power
ExprPtr Parser::parseFactor() {
  if (!isOp("+") && !isOp("-") && !isOp("~"))
    return parsePower();
  DepthScope scope(*this);
  if (!deeper())
    return nullptr;
  auto u = std::make_unique<UnaryOp>(tok().getLoc());
  u->op = isOp("+")   ? UnaryOpKind::Plus
          : isOp("-") ? UnaryOpKind::Minus
                      : UnaryOpKind::Invert;
  advance();
  u->operand = parseFactor();
  if (!u->operand)
    return nullptr;
  return finish(std::move(u));
}

/// power: primary ['**' factor]; the right operand is a factor, so `**` is
/// right-associative and `-x**2` is `-(x**2)` while `2**-1` is `2**(-1)`.
ExprPtr Parser::parsePower() {
  if (isKeyword("await")) {
    unsupported(tok().getLoc(), "'await' expression");
    return nullptr;
  }
  SourceLoc loc = tok().getLoc();
  ExprPtr base = parsePrimary();
  if (!base || !isOp("**"))
    return base;
  DepthScope scope(*this);
  if (!deeper())
    return nullptr;
  advance();
  auto b = std::make_unique<BinOp>(loc);
  b->op = BinOpKind::Pow;
  b->lhs = std::move(base);
  b->rhs = parseFactor();
  if (!b->rhs)
    return nullptr;
  return finish(std::move(b));
}

/// primary: atom ('.' NAME | '(' args ')' | '[' slices ']')*
ExprPtr Parser::parsePrimary() {
  SourceLoc loc = tok().getLoc();
  ExprPtr e = parseAtom();
  if (!e)
    return nullptr;
  DepthScope scope(*this);
  while (true) {
    if (isOp(".")) {
      if (!deeper())
        return nullptr;
      advance();
      if (!tok().is(TokenKind::Name)) {
        errorExpected("attribute name after '.'");
        return nullptr;
      }
      auto a = std::make_unique<Attribute>(loc);
      a->value = std::move(e);
      a->attr = std::string(tok().text);
      advance();
      e = finish(std::move(a));
    } else if (isOp("(")) {
      if (!deeper())
        return nullptr;
      advance();
      auto c = std::make_unique<Call>(loc);
      c->func = std::move(e);
      if (!parseCallArgs(*c))
        return nullptr;
      e = finish(std::move(c));
    } else if (isOp("[")) {
      if (!deeper())
        return nullptr;
      advance();
      auto s = std::make_unique<Subscript>(loc);
      s->value = std::move(e);
      if (!parseSubscriptIndices(*s))
        return nullptr;
      e = finish(std::move(s));
    } else {
      return e;
    }
  }
}

bool Parser::parseCallArgs(Call &call) {
  bool sawKeyword = false;
  while (!isOp(")")) {
    SourceLoc loc = tok().getLoc();
    if (isOp("**")) {
      advance();
      Keyword kw;
      kw.loc = loc;
      kw.value = parseExpr();
      if (!kw.value)
        return false;
      call.keywords.push_back(std::move(kw));
      sawKeyword = true;
    } else if (isOp("*")) {
      ExprPtr s = parseStarOrExpr();
      if (!s)
        return false;
      call.args.push_back(std::move(s));
    } else if (tok().is(TokenKind::Name) && peekTok().isOp("=")) {
      Keyword kw;
      kw.loc = loc;
      kw.name = std::string(tok().text);
      advance();
      advance();
      kw.value = parseExpr();
      if (!kw.value)
        return false;
      call.keywords.push_back(std::move(kw));
      sawKeyword = true;
    } else {
      if (sawKeyword) {
        error(loc, "positional argument follows keyword argument");
        return false;
      }
      ExprPtr arg = parseNamedExpr();
      if (!arg)
        return false;
      if (isKeyword("for") || isKeyword("async")) {
        // A generator as the argument: `sum(x for x in y)`.
        auto comp = std::make_unique<Comprehension>(loc);
        comp->comprehensionKind = Comprehension::Kind::Generator;
        comp->elt = std::move(arg);
        if (!parseComprehensionFors(*comp, ")", /*keepCloser=*/true))
          return false;
        arg = finish(std::move(comp));
      }
      call.args.push_back(std::move(arg));
    }
    if (!consumeOp(",")) {
      if (!isOp(")")) {
        errorExpected("',' or ')' in argument list");
        return false;
      }
    }
  }
  advance(); // )
  return true;
}

ExprPtr Parser::parseSliceItem() {
  SourceLoc loc = tok().getLoc();
  ExprPtr lower;
  if (!isOp(":")) {
    lower = parseStarOrExpr();
    if (!lower)
      return nullptr;
    if (!isOp(":"))
      return lower;
  }
  advance(); // :
  auto s = std::make_unique<Slice>(loc);
  s->lower = std::move(lower);
  auto endsPart = [&] { return isOp(":") || isOp(",") || isOp("]"); };
  if (!endsPart()) {
    s->upper = parseExpr();
    if (!s->upper)
      return nullptr;
  }
  if (consumeOp(":") && !isOp(",") && !isOp("]")) {
    s->step = parseExpr();
    if (!s->step)
      return nullptr;
  }
  return finish(std::move(s));
}

bool Parser::parseSubscriptIndices(Subscript &sub) {
  if (isOp("]")) {
    errorExpected("index expression");
    return false;
  }
  while (true) {
    ExprPtr item = parseSliceItem();
    if (!item)
      return false;
    sub.indices.push_back(std::move(item));
    if (consumeOp(",")) {
      sub.isTuple = true;
      if (isOp("]"))
        break;
      continue;
    }
    if (isOp("]"))
      break;
    errorExpected("',' or ']' in subscript");
    return false;
  }
  advance(); // ]
  return true;
}

bool Parser::parseComprehensionFors(Comprehension &comp,
                                    std::string_view closer, bool keepCloser) {
  while (isKeyword("for") || isKeyword("async")) {
    ComprehensionFor gen;
    if (consumeKeyword("async"))
      gen.isAsync = true;
    if (!consumeKeyword("for")) {
      errorExpected("'for' after 'async'");
      return false;
    }
    gen.target = parseTargetList();
    if (!gen.target || !checkTarget(*gen.target, false))
      return false;
    if (!consumeKeyword("in")) {
      errorExpected("'in' in comprehension");
      return false;
    }
    gen.iter = parseOr();
    if (!gen.iter)
      return false;
    while (consumeKeyword("if")) {
      ExprPtr cond = parseOr();
      if (!cond)
        return false;
      gen.ifs.push_back(std::move(cond));
    }
    comp.generators.push_back(std::move(gen));
  }
  if (!isOp(closer)) {
    errorExpected("'" + std::string(closer) + "' after comprehension");
    return false;
  }
  if (!keepCloser)
    advance();
  return true;
}

ExprPtr Parser::parseParenthesized() {
  SourceLoc loc = tok().getLoc();
  advance(); // (
  if (consumeOp(")")) {
    auto t = std::make_unique<Tuple>(loc);
    t->parenthesized = true;
    return finish(std::move(t));
  }
  if (isKeyword("yield")) {
    unsupported(tok().getLoc(), "'yield' expression");
    return nullptr;
  }
  ExprPtr first = parseStarOrExpr();
  if (!first)
    return nullptr;
  if (isKeyword("for") || isKeyword("async")) {
    auto comp = std::make_unique<Comprehension>(loc);
    comp->comprehensionKind = Comprehension::Kind::Generator;
    comp->elt = std::move(first);
    if (!parseComprehensionFors(*comp, ")"))
      return nullptr;
    return finish(std::move(comp));
  }
  if (consumeOp(")"))
    return first; // a parenthesized expression, not a tuple
  if (!isOp(",")) {
    errorExpected("',' or ')' after expression");
    return nullptr;
  }
  auto t = std::make_unique<Tuple>(loc);
  t->parenthesized = true;
  t->elts.push_back(std::move(first));
  while (consumeOp(",")) {
    if (isOp(")"))
      break;
    ExprPtr e = parseStarOrExpr();
    if (!e)
      return nullptr;
    t->elts.push_back(std::move(e));
  }
  if (!expectOp(")", " to close tuple"))
    return nullptr;
  return finish(std::move(t));
}

ExprPtr Parser::parseListDisplay() {
  SourceLoc loc = tok().getLoc();
  advance(); // [
  auto list = std::make_unique<List>(loc);
  if (consumeOp("]"))
    return finish(std::move(list));
  ExprPtr first = parseStarOrExpr();
  if (!first)
    return nullptr;
  if (isKeyword("for") || isKeyword("async")) {
    auto comp = std::make_unique<Comprehension>(loc);
    comp->comprehensionKind = Comprehension::Kind::List;
    comp->elt = std::move(first);
    if (!parseComprehensionFors(*comp, "]"))
      return nullptr;
    return finish(std::move(comp));
  }
  list->elts.push_back(std::move(first));
  while (consumeOp(",")) {
    if (isOp("]"))
      break;
    ExprPtr e = parseStarOrExpr();
    if (!e)
      return nullptr;
    list->elts.push_back(std::move(e));
  }
  if (!expectOp("]", " to close list"))
    return nullptr;
  return finish(std::move(list));
}

ExprPtr Parser::parseBraceDisplay() {
  SourceLoc loc = tok().getLoc();
  advance(); // {
  if (consumeOp("}")) {
    auto d = std::make_unique<Dict>(loc);
    return finish(std::move(d));
  }
  // The first entry decides: `k: v` or `**m` make a dict, else a set.
  ExprPtr firstKey, firstValue;
  if (consumeOp("**")) {
    firstValue = parseBinary(0);
    if (!firstValue)
      return nullptr;
  } else {
    firstKey = parseStarOrExpr();
    if (!firstKey)
      return nullptr;
    if (consumeOp(":")) {
      firstValue = parseExpr();
      if (!firstValue)
        return nullptr;
    }
  }
  if (!firstValue) {
    // A set, or a set comprehension.
    if (isKeyword("for") || isKeyword("async")) {
      auto comp = std::make_unique<Comprehension>(loc);
      comp->comprehensionKind = Comprehension::Kind::Set;
      comp->elt = std::move(firstKey);
      if (!parseComprehensionFors(*comp, "}"))
        return nullptr;
      return finish(std::move(comp));
    }
    auto set = std::make_unique<Set>(loc);
    set->elts.push_back(std::move(firstKey));
    while (consumeOp(",")) {
      if (isOp("}"))
        break;
      ExprPtr e = parseStarOrExpr();
      if (!e)
        return nullptr;
      set->elts.push_back(std::move(e));
    }
    if (!expectOp("}", " to close set"))
      return nullptr;
    return finish(std::move(set));
  }
  if (firstKey && (isKeyword("for") || isKeyword("async"))) {
    auto comp = std::make_unique<Comprehension>(loc);
    comp->comprehensionKind = Comprehension::Kind::Dict;
    comp->elt = std::move(firstKey);
    comp->value = std::move(firstValue);
    if (!parseComprehensionFors(*comp, "}"))
      return nullptr;
    return finish(std::move(comp));
  }
  auto dict = std::make_unique<Dict>(loc);
  dict->keys.push_back(std::move(firstKey));
  dict->values.push_back(std::move(firstValue));
  while (consumeOp(",")) {
    if (isOp("}"))
      break;
    ExprPtr key, value;
    if (consumeOp("**")) {
      value = parseBinary(0);
    } else {
      key = parseExpr();
      if (!key)
        return nullptr;
      if (!expectOp(":", " after dict key"))
        return nullptr;
      value = parseExpr();
    }
    if (!value)
      return nullptr;
    dict->keys.push_back(std::move(key));
    dict->values.push_back(std::move(value));
  }
  if (!expectOp("}", " to close dict"))
    return nullptr;
  return finish(std::move(dict));
}

ExprPtr Parser::parseNumber() {
  const Token &t = tok();
  SourceLoc loc = t.getLoc();
  std::string clean = stripUnderscores(t.text);
  if (t.is(TokenKind::Int)) {
    auto lit = std::make_unique<IntLiteral>(loc);
    lit->text = std::string(t.text);
    unsigned base = 10;
    size_t i = 0;
    if (clean.size() > 1 && clean[0] == '0') {
      char p = clean[1] | 0x20;
      base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
      if (base != 10)
        i = 2;
    }
    uint64_t value = 0;
    const uint64_t max = uint64_t(std::numeric_limits<int64_t>::max());
    for (; i < clean.size(); ++i) {
      int d = hexValue(clean[i]);
      if (d < 0 || unsigned(d) >= base)
        break; // malformed; the lexer has reported it
      if (value > (max - d) / base) {
        lit->overflow = true;
        break;
      }
      value = value * base + d;
    }
    lit->value = lit->overflow ? 0 : int64_t(value);
    advance();
    return finish(std::move(lit));
  }
  auto lit = std::make_unique<FloatLiteral>(loc);
  lit->text = std::string(t.text);
  lit->isImaginary = t.is(TokenKind::Imaginary);
  if (lit->isImaginary && !clean.empty())
    clean.pop_back(); // j
  lit->value = std::strtod(clean.c_str(), nullptr);
  advance();
  return finish(std::move(lit));
}

ExprPtr Parser::parseStrings() {
  auto lit = std::make_unique<StringLiteral>(tok().getLoc());
  bool first = true;
  while (tok().is(TokenKind::String)) {
    const Token &t = tok();
    std::string_view text = t.text;
    size_t q = text.find_first_of("'\"");
    std::string_view prefix = text.substr(0, q);
    bool raw = false, bytes = false, fstr = false;
    for (char c : prefix) {
      char l = c | 0x20;
      raw |= l == 'r';
      bytes |= l == 'b';
      fstr |= l == 'f' || l == 't';
    }
    if (!first && bytes != lit->isBytes) {
      error(t.getLoc(), "cannot mix bytes and nonbytes literals");
      return nullptr;
    }
    lit->isBytes = bytes;
    lit->parts.push_back(std::string(text));
    if (fstr)
      lit->isFString = true;
    std::string_view body = text.substr(q == std::string_view::npos ? 0 : q);
    size_t quoteLen = body.size() >= 6 && body[0] == body[1] &&
                              body[1] == body[2]
                          ? 3
                          : 1;
    if (body.size() >= 2 * quoteLen)
      body = body.substr(quoteLen, body.size() - 2 * quoteLen);
    else
      body = body.substr(std::min(quoteLen, body.size())); // unterminated
    if (!lit->isFString)
      lit->value += raw ? std::string(body) : decodeEscapes(body, bytes);
    first = false;
    advance();
  }
  if (lit->isFString) {
    lit->value.clear();
    for (const std::string &p : lit->parts)
      lit->value += p;
  }
  return finish(std::move(lit));
}

ExprPtr Parser::parseAtom() {
  const Token &t = tok();
  SourceLoc loc = t.getLoc();
  switch (t.kind) {
  case TokenKind::Name: {
    auto n = std::make_unique<Name>(loc);
    n->id = std::string(t.text);
    advance();
    return finish(std::move(n));
  }
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::Imaginary:
    return parseNumber();
  case TokenKind::String:
    return parseStrings();
  case TokenKind::Keyword:
    if (t.text == "True" || t.text == "False") {
      auto b = std::make_unique<BoolLiteral>(loc);
      b->value = t.text == "True";
      advance();
      return finish(std::move(b));
    }
    if (t.text == "None") {
      advance();
      return finish(std::make_unique<NoneLiteral>(loc));
    }
    if (t.text == "yield") {
      unsupported(loc, "'yield' expression");
      return nullptr;
    }
    break;
  case TokenKind::Op: {
    DepthScope scope(*this);
    if (t.text == "(" || t.text == "[" || t.text == "{") {
      if (!deeper())
        return nullptr;
      if (t.text == "(")
        return parseParenthesized();
      if (t.text == "[")
        return parseListDisplay();
      return parseBraceDisplay();
    }
    if (t.text == "...") {
      advance();
      return finish(std::make_unique<EllipsisLiteral>(loc));
    }
    break;
  }
  default:
    break;
  }
  errorExpected("expression");
  return nullptr;
}

bool Parser::parseParams(std::vector<Param> &params, std::string_view closer,
                         bool allowAnnotations) {
  bool keywordOnly = false, sawDefault = false, sawKwArgs = false;
  std::string listName =
      closer == ")" ? "parameter list" : "lambda parameter list";
  while (!isOp(closer)) {
    SourceLoc loc = tok().getLoc();
    if (sawKwArgs) {
      error(loc, "parameter follows '**' parameter");
      return false;
    }
    if (consumeOp("/")) {
      bool any = false;
      for (Param &p : params)
        if (p.kind == Param::Kind::Positional) {
          p.kind = Param::Kind::PositionalOnly;
          any = true;
        }
      if (!any || keywordOnly) {
        error(loc, "'/' must follow at least one positional parameter");
        return false;
      }
    } else {
      Param p;
      p.loc = loc;
      p.kind = keywordOnly ? Param::Kind::KeywordOnly : Param::Kind::Positional;
      bool bareStar = false;
      if (consumeOp("**")) {
        p.kind = Param::Kind::KwArgs;
        sawKwArgs = true;
      } else if (consumeOp("*")) {
        if (keywordOnly) {
          error(loc, "'*' parameter appears twice");
          return false;
        }
        keywordOnly = true;
        bareStar = isOp(",") || isOp(closer);
        p.kind = Param::Kind::VarArgs;
      }
      if (!bareStar) {
        if (!tok().is(TokenKind::Name)) {
          errorExpected("parameter name");
          return false;
        }
        p.name = std::string(tok().text);
        advance();
        if (allowAnnotations && consumeOp(":")) {
          p.annotation = parseExpr();
          if (!p.annotation)
            return false;
        }
        if (consumeOp("=")) {
          if (p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::KwArgs) {
            error(loc, "variadic parameter cannot have a default value");
            return false;
          }
          p.defaultValue = parseExpr();
          if (!p.defaultValue)
            return false;
          if (p.kind != Param::Kind::KeywordOnly)
            sawDefault = true;
        } else if (sawDefault && p.kind == Param::Kind::Positional) {
          error(loc, "parameter without a default follows parameter with a "
                     "default");
          return false;
        }
        params.push_back(std::move(p));
      }
    }
    if (!consumeOp(",")) {
      if (!isOp(closer)) {
        errorExpected("',' or '" + std::string(closer) + "' in " + listName);
        return false;
      }
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// What Python calls an expression that cannot be assigned to.
const char *describeNonTarget(const Expr &e) {
  switch (e.getKind()) {
  case ExprKind::Int:
  case ExprKind::Float:
    return "literal";
  case ExprKind::String:
    return cast<StringLiteral>(e).isFString ? "f-string expression"
                                            : "literal";
  case ExprKind::Bool:
    return cast<BoolLiteral>(e).value ? "True" : "False";
  case ExprKind::None: return "None";
  case ExprKind::Ellipsis: return "ellipsis";
  case ExprKind::Call: return "function call";
  case ExprKind::Compare: return "comparison";
  case ExprKind::IfExp: return "conditional expression";
  case ExprKind::Lambda: return "lambda";
  case ExprKind::Dict: return "dict literal";
  case ExprKind::Set: return "set display";
  case ExprKind::Comprehension: return "comprehension";
  case ExprKind::Slice: return "slice";
  default: return "expression";
  }
}

bool Parser::checkTarget(const Expr &target, bool augmented) {
  switch (target.getKind()) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript:
    return true;
  case ExprKind::Tuple:
  case ExprKind::List: {
    if (augmented) {
      error(target.loc, std::string("'") +
                            (isa<Tuple>(target) ? "tuple" : "list") +
                            "' is an illegal expression for augmented "
                            "assignment");
      return false;
    }
    const ExprList &elts = isa<Tuple>(target) ? cast<Tuple>(target).elts
                                               : cast<List>(target).elts;
    for (const ExprPtr &e : elts)
      if (!checkTarget(*e, false))
        return false;
    return true;
  }
  case ExprKind::Starred:
    if (augmented) {
      error(target.loc, "'starred' is an illegal expression for augmented "
                        "assignment");
      return false;
    }
    return checkTarget(*cast<Starred>(target).value, false);
  case ExprKind::String:
    error(target.loc, std::string("cannot assign to ") +
                          (cast<StringLiteral>(target).isFString
                               ? "f-string expression"
                               : "literal"));
    return false;
  case ExprKind::Int:
  case ExprKind::Float:
    error(target.loc, "cannot assign to literal");
    return false;
  default:
    error(target.loc, std::string("cannot assign to ") +
                          describeNonTarget(target));
    return false;
  }
}

const char *Parser::unsupportedStatement() const {
  const Token &t = tok();
  if (t.isOp("@"))
    return "decorated nested function";
  if (!t.is(TokenKind::Keyword))
    return nullptr;
  std::string_view k = t.text;
  if (hostBody && (k == "try" || k == "raise" || k == "import" || k == "from"))
    return nullptr;
  if (k == "def") return "nested function definition";
  if (k == "class") return "'class' definition";
  if (k == "with") return "'with' statement";
  if (k == "try") return "'try' statement";
  if (k == "async") return "'async' statement";
  if (k == "import") return "'import' statement";
  if (k == "from") return "'from' import";
  if (k == "global") return "'global' statement";
  if (k == "nonlocal") return "'nonlocal' statement";
  if (k == "del") return "'del' statement";
  if (k == "raise") return "'raise' statement";
  if (k == "yield") return "'yield' expression";
  return nullptr;
}

void Parser::parseStatement(StmtList &out) {
  if (const char *what = unsupportedStatement()) {
    bool isTry = isKeyword("try");
    unsupported(tok().getLoc(), what);
    if (isTry) {
      // One error for the whole statement, its clauses included.
      skipStatement();
      while (isKeyword("except") || isKeyword("else") || isKeyword("finally"))
        skipStatement();
      panic = false;
    }
    return;
  }
  if (tok().is(TokenKind::Indent)) {
    error(tok().getLoc(), "unexpected indent");
    return;
  }
  StmtPtr s;
  if (hostBody && (isKeyword("import") || isKeyword("from"))) {
    auto imp = std::make_unique<ImportStmt>(tok().getLoc());
    if (!parseImport(imp->import)) {
      errorExpected("an import statement");
      return;
    }
    imp->endLoc = lastRealEnd();
    out.push_back(std::move(imp));
    return;
  }
  if (isKeyword("if"))
    s = parseIf(false);
  else if (isKeyword("try"))
    s = parseTry();
  else if (isKeyword("for"))
    s = parseFor();
  else if (isKeyword("while"))
    s = parseWhile();
  else if (isKeyword("elif") || isKeyword("else") || isKeyword("except") ||
           isKeyword("finally")) {
    error(tok().getLoc(), "unexpected '" + std::string(tok().text) +
                              "' without a matching statement");
    return;
  } else {
    parseSimpleStatements(out);
    return;
  }
  if (s)
    out.push_back(std::move(s));
}

void Parser::parseSimpleStatements(StmtList &out) {
  while (true) {
    StmtPtr s = parseSmallStatement();
    if (!s)
      return;
    out.push_back(std::move(s));
    if (consumeOp(";")) {
      if (tok().is(TokenKind::Newline))
        break;
      continue;
    }
    break;
  }
  if (!tok().is(TokenKind::Newline)) {
    errorExpected("newline after statement");
    return;
  }
  advance();
}

StmtPtr Parser::parseSmallStatement() {
  const Token &t = tok();
  SourceLoc loc = t.getLoc();
  if (const char *what = unsupportedStatement()) {
    unsupported(loc, what);
    return nullptr;
  }
  if (t.isKeyword("pass")) {
    advance();
    return finish(std::make_unique<Pass>(loc));
  }
  if (t.isKeyword("raise")) {
    advance();
    auto r = std::make_unique<Raise>(loc);
    if (!tok().is(TokenKind::Newline) && !isOp(";")) {
      r->exc = parseNamedExpr();
      if (!r->exc)
        return nullptr;
      if (consumeKeyword("from") && !parseNamedExpr())
        return nullptr;
    }
    return finish(std::move(r));
  }
  if (t.isKeyword("break")) {
    advance();
    return finish(std::make_unique<Break>(loc));
  }
  if (t.isKeyword("continue")) {
    advance();
    return finish(std::make_unique<Continue>(loc));
  }
  if (t.isKeyword("return")) {
    advance();
    auto r = std::make_unique<Return>(loc);
    if (!tok().is(TokenKind::Newline) && !isOp(";")) {
      r->value = parseStarExpressions();
      if (!r->value)
        return nullptr;
    }
    return finish(std::move(r));
  }
  if (t.isKeyword("assert")) {
    advance();
    auto a = std::make_unique<Assert>(loc);
    a->test = parseNamedExpr();
    if (!a->test)
      return nullptr;
    if (consumeOp(",")) {
      a->msg = parseExpr();
      if (!a->msg)
        return nullptr;
    }
    return finish(std::move(a));
  }
  return parseExprOrAssign();
}

StmtPtr Parser::parseExprOrAssign() {
  SourceLoc loc = tok().getLoc();
  if (!startsExpression()) {
    errorExpected("statement");
    return nullptr;
  }
  ExprPtr first = parseStarExpressions();
  if (!first)
    return nullptr;

  if (isOp(":")) {
    advance();
    if (!isa<Name>(first.get()) && !isa<Attribute>(first.get()) &&
        !isa<Subscript>(first.get())) {
      error(first->loc, isa<Tuple>(first.get())
                            ? "only single target (not tuple) can be annotated"
                            : std::string("illegal target for annotation"));
      return nullptr;
    }
    auto a = std::make_unique<AnnAssign>(loc);
    a->target = std::move(first);
    a->annotation = parseExpr();
    if (!a->annotation)
      return nullptr;
    if (consumeOp("=")) {
      a->value = parseStarExpressions();
      if (!a->value)
        return nullptr;
    }
    return finish(std::move(a));
  }

  static const std::pair<const char *, BinOpKind> kAugOps[] = {
      {"+=", BinOpKind::Add},      {"-=", BinOpKind::Sub},
      {"*=", BinOpKind::Mul},      {"/=", BinOpKind::Div},
      {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
      {"@=", BinOpKind::MatMul},   {"**=", BinOpKind::Pow},
      {"<<=", BinOpKind::LShift},  {">>=", BinOpKind::RShift},
      {"|=", BinOpKind::BitOr},    {"^=", BinOpKind::BitXor},
      {"&=", BinOpKind::BitAnd}};
  for (const auto &[spelling, op] : kAugOps) {
    if (!isOp(spelling))
      continue;
    if (!checkTarget(*first, /*augmented=*/true))
      return nullptr;
    advance();
    auto a = std::make_unique<AugAssign>(loc);
    a->target = std::move(first);
    a->op = op;
    if (isKeyword("yield")) {
      unsupported(tok().getLoc(), "'yield' expression");
      return nullptr;
    }
    a->value = parseStarExpressions();
    if (!a->value)
      return nullptr;
    return finish(std::move(a));
  }

  if (isOp("=")) {
    auto a = std::make_unique<Assign>(loc);
    ExprPtr last = std::move(first);
    while (consumeOp("=")) {
      if (!checkTarget(*last, false))
        return nullptr;
      a->targets.push_back(std::move(last));
      if (isKeyword("yield")) {
        unsupported(tok().getLoc(), "'yield' expression");
        return nullptr;
      }
      last = parseStarExpressions();
      if (!last)
        return nullptr;
    }
    a->value = std::move(last);
    return finish(std::move(a));
  }

  auto e = std::make_unique<ExprStmt>(loc);
  e->value = std::move(first);
  return finish(std::move(e));
}

void Parser::parseStatementsUntilDedent(StmtList &out) {
  while (!atEnd() && !tok().is(TokenKind::Dedent)) {
    size_t before = pos;
    if (tok().is(TokenKind::Newline)) {
      advance();
      continue;
    }
    parseStatement(out);
    if (panic) {
      if (pos == before || !tok().is(TokenKind::Dedent))
        skipStatement();
      panic = false;
    }
    if (pos == before)
      advance(); // never loop in place
  }
}

bool Parser::parseBlock(StmtList &out, const char *what, unsigned headerLine) {
  if (!tok().is(TokenKind::Newline)) {
    // The body on the header's line: `if x: return y`.
    if (const char *what = unsupportedStatement()) {
      unsupported(tok().getLoc(), what);
      return false;
    }
    if (isKeyword("if") || isKeyword("for") || isKeyword("while")) {
      errorExpected("simple statement after ':'");
      return false;
    }
    parseSimpleStatements(out);
    return !panic;
  }
  if (!peekTok().is(TokenKind::Indent)) {
    const Token &next = peekTok();
    error(next.getLoc(), std::string("expected an indented block after ") +
                             what + " on line " + std::to_string(headerLine));
    return false;
  }
  advance(); // NEWLINE
  advance(); // INDENT
  parseStatementsUntilDedent(out);
  if (tok().is(TokenKind::Dedent))
    advance();
  return true;
}

StmtPtr Parser::parseIf(bool isElif, unsigned elifs) {
  SourceLoc loc = tok().getLoc();
  if (elifs > kMaxElifChain) {
    error(loc, "'if' statement with more than " +
                   std::to_string(kMaxElifChain) +
                   " 'elif' branches (the limit; each is a nested 'if')");
    return nullptr;
  }
  const char *keyword = isElif ? "'elif'" : "'if'";
  advance();
  auto s = std::make_unique<If>(loc);
  s->isElif = isElif;
  s->test = parseNamedExpr();
  if (!s->test)
    return nullptr;
  if (!expectOp(":", std::string(" after ") + keyword + " condition"))
    return nullptr;
  if (!parseBlock(s->body, isElif ? "'elif' statement" : "'if' statement",
                  loc.line))
    return nullptr;
  if (isKeyword("elif")) {
    StmtPtr elif = parseIf(true, elifs + 1);
    if (!elif)
      return nullptr;
    s->orelse.push_back(std::move(elif));
  } else if (isKeyword("else")) {
    unsigned line = tok().line;
    advance();
    if (!expectOp(":", " after 'else'"))
      return nullptr;
    if (!parseBlock(s->orelse, "'else' statement", line))
      return nullptr;
  }
  s->endLoc = lastRealEnd();
  return s;
}

StmtPtr Parser::parseFor() {
  SourceLoc loc = tok().getLoc();
  advance();
  auto s = std::make_unique<For>(loc);
  s->target = parseTargetList();
  if (!s->target || !checkTarget(*s->target, false))
    return nullptr;
  if (!consumeKeyword("in")) {
    errorExpected("'in' after 'for' target");
    return nullptr;
  }
  s->iter = parseStarExpressions();
  if (!s->iter)
    return nullptr;
  if (!expectOp(":", " after 'for' iterable"))
    return nullptr;
  if (!parseBlock(s->body, "'for' statement", loc.line))
    return nullptr;
  if (isKeyword("else")) {
    unsigned line = tok().line;
    advance();
    if (!expectOp(":", " after 'else'"))
      return nullptr;
    if (!parseBlock(s->orelse, "'else' statement", line))
      return nullptr;
  }
  s->endLoc = lastRealEnd();
  return s;
}

StmtPtr Parser::parseWhile() {
  SourceLoc loc = tok().getLoc();
  advance();
  auto s = std::make_unique<While>(loc);
  s->test = parseNamedExpr();
  if (!s->test)
    return nullptr;
  if (!expectOp(":", " after 'while' condition"))
    return nullptr;
  if (!parseBlock(s->body, "'while' statement", loc.line))
    return nullptr;
  if (isKeyword("else")) {
    unsigned line = tok().line;
    advance();
    if (!expectOp(":", " after 'else'"))
      return nullptr;
    if (!parseBlock(s->orelse, "'else' statement", line))
      return nullptr;
  }
  s->endLoc = lastRealEnd();
  return s;
}

StmtPtr Parser::parseTry() {
  SourceLoc loc = tok().getLoc();
  advance(); // try
  auto s = std::make_unique<Try>(loc);
  if (!expectOp(":", " after 'try'") ||
      !parseBlock(s->body, "'try' statement", loc.line))
    return nullptr;
  while (isKeyword("except")) {
    ExceptHandler h;
    h.loc = tok().getLoc();
    advance();
    if (isOp("*")) {
      error(tok().getLoc(), "unsupported: 'except*'");
      return nullptr;
    }
    if (!isOp(":")) {
      h.type = parseNamedExpr();
      if (!h.type)
        return nullptr;
      if (consumeKeyword("as")) {
        if (!tok().is(TokenKind::Name)) {
          errorExpected("a name after 'as'");
          return nullptr;
        }
        h.name = std::string(tok().text);
        advance();
      }
    }
    if (!expectOp(":", " after 'except' clause") ||
        !parseBlock(h.body, "'except' clause", h.loc.line))
      return nullptr;
    s->handlers.push_back(std::move(h));
  }
  if (isKeyword("else") && !s->handlers.empty()) {
    unsigned line = tok().line;
    advance();
    if (!expectOp(":", " after 'else'") ||
        !parseBlock(s->orelse, "'else' statement", line))
      return nullptr;
  }
  if (isKeyword("finally")) {
    unsigned line = tok().line;
    advance();
    if (!expectOp(":", " after 'finally'") ||
        !parseBlock(s->finalbody, "'finally' clause", line))
      return nullptr;
  }
  if (s->handlers.empty() && s->finalbody.empty()) {
    errorExpected("'except' or 'finally' after a 'try' block");
    return nullptr;
  }
  s->endLoc = lastRealEnd();
  return s;
}

bool Parser::onlyCaches(const ExprList &decorators) const {
  if (decorators.empty())
    return false;
  auto isCache = [](std::string_view n) {
    return n == "cache" || n == "lru_cache";
  };
  for (const ExprPtr &d : decorators) {
    if (!d)
      return false;
    const Expr *e = d.get();
    if (auto *c = dyn_cast<Call>(e)) // lru_cache(maxsize=1)
      e = c->func.get();
    bool ok = false;
    // `from functools import cache [as c]` / `import functools [as ft]`,
    // as imported so far (a same-named function of the module is not it).
    for (const Import &imp : module->imports)
      for (const Import::Alias &a : imp.names) {
        if (auto *n = dyn_cast<Name>(e))
          ok |= imp.isFrom && imp.level == 0 && imp.module == "functools" &&
                isCache(a.name) && imp.boundName(a) == n->id;
        else if (auto *at = dyn_cast<Attribute>(e))
          if (auto *base = dyn_cast<Name>(at->value.get()))
            ok |= !imp.isFrom && a.name == "functools" &&
                  imp.boundName(a) == base->id && isCache(at->attr);
      }
    if (!ok)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Top level
//===----------------------------------------------------------------------===//

std::unique_ptr<FunctionDef> Parser::parseFunctionDef(ExprList decorators) {
  auto fn = std::make_unique<FunctionDef>();
  fn->loc = tok().getLoc();
  fn->decorators = std::move(decorators);
  advance(); // def
  if (!tok().is(TokenKind::Name)) {
    errorExpected("function name after 'def'");
    return nullptr;
  }
  fn->name = std::string(tok().text);
  advance();
  if (!expectOp("(", " after function name"))
    return nullptr;
  if (!parseParams(fn->params, ")", /*allowAnnotations=*/true))
    return nullptr;
  // Python's SyntaxError.
  for (size_t i = 0; i < fn->params.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (fn->params[i].name == fn->params[j].name) {
        error(fn->params[i].loc, "duplicate argument '" + fn->params[i].name +
                                     "' in function definition");
        return nullptr;
      }
  advance(); // )
  if (consumeOp("->")) {
    fn->returns = parseExpr();
    if (!fn->returns)
      return nullptr;
  }
  if (!expectOp(":", " after function signature"))
    return nullptr;
  if (!parseBlock(fn->body, "function definition", fn->loc.line))
    return nullptr;
  fn->endLoc = lastRealEnd();
  return fn;
}

bool Parser::parseImport(Import &imp) {
  imp.loc = tok().getLoc();
  auto dotted = [&](std::string &out) {
    if (!tok().is(TokenKind::Name))
      return false;
    out = std::string(tok().text);
    advance();
    while (isOp(".") && peekTok().is(TokenKind::Name)) {
      advance();
      out += '.';
      out += tok().text;
      advance();
    }
    return true;
  };
  auto alias = [&](bool isDotted) {
    Import::Alias a;
    a.loc = tok().getLoc();
    if (isDotted) {
      if (!dotted(a.name))
        return false;
    } else {
      if (!tok().is(TokenKind::Name))
        return false;
      a.name = std::string(tok().text);
      advance();
    }
    if (consumeKeyword("as")) {
      if (!tok().is(TokenKind::Name))
        return false;
      a.asName = std::string(tok().text);
      advance();
    }
    imp.names.push_back(std::move(a));
    return true;
  };
  if (consumeKeyword("import")) {
    do {
      if (!alias(true))
        return false;
    } while (consumeOp(","));
  } else {
    advance(); // from
    imp.isFrom = true;
    while (isOp(".") || isOp("...")) {
      imp.level += tok().text.size();
      advance();
    }
    if (!isKeyword("import") && !dotted(imp.module))
      return false;
    if (!consumeKeyword("import"))
      return false;
    if (isOp("*")) {
      imp.names.push_back({"*", "", tok().getLoc()});
      advance();
    } else {
      bool paren = consumeOp("(");
      do {
        if (paren && isOp(")"))
          break;
        if (!alias(false))
          return false;
      } while (consumeOp(","));
      if (paren && !consumeOp(")"))
        return false;
    }
  }
  if (!tok().is(TokenKind::Newline))
    return false;
  advance();
  return true;
}

void Parser::recordImport(Import imp) {
  for (const Import::Alias &a : imp.names)
    if (imp.isFrom && a.name == "jit" && !a.asName.empty())
      jitNames.push_back(a.asName);
  module->imports.push_back(std::move(imp));
}

void Parser::parseGuardedBlock(const ModuleGuard &guard) {
  advance(); // :
  advance(); // NEWLINE
  advance(); // INDENT
  size_t imports = module->imports.size(),
         constants = module->constants.size(),
         functions = module->functions.size(),
         hostFunctions = module->hostFunctions.size();
  ModuleGuard outer = currentGuard;
  currentGuard = guard;
  while (!atEnd() && !tok().is(TokenKind::Dedent)) {
    size_t at = pos;
    parseTopLevelStatement();
    if (pos == at)
      advance();
  }
  currentGuard = outer;
  if (tok().is(TokenKind::Dedent))
    advance();
  // Definitions of nested ifs and trys already carry their (longer) guards.
  for (size_t k = imports; k < module->imports.size(); ++k)
    if (module->imports[k].guard.empty())
      module->imports[k].guard = guard;
  for (size_t k = constants; k < module->constants.size(); ++k)
    if (module->constants[k].guard.empty())
      module->constants[k].guard = guard;
  for (size_t k = functions; k < module->functions.size(); ++k)
    if (module->functions[k]->guard.empty())
      module->functions[k]->guard = guard;
  for (size_t k = hostFunctions; k < module->hostFunctions.size(); ++k)
    if (module->hostFunctions[k]->guard.empty())
      module->hostFunctions[k]->guard = guard;
}

bool Parser::parseTryImports() {
  // `try: from triton.language.extra.libdevice import tanh` / `except
  // ImportError: from triton.language.extra.cuda.libdevice import tanh`, or
  // `try: f = tl.uint_to_uniform_float` / `except AttributeError: @jit def
  // f(...)` (FlagGems): the definitions of the body (and `else:`) are read
  // under a guard on a test no expression decides, those of the `except`
  // clauses under its negation. CodeGen::bindModule decides the test: the
  // body raised if one of its definitions fails under Triton 3.6 and the
  // import path, and then the handlers' definitions hold. `finally:` is
  // skipped.
  SourceLoc begin = tok().getLoc();
  if (!peekTok().isOp(":") || !peekTok(2).is(TokenKind::Newline) ||
      !peekTok(3).is(TokenKind::Indent))
    return false;
  auto marker = std::make_unique<Name>(begin);
  marker->id = "try:" + std::to_string(begin.line) + ":" +
               std::to_string(begin.col);
  const Expr *test = marker.get();
  module->guardTests.push_back(std::move(marker));
  module->tryTests.insert(test);
  ModuleGuard outer = currentGuard;
  // One clause's block (after its `:`) under `outer` + (test, want).
  auto block = [&](bool want) {
    ModuleGuard guard = outer;
    guard.push_back({test, want});
    parseGuardedBlock(guard);
  };
  advance(); // try
  block(true);
  while (isKeyword("except") || isKeyword("else") || isKeyword("finally")) {
    bool handler = isKeyword("except"), isElse = isKeyword("else");
    size_t clause = pos;
    advance();
    // The exception types (`except (A, B) as e`) are not read.
    int depth = 0;
    while (!atEnd() && !tok().is(TokenKind::Newline) &&
           !(depth == 0 && tok().isOp(":"))) {
      if (tok().isOp("(") || tok().isOp("["))
        ++depth;
      else if ((tok().isOp(")") || tok().isOp("]")) && depth > 0)
        --depth;
      advance();
    }
    if ((!handler && !isElse) || !tok().isOp(":") ||
        !peekTok().is(TokenKind::Newline) ||
        !peekTok(2).is(TokenKind::Indent)) {
      pos = clause;
      skipStatement();
      panic = false;
      continue;
    }
    block(/*want=*/isElse);
  }
  module->skipped.push_back({"try", begin, lastRealEnd()});
  return true;
}

bool Parser::parseTopLevelIf() {
  size_t start = pos;
  size_t diagMark = diags.size();
  ModuleGuard outer = currentGuard;
  ModuleGuard earlier; // the chain's tests so far, each wanted false
  bool first = true;
  while (first ? isKeyword("if") : (isKeyword("elif") || isKeyword("else"))) {
    bool isElse = isKeyword("else");
    size_t clause = pos;
    advance();
    const Expr *test = nullptr;
    if (!isElse) {
      ExprPtr t = parseNamedExpr();
      if (!t || panic) {
        diags.resize(diagMark);
        panic = false;
        if (first) {
          pos = start;
          return false;
        }
        pos = clause; // keep the clauses read; skip the rest
        skipStatement();
        panic = false;
        break;
      }
      module->guardTests.push_back(std::move(t));
      test = module->guardTests.back().get();
    }
    if (!tok().isOp(":") || !peekTok().is(TokenKind::Newline) ||
        !peekTok(2).is(TokenKind::Indent)) {
      if (first) {
        pos = start;
        return false;
      }
      pos = clause;
      skipStatement();
      panic = false;
      break;
    }
    ModuleGuard guard = outer;
    guard.insert(guard.end(), earlier.begin(), earlier.end());
    if (test)
      guard.push_back({test, true});
    parseGuardedBlock(guard);
    if (test)
      earlier.push_back({test, false});
    first = false;
    if (isElse)
      break;
  }
  return true;
}

void Parser::skipTopLevel(const std::string &what) {
  SourceLoc begin = tok().getLoc();
  size_t start = pos;
  skipStatement();
  // The clauses of the same compound statement.
  while (isKeyword("elif") || isKeyword("else") || isKeyword("except") ||
         isKeyword("finally"))
    skipStatement();
  recordMutations(start, pos);
  module->skipped.push_back({what, begin, lastRealEnd()});
}

namespace {
/// +1 for an opening bracket, -1 for a closing one, else 0.
int bracketDelta(const Token &t) {
  if (t.isOp("(") || t.isOp("[") || t.isOp("{"))
    return 1;
  if (t.isOp(")") || t.isOp("]") || t.isOp("}"))
    return -1;
  return 0;
}
} // namespace

void Parser::recordMutations(size_t from, size_t to) {
  // Skipped code that rebinds or changes a module name: reading the name's
  // parsed definition would give a stale value, so the name is noted
  // (reading it is then an error). In a function (`def`), only names it
  // declares `global` and objects it changes in place without binding them
  // itself (a parameter or local of its own is not the module's).
  static constexpr std::string_view kMutators[] = {
      "append", "extend", "insert",  "pop",        "remove", "clear",
      "update", "sort",   "reverse", "setdefault", "popitem"};
  size_t first = from;
  while (first < to && (toks[first].isOp("@") || toks[first].isKeyword("async")))
    first = first + 1;
  // A class body's names are the class's, as a def's are its own.
  bool isDef = first < to && (toks[first].isKeyword("def") ||
                              toks[first].isKeyword("class"));
  if (isDef && first + 1 < to && toks[first + 1].is(TokenKind::Name))
    module->definedNames.push_back(
        {std::string(toks[first + 1].text), toks[first + 1].getLoc()});
  std::set<std::string_view> locals;                      // a def's own
  std::vector<std::pair<std::string_view, size_t>> bound; // names rebound
  std::vector<std::pair<std::string_view, size_t>> changed; // changed in place
  auto note = [&](std::vector<std::pair<std::string_view, size_t>> &v,
                  size_t k) { v.push_back({toks[k].text, k}); };
  // A def's parameters.
  if (isDef) {
    size_t k = first + 2; // def NAME (
    int depth = 0;
    for (; k < to; ++k) {
      const Token &t = toks[k];
      if (int delta = bracketDelta(t)) {
        depth += delta;
        if (delta < 0 && depth == 0)
          break;
      } else if (depth == 1 && t.is(TokenKind::Name) && k > 0 &&
                 (toks[k - 1].isOp("(") || toks[k - 1].isOp(",") ||
                  toks[k - 1].isOp("*") || toks[k - 1].isOp("**")))
        locals.insert(t.text);
    }
  }
  // Statements: tokens between NEWLINE / INDENT / DEDENT / ';' / a header's
  // ':' at bracket depth 0.
  int depth = 0;
  size_t stmt = from;
  auto statement = [&](size_t a, size_t b) {
    if (a >= b)
      return;
    const Token &head = toks[a];
    if (head.isKeyword("global")) {
      for (size_t k = a + 1; k < b && toks[k].is(TokenKind::Name); k += 2) {
        module->mutatedNames.push_back(
            {std::string(toks[k].text), toks[k].getLoc()});
        if (k + 1 >= b || !toks[k + 1].isOp(","))
          break;
      }
      return;
    }
    auto targets = [&](size_t x, size_t y) {
      int d = 0;
      for (size_t k = x; k < y; ++k) {
        const Token &t = toks[k];
        if (int delta = bracketDelta(t))
          d += delta;
        else if (d == 0 && t.is(TokenKind::Name) &&
                 !(k > x && toks[k - 1].isOp("."))) {
          bool inPlace = k + 1 < y && (toks[k + 1].isOp("[") ||
                                       toks[k + 1].isOp("."));
          note(inPlace ? changed : bound, k);
        }
      }
    };
    if (head.isKeyword("for")) { // for TARGETS in ...
      size_t k = a + 1;
      while (k < b && !toks[k].isKeyword("in"))
        ++k;
      targets(a + 1, k);
      return;
    }
    if (head.isKeyword("del")) {
      targets(a + 1, b);
      return;
    }
    if (head.isKeyword("with")) {
      for (size_t k = a; k + 1 < b; ++k)
        if (toks[k].isKeyword("as") && toks[k + 1].is(TokenKind::Name))
          note(bound, k + 1);
      return;
    }
    // The targets of an assignment: what precedes its last '=' at depth 0.
    size_t lastEq = b;
    int d = 0;
    for (size_t k = a; k < b; ++k) {
      const Token &t = toks[k];
      if (int delta = bracketDelta(t))
        d += delta;
      else if (d == 0 && t.isOp("="))
        lastEq = k;
    }
    if (lastEq < b)
      targets(a, lastEq);
  };
  for (size_t i = from; i < to; ++i) {
    const Token &t = toks[i];
    depth = std::max(0, depth + bracketDelta(t));
    bool boundary = t.is(TokenKind::Newline) || t.is(TokenKind::Indent) ||
                    t.is(TokenKind::Dedent) ||
                    (depth == 0 && (t.isOp(";") || t.isOp(":")));
    if (boundary) {
      statement(stmt, i);
      stmt = i + 1;
    }
    if (!t.is(TokenKind::Name) || i + 1 >= to ||
        (i > 0 && toks[i - 1].isOp(".")))
      continue;
    const Token &next = toks[i + 1];
    // `NAME += x`, `NAME |= x`, ...: an operator of two or more characters
    // ending in '=' other than the comparisons; `NAME.append(...)`.
    bool mutated = next.is(TokenKind::Op) && next.text.size() >= 2 &&
                   next.text.back() == '=' && next.text != "==" &&
                   next.text != "!=" && next.text != "<=" && next.text != ">=";
    if (next.isOp(".") && i + 2 < to && toks[i + 2].is(TokenKind::Name))
      mutated = std::find(std::begin(kMutators), std::end(kMutators),
                          toks[i + 2].text) != std::end(kMutators);
    if (mutated)
      note(changed, i);
  }
  statement(stmt, to);
  if (isDef) {
    // Names the def binds are its locals; the def's own name is not a
    // change of anything.
    for (auto [name, k] : bound)
      locals.insert(name);
    for (auto [name, k] : changed)
      if (!locals.count(name))
        module->mutatedNames.push_back({std::string(name), toks[k].getLoc()});
    return;
  }
  for (auto *v : {&bound, &changed})
    for (auto [name, k] : *v)
      module->mutatedNames.push_back({std::string(name), toks[k].getLoc()});
}

void Parser::parseHostFunction() {
  size_t start = pos;
  size_t diagMark = diags.size();
  bool saveHost = hostBody;
  hostBody = true;
  std::unique_ptr<FunctionDef> fn = parseFunctionDef({});
  hostBody = saveHost;
  std::string why;
  SourceLoc whyLoc;
  if (diags.size() > diagMark) {
    why = diags[diagMark].message;
    whyLoc = diags[diagMark].loc;
  } else if (!fn) {
    why = "it does not parse";
    whyLoc = toks[start].getLoc();
  }
  diags.resize(diagMark);
  panic = false;
  std::string name = std::string(toks[start + 1].text);
  pos = start;
  skipTopLevel("def " + name);
  if (!fn) {
    fn = std::make_unique<FunctionDef>();
    fn->name = name;
    fn->loc = toks[start].getLoc();
  }
  if (!why.empty()) {
    fn->body.clear();
    fn->unreadable = why;
    fn->unreadableLoc = whyLoc;
  }
  module->hostFunctions.push_back(std::move(fn));
}

void Parser::parseDecorated() {
  size_t start = pos;
  size_t diagMark = diags.size();
  ExprList decorators;
  bool mentionsJit = false;
  while (isOp("@")) {
    // Any `jit` name in the decorator lines marks a jit function even if a
    // decorator does not parse, so that its errors are reported.
    for (size_t i = pos; i < toks.size() && !toks[i].is(TokenKind::Newline) &&
                         !toks[i].is(TokenKind::EndOfFile);
         ++i)
      if (toks[i].is(TokenKind::Name) &&
          (toks[i].text == "jit" ||
           std::find(jitNames.begin(), jitNames.end(), toks[i].text) !=
               jitNames.end()))
        mentionsJit = true;
    advance();
    ExprPtr d = parseNamedExpr();
    if (d && !tok().is(TokenKind::Newline))
      errorExpected("newline after decorator");
    if (panic) {
      skipStatement();
      panic = false;
      continue;
    }
    advance(); // NEWLINE
    decorators.push_back(std::move(d));
  }
  bool isJit = std::any_of(decorators.begin(), decorators.end(),
                           [&](const ExprPtr &d) {
                             return isJitDecorator(*d, jitNames);
                           });
  bool isExtern = !isJit && std::any_of(decorators.begin(), decorators.end(),
                                        [&](const ExprPtr &d) {
                                          return d && isExternDecorator(*d);
                                        });
  if (isKeyword("async") && peekTok().is(TokenKind::Keyword) &&
      peekTok().text == "def" && (isJit || isExtern)) {
    unsupported(tok().getLoc(), "'async def'");
    skipStatement();
    panic = false;
    return;
  }
  if (isKeyword("def") && (isJit || mentionsJit || isExtern)) {
    size_t defPos = pos;
    std::unique_ptr<FunctionDef> fn = parseFunctionDef(std::move(decorators));
    if (fn) {
      fn->isExtern = isExtern;
      // Errors inside the body were reported and skipped; keep the rest.
      module->functions.push_back(std::move(fn));
      return;
    }
    if (panic) {
      if (pos == defPos)
        advance();
      skipStatement();
      panic = false;
    }
    return;
  }
  // Host code: forget what the decorators said and skip the whole thing.
  diags.resize(diagMark);
  panic = false;
  if (onlyCaches(decorators) && isKeyword("def") &&
      peekTok().is(TokenKind::Name)) {
    parseHostFunction(); // a cached host function is still that function
    return;
  }
  pos = start;
  SourceLoc begin = tok().getLoc();
  while (isOp("@"))
    skipStatement();
  std::string what = "decorated statement";
  if (tok().is(TokenKind::Keyword) &&
      (tok().text == "def" || tok().text == "class" || tok().text == "async")) {
    what = "decorated " + std::string(tok().text);
    if (peekTok().is(TokenKind::Name))
      what += " " + std::string(peekTok().text);
  }
  if (isKeyword("def") && peekTok().is(TokenKind::Name)) {
    // Known by name, so that a call from evaluated host code can say why
    // it is not evaluated.
    auto fn = std::make_unique<FunctionDef>();
    fn->name = std::string(peekTok().text);
    fn->loc = tok().getLoc();
    fn->unreadable = "a decorated host function";
    fn->unreadableLoc = begin;
    module->hostFunctions.push_back(std::move(fn));
  }
  size_t bodyStart = pos;
  if (!atEnd())
    skipStatement();
  recordMutations(bodyStart, pos);
  module->skipped.push_back({what, begin, lastRealEnd()});
}

void Parser::parseTopLevelStatement() {
  const Token &t = tok();
  if (t.is(TokenKind::Newline) || t.is(TokenKind::Dedent)) {
    advance();
    return;
  }
  if (t.is(TokenKind::Indent)) {
    error(t.getLoc(), "unexpected indent");
    skipStatement();
    panic = false;
    return;
  }
  if (t.isOp("@")) {
    parseDecorated();
    return;
  }
  if (t.isKeyword("import") || t.isKeyword("from")) {
    size_t start = pos;
    Import imp;
    if (parseImport(imp)) {
      recordImport(std::move(imp));
      return;
    }
    pos = start;
    skipTopLevel(std::string(t.text));
    return;
  }
  if (t.isKeyword("try") && parseTryImports())
    return;
  if (t.isKeyword("if") && parseTopLevelIf())
    return;
  if (t.is(TokenKind::Name) && (peekTok().isOp("=") || peekTok().isOp(":"))) {
    // A constant, if it parses and assigns only names.
    size_t start = pos;
    size_t diagMark = diags.size();
    StmtList stmts;
    parseSimpleStatements(stmts);
    bool ok = !panic;
    for (const StmtPtr &s : stmts) {
      if (auto *a = dyn_cast<Assign>(s.get()))
        ok &= a->targets.size() == 1 && isa<Name>(a->targets[0].get());
      else if (auto *a = dyn_cast<AnnAssign>(s.get()))
        ok &= isa<Name>(a->target.get()) && a->value != nullptr;
      else
        ok = false;
    }
    diags.resize(diagMark);
    panic = false;
    if (ok) {
      for (StmtPtr &s : stmts) {
        ModuleConstant c;
        c.loc = s->loc;
        if (auto *a = dyn_cast<Assign>(s.get())) {
          c.name = cast<Name>(*a->targets[0]).id;
          c.value = std::move(a->value);
        } else {
          auto *an = cast<AnnAssign>(s.get());
          c.name = cast<Name>(*an->target).id;
          c.annotation = std::move(an->annotation);
          c.value = std::move(an->value);
        }
        module->constants.push_back(std::move(c));
      }
      return;
    }
    pos = start;
    skipTopLevel("assignment");
    return;
  }
  if (t.isKeyword("def") && peekTok().is(TokenKind::Name)) {
    parseHostFunction();
    return;
  }
  std::string what = "statement";
  if (t.is(TokenKind::Keyword)) {
    what = std::string(t.text);
    if ((t.text == "def" || t.text == "class") &&
        peekTok().is(TokenKind::Name))
      what += " " + std::string(peekTok().text);
  } else if (t.is(TokenKind::String)) {
    what = "docstring";
  }
  skipTopLevel(what);
}

std::unique_ptr<Module> Parser::parseFile(std::string_view fileName) {
  auto mod = std::make_unique<Module>();
  mod->fileName = std::string(fileName);
  module = mod.get();
  while (!atEnd()) {
    size_t before = pos;
    parseTopLevelStatement();
    panic = false;
    if (pos == before)
      advance(); // never loop in place
  }
  module = nullptr;
  return mod;
}

ExprPtr Parser::parseExpressionInput() {
  ExprPtr e = parseStarExpressions();
  if (!e)
    return nullptr;
  if (!tok().is(TokenKind::Newline) && !atEnd()) {
    errorExpected("end of expression");
    return nullptr;
  }
  return e;
}

StmtList Parser::parseStatementsInput() {
  StmtList out;
  while (!atEnd()) {
    size_t before = pos;
    parseStatementsUntilDedent(out);
    if (tok().is(TokenKind::Dedent))
      advance();
    if (pos == before)
      advance();
  }
  return out;
}

/// Merges lexer and parser diagnostics: parser errors after the first
/// lexer error are dropped, the rest are ordered by location.
std::vector<Diagnostic> mergeDiagnostics(std::vector<Diagnostic> lexDiags,
                                         std::vector<Diagnostic> parseDiags) {
  std::vector<Diagnostic> all = std::move(lexDiags);
  SourceLoc firstLexError{~0u, ~0u};
  for (const Diagnostic &d : all)
    firstLexError = std::min(firstLexError, d.loc);
  for (Diagnostic &d : parseDiags)
    if (d.loc < firstLexError)
      all.push_back(std::move(d));
  std::stable_sort(all.begin(), all.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.loc < b.loc;
                   });
  return all;
}

} // namespace

bool tilec::py::isExternDecorator(const Expr &decorator) {
  if (auto *name = dyn_cast<Name>(&decorator))
    return name->id == "extern";
  auto *attr = dyn_cast<Attribute>(&decorator);
  if (!attr || attr->attr != "extern")
    return false;
  for (const Expr *base = attr->value.get(); base;) {
    if (isa<Name>(base))
      return true;
    auto *inner = dyn_cast<Attribute>(base);
    if (!inner)
      return false;
    base = inner->value.get();
  }
  return false;
}

bool tilec::py::isJitDecorator(const Expr &decorator,
                               const std::vector<std::string> &extraJitNames) {
  const Expr *e = &decorator;
  if (auto *call = dyn_cast<Call>(e))
    e = call->func.get();
  if (auto *name = dyn_cast<Name>(e))
    return name->id == "jit" ||
           std::find(extraJitNames.begin(), extraJitNames.end(), name->id) !=
               extraJitNames.end();
  auto *attr = dyn_cast<Attribute>(e);
  if (!attr || attr->attr != "jit")
    return false;
  // The base must be a dotted name: `triton.jit`, `tl.jit`, `a.b.jit`.
  for (const Expr *base = attr->value.get(); base;) {
    if (isa<Name>(base))
      return true;
    auto *inner = dyn_cast<Attribute>(base);
    if (!inner)
      return false;
    base = inner->value.get();
  }
  return false;
}

ParseResult tilec::py::parseModule(std::string_view source,
                                   std::string_view fileName) {
  LexResult lex = tokenize(source);
  std::vector<Diagnostic> parseDiags;
  ParseResult result;
  result.module = Parser(lex, parseDiags).parseFile(fileName);
  result.diagnostics =
      mergeDiagnostics(std::move(lex.diagnostics), std::move(parseDiags));
  return result;
}

ExprPtr tilec::py::parseExpression(std::string_view source,
                                   std::vector<Diagnostic> &diagnostics) {
  LexResult lex = tokenize(source);
  std::vector<Diagnostic> parseDiags;
  ExprPtr e = Parser(lex, parseDiags).parseExpressionInput();
  bool lexFailed = !lex.diagnostics.empty();
  std::vector<Diagnostic> all =
      mergeDiagnostics(std::move(lex.diagnostics), std::move(parseDiags));
  diagnostics.insert(diagnostics.end(), all.begin(), all.end());
  return lexFailed ? nullptr : std::move(e);
}

StmtList tilec::py::parseStatements(std::string_view source,
                                    std::vector<Diagnostic> &diagnostics) {
  LexResult lex = tokenize(source);
  std::vector<Diagnostic> parseDiags;
  StmtList body = Parser(lex, parseDiags).parseStatementsInput();
  std::vector<Diagnostic> all =
      mergeDiagnostics(std::move(lex.diagnostics), std::move(parseDiags));
  diagnostics.insert(diagnostics.end(), all.begin(), all.end());
  return body;
}
