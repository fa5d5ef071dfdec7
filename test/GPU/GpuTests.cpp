//===- GpuTests.cpp - Run tilec-compiled kernels against CPU references -*- C++ -*-===//
//
// tilec-gpu-tests: loads the PTX files the compiler produced for the GPU test
// kernels (one kernel per file, file name = kernel name + ".ptx"), launches
// each through the tilec runtime and compares the result bit for bit with a
// CPU reference computed in the same fp32 operation order (this file is
// built with -ffp-contract=off so the CPU does not fuse a*b+c either).
// Inputs are random and never zero or tiny (fixed seed, printed); outputs are
// poisoned with 0xFF bytes (a NaN pattern) before every launch, so an element
// the kernel failed to write shows up, and guard elements past the end and
// padding between rows must still hold the poison afterwards. It also checks
// that the runtime refuses bad launches (argument count, misaligned pointer,
// broken divisibility, wrong kind) without touching memory.
//
// Usage: tilec-gpu-tests [KERNEL_DIR] [--only CASE[,CASE...]] [--quick]
//                        [--seed N] [--list] [--selftest] [--verbose]
// --only CASE runs one case (or every case of a kernel: --only add_kernel;
// several, comma-separated); --verbose lets cases print measured errors;
// --quick skips the 2^28+17 case (for compute-sanitizer); --selftest runs
// only the CPU-only cases, without touching the driver.
// KERNEL_DIR defaults to <directory of the executable>/../kernels. Output:
// one `PASS <case>` / `FAIL <case>: ...` / `SKIP <case>: ...` line per case and
// a closing `N passed, N failed` (`, N skipped` when any were). Exit codes: 0
// all passed (SKIPs of the tl.dot cases in a build without them included); 1
// a failure or a missing kernel file (a packaging bug); 77 no CUDA driver or
// GPU (ctest's and lit's "skipped"); 2 bad command line. The helpers shared
// with DotTests.cpp (the tl.dot cases) live in GpuTestUtils.h.
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtils.h"
#include "tilec/runtime_c.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace tilec;
using namespace tilec::gputest;

namespace {

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

/// out[i] = x[i] + y[i], BLOCK = 1024.
void runAdd(const Env &env, const std::string &caseName,
            const std::string &kernelName, size_t n,
            const std::string &file = "") {
  Kernel k = env.kernel(file.empty() ? kernelName : file, kernelName);
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, n), y = randomFloats(rng, n);
  DeviceBuffer dx(n * 4), dy(n * 4), dout((n + kGuard) * 4);
  dx.upload(x);
  dy.upload(y);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(dout.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(n + kGuard);
  expectRange(out, 0, n, [&](size_t i) { return x[i] + y[i]; });
  expectUntouched(out, n, n + kGuard, "guard element");
}

/// out[i] = float(a[i]) + float(b[i]) for fp16 a, b.
void runCvt(const Env &env, const std::string &caseName, size_t n) {
  Kernel k = env.kernel("cvt_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint16_t> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = floatToHalf(rng.value());
    b[i] = floatToHalf(rng.value());
  }
  DeviceBuffer da(n * 2), db(n * 2), dout((n + kGuard) * 4);
  da.upload(a);
  db.upload(b);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(da.get()), Arg::ptr(db.get()), Arg::ptr(dout.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(n + kGuard);
  expectRange(out, 0, n,
              [&](size_t i) { return halfToFloat(a[i]) + halfToFloat(b[i]); });
  expectUntouched(out, n, n + kGuard, "guard element");
}

/// out[i*so + j] = in[i*si + j] * 2 over a ragged M x N, BLOCK 16 x 64.
void runScale2d(const Env &env, const std::string &caseName) {
  const int M = 1000, N = 1001, strideIn = 1027, strideOut = 1040;
  Kernel k = env.kernel("scale2d_kernel");
  Rng rng = env.rng(caseName);
  // Input padding holds the poison too: a kernel reading it into a valid
  // element produces a NaN there.
  std::vector<float> in(size_t(M) * strideIn, bitsFloat(kPoison32));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      in[size_t(i) * strideIn + j] = rng.value();
  size_t outCount = size_t(M) * strideOut;
  DeviceBuffer din(in.size() * 4), dout((outCount + kGuard) * 4);
  din.upload(in);
  dout.poison();
  check(k.launch(Grid{cdiv(M, 16), cdiv(N, 64), 1},
                 {Arg::ptr(din.get()), Arg::ptr(dout.get()), Arg::i32(M),
                  Arg::i32(N), Arg::i32(strideIn), Arg::i32(strideOut)}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(outCount + kGuard);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < strideOut; ++j) {
      uint32_t found = out[size_t(i) * strideOut + j];
      std::string where = "(" + std::to_string(i) + ", " + std::to_string(j) +
                          ")";
      if (j >= N) {
        if (found != kPoison32)
          failCase("padding element " + where +
                   " was written: expected the poison 0xffffffff, found " +
                   describe(found));
        continue;
      }
      uint32_t want = floatBits(in[size_t(i) * strideIn + j] * 2.0f);
      if (found != want)
        failCase("index " + where + ": expected " + describe(want) +
                 ", found " + describe(found) +
                 (found == kPoison32 ? " (never written)" : ""));
    }
  }
  expectUntouched(out, outCount, outCount + kGuard, "guard element");
}

/// out[i] = sum over k of x[k*n + i], summed in k order from 0.0f.
void runColsum(const Env &env, const std::string &caseName) {
  const size_t n = 5000 + 3, K = 37;
  Kernel k = env.kernel("colsum_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, n * K);
  DeviceBuffer dx(x.size() * 4), dout((n + kGuard) * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 256), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dout.get()),
                  Arg::i32(int32_t(n)), Arg::i32(int32_t(K))}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(n + kGuard);
  expectRange(out, 0, n, [&](size_t i) {
    float acc = 0.0f;
    for (size_t kk = 0; kk < K; ++kk)
      acc += x[kk * n + i];
    return acc;
  });
  expectUntouched(out, n, n + kGuard, "guard element");
}

/// out[i] = x[i] * alpha with a scalar fp32 argument.
void runScale(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 1;
  const float alpha = 1.75f;
  Kernel k = env.kernel("scale_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, n);
  DeviceBuffer dx(n * 4), dout((n + kGuard) * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dout.get()), Arg::f32(alpha),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(n + kGuard);
  expectRange(out, 0, n, [&](size_t i) { return x[i] * alpha; });
  expectUntouched(out, n, n + kGuard, "guard element");
}

/// out[j*M + i] = in[i*N + j] over a ragged M x N in 32 x 32 tiles: the
/// load and the store want different layouts, so the tile crosses shared
/// memory (tile.convert_layout).
void runTranspose(const Env &env, const std::string &caseName) {
  const int M = 1000, N = 999;
  Kernel k = env.kernel("transpose_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> in = randomFloats(rng, size_t(M) * N);
  size_t count = size_t(M) * N;
  DeviceBuffer din(count * 4), dout((count + kGuard) * 4);
  din.upload(in);
  dout.poison();
  check(k.launch(Grid{cdiv(M, 32), cdiv(N, 32), 1},
                 {Arg::ptr(din.get()), Arg::ptr(dout.get()), Arg::i32(M),
                  Arg::i32(N)}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(count + kGuard);
  expectRange(out, 0, count, [&](size_t o) {
    size_t j = o / M, i = o % M;
    return in[i * N + j];
  });
  expectUntouched(out, count, count + kGuard, "guard element");
}

/// out[i] = x[i] + y[i] on bytes with 64-bit offsets; `n` may exceed 2^31.
/// Inputs are in [0, 63], so no sum equals the 0xFF poison.
void runAddI8(const Env &env, const std::string &caseName, size_t n) {
  Kernel k = env.kernel("add_i8_i64_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint8_t> x(n), y(n);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = rng.next();
    for (size_t b = 0; b < 8 && i + b < n; ++b) {
      x[i + b] = uint8_t(r >> (8 * b)) & 63;
      y[i + b] = uint8_t(r >> (8 * b + 2)) & 63;
    }
  }
  DeviceBuffer dx(n), dy(n), dout(n + kGuard);
  dx.upload(x);
  dy.upload(y);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(dout.get()),
                  Arg::i64(int64_t(n))}));
  env.sync();
  std::vector<uint8_t> out = dout.download<uint8_t>(n + kGuard);
  for (size_t i = 0; i < n; ++i) {
    uint8_t want = uint8_t(x[i] + y[i]);
    if (out[i] != want)
      failCase("index " + std::to_string(i) + ": expected " +
               std::to_string(want) + ", found " + std::to_string(out[i]) +
               (out[i] == 0xFF ? " (never written)" : ""));
  }
  for (size_t i = n; i < n + kGuard; ++i)
    if (out[i] != 0xFF)
      failCase("guard byte " + std::to_string(i) + " was written");
}

/// Compares float outputs with a float64 reference: |found - want| <=
/// atol + rtol * |want|, NaN where the reference is NaN.
void expectClose(const std::vector<uint32_t> &found, size_t index, double want,
                 double atol, double rtol, const std::string &what) {
  float f = bitsFloat(found[index]);
  bool ok = std::isnan(want) ? std::isnan(f)
                             : std::fabs(double(f) - want) <=
                                   atol + rtol * std::fabs(want);
  if (!ok) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "%s: expected %.9g (float64 reference), found %s%s",
                  what.c_str(), want, describe(found[index]).c_str(),
                  found[index] == kPoison32 ? " (never written)" : "");
    failCase(buf);
  }
}

