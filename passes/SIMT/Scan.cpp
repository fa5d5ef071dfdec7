//===- Scan.cpp - tile.scan to per-thread code ------------------*- C++ -*-===//
//
// Lowers an inclusive scan (tl.cumsum, tl.cumprod, tl.associative_scan)
// along one axis of a blocked tile. Along the axis, a thread holds, for each
// repetition of the CTA tile, `sizePerThread` consecutive elements; lanes
// then warps follow. Each repetition, in axis order, is scanned in four
// steps, then offset by the running total of the repetitions before it:
//
//  1. within the thread, over its consecutive registers;
//  2. across lanes: a Hillis-Steele scan of the thread totals with
//     `shfl.sync.up`, then every lane takes its left neighbour's inclusive
//     total as its exclusive prefix;
//  3. across warps: the last lane of each warp writes the warp total to
//     shared memory, a barrier, and each thread combines the totals of the
//     warps before it, in warp order;
//  4. the carry from earlier repetitions.
//
// The combiner is applied as combine(earlier, later) everywhere, so any
// associative combiner works (commutativity is not assumed). A reverse scan
// is the same in mirrored axis order (Triton: flip, scan, flip). Replicated
// lanes (a tile narrower than the layout) compute identical copies.
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

using LL = tile::LinearLayout;

/// The scan's view of the operand layout along the axis. The lowering
/// needs the axis coordinate's bits to come, from least to most
/// significant, from `spt` register bits, then lane bits (consecutive bits
/// of the lane id), then warp bits, then `reps` register bits, every such
/// basis moving along the axis only -- what blocked layouts give.
struct ScanPlan {
  LL l;
  unsigned a = 0;
  int64_t spt = 1, reps = 1;
  int64_t distinctLanes = 1, laneStride = 1;
  int64_t distinctWarps = 1;
  uint64_t axisRegs = 0, axisWarps = 0;
  /// Register bits along the axis, least significant basis first.
  SmallVector<unsigned> regBitsInAxisOrder;
  int64_t numLines = 1; ///< elements / axis length
  bool supported = true;
};

ScanPlan makePlan(tile::ScanOp op) {
  ScanPlan p;
  auto t = cast<RankedTensorType>(op.getSrcs()[0].getType());
  p.l = getLayout(t);
  p.a = op.getAxis();
  p.numLines = t.getNumElements() / t.getDimSize(op.getAxis());
  // (basis value along the axis, kind, bit) of every hardware bit that
  // moves along the axis.
  struct AxisBit {
    int64_t value;
    LL::InDim in;
    unsigned bit;
  };
  SmallVector<AxisBit> bits;
  for (unsigned in = 0; in < LL::kNumInDims; ++in) {
    auto bases = p.l.getBases(LL::InDim(in));
    for (unsigned bit = 0; bit < bases.size(); ++bit) {
      int64_t v = bases[bit][p.a];
      if (v == 0)
        continue;
      for (unsigned d = 0; d < bases[bit].size(); ++d)
        if (d != p.a && bases[bit][d] != 0)
          p.supported = false;
      if (!llvm::isPowerOf2_64(v))
        p.supported = false;
      bits.push_back({v, LL::InDim(in), bit});
    }
  }
  llvm::sort(bits, [](const AxisBit &x, const AxisBit &y) {
    return x.value < y.value;
  });
  // Expect R* L* W* R*, each value doubling the previous.
  unsigned i = 0, phase = 0;
  int lastLaneBit = -1;
  for (; i < bits.size(); ++i) {
    const AxisBit &x = bits[i];
    if (x.value != int64_t(1) << i)
      p.supported = false;
    unsigned want = x.in == LL::kRegister ? (phase == 0 ? 0 : 3)
                    : x.in == LL::kLane   ? 1
                                          : 2;
    if (want < phase)
      p.supported = false;
    phase = want;
    if (x.in == LL::kRegister) {
      p.regBitsInAxisOrder.push_back(x.bit);
      p.axisRegs |= uint64_t(1) << x.bit;
      (phase == 0 ? p.spt : p.reps) *= 2;
    } else if (x.in == LL::kLane) {
      if (lastLaneBit >= 0 && int(x.bit) != lastLaneBit + 1)
        p.supported = false;
      if (lastLaneBit < 0)
        p.laneStride = int64_t(1) << x.bit;
      lastLaneBit = x.bit;
      p.distinctLanes *= 2;
    } else {
      p.axisWarps |= uint64_t(1) << x.bit;
      p.distinctWarps *= 2;
    }
  }
  return p;
}


