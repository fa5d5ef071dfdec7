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
#include "llvm/ADT/DenseSet.h"

#define DEBUG_TYPE "tile-propagate-layouts"

namespace tilec {
#define GEN_PASS_DEF_TILEPROPAGATELAYOUTSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// cloneWithResultType right after `def`.
Value cloneWithType(OpBuilder &b, Operation *def, IRMapping &map, Type want) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointAfter(def);
  return cloneWithResultType(b, def, map, want);
}

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
    result = cloneWithType(b, def, map, want);
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

//===----------------------------------------------------------------------===//
// Sinking conversions out of the accumulator layout
//===----------------------------------------------------------------------===//

/// The encoding of tile `v`, or null for a scalar.
Attribute encodingOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getEncoding() : Attribute();
}

/// The innermost loop around `op`, or null.
scf::ForOp enclosingLoop(Operation *op) {
  return op->getParentOfType<scf::ForOp>();
}

/// Whether `v` can be had in layout `enc` next to `at` without converting a
/// tile computed in `at`'s loop body: it is in `enc`, converted from it, a
/// splat, constant or range (rebuilt), cheap layout-agnostic arithmetic of
/// such values, an iteration argument of the loop (tile-propagate-layouts
/// then retypes it), or a value from outside the loop (converted once,
/// before it).
bool availableIn(Value v, Attribute enc, scf::ForOp loop, int depth = 0) {
  if (depth > 16)
    return false;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getEncoding() == enc)
    return true;
  if (loop) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
        return true;
    if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
      return true;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto cvt = dyn_cast<ConvertLayoutOp>(def))
    return encodingOf(cvt.getSrc()) == enc;
  if (!isLayoutAgnosticOp(def) || isa<AddPtrOp, IntToPtrOp, PtrToIntOp>(def))
    return false;
  // Rebuilding an op whose result other ops also use duplicates it: only
  // for integer and boolean tiles (index and mask arithmetic) and
  // constants, never floating-point work.
  if (!def->hasOneUse() && !isa<SplatOp, MakeRangeOp, arith::ConstantOp>(def) &&
      !t.getElementType().isIntOrIndex())
    return false;
  Attribute operandEnc = enc;
  if (auto expand = dyn_cast<ExpandDimsOp>(def))
    operandEnc = SliceEncodingAttr::get(enc.getContext(), expand.getAxis(), enc);
  else if (isa<BroadcastOp>(def))
    operandEnc = enc;
  return llvm::all_of(def->getOperands(), [&](Value o) {
    return availableIn(o, operandEnc, loop, depth + 1);
  });
}

/// `v` in layout `enc` (availableIn holds), built before `at`.
Value materializeIn(OpBuilder &b, Value v, Attribute enc, scf::ForOp loop,
                    Operation *at, DenseMap<std::pair<Value, Attribute>, Value> &done) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || t.getEncoding() == enc)
    return v;
  if (auto it = done.find({v, enc}); it != done.end())
    return it->second;
  Type want = withEncoding(t, enc);
  OpBuilder::InsertionGuard g(b);
  Value result;
  Operation *def = v.getDefiningOp();
  bool outside = loop && !loop->isAncestor(v.getParentRegion()->getParentOp());
  auto arg = dyn_cast<BlockArgument>(v);
  // (A splat constant is rebuilt, wherever it is: two copies then CSE. A
  // dense one from outside the loop is converted: it has no splat value.)
  bool constant = isa_and_nonnull<arith::ConstantOp>(def) &&
                  isLayoutAgnosticOp(def);
  if (!constant && (outside || (arg && loop && arg.getOwner() == loop.getBody()))) {
    // Converted where the value is defined (once, before the loop).
    if (def)
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(arg.getOwner());
    result = ConvertLayoutOp::create(b, v.getLoc(), want, v);
  } else if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(def)) {
    result = cvt.getSrc();
  } else {
    Attribute operandEnc = enc;
    if (auto expand = dyn_cast<ExpandDimsOp>(def))
      operandEnc =
          SliceEncodingAttr::get(enc.getContext(), expand.getAxis(), enc);
    IRMapping map;
    for (Value o : def->getOperands())
      map.map(o, materializeIn(b, o, operandEnc, loop, def, done));
    result = cloneWithType(b, def, map, want);
  }
  done[{v, enc}] = result;
  return result;
}

