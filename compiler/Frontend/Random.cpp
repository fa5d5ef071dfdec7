//===- Random.cpp - tl.randint & co.: Triton's Philox generator -*- C++ -*-===//
//
// The random-number functions of triton.language with Triton 3.6's
// semantics (python/triton/language/random.py): `philox_impl`, `philox`,
// `randint`, `randint4x`, `rand`, `rand4x`, `randn`, `randn4x`,
// `uint_to_uniform_float` and `pair_uniform_to_normal`, each with Triton's
// parameter names and `n_rounds` (a compile-time integer, default 10).
//
// The generator is Philox-4x32 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC'11), or Philox-4x64 when `tl.philox` is
// given 64-bit counters: per round, with multipliers M0, M1 and key (k0, k1)
//
//   (c0, c1, c2, c3) <- (hi(M1 * c2) ^ c1 ^ k0, lo(M1 * c2),
//                        hi(M0 * c0) ^ c3 ^ k1, lo(M0 * c0))
//
// and the key raised by the Weyl constants (W0, W1) between rounds. The
// counter of `randint4x(seed, offset)` is (offset_lo, offset_hi, 0, 0) and
// the key (seed_lo, seed_hi) of the seed widened to uint64; a 32-bit offset
// has offset_hi = 0, a 64-bit one is split into its halves (Triton 3.6
// always runs 32-bit Philox in randint4x). The results are uint32 tiles.
//
// Everything is built from the front end's own operations on PyValues
// (binary, castValue, promote, tl.log, ...), so promotion, broadcasting,
// unsigned semantics and constant typing are exactly those the same Python
// would get; the rounds are unrolled (Triton's tl.static_range) into
// `arith.mului_extended` for the high halves and `arith.muli` for the low
// ones (mul.hi.u32 and mul.lo.s32 in PTX), `xori` and
// `addi`. Two rewrites keep the IR small with identical bits: the key raise
// after the last round (dead) is not emitted, and uint_to_uniform_float's
// `where(x < 0, -x - 1, x)` is `x ^ (x >> 31)` (both are ~x for negative x).
//
// Errors are located at the call: a seed or offset that is not an integer
// (Triton's static_assert on the seed; a float offset, which Triton 3.6
// would convert with `.to(tl.uint32)`, is refused as the mistake it almost
// surely is), an `n_rounds` that is not a non-negative compile-time integer,
// counters that are neither 32- nor 64-bit.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSet.h"

#include <array>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::BinOpKind;
using tilec::py::SourceLoc;

bool frontend::isRandomFunction(llvm::StringRef name) {
  static const llvm::StringSet<> names = {
      "philox_impl", "philox",  "randint", "randint4x",
      "rand",        "rand4x",  "randn",   "randn4x",
      "uint_to_uniform_float",  "pair_uniform_to_normal"};
  return names.contains(name);
}

namespace {

/// Triton 3.6's default number of Philox rounds (N_ROUNDS_DEFAULT).
constexpr int64_t kDefaultRounds = 10;

/// Philox constants (Random123's PHILOX_M4xW_0/1 multipliers and
/// PHILOX_W{32,64}_0/1 Weyl key increments), as Triton's philox_impl.
struct PhiloxConstants {
  uint64_t roundA, roundB, keyA, keyB;
};
constexpr PhiloxConstants kPhilox32 = {0xD2511F53u, 0xCD9E8D57u, 0x9E3779B9u,
                                       0xBB67AE85u};
constexpr PhiloxConstants kPhilox64 = {
    0xD2E7470EE14C6C93ull, 0xCA5A826395121157ull, 0x9E3779B97F4A7C15ull,
    0xBB67AE8584CAA73Bull};

using Quad = std::array<PyValue, 4>;

/// Emits one call's worth of random-number code at one location, through
/// the code generator's PyValue operations.
class RandomEmitter {
public:
  RandomEmitter(CodeGen &g, SourceLoc l, StringRef fname)
      : g(g), l(l), fname(fname) {}

  Type u32() { return IntegerType::get(g.ctx, 32, IntegerType::Unsigned); }
  Type u64() { return IntegerType::get(g.ctx, 64, IntegerType::Unsigned); }

  FailureOr<PyValue> bin(BinOpKind op, const PyValue &x, const PyValue &y) {
    return g.binary(op, x, y, l);
  }
  FailureOr<PyValue> call(const std::string &fn, std::vector<PyValue> args) {
    CallArgs a;
    a.args = std::move(args);
    return g.callBuiltin(fn, a, l);
  }
  FailureOr<PyValue> convert(const PyValue &v, Type to, bool bitcast = false) {
    return g.castValue(v, to, l, bitcast);
  }

