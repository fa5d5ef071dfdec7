//===- LexerTest.cpp - Python tokenizer unit tests --------------*- C++ -*-===//
//
// Token kinds, texts and locations for every literal form, operators,
// layout tokens (indentation with blank/comment lines, tabs, continuation
// lines, brackets), and the lexer's error messages.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Lexer.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace tilec::py;

namespace {

/// Renders tokens compactly: `Name:x Op:= Int:1 NL`.
std::string kinds(std::string_view src, std::vector<Diagnostic> *diags = nullptr) {
  LexResult r = tokenize(src);
  if (diags)
    *diags = r.diagnostics;
  else
    EXPECT_TRUE(r.diagnostics.empty())
        << r.diagnostics.front().loc.line << ":" << r.diagnostics.front().loc.col
        << ": " << r.diagnostics.front().message;
  std::string out;
  for (const Token &t : r.tokens) {
    if (!out.empty())
      out += ' ';
    switch (t.kind) {
    case TokenKind::Name: out += "Name:"; break;
    case TokenKind::Keyword: out += "Kw:"; break;
    case TokenKind::Int: out += "Int:"; break;
    case TokenKind::Float: out += "Float:"; break;
    case TokenKind::Imaginary: out += "Imag:"; break;
    case TokenKind::String: out += "Str:"; break;
    case TokenKind::Op: out += "Op:"; break;
    case TokenKind::Newline: out += "NL"; continue;
    case TokenKind::Indent: out += "INDENT"; continue;
    case TokenKind::Dedent: out += "DEDENT"; continue;
    case TokenKind::EndOfFile: out += "EOF"; continue;
    }
    out += std::string(t.text);
  }
  return out;
}

/// The single diagnostic of `src`, as `line:col: message`.
std::string lexError(std::string_view src) {
  LexResult r = tokenize(src);
  if (r.diagnostics.empty())
    return "<no error>";
  const Diagnostic &d = r.diagnostics.front();
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
         d.message;
}

TEST(LexerTest, Empty) {
  EXPECT_EQ(kinds(""), "EOF");
  EXPECT_EQ(kinds("\n\n   \n# comment only\n"), "EOF");
  EXPECT_EQ(kinds("x"), "Name:x NL EOF");
}

TEST(LexerTest, Integers) {
  EXPECT_EQ(kinds("0 7 42 1_000_000 0x1F 0XdeadBEEF 0o17 0O7 0b1010 0B1_0 0x_ff 00"),
            "Int:0 Int:7 Int:42 Int:1_000_000 Int:0x1F Int:0XdeadBEEF Int:0o17 "
            "Int:0O7 Int:0b1010 Int:0B1_0 Int:0x_ff Int:00 NL EOF");
}

TEST(LexerTest, Floats) {
  EXPECT_EQ(kinds("1.0 1e-5 .5 1. 1E+10 3.14_15 1_0.0e1_0 0.0 00.5"),
            "Float:1.0 Float:1e-5 Float:.5 Float:1. Float:1E+10 Float:3.14_15 "
            "Float:1_0.0e1_0 Float:0.0 Float:00.5 NL EOF");
  EXPECT_EQ(kinds("2j 1.5J .5j 1e3j"), "Imag:2j Imag:1.5J Imag:.5j Imag:1e3j NL EOF");
  // `1.` then an attribute, and ellipsis is not a number.
  EXPECT_EQ(kinds("x[...] 1..real"), "Name:x Op:[ Op:... Op:] Float:1. Op:. Name:real NL EOF");
  // `1if` is valid (if deprecated) Python.
  EXPECT_EQ(kinds("1if x else 2"), "Int:1 Kw:if Name:x Kw:else Int:2 NL EOF");
}

TEST(LexerTest, Strings) {
  EXPECT_EQ(kinds(R"('a' "b" 'it''s' "q\"q" 'x\\')"),
            R"(Str:'a' Str:"b" Str:'it' Str:'s' Str:"q\"q" Str:'x\\' NL EOF)");
  EXPECT_EQ(kinds(R"(r'\d+' b"\x00" u'x' Rb'y' BR"z" rf'{x}' F"{y}" br'\'')"),
            R"(Str:r'\d+' Str:b"\x00" Str:u'x' Str:Rb'y' Str:BR"z" Str:rf'{x}' Str:F"{y}" Str:br'\'' NL EOF)");
  // Identifiers that merely start like prefixes.
  EXPECT_EQ(kinds("rb + fr + bu"), "Name:rb Op:+ Name:fr Op:+ Name:bu NL EOF");
}

TEST(LexerTest, TripleQuotedStrings) {
  LexResult r = tokenize("x = '''a\n'b'\n\"\"\"c'''\ny = \"\"\"\n  q\"\"\"\n");
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.tokens[2].kind, TokenKind::String);
  EXPECT_EQ(r.tokens[2].text, "'''a\n'b'\n\"\"\"c'''");
  // The next token's line counts the string's newlines.
  EXPECT_EQ(r.tokens[4].text, "y");
  EXPECT_EQ(r.tokens[4].line, 4u);
  EXPECT_EQ(r.tokens[4].col, 1u);
  EXPECT_EQ(r.tokens[6].text, "\"\"\"\n  q\"\"\"");
}

