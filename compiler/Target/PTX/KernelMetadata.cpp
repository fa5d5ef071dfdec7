//===- KernelMetadata.cpp - The runtime's metadata line of a kernel -*- C++
//-*-===//
#include "compiler/Target/KernelMetadata.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

std::optional<tilec::KernelMetadata>
tilec::readKernelMetadata(Operation *func) {
  auto sig = func->getAttrOfType<StringAttr>("tile.signature");
  if (!sig)
    return std::nullopt;
  KernelMetadata k;
  k.name = func->getAttrOfType<StringAttr>("sym_name").str();
  k.signature = sig.str();
  if (auto w = func->getAttrOfType<IntegerAttr>("tile.num_warps"))
    k.numWarps = w.getInt();
  if (auto s = func->getAttrOfType<IntegerAttr>("tile.shared"))
    k.shared = s.getInt();
  if (auto c = func->getAttrOfType<IntegerAttr>("tile.cluster_size"))
    k.clusterSize = c.getInt();
  if (auto t = func->getAttrOfType<StringAttr>("tile.tma"))
    k.tma = t.str();
  if (auto t = func->getAttrOfType<StringAttr>("tile.launch_maps"))
    k.launchMaps = t.str();
  if (auto a = func->getAttrOfType<StringAttr>("tile.aligned_variant"))
    k.aligned = a.str();
  k.ownLimit = func->hasAttr(NVVM::NVVMDialect::getMaxnregAttrName()) ||
               func->hasAttr(NVVM::NVVMDialect::getMinctasmAttrName());
  k.tensorCores =
      func->walk([](Operation *op) {
            StringRef name = op->getName().getStringRef();
            if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op))
              name = call.getIntrin();
            name.consume_front("llvm.");
            if (name.starts_with("nvvm.mma") ||
                name.starts_with("nvvm.wgmma") ||
                name.starts_with("nvvm.ldmatrix"))
              return WalkResult::interrupt();
            if (auto a = dyn_cast<LLVM::InlineAsmOp>(op)) {
              StringRef text = a.getAsmString();
              if (text.contains("mma.") || text.contains("ldmatrix"))
                return WalkResult::interrupt();
            }
            return WalkResult::advance();
          })
          .wasInterrupted();
  return k;
}

void tilec::printKernelMetadata(llvm::raw_ostream &os,
                                const KernelMetadata &k) {
  os << "// tilec.kernel name=" << k.name << " num_warps=" << k.numWarps
     << " shared=" << k.shared
     << (k.clusterSize > 1 ? " cluster=" + std::to_string(k.clusterSize)
                           : std::string())
     << (k.aligned.empty() ? "" : " aligned=" + k.aligned)
     << (k.autoMaxNReg ? " maxnreg=auto" : "")
     << (k.tma.empty() ? "" : " tma=" + k.tma)
     << (k.launchMaps.empty() ? "" : " launch_maps=" + k.launchMaps)
     << " signature=" << k.signature << "\n";
}
