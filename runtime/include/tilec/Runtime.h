//===- Runtime.h - Load and launch tilec kernels (C++ API) -------*- C++ -*-===//
//
// The C++ API of the tilec runtime: a primary-context handle, modules loaded
// from PTX text (metadata in its comment lines) or from a cubin and its JSON
// sidecar, kernels that check their arguments against the typed signature
// the compiler records before calling cuLaunchKernel, and CUDA graphs
// captured from launches. The runtime uses only the CUDA driver API (cuda.h,
// libcuda.so.1) and nothing of the compiler. No function here throws, exits or
// aborts: every fallible call returns a tilec::Status whose message names the
// driver call, its cuGetErrorName text and the kernel. The pure parts
// (signature and metadata parsing and printing, launch-argument and grid
// checks) need no driver and are unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_H
#define TILEC_RUNTIME_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

/// The result of a fallible runtime call: ok, or an error with a message.
/// A driver failure also records the driver call's name (e.g. "cuInit") and
/// its CUresult, so a caller can tell "no driver/GPU" from other failures.
class [[nodiscard]] Status {
public:
  /// An ok status (no allocation: an ok Status is a null pointer, so the
  /// launch path's statuses cost nothing).
  Status() = default;
  Status(const Status &other) : rep(copy(other.rep.get())) {}
  Status &operator=(const Status &other) {
    if (this != &other)
      rep.reset(copy(other.rep.get()));
    return *this;
  }
  Status(Status &&) noexcept = default;
  Status &operator=(Status &&) noexcept = default;
  ~Status() = default;
  static Status success() { return Status(); }
  /// An error with `message` (lowercase, no trailing period).
  static Status error(std::string message);
  /// An error from driver call `call` that returned `result`, formatted as
  /// "<call> failed[ for kernel '<kernel>']: <cuGetErrorName> (<cuGetErrorString>)".
  /// `context` is the rest of the " for ..." phrase ("kernel 'k'", "module 'm.ptx'"),
  /// or empty.
  static Status driverError(const char *call, CUresult result,
                            std::string_view context = {});
  /// Like driverError but with the error name and string already looked up;
  /// it does not touch the driver (unit tests use it).
  static Status formatDriverError(std::string_view call, int result,
                                  std::string_view errorName,
                                  std::string_view errorString,
                                  std::string_view context = {});

  /// Appends `text` to an error's message (no-op when ok), e.g. a JIT log.
  void appendToMessage(std::string_view text) {
    if (rep)
      rep->text += text;
  }

  bool ok() const { return !rep; }
  explicit operator bool() const { return ok(); }
  /// The error message; empty when ok.
  const std::string &message() const { return rep ? rep->text : empty(); }
  /// The driver call that failed ("" when the error is not a driver error).
  const std::string &driverCall() const { return rep ? rep->call : empty(); }
  /// The CUresult of the failed driver call (CUDA_SUCCESS otherwise).
  int driverResult() const { return rep ? rep->result : 0; }

private:
  struct Rep {
    int result = 0;
    std::string text;
    std::string call;
  };
  /// Frees a Rep (not the shared one of an allocation failure).
  struct RepDeleter {
    void operator()(Rep *rep) const noexcept;
  };
  static const std::string &empty();
  /// A new Rep, or on allocation failure a shared one saying "out of
  /// memory": never null, never throws.
  static Rep *make() noexcept;
  static Rep *copy(const Rep *rep) noexcept;
  static Rep *outOfMemory() noexcept;
  std::unique_ptr<Rep, RepDeleter> rep;
};

//===----------------------------------------------------------------------===//
// Signatures and kernel metadata
//===----------------------------------------------------------------------===//

/// Element and scalar types of the signature syntax (Triton's AOT spelling).
enum class ScalarType : uint8_t {
  I1, I8, I16, I32, I64, U8, U16, U32, U64,
  FP16, BF16, FP32, FP64, FP8E4NV, FP8E5
};

/// The signature spelling of `type` ("i32", "fp16", "fp8e4nv", ...).
const char *toString(ScalarType type);
/// The type spelled `name` (toString's inverse); false for another name.
bool parseScalarType(std::string_view name, ScalarType &out);
/// Size of a value of `type` in bytes (i1: 1).
unsigned byteSize(ScalarType type);
bool isInteger(ScalarType type);
bool isFloat(ScalarType type);
/// Width in bits of an integer type (i1: 1, i8/u8: 8, ...).
unsigned integerBitWidth(ScalarType type);
bool isSigned(ScalarType type);

