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
  /// The launch function's name (tilec --aot-name); empty: the kernel's.
  std::string launcherName;
  const std::string &cName() const {
    return launcherName.empty() ? info.name : launcherName;
  }
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

/// An autotuned kernel: one cubin per `@triton.autotune` config.
struct AotAutotuned {
  /// Per config: the compiled kernel's metadata and its cubin.
  std::vector<KernelInfo> configInfos;
  std::vector<std::string> cubins;
  /// Per config: its description and constexpr values.
  std::vector<std::string> configNames;
  std::vector<std::vector<std::pair<std::string, std::string>>> configValues;
  /// The kernel's parameter names (one per signature entry).
  std::vector<std::string> paramNames;
  /// key=, reset_to_zero= and restore_value= as argument indices.
  std::vector<size_t> keyArgs, resetArgs, restoreArgs;
  /// The launch functions' base name (tilec --aot-name); empty: the
  /// kernel's.
  std::string launcherName;
};

/// The header and source for an autotuned kernel `k`: `k_config(i, ...)`
/// launches config i, `k(stream, grid_fn, user, args..., [buf_bytes...])`
/// tunes at the first call per key (CUDA events; reset_to_zero /
/// restore_value honoured) and launches the fastest; `k_config_name`,
/// `k_config_int`, `k_tuned_config`. Returns "" or why not (as
/// generateAot).
std::string generateAotAutotuned(const AotAutotuned &tuned,
                                 const std::string &prefix,
                                 const std::string &headerName,
                                 const std::string &provenance,
                                 std::string &header, std::string &source);

} // namespace tilec

#endif // TILEC_COMPILER_JIT_AOT_H
