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

std::string generateAot(const std::vector<AotKernel> &kernels,
                        const std::string &cubin, const std::string &prefix,
                        const std::string &headerName,
                        const std::string &provenance, std::string &header,
                        std::string &source) {
  if (!isCIdentifier(prefix))
    return "the output name '" + prefix +
           "' does not give a C identifier for the module's functions; "
           "choose an -o name of letters, digits and '_'";
  for (const AotKernel &k : kernels) {
    if (!isCIdentifier(k.info.name) || reserved(k.info.name))
      return "kernel '" + k.info.name +
             "' is not a C identifier that a launch function can be named "
             "after";
    if (k.info.name == prefix + "_load" || k.info.name == prefix + "_error")
      return "kernel '" + k.info.name + "' collides with the module's '" +
             k.info.name + "' function; choose another -o name";
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

  std::string guard = "TILEC_AOT_" + prefix + "_H";
  for (char &c : guard)
    c = char(std::toupper((unsigned char)c));

  // Parameter names: the kernel's, else argN; unique, not the launcher's.
  std::vector<std::vector<std::string>> names;
  for (const AotKernel &k : kernels) {
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
    names.push_back(std::move(n));
  }

  auto paramDecl = [&](const AotKernel &k, const std::vector<std::string> &n) {
    std::string d = "CUstream stream, unsigned int grid_x, unsigned int grid_y, "
                    "unsigned int grid_z";
    for (size_t i = 0; i < n.size(); ++i) {
      const ParamType &p = k.info.signature.params[i];
      d += ", ";
      d += p.isPointer ? "CUdeviceptr" : cType(p.type);
      d += " " + n[i];
    }
    return d;
  };

  std::ostringstream h;
  h << "/* Generated by " << provenance << ".\n"
    << " * Do not edit: rerun tilec --aot. The launchers load the embedded "
       "cubin\n"
    << " * into the CUDA context current at the first call (" << prefix
    << "_load) and\n"
    << " * link only libcuda. */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << "#include <cuda.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/* Loads the module into the current context, once (later calls "
       "return the\n * first call's result); the launchers call it. */\n"
    << "CUresult " << prefix << "_load(void);\n\n"
    << "/* Why the calling thread's last launch failed a check (\"\" when "
       "it did not). */\n"
    << "const char *" << prefix << "_error(void);\n";
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    const AotKernel &k = kernels[ki];
    h << "\n/* " << k.info.name << ": signature " << k.info.signatureText
      << ", " << k.info.numWarps * 32 << " threads per block, "
      << k.info.sharedBytes << " bytes of dynamic shared memory"
      << (k.info.clusterSize > 1 ? ", clusters of " +
                                       std::to_string(k.info.clusterSize) +
                                       " along x when grid_x is a multiple"
                                 : std::string())
      << ".\n * Launches over grid (grid_x, grid_y, grid_z) on `stream`; "
         "fp16/bf16\n * scalars are passed as their bit patterns. Returns "
         "CUDA_ERROR_INVALID_VALUE,\n * with " << prefix
      << "_error() saying why, for an empty grid, a null or misaligned\n"
         " * pointer, or an integer that breaks its signature's fact. */\n"
      << "CUresult " << k.info.name << "(" << paramDecl(k, names[ki])
      << ");\n";
  }
  h << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  header = h.str();

  std::ostringstream c;
  c << "/* Generated by " << provenance << ". Do not edit. */\n"
    << "#include \"" << cString(headerName) << "\"\n\n"
    << "#include <pthread.h>\n#include <stddef.h>\n\n";
  // The cubin, 8-byte aligned as cuModuleLoadData wants an ELF image.
  c << "static const unsigned char tilec_image[" << cubin.size()
    << "] __attribute__((aligned(8))) = {";
  for (size_t i = 0; i < cubin.size(); ++i) {
    if (i % 16 == 0)
      c << "\n ";
    c << " " << unsigned((unsigned char)cubin[i]) << ",";
  }
  c << "\n};\n\n"
    << "static pthread_once_t tilec_once = PTHREAD_ONCE_INIT;\n"
    << "static CUresult tilec_load_result = CUDA_ERROR_NOT_INITIALIZED;\n"
    << "static CUmodule tilec_module;\n";
  for (const AotKernel &k : kernels)
    c << "static CUfunction tilec_fn_" << k.info.name << ";\n";
  c << "static _Thread_local const char *tilec_error_text = \"\";\n\n"
    << "static void tilec_load_once(void) {\n"
    << "  CUresult r = cuModuleLoadData(&tilec_module, tilec_image);\n";
  for (const AotKernel &k : kernels) {
    c << "  if (r == CUDA_SUCCESS)\n    r = cuModuleGetFunction(&tilec_fn_"
      << k.info.name << ", tilec_module, \"" << k.info.name << "\");\n";
    if (k.info.sharedBytes > 48 * 1024)
      c << "  if (r == CUDA_SUCCESS)\n    r = cuFuncSetAttribute(tilec_fn_"
        << k.info.name
        << ", CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
        << k.info.sharedBytes << ");\n";
  }
  c << "  tilec_load_result = r;\n}\n\n"
    << "CUresult " << prefix << "_load(void) {\n"
    << "  pthread_once(&tilec_once, tilec_load_once);\n"
    << "  return tilec_load_result;\n}\n\n"
    << "const char *" << prefix << "_error(void) { return tilec_error_text; }\n";

  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    const AotKernel &k = kernels[ki];
    const std::vector<std::string> &n = names[ki];
    const std::string &kn = k.info.name;
    auto fail = [&](const std::string &message) {
      return "{\n    tilec_error_text = \"" + cString(message) +
             "\";\n    return CUDA_ERROR_INVALID_VALUE;\n  }\n";
    };
    c << "\nCUresult " << kn << "(" << paramDecl(k, n) << ") {\n"
      << "  CUresult r = " << prefix << "_load();\n"
      << "  if (r != CUDA_SUCCESS) {\n    tilec_error_text = \"" << kn
      << ": the module did not load into the current context (see the "
         "CUresult)\";\n    return r;\n  }\n"
      << "  if (grid_x == 0 || grid_y == 0 || grid_z == 0) "
      << fail(kn + ": the grid is empty: every dimension must be > 0");
    for (size_t i = 0; i < n.size(); ++i) {
      const ParamType &p = k.info.signature.params[i];
      std::string what = kn + ": argument " + std::to_string(i) + " (" +
                         n[i] + ")";
      if (p.isPointer) {
        c << "  if (" << n[i] << " == 0) "
          << fail(what + ": a null pointer for " + p.str());
        unsigned elem = byteSize(p.type);
        if (elem > 1)
          c << "  if (" << n[i] << " % " << elem << "u != 0) "
            << fail(what + ": the pointer is not aligned to its element "
                           "type (" + toString(p.type) + ", " +
                    std::to_string(elem) + " bytes)");
        if (p.divisibility > 1)
          c << "  if (" << n[i] << " % " << p.divisibility << "u != 0) "
            << fail(what + ": the pointer is not " +
                    std::to_string(p.divisibility) +
                    "-byte aligned as the signature " + p.str() +
                    " requires");
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
        << "    return cuLaunchKernelEx(&config, tilec_fn_" << kn << ", "
        << (n.empty() ? "NULL" : "params") << ", NULL);\n  }\n";
    }
    c << "  return cuLaunchKernel(tilec_fn_" << kn
      << ", grid_x, grid_y, grid_z, " << threads << ", 1, 1, "
      << k.info.sharedBytes << ", stream, "
      << (n.empty() ? "NULL" : "params") << ", NULL);\n}\n";
  }
  source = c.str();
  return "";
}

} // namespace tilec
