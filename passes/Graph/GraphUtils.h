//===- GraphUtils.h - Sizes of graph buffers --------------------*- C++ -*-===//
//
// What the graph passes know about buffer sizes: where each dynamic size
// comes from (so that two buffers can be proven alike), its value at a
// point of the graph, and the run-time checks (`tile.check`) that keep a
// map's size contract once the map itself is gone.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_GRAPH_GRAPHUTILS_H
#define TILEC_PASSES_GRAPH_GRAPHUTILS_H

#include "dialects/Tile/IR/TileGraphOps.h"
#include "mlir/IR/Builders.h"

namespace tilec {

/// One dimension's size in a graph: a static size, or where a dynamic one
/// comes from -- a dimension of a buffer argument, or an SSA index value
/// (allocation sizes are traced through `memref.dim` to what they
/// measure).
struct DimSize {
  int64_t size = mlir::ShapedType::kDynamic;
  mlir::Value value;  // a buffer argument, or an SSA index value
  int64_t index = -1; // the dimension of `value` when it is a buffer
  bool operator==(const DimSize &o) const {
    return size == o.size && value == o.value && index == o.index;
  }
};

/// The size of dimension `d` of `buffer`.
DimSize getDimSize(mlir::Value buffer, int64_t d);

/// The size of dimension `d` of `buffer` as an `index` value, created at
/// `b`'s point (a constant, the allocation's size operand, or a
/// `memref.dim` of the argument it comes from).
mlir::Value getDimValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value buffer, int64_t d);

/// Emits at `b`'s point the `tile.check`s of `map`'s size contract that the
/// graph cannot prove: each dynamic size of an input that does not
/// broadcast equals the output's. For a pass that removes the map; with
/// `only`, just the checks of that input (the rest stay with a map).
void emitMapChecks(mlir::OpBuilder &b, tile::MapOp map,
                   mlir::Value only = nullptr);

/// Emits a `tile.check` that dimension `d` of buffer `in` equals dimension
/// `o` of buffer `out` (the contract of the `what` -- "map" -- at `loc`;
/// `outRole` says what `out` is to it), unless the graph proves it.
void emitSameSizeCheck(mlir::OpBuilder &b, mlir::Location loc,
                       llvm::StringRef what, mlir::Value in, int64_t d,
                       mlir::Value out, int64_t o,
                       llvm::StringRef outRole = "its output");

/// The same for a row reduction: each dynamic size of its rows (the
/// dimensions it keeps) equals the output's.
void emitRowReduceChecks(mlir::OpBuilder &b, tile::RowReduceOp op);

/// The argument attributes of a kernel argument that receives `buffer`:
/// `tile.divisibility = 16` for an intermediate (allocations are 256-byte
/// aligned), a graph argument's own `tile.divisibility`, else none (an
/// empty dictionary).
mlir::DictionaryAttr getBufferFacts(tile::GraphOp graph, mlir::Value buffer);

/// `file:line:col` for a file location, else the location as MLIR prints
/// it (for messages the runtime shows).
std::string describeLocation(mlir::Location loc);

/// Whether `input` reads the output's elements one to one (same rank,
/// nothing broadcast; dynamic sizes equal by the map's contract).
bool readsOneToOne(mlir::MemRefType input, mlir::MemRefType output);

} // namespace tilec

#endif // TILEC_PASSES_GRAPH_GRAPHUTILS_H
