//===- AssignLayouts.cpp - Coalescing layouts for memory ops ----*- C++ -*-===//
//
// tile-assign-layouts: gives every tensor of every kernel a distributed
// encoding. The design (see docs/architecture.md):
//
//  1. Anchors. Each load/store of a tile of pointers asks for a blocked
//     layout from the axis analysis of its pointers: dimensions ordered by
//     contiguity, and sizePerThread along the most contiguous one equal to
//     the widest vector access the facts prove (16 bytes at most) but no
//     more than the tile gives each thread.
//  2. Defaults. Every tensor takes the layout chosen for its shape: the
//     widest anchor of that shape, else a plain row-major blocked layout.
//     Operands of tile.expand_dims and anchors that want another layout get
//     tile.convert_layout; a tile.gather's result takes its index's layout.
//  3. Clean-up. A conversion whose source is computed by a cheap,
//     layout-agnostic op is replaced by that op recomputed in the target
//     layout (its operands converted instead), repeatedly, so conversions
//     move up to loads, block arguments and kernel inputs, where they stay.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include "dialects/Tile/IR/Layouts.h"
#include "passes/Analysis/AxisInfo.h"
#include "passes/LayoutUtils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include <set>

#define DEBUG_TYPE "tile-assign-layouts"

namespace tilec {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The pointer operand of a memory op, if it is a tile.
Value getTilePtr(Operation *op) {
  Value ptr;
  if (auto load = dyn_cast<LoadOp>(op))
    ptr = load.getPtr();
  else if (auto store = dyn_cast<StoreOp>(op))
    ptr = store.getPtr();
  if (ptr && isa<RankedTensorType>(ptr.getType()))
    return ptr;
  return {};
}

/// The layout a memory op wants, and the vector width behind it.
struct Anchor {
  BlockedEncodingAttr layout;
  int64_t vec = 1;
};

Anchor computeAnchor(Operation *op, Value ptr, const ModuleAxisInfo &axis,
                     unsigned numWarps) {
  auto type = cast<RankedTensorType>(ptr.getType());
  unsigned rank = type.getRank();
  AxisInfo info = axis.getAxisInfo(ptr);
  // Most contiguous dimension first; ties keep row-major order.
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (info.getRank() == rank)
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return info.getContiguity(a) > info.getContiguity(b);
    });
  int64_t numel = type.getNumElements();
  int64_t perThread =
      std::max<int64_t>(1, numel / (int64_t(numWarps) * 32));
  int64_t vec = axis.getPtrVectorWidth(ptr, order[0], perThread);
  Anchor a;
  a.vec = vec;
  a.layout = getBlockedEncoding(op->getContext(), type.getShape(), numWarps,
                                unsigned(vec), order);
  return a;
}

Anchor computeDescAnchor(DescLoadOp load, unsigned numWarps) {
  RankedTensorType type = load.getType();
  unsigned rank = type.getRank();
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  int64_t bytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t perThread = std::max<int64_t>(
      1, type.getNumElements() / (int64_t(numWarps) * 32));
  int64_t vec = std::min<int64_t>({std::max<int64_t>(1, 16 / bytes),
                                   type.getShape().back(), perThread});
  Anchor a;
  a.vec = vec;
  a.layout = getBlockedEncoding(load.getContext(), type.getShape(), numWarps,
                                unsigned(vec), order);
  return a;
}

class AssignLayoutsPass
    : public tilec::impl::TileAssignLayoutsPassBase<AssignLayoutsPass> {
public:
  using Base::Base;

  /// Non-power-of-two shapes already reported (one error per shape).
  std::set<SmallVector<int64_t>> reportedShapes;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Analyse before any type changes: the facts do not depend on layouts.
    ModuleAxisInfo axis(module);
    bool failedAny = false;
    module.walk([&](FuncOp func) {
      if (failed(assignInFunction(func, axis)))
        failedAny = true;
    });
    if (failedAny)
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    populateRematerializationPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }

