//===- Aot.h - Ahead-of-time launchers in C (tilec --aot) -------*- C++ -*-===//
//
// `tilec --aot -o PREFIX` writes PREFIX.cubin, PREFIX.json (the runtime's
// metadata sidecar), PREFIX.h and PREFIX.c: a C header and source with one
// typed launch function per kernel, e.g.
//
//   CUresult add_kernel(CUstream stream, unsigned int grid_x,
//                       unsigned int grid_y, unsigned int grid_z,
//                       CUdeviceptr x_ptr, CUdeviceptr y_ptr,
//                       CUdeviceptr output_ptr, int32_t n_elements);
//
// The source embeds the cubin, loads it once (cuModuleLoadData into the
// context current at the first call), checks each argument's
// specialization facts, and launches with cuLaunchKernel (cuLaunchKernelEx
// for clusters). A host program built with it links only libcuda.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILER_JIT_AOT_H
#define TILEC_COMPILER_JIT_AOT_H

#include "tilec/Runtime.h"

#include <string>
#include <vector>

namespace tilec {

/// One kernel of the module: its metadata and its parameters' names (one
/// per signature entry; empty or not a C identifier: `argN`).
struct AotKernel {
  KernelInfo info;
  std::vector<std::string> paramNames;
};

/// Whether `name` is a C identifier that is not a C or C++ keyword.
bool isCIdentifier(const std::string &name);

/// Generates the header (`#include`d as `headerName` by the source) and
/// the source for `kernels`, whose module is `cubin`; `prefix` (a C
/// identifier) names the module's functions (`<prefix>_load`,
/// `<prefix>_error`), `provenance` goes in the files' first comment.
/// Returns "" on success, else why it cannot (a kernel taking tensor
/// descriptors or tensor maps, a kernel name that is not a C identifier).
std::string generateAot(const std::vector<AotKernel> &kernels,
                        const std::string &cubin, const std::string &prefix,
                        const std::string &headerName,
                        const std::string &provenance, std::string &header,
                        std::string &source);

} // namespace tilec

#endif // TILEC_COMPILER_JIT_AOT_H
