//===- CompileKeyTest.cpp - The compile key and the shared compile step ---===//
//
// tilec::CompileOptions (tilec/Compile.h): the key is 64 hex digits, equal
// for equal inputs, different when any field that shapes the kernel
// differs, blind to the budgets; validate() names what is wrong;
// compileToPTX (compiler/Jit/Compiler.h) compiles Python and MLIR source
// and lists the modules it imported.
//
//===----------------------------------------------------------------------===//
#include "compiler/Jit/Compiler.h"
#include "tilec/Cache.h"

#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <gtest/gtest.h>
#include <set>

using namespace tilec;

namespace {

const char *kAdd = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

CompileOptions addOptions() {
  CompileOptions o;
  o.kernel = "add_kernel";
  o.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
  o.constexprs = {{"BLOCK", "1024"}};
  return o;
}

std::string keyOf(const CompileOptions &o, const char *source = kAdd,
                  const char *file = "add.py") {
  return compileKey(source, file, SourceLanguage::Auto, o);
}

TEST(CompileKey, IsAStableValidCacheKey) {
  std::string k = keyOf(addOptions());
  EXPECT_EQ(k.size(), 64u);
  EXPECT_TRUE(DiskCache::isValidKey(k));
  EXPECT_EQ(k, keyOf(addOptions()));
  // The text holds the compiler's identity and every field, length-prefixed.
  std::string text =
      compileKeyText(kAdd, "add.py", SourceLanguage::Auto, addOptions());
  EXPECT_NE(text.find(compilerVersion()), std::string::npos);
  EXPECT_NE(text.find("signature 30:*fp32:16,*fp32:16,*fp32:16,i32\n"),
            std::string::npos);
}

TEST(CompileKey, EveryShapingFieldChangesIt) {
  std::vector<std::function<void(CompileOptions &)>> changes = {
      [](CompileOptions &o) { o.kernel = "other"; },
      [](CompileOptions &o) {
        o.signature = "*fp32:16,*fp32:16,*fp32:16,i32:16";
      },
      [](CompileOptions &o) {
        o.constexprs = {{"BLOCK", "512"}};
      },
      [](CompileOptions &o) {
        o.constexprs.push_back({"X", "1"});
      },
      [](CompileOptions &o) { o.numWarps = 8; },
      [](CompileOptions &o) { o.numStages = 2; },
      [](CompileOptions &o) { o.autotuneConfig = 1; },
      [](CompileOptions &o) { o.arch = "sm_80"; },
      [](CompileOptions &o) { o.fpFusion = false; },
      [](CompileOptions &o) { o.debug = true; },
      [](CompileOptions &o) { o.mmaVersion = 2; },
      [](CompileOptions &o) { o.tma = false; },
      [](CompileOptions &o) { o.tmaPointerLoads = false; },
      [](CompileOptions &o) { o.warpSpecialize = "on"; },
      [](CompileOptions &o) { o.numConsumerGroups = 2; },
      [](CompileOptions &o) { o.clusterSize = 2; },
      [](CompileOptions &o) { o.maxnreg = 128; },
      [](CompileOptions &o) { o.autoMaxNReg = false; },
      [](CompileOptions &o) { o.importPaths = {"/lib"}; },
      [](CompileOptions &o) { o.backend = "cuda"; },
  };
  std::set<std::string> keys = {keyOf(addOptions())};
  for (auto &change : changes) {
    CompileOptions o = addOptions();
    change(o);
    keys.insert(keyOf(o));
  }
  EXPECT_EQ(keys.size(), changes.size() + 1);
  // The source, its name and its language too.
  EXPECT_NE(keyOf(addOptions(), "x"), keyOf(addOptions()));
  EXPECT_NE(keyOf(addOptions(), kAdd, "b.py"), keyOf(addOptions()));
  EXPECT_NE(compileKey(kAdd, "add.py", SourceLanguage::MLIR, addOptions()),
            keyOf(addOptions()));
  // Length prefixes: moving text between fields gives another key.
  CompileOptions a = addOptions(), b = addOptions();
  a.constexprs = {{"AB", "C"}};
  b.constexprs = {{"A", "BC"}};
  EXPECT_NE(keyOf(a), keyOf(b));
}

TEST(CompileKey, BudgetsAndDefaultArchDoNotChangeIt) {
  CompileOptions o = addOptions();
  o.errorLimit = 3;
  o.maxOperations = 7;
  o.maxInlinedCalls = 9;
  o.maxUnrolledIterations = 11;
  EXPECT_EQ(keyOf(o), keyOf(addOptions()));
  CompileOptions explicitArch = addOptions();
  explicitArch.arch = "sm_90a"; // what an empty arch compiles for
  EXPECT_EQ(keyOf(explicitArch), keyOf(addOptions()));
}

TEST(CompileOptions, ValidateNamesTheProblem) {
  auto problem = [](std::function<void(CompileOptions &)> change,
                    SourceLanguage lang = SourceLanguage::Python) {
    CompileOptions o = addOptions();
    change(o);
    return o.validate(lang);
  };
  EXPECT_EQ(problem([](CompileOptions &) {}), "");
  EXPECT_EQ(problem([](CompileOptions &o) { o.numWarps = 3; }),
            "num_warps must be a power of two in [1, 32], found 3");
  EXPECT_NE(problem([](CompileOptions &o) { o.arch = "sm_70"; })
                .find("unsupported arch 'sm_70'"),
            std::string::npos);
  EXPECT_EQ(problem([](CompileOptions &o) { o.mmaVersion = 1; }),
            "mma version must be 0, 2 or 3, found 1");
  EXPECT_EQ(problem([](CompileOptions &o) { o.warpSpecialize = "yes"; }),
            "warp specialization must be hint, on or off, found 'yes'");
  EXPECT_EQ(problem([](CompileOptions &o) { o.clusterSize = 4; }),
            "cluster size must be 1 or 2, found 4");
  EXPECT_EQ(problem([](CompileOptions &o) { o.maxnreg = 8; }),
            "maxnreg must be 0 (no limit) or in [16, 255], found 8");
  EXPECT_EQ(problem([](CompileOptions &o) { o.maxnreg = 256; }),
            "maxnreg must be 0 (no limit) or in [16, 255], found 256");
  EXPECT_EQ(problem([](CompileOptions &o) { o.maxnreg = 255; }), "");
  EXPECT_EQ(problem([](CompileOptions &o) { o.backend = "sass"; }),
            "backend must be ptx or cuda, found 'sass'");
  EXPECT_EQ(problem([](CompileOptions &o) { o.constexprs = {{"", "1"}}; }),
            "a constexpr value without a name");
  EXPECT_NE(problem([](CompileOptions &) {}, SourceLanguage::MLIR)
                .find("apply to Python source"),
            std::string::npos);
}

TEST(CompileToPTX, PythonAndTheModulesItRead) {
  auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  fs->setCurrentWorkingDirectory("/src");
  fs->addFile("/src/helpers.py", 0,
              llvm::MemoryBuffer::getMemBuffer(
                  "import triton\n\n@triton.jit\ndef twice(x):\n"
                  "    return x + x\n"));
  const char *main = R"(import triton
import triton.language as tl
from helpers import twice


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, twice(tl.load(x_ptr + offs, mask=offs < n)), mask=offs < n)
)";
  // The kernel file exists, so its folder is searched first.
  fs->addFile("/src/k.py", 0, llvm::MemoryBuffer::getMemBuffer(main));
  CompileOptions o;
  o.kernel = "k";
  o.signature = "*fp32:16,i32";
  o.constexprs = {{"BLOCK", "128"}};
  CompileOutput out;
  ASSERT_TRUE(compileToPTX(main, "/src/k.py", SourceLanguage::Auto, o, fs, out))
      << out.diagnostics;
  EXPECT_NE(out.ptx.find("// tilec.kernel name=k num_warps=4"),
            std::string::npos);
  auto read = std::find_if(out.filesRead.begin(), out.filesRead.end(),
                           [](auto &f) { return f.first == "/src/helpers.py"; });
  ASSERT_NE(read, out.filesRead.end());
  EXPECT_EQ(read->second.size(), 64u); // the SHA-256 of what was read
  // Candidates looked for in vain are recorded too.
  EXPECT_FALSE(out.pathsAbsent.empty());
}

