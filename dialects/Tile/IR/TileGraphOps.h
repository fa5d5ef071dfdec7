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
/// Whether `type` is a graph buffer: a ranked memref with the identity
/// layout, no memory space, and an integer or float element type.
bool isGraphBuffer(mlir::Type type);

/// Whether `type` may be a scalar graph argument or map input: an integer,
/// a float or `index`.
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
