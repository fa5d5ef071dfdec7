//===- Driver.cpp - Contexts, modules and launches on the CUDA driver -*- C++ -*-===//
//
// The part of the runtime that calls the CUDA driver API: it retains a
// device's primary context (the one PyTorch and the CUDA runtime use, so
// pointers from either are valid here), JIT-loads PTX with
// cuModuleLoadDataEx and its error log, resolves kernels against their
// metadata and launches them after the pure checks of LaunchChecks.cpp.
// Every CUresult other than CUDA_SUCCESS becomes a Status naming the call,
// its cuGetErrorName text and the kernel or module involved.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime.h"

#include "Guard.h"

#include <fstream>
#include <sys/stat.h>
#include <mutex>
#include <sstream>

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
  return detail::guarded([&]() -> Status {
    CUcontext current = nullptr;
    std::string what = "device " + std::to_string(deviceOrdinal);
    TILEC_CU(cuCtxGetCurrent(&current), what);
    if (current != ctx)
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
/// What Module and Kernel share: the loaded CUmodule (unloaded when the last
/// Module or Kernel copy goes away) and its metadata.
struct ModuleState {
  std::shared_ptr<Context> context;
  CUmodule module = nullptr;
  std::string name;
  std::vector<KernelInfo> kernels;
  // Which kernels already had their dynamic shared-memory limit raised.
  std::mutex mutex;
  std::vector<char> sharedConfigured;
  // The tensor maps each kernel's launches encoded last (see
  // encodeTensorMapCached), guarded by `mutex`.
  struct CachedMap {
    size_t slot; // which of the kernel's maps
    TensorDesc desc;
    CUtensorMap map;
  };
  static constexpr size_t kMapCacheEntries = 16;
  struct MapCache {
    std::vector<CachedMap> entries;
    size_t next = 0; // the entry replaced next once full
  };
  std::vector<MapCache> mapCaches;

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

Status Module::loadPTX(std::shared_ptr<Context> context, std::string_view ptx,
                       Module &out, std::string_view displayName) {
  return detail::guarded([&]() -> Status {
    std::string what = "module '" + std::string(displayName) + "'";
    if (!context)
      return Status::error(what + ": no context");
    auto state = std::make_shared<ModuleState>();
    if (Status s = parseKernelMetadata(ptx, state->kernels); !s.ok())
      return Status::error(what + ": " + s.message());
    state->context = context;
    state->name = std::string(displayName);
    state->sharedConfigured.assign(state->kernels.size(), 0);
    state->mapCaches.resize(state->kernels.size());
    if (Status s = context->makeCurrent(); !s.ok())
      return s;

    // cuModuleLoadDataEx wants NUL-terminated PTX.
    std::string text(ptx);
    constexpr size_t kLogBytes = 64 * 1024;
    std::string errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
    CUjit_option options[] = {
        CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errorLog.data(), reinterpret_cast<void *>(kLogBytes - 1),
                      infoLog.data(), reinterpret_cast<void *>(kLogBytes - 1)};
    CUresult r = cuModuleLoadDataEx(&state->module, text.c_str(),
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
    out.state = std::move(state);
    return Status::success();
  });
}

Status Module::loadFile(std::shared_ptr<Context> context,
                        const std::string &path, Module &out) {
  return detail::guarded([&]() -> Status {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      return Status::error("cannot load '" + path +
                           "': it is a directory, not a PTX file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return Status::error("cannot open PTX file '" + path + "'");
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad())
      return Status::error("cannot read PTX file '" + path + "'");
    return loadPTX(std::move(context), buf.str(), out, path);
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
    std::string what = "kernel '" + info.name + "'";
    if (Status s = state->context->makeCurrent(); !s.ok())
      return s;
    CUfunction func = nullptr;
    TILEC_CU(cuModuleGetFunction(&func, state->module, info.name.c_str()), what);
    if (Status s = checkParamABI(info, func); !s.ok())
      return s;
    out.module = state;
    out.meta = &info;
    out.func = func;
    out.index = index;
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
static Status encodeTensorMapCached(ModuleState &module, size_t kernel,
                                    size_t slot, const ParamType &p,
                                    const TensorDesc &d, CUtensorMap &map) {
  ModuleState::MapCache &cache = module.mapCaches[kernel];
  {
    std::lock_guard<std::mutex> lock(module.mutex);
    for (const ModuleState::CachedMap &e : cache.entries)
      if (e.slot == slot && sameTensor(e.desc, d)) {
        map = e.map;
        return Status::success();
      }
  }
  if (Status s = encodeTensorMap(p, d, map); !s.ok())
    return s;
  std::lock_guard<std::mutex> lock(module.mutex);
  ModuleState::CachedMap entry{slot, d, map};
  if (cache.entries.size() < ModuleState::kMapCacheEntries) {
    cache.entries.push_back(entry);
  } else {
    cache.entries[cache.next] = entry;
    cache.next = (cache.next + 1) % ModuleState::kMapCacheEntries;
  }
  return Status::success();
}

const KernelInfo &Kernel::info() const {
  static const KernelInfo empty;
  return meta ? *meta : empty;
}

Status Kernel::launch(const Grid &grid, const Arg *args, size_t numArgs,
                      CUstream stream) const {
  return detail::guarded([&]() -> Status {
    if (!func || !module)
      return Status::error("launch of an empty Kernel (use Module::getKernel)");
    const KernelInfo &k = *meta;
    const Context &ctx = *module->context;
    if (Status s = checkGrid(k.name, grid, ctx.gridLimits()); !s.ok())
      return s;
    if (Status s = checkLaunchArgs(k, args, numArgs); !s.ok())
      return s;
    if (Status s = ctx.makeCurrent(); !s.ok())
      return s;

    std::string what = "kernel '" + k.name + "'";
    constexpr uint32_t kDefaultSharedLimit = 48 * 1024;
    if (k.sharedBytes > kDefaultSharedLimit) {
      std::lock_guard<std::mutex> lock(module->mutex);
      if (!module->sharedConfigured[index]) {
        int staticBytes = 0;
        TILEC_CU(cuFuncGetAttribute(&staticBytes,
                                    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, func),
                 what);
        if (Status s = checkSharedMemory(k, uint64_t(staticBytes),
                                         ctx.sharedOptinMaxBytes());
            !s.ok())
          return s;
        TILEC_CU(cuFuncSetAttribute(func,
                                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    int(k.sharedBytes)),
                 what);
        module->sharedConfigured[index] = 1;
      }
    }

    // kernelParams: one pointer per PTX parameter to its value; Arg keeps
    // the value in the low bytes of a little-endian uint64_t. A tensor
    // descriptor expands into its base, sizes and strides (all but the
    // last), each in the low bytes of a uint64_t of `expanded`.
    // Launch maps (tensor descriptors the kernel makes from its
    // arguments) follow every entry's parameters.
    const std::vector<ParamType> &sig = k.signature.params;
    size_t numPtx = k.launchMaps.size(), numExpanded = 0;
    for (const ParamType &p : sig) {
      numPtx += p.numPtxParams();
      if (p.isTensorDesc)
        numExpanded += p.numPtxParams();
    }
    constexpr size_t kInline = 32;
    void *inlineParams[kInline];
    std::vector<void *> heapParams;
    void **params = inlineParams;
    if (numPtx > kInline) {
      heapParams.resize(numPtx);
      params = heapParams.data();
    }
    std::vector<uint64_t> expanded(numExpanded); // never resized below
    size_t numMaps = k.launchMaps.size();
    for (const ParamType &p : sig)
      numMaps += p.hasTensorMap() ? 1 : 0;
    std::vector<CUtensorMap> maps(numMaps); // 64-byte aligned elements
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
        if (Status s =
                encodeTensorMapCached(*module, index, slot, sig[i], d, map);
            !s.ok())
          return Status::error("argument " + std::to_string(i) +
                               " of kernel '" + k.name + "': " + s.message());
        params[ptx++] = &map;
      }
    }
    for (const LaunchMap &lm : k.launchMaps) {
      TensorDesc d;
      if (Status s = evaluateLaunchMap(k, lm, args, d); !s.ok())
        return s;
      size_t slot = nextMap;
      CUtensorMap &map = maps[nextMap++];
      if (Status s =
              encodeTensorMapCached(*module, index, slot, lm.param, d, map);
          !s.ok())
        return Status::error("launch map of kernel '" + k.name + "': " +
                             s.message());
      params[ptx++] = &map;
    }
    // A kernel compiled for clusters (cluster=2: pairs of CTAs along x
    // share TMA copies) launches in clusters when they tile the grid, and
    // otherwise without: each CTA then finds itself alone in its cluster
    // (%cluster_nctarank = 1) and copies everything itself.
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
      config.blockDimX = k.numWarps * 32;
      config.blockDimY = 1;
      config.blockDimZ = 1;
      config.sharedMemBytes = k.sharedBytes;
      config.hStream = stream;
      config.attrs = &attr;
      config.numAttrs = 1;
      TILEC_CU(cuLaunchKernelEx(&config, func, numPtx ? params : nullptr,
                                nullptr),
               what);
      return Status::success();
    }
    TILEC_CU(cuLaunchKernel(func, grid.x, grid.y, grid.z, k.numWarps * 32, 1, 1,
                            k.sharedBytes, stream, numPtx ? params : nullptr,
                            nullptr),
             what);
    return Status::success();
  });
}
