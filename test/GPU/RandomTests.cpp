//===- RandomTests.cpp - tl.randint & co. against a CPU Philox ------------===//
//
// GPU cases for Triton 3.6's random-number functions as tilec compiles them
// (compiler/Frontend/Random.cpp; kernels test/GPU/kernels/py/random.py),
// checked against a CPU model written from the definitions: Philox-4x32 and
// Philox-4x64 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy
// as 1, 2, 3", SC'11; the multipliers and Weyl key increments of Random123),
// Triton's counter (offset_lo, offset_hi, 0, 0) and key (the seed widened to
// 64 bits, split into halves), uint_to_uniform_float and the Box-Muller
// pair_uniform_to_normal.
//
// randint, randint4x, rand, rand4x and the uint64 Philox words must match
// bit for bit. randn and randn4x are compared to a double-precision
// Box-Muller of the exact fp32 uniforms the kernel forms, with a tolerance:
// their log, cos and sin are libdevice's __nv_logf / __nv_cosf / __nv_sinf
// (within 1-2 ulp, not correctly rounded) and tl.sqrt is sqrt.approx.f32,
// as in Triton, so no CPU libm reproduces their last bits.
//
// selftest/philox (CPU only) checks the model against Random123's published
// known-answer vectors (tests/kat_vectors: philox4x32 with 7 and 10 rounds,
// philox4x64 with 10 rounds).
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtils.h"

#include <algorithm>
#include <array>

using namespace tilec;
using namespace tilec::gputest;

namespace {

//===----------------------------------------------------------------------===//
// The CPU model
//===----------------------------------------------------------------------===//

using Words32 = std::array<uint32_t, 4>;
using Words64 = std::array<uint64_t, 4>;

/// Philox-4x32 with `rounds` rounds on counter `c` and key (k0, k1): per
/// round (c0, c1, c2, c3) <- (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^
/// c3 ^ k1, lo(M0 c0)), the key raised by (W0, W1) before every round but
/// the first.
Words32 philox4x32(Words32 c, uint32_t k0, uint32_t k1, int rounds) {
  const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
  const uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  for (int r = 0; r < rounds; ++r) {
    if (r) {
      k0 += W0;
      k1 += W1;
    }
    uint64_t p0 = uint64_t(M0) * c[0], p1 = uint64_t(M1) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k0, uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k1, uint32_t(p0)};
  }
  return c;
}

/// Philox-4x64, the same with 64-bit words and constants.
Words64 philox4x64(Words64 c, uint64_t k0, uint64_t k1, int rounds) {
  const uint64_t M0 = 0xD2E7470EE14C6C93ull, M1 = 0xCA5A826395121157ull;
  const uint64_t W0 = 0x9E3779B97F4A7C15ull, W1 = 0xBB67AE8584CAA73Bull;
  for (int r = 0; r < rounds; ++r) {
    if (r) {
      k0 += W0;
      k1 += W1;
    }
    unsigned __int128 p0 = (unsigned __int128)M0 * c[0],
                      p1 = (unsigned __int128)M1 * c[2];
    c = {uint64_t(p1 >> 64) ^ c[1] ^ k0, uint64_t(p1),
         uint64_t(p0 >> 64) ^ c[3] ^ k1, uint64_t(p0)};
  }
  return c;
}

/// Triton's randint4x: the seed (already widened to 64 bits by its own
/// signedness) is the key (low half, high half); a 64-bit offset fills the
/// first two counter words, a 32-bit one the first (the second is 0).
Words32 randint4x(int64_t seed, int64_t offset, bool offset64,
                  int rounds = 10) {
  uint64_t s = uint64_t(seed), o = uint64_t(offset);
  return philox4x32({uint32_t(o), offset64 ? uint32_t(o >> 32) : 0u, 0u, 0u},
                    uint32_t(s), uint32_t(s >> 32), rounds);
}

/// uint_to_uniform_float of a uint32: read as int32, negatives folded by
/// -x - 1 (that is ~x), converted to fp32 and scaled by fp32(4.6566127342e-10)
/// (the constant goes through a double, as Triton's and tilec's do).
float uniform32(uint32_t x) {
  int32_t s = int32_t(x);
  return float(s < 0 ? ~s : s) * float(4.6566127342e-10);
}

/// The same for a uint64, with fp32(1.0842020432385337e-19).
float uniform64(uint64_t x) {
  int64_t s = int64_t(x);
  return float(s < 0 ? ~s : s) * float(1.0842020432385337e-19);
}

