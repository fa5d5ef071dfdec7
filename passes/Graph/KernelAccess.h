//===- KernelAccess.h - How a kernel uses its pointer arguments -*- C++ -*-===//
//
// What a kernel does through each `!tile.ptr` argument: which tile.load /
// tile.store ops reach memory through pointers derived from it, and whether
// anything else (atomics, pointers stored to memory or turned into
// integers, calls, descriptors) does. The graph passes derive a launch's
// reads and writes from it, and fusion rewrites the loads and stores it
// lists.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_GRAPH_KERNELACCESS_H
#define TILEC_PASSES_GRAPH_KERNELACCESS_H

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/IRMapping.h"

#include <string>

namespace tilec {

/// The accesses a kernel makes through one pointer argument.
struct PointerArgAccess {
  /// Loads and stores whose address derives from the argument (through
  /// splat, broadcast, expand_dims, reshape, trans, convert_layout,
  /// addptr, select, scf.for / scf.if / scf.while values).
  llvm::SmallVector<tile::LoadOp> loads;
  llvm::SmallVector<tile::StoreOp> stores;
  /// Empty when the loads and stores above are every access; otherwise
  /// what else uses the pointer (an atomic, a call, a pointer stored to
  /// memory...), naming the op. Such an argument is read and written.
  std::string other;

  bool reads() const { return !loads.empty() || !other.empty(); }
  bool writes() const { return !stores.empty() || !other.empty(); }
};

/// The accesses through argument `index` of `kernel` (a `!tile.ptr`).
PointerArgAccess analyzePointerArg(tile::FuncOp kernel, unsigned index);

/// Element offsets of pointers from one pointer argument of a kernel:
/// `getOffset(p)` is the integer value (a scalar, or a tile of p's shape)
/// o with p == addptr(base, o) elementwise, built from the same arithmetic
/// that computed p (the offsets of one addptr keep their type; sums of
/// several are i64). The offsets are created right after the op defining
/// each pointer, so they dominate every use of it. A pointer an scf.for
/// carries gets its offset carried beside it: the loop is replaced by one
/// with one more (i64) iteration argument, so getOffset may rewrite loops
/// -- offsets returned earlier may then be stale: call it for every pointer
/// first, then again to collect them (nothing is rewritten the second
/// time).
class PointerOffsets {
public:
  explicit PointerOffsets(mlir::BlockArgument base) : base(base) {}

  /// The offset of `ptr`, or failure with `why` set when `ptr` is not an
  /// addptr/shape-op chain from the base in straight-line code (a pointer
  /// carried by a loop or chosen by scf.if / select is not followed).
  mlir::FailureOr<mlir::Value> getOffset(mlir::Value ptr, std::string &why);

private:
  /// Null for a pointer that is the base itself (an offset of zero).
  mlir::FailureOr<mlir::Value> compute(mlir::Value ptr, std::string &why);
  /// The offset of a pointer an scf.for carries (`arg`, an iteration
  /// argument of its body), carried by the loop beside it.
  mlir::FailureOr<mlir::Value> computeCarried(mlir::BlockArgument arg,
                                              std::string &why);

  mlir::BlockArgument base;
  llvm::DenseMap<mlir::Value, mlir::Value> cache;
};

} // namespace tilec

#endif // TILEC_PASSES_GRAPH_KERNELACCESS_H
