//===- Reduce.cpp - tile.reduce to per-thread code --------------*- C++ -*-===//
//
// Lowers a reduction along one axis of a blocked (or sliced) tile in three
// steps, each combining only *distinct* elements (a tile smaller than its
// layout's CTA tile is replicated across registers, lanes or warps, and a
// replica must not be counted twice):
//
//  1. within a thread: the registers that differ only along the axis, in
//     register order;
//  2. within a warp: a butterfly of `shfl.sync.bfly` over the lane bits of
//     the axis (so every lane ends with the warp's partial);
//  3. across warps: each warp writes its partial to shared memory, a CTA
//     barrier, and every thread combines the warps' partials in warp order.
//     Each reduction has its own region (`tile.smem_offset`, assigned by the
//     pass), so a barrier before the writes is needed only inside loops.
//
// The combination order depends only on the layout, never on timing, so
// results are bitwise deterministic run to run. The result carries the
// #tile.slice of the operand's layout (tile-assign-layouts arranges it), or
// is a scalar for a 1-D operand. Multi-operand reductions (argmax: values
// and indices) shuffle and store each operand.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

/// What the reduction combines at each level, for operand layout `l`.
struct ReducePlan : AxisSpread {
  tile::DistributedLayout l;
  unsigned rootAxis = 0;
  int64_t distinctRegs = 1; ///< registers along the axis, without replicas
  int64_t numResultElems = 1;
};

ReducePlan makePlan(tile::ReduceOp op) {
  ReducePlan p;
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  p.l = *tile::getDistributedLayout(srcType);
  p.rootAxis = p.l.tileDimToRoot[op.getAxis()];
  unsigned a = p.rootAxis;
  static_cast<AxisSpread &>(p) = getAxisSpread(p.l, a);
  p.distinctRegs = std::min<int64_t>(p.l.elemsPerThread[a], p.l.rootShape[a]);
  p.numResultElems = srcType.getNumElements() / srcType.getDimSize(op.getAxis());
  return p;
}



