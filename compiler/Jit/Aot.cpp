//===- Aot.cpp - Ahead-of-time launchers in C (tilec --aot) ----------------===//
//
// The C that tilec --aot writes (Aot.h): no allocation, no runtime library,
// only cuda.h and pthread_once; every check the runtime's Kernel::launch
// makes on pointers and integers is repeated in C, with its message kept
// for `<prefix>_error()`.
//
//===----------------------------------------------------------------------===//
#include "compiler/Jit/Aot.h"

#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>
#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace tilec {

namespace {

const std::set<std::string> &cKeywords() {
  static const std::set<std::string> words = {
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "bool", "true", "false",
      "alignas", "alignof", "asm", "catch", "class", "const_cast", "delete",
      "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
      "new", "noexcept", "nullptr", "operator", "private", "protected",
      "public", "reinterpret_cast", "static_assert", "static_cast",
      "template", "this", "thread_local", "throw", "try", "typeid",
      "typename", "using", "virtual", "wchar_t", "char8_t", "char16_t",
      "char32_t", "concept", "consteval", "constexpr", "constinit",
      "co_await", "co_return", "co_yield", "decltype", "requires", "and",
      "or", "not", "xor", "compl", "bitand", "bitor", "and_eq", "or_eq",
      "xor_eq", "not_eq", "main"};
  return words;
}

/// The C type of a scalar parameter (fp16/bf16: their bit pattern).
const char *cType(ScalarType t) {
  switch (t) {
  case ScalarType::I1: return "bool";
  case ScalarType::I8: return "int8_t";
  case ScalarType::I16: return "int16_t";
  case ScalarType::I32: return "int32_t";
  case ScalarType::I64: return "int64_t";
  case ScalarType::U8: return "uint8_t";
  case ScalarType::U16: return "uint16_t";
  case ScalarType::U32: return "uint32_t";
  case ScalarType::U64: return "uint64_t";
  case ScalarType::FP16: return "uint16_t";
  case ScalarType::BF16: return "uint16_t";
  case ScalarType::FP32: return "float";
  case ScalarType::FP64: return "double";
  default: return nullptr; // fp8 scalars do not exist
  }
}

/// `text` as a C string literal's contents.
std::string cString(const std::string &text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

/// Names the generated code cannot use for a kernel or a parameter: its
/// own (the launchers' parameters, every local and static is tilec_*),
/// and what the headers it includes declare -- cuda.h (cu*, CU*), stdbool,
/// stddef, stdint (*_t, NULL, ...), stdlib.h (which cuda.h includes:
/// free, exit, abs, ...), string.h (str*, mem*) and pthread.h with what it
/// pulls in (pthread_*, sched_*, time, clock*, timer_*, ...) -- and names
/// reserved to the implementation (_*).
bool reserved(const std::string &name) {
  static const std::set<std::string> exact = {
      "stream", "grid_x", "grid_y", "grid_z", "grid", "grid_user",
      "NULL", "size_t", "ptrdiff_t", "wchar_t", "max_align_t", "offsetof",
      "bool", "true", "false", "time", "nanosleep", "timespec", "timeval",
      "tm", "errno", "daylight", "timezone", "tzname", "tzset", "asctime",
      "ctime", "gmtime", "localtime", "mktime", "difftime", "stime",
      "getdate", "getdate_err", "locale_t", "sigset_t", "pid_t", "cpu_set_t",
      "bzero", "bcopy", "bcmp", "index", "rindex", "ffs", "explicit_bzero",
      // stdlib.h (cuda.h includes it)
      "abort", "abs", "atexit", "atof", "atoi", "atol", "atoll", "bsearch",
      "calloc", "div", "exit", "free", "getenv", "labs", "ldiv", "llabs",
      "lldiv", "malloc", "mblen", "mbstowcs", "mbtowc", "qsort", "rand",
      "realloc", "srand", "system", "wcstombs", "wctomb", "aligned_alloc",
      "at_quick_exit", "quick_exit", "random", "srandom", "initstate",
      "setstate", "setenv", "unsetenv", "putenv", "clearenv", "mkstemp",
      "mkdtemp", "mktemp", "realpath", "posix_memalign", "valloc", "alloca",
      "drand48", "erand48", "lrand48", "nrand48", "mrand48", "jrand48",
      "srand48", "seed48", "lcong48", "a64l", "l64a", "ecvt", "fcvt",
      "gcvt", "getsubopt", "grantpt", "ptsname", "unlockpt", "rpmatch",
      "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "select",
      "fd_set", "major", "minor", "makedev"};
  static const char *const prefixes[] = {
      "_", "tilec_", "cu", "CU", "str", "mem", "pthread_", "PTHREAD_",
      "sched_", "SCHED_", "clock", "CLOCK_", "timer_", "TIMER_", "INT",
      "UINT", "SIZE_", "PTRDIFF_", "WCHAR_", "WINT_", "SIG_ATOMIC_", "__"};
  if (exact.count(name))
    return true;
  for (const char *p : prefixes)
    if (name.rfind(p, 0) == 0)
      return true;
  // POSIX reserves *_t for types (the headers declare dozens).
  return name.size() > 2 && name.compare(name.size() - 2, 2, "_t") == 0;
}

/// Names a launcher parameter cannot take: what the launchers' bodies
/// use (their own parameters, tilec_* locals, cu*/CU* calls and types,
/// memcmp/memcpy/strcmp, NULL and the *_t types) -- a parameter shadowing
/// anything else is harmless. (reserved() is the stricter rule for the
/// global names.)
bool reservedParam(const std::string &name) {
  static const std::set<std::string> exact = {
      "stream", "grid_x", "grid_y", "grid_z", "grid", "grid_user", "NULL",
      "bool", "true", "false", "memcmp", "memcpy", "strcmp"};
  if (exact.count(name))
    return true;
  for (const char *p : {"_", "tilec_", "cu", "CU"})
    if (name.rfind(p, 0) == 0)
      return true;
  return name.size() > 2 && name.compare(name.size() - 2, 2, "_t") == 0;
}

} // namespace

bool isCIdentifier(const std::string &name) {
  if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
    return false;
  for (unsigned char c : name)
    if (!(std::isalnum(c) || c == '_'))
      return false;
  return !cKeywords().count(name);
}

namespace {

/// Parameter names for `k`: the kernel's, else argN; unique, not the
/// launcher's own.
std::vector<std::string> launcherNames(const AotKernel &k,
                                       const std::set<std::string> &globals) {
  std::vector<std::string> n;
  std::set<std::string> seen(globals);
  for (size_t i = 0; i < k.info.signature.params.size(); ++i) {
    std::string name = i < k.paramNames.size() ? k.paramNames[i] : "";
    if (!isCIdentifier(name) || reservedParam(name) || seen.count(name))
      name = "arg" + std::to_string(i);
    while (seen.count(name))
      name += "_";
    seen.insert(name);
    n.push_back(name);
  }
  return n;
}

/// ", T name" for each parameter.
std::string argDecls(const AotKernel &k, const std::vector<std::string> &n) {
  std::string d;
  for (size_t i = 0; i < n.size(); ++i) {
    const ParamType &p = k.info.signature.params[i];
    d += ", ";
    d += p.isPointer ? "CUdeviceptr" : cType(p.type);
    d += " " + n[i];
  }
  return d;
}

std::string argUses(const std::vector<std::string> &n) {
  std::string d;
  for (const std::string &name : n)
    d += ", " + name;
  return d;
}

const char *kGridDecl = "CUstream stream, unsigned int grid_x, "
                        "unsigned int grid_y, unsigned int grid_z";

/// Why `kernels` cannot get launchers, or "".
std::string refusal(const std::vector<AotKernel> &kernels,
                    const std::string &prefix) {
  if (!isCIdentifier(prefix))
    return "the output name '" + prefix +
           "' does not give a C identifier for the module's functions; "
           "choose an -o name of letters, digits and '_'";
  for (const AotKernel &k : kernels) {
    if (!isCIdentifier(k.cName()) || reserved(k.cName()))
      return "kernel '" + k.cName() +
             "' cannot name a C launch function (not an identifier, or a "
             "name that cuda.h, the C headers the launchers include or the "
             "generated code use: cu*, CU*, str*, mem*, pthread_*, time, "
             "size_t, _*, ...); rename the kernel";
    for (const char *suffix :
         {"", "_config", "_config_name", "_config_int", "_tuned_config",
          "_grid_fn", "_num_configs"})
      for (const char *own : {"_load", "_error"})
        if (k.cName() + suffix == prefix + own)
          return "kernel '" + k.cName() + "' collides with the module's '" +
                 prefix + own + "' function; choose another -o name";
    for (const LaunchMap &m : k.info.launchMaps)
      if (m.param.tmaNanFill && !isFloat(m.param.type))
        return "kernel '" + k.info.name +
               "' has a launch map with NaN fill of integers";
    for (const ParamType &p : k.info.signature.params)
      if (p.isTensorDesc)
        return "kernel '" + k.info.name +
               "' takes a tensor descriptor argument (" + p.str() +
               "), which --aot does not generate yet";
  }
  return "";
}

void emitHeaderStart(std::ostringstream &h, const std::string &prefix,
                     const std::string &guard, const std::string &provenance) {
  h << "/* Generated by " << provenance << ".\n"
    << " * Do not edit: rerun tilec --aot. The launchers load the embedded "
       "cubins\n"
    << " * into the CUDA context current at the first call (" << prefix
    << "_load) and\n"
    << " * link only libcuda. */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#include <cuda.h>\n#include <stdbool.h>\n#include <stddef.h>\n"
    << "#include <stdint.h>\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/* Loads the module into the current context, once (later calls "
       "return the\n * first call's result); the launchers call it. */\n"
    << "CUresult " << prefix << "_load(void);\n\n"
    << "/* Why the calling thread's last launch failed a check (\"\" when "
       "it did not). */\n"
    << "const char *" << prefix << "_error(void);\n";
}

void emitHeaderEnd(std::ostringstream &h, const std::string &guard) {
  h << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
}

std::string kernelComment(const KernelInfo &k) {
  return "signature " + k.signatureText + ", " +
         std::to_string(k.numWarps * 32) + " threads per block, " +
         std::to_string(k.sharedBytes) + " bytes of dynamic shared memory" +
         (k.clusterSize > 1 ? ", clusters of " + std::to_string(k.clusterSize) +
                                  " along x when grid_x is a multiple"
                            : std::string());
}

/// The source's start: the cubins, the module state, <prefix>_load (which
/// loads every image and gets `functions[i]` = (image, kernel name, C
/// variable, dynamic shared bytes)) and <prefix>_error.
void emitSourceStart(
    std::ostringstream &c, const std::string &prefix,
    const std::string &headerName, const std::string &provenance,
    const std::vector<std::string> &cubins,
    const std::vector<std::tuple<size_t, std::string, std::string, uint32_t>>
        &functions) {
  c << "/* Generated by " << provenance << ". Do not edit. */\n"
    << "#include \"" << cString(headerName) << "\"\n\n"
    << "#include <pthread.h>\n#include <stddef.h>\n\n";
  for (size_t m = 0; m < cubins.size(); ++m) {
    // 8-byte aligned, as cuModuleLoadData wants an ELF image.
    c << "static const unsigned char tilec_image" << m << "["
      << cubins[m].size() << "] __attribute__((aligned(8))) = {";
    for (size_t i = 0; i < cubins[m].size(); ++i) {
      if (i % 16 == 0)
        c << "\n ";
      c << " " << unsigned((unsigned char)cubins[m][i]) << ",";
    }
    c << "\n};\n";
  }
  c << "\nstatic pthread_once_t tilec_once = PTHREAD_ONCE_INIT;\n"
    << "static CUresult tilec_load_result = CUDA_ERROR_NOT_INITIALIZED;\n"
    << "static CUmodule tilec_modules[" << cubins.size() << "];\n";
  for (const auto &f : functions)
    c << "static CUfunction " << std::get<2>(f) << ";\n";
  c << "static _Thread_local const char *tilec_error_text = \"\";\n\n"
    << "static void tilec_load_once(void) {\n"
    << "  CUresult tilec_r = CUDA_SUCCESS;\n";
  for (size_t m = 0; m < cubins.size(); ++m)
    c << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuModuleLoadData(&tilec_modules["
      << m << "], tilec_image" << m << ");\n";
  for (const auto &[m, name, var, shared] : functions) {
    c << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuModuleGetFunction(&" << var
      << ", tilec_modules[" << m << "], \"" << name << "\");\n";
    if (shared > 48 * 1024)
      c << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuFuncSetAttribute(" << var
        << ", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " << shared
        << ");\n";
  }
  c << "  tilec_load_result = tilec_r;\n}\n\n"
    << "CUresult " << prefix << "_load(void) {\n"
    << "  pthread_once(&tilec_once, tilec_load_once);\n"
    << "  return tilec_load_result;\n}\n\n"
    << "const char *" << prefix << "_error(void) { return tilec_error_text; }\n";
}

/// The CUtensorMapDataType enumerator of `t` (as the runtime's
/// encodeTensorMap).
const char *tensorMapType(ScalarType t) {
  switch (t) {
  case ScalarType::FP16: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  case ScalarType::BF16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
  case ScalarType::FP32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
  case ScalarType::FP64: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
  case ScalarType::I32: return "CU_TENSOR_MAP_DATA_TYPE_INT32";
  case ScalarType::U32: return "CU_TENSOR_MAP_DATA_TYPE_UINT32";
  case ScalarType::I64: return "CU_TENSOR_MAP_DATA_TYPE_INT64";
  case ScalarType::U64: return "CU_TENSOR_MAP_DATA_TYPE_UINT64";
  case ScalarType::I16:
  case ScalarType::U16: return "CU_TENSOR_MAP_DATA_TYPE_UINT16";
  default: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
  }
}

/// A launch map's postfix expression as a C expression over the
/// launcher's parameters, with the runtime's evaluateLaunchMap semantics:
/// values are 64-bit unsigned, an argument sign- or zero-extended as its
/// type, a 32-bit token's result truncated to 32 bits, max signed at the
/// token's width, the result sign-extended when 32-bit (unless zext).
std::string mapExpr(const LaunchMap::Expr &expr, const AotKernel &k,
                    const std::vector<std::string> &n) {
  using Token = LaunchMap::Token;
  std::vector<std::string> stack;
  auto low32 = [](const std::string &v) {
    return "((" + v + ") & 0xffffffffULL)";
  };
  auto sext32 = [](const std::string &v) {
    return "((uint64_t)(int64_t)(int32_t)(uint32_t)(" + v + "))";
  };
  for (const Token &t : expr) {
    std::string r;
    switch (t.kind) {
    case Token::Arg: {
      const ParamType &p = k.info.signature.params[size_t(t.value)];
      r = isSigned(p.type) ? "((uint64_t)(int64_t)" + n[size_t(t.value)] + ")"
                           : "((uint64_t)" + n[size_t(t.value)] + ")";
      break;
    }
    case Token::Const:
      r = "((uint64_t)" + std::to_string(t.value) + "LL)";
      break;
    case Token::SExt:
      r = sext32(stack.back());
      stack.pop_back();
      break;
    case Token::ZExt:
    case Token::Trunc:
      r = low32(stack.back());
      stack.pop_back();
      break;
    default: {
      std::string b = stack.back();
      stack.pop_back();
      std::string a = stack.back();
      stack.pop_back();
      if (t.kind == Token::Max) {
        std::string sa = t.width == 32 ? "(int64_t)(int32_t)(uint32_t)(" + a + ")"
                                       : "(int64_t)(" + a + ")";
        std::string sb = t.width == 32 ? "(int64_t)(int32_t)(uint32_t)(" + b + ")"
                                       : "(int64_t)(" + b + ")";
        r = "((uint64_t)(" + sa + " > " + sb + " ? " + sa + " : " + sb + "))";
      } else {
        const char *op = t.kind == Token::Add ? " + "
                         : t.kind == Token::Sub ? " - " : " * ";
        r = "(" + a + op + b + ")";
      }
      break;
    }
    }
    stack.push_back(t.width == 32 ? low32(r) : r);
  }
  const Token &last = expr.back();
  return last.width == 32 && last.kind != Token::ZExt
             ? "(int64_t)" + sext32(stack.back())
             : "(int64_t)(" + stack.back() + ")";
}

/// A launcher `fnName` (static when `isStatic`) of `k` through CUfunction
/// `var`: load, the checks, the launch.
void emitLauncher(std::ostringstream &c, const AotKernel &k,
                  const std::vector<std::string> &n, const std::string &fnName,
                  const std::string &var, const std::string &prefix,
                  bool isStatic) {
  const std::string &kn = k.info.name;
  auto fail = [&](const std::string &message) {
    return "{\n    tilec_error_text = \"" + cString(message) +
           "\";\n    return CUDA_ERROR_INVALID_VALUE;\n  }\n";
  };
  c << "\n" << (isStatic ? "static " : "") << "CUresult " << fnName << "("
    << kGridDecl << argDecls(k, n) << ") {\n"
    << "  CUresult tilec_r = " << prefix << "_load();\n"
    << "  if (tilec_r != CUDA_SUCCESS) {\n    tilec_error_text = \"" << kn
    << ": the module did not load into the current context (see the "
       "CUresult)\";\n    return tilec_r;\n  }\n"
    << "  if (grid_x == 0 || grid_y == 0 || grid_z == 0) "
    << fail(kn + ": the grid is empty: every dimension must be > 0");
  for (size_t i = 0; i < n.size(); ++i) {
    const ParamType &p = k.info.signature.params[i];
    std::string what =
        kn + ": argument " + std::to_string(i) + " (" + n[i] + ")";
    if (p.isPointer) {
      c << "  if (" << n[i] << " == 0) "
        << fail(what + ": a null pointer for " + p.str());
      unsigned elem = byteSize(p.type);
      if (elem > 1)
        c << "  if (" << n[i] << " % " << elem << "u != 0) "
          << fail(what + ": the pointer is not aligned to its element type (" +
                  toString(p.type) + ", " + std::to_string(elem) + " bytes)");
      if (p.divisibility > 1)
        c << "  if (" << n[i] << " % " << p.divisibility << "u != 0) "
          << fail(what + ": the pointer is not " +
                  std::to_string(p.divisibility) +
                  "-byte aligned as the signature " + p.str() + " requires");
      continue;
    }
    if (p.divisibility > 1)
      c << "  if (" << n[i] << " % " << p.divisibility << " != 0) "
        << fail(what + ": the value is not divisible by " +
                std::to_string(p.divisibility) + " as the signature " +
                p.str() + " requires");
    if (p.equalToOne)
      c << "  if (" << n[i] << " != 1) "
        << fail(what + ": the value is not 1 as the signature " + p.str() +
                " requires");
  }
  // Launch maps: the tensor each reads, evaluated from the arguments as
  // the kernel computes it (the runtime's evaluateLaunchMap), checked as
  // TMA requires, encoded with cuTensorMapEncodeTiled (as the runtime's
  // encodeTensorMap), passed after the arguments.
  size_t numMaps = k.info.launchMaps.size();
  if (numMaps)
    c << "  CUtensorMap tilec_maps[" << numMaps << "];\n";
  for (size_t m = 0; m < numMaps; ++m) {
    const LaunchMap &lm = k.info.launchMaps[m];
    std::string base = n[lm.base];
    std::string what = kn + ": launch map " + std::to_string(m) +
                       " (the tensor descriptor of argument " +
                       std::to_string(lm.base) + ", " + base + ")";
    size_t rank = lm.shape.size();
    c << "  {\n    int64_t tilec_size[" << rank << "], tilec_stride["
      << rank << "];\n    cuuint64_t tilec_dims[" << rank
      << "], tilec_strides[" << std::max<size_t>(rank, 2) - 1
      << "];\n    cuuint32_t tilec_box[" << rank << "], tilec_one[" << rank
      << "];\n    CUresult tilec_e;\n    int tilec_d;\n";
    for (size_t d = 0; d < rank; ++d) {
      c << "    tilec_size[" << d << "] = " << mapExpr(lm.shape[d], k, n)
        << ";\n";
      if (d + 1 < rank)
        c << "    tilec_stride[" << d << "] = " << mapExpr(lm.strides[d], k, n)
          << ";\n";
      else
        c << "    tilec_stride[" << d << "] = 1;\n";
    }
    unsigned elem = byteSize(lm.param.type);
    c << "    if (" << base << " % 16u != 0) "
      << fail(what + ": the base is not 16-byte aligned (as TMA requires)")
      << "    for (tilec_d = 0; tilec_d < " << rank << "; ++tilec_d) {\n"
      << "      if (tilec_size[tilec_d] < 1 || tilec_size[tilec_d] > 2147483647) "
      << fail(what + ": a size outside 1 to 2^31 - 1")
      << "      if (tilec_d + 1 < " << rank
      << " && (tilec_stride[tilec_d] < 1 || (uint64_t)tilec_stride[tilec_d] >= "
         "(1ULL << 40) / "
      << elem << " || ((uint64_t)tilec_stride[tilec_d] * " << elem
      << ") % 16 != 0)) "
      << fail(what + ": a stride that is not a positive multiple of 16 "
                     "bytes below 2^40 bytes (as TMA requires)")
      << "    }\n";
    for (size_t d = 0; d < rank; ++d) {
      c << "    tilec_dims[" << d << "] = (cuuint64_t)tilec_size[" << rank - 1 - d
        << "];\n    tilec_box[" << d << "] = " << lm.param.tmaBox[rank - 1 - d]
        << ";\n    tilec_one[" << d << "] = 1;\n";
      if (d + 1 < rank)
        c << "    tilec_strides[" << d << "] = (cuuint64_t)tilec_stride["
          << rank - 2 - d << "] * " << elem << ";\n";
    }
    const char *swizzle = lm.param.tmaSwizzle == 128 ? "CU_TENSOR_MAP_SWIZZLE_128B"
                          : lm.param.tmaSwizzle == 64 ? "CU_TENSOR_MAP_SWIZZLE_64B"
                                                      : "CU_TENSOR_MAP_SWIZZLE_32B";
    c << "    tilec_e = cuTensorMapEncodeTiled(&tilec_maps[" << m << "], "
      << tensorMapType(lm.param.type) << ", " << rank << ", (void *)(uintptr_t)"
      << base << ", tilec_dims, tilec_strides, tilec_box, tilec_one, "
      << "CU_TENSOR_MAP_INTERLEAVE_NONE, " << swizzle
      << ", CU_TENSOR_MAP_L2_PROMOTION_L2_256B, "
      << (lm.param.tmaNanFill ? "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"
                              : "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE")
      << ");\n    if (tilec_e != CUDA_SUCCESS) {\n      tilec_error_text = \""
      << cString(what + ": cuTensorMapEncodeTiled failed (see the CUresult)")
      << "\";\n      return tilec_e;\n    }\n  }\n";
  }
  size_t numParams = n.size() + numMaps;
  if (numParams) {
    c << "  void *tilec_params[" << numParams << "] = {";
    for (size_t i = 0; i < n.size(); ++i)
      c << (i ? ", " : "") << "&" << n[i];
    for (size_t m = 0; m < numMaps; ++m)
      c << (n.size() + m ? ", " : "") << "&tilec_maps[" << m << "]";
    c << "};\n";
  }
  c << "  tilec_error_text = \"\";\n";
  std::string threads = std::to_string(k.info.numWarps * 32);
  const char *params = numParams == 0 ? "NULL" : "tilec_params";
  if (k.info.clusterSize > 1) {
    c << "  if (grid_x % " << k.info.clusterSize << " == 0) {\n"
      << "    CUlaunchAttribute tilec_attr;\n"
      << "    CUlaunchConfig tilec_launch;\n"
      << "    tilec_attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
      << "    tilec_attr.value.clusterDim.x = " << k.info.clusterSize << ";\n"
      << "    tilec_attr.value.clusterDim.y = 1;\n"
      << "    tilec_attr.value.clusterDim.z = 1;\n"
      << "    tilec_launch.gridDimX = grid_x;\n    tilec_launch.gridDimY = grid_y;\n"
      << "    tilec_launch.gridDimZ = grid_z;\n"
      << "    tilec_launch.blockDimX = " << threads << ";\n"
      << "    tilec_launch.blockDimY = 1;\n    tilec_launch.blockDimZ = 1;\n"
      << "    tilec_launch.sharedMemBytes = " << k.info.sharedBytes << ";\n"
      << "    tilec_launch.hStream = stream;\n    tilec_launch.attrs = &tilec_attr;\n"
      << "    tilec_launch.numAttrs = 1;\n"
      << "    return cuLaunchKernelEx(&tilec_launch, " << var << ", " << params
      << ", NULL);\n  }\n";
  }
  c << "  return cuLaunchKernel(" << var << ", grid_x, grid_y, grid_z, "
    << threads << ", 1, 1, " << k.info.sharedBytes << ", stream, " << params
    << ", NULL);\n}\n";
}

std::string guardOf(const std::string &prefix) {
  std::string guard = "TILEC_AOT_" + prefix + "_H";
  for (char &ch : guard)
    ch = char(std::toupper((unsigned char)ch));
  return guard;
}

} // namespace

std::string generateAot(const std::vector<AotKernel> &kernels,
                        const std::string &cubin, const std::string &prefix,
                        const std::string &headerName,
                        const std::string &provenance, std::string &header,
                        std::string &source) {
  if (std::string why = refusal(kernels, prefix); !why.empty())
    return why;
  std::string guard = guardOf(prefix);
  std::ostringstream h;
  emitHeaderStart(h, prefix, guard, provenance);
  std::vector<std::tuple<size_t, std::string, std::string, uint32_t>> fns;
  // Global names a parameter must not shadow.
  std::set<std::string> globals = {prefix + "_load", prefix + "_error"};
  for (const AotKernel &k : kernels)
    globals.insert(k.cName());
  for (const AotKernel &k : kernels) {
    std::vector<std::string> n = launcherNames(k, globals);
    h << "\n/* " << k.cName() << ": kernel " << k.info.name << ", "
      << kernelComment(k.info)
      << ".\n * Launches over grid (grid_x, grid_y, grid_z) on `stream`; "
         "fp16/bf16\n * scalars are passed as their bit patterns. Returns "
         "CUDA_ERROR_INVALID_VALUE,\n * with "
      << prefix
      << "_error() saying why, for an empty grid, a null or misaligned\n"
         " * pointer, or an integer that breaks its signature's fact. */\n"
      << "CUresult " << k.cName() << "(" << kGridDecl << argDecls(k, n)
      << ");\n";
    fns.emplace_back(0, k.info.name, "tilec_fn_" + k.cName(),
                     k.info.sharedBytes);
  }
  emitHeaderEnd(h, guard);
  header = h.str();
  std::ostringstream c;
  emitSourceStart(c, prefix, headerName, provenance, {cubin}, fns);
  for (const AotKernel &k : kernels)
    emitLauncher(c, k, launcherNames(k, globals), k.cName(), "tilec_fn_" + k.cName(),
                 prefix, /*isStatic=*/false);
  source = c.str();
  return "";
}

std::string generateAotAutotuned(const AotAutotuned &t,
                                 const std::string &prefix,
                                 const std::string &headerName,
                                 const std::string &provenance,
                                 std::string &header, std::string &source) {
  std::vector<AotKernel> all;
  for (const KernelInfo &info : t.configInfos) {
    AotKernel k;
    k.info = info;
    k.paramNames = t.paramNames;
    k.launcherName = t.launcherName;
    all.push_back(std::move(k));
  }
  if (all.empty())
    return "no configs";
  if (std::string why = refusal(all, prefix); !why.empty())
    return why;
  const AotKernel &k0 = all.front();
  const std::string &kn = k0.cName();
  std::set<std::string> globals = {prefix + "_load", prefix + "_error", kn,
                                   "config"};
  for (const char *suffix : {"_config", "_config_name", "_config_int",
                             "_tuned_config", "_grid_fn", "_num_configs"})
    globals.insert(kn + suffix);
  std::vector<std::string> n = launcherNames(k0, globals);
  for (const AotKernel &k : all)
    if (k.info.signatureText != k0.info.signatureText)
      return "the configs of kernel '" + kn + "' compile to different "
             "signatures";
  size_t numConfigs = all.size();
  // The buffers tuning zeroes or restores take their size in bytes.
  std::vector<std::pair<size_t, std::string>> sized; // arg, "<name>_bytes"
  for (const std::vector<size_t> *list : {&t.resetArgs, &t.restoreArgs})
    for (size_t a : *list) {
      if (a >= n.size() || !k0.info.signature.params[a].isPointer)
        return "autotune buffer argument " + std::to_string(a) + " of '" +
               kn + "' is not a pointer";
      bool seen = false;
      for (auto &s : sized)
        seen |= s.first == a;
      if (!seen)
        sized.emplace_back(a, n[a] + "_bytes");
    }
  std::string bytesDecls, bytesUses;
  for (auto &[a, name] : sized) {
    bytesDecls += ", size_t " + name;
    bytesUses += ", " + name;
  }
  std::string keyNames;
  for (size_t a : t.keyArgs)
    keyNames += (keyNames.empty() ? "" : ", ") + n[a];

  std::string guard = guardOf(prefix);
  std::ostringstream h;
  emitHeaderStart(h, prefix, guard, provenance);
  h << "\n/* " << kn << " is autotuned over " << numConfigs
    << " configs (@triton.autotune), each a\n * kernel of its own: "
    << kernelComment(k0.info) << " for config 0. */\n"
    << "enum { " << kn << "_num_configs = " << numConfigs << " };\n\n"
    << "/* Config `config`'s description (\"BLOCK=128, num_warps=4, ...\"), "
       "or NULL. */\n"
    << "const char *" << kn << "_config_name(int config);\n\n"
    << "/* Config `config`'s integer constexpr `name`, or `fallback`. */\n"
    << "long long " << kn
    << "_config_int(int config, const char *name, long long fallback);\n\n"
    << "/* Launches config `config` as a single kernel's launcher would "
       "(checks,\n * then cuLaunchKernel); CUDA_ERROR_INVALID_VALUE for a "
       "config out of range. */\n"
    << "CUresult " << kn << "_config(int config, " << kGridDecl
    << argDecls(k0, n) << ");\n\n"
    << "/* The grid of a launch with config `config`. */\n"
    << "typedef void (*" << kn
    << "_grid_fn)(int config, unsigned int grid[3], void *user);\n\n"
    << "/* Launches with the config tuned for the key (" << keyNames
    << "): the first call\n * per key times every config on these "
       "arguments with CUDA events and keeps the\n * fastest (configs that "
       "fail to launch are skipped)"
    << (sized.empty()
            ? std::string()
            : std::string(";\n * the ") +
                  (t.resetArgs.empty() ? "" : "reset_to_zero buffers are "
                                              "zeroed before each run and "
                                              "once more after tuning, ") +
                  (t.restoreArgs.empty() ? "" : "restore_value buffers "
                                                "restored after each run; ") +
                  "*_bytes give their sizes")
    << ". Synchronizes `stream` while tuning.\n * " << kn
    << "_tuned_config gives the choice of the last call on this thread. */\n"
    << "CUresult " << kn << "(CUstream stream, " << kn
    << "_grid_fn grid, void *grid_user" << argDecls(k0, n) << bytesDecls
    << ");\n"
    << "int " << kn << "_tuned_config(void);\n";
  emitHeaderEnd(h, guard);
  header = h.str();

  std::ostringstream c;
  std::vector<std::tuple<size_t, std::string, std::string, uint32_t>> fns;
  for (size_t i = 0; i < numConfigs; ++i)
    fns.emplace_back(i, k0.info.name, "tilec_fn_" + kn + "_" + std::to_string(i),
                     all[i].info.sharedBytes);
  emitSourceStart(c, prefix, headerName, provenance, t.cubins, fns);
  for (size_t i = 0; i < numConfigs; ++i)
    emitLauncher(c, all[i], n, "tilec_" + kn + "_config" + std::to_string(i),
                 "tilec_fn_" + kn + "_" + std::to_string(i), prefix,
                 /*isStatic=*/true);
  // Descriptions and values of the configs.
  c << "\nstatic const char *const tilec_config_names[" << numConfigs
    << "] = {\n";
  for (const std::string &name : t.configNames)
    c << "  \"" << cString(name) << "\",\n";
  c << "};\n\nconst char *" << kn << "_config_name(int config) {\n"
    << "  return config >= 0 && config < " << numConfigs
    << " ? tilec_config_names[config] : NULL;\n}\n\n"
    << "struct tilec_config_value { int config; const char *name; long long "
       "value; };\n"
    << "static const struct tilec_config_value tilec_config_values[] = {\n";
  for (size_t i = 0; i < t.configValues.size(); ++i)
    for (const auto &[name, value] : t.configValues[i]) {
      char *end = nullptr;
      long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end)
        continue; // not an integer
      c << "  {" << i << ", \"" << cString(name) << "\", " << v << "LL},\n";
    }
  c << "  {-1, \"\", 0}\n};\n\n"
    << "long long " << kn
    << "_config_int(int config, const char *name, long long fallback) {\n"
    << "  for (size_t tilec_i = 0; tilec_config_values[tilec_i].config >= 0; ++tilec_i)\n"
    << "    if (tilec_config_values[tilec_i].config == config &&\n"
    << "        strcmp(tilec_config_values[tilec_i].name, name) == 0)\n"
    << "      return tilec_config_values[tilec_i].value;\n"
    << "  return fallback;\n}\n\n"
    << "CUresult " << kn << "_config(int config, " << kGridDecl
    << argDecls(k0, n) << ") {\n  switch (config) {\n";
  for (size_t i = 0; i < numConfigs; ++i)
    c << "  case " << i << ":\n    return tilec_" << kn << "_config" << i
      << "(stream, grid_x, grid_y, grid_z" << argUses(n) << ");\n";
  c << "  default:\n    tilec_error_text = \"" << kn
    << ": config out of range\";\n    return CUDA_ERROR_INVALID_VALUE;\n"
    << "  }\n}\n";
  // The tuning.
  size_t numKeys = std::max<size_t>(t.keyArgs.size(), 1);
  c << "\nstruct tilec_tuned { int used; long long tilec_key[" << numKeys
    << "]; int config; };\n"
    << "static struct tilec_tuned tilec_tuned_table[64];\n"
    << "static int tilec_tuned_next;\n"
    << "static pthread_mutex_t tilec_tune_mutex = PTHREAD_MUTEX_INITIALIZER;\n"
    << "static _Thread_local int tilec_last_config = -1;\n\n"
    << "int " << kn << "_tuned_config(void) { return tilec_last_config; }\n\n";
  auto resetAndRestore = [&](const std::string &indent) {
    std::string out;
    for (size_t a : t.resetArgs)
      out += indent + "if (tilec_r == CUDA_SUCCESS)\n" + indent +
             "  tilec_r = cuMemsetD8Async(" + n[a] + ", 0, " + n[a] +
             "_bytes, stream);\n";
    return out;
  };
  auto restore = [&](const std::string &indent) {
    std::string out;
    for (size_t j = 0; j < t.restoreArgs.size(); ++j) {
      size_t a = t.restoreArgs[j];
      out += indent + "if (tilec_r == CUDA_SUCCESS)\n" + indent +
             "  tilec_r = cuMemcpyDtoDAsync(" + n[a] + ", tilec_saved[" +
             std::to_string(j) + "], " + n[a] + "_bytes, stream);\n";
    }
    return out;
  };
  c << "static CUresult tilec_tune(CUstream stream, " << kn
    << "_grid_fn grid, void *grid_user" << argDecls(k0, n) << bytesDecls
    << ", int *tilec_best) {\n"
    << "  CUresult tilec_r = CUDA_SUCCESS;\n"
    << "  CUevent tilec_start = NULL, tilec_stop = NULL;\n"
    << "  float tilec_best_ms = 0;\n"
    << "  int tilec_c;\n";
  if (!t.restoreArgs.empty()) {
    c << "  CUdeviceptr tilec_saved[" << t.restoreArgs.size() << "] = {0};\n";
    for (size_t j = 0; j < t.restoreArgs.size(); ++j) {
      size_t a = t.restoreArgs[j];
      c << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuMemAlloc(&tilec_saved[" << j
        << "], " << n[a] << "_bytes ? " << n[a] << "_bytes : 1);\n"
        << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuMemcpyDtoDAsync(tilec_saved[" << j
        << "], " << n[a] << ", " << n[a] << "_bytes, stream);\n";
    }
  }
  c << "  *tilec_best = -1;\n"
    << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuEventCreate(&tilec_start, CU_EVENT_DEFAULT);\n"
    << "  if (tilec_r == CUDA_SUCCESS)\n    tilec_r = cuEventCreate(&tilec_stop, CU_EVENT_DEFAULT);\n"
    << "  for (tilec_c = 0; tilec_r == CUDA_SUCCESS && tilec_c < " << numConfigs << "; ++tilec_c) {\n"
    << "    unsigned int tilec_g[3] = {1, 1, 1};\n"
    << "    float tilec_times[5], tilec_ms = 0;\n"
    << "    int tilec_b, tilec_i, tilec_reps = 1, tilec_bad = 0;\n"
    << "    grid(tilec_c, tilec_g, grid_user);\n"
    << "    /* A warm-up run; a config that does not launch is skipped. */\n"
    << "    for (tilec_b = -1; tilec_b < 5 && !tilec_bad; ++tilec_b) {\n"
    << "      tilec_r = cuEventRecord(tilec_start, stream);\n"
    << "      for (tilec_i = 0; tilec_r == CUDA_SUCCESS && tilec_i < tilec_reps; ++tilec_i) {\n"
    << resetAndRestore("        ")
    << "        if (tilec_r == CUDA_SUCCESS) {\n"
    << "          CUresult tilec_l = " << kn << "_config(tilec_c, stream, tilec_g[0], tilec_g[1], tilec_g[2]"
    << argUses(n) << ");\n"
    << "          if (tilec_l != CUDA_SUCCESS) { tilec_bad = 1; break; }\n"
    << "        }\n"
    << restore("        ") << "      }\n"
    << "      if (tilec_r == CUDA_SUCCESS)\n        tilec_r = cuEventRecord(tilec_stop, stream);\n"
    << "      if (tilec_r == CUDA_SUCCESS)\n        tilec_r = cuEventSynchronize(tilec_stop);\n"
    << "      if (tilec_r == CUDA_SUCCESS)\n        tilec_r = cuEventElapsedTime(&tilec_ms, tilec_start, tilec_stop);\n"
    << "      if (tilec_r != CUDA_SUCCESS || tilec_bad)\n        break;\n"
    << "      if (tilec_b < 0) { /* batches of about 10 ms */\n"
    << "        tilec_reps = tilec_ms > 0 ? (int)(10.0f / tilec_ms) : 100;\n"
    << "        tilec_reps = tilec_reps < 1 ? 1 : tilec_reps > 1000 ? 1000 : tilec_reps;\n"
    << "      } else {\n        tilec_times[tilec_b] = tilec_ms / tilec_reps;\n      }\n"
    << "    }\n"
    << "    if (tilec_r != CUDA_SUCCESS || tilec_bad)\n      continue;\n"
    << "    /* The median of the five batches. */\n"
    << "    for (tilec_b = 0; tilec_b < 5; ++tilec_b)\n"
    << "      for (tilec_i = tilec_b + 1; tilec_i < 5; ++tilec_i)\n"
    << "        if (tilec_times[tilec_i] < tilec_times[tilec_b]) { float tilec_x = tilec_times[tilec_b]; tilec_times[tilec_b] = "
       "tilec_times[tilec_i]; tilec_times[tilec_i] = tilec_x; }\n"
    << "    if (*tilec_best < 0 || tilec_times[2] < tilec_best_ms) { *tilec_best = tilec_c; tilec_best_ms = "
       "tilec_times[2]; }\n"
    << "  }\n"
    << "  /* The outputs as the caller left them. */\n"
    << resetAndRestore("  ") << restore("  ");
  for (size_t j = 0; j < t.restoreArgs.size(); ++j)
    c << "  if (tilec_saved[" << j << "])\n    cuMemFree(tilec_saved[" << j << "]);\n";
  c << "  if (tilec_start)\n    cuEventDestroy(tilec_start);\n"
    << "  if (tilec_stop)\n    cuEventDestroy(tilec_stop);\n"
    << "  if (tilec_r == CUDA_SUCCESS && *tilec_best < 0) {\n"
    << "    tilec_error_text = \"" << kn
    << ": no autotune config could be launched\";\n"
    << "    return CUDA_ERROR_INVALID_VALUE;\n  }\n"
    << "  return tilec_r;\n}\n\n";
  c << "CUresult " << kn << "(CUstream stream, " << kn
    << "_grid_fn grid, void *grid_user" << argDecls(k0, n) << bytesDecls
    << ") {\n"
    << "  long long tilec_key[" << numKeys << "] = {";
  if (t.keyArgs.empty())
    c << "0";
  for (size_t i = 0; i < t.keyArgs.size(); ++i)
    c << (i ? ", " : "") << "(long long)" << n[t.keyArgs[i]];
  c << "};\n"
    << "  unsigned int tilec_g[3] = {1, 1, 1};\n"
    << "  int tilec_config = -1, tilec_i;\n"
    << "  if (!grid) {\n    tilec_error_text = \"" << kn
    << ": grid is NULL\";\n    return CUDA_ERROR_INVALID_VALUE;\n  }\n"
    << "  pthread_mutex_lock(&tilec_tune_mutex);\n"
    << "  for (tilec_i = 0; tilec_i < 64 && tilec_config < 0; ++tilec_i)\n"
    << "    if (tilec_tuned_table[tilec_i].used &&\n"
    << "        memcmp(tilec_tuned_table[tilec_i].tilec_key, tilec_key, sizeof tilec_key) == 0)\n"
    << "      tilec_config = tilec_tuned_table[tilec_i].config;\n"
    << "  pthread_mutex_unlock(&tilec_tune_mutex);\n"
    << "  if (tilec_config < 0) {\n"
    << "    CUresult tilec_r = tilec_tune(stream, grid, grid_user" << argUses(n)
    << bytesUses << ", &tilec_config);\n"
    << "    if (tilec_r != CUDA_SUCCESS)\n      return tilec_r;\n"
    << "    pthread_mutex_lock(&tilec_tune_mutex);\n"
    << "    tilec_tuned_table[tilec_tuned_next].used = 1;\n"
    << "    memcpy(tilec_tuned_table[tilec_tuned_next].tilec_key, tilec_key, sizeof tilec_key);\n"
    << "    tilec_tuned_table[tilec_tuned_next].config = tilec_config;\n"
    << "    tilec_tuned_next = (tilec_tuned_next + 1) % 64;\n"
    << "    pthread_mutex_unlock(&tilec_tune_mutex);\n"
    << "  }\n"
    << "  tilec_last_config = tilec_config;\n"
    << "  grid(tilec_config, tilec_g, grid_user);\n"
    << "  return " << kn << "_config(tilec_config, stream, tilec_g[0], tilec_g[1], tilec_g[2]"
    << argUses(n) << ");\n}\n";
  source = c.str();
  // string.h for memcmp, memcpy and strcmp: after the header include.
  size_t at = source.find("#include <pthread.h>");
  source.insert(at, "#include <string.h>\n");
  return "";
}

} // namespace tilec
