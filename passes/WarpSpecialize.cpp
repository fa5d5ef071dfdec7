//===- WarpSpecialize.cpp - Split a kernel into producer/consumer -*- C++ -*-===//
//
// Warp specialization's partitioning (see WarpSpecialize.h and
// tile-pipeline in Passes.td). tile-pipeline rewrites a loop so that some
// of its ops (the producer's: wait for a free slot, expect its bytes, issue
// its TMA copies) talk to the others only through mbarriers, then calls
// splitPartitions: the kernel body becomes the consumer region of a
// tile.warp_specialize, and a copy of it pruned to what the producer ops
// need -- their operands' slices and the loops and ifs around them, by a
// liveness walk over values (iteration arguments and if results are live
// one by one) -- its producer region. This is the partition-by-cloning of
// Triton's warp specialization; the code is tilec's own.
//
//===----------------------------------------------------------------------===//
#include "passes/WarpSpecialize.h"

#include "passes/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

PartitionRegisters tilec::getPartitionRegisters(unsigned numWarps) {
  // setmaxnreg (PTX ISA 9.7.19.6) moves registers between warpgroups of a
  // CTA; what the CTA holds is its launch allocation, 64K registers at one
  // CTA per SM, per thread rounded down to a multiple of 8 (at most 255).
  const int64_t kRegistersPerSM = 65536, kProducerRegs = 40;
  int64_t consumers = int64_t(numWarps) * 32, threads = consumers + 128;
  int64_t entry = std::min<int64_t>(255, kRegistersPerSM / threads) & ~7;
  int64_t consumer = (entry * threads - kProducerRegs * 128) / consumers;
  consumer = std::min<int64_t>(240, consumer) & ~7;
  return {int32_t(kProducerRegs), int32_t(std::max<int64_t>(24, consumer))};
}

namespace {

/// Neither a tensor nor a buffer: a value a producer warp may compute.
bool isScalar(Type t) { return !isa<RankedTensorType, MemDescType>(t); }

/// What a region holding `roots` keeps: the roots, the ops computing
/// values they use, and the structured ops around them with the iteration
/// arguments and results those values flow through.
class Liveness {
public:
  explicit Liveness(Operation *top) : top(top) {}

  void run(ArrayRef<Operation *> roots) {
    for (Operation *r : roots)
      markOp(r);
    while (!values.empty())
      markValue(values.pop_back_val());
  }

  bool isLive(Operation *op) const { return live.contains(op); }
  bool isLive(Operation *op, unsigned result) const {
    return liveResults.contains({op, result});
  }

private:
  Operation *top;
  llvm::DenseSet<Operation *> live;
  llvm::DenseSet<std::pair<Operation *, unsigned>> liveResults;
  SmallVector<Value> values;

  void markOp(Operation *op) {
    // (What is defined outside the region stays.)
    if (!top->isProperAncestor(op) || !live.insert(op).second)
      return;
    if (Operation *parent = op->getParentOp())
      markOp(parent);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      values.append({loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep()});
      live.insert(loop.getBody()->getTerminator());
      return;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      values.push_back(ifOp.getCondition());
      for (Region &r : ifOp->getRegions())
        if (!r.empty())
          live.insert(r.front().getTerminator());
      return;
    }
    if (isa<scf::YieldOp>(op))
      return; // its operands, result by result
    // Anything else whole, with what it uses.
    llvm::append_range(values, getUsedValues(op));
    op->walk([&](Operation *nested) { live.insert(nested); });
  }

  void markCarried(scf::ForOp loop, unsigned k) {
    if (!liveResults.insert({loop, k}).second)
      return;
    markOp(loop);
    values.push_back(loop.getInits()[k]);
    values.push_back(loop.getBody()->getTerminator()->getOperand(k));
  }

  void markValue(Value v) {
    if (auto r = dyn_cast<OpResult>(v)) {
      Operation *def = r.getOwner();
      unsigned k = r.getResultNumber();
      if (auto loop = dyn_cast<scf::ForOp>(def))
        return markCarried(loop, k);
      if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
        if (!liveResults.insert({def, k}).second)
          return;
        markOp(def);
        values.push_back(ifOp.thenYield().getOperand(k));
        values.push_back(ifOp.elseYield().getOperand(k));
        return;
      }
      return markOp(def);
    }
    auto arg = cast<BlockArgument>(v);
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      if (arg.getArgNumber() == 0)
        return markOp(loop);
      return markCarried(loop, arg.getArgNumber() - 1);
    }
    if (top->isProperAncestor(owner))
      markOp(owner);
  }
};

