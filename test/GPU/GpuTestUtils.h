//===- GpuTestUtils.h - Shared helpers of the GPU test harness --*- C++ -*-===//
//
// What the GPU test files (GpuTests.cpp, DotTests.cpp) of tilec-gpu-tests
// share: case outcomes (FAIL / SKIP as exceptions), checked driver calls,
// device buffers that can be poisoned, the seeded generator, fp16, bf16 and fp8
// conversions done on the CPU, the comparison helpers and the environment a
// case runs in (kernel directory, seed, context). GpuTests.cpp registers the
// cases and holds main; each other file adds its cases through a function
// declared at the end of this header.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_GPU_GPUTESTUTILS_H
#define TILEC_TEST_GPU_GPUTESTUTILS_H

#include "tilec/Runtime.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <type_traits>
#include <vector>

namespace tilec {
namespace gputest {

//===----------------------------------------------------------------------===//
// Outcomes and checked driver calls
//===----------------------------------------------------------------------===//

/// Thrown inside a case to end it as FAIL with `what`.
struct CaseFailure {
  std::string what;
};
/// Thrown inside a case to end it as SKIP (missing kernel file). An
/// `expected` skip is a kernel the build deliberately left out (the tl.dot
/// kernels while TILEC_GPU_DOT_TESTS is off); any other is a packaging bug.
struct CaseSkip {
  std::string what;
  bool expected = false;
};

[[noreturn]] inline void failCase(std::string what) { throw CaseFailure{std::move(what)}; }

inline void check(const Status &s) {
  if (!s.ok())
    failCase(s.message());
}

#define CHECK_CU(CALL)                                                         \
  do {                                                                         \
    CUresult r_ = (CALL);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::string call_ = #CALL;                                               \
      check(Status::driverError(call_.substr(0, call_.find('(')).c_str(), r_));\
    }                                                                          \
  } while (0)

/// A device allocation freed at scope exit.
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes) : size(bytes) {
    CHECK_CU(cuMemAlloc(&ptr, bytes ? bytes : 1));
  }
  ~DeviceBuffer() {
    if (ptr)
      (void)cuMemFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  CUdeviceptr get() const { return ptr; }
  template <typename T> void upload(const std::vector<T> &host) {
    CHECK_CU(cuMemcpyHtoD(ptr, host.data(), host.size() * sizeof(T)));
  }
  template <typename T> std::vector<T> download(size_t count) const {
    std::vector<T> host(count);
    CHECK_CU(cuMemcpyDtoH(host.data(), ptr, count * sizeof(T)));
    return host;
  }
  /// Fills every byte with 0xFF: as fp32 that is a NaN no kernel produces
  /// from finite inputs.
  void poison() { fill(0xFF); }
  /// Fills every byte with `byte`.
  void fill(uint8_t byte) { CHECK_CU(cuMemsetD8(ptr, byte, size)); }

private:
  CUdeviceptr ptr = 0;
  size_t size;
};

constexpr uint32_t kPoison32 = 0xFFFFFFFFu;

/// The host-side descriptor of a row-major [rows, cols] matrix at device
/// address `base` with `ld` elements between rows (Arg::tensorDesc).
inline TensorDesc rowMajorDesc(uint64_t base, int rows, int cols, int ld) {
  TensorDesc d;
  d.base = base;
  d.rank = 2;
  d.shape[0] = rows;
  d.shape[1] = cols;
  d.strides[0] = ld;
  d.strides[1] = 1;
  return d;
}

//===----------------------------------------------------------------------===//
// Random inputs and fp16
//===----------------------------------------------------------------------===//

/// SplitMix64: fast, and the same sequence on every platform (std::
/// distributions are not).
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-4, 4] with |v| >= 1/16: never zero, never tiny.
  float value() {
    while (true) {
      float v = float(int64_t(next() >> 40) - (int64_t(1) << 23)) *
                (4.0f / float(1 << 23));
      if (std::fabs(v) >= 1.0f / 16)
        return v;
    }
  }
};

inline std::vector<float> randomFloats(Rng &rng, size_t n) {
  std::vector<float> v(n);
  for (float &x : v)
    x = rng.value();
  return v;
}

inline uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float bitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

