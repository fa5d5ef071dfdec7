//===- PTXBackend.cpp - LLVM dialect to PTX ---------------------*- C++ -*-===//
//
// Clones the gpu.module's body into a plain module, translates it to LLVM IR
// (mlir::translateModuleToLLVMIR), runs LLVM's O3 pipeline with the NVPTX
// target machine and emits PTX assembly. Kernel metadata (tile.* attributes
// the SIMT lowering left on each kernel) becomes the PTX's header lines and
// is removed before translation.
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/PTX/PTXBackend.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace {

struct KernelInfo {
  std::string name, signature;
  int64_t numWarps = 4, shared = 0;
};

/// The LLVM IR of the gpu.module and the metadata of its kernels.
FailureOr<std::unique_ptr<llvm::Module>>
translate(ModuleOp module, llvm::LLVMContext &ctx,
          std::vector<KernelInfo> &kernels) {
  gpu::GPUModuleOp gpuModule;
  module.walk([&](gpu::GPUModuleOp m) { gpuModule = m; });
  if (!gpuModule) {
    module.emitError("expected a gpu.module of lowered kernels (run the "
                     "SIMT and LLVM pipelines first)");
    return failure();
  }
  OpBuilder b(module.getContext());
  OwningOpRef<ModuleOp> plain = ModuleOp::create(gpuModule.getLoc());
  b.setInsertionPointToEnd(plain->getBody());
  for (Operation &op : gpuModule.getBody()->getOperations()) {
    Operation *clone = b.clone(op);
    auto func = dyn_cast<LLVM::LLVMFuncOp>(clone);
    if (!func)
      continue;
    if (auto sig = func->getAttrOfType<StringAttr>("tile.signature")) {
      KernelInfo k;
      k.name = func.getName().str();
      k.signature = sig.str();
      if (auto w = func->getAttrOfType<IntegerAttr>("tile.num_warps"))
        k.numWarps = w.getInt();
      if (auto s = func->getAttrOfType<IntegerAttr>("tile.shared"))
        k.shared = s.getInt();
      kernels.push_back(k);
    }
    SmallVector<StringAttr> drop;
    for (NamedAttribute a : func->getDiscardableAttrs())
      if (a.getName().getValue().starts_with("tile."))
        drop.push_back(a.getName());
    for (StringAttr name : drop)
      func->removeAttr(name);
  }
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(plain.get(), ctx, "tilec");
  if (!llvmModule) {
    gpuModule.emitError("failed to translate the kernels to LLVM IR");
    return failure();
  }
  return llvmModule;
}

/// Optimizes `m` at O3 for `arch` and returns the target machine.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
optimize(llvm::Module &m, StringRef arch, Location loc) {
  static bool initialized = [] {
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    emitError(loc) << "NVPTX target unavailable: " << error;
    return failure();
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, "+ptx80", options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    emitError(loc) << "cannot create an NVPTX target machine for " << arch;
    return failure();
  }
  m.setTargetTriple(triple);
  m.setDataLayout(tm->createDataLayout());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
  return tm;
}

} // namespace

LogicalResult tilec::emitLLVMIR(ModuleOp module, StringRef arch,
                                llvm::raw_ostream &os) {
  llvm::LLVMContext ctx;
  std::vector<KernelInfo> kernels;
  auto m = translate(module, ctx, kernels);
  if (failed(m))
    return failure();
  if (failed(optimize(**m, arch, module.getLoc())))
    return failure();
  (*m)->print(os, nullptr);
  return success();
}

LogicalResult tilec::emitPTX(ModuleOp module, StringRef arch,
                             llvm::raw_ostream &os) {
  llvm::LLVMContext ctx;
  std::vector<KernelInfo> kernels;
  auto m = translate(module, ctx, kernels);
  if (failed(m))
    return failure();
  auto tm = optimize(**m, arch, module.getLoc());
  if (failed(tm))
    return failure();
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream ptxStream(ptx);
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, ptxStream, nullptr,
                                 llvm::CodeGenFileType::AssemblyFile)) {
    emitError(module.getLoc()) << "NVPTX cannot emit assembly for " << arch;
    return failure();
  }
  pm.run(**m);
  os << "//\n// Generated by tilec for " << arch << "\n//\n";
  for (const KernelInfo &k : kernels)
    os << "// tilec.kernel name=" << k.name << " num_warps=" << k.numWarps
       << " shared=" << k.shared << " signature=" << k.signature << "\n";
  os << ptx;
  return success();
}
