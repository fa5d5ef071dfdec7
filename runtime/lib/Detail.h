//===- Detail.h - Driver-free internals shared in the runtime ---*- C++ -*-===//
//
// What Metadata.cpp, MetadataJson.cpp, LaunchChecks.cpp and Driver.cpp share
// without making it public API: the field parsers and printers of the
// `tilec.kernel` line (the JSON sidecar validates its fields with the same
// code), the per-kernel launch plan Module precomputes at load so that
// Kernel::launch does no allocation and little work on its success path, the
// check of a stream for graph capture, and the classification of a module
// image. All of it is pure (no driver calls): the unit tests include this
// header and link tilec_runtime_core. Never installed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_DETAIL_H
#define TILEC_RUNTIME_LIB_DETAIL_H

#include "tilec/GraphProgram.h"
#include "tilec/Runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::detail {

//===----------------------------------------------------------------------===//
// Cache values (Cache.cpp; the disk and the fleet cache frame theirs alike)
//===----------------------------------------------------------------------===//

/// `payload` framed for `key`: `magic` (8 bytes: a format tag and version),
/// the key's length (4 bytes, little-endian) and bytes, the payload's
/// length and the FNV-1a checksum of key and payload (8 bytes each), the
/// payload.
std::string frameCacheValue(const char (&magic)[8], std::string_view key,
                            std::string_view payload);
/// The size of the frame before the payload, for `key`.
size_t cacheValueHeaderSize(std::string_view key);
/// Why `value` is not a frame of `key` with `magic` ("" when it is: the
/// payload follows cacheValueHeaderSize(key) bytes): `notFramed` (another
/// format, or not a value at all), "is truncated", "holds another key",
/// "has trailing bytes", "fails its checksum".
std::string checkCacheValue(const char (&magic)[8], std::string_view key,
                            std::string_view value, const char *notFramed);

//===----------------------------------------------------------------------===//
// Graphs (GraphMetadata.cpp)
//===----------------------------------------------------------------------===//

/// GraphProgram::plan's evaluation, for `info` whose launch op i launches
/// `kernels[kernelOfOp[i]]` (entries for other ops unused).
Status planGraph(const GraphInfo &info, const std::vector<KernelInfo> &kernels,
                 const std::vector<unsigned> &kernelOfOp, const GraphArg *args,
                 size_t numArgs, const CUdeviceptr *intermediates,
                 std::vector<uint64_t> &allocBytes,
                 std::vector<GraphLaunch> &launches);

//===----------------------------------------------------------------------===//
// Metadata fields (Metadata.cpp)
//===----------------------------------------------------------------------===//

/// Whether `name` is a kernel name the metadata accepts (a PTX identifier:
/// [A-Za-z_$.][A-Za-z0-9_$.]*).
bool isKernelName(std::string_view name);
/// Parses the value of `tma=` into the tensor-map facts of `sig`'s
/// descriptor entries. Errors: "bad tma '<text>': <why>".
Status parseTMAField(std::string_view text, Signature &sig);
/// Parses the value of `launch_maps=` into `info.launchMaps` (the signature
/// must be parsed). Errors: "bad launch_maps '<text>': <why>".
Status parseLaunchMapsField(std::string_view text, KernelInfo &info);
/// The `tma=` value of `sig` ("" when no entry has a tensor map).
std::string formatTMAField(const Signature &sig);
/// The `launch_maps=` value of `info` ("" when it has none).
std::string formatLaunchMapsField(const KernelInfo &info);
/// The signature as the metadata carries it: `signatureText`, or the
/// canonical text of `signature` when that is empty.
std::string signatureTextOf(const KernelInfo &info);

//===----------------------------------------------------------------------===//
// Launch plan (LaunchChecks.cpp)
//===----------------------------------------------------------------------===//

/// The fast check of one signature entry: the argument kind that passes it
/// and the bits its value must have clear. Only exact kinds pass fast
/// (`Arg::i32` for `i32`, `Arg::u32` for `u32`); anything else, including
/// launches that checkLaunchArgs accepts (`Arg::u32(7)` for `i32`), falls
/// back to checkLaunchArgs, which decides and words the refusal.
struct ParamCheck {
  enum Class : uint8_t { Pointer, Integer, Float, TensorDesc };
  Class cls = Integer;
  ArgKind kind = ArgKind::I32;
  /// Pointer: alignment - 1 (the element size or the `:D` fact, the larger);
  /// integer: divisibility - 1 (0 without a fact).
  uint64_t zeroBits = 0;
  /// Integer: the low `width` bits of the value.
  uint64_t widthMask = ~uint64_t(0);
  /// Integer: the `:1` fact.
  bool equalToOne = false;
};

/// What Kernel::launch needs of a kernel's metadata, computed once when
/// its module loads: the per-entry fast checks and the parameter counts
/// that size its inline storage.
struct LaunchPlan {
  std::vector<ParamCheck> checks;
  /// PTX parameters: every signature entry's plus one tensor map per launch
  /// map.
  size_t numPtxParams = 0;
  /// Scalars that descriptor entries expand into (base, sizes, strides).
  size_t numExpanded = 0;
  /// CUtensorMaps the launch encodes (descriptors with `tma=` and launch
  /// maps).
  size_t numMaps = 0;
  /// Only pointer and scalar entries and no launch maps: one PTX parameter
  /// per argument, each the argument's own bytes.
  bool simple = true;
};

/// The launch plan of `info`.
LaunchPlan makeLaunchPlan(const KernelInfo &info);

/// True only when checkLaunchArgs(info, args, numArgs) would succeed, with
/// no allocation; false when it might not (then call checkLaunchArgs, which
/// decides and gives the message). `plan` is makeLaunchPlan(info).
bool launchArgsPassFast(const LaunchPlan &plan, const KernelInfo &info,
                        const Arg *args, size_t numArgs);

//===----------------------------------------------------------------------===//
// Graph capture and module images
//===----------------------------------------------------------------------===//

/// Refuses the streams that cannot be captured into a CUDA graph: the
/// legacy default stream (NULL or CU_STREAM_LEGACY). `what` names the
/// caller in the message ("graph capture", "tilec_graph_begin_capture").
Status checkCaptureStream(CUstream stream, std::string_view what);

/// What a module image holds, by its first bytes: an ELF cubin, a fat
/// binary (the 0xBA55ED50 magic), or otherwise PTX text.
enum class ImageKind { PTX, Cubin, Fatbin };
ImageKind classifyImage(std::string_view image);

} // namespace tilec::detail

#endif // TILEC_RUNTIME_LIB_DETAIL_H
