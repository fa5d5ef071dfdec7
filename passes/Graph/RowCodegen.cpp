//===- RowCodegen.cpp - Row groups as one kernel ----------------*- C++ -*-===//
//
// The kernel of a row group runs one program per row. Values of the group
// are of two kinds: full (one element per element of the row: a tile of a
// block of the row) and per-row (one scalar per row: a reduction's result
// and the maps of such results). A full value whose inputs depend on k
// reductions in a chain has level k: it can be computed once the row's
// k-th results are known, so a row held whole (short static rows) is one
// straight pass, and a longer row is walked once per level, each walk
// recomputing the full values it needs from the buffers (as Triton's
// layer-norm tutorial does for long rows). A walked row whose dimensions
// but the last are static takes 2D blocks (see RowKernelBuilder::blockType)
// so that inputs indexed by those dimensions need no division.
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/RowCodegen.h"
#include "passes/Graph/GraphUtils.h"
#include "passes/Graph/MapCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

RowSpace RowSpace::of(RowReduceOp op) {
  return {op.getInput(), op.getNumReducedDims()};
}

MemRefType RowSpace::getFullType() const {
  return cast<MemRefType>(full.getType());
}

SmallVector<int64_t> RowSpace::getRowShape() const {
  SmallVector<int64_t> shape(getFullType().getShape());
  for (size_t d = shape.size() - reducedDims; d < shape.size(); ++d)
    shape[d] = 1;
  return shape;
}

bool RowSpace::isHeldWhole(const RowKernelOptions &options) const {
  MemRefType full = getFullType();
  int64_t cols = 1;
  for (int64_t d = full.getRank() - reducedDims; d < full.getRank(); ++d) {
    if (full.isDynamicDim(d) || full.getDimSize(d) > options.maxRowBlock)
      return false;
    cols *= full.getDimSize(d);
    if (cols > options.maxRowBlock)
      return false;
  }
  return int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(cols, 32))) <=
         options.maxRowBlock;
}

bool RowSpace::contains(Operation *op) const {
  ArrayRef<int64_t> fullShape = getFullType().getShape();
  SmallVector<int64_t> rowShape = getRowShape();
  if (auto reduce = dyn_cast<RowReduceOp>(op))
    return reduce.getInputType().getShape() == fullShape &&
           reduce.getOutputType().getShape() == ArrayRef(rowShape);
  auto map = dyn_cast<MapOp>(op);
  if (!map || llvm::is_contained(map.getInputs(), map.getOutput()))
    return false;
  ArrayRef<int64_t> shape = map.getOutputType().getShape();
  return shape == fullShape || shape == ArrayRef(rowShape);
}

namespace {

Value getOutput(Operation *op) {
  if (auto map = dyn_cast<MapOp>(op))
    return map.getOutput();
  return cast<RowReduceOp>(op).getOutput();
}

/// Builds the kernel of one row group.
class RowKernelBuilder {
public:
  RowKernelBuilder(GraphOp graph, ArrayRef<Operation *> ops,
                   const RowSpace &space, const RowKernelOptions &options)
      : graph(graph), ops(ops), space(space), options(options),
        members(ops.begin(), ops.end()) {}

  LaunchOp build(SymbolTable &symbols);

private:
  /// Whether the buffer `v` a member writes holds one value per row.
  bool isPerRow(Value v) {
    Operation *writer = writerOf.lookup(v);
    if (isa<RowReduceOp>(writer))
      return true;
    auto map = cast<MapOp>(writer);
    return !fullIsRow && map.getOutputType().getShape() ==
                             ArrayRef(space.getRowShape());
  }
  /// Whether something outside the group sees `v`, a buffer a member
  /// writes: it must be stored.
  bool isVisible(Value v) {
    if (!v.getDefiningOp<AllocOp>())
      return true;
    return llvm::any_of(v.getUsers(), [&](Operation *user) {
      return !members.contains(user) && !isa<memref::DimOp>(user);
    });
  }
  unsigned getLevel(Value v);

  // Kernel arguments.
  Value addArgument(Value operand, Type type, DictionaryAttr attrs);
  Value getPointer(Value buffer);

