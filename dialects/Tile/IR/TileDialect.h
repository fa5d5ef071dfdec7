//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the tile dialect, its types (`!tile.ptr`, `!tile.tensordesc`),
// its layout encoding attributes and the enumerations of its atomics. Include TileOps.h for the operations.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECTS_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/Tile/IR/LinearLayout.h"

#include "dialects/Tile/IR/TileDialect.h.inc"

#include "dialects/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/IR/TileTypes.h.inc"

#include "dialects/Tile/IR/TileAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.h.inc"

namespace tilec::tile {

/// The pointee of a `!tile.ptr<T>`, or of each element of a tensor of
/// pointers (keeping shape and encoding). Returns a null type for anything
/// else.
mlir::Type getPointeeTypeOf(mlir::Type ptrOrTensorOfPtr);

/// `i1` for a scalar, or a tensor of `i1` with the same shape and encoding.
mlir::Type getI1SameShape(mlir::Type type);

/// The element type of a tensor, or the type itself for a scalar.
mlir::Type getElementTypeOrSelf(mlir::Type type);

/// Triton's name of a float type ("fp16", "bf16", "fp32", "fp64",
/// "fp8e4nv", "fp8e5"), as signatures and dtypes spell it; empty for others.
llvm::StringRef getFloatTypeName(mlir::Type type);

/// The work `op` stands for once lowered to SIMT code, in scalar operations
/// per thread: the elements per thread of its largest tile operand or result
/// (`threadsPerCTA` = 32 * num_warps threads share a tile), at least 1. The
/// compile budgets (`--max-operations`) count this, not ops, so that one op
/// on a 2^17-element tile weighs what its 1024 scalar instructions cost.
uint64_t getOperationWork(mlir::Operation *op, int64_t threadsPerCTA);

} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_TILEDIALECT_H
