//===- MlpTests.cpp - The fused MLP against float64 -------------*- C++ -*-===//
//
// The cases of test/GPU/kernels/py/mlp.py (issue 12's MLP block, Linear ->
// GELU -> Linear), specialized in test/CMakeLists.txt:
//  - linear_kernel, Y = act(X W^T + b), as mlp_linear_{fp16,bf16}_{gelu,none}
//    (128x128x64 tiles, padded row-major matrices: leading dimensions
//    multiples of 16 elements, sizes ragged), mlp_linear_*_gelu_plain
//    (64x64x32, every integer plain: odd leading dimensions) and the
//    benchmark's bench_mlp_linear_* (128x256x64, sizes multiples of 16);
//  - the two-launch MLP (mlp_unfused_*: the GELU layer, then the plain one on
//    the intermediate the GPU wrote);
//  - fused_mlp_kernel, Y = gelu(X W1^T + b1) W2^T + b2 with the intermediate
//    rounded to the input type on chip, as mlp_fused_{fp16,bf16} and
//    bench_mlp_fused_*.
// W is nn.Linear's [N, K] weight, the biases are of the input's type. Each
// output is checked element by element against a float64 reference computed
// from the inputs as stored; outputs are poisoned (0xFF bytes), and the
// padding columns of Y and kGuard elements past its end must keep the poison.
// X is uniform in [-1, 1], the biases in [-1, 1], each W in [-4 s, 4 s] with
// s the power of two nearest 1.1 / sqrt(fan-in), so the pre-activations have
// a standard deviation of about 1.3: GELU's curved part, its negative tail,
// and its near-identity part all occur.
//
// Tolerances, per element (u: the half ulp of the type, 2^-11 fp16, 2^-8
// bf16... relative; u32 = 2^-24; S = sum_k |x_k w_k| over the fan-in K):
//  - the fp32 tensor-core sum of exact products: |dz| <= g_K S with
//    g_K = 2 (K + 1) 2^-23 (DotTests.cpp's bound), then + b in fp32:
//    ez = g_K S + u32 (|z| + g_K S);
//  - GELU in fp32 on z + dz: |gelu'| <= 1.13, so 1.13 ez, plus its own
//    evaluation, x sqrt(1/2), erff (libdevice: 2 ulp; 4 allowed), 1 + erf
//    and the products: eg = 0.5 |z| (2^-21 + 2^-23 |z|) + 2^-23 |gelu z|;
//  - the rounding of the output: u (|ref| + e) plus fp16's subnormal half
//    ulp 2^-25.
// So |Y - ref| <= e + u (|ref| + e) + f, e = ez (+ 1.13 ez + eg with GELU).
// The fused kernel rounds the intermediate h = gelu(z) to the input type:
// the reference rounds the float64 h the same way (hr = round(h)); where
// the kernel's fp32 h, within eh = 1.13 ez + eg of h, may round to the
// other neighbour, the element's bound gets that ulp times |w2| (dh).
// The second sum: g_H (sum_j |hr_j w2_j| + sum_j dh_j |w2_j|) + the dh term.
//
// The CPU case selftest/mlp_reference runs a float32 emulation of each
// kernel through the same check, and deliberately broken emulations (the
// tanh-approximated GELU instead of erf, the bias dropped, the intermediate
// not rounded to the input type) that must fail it.
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtils.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::gputest;

