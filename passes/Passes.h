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

/// Whether `chip` names a GPU tilec targets (passes/Target.h: the values
/// of the passes' `chip` options and of tilec's --arch).
bool isSupportedChip(llvm::StringRef chip);

/// For a pass's `chip` option: success for a supported chip, else an error
/// on `op` naming what was expected and what was found.
mlir::LogicalResult checkChipOption(mlir::Operation *op, llvm::StringRef chip);

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace tilec

#endif // TILEC_PASSES_PASSES_H
