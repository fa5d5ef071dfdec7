//===- Pipeline.cpp - Multi-buffered cp.async software pipeline -*- C++ -*-===//
//
// tile-pipeline: in a loop whose dot operands are loaded from global memory
// and stored to shared memory every iteration (tile-promote-to-shared's
// `tile.load` -> `tile.local_alloc`), the loads of iteration i + S - 1 are
// issued while iteration i computes (S = num_stages):
//
//   %buf = tile.local_alloc : !tile.memdesc<S x ...>     // before the loop
//   prologue: async copies of iterations 0 .. S-2 (predicated on the trip
//             count), one commit group each
//   scf.for %i {
//     tile.async_wait {num = S - 2}           // iteration i's group landed
//     async copies of iteration i + S - 1 into buffer (i + S - 1) % S,
//       masked off past the end; tile.async_commit_group
//     ... the loop body, reading buffer i % S ...
//   }
//   tile.async_wait {num = 0}
//
// The transformation itself is upstream MLIR's scf::pipelineForLoop, given
// a two-stage schedule: stage 0 is the asynchronous copies with everything
// they need (their pointers and masks, the pointer increments carried to the
// next iteration), stage S - 1 everything else, in program order -- so
// memory operations that do not feed the dot (an indirect store, a store
// read back next iteration) keep their order. Prologue and kernel copies are
// predicated through their masks (peelEpilogue = false, dynamic trip
// counts: 0, 1, ... iterations all work). tile-insert-barriers then puts the
// one barrier per iteration after the wait.
//
// A load is pipelined when: its only user is a local_alloc in the same
// block; its `other` is absent or +0; its pointers and mask depend on no
// memory operation of the iteration; and, if the loop writes global
// memory, its pointers come from a kernel argument no write in the loop
// uses (distinct pointer arguments are assumed not to alias, as Triton
// does). Other loads stay where they are.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "tile-pipeline"

namespace tilec {
#define GEN_PASS_DEF_TILEPIPELINEPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The kernel argument a pointer (tile) derives from, if any.
Value pointerBase(Value v, int depth = 0) {
  if (depth > 64)
    return {};
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<FuncOp>(arg.getOwner()->getParentOp()))
      return arg;
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
      if (arg.getArgNumber() == 0)
        return {};
      unsigned i = arg.getArgNumber() - 1;
      Value init = pointerBase(loop.getInits()[i], depth + 1);
      Value next = pointerBase(
          cast<scf::YieldOp>(loop.getBody()->getTerminator()).getOperand(i),
          depth + 1);
      return init == next ? init : Value();
    }
    return {};
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return {};
  if (auto add = dyn_cast<AddPtrOp>(def))
    return pointerBase(add.getPtr(), depth + 1);
  if (isa<SplatOp, BroadcastOp, ExpandDimsOp, ConvertLayoutOp, HintOp,
          ReshapeOp>(def))
    return pointerBase(def->getOperand(0), depth + 1);
  return {};
}

bool isPositiveZero(Value other) {
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

bool writesGlobalMemory(Operation *op) {
  return isa<StoreOp, AtomicRMWOp, AtomicCASOp, DescStoreOp>(op);
}

class PipelinePass : public tilec::impl::TilePipelinePassBase<PipelinePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (failed(pipeline(loop)))
        return signalPassFailure();
  }

