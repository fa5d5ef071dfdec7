//===- AllocateShared.cpp - Lay out a kernel's shared memory ----*- C++ -*-===//
//
// tile-allocate-shared: liveness-based placement of every shared-memory
// buffer of a kernel (see Passes.td). Ops are numbered in program order
// (a pre-order walk; a region-holding op also gets the number after its
// last nested op), a buffer lives from its allocation to its last use
// (through memdesc views; a use inside a loop that does not contain the
// allocation extends the range to the loop's end, since the next
// iteration uses the buffer again), a scratch buffer lives at its op.
// Buffers are placed largest first at the lowest aligned offset not used by
// an already-placed buffer whose range overlaps (first fit on an interval
// graph). Shared helpers for tile-insert-barriers (the byte range behind a
// memdesc) live here too.
//
//===----------------------------------------------------------------------===//
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"
#include "passes/Target.h"

#include "passes/SIMT/SIMTUtils.h"
#include "passes/SharedMemoryUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#define DEBUG_TYPE "tile-allocate-shared"

namespace tilec {
#define GEN_PASS_DEF_TILEALLOCATESHAREDPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

int64_t tilec::getMemDescBytes(MemDescType type) {
  int64_t n = 1;
  for (int64_t s : type.getAllocShape())
    n *= s;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return n * std::max<unsigned>(1, bits / 8);
}

void tilec::forEachBufferUser(
    Value memdesc, llvm::function_ref<void(Operation *, Value)> fn) {
  SmallVector<Value> views = {memdesc};
  while (!views.empty()) {
    Value v = views.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<MemDescIndexOp, MemDescSubviewOp, MemDescTransOp>(user))
        views.push_back(user->getResult(0));
      else
        fn(user, v);
    }
  }
}

/// Whether `alloc`'s own views are written through the generic proxy:
/// by stores from registers. cp.async copies (tile.async_copy) do not
/// count: the wgmma reading them after `cp.async.wait_group` and a barrier
/// needs no proxy fence -- as in CUTLASS's sm90 cp.async + GMMA mainloop
/// (MainloopSm90CpAsyncGmma) and Triton 3.6, neither of which fences there;
/// on the H200 the fence (a MEMBAR.ALL.CTA) cost 2-5% of the pipelined
/// GEMMs.
/// Whether buffer user `user` writes `view` from registers: a local_store,
/// or an async_copy of narrow chunks (kGenericProxyWriteAttr).
static bool writesFromRegisters(Operation *user, Value view) {
  if (auto store = dyn_cast<LocalStoreOp>(user))
    return store.getDst() == view;
  if (auto copy = dyn_cast<AsyncCopyOp>(user))
    return copy.getDst() == view && copy->hasAttr(kGenericProxyWriteAttr);
  return false;
}

static bool hasGenericWriter(LocalAllocOp alloc) {
  bool written = bool(alloc.getSrc());
  forEachBufferUser(alloc.getResult(), [&](Operation *user, Value view) {
    written |= writesFromRegisters(user, view);
  });
  return written;
}

/// Whether `writer` may run before `reader` in some execution: it comes
/// first in program order, or a loop encloses both (a later iteration
/// follows the writer). Ops in different branches of an `scf.if` never run
/// in one execution of it.
static bool mayRunBefore(Operation *writer, Operation *reader) {
  if (!reader)
    return true;
  for (Operation *p = writer->getParentOp(); p; p = p->getParentOp())
    if (isa<LoopLikeOpInterface>(p) && p->isAncestor(reader))
      return true;
  // The ancestors of both in their closest common block.
  for (Operation *w = writer; w; w = w->getParentOp()) {
    Operation *r = w->getBlock() ? w->getBlock()->findAncestorOpInBlock(*reader)
                                 : nullptr;
    if (!r)
      continue;
    return r != w && w->isBeforeInBlock(r);
  }
  return true;
}

