//===- PropagateLayouts.cpp - Remove needless layout conversions -*- C++ -*-===//
//
// tile-propagate-layouts: after tile-accelerate-dot, a loop that carries a
// dot's accumulator converts it to the mma layout at the top of every
// iteration and back at the bottom. This pass makes such a loop-carried
// value live in the layout its users in the loop want:
//
//   scf.for iter_args(%acc = %init : #blocked) {
//     %c = convert_layout %acc -> #mma          ; the wanted layout
//     %d = tile.dot %a, %b, %c -> #mma
//     %e = convert_layout %d -> #blocked
//     scf.yield %e
//   }
// becomes
//   %init' = convert_layout %init -> #mma      ; outside the loop (a constant
//   scf.for iter_args(%acc = %init' : #mma) {  ; is simply rebuilt)
//     %d = tile.dot %a, %b, %acc -> #mma
//     scf.yield %d
//   }
//   convert_layout %r -> #blocked              ; once, after the loop
//
// An iteration argument is retyped when one of its users in the body
// converts it to layout L and the yielded value can be had in L without a
// conversion inside the loop: it is the argument itself, a conversion from
// L, a value from outside the loop, or a layout-agnostic op (elementwise
// arithmetic, splat, ...) of such values -- `acc += tl.dot(a, b)` qualifies
// as well as `acc = tl.dot(a, b, acc)`. Then the rematerialization and
// conversion-folding patterns of tile-assign-layouts clean up.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/IR/Layouts.h"
#include "passes/LayoutUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-propagate-layouts"

namespace tilec {
#define GEN_PASS_DEF_TILEPROPAGATELAYOUTSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Whether `v` can be computed in layout `enc` without a conversion inside
/// `loop`, where `arg` is the iteration argument being retyped.
bool canRematerialize(Value v, Attribute enc, BlockArgument arg,
                      scf::ForOp loop, int depth = 0) {
  if (depth > 32)
    return false;
  if (v == arg)
    return true;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t)
    return true; // scalars have no layout
  if (t.getEncoding() == enc)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isAncestor(def))
    return true; // converted once, outside the loop
  if (auto cvt = dyn_cast<ConvertLayoutOp>(def))
    return cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding() ==
           enc;
  if (!isLayoutAgnosticOp(def) || isa<ExpandDimsOp, BroadcastOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value o) {
    return canRematerialize(o, enc, arg, loop, depth + 1);
  });
}

/// `v` in layout `enc` (canRematerialize(v) holds), built before `at` when
/// it must be recomputed inside the loop; `newArg` replaces the retyped
/// argument.
Value rematerialize(OpBuilder &b, Value v, Attribute enc, BlockArgument arg,
                    Value newArg, scf::ForOp loop,
                    DenseMap<Value, Value> &done) {
  if (v == arg)
    return newArg;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getEncoding() == enc)
    return v;
  if (auto it = done.find(v); it != done.end())
    return it->second;
  Type want = withEncoding(t, enc);
  Operation *def = v.getDefiningOp();
  Value result;
  if (!def || !loop->isAncestor(def)) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(loop);
    result = ConvertLayoutOp::create(b, loop.getLoc(), want, v);
  } else if (auto cvt = dyn_cast<ConvertLayoutOp>(def)) {
    result = rematerialize(b, cvt.getSrc(), enc, arg, newArg, loop, done);
  } else {
    IRMapping map;
    for (Value o : def->getOperands())
      map.map(o, rematerialize(b, o, enc, arg, newArg, loop, done));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointAfter(def);
    Operation *clone = b.clone(*def, map);
    clone->getResult(0).setType(want);
    if (auto c = dyn_cast<arith::ConstantOp>(clone))
      c.setValueAttr(SplatElementsAttr::get(
          cast<ShapedType>(want),
          cast<SplatElementsAttr>(c.getValue()).getSplatValue<Attribute>()));
    result = clone->getResult(0);
  }
  done[v] = result;
  return result;
}

/// Retypes iteration argument `i` of `loop` if that removes conversions
/// from the loop. Returns whether it did.
bool retypeIterArg(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArg(i);
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !type.getEncoding())
    return false;
  // The layout a user in the loop converts the argument to.
  Attribute want;
  for (Operation *user : arg.getUsers())
    if (auto cvt = dyn_cast<ConvertLayoutOp>(user)) {
      want = cast<RankedTensorType>(cvt.getType()).getEncoding();
      break;
    }
  if (!want || want == type.getEncoding())
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value yielded = yield.getOperand(i);
  if (!canRematerialize(yielded, want, arg, loop))
    return false;

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Type newType = withEncoding(type, want);
  // The initial value, converted before the loop.
  OpOperand &init = loop.getInitsMutable()[i];
  init.set(ConvertLayoutOp::create(b, loc, newType, init.get()));
  // The argument: users that want the old layout get a conversion.
  arg.setType(newType);
  b.setInsertionPointToStart(loop.getBody());
  auto back = ConvertLayoutOp::create(b, loc, type, arg);
  arg.replaceAllUsesExcept(back.getResult(), back);
  // The yielded value, in the new layout.
  DenseMap<Value, Value> done;
  b.setInsertionPoint(yield);
  Value newYield = rematerialize(b, yielded, want, arg, arg, loop, done);
  yield.setOperand(i, newYield);
  // The loop's result: users after the loop get a conversion.
  Value result = loop.getResult(i);
  result.setType(newType);
  b.setInsertionPointAfter(loop);
  auto after = ConvertLayoutOp::create(b, loc, type, result);
  result.replaceAllUsesExcept(after.getResult(), after);
  return true;
}

class PropagateLayoutsPass
    : public tilec::impl::TilePropagateLayoutsPassBase<PropagateLayoutsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Innermost loops first; repeat while an argument changes.
    bool changed = true;
    for (int round = 0; changed && round < 4; ++round) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      module.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
          changed |= retypeIterArg(loop, i);
      if (changed) {
        RewritePatternSet patterns(&getContext());
        populateRematerializationPatterns(patterns);
        if (failed(applyPatternsGreedily(module, std::move(patterns))))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
