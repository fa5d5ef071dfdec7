//===- FrontendFuzzer.cpp - libFuzzer target over the front end -----------===//
//
// One input is the text of a `.py` file. It is tokenized and parsed
// (py::parseModule), and its syntax tree printed to a null stream; if it
// parsed without diagnostics and holds a jit function, the first one is
// imported as a kernel (frontend::importKernel) into a fresh MLIR context with
// a signature guessed from its parameters (under KernelOptions' default
// budgets), and what imports is run through the whole pipeline and LLVM's
// NVPTX backend to PTX text (emitPTX). Diagnostics are swallowed:
// an error is a fine outcome, a crash, hang, leak or sanitizer report is not.
//
// Built only with -DTILEC_BUILD_FUZZERS=ON and clang (scripts/fuzz.sh);
// docs/testing.md, "Fuzzing", says how to run it.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/Driver.h"
#include "compiler/Frontend/ImportToTile.h"
#include "compiler/Frontend/Parser.h"
#include "compiler/InitAll.h"
#include "compiler/Target/PTX/PTXBackend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace tilec;

namespace {

/// True if `param` is annotated `constexpr`, `tl.constexpr` or
/// `triton.language.constexpr`.
bool isConstexprParam(const py::Param &param) {
  if (!param.annotation)
    return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  py::printExpr(*param.annotation, os);
  return llvm::StringRef(text).ends_with("constexpr");
}

/// Integer-looking parameter names (`n_elements`, `M`, `stride_am`, ...)
/// get `i32`; everything else is a pointer to fp32. Constexprs are -D'd to
/// 16 and left out of the signature.
void guessSpecialization(const py::FunctionDef &fn,
                         frontend::KernelOptions &options) {
  options.kernelName = fn.name;
  std::string signature;
  for (const py::Param &param : fn.params) {
    if (isConstexprParam(param)) {
      options.constexprs.emplace_back(param.name, "16");
      continue;
    }
    llvm::StringRef name(param.name);
    bool isInt = name.starts_with("n") || name.starts_with("N") ||
                 name.contains("stride") || name.contains("size") ||
                 (name.size() == 1 && llvm::isUpper(name[0]));
    if (!signature.empty())
      signature += ", ";
    signature += isInt ? "i32" : "*fp32";
  }
  options.signature = std::move(signature);
}

const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

} // namespace

/// The LLVM and MLIR libraries are uninstrumented, but the LLVM headers
/// inlined into the instrumented code (BumpPtrAllocator) poison the memory
/// they hand out when built with ASan, and the libraries' own inlined copies
/// never unpoison it: every MLIRContext would report use-after-poison. Manual
/// poisoning is off; ASan's own redzones still cover the project's code.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view source(reinterpret_cast<const char *>(data), size);
  py::ParseResult parsed = py::parseModule(source, "fuzz.py");
  py::dumpAST(*parsed.module, llvm::nulls());
  if (!parsed.succeeded() || parsed.module->functions.empty())
    return 0;

  mlir::MLIRContext ctx(getRegistry(), mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler swallow(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });

  frontend::KernelOptions options;
  guessSpecialization(*parsed.module->functions.front(), options);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      frontend::importKernel(*parsed.module, options, &ctx);
  if (!module)
    return 0;
  // The whole pipeline, through LLVM's NVPTX backend to PTX text: the
  // symbol, parameter and fatal-error checks live past the layout stage.
  if (failed(runPipeline(*module, Stage::LLVMDialect, PipelineOptions())))
    return 0;
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  (void)emitPTX(*module, "sm_90a", os, /*fpFusion=*/true);
  return 0;
}
