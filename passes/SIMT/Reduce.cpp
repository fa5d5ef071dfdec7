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
//     The bytes are the op's scratch (`tile.shared_offset`, from
//     tile-allocate-shared); tile-insert-barriers puts a barrier before the
//     writes where an earlier op may still use them.
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
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {
using LL = tile::LinearLayout;

/// What the reduction combines at each level, from the operand's linear
/// layout: the hardware bits whose basis moves along the axis.
struct ReducePlan {
  LL l;
  unsigned axis = 0;
  uint64_t axisRegs = 0;  ///< register bits along the axis
  uint64_t axisLanes = 0; ///< lane bits along the axis
  uint64_t axisWarps = 0; ///< warp bits along the axis
  int64_t distinctWarps = 1;
  int64_t numResultElems = 1;
  /// Whether every basis along the axis moves along the axis only (the
  /// lowering needs it: partners of a shuffle must share the other
  /// coordinates).
  bool supported = true;
};

ReducePlan makePlan(tile::ReduceOp op) {
  ReducePlan p;
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  p.l = getLayout(srcType);
  p.axis = op.getAxis();
  for (unsigned in = 0; in < LL::kNumInDims; ++in) {
    uint64_t mask = 0;
    auto bases = p.l.getBases(LL::InDim(in));
    for (unsigned bit = 0; bit < bases.size(); ++bit) {
      if (bases[bit][p.axis] == 0)
        continue;
      mask |= uint64_t(1) << bit;
      for (unsigned d = 0; d < bases[bit].size(); ++d)
        if (d != p.axis && bases[bit][d] != 0)
          p.supported = false;
    }
    (in == LL::kRegister ? p.axisRegs
                         : in == LL::kLane ? p.axisLanes : p.axisWarps) = mask;
  }
  p.distinctWarps = int64_t(1) << llvm::popcount(p.axisWarps);
  p.numResultElems =
      srcType.getNumElements() / srcType.getDimSize(op.getAxis());
  return p;
}


struct ReduceOpLowering : public OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReducePlan p = makePlan(op);
    if (!p.supported)
      return op.emitError("unimplemented: a reduction over a layout whose "
                          "bases mix the axis with other dimensions; convert "
                          "the operand to a blocked layout first");
    const LL &l = p.l;
    size_t n = op.getSrcs().size();
    Region &region = op.getCombineOp();
    SmallVector<Type> elemTypes;
    for (Value s : op.getSrcs())
      elemTypes.push_back(
          getTypeConverter()->convertType(
              cast<RankedTensorType>(s.getType()).getElementType()));
    uint64_t freeRegs = l.getFreeMask(LL::kRegister);

    // 1. Within a thread, per output position (the register with the axis
    //    bits clear); replicas (zero bases) are skipped.
    std::map<int64_t, SmallVector<Value>> acc;
    for (int64_t e = 0; e < l.getNumRegisters(); ++e) {
      if (uint64_t(e) & freeRegs)
        continue;
      int64_t key = e & ~int64_t(p.axisRegs);
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
    for (unsigned bit = 0; bit < 5; ++bit) {
      if (!(p.axisLanes >> bit & 1))
        continue;
      for (auto &[key, vals] : acc) {
        SmallVector<Value> other;
        for (Value v : vals)
          other.push_back(
              warpShuffle(rewriter, loc, v, int64_t(1) << bit, ShuffleKind::Xor));
        vals = cloneCombiner(rewriter, region, vals, other);
      }
    }

    // 3. Across warps, through shared memory, combined in warp order.
    if (p.distinctWarps > 1) {
      ThreadCoords thread = emitThreadCoords(rewriter, loc, l);
      Value warp = extractBits(rewriter, loc, emitWarpId(rewriter, loc),
                               p.axisWarps);
      FailureOr<int64_t> scratch = getSharedOffset(op);
      if (failed(scratch))
        return failure();
      int64_t offset = *scratch;
      auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
      // Operand i's partials start at byte offsets[i].
      SmallVector<Value> bases;
      for (Type t : elemTypes) {
        bases.push_back(getSharedBase(rewriter, loc, offset));
        offset += p.distinctWarps * p.numResultElems * getElementBytes(t);
      }
      auto slot = [&](size_t i, Value index) {
        return LLVM::GEPOp::create(rewriter, loc, ptrType, elemTypes[i],
                                   bases[i], ArrayRef<LLVM::GEPArg>{index});
      };
      // Row-major index of each output position in the result shape.
      auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
      SmallVector<int64_t> resultShape(srcType.getShape());
      resultShape.erase(resultShape.begin() + p.axis);
      auto resultIndex = [&](int64_t key) -> Value {
        SmallVector<Value> coords =
            emitElementCoords(rewriter, loc, l, thread, key);
        coords.erase(coords.begin() + p.axis);
        return emitRowMajorIndex(rewriter, loc, coords, resultShape);
      };
      // (tile-insert-barriers orders the writes against earlier users.)
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

    // The results: scalars, or the slice layout's registers. The slice
    // places lanes and warps as the operand does (the axis dropped); its
    // register e takes the partial whose registers hold the same
    // coordinates.
    LL dropped = l.dropOutDim(p.axis);
    DenseMap<uint64_t, int64_t> keyOf;
    for (auto &[key, vals] : acc)
      keyOf.try_emplace(dropped.flatten(dropped.applyIn(LL::kRegister, key)),
                        key);
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      Type resultType = op.getResult()[i].getType();
      if (!isa<RankedTensorType>(resultType)) {
        results.push_back(acc.begin()->second[i]);
        continue;
      }
      auto rt = cast<RankedTensorType>(resultType);
      LL rl = getLayout(rt);
      if (ArrayRef(rl.getBases(LL::kLane)) != dropped.getBases(LL::kLane) ||
          ArrayRef(rl.getBases(LL::kWarp)) != dropped.getBases(LL::kWarp))
        return rewriter.notifyMatchFailure(
            op, "result is not a slice of the operand's layout");
      Type vecType = getTypeConverter()->convertType(rt);
      Value out = poisonValue(rewriter, loc, vecType);
      for (int64_t e = 0; e < rl.getNumRegisters(); ++e) {
        auto it = keyOf.find(rl.flatten(rl.applyIn(LL::kRegister, e)));
        if (it == keyOf.end())
          return rewriter.notifyMatchFailure(op, "no partial for a result "
                                                 "register");
        out = insertElement(rewriter, loc, out, acc[it->second][i], e);
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
  if (p.distinctWarps <= 1 || !p.supported)
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