/// Row-wise softmax over an M x N fp32 matrix with row strides, against
/// float64. Row 1 (when `infRow`) is all -inf, whose softmax is NaN (as in
/// torch and Triton: exp(-inf - -inf)).
void runSoftmax(const Env &env, const std::string &caseName,
                const std::string &kernelName, int M, int N, int block,
                bool persistent, bool infRow, int strideIn, int strideOut) {
  Kernel k = env.kernel(kernelName);
  Rng rng = env.rng(caseName);
  std::vector<float> in(size_t(M) * strideIn, bitsFloat(kPoison32));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      in[size_t(i) * strideIn + j] =
          (infRow && i == 1) ? -INFINITY : rng.value();
  size_t outCount = size_t(M) * strideOut;
  DeviceBuffer din(in.size() * 4), dout((outCount + kGuard) * 4);
  din.upload(in);
  dout.poison();
  unsigned grid = persistent ? std::min(M, 264) : unsigned(M);
  check(k.launch(Grid{grid, 1, 1},
                 {Arg::ptr(dout.get()), Arg::ptr(din.get()), Arg::i32(strideIn),
                  Arg::i32(strideOut), Arg::i32(M), Arg::i32(N)}));
  env.sync();
  (void)block;
  std::vector<uint32_t> out = dout.download<uint32_t>(outCount + kGuard);
  for (int i = 0; i < M; ++i) {
    const float *row = &in[size_t(i) * strideIn];
    double m = -INFINITY;
    for (int j = 0; j < N; ++j)
      m = std::max(m, double(row[j]));
    double sum = 0;
    for (int j = 0; j < N; ++j)
      sum += std::exp(double(row[j]) - m);
    for (int j = 0; j < strideOut; ++j) {
      size_t o = size_t(i) * strideOut + j;
      std::string where =
          "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      if (j >= N) {
        if (out[o] != kPoison32)
          failCase("padding element " + where + " was written");
        continue;
      }
      double want = (infRow && i == 1) ? NAN : std::exp(double(row[j]) - m) / sum;
      expectClose(out, o, want, 1e-7, 2e-5, "softmax " + where);
    }
  }
  expectUntouched(out, outCount, outCount + kGuard, "guard element");
}

/// Where a row-wise test puts its rows: the row stride in elements, and the
/// elements before the first row of the input and the output (0: the
/// buffers' own, 256-byte aligned, start). Kernels compiled from a plain
/// `i32` / `*fp32` signature get an aligned variant
/// (tile-version-alignment): the launch runs it where these are multiples
/// of 16 bytes, the kernel as written elsewhere.
struct RowLayout {
  int stride;
  int inOffset = 0, outOffset = 0;
};

/// Layer norm (or RMS norm) forward over M x N fp32 rows laid out as
/// `layout` says, against float64; also checks the saved mean and 1/std of
/// layer norm, and that nothing outside the rows was written.
void runNorm(const Env &env, const std::string &caseName,
             const std::string &kernelName, bool rms, int M, int N,
             RowLayout layout) {
  const int stride = layout.stride;
  const size_t xo = size_t(layout.inOffset), yo = size_t(layout.outOffset);
  const float eps = 1e-5f;
  Kernel k = env.kernel(kernelName,
                        rms ? "rms_norm_fwd_kernel" : "layer_norm_fwd_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x(xo + size_t(M) * stride, bitsFloat(kPoison32));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      x[xo + size_t(i) * stride + j] = rng.value() + 1.5f; // a non-zero mean
  std::vector<float> w = randomFloats(rng, N), bias = randomFloats(rng, N);
  size_t count = size_t(M) * stride;
  DeviceBuffer dx(x.size() * 4), dy((yo + count + kGuard) * 4), dw(N * 4),
      db(N * 4), dmean(M * 4), drstd(M * 4);
  dx.upload(x);
  dw.upload(w);
  db.upload(bias);
  dy.poison();
  dmean.poison();
  drstd.poison();
  CUdeviceptr px = dx.get() + xo * 4, py = dy.get() + yo * 4;
  std::vector<Arg> args =
      rms ? std::vector<Arg>{Arg::ptr(px), Arg::ptr(py), Arg::ptr(dw.get()),
                             Arg::i32(stride), Arg::i32(N), Arg::f32(eps)}
          : std::vector<Arg>{Arg::ptr(px), Arg::ptr(py), Arg::ptr(dw.get()),
                             Arg::ptr(db.get()), Arg::ptr(dmean.get()),
                             Arg::ptr(drstd.get()), Arg::i32(stride),
                             Arg::i32(N), Arg::f32(eps)};
  // Every kernel here reads and writes whole 16-byte vectors (4 floats)
  // exactly where the stride, the length and the rows' starts are
  // multiples of 4 elements: the launch must pick the variant then.
  bool aligned = stride % 4 == 0 && N % 4 == 0 && xo % 4 == 0 && yo % 4 == 0;
  if (!k.hasAlignedVariant())
    failCase("the kernel has no aligned variant (tile-version-alignment)");
  if ((k.functionFor(args.data(), args.size()) != k.function()) != aligned)
    failCase(std::string("the launch would run ") +
             (aligned ? "the kernel as written" : "the aligned variant") +
             " for this layout");
  check(k.launch(Grid{unsigned(M), 1, 1}, args));
  env.sync();
  std::vector<uint32_t> all = dy.download<uint32_t>(yo + count + kGuard);
  expectUntouched(all, 0, yo, "element before the output");
  std::vector<uint32_t> y(all.begin() + yo, all.end());
  std::vector<uint32_t> mean = dmean.download<uint32_t>(M);
  std::vector<uint32_t> rstd = drstd.download<uint32_t>(M);
  for (int i = 0; i < M; ++i) {
    const float *row = &x[xo + size_t(i) * stride];
    double mu = 0, sq = 0;
    for (int j = 0; j < N; ++j)
      mu += row[j];
    mu /= N;
    for (int j = 0; j < N; ++j)
      sq += rms ? double(row[j]) * row[j] : (row[j] - mu) * (row[j] - mu);
    double r = 1.0 / std::sqrt(sq / N + eps);
    if (!rms) {
      expectClose(mean, i, mu, 1e-5, 1e-5, "mean of row " + std::to_string(i));
      expectClose(rstd, i, r, 1e-5, 1e-5, "rstd of row " + std::to_string(i));
    }
    for (int j = 0; j < stride; ++j) {
      size_t o = size_t(i) * stride + j;
      std::string where =
          "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
      if (j >= N) {
        if (y[o] != kPoison32)
          failCase("padding element " + where + " was written");
        continue;
      }
      double want = rms ? row[j] * r * w[j] : (row[j] - mu) * r * w[j] + bias[j];
      expectClose(y, o, want, 2e-5, 2e-5, (rms ? "rms norm " : "layer norm ") + where);
    }
  }
  expectUntouched(y, count, count + kGuard, "guard element");
}

/// The loader's register budget (KernelInfo::autoMaxNReg): `<file>.ptx`
/// loaded as compiled and with its `maxnreg=auto` marks removed. Each
/// marked kernel must get exactly occupancyRegisterBudget of the unlimited
/// kernel's registers and occupancy (0 where there is no slack), use at
/// most that many registers, and keep at least that occupancy (ptxas may
/// use fewer registers under a limit, and then more CTAs fit). Which
/// kernels have slack is ptxas's choice: `expectSlack` where it was seen on
/// the GPU and the case should fail if it went. With `layerNormN` (an fp16
/// layer norm, BLOCK >= N), both modules also run it on 37 random rows of
/// N elements against float64.
void runRegisterBudget(const Env &env, const std::string &caseName,
                       const std::string &file, bool expectSlack,
                       int layerNormN = 0) {
  std::string path = env.kernelDir + "/" + file + ".ptx";
  std::ifstream in(path);
  if (!in)
    throw CaseSkip{path + " not found"};
  std::string ptx((std::istreambuf_iterator<char>(in)),
                  std::istreambuf_iterator<char>());
  std::string plain = ptx;
  for (size_t at; (at = plain.find(" maxnreg=auto")) != std::string::npos;)
    plain.erase(at, std::strlen(" maxnreg=auto"));
  if (plain == ptx)
    failCase("no kernel of " + file + " is marked maxnreg=auto");
  Module budgeted, unlimited;
  check(Module::loadPTX(env.context, ptx, budgeted, path));
  check(Module::loadPTX(env.context, plain, unlimited, path + " (plain)"));
  int regsPerSM = 0;
  CHECK_CU(cuDeviceGetAttribute(
      &regsPerSM, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
      env.context->device()));
  auto usage = [](const Kernel &k, int &regs, int &ctas) {
    CHECK_CU(
        cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, k.function()));
    CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(
        &ctas, k.function(), int(k.numWarps() * 32), k.sharedBytes()));
  };
  unsigned limited = 0;
  for (const KernelInfo &info : budgeted.kernels()) {
    Kernel a, b;
    check(budgeted.getKernel(info.name, a));
    check(unlimited.getKernel(info.name, b));
    int regsA = 0, ctasA = 0, regsB = 0, ctasB = 0;
    usage(a, regsA, ctasA);
    usage(b, regsB, ctasB);
    unsigned want =
        info.autoMaxNReg
            ? occupancyRegisterBudget(unsigned(regsB), info.numWarps,
                                      unsigned(ctasB), unsigned(regsPerSM))
            : 0;
    if (env.verbose)
      std::printf("INFO %s: %s: %d registers, %d CTAs/SM unlimited; "
                  ".maxnreg %u: %d registers, %d CTAs/SM\n",
                  caseName.c_str(), info.name.c_str(), regsB, ctasB,
                  info.appliedMaxNReg, regsA, ctasA);
    if (info.appliedMaxNReg != want)
      failCase(info.name + ": the loader set .maxnreg " +
               std::to_string(info.appliedMaxNReg) + ", expected " +
               std::to_string(want) + " (" + std::to_string(regsB) +
               " registers at " + std::to_string(ctasB) + " CTAs per SM)");
    if (want && (regsA > int(want) || ctasA < ctasB))
      failCase(info.name + ": with .maxnreg " + std::to_string(want) +
               " it uses " + std::to_string(regsA) + " registers at " +
               std::to_string(ctasA) +
               " CTAs per SM (unlimited: " + std::to_string(ctasB) + ")");
    if (!want && regsA != regsB)
      failCase(info.name + ": no limit was set, yet its registers changed");
    limited += want != 0;
  }
  if (expectSlack && limited == 0)
    failCase("no kernel of " + file + " had slack for a limit (expected one)");
  if (layerNormN == 0)
    return;
  const int M = 37, N = layerNormN;
  Rng rng = env.rng(caseName);
  std::vector<uint16_t> x(size_t(M) * N), w(N), bias(N);
  for (uint16_t &v : x)
    v = floatToHalf(rng.value() * 3.0f + 0.5f);
  for (int j = 0; j < N; ++j) {
    w[j] = floatToHalf(rng.value());
    bias[j] = floatToHalf(rng.value());
  }
  DeviceBuffer dx(x.size() * 2), dw(N * 2), db(N * 2);
  dx.upload(x);
  dw.upload(w);
  db.upload(bias);
  std::vector<double> want(x.size());
  for (int i = 0; i < M; ++i) {
    double mu = 0, var = 0;
    for (int j = 0; j < N; ++j)
      mu += halfToFloat(x[size_t(i) * N + j]);
    mu /= N;
    for (int j = 0; j < N; ++j) {
      double d = halfToFloat(x[size_t(i) * N + j]) - mu;
      var += d * d;
    }
    double rstd = 1.0 / std::sqrt(var / N + 1e-5);
    for (int j = 0; j < N; ++j)
      want[size_t(i) * N + j] =
          (halfToFloat(x[size_t(i) * N + j]) - mu) * rstd * halfToFloat(w[j]) +
          halfToFloat(bias[j]);
  }
  for (const Module *m : {&budgeted, &unlimited}) {
    Kernel k;
    check(m->getKernel("layer_norm_fwd_kernel", k));
    DeviceBuffer dy(x.size() * 2), dmean(M * 4), drstd(M * 4);
    dy.poison();
    check(k.launch(Grid{unsigned(M), 1, 1},
                   {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(dw.get()),
                    Arg::ptr(db.get()), Arg::ptr(dmean.get()),
                    Arg::ptr(drstd.get()), Arg::i32(N), Arg::i32(N),
                    Arg::f32(1e-5f)}));
    env.sync();
    std::vector<uint16_t> y = dy.download<uint16_t>(x.size());
    // fp16 output: its rounding (2^-11 relative) plus fp32 sums.
    for (size_t i = 0; i < x.size(); ++i) {
      double got = halfToFloat(y[i]);
      if (!(std::fabs(got - want[i]) <= 2e-3 + 2e-3 * std::fabs(want[i])))
        failCase(std::string(m == &budgeted ? "with" : "without") +
                 " the limit, element " + std::to_string(i) + ": " +
                 std::to_string(got) + ", expected " + std::to_string(want[i]));
    }
  }
}

