//===- ParserTest.cpp - Python parser and AST unit tests --------*- C++ -*-===//
//
// Precedence and associativity (through the one-line printer), subscripts,
// literals, statements, decorators of jit functions, the AST dump, the
// whole sample files of test/Frontend/Inputs, syntax errors with their exact
// location and message, and robustness against hostile input.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/Parser.h"

#include <fstream>
#include <gtest/gtest.h>
#include <random>

using namespace tilec::py;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// Parses an expression and prints it fully parenthesized.
std::string expr(std::string_view src) {
  std::vector<Diagnostic> diags;
  ExprPtr e = parseExpression(src, diags);
  if (!diags.empty())
    return "error " + std::to_string(diags[0].loc.line) + ":" +
           std::to_string(diags[0].loc.col) + ": " + diags[0].message;
  return e ? toString(*e) : "<null>";
}

std::string dump(const Expr &e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  dumpExpr(e, os);
  return s;
}

/// The first diagnostic of parsing `src` as a file, `line:col: message`.
std::string fileError(const std::string &src) {
  ParseResult r = parseModule(src, "test.py");
  if (r.diagnostics.empty())
    return "<no error>";
  const Diagnostic &d = r.diagnostics.front();
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " +
         d.message;
}

/// A jit function named f holding `body` (4-space indented), then `tail`.
std::string jit(const std::string &body) {
  return "@triton.jit\ndef f(x):\n" + body;
}

