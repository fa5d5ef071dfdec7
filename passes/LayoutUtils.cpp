//===- LayoutUtils.cpp - Rewrites shared by the layout passes ---*- C++ -*-===//
//
// Rematerialization: a conversion of a value that a cheap, layout-agnostic
// op computes is replaced by that op recomputed in the wanted layout (its
// operands converted instead), so conversions move up to loads, block
// arguments and kernel inputs, where they stay. Used by
// tile-assign-layouts and tile-propagate-layouts.
//
//===----------------------------------------------------------------------===//
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"
#include "passes/Target.h"

#include "dialects/Tile/IR/Layouts.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Cheap ops that compute the same values in any layout (tile.hint is the
/// identity; recomputing it keeps its facts on the converted value).
bool isLayoutAgnostic(Operation *op) {
  if (isa<SplatOp, MakeRangeOp, AddPtrOp, BroadcastOp, ExpandDimsOp, HintOp,
          IntToPtrOp, PtrToIntOp>(op))
    return true;
  if (auto c = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(c.getValue());
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return false;
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  return op->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(op);
}

/// convert_layout(op(x...)) -> op'(convert_layout(x)...) for a
/// layout-agnostic op, recomputing it in the wanted layout.
struct RematerializeThroughConversion
    : public OpRewritePattern<ConvertLayoutOp> {
  RematerializeThroughConversion(MLIRContext *ctx, bool keepAccumulator)
      : OpRewritePattern(ctx), keepAccumulator(keepAccumulator) {}
  bool keepAccumulator;

  LogicalResult matchAndRewrite(ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    Operation *def = cvt.getSrc().getDefiningOp();
    if (!def || !isLayoutAgnostic(def))
      return rewriter.notifyMatchFailure(cvt, "source is not layout-agnostic");
    if (keepAccumulator &&
        isAccumulatorLayout(
            cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding()))
      return rewriter.notifyMatchFailure(cvt, "a sunk accumulator conversion");
    // Floating-point work other ops also use, in the accumulator layout (a
    // softmax's exp2 feeding both a sum and the next dot), is converted,
    // not computed twice: from #mma the conversion is often free.
    auto srcType = cast<RankedTensorType>(cvt.getSrc().getType());
    if (!def->hasOneUse() && isAccumulatorLayout(srcType.getEncoding()) &&
        isa<FloatType>(srcType.getElementType()) &&
        !isa<SplatOp, arith::ConstantOp, BroadcastOp, ExpandDimsOp>(def))
      return rewriter.notifyMatchFailure(cvt, "would duplicate fp work");
    auto dstType = cast<RankedTensorType>(cvt.getType());
    Attribute dstEnc = dstType.getEncoding();
    Location loc = def->getLoc();
    rewriter.setInsertionPoint(def);
    IRMapping map;
    for (Value operand : def->getOperands()) {
      auto t = dyn_cast<RankedTensorType>(operand.getType());
      if (!t)
        continue;
      Attribute enc = dstEnc;
      if (auto expand = dyn_cast<ExpandDimsOp>(def))
        enc = SliceEncodingAttr::get(getContext(), expand.getAxis(), dstEnc);
      Type want = withEncoding(t, enc);
      if (want != t)
        map.map(operand, ConvertLayoutOp::create(rewriter, loc, want, operand)
                             .getResult());
    }
    rewriter.replaceOp(
        cvt, cloneWithResultType(rewriter, def, map,
                                 withEncoding(def->getResult(0).getType(),
                                              dstEnc)));
    return success();
  }
};

/// convert_layout(load(p, mask, other)) -> load(p', mask', other') in the
/// wanted layout, for a 1-D load whose users are all conversions to a
/// slice of an accumulator or dot-operand layout: a per-row or per-column
/// value (the attention backward's M and Delta, a bias) is read by the
/// threads that hold its rows or columns -- a few L1-served loads -- instead
/// of one coalesced load and a trip through shared memory with its CTA
/// barriers every iteration. The addresses, mask and `other` follow through
/// RematerializeThroughConversion.
struct LoadInConsumerLayout : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp cvt,
                                PatternRewriter &rewriter) const override {
    auto load = cvt.getSrc().getDefiningOp<LoadOp>();
    if (!load || !llvm::all_of(load->getUsers(), [&](Operation *user) {
          auto other = dyn_cast<ConvertLayoutOp>(user);
          return other && other.getType() == cvt.getType();
        }))
      return rewriter.notifyMatchFailure(
          cvt, "not a load only converted to this layout");
    auto dstType = cast<RankedTensorType>(cvt.getType());
    auto slice = dyn_cast_or_null<SliceEncodingAttr>(dstType.getEncoding());
    Attribute parent = slice ? slice.getParent() : Attribute();
    if (auto op = dyn_cast_or_null<DotOperandEncodingAttr>(parent))
      parent = op.getParent();
    if (dstType.getRank() != 1 || !slice || !isAccumulatorLayout(parent))
      return rewriter.notifyMatchFailure(cvt, "not a 1-D slice of an mma layout");
    rewriter.setInsertionPoint(load);
    Location loc = load.getLoc();
    IRMapping map;
    for (Value operand : load->getOperands()) {
      Type want = withEncoding(operand.getType(), slice);
      map.map(operand,
              ConvertLayoutOp::create(rewriter, loc, want, operand).getResult());
    }
    Value clone = cloneWithResultType(rewriter, load, map, dstType);
    for (Operation *user : llvm::make_early_inc_range(load->getUsers()))
      rewriter.replaceOp(user, clone);
    rewriter.eraseOp(load);
    return success();
  }
};

} // namespace