/// A value of type `t` for a dead slot (an unused iteration argument's
/// start, an unused if result): a zero where the type has one, else
/// `ub.poison` (a pointer); the canonicalizer removes both with the slot.
Value placeholder(OpBuilder &b, Location loc, Type t) {
  if (Value zero = zeroOf(b, loc, t))
    return zero;
  return ub::PoisonOp::create(b, loc, t);
}

/// Erases what `roots` do not need from `block` (see Liveness): dead
/// iteration arguments of live loops then yield themselves and start from
/// a placeholder, dead results of live ifs yield one, so that the
/// canonicalizer removes them.
LogicalResult pruneTo(Block &block, ArrayRef<Operation *> roots) {
  Operation *top = block.getParentOp();
  Liveness liveness(top);
  liveness.run(roots);
  SmallVector<Operation *> order;
  block.walk<WalkOrder::PreOrder>([&](Operation *op) { order.push_back(op); });
  for (Operation *op : order) {
    if (!liveness.isLive(op))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Operation *yield = loop.getBody()->getTerminator();
      OpBuilder b(loop);
      for (unsigned k = 0; k < loop.getNumRegionIterArgs(); ++k) {
        if (liveness.isLive(loop, k))
          continue;
        yield->setOperand(k, loop.getRegionIterArg(k));
        loop.getInitsMutable()[k].assign(
            placeholder(b, loop.getLoc(), loop.getInits()[k].getType()));
      }
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      for (unsigned k = 0; k < ifOp.getNumResults(); ++k) {
        if (liveness.isLive(ifOp, k))
          continue;
        for (scf::YieldOp yield : {ifOp.thenYield(), ifOp.elseYield()}) {
          OpBuilder b(yield);
          yield->setOperand(
              k, placeholder(b, ifOp.getLoc(), ifOp.getResultTypes()[k]));
        }
      }
    }
  }
  // Users come after their definitions (or inside later ops): erase from
  // the end.
  for (Operation *op : llvm::reverse(order))
    if (!liveness.isLive(op)) {
      op->dropAllUses();
      op->erase();
    }
  return success();
}

/// Removes from `region` what pruneTo left dead: unused ops (the greedy
/// driver erases them), iteration arguments and if results (scf's own
/// patterns; the pass pipeline's canonicalizer does the rest). Fails if
/// that did not converge.
LogicalResult cleanUp(Region &region) {
  MLIRContext *ctx = region.getContext();
  RewritePatternSet patterns(ctx);
  scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
  scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
  return applyPatternsGreedily(region, std::move(patterns));
}

constexpr StringLiteral kProducerMark = "tile.ws_producer_op";

} // namespace

bool tilec::canSplitProducer(scf::ForOp loop, ArrayRef<Operation *> stage0,
                             std::string &why) {
  auto func = loop->getParentOfType<FuncOp>();
  SmallVector<Value> worklist = {loop.getLowerBound(), loop.getUpperBound(),
                                 loop.getStep()};
  for (Operation *p = loop->getParentOp(); p && p != func; p = p->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(p);
    if (!ifOp) {
      why = "the loop is nested in '" + p->getName().getStringRef().str() +
            "' (only ifs may enclose it)";
      return false;
    }
    worklist.push_back(ifOp.getCondition());
  }
  Block *body = loop.getBody();
  for (Operation *op : stage0) {
    if (llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>)) {
      why = "the copies' slice computes a tensor";
      return false;
    }
    for (Value v : getUsedValues(op)) {
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == body && arg.getArgNumber() > 0)
        worklist.push_back(loop.getInits()[arg.getArgNumber() - 1]);
      else if (!loop->isAncestor(v.getParentRegion()->getParentOp()))
        worklist.push_back(v);
    }
  }
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (!isScalar(v.getType())) {
      why = "the copies need a tensor or buffer computed before the loop";
      return false;
    }
    Operation *def = v.getDefiningOp();
    if (!def) {
      if (!isa<FuncOp>(cast<BlockArgument>(v).getOwner()->getParentOp())) {
        why = "the copies need a block argument of an enclosing op";
        return false;
      }
      continue;
    }
    if (!isMemoryEffectFree(def)) {
      why = "the copies need the result of '" +
            def->getName().getStringRef().str() + "', which has side effects";
      return false;
    }
    llvm::append_range(worklist, getUsedValues(def));
  }
  return true;
}