/// The register budget on the cubin path: `budget_softmax_4096_true.cubin`
/// (tilec --emit=cubin: ptxas's own count, then `.maxnreg`) against
/// `..._false.cubin` (--auto-maxnreg=false). For each kernel (the softmax
/// and its aligned variant), the budget that the unlimited kernel's
/// registers and occupancy give on this GPU must be met (at most that many
/// registers, at least that occupancy), at least one kernel must have
/// slack, and both cubins must match float64 on 29 ragged rows.
void runCubinRegisterBudget(const Env &env, const std::string &caseName) {
  std::string stem = env.kernelDir + "/budget_softmax_4096_";
  struct stat st;
  if (::stat((stem + "true.cubin").c_str(), &st) != 0)
    throw CaseSkip{stem + "true.cubin not found (no ptxas at build time)"};
  Module budgeted, unlimited;
  check(Module::loadFile(env.context, stem + "true.cubin", budgeted));
  check(Module::loadFile(env.context, stem + "false.cubin", unlimited));
  int regsPerSM = 0;
  CHECK_CU(cuDeviceGetAttribute(
      &regsPerSM, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
      env.context->device()));
  unsigned slack = 0;
  for (const char *name : {"softmax_kernel", "softmax_kernel__aligned"}) {
    Kernel a, b;
    check(budgeted.getKernel(name, a));
    check(unlimited.getKernel(name, b));
    int regs[2], ctas[2];
    for (int i = 0; i < 2; ++i) {
      const Kernel &k = i == 0 ? a : b;
      CHECK_CU(cuFuncGetAttribute(&regs[i], CU_FUNC_ATTRIBUTE_NUM_REGS,
                                  k.function()));
      CHECK_CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &ctas[i], k.function(), int(k.numWarps() * 32), k.sharedBytes()));
    }
    unsigned budget = occupancyRegisterBudget(
        unsigned(regs[1]), 8, unsigned(ctas[1]), unsigned(regsPerSM));
    if (env.verbose)
      std::printf("INFO %s: %s: %d registers, %d CTAs/SM unlimited; budget "
                  "%u: %d registers, %d CTAs/SM\n",
                  caseName.c_str(), name, regs[1], ctas[1], budget, regs[0],
                  ctas[0]);
    if (ctas[0] < ctas[1] || (budget && regs[0] > int(budget)) ||
        (!budget && regs[0] != regs[1]))
      failCase(std::string(name) + ": " + std::to_string(regs[0]) +
               " registers at " + std::to_string(ctas[0]) +
               " CTAs per SM with the budget (" + std::to_string(budget) +
               "), " + std::to_string(regs[1]) + " at " +
               std::to_string(ctas[1]) + " without");
    slack += budget != 0;
  }
  if (slack == 0)
    failCase("neither kernel had slack for a limit (expected some)");
  const int M = 29, N = 3001, stride = 3005;
  Rng rng = env.rng(caseName);
  std::vector<float> in(size_t(M) * stride);
  for (float &v : in)
    v = rng.value() * 8.0f;
  DeviceBuffer din(in.size() * 4);
  din.upload(in);
  for (const Module *m : {&budgeted, &unlimited}) {
    Kernel k;
    check(m->getKernel("softmax_kernel", k));
    DeviceBuffer dout(in.size() * 4);
    dout.poison();
    check(k.launch(Grid{unsigned(M), 1, 1},
                   {Arg::ptr(dout.get()), Arg::ptr(din.get()), Arg::i32(stride),
                    Arg::i32(stride), Arg::i32(M), Arg::i32(N)}));
    env.sync();
    std::vector<uint32_t> out = dout.download<uint32_t>(in.size());
    for (int i = 0; i < M; ++i) {
      const float *row = &in[size_t(i) * stride];
      double mx = -INFINITY, sum = 0;
      for (int j = 0; j < N; ++j)
        mx = std::max<double>(mx, row[j]);
      for (int j = 0; j < N; ++j)
        sum += std::exp(double(row[j]) - mx);
      for (int j = 0; j < N; ++j)
        expectClose(out, size_t(i) * stride + j,
                    std::exp(double(row[j]) - mx) / sum, 1e-7, 2e-5,
                    std::string(m == &budgeted ? "with" : "without") +
                        " the budget, (" + std::to_string(i) + ", " +
                        std::to_string(j) + ")");
    }
  }
}

