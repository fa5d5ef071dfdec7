//===- LinearLayout.h - Layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// Every distributed encoding of a tile (blocked, slice, mma, dot_operand)
// says which thread holds which element; tilec represents that uniformly as
// a *linear layout*: a map from hardware indices (register, lane, warp) to
// tile coordinates that is linear over GF(2), i.e. the coordinate of
// (r, l, w) is the XOR of one basis coordinate per set bit of r, l and w.
// All tile dimensions are powers of two, so a coordinate is a bit vector.
// This is the representation Triton 3.x uses (Zhou et al., "Linear Layouts:
// Robust Code Generation of Efficient Tensor Computation Using F2", 2025);
// the implementation here is tilec's own.
//
// A zero basis means replication: the element does not change along that
// hardware bit (a tile smaller than the layout's pattern, a slice, or an mma
// operand shared by the warps along the other dimension). Layout algebra
// that the lowerings need -- where does each element of one layout live in
// another (conversion planning), which registers are consecutive in memory
// (vectorization), which hardware bits run along an axis (reductions) -- is
// bit arithmetic on the bases, and the same functions are unit-tested at
// compile time and used to emit code.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_DIALECTS_TILE_IR_LINEARLAYOUT_H
#define TILEC_DIALECTS_TILE_IR_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tilec::tile {

/// A linear map (register, lane, warp) -> tile coordinates over GF(2).
///
/// Shapes and bases: `outShape` has one power-of-two size per tile
/// dimension; `bases[in]` has one coordinate per bit of hardware index `in`
/// (so 2^bits registers / lanes / warps), each coordinate within
/// `outShape`. Registers are numbered by the register index bits, lanes are
/// `threadIdx.x % 32` and warps `threadIdx.x / 32`.
class LinearLayout {
public:
  /// The hardware indices, in the order their bits are numbered when a
  /// (register, lane, warp) triple is flattened into one bit vector.
  enum InDim : unsigned { kRegister = 0, kLane = 1, kWarp = 2 };
  static constexpr unsigned kNumInDims = 3;
  /// One coordinate per tile dimension.
  using Coord = llvm::SmallVector<int64_t, 4>;
  using Bases = std::array<llvm::SmallVector<Coord>, kNumInDims>;

  LinearLayout() = default;
  /// A layout with no bits (one register, one lane, one warp holding the
  /// element at the origin) over `outShape`.
  explicit LinearLayout(llvm::ArrayRef<int64_t> outShape);
  /// A layout from explicit bases; every coordinate is reduced modulo
  /// `outShape` (so a pattern larger than the tile replicates).
  LinearLayout(Bases bases, llvm::ArrayRef<int64_t> outShape);

  unsigned getRank() const { return outShape.size(); }
  llvm::ArrayRef<int64_t> getOutShape() const { return outShape; }
  llvm::ArrayRef<Coord> getBases(InDim in) const { return bases[in]; }
  unsigned getNumBits(InDim in) const { return bases[in].size(); }
  int64_t getSize(InDim in) const { return int64_t(1) << getNumBits(in); }
  int64_t getNumRegisters() const { return getSize(kRegister); }
  int64_t getNumLanes() const { return getSize(kLane); }
  int64_t getNumWarps() const { return getSize(kWarp); }
  /// Total bits of the flattened tile coordinate.
  unsigned getNumOutBits() const;
  /// Total hardware bits (registers, lanes, warps).
  unsigned getNumInBits() const;

  /// Appends a bit to hardware index `in` with basis `c` (reduced modulo the
  /// shape).
  void addBasis(InDim in, Coord c);

  /// The coordinate held by register `reg` of lane `lane` of warp `warp`.
  Coord apply(int64_t reg, int64_t lane, int64_t warp) const;
  /// XOR of the bases of the set bits of `value` along hardware index `in`.
  Coord applyIn(InDim in, int64_t value) const;

  /// The coordinate packed into one integer, dimension 0 in the low bits.
  uint64_t flatten(llvm::ArrayRef<int64_t> coord) const;
  Coord unflatten(uint64_t bits) const;
  /// Flattened basis of every hardware bit, registers first, then lanes,
  /// then warps (column j of the layout's matrix).
  llvm::SmallVector<uint64_t> getColumns() const;
  /// Bit offset of hardware index `in` in the flattened hardware vector.
  unsigned getInBitOffset(InDim in) const;

