//===- GraphTests.cpp - Operator graphs, fused and unfused ------*- C++ -*-===//
//
// The graphs of test/GPU/kernels/graph_*.mlir, compiled twice (fused, the
// default, and with --fuse-kernels=false as graph_*_unfused), run through
// GraphProgram against CPU references on random inputs at ragged sizes:
//  - graph_epilogue: a kernel writes 2x (f16), maps add a row-broadcast
//    bias, apply ReLU and widen to f32 (fused: all at the kernel's store);
//  - graph_maps: y = (x + r) * g[col] * s[row] * alpha in f32 (fused: one
//    map kernel for the chain; the dead map gone);
//  - graph_prologue: row sums of alpha * x (fused: the map at the kernel's
//    loads, masked with `other` = 1).
// Each elementwise result is exact (the operations round as the reference
// does: doubling and a sum of two halves are exact in f32, one rounding to
// f16; no multiply feeds an add, so nothing contracts into fma); the row
// sums are compared with a float64 reference within the f32 summation bound
// and fused against unfused bit for bit. Outputs are poisoned and a guard
// past their end must keep the poison. Also: 1000 replays as a CUDA Graph
// with new scalars and buffers each time (checked each time; one
// instantiation per shape, node updates otherwise), and the run-time
// refusals (a map's size contract, overlapping buffers). The example
// graphs (examples/graphs/) likewise, including layer norm and group norm
// + Mish written as row reductions and maps (row groups).
//
//===----------------------------------------------------------------------===//

#include "GpuTestUtils.h"

#include "tilec/GraphProgram.h"

#include <array>
#include <fstream>
#include <sstream>

using namespace tilec;
using namespace tilec::gputest;

namespace {

constexpr size_t kGuard = 256;

/// Loads `<kernelDir>/<file>.ptx` (or `.cu`) as a graph program.
GraphProgram loadGraph(const Env &env, const std::string &file) {
  GraphProgram program;
  check(GraphProgram::loadPTX(env.context, env.kernelText(file), "", program));
  return program;
}

/// `n` f16 values: the generator's values (|v| in [1/16, 4]) times `scale`.
std::vector<uint16_t> randomHalves(Rng &rng, size_t n, float scale) {
  std::vector<uint16_t> v(n);
  for (uint16_t &e : v)
    e = floatToHalf(rng.value() * scale);
  return v;
}

/// Fails the case unless |found - want| <= tol; `what` names the element.
void expectNear(const std::string &what, double want, double tol,
                double found) {
  if (!(std::fabs(found - want) <= tol))
    failCase(what + ": expected " + std::to_string(want) + " within " +
             std::to_string(tol) + ", found " + std::to_string(found));
}

/// f16 values as doubles.
std::vector<double> halvesToDoubles(const std::vector<uint16_t> &v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = halfToFloat(v[i]);
  return out;
}

/// f16 rounding of a float (round to nearest even).
float roundHalf(float f) { return halfToFloat(floatToHalf(f)); }

void runEpilogue(const Env &env, const std::string &file, int64_t rows,
                 const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  size_t n = size_t(rows) * 64;
  std::vector<uint16_t> x(n), bias(64);
  // Values in [-4, 4]: doubling stays exact in f16; the sums round.
  for (uint16_t &v : x)
    v = floatToHalf(rng.value());
  for (uint16_t &v : bias)
    v = floatToHalf(rng.value());
  DeviceBuffer dx(n * 2), db(64 * 2), dy((n + kGuard) * 4);
  dx.upload(x);
  db.upload(bias);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {rows, 64}),
                     GraphArg::buffer(db.get(), {64}),
                     GraphArg::buffer(dy.get(), {rows, 64})},
                    nullptr));
  env.sync();
  std::vector<uint32_t> y = dy.download<uint32_t>(n + kGuard);
  for (size_t i = 0; i < n; ++i) {
    float twice = roundHalf(2.0f * halfToFloat(x[i]));
    float sum = roundHalf(twice + halfToFloat(bias[i % 64]));
    float want = sum > 0.0f ? sum : 0.0f;
    // ReLU of -0 may keep the sign (maximumf(-0, 0) is +0 in both).
    if (y[i] != floatBits(want))
      failCase(file + ": element " + std::to_string(i) + " (row " +
               std::to_string(i / 64) + "): expected " +
               describe(floatBits(want)) + ", found " + describe(y[i]));
  }
  expectUntouched(y, n, n + kGuard, "guard element");
}

struct MapsInputs {
  std::vector<float> x, r, g, s;
};

MapsInputs mapsInputs(Rng &rng, int64_t rows) {
  MapsInputs in;
  size_t n = size_t(rows) * 256;
  in.x = randomFloats(rng, n);
  in.r = randomFloats(rng, n);
  in.g = randomFloats(rng, 256);
  in.s = randomFloats(rng, size_t(rows));
  return in;
}

uint32_t mapsReference(const MapsInputs &in, size_t i, float alpha) {
  float t = in.x[i] + in.r[i];
  float p = t * in.g[i % 256];
  float q = p * in.s[i / 256];
  return floatBits(q * alpha);
}

void runMaps(const Env &env, const std::string &file, int64_t rows,
             const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  MapsInputs in = mapsInputs(rng, rows);
  size_t n = size_t(rows) * 256;
  float alpha = 0.75f;
  DeviceBuffer dx(n * 4), dr(n * 4), dg(256 * 4), ds(size_t(rows) * 4 + 4),
      dy((n + kGuard) * 4);
  dx.upload(in.x);
  dr.upload(in.r);
  dg.upload(in.g);
  ds.upload(in.s);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {rows, 256}),
                     GraphArg::buffer(dr.get(), {rows, 256}),
                     GraphArg::buffer(dg.get(), {256}),
                     GraphArg::buffer(ds.get(), {rows, 1}),
                     GraphArg::buffer(dy.get(), {rows, 256}),
                     GraphArg::scalar(Arg::f32(alpha))},
                    nullptr));
  env.sync();
  std::vector<uint32_t> y = dy.download<uint32_t>(n + kGuard);
  for (size_t i = 0; i < n; ++i)
    if (y[i] != mapsReference(in, i, alpha))
      failCase(file + ": element " + std::to_string(i) + ": expected " +
               describe(mapsReference(in, i, alpha)) + ", found " +
               describe(y[i]));
  expectUntouched(y, n, n + kGuard, "guard element");
}

