//===- InsertBarriers.cpp - CTA barriers between shared accesses -*- C++ -*-===//
//
// tile-insert-barriers: a forward analysis over the structured control flow
// of each kernel that tracks the shared-memory accesses made since the last
// CTA barrier (byte ranges from tile-allocate-shared, read or write) and
// inserts `tile.barrier` before an op whose access conflicts with one of
// them. See Passes.td for the access model, in particular why an
// asynchronous copy is a write at its tile.async_wait. The analysis is in
// the spirit of Triton's Membar pass; the code is tilec's own.
//
//===----------------------------------------------------------------------===//
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"

#include "passes/SIMT/SIMTUtils.h"
#include "passes/SharedMemoryUtils.h"

#include <map>
#include <set>
#include <tuple>

#define DEBUG_TYPE "tile-insert-barriers"

namespace tilec {
#define GEN_PASS_DEF_TILEINSERTBARRIERSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

struct Access {
  int64_t lo, hi; // [lo, hi) bytes
  bool write;
  bool operator<(const Access &o) const {
    return std::tie(lo, hi, write) < std::tie(o.lo, o.hi, o.write);
  }
  bool operator==(const Access &o) const {
    return lo == o.lo && hi == o.hi && write == o.write;
  }
};

/// Accesses since the last barrier.
using State = std::set<Access>;

State merge(const State &a, const State &b) {
  State s = a;
  s.insert(b.begin(), b.end());
  return s;
}

bool conflicts(const State &pending, const Access &a) {
  for (const Access &p : pending)
    if ((p.write || a.write) && p.lo < a.hi && a.lo < p.hi)
      return true;
  return false;
}

/// The byte range of the allocation behind `memdesc` (all of shared memory
/// when it is not known).
Access rangeOf(Value memdesc, bool write) {
  Operation *alloc = getMemDescAllocation(memdesc);
  if (!alloc)
    return {0, INT64_MAX, write};
  auto off = alloc->getAttrOfType<IntegerAttr>(
      TileDialect::getSharedOffsetAttrName());
  if (!off)
    return {0, INT64_MAX, write};
  int64_t bytes =
      getMemDescBytes(cast<LocalAllocOp>(alloc).getResult().getType());
  return {off.getInt(), off.getInt() + bytes, write};
}

class InsertBarriersPass
    : public tilec::impl::TileInsertBarriersPassBase<InsertBarriersPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkTilesHaveLayouts(getOperation())))
      return signalPassFailure();
    getOperation().walk([&](FuncOp func) {
      if (func.isExternal())
        return;
      // Every buffer an asynchronous copy fills: written at each wait.
      asyncTargets.clear();
      func.walk([&](AsyncCopyOp copy) {
        asyncTargets.push_back(rangeOf(copy.getDst(), /*write=*/true));
      });
      // Every buffer a TMA store reads: read until each store wait.
      tmaStoreSources.clear();
      func.walk([&](AsyncTMAStoreOp store) {
        tmaStoreSources.push_back(rangeOf(store.getSrc(), /*write=*/false));
      });
      // Asynchronous wgmma reads its operands until a warpgroup_dot_wait
      // completes its group: a CTA barrier between the dot and that wait
      // does not order the reads of other warpgroups' groups. A wait for
      // all groups (pendings = 0) is therefore where the reads of every
      // asynchronous dot before it (in program order) happen, so that what
      // overwrites their buffers afterwards (an epilogue reusing the
      // operands' shared memory) gets a barrier after the wait. Within a
      // pipelined loop tile-pipeline's schedule keeps the copies away from
      // the buffers of groups in flight.
      opOrder.clear();
      asyncDotReads.clear();
      func.walk([&](Operation *op) {
        opOrder[op] = opOrder.size();
        auto dot = dyn_cast<WarpGroupDotOp>(op);
        if (!dot || !dot.getIsAsync())
          return;
        if (isa<MemDescType>(dot.getA().getType()))
          asyncDotReads.push_back({opOrder[op], rangeOf(dot.getA(), false)});
        asyncDotReads.push_back({opOrder[op], rangeOf(dot.getB(), false)});
      });
      loopResults.clear();
      analyzeBlock(func.getBody().front(), State(), /*insert=*/true);
    });
  }

