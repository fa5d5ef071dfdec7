//===- Pipeline.cpp - The tilec compilation pipeline ------------*- C++ -*-===//
//
// Assembles tilec's passes with the upstream ones it reuses.
//
//===----------------------------------------------------------------------===//
#include "compiler/Pipeline/Pipeline.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/Passes.h"
#include "passes/Graph/GraphPasses.h"
#include "passes/Passes.h"
#include "passes/Target.h"

using namespace mlir;

bool tilec::isSupportedArch(llvm::StringRef arch) {
  return isSupportedChip(arch);
}

void tilec::buildTilePipeline(OpPassManager &pm, const PipelineOptions &opts) {
  pm.addPass(createInlinerPass());
  // The graph level: kernels are whole (their device functions inlined) so
  // that fusion sees every access.
  if (opts.fuseKernels) {
    TileFuseKernelsPassOptions fuse;
    fuse.remarks = opts.fusionRemarks;
    pm.addPass(createTileFuseKernelsPass(fuse));
  }
  pm.addPass(createTileOutlineMapsPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tilec::buildLayoutPipeline(OpPassManager &pm,
                                const PipelineOptions &opts) {
  // Descriptor accesses as masked pointer accesses, simplified before
  // layouts are chosen -- except, with TMA, loads through host-side
  // descriptors in loops: tile-pipeline copies them with TMA or lowers
  // them itself.
  bool tma = opts.tma && getTarget(opts.arch).computeCapability >= 90;
  // Opted in: a GEMM's masked operand loads through descriptors too, where
  // wgmma (whose shared operands TMA fills) will run the dot.
  if (tma && opts.tmaPointerLoads && getTarget(opts.arch).hasWgmma() &&
      opts.mmaVersion != 2)
    pm.addPass(createTilePointerLoadsToDescriptorsPass());
  TileLowerDescriptorsPassOptions lower;
  lower.keepTMACandidates = tma;
  pm.addPass(createTileLowerDescriptorsPass(lower));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Before layouts: they pick vector widths from the facts each version
  // holds.
  if (opts.versionAlignment) {
    TileVersionAlignmentPassOptions version;
    version.remarks = opts.versionRemarks;
    pm.addPass(createTileVersionAlignmentPass(version));
  }
  TileAssignLayoutsPassOptions o;
  o.numWarps = opts.numWarps;
  pm.addPass(createTileAssignLayoutsPass(o));
  TileAccelerateDotPassOptions dot;
  dot.chip = opts.arch;
  dot.mmaVersion = opts.mmaVersion;
  pm.addPass(createTileAccelerateDotPass(dot));
  pm.addPass(createTilePropagateLayoutsPass());
  pm.addPass(createTilePromoteToSharedPass());
  pm.addPass(createCSEPass());
  TilePipelinePassOptions pipe;
  pipe.tma = tma;
  pipe.chip = opts.arch;
  pipe.warpSpecialize = opts.warpSpecialize;
  pipe.clusterSize = opts.clusterSize;
  pipe.numConsumerGroups = opts.numConsumerGroups;
  pm.addPass(createTilePipelinePass(pipe));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tilec::buildSIMTPipeline(OpPassManager &pm, const PipelineOptions &opts) {
  TileAllocateSharedPassOptions alloc;
  alloc.chip = opts.arch;
  pm.addPass(createTileAllocateSharedPass(alloc));
  pm.addPass(createTileInsertBarriersPass());
  TileLowerToSIMTPassOptions o;
  o.chip = opts.arch;
  o.maxNReg = opts.maxNReg;
  pm.addPass(createTileLowerToSIMTPass(o));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tilec::buildLLVMPipeline(OpPassManager &pm, const PipelineOptions &) {
  pm.addPass(createSCFToControlFlowPass());
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  gpu.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // NVVM ops that are PTX templates (wgmma.mma_async) to llvm.inline_asm.
  gpu.addPass(createConvertNVVMToLLVMPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
