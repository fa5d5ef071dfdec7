/*===- runtime_c.h - Load and launch tilec kernels (C API) --------*- C -*-===*\
|*                                                                            *|
|* The C API of the tilec runtime, for host programs in C and for Python's    *|
|* ctypes (bench/tilec_rt.py). It wraps the C++ API of tilec/Runtime.h with   *|
|* opaque handles and plain-old-data arguments: every fallible function       *|
|* returns TILEC_OK (0) or TILEC_ERROR (1), and tilec_last_error() gives the  *|
|* message of the calling thread's last fallible call ("" after a success).   *|
|* Nothing here throws, exits or aborts. Handles are independent: a kernel    *|
|* keeps its module loaded and a module keeps its context retained, whatever  *|
|* order they are destroyed in.                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILEC_RUNTIME_C_H
#define TILEC_RUNTIME_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes of the fallible functions. */
enum { TILEC_OK = 0, TILEC_ERROR = 1 };

typedef struct tilec_context_s *tilec_context;
typedef struct tilec_module_s *tilec_module;
typedef struct tilec_kernel_s *tilec_kernel;
typedef struct tilec_graph_s *tilec_graph;

/** Kinds of launch arguments (the values of tilec_arg.kind); they equal the
 *  C++ tilec::ArgKind. Which member of tilec_arg.value is read:
 *    TILEC_ARG_PTR                      value.u  (device address)
 *    TILEC_ARG_I1 .. TILEC_ARG_I64      value.i  (I1: 0 or 1)
 *    TILEC_ARG_U8 .. TILEC_ARG_U64      value.u
 *    TILEC_ARG_F16, TILEC_ARG_BF16      value.u  (the 16-bit pattern)
 *    TILEC_ARG_F32, TILEC_ARG_F64       value.f  (F32: rounded to float)
 *    TILEC_ARG_TENSORDESC               value.u  (address of a
 *                                        tilec_tensordesc, read during the
 *                                        launch call)
 *  An integer out of its kind's range is an error. */
enum tilec_arg_kind {
  TILEC_ARG_PTR = 0,
  TILEC_ARG_I1 = 1,
  TILEC_ARG_I8 = 2,
  TILEC_ARG_I16 = 3,
  TILEC_ARG_I32 = 4,
  TILEC_ARG_I64 = 5,
  TILEC_ARG_U8 = 6,
  TILEC_ARG_U16 = 7,
  TILEC_ARG_U32 = 8,
  TILEC_ARG_U64 = 9,
  TILEC_ARG_F16 = 10,
  TILEC_ARG_BF16 = 11,
  TILEC_ARG_F32 = 12,
  TILEC_ARG_F64 = 13,
  TILEC_ARG_TENSORDESC = 14
};

/** A host-side tensor descriptor, the argument of a `tensordesc<T[...]>`
 *  kernel parameter (Triton's TensorDescriptor): a `rank`-dimensional
 *  tensor at device address `base` with `shape[d]` elements and `strides[d]`
 *  elements between neighbours along dimension d. The launch requires rank
 *  equal to the block's, `base` 16-byte aligned, 1 <= shape[d] < 2^31, the
 *  last stride 1 and the others positive multiples of 16 bytes below 2^40
 *  bytes (what TMA requires). 96 bytes, 8-byte aligned. */
typedef struct tilec_tensordesc {
  uint64_t base;
  uint32_t rank;
  uint32_t pad; /**< ignored; set to 0 */
  int64_t shape[5];
  int64_t strides[5];
} tilec_tensordesc;

/** One launch argument: 16 bytes, 8-byte aligned. */
typedef struct tilec_arg {
  int32_t kind; /**< a tilec_arg_kind */
  int32_t pad;  /**< ignored; set to 0 */
  union {
    uint64_t u;
    int64_t i;
    double f;
  } value;
} tilec_arg;

/** The error message of the calling thread's most recent call into this
 *  API: "" after a call that succeeded (a success clears it). The pointer
 *  stays valid until the thread's next call into the API. */
const char *tilec_last_error(void);

/** Initialises the driver and retains device `device`'s primary context
 *  (shared with PyTorch and the CUDA runtime), making it current. */
int tilec_context_create(int device, tilec_context *out);
/** Releases the handle (the context lives on while modules use it). NULL ok. */
void tilec_context_destroy(tilec_context ctx);
/** cuCtxSynchronize on the context. */
int tilec_context_synchronize(tilec_context ctx);

/** Loads NUL-terminated PTX text carrying `// tilec.kernel` lines; on a JIT
 *  failure the error message includes the JIT error log. */
int tilec_module_load_ptx(tilec_context ctx, const char *ptx,
                          tilec_module *out);
