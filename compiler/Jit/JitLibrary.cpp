//===- JitLibrary.cpp - libtilec_jit.so --------------------------------------===//
//
// The shared library's own translation unit: its contents are the JIT,
// compile-key, runtime and C API archives linked whole (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "tilec/Jit.h"
#include "tilec/jit_c.h"
