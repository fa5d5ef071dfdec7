//===- Layouts.cpp - Layout math for tile encodings -------------*- C++ -*-===//
//
// The linear layouts of the distributed encodings (see Layouts.h and
// TileAttrs.td for each model) and the construction of blocked encodings.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/Layouts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

namespace {
using Coord = LinearLayout::Coord;

/// The coordinate with `v` along `dim` and zero elsewhere.
Coord unit(unsigned rank, unsigned dim, int64_t v) {
  Coord c(rank, 0);
  c[dim] = v;
  return c;
}

/// Appends log2(count) bases stepping `start`, 2 * start, ... along `dim`.
void addRun(LinearLayout &l, LinearLayout::InDim in, unsigned dim,
            int64_t start, int64_t count) {
  for (int64_t s = 1; s < count; s <<= 1)
    l.addBasis(in, unit(l.getRank(), dim, start * s));
}

/// Register bases repeating a pattern of `pattern` elements along `dim`
/// until the tile's extent `size` is covered.
void addRepeats(LinearLayout &l, unsigned dim, int64_t pattern, int64_t size) {
  for (int64_t s = pattern; s < size; s <<= 1)
    l.addBasis(LinearLayout::kRegister, unit(l.getRank(), dim, s));
}
} // namespace

//===----------------------------------------------------------------------===//
// Blocked
//===----------------------------------------------------------------------===//

unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

LinearLayout BlockedEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  LinearLayout l(shape);
  ArrayRef<unsigned> spt = getSizePerThread(), tpw = getThreadsPerWarp(),
                     wpc = getWarpsPerCTA();
  // Registers: per dimension in order, the block of sizePerThread, then the
  // repetitions of the CTA tile (Triton's register order).
  for (unsigned d : getOrder()) {
    addRun(l, LinearLayout::kRegister, d, 1, spt[d]);
    addRepeats(l, d, int64_t(spt[d]) * tpw[d] * wpc[d], shape[d]);
  }
  for (unsigned d : getOrder())
    addRun(l, LinearLayout::kLane, d, spt[d], tpw[d]);
  for (unsigned d : getOrder())
    addRun(l, LinearLayout::kWarp, d, int64_t(spt[d]) * tpw[d], wpc[d]);
  return l;
}

//===----------------------------------------------------------------------===//
// Slice
//===----------------------------------------------------------------------===//

unsigned SliceEncodingAttr::getRank() const {
  return cast<DistributedEncodingAttrInterface>(getParent()).getRank() - 1;
}

unsigned SliceEncodingAttr::getNumWarps() const {
  return cast<DistributedEncodingAttrInterface>(getParent()).getNumWarps();
}

/// The parent's layout of the tile with a size-1 dimension at `dim`, that
/// dimension dropped -- without the registers that only held copies: the
/// parent's registers along `dim` (a row of an mma accumulator is spread
/// over 32 registers of a thread; its max is one value, not 32 copies).
/// Lanes and warps keep their replication, as the parent's.
LinearLayout SliceEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return cast<DistributedEncodingAttrInterface>(getParent())
      .toLinearLayout(parentShape)
      .dropOutDim(getDim())
      .removeZeroBases(LinearLayout::kRegister);
}

//===----------------------------------------------------------------------===//
// mma (version 2: mma.sync)
//===----------------------------------------------------------------------===//

unsigned MmaEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

unsigned MmaEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

namespace {
/// Warp bases shared by the mma layout and its operands: warps are
/// numbered N fastest, then M, then batch. `keepM` / `keepN` say whether
/// the warps along M / N move the coordinate (an operand is replicated over
/// the warps along the dimension it does not have).
void addMmaWarps(LinearLayout &l, ArrayRef<unsigned> wpc, unsigned rowDim,
                 unsigned colDim, int64_t rowStep, int64_t colStep, bool keepM,
                 bool keepN) {
  unsigned rank = l.getRank();
  unsigned b = rank == 3 ? 1 : 0;
  for (int64_t s = 1; s < wpc[b + 1]; s <<= 1)
    l.addBasis(LinearLayout::kWarp,
               keepN ? unit(rank, colDim, colStep * s) : Coord(rank, 0));
  for (int64_t s = 1; s < wpc[b]; s <<= 1)
    l.addBasis(LinearLayout::kWarp,
               keepM ? unit(rank, rowDim, rowStep * s) : Coord(rank, 0));
  if (rank == 3)
    for (int64_t s = 1; s < wpc[0]; s <<= 1)
      l.addBasis(LinearLayout::kWarp, unit(rank, 0, s));
}
} // namespace

