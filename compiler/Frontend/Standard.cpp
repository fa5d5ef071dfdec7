//===- Standard.cpp - tl.sort and tl.topk -----------------------*- C++ -*-===//
//
// Triton 3.6's bitonic sort and top-k (python/triton/language/standard.py:
// sort_impl, _bitonic_merge_hypercube, _compare_and_swap, _indicator),
// composed from the same tile ops so that results match Triton's element
// for element:
//
//   - The tile (n elements, a power of two) is reshaped into a hypercube of
//     log2(n) dimensions of 2; the sorted dimension is the innermost
//     log2(N) of them (only the last dimension sorts, as in Triton).
//   - Compare-and-swap along hypercube dimension d pairs each element with
//     its partner `x ^ xor_sum(x, d, keep_dims=True)` (on the bits, as an
//     integer of the width) and keeps the smaller or the larger as the
//     element's position and the stage's direction say.
//   - Bitonic merge stage s runs s compare-and-swaps, alternating direction
//     by the indicator of dimension s (ascending/descending at the last).
//   - top-k sorts blocks of k, then repeatedly keeps the elementwise max
//     (min for ascending) of neighbouring blocks, a bitonic sequence that
//     holds the k largest, and merges it again: log2(N/k) such rounds.
//
// NaNs compare false both ways, as in Triton (their position is
// unspecified).
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;

namespace {

/// Builds Triton's sort_impl for one call.
class BitonicSort {
public:
  BitonicSort(CodeGen &g, SourceLoc l) : g(g), l(l) {}

  FailureOr<PyValue> call(const std::string &fn, std::vector<PyValue> args,
                          std::vector<std::pair<std::string, PyValue>> kw = {}) {
    CallArgs a;
    a.args = std::move(args);
    a.kwargs = std::move(kw);
    return g.callBuiltin(fn, a, l);
  }

  static PyValue shapeOf(ArrayRef<int64_t> dims) {
    std::vector<PyValue> e;
    for (int64_t d : dims)
      e.push_back(PyValue::ofInt(d));
    return PyValue::ofTuple(e);
  }

  /// Triton's _indicator(n_dims, j): arange(0, 2) of shape
  /// [1]*(n_dims-j-1) + [2] + [1]*j (1 where hypercube dimension
  /// n_dims-1-j is the right element of its pair). Triton reshapes; unit
  /// dimensions added by expand_dims are the same values without moving
  /// data through shared memory.
  FailureOr<PyValue> indicator(int64_t nDims, int64_t j) {
    TRY(ar, call("tl.arange", {PyValue::ofInt(0), PyValue::ofInt(2)}));
    PyValue v = ar;
    for (int64_t d = 0; d < nDims - 1 - j; ++d) {
      TRY(e, call("tl.expand_dims", {v, PyValue::ofInt(0)}));
      v = e;
    }
    for (int64_t d = 0; d < j; ++d) {
      TRY(e, call("tl.expand_dims", {v, PyValue::ofInt(-1)}));
      v = e;
    }
    return v;
  }

  static int64_t rankOf(const PyValue &v) {
    return cast<RankedTensorType>(v.v.getType()).getRank();
  }

  /// Triton's _compare_and_swap(x, flip, i) on hypercube dimension
  /// rank-1-i: each element becomes the min or the max of its pair.
  FailureOr<PyValue> compareAndSwap(const PyValue &x, const PyValue &flip,
                                    int64_t i) {
    int64_t nDims = rankOf(x);
    Type dtype = g.elementTypeOf(x);
    auto t = cast<RankedTensorType>(x.v.getType());
    bool isInt = t.getElementType().isInteger();
    PyValue ix = x;
    if (!isInt) {
      Type itype = g.b.getIntegerType(t.getElementType().getIntOrFloatBitWidth());
      TRY(c, g.castValue(x, itype, l, /*bitcast=*/true));
      ix = c;
    }
    TRY(partnerBits, call("tl.xor_sum", {ix, PyValue::ofInt(nDims - 1 - i)},
                          {{"keep_dims", PyValue::ofBool(true)}}));
    TRY(iy, g.binary(py::BinOpKind::BitXor, ix, partnerBits, l));
    PyValue y = isInt ? PyValue::ofValue(iy.v, dtype) : iy;
    if (!isInt) {
      TRY(c, g.castValue(iy, dtype, l, /*bitcast=*/true));
      y = c;
    }
    TRY(isRight, indicator(nDims, i));
    TRY(gt, g.compare(py::CmpOpKind::Gt, x, y, l));
    TRY(dir, g.binary(py::BinOpKind::BitXor, flip, isRight, l));
    TRY(swap, g.compare(py::CmpOpKind::NotEq, gt, dir, l));
    return call("tl.where", {swap, y, x});
  }

