//===- CUDABackend.h - SIMT IR to CUDA C++ ----------------------*- C++ -*-===//
//
// The CUDA C++ backend (tilec --emit=cuda): prints the gpu.module of SIMT IR
// -- the per-thread program of each kernel, before the LLVM/NVVM lowering --
// as one self-contained `.cu` file: no header of tilec's or CUDA's is
// included, so nvcc and NVRTC both compile it as it is. The file starts with
// the same metadata lines as the PTX (`// tilec.kernel name=... ` and the
// graphs' lines), so that the runtime launches its kernels alike.
//
// Each kernel is an `extern "C" __global__` function with the source's
// parameter names and types (`float *x_ptr` for `*fp32`), its structured
// control flow as C++ loops and branches, one local per SSA value, and a
// comment naming the source line each run of statements came from. PTX the
// lowering writes as inline assembly (masked loads and stores, cp.async,
// mma) becomes `asm volatile` with the same text, predicates passed as
// integers and set up inside the asm (CUDA has no predicate constraint).
//
// Coverage grows by op: an op (or a form of one: f16 arithmetic, signed
// ops on i1, tied asm operands) the backend cannot print is an error at
// the op ("not supported by the CUDA C++ backend yet").
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_TARGET_CUDA_CUDABACKEND_H
#define TILEC_COMPILER_TARGET_CUDA_CUDABACKEND_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Prints the `gpu.module` in `module` (SIMT IR: the pipeline up to
/// --emit=simt) as CUDA C++ for `arch` to `os`, metadata lines first.
/// Errors are MLIR diagnostics at the op that cannot be printed; nothing
/// is written to `os` then. With `autoMaxNReg` (the default), kernels
/// without tensor-core instructions or a register limit of their own are
/// marked `maxnreg=auto`, as the PTX backend marks them (emitPTX).
/// Without `fpFusion`, f32/f64 multiplies, adds and subtractions print as
/// __fmul_rn etc., which nvcc does not contract (tilec --no-fp-fusion).
mlir::LogicalResult emitCUDA(mlir::ModuleOp module, llvm::StringRef arch,
                             llvm::raw_ostream &os, bool autoMaxNReg = true,
                             bool fpFusion = true);

} // namespace tilec

#endif // TILEC_COMPILER_TARGET_CUDA_CUDABACKEND_H
