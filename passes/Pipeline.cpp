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
// next iteration, the slot and its phase parity, carried as i32 counters),
// stage S - 1 everything else, in program order -- so
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
// does). Other loads stay where they are -- except, in a loop with such
// cp.async candidates (and no TMA copies), a 1-D load of elements of 4
// bytes or more feeding registers (a per-row statistic such as the
// attention backward's M), which gets a small local_alloc + local_load of
// its own and is then copied like the others.
//
// With `tma`, a `tile.desc_load` through a host-side descriptor whose only
// user is such a local_alloc into a `#tile.nvmma_shared` buffer (swizzled,
// last dimension contiguous) is copied by TMA instead, on the same
// schedule: stage 0 has one thread arrive on the slot's mbarrier expecting
// the iteration's bytes and issue `cp.async.bulk.tensor` boxes of
// [rows, swizzle bytes]; the consumer stage waits for the slot's phase,
// parity (i / S) & 1 for iteration i (slot i % S is filled for the
// (i / S)-th time). The kernel gains a `!tile.tensormap` argument after the
// descriptor's strides, which the runtime encodes (box and swizzle from its
// `tile.tma` attribute). Descriptor loads that are not copied so become
// masked loads (lowerDescriptorAccess) before the cp.async candidates are
// collected, so they may still be pipelined that way.
//
//===----------------------------------------------------------------------===//
#include "passes/FlattenLoops.h"
#include "passes/WarpSpecialize.h"
#include "passes/Target.h"
#include "passes/Passes.h"

#include "dialects/Tile/IR/Layouts.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/LayoutUtils.h"
#include "passes/SIMT/SIMTUtils.h"
#include "passes/SharedMemoryUtils.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
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

bool writesGlobalMemory(Operation *op) {
  return isa<StoreOp, AtomicRMWOp, AtomicCASOp, DescStoreOp>(op);
}

/// Whether TMA may access `desc`'s tensor (the kernel argument its base
/// comes from) beside the kernel's other accesses of it, which it would
/// not be ordered with: generic-proxy writes reach TMA reads only through
/// `fence.proxy.async.global`, and a TMA store's writes are complete only
/// after `cp.async.bulk.wait_group` without `.read` (PTX ISA 9.7.9.25). A
/// load (`forStore` false) needs no ordinary store, atomic or descriptor
/// store of the tensor in the kernel; a store no read of it and no
/// ordinary store or atomic (other descriptor stores, also TMA, may stay:
/// tutorial 09 stores a tile in halves). A pointer of unknown origin
/// counts as the tensor's.
bool tmaOrderedWithOtherAccesses(MakeTensorDescOp desc, bool forStore) {
  Value base = pointerBase(desc.getBase());
  auto func = desc->getParentOfType<FuncOp>();
  if (!base || !func)
    return false;
  WalkResult r = func.walk([&](Operation *op) {
    bool genericWrite = isa<StoreOp, AtomicRMWOp, AtomicCASOp>(op);
    bool conflict = forStore ? genericWrite || isa<LoadOp, DescLoadOp>(op)
                             : genericWrite || isa<DescStoreOp>(op);
    if (!conflict)
      return WalkResult::advance();
    Value other = pointerBase(op->getOperand(0));
    return !other || other == base ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return !r.wasInterrupted();
}

/// The 32-bit registers per thread of a tile of type `t`.
int64_t accumulatorRegisters(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  return getTotalElemsPerThread(tensor) *
         tensor.getElementType().getIntOrFloatBitWidth() / 32;
}

/// A warp-specialized flattened nest's loop whose consumer runs as
/// `groups` consumer groups taking turns over its tiles (ping-pong; see
/// tile-pipeline in Passes.td), and what its rewrite made: the release of
/// the previous iteration's slot, the slot and phase of this iteration
/// (computed at the body's start) and the position of the carried slot
/// (the phase follows it).
struct PingPong {
  FlatNest flat;
  scf::ForOp loop;
  MBarrierArriveOp release;
  MBarrierWaitOp fullWait; // the wait for this iteration's slot
  Value slot, phase;
  unsigned slotPos;
  Value emptyBars, turns;
  MemDescType barType;
  unsigned stages, groups;
  bool asyncChain;
};

/// Adapts consumer group `g`'s copy of `pp.loop` (`map` from the original)
/// to the group's tiles: tiles g, g + groups, ... of the program's, its
/// ring positions g * Kn, ... skipping (groups - 1) * Kn at each tile's
/// end, a tile's last slot released in the epilogue after the wait for
/// every group of the accumulator chain (the producer's next copy may go
/// to another group's tile), the groups' turns (below), and, for g > 0, no
/// nest without K steps (group 0 stores its tiles).
///
/// Turns: a wait for a slot's phase parity is only right while the slot's
/// "full" barrier is at most one round behind it; a group that skipped the
/// other's tile would otherwise take round r - 2's completion for round
/// r's (found on an H100: wrong data and a hang). So group g waits, at
/// each tile's first K step, on its turn barrier `turns[g]`, on which the
/// group before it (g - 1, cyclically) arrives at its own tile's last K
/// step, once it has waited for that slot: every slot before the tile is
/// then full, and the group's own waits keep the rule from there. The
/// turns alternate strictly, so their parities never alias either: group
/// g's j-th tile waits for the completion of phase j (phase j - 1 for
/// group 0, whose first tile waits for nobody). This is CUTLASS's ordered
/// barrier between ping-pong math warpgroups, for the same reason.
LogicalResult rewriteConsumerGroup(PingPong pp, IRMapping &map,
                                   unsigned g) {
  FlatNest &flat = pp.flat;
  auto loop = cast<scf::ForOp>(map.lookupOrDefault(pp.loop.getOperation()));
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  auto trunc = [&](Value v) -> Value {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  };
  int64_t n = pp.groups, S = pp.stages;
  // The group's tiles: ceil((Tn - g) / n) of them (Tn >= 0), from the
  // tile loop's start plus g steps, n steps apart.
  Value tn = map.lookupOrDefault(flat.tn), kn = map.lookupOrDefault(flat.kn);
  Value tiles = arith::DivSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, tn, c64(n - 1 - g)), c64(n));
  loop.setUpperBound(arith::MulIOp::create(b, loc, tiles, kn));
  Value lb = map.lookupOrDefault(flat.tileLb);
  Value step = map.lookupOrDefault(flat.tileStep);
  Type tileType = lb.getType();
  auto tileConst = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(tileType, v));
  };
  loop.getInitsMutable()[0].assign(arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, step, tileConst(g))));
  auto next = cast<arith::AddIOp>(
      map.lookupOrDefault(flat.tileNext.getOperation()));
  next->setOperand(1, arith::MulIOp::create(b, loc, step, tileConst(n)));
  // Ring positions: the carried slot and phase start at position
  // g * Kn - 1 (computed from g * Kn - 1 + S >= 0, one round later: the
  // phase flipped back); a tile's last iteration yields its position plus
  // (n - 1) * Kn, the other groups' tiles in between.
  Value start = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, kn, c64(g)), c64(S - 1));
  loop.getInitsMutable()[pp.slotPos].assign(
      trunc(arith::RemSIOp::create(b, loc, start, c64(S))));
  loop.getInitsMutable()[pp.slotPos + 1].assign(arith::XOrIOp::create(
      b, loc,
      trunc(arith::AndIOp::create(
          b, loc, arith::DivSIOp::create(b, loc, start, c64(S)), c64(1))),
      c32(1)));
  Value skip = arith::MulIOp::create(b, loc, kn, c64(n - 1));
  Value skipSlots = trunc(arith::RemSIOp::create(b, loc, skip, c64(S)));
  Value skipPhase = trunc(arith::AndIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, skip, c64(S)), c64(1)));
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  Value last = map.lookupOrDefault(flat.last);
  Value slot = map.lookupOrDefault(pp.slot);
  Value phase = map.lookupOrDefault(pp.phase);
  b.setInsertionPoint(yield);
  Value q = arith::AddIOp::create(b, loc, slot, skipSlots);
  Value wrap =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, q, c32(S));
  Value skippedSlot = arith::SelectOp::create(
      b, loc, wrap, arith::SubIOp::create(b, loc, q, c32(S)), q);
  Value skippedPhase = arith::XOrIOp::create(
      b, loc, arith::XOrIOp::create(b, loc, phase, skipPhase),
      arith::ExtUIOp::create(b, loc, b.getI32Type(), wrap));
  yield->setOperand(pp.slotPos,
                    arith::SelectOp::create(b, loc, last, skippedSlot, slot));
  yield->setOperand(pp.slotPos + 1, arith::SelectOp::create(
                                        b, loc, last, skippedPhase, phase));
  // With an asynchronous chain: the previous iteration's slot is released
  // after the next wait only within a tile; a tile's last slot, in the
  // epilogue after its wait for every group. (Two groups in flight,
  // `wait_group 2`, would give a group running alone more slack for the
  // loop's bookkeeping; ptxas 13 serializes the chain's wgmma then, C7511.)
  if (pp.asyncChain) {
    auto release =
        cast<MBarrierArriveOp>(map.lookupOrDefault(pp.release.getOperation()));
    b.setInsertionPoint(release);
    Value kidx = loop.getRegionIterArgs()[2];
    release.getPredMutable().assign(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, kidx,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(kidx.getType(), 0))));
    WarpGroupDotWaitOp wait;
    for (Operation &op : body->without_terminator())
      if (auto ifOp = dyn_cast<scf::IfOp>(op);
          ifOp && ifOp.getCondition() == last)
        for (Operation &inner : ifOp.thenBlock()->without_terminator())
          if (auto w = dyn_cast<WarpGroupDotWaitOp>(inner);
              w && w.getPendings() == 0 && !wait)
            wait = w;
    if (!wait)
      return loop.emitError("internal: no wait for the accumulator in the "
                            "epilogue of a ping-pong loop");
    b.setInsertionPointAfter(wait);
    Value empty = MemDescIndexOp::create(b, loc, pp.barType, pp.emptyBars,
                                         slot);
    MBarrierArriveOp::create(b, loc, empty, Value(), IntegerAttr());
  }
  // The turns.
  {
    auto fullWait =
        cast<MBarrierWaitOp>(map.lookupOrDefault(pp.fullWait.getOperation()));
    b.setInsertionPoint(fullWait);
    Value kidx = loop.getRegionIterArgs()[2];
    Value iv = loop.getInductionVar();
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kidx,
                                        c64(0));
    if (g == 0)
      first = arith::AndIOp::create(
          b, loc, first,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, iv, c64(0)));
    auto turn = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(turn.thenBlock());
      Value j = arith::DivSIOp::create(b, loc, iv, kn);
      if (g == 0)
        j = arith::SubIOp::create(b, loc, j, c64(1));
      Value parity = trunc(arith::AndIOp::create(b, loc, j, c64(1)));
      Value mine =
          MemDescIndexOp::create(b, loc, pp.barType, pp.turns, c32(g));
      MBarrierWaitOp::create(b, loc, mine, parity);
    }
    // (Passing the turn earlier, at K step max(0, Kn - S), was measured
    // within noise of this, with spills; and it is not safe in general:
    // the copies complete out of order, so a slot S positions back may
    // still be in flight -- only the asynchronous chain's release, one
    // iteration late, kept it right.)
    b.setInsertionPointAfter(fullWait);
    Value next = MemDescIndexOp::create(b, loc, pp.barType, pp.turns,
                                        c32((g + 1) % n));
    MBarrierArriveOp::create(b, loc, next, last, IntegerAttr());
  }
  if (g > 0) {
    auto version =
        cast<scf::IfOp>(map.lookupOrDefault(flat.version.getOperation()));
    if (Block *none = version.elseBlock())
      for (Operation &op :
           llvm::make_early_inc_range(llvm::reverse(none->without_terminator())))
        op.erase();
  }
  return success();
}

/// Marks the loops tile-pipeline has yet to look at; each is removed when
/// the loop is.
constexpr StringLiteral kPendingAttr = "tile.pipeline_pending";