/// The layout `user` computes in when its operand `x` (a conversion from
/// `enc`) is taken in `enc` instead, or null if it cannot: elementwise
/// arithmetic whose other operands are available in `enc`, a reduction
/// (its result then in a slice of `enc`), broadcast, expand_dims of a slice
/// along its dimension, or another conversion (folded).
Attribute sunkLayout(Operation *user, Value x, Attribute enc) {
  scf::ForOp loop = enclosingLoop(user);
  auto othersAvailable = [&](Attribute e) {
    return llvm::all_of(user->getOperands(), [&](Value o) {
      return o == x || availableIn(o, e, loop);
    });
  };
  if (isa<ConvertLayoutOp>(user))
    return enc;
  if (auto reduce = dyn_cast<ReduceOp>(user)) {
    if (cast<RankedTensorType>(x.getType()).getRank() < 2)
      return {};
    return othersAvailable(enc) ? enc : Attribute();
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(user)) {
    auto slice = dyn_cast<SliceEncodingAttr>(enc);
    if (!slice || slice.getDim() != unsigned(expand.getAxis()))
      return {};
    return slice.getParent();
  }
  if (isa<BroadcastOp>(user))
    return enc;
  if (isa<arith::ConstantOp, SplatOp, MakeRangeOp, AddPtrOp, HintOp,
          IntToPtrOp, PtrToIntOp>(user) ||
      !isLayoutAgnosticOp(user))
    return {};
  return othersAvailable(enc) ? enc : Attribute();
}

/// Computes `user` (see sunkLayout) with `x` replaced by `src` (x's
/// conversion source, layout `enc`); its results are converted back for
/// their users, so the conversion moves below `user`. Returns the new
/// conversions.
SmallVector<ConvertLayoutOp>
sinkInto(Operation *user, Value x, Value src, Attribute enc,
         llvm::function_ref<void(Operation *)> eraseOp) {
  SmallVector<ConvertLayoutOp> made;
  if (auto cvt = dyn_cast<ConvertLayoutOp>(user)) {
    OpBuilder b(cvt);
    if (cvt.getType() == src.getType()) {
      cvt.replaceAllUsesWith(src);
    } else {
      auto c = ConvertLayoutOp::create(b, cvt.getLoc(), cvt.getType(), src);
      cvt.replaceAllUsesWith(c.getResult());
      made.push_back(c);
    }
    eraseOp(cvt);
    return made;
  }
  Attribute resultEnc = enc;
  if (auto expand = dyn_cast<ExpandDimsOp>(user))
    resultEnc = cast<SliceEncodingAttr>(enc).getParent();
  scf::ForOp loop = enclosingLoop(user);
  OpBuilder b(user);
  DenseMap<std::pair<Value, Attribute>, Value> done;
  IRMapping map;
  for (Value o : user->getOperands())
    map.map(o, o == x ? src : materializeIn(b, o, enc, loop, user, done));
  b.setInsertionPoint(user);
  Operation *clone = b.clone(*user, map);
  for (OpResult r : clone->getResults()) {
    auto t = cast<RankedTensorType>(r.getType());
    Attribute e = resultEnc;
    if (auto reduce = dyn_cast<ReduceOp>(user))
      e = SliceEncodingAttr::get(enc.getContext(), reduce.getAxis(), enc);
    r.setType(withEncoding(t, e));
  }
  b.setInsertionPointAfter(user);
  for (auto [oldR, newR] : llvm::zip(user->getResults(), clone->getResults())) {
    auto c = ConvertLayoutOp::create(b, user->getLoc(), oldR.getType(), newR);
    oldR.replaceAllUsesWith(c.getResult());
    made.push_back(c);
  }
  eraseOp(user);
  return made;
}

