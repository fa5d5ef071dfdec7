//===- DotTests.cpp - tl.dot kernels against float64 references --*- C++ -*-===//
//
// The tl.dot cases of tilec-gpu-tests: the kernels of
// test/GPU/kernels/py/matmul.py (and Triton's tutorial 03) specialized per
// input type, input precision, pipeline depth and stride facts
// (test/CMakeLists.txt, _gpu_dot_kernels), each launched on ragged shapes
// and compared with a CPU reference accumulated in float64 (int64 for int8).
//
// A GEMM cannot be compared bit for bit: the order of the fp32 additions is
// the kernel's (mma fragments, K tiles), so each output element is checked
// against an error bound instead, and the whole matrix against a normwise
// bound, both derived from what the arithmetic may lose and no looser:
//
//  - per element |out - ref| <= e + r * (|ref| + e) + f, where
//      e = elem * mag,  mag = sum_k |a_ik * b_kj| (+ |c_ij| for an
//      accumulator input): the accumulation error of K fp32 additions,
//      elem = 2 (K + 1) 2^-23 (four times the classic (K - 1) u bound with
//      u = 2^-24, covering tensor cores that truncate instead of rounding;
//      an H200's mma.sync stayed below 2% of it);
//      r: half an ulp of the output type relative to the value (2^-11 fp16,
//      2^-8 bf16, 0 fp32); f: the absolute half ulp of fp16 subnormals;
//  - normwise ||out - ref||_F / ||ref||_F <= norm * max(1, sqrt(K / 64)) + r,
//      norm = 1e-5 when the products are exact in fp32 (fp16, bf16 and tf32
//      operands: at most 2 x 11 significant bits), 1e-6 for ieee fp32,
//      1e-5 for tf32x3 (plus 2^-19 mag per element for the dropped low
//      products);
//  - native fp8 dots: Hopper's fp8 tensor cores accumulate the products of
//      one instruction with less than fp32 precision (Triton 3.6 measured
//      ~6e-5 normwise on an H200), so elem gets + 2^-11 and norm = 5e-4;
//  - int8 -> int32 is exact; K = 0 (no product) must give exactly 0 or C.
//
// tf32: the reference rounds both operands to tf32 (10 fraction bits).
// Hardware reads fp32 registers as tf32 by dropping the low 13 bits; a
// compiler may round them first (cvt.rna.tf32.f32). The four references
// (each operand rounded to nearest or truncated) are computed and the output
// must match the closest one to fp32-accumulation accuracy (ties, where rna
// and rne differ, are kept out of the inputs). fp16 conversion of the
// operands would give the same values on inputs within fp16's range, so A
// is scaled by 2^16 and B by 2^-16: an fp16 path then overflows or loses
// B to subnormals, while the products, and so the tolerances, are unchanged.
//
// Inputs are random and never zero: fp16/bf16/fp32 uniform in [-4, 4] with
// magnitude >= 1/16 (the harness's generator), int8 in [-128, 127], fp8 any
// byte that encodes a finite non-zero value (subnormals included). Leading
// dimensions are padded; the padding of A and B holds 0xFF bytes (NaN in
// every float format, -1 in int8), so a masked-off element that is read
// anyway changes the result. C is poisoned with 0xFF bytes (int32 outputs
// run twice, also with 0x5A bytes, since 0xFFFFFFFF is a valid int32) and
// its row padding and 256 elements past its end must keep the poison.
// Buffers end where the matrices end, so compute-sanitizer memcheck sees a
// load past them.
//
// A case whose .ptx file is missing is a SKIP where the build leaves the
// tl.dot kernels out (-DTILEC_GPU_DOT_TESTS=OFF) and a FAIL where it compiles
// them (the default), except tutorial 03's, a SKIP where the tutorial's
// source is not in the tree (TILEC_GPU_TUTORIAL03=0).
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtils.h"

#include <array>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#ifndef TILEC_GPU_TUTORIAL03
#define TILEC_GPU_TUTORIAL03 0
#endif
#ifndef TILEC_GPU_DOT_TESTS
#define TILEC_GPU_DOT_TESTS 0
#endif

using namespace tilec;
using namespace tilec::gputest;

Kernel tilec::gputest::dotKernel(const Env &env, const std::string &file,
                                 const std::string &name) {
#if !TILEC_GPU_TUTORIAL03
  if (file == "matmul_tutorial03_leaky_relu" && !env.hasKernelFile(file))
    throw CaseSkip{"Triton's 03-matrix-multiplication.py is not in this "
                   "build's source tree (test/Frontend/Inputs/README.md says "
                   "where to copy it)",
                   /*expected=*/true};
#endif
  if (!env.hasKernelFile(file)) {
#if TILEC_GPU_DOT_TESTS
    failCase(env.kernelDir + "/" + file +
             ".ptx not found, though this build compiles the tl.dot kernels "
             "(TILEC_GPU_DOT_TESTS=ON)");
#else
    throw CaseSkip{file + ".ptx not built: the tl.dot kernels need "
                          "-DTILEC_GPU_DOT_TESTS=ON (the dot backend)",
                   /*expected=*/true};
#endif
  }
  return env.kernel(file, name);
}

namespace {

//===----------------------------------------------------------------------===//
// Element types and host matrices
//===----------------------------------------------------------------------===//

enum class Elem { F16, BF16, F32, I8, I32, E4M3, E5M2 };

size_t elemBytes(Elem e) {
  switch (e) {
  case Elem::F16:
  case Elem::BF16:
    return 2;
  case Elem::F32:
  case Elem::I32:
    return 4;
  case Elem::I8:
  case Elem::E4M3:
  case Elem::E5M2:
    return 1;
  }
  return 0;
}

/// fp32 -> tf32 (10 fraction bits) rounded to nearest, ties away from zero
/// (PTX cvt.rna.tf32.f32), or truncated (what the tensor core does with the
/// low 13 bits of an fp32 register); kept in an fp32.
float tf32Round(float f) { return bitsFloat((floatBits(f) + 0x1000u) & ~0x1FFFu); }
float tf32Trunc(float f) { return bitsFloat(floatBits(f) & ~0x1FFFu); }

/// A matrix with `rows` x `cols` logical elements stored row-major (element
/// (r, c) at r * ld + c) or column-major (at c * ld + r) in `elem`'s
/// encoding; the padding of each stored row holds 0xFF bytes. `value` holds
/// the decoded logical elements, row-major.
struct HostMatrix {
  Elem elem = Elem::F32;
  int rows = 0, cols = 0, ld = 0;
  bool colMajor = false;
  std::vector<uint8_t> bytes;
  std::vector<double> value;

  HostMatrix(Elem e, int r, int c, int leading, bool cm)
      : elem(e), rows(r), cols(c), ld(leading), colMajor(cm),
        bytes(size_t(cm ? c : r) * leading * elemBytes(e), 0xFF),
        value(size_t(r) * c, 0.0) {}

  size_t offset(int r, int c) const {
    return colMajor ? size_t(c) * ld + r : size_t(r) * ld + c;
  }
  /// Strides in elements along the logical rows and columns.
  int strideRow() const { return colMajor ? 1 : ld; }
  int strideCol() const { return colMajor ? ld : 1; }
  double at(int r, int c) const { return value[size_t(r) * cols + c]; }
  float atF32(int r, int c) const {
    float f;
    std::memcpy(&f, &bytes[offset(r, c) * 4], 4);
    return f;
  }

  /// Fills every logical element with a random non-zero value of `elem`;
  /// fp32 values are scaled by 2^scaleLog2 (exact).
  /// Random values: 16-bit and f32 ones from rng.value() (f32 scaled by
  /// 2^scaleLog2), int8 nonzero bytes, fp8 every finite nonzero encoding
  /// with magnitude at most `fp8MaxAbs` (sums of such products can
  /// overflow an fp16 C otherwise).
  void randomize(Rng &rng, int scaleLog2 = 0, double fp8MaxAbs = INFINITY) {
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        uint8_t *p = &bytes[offset(r, c) * elemBytes(elem)];
        double v = 0;
        switch (elem) {
        case Elem::F16: {
          uint16_t h = floatToHalf(rng.value());
          std::memcpy(p, &h, 2);
          v = halfToFloat(h);
          break;
        }
        case Elem::BF16: {
          uint16_t h = floatToBf16(rng.value());
          std::memcpy(p, &h, 2);
          v = bf16ToFloat(h);
          break;
        }
        case Elem::F32: {
          // No tf32 ties (low 13 bits exactly half): rna and rne agree.
          float f;
          do
            f = rng.value();
          while ((floatBits(f) & 0x1FFFu) == 0x1000u);
          f = std::ldexp(f, scaleLog2);
          std::memcpy(p, &f, 4);
          v = f;
          break;
        }
        case Elem::I8: {
          int8_t i;
          do
            i = int8_t(uint8_t(rng.next() >> 56));
          while (i == 0);
          *p = uint8_t(i);
          v = i;
          break;
        }
        case Elem::E4M3:
        case Elem::E5M2: {
          bool e5 = elem == Elem::E5M2;
          uint8_t b;
          while (true) {
            b = uint8_t(rng.next() >> 56);
            if ((b & 0x7F) == 0)
              continue; // +-0
            if (!e5 && (b & 0x7F) == 0x7F)
              continue; // e4m3fn NaN
            if (e5 && (b & 0x7C) == 0x7C)
              continue; // e5m2 infinity and NaN
            if (std::fabs(fp8ToFloat(b, e5)) > fp8MaxAbs)
              continue;
            break;
          }
          *p = b;
          v = fp8ToFloat(b, e5);
          break;
        }
        case Elem::I32:
          failCase("int32 inputs are not generated");
        }
        value[size_t(r) * cols + c] = v;
      }
  }
};