bool tilec::isWrittenByGenericProxy(Value memdesc, Operation *reader) {
  auto alloc = dyn_cast_or_null<LocalAllocOp>(getMemDescAllocation(memdesc));
  if (!alloc)
    return true;
  if (hasGenericWriter(alloc))
    return true;
  // Bytes tile-allocate-shared also gave another buffer or a scratch area
  // written through the generic proxy count too (an epilogue's conversion
  // reusing the operand slots).
  auto offsetOf = [](Operation *op) -> std::optional<int64_t> {
    if (auto a = op->getAttrOfType<IntegerAttr>(
            TileDialect::getSharedOffsetAttrName()))
      return a.getInt();
    return std::nullopt;
  };
  std::optional<int64_t> lo = offsetOf(alloc);
  if (!lo)
    return true;
  int64_t hi = *lo + getMemDescBytes(alloc.getResult().getType());
  // (A tile.func, or the gpu.func the SIMT lowering moved it into.)
  Operation *func = alloc->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!func)
    return true;
  WalkResult aliased = func->walk([&](Operation *op) {
    if (op == alloc.getOperation())
      return WalkResult::advance();
    std::optional<int64_t> at = offsetOf(op);
    if (!at)
      return WalkResult::advance();
    int64_t bytes = 0;
    if (auto other = dyn_cast<LocalAllocOp>(op)) {
      // Its stores from registers that may run before the reader.
      bool writes = other.getSrc() && mayRunBefore(other, reader);
      forEachBufferUser(other.getResult(), [&](Operation *user, Value view) {
        writes |= writesFromRegisters(user, view) && mayRunBefore(user, reader);
      });
      if (!writes)
        return WalkResult::advance();
      bytes = getMemDescBytes(other.getResult().getType());
    } else {
      if (!mayRunBefore(op, reader))
        return WalkResult::advance();
      bytes = simt::getScratchBytes(op);
    }
    return *at < hi && *lo < *at + bytes ? WalkResult::interrupt()
                                         : WalkResult::advance();
  });
  return aliased.wasInterrupted();
}

Operation *tilec::getMemDescAllocation(Value memdesc) {
  while (true) {
    Operation *def = memdesc.getDefiningOp();
    if (!def)
      return nullptr;
    if (isa<LocalAllocOp>(def))
      return def;
    if (auto idx = dyn_cast<MemDescIndexOp>(def))
      memdesc = idx.getSrc();
    else if (auto sub = dyn_cast<MemDescSubviewOp>(def))
      memdesc = sub.getSrc();
    else if (auto tr = dyn_cast<MemDescTransOp>(def))
      memdesc = tr.getSrc();
    else
      return nullptr;
  }
}

unsigned tilec::getSharedBudget(StringRef chip) {
  // cudaDevAttrMaxSharedMemoryPerBlockOptin (CUDA C Programming Guide,
  // "Technical Specifications per Compute Capability").
  return getTarget(chip).sharedBytes;
}