namespace {

constexpr uint16_t kPoison16 = 0xFFFF;

enum class MlpElem { F16, BF16 };

uint16_t encode(MlpElem e, float f) {
  return e == MlpElem::F16 ? floatToHalf(f) : floatToBf16(f);
}
double decode(MlpElem e, uint16_t bits) {
  return e == MlpElem::F16 ? halfToFloat(bits) : bf16ToFloat(bits);
}
/// The relative half ulp of the type.
double halfUlp(MlpElem e) {
  return e == MlpElem::F16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
}
/// The absolute rounding floor of the type (fp16's subnormal half ulp).
double subnormalFloor(MlpElem e) {
  return e == MlpElem::F16 ? std::ldexp(1.0, -25) : std::ldexp(1.0, -134);
}
const char *elemName(MlpElem e) { return e == MlpElem::F16 ? "fp16" : "bf16"; }

double geluExact(double z) { return 0.5 * z * (1.0 + std::erf(z * M_SQRT1_2)); }

/// A row-major [rows, cols] matrix with `ld` elements between rows: its
/// encoding (what the device reads; padding is 0) and the decoded values.
struct Matrix {
  int rows = 0, cols = 0, ld = 0;
  std::vector<uint16_t> bits;
  std::vector<double> value; // [rows][cols]
  double at(int r, int c) const { return value[size_t(r) * cols + c]; }
};

/// Random elements uniform in [-4 scale, 4 scale] (never below scale / 16
/// in magnitude), rounded to the type; `scale` a power of two.
Matrix randomMatrix(MlpElem e, int rows, int cols, int ld, Rng &rng,
                    double scale) {
  Matrix m;
  m.rows = rows, m.cols = cols, m.ld = ld;
  m.bits.assign(size_t(rows) * ld, 0);
  m.value.assign(size_t(rows) * cols, 0.0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      uint16_t b = encode(e, float(rng.value() * scale));
      m.bits[size_t(r) * ld + c] = b;
      m.value[size_t(r) * cols + c] = decode(e, b);
    }
  return m;
}

/// The weight scale for a fan-in of K: the power of two nearest
/// 1.1 / sqrt(K) (file comment).
double weightScale(int K) {
  return std::ldexp(1.0, int(std::lround(std::log2(1.1 / std::sqrt(
                              double(std::max(K, 1)))))));
}

int align16(int n) { return std::max(16, (n + 15) / 16 * 16); }

/// The float64 result and per-element bound of a [rows, cols] output.
struct Reference {
  std::vector<double> y, bound;
};

/// g_K of the file comment.
double sumBound(int K) {
  return K == 0 ? 0.0 : 2.0 * (K + 1) * std::ldexp(1.0, -23);
}

/// The pre-activation z = x . w + b of one element and its fp32 bound ez.
void preActivation(const Matrix &x, int r, const Matrix &w, int c,
                   const Matrix &b, double &z, double &ez) {
  double s = 0, mag = 0;
  for (int k = 0; k < x.cols; ++k) {
    double p = x.at(r, k) * w.at(c, k);
    s += p;
    mag += std::fabs(p);
  }
  z = s + b.at(0, c);
  double g = sumBound(x.cols) * mag;
  ez = g + std::ldexp(std::fabs(z) + g, -24);
}

/// GELU's value and the bound of its fp32 evaluation on z +- ez.
void geluWithBound(double z, double ez, double &h, double &eh) {
  h = geluExact(z);
  eh = 1.13 * ez + 0.5 * std::fabs(z) * (std::ldexp(1.0, -21) +
                                         std::ldexp(std::fabs(z), -23)) +
       std::ldexp(std::fabs(h), -23);
}

/// The final bound: e plus the rounding to the output type.
double outputBound(MlpElem elem, double ref, double e) {
  return e + halfUlp(elem) * (std::fabs(ref) + e) + subnormalFloor(elem);
}

/// linear_kernel's reference: Y = act(X W^T + b).
Reference linearReference(MlpElem elem, const Matrix &x, const Matrix &w,
                          const Matrix &b, bool gelu) {
  Reference ref;
  size_t n = size_t(x.rows) * w.rows;
  ref.y.assign(n, 0.0);
  ref.bound.assign(n, 0.0);
  for (int r = 0; r < x.rows; ++r)
    for (int c = 0; c < w.rows; ++c) {
      double z, ez;
      preActivation(x, r, w, c, b, z, ez);
      double y = z, e = ez;
      if (gelu)
        geluWithBound(z, ez, y, e);
      ref.y[size_t(r) * w.rows + c] = y;
      ref.bound[size_t(r) * w.rows + c] = outputBound(elem, y, e);
    }
  return ref;
}

/// fused_mlp_kernel's reference: Y = round(gelu(X W1^T + b1)) W2^T + b2.
Reference fusedReference(MlpElem elem, const Matrix &x, const Matrix &w1,
                         const Matrix &b1, const Matrix &w2,
                         const Matrix &b2) {
  const int H = w1.rows, N = w2.rows;
  Reference ref;
  ref.y.assign(size_t(x.rows) * N, 0.0);
  ref.bound.assign(size_t(x.rows) * N, 0.0);
  std::vector<double> hr(H), dh(H);
  const double gH = sumBound(H);
  for (int r = 0; r < x.rows; ++r) {
    for (int j = 0; j < H; ++j) {
      double z, ez, h, eh;
      preActivation(x, r, w1, j, b1, z, ez);
      geluWithBound(z, ez, h, eh);
      hr[j] = decode(elem, encode(elem, float(h)));
      // The kernel's fp32 h lies within eh of h: it may round to a
      // neighbour of hr (at most one ulp away for eh far below an ulp).
      double worst = 0;
      for (double cand : {h - eh, h + eh})
        worst = std::max(worst,
                         std::fabs(decode(elem, encode(elem, float(cand))) -
                                   hr[j]));
      dh[j] = worst;
    }
    for (int c = 0; c < N; ++c) {
      double s = 0, mag = 0, flip = 0;
      for (int j = 0; j < H; ++j) {
        double wv = w2.at(c, j);
        s += hr[j] * wv;
        mag += std::fabs(hr[j] * wv);
        flip += dh[j] * std::fabs(wv);
      }
      double y = s + b2.at(0, c);
      double e = flip + gH * (mag + flip);
      e += std::ldexp(std::fabs(y) + e, -24); // + b2 in fp32
      ref.y[size_t(r) * N + c] = y;
      ref.bound[size_t(r) * N + c] = outputBound(elem, y, e);
    }
  }
  return ref;
}

/// Checks Y ([rows, cols] with `ld` elements between rows, kGuard
/// elements after rows * ld) against the reference: the padding columns
/// and the guard keep the poison. With `info`, prints the worst error
/// relative to its bound.
void checkOutput(MlpElem elem, const Reference &ref, int rows, int cols,
                 int ld, const std::vector<uint16_t> &yBits, bool info,
                 const std::string &caseName, const char *what = "Y") {
  char buf[400];
  size_t end = size_t(rows) * ld;
  for (size_t g = 0; g < kGuard; ++g)
    if (yBits[end + g] != kPoison16)
      failCase(std::string(what) + " guard element " + std::to_string(g) +
               " past the end was written");
  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = cols; c < ld; ++c)
      if (yBits[size_t(r) * ld + c] != kPoison16) {
        std::snprintf(buf, sizeof(buf),
                      "%s padding (%d, %d) past column %d was written", what,
                      r, c, cols);
        failCase(buf);
      }
    for (int c = 0; c < cols; ++c) {
      uint16_t bits = yBits[size_t(r) * ld + c];
      double found = decode(elem, bits), want = ref.y[size_t(r) * cols + c];
      double err = std::fabs(found - want),
             bound = ref.bound[size_t(r) * cols + c];
      if (bits == kPoison16 || !(err <= bound)) {
        std::snprintf(buf, sizeof(buf),
                      "%s (%d, %d): expected %.9g, found %.9g (0x%04x)%s: "
                      "error %.3g > bound %.3g",
                      what, r, c, want, found, unsigned(bits),
                      bits == kPoison16 ? " (never written)" : "", err, bound);
        failCase(buf);
      }
      if (bound > 0)
        worst = std::max(worst, err / bound);
    }
  }
  if (info)
    std::printf("INFO %s: worst %s element at %.3g of its bound\n",
                caseName.c_str(), what, worst);
}

