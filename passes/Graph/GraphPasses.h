//===- GraphPasses.h - passes over operator graphs --------------*- C++ -*-===//
//
// Declarations of the graph-level passes (generated from GraphPasses.td)
// and their registration.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_GRAPH_GRAPHPASSES_H
#define TILEC_PASSES_GRAPH_GRAPHPASSES_H

#include "dialects/Tile/IR/TileGraphOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#include "passes/Graph/GraphPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Graph/GraphPasses.h.inc"

} // namespace tilec

#endif // TILEC_PASSES_GRAPH_GRAPHPASSES_H
