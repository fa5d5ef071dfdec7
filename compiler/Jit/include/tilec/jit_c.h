/*===- jit_c.h - Compile tile programs in a host application (C API) -*- C -*-===*\
|*                                                                            *|
|* The C API of tilec::Jit (tilec/Jit.h): tile-program source text in, a    *|
|* loaded tilec_kernel (runtime_c.h) out, cached in memory and on disk.     *|
|* Conventions as runtime_c.h: TILEC_OK / TILEC_ERROR, tilec_last_error()   *|
|* for the message (with every compile diagnostic), NULL arguments named,   *|
|* nothing throws, exits or aborts. Thread-safe.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef TILEC_JIT_C_H
#define TILEC_JIT_C_H

#include "tilec/runtime_c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tilec_jit_s *tilec_jit;

/** Options of tilec_jit_create. Fill with tilec_jit_options_init first. */
typedef struct tilec_jit_options {
  /** Use the disk cache (1, the default) or not (0). */
  int disk_cache;
  /** The cache folder; NULL: TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec,
   *  else ~/.cache/tilec. */
  const char *cache_dir;
  /** ptxas to use; NULL: found as tilec::Jit does; "none": load PTX. */
  const char *ptxas;
} tilec_jit_options;

void tilec_jit_options_init(tilec_jit_options *options);

/** What shapes a compile (tilec::CompileOptions). Fill with
 *  tilec_compile_options_init first; strings may be NULL (empty). */
typedef struct tilec_compile_options {
  /** The @triton.jit function (Python) or tile.func (MLIR) to return. */
  const char *kernel;
  /** Triton AOT signature ("*fp32:16,i32,1024"). */
  const char *signature;
  /** Constexpr values, each "NAME=VALUE"; num_constexprs of them. */
  const char *const *constexprs;
  size_t num_constexprs;
  /** 0: the kernel's config's (else 4 warps, 3 stages). */
  unsigned num_warps;
  unsigned num_stages;
  /** NULL or "": the device's arch. */
  const char *arch;
  /** Contract mul+add into fma (1, the default). */
  int fp_fusion;
  /** Compile run-time assertions (0, the default). */
  int debug;
  /** NULL or "ptx": LLVM's NVPTX; "cuda": the CUDA C++ backend, compiled
   *  with NVRTC (tilec::CompileOptions::backend). */
  const char *backend;
} tilec_compile_options;

void tilec_compile_options_init(tilec_compile_options *options);

/** Makes a JIT for `context`'s device (options NULL: the defaults). */
int tilec_jit_create(tilec_context context, const tilec_jit_options *options,
                     tilec_jit *out);
void tilec_jit_destroy(tilec_jit jit);

/** Compiles (or finds in memory or on disk) `options->kernel` of `source`
 *  (`source_size` bytes; `file_name` names it and decides the language:
 *  ".py" is Python, else tile MLIR) and loads it. *out is a new kernel
 *  handle (tilec_kernel_destroy it). */
int tilec_jit_compile(tilec_jit jit, const char *source, size_t source_size,
                      const char *file_name,
                      const tilec_compile_options *options, tilec_kernel *out);

/** Reads the file at `path` and compiles it as tilec_jit_compile does. */
int tilec_jit_compile_file(tilec_jit jit, const char *path,
                           const tilec_compile_options *options,
                           tilec_kernel *out);

#ifdef __cplusplus
}
#endif

#endif /* TILEC_JIT_C_H */
