//===- PromoteToShared.cpp - mma.sync operands through shared memory -*- C++ -*-===//
//
// tile-promote-to-shared: an mma.sync operand is in no layout a load can
// produce efficiently, so it goes through shared memory -- stored from the
// coalesced layout it was loaded in, loaded back with ldmatrix:
//
//   %a' = tile.convert_layout %a -> #dot_operand        (an mma parent)
// becomes
//   %m  = tile.local_alloc %a -> !tile.memdesc<..., #shared, mutable>
//   %a' = tile.local_load %m  -> #dot_operand
//
// with a swizzled encoding (shared by the stores and the ldmatrix rows, see
// sharedEncodingFor) whose memory order is the source's, so that both sides
// move 16-byte vectors without bank conflicts. An operand that is a
// `tile.trans` of a loaded tile is stored untransposed and read through
// `tile.memdesc_trans` (ldmatrix then reads K-contiguous rows).
//
// Then each tile.dot whose operands are both loaded from shared memory is
// split along K into one dot per mma.sync K step, each loading its own
// K slice (`tile.memdesc_subview`): the operand registers of one step are
// live only while it computes, not the whole K extent's.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/IR/Layouts.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/LayoutUtils.h"
#include "passes/SIMT/SIMTUtils.h"

#define DEBUG_TYPE "tile-promote-to-shared"

