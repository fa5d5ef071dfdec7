//===- FlattenLoops.h - One loop for a loop nest ----------------*- C++ -*-===//
//
// The transformation of tile-flatten-loops (FlattenLoops.cpp), which
// tile-pipeline applies where the flat loop's shared memory fits.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_FLATTENLOOPS_H
#define TILEC_PASSES_FLATTENLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec {

/// The loop attribute of `tl.range(..., flatten=True)`.
inline constexpr llvm::StringLiteral kFlattenAttr = "tile.flatten";

/// The inner loop of the nest `outer`: the first scf.for of its body (null
/// if none).
mlir::scf::ForOp getInnerLoop(mlir::scf::ForOp outer);

/// Replaces the nest `outer` (prologue; one inner scf.for whose bounds do
/// not depend on `outer`; epilogue) by one loop over its iterations, as
/// tile-flatten-loops describes (Passes.td), and returns true; returns
/// false, changing nothing but removing `outer`'s tile.flatten attribute,
/// when the nest has another form.
bool flattenLoopNest(mlir::scf::ForOp outer);

} // namespace tilec

#endif // TILEC_PASSES_FLATTENLOOPS_H
