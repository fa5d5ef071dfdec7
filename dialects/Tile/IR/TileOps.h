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
#include <array>
#include <optional>

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

/// The TMA box of a buffer that TMA copies fill or read whole: a 2-D
/// `#tile.nvmma_shared` buffer (no buffer dimensions) with a 32-, 64- or
/// 128-byte swizzle and its last dimension contiguous, at most 256 rows of a
/// whole number of swizzle widths. The box is [rows, swizzle / element
/// bytes] (outermost first), one per column block of the encoding (PTX ISA
/// 5.5.8: a swizzled box's innermost extent is the swizzle span). Null
/// otherwise.
std::optional<std::array<int64_t, 2>> getTMABox(MemDescType t);

/// The `tile.tma` attribute of a tensor map with that box and swizzle.
mlir::DictionaryAttr getTMAAttr(mlir::MLIRContext *ctx,
                                std::array<int64_t, 2> box, unsigned swizzle,
                                bool nanFill);
} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_TILEOPS_H