LinearLayout MmaEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = shape.size();
  unsigned b = rank == 3 ? 1 : 0, row = b, col = b + 1;
  ArrayRef<unsigned> wpc = getWarpsPerCTA();
  LinearLayout l(shape);
  if (getVersion() == 3) {
    // wgmma m64nNk16 accumulators: warp w of a warpgroup holds rows
    // 16w..16w+15 of the 64-row instruction tile; within a warp, each 8
    // columns are laid out as for mma.sync (PTX ISA 9.7.15.5.1).
    int64_t n = getInstrShape()[1];
    l.addBasis(LinearLayout::kRegister, unit(rank, col, 1));
    l.addBasis(LinearLayout::kRegister, unit(rank, row, 8));
    addRun(l, LinearLayout::kRegister, col, 8, n / 8);
    addRun(l, LinearLayout::kLane, col, 2, 4);
    addRun(l, LinearLayout::kLane, row, 1, 8);
    // Warps: four per warpgroup along M, then warpgroups per warpsPerCTA
    // (which counts warps; M includes the four).
    for (int64_t s = 1; s < wpc[b]; s <<= 1)
      l.addBasis(LinearLayout::kWarp, unit(rank, row, 16 * s));
    for (int64_t s = 1; s < wpc[b + 1]; s <<= 1)
      l.addBasis(LinearLayout::kWarp, unit(rank, col, n * s));
    if (rank == 3)
      for (int64_t s = 1; s < wpc[0]; s <<= 1)
        l.addBasis(LinearLayout::kWarp, unit(rank, 0, s));
    addRepeats(l, col, n * wpc[b + 1], shape[col]);
    addRepeats(l, row, 16 * int64_t(wpc[b]), shape[row]);
    if (rank == 3)
      addRepeats(l, 0, wpc[0], shape[0]);
    return l;
  }
  // mma.sync m16n8: c0, c1 at (l/4, 2(l%4) + {0,1}); c2, c3 eight rows down.
  l.addBasis(LinearLayout::kRegister, unit(rank, col, 1));
  l.addBasis(LinearLayout::kRegister, unit(rank, row, 8));
  addRun(l, LinearLayout::kLane, col, 2, 4);
  addRun(l, LinearLayout::kLane, row, 1, 8);
  addMmaWarps(l, wpc, row, col, 16, 8, true, true);
  addRepeats(l, col, 8 * int64_t(wpc[b + 1]), shape[col]);
  addRepeats(l, row, 16 * int64_t(wpc[b]), shape[row]);
  if (rank == 3)
    addRepeats(l, 0, wpc[0], shape[0]);
  return l;
}

//===----------------------------------------------------------------------===//
// dot_operand
//===----------------------------------------------------------------------===//

unsigned DotOperandEncodingAttr::getRank() const {
  return cast<DistributedEncodingAttrInterface>(getParent()).getRank();
}

unsigned DotOperandEncodingAttr::getNumWarps() const {
  return cast<DistributedEncodingAttrInterface>(getParent()).getNumWarps();
}