//===----------------------------------------------------------------------===//
// The GPU cases
//===----------------------------------------------------------------------===//

/// A specialization of linear_kernel or fused_mlp_kernel: its file, tile
/// shape (the grid) and whether its leading dimensions must be multiples
/// of 16 (the `_aligned` and bench signatures) or may be anything.
struct MlpKernel {
  std::string file;
  MlpElem elem;
  int blockM, blockN;
  bool aligned;
};

/// One problem: X [M, K], W1 [H, K] (linear: W [N = H, K]), W2 [N, H].
struct MlpShape {
  int M = 1, K = 1, H = 1, N = 1;
};

std::string shapeName(const MlpShape &s, bool fused) {
  return "M=" + std::to_string(s.M) + ",K=" + std::to_string(s.K) +
         (fused ? ",H=" + std::to_string(s.H) + ",N=" : ",N=") +
         std::to_string(fused ? s.N : s.H);
}

/// A matrix on the device, its contents uploaded.
struct DeviceMatrix {
  DeviceBuffer buffer;
  explicit DeviceMatrix(const Matrix &m)
      : buffer(std::max<size_t>(m.bits.size(), 1) * 2) {
    if (!m.bits.empty())
      buffer.upload(m.bits);
  }
  CUdeviceptr get() const { return buffer.get(); }
};

