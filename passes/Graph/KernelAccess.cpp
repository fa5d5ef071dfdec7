//===- KernelAccess.cpp - How a kernel uses its pointer arguments -*- C++ -*-=//
//
// Follows each pointer argument of a kernel forward through the ops that
// keep pointers pointers (shape ops, addptr, select, loop and branch values)
// to the loads and stores that use them, and rebuilds the element offset
// of a pointer from the base as integer arithmetic, for fusion to address
// other buffers at the same elements.
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/KernelAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;

PointerArgAccess tilec::analyzePointerArg(tile::FuncOp kernel, unsigned index) {
  PointerArgAccess access;
  SmallVector<Value> work{kernel.getArgument(index)};
  DenseSet<Value> seen(work.begin(), work.end());
  auto push = [&](Value v) {
    if (seen.insert(v).second)
      work.push_back(v);
  };
  auto other = [&](Operation *op, StringRef what) {
    if (access.other.empty())
      access.other = ("'" + op->getName().getStringRef() + "' " + what).str();
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      llvm::TypeSwitch<Operation *>(user)
          .Case([&](tile::LoadOp load) {
            if (n == 0)
              access.loads.push_back(load);
            else
              other(user, "uses it as a loaded value");
          })
          .Case([&](tile::StoreOp store) {
            if (n == 0)
              access.stores.push_back(store);
            else
              other(user, "stores it to memory");
          })
          .Case<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp,
                tile::ReshapeOp, tile::TransOp, tile::ConvertLayoutOp,
                tile::AddPtrOp, arith::SelectOp>(
              [&](Operation *op) { push(op->getResult(0)); })
          .Case([&](scf::ForOp loop) {
            if (n < loop.getNumControlOperands()) {
              other(user, "uses it as a bound");
              return;
            }
            unsigned i = n - loop.getNumControlOperands();
            push(loop.getRegionIterArgs()[i]);
            push(loop->getResult(i));
          })
          .Case([&](scf::WhileOp loop) { push(loop.getBeforeArguments()[n]); })
          .Case([&](scf::ConditionOp cond) {
            auto loop = cast<scf::WhileOp>(cond->getParentOp());
            if (n == 0)
              return;
            push(loop.getAfterArguments()[n - 1]);
            push(loop->getResult(n - 1));
          })
          .Case([&](scf::YieldOp yield) {
            Operation *parent = yield->getParentOp();
            // A while's body yields to its condition region (its results
            // come from scf.condition); a for's yields to the next
            // iteration and its results; an if's, to its results.
            if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
              push(loop.getBeforeArguments()[n]);
              return;
            }
            if (n >= parent->getNumResults()) {
              other(user, "yields it");
              return;
            }
            push(parent->getResult(n));
            if (auto loop = dyn_cast<scf::ForOp>(parent))
              push(loop.getRegionIterArgs()[n]);
          })
          .Default([&](Operation *op) { other(op, "uses it"); });
    }
  }
  return access;
}

/// `v` (an integer or a tile of them) sign-extended to i64.
static Value toI64(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (getElementTypeOrSelf(t).isInteger(64))
    return v;
  Type i64 = b.getI64Type();
  Type wide =
      isa<RankedTensorType>(t) ? Type(cast<RankedTensorType>(t).clone(i64)) : i64;
  return arith::ExtSIOp::create(b, loc, wide, v);
}

FailureOr<Value> PointerOffsets::computeCarried(BlockArgument arg,
                                                std::string &why) {
  auto loop = cast<scf::ForOp>(arg.getOwner()->getParentOp());
  unsigned i = arg.getArgNumber() - loop.getNumInductionVars();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // The initial offset, in i64 (zero for the base itself).
  FailureOr<Value> init = compute(loop.getInitArgs()[i], why);
  if (failed(init))
    return failure();
  Value initOff;
  if (*init) {
    initOff = toI64(b, loc, *init);
  } else if (auto t = dyn_cast<RankedTensorType>(arg.getType())) {
    auto type = t.clone(b.getI64Type());
    initOff = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getI64IntegerAttr(0)));
  } else {
    initOff = arith::ConstantIntOp::create(b, loc, 0, 64);
  }
  Value yielded = loop.getYieldedValues()[i];
  SmallVector<Value> oldArgs(loop.getBody()->getArguments());
  IRRewriter rewriter(loop.getContext());
  bool ok = true;
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, initOff, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location yloc, ArrayRef<BlockArgument> newArgs) {
        // The next iteration's offset, from this one's.
        cache[arg] = newArgs.front();
        FailureOr<Value> next = compute(yielded, why);
        if (failed(next) || !*next) {
          if (succeeded(next))
            why = "the loop resets its address to the argument itself";
          ok = false;
          return SmallVector<Value>{newArgs.front()};
        }
        return SmallVector<Value>{toI64(yb, yloc, *next)};
      });
  if (failed(replaced)) {
    why = "internal: the loop carrying its address could not be rewritten";
    return failure();
  }
  // The body moved into the new loop, its arguments replaced: remap them.
  auto newLoop = cast<scf::ForOp>(replaced->getOperation());
  Block *body = newLoop.getBody();
  DenseMap<Value, Value> remap;
  for (auto [j, old] : llvm::enumerate(oldArgs))
    remap[old] = body->getArgument(j);
  llvm::DenseMap<Value, Value> updated;
  for (auto [key, value] : cache)
    updated[remap.lookup(key) ? remap.lookup(key) : key] =
        remap.lookup(value) ? remap.lookup(value) : value;
  cache = std::move(updated);
  if (!ok)
    return failure();
  Value offset = newLoop.getRegionIterArgs().back();
  cache[body->getArgument(arg.getArgNumber())] = offset;
  return offset;
}

