//===- FrontendFuzzer.cpp - libFuzzer target over the front end -----------===//
//
// One input is the text of a `.py` file, or of several: lines of the form
//
//   #@file <relative/path.py>
//
// split it into files (the text before the first such line is the kernel
// file `fuzz.py`; when that text is blank, the first file named is the
// kernel). The files go into an in-memory file system under /fuzz, which is
// the import path, so that `import helpers as hx`, `from .utils import f`,
// packages with `__init__.py`, namespace packages and import cycles read
// them (KernelOptions::fileSystem). Inputs with more than 16 such lines, an
// absolute path, a `.`, `..` or empty path part, or a path given twice are
// rejected (FuzzInput.h).
//
// The kernel file is tokenized and parsed (py::parseModule), and its syntax
// tree printed to a null stream; if it parsed without diagnostics and holds
// a jit function, the first one is imported as a kernel
// (frontend::importKernel) into a fresh MLIR context with a signature
// guessed from its parameters (under KernelOptions' default budgets), and
// what imports is run through the whole pipeline and LLVM's NVPTX backend
// to PTX text (emitPTX): runFuzzInput in FuzzInput.h, which the unit test
// test/Unit/Compiler/FuzzInputTest.cpp runs on every seed. Diagnostics are
// swallowed (TILEC_FUZZ_VERBOSE=1 prints them, with how far the input got):
// an error is a fine outcome, a crash, hang, leak or sanitizer report is
// not.
//
// Built only with -DTILEC_BUILD_FUZZERS=ON and clang (scripts/fuzz.sh);
// docs/testing.md, "Fuzzing", says how to run it.
//
//===----------------------------------------------------------------------===//

#include "test/Fuzz/FuzzInput.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

/// The LLVM and MLIR libraries are uninstrumented, but the LLVM headers
/// inlined into the instrumented code (BumpPtrAllocator) poison the memory
/// they hand out when built with ASan, and the libraries' own inlined copies
/// never unpoison it: every MLIRContext would report use-after-poison. Manual
/// poisoning is off; ASan's own redzones still cover the project's code.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using tilec::fuzz::FuzzOutcome;
  // TILEC_FUZZ_VERBOSE=1: each input's diagnostics and outcome on stderr
  // (replaying one input; slow for a run).
  static const bool verbose = std::getenv("TILEC_FUZZ_VERBOSE") != nullptr;
  std::string_view input(reinterpret_cast<const char *>(data), size);
  FuzzOutcome outcome =
      tilec::fuzz::runFuzzInput(input, verbose ? &llvm::errs() : nullptr);
  if (verbose)
    llvm::errs() << "tilec-frontend-fuzzer: "
                 << tilec::fuzz::getOutcomeName(outcome) << "\n";
  // A rejected input (FuzzInput.h) is kept out of the corpus.
  return outcome == FuzzOutcome::Rejected ? -1 : 0;
}
