//===- Lexer.cpp - Python tokenizer for Triton kernel files -----*- C++ -*-===//
//
// A single pass over the bytes of the file. Indentation follows CPython's
// tokenizer (Parser/tokenizer.c): a tab advances the column to the next
// multiple of 8, and the same line measured with tabs of width 1 must order
// the same way against the open blocks, else the file mixes tabs and spaces
// inconsistently. f-strings are scanned as one String token, recursing into
// replacement fields so that nested strings with the same quote (PEP 701),
// brackets and format specs with their own fields do not end the literal.
// The file must be UTF-8; names are checked code point by code point
// (Unicode.h says which characters a name may hold).
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Lexer.h"
#include "compiler/Frontend/Unicode.h"

#include <algorithm>
#include <cstdio>

using namespace tilec::py;

namespace {

/// Limits that keep hostile input from recursing without bound.
constexpr unsigned kMaxIndentLevels = 100;
constexpr unsigned kMaxFStringNesting = 32;

/// Bytes that may be part of a name: ASCII letters, `_` and every byte of a
/// multi-byte character (where a name is read, each code point is checked;
/// elsewhere, e.g. after a number, any of them makes a bad literal, as in
/// Python).
bool isIdentStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}
bool isIdentChar(unsigned char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(unsigned char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(unsigned char c) {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// The string prefixes Python accepts (case-insensitive), with what they mean.
bool classifyStringPrefix(std::string_view word, bool &isRaw, bool &isF) {
  if (word.size() > 2)
    return false;
  bool r = false, b = false, u = false, f = false, t = false;
  for (char ch : word) {
    char c = ch | 0x20; // lowercase
    bool *flag = c == 'r'   ? &r
                 : c == 'b' ? &b
                 : c == 'u' ? &u
                 : c == 'f' ? &f
                 : c == 't' ? &t
                            : nullptr;
    if (!flag || *flag)
      return false;
    *flag = true;
  }
  // u combines with nothing; b, f and t exclude each other; r goes with any.
  if (u && word.size() > 1)
    return false;
  if (int(b) + int(f) + int(t) > 1)
    return false;
  isRaw = r;
  isF = f || t;
  return true;
}

class LexerImpl {
public:
  explicit LexerImpl(std::string_view src) : src(src) {}
  LexResult run();

private:
  std::string_view src;
  size_t pos = 0;
  LexResult result;
  /// Open brackets: the character and its offset.
  std::vector<std::pair<char, size_t>> brackets;
  /// Where the outermost string being scanned starts: errors in strings
  /// nested in f-string fields are reported there.
  size_t stringBegin = 0;
  /// Indentation columns of the open blocks (tabs to multiples of 8), and the
  /// same with tabs of width 1.
  std::vector<unsigned> indents{0}, altIndents{0};

  bool atEnd() const { return pos >= src.size(); }
  unsigned char peek(size_t ahead = 0) const {
    return pos + ahead < src.size() ? src[pos + ahead] : 0;
  }
  void error(size_t offset, std::string message) {
    // A file of garbage stops after kMaxErrors: the rest is not lexed (its
    // errors would cost memory and time for nothing anyone reads).
    constexpr size_t kMaxErrors = 1000;
    if (result.diagnostics.size() >= kMaxErrors)
      return;
    result.diagnostics.push_back({result.getLoc(offset), std::move(message)});
    if (result.diagnostics.size() == kMaxErrors) {
      result.diagnostics.push_back(
          {result.getLoc(offset), "too many errors (" +
                                      std::to_string(kMaxErrors) +
                                      "); the rest of the file is not read"});
      pos = src.size();
    }
  }
  void push(TokenKind kind, size_t begin, size_t end) {
    Token tok;
    tok.kind = kind;
    tok.text = src.substr(begin, end - begin);
    tok.offset = begin;
    SourceLoc loc = result.getLoc(begin);
    tok.line = loc.line;
    tok.col = loc.col;
    result.tokens.push_back(tok);
  }
  bool lastIsNewlineOrNothing() const {
    return result.tokens.empty() ||
           result.tokens.back().kind == TokenKind::Newline ||
           result.tokens.back().kind == TokenKind::Indent ||
           result.tokens.back().kind == TokenKind::Dedent;
  }

  /// Measures the indentation at the start of a line and emits Indent or
  /// Dedent tokens. Returns false for a blank or comment-only line (which has
  /// no indentation to check).
  bool handleIndentation();
  void lexNumber();
  /// Scans a string whose opening quote is at `pos`; `begin` is where its
  /// prefix starts. Returns false (after a diagnostic) if it is unterminated.
  bool scanString(size_t begin, bool isRaw, bool isF, unsigned depth);
  bool scanReplacementField(size_t begin, char quote, bool triple,
                            unsigned depth);
  void lexOperator();
  /// Reports the first byte of each line that is not valid UTF-8.
  void checkUTF8();
  /// Reads a name from `pos` up to the first character that cannot continue
  /// one.
  void scanName();
  /// Reports the character at `pos`, which starts no token, and skips it.
  void invalidCharacter();
};

void LexerImpl::checkUTF8() {
  size_t reportedLine = 0; // lines are numbered from 1
  for (size_t i = pos; i < src.size();) {
    uint32_t cp;
    if (unsigned n = decodeUTF8(src, i, cp)) {
      i += n;
      continue;
    }
    SourceLoc loc = result.getLoc(i);
    if (loc.line != reportedLine) {
      char buf[48];
      std::snprintf(buf, sizeof(buf), "invalid UTF-8 byte 0x%02x",
                    unsigned(static_cast<unsigned char>(src[i])));
      error(i, buf);
      reportedLine = loc.line;
      if (pos == src.size()) // too many errors
        return;
    }
    ++i;
  }
}

void LexerImpl::scanName() {
  while (!atEnd()) {
    unsigned char c = peek();
    if (c < 0x80) {
      if (!isIdentChar(c))
        return;
      ++pos;
      continue;
    }
    uint32_t cp;
    unsigned n = decodeUTF8(src, pos, cp);
    if (!n || !isIdentifierContinue(cp))
      return;
    pos += n;
  }
}

void LexerImpl::invalidCharacter() {
  uint32_t cp;
  unsigned n = decodeUTF8(src, pos, cp);
  if (!n) {
    ++pos; // not UTF-8: checkUTF8 reported its line
    return;
  }
  // Python's messages; the character itself is quoted only if it prints.
  std::string message;
  if (!isPrintableCharacter(cp))
    message = "invalid non-printable character " + formatCodePoint(cp);
  else if (cp < 0x80)
    message = std::string("invalid character '") + char(cp) + "'";
  else
    message = "invalid character '" + std::string(src.substr(pos, n)) + "' (" +
              formatCodePoint(cp) + ")";
  error(pos, std::move(message));
  pos += n;
}

bool LexerImpl::handleIndentation() {
  unsigned col = 0, altCol = 0;
  while (!atEnd()) {
    char c = peek();
    if (c == ' ') {
      ++col;
      ++altCol;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
      ++altCol;
    } else if (c == '\f') {
      col = altCol = 0;
    } else {
      break;
    }
    ++pos;
  }
  char c = peek();
  if (atEnd() || c == '#' || c == '\n' || c == '\r')
    return false;
  if (col == indents.back()) {
    if (altCol != altIndents.back())
      error(pos, "inconsistent use of tabs and spaces in indentation");
  } else if (col > indents.back()) {
    if (altCol <= altIndents.back())
      error(pos, "inconsistent use of tabs and spaces in indentation");
    if (indents.size() > kMaxIndentLevels) {
      error(pos, "too many levels of indentation (limit " +
                     std::to_string(kMaxIndentLevels) + ")");
      return true;
    }
    indents.push_back(col);
    altIndents.push_back(altCol);
    push(TokenKind::Indent, pos, pos);
  } else {
    while (indents.size() > 1 && col < indents.back()) {
      indents.pop_back();
      altIndents.pop_back();
      push(TokenKind::Dedent, pos, pos);
    }
    if (col != indents.back())
      error(pos, "unindent does not match any outer indentation level");
    else if (altCol != altIndents.back())
      error(pos, "inconsistent use of tabs and spaces in indentation");
  }
  return true;
}

void LexerImpl::lexNumber() {
  size_t begin = pos;
  // Digits of `base` with single underscores between them. Returns the
  // number of digits read.
  // `afterPrefix`: an underscore may also follow the base prefix (`0x_ff`).
  auto digits = [&](auto isDigitOfBase, bool afterPrefix = false) {
    unsigned count = 0;
    while (!atEnd()) {
      if (isDigitOfBase(peek())) {
        ++pos;
        ++count;
      } else if (peek() == '_' && (count > 0 || afterPrefix) &&
                 isDigitOfBase(peek(1))) {
        ++pos;
      } else {
        break;
      }
    }
    return count;
  };
  auto badTail = [&](const char *what) {
    // A letter, digit or underscore right after a number: `1_`, `0x`, `12abc`.
    if (!atEnd() && (isIdentChar(peek()))) {
      error(begin, std::string("invalid ") + what + " literal");
      while (!atEnd() && isIdentChar(peek()))
        ++pos;
      return true;
    }
    return false;
  };

  if (peek() == '0' && (peek(1) | 0x20) == 'x') {
    pos += 2;
    if (!digits(isHexDigit, true))
      error(begin, "invalid hexadecimal literal");
    badTail("hexadecimal");
    push(TokenKind::Int, begin, pos);
    return;
  }
  if (peek() == '0' && ((peek(1) | 0x20) == 'o' || (peek(1) | 0x20) == 'b')) {
    bool octal = (peek(1) | 0x20) == 'o';
    pos += 2;
    unsigned n =
        octal ? digits([](unsigned char c) { return c >= '0' && c <= '7'; },
                       true)
              : digits([](unsigned char c) { return c == '0' || c == '1'; },
                       true);
    const char *what = octal ? "octal" : "binary";
    if (!n || (!atEnd() && isDigit(peek()))) {
      error(begin, std::string("invalid ") + what + " literal");
      while (!atEnd() && isIdentChar(peek()))
        ++pos;
    } else {
      badTail(what);
    }
    push(TokenKind::Int, begin, pos);
    return;
  }

  bool isFloat = false;
  unsigned intDigits = digits(isDigit);
  if (peek() == '.' && (intDigits > 0 || isDigit(peek(1)))) {
    isFloat = true;
    ++pos;
    digits(isDigit);
  }
  if ((peek() | 0x20) == 'e' &&
      (isDigit(peek(1)) ||
       ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
    isFloat = true;
    pos += isDigit(peek(1)) ? 1 : 2;
    digits(isDigit);
  }
  if ((peek() | 0x20) == 'j') {
    ++pos;
    badTail("imaginary");
    push(TokenKind::Imaginary, begin, pos);
    return;
  }
  if (!isFloat && src[begin] == '0') {
    for (size_t i = begin; i < pos; ++i)
      if (src[i] != '0' && src[i] != '_') {
        error(begin, "leading zeros in decimal integer literals are not "
                     "permitted; use an 0o prefix for octal integers");
        break;
      }
  }
  // `1if x else y` is (deprecated but) valid Python: a keyword may follow.
  bool keywordFollows = false;
  if (!atEnd() && isIdentStart(peek())) {
    size_t e = pos;
    while (e < src.size() && isIdentChar(src[e]))
      ++e;
    std::string_view word = src.substr(pos, e - pos);
    keywordFollows = word == "if" || word == "else" || word == "and" ||
                     word == "or" || word == "in" || word == "is" ||
                     word == "not" || word == "for";
  }
  if (!keywordFollows)
    badTail("decimal");
  push(isFloat ? TokenKind::Float : TokenKind::Int, begin, pos);
}

bool LexerImpl::scanString(size_t begin, bool isRaw, bool isF, unsigned depth) {
  char quote = peek();
  bool triple = peek(1) == quote && peek(2) == quote;
  pos += triple ? 3 : 1;
  auto unterminated = [&] {
    error(stringBegin, triple ? "unterminated triple-quoted string literal"
                              : "unterminated string literal");
    return false;
  };
  while (true) {
    if (atEnd())
      return unterminated();
    char c = peek();
    if (c == '\\') {
      // In f-strings a brace after a backslash still opens a field.
      if (isF && (peek(1) == '{' || peek(1) == '}'))
        ++pos;
      else if (peek(1) == '\r' && peek(2) == '\n')
        pos += 3;
      else
        pos += std::min<size_t>(2, src.size() - pos);
      continue;
    }
    if ((c == '\n' || c == '\r') && !triple)
      return unterminated();
    if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
      pos += triple ? 3 : 1;
      return true;
    }
    if (isF && c == '{') {
      if (peek(1) == '{') {
        pos += 2;
        continue;
      }
      ++pos;
      if (depth >= kMaxFStringNesting) {
        error(stringBegin, "f-string nested too deeply (limit " +
                         std::to_string(kMaxFStringNesting) + ")");
        return false;
      }
      if (!scanReplacementField(begin, quote, triple, depth + 1))
        return false;
      continue;
    }
    (void)isRaw; // raw strings end the same way: `r"\""` is one string.
    ++pos;
  }
}

bool LexerImpl::scanReplacementField(size_t begin, char quote, bool triple,
                                     unsigned depth) {
  unsigned nesting = 0;
  auto unterminated = [&] {
    error(stringBegin, triple ? "unterminated triple-quoted string literal"
                              : "unterminated string literal");
    return false;
  };
  while (true) {
    if (atEnd())
      return unterminated();
    unsigned char c = peek();
    if ((c == '\n' || c == '\r') && !triple)
      return unterminated();
    if (c == '\'' || c == '"') {
      // Before 3.12 the outer quote could not appear here; with PEP 701 it
      // starts a nested string. Either way, scan a whole string.
      if (!scanString(pos, false, false, depth))
        return false;
      continue;
    }
    if (isIdentStart(c)) {
      size_t b = pos;
      while (!atEnd() && isIdentChar(peek()))
        ++pos;
      bool isRaw, isF;
      if ((peek() == '\'' || peek() == '"') &&
          classifyStringPrefix(src.substr(b, pos - b), isRaw, isF)) {
        if (!scanString(b, isRaw, isF, depth))
          return false;
      }
      continue;
    }
    if (c == '#') {
      while (!atEnd() && peek() != '\n' && peek() != '\r')
        ++pos;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++nesting;
      ++pos;
      continue;
    }
    if (c == ')' || c == ']') {
      if (nesting)
        --nesting;
      ++pos;
      continue;
    }
    if (c == '}') {
      ++pos;
      if (nesting == 0)
        return true;
      --nesting;
      continue;
    }
    if (c == ':' && nesting == 0) {
      // The format spec: literal text with nested replacement fields, up to
      // the `}` closing this field.
      ++pos;
      while (true) {
        if (atEnd())
          return unterminated();
        char s = peek();
        if (((s == '\n' || s == '\r') && !triple) || s == quote)
          return unterminated();
        if (s == '{') {
          ++pos;
          if (depth >= kMaxFStringNesting)
            return unterminated();
          if (!scanReplacementField(begin, quote, triple, depth + 1))
            return false;
          continue;
        }
        ++pos;
        if (s == '}')
          return true;
      }
    }
    ++pos;
  }
}

void LexerImpl::lexOperator() {
  static const char *const kOps3[] = {"**=", "//=", ">>=", "<<=", "..."};
  static const char *const kOps2[] = {"**", "//", ">>", "<<", "<=", ">=",
                                      "==", "!=", "->", ":=", "+=", "-=",
                                      "*=", "/=", "%=", "&=", "|=", "^=",
                                      "@="};
  std::string_view rest = src.substr(pos);
  for (const char *op : kOps3)
    if (rest.substr(0, 3) == op) {
      push(TokenKind::Op, pos, pos + 3);
      pos += 3;
      return;
    }
  for (const char *op : kOps2)
    if (rest.substr(0, 2) == op) {
      push(TokenKind::Op, pos, pos + 2);
      pos += 2;
      return;
    }
  char c = peek();
  static const std::string_view kOps1 = "+-*/%@&|^~<>()[]{},:.;=";
  if (kOps1.find(c) == std::string_view::npos) {
    invalidCharacter();
    return;
  }
  if (c == '(' || c == '[' || c == '{') {
    brackets.push_back({c, pos});
  } else if (c == ')' || c == ']' || c == '}') {
    char open = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (brackets.empty()) {
      error(pos, std::string("unmatched '") + c + "'");
      ++pos; // drop it: the parser never sees an unbalanced closer
      return;
    }
    if (brackets.back().first != open) {
      error(pos, std::string("closing parenthesis '") + c +
                     "' does not match opening parenthesis '" +
                     brackets.back().first + "'");
      // Close down to the matching opener if there is one, else drop it.
      auto it = std::find_if(brackets.rbegin(), brackets.rend(),
                             [&](auto &b) { return b.first == open; });
      if (it == brackets.rend()) {
        ++pos;
        return;
      }
      brackets.erase(std::prev(it.base()), brackets.end());
    } else {
      brackets.pop_back();
    }
  }
  push(TokenKind::Op, pos, pos + 1);
  ++pos;
}

LexResult LexerImpl::run() {
  result.lineStarts.push_back(0);
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] == '\n' ||
        (src[i] == '\r' && (i + 1 == src.size() || src[i + 1] != '\n')))
      result.lineStarts.push_back(i + 1);
  }
  // A UTF-8 byte order mark is not part of the program (elsewhere U+FEFF is
  // an invalid character).
  if (src.substr(0, 3) == "\xEF\xBB\xBF")
    pos = 3;
  checkUTF8();

  bool atLineStart = true;
  while (!atEnd()) {
    if (atLineStart && brackets.empty()) {
      atLineStart = false;
      if (!handleIndentation()) {
        // Blank or comment-only line: skip it entirely.
        while (!atEnd() && peek() != '\n' && peek() != '\r')
          ++pos;
        if (peek() == '\r')
          ++pos;
        if (peek() == '\n')
          ++pos;
        atLineStart = true;
        continue;
      }
    }
    unsigned char c = peek();
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos;
      continue;
    }
    if (c == '#') {
      while (!atEnd() && peek() != '\n' && peek() != '\r')
        ++pos;
      continue;
    }
    if (c == '\n' || c == '\r') {
      size_t begin = pos;
      pos += (c == '\r' && peek(1) == '\n') ? 2 : 1;
      if (brackets.empty()) {
        if (!lastIsNewlineOrNothing())
          push(TokenKind::Newline, begin, pos);
        atLineStart = true;
      }
      continue;
    }
    if (c == '\\') {
      size_t next = pos + 1;
      if (next < src.size() && (src[next] == '\n' || src[next] == '\r')) {
        pos = next + ((src[next] == '\r' && next + 1 < src.size() &&
                       src[next + 1] == '\n')
                          ? 2
                          : 1);
        if (atEnd())
          error(pos - 1, "unexpected end of file after line continuation "
                         "character");
        continue;
      }
      error(pos, "unexpected character after line continuation character");
      ++pos;
      continue;
    }
    if (c >= 0x80) {
      uint32_t cp;
      if (!decodeUTF8(src, pos, cp) || !isIdentifierStart(cp)) {
        invalidCharacter();
        continue;
      }
    }
    if (isIdentStart(c)) {
      size_t begin = pos;
      scanName();
      std::string_view word = src.substr(begin, pos - begin);
      bool isRaw, isF;
      if ((peek() == '\'' || peek() == '"') &&
          classifyStringPrefix(word, isRaw, isF)) {
        stringBegin = begin;
        scanString(begin, isRaw, isF, 0);
        push(TokenKind::String, begin, pos);
        continue;
      }
      push(isPythonKeyword(word) ? TokenKind::Keyword : TokenKind::Name, begin,
           pos);
      continue;
    }
    if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
      lexNumber();
      continue;
    }
    if (c == '\'' || c == '"') {
      size_t begin = pos;
      stringBegin = begin;
      scanString(begin, false, false, 0);
      push(TokenKind::String, begin, pos);
      continue;
    }
    lexOperator();
  }

  if (!brackets.empty())
    error(brackets.back().second,
          std::string("'") + brackets.back().first + "' was never closed");
  if (!lastIsNewlineOrNothing())
    push(TokenKind::Newline, src.size(), src.size());
  while (indents.size() > 1) {
    indents.pop_back();
    push(TokenKind::Dedent, src.size(), src.size());
  }
  push(TokenKind::EndOfFile, src.size(), src.size());
  return std::move(result);
}

} // namespace