TEST(LexerTest, FStrings) {
  // Braces, escaped braces, nested quotes of the same kind (PEP 701),
  // conversions, format specs with nested fields, dict lookups.
  EXPECT_EQ(kinds(R"(f"{x}" f'{{literal}}' f"{d["k"]}" f'{x!r:>{w}}' f"{a:.3e}")"),
            R"(Str:f"{x}" Str:f'{{literal}}' Str:f"{d["k"]}" Str:f'{x!r:>{w}}' Str:f"{a:.3e}" NL EOF)");
  EXPECT_EQ(kinds(R"(f"{ {'a': 1}['a'] }" f"{x=}" f'{"}"}' f"{f'{1}'}")"),
            R"(Str:f"{ {'a': 1}['a'] }" Str:f"{x=}" Str:f'{"}"}' Str:f"{f'{1}'}" NL EOF)");
  EXPECT_EQ(kinds("f'''{\nx\n}''' + 1"), "Str:f'''{\nx\n}''' Op:+ Int:1 NL EOF");
}

TEST(LexerTest, Operators) {
  EXPECT_EQ(kinds("a**=b//=c>>=d<<=e->f:=g!=h==i<=j>=k@=l"),
            "Name:a Op:**= Name:b Op://= Name:c Op:>>= Name:d Op:<<= Name:e "
            "Op:-> Name:f Op::= Name:g Op:!= Name:h Op:== Name:i Op:<= Name:j "
            "Op:>= Name:k Op:@= Name:l NL EOF");
  EXPECT_EQ(kinds("~a|b^c&d%e@f;g"),
            "Op:~ Name:a Op:| Name:b Op:^ Name:c Op:& Name:d Op:% Name:e Op:@ "
            "Name:f Op:; Name:g NL EOF");
}

TEST(LexerTest, KeywordsAndSoftKeywords) {
  EXPECT_EQ(kinds("if not None is True and match or _ in type"),
            "Kw:if Kw:not Kw:None Kw:is Kw:True Kw:and Name:match Kw:or Name:_ "
            "Kw:in Name:type NL EOF");
}

TEST(LexerTest, Indentation) {
  EXPECT_EQ(kinds("def f():\n"
                  "    x = 1\n"
                  "\n"
                  "        # an over-indented comment\n"
                  "    if x:\n"
                  "\n"
                  "        y\n"
                  "  # under-indented comment\n"
                  "    z\n"
                  "w\n"),
            "Kw:def Name:f Op:( Op:) Op:: NL INDENT Name:x Op:= Int:1 NL Kw:if "
            "Name:x Op:: NL INDENT Name:y NL DEDENT Name:z NL DEDENT Name:w NL EOF");
  // Dedents to the end of file, no final newline.
  EXPECT_EQ(kinds("if a:\n  if b:\n    c"),
            "Kw:if Name:a Op:: NL INDENT Kw:if Name:b Op:: NL INDENT Name:c NL "
            "DEDENT DEDENT EOF");
}