struct ReduceOpLowering : public OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReducePlan p = makePlan(op);
    const tile::DistributedLayout &l = p.l;
    unsigned a = p.rootAxis;
    size_t n = op.getSrcs().size();
    Region &region = op.getCombineOp();
    SmallVector<Type> elemTypes;
    for (Value s : op.getSrcs())
      elemTypes.push_back(
          getTypeConverter()->convertType(
              cast<RankedTensorType>(s.getType()).getElementType()));

    // 1. Within a thread, per output position (the register with k_a = 0).
    std::map<int64_t, SmallVector<Value>> acc;
    for (int64_t e = 0; e < l.totalElemsPerThread; ++e) {
      SmallVector<int64_t> k = l.getRegisterIndices(e);
      if (k[a] >= p.distinctRegs)
        continue;
      k[a] = 0;
      int64_t key = l.getLocalIndex(k);
      SmallVector<Value> vals;
      for (size_t i = 0; i < n; ++i)
        vals.push_back(extractElement(rewriter, loc, adaptor.getSrcs()[i], e));
      auto it = acc.find(key);
      if (it == acc.end())
        acc[key] = vals;
      else
        it->second = cloneCombiner(rewriter, region, it->second, vals);
    }

    // 2. Within a warp: butterfly over the axis's lane bits.
    for (int64_t s = 1; s < p.distinctLanes; s <<= 1)
      for (auto &[key, vals] : acc) {
        SmallVector<Value> other;
        for (Value v : vals)
          other.push_back(warpShuffle(rewriter, loc, v, s * p.laneStride, ShuffleKind::Xor));
        vals = cloneCombiner(rewriter, region, vals, other);
      }

    // 3. Across warps, through shared memory, combined in warp order.
    if (p.distinctWarps > 1) {
      SmallVector<Value> base = emitThreadBase(rewriter, loc, l);
      int64_t warpTile = int64_t(l.root.getSizePerThread()[a]) *
                         l.root.getThreadsPerWarp()[a];
      Value warp = arith::ShRUIOp::create(
          rewriter, loc, base[a], i32Const(rewriter, loc, llvm::Log2_64(warpTile)));
      warp = arith::AndIOp::create(rewriter, loc, warp,
                                   i32Const(rewriter, loc, p.distinctWarps - 1));
      auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
      Value smem =
          LLVM::AddressOfOp::create(rewriter, loc, ptrType, kSharedMemoryName);
      // Operand i's partials start at byte offsets[i].
      SmallVector<int64_t> offsets;
      int64_t offset = 0;
      if (auto a = op->getAttrOfType<IntegerAttr>("tile.smem_offset"))
        offset = a.getInt();
      for (Type t : elemTypes) {
        offsets.push_back(offset);
        offset += p.distinctWarps * p.numResultElems * getElementBytes(t);
      }
      auto slot = [&](size_t i, Value index) {
        Value bytePtr = LLVM::GEPOp::create(
            rewriter, loc, ptrType, rewriter.getI8Type(), smem,
            ArrayRef<LLVM::GEPArg>{int32_t(offsets[i])});
        return LLVM::GEPOp::create(rewriter, loc, ptrType, elemTypes[i],
                                   bytePtr, ArrayRef<LLVM::GEPArg>{index});
      };
      // Row-major index of each output position in the result shape.
      auto resultIndex = [&](int64_t key) -> Value {
        SmallVector<Value> coords = emitElementCoords(rewriter, loc, l, base, key);
        auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
        Value idx = i32Const(rewriter, loc, 0);
        int64_t stride = 1;
        for (int64_t d = srcType.getRank() - 1; d >= 0; --d) {
          if (d == int64_t(op.getAxis()))
            continue;
          Value term = arith::MulIOp::create(rewriter, loc, coords[d],
                                             i32Const(rewriter, loc, stride));
          idx = arith::AddIOp::create(rewriter, loc, idx, term);
          stride *= srcType.getDimSize(d);
        }
        return idx;
      };
      // The region is this reduction's own: only its previous loop
      // iteration may still be reading it.
      if (!op->hasAttr("tile.smem_offset") ||
          op->getParentOfType<LoopLikeOpInterface>())
        gpu::BarrierOp::create(rewriter, loc);
      std::map<int64_t, Value> indexOf;
      for (auto &[key, vals] : acc) {
        Value idx = resultIndex(key);
        indexOf[key] = idx;
        Value at = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, warp,
                                  i32Const(rewriter, loc, p.numResultElems)),
            idx);
        for (size_t i = 0; i < n; ++i)
          LLVM::StoreOp::create(rewriter, loc, vals[i], slot(i, at));
      }
      gpu::BarrierOp::create(rewriter, loc);
      for (auto &[key, vals] : acc) {
        SmallVector<Value> total;
        for (int64_t w = 0; w < p.distinctWarps; ++w) {
          Value at = arith::AddIOp::create(
              rewriter, loc, indexOf[key],
              i32Const(rewriter, loc, w * p.numResultElems));
          SmallVector<Value> part;
          for (size_t i = 0; i < n; ++i)
            part.push_back(LLVM::LoadOp::create(rewriter, loc, elemTypes[i],
                                                slot(i, at)));
          total = w == 0 ? part : cloneCombiner(rewriter, region, total, part);
        }
        vals = total;
      }
    }

    // The results: scalars, or the slice layout's registers.
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      Type resultType = op.getResult()[i].getType();
      if (!isa<RankedTensorType>(resultType)) {
        results.push_back(acc.begin()->second[i]);
        continue;
      }
      auto rt = cast<RankedTensorType>(resultType);
      FailureOr<tile::DistributedLayout> rl = tile::getDistributedLayout(rt);
      if (failed(rl) || rl->root != l.root)
        return rewriter.notifyMatchFailure(
            op, "result is not a slice of the operand's layout");
      Type vecType = getTypeConverter()->convertType(rt);
      Value out = poisonValue(rewriter, loc, vecType);
      for (int64_t e = 0; e < rl->totalElemsPerThread; ++e) {
        SmallVector<int64_t> k = rl->getRegisterIndices(e);
        k[a] = 0;
        int64_t key = l.getLocalIndex(k);
        auto it = acc.find(key);
        if (it == acc.end())
          return rewriter.notifyMatchFailure(op, "no partial for a result "
                                                 "register");
        out = insertElement(rewriter, loc, out, it->second[i], e);
      }
      results.push_back(out);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

int64_t simt::getReduceSharedMemoryBytes(tile::ReduceOp op) {
  ReducePlan p = makePlan(op);
  if (p.distinctWarps <= 1)
    return 0;
  int64_t bytes = 0;
  for (Value s : op.getSrcs()) {
    Type t = cast<RankedTensorType>(s.getType()).getElementType();
    bytes += p.distinctWarps * p.numResultElems *
             (isa<tile::PtrType>(t) ? 8 : getElementBytes(t));
  }
  return bytes;
}

void simt::populateReduceToSIMTPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering>(converter, patterns.getContext());
}
