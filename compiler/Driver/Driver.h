//===- Driver.h - Compile tile programs in-process --------------*- C++ -*-===//
//
// The compiler as a library: the steps `tilec` runs (import a `.py` kernel or
// parse `.mlir`, run the pipeline to a stage, emit PTX) and a one-call API
// for host programs that compile Triton-language source at run time and
// hand the PTX to the runtime (tilec::Module::loadPTX).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_DRIVER_DRIVER_H
#define TILEC_COMPILER_DRIVER_DRIVER_H

#include "compiler/Frontend/ImportToTile.h"
#include "compiler/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace tilec {

/// The default for DiagnosticReporter's error limit (tilec --error-limit,
/// as clang's -ferror-limit).
inline constexpr unsigned kDefaultErrorLimit = 20;

/// Prints the diagnostics of `ctx` to `os` as `file:line:col: error: ...`
/// with the source line (from `sourceMgr`) and a caret (the column counts
/// characters; the caret is under the character, also on lines with
/// non-ASCII text): at most `errorLimit` errors (0: no limit; the rest are
/// counted, not printed), and control and format characters and bytes that
/// are not UTF-8 shown as '?' (raw escape sequences and bidirectional
/// overrides from an untrusted file never reach a terminal). Register it
/// before anything emits; call finish() at the end for the "N more errors"
/// line.
class DiagnosticReporter {
public:
  DiagnosticReporter(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx,
                     llvm::raw_ostream &os, unsigned errorLimit);
  ~DiagnosticReporter();
  DiagnosticReporter(const DiagnosticReporter &) = delete;
  DiagnosticReporter &operator=(const DiagnosticReporter &) = delete;
  /// Reports how many errors the limit suppressed, if any.
  void finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Where to stop (tilec --emit=...).
/// CUDA: CUDA C++ printed from the SIMT stage (the MLIR pipeline stops
/// there).
enum class Stage {
  AST,
  Tile,
  Layout,
  SIMT,
  LLVMDialect,
  LLVMIR,
  PTX,
  Cubin,
  CUDA
};

/// Parses the `.py` file in the main buffer of `sourceMgr` and imports
/// kernel `options.kernelName` as tile IR. Syntax errors are all reported
/// (as MLIR diagnostics at their file:line:col); returns null on any error.
/// With `astOut`, prints the syntax tree there and returns null without
/// importing (the `ast` stage).
mlir::OwningOpRef<mlir::ModuleOp>
importTritonFile(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx,
                 const frontend::KernelOptions &options,
                 llvm::raw_ostream *astOut = nullptr);

/// Parses the `.py` file in the main buffer of `sourceMgr` once and imports
/// each of `kernels` (its name, signature, constexprs) into one module:
/// tilec --kernel a,b. With several kernels a constexpr value may be meant
/// for any of them; one that names no constexpr parameter of any is an
/// error at the file. Returns null after any error.
mlir::OwningOpRef<mlir::ModuleOp>
importTritonKernels(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx,
                    llvm::ArrayRef<frontend::KernelOptions> kernels);

/// An error at each `tile.func` of `module` whose work
/// (tile::getOperationWork summed over its ops, at its num_warps) exceeds
/// `maxOperations` (0: no limit): the `--max-operations` budget for `.mlir`
/// input, which the front end applies to `.py` input as it generates.
mlir::LogicalResult checkOperationBudget(mlir::ModuleOp module,
                                         uint64_t maxOperations);

/// Parses the tile-dialect module in the main buffer of `sourceMgr` and
/// verifies it; refuses brackets nested more than 1000 deep first (MLIR's
/// parser recurses per level). With `numWarps` != 0 sets it on every
/// `tile.func`; then applies checkOperationBudget. Null after an error (as
/// MLIR diagnostics); `looksLikePython` (optional) says whether a text that
/// failed to parse looks like a Triton-language file.
mlir::OwningOpRef<mlir::ModuleOp>
parseTileFile(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx,
              unsigned numWarps, uint64_t maxOperations,
              bool *looksLikePython = nullptr);

/// Adds the pipeline from tile IR up to `stop` (Tile..LLVMDialect) to `pm`.
void buildPipeline(mlir::OpPassManager &pm, Stage stop,
                   const PipelineOptions &options);

/// Runs the pipeline on tile IR up to `stop` (Tile..LLVMDialect), with
/// runWithVersioningFallback.
mlir::LogicalResult runPipeline(mlir::ModuleOp module, Stage stop,
                                const PipelineOptions &options);

/// Runs `run(m, versionAlignment)` -- the pipeline on `m`, giving kernels
/// aligned variants where `versionAlignment` -- so that a variant never
/// costs its kernel: with `versionAlignment` on, first on a copy of
/// `module` with the diagnostics held; if that succeeds the copy's result
/// replaces `module`'s body and the held diagnostics (remarks) are emitted,
/// if it fails (a variant the later passes cannot compile: its facts chose
/// other layouts) they are dropped and `run(module, false)` decides, with
/// its own diagnostics. `crashed` (optional), set by `run` when it failed
/// by a crash, stops the second try.
mlir::LogicalResult runWithVersioningFallback(
    mlir::ModuleOp module, bool versionAlignment,
    llvm::function_ref<mlir::LogicalResult(mlir::ModuleOp, bool)> run,
    const bool *crashed = nullptr);

/// One call, for host programs: compiles kernel `kernel.kernelName` of the
/// Triton-language `source` (named `fileName` in messages) for `arch` to
/// PTX with the runtime's metadata lines. Returns false on error, with every
/// diagnostic (`file:line:col: error: ...`, source line, caret) in
/// `diagnostics`. Modules the source imports are read through
/// `kernel.fileSystem` (an llvm::vfs::InMemoryFileSystem compiles a whole
/// package from memory; null: the real file system), as are the source
/// lines of diagnostics in them. Thread-safe: each call has its own MLIR
/// context. An LLVM fatal error or a crash inside the compiler is an error
/// too (an "internal compiler error" line; runRecoveringFromCrashes), never
/// the end of the host process.
bool compileTritonToPTX(llvm::StringRef source, llvm::StringRef fileName,
                        const frontend::KernelOptions &kernel,
                        const PipelineOptions &options, std::string &ptx,
                        std::string &diagnostics);

/// The same for several kernels of one source in one PTX module (one
/// KernelOptions each: name, signature, constexprs; importTritonKernels).
/// The error limit is the first kernel's.
bool compileTritonToPTX(llvm::StringRef source, llvm::StringRef fileName,
                        llvm::ArrayRef<frontend::KernelOptions> kernels,
                        const PipelineOptions &options, std::string &ptx,
                        std::string &diagnostics);

/// Runs `body` with an MLIR context prepared for tilec (prepareContext), a
/// source manager whose main buffer is `source` (named `fileName`) and
/// whose other files come from `fileSystem` (null: the real one), and a
/// DiagnosticReporter printing every diagnostic to `diagnostics` (at most
/// `errorLimit` errors; 0: no limit). The common frame of the in-process
/// compiles; returns what `body` returns.
bool withSourceContext(
    llvm::StringRef source, llvm::StringRef fileName,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
    unsigned errorLimit, std::string &diagnostics,
    llvm::function_ref<bool(llvm::SourceMgr &, mlir::MLIRContext &,
                            llvm::raw_ostream &)>
        body);

/// Runs the pipeline on `module` (tile IR) to the stage its backend prints
/// from and prints the kernels into `text`: PTX, or CUDA C++ with
/// options.cudaBackend (both with the runtime's metadata lines).
mlir::LogicalResult compileModuleToText(mlir::ModuleOp module,
                                        const PipelineOptions &options,
                                        std::string &text);

/// compileTritonToPTX without the crash recovery (what it runs inside
/// runRecoveringFromCrashes). With options.cudaBackend, `ptx` is CUDA C++.
bool compileTritonToPTXUnprotected(
    llvm::StringRef source, llvm::StringRef fileName,
    llvm::ArrayRef<frontend::KernelOptions> kernels,
    const PipelineOptions &options, std::string &ptx,
    std::string &diagnostics);

/// Runs `work` so that an LLVM fatal error (report_fatal_error) or a crash
/// inside it (a signal such as SIGSEGV or SIGABRT) ends `work` instead of the
/// process: returns false and appends "error: internal compiler error: ..."
/// to `diagnostics`; otherwise returns what `work` returned. The first call
/// enables llvm::CrashRecoveryContext for the process and installs LLVM's
/// fatal-error handler (a host that installs its own LLVM fatal-error handler
/// replaces tilec's). Memory held by an aborted `work` is leaked.
bool runRecoveringFromCrashes(llvm::function_ref<bool()> work,
                              std::string &diagnostics);

/// Registers the dialects, interfaces and translations tilec uses.
void prepareContext(mlir::MLIRContext &ctx);

} // namespace tilec

#endif // TILEC_COMPILER_DRIVER_DRIVER_H
