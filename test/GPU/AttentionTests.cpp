//===- AttentionTests.cpp - Fused attention against float64 -----*- C++ -*-===//
//
// The cases of attn_fwd_kernel (test/GPU/kernels/py/attention.py: Triton's
// tutorial 06 forward, FlashAttention-2's online softmax), specialized in
// test/CMakeLists.txt as attn_fwd_{fp16,bf16}_d{64,128}_{causal,full}
// (BLOCK_M 128, BLOCK_N 64, 8 warps, 3 stages), its tensor-descriptor form
// attn_fwd_desc_kernel as attn_fwd_desc_* (the same shapes but the BSHD
// one: it reads contiguous BHSD tensors) and the benchmark's
// bench_attn_fwd_*: O = softmax(Q K^T sm_scale, masked) V and the row's
// base-2 log-sum-exp M, checked against a float64 reference computed from
// the fp16/bf16 inputs as stored. Q and K are uniform in [-2, 2] and V in
// [-1, 1] (the harness's generator halved and quartered, both exact), so
// with sm_scale = 1/sqrt(D) the scaled scores have a standard deviation of
// about 1.3 and reach 4-5 over a few thousand keys: peaked rows and flat
// ones. O and M are poisoned (0xFF bytes) and 256 guard elements past
// each must keep the poison; the inputs' buffers end where the tensors end.
//
// Tolerances, per element, from what the kernel's arithmetic may lose (u_p:
// the half ulp of P's type, 2^-11 fp16, 2^-8 bf16; n: the row's visible
// keys; x_j: the row's base-2 scaled scores s_j sm_scale log2(e)):
//  - the scores: fp32 tensor-core sums of exact products, |ds_j| <=
//    g_D sum_d |q_d k_dj| with g_D = 2 (D + 1) 2^-23 (DotTests.cpp's bound),
//    then x_j = s_j * fp32(sm_scale * 1.44269504) and x_j - m in fp32
//    (2^-21 |x|_max covers the roundings and the truncated log2(e));
//    e2 = max_j g_D sum|q k| sm_scale log2(e) + 2^-21 max_j |x_j| bounds
//    each exponent's error, so each weight p_j = exp2(x_j - m) is off by a
//    relative ep = ln(2) e2 + (B + 1) 2^-21 at most (ex2.approx: 2^-22 per
//    call; B key blocks: one rescale of the old weights each). Weights off
//    by ep move a convex combination of the V rows by at most
//    2 ep max_j |v_jd| (sum_j p_j |v_jd - O_d| / l <= 2 max |v_d|);
//  - P rounded to P's type before the second dot: u_p relative for normal
//    values, so at most u_p A_d with A_d = sum_j p_j |v_jd| / l (the row
//    sum l is the unrounded one, >= 1); fp16 weights below 2^-14 lose up to
//    2^-25 each, at most n 2^-25 max |v_d| in all;
//  - the fp32 sums over n keys of the accumulator and of l (rescales
//    included): g_n = 2 (n + 1) 2^-23 relative to A_d;
//  - O rounded to its type: u_p (|ref| + e) + fp16's subnormal half ulp.
//  So |O - ref| <= e + u_p (|ref| + e) + f with
//  e = (u_p + g_n) A_d + 2.01 ep max|v_d| + [fp16] n 2^-25 max|v_d|: for
//  fp16 about 2.5e-3 max|V| at n = 4097, D = 128 (a flat 1e-2 max|V|
//  would be four times looser); bf16's 2^-8 rounding of P: ~6e-3 max|V|.
//  M = m + log2(l): |M - ref| <= e2 + (g_n + (B + 1) 2^-21) / ln(2)
//  + 2^-20 (1 + log2(n)) (log2 of 1 <= l <= n) + 2^-22 (|M| + max|x|)
//  (fp32 adds), ~2e-3 at the largest n. A row that sees no key (N_KV = 0)
//  must give O = 0 and M = 0 exactly.
//
// The CPU case selftest/attention_reference runs a float32 emulation of
// the kernel's algorithm (blocks of 64 keys, running max, P rounded) through
// the same check, and three deliberately broken emulations (a key dropped,
// the causal diagonal masked, M in natural log) that must fail it: the
// bounds hold for correct arithmetic and still catch wrong semantics.
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtils.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace tilec;
using namespace tilec::gputest;

namespace {

/// The kernels' BLOCK_M (rows per program) and BLOCK_N (keys per step).
constexpr int kBlockM = 128, kBlockN = 64;
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kLog2e = 1.44269504088896340736;
constexpr uint16_t kPoison16 = 0xFFFF;

enum class AttnElem { F16, BF16 };
/// BHSD: contiguous [Z, H, N, D] (torch's SDPA layout); BSHD: contiguous
/// [Z, N, H, D] (the heads of a projection's output), through the strides.
enum class AttnLayout { BHSD, BSHD };

uint16_t encode(AttnElem e, float f) {
  return e == AttnElem::F16 ? floatToHalf(f) : floatToBf16(f);
}
double decode(AttnElem e, uint16_t bits) {
  return e == AttnElem::F16 ? halfToFloat(bits) : bf16ToFloat(bits);
}

/// One problem: Z batches of H heads, N_Q queries and N_KV keys of D
/// elements each.
struct AttnShape {
  int Z = 1, H = 1, NQ = 1, NKV = 1, D = 64;
  bool causal = false;
  AttnElem elem = AttnElem::F16;
  AttnLayout layout = AttnLayout::BHSD;

