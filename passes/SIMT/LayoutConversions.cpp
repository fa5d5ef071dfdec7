//===- LayoutConversions.cpp - convert_layout and reshape -------*- C++ -*-===//
//
// Moves tile elements between layouts. The plan comes from the linear
// layouts alone (LinearLayout::invertAndCompose gives, for every hardware
// bit of the target layout, where the source holds that element), so any
// pair of distributed encodings converts:
//
//  - every element is already in the thread that needs it: a register
//    permutation (LLVM shufflevector), no instructions at run time;
//  - every element is in the same warp, in a register the source lane
//    choice does not change: one `shfl.sync.idx` per target register, the
//    source lane a linear function of the lane id;
//  - otherwise through shared memory (the op's scratch bytes from
//    tile-allocate-shared): every thread stores its elements (first
//    replicas only, vectorized where consecutive), a barrier, every thread
//    loads the target layout's elements.
//
// A reshape is the shared-memory exchange with the destination read under
// another shape (row-major order is preserved).
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {
using LL = tile::LinearLayout;

/// Shared-memory element type: i1 as a byte, pointers as i64.
Type sharedType(Type converted) {
  if (converted.isInteger(1))
    return IntegerType::get(converted.getContext(), 8);
  return converted;
}

} // namespace

ConversionPlan simt::planConversion(const LL &src, const LL &dst) {
  ConversionPlan plan;
  if (src == dst) {
    plan.kind = ConversionPlan::Kind::Registers;
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r)
      plan.srcRegister.push_back(r);
    return plan;
  }
  std::optional<SmallVector<uint64_t>> cols = src.invertAndCompose(dst);
  if (!cols)
    return plan; // Shared
  unsigned regBits = src.getNumBits(LL::kRegister);
  unsigned laneBits = src.getNumBits(LL::kLane);
  uint64_t regMask = (uint64_t(1) << regBits) - 1;
  uint64_t laneMask = ((uint64_t(1) << laneBits) - 1) << regBits;
  uint64_t warpMask = ~(regMask | laneMask);
  unsigned dReg = dst.getNumBits(LL::kRegister);
  unsigned dLane = dst.getNumBits(LL::kLane);
  uint64_t srcFreeLanes = src.getFreeMask(LL::kLane);
  uint64_t srcFreeWarps = src.getFreeMask(LL::kWarp);
  // Does target bit `i` of hardware index `kind` stay in the same `kind`
  // bit of the source (or replicate where the source does too)?
  auto sameBit = [&](uint64_t col, unsigned i, uint64_t kindMask,
                     unsigned kindOffset, uint64_t srcFree) {
    uint64_t own = uint64_t(1) << (kindOffset + i);
    if ((col & ~kindMask) != 0)
      return false;
    return col == own || (col == 0 && (srcFree >> i & 1));
  };
  bool warpsStay = true, lanesStay = true, lanesInWarp = true,
       regsInThread = true, regsInWarp = true;
  for (unsigned i = 0; i < dst.getNumBits(LL::kWarp); ++i)
    warpsStay &= sameBit((*cols)[dReg + dLane + i], i, warpMask,
                         regBits + laneBits, srcFreeWarps);
  for (unsigned i = 0; i < dLane; ++i) {
    uint64_t col = (*cols)[dReg + i];
    lanesStay &= sameBit(col, i, laneMask, regBits, srcFreeLanes);
    lanesInWarp &= (col & (regMask | warpMask)) == 0;
  }
  for (unsigned i = 0; i < dReg; ++i) {
    uint64_t col = (*cols)[i];
    regsInThread &= (col & (laneMask | warpMask)) == 0;
    regsInWarp &= (col & warpMask) == 0;
  }
  if (!warpsStay)
    return plan;
  auto regOf = [&](int64_t r) {
    uint64_t loc = 0;
    for (unsigned i = 0; i < dReg; ++i)
      if (r >> i & 1)
        loc ^= (*cols)[i];
    return loc;
  };
  if (lanesStay && regsInThread) {
    plan.kind = ConversionPlan::Kind::Registers;
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r)
      plan.srcRegister.push_back(int64_t(regOf(r) & regMask));
    return plan;
  }
  if (lanesInWarp && regsInWarp) {
    plan.kind = ConversionPlan::Kind::WarpShuffle;
    for (unsigned i = 0; i < dLane; ++i)
      plan.laneBases.push_back(int64_t(((*cols)[dReg + i] & laneMask) >>
                                       regBits));
    for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
      uint64_t loc = regOf(r);
      plan.srcRegister.push_back(int64_t(loc & regMask));
      plan.srcLaneXor.push_back(int64_t((loc & laneMask) >> regBits));
    }
    // Lanes read themselves when the lane map is the identity and no
    // register moves across lanes.
    plan.identityLanes = lanesStay;
    return plan;
  }
  return plan;
}