/// One kernel parameter: `*T[:D]` (pointer to T, address a multiple of D
/// bytes), `T[:D]` / `T:1` (scalar, value a multiple of D / equal to 1), or
/// `tensordesc<T[B0,B1,...]>` (a host-side tensor descriptor of T elements
/// accessed in B0 x B1 x ... blocks, Triton's TensorDescriptor argument).
struct ParamType {
  bool isPointer = false;
  /// A tensor descriptor: `type` is its element type, `block` its block.
  bool isTensorDesc = false;
  ScalarType type = ScalarType::I32;
  /// Divisibility fact: a power of two > 1, or 0 when there is none.
  uint64_t divisibility = 0;
  /// The `:1` fact (integers only): the value equals 1.
  bool equalToOne = false;
  /// The block shape of a tensor descriptor (rank 1 to 5).
  std::vector<int64_t> block;
  /// A tensor descriptor the kernel reads with TMA (the metadata's `tma=`
  /// field): the box the launch encodes its CUtensorMap with
  /// (cuTensorMapEncodeTiled; outermost dimension first), the swizzle in
  /// bytes (32, 64 or 128) and NaN fill for out-of-bounds elements. An
  /// empty box: the kernel takes no tensor map for it.
  std::vector<int64_t> tmaBox;
  unsigned tmaSwizzle = 0;
  bool tmaNanFill = false;
  bool hasTensorMap() const { return isTensorDesc && !tmaBox.empty(); }

  /// The entry in signature syntax, e.g. "*fp32:16", "i32:1" or
  /// "tensordesc<fp16[64,64]>".
  std::string str() const;
  /// Parses one entry (no surrounding spaces). The error says what is
  /// wrong without naming the entry: malformed, unknown type, bad
  /// divisibility (not a power of two > 1), a fact on a type that cannot
  /// carry it, a descriptor block that is not a TMA box, scalar fp8
  /// (unimplemented). The one parser of the syntax: the compiler's front
  /// end uses it too.
  static Status parse(std::string_view entry, ParamType &out);
  /// Bytes the parameter occupies in the PTX parameter list (pointers: 8);
  /// a descriptor: its first PTX parameter's (the base pointer, 8).
  unsigned abiSize() const { return isPointer || isTensorDesc ? 8 : byteSize(type); }
  /// PTX parameters the entry occupies: 1, or 2 * rank for a descriptor
  /// (base pointer, rank i32 sizes, rank - 1 i64 strides in elements; the
  /// last stride is 1), plus its 128-byte CUtensorMap if it has one.
  unsigned numPtxParams() const {
    return isTensorDesc ? unsigned(2 * block.size()) + (hasTensorMap() ? 1 : 0)
                        : 1;
  }
  /// Bytes of the entry's PTX parameter `j` (0 <= j < numPtxParams()).
  unsigned ptxParamSize(unsigned j) const {
    if (!isTensorDesc || j == 0)
      return abiSize();
    if (j == 2 * block.size())
      return 128; // the tensor map
    return j <= block.size() ? 4 : 8;
  }
};

/// A kernel's parameter list, e.g. "*fp32:16,*fp32:16,*fp32:16,i32:16".
struct Signature {
  std::vector<ParamType> params;

  /// Parses a comma-separated signature. The empty string is a kernel with
  /// no parameters; otherwise no entry may be empty. Errors name the entry
  /// (1-based position and text): malformed entry, unknown type, bad
  /// divisibility (not a power of two > 1), a fact on a type that cannot
  /// carry it, scalar fp8 (unimplemented).
  static Status parse(std::string_view text, Signature &out);
  /// The canonical signature text (round-trips through parse).
  std::string str() const;
  /// The comma-separated entries of `text` (none for ""), unparsed and
  /// untrimmed: a comma inside brackets (`tensordesc<fp16[64,64]>`, a tuple
  /// value `(64, 2)` of a tilec --signature) does not separate them.
  static std::vector<std::string_view> splitEntries(std::string_view text);
};

