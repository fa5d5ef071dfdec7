//===- Compile.h - One compile key for the CLI, the JIT and the cache -*- C++ -*-===//
//
// tilec::CompileOptions gathers everything that shapes a compiled kernel --
// which kernel, its signature and specialization facts, constexprs,
// num_warps, num_stages, the target and the code-generation knobs -- in one
// value with a stable hash (compileKey). The `tilec` command line, the JIT
// (tilec/Jit.h) and the disk cache (tilec/Cache.h) all use it, so a kernel
// compiled one way is found when asked for another way. Plain C++ types
// only: a host application includes this header without MLIR or LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_COMPILE_H
#define TILEC_COMPILE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec {

/// The language of a tile program's source text.
enum class SourceLanguage {
  /// From the file name: `.py` is Python (Triton), anything else MLIR.
  Auto,
  /// The Triton language (`@triton.jit` functions).
  Python,
  /// The `tile` MLIR dialect.
  MLIR,
};

/// What shapes one compile of a tile program (issue 13, item 1). The fields
/// above `errorLimit` are the compile key's (compileKeyText); the budgets
/// and the error limit change only whether and how a compile fails, not
/// what it produces, so they are not.
struct CompileOptions {
  /// The `@triton.jit` function to compile (Python source; empty: the
  /// file's only kernel). MLIR source compiles every `tile.func`; there it
  /// names the one the JIT returns.
  std::string kernel;
  /// Triton AOT signature, one entry per parameter (or per
  /// non-constexpr parameter): `*fp16:16`, `i32`, `i32:16`, `i32:1`,
  /// `tensordesc<fp16[64,64]>`, or a constexpr's value at its position
  /// (docs/runtime.md gives the syntax). Python source only.
  std::string signature;
  /// Constexpr values by name, as `-D NAME=VALUE`. Python source only.
  std::vector<std::pair<std::string, std::string>> constexprs;
  /// Warps per CTA (0: the kernel's autotune config's, else 4; a power of
  /// two in [1, 32]).
  unsigned numWarps = 0;
  /// Software-pipelining depth (0: the config's, else 3). Python only.
  unsigned numStages = 0;
  /// Which `triton.Config` of `@triton.autotune` specializes the kernel
  /// (-1: the first). Python only.
  int autotuneConfig = -1;
  /// Target GPU (sm_80 ... sm_121f). Empty: the JIT takes the device's
  /// (compute capability 9.0 is sm_90a); the command line's default is
  /// sm_90a.
  std::string arch;
  /// Contract a multiply and an add into fma (Triton's enable_fp_fusion).
  bool fpFusion = true;
  /// Compile run-time assertions (Triton's debug=True).
  bool debug = false;
  /// Tensor-core instructions for tl.dot: 2 mma.sync, 3 wgmma, 0 default.
  unsigned mmaVersion = 0;
  /// Host-descriptor blocks through TMA (tilec --tma).
  bool tma = true;
  /// A GEMM's masked pointer loads through TMA (--tma-pointer-loads).
  bool tmaPointerLoads = true;
  /// Version kernels on the run-time alignment of their arguments
  /// (--version-alignment; tile-version-alignment).
  bool versionAlignment = true;
  /// Fuse the maps of operator graphs into kernels and each other
  /// (tile-fuse-kernels); false compiles every launch and map as written
  /// (each map its own kernel).
  bool fuseKernels = true;
  /// Warp specialization: "hint", "on" or "off" (--warp-specialize).
  std::string warpSpecialize = "hint";
  /// Consumer groups of a warp-specialized persistent loop: 1 or 2.
  unsigned numConsumerGroups = 1;
  /// CTAs per thread-block cluster: 1 or 2.
  unsigned clusterSize = 1;
  /// Registers per thread at most (Triton's maxnreg; PTX .maxnreg): 0 no
  /// limit (or an autotune config's), else 16 to 255.
  unsigned maxnreg = 0;
  /// Let the loader give kernels without tensor cores or a limit the
  /// register budget of their occupancy (--auto-maxnreg; `maxnreg=auto`,
  /// docs/runtime.md "Register budget").
  bool autoMaxNReg = true;
  /// The backend: "ptx" (LLVM's NVPTX, the default) or "cuda" (the CUDA
  /// C++ backend, the text compiled to PTX with NVRTC at compile time;
  /// docs/architecture.md, "The CUDA C++ backend"). Part of the key: the
  /// two give different PTX for the same kernel.
  std::string backend = "ptx";
  /// Folders `import` searches after the kernel file's (-I). Part of the
  /// key as paths; the contents of the modules a compile read are checked
  /// by the JIT's cache (Jit.h), not hashed into the key.
  std::vector<std::string> importPaths;

  /// Not part of the key: most errors reported (0: no limit) and the
  /// front end's budgets (tilec --max-inlined-calls,
  /// --max-unrolled-iterations, --max-operations; 0: no limit).
  unsigned errorLimit = 20;
  unsigned maxInlinedCalls = 10000;
  unsigned maxUnrolledIterations = 10000;
  unsigned maxOperations = 100000;

  /// Checks the fields' ranges and spellings (num_warps a power of two in
  /// [1, 32], a known arch, mma version 0/2/3, warp specialization
  /// hint/on/off, 1 or 2 consumer groups and cluster CTAs, maxnreg 0 or
  /// in [16, 255], backend ptx or cuda, constexpr
  /// names non-empty, the Python-only fields (signature, constexprs,
  /// num_stages, autotune config) empty for MLIR). Returns "" when
  /// valid, else the first problem, e.g. "num_warps must be a power of two
  /// in [1, 32], found 3".
  std::string validate(SourceLanguage language) const;
};

/// `language`, with Auto resolved from `fileName` (`.py`: Python).
SourceLanguage resolveLanguage(SourceLanguage language,
                               std::string_view fileName);

/// The canonical text the compile key hashes: a format tag, the compiler's
/// version (compilerVersion), the language, the file name (imports resolve
/// relative to it), the source text and every key field of `options`, each
/// length-prefixed so that no two different inputs give the same text.
std::string compileKeyText(std::string_view source, std::string_view fileName,
                           SourceLanguage language,
                           const CompileOptions &options);

/// The compile key: SHA-256 of compileKeyText as 64 lowercase hex digits
/// (a valid DiskCache key). Stable across processes and machines for the
/// same compiler build.
std::string compileKey(std::string_view source, std::string_view fileName,
                       SourceLanguage language, const CompileOptions &options);

/// The compiler's identity as the key sees it: "tilec <version> (commit
/// <git describe>, sources <hash of the compiler's sources at build time>)".
/// A rebuilt compiler with changed sources has another identity, so its
/// keys differ even in a modified checkout.
const char *compilerVersion();

} // namespace tilec

#endif // TILEC_COMPILE_H