LinearLayout
DotOperandEncodingAttr::toLinearLayout(ArrayRef<int64_t> shape) const {
  unsigned rank = shape.size();
  unsigned b = rank == 3 ? 1 : 0;
  bool isA = getOpIdx() == 0;
  // Tile dimensions of the operand: A is [M, K], B is [K, N].
  unsigned kDim = isA ? b + 1 : b, otherDim = isA ? b : b + 1;
  LinearLayout l(shape);

  if (auto mma = dyn_cast<MmaEncodingAttr>(getParent())) {
    ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
    int64_t w = getKWidth();
    // One 32-bit register holds kWidth consecutive K elements; lane l holds
    // K group l % 4 and row (A) / column (B) l / 4. A has two more register
    // bits (eight rows down, then K + 4 * kWidth), B one (K + 4 * kWidth).
    addRun(l, LinearLayout::kRegister, kDim, 1, w);
    if (isA)
      l.addBasis(LinearLayout::kRegister, unit(rank, otherDim, 8));
    l.addBasis(LinearLayout::kRegister, unit(rank, kDim, 4 * w));
    addRun(l, LinearLayout::kLane, kDim, w, 4);
    addRun(l, LinearLayout::kLane, otherDim, 1, 8);
    if (mma.getVersion() == 3) {
      // wgmma's A in registers (verified: opIdx 0): the warps go along M
      // first, as the accumulator's (warp w of a warpgroup holds rows
      // 16w..16w+15), and A is replicated over the warpgroups along N.
      for (int64_t s = 1; s < wpc[b]; s <<= 1)
        l.addBasis(LinearLayout::kWarp, unit(rank, otherDim, 16 * s));
      for (int64_t s = 1; s < wpc[b + 1]; s <<= 1)
        l.addBasis(LinearLayout::kWarp, Coord(rank, 0));
      if (rank == 3)
        for (int64_t s = 1; s < wpc[0]; s <<= 1)
          l.addBasis(LinearLayout::kWarp, unit(rank, 0, s));
    } else {
      addMmaWarps(l, wpc, /*rowDim=*/isA ? otherDim : 0,
                  /*colDim=*/isA ? 0 : otherDim, 16, 8, /*keepM=*/isA,
                  /*keepN=*/!isA);
    }
    // Repetitions: K first, then M (A) or N (B), then batch.
    addRepeats(l, kDim, 8 * w, shape[kDim]);
    addRepeats(l, otherDim, isA ? 16 * int64_t(wpc[b]) : 8 * int64_t(wpc[b + 1]),
               shape[otherDim]);
    if (rank == 3)
      addRepeats(l, 0, wpc[0], shape[0]);
    return l;
  }

  // FMA path: the whole K extent in registers, then the parent's placement
  // of the rows (A) / columns (B), replicated over the parent's other
  // dimension.
  auto parent = cast<BlockedEncodingAttr>(getParent());
  SmallVector<int64_t> parentShape(shape);
  parentShape[kDim] = 1;
  // The parent's result dimension that the operand lacks is kDim's slot:
  // A [M, K] sits over result [M, N] with N -> K; B [K, N] over [M, N] with
  // M -> K. Either way the result dimension at kDim is the one dropped.
  LinearLayout p = parent.toLinearLayout(parentShape);
  addRun(l, LinearLayout::kRegister, kDim, 1, shape[kDim]);
  for (unsigned in = 0; in < LinearLayout::kNumInDims; ++in)
    for (Coord c : p.getBases(LinearLayout::InDim(in))) {
      c[kDim] = 0;
      bool zero = llvm::all_of(c, [](int64_t v) { return v == 0; });
      if (in == LinearLayout::kRegister && zero)
        continue; // a register copy would only replicate
      l.addBasis(LinearLayout::InDim(in), c);
    }
  return l;
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

FailureOr<LinearLayout> tilec::tile::getLinearLayout(RankedTensorType type) {
  auto enc = dyn_cast_or_null<DistributedEncodingAttrInterface>(
      type.getEncoding());
  if (!enc || enc.getRank() != unsigned(type.getRank()))
    return failure();
  for (int64_t s : type.getShape())
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return failure();
  return enc.toLinearLayout(type.getShape());
}

int64_t tilec::tile::getTotalElemsPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  FailureOr<LinearLayout> l = getLinearLayout(tensor);
  assert(succeeded(l) && "tile type without a valid distributed encoding");
  return l->getNumRegisters();
}

unsigned tilec::tile::getEncodingNumWarps(Attribute encoding) {
  if (auto d = dyn_cast_or_null<DistributedEncodingAttrInterface>(encoding))
    return d.getNumWarps();
  return 0;
}

BlockedEncodingAttr tilec::tile::getBlockedEncoding(MLIRContext *ctx,
                                                    ArrayRef<int64_t> shape,
                                                    unsigned numWarps,
                                                    unsigned vec,
                                                    ArrayRef<unsigned> order) {
  unsigned rank = shape.size();
  SmallVector<unsigned> ord(order);
  if (ord.empty())
    for (unsigned d = rank; d-- > 0;)
      ord.push_back(d);
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[ord[0]] = std::max<int64_t>(1, std::min<int64_t>(vec, shape[ord[0]]));
  // Spread lanes, then warps, from the fastest dimension outwards, each
  // taking no more than the dimension still has room for.
  unsigned lanesLeft = 32, warpsLeft = numWarps;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    unsigned d = ord[i];
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = unsigned(std::min<int64_t>(lanesLeft, room));
    lanesLeft /= tpw[d];
    room = std::max<int64_t>(1, room / tpw[d]);
    wpc[d] = unsigned(std::min<int64_t>(warpsLeft, room));
    warpsLeft /= wpc[d];
  }
  // The slowest dimension takes what is left (wrapping if it is too small).
  tpw[ord[rank - 1]] = lanesLeft;
  wpc[ord[rank - 1]] = warpsLeft;
  return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, ord);
}