/// A tensor map the launch encodes from the kernel's scalar arguments (the
/// metadata's `launch_maps=`): for a `tl.make_tensor_descriptor` made in
/// the kernel from its pointer argument `base`, with sizes and strides
/// that are integer expressions of its arguments, so that TMA reads and
/// writes through it. The kernel takes the maps after every signature
/// entry's parameters, in order.
struct LaunchMap {
  /// A postfix token: push argument `value` (a signature entry) or the
  /// constant `value`, or replace the top one or two values by their sum,
  /// difference, product (`width` bits, wrapping as the kernel's
  /// arithmetic does), signed maximum, sign or zero extension to 64 bits,
  /// or truncation to 32 bits.
  struct Token {
    enum Kind : uint8_t { Arg, Const, Add, Sub, Mul, Max, SExt, ZExt, Trunc };
    Kind kind = Const;
    /// Width in bits of the token's result: 32 or 64.
    uint8_t width = 64;
    int64_t value = 0;
  };
  using Expr = std::vector<Token>;
  /// The map as a descriptor entry: its element type, the box
  /// (`block` = `tmaBox`), swizzle and NaN fill.
  ParamType param;
  /// The signature entry of the base pointer.
  unsigned base = 0;
  /// The sizes (outermost first) and the strides in elements but the last,
  /// which is 1.
  std::vector<Expr> shape, strides;
};

/// What the compiler records about a kernel: the `// tilec.kernel` line.
struct KernelInfo {
  std::string name;
  unsigned numWarps = 0;
  /// Dynamic shared memory the kernel needs at launch, in bytes.
  uint32_t sharedBytes = 0;
  /// CTAs per thread-block cluster along x (`cluster=`; 1: none). A grid
  /// whose x is a multiple launches in clusters, any other without.
  unsigned clusterSize = 1;
  Signature signature;
  /// The signature text as written in the PTX.
  std::string signatureText;
  /// Tensor maps the launch encodes from the arguments (`launch_maps=`).
  std::vector<LaunchMap> launchMaps;
  /// The kernel's aligned variant (`aligned=`; empty: none): another kernel
  /// of the module that computes the same from the same arguments, compiled
  /// with stronger specialization facts (tilec's alignment versioning,
  /// docs/runtime.md). Kernel::launch runs it where the arguments satisfy
  /// its signature, this kernel elsewhere.
  std::string alignedVariant;
  /// Whether the loader may give the kernel a register limit
  /// (`maxnreg=auto`, tilec's default for kernels without tensor cores or a
  /// limit of their own): loading PTX (Module::loadPTX, and loadImage of
  /// PTX text), the runtime JIT-compiles it, reads each
  /// such kernel's registers and occupancy, and where that occupancy leaves
  /// registers unused, reloads the PTX with `.maxnreg` set to the budget of
  /// the same occupancy (occupancyRegisterBudget; docs/runtime.md,
  /// "Register budget").
  bool autoMaxNReg = false;
  /// The `.maxnreg` the loader gave the kernel (0: none). Set by
  /// Module::loadPTX, never parsed or printed.
  unsigned appliedMaxNReg = 0;
};

/// The register limit that keeps a kernel's occupancy: the most registers
/// a thread may use (a multiple of 8, or `maxRegsPerThread` where that is
/// less) while `ctasPerSM` CTAs of `numWarps` warps still fit in
/// `regsPerSM` registers, registers being allocated per warp in units of
/// 256 (8 a thread) from one of the SM's four sub-partitions (the CUDA
/// occupancy calculator's rule, cuda_occupancy.h, sm_70 to sm_120). Returns 0
/// when that budget is not above `numRegs` (a limit would change nothing), and
/// for zero inputs. The comparison is with `numRegs` itself, not rounded up to
/// the unit: at 60 registers a thread holds 64 already, and ptxas given
/// 64 uses them (the 8192-wide layer norm: +21%).
///
/// ptxas, given no limit, often uses fewer registers than the occupancy it
/// reaches allows; given this limit it keeps the occupancy and schedules
/// more loads ahead of their uses (the 16384-wide fp16 layer norm: 112 ->
/// 125 registers at 2 CTAs per SM, +22% bandwidth on an H100;
/// docs/performance.md).
unsigned occupancyRegisterBudget(unsigned numRegs, unsigned numWarps,
                                 unsigned ctasPerSM, unsigned regsPerSM,
                                 unsigned maxRegsPerThread = 255);

/// The CTAs of `numWarps` warps that `regsPerSM` registers hold at
/// `regsPerThread` registers a thread, allocated as for
/// occupancyRegisterBudget (its inverse), a CTA at most 64K; 0 for zero
/// inputs or a CTA that does not fit. The register limit only: the SM's
/// warp and CTA slots and shared memory are the caller's to apply.
unsigned registerLimitedCTAs(unsigned regsPerThread, unsigned numWarps,
                             unsigned regsPerSM);