FailureOr<Value> PointerOffsets::compute(Value ptr, std::string &why) {
  if (ptr == base)
    return Value();
  if (auto it = cache.find(ptr); it != cache.end())
    return it->second;
  Operation *def = ptr.getDefiningOp();
  if (!def) {
    auto arg = cast<BlockArgument>(ptr);
    if (isa_and_nonnull<scf::ForOp>(arg.getOwner()->getParentOp()) &&
        arg.getArgNumber() > 0)
      return computeCarried(arg, why);
    why = "its address is a block argument other than an scf.for's "
          "iteration argument";
    return failure();
  }
  OpBuilder b(def->getContext());
  b.setInsertionPointAfter(def);
  Location loc = def->getLoc();
  // The same shape op on the offsets: the pointer tile's shape and
  // encoding with the offsets' element type.
  auto reshapeLike = [&](Value src) -> FailureOr<Value> {
    FailureOr<Value> off = compute(src, why);
    if (failed(off) || !*off)
      return off;
    auto ptrType = cast<RankedTensorType>(ptr.getType());
    Type elem = getElementTypeOrSelf(off->getType());
    OperationState state(loc, def->getName());
    state.addOperands(*off);
    state.addAttributes(def->getAttrs());
    state.addTypes(
        RankedTensorType::get(ptrType.getShape(), elem, ptrType.getEncoding()));
    return b.create(state)->getResult(0);
  };
  FailureOr<Value> result =
      llvm::TypeSwitch<Operation *, FailureOr<Value>>(def)
          .Case([&](tile::SplatOp op) -> FailureOr<Value> {
            FailureOr<Value> off = compute(op.getSrc(), why);
            if (failed(off) || !*off)
              return off;
            auto t = cast<RankedTensorType>(ptr.getType());
            return tile::SplatOp::create(b, loc,
                                         RankedTensorType::get(t.getShape(),
                                                               off->getType(),
                                                               t.getEncoding()),
                                         *off)
                .getResult();
          })
          .Case<tile::BroadcastOp, tile::ExpandDimsOp, tile::ReshapeOp,
                tile::TransOp, tile::ConvertLayoutOp>(
              [&](Operation *op) { return reshapeLike(op->getOperand(0)); })
          .Case([&](tile::AddPtrOp op) -> FailureOr<Value> {
            FailureOr<Value> off = compute(op.getPtr(), why);
            if (failed(off))
              return failure();
            Value o = op.getOffset();
            if (!*off)
              return o;
            // Each addptr sign-extends its offsets to 64 bits; so does the
            // sum.
            return arith::AddIOp::create(b, loc, toI64(b, loc, *off),
                                         toI64(b, loc, o))
                .getResult();
          })
          .Default([&](Operation *op) -> FailureOr<Value> {
            why = ("its address is computed by '" +
                   op->getName().getStringRef() + "'")
                      .str();
            return failure();
          });
  if (succeeded(result))
    cache[ptr] = *result;
  return result;
}

FailureOr<Value> PointerOffsets::getOffset(Value ptr, std::string &why) {
  FailureOr<Value> off = compute(ptr, why);
  if (failed(off) || *off)
    return off;
  // The base itself: a zero offset, at the kernel's entry.
  OpBuilder b(base.getContext());
  b.setInsertionPointToStart(base.getOwner());
  Location loc = base.getLoc();
  if (auto t = dyn_cast<RankedTensorType>(ptr.getType())) {
    auto type = t.clone(b.getI32Type());
    return arith::ConstantOp::create(
               b, loc, type,
               DenseElementsAttr::get(type, b.getI32IntegerAttr(0)))
        .getResult();
  }
  return arith::ConstantIntOp::create(b, loc, 0, 32).getResult();
}