/// Row sums of alpha * x through `file`; returns the sums' bits.
std::vector<uint32_t> runPrologue(const Env &env, const std::string &file,
                                  int64_t rows, int64_t cols,
                                  const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  size_t n = size_t(rows * cols);
  std::vector<float> x = randomFloats(rng, n);
  float alpha = -1.25f;
  DeviceBuffer dx(n * 4 + 4), dsum((size_t(rows) + kGuard) * 4);
  dx.upload(x);
  dsum.poison();
  check(program.run({GraphArg::buffer(dx.get(), {rows, cols}),
                     GraphArg::buffer(dsum.get(), {rows}),
                     GraphArg::scalar(Arg::f32(alpha))},
                    nullptr));
  env.sync();
  std::vector<uint32_t> sums = dsum.download<uint32_t>(size_t(rows) + kGuard);
  for (int64_t i = 0; i < rows; ++i) {
    // The kernel's masked-off lanes load `other` = 1 and add it: each row
    // also sums one 1 per lane past its end in the last block of 128.
    double pad = double((cols + 127) / 128 * 128 - cols);
    double want = pad, magnitude = pad;
    for (int64_t j = 0; j < cols; ++j) {
      double term = double(alpha * x[size_t(i * cols + j)]);
      want += term;
      magnitude += std::fabs(term);
    }
    // f32 sums of cols terms (128 lanes, then a tree): each partial sum
    // rounds at most cols + 8 times.
    double bound = double(cols + 8) * std::ldexp(1.0, -24) * magnitude + 1e-30;
    double found = bitsFloat(sums[size_t(i)]);
    if (!(std::fabs(found - want) <= bound))
      failCase(file + ": row " + std::to_string(i) + ": expected " +
               std::to_string(want) + " within " + std::to_string(bound) +
               ", found " + describe(sums[size_t(i)]));
  }
  expectUntouched(sums, size_t(rows), size_t(rows) + kGuard, "guard element");
  sums.resize(size_t(rows));
  return sums;
}

/// examples/graphs/linear_gelu.mlir: Y = gelu(f16(X W^T + b)) at M x N x K
/// (multiples of 16, as the kernel's facts require; N not a multiple of the
/// 256-wide tile). Returns Y's bits; checks it against a float64 reference
/// within 4 f16 ulps (the fp32 sums, the f16 rounding of the intermediate,
/// libdevice's erf: each a fraction of that).
std::vector<uint16_t> runLinearGelu(const Env &env, const std::string &file,
                                    int64_t M, int64_t N, int64_t K,
                                    const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  // Weights scaled so that the pre-activations are about 1.
  std::vector<uint16_t> x = randomHalves(rng, size_t(M * K), 0.25f),
                        w = randomHalves(rng, size_t(N * K),
                                         float(1 / std::sqrt(double(K)))),
                        b = randomHalves(rng, size_t(N), 0.25f);
  DeviceBuffer dx(x.size() * 2), dw(w.size() * 2), db(b.size() * 2),
      dy((size_t(M * N) + kGuard) * 2);
  dx.upload(x);
  dw.upload(w);
  db.upload(b);
  dy.poison();
  check(program.run(
      {GraphArg::buffer(dx.get(), {M, K}), GraphArg::buffer(dw.get(), {N, K}),
       GraphArg::buffer(db.get(), {N}), GraphArg::buffer(dy.get(), {M, N})},
      nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(size_t(M * N) + kGuard);
  for (size_t i = size_t(M * N); i < y.size(); ++i)
    if (y[i] != 0xFFFF)
      failCase(file + ": guard element " + std::to_string(i) + " was written");
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double z = halfToFloat(b[size_t(n)]), magnitude = 0;
      for (int64_t k = 0; k < K; ++k) {
        double term = double(halfToFloat(x[size_t(m * K + k)])) *
                      double(halfToFloat(w[size_t(n * K + k)]));
        z += term;
        magnitude += std::fabs(term);
      }
      double h = halfToFloat(floatToHalf(float(z)));
      double want = 0.5 * h * (1.0 + std::erf(h * 0.7071067811865476));
      double found = halfToFloat(y[size_t(m * N + n)]);
      // The tensor cores' f32 accumulation (within 2^-15 of the terms'
      // size), which can move the f16 rounding of z by an ulp; GELU's
      // slope is below 1.2.
      double zError = std::ldexp(1.0, -15) * magnitude +
                      std::ldexp(1.0, -11) * std::fabs(h);
      double tol = 4 * std::ldexp(1.0, -11) * std::fabs(want) + 1.2 * zError +
                   std::ldexp(1.0, -20);
      expectNear(file + ": Y[" + std::to_string(m) + ", " + std::to_string(n) +
                     "]",
                 want, tol, found);
    }
  y.resize(size_t(M * N));
  return y;
}

/// graph_scaled_linear: Y = f16(X s) W^T + b (the scale fused into the
/// GEMM's K-loop loads). Returns Y's bits; checks against float64 within 4
/// f16 ulps plus the fp32 sum's rounding.
std::vector<uint16_t> runScaledLinear(const Env &env, const std::string &file,
                                      int64_t M, int64_t N, int64_t K,
                                      const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  auto fill = [&](size_t n, float scale) {
    return randomHalves(rng, n, scale);
  };
  std::vector<uint16_t> x = fill(size_t(M * K), 0.25f),
                        w = fill(size_t(N * K), float(1 / std::sqrt(double(K)))),
                        b = fill(size_t(N), 0.25f);
  uint16_t s = floatToHalf(-1.5f);
  DeviceBuffer dx(x.size() * 2), dw(w.size() * 2), db(b.size() * 2),
      dy(size_t(M * N) * 2);
  dx.upload(x);
  dw.upload(w);
  db.upload(b);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {M, K}),
                     GraphArg::buffer(dw.get(), {N, K}),
                     GraphArg::buffer(db.get(), {N}),
                     GraphArg::buffer(dy.get(), {M, N}),
                     GraphArg::scalar(Arg::f16bits(s))},
                    nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(size_t(M * N));
  auto h = [](uint16_t v) { return double(halfToFloat(v)); };
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double want = h(b[size_t(n)]), mag = std::fabs(want);
      for (int64_t k = 0; k < K; ++k) {
        double xs = halfToFloat(
            floatToHalf(float(h(x[size_t(m * K + k)]) * h(s))));
        want += xs * h(w[size_t(n * K + k)]);
        mag += std::fabs(xs * h(w[size_t(n * K + k)]));
      }
      double found = h(y[size_t(m * N + n)]);
      double tol = 4 * std::ldexp(1.0, -11) * std::fabs(want) +
                   double(K + 2) * std::ldexp(1.0, -23) * mag +
                   std::ldexp(1.0, -20);
      expectNear(file + ": Y[" + std::to_string(m) + ", " + std::to_string(n) +
                     "]",
                 want, tol, found);
    }
  return y;
}

