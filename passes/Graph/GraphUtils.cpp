//===- GraphUtils.cpp - Sizes of graph buffers ------------------*- C++ -*-===//
//
// Traces buffer sizes through allocations and `memref.dim`, and turns a
// map's size contract into `tile.check`s.
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/GraphUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

DimSize tilec::getDimSize(Value buffer, int64_t d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(d))
    return {type.getDimSize(d), Value(), -1};
  if (auto alloc = buffer.getDefiningOp<AllocOp>()) {
    Value size = alloc.getDynamicSizes()[type.getDynamicDimIndex(d)];
    if (auto dim = size.getDefiningOp<memref::DimOp>())
      if (std::optional<int64_t> i = dim.getConstantIndex())
        return getDimSize(dim.getSource(), *i);
    return {ShapedType::kDynamic, size, -1};
  }
  return {ShapedType::kDynamic, buffer, d};
}

Value tilec::getDimValue(OpBuilder &b, Location loc, Value buffer, int64_t d) {
  DimSize s = getDimSize(buffer, d);
  if (s.value && s.index < 0)
    return s.value;
  if (s.value)
    return memref::DimOp::create(b, loc, s.value, s.index);
  return arith::ConstantIndexOp::create(b, loc, s.size);
}

DictionaryAttr tilec::getBufferFacts(GraphOp graph, Value buffer) {
  Builder b(graph.getContext());
  int64_t divisibility = 0;
  if (buffer.getDefiningOp<AllocOp>())
    divisibility = 16;
  else if (auto arg = dyn_cast<BlockArgument>(buffer))
    if (auto a = graph.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), TileDialect::getDivisibilityAttrName()))
      divisibility = a.getInt();
  if (!divisibility)
    return b.getDictionaryAttr({});
  return b.getDictionaryAttr(
      b.getNamedAttr(TileDialect::getDivisibilityAttrName(),
                     b.getI32IntegerAttr(divisibility)));
}

std::string tilec::describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  // A merged map: the maps it came from.
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::string text;
    for (Location part : fused.getLocations())
      text += (text.empty() ? "" : " + ") + describeLocation(part);
    return text;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

bool tilec::readsOneToOne(MemRefType input, MemRefType output) {
  if (input.getRank() != output.getRank())
    return false;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (input.getDimSize(d) == 1 && output.getDimSize(d) != 1)
      return false;
  return true;
}

void tilec::emitSameSizeCheck(OpBuilder &b, Location loc, StringRef what,
                              Value in, int64_t d, Value out, int64_t o,
                              StringRef outRole) {
  if (getDimSize(in, d) == getDimSize(out, o))
    return;
  Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     getDimValue(b, loc, in, d),
                                     getDimValue(b, loc, out, o));
  // Buffers by what the user knows them as (map inputs get renumbered when
  // maps merge).
  auto describeBuffer = [](Value v) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return "graph argument " + std::to_string(arg.getArgNumber());
    return "the buffer allocated at " + describeLocation(v.getLoc());
  };
  CheckOp::create(b, loc, same,
                  llvm::formatv("the {0} at {1}: dimension {2} of {3} "
                                "differs from dimension {4} of {5}, {6}",
                                what, describeLocation(loc), d,
                                describeBuffer(in), o, outRole,
                                describeBuffer(out))
                      .str());
}

void tilec::emitMapChecks(OpBuilder &b, MapOp map, Value only) {
  Location loc = map.getLoc();
  Value out = map.getOutput();
  MemRefType outType = map.getOutputType();
  for (Value in : map.getInputs()) {
    auto type = dyn_cast<MemRefType>(in.getType());
    if (!type || (only && in != only))
      continue;
    int64_t lead = outType.getRank() - type.getRank();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t o = d + lead;
      // A static 1 broadcasts; two static sizes the verifier checked.
      if (type.getDimSize(d) == 1 ||
          (!type.isDynamicDim(d) && !outType.isDynamicDim(o)))
        continue;
      emitSameSizeCheck(b, loc, "map", in, d, out, o);
    }
  }
}

void tilec::emitRowReduceChecks(OpBuilder &b, RowReduceOp op) {
  MemRefType in = op.getInputType(), out = op.getOutputType();
  for (int64_t d = 0, e = in.getRank() - op.getNumReducedDims(); d < e; ++d)
    if (in.isDynamicDim(d) || out.isDynamicDim(d))
      emitSameSizeCheck(b, op.getLoc(), "row reduction", op.getInput(), d,
                        op.getOutput(), d);
}
