//===- MapCodegen.h - tile.map bodies as tile code --------------*- C++ -*-===//
//
// What the graph passes emit inside kernels for a `tile.map`: its scalar
// body applied to whole tiles, and its inputs loaded at the elements a tile
// of flat output offsets names (NumPy broadcasting turned into offset
// arithmetic). Shared by epilogue and prologue fusion and by the kernels
// tile-outline-maps makes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_GRAPH_MAPCODEGEN_H
#define TILEC_PASSES_GRAPH_MAPCODEGEN_H

#include "dialects/Tile/IR/TileGraphOps.h"
#include "mlir/IR/Builders.h"

namespace tilec {

/// Applies `body` (of a tile.map or tile.row_reduce) to `args` (one per
/// body argument: tiles of the type `like` has, with their own element
/// types, or scalars, which are splat where an op mixes them with tiles).
/// Returns a tile shaped as `like` (a null `like`: a scalar, for scalar
/// arguments).
mlir::Value emitMapBody(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Block &body, mlir::ValueRange args,
                        mlir::RankedTensorType like);

/// The output dimensions whose sizes the offset of `input` needs
/// (`getInputOffset`); the caller supplies the dynamic ones among them.
llvm::SmallVector<unsigned> getNeededOutputDims(mlir::MemRefType input,
                                                mlir::MemRefType output);

/// The product of `shape`'s sizes in dimensions [from, to), as a scalar of
/// `type`: a constant where static, else with `dims[d]` (one entry per
/// dimension, non-null where `shape` is dynamic and d is in the range).
mlir::Value getSizeProduct(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::MemRefType shape, unsigned from, unsigned to,
                           llvm::ArrayRef<mlir::Value> dims, mlir::Type type);

/// The element offset in the contiguous buffer `input`, broadcast to
/// `output`, of the elements whose flat offsets in `output` are `off` (an
/// integer scalar or tile, non-negative where it is used). Each run of
/// consecutive dimensions `input` does not broadcast becomes one unsigned
/// division and remainder by products of output sizes (constants where
/// static; else `dims[i]`, an i64 -- `dims` has one entry per output
/// dimension, null where getNeededOutputDims does not list a dynamic
/// size): a bias of shape [N] over [M, N] reads at
/// `off % N`, a per-row scale [M, 1] at `off / N`. Offsets stay in off's
/// type when every size used is static, else i64.
mlir::Value getInputOffset(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::MemRefType input, mlir::MemRefType output,
                           mlir::Value off, llvm::ArrayRef<mlir::Value> dims);

/// Loads `input` (through `ptr`, a `!tile.ptr` to its elements) at the
/// elements of flat output offsets `off` (getInputOffset), under `mask`
/// (may be null), with `like`'s discardable attributes (cache hints) when
/// given.
mlir::Value loadMapInput(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::MemRefType input, mlir::MemRefType output,
                         mlir::Value ptr, mlir::Value off, mlir::Value mask,
                         llvm::ArrayRef<mlir::Value> dims,
                         mlir::Operation *like = nullptr);

/// `addptr(splat(base), off)` for a tile `off`, `addptr(base, off)` for a
/// scalar.
mlir::Value offsetPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value base, mlir::Value off);

} // namespace tilec

#endif // TILEC_PASSES_GRAPH_MAPCODEGEN_H