/// examples/graphs/mlp.mlir: Y = gelu(X W1^T + b1) W2^T + b2, fp16, the
/// intermediate rounded to fp16 before and after the GELU (what the graph
/// says). Returns Y's bits; checks against float64 with the same roundings
/// within 4 f16 ulps plus one f16 ulp of each intermediate times |w2|.
std::vector<uint16_t> runMlp(const Env &env, const std::string &file,
                             int64_t M, int64_t K, int64_t H, int64_t N,
                             const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  auto fill = [&](size_t n, float scale) {
    return randomHalves(rng, n, scale);
  };
  std::vector<uint16_t> x = fill(size_t(M * K), 0.25f),
                        w1 = fill(size_t(H * K), float(1 / std::sqrt(double(K)))),
                        b1 = fill(size_t(H), 0.25f),
                        w2 = fill(size_t(N * H), float(1 / std::sqrt(double(H)))),
                        b2 = fill(size_t(N), 0.25f);
  DeviceBuffer dx(x.size() * 2), dw1(w1.size() * 2), db1(b1.size() * 2),
      dw2(w2.size() * 2), db2(b2.size() * 2), dy(size_t(M * N) * 2);
  dx.upload(x);
  dw1.upload(w1);
  db1.upload(b1);
  dw2.upload(w2);
  db2.upload(b2);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {M, K}),
                     GraphArg::buffer(dw1.get(), {H, K}),
                     GraphArg::buffer(db1.get(), {H}),
                     GraphArg::buffer(dw2.get(), {N, H}),
                     GraphArg::buffer(db2.get(), {N}),
                     GraphArg::buffer(dy.get(), {M, N})},
                    nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(size_t(M * N));
  auto h = [](uint16_t v) { return double(halfToFloat(v)); };
  std::vector<double> a(static_cast<size_t>(H));
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t j = 0; j < H; ++j) {
      double z = h(b1[size_t(j)]);
      for (int64_t k = 0; k < K; ++k)
        z += h(x[size_t(m * K + k)]) * h(w1[size_t(j * K + k)]);
      double zr = halfToFloat(floatToHalf(float(z)));
      a[size_t(j)] = halfToFloat(floatToHalf(
          float(0.5 * zr * (1.0 + std::erf(zr * 0.7071067811865476)))));
    }
    for (int64_t n = 0; n < N; ++n) {
      double want = h(b2[size_t(n)]), slack = 0;
      for (int64_t j = 0; j < H; ++j) {
        want += a[size_t(j)] * h(w2[size_t(n * H + j)]);
        slack += (std::fabs(a[size_t(j)]) * std::ldexp(1.0, -10) +
                  std::ldexp(1.0, -24)) *
                 std::fabs(h(w2[size_t(n * H + j)]));
      }
      double found = h(y[size_t(m * N + n)]);
      double tol = 4 * std::ldexp(1.0, -11) * std::fabs(want) + 2 * slack +
                   std::ldexp(1.0, -20);
      expectNear(file + ": Y[" + std::to_string(m) + ", " +
                     std::to_string(n) + "]",
                 want, tol, found);
    }
  }
  return y;
}