  /// Strides in elements of a [Z, H, N, D] tensor along z, h, n and d.
  std::array<int64_t, 4> strides(int N) const {
    if (layout == AttnLayout::BHSD)
      return {int64_t(H) * N * D, int64_t(N) * D, D, 1};
    return {int64_t(N) * H * D, D, int64_t(H) * D, 1};
  }
  /// Offset of element (z, h, n, d) of a tensor of N rows per head.
  size_t offset(int N, int z, int h, int n, int d) const {
    std::array<int64_t, 4> s = strides(N);
    return size_t(z * s[0] + h * s[1] + n * s[2] + d * s[3]);
  }
  size_t elems(int N) const { return size_t(Z) * H * N * D; }
  /// Keys row i of a head sees.
  int visible(int i) const { return causal ? std::min(NKV, i + 1) : NKV; }
  float smScale() const { return float(1.0 / std::sqrt(double(D))); }
};

/// A [Z, H, N, D] input: its encoding in the shape's layout (what the
/// device reads) and the decoded values in logical [z][h][n][d] order.
struct AttnTensor {
  std::vector<uint16_t> bits;
  std::vector<double> value;
};

/// Random elements uniform in [-4 scale, 4 scale] (never below scale / 16
/// in magnitude), rounded to the shape's type; `scale` a power of two.
AttnTensor randomTensor(const AttnShape &s, int N, Rng &rng, float scale) {
  AttnTensor t;
  t.bits.assign(s.elems(N), 0);
  t.value.assign(s.elems(N), 0.0);
  for (int z = 0; z < s.Z; ++z)
    for (int h = 0; h < s.H; ++h)
      for (int n = 0; n < N; ++n)
        for (int d = 0; d < s.D; ++d) {
          uint16_t b = encode(s.elem, rng.value() * scale);
          t.bits[s.offset(N, z, h, n, d)] = b;
          t.value[((size_t(z) * s.H + h) * N + n) * s.D + d] =
              decode(s.elem, b);
        }
  return t;
}

/// The float64 result and the bound of each element (file comment).
struct AttnReference {
  std::vector<double> o, oBound; // [z][h][i][d]
  std::vector<double> m, mBound; // [z * H + h][i]
};

/// Runs body(row) for every row in [0, rows) on up to 16 threads: the
/// reference of the 4097-key cases is ~4e9 multiply-adds.
template <typename F> void parallelRows(size_t rows, F body) {
  unsigned threads =
      std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
  threads = unsigned(std::min<size_t>(threads, (rows + 31) / 32));
  if (threads <= 1) {
    for (size_t r = 0; r < rows; ++r)
      body(r);
    return;
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t begin; (begin = next.fetch_add(32)) < rows;)
      for (size_t r = begin; r < std::min(rows, begin + 32); ++r)
        body(r);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (std::thread &t : pool)
    t.join();
}

AttnReference attentionReference(const AttnShape &s, const AttnTensor &q,
                                 const AttnTensor &k, const AttnTensor &v) {
  const int D = s.D;
  const double scale = s.smScale(), scale2 = scale * kLog2e;
  const double uP =
      s.elem == AttnElem::F16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
  const double fOut =
      s.elem == AttnElem::F16 ? std::ldexp(1.0, -25) : std::ldexp(1.0, -134);
  const double gD = 2.0 * (D + 1) * std::ldexp(1.0, -23);
  // Key blocks a program visits: each may rescale the old weights once.
  const int blocks = int(cdiv(s.NKV, kBlockN)) + 1;
  AttnReference ref;
  size_t rows = size_t(s.Z) * s.H * s.NQ;
  ref.o.assign(rows * D, 0.0);
  ref.oBound.assign(rows * D, 0.0);
  ref.m.assign(rows, 0.0);
  ref.mBound.assign(rows, 0.0);
  parallelRows(rows, [&](size_t r) {
    size_t zh = r / s.NQ;
    int i = int(r % s.NQ), n = s.visible(i);
    if (n == 0)
      return; // O = 0, M = 0, exactly
    const double *qi = &q.value[r * D];
    const double *kh = &k.value[zh * s.NKV * D];
    const double *vh = &v.value[zh * s.NKV * D];
    std::vector<double> x(n);
    double maxMag = 0, xMax = -INFINITY, xAbs = 0;
    for (int j = 0; j < n; ++j) {
      const double *kj = kh + size_t(j) * D;
      // Four partial sums: the products and their sums are exact enough in
      // float64 (2 x 11-bit significands), and independent chains run fast.
      double a[4] = {0, 0, 0, 0}, g[4] = {0, 0, 0, 0};
      for (int d = 0; d < D; d += 4)
        for (int u = 0; u < 4; ++u) {
          double p = qi[d + u] * kj[d + u];
          a[u] += p;
          g[u] += std::fabs(p);
        }
      x[j] = ((a[0] + a[1]) + (a[2] + a[3])) * scale;
      maxMag = std::max(maxMag, (g[0] + g[1]) + (g[2] + g[3]));
      xMax = std::max(xMax, x[j]);
      xAbs = std::max(xAbs, std::fabs(x[j]) * kLog2e);
    }
    std::vector<double> o(D, 0.0), a(D, 0.0), vmax(D, 0.0);
    double l = 0;
    for (int j = 0; j < n; ++j) {
      double p = std::exp(x[j] - xMax);
      l += p;
      const double *vj = vh + size_t(j) * D;
      for (int d = 0; d < D; ++d) {
        o[d] += p * vj[d];
        a[d] += p * std::fabs(vj[d]);
        vmax[d] = std::max(vmax[d], std::fabs(vj[d]));
      }
    }
    double e2 = gD * maxMag * scale2 + std::ldexp(xAbs, -21);
    double ep = kLn2 * e2 + (blocks + 1) * std::ldexp(1.0, -21);
    double gN = 2.0 * (n + 1) * std::ldexp(1.0, -23);
    double sub = s.elem == AttnElem::F16 ? n * std::ldexp(1.0, -25) : 0.0;
    for (int d = 0; d < D; ++d) {
      double od = o[d] / l;
      double e = (uP + gN) * (a[d] / l) + 2.01 * ep * vmax[d] + sub * vmax[d];
      ref.o[r * D + d] = od;
      ref.oBound[r * D + d] = e + uP * (std::fabs(od) + e) + fOut;
    }
    double M = (xMax + std::log(l)) * kLog2e;
    ref.m[r] = M;
    // log2(l) with 1 <= l <= n: an absolute 2^-20 (lg2.approx) or a few
    // ulps of |log2 l| (libdevice's log2f).
    ref.mBound[r] = e2 + (gN + (blocks + 1) * std::ldexp(1.0, -21)) / kLn2 +
                    std::ldexp(1.0 + std::log2(double(n)), -20) +
                    std::ldexp(std::fabs(M) + xAbs, -22);
  });
  return ref;
}

/// Checks O (in the shape's layout, kGuard elements after it) and M ([Z * H,
/// N_Q], kGuard after it) against the reference; with `info`, prints the
/// largest error relative to its bound as an INFO line.
void checkAttention(const AttnShape &s, const AttnReference &ref,
                    const std::vector<uint16_t> &oBits,
                    const std::vector<uint32_t> &mBits, bool info,
                    const std::string &caseName) {
  size_t oElems = s.elems(s.NQ), rows = size_t(s.Z) * s.H * s.NQ;
  for (size_t g = 0; g < kGuard; ++g) {
    if (oBits[oElems + g] != kPoison16)
      failCase("O guard element " + std::to_string(g) +
               " past the end was written");
    if (mBits[rows + g] != kPoison32)
      failCase("M guard element " + std::to_string(g) +
               " past the end was written: " + describe(mBits[rows + g]));
  }
  double worstO = 0, worstM = 0;
  char buf[400];
  for (int z = 0; z < s.Z; ++z)
    for (int h = 0; h < s.H; ++h)
      for (int i = 0; i < s.NQ; ++i) {
        size_t r = (size_t(z) * s.H + h) * s.NQ + i;
        bool empty = s.visible(i) == 0;
        for (int d = 0; d < s.D; ++d) {
          uint16_t bits = oBits[s.offset(s.NQ, z, h, i, d)];
          double found = decode(s.elem, bits), want = ref.o[r * s.D + d];
          double err = std::fabs(found - want), bound = ref.oBound[r * s.D + d];
          if (bits == kPoison16 || !(empty ? found == 0 : err <= bound)) {
            std::snprintf(
                buf, sizeof(buf),
                "O (z=%d, h=%d, i=%d, d=%d): expected %.9g%s, "
                "found %.9g (0x%04x)%s: error %.3g > bound %.3g",
                z, h, i, d, want, empty ? " exactly (no visible key)" : "",
                found, unsigned(bits),
                bits == kPoison16 ? " (never written)" : "", err, bound);
            failCase(buf);
          }
          if (bound > 0)
            worstO = std::max(worstO, err / bound);
        }
        float found = bitsFloat(mBits[r]);
        double err = std::fabs(double(found) - ref.m[r]);
        if (mBits[r] == kPoison32 ||
            !(empty ? found == 0 : err <= ref.mBound[r])) {
          std::snprintf(buf, sizeof(buf),
                        "M (z=%d, h=%d, i=%d): expected %.9g%s, found %s: "
                        "error %.3g > bound %.3g",
                        z, h, i, ref.m[r],
                        empty ? " exactly (no visible key)" : "",
                        describe(mBits[r]).c_str(), err, ref.mBound[r]);
          failCase(buf);
        }
        if (ref.mBound[r] > 0)
          worstM = std::max(worstM, err / ref.mBound[r]);
      }
  if (info)
    std::printf("INFO %s: worst O element at %.3g of its bound, worst M at "
                "%.3g of its bound\n",
                caseName.c_str(), worstO, worstM);
}

//===----------------------------------------------------------------------===//
// The GPU cases
//===----------------------------------------------------------------------===//

/// Whether `file` holds attn_fwd_desc_kernel (tensor descriptors over
/// contiguous BHSD tensors: Z, H, N_Q, N_KV instead of strides).
bool isDescriptorForm(const std::string &file) {
  return file.find("_desc_") != std::string::npos;
}

/// Loads an attention kernel (dotKernel: SKIP while the build leaves the
/// tl.dot kernels out, FAIL when a built one is missing).
Kernel attentionKernel(const Env &env, const std::string &file) {
  return dotKernel(env, file,
                   isDescriptorForm(file) ? "attn_fwd_desc_kernel"
                                          : "attn_fwd_kernel");
}

/// attn_fwd_kernel of `file` on one random problem: grid (cdiv(N_Q, 128),
/// Z * H), O and M poisoned, checked against the float64 reference.
void runAttention(const Env &env, const std::string &caseName,
                  const std::string &file, const AttnShape &s) {
  Kernel kernel = attentionKernel(env, file);
  Rng rng = env.rng(caseName);
  AttnTensor q = randomTensor(s, s.NQ, rng, 0.5f);
  AttnTensor k = randomTensor(s, s.NKV, rng, 0.5f);
  AttnTensor v = randomTensor(s, s.NKV, rng, 0.25f);
  size_t oElems = s.elems(s.NQ), rows = size_t(s.Z) * s.H * s.NQ;
  DeviceBuffer dQ(q.bits.size() * 2), dK(k.bits.size() * 2),
      dV(v.bits.size() * 2), dO((oElems + kGuard) * 2), dM((rows + kGuard) * 4);
  for (auto [buffer, tensor] : {std::pair{&dQ, &q}, {&dK, &k}, {&dV, &v}})
    if (!tensor->bits.empty()) // N_KV = 0: nothing to copy
      buffer->upload(tensor->bits);
  dO.poison();
  dM.poison();
  std::vector<Arg> args = {Arg::ptr(dQ.get()), Arg::ptr(dK.get()),
                           Arg::ptr(dV.get()), Arg::f32(s.smScale()),
                           Arg::ptr(dM.get()), Arg::ptr(dO.get())};
  if (isDescriptorForm(file)) {
    if (s.layout != AttnLayout::BHSD)
      failCase("attn_fwd_desc_kernel takes contiguous BHSD tensors only");
    args.push_back(Arg::i32(s.Z));
  } else {
    // Q, K, V and O strides; O has Q's layout.
    for (int N : {s.NQ, s.NKV, s.NKV, s.NQ})
      for (int64_t stride : s.strides(N))
        args.push_back(Arg::i32(int32_t(stride)));
  }
  args.push_back(Arg::i32(s.H));
  args.push_back(Arg::i32(s.NQ));
  args.push_back(Arg::i32(s.NKV));
  check(kernel.launch(Grid{cdiv(s.NQ, kBlockM), unsigned(s.Z * s.H), 1}, args));
  env.sync();
  std::vector<uint16_t> oBits = dO.download<uint16_t>(oElems + kGuard);
  std::vector<uint32_t> mBits = dM.download<uint32_t>(rows + kGuard);
  AttnReference ref = attentionReference(s, q, k, v);
  checkAttention(s, ref, oBits, mBits, env.verbose, caseName);
}

//===----------------------------------------------------------------------===//
// The CPU check of the reference and its bounds
//===----------------------------------------------------------------------===//

/// Deliberate mistakes for the emulation: each must fail the check.
enum class AttnBug { None, DropLastKey, MaskDiagonal, NaturalLogM };

/// attn_fwd_kernel's algorithm in float32 on the CPU: per row, blocks of 64
/// keys up to the program's bound, the running max, P rounded to the input
/// type before it meets V, O and M as the kernel stores them.
void emulateAttention(const AttnShape &s, const AttnTensor &q,
                      const AttnTensor &k, const AttnTensor &v, AttnBug bug,
                      std::vector<uint16_t> &oBits,
                      std::vector<uint32_t> &mBits) {
  const int D = s.D;
  const float qkScale = s.smScale() * 1.44269504f;
  size_t rows = size_t(s.Z) * s.H * s.NQ;
  oBits.assign(s.elems(s.NQ) + kGuard, kPoison16);
  mBits.assign(rows + kGuard, kPoison32);
  for (size_t r = 0; r < rows; ++r) {
    size_t zh = r / s.NQ;
    int i = int(r % s.NQ);
    int hi = s.causal ? std::min(s.NKV, (i / kBlockM + 1) * kBlockM) : s.NKV;
    float m = -INFINITY, l = 0;
    std::vector<float> acc(D, 0.0f), x(kBlockN), p(kBlockN);
    for (int n0 = 0; n0 < hi; n0 += kBlockN) {
      float mNew = m;
      for (int jj = 0; jj < kBlockN; ++jj) {
        int j = n0 + jj;
        bool valid = j < s.NKV && (!s.causal || j <= i);
        if (bug == AttnBug::DropLastKey && j == s.NKV - 1)
          valid = false;
        if (bug == AttnBug::MaskDiagonal && j == i)
          valid = false;
        float qk = 0;
        if (valid)
          for (int d = 0; d < D; ++d)
            qk += float(q.value[r * D + d]) *
                  float(k.value[(zh * s.NKV + j) * D + d]);
        x[jj] = valid ? qk * qkScale : -INFINITY;
        mNew = std::max(mNew, x[jj]);
      }
      float mUse = mNew == -INFINITY ? 0.0f : mNew;
      float alpha = std::exp2(m - mUse), sum = 0;
      for (int jj = 0; jj < kBlockN; ++jj) {
        p[jj] = std::exp2(x[jj] - mUse);
        sum += p[jj];
      }
      l = l * alpha + sum;
      for (int d = 0; d < D; ++d)
        acc[d] *= alpha;
      for (int jj = 0; jj < kBlockN; ++jj) {
        int j = n0 + jj;
        if (p[jj] == 0 || j >= s.NKV)
          continue;
        float pr = float(decode(s.elem, encode(s.elem, p[jj])));
        for (int d = 0; d < D; ++d)
          acc[d] += pr * float(v.value[(zh * s.NKV + j) * D + d]);
      }
      m = mNew;
    }
    float lSafe = l == 0 ? 1.0f : l, mSafe = m == -INFINITY ? 0.0f : m;
    float M = mSafe + std::log2(lSafe);
    if (bug == AttnBug::NaturalLogM)
      M *= float(kLn2);
    mBits[r] = floatBits(M);
    int z = int(zh / s.H), h = int(zh % s.H);
    for (int d = 0; d < D; ++d)
      oBits[s.offset(s.NQ, z, h, i, d)] = encode(s.elem, acc[d] / lSafe);
  }
}

void attentionSelfTest(const Env &env) {
  struct Check {
    AttnShape shape;
    AttnBug bug;
  };
  auto shape = [](int Z, int H, int NQ, int NKV, int D, bool causal,
                  AttnElem elem, AttnLayout layout) {
    AttnShape s;
    s.Z = Z, s.H = H, s.NQ = NQ, s.NKV = NKV, s.D = D, s.causal = causal;
    s.elem = elem, s.layout = layout;
    return s;
  };
  const AttnElem F16 = AttnElem::F16, BF16 = AttnElem::BF16;
  const AttnLayout BHSD = AttnLayout::BHSD, BSHD = AttnLayout::BSHD;
  const Check checks[] = {
      {shape(1, 2, 200, 300, 64, true, F16, BSHD), AttnBug::None},
      {shape(1, 1, 300, 200, 128, false, BF16, BHSD), AttnBug::None},
      {shape(2, 1, 130, 130, 64, true, BF16, BHSD), AttnBug::None},
      {shape(1, 1, 1, 1, 128, false, F16, BHSD), AttnBug::None},
      {shape(1, 2, 70, 0, 64, false, F16, BHSD), AttnBug::None},
      {shape(1, 1, 200, 300, 64, false, F16, BHSD), AttnBug::DropLastKey},
      {shape(1, 1, 200, 200, 64, true, BF16, BHSD), AttnBug::MaskDiagonal},
      {shape(1, 1, 100, 100, 64, false, F16, BHSD), AttnBug::NaturalLogM},
  };
  int index = 0;
  for (const Check &c : checks) {
    const AttnShape &s = c.shape;
    Rng rng =
        env.rng("selftest/attention_reference/" + std::to_string(index++));
    AttnTensor q = randomTensor(s, s.NQ, rng, 0.5f);
    AttnTensor k = randomTensor(s, s.NKV, rng, 0.5f);
    AttnTensor v = randomTensor(s, s.NKV, rng, 0.25f);
    std::vector<uint16_t> oBits;
    std::vector<uint32_t> mBits;
    emulateAttention(s, q, k, v, c.bug, oBits, mBits);
    AttnReference ref = attentionReference(s, q, k, v);
    char what[160];
    std::snprintf(what, sizeof(what), "Z=%d,H=%d,N_Q=%d,N_KV=%d,D=%d,%s,%s",
                  s.Z, s.H, s.NQ, s.NKV, s.D, s.causal ? "causal" : "full",
                  s.elem == F16 ? "fp16" : "bf16");
    if (c.bug == AttnBug::None) {
      try {
        checkAttention(s, ref, oBits, mBits, env.verbose,
                       std::string("selftest/attention_reference ") + what);
      } catch (const CaseFailure &f) {
        failCase(std::string("the float32 emulation fails the check (") + what +
                 "): " + f.what);
      }
      continue;
    }
    static const char *const bugNames[] = {"none", "last key dropped",
                                           "causal diagonal masked",
                                           "M in natural log"};
    const char *bugName = bugNames[int(c.bug)];
    bool caught = false;
    try {
      checkAttention(s, ref, oBits, mBits, false, "");
    } catch (const CaseFailure &f) {
      caught = true;
      if (env.verbose)
        std::printf("INFO selftest/attention_reference: the emulation with "
                    "\"%s\" (%s) fails as it must: %s\n",
                    bugName, what, f.what.c_str());
    }
    if (!caught)
      failCase(std::string("an emulation with \"") + bugName + "\" (" + what +
               ") passes the check");
  }
}

/// attn_fwd_desc_kernel with N_KV = 0: the launch fails with the
/// runtime's message about the descriptor's zero size.
void expectEmptyKeysRefused(const Env &env, const std::string &file,
                            const AttnShape &s) {
  Kernel kernel = attentionKernel(env, file);
  size_t qElems = s.elems(s.NQ), rows = size_t(s.Z) * s.H * s.NQ;
  DeviceBuffer dQ(qElems * 2), dKV(16), dO(qElems * 2), dM(rows * 4);
  Status st = kernel.launch(
      Grid{cdiv(s.NQ, kBlockM), unsigned(s.Z * s.H), 1},
      {Arg::ptr(dQ.get()), Arg::ptr(dKV.get()), Arg::ptr(dKV.get()),
       Arg::f32(s.smScale()), Arg::ptr(dM.get()), Arg::ptr(dO.get()),
       Arg::i32(s.Z), Arg::i32(s.H), Arg::i32(s.NQ), Arg::i32(s.NKV)});
  if (st.ok())
    failCase("a launch with N_KV = 0 (a zero-row tensor map) was accepted");
  if (st.message().find("size 0") == std::string::npos)
    failCase("expected the refusal to name the zero size, found: " +
             st.message());
}

//===----------------------------------------------------------------------===//
// The backward pass (attn_bwd_preprocess_kernel, attn_bwd_kernel)
//===----------------------------------------------------------------------===//

/// attn_bwd_kernel's blocks: keys per dK/dV program and queries per step;
/// queries per dQ program and keys per step (test/CMakeLists.txt).
constexpr int kBlockM1 = 32, kBlockN1 = 128, kBlockM2 = 128, kBlockN2 = 32;
/// attn_bwd_preprocess_kernel's rows per program.
constexpr int kBlockPre = 128;

/// The float64 gradients of the attention of the stored inputs for the
/// upstream gradient dO (what torch.autograd gives in float64), and each
/// element's bound; Delta as the preprocess kernel computes it from the
/// stored O. [z][h][n][d] order, n < N_Q for dQ, n < N_KV for dK and dV.
struct BwdReference {
  std::vector<double> dq, dqBound, dk, dkBound, dv, dvBound;
  std::vector<double> delta, deltaBound; // [z * H + h][i]
};

/// What the backward reads from the forward: O rounded to the inputs' type
/// (in the shape's layout) and M in fp32, both from the float64 forward.
struct FwdOutputs {
  std::vector<uint16_t> oBits;
  std::vector<double> o;       // decoded, [z][h][i][d]
  std::vector<uint32_t> mBits; // [z * H + h][i]
};

FwdOutputs storedForward(const AttnShape &s, const AttnReference &fwd) {
  FwdOutputs out;
  out.oBits.assign(s.elems(s.NQ), 0);
  out.o.assign(s.elems(s.NQ), 0.0);
  out.mBits.assign(size_t(s.Z) * s.H * s.NQ, 0);
  for (int z = 0; z < s.Z; ++z)
    for (int h = 0; h < s.H; ++h)
      for (int i = 0; i < s.NQ; ++i) {
        size_t r = (size_t(z) * s.H + h) * s.NQ + i;
        out.mBits[r] = floatBits(float(fwd.m[r]));
        for (int d = 0; d < s.D; ++d) {
          uint16_t b = encode(s.elem, float(fwd.o[r * s.D + d]));
          out.oBits[s.offset(s.NQ, z, h, i, d)] = b;
          out.o[r * s.D + d] = decode(s.elem, b);
        }
      }
  return out;
}

/// The gradients and their bounds. With x_ij = s_ij sm_scale log2(e) and
/// P_ij = exp2(x_ij - M_i) (exact softmax weights of the visible pairs),
/// dP = dO V^T, Delta_i = sum_j P_ij dP_ij, dS = P * (dP - Delta):
/// dV = P^T dO, dQ = sm_scale dS K, dK = sm_scale dS^T Q. What the kernels
/// may lose (u_p: the half ulp of the inputs' type; g_k = 2 (k + 1) 2^-23,
/// the fp32 sum of k exact products):
///  - Delta from the stored O: (u_p + g_D) sum_d |O_id dO_id|;
///  - each weight recomputed as exp2(fp32 x - fp32 M): a relative
///    ep_ij = ln(2) (g_D sum_d |q k| sm_scale log2 e + 2^-22 |x| +
///    2^-23 (|M| + |x - M|)) + 2^-21 (ex2.approx);
///  - P rounded for the dV dot (u_p relative, fp16 below 2^-14: 2^-25);
///  - dS_ij: P ((ep + 2^-22) |dP - Delta| + 1.01 (g_D sum_d |dO V| +
///    e_Delta)), then rounded for the dQ and dK dots (u_p, fp16: 2^-25);
///  - the fp32 sums of the three products over the other sequence
///    (g_n relative to the sums of magnitudes), sm_scale's product (2^-24),
///    and the output's rounding u_p (|ref| + e) (+ fp16's subnormal half
///    ulp).
BwdReference backwardReference(const AttnShape &s, const AttnTensor &q,
                               const AttnTensor &k, const AttnTensor &v,
                               const AttnTensor &dO, const FwdOutputs &fo,
                               const AttnReference &fwd) {
  const int D = s.D, NQ = s.NQ, NKV = s.NKV;
  const double scale = s.smScale(), scale2 = scale * kLog2e;
  const bool f16 = s.elem == AttnElem::F16;
  const double uP = f16 ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
  const double sub = f16 ? std::ldexp(1.0, -25) : 0.0;
  const double fOut = f16 ? std::ldexp(1.0, -25) : std::ldexp(1.0, -134);
  const double gD = 2.0 * (D + 1) * std::ldexp(1.0, -23);
  const double gQ = 2.0 * (NQ + 1) * std::ldexp(1.0, -23);
  const double gK = 2.0 * (NKV + 1) * std::ldexp(1.0, -23);
  BwdReference ref;
  size_t heads = size_t(s.Z) * s.H;
  ref.dq.assign(heads * NQ * D, 0.0);
  ref.dqBound.assign(heads * NQ * D, 0.0);
  ref.dk.assign(heads * NKV * D, 0.0);
  ref.dkBound.assign(heads * NKV * D, 0.0);
  ref.dv.assign(heads * NKV * D, 0.0);
  ref.dvBound.assign(heads * NKV * D, 0.0);
  ref.delta.assign(heads * NQ, 0.0);
  ref.deltaBound.assign(heads * NQ, 0.0);
  // Per head: the weights, their relative error, dS and its error (after
  // rounding to the dots' type), [i][j].
  size_t pairs = size_t(NQ) * NKV;
  std::vector<double> P(pairs), ep(pairs), dS(pairs), eS(pairs);
  for (size_t zh = 0; zh < heads; ++zh) {
    const double *qh = &q.value[zh * NQ * D], *doh = &dO.value[zh * NQ * D];
    const double *kh = &k.value[zh * NKV * D], *vh = &v.value[zh * NKV * D];
    const double *oh = &fo.o[zh * NQ * D];
    parallelRows(NQ, [&](size_t i) {
      size_t r = zh * NQ + i;
      double dsum = 0, dabs = 0;
      for (int d = 0; d < D; ++d) {
        dsum += oh[i * D + d] * doh[i * D + d];
        dabs += std::fabs(oh[i * D + d] * doh[i * D + d]);
      }
      ref.delta[r] = dsum;
      ref.deltaBound[r] = gD * dabs + std::ldexp(std::fabs(dsum), -24);
      int n = s.visible(int(i));
      double M = fwd.m[r] * kLn2, Mf = double(bitsFloat(fo.mBits[r]));
      // e_Delta: the stored O's rounding (u_p |O| + fp16's subnormal half
      // ulp) and the fp32 sum.
      double eDelta = (uP + gD) * dabs + sub * D + ref.deltaBound[r];
      std::vector<double> dP(n > 0 ? n : 1);
      double deltaTrue = 0;
      for (int j = 0; j < n; ++j) {
        double a = 0, g = 0, c = 0, cab = 0;
        for (int d = 0; d < D; ++d) {
          a += qh[i * D + d] * kh[size_t(j) * D + d];
          g += std::fabs(qh[i * D + d] * kh[size_t(j) * D + d]);
          c += doh[i * D + d] * vh[size_t(j) * D + d];
          cab += std::fabs(doh[i * D + d] * vh[size_t(j) * D + d]);
        }
        double x = a * scale2, p = std::exp(a * scale - M);
        P[i * NKV + j] = p;
        double e2 = gD * g * scale2 + std::ldexp(std::fabs(x), -22) +
                    std::ldexp(std::fabs(Mf) + std::fabs(x - Mf), -23);
        ep[i * NKV + j] = kLn2 * e2 + std::ldexp(1.0, -21);
        dP[j] = c;
        dS[i * NKV + j] = cab; // |dO V| sums, until dS is known
        deltaTrue += p * c;
      }
      for (int j = 0; j < n; ++j) {
        size_t ij = i * NKV + j;
        double p = P[ij], diff = dP[j] - deltaTrue;
        double e = p * ((ep[ij] + std::ldexp(1.0, -22)) * std::fabs(diff) +
                        1.01 * (gD * dS[ij] + eDelta));
        dS[ij] = p * diff;
        eS[ij] = e + uP * (std::fabs(dS[ij]) + e) + sub;
      }
      for (int j = n; j < NKV; ++j) {
        size_t ij = i * NKV + j;
        P[ij] = ep[ij] = dS[ij] = eS[ij] = 0;
      }
      // dQ_i = sm_scale sum_j dS_ij K_j.
      for (int d = 0; d < D; ++d) {
        double acc = 0, err = 0, mag = 0;
        for (int j = 0; j < n; ++j) {
          double kv = kh[size_t(j) * D + d];
          acc += dS[i * NKV + j] * kv;
          err += eS[i * NKV + j] * std::fabs(kv);
          mag += std::fabs(dS[i * NKV + j] * kv);
        }
        double val = scale * acc;
        double e = scale * (err + gK * (mag + err)) +
                   std::ldexp(std::fabs(val), -23);
        ref.dq[r * D + d] = val;
        ref.dqBound[r * D + d] = n == 0 ? 0 : e + uP * (std::fabs(val) + e) + fOut;
      }
    });
    // dK_j = sm_scale sum_i dS_ij Q_i, dV_j = sum_i P_ij dO_i.
    parallelRows(NKV, [&](size_t j) {
      size_t r = zh * NKV + j;
      std::vector<double> ak(D, 0), ek(D, 0), mk(D, 0), av(D, 0), ev(D, 0),
          mv(D, 0);
      for (int i = 0; i < NQ; ++i) {
        size_t ij = size_t(i) * NKV + j;
        double p = P[ij], ds = dS[ij], es = eS[ij], e = ep[ij];
        if (p == 0 && ds == 0)
          continue;
        double pe = p * (e + uP) + sub;
        for (int d = 0; d < D; ++d) {
          double qv = qh[size_t(i) * D + d], dov = doh[size_t(i) * D + d];
          ak[d] += ds * qv;
          ek[d] += es * std::fabs(qv);
          mk[d] += std::fabs(ds * qv);
          av[d] += p * dov;
          ev[d] += pe * std::fabs(dov);
          mv[d] += std::fabs(p * dov);
        }
      }
      for (int d = 0; d < D; ++d) {
        double valK = scale * ak[d];
        double eK = scale * (ek[d] + gQ * (mk[d] + ek[d])) +
                    std::ldexp(std::fabs(valK), -23);
        ref.dk[r * D + d] = valK;
        ref.dkBound[r * D + d] = eK + uP * (std::fabs(valK) + eK) + fOut;
        double valV = av[d];
        double eV = 1.01 * ev[d] + gQ * (mv[d] + ev[d]);
        ref.dv[r * D + d] = valV;
        ref.dvBound[r * D + d] = eV + uP * (std::fabs(valV) + eV) + fOut;
      }
    });
  }
  return ref;
}

/// Checks one gradient (in the shape's layout, N rows per head, kGuard
/// poisoned elements after it) against its reference; returns the worst
/// error relative to its bound.
double checkGradient(const AttnShape &s, int N, const char *what,
                     const std::vector<uint16_t> &bits,
                     const std::vector<double> &want,
                     const std::vector<double> &bound) {
  size_t elems = s.elems(N);
  for (size_t g = 0; g < kGuard; ++g)
    if (bits[elems + g] != kPoison16)
      failCase(std::string(what) + " guard element " + std::to_string(g) +
               " past the end was written");
  double worst = 0;
  char buf[400];
  for (int z = 0; z < s.Z; ++z)
    for (int h = 0; h < s.H; ++h)
      for (int n = 0; n < N; ++n)
        for (int d = 0; d < s.D; ++d) {
          size_t r = ((size_t(z) * s.H + h) * N + n) * s.D + d;
          uint16_t b = bits[s.offset(N, z, h, n, d)];
          double found = decode(s.elem, b), err = std::fabs(found - want[r]);
          if (b == kPoison16 || !(err <= bound[r])) {
            std::snprintf(buf, sizeof(buf),
                          "%s (z=%d, h=%d, n=%d, d=%d): expected %.9g, found "
                          "%.9g (0x%04x)%s: error %.3g > bound %.3g",
                          what, z, h, n, d, want[r], found, unsigned(b),
                          b == kPoison16 ? " (never written)" : "", err,
                          bound[r]);
            failCase(buf);
          }
          if (bound[r] > 0)
            worst = std::max(worst, err / bound[r]);
        }
  return worst;
}

/// The three gradients and Delta of one run (device results or the CPU
/// emulation's) against the reference.
void checkBackward(const AttnShape &s, const BwdReference &ref,
                   const std::vector<uint32_t> &deltaBits,
                   const std::vector<uint16_t> &dqBits,
                   const std::vector<uint16_t> &dkBits,
                   const std::vector<uint16_t> &dvBits, bool info,
                   const std::string &caseName) {
  size_t rows = size_t(s.Z) * s.H * s.NQ;
  for (size_t g = 0; g < kGuard; ++g)
    if (deltaBits[rows + g] != kPoison32)
      failCase("Delta guard element " + std::to_string(g) +
               " past the end was written");
  double worstDelta = 0;
  for (size_t r = 0; r < rows; ++r) {
    float found = bitsFloat(deltaBits[r]);
    double err = std::fabs(double(found) - ref.delta[r]);
    if (deltaBits[r] == kPoison32 || !(err <= ref.deltaBound[r]))
      failCase("Delta row " + std::to_string(r) + ": expected " +
               std::to_string(ref.delta[r]) + ", found " +
               describe(deltaBits[r]) + ": error " + std::to_string(err) +
               " > bound " + std::to_string(ref.deltaBound[r]));
    if (ref.deltaBound[r] > 0)
      worstDelta = std::max(worstDelta, err / ref.deltaBound[r]);
  }
  double wq = checkGradient(s, s.NQ, "dQ", dqBits, ref.dq, ref.dqBound);
  double wk = checkGradient(s, s.NKV, "dK", dkBits, ref.dk, ref.dkBound);
  double wv = checkGradient(s, s.NKV, "dV", dvBits, ref.dv, ref.dvBound);
  if (info)
    std::printf("INFO %s: worst Delta at %.3g of its bound, dQ %.3g, dK "
                "%.3g, dV %.3g\n",
                caseName.c_str(), worstDelta, wq, wk, wv);
}

/// The backward's inputs: Q, K, V (as the forward's), dO uniform in
/// [-1, 1], and the forward's outputs computed in float64 and stored.
struct BwdProblem {
  AttnTensor q, k, v, dO;
  AttnReference fwd;
  FwdOutputs fo;
  BwdReference ref;
};

BwdProblem makeBackwardProblem(const AttnShape &s, Rng &rng) {
  BwdProblem b;
  b.q = randomTensor(s, s.NQ, rng, 0.5f);
  b.k = randomTensor(s, s.NKV, rng, 0.5f);
  b.v = randomTensor(s, s.NKV, rng, 0.25f);
  b.dO = randomTensor(s, s.NQ, rng, 0.25f);
  b.fwd = attentionReference(s, b.q, b.k, b.v);
  b.fo = storedForward(s, b.fwd);
  b.ref = backwardReference(s, b.q, b.k, b.v, b.dO, b.fo, b.fwd);
  return b;
}

/// attn_bwd_preprocess_kernel of `preFile` and attn_bwd_kernel of `file` on
/// one random problem: Delta, dQ, dK and dV poisoned (with guards), checked
/// against the float64 gradients.
void runBackward(const Env &env, const std::string &caseName,
                 const std::string &preFile, const std::string &file,
                 const AttnShape &s) {
  Kernel pre = dotKernel(env, preFile, "attn_bwd_preprocess_kernel");
  Kernel bwd = dotKernel(env, file, "attn_bwd_kernel");
  Rng rng = env.rng(caseName);
  BwdProblem b = makeBackwardProblem(s, rng);
  size_t qElems = s.elems(s.NQ), kElems = s.elems(s.NKV);
  size_t rows = size_t(s.Z) * s.H * s.NQ;
  DeviceBuffer dQin(qElems * 2), dKin(kElems * 2), dVin(kElems * 2),
      dDO(qElems * 2), dOut(qElems * 2), dM(rows * 4),
      dDelta((rows + kGuard) * 4), dDQ((qElems + kGuard) * 2),
      dDK((kElems + kGuard) * 2), dDV((kElems + kGuard) * 2);
  if (qElems) {
    dQin.upload(b.q.bits);
    dDO.upload(b.dO.bits);
    dOut.upload(b.fo.oBits);
    dM.upload(b.fo.mBits);
  }
  if (kElems) {
    dKin.upload(b.k.bits);
    dVin.upload(b.v.bits);
  }
  for (DeviceBuffer *buf : {&dDelta, &dDQ, &dDK, &dDV})
    buf->poison();
  std::array<int64_t, 4> qs = s.strides(s.NQ), ks = s.strides(s.NKV);
  unsigned heads = unsigned(s.Z * s.H);
  check(pre.launch(Grid{cdiv(s.NQ, kBlockPre), heads, 1},
                   {Arg::ptr(dOut.get()), Arg::ptr(dDO.get()),
                    Arg::ptr(dDelta.get()), Arg::i32(int32_t(qs[0])),
                    Arg::i32(int32_t(qs[1])), Arg::i32(int32_t(qs[2])),
                    Arg::i32(int32_t(qs[0])), Arg::i32(int32_t(qs[1])),
                    Arg::i32(int32_t(qs[2])), Arg::i32(s.H), Arg::i32(s.NQ)}));
  unsigned programs =
      std::max(cdiv(s.NKV, kBlockN1), cdiv(s.NQ, kBlockM2));
  check(bwd.launch(
      Grid{programs, heads, 1},
      {Arg::ptr(dQin.get()), Arg::ptr(dKin.get()), Arg::ptr(dVin.get()),
       Arg::f32(s.smScale()), Arg::ptr(dDO.get()), Arg::ptr(dDQ.get()),
       Arg::ptr(dDK.get()), Arg::ptr(dDV.get()), Arg::ptr(dM.get()),
       Arg::ptr(dDelta.get()), Arg::i32(int32_t(qs[0])),
       Arg::i32(int32_t(qs[1])), Arg::i32(int32_t(qs[2])),
       Arg::i32(int32_t(ks[0])), Arg::i32(int32_t(ks[1])),
       Arg::i32(int32_t(ks[2])), Arg::i32(s.H), Arg::i32(s.NQ),
       Arg::i32(s.NKV)}));
  env.sync();
  checkBackward(s, b.ref, dDelta.download<uint32_t>(rows + kGuard),
                dDQ.download<uint16_t>(qElems + kGuard),
                dDK.download<uint16_t>(kElems + kGuard),
                dDV.download<uint16_t>(kElems + kGuard), env.verbose,
                caseName);
}

/// Deliberate mistakes for the backward's emulation.
enum class BwdBug { None, NoScaleDK, NoDelta, CausalOffByOne, PFromNaturalM };

/// The kernels' algorithm in float32 on the CPU: Delta from the stored O,
/// P = exp2(fp32 x - M) per pair, rounded for dV; dP in fp32; dS rounded
/// for dQ and dK; outputs rounded to the inputs' type.
void emulateBackward(const AttnShape &s, const BwdProblem &b, BwdBug bug,
                     std::vector<uint32_t> &deltaBits,
                     std::vector<uint16_t> &dqBits,
                     std::vector<uint16_t> &dkBits,
                     std::vector<uint16_t> &dvBits) {
  const int D = s.D, NQ = s.NQ, NKV = s.NKV;
  const float scale = s.smScale(), qkScale = scale * 1.44269504f;
  size_t heads = size_t(s.Z) * s.H;
  deltaBits.assign(heads * NQ + kGuard, kPoison32);
  dqBits.assign(s.elems(NQ) + kGuard, kPoison16);
  dkBits.assign(s.elems(NKV) + kGuard, kPoison16);
  dvBits.assign(s.elems(NKV) + kGuard, kPoison16);
  auto rnd = [&](float x) { return float(decode(s.elem, encode(s.elem, x))); };
  for (size_t zh = 0; zh < heads; ++zh) {
    int z = int(zh / s.H), h = int(zh % s.H);
    std::vector<float> dq(size_t(NQ) * D, 0), dk(size_t(NKV) * D, 0),
        dv(size_t(NKV) * D, 0), delta(NQ, 0);
    for (int i = 0; i < NQ; ++i) {
      size_t r = zh * NQ + i;
      for (int d = 0; d < D; ++d)
        delta[i] += float(b.fo.o[r * D + d]) * float(b.dO.value[r * D + d]);
      if (bug == BwdBug::NoDelta)
        delta[i] = 0;
      deltaBits[r] = floatBits(delta[i]);
    }
    for (int i = 0; i < NQ; ++i)
      for (int j = 0; j < NKV; ++j) {
        bool visible = !s.causal || j <= i;
        if (bug == BwdBug::CausalOffByOne && s.causal)
          visible = j < i;
        if (!visible)
          continue;
        size_t qi = (zh * NQ + i) * D, kj = (zh * NKV + j) * D;
        float qk = 0, dp = 0;
        for (int d = 0; d < D; ++d) {
          qk += float(b.q.value[qi + d]) * float(b.k.value[kj + d]);
          dp += float(b.dO.value[qi + d]) * float(b.v.value[kj + d]);
        }
        float M = bitsFloat(b.fo.mBits[zh * NQ + i]);
        if (bug == BwdBug::PFromNaturalM)
          M *= float(kLn2);
        float p = std::exp2(qk * qkScale - M);
        float ds = rnd(p * (dp - delta[i])), pr = rnd(p);
        for (int d = 0; d < D; ++d) {
          dv[size_t(j) * D + d] += pr * float(b.dO.value[qi + d]);
          dq[size_t(i) * D + d] += ds * float(b.k.value[kj + d]);
          dk[size_t(j) * D + d] += ds * float(b.q.value[qi + d]);
        }
      }
    for (int i = 0; i < NQ; ++i)
      for (int d = 0; d < D; ++d)
        dqBits[s.offset(NQ, z, h, i, d)] =
            encode(s.elem, dq[size_t(i) * D + d] * scale);
    for (int j = 0; j < NKV; ++j)
      for (int d = 0; d < D; ++d) {
        float kScale = bug == BwdBug::NoScaleDK ? 1.0f : scale;
        dkBits[s.offset(NKV, z, h, j, d)] =
            encode(s.elem, dk[size_t(j) * D + d] * kScale);
        dvBits[s.offset(NKV, z, h, j, d)] = encode(s.elem, dv[size_t(j) * D + d]);
      }
  }
}

void backwardSelfTest(const Env &env) {
  struct Check {
    int NQ, NKV, D;
    bool causal;
    AttnElem elem;
    AttnLayout layout;
    BwdBug bug;
  };
  const AttnElem F16 = AttnElem::F16, BF16 = AttnElem::BF16;
  const AttnLayout BHSD = AttnLayout::BHSD, BSHD = AttnLayout::BSHD;
  const Check checks[] = {
      {150, 230, 64, true, F16, BSHD, BwdBug::None},
      {230, 150, 128, false, BF16, BHSD, BwdBug::None},
      {130, 130, 64, true, BF16, BHSD, BwdBug::None},
      {1, 1, 128, false, F16, BHSD, BwdBug::None},
      {70, 0, 64, false, F16, BHSD, BwdBug::None},
      {100, 120, 64, false, F16, BHSD, BwdBug::NoScaleDK},
      {100, 120, 64, false, BF16, BHSD, BwdBug::NoDelta},
      {100, 100, 64, true, F16, BHSD, BwdBug::CausalOffByOne},
      {100, 100, 64, false, BF16, BHSD, BwdBug::PFromNaturalM},
  };
  static const char *const bugNames[] = {"none", "dK without sm_scale",
                                         "Delta = 0", "causal diagonal masked",
                                         "P from M in natural log"};
  int index = 0;
  for (const Check &c : checks) {
    AttnShape s;
    s.Z = 1, s.H = 2, s.NQ = c.NQ, s.NKV = c.NKV, s.D = c.D;
    s.causal = c.causal, s.elem = c.elem, s.layout = c.layout;
    Rng rng = env.rng("selftest/attention_backward_reference/" +
                      std::to_string(index++));
    BwdProblem b = makeBackwardProblem(s, rng);
    std::vector<uint32_t> deltaBits;
    std::vector<uint16_t> dq, dk, dv;
    emulateBackward(s, b, c.bug, deltaBits, dq, dk, dv);
    char what[160];
    std::snprintf(what, sizeof(what), "N_Q=%d,N_KV=%d,D=%d,%s,%s", s.NQ,
                  s.NKV, s.D, s.causal ? "causal" : "full",
                  s.elem == F16 ? "fp16" : "bf16");
    bool failed = false;
    std::string message;
    try {
      checkBackward(s, b.ref, deltaBits, dq, dk, dv,
                    env.verbose && c.bug == BwdBug::None,
                    std::string("selftest/attention_backward_reference ") +
                        what);
    } catch (const CaseFailure &f) {
      failed = true;
      message = f.what;
    }
    if (c.bug == BwdBug::None && failed)
      failCase(std::string("the float32 emulation fails the check (") + what +
               "): " + message);
    if (c.bug != BwdBug::None && !failed)
      failCase(std::string("an emulation with \"") + bugNames[int(c.bug)] +
               "\" (" + what + ") passes the check");
    if (c.bug != BwdBug::None && env.verbose)
      std::printf("INFO selftest/attention_backward_reference: \"%s\" (%s) "
                  "fails as it must: %s\n",
                  bugNames[int(c.bug)], what, message.c_str());
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void tilec::gputest::addAttentionCases(std::vector<TestCase> &cases) {
  auto add = [&](const std::string &file, AttnShape s, bool big = false) {
    std::string name =
        file + "/Z=" + std::to_string(s.Z) + ",H=" + std::to_string(s.H) +
        ",N_Q=" + std::to_string(s.NQ) + ",N_KV=" + std::to_string(s.NKV) +
        (s.layout == AttnLayout::BSHD ? ",BSHD" : "");
    cases.push_back({name, big, true,
                     [=](const Env &e) { runAttention(e, name, file, s); }});
  };
  auto shape = [](int Z, int H, int NQ, int NKV) {
    AttnShape s;
    s.Z = Z, s.H = H, s.NQ = NQ, s.NKV = NKV;
    return s;
  };
  for (bool desc : {false, true})
  for (AttnElem elem : {AttnElem::F16, AttnElem::BF16})
    for (int D : {64, 128})
      for (bool causal : {true, false}) {
        std::string file = std::string(desc ? "attn_fwd_desc_" : "attn_fwd_") +
                           (elem == AttnElem::F16 ? "fp16" : "bf16") + "_d" +
                           std::to_string(D) + (causal ? "_causal" : "_full");
        std::vector<std::pair<AttnShape, bool>> shapes = {
            // One query and key; one partial key block; 8 query blocks
            // over 16 key blocks, the last partial.
            {shape(1, 1, 1, 1), false},
            {shape(1, 1, 17, 17), false},
            {shape(1, 1, 1000, 1000), false},
            // Fewer queries than keys and more (causal: rows past N_KV
            // see every key; the diagonal block holds no key).
            {shape(1, 1, 100, 300), false},
            {shape(1, 1, 300, 100), false},
            // No key at all: O = 0 and M = 0, no NaN (2 query blocks).
            {shape(1, 2, 130, 0), false},
            // Batches and heads: off_hz // H and % H, 3 query blocks.
            {shape(2, 3, 257, 257), false},
            // 65 key blocks, the last holding one key (~2e9 multiply-adds
            // for the reference at D = 128: not --quick).
            {shape(1, 1, 4097, 4097), true},
        };
        // The descriptor form: no N_KV = 0 case -- a tensor map of zero
        // rows cannot be encoded (cuTensorMapEncodeTiled takes sizes from
        // 1), and the runtime refuses that launch with a message naming the
        // descriptor, as attn_fwd_desc_refuses_empty checks. It reads
        // contiguous BHSD tensors only.
        if (desc)
          shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                      [](const auto &sb) {
                                        return sb.first.NKV == 0;
                                      }),
                       shapes.end());
        AttnShape strided = shape(2, 3, 200, 200);
        strided.layout = AttnLayout::BSHD;
        if (!desc)
          shapes.push_back({strided, false});
        for (auto [s, big] : shapes) {
          s.D = D;
          s.causal = causal;
          s.elem = elem;
          add(file, s, big);
        }
      }
  // The benchmark's kernels (bench/bench_attention.py: N_Q and N_KV
  // i32:16, D = 128) on shapes that fit their signature.
  for (AttnElem elem : {AttnElem::F16, AttnElem::BF16})
    for (bool causal : {true, false}) {
      std::string file = std::string("bench_attn_fwd_") +
                         (elem == AttnElem::F16 ? "fp16" : "bf16") + "_d128" +
                         (causal ? "_causal" : "_full");
      for (AttnShape s : {shape(2, 3, 1024, 1024), shape(1, 2, 256, 512),
                          shape(1, 2, 512, 256)}) {
        s.D = 128;
        s.causal = causal;
        s.elem = elem;
        add(file, s);
      }
    }
  // An empty K for the descriptor form: a located refusal, not a launch.
  cases.push_back({"attn_fwd_desc_refuses_empty", false, true,
                   [](const Env &e) {
                     AttnShape s;
                     s.Z = 1, s.H = 2, s.NQ = 130, s.NKV = 0, s.D = 64;
                     s.elem = AttnElem::F16;
                     expectEmptyKeysRefused(e, "attn_fwd_desc_fp16_d64_full", s);
                   }});
  // The backward pass: preprocess + main kernel, the same ragged shapes.
  for (AttnElem elem : {AttnElem::F16, AttnElem::BF16})
    for (int D : {64, 128})
      for (bool causal : {true, false}) {
        std::string dt = elem == AttnElem::F16 ? "fp16" : "bf16";
        std::string pre = "attn_bwd_pre_" + dt + "_d" + std::to_string(D);
        std::string file = "attn_bwd_" + dt + "_d" + std::to_string(D) +
                           (causal ? "_causal" : "_full");
        AttnShape strided = shape(2, 3, 200, 200);
        strided.layout = AttnLayout::BSHD;
        std::vector<std::pair<AttnShape, bool>> shapes = {
            {shape(1, 1, 1, 1), false},       {shape(1, 1, 17, 17), false},
            {shape(1, 1, 1000, 1000), false}, {shape(1, 1, 100, 300), false},
            {shape(1, 1, 300, 100), false},   {shape(1, 2, 130, 0), false},
            {shape(2, 3, 257, 257), false},   {strided, false},
            {shape(1, 1, 4097, 4097), true},
        };
        for (auto [s, big] : shapes) {
          s.D = D;
          s.causal = causal;
          s.elem = elem;
          std::string name =
              file + "/Z=" + std::to_string(s.Z) + ",H=" + std::to_string(s.H) +
              ",N_Q=" + std::to_string(s.NQ) + ",N_KV=" + std::to_string(s.NKV) +
              (s.layout == AttnLayout::BSHD ? ",BSHD" : "");
          cases.push_back({name, big, true, [=](const Env &e) {
                             runBackward(e, name, pre, file, s);
                           }});
        }
      }
  // The backward benchmark's kernels (N_Q and N_KV i32:16, D = 128).
  for (AttnElem elem : {AttnElem::F16, AttnElem::BF16})
    for (bool causal : {true, false}) {
      std::string dt = elem == AttnElem::F16 ? "fp16" : "bf16";
      std::string pre = "bench_attn_bwd_pre_" + dt + "_d128";
      std::string file =
          "bench_attn_bwd_" + dt + "_d128" + (causal ? "_causal" : "_full");
      for (AttnShape s : {shape(2, 3, 1024, 1024), shape(1, 2, 256, 512),
                          shape(1, 2, 512, 256)}) {
        s.D = 128;
        s.causal = causal;
        s.elem = elem;
        std::string name = file + "/Z=" + std::to_string(s.Z) +
                           ",H=" + std::to_string(s.H) +
                           ",N_Q=" + std::to_string(s.NQ) +
                           ",N_KV=" + std::to_string(s.NKV);
        cases.push_back({name, false, true, [=](const Env &e) {
                           runBackward(e, name, pre, file, s);
                         }});
      }
    }
  cases.push_back({"selftest/attention_backward_reference", false, false,
                   [](const Env &e) { backwardSelfTest(e); }});
  cases.push_back({"selftest/attention_reference", false, false,
                   [](const Env &e) { attentionSelfTest(e); }});
}