/// Moves conversions out of the accumulator layout (and its slices) below
/// the arithmetic that uses them, as long as every user of a conversion can
/// compute in the source layout: a softmax over a dot's result (max and
/// sum along rows, exp2, the rescaling of the accumulator) then runs where
/// the dot left its result, and what converts is the end of the chain (the
/// operand of the next dot, which the accumulator's layout gives in
/// registers, or a store's value). Returns whether anything moved.
bool sinkConversionsOnce(ModuleOp module) {
  // The work list, and the set of its ops still alive: an erased op leaves
  // the set, so a stale list entry is skipped (or, if a new conversion took
  // its memory, stands for that one, which is pending too).
  SmallVector<ConvertLayoutOp> work;
  llvm::DenseSet<Operation *> pending;
  auto push = [&](ConvertLayoutOp c) {
    work.push_back(c);
    pending.insert(c);
  };
  module.walk([&](ConvertLayoutOp cvt) {
    if (isAccumulatorLayout(encodingOf(cvt.getSrc())))
      push(cvt);
  });
  auto eraseOp = [&](Operation *op) {
    pending.erase(op);
    op->erase();
  };
  bool changed = false;
  for (int budget = 100000; !work.empty() && budget > 0; --budget) {
    ConvertLayoutOp cvt = work.pop_back_val();
    if (!pending.erase(cvt))
      continue;
    Value x = cvt.getResult(), src = cvt.getSrc();
    Attribute enc = encodingOf(src);
    // (A conversion whose users all sank with another operand's is dead.)
    if (x.use_empty()) {
      eraseOp(cvt);
      continue;
    }
    if (encodingOf(x) == enc)
      continue;
    // Only work of the loop iteration that computes the accumulator (a
    // softmax between two dots); a loop's result -- a GEMM's epilogue --
    // is left to tile-pipeline, which fuses its elementwise DAG into the
    // TMA store where it converts (getEpilogueDag).
    Operation *def = src.getDefiningOp();
    if (!def || isa<scf::ForOp, scf::WhileOp, scf::IfOp>(def) ||
        def->getBlock() != cvt->getBlock())
      continue;
    SmallVector<Operation *> users, sinkable;
    for (Operation *u : x.getUsers())
      if (!llvm::is_contained(users, u))
        users.push_back(u);
    for (Operation *u : users)
      if (u->getBlock() == cvt->getBlock() && sunkLayout(u, x, enc))
        sinkable.push_back(u);
    // All users or none, but a reduction always: what it converts then is
    // its result, a slice -- and the other users' operands often derive
    // from it (the softmax's running max).
    if (sinkable.size() != users.size())
      llvm::erase_if(sinkable, [](Operation *u) { return !isa<ReduceOp>(u); });
    if (sinkable.empty())
      continue;
    for (Operation *u : sinkable)
      for (ConvertLayoutOp c : sinkInto(u, x, src, enc, eraseOp))
        push(c);
    changed = true;
    if (x.use_empty())
      eraseOp(cvt);
  }
  return changed;
}

bool sinkAccumulatorConversions(ModuleOp module) {
  bool changed = false;
  for (int round = 0; round < 8 && sinkConversionsOnce(module); ++round)
    changed = true;
  return changed;
}


class PropagateLayoutsPass
    : public tilec::impl::TilePropagateLayoutsPassBase<PropagateLayoutsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Innermost loops first; repeat while an argument changes. Sinking
    // conversions out of the accumulator layout makes loop arguments
    // converted to it (the running max and sum of a softmax), which the
    // next round retypes.
    bool changed = true;
    for (int round = 0; changed && round < 6; ++round) {
      changed = sinkAccumulatorConversions(module);
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
    // The rematerialization patterns move conversions up again where an
    // op has one user; sink them for good, then clean up what sinking
    // converted (a row statistic loaded for the softmax's subtraction:
    // loaded in the slice layout), keeping the sunk conversions in place.
    if (sinkAccumulatorConversions(module)) {
      RewritePatternSet patterns(&getContext());
      populateRematerializationPatterns(patterns,
                                        /*keepAccumulatorConversions=*/true);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
