//===- Guard.h - Keep exceptions inside the runtime --------------*- C++ -*-===//
//
// The runtime may use exceptions internally (std::string and std::vector can
// throw std::bad_alloc), but no exception may leave its API: guarded() runs a
// function body and turns any exception into an error Status.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_GUARD_H
#define TILEC_RUNTIME_LIB_GUARD_H

#include "tilec/Runtime.h"

#include <exception>

namespace tilec::detail {

/// Runs `body` (returning Status); an exception becomes an error Status.
template <typename F> Status guarded(F &&body) noexcept {
  try {
    return body();
  } catch (const std::exception &e) {
    try {
      return Status::error(std::string("internal error: ") + e.what());
    } catch (...) {
    }
  } catch (...) {
  }
  // Building the message itself failed: an empty message needs no
  // allocation, and the Status still reports the failure.
  return Status::error(std::string());
}

} // namespace tilec::detail

#endif // TILEC_RUNTIME_LIB_GUARD_H