LogicalResult tilec::splitPartitions(FuncOp func, Operation *consumerStart,
                                     ArrayRef<Operation *> producerOps,
                                     PartitionRegisters regs, unsigned groups,
                                     GroupRewrite rewriteGroup) {
  Block &body = func.getBody().front();
  Operation *term = body.getTerminator();
  if (term->getNumOperands())
    return func.emitError("internal: a kernel returning values");
  MLIRContext *ctx = func.getContext();
  OpBuilder b(consumerStart);
  auto ws = WarpSpecializeOp::create(b, func.getLoc(), /*producer_warps=*/4,
                                     regs.producer, regs.consumer,
                                     /*more_consumersCount=*/groups - 1);
  Block *consumer = new Block();
  ws.getConsumer().push_back(consumer);
  Block *producer = new Block();
  ws.getProducer().push_back(producer);
  consumer->getOperations().splice(consumer->end(), body.getOperations(),
                                   std::next(ws->getIterator()),
                                   term->getIterator());
  for (Operation *op : producerOps)
    op->setAttr(kProducerMark, UnitAttr::get(ctx));
  IRMapping map;
  OpBuilder pb = OpBuilder::atBlockEnd(producer);
  for (Operation &op : *consumer)
    pb.clone(op, map);

  // The producer: the marked ops and what they need.
  SmallVector<Operation *> roots;
  producer->walk([&](Operation *op) {
    if (op->hasAttr(kProducerMark)) {
      op->removeAttr(kProducerMark);
      roots.push_back(op);
    }
  });
  if (failed(pruneTo(*producer, roots)))
    return failure();
  // (Not converging leaves valid IR; what must be gone is checked below.)
  (void)cleanUp(ws.getProducer());

  // More consumer groups: copies of the consumer, each adapted to its
  // share of the work by `rewriteGroup` (group 0 is the consumer itself,
  // whose mapping is the identity), all made before any is changed.
  SmallVector<IRMapping> maps(groups);
  SmallVector<Region *> regions = ws.getConsumerGroups();
  for (unsigned g = 1; g < groups; ++g) {
    Block *copy = new Block();
    regions[g]->push_back(copy);
    OpBuilder cb = OpBuilder::atBlockEnd(copy);
    for (Operation &op : *consumer)
      cb.clone(op, maps[g]);
  }
  for (unsigned g = 0; g < groups && rewriteGroup; ++g)
    if (failed(rewriteGroup(maps[g], g)))
      return failure();

  // Each consumer: everything but the marked ops.
  for (Region *region : regions) {
    Block &block = region->front();
    SmallVector<Operation *> marked;
    block.walk([&](Operation *op) {
      if (op->hasAttr(kProducerMark))
        marked.push_back(op);
    });
    for (Operation *op : marked) {
      if (op->getNumResults() && !op->use_empty())
        return op->emitError("internal: a producer op with used results");
      op->erase();
    }
    SmallVector<Operation *> effects;
    block.walk([&](Operation *op) {
      if (!isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op) &&
          !isMemoryEffectFree(op))
        effects.push_back(op);
    });
    if (failed(pruneTo(block, effects)))
      return failure();
    (void)cleanUp(*region);
  }

  WalkResult poison = ws->walk([&](ub::PoisonOp) {
    return WalkResult::interrupt();
  });
  if (poison.wasInterrupted())
    return func.emitError("internal: a dropped value outlived the split");
  // The producer must be scalar code (tile.warp_specialize's verifier).
  if (failed(mlir::verify(ws)))
    return func.emitError("internal: the warp-specialized split is invalid");
  return success();
}