namespace tilec {
#define GEN_PASS_DEF_TILEPROMOTETOSHAREDPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

SharedEncodingAttr tilec::sharedEncodingFor(RankedTensorType t,
                                            ArrayRef<unsigned> order) {
  // Rows of the contiguous dimension; 16-byte groups (an ldmatrix row, a
  // cp.async) XORed with the row's phase so that eight consecutive rows
  // hit eight different groups of 4 banks.
  int64_t bytes = std::max<int64_t>(1, getElementBytes(t.getElementType()));
  int64_t rowBytes = t.getDimSize(order[0]) * bytes;
  unsigned vec = unsigned(std::max<int64_t>(1, 16 / bytes));
  unsigned perPhase = unsigned(std::max<int64_t>(1, 128 / rowBytes));
  unsigned maxPhase = unsigned(
      std::max<int64_t>(1, std::min<int64_t>(8 / perPhase, rowBytes / 16)));
  return SharedEncodingAttr::get(t.getContext(), vec, perPhase, maxPhase,
                                 order);
}

namespace {

bool isMmaOperand(Type t) {
  auto enc = dyn_cast_or_null<DotOperandEncodingAttr>(
      cast<RankedTensorType>(t).getEncoding());
  return enc && isa<MmaEncodingAttr>(enc.getParent());
}

/// Whether `cvt` moves no element between threads (a register
/// permutation): a dot's accumulator, rounded to the operand type, as the
/// A operand of the next wgmma (FlashAttention's P).
bool isRegisterConversion(ConvertLayoutOp cvt) {
  auto src = tile::getLinearLayout(cast<RankedTensorType>(cvt.getSrc().getType()));
  auto dst = tile::getLinearLayout(cast<RankedTensorType>(cvt.getType()));
  return succeeded(src) && succeeded(dst) &&
         simt::planConversion(*src, *dst).kind ==
             simt::ConversionPlan::Kind::Registers;
}

/// Stores `v` to a new buffer in the encoding for `order`.
Value allocFor(OpBuilder &b, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  auto enc = sharedEncodingFor(t, getMemoryOrder(t));
  auto type = MemDescType::get(t.getShape(), t.getElementType(), enc,
                               /*mutableMemory=*/true);
  return LocalAllocOp::create(b, loc, type, v);
}

/// The memdesc to load an mma operand from: the converted value stored, or
/// for a 2-D `tile.trans`, its source stored and viewed transposed.
Value promote(OpBuilder &b, ConvertLayoutOp cvt) {
  Location loc = cvt.getLoc();
  Value src = cvt.getSrc();
  if (auto trans = src.getDefiningOp<TransOp>()) {
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    ArrayRef<int32_t> order = trans.getOrder();
    bool swapsLastTwo = srcType.getRank() >= 2 &&
                        order[srcType.getRank() - 1] == srcType.getRank() - 2 &&
                        order[srcType.getRank() - 2] == srcType.getRank() - 1;
    for (int64_t d = 0; d + 2 < srcType.getRank(); ++d)
      swapsLastTwo &= order[d] == d;
    if (swapsLastTwo) {
      Value m = allocFor(b, loc, trans.getSrc());
      MemDescType tType =
          getTransposedMemDescType(cast<MemDescType>(m.getType()), order);
      return MemDescTransOp::create(b, loc, tType, m, order);
    }
  }
  return allocFor(b, loc, src);
}

/// A view of K slice `k` (of `kStep` elements) of a dot operand in shared
/// memory.
Value kSlice(OpBuilder &b, Location loc, Value m, unsigned kDim, int64_t k,
             int64_t kStep) {
  auto mt = cast<MemDescType>(m.getType());
  SmallVector<int64_t> shape(mt.getShape()), offsets(shape.size(), 0);
  shape[kDim] = kStep;
  offsets[kDim] = k * kStep;
  auto type = MemDescType::get(b.getContext(), shape, mt.getElementType(),
                               mt.getEncoding(), mt.getMutableMemory(),
                               mt.getAllocShape());
  return MemDescSubviewOp::create(b, loc, type, m,
                                  b.getDenseI64ArrayAttr(offsets));
}

/// Splits a dot whose operands are local_loads along K, one dot per
/// instruction K step.
void splitAlongK(DotOp dot) {
  auto la = dot.getA().getDefiningOp<LocalLoadOp>();
  auto lb = dot.getB().getDefiningOp<LocalLoadOp>();
  if (!la || !lb)
    return;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  auto aEnc = cast<DotOperandEncodingAttr>(aType.getEncoding());
  unsigned rank = aType.getRank();
  int64_t kStep = 8 * int64_t(aEnc.getKWidth());
  int64_t kSize = aType.getDimSize(rank - 1);
  if (kSize <= kStep)
    return;
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value acc = dot.getC();
  int64_t steps = kSize / kStep;
  // Slice k's operands are loaded before slice k - 1's dot (register
  // double buffering): the ldmatrix of the next step is in flight while
  // the mma.sync of this one issue.
  auto loadSlice = [&](int64_t k) -> std::pair<Value, Value> {
    SmallVector<int64_t> as(aType.getShape()), bs(bType.getShape());
    as[rank - 1] = kStep;
    bs[rank - 2] = kStep;
    Value a = LocalLoadOp::create(
        b, loc, RankedTensorType::get(as, aType.getElementType(), aEnc),
        kSlice(b, loc, la.getSrc(), rank - 1, k, kStep));
    Value bv = LocalLoadOp::create(
        b, loc,
        RankedTensorType::get(bs, bType.getElementType(), bType.getEncoding()),
        kSlice(b, loc, lb.getSrc(), rank - 2, k, kStep));
    return {a, bv};
  };
  std::pair<Value, Value> next = loadSlice(0);
  for (int64_t k = 0; k < steps; ++k) {
    std::pair<Value, Value> cur = next;
    if (k + 1 < steps)
      next = loadSlice(k + 1);
    acc = DotOp::create(b, loc, dot.getD().getType(), cur.first, cur.second,
                        acc, dot.getInputPrecisionAttr(),
                        dot.getMaxNumImpreciseAccAttr())
              .getD();
  }
  dot.getD().replaceAllUsesWith(acc);
  dot.erase();
  if (la->use_empty())
    la.erase();
  if (lb && lb->use_empty())
    lb.erase();
}

class PromoteToSharedPass
    : public tilec::impl::TilePromoteToSharedPassBase<PromoteToSharedPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<ConvertLayoutOp> cvts;
    getOperation().walk([&](ConvertLayoutOp cvt) {
      if (isMmaOperand(cvt.getType()) && !isRegisterConversion(cvt))
        cvts.push_back(cvt);
    });
    for (ConvertLayoutOp cvt : cvts) {
      OpBuilder b(cvt);
      Value m = promote(b, cvt);
      Value v = LocalLoadOp::create(b, cvt.getLoc(), cvt.getType(), m);
      cvt.replaceAllUsesWith(v);
      Operation *src = cvt.getSrc().getDefiningOp();
      cvt.erase();
      if (src && isa<TransOp>(src) && src->use_empty())
        src->erase();
    }
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots)
      if (isa_and_nonnull<MmaEncodingAttr>(
              cast<RankedTensorType>(dot.getD().getType()).getEncoding()))
        splitAlongK(dot);
  }
};

} // namespace
