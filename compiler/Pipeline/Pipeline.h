//===- Pipeline.h - The tilec compilation pipeline --------------*- C++ -*-===//
//
// The pass pipelines from tile IR to LLVM dialect, split at the stages the
// CLI can stop at (--emit=tile|layout|simt|llvm|ptx).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_PIPELINE_PIPELINE_H
#define TILEC_COMPILER_PIPELINE_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include <string>

namespace tilec {

/// Options shared by every stage.
struct PipelineOptions {
  /// Target GPU: a name passes/Target.h knows (sm_80 ... sm_121f).
  std::string arch = "sm_90a";
  /// Warps per CTA for kernels without tile.num_warps (0: keep/4).
  unsigned numWarps = 0;
  /// Let a multiply and an add contract into fma (Triton's default).
  bool fpFusion = true;
  /// Tensor-core instructions for tl.dot: 2 = mma.sync, 3 = wgmma where it
  /// applies (sm_90a; tile-accelerate-dot), 0 = the default (3).
  unsigned mmaVersion = 0;
  /// Copy host-descriptor blocks with TMA (sm_90 and newer; tile-pipeline's
  /// `tma`): wgmma operand loads on mbarrier pipelines, 2-D stores as TMA
  /// stores. Measured on the H200 in docs/performance.md.
  bool tma = true;
  /// Also copy a GEMM's masked pointer loads of dot operands with TMA
  /// (tile-pointer-loads-to-descriptors, sm_90a with wgmma), the loop
  /// versioned on the facts TMA needs (Passes.td says what it matches).
  bool tmaPointerLoads = true;
  /// Version kernels on the run-time alignment of their integer and
  /// pointer arguments where that widens loads and stores
  /// (tile-version-alignment).
  bool versionAlignment = true;
  /// Fuse the maps of operator graphs into kernels and each other
  /// (tile-fuse-kernels); the maps left become kernels either way
  /// (tile-outline-maps).
  bool fuseKernels = true;
  /// Remark on each fusion and each refused candidate (tile-fuse-kernels'
  /// `remarks`; tilec's --fusion-remarks).
  bool fusionRemarks = false;
  /// Remark on each kernel versioned or not (tile-version-alignment's
  /// `remarks`; tilec sets it for --emit=layout).
  bool versionRemarks = false;
  /// Warp specialization of TMA-copying loops (tile-pipeline's
  /// `warp-specialize`): "hint" (tl.range(..., warp_specialize=True)),
  /// "on" (every eligible loop) or "off".
  std::string warpSpecialize = "hint";
  /// Consumer groups of a warp-specialized persistent loop
  /// (tile-pipeline's `num-consumer-groups`): 2 gives it two groups of
  /// num_warps warps taking turns over the tiles (ping-pong).
  unsigned numConsumerGroups = 1;
  /// CTAs per thread-block cluster (tile-pipeline's `cluster-size`): 2
  /// lets pairs of CTAs multicast the TMA copies they share (sm_90+).
  unsigned clusterSize = 1;
  /// Registers per thread at most (Triton's maxnreg, PTX .maxnreg) for
  /// kernels without their own tile.maxnreg (tile-lower-to-simt's
  /// `max-nreg`): 0 no limit, else 16 to 255.
  unsigned maxNReg = 0;
  /// Mark kernels without tensor cores or a limit of their own
  /// `maxnreg=auto` (emitPTX's `autoMaxNReg`): the loader gives them the
  /// register budget of their occupancy.
  bool autoMaxNReg = true;
  /// What the in-process compiles (compileTritonToPTX, the JIT) print: PTX
  /// (false: LLVM's NVPTX) or CUDA C++ (true: compiler/Target/CUDA, the
  /// pipeline stopping at the SIMT stage; the JIT compiles the text with
  /// NVRTC). tilec's --emit chooses for itself.
  bool cudaBackend = false;
};

/// Whether `arch` is one tilec targets.
bool isSupportedArch(llvm::StringRef arch);

/// Level 1: inline device functions; fuse the operator graphs and turn
/// their maps into kernels; canonicalize, CSE, drop dead helpers.
void buildTilePipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);
/// Level 2: layout assignment (tile-assign-layouts) and clean-up.
void buildLayoutPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);
/// Level 3: shared-memory layout (tile-allocate-shared), barriers
/// (tile-insert-barriers), per-thread SIMT IR in upstream dialects
/// (tile-lower-to-simt).
void buildSIMTPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);
/// SIMT IR to the LLVM and NVVM dialects inside the gpu.module
/// (scf-to-cf, convert-gpu-to-nvvm, reconcile-unrealized-casts).
void buildLLVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &opts);

} // namespace tilec

#endif // TILEC_COMPILER_PIPELINE_PIPELINE_H
