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

/// The names the launcher uses itself.
bool reserved(const std::string &name) {
  return name == "stream" || name == "grid_x" || name == "grid_y" ||
         name == "grid_z" || name == "params" || name == "r" ||
         name.rfind("tilec_", 0) == 0;
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
std::vector<std::string> launcherNames(const AotKernel &k) {
  std::vector<std::string> n;
  std::set<std::string> seen;
  for (size_t i = 0; i < k.info.signature.params.size(); ++i) {
    std::string name = i < k.paramNames.size() ? k.paramNames[i] : "";
    if (!isCIdentifier(name) || reserved(name) || seen.count(name) ||
        name == k.info.name)
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
    if (!isCIdentifier(k.info.name) || reserved(k.info.name))
      return "kernel '" + k.info.name +
             "' is not a C identifier that a launch function can be named "
             "after";
    for (const char *suffix :
         {"", "_config", "_config_name", "_config_int", "_tuned_config",
          "_grid_fn", "_num_configs"})
      for (const char *own : {"_load", "_error"})
        if (k.info.name + suffix == prefix + own)
          return "kernel '" + k.info.name + "' collides with the module's '" +
                 prefix + own + "' function; choose another -o name";
    if (!k.info.launchMaps.empty())
      return "kernel '" + k.info.name +
             "' takes tensor maps the launch encodes (launch_maps), which "
             "--aot does not generate yet; compile it with "
             "--tma-pointer-loads=false (and without device-side tensor "
             "descriptors)";
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
    << "  CUresult r = CUDA_SUCCESS;\n";
  for (size_t m = 0; m < cubins.size(); ++m)
    c << "  if (r == CUDA_SUCCESS)\n    r = cuModuleLoadData(&tilec_modules["
      << m << "], tilec_image" << m << ");\n";
  for (const auto &[m, name, var, shared] : functions) {
    c << "  if (r == CUDA_SUCCESS)\n    r = cuModuleGetFunction(&" << var
      << ", tilec_modules[" << m << "], \"" << name << "\");\n";
    if (shared > 48 * 1024)
      c << "  if (r == CUDA_SUCCESS)\n    r = cuFuncSetAttribute(" << var
        << ", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " << shared
        << ");\n";
  }
  c << "  tilec_load_result = r;\n}\n\n"
    << "CUresult " << prefix << "_load(void) {\n"
    << "  pthread_once(&tilec_once, tilec_load_once);\n"
    << "  return tilec_load_result;\n}\n\n"
    << "const char *" << prefix << "_error(void) { return tilec_error_text; }\n";
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
    << "  CUresult r = " << prefix << "_load();\n"
    << "  if (r != CUDA_SUCCESS) {\n    tilec_error_text = \"" << kn
    << ": the module did not load into the current context (see the "
       "CUresult)\";\n    return r;\n  }\n"
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
  if (!n.empty()) {
    c << "  void *params[" << n.size() << "] = {";
    for (size_t i = 0; i < n.size(); ++i)
      c << (i ? ", " : "") << "&" << n[i];
    c << "};\n";
  }
  c << "  tilec_error_text = \"\";\n";
  std::string threads = std::to_string(k.info.numWarps * 32);
  const char *params = n.empty() ? "NULL" : "params";
  if (k.info.clusterSize > 1) {
    c << "  if (grid_x % " << k.info.clusterSize << " == 0) {\n"
      << "    CUlaunchAttribute attr;\n"
      << "    CUlaunchConfig config;\n"
      << "    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;\n"
      << "    attr.value.clusterDim.x = " << k.info.clusterSize << ";\n"
      << "    attr.value.clusterDim.y = 1;\n"
      << "    attr.value.clusterDim.z = 1;\n"
      << "    config.gridDimX = grid_x;\n    config.gridDimY = grid_y;\n"
      << "    config.gridDimZ = grid_z;\n"
      << "    config.blockDimX = " << threads << ";\n"
      << "    config.blockDimY = 1;\n    config.blockDimZ = 1;\n"
      << "    config.sharedMemBytes = " << k.info.sharedBytes << ";\n"
      << "    config.hStream = stream;\n    config.attrs = &attr;\n"
      << "    config.numAttrs = 1;\n"
      << "    return cuLaunchKernelEx(&config, " << var << ", " << params
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
  for (const AotKernel &k : kernels) {
    std::vector<std::string> n = launcherNames(k);
    h << "\n/* " << k.info.name << ": " << kernelComment(k.info)
      << ".\n * Launches over grid (grid_x, grid_y, grid_z) on `stream`; "
         "fp16/bf16\n * scalars are passed as their bit patterns. Returns "
         "CUDA_ERROR_INVALID_VALUE,\n * with "
      << prefix
      << "_error() saying why, for an empty grid, a null or misaligned\n"
         " * pointer, or an integer that breaks its signature's fact. */\n"
      << "CUresult " << k.info.name << "(" << kGridDecl << argDecls(k, n)
      << ");\n";
    fns.emplace_back(0, k.info.name, "tilec_fn_" + k.info.name,
                     k.info.sharedBytes);
  }
  emitHeaderEnd(h, guard);
  header = h.str();
  std::ostringstream c;
  emitSourceStart(c, prefix, headerName, provenance, {cubin}, fns);
  for (const AotKernel &k : kernels)
    emitLauncher(c, k, launcherNames(k), k.info.name, "tilec_fn_" + k.info.name,
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
    all.push_back(std::move(k));
  }
  if (all.empty())
    return "no configs";
  if (std::string why = refusal(all, prefix); !why.empty())
    return why;
  const AotKernel &k0 = all.front();
  const std::string &kn = k0.info.name;
  std::vector<std::string> n = launcherNames(k0);
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
    fns.emplace_back(i, kn, "tilec_fn_" + kn + "_" + std::to_string(i),
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
    << "  for (size_t i = 0; tilec_config_values[i].config >= 0; ++i)\n"
    << "    if (tilec_config_values[i].config == config &&\n"
    << "        strcmp(tilec_config_values[i].name, name) == 0)\n"
    << "      return tilec_config_values[i].value;\n"
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
  c << "\nstruct tilec_tuned { int used; long long key[" << numKeys
    << "]; int config; };\n"
    << "static struct tilec_tuned tilec_tuned_table[64];\n"
    << "static int tilec_tuned_next;\n"
    << "static pthread_mutex_t tilec_tune_mutex = PTHREAD_MUTEX_INITIALIZER;\n"
    << "static _Thread_local int tilec_last_config = -1;\n\n"
    << "int " << kn << "_tuned_config(void) { return tilec_last_config; }\n\n";
  auto resetAndRestore = [&](const std::string &indent) {
    std::string out;
    for (size_t a : t.resetArgs)
      out += indent + "if (r == CUDA_SUCCESS)\n" + indent +
             "  r = cuMemsetD8Async(" + n[a] + ", 0, " + n[a] +
             "_bytes, stream);\n";
    return out;
  };
  auto restore = [&](const std::string &indent) {
    std::string out;
    for (size_t j = 0; j < t.restoreArgs.size(); ++j) {
      size_t a = t.restoreArgs[j];
      out += indent + "if (r == CUDA_SUCCESS)\n" + indent +
             "  r = cuMemcpyDtoDAsync(" + n[a] + ", saved[" +
             std::to_string(j) + "], " + n[a] + "_bytes, stream);\n";
    }
    return out;
  };
  c << "static CUresult tilec_tune(CUstream stream, " << kn
    << "_grid_fn grid, void *grid_user" << argDecls(k0, n) << bytesDecls
    << ", int *best) {\n"
    << "  CUresult r = CUDA_SUCCESS;\n"
    << "  CUevent start = NULL, stop = NULL;\n"
    << "  float best_ms = 0;\n"
    << "  int c;\n";
  if (!t.restoreArgs.empty()) {
    c << "  CUdeviceptr saved[" << t.restoreArgs.size() << "] = {0};\n";
    for (size_t j = 0; j < t.restoreArgs.size(); ++j) {
      size_t a = t.restoreArgs[j];
      c << "  if (r == CUDA_SUCCESS)\n    r = cuMemAlloc(&saved[" << j
        << "], " << n[a] << "_bytes ? " << n[a] << "_bytes : 1);\n"
        << "  if (r == CUDA_SUCCESS)\n    r = cuMemcpyDtoDAsync(saved[" << j
        << "], " << n[a] << ", " << n[a] << "_bytes, stream);\n";
    }
  }
  c << "  *best = -1;\n"
    << "  if (r == CUDA_SUCCESS)\n    r = cuEventCreate(&start, CU_EVENT_DEFAULT);\n"
    << "  if (r == CUDA_SUCCESS)\n    r = cuEventCreate(&stop, CU_EVENT_DEFAULT);\n"
    << "  for (c = 0; r == CUDA_SUCCESS && c < " << numConfigs << "; ++c) {\n"
    << "    unsigned int g[3] = {1, 1, 1};\n"
    << "    float times[5], ms = 0;\n"
    << "    int b, i, reps = 1, bad = 0;\n"
    << "    grid(c, g, grid_user);\n"
    << "    /* A warm-up run; a config that does not launch is skipped. */\n"
    << "    for (b = -1; b < 5 && !bad; ++b) {\n"
    << "      r = cuEventRecord(start, stream);\n"
    << "      for (i = 0; r == CUDA_SUCCESS && i < reps; ++i) {\n"
    << resetAndRestore("        ")
    << "        if (r == CUDA_SUCCESS) {\n"
    << "          CUresult l = " << kn << "_config(c, stream, g[0], g[1], g[2]"
    << argUses(n) << ");\n"
    << "          if (l != CUDA_SUCCESS) { bad = 1; break; }\n"
    << "        }\n"
    << restore("        ") << "      }\n"
    << "      if (r == CUDA_SUCCESS)\n        r = cuEventRecord(stop, stream);\n"
    << "      if (r == CUDA_SUCCESS)\n        r = cuEventSynchronize(stop);\n"
    << "      if (r == CUDA_SUCCESS)\n        r = cuEventElapsedTime(&ms, start, stop);\n"
    << "      if (r != CUDA_SUCCESS || bad)\n        break;\n"
    << "      if (b < 0) { /* batches of about 10 ms */\n"
    << "        reps = ms > 0 ? (int)(10.0f / ms) : 100;\n"
    << "        reps = reps < 1 ? 1 : reps > 1000 ? 1000 : reps;\n"
    << "      } else {\n        times[b] = ms / reps;\n      }\n"
    << "    }\n"
    << "    if (r != CUDA_SUCCESS || bad)\n      continue;\n"
    << "    /* The median of the five batches. */\n"
    << "    for (b = 0; b < 5; ++b)\n"
    << "      for (i = b + 1; i < 5; ++i)\n"
    << "        if (times[i] < times[b]) { float x = times[b]; times[b] = "
       "times[i]; times[i] = x; }\n"
    << "    if (*best < 0 || times[2] < best_ms) { *best = c; best_ms = "
       "times[2]; }\n"
    << "  }\n"
    << "  /* The outputs as the caller left them. */\n"
    << resetAndRestore("  ") << restore("  ");
  for (size_t j = 0; j < t.restoreArgs.size(); ++j)
    c << "  if (saved[" << j << "])\n    cuMemFree(saved[" << j << "]);\n";
  c << "  if (start)\n    cuEventDestroy(start);\n"
    << "  if (stop)\n    cuEventDestroy(stop);\n"
    << "  if (r == CUDA_SUCCESS && *best < 0) {\n"
    << "    tilec_error_text = \"" << kn
    << ": no autotune config could be launched\";\n"
    << "    return CUDA_ERROR_INVALID_VALUE;\n  }\n"
    << "  return r;\n}\n\n";
  c << "CUresult " << kn << "(CUstream stream, " << kn
    << "_grid_fn grid, void *grid_user" << argDecls(k0, n) << bytesDecls
    << ") {\n"
    << "  long long key[" << numKeys << "] = {";
  if (t.keyArgs.empty())
    c << "0";
  for (size_t i = 0; i < t.keyArgs.size(); ++i)
    c << (i ? ", " : "") << "(long long)" << n[t.keyArgs[i]];
  c << "};\n"
    << "  unsigned int g[3] = {1, 1, 1};\n"
    << "  int config = -1, i;\n"
    << "  if (!grid) {\n    tilec_error_text = \"" << kn
    << ": grid is NULL\";\n    return CUDA_ERROR_INVALID_VALUE;\n  }\n"
    << "  pthread_mutex_lock(&tilec_tune_mutex);\n"
    << "  for (i = 0; i < 64 && config < 0; ++i)\n"
    << "    if (tilec_tuned_table[i].used &&\n"
    << "        memcmp(tilec_tuned_table[i].key, key, sizeof key) == 0)\n"
    << "      config = tilec_tuned_table[i].config;\n"
    << "  pthread_mutex_unlock(&tilec_tune_mutex);\n"
    << "  if (config < 0) {\n"
    << "    CUresult r = tilec_tune(stream, grid, grid_user" << argUses(n)
    << bytesUses << ", &config);\n"
    << "    if (r != CUDA_SUCCESS)\n      return r;\n"
    << "    pthread_mutex_lock(&tilec_tune_mutex);\n"
    << "    tilec_tuned_table[tilec_tuned_next].used = 1;\n"
    << "    memcpy(tilec_tuned_table[tilec_tuned_next].key, key, sizeof key);\n"
    << "    tilec_tuned_table[tilec_tuned_next].config = config;\n"
    << "    tilec_tuned_next = (tilec_tuned_next + 1) % 64;\n"
    << "    pthread_mutex_unlock(&tilec_tune_mutex);\n"
    << "  }\n"
    << "  tilec_last_config = config;\n"
    << "  grid(config, g, grid_user);\n"
    << "  return " << kn << "_config(config, stream, g[0], g[1], g[2]"
    << argUses(n) << ");\n}\n";
  source = c.str();
  // string.h for memcmp/strcmp: after the header include.
  size_t at = source.find("#include <pthread.h>");
  source.insert(at, "#include <stdlib.h>\n#include <string.h>\n");
  return "";
}

} // namespace tilec
