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
// and Python's `math` module on compile-time numbers (`math.log2(BLOCK)`,
// `math.pi`, `1 / math.log(2)`), as CPython computes it: its constants
// and the functions listed in kMathFunctions.
//
// Triton's own `triton.runtime.driver.active.get_current_target()` is in
// HostEval.cpp. Anything else of these modules (the device's name, its SM
// count, torch.__version__) is state tilec cannot know while compiling: a
// located error that names what it answers.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/CodeGen.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdlib>
#include <numeric>

using namespace tilec;
using namespace tilec::frontend;
using mlir::failure;
using mlir::FailureOr;
using py::SourceLoc;

namespace {
constexpr const char *kAnswered =
    "tilec answers torch.cuda.is_available(), "
    "torch.cuda.get_device_capability(), torch.version.hip, os.environ.get(), "
    "os.getenv(), sys.platform and math's constants and functions of numbers";

/// The functions of Python's math module tilec computes.
constexpr llvm::StringLiteral kMathFunctions[] = {
    "ceil",  "copysign", "exp",   "fabs",  "floor", "gcd",  "isfinite",
    "isinf", "isnan",    "isqrt", "lcm",   "log",   "log10", "log2",
    "pow",   "sqrt",     "trunc"};
} // namespace

bool CodeGen::isHostLibrary(llvm::StringRef dotted) {
  llvm::StringRef root = dotted.split('.').first;
  return root == "torch" || root == "os" || root == "sys" || root == "math";
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
  if (path == "math") {
    if (attr == "pi")
      return PyValue::ofFloat(M_PI);
    if (attr == "e")
      return PyValue::ofFloat(M_E);
    if (attr == "tau")
      return PyValue::ofFloat(2 * M_PI);
    if (attr == "inf")
      return PyValue::ofFloat(HUGE_VAL);
    if (attr == "nan")
      return PyValue::ofFloat(std::nan(""));
    if (llvm::is_contained(kMathFunctions, attr))
      return PyValue::builtin("host.math." + attr);
  }
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
  if (llvm::StringRef(name).starts_with("host.math."))
    return callMath(name.substr(10), args, l);
  error(l) << "unimplemented: '" << name.substr(5) << "'; " << kAnswered;
  return failure();
}

FailureOr<PyValue> CodeGen::callMath(const std::string &fn, CallArgs &args,
                                     SourceLoc l) {
  using K = PyValue::Kind;
  std::string what = "math." + fn;
  if (!args.kwargs.empty()) {
    error(l) << what << "() takes no keyword arguments";
    return failure();
  }
  bool binary = fn == "copysign" || fn == "pow";
  bool variadic = fn == "gcd" || fn == "lcm";
  size_t n = args.args.size();
  if (!variadic && !(n == 1 || (n == 2 && (binary || fn == "log")) )) {
    error(l) << what << "() takes " << (binary ? "2 arguments" : "1 argument")
             << (fn == "log" ? " (or a base)" : "") << ", found " << n;
    return failure();
  }
  if (binary && n != 2) {
    error(l) << what << "() takes 2 arguments, found " << n;
    return failure();
  }
  for (const PyValue &a : args.args)
    if (!a.isNumber()) {
      error(l) << what << "() expects compile-time numbers, found "
               << a.describe();
      return failure();
    }
  auto asF = [](const PyValue &v) {
    return v.kind == K::Float ? v.f : v.kind == K::Int ? double(v.i) : double(v.b);
  };
  auto isInt = [](const PyValue &v) { return v.kind != K::Float; };
  auto asI = [](const PyValue &v) { return v.kind == K::Int ? v.i : int64_t(v.b); };
  auto domain = [&]() -> FailureOr<PyValue> {
    error(l) << what << "(): math domain error (Python's ValueError)";
    return failure();
  };
  if (variadic) {
    int64_t r = fn == "gcd" ? 0 : 1;
    for (const PyValue &a : args.args) {
      if (!isInt(a)) {
        error(l) << what << "() expects integers, found " << a.describe();
        return failure();
      }
      int64_t x = asI(a);
      if (x == INT64_MIN) {
        error(l) << what << "(): an integer past 64 bits";
        return failure();
      }
      x = x < 0 ? -x : x;
      if (fn == "gcd") {
        r = std::gcd(r, x);
      } else {
        if (x == 0 || r == 0) {
          r = 0;
          continue;
        }
        int64_t g = std::gcd(r, x), out;
        if (__builtin_mul_overflow(r / g, x, &out)) {
          error(l) << what << "(): the result does not fit in 64 bits";
          return failure();
        }
        r = out;
      }
    }
    return PyValue::ofInt(r);
  }
  const PyValue &a = args.args[0];
  double x = asF(a);
  // Integral results (ceil, floor, trunc of a float) are Python ints.
  auto integral = [&](double v) -> FailureOr<PyValue> {
    if (isInt(a))
      return PyValue::ofInt(asI(a));
    if (!std::isfinite(v)) {
      error(l) << what << "() of " << a.describe()
               << ": cannot convert an infinity or NaN to an integer";
      return failure();
    }
    if (v >= 9.2233720368547758e18 || v < -9.2233720368547758e18) {
      error(l) << what << "(): the result does not fit in 64 bits";
      return failure();
    }
    return PyValue::ofInt(int64_t(v));
  };
  if (fn == "ceil")
    return integral(std::ceil(x));
  if (fn == "floor")
    return integral(std::floor(x));
  if (fn == "trunc")
    return integral(std::trunc(x));
  if (fn == "fabs")
    return PyValue::ofFloat(std::fabs(x));
  if (fn == "isfinite")
    return PyValue::ofBool(std::isfinite(x));
  if (fn == "isinf")
    return PyValue::ofBool(std::isinf(x));
  if (fn == "isnan")
    return PyValue::ofBool(std::isnan(x));
  if (fn == "isqrt") {
    if (!isInt(a)) {
      error(l) << what << "() expects an integer, found " << a.describe();
      return failure();
    }
    int64_t v = asI(a);
    if (v < 0)
      return domain();
    int64_t r = int64_t(std::sqrt(double(v)));
    while (r > 0 && r > v / r)
      --r;
    while ((r + 1) <= v / (r + 1))
      ++r;
    return PyValue::ofInt(r);
  }
  if (fn == "sqrt")
    return x < 0 ? domain() : FailureOr<PyValue>(PyValue::ofFloat(std::sqrt(x)));
  if (fn == "exp") {
    double r = std::exp(x);
    if (std::isinf(r) && std::isfinite(x)) {
      error(l) << what << "(): math range error (Python's OverflowError)";
      return failure();
    }
    return PyValue::ofFloat(r);
  }
  if (fn == "log" || fn == "log2" || fn == "log10") {
    if (x <= 0 && !std::isnan(x))
      return domain();
    double r = fn == "log2" ? std::log2(x) : fn == "log10" ? std::log10(x)
                                                           : std::log(x);
    if (fn == "log" && n == 2) {
      double base = asF(args.args[1]);
      if (base <= 0 || base == 1)
        return domain();
      r /= std::log(base);
    }
    return PyValue::ofFloat(r);
  }
  double y = asF(args.args[1]);
  if (fn == "copysign")
    return PyValue::ofFloat(std::copysign(x, y));
  // pow: always a float in math (unlike **).
  if (x == 0 && y < 0)
    return domain();
  if (x < 0 && std::isfinite(y) && y != std::floor(y))
    return domain();
  double r = std::pow(x, y);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) {
    error(l) << what << "(): math range error (Python's OverflowError)";
    return failure();
  }
  return PyValue::ofFloat(r);
}