/** Loads a file: a path ending in ".cubin" with its kernel metadata sidecar
 *  (the same path ending in ".json"; a missing sidecar is an error that
 *  says so), any other as PTX with `// tilec.kernel` lines. */
int tilec_module_load_file(tilec_context ctx, const char *path,
                           tilec_module *out);
/** Loads `size` bytes at `image`: a cubin, a fat binary or PTX text, whose
 *  kernels' metadata is the NUL-terminated JSON sidecar `metadata_json`
 *  (docs/runtime.md), not PTX comments. The bytes are read during the call
 *  only. */
int tilec_module_load_image(tilec_context ctx, const void *image, size_t size,
                            const char *metadata_json, tilec_module *out);
/** Releases the handle (the module stays loaded while kernels use it). */
void tilec_module_destroy(tilec_module module);

/** Looks up a kernel that has a metadata line in the module. */
int tilec_module_get_kernel(tilec_module module, const char *name,
                            tilec_kernel *out);
void tilec_kernel_destroy(tilec_kernel kernel);

/** Launches on `stream` (a CUstream; NULL: the default stream) with grid
 *  (gx, gy, gz) blocks of num_warps*32 threads. Checks the argument count,
 *  kinds and specialization facts and the grid first, and refuses a bad
 *  launch without calling the driver. */
int tilec_kernel_launch(tilec_kernel kernel, uint32_t gx, uint32_t gy,
                        uint32_t gz, const tilec_arg *args, size_t nargs,
                        void *stream);

/** Starts capturing `stream` (a CUstream made with cuStreamCreate; NULL,
 *  the legacy default stream, cannot be captured) into a CUDA graph: until
 *  tilec_graph_end_capture, launches on it are recorded, not run. */
int tilec_graph_begin_capture(tilec_context ctx, void *stream);
/** Ends the capture of `stream`, from the thread that began it, and
 *  instantiates the graph. After a failed launch inside the capture, end it
 *  anyway and destroy the graph. */
int tilec_graph_end_capture(tilec_context ctx, void *stream, tilec_graph *out);
/** Replays the captured launches on `stream` (their arguments as captured). */
int tilec_graph_launch(tilec_graph graph, void *stream);
/** Releases the handle; the graph is destroyed with it. NULL ok. */
void tilec_graph_destroy(tilec_graph graph);

/** A compiled operator graph (a `tile.graph` tilec compiled: its
 *  `// tilec.graph` line and kernels; C++ tilec::GraphProgram,
 *  docs/runtime.md "Operator graphs"). */
typedef struct tilec_graph_program_s *tilec_graph_program;

/** One argument of a graph: a buffer (arg.kind TILEC_ARG_PTR, arg.value.u
 *  its device address, `rank` sizes at `shape`, outermost first) or a
 *  scalar (any other kind, as for a launch; rank and shape ignored). */
typedef struct tilec_graph_arg {
  tilec_arg arg;
  int32_t rank;
  int32_t pad; /**< ignored; set to 0 */
  const int64_t *shape;
} tilec_graph_arg;

/** Loads NUL-terminated PTX that tilec wrote for a module with graphs and
 *  takes its graph `name` (NULL or "": its only graph). */
int tilec_graph_program_load_ptx(tilec_context ctx, const char *ptx,
                                 const char *name, tilec_graph_program *out);
/** Runs the graph on `stream`: checks the arguments and the graph's size
 *  conditions, allocates its intermediate buffers (kept for later runs) and
 *  launches its kernels. */
int tilec_graph_program_run(tilec_graph_program program,
                            const tilec_graph_arg *args, size_t nargs,
                            void *stream);
/** As tilec_graph_program_run, as one CUDA Graph (`stream` made with
 *  cuStreamCreate): instantiated once per sequence of kernels and grids,
 *  updated in place when only addresses and scalars change. */
int tilec_graph_program_replay(tilec_graph_program program,
                               const tilec_graph_arg *args, size_t nargs,
                               void *stream);
/** Releases the handle (its buffers and CUDA graphs with the last user). */
void tilec_graph_program_destroy(tilec_graph_program program);

/** Queries; on a NULL kernel they return -1 / NULL / 0. */
const char *tilec_kernel_name(tilec_kernel kernel);
int tilec_kernel_num_warps(tilec_kernel kernel);
/** Dynamic shared memory in bytes, or -1. */
int64_t tilec_kernel_shared_bytes(tilec_kernel kernel);
/** The signature text, e.g. "*fp32:16,*fp32:16,*fp32:16,i32:16". */
const char *tilec_kernel_signature(tilec_kernel kernel);
size_t tilec_kernel_num_params(tilec_kernel kernel);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TILEC_RUNTIME_C_H */