namespace {

struct Buffer {
  Operation *op;
  int64_t bytes;
  int64_t align;
  int64_t start, end; // program points, inclusive
  int64_t offset = -1;
  /// The consumer group (a region of a tile.warp_specialize with more than
  /// one) whose threads use it, if any: groups run at once, so buffers of
  /// two groups never share bytes, whatever their program points.
  Region *group = nullptr;
};

class AllocateSharedPass
    : public tilec::impl::TileAllocateSharedPassBase<AllocateSharedPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (mlir::failed(checkChipOption(getOperation(), chip)) ||
        mlir::failed(checkTilesHaveLayouts(getOperation())))
      return signalPassFailure();
    bool failed = false;
    getOperation().walk([&](FuncOp func) {
      if (func.isExternal())
        return;
      if (mlir::failed(allocate(func)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }

private:
  LogicalResult allocate(FuncOp func) {
    // Program points: pre-order numbers, and for ops with regions the
    // number after their last nested op.
    DenseMap<Operation *, int64_t> first, last;
    int64_t counter = 0;
    std::function<void(Operation *)> number = [&](Operation *op) {
      first[op] = counter++;
      for (Region &r : op->getRegions())
        for (Block &b : r)
          for (Operation &nested : b)
            number(&nested);
      last[op] = counter++;
    };
    for (Operation &op : func.getBody().front())
      number(&op);

    auto inGroups = [&](Buffer b) {
      auto ws = b.op->getParentOfType<WarpSpecializeOp>();
      if (ws && !ws.getMoreConsumers().empty())
        for (Region *g : ws.getConsumerGroups())
          if (g->isAncestor(b.op->getParentRegion()))
            b.group = g;
      return b;
    };
    SmallVector<Buffer> buffers;
    WalkResult walk = func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
        Buffer b{op, getMemDescBytes(alloc.getResult().getType()),
                 isa<NVMMASharedEncodingAttr>(
                     alloc.getResult().getType().getEncoding())
                     ? 1024
                     : 16,
                 first[op], first[op]};
        // Follow the buffer through its views to every use.
        SmallVector<Value> worklist = {alloc.getResult()};
        while (!worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (isa<MemDescIndexOp, MemDescSubviewOp, MemDescTransOp>(user)) {
              worklist.push_back(user->getResult(0));
              continue;
            }
            if (user->hasTrait<OpTrait::IsTerminator>()) {
              // Carried out of a region: live to the end of the kernel.
              b.end = counter;
              continue;
            }
            int64_t at = last[user];
            // Inside a loop that does not contain the allocation: the next
            // iteration uses it again.
            for (Operation *p = user->getParentOp(); p && p != func;
                 p = p->getParentOp())
              if (isa<LoopLikeOpInterface>(p) && !p->isAncestor(op))
                at = std::max(at, last[p]);
            b.end = std::max(b.end, at);
          }
        }
        buffers.push_back(inGroups(b));
        return WalkResult::advance();
      }
      int64_t scratch = simt::getScratchBytes(op);
      if (scratch > 0)
        buffers.push_back(inGroups({op, scratch, 16, first[op], last[op]}));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // Largest first, then program order; each at the lowest aligned offset
    // free over its range.
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) {
      return a->bytes != b->bytes ? a->bytes > b->bytes : a->start < b->start;
    });
    int64_t total = 0;
    SmallVector<Buffer *> placed;
    for (Buffer *b : order) {
      SmallVector<std::pair<int64_t, int64_t>> busy;
      for (Buffer *p : placed)
        if ((p->start <= b->end && b->start <= p->end) ||
            (p->group && b->group && p->group != b->group))
          busy.push_back({p->offset, p->offset + p->bytes});
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [lo, hi] : busy) {
        if (offset + b->bytes <= lo)
          break;
        offset = std::max<int64_t>(offset, llvm::alignTo(hi, b->align));
      }
      b->offset = offset;
      placed.push_back(b);
      total = std::max(total, offset + b->bytes);
    }

    unsigned budget = sharedBudget ? unsigned(sharedBudget)
                                   : getSharedBudget(chip);
    if (total > int64_t(budget)) {
      InFlightDiagnostic d = func.emitError("kernel '")
                             << func.getName() << "' needs " << total
                             << " bytes of shared memory, more than the "
                             << budget << " bytes "
                             << (sharedBudget ? std::string("allowed")
                                              : chip + " allows per CTA")
                             << "; use smaller tiles or fewer stages";
      // The largest buffers, one note each (at most 10: a kernel of
      // thousands of buffers must not print thousands of notes).
      SmallVector<const Buffer *> bySize;
      for (const Buffer &b : buffers)
        bySize.push_back(&b);
      llvm::stable_sort(bySize, [](const Buffer *x, const Buffer *y) {
        return x->bytes > y->bytes;
      });
      constexpr size_t kMaxNotes = 10;
      int64_t restBytes = 0;
      for (auto [i, b] : llvm::enumerate(bySize)) {
        if (i >= kMaxNotes) {
          restBytes += b->bytes;
          continue;
        }
        Diagnostic &note = d.attachNote(b->op->getLoc());
        if (auto alloc = dyn_cast<LocalAllocOp>(b->op))
          note << alloc.getResult().getType() << ": " << b->bytes << " bytes";
        else
          note << "scratch of '" << b->op->getName() << "': " << b->bytes
               << " bytes";
      }
      if (bySize.size() > kMaxNotes)
        d.attachNote() << "and " << bySize.size() - kMaxNotes
                       << " smaller buffers of " << restBytes
                       << " bytes in all";
      return failure();
    }
    OpBuilder builder(func.getContext());
    for (const Buffer &b : buffers)
      b.op->setAttr(TileDialect::getSharedOffsetAttrName(),
                    builder.getI32IntegerAttr(int32_t(b.offset)));
    func->setAttr(TileDialect::getSharedBytesAttrName(),
                  builder.getI32IntegerAttr(int32_t(total)));
    return success();
  }
};

} // namespace