  /// The bit width of `v`'s elements (a Python int: Triton's to_tensor
  /// type); 0 for pointers and other non-numbers.
  unsigned widthOf(const PyValue &v) {
    Type t = g.elementTypeOf(v);
    return t && t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
  }

  /// Whether `v` is an integer (or bool) scalar or tile, or a Python int.
  bool isInteger(const PyValue &v) {
    if (v.kind == PyValue::Kind::Int || v.kind == PyValue::Kind::Bool)
      return true;
    if (!v.isRuntime())
      return false;
    Type t = g.elementTypeOf(v);
    return t && isa<IntegerType>(t);
  }

  /// Checks that `v` (argument `what`) is an integer.
  LogicalResult expectInteger(const PyValue &v, StringRef what) {
    if (isInteger(v))
      return success();
    g.error(l) << "expected an integer " << what << " for tl." << fname
               << " (a scalar or tile of an int or uint dtype), found "
               << v.describe();
    return failure();
  }

  /// `n_rounds`: absent is Triton's 10; else a compile-time integer >= 0.
  FailureOr<int64_t> rounds(const std::optional<PyValue> &v) {
    if (!present(v))
      return kDefaultRounds;
    if (v->kind != PyValue::Kind::Int || v->i < 0) {
      g.error(l) << "expected n_rounds to be a non-negative compile-time "
                    "integer (tl.constexpr) for tl."
                 << fname << ", found " << v->describe()
                 << (v->isRuntime() ? " (a run-time value)" : "");
      return failure();
    }
    return v->i;
  }

  /// A scalar constant with the bits `bits` of unsigned dtype `t`.
  PyValue unsignedConstant(Type t, uint64_t bits) {
    unsigned w = t.getIntOrFloatBitWidth();
    Value c = arith::ConstantOp::create(
        g.b, g.loc(l), g.b.getIntegerAttr(g.b.getIntegerType(w), APInt(w, bits)));
    return PyValue::ofValue(c, t);
  }

  /// Zeros of `like`'s shape and dtype (Triton's `offset_lo * 0`).
  FailureOr<PyValue> zerosLike(const PyValue &like) {
    TRY(v, g.toValue(like, l));
    Value z = arith::ConstantOp::create(
        g.b, g.loc(l), cast<TypedAttr>(g.b.getZeroAttr(v.getType())));
    return PyValue::ofValue(z, g.elementTypeOf(like));
  }

  /// (tl.umulhi(x, y), x * y): the high and low halves of the unsigned
  /// product (operands promoted and broadcast as tl.umulhi's), as the high
  /// result of `arith.mului_extended` and a wrapping `arith.muli`. (Both
  /// halves of one mului_extended would do, but LLVM then keeps the i64
  /// product and widens the xor that follows: mul.lo.s64 rather than
  /// mul.lo.s32 + mul.hi.u32 in PTX.)
  FailureOr<std::pair<PyValue, PyValue>> mulHiLo(const PyValue &x,
                                                 const PyValue &y) {
    TRY(type, g.promote(x, y, /*divOrMod=*/false, l));
    if (!type.isInteger() || type.isInteger(1)) {
      g.error(l) << "expected integer counters for tl." << fname
                 << ", found " << type;
      return failure();
    }
    TRY(xy, g.operandsAs({x, y}, type, l));
    auto m = arith::MulUIExtendedOp::create(g.b, g.loc(l), xy[0], xy[1]);
    Value lo = arith::MulIOp::create(g.b, g.loc(l), xy[0], xy[1]);
    return std::make_pair(PyValue::ofValue(m.getHigh(), type),
                          PyValue::ofValue(lo, type));
  }