/// pair_uniform_to_normal's inputs as the kernel forms them in fp32
/// (max(1e-7, u1) and 2 pi u2, both exact), then the transform in double:
/// r = sqrt(-2 log u1), (r cos th, r sin th); `r` is returned too.
struct Normal {
  double n1, n2, r;
};
Normal boxMuller(float u1, float u2) {
  float m = std::fmax(float(1.0e-7), u1);
  float th = float(6.283185307179586) * u2;
  double r = std::sqrt(-2.0 * std::log(double(m)));
  return {r * std::cos(double(th)), r * std::sin(double(th)), r};
}

/// The randn tolerance: 2^-19 relative (32 ulp of fp32) plus 2^-22 r
/// absolute, for libdevice's log/cos/sin, sqrt.approx.f32 and the roundings
/// in between (observed errors are a few ulp; a wrong counter, key or
/// conversion is off by O(1)).
double normalTolerance(double want, double r) {
  return std::ldexp(std::fabs(want), -19) + std::ldexp(r, -22);
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
  return buf;
}

/// Collects the worst randn error of a case for --verbose.
struct NormalStats {
  double worst = 0; // error / tolerance
  void check(const std::string &what, uint32_t gotBits, double want, double r) {
    float got = bitsFloat(gotBits);
    double err = std::fabs(double(got) - want), tol = normalTolerance(want, r);
    if (!(err <= tol))
      failCase(what + ": expected " + std::to_string(want) + " (within " +
               std::to_string(tol) + "), found " + describe(gotBits) +
               (gotBits == kPoison32 ? " (never written)" : ""));
    worst = std::max(worst, err / tol);
  }
};

void expectWord(uint64_t got, uint64_t want, const std::string &what) {
  if (got != want)
    failCase(what + ": expected " + hex(want) + ", found " + hex(got) +
             (got == kPoison32 ? " (never written)" : ""));
}

void expectFloat(uint32_t got, float want, const std::string &what) {
  if (got != floatBits(want))
    failCase(what + ": expected " + describe(floatBits(want)) + ", found " +
             describe(got) + (got == kPoison32 ? " (never written)" : ""));
}

/// random_kernel (int32 seed and offsets) or random64_kernel (int64): every
/// function at offsets base + i for i < N, ragged over BLOCK = 256.
void runRandom(const Env &env, const std::string &caseName,
               const std::string &file, bool is64, int64_t seed, int64_t base,
               int N) {
  Kernel k = env.kernel(file);
  DeviceBuffer dI((size_t(6) * N + kGuard) * 4), dF((size_t(5) * N + kGuard) * 4),
      dN((size_t(5) * N + kGuard) * 4);
  for (DeviceBuffer *b : {&dI, &dF, &dN})
    b->poison();
  Arg seedArg = is64 ? Arg::i64(seed) : Arg::i32(int32_t(seed));
  Arg baseArg = is64 ? Arg::i64(base) : Arg::i32(int32_t(base));
  check(k.launch(Grid{cdiv(N, 256), 1, 1},
                 {Arg::ptr(dI.get()), Arg::ptr(dF.get()), Arg::ptr(dN.get()),
                  seedArg, baseArg, Arg::i32(N)}));
  env.sync();
  auto I = dI.download<uint32_t>(size_t(6) * N + kGuard);
  auto F = dF.download<uint32_t>(size_t(5) * N + kGuard);
  auto G = dN.download<uint32_t>(size_t(5) * N + kGuard);
  NormalStats stats;
  std::string where = " (seed " + std::to_string(seed) + ", base " +
                      std::to_string(base) + ")";
  for (int i = 0; i < N; ++i) {
    int64_t o = base + i;
    Words32 q = randint4x(seed, o, is64), q7 = randint4x(seed, o, is64, 7);
    auto at = [&](const char *fn, int word) {
      return std::string(fn) + (word >= 0 ? " word " + std::to_string(word) : "") +
             " at offset " + std::to_string(o) + where;
    };
    expectWord(I[i], q[0], at("randint", -1));
    for (int w = 0; w < 4; ++w)
      expectWord(I[size_t(1 + w) * N + i], q[w], at("randint4x", w));
    expectWord(I[size_t(5) * N + i], q7[0], at("randint(n_rounds=7)", -1));
    float u[4];
    for (int w = 0; w < 4; ++w)
      u[w] = uniform32(q[w]);
    expectFloat(F[i], u[0], at("rand", -1));
    for (int w = 0; w < 4; ++w)
      expectFloat(F[size_t(1 + w) * N + i], u[w], at("rand4x", w));
    Normal a = boxMuller(u[0], u[1]), b = boxMuller(u[2], u[3]);
    stats.check(at("randn", -1), G[i], a.n1, a.r);
    stats.check(at("randn4x", 0), G[size_t(1) * N + i], a.n1, a.r);
    stats.check(at("randn4x", 1), G[size_t(2) * N + i], a.n2, a.r);
    stats.check(at("randn4x", 2), G[size_t(3) * N + i], b.n1, b.r);
    stats.check(at("randn4x", 3), G[size_t(4) * N + i], b.n2, b.r);
  }
  expectUntouched(I, size_t(6) * N, size_t(6) * N + kGuard, "element past OUT_I");
  expectUntouched(F, size_t(5) * N, size_t(5) * N + kGuard, "element past OUT_F");
  expectUntouched(G, size_t(5) * N, size_t(5) * N + kGuard, "element past OUT_N");
  if (env.verbose)
    std::printf("INFO %s: randn worst error %.3g of the tolerance%s\n",
                caseName.c_str(), stats.worst, where.c_str());
}

