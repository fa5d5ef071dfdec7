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
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec {

/// Where to stop (tilec --emit=...).
enum class Stage { AST, Tile, Layout, SIMT, LLVMDialect, LLVMIR, PTX };

/// Parses the `.py` file in the main buffer of `sourceMgr` and imports
/// kernel `options.kernelName` as tile IR. Syntax errors are all reported
/// (as MLIR diagnostics at their file:line:col); returns null on any error.
/// With `astOut`, prints the syntax tree there and returns null without
/// importing (the `ast` stage).
mlir::OwningOpRef<mlir::ModuleOp>
importTritonFile(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx,
                 const frontend::KernelOptions &options,
                 llvm::raw_ostream *astOut = nullptr);

/// Runs the pipeline on tile IR up to `stop` (Tile..LLVMDialect).
mlir::LogicalResult runPipeline(mlir::ModuleOp module, Stage stop,
                                const PipelineOptions &options);

/// One call, for host programs: compiles kernel `kernel.kernelName` of the
/// Triton-language `source` (named `fileName` in messages) for `arch` to
/// PTX with the runtime's metadata lines. Returns false on error, with every
/// diagnostic (`file:line:col: error: ...`, source line, caret) in
/// `diagnostics`. Thread-safe: each call has its own MLIR context.
bool compileTritonToPTX(llvm::StringRef source, llvm::StringRef fileName,
                        const frontend::KernelOptions &kernel,
                        const PipelineOptions &options, std::string &ptx,
                        std::string &diagnostics);

/// Registers the dialects, interfaces and translations tilec uses.
void prepareContext(mlir::MLIRContext &ctx);

} // namespace tilec

#endif // TILEC_COMPILER_DRIVER_DRIVER_H