/// Sets `.maxnreg maxnreg` (PTX ISA 11.4.2, a performance-tuning
/// directive) on the entry `kernel` of `ptx`, just before its body.
/// Errors: no `.entry kernel(` in the text, an entry without a body, an
/// entry that already has `.maxnreg`, `.minnctapersm` or `.maxnctapersm`,
/// or `maxnreg` outside [16, 255].
Status setEntryMaxNReg(std::string &ptx, std::string_view kernel,
                       unsigned maxnreg);

/// The line prefix of kernel metadata in PTX text.
inline constexpr std::string_view kMetadataPrefix = "// tilec.kernel";

/// Parses one metadata line, exactly
/// `// tilec.kernel name=<id> num_warps=<1..32> shared=<bytes> [cluster=2]
/// [aligned=<id>] [maxnreg=auto] [tma=<maps>] [launch_maps=<lmaps>]
/// signature=<sig>` (single spaces, keys in this order; a trailing '\r' is
/// ignored). `cluster` is the kernel's CTAs per cluster (Kernel::launch),
/// `aligned` its aligned variant (KernelInfo::alignedVariant), `maxnreg=auto`
/// KernelInfo::autoMaxNReg. `maps`
/// lists the tensor descriptors read with TMA, `;`-separated, each
/// `P:B0xB1...:SW[:nan]`: the 0-based signature entry (a `tensordesc`),
/// the box (outermost first; each 1..256 and dividing the block), the
/// swizzle in bytes (32, 64, 128: the box's innermost extent). `lmaps`
/// lists the launch maps (LaunchMap), `;`-separated, each
/// `T:B0xB1...:SW:P:S0,S1,...:R0,...[:nan]`: the element type, box and
/// swizzle as above, the base's signature entry (a pointer to T), the
/// sizes and the strides but the last as postfix expressions whose
/// `.`-separated tokens are `aN` (signature entry N, an i32, u32, i64 or
/// u64), `cV` (a decimal constant), `add32`, `sub32`, `mul32`, `add64`,
/// `sub64`, `mul64`, `sext`, `zext` (32 to 64 bits) and `trunc` (64 to 32).
Status parseKernelMetadataLine(std::string_view line, KernelInfo &out);

/// Collects every `// tilec.kernel` line of a PTX text. Errors carry the
/// 1-based line number; a kernel named twice is an error.
Status parseKernelMetadata(std::string_view ptx, std::vector<KernelInfo> &out);

/// The metadata line of `info`, without a newline: parseKernelMetadataLine's
/// inverse. A line the compiler writes comes back byte for byte, and
/// parsing the result gives `info` again. `cluster=` is printed when
/// clusterSize > 1, `tma=` and `launch_maps=` when there are maps (the
/// expressions in their token syntax); the signature is `signatureText`
/// (the canonical `signature.str()` when that is empty).
std::string formatKernelMetadataLine(const KernelInfo &info);

/// The JSON sidecar of a module's kernels, the metadata of a cubin (which
/// has no comment lines):
/// `{"format": "tilec-kernels", "version": 1, "kernels": [{"name": "k",
/// "num_warps": 4, "shared": 0, "cluster": 1, "signature": "*fp32:16,i32",
/// "tma": "", "launch_maps": ""}, ...]}`, two-space indented, keys in this
/// order, ending with a newline. `tma` and `launch_maps` are the values of
/// the line's fields ("" for none); a kernel with an aligned variant also
/// has `"aligned": "<name>"`, and one with `maxnreg=auto` has
/// `"maxnreg": "auto"` (last). A cubin's registers were fixed when ptxas
/// assembled it (tilec's assembleCubin applies the register budget then):
/// the loader acts on `"maxnreg": "auto"` only where the image is PTX.
std::string kernelMetadataToJson(const std::vector<KernelInfo> &kernels);

/// Parses a sidecar (kernelMetadataToJson's format), validating each field
/// exactly as parseKernelMetadataLine does. `name`, `num_warps`, `shared`
/// and `signature` are required; `cluster` (1 or 2), `tma`, `launch_maps`
/// `aligned` and `maxnreg` (`"auto"`) default to 1, "", "", "" and "";
/// unknown keys are ignored. Errors
/// start "kernel metadata JSON: " and name the kernel and field, e.g.
/// "kernel metadata JSON: kernel 0 'add': 'num_warps' must be an integer
/// in [1, 32], found \"x\""; invalid JSON, a wrong `format` or `version`,
/// a missing or mistyped key and a second kernel of one name are errors.
Status parseKernelMetadataJson(std::string_view json,
                               std::vector<KernelInfo> &out);

