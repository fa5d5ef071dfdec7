//===- MapCodegen.cpp - tile.map bodies as tile code ------------*- C++ -*-===//
//
// A map's body is scalar code; inside a kernel it runs on tiles: each op is
// recreated with tile operands and results (its scalar operands splat).
// Its inputs are read at the same elements as the tile being stored or
// loaded, found from the flat offsets of those elements in the map's
// output: the identity for an input of the output's shape, one division
// and remainder per run of non-broadcast dimensions otherwise.
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/MapCodegen.h"
#include "passes/Graph/GraphUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallBitVector.h"

#include <limits>

using namespace mlir;
using namespace tilec;

Value tilec::emitMapBody(OpBuilder &b, Location loc, Block &body,
                         ValueRange args, RankedTensorType like) {
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  auto splatTo = [&](Value v) -> Value {
    if (!like || isa<RankedTensorType>(v.getType()))
      return v;
    return tile::SplatOp::create(b, loc, like.clone(v.getType()), v);
  };
  for (Operation &op : body.without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>()) {
      b.clone(op, mapping);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : op.getOperands())
      operands.push_back(mapping.lookup(v));
    bool tiled = llvm::any_of(
        operands, [](Value v) { return isa<RankedTensorType>(v.getType()); });
    if (tiled)
      for (Value &v : operands)
        v = splatTo(v);
    OperationState state(loc, op.getName());
    state.addOperands(operands);
    state.addAttributes(op.getAttrs());
    for (Type t : op.getResultTypes())
      state.addTypes(tiled ? Type(like.clone(t)) : t);
    Operation *created = b.create(state);
    mapping.map(op.getResults(), created->getResults());
  }
  Value result = mapping.lookup(body.getTerminator()->getOperand(0));
  return splatTo(result);
}

namespace {
/// A run of consecutive output dimensions [first, last] that an input does
/// not broadcast.
struct KeptRun {
  unsigned first, last;
};

/// The runs of output dimensions `input` keeps (aligned with the output's
/// trailing dimensions; a static size 1 against a size other than 1
/// broadcasts, and so do the output's leading dimensions it lacks).
SmallVector<KeptRun> getKeptRuns(MemRefType input, MemRefType output) {
  int64_t rank = output.getRank(), lead = rank - input.getRank();
  SmallVector<KeptRun> runs;
  for (int64_t d = lead; d < rank; ++d) {
    bool broadcast =
        input.getDimSize(d - lead) == 1 && output.getDimSize(d) != 1;
    if (broadcast)
      continue;
    if (!runs.empty() && runs.back().last + 1 == d)
      runs.back().last = d;
    else
      runs.push_back({static_cast<unsigned>(d), static_cast<unsigned>(d)});
  }
  return runs;
}

} // namespace

SmallVector<unsigned> tilec::getNeededOutputDims(MemRefType input,
                                                 MemRefType output) {
  SmallVector<unsigned> dims;
  if (readsOneToOne(input, output))
    return dims;
  unsigned rank = output.getRank();
  llvm::SmallBitVector needed(rank);
  for (KeptRun run : getKeptRuns(input, output)) {
    // The run's index: (off / sizes after it) % its sizes; the stride of
    // the run in the input: the kept sizes after it.
    if (run.first > 0)
      for (unsigned d = run.first; d <= run.last; ++d)
        needed.set(d);
    for (unsigned d = run.last + 1; d < rank; ++d)
      needed.set(d);
  }
  for (unsigned d : needed.set_bits())
    dims.push_back(d);
  return dims;
}

Value tilec::getSizeProduct(OpBuilder &b, Location loc, MemRefType shape,
                            unsigned from, unsigned to, ArrayRef<Value> dims,
                            Type type) {
  int64_t constant = 1;
  Value dynamicPart;
  for (unsigned d = from; d < to; ++d) {
    if (!shape.isDynamicDim(d)) {
      constant *= shape.getDimSize(d);
      continue;
    }
    Value size = dims[d];
    dynamicPart =
        dynamicPart
            ? arith::MulIOp::create(b, loc, dynamicPart, size).getResult()
            : size;
  }
  Value c = arith::ConstantIntOp::create(b, loc, type, constant);
  if (!dynamicPart)
    return c;
  return constant == 1
             ? dynamicPart
             : arith::MulIOp::create(b, loc, dynamicPart, c).getResult();
}

