//===- LowerDescriptors.cpp - descriptor accesses as masked loads -*- C++ -*-===//
//
// tile-lower-descriptors: a block access through a tensor descriptor
// (`tl.make_tensor_descriptor` + `desc.load` / `desc.store`) becomes the
// masked pointer access it means. For a block [B0, ..., Bn-1] at
// coordinates [c0, ..., cn-1] of a tensor (base, shape, strides):
//
//   base' = base + sum_d c_d * stride_d                      (scalar, i64)
//   ptrs  = splat(base') + sum_d bcast(arange(B_d) * stride_d)
//   mask  = AND_d bcast(0 <= c_d + arange(B_d) < shape_d)    (i64 compares)
//
// which is what a TMA box reads and writes (PTX ISA 5.5.6, "Tensor access
// modes": out-of-bound elements fill with zero, or NaN, on a load and are
// skipped on a store). A stride that is the constant 1 (Triton requires it
// of the last dimension) keeps that dimension's offsets in i32 with no
// multiply, so the axis analysis sees the contiguity the coalescing and
// vector widths rest on.
//
// With `keep-tma-candidates`, 2-D loads through a host-side descriptor (a
// `tile.tensordesc` kernel argument) in a loop body, and 2-D stores through
// one, stay: tile-pipeline copies them with TMA where it can (loads whose
// block feeds a wgmma operand buffer; stores of blocks of whole swizzle
// rows) and lowers the others itself (lowerDescriptorAccess, in whatever
// layout the layout passes gave the block by then).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"
#include "passes/LayoutUtils.h"

#include "dialects/Tile/IR/TileDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace tilec {
#define GEN_PASS_DEF_TILELOWERDESCRIPTORSPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

bool isConstantOne(Value v) {
  APInt c;
  return matchPattern(v, m_ConstantInt(&c)) && c.isOne();
}

/// `enc` (the block's encoding, or null before layouts are assigned)
/// restricted to the dimensions in `keep`: a #tile.slice of it along each
/// other dimension, the highest first.
Attribute encodingKeeping(Attribute enc, unsigned rank,
                          ArrayRef<unsigned> keep) {
  if (!enc)
    return {};
  for (unsigned d = rank; d-- > 0;)
    if (!llvm::is_contained(keep, d))
      enc = SliceEncodingAttr::get(enc.getContext(), d, enc);
  return enc;
}

/// A 1-D tile along dimension `dim` of `shape` (in the encoding keeping
/// only `dim`), given size-1 dimensions around it and broadcast to the
/// whole block.
Value broadcastAlong(OpBuilder &b, Location loc, Value v, unsigned dim,
                     ArrayRef<int64_t> shape, Attribute enc) {
  auto t = cast<RankedTensorType>(v.getType());
  Type elem = t.getElementType();
  unsigned rank = shape.size();
  SmallVector<int64_t> cur = {shape[dim]};
  SmallVector<unsigned> dims = {dim};
  for (unsigned axis = 0; axis < rank; ++axis) {
    if (axis == dim)
      continue;
    cur.insert(cur.begin() + axis, 1);
    dims.push_back(axis);
    auto type = RankedTensorType::get(cur, elem,
                                      encodingKeeping(enc, rank, dims));
    v = ExpandDimsOp::create(b, loc, type, v,
                             b.getI32IntegerAttr(int32_t(axis)));
  }
  if (cur != SmallVector<int64_t>(shape))
    v = BroadcastOp::create(b, loc, RankedTensorType::get(shape, elem, enc), v);
  return v;
}

