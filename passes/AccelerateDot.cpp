//===- AccelerateDot.cpp - Tensor-core layouts for tile.dot -----*- C++ -*-===//
//
// tile-accelerate-dot: decides how each tile.dot is computed and gives it
// the layouts of that instruction (see Passes.td for the rules):
//
//   %d = tile.dot %a, %b, %c : #blocked operands -> #blocked
// becomes
//   %a' = tile.convert_layout %a -> #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
//   %b' = tile.convert_layout %b -> #tile.dot_operand<{opIdx = 1, ...}>
//   %c' = tile.convert_layout %c -> #mma
//   %d' = tile.dot %a', %b', %c' -> #mma
//   %d  = tile.convert_layout %d' -> #blocked
//
// so the rest of the program is unchanged; later passes remove the
// conversions that are not needed (a loop-carried accumulator stays in the
// mma layout) and put the operand conversions through shared memory.
//
//===----------------------------------------------------------------------===//
#include "passes/Analysis/AxisInfo.h"
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"
#include "passes/Target.h"

#include "dialects/Tile/IR/Layouts.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "tile-accelerate-dot"

namespace tilec {
#define GEN_PASS_DEF_TILEACCELERATEDOTPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// Whether a [.., M, N] result with K-deep operands of `aElem` fits the
/// m16n8kK instruction (power-of-two tiles: at least one instruction per
/// dimension).
bool hasMmaShape(RankedTensorType a, RankedTensorType d) {
  unsigned rank = d.getRank();
  int64_t m = d.getDimSize(rank - 2), n = d.getDimSize(rank - 1);
  int64_t k = a.getDimSize(rank - 1);
  int64_t instrK = getMmaInstrK(a.getElementType());
  if (isFp8(a.getElementType()))
    instrK = 32;
  return instrK && m >= 16 && n >= 8 && k >= instrK;
}

/// Warps over [M, N] (or [batch, M, N]) for mma.sync: each doubling goes
/// to the dimension whose per-warp share is larger, counted in 16x16
/// blocks, M first on ties (Triton's heuristic for mma v2).
SmallVector<unsigned> chooseWarps(ArrayRef<int64_t> shape, unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> w(rank, 1);
  unsigned left = numWarps;
  unsigned b = rank == 3 ? 1 : 0;
  if (rank == 3) {
    while (left > 1 && w[0] < shape[0]) {
      w[0] *= 2;
      left /= 2;
    }
  }
  int64_t m = shape[b], n = shape[b + 1];
  while (w[b] * w[b + 1] < left) {
    int64_t perWarpM = m / 16 / w[b], perWarpN = n / 16 / w[b + 1];
    if (perWarpM >= perWarpN && w[b] < m / 16)
      w[b] *= 2;
    else if (w[b + 1] < n / 8)
      w[b + 1] *= 2;
    else
      w[b] *= 2;
  }
  return w;
}

/// How a dot runs on wgmma: the warps of its #tile.mma version-3 layout and
/// the N of one instruction.
struct WgmmaPlan {
  SmallVector<unsigned> warps;
  unsigned instrN = 0;
};

/// The swizzle (bytes) of an operand stored with `contigElems` elements of
/// `bytes` each contiguous, of which one instruction's descriptor must
/// start on a whole swizzle column every `perInstr` (K-major: any, as the
/// 16 K elements of a step fit in every swizzle: pass contigElems;
/// MN-major: the instruction's M or N extent): the widest of 128, 64, 32
/// that both cover; 0 if < 32.
unsigned chooseSwizzle(int64_t contigElems, int64_t perInstr, int64_t bytes) {
  int64_t extent = std::min(contigElems, perInstr) * bytes;
  for (unsigned s : {128u, 64u, 32u})
    if (extent >= s)
      return s;
  return 0;
}

/// `v` before the layout conversions that produced it: the layout its
/// elements were loaded or computed in, which decides how an operand is
/// best stored to shared memory (a conversion on the way there is a
/// shuffle the store does not need).
Value stripConversions(Value v) {
  while (auto cvt = v.getDefiningOp<ConvertLayoutOp>())
    v = cvt.getSrc();
  return v;
}

/// Whether `v` was computed by arithmetic in registers rather than read
/// from memory (global or shared, possibly transposed or re-laid-out on
/// the way) or passed in (a block argument): a computed wgmma A operand
/// stays in registers; the others are stored to shared memory as they
/// arrive.
bool isComputedInRegisters(Value v) {
  while (true) {
    v = stripConversions(v);
    Operation *def = v.getDefiningOp();
    if (auto t = dyn_cast_or_null<TransOp>(def)) {
      v = t->getOperand(0);
      continue;
    }
    return def && !isa<LoadOp, LocalLoadOp, DescLoadOp>(def);
  }
}

/// A 2-D `tile.trans` swapping the dimensions of a tile (`b.T`), or null.
TransOp getSwap(Value v) {
  auto trans = stripConversions(v).getDefiningOp<TransOp>();
  if (!trans || cast<RankedTensorType>(trans.getType()).getRank() != 2 ||
      trans.getOrder()[0] != 1)
    return {};
  return trans;
}

/// The dimension of a dot operand that is contiguous where its elements
/// come from: the source's other dimension for a transposed tile (which
/// is stored as it arrived, under a transposed view), else the memory
/// order of the tile as its layout has it.
unsigned getOperandContigDim(Value v) {
  if (TransOp swap = getSwap(v))
    return 1 - getMemoryOrder(cast<RankedTensorType>(
                   stripConversions(swap.getSrc()).getType()))[0];
  return getMemoryOrder(cast<RankedTensorType>(stripConversions(v).getType()))[0];
}

/// Whether `op` can run on wgmma (see Passes.td), and how.
std::optional<WgmmaPlan> planWgmma(DotOp op, unsigned numWarps) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  auto d = cast<RankedTensorType>(op.getD().getType());
  Type ea = a.getElementType(), eb = b.getElementType();
  // wgmma multiplies what mma.sync does on sm_90a (PTX ISA 9.7.15.5:
  // f16/bf16, tf32, fp8 in any mix, s8), but accumulates f16 only into
  // f32 here.
  if (d.getRank() != 2 || d.getElementType().isF16() ||
      !mmaV2Computes(ea, eb, d.getElementType(), op.getInputPrecision(),
                     "sm_90a"))
    return std::nullopt;
  if (numWarps < 4 || numWarps % 4 != 0 || numWarps > 32)
    return std::nullopt;
  int64_t m = d.getDimSize(0), n = d.getDimSize(1), k = a.getDimSize(1);
  if (m < 64 || n < 8 || k < getMmaInstrK(ea))
    return std::nullopt;
  // Only 16-bit operands may be MN-major (the instruction's transpose);
  // tf32, fp8 and int8 ones must have K contiguous.
  bool aKMajor = getOperandContigDim(op.getA()) == 1;
  bool bKMajor = getOperandContigDim(op.getB()) == 0;
  bool sixteenBit = ea.isF16() || ea.isBF16();
  if (!sixteenBit && (!aKMajor || !bKMajor))
    return std::nullopt;
  WgmmaPlan plan;
  unsigned wM = 4, wN = 1;
  for (unsigned f = numWarps / 4; f > 1; f /= 2) {
    if (m >= 16 * int64_t(wM) * 2)
      wM *= 2;
    else
      wN *= 2;
  }
  if (n / wN < 8)
    return std::nullopt;
  plan.warps = {wM, wN};
  plan.instrN = unsigned(std::min<int64_t>(256, n / wN));
  // Each operand needs a swizzle of at least 32 bytes.
  int64_t bytes = getElementBytes(ea);
  if (!chooseSwizzle(aKMajor ? k : m, aKMajor ? k : 64, bytes) ||
      !chooseSwizzle(bKMajor ? k : n, bKMajor ? k : plan.instrN, bytes))
    return std::nullopt;
  return plan;
}

