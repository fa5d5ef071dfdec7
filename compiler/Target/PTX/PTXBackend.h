//===- PTXBackend.h - LLVM dialect to PTX -----------------------*- C++ -*-===//
//
// The PTX backend: translates the gpu.module of SIMT IR (already in the
// LLVM/NVVM dialects) to LLVM IR, optimizes it at O3 and runs LLVM's NVPTX
// backend. The PTX starts with one metadata line per kernel that the runtime
// reads (docs/runtime.md):
//   // tilec.kernel name=K num_warps=W shared=B signature=SIG
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_TARGET_PTX_PTXBACKEND_H
#define TILEC_COMPILER_TARGET_PTX_PTXBACKEND_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace tilec {

/// Translates the `gpu.module` in `module` to an optimized LLVM IR module
/// (printed to `os`) for `arch`. Errors are emitted as MLIR diagnostics.
mlir::LogicalResult emitLLVMIR(mlir::ModuleOp module, llvm::StringRef arch,
                               llvm::raw_ostream &os, bool fpFusion = true);

/// Translates and compiles the `gpu.module` in `module` to PTX for `arch`
/// (passes/Target.h: sm_80 ... sm_121f, each with its PTX ISA version),
/// metadata lines first. With
/// `fpFusion` (the default, as Triton's enable_fp_fusion), a multiply and
/// an add may contract into one fma; without, every fp32 op rounds (`.rn`).
/// With `autoMaxNReg` (the default), kernels without tensor-core
/// instructions or a register limit of their own are marked `maxnreg=auto`:
/// the loader gives them the register budget of their occupancy
/// (tilec::occupancyRegisterBudget, docs/runtime.md "Register budget").
mlir::LogicalResult emitPTX(mlir::ModuleOp module, llvm::StringRef arch,
                            llvm::raw_ostream &os, bool fpFusion = true,
                            bool autoMaxNReg = true);

/// The CUDA toolkit's libdevice bitcode that kernels calling `__nv_*`
/// functions link: $TILEC_LIBDEVICE, else $CUDA_HOME/nvvm/libdevice,
/// $CUDA_PATH/nvvm/libdevice, /usr/local/cuda/nvvm/libdevice
/// (libdevice.10.bc); "" when none exists.
std::string findLibdevice();

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_PTX_PTXBACKEND_H