/// Layer-norm backward (tutorial 05): dx per row, and dw/db summed under a
/// spin lock into GROUP_SIZE_M = 32 partial rows (atomic_cas / atomic_xchg),
/// then reduced by a second kernel; all against float64.
void runLayerNormBwd(const Env &env, const std::string &caseName, int M,
                     int N) {
  const int stride = N + 3, group = 32;
  Kernel dxk = env.kernel("layer_norm_bwd_dx_kernel");
  Kernel dwk = env.kernel("layer_norm_bwd_dwdb_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x(size_t(M) * stride, 0.0f), dy(size_t(M) * stride, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      x[size_t(i) * stride + j] = rng.value();
      dy[size_t(i) * stride + j] = rng.value();
    }
  std::vector<float> w = randomFloats(rng, N);
  std::vector<float> mean(M), rstd(M);
  for (int i = 0; i < M; ++i) {
    double mu = 0, var = 0;
    for (int j = 0; j < N; ++j)
      mu += x[size_t(i) * stride + j];
    mu /= N;
    for (int j = 0; j < N; ++j) {
      double d = x[size_t(i) * stride + j] - mu;
      var += d * d;
    }
    mean[i] = float(mu);
    rstd[i] = float(1.0 / std::sqrt(var / N + 1e-5));
  }
  size_t count = size_t(M) * stride;
  DeviceBuffer dX(count * 4), dDY(count * 4), dDX(count * 4), dW(N * 4),
      dMean(M * 4), dRstd(M * 4), dLock(2 * group * 4),
      dPW(size_t(group) * N * 4), dPB(size_t(group) * N * 4),
      dFW((N + kGuard) * 4), dFB((N + kGuard) * 4);
  dX.upload(x);
  dDY.upload(dy);
  dW.upload(w);
  dMean.upload(mean);
  dRstd.upload(rstd);
  CHECK_CU(cuMemsetD8(dLock.get(), 0, 2 * group * 4));
  dDX.poison();
  dPW.poison();
  dPB.poison();
  dFW.poison();
  dFB.poison();
  check(dxk.launch(Grid{unsigned(M), 1, 1},
                   {Arg::ptr(dDX.get()), Arg::ptr(dDY.get()), Arg::ptr(dPW.get()),
                    Arg::ptr(dPB.get()), Arg::ptr(dX.get()), Arg::ptr(dW.get()),
                    Arg::ptr(dMean.get()), Arg::ptr(dRstd.get()),
                    Arg::ptr(dLock.get()), Arg::i32(stride), Arg::i32(N)}));
  check(dwk.launch(Grid{cdiv(N, 128), 1, 1},
                   {Arg::ptr(dPW.get()), Arg::ptr(dPB.get()), Arg::ptr(dFW.get()),
                    Arg::ptr(dFB.get()), Arg::i32(group), Arg::i32(N)}));
  env.sync();
  std::vector<uint32_t> dx = dDX.download<uint32_t>(count);
  std::vector<uint32_t> fw = dFW.download<uint32_t>(N + kGuard);
  std::vector<uint32_t> fb = dFB.download<uint32_t>(N + kGuard);
  std::vector<double> sw(N, 0.0), sb(N, 0.0);
  for (int i = 0; i < M; ++i) {
    double c1 = 0, c2 = 0;
    std::vector<double> xhat(N), wdy(N);
    for (int j = 0; j < N; ++j) {
      xhat[j] = (double(x[size_t(i) * stride + j]) - mean[i]) * rstd[i];
      wdy[j] = double(w[j]) * dy[size_t(i) * stride + j];
      c1 += xhat[j] * wdy[j];
      c2 += wdy[j];
      sw[j] += dy[size_t(i) * stride + j] * xhat[j];
      sb[j] += dy[size_t(i) * stride + j];
    }
    c1 /= N;
    c2 /= N;
    for (int j = 0; j < N; ++j)
      expectClose(dx, size_t(i) * stride + j,
                  (wdy[j] - (xhat[j] * c1 + c2)) * rstd[i], 1e-4, 1e-4,
                  "dx (" + std::to_string(i) + ", " + std::to_string(j) + ")");
  }
  for (int j = 0; j < N; ++j) {
    expectClose(fw, j, sw[j], 1e-3, 1e-4, "dw " + std::to_string(j));
    expectClose(fb, j, sb[j], 1e-3, 1e-4, "db " + std::to_string(j));
  }
  expectUntouched(fw, N, N + kGuard, "dw guard element");
  expectUntouched(fb, N, N + kGuard, "db guard element");
}

/// Inclusive integer scans, compared exactly: a cumulative sum over a
/// 1-D tile of 1024 (forward and reverse; several warps and repetitions),
/// and a running maximum along the rows of a 2-D tile with a user combine
/// function (tl.associative_scan).
void runScan(const Env &env, const std::string &caseName) {
  Rng rng = env.rng(caseName);
  const int n = 1000;
  std::vector<int32_t> x(n);
  for (int &v : x)
    v = int32_t(rng.next() % 2001) - 1000;
  for (bool reverse : {false, true}) {
    std::string name = reverse ? "cumsum_reverse_kernel" : "cumsum_kernel";
    Kernel k = env.kernel(name, "cumsum_kernel");
    DeviceBuffer dx(1024 * 4), dy((1024 + kGuard) * 4);
    dx.upload(x);
    dy.poison();
    check(k.launch(Grid{1, 1, 1},
                   {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::i32(n)}));
    env.sync();
    std::vector<uint32_t> y = dy.download<uint32_t>(1024 + kGuard);
    int32_t acc = 0;
    for (int ii = 0; ii < n; ++ii) {
      int i = reverse ? n - 1 - ii : ii;
      acc += x[i];
      if (int32_t(y[i]) != acc)
        failCase(name + " index " + std::to_string(i) + ": expected " +
                 std::to_string(acc) + ", found " + std::to_string(int32_t(y[i])));
    }
    expectUntouched(y, n, 1024 + kGuard, "element past n");
  }
  const int M = 101, N = 250, stride = 257;
  Kernel k = env.kernel("max_scan_2d_kernel");
  std::vector<int32_t> m(size_t(M) * stride, 0);
  for (auto &v : m)
    v = int32_t(rng.next() % 100000);
  DeviceBuffer dm(m.size() * 4), dr((m.size() + kGuard) * 4);
  dm.upload(m);
  dr.poison();
  check(k.launch(Grid{cdiv(M, 4), 1, 1},
                 {Arg::ptr(dm.get()), Arg::ptr(dr.get()), Arg::i32(M),
                  Arg::i32(N), Arg::i32(stride)}));
  env.sync();
  std::vector<uint32_t> r = dr.download<uint32_t>(m.size() + kGuard);
  for (int i = 0; i < M; ++i) {
    int32_t best = INT32_MIN;
    for (int j = 0; j < stride; ++j) {
      size_t o = size_t(i) * stride + j;
      if (j >= N) {
        if (r[o] != kPoison32)
          failCase("max scan padding (" + std::to_string(i) + ", " +
                   std::to_string(j) + ") was written");
        continue;
      }
      best = std::max(best, m[o]);
      if (int32_t(r[o]) != best)
        failCase("max scan (" + std::to_string(i) + ", " + std::to_string(j) +
                 "): expected " + std::to_string(best) + ", found " +
                 std::to_string(int32_t(r[o])));
    }
  }
}

/// IEEE binary32 -> fp8 (e4m3fn or e5m2) by round to nearest even,
/// saturating to the largest finite value (PTX cvt.rn.satfinite).
uint8_t floatToFp8(float f, bool e5) {
  uint8_t sign = std::signbit(f) ? 0x80 : 0;
  double a = std::fabs(double(f));
  const int mant = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  const double maxFinite = e5 ? 57344.0 : 448.0;
  const int minExp = 1 - bias;
  if (a == 0)
    return sign;
  int e = std::max(std::ilogb(a), minExp);
  double quantum = std::ldexp(1.0, e - mant);
  double r = std::nearbyint(a / quantum) * quantum; // ties to even
  r = std::min(r, maxFinite);
  if (r == 0)
    return sign;
  int er = std::ilogb(r);
  if (er < minExp)
    return uint8_t(sign | int(std::lround(r / std::ldexp(1.0, minExp - mant))));
  int m = int(std::lround((r / std::ldexp(1.0, er) - 1.0) * (1 << mant)));
  return uint8_t(sign | ((er + bias) << mant) | m);
}

/// fp32 -> fp8 -> memory -> fp32 for both formats, with values spanning
/// subnormals, normals and saturation; the fp8 bytes and the results must
/// match the CPU conversion exactly.
void runFp8(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 7;
  Rng rng = env.rng(caseName);
  const float scales[] = {1.0f, 1e-3f, 30.0f, 1e4f, 1e6f};
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = rng.value() * scales[i % 5];
  for (bool e5 : {false, true}) {
    std::string file = e5 ? "fp8e5_roundtrip_kernel" : "fp8e4_roundtrip_kernel";
    Kernel k = env.kernel(file, "fp8_roundtrip_kernel");
    DeviceBuffer dx(n * 4), dq(n + kGuard), dy((n + kGuard) * 4);
    dx.upload(x);
    dq.poison();
    dy.poison();
    check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                   {Arg::ptr(dx.get()), Arg::ptr(dq.get()), Arg::ptr(dy.get()),
                    Arg::i32(int32_t(n))}));
    env.sync();
    std::vector<uint8_t> q = dq.download<uint8_t>(n + kGuard);
    std::vector<uint32_t> y = dy.download<uint32_t>(n + kGuard);
    for (size_t i = 0; i < n; ++i) {
      uint8_t want = floatToFp8(x[i], e5);
      if (q[i] != want) {
        char buf[160];
        std::snprintf(buf, sizeof(buf),
                      "%s: fp8 of %.9g at %zu: expected 0x%02x, found 0x%02x",
                      file.c_str(), double(x[i]), i, want, q[i]);
        failCase(buf);
      }
      uint32_t wantY = floatBits(fp8ToFloat(want, e5));
      if (y[i] != wantY)
        failCase(file + " index " + std::to_string(i) + ": expected " +
                 describe(wantY) + ", found " + describe(y[i]));
    }
    expectUntouched(y, n, n + kGuard, "guard element");
  }
}

/// A finite binary32 value rounded toward zero to a binary format with
/// `mant` fraction bits and exponent bias `bias` (fp16: 10/15, bf16: 7/127);
/// results past the largest finite value stay at it (IEEE 754 roundTowardZero).
uint16_t floatToNarrowRTZ(float f, int mant, int bias) {
  uint16_t sign = std::signbit(f) ? uint16_t(1u << (mant + (bias == 15 ? 5 : 8))) : 0;
  const int expBits = bias == 15 ? 5 : 8;
  const int maxExp = (1 << expBits) - 2 - bias, minExp = 1 - bias;
  double a = std::fabs(double(f));
  double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -mant), maxExp);
  if (a == 0)
    return sign;
  int e = std::max(std::ilogb(a), minExp);
  double r = std::trunc(a / std::ldexp(1.0, e - mant)) * std::ldexp(1.0, e - mant);
  r = std::min(r, maxFinite);
  if (r == 0)
    return sign;
  int er = std::ilogb(r);
  if (er < minExp)
    return uint16_t(sign | int(std::lround(r / std::ldexp(1.0, minExp - mant))));
  int m = int(std::lround((r / std::ldexp(1.0, er) - 1.0) * (1 << mant)));
  return uint16_t(sign | ((er + bias) << mant) | m);
}

