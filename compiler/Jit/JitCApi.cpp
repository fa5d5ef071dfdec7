//===- JitCApi.cpp - The JIT's C API (tilec/jit_c.h) -------------------------===//
#include "tilec/jit_c.h"
#include "tilec/Jit.h"
#include "runtime/lib/CHandles.h"

#include <memory>
#include <string>

using namespace tilec;

struct tilec_jit_s {
  std::unique_ptr<Jit> jit;
};

namespace {
Status toCompileOptions(const tilec_compile_options *o, CompileOptions &out) {
  out = CompileOptions();
  if (!o)
    return Status::success();
  auto str = [](const char *s) { return s ? std::string(s) : std::string(); };
  out.kernel = str(o->kernel);
  out.signature = str(o->signature);
  if (o->num_constexprs && !o->constexprs)
    return Status::error("tilec_compile_options: constexprs is NULL but "
                         "num_constexprs is " +
                         std::to_string(o->num_constexprs));
  for (size_t i = 0; i < o->num_constexprs; ++i) {
    std::string d = str(o->constexprs[i]);
    size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      return Status::error("tilec_compile_options: constexpr " +
                           std::to_string(i) + " '" + d +
                           "': expected NAME=VALUE");
    out.constexprs.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  out.numWarps = o->num_warps;
  out.numStages = o->num_stages;
  out.arch = str(o->arch);
  out.fpFusion = o->fp_fusion != 0;
  out.debug = o->debug != 0;
  if (o->backend && *o->backend)
    out.backend = o->backend;
  return Status::success();
}
} // namespace

extern "C" {

void tilec_jit_options_init(tilec_jit_options *options) {
  if (!options)
    return;
  options->disk_cache = 1;
  options->cache_dir = nullptr;
  options->ptxas = nullptr;
}

void tilec_compile_options_init(tilec_compile_options *options) {
  if (!options)
    return;
  *options = tilec_compile_options{};
  options->fp_fusion = 1;
}

int tilec_jit_create(tilec_context context, const tilec_jit_options *options,
                     tilec_jit *out) {
  return capi::guarded([&]() -> Status {
    if (!context)
      return Status::error("tilec_jit_create: context is NULL");
    if (!out)
      return Status::error("tilec_jit_create: out is NULL");
    *out = nullptr;
    Jit::Options o;
    if (options) {
      o.diskCache = options->disk_cache != 0;
      if (options->cache_dir)
        o.cacheDir = options->cache_dir;
      if (options->ptxas)
        o.ptxas = options->ptxas;
    }
    auto handle = std::make_unique<tilec_jit_s>();
    if (Status s = Jit::create(context->context, o, handle->jit); !s)
      return s;
    *out = handle.release();
    return Status::success();
  });
}

void tilec_jit_destroy(tilec_jit jit) { delete jit; }

int tilec_jit_compile(tilec_jit jit, const char *source, size_t source_size,
                      const char *file_name,
                      const tilec_compile_options *options, tilec_kernel *out) {
  return capi::guarded([&]() -> Status {
    if (!jit)
      return Status::error("tilec_jit_compile: jit is NULL");
    if (!source && source_size)
      return Status::error("tilec_jit_compile: source is NULL");
    if (!file_name)
      return Status::error("tilec_jit_compile: file_name is NULL");
    if (!out)
      return Status::error("tilec_jit_compile: out is NULL");
    *out = nullptr;
    CompileOptions o;
    if (Status s = toCompileOptions(options, o); !s)
      return s;
    auto handle = std::make_unique<tilec_kernel_s>();
    if (Status s = jit->jit->compile(std::string_view(source ? source : "",
                                                      source_size),
                                     file_name, o, handle->kernel);
        !s)
      return s;
    *out = handle.release();
    return Status::success();
  });
}

int tilec_jit_compile_file(tilec_jit jit, const char *path,
                           const tilec_compile_options *options,
                           tilec_kernel *out) {
  return capi::guarded([&]() -> Status {
    if (!jit)
      return Status::error("tilec_jit_compile_file: jit is NULL");
    if (!path)
      return Status::error("tilec_jit_compile_file: path is NULL");
    if (!out)
      return Status::error("tilec_jit_compile_file: out is NULL");
    *out = nullptr;
    CompileOptions o;
    if (Status s = toCompileOptions(options, o); !s)
      return s;
    auto handle = std::make_unique<tilec_kernel_s>();
    if (Status s = jit->jit->compileFile(path, o, handle->kernel); !s)
      return s;
    *out = handle.release();
    return Status::success();
  });
}

} // extern "C"
