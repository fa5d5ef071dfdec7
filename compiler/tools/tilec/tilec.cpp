//===- tilec.cpp - The tilec compiler driver -------------------*- C++ -*-===//
//
// `tilec input.mlir --emit=ptx -o out.ptx`: parses a tile program, runs the
// pipeline up to the requested stage and writes it. Errors are printed as
// `file:line:col: error: ...` with the source line and a caret; the exit
// code is 0 on success, 1 on any error. See docs/cli.md.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "compiler/Pipeline/Pipeline.h"
#include "compiler/Target/PTX/PTXBackend.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Stage { Tile, Layout, SIMT, LLVMDialect, LLVMIR, PTX };

cl::OptionCategory tilecCategory("tilec options");

cl::opt<std::string> inputFilename(cl::Positional,
                                   cl::desc("<input .mlir tile program>"),
                                   cl::Required, cl::cat(tilecCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file ('-' for stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(tilecCategory));
cl::opt<Stage> emitStage(
    "emit", cl::desc("Stage to stop at and print"), cl::init(Stage::PTX),
    cl::values(
        clEnumValN(Stage::Tile, "tile", "tile IR after inlining and clean-up"),
        clEnumValN(Stage::Layout, "layout", "tile IR with layout encodings"),
        clEnumValN(Stage::SIMT, "simt", "per-thread SIMT IR (gpu, arith, scf, llvm)"),
        clEnumValN(Stage::LLVMDialect, "llvm-dialect", "LLVM/NVVM dialect"),
        clEnumValN(Stage::LLVMIR, "llvm", "optimized LLVM IR"),
        clEnumValN(Stage::PTX, "ptx", "PTX assembly with kernel metadata (default)")),
    cl::cat(tilecCategory));
cl::opt<std::string> arch("arch",
                          cl::desc("Target GPU: sm_80, sm_89, sm_90, sm_90a"),
                          cl::init("sm_90a"), cl::cat(tilecCategory));
cl::opt<unsigned> numWarps("num-warps",
                           cl::desc("Warps per CTA for every kernel "
                                    "(overrides tile.num_warps; power of two "
                                    "in [1, 32])"),
                           cl::init(0), cl::cat(tilecCategory));

int fail() { return 1; }
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  cl::HideUnrelatedOptions({&tilecCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: compile tile programs to NVIDIA GPU kernels\n\n"
      "  tilec kernel.mlir --emit=ptx -o kernel.ptx\n");

  if (!tilec::isSupportedArch(arch)) {
    llvm::errs() << "tilec: error: unsupported --arch '" << arch
                 << "'; expected sm_80, sm_89, sm_90 or sm_90a\n";
    return fail();
  }
  if (numWarps != 0 && (numWarps > 32 || (numWarps & (numWarps - 1)))) {
    llvm::errs() << "tilec: error: --num-warps must be a power of two in "
                    "[1, 32], found "
                 << numWarps << "\n";
    return fail();
  }
  if (llvm::StringRef(inputFilename).ends_with(".py")) {
    llvm::errs() << inputFilename
                 << ": error: unimplemented: the Triton-language front end "
                    "(.py input) is not built yet; pass a tile dialect .mlir "
                    "file\n";
    return fail();
  }

  DialectRegistry registry;
  tilec::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return fail();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  // The located message is enough; the generic dump of the op is noise.
  context.printOpOnDiagnostic(false);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail();
  if (failed(verify(*module)))
    return fail();
  if (numWarps != 0)
    module->walk([&](tilec::tile::FuncOp f) {
      f->setAttr(tilec::tile::TileDialect::getNumWarpsAttrName(),
                 IntegerAttr::get(IntegerType::get(&context, 32), numWarps));
    });

  tilec::PipelineOptions opts;
  opts.arch = arch;
  opts.numWarps = numWarps;
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail();
  tilec::buildTilePipeline(pm, opts);
  if (emitStage >= Stage::Layout)
    tilec::buildLayoutPipeline(pm, opts);
  if (emitStage >= Stage::SIMT)
    tilec::buildSIMTPipeline(pm, opts);
  if (emitStage >= Stage::LLVMDialect)
    tilec::buildLLVMPipeline(pm, opts);
  if (failed(pm.run(*module)))
    return fail();

  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return fail();
  }
  if (emitStage == Stage::PTX) {
    if (failed(tilec::emitPTX(*module, arch, output->os())))
      return fail();
  } else if (emitStage == Stage::LLVMIR) {
    if (failed(tilec::emitLLVMIR(*module, arch, output->os())))
      return fail();
  } else {
    module->print(output->os());
    output->os() << "\n";
  }
  output->keep();
  return 0;
}