  /// philox_impl: `n` rounds on counter `c` with key (k0, k1); c0 must be
  /// uint32 (Philox-4x32) or uint64 (Philox-4x64), as Triton asserts.
  FailureOr<Quad> philoxImpl(Quad c, PyValue k0, PyValue k1, int64_t n) {
    Type t = c[0].isRuntime() ? g.elementTypeOf(c[0]) : Type();
    bool is32 = t == u32(), is64 = t == u64();
    if (!is32 && !is64) {
      g.error(l) << "expected c0 of tl." << fname
                 << " to be uint32 or uint64 (Philox-4x32 or -4x64), found "
                 << c[0].describe();
      return failure();
    }
    const PhiloxConstants &k = is32 ? kPhilox32 : kPhilox64;
    // 32-bit constants are Python ints, as in Triton's source (typed by the
    // operand they meet); 64-bit ones exceed tilec's int64 compile-time
    // integers and are uint64 scalars (the type Triton gives them).
    auto constant = [&](uint64_t x) {
      return is32 ? PyValue::ofInt(int64_t(x)) : unsignedConstant(u64(), x);
    };
    PyValue A = constant(k.roundA), B = constant(k.roundB);
    for (int64_t r = 0; r < n; ++r) {
      if (failed(g.checkOperationBudget(l)))
        return failure();
      // c0' = hi(B * c2) ^ c1 ^ k0, c2' = hi(A * c0) ^ c3 ^ k1,
      // c1' = lo(B * c2), c3' = lo(A * c0).
      TRY(pB, mulHiLo(B, c[2]));
      TRY(x0, bin(BinOpKind::BitXor, pB.first, c[1]));
      TRY(n0, bin(BinOpKind::BitXor, x0, k0));
      TRY(pA, mulHiLo(A, c[0]));
      TRY(x2, bin(BinOpKind::BitXor, pA.first, c[3]));
      TRY(n2, bin(BinOpKind::BitXor, x2, k1));
      c = {n0, pB.second, n2, pA.second};
      if (r + 1 == n)
        break; // the raised key would be dead
      TRY(nk0, bin(BinOpKind::Add, k0, constant(k.keyA)));
      TRY(nk1, bin(BinOpKind::Add, k1, constant(k.keyB)));
      k0 = nk0;
      k1 = nk1;
    }
    return c;
  }

  /// philox: the seed widened to uint64 is the key, split into halves for
  /// 32-bit counters; 64-bit counters get (seed, 0), the 0 a one-element
  /// uint64 tile as in Triton (`tl.full((1,), 0, tl.uint64)`).
  FailureOr<Quad> philox(const PyValue &seed, Quad c, int64_t n) {
    if (failed(expectInteger(seed, "seed")))
      return failure();
    for (const PyValue &ci : c)
      if (!ci.isRuntime() && !ci.isNumber()) {
        g.error(l) << "expected counters (scalars or tiles) for tl." << fname
                   << ", found " << ci.describe();
        return failure();
      }
    TRY(s64, convert(seed, u64()));
    unsigned w = widthOf(c[0]);
    Type ct;
    PyValue k0, k1;
    if (w == 32) {
      ct = u32();
      TRY(hiBits, bin(BinOpKind::RShift, s64, PyValue::ofInt(32)));
      TRY(hiMasked, bin(BinOpKind::BitAnd, hiBits, PyValue::ofInt(0xffffffff)));
      TRY(hi, convert(hiMasked, ct));
      TRY(loMasked, bin(BinOpKind::BitAnd, s64, PyValue::ofInt(0xffffffff)));
      TRY(lo, convert(loMasked, ct));
      k0 = lo;
      k1 = hi;
    } else if (w == 64) {
      ct = u64();
      k0 = s64;
      auto oneZero = RankedTensorType::get({1}, g.b.getI64Type());
      k1 = PyValue::ofValue(
          arith::ConstantOp::create(
              g.b, g.loc(l), cast<TypedAttr>(g.b.getZeroAttr(oneZero))),
          ct);
    } else {
      g.error(l) << "expected 32- or 64-bit counters for tl." << fname
                 << ", found " << c[0].describe() << " for c0";
      return failure();
    }
    for (PyValue &ci : c) {
      TRY(v, convert(ci, ct, /*bitcast=*/true));
      ci = v;
    }
    return philoxImpl(c, k0, k1, n);
  }

  /// randint4x: counter (offset_lo, offset_hi, 0, 0), four uint32 results.
  FailureOr<Quad> randint4x(const PyValue &seed, const PyValue &offset,
                            int64_t n) {
    if (failed(expectInteger(seed, "seed")) ||
        failed(expectInteger(offset, "offset")))
      return failure();
    TRY(lo, convert(offset, u32()));
    TRY(zero, zerosLike(lo));
    PyValue hi = zero;
    if (widthOf(offset) > 32) {
      TRY(shifted, bin(BinOpKind::RShift, offset, PyValue::ofInt(32)));
      TRY(h, convert(shifted, u32()));
      hi = h;
    }
    return philox(seed, {lo, hi, zero, zero}, n);
  }

  /// uint_to_uniform_float: a uint32/int32 (uint64/int64) read as signed,
  /// folded onto [0, 2^31) ([0, 2^63)) by x < 0 ? -x - 1 : x, times the
  /// largest scale that keeps the result below 1.0 in fp32.
  FailureOr<PyValue> uniform(const PyValue &x) {
    Type t = x.isRuntime() ? g.elementTypeOf(x) : Type();
    auto it = dyn_cast_or_null<IntegerType>(t);
    if (!it || (it.getWidth() != 32 && it.getWidth() != 64)) {
      g.error(l) << "expected a uint32, int32, uint64 or int64 operand of tl."
                 << fname << ", found " << x.describe();
      return failure();
    }
    unsigned w = it.getWidth();
    TRY(s, convert(x, g.b.getIntegerType(w), /*bitcast=*/true));
    // -x - 1 is ~x: x ^ (x >> (w - 1)) (arithmetic) is where(x < 0, -x-1, x).
    TRY(sign, bin(BinOpKind::RShift, s, PyValue::ofInt(w - 1)));
    TRY(folded, bin(BinOpKind::BitXor, s, sign));
    double scale = w == 32 ? 4.6566127342e-10 : 1.0842020432385337e-19;
    return bin(BinOpKind::Mul, folded, PyValue::ofFloat(scale));
  }

