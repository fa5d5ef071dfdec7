//===- FuzzInputTest.cpp - The fuzzer's multi-file inputs and seeds -------===//
//
// The front-end fuzzer (test/Fuzz/FrontendFuzzer.cpp) is built only with
// clang; the code it runs on an input (test/Fuzz/FuzzInput.h) is checked
// here, in the ordinary build: how an input splits into files at `#@file`
// lines and which inputs are rejected, that imports read the in-memory file
// system and nothing else, and that every seed of test/Fuzz/seeds compiles
// to PTX (a seed that stopped compiling would only fuzz the error paths).
// Also the embedding API's side of KernelOptions::fileSystem: a package
// compiled from memory by compileTritonToPTX, its errors with their
// source lines.
//
//===----------------------------------------------------------------------===//

#include "test/Fuzz/FuzzInput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace tilec;
using namespace tilec::fuzz;

namespace {

std::vector<FuzzFile> split(std::string_view input) {
  std::optional<std::vector<FuzzFile>> files = splitFuzzInput(input);
  EXPECT_TRUE(files.has_value()) << input;
  return files ? *files : std::vector<FuzzFile>();
}

} // namespace

TEST(FuzzInput, OneFileWithoutMarkers) {
  std::vector<FuzzFile> files = split("import triton\nx = 1\n");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "fuzz.py");
  EXPECT_EQ(files[0].text, "import triton\nx = 1\n");
  EXPECT_EQ(fuzzFilePath(files[0]), "/fuzz/fuzz.py");
  // An empty input: an empty kernel file.
  files = split("");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].text, "");
}

TEST(FuzzInput, SplitsAtMarkerLines) {
  std::vector<FuzzFile> files = split(
      "import a\n#@file a.py\nX = 1\n#@file pkg/__init__.py\n"
      "#@file  pkg/b.py \r\nY = 2\n  #@file not/a/marker.py\n#@file c.py");
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files[0].path, "fuzz.py");
  EXPECT_EQ(files[0].text, "import a\n");
  EXPECT_EQ(files[1].path, "a.py");
  EXPECT_EQ(files[1].text, "X = 1\n");
  EXPECT_EQ(files[2].path, "pkg/__init__.py");
  EXPECT_EQ(files[2].text, "");
  // Blanks and a \r around the path are dropped; a marker not at the start
  // of its line is text.
  EXPECT_EQ(files[3].path, "pkg/b.py");
  EXPECT_EQ(files[3].text, "Y = 2\n  #@file not/a/marker.py\n");
  // The last line needs no line break.
  EXPECT_EQ(files[4].path, "c.py");
  EXPECT_EQ(files[4].text, "");
}

TEST(FuzzInput, BlankPrefixMakesTheFirstFileTheKernel) {
  std::vector<FuzzFile> files = split(
      "\n  \n#@file pkg/kern.py\nimport triton\n#@file pkg/__init__.py\n");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "pkg/kern.py");
  EXPECT_EQ(files[0].text, "import triton\n");
  EXPECT_EQ(fuzzFilePath(files[0]), "/fuzz/pkg/kern.py");
  // fuzz.py itself may then be named.
  files = split("#@file fuzz.py\nx = 1\n");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "fuzz.py");
}

TEST(FuzzInput, RejectsPathsOutsideTheRootAndDuplicates) {
  for (const char *input :
       {"#@file ../x.py\n", "#@file a/../../x.py\n", "#@file /etc/x.py\n",
        "#@file a//b.py\n", "#@file ./a.py\n", "#@file \n", "#@file a/\n",
        "#@file a\\b.py\n", "x = 1\n#@file fuzz.py\n",
        "#@file a.py\n#@file a.py\n"})
    EXPECT_FALSE(splitFuzzInput(input).has_value()) << input;
  std::string longPath(kMaxPathLength + 1, 'a');
  EXPECT_FALSE(splitFuzzInput("#@file " + longPath + "\n").has_value());
  // A file where another needs a folder: the file system refuses.
  std::vector<FuzzFile> clash = split("#@file a.py\n#@file a.py/b.py\n");
  EXPECT_FALSE(makeFuzzFileSystem(clash));
  EXPECT_EQ(runFuzzInput("#@file a.py\n#@file a.py/b.py\n"),
            FuzzOutcome::Rejected);
}

TEST(FuzzInput, AtMostSixteenFiles) {
  std::string input = "x = 1\n";
  for (size_t i = 0; i < kMaxFiles; ++i)
    input += "#@file m" + std::to_string(i) + ".py\n";
  EXPECT_EQ(split(input).size(), kMaxFiles + 1);
  input += "#@file one_too_many.py\n";
  EXPECT_FALSE(splitFuzzInput(input).has_value());
}

TEST(FuzzInput, FilesLiveUnderTheRoot) {
  std::vector<FuzzFile> files = split("k\n#@file pkg/m.py\nX = 1\n");
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> fs =
      makeFuzzFileSystem(files);
  ASSERT_TRUE(fs);
  auto buffer = fs->getBufferForFile("/fuzz/pkg/m.py");
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "X = 1\n");
  EXPECT_TRUE(fs->status("/fuzz/pkg")->isDirectory());
  EXPECT_TRUE(fs->exists("/fuzz/fuzz.py"));
  // Relative paths start at the root.
  EXPECT_TRUE(fs->exists("pkg/m.py"));
}