  // Values inside the kernel.
  Value getRowValue(Value v);
  Value getFullValue(Value v);
  Value loadInput(Value in, bool full);
  Value getSizeProduct(OpBuilder &b, MemRefType input, int64_t from);
  Value broadcastTo(OpBuilder &b, Value v, RankedTensorType type);
  Value evaluateMap(MapOp map, OpBuilder &b, bool full);

  GraphOp graph;
  ArrayRef<Operation *> ops;
  const RowSpace &space;
  const RowKernelOptions &options;
  llvm::SetVector<Operation *> members;
  DenseMap<Value, Operation *> writerOf;
  DenseMap<Value, unsigned> levels;
  /// The full shape's reduced dimensions are all static 1: a row is one
  /// element, and values of both kinds are per element.
  bool fullIsRow = false;

  FuncOp kernel;
  SmallVector<Value> operands;
  DenseMap<Value, Value> argOf;
  SmallVector<Value> dims; // per full dimension: an i64 size or null
  Type offType;
  /// The tile of a block: [block] flat columns of the row, or, for a
  /// walked row whose dimensions but the last are static (GroupNorm's
  /// channels x pixels), [outerBlock, innerBlock]: every index of the
  /// leading row dimensions (flattened) x a block of the last one, so that
  /// an input indexed by those dimensions (a per-channel weight) needs no
  /// division and loads once per row.
  RankedTensorType blockType;
  bool twoD = false;
  Value row;             // the row, in offType
  Value rowOffset;       // the flat offset of the row's first element
  Value lastSize;        // 2D: the size of the row's last dimension
  OpBuilder rowBuilder{graph.getContext()};   // row scope
  OpBuilder blockBuilder{graph.getContext()}; // the current block
  Value blockOffsets, blockMask;
  Value blockColumns;          // 1D: the block's columns in the row
  Value blockOuter, outerMask; // 2D: [outerBlock, 1] indices, mask or null
  Value blockInner, innerMask; // 2D: [1, innerBlock] indices in the last
                               // dimension, mask
  DenseMap<Value, Value> rowValues, blockValues, rowLoads, blockLoads,
      rowScopeLoads;
};

unsigned RowKernelBuilder::getLevel(Value v) {
  auto it = levels.find(v);
  if (it != levels.end())
    return it->second;
  Operation *writer = writerOf.lookup(v);
  unsigned level = 0;
  if (auto reduce = dyn_cast_or_null<RowReduceOp>(writer)) {
    level = getLevel(reduce.getInput()) + 1;
  } else if (auto map = dyn_cast_or_null<MapOp>(writer)) {
    for (Value in : map.getInputs())
      if (isa<MemRefType>(in.getType()))
        level = std::max(level, getLevel(in));
  }
  return levels[v] = level;
}

Value RowKernelBuilder::addArgument(Value operand, Type type,
                                    DictionaryAttr attrs) {
  unsigned i = kernel.getNumArguments();
  (void)kernel.insertArgument(i, type, attrs, operand.getLoc());
  operands.push_back(operand);
  return kernel.getArgument(i);
}

Value RowKernelBuilder::getPointer(Value buffer) {
  auto it = argOf.find(buffer);
  if (it != argOf.end())
    return it->second;
  auto type = cast<MemRefType>(buffer.getType());
  Value arg = addArgument(
      buffer, PtrType::get(graph.getContext(), type.getElementType()),
      getBufferFacts(graph, buffer));
  return argOf[buffer] = arg;
}

/// The product of `input`'s sizes from full dimension `from` on (`input`
/// aligned with the full shape's trailing dimensions; a dimension it lacks
/// or broadcasts counts 1, one it keeps the full shape's size -- a dynamic
/// input size equals it, checked at launch), in offType.
Value RowKernelBuilder::getSizeProduct(OpBuilder &b, MemRefType input,
                                       int64_t from) {
  MemRefType full = space.getFullType();
  int64_t rank = full.getRank(), shift = rank - input.getRank();
  SmallVector<int64_t> kept(full.getShape());
  for (int64_t d = 0; d < rank; ++d)
    if (d < shift || input.getDimSize(d - shift) == 1)
      kept[d] = 1;
  return tilec::getSizeProduct(b, graph.getLoc(), full.clone(kept), from, rank,
                               dims, offType);
}

Value RowKernelBuilder::broadcastTo(OpBuilder &b, Value v,
                                    RankedTensorType type) {
  auto from = dyn_cast<RankedTensorType>(v.getType());
  if (!from)
    return SplatOp::create(b, v.getLoc(), type.clone(v.getType()), v);
  type = type.clone(from.getElementType());
  if (from == type)
    return v;
  return BroadcastOp::create(b, v.getLoc(), type, v);
}

/// A map input read from its buffer (not computed in the kernel): per row
/// (a scalar at the row) or per element of the current block. A block's
/// offsets are split where the row starts: the input's offset of the row's
/// leading indices (a scalar, once per row) times the input's size in the
/// row dimensions, plus its offset of the column indices. In a 2D block the
/// latter is split again into the leading row dimensions' part (an
/// [outerBlock, 1] tile: constant divisions at most) and the last
/// dimension's; an input that broadcasts one of the two is loaded at the
/// smaller shape (once per row where it does not depend on the last
/// dimension) and broadcast.
Value RowKernelBuilder::loadInput(Value in, bool full) {
  auto &cache = full ? blockLoads : rowLoads;
  if (auto it = cache.find(in); it != cache.end())
    return it->second;
  if (auto it = rowScopeLoads.find(in); full && it != rowScopeLoads.end())
    return cache[in] = it->second;
  Location loc = in.getLoc();
  auto type = cast<MemRefType>(in.getType());
  MemRefType fullType = space.getFullType();
  if (!full) {
    MemRefType out =
        MemRefType::get(space.getRowShape(), fullType.getElementType());
    return cache[in] = loadMapInput(rowBuilder, loc, type, out, getPointer(in),
                                    row, Value(), dims);
  }
  // `type` and the full shape restricted to full dimensions [from, to).
  int64_t rank = fullType.getRank(), lead = rank - space.reducedDims;
  int64_t shift = rank - type.getRank();
  Type elem = type.getElementType();
  auto part = [&](int64_t from, int64_t to) {
    int64_t first = std::max(from, shift);
    return std::make_pair(
        MemRefType::get(type.getShape().slice(first - shift,
                                              std::max<int64_t>(to - first, 0)),
                        elem),
        MemRefType::get(fullType.getShape().slice(from, to - from), elem));
  };
  // offset(input, indices in [from, to)) within that part; null if 0.
  auto offsetOf = [&](OpBuilder &b, int64_t from, int64_t to,
                      Value off) -> Value {
    auto [in, out] = part(from, to);
    if (in.getRank() == 0 ||
        llvm::all_of(in.getShape(), [](int64_t s) { return s == 1; }))
      return Value();
    Value r = getInputOffset(b, loc, in, out, off,
                             ArrayRef(dims).slice(from, to - from));
    return matchPattern(r, m_Zero()) ? Value() : r;
  };
  OpBuilder &rb = rowBuilder, &bb = blockBuilder;
  Value rowPart = offsetOf(rb, 0, lead, row);
  if (rowPart)
    rowPart =
        arith::MulIOp::create(rb, loc, rowPart, getSizeProduct(rb, type, lead));
  Value ptr = getPointer(in);
  if (rowPart)
    ptr = offsetPointer(rb, loc, ptr, rowPart);
  // The column part: a tile in the block's shape or one of its 2D factors,
  // its mask, whether it is the same for every block of the row.
  Value off, mask = blockMask;
  bool perRow = false;
  if (!twoD) {
    off = offsetOf(bb, lead, rank, blockColumns);
  } else {
    Value outer = offsetOf(rb, lead, rank - 1, blockOuter);
    bool keepsLast = shift < rank && type.getDimSize(type.getRank() - 1) != 1;
    if (!keepsLast) {
      off = outer;
      mask = outerMask;
      perRow = true;
    } else if (!outer) {
      off = blockInner;
      mask = innerMask;
    } else {
      outer = arith::MulIOp::create(
          rb, loc, outer,
          SplatOp::create(rb, loc, cast<RankedTensorType>(outer.getType()),
                          lastSize));
      off = arith::AddIOp::create(bb, loc, broadcastTo(bb, outer, blockType),
                                  broadcastTo(bb, blockInner, blockType));
    }
  }
  if (!off || perRow) {
    // The same for every block of the row: loaded once, before the walks.
    Value v =
        off ? LoadOp::create(rb, loc,
                             cast<RankedTensorType>(off.getType()).clone(elem),
                             offsetPointer(rb, loc, ptr, off), mask, Value())
                  .getResult()
            : LoadOp::create(rb, loc, elem, ptr, Value(), Value()).getResult();
    // Broadcast there too: a layout conversion once per row, not per block.
    v = broadcastTo(rb, v, blockType);
    rowScopeLoads[in] = v;
    return cache[in] = v;
  }
  Value v =
      LoadOp::create(bb, loc, cast<RankedTensorType>(off.getType()).clone(elem),
                     offsetPointer(bb, loc, ptr, off), mask, Value());
  return cache[in] = broadcastTo(bb, v, blockType);
}

Value RowKernelBuilder::evaluateMap(MapOp map, OpBuilder &b, bool full) {
  SmallVector<Value> args;
  for (Value in : map.getInputs()) {
    if (!isa<MemRefType>(in.getType())) {
      auto it = argOf.find(in);
      if (it == argOf.end())
        it = argOf.try_emplace(in, addArgument(in, in.getType(), nullptr))
                 .first;
      args.push_back(it->second);
    } else if (writerOf.count(in)) {
      args.push_back(isPerRow(in) ? getRowValue(in) : getFullValue(in));
    } else {
      // A buffer of the row shape is read once per row.
      bool perRow = !fullIsRow && cast<MemRefType>(in.getType()).getShape() ==
                                      ArrayRef(space.getRowShape());
      args.push_back(loadInput(in, full && !perRow));
    }
  }
  Type elem = map.getOutputType().getElementType();
  return emitMapBody(b, map.getLoc(), map.getBody().front(), args,
                     full ? blockType.clone(elem) : RankedTensorType());
}

Value RowKernelBuilder::getRowValue(Value v) {
  auto it = rowValues.find(v);
  if (it != rowValues.end())
    return it->second;
  // Reductions' results are set where their walk ends, before any use.
  auto map = cast<MapOp>(writerOf.lookup(v));
  return rowValues[v] = evaluateMap(map, rowBuilder, /*full=*/false);
}

Value RowKernelBuilder::getFullValue(Value v) {
  auto it = blockValues.find(v);
  if (it != blockValues.end())
    return it->second;
  Value result;
  Operation *writer = writerOf.lookup(v);
  if (writer && isPerRow(v)) {
    Value r = getRowValue(v);
    result = SplatOp::create(blockBuilder, v.getLoc(),
                             blockType.clone(r.getType()), r);
  } else if (auto map = dyn_cast_or_null<MapOp>(writer)) {
    result = evaluateMap(map, blockBuilder, /*full=*/true);
  } else {
    // A buffer of the full shape read by a reduction.
    MemRefType type = space.getFullType();
    result = LoadOp::create(
        blockBuilder, v.getLoc(),
        blockType.clone(type.getElementType()),
        offsetPointer(blockBuilder, v.getLoc(), getPointer(v), blockOffsets),
        blockMask, Value());
  }
  return blockValues[v] = result;
}

LaunchOp RowKernelBuilder::build(SymbolTable &symbols) {
  MLIRContext *ctx = graph.getContext();
  Operation *last = ops.back();
  Location loc = last->getLoc();
  OpBuilder gb(last);
  Builder b(ctx);
  MemRefType fullType = space.getFullType();
  int64_t rank = fullType.getRank();
  int64_t lead = rank - space.reducedDims;
  for (Operation *op : ops)
    writerOf[getOutput(op)] = op;
  fullIsRow = llvm::all_of(fullType.getShape().drop_front(lead),
                           [](int64_t s) { return s == 1; });

  // Sizes: the number of rows (the grid) and of elements in a row.
  int64_t staticCols = 1, staticNumel = 1;
  bool dynamicCols = false, dynamicRows = false;
  for (int64_t d = 0; d < rank; ++d) {
    bool dynamic = fullType.isDynamicDim(d);
    (d < lead ? dynamicRows : dynamicCols) |= dynamic;
    if (!dynamic) {
      staticNumel *= fullType.getDimSize(d);
      if (d >= lead)
        staticCols *= fullType.getDimSize(d);
    }
  }
  bool whole = space.isHeldWhole(options);
  int64_t block =
      whole ? int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(staticCols, 32)))
            : std::min(options.loopBlock, options.maxRowBlock);
  // i32 offsets where every offset and the walk's counter (up to a block
  // past the row) fit.
  bool narrow = !dynamicRows && !dynamicCols &&
                staticNumel + block < (int64_t(1) << 31);
  offType = narrow ? b.getI32Type() : b.getI64Type();
  int64_t numWarps =
      whole ? std::clamp<int64_t>(block / 256, 1, 8)
            : std::clamp<int64_t>(options.loopWarps, 1,
                                  std::max<int64_t>(1, block / 32));
  // A walked row of two or more dimensions, all but the last static (and
  // few enough for 32 columns of the last per block): 2D blocks.
  // outerSize: 2D: the product of the leading row dimensions.
  int64_t outerBlock = 1, outerSize = 1;
  if (!whole && space.reducedDims >= 2 && fullType.getDimSize(rank - 1) != 1) {
    ArrayRef<int64_t> outer = fullType.getShape().slice(lead, rank - 1 - lead);
    if (llvm::none_of(outer, ShapedType::isDynamic)) {
      for (int64_t size : outer)
        outerSize *= size;
      outerBlock = int64_t(llvm::PowerOf2Ceil(outerSize));
      twoD = outerSize > 1 && outerBlock * 32 <= block;
    }
  }
  blockType =
      twoD ? RankedTensorType::get({outerBlock, block / outerBlock}, offType)
           : RankedTensorType::get({block}, offType);

  // The kernel, its arguments added as the body needs them.
  OpBuilder mb(graph);
  kernel = FuncOp::create(mb, loc, (graph.getName() + "_rows").str(),
                          FunctionType::get(ctx, {}, {}));
  symbols.insert(kernel, Block::iterator(graph));
  kernel->setAttr(TileDialect::getNumWarpsAttrName(),
                  b.getI32IntegerAttr(numWarps));
  Block *body = mb.createBlock(&kernel.getBody());
  OpBuilder kb = OpBuilder::atBlockEnd(body);

  // The dynamic sizes the kernel needs: of a row, and those the offsets of
  // broadcast inputs need.
  llvm::SmallBitVector needed(rank);
  for (int64_t d = lead; d < rank; ++d)
    needed[d] = fullType.isDynamicDim(d);
  for (Operation *op : ops)
    if (auto map = dyn_cast<MapOp>(op))
      for (Value in : map.getInputs())
        if (auto t = dyn_cast<MemRefType>(in.getType()))
          for (unsigned d : getNeededOutputDims(t, map.getOutputType()))
            needed[d] = needed[d] || fullType.isDynamicDim(d);
  dims.assign(rank, Value());
  for (unsigned d : needed.set_bits()) {
    Value size = arith::IndexCastOp::create(
        gb, loc, b.getI64Type(), getDimValue(gb, loc, space.full, d));
    dims[d] = addArgument(size, b.getI64Type(), nullptr);
  }
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(kb, loc, offType, v);
  };
  Value cols;
  for (int64_t d = lead; d < rank; ++d)
    if (dims[d])
      cols = cols ? arith::MulIOp::create(kb, loc, cols, dims[d]).getResult()
                  : dims[d];
  if (!cols || staticCols != 1)
    cols = cols ? arith::MulIOp::create(kb, loc, cols, constant(staticCols))
                      .getResult()
                : constant(staticCols);
  row = ProgramIdOp::create(kb, loc, kb.getI32Type(), 0);
  if (!narrow)
    row = arith::ExtSIOp::create(kb, loc, offType, row);
  rowOffset = arith::MulIOp::create(kb, loc, row, cols);
  // Index tiles: [n] in offType, as [n] (1D) or expanded at `axis`.
  auto makeRange = [&](int64_t n, std::optional<int32_t> axis) -> Value {
    auto type = RankedTensorType::get({n}, offType);
    Value r =
        MakeRangeOp::create(kb, loc, type.clone(kb.getI32Type()),
                            kb.getI32IntegerAttr(0), kb.getI32IntegerAttr(n));
    if (!narrow)
      r = arith::ExtSIOp::create(kb, loc, type, r);
    if (!axis)
      return r;
    SmallVector<int64_t> shape{n};
    shape.insert(shape.begin() + *axis, 1);
    return ExpandDimsOp::create(kb, loc, type.clone(shape), r,
                                kb.getI32IntegerAttr(*axis));
  };
  Value range, outerBase;
  int64_t step = block;
  if (!twoD) {
    range = makeRange(block, std::nullopt);
  } else {
    // The offset of each leading index's run of the last dimension.
    lastSize = dims[rank - 1] ? dims[rank - 1]
                              : constant(fullType.getDimSize(rank - 1));
    step = blockType.getDimSize(1);
    blockOuter = makeRange(outerBlock, 1);
    range = makeRange(step, 0);
    auto outerType = cast<RankedTensorType>(blockOuter.getType());
    if (outerBlock != outerSize)
      outerMask = arith::CmpIOp::create(
          kb, loc, arith::CmpIPredicate::slt, blockOuter,
          SplatOp::create(kb, loc, outerType, constant(outerSize)));
    outerBase = arith::AddIOp::create(
        kb, loc, SplatOp::create(kb, loc, outerType, rowOffset),
        arith::MulIOp::create(kb, loc, blockOuter,
                              SplatOp::create(kb, loc, outerType, lastSize)));
  }
  Value walkEnd = twoD ? lastSize : cols;

  // The walks: walk k computes the reductions of level-k values and stores
  // the visible full values of level k.
  unsigned numWalks = 0;
  for (Operation *op : ops) {
    if (auto reduce = dyn_cast<RowReduceOp>(op))
      numWalks = std::max(numWalks, getLevel(reduce.getInput()) + 1);
    else if (!isPerRow(getOutput(op)) && isVisible(getOutput(op)))
      numWalks = std::max(numWalks, getLevel(getOutput(op)) + 1);
  }
  for (unsigned walk = 0; walk < numWalks; ++walk) {
    SmallVector<RowReduceOp> reduces;
    SmallVector<Value> stores;
    for (Operation *op : ops) {
      if (auto reduce = dyn_cast<RowReduceOp>(op)) {
        if (getLevel(reduce.getInput()) == walk)
          reduces.push_back(reduce);
      } else if (Value v = getOutput(op);
                 !isPerRow(v) && isVisible(v) && getLevel(v) == walk) {
        stores.push_back(v);
      }
    }
    SmallVector<Value> inits;
    for (RowReduceOp reduce : reduces) {
      Type elem = reduce.getInputType().getElementType();
      Value init = arith::ConstantOp::create(kb, loc, reduce.getInit());
      inits.push_back(SplatOp::create(kb, loc, blockType.clone(elem), init));
    }
    Value start;
    scf::ForOp loop;
    if (whole) {
      rowBuilder.setInsertionPoint(body, body->end());
      blockBuilder.setInsertionPoint(body, body->end());
      start = constant(0);
    } else {
      loop = scf::ForOp::create(kb, loc, constant(0), walkEnd, constant(step),
                                inits);
      // Without iteration arguments the builder added a yield; the walk
      // adds its own.
      if (!loop.getBody()->empty())
        loop.getBody()->back().erase();
      rowBuilder.setInsertionPoint(loop);
      blockBuilder.setInsertionPointToStart(loop.getBody());
      start = loop.getInductionVar();
      blockValues.clear();
      blockLoads.clear();
    }
    OpBuilder &bb = blockBuilder;
    auto rangeType = cast<RankedTensorType>(range.getType());
    Value col = arith::AddIOp::create(
        bb, loc, SplatOp::create(bb, loc, rangeType, start), range);
    Value colMask =
        arith::CmpIOp::create(bb, loc, arith::CmpIPredicate::slt, col,
                              SplatOp::create(bb, loc, rangeType, walkEnd));
    if (!twoD) {
      blockMask = colMask;
      blockOffsets = arith::AddIOp::create(
          bb, loc, SplatOp::create(bb, loc, blockType, rowOffset), col);
      blockColumns = col;
    } else {
      blockInner = col;
      innerMask = colMask;
      blockMask = broadcastTo(bb, colMask, blockType);
      if (outerMask)
        blockMask = arith::AndIOp::create(
            bb, loc, blockMask, broadcastTo(bb, outerMask, blockType));
      blockOffsets =
          arith::AddIOp::create(bb, loc, broadcastTo(bb, outerBase, blockType),
                                broadcastTo(bb, col, blockType));
    }
    SmallVector<Value> accs;
    for (auto [i, reduce] : llvm::enumerate(reduces)) {
      Value acc = whole ? inits[i] : loop.getRegionIterArg(i);
      Value x = getFullValue(reduce.getInput());
      Value combined =
          emitMapBody(bb, loc, reduce.getBody().front(), ValueRange{acc, x},
                      cast<RankedTensorType>(acc.getType()));
      accs.push_back(
          arith::SelectOp::create(bb, loc, blockMask, combined, acc));
    }
    for (Value v : stores)
      StoreOp::create(bb, loc,
                      offsetPointer(bb, loc, getPointer(v), blockOffsets),
                      getFullValue(v), blockMask);
    if (!whole) {
      scf::YieldOp::create(bb, loc, accs);
      accs = SmallVector<Value>(loop.getResults());
    }
    // Each reduction's tile of partial results becomes the row's result.
    // (A 2D tile: its last dimension, then its first.)
    for (auto [reduce, acc] : llvm::zip(reduces, accs)) {
      Value r = acc;
      for (int32_t axis = blockType.getRank() - 1; axis >= 0; --axis) {
        auto total = ReduceOp::create(kb, reduce.getLoc(), ValueRange{r}, axis);
        Block *combiner = total.addCombinerBlock();
        OpBuilder cb = OpBuilder::atBlockEnd(combiner);
        Value c = emitMapBody(cb, reduce.getLoc(), reduce.getBody().front(),
                              combiner->getArguments(), RankedTensorType());
        ReduceReturnOp::create(cb, reduce.getLoc(), ValueRange{c});
        r = total.getResult()[0];
      }
      rowValues[reduce.getOutput()] = r;
    }
  }
  // The visible per-row values, one element per row.
  rowBuilder.setInsertionPoint(body, body->end());
  for (Operation *op : ops)
    if (Value v = getOutput(op); isPerRow(v) && isVisible(v))
      StoreOp::create(kb, loc, offsetPointer(kb, loc, getPointer(v), row),
                      getRowValue(v), Value());
  ReturnOp::create(kb, loc);
  kernel.setFunctionType(
      FunctionType::get(ctx, body->getArgumentTypes(), {}));

  // The launch, after the members' size contracts and the checks that
  // every buffer of the group has the full buffer's sizes (the kernel
  // walks them all with its rows and row length), but where it is 1.
  for (Operation *op : ops) {
    if (auto map = dyn_cast<MapOp>(op))
      emitMapChecks(gb, map);
    else
      emitRowReduceChecks(gb, cast<RowReduceOp>(op));
    SmallVector<Value, 2> buffers{getOutput(op)};
    if (auto reduce = dyn_cast<RowReduceOp>(op))
      buffers.push_back(reduce.getInput());
    for (Value v : buffers) {
      auto type = cast<MemRefType>(v.getType());
      if (v == space.full)
        continue;
      for (int64_t d = 0; d < rank; ++d)
        if (type.getDimSize(d) != 1 &&
            (type.isDynamicDim(d) || fullType.isDynamicDim(d)))
          emitSameSizeCheck(gb, op->getLoc(), "row group member", v, d,
                            space.full, d, "the buffer that sets the rows");
    }
  }
  Value grid;
  for (int64_t d = 0; d < lead; ++d) {
    Value size = getDimValue(gb, loc, space.full, d);
    grid = grid ? arith::MulIOp::create(gb, loc, grid, size).getResult() : size;
  }
  if (!grid)
    grid = arith::ConstantIndexOp::create(gb, loc, 1);
  return LaunchOp::create(gb, loc,
                          FlatSymbolRefAttr::get(kernel.getNameAttr()),
                          ValueRange{grid}, operands);
}

} // namespace

LogicalResult tilec::checkRowOptions(Operation *op, int64_t maxRowBlock) {
  // At most 1024 elements per thread of 8 warps.
  if (maxRowBlock < 32 || maxRowBlock > (1 << 18) ||
      !llvm::isPowerOf2_64(maxRowBlock))
    return op->emitError("expected max-row-block to be a power of two in "
                         "[32, 2^18], found ")
           << maxRowBlock;
  return success();
}

LaunchOp tilec::outlineRowGroup(GraphOp graph, ArrayRef<Operation *> ops,
                                const RowSpace &space, SymbolTable &symbols,
                                const RowKernelOptions &options) {
  LaunchOp launch = RowKernelBuilder(graph, ops, space, options).build(symbols);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return launch;
}