/// Where the sidecar of the cubin at `path` lives: `path` with its
/// `.cubin` suffix replaced by `.json` (`path + ".json"` without one).
std::string kernelMetadataSidecarPath(std::string_view path);

/// Compiles CUDA C++ `source` -- as `tilec --emit=cuda` writes it: one
/// self-contained file, its `// tilec.kernel` lines first -- to PTX with
/// NVRTC for `arch` (a virtual architecture, "compute_90a"; empty: the one
/// the file's "Generated by tilec for sm_XY" line names, else
/// compute_80). NVRTC is loaded at the first call, with dlopen
/// ($TILEC_NVRTC, libnvrtc.so.13, .12, libnvrtc.so, then
/// $CUDA_HOME/lib64 and /usr/local/cuda/lib64), so a host without it still
/// loads PTX; where it is missing the error says so. A compile error's
/// message ends with NVRTC's log (`<displayName>(line): error: ...`). The
/// PTX starts with the source's `// tilec.` lines (kernels and graphs), so
/// it loads as tilec's own PTX does (Module::loadPTX,
/// GraphProgram::loadPTX).
Status compileCUDAToPTX(std::string_view source, std::string_view arch,
                        std::string &ptx,
                        std::string_view displayName = "<cuda>");

/// The NVRTC compileCUDAToPTX uses, as "nvrtc MAJOR.MINOR (library)", or
/// "none" where it cannot be loaded: what the JIT's cache keys of CUDA C++
/// compiles include (another NVRTC makes other PTX).
std::string nvrtcIdentity();

//===----------------------------------------------------------------------===//
// Launch arguments and checks
//===----------------------------------------------------------------------===//

/// The kind of a launch argument. The numbering is the C API's
/// `tilec_arg_kind` (runtime.h); keep the two in sync.
enum class ArgKind : int32_t {
  Pointer = 0,
  I1 = 1, I8 = 2, I16 = 3, I32 = 4, I64 = 5,
  U8 = 6, U16 = 7, U32 = 8, U64 = 9,
  F16 = 10, BF16 = 11, F32 = 12, F64 = 13,
  TensorDesc = 14,
};

/// A host-side tensor descriptor, the argument of a `tensordesc<T[...]>`
/// parameter (Triton's `TensorDescriptor(base, shape, strides,
/// block_shape)`): a `rank`-dimensional tensor of T at device address
/// `base`, `shape[d]` elements along dimension d, `strides[d]` elements
/// between neighbours along it. The launch checks what TMA requires (and
/// Triton's TensorDescriptor asserts): rank equal to the block's, `base`
/// 16-byte aligned, 1 <= shape[d] < 2^31, the last stride 1 and the others
/// positive multiples of 16 bytes below 2^40 bytes. Layout-compatible with
/// the C API's `tilec_tensordesc`.
struct TensorDesc {
  uint64_t base = 0;
  uint32_t rank = 0;
  uint32_t pad = 0;
  int64_t shape[5] = {};
  int64_t strides[5] = {};
};

/// The name used in messages ("pointer", "i32", "f32", "f16", ...).
const char *toString(ArgKind kind);

/// A tagged launch argument. `bits` holds the value as the kernel receives
/// it in its low bytes (little-endian): integers sign- or zero-extended to 64
/// bits, floats as their IEEE bit pattern, pointers as the device address.
class Arg {
public:
  static Arg ptr(CUdeviceptr p) { return Arg(ArgKind::Pointer, p); }
  static Arg ptr(const void *p) {
    return Arg(ArgKind::Pointer, reinterpret_cast<uintptr_t>(p));
  }
  static Arg i1(bool v) { return Arg(ArgKind::I1, v ? 1 : 0); }
  static Arg i8(int8_t v) { return Arg(ArgKind::I8, uint64_t(int64_t(v))); }
  static Arg i16(int16_t v) { return Arg(ArgKind::I16, uint64_t(int64_t(v))); }
  static Arg i32(int32_t v) { return Arg(ArgKind::I32, uint64_t(int64_t(v))); }
  static Arg i64(int64_t v) { return Arg(ArgKind::I64, uint64_t(v)); }
  static Arg u8(uint8_t v) { return Arg(ArgKind::U8, v); }
  static Arg u16(uint16_t v) { return Arg(ArgKind::U16, v); }
  static Arg u32(uint32_t v) { return Arg(ArgKind::U32, v); }
  static Arg u64(uint64_t v) { return Arg(ArgKind::U64, v); }
  static Arg f32(float v);
  static Arg f64(double v);
  /// An IEEE binary16 value given as its bit pattern.
  static Arg f16bits(uint16_t bits) { return Arg(ArgKind::F16, bits); }
  /// A bfloat16 value given as its bit pattern.
  static Arg bf16bits(uint16_t bits) { return Arg(ArgKind::BF16, bits); }
  /// A tensor descriptor, by address: `*desc` must stay valid until the
  /// launch call returns (the launch copies what the kernel receives).
  static Arg tensorDesc(const TensorDesc *desc) {
    return Arg(ArgKind::TensorDesc, reinterpret_cast<uintptr_t>(desc));
  }
  /// The descriptor of a TensorDesc argument (null otherwise).
  const TensorDesc *tensorDesc() const {
    return argKind == ArgKind::TensorDesc
               ? reinterpret_cast<const TensorDesc *>(uintptr_t(value))
               : nullptr;
  }