namespace {
Value exchangeThroughShared(OpBuilder &b, Location loc, Value src,
                            const LL &sl, const LL &dl, Type elem,
                            int64_t byteOffset);
} // namespace

Value simt::convertLayout(OpBuilder &b, Location loc, Value src, const LL &sl,
                          const LL &dl, Type elem, int64_t byteOffset) {
  ConversionPlan plan = planConversion(sl, dl);
  switch (plan.kind) {
  case ConversionPlan::Kind::Registers: {
    SmallVector<int32_t> mask(plan.srcRegister.begin(),
                              plan.srcRegister.end());
    return LLVM::ShuffleVectorOp::create(b, loc, src, src, mask);
  }
  case ConversionPlan::Kind::WarpShuffle: {
    Value lane = emitLaneId(b, loc);
    Value srcLane = emitLinearFunction(b, loc, lane, plan.laneBases);
    Value result = poisonValue(
        b, loc, VectorType::get({dl.getNumRegisters()}, elem));
    for (size_t r = 0; r < plan.srcRegister.size(); ++r) {
      Value v = extractElement(b, loc, src, plan.srcRegister[r]);
      if (!plan.identityLanes || plan.srcLaneXor[r] != 0) {
        Value from = plan.srcLaneXor[r]
                         ? Value(arith::XOrIOp::create(
                               b, loc, srcLane,
                               i32Const(b, loc, plan.srcLaneXor[r])))
                         : srcLane;
        v = warpShuffleIdx(b, loc, v, from);
      }
      result = insertElement(b, loc, result, v, r);
    }
    return result;
  }
  case ConversionPlan::Kind::Shared:
    break;
  }
  return exchangeThroughShared(b, loc, src, sl, dl, elem, byteOffset);
}

Value simt::broadcastReplicas(OpBuilder &b, Location loc, Value vals,
                              const LL &layout, Type elem,
                              int64_t byteOffset) {
  if (layout.getFreeMask(LL::kWarp))
    // The first replicas store, every thread loads its elements back.
    return exchangeThroughShared(b, loc, vals, layout, layout, elem,
                                 byteOffset);
  int64_t regs = layout.getNumRegisters();
  uint64_t freeRegs = layout.getFreeMask(LL::kRegister);
  if (freeRegs) {
    SmallVector<int32_t> mask;
    for (int64_t r = 0; r < regs; ++r)
      mask.push_back(int32_t(uint64_t(r) & ~freeRegs));
    vals = LLVM::ShuffleVectorOp::create(b, loc, vals, vals, mask);
  }
  uint64_t freeLanes = layout.getFreeMask(LL::kLane);
  if (!freeLanes)
    return vals;
  Value lane = emitLaneId(b, loc);
  Value srcLane = arith::AndIOp::create(
      b, loc, lane, i32Const(b, loc, int64_t(~freeLanes & 31)));
  Value result = poisonValue(b, loc, vals.getType());
  SmallVector<Value> shuffled(regs);
  for (int64_t r = 0; r < regs; ++r) {
    int64_t from = int64_t(uint64_t(r) & ~freeRegs);
    if (!shuffled[from])
      shuffled[from] =
          warpShuffleIdx(b, loc, extractElement(b, loc, vals, from), srcLane);
    result = insertElement(b, loc, result, shuffled[from], r);
  }
  return result;
}

int64_t simt::getBroadcastReplicasBytes(RankedTensorType type) {
  if (!getLayout(type).getFreeMask(LL::kWarp))
    return 0;
  Type elem = type.getElementType();
  int64_t bytes = isa<tile::PtrType>(elem) ? 8 : getElementBytes(elem);
  return type.getNumElements() * std::max<int64_t>(bytes, 1);
}

