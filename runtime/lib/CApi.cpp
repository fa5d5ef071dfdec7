//===- CApi.cpp - The C API over the C++ runtime ------------------*- C++ -*-===//
//
// Implements tilec/runtime_c.h: opaque handles that own shared pointers to the
// C++ objects (their structs in CHandles.h, shared with the JIT's C API),
// tilec_arg -> tilec::Arg conversion with range checks (into inline storage:
// a launch allocates nothing), and a thread-local last-error string. Every
// entry point catches all exceptions (std::bad_alloc is the only one the C++
// side can raise) so none crosses the C boundary.
//
//===----------------------------------------------------------------------===//

#include "tilec/GraphProgram.h"
#include "tilec/Runtime.h"
#include "tilec/runtime_c.h"

#include "CHandles.h"

#include <cmath>
#include <cstddef>
#include <exception>
#include <new>
#include <string_view>
#include <vector>

using namespace tilec;

// tilec_context_s, tilec_module_s and tilec_kernel_s are in CHandles.h
// (the JIT's C API makes them too).
struct tilec_graph_s {
  Graph graph;
};
struct tilec_graph_program_s {
  GraphProgram program;
};

static thread_local std::string lastError;
static constexpr int kOk = TILEC_OK;

static int fail(std::string message) {
  try {
    lastError = std::move(message);
  } catch (...) {
  }
  return TILEC_ERROR;
}

static int report(const Status &s) {
  return s.ok() ? TILEC_OK : fail(s.message());
}

/// Runs `body` (returning an int status) with every exception turned into
/// an error.
template <typename F> static int guarded(F &&body) {
  try {
    int status = body();
    // A successful call clears the thread's last error.
    if (status == TILEC_OK)
      lastError.clear();
    return status;
  } catch (const std::exception &e) {
    return fail(std::string("internal error: ") + e.what());
  } catch (...) {
    return fail("internal error: unknown exception");
  }
}

int tilec::capi::guarded(const std::function<Status()> &body) {
  return ::guarded([&] { return report(body()); });
}

const char *tilec_last_error(void) { return lastError.c_str(); }