/// `v >> s` rounded to nearest, ties to even.
inline uint32_t shiftRightRNE(uint32_t v, unsigned s) {
  if (s == 0)
    return v;
  if (s >= 32)
    return 0;
  uint32_t q = v >> s;
  uint32_t rem = v & ((1u << s) - 1);
  uint32_t half = 1u << (s - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  return q;
}

/// IEEE binary32 -> binary16, round to nearest even (overflow to infinity,
/// gradual underflow to subnormals, NaN kept quiet).
inline uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000);
  uint32_t absx = x & 0x7FFFFFFF;
  if (absx >= 0x7F800000) // inf or NaN
    return sign | (absx > 0x7F800000 ? 0x7E00 : 0x7C00);
  int exp = int(absx >> 23) - 127;
  if (exp >= -14) {
    // Normal half: rebias and drop 13 mantissa bits; a carry out of the
    // mantissa bumps the exponent, up to infinity (0x7C00).
    if (exp > 15)
      return sign | 0x7C00;
    uint32_t v = (uint32_t(exp + 15) << 23) | (absx & 0x7FFFFF);
    uint32_t h = shiftRightRNE(v, 13);
    return sign | uint16_t(h >= 0x7C00 ? 0x7C00 : h);
  }
  if (absx < 0x00800000) // float subnormal: far below half's smallest
    return sign;
  // Subnormal half: value = m * 2^(exp-23) = (m >> (-(exp+1))) * 2^-24.
  uint32_t m = (absx & 0x7FFFFF) | 0x800000;
  return sign | uint16_t(shiftRightRNE(m, unsigned(-(exp + 1))));
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F;
  uint32_t mant = h & 0x3FF;
  if (exp == 0x1F)
    return bitsFloat(sign | 0x7F800000 | (mant << 13));
  if (exp == 0)
    return bitsFloat(sign) + (sign ? -1.0f : 1.0f) * float(mant) *
                                 std::ldexp(1.0f, -24);
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// IEEE binary32 -> bfloat16, round to nearest even (finite inputs).
inline uint16_t floatToBf16(float f) {
  uint32_t x = floatBits(f);
  return uint16_t((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}
inline float bf16ToFloat(uint16_t v) { return bitsFloat(uint32_t(v) << 16); }

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

inline std::string describe(uint32_t bits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g (0x%08x)", double(bitsFloat(bits)),
                bits);
  return buf;
}

/// Compares `found[begin, end)` bit for bit with `expected(i)`.
template <typename F>
void expectRange(const std::vector<uint32_t> &found, size_t begin, size_t end,
                 F expected, const char *what = "index") {
  for (size_t i = begin; i < end; ++i) {
    uint32_t want = floatBits(expected(i));
    if (found[i] != want)
      failCase(std::string(what) + " " + std::to_string(i) + ": expected " +
               describe(want) + ", found " + describe(found[i]) +
               (found[i] == kPoison32 ? " (never written)" : ""));
  }
}

/// Requires `found[begin, end)` to still hold the poison (all bits set:
/// 32-bit or 16-bit elements).
template <typename T>
inline void expectUntouched(const std::vector<T> &found, size_t begin,
                            size_t end, const char *what) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint16_t>);
  for (size_t i = begin; i < end; ++i)
    if (found[i] != T(~T(0)))
      failCase(std::string(what) + " " + std::to_string(i) +
               " was written: expected the poison (all bits set), found " +
               describe(uint32_t(found[i])));
}

inline unsigned cdiv(uint64_t a, uint64_t b) { return unsigned((a + b - 1) / b); }

/// Elements past the end of every 1-D output that must stay poisoned.
constexpr size_t kGuard = 256;

//===----------------------------------------------------------------------===//
// The test environment
//===----------------------------------------------------------------------===//

struct Env {
  std::shared_ptr<Context> context;
  std::string kernelDir;
  uint64_t seed = 0;
  bool verbose = false; // --verbose: cases may print `INFO <case>: ...` lines

  /// `<kernelDir>/<file>.ptx`, else `<kernelDir>/<file>.cu` (CUDA C++ from
  /// tilec --emit=cuda, compiled at load with NVRTC: the CUDA backend's
  /// differential run), else empty.
  std::string kernelPath(const std::string &file) const {
    struct stat st;
    for (const char *ext : {".ptx", ".cu"}) {
      std::string path = kernelDir + "/" + file + ext;
      if (::stat(path.c_str(), &st) == 0)
        return path;
    }
    return "";
  }