  ArgKind kind() const { return argKind; }
  uint64_t bits() const { return value; }
  /// Address of the value's storage, as cuLaunchKernel's kernelParams wants.
  const void *data() const { return &value; }

private:
  Arg(ArgKind kind, uint64_t bits) : argKind(kind), value(bits) {}
  ArgKind argKind;
  uint64_t value;
};

/// Checks `args` against `info.signature` without touching the driver:
/// argument count; each kind against its entry (pointer vs integer vs float;
/// integers by width, signedness ignored; floats by exact format); and each
/// specialization fact (pointer alignment in bytes, integer divisibility,
/// equal to 1). Messages look like
/// "argument 3 of kernel 'add_kernel': expected i32, found f32".
Status checkLaunchArgs(const KernelInfo &info, const Arg *args, size_t numArgs);
inline Status checkLaunchArgs(const KernelInfo &info,
                              const std::vector<Arg> &args) {
  return checkLaunchArgs(info, args.data(), args.size());
}

/// The tensor `map` (one of `info.launchMaps`) reads for `args`, which
/// passed checkLaunchArgs: its base argument, and its sizes and strides
/// evaluated as the kernel computes them; then checked as a host-side
/// descriptor is (what TMA requires: base 16-byte aligned, sizes 1 to
/// 2^31 - 1, strides but the last positive multiples of 16 bytes below
/// 2^40). Messages name the map and its base argument, e.g. "launch map 0
/// of kernel 'k' (the tensor descriptor of argument 1): tensor descriptor
/// size 0 of dimension 1: expected 1 to 2^31 - 1".
Status evaluateLaunchMap(const KernelInfo &info, const LaunchMap &map,
                         const Arg *args, TensorDesc &out);

/// A launch grid, in blocks (programs).
struct Grid {
  unsigned x = 1, y = 1, z = 1;
};

/// The device's grid limits (CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_*); the
/// defaults are those of every GPU since compute capability 3.0.
struct GridLimits {
  unsigned x = 2147483647u, y = 65535u, z = 65535u;
};

/// Checks that each grid dimension is > 0 and within `limits`.
Status checkGrid(std::string_view kernelName, const Grid &grid,
                 const GridLimits &limits = GridLimits());

/// Checks that `info.sharedBytes` of dynamic shared memory fits the device's
/// opt-in maximum per block (`optinMaxBytes`) minus the kernel's static
/// shared memory (`staticBytes`).
Status checkSharedMemory(const KernelInfo &info, uint64_t staticBytes,
                         uint64_t optinMaxBytes);

//===----------------------------------------------------------------------===//
// Context, Module, Kernel (driver objects)
//===----------------------------------------------------------------------===//