int tilec_context_create(int device, tilec_context *out) {
  return guarded([&] {
    if (!out)
      return fail("tilec_context_create: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_context_s>();
    if (Status s = Context::create(device, handle->context); !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

void tilec_context_destroy(tilec_context ctx) { delete ctx; }

int tilec_context_synchronize(tilec_context ctx) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_context_synchronize: context is NULL");
    if (Status s = ctx->context->synchronize(); !s.ok())
      return report(s);
    return kOk;
  });
}

int tilec_module_load_ptx(tilec_context ctx, const char *ptx,
                          tilec_module *out) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_module_load_ptx: ctx is NULL");
    if (!ptx)
      return fail("tilec_module_load_ptx: ptx is NULL");
    if (!out)
      return fail("tilec_module_load_ptx: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_module_s>();
    if (Status s = Module::loadPTX(ctx->context, ptx, handle->module); !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

int tilec_module_load_file(tilec_context ctx, const char *path,
                           tilec_module *out) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_module_load_file: ctx is NULL");
    if (!path)
      return fail("tilec_module_load_file: path is NULL");
    if (!out)
      return fail("tilec_module_load_file: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_module_s>();
    if (Status s = Module::loadFile(ctx->context, path, handle->module);
        !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

int tilec_module_load_image(tilec_context ctx, const void *image, size_t size,
                            const char *metadata_json, tilec_module *out) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_module_load_image: ctx is NULL");
    if (!image)
      return fail("tilec_module_load_image: image is NULL");
    if (!metadata_json)
      return fail("tilec_module_load_image: metadata_json is NULL");
    if (!out)
      return fail("tilec_module_load_image: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_module_s>();
    if (Status s = Module::loadImage(
            ctx->context,
            std::string_view(static_cast<const char *>(image), size),
            metadata_json, handle->module);
        !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

void tilec_module_destroy(tilec_module module) { delete module; }

int tilec_module_get_kernel(tilec_module module, const char *name,
                            tilec_kernel *out) {
  return guarded([&] {
    if (!module)
      return fail("tilec_module_get_kernel: module is NULL");
    if (!name)
      return fail("tilec_module_get_kernel: name is NULL");
    if (!out)
      return fail("tilec_module_get_kernel: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_kernel_s>();
    if (Status s = module->module.getKernel(name, handle->kernel); !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

void tilec_kernel_destroy(tilec_kernel kernel) { delete kernel; }

static_assert(sizeof(tilec_tensordesc) == sizeof(TensorDesc) &&
                  offsetof(tilec_tensordesc, base) == offsetof(TensorDesc, base) &&
                  offsetof(tilec_tensordesc, rank) == offsetof(TensorDesc, rank) &&
                  offsetof(tilec_tensordesc, shape) ==
                      offsetof(TensorDesc, shape) &&
                  offsetof(tilec_tensordesc, strides) ==
                      offsetof(TensorDesc, strides),
              "tilec_tensordesc and tilec::TensorDesc must share a layout");
static_assert(int(TILEC_ARG_TENSORDESC) == int(ArgKind::TensorDesc),
              "tilec_arg_kind and tilec::ArgKind must agree");

/// Converts one C argument whose value fits its kind, without building a
/// Status; false for anything else (convertArg then says what is wrong).
static bool convertArgFast(const tilec_arg &a, Arg &out) {
  switch (a.kind) {
  case TILEC_ARG_PTR: out = Arg::ptr(CUdeviceptr(a.value.u)); return true;
  case TILEC_ARG_I1:
    if (a.value.i != 0 && a.value.i != 1)
      return false;
    out = Arg::i1(a.value.i != 0);
    return true;
  case TILEC_ARG_I8:
    if (a.value.i != int8_t(a.value.i))
      return false;
    out = Arg::i8(int8_t(a.value.i));
    return true;
  case TILEC_ARG_I16:
    if (a.value.i != int16_t(a.value.i))
      return false;
    out = Arg::i16(int16_t(a.value.i));
    return true;
  case TILEC_ARG_I32:
    if (a.value.i != int32_t(a.value.i))
      return false;
    out = Arg::i32(int32_t(a.value.i));
    return true;
  case TILEC_ARG_I64: out = Arg::i64(a.value.i); return true;
  case TILEC_ARG_U8:
  case TILEC_ARG_U16:
  case TILEC_ARG_U32:
  case TILEC_ARG_F16:
  case TILEC_ARG_BF16: {
    uint64_t max = a.kind == TILEC_ARG_U8    ? UINT8_MAX
                   : a.kind == TILEC_ARG_U32 ? UINT32_MAX
                                             : UINT16_MAX;
    if (a.value.u > max)
      return false;
    out = a.kind == TILEC_ARG_U8    ? Arg::u8(uint8_t(a.value.u))
          : a.kind == TILEC_ARG_U16 ? Arg::u16(uint16_t(a.value.u))
          : a.kind == TILEC_ARG_U32 ? Arg::u32(uint32_t(a.value.u))
          : a.kind == TILEC_ARG_F16 ? Arg::f16bits(uint16_t(a.value.u))
                                    : Arg::bf16bits(uint16_t(a.value.u));
    return true;
  }
  case TILEC_ARG_U64: out = Arg::u64(a.value.u); return true;
  case TILEC_ARG_F32: out = Arg::f32(float(a.value.f)); return true;
  case TILEC_ARG_F64: out = Arg::f64(a.value.f); return true;
  case TILEC_ARG_TENSORDESC:
    out = Arg::tensorDesc(
        reinterpret_cast<const TensorDesc *>(uintptr_t(a.value.u)));
    return true;
  default: return false;
  }
}

/// Converts one C argument, checking that integers fit their kind.
static Status convertArg(const tilec_arg &a, size_t index,
                         const std::string &kernel, Arg &out) {
  auto range = [&](const std::string &value, const char *kind) {
    return Status::error("argument " + std::to_string(index) +
                         " of kernel '" + kernel + "': value " + value +
                         " does not fit in " + kind);
  };
  auto signedIn = [&](int64_t lo, int64_t hi, const char *kind) {
    return a.value.i >= lo && a.value.i <= hi
               ? Status::success()
               : range(std::to_string(a.value.i), kind);
  };
  auto unsignedIn = [&](uint64_t hi, const char *kind) {
    return a.value.u <= hi ? Status::success()
                           : range(std::to_string(a.value.u), kind);
  };
  Status s;
  switch (a.kind) {
  case TILEC_ARG_PTR:
    out = Arg::ptr(CUdeviceptr(a.value.u));
    return s;
  case TILEC_ARG_I1:
    if (!(s = signedIn(0, 1, "i1")).ok())
      return s;
    out = Arg::i1(a.value.i != 0);
    return s;
  case TILEC_ARG_I8:
    if (!(s = signedIn(INT8_MIN, INT8_MAX, "i8")).ok())
      return s;
    out = Arg::i8(int8_t(a.value.i));
    return s;
  case TILEC_ARG_I16:
    if (!(s = signedIn(INT16_MIN, INT16_MAX, "i16")).ok())
      return s;
    out = Arg::i16(int16_t(a.value.i));
    return s;
  case TILEC_ARG_I32:
    if (!(s = signedIn(INT32_MIN, INT32_MAX, "i32")).ok())
      return s;
    out = Arg::i32(int32_t(a.value.i));
    return s;
  case TILEC_ARG_I64:
    out = Arg::i64(a.value.i);
    return s;
  case TILEC_ARG_U8:
    if (!(s = unsignedIn(UINT8_MAX, "u8")).ok())
      return s;
    out = Arg::u8(uint8_t(a.value.u));
    return s;
  case TILEC_ARG_U16:
    if (!(s = unsignedIn(UINT16_MAX, "u16")).ok())
      return s;
    out = Arg::u16(uint16_t(a.value.u));
    return s;
  case TILEC_ARG_U32:
    if (!(s = unsignedIn(UINT32_MAX, "u32")).ok())
      return s;
    out = Arg::u32(uint32_t(a.value.u));
    return s;
  case TILEC_ARG_U64:
    out = Arg::u64(a.value.u);
    return s;
  case TILEC_ARG_F16:
    if (!(s = unsignedIn(UINT16_MAX, "f16 bits")).ok())
      return s;
    out = Arg::f16bits(uint16_t(a.value.u));
    return s;
  case TILEC_ARG_BF16:
    if (!(s = unsignedIn(UINT16_MAX, "bf16 bits")).ok())
      return s;
    out = Arg::bf16bits(uint16_t(a.value.u));
    return s;
  case TILEC_ARG_F32:
    out = Arg::f32(float(a.value.f));
    return s;
  case TILEC_ARG_F64:
    out = Arg::f64(a.value.f);
    return s;
  case TILEC_ARG_TENSORDESC:
    // The launch reads the descriptor (tilec_tensordesc and TensorDesc have
    // one layout) while the caller's pointer is valid.
    out = Arg::tensorDesc(reinterpret_cast<const TensorDesc *>(
        uintptr_t(a.value.u)));
    return s;
  default:
    return Status::error("argument " + std::to_string(index) + " of kernel '" +
                         kernel + "': unknown tilec_arg kind " +
                         std::to_string(a.kind));
  }
}

int tilec_kernel_launch(tilec_kernel kernel, uint32_t gx, uint32_t gy,
                        uint32_t gz, const tilec_arg *args, size_t nargs,
                        void *stream) {
  return guarded([&] {
    if (!kernel)
      return fail("tilec_kernel_launch: kernel is NULL");
    if (nargs && !args)
      return fail("tilec_kernel_launch: args is NULL but nargs is " +
                  std::to_string(nargs));
    // The converted arguments: inline for up to 32 (no allocation on the
    // launch path), on the heap beyond.
    constexpr size_t kInline = 32;
    union InlineArgs {
      InlineArgs() {}
      Arg args[kInline];
    } inlineArgs;
    std::vector<Arg> heapArgs;
    Arg *converted = inlineArgs.args;
    if (nargs > kInline) {
      heapArgs.assign(nargs, Arg::i32(0));
      converted = heapArgs.data();
    }
    for (size_t i = 0; i < nargs; ++i) {
      Arg &slot = *new (&converted[i]) Arg(Arg::i32(0));
      if (!convertArgFast(args[i], slot))
        if (Status s = convertArg(args[i], i, kernel->kernel.name(), slot);
            !s.ok())
          return report(s);
    }
    return report(kernel->kernel.launch(Grid{gx, gy, gz}, converted, nargs,
                                        static_cast<CUstream>(stream)));
  });
}

int tilec_graph_begin_capture(tilec_context ctx, void *stream) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_graph_begin_capture: ctx is NULL");
    return report(
        Graph::beginCapture(ctx->context, static_cast<CUstream>(stream)));
  });
}

int tilec_graph_end_capture(tilec_context ctx, void *stream, tilec_graph *out) {
  return guarded([&] {
    if (!ctx)
      return fail("tilec_graph_end_capture: ctx is NULL");
    if (!out)
      return fail("tilec_graph_end_capture: out is NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_graph_s>();
    if (Status s = Graph::endCapture(ctx->context,
                                     static_cast<CUstream>(stream),
                                     handle->graph);
        !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

int tilec_graph_launch(tilec_graph graph, void *stream) {
  return guarded([&] {
    if (!graph)
      return fail("tilec_graph_launch: graph is NULL");
    return report(graph->graph.launch(static_cast<CUstream>(stream)));
  });
}

void tilec_graph_destroy(tilec_graph graph) { delete graph; }

int tilec_graph_program_load_ptx(tilec_context ctx, const char *ptx,
                                 const char *name, tilec_graph_program *out) {
  return guarded([&] {
    if (!ctx || !ptx || !out)
      return fail("tilec_graph_program_load_ptx: ctx, ptx and out must not "
                  "be NULL");
    *out = nullptr;
    auto handle = std::make_unique<tilec_graph_program_s>();
    if (Status s = GraphProgram::loadPTX(ctx->context, ptx, name ? name : "",
                                         handle->program);
        !s.ok())
      return report(s);
    *out = handle.release();
    return kOk;
  });
}

/// The C graph arguments as GraphArgs.
static Status convertGraphArgs(const tilec_graph_arg *args, size_t nargs,
                               const std::string &graph,
                               std::vector<GraphArg> &out) {
  out.clear();
  for (size_t i = 0; i < nargs; ++i) {
    const tilec_graph_arg &a = args[i];
    if (a.arg.kind == TILEC_ARG_PTR) {
      if (a.rank < 0 || a.rank > 16 || (a.rank && !a.shape))
        return Status::error("graph '" + graph + "': argument " +
                             std::to_string(i) +
                             ": a buffer needs 0 to 16 "
                             "sizes at a non-NULL shape, found rank " +
                             std::to_string(a.rank));
      out.push_back(
          GraphArg::buffer(CUdeviceptr(a.arg.value.u),
                           std::vector<int64_t>(a.shape, a.shape + a.rank)));
      continue;
    }
    Arg value = Arg::i32(0);
    if (Status s = convertArg(a.arg, i, graph, value); !s.ok())
      return s;
    out.push_back(GraphArg::scalar(value));
  }
  return Status::success();
}

/// Runs or replays `program` (the C entry point `what`).
static int runProgram(tilec_graph_program program, const tilec_graph_arg *args,
                      size_t nargs, void *stream, bool replay,
                      const char *what) {
  return guarded([&] {
    if (!program || (nargs && !args))
      return fail(std::string(what) + ": program is NULL, or args is NULL "
                                      "but nargs is not 0");
    std::vector<GraphArg> converted;
    if (Status s = convertGraphArgs(args, nargs, program->program.info().name,
                                    converted);
        !s.ok())
      return report(s);
    auto st = static_cast<CUstream>(stream);
    return report(replay ? program->program.replay(converted, st)
                         : program->program.run(converted, st));
  });
}

int tilec_graph_program_run(tilec_graph_program program,
                            const tilec_graph_arg *args, size_t nargs,
                            void *stream) {
  return runProgram(program, args, nargs, stream, false,
                    "tilec_graph_program_run");
}

int tilec_graph_program_replay(tilec_graph_program program,
                               const tilec_graph_arg *args, size_t nargs,
                               void *stream) {
  return runProgram(program, args, nargs, stream, true,
                    "tilec_graph_program_replay");
}

void tilec_graph_program_destroy(tilec_graph_program program) {
  delete program;
}

const char *tilec_kernel_name(tilec_kernel kernel) {
  return kernel ? kernel->kernel.name().c_str() : nullptr;
}

int tilec_kernel_num_warps(tilec_kernel kernel) {
  return kernel ? int(kernel->kernel.numWarps()) : -1;
}

int64_t tilec_kernel_shared_bytes(tilec_kernel kernel) {
  return kernel ? int64_t(kernel->kernel.sharedBytes()) : -1;
}

const char *tilec_kernel_signature(tilec_kernel kernel) {
  return kernel ? kernel->kernel.info().signatureText.c_str() : nullptr;
}

size_t tilec_kernel_num_params(tilec_kernel kernel) {
  return kernel ? kernel->kernel.signature().params.size() : 0;
}
