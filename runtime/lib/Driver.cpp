//===- Driver.cpp - Contexts, modules and launches on the CUDA driver -*- C++ -*-===//
//
// The part of the runtime that calls the CUDA driver API: it retains a
// device's primary context (the one PyTorch and the CUDA runtime use, so
// pointers from either are valid here), loads PTX (JIT-compiled, its error
// log kept), cubins and fat binaries with cuModuleLoadDataEx, resolves
// kernels against their metadata (PTX comment lines or a JSON sidecar),
// launches them after the pure checks of LaunchChecks.cpp, and captures
// launches into CUDA graphs. The launch path is built for host time: what
// the metadata decides is computed once per kernel at load (KernelState),
// each check runs first as a comparison that builds no message, and a
// launch allocates nothing unless it has more parameters, descriptor
// scalars or tensor maps than its inline storage holds. Every CUresult
// other than CUDA_SUCCESS becomes a Status naming the call, its
// cuGetErrorName text and the kernel or module involved.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Detail.h"
#include "Guard.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>

using namespace tilec;

/// Names of the results that matter when the driver cannot name them itself
/// (the toolkit's stub libcuda answers every call, cuGetErrorName included,
/// with CUDA_ERROR_STUB_LIBRARY).
static void fallbackErrorName(CUresult r, const char *&name,
                              const char *&text) {
  switch (r) {
  case CUDA_ERROR_STUB_LIBRARY:
    name = "CUDA_ERROR_STUB_LIBRARY";
    text = "libcuda.so.1 is the CUDA toolkit's stub, not a driver";
    break;
  case CUDA_ERROR_NO_DEVICE:
    name = "CUDA_ERROR_NO_DEVICE";
    text = "no CUDA-capable device is detected";
    break;
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    name = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    text = "system has unsupported display driver / cuda driver combination";
    break;
  case CUDA_ERROR_NOT_INITIALIZED:
    name = "CUDA_ERROR_NOT_INITIALIZED";
    text = "initialization error";
    break;
  default:
    break;
  }
}

Status Status::driverError(const char *call, CUresult result,
                           std::string_view context) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  if (!name)
    fallbackErrorName(result, name, text);
  return formatDriverError(call, int(result), name ? name : "",
                           text ? text : "", context);
}

/// The function name of a call expression ("cuInit(0)" -> "cuInit").
static std::string tilecCallName(const char *expr) {
  std::string s(expr);
  size_t paren = s.find('(');
  return paren == std::string::npos ? s : s.substr(0, paren);
}

