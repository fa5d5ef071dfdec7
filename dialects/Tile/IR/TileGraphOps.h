//===- TileGraphOps.h - tile operator graphs --------------------*- C++ -*-===//
//
// Declares the graph-level operations of the tile dialect (generated from
// TileGraphOps.td): `tile.graph`, `tile.alloc`, `tile.launch`, `tile.map`,
// and the buffer helpers the graph passes share.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_TILEGRAPHOPS_H
#define TILEC_DIALECTS_TILE_IR_TILEGRAPHOPS_H

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/RegionKindInterface.h"

namespace tilec::tile {
/// Whether `type` is an element type of graph buffers: i8 to i64
/// (signless), f16, bf16, f32, f64, f8E4M3FN, f8E5M2 (the runtime's
/// signature types; Triton's tensor dtypes).
bool isGraphElementType(mlir::Type type);

/// Whether `type` is a graph buffer: a ranked memref with the identity
/// layout, no memory space, and a graph element type.
bool isGraphBuffer(mlir::Type type);

/// Whether `type` may be a scalar in a graph: `index`, i1, or an element
/// type other than fp8. (Map inputs and bodies exclude `index` and i1
/// inputs.)
bool isGraphScalar(mlir::Type type);

/// Checks that a buffer of type `input` broadcasts to `output` (NumPy
/// rules, trailing dimensions aligned, static 1 repeats); on failure,
/// `why` says which dimension and what was found.
bool isBroadcastableTo(mlir::MemRefType input, mlir::MemRefType output,
                       std::string *why = nullptr);
} // namespace tilec::tile

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileGraphOps.h.inc"

#endif // TILEC_DIALECTS_TILE_IR_TILEGRAPHOPS_H
