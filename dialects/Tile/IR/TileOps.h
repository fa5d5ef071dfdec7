//===- TileOps.h - tile dialect operations ----------------------*- C++ -*-===//
//
// Declares the operations of the tile dialect (generated from TileOps.td).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_TILEOPS_H
#define TILEC_DIALECTS_TILE_IR_TILEOPS_H

#include "dialects/Tile/IR/TileDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
/// The side-effect resource of the CTA's shared memory (local_alloc,
/// local_load, local_store, async copies).
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace tilec::tile

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.h.inc"

namespace tilec::tile {
/// The type of `tile.memdesc_trans` of `src` by `order` (result dimension i
/// is source dimension order[i]), or null where no view expresses it: a
/// `#tile.shared` buffer with its memory order permuted, or a 2-D
/// `#tile.nvmma_shared` one (order [1, 0]) with `transposed` flipped (the
/// encoding's offset map is symmetric in that flag). `src` must be a whole
/// single buffer (no buffer dimensions, not a subview).
MemDescType getTransposedMemDescType(MemDescType src,
                                     llvm::ArrayRef<int32_t> order);
} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_TILEOPS_H