TEST(LexerTest, Tabs) {
  // A tab is 8 columns; tabs used consistently are fine.
  EXPECT_EQ(kinds("if a:\n\tb\n\tif c:\n\t\td\n"),
            "Kw:if Name:a Op:: NL INDENT Name:b NL Kw:if Name:c Op:: NL INDENT "
            "Name:d NL DEDENT DEDENT EOF");
  // 8 spaces then a tab+spaces mix that compares equal both ways.
  EXPECT_EQ(kinds("if a:\n\tb\n\tc\n"),
            "Kw:if Name:a Op:: NL INDENT Name:b NL Name:c NL DEDENT EOF");
  EXPECT_EQ(lexError("if a:\n        b\n\tc\n"),
            "3:2: inconsistent use of tabs and spaces in indentation");
}

TEST(LexerTest, ContinuationAndBrackets) {
  EXPECT_EQ(kinds("x = 1 + \\\n    2\ny = (1,\n  2,\n# c\n      3)\n"),
            "Name:x Op:= Int:1 Op:+ Int:2 NL Name:y Op:= Op:( Int:1 Op:, Int:2 "
            "Op:, Int:3 Op:) NL EOF");
  EXPECT_EQ(kinds("f(a, [b,\n{c:\nd}])\r\nz\r\n"),
            "Name:f Op:( Name:a Op:, Op:[ Name:b Op:, Op:{ Name:c Op:: Name:d "
            "Op:} Op:] Op:) NL Name:z NL EOF");
}

TEST(LexerTest, Locations) {
  LexResult r = tokenize("a = 1\n  # c\nif b:\n\tc = 'x'\n");
  ASSERT_TRUE(r.diagnostics.empty());
  auto find = [&](std::string_view text) -> const Token * {
    for (const Token &t : r.tokens)
      if (t.text == text)
        return &t;
    return nullptr;
  };
  ASSERT_TRUE(find("b"));
  EXPECT_EQ(find("b")->line, 3u);
  EXPECT_EQ(find("b")->col, 4u);
  EXPECT_EQ(find("'x'")->line, 4u);
  EXPECT_EQ(find("'x'")->col, 6u); // columns count bytes: the tab is one
  EXPECT_EQ(find("'x'")->offset, 23u);
}

TEST(LexerTest, Errors) {
  EXPECT_EQ(lexError("x = 'abc\ny = 1\n"), "1:5: unterminated string literal");
  EXPECT_EQ(lexError("x = \"\"\"abc\n\n"),
            "1:5: unterminated triple-quoted string literal");
  EXPECT_EQ(lexError("x = f'{a'\n"), "1:5: unterminated string literal");
  EXPECT_EQ(lexError("x = (1,\n  [2\n"), "2:3: '[' was never closed");
  EXPECT_EQ(lexError("x = 1)\n"), "1:6: unmatched ')'");
  EXPECT_EQ(lexError("x = (1]\n"),
            "1:7: closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_EQ(lexError("if a:\n    b\n  c\n"),
            "3:3: unindent does not match any outer indentation level");
  EXPECT_EQ(lexError("x = $y\n"), "1:5: invalid character '$'");
  EXPECT_EQ(lexError("x = a ? b\n"), "1:7: invalid character '?'");
  EXPECT_EQ(lexError("x = 0777\n"),
            "1:5: leading zeros in decimal integer literals are not permitted; "
            "use an 0o prefix for octal integers");
  EXPECT_EQ(lexError("x = 0x\n"), "1:5: invalid hexadecimal literal");
  EXPECT_EQ(lexError("x = 0b102\n"), "1:5: invalid binary literal");
  EXPECT_EQ(lexError("x = 12abc\n"), "1:5: invalid decimal literal");
  EXPECT_EQ(lexError("x = 1_\n"), "1:5: invalid decimal literal");
  EXPECT_EQ(lexError("x = 1 \\ 2\n"),
            "1:7: unexpected character after line continuation character");
}