TEST(ParserTest, Precedence) {
  EXPECT_EQ(expr("-x**2"), "(-(x ** 2))");
  EXPECT_EQ(expr("2**-1"), "(2 ** (-1))");
  EXPECT_EQ(expr("a**b**c"), "(a ** (b ** c))");
  EXPECT_EQ(expr("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(expr("a // b % c"), "((a // b) % c)");
  EXPECT_EQ(expr("a @ b * c / d"), "(((a @ b) * c) / d)");
  EXPECT_EQ(expr("a < b < c"), "(a < b < c)");
  EXPECT_EQ(expr("a not in b is not c in d"), "(a not in b is not c in d)");
  EXPECT_EQ(expr("not a or b and c"), "((not a) or (b and c))");
  EXPECT_EQ(expr("a or b or c and d"), "(a or b or (c and d))");
  EXPECT_EQ(expr("not a == b"), "(not (a == b))");
  EXPECT_EQ(expr("x if c else y"), "(x if c else y)");
  EXPECT_EQ(expr("a if b else c if d else e"), "(a if b else (c if d else e))");
  EXPECT_EQ(expr("a | b ^ c & d << e + f"), "(a | (b ^ (c & (d << (e + f)))))");
  EXPECT_EQ(expr("~a + -b"), "((~a) + (-b))");
  EXPECT_EQ(expr("a & b == c"), "((a & b) == c)");
  EXPECT_EQ(expr("lambda x, y=1: x + y"), "(lambda x, y=1: (x + y))");
  EXPECT_EQ(expr("lambda: 0"), "(lambda: 0)");
  EXPECT_EQ(expr("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(expr("a.b(c)[d].e"), "a.b(c)[d].e");
  EXPECT_EQ(expr("a, b"), "(a, b)");
  EXPECT_EQ(expr("(a,)"), "(a,)");
  EXPECT_EQ(expr("()"), "()");
}

TEST(ParserTest, PrecedenceDump) {
  std::vector<Diagnostic> diags;
  ExprPtr e = parseExpression("-x**2", diags);
  ASSERT_TRUE(e);
  EXPECT_EQ(dump(*e), "UnaryOp - @1:1\n"
                      "  BinOp ** @1:2\n"
                      "    Name x @1:2\n"
                      "    Int 2 @1:5\n");
  e = parseExpression("a < b <= c", diags);
  ASSERT_TRUE(e);
  EXPECT_EQ(dump(*e), "Compare '<' '<=' @1:1\n"
                      "  Name a @1:1\n"
                      "  Name b @1:5\n"
                      "  Name c @1:10\n");
  EXPECT_TRUE(diags.empty());
}

TEST(ParserTest, Subscripts) {
  EXPECT_EQ(expr("x[:, None]"), "x[:, None]");
  EXPECT_EQ(expr("x[None, :]"), "x[None, :]");
  EXPECT_EQ(expr("x[::2]"), "x[::2]");
  EXPECT_EQ(expr("x[1:]"), "x[1:]");
  EXPECT_EQ(expr("x[:n]"), "x[:n]");
  EXPECT_EQ(expr("x[a:b:c, 0]"), "x[a:b:c, 0]");
  EXPECT_EQ(expr("x[0]"), "x[0]");
  EXPECT_EQ(expr("x[0,]"), "x[0,]");
  EXPECT_EQ(expr("x[i + 1:-1]"), "x[(i + 1):(-1)]");

  std::vector<Diagnostic> diags;
  ExprPtr e = parseExpression("x[:, None]", diags);
  auto *s = dyn_cast<Subscript>(e.get());
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->isTuple);
  ASSERT_EQ(s->indices.size(), 2u);
  auto *slice = dyn_cast<Slice>(s->indices[0].get());
  ASSERT_TRUE(slice);
  EXPECT_FALSE(slice->lower || slice->upper || slice->step);
  EXPECT_TRUE(isa<NoneLiteral>(s->indices[1].get()));
  e = parseExpression("x[0]", diags);
  EXPECT_FALSE(cast<Subscript>(*e).isTuple);
  EXPECT_EQ(dump(*parseExpression("x[::2]", diags)),
            "Subscript @1:1\n"
            "  value: Name x @1:1\n"
            "  index: Slice @1:3\n"
            "    step: Int 2 @1:5\n");
}

TEST(ParserTest, Literals) {
  std::vector<Diagnostic> diags;
  auto intOf = [&](const char *src) {
    ExprPtr e = parseExpression(src, diags);
    return e ? cast<IntLiteral>(*e).value : -1;
  };
  EXPECT_EQ(intOf("1_000"), 1000);
  EXPECT_EQ(intOf("0x1F"), 31);
  EXPECT_EQ(intOf("0o17"), 15);
  EXPECT_EQ(intOf("0b1010"), 10);
  EXPECT_EQ(intOf("9223372036854775807"), INT64_MAX);
  ExprPtr big = parseExpression("0xFFFFFFFFFFFFFFFF", diags);
  EXPECT_TRUE(cast<IntLiteral>(*big).overflow);
  EXPECT_EQ(cast<IntLiteral>(*big).text, "0xFFFFFFFFFFFFFFFF");
  auto floatOf = [&](const char *src) {
    return cast<FloatLiteral>(*parseExpression(src, diags)).value;
  };
  EXPECT_DOUBLE_EQ(floatOf("1e-5"), 1e-5);
  EXPECT_DOUBLE_EQ(floatOf(".5"), 0.5);
  EXPECT_DOUBLE_EQ(floatOf("1."), 1.0);
  EXPECT_DOUBLE_EQ(floatOf("1_0.2_5"), 10.25);
  EXPECT_TRUE(cast<FloatLiteral>(*parseExpression("2j", diags)).isImaginary);

  auto strOf = [&](const char *src) {
    return cast<StringLiteral>(*parseExpression(src, diags)).value;
  };
  EXPECT_EQ(strOf(R"('a\tb\n')"), "a\tb\n");
  EXPECT_EQ(strOf(R"("x" 'y' """z""")"), "xyz");
  EXPECT_EQ(strOf(R"(r'\d\n')"), "\\d\\n");
  EXPECT_EQ(strOf(R"('\x41\u00e9\101\q')"), "A\xC3\xA9" "A\\q");
  EXPECT_EQ(strOf("'''a\nb'''"), "a\nb");
  EXPECT_EQ(strOf("'a\\\nb'"), "ab");
  ExprPtr f = parseExpression(R"('a' f"{x!r}")", diags);
  EXPECT_TRUE(cast<StringLiteral>(*f).isFString);
  EXPECT_EQ(cast<StringLiteral>(*f).parts.size(), 2u);
  EXPECT_TRUE(cast<StringLiteral>(*parseExpression("b'\\xff'", diags)).isBytes);
  EXPECT_EQ(expr("float('inf')"), "float('inf')");
  EXPECT_EQ(expr("True, False, None, ..."), "(True, False, None, ...)");
  EXPECT_EQ(expr("[1, 2,]"), "[1, 2]");
  EXPECT_EQ(expr("{'BLOCK': 128, **extra}"), "{'BLOCK': 128, **extra}");
  EXPECT_EQ(expr("{1, 2}"), "{1, 2}");
  EXPECT_EQ(expr("{}"), "{}");
  EXPECT_EQ(expr("[*a, *b]"), "[*a, *b]");
  EXPECT_EQ(expr("[x * 2 for x in range(3) if x for y in z]"),
            "[(x * 2) for x in range(3) if x for y in z]");
  EXPECT_EQ(expr("{k: v for k, v in d.items()}"), "{k: v for (k, v) in d.items()}");
  EXPECT_EQ(expr("sum(x for x in y)"), "sum((x for x in y))");
  EXPECT_TRUE(diags.empty());
}

TEST(ParserTest, Calls) {
  EXPECT_EQ(expr("tl.program_id(axis=0)"), "tl.program_id(axis=0)");
  EXPECT_EQ(expr("f(a, *args, k=1, **kw)"), "f(a, *args, k=1, **kw)");
  EXPECT_EQ(expr("f(a,)"), "f(a)");
  std::vector<Diagnostic> diags;
  ExprPtr e = parseExpression("f(a, *args, k=1, **kw)", diags);
  auto &c = cast<Call>(*e);
  EXPECT_TRUE(c.hasStarArgs());
  EXPECT_TRUE(c.hasDoubleStarArgs());
  ASSERT_EQ(c.keywords.size(), 2u);
  EXPECT_EQ(c.keywords[0].name, "k");
  EXPECT_TRUE(c.keywords[1].isDoubleStar());
}

TEST(ParserTest, Statements) {
  std::vector<Diagnostic> diags;
  StmtList body = parseStatements(
      "a = b = 1\n"
      "a, b = f()\n"
      "x: tl.constexpr = 3\n"
      "y += 1; z //= 2;\n"
      "if a:\n  pass\nelif b:\n  pass\nelse:\n  return a, b\n"
      "for i in tl.static_range(4):\n  continue\n"
      "while i < 3: i += 1\n"
      "assert x > 0, 'x must be positive'\n"
      "break\n"
      "'''docstring'''\n"
      "for i, (j, k) in zip(a, b):\n  x[i, :] = j\n  o.a = k\n",
      diags);
  ASSERT_TRUE(diags.empty()) << diags[0].loc.line << ":" << diags[0].message;
  ASSERT_EQ(body.size(), 12u);
  EXPECT_EQ(cast<Assign>(*body[0]).targets.size(), 2u);
  EXPECT_TRUE(isa<Tuple>(cast<Assign>(*body[1]).targets[0].get()));
  EXPECT_EQ(toString(*cast<AnnAssign>(*body[2]).annotation), "tl.constexpr");
  EXPECT_EQ(cast<AugAssign>(*body[3]).op, BinOpKind::Add);
  EXPECT_EQ(cast<AugAssign>(*body[4]).op, BinOpKind::FloorDiv);
  auto &ifs = cast<If>(*body[5]);
  ASSERT_EQ(ifs.orelse.size(), 1u);
  auto &elif = cast<If>(*ifs.orelse[0]);
  EXPECT_TRUE(elif.isElif);
  ASSERT_EQ(elif.orelse.size(), 1u);
  EXPECT_TRUE(isa<Tuple>(cast<Return>(*elif.orelse[0]).value.get()));
  EXPECT_EQ(toString(*cast<For>(*body[6]).iter), "tl.static_range(4)");
  EXPECT_TRUE(isa<While>(*body[7]));
  EXPECT_TRUE(cast<Assert>(*body[8]).msg);
  EXPECT_TRUE(isa<Break>(*body[9]));
  EXPECT_TRUE(isa<ExprStmt>(*body[10]));
  EXPECT_EQ(toString(*cast<For>(*body[11]).target), "(i, (j, k))");
}

TEST(ParserTest, ModuleLevel) {
  ParseResult r = parseModule(
      "import triton\n"
      "import triton.language as tl, numpy as np\n"
      "from triton import language as language\n"
      "from triton.language import (core, float16 as f16,)\n"
      "from .. import x\n"
      "from triton import jit as myjit\n"
      "BLOCK = 128\n"
      "EPS: tl.constexpr = tl.constexpr(1e-5)\n"
      "A = B = 1\n"
      "N, M = 1, 2\n"
      "HOST = foo(\n  a, [i for i in b])\n"
      "BAD = 1 +\n" // does not parse: skipped silently, as host code
      "class C:\n  x = 1\n"
      "@myjit\ndef k1(): pass\n"
      "@torch.no_grad()\ndef host(): pass\n"
      "@tl.jit\ndef k2(a):\n  return a\n"
      "@triton.jit(debug=True)\ndef k3(a):\n  return a\n"
      "@jit\ndef k4(a):\n  return a\n"
      "if __name__ == '__main__':\n  main()\nelse:\n  pass\n",
      "m.py");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const Module &m = *r.module;
  ASSERT_EQ(m.imports.size(), 6u);
  EXPECT_EQ(m.imports[1].names[0].name, "triton.language");
  EXPECT_EQ(m.imports[1].names[0].asName, "tl");
  EXPECT_EQ(m.imports[1].names[1].asName, "np");
  EXPECT_TRUE(m.imports[2].isFrom);
  EXPECT_EQ(m.imports[2].module, "triton");
  EXPECT_EQ(m.imports[3].names.size(), 2u);
  EXPECT_EQ(m.imports[3].names[1].asName, "f16");
  EXPECT_EQ(m.imports[4].level, 2u);
  ASSERT_EQ(m.constants.size(), 3u);
  EXPECT_EQ(m.constants[0].name, "BLOCK");
  EXPECT_EQ(m.constants[1].name, "EPS");
  EXPECT_TRUE(m.constants[1].annotation);
  EXPECT_EQ(m.constants[2].name, "HOST");
  ASSERT_EQ(m.functions.size(), 4u);
  EXPECT_EQ(m.functions[0]->name, "k1");
  EXPECT_EQ(m.functions[1]->name, "k2");
  EXPECT_EQ(m.functions[2]->name, "k3");
  EXPECT_EQ(m.functions[3]->name, "k4");
  EXPECT_TRUE(m.lookupFunction("k3"));
  EXPECT_FALSE(m.lookupFunction("host"));
}

TEST(ParserTest, Decorators) {
  ParseResult r = parseModule(
      "@triton.autotune(\n"
      "    configs=[\n"
      "        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 64}, num_warps=4, num_stages=3),\n"
      "        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64}, num_warps=2),\n"
      "    ],\n"
      "    key=['M', 'N'],\n"
      ")\n"
      "@triton.heuristics({'EVEN_M': lambda args: args['M'] % args['BLOCK_M'] == 0,\n"
      "                    'EVEN_N': lambda args: args['N'] % args['BLOCK_N'] == 0})\n"
      "@triton.jit\n"
      "def k(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_M: tl.constexpr,\n"
      "      EVEN_N: tl.constexpr) -> None:\n"
      "    '''doc'''\n"
      "    pass\n",
      "d.py");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  ASSERT_EQ(r.module->functions.size(), 1u);
  const FunctionDef &fn = *r.module->functions[0];
  ASSERT_EQ(fn.decorators.size(), 3u);
  EXPECT_EQ(toString(*fn.decorators[0]),
            "triton.autotune(configs=[triton.Config({'BLOCK_M': 128, 'BLOCK_N': "
            "64}, num_warps=4, num_stages=3), triton.Config({'BLOCK_M': 64, "
            "'BLOCK_N': 64}, num_warps=2)], key=['M', 'N'])");
  EXPECT_EQ(toString(*fn.decorators[1]),
            "triton.heuristics({'EVEN_M': (lambda args: ((args['M'] % "
            "args['BLOCK_M']) == 0)), 'EVEN_N': (lambda args: ((args['N'] % "
            "args['BLOCK_N']) == 0))})");
  EXPECT_TRUE(isJitDecorator(*fn.decorators[2]));
  EXPECT_FALSE(isJitDecorator(*fn.decorators[0]));
  EXPECT_EQ(fn.params.size(), 6u);
  EXPECT_EQ(toString(*fn.returns), "None");
  ASSERT_TRUE(fn.getDocstring());
  EXPECT_EQ(fn.getDocstring()->value, "doc");
}

TEST(ParserTest, Params) {
  ParseResult r = parseModule(
      "@jit\ndef k(a, b=1, /, c=2, *args, d, e: int = 3, **kw): pass\n"
      "@jit\ndef k2(a, *, b): pass\n",
      "p.py");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const auto &p = r.module->functions[0]->params;
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[0].kind, Param::Kind::PositionalOnly);
  EXPECT_EQ(p[1].kind, Param::Kind::PositionalOnly);
  EXPECT_EQ(p[2].kind, Param::Kind::Positional);
  EXPECT_EQ(p[3].kind, Param::Kind::VarArgs);
  EXPECT_EQ(p[4].kind, Param::Kind::KeywordOnly);
  EXPECT_EQ(p[5].kind, Param::Kind::KeywordOnly);
  EXPECT_TRUE(p[5].annotation && p[5].defaultValue);
  EXPECT_EQ(p[6].kind, Param::Kind::KwArgs);
  const auto &p2 = r.module->functions[1]->params;
  ASSERT_EQ(p2.size(), 2u);
  EXPECT_EQ(p2[1].kind, Param::Kind::KeywordOnly);
}

TEST(ParserTest, DumpFunction) {
  ParseResult r = parseModule("import triton.language as tl\n"
                              "@triton.jit\n"
                              "def add_kernel(x_ptr, BLOCK_SIZE: tl.constexpr):\n"
                              "    pid = tl.program_id(axis=0)\n"
                              "    if pid > 0:\n"
                              "        return\n",
                              "a.py");
  ASSERT_TRUE(r.diagnostics.empty());
  std::string s;
  llvm::raw_string_ostream os(s);
  dumpAST(*r.module, os);
  EXPECT_EQ(s, "Module a.py\n"
               "  Import triton.language as tl @1:1\n"
               "  FunctionDef add_kernel @3:1 decorators=1 params=2\n"
               "    decorator: Attribute .jit @2:2\n"
               "      Name triton @2:2\n"
               "    Param x_ptr @3:16\n"
               "    Param BLOCK_SIZE : tl.constexpr @3:23\n"
               "    body:\n"
               "      Assign @4:5\n"
               "        target: Name pid @4:5\n"
               "        value: Call @4:11\n"
               "          func: Attribute .program_id @4:11\n"
               "            Name tl @4:11\n"
               "          keyword axis: Int 0 @4:30\n"
               "      If @5:5\n"
               "        test: Compare '>' @5:8\n"
               "          Name pid @5:8\n"
               "          Int 0 @5:14\n"
               "        then:\n"
               "          Return @6:9\n");
  const FunctionDef &fn = *r.module->functions[0];
  EXPECT_EQ(fn.endLoc.line, 6u);
  EXPECT_EQ(fn.endLoc.col, 15u);
  EXPECT_EQ(fn.body[0]->endLoc.col, 32u);
}

/// Whole sample files: zero diagnostics, the expected jit functions.
struct SampleFile {
  const char *name;
  std::vector<std::string> functions;
};

class SampleFileTest : public ::testing::TestWithParam<SampleFile> {};

TEST_P(SampleFileTest, Parses) {
  const SampleFile &sample = GetParam();
  std::string path = std::string(TILEC_FRONTEND_INPUTS) + "/" + sample.name;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  ParseResult r = parseModule(text, sample.name);
  for (const Diagnostic &d : r.diagnostics)
    ADD_FAILURE() << sample.name << ":" << d.loc.line << ":" << d.loc.col
                  << ": " << d.message;
  std::vector<std::string> names;
  for (const auto &fn : r.module->functions)
    names.push_back(fn->name);
  EXPECT_EQ(names, sample.functions);
  bool importsTl = false;
  for (const Import &imp : r.module->imports)
    for (const Import::Alias &a : imp.names)
      importsTl |= a.name == "triton.language" && a.asName == "tl";
  EXPECT_TRUE(importsTl);
  // The dump of every sample is complete and never empty.
  std::string s;
  llvm::raw_string_ostream os(s);
  dumpAST(*r.module, os);
  EXPECT_GT(s.size(), 1000u);
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, SampleFileTest,
    ::testing::Values(
        SampleFile{"vector_add.py", {"add_kernel", "scaled_add_kernel"}},
        SampleFile{"fused_softmax.py", {"_row_softmax", "_row_softmax_online"}},
        SampleFile{"matmul.py",
                   {"matmul_kernel", "leaky_relu", "matmul_persistent"}},
        SampleFile{"layer_norm.py",
                   {"_layer_norm_fwd_fused", "_layer_norm_bwd_dx_fused",
                    "_layer_norm_bwd_dwdb"}},
        SampleFile{"fused_attention.py",
                   {"_attn_inner", "_attn_fwd", "_attn_bwd_preprocess",
                    "_causal_mask_value"}}),
    [](const ::testing::TestParamInfo<SampleFile> &info) {
      std::string n = info.param.name;
      return n.substr(0, n.find('.'));
    });

struct ErrorCase {
  std::string source;
  std::string expected; ///< line:col: message
};

class SyntaxErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SyntaxErrorTest, Reports) {
  EXPECT_EQ(fileError(GetParam().source), GetParam().expected)
      << GetParam().source;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SyntaxErrorTest,
    ::testing::Values(
        ErrorCase{jit("    if x\n        pass\n"),
                  "3:9: expected ':' after 'if' condition, found newline"},
        ErrorCase{jit("    for i in range(3)\n        pass\n"),
                  "3:22: expected ':' after 'for' iterable, found newline"},
        ErrorCase{jit("    for i range(3):\n        pass\n"),
                  "3:11: expected 'in' after 'for' target, found 'range'"},
        ErrorCase{jit("    y = x +\n"),
                  "3:12: expected expression, found newline"},
        ErrorCase{jit("    y = x 2\n"),
                  "3:11: expected newline after statement, found '2'"},
        ErrorCase{jit("    with a:\n        pass\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "'with' statement"},
        ErrorCase{jit("    try:\n        pass\n    except E:\n        pass\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "'try' statement"},
        ErrorCase{jit("    def g():\n        pass\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "nested function definition"},
        ErrorCase{jit("    import os\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "'import' statement"},
        ErrorCase{jit("    if (y := x):\n        pass\n"),
                  "3:11: unsupported Python construct in a @triton.jit function: "
                  "assignment expression ':='"},
        ErrorCase{jit("    1 = x\n"), "3:5: cannot assign to literal"},
        ErrorCase{jit("    f() += 1\n"), "3:5: cannot assign to function call"},
        ErrorCase{jit("    a, b += 1\n"),
                  "3:5: 'tuple' is an illegal expression for augmented "
                  "assignment"},
        ErrorCase{jit("    for i in x:\n    pass\n"),
                  "4:5: expected an indented block after 'for' statement on "
                  "line 3"},
        ErrorCase{jit("    a = 1\n        b = 2\n"), "4:9: unexpected indent"},
        ErrorCase{jit("    else:\n        pass\n"),
                  "3:5: unexpected 'else' without a matching statement"},
        ErrorCase{jit("    y = x[1:2:3:4]\n"),
                  "3:16: expected ',' or ']' in subscript, found ':'"},
        ErrorCase{jit("    y = f(a=1, b)\n"),
                  "3:16: positional argument follows keyword argument"},
        ErrorCase{"@triton.jit\ndef f(x y):\n    pass\n",
                  "2:9: expected ',' or ')' in parameter list, found 'y'"},
        ErrorCase{"@triton.jit\ndef f(x=1, y):\n    pass\n",
                  "2:12: parameter without a default follows parameter with a "
                  "default"},
        ErrorCase{"@triton.jit\ndef f(x)\n    pass\n",
                  "2:9: expected ':' after function signature, found newline"},
        ErrorCase{"@triton.autotune(configs=[, key=[])\n@triton.jit\ndef f(x):\n"
                  "    pass\n",
                  "1:27: expected expression, found ','"},
        ErrorCase{jit("    y = (x if x else)\n"),
                  "3:21: expected expression, found ')'"},
        ErrorCase{jit("    y = 'abc\n"), "3:9: unterminated string literal"},
        ErrorCase{jit("    y = (1, 2\n"), "3:9: '(' was never closed"},
        ErrorCase{jit("    y = x.\n"),
                  "3:11: expected attribute name after '.', found newline"},
        ErrorCase{jit("    return x,, y\n"),
                  "3:14: expected newline after statement, found ','"},
        ErrorCase{jit("    raise ValueError()\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "'raise' statement"},
        ErrorCase{jit("    y = yield x\n"),
                  "3:9: unsupported Python construct in a @triton.jit function: "
                  "'yield' expression"},
        ErrorCase{jit("    class A:\n        pass\n"),
                  "3:5: unsupported Python construct in a @triton.jit function: "
                  "'class' definition"},
        ErrorCase{"  x = 1\n", "1:3: unexpected indent"}));

TEST(ParserTest, RecoversAfterErrors) {
  // One diagnostic per broken statement; the rest of the function and the
  // following functions still parse.
  ParseResult r = parseModule(jit("    a = (1 +)\n"
                                  "    if x\n"
                                  "        b = 2\n"
                                  "        c = 3\n"
                                  "    with q:\n"
                                  "        pass\n"
                                  "    d = 4\n") +
                                  "@triton.jit\ndef g():\n    return 1\n",
                              "r.py");
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(r.diagnostics[0].loc.line, 3u);
  EXPECT_EQ(r.diagnostics[1].loc.line, 4u);
  EXPECT_EQ(r.diagnostics[2].loc.line, 7u);
  ASSERT_EQ(r.module->functions.size(), 2u);
  const FunctionDef &f = *r.module->functions[0];
  ASSERT_EQ(f.body.size(), 1u); // d = 4
  EXPECT_EQ(f.body[0]->loc.line, 9u);
}

TEST(ParserTest, HostCodeIsSkippedSilently) {
  ParseResult r = parseModule(
      "import torch\n"
      "x = [i for i in range(3)]\n"
      "print(f'{x[0]!r:>{w}} and {d[\"k\"]}')\n"
      "async def main():\n    async with a as b:\n        await b\n"
      "class K(Base, metaclass=M):\n    def f(self): return lambda *a, **k: (yield)\n"
      "with open('f') as f, open('g') as g: pass\n"
      "try:\n    pass\nexcept (A, B) as e:\n    raise\nfinally:\n    del x\n"
      "match x:\n    case [1, *rest]:\n        pass\n"
      "global q; nonlocal_ = 1\n"
      "type X = int\n"
      "@torch.no_grad()\n@other\nclass D: pass\n",
      "h.py");
  EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  EXPECT_TRUE(r.module->functions.empty());
  EXPECT_GE(r.module->skipped.size(), 9u);
}

TEST(ParserTest, HostFunctionsAreRead) {
  // Undecorated host functions are parsed (for autotune config helpers),
  // without diagnostics; one that does not parse keeps the first reason.
  ParseResult r = parseModule(
      "import functools\n"
      "def is_cuda():\n"
      "    return triton.runtime.driver.active.get_current_target().backend "
      "== 'cuda'\n"
      "def configs():\n"
      "    with open('f') as f:\n"
      "        pass\n"
      "@functools.cache\n"
      "def cached():\n"
      "    return []\n"
      "CONFIGS = []\n"
      "for b in (64, 128):\n"
      "    CONFIGS.append(b)\n"
      "TOTAL = 0\n"
      "TOTAL += 1\n"
      "def is_cuda():\n"
      "    return True\n",
      "h.py");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const Module &m = *r.module;
  EXPECT_TRUE(m.functions.empty());
  ASSERT_EQ(m.hostFunctions.size(), 4u);
  EXPECT_EQ(m.hostFunctions[0]->name, "is_cuda");
  EXPECT_TRUE(m.hostFunctions[0]->unreadable.empty());
  ASSERT_EQ(m.hostFunctions[0]->body.size(), 1u);
  EXPECT_EQ(m.hostFunctions[1]->name, "configs");
  EXPECT_EQ(m.hostFunctions[1]->unreadable,
            "unsupported Python construct in a @triton.jit function: 'with' "
            "statement");
  EXPECT_EQ(m.hostFunctions[1]->unreadableLoc.line, 5u);
  // A cache decorator leaves the function readable (its value is the
  // function's).
  EXPECT_EQ(m.hostFunctions[2]->name, "cached");
  EXPECT_TRUE(m.hostFunctions[2]->unreadable.empty());
  // The later definition wins, as in Python.
  EXPECT_EQ(m.lookupHostFunction("is_cuda"), m.hostFunctions[3].get());
  EXPECT_FALSE(m.lookupFunction("is_cuda"));
  // The loop rebinds the module's b and changes CONFIGS; TOTAL is rebound.
  ASSERT_EQ(m.mutatedNames.size(), 3u);
  EXPECT_EQ(m.mutatedNames[0].first, "b");
  EXPECT_EQ(m.mutatedNames[1].first, "CONFIGS");
  EXPECT_EQ(m.mutatedNames[1].second.line, 12u);
  EXPECT_EQ(m.mutatedNames[2].first, "TOTAL");
  // Host functions are still listed as skipped host code.
  EXPECT_GE(m.skipped.size(), 5u);
}

TEST(ParserTest, DecoratedHostFunctions) {
  // Any decorator but functools' caches: not read. A host body holds try,
  // raise and imports; a global declaration notes the module name changed.
  ParseResult r = parseModule("import functools\n"
                              "@register\n"
                              "def registered():\n"
                              "    return 1\n"
                              "@functools.lru_cache(maxsize=1)\n"
                              "def device():\n"
                              "    try:\n"
                              "        from x import y\n"
                              "    except (ImportError, KeyError) as e:\n"
                              "        raise RuntimeError('no') from e\n"
                              "    finally:\n"
                              "        pass\n"
                              "    return y\n"
                              "def setter():\n"
                              "    global MODE, LEVEL\n"
                              "    MODE = 1\n",
                              "d.py");
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  const Module &m = *r.module;
  ASSERT_EQ(m.hostFunctions.size(), 3u);
  EXPECT_EQ(m.hostFunctions[0]->name, "registered");
  EXPECT_EQ(m.hostFunctions[0]->unreadable, "a decorated host function");
  EXPECT_EQ(m.hostFunctions[1]->name, "device");
  EXPECT_TRUE(m.hostFunctions[1]->unreadable.empty());
  ASSERT_EQ(m.hostFunctions[1]->body.size(), 2u);
  auto *t = llvm::dyn_cast<Try>(m.hostFunctions[1]->body[0].get());
  ASSERT_TRUE(t);
  ASSERT_EQ(t->handlers.size(), 1u);
  EXPECT_EQ(t->handlers[0].name, "e");
  EXPECT_TRUE(llvm::isa<ImportStmt>(t->body[0].get()));
  EXPECT_TRUE(llvm::isa<Raise>(t->handlers[0].body[0].get()));
  EXPECT_EQ(t->finalbody.size(), 1u);
  // `global MODE, LEVEL`: both may change.
  ASSERT_EQ(m.mutatedNames.size(), 2u);
  EXPECT_EQ(m.mutatedNames[0].first, "MODE");
  EXPECT_EQ(m.mutatedNames[1].first, "LEVEL");
}

TEST(ParserTest, DeepNesting) {
  // Past the cap: an error, not a stack overflow.
  std::string deep = "x = " + std::string(5000, '(') + "1" +
                     std::string(5000, ')') + "\n";
  std::vector<Diagnostic> diags;
  parseStatements(deep, diags);
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags[0].message, "expression nested too deeply (limit 200)");

  diags.clear();
  parseStatements("x = " + std::string(5000, '-') + "1\n", diags);
  ASSERT_FALSE(diags.empty());
  diags.clear();
  std::string chain = "x = 1";
  for (int i = 0; i < 5000; ++i)
    chain += " + 1";
  parseStatements(chain + "\n", diags);
  ASSERT_FALSE(diags.empty());
  diags.clear();
  std::string attrs = "x = a";
  for (int i = 0; i < 5000; ++i)
    attrs += ".b()";
  parseStatements(attrs + "\n", diags);
  ASSERT_FALSE(diags.empty());
  // Moderate nesting is fine.
  diags.clear();
  parseStatements("x = " + std::string(150, '[') + std::string(150, ']') + "\n",
                  diags);
  EXPECT_TRUE(diags.empty());
  // Deep indentation in the lexer.
  std::string blocks;
  for (int i = 0; i < 300; ++i)
    blocks += std::string(i, ' ') + "if a:\n";
  blocks += std::string(300, ' ') + "pass\n";
  ParseResult r = parseModule(jit(blocks), "deep.py");
  EXPECT_FALSE(r.diagnostics.empty());
}

TEST(ParserTest, GarbageNeverCrashes) {
  std::vector<std::string> inputs = {
      "", "\n", ")", "(((((", "@", "@\n", "@triton.jit", "@triton.jit\n",
      "@triton.jit\ndef", "@triton.jit\ndef f(", "@triton.jit\ndef f():",
      "@triton.jit\ndef f():\n", "@jit\ndef f():\n  if", "  \n\tx\n y\n",
      "def f():\n    x\n  y\n", "x = [1, 2\n@jit\ndef f(): pass\n",
      "@jit\ndef f(*, **k, /): pass\n", "@jit\ndef f(a, a=1, *b, *c): pass\n",
      "@jit\ndef f():\n    x[\n", "@jit\ndef f():\n    lambda: (yield)\n",
      "\xEF\xBB\xBFx = 1\n", "@jit\ndef f():\n    " + std::string(300, '{'),
      "@jit\ndef f():\n\treturn f'{'\n", "from . import (\n", "import\n",
      "@jit\ndef f(): return *a, b\n", "@jit\ndef f():\n    x = y = \n"};
  std::mt19937 rng(42);
  const std::string alphabet = "()[]{}:,.=+-*/@ \n\t\\'\"#fxif0123456789jeEr_";
  for (int i = 0; i < 300; ++i) {
    std::string s;
    int n = rng() % 200;
    for (int k = 0; k < n; ++k)
      s += (i % 3 == 0) ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
    inputs.push_back(s);
    inputs.push_back("@triton.jit\ndef f(x):\n    " + s);
  }
  for (const std::string &src : inputs) {
    ParseResult r = parseModule(src, "g.py");
    ASSERT_TRUE(r.module);
    std::string s;
    llvm::raw_string_ostream os(s);
    dumpAST(*r.module, os);
    std::vector<Diagnostic> diags;
    parseExpression(src, diags);
    parseStatements(src, diags);
  }
}

} // namespace