  /// Whether `<kernelDir>/<file>.ptx` (or `.cu`) exists.
  bool hasKernelFile(const std::string &file) const {
    return !kernelPath(file).empty();
  }

  /// The PTX of `<kernelDir>/<file>` with its metadata lines: the `.ptx`
  /// file, or NVRTC's PTX of the `.cu`. A missing file skips the case.
  std::string kernelText(const std::string &file) const {
    std::string path = kernelPath(file);
    if (path.empty())
      throw CaseSkip{kernelDir + "/" + file + ".ptx not found"};
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    if (path.size() < 3 || path.compare(path.size() - 3, 3, ".cu") != 0)
      return text;
    std::string ptx;
    check(compileCUDAToPTX(text, "", ptx, path));
    return ptx;
  }

  /// Loads `<kernelDir>/<name>.ptx` and its kernel `name`.
  Kernel kernel(const std::string &name) const { return kernel(name, name); }

  /// Loads `<kernelDir>/<file>.ptx` and its kernel `name`.
  Kernel kernel(const std::string &file, const std::string &name) const {
    std::string path = kernelPath(file);
    if (path.empty())
      throw CaseSkip{kernelDir + "/" + file + ".ptx not found"};
    Module module;
    check(Module::loadFile(context, path, module));
    Kernel k;
    check(module.getKernel(name, k));
    return k;
  }

  /// A generator seeded from the run's seed and the case, so `--only` runs
  /// see the same inputs as a full run.
  Rng rng(const std::string &caseName) const {
    uint64_t h = seed;
    for (char c : caseName)
      h = (h ^ uint8_t(c)) * 0x100000001B3ull;
    return Rng{h};
  }

  void sync() const { CHECK_CU(cuCtxSynchronize()); }
};

/// fp8 (e4m3fn or e5m2) -> fp32 for finite encodings (NaN and infinity
/// patterns are not decoded: callers never produce them).
inline float fp8ToFloat(uint8_t v, bool e5) {
  const int mant = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  int exp = (v & 0x7F) >> mant, m = v & ((1 << mant) - 1);
  double r = exp == 0 ? std::ldexp(double(m), 1 - bias - mant)
                      : std::ldexp(1.0 + double(m) / (1 << mant), exp - bias);
  return float((v & 0x80) ? -r : r);
}

/// One test case: `name` is printed in the PASS / FAIL / SKIP line and
/// matched by --only.
struct TestCase {
  std::string name;
  bool big = false;     // skipped by --quick
  bool needsGpu = true; // CPU-only self tests run even without a GPU
  std::function<void(const Env &)> run;
};

/// Appends the tl.dot cases (DotTests.cpp).
void addDotCases(std::vector<TestCase> &cases);
/// The semantics-parity cases (SemanticsTests.cpp).
void addSemanticsCases(std::vector<TestCase> &cases);
/// The random-number cases and the CPU Philox self test (RandomTests.cpp).
void addRandomCases(std::vector<TestCase> &cases);
/// The tl.device_print / tl.device_assert cases (DebugTests.cpp), each run
/// in a child process: this executable with `--debug-child MODE DIR`,
/// which main hands to runDebugChild (argv: MODE, DIR).
void addDebugCases(std::vector<TestCase> &cases);
/// The fused attention forward cases and the CPU check of their reference
/// and tolerances (AttentionTests.cpp).
void addAttentionCases(std::vector<TestCase> &cases);
/// The MLP cases (linear, unfused and fused) and the CPU check of their
/// reference and tolerances (MlpTests.cpp).
void addMlpCases(std::vector<TestCase> &cases);
/// The operator-graph cases, fused and unfused, and CUDA Graph replay
/// (GraphTests.cpp).
void addGraphCases(std::vector<TestCase> &cases);

/// Loads tl.dot kernel `name` from `file`.ptx (DotTests.cpp): a SKIP while
/// the build leaves the dot kernels out (TILEC_GPU_DOT_TESTS off; tutorial
/// 03 while its source is not in the tree), a FAIL when a kernel the build
/// should have compiled is missing.
Kernel dotKernel(const Env &env, const std::string &file,
                 const std::string &name);
int runDebugChild(int argc, char **argv);

} // namespace gputest
} // namespace tilec

#endif // TILEC_TEST_GPU_GPUTESTUTILS_H
