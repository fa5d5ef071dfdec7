//===- SemanticsTests.cpp - Triton-semantics parity GPU cases -------------===//
//
// Cases whose right answer is fixed by Triton's documented semantics rather
// than by arithmetic alone (issue 8): the old values of atomics on tiles
// that several threads hold; max/min/argmax/argmin under NaN, +-0, +-inf;
// tl.fdiv's two roundings; tl.histogram; tl.gather (gather.py); integer
// masks on atomics; tl.inline_asm_elementwise (kernels/py/inline_asm.py).
// Kernels: test/GPU/kernels/py/semantics.py,
// compiled at build time (test/CMakeLists.txt); each case checks the
// kernel's output against a CPU model of the semantics.
//
//===----------------------------------------------------------------------===//
#include "GpuTestUtils.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace tilec;
using namespace tilec::gputest;

namespace {

std::string str(const char *fmt, long a, long b = 0, long c = 0,
                long d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), fmt, a, b, c, d);
  return buf;
}

//===----------------------------------------------------------------------===//
// Atomics on replicated tiles
//===----------------------------------------------------------------------===//

/// replicated_atomics_kernel (R counters per program, the old values used
/// broadcast over C columns) on NPROG programs. Every holder of an element
/// must see the value the one issued atomic returned: each [C] row of an
/// output is one value, and the values obey the atomics' semantics:
/// tickets from atomic_add are a permutation of the programs; the old
/// values of atomic_xchg are the initial value and every program's value
/// but the last one's; exactly one atomic_cas(0 -> pid + 1) sees 0 and the
/// others see the winner's value; the fp16 atomic_max of distinct values
/// returns -inf to exactly one program and otherwise a smaller value some
/// other program wrote (smaller or larger: a program whose value loses
/// sees the larger one); bf16 exchange as the int one.
void runReplicatedAtomics(const Env &env, const std::string &file, int R,
                          int C) {
  const int P = 37;
  Kernel k = env.kernel(file, "replicated_atomics_kernel");
  const uint16_t negInfHalf = 0xFC00, bfInit = 0x3F80; // bf16 1.0
  std::vector<int32_t> zeros(R, 0);
  std::vector<uint16_t> hinit(R, negInfHalf), binit(R, bfInit);
  DeviceBuffer cnt(R * 4), xchg(R * 4), cas(R * 4), hmax(R * 2), bx(R * 2);
  cnt.upload(zeros);
  xchg.upload(zeros);
  cas.upload(zeros);
  hmax.upload(hinit);
  bx.upload(binit);
  size_t n = size_t(R) * P * C;
  DeviceBuffer tickets(n * 4), xold(n * 4), cold(n * 4), hold(n * 2),
      bold(n * 2), ew(size_t(P) * 3 * R * 4);
  for (DeviceBuffer *b : {&tickets, &xold, &cold, &hold, &bold, &ew})
    b->poison();
  check(k.launch(Grid{P, 1, 1},
                 {Arg::ptr(cnt.get()), Arg::ptr(xchg.get()), Arg::ptr(cas.get()),
                  Arg::ptr(hmax.get()), Arg::ptr(bx.get()),
                  Arg::ptr(tickets.get()), Arg::ptr(xold.get()),
                  Arg::ptr(cold.get()), Arg::ptr(hold.get()),
                  Arg::ptr(bold.get()), Arg::ptr(ew.get()), Arg::i32(P)}));
  env.sync();
  auto t = tickets.download<int32_t>(n), x = xold.download<int32_t>(n),
       o = cold.download<int32_t>(n);
  auto h = hold.download<uint16_t>(n), b = bold.download<uint16_t>(n);
  auto xFinal = xchg.download<int32_t>(R), oFinal = cas.download<int32_t>(R);
  auto cFinal = cnt.download<int32_t>(R);
  auto bFinal = bx.download<uint16_t>(R);
  auto elementwise = ew.download<int32_t>(size_t(P) * 3 * R);
  // The element-wise copies (value + 1) agree with the broadcast rows.
  auto checkElementwise = [&](int r, int pid, int j, int32_t v,
                              const char *what) {
    int32_t e = elementwise[(size_t(pid) * 3 + j) * R + r];
    if (e != v + 1)
      failCase(std::string(what) +
               str(": element %ld, program %ld: stored element-wise as %ld, "
                   "broadcast as %ld (+1)",
                   r, pid, e, long(v) + 1));
  };
  // Row (r, i) of an output: C equal values, returned.
  auto row = [&](const auto &v, const char *what, int r, int i) {
    size_t at = (size_t(r) * P + i) * C;
    for (int c = 1; c < C; ++c)
      if (v[at + c] != v[at])
        failCase(std::string(what) +
                 str(": element %ld, row %ld: column %ld holds %ld", r, i, c,
                     long(v[at + c])) +
                 str(", column 0 holds %ld (the threads holding the element "
                     "disagree)",
                     long(v[at])));
    return v[at];
  };
  // The fp16 / bf16 value program p wrote for element r.
  auto halfOf = [](int p, int r) { return floatToHalf(1.0f + float(p + r) / 64); };
  auto bf16Of = [](int p, int r) {
    return uint16_t(floatBits(2.0f + float(p + r) / 32) >> 16);
  };
  for (int r = 0; r < R; ++r) {
    if (cFinal[r] != P)
      failCase(str("atomic_add: counter %ld ends at %ld, expected %ld", r,
                   cFinal[r], P));
    std::set<int32_t> seen;
    for (int i = 0; i < P; ++i) {
      int32_t pid = row(t, "atomic_add tickets", r, i);
      if (pid < 0 || pid >= P || !seen.insert(pid).second)
        failCase(str("atomic_add: element %ld, ticket %ld names program %ld "
                     "(not a permutation of the programs)",
                     r, i, pid));
      checkElementwise(r, pid, 0, i, "atomic_add");
    }
    // Exchange: {0} + every program's pid + 1 but the last one's.
    std::multiset<int32_t> olds, want = {0};
    for (int i = 0; i < P; ++i) {
      olds.insert(row(x, "atomic_xchg", r, i));
      checkElementwise(r, i, 1, row(x, "atomic_xchg", r, i), "atomic_xchg");
    }
    for (int p = 0; p < P; ++p)
      if (p + 1 != xFinal[r])
        want.insert(p + 1);
    if (olds != want)
      failCase(str("atomic_xchg: element %ld: the old values are not the "
                   "initial 0 and the other programs' values (final %ld)",
                   r, xFinal[r]));
    // Compare-and-swap: one winner w sees 0, the rest see w + 1.
    int winners = 0;
    for (int i = 0; i < P; ++i) {
      int32_t v = row(o, "atomic_cas", r, i);
      checkElementwise(r, i, 2, v, "atomic_cas");
      if (v == 0) {
        ++winners;
        if (oFinal[r] != i + 1)
          failCase(str("atomic_cas: element %ld: program %ld saw 0 but the "
                       "memory holds %ld",
                       r, i, oFinal[r]));
      } else if (v != oFinal[r]) {
        failCase(str("atomic_cas: element %ld, program %ld saw %ld, expected "
                     "0 or the winner's %ld",
                     r, i, v, oFinal[r]));
      }
    }
    if (winners != 1)
      failCase(str("atomic_cas: element %ld: %ld programs saw 0, expected 1",
                   r, winners));
    // fp16 max: -inf for the first, else a smaller value of another program.
    int firsts = 0;
    for (int i = 0; i < P; ++i) {
      uint16_t v = row(h, "atomic_max fp16", r, i);
      if (v == negInfHalf) {
        ++firsts;
        continue;
      }
      bool found = false;
      for (int p = 0; p < P; ++p)
        found |= p != i && halfOf(p, r) == v;
      if (!found)
        failCase(str("atomic_max fp16: element %ld, program %ld saw 0x%04lx, "
                     "no other program's value",
                     r, i, v));
    }
    if (firsts != 1)
      failCase(str("atomic_max fp16: element %ld: %ld programs saw -inf, "
                   "expected 1",
                   r, firsts));
    // bf16 exchange: the initial 1.0 and every value but the last one's.
    std::multiset<uint16_t> bolds, bwant = {bfInit};
    for (int i = 0; i < P; ++i)
      bolds.insert(row(b, "atomic_xchg bf16", r, i));
    for (int p = 0; p < P; ++p)
      if (bf16Of(p, r) != bFinal[r])
        bwant.insert(bf16Of(p, r));
    if (bolds != bwant)
      failCase(str("atomic_xchg bf16: element %ld: the old values are not "
                   "the initial 1.0 and the other programs' values",
                   r));
  }
}

