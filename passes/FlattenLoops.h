//===- FlattenLoops.h - One loop for a loop nest ----------------*- C++ -*-===//
//
// The transformation of tile-flatten-loops (FlattenLoops.cpp), which
// tile-pipeline applies where the flat loop's shared memory fits.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_FLATTENLOOPS_H
#define TILEC_PASSES_FLATTENLOOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec {

/// The loop attribute of `tl.range(..., flatten=True)`.
inline constexpr llvm::StringLiteral kFlattenAttr = "tile.flatten";

/// The inner loop of the nest `outer`: the first scf.for of its body (null
/// if none).
mlir::scf::ForOp getInnerLoop(mlir::scf::ForOp outer);

/// What a flattened nest's loop is made of (see FlattenLoops.cpp): the
/// loop iterates i over [0, tn * kn) with step 1; its iteration arguments 0,
/// 1, 2 are the tile loop's induction value t (from `tileLb`), the K loop's
/// k and the K step's index kidx in [0, kn); `last` (kidx == kn - 1, in the
/// body) guards the epilogue, and the advance to the next tile is
/// `select(last, tileNext, t)` with `tileNext = t + tileStep`. tn and kn
/// are i64, defined before the loop (kn > 0 there: `version`, the scf.if
/// on it, holds the loop in its then-region and the nest without K steps
/// in its else-region).
struct FlatNest {
  mlir::scf::ForOp loop;
  mlir::scf::IfOp version;
  mlir::Value tn, kn, tileLb, tileStep, last;
  mlir::arith::AddIOp tileNext;
  /// Whether the tile loop carried values (iteration arguments 3, ...).
  bool carriesAcrossTiles = false;
};

/// Replaces the nest `outer` (prologue; one inner scf.for whose bounds do
/// not depend on `outer`; epilogue) by one loop over its iterations, as
/// tile-flatten-loops describes (Passes.td), and returns true (and the flat
/// loop's facts in `flat`, when given); returns false, changing nothing but
/// removing `outer`'s tile.flatten attribute, when the nest has another
/// form.
bool flattenLoopNest(mlir::scf::ForOp outer, FlatNest *flat = nullptr);

} // namespace tilec

#endif // TILEC_PASSES_FLATTENLOOPS_H