/// A device's primary context, retained for the lifetime of the object (and
/// of every module and kernel made from it). Using the primary context means
/// a runtime used from Python shares PyTorch's context and allocations.
class Context {
public:
  /// Calls cuInit, retains device `ordinal`'s primary context and makes it
  /// current on the calling thread. When the machine has no driver or GPU the
  /// error's driverCall() is "cuInit" or "cuDeviceGet".
  static Status create(int ordinal, std::shared_ptr<Context> &out);
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// Makes this context current on the calling thread (no-op if it is).
  Status makeCurrent() const;
  /// Waits for all work on the context (cuCtxSynchronize), flushing device
  /// printf output (tl.device_print) to stdout. A kernel that failed while
  /// running reports here: a failed device assertion is
  /// CUDA_ERROR_ASSERT (driverResult() 710), after which the context is
  /// unusable; the runtime returns it, it never aborts.
  Status synchronize() const;
  CUcontext handle() const { return ctx; }
  CUdevice device() const { return dev; }
  int ordinal() const { return deviceOrdinal; }
  const std::string &deviceName() const { return name; }
  /// Compute capability, e.g. 90 for sm_90.
  int computeCapability() const { return cc; }
  const GridLimits &gridLimits() const { return limits; }
  /// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, in bytes.
  uint64_t sharedOptinMaxBytes() const { return sharedOptin; }

private:
  Context() = default;
  CUcontext ctx = nullptr;
  CUdevice dev = 0;
  int deviceOrdinal = 0;
  int cc = 0;
  std::string name;
  GridLimits limits;
  uint64_t sharedOptin = 48 * 1024;
};

class Kernel;
struct ModuleState;

/// A loaded module (PTX, cubin or fat binary) and its kernels' metadata.
class Module {
public:
  /// Parses the metadata lines of `ptx`, then JIT-compiles it with
  /// cuModuleLoadDataEx. On a JIT failure the message ends with the JIT
  /// error log. `displayName` names the module in messages (e.g. a file).
  /// Kernels marked `maxnreg=auto` get the register budget of their
  /// occupancy (KernelInfo::autoMaxNReg): a second JIT compile of the PTX
  /// with `.maxnreg` where that budget is above what they use.
  static Status loadPTX(std::shared_ptr<Context> context, std::string_view ptx,
                        Module &out, std::string_view displayName = "<ptx>");
  /// Loads `image` with cuModuleLoadDataEx, its kernels' metadata taken
  /// from `metadataJson` (the sidecar, parseKernelMetadataJson) and not from
  /// comments. The image is a cubin (ELF, as ptxas writes it), a fat binary,
  /// or PTX text (JIT-compiled as by loadPTX, register budgets included);
  /// its bytes are read during the call only. Errors: an empty image, the
  /// sidecar's ("module '<image>': kernel metadata JSON: ..."), the
  /// driver's (a cubin for another architecture:
  /// CUDA_ERROR_NO_BINARY_FOR_GPU).
  static Status loadImage(std::shared_ptr<Context> context,
                          std::string_view image, std::string_view metadataJson,
                          Module &out, std::string_view displayName = "<image>");
  /// Reads the file at `path` and loads it: a path ending in `.cubin` as
  /// loadImage does, with the sidecar kernelMetadataSidecarPath(path)
  /// (`k.cubin` -> `k.json`; a missing sidecar is an error that says so),
  /// a path ending in `.cu` as CUDA C++ (loadCUDA), any other as PTX with
  /// metadata lines (loadPTX).
  static Status loadFile(std::shared_ptr<Context> context,
                         const std::string &path, Module &out);
  /// Compiles CUDA C++ `source` (tilec --emit=cuda) with NVRTC
  /// (compileCUDAToPTX, for the architecture its header names) and loads
  /// the PTX with the source's metadata lines as loadPTX does. Errors:
  /// NVRTC missing, its compile log, then loadPTX's.
  static Status loadCUDA(std::shared_ptr<Context> context,
                         std::string_view source, Module &out,
                         std::string_view displayName = "<cuda>");

  Module() = default;
  bool isLoaded() const { return state != nullptr; }
  /// Metadata of every kernel in the module.
  const std::vector<KernelInfo> &kernels() const;
  /// Looks up `name`: it must have a metadata line and be in the module.
  /// Also checks, where the driver can say (cuFuncGetParamInfo, CUDA 12.4+),
  /// that the PTX parameter list matches the signature's ABI sizes. A
  /// kernel with an aligned variant (KernelInfo::alignedVariant) gets it
  /// too; the variant must be in the module with the same parameter types
  /// and no weaker facts.
  Status getKernel(std::string_view name, Kernel &out) const;

private:
  std::shared_ptr<ModuleState> state;
};

/// A kernel ready to launch: metadata plus its CUfunction. Copies share the
/// module, which stays loaded while any copy is alive.
class Kernel {
public:
  Kernel() = default;
  const KernelInfo &info() const;
  const std::string &name() const { return info().name; }
  const Signature &signature() const { return info().signature; }
  unsigned numWarps() const { return info().numWarps; }
  uint32_t sharedBytes() const { return info().sharedBytes; }
  CUfunction function() const { return func; }
  bool isValid() const { return func != nullptr; }