/// Launches linear_kernel of `k` on X and W ([N, K]) and b, and returns Y
/// ([M, N] with leading dimension ldy, kGuard elements after; poisoned
/// before the launch).
std::vector<uint16_t> launchLinear(const Env &env, const MlpKernel &k,
                                   const Matrix &x, const Matrix &w,
                                   const Matrix &b, int ldy) {
  Kernel kernel = dotKernel(env, k.file, "linear_kernel");
  const int M = x.rows, N = w.rows, K = x.cols;
  DeviceMatrix dX(x), dW(w), dB(b);
  size_t yElems = size_t(M) * ldy + kGuard;
  DeviceBuffer dY(yElems * 2);
  dY.poison();
  unsigned grid = cdiv(M, k.blockM) * cdiv(N, k.blockN);
  check(kernel.launch(
      Grid{grid, 1, 1},
      {Arg::ptr(dX.get()), Arg::ptr(dW.get()), Arg::ptr(dB.get()),
       Arg::ptr(dY.get()), Arg::i32(M), Arg::i32(N), Arg::i32(K),
       Arg::i32(x.ld), Arg::i32(1), Arg::i32(w.ld), Arg::i32(1),
       Arg::i32(ldy), Arg::i32(1)}));
  env.sync();
  return dY.download<uint16_t>(yElems);
}

/// The leading dimension of a matrix of `cols` columns for kernel `k`:
/// padded to 16 elements for the aligned signatures, cols + 3 (odd,
/// unaligned) for the plain ones.
int leading(const MlpKernel &k, int cols) {
  return k.aligned ? align16(cols) : cols + 3;
}

void runLinear(const Env &env, const std::string &caseName,
               const MlpKernel &k, bool gelu, const MlpShape &s) {
  Rng rng = env.rng(caseName);
  Matrix x = randomMatrix(k.elem, s.M, s.K, leading(k, s.K), rng, 0.25);
  Matrix w = randomMatrix(k.elem, s.H, s.K, leading(k, s.K), rng,
                          weightScale(s.K));
  Matrix b = randomMatrix(k.elem, 1, s.H, s.H, rng, 0.25);
  int ldy = leading(k, s.H);
  std::vector<uint16_t> y = launchLinear(env, k, x, w, b, ldy);
  Reference ref = linearReference(k.elem, x, w, b, gelu);
  checkOutput(k.elem, ref, s.M, s.H, ldy, y, env.verbose, caseName);
}