//===----------------------------------------------------------------------===//
// Float reductions under NaN, +-0 and +-inf
//===----------------------------------------------------------------------===//

/// The model of a max (or min) reduction of `row` with its index: NaN is
/// the least element (`nanWins` false: Triton's default, the non-NaN
/// operand wins) or the greatest (true: tl.PropagateNan.ALL, as torch);
/// NaNs equal each other, +0 equals -0, ties keep the lowest index.
std::pair<float, int> modelReduce(const std::vector<float> &row, bool isMax,
                                  bool nanWins) {
  auto better = [&](float a, float c) { // a strictly better than c
    bool na = std::isnan(a), nc = std::isnan(c);
    if (na || nc)
      return nanWins ? (na && !nc) : (nc && !na);
    return isMax ? a > c : a < c;
  };
  int best = 0;
  for (int i = 1; i < int(row.size()); ++i)
    if (better(row[i], row[best]))
      best = i;
  return {row[best], best};
}

/// Two floats the same value: both NaN, or equal (+0 == -0).
bool sameValue(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

/// nan_reductions_kernel on rows drawn from {NaN, +-inf, +-0, +-1, 2.5},
/// some all NaN, some NaN-free, the rows ([inf, nan] then masked
/// -inf; 63 x inf then NaN); N ragged (columns N..BLOCK-1 are masked).
void runNanReductions(const Env &env, const std::string &file,
                      const std::string &caseName) {
  const int BLOCK = 64, ROWS = 8, N = 61, NROWS = 8 * ROWS;
  Kernel k = env.kernel(file, "nan_reductions_kernel");
  Rng rng = env.rng(caseName);
  const float nan = std::nanf(""), inf = INFINITY;
  const float pool[] = {nan, inf, -inf, 0.0f, -0.0f, 1.0f, -1.0f, 2.5f};
  std::vector<float> x(size_t(NROWS) * N);
  for (int r = 0; r < NROWS; ++r)
    for (int c = 0; c < N; ++c) {
      float v = pool[rng.next() % 8];
      if (r % 8 == 1) // all NaN
        v = nan;
      else if (r % 8 == 2 && std::isnan(v)) // NaN-free
        v = 1.0f;
      else if (r % 8 == 3) // few distinct values: many ties
        v = pool[3 + rng.next() % 2];
      x[size_t(r) * N + c] = v;
    }
  // The examples: [inf, nan, (masked)] and [inf x 63 (ragged), nan].
  for (int c = 0; c < N; ++c) {
    x[size_t(4) * N + c] = c == 0 ? inf : c == 1 ? nan : -inf;
    x[size_t(5) * N + c] = c == N - 1 ? nan : inf;
  }
  const int outs = 16;
  DeviceBuffer dx(x.size() * 4), dval(size_t(outs) * NROWS * 4),
      didx(size_t(outs) * NROWS * 4);
  dx.upload(x);
  dval.poison();
  didx.poison();
  check(k.launch(Grid{NROWS / ROWS, 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dval.get()), Arg::ptr(didx.get()),
                  Arg::i32(N), Arg::i32(NROWS)}));
  env.sync();
  auto val = dval.download<float>(size_t(outs) * NROWS);
  auto idx = didx.download<int32_t>(size_t(outs) * NROWS);
  const char *names[outs] = {
      "tl.max", "tl.max(return_indices)", "tl.argmax", "tl.min",
      "tl.min(return_indices)", "tl.argmin", "tl.max ALL",
      "tl.max(return_indices) ALL", "tl.argmax ALL", "tl.min ALL",
      "tl.min(return_indices) ALL", "tl.argmin ALL",
      "loop of tl.maximum, tl.max", "loop of tl.minimum, tl.min",
      "loop of tl.maximum ALL, tl.max ALL", "loop of tl.minimum ALL, tl.min ALL"};
  for (int r = 0; r < NROWS; ++r) {
    // The BLOCK-wide tiles the kernel reduces.
    std::vector<float> lo(BLOCK, -inf), hi(BLOCK, inf);
    for (int c = 0; c < N; ++c)
      lo[c] = hi[c] = x[size_t(r) * N + c];
    for (int o = 0; o < outs; ++o) {
      bool isMax = o < 12 ? (o % 6) < 3 : o % 2 == 0;
      bool all = o < 12 ? o >= 6 : o >= 14;
      auto [want, wantIdx] = modelReduce(isMax ? lo : hi, isMax, all);
      int kind = o < 12 ? o % 3 : 0; // 0 value, 1 value + index, 2 index
      float v = val[size_t(o) * NROWS + r];
      int32_t i = idx[size_t(o) * NROWS + r];
      if (kind != 2 && !sameValue(v, want))
        failCase(std::string(names[o]) + str(", row %ld: expected ", r) +
                 describe(floatBits(want)) + ", found " +
                 describe(floatBits(v)));
      if (kind != 0 && i != wantIdx)
        failCase(std::string(names[o]) +
                 str(", row %ld: expected index %ld, found %ld", r, wantIdx, i));
    }
  }
}

//===----------------------------------------------------------------------===//
// tl.fdiv, tl.histogram, integer masks on atomics
//===----------------------------------------------------------------------===//