private:
  /// Power-of-two shapes, and any encoding already present must be one the
  /// layout math understands for this tensor. Reports each shape once.
  LogicalResult checkShape(Operation *op, RankedTensorType t) {
    if (t.getRank() == 0) {
      op->emitError("unimplemented: a tile of rank 0 (")
          << t << "); use a scalar";
      return failure();
    }
    if (t.getNumElements() > (int64_t(1) << 20)) {
      op->emitError("a tile of ")
          << t.getNumElements() << " elements (" << t
          << ") is larger than the limit of 1048576 (2^20, as Triton)";
      return failure();
    }
    if (t.getEncoding() && failed(getLinearLayout(t)) &&
        llvm::all_of(t.getShape(),
                     [](int64_t s) { return s > 0 && llvm::isPowerOf2_64(s); })) {
      op->emitError("expected a distributed encoding of rank ")
          << t.getRank() << " on " << t << ", found " << t.getEncoding();
      return failure();
    }
    for (int64_t s : t.getShape())
      if (s <= 0 || !llvm::isPowerOf2_64(s)) {
        if (!reportedShapes.insert(SmallVector<int64_t>(t.getShape())).second)
          return failure();
        op->emitError("unimplemented: tile shape [")
            << llvm::make_range(t.getShape().begin(), t.getShape().end())
            << "] is not a power of two in every dimension; pad the tile "
               "to a power of two and mask the extra elements";
        return failure();
      }
    return success();
  }

  LogicalResult assignInFunction(FuncOp func, const ModuleAxisInfo &axis) {
    unsigned warps = func.getNumWarps(numWarps ? numWarps : 4);
    if (warps == 0 || warps > 32 || !llvm::isPowerOf2_32(warps))
      return func.emitError("expected num_warps to be a power of two in "
                            "[1, 32], found ")
             << warps;
    MLIRContext *ctx = func.getContext();
    OpBuilder b(ctx);
    if (!func->hasAttr(TileDialect::getNumWarpsAttrName()))
      func->setAttr(TileDialect::getNumWarpsAttrName(), b.getI32IntegerAttr(warps));

    // 1. Anchors, and the layout of each shape.
    DenseMap<Operation *, Anchor> anchors;
    std::map<SmallVector<int64_t>, Anchor> byShape;
    bool bad = false;
    func.walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (auto t = dyn_cast<RankedTensorType>(v.getType()))
          if (failed(checkShape(op, t)))
            bad = true;
      for (Region &r : op->getRegions())
        for (Block &block : r)
          for (BlockArgument arg : block.getArguments())
            if (auto t = dyn_cast<RankedTensorType>(arg.getType()))
              if (failed(checkShape(op, t)))
                bad = true;
    });
    if (bad)
      return failure();
    func.walk([&](Operation *op) {
      Value ptr = getTilePtr(op);
      Anchor a;
      SmallVector<int64_t> shape;
      if (ptr) {
        a = computeAnchor(op, ptr, axis, warps);
        shape.assign(cast<RankedTensorType>(ptr.getType()).getShape().begin(),
                     cast<RankedTensorType>(ptr.getType()).getShape().end());
      } else if (auto load = dyn_cast<DescLoadOp>(op)) {
        // A block through a descriptor kept for TMA: row-major, 16-byte
        // vectors along the last (unit-stride) dimension, as its masked
        // form would be, should tile-pipeline lower it after all.
        a = computeDescAnchor(load, warps);
        shape.assign(load.getType().getShape().begin(),
                     load.getType().getShape().end());
      } else {
        return;
      }
      anchors[op] = a;
      auto it = byShape.find(shape);
      if (it == byShape.end() || a.vec > it->second.vec)
        byShape[shape] = a;
    });
    if (bad)
      return failure();
    auto blockedFor = [&](ArrayRef<int64_t> s) -> Attribute {
      auto it = byShape.find(SmallVector<int64_t>(s));
      if (it != byShape.end())
        return it->second.layout;
      return getBlockedEncoding(ctx, s, warps);
    };
    // A shape no memory op anchors but a reduction produces takes the
    // reduction's slice layout, so per-row statistics (softmax's max and
    // sum) need no conversion to meet their own expand_dims.
    std::map<SmallVector<int64_t>, Attribute> sliceDefaults;
    func.walk([&](ReduceOp op) {
      auto src = cast<RankedTensorType>(op.getSrcs()[0].getType());
      if (src.getRank() < 2)
        return;
      SmallVector<int64_t> rshape(src.getShape());
      rshape.erase(rshape.begin() + op.getAxis());
      if (byShape.count(rshape))
        return;
      sliceDefaults.emplace(
          rshape, SliceEncodingAttr::get(ctx, op.getAxis(),
                                         blockedFor(src.getShape())));
    });
    auto defaultEncoding = [&](RankedTensorType t) -> Attribute {
      auto it = sliceDefaults.find(SmallVector<int64_t>(t.getShape()));
      if (it != sliceDefaults.end())
        return it->second;
      return blockedFor(t.getShape());
    };
    auto retype = [&](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (t && !t.getEncoding())
        v.setType(withEncoding(t, defaultEncoding(t)));
    };

    // 2. Every tensor takes its shape's layout.
    func.walk([&](Operation *op) {
      for (Region &r : op->getRegions())
        for (Block &block : r)
          for (BlockArgument arg : block.getArguments())
            retype(arg);
      for (Value v : op->getResults())
        retype(v);
      if (auto c = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
          if (dense.getType() != c.getType())
            c.setValueAttr(dense.reshape(cast<ShapedType>(c.getType())));
    });

    // A reduction's results carry the slice of its operand's layout.
    func.walk([&](ReduceOp op) {
      Attribute srcEnc =
          cast<RankedTensorType>(op.getSrcs()[0].getType()).getEncoding();
      for (Value r : op.getResults()) {
        auto t = dyn_cast<RankedTensorType>(r.getType());
        if (!t)
          continue;
        Attribute want = SliceEncodingAttr::get(ctx, op.getAxis(), srcEnc);
        if (t.getEncoding() == want)
          continue;
        r.setType(withEncoding(t, want));
        b.setInsertionPointAfter(op);
        auto back = ConvertLayoutOp::create(b, op.getLoc(), t, r);
        r.replaceAllUsesExcept(back.getResult(), back);
      }
    });

    // A gather's result takes its index's layout (its source may have any:
    // the lowering goes through shared memory).
    func.walk([&](GatherOp op) {
      Attribute want =
          cast<RankedTensorType>(op.getIndex().getType()).getEncoding();
      auto t = cast<RankedTensorType>(op.getType());
      if (t.getEncoding() == want)
        return;
      op.getResult().setType(cast<RankedTensorType>(withEncoding(t, want)));
      b.setInsertionPointAfter(op);
      auto back = ConvertLayoutOp::create(b, op.getLoc(), t, op.getResult());
      op.getResult().replaceAllUsesExcept(back.getResult(), back);
    });

    // broadcast wants its result's layout on its source.
    func.walk([&](BroadcastOp op) {
      auto src = cast<RankedTensorType>(op.getSrc().getType());
      Attribute want = cast<RankedTensorType>(op.getType()).getEncoding();
      if (src.getEncoding() == want)
        return;
      b.setInsertionPoint(op);
      Value cvt = ConvertLayoutOp::create(b, op.getLoc(),
                                          withEncoding(src, want), op.getSrc());
      op.getSrcMutable().assign(cvt);
    });

    // expand_dims wants a slice of its result's layout.
    func.walk([&](ExpandDimsOp op) {
      auto src = cast<RankedTensorType>(op.getSrc().getType());
      Attribute want = SliceEncodingAttr::get(
          ctx, op.getAxis(),
          cast<RankedTensorType>(op.getType()).getEncoding());
      if (src.getEncoding() == want)
        return;
      b.setInsertionPoint(op);
      Value cvt = ConvertLayoutOp::create(b, op.getLoc(),
                                          withEncoding(src, want), op.getSrc());
      op.getSrcMutable().assign(cvt);
    });

    // Anchors whose layout differs from their shape's: convert around them.
    for (auto &[op, anchor] : anchors) {
      if (auto load = dyn_cast<DescLoadOp>(op)) {
        Type oldType = load.getType();
        if (cast<RankedTensorType>(oldType).getEncoding() == anchor.layout)
          continue;
        load.getResult().setType(
            cast<RankedTensorType>(withEncoding(oldType, anchor.layout)));
        b.setInsertionPointAfter(op);
        auto back = ConvertLayoutOp::create(b, op->getLoc(), oldType,
                                            load.getResult());
        load.getResult().replaceAllUsesExcept(back.getResult(), back);
        continue;
      }
      Value ptr = getTilePtr(op);
      auto ptrType = cast<RankedTensorType>(ptr.getType());
      // An anchor that only wants fewer elements per thread along the same
      // order keeps its shape's layout: its own vector width is bounded by
      // its pointers anyway, and a conversion would cost shared memory.
      auto current = dyn_cast<BlockedEncodingAttr>(ptrType.getEncoding());
      if (current && current.getOrder() == anchor.layout.getOrder())
        continue;
      b.setInsertionPoint(op);
      auto convertOperand = [&](OpOperand &operand) {
        auto t = dyn_cast<RankedTensorType>(operand.get().getType());
        if (!t)
          return;
        operand.set(ConvertLayoutOp::create(b, op->getLoc(),
                                            withEncoding(t, anchor.layout),
                                            operand.get()));
      };
      for (OpOperand &operand : op->getOpOperands())
        convertOperand(operand);
      if (auto load = dyn_cast<LoadOp>(op)) {
        Type oldType = load.getType();
        load.getResult().setType(withEncoding(oldType, anchor.layout));
        b.setInsertionPointAfter(op);
        auto back = ConvertLayoutOp::create(b, op->getLoc(), oldType,
                                            load.getResult());
        load.getResult().replaceAllUsesExcept(back.getResult(), back);
      }
    }
    return success();
  }
};

} // namespace