bool tilec::isLayoutAgnosticOp(Operation *op) { return isLayoutAgnostic(op); }

Value tilec::cloneWithResultType(OpBuilder &b, Operation *op, IRMapping &map,
                                 Type type) {
  Operation *clone = b.clone(*op, map);
  clone->getResult(0).setType(type);
  if (auto c = dyn_cast<arith::ConstantOp>(clone))
    c.setValueAttr(SplatElementsAttr::get(
        cast<ShapedType>(type),
        cast<SplatElementsAttr>(c.getValue()).getSplatValue<Attribute>()));
  return clone->getResult(0);
}

bool tilec::isAccumulatorLayout(Attribute enc) {
  if (isa_and_nonnull<MmaEncodingAttr>(enc))
    return true;
  if (auto s = dyn_cast_or_null<SliceEncodingAttr>(enc))
    return isAccumulatorLayout(s.getParent());
  return false;
}

void tilec::populateRematerializationPatterns(RewritePatternSet &patterns,
                                              bool keepAccumulatorConversions) {
  patterns.add<RematerializeThroughConversion>(patterns.getContext(),
                                               keepAccumulatorConversions);
  patterns.add<LoadInConsumerLayout>(patterns.getContext());
  ConvertLayoutOp::getCanonicalizationPatterns(patterns,
                                               patterns.getContext());
}

bool tilec::isSupportedChip(StringRef chip) {
  return lookupTarget(chip) != nullptr;
}

LogicalResult tilec::checkChipOption(Operation *op, StringRef chip) {
  if (isSupportedChip(chip))
    return success();
  return op->emitError("expected chip ")
         << getSupportedTargetNames() << ", found '" << chip << "'";
}

bool tilec::mmaV2Computes(Type a, Type b, Type c, StringRef inputPrecision,
                          StringRef chip) {
  auto isFp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  if (isFp8(a) && isFp8(b))
    return c.isF32() && getTarget(chip).hasFp8();
  if (a != b)
    return false;
  if (a.isF16())
    return c.isF32() || c.isF16();
  if (a.isBF16())
    return c.isF32();
  if (a.isF32())
    return c.isF32() && inputPrecision == "tf32";
  if (a.isInteger(8))
    return c.isInteger(32);
  return false;
}

SmallVector<unsigned> tilec::getMemoryOrder(RankedTensorType t) {
  if (auto b = dyn_cast_or_null<tile::BlockedEncodingAttr>(t.getEncoding()))
    return SmallVector<unsigned>(b.getOrder());
  SmallVector<unsigned> order;
  for (unsigned d = t.getRank(); d-- > 0;)
    order.push_back(d);
  return order;
}

LogicalResult tilec::checkTilesHaveLayouts(Operation *root) {
  auto laidOut = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return !tensor || succeeded(tile::getLinearLayout(tensor));
  };
  WalkResult r = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto report = [&](Location loc, Type t) {
      emitError(loc, "expected every tile to have a distributed encoding "
                     "(#tile.blocked, #tile.slice, #tile.mma, "
                     "#tile.dot_operand) with power-of-two shape, found ")
          << t << " (run tile-assign-layouts first)";
      return WalkResult::interrupt();
    };
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!laidOut(arg.getType()))
            return report(op->getLoc(), arg.getType());
    for (Type t : op->getResultTypes())
      if (!laidOut(t))
        return report(op->getLoc(), t);
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

