//===- ImportToTile.h - Triton-language AST to tile IR ----------*- C++ -*-===//
//
// The semantic half of the front end: specializes one `@triton.jit` kernel of
// a parsed `.py` module (signature, constexpr values, options) and emits it
// as tile IR. Helpers are inlined at their call sites, constexpr code is
// evaluated at compile time (so a dead `if` branch is never lowered), and
// every op carries the `.py` location it came from (a CallSiteLoc inside an
// inlined helper). Semantics follow triton.language; docs/language.md lists
// each decision and the test that pins it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_FRONTEND_IMPORTTOTILE_H
#define TILEC_COMPILER_FRONTEND_IMPORTTOTILE_H

#include "compiler/Frontend/AST.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <utility>
#include <vector>

namespace tilec::frontend {

/// What to compile and how to specialize it (the `tilec x.py` options).
struct KernelOptions {
  /// The `@triton.jit` function to compile.
  std::string kernelName;
  /// Triton AOT signature, one entry per parameter in order: `*fp32:16` (a
  /// pointer to fp32, 16-byte aligned), `i32`, `i32:16` (divisible by 16),
  /// `i32:1` (equal to 1), or a constexpr's value at a constexpr position.
  /// Entries may also cover only the non-constexpr parameters.
  std::string signature;
  /// Constexpr values by name (`-D BLOCK_SIZE=1024`): integers, floats,
  /// True/False/None, or anything else as a string.
  std::vector<std::pair<std::string, std::string>> constexprs;
  /// Where `import a.b` looks for `a/b.py` or `a/b/__init__.py` after the
  /// kernel file's own folder (`-I DIR`, then `TILEC_PYTHONPATH`), in
  /// order. A directory under which the kernel file lies in packages also
  /// names its module, for relative imports (`from ..utils import x`).
  std::vector<std::string> importPaths;
  /// The file system imports read: the kernel file's folder, module files,
  /// `__init__.py`s, namespace-package folders, the working directory that
  /// relative paths start from. Null: the real one. A host application that
  /// compiles from memory gives an llvm::vfs::InMemoryFileSystem holding
  /// the kernel's modules (as the fuzzer does, test/Fuzz/FrontendFuzzer.cpp).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem;
  /// Warps per CTA (0: the chosen autotune config's, else 4).
  unsigned numWarps = 0;
  /// Software-pipelining depth recorded on the kernel (0: the chosen
  /// config's, else 3).
  unsigned numStages = 0;
  /// Which `triton.Config` of the kernel's `@triton.autotune` specializes it
  /// (an index into its configs; -1: not given, the first).
  int autotuneConfig = -1;
  /// The target (`--arch`), which host code evaluated for autotune configs
  /// sees as `get_current_target().arch` (sm_90a: 90).
  std::string arch = "sm_90a";
  /// Whether host code run at module level (`os.environ.get("X", "0")`,
  /// `os.getenv`) reads this process's environment, as Python would at
  /// import (the tilec command line), or sees an empty one (the default:
  /// source a host application compiles must not read its environment).
  bool readEnvironment = false;
  /// Most errors one compile reports (compileTritonToPTX; tilec's
  /// --error-limit); 0: no limit.
  unsigned errorLimit = 20;
  /// Budgets on the work one kernel may ask of the front end, so that
  /// untrusted source ends quickly (each exceeded is a located error naming
  /// the budget and its tilec option; real kernels stay far below):
  /// helper calls inlined (--max-inlined-calls), iterations of loops
  /// unrolled at compile time (tl.static_range; --max-unrolled-iterations),
  /// and operations in the kernel's tile IR (--max-operations).
  unsigned maxInlinedCalls = 10000;
  /// Several kernels compiled together (tilec --kernel a,b): a constexpr
  /// value applies to each kernel that declares it, and one no kernel
  /// declares is the caller's error to report.
  bool constexprsForSomeKernel = false;
  unsigned maxUnrolledIterations = 10000;
  /// Weighted by elements per thread (tile::getOperationWork): the largest
  /// kernel of the test suite weighs 4472; a budget-sized one of exp on
  /// 2^17-element tiles compiles in about 9 s.
  unsigned maxOperations = 100000;
  /// Remarks naming each plain integer parameter (no `:16` in the
  /// signature) that would widen a load or store if it were known to be a
  /// multiple of 16, as Triton's JIT assumes by itself (tilec shows them;
  /// off in the API).
  bool divisibilityRemarks = false;
  /// Run-time assertions (tl.device_assert, `assert` on run-time values)
  /// become checks on the GPU (tile.assert); off, they compile to nothing,
  /// as Triton's default (tilec --debug; Triton's debug=True /
  /// TRITON_DEBUG=1).
  bool debug = false;
};

/// How --max-operations counts (tile::getOperationWork), for its error.
inline constexpr const char *kOperationWorkRule =
    "(work per thread: an op weighs its tile's elements per thread, a dot "
    "those times K, a loop 100, an if 30; --max-operations=N raises it; 0: "
    "no limit)";

/// Emits kernel `options.kernelName` of `module` as tile IR. Errors are
/// emitted as MLIR diagnostics located in the `.py` file (module.fileName);
/// returns null after any error.
mlir::OwningOpRef<mlir::ModuleOp> importKernel(const py::Module &module,
                                               const KernelOptions &options,
                                               mlir::MLIRContext *ctx);

} // namespace tilec::frontend

#endif // TILEC_COMPILER_FRONTEND_IMPORTTOTILE_H