  /// Triton's _bitonic_merge_hypercube(x, stage, order): order 0
  /// ascending, 1 descending, 2 alternating by the indicator of `stage`.
  FailureOr<PyValue> merge(PyValue x, int64_t stage, int64_t order) {
    PyValue flip = PyValue::ofInt(order);
    if (order == 2) {
      TRY(f, indicator(rankOf(x), stage));
      flip = f;
    }
    for (int64_t i = 0; i < stage; ++i) {
      TRY(y, compareAndSwap(x, flip, stage - 1 - i));
      x = y;
    }
    return x;
  }

  /// sort_impl(x, k, descending) on the last dimension; k = 0 sorts all.
  FailureOr<PyValue> run(const PyValue &x, int64_t k, bool descending) {
    auto t = cast<RankedTensorType>(x.v.getType());
    int64_t n = t.getShape().back();
    int64_t logN = llvm::Log2_64(n);
    int64_t logK = k ? llvm::Log2_64(k) : logN;
    int64_t nDims = llvm::Log2_64(t.getNumElements());
    if (n == 1)
      return x;
    TRY(h0, call("tl.reshape", {x, shapeOf(SmallVector<int64_t>(nDims, 2))}));
    PyValue h = h0;
    for (int64_t i = 1; i <= logK; ++i) {
      TRY(m, merge(h, i, i < logN ? 2 : int64_t(descending)));
      h = m;
    }
    for (int64_t i = logK + 1; i <= logN; ++i) {
      TRY(r, call(descending ? "tl.max" : "tl.min",
                  {h, PyValue::ofInt(rankOf(h) - 1 - logK)}));
      TRY(m, merge(r, logK, i < logN ? 2 : int64_t(descending)));
      h = m;
    }
    SmallVector<int64_t> shape(t.getShape());
    shape.back() = int64_t(1) << logK;
    return call("tl.reshape", {h, shapeOf(shape)});
  }

private:
  CodeGen &g;
  SourceLoc l;
};

} // namespace

FailureOr<PyValue> CodeGen::callSort(const std::string &name, CallArgs &args,
                                     SourceLoc l) {
  using K = PyValue::Kind;
  bool topk = name == "tl.topk";
  const char *fn = topk ? "topk" : "sort";
  TRY(s, topk ? bindArgs(*this, args, {"x", "k", "dim"}, 2, fn, l)
              : bindArgs(*this, args, {"x", "dim", "descending"}, 1, fn, l));
  TRY(x, toValue(*s[0], l));
  auto t = dyn_cast<RankedTensorType>(x.getType());
  if (!t) {
    error(l) << fn << "() expects a tile, found " << s[0]->describe();
    return failure();
  }
  if (isa<tile::PtrType>(t.getElementType())) {
    error(l) << fn << "() of a tile of pointers: expected numbers, found "
             << t;
    return failure();
  }
  int64_t rank = t.getRank();
  // Triton 3.6: `_dim == len(x.shape) - 1` (static_assert), so only the
  // last dimension, written as its non-negative index (or None).
  const std::optional<PyValue> &dimArg = topk ? s[2] : s[1];
  if (present(dimArg) &&
      (dimArg->kind != K::Int || dimArg->i != rank - 1)) {
    error(l) << fn << "() sorts only the last dimension (dim=None or dim="
             << rank - 1 << ", as Triton 3.6), found dim "
             << dimArg->describe();
    return failure();
  }
  int64_t n = t.getShape().back();
  if (!llvm::isPowerOf2_64(n) || !llvm::isPowerOf2_64(t.getNumElements())) {
    error(l) << fn
             << "() needs power-of-two sizes (the tile is sorted as a "
                "hypercube of dimensions of 2), found "
             << t;
    return failure();
  }
  PyValue xv = PyValue::ofValue(x, elementTypeOf(*s[0]));
  if (topk) {
    if (s[1]->kind != K::Int || s[1]->i < 1 || s[1]->i > n ||
        !llvm::isPowerOf2_64(s[1]->i)) {
      error(l) << "topk() needs k, a compile-time power of two in [1, " << n
               << "] (the last dimension's size), found "
               << s[1]->describe();
      return failure();
    }
    return BitonicSort(*this, l).run(xv, s[1]->i, /*descending=*/true);
  }
  bool descending = false;
  if (present(s[2])) {
    if (s[2]->kind == K::Bool)
      descending = s[2]->b;
    else if (s[2]->kind == K::Int && (s[2]->i == 0 || s[2]->i == 1))
      descending = s[2]->i;
    else {
      error(l) << "sort() needs descending, a compile-time bool (or 0/1), "
                  "found "
               << s[2]->describe();
      return failure();
    }
  }
  return BitonicSort(*this, l).run(xv, 0, descending);
}