/// examples/graphs/residual_layer_norm.mlir: Y = layer_norm(X + R) over rows
/// of N f32 (N a multiple of 16). Returns Y's bits; checks Y, the mean and
/// 1/std against float64 (relative 2^-17, the f32 sums over N elements).
std::vector<uint32_t> runResidualLayerNorm(const Env &env,
                                           const std::string &file,
                                           int64_t M, int64_t N,
                                           const std::string &name) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  std::vector<float> x = randomFloats(rng, size_t(M * N)),
                     r = randomFloats(rng, size_t(M * N)),
                     w = randomFloats(rng, size_t(N)),
                     b = randomFloats(rng, size_t(N));
  DeviceBuffer dx(x.size() * 4), dr(r.size() * 4), dw(w.size() * 4),
      db(b.size() * 4), dy(x.size() * 4), dmean(size_t(M) * 4),
      drstd(size_t(M) * 4);
  dx.upload(x);
  dr.upload(r);
  dw.upload(w);
  db.upload(b);
  dy.poison();
  float eps = 1e-5f;
  check(program.run({GraphArg::buffer(dx.get(), {M, N}),
                     GraphArg::buffer(dr.get(), {M, N}),
                     GraphArg::buffer(dw.get(), {N}),
                     GraphArg::buffer(db.get(), {N}),
                     GraphArg::buffer(dy.get(), {M, N}),
                     GraphArg::buffer(dmean.get(), {M, 1}),
                     GraphArg::buffer(drstd.get(), {M, 1}),
                     GraphArg::scalar(Arg::f32(eps))},
                    nullptr));
  env.sync();
  std::vector<uint32_t> y = dy.download<uint32_t>(x.size());
  std::vector<float> mean = dmean.download<float>(size_t(M));
  for (int64_t m = 0; m < M; ++m) {
    double mu = 0, var = 0;
    for (int64_t n = 0; n < N; ++n)
      mu += double(x[size_t(m * N + n)] + r[size_t(m * N + n)]);
    mu /= double(N);
    for (int64_t n = 0; n < N; ++n) {
      double d = double(x[size_t(m * N + n)] + r[size_t(m * N + n)]) - mu;
      var += d * d;
    }
    double rstd = 1 / std::sqrt(var / double(N) + double(eps));
    if (!(std::fabs(mean[size_t(m)] - mu) <= 1e-4 * (1 + std::fabs(mu))))
      failCase(file + ": mean of row " + std::to_string(m) + ": expected " +
               std::to_string(mu) + ", found " +
               std::to_string(mean[size_t(m)]));
    for (int64_t n = 0; n < N; ++n) {
      double s = double(x[size_t(m * N + n)] + r[size_t(m * N + n)]);
      double want = (s - mu) * rstd * w[size_t(n)] + b[size_t(n)];
      double found = bitsFloat(y[size_t(m * N + n)]);
      if (!(std::fabs(found - want) <=
            std::ldexp(1.0, -17) * (std::fabs(want) + 4 * std::fabs(w[size_t(n)]))))
        failCase(file + ": Y[" + std::to_string(m) + ", " +
                 std::to_string(n) + "]: expected " + std::to_string(want) +
                 ", found " + describe(y[size_t(m * N + n)]));
    }
  }
  return y;
}

/// examples/graphs/layer_norm.mlir (layer norm as graph ops: row
/// reductions and maps) over M rows of 768 f16. Returns Y's bits; checks
/// them against float64: the f32 statistics and one f16 rounding of the
/// output, within 2^-10 of the terms' size.
std::vector<uint16_t> runLayerNormOps(const Env &env, const std::string &file,
                                      int64_t M, const std::string &name) {
  constexpr int64_t N = 768;
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  std::vector<uint16_t> x = randomHalves(rng, size_t(M * N), 1.0f),
                        w = randomHalves(rng, N, 0.5f),
                        b = randomHalves(rng, N, 0.5f);
  DeviceBuffer dx(x.size() * 2), dw(N * 2), db(N * 2),
      dy((x.size() + kGuard) * 2);
  dx.upload(x);
  dw.upload(w);
  db.upload(b);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {M, N}),
                     GraphArg::buffer(dw.get(), {N}),
                     GraphArg::buffer(db.get(), {N}),
                     GraphArg::buffer(dy.get(), {M, N})},
                    nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(x.size() + kGuard);
  auto h = [](uint16_t v) { return double(halfToFloat(v)); };
  for (int64_t m = 0; m < M; ++m) {
    double mu = 0, var = 0;
    for (int64_t n = 0; n < N; ++n)
      mu += h(x[size_t(m * N + n)]);
    mu /= double(N);
    for (int64_t n = 0; n < N; ++n)
      var += (h(x[size_t(m * N + n)]) - mu) * (h(x[size_t(m * N + n)]) - mu);
    double rstd = 1 / std::sqrt(var / double(N) + 1e-5);
    for (int64_t n = 0; n < N; ++n) {
      double scaled = (h(x[size_t(m * N + n)]) - mu) * rstd * h(w[size_t(n)]);
      double want = scaled + h(b[size_t(n)]);
      double found = h(y[size_t(m * N + n)]);
      double tol = std::ldexp(1.0, -10) *
                       (std::fabs(scaled) + std::fabs(h(b[size_t(n)]))) +
                   std::ldexp(1.0, -14);
      expectNear(file + ": Y[" + std::to_string(m) + ", " +
                     std::to_string(n) + "]",
                 want, tol, found);
    }
  }
  expectUntouched(y, x.size(), x.size() + kGuard, "guard element");
  y.resize(x.size());
  return y;
}

/// group_norm(x) * gamma + beta over x [S, G groups, Cg channels, HW]
/// (8 x 4 unless given) in float64 (eps 1e-5): per element the affine value
/// `a` and `gain`, rstd * |gamma| (how much an error in x moves a).
struct GroupNormed {
  std::vector<double> a, gain;
};
GroupNormed groupNormReference(const std::vector<double> &x, int64_t S,
                               int64_t HW, const std::vector<uint16_t> &gamma,
                               const std::vector<uint16_t> &beta, int64_t G = 8,
                               int64_t Cg = 4) {
  int64_t row = Cg * HW;
  GroupNormed out{std::vector<double>(x.size()),
                  std::vector<double>(x.size())};
  for (int64_t r = 0; r < S * G; ++r) {
    const double *xr = x.data() + r * row;
    double mu = 0, var = 0;
    for (int64_t i = 0; i < row; ++i)
      mu += xr[i];
    mu /= double(row);
    for (int64_t i = 0; i < row; ++i)
      var += (xr[i] - mu) * (xr[i] - mu);
    double rstd = 1 / std::sqrt(var / double(row) + 1e-5);
    for (int64_t i = 0; i < row; ++i) {
      int64_t ch = (r % G) * Cg + i / HW;
      double g = halfToFloat(gamma[size_t(ch)]);
      out.a[size_t(r * row + i)] =
          (xr[i] - mu) * rstd * g + halfToFloat(beta[size_t(ch)]);
      out.gain[size_t(r * row + i)] = rstd * std::fabs(g);
    }
  }
  return out;
}