SmallVector<Value> select(OpBuilder &b, Location loc, Value cond,
                          ArrayRef<Value> t, ArrayRef<Value> f) {
  SmallVector<Value> out;
  for (size_t i = 0; i < t.size(); ++i)
    out.push_back(arith::SelectOp::create(b, loc, cond, t[i], f[i]));
  return out;
}



struct ScanOpLowering : public OpConversionPattern<tile::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScanPlan p = makePlan(op);
    const LL &l = p.l;
    if (!p.supported)
      return op.emitError("unimplemented: a scan over a layout whose axis "
                          "is not spread as registers, lanes, warps, "
                          "registers; convert the operand to a blocked "
                          "layout first");
    bool reverse = op.getReverse();
    size_t n = op.getSrcs().size();
    Region &region = op.getCombineOp();
    SmallVector<Type> elemTypes;
    for (Value s : adaptor.getSrcs())
      elemTypes.push_back(cast<VectorType>(s.getType()).getElementType());

    // The thread's index along the axis among the lanes and the warps.
    ThreadCoords thread = emitThreadCoords(rewriter, loc, l);
    Value laneId = emitLaneId(rewriter, loc);
    Value lane = arith::ShRUIOp::create(
        rewriter, loc, laneId,
        i32Const(rewriter, loc, llvm::Log2_64(p.laneStride)));
    lane = arith::AndIOp::create(rewriter, loc, lane,
                                 i32Const(rewriter, loc, p.distinctLanes - 1));
    Value warp = extractBits(rewriter, loc, emitWarpId(rewriter, loc),
                             p.axisWarps);
    if (reverse) {
      // Mirror: the first lane/warp in scan order is the last in the tile.
      lane = arith::SubIOp::create(
          rewriter, loc, i32Const(rewriter, loc, p.distinctLanes - 1), lane);
      warp = arith::SubIOp::create(
          rewriter, loc, i32Const(rewriter, loc, p.distinctWarps - 1), warp);
    }

    // The registers of each line (all coordinates but the axis), in scan
    // order: repetition, then position within the thread. Position k along
    // the axis registers sets the axis register bits in axis order.
    std::map<int64_t, SmallVector<int64_t>> lines;
    uint64_t freeRegs = l.getFreeMask(LL::kRegister);
    for (int64_t e = 0; e < l.getNumRegisters(); ++e) {
      if ((uint64_t(e) & p.axisRegs) || (uint64_t(e) & freeRegs))
        continue;
      SmallVector<int64_t> &regs = lines[e];
      for (int64_t k = 0; k < p.spt * p.reps; ++k) {
        int64_t r = e;
        for (unsigned j = 0; j < p.regBitsInAxisOrder.size(); ++j)
          if (k >> j & 1)
            r |= int64_t(1) << p.regBitsInAxisOrder[j];
        regs.push_back(r);
      }
    }
    // Replicated registers take their first replica's result.
    SmallVector<int64_t> replicaOf;
    for (int64_t e = 0; e < l.getNumRegisters(); ++e)
      replicaOf.push_back(e & ~int64_t(freeRegs));

    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    int64_t smemOffset = 0;
    if (p.distinctWarps > 1) {
      FailureOr<int64_t> scratch = getSharedOffset(op);
      if (failed(scratch))
        return failure();
      smemOffset = *scratch;
    }

    // Row-major index of a line among all lines of the tile (the axis
    // dropped), from the coordinates of one of its registers.
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    SmallVector<int64_t> lineShape(srcType.getShape());
    lineShape.erase(lineShape.begin() + p.a);
    auto lineIndexOf = [&](int64_t e) -> Value {
      SmallVector<Value> coords =
          emitElementCoords(rewriter, loc, l, thread, e);
      coords.erase(coords.begin() + p.a);
      return emitRowMajorIndex(rewriter, loc, coords, lineShape);
    };

    SmallVector<Value> results;
    for (Value s : adaptor.getSrcs())
      results.push_back(poisonValue(rewriter, loc, s.getType()));
    for (auto &[key, regs] : lines) {
      Value lineIdx = lineIndexOf(regs[0]);
      SmallVector<Value> carry; // running total of earlier repetitions
      for (int64_t rr = 0; rr < p.reps; ++rr) {
        int64_t r = reverse ? p.reps - 1 - rr : rr;
        // 1. Within the thread.
        SmallVector<SmallVector<Value>> v(p.spt);
        for (int64_t ii = 0; ii < p.spt; ++ii) {
          int64_t i = reverse ? p.spt - 1 - ii : ii;
          int64_t e = regs[r * p.spt + i];
          for (size_t q = 0; q < n; ++q)
            v[ii].push_back(extractElement(rewriter, loc, adaptor.getSrcs()[q], e));
          if (ii > 0)
            v[ii] = cloneCombiner(rewriter, region, v[ii - 1], v[ii]);
        }
        // 2. Across lanes: inclusive scan of the thread totals.
        SmallVector<Value> total = v[p.spt - 1];
        for (int64_t s = 1; s < p.distinctLanes; s <<= 1) {
          SmallVector<Value> from;
          for (Value x : total)
            from.push_back(warpShuffle(rewriter, loc, x, s * p.laneStride,
                                    reverse ? ShuffleKind::Down : ShuffleKind::Up));
          Value take = arith::CmpIOp::create(rewriter, loc,
                                             arith::CmpIPredicate::sge, lane,
                                             i32Const(rewriter, loc, s));
          total = select(rewriter, loc, take,
                         cloneCombiner(rewriter, region, from, total), total);
        }
        if (p.distinctLanes > 1) {
          SmallVector<Value> prefix;
          for (Value x : total)
            prefix.push_back(warpShuffle(rewriter, loc, x, p.laneStride,
                                    reverse ? ShuffleKind::Down : ShuffleKind::Up));
          Value has = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::sge, lane,
                                            i32Const(rewriter, loc, 1));
          for (auto &vi : v)
            vi = select(rewriter, loc, has, cloneCombiner(rewriter, region, prefix, vi),
                        vi);
        }
        // 3. Across warps.
        SmallVector<Value> repTotal = total; // valid in the last lane
        if (p.distinctWarps > 1) {
          Value smem = LLVM::AddressOfOp::create(rewriter, loc, ptrType,
                                                 kSharedMemoryName);
          // Operand q's warp totals: [line][warp] from its byte offset.
          SmallVector<Value> slots;
          int64_t off = smemOffset;
          Value lineBase = arith::MulIOp::create(
              rewriter, loc, lineIdx, i32Const(rewriter, loc, p.distinctWarps));
          for (Type t : elemTypes) {
            Value region = LLVM::GEPOp::create(
                rewriter, loc, ptrType, rewriter.getI8Type(), smem,
                ArrayRef<LLVM::GEPArg>{int32_t(off)});
            slots.push_back(LLVM::GEPOp::create(rewriter, loc, ptrType, t,
                                                region,
                                                ArrayRef<LLVM::GEPArg>{lineBase}));
            off += p.numLines * p.distinctWarps * getElementBytes(t);
          }
          // A later repetition reuses the slots the previous one read
          // (tile-insert-barriers handles users before the op).
          if (rr > 0)
            gpu::BarrierOp::create(rewriter, loc);
          // The last lane (in scan order) holds the warp's total.
          Value last = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, lane,
              i32Const(rewriter, loc, p.distinctLanes - 1));
          for (size_t q = 0; q < n; ++q) {
            Value at = LLVM::GEPOp::create(rewriter, loc, ptrType, elemTypes[q],
                                           slots[q], ArrayRef<LLVM::GEPArg>{warp});
            createPredicatedSharedStore(rewriter, loc, last, at, total[q]);
          }
          gpu::BarrierOp::create(rewriter, loc);
          SmallVector<Value> prefix, all;
          for (int64_t w = 0; w < p.distinctWarps; ++w) {
            SmallVector<Value> part;
            for (size_t q = 0; q < n; ++q) {
              Value at = LLVM::GEPOp::create(
                  rewriter, loc, ptrType, elemTypes[q], slots[q],
                  ArrayRef<LLVM::GEPArg>{int32_t(w)});
              part.push_back(LLVM::LoadOp::create(rewriter, loc, elemTypes[q], at));
            }
            // prefix = totals of warps before this one (w < warp).
            if (w > 0) {
              Value before = arith::CmpIOp::create(
                  rewriter, loc, arith::CmpIPredicate::sgt, warp,
                  i32Const(rewriter, loc, w));
              SmallVector<Value> next = cloneCombiner(rewriter, region, prefix, part);
              prefix = select(rewriter, loc, before, next, prefix);
            } else {
              prefix = part;
            }
            all = w == 0 ? part : cloneCombiner(rewriter, region, all, part);
          }
          Value has = arith::CmpIOp::create(rewriter, loc,
                                            arith::CmpIPredicate::sge, warp,
                                            i32Const(rewriter, loc, 1));
          for (auto &vi : v)
            vi = select(rewriter, loc, has, cloneCombiner(rewriter, region, prefix, vi),
                        vi);
          repTotal = all;
        } else if (p.distinctLanes > 1 && p.reps > 1) {
          // The carry needs the warp total on every lane: the inclusive
          // total of the last lane in scan order on this thread's axis row.
          // (lane is mirrored for reverse scans; distance in lanes along the
          // axis from here to that lane is (distinctLanes - 1 - lane).)
          Value steps = arith::SubIOp::create(
              rewriter, loc, i32Const(rewriter, loc, p.distinctLanes - 1), lane);
          Value delta = arith::MulIOp::create(
              rewriter, loc, steps, i32Const(rewriter, loc, p.laneStride));
          Value src = reverse ? Value(arith::SubIOp::create(rewriter, loc,
                                                            laneId, delta))
                              : Value(arith::AddIOp::create(rewriter, loc,
                                                            laneId, delta));
          for (Value &x : repTotal) {
            if (x.getType().getIntOrFloatBitWidth() != 32)
              return rewriter.notifyMatchFailure(
                  op, "multi-repetition scan of a non-32-bit type");
            x = gpu::ShuffleOp::create(rewriter, loc, x, src,
                                       i32Const(rewriter, loc, 32),
                                       gpu::ShuffleMode::IDX)
                    .getShuffleResult();
          }
        }
        // 4. Carry from earlier repetitions.
        if (!carry.empty())
          for (auto &vi : v)
            vi = cloneCombiner(rewriter, region, carry, vi);
        if (p.reps > 1)
          carry = carry.empty() ? repTotal
                                : cloneCombiner(rewriter, region, carry, repTotal);
        for (int64_t ii = 0; ii < p.spt; ++ii) {
          int64_t i = reverse ? p.spt - 1 - ii : ii;
          int64_t e = regs[r * p.spt + i];
          for (size_t q = 0; q < n; ++q)
            results[q] = insertElement(rewriter, loc, results[q], v[ii][q], e);
        }
      }
    }
    for (int64_t e = 0; e < l.getNumRegisters(); ++e)
      if (replicaOf[e] != e)
        for (size_t q = 0; q < n; ++q)
          results[q] = insertElement(
              rewriter, loc, results[q],
              extractElement(rewriter, loc, results[q], replicaOf[e]), e);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

int64_t simt::getScanSharedMemoryBytes(tile::ScanOp op) {
  ScanPlan p = makePlan(op);
  if (p.distinctWarps <= 1 || !p.supported)
    return 0;
  int64_t bytes = 0;
  for (Value s : op.getSrcs())
    bytes += p.numLines * p.distinctWarps *
             getElementBytes(cast<RankedTensorType>(s.getType()).getElementType());
  return bytes;
}

void simt::populateScanToSIMTPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<ScanOpLowering>(converter, patterns.getContext());
}