/// Leading dimension for `inner` logical elements per stored row: with
/// `aligned` (the signature says i32:16) a multiple of 16 with 16 elements
/// of padding, else `inner` + 3 (odd: nothing is aligned).
int leadingDim(int inner, bool aligned) {
  return aligned ? (std::max(inner, 1) + 15) / 16 * 16 + 16
                 : std::max(inner, 1) + 3;
}

//===----------------------------------------------------------------------===//
// References and tolerances
//===----------------------------------------------------------------------===//

/// ref = sum_k fa(A(i, k)) * fb(B(k, j)) and mag = sum_k |...| in float64.
template <typename FA, typename FB>
void gemmReference(const HostMatrix &A, const HostMatrix &B,
                   std::vector<double> &ref, std::vector<double> &mag, FA fa,
                   FB fb) {
  int M = A.rows, K = A.cols, N = B.cols;
  ref.assign(size_t(M) * N, 0.0);
  mag.assign(size_t(M) * N, 0.0);
  std::vector<double> a(K);
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k)
      a[k] = fa(A, i, k);
    for (int k = 0; k < K; ++k) {
      double av = a[k];
      for (int j = 0; j < N; ++j) {
        double p = av * fb(B, k, j);
        ref[size_t(i) * N + j] += p;
        mag[size_t(i) * N + j] += std::fabs(p);
      }
    }
  }
}

double asStored(const HostMatrix &m, int r, int c) { return m.at(r, c); }
double asTf32Round(const HostMatrix &m, int r, int c) {
  return tf32Round(m.atF32(r, c));
}
double asTf32Trunc(const HostMatrix &m, int r, int c) {
  return tf32Trunc(m.atF32(r, c));
}

/// The bounds of one comparison (see the file comment).
struct Tolerance {
  double elem = 0;     // times mag: accumulation (and input) error
  double norm = 0;     // normwise, before the output rounding
  double outRound = 0; // half ulp of the output type, relative
  double absFloor = 0; // half ulp of the output type's subnormals
};

/// The accumulation error of K fp32 additions, relative to sum |a b|.
double fp32AccumTol(int K) {
  return K == 0 ? 0.0 : 2.0 * (K + 1) * std::ldexp(1.0, -23);
}
double normScale(int K) { return std::max(1.0, std::sqrt(K / 64.0)); }

enum class Prec { Exact, ExactProducts, Fp8, Fp8Block128, Ieee, Tf32, Tf32x3 };

Tolerance toleranceFor(Prec prec, Elem out, int K) {
  Tolerance t;
  t.elem = fp32AccumTol(K);
  switch (prec) {
  case Prec::Exact:
    t.elem = 0;
    break;
  case Prec::ExactProducts:
  case Prec::Tf32: // against the closest tf32 reference
    t.norm = 1e-5 * normScale(K);
    break;
  case Prec::Fp8:
    // Native fp8 dots: Hopper's fp8 tensor cores add the products of one
    // instruction with less than fp32 precision. Triton 3.6's matmul_kernel
    // on an H200 measured normwise 4.5e-5 to 6.5e-5 and |err| <= 6.1e-5
    // sum |a*b|, for K = 173 and 1000 alike (its fp32 accumulator takes each
    // instruction's result); the bounds are 8x that. A wrong decode,
    // element or K tile is off by O(1).
    t.elem += K ? std::ldexp(1.0, -11) : 0.0;
    t.norm = 5e-4;
    break;
  case Prec::Fp8Block128:
    // The same with 128-deep K tiles on wgmma: each tl.dot adds 128
    // products in the tensor core before `acc +=` adds its sum in fp32 (as
    // Triton does with max_num_imprecise_acc = 2^30: it does not fold the
    // add into the dot). Triton 3.6 on an H200, same inputs and tiles:
    // normwise 2.0e-4 to 2.2e-4, |err| <= 7.6e-4 sum |a*b| for K = 173,
    // 256 and 1000; the bounds are about 2.5x that.
    t.elem += K ? std::ldexp(1.0, -9) : 0.0;
    t.norm = 5e-4;
    break;
  case Prec::Ieee:
    t.norm = 1e-6 * normScale(K);
    break;
  case Prec::Tf32x3:
    // The dropped low x low product and the rounding of the low parts:
    // about 3 x 2^-22 of each product.
    t.elem = 3 * fp32AccumTol(K) + (K ? std::ldexp(1.0, -19) : 0.0);
    t.norm = 1e-5 * normScale(K);
    break;
  }
  if (out == Elem::F16) {
    t.outRound = std::ldexp(1.0, -11);
    t.absFloor = std::ldexp(1.0, -25);
  } else if (out == Elem::BF16) {
    t.outRound = std::ldexp(1.0, -8);
    t.absFloor = std::ldexp(1.0, -134);
  }
  return t;
}

/// A downloaded output matrix: decoded values and whether each element still
/// holds the poison (never written).
struct Output {
  std::vector<double> value;
  std::vector<bool> poisoned;
};

/// Decodes the rows x cols part of a downloaded `elem` matrix with leading
/// dimension ld (row-major) and checks that the row padding, and `guard`
/// elements past rows * ld, still hold the `poison` byte.
Output decodeOutput(const std::vector<uint8_t> &raw, Elem elem, int rows,
                    int cols, int ld, size_t guard, uint8_t poison,
                    const char *what) {
  size_t eb = elemBytes(elem);
  auto isPoison = [&](size_t index) {
    for (size_t b = 0; b < eb; ++b)
      if (raw[index * eb + b] != poison)
        return false;
    return true;
  };
  Output out;
  out.value.resize(size_t(rows) * cols);
  out.poisoned.resize(size_t(rows) * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < ld; ++j) {
      size_t index = size_t(i) * ld + j;
      if (j >= cols) {
        if (!isPoison(index))
          failCase(std::string(what) + " padding element (" +
                   std::to_string(i) + ", " + std::to_string(j) +
                   ") was written");
        continue;
      }
      const uint8_t *p = &raw[index * eb];
      double v = 0;
      switch (elem) {
      case Elem::F32: {
        float f;
        std::memcpy(&f, p, 4);
        v = f;
        break;
      }
      case Elem::I32: {
        int32_t x;
        std::memcpy(&x, p, 4);
        v = x;
        break;
      }
      case Elem::F16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        v = halfToFloat(h);
        break;
      }
      case Elem::BF16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        v = bf16ToFloat(h);
        break;
      }
      default:
        failCase("unexpected output type");
      }
      out.value[size_t(i) * cols + j] = v;
      out.poisoned[size_t(i) * cols + j] = isPoison(index);
    }
  size_t end = size_t(rows) * ld;
  for (size_t g = end; g < end + guard; ++g)
    if (!isPoison(g))
      failCase(std::string(what) + " guard element " + std::to_string(g - end) +
               " past the end was written");
  return out;
}

/// Normwise relative error ||out - ref|| / ||ref|| (0 / 0 = 0; x / 0 = inf).
double normwiseError(const Output &out, const std::vector<double> &ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = out.value[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  if (num == 0)
    return 0;
  return den == 0 ? INFINITY : std::sqrt(num / den);
}

/// Checks every element of `out` (cols wide) against ref within `tol` and
/// the normwise bound; `what` names the matrix in messages.
void expectNear(const Output &out, const std::vector<double> &ref,
                const std::vector<double> &mag, int cols, const Tolerance &tol,
                const std::string &what, const Env &env,
                const std::string &caseName) {
  double worstRatio = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    std::string where = what + " (" + std::to_string(i / cols) + ", " +
                        std::to_string(i % cols) + ")";
    char buf[320];
    if (out.poisoned[i]) {
      std::snprintf(buf, sizeof(buf), "%s: expected %.9g, never written",
                    where.c_str(), ref[i]);
      failCase(buf);
    }
    double e = tol.elem * mag[i];
    double bound = e + tol.outRound * (std::fabs(ref[i]) + e) + tol.absFloor;
    double err = std::fabs(out.value[i] - ref[i]);
    if (!(err <= bound)) { // NaN fails too
      std::snprintf(buf, sizeof(buf),
                    "%s: expected %.9g (float64 reference), found %.9g: "
                    "error %.3g > bound %.3g (sum |a*b| = %.6g)",
                    where.c_str(), ref[i], out.value[i], err, bound, mag[i]);
      failCase(buf);
    }
    if (bound > 0)
      worstRatio = std::max(worstRatio, err / bound);
  }
  double nerr = normwiseError(out, ref);
  double nbound = tol.norm + tol.outRound;
  if (!(nerr <= nbound)) {
    char buf[200];
    std::snprintf(buf, sizeof(buf),
                  "%s: normwise relative error %.3g > %.3g", what.c_str(),
                  nerr, nbound);
    failCase(buf);
  }
  if (env.verbose)
    std::printf("INFO %s: %s normwise error %.3g (bound %.3g), worst element "
                "at %.3g of its bound\n",
                caseName.c_str(), what.c_str(), nerr, nbound, worstRatio);
}