private:
  SmallVector<Access> asyncTargets;
  SmallVector<Access> tmaStoreSources;
  DenseMap<Operation *, size_t> opOrder;
  SmallVector<std::pair<size_t, Access>> asyncDotReads;
  /// The exit state of a loop analyzed without inserting, by entry state:
  /// the fixed-point runs of an enclosing loop meet each nested loop with
  /// few distinct states, and without the cache the work would grow
  /// exponentially with the nesting depth.
  std::map<std::pair<Operation *, State>, State> loopResults;

  State analyzeLoopOp(Operation *op, ArrayRef<Region *> body, const State &in,
                      bool insert) {
    if (insert)
      return analyzeLoop(body, in, true);
    auto key = std::make_pair(op, in);
    auto it = loopResults.find(key);
    if (it != loopResults.end())
      return it->second;
    State out = analyzeLoop(body, in, false);
    loopResults.emplace(std::move(key), out);
    return out;
  }

  State analyzeBlock(Block &block, State state, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      state = analyzeOp(&op, std::move(state), insert);
    return state;
  }

  /// Runs a loop body (the regions in order) to a fixed point of the state
  /// at its entry, then once more inserting barriers.
  State analyzeLoop(ArrayRef<Region *> body, const State &in, bool insert) {
    auto run = [&](State s, bool ins) {
      for (Region *r : body)
        for (Block &b : *r)
          s = analyzeBlock(b, s, ins);
      return s;
    };
    State entry = in;
    for (int i = 0; i < 8; ++i) {
      State next = merge(in, run(entry, false));
      if (next == entry)
        break;
      entry = next;
    }
    State out = run(entry, insert);
    // Zero iterations leave the state as it came in.
    return merge(in, out);
  }

  /// Puts a barrier before `op` if `access` conflicts with `state`.
  void require(Operation *op, const Access &access, State &state,
               bool insert) {
    if (!conflicts(state, access))
      return;
    if (insert) {
      OpBuilder b(op);
      BarrierOp::create(b, op->getLoc());
    }
    state.clear();
  }

  State analyzeOp(Operation *op, State state, bool insert) {
    if (isa<BarrierOp>(op))
      return State();
    if (auto ws = dyn_cast<WarpSpecializeOp>(op)) {
      // Everything before the split (the mbarriers' initialization) is
      // ordered for both partitions by a barrier of the whole CTA; within
      // each, barriers wait for its own warps (the partitions exchange
      // data through mbarriers only, ordered by the hardware).
      if (!state.empty() && insert) {
        OpBuilder b(op);
        BarrierOp::create(b, op->getLoc());
      }
      State c;
      for (Region *group : ws.getConsumerGroups())
        c = merge(c, analyzeBlock(group->front(), State(), insert));
      State p = analyzeBlock(ws.getProducer().front(), State(), insert);
      return merge(c, p);
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return analyzeLoopOp(op, {&forOp.getRegion()}, state, insert);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return analyzeLoopOp(op, {&whileOp.getBefore(), &whileOp.getAfter()},
                           state, insert);
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      State t = analyzeBlock(ifOp.getThenRegion().front(), state, insert);
      State e = ifOp.getElseRegion().empty()
                    ? state
                    : analyzeBlock(ifOp.getElseRegion().front(), state, insert);
      return merge(t, e);
    }
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      if (alloc.getSrc()) {
        Access w = rangeOf(alloc.getResult(), true);
        require(op, w, state, insert);
        state.insert(w);
      }
      return state;
    }
    if (auto store = dyn_cast<LocalStoreOp>(op)) {
      Access w = rangeOf(store.getDst(), true);
      require(op, w, state, insert);
      state.insert(w);
      return state;
    }
    if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
      Access rb = rangeOf(dot.getB(), false);
      if (isa<MemDescType>(dot.getA().getType())) {
        Access ra = rangeOf(dot.getA(), false);
        require(op, ra, state, insert);
        state.insert(ra);
      }
      require(op, rb, state, insert);
      state.insert(rb);
      return state;
    }
    if (auto load = dyn_cast<LocalLoadOp>(op)) {
      Access r = rangeOf(load.getSrc(), false);
      require(op, r, state, insert);
      state.insert(r);
      return state;
    }
    if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
      // Must not overwrite bytes still in use; lands at a wait.
      require(op, rangeOf(copy.getDst(), true), state, insert);
      return state;
    }
    if (auto tma = dyn_cast<AsyncTMALoadOp>(op)) {
      // As a cp.async: must not overwrite bytes still in use. Its data is
      // visible to each thread that waits on its mbarrier, so it need not
      // land anywhere for the analysis; the mbarrier is read (arrivals and
      // waits are ordered by the hardware, not by CTA barriers).
      require(op, rangeOf(tma.getDst(), true), state, insert);
      Access b = rangeOf(tma.getBarrier(), false);
      require(op, b, state, insert);
      state.insert(b);
      return state;
    }
    if (auto store = dyn_cast<AsyncTMAStoreOp>(op)) {
      // Its lowering fences and waits at a CTA barrier before the copy,
      // which orders everything before it; the copy's read of its buffer
      // completes at the tile.async_tma_store_wait that follows, so later
      // writes of those bytes get a barrier after that wait.
      state.clear();
      state.insert(rangeOf(store.getSrc(), false));
      return state;
    }
    if (isa<MBarrierExpectOp, MBarrierWaitOp, MBarrierArriveOp>(op)) {
      Access b = rangeOf(op->getOperand(0), false);
      require(op, b, state, insert);
      state.insert(b);
      return state;
    }
    if (auto agree = dyn_cast<ClusterAgreeOp>(op)) {
      // Thread 0 writes the exchange buffer (in a cluster of two, then a
      // cluster barrier; otherwise nothing).
      Access w = rangeOf(agree.getExchange(), true);
      require(op, w, state, insert);
      state.insert(w);
      return state;
    }
    if (auto barrier = dyn_cast<ClusterBarrierOp>(op)) {
      // Unconditional, it is a barrier of the CTA too.
      if (!barrier.getPred())
        return State();
      return state;
    }
    if (isa<MBarrierInitOp, MBarrierInvalOp>(op)) {
      Access w = rangeOf(op->getOperand(0), true);
      require(op, w, state, insert);
      state.insert(w);
      return state;
    }
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op)) {
      if (wait.getPendings() == 0)
        for (auto &[order, read] : asyncDotReads)
          if (order < opOrder.lookup(op))
            state.insert(read);
      return state;
    }
    if (isa<AsyncWaitOp>(op)) {
      state.insert(asyncTargets.begin(), asyncTargets.end());
      return state;
    }
    if (isa<AsyncTMAStoreWaitOp>(op)) {
      // The TMA stores' reads of their buffers end here (a store in a loop
      // waits for the previous one's only before its buffer is rewritten).
      state.insert(tmaStoreSources.begin(), tmaStoreSources.end());
      return state;
    }
    int64_t scratch = simt::getScratchBytes(op);
    if (scratch > 0) {
      if (auto off = op->getAttrOfType<IntegerAttr>(
              TileDialect::getSharedOffsetAttrName())) {
        Access a{off.getInt(), off.getInt() + scratch, true};
        require(op, a, state, insert);
        // The op's own barrier (between its writes and its reads) orders
        // everything before it; its reads remain.
        state.clear();
        state.insert({a.lo, a.hi, false});
      }
      return state;
    }
    // Other ops with regions (reduce combiners...) touch no shared memory.
    return state;
  }
};

} // namespace