namespace {

/// Every thread stores its elements of `src` (layout `sl`) at their
/// row-major offsets, a barrier, every thread loads the elements of layout
/// `dl` from their row-major offsets (in its own shape, for reshapes).
Value exchangeThroughShared(OpBuilder &b, Location loc, Value src,
                            const LL &sl, const LL &dl, Type elem,
                            int64_t byteOffset) {
  Type smemElem = sharedType(elem);
  int64_t srcRegs = sl.getNumRegisters(), dstRegs = dl.getNumRegisters();
  if (smemElem != elem)
    src = arith::ExtUIOp::create(
        b, loc, VectorType::get({srcRegs}, smemElem), src);
  Value base = getSharedBase(b, loc, byteOffset);
  // (tile-insert-barriers orders this against earlier users of the bytes.)
  storeToShared(b, loc, base, src,
                tile::OffsetMap::rowMajor(sl.getOutShape()).compose(sl));
  gpu::BarrierOp::create(b, loc);
  Value result = loadFromShared(
      b, loc, base, VectorType::get({dstRegs}, smemElem),
      tile::OffsetMap::rowMajor(dl.getOutShape()).compose(dl));
  if (smemElem != elem)
    result = arith::TruncIOp::create(b, loc, VectorType::get({dstRegs}, elem),
                                     result);
  return result;
}

int64_t scratchOffset(Operation *op);

struct ConvertLayoutLowering
    : public OpConversionPattern<tile::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    rewriter.replaceOp(op, convertLayout(rewriter, op.getLoc(),
                                         adaptor.getSrc(), getLayout(srcType),
                                         getLayout(dstType), elem,
                                         scratchOffset(op)));
    return success();
  }
};

/// A transpose relabels the source's coordinates: the source layout with
/// its dimensions permuted holds the result; then a conversion to the
/// result's layout (free when layout assignment chose the permuted one).
struct TransLowering : public OpConversionPattern<tile::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    LL permuted = getLayout(srcType).permuteOuts(op.getOrder());
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    rewriter.replaceOp(op, convertLayout(rewriter, op.getLoc(),
                                         adaptor.getSrc(), permuted,
                                         getLayout(op.getType()), elem,
                                         scratchOffset(op)));
    return success();
  }
};

struct ReshapeLowering : public OpConversionPattern<tile::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    rewriter.replaceOp(op, exchangeThroughShared(
                               rewriter, op.getLoc(), adaptor.getSrc(),
                               getLayout(srcType), getLayout(op.getType()),
                               elem, scratchOffset(op)));
    return success();
  }
};

/// The op's scratch offset (present whenever the op needs scratch:
/// tile-lower-to-simt checks before converting).
int64_t scratchOffset(Operation *op) {
  if (auto a = op->getAttrOfType<IntegerAttr>(
          tile::TileDialect::getSharedOffsetAttrName()))
    return a.getInt();
  return 0;
}

} // namespace

int64_t simt::getScratchBytes(Operation *op) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return getReduceSharedMemoryBytes(reduce);
  if (auto scan = dyn_cast<tile::ScanOp>(op))
    return getScanSharedMemoryBytes(scan);
  if (isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op))
    return getAtomicSharedMemoryBytes(op);
  if (auto histogram = dyn_cast<tile::HistogramOp>(op))
    return getHistogramSharedMemoryBytes(histogram);
  if (auto gather = dyn_cast<tile::GatherOp>(op))
    return getGatherSharedMemoryBytes(gather);
  RankedTensorType src;
  if (auto cvt = dyn_cast<tile::ConvertLayoutOp>(op)) {
    src = cast<RankedTensorType>(cvt.getSrc().getType());
    auto dst = cast<RankedTensorType>(cvt.getType());
    if (planConversion(getLayout(src), getLayout(dst)).kind !=
        ConversionPlan::Kind::Shared)
      return 0;
  } else if (auto trans = dyn_cast<tile::TransOp>(op)) {
    src = cast<RankedTensorType>(trans.getSrc().getType());
    LL permuted = getLayout(src).permuteOuts(trans.getOrder());
    if (planConversion(permuted, getLayout(trans.getType())).kind !=
        ConversionPlan::Kind::Shared)
      return 0;
  } else if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    src = cast<RankedTensorType>(reshape.getSrc().getType());
  } else {
    return 0;
  }
  Type elem = src.getElementType();
  int64_t bytes = isa<tile::PtrType>(elem) ? 8 : getElementBytes(elem);
  return src.getNumElements() * bytes;
}

void simt::populateLayoutConversionToSIMTPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering, TransLowering, ReshapeLowering>(
      converter, patterns.getContext());
}
