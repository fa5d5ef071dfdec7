//===- Lexer.h - Python tokenizer for Triton kernel files -------*- C++ -*-===//
//
// Splits the text of a `.py` file into Python tokens the way CPython's
// tokenizer does (Python 3.12 rules): names, keywords, numbers, strings
// (every prefix, triple quotes, f-strings with nested quotes and braces),
// operators, and the layout tokens NEWLINE, INDENT and DEDENT. Blank and
// comment-only lines produce nothing; newlines inside brackets and after a
// `\` continuation are skipped. The whole file is tokenized, host code
// included, so the lexer must accept every valid Python file; the parser
// then decides which parts it reads and which it skips by token structure.
//
// Tokens hold string_views into the source: keep the text alive while the
// tokens are in use (the AST copies what it keeps).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_LEXER_H
#define TILEC_COMPILER_FRONTEND_LEXER_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {
namespace py {

/// A position in the source: 1-based line and 1-based column in bytes.
/// Line 0 means "unknown".
struct SourceLoc {
  unsigned line = 0;
  unsigned col = 0;

  bool isValid() const { return line != 0; }
  friend bool operator==(SourceLoc a, SourceLoc b) {
    return a.line == b.line && a.col == b.col;
  }
  friend bool operator!=(SourceLoc a, SourceLoc b) { return !(a == b); }
  friend bool operator<(SourceLoc a, SourceLoc b) {
    return a.line < b.line || (a.line == b.line && a.col < b.col);
  }
};

/// An error in the user's file, at `loc`. Messages are lowercase, without a
/// trailing period, and say what was expected and what was found.
struct Diagnostic {
  SourceLoc loc;
  std::string message;
};

enum class TokenKind {
  Name,      ///< identifier, including soft keywords (match, case, type, _)
  Keyword,   ///< a hard keyword: if, def, True, None, and, ...
  Int,       ///< 42, 0x2A, 0o52, 0b101010, 1_000
  Float,     ///< 1.0, 1e-5, .5, 1.
  Imaginary, ///< 1j, 2.5J
  String,    ///< one string literal with its prefix and quotes
  Op,        ///< an operator or delimiter: + ** //= ( ) : -> ... @ etc.
  Newline,   ///< end of a logical line
  Indent,
  Dedent,
  EndOfFile,
};

/// One token. `text` is a view into the source (empty for Indent, Dedent and
/// EndOfFile, and for the Newline synthesized at the end of a file without a
/// final line break).
struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  std::string_view text;
  unsigned line = 0;
  unsigned col = 0;
  size_t offset = 0;

  SourceLoc getLoc() const { return {line, col}; }
  bool is(TokenKind k) const { return kind == k; }
  /// True for the operator or delimiter `op`.
  bool isOp(std::string_view op) const {
    return kind == TokenKind::Op && text == op;
  }
  /// True for the hard keyword `kw`.
  bool isKeyword(std::string_view kw) const {
    return kind == TokenKind::Keyword && text == kw;
  }
};

/// The tokens of a file, always ending in EndOfFile (and, if the file has any
/// token, a Newline and the Dedents closing every open block before it), the
/// diagnostics, and the offset of each line's first byte (to map offsets
/// to line and column).
struct LexResult {
  std::vector<Token> tokens;
  std::vector<Diagnostic> diagnostics;
  std::vector<size_t> lineStarts;

  /// Line and column of byte `offset` of the source.
  SourceLoc getLoc(size_t offset) const;
};

/// Tokenizes `source`. Errors (unterminated strings, invalid characters,
/// inconsistent indentation, unbalanced brackets, malformed numbers) become
/// diagnostics; the lexer then continues, so the token list is always
/// complete and well formed (balanced Indent/Dedent, a final EndOfFile).
LexResult tokenize(std::string_view source);

/// True if `word` is a Python hard keyword.
bool isPythonKeyword(std::string_view word);

/// A short description of `tok` for diagnostics: `'foo'`, `':'`, `newline`,
/// `indent`, `dedent`, `end of file`, `string literal`.
std::string describeToken(const Token &tok);

} // namespace py
} // namespace tilec

#endif // TILEC_COMPILER_FRONTEND_LEXER_H