Value convertTo(OpBuilder &b, Location loc, Value v, Attribute enc) {
  Type want = withEncoding(v.getType(), enc);
  if (want == v.getType())
    return v;
  return ConvertLayoutOp::create(b, loc, want, v);
}

/// Splits an f32 tile into a tf32-exact high part (the low 13 mantissa bits
/// cleared) and the remainder.
std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  auto it = RankedTensorType::get(t.getShape(), b.getI32Type(),
                                  t.getEncoding());
  Value bits = arith::BitcastOp::create(b, loc, it, x);
  Value mask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(it, b.getI32IntegerAttr(int32_t(0xffffe000))));
  Value hiBits = arith::AndIOp::create(b, loc, bits, mask);
  Value hi = arith::BitcastOp::create(b, loc, t, hiBits);
  Value lo = arith::SubFOp::create(b, loc, x, hi);
  return {hi, lo};
}

class AccelerateDotPass
    : public tilec::impl::TileAccelerateDotPassBase<AccelerateDotPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (mlir::failed(checkChipOption(getOperation(), chip)))
      return signalPassFailure();
    ModuleOp module = getOperation();
    combineDotAdds(module);
    stored.clear();
    SmallVector<DotOp> dots;
    module.walk([&](DotOp op) { dots.push_back(op); });
    for (DotOp op : dots) {
      if (!cast<RankedTensorType>(op.getD().getType()).getEncoding())
        continue;
      if (isa<MmaEncodingAttr>(
              cast<RankedTensorType>(op.getD().getType()).getEncoding()))
        continue;
      if (op.getInputPrecision() == "tf32x3" &&
          tile::getElementTypeOrSelf(op.getA().getType()).isF32() &&
          tile::getElementTypeOrSelf(op.getB().getType()).isF32()) {
        decomposeTf32x3(op);
        continue;
      }
      accelerate(op);
    }
  }