/// The kernel argument a pointer (tile) derives from, if any. A loop
/// argument being resolved (in `visiting`) stands for itself: `p = p + 1`
/// in a loop keeps the base of its initial value.
static Value pointerBaseOf(Value v, llvm::SmallPtrSetImpl<Value> &visiting,
                         int depth) {
  if (depth > 64)
    return {};
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<FuncOp>(arg.getOwner()->getParentOp()))
      return arg;
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      if (arg.getArgNumber() == 0)
        return {};
      if (visiting.contains(arg))
        return arg;
      unsigned i = arg.getArgNumber() - 1;
      visiting.insert(arg);
      Value init = pointerBaseOf(loop.getInits()[i], visiting, depth + 1);
      Value next = pointerBaseOf(
          cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperand(i),
          visiting, depth + 1);
      visiting.erase(arg);
      if (next == arg)
        next = init;
      return init == next ? init : Value();
    }
    return {};
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto loop = dyn_cast<scf::ForOp>(def))
    // A loop's result: what its argument holds.
    return pointerBaseOf(
        loop.getRegionIterArgs()[cast<OpResult>(v).getResultNumber()],
        visiting, depth + 1);
  if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
    // Both branches' values from one argument.
    unsigned i = cast<OpResult>(v).getResultNumber();
    if (ifOp.getElseRegion().empty())
      return {};
    Value a = pointerBaseOf(ifOp.thenYield().getOperand(i), visiting, depth + 1);
    Value b = pointerBaseOf(ifOp.elseYield().getOperand(i), visiting, depth + 1);
    return a == b ? a : Value();
  }
  if (auto add = dyn_cast<AddPtrOp>(def))
    return pointerBaseOf(add.getPtr(), visiting, depth + 1);
  if (auto desc = dyn_cast<MakeTensorDescOp>(def))
    return pointerBaseOf(desc.getBase(), visiting, depth + 1);
  // (A gather's pointers are elements of its source.)
  if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp, HintOp,
          ReshapeOp, GatherOp>(def))
    return pointerBaseOf(def->getOperand(0), visiting, depth + 1);
  return {};
}
Value tilec::pointerBase(Value v) {
  llvm::SmallPtrSet<Value, 4> visiting;
  return pointerBaseOf(v, visiting, 0);
}

bool tilec::isPositiveZero(Value other) {
  if (!other)
    return true;
  Attribute attr;
  if (auto splat = other.getDefiningOp<SplatOp>()) {
    if (!matchPattern(splat.getSrc(), m_Constant(&attr)))
      return false;
  } else if (!matchPattern(other, m_Constant(&attr))) {
    return false;
  }
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    attr = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isPosZero();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  return false;
}

Value tilec::toI64(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, v);
  if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
    if (t.getElementType().isInteger(64))
      return v;
    return arith::ExtSIOp::create(b, loc, t.clone(i64), v);
  }
  if (v.getType().isInteger(64))
    return v;
  return arith::ExtSIOp::create(b, loc, i64, v);
}

Value tilec::zeroOf(OpBuilder &b, Location loc, Type t) {
  Type elem = mlir::getElementTypeOrSelf(t);
  TypedAttr zero;
  if (isa<IntegerType, IndexType>(elem))
    zero = b.getIntegerAttr(elem, 0);
  else if (auto f = dyn_cast<FloatType>(elem))
    zero = b.getFloatAttr(f, 0.0);
  else
    return {};
  if (auto shaped = dyn_cast<RankedTensorType>(t))
    return arith::ConstantOp::create(b, loc,
                                     SplatElementsAttr::get(shaped, zero));
  return arith::ConstantOp::create(b, loc, zero);
}

SmallVector<Value> tilec::getUsedValues(Operation *op) {
  SmallVector<Value> used(op->getOperands());
  op->walk([&](Operation *nested) {
    if (nested != op)
      for (Value o : nested->getOperands())
        if (!op->isAncestor(o.getParentRegion()->getParentOp()))
          used.push_back(o);
  });
  return used;
}
