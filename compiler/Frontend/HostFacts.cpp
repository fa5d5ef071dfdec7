//===- HostFacts.cpp - What host code may ask of the machine ----*- C++ -*-===//
//
// Kernel libraries run host Python when Python imports them, and choose
// their jit functions and constants by what it answers: which GPU this is
// (`torch.cuda.get_device_capability()[0] == 9`, flash-linear-attention's
// IS_NVIDIA_HOPPER; `torch.version.hip`, unsloth's is_hip()), and the
// environment (`os.environ.get("FLA_USE_FAST_OPS", "0")`). tilec compiles
// ahead of time for one target, `--arch`, so it answers as Python would on
// a machine with that GPU:
//
//   torch.cuda.is_available()             True
//   torch.cuda.get_device_capability(d)   (major, minor) of --arch (sm_90a:
//                                         (9, 0)), whatever the device d
//   torch.version.hip                     None (a CUDA build of torch)
//   os.environ.get(k[, d]), os.getenv     the process environment when
//                                         KernelOptions::readEnvironment (the
//                                         command line), else d
//   sys.platform                          the platform tilec runs on
//
// Triton's own `triton.runtime.driver.active.get_current_target()` is in
// HostEval.cpp. Anything else of these modules (the device's name, its SM
// count, torch.__version__) is state tilec cannot know while compiling: a
// located error that names what it answers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/CodeGen.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace tilec;
using namespace tilec::frontend;
using mlir::failure;
using mlir::FailureOr;
using py::SourceLoc;

namespace {
constexpr const char *kAnswered =
    "tilec answers torch.cuda.is_available(), "
    "torch.cuda.get_device_capability(), torch.version.hip, os.environ.get(), "
    "os.getenv() and sys.platform";
} // namespace

bool CodeGen::isHostLibrary(llvm::StringRef dotted) {
  llvm::StringRef root = dotted.split('.').first;
  return root == "torch" || root == "os" || root == "sys";
}

FailureOr<PyValue> CodeGen::hostLibraryAttr(const std::string &path,
                                            const std::string &attr,
                                            SourceLoc l) {
  if (path == "torch" && (attr == "cuda" || attr == "version"))
    return PyValue::module("torch." + attr);
  if (path == "torch.cuda" &&
      (attr == "is_available" || attr == "get_device_capability"))
    return PyValue::builtin("host.torch.cuda." + attr);
  if (path == "torch.version" && attr == "hip")
    return PyValue::none();
  if (path == "os" && attr == "environ")
    return PyValue::module("os.environ");
  if ((path == "os" && attr == "getenv") ||
      (path == "os.environ" && attr == "get"))
    return PyValue::builtin("host.os.getenv");
  if (path == "sys" && attr == "platform") {
#if defined(_WIN32)
    return PyValue::ofStr("win32");
#elif defined(__APPLE__)
    return PyValue::ofStr("darwin");
#else
    return PyValue::ofStr("linux");
#endif
  }
  error(l) << "unsupported: '" << path << "." << attr
           << "' cannot be used while compiling (for " << options.arch
           << "); of the host libraries, " << kAnswered;
  return failure();
}

FailureOr<PyValue> CodeGen::callHostFact(const std::string &name,
                                         CallArgs &args, SourceLoc l) {
  if (name == "host.torch.cuda.is_available") {
    TRY(s, bindArgs(*this, args, {}, 0, "torch.cuda.is_available", l));
    (void)s;
    return PyValue::ofBool(true); // tilec compiles for CUDA GPUs
  }
  if (name == "host.torch.cuda.get_device_capability") {
    // One target: every device is --arch (sm_90a: (9, 0); sm_120: (12, 0)).
    TRY(s, bindArgs(*this, args, {"device"}, 0,
                    "torch.cuda.get_device_capability", l));
    (void)s;
    llvm::StringRef arch(options.arch);
    unsigned cc = 0;
    if (!arch.consume_front("sm_") ||
        arch.take_while(llvm::isDigit).getAsInteger(10, cc) || cc < 10) {
      error(l) << "cannot tell the compute capability of --arch "
               << options.arch << " (expected sm_NN)";
      return failure();
    }
    return PyValue::ofTuple(
        {PyValue::ofInt(cc / 10), PyValue::ofInt(cc % 10)});
  }
  if (name == "host.os.getenv") {
    TRY(s, bindArgs(*this, args, {"key", "default"}, 1, "os.environ.get", l));
    if (s[0]->kind != PyValue::Kind::Str) {
      error(l) << "expected a string name of an environment variable, found "
               << s[0]->describe();
      return failure();
    }
    // No variable's name holds a NUL byte or '=' (Python's os.environ,
    // built from the environment block, has no such key): the default.
    bool nameable = s[0]->s.find_first_of(std::string("=\0", 2)) ==
                    std::string::npos;
    if (options.readEnvironment && nameable)
      if (const char *v = std::getenv(s[0]->s.c_str()))
        return PyValue::ofStr(v);
    return s[1] ? *s[1] : PyValue::none();
  }
  error(l) << "unimplemented: '" << name.substr(5) << "'; " << kAnswered;
  return failure();
}