/// The pointer tile and mask of the block at `coords` of `desc`.
std::pair<Value, Value> blockAccess(OpBuilder &b, Location loc,
                                    MakeTensorDescOp desc, ValueRange coords,
                                    Attribute enc) {
  RankedTensorType block = desc.getResult().getType().getBlockType();
  ArrayRef<int64_t> shape = block.getShape();
  unsigned rank = shape.size();
  auto ptrType = desc.getBase().getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();

  // Coordinates in 64 bits; the block's first element.
  SmallVector<Value> coords64;
  for (Value c : coords)
    coords64.push_back(toI64(b, loc, c));
  Value offset;
  for (auto [c, stride] : llvm::zip(coords64, desc.getStrides())) {
    Value term = c;
    if (!isConstantOne(stride)) {
      Value s = toI64(b, loc, stride);
      term = arith::MulIOp::create(b, loc, c, s);
    }
    offset = offset ? arith::AddIOp::create(b, loc, offset, term) : term;
  }
  Value first = AddPtrOp::create(b, loc, ptrType, desc.getBase(), offset);
  Value ptrs = SplatOp::create(
      b, loc, RankedTensorType::get(shape, ptrType, enc), first);

  Value mask;
  for (unsigned d = 0; d < shape.size(); ++d) {
    auto rangeType = RankedTensorType::get(
        {shape[d]}, i32, encodingKeeping(enc, rank, {d}));
    auto rangeType64 = rangeType.clone(i64);
    Value range = MakeRangeOp::create(b, loc, rangeType, b.getI32IntegerAttr(0),
                                      b.getI32IntegerAttr(int32_t(shape[d])));
    Value range64 = toI64(b, loc, range);
    // Offsets of dimension d within the block.
    Value stride = desc.getStrides()[d];
    Value offs = range;
    if (!isConstantOne(stride)) {
      Value s64 = toI64(b, loc, stride);
      Value s = SplatOp::create(b, loc, rangeType64, s64);
      offs = arith::MulIOp::create(b, loc, range64, s);
    }
    Value offsTile = broadcastAlong(b, loc, offs, d, shape, enc);
    ptrs = AddPtrOp::create(b, loc, ptrs.getType(), ptrs, offsTile);
    // 0 <= coordinate < shape, in 64 bits (no wrap near 2^31).
    Value start = SplatOp::create(b, loc, rangeType64, coords64[d]);
    Value coord = arith::AddIOp::create(b, loc, start, range64);
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(rangeType64, APInt(64, 0)));
    Value shape64 = toI64(b, loc, desc.getShape()[d]);
    Value extent = SplatOp::create(b, loc, rangeType64, shape64);
    Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord,
                                     zero);
    Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, coord,
                                     extent);
    Value in = arith::AndIOp::create(b, loc, ge, lt);
    in = broadcastAlong(b, loc, in, d, shape, enc);
    mask = mask ? arith::AndIOp::create(b, loc, mask, in) : in;
  }
  return {ptrs, mask};
}

/// Whether `desc` is made, at the kernel's entry, from a host-side
/// descriptor argument (`tile.tensordesc`): its base, sizes and strides
/// unchanged.
bool isHostDescriptor(MakeTensorDescOp desc) {
  auto base = dyn_cast<BlockArgument>(desc.getBase());
  if (!base)
    return false;
  auto func = dyn_cast<FuncOp>(base.getOwner()->getParentOp());
  if (!func || !func.getArgAttr(base.getArgNumber(),
                                TileDialect::getTensorDescAttrName()))
    return false;
  unsigned i = base.getArgNumber();
  unsigned rank = desc.getShape().size();
  Block *entry = base.getOwner();
  if (i + 2 * rank > entry->getNumArguments())
    return false;
  for (unsigned d = 0; d < rank; ++d) {
    if (desc.getShape()[d] != entry->getArgument(i + 1 + d))
      return false;
    if (d + 1 < rank && desc.getStrides()[d] != entry->getArgument(i + 1 + rank + d))
      return false;
  }
  return isConstantOne(desc.getStrides()[rank - 1]);
}

struct TileLowerDescriptorsPass
    : tilec::impl::TileLowerDescriptorsPassBase<TileLowerDescriptorsPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<DescLoadOp, DescStoreOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      if (keepTMACandidates && isTMACandidate(op))
        continue;
      if (mlir::failed(lowerDescriptorAccess(op)))
        failed = true;
    }
    eraseDeadDescriptors(getOperation());
    if (failed)
      signalPassFailure();
  }

  /// A 2-D load directly in a loop body through a descriptor TMA can read
  /// (a host-side one, or one the launch can encode), or a 2-D store
  /// through one.
  static bool isTMACandidate(Operation *op) {
    if (auto load = dyn_cast<DescLoadOp>(op)) {
      if (load.getType().getRank() != 2 ||
          !isa<scf::ForOp>(op->getParentOp()))
        return false;
      auto desc = load.getDesc().getDefiningOp<MakeTensorDescOp>();
      return desc && hasTensorMapSource(desc);
    }
    auto store = cast<DescStoreOp>(op);
    auto desc = store.getDesc().getDefiningOp<MakeTensorDescOp>();
    return desc && hasTensorMapSource(desc) &&
           cast<RankedTensorType>(store.getSrc().getType()).getRank() == 2;
  }
};

} // namespace

