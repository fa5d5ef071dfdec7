//===- BuiltinsExt.cpp - Reductions, dot, atomics, descriptors --*- C++ -*-===//
//
// The triton.language functions that build structured tile ops: reductions
// and scans (with their combiner regions), tl.dot, atomics, transposes,
// value hints (tl.multiple_of & co.) and tensor descriptors.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

FailureOr<PyValue> CodeGen::callExtendedBuiltin(const std::string &name,
                                                CallArgs &args, SourceLoc l) {
  error(l) << "unimplemented: " << name << " is not supported by tilec yet";
  return failure();
}
