//===- FlattenLoops.cpp - One loop for a loop nest (tl.range flatten) -*- C++ -*-===//
//
// tile-flatten-loops: an `scf.for` marked `tile.flatten` (Triton's
// `tl.range(..., flatten=True)`) whose body is a prologue A, one inner
// `scf.for` and an epilogue C
//
//   for t in [lbT, ubT) step stT:           // persistent loop over tiles
//     P = A(t)                              // pure: tile coordinates, ...
//     x = for k in [lbK, ubK) step stK iter_args(x = init(P)): B(k, x, P)
//     C(t, x, P)                            // the tile's store
//
// becomes, when the inner bounds do not depend on t, one loop over the
// Tn * Kn iterations of the nest:
//
//   if Kn > 0:
//     for i in [0, Tn * Kn) iter_args(t, k, kidx, outer args, x, P):
//       first = kidx == 0;  last = kidx == Kn - 1
//       P  = first ? A(t) : P                     (scf.if)
//       x  = B(k, first ? init(P) : x, P)         (arith.select per value)
//       if last: C(t, x, P)                       (scf.if)
//       (t, k, kidx) advance, wrapping k at the end of a tile
//   else:
//     the nest with the inner loop's results replaced by its inits
//
// so that tile-pipeline software-pipelines across tiles: the copies of the
// next tile's first K steps are in flight while this tile's epilogue runs,
// and its mbarriers are initialized once per kernel instead of once per
// tile. tile-pipeline folds the accumulator's `select(first, 0, acc)` into
// wgmma's scale-d. This is the transformation of Triton's FuseNestedLoops
// for the one-inner-loop nest its tutorial 09 persistent matmul writes; the
// code is tilec's own.
//
// A nest that does not have this form is left as it is (the hint is a
// hint; --debug-only=tile-flatten-loops says why).
//
//===----------------------------------------------------------------------===//
#include "passes/FlattenLoops.h"
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"
#include "passes/WarpSpecialize.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tile-flatten-loops"

namespace tilec {
#define GEN_PASS_DEF_TILEFLATTENLOOPSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

scf::ForOp tilec::getInnerLoop(scf::ForOp outer) {
  for (Operation &op : *outer.getBody())
    if (auto f = dyn_cast<scf::ForOp>(op))
      return f;
  return {};
}

namespace {

using tilec::kFlattenAttr;

/// The trip count of `loop` as i64: max(0, ceil((ub - lb) / step)).
Value tripCount(OpBuilder &b, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Value lb = toI64(b, loc, loop.getLowerBound());
  Value ub = toI64(b, loc, loop.getUpperBound());
  Value st = toI64(b, loc, loop.getStep());
  Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value n = arith::DivSIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb),
                            arith::SubIOp::create(b, loc, st, one)),
      st);
  return arith::MaxSIOp::create(b, loc, n, zero);
}

/// The parts of a nest: the prologue (before the inner loop), the inner
/// loop, the epilogue (after it), and the prologue's results used after the
/// prologue.
struct Nest {
  scf::ForOp inner;
  SmallVector<Operation *> prologue, epilogue;
  SmallVector<Value> carried;
};

bool isIntOrFloat(Type t) {
  return isa<IntegerType, IndexType, FloatType>(getElementTypeOrSelf(t));
}

/// `outer`'s nest, or why it cannot be flattened.
FailureOr<Nest> analyzeNest(scf::ForOp outer, std::string &why) {
  Nest n;
  Block *body = outer.getBody();
  scf::ForOp inner = getInnerLoop(outer);
  for (Operation &op : body->without_terminator()) {
    if (&op == inner.getOperation()) {
      n.inner = inner;
      continue;
    }
    if (!n.inner && !isMemoryEffectFree(&op)) {
      why = "the code before the inner loop touches memory";
      return failure();
    }
    (n.inner ? n.epilogue : n.prologue).push_back(&op);
  }
  if (!n.inner) {
    why = "no inner loop";
    return failure();
  }
  if (outer.getUnsignedCmp() || n.inner.getUnsignedCmp()) {
    why = "unsigned loop bounds";
    return failure();
  }
  for (Value v : {n.inner.getLowerBound(), n.inner.getUpperBound(),
                  n.inner.getStep()})
    if (!outer.isDefinedOutsideOfLoop(v)) {
      why = "the inner loop's bounds depend on the outer loop";
      return failure();
    }
  // Carried values start as zeros (the first iteration computes them).
  for (Operation *op : n.prologue)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            Operation *top = body->findAncestorOpInBlock(*u);
            return top == n.inner.getOperation() ||
                   top == body->getTerminator() ||
                   llvm::is_contained(n.epilogue, top);
          }))
        n.carried.push_back(r);
  for (Value v : n.carried)
    if (!isIntOrFloat(v.getType())) {
      why = "a prologue value other than integers or floats is used later";
      return failure();
    }
  for (Value init : n.inner.getInits())
    if (!outer.isDefinedOutsideOfLoop(init) && !isIntOrFloat(init.getType())) {
      why = "an inner initial value other than integers or floats depends "
            "on the outer loop";
      return failure();
    }
  return n;
}

