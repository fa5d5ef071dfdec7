//===- GraphMetadata.h - tile.graph as the runtime's graph line -*- C++ -*-===//
//
// Describes each `tile.graph` of a compiled module as a `// tilec.graph`
// line (tilec::GraphInfo, printed by the runtime's one printer), which the
// runtime's GraphProgram runs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_TARGET_PTX_GRAPHMETADATA_H
#define TILEC_COMPILER_TARGET_PTX_GRAPHMETADATA_H

#include "mlir/IR/BuiltinOps.h"

namespace tilec {

/// Writes the `// tilec.graph` line of each graph of `module`, one per
/// line. A graph must be what tile-outline-maps leaves: allocations,
/// checks, launches and integer arithmetic on scalars. Errors, located on
/// the op: a map left, float arithmetic or another op the runtime does not
/// evaluate, a dimension that is not a constant, an element type the
/// signature syntax lacks.
mlir::LogicalResult emitGraphMetadata(mlir::ModuleOp module,
                                      llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_PTX_GRAPHMETADATA_H
