//===- Parser.h - Parser of Triton-language kernel files --------*- C++ -*-===//
//
// Recursive descent over the tokens of a `.py` file, building the AST of its
// `@triton.jit` functions. The file may hold any Python besides: the parser
// records top-level imports and simple constant assignments, parses every
// function whose decorators include `jit`, `<alias>.jit` or `<alias>.jit(...)`
// (with any other decorators, such as `triton.autotune(...)`, kept as
// expressions), and skips every other top-level statement by token
// structure, without diagnostics. Undecorated host functions are also
// parsed, silently, so that the helpers an `@triton.autotune(configs=f())`
// calls can be evaluated (Module::hostFunctions).
//
// Inside jit functions, syntax errors are reported with the location of the
// offending token and "expected X, found Y"; the parser then skips to the
// next statement and goes on. Valid Python that a jit function cannot hold
// (`with`, `try`, `class`, nested `def`, `import`, `raise`, `yield`, ...) is
// reported as "unsupported Python construct in a @triton.jit function: ...".
// Nesting is capped (kMaxNestingDepth) so that no input recurses without
// bound; no input makes the parser crash or loop.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_PARSER_H
#define TILEC_COMPILER_FRONTEND_PARSER_H

#include "compiler/Frontend/AST.h"

#include <memory>
#include <string_view>
#include <vector>

namespace tilec {
namespace py {

/// The deepest nesting of expressions (parentheses, operators, trailers)
/// the parser accepts; deeper input is an error, not a stack overflow.
constexpr unsigned kMaxNestingDepth = 200;
/// The longest chain of one binary operator level (`a + b + ... + z`, left
/// associative, so each operator adds a level to the tree, but no nesting
/// in the source) the parser accepts; longer is an error naming the limit.
constexpr unsigned kMaxChainLength = 1000;
/// The most 'elif' branches of one 'if' statement: each is an 'if' nested
/// in the previous one's else, which every later pass walks recursively
/// (5000 overflowed the stack; CPython refuses them too).
constexpr unsigned kMaxElifChain = 500;

/// The module (always non-null, possibly partial) and every diagnostic of
/// the lexer and the parser, ordered by location. Parser errors located after
/// the first lexer error are dropped (they are usually its consequences).
struct ParseResult {
  std::unique_ptr<Module> module;
  std::vector<Diagnostic> diagnostics;

  bool succeeded() const { return diagnostics.empty(); }
};

/// Parses the text of a `.py` file. `fileName` is recorded in the module.
/// The AST does not refer to `source` afterwards.
ParseResult parseModule(std::string_view source, std::string_view fileName);

/// Parses `source` as one expression (what may follow `x = `, tuples
/// included), for tests and tools. Returns null after a diagnostic.
ExprPtr parseExpression(std::string_view source,
                        std::vector<Diagnostic> &diagnostics);

/// Parses `source` as the statements of a jit function's body (at
/// indentation 0), with the same checks. Returns what parsed.
StmtList parseStatements(std::string_view source,
                         std::vector<Diagnostic> &diagnostics);

/// True if `decorator` marks a jit function: `jit`, `X.jit`, `X.Y.jit`, or a
/// call of one of those (`triton.jit(debug=True)`), or a Name in
/// `extraJitNames` (from `from triton import jit as myjit`).
bool isJitDecorator(const Expr &decorator,
                    const std::vector<std::string> &extraJitNames = {});

/// True if `decorator` is Triton's `core.extern` (`extern`, `X.extern`,
/// `X.Y.extern`): a libdevice-style wrapper around tl.extern_elementwise.
bool isExternDecorator(const Expr &decorator);

} // namespace py
} // namespace tilec

#endif // TILEC_COMPILER_FRONTEND_PARSER_H