LogicalResult tilec::lowerDescriptorAccess(Operation *op) {
  Value d = isa<DescLoadOp>(op) ? cast<DescLoadOp>(op).getDesc()
                                : cast<DescStoreOp>(op).getDesc();
  auto desc = d.getDefiningOp<MakeTensorDescOp>();
  if (!desc) {
    InFlightDiagnostic diag = op->emitError(
        "unimplemented: an access through a tensor descriptor that is "
        "not made by tile.make_tensor_desc in the kernel (a "
        "loop-carried, selected or argument descriptor); found ");
    if (Operation *def = d.getDefiningOp())
      diag << "the result of '" << def->getName() << "'";
    else
      diag << "a block argument";
    return failure();
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (auto load = dyn_cast<DescLoadOp>(op)) {
    Attribute enc = load.getType().getEncoding();
    auto [ptrs, mask] = blockAccess(b, loc, desc, load.getIndices(), enc);
    Value other;
    if (desc.getNanPadding()) {
      auto t = load.getType();
      auto ft = cast<FloatType>(t.getElementType());
      other = arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(t,
                                 APFloat::getQNaN(ft.getFloatSemantics())));
    }
    Value v = LoadOp::create(b, loc, load.getType(), ptrs, mask, other);
    load.replaceAllUsesWith(v);
  } else {
    auto store = cast<DescStoreOp>(op);
    Attribute enc =
        cast<RankedTensorType>(store.getSrc().getType()).getEncoding();
    auto [ptrs, mask] = blockAccess(b, loc, desc, store.getIndices(), enc);
    StoreOp::create(b, loc, ptrs, store.getSrc(), mask);
  }
  op->erase();
  return success();
}

void tilec::eraseDeadDescriptors(Operation *root) {
  root->walk([](MakeTensorDescOp desc) {
    if (desc->use_empty())
      desc->erase();
  });
}

bool tilec::isHostTensorDescriptor(MakeTensorDescOp desc) {
  return isHostDescriptor(desc);
}

