//===- InitAll.h - Dialect and pass registration ----------------*- C++ -*-===//
//
// One place that registers every dialect, extension, translation and pass
// tilec uses, shared by tilec and tilec-opt.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_INITALL_H
#define TILEC_COMPILER_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace tilec {
/// Adds the tile dialect, the upstream dialects tile IR and SIMT IR use, the
/// ConvertToLLVM interfaces and the LLVM IR translations to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers tilec's passes and the upstream passes its pipeline uses.
void registerAllPasses();
} // namespace tilec

#endif // TILEC_COMPILER_INITALL_H
