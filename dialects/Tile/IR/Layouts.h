//===- Layouts.h - Layout math for tile encodings ---------------*- C++ -*-===//
//
// Which thread holds which element of a tile, for every distributed
// encoding (#tile.blocked, #tile.slice, #tile.mma, #tile.dot_operand), as a
// LinearLayout (LinearLayout.h). Used by layout assignment to build
// encodings and by the SIMT lowering to emit per-thread code; the same
// functions, evaluated at compile time, are unit-tested.
//
// Blocked model (as Triton's distributed layouts): a blocked layout over a
// tile of shape S tiles S with the CTA tile `sizePerThread * threadsPerWarp *
// warpsPerCTA`, repeating it where S is larger and wrapping around (several
// threads holding one element) where S is smaller. A slice layout is its
// parent over S with a size-1 dimension inserted at `dim`, that dimension's
// coordinate then dropped. The mma and dot-operand layouts follow the PTX
// fragments of mma.sync (see their descriptions in TileAttrs.td).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_LAYOUTS_H
#define TILEC_DIALECTS_TILE_IR_LAYOUTS_H

#include "dialects/Tile/IR/TileDialect.h"
#include "llvm/ADT/SmallVector.h"

namespace tilec::tile {

/// The linear layout of `type`'s encoding over its shape. Fails for a
/// missing or non-distributed encoding, a rank mismatch, or a shape that is
/// not a power of two in every dimension.
llvm::FailureOr<LinearLayout> getLinearLayout(mlir::RankedTensorType type);

/// Number of elements of `type` one thread holds in registers (1 for a
/// scalar). Asserts the layout is valid: call after verification.
int64_t getTotalElemsPerThread(mlir::Type type);

/// Warps per CTA of a distributed encoding (0 for anything else).
unsigned getEncodingNumWarps(mlir::Attribute encoding);

/// A blocked encoding for `shape` over `numWarps` warps: each thread holds
/// `vec` consecutive elements along `order[0]` (clamped to the shape);
/// lanes then warps are spread from the fastest dimension outwards, the
/// remainder going to the slowest dimension. `order` defaults to row-major
/// (last dimension fastest). `shape` and `vec` must be powers of two.
BlockedEncodingAttr getBlockedEncoding(mlir::MLIRContext *ctx,
                                       llvm::ArrayRef<int64_t> shape,
                                       unsigned numWarps, unsigned vec = 1,
                                       llvm::ArrayRef<unsigned> order = {});

/// Whether two encodings of the same shape put every element in the same
/// register of the same thread (then a conversion is a no-op).
bool haveSameElementPlacement(mlir::RankedTensorType a,
                              mlir::RankedTensorType b);

/// `type` with encoding `encoding` (a scalar type is returned unchanged).
mlir::Type withEncoding(mlir::Type type, mlir::Attribute encoding);

/// K elements one mma.sync instruction consumes for operands of
/// `elementType` with input precision tf32 for f32 (PTX ISA 9.7.14.5.14):
/// 16 for f16/bf16, 32 for 8-bit types, 8 for f32 (tf32). 0 if no mma.sync
/// shape exists for the type.
int64_t getMmaInstrK(mlir::Type elementType);

/// kWidth of an mma.sync operand of `elementType`: elements per 32-bit
/// register (2 for 16-bit, 4 for 8-bit, 1 for tf32).
unsigned getMmaKWidth(mlir::Type elementType);

} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_LAYOUTS_H
