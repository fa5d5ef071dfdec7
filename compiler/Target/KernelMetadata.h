//===- KernelMetadata.h - The runtime's metadata line of a kernel ---*- C++
//-*-===//
//
// Both backends start their output (PTX, CUDA C++) with one comment line
// per kernel that the runtime reads to launch it (docs/runtime.md):
//   // tilec.kernel name=K num_warps=W shared=B [cluster=C] [aligned=K2]
//      [maxnreg=auto] [tma=...] [launch_maps=...] signature=SIG
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_TARGET_KERNELMETADATA_H
#define TILEC_COMPILER_TARGET_KERNELMETADATA_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace tilec {

struct KernelMetadata {
  std::string name, signature, tma, launchMaps, aligned;
  int64_t numWarps = 4, shared = 0, clusterSize = 1;
  /// A register limit of its own (nvvm.maxnreg or nvvm.minctasm).
  bool ownLimit = false;
  /// `maxnreg=auto`: the loader may set the register budget.
  bool autoMaxNReg = false;
  /// Issues tensor-core instructions (mma.sync, ldmatrix, wgmma) as NVVM
  /// ops or as the lowering's inline PTX. Such kernels keep their own
  /// register use (no `maxnreg=auto`) and, on the PTX path, their vectors
  /// (no ScalarizeLanes): both were tuned around the mma schedule.
  bool tensorCores = false;

  /// Whether the loader may choose the register budget (docs/runtime.md,
  /// "Register budget"): not where the kernel has a limit of its own or
  /// runs on the tensor cores, whose register use and schedule around mma
  /// were tuned without one. Both backends print `maxnreg=auto` by it.
  bool loaderMayBudgetRegisters() const { return !ownLimit && !tensorCores; }
};

/// The metadata of kernel `func` (a gpu.func or llvm.func of SIMT IR) from
/// its `tile.*` attributes; none for a function without `tile.signature`.
std::optional<KernelMetadata> readKernelMetadata(mlir::Operation *func);

/// Prints `k`'s metadata line.
void printKernelMetadata(llvm::raw_ostream &os, const KernelMetadata &k);

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_KERNELMETADATA_H
