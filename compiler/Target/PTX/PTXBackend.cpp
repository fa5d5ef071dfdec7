//===- PTXBackend.cpp - LLVM dialect to PTX ---------------------*- C++ -*-===//
//
// Clones the gpu.module's body into a plain module, translates it to LLVM IR
// (mlir::translateModuleToLLVMIR), splits the vectors of kernels off the
// tensor cores into scalars (ScalarizeLanes below), runs LLVM's O3 pipeline
// with the NVPTX target machine and emits PTX assembly. Kernel metadata
// (tile.* attributes the SIMT lowering left on each kernel) becomes the
// PTX's header lines and is removed before translation. Calls into
// libdevice (`__nv_*`, what the upstream math-to-NVVM lowering emits for math
// ops) are resolved by linking the CUDA toolkit's libdevice.10.bc, found
// through $TILEC_LIBDEVICE, $CUDA_HOME or /usr/local/cuda.
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/PTX/PTXBackend.h"
#include "compiler/Target/KernelMetadata.h"
#include "compiler/Target/PTX/GraphMetadata.h"
#include "dialects/Tile/IR/TileGraphOps.h"
#include "passes/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

#include <map>
#include <mutex>

using namespace mlir;
using tilec::KernelMetadata;

namespace {

/// The LLVM IR of the gpu.module and the metadata of its kernels.
FailureOr<std::unique_ptr<llvm::Module>>
translate(ModuleOp module, llvm::LLVMContext &ctx,
          std::vector<KernelMetadata> &kernels, Location &kernelLoc) {
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
    if (std::optional<tilec::KernelMetadata> k =
            tilec::readKernelMetadata(func))
      kernels.push_back(*k);
    // TMA descriptors are `__grid_constant__` parameters: 128 bytes in
    // .param space, aligned to 64, whose address cp.async.bulk.tensor
    // takes (PTX ISA 5.1.6.1; CUDA's CUtensorMap).
    if (auto maps = func->getAttrOfType<DenseI32ArrayAttr>(
            "tile.tensormap_args")) {
      MLIRContext *ctx = func.getContext();
      auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128);
      for (int32_t i : maps.asArrayRef()) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(64));
        func.setArgAttr(i, "nvvm.grid_constant", b.getUnitAttr());
      }
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
  kernelLoc = gpuModule.getLoc();
  gpuModule.walk([&](LLVM::LLVMFuncOp f) {
    if (kernelLoc == gpuModule.getLoc())
      kernelLoc = f.getLoc();
  });
  if (!llvmModule) {
    gpuModule.emitError("failed to translate the kernels to LLVM IR");
    return failure();
  }
  return llvmModule;
}

/// Links libdevice if `m` calls into it, and fails on any other function
/// that is called but not defined (it would fail at ptxas or load time).
LogicalResult resolveExternals(llvm::Module &m, Location loc) {
  bool needsLibdevice = false;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() &&
        f.getName().starts_with("__nv_"))
      needsLibdevice = true;
  if (needsLibdevice) {
    std::string path = tilec::findLibdevice();
    if (path.empty()) {
      emitError(loc) << "the kernel calls libdevice math functions (__nv_*) "
                        "but libdevice.10.bc was not found; set "
                        "TILEC_LIBDEVICE or CUDA_HOME";
      return failure();
    }
    // The bitcode is read once per process and loaded lazily: the linker
    // materializes only the functions the kernel calls (parsing all of
    // libdevice took most of a small kernel's compile time).
    static std::mutex bufferMutex;
    static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> buffers;
    llvm::MemoryBufferRef bitcode;
    {
      std::lock_guard<std::mutex> lock(bufferMutex);
      std::unique_ptr<llvm::MemoryBuffer> &buffer = buffers[path];
      if (!buffer) {
        auto read = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false);
        if (!read) {
          emitError(loc) << "cannot read libdevice '" << path
                         << "': " << read.getError().message();
          return failure();
        }
        buffer = std::move(*read);
      }
      bitcode = buffer->getMemBufferRef();
    }
    llvm::Expected<std::unique_ptr<llvm::Module>> lazy =
        llvm::getLazyBitcodeModule(bitcode, m.getContext());
    if (!lazy) {
      emitError(loc) << "cannot read libdevice '" << path
                     << "': " << llvm::toString(lazy.takeError());
      return failure();
    }
    std::unique_ptr<llvm::Module> lib = std::move(*lazy);
    lib->setTargetTriple(m.getTargetTriple());
    lib->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(lib),
                                  llvm::Linker::LinkOnlyNeeded)) {
      emitError(loc) << "cannot link libdevice '" << path << "'";
      return failure();
    }
    // Only the kernels stay visible; O3 then drops what they do not use.
    for (llvm::Function &f : m)
      if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return success();
}

/// Fails on any function that is called but not defined after optimization
/// (it would fail at ptxas or load time instead), except the CUDA device
/// runtime's system calls the driver's JIT links (tl.device_print's
/// `vprintf`, tl.device_assert's `__assertfail`).
LogicalResult checkNoExternals(llvm::Module &m, Location loc) {
  for (llvm::Function &f : m)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() &&
        f.getName() != "vprintf" && f.getName() != "__assertfail") {
      emitError(loc) << "unresolved external function '" << f.getName().str()
                     << "' in the generated code";
      return failure();
    }
  return success();
}