/// Checks Y = mish(group_norm(X) * gamma + beta) for X [S, G groups, Cg
/// channels, HW] (as doubles) against float64 within 2^-9 of |a| + |Y| (a
/// the affine result: f32 statistics, exp/log/tanh in f32, one f16
/// rounding), plus what an error of `xError` in each X value becomes
/// (normalized, scaled by gamma, through Mish's slope below 1.2).
void expectGroupNormMish(const std::string &file, const std::vector<double> &x,
                         const std::vector<uint16_t> &gamma,
                         const std::vector<uint16_t> &beta,
                         const std::vector<uint16_t> &y, int64_t S, int64_t HW,
                         double xError, int64_t G = 8, int64_t Cg = 4) {
  GroupNormed ref = groupNormReference(x, S, HW, gamma, beta, G, Cg);
  for (size_t i = 0; i < ref.a.size(); ++i) {
    double a = ref.a[i];
    double want = a * std::tanh(std::log1p(std::exp(a)));
    double tol = std::ldexp(1.0, -9) * (std::fabs(a) + std::fabs(want)) +
                 std::ldexp(1.0, -12) + 1.2 * 2 * xError * ref.gain[i];
    expectNear(file + ": element " + std::to_string(i), want, tol,
               halfToFloat(y[i]));
  }
}

/// examples/graphs/group_norm_mish.mlir on X [S, 32 channels, HW] f16 (or
/// a graph like it with G groups of Cg channels). Returns Y's bits.
std::vector<uint16_t> runGroupNormMish(const Env &env, const std::string &file,
                                       int64_t S, int64_t HW,
                                       const std::string &name, int64_t G = 8,
                                       int64_t Cg = 4) {
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  size_t n = size_t(S * G * Cg * HW);
  std::vector<uint16_t> x = randomHalves(rng, n, 1.0f),
                        gamma = randomHalves(rng, G * Cg, 0.5f),
                        beta = randomHalves(rng, G * Cg, 0.5f);
  DeviceBuffer dx(n * 2), dg(G * Cg * 2), db(G * Cg * 2),
      dy((n + kGuard) * 2);
  dx.upload(x);
  dg.upload(gamma);
  db.upload(beta);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {S, G, Cg, HW}),
                     GraphArg::buffer(dg.get(), {G, Cg, 1}),
                     GraphArg::buffer(db.get(), {G, Cg, 1}),
                     GraphArg::buffer(dy.get(), {S, G, Cg, HW})},
                    nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(n + kGuard);
  std::vector<double> xd = halvesToDoubles(x);
  expectGroupNormMish(file, xd, gamma, beta, y, S, HW, 0, G, Cg);
  expectUntouched(y, n, n + kGuard, "guard element");
  y.resize(n);
  return y;
}

/// A 3x3 convolution with padding 1 of x [S, Cin, H, W] by w [Cout, Cin,
/// 3, 3] plus b, in float64, each output rounded to f16 (as stored).
std::vector<double> conv3x3Reference(const std::vector<double> &x, int64_t S,
                                     int64_t Cin, int64_t H, int64_t W,
                                     const std::vector<uint16_t> &w,
                                     const std::vector<uint16_t> &b,
                                     int64_t Cout) {
  auto h = [](uint16_t v) { return double(halfToFloat(v)); };
  std::vector<double> out(size_t(S * Cout * H * W));
  for (int64_t s = 0; s < S; ++s)
    for (int64_t co = 0; co < Cout; ++co)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          double acc = h(b[size_t(co)]);
          for (int64_t ci = 0; ci < Cin; ++ci)
            for (int64_t kh = 0; kh < 3; ++kh)
              for (int64_t kw = 0; kw < 3; ++kw) {
                int64_t ii = i + kh - 1, jj = j + kw - 1;
                if (ii < 0 || ii >= H || jj < 0 || jj >= W)
                  continue;
                acc += x[size_t(((s * Cin + ci) * H + ii) * W + jj)] *
                       h(w[size_t(((co * Cin + ci) * 3 + kh) * 3 + kw)]);
              }
          out[size_t(((s * Cout + co) * H + i) * W + j)] =
              halfToFloat(floatToHalf(float(acc)));
        }
  return out;
}