namespace {
/// The postfix text of `v` (docs/runtime.md, `launch_maps=`) if it is an
/// i32 or i64 expression of scalar signature entries and constants through
/// add, sub, mul, signed max, sign and zero extension and truncation, and the largest
/// power of two known to divide it (at most 2^30): from the arguments'
/// `tile.divisibility`, the constants' values.
struct LaunchExpression {
  std::string text;
  int64_t divisibility = 1;
};

std::optional<LaunchExpression> getLaunchExpression(FuncOp func,
                                                    ArrayRef<unsigned> entries,
                                                    Value v, unsigned &budget) {
  constexpr int64_t kMost = int64_t(1) << 30;
  // The expression is a tree: a shared subexpression is written out at each
  // use, so a size is capped (a masked access instead) rather than grown.
  if (budget == 0)
    return std::nullopt;
  --budget;
  auto width = [](Value x) -> unsigned {
    auto t = dyn_cast<IntegerType>(x.getType());
    return t && (t.getWidth() == 32 || t.getWidth() == 64) ? t.getWidth() : 0;
  };
  if (!width(v))
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != &func.getBody().front())
      return std::nullopt;
    const unsigned *entry = llvm::find(entries, arg.getArgNumber());
    if (entry == entries.end() ||
        func.getArgAttr(arg.getArgNumber(), TileDialect::getTensorDescAttrName()))
      return std::nullopt;
    auto div = func.getArgAttrOfType<IntegerAttr>(
        arg.getArgNumber(), TileDialect::getDivisibilityAttrName());
    return LaunchExpression{"a" + std::to_string(entry - entries.begin()),
                            div ? std::min(div.getInt(), kMost) : 1};
  }
  Operation *def = v.getDefiningOp();
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    int64_t value = c.getSExtValue();
    return LaunchExpression{
        "c" + std::to_string(value),
        value ? int64_t(1) << std::min(30, llvm::countr_zero(uint64_t(value)))
              : kMost};
  }
  auto operand = [&](unsigned k) {
    return getLaunchExpression(func, entries, def->getOperand(k), budget);
  };
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def)) {
    auto x = operand(0);
    if (!x || width(def->getOperand(0)) == width(v))
      return std::nullopt;
    x->text += isa<arith::ExtSIOp>(def)   ? ".sext"
               : isa<arith::ExtUIOp>(def) ? ".zext"
                                          : ".trunc";
    return x;
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MaxSIOp>(def))
    return std::nullopt;
  auto x = operand(0), y = operand(1);
  if (!x || !y)
    return std::nullopt;
  std::string op = isa<arith::AddIOp>(def)   ? "add"
                   : isa<arith::SubIOp>(def) ? "sub"
                   : isa<arith::MulIOp>(def) ? "mul"
                                             : "max";
  int64_t div = isa<arith::MulIOp>(def)
                    ? std::min(x->divisibility * y->divisibility, kMost)
                    : std::min(x->divisibility, y->divisibility);
  return LaunchExpression{x->text + "." + y->text + "." + op +
                              std::to_string(width(v)),
                          div};
}
} // namespace

DictionaryAttr tilec::getLaunchTensorMapSource(MakeTensorDescOp desc) {
  auto func = desc->getParentOfType<FuncOp>();
  auto base = dyn_cast<BlockArgument>(desc.getBase());
  if (!func || !func.isKernel() || !base ||
      base.getOwner() != &func.getBody().front() || isHostDescriptor(desc))
    return {};
  SmallVector<unsigned> entries = func.getSignatureArguments();
  const unsigned *entry = llvm::find(entries, base.getArgNumber());
  auto align = func.getArgAttrOfType<IntegerAttr>(
      base.getArgNumber(), TileDialect::getDivisibilityAttrName());
  if (entry == entries.end() || !align || align.getInt() < 16 ||
      func.getArgAttr(base.getArgNumber(), TileDialect::getTensorDescAttrName()))
    return {};
  Type elem = desc.getType().getBlockType().getElementType();
  auto ptr = dyn_cast<PtrType>(base.getType());
  if (!ptr || ptr.getPointeeType() != elem)
    return {};
  int64_t bytes = std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
  unsigned rank = desc.getShape().size();
  if (!isConstantOne(desc.getStrides()[rank - 1]))
    return {};
  Builder b(desc.getContext());
  SmallVector<Attribute> shape, strides;
  // At most this many tokens per size or stride.
  constexpr unsigned kMaxTokens = 64;
  for (unsigned d = 0; d < rank; ++d) {
    unsigned budget = kMaxTokens;
    auto size = getLaunchExpression(func, entries, desc.getShape()[d], budget);
    if (!size)
      return {};
    shape.push_back(b.getStringAttr(size->text));
    if (d + 1 == rank)
      break;
    // TMA's global strides are multiples of 16 bytes.
    budget = kMaxTokens;
    auto stride =
        getLaunchExpression(func, entries, desc.getStrides()[d], budget);
    if (!stride || (stride->divisibility * bytes) % 16 != 0)
      return {};
    strides.push_back(b.getStringAttr(stride->text));
  }
  return b.getDictionaryAttr(
      {b.getNamedAttr("element", TypeAttr::get(elem)),
       b.getNamedAttr("base", b.getI32IntegerAttr(int32_t(entry - entries.begin()))),
       b.getNamedAttr("shape", b.getArrayAttr(shape)),
       b.getNamedAttr("strides", b.getArrayAttr(strides))});
}

bool tilec::hasTensorMapSource(MakeTensorDescOp desc) {
  return isHostDescriptor(desc) || getLaunchTensorMapSource(desc);
}