/// `x.to(fp16 | bf16, fp_downcast_rounding="rtz")` on values spanning fp16
/// subnormals, normals and overflow; bits must match the CPU exactly.
void runRoundTowardZero(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 5;
  Rng rng = env.rng(caseName);
  const float scales[] = {1.0f, 1e-6f, 3e4f, 1e6f, 1e-30f};
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = rng.value() * scales[i % 5];
  Kernel k = env.kernel("rtz_kernel");
  DeviceBuffer dx(n * 4), dh((n + kGuard) * 2), db((n + kGuard) * 2);
  dx.upload(x);
  dh.poison();
  db.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dh.get()), Arg::ptr(db.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint16_t> h = dh.download<uint16_t>(n + kGuard);
  std::vector<uint16_t> bf = db.download<uint16_t>(n + kGuard);
  for (size_t i = 0; i < n; ++i) {
    uint16_t wantH = floatToNarrowRTZ(x[i], 10, 15);
    uint16_t wantB = floatToNarrowRTZ(x[i], 7, 127);
    for (auto [what, want, got] :
         {std::tuple<const char *, uint16_t, uint16_t>{"fp16", wantH, h[i]},
          {"bf16", wantB, bf[i]}})
      if (want != got) {
        char buf[160];
        std::snprintf(buf, sizeof(buf),
                      "rtz %s of %.9g at %zu: expected 0x%04x, found 0x%04x",
                      what, double(x[i]), i, want, got);
        failCase(buf);
      }
  }
  for (size_t i = n; i < n + kGuard; ++i)
    if (h[i] != 0xFFFF || bf[i] != 0xFFFF)
      failCase("guard element " + std::to_string(i) +
               " was written: expected the poison 0xffff");
}

/// fp16 and bf16 atomic max/min (compare-and-swap loops) from every program
/// into 64 bins: each bin must hold the max / min of the RNE-converted
/// inputs, bit-exact.
void runHalfAtomics(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 3;
  const int bins = 64;
  Kernel k = env.kernel("half_atomics_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> f = randomFloats(rng, n);
  auto toBf16 = [](float v) {
    uint32_t x = floatBits(v);
    return uint16_t((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
  };
  auto bf16ToFloat = [](uint16_t v) { return bitsFloat(uint32_t(v) << 16); };
  const uint16_t negInfH = 0xFC00, posInfH = 0x7C00;
  const uint16_t negInfB = 0xFF80, posInfB = 0x7F80;
  std::vector<uint16_t> hmax0(bins, negInfH), hmin0(bins, posInfH),
      bmax0(bins, negInfB), bmin0(bins, posInfB);
  DeviceBuffer df(n * 4), dhmax(bins * 2), dhmin(bins * 2), dbmax(bins * 2),
      dbmin(bins * 2);
  df.upload(f);
  dhmax.upload(hmax0);
  dhmin.upload(hmin0);
  dbmax.upload(bmax0);
  dbmin.upload(bmin0);
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(df.get()), Arg::ptr(dhmax.get()), Arg::ptr(dhmin.get()),
                  Arg::ptr(dbmax.get()), Arg::ptr(dbmin.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint16_t> hmax = dhmax.download<uint16_t>(bins),
                        hmin = dhmin.download<uint16_t>(bins),
                        bmax = dbmax.download<uint16_t>(bins),
                        bmin = dbmin.download<uint16_t>(bins);
  for (int b = 0; b < bins; ++b) {
    uint16_t wantHmax = negInfH, wantHmin = posInfH, wantBmax = negInfB,
             wantBmin = posInfB;
    for (size_t i = b; i < n; i += bins) {
      uint16_t h = floatToHalf(f[i]), bf = toBf16(f[i]);
      if (halfToFloat(h) > halfToFloat(wantHmax)) wantHmax = h;
      if (halfToFloat(h) < halfToFloat(wantHmin)) wantHmin = h;
      if (bf16ToFloat(bf) > bf16ToFloat(wantBmax)) wantBmax = bf;
      if (bf16ToFloat(bf) < bf16ToFloat(wantBmin)) wantBmin = bf;
    }
    for (auto [what, want, got] :
         {std::tuple<const char *, uint16_t, uint16_t>{"fp16 atomic_max", wantHmax, hmax[b]},
          {"fp16 atomic_min", wantHmin, hmin[b]},
          {"bf16 atomic_max", wantBmax, bmax[b]},
          {"bf16 atomic_min", wantBmin, bmin[b]}})
      if (want != got) {
        char buf[128];
        std::snprintf(buf, sizeof(buf), "%s bin %d: expected 0x%04x, found 0x%04x",
                      what, b, want, got);
        failCase(buf);
      }
  }
}

/// fp16 atomic_xchg on a ragged tile: memory ends with the new values, the
/// op returns the old ones, and elements past n stay untouched; bit-exact.
void runHalfXchg(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 11;
  Kernel k = env.kernel("half_xchg_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint16_t> x(n + kGuard), v(n);
  for (auto &e : x)
    e = floatToHalf(rng.value());
  for (auto &e : v)
    e = floatToHalf(rng.value());
  DeviceBuffer dx((n + kGuard) * 2), dv(n * 2), dold((n + kGuard) * 2);
  dx.upload(x);
  dv.upload(v);
  dold.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dv.get()), Arg::ptr(dold.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint16_t> nx = dx.download<uint16_t>(n + kGuard);
  std::vector<uint16_t> old = dold.download<uint16_t>(n + kGuard);
  for (size_t i = 0; i < n + kGuard; ++i) {
    uint16_t wantX = i < n ? v[i] : x[i], wantOld = i < n ? x[i] : 0xFFFF;
    if (nx[i] != wantX || old[i] != wantOld) {
      char buf[160];
      std::snprintf(buf, sizeof(buf),
                    "atomic_xchg fp16 at %zu: expected memory 0x%04x and old "
                    "0x%04x, found 0x%04x and 0x%04x",
                    i, wantX, wantOld, nx[i], old[i]);
      failCase(buf);
    }
  }
}

/// triton.language.extra.libdevice functions (GELU-tanh, pow, atan2, log1p,
/// fmod, erfc, cbrt, sinh), each into its own output row, against float64
/// libm within libdevice's documented error (at most 4 ulp: rtol 1e-6,
/// atol 1e-6 for results near zero, where GELU's 1 + tanh cancels).
void runLibdevice(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 9;
  const int funcs = 8;
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, n);
  Kernel k = env.kernel("libdevice_kernel");
  DeviceBuffer dx(n * 4), dout((funcs * n + kGuard) * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dout.get()), Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint32_t> out = dout.download<uint32_t>(funcs * n + kGuard);
  const char *names[funcs] = {"gelu_tanh", "pow", "atan2", "log1p",
                              "fmod",      "erfc", "cbrt", "sinh"};
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    double want[funcs] = {
        0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))),
        std::pow(std::fabs(v), 1.5),
        std::atan2(v, 0.75),
        std::log1p(std::fabs(v)),
        std::fmod(v, 0.75),
        std::erfc(v),
        std::cbrt(v),
        std::sinh(v)};
    for (int f = 0; f < funcs; ++f)
      expectClose(out, f * n + i, want[f], 1e-6, 1e-6,
                  std::string(names[f]) + "(" + std::to_string(x[i]) +
                      ") at " + std::to_string(i));
  }
  expectUntouched(out, funcs * n, funcs * n + kGuard, "guard element");
}