private:
  /// `x + tl.dot(a, b)` (a dot with a zero accumulator and no other user)
  /// becomes `tl.dot(a, b, x)`, so `acc += tl.dot(a, b)` accumulates in the
  /// dot's own layout as `acc = tl.dot(a, b, acc)` does. Triton combines
  /// the same way; the sum is then formed in a different order, as in
  /// Triton. Not a float dot with a nonzero max_num_imprecise_acc (fp8 on
  /// sm_90, whose default is 2^30): as in Triton's CombineDotAddPattern,
  /// `acc += tl.dot(a, b)` is then the idiom for precise accumulation --
  /// each dot's sum, added in the tensor core with less than fp32
  /// precision, joins `acc` through an fp32 add.
  void combineDotAdds(ModuleOp module) {
    SmallVector<Operation *> adds;
    module.walk([&](Operation *op) {
      if (isa<arith::AddFOp, arith::AddIOp>(op) &&
          isa<RankedTensorType>(op->getResult(0).getType()))
        adds.push_back(op);
    });
    for (Operation *add : adds)
      for (unsigned i = 0; i < 2; ++i) {
        auto dot = add->getOperand(i).getDefiningOp<DotOp>();
        if (!dot || !dot->hasOneUse() ||
            (isa<arith::AddFOp>(add) && dot.getMaxNumImpreciseAcc() &&
             *dot.getMaxNumImpreciseAcc() != 0) ||
            dot.getD().getType() != add->getResult(0).getType() ||
            (!matchPattern(dot.getC(), m_AnyZeroFloat()) &&
             !matchPattern(dot.getC(), m_Zero())))
          continue;
        dot.getCMutable().assign(add->getOperand(1 - i));
        // The dot now comes after its new accumulator.
        dot->moveAfter(add);
        add->getResult(0).replaceAllUsesWith(dot.getD());
        add->erase();
        break;
      }
  }

  /// d = a_lo * b_hi + (a_hi * b_lo + (a_hi * b_hi + c))... in the order
  /// that adds the small terms first.
  void decomposeTf32x3(DotOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto [aHi, aLo] = splitTf32(b, loc, op.getA());
    auto [bHi, bLo] = splitTf32(b, loc, op.getB());
    StringAttr tf32 = b.getStringAttr("tf32");
    Type dt = op.getD().getType();
    auto d1 = DotOp::create(b, loc, dt, aLo, bHi, op.getC(), tf32, IntegerAttr());
    auto d2 = DotOp::create(b, loc, dt, aHi, bLo, d1, tf32, IntegerAttr());
    auto d3 = DotOp::create(b, loc, dt, aHi, bHi, d2, tf32, IntegerAttr());
    op.replaceAllUsesWith(d3.getD());
    op.erase();
    for (DotOp d : {d1, d2, d3})
      accelerate(d);
  }

  void accelerate(DotOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto func = op->getParentOfType<FuncOp>();
    unsigned numWarps = func ? func.getNumWarps() : 4;
    Value a = op.getA(), bb = op.getB(), c = op.getC();
    Type cElem = tile::getElementTypeOrSelf(c.getType());
    StringRef precision = op.getInputPrecision();
    // wgmma by default where the target has it (mma-version=2 opts out).
    if (mmaVersion != 2 && getTarget(chip).hasWgmma())
      if (std::optional<WgmmaPlan> plan = planWgmma(op, numWarps)) {
        accelerateWgmma(op, *plan);
        return;
      }
    auto mmaApplies = [&] {
      auto at = cast<RankedTensorType>(a.getType());
      Type bElem = tile::getElementTypeOrSelf(bb.getType());
      return hasMmaShape(at, dType) &&
             mmaV2Computes(at.getElementType(), bElem, cElem, precision, chip);
    };
    // fp8 operands that the fp8 mma.sync cannot take (sm_80 has none; it
    // accumulates only in f32; small tiles go to FMA, which does not read
    // fp8) are widened to f16 first: fp8 -> f16 is exact, so the products
    // are those of the fp8 values.
    if (!mmaApplies() &&
        (isFp8(tile::getElementTypeOrSelf(a.getType())) ||
         isFp8(tile::getElementTypeOrSelf(bb.getType())))) {
      a = widenToF16(b, loc, a);
      bb = widenToF16(b, loc, bb);
    }
    if (mmaApplies()) {
      Type aElem = tile::getElementTypeOrSelf(a.getType());
      unsigned kWidth = isFp8(aElem) ? 4 : getMmaKWidth(aElem);
      auto mma = MmaEncodingAttr::get(ctx, 2,
                                      chooseWarps(dType.getShape(), numWarps),
                                      {16, 8});
      Value na = convertTo(b, loc, a,
                           DotOperandEncodingAttr::get(ctx, 0, mma, kWidth));
      Value nb = convertTo(b, loc, bb,
                           DotOperandEncodingAttr::get(ctx, 1, mma, kWidth));
      Value nc = convertTo(b, loc, c, mma);
      auto dot = DotOp::create(b, loc, withEncoding(dType, mma), na, nb, nc,
                               op.getInputPrecisionAttr(),
                               op.getMaxNumImpreciseAccAttr());
      replaceDot(b, op, dot.getD());
      op.erase();
      return;
    }
    // FMA: the result's blocked layout is the parent.
    auto parent = dyn_cast<BlockedEncodingAttr>(dType.getEncoding());
    Value nc = c;
    RankedTensorType resultType = dType;
    if (!parent) {
      parent = getBlockedEncoding(ctx, dType.getShape(), numWarps);
      resultType = cast<RankedTensorType>(withEncoding(dType, parent));
      nc = convertTo(b, loc, c, parent);
    }
    Value na =
        convertTo(b, loc, a, DotOperandEncodingAttr::get(ctx, 0, parent, 0));
    Value nb =
        convertTo(b, loc, bb, DotOperandEncodingAttr::get(ctx, 1, parent, 0));
    auto dot = DotOp::create(b, loc, resultType, na, nb, nc,
                             op.getInputPrecisionAttr(),
                             op.getMaxNumImpreciseAccAttr());
    Value result = dot.getD();
    if (resultType != dType)
      result = ConvertLayoutOp::create(b, loc, dType, result);
    op.replaceAllUsesWith(result);
    op.erase();
  }

  /// The wgmma operand buffers made so far: (tile, buffer type) -> buffer.
  DenseMap<std::pair<Value, Type>, LocalAllocOp> stored;

  /// A shared-memory copy of `v` of type `type` for the dot `op`: the one
  /// an earlier dot made, where it dominates `op`, else a new local_alloc at
  /// `b`. A tile two dots read in the same layout (the backward's Q^T and
  /// dO: B operands of one dot and, transposed, of another) is stored once,
  /// and its load keeps the single local_alloc user tile-pipeline copies
  /// asynchronously. The buffers are never written after their
  /// initialization (tile-pipeline replaces the whole local_alloc), so the
  /// dots may share them.
  Value storeOnce(OpBuilder &b, Location loc, DotOp op, MemDescType type,
                  Value v) {
    auto key = std::make_pair(v, Type(type));
    if (auto it = stored.find(key); it != stored.end()) {
      // Structured control flow: `prev` dominates `op` when `op` is in
      // (or nested in an op) after it in its block.
      LocalAllocOp prev = it->second;
      Operation *ancestor = prev->getBlock()->findAncestorOpInBlock(*op);
      if (ancestor && prev->isBeforeInBlock(ancestor))
        return prev;
    }
    auto alloc = LocalAllocOp::create(b, loc, type, v);
    stored[key] = alloc;
    return alloc;
  }

  /// Sets `b`'s insertion point before the outermost loop around `op` that
  /// `v` is defined outside of: an operand the loop does not change
  /// (attention's Q block) is stored to shared memory once, not in every
  /// iteration. Leaves `b` where it is if there is no such loop.
  static void hoistOutOfLoops(OpBuilder &b, Operation *op, Value v) {
    Operation *hoistBefore = nullptr;
    for (Operation *p = op->getParentOp(); p && !isa<FuncOp>(p);
         p = p->getParentOp()) {
      if (p->isAncestor(v.getParentRegion()->getParentOp()))
        break;
      if (isa<scf::ForOp, scf::WhileOp>(p))
        hoistBefore = p;
    }
    if (hoistBefore)
      b.setInsertionPoint(hoistBefore);
  }

  /// The dot as a tile.warpgroup_dot reading its operands from shared
  /// memory (NVMMA encodings), its accumulator and result in #mma v3.
  void accelerateWgmma(DotOp op, const WgmmaPlan &plan) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    unsigned instrK = unsigned(getMmaInstrK(
        cast<RankedTensorType>(op.getA().getType()).getElementType()));
    auto mma =
        MmaEncodingAttr::get(ctx, 3, plan.warps, {64, plan.instrN, instrK});
    auto store = [&](Value v, bool isA) -> Value {
      unsigned contig = getOperandContigDim(v);
      TransOp swap = getSwap(v);
      v = stripConversions(v);
      OpBuilder::InsertionGuard guard(b);
      hoistOutOfLoops(b, op, swap ? stripConversions(swap.getSrc()) : v);
      auto t = cast<RankedTensorType>(v.getType());
      bool kMajor = isA ? contig == 1 : contig == 0;
      int64_t perInstr = kMajor ? t.getDimSize(contig)
                         : isA  ? 64
                                : int64_t(plan.instrN);
      unsigned swizzle = chooseSwizzle(t.getDimSize(contig), perInstr,
                                       getElementBytes(t.getElementType()));
      auto enc = NVMMASharedEncodingAttr::get(ctx, swizzle,
                                              /*transposed=*/contig == 0);
      // Mutable, as promote-to-shared's: tile-pipeline fills it in place.
      auto type = MemDescType::get(t.getShape(), t.getElementType(), enc,
                                   /*mutableMemory=*/true);
      // A transposed tile (`b.T` of a loaded [N, K] tile: tutorial 09's B,
      // attention's K^T) is stored as it arrived and read through a
      // transposed view: the same bytes, no transpose in registers, and the
      // store stays `local_alloc(load)`, which tile-pipeline turns into
      // cp.async.
      if (swap) {
        Value src = stripConversions(swap.getSrc());
        auto srcType = MemDescType::get(
            cast<RankedTensorType>(src.getType()).getShape(),
            t.getElementType(),
            NVMMASharedEncodingAttr::get(ctx, swizzle, contig != 0), true);
        assert(getTransposedMemDescType(srcType, swap.getOrder()) == type &&
               "a swapped nvmma buffer is the flipped encoding");
        Value m = storeOnce(b, loc, op, srcType, src);
        return MemDescTransOp::create(b, loc, type, m, swap.getOrder());
      }
      return storeOnce(b, loc, op, type, v);
    };
    // A computed in registers (16-bit) stays there: wgmma reads it from
    // registers in the dot-operand layout of the accumulator's.
    Type aElem = cast<RankedTensorType>(op.getA().getType()).getElementType();
    Value ma = (aElem.isF16() || aElem.isBF16()) && isComputedInRegisters(op.getA())
                   ? convertTo(b, loc, op.getA(),
                               DotOperandEncodingAttr::get(ctx, 0, mma, 2))
                   : store(op.getA(), true);
    Value mb = store(op.getB(), false);
    Value nc = convertTo(b, loc, op.getC(), mma);
    auto dot = WarpGroupDotOp::create(b, loc, withEncoding(dType, mma), ma, mb,
                                      nc, /*use_acc=*/Value(),
                                      op.getInputPrecisionAttr(),
                                      op.getMaxNumImpreciseAccAttr(),
                                      /*is_async=*/UnitAttr());
    TransOp swaps[] = {getSwap(op.getA()), getSwap(op.getB())};
    replaceDot(b, op, dot.getD());
    op.erase();
    // A transposed operand now read through a view: the transpose in
    // registers is dead.
    for (TransOp swap : swaps)
      if (swap && swap->use_empty())
        swap.erase();
  }

  /// Replaces the uses of `op` by `d` (its result in the accumulator
  /// layout), converted back to the old layout. A dot combineDotAdds left alone (`x +
  /// tl.dot(a, b)` with imprecise fp8 accumulation) has its add done in the
  /// accumulator layout too, `x` converted there: a loop-carried `x` then
  /// stays in that layout (tile-propagate-layouts moves the conversions
  /// out of the loop) instead of converting the whole tile every iteration.
  void replaceDot(OpBuilder &b, DotOp op, Value d) {
    Location loc = op.getLoc();
    Type dType = op.getD().getType();
    if (op->hasOneUse())
      if (auto add = dyn_cast<arith::AddFOp>(*op->getUsers().begin());
          add && add.getType() == dType && add.getLhs() != add.getRhs()) {
        Value x = add.getLhs() == op.getD() ? add.getRhs() : add.getLhs();
        OpBuilder ab(add);
        Value xd = ConvertLayoutOp::create(ab, loc, d.getType(), x);
        Value sum = arith::AddFOp::create(ab, add.getLoc(), xd, d);
        add.getResult().replaceAllUsesWith(
            ConvertLayoutOp::create(ab, loc, dType, sum).getResult());
        add.erase();
        return;
      }
    Value back = ConvertLayoutOp::create(b, loc, dType, d);
    op.replaceAllUsesWith(back);
  }

  /// `x` with fp8 elements extended to f16; other tiles unchanged.
  Value widenToF16(OpBuilder &b, Location loc, Value x) {
    auto t = cast<RankedTensorType>(x.getType());
    if (!isFp8(t.getElementType()))
      return x;
    auto f16 = RankedTensorType::get(t.getShape(), b.getF16Type(),
                                     t.getEncoding());
    return arith::ExtFOp::create(b, loc, f16, x);
  }
};

} // namespace