bool tilec::tile::haveSameElementPlacement(RankedTensorType a,
                                           RankedTensorType b) {
  if (a.getShape() != b.getShape())
    return false;
  if (a.getEncoding() == b.getEncoding())
    return true;
  FailureOr<LinearLayout> la = getLinearLayout(a);
  FailureOr<LinearLayout> lb = getLinearLayout(b);
  // Linear maps agree everywhere iff they agree on every basis bit.
  return succeeded(la) && succeeded(lb) && *la == *lb;
}

Type tilec::tile::withEncoding(Type type, Attribute encoding) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

int64_t tilec::tile::getMmaInstrK(Type t) {
  if (t.isF16() || t.isBF16())
    return 16;
  if (t.isInteger(8) || isa<Float8E4M3FNType, Float8E5M2Type>(t))
    return 32;
  if (t.isF32())
    return 8;
  return 0;
}

unsigned tilec::tile::getMmaKWidth(Type t) {
  int64_t k = getMmaInstrK(t);
  return k ? unsigned(k / 8) : 0;
}

//===----------------------------------------------------------------------===//
// Shared encodings
//===----------------------------------------------------------------------===//

unsigned SharedEncodingAttr::getRank() const { return getOrder().size(); }

SmallVector<unsigned> SharedEncodingAttr::getMemoryOrder() const {
  return SmallVector<unsigned>(getOrder());
}

OffsetMap SharedEncodingAttr::toOffsetMap(ArrayRef<int64_t> shape,
                                          Type) const {
  unsigned rank = shape.size();
  ArrayRef<unsigned> order = getOrder();
  SmallVector<SmallVector<int64_t>> bits(rank);
  unsigned inner = order[0];
  for (int64_t s = 1; s < shape[inner]; s <<= 1)
    bits[inner].push_back(s);
  int64_t stride = shape[inner];
  if (rank >= 2) {
    unsigned outer = order[1];
    int64_t vec = std::min<int64_t>(getVec(), shape[inner]);
    int64_t groups = shape[inner] / vec;
    int64_t maxPhase = std::min<int64_t>(getMaxPhase(), groups);
    unsigned perPhaseLog = llvm::Log2_64(getPerPhase());
    unsigned maxPhaseLog = llvm::Log2_64(maxPhase);
    for (unsigned j = 0; (int64_t(1) << j) < shape[outer]; ++j) {
      int64_t off = stride << j;
      // Row bit j moves the phase (row / perPhase) % maxPhase by
      // 2^(j - log2 perPhase): the column's vec group is XORed with it.
      if (j >= perPhaseLog && j - perPhaseLog < maxPhaseLog)
        off ^= vec << (j - perPhaseLog);
      bits[outer].push_back(off);
    }
    stride *= shape[outer];
  }
  for (unsigned i = 2; i < rank; ++i) {
    unsigned d = order[i];
    for (int64_t s = 1; s < shape[d]; s <<= 1)
      bits[d].push_back(stride * s);
    stride *= shape[d];
  }
  return OffsetMap(shape, std::move(bits));
}

unsigned NVMMASharedEncodingAttr::getRank() const { return 2; }

SmallVector<unsigned> NVMMASharedEncodingAttr::getMemoryOrder() const {
  if (getTransposed())
    return {0, 1};
  return {1, 0};
}

OffsetMap NVMMASharedEncodingAttr::toOffsetMap(ArrayRef<int64_t> shape,
                                               Type elementType) const {
  // Logical (unswizzled) order: blocks of `swizzle` bytes of the
  // contiguous dimension, each block all rows of it; then the hardware's
  // swizzle on the byte address: bits 4..6 ^= bits 7..9 (128B), 4..5 ^=
  // 7..8 (64B), 4 ^= 7 (32B).
  unsigned rank = shape.size();
  unsigned c = getTransposed() ? 0 : 1, r = 1 - c;
  int64_t bytes = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  int64_t perRow = std::min<int64_t>(shape[c], getSwizzle() / bytes);
  SmallVector<SmallVector<int64_t>> bits(rank);
  for (int64_t s = 1; s < perRow; s <<= 1)
    bits[c].push_back(s);
  for (int64_t s = 1; s < shape[r]; s <<= 1)
    bits[r].push_back(perRow * s);
  for (int64_t s = perRow; s < shape[c]; s <<= 1)
    bits[c].push_back(shape[r] * s);
  uint64_t mask = getSwizzle() / 16 - 1;
  for (auto &dim : bits)
    for (int64_t &off : dim) {
      uint64_t addr = uint64_t(off) * bytes;
      addr ^= ((addr >> 7) & mask) << 4;
      off = int64_t(addr / bytes);
    }
  return OffsetMap(shape, std::move(bits));
}
