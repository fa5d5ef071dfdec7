//===- CrashRecoveryTest.cpp - Fatal errors stay inside the compile -------===//
//
// tilec is embedded: an LLVM fatal error or a crash inside a compile must
// come back to the host as an error value (runRecoveringFromCrashes, which
// compileTritonToPTX runs in), and the host -- this test process -- goes
// on; later compiles work as before.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"

#include "llvm/Support/ErrorHandling.h"

#include <csignal>
#include <gtest/gtest.h>

using namespace tilec;

namespace {

const char *kVectorAdd = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

bool compileVectorAdd(std::string &ptx, std::string &diagnostics) {
  frontend::KernelOptions k;
  k.kernelName = "add_kernel";
  k.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
  k.constexprs = {{"BLOCK", "1024"}};
  return compileTritonToPTX(kVectorAdd, "add.py", k, PipelineOptions(), ptx,
                            diagnostics);
}

} // namespace

TEST(CrashRecovery, FatalErrorBecomesAnErrorValue) {
  std::string diagnostics;
  bool ok = runRecoveringFromCrashes(
      [] {
        llvm::report_fatal_error("simulated backend failure");
        return true;
      },
      diagnostics);
  EXPECT_FALSE(ok);
  EXPECT_NE(diagnostics.find("error: internal compiler error: simulated "
                             "backend failure"),
            std::string::npos)
      << diagnostics;
}

TEST(CrashRecovery, SignalBecomesAnErrorValue) {
  std::string diagnostics;
  bool ok = runRecoveringFromCrashes(
      [] {
        std::raise(SIGSEGV);
        return true;
      },
      diagnostics);
  EXPECT_FALSE(ok);
  EXPECT_NE(diagnostics.find("error: internal compiler error: the compiler "
                             "crashed"),
            std::string::npos)
      << diagnostics;
}

TEST(CrashRecovery, CompilesAfterRecovering) {
  std::string diagnostics;
  EXPECT_FALSE(runRecoveringFromCrashes(
      [] {
        llvm::report_fatal_error("first");
        return true;
      },
      diagnostics));
  std::string ptx, diags;
  ASSERT_TRUE(compileVectorAdd(ptx, diags)) << diags;
  EXPECT_NE(ptx.find(".visible .entry add_kernel("), std::string::npos);
  EXPECT_TRUE(diags.empty()) << diags;
}

TEST(CrashRecovery, ErrorsAreReturnedNotFatal) {
  frontend::KernelOptions k;
  k.kernelName = "ядро";
  std::string ptx, diagnostics;
  std::string src = std::string(kVectorAdd) +
                    "\n\n@triton.jit\ndef ядро(p):\n    tl.store(p, 1.0)\n";
  k.signature = "*fp32";
  EXPECT_FALSE(compileTritonToPTX(src, "names.py", k, PipelineOptions(), ptx,
                                  diagnostics));
  EXPECT_NE(diagnostics.find("is not a valid PTX identifier"),
            std::string::npos)
      << diagnostics;
  EXPECT_TRUE(ptx.empty());
}

TEST(CompileTritonToPTX, SeveralKernelsInOneModule) {
  std::string src = std::string(kVectorAdd) +
                    "\n\n@triton.jit\ndef fill(p, v):\n    tl.store(p, v)\n";
  frontend::KernelOptions add;
  add.kernelName = "add_kernel";
  add.signature = "*fp32:16,*fp32:16,*fp32:16,i32";
  add.constexprs = {{"BLOCK", "1024"}};
  frontend::KernelOptions fill = add;
  fill.kernelName = "fill";
  fill.signature = "*fp32,fp32";
  std::string ptx, diagnostics;
  ASSERT_TRUE(compileTritonToPTX(src, "two.py", {add, fill}, PipelineOptions(),
                                 ptx, diagnostics))
      << diagnostics;
  EXPECT_NE(ptx.find(".visible .entry add_kernel("), std::string::npos);
  EXPECT_NE(ptx.find(".visible .entry fill("), std::string::npos);
  EXPECT_NE(ptx.find("tilec.kernel name=fill"), std::string::npos) << ptx;

  // The same kernel twice, and a kernel the file lacks: errors at the file.
  ptx.clear();
  diagnostics.clear();
  EXPECT_FALSE(compileTritonToPTX(src, "two.py", {add, add}, PipelineOptions(),
                                  ptx, diagnostics));
  EXPECT_NE(diagnostics.find("two.py: error: kernel 'add_kernel' given twice"),
            std::string::npos)
      << diagnostics;
  fill.kernelName = "nope";
  diagnostics.clear();
  EXPECT_FALSE(compileTritonToPTX(src, "two.py", {add, fill},
                                  PipelineOptions(), ptx, diagnostics));
  EXPECT_NE(diagnostics.find("two.py: error: kernel 'nope' not found"),
            std::string::npos)
      << diagnostics;
  EXPECT_TRUE(ptx.empty());
}