/// Exact comparison (int32 results).
void expectExact(const Output &out, const std::vector<double> &ref, int cols,
                 const std::string &what) {
  for (size_t i = 0; i < ref.size(); ++i)
    if (out.value[i] != ref[i]) {
      char buf[256];
      std::snprintf(buf, sizeof(buf),
                    "%s (%zu, %zu): expected %.0f, found %.0f%s", what.c_str(),
                    i / cols, i % cols, ref[i], out.value[i],
                    out.poisoned[i] ? " (never written)" : "");
      failCase(buf);
    }
}


//===----------------------------------------------------------------------===//
// grouped_matmul_kernel (tutorial 08's grouped GEMM)
//===----------------------------------------------------------------------===//

/// C_g = A_g @ B_g for the groups `shapes` (fp16, row-major, leading
/// dimensions padded to 8 elements plus 8), their addresses and sizes
/// passed through device arrays, on a grid of `programs` programs (the
/// kernel's NUM_PROGRAMS). Each C_g is checked, its row padding keeping the
/// poison.
void runGroupedMatmul(const Env &env, const std::string &caseName,
                      const std::string &file,
                      const std::vector<std::array<int, 3>> &shapes,
                      unsigned programs) {
  Kernel k = dotKernel(env, file, "grouped_matmul_kernel");
  Rng rng = env.rng(caseName);
  auto ld = [](int inner) { return (std::max(inner, 1) + 7) / 8 * 8 + 8; };
  std::vector<HostMatrix> As, Bs;
  std::vector<std::unique_ptr<DeviceBuffer>> dAs, dBs, dCs;
  std::vector<int64_t> aAddr, bAddr, cAddr;
  std::vector<int32_t> sizes, lds;
  for (auto [M, N, K] : shapes) {
    As.emplace_back(Elem::F16, M, K, ld(K), false);
    Bs.emplace_back(Elem::F16, K, N, ld(N), false);
    As.back().randomize(rng);
    Bs.back().randomize(rng);
    dAs.push_back(std::make_unique<DeviceBuffer>(As.back().bytes.size()));
    dBs.push_back(std::make_unique<DeviceBuffer>(Bs.back().bytes.size()));
    dCs.push_back(
        std::make_unique<DeviceBuffer>((size_t(M) * ld(N) + kGuard) * 2));
    dAs.back()->upload(As.back().bytes);
    dBs.back()->upload(Bs.back().bytes);
    dCs.back()->poison();
    aAddr.push_back(int64_t(dAs.back()->get()));
    bAddr.push_back(int64_t(dBs.back()->get()));
    cAddr.push_back(int64_t(dCs.back()->get()));
    sizes.insert(sizes.end(), {M, N, K});
    lds.insert(lds.end(), {ld(K), ld(N), ld(N)});
  }
  DeviceBuffer dA(aAddr.size() * 8), dB(bAddr.size() * 8),
      dC(cAddr.size() * 8), dSizes(sizes.size() * 4), dLds(lds.size() * 4);
  dA.upload(aAddr);
  dB.upload(bAddr);
  dC.upload(cAddr);
  dSizes.upload(sizes);
  dLds.upload(lds);
  check(k.launch(Grid{programs, 1, 1},
                 {Arg::ptr(dA.get()), Arg::ptr(dB.get()), Arg::ptr(dC.get()),
                  Arg::ptr(dSizes.get()), Arg::ptr(dLds.get()),
                  Arg::i32(int32_t(shapes.size()))}));
  env.sync();
  for (size_t g = 0; g < shapes.size(); ++g) {
    auto [M, N, K] = shapes[g];
    std::vector<double> ref, mag;
    gemmReference(As[g], Bs[g], ref, mag, asStored, asStored);
    size_t bytes = (size_t(M) * ld(N) + kGuard) * 2;
    std::string what = "C_" + std::to_string(g);
    Output C = decodeOutput(dCs[g]->download<uint8_t>(bytes), Elem::F16, M, N,
                            ld(N), kGuard, 0xFF, what.c_str());
    expectNear(C, ref, mag, N, toleranceFor(Prec::ExactProducts, Elem::F16, K),
               what, env, caseName);
  }
}

//===----------------------------------------------------------------------===//
// matmul_kernel (and the tutorial's, which has the same parameters)
//===----------------------------------------------------------------------===//

struct MatmulSpec {
  std::string file;              // PTX file
  std::string kernel = "matmul_kernel";
  Elem in = Elem::F16, out = Elem::F32;
  Prec prec = Prec::ExactProducts;
  int blockM = 64, blockN = 64;  // the launch grid
  bool aligned = false;          // strides i32:16 / i32:1
  bool aColMajor = false, bColMajor = false;
  bool leakyRelu = false;        // tutorial 03's ACTIVATION="leaky_relu"
  bool gelu = false;             // matmul_kernel's ACTIVATION="gelu"
  /// matmul_epilogue_kernel's ACTIVATION ("relu", "gelu", "gelu_tanh",
  /// "silu", "none"); empty for the other kernels. Its parameters add a
  /// bias per column, a residual of C's type and strides and two
  /// per-tensor scales.
  std::string epilogue;
  int maxPrograms = 0;           // persistent kernels: cap on the grid
  /// matmul_tma_kernel's parameters: host-side descriptors of A [M, K],
  /// B [N, K] (bColMajor) and C [M, N], then M, N, K.
  bool hostDesc = false;
  int M = 0, N = 0, K = 0;

  std::string caseName() const {
    std::string n = file + "/M=" + std::to_string(M) + ",N=" +
                    std::to_string(N) + ",K=" + std::to_string(K);
    if (aColMajor)
      n += ",A col-major";
    if (bColMajor)
      n += ",B col-major";
    if (maxPrograms)
      n += ",programs<=" + std::to_string(maxPrograms);
    return n;
  }
};