  /// pair_uniform_to_normal (Box-Muller): r = sqrt(-2 log(max(1e-7, u1))),
  /// th = 2 pi u2; (r cos th, r sin th), the second only if `both`.
  FailureOr<std::pair<PyValue, PyValue>> normal(const PyValue &u1,
                                                const PyValue &u2, bool both) {
    TRY(m, call("tl.maximum", {PyValue::ofFloat(1.0e-7), u1}));
    TRY(th, bin(BinOpKind::Mul, PyValue::ofFloat(6.283185307179586), u2));
    TRY(lg, call("tl.log", {m}));
    TRY(m2, bin(BinOpKind::Mul, PyValue::ofFloat(-2.0), lg));
    TRY(r, call("tl.sqrt", {m2}));
    TRY(cs, call("tl.cos", {th}));
    TRY(n1, bin(BinOpKind::Mul, r, cs));
    if (!both)
      return std::make_pair(n1, PyValue::none());
    TRY(sn, call("tl.sin", {th}));
    TRY(n2, bin(BinOpKind::Mul, r, sn));
    return std::make_pair(n1, n2);
  }

private:
  CodeGen &g;
  SourceLoc l;
  StringRef fname;
};

PyValue tuple(const Quad &q) { return PyValue::ofTuple({q[0], q[1], q[2], q[3]}); }

} // namespace

FailureOr<PyValue> CodeGen::callRandom(const std::string &name, CallArgs &args,
                                       SourceLoc l) {
  StringRef fn = StringRef(name).drop_front(3); // "tl."
  RandomEmitter e(*this, l, fn);
  if (fn == "philox_impl") {
    TRY(s, bindArgs(*this, args, {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"},
                    6, fn, l));
    TRY(n, e.rounds(s[6]));
    TRY(q, e.philoxImpl({*s[0], *s[1], *s[2], *s[3]}, *s[4], *s[5], n));
    return tuple(q);
  }
  if (fn == "philox") {
    TRY(s, bindArgs(*this, args, {"seed", "c0", "c1", "c2", "c3", "n_rounds"},
                    5, fn, l));
    TRY(n, e.rounds(s[5]));
    TRY(q, e.philox(*s[0], {*s[1], *s[2], *s[3], *s[4]}, n));
    return tuple(q);
  }
  if (fn == "uint_to_uniform_float") {
    TRY(s, bindArgs(*this, args, {"x"}, 1, fn, l));
    return e.uniform(*s[0]);
  }
  if (fn == "pair_uniform_to_normal") {
    TRY(s, bindArgs(*this, args, {"u1", "u2"}, 2, fn, l));
    TRY(p, e.normal(*s[0], *s[1], /*both=*/true));
    return PyValue::ofTuple({p.first, p.second});
  }
  // randint, randint4x, rand, rand4x, randn, randn4x(seed, offset, n_rounds)
  // (rand4x names its offset `offsets`, as Triton's).
  TRY(s, bindArgs(*this, args,
                  {"seed", fn == "rand4x" ? "offsets" : "offset", "n_rounds"}, 2,
                  fn, l));
  TRY(n, e.rounds(s[2]));
  TRY(q, e.randint4x(*s[0], *s[1], n));
  if (fn == "randint")
    return q[0];
  if (fn == "randint4x")
    return tuple(q);
  if (fn == "rand")
    return e.uniform(q[0]);
  Quad u;
  for (int i = 0; i < (fn == "randn" ? 2 : 4); ++i) {
    TRY(ui, e.uniform(q[i]));
    u[i] = ui;
  }
  if (fn == "rand4x")
    return tuple(u);
  if (fn == "randn") {
    TRY(p, e.normal(u[0], u[1], /*both=*/false));
    return p.first;
  }
  assert(fn == "randn4x" && "isRandomFunction and callRandom disagree");
  TRY(p, e.normal(u[0], u[1], /*both=*/true));
  TRY(p2, e.normal(u[2], u[3], /*both=*/true));
  return PyValue::ofTuple({p.first, p.second, p2.first, p2.second});
}
