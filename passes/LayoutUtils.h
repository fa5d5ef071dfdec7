//===- LayoutUtils.h - Rewrites shared by the layout passes -----*- C++ -*-===//
//
// Layout-agnostic ops and the rematerialization patterns that move
// tile.convert_layout through them (LayoutUtils.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_LAYOUTUTILS_H
#define TILEC_PASSES_LAYOUTUTILS_H

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec {

/// Whether `op` computes the same values in any layout and is cheap to
/// recompute: elementwise arith/math without side effects, splat,
/// make_range, splat constants, addptr, broadcast, expand_dims, hint.
bool isLayoutAgnosticOp(mlir::Operation *op);

/// Whether `enc` is the tensor cores' accumulator layout (#tile.mma) or a
/// slice of it (what a reduction of an accumulator gives).
bool isAccumulatorLayout(mlir::Attribute enc);

/// Success if every tile value in `root` (op results and block arguments)
/// has a distributed encoding with a linear layout (power-of-two shape);
/// otherwise an error at the first offender saying to run
/// tile-assign-layouts first. The precondition of the passes after layout
/// assignment (tile-allocate-shared, tile-insert-barriers,
/// tile-lower-to-simt), checked before they compute layouts.
mlir::LogicalResult checkTilesHaveLayouts(mlir::Operation *root);

/// convert_layout(op(x...)) -> op'(convert_layout(x)...) for layout-agnostic
/// ops, a small load's conversion to a slice of an mma layout done by
/// loading in that layout, and the folding of conversion chains. With
/// `keepAccumulatorConversions`, a conversion out of an accumulator layout
/// (tile-propagate-layouts' sunk ones) is left where it is.
void populateRematerializationPatterns(mlir::RewritePatternSet &patterns,
                                       bool keepAccumulatorConversions = false);

/// A clone of single-result `op` at `b`'s insertion point, its operands
/// mapped by `map`, its result retyped to `type` (the same values in
/// another layout); a splat constant's value is rebuilt in that type.
mlir::Value cloneWithResultType(mlir::OpBuilder &b, mlir::Operation *op,
                                mlir::IRMapping &map, mlir::Type type);

/// The swizzled shared encoding tilec stores tile `t` in, dimensions from
/// fastest to slowest as `order`: 16-byte groups of the contiguous
/// dimension (one ldmatrix row, one cp.async) XORed with the row's phase so
/// that eight consecutive rows use eight different 16-byte bank groups
/// (perPhase rows share a phase when a row is shorter than 128 bytes).
/// Dimensions from fastest to slowest of a distributed tile as stored from
/// its layout: a blocked layout's order, else row-major.
llvm::SmallVector<unsigned> getMemoryOrder(mlir::RankedTensorType t);

/// Rewrites a `tile.desc_load` / `tile.desc_store` (through a
/// `tile.make_tensor_desc`) as the masked `tile.load` / `tile.store` of its
/// block (tile-lower-descriptors), in the block's encoding if it has one;
/// erases `op`. An error for a descriptor made elsewhere.
mlir::LogicalResult lowerDescriptorAccess(mlir::Operation *op);

/// Erases the `tile.make_tensor_desc`s in `root` without uses.
void eraseDeadDescriptors(mlir::Operation *root);

/// Whether `desc` is made, at the kernel's entry, from a host-side
/// descriptor argument (`tile.tensordesc`: base, sizes and strides
/// unchanged, the last stride 1).
bool isHostTensorDescriptor(tile::MakeTensorDescOp desc);

/// How the runtime encodes a tensor map for `desc`, made in a kernel
/// (`tl.make_tensor_descriptor`) from its arguments: the
/// `tile.tma_source` of a launch map (TileBase.td), or null where it
/// cannot -- the base is not a pointer argument known 16-byte aligned, a
/// size or stride is not an i32/i64 expression of scalar arguments and
/// constants (add, sub, mul, extension, truncation), a stride but the
/// last (the constant 1) is not known to be a multiple of 16 bytes (TMA's
/// requirement), or `desc` is a host-side descriptor.
mlir::DictionaryAttr getLaunchTensorMapSource(tile::MakeTensorDescOp desc);

/// Whether TMA can copy through `desc`: a host-side descriptor, or one
/// with a launch-map source.
bool hasTensorMapSource(tile::MakeTensorDescOp desc);

tile::SharedEncodingAttr sharedEncodingFor(mlir::RankedTensorType t,
                                           llvm::ArrayRef<unsigned> order);

/// Whether mma.sync (PTX ISA 9.7.14.5) computes `A x B + C` with these
/// element types on `chip` ("sm_80", "sm_89", "sm_90a", ...): f16 into f16
/// or f32, bf16 into f32, f32 as tf32 (`inputPrecision` "tf32") into f32,
/// s8 into s32, and fp8 (e4m3/e5m2, any mix) into f32 from sm_89 on.
bool mmaV2Computes(mlir::Type a, mlir::Type b, mlir::Type c,
                   llvm::StringRef inputPrecision, llvm::StringRef chip);

/// The operands of `op` and the values its regions use from outside them.
llvm::SmallVector<mlir::Value> getUsedValues(mlir::Operation *op);

/// `v` (an integer, an index or a tensor of integers) as i64 (sign-extended).
/// The kernel argument a pointer (tile) derives from, through pointer
/// arithmetic, broadcasts, descriptors, loop-carried values (`p = p + 1`
/// keeps its initial value's base), loop results and scf.if branches
/// agreeing; null if another (a loaded address, a select).
mlir::Value pointerBase(mlir::Value v);

/// Whether a load's `other` is absent or a +0 splat constant (what a TMA
/// box's zero fill gives).
bool isPositiveZero(mlir::Value other);

mlir::Value toI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);

/// A zero of type `t` (a scalar or a tensor of integers or floats), or null
/// for other types.
mlir::Value zeroOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t);

} // namespace tilec

#endif // TILEC_PASSES_LAYOUTUTILS_H