/// C = A @ B (leaky_relu'd for the tutorial) through a kernel with
/// matmul_kernel's parameters, launched on a 1-D grid of
/// cdiv(M, blockM) * cdiv(N, blockN) programs (at most maxPrograms, for a
/// persistent kernel, when set).
void runMatmul(const Env &env, const MatmulSpec &s) {
  std::string caseName = s.caseName();
  Kernel k = dotKernel(env, s.file, s.kernel);
  Rng rng = env.rng(caseName);
  bool fp32 = s.in == Elem::F32;
  HostMatrix A(s.in, s.M, s.K,
               leadingDim(s.aColMajor ? s.M : s.K, s.aligned), s.aColMajor);
  HostMatrix B(s.in, s.K, s.N,
               leadingDim(s.bColMajor ? s.K : s.N, s.aligned), s.bColMajor);
  // fp32: A * 2^16 and B * 2^-16 are outside fp16's range (file comment).
  // fp8 into an fp16 C: magnitudes up to 4, so that |C| < 2^14 for K <= 1000.
  double fp8Max = s.out == Elem::F16 ? 4.0 : INFINITY;
  A.randomize(rng, fp32 ? 16 : 0, fp8Max);
  B.randomize(rng, fp32 ? -16 : 0, fp8Max);
  int ldc = leadingDim(s.N, s.aligned);
  size_t cElems = size_t(s.M) * ldc;
  size_t cBytes = (cElems + kGuard) * elemBytes(s.out);

  std::vector<double> ref, mag;
  std::vector<std::vector<double>> refs; // tf32: the four roundings
  if (s.prec == Prec::Tf32) {
    std::vector<double> m;
    for (auto fa : {asTf32Round, asTf32Trunc})
      for (auto fb : {asTf32Round, asTf32Trunc}) {
        refs.emplace_back();
        gemmReference(A, B, refs.back(), m, fa, fb);
      }
    gemmReference(A, B, ref, mag, asStored, asStored);
  } else {
    gemmReference(A, B, ref, mag, asStored, asStored);
  }
  if (s.leakyRelu)
    // leaky_relu is 1-Lipschitz: the accumulation bound still holds; 0.01
    // in fp32 and the product's rounding add ~2^-24 relative (outRound
    // covers it).
    for (double &v : ref)
      v = v >= 0 ? v : 0.01 * v;
  if (s.gelu)
    for (double &v : ref)
      v = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
  Tolerance tol = toleranceFor(s.prec, s.out, s.K);

  // matmul_epilogue_kernel: C = act(sa * sb * (A @ B) + bias) + R.
  bool epi = !s.epilogue.empty();
  const float scales[2] = {0.75f, 1.25f};
  std::vector<float> bias(size_t(s.N));
  HostMatrix R(s.out, s.M, s.N, ldc, false);
  if (epi) {
    for (float &b : bias)
      b = rng.value();
    R.randomize(rng);
    double scale = double(scales[0]) * scales[1];
    // The activations' largest slopes (GELU 1.129, SiLU 1.100), which
    // scale the accumulator's error; the scale, the bias add, the
    // activation's fp32 evaluation (erff, exp within a few ulp) and the
    // residual add cost at most 2^-20 of the magnitudes involved.
    double slope = s.epilogue == "gelu" || s.epilogue == "gelu_tanh" ? 1.13
                   : s.epilogue == "silu"                           ? 1.10
                                                                    : 1.0;
    double evalTol = std::ldexp(1.0, -20) / std::max(tol.elem, 1e-30);
    for (size_t i = 0; i < ref.size(); ++i) {
      int m = int(i / s.N), n = int(i % s.N);
      double x = scale * ref[i] + bias[n], y = x;
      if (s.epilogue == "relu")
        y = std::max(x, 0.0);
      else if (s.epilogue == "gelu")
        y = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
      else if (s.epilogue == "gelu_tanh")
        y = 0.5 * x *
            (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
      else if (s.epilogue == "silu")
        y = x / (1.0 + std::exp(-x));
      ref[i] = y + R.at(m, n);
      mag[i] = slope * scale * mag[i] +
               evalTol * (scale * mag[i] + std::fabs(bias[n]) +
                          std::fabs(R.at(m, n)) + std::fabs(x));
    }
  }

  DeviceBuffer dA(A.bytes.size()), dB(B.bytes.size()), dC(cBytes);
  dA.upload(A.bytes);
  dB.upload(B.bytes);
  DeviceBuffer dBias(epi ? bias.size() * 4 : 4),
      dR(epi ? R.bytes.size() : 4), dScales(8);
  if (epi) {
    dBias.upload(bias);
    dR.upload(R.bytes);
    dScales.upload(std::vector<float>(scales, scales + 2));
  }
  // int32 outputs: twice, as 0xFFFFFFFF is a valid result.
  std::vector<uint8_t> poisons = {0xFF};
  if (s.out == Elem::I32)
    poisons.push_back(0x5A);
  for (uint8_t poison : poisons) {
    dC.fill(poison);
    unsigned programs = cdiv(s.M, s.blockM) * cdiv(s.N, s.blockN);
    if (s.maxPrograms)
      programs = std::min(programs, unsigned(s.maxPrograms));
    if (s.hostDesc) {
      TensorDesc da = rowMajorDesc(dA.get(), s.M, s.K, A.strideRow()),
                 db = rowMajorDesc(dB.get(), s.N, s.K, B.strideCol()),
                 dc = rowMajorDesc(dC.get(), s.M, s.N, ldc);
      check(k.launch(Grid{programs, 1, 1},
                     {Arg::tensorDesc(&da), Arg::tensorDesc(&db),
                      Arg::tensorDesc(&dc), Arg::i32(s.M), Arg::i32(s.N),
                      Arg::i32(s.K)}));
    } else if (epi) {
      check(k.launch(Grid{programs, 1, 1},
                     {Arg::ptr(dA.get()), Arg::ptr(dB.get()),
                      Arg::ptr(dC.get()), Arg::ptr(dBias.get()),
                      Arg::ptr(dR.get()), Arg::ptr(dScales.get()),
                      Arg::ptr(dScales.get() + 4), Arg::i32(s.M),
                      Arg::i32(s.N), Arg::i32(s.K), Arg::i32(A.strideRow()),
                      Arg::i32(A.strideCol()), Arg::i32(B.strideRow()),
                      Arg::i32(B.strideCol()), Arg::i32(ldc), Arg::i32(1)}));
    } else {
      check(k.launch(Grid{programs, 1, 1},
                     {Arg::ptr(dA.get()), Arg::ptr(dB.get()),
                      Arg::ptr(dC.get()), Arg::i32(s.M), Arg::i32(s.N),
                      Arg::i32(s.K), Arg::i32(A.strideRow()),
                      Arg::i32(A.strideCol()), Arg::i32(B.strideRow()),
                      Arg::i32(B.strideCol()), Arg::i32(ldc), Arg::i32(1)}));
    }
    env.sync();
    Output C = decodeOutput(dC.download<uint8_t>(cBytes), s.out, s.M, s.N, ldc,
                            kGuard, poison, "C");
    if (s.gelu)
      // GELU's slope is at most 1.13, so the accumulator's error grows by
      // that much; its fp32 evaluation (erff within 2 ulp, 1 + erf
      // cancelling for x << 0) adds at most 2^-21 |x| <= 2^-21 sum |a*b|.
      tol.elem = 1.13 * tol.elem + std::ldexp(1.0, -21);
    if (s.prec == Prec::Exact) {
      expectExact(C, ref, s.N, "C");
    } else if (s.prec == Prec::Tf32) {
      // The closest of the four tf32 references, to fp32 accuracy.
      static const char *names[] = {"A rounded, B rounded",
                                    "A rounded, B truncated",
                                    "A truncated, B rounded",
                                    "A truncated, B truncated"};
      size_t best = 0;
      double bestErr = INFINITY;
      for (size_t r = 0; r < refs.size(); ++r) {
        double e = normwiseError(C, refs[r]);
        if (e < bestErr)
          bestErr = e, best = r;
      }
      if (env.verbose)
        std::printf("INFO %s: closest tf32 reference: %s; error against "
                    "the fp32 inputs %.3g\n",
                    caseName.c_str(), names[best], normwiseError(C, ref));
      expectNear(C, refs[best], mag, s.N, tol,
                 std::string("C (tf32 reference: ") + names[best] + ")", env,
                 caseName);
    } else {
      expectNear(C, ref, mag, s.N, tol, "C", env, caseName);
    }
  }
}

//===----------------------------------------------------------------------===//
// The smaller kernels
//===----------------------------------------------------------------------===//

/// C = op(A) @ op(B) with matmul_trans_kernel: A^T stored [K, M] (read
/// through `.T`) and/or B^T stored [N, K] (read through tl.trans); fp16
/// inputs, fp32 C, 64 x 64 tiles on a 2-D grid.
void runMatmulTrans(const Env &env, const std::string &caseName,
                    const std::string &file, bool transA, bool transB, int M,
                    int N, int K, bool aligned) {
  Kernel k = dotKernel(env, file, "matmul_trans_kernel");
  Rng rng = env.rng(caseName);
  // A transposed in memory is A column-major: (m, k) at k * ld + m.
  HostMatrix A(Elem::F16, M, K, leadingDim(transA ? M : K, aligned), transA);
  HostMatrix B(Elem::F16, K, N, leadingDim(transB ? K : N, aligned), transB);
  A.randomize(rng);
  B.randomize(rng);
  int ldc = leadingDim(N, aligned);
  size_t cBytes = (size_t(M) * ldc + kGuard) * 4;
  std::vector<double> ref, mag;
  gemmReference(A, B, ref, mag, asStored, asStored);
  DeviceBuffer dA(A.bytes.size()), dB(B.bytes.size()), dC(cBytes);
  dA.upload(A.bytes);
  dB.upload(B.bytes);
  dC.poison();
  // (stride_a0, stride_a1): along the stored matrix's rows, then columns.
  int a0 = transA ? A.strideCol() : A.strideRow();
  int a1 = transA ? A.strideRow() : A.strideCol();
  int b0 = transB ? B.strideCol() : B.strideRow();
  int b1 = transB ? B.strideRow() : B.strideCol();
  check(k.launch(Grid{cdiv(M, 64), cdiv(N, 64), 1},
                 {Arg::ptr(dA.get()), Arg::ptr(dB.get()), Arg::ptr(dC.get()),
                  Arg::i32(M), Arg::i32(N), Arg::i32(K), Arg::i32(a0),
                  Arg::i32(a1), Arg::i32(b0), Arg::i32(b1), Arg::i32(ldc),
                  Arg::i32(1)}));
  env.sync();
  Output C = decodeOutput(dC.download<uint8_t>(cBytes), Elem::F32, M, N, ldc,
                          kGuard, 0xFF, "C");
  expectNear(C, ref, mag, N,
             toleranceFor(Prec::ExactProducts, Elem::F32, K), "C", env,
             caseName);
}

/// D = C + A @ B with matmul_acc_kernel (acc = tl.dot(a, b, acc) from the
/// loaded C tile): fp16 A and B, fp32 C and D. K = 0 must give D = C
/// exactly.
void runMatmulAcc(const Env &env, const std::string &caseName, int M, int N,
                  int K) {
  Kernel k = dotKernel(env, "matmul_acc_fp16", "matmul_acc_kernel");
  Rng rng = env.rng(caseName);
  HostMatrix A(Elem::F16, M, K, leadingDim(K, false), false);
  HostMatrix B(Elem::F16, K, N, leadingDim(N, false), false);
  HostMatrix C(Elem::F32, M, N, leadingDim(N, false) + 2, false);
  A.randomize(rng);
  B.randomize(rng);
  C.randomize(rng);
  int ldd = leadingDim(N, false);
  size_t dBytes = (size_t(M) * ldd + kGuard) * 4;
  std::vector<double> ref, mag;
  gemmReference(A, B, ref, mag, asStored, asStored);
  for (size_t i = 0; i < ref.size(); ++i) {
    ref[i] += C.value[i];
    mag[i] += std::fabs(C.value[i]);
  }
  DeviceBuffer dA(A.bytes.size()), dB(B.bytes.size()), dC(C.bytes.size()),
      dD(dBytes);
  dA.upload(A.bytes);
  dB.upload(B.bytes);
  dC.upload(C.bytes);
  dD.poison();
  check(k.launch(Grid{cdiv(M, 64), cdiv(N, 64), 1},
                 {Arg::ptr(dA.get()), Arg::ptr(dB.get()), Arg::ptr(dC.get()),
                  Arg::ptr(dD.get()), Arg::i32(M), Arg::i32(N), Arg::i32(K),
                  Arg::i32(A.strideRow()), Arg::i32(1),
                  Arg::i32(B.strideRow()), Arg::i32(1),
                  Arg::i32(C.strideRow()), Arg::i32(1), Arg::i32(ldd),
                  Arg::i32(1)}));
  env.sync();
  Output D = decodeOutput(dD.download<uint8_t>(dBytes), Elem::F32, M, N, ldd,
                          kGuard, 0xFF, "D");
  if (K == 0)
    expectExact(D, ref, N, "D");
  else
    expectNear(D, ref, mag, N,
               toleranceFor(Prec::ExactProducts, Elem::F32, K), "D", env,
               caseName);
}

/// attention_chain_kernel over `batch` entries of [L, D] fp16 Q, K, V:
/// S = Q K^T against float64, then O = fp16(S) V against float64 from the
/// S the kernel stored (rounded to fp16 on the CPU, as the kernel does), so
/// each dot is checked on its own inputs.
void runAttentionChain(const Env &env, const std::string &caseName,
                       const std::string &file, int batch, int L, int D) {
  Kernel k = dotKernel(env, file, "attention_chain_kernel");
  Rng rng = env.rng(caseName);
  std::vector<HostMatrix> q, kt, v;
  std::vector<uint8_t> qb, kb, vb;
  for (int b = 0; b < batch; ++b) {
    q.emplace_back(Elem::F16, L, D, D, false);
    // K as stored is [L, D]; K^T [D, L] is the same bytes column-major.
    kt.emplace_back(Elem::F16, D, L, D, true);
    v.emplace_back(Elem::F16, L, D, D, false);
    q.back().randomize(rng);
    kt.back().randomize(rng);
    v.back().randomize(rng);
    qb.insert(qb.end(), q.back().bytes.begin(), q.back().bytes.end());
    kb.insert(kb.end(), kt.back().bytes.begin(), kt.back().bytes.end());
    vb.insert(vb.end(), v.back().bytes.begin(), v.back().bytes.end());
  }
  size_t sBytes = (size_t(batch) * L * L + kGuard) * 4;
  size_t oBytes = (size_t(batch) * L * D + kGuard) * 4;
  DeviceBuffer dQ(qb.size()), dK(kb.size()), dV(vb.size()), dS(sBytes),
      dO(oBytes);
  dQ.upload(qb);
  dK.upload(kb);
  dV.upload(vb);
  dS.poison();
  dO.poison();
  check(k.launch(Grid{unsigned(batch), 1, 1},
                 {Arg::ptr(dQ.get()), Arg::ptr(dK.get()), Arg::ptr(dV.get()),
                  Arg::ptr(dS.get()), Arg::ptr(dO.get()), Arg::i32(L),
                  Arg::i32(D)}));
  env.sync();
  // All batch entries as one [batch * L, L] (S) or [batch * L, D] (O)
  // matrix: the guard check then covers the end of the buffers.
  Output S = decodeOutput(dS.download<uint8_t>(sBytes), Elem::F32, batch * L,
                          L, L, kGuard, 0xFF, "S");
  Output O = decodeOutput(dO.download<uint8_t>(oBytes), Elem::F32, batch * L,
                          D, D, kGuard, 0xFF, "O");
  std::vector<double> sRef, sMag, oRef, oMag;
  for (int b = 0; b < batch; ++b) {
    std::vector<double> r, m;
    gemmReference(q[b], kt[b], r, m, asStored, asStored);
    sRef.insert(sRef.end(), r.begin(), r.end());
    sMag.insert(sMag.end(), m.begin(), m.end());
    // P = the kernel's S rounded to fp16.
    HostMatrix P(Elem::F16, L, L, L, false);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        float sv = float(S.value[(size_t(b) * L + i) * L + j]);
        P.value[size_t(i) * L + j] = halfToFloat(floatToHalf(sv));
      }
    gemmReference(P, v[b], r, m, asStored, asStored);
    oRef.insert(oRef.end(), r.begin(), r.end());
    oMag.insert(oMag.end(), m.begin(), m.end());
  }
  expectNear(S, sRef, sMag, L, toleranceFor(Prec::ExactProducts, Elem::F32, D),
             "S", env, caseName);
  expectNear(O, oRef, oMag, D, toleranceFor(Prec::ExactProducts, Elem::F32, L),
             "O", env, caseName);
}