/// The MLP as two linear_kernel launches: Y1 = gelu(X W1^T + b1) checked
/// against X, then Y = Y1 W2^T + b2 checked against the Y1 the GPU wrote.
void runUnfused(const Env &env, const std::string &caseName,
                const MlpKernel &up, const MlpKernel &down,
                const MlpShape &s) {
  Rng rng = env.rng(caseName);
  Matrix x = randomMatrix(up.elem, s.M, s.K, leading(up, s.K), rng, 0.25);
  Matrix w1 = randomMatrix(up.elem, s.H, s.K, leading(up, s.K), rng,
                           weightScale(s.K));
  Matrix b1 = randomMatrix(up.elem, 1, s.H, s.H, rng, 0.25);
  Matrix w2 = randomMatrix(up.elem, s.N, s.H, leading(down, s.H), rng,
                           weightScale(s.H));
  Matrix b2 = randomMatrix(up.elem, 1, s.N, s.N, rng, 0.25);
  int ldh = leading(up, s.H), ldy = leading(down, s.N);
  std::vector<uint16_t> hBits = launchLinear(env, up, x, w1, b1, ldh);
  checkOutput(up.elem, linearReference(up.elem, x, w1, b1, true), s.M, s.H,
              ldh, hBits, env.verbose, caseName, "intermediate");
  // The intermediate as the second launch reads it: [M, H], ld = ldh.
  Matrix h;
  h.rows = s.M, h.cols = s.H, h.ld = ldh;
  h.bits.assign(hBits.begin(), hBits.begin() + size_t(s.M) * ldh);
  h.value.assign(size_t(s.M) * s.H, 0.0);
  for (int r = 0; r < s.M; ++r)
    for (int c = 0; c < s.H; ++c)
      h.value[size_t(r) * s.H + c] = decode(up.elem, h.bits[size_t(r) * ldh + c]);
  std::vector<uint16_t> y = launchLinear(env, down, h, w2, b2, ldy);
  checkOutput(up.elem, linearReference(up.elem, h, w2, b2, false), s.M, s.N,
              ldy, y, env.verbose, caseName);
}

void runFused(const Env &env, const std::string &caseName, const MlpKernel &k,
              const MlpShape &s) {
  Kernel kernel = dotKernel(env, k.file, "fused_mlp_kernel");
  Rng rng = env.rng(caseName);
  Matrix x = randomMatrix(k.elem, s.M, s.K, leading(k, s.K), rng, 0.25);
  Matrix w1 = randomMatrix(k.elem, s.H, s.K, leading(k, s.K), rng,
                           weightScale(s.K));
  Matrix b1 = randomMatrix(k.elem, 1, s.H, s.H, rng, 0.25);
  Matrix w2 = randomMatrix(k.elem, s.N, s.H, leading(k, s.H), rng,
                           weightScale(s.H));
  Matrix b2 = randomMatrix(k.elem, 1, s.N, s.N, rng, 0.25);
  int ldy = leading(k, s.N);
  DeviceMatrix dX(x), dW1(w1), dB1(b1), dW2(w2), dB2(b2);
  size_t yElems = size_t(s.M) * ldy + kGuard;
  DeviceBuffer dY(yElems * 2);
  dY.poison();
  check(kernel.launch(
      Grid{cdiv(s.M, k.blockM), cdiv(s.N, k.blockN), 1},
      {Arg::ptr(dX.get()), Arg::ptr(dW1.get()), Arg::ptr(dB1.get()),
       Arg::ptr(dW2.get()), Arg::ptr(dB2.get()), Arg::ptr(dY.get()),
       Arg::i32(s.M), Arg::i32(s.K), Arg::i32(s.H), Arg::i32(s.N),
       Arg::i32(x.ld), Arg::i32(1), Arg::i32(w1.ld), Arg::i32(1),
       Arg::i32(w2.ld), Arg::i32(1), Arg::i32(ldy), Arg::i32(1)}));
  env.sync();
  std::vector<uint16_t> y = dY.download<uint16_t>(yElems);
  Reference ref = fusedReference(k.elem, x, w1, b1, w2, b2);
  checkOutput(k.elem, ref, s.M, s.N, ldy, y, env.verbose, caseName);
}