/// scf.yield `values` in an scf.if region being built by `b`, which has a
/// terminator already when the if has no results.
void yieldIn(OpBuilder &b, Location loc, ValueRange values) {
  if (!values.empty())
    scf::YieldOp::create(b, loc, values);
}

} // namespace

bool tilec::flattenLoopNest(scf::ForOp outer, FlatNest *flat) {
  // Invariant code first (an inner bound written in the loop,
  // `tl.range(0, tl.cdiv(K, BLOCK_K))`, is then defined outside it).
  (void)moveLoopInvariantCode(cast<LoopLikeOpInterface>(outer.getOperation()));
  std::string why;
  FailureOr<Nest> nest = analyzeNest(outer, why);
  outer->removeAttr(kFlattenAttr);
  if (failed(nest)) {
    LLVM_DEBUG(llvm::dbgs() << "not flattened (" << outer.getLoc()
                            << "): " << why << "\n");
    return false;
  }
  scf::ForOp inner = nest->inner;
  ArrayRef<Operation *> prologue = nest->prologue, epilogue = nest->epilogue;
  ArrayRef<Value> carried = nest->carried;
  Location loc = outer.getLoc();
  Block *outerBody = outer.getBody();

  OpBuilder b(outer);
  Value kn = tripCount(b, inner);
  Value tn = tripCount(b, outer);
  Value c0 = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value c1 = arith::ConstantIntOp::create(b, loc, 1, 64);
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, kn, c0);
  auto version = scf::IfOp::create(b, loc, outer.getResultTypes(), any,
                                   /*withElseRegion=*/true);

  // Else: no inner iteration; the nest with the inner results = its inits.
  {
    OpBuilder eb = version.getElseBodyBuilder();
    auto copy = cast<scf::ForOp>(eb.clone(*outer));
    scf::ForOp innerCopy = getInnerLoop(copy);
    innerCopy.replaceAllUsesWith(innerCopy.getInits());
    innerCopy.erase();
    yieldIn(eb, loc, copy.getResults());
  }

  // Then: the flattened loop.
  OpBuilder tb = version.getThenBodyBuilder();
  Value total = arith::MulIOp::create(tb, loc, tn, kn);
  Value lastIdx = arith::SubIOp::create(tb, loc, kn, c1);
  SmallVector<Value> inits = {outer.getLowerBound(), inner.getLowerBound(),
                              c0};
  unsigned nOuter = outer.getNumRegionIterArgs();
  unsigned outerBase = inits.size();
  llvm::append_range(inits, outer.getInits());
  unsigned xBase = inits.size();
  for (Value init : inner.getInits())
    inits.push_back(outer.isDefinedOutsideOfLoop(init)
                        ? init
                        : zeroOf(tb, loc, init.getType()));
  unsigned pBase = inits.size();
  for (Value p : carried)
    inits.push_back(zeroOf(tb, loc, p.getType()));
  auto loop = scf::ForOp::create(tb, loc, c0, total, c1, inits);
  // The inner loop's hints (num_stages, ...) apply to the flat loop.
  for (NamedAttribute a : inner->getDiscardableAttrs())
    loop->setAttr(a.getName(), a.getValue());
  // So does warp_specialize on the outer loop (tutorial 09's persistent
  // kernels put it there, with flatten).
  if (Attribute ws = outer->getAttr(kWarpSpecializeAttr))
    loop->setAttr(kWarpSpecializeAttr, ws);
  Block *body = loop.getBody();
  OpBuilder fb = OpBuilder::atBlockBegin(body);
  auto iterArgs = loop.getRegionIterArgs();
  Value t = iterArgs[0], k = iterArgs[1], kidx = iterArgs[2];
  Value first =
      arith::CmpIOp::create(fb, loc, arith::CmpIPredicate::eq, kidx, c0);
  Value last =
      arith::CmpIOp::create(fb, loc, arith::CmpIPredicate::eq, kidx, lastIdx);

  IRMapping map;
  map.map(outer.getInductionVar(), t);
  for (auto [arg, v] :
       llvm::zip(outer.getRegionIterArgs(), iterArgs.slice(outerBase, nOuter)))
    map.map(arg, v);
  // P = first ? A(t) : P.
  auto pIf = scf::IfOp::create(fb, loc, ValueRange(carried).getTypes(), first,
                               /*withElseRegion=*/true);
  {
    OpBuilder pb = pIf.getThenBodyBuilder();
    IRMapping pm = map;
    for (Operation *op : prologue)
      pb.clone(*op, pm);
    SmallVector<Value> ps;
    for (Value p : carried)
      ps.push_back(pm.lookup(p));
    yieldIn(pb, loc, ps);
    OpBuilder pe = pIf.getElseBodyBuilder();
    yieldIn(pe, loc, iterArgs.slice(pBase, carried.size()));
  }
  for (auto [p, r] : llvm::zip(carried, pIf.getResults()))
    map.map(p, r);
  // The inner body on x = first ? init : x.
  map.map(inner.getInductionVar(), k);
  for (auto [i, arg] : llvm::enumerate(inner.getRegionIterArgs())) {
    Value init = map.lookupOrDefault(inner.getInits()[i]);
    map.map(arg, arith::SelectOp::create(fb, loc, first, init,
                                         iterArgs[xBase + i]));
  }
  for (Operation &op : inner.getBody()->without_terminator())
    fb.clone(op, map);
  SmallVector<Value> xOut;
  for (Value y : inner.getBody()->getTerminator()->getOperands())
    xOut.push_back(map.lookupOrDefault(y));
  // if last: C.
  for (auto [r, x] : llvm::zip(inner.getResults(), xOut))
    map.map(r, x);
  auto cIf = scf::IfOp::create(fb, loc, outer.getResultTypes(), last,
                               /*withElseRegion=*/true);
  {
    OpBuilder cb = cIf.getThenBodyBuilder();
    for (Operation *op : epilogue)
      cb.clone(*op, map);
    SmallVector<Value> ys;
    for (Value y : outerBody->getTerminator()->getOperands())
      ys.push_back(map.lookupOrDefault(y));
    yieldIn(cb, loc, ys);
    OpBuilder ce = cIf.getElseBodyBuilder();
    yieldIn(ce, loc, iterArgs.slice(outerBase, nOuter));
  }
  // Advance: the next K step, or the first of the next tile.
  Value kNext = arith::AddIOp::create(fb, loc, k, inner.getStep());
  auto tNext = arith::AddIOp::create(fb, loc, t, outer.getStep());
  Value kidxNext = arith::AddIOp::create(fb, loc, kidx, c1);
  SmallVector<Value> yields = {
      arith::SelectOp::create(fb, loc, last, tNext, t),
      arith::SelectOp::create(fb, loc, last, inner.getLowerBound(), kNext),
      arith::SelectOp::create(fb, loc, last, c0, kidxNext)};
  llvm::append_range(yields, cIf.getResults());
  llvm::append_range(yields, xOut);
  llvm::append_range(yields, pIf.getResults());
  scf::YieldOp::create(fb, loc, yields);
  yieldIn(tb, loc, loop.getResults().slice(outerBase, nOuter));
  if (flat)
    *flat = FlatNest{loop, version, tn, kn, outer.getLowerBound(),
                     outer.getStep(), last, tNext, nOuter > 0};
  outer.replaceAllUsesWith(version.getResults());
  outer.erase();
  return true;
}

namespace {

class FlattenLoopsPass
    : public tilec::impl::TileFlattenLoopsPassBase<FlattenLoopsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kFlattenAttr))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      (void)flattenLoopNest(loop);
  }
};

} // namespace