/// Unsigned integers against a CPU model (Triton's semantics): inputs at
/// and above 2^(bits-1) on a ragged n, a u32 scalar above 2^31; logical
/// shifts, unsigned //, %, comparisons, maximum/minimum, zero extension,
/// mixed-signedness promotion, uint <-> float, uint64, unsigned atomic
/// max/min into bins and per-program max/min reductions. Exact; outputs
/// past n stay poisoned.
void runUnsigned(const Env &env, const std::string &caseName) {
  const size_t n = 5 * 1024 + 37;
  const size_t programs = cdiv(n, 1024);
  const int bins = 64, slots = 11;
  const uint32_t s = 0x9000'0003u;
  Kernel k = env.kernel("unsigned_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint32_t> a(n), b(n);
  std::vector<uint8_t> c(n);
  std::vector<uint64_t> d(n);
  std::vector<float> fin(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng.next();
    // Every fourth value at the top of the range, many above 2^31.
    a[i] = i % 4 == 0 ? uint32_t(0xFFFFFFFFu - (r & 0xFF)) : uint32_t(r);
    b[i] = uint32_t(r >> 32) >> (r & 31);
    if (b[i] == 0)
      b[i] = 1;
    c[i] = uint8_t(r >> 13);
    d[i] = rng.next();
    fin[i] = float(uint32_t(rng.next()) & 0xFFFFFF00u); // exact in fp32
  }
  DeviceBuffer da(n * 4), db(n * 4), dc(n), dd(n * 8), dfin(n * 4),
      dout((slots * n + kGuard) * 4), dfout((n + kGuard) * 4),
      dout64((n + kGuard) * 8), damax(bins * 4), damin(bins * 4),
      dred(programs * 3 * 4);
  da.upload(a);
  db.upload(b);
  dc.upload(c);
  dd.upload(d);
  dfin.upload(fin);
  dout.poison();
  dfout.poison();
  dout64.poison();
  damax.upload(std::vector<uint32_t>(bins, 0));
  damin.upload(std::vector<uint32_t>(bins, 0xFFFFFFFFu));
  dred.poison();
  check(k.launch(Grid{unsigned(programs), 1, 1},
                 {Arg::ptr(da.get()), Arg::ptr(db.get()), Arg::ptr(dc.get()),
                  Arg::ptr(dd.get()), Arg::ptr(dfin.get()),
                  Arg::ptr(dout.get()), Arg::ptr(dfout.get()),
                  Arg::ptr(dout64.get()), Arg::ptr(damax.get()),
                  Arg::ptr(damin.get()), Arg::ptr(dred.get()),
                  Arg::i32(int32_t(n)), Arg::u32(s)}));
  env.sync();
  auto out = dout.download<uint32_t>(slots * n + kGuard);
  auto fout = dfout.download<uint32_t>(n + kGuard);
  auto out64 = dout64.download<uint64_t>(n + kGuard);
  auto amax = damax.download<uint32_t>(bins);
  auto amin = damin.download<uint32_t>(bins);
  auto red = dred.download<uint32_t>(programs * 3);
  auto expect = [&](const char *what, size_t i, uint64_t want, uint64_t got) {
    if (want != got)
      failCase(std::string(what) + " at " + std::to_string(i) + ": expected " +
               std::to_string(want) + ", found " + std::to_string(got));
  };
  std::vector<uint32_t> wmax(bins, 0), wmin(bins, 0xFFFFFFFFu);
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = a[i], y = b[i];
    int32_t sgn = int32_t(i) - 1000;
    uint32_t want[slots] = {
        x >> 5, x / y, x % y, std::max(x, y), std::min(x, y),
        uint32_t(x < y) + uint32_t(x > y) * 2 + uint32_t(x <= y) * 4 +
            uint32_t(x >= y) * 8,
        uint32_t(c[i] >> 3), uint32_t(c[i]) + uint32_t(c[i] / 7) * 1000,
        uint32_t(x < uint32_t(sgn)) + uint32_t(int32_t(c[i]) < sgn) * 2,
        uint32_t(x > s) + x / s * 2, uint32_t(fin[i])};
    static const char *names[slots] = {
        "a >> 5", "a // b", "a % b", "maximum", "minimum", "comparisons",
        "uint8 >> 3", "uint8 zero extension", "mixed promotion",
        "u32 scalar", "fp32 -> uint32"};
    for (int k2 = 0; k2 < slots; ++k2)
      expect(names[k2], i, want[k2], out[k2 * n + i]);
    expect("uint32 -> fp32", i, floatBits(float(x)), fout[i]);
    uint64_t dv = d[i];
    expect("uint64", i, (dv >> 7) + dv / 3 + (dv > 0x7FFFFFFFFFFFFFFFull),
           out64[i]);
    wmax[i % bins] = std::max(wmax[i % bins], x);
    wmin[i % bins] = std::min(wmin[i % bins], x);
  }
  for (int bin = 0; bin < bins; ++bin) {
    expect("atomic_max bin", bin, wmax[bin], amax[bin]);
    expect("atomic_min bin", bin, wmin[bin], amin[bin]);
  }
  for (size_t p = 0; p < programs; ++p) {
    uint32_t mx = 0, mn = 0xFFFFFFFFu, cm = 0;
    for (size_t i = p * 1024; i < std::min(n, (p + 1) * 1024); ++i) {
      mx = std::max(mx, a[i]);
      mn = std::min(mn, a[i]);
      cm = std::max(cm, uint32_t(c[i]));
    }
    expect("tl.max program", p, mx, red[p * 3]);
    expect("tl.min program", p, mn, red[p * 3 + 1]);
    expect("tl.max uint8 program", p, cm, red[p * 3 + 2]);
  }
  for (size_t i = slots * n; i < slots * n + kGuard; ++i)
    expect("guard element", i, kPoison32, out[i]);
  for (size_t i = n; i < n + kGuard; ++i) {
    expect("fp32 guard element", i, kPoison32, fout[i]);
    expect("uint64 guard element", i, ~uint64_t(0), out64[i]);
  }
}

/// Tile atomics from every program into 64 bins: integer add (exact) and
/// float max / min over values of both signs and signed zeros
/// (order-independent, exact; -0.0 below +0.0).
void runAtomics(const Env &env, const std::string &caseName) {
  const size_t n = 98432 + 3;
  const int bins = 64;
  Kernel k = env.kernel("atomics_kernel");
  Rng rng = env.rng(caseName);
  std::vector<int32_t> x(n);
  for (auto &v : x)
    v = int32_t(rng.next() % 2001) - 1000;
  std::vector<float> f = randomFloats(rng, n);
  // Signed zeros: bin 0 is all negative but one -0.0 (its max is -0.0); bin
  // 1 all positive with a -0.0 and a +0.0 (its min is -0.0).
  for (size_t i = 0; i < n; i += bins) {
    f[i] = -std::fabs(f[i]);
    if (i + 1 < n)
      f[i + 1] = std::fabs(f[i + 1]);
  }
  f[0] = -0.0f;
  f[1] = -0.0f;
  f[1 + bins] = 0.0f;
  // IEEE order with -0.0 below +0.0.
  auto less = [](float a, float b) {
    return a < b || (a == b && std::signbit(a) && !std::signbit(b));
  };
  std::vector<int32_t> sum0(bins, 0);
  std::vector<float> max0(bins, -INFINITY), min0(bins, INFINITY);
  DeviceBuffer dx(n * 4), df(n * 4), ds(bins * 4), dmax(bins * 4), dmin(bins * 4);
  dx.upload(x);
  df.upload(f);
  ds.upload(sum0);
  dmax.upload(max0);
  dmin.upload(min0);
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(df.get()), Arg::ptr(ds.get()),
                  Arg::ptr(dmax.get()), Arg::ptr(dmin.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  std::vector<uint32_t> s = ds.download<uint32_t>(bins);
  std::vector<uint32_t> mx = dmax.download<uint32_t>(bins);
  std::vector<uint32_t> mn = dmin.download<uint32_t>(bins);
  for (int b = 0; b < bins; ++b) {
    int32_t ws = 0;
    float wmax = -INFINITY, wmin = INFINITY;
    for (size_t i = b; i < n; i += bins) {
      ws += x[i];
      if (less(wmax, f[i]))
        wmax = f[i];
      if (less(f[i], wmin))
        wmin = f[i];
    }
    if (int32_t(s[b]) != ws)
      failCase("atomic_add bin " + std::to_string(b) + ": expected " +
               std::to_string(ws) + ", found " + std::to_string(int32_t(s[b])));
    if (mx[b] != floatBits(wmax))
      failCase("atomic_max bin " + std::to_string(b) + ": expected " +
               describe(floatBits(wmax)) + ", found " + describe(mx[b]));
    if (mn[b] != floatBits(wmin))
      failCase("atomic_min bin " + std::to_string(b) + ": expected " +
               describe(floatBits(wmin)) + ", found " + describe(mn[b]));
  }
}

/// Launches add_kernel with a bad argument list built by `mutate` and
/// requires a refusal whose message contains `expected`, and an output
/// left poisoned (the driver was never called).
void runRefusal(const Env &env,
                const std::function<void(std::vector<Arg> &, CUdeviceptr)>
                    &mutate,
                const std::string &expected) {
  const size_t n = 98432;
  Kernel k = env.kernel("add_kernel");
  DeviceBuffer dx(n * 4 + 64), dy(n * 4 + 64), dout(n * 4 + 64);
  dx.poison();
  dy.poison();
  dout.poison();
  std::vector<Arg> args = {Arg::ptr(dx.get()), Arg::ptr(dy.get()),
                           Arg::ptr(dout.get()), Arg::i32(int32_t(n))};
  mutate(args, dx.get());
  Status s = k.launch(Grid{cdiv(n, 1024), 1, 1}, args);
  env.sync();
  if (s.ok())
    failCase("the launch was accepted; expected a refusal containing '" +
             expected + "'");
  if (s.message().find(expected) == std::string::npos)
    failCase("refused with '" + s.message() + "'; expected a message "
             "containing '" + expected + "'");
  std::vector<uint32_t> out = dout.download<uint32_t>(n + 16);
  expectUntouched(out, 0, n + 16, "element");
}

/// The C API's error reporting (tilec/runtime_c.h): a NULL argument is
/// named, loading a directory says so, and a successful call clears the
/// thread's last error.
void runCApiErrors(const Env &env) {
  tilec_module m = nullptr;
  auto expect = [](int status, const std::string &want) {
    std::string got = tilec_last_error();
    if (status != TILEC_ERROR || got != want)
      failCase("expected TILEC_ERROR and '" + want + "', found " +
               std::to_string(status) + " and '" + got + "'");
  };
  expect(tilec_module_load_file(nullptr, "x.ptx", &m),
         "tilec_module_load_file: ctx is NULL");
  tilec_context ctx = nullptr;
  if (tilec_context_create(0, &ctx) != TILEC_OK)
    failCase(std::string("tilec_context_create: ") + tilec_last_error());
  if (std::string(tilec_last_error()) != "")
    failCase(std::string("a successful call left the last error '") +
             tilec_last_error() + "'");
  expect(tilec_module_load_file(ctx, nullptr, &m),
         "tilec_module_load_file: path is NULL");
  expect(tilec_module_load_file(ctx, env.kernelDir.c_str(), &m),
         "cannot load '" + env.kernelDir +
             "': it is a directory, not a PTX file");
  expect(tilec_module_get_kernel(nullptr, "k", nullptr),
         "tilec_module_get_kernel: module is NULL");
  if (tilec_module_load_file(ctx, (env.kernelDir + "/add_kernel.ptx").c_str(),
                             &m) != TILEC_OK ||
      std::string(tilec_last_error()) != "")
    failCase(std::string("loading add_kernel.ptx: '") + tilec_last_error() +
             "'");
  tilec_module_destroy(m);
  tilec_context_destroy(ctx);
}

/// fp16 conversion checks against known encodings (CPU only).
void runHalfSelfTest() {
  struct Case {
    float f;
    uint16_t h;
  } cases[] = {
      {1.0f, 0x3C00},
      {-2.0f, 0xC000},
      {65504.0f, 0x7BFF},
      {65519.99f, 0x7BFF},
      {65520.0f, 0x7C00}, // ties to even: rounds up to infinity
      {std::ldexp(1.0f, -14), 0x0400},
      {std::ldexp(1.0f, -24), 0x0001},
      {std::ldexp(1.0f, -25), 0x0000},       // tie, to even (0)
      {std::ldexp(3.0f, -25), 0x0002},       // 1.5 ulp: tie, to even (2)
      {std::ldexp(1.0f, -26) * 3, 0x0001},  // 0.75 ulp
      {1.0f + std::ldexp(1.0f, -11), 0x3C00},     // tie, to even
      {1.0f + std::ldexp(3.0f, -11), 0x3C02},     // tie, to even (up)
      {1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 0x3C01},
      {std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25), 0x0400}, // to normal
      {-0.0f, 0x8000},
      {INFINITY, 0x7C00},
  };
  for (const Case &c : cases) {
    uint16_t h = floatToHalf(c.f);
    if (h != c.h) {
      char buf[128];
      std::snprintf(buf, sizeof(buf),
                    "floatToHalf(%.9g): expected 0x%04x, found 0x%04x",
                    double(c.f), c.h, h);
      failCase(buf);
    }
  }
  // Every finite half round-trips exactly through float.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7C00) == 0x7C00)
      continue;
    if (floatToHalf(halfToFloat(uint16_t(h))) != h) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), "half 0x%04x does not round-trip", h);
      failCase(buf);
    }
  }
}