//===----------------------------------------------------------------------===//
// The CPU check of the reference and its bounds
//===----------------------------------------------------------------------===//

/// Deliberate mistakes for the emulations: each must fail the check.
enum class MlpBug { None, TanhGelu, NoBias, UnroundedIntermediate };

/// GELU as the kernels compute it (fp32, erf), or with the bug, tanh's
/// approximation (torch's approximate="tanh").
float emulatedGelu(float z, MlpBug bug) {
  if (bug == MlpBug::TanhGelu)
    return 0.5f * z *
           (1.0f + std::tanh(0.7978845608f * (z + 0.044715f * z * z * z)));
  return 0.5f * z * (1.0f + std::erf(z * 0.7071067811865476f));
}

/// linear_kernel in float32: sums over K, + b (dropped with NoBias), act.
std::vector<uint16_t> emulateLinear(MlpElem elem, const Matrix &x,
                                    const Matrix &w, const Matrix &b,
                                    bool gelu, int ldy, MlpBug bug) {
  std::vector<uint16_t> y(size_t(x.rows) * ldy + kGuard, kPoison16);
  for (int r = 0; r < x.rows; ++r)
    for (int c = 0; c < w.rows; ++c) {
      float acc = 0;
      for (int k = 0; k < x.cols; ++k)
        acc += float(x.at(r, k)) * float(w.at(c, k));
      if (bug != MlpBug::NoBias)
        acc += float(b.at(0, c));
      if (gelu)
        acc = emulatedGelu(acc, bug);
      y[size_t(r) * ldy + c] = encode(elem, acc);
    }
  return y;
}

/// fused_mlp_kernel in float32: h rounded to the type (not with
/// UnroundedIntermediate), then the second sum and b2.
std::vector<uint16_t> emulateFused(MlpElem elem, const Matrix &x,
                                   const Matrix &w1, const Matrix &b1,
                                   const Matrix &w2, const Matrix &b2, int ldy,
                                   MlpBug bug) {
  const int H = w1.rows, N = w2.rows;
  std::vector<uint16_t> y(size_t(x.rows) * ldy + kGuard, kPoison16);
  std::vector<float> h(H);
  for (int r = 0; r < x.rows; ++r) {
    for (int j = 0; j < H; ++j) {
      float z = 0;
      for (int k = 0; k < x.cols; ++k)
        z += float(x.at(r, k)) * float(w1.at(j, k));
      if (bug != MlpBug::NoBias)
        z += float(b1.at(0, j));
      h[j] = emulatedGelu(z, bug);
      if (bug != MlpBug::UnroundedIntermediate)
        h[j] = float(decode(elem, encode(elem, h[j])));
    }
    for (int c = 0; c < N; ++c) {
      float acc = 0;
      for (int j = 0; j < H; ++j)
        acc += h[j] * float(w2.at(c, j));
      if (bug != MlpBug::NoBias)
        acc += float(b2.at(0, c));
      y[size_t(r) * ldy + c] = encode(elem, acc);
    }
  }
  return y;
}

