//===- Layouts.h - Layout math for tile encodings ---------------*- C++ -*-===//
//
// Which thread holds which element of a tile, for the distributed encodings
// (#tile.blocked and #tile.slice of a blocked parent). Used by layout
// assignment to build encodings and by the SIMT lowering to emit per-thread
// code; the same functions, evaluated at compile time, are unit-tested.
//
// Model (as Triton's distributed layouts): a blocked layout over a tile of
// shape S tiles S with the CTA tile `sizePerThread * threadsPerWarp *
// warpsPerCTA`, repeating it where S is larger and wrapping around (several
// threads holding one element) where S is smaller. A slice layout is its
// parent over S with a size-1 dimension inserted at `dim`.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_LAYOUTS_H
#define TILEC_DIALECTS_TILE_IR_LAYOUTS_H

#include "dialects/Tile/IR/TileDialect.h"
#include "llvm/ADT/SmallVector.h"

namespace tilec::tile {

/// A distributed encoding seen through its blocked root: slices are peeled
/// off, leaving a blocked layout over the "root shape" (the tile's shape with
/// a size-1 dimension inserted for every slice). All sizes are in elements.
struct DistributedLayout {
  BlockedEncodingAttr root;
  /// The tile's shape with 1s inserted at the sliced dimensions.
  llvm::SmallVector<int64_t> rootShape;
  /// For each dimension of the tile, the root dimension it is.
  llvm::SmallVector<unsigned> tileDimToRoot;
  /// Per root dimension: sizePerThread * threadsPerWarp * warpsPerCTA.
  llvm::SmallVector<int64_t> ctaTile;
  /// Per root dimension: elements one thread holds along it.
  llvm::SmallVector<int64_t> elemsPerThread;
  /// Product of elemsPerThread: the length of a thread's register fragment.
  int64_t totalElemsPerThread = 0;

  /// Per root dimension, the register index "k" of local element `e`
  /// (0 <= e < totalElemsPerThread). Registers are ordered with root
  /// dimension order[0] fastest.
  llvm::SmallVector<int64_t> getRegisterIndices(int64_t e) const;
  /// Local element index for per-root-dimension register indices.
  int64_t getLocalIndex(llvm::ArrayRef<int64_t> regIdx) const;
  /// The thread-independent part of the coordinate of local element `e`
  /// along each root dimension: rep * ctaTile + (k % sizePerThread).
  llvm::SmallVector<int64_t> getLocalOffsets(int64_t e) const;
  /// Whether root dimension `d` wraps around (rootShape < ctaTile): then the
  /// coordinate is taken modulo rootShape[d].
  bool wraps(unsigned d) const { return rootShape[d] < ctaTile[d]; }
  /// The thread's base coordinate along each root dimension, for thread
  /// `threadId` of the CTA (compile-time form of what the lowering emits).
  llvm::SmallVector<int64_t> getThreadBase(int64_t threadId) const;
  /// Coordinates in the tile (not the root) of local element `e` held by
  /// thread `threadId`.
  llvm::SmallVector<int64_t> getElementCoords(int64_t threadId,
                                              int64_t e) const;
  /// Number of consecutive registers that hold consecutive elements along
  /// tile dimension `dim` (1 if the root's fastest dimension is another).
  int64_t getContiguityPerThread(unsigned tileDim) const;
  /// Tile dimension that is the fastest-varying in registers, or -1 when the
  /// fastest root dimension is a sliced one.
  int getFastestTileDim() const;
};

/// Decomposes the encoding of `type`. Fails for a missing or unsupported
/// encoding, a rank mismatch or a shape that is not a power of two per
/// dimension.
llvm::FailureOr<DistributedLayout> getDistributedLayout(mlir::RankedTensorType type);

/// Number of elements of `type` one thread holds in registers (1 for a
/// scalar). Asserts the layout is valid: call after verification.
int64_t getTotalElemsPerThread(mlir::Type type);

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

} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_LAYOUTS_H