std::vector<TestCase> allCases() {
  const size_t big = (size_t(1) << 28) + 17;
  std::vector<TestCase> cases;
  cases.push_back({"selftest/fp16_conversion", false, false,
                   [](const Env &) { runHalfSelfTest(); }});
  cases.push_back({"add_kernel/n=98432", false, true, [](const Env &e) {
                     runAdd(e, "add_kernel/n=98432", "add_kernel", 98432);
                   }});
  cases.push_back({"add_kernel_ragged/n=1", false, true, [](const Env &e) {
                     runAdd(e, "add_kernel_ragged/n=1", "add_kernel_ragged", 1);
                   }});
  std::string bigName = "add_kernel_ragged/n=" + std::to_string(big);
  cases.push_back({bigName, true, true, [bigName, big](const Env &e) {
                     runAdd(e, bigName, "add_kernel_ragged", big);
                   }});
  // The same kernel compiled from examples/vector_add.py (the front end).
  cases.push_back({"py_add_kernel/n=98432", false, true, [](const Env &e) {
                     runAdd(e, "py_add_kernel/n=98432", "add_kernel", 98432,
                            "py_add_kernel");
                   }});
  std::string pyBigName = "py_add_kernel/n=" + std::to_string(big);
  cases.push_back({pyBigName, true, true, [pyBigName, big](const Env &e) {
                     runAdd(e, pyBigName, "add_kernel", big, "py_add_kernel");
                   }});
  cases.push_back({"cvt_kernel/n=98437", false, true, [](const Env &e) {
                     runCvt(e, "cvt_kernel/n=98437", 98437);
                   }});
  cases.push_back({"scale2d_kernel/M=1000,N=1001", false, true,
                   [](const Env &e) {
                     runScale2d(e, "scale2d_kernel/M=1000,N=1001");
                   }});
  cases.push_back({"colsum_kernel/n=5003,K=37", false, true, [](const Env &e) {
                     runColsum(e, "colsum_kernel/n=5003,K=37");
                   }});
  cases.push_back({"scale_kernel/n=98433", false, true, [](const Env &e) {
                     runScale(e, "scale_kernel/n=98433");
                   }});
  cases.push_back({"transpose_kernel/M=1000,N=999", false, true,
                   [](const Env &e) {
                     runTranspose(e, "transpose_kernel/M=1000,N=999");
                   }});
  cases.push_back({"add_i8_i64_kernel/n=98437", false, true, [](const Env &e) {
                     runAddI8(e, "add_i8_i64_kernel/n=98437", 98437);
                   }});
  const size_t past2g = (size_t(1) << 31) + 17;
  std::string i8Name = "add_i8_i64_kernel/n=" + std::to_string(past2g);
  cases.push_back({i8Name, true, true, [i8Name, past2g](const Env &e) {
                     runAddI8(e, i8Name, past2g);
                   }});
  // Reductions (issue 4): softmax, layer norm, RMS norm from .py kernels.
  struct SoftmaxCase { const char *kernel; int M, N, block; bool persistent, inf; };
  for (SoftmaxCase c : {SoftmaxCase{"softmax_kernel", 823, 1000, 1024, false, true},
                        SoftmaxCase{"softmax_kernel", 257, 1023, 1024, false, false},
                        SoftmaxCase{"softmax_persistent_kernel", 1001, 1000, 1024, true, true},
                        SoftmaxCase{"softmax_looped_kernel", 301, 4097, 1024, false, true}}) {
    std::string name = std::string(c.kernel) + "/M=" + std::to_string(c.M) +
                       ",N=" + std::to_string(c.N);
    cases.push_back({name, false, true, [name, c](const Env &e) {
                       runSoftmax(e, name, c.kernel, c.M, c.N, c.block,
                                  c.persistent, c.inf, c.N + 5, c.N + 3);
                     }});
  }
  // The plain-`i32` softmax on rows whose strides are multiples of 4
  // elements (the vectorized version of the body) and on rows where only
  // one is (the body as written).
  for (auto [N, strideIn, strideOut] :
       {std::tuple{1000, 1000, 1004}, std::tuple{1000, 1000, 1001},
        std::tuple{996, 1024, 996}, std::tuple{17, 20, 24}}) {
    std::string name = "softmax_kernel/M=301,N=" + std::to_string(N) +
                       ",strides=" + std::to_string(strideIn) + "," +
                       std::to_string(strideOut);
    cases.push_back({name, false, true,
                     [name, N, strideIn, strideOut](const Env &e) {
                       runSoftmax(e, name, "softmax_kernel", 301, N, 1024,
                                  false, true, strideIn, strideOut);
                     }});
  }
  for (int N : {1000, 4097})
    for (bool rms : {false, true}) {
      std::string kernel = rms ? "rms_norm_fwd_kernel" : "layer_norm_fwd_kernel";
      std::string name = kernel + "/M=517,N=" + std::to_string(N);
      cases.push_back({name, false, true, [name, kernel, rms, N](const Env &e) {
                         runNorm(e, name, kernel, rms, 517, N, RowLayout{N + 7});
                       }});
    }
  // Norms on aligned and misaligned rows: strides multiples of 4 elements
  // or not, the rows starting at the buffers' start or 1-3 elements after
  // (the `*fp32` kernels, whose pointers may be unaligned). Each runs one
  // of the two versions of the body; both must agree with float64.
  struct NormCase { const char *kernel; bool rms; int M, N; RowLayout layout; };
  for (NormCase c : {NormCase{"layer_norm_fwd_kernel", false, 517, 1000, {1000}},
                     NormCase{"rms_norm_fwd_kernel", true, 517, 4096, {4100}},
                     NormCase{"layer_norm_fwd_anyptr", false, 300, 1000, {1000}},
                     NormCase{"layer_norm_fwd_anyptr", false, 300, 1000, {1000, 1, 0}},
                     NormCase{"layer_norm_fwd_anyptr", false, 300, 1000, {1000, 0, 3}},
                     NormCase{"layer_norm_fwd_anyptr", false, 300, 1001, {1001, 4, 4}},
                     NormCase{"layer_norm_fwd_anyptr", false, 3, 16384, {16384, 2, 2}},
                     NormCase{"rms_norm_fwd_anyptr", true, 257, 3000, {3000}},
                     NormCase{"rms_norm_fwd_anyptr", true, 257, 3000, {3000, 0, 1}},
                     NormCase{"rms_norm_fwd_anyptr", true, 257, 999, {1003, 8, 8}}}) {
    std::string name = std::string(c.kernel) + "/M=" + std::to_string(c.M) +
                       ",N=" + std::to_string(c.N) + ",stride=" +
                       std::to_string(c.layout.stride) + ",offsets=" +
                       std::to_string(c.layout.inOffset) + "," +
                       std::to_string(c.layout.outOffset);
    cases.push_back({name, false, true, [name, c](const Env &e) {
                       runNorm(e, name, c.kernel, c.rms, c.M, c.N, c.layout);
                     }});
  }
  // The register budget: the 8192-wide fp16 layer norm (60 registers, 4
  // CTAs of 8 warps; budget 64 on an H100, seen there), the 16384-wide
  // fp32 softmax and layer_norm_fwd_anyptr with its aligned variant (no
  // slack on an H100 with ptxas 13.0: the loader must then set nothing).
  struct BudgetCase {
    const char *file;
    bool expectSlack;
    int layerNormN;
  };
  for (BudgetCase c : {BudgetCase{"bench_layer_norm_8192", true, 8192},
                       BudgetCase{"bench_softmax_16384", false, 0},
                       BudgetCase{"layer_norm_fwd_anyptr", false, 0}}) {
    std::string name = std::string("register_budget/") + c.file;
    cases.push_back({name, false, true, [name, c](const Env &e) {
                       runRegisterBudget(e, name, c.file, c.expectSlack,
                                         c.layerNormN);
                     }});
  }
  cases.push_back({"register_budget/cubin", false, true, [](const Env &e) {
                     runCubinRegisterBudget(e, "register_budget/cubin");
                   }});
  cases.push_back({"layer_norm_bwd/M=1151,N=1000", false, true,
                   [](const Env &e) {
                     runLayerNormBwd(e, "layer_norm_bwd/M=1151,N=1000", 1151, 1000);
                   }});
  cases.push_back({"scan/cumsum,reverse,max_scan_2d", false, true,
                   [](const Env &e) { runScan(e, "scan/cumsum,reverse,max_scan_2d"); }});
  cases.push_back({"fp8/e4m3,e5m2", false, true,
                   [](const Env &e) { runFp8(e, "fp8/e4m3,e5m2"); }});
  cases.push_back({"rounding/rtz fp16,bf16", false, true,
                   [](const Env &e) { runRoundTowardZero(e, "rounding/rtz fp16,bf16"); }});
  cases.push_back({"libdevice/gelu_tanh,pow,atan2,log1p,fmod,erfc,cbrt,sinh", false, true,
                   [](const Env &e) { runLibdevice(e, "libdevice"); }});
  cases.push_back({"atomics/fp16,bf16 max,min", false, true,
                   [](const Env &e) { runHalfAtomics(e, "atomics/fp16,bf16"); }});
  cases.push_back({"atomics/fp16 xchg", false, true,
                   [](const Env &e) { runHalfXchg(e, "atomics/fp16 xchg"); }});
  cases.push_back({"atomics/add,max,min", false, true,
                   [](const Env &e) { runAtomics(e, "atomics/add,max,min"); }});
  cases.push_back({"unsigned/u8,u32,u64 ops,promotion,atomics", false, true,
                   [](const Env &e) {
                     runUnsigned(e, "unsigned/u8,u32,u64 ops,promotion,atomics");
                   }});
  cases.push_back({"refuse/arg_count", false, true, [](const Env &e) {
                     runRefusal(
                         e, [](std::vector<Arg> &a, CUdeviceptr) { a.pop_back(); },
                         "kernel 'add_kernel' expects 4 arguments "
                         "(signature '*fp32:16,*fp32:16,*fp32:16,i32:16'), "
                         "found 3");
                   }});
  cases.push_back({"refuse/misaligned_pointer", false, true, [](const Env &e) {
                     runRefusal(
                         e,
                         [](std::vector<Arg> &a, CUdeviceptr x) {
                           a[0] = Arg::ptr(x + 4);
                         },
                         "is not 16-byte aligned as the signature *fp32:16 "
                         "requires");
                   }});
  cases.push_back({"refuse/n_not_divisible", false, true, [](const Env &e) {
                     runRefusal(
                         e,
                         [](std::vector<Arg> &a, CUdeviceptr) {
                           a[3] = Arg::i32(98433);
                         },
                         "argument 3 of kernel 'add_kernel': 98433 is not "
                         "divisible by 16 as the signature i32:16 requires");
                   }});
  cases.push_back({"refuse/null_pointer", false, true, [](const Env &e) {
                     runRefusal(
                         e,
                         [](std::vector<Arg> &a, CUdeviceptr) {
                           a[1] = Arg::ptr(CUdeviceptr(0));
                         },
                         "argument 1 of kernel 'add_kernel': a null pointer "
                         "for *fp32:16");
                   }});
  cases.push_back({"refuse/u32_past_i32", false, true, [](const Env &e) {
                     runRefusal(
                         e,
                         [](std::vector<Arg> &a, CUdeviceptr) {
                           a[3] = Arg::u32(0x80000010u);
                         },
                         "argument 3 of kernel 'add_kernel': 2147483664 (u32) "
                         "does not fit in i32");
                   }});
  cases.push_back({"runtime/c_api_errors", false, true,
                   [](const Env &e) { runCApiErrors(e); }});
  cases.push_back({"refuse/wrong_kind", false, true, [](const Env &e) {
                     runRefusal(
                         e,
                         [](std::vector<Arg> &a, CUdeviceptr) {
                           a[3] = Arg::f32(98432.0f);
                         },
                         "argument 3 of kernel 'add_kernel': expected i32, "
                         "found f32");
                   }});
  // tl.dot: GEMMs per input type and precision, transposes, pipelining.
  addDotCases(cases);
  // Fused attention forward (attention.py): online softmax, two chained dots.
  addAttentionCases(cases);
  // The MLP block (mlp.py): Linear -> GELU -> Linear, unfused and fused.
  addMlpCases(cases);
  addGraphCases(cases);
  // Triton-semantics parity: atomics on replicated tiles, ...
  addSemanticsCases(cases);
  // tl.randint & co. against a CPU Philox; the Philox known answers.
  addRandomCases(cases);
  // tl.device_print and tl.device_assert, in child processes.
  addDebugCases(cases);
  return cases;
}