class PipelinePass : public tilec::impl::TilePipelinePassBase<PipelinePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (warpSpecialize != "hint" && warpSpecialize != "on" &&
        warpSpecialize != "off") {
      getOperation().emitError("tile-pipeline: expected warp-specialize = "
                               "hint, on or off, found '")
          << warpSpecialize << "'";
      return signalPassFailure();
    }
    if (numConsumerGroups != 1 && numConsumerGroups != 2) {
      getOperation().emitError("tile-pipeline: expected num-consumer-groups = "
                               "1 or 2, found ")
          << unsigned(numConsumerGroups);
      return signalPassFailure();
    }
    if (clusterSize != 1 && clusterSize != 2) {
      getOperation().emitError("tile-pipeline: expected cluster-size = 1 or "
                               "2, found ")
          << unsigned(clusterSize);
      return signalPassFailure();
    }
    // Stores TMA may not write (decided before any load becomes a TMA
    // copy, while every access still names its descriptor or pointer).
    getOperation().walk([&](DescStoreOp store) {
      auto desc = store.getDesc().getDefiningOp<MakeTensorDescOp>();
      if (!desc || !tmaOrderedWithOtherAccesses(desc, /*forStore=*/true))
        unorderedStores.insert(store);
    });
    // tl.range(flatten=True): one loop for the nest where its shared memory
    // fits (the copies' buffers then live across the epilogue).
    SmallVector<scf::ForOp> nests;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kFlattenAttr))
        nests.push_back(loop);
    });
    for (scf::ForOp nest : nests) {
      FlatNest flat;
      if (worthFlattening(nest) &&
          flatSharedBytes(nest) <= int64_t(getSharedBudget(chip))) {
        if (flattenLoopNest(nest, &flat))
          flatNests[flat.loop] = flat;
      } else
        nest->removeAttr(kFlattenAttr);
    }
    foldAccumulatorResets(getOperation());
    // Every loop, in the order found. A warp-specialized split cleans its
    // regions up with scf's canonicalization, which may erase another loop
    // of the list (the flattened nest's version without K steps, when the
    // trip count is a constant: a use after free before), and copies the
    // others into the producer and the more consumer groups, where they are
    // not pipelined: after a split, the loops still to do are found again
    // by a mark, in the consumer.
    UnitAttr pending = UnitAttr::get(&getContext());
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      loop->setAttr(kPendingAttr, pending);
      loops.push_back(loop);
    });
    for (size_t k = 0; k < loops.size(); ++k) {
      scf::ForOp loop = loops[k];
      loop->removeAttr(kPendingAttr);
      size_t splits = specialized.size();
      if (failed(pipeline(loop)))
        return signalPassFailure();
      if (specialized.size() == splits)
        continue;
      getOperation().walk([&](WarpSpecializeOp ws) {
        for (Region &r : ws->getRegions())
          if (&r != &ws.getConsumer())
            r.walk([](scf::ForOp l) { l->removeAttr(kPendingAttr); });
      });
      loops.clear();
      k = size_t(-1); // (the loop's ++k makes it 0)
      getOperation().walk([&](scf::ForOp l) {
        if (l->hasAttr(kPendingAttr))
          loops.push_back(l);
      });
    }
    // (Copies a pipelined loop made of the loops nested in it keep a mark.)
    getOperation().walk([](scf::ForOp l) { l->removeAttr(kPendingAttr); });
    // Hints no loop could follow (not pipelined, nested, ...) go.
    getOperation().walk(
        [](scf::ForOp loop) { loop->removeAttr(kWarpSpecializeAttr); });
    // Descriptor loads no loop copies with TMA: masked loads; stores: TMA
    // stores where they can be, else masked stores.
    SmallVector<Operation *> rest;
    getOperation().walk([&](Operation *op) {
      if (isa<DescLoadOp, DescStoreOp>(op))
        rest.push_back(op);
    });
    for (Operation *op : rest) {
      if (auto store = dyn_cast<DescStoreOp>(op); store && tma)
        if (DictionaryAttr config = getTMAStoreConfig(store);
            config && stagingFits(store))
          if (tensorMapAgrees(
                  store.getDesc().getDefiningOp<MakeTensorDescOp>(), config)) {
            rewriteTMAStore(store, config);
            continue;
          }
      if (failed(lowerDescriptorAccess(op)))
        return signalPassFailure();
    }
    eraseDeadDescriptors(getOperation());
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
      if (!isMemoryEffectFree(def))
        return failure();
      if (slice.insert(def))
        for (Value o : getUsedValues(def))
          worklist.push_back(o);
    }
    return success();
  }

  /// A descriptor load tile-pipeline copies with TMA.
  struct TMACandidate {
    DescLoadOp load;
    LocalAllocOp alloc;
    MakeTensorDescOp desc;
    DictionaryAttr tma; // the tensor map's box and swizzle
  };

  /// Whether `v` is a kernel argument or defined directly in the kernel's
  /// body (not in a nested region).
  static bool definedAtTop(Value v, FuncOp func) {
    Block *entry = &func.getBody().front();
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == entry;
    return v.getDefiningOp()->getBlock() == entry;
  }

  /// The values from outside `loop` that `v`, computed in its body,
  /// depends on -- through the iteration arguments' initial values and
  /// what is yielded for them; the induction variable counts as its bounds
  /// (the caller's) and constants are left out. Failure where the
  /// computation touches memory, depends on a nested region's argument or
  /// on a value that is not an integer.
  static LogicalResult loopInvariantLeaves(Value v, scf::ForOp loop,
                                           llvm::SetVector<Value> &leaves) {
    SmallVector<Value> work = {v};
    DenseSet<Value> seen;
    Block *body = loop.getBody();
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(x)) {
        if (arg.getOwner() == body) {
          if (arg.getArgNumber() > 0) {
            unsigned i = arg.getArgNumber() - 1;
            work.push_back(body->getTerminator()->getOperand(i));
            work.push_back(loop.getInits()[i]);
          }
          continue;
        }
        if (loop->isAncestor(arg.getOwner()->getParentOp()))
          return failure();
      } else if (Operation *def = x.getDefiningOp(); loop->isAncestor(def)) {
        if (!isMemoryEffectFree(def))
          return failure();
        for (Value o : getUsedValues(def))
          work.push_back(o);
        continue;
      }
      if (matchPattern(x, m_Constant()))
        continue;
      if (!x.getType().isSignlessIntOrIndex())
        return failure();
      leaves.insert(x);
    }
    return success();
  }

  /// Which TMA copies of `loop` the two CTAs of a cluster may share
  /// (cluster-size = 2; see Passes.td): a copy's block is the same in both
  /// CTAs in every iteration when the values its coordinates are computed
  /// from (loopInvariantLeaves) and the loop's bounds are, and both reach
  /// the loop (the conditions of the scf.ifs around it hold in both). Those
  /// values are compared at run time, at the kernel's top level before
  /// the loop, by a `tile.cluster_agree` that every thread executes (so
  /// only scf.ifs whose conditions are computed at the top level may
  /// enclose the loop, and the values must be available there).
  struct MulticastPlan {
    SmallVector<Value> agree; // per TMA candidate; null: never multicast
    Value any;                // some copy is multicast (the same in both)
    Value exchange;           // the cluster_agree's buffer
  };
  std::optional<MulticastPlan> planMulticast(scf::ForOp loop,
                                             MutableArrayRef<TMACandidate> tma,
                                             RewriterBase &rewriter) {
    auto func = loop->getParentOfType<FuncOp>();
    SmallVector<std::pair<Value, bool>> conds; // (condition, in its then)
    Operation *top = loop;
    for (Operation *p = loop->getParentOp(); p != func.getOperation();
         top = p, p = p->getParentOp()) {
      auto ifOp = dyn_cast<scf::IfOp>(p);
      if (!ifOp || !definedAtTop(ifOp.getCondition(), func))
        return std::nullopt;
      conds.push_back({ifOp.getCondition(),
                       ifOp.getThenRegion().isAncestor(top->getParentRegion())});
    }
    llvm::SetVector<Value> bounds;
    for (Value b : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (!matchPattern(b, m_Constant()))
        bounds.insert(b);
    SmallVector<Value> values;
    SmallVector<int32_t> sizes;
    SmallVector<int> groupOf(tma.size(), -1);
    for (auto [k, c] : llvm::enumerate(tma)) {
      // A host descriptor has one map argument; the half box needs a
      // second, which only launch maps have.
      if (isHostTensorDescriptor(c.desc) ||
          c.alloc.getResult().getType().getShape()[0] % 16 != 0)
        continue;
      llvm::SetVector<Value> leaves(bounds.begin(), bounds.end());
      bool ok = true;
      for (Value index : c.load.getIndices())
        ok = ok && succeeded(loopInvariantLeaves(index, loop, leaves));
      if (!ok || !llvm::all_of(leaves, [&](Value v) {
            return v.getType().isSignlessIntOrIndex() && definedAtTop(v, func);
          }))
        continue;
      groupOf[k] = int(sizes.size());
      sizes.push_back(int32_t(leaves.size()));
      values.append(leaves.begin(), leaves.end());
    }
    if (sizes.empty())
      return std::nullopt;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(top);
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    auto enc = SharedEncodingAttr::get(ctx, 1, 1, 1, {0});
    Value x = LocalAllocOp::create(
        rewriter, loc,
        MemDescType::get({int64_t(values.size()) + 1}, rewriter.getI64Type(),
                         enc, true),
        Value());
    Value yes = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    Value ready = yes;
    for (auto [cond, inThen] : conds)
      ready = arith::AndIOp::create(
          rewriter, loc, ready,
          inThen ? cond : Value(arith::XOrIOp::create(rewriter, loc, cond, yes)));
    auto agree = ClusterAgreeOp::create(
        rewriter, loc, SmallVector<Type>(sizes.size(), rewriter.getI1Type()), x,
        ready, values, rewriter.getDenseI32ArrayAttr(sizes));
    MulticastPlan plan;
    plan.exchange = x;
    plan.any = agree.getAgree()[0];
    for (Value r : agree.getAgree().drop_front())
      plan.any = arith::OrIOp::create(rewriter, loc, plan.any, r);
    // Without multicast the peer's reads of the exchange end here;
    // with it, at the barrier before the loop.
    ClusterBarrierOp::create(
        rewriter, loc, arith::XOrIOp::create(rewriter, loc, plan.any, yes), x);
    for (int g : groupOf)
      plan.agree.push_back(g < 0 ? Value() : agree.getAgree()[g]);
    return plan;
  }

  /// The `tile.tma` attribute `load`'s tensor map needs, if TMA can copy
  /// its block into the buffer its only user allocates: a 2-D
  /// #tile.nvmma_shared buffer, swizzled, last dimension contiguous, the
  /// block a whole number of boxes of [rows <= 256, swizzle bytes].
  DictionaryAttr getTMAConfig(DescLoadOp load, Block *body) {
    if (!load->hasOneUse())
      return {};
    auto alloc = dyn_cast<LocalAllocOp>(*load->getUsers().begin());
    if (!alloc || alloc->getBlock() != body)
      return {};
    MemDescType t = alloc.getResult().getType();
    std::optional<std::array<int64_t, 2>> box = getTMABox(t);
    auto desc = load.getDesc().getDefiningOp<MakeTensorDescOp>();
    if (!box || !desc || !hasTensorMapSource(desc) ||
        !tmaOrderedWithOtherAccesses(desc, /*forStore=*/false))
      return {};
    return getTMAAttr(load.getContext(), *box,
                      cast<NVMMASharedEncodingAttr>(t.getEncoding()).getSwizzle(),
                      desc.getNanPadding());
  }

  /// The `tile.tma` attribute a TMA store of `store`'s block needs: the
  /// widest swizzle (128, 64 or 32 bytes) dividing its rows, at most 256
  /// rows; null if there is none or the descriptor is not a host one.
  DictionaryAttr getTMAStoreConfig(DescStoreOp store) {
    auto desc = store.getDesc().getDefiningOp<MakeTensorDescOp>();
    auto t = cast<RankedTensorType>(store.getSrc().getType());
    if (!desc || !hasTensorMapSource(desc) || unorderedStores.contains(store) ||
        t.getRank() != 2 ||
        desc.getNanPadding())
      return {};
    // The widest swizzle whose boxes tile the block.
    for (unsigned swizzle : {128u, 64u, 32u}) {
      auto enc = NVMMASharedEncodingAttr::get(t.getContext(), swizzle, false);
      if (std::optional<std::array<int64_t, 2>> box = getTMABox(
              MemDescType::get(t.getShape(), t.getElementType(), enc, false)))
        return getTMAAttr(t.getContext(), *box, swizzle, false);
    }
    return {};
  }

  /// The ops between the one layout conversion a stored block comes
  /// from and the store: the conversion and the elementwise ops computing
  /// the block from it (in program order; an activation, a scale, the
  /// dtype cast -- a DAG, as GELU's x * (1 + erf(x / sqrt 2)) / 2 uses x
  /// twice), whose other operands are splat constants or tile.splat
  /// scalars, each used only inside the DAG or by the store. A TMA store
  /// computes the DAG in the conversion's source layout instead (a shared
  /// buffer is written from any layout), so the conversion -- itself a trip
  /// through shared memory, of the wider accumulator -- goes away. Null
  /// conversion if the block is not such a DAG.
  struct EpilogueDag {
    ConvertLayoutOp cvt;
    SmallVector<Operation *> ops;
  };
  static bool isLayoutFreeLeaf(Operation *def) {
    Attribute attr;
    return isa<SplatOp>(def) ||
           (isa<arith::ConstantOp>(def) && matchPattern(def, m_Constant(&attr)) &&
            isa<SplatElementsAttr>(attr));
  }
  static EpilogueDag getEpilogueDag(Operation *store, Value v) {
    constexpr unsigned kMaxOps = 64;
    EpilogueDag dag;
    llvm::SmallPtrSet<Operation *, 16> ops;
    SmallVector<Value> work = {v};
    while (!work.empty()) {
      Value x = work.pop_back_val();
      Operation *def = x.getDefiningOp();
      if (!def)
        return {};
      // (Constants are hoisted: a leaf may be anywhere above.)
      if (x != v && isLayoutFreeLeaf(def))
        continue;
      if (def->getBlock() != store->getBlock())
        return {};
      if (auto cvt = dyn_cast<ConvertLayoutOp>(def)) {
        if (dag.cvt && dag.cvt != cvt)
          return {};
        dag.cvt = cvt;
        continue;
      }
      if (def->getNumResults() != 1 || def->getNumRegions() != 0 ||
          !def->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(def) ||
          !isa<RankedTensorType>(def->getResult(0).getType()))
        return {};
      if (!ops.insert(def).second)
        continue;
      if (ops.size() > kMaxOps)
        return {};
      for (Value operand : def->getOperands())
        work.push_back(operand);
    }
    if (!dag.cvt)
      return {};
    auto usedInside = [&](Operation *op) {
      return llvm::all_of(op->getUsers(), [&](Operation *user) {
        return ops.contains(user) || user == store;
      });
    };
    if (!usedInside(dag.cvt) || !llvm::all_of(ops, usedInside))
      return {};
    dag.ops.assign(ops.begin(), ops.end());
    llvm::sort(dag.ops, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    return dag;
  }

  /// The conversion and elementwise ops feeding `store` alone, which a TMA
  /// store of it replaces (see storedWithoutConversion), added to `ops`.
  static void addReplacedByTMAStore(DescStoreOp store,
                                    llvm::SmallPtrSetImpl<Operation *> &ops) {
    // (A conversion stored directly is a DAG of no ops.)
    EpilogueDag dag = getEpilogueDag(store, store.getSrc());
    if (!dag.cvt)
      return;
    ops.insert(dag.cvt);
    ops.insert(dag.ops.begin(), dag.ops.end());
  }

  /// Whether a TMA store's staging buffer for `store`'s block surely fits
  /// the shared memory of `chip` next to everything else the kernel
  /// allocates (every buffer counted as live at once, each rounded to the
  /// 1024-byte NVMMA alignment, plus the largest scratch an op needs, but
  /// for the conversions the store replaces): otherwise the store stays a
  /// masked store, which needs none.
  bool stagingFits(DescStoreOp store) {
    // The conversions feeding the store go away with it.
    llvm::SmallPtrSet<Operation *, 8> chain;
    addReplacedByTMAStore(store, chain);
    int64_t total =
        stagingBytes(store) +
        sharedBytesBound(store->getParentOfType<FuncOp>(), chain,
                         [&](Operation *op) { return exclusive(op, store); });
    return total <= int64_t(getSharedBudget(chip));
  }

  /// Whether `op` is in another branch than `anchor` of an scf.if around
  /// both, so never live with it (a flattened nest's zero-trip version).
  static bool exclusive(Operation *op, Operation *anchor) {
    for (auto ifOp = op->getParentOfType<scf::IfOp>(); ifOp;
         ifOp = ifOp->getParentOfType<scf::IfOp>())
      if (ifOp->isAncestor(anchor) &&
          ifOp.getThenRegion().isAncestor(op->getParentRegion()) !=
              ifOp.getThenRegion().isAncestor(anchor->getParentRegion()))
        return true;
    return false;
  }

  /// The staging buffer of `store` as a TMA store, rounded to 1 KiB.
  static int64_t stagingBytes(DescStoreOp store) {
    auto t = cast<RankedTensorType>(store.getSrc().getType());
    return roundToKiB(t.getNumElements() * getElementBytes(t.getElementType()));
  }

  static int64_t roundToKiB(int64_t bytes) {
    return (bytes + 1023) / 1024 * 1024;
  }

  /// An upper bound of `func`'s shared memory once laid out: every
  /// allocation and the largest scratch (but those of the ops in `skip`)
  /// live at once, in 1 KiB granules, leaving out the ops `exclusive`
  /// says are never live with the code in question; an operand buffer (a
  /// local_alloc of a load in a loop body) of `inner` counts `stages`
  /// times, as pipelining multiplies it -- with `everyLoop`, that of any
  /// loop its loop's stages times.
  int64_t
  sharedBytesBound(FuncOp func, const llvm::SmallPtrSetImpl<Operation *> &skip,
                   llvm::function_ref<bool(Operation *)> exclusive = nullptr,
                   scf::ForOp inner = {}, int64_t stages = 1,
                   bool everyLoop = false) {
    auto copies = [&](LocalAllocOp alloc) -> int64_t {
      if (!alloc.getSrc() ||
          !isa_and_nonnull<LoadOp, DescLoadOp>(alloc.getSrc().getDefiningOp()))
        return 1;
      if (inner && alloc->getBlock() == inner.getBody())
        return stages;
      if (auto loop = dyn_cast<scf::ForOp>(alloc->getParentOp());
          loop && everyLoop)
        return stagesFor(loop);
      return 1;
    };
    int64_t total = 0, scratch = 0;
    func.walk([&](Operation *op) {
      if (exclusive && exclusive(op))
        return;
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        int64_t bytes = roundToKiB(getMemDescBytes(alloc.getResult().getType()));
        total += bytes * copies(alloc);
      } else if (!skip.contains(op)) {
        scratch = std::max(scratch, roundToKiB(simt::getScratchBytes(op)));
      }
    });
    return total + scratch;
  }

  /// `store`'s block `v` in the layout it was computed in: a conversion
  /// skipped, or the epilogue DAG over one (getEpilogueDag) recomputed on
  /// the unconverted tile, its splat operands rebuilt in that layout.
  Value storedWithoutConversion(OpBuilder &b, Operation *store, Value v) {
    if (auto cvt = v.getDefiningOp<ConvertLayoutOp>())
      return cvt.getSrc();
    EpilogueDag dag = getEpilogueDag(store, v);
    if (!dag.cvt)
      return v;
    Attribute enc =
        cast<RankedTensorType>(dag.cvt.getSrc().getType()).getEncoding();
    IRMapping map;
    map.map(dag.cvt.getResult(), dag.cvt.getSrc());
    auto reencode = [&](Value leaf) {
      if (map.contains(leaf))
        return;
      Operation *def = leaf.getDefiningOp();
      if (!def || !isLayoutFreeLeaf(def))
        return;
      auto type = cast<RankedTensorType>(withEncoding(leaf.getType(), enc));
      Value c;
      if (auto splat = dyn_cast<SplatOp>(def)) {
        c = SplatOp::create(b, def->getLoc(), type, splat.getSrc());
      } else {
        Attribute attr;
        matchPattern(def, m_Constant(&attr));
        c = arith::ConstantOp::create(
            b, def->getLoc(), type,
            DenseElementsAttr::get(
                type, cast<SplatElementsAttr>(attr).getSplatValue<Attribute>()));
      }
      map.map(leaf, c);
    };
    for (Operation *op : dag.ops) {
      for (Value operand : op->getOperands())
        reencode(operand);
      Operation *c = b.clone(*op, map);
      c->getResult(0).setType(
          cast<RankedTensorType>(withEncoding(op->getResult(0).getType(), enc)));
    }
    return map.lookup(v);
  }

  /// desc.store(v) as a TMA store: v stored to an NVMMA buffer from the
  /// layout it was computed in (no conversion first), made visible to the
  /// async proxy, copied out by one thread, which waits until the copy has
  /// read the buffer (tile-insert-barriers orders the buffer's writes
  /// before the copy and its reuse after the wait).
  void rewriteTMAStore(DescStoreOp store, DictionaryAttr config) {
    auto desc = store.getDesc().getDefiningOp<MakeTensorDescOp>();
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value src = storedWithoutConversion(b, store, store.getSrc());
    auto t = cast<RankedTensorType>(src.getType());
    // TMA stores write whole 16-byte chunks of a row: past a size that is
    // not a multiple of 16 bytes they would write the chunk's padding, which
    // desc.store must not touch. Such a block, one reaching past the size,
    // is stored with masked stores instead:
    //   n % (16 / bytes) == 0  ||  j + BLOCK_N <= n      (in 64 bits).
    int64_t bytes = getElementBytes(t.getElementType());
    Type i64 = b.getI64Type();
    auto ext = [&](Value v) -> Value {
      return v.getType().isInteger(64)
                 ? v
                 : Value(arith::ExtSIOp::create(b, loc, i64, v));
    };
    auto c64 = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    Value n = ext(desc.getShape()[1]);
    Value whole = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemSIOp::create(b, loc, n, c64(std::max<int64_t>(1, 16 / bytes))),
        c64(0));
    Value end = arith::AddIOp::create(b, loc, ext(store.getIndices()[1]),
                                      c64(t.getShape()[1]));
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, n);
    Value useTMA = arith::OrIOp::create(b, loc, whole, inside);
    auto enc = NVMMASharedEncodingAttr::get(
        b.getContext(),
        unsigned(config.getAs<IntegerAttr>("swizzle").getInt()), false);
    auto bufType =
        MemDescType::get(t.getShape(), t.getElementType(), enc, false);
    // In a loop, the store's read of its buffer overlaps the iterations up
    // to the next store: the buffer is allocated before the outermost loop,
    // and each store first waits for the previous one's read (then a
    // barrier: tile-insert-barriers), with a last wait after that loop.
    // Otherwise the store waits right away.
    scf::ForOp outermost;
    for (auto l = store->getParentOfType<scf::ForOp>(); l;
         l = l->getParentOfType<scf::ForOp>())
      outermost = l;
    Value buf;
    if (outermost) {
      OpBuilder ob(outermost);
      buf = LocalAllocOp::create(
          ob, loc,
          MemDescType::get(t.getShape(), t.getElementType(), enc, true),
          Value());
      ob.setInsertionPointAfter(outermost);
      AsyncTMAStoreWaitOp::create(ob, loc, ob.getI32IntegerAttr(0));
      AsyncTMAStoreWaitOp::create(b, loc, b.getI32IntegerAttr(0));
      LocalStoreOp::create(b, loc, src, buf);
    } else {
      buf = LocalAllocOp::create(b, loc, bufType, src);
    }
    auto ifOp = scf::IfOp::create(b, loc, useTMA, /*withElseRegion=*/true);
    {
      OpBuilder tb = ifOp.getThenBodyBuilder();
      Value map = getOrAddTensorMap(desc, config);
      AsyncTMAStoreOp::create(tb, loc, map, store.getIndices(), buf);
      if (!outermost)
        AsyncTMAStoreWaitOp::create(tb, loc, tb.getI32IntegerAttr(0));
    }
    // Otherwise the buffer is stored with masked stores, a few rows at a
    // time in a coalesced layout (one 16-byte vector per thread and chunk):
    // the cold path then needs few registers, where storing the whole tile
    // from its accumulator layout spilled in the hot loop.
    OpBuilder eb = ifOp.getElseBodyBuilder();
    unsigned warps = store->getParentOfType<FuncOp>().getNumWarps(4);
    int64_t rows = t.getShape()[0], cols = t.getShape()[1];
    int64_t vec = std::min<int64_t>(cols, std::max<int64_t>(1, 16 / bytes));
    int64_t chunk = std::clamp<int64_t>(int64_t(warps) * 32 * vec / cols, 1,
                                        rows);
    auto chunkEnc = getBlockedEncoding(b.getContext(), {chunk, cols}, warps,
                                       unsigned(vec), {1, 0});
    auto viewType = MemDescType::get(
        b.getContext(), {chunk, cols}, t.getElementType(), enc,
        cast<MemDescType>(buf.getType()).getMutableMemory(), t.getShape());
    for (int64_t r = 0; r < rows; r += chunk) {
      Value view = MemDescSubviewOp::create(eb, loc, viewType, buf,
                                            eb.getDenseI64ArrayAttr({r, 0}));
      Value v = LocalLoadOp::create(
          eb, loc,
          RankedTensorType::get({chunk, cols}, t.getElementType(), chunkEnc),
          view);
      Value row = store.getIndices()[0];
      if (r)
        row = arith::AddIOp::create(
            eb, loc, row,
            arith::ConstantOp::create(eb, loc, eb.getI32IntegerAttr(int32_t(r))));
      auto chunkDesc = MakeTensorDescOp::create(
          eb, loc,
          TensorDescType::get(b.getContext(),
                              RankedTensorType::get({chunk, cols},
                                                    t.getElementType())),
          desc.getBase(), desc.getShape(), desc.getStrides(),
          desc.getNanPaddingAttr());
      auto masked = DescStoreOp::create(eb, loc, chunkDesc,
                                        ValueRange{row, store.getIndices()[1]}, v);
      (void)lowerDescriptorAccess(masked); // made by make_tensor_desc
      chunkDesc->erase();
    }
    // The buffer's bytes may be the next TMA copies' (operand slots of the
    // next tile): order these generic-proxy accesses before them.
    FenceAsyncSharedOp::create(eb, loc);
    Operation *dead = store.getSrc().getDefiningOp();
    store.erase();
    // The conversions (and recomputed ops) the store alone used.
    while (dead && dead->use_empty() && dead->getNumOperands() == 1 &&
           (isa<ConvertLayoutOp>(dead) ||
            (dead->hasTrait<OpTrait::Elementwise>() &&
             isMemoryEffectFree(dead)))) {
      Operation *next = dead->getOperand(0).getDefiningOp();
      dead->erase();
      dead = next;
    }
  }

  /// The index of the `!tile.tensormap` argument of the host descriptor
  /// `desc` (right after its strides), and its `tile.tma` if it has one.
  std::pair<unsigned, DictionaryAttr> tensorMapSlot(MakeTensorDescOp desc) {
    auto base = cast<BlockArgument>(desc.getBase());
    auto func = cast<FuncOp>(base.getOwner()->getParentOp());
    unsigned idx = base.getArgNumber() + 2 * desc.getShape().size();
    if (idx < func.getNumArguments() &&
        isa<TensorMapType>(func.getArgumentTypes()[idx]) &&
        !func.getArgAttr(idx, TileDialect::getTMASourceAttrName()))
      return {idx, func.getArgAttrOfType<DictionaryAttr>(
                       idx, TileDialect::getTMAAttrName())};
    return {idx, nullptr};
  }

  /// Whether `desc` can take a tensor map encoded as `tma`: it has none yet,
  /// or that one (a host descriptor has one map; the launch encodes as
  /// many as a device-side one needs).
  bool tensorMapAgrees(MakeTensorDescOp desc, DictionaryAttr tma) {
    if (!isHostTensorDescriptor(desc))
      return true;
    DictionaryAttr existing = tensorMapSlot(desc).second;
    return !existing || existing == tma;
  }

  /// The tensor map argument of `desc`, added (encoded as `tma`) if the
  /// kernel has none yet; tensorMapAgrees must hold. A host descriptor's
  /// follows its strides; a device-side descriptor's is a launch map,
  /// after every other argument, one per source and encoding.
  Value getOrAddTensorMap(MakeTensorDescOp desc, DictionaryAttr tma) {
    auto func = desc->getParentOfType<FuncOp>();
    Builder b(func.getContext());
    if (!isHostTensorDescriptor(desc)) {
      DictionaryAttr source = getLaunchTensorMapSource(desc);
      StringRef sourceName = TileDialect::getTMASourceAttrName();
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (func.getArgAttr(i, sourceName) == source &&
            func.getArgAttr(i, TileDialect::getTMAAttrName()) == tma)
          return func.getArgument(i);
      unsigned idx = func.getNumArguments();
      (void)func.insertArgument(
          idx, TensorMapType::get(func.getContext()),
          b.getDictionaryAttr(
              {b.getNamedAttr(TileDialect::getTMAAttrName(), tma),
               b.getNamedAttr(sourceName, source)}),
          desc.getLoc());
      return func.getArgument(idx);
    }
    auto [idx, existing] = tensorMapSlot(desc);
    if (!existing) {
      (void)func.insertArgument(
          idx, TensorMapType::get(func.getContext()),
          b.getDictionaryAttr(
              b.getNamedAttr(TileDialect::getTMAAttrName(), tma)),
          desc.getLoc());
    }
    return func.getArgument(idx);
  }

  /// Whether flattening `outer` is expected to pay: its inner loop is
  /// pipelined (two or more stages) and copies TMA candidates (host
  /// descriptor blocks into wgmma buffers). Measured so far: the TMA GEMM
  /// gains 2-6% (one K step per tile: 1.4x); a pointer GEMM flattened
  /// carries its offsets across the epilogue (146 -> 232 registers on
  /// sm_90a, spills on sm_80), so pointer nests keep their loops.
  bool worthFlattening(scf::ForOp outer) {
    if (!tma)
      return false;
    scf::ForOp inner = getInnerLoop(outer);
    if (!inner || stagesFor(inner) < 2)
      return false;
    for (Operation &in : *inner.getBody())
      if (auto load = dyn_cast<DescLoadOp>(in);
          load && getTMAConfig(load, inner.getBody()))
        return true;
    return false;
  }

  /// The shared memory the kernel of `outer` needs at most if the nest is
  /// flattened and pipelined (pipelinedSharedBytes of its inner loop).
  int64_t flatSharedBytes(scf::ForOp outer) {
    scf::ForOp inner = getInnerLoop(outer);
    if (!inner)
      return 0;
    bool ws = outer->hasAttr(kWarpSpecializeAttr) ||
              inner->hasAttr(kWarpSpecializeAttr);
    return pipelinedSharedBytes(inner, stagesFor(inner), ws);
  }

  /// The shared memory `loop`'s kernel needs at most once `loop` is
  /// pipelined with `stages` buffers: every buffer and the largest scratch
  /// live at once, the loop's operand buffers times the stages, a TMA
  /// store's staging buffer in place of the conversions it replaces (as
  /// stagingFits counts), and the slots' mbarriers ("full", and "empty"
  /// when warp-specialized).
  int64_t pipelinedSharedBytes(scf::ForOp loop, int64_t stages, bool ws) {
    auto func = loop->getParentOfType<FuncOp>();
    llvm::SmallPtrSet<Operation *, 8> replaced;
    int64_t total = 0;
    auto notWithLoop = [&](Operation *op) { return exclusive(op, loop); };
    func.walk([&](DescStoreOp store) {
      if (tma && !notWithLoop(store) && getTMAStoreConfig(store)) {
        total += stagingBytes(store);
        addReplacedByTMAStore(store, replaced);
      }
    });
    total += (ws ? 2 : 1) * roundToKiB(8 * stages);
    // (Warp-specialized, no buffer reuses another loop's: count them all.)
    return total + sharedBytesBound(func, replaced, notWithLoop, loop, stages,
                                    /*everyLoop=*/ws);
  }

  /// Whether `loop` gets a producer warp (tl.range(...,
  /// warp_specialize=True), or every loop with warp-specialize=on): the
  /// target has setmaxnreg, the kernel's warps are whole warpgroups, and
  /// no other loop of the kernel has one.
  bool wantsWarpSpecialization(scf::ForOp loop, std::string &why) {
    if (warpSpecialize == "off" ||
        (warpSpecialize != "on" && !loop->hasAttr(kWarpSpecializeAttr))) {
      why = "warp specialization is off";
      return false;
    }
    auto func = loop->getParentOfType<FuncOp>();
    // (A CTA has at most 32 warps, the producer warpgroup included.)
    if (!getTarget(chip).hasSetMaxNReg() || !func) {
      why = "the target has no setmaxnreg";
      return false;
    }
    if (func.getNumWarps() % 4 || func.getNumWarps() + 4 > 32) {
      why = "the kernel's warps are not whole warpgroups with room for a "
            "producer warpgroup (at most 28 warps)";
      return false;
    }
    if (specialized.contains(func)) {
      why = "another loop of the kernel has the producer warp";
      return false;
    }
    // The slots stay live through the whole kernel (the producer runs
    // beside everything the consumers do: no later buffer reuses them), so
    // the bound that assumes no reuse must fit.
    int64_t bytes = pipelinedSharedBytes(loop, stagesFor(loop), /*ws=*/true);
    if (bytes > int64_t(getSharedBudget(chip))) {
      why = "its slots, live through the whole kernel beside every other "
            "buffer, would need " + std::to_string(bytes) +
            " bytes of shared memory, more than the " +
            std::to_string(getSharedBudget(chip)) + " " + std::string(chip) +
            " allows";
      return false;
    }
    return true;
  }

  /// Descriptor stores TMA may not write (tmaOrderedWithOtherAccesses).
  llvm::SmallPtrSet<Operation *, 8> unorderedStores;

  /// Kernels already split by warp specialization.
  llvm::SmallPtrSet<Operation *, 4> specialized;

  /// The loops flattenLoopNest made, and their facts.
  DenseMap<Operation *, FlatNest> flatNests;

  /// The consumer groups the warp-specialized `loop` gets: 1, or
  /// num-consumer-groups where ping-pong applies (tile-pipeline in
  /// Passes.td): a flattened nest (`flat`) whose tile loop carries nothing,
  /// directly in the kernel, beside ops free of side effects; an
  /// asynchronous accumulator chain read only by the epilogue; the warps
  /// and the shared memory of the groups (each one's TMA store staging
  /// buffers and scratch) fitting the CTA, and 64 registers per thread
  /// besides the accumulators.
  unsigned consumerGroups(scf::ForOp loop, FlatNest *flat,
                          ArrayRef<std::pair<WarpGroupDotOp, scf::IfOp>> asyncDots,
                          ArrayRef<TMACandidate> tmaCandidates,
                          unsigned stages) {
    unsigned groups = numConsumerGroups;
    if (groups == 1)
      return 1;
    auto func = loop->getParentOfType<FuncOp>();
    // (Asked for explicitly: the user hears why not, at the tile loop.)
    auto refuse = [&](StringRef why) {
      loop.emitWarning() << "num-consumer-groups = " << groups
                         << " does not apply to this loop (" << why
                         << "); it keeps one consumer group";
      return 1u;
    };
    if (!flat)
      return refuse("not a flattened loop nest");
    if (flat->carriesAcrossTiles)
      return refuse("the tile loop carries values");
    if (flat->version->getParentOp() != func.getOperation())
      return refuse("the nest is not directly in the kernel");
    for (Operation &op : func.getBody().front().without_terminator())
      if (&op != flat->version.getOperation() && !isMemoryEffectFree(&op))
        return refuse("the kernel has side effects outside the nest");
    for (auto [dot, reader] : asyncDots)
      if (!reader || reader.getCondition() != flat->last)
        return refuse("the accumulator is read outside the epilogue");
    // A group's tiles run beside the other's, out of the loop's order: the
    // tiles may share no memory but what the copies read. So the nest
    // reads memory only through the TMA copies (host or launch-map
    // descriptors) and writes it only through descriptor stores TMA may
    // write (no pointer load, store or atomic, no other descriptor load,
    // no store to a tensor the kernel also accesses otherwise). What this
    // cannot see, two tiles of a program storing the same block, is the
    // option's premise (docs/cli.md), as in a persistent GEMM.
    WalkResult shared = loop.walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
        return WalkResult::interrupt();
      if (auto load = dyn_cast<DescLoadOp>(op);
          load && !llvm::any_of(tmaCandidates, [&](const TMACandidate &c) {
            return c.load == load;
          }))
        return WalkResult::interrupt();
      if (auto store = dyn_cast<DescStoreOp>(op);
          store && unorderedStores.contains(store))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (shared.wasInterrupted())
      return refuse("the tiles access memory other than through TMA");
    if (func.getNumWarps() * groups + 4 > 32)
      return refuse("too many warps");
    // Each group holds its accumulators: leave room for the rest (128x128
    // on 4 warps: 128 of 232 registers per thread).
    int64_t accRegs = 0;
    for (auto [dot, reader] : asyncDots)
      accRegs += accumulatorRegisters(dot.getD().getType());
    if (accRegs + 64 >
        getPartitionRegisters(func.getNumWarps() * groups).consumer)
      return refuse("the accumulators leave too few registers");
    // What one more group needs: the loop's TMA store staging buffers and
    // its largest scratch but for the conversions those stores replace
    // (pipelinedSharedBytes counts one group's). The kernel's other TMA
    // stores (the nest without K steps) count too: stagingFits, deciding
    // each store in turn, counts every other buffer as live, and a store
    // it refuses keeps a conversion whose scratch may not fit (a 64x256
    // tile's 64 KiB for each group).
    int64_t staging = 0, scratch = 0, elsewhere = 0;
    llvm::SmallPtrSet<Operation *, 8> replaced;
    func.walk([&](DescStoreOp store) {
      if (!tma || !getTMAStoreConfig(store))
        return;
      int64_t bytes = stagingBytes(store);
      if (!loop->isAncestor(store)) {
        elsewhere += bytes;
        return;
      }
      staging += bytes;
      addReplacedByTMAStore(store, replaced);
    });
    loop.walk([&](Operation *op) {
      if (!replaced.contains(op))
        scratch = std::max(scratch, roundToKiB(simt::getScratchBytes(op)));
    });
    // Every group also runs the kernel's code around the loop (but for
    // the nest without K steps): its buffers and scratch are copied too.
    int64_t around = 0;
    func.walk([&](Operation *op) {
      if (loop->isAncestor(op) ||
          flat->version.getElseRegion().isAncestor(op->getParentRegion()))
        return;
      if (auto alloc = dyn_cast<LocalAllocOp>(op))
        around += roundToKiB(getMemDescBytes(alloc.getResult().getType()));
      scratch = std::max(scratch, roundToKiB(simt::getScratchBytes(op)));
    });
    if (pipelinedSharedBytes(loop, stages, /*ws=*/true) + elsewhere +
            int64_t(groups - 1) * (staging + scratch + around) >
        int64_t(getSharedBudget(chip)))
      return refuse("the groups' shared memory does not fit");
    return groups;
  }

  /// In `reader` (an scf.if of the loop body), the asynchronous `dot`'s
  /// result is read after a wait for all groups; `reader` yields the
  /// waited value in the regions that read it, and the dot's in the others,
  /// and the loop carries that (iteration argument `pos`) -- so that the
  /// registers are not live twice.
  scf::IfOp readAfterWait(IRRewriter &rewriter, WarpGroupDotOp dot,
                          scf::IfOp reader, unsigned pos) {
    Value d = dot.getD();
    SmallVector<Value> perRegion;
    for (Region &region : reader->getRegions()) {
      if (region.empty()) {
        perRegion.push_back(d);
        continue;
      }
      Block &block = region.front();
      bool reads = llvm::any_of(d.getUsers(), [&](Operation *u) {
        return region.isAncestor(u->getParentRegion());
      });
      if (!reads) {
        perRegion.push_back(d);
        continue;
      }
      rewriter.setInsertionPointToStart(&block);
      auto wait = WarpGroupDotWaitOp::create(rewriter, dot.getLoc(),
                                             d.getType(), d,
                                             rewriter.getI32IntegerAttr(0));
      d.replaceUsesWithIf(wait.getOutputs()[0], [&](OpOperand &use) {
        return use.getOwner() != wait &&
               region.isAncestor(use.getOwner()->getParentRegion());
      });
      // The waited registers go on to the next iteration's dot (which,
      // with use_acc false there, ignores them): yielding anything else
      // (zeros) defines accumulator registers outside wgmma, and ptxas
      // then serializes every wgmma of the kernel (C7515).
      perRegion.push_back(wait.getOutputs()[0]);
    }
    // The if with one more result.
    rewriter.setInsertionPoint(reader);
    SmallVector<Type> types(reader.getResultTypes());
    types.push_back(d.getType());
    auto grown = scf::IfOp::create(rewriter, reader.getLoc(), types,
                                   reader.getCondition(),
                                   /*withElseRegion=*/true);
    for (auto [i, region] : llvm::enumerate(reader->getRegions())) {
      Region &to = grown->getRegion(i);
      to.getBlocks().clear();
      if (region.empty()) {
        Block *block = rewriter.createBlock(&to);
        rewriter.setInsertionPointToEnd(block);
        scf::YieldOp::create(rewriter, reader.getLoc(), perRegion[i]);
        continue;
      }
      to.takeBody(region);
      Operation *yield = to.front().getTerminator();
      yield->insertOperands(yield->getNumOperands(), perRegion[i]);
    }
    for (auto [from, to] : llvm::zip(reader.getResults(), grown.getResults()))
      from.replaceAllUsesWith(to);
    rewriter.eraseOp(reader);
    dot->getBlock()->getTerminator()->setOperand(pos, grown.getResults().back());
    return grown;
  }

  /// `warpgroup_dot(a, b, select(c, 0, acc))` -> `warpgroup_dot(a, b, acc,
  /// use_acc = !c)` (c a scalar): the accumulator reset of a flattened loop
  /// nest, done by wgmma's scale-d instead of a select per register.
  static void foldAccumulatorResets(ModuleOp module) {
    module.walk([](WarpGroupDotOp dot) {
      auto select = dot.getC().getDefiningOp<arith::SelectOp>();
      if (!select || dot.getUseAcc() || !select.getCondition().getType().isInteger(1) ||
          !(matchPattern(select.getTrueValue(), m_AnyZeroFloat()) ||
            matchPattern(select.getTrueValue(), m_Zero())))
        return;
      OpBuilder b(dot);
      Value keep = arith::XOrIOp::create(
          b, select.getLoc(), select.getCondition(),
          arith::ConstantIntOp::create(b, select.getLoc(), 1, 1));
      dot.getCMutable().assign(select.getFalseValue());
      dot.getUseAccMutable().assign(keep);
      if (select->use_empty())
        select->erase();
    });
  }

  /// `loop` -- pipelined, with a deferred dot: its result carried as
  /// iteration argument `pendPos`, read through a `warpgroup_dot_wait
  /// {pendings = 1}` that feeds its add -- unrolled by two, so that no in-flight accumulator crosses the back
  /// edge in a copy: iteration 2j's dot writes one set of registers, 2j+1's
  /// another, and the argument takes 2j+1's in place of the set its wait
  /// last read (a copy of registers a wgmma still writes makes ptxas
  /// serialize every wgmma of the kernel, C7514). An odd trip count's last
  /// iteration runs after the loop in an scf.if, its wait before its dot
  /// (with none pending) and so its add, for the same reason; the
  /// iteration 2j+1 and the last one write their dot into the registers
  /// of the carried result their wait has just retired.
  /// Returns the new loop and the scf.if whose results replace `loop`'s.
  std::pair<scf::ForOp, scf::IfOp>
  unrollForDeferredDot(RewriterBase &rewriter, scf::ForOp loop,
                       unsigned pendPos) {
    Block *body = loop.getBody();
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    Type t = lb.getType();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(rewriter, loc, t,
                                       rewriter.getIntegerAttr(t, v));
    };
    // (No iteration where ub <= lb, whatever the step's sign.)
    Value trips = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, ub,
                              lb),
        arith::MaxSIOp::create(
            rewriter, loc,
            arith::CeilDivSIOp::create(
                rewriter, loc, arith::SubIOp::create(rewriter, loc, ub, lb),
                step),
            constant(0)),
        constant(0));
    Value pairs = arith::DivUIOp::create(rewriter, loc, trips, constant(2));
    Value step2 = arith::MulIOp::create(rewriter, loc, step, constant(2));
    Value ub2 = arith::AddIOp::create(
        rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, pairs, step2));
    // Clones `body` at the builder's point, the induction variable and
    // the iteration arguments mapped to `iv` and `args`; returns what it
    // yields.
    auto cloneBody = [&](OpBuilder &b, Value iv, ValueRange args,
                         IRMapping &map) {
      map.map(loop.getInductionVar(), iv);
      map.map(loop.getRegionIterArgs(), args);
      for (Operation &op : body->without_terminator())
        b.clone(op, map);
      SmallVector<Value> yields;
      for (Value v : body->getTerminator()->getOperands())
        yields.push_back(map.lookupOrDefault(v));
      return yields;
    };
    // The deferred wait (the carried result's one user) and its dot (what
    // the loop yields for it).
    auto wait = cast<WarpGroupDotWaitOp>(
        *loop.getRegionIterArgs()[pendPos].getUsers().begin());
    auto dot = cast<WarpGroupDotOp>(
        body->getTerminator()->getOperand(pendPos).getDefiningOp());
    // In the copy `map` made, the deferred wait and its add go before the
    // dot, with none pending.
    auto waitBeforeDot = [&](IRMapping &map) {
      auto copy = cast<WarpGroupDotWaitOp>(map.lookup(wait.getOperation()));
      copy.setPendings(0);
      copy->moveBefore(map.lookup(dot.getOperation()));
      (*copy->getUsers().begin())->moveAfter(copy);
    };
    // The copy's dot writes the registers the copy `waited` made of the
    // deferred wait defines, which its add has read: the accumulator
    // operand, ignored (use_acc false), ties them, as an accumulator chain
    // is tied, instead of leaving the choice to the register coalescer
    // (which, across a branchy body, copied an in-flight result on the
    // back edge).
    auto writeInto = [&](IRMapping &map, IRMapping &waited) {
      auto copy = cast<WarpGroupDotOp>(map.lookup(dot.getOperation()));
      OpBuilder b(copy);
      copy.getCMutable().assign(
          cast<WarpGroupDotWaitOp>(waited.lookup(wait.getOperation()))
              .getOutputs()[0]);
      copy.getUseAccMutable().assign(
          arith::ConstantIntOp::create(b, copy.getLoc(), 0, 1));
    };
    auto pairLoop = scf::ForOp::create(
        rewriter, loc, lb, ub2, step2, loop.getInits(),
        [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
          IRMapping first, second;
          SmallVector<Value> mid = cloneBody(b, iv, args, first);
          waitBeforeDot(first);
          Value next = arith::AddIOp::create(b, l, iv, step);
          scf::YieldOp::create(b, l, cloneBody(b, next, mid, second));
          writeInto(second, first);
        });
    pairLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    Value odd = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(rewriter, loc, trips, constant(1)), constant(0));
    auto last = scf::IfOp::create(
        rewriter, loc, odd,
        [&](OpBuilder &b, Location l) {
          IRMapping map;
          SmallVector<Value> yields =
              cloneBody(b, ub2, pairLoop.getResults(), map);
          waitBeforeDot(map);
          writeInto(map, map);
          scf::YieldOp::create(b, l, yields);
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, pairLoop.getResults());
        });
    rewriter.replaceOp(loop, last.getResults());
    return std::make_pair(pairLoop, last);
  }

  LogicalResult pipeline(scf::ForOp loop) {
    unsigned stages = stagesFor(loop);
    if (stages < 2)
      return success();
    std::optional<FlatNest> flat;
    if (auto it = flatNests.find(loop); it != flatNests.end())
      flat = it->second;
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

    // Descriptor loads: copied with TMA, or masked loads from here on.
    llvm::SetVector<Operation *> stage0;
    SmallVector<TMACandidate> tmaCandidates;
    for (Operation &op : llvm::make_early_inc_range(*body)) {
      auto load = dyn_cast<DescLoadOp>(&op);
      if (!load)
        continue;
      DictionaryAttr config = tma ? getTMAConfig(load, body) : nullptr;
      auto desc = load.getDesc().getDefiningOp<MakeTensorDescOp>();
      llvm::SetVector<Operation *> slice;
      bool ok = config && !unknownWrite &&
                !llvm::is_contained(writtenBases, desc.getBase()) &&
                tensorMapAgrees(desc, config);
      for (Value index : load.getIndices())
        ok = ok && succeeded(sliceOf(index, loop, slice));
      // Two loads of one map in this loop must agree (checked above for
      // maps added by earlier loops).
      for (TMACandidate &c : tmaCandidates)
        if (ok && c.desc.getBase() == desc.getBase() && c.tma != config)
          ok = false;
      if (ok) {
        stage0.insert(slice.begin(), slice.end());
        auto alloc = cast<LocalAllocOp>(*load->getUsers().begin());
        tmaCandidates.push_back({load, alloc, desc, config});
        continue;
      }
      if (failed(lowerDescriptorAccess(load)))
        return failure();
    }

    struct Candidate {
      LoadOp load;
      LocalAllocOp alloc;
    };
    SmallVector<Candidate> candidates;
    // Whether `load` may be copied ahead: not volatile, zero-filled where
    // masked, not reading what the loop writes, and its pointers and mask
    // computed from the induction variable and loop-invariant values
    // (added to `slice`).
    auto copyable = [&](LoadOp load, llvm::SetVector<Operation *> &slice) {
      if (load->getBlock() != body ||
          load->hasAttr(TileDialect::getVolatileAttrName()) ||
          !isa<RankedTensorType>(load.getPtr().getType()) ||
          !isPositiveZero(load.getOther()))
        return false;
      if (unknownWrite ||
          (!writtenBases.empty() &&
           llvm::is_contained(writtenBases, pointerBase(load.getPtr()))) ||
          (!writtenBases.empty() && !pointerBase(load.getPtr())))
        return false;
      return succeeded(sliceOf(load.getPtr(), loop, slice)) &&
             (!load.getMask() || succeeded(sliceOf(load.getMask(), loop, slice)));
    };
    for (Operation &op : *body) {
      auto alloc = dyn_cast<LocalAllocOp>(op);
      if (!alloc || !alloc.getSrc())
        continue;
      auto load = alloc.getSrc().getDefiningOp<LoadOp>();
      llvm::SetVector<Operation *> slice;
      if (!load || !load->hasOneUse() || !copyable(load, slice))
        continue;
      stage0.insert(slice.begin(), slice.end());
      candidates.push_back({load, alloc});
    }
    if (candidates.empty() && tmaCandidates.empty())
      return success();
    // In a loop whose dot operands are copied with cp.async, a 1-D load of
    // elements of 4 bytes or more feeding registers (the backward's per-row
    // M and Delta, subtracted from a dot's result every iteration) is
    // copied with them: through a small shared buffer per stage, read back
    // into its layout where it was loaded, instead of a global load whose
    // latency each iteration waits for. (Not with TMA copies: those loops
    // may be warp-specialized, where the producer issues only TMA.)
    if (tmaCandidates.empty()) {
      SmallVector<LoadOp> small;
      for (Operation &op : *body)
        if (auto load = dyn_cast<LoadOp>(op)) {
          auto t = dyn_cast<RankedTensorType>(load.getType());
          if (t && t.getRank() == 1 && t.getEncoding() &&
              getElementBytes(t.getElementType()) >= 4 &&
              !llvm::any_of(load->getUsers(), [](Operation *u) {
                return isa<LocalAllocOp>(u);
              }))
            small.push_back(load);
        }
      for (LoadOp load : small) {
        llvm::SetVector<Operation *> slice;
        if (!copyable(load, slice))
          continue;
        auto t = cast<RankedTensorType>(load.getType());
        OpBuilder b(load);
        b.setInsertionPointAfter(load);
        auto bufType = MemDescType::get(t.getShape(), t.getElementType(),
                                        sharedEncodingFor(t, {0}),
                                        /*mutableMemory=*/true);
        auto alloc = LocalAllocOp::create(b, load.getLoc(), bufType, load);
        Value back = LocalLoadOp::create(b, load.getLoc(), t, alloc);
        load.getResult().replaceAllUsesExcept(back, alloc);
        stage0.insert(slice.begin(), slice.end());
        candidates.push_back({load, alloc});
      }
    }

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
    //
    // The result may also be read in one scf.if of the body (a flattened
    // nest's epilogue, at a tile's last K step): there it is read through a
    // wait for all groups, which the if then yields to the next iteration.
    SmallVector<std::pair<WarpGroupDotOp, scf::IfOp>> asyncDots;
    if (stages >= 2)
      for (Operation &op : body->without_terminator()) {
        auto dot = dyn_cast<WarpGroupDotOp>(op);
        if (!dot)
          continue;
        auto arg = dyn_cast<BlockArgument>(dot.getC());
        if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
            !arg.hasOneUse())
          continue;
        unsigned pos = arg.getArgNumber() - 1;
        bool carried = false, ok = true;
        scf::IfOp reader;
        for (OpOperand &use : dot.getD().getUses()) {
          Operation *user = use.getOwner();
          if (user == body->getTerminator()) {
            carried |= use.getOperandNumber() == pos;
            ok &= use.getOperandNumber() == pos;
            continue;
          }
          auto top = dyn_cast_or_null<scf::IfOp>(body->findAncestorOpInBlock(*user));
          ok &= top && top != user && (!reader || reader == top);
          reader = top;
        }
        if (ok && carried)
          asyncDots.push_back({dot, reader});
      }
    // Deferred accumulation: `acc = acc + warpgroup_dot(a, b, 0)` (Triton's
    // precise-accumulation idiom, `acc += tl.dot(a, b)` with fp8 operands,
    // whose wgmma adds with less than fp32 precision) has its add wait for
    // the dot. Synchronously the tensor cores idle through the wait and the
    // add; instead the loop carries the dot's result and iteration i adds
    // iteration i - 1's, after a wait for all groups but its own, so that
    // dot i runs under the add (the additions stay in the same order, each
    // an fp32 add as before). The loop's last dot is added after it. It
    // costs a third accumulator's registers, so it is done only where the
    // accumulator takes at most 64 per thread (with 128, 128x128 on 4
    // warps, ptxas spilled 3.3 KB per thread where the synchronous loop
    // spilled 1 KB) and in loops whose copies are all TMA (a cp.async
    // loop carries pointer tiles: the plain-i32 fp8 GEMM spilled 7.3 KB
    // instead of 4 KB), for one such dot in a loop that carries no other
    // tile, is not nested in another loop, has no accumulator chain (a
    // chain's group is retired early by the wait below: ptxas serialized
    // the kernel, C7514) and reads both operands from the blocks its TMA
    // copies fill (an A computed in the loop spilled 1.2 KB instead of
    // 0.3), with 4 or more stages: with 2 or 3 the copies
    // follow the dots (see below), the carried result was copied on the
    // back edge while in flight and ptxas serialized the kernel's wgmma
    // (C7514) in each configuration tried.
    struct DeferredDot {
      WarpGroupDotOp dot;
      arith::AddFOp add; // (both gone once the loop is pipelined)
      unsigned accPos;   // the iteration argument of the sum
      unsigned pendPos;  // that carrying the dot's result
      arith::FastMathFlagsAttr fastmath;
    };
    std::optional<DeferredDot> deferred;
    unsigned candidateDots = 0;
    if (stages >= 4 && candidates.empty() && asyncDots.empty() &&
        !loop->getParentOfType<scf::ForOp>())
      for (Operation &op : body->without_terminator()) {
        auto dot = dyn_cast<WarpGroupDotOp>(op);
        // Its operands: blocks the loop's TMA copies fill (directly or
        // through a transposed view).
        auto copied = [&](Value v) {
          if (auto trans = v.getDefiningOp<MemDescTransOp>())
            v = trans.getSrc();
          return llvm::any_of(tmaCandidates, [&](TMACandidate &c) {
            return c.alloc.getResult() == v;
          });
        };
        if (!dot || !dot->hasOneUse() || !copied(dot.getA()) ||
            !copied(dot.getB()) ||
            accumulatorRegisters(dot.getD().getType()) > 64 ||
            !matchPattern(dot.getC(), m_AnyZeroFloat()) ||
            !loop.isDefinedOutsideOfLoop(dot.getC()))
          continue;
        auto add = dyn_cast<arith::AddFOp>(*dot->getUsers().begin());
        if (!add || add->getBlock() != body || !add->hasOneUse() ||
            add.getLhs() == add.getRhs())
          continue;
        Value other = add.getLhs() == dot.getD() ? add.getRhs() : add.getLhs();
        auto arg = dyn_cast<BlockArgument>(other);
        OpOperand &use = *add->getUses().begin();
        if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0 ||
            !arg.hasOneUse() || use.getOwner() != body->getTerminator() ||
            use.getOperandNumber() != arg.getArgNumber() - 1)
          continue;
        ++candidateDots;
        deferred = DeferredDot{dot, add, arg.getArgNumber() - 1, 0,
                               add.getFastmathAttr()};
      }
    // One deferred dot, and no other tile the loop carries: each more
    // costs registers the estimate above does not count.
    if (candidateDots > 1 ||
        llvm::any_of(loop.getRegionIterArgs(), [&](BlockArgument arg) {
          return isa<RankedTensorType>(arg.getType()) &&
                 (!deferred || arg.getArgNumber() - 1 != deferred->accPos);
        }))
      deferred.reset();
    // Warp specialization: a producer warp waits for free slots and issues
    // their TMA copies; the loop waits for full slots and releases each
    // once its readers are done (see Passes.td). TMA copies only: cp.async
    // needs every thread of the copy.
    bool ws = false;
    // (Asked for with tl.range(..., warp_specialize=True): the user hears
    // why not, as a remark at the loop.)
    bool hinted = warpSpecialize == "hint" && loop->hasAttr(kWarpSpecializeAttr);
    std::string why;
    if (candidates.empty() && !tmaCandidates.empty()) {
      ws = wantsWarpSpecialization(loop, why) &&
           canSplitProducer(loop, stage0.getArrayRef(), why);
    } else if (!candidates.empty()) {
      why = "some of its copies are cp.async, which needs every thread; only "
            "TMA copies (tensor descriptors) can be left to a producer warp";
    } else {
      why = "it copies nothing a producer warp could issue (no pipelined "
            "tensor-descriptor load)";
    }
    if (!ws && hinted)
      loop.emitRemark() << "warp_specialize=True does not apply to this "
                           "loop: "
                        << why;
    loop->removeAttr(kWarpSpecializeAttr);
    // (A warp-specialized loop is not unrolled: its dots stay synchronous.)
    if (ws)
      deferred.reset();
    unsigned groups =
        ws ? consumerGroups(loop, flat ? &*flat : nullptr, asyncDots,
                            tmaCandidates, stages)
           : 1;
    auto func = loop->getParentOfType<FuncOp>();
    // Multicast copies shared by the two CTAs of a cluster (cluster-size =
    // 2): software-pipelined TMA loops with no deferred dot, not nested.
    std::optional<MulticastPlan> multicast;
    if (clusterSize == 2 && !ws && !deferred && candidates.empty() &&
        !tmaCandidates.empty() && !loop->getParentOfType<scf::ForOp>()) {
      IRRewriter planner(loop.getContext());
      multicast = planMulticast(loop, tmaCandidates, planner);
    }
    SmallVector<Operation *> producerOps;

    // Iterations the copies run ahead; their buffers are `stages`.
    // A deferred dot's group runs into the next iteration, so the copies
    // would run S - 2 iterations ahead (below); one more buffer keeps them
    // S - 1 ahead, as num_stages asks, where it fits. (Measured on the
    // H200, fp8 128x128x128 4 stages: two ahead lost 9-11% at 16 and 64
    // rows, latency-bound on the copies, to the synchronous loop.)
    if (deferred &&
        pipelinedSharedBytes(loop, stages + 1, /*ws=*/false) <=
            int64_t(getSharedBudget(chip)))
      ++stages;
    bool anyAsync = !asyncDots.empty() || deferred;
    unsigned lookahead = anyAsync && stages >= 4 ? stages - 2 : stages - 1;
    bool copiesLast = anyAsync && lookahead == stages - 1;

    // Rewrite: multi-buffers before the loop, copies and views in it.
    IRRewriter rewriter(loop.getContext());
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    // The slot and its phase parity are carried (i32) instead of being
    // recomputed from the induction variable (a flat loop's 64-bit i % S
    // and i / S were a fifth of a warp-specialized consumer's stall
    // samples, Nsight Compute, H200). The loop carries iteration i - 1's
    // slot and parity and its first ops compute iteration i's: the slot
    // after, wrapping at S, and the parity, flipped on the wrap. From
    // S - 1 and 1, iteration 0 fills slot 0 with parity 0. These ops are
    // stage 0: a later stage's use is carried by the pipeliner. (Only
    // mbarriers have phases.)
    Value slotI, phaseI, prevSlot;
    SmallVector<Operation *> counterOps;
    // The deferred dot's result is carried, from -0.0, which the first
    // iteration adds (x + -0.0 is x for every x, -0.0 too), through a wait
    // with none pending (see waitForAccumulators).
    if (deferred) {
      rewriter.setInsertionPoint(loop);
      deferred->pendPos = loop.getNumRegionIterArgs();
      auto type = cast<RankedTensorType>(deferred->dot.getD().getType());
      auto element = cast<FloatType>(type.getElementType());
      Value negZero = arith::ConstantOp::create(
          rewriter, loc, type,
          DenseElementsAttr::get(
              type, rewriter.getFloatAttr(
                        element, APFloat::getZero(element.getFloatSemantics(),
                                                  /*Negative=*/true))));
      Value init = WarpGroupDotWaitOp::create(rewriter, loc, type, negZero,
                                              rewriter.getI32IntegerAttr(0))
                       .getOutputs()[0];
      FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
          rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
            return SmallVector<Value>{deferred->dot.getD()};
          });
      if (failed(grown))
        return loop.emitError("internal: cannot carry the deferred dot");
      loop = cast<scf::ForOp>(grown->getOperation());
      body = loop.getBody();
    }
    {
      rewriter.setInsertionPoint(loop);
      SmallVector<Value> inits = {
          arith::ConstantIntOp::create(rewriter, loc, stages - 1, 32)};
      if (!tmaCandidates.empty())
        inits.push_back(arith::ConstantIntOp::create(rewriter, loc, 1, 32));
      FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
          rewriter, inits,
          /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &b, Location l,
              ArrayRef<BlockArgument> args) -> SmallVector<Value> {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(args[0].getOwner());
            auto make = [&](Operation *op) {
              counterOps.push_back(op);
              return op->getResult(0);
            };
            auto i32 = [&](int64_t v) {
              return make(arith::ConstantIntOp::create(b, l, v, 32));
            };
            Value next = make(arith::AddIOp::create(b, l, args[0], i32(1)));
            Value wrap = make(arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq, next, i32(stages)));
            slotI = make(arith::SelectOp::create(b, l, wrap, i32(0), next));
            if (args.size() == 1)
              return {slotI};
            phaseI = make(arith::XOrIOp::create(
                b, l, args[1],
                make(arith::ExtUIOp::create(b, l, b.getI32Type(), wrap))));
            return {slotI, phaseI};
          });
      if (failed(grown))
        return loop.emitError("internal: cannot carry the slot counters");
      loop = cast<scf::ForOp>(grown->getOperation());
      body = loop.getBody();
      prevSlot = loop.getRegionIterArgs()[loop.getNumRegionIterArgs() -
                                          inits.size()];
      stage0.insert(counterOps.begin(), counterOps.end());
    }
    // Buffers and mbarriers go before the loop, in the order made, or for
    // a warp-specialized loop before the kernel's first op (which then
    // starts the consumer: they are made for both partitions).
    Operation *bodyStart = &func.getBody().front().front();
    OpBuilder allocs = ws ? OpBuilder(bodyStart) : OpBuilder(loop);
    SmallVector<Operation *> copies;
    Operation *firstUse = nullptr;
    // The `stages` buffers replacing `alloc` (before the loop), and the
    // type of one.
    auto multiBuffer = [&](LocalAllocOp alloc) -> std::pair<Value, MemDescType> {
      MemDescType t = alloc.getResult().getType();
      SmallVector<int64_t> shape = {int64_t(stages)};
      shape.append(t.getShape().begin(), t.getShape().end());
      Value buf = LocalAllocOp::create(
          allocs, loc,
          MemDescType::get(shape, t.getElementType(), t.getEncoding(),
                           /*mutable=*/true),
          Value());
      return {buf, MemDescType::get(t.getShape(), t.getElementType(),
                                    t.getEncoding(), true)};
    };
    // The slot a copy replacing `load` fills (stage 0); the rewriter then
    // points at `load`.
    auto producerSlot = [&](Operation *load) -> Value {
      rewriter.setInsertionPoint(load);
      return slotI;
    };
    // The slot's view of `buf` that the body reads where `alloc` was; the
    // first view is where the stage's wait goes.
    auto consumerView = [&](LocalAllocOp alloc, Value buf,
                            MemDescType viewType) -> Value {
      rewriter.setInsertionPoint(alloc);
      Value view = MemDescIndexOp::create(rewriter, loc, viewType, buf, slotI);
      if (!firstUse || view.getDefiningOp()->isBeforeInBlock(firstUse))
        firstUse = view.getDefiningOp();
      return view;
    };
    for (Candidate &c : candidates) {
      auto [buf, viewType] = multiBuffer(c.alloc);
      // The copy (stage 0), where the load was.
      Value slot0 = producerSlot(c.load);
      auto dst = MemDescIndexOp::create(rewriter, loc, viewType, buf, slot0);
      auto copy = AsyncCopyOp::create(rewriter, c.load.getLoc(),
                                      c.load.getPtr(), dst, c.load.getMask());
      stage0.insert(dst);
      stage0.insert(copy);
      copies.push_back(copy);
      // The view the body reads (stage S - 1), where the alloc was.
      Value view = consumerView(c.alloc, buf, viewType);
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
    // TMA: one mbarrier per slot, initialized before the loop.
    // Warp-specialized, each slot also has an "empty" mbarrier, on which
    // every consumer warp arrives once its reads of the slot are done.
    Value bars, emptyBars;
    auto barEnc = SharedEncodingAttr::get(loop.getContext(), 1, 1, 1, {0});
    MemDescType barType =
        MemDescType::get({1}, rewriter.getI64Type(), barEnc, true);
    // `n` mbarriers of `count` arrivals each, initialized where `allocs`
    // points.
    auto newBarriers = [&](int64_t n, int64_t count) -> Value {
      Value b = LocalAllocOp::create(
          allocs, loc,
          MemDescType::get({n, 1}, rewriter.getI64Type(), barEnc, true),
          Value());
      MBarrierInitOp::create(allocs, loc, b,
                             allocs.getI32IntegerAttr(int32_t(count)));
      return b;
    };
    if (!tmaCandidates.empty()) {
      bars = newBarriers(stages, 1);
      if (ws)
        emptyBars = newBarriers(stages, func.getNumWarps());
      if (multicast) {
        // Multicast: a slot's "empty" barrier counts the warps of both
        // CTAs, each of which releases it to both producers; the barrier
        // after the initialization makes them visible to the peer, and
        // orders everything before the loop in both CTAs before any copy
        // of the peer's writes this CTA's slots.
        emptyBars = newBarriers(stages, 2 * func.getNumWarps());
        ClusterBarrierOp::create(allocs, loc, multicast->any,
                                 multicast->exchange);
      }
    }
    SmallVector<Value> slotViews;
    int64_t tmaBytes = 0;
    for (TMACandidate &c : tmaCandidates)
      tmaBytes += getMemDescBytes(c.alloc.getResult().getType());
    Value bar0;
    for (TMACandidate &c : tmaCandidates) {
      auto [buf, viewType] = multiBuffer(c.alloc);
      // Stage 0: the expectation (once per iteration), then the boxes.
      Value slot0 = producerSlot(c.load);
      if (!bar0) {
        if (ws) {
          // The producer waits for the slot's previous round to be
          // released: round r = i / S waits for the (r - 1)-th phase of
          // its empty barrier, parity (r & 1) ^ 1 (a fresh barrier's
          // "previous" phase, parity 1, counts as complete).
          Value parity = arith::XOrIOp::create(
              rewriter, loc, phaseI,
              arith::ConstantIntOp::create(rewriter, loc, 1, 32));
          Value empty =
              MemDescIndexOp::create(rewriter, loc, barType, emptyBars, slot0);
          producerOps.push_back(
              MBarrierWaitOp::create(rewriter, loc, empty, parity));
        }
        bar0 = MemDescIndexOp::create(rewriter, loc, barType, bars, slot0);
        auto expect = MBarrierExpectOp::create(
            rewriter, loc, bar0, Value(),
            rewriter.getI32IntegerAttr(int32_t(tmaBytes)));
        stage0.insert(bar0.getDefiningOp());
        stage0.insert(expect);
        producerOps.push_back(expect);
      }
      auto dst = MemDescIndexOp::create(rewriter, loc, viewType, buf, slot0);
      Value map = getOrAddTensorMap(c.desc, c.tma);
      // Multicast: half the block's rows from each CTA, once both
      // released the slot's previous round (parity as for the
      // warp-specialized producer above).
      Value mc, halfMap, empty, emptyPhase;
      if (multicast && multicast->agree[&c - tmaCandidates.data()]) {
        MemDescType t = c.alloc.getResult().getType();
        std::array<int64_t, 2> box = *getTMABox(t);
        halfMap = getOrAddTensorMap(
            c.desc,
            getTMAAttr(c.load.getContext(), {box[0] / 2, box[1]},
                       cast<NVMMASharedEncodingAttr>(t.getEncoding()).getSwizzle(),
                       c.desc.getNanPadding()));
        mc = multicast->agree[&c - tmaCandidates.data()];
        empty = MemDescIndexOp::create(rewriter, loc, barType, emptyBars, slot0);
        emptyPhase = arith::XOrIOp::create(
            rewriter, loc, phaseI,
            arith::ConstantIntOp::create(rewriter, loc, 1, 32));
        stage0.insert(empty.getDefiningOp());
        stage0.insert(emptyPhase.getDefiningOp());
        stage0.insert(emptyPhase.getDefiningOp()->getOperand(1).getDefiningOp());
      }
      auto copy = AsyncTMALoadOp::create(rewriter, c.load.getLoc(), map,
                                         c.load.getIndices(), dst, bar0,
                                         Value(), mc, halfMap, empty,
                                         emptyPhase);
      stage0.insert(dst);
      stage0.insert(copy);
      producerOps.push_back(copy);
      // The consumer reads the slot's view where the alloc was.
      Value view = consumerView(c.alloc, buf, viewType);
      slotViews.push_back(view);
      rewriter.replaceAllUsesWith(c.alloc.getResult(), view);
      rewriter.eraseOp(c.alloc);
      rewriter.eraseOp(c.load);
      if (c.desc->use_empty())
        rewriter.eraseOp(c.desc);
    }

    // One commit group per iteration, after the last copy; the wait for
    // this iteration's group, before its first use.
    SmallVector<Operation *> waits;
    if (!copies.empty()) {
      Operation *lastCopy = nullptr;
      for (Operation *c : copies)
        if (!lastCopy || lastCopy->isBeforeInBlock(c))
          lastCopy = c;
      rewriter.setInsertionPointAfter(lastCopy);
      auto commit = AsyncCommitGroupOp::create(rewriter, loc);
      stage0.insert(commit);
      rewriter.setInsertionPoint(firstUse);
      waits.push_back(
          AsyncWaitOp::create(rewriter, loc, int32_t(lookahead - 1)));
    }
    if (bars) {
      // Slot i % S completes its (i / S)-th phase: parity (i / S) & 1.
      rewriter.setInsertionPoint(firstUse);
      Value bar = MemDescIndexOp::create(rewriter, loc, barType, bars, slotI);
      waits.push_back(bar.getDefiningOp());
      waits.push_back(MBarrierWaitOp::create(rewriter, loc, bar, phaseI));
    }

    // Every stage-0 op must depend only on stage-0 ops of its iteration
    // (the schedule's premise; a warp-specialized loop has no schedule).
    for (Operation *op : ws ? ArrayRef<Operation *>() : stage0.getArrayRef())
      for (Value o : getUsedValues(op))
        if (Operation *d = o.getDefiningOp();
            d && d->getBlock() == body && !stage0.contains(d)) {
          loop.emitError("internal: the copies' slice uses '")
              << d->getName() << "', computed after them";
          return failure();
        }

    SmallVector<unsigned> asyncAccs; // their iteration arguments
    Operation *lastDotWait = nullptr;
    for (auto [i, entry] : llvm::enumerate(asyncDots)) {
      auto [dot, reader] = entry;
      dot.setIsAsync(true);
      unsigned pos = cast<BlockArgument>(dot.getC()).getArgNumber() - 1;
      asyncAccs.push_back(pos);
      rewriter.setInsertionPointAfter(dot);
      auto wait = WarpGroupDotWaitOp::create(rewriter, dot.getLoc(),
                                             TypeRange(), ValueRange(),
                                             rewriter.getI32IntegerAttr(1));
      if (!lastDotWait || lastDotWait->isBeforeInBlock(wait))
        lastDotWait = wait;
      if (!reader)
        continue;
      // (The if is replaced: another dot it reads must find the new one.)
      scf::IfOp grown = readAfterWait(rewriter, dot, reader, pos);
      for (auto &later : llvm::drop_begin(asyncDots, i + 1))
        if (later.second == reader)
          later.second = grown;
    }
    if (deferred) {
      DeferredDot &d = *deferred;
      d.dot.setIsAsync(true);
      rewriter.setInsertionPointAfter(d.dot);
      Value pending = loop.getRegionIterArgs()[d.pendPos];
      auto wait = WarpGroupDotWaitOp::create(rewriter, d.dot.getLoc(),
                                             pending.getType(), pending,
                                             rewriter.getI32IntegerAttr(1));
      if (!lastDotWait || lastDotWait->isBeforeInBlock(wait))
        lastDotWait = wait;
      unsigned operand = d.add.getLhs() == d.dot.getD() ? 0 : 1;
      d.add->setOperand(operand, wait.getOutputs()[0]);
      d.add->moveAfter(wait);
    }

    // The accumulators are read after their last group completes.
    // (`results`: the loop's, or those of the scf.if after an unrolled
    // loop that runs its last iteration.)
    auto waitForAccumulators = [&](scf::ForOp result, Operation *results) {
      // A deferred dot's last result joins its sum after the loop.
      if (deferred) {
        Value sum = results->getResult(deferred->accPos);
        auto last = WarpGroupDotWaitOp::create(
            rewriter, loc, sum.getType(),
            results->getResult(deferred->pendPos),
            rewriter.getI32IntegerAttr(0));
        auto total = arith::AddFOp::create(rewriter, loc, sum,
                                           last.getOutputs()[0],
                                           deferred->fastmath);
        sum.replaceAllUsesExcept(total, total);
      }
      if (asyncAccs.empty())
        return;
      SmallVector<Value> accs;
      SmallVector<unsigned> accIdx(asyncAccs);
      llvm::sort(accIdx);
      for (unsigned i : accIdx)
        accs.push_back(results->getResult(i));
      // Their initial values enter the loop through a wait too (none is
      // pending there): its lowering defines the registers before the
      // loop, where ptxas needs them (see WarpGroupDotWaitLowering).
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(result);
        SmallVector<Value> inits;
        for (unsigned i : accIdx)
          inits.push_back(result.getInits()[i]);
        auto entry = WarpGroupDotWaitOp::create(
            rewriter, loc, ValueRange(inits).getTypes(), inits,
            rewriter.getI32IntegerAttr(0));
        for (auto [i, v] : llvm::zip(accIdx, entry.getOutputs()))
          result.getInitsMutable()[i].assign(v);
      }
      auto done = WarpGroupDotWaitOp::create(
          rewriter, loc, ValueRange(accs).getTypes(), accs,
          rewriter.getI32IntegerAttr(0));
      for (auto [acc, out] : llvm::zip(accs, done.getOutputs()))
        acc.replaceAllUsesExcept(out, done);
    };

    // Each warp releases the slots it read on their empty barriers: with
    // an asynchronous chain, iteration i releases slot (i - 1) % S after
    // the wait that completes iteration i - 1's groups (`prev` computes
    // that slot there); with synchronous reads, slot i % S after its last
    // reader. `pred` (optional) and `ctas` are tile.mbarrier_arrive's.
    auto releaseSlots = [&](Value pred, IntegerAttr ctas,
                            llvm::function_ref<Value()> prev)
        -> MBarrierArriveOp {
      auto both = [&](Value p) {
        return pred ? Value(arith::AndIOp::create(rewriter, loc, pred, p)) : p;
      };
      if (lastDotWait) {
        rewriter.setInsertionPointAfter(lastDotWait);
        Value notFirst = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ne, loop.getInductionVar(),
            loop.getLowerBound());
        Value p = both(notFirst);
        Value empty =
            MemDescIndexOp::create(rewriter, loc, barType, emptyBars, prev());
        return MBarrierArriveOp::create(rewriter, loc, empty, p, ctas);
      }
      Operation *lastReader = nullptr;
      for (Value view : slotViews)
        forEachBufferUser(view, [&](Operation *user, Value) {
          Operation *top = body->findAncestorOpInBlock(*user);
          if (top && (!lastReader || lastReader->isBeforeInBlock(top)))
            lastReader = top;
        });
      if (lastReader)
        rewriter.setInsertionPointAfter(lastReader);
      else
        rewriter.setInsertionPoint(body->getTerminator());
      Value empty =
          MemDescIndexOp::create(rewriter, loc, barType, emptyBars, slotI);
      return MBarrierArriveOp::create(rewriter, loc, empty, pred, ctas);
    };

    if (ws) {
      // (The loop carries iteration i - 1's slot.)
      MBarrierArriveOp release =
          releaseSlots(Value(), IntegerAttr(), [&] { return prevSlot; });
      rewriter.setInsertionPointAfter(loop);
      waitForAccumulators(loop, loop);
      specialized.insert(func);
      PartitionRegisters regs =
          getPartitionRegisters(func.getNumWarps() * groups);
      if (groups == 1)
        return splitPartitions(func, bodyStart, producerOps, regs);
      // One "turn" mbarrier per group (see rewriteConsumerGroup), each
      // warp of the group before it arriving once per tile.
      Value turns = newBarriers(groups, func.getNumWarps());
      auto fullWait = cast<MBarrierWaitOp>(waits.back());
      PingPong pingPong{*flat,    loop,      release,   fullWait,
                        slotI,    phaseI,
                        cast<BlockArgument>(prevSlot).getArgNumber() - 1,
                        emptyBars, turns,    barType,   stages,
                        groups,   bool(lastDotWait)};
      return splitPartitions(func, bodyStart, producerOps, regs, groups,
                             [&](IRMapping &map, unsigned g) {
                               return rewriteConsumerGroup(pingPong, map, g);
                             });
    }

    // Multicast: releases to both CTAs' producers. (The pipelined loop's
    // consumer stage computes the previous slot from this one: the
    // carried counter belongs to the copies' stage.)
    if (multicast)
      releaseSlots(multicast->any, rewriter.getI32IntegerAttr(2), [&] {
        auto i32 = [&](int64_t v) -> Value {
          return arith::ConstantIntOp::create(rewriter, loc, v, 32);
        };
        Value first = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, slotI, i32(0));
        return arith::SelectOp::create(
            rewriter, loc, first, i32(stages - 1),
            arith::SubIOp::create(rewriter, loc, slotI, i32(1)));
      });

    // The schedule: the wait, stage 0 in order, then the rest in order
    // (with asynchronous dots: the wait, the rest, then stage 0).
    std::vector<std::pair<Operation *, unsigned>> schedule;
    llvm::SmallPtrSet<Operation *, 16> waitSet(waits.begin(), waits.end());
    for (Operation *w : waits)
      schedule.push_back({w, lookahead});
    auto addStage0 = [&] {
      for (Operation &op : body->without_terminator())
        if (stage0.contains(&op))
          schedule.push_back({&op, 0});
    };
    if (!copiesLast)
      addStage0();
    for (Operation &op : body->without_terminator())
      if (!stage0.contains(&op) && !waitSet.contains(&op))
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
      auto predicate = [&](Value current) -> Value {
        rw.setInsertionPoint(op);
        return current ? Value(arith::AndIOp::create(rw, op->getLoc(),
                                                     current, pred))
                       : pred;
      };
      if (auto tma = dyn_cast<AsyncTMALoadOp>(op)) {
        tma.getPredMutable().assign(predicate(tma.getPred()));
        return op;
      }
      if (auto expect = dyn_cast<MBarrierExpectOp>(op)) {
        expect.getPredMutable().assign(predicate(expect.getPred()));
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
    Operation *results = *result;
    if (deferred)
      std::tie(*result, results) =
          unrollForDeferredDot(rewriter, *result, deferred->pendPos);
    rewriter.setInsertionPointAfter(results);
    if (!copies.empty())
      AsyncWaitOp::create(rewriter, loc, 0);
    if (multicast) {
      // No CTA reuses its slots or exits while the peer's last copies and
      // releases may still reach them.
      ClusterBarrierOp::create(rewriter, loc, multicast->any, Value());
      func->setAttr(TileDialect::getClusterSizeAttrName(),
                    rewriter.getI32IntegerAttr(2));
    }
    if (bars) {
      // Every copy signalled a barrier some thread waited on; invalidate
      // them so that their bytes may be reused (tile-insert-barriers puts
      // a barrier before, after the last waits).
      OpBuilder::InsertionGuard guard(rewriter);
      MBarrierInvalOp::create(rewriter, loc, bars);
      if (multicast)
        MBarrierInvalOp::create(rewriter, loc, emptyBars);
    }
    waitForAccumulators(*result, results);
    return success();
  }
};

} // namespace