private:
  unsigned stagesFor(scf::ForOp loop) {
    if (auto a = loop->getAttrOfType<IntegerAttr>(
            TileDialect::getNumStagesAttrName()))
      return unsigned(std::max<int64_t>(1, a.getInt()));
    if (auto func = loop->getParentOfType<FuncOp>())
      if (auto a = func->getAttrOfType<IntegerAttr>(
              TileDialect::getNumStagesAttrName()))
        return unsigned(std::max<int64_t>(1, a.getInt()));
    return unsigned(std::max<int64_t>(1, numStages));
  }

  /// The ops of the loop body `v` depends on in the same iteration, if none
  /// of them touches memory (else failure). Iteration arguments are followed
  /// to the value yielded for them, whose slice joins (it runs one
  /// iteration ahead with the copies).
  LogicalResult sliceOf(Value v, scf::ForOp loop,
                        llvm::SetVector<Operation *> &slice) {
    SmallVector<Value> worklist = {v};
    DenseSet<Value> seen;
    Block *body = loop.getBody();
    while (!worklist.empty()) {
      Value x = worklist.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(x)) {
        if (arg.getOwner() == body && arg.getArgNumber() > 0)
          worklist.push_back(body->getTerminator()->getOperand(
              arg.getArgNumber() - 1));
        continue;
      }
      Operation *def = x.getDefiningOp();
      if (!def || def->getBlock() != body)
        continue;
      if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
        return failure();
      if (slice.insert(def))
        for (Value o : def->getOperands())
          worklist.push_back(o);
    }
    return success();
  }

  LogicalResult pipeline(scf::ForOp loop) {
    unsigned stages = stagesFor(loop);
    if (stages < 2)
      return success();
    Block *body = loop.getBody();
    // Global writes in the loop and the pointer bases they use.
    SmallVector<Value> writtenBases;
    bool unknownWrite = false;
    loop.walk([&](Operation *op) {
      if (!writesGlobalMemory(op))
        return;
      Value base = pointerBase(op->getOperand(0));
      if (!base)
        unknownWrite = true;
      else
        writtenBases.push_back(base);
    });

    struct Candidate {
      LoadOp load;
      LocalAllocOp alloc;
    };
    SmallVector<Candidate> candidates;
    llvm::SetVector<Operation *> stage0;
    for (Operation &op : *body) {
      auto alloc = dyn_cast<LocalAllocOp>(op);
      if (!alloc || !alloc.getSrc())
        continue;
      auto load = alloc.getSrc().getDefiningOp<LoadOp>();
      if (!load || load->getBlock() != body || !load->hasOneUse() ||
          !isa<RankedTensorType>(load.getPtr().getType()) ||
          !isPositiveZero(load.getOther()))
        continue;
      if (unknownWrite ||
          (!writtenBases.empty() &&
           llvm::is_contained(writtenBases, pointerBase(load.getPtr()))) ||
          (!writtenBases.empty() && !pointerBase(load.getPtr())))
        continue;
      llvm::SetVector<Operation *> slice;
      if (failed(sliceOf(load.getPtr(), loop, slice)) ||
          (load.getMask() && failed(sliceOf(load.getMask(), loop, slice))))
        continue;
      stage0.insert(slice.begin(), slice.end());
      candidates.push_back({load, alloc});
    }
    if (candidates.empty())
      return success();

    // wgmma accumulating across iterations (a warpgroup_dot whose
    // accumulator is a loop-carried value it alone produces) runs
    // asynchronously: iteration i waits for iteration i - 1's group
    // (`warpgroup_dot_wait {pendings = 1}`) while its own runs. The copies
    // must not overwrite a buffer a group still reads: with S >= 4 buffers
    // they run S - 2 iterations ahead (not S - 1), into the buffer group
    // i - 2 read -- complete in every warpgroup by the CTA barrier after
    // this iteration's cp.async wait, so one barrier per iteration still
    // suffices. With 2 or 3 buffers they stay S - 1 ahead but are issued
    // after the wait for group i - 1 (and a barrier tile-insert-barriers
    // adds): on the H200, 3 buffers one ahead lost 15% to two ahead with
    // the second barrier; 4 buffers two ahead gain 0-3% over three ahead.
    SmallVector<WarpGroupDotOp> asyncDots;
    if (stages >= 2)
      for (Operation &op : body->without_terminator()) {
        auto dot = dyn_cast<WarpGroupDotOp>(op);
        if (!dot)
          continue;
        auto arg = dyn_cast<BlockArgument>(dot.getC());
        if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
            !dot.getD().hasOneUse() || !arg.hasOneUse())
          continue;
        OpOperand &use = *dot.getD().getUses().begin();
        if (use.getOwner() != body->getTerminator() ||
            use.getOperandNumber() != arg.getArgNumber() - 1)
          continue;
        asyncDots.push_back(dot);
      }
    // Iterations the copies run ahead; their buffers are `stages`.
    unsigned lookahead =
        !asyncDots.empty() && stages >= 4 ? stages - 2 : stages - 1;
    bool copiesLast = !asyncDots.empty() && lookahead == stages - 1;

    // Rewrite: multi-buffers before the loop, copies and views in it.
    IRRewriter rewriter(loop.getContext());
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    auto slotOf = [&](OpBuilder &b) -> Value {
      // ((iv - lb) / step) % stages, as i32.
      Value iv = loop.getInductionVar();
      Value n = arith::DivSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, iv, loop.getLowerBound()),
          loop.getStep());
      Value s = arith::RemSIOp::create(
          b, loc, n,
          arith::ConstantOp::create(b, loc,
                                    b.getIntegerAttr(iv.getType(), stages)));
      if (s.getType().isIndex())
        s = arith::IndexCastOp::create(b, loc, b.getI32Type(), s);
      else if (!s.getType().isInteger(32))
        s = arith::TruncIOp::create(b, loc, b.getI32Type(), s); // < stages
      return s;
    };
    SmallVector<Operation *> copies;
    Operation *firstUse = nullptr;
    for (Candidate &c : candidates) {
      MemDescType t = c.alloc.getResult().getType();
      SmallVector<int64_t> shape = {int64_t(stages)};
      shape.append(t.getShape().begin(), t.getShape().end());
      rewriter.setInsertionPoint(loop);
      auto bufType = MemDescType::get(shape, t.getElementType(),
                                      t.getEncoding(), /*mutable=*/true);
      Value buf = LocalAllocOp::create(rewriter, loc, bufType, Value());
      auto viewType = MemDescType::get(t.getShape(), t.getElementType(),
                                       t.getEncoding(), true);
      // The copy (stage 0), where the load was.
      rewriter.setInsertionPoint(c.load);
      Value slot0 = slotOf(rewriter);
      llvm::SetVector<Operation *> slotOps;
      (void)sliceOf(slot0, loop, slotOps);
      stage0.insert(slotOps.begin(), slotOps.end());
      auto dst = MemDescIndexOp::create(rewriter, loc, viewType, buf, slot0);
      auto copy = AsyncCopyOp::create(rewriter, c.load.getLoc(),
                                      c.load.getPtr(), dst, c.load.getMask());
      stage0.insert(dst);
      stage0.insert(copy);
      copies.push_back(copy);
      // The view the body reads (stage S - 1), where the alloc was.
      rewriter.setInsertionPoint(c.alloc);
      Value slot = slotOf(rewriter);
      Value view = MemDescIndexOp::create(rewriter, loc, viewType, buf, slot);
      Operation *slotStart = slot.getDefiningOp();
      while (slotStart->getNumOperands() &&
             slotStart->getOperand(0).getDefiningOp() &&
             slotStart->getOperand(0).getDefiningOp()->getBlock() == body)
        slotStart = slotStart->getOperand(0).getDefiningOp();
      if (!firstUse || slotStart->isBeforeInBlock(firstUse))
        firstUse = slotStart;
      // Views of the old buffer become views of the slot (types keep their
      // mutability: promote-to-shared allocates mutable buffers).
      if (c.alloc.getResult().getType() != viewType) {
        c.alloc.emitError("unimplemented: pipelining a buffer of type ")
            << c.alloc.getResult().getType();
        return failure();
      }
      rewriter.replaceAllUsesWith(c.alloc.getResult(), view);
      rewriter.eraseOp(c.alloc);
      rewriter.eraseOp(c.load);
    }
    // One commit group per iteration, after the last copy.
    Operation *lastCopy = nullptr;
    for (Operation *c : copies)
      if (!lastCopy || lastCopy->isBeforeInBlock(c))
        lastCopy = c;
    rewriter.setInsertionPointAfter(lastCopy);
    auto commit = AsyncCommitGroupOp::create(rewriter, loc);
    stage0.insert(commit);
    // The wait for this iteration's group, before its first use.
    rewriter.setInsertionPoint(firstUse);
    auto wait = AsyncWaitOp::create(rewriter, loc, int32_t(lookahead - 1));

    // Every stage-0 op must depend only on stage-0 ops of its iteration.
    for (Operation *op : stage0)
      for (Value o : op->getOperands())
        if (Operation *d = o.getDefiningOp();
            d && d->getBlock() == body && !stage0.contains(d)) {
          loop.emitError("internal: the copies' slice uses '")
              << d->getName() << "', computed after them";
          return failure();
        }

    for (WarpGroupDotOp dot : asyncDots) {
      dot.setIsAsync(true);
      rewriter.setInsertionPointAfter(dot);
      WarpGroupDotWaitOp::create(rewriter, dot.getLoc(), TypeRange(),
                                 ValueRange(), rewriter.getI32IntegerAttr(1));
    }

    // The schedule: the wait, stage 0 in order, then the rest in order
    // (with asynchronous dots: the wait, the rest, then stage 0).
    std::vector<std::pair<Operation *, unsigned>> schedule;
    schedule.push_back({wait, lookahead});
    auto addStage0 = [&] {
      for (Operation &op : body->without_terminator())
        if (stage0.contains(&op))
          schedule.push_back({&op, 0});
    };
    if (!copiesLast)
      addStage0();
    for (Operation &op : body->without_terminator())
      if (!stage0.contains(&op) && &op != wait.getOperation())
        schedule.push_back({&op, lookahead});
    if (copiesLast)
      addStage0();

    scf::PipeliningOption options;
    options.getScheduleFn =
        [schedule](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
          s = schedule;
        };
    options.peelEpilogue = false;
    options.supportDynamicLoops = true;
    options.predicateFn = [](RewriterBase &rw, Operation *op,
                             Value pred) -> Operation * {
      if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
        rw.setInsertionPoint(copy);
        auto ptrType = cast<RankedTensorType>(copy.getPtr().getType());
        Type maskType = getI1SameShape(ptrType);
        Value p = SplatOp::create(rw, copy.getLoc(), maskType, pred);
        Value mask = copy.getMask()
                         ? Value(arith::AndIOp::create(rw, copy.getLoc(),
                                                       copy.getMask(), p))
                         : p;
        copy.getMaskMutable().assign(mask);
        return op;
      }
      if (isa<AsyncCommitGroupOp>(op) || isMemoryEffectFree(op))
        return op;
      return nullptr;
    };
    bool modified = false;
    // The prologue goes where the rewriter points.
    rewriter.setInsertionPoint(loop);
    FailureOr<scf::ForOp> result =
        scf::pipelineForLoop(rewriter, loop, options, &modified);
    if (failed(result)) {
      if (modified)
        return loop.emitError("internal: software pipelining failed after "
                              "changing the loop");
      return loop.emitError("unimplemented: this loop could not be "
                            "software-pipelined; use num_stages=1");
    }
    rewriter.setInsertionPointAfter(*result);
    AsyncWaitOp::create(rewriter, loc, 0);
    // The accumulators are read after their last group completes.
    if (!asyncDots.empty()) {
      SmallVector<Value> accs;
      SmallVector<unsigned> accIdx;
      for (auto [i, res] : llvm::enumerate(result->getResults()))
        if (auto dot = result->getBody()->getTerminator()->getOperand(i)
                           .getDefiningOp<WarpGroupDotOp>();
            dot && dot.getIsAsync()) {
          accs.push_back(res);
          accIdx.push_back(unsigned(i));
        }
      // Their initial values enter the loop through a wait too (none is
      // pending there): its lowering defines the registers before the
      // loop, where ptxas needs them (see WarpGroupDotWaitLowering).
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(*result);
        SmallVector<Value> inits;
        for (unsigned i : accIdx)
          inits.push_back(result->getInits()[i]);
        auto entry = WarpGroupDotWaitOp::create(
            rewriter, loc, ValueRange(inits).getTypes(), inits,
            rewriter.getI32IntegerAttr(0));
        for (auto [i, v] : llvm::zip(accIdx, entry.getOutputs()))
          result->getInitsMutable()[i].assign(v);
      }
      auto done = WarpGroupDotWaitOp::create(
          rewriter, loc, ValueRange(accs).getTypes(), accs,
          rewriter.getI32IntegerAttr(0));
      for (auto [acc, out] : llvm::zip(accs, done.getOutputs()))
        acc.replaceAllUsesExcept(out, done);
    }
    return success();
  }
};

} // namespace