TEST(LexerTest, NonASCIINames) {
  // Letters of any script start a name; marks, digits and variation
  // selectors continue one. Columns count bytes.
  EXPECT_EQ(kinds("ядро = café + λ2\n"),
            "Name:ядро Op:= Name:café Op:+ Name:λ2 NL EOF");
  EXPECT_EQ(kinds("変数 = नमस्ते\n"), "Name:変数 Op:= Name:नमस्ते NL EOF");
  EXPECT_EQ(kinds("x\u0301 = y\uFE0F\n"),
            "Name:x\u0301 Op:= Name:y\uFE0F NL EOF");
  EXPECT_EQ(kinds("\xEF\xBB\xBFx = 1\n"), "Name:x Op:= Int:1 NL EOF");
  // Python's messages (CPython's tokenizer), located at the character.
  EXPECT_EQ(lexError("a\u202E = 1\n"),
            "1:2: invalid non-printable character U+202E");
  EXPECT_EQ(lexError("a\u200B = 1\n"),
            "1:2: invalid non-printable character U+200B");
  EXPECT_EQ(lexError("x = 1 +\uFEFFy\n"),
            "1:8: invalid non-printable character U+FEFF");
  EXPECT_EQ(lexError("\u2066x = 1\n"),
            "1:1: invalid non-printable character U+2066");
  EXPECT_EQ(lexError("x = \u009B\n"),
            "1:5: invalid non-printable character U+009B");
  EXPECT_EQ(lexError("x = a\u00A0\n"),
            "1:6: invalid non-printable character U+00A0");
  EXPECT_EQ(lexError("x = \x1b\n"),
            "1:5: invalid non-printable character U+001B");
  EXPECT_EQ(lexError("x = a€b\n"), "1:6: invalid character '€' (U+20AC)");
  EXPECT_EQ(lexError("→x = 1\n"), "1:1: invalid character '→' (U+2192)");
  EXPECT_EQ(lexError("\uFE0Fx = 1\n"),
            "1:1: invalid character '\uFE0F' (U+FE0F)");
  EXPECT_EQ(lexError("x = \u0301\n"),
            "1:5: invalid character '\u0301' (U+0301)");
  // Comments and strings may hold any character, but must be UTF-8.
  EXPECT_EQ(lexError("x = '\u202E' # \u202E\n"), "<no error>");
  EXPECT_EQ(lexError("x = 1 # \xE9\n"), "1:9: invalid UTF-8 byte 0xe9");
  EXPECT_EQ(lexError("x = '\xC3'\n"), "1:6: invalid UTF-8 byte 0xc3");
  EXPECT_EQ(lexError("x\x9B = 1\n"), "1:2: invalid UTF-8 byte 0x9b");
  // One error per line.
  std::vector<Diagnostic> diags;
  kinds("x = \xFF\xFF\ny = \xC0\x80\n", &diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].loc, (SourceLoc{1, 5}));
  EXPECT_EQ(diags[1].loc, (SourceLoc{2, 5}));
  EXPECT_EQ(diags[1].message, "invalid UTF-8 byte 0xc0");
}

TEST(LexerTest, AlwaysWellFormed) {
  // Whatever the input, Indent/Dedent balance and EOF ends the list.
  for (std::string_view src :
       {std::string_view("\x01\x02\xff(((("), std::string_view("  x\ny\n"),
        std::string_view("'''"), std::string_view("f'{'"),
        std::string_view("if a:\n\t\t  b\n \tc\n"), std::string_view("\\"),
        std::string_view("\0\0\0", 3), std::string_view(")]}")}) {
    LexResult r = tokenize(src);
    ASSERT_FALSE(r.tokens.empty());
    EXPECT_EQ(r.tokens.back().kind, TokenKind::EndOfFile);
    int level = 0;
    for (const Token &t : r.tokens) {
      level += t.kind == TokenKind::Indent;
      level -= t.kind == TokenKind::Dedent;
      EXPECT_GE(level, 0);
    }
    EXPECT_EQ(level, 0);
  }
}

} // namespace