/// examples/graphs/conv_group_norm_mish.mlir: a 3x3 convolution (padding
/// 1) from X [S, C_in, H, W] to 32 channels, then GroupNorm (8 groups) and
/// Mish. The reference rounds the convolution to f16 as the kernel stores
/// it; the slack allows that rounding to differ by an ulp (the f32 sum's
/// order), normalized.
void runConvGroupNormMish(const Env &env, const std::string &file, int64_t S,
                          int64_t Cin, int64_t H, int64_t W,
                          const std::string &name) {
  constexpr int64_t Cout = 32;
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  int64_t HW = H * W;
  std::vector<uint16_t> x = randomHalves(rng, size_t(S * Cin * HW), 1.0f),
                        w = randomHalves(rng, size_t(Cout * Cin * 9),
                                         float(1 / std::sqrt(Cin * 9.0))),
                        b = randomHalves(rng, Cout, 0.5f),
                        gamma = randomHalves(rng, Cout, 0.5f),
                        beta = randomHalves(rng, Cout, 0.5f);
  size_t n = size_t(S * Cout * HW);
  DeviceBuffer dx(x.size() * 2), dw(w.size() * 2), db(Cout * 2),
      dg(Cout * 2), dbeta(Cout * 2), dy((n + kGuard) * 2);
  dx.upload(x);
  dw.upload(w);
  db.upload(b);
  dg.upload(gamma);
  dbeta.upload(beta);
  dy.poison();
  check(program.run({GraphArg::buffer(dx.get(), {S, Cin, H, W}),
                     GraphArg::buffer(dw.get(), {Cout, Cin, 3, 3}),
                     GraphArg::buffer(db.get(), {Cout}),
                     GraphArg::buffer(dg.get(), {8, 4, 1}),
                     GraphArg::buffer(dbeta.get(), {8, 4, 1}),
                     GraphArg::buffer(dy.get(), {S, 8, 4, HW})},
                    nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(n + kGuard);
  std::vector<double> xd = halvesToDoubles(x);
  std::vector<double> conv = conv3x3Reference(xd, S, Cin, H, W, w, b, Cout);
  double maxConv = 0;
  for (double v : conv)
    maxConv = std::max(maxConv, std::fabs(v));
  // The kernel's f32 sum may round to the f16 next to the reference's:
  // one ulp of the largest output.
  expectGroupNormMish(file, conv, gamma, beta, y, S, HW,
                      std::ldexp(maxConv, -10));
  expectUntouched(y, n, n + kGuard, "guard element");
}

/// silu(group_norm(x)) over [S, 8, 4, HW] in float64, rounded to f16.
std::vector<double> groupNormSiluReference(const std::vector<double> &x,
                                           int64_t S, int64_t HW,
                                           const std::vector<uint16_t> &gamma,
                                           const std::vector<uint16_t> &beta) {
  std::vector<double> out = groupNormReference(x, S, HW, gamma, beta).a;
  for (double &a : out)
    a = halfToFloat(floatToHalf(float(a / (1 + std::exp(-a)))));
  return out;
}

/// examples/graphs/unet_block.mlir on x [S, 32, H, W] f16: the residual
/// block against a float64 reference that stores every intermediate as f16
/// the way the graph does. Four f16 stages, each of which may round an
/// element to the neighbouring f16 (the kernels sum in another order),
/// feed two convolutions and two normalizations: the output is checked
/// within 2^-6 (|y| + 1), which such flips stay well inside and a wrong
/// offset, group or weight does not.
std::vector<uint16_t> runUnetBlock(const Env &env, const std::string &file,
                                   int64_t S, int64_t H, int64_t W,
                                   const std::string &name) {
  constexpr int64_t C = 32;
  GraphProgram program = loadGraph(env, file);
  Rng rng = env.rng(name);
  int64_t HW = H * W;
  size_t n = size_t(S * C * HW);
  float ws = float(1 / std::sqrt(C * 9.0));
  std::vector<uint16_t> x = randomHalves(rng, n, 1.0f),
                        emb = randomHalves(rng, size_t(S * C), 0.5f),
                        g1 = randomHalves(rng, C, 0.5f),
                        be1 = randomHalves(rng, C, 0.5f),
                        w1 = randomHalves(rng, C * C * 9, ws),
                        b1 = randomHalves(rng, C, 0.25f),
                        g2 = randomHalves(rng, C, 0.5f),
                        be2 = randomHalves(rng, C, 0.5f),
                        w2 = randomHalves(rng, C * C * 9, ws),
                        b2 = randomHalves(rng, C, 0.25f);
  auto upload = [](const std::vector<uint16_t> &v) {
    auto d = std::make_unique<DeviceBuffer>(v.size() * 2);
    d->upload(v);
    return d;
  };
  auto dx = upload(x), demb = upload(emb), dg1 = upload(g1),
       dbe1 = upload(be1), dw1 = upload(w1), db1 = upload(b1),
       dg2 = upload(g2), dbe2 = upload(be2), dw2 = upload(w2),
       db2 = upload(b2);
  DeviceBuffer dy((n + kGuard) * 2);
  dy.poison();
  check(program.run(
      {GraphArg::buffer(dx->get(), {S, 8, 4, HW}),
       GraphArg::buffer(demb->get(), {S, 8, 4, 1}),
       GraphArg::buffer(dg1->get(), {8, 4, 1}),
       GraphArg::buffer(dbe1->get(), {8, 4, 1}),
       GraphArg::buffer(dw1->get(), {C, C, 3, 3}),
       GraphArg::buffer(db1->get(), {C}),
       GraphArg::buffer(dg2->get(), {8, 4, 1}),
       GraphArg::buffer(dbe2->get(), {8, 4, 1}),
       GraphArg::buffer(dw2->get(), {C, C, 3, 3}),
       GraphArg::buffer(db2->get(), {C}),
       GraphArg::buffer(dy.get(), {S, 8, 4, HW}),
       GraphArg::scalar(Arg::i32(int32_t(H))),
       GraphArg::scalar(Arg::i32(int32_t(W)))},
      nullptr));
  env.sync();
  std::vector<uint16_t> y = dy.download<uint16_t>(n + kGuard);
  std::vector<double> xd = halvesToDoubles(x);
  std::vector<double> a1 = groupNormSiluReference(xd, S, HW, g1, be1);
  std::vector<double> c1 = conv3x3Reference(a1, S, C, H, W, w1, b1, C);
  for (size_t i = 0; i < n; ++i) // + emb[s, c], in f16 as the map adds it
    c1[i] = halfToFloat(floatToHalf(
        float(c1[i] + halfToFloat(emb[i / size_t(HW)]))));
  std::vector<double> a2 = groupNormSiluReference(c1, S, HW, g2, be2);
  std::vector<double> c2 = conv3x3Reference(a2, S, C, H, W, w2, b2, C);
  for (size_t i = 0; i < n; ++i) {
    double want = halfToFloat(floatToHalf(float(c2[i] + xd[i])));
    expectNear(file + ": element " + std::to_string(i), want,
               std::ldexp(1.0, -6) * (std::fabs(want) + 1),
               halfToFloat(y[i]));
  }
  expectUntouched(y, n, n + kGuard, "guard element");
  y.resize(n);
  return y;
}

/// 1000 replays of graph_maps as a CUDA Graph: new alpha and buffers each
/// time (node updates), one change of shape (a second instantiation).
void runReplay(const Env &env) {
  GraphProgram program = loadGraph(env, "graph_maps");
  Rng rng = env.rng("graph/replay_1000");
  CUstream stream = nullptr;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  struct StreamGuard {
    CUstream s;
    ~StreamGuard() { (void)cuStreamDestroy(s); }
  } guard{stream};
  const int64_t rowsOf[2] = {17, 5};
  MapsInputs in[2] = {mapsInputs(rng, 17), mapsInputs(rng, 17)};
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  auto upload = [&](const std::vector<float> &v) {
    buffers.push_back(std::make_unique<DeviceBuffer>(v.size() * 4 + 4));
    buffers.back()->upload(v);
    return buffers.back()->get();
  };
  CUdeviceptr x[2], r[2], g[2], s[2];
  for (int k = 0; k < 2; ++k) {
    x[k] = upload(in[k].x);
    r[k] = upload(in[k].r);
    g[k] = upload(in[k].g);
    s[k] = upload(in[k].s);
  }
  DeviceBuffer y0(17 * 256 * 4), y1(17 * 256 * 4);
  CUdeviceptr ys[2] = {y0.get(), y1.get()};
  for (int it = 0; it < 1000; ++it) {
    int k = it % 2, shape = it >= 600 ? 1 : 0;
    int64_t rows = rowsOf[shape];
    float alpha = 0.5f + float(it) / 64.0f;
    check(program.replay({GraphArg::buffer(x[k], {rows, 256}),
                          GraphArg::buffer(r[k], {rows, 256}),
                          GraphArg::buffer(g[k], {256}),
                          GraphArg::buffer(s[k], {rows, 1}),
                          GraphArg::buffer(ys[(it / 2) % 2], {rows, 256}),
                          GraphArg::scalar(Arg::f32(alpha))},
                         stream));
    CHECK_CU(cuStreamSynchronize(stream));
    size_t n = size_t(rows) * 256;
    std::vector<uint32_t> y(n);
    CHECK_CU(cuMemcpyDtoH(y.data(), ys[(it / 2) % 2], n * 4));
    for (size_t i = 0; i < n; ++i)
      if (y[i] != mapsReference(in[k], i, alpha))
        failCase("replay " + std::to_string(it) + ": element " +
                 std::to_string(i) + ": expected " +
                 describe(mapsReference(in[k], i, alpha)) + ", found " +
                 describe(y[i]));
  }
  if (program.instantiations() != 2 || program.updates() != 998)
    failCase("expected 2 instantiations and 998 updates, found " +
             std::to_string(program.instantiations()) + " and " +
             std::to_string(program.updates()));
}

/// What a bad binding gets: the map's size contract, overlapping buffers.
void runRefusals(const Env &env) {
  GraphProgram program = loadGraph(env, "graph_epilogue");
  DeviceBuffer dx(100 * 64 * 2), db(64 * 2), dy(100 * 64 * 4);
  Status s = program.run({GraphArg::buffer(dx.get(), {100, 64}),
                          GraphArg::buffer(db.get(), {64}),
                          GraphArg::buffer(dy.get(), {99, 64})},
                         nullptr);
  if (s.ok() ||
      s.message().find(
          "differs from dimension 0 of its output, graph argument 2") ==
          std::string::npos)
    failCase("rows 100 -> 99: expected the map's size check, found '" +
             s.message() + "'");
  s = program.run({GraphArg::buffer(dx.get(), {100, 64}),
                   GraphArg::buffer(dx.get() + 64, {64}),
                   GraphArg::buffer(dy.get(), {100, 64})},
                  nullptr);
  if (s.ok() || s.message().find("overlap") == std::string::npos)
    failCase("bias inside x: expected an overlap error, found '" + s.message() +
             "'");
}

} // namespace

void tilec::gputest::addGraphCases(std::vector<TestCase> &cases) {
  for (const char *variant : {"", "_unfused"})
    for (int64_t rows :
         {int64_t(1), int64_t(17), int64_t(1000), int64_t(4097)}) {
      std::string suffix =
          std::string(variant) + "_rows" + std::to_string(rows);
      std::string epi = std::string("graph_epilogue") + variant;
      cases.push_back(
          {"graph/epilogue" + suffix, rows > 1000, true, [=](const Env &env) {
             runEpilogue(env, epi, rows, "graph/epilogue" + suffix);
           }});
      std::string maps = std::string("graph_maps") + variant;
      cases.push_back(
          {"graph/maps" + suffix, rows > 1000, true, [=](const Env &env) {
             runMaps(env, maps, rows, "graph/maps" + suffix);
           }});
    }
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1},
                            {17, 300},
                            {1000, 128},
                            {64, 4097}}) {
    std::string name =
        "graph/prologue_" + std::to_string(rows) + "x" + std::to_string(cols);
    cases.push_back({name, rows * cols > 100000, true, [=](const Env &env) {
                       std::vector<uint32_t> fused =
                           runPrologue(env, "graph_prologue", rows, cols, name);
                       std::vector<uint32_t> unfused = runPrologue(
                           env, "graph_prologue_unfused", rows, cols, name);
                       for (size_t i = 0; i < fused.size(); ++i)
                         if (fused[i] != unfused[i])
                           failCase("row " + std::to_string(i) + ": fused " +
                                    describe(fused[i]) + ", unfused " +
                                    describe(unfused[i]));
                     }});
  }
  cases.push_back({"graph/example_linear_gelu_272x512x320", false, true,
                   [](const Env &env) {
                     std::string name = "graph/example_linear_gelu";
                     std::vector<uint16_t> fused = runLinearGelu(
                         env, "example_linear_gelu", 272, 512, 320, name);
                     std::vector<uint16_t> unfused =
                         runLinearGelu(env, "example_linear_gelu_unfused", 272,
                                       512, 320, name);
                     for (size_t i = 0; i < fused.size(); ++i)
                       if (fused[i] != unfused[i])
                         failCase("element " + std::to_string(i) +
                                  ": fused 0x" + std::to_string(fused[i]) +
                                  ", unfused 0x" + std::to_string(unfused[i]));
                   }});
  cases.push_back({"graph/example_mlp_144x320x512x256", false, true,
                   [](const Env &env) {
                     std::string name = "graph/example_mlp";
                     std::vector<uint16_t> fused =
                         runMlp(env, "example_mlp", 144, 320, 512, 256, name);
                     std::vector<uint16_t> unfused = runMlp(
                         env, "example_mlp_unfused", 144, 320, 512, 256, name);
                     if (fused != unfused)
                       failCase("fused and unfused MLP outputs differ");
                   }});
  // A row group (fused: one kernel per row; not bit for bit against
  // unfused: fused, `acc + d * d` contracts into an fma).
  for (int64_t rows : {1, 17, 1000}) {
    std::string name = "graph/example_residual_layer_norm_" +
                       std::to_string(rows) + "x4096";
    cases.push_back({name, false, true, [=](const Env &env) {
                       runResidualLayerNorm(env, "example_residual_layer_norm",
                                            rows, 4096, name);
                       runResidualLayerNorm(
                           env, "example_residual_layer_norm_unfused", rows,
                           4096, name);
                     }});
  }
  // Row groups: fused (one kernel per row) against unfused (a kernel per
  // op), both against float64; not bit for bit (fused, `acc + d * d`
  // contracts into an fma that the unfused map/reduce pair rounds twice).
  for (int64_t rows : {1, 37, 1000}) {
    std::string name = "graph/example_layer_norm_" + std::to_string(rows);
    cases.push_back({name, false, true, [=](const Env &env) {
                       runLayerNormOps(env, "example_layer_norm", rows, name);
                       runLayerNormOps(env, "example_layer_norm_unfused",
                                       rows, name);
                     }});
  }
  for (auto [samples, hw] :
       {std::pair<int64_t, int64_t>{3, 1000}, {5, 7}, {1, 4096}}) {
    std::string name = "graph/example_group_norm_mish_" +
                       std::to_string(samples) + "x32x" + std::to_string(hw);
    cases.push_back({name, false, true, [=](const Env &env) {
                       runGroupNormMish(env, "example_group_norm_mish",
                                        samples, hw, name);
                       runGroupNormMish(env, "example_group_norm_mish_unfused",
                                        samples, hw, name);
                     }});
  }
  // 3 channels a group: the row kernel's 2D blocks have a channel row
  // past the group (masked).
  for (auto [samples, hw] :
       {std::pair<int64_t, int64_t>{3, 1000}, {2, 7}, {1, 4096}, {2, 1031}}) {
    std::string name = "graph/group_norm_mish_g4c3_" + std::to_string(samples) +
                       "x12x" + std::to_string(hw);
    cases.push_back({name, false, true, [=](const Env &env) {
                       runGroupNormMish(env, "graph_group_norm_mish_g4c3",
                                        samples, hw, name, 4, 3);
                       runGroupNormMish(env,
                                        "graph_group_norm_mish_g4c3_unfused",
                                        samples, hw, name, 4, 3);
                     }});
  }
  for (auto [samples, cin, height, width] :
       {std::array<int64_t, 4>{2, 16, 9, 11},
        {1, 32, 32, 32},
        {3, 5, 17, 13},
        {2, 40, 8, 20}}) {
    std::string name = "graph/example_conv_group_norm_mish_" +
                       std::to_string(samples) + "x" + std::to_string(cin) +
                       "x" + std::to_string(height) + "x" +
                       std::to_string(width);
    cases.push_back({name, false, true, [=](const Env &env) {
                       runConvGroupNormMish(env, "example_conv_group_norm_mish",
                                            samples, cin, height, width, name);
                       runConvGroupNormMish(
                           env, "example_conv_group_norm_mish_unfused",
                           samples, cin, height, width, name);
                     }});
  }
  for (auto [samples, height, width] :
       {std::array<int64_t, 3>{2, 9, 11}, {1, 32, 32}}) {
    std::string name = "graph/example_unet_block_" + std::to_string(samples) +
                       "x32x" + std::to_string(height) + "x" +
                       std::to_string(width);
    cases.push_back({name, false, true, [=](const Env &env) {
                       runUnetBlock(env, "example_unet_block", samples,
                                    height, width, name);
                       runUnetBlock(env, "example_unet_block_unfused", samples,
                                    height, width, name);
                     }});
  }
  cases.push_back({"graph/scaled_linear_272x512x320", false, true,
                   [](const Env &env) {
                     std::string name = "graph/scaled_linear";
                     std::vector<uint16_t> fused = runScaledLinear(
                         env, "graph_scaled_linear", 272, 512, 320, name);
                     std::vector<uint16_t> unfused = runScaledLinear(
                         env, "graph_scaled_linear_unfused", 272, 512, 320,
                         name);
                     if (fused != unfused)
                       failCase("fused and unfused outputs differ");
                   }});
  cases.push_back({"graph/replay_1000", false, true, runReplay});
  cases.push_back({"graph/refusals", false, true, runRefusals});
}