  /// Launches on `stream` (nullptr: the legacy default stream) with
  /// numWarps*32 threads per block and sharedBytes of dynamic shared memory
  /// (setting CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES once when above
  /// 48 KiB). Refuses, without calling the driver, a grid or an argument list
  /// that fails checkGrid / checkLaunchArgs. Asynchronous: errors during
  /// execution surface at the next synchronizing call. Thread-safe. A
  /// successful launch allocates nothing up to 64 PTX parameters, 32
  /// descriptor scalars and 4 tensor maps (docs/runtime.md, "Launch path").
  /// A kernel with an aligned variant launches the variant where the
  /// arguments satisfy the variant's signature (the row strides and
  /// pointers it assumes aligned are), itself elsewhere.
  Status launch(const Grid &grid, const Arg *args, size_t numArgs,
                CUstream stream = nullptr) const;
  Status launch(const Grid &grid, const std::vector<Arg> &args,
                CUstream stream = nullptr) const {
    return launch(grid, args.data(), args.size(), stream);
  }
  /// The function a launch with `args` runs: the aligned variant's where
  /// the kernel has one and the arguments satisfy its signature, else
  /// function().
  CUfunction functionFor(const Arg *args, size_t numArgs) const;
  /// The metadata of that function (the variant's shared memory and
  /// signature may differ from info()'s): what a host that launches
  /// functionFor() itself (cuLaunchKernel, a graph node) must use.
  const KernelInfo &infoFor(const Arg *args, size_t numArgs) const;
  /// Whether the kernel has an aligned variant (KernelInfo::alignedVariant).
  bool hasAlignedVariant() const { return variantFunc != nullptr; }

private:
  friend class Module;
  bool usesVariant(const Arg *args, size_t numArgs) const;
  std::shared_ptr<ModuleState> module;
  const KernelInfo *meta = nullptr;
  CUfunction func = nullptr;
  size_t index = 0;
  /// The aligned variant, when the kernel has one.
  const KernelInfo *variantMeta = nullptr;
  CUfunction variantFunc = nullptr;
  size_t variantIndex = 0;
};

struct GraphState;

/// A CUDA graph captured from a sequence of launches, instantiated and
/// ready to replay with one cuGraphLaunch. The graph holds the launches as
/// they were captured: their grids, their argument values and the tensor
/// maps encoded for them; a replay reads and writes the same device memory.
/// Copies share the graph, which is destroyed (cuGraphExecDestroy,
/// cuGraphDestroy) with the last one; they keep its context, and the
/// modules of the kernels launched during the capture, loaded.
class Graph {
public:
  /// Captures what `launches` enqueues on `stream` (Kernel::launch calls
  /// with that stream, or any other stream-ordered work) and instantiates
  /// it: beginCapture, `launches(stream)`, endCapture. When `launches`
  /// returns an error (or throws) the capture is ended and discarded and
  /// that error returned.
  static Status capture(std::shared_ptr<Context> context, CUstream stream,
                        const std::function<Status(CUstream)> &launches,
                        Graph &out);
  /// Starts capturing `stream` (cuStreamBeginCapture,
  /// CU_STREAM_CAPTURE_MODE_THREAD_LOCAL): until endCapture, work enqueued
  /// on it is recorded, not run. `stream` must be one made with
  /// cuStreamCreate (or the per-thread default stream): the legacy default
  /// stream (nullptr, CU_STREAM_LEGACY) cannot be captured ("graph capture:
  /// the legacy default stream (NULL) cannot be captured; ...").
  static Status beginCapture(std::shared_ptr<Context> context,
                             CUstream stream);
  /// Ends the capture of `stream`, on the thread that began it
  /// (cuStreamEndCapture), and instantiates the graph
  /// (cuGraphInstantiate). Errors: a stream not capturing, a capture the
  /// driver invalidated (CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, e.g. after
  /// a synchronizing call in the capturing thread).
  static Status endCapture(std::shared_ptr<Context> context, CUstream stream,
                           Graph &out);

  Graph() = default;
  bool isValid() const { return state != nullptr; }
  /// Replays the captured launches on `stream` (cuGraphLaunch);
  /// asynchronous, as a launch is.
  Status launch(CUstream stream) const;
  /// The captured graph and its instantiation (null when empty).
  CUgraph graph() const;
  CUgraphExec executable() const;

private:
  std::shared_ptr<GraphState> state;
};

} // namespace tilec

#endif // TILEC_RUNTIME_H