SourceLoc LexResult::getLoc(size_t offset) const {
  if (lineStarts.empty())
    return {1, unsigned(offset + 1)};
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  size_t line = it - lineStarts.begin(); // >= 1: lineStarts[0] == 0
  return {unsigned(line), unsigned(offset - lineStarts[line - 1] + 1)};
}

LexResult tilec::py::tokenize(std::string_view source) {
  return LexerImpl(source).run();
}

bool tilec::py::isPythonKeyword(std::string_view word) {
  static const char *const kKeywords[] = {
      "False",  "None",   "True",    "and",      "as",       "assert",
      "async",  "await",  "break",   "class",    "continue", "def",
      "del",    "elif",   "else",    "except",   "finally",  "for",
      "from",   "global", "if",      "import",   "in",       "is",
      "lambda", "nonlocal", "not",   "or",       "pass",     "raise",
      "return", "try",    "while",   "with",     "yield"};
  for (const char *kw : kKeywords)
    if (word == kw)
      return true;
  return false;
}

std::string tilec::py::describeToken(const Token &tok) {
  switch (tok.kind) {
  case TokenKind::Newline:
    return "newline";
  case TokenKind::Indent:
    return "indent";
  case TokenKind::Dedent:
    return "dedent";
  case TokenKind::EndOfFile:
    return "end of file";
  case TokenKind::String:
    return "string literal";
  default:
    break;
  }
  // At most 40 bytes, not cutting a character in two.
  size_t size = std::min<size_t>(tok.text.size(), 40);
  while (size < tok.text.size() && size > 0 &&
         (static_cast<unsigned char>(tok.text[size]) & 0xC0) == 0x80)
    --size;
  return "'" + std::string(tok.text.substr(0, size)) + "'";
}
