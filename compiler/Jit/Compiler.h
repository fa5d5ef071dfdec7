//===- Compiler.h - CompileOptions to PTX, in-process -----------*- C++ -*-===//
//
// The compile step the command line and the JIT share: tilec::CompileOptions
// (tilec/Compile.h) converted to the front end's and the pipeline's options,
// and one call from source text (Python or tile MLIR) to PTX with the
// runtime's metadata lines. Internal to the compiler (uses LLVM types).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_JIT_COMPILER_H
#define TILEC_COMPILER_JIT_COMPILER_H

#include "tilec/Compile.h"
#include "tilec/Runtime.h"
#include "compiler/Frontend/ImportToTile.h"
#include "compiler/Pipeline/Pipeline.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <string>
#include <vector>

namespace tilec {

/// The arch a compile uses: `options.arch`, or sm_90a when it is empty.
std::string effectiveArch(const CompileOptions &options);

/// The front end's options for `options` (environment not read, no
/// divisibility remarks: the library's defaults).
frontend::KernelOptions toKernelOptions(const CompileOptions &options);

/// The pipeline's options for `options`.
PipelineOptions toPipelineOptions(const CompileOptions &options);

/// What compileToPTX produced.
struct CompileOutput {
  /// PTX with one `// tilec.kernel` metadata line per kernel.
  std::string ptx;
  /// Every file the compile read through the file system (modules an
  /// import found, `__init__.py`s), absolute, with the SHA-256 of the bytes
  /// the compiler read: what the JIT's cache checks before reusing the
  /// result. The main source is text, not a file, and is not listed.
  std::vector<std::pair<std::string, std::string>> filesRead;
  /// Every path the compile looked for and did not find (an import's
  /// other candidates): a module appearing there later could change what
  /// an import resolves to, so the cache checks they are still absent.
  std::vector<std::string> pathsAbsent;
  /// Warnings and errors as `file:line:col: error: ...` with the source
  /// line and a caret; an "internal compiler error" line when the compiler
  /// crashed (runRecoveringFromCrashes).
  std::string diagnostics;
};

/// Compiles `source` (named `fileName` in messages and for relative
/// imports; `language` Auto decides by its extension) with `options` to
/// PTX. Modules are read through `fileSystem` (null: the real one). Thread-
/// safe (each call has its own MLIR context); a crash inside the compiler
/// is an error, never the end of the process. Returns false after any
/// error, with the messages in `out.diagnostics`.
bool compileToPTX(std::string_view source, std::string_view fileName,
                  SourceLanguage language, const CompileOptions &options,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                  CompileOutput &out);

/// What the JIT's autotuner needs to know of a Python kernel before it
/// compiles any config (inspectTritonKernel).
struct KernelInspection {
  /// The kernel's run-time parameters (signature entries that are not
  /// constexpr values), in order: the launch's arguments.
  std::vector<std::string> paramNames;
  /// `@triton.autotune`'s configs (empty without the decorator), each as
  /// constexpr values (Python's spelling: 128, 0.5, True, None, 'x'),
  /// num_warps and num_stages.
  struct Config {
    std::vector<std::pair<std::string, std::string>> constexprs;
    unsigned numWarps = 4, numStages = 3;
    /// triton.Config's maxnreg (0: none).
    unsigned maxnreg = 0;
  };
  std::vector<Config> configs;
  /// Its key=, reset_to_zero= and restore_value= (parameter names).
  std::vector<std::string> key, resetToZero, restoreValue;
};

/// "BLOCK=128, num_warps=4, num_stages=3" (", maxnreg=N" when not 0): a
/// config as the autotuners (the JIT's and tilec --aot's) describe it.
std::string describeAutotuneConfig(
    const std::vector<std::pair<std::string, std::string>> &constexprs,
    unsigned numWarps, unsigned numStages, unsigned maxnreg = 0);

/// `info`'s key=, reset_to_zero= and restore_value= as argument indices
/// (its paramNames). A key name that is not a run-time parameter (a
/// constexpr) is left out: the compile key fixes it. Returns "" or the
/// first buffer name that is not a run-time parameter.
std::string autotuneArgIndices(const KernelInspection &info,
                               std::vector<size_t> &keyArgs,
                               std::vector<size_t> &resetArgs,
                               std::vector<size_t> &restoreArgs);

/// Imports kernel `options.kernel` of Python `source` (the front end only,
/// config 0) and reads its parameters and autotune data. False after an
/// error, with the messages in `diagnostics`.
bool inspectTritonKernel(std::string_view source, std::string_view fileName,
                         const CompileOptions &options,
                         KernelInspection &out, std::string &diagnostics);

/// Finds ptxas: $TILEC_PTXAS (only it, when set), else $CUDA_HOME/bin,
/// $CUDA_PATH/bin, /usr/local/cuda/bin, then PATH. "" when none.
std::string findPtxas();

/// Assembles `ptx` for `arch` into `cubin` with the ptxas at `ptxas` (run
/// as a process on temporary files, at most 300 s). The error carries
/// ptxas's output. Kernels marked `maxnreg=auto` get the register budget
/// of their occupancy as the runtime gives it to PTX
/// (occupancyRegisterBudget), with the target's limits
/// (TargetInfo::residentCTAs) and ptxas's own register count from a
/// first, verbose run: a second run with `.maxnreg` where that budget is
/// above the count.
/// What `ptxas -v` reports of one entry function.
struct PtxasUsage {
  unsigned registers = 0;
  /// Static shared memory, in bytes.
  unsigned sharedBytes = 0;
};
/// The entries of a `ptxas -v` log ("Compiling entry function 'k'", then
/// "Used N registers, ..., B bytes smem, ..."), by name. Entries whose
/// usage line is missing or unreadable have zeros.
std::map<std::string, PtxasUsage> parsePtxasUsage(llvm::StringRef log);

Status assembleCubin(const std::string &ptxas, llvm::StringRef arch,
                     llvm::StringRef ptx, std::string &cubin);

} // namespace tilec

#endif // TILEC_COMPILER_JIT_COMPILER_H
