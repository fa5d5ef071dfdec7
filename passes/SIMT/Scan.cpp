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

struct ScanPlan : AxisSpread {
  tile::DistributedLayout l;
  unsigned a = 0; ///< root axis
  int64_t spt = 1, reps = 1;
  int64_t numLines = 1; ///< elements / axis length
};

ScanPlan makePlan(tile::ScanOp op) {
  ScanPlan p;
  auto t = cast<RankedTensorType>(op.getSrcs()[0].getType());
  p.l = *tile::getDistributedLayout(t);
  p.a = p.l.tileDimToRoot[op.getAxis()];
  static_cast<AxisSpread &>(p) = getAxisSpread(p.l, p.a);
  p.spt = p.l.root.getSizePerThread()[p.a];
  p.reps = std::max<int64_t>(1, p.l.rootShape[p.a] / p.l.ctaTile[p.a]);
  p.numLines = t.getNumElements() / t.getDimSize(op.getAxis());
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
    const tile::DistributedLayout &l = p.l;
    unsigned a = p.a;
    if (l.rootShape[a] < p.spt)
      return rewriter.notifyMatchFailure(op, "axis shorter than sizePerThread");
    bool reverse = op.getReverse();
    size_t n = op.getSrcs().size();
    Region &region = op.getCombineOp();
    SmallVector<Type> elemTypes;
    for (Value s : adaptor.getSrcs())
      elemTypes.push_back(cast<VectorType>(s.getType()).getElementType());

    // Thread coordinates along the axis.
    SmallVector<Value> base = emitThreadBase(rewriter, loc, l);
    int64_t tpw = l.root.getThreadsPerWarp()[a];
    Value lane = arith::ShRUIOp::create(rewriter, loc, base[a],
                                        i32Const(rewriter, loc, llvm::Log2_64(p.spt)));
    lane = arith::AndIOp::create(rewriter, loc, lane,
                                 i32Const(rewriter, loc, tpw - 1));
    lane = arith::AndIOp::create(rewriter, loc, lane,
                                 i32Const(rewriter, loc, p.distinctLanes - 1));
    Value warp = arith::ShRUIOp::create(
        rewriter, loc, base[a], i32Const(rewriter, loc, llvm::Log2_64(p.spt * tpw)));
    warp = arith::AndIOp::create(rewriter, loc, warp,
                                 i32Const(rewriter, loc, p.distinctWarps - 1));
    if (reverse) {
      // Mirror: the first lane/warp in scan order is the last in the tile.
      lane = arith::SubIOp::create(
          rewriter, loc, i32Const(rewriter, loc, p.distinctLanes - 1), lane);
      warp = arith::SubIOp::create(
          rewriter, loc, i32Const(rewriter, loc, p.distinctWarps - 1), warp);
    }

    // The registers of each line (all coordinates but the axis), in scan
    // order: repetition, then position within the thread.
    std::map<int64_t, SmallVector<int64_t>> lines;
    for (int64_t e = 0; e < l.totalElemsPerThread; ++e) {
      SmallVector<int64_t> k = l.getRegisterIndices(e);
      int64_t ka = k[a];
      k[a] = 0;
      auto &regs = lines[l.getLocalIndex(k)];
      if (regs.empty())
        regs.assign(l.elemsPerThread[a], -1);
      regs[ka] = e;
    }

    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    int64_t smemOffset = 0;
    if (auto attr = op->getAttrOfType<IntegerAttr>("tile.smem_offset"))
      smemOffset = attr.getInt();
    bool inLoop = op->getParentOfType<LoopLikeOpInterface>() != nullptr;

    // Row-major index of a line among all lines of the tile (the axis
    // dropped), from the coordinates of one of its registers.
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto lineIndexOf = [&](int64_t e) -> Value {
      SmallVector<Value> coords = emitElementCoords(rewriter, loc, l, base, e);
      Value idx = i32Const(rewriter, loc, 0);
      int64_t stride = 1;
      for (int64_t d = srcType.getRank() - 1; d >= 0; --d) {
        if (d == int64_t(op.getAxis()))
          continue;
        idx = arith::AddIOp::create(
            rewriter, loc, idx,
            arith::MulIOp::create(rewriter, loc, coords[d],
                                  i32Const(rewriter, loc, stride)));
        stride *= srcType.getDimSize(d);
      }
      return idx;
    };
    // Lane id of the last lane in scan order on this thread's axis row (for
    // broadcasting a warp total when a single warp holds the axis).
    Value laneId = arith::AndIOp::create(
        rewriter, loc,
        arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(),
            gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x)),
        i32Const(rewriter, loc, 31));

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
          if (inLoop || rr > 0)
            gpu::BarrierOp::create(rewriter, loc);
          // The last lane (in scan order) holds the warp's total.
          Value last = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, lane,
              i32Const(rewriter, loc, p.distinctLanes - 1));
          for (size_t q = 0; q < n; ++q) {
            Value at = LLVM::GEPOp::create(rewriter, loc, ptrType, elemTypes[q],
                                           slots[q], ArrayRef<LLVM::GEPArg>{warp});
            unsigned bits = elemTypes[q].getIntOrFloatBitWidth();
            Value bitsV = total[q];
            Type it = rewriter.getIntegerType(std::max(16u, bits));
            if (!elemTypes[q].isInteger() || bits < 16) {
              Value asInt = arith::BitcastOp::create(
                  rewriter, loc, rewriter.getIntegerType(bits), total[q]);
              bitsV = bits < 16 ? Value(arith::ExtUIOp::create(rewriter, loc, it, asInt))
                                : asInt;
            }
            std::string w = std::to_string(std::max(16u, bits));
            createInlineAsm(rewriter, loc, TypeRange(), ValueRange{last, at, bitsV},
                bits < 16 ? "@$0 st.shared.b8 [ $1 + 0 ], $2;"
                          : "@$0 st.shared.b" + w + " [ $1 + 0 ], $2;",
                std::string("b,l,") + (bits == 64 ? "l" : bits <= 16 ? "h" : "r"), /*hasSideEffects=*/true);
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
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

int64_t simt::getScanSharedMemoryBytes(tile::ScanOp op) {
  ScanPlan p = makePlan(op);
  if (p.distinctWarps <= 1)
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
