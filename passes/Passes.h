//===- Passes.h - tilec passes ----------------------------------*- C++ -*-===//
//
// Declarations of the tilec passes (generated from Passes.td) and their
// registration.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_PASSES_H
#define TILEC_PASSES_PASSES_H

#include "dialects/Tile/IR/TileOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace tilec

#endif // TILEC_PASSES_PASSES_H