Value tilec::getInputOffset(OpBuilder &b, Location loc, MemRefType input,
                            MemRefType output, Value off,
                            ArrayRef<Value> dims) {
  if (readsOneToOne(input, output))
    return off;
  SmallVector<KeptRun> runs = getKeptRuns(input, output);
  unsigned rank = output.getRank();
  // Work in off's type when every size needed is static, else in i64.
  bool dynamic =
      llvm::any_of(getNeededOutputDims(input, output),
                   [&](unsigned d) { return output.isDynamicDim(d); });
  auto tileType = dyn_cast<RankedTensorType>(off.getType());
  Type elem = getElementTypeOrSelf(off.getType());
  // Products of static sizes past 2^31 need 64 bits too.
  bool huge = output.hasStaticShape() &&
              output.getNumElements() > std::numeric_limits<int32_t>::max();
  if ((dynamic || huge) && !elem.isInteger(64)) {
    elem = b.getI64Type();
    Type wide = tileType ? Type(tileType.clone(elem)) : elem;
    off = arith::ExtSIOp::create(b, loc, wide, off);
  }
  // The product of output sizes [from, to) as a scalar of `elem`: folded
  // to a constant where static.
  auto product = [&](unsigned from, unsigned to) {
    return getSizeProduct(b, loc, output, from, to, dims, elem);
  };
  auto splat = [&](Value scalar) -> Value {
    if (!tileType)
      return scalar;
    return tile::SplatOp::create(b, loc, tileType.clone(elem), scalar);
  };
  auto isOne = [](Value v) {
    auto c = v.getDefiningOp<arith::ConstantIntOp>();
    return c && c.value() == 1;
  };
  Value sum;
  for (KeptRun run : runs) {
    Value idx = off;
    Value after = product(run.last + 1, rank);
    if (!isOne(after))
      idx = arith::DivUIOp::create(b, loc, idx, splat(after));
    // The leading run needs no remainder: off is below the output's size
    // wherever it is used.
    if (run.first > 0)
      idx = arith::RemUIOp::create(b, loc, idx,
                                   splat(product(run.first, run.last + 1)));
    // The run's stride in the input: the sizes it keeps after the run.
    Value stride = arith::ConstantIntOp::create(b, loc, elem, 1);
    for (KeptRun later : runs)
      if (later.first > run.last) {
        Value p = product(later.first, later.last + 1);
        stride = isOne(stride)
                     ? p
                     : arith::MulIOp::create(b, loc, stride, p).getResult();
      }
    if (!isOne(stride))
      idx = arith::MulIOp::create(b, loc, idx, splat(stride));
    sum = sum ? arith::AddIOp::create(b, loc, sum, idx).getResult() : idx;
  }
  if (!sum) // Every dimension broadcasts: one element.
    return splat(arith::ConstantIntOp::create(b, loc, elem, 0));
  return sum;
}

Value tilec::offsetPointer(OpBuilder &b, Location loc, Value base, Value off) {
  Value ptr = base;
  if (auto t = dyn_cast<RankedTensorType>(off.getType()))
    ptr = tile::SplatOp::create(b, loc, t.clone(base.getType()), base);
  return tile::AddPtrOp::create(b, loc, ptr.getType(), ptr, off);
}

Value tilec::loadMapInput(OpBuilder &b, Location loc, MemRefType input,
                          MemRefType output, Value ptr, Value off, Value mask,
                          ArrayRef<Value> dims, Operation *like) {
  Value inputOff = getInputOffset(b, loc, input, output, off, dims);
  Value ptrs = offsetPointer(b, loc, ptr, inputOff);
  auto load = tile::LoadOp::create(
      b, loc, tile::getPointeeTypeOf(ptrs.getType()), ptrs, mask, Value());
  if (like)
    for (NamedAttribute a : like->getDiscardableAttrs())
      load->setAttr(a.getName(), a.getValue());
  return load;
}