/// matmul_aux_kernel: an fp16 GEMM (fp32 C) whose pipelined K loop also
/// updates the 128 int32s of slot idx[k] of program p's aux row,
/// aux[p][idx[k]][:] = aux[...][:] * 3 + k + 1. idx repeats slots, so the aux
/// rows are only right if every iteration's load sees the previous
/// iterations' stores (program order); both C and the aux rows (exact, int32
/// wrapping) are checked. Triton 3.6 on an H200 gets the aux rows wrong at
/// num_stages = 3 (it prefetches the aux load); tilec must not.
void runMatmulAux(const Env &env, const std::string &caseName, int M, int N,
                  int K) {
  const int blockM = 64, blockN = 64, blockK = 32, auxLen = 5, auxVec = 128;
  Kernel k = dotKernel(env, "matmul_aux_fp16", "matmul_aux_kernel");
  Rng rng = env.rng(caseName);
  HostMatrix A(Elem::F16, M, K, leadingDim(K, false), false);
  HostMatrix B(Elem::F16, K, N, leadingDim(N, false), false);
  A.randomize(rng);
  B.randomize(rng);
  int iters = int(cdiv(K, blockK)), programs = int(cdiv(M, blockM) * cdiv(N, blockN));
  std::vector<int32_t> idx(iters);
  for (int32_t &i : idx)
    i = int32_t(rng.next() % auxLen);
  // aux rows [programs][auxLen][auxVec], then kGuard sentinels that must
  // survive.
  const size_t rowInts = size_t(auxLen) * auxVec, auxInts = programs * rowInts;
  std::vector<int32_t> aux(auxInts + kGuard);
  for (int32_t &a : aux)
    a = int32_t(rng.next() % 1000);
  std::vector<int32_t> want(aux);
  for (int p = 0; p < programs; ++p)
    for (int it = 0; it < iters; ++it)
      for (int v = 0; v < auxVec; ++v) {
        uint32_t &e = reinterpret_cast<uint32_t &>(
            want[p * rowInts + size_t(idx[it]) * auxVec + v]);
        e = e * 3u + uint32_t(it) + 1u;
      }
  int ldc = leadingDim(N, false);
  size_t cBytes = (size_t(M) * ldc + kGuard) * 4;
  std::vector<double> ref, mag;
  gemmReference(A, B, ref, mag, asStored, asStored);
  DeviceBuffer dA(A.bytes.size()), dB(B.bytes.size()), dC(cBytes),
      dIdx(idx.size() * 4), dAux(aux.size() * 4);
  dA.upload(A.bytes);
  dB.upload(B.bytes);
  dIdx.upload(idx);
  dAux.upload(aux);
  dC.poison();
  check(k.launch(Grid{unsigned(programs), 1, 1},
                 {Arg::ptr(dA.get()), Arg::ptr(dB.get()), Arg::ptr(dC.get()),
                  Arg::ptr(dIdx.get()), Arg::ptr(dAux.get()), Arg::i32(M),
                  Arg::i32(N), Arg::i32(K), Arg::i32(A.strideRow()),
                  Arg::i32(1), Arg::i32(B.strideRow()), Arg::i32(1),
                  Arg::i32(ldc), Arg::i32(1), Arg::i32(auxLen)}));
  env.sync();
  std::vector<int32_t> got = dAux.download<int32_t>(aux.size());
  for (size_t i = 0; i < aux.size(); ++i)
    if (got[i] != want[i]) {
      std::string where =
          i >= auxInts ? "aux guard element " + std::to_string(i - auxInts)
                       : "aux[program " + std::to_string(i / rowInts) +
                             "][slot " + std::to_string(i % rowInts / auxVec) +
                             "][" + std::to_string(i % auxVec) + "]";
      failCase(where + ": expected " + std::to_string(want[i]) + ", found " +
               std::to_string(got[i]) +
               (i >= auxInts ? " (written)"
                             : " (a load of aux ran before an earlier "
                               "iteration's store?)"));
    }
  Output C = decodeOutput(dC.download<uint8_t>(cBytes), Elem::F32, M, N, ldc,
                          kGuard, 0xFF, "C");
  expectNear(C, ref, mag, N, toleranceFor(Prec::ExactProducts, Elem::F32, K),
             "C", env, caseName);
}

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void tilec::gputest::addDotCases(std::vector<TestCase> &cases) {
  struct Shape {
    int M, N, K;
  };
  // Ragged against every tile (64 x 64 x 32/64 and 128 x 256 x 64): one
  // partial K tile (173), many with a partial last one (1000), exact tiles,
  // a single element and K = 0.
  const Shape ragged{197, 131, 173}, deep{130, 67, 1000};
  auto addMatmul = [&](MatmulSpec s, std::initializer_list<Shape> shapes) {
    for (Shape sh : shapes) {
      s.M = sh.M;
      s.N = sh.N;
      s.K = sh.K;
      cases.push_back({s.caseName(), false, true,
                       [s](const Env &e) { runMatmul(e, s); }});
    }
  };
  auto spec = [](const char *file, Elem in, Elem out, Prec prec) {
    MatmulSpec s;
    s.file = file;
    s.in = in;
    s.out = out;
    s.prec = prec;
    return s;
  };

  // One input type (and fp32 precision) per kernel.
  MatmulSpec fp16 = spec("matmul_fp16", Elem::F16, Elem::F32, Prec::ExactProducts);
  addMatmul(fp16, {ragged, {64, 64, 64}, {1, 1, 1}, deep, {33, 250, 0}});
  // Column-major operands through the strides (same kernel).
  for (auto [ac, bc] : {std::pair{true, false}, {false, true}, {true, true}}) {
    MatmulSpec t = fp16;
    t.aColMajor = ac;
    t.bColMajor = bc;
    addMatmul(t, {ragged});
  }
  addMatmul(spec("matmul_fp16_out_fp16", Elem::F16, Elem::F16, Prec::ExactProducts),
            {ragged, deep});
  addMatmul(spec("matmul_bf16", Elem::BF16, Elem::F32, Prec::ExactProducts),
            {ragged, deep});
  addMatmul(spec("matmul_bf16_out_bf16", Elem::BF16, Elem::BF16, Prec::ExactProducts),
            {ragged});
  addMatmul(spec("matmul_fp32_ieee", Elem::F32, Elem::F32, Prec::Ieee), {ragged, deep});
  addMatmul(spec("matmul_fp32_tf32x3", Elem::F32, Elem::F32, Prec::Tf32x3),
            {ragged, deep});
  MatmulSpec tf32 = spec("matmul_fp32_tf32", Elem::F32, Elem::F32, Prec::Tf32);
  addMatmul(tf32, {ragged, deep});
  tf32.aColMajor = tf32.bColMajor = true;
  addMatmul(tf32, {ragged});
  // 8-bit inputs: 16-byte aligned strides (the signature's i32:16 / i32:1).
  MatmulSpec i8 = spec("matmul_int8", Elem::I8, Elem::I32, Prec::Exact);
  i8.aligned = true;
  addMatmul(i8, {ragged, deep, {1, 1, 1}});
  // Native fp8 dots get the fp8 tolerance; the upcast ones (in the kernel,
  // or by tilec for sm_80) are fp16 dots.
  for (auto [file, e, prec] :
       {std::tuple{"matmul_fp8e4nv", Elem::E4M3, Prec::Fp8},
        {"matmul_fp8e5", Elem::E5M2, Prec::Fp8},
        {"matmul_fp8e4nv_upcast", Elem::E4M3, Prec::ExactProducts},
        {"matmul_fp8e4nv_sm80", Elem::E4M3, Prec::ExactProducts},
        {"matmul_fp8e5_sm80", Elem::E5M2, Prec::ExactProducts}}) {
    MatmulSpec f8 = spec(file, e, Elem::F32, prec);
    f8.aligned = true;
    addMatmul(f8, {ragged, deep});
  }
  MatmulSpec aligned = spec("matmul_fp16_aligned", Elem::F16, Elem::F32,
                            Prec::ExactProducts);
  aligned.aligned = true;
  aligned.blockM = 128;
  addMatmul(aligned, {ragged, {256, 128, 256}, {300, 200, 1000}});

  // Pipeline depths 1-4; K: no iteration, one (partial, full), two (partial,
  // full), three (the prologue of a 4-stage pipeline), many.
  for (int stages = 1; stages <= 4; ++stages) {
    MatmulSpec st = spec("", Elem::F16, Elem::F32, Prec::ExactProducts);
    st.file = "matmul_fp16_stages" + std::to_string(stages);
    st.aligned = true;
    addMatmul(st, {{97, 75, 0}, {97, 75, 1}, {97, 75, 32}, {97, 75, 50},
                   {97, 75, 64}, {97, 75, 96}, {97, 75, 1000}});
  }

  // Transposed tiles in registers.
  auto addTrans = [&](const char *file, bool ta, bool tb,
                      std::initializer_list<Shape> shapes,
                      bool aligned = false) {
    for (Shape sh : shapes) {
      std::string name = std::string(file) + "/M=" + std::to_string(sh.M) +
                         ",N=" + std::to_string(sh.N) + ",K=" + std::to_string(sh.K);
      std::string f = file;
      cases.push_back({name, false, true, [=](const Env &e) {
                         runMatmulTrans(e, name, f, ta, tb, sh.M, sh.N, sh.K,
                                        aligned);
                       }});
    }
  };
  addTrans("matmul_nt_fp16", false, true, {ragged, deep, Shape{33, 70, 0}});
  addTrans("matmul_tn_fp16", true, false, {ragged, deep, Shape{33, 70, 0}});

  // acc = tl.dot(a, b, acc) from a loaded accumulator; K = 0 gives C.
  for (Shape sh : {ragged, Shape{197, 131, 0}, deep}) {
    std::string name = "matmul_acc_fp16/M=" + std::to_string(sh.M) + ",N=" +
                       std::to_string(sh.N) + ",K=" + std::to_string(sh.K);
    cases.push_back({name, false, true, [=](const Env &e) {
                       runMatmulAcc(e, name, sh.M, sh.N, sh.K);
                     }});
  }

  // Two chained dots, one program per batch entry.
  struct Chain {
    const char *file;
    int batch, L, D;
  };
  for (Chain c : {Chain{"attention_chain_16", 37, 16, 16},
                  Chain{"attention_chain_16", 5, 13, 11},
                  Chain{"attention_chain_64", 9, 64, 64},
                  Chain{"attention_chain_64", 3, 50, 40}}) {
    std::string name = std::string(c.file) + "/B=" + std::to_string(c.batch) +
                       ",L=" + std::to_string(c.L) + ",D=" + std::to_string(c.D);
    cases.push_back({name, false, true, [=](const Env &e) {
                       runAttentionChain(e, name, c.file, c.batch, c.L, c.D);
                     }});
  }

  // Memory operations that do not feed the dot, in a pipelined loop.
  for (Shape sh : {ragged, deep, Shape{70, 70, 0}}) {
    std::string name = "matmul_aux_fp16/M=" + std::to_string(sh.M) + ",N=" +
                       std::to_string(sh.N) + ",K=" + std::to_string(sh.K);
    cases.push_back({name, false, true, [=](const Env &e) {
                       runMatmulAux(e, name, sh.M, sh.N, sh.K);
                     }});
  }

  // Triton's tutorial 03, unchanged (fp16 C, leaky_relu, 128 x 256 tiles):
  // compiled only where the file was placed (test/Frontend/Inputs/README.md).
  MatmulSpec tut = spec("matmul_tutorial03_leaky_relu", Elem::F16, Elem::F16,
                        Prec::ExactProducts);
  tut.aligned = true;
  tut.leakyRelu = true;
  tut.blockM = 128;
  tut.blockN = 256;
  addMatmul(tut, {ragged, {300, 600, 1000}});

  // mma.sync on sm_90a (--mma-version 2; f16 and bf16 take wgmma there by
  // default).
  {
    MatmulSpec s = spec("matmul_fp16_mma_sync", Elem::F16, Elem::F32,
                        Prec::ExactProducts);
    s.blockM = s.blockN = 128;
    s.aligned = true;
    addMatmul(s, {ragged, deep, {256, 256, 256}});
  }
  // wgmma (sm_90a, --mma-version 3).
  for (auto [file, in, out, bm, bn, al] :
       {std::tuple{"wgmma_fp16", Elem::F16, Elem::F32, 128, 128, false},
        {"wgmma_bf16", Elem::BF16, Elem::F32, 128, 128, false},
        {"wgmma_fp16_out_fp16", Elem::F16, Elem::F16, 128, 256, true},
        {"wgmma_fp16_k32", Elem::F16, Elem::F32, 64, 64, true},
        {"wgmma_fp16_k16", Elem::F16, Elem::F32, 64, 32, true},
        {"wgmma_fp16_wn2", Elem::F16, Elem::F32, 64, 128, true},
        // --tma-pointer-loads: the masked operand loads copied with TMA
        // through launch maps (128- and 64-byte swizzles; the partial
        // boxes at the M, N and K edges zero-filled).
        {"wgmma_fp16_tmaptr", Elem::F16, Elem::F32, 128, 128, true},
        {"wgmma_bf16_k32_tmaptr", Elem::BF16, Elem::F32, 64, 64, true}}) {
    MatmulSpec w = spec(file, in, out, Prec::ExactProducts);
    w.blockM = bm;
    w.blockN = bn;
    w.aligned = al;
    // (K = 0: an empty tensor map; the TMA kernels' guard takes the
    // masked loop.)
    addMatmul(w, {ragged, deep, {1, 1, 1}, {256, 256, 256}, {33, 70, 0}});
    if (!al) {
      // Column-major operands through the strides (same kernel).
      w.aColMajor = w.bColMajor = true;
      addMatmul(w, {ragged});
    }
  }
  // --cluster-size 2: pairs of CTAs (programs 2c, 2c + 1) multicast what
  // both copy. Grids of odd x launch without clusters ({1, 1, 1}); K = 0
  // takes the masked loop (no multicast); in the grouped order a pair
  // shares B where a group's column has an even number of rows ({197,
  // 131}, deep), straddles two columns and shares nothing where it has an
  // odd number ({300, 500}: groups of 3 rows), and shares A where the
  // group has one row ({64, 1000}; the last group of {1040, 256}).
  for (const char *file : {"wgmma_fp16_cluster2", "wgmma_bf16_cluster2_s4"}) {
    bool bf16 = std::string(file).find("bf16") != std::string::npos;
    MatmulSpec w = spec(file, bf16 ? Elem::BF16 : Elem::F16, Elem::F32,
                        Prec::ExactProducts);
    w.blockM = w.blockN = 128;
    w.aligned = true;
    addMatmul(w, {ragged, deep, {1, 1, 1}, {33, 70, 0}, {300, 500, 1000},
                  {64, 1000, 64}, {1040, 256, 100}, {256, 256, 192}});
  }
  // Column-major operands the kernel knows about (unit strides along M or
  // K): M-major A and K-major B in shared memory, the wgmma transposes.
  for (auto [file, in, bm, bc] :
       {std::tuple{"wgmma_fp16_cc", Elem::F16, 128, true},
        {"wgmma_bf16_cr", Elem::BF16, 64, false},
        // --tma-pointer-loads: both blocks column-major, so TMA reads the
        // transposed boxes (A M-major, B K-major in shared memory).
        {"wgmma_fp16_cc_tmaptr", Elem::F16, 128, true}}) {
    MatmulSpec w = spec(file, in, Elem::F32, Prec::ExactProducts);
    w.blockM = w.blockN = bm;
    w.aligned = true;
    w.aColMajor = true;
    w.bColMajor = bc;
    addMatmul(w, {ragged, deep, {256, 256, 256}});
  }
  // tf32, fp8 and int8 wgmma: K-major operands (A row-major, B
  // column-major, as the kernels' strides say).
  for (auto [file, in, out, prec, bm, bn] :
       {std::tuple{"wgmma_fp8e4nv_tn", Elem::E4M3, Elem::F32, Prec::Fp8Block128, 128, 128},
        {"wgmma_fp8e4nv_tn_tmaptr", Elem::E4M3, Elem::F32, Prec::Fp8Block128, 128, 128},
        {"wgmma_fp8e5_tn", Elem::E5M2, Elem::F32, Prec::Fp8, 64, 64},
        {"wgmma_fp8e4nv_k32_tn", Elem::E4M3, Elem::F16, Prec::Fp8, 64, 128},
        {"wgmma_int8_tn", Elem::I8, Elem::I32, Prec::Exact, 64, 128},
        {"wgmma_tf32_tn", Elem::F32, Elem::F32, Prec::Tf32, 128, 128},
        {"wgmma_tf32_k16_tn", Elem::F32, Elem::F32, Prec::Tf32, 64, 64},
        {"wgmma_tf32x3_tn", Elem::F32, Elem::F32, Prec::Tf32x3, 64, 64}}) {
    MatmulSpec w = spec(file, in, out, prec);
    w.blockM = bm;
    w.blockN = bn;
    w.aligned = true;
    w.bColMajor = true;
    addMatmul(w, {ragged, deep, {1, 1, 1}, {256, 256, 256}});
  }
  // GEMM + GELU in one kernel (the benchmark's tiles and a small config).
  for (auto [file, in, bm, bn, al] :
       {std::tuple{"wgmma_fp16_gelu", Elem::F16, 128, 128, false},
        {"bench_wgmma_fp16_gelu_i32_16", Elem::F16, 128, 256, true},
        {"bench_wgmma_bf16_gelu_i32_16", Elem::BF16, 128, 256, true},
        {"bench_wgmma_tmaptr_fp16_gelu_i32_16", Elem::F16, 128, 256, true},
        {"bench_wgmma_tmaptr_bf16_gelu_i32_16", Elem::BF16, 128, 256, true}}) {
    MatmulSpec g = spec(file, in, in, Prec::ExactProducts);
    g.blockM = bm;
    g.blockN = bn;
    g.aligned = al;
    g.gelu = true;
    addMatmul(g, al ? std::initializer_list<Shape>{{400, 528, 272}}
                    : std::initializer_list<Shape>{ragged, deep});
  }
  {
    // ... and with TMA copies of the masked operand loads, ragged.
    MatmulSpec g = spec("wgmma_fp16_gelu_tmaptr", Elem::F16, Elem::F16,
                        Prec::ExactProducts);
    g.blockM = g.blockN = 128;
    g.aligned = true;
    g.gelu = true;
    // (Not 1x1x1: one GELU near zero has no meaningful normwise error.)
    addMatmul(g, {ragged, deep, {136, 200, 72}});
  }
  // Fused epilogues (matmul_epilogue_kernel): per-tensor scales, a bias per
  // column, an activation and a residual after the accumulator, on wgmma
  // (ragged and aligned strides, fp16, bf16 and fp8 with its scales) and
  // on mma.sync.
  for (auto [file, in, out, prec, act, bm, bn, al, tn] :
       {std::tuple{"epilogue_fp16_relu", Elem::F16, Elem::F16,
                   Prec::ExactProducts, "relu", 64, 128, false, false},
        {"epilogue_fp16_gelu_tanh", Elem::F16, Elem::F16, Prec::ExactProducts,
         "gelu_tanh", 128, 128, true, false},
        {"epilogue_bf16_silu", Elem::BF16, Elem::BF16, Prec::ExactProducts,
         "silu", 64, 128, false, false},
        {"epilogue_bf16_gelu_mma_sync", Elem::BF16, Elem::BF16,
         Prec::ExactProducts, "gelu", 64, 64, false, false},
        {"epilogue_fp8e4nv_scaled", Elem::E4M3, Elem::F16, Prec::Fp8Block128,
         "none", 128, 128, true, true}}) {
    MatmulSpec e = spec(file, in, out, prec);
    e.kernel = "matmul_epilogue_kernel";
    e.epilogue = act;
    e.blockM = bm;
    e.blockN = bn;
    e.aligned = al;
    e.bColMajor = tn;
    addMatmul(e, {ragged, deep, {1, 1, 1}});
  }
  // Tutorial 08's grouped GEMM: addresses loaded from memory and cast to
  // pointers, ragged groups (one of a single element), more tiles than
  // programs.
  for (auto [file, programs] : {std::pair{"grouped_matmul_fp16", 5u},
                                {"grouped_matmul_fp16_128", 3u}}) {
    std::string name = std::string(file) + "/groups 197x131x173, 64x64x64, "
                       "1x1x1, 130x67x300";
    cases.push_back({name, false, true, [=](const Env &e) {
                       runGroupedMatmul(e, name, file,
                                        {{197, 131, 173},
                                         {64, 64, 64},
                                         {1, 1, 1},
                                         {130, 67, 300}},
                                        programs);
                     }});
  }
  // Tutorial 09's persistent matmul on device-side tensor descriptors
  // (row-major operands; partial tiles through the descriptors' zero fill
  // and clipping): one program per tile, and a few programs looping over
  // many tiles.
  for (auto [file, in, out, bm, bn, gelu] :
       {std::tuple{"matmul_desc_fp16", Elem::F16, Elem::F16, 128, 128, false},
        {"matmul_desc_bf16_mma_sync", Elem::BF16, Elem::F32, 64, 64, false},
        {"matmul_desc_fp16_gelu", Elem::F16, Elem::F16, 128, 128, true}}) {
    MatmulSpec d = spec(file, in, out, Prec::ExactProducts);
    d.kernel = "matmul_desc_kernel";
    d.blockM = bm;
    d.blockN = bn;
    d.gelu = gelu;
    d.aligned = true;
    addMatmul(d, {ragged, deep, {1, 1, 1}, {256, 256, 256}});
    d.maxPrograms = 3;
    addMatmul(d, {ragged, {700, 520, 130}});
  }
  // Tutorial 09's TMA matmuls on host-side descriptors (B given as N x K):
  // one tile per program, and persistent (few programs, many tiles; the
  // bf16 one stores each tile in two halves through tl.split).
  for (auto [file, kernel, in, out, bm, bn, persistent] :
       {std::tuple{"matmul_tma_fp16", "matmul_tma_kernel", Elem::F16,
                   Elem::F16, 128, 128, false},
        {"matmul_tma_persistent_bf16", "matmul_tma_persistent_kernel",
         Elem::BF16, Elem::BF16, 128, 256, true},
        {"matmul_tma_persistent_fp16_f32", "matmul_tma_persistent_kernel",
         Elem::F16, Elem::F32, 64, 64, true},
        // The same kernels copying with TMA (--tma): CUtensorMaps encoded
        // at launch, mbarrier pipelines, out-of-bounds boxes zero-filled.
        {"matmul_tma_fp16_tma", "matmul_tma_kernel", Elem::F16, Elem::F16,
         128, 128, false},
        {"matmul_tma_persistent_bf16_tma", "matmul_tma_persistent_kernel",
         Elem::BF16, Elem::BF16, 128, 256, true},
        {"matmul_tma_persistent_fp16_f32_tma", "matmul_tma_persistent_kernel",
         Elem::F16, Elem::F32, 64, 64, true},
        // Warp-specialized: a producer warp issues the copies.
        {"matmul_tma_fp16_ws", "matmul_tma_kernel", Elem::F16, Elem::F16, 128,
         128, false},
        {"matmul_tma_persistent_fp16_f32_ws", "matmul_tma_persistent_kernel",
         Elem::F16, Elem::F32, 64, 64, true},
        {"matmul_tma_persistent_bf16_ws", "matmul_tma_persistent_kernel",
         Elem::BF16, Elem::BF16, 128, 256, true},
        // Ping-pong: two consumer groups take turns over a program's tiles
        // (a program with one tile leaves the second group idle).
        {"matmul_tma_persistent_fp16_f32_pp", "matmul_tma_persistent_kernel",
         Elem::F16, Elem::F32, 64, 64, true},
        {"matmul_tma_persistent_bf16_pp", "matmul_tma_persistent_kernel",
         Elem::BF16, Elem::BF16, 128, 128, true},
        {"matmul_tma_persistent_fp16_pp_sub", "matmul_tma_persistent_kernel",
         Elem::F16, Elem::F16, 64, 128, true}}) {
    MatmulSpec d = spec(file, in, out, Prec::ExactProducts);
    d.kernel = kernel;
    d.blockM = bm;
    d.blockN = bn;
    d.aligned = true;
    d.bColMajor = true;
    d.hostDesc = true;
    // N = 200: rows of whole 16-byte chunks that end inside a block (the
    // TMA store clips there, at a chunk boundary).
    addMatmul(d, {ragged, deep, {1, 1, 1}, {256, 256, 256}, {136, 200, 72}});
    if (persistent) {
      // Few programs looping over many tiles; with one K step per tile
      // (K <= BLOCK_K) the flattened loop's first and last step coincide.
      d.maxPrograms = 3;
      addMatmul(d, {ragged, {700, 520, 130}, {300, 1030, 64}, {260, 700, 9}});
      // Ping-pong: odd and even numbers of tiles per program, one K step
      // (K < BLOCK_K). (No K = 0: a host descriptor of an empty tensor is
      // refused at launch, docs/runtime.md.)
      if (std::string(file).find("_pp") != std::string::npos) {
        d.maxPrograms = 2;
        addMatmul(d, {Shape{1000, 900, 300}, Shape{640, 512, 1100},
                      Shape{390, 260, 20}});
      }
    }
  }
  // The host-descriptor benchmark's own PTX (bench_desc_gemm.py --host
  // [--tma]): persistent, 4 programs for 8 tiles, the epilogue's buffer
  // reusing the operands' shared memory.
  auto hostDescBench = [&](const char *file, Elem e) {
    MatmulSpec d = spec(file, e, e, Prec::ExactProducts);
    d.kernel = "matmul_tma_persistent_kernel";
    d.blockM = 128;
    d.blockN = 256;
    d.aligned = true;
    d.bColMajor = true;
    d.hostDesc = true;
    d.maxPrograms = 4;
    return d;
  };
  for (auto [file, e] : {std::pair{"bench_host_desc_fp16", Elem::F16},
                         {"bench_host_desc_tma_fp16", Elem::F16},
                         {"bench_host_desc_tma_bf16", Elem::BF16},
                         {"bench_host_desc_ws_fp16", Elem::F16},
                         {"bench_host_desc_ws_bf16", Elem::BF16}})
    addMatmul(hostDescBench(file, e),
              {Shape{400, 528, 1024}, Shape{528, 1104, 64}});
  // ... and its plain-i32 variants for untuned shapes (--untuned).
  for (const char *file :
       {"bench_host_desc_tma_fp16_i32", "bench_host_desc_ws_fp16_i32"})
    addMatmul(hostDescBench(file, Elem::F16),
              {Shape{411, 531, 203}, Shape{16, 300, 520}});
  // Ping-pong with a constant K trip count (K_TILES = 4: K = 256), few
  // programs over many tiles.
  {
    MatmulSpec d =
        hostDescBench("matmul_tma_persistent_bf16_pp_k4", Elem::BF16);
    d.blockN = 128;
    d.maxPrograms = 3;
    addMatmul(d, {Shape{1000, 900, 256}, Shape{256, 200, 256},
                  Shape{130, 67, 256}});
  }
  // ... ping-pong, 128x128 tiles per consumer group.
  for (auto [file, e] : {std::pair{"bench_host_desc_pp_fp16", Elem::F16},
                         {"bench_host_desc_pp_bf16", Elem::BF16},
                         {"bench_host_desc_pp_fp16_i32", Elem::F16},
                         {"bench_host_desc_pp_bf16_i32", Elem::BF16},
                         {"bench_host_desc_pp_128x128x128_fp16", Elem::F16},
                         {"bench_host_desc_pp_128x128x128_bf16", Elem::BF16},
                         {"bench_host_desc_pp_64x256_fp16", Elem::F16},
                         {"bench_host_desc_pp_64x256_bf16", Elem::BF16}}) {
    MatmulSpec d = hostDescBench(file, e);
    bool wide = std::string(file).find("64x256") != std::string::npos;
    d.blockM = wide ? 64 : 128;
    d.blockN = wide ? 256 : 128;
    bool plain = std::string(file).find("_i32") != std::string::npos;
    if (plain)
      addMatmul(d, {Shape{411, 531, 203}, Shape{16, 300, 520}});
    else
      addMatmul(d, {Shape{400, 528, 1024}, Shape{528, 1104, 64}});
  }
  // The descriptor benchmark's own PTX (bench/bench_desc_gemm.py).
  for (auto [file, e, gelu] :
       {std::tuple{"bench_desc_fp16_i32_16", Elem::F16, false},
        {"bench_desc_bf16_i32_16", Elem::BF16, false},
        {"bench_desc_fp16_gelu_i32_16", Elem::F16, true},
        {"bench_desc_bf16_gelu_i32_16", Elem::BF16, true},
        {"bench_desc_fp16_gelu_flat_i32_16", Elem::F16, true},
        {"bench_desc_bf16_gelu_flat_i32_16", Elem::BF16, true},
        {"bench_desc_fp16_pp_i32_16", Elem::F16, false},
        {"bench_desc_bf16_pp_i32_16", Elem::BF16, false},
        {"bench_desc_fp16_gelu_pp_i32_16", Elem::F16, true},
        {"bench_desc_bf16_gelu_pp_i32_16", Elem::BF16, true},
        {"bench_desc_fp16_gelu_pp_64x256_i32_16", Elem::F16, true},
        {"bench_desc_bf16_gelu_pp_64x256_i32_16", Elem::BF16, true}}) {
    MatmulSpec d = spec(file, e, e, Prec::ExactProducts);
    d.kernel = "matmul_desc_kernel";
    d.gelu = gelu;
    bool pp = std::string(file).find("_pp") != std::string::npos;
    bool wide = std::string(file).find("64x256") != std::string::npos;
    d.blockM = wide ? 64 : 128;
    d.blockN = pp && !wide ? 128 : 256;
    d.aligned = true;
    d.maxPrograms = 4;
    addMatmul(d, {Shape{400, 528, 272}});
  }
  addTrans("wgmma_nt_fp16", false, true, {ragged, deep});
  addTrans("wgmma_tn_fp16", true, false, {ragged, deep});
  // --tma-pointer-loads: the stored tiles (B^T [N, K], A^T [K, M]) copied
  // with TMA, transposed by tl.trans / .T on their way to the wgmma.
  addTrans("wgmma_nt_fp16_tmaptr", false, true, {ragged, deep}, true);
  addTrans("wgmma_tn_fp16_tmaptr", true, false, {ragged, deep}, true);

  // The benchmark's own PTX (bench/bench_gemm.py), on small shapes: sizes
  // divisible by 16 for the i32:16 signatures.
  for (auto [file, e] : {std::pair{"bench_matmul_fp16_i32_16", Elem::F16},
                         {"bench_matmul_bf16_i32_16", Elem::BF16},
                         {"bench_wgmma_fp16_i32_16", Elem::F16},
                         {"bench_wgmma_bf16_i32_16", Elem::BF16},
                         {"bench_wgmma_tmaptr_fp16_i32_16", Elem::F16},
                         {"bench_wgmma_tmaptr_bf16_i32_16", Elem::BF16},
                         {"bench_wgmma_tmaptr_cluster2_fp16_i32_16", Elem::F16},
                         {"bench_wgmma_tmaptr_cluster2_bf16_i32_16", Elem::BF16},
                         {"bench_matmul_fp16_i32", Elem::F16},
                         {"bench_matmul_bf16_i32", Elem::BF16}}) {
    MatmulSpec b = spec(file, e, e, Prec::ExactProducts);
    b.blockM = 128;
    b.blockN = 256;
    bool sixteen = std::string(file).find("i32_16") != std::string::npos;
    b.aligned = sixteen;
    addMatmul(b, {sixteen ? Shape{400, 528, 272} : ragged});
    // The cluster kernels: pairs sharing B, an odd grid (no clusters),
    // pairs straddling two columns, pairs sharing A, and all of them in
    // one grid (see above).
    if (std::string(file).find("cluster2") != std::string::npos)
      addMatmul(b, {Shape{384, 768, 128}, {384, 1024, 64}, {128, 1024, 192},
                    {1040, 512, 512}});
  }
  MatmulSpec f8 = spec("bench_wgmma_fp8e4nv_tn", Elem::E4M3, Elem::F16,
                       Prec::Fp8Block128);
  f8.blockM = 128;
  f8.blockN = 128;
  f8.aligned = true;
  f8.bColMajor = true;
  addMatmul(f8, {Shape{400, 528, 272}});
  // Its TMA loop adds each dot's sum under the next dot, unrolled by two
  // (tile-pipeline's deferred accumulation): 1, 2, 3 and 8 K tiles.
  f8.file = "bench_wgmma_tmaptr_fp8e4nv_tn";
  addMatmul(f8, {Shape{400, 528, 272}, {144, 128, 128}, {208, 272, 256},
                 {128, 256, 1024}});
  f8.file = "bench_wgmma_fp8e4nv_tn_i32";
  f8.aligned = false;
  addMatmul(f8, {ragged});
}