  /// Bits of hardware index `in` whose basis is zero (they only replicate).
  uint64_t getFreeMask(InDim in) const;
  /// Bits of hardware index `in` whose basis stays inside an aligned block
  /// of `block` elements (one power of two per tile dimension): flipping
  /// such a bit moves an element within its block, for every value of the
  /// other bits, because a coordinate is the XOR of the bases. Zero bases
  /// (replicas) are included. With `block` the constancy of a value, the
  /// registers r and r & ~mask of every thread hold equal elements.
  uint64_t getMaskWithinBlock(InDim in, llvm::ArrayRef<int64_t> block) const;
  /// Whether every basis has at most one non-zero tile dimension, that
  /// component a power of two (blocked, mma and dot-operand layouts do).
  bool hasSingleDimBases() const;
  /// Bits of hardware index `in` whose basis is non-zero along tile
  /// dimension `dim`.
  uint64_t getMaskAlong(InDim in, unsigned dim) const;

  /// Number of consecutive registers starting at a multiple of it that hold
  /// consecutive elements along `dim`, starting at a coordinate that is a
  /// multiple of it, in every thread (1 if none).
  int64_t getContiguousRegisters(unsigned dim) const;

  /// Where each hardware bit of `other` lives in this layout: for every
  /// column of `other` (registers, lanes, warps), the flattened hardware
  /// index (getInBitOffset) of this layout that holds the same coordinate,
  /// preferring registers, then lanes, then warps. std::nullopt when some
  /// element of `other` is not held by this layout (different shapes).
  /// Because both maps are linear, the location in this layout of other's
  /// (r, l, w) is the XOR of the returned columns for the set bits.
  std::optional<llvm::SmallVector<uint64_t>>
  invertAndCompose(const LinearLayout &other) const;

  /// The layout with tile dimension `dim` removed (its coordinate dropped).
  LinearLayout dropOutDim(unsigned dim) const;
  /// The layout with a size-1 tile dimension inserted at `dim`.
  LinearLayout insertOutDim(unsigned dim) const;
  /// The layout without the bits of hardware index `in` whose basis is
  /// zero: each element held once per thread instead of replicated over
  /// those registers (for kRegister), the rest in the same order.
  LinearLayout removeZeroBases(InDim in) const;
  /// Tile dimension i of the result is dimension `perm[i]` of this one.
  LinearLayout permuteOuts(llvm::ArrayRef<int32_t> perm) const;
  /// The same bases over `shape` (same rank), each coordinate reduced
  /// modulo it.
  LinearLayout reshapeModulo(llvm::ArrayRef<int64_t> shape) const;

  bool operator==(const LinearLayout &o) const {
    return outShape == o.outShape && bases == o.bases;
  }
  bool operator!=(const LinearLayout &o) const { return !(*this == o); }

  void print(llvm::raw_ostream &os) const;
  std::string str() const;

private:
  void reduceModuloShape(Coord &c) const;

  llvm::SmallVector<int64_t, 4> outShape;
  Bases bases;
};

/// A linear map from tile coordinates to element offsets in a buffer: a
/// shared-memory layout. Each bit of each tile coordinate contributes an
/// offset; an element's offset is the XOR of the contributions of its
/// coordinate's set bits. Row-major and column-major orders are such maps,
/// and so are the XOR swizzles that avoid bank conflicts (the swizzled
/// column is the column XOR a function of the row bits).
class OffsetMap {
public:
  OffsetMap() = default;
  /// `bitOffsets[d][i]`: the offset contributed by bit i of coordinate d.
  /// `span`: the elements of the buffer the offsets index (default: the
  /// product of the shape; larger for a view of a bigger buffer).
  OffsetMap(llvm::ArrayRef<int64_t> shape,
            llvm::SmallVector<llvm::SmallVector<int64_t>> bitOffsets,
            int64_t span = 0);
  /// Dense, dimensions from fastest (`order[0]`) to slowest.
  static OffsetMap dense(llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<unsigned> order);
  /// Dense row-major (last dimension fastest).
  static OffsetMap rowMajor(llvm::ArrayRef<int64_t> shape);

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  /// Elements of the buffer the offsets index (a power of two).
  int64_t getSize() const;
  int64_t apply(llvm::ArrayRef<int64_t> coord) const;
  /// The offsets of `dist`'s elements: a one-dimensional linear layout
  /// from (register, lane, warp) to offsets in [0, getSize()).
  LinearLayout compose(const LinearLayout &dist) const;
  llvm::ArrayRef<llvm::SmallVector<int64_t>> getBitOffsets() const {
    return bitOffsets;
  }
  bool operator==(const OffsetMap &o) const {
    return shape == o.shape && bitOffsets == o.bitOffsets;
  }

private:
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<llvm::SmallVector<int64_t>> bitOffsets;
  int64_t span = 0;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const LinearLayout &l) {
  l.print(os);
  return os;
}

} // namespace tilec::tile

#endif // TILEC_DIALECTS_TILE_IR_LINEARLAYOUT_H