TEST(CompileToPTX, TheCUDABackendThroughNVRTC) {
  // The same kernel through the CUDA C++ backend: NVRTC's PTX (nvcc's
  // code generator, not LLVM's), with tilec's metadata lines.
  CompileOptions o = addOptions();
  o.backend = "cuda";
  CompileOutput out;
  bool ok = compileToPTX(kAdd, "add.py", SourceLanguage::Auto, o, nullptr, out);
  if (!ok && out.diagnostics.find("is not installed") != std::string::npos)
    GTEST_SKIP() << out.diagnostics;
  ASSERT_TRUE(ok) << out.diagnostics;
  EXPECT_EQ(out.ptx.rfind("// tilec.kernel name=add_kernel", 0), 0u) << out.ptx;
  EXPECT_NE(out.ptx.find(".entry add_kernel("), std::string::npos);
  // NVRTC's own PTX header, not LLVM's.
  EXPECT_NE(out.ptx.find("NVIDIA NVVM Compiler"), std::string::npos);
  EXPECT_EQ(out.ptx.find("LLVM NVPTX"), std::string::npos);
}

TEST(CompileToPTX, ErrorsAreLocatedAndOptionsChecked) {
  CompileOutput out;
  CompileOptions o = addOptions();
  o.numWarps = 5;
  EXPECT_FALSE(compileToPTX(kAdd, "add.py", SourceLanguage::Auto, o, nullptr, out));
  EXPECT_EQ(out.diagnostics,
            "error: num_warps must be a power of two in [1, 32], found 5\n");
  o = addOptions();
  o.kernel = "missing";
  EXPECT_FALSE(compileToPTX(kAdd, "add.py", SourceLanguage::Auto, o, nullptr, out));
  EXPECT_NE(out.diagnostics.find("missing"), std::string::npos);
  EXPECT_TRUE(out.ptx.empty());
  // MLIR source; a Python file read as MLIR says so.
  EXPECT_FALSE(compileToPTX(kAdd, "add.mlir", SourceLanguage::Auto,
                            CompileOptions(), nullptr, out));
  EXPECT_NE(out.diagnostics.find("looks like a Triton-language file"),
            std::string::npos);
}

} // namespace