/// <directory of this executable>/../kernels.
std::string defaultKernelDir() {
  char buf[4096];
  ssize_t len = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0)
    return "kernels";
  std::string exe(buf, size_t(len));
  size_t slash = exe.rfind('/');
  return (slash == std::string::npos ? std::string(".") : exe.substr(0, slash)) +
         "/../kernels";
}

/// Whether case `name` is selected by --only `only`: a comma-separated
/// list of case names or kernel names (a kernel name selects all of its
/// cases: --only add_kernel_ragged,transpose_kernel).
bool selected(const std::string &name, const std::string &only) {
  if (only.empty())
    return true;
  size_t begin = 0;
  while (begin <= only.size()) {
    size_t end = only.find(',', begin);
    if (end == std::string::npos)
      end = only.size();
    std::string one = only.substr(begin, end - begin);
    if (!one.empty() &&
        (name == one || name.compare(0, one.size() + 1, one + "/") == 0))
      return true;
    begin = end + 1;
  }
  return false;
}

int usage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [KERNEL_DIR] [--only CASE[,CASE...]] [--quick] "
               "[--seed N] [--list] [--selftest] [--verbose]\n",
               argv0);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  // A debugging case's child process (DebugTests.cpp).
  if (argc >= 2 && std::string(argv[1]) == "--debug-child")
    return runDebugChild(argc - 2, argv + 2);
  std::string kernelDir, only;
  bool quick = false, list = false, selfTest = false, verbose = false;
  uint64_t seed = 20261129;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--quick")
      quick = true;
    else if (a == "--list")
      list = true;
    else if (a == "--selftest")
      selfTest = true;
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "-h" || a == "--help" || (!a.empty() && a[0] == '-') ||
             !kernelDir.empty())
      return usage(argv[0]);
    else
      kernelDir = a;
  }
  std::vector<TestCase> cases = allCases();
  if (list) {
    for (const TestCase &c : cases)
      std::printf("%s%s\n", c.name.c_str(), c.big ? " (big)" : "");
    return 0;
  }
  bool any = false;
  for (const TestCase &c : cases)
    any |= selected(c.name, only);
  if (!any) {
    std::fprintf(stderr, "error: no case matches --only '%s' (see --list)\n",
                 only.c_str());
    return 2;
  }

  // skipped: missing kernel files (a packaging bug, exit 1); notBuilt:
  // kernels this build deliberately left out (CaseSkip::expected).
  int passed = 0, failed = 0, skipped = 0, notBuilt = 0;
  auto runCase = [&](const TestCase &c, const Env &env) {
    try {
      c.run(env);
      std::printf("PASS %s\n", c.name.c_str());
      ++passed;
    } catch (const CaseFailure &f) {
      std::printf("FAIL %s: %s\n", c.name.c_str(), f.what.c_str());
      ++failed;
    } catch (const CaseSkip &sk) {
      std::printf("SKIP %s: %s\n", c.name.c_str(), sk.what.c_str());
      ++(sk.expected ? notBuilt : skipped);
    } catch (const std::exception &e) {
      std::printf("FAIL %s: exception: %s\n", c.name.c_str(), e.what());
      ++failed;
    }
  };

  Env env;
  env.verbose = verbose;
  if (selfTest) {
    // CPU-only cases, no driver: usable on a build machine without a GPU.
    for (const TestCase &c : cases)
      if (!c.needsGpu && selected(c.name, only))
        runCase(c, env);
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }
  env.kernelDir = kernelDir.empty() ? defaultKernelDir() : kernelDir;
  env.seed = seed;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);

  Status s = Context::create(0, env.context);
  if (!s.ok()) {
    if (s.driverCall() == "cuInit" || s.driverCall() == "cuDeviceGet" ||
        s.driverResult() == CUDA_ERROR_NO_DEVICE) {
      std::printf("skipped: no CUDA driver/GPU (%s: %s)\n",
                  s.driverCall().c_str(),
                  s.message().substr(s.message().find(": ") + 2).c_str());
      return 77;
    }
    std::printf("error: %s\n", s.message().c_str());
    return 1;
  }
  std::printf("device 0: %s (sm_%d), kernels: %s, seed: %llu%s\n",
              env.context->deviceName().c_str(),
              env.context->computeCapability(), env.kernelDir.c_str(),
              (unsigned long long)seed, quick ? ", --quick" : "");

  for (const TestCase &c : cases)
    if (selected(c.name, only) && !(quick && c.big))
      runCase(c, env);
  if (skipped)
    std::printf("%d skipped: missing kernel files are a packaging bug\n",
                skipped);
  if (notBuilt)
    std::printf("%d skipped: kernels this build does not compile (the "
                "SKIP lines say why)\n",
                notBuilt);
  if (skipped + notBuilt)
    std::printf("%d passed, %d failed, %d skipped\n", passed, failed,
                skipped + notBuilt);
  else
    std::printf("%d passed, %d failed\n", passed, failed);
  return failed || skipped ? 1 : 0;
}
