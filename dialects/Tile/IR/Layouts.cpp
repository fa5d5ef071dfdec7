//===- Layouts.cpp - Layout math for tile encodings -------------*- C++ -*-===//
//
// Implements the element-to-thread mapping of blocked and slice encodings
// (see Layouts.h for the model) and the construction of blocked encodings.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/Layouts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace

FailureOr<DistributedLayout>
tilec::tile::getDistributedLayout(RankedTensorType type) {
  DistributedLayout l;
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t s : shape)
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return failure();
  // Peel slices: each inserts a size-1 dimension into the shape.
  Attribute enc = type.getEncoding();
  SmallVector<unsigned> dimMap = llvm::to_vector(llvm::seq<unsigned>(0, shape.size()));
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(enc)) {
    unsigned dim = slice.getDim();
    if (dim > shape.size())
      return failure();
    shape.insert(shape.begin() + dim, 1);
    for (unsigned &m : dimMap)
      if (m >= dim)
        ++m;
    enc = slice.getParent();
  }
  auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(enc);
  if (!blocked || blocked.getRank() != shape.size())
    return failure();
  l.root = blocked;
  l.rootShape = shape;
  l.tileDimToRoot = dimMap;
  l.totalElemsPerThread = 1;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t cta = int64_t(blocked.getSizePerThread()[d]) *
                  blocked.getThreadsPerWarp()[d] * blocked.getWarpsPerCTA()[d];
    l.ctaTile.push_back(cta);
    int64_t ept = blocked.getSizePerThread()[d] * ceilDiv(shape[d], cta);
    l.elemsPerThread.push_back(ept);
    l.totalElemsPerThread *= ept;
  }
  return l;
}

SmallVector<int64_t> DistributedLayout::getRegisterIndices(int64_t e) const {
  SmallVector<int64_t> k(rootShape.size(), 0);
  for (unsigned d : root.getOrder()) {
    k[d] = e % elemsPerThread[d];
    e /= elemsPerThread[d];
  }
  return k;
}

int64_t DistributedLayout::getLocalIndex(ArrayRef<int64_t> regIdx) const {
  int64_t e = 0, stride = 1;
  for (unsigned d : root.getOrder()) {
    e += regIdx[d] * stride;
    stride *= elemsPerThread[d];
  }
  return e;
}

SmallVector<int64_t> DistributedLayout::getLocalOffsets(int64_t e) const {
  SmallVector<int64_t> k = getRegisterIndices(e);
  SmallVector<int64_t> off(k.size());
  for (unsigned d = 0; d < k.size(); ++d) {
    int64_t spt = root.getSizePerThread()[d];
    off[d] = (k[d] / spt) * ctaTile[d] + k[d] % spt;
  }
  return off;
}

SmallVector<int64_t> DistributedLayout::getThreadBase(int64_t threadId) const {
  unsigned rank = rootShape.size();
  int64_t lane = threadId % 32, warp = threadId / 32;
  SmallVector<int64_t> laneC(rank), warpC(rank), base(rank);
  for (unsigned d : root.getOrder()) {
    laneC[d] = lane % root.getThreadsPerWarp()[d];
    lane /= root.getThreadsPerWarp()[d];
    warpC[d] = warp % root.getWarpsPerCTA()[d];
    warp /= root.getWarpsPerCTA()[d];
  }
  for (unsigned d = 0; d < rank; ++d)
    base[d] = (warpC[d] * root.getThreadsPerWarp()[d] + laneC[d]) *
              root.getSizePerThread()[d];
  return base;
}

SmallVector<int64_t> DistributedLayout::getElementCoords(int64_t threadId,
                                                         int64_t e) const {
  SmallVector<int64_t> base = getThreadBase(threadId);
  SmallVector<int64_t> off = getLocalOffsets(e);
  SmallVector<int64_t> coords;
  for (unsigned td = 0; td < tileDimToRoot.size(); ++td) {
    unsigned d = tileDimToRoot[td];
    int64_t c = base[d] + off[d];
    coords.push_back(wraps(d) ? c % rootShape[d] : c);
  }
  return coords;
}

int DistributedLayout::getFastestTileDim() const {
  unsigned fastest = root.getOrder()[0];
  for (unsigned td = 0; td < tileDimToRoot.size(); ++td)
    if (tileDimToRoot[td] == fastest)
      return td;
  return -1;
}

int64_t DistributedLayout::getContiguityPerThread(unsigned tileDim) const {
  if (getFastestTileDim() != int(tileDim))
    return 1;
  unsigned d = tileDimToRoot[tileDim];
  return std::min<int64_t>(root.getSizePerThread()[d], rootShape[d]);
}

int64_t tilec::tile::getTotalElemsPerThread(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  FailureOr<DistributedLayout> l = getDistributedLayout(tensor);
  assert(succeeded(l) && "tile type without a valid distributed encoding");
  return l->totalElemsPerThread;
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
  FailureOr<DistributedLayout> la = getDistributedLayout(a);
  FailureOr<DistributedLayout> lb = getDistributedLayout(b);
  if (failed(la) || failed(lb) ||
      la->totalElemsPerThread != lb->totalElemsPerThread)
    return false;
  unsigned numThreads = la->root.getNumWarps() * 32;
  if (numThreads != lb->root.getNumWarps() * 32)
    return false;
  // Compile-time comparison of the whole mapping: tiles are small.
  int64_t work = numThreads * la->totalElemsPerThread;
  if (work > (1 << 20))
    return false;
  for (unsigned t = 0; t < numThreads; ++t)
    for (int64_t e = 0; e < la->totalElemsPerThread; ++e)
      if (la->getElementCoords(t, e) != lb->getElementCoords(t, e))
        return false;
  return true;
}

Type tilec::tile::withEncoding(Type type, Attribute encoding) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}