/// random_scalar_kernel: one scalar offset base + pid per program.
void runRandomScalar(const Env &env, const std::string &caseName) {
  Kernel k = env.kernel("random_scalar_kernel");
  const int P = 300;
  const int32_t seed = 987654321, base = 1000;
  DeviceBuffer dI(size_t(2) * P * 4), dF(size_t(2) * P * 4);
  dI.poison();
  dF.poison();
  check(k.launch(Grid{P, 1, 1}, {Arg::ptr(dI.get()), Arg::ptr(dF.get()),
                                 Arg::i32(seed), Arg::i32(base), Arg::i32(P)}));
  env.sync();
  auto I = dI.download<uint32_t>(size_t(2) * P);
  auto F = dF.download<uint32_t>(size_t(2) * P);
  NormalStats stats;
  for (int p = 0; p < P; ++p) {
    int64_t o = base + p;
    std::string at = " at offset " + std::to_string(o);
    expectWord(I[p], randint4x(42, o, false)[0], "randint(42, o)" + at);
    Words32 q = randint4x(seed, o, false);
    expectWord(I[P + p], q[3], "randint4x word 3" + at);
    expectFloat(F[p], uniform32(q[0]), "rand" + at);
    Normal n = boxMuller(uniform32(q[0]), uniform32(q[1]));
    stats.check("randn" + at, F[P + p], n.n1, n.r);
  }
  if (env.verbose)
    std::printf("INFO %s: randn worst error %.3g of the tolerance\n",
                caseName.c_str(), stats.worst);
}

/// philox64_kernel: Philox-4x64-10 on (c, c + 1, c + 2, c + 3), c = base + i
/// as uint64 (wrapping near 2^64 for base = -256), key (seed, 0).
void runPhilox64(const Env &env) {
  Kernel k = env.kernel("philox64_kernel");
  const int N = 700;
  const int64_t seed = 0x0123456789ABCDEFll, base = -256;
  DeviceBuffer dW((size_t(4) * N + kGuard) * 8), dU((size_t(N) + kGuard) * 4);
  dW.poison();
  dU.poison();
  check(k.launch(Grid{cdiv(N, 256), 1, 1},
                 {Arg::ptr(dW.get()), Arg::ptr(dU.get()), Arg::i64(seed),
                  Arg::i64(base), Arg::i32(N)}));
  env.sync();
  auto W = dW.download<uint64_t>(size_t(4) * N + kGuard);
  auto U = dU.download<uint32_t>(size_t(N) + kGuard);
  for (int i = 0; i < N; ++i) {
    uint64_t c = uint64_t(base + i);
    Words64 q = philox4x64({c, c + 1, c + 2, c + 3}, uint64_t(seed), 0, 10);
    std::string at = " at counter " + hex(c);
    for (int w = 0; w < 4; ++w)
      expectWord(W[size_t(w) * N + i], q[w],
                 "tl.philox word " + std::to_string(w) + at);
    expectFloat(U[i], uniform64(q[0]), "uint_to_uniform_float(uint64)" + at);
  }
  for (size_t o = size_t(4) * N; o < size_t(4) * N + kGuard; ++o)
    if (W[o] != ~uint64_t(0))
      failCase("element " + std::to_string(o) + " past OUT was written");
  expectUntouched(U, N, N + kGuard, "element past U");
}

