//===- CHandles.h - The C API's handle types, for libraries on top ----*- C++ -*-===//
//
// The structs behind runtime_c.h's opaque handles and the C API's error
// reporting, shared with the JIT's C API (compiler/Jit/JitCApi.cpp) so that
// its kernels are ordinary tilec_kernel handles and its errors read through
// tilec_last_error(). Not installed.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_RUNTIME_LIB_CHANDLES_H
#define TILEC_RUNTIME_LIB_CHANDLES_H

#include "tilec/Runtime.h"
#include "tilec/runtime_c.h"

#include <functional>
#include <memory>
#include <string>

struct tilec_context_s {
  std::shared_ptr<tilec::Context> context;
};
struct tilec_module_s {
  tilec::Module module;
};
struct tilec_kernel_s {
  tilec::Kernel kernel;
};

namespace tilec::capi {
/// Runs `body` for a C entry point: TILEC_OK after an ok Status (clearing
/// the thread's last error), else TILEC_ERROR with the message kept for
/// tilec_last_error(); an exception becomes an "internal error".
int guarded(const std::function<Status()> &body);
} // namespace tilec::capi

#endif // TILEC_RUNTIME_LIB_CHANDLES_H