void mlpSelfTest(const Env &env) {
  struct Check {
    bool fused, gelu;
    MlpElem elem;
    MlpShape shape;
    MlpBug bug;
  };
  auto shape = [](int M, int K, int H, int N) {
    MlpShape s;
    s.M = M, s.K = K, s.H = H, s.N = N;
    return s;
  };
  const MlpElem F16 = MlpElem::F16, BF16 = MlpElem::BF16;
  // The broken fused emulations use a few hidden units: over hundreds the
  // intermediate's rounding (or the tanh form's change of it) averages out
  // below the output's own rounding, for any check.
  const Check checks[] = {
      {false, true, F16, shape(67, 300, 130, 0), MlpBug::None},
      {false, false, BF16, shape(67, 300, 130, 0), MlpBug::None},
      {false, true, BF16, shape(1, 1, 1, 0), MlpBug::None},
      {false, true, F16, shape(40, 1000, 64, 0), MlpBug::None},
      {true, true, F16, shape(50, 100, 300, 70), MlpBug::None},
      {true, true, BF16, shape(50, 256, 1024, 40), MlpBug::None},
      {true, true, BF16, shape(3, 1, 1, 1), MlpBug::None},
      {false, true, F16, shape(64, 100, 64, 0), MlpBug::TanhGelu},
      {false, true, BF16, shape(64, 100, 64, 0), MlpBug::TanhGelu},
      {false, false, BF16, shape(64, 100, 64, 0), MlpBug::NoBias},
      {true, true, F16, shape(64, 64, 2, 64), MlpBug::TanhGelu},
      {true, true, F16, shape(64, 64, 100, 64), MlpBug::NoBias},
      {true, true, F16, shape(64, 64, 4, 64), MlpBug::UnroundedIntermediate},
      {true, true, BF16, shape(64, 64, 4, 64),
       MlpBug::UnroundedIntermediate},
  };
  static const char *const bugNames[] = {
      "none", "tanh GELU instead of erf", "bias dropped",
      "intermediate not rounded"};
  int index = 0;
  for (const Check &c : checks) {
    const MlpShape &s = c.shape;
    Rng rng = env.rng("selftest/mlp_reference/" + std::to_string(index++));
    Matrix x = randomMatrix(c.elem, s.M, s.K, s.K, rng, 0.25);
    Matrix w1 = randomMatrix(c.elem, s.H, s.K, s.K, rng, weightScale(s.K));
    Matrix b1 = randomMatrix(c.elem, 1, s.H, s.H, rng, 0.25);
    std::vector<uint16_t> y;
    Reference ref;
    int cols;
    if (c.fused) {
      Matrix w2 = randomMatrix(c.elem, s.N, s.H, s.H, rng, weightScale(s.H));
      Matrix b2 = randomMatrix(c.elem, 1, s.N, s.N, rng, 0.25);
      cols = s.N;
      y = emulateFused(c.elem, x, w1, b1, w2, b2, cols, c.bug);
      ref = fusedReference(c.elem, x, w1, b1, w2, b2);
    } else {
      cols = s.H;
      y = emulateLinear(c.elem, x, w1, b1, c.gelu, cols, c.bug);
      ref = linearReference(c.elem, x, w1, b1, c.gelu);
    }
    char what[160];
    std::snprintf(what, sizeof(what), "%s,%s,%s", c.fused ? "fused" : "linear",
                  c.gelu ? "gelu" : "none", elemName(c.elem));
    std::string desc = std::string(what) + "," + shapeName(s, c.fused);
    if (c.bug == MlpBug::None) {
      try {
        checkOutput(c.elem, ref, s.M, cols, cols, y, env.verbose,
                    "selftest/mlp_reference " + desc);
      } catch (const CaseFailure &f) {
        failCase("the float32 emulation fails the check (" + desc +
                 "): " + f.what);
      }
      continue;
    }
    const char *bugName = bugNames[int(c.bug)];
    bool caught = false;
    try {
      checkOutput(c.elem, ref, s.M, cols, cols, y, false, "");
    } catch (const CaseFailure &f) {
      caught = true;
      if (env.verbose)
        std::printf("INFO selftest/mlp_reference: the emulation with \"%s\" "
                    "(%s) fails as it must: %s\n",
                    bugName, desc.c_str(), f.what.c_str());
    }
    if (!caught)
      failCase(std::string("an emulation with \"") + bugName + "\" (" + desc +
               ") passes the check");
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void tilec::gputest::addMlpCases(std::vector<TestCase> &cases) {
  auto shape = [](int M, int K, int H, int N = 0) {
    MlpShape s;
    s.M = M, s.K = K, s.H = H, s.N = N;
    return s;
  };
  for (MlpElem elem : {MlpElem::F16, MlpElem::BF16}) {
    const std::string dt = elemName(elem);
    // linear_kernel: (M, K, N) in shape(M, K, N). One element; a row; a
    // ragged tile in every dimension; 8 x 3 tiles with 9 K steps, the last
    // partial; K = 0 (Y = act(b)); K below one step.
    const std::vector<std::pair<MlpShape, bool>> linearShapes = {
        {shape(1, 1, 1), false},      {shape(1, 64, 128), false},
        {shape(17, 100, 200), false}, {shape(1000, 520, 300), false},
        {shape(129, 8, 129), false},  {shape(17, 0, 64), false},
        {shape(300, 2048, 257), true},
    };
    for (bool gelu : {true, false}) {
      MlpKernel k{"mlp_linear_" + dt + (gelu ? "_gelu" : "_none"), elem, 128,
                  128, true};
      for (auto [s, big] : linearShapes) {
        std::string name = k.file + "/" + shapeName(s, false);
        cases.push_back({name, big, true, [=](const Env &e) {
                           runLinear(e, name, k, gelu, s);
                         }});
      }
    }
    {
      MlpKernel k{"mlp_linear_" + dt + "_gelu_plain", elem, 64, 64, false};
      for (MlpShape s : {shape(1, 1, 1), shape(17, 33, 45), shape(200, 77, 131)}) {
        std::string name = k.file + "/" + shapeName(s, false);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runLinear(e, name, k, true, s);
                         }});
      }
    }
    // The benchmark's linear kernels: sizes multiples of 16.
    for (bool gelu : {true, false}) {
      MlpKernel k{"bench_mlp_linear_" + dt + (gelu ? "_gelu" : "_none"), elem,
                  128, 256, true};
      for (MlpShape s : {shape(256, 512, 512), shape(144, 64, 272)}) {
        std::string name = k.file + "/" + shapeName(s, false);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runLinear(e, name, k, gelu, s);
                         }});
      }
    }
    // The unfused MLP: two launches, the intermediate through memory.
    {
      MlpKernel up{"mlp_linear_" + dt + "_gelu", elem, 128, 128, true};
      MlpKernel down{"mlp_linear_" + dt + "_none", elem, 128, 128, true};
      for (MlpShape s : {shape(1, 64, 256, 64), shape(17, 100, 300, 70),
                         shape(1000, 256, 1024, 256)}) {
        std::string name = "mlp_unfused_" + dt + "/" + shapeName(s, true);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runUnfused(e, name, up, down, s);
                         }});
      }
    }
    // fused_mlp_kernel: (M, K, H, N). One row; ragged everything; 8 row
    // blocks over 16 hidden chunks; three output blocks (the first GEMM
    // recomputed per block); H = 0 (Y = b2); K = 0 (h = gelu(b1)).
    {
      MlpKernel k{"mlp_fused_" + dt, elem, 128, 128, true};
      for (MlpShape s :
           {shape(1, 64, 64, 64), shape(17, 100, 300, 70),
            shape(1000, 256, 1024, 128), shape(129, 48, 200, 300),
            shape(5, 32, 0, 16), shape(33, 0, 70, 40)}) {
        std::string name = k.file + "/" + shapeName(s, true);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runFused(e, name, k, s);
                         }});
      }
    }
    {
      MlpKernel k{"bench_mlp_fused_" + dt, elem, 128, 128, true};
      for (MlpShape s : {shape(256, 256, 1024, 128), shape(144, 128, 512, 256)}) {
        std::string name = k.file + "/" + shapeName(s, true);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runFused(e, name, k, s);
                         }});
      }
    }
  }
  cases.push_back({"selftest/mlp_reference", false, false,
                   [](const Env &e) { mlpSelfTest(e); }});
}