/// Splits the kernels' vectors into scalars before O3 (LLVM's Scalarizer),
/// except in kernels on the tensor cores.
///
/// The SIMT lowering keeps a thread's registers of a tile as one LLVM
/// vector (<64 x float> for 64 elements a thread). NVPTX has no such
/// registers and splits them late, in SelectionDAG, where a vector of i1 (a
/// mask such as `cols < N`) is packed into integers lane by lane, and every
/// lane of an index vector is computed and kept live across the loop even
/// where the predicated accesses read one lane in eight. As scalars, the
/// lanes are what instcombine, GVN and LSR optimize: lane k's index becomes
/// base + constant (the 16384-wide fp16 layer norm: 170 -> 112 registers,
/// +40% bandwidth on an H100). Loads and stores of vector type (shared
/// memory) stay vectors. Kernels with mma.sync, ldmatrix or wgmma keep their
/// vectors: there the split order cost the fused attention 9% (fewer
/// registers, a worse schedule around the wgmma; docs/performance.md).
struct ScalarizeLanes : llvm::PassInfoMixin<ScalarizeLanes> {
  /// `keep`: the kernels on the tensor cores (KernelMetadata::tensorCores).
  explicit ScalarizeLanes(const llvm::StringSet<> &keep) : keep(&keep) {}
  const llvm::StringSet<> *keep;
  llvm::PreservedAnalyses run(llvm::Function &f,
                              llvm::FunctionAnalysisManager &fam) {
    if (f.isDeclaration() || keep->contains(f.getName()))
      return llvm::PreservedAnalyses::all();
    return llvm::ScalarizerPass(llvm::ScalarizerPassOptions()).run(f, fam);
  }
};

/// Optimizes `m` (whose kernels are `kernels`) at O3 for `arch` and
/// returns the target machine.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
optimize(llvm::Module &m, ArrayRef<KernelMetadata> kernels, StringRef arch,
         Location loc, bool fpFusion) {
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
  // The PTX ISA version the target needs (passes/Target.h).
  std::string ptxFeature = tilec::getTarget(arch).ptxFeature();
  llvm::TargetOptions options;
  if (fpFusion)
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, ptxFeature, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    emitError(loc) << "cannot create an NVPTX target machine for " << arch;
    return failure();
  }
  m.setTargetTriple(triple);
  m.setDataLayout(tm->createDataLayout());
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"): keep denormals (IEEE).
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  if (failed(resolveExternals(m, loc)))
    return failure();

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
  llvm::StringSet<> tensorCoreKernels;
  for (const KernelMetadata &k : kernels)
    if (k.tensorCores)
      tensorCoreKernels.insert(k.name);
  pb.registerPipelineStartEPCallback(
      [&](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(llvm::createModuleToFunctionPassAdaptor(
            ScalarizeLanes(tensorCoreKernels)));
      });
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
  if (failed(checkNoExternals(m, loc)))
    return failure();
  return tm;
}

} // namespace

LogicalResult tilec::emitLLVMIR(ModuleOp module, StringRef arch,
                                llvm::raw_ostream &os, bool fpFusion) {
  llvm::LLVMContext ctx;
  std::vector<KernelMetadata> kernels;
  Location loc = module.getLoc();
  auto m = translate(module, ctx, kernels, loc);
  if (failed(m))
    return failure();
  if (failed(optimize(**m, kernels, arch, loc, fpFusion)))
    return failure();
  (*m)->print(os, nullptr);
  return success();
}

/// The libdevice bitcode of the CUDA toolkit, or "" when not found.
std::string tilec::findLibdevice() {
  std::vector<std::string> candidates;
  if (const char *p = std::getenv("TILEC_LIBDEVICE"))
    candidates.push_back(p);
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *p = std::getenv(var))
      candidates.push_back(std::string(p) + "/nvvm/libdevice/libdevice.10.bc");
  candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  for (const std::string &c : candidates)
    if (llvm::sys::fs::exists(c))
      return c;
  return "";
}

LogicalResult tilec::emitPTX(ModuleOp module, StringRef arch,
                             llvm::raw_ostream &os, bool fpFusion,
                             bool autoMaxNReg) {
  llvm::LLVMContext ctx;
  std::vector<KernelMetadata> kernels;
  Location loc = module.getLoc();
  auto m = translate(module, ctx, kernels, loc);
  if (failed(m))
    return failure();
  auto tm = optimize(**m, kernels, arch, loc, fpFusion);
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
  if (kernels.empty()) {
    // A graph whose maps all went (nothing read what they wrote) launches
    // nothing: say so where it is.
    auto graphs = module.getBody()->getOps<tile::GraphOp>();
    if (!graphs.empty()) {
      tile::GraphOp graph = *graphs.begin();
      graph.emitError("no kernel to compile: graph @")
          << graph.getName()
          << " launches none (after fusion; a map or row reduction whose "
             "output nothing reads is removed)";
      return failure();
    }
    emitError(loc) << "no kernel to compile: expected at least one public "
                      "tile.func";
    return failure();
  }
  for (KernelMetadata &k : kernels)
    k.autoMaxNReg = autoMaxNReg && k.loaderMayBudgetRegisters();
  pm.run(**m);
  os << "//\n// Generated by tilec for " << arch << "\n//\n";
  for (const KernelMetadata &k : kernels)
    tilec::printKernelMetadata(os, k);
  // The graphs that launch them (GraphProgram runs these lines).
  if (failed(emitGraphMetadata(module, os)))
    return failure();
  os << ptx;
  return success();
}