namespace {

const char *kUsesHelpers = R"(import triton
import triton.language as tl
import helpers as hx


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, hx.scaled(tl.load(x_ptr + offs)))
)";

} // namespace

TEST(FuzzInput, ImportsReadTheInMemoryFiles) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  std::string input = std::string(kUsesHelpers) + R"(#@file helpers.py
import triton
SCALE = 3


@triton.jit
def scaled(x):
    return x * SCALE
)";
  EXPECT_EQ(runFuzzInput(input, &os), FuzzOutcome::Compiled) << diagnostics;
  // Without the module, the error names the in-memory import path.
  diagnostics.clear();
  EXPECT_EQ(runFuzzInput(kUsesHelpers, &os), FuzzOutcome::ImportError);
  EXPECT_NE(diagnostics.find("\"/fuzz/fuzz.py\":9:"), std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("no helpers module on the import path: /fuzz, "
                             "/fuzz;"),
            std::string::npos)
      << diagnostics;
  // A module that does not parse: its error is located in its in-memory
  // file.
  diagnostics.clear();
  EXPECT_EQ(
      runFuzzInput(std::string(kUsesHelpers) + "#@file helpers.py\nSCALE = (\n",
                   &os),
      FuzzOutcome::ImportError);
  EXPECT_NE(diagnostics.find("\"/fuzz/helpers.py\":"), std::string::npos)
      << diagnostics;
}

TEST(FuzzInput, RealFilesAreNotSeen) {
  // test/Frontend/imports/helpers.py exists on disk, but the in-memory file
  // system given to the front end is all it reads.
  ASSERT_TRUE(llvm::sys::fs::exists(TILEC_FRONTEND_IMPORTS "/helpers.py"));
  auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  frontend::KernelOptions k;
  k.kernelName = "k";
  k.signature = "*fp32:16";
  k.constexprs = {{"BLOCK", "16"}};
  k.importPaths = {TILEC_FRONTEND_IMPORTS};
  k.fileSystem = fs;
  std::string ptx, diagnostics;
  EXPECT_FALSE(compileTritonToPTX(kUsesHelpers, TILEC_FRONTEND_IMPORTS "/k.py",
                                  k, PipelineOptions(), ptx, diagnostics));
  EXPECT_NE(diagnostics.find("no helpers module on the import path"),
            std::string::npos)
      << diagnostics;
}

TEST(FuzzInput, HostCompilesAPackageFromMemory) {
  // What an embedding host does: the kernel source in memory, its modules
  // in an in-memory file system on the import path.
  auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  fs->addFile("/mem/lib/helpers.py", 0,
              llvm::MemoryBuffer::getMemBufferCopy(R"(import triton
from .scales import SCALE


@triton.jit
def scaled(x):
    return x * SCALE


@triton.jit
def broken(x):
    return x + undefined_name
)"));
  fs->addFile("/mem/lib/__init__.py", 0,
              llvm::MemoryBuffer::getMemBufferCopy("from .helpers import *\n"));
  fs->addFile("/mem/lib/scales.py", 0,
              llvm::MemoryBuffer::getMemBufferCopy("SCALE = 3\n"));
  const char *source = R"(import triton
import triton.language as tl
import lib


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, lib.scaled(tl.load(x_ptr + offs)))


@triton.jit
def k_broken(x_ptr):
    tl.store(x_ptr, lib.broken(1.0))
)";
  frontend::KernelOptions k;
  k.kernelName = "k";
  k.signature = "*fp32:16";
  k.constexprs = {{"BLOCK", "128"}};
  k.importPaths = {"/mem"};
  k.fileSystem = fs;
  std::string ptx, diagnostics;
  EXPECT_TRUE(compileTritonToPTX(source, "kernel.py", k, PipelineOptions(), ptx,
                                 diagnostics))
      << diagnostics;
  EXPECT_NE(ptx.find(".entry k("), std::string::npos);
  // An error in a module: its in-memory file, line and source line.
  k.kernelName = "k_broken";
  k.signature = "*fp32:16";
  k.constexprs.clear();
  diagnostics.clear();
  EXPECT_FALSE(compileTritonToPTX(source, "kernel.py", k, PipelineOptions(),
                                  ptx, diagnostics));
  EXPECT_NE(diagnostics.find("/mem/lib/helpers.py:12:16: error: name "
                             "'undefined_name' is not defined\n"
                             "    return x + undefined_name\n"),
            std::string::npos)
      << diagnostics;
}

TEST(FuzzInput, EverySeedCompiles) {
  std::error_code ec;
  unsigned seeds = 0;
  for (llvm::sys::fs::directory_iterator it(TILEC_FUZZ_SEEDS, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".py"))
      continue;
    ++seeds;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    ASSERT_TRUE(bool(buffer)) << it->path();
    std::string input((*buffer)->getBuffer());
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    EXPECT_EQ(runFuzzInput(input, &os), FuzzOutcome::Compiled)
        << it->path() << ":\n"
        << diagnostics;
    // Each seed is about imports: it holds modules besides its kernel.
    std::optional<std::vector<FuzzFile>> files = splitFuzzInput(input);
    ASSERT_TRUE(files.has_value()) << it->path();
    EXPECT_GT(files->size(), 1u) << it->path();
  }
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_GE(seeds, 9u);
}