/// Returns the Status of a driver call from the enclosing function when it
/// fails. `CTX` is the " for ..." phrase of the message (may be empty).
#define TILEC_CU(CALL, CTX)                                                    \
  do {                                                                         \
    CUresult tilecResult_ = (CALL);                                            \
    if (tilecResult_ != CUDA_SUCCESS)                                          \
      return Status::driverError(tilecCallName(#CALL).c_str(), tilecResult_,  \
                                 (CTX));                                       \
  } while (0)

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Status Context::create(int ordinal, std::shared_ptr<Context> &out) {
  return detail::guarded([&]() -> Status {
    std::string what = "device " + std::to_string(ordinal);
    TILEC_CU(cuInit(0), "");
    CUdevice dev;
    TILEC_CU(cuDeviceGet(&dev, ordinal), what);
    std::shared_ptr<Context> c(new Context());
    c->dev = dev;
    c->deviceOrdinal = ordinal;
    TILEC_CU(cuDevicePrimaryCtxRetain(&c->ctx, dev), what);
    // From here on the destructor releases the retained context.
    TILEC_CU(cuCtxSetCurrent(c->ctx), what);

    char name[256] = {0};
    TILEC_CU(cuDeviceGetName(name, sizeof(name) - 1, dev), what);
    c->name = name;
    int major = 0, minor = 0, gx = 0, gy = 0, gz = 0, optin = 0;
    TILEC_CU(cuDeviceGetAttribute(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
             what);
    TILEC_CU(cuDeviceGetAttribute(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
             what);
    TILEC_CU(cuDeviceGetAttribute(&gx, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, dev),
             what);
    TILEC_CU(cuDeviceGetAttribute(&gy, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, dev),
             what);
    TILEC_CU(cuDeviceGetAttribute(&gz, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, dev),
             what);
    TILEC_CU(cuDeviceGetAttribute(
                 &optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                 dev),
             what);
    c->cc = major * 10 + minor;
    c->limits = GridLimits{unsigned(gx), unsigned(gy), unsigned(gz)};
    c->sharedOptin = uint64_t(optin);
    out = std::move(c);
    return Status::success();
  });
}

Context::~Context() {
  // Errors are ignored: at process exit the driver may already be gone.
  if (ctx)
    (void)cuDevicePrimaryCtxRelease(dev);
}

Status Context::makeCurrent() const {
  // Every launch comes here: when the context is already current (the
  // common case) this is one cuCtxGetCurrent, a read of the driver's
  // thread-local state, and nothing is allocated. The current context is
  // asked for each time rather than remembered, since another library on
  // the thread (PyTorch, the CUDA runtime) may have changed it.
  CUcontext current = nullptr;
  CUresult r = cuCtxGetCurrent(&current);
  if (r == CUDA_SUCCESS && current == ctx)
    return Status::success();
  return detail::guarded([&]() -> Status {
    std::string what = "device " + std::to_string(deviceOrdinal);
    if (r != CUDA_SUCCESS)
      return Status::driverError("cuCtxGetCurrent", r, what);
    TILEC_CU(cuCtxSetCurrent(ctx), what);
    return Status::success();
  });
}

Status Context::synchronize() const {
  return detail::guarded([&]() -> Status {
    if (Status s = makeCurrent(); !s.ok())
      return s;
    TILEC_CU(cuCtxSynchronize(), "device " + std::to_string(deviceOrdinal));
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

namespace tilec {
/// What the launches of one kernel share, made when its module loads: the
/// launch plan (fast checks, parameter counts), the text that names it in
/// driver errors, whether its dynamic shared-memory limit is raised yet,
/// and the cache of the tensor maps it encoded last.
struct KernelState {
  detail::LaunchPlan plan;
  std::string what; // "kernel 'name'"
  unsigned blockX = 0;
  /// Above 48 KiB of dynamic shared memory the first launch raises
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; later launches see
  /// `sharedConfigured` and take no lock.
  bool needsSharedConfig = false;
  std::atomic<bool> sharedConfigured{false};
  /// Guards the shared-memory configuration and `maps`.
  std::mutex mutex;
  // The tensor maps the kernel's launches encoded last (see
  // encodeTensorMapCached).
  struct CachedMap {
    size_t slot; // which of the kernel's maps
    TensorDesc desc;
    CUtensorMap map;
  };
  static constexpr size_t kMapCacheEntries = 16;
  std::vector<CachedMap> maps;
  size_t nextMap = 0; // the entry replaced next once full
};

/// What Module and Kernel share: the loaded CUmodule (unloaded when the last
/// Module or Kernel copy goes away), its metadata and each kernel's state.
struct ModuleState {
  std::shared_ptr<Context> context;
  CUmodule module = nullptr;
  std::string name;
  std::vector<KernelInfo> kernels;
  std::unique_ptr<KernelState[]> kernelStates; // one per kernels[i]

  ~ModuleState() {
    if (!module)
      return;
    // Unload in the module's own context; ignore errors at process exit.
    if (cuCtxPushCurrent(context->handle()) == CUDA_SUCCESS) {
      (void)cuModuleUnload(module);
      CUcontext popped;
      (void)cuCtxPopCurrent(&popped);
    }
  }
};
} // namespace tilec

/// Loads `image` (NUL-terminated PTX text, or a cubin or fat binary) with
/// cuModuleLoadDataEx as the module `displayName` whose kernels are
/// `kernels`: what loadPTX and loadImage share. On a JIT failure the
/// message ends with the JIT error log.
static Status loadModule(std::shared_ptr<Context> context, const void *image,
                         std::vector<KernelInfo> kernels,
                         std::string_view displayName,
                         std::shared_ptr<ModuleState> &loaded) {
  std::string what = "module '" + std::string(displayName) + "'";
  auto state = std::make_shared<ModuleState>();
  state->context = context;
  state->name = std::string(displayName);
  state->kernels = std::move(kernels);
  state->kernelStates.reset(new KernelState[state->kernels.size()]);
  for (size_t i = 0; i < state->kernels.size(); ++i) {
    const KernelInfo &k = state->kernels[i];
    KernelState &ks = state->kernelStates[i];
    ks.plan = detail::makeLaunchPlan(k);
    ks.what = "kernel '" + k.name + "'";
    ks.blockX = k.numWarps * 32;
    ks.needsSharedConfig = k.sharedBytes > 48 * 1024;
  }
  if (Status s = context->makeCurrent(); !s.ok())
    return s;

  constexpr size_t kLogBytes = 64 * 1024;
  std::string errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
                    infoLog.data(), reinterpret_cast<void *>(kLogBytes - 1)};
  CUresult r = cuModuleLoadDataEx(&state->module, image,
                                  unsigned(sizeof(options) / sizeof(options[0])),
                                  options, values);
  if (r != CUDA_SUCCESS) {
    state->module = nullptr;
    Status s = Status::driverError("cuModuleLoadDataEx", r, what);
    std::string log(errorLog.c_str());
    while (!log.empty() && (log.back() == '\n' || log.back() == '\r'))
      log.pop_back();
    if (!log.empty())
      s.appendToMessage("\nJIT error log:\n" + log);
    return s;
  }
  loaded = state;
  return Status::success();
}

/// The occupancy (CTAs per SM) of `func` at `info`'s block and dynamic
/// shared memory, 0 where the driver cannot say. Above 48 KiB the function
/// is opted in to its dynamic shared memory first, as a launch does.
static int occupancyOf(CUfunction func, const KernelInfo &info) {
  int ctas = 0;
  if ((info.sharedBytes > 48 * 1024 &&
       cuFuncSetAttribute(func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          int(info.sharedBytes)) != CUDA_SUCCESS) ||
      cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &ctas, func, int(info.numWarps * 32), info.sharedBytes) !=
          CUDA_SUCCESS)
    return 0;
  return ctas;
}

/// Gives each `maxnreg=auto` kernel of the PTX module `state` (loaded from
/// `ptx`) the register budget of the occupancy it reached
/// (occupancyRegisterBudget): where the budget is above the registers the
/// kernel uses, the PTX is loaded again with `.maxnreg` on those entries
/// and replaces the first load. An optimization only: where the device
/// cannot report the figures, the reload fails, or a reloaded kernel would
/// run fewer CTAs per SM, the first load stays and nothing is reported.
/// The driver's JIT cache (~/.nv/ComputeCache) makes the reload cheap
/// after the first time.
static void applyRegisterBudgets(ModuleState &state, const std::string &ptx) {
  if (std::none_of(state.kernels.begin(), state.kernels.end(),
                   [](const KernelInfo &k) { return k.autoMaxNReg; }))
    return;
  int regsPerSM = 0;
  if (cuDeviceGetAttribute(&regsPerSM,
                           CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
                           state.context->device()) != CUDA_SUCCESS ||
      regsPerSM <= 0)
    return;
  struct Change {
    size_t index;
    unsigned budget;
    int ctas;
  };
  std::vector<Change> changes;
  std::string patched = ptx;
  for (size_t i = 0; i < state.kernels.size(); ++i) {
    const KernelInfo &k = state.kernels[i];
    CUfunction func = nullptr;
    int regs = 0;
    if (!k.autoMaxNReg ||
        cuModuleGetFunction(&func, state.module, k.name.c_str()) !=
            CUDA_SUCCESS ||
        cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, func) !=
            CUDA_SUCCESS)
      continue;
    int ctas = occupancyOf(func, k);
    unsigned budget = occupancyRegisterBudget(
        unsigned(regs), k.numWarps, unsigned(ctas), unsigned(regsPerSM));
    if (budget && setEntryMaxNReg(patched, k.name, budget).ok())
      changes.push_back({i, budget, ctas});
  }
  if (changes.empty())
    return;
  CUmodule reloaded = nullptr;
  if (cuModuleLoadData(&reloaded, patched.c_str()) != CUDA_SUCCESS)
    return;
  for (const Change &c : changes) {
    CUfunction func = nullptr;
    if (cuModuleGetFunction(&func, reloaded,
                            state.kernels[c.index].name.c_str()) !=
            CUDA_SUCCESS ||
        occupancyOf(func, state.kernels[c.index]) < c.ctas) {
      (void)cuModuleUnload(reloaded);
      return;
    }
  }
  (void)cuModuleUnload(state.module);
  state.module = reloaded;
  for (const Change &c : changes)
    state.kernels[c.index].appliedMaxNReg = c.budget;
}

Status Module::loadPTX(std::shared_ptr<Context> context, std::string_view ptx,
                       Module &out, std::string_view displayName) {
  return detail::guarded([&]() -> Status {
    std::string what = "module '" + std::string(displayName) + "'";
    if (!context)
      return Status::error(what + ": no context");
    std::vector<KernelInfo> kernels;
    if (Status s = parseKernelMetadata(ptx, kernels); !s.ok())
      return Status::error(what + ": " + s.message());
    // cuModuleLoadDataEx wants NUL-terminated PTX.
    std::string text(ptx);
    std::shared_ptr<ModuleState> state;
    if (Status s = loadModule(std::move(context), text.c_str(),
                              std::move(kernels), displayName, state);
        !s.ok())
      return s;
    applyRegisterBudgets(*state, text);
    out.state = std::move(state);
    return Status::success();
  });
}

/// loadImage with the sidecar named in metadata errors (`metadataName`, the
/// JSON file's path, or empty).
static Status loadImageFrom(std::shared_ptr<Context> context,
                            std::string_view image,
                            std::string_view metadataJson,
                            std::string_view metadataName,
                            std::string_view displayName,
                            std::shared_ptr<ModuleState> &loaded) {
  std::string what = "module '" + std::string(displayName) + "'";
  if (!context)
    return Status::error(what + ": no context");
  if (image.empty())
    return Status::error(what + ": the image is empty (expected a cubin, a "
                                "fat binary or PTX text)");
  std::vector<KernelInfo> kernels;
  if (Status s = parseKernelMetadataJson(metadataJson, kernels); !s.ok())
    return Status::error(
        what +
        (metadataName.empty() ? std::string()
                              : " (sidecar '" + std::string(metadataName) +
                                    "')") +
        ": " + s.message());
  // PTX must end in a NUL; a cubin or fat binary is handed over as it is,
  // copied only to 8-byte-align its ELF or fatbin headers.
  std::string text;
  std::vector<uint64_t> aligned;
  const void *data = image.data();
  if (detail::classifyImage(image) == detail::ImageKind::PTX) {
    text = std::string(image);
    data = text.c_str();
  } else if (reinterpret_cast<uintptr_t>(image.data()) % 8 != 0) {
    aligned.resize((image.size() + 7) / 8);
    std::memcpy(aligned.data(), image.data(), image.size());
    data = aligned.data();
  }
  if (Status s = loadModule(std::move(context), data, std::move(kernels),
                            displayName, loaded);
      !s.ok())
    return s;
  if (!text.empty())
    applyRegisterBudgets(*loaded, text);
  return Status::success();
}

Status Module::loadImage(std::shared_ptr<Context> context,
                         std::string_view image, std::string_view metadataJson,
                         Module &out, std::string_view displayName) {
  return detail::guarded([&]() -> Status {
    std::shared_ptr<ModuleState> state;
    if (Status s = loadImageFrom(std::move(context), image, metadataJson, "",
                                 displayName, state);
        !s.ok())
      return s;
    out.state = std::move(state);
    return Status::success();
  });
}

/// Reads the whole file at `path` (a `kind` file: "PTX", "cubin") into
/// `out`.
static Status readFile(const std::string &path, const char *kind,
                       std::string &out) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return Status::error("cannot load '" + path + "': it is a directory, not a " +
                         kind + " file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot open " + std::string(kind) + " file '" + path +
                         "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad())
    return Status::error("cannot read " + std::string(kind) + " file '" + path +
                         "'");
  out = buf.str();
  return Status::success();
}

Status Module::loadCUDA(std::shared_ptr<Context> context,
                        std::string_view source, Module &out,
                        std::string_view displayName) {
  return detail::guarded([&]() -> Status {
    std::string ptx;
    if (Status s = compileCUDAToPTX(source, "", ptx, displayName); !s.ok())
      return s;
    return loadPTX(std::move(context), ptx, out, displayName);
  });
}

Status Module::loadFile(std::shared_ptr<Context> context,
                        const std::string &path, Module &out) {
  return detail::guarded([&]() -> Status {
    auto endsWith = [&](std::string_view suffix) {
      return path.size() >= suffix.size() &&
             std::string_view(path).substr(path.size() - suffix.size()) ==
                 suffix;
    };
    bool cubin = endsWith(".cubin"), cuda = endsWith(".cu");
    std::string content;
    if (Status s = readFile(path,
                            cubin  ? "cubin"
                            : cuda ? "CUDA C++"
                                   : "PTX",
                            content);
        !s.ok())
      return s;
    if (cuda)
      return loadCUDA(std::move(context), content, out, path);
    if (!cubin)
      return loadPTX(std::move(context), content, out, path);
    // A cubin's metadata is its sidecar, <name>.json.
    std::string sidecar = kernelMetadataSidecarPath(path);
    struct stat st;
    if (::stat(sidecar.c_str(), &st) != 0 && errno == ENOENT)
      return Status::error("cannot load cubin '" + path +
                           "': its kernel metadata sidecar '" + sidecar +
                           "' is missing (a cubin carries no tilec.kernel "
                           "lines: its kernels' metadata is that JSON file)");
    std::string json;
    if (Status s = readFile(sidecar, "kernel metadata", json); !s.ok())
      return s;
    std::shared_ptr<ModuleState> state;
    if (Status s = loadImageFrom(std::move(context), content, json, sidecar,
                                 path, state);
        !s.ok())
      return s;
    out.state = std::move(state);
    return Status::success();
  });
}

const std::vector<KernelInfo> &Module::kernels() const {
  static const std::vector<KernelInfo> empty;
  return state ? state->kernels : empty;
}

/// cuFuncGetParamInfo exists from CUDA 12.4; look it up at run time so the
/// runtime still loads on older drivers (where the check is skipped).
using FuncGetParamInfoFn = CUresult (*)(CUfunction, size_t, size_t *,
                                        size_t *);
static FuncGetParamInfoFn lookupFuncGetParamInfo() {
  static FuncGetParamInfoFn fn = [] {
    void *p = nullptr;
    CUdriverProcAddressQueryResult found;
    if (cuGetProcAddress("cuFuncGetParamInfo", &p, 12040,
                         CU_GET_PROC_ADDRESS_DEFAULT,
                         &found) != CUDA_SUCCESS ||
        found != CU_GET_PROC_ADDRESS_SUCCESS)
      p = nullptr;
    return reinterpret_cast<FuncGetParamInfoFn>(p);
  }();
  return fn;
}

/// Checks the PTX parameter list of `func` against the signature's ABI
/// sizes. Only a definite answer from the driver fails the check.
static Status checkParamABI(const KernelInfo &info, CUfunction func) {
  FuncGetParamInfoFn getInfo = lookupFuncGetParamInfo();
  if (!getInfo)
    return Status::success();
  const auto &params = info.signature.params;
  // Only indices the signature names are queried: probing one past the end
  // would be a failing driver call on every load, which compute-sanitizer
  // reports as an API error. Extra PTX parameters are therefore not caught
  // here; the compiler writes the signature from the same function.
  size_t numPtx = 0;
  for (const ParamType &p : params)
    numPtx += p.numPtxParams();
  size_t ptx = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    for (unsigned j = 0; j < params[i].numPtxParams(); ++j, ++ptx) {
      size_t offset = 0, size = 0;
      CUresult r = getInfo(func, ptx, &offset, &size);
      if (r == CUDA_ERROR_INVALID_VALUE)
        return Status::error("kernel '" + info.name + "': the PTX has " +
                             std::to_string(ptx) + " parameters but its "
                             "signature '" + info.signatureText + "' needs " +
                             std::to_string(numPtx));
      if (r != CUDA_SUCCESS)
        return Status::success(); // unsupported here: skip the check
      if (size != params[i].ptxParamSize(j))
        return Status::error("kernel '" + info.name + "': PTX parameter " +
                             std::to_string(ptx) + " is " +
                             std::to_string(size) + " bytes but the " +
                             "signature entry " + params[i].str() +
                             " needs " +
                             std::to_string(params[i].ptxParamSize(j)));
    }
  }
  return Status::success();
}

Status Module::getKernel(std::string_view name, Kernel &out) const {
  return detail::guarded([&]() -> Status {
    if (!state)
      return Status::error("kernel '" + std::string(name) +
                           "': the module is not loaded");
    size_t index = 0;
    for (; index < state->kernels.size(); ++index)
      if (state->kernels[index].name == name)
        break;
    if (index == state->kernels.size()) {
      std::string known;
      for (const KernelInfo &k : state->kernels)
        known += (known.empty() ? "'" : ", '") + k.name + "'";
      return Status::error(
          "kernel '" + std::string(name) + "' has no '// tilec.kernel' "
          "metadata line in module '" + state->name + "'" +
          (known.empty() ? std::string(" (it has none)")
                         : " (it has " + known + ")"));
    }
    const KernelInfo &info = state->kernels[index];
    const std::string &what = state->kernelStates[index].what;
    if (Status s = state->context->makeCurrent(); !s.ok())
      return s;
    CUfunction func = nullptr;
    TILEC_CU(cuModuleGetFunction(&func, state->module, info.name.c_str()), what);
    if (Status s = checkParamABI(info, func); !s.ok())
      return s;
    // The aligned variant: same parameters, facts at least as strong.
    const KernelInfo *variantMeta = nullptr;
    CUfunction variantFunc = nullptr;
    size_t variantIndex = 0;
    if (!info.alignedVariant.empty()) {
      auto bad = [&](const std::string &why) {
        return Status::error("kernel '" + info.name + "': its aligned variant '" +
                             info.alignedVariant + "' " + why + " (module '" +
                             state->name + "')");
      };
      for (; variantIndex < state->kernels.size(); ++variantIndex)
        if (state->kernels[variantIndex].name == info.alignedVariant)
          break;
      if (variantIndex == state->kernels.size() ||
          variantIndex == index)
        return bad("has no '// tilec.kernel' line of its own");
      variantMeta = &state->kernels[variantIndex];
      const auto &bp = info.signature.params, &vp = variantMeta->signature.params;
      bool same = bp.size() == vp.size();
      for (size_t i = 0; same && i < bp.size(); ++i)
        same = bp[i].isPointer == vp[i].isPointer &&
               bp[i].isTensorDesc == vp[i].isTensorDesc &&
               bp[i].type == vp[i].type && bp[i].block == vp[i].block &&
               bp[i].equalToOne == vp[i].equalToOne &&
               (!bp[i].divisibility ||
                (vp[i].divisibility &&
                 vp[i].divisibility % bp[i].divisibility == 0));
      if (!same)
        return bad("has signature '" + variantMeta->signatureText +
                   "', which is not '" + info.signatureText +
                   "' with stronger facts");
      TILEC_CU(cuModuleGetFunction(&variantFunc, state->module,
                                   variantMeta->name.c_str()),
               state->kernelStates[variantIndex].what);
      if (Status s = checkParamABI(*variantMeta, variantFunc); !s.ok())
        return s;
    }
    out.module = state;
    out.meta = &info;
    out.func = func;
    out.index = index;
    out.variantMeta = variantMeta;
    out.variantFunc = variantFunc;
    out.variantIndex = variantIndex;
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

/// The CUtensorMap of a descriptor the kernel reads with TMA: the box and
/// swizzle of its `tma=` metadata, dimensions innermost first
/// (cuTensorMapEncodeTiled; checkTensorDesc has checked its requirements
/// on the base, sizes and strides).
static Status encodeTensorMap(const ParamType &p, const TensorDesc &d,
                              CUtensorMap &map) {
  CUtensorMapDataType type;
  switch (p.type) {
  case ScalarType::FP16: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
  case ScalarType::BF16: type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
  case ScalarType::FP32: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
  case ScalarType::FP64: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT64; break;
  case ScalarType::I32: type = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
  case ScalarType::U32: type = CU_TENSOR_MAP_DATA_TYPE_UINT32; break;
  case ScalarType::I64: type = CU_TENSOR_MAP_DATA_TYPE_INT64; break;
  case ScalarType::U64: type = CU_TENSOR_MAP_DATA_TYPE_UINT64; break;
  case ScalarType::I16:
  case ScalarType::U16: type = CU_TENSOR_MAP_DATA_TYPE_UINT16; break;
  default: type = CU_TENSOR_MAP_DATA_TYPE_UINT8; break; // i8, u8, fp8
  }
  if (p.tmaNanFill && !isFloat(p.type))
    return Status::error("NaN padding of a " + std::string(toString(p.type)) +
                         " tensor descriptor (TMA fills NaN for floats only)");
  uint32_t rank = d.rank;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elementStrides[5];
  for (uint32_t k = 0; k < rank; ++k) {
    dims[k] = cuuint64_t(d.shape[rank - 1 - k]);
    box[k] = cuuint32_t(p.tmaBox[rank - 1 - k]);
    elementStrides[k] = 1;
  }
  for (uint32_t k = 0; k + 1 < rank; ++k)
    strides[k] = cuuint64_t(d.strides[rank - 2 - k]) * byteSize(p.type);
  CUtensorMapSwizzle swizzle = p.tmaSwizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                               : p.tmaSwizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                    : CU_TENSOR_MAP_SWIZZLE_32B;
  CUresult r = cuTensorMapEncodeTiled(
      &map, type, rank, reinterpret_cast<void *>(uintptr_t(d.base)), dims,
      strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      p.tmaNanFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                   : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    return Status::error("cuTensorMapEncodeTiled failed (" +
                         std::string(name ? name : "unknown error") +
                         ") for " + p.str());
  }
  return Status::success();
}

/// Whether `a` and `b` describe the same tensor (their base, rank and the
/// sizes and strides the rank uses).
static bool sameTensor(const TensorDesc &a, const TensorDesc &b) {
  if (a.base != b.base || a.rank != b.rank || a.rank > 5)
    return false;
  for (uint32_t k = 0; k < a.rank; ++k)
    if (a.shape[k] != b.shape[k] || a.strides[k] != b.strides[k])
      return false;
  return true;
}

/// encodeTensorMap through the kernel's cache of recent maps: the map is a
/// function of the slot's encoding (`p`, fixed per slot) and `d` alone, so
/// a launch with the tensors of a recent one reuses its bytes instead of
/// encoding them again (about 0.5 us a map on the H200's host; a GEMM's
/// launch encodes two). Thread-safe; the last kMapCacheEntries maps of
/// the kernel are kept.
static Status encodeTensorMapCached(KernelState &ks, size_t slot,
                                    const ParamType &p, const TensorDesc &d,
                                    CUtensorMap &map) {
  {
    std::lock_guard<std::mutex> lock(ks.mutex);
    for (const KernelState::CachedMap &e : ks.maps)
      if (e.slot == slot && sameTensor(e.desc, d)) {
        map = e.map;
        return Status::success();
      }
  }
  if (Status s = encodeTensorMap(p, d, map); !s.ok())
    return s;
  std::lock_guard<std::mutex> lock(ks.mutex);
  KernelState::CachedMap entry{slot, d, map};
  if (ks.maps.size() < KernelState::kMapCacheEntries) {
    // Reserved whole on first use: later entries do not reallocate.
    ks.maps.reserve(KernelState::kMapCacheEntries);
    ks.maps.push_back(entry);
  } else {
    ks.maps[ks.nextMap] = entry;
    ks.nextMap = (ks.nextMap + 1) % KernelState::kMapCacheEntries;
  }
  return Status::success();
}

/// Raises the kernel's dynamic shared-memory limit to its `shared=` bytes,
/// once (the first launch above 48 KiB), after checking the device's opt-in
/// maximum minus the kernel's static shared memory.
static Status configureSharedMemory(KernelState &ks, const KernelInfo &k,
                                    CUfunction func, const Context &ctx) {
  std::lock_guard<std::mutex> lock(ks.mutex);
  if (ks.sharedConfigured.load(std::memory_order_relaxed))
    return Status::success();
  const std::string &what = ks.what;
  int staticBytes = 0;
  TILEC_CU(cuFuncGetAttribute(&staticBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                              func),
           what);
  if (Status s = checkSharedMemory(k, uint64_t(staticBytes),
                                   ctx.sharedOptinMaxBytes());
      !s.ok())
    return s;
  TILEC_CU(cuFuncSetAttribute(func,
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              int(k.sharedBytes)),
           what);
  ks.sharedConfigured.store(true, std::memory_order_release);
  return Status::success();
}

/// The driver launch of `func` with `params` (one pointer per PTX
/// parameter, or null for none). A kernel compiled for clusters
/// (cluster=2: pairs of CTAs along x share TMA copies) launches in clusters
/// when they tile the grid, and otherwise without: each CTA then finds
/// itself alone in its cluster (%cluster_nctarank = 1) and copies
/// everything itself.
static Status launchFunction(const KernelInfo &k, const KernelState &ks,
                             CUfunction func, const Grid &grid, void **params,
                             CUstream stream) {
  const std::string &what = ks.what;
  if (k.clusterSize > 1 && grid.x % k.clusterSize == 0) {
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = k.clusterSize;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig config{};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = ks.blockX;
    config.blockDimY = 1;
    config.blockDimZ = 1;
    config.sharedMemBytes = k.sharedBytes;
    config.hStream = stream;
    config.attrs = &attr;
    config.numAttrs = 1;
    TILEC_CU(cuLaunchKernelEx(&config, func, params, nullptr), what);
    return Status::success();
  }
  TILEC_CU(cuLaunchKernel(func, grid.x, grid.y, grid.z, ks.blockX, 1, 1,
                          k.sharedBytes, stream, params, nullptr),
           what);
  return Status::success();
}

// Inline storage of a launch's parameters; the heap only beyond it.
static constexpr size_t kInlineParams = 64;
static constexpr size_t kInlineExpanded = 32;
static constexpr size_t kInlineMaps = 4;

/// The launch of a kernel with tensor descriptors or launch maps, whose
/// arguments passed the checks. A tensor descriptor expands into its base,
/// sizes and strides (all but the last), each in the low bytes of a
/// uint64_t, then its tensor map if it has one; launch maps (tensor
/// descriptors the kernel makes from its arguments) follow every entry's
/// parameters.
static Status launchWithDescriptors(const KernelInfo &k, KernelState &ks,
                                    CUfunction func, const Grid &grid,
                                    const Arg *args, size_t numArgs,
                                    CUstream stream) {
  const detail::LaunchPlan &plan = ks.plan;
  void *inlineParams[kInlineParams];
  uint64_t inlineExpanded[kInlineExpanded];
  CUtensorMap inlineMaps[kInlineMaps]; // 64-byte aligned (cuda.h)
  std::vector<void *> heapParams;
  std::vector<uint64_t> heapExpanded;
  std::vector<CUtensorMap> heapMaps;
  void **params = inlineParams;
  uint64_t *expanded = inlineExpanded;
  CUtensorMap *maps = inlineMaps;
  if (plan.numPtxParams > kInlineParams) {
    heapParams.resize(plan.numPtxParams);
    params = heapParams.data();
  }
  if (plan.numExpanded > kInlineExpanded) {
    heapExpanded.resize(plan.numExpanded);
    expanded = heapExpanded.data();
  }
  if (plan.numMaps > kInlineMaps) {
    heapMaps.resize(plan.numMaps);
    maps = heapMaps.data();
  }
  const std::vector<ParamType> &sig = k.signature.params;
  size_t ptx = 0, next = 0, nextMap = 0;
  for (size_t i = 0; i < numArgs; ++i) {
    if (!sig[i].isTensorDesc) {
      params[ptx++] = const_cast<void *>(args[i].data());
      continue;
    }
    const TensorDesc &d = *args[i].tensorDesc();
    size_t first = next;
    expanded[next++] = d.base;
    for (uint32_t r = 0; r < d.rank; ++r)
      expanded[next++] = uint64_t(uint32_t(d.shape[r]));
    for (uint32_t r = 0; r + 1 < d.rank; ++r)
      expanded[next++] = uint64_t(d.strides[r]);
    for (size_t j = first; j < next; ++j)
      params[ptx++] = &expanded[j];
    if (sig[i].hasTensorMap()) {
      size_t slot = nextMap;
      CUtensorMap &map = maps[nextMap++];
      if (Status s = encodeTensorMapCached(ks, slot, sig[i], d, map); !s.ok())
        return Status::error("argument " + std::to_string(i) + " of kernel '" +
                             k.name + "': " + s.message());
      params[ptx++] = &map;
    }
  }
  for (const LaunchMap &lm : k.launchMaps) {
    TensorDesc d;
    if (Status s = evaluateLaunchMap(k, lm, args, d); !s.ok())
      return s;
    size_t slot = nextMap;
    CUtensorMap &map = maps[nextMap++];
    if (Status s = encodeTensorMapCached(ks, slot, lm.param, d, map); !s.ok())
      return Status::error("launch map of kernel '" + k.name + "': " +
                           s.message());
    params[ptx++] = &map;
  }
  return launchFunction(k, ks, func, grid, ptx ? params : nullptr, stream);
}

// Graph captures in progress, so that a graph keeps the modules of the
// kernels it launches loaded: while any capture is active (rare), each
// launch adds its module to every active capture's list (keeping one a
// little longer than needed is harmless; missing one, a launch on a stream
// that joined the capture through an event, would not be). The count lets
// launches outside captures skip the lock.
namespace {
struct ActiveCapture {
  CUstream stream;
  std::vector<std::shared_ptr<ModuleState>> modules;
};
std::atomic<int> gActiveCaptures{0};
std::mutex gCaptureMutex;
std::vector<ActiveCapture> gCaptures; // guarded by gCaptureMutex
} // namespace

static void retainForCaptures(const std::shared_ptr<ModuleState> &module) {
  std::lock_guard<std::mutex> lock(gCaptureMutex);
  for (ActiveCapture &c : gCaptures)
    if (std::find(c.modules.begin(), c.modules.end(), module) ==
        c.modules.end())
      c.modules.push_back(module);
}

/// Starts recording the modules launched during the capture of `stream`.
static void registerCapture(CUstream stream) {
  std::lock_guard<std::mutex> lock(gCaptureMutex);
  gCaptures.push_back(ActiveCapture{stream, {}});
  gActiveCaptures.fetch_add(1, std::memory_order_relaxed);
}

/// Stops recording for `stream`'s capture and returns what it recorded
/// (nothing for a stream that was not registered).
static std::vector<std::shared_ptr<ModuleState>>
unregisterCapture(CUstream stream) {
  std::lock_guard<std::mutex> lock(gCaptureMutex);
  for (size_t i = 0; i < gCaptures.size(); ++i)
    if (gCaptures[i].stream == stream) {
      std::vector<std::shared_ptr<ModuleState>> modules =
          std::move(gCaptures[i].modules);
      gCaptures.erase(gCaptures.begin() + i);
      gActiveCaptures.fetch_sub(1, std::memory_order_relaxed);
      return modules;
    }
  return {};
}

const KernelInfo &Kernel::info() const {
  static const KernelInfo empty;
  return meta ? *meta : empty;
}

bool Kernel::usesVariant(const Arg *args, size_t numArgs) const {
  return variantFunc && module &&
         detail::launchArgsPassFast(module->kernelStates[variantIndex].plan,
                                    *variantMeta, args, numArgs);
}

CUfunction Kernel::functionFor(const Arg *args, size_t numArgs) const {
  return usesVariant(args, numArgs) ? variantFunc : func;
}

const KernelInfo &Kernel::infoFor(const Arg *args, size_t numArgs) const {
  return usesVariant(args, numArgs) ? *variantMeta : info();
}

Status Kernel::launch(const Grid &grid, const Arg *args, size_t numArgs,
                      CUstream stream) const {
  return detail::guarded([&]() -> Status {
    if (!func || !module)
      return Status::error("launch of an empty Kernel (use Module::getKernel)");
    // The aligned variant where the arguments pass its checks (they differ
    // from this kernel's only in stronger facts), else this kernel, whose
    // checks then word any refusal.
    bool variant = usesVariant(args, numArgs);
    const KernelInfo &k = variant ? *variantMeta : *meta;
    KernelState &ks = module->kernelStates[variant ? variantIndex : index];
    CUfunction fn = variant ? variantFunc : func;
    const Context &ctx = *module->context;
    // The checks, each first as a comparison that builds nothing, then, when
    // that fails, as the function that decides and words the refusal.
    const GridLimits &limits = ctx.gridLimits();
    if (grid.x - 1u >= limits.x || grid.y - 1u >= limits.y ||
        grid.z - 1u >= limits.z) // 0 - 1u wraps: an empty grid fails too
      if (Status s = checkGrid(k.name, grid, limits); !s.ok())
        return s;
    if (!detail::launchArgsPassFast(ks.plan, k, args, numArgs))
      if (Status s = checkLaunchArgs(k, args, numArgs); !s.ok())
        return s;
    if (Status s = ctx.makeCurrent(); !s.ok())
      return s;
    if (ks.needsSharedConfig &&
        !ks.sharedConfigured.load(std::memory_order_acquire))
      if (Status s = configureSharedMemory(ks, k, fn, ctx); !s.ok())
        return s;
    if (gActiveCaptures.load(std::memory_order_relaxed) > 0)
      retainForCaptures(module);
    if (!ks.plan.simple)
      return launchWithDescriptors(k, ks, fn, grid, args, numArgs, stream);

    // Pointers and scalars only: kernelParams is one pointer per argument
    // to its value (Arg keeps it in the low bytes of a little-endian
    // uint64_t).
    void *inlineParams[kInlineParams];
    std::vector<void *> heapParams;
    void **params = inlineParams;
    if (numArgs > kInlineParams) {
      heapParams.resize(numArgs);
      params = heapParams.data();
    }
    for (size_t i = 0; i < numArgs; ++i)
      params[i] = const_cast<void *>(args[i].data());
    return launchFunction(k, ks, fn, grid, numArgs ? params : nullptr,
                          stream);
  });
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

namespace tilec {
/// What Graph copies share: the captured graph and its executable
/// instantiation, destroyed with the last copy (in the graph's context).
struct GraphState {
  std::shared_ptr<Context> context;
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  /// The modules of the captured kernels, unloaded (with the last other
  /// reference) only after the graph is destroyed.
  std::vector<std::shared_ptr<ModuleState>> modules;

  ~GraphState() {
    if (!graph && !exec)
      return;
    // Errors are ignored: at process exit the driver may already be gone.
    if (cuCtxPushCurrent(context->handle()) == CUDA_SUCCESS) {
      if (exec)
        (void)cuGraphExecDestroy(exec);
      if (graph)
        (void)cuGraphDestroy(graph);
      CUcontext popped;
      (void)cuCtxPopCurrent(&popped);
    }
  }
};
} // namespace tilec

static constexpr const char *kCaptureWhat = "graph capture";

Status Graph::beginCapture(std::shared_ptr<Context> context, CUstream stream) {
  return detail::guarded([&]() -> Status {
    if (!context)
      return Status::error("graph capture: no context");
    if (Status s = detail::checkCaptureStream(stream, kCaptureWhat); !s.ok())
      return s;
    if (Status s = context->makeCurrent(); !s.ok())
      return s;
    TILEC_CU(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
             kCaptureWhat);
    registerCapture(stream);
    return Status::success();
  });
}

Status Graph::endCapture(std::shared_ptr<Context> context, CUstream stream,
                         Graph &out) {
  return detail::guarded([&]() -> Status {
    if (!context)
      return Status::error("graph capture: no context");
    if (Status s = detail::checkCaptureStream(stream, kCaptureWhat); !s.ok())
      return s;
    if (Status s = context->makeCurrent(); !s.ok())
      return s;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    TILEC_CU(cuStreamIsCapturing(stream, &status), kCaptureWhat);
    if (status == CU_STREAM_CAPTURE_STATUS_NONE)
      return Status::error("graph capture: the stream is not capturing (begin "
                           "the capture first)");
    auto state = std::make_shared<GraphState>();
    state->context = context;
    state->modules = unregisterCapture(stream);
    // An invalidated capture (an operation the capture cannot record, or
    // an unsafe call in the capturing thread) fails here and has no graph.
    TILEC_CU(cuStreamEndCapture(stream, &state->graph), kCaptureWhat);
    TILEC_CU(cuGraphInstantiate(&state->exec, state->graph, 0), kCaptureWhat);
    out.state = std::move(state);
    return Status::success();
  });
}

Status Graph::capture(std::shared_ptr<Context> context, CUstream stream,
                      const std::function<Status(CUstream)> &launches,
                      Graph &out) {
  return detail::guarded([&]() -> Status {
    if (!launches)
      return Status::error("graph capture: no launches to capture (an empty "
                           "function)");
    if (Status s = beginCapture(context, stream); !s.ok())
      return s;
    Status inner;
    try {
      inner = launches(stream);
    } catch (const std::exception &e) {
      inner = Status::error(std::string("graph capture: the launches threw: ") +
                            e.what());
    } catch (...) {
      inner = Status::error("graph capture: the launches threw");
    }
    if (!inner.ok()) {
      // End the capture and discard what it recorded.
      CUgraph partial = nullptr;
      if (cuStreamEndCapture(stream, &partial) == CUDA_SUCCESS && partial)
        (void)cuGraphDestroy(partial);
      (void)unregisterCapture(stream);
      return inner;
    }
    return endCapture(std::move(context), stream, out);
  });
}

Status Graph::launch(CUstream stream) const {
  return detail::guarded([&]() -> Status {
    if (!state || !state->exec)
      return Status::error("launch of an empty Graph (use Graph::capture)");
    if (Status s = state->context->makeCurrent(); !s.ok())
      return s;
    TILEC_CU(cuGraphLaunch(state->exec, stream), "graph");
    return Status::success();
  });
}

CUgraph Graph::graph() const { return state ? state->graph : nullptr; }
CUgraphExec Graph::executable() const { return state ? state->exec : nullptr; }
