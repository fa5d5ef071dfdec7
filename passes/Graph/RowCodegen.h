//===- RowCodegen.h - Row groups as one kernel ------------------*- C++ -*-===//
//
// A row group: `tile.row_reduce`s and the `tile.map`s around them that work
// on the same rows (a buffer of the full shape, or its row shape -- the
// full shape with the reduced trailing dimensions 1), made one kernel with
// one program per row. Layer norm, RMS norm, softmax and group norm written
// as graph ops become the kernel a person would write for them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_GRAPH_ROWCODEGEN_H
#define TILEC_PASSES_GRAPH_ROWCODEGEN_H

#include "dialects/Tile/IR/TileGraphOps.h"
#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tilec {

/// How the kernels of row groups hold a row.
struct RowKernelOptions {
  /// The longest row (elements, a power of two) one program holds whole in
  /// registers; longer or dynamic rows are walked in blocks of `loopBlock`,
  /// once per dependent reduction, by `loopWarps` warps.
  int64_t maxRowBlock = 8192;
  int64_t loopBlock = 4096;
  /// 16: a walked row is long and rows may be few (GroupNorm: 128 rows of
  /// 16384 for 16 x 32 x 64 x 64), so a program needs many bytes in flight.
  /// Measured on the H100 against 8 warps (docs/performance.md, 2026-12-07):
  /// GroupNorm -> Mish 16x32x4096 14.9 -> 12.4 us, 16x32x1024 5.9 -> 5.7.
  int64_t loopWarps = 16;
};

/// The rows a group works on: a buffer of the full shape and the number of
/// trailing dimensions each row spans (a row reduction's).
struct RowSpace {
  mlir::Value full;
  unsigned reducedDims;

  /// The row space of a row reduction: its input, its reduced dimensions.
  static RowSpace of(tile::RowReduceOp op);
  mlir::MemRefType getFullType() const;
  /// The full shape with the reduced dimensions 1.
  llvm::SmallVector<int64_t> getRowShape() const;
  /// Whether a program holds a row whole (a static row of at most
  /// `options.maxRowBlock` elements, rounded up to a power of two and to
  /// 32); otherwise it walks the row in blocks.
  bool isHeldWhole(const RowKernelOptions &options) const;
  /// Whether `op` can join a group on these rows: a row reduction from the
  /// full shape to the row shape, or a map (not in place) whose output has
  /// the full or the row shape.
  bool contains(mlir::Operation *op) const;
};

/// Checks a pass's max-row-block option where `op` needs it: a power of
/// two in [32, 2^18] (8 warps of 1024 elements per thread at most).
mlir::LogicalResult checkRowOptions(mlir::Operation *op, int64_t maxRowBlock);

/// Replaces `ops` (maps and row reductions of one graph in `space`, in
/// graph order; the caller has checked that they may run together at the
/// last one's place) by a kernel with one program per row and its launch
/// there, after the `tile.check`s of their size contracts. A buffer one op
/// writes and a later op reads is passed inside the kernel as a value; it
/// is still stored when it is a graph argument or something outside the
/// group uses it. Returns the launch.
tile::LaunchOp outlineRowGroup(tile::GraphOp graph,
                               llvm::ArrayRef<mlir::Operation *> ops,
                               const RowSpace &space,
                               mlir::SymbolTable &symbols,
                               const RowKernelOptions &options);

} // namespace tilec

#endif // TILEC_PASSES_GRAPH_ROWCODEGEN_H