/// The CPU model against Random123's known answers (tests/kat_vectors of
/// github.com/DEShawResearch/random123: counter, key, result) and the
/// conversions at their edges.
void runPhiloxSelfTest() {
  struct Kat32 {
    int rounds;
    Words32 ctr;
    uint32_t k0, k1;
    Words32 want;
  };
  const Kat32 kat32[] = {
      {7, {0, 0, 0, 0}, 0, 0, {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
      {7, {~0u, ~0u, ~0u, ~0u}, ~0u, ~0u,
       {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
      {7, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822,
       0x299f31d0, {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
      {10, {0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {10, {~0u, ~0u, ~0u, ~0u}, ~0u, ~0u,
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {10, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822,
       0x299f31d0, {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat32 &t : kat32) {
    Words32 got = philox4x32(t.ctr, t.k0, t.k1, t.rounds);
    for (int w = 0; w < 4; ++w)
      expectWord(got[w], t.want[w],
                 "philox4x32-" + std::to_string(t.rounds) + " of counter " +
                     hex(t.ctr[0]) + ".. key " + hex(t.k0) + ", word " +
                     std::to_string(w));
  }
  struct Kat64 {
    Words64 ctr;
    uint64_t k0, k1;
    Words64 want;
  };
  const uint64_t ones = ~uint64_t(0);
  const Kat64 kat64[] = {
      {{0, 0, 0, 0}, 0, 0,
       {0x16554d9eca36314cull, 0xdb20fe9d672d0fdcull, 0xd7e772cee186176bull,
        0x7e68b68aec7ba23bull}},
      {{ones, ones, ones, ones}, ones, ones,
       {0x87b092c3013fe90bull, 0x438c3c67be8d0224ull, 0x9cc7d7c69cd777b6ull,
        0xa09caebf594f0ba0ull}},
      {{0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
        0x082efa98ec4e6c89ull},
       0x452821e638d01377ull, 0xbe5466cf34e90c6cull,
       {0xa528f45403e61d95ull, 0x38c72dbd566e9788ull, 0xa5a1610e72fd18b5ull,
        0x57bd43b5e52b7fe6ull}},
  };
  for (const Kat64 &t : kat64) {
    Words64 got = philox4x64(t.ctr, t.k0, t.k1, 10);
    for (int w = 0; w < 4; ++w)
      expectWord(got[w], t.want[w],
                 "philox4x64-10 of counter " + hex(t.ctr[0]) + ".. key " +
                     hex(t.k0) + ", word " + std::to_string(w));
  }
  // Triton's counter and key: randint4x(0, 0) is philox4x32-10 of zeros.
  expectWord(randint4x(0, 0, false)[0], 0x6627e8d5, "randint4x(0, 0)");
  // The uniform conversion: [0, 1), symmetric in the sign bit.
  if (uniform32(0) != 0.0f || uniform32(~0u) != 0.0f ||
      !(uniform32(0x7fffffffu) < 1.0f) ||
      uniform32(0x80000000u) != uniform32(0x7fffffffu) ||
      !(uniform64(~uint64_t(0) >> 1) < 1.0f))
    failCase("uint_to_uniform_float model: expected [0, 1) with 0 -> 0, "
             "-1 -> 0 and INT_MIN -> INT_MAX's value");
}

} // namespace

void tilec::gputest::addRandomCases(std::vector<TestCase> &cases) {
  cases.push_back({"selftest/philox", false, false,
                   [](const Env &) { runPhiloxSelfTest(); }});
  const char *all = "randint randint4x rand rand4x randn randn4x";
  std::string name32 = std::string("random_kernel/") + all +
                       ", int32 seeds and offsets";
  cases.push_back({name32, false, true, [name32](const Env &e) {
                     // A negative seed (key high half 0xffffffff) with
                     // negative offsets; offsets up to 2^31 - 648.
                     runRandom(e, name32, "random_kernel", false, -12345, -300,
                               1000);
                     runRandom(e, name32, "random_kernel", false, 1234567,
                               2147482000, 1000);
                   }});
  std::string name64 = std::string("random64_kernel/") + all +
                       ", int64 seeds and offsets";
  cases.push_back({name64, false, true, [name64](const Env &e) {
                     // Offsets across 2^32 (the second counter word 0 then
                     // 1) and across 0 (0xffffffff then 0).
                     runRandom(e, name64, "random64_kernel", true,
                               0x0123456789ABCDEFll, 0xFFFFFE00ll, 1000);
                     runRandom(e, name64, "random64_kernel", true, -1, -500,
                               1000);
                   }});
  cases.push_back({"random_scalar_kernel/scalar offsets, constant seed", false,
                   true, [](const Env &e) {
                     runRandomScalar(
                         e, "random_scalar_kernel/scalar offsets, constant seed");
                   }});
  cases.push_back({"philox64_kernel/tl.philox on uint64 counters", false, true,
                   [](const Env &e) { runPhilox64(e); }});
}