/// fdiv_kernel: ieee_rounding=True bit-exact to the IEEE quotient (the CPU's
/// float division), the default within div.full.f32's 2 ulp.
void runFdiv(const Env &env, const std::string &caseName) {
  const size_t n = 100000 + 3;
  Kernel k = env.kernel("fdiv_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, n), y = randomFloats(rng, n);
  // Quotients near and at powers of two, and exact ones.
  for (size_t i = 0; i < n; i += 7)
    x[i] = y[i] * float(1 << (i % 5));
  DeviceBuffer dx(n * 4), dy(n * 4), da((n + kGuard) * 4), di((n + kGuard) * 4);
  dx.upload(x);
  dy.upload(y);
  da.poison();
  di.poison();
  check(k.launch(Grid{cdiv(n, 1024), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(da.get()),
                  Arg::ptr(di.get()), Arg::i32(int32_t(n))}));
  env.sync();
  auto approx = da.download<uint32_t>(n + kGuard);
  auto ieee = di.download<uint32_t>(n + kGuard);
  expectRange(ieee, 0, n, [&](size_t i) { return x[i] / y[i]; },
              "tl.fdiv(ieee_rounding=True) element");
  expectUntouched(ieee, n, n + kGuard, "tl.fdiv(ieee_rounding=True) guard");
  expectUntouched(approx, n, n + kGuard, "tl.fdiv guard");
  for (size_t i = 0; i < n; ++i) {
    float q = x[i] / y[i], a = bitsFloat(approx[i]);
    float ulp = std::nextafter(std::fabs(q), INFINITY) - std::fabs(q);
    if (!(std::fabs(a - q) <= 2 * ulp))
      failCase("tl.fdiv element " + std::to_string(i) + ": expected " +
               describe(floatBits(q)) + " within 2 ulp, found " +
               describe(approx[i]));
  }
}

/// bool_order_kernel: int1 orders as unsigned, as in Triton (False < True):
/// the compares and tl.maximum/minimum of two masks, and each program's
/// argmax / argmin of a sparse mask (its first True; 0 when it has none)
/// and (sum - 3) // 2 of it in uint32 (Triton's sum of a mask: it wraps),
/// on random words; n is ragged (the last program's lanes past n are False).
void runBoolOrder(const Env &env, const std::string &caseName) {
  const int BLOCK = 1024;
  const size_t n = 9 * BLOCK + 517;
  const size_t programs = cdiv(n, BLOCK);
  Kernel k = env.kernel("bool_order_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint32_t> x(n);
  for (size_t i = 0; i < n; ++i)
    x[i] = uint32_t(rng.next());
  // One block with no True in c, one whose only True is its last lane.
  for (size_t i = 2 * BLOCK; i < 3 * BLOCK; ++i)
    x[i] |= 0x10;
  for (size_t i = 3 * BLOCK; i < 4 * BLOCK - 1; ++i)
    x[i] |= 0x10;
  x[4 * BLOCK - 1] &= ~0x3FF0u;
  DeviceBuffer dx(n * 4), dout((n + 3 * programs + kGuard) * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(
      Grid{unsigned(programs), 1, 1},
      {Arg::ptr(dx.get()), Arg::ptr(dout.get()), Arg::i32(int32_t(n))}));
  env.sync();
  auto out = dout.download<uint32_t>(n + 3 * programs + kGuard);
  for (size_t i = 0; i < n; ++i) {
    bool a = x[i] & 1, b = x[i] & 2;
    uint32_t want = uint32_t(a > b) | uint32_t(a >= b) << 1 |
                    uint32_t(a < b) << 2 | uint32_t(a <= b) << 3 |
                    uint32_t(a || b) << 4 | uint32_t(a && b) << 5;
    if (out[i] != want)
      failCase("compares/maximum/minimum of masks at " + std::to_string(i) +
               ": expected " + std::to_string(want) + ", found " +
               std::to_string(out[i]));
  }
  for (size_t p = 0; p < programs; ++p) {
    uint32_t first = 0, count = 0;
    for (size_t j = 0; j < size_t(BLOCK) && p * BLOCK + j < n; ++j)
      if ((x[p * BLOCK + j] & 0x3FF0u) == 0) {
        if (count++ == 0)
          first = uint32_t(j);
      }
    for (int which = 0; which < 2; ++which)
      if (out[n + 3 * p + which] != first)
        failCase(std::string(which ? "tl.argmin(~c)" : "tl.argmax(c)") +
                 " of program " + std::to_string(p) + ": expected " +
                 std::to_string(first) + ", found " +
                 std::to_string(out[n + 3 * p + which]));
    uint32_t wantSum = (count - 3u) / 2u;
    if (out[n + 3 * p + 2] != wantSum)
      failCase("(tl.sum(c) - 3) // 2 (uint32) of program " + std::to_string(p) +
               ": expected " + std::to_string(wantSum) + ", found " +
               std::to_string(out[n + 3 * p + 2]));
  }
  expectUntouched(out, n + 3 * programs, n + 3 * programs + kGuard,
                  "bool_order guard");
}

/// int_half_kernel: integers to and from f16/bf16 (round to nearest even
/// from int32, toward zero back), against the CPU's conversions: random
/// int32 below 2^24 in magnitude (exact in float, so float's rounding to
/// f16/bf16 is the direct one; above 65504 f16 gives infinity), random
/// finite f16 truncated to int32, and int8 -> f16 -> int32 (exact); n is
/// ragged and the outputs poisoned.
void runIntHalf(const Env &env, const std::string &caseName) {
  const int BLOCK = 256;
  const size_t n = 7 * BLOCK + 61;
  Kernel k = env.kernel("int_half_kernel");
  Rng rng = env.rng(caseName);
  std::vector<int32_t> x(n);
  std::vector<uint16_t> h(n);
  for (size_t i = 0; i < n; ++i) {
    int32_t mag = int32_t(rng.next() % (1u << 24));
    // Small values often, to hit the exactly representable ones.
    if (i % 3 == 0)
      mag %= 2049;
    x[i] = (rng.next() & 1) ? -mag : mag;
    uint16_t bits;
    do
      bits = uint16_t(rng.next());
    while (((bits >> 10) & 0x1F) == 0x1F); // no infinity or NaN
    h[i] = bits;
  }
  DeviceBuffer dx(n * 4), dh(n * 2), doh((n + kGuard) * 2),
      dob((n + kGuard) * 2), di((2 * n + kGuard) * 4);
  dx.upload(x);
  dh.upload(h);
  for (DeviceBuffer *d : {&doh, &dob, &di})
    d->poison();
  check(k.launch(Grid{cdiv(n, BLOCK), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dh.get()), Arg::ptr(doh.get()),
                  Arg::ptr(dob.get()), Arg::ptr(di.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  auto oh = doh.download<uint16_t>(n + kGuard);
  auto ob = dob.download<uint16_t>(n + kGuard);
  auto oi = di.download<uint32_t>(2 * n + kGuard);
  for (size_t i = 0; i < n; ++i) {
    uint16_t wantH = floatToHalf(float(x[i]));
    uint16_t wantB = floatToBf16(float(x[i]));
    int32_t wantI = int32_t(std::trunc(halfToFloat(h[i])));
    int32_t wantI8 = int32_t(int8_t(x[i]));
    if (oh[i] != wantH)
      failCase("f16(" + std::to_string(x[i]) + "): expected bits " +
               std::to_string(wantH) + ", found " + std::to_string(oh[i]));
    if (ob[i] != wantB)
      failCase("bf16(" + std::to_string(x[i]) + "): expected bits " +
               std::to_string(wantB) + ", found " + std::to_string(ob[i]));
    if (int32_t(oi[i]) != wantI)
      failCase("int32 of f16 bits " + std::to_string(h[i]) + ": expected " +
               std::to_string(wantI) + ", found " +
               std::to_string(int32_t(oi[i])));
    if (int32_t(oi[n + i]) != wantI8)
      failCase("int8 -> f16 -> int32 of " + std::to_string(x[i]) +
               ": expected " + std::to_string(wantI8) + ", found " +
               std::to_string(int32_t(oi[n + i])));
  }
  expectUntouched(oh, n, n + kGuard, "int_half f16 guard");
  expectUntouched(ob, n, n + kGuard, "int_half bf16 guard");
  expectUntouched(oi, 2 * n, 2 * n + kGuard, "int_half int32 guard");
}

/// split_join_kernel: tl.join / tl.interleave / tl.split move int32 bit
/// patterns exactly (random words, NaN patterns as floats would have them);
/// n is ragged, so the last program's tail is masked off.
void runSplitJoin(const Env &env, const std::string &caseName) {
  const size_t n = 10000 + 7;
  Kernel k = env.kernel("split_join_kernel");
  Rng rng = env.rng(caseName);
  std::vector<uint32_t> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = uint32_t(rng.next());
    y[i] = uint32_t(rng.next() >> 7);
  }
  DeviceBuffer dx(n * 4), dy(n * 4), dj((2 * n + kGuard) * 4),
      di((2 * n + kGuard) * 4), da((n + kGuard) * 4), db((n + kGuard) * 4);
  dx.upload(x);
  dy.upload(y);
  for (DeviceBuffer *d : {&dj, &di, &da, &db})
    d->fill(0x5A);
  check(k.launch(Grid{cdiv(n, 256), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(dj.get()),
                  Arg::ptr(di.get()), Arg::ptr(da.get()), Arg::ptr(db.get()),
                  Arg::i32(int32_t(n))}));
  env.sync();
  auto j = dj.download<uint32_t>(2 * n + kGuard);
  auto il = di.download<uint32_t>(2 * n + kGuard);
  auto a = da.download<uint32_t>(n + kGuard);
  auto b = db.download<uint32_t>(n + kGuard);
  const uint32_t untouched = 0x5A5A5A5Au;
  auto expect = [&](const std::vector<uint32_t> &got, size_t count,
                    auto want, const char *what) {
    for (size_t i = 0; i < count; ++i)
      if (got[i] != want(i))
        failCase(std::string(what) + " element " + std::to_string(i) +
                 ": expected " + describe(want(i)) + ", found " +
                 describe(got[i]));
    for (size_t i = count; i < count + kGuard; ++i)
      if (got[i] != untouched)
        failCase(std::string(what) + " element " + std::to_string(i) +
                 " past the end was written");
  };
  auto pairs = [&](size_t i) { return i % 2 ? y[i / 2] : x[i / 2]; };
  expect(j, 2 * n, pairs, "tl.join");
  expect(il, 2 * n, pairs, "tl.interleave");
  expect(a, n, [&](size_t i) { return y[i]; }, "tl.split first");
  expect(b, n, [&](size_t i) { return x[i]; }, "tl.split second");
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

/// block_ptr_load_kernel (BM 16, BN 32, blocks shifted by (-3, -5)) over a
/// ragged x [M, N] with padded rows: the grid covers x plus one more block
/// row and column, so blocks cross every edge (negative offsets included)
/// and some lie wholly outside. y must hold x's element or 0, z x's
/// element or NaN (the padding), bit for bit.
void runBlockPtrLoad(const Env &env, const std::string &caseName) {
  const int BM = 16, BN = 32, SM = 3, SN = 5;
  const int M = 37, N = 71, ldx = 80;
  const int gm = (M + SM) / BM + 2, gn = (N + SN) / BN + 2;
  const int H = gm * BM, W = gn * BN;
  Kernel k = env.kernel("block_ptr_load_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, size_t(M) * ldx);
  DeviceBuffer dx(x.size() * 4), dy(size_t(H) * W * 4), dz(size_t(H) * W * 4);
  dx.upload(x);
  dy.poison();
  dz.poison();
  check(k.launch(Grid{unsigned(gm), unsigned(gn), 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dy.get()), Arg::ptr(dz.get()),
                  Arg::i32(M), Arg::i32(N), Arg::i32(ldx)}));
  env.sync();
  auto y = dy.download<uint32_t>(size_t(H) * W);
  auto z = dz.download<uint32_t>(size_t(H) * W);
  const uint32_t nanBits = floatBits(std::nanf(""));
  for (int r = 0; r < H; ++r)
    for (int c = 0; c < W; ++c) {
      int xr = (r / BM) * BM - SM + r % BM, xc = (c / BN) * BN - SN + c % BN;
      bool inside = xr >= 0 && xr < M && xc >= 0 && xc < N;
      uint32_t wantY = inside ? floatBits(x[size_t(xr) * ldx + xc]) : 0u;
      uint32_t gotY = y[size_t(r) * W + c], gotZ = z[size_t(r) * W + c];
      if (gotY != wantY)
        failCase(str("zero padding: y[%ld][%ld] (x[%ld][%ld])", r, c, xr, xc) +
                 ": expected " + describe(wantY) + ", found " + describe(gotY));
      bool zOk = inside ? gotZ == wantY : std::isnan(bitsFloat(gotZ));
      if (!zOk)
        failCase(str("nan padding: z[%ld][%ld] (x[%ld][%ld])", r, c, xr, xc) +
                 ": expected " + describe(inside ? wantY : nanBits) +
                 ", found " + describe(gotZ));
    }
}

/// block_ptr_store_kernel: out [M, N] (rows ld apart) = x + 1 through a
/// block pointer with boundary_check=(0, 1): the grid's blocks past M and N
/// are dropped, the padding columns and the rows past M keep the poison.
void runBlockPtrStore(const Env &env, const std::string &caseName) {
  const int BM = 16, BN = 32, M = 45, N = 67, ld = 72;
  const int gm = (M + BM - 1) / BM, gn = (N + BN - 1) / BN;
  const int H = gm * BM, W = gn * BN;
  Kernel k = env.kernel("block_ptr_store_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, size_t(H) * W);
  const size_t outElems = size_t(M + 2) * ld;
  DeviceBuffer dx(x.size() * 4), dout(outElems * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(Grid{unsigned(gm), unsigned(gn), 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dout.get()), Arg::i32(M),
                  Arg::i32(N), Arg::i32(ld)}));
  env.sync();
  auto out = dout.download<uint32_t>(outElems);
  for (int r = 0; r < M + 2; ++r)
    for (int c = 0; c < ld; ++c) {
      uint32_t want =
          r < M && c < N ? floatBits(x[size_t(r) * W + c] + 1.0f) : kPoison32;
      if (out[size_t(r) * ld + c] != want)
        failCase(str("out[%ld][%ld]", r, c) + ": expected " + describe(want) +
                 ", found " + describe(out[size_t(r) * ld + c]));
    }
}

/// block_ptr_rowsum_kernel: row sums of x [M, N] (small integers, so any
/// order of the adds is exact) by a block pointer advanced in a for loop
/// and by a transposed one walked backwards in a while loop; M and N
/// ragged (the last blocks cross both edges); 16 guard elements past M.
void runBlockPtrRowsum(const Env &env, const std::string &caseName) {
  const int BM = 16, M = 83, N = 101, ld = 104;
  Kernel k = env.kernel("block_ptr_rowsum_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x(size_t(M) * ld);
  for (float &v : x)
    v = float(int(rng.next() % 17) - 8);
  DeviceBuffer dx(x.size() * 4), ds((M + 16) * 4), dc((M + 16) * 4);
  dx.upload(x);
  ds.poison();
  dc.poison();
  check(k.launch(Grid{unsigned((M + BM - 1) / BM), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(ds.get()), Arg::ptr(dc.get()),
                  Arg::i32(M), Arg::i32(N), Arg::i32(ld)}));
  env.sync();
  auto s = ds.download<uint32_t>(M + 16);
  auto c = dc.download<uint32_t>(M + 16);
  for (int r = 0; r < M + 16; ++r) {
    float sum = 0;
    for (int j = 0; j < N && r < M; ++j)
      sum += x[size_t(r) * ld + j];
    uint32_t want = r < M ? floatBits(sum) : kPoison32;
    if (s[r] != want)
      failCase(str("for loop: row %ld", r) + ": expected " + describe(want) +
               ", found " + describe(s[r]));
    if (c[r] != want)
      failCase(str("while loop, transposed: row %ld", r) + ": expected " +
               describe(want) + ", found " + describe(c[r]));
  }
}

/// standard_kernel (B = 256): tl.flip (1-D; a 4 x 64 view along each
/// dimension) and tl.ravel move bit patterns exactly; tl.cat(x, 2x) is x
/// then 2x; tl.softmax against a float64 model (tl.exp and the default
/// fdiv are approximate: rtol 1e-5).
void runStandard(const Env &env, const std::string &caseName) {
  const int B = 256;
  Kernel k = env.kernel("standard_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, B);
  DeviceBuffer dx(B * 4), dout((6 * B + kGuard) * 4);
  dx.upload(x);
  dout.poison();
  check(k.launch(Grid{1, 1, 1}, {Arg::ptr(dx.get()), Arg::ptr(dout.get())}));
  env.sync();
  auto out = dout.download<float>(6 * B + kGuard);
  auto exact = [&](size_t at, float want, const char *what) {
    if (floatBits(out[at]) != floatBits(want))
      failCase(std::string(what) + str(" [%ld]", long(at)) + ": expected " +
               describe(floatBits(want)) + ", found " +
               describe(floatBits(out[at])));
  };
  double mx = -INFINITY, den = 0;
  for (float v : x)
    mx = std::max(mx, double(v));
  for (float v : x)
    den += std::exp(double(v) - mx);
  for (int i = 0; i < B; ++i) {
    exact(i, x[B - 1 - i], "flip");
    double want = std::exp(double(x[i]) - mx) / den;
    if (std::fabs(out[B + i] - want) > 1e-5 * want + 1e-9)
      failCase(str("softmax [%ld]: expected ", i) + std::to_string(want) +
               ", found " + std::to_string(out[B + i]));
    exact(2 * B + i, x[i], "cat first");
    exact(3 * B + i, x[i] * 2, "cat second");
    int r = i / (B / 4), c = i % (B / 4);
    exact(4 * B + i, x[(3 - r) * (B / 4) + c], "flip dim 0");
    exact(5 * B + i, x[r * (B / 4) + (B / 4 - 1 - c)], "flip dim 1");
  }
  for (int i = 6 * B; i < 6 * B + int(kGuard); ++i)
    if (floatBits(out[i]) != kPoison32)
      failCase(str("element %ld past the end was written", i));
}

/// sort_kernel (ROWS = 4, N = 64, K = 8): each row of random floats (with
/// repeats, +-0 and both infinities) sorted ascending and descending, its
/// 8 largest in order, and 256 int32 values (repeats, INT32_MIN/MAX)
/// sorted as int32 ascending and as uint32 descending, against std::sort.
/// Sorting moves values, so results compare bit for bit (-0 and +0 compare
/// equal: either order is a sort, so they compare by value).
void runSort(const Env &env, const std::string &caseName) {
  const int R = 4, N = 64, K = 8, RN = R * N;
  Kernel k = env.kernel("sort_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> x = randomFloats(rng, RN);
  for (int i = 0; i < RN; i += 7)
    x[i] = x[(i * 13) % RN]; // repeats
  x[5] = 0.0f, x[6] = -0.0f, x[70] = INFINITY, x[71] = -INFINITY;
  std::vector<int32_t> v(RN);
  for (int32_t &e : v)
    e = int32_t(rng.next() >> 32);
  for (int i = 0; i < RN; i += 5)
    v[i] = int32_t(rng.next() % 7) - 3; // small repeats around 0
  v[1] = INT32_MIN, v[2] = INT32_MAX;
  DeviceBuffer dx(RN * 4), dv(RN * 4);
  DeviceBuffer dout((2 * RN + R * K + kGuard) * 4), diout((2 * RN + kGuard) * 4);
  dx.upload(x);
  dv.upload(v);
  dout.poison();
  diout.poison();
  check(k.launch(Grid{1, 1, 1}, {Arg::ptr(dx.get()), Arg::ptr(dv.get()),
                                 Arg::ptr(dout.get()), Arg::ptr(diout.get())}));
  env.sync();
  auto out = dout.download<float>(2 * RN + R * K + kGuard);
  auto iout = diout.download<int32_t>(2 * RN + kGuard);
  auto same = [](float a, float b) {
    return a == b || floatBits(a) == floatBits(b);
  };
  for (int r = 0; r < R; ++r) {
    std::vector<float> row(x.begin() + r * N, x.begin() + (r + 1) * N);
    std::vector<float> up = row, down = row;
    std::sort(up.begin(), up.end());
    std::sort(down.begin(), down.end(), std::greater<float>());
    for (int c = 0; c < N; ++c) {
      if (!same(out[r * N + c], up[c]))
        failCase(str("sort row %d [%d]: expected ", r, c) +
                 std::to_string(up[c]) + ", found " +
                 std::to_string(out[r * N + c]));
      if (!same(out[RN + r * N + c], down[c]))
        failCase(str("sort descending row %d [%d]: expected ", r, c) +
                 std::to_string(down[c]) + ", found " +
                 std::to_string(out[RN + r * N + c]));
    }
    for (int c = 0; c < K; ++c)
      if (!same(out[2 * RN + r * K + c], down[c]))
        failCase(str("topk row %d [%d]: expected ", r, c) +
                 std::to_string(down[c]) + ", found " +
                 std::to_string(out[2 * RN + r * K + c]));
  }
  std::vector<int32_t> up = v;
  std::sort(up.begin(), up.end());
  std::vector<uint32_t> down(v.begin(), v.end());
  std::sort(down.begin(), down.end(), std::greater<uint32_t>());
  for (int i = 0; i < RN; ++i) {
    if (iout[i] != up[i])
      failCase(str("int32 sort [%d]: expected %d, found %d", i, up[i],
                   iout[i]));
    if (uint32_t(iout[RN + i]) != down[i])
      failCase(str("uint32 sort descending [%d]: expected %u, found %u", i,
                   down[i], uint32_t(iout[RN + i])));
  }
  for (int i = 2 * RN + R * K; i < 2 * RN + R * K + int(kGuard); ++i)
    if (floatBits(out[i]) != kPoison32)
      failCase(str("float element %d past the end was written", i));
  for (int i = 2 * RN; i < 2 * RN + int(kGuard); ++i)
    if (uint32_t(iout[i]) != kPoison32)
      failCase(str("int element %d past the end was written", i));
}

/// inline_asm_kernel (`file`, BLOCK elements per program) on a ragged n:
/// `shl`/`add` on int32 with a constant argument (not pure); four uint8
/// per asm register, XORed with 0x5A and widened to int32 (two results);
/// two fp16 per register added to themselves. All exact; elements past n
/// and the guards keep the poison.
void runInlineAsm(const Env &env, const std::string &file, int BLOCK,
                  const std::string &caseName) {
  const size_t n = 5000 + 37;
  Kernel k = env.kernel(file, "inline_asm_kernel");
  Rng rng = env.rng(caseName);
  std::vector<int32_t> x(n);
  std::vector<uint8_t> b(n);
  std::vector<uint16_t> h(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = int32_t(uint32_t(rng.next()));
    b[i] = uint8_t(rng.next());
    h[i] = floatToHalf(rng.value());
  }
  const size_t total = n + kGuard;
  DeviceBuffer dx(n * 4), db(n), dh(n * 2), dy(total * 4), dbx(total),
      dbw(total * 4), dh2(total * 2);
  dx.upload(x);
  db.upload(b);
  dh.upload(h);
  for (DeviceBuffer *out : {&dy, &dbx, &dbw, &dh2})
    out->poison();
  check(k.launch(Grid{cdiv(n, BLOCK), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(db.get()), Arg::ptr(dh.get()),
                  Arg::ptr(dy.get()), Arg::ptr(dbx.get()), Arg::ptr(dbw.get()),
                  Arg::ptr(dh2.get()), Arg::i32(int32_t(n))}));
  env.sync();
  auto y = dy.download<uint32_t>(total);
  auto bx = dbx.download<uint8_t>(total);
  auto bw = dbw.download<uint32_t>(total);
  auto h2 = dh2.download<uint16_t>(total);
  auto mismatch = [](const char *what, size_t i, long want, long found) {
    failCase(std::string(what) + str(" [%ld]: expected 0x%lx, found 0x%lx",
                                     long(i), want, found));
  };
  for (size_t i = 0; i < total; ++i) {
    bool valid = i < n;
    uint32_t wy = valid ? (uint32_t(x[i]) << 3) + 7u : kPoison32;
    uint8_t wbx = valid ? uint8_t(b[i] ^ 0x5A) : 0xFF;
    uint32_t wbw = valid ? uint32_t(b[i]) : kPoison32;
    uint16_t wh2 =
        valid ? floatToHalf(2.0f * halfToFloat(h[i])) : uint16_t(0xFFFF);
    if (y[i] != wy)
      mismatch("shl/add int32", i, long(wy), long(y[i]));
    if (bx[i] != wbx)
      mismatch("uint8 xor (pack 4)", i, long(wbx), long(bx[i]));
    if (bw[i] != wbw)
      mismatch("uint8 widened (pack 4)", i, long(wbw), long(bw[i]));
    if (h2[i] != wh2)
      mismatch("fp16 add.rn.f16x2 (pack 2)", i, long(wh2), long(h2[i]));
  }
}

/// histogram_kernel (BLOCK values per program, BINS bins, counts summed
/// over the programs by atomic_add with an integer mask) on values in
/// [-40, 100]: the model bins a value by its low bits, log2(max(BINS, 32))
/// of them, and drops it when that bin is BINS or more; elements past n are
/// masked off.
void runHistogram(const Env &env, const std::string &file, int BLOCK,
                  int BINS, const std::string &caseName) {
  const size_t n = 50000 + 11;
  Kernel k = env.kernel(file, "histogram_kernel");
  Rng rng = env.rng(caseName);
  std::vector<int32_t> x(n);
  for (int32_t &v : x)
    v = int32_t(rng.next() % 141) - 40;
  std::vector<int64_t> want(BINS, 0);
  int32_t window = std::max(BINS, 32);
  for (int32_t v : x) {
    int32_t bin = v & (window - 1);
    if (bin < BINS)
      ++want[bin];
  }
  std::vector<int32_t> zeros(BINS + kGuard, 0);
  DeviceBuffer dx(n * 4), dh((BINS + kGuard) * 4);
  dx.upload(x);
  dh.upload(zeros);
  check(k.launch(Grid{cdiv(n, BLOCK), 1, 1},
                 {Arg::ptr(dx.get()), Arg::ptr(dh.get()), Arg::i32(int32_t(n))}));
  env.sync();
  auto h = dh.download<int32_t>(BINS + kGuard);
  for (int i = 0; i < BINS + int(kGuard); ++i) {
    int64_t w = i < BINS ? want[i] : 0;
    if (h[i] != w)
      failCase(str("tl.histogram bin %ld: expected %ld, found %ld", i, w, h[i]));
  }
}

/// gather_kernel (`file`; src M x N per program, idx0 int32 K0 x N along
/// axis 0, idx1 int64 M x K1 along axis 1) over 3 programs. Indices are
/// random in [0, n) (n = the source's size along the axis), except about
/// one in eight out of range: negative, n or past it, and (int64) values
/// past 2^32 whose low word is in range. tilec clamps those (tile.gather:
/// umin(index, n - 1), Triton leaves them undefined), so the model reads
/// element n - 1 for them. Bit-exact.
void runGather(const Env &env, const std::string &file, int M, int N, int K0,
               int K1, const std::string &caseName) {
  const int P = 3;
  Kernel k = env.kernel(file, "gather_kernel");
  Rng rng = env.rng(caseName);
  std::vector<float> src = randomFloats(rng, size_t(P) * M * N);
  auto pick = [&](int64_t n) -> int64_t {
    uint64_t r = rng.next();
    switch (r % 16) {
    case 0:
      return -1 - int64_t(r >> 8) % 100; // negative
    case 1:
      return n + int64_t(r >> 8) % 100; // n or past it
    default:
      return int64_t(r >> 8) % n;
    }
  };
  auto clamp = [](int64_t i, int64_t n) {
    return i >= 0 && i < n ? i : n - 1;
  };
  std::vector<int32_t> idx0(size_t(P) * K0 * N);
  for (int32_t &i : idx0)
    i = int32_t(pick(M));
  std::vector<int64_t> idx1(size_t(P) * M * K1);
  for (size_t e = 0; e < idx1.size(); ++e)
    idx1[e] = e % 29 == 7 ? (int64_t(1) << 32) + (e % N) : pick(N);
  size_t n0 = idx0.size(), n1 = idx1.size();
  DeviceBuffer dsrc(src.size() * 4), di0(n0 * 4), di1(n1 * 8),
      dout0((n0 + kGuard) * 4), dout1((n1 + kGuard) * 4);
  dsrc.upload(src);
  di0.upload(idx0);
  di1.upload(idx1);
  dout0.poison();
  dout1.poison();
  check(k.launch(Grid{P, 1, 1},
                 {Arg::ptr(dsrc.get()), Arg::ptr(di0.get()),
                  Arg::ptr(di1.get()), Arg::ptr(dout0.get()),
                  Arg::ptr(dout1.get())}));
  env.sync();
  auto out0 = dout0.download<float>(n0 + kGuard);
  auto out1 = dout1.download<float>(n1 + kGuard);
  for (int p = 0; p < P; ++p) {
    const float *s = src.data() + size_t(p) * M * N;
    for (int r = 0; r < K0; ++r)
      for (int c = 0; c < N; ++c) {
        size_t e = (size_t(p) * K0 + r) * N + c;
        float want = s[clamp(idx0[e], M) * N + c];
        if (floatBits(out0[e]) != floatBits(want))
          failCase(str("axis 0: program %ld [%ld, %ld] (index %ld)", p, r, c,
                       idx0[e]) +
                   ": expected " + describe(floatBits(want)) + ", found " +
                   describe(floatBits(out0[e])));
      }
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < K1; ++c) {
        size_t e = (size_t(p) * M + r) * K1 + c;
        float want = s[r * N + clamp(idx1[e], N)];
        if (floatBits(out1[e]) != floatBits(want))
          failCase(str("axis 1: program %ld [%ld, %ld] (index %ld)", p, r, c,
                       long(idx1[e])) +
                   ": expected " + describe(floatBits(want)) + ", found " +
                   describe(floatBits(out1[e])));
      }
  }
  for (size_t i = n0; i < n0 + kGuard; ++i)
    if (floatBits(out0[i]) != kPoison32)
      failCase(str("axis 0: element %ld past the end was written", long(i)));
  for (size_t i = n1; i < n1 + kGuard; ++i)
    if (floatBits(out1[i]) != kPoison32)
      failCase(str("axis 1: element %ld past the end was written", long(i)));
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

/// desc_copy_kernel (`file`): dst[i, j] = 2 * src[i + offM, j + offN] + 1
/// over a [DM, DN] dst, src [M, N]; src elements outside it read as 0 (NaN
/// with `nan`), dst elements outside [DM, DN] (row padding, past the end)
/// keep the poison. Buffers end where the tensors end (memcheck sees any
/// read or write past them); src's row padding holds NaN bits, so a
/// masked-off element that is read anyway shows.
void runDescCopy(const Env &env, const std::string &caseName,
                 const std::string &file, int bm, int bn, bool nan) {
  Kernel k = env.kernel(file, "desc_copy_kernel");
  Rng rng = env.rng(caseName);
  const int M = 75, N = 130, ldS = 136, DM = 83, DN = 101, ldD = 108;
  std::vector<float> src(size_t(M) * ldS, bitsFloat(kPoison32));
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      src[size_t(r) * ldS + c] = rng.value();
  DeviceBuffer dS(src.size() * 4), dD((size_t(DM) * ldD + kGuard) * 4);
  dS.upload(src);
  for (auto [offM, offN] : {std::pair{0, 0}, {-5, -17}, {9, 40}, {-100, 0},
                            {0, 200}, {74, 129}, {-31, 63}}) {
    dD.poison();
    check(k.launch(Grid{cdiv(DM, bm), cdiv(DN, bn), 1},
                   {Arg::ptr(dS.get()), Arg::ptr(dD.get()), Arg::i32(M),
                    Arg::i32(N), Arg::i32(ldS), Arg::i32(ldD), Arg::i32(DM),
                    Arg::i32(DN), Arg::i32(offM), Arg::i32(offN)}));
    env.sync();
    std::vector<uint32_t> d = dD.download<uint32_t>(size_t(DM) * ldD + kGuard);
    std::string where = " (offsets " + std::to_string(offM) + ", " +
                        std::to_string(offN) + ")";
    for (int r = 0; r < DM; ++r)
      for (int c = 0; c < ldD; ++c) {
        uint32_t got = d[size_t(r) * ldD + c];
        std::string at = "dst(" + std::to_string(r) + ", " + std::to_string(c) +
                         ")" + where;
        if (c >= DN) {
          if (got != kPoison32)
            failCase(at + ", row padding, was written: found " + describe(got));
          continue;
        }
        int sr = r + offM, sc = c + offN;
        bool inside = sr >= 0 && sr < M && sc >= 0 && sc < N;
        if (!inside && nan) {
          if (!std::isnan(bitsFloat(got)) || got == kPoison32)
            failCase(at + ": expected NaN padding, found " + describe(got) +
                     (got == kPoison32 ? " (never written)" : ""));
          continue;
        }
        float x = inside ? src[size_t(sr) * ldS + sc] : 0.0f;
        uint32_t want = floatBits(2.0f * x + 1.0f);
        if (got != want)
          failCase(at + ": expected " + describe(want) + ", found " +
                   describe(got) + (got == kPoison32 ? " (never written)" : ""));
      }
    expectUntouched(d, size_t(DM) * ldD, size_t(DM) * ldD + kGuard,
                    "element past dst");
  }
}

/// desc_copy3d_kernel: dst[b, i, j] = src[b, i, j] + b over [B, M, N] with
/// 2 x 8 x 32 boxes, ragged in every dimension, padded strides.
void runDescCopy3d(const Env &env, const std::string &caseName) {
  Kernel k = env.kernel("desc_copy3d_kernel");
  Rng rng = env.rng(caseName);
  const int B = 5, M = 19, N = 70, s1 = 76, s0 = M * s1 + 4, d1 = 72,
            d0 = M * d1 + 8;
  std::vector<float> src(size_t(B) * s0, bitsFloat(kPoison32));
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j)
        src[size_t(b) * s0 + size_t(i) * s1 + j] = rng.value();
  size_t dstElems = size_t(B) * d0;
  DeviceBuffer dS(src.size() * 4), dD((dstElems + kGuard) * 4);
  dS.upload(src);
  dD.poison();
  check(k.launch(Grid{cdiv(B, 2), cdiv(M, 8), cdiv(N, 32)},
                 {Arg::ptr(dS.get()), Arg::ptr(dD.get()), Arg::i32(B),
                  Arg::i32(M), Arg::i32(N), Arg::i32(s0), Arg::i32(s1),
                  Arg::i32(d0), Arg::i32(d1)}));
  env.sync();
  std::vector<uint32_t> d = dD.download<uint32_t>(dstElems + kGuard);
  for (size_t o = 0; o < dstElems; ++o) {
    int b = int(o / d0), rest = int(o % d0), i = rest / d1, j = rest % d1;
    std::string at = "dst(" + std::to_string(b) + ", " + std::to_string(i) +
                     ", " + std::to_string(j) + ")";
    if (i >= M || j >= N) {
      if (d[o] != kPoison32)
        failCase(at + ", padding, was written: found " + describe(d[o]));
      continue;
    }
    uint32_t want =
        floatBits(src[size_t(b) * s0 + size_t(i) * s1 + j] + float(b));
    if (d[o] != want)
      failCase(at + ": expected " + describe(want) + ", found " +
               describe(d[o]));
  }
  expectUntouched(d, dstElems, dstElems + kGuard, "element past dst");
}

/// desc_arg_copy_kernel: the copy of runDescCopy through host-side
/// descriptors (fp32 src in 32 x 64 boxes, fp16 dst), passed as
/// Arg::tensorDesc: dst[i, j] = fp16(2 * src[i + offM, j + offN] + 1) over
/// [DM, DN]; row padding and the bytes past dst keep the poison.
void runDescArgCopy(const Env &env, const std::string &caseName,
                    const std::string &file = "desc_arg_copy_kernel") {
  Kernel k = env.kernel(file, "desc_arg_copy_kernel");
  Rng rng = env.rng(caseName);
  // Row strides: 16-byte multiples (544 and 224 bytes), as TMA requires.
  const int M = 75, N = 130, ldS = 136, DM = 83, DN = 101, ldD = 112;
  std::vector<float> src(size_t(M) * ldS, bitsFloat(kPoison32));
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      src[size_t(r) * ldS + c] = rng.value();
  size_t dstElems = size_t(DM) * ldD;
  DeviceBuffer dS(src.size() * 4), dD((dstElems + kGuard) * 2);
  dS.upload(src);
  TensorDesc srcDesc = rowMajorDesc(dS.get(), M, N, ldS),
             dstDesc = rowMajorDesc(dD.get(), DM, DN, ldD);
  for (auto [offM, offN] :
       {std::pair{0, 0}, {-5, -17}, {9, 40}, {-100, 0}, {74, 129}}) {
    dD.poison();
    check(k.launch(Grid{cdiv(DM, 32), cdiv(DN, 64), 1},
                   {Arg::tensorDesc(&srcDesc), Arg::tensorDesc(&dstDesc),
                    Arg::i32(offM), Arg::i32(offN)}));
    env.sync();
    std::vector<uint16_t> d = dD.download<uint16_t>(dstElems + kGuard);
    std::string where = " (offsets " + std::to_string(offM) + ", " +
                        std::to_string(offN) + ")";
    for (int r = 0; r < DM; ++r)
      for (int c = 0; c < ldD; ++c) {
        uint16_t got = d[size_t(r) * ldD + c];
        std::string at = "dst(" + std::to_string(r) + ", " + std::to_string(c) +
                         ")" + where;
        if (c >= DN) {
          if (got != 0xFFFF)
            failCase(at + ", row padding, was written: found " +
                     std::to_string(got));
          continue;
        }
        int sr = r + offM, sc = c + offN;
        bool inside = sr >= 0 && sr < M && sc >= 0 && sc < N;
        float x = inside ? src[size_t(sr) * ldS + sc] : 0.0f;
        uint16_t want = floatToHalf(2.0f * x + 1.0f);
        if (got != want)
          failCase(at + ": expected fp16 bits " + std::to_string(want) +
                   ", found " + std::to_string(got) +
                   (got == 0xFFFF ? " (never written)" : ""));
      }
    for (size_t o = dstElems; o < dstElems + kGuard; ++o)
      if (d[o] != 0xFFFF)
        failCase("element " + std::to_string(o) + " past dst was written" +
                 where);
  }
  // A descriptor the launch must refuse (a row stride of 130 floats is 520
  // bytes, not a multiple of 16): an error naming the argument, no launch.
  TensorDesc bad = rowMajorDesc(dS.get(), M, N, 130);
  Status s = k.launch(Grid{1, 1, 1}, {Arg::tensorDesc(&bad),
                                      Arg::tensorDesc(&dstDesc), Arg::i32(0),
                                      Arg::i32(0)});
  if (s.ok() || s.message().find("argument 0") == std::string::npos ||
      s.message().find("multiple of 16 bytes") == std::string::npos)
    failCase("a descriptor with a 520-byte stride: expected a refusal naming "
             "argument 0, found " +
             (s.ok() ? std::string("success") : s.message()));
}

} // namespace

void tilec::gputest::addSemanticsCases(std::vector<TestCase> &cases) {
  cases.push_back({"desc_copy_kernel/zero padding", false, true,
                   [](const Env &e) {
                     runDescCopy(e, "desc_copy_kernel/zero padding",
                                 "desc_copy_kernel", 32, 64, false);
                   }});
  cases.push_back({"desc_copy_kernel_tma/launch map, TMA stores", false, true,
                   [](const Env &e) {
                     runDescCopy(e, "desc_copy_kernel_tma/launch map, TMA stores",
                                 "desc_copy_kernel_tma", 32, 64, false);
                   }});
  cases.push_back({"desc_copy_nan_kernel/nan padding", false, true,
                   [](const Env &e) {
                     runDescCopy(e, "desc_copy_nan_kernel/nan padding",
                                 "desc_copy_nan_kernel", 16, 32, true);
                   }});
  cases.push_back({"desc_copy3d_kernel/ragged 3-D", false, true,
                   [](const Env &e) {
                     runDescCopy3d(e, "desc_copy3d_kernel/ragged 3-D");
                   }});
  cases.push_back({"desc_arg_copy_kernel/host descriptors", false, true,
                   [](const Env &e) {
                     runDescArgCopy(e, "desc_arg_copy_kernel/host descriptors");
                   }});
  // The same with --tma: the store is a TMA store (boxes clipped at dst's
  // edges), the load outside a loop a masked load.
  cases.push_back({"desc_arg_copy_kernel_tma/TMA store", false, true,
                   [](const Env &e) {
                     runDescArgCopy(e, "desc_arg_copy_kernel_tma/TMA store",
                                    "desc_arg_copy_kernel_tma");
                   }});
  // R x C tiles on 1, 4 and 8 warps: replicas in lanes (shuffles), in
  // registers and lanes, and across warps (shared memory).
  struct Replicated {
    const char *file;
    int R, C, warps;
  };
  for (Replicated c : {Replicated{"replicated_atomics_r1_w1", 1, 8, 1},
                       Replicated{"replicated_atomics_r1_w4", 1, 8, 4},
                       Replicated{"replicated_atomics_r4_w4", 4, 8, 4},
                       Replicated{"replicated_atomics_r8_w8", 8, 16, 8},
                       Replicated{"replicated_atomics_r8_w1", 8, 4, 1}}) {
    // Named after their kernel file (run.sh --only selects by it).
    std::string name = std::string(c.file) + "/replicated results R=" +
                       std::to_string(c.R) + " C=" + std::to_string(c.C) +
                       " " + std::to_string(c.warps) + " warps";
    cases.push_back({name, false, true, [c](const Env &e) {
                       runReplicatedAtomics(e, c.file, c.R, c.C);
                     }});
  }
  for (int warps : {1, 4, 8}) {
    std::string file = "nan_reductions_w" + std::to_string(warps);
    std::string name = file + "/max min argmax argmin under NaN (NONE ALL) " +
                       std::to_string(warps) + " warps";
    cases.push_back({name, false, true, [file, name](const Env &e) {
                       runNanReductions(e, file, name);
                     }});
  }
  cases.push_back({"fdiv_kernel/ieee_rounding False True", false, true,
                   [](const Env &e) { runFdiv(e, "fdiv"); }});
  cases.push_back({"bool_order_kernel/int1 compares, maximum, argmax", false,
                   true, [](const Env &e) { runBoolOrder(e, "bool_order"); }});
  cases.push_back({"int_half_kernel/integers to and from f16, bf16", false,
                   true, [](const Env &e) { runIntHalf(e, "int_half"); }});
  cases.push_back({"split_join_kernel/join interleave split", false, true,
                   [](const Env &e) { runSplitJoin(e, "split_join"); }});
  cases.push_back({"block_ptr_load_kernel/every edge, zero and nan padding",
                   false, true,
                   [](const Env &e) { runBlockPtrLoad(e, "block_ptr_load"); }});
  cases.push_back(
      {"block_ptr_store_kernel/boundary_check (0, 1)", false, true,
       [](const Env &e) { runBlockPtrStore(e, "block_ptr_store"); }});
  cases.push_back(
      {"block_ptr_rowsum_kernel/advance in for and while loops", false, true,
       [](const Env &e) { runBlockPtrRowsum(e, "block_ptr_rowsum"); }});
  cases.push_back({"standard_kernel/flip softmax cat ravel", false, true,
                   [](const Env &e) { runStandard(e, "standard"); }});
  cases.push_back({"sort_kernel/sort topk: rows, int32, uint32", false, true,
                   [](const Env &e) { runSort(e, "sort"); }});
  struct Gather {
    const char *file;
    int M, N, K0, K1, warps;
  };
  for (Gather g : {Gather{"gather_m32_n64_w4", 32, 64, 16, 128, 4},
                   Gather{"gather_m8_n16_w8", 8, 16, 32, 4, 8}}) {
    std::string name = std::string(g.file) + "/axis 0 and 1, M=" +
                       std::to_string(g.M) + " N=" + std::to_string(g.N) +
                       " " + std::to_string(g.warps) +
                       " warps (out-of-range indices clamped)";
    cases.push_back({name, false, true, [g, name](const Env &e) {
                       runGather(e, g.file, g.M, g.N, g.K0, g.K1, name);
                     }});
  }
  for (auto [file, block] : {std::pair<const char *, int>{
                                 "inline_asm_b1024_w4", 1024},
                             {"inline_asm_b64_w4", 64}}) {
    std::string name = std::string(file) +
                       "/shl add int32, uint8 pack 4, fp16 pack 2 (BLOCK=" +
                       std::to_string(block) + ")";
    std::string f = file;
    cases.push_back({name, false, true, [f, block, name](const Env &e) {
                       runInlineAsm(e, f, block, name);
                     }});
  }
  struct Hist {
    const char *file;
    int block, bins, warps;
  };
  for (Hist h : {Hist{"histogram_b1024_n64_w4", 1024, 64, 4},
                 Hist{"histogram_b128_n16_w8", 128, 16, 8},
                 Hist{"histogram_b64_n128_w1", 64, 128, 1}}) {
    std::string name = std::string(h.file) + "/BLOCK=" +
                       std::to_string(h.block) + " bins=" +
                       std::to_string(h.bins) + " " + std::to_string(h.warps) +
                       " warps (atomic int mask)";
    cases.push_back({name, false, true, [h, name](const Env &e) {
                       runHistogram(e, h.file, h.block, h.bins, name);
                     }});
  }
}
