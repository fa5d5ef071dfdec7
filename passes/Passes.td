//===- Passes.td - tilec passes ----------------------------*- tablegen -*-===//
//
// The passes that take a tile program from layout-free tile IR to per-thread
// SIMT IR in upstream dialects. Grouped by the level they work at.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_TD
#define TILEC_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Layouts (level 2)
//===----------------------------------------------------------------------===//

def TileAssignLayoutsPass : Pass<"tile-assign-layouts", "mlir::ModuleOp"> {
  let summary = "give every tile an encoding, coalescing memory accesses";
  let description = [{
    Chooses a `#tile.blocked` encoding for every tensor in every kernel.
    Memory ops anchor the choice: for each load and store, the axis analysis
    of its pointers gives the order of dimensions (most contiguous first) and
    how many consecutive elements one thread can access with one 16-byte
    (or narrower) vector instruction. Every tile of the same shape takes the
    layout of the widest memory op of that shape; operands of
    `tile.expand_dims` take the matching `#tile.slice` and those of
    `tile.broadcast` the result's layout; a memory op that wants another
    order of dimensions gets `tile.convert_layout`s around it. Finally,
    conversions are pushed backwards through cheap layout-agnostic ops
    (elementwise arithmetic, splat, make_range, constants, addptr,
    broadcast, expand_dims), recomputing them in the wanted layout, so that
    only conversions of loaded values remain.

    Errors: a tile whose shape is not a power of two in every dimension
    (`unimplemented`), or a function whose `tile.num_warps` is invalid.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0",
           "warps per CTA for kernels without tile.num_warps (0: 4)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

//===----------------------------------------------------------------------===//
// SIMT lowering (level 3)
//===----------------------------------------------------------------------===//

def TileLowerToSIMTPass : Pass<"tile-lower-to-simt", "mlir::ModuleOp"> {
  let summary = "lower laid-out tile IR to per-thread code in upstream dialects";
  let description = [{
    Rewrites every kernel into the code one thread runs: each tile becomes
    the `vector<N x T>` of the N elements its encoding gives the thread
    (pointers as i64 addresses), elementwise `arith`/`math` work on those
    vectors unchanged, `scf` keeps its structure, memory ops become vector
    loads and stores (`llvm` dialect) with predication through inline PTX
    for masks, and layout conversions go through shared memory with
    barriers. Kernels move into a `gpu.module` as `gpu.func` kernels with a
    known block size of 32 * num_warps threads; `tile.shared` on the kernel
    records the dynamic shared memory it needs.

    Errors: an op or type this lowering does not implement
    (`unimplemented: ...`), or a kernel needing more shared memory than
    `shared-budget`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU (sm_80, sm_89, sm_90, sm_90a)">,
    Option<"sharedBudget", "shared-budget", "unsigned", /*default=*/"232448",
           "largest dynamic shared memory per CTA, in bytes (H100/H200: 227 KiB)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::math::MathDialect"
  ];
}

#endif // TILEC_PASSES_TD
