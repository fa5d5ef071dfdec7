//===- BuiltinsExt.cpp - Reductions, atomics, descriptors -------*- C++ -*-===//
//
// The triton.language functions that build structured tile ops: reductions
// and scans with their combiner regions (tl.sum, tl.max, tl.argmax,
// tl.reduce with a user @triton.jit combiner, tl.cumsum,
// tl.associative_scan), atomics, transposes, value hints
// (tl.multiple_of & co.), tl.assume, tl.debug_barrier and tensor
// descriptors. Semantics follow triton.language; where the backend does not
// lower an op yet, the error comes from the SIMT lowering at this location.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <functional>

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;


namespace {
using Combiner = std::function<FailureOr<SmallVector<Value>>(
    ArrayRef<Value> lhs, ArrayRef<Value> rhs)>;

bool flag(const std::optional<PyValue> &v) {
  return v && v->kind == PyValue::Kind::Bool && v->b;
}

/// A compile-time list of ints (an int alone is a list of one).
FailureOr<SmallVector<int64_t>> intList(CodeGen &g, const PyValue &v,
                                        StringRef what, SourceLoc l) {
  SmallVector<int64_t> out;
  if (v.kind == PyValue::Kind::Int) {
    out.push_back(v.i);
    return out;
  }
  if (v.kind == PyValue::Kind::Tuple) {
    for (const PyValue &e : v.elts) {
      if (e.kind != PyValue::Kind::Int) {
        g.error(l) << "expected compile-time integers for " << what
                   << ", found " << e.describe();
        return failure();
      }
      out.push_back(e.i);
    }
    return out;
  }
  g.error(l) << "expected compile-time integers for " << what << ", found "
             << v.describe();
  return failure();
}

Type elemOf(Value v) { return tile::getElementTypeOrSelf(v.getType()); }
} // namespace

/// Reduces `srcs` along `axis` (None: over all elements) with `combine`;
/// the results have the dtypes `dtypes` (one per source; empty: the IR's).
static FailureOr<PyValue> reduceTiles(CodeGen &g, SmallVector<Value> srcs,
                                      std::optional<int64_t> axisOpt,
                                      bool keepDims, const Combiner &combine,
                                      SourceLoc l,
                                      ArrayRef<Type> dtypes = {}) {
  Location lc = g.loc(l);
  OpBuilder &b = g.b;
  for (Value &s : srcs) {
    auto t = dyn_cast<RankedTensorType>(s.getType());
    if (!t) {
      g.error(l) << "expected a tile to reduce, found " << s.getType();
      return failure();
    }
  }
  auto t0 = cast<RankedTensorType>(srcs[0].getType());
  int64_t axis;
  SmallVector<int64_t> origShape(t0.getShape());
  if (!axisOpt) {
    // Over every element: flatten first, as Triton does.
    if (t0.getRank() != 1)
      for (Value &s : srcs) {
        auto t = cast<RankedTensorType>(s.getType());
        s = tile::ReshapeOp::create(
            b, lc, RankedTensorType::get({t.getNumElements()}, t.getElementType()),
            s);
      }
    axis = 0;
  } else {
    axis = *axisOpt < 0 ? *axisOpt + t0.getRank() : *axisOpt;
    if (axis < 0 || axis >= t0.getRank()) {
      g.error(l) << "expected an axis in [" << -t0.getRank() << ", "
                 << t0.getRank() << "), found " << *axisOpt;
      return failure();
    }
  }
  auto reduce = tile::ReduceOp::create(b, lc, srcs, int32_t(axis));
  Block *block = reduce.addCombinerBlock();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(block);
    size_t n = srcs.size();
    SmallVector<Value> lhs(block->getArguments().take_front(n));
    SmallVector<Value> rhs(block->getArguments().drop_front(n));
    auto results = combine(lhs, rhs);
    if (failed(results))
      return failure();
    tile::ReduceReturnOp::create(b, lc, *results);
  }
  SmallVector<PyValue> outs;
  for (auto [k, r] : llvm::enumerate(reduce.getResults())) {
    Value v = r;
    if (keepDims) {
      if (!axisOpt) {
        // Every dimension kept as 1.
        SmallVector<int64_t> ones(origShape.size(), 1);
        Value splat = tile::SplatOp::create(
            b, lc, RankedTensorType::get({1}, v.getType()), v);
        v = tile::ReshapeOp::create(
            b, lc, RankedTensorType::get(ones, v.getType()), splat);
      } else if (isa<RankedTensorType>(v.getType())) {
        auto e = g.expandDims(v, axis, l);
        if (failed(e))
          return failure();
        v = *e;
      } else {
        v = tile::SplatOp::create(b, lc, RankedTensorType::get({1}, v.getType()), v);
      }
    }
    outs.push_back(PyValue::ofValue(v, k < dtypes.size() ? dtypes[k] : Type()));
  }
  if (outs.size() == 1)
    return outs[0];
  return PyValue::ofTuple(std::vector<PyValue>(outs.begin(), outs.end()));
}

/// Builds the combiner `fn(lhs..., rhs...)` by inlining a user function;
/// its operands have the dtypes `dtypes` (one per operand).
static Combiner userCombiner(CodeGen &g, const PyValue &fn, SourceLoc l,
                             SmallVector<Type> dtypes) {
  return [&g, fn, l, dtypes](ArrayRef<Value> lhs, ArrayRef<Value> rhs)
             -> FailureOr<SmallVector<Value>> {
    CallArgs args;
    for (auto [k, v] : llvm::enumerate(lhs))
      args.args.push_back(PyValue::ofValue(v, dtypes[k]));
    for (auto [k, v] : llvm::enumerate(rhs))
      args.args.push_back(PyValue::ofValue(v, dtypes[k]));
    auto r = g.call(fn, args, l);
    if (failed(r))
      return failure();
    std::vector<PyValue> vals =
        r->kind == PyValue::Kind::Tuple ? r->elts : std::vector<PyValue>{*r};
    if (vals.size() != lhs.size()) {
      g.error(l) << "expected the combine function to return " << lhs.size()
                 << " values, found " << vals.size();
      return failure();
    }
    SmallVector<Value> out;
    for (auto [k, v] : llvm::enumerate(vals)) {
      auto x = g.toValue(v, l, dtypes[k]);
      if (failed(x))
        return failure();
      auto c = g.castTo(*x, dtypes[k], l, false,
                        v.isRuntime() ? g.elementTypeOf(v) : dtypes[k]);
      if (failed(c))
        return failure();
      if (isa<RankedTensorType>(c->getType())) {
        g.error(l) << "expected the combine function to return scalars";
        return failure();
      }
      out.push_back(*c);
    }
    return out;
  };
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)
/// as Triton 3.6's core.py: `args` (tiles, scalars and numbers; numbers
/// become int32/float32 constants) broadcast to one shape without type
/// promotion; one result per dtype of `dtype` (a dtype, or a non-empty
/// tuple of them: then a tuple), scalars when no argument is a tile. Errors
/// (located at the call): non-string asm or constraints, a bad dtype, a
/// run-time is_pure, a pack that is not a positive power of two, args
/// whose shapes do not broadcast, and a constraint string whose output or
/// input count is not what the results and arguments need (per pack,
/// pack / (32 / bits) registers each for elements narrower than 32 bits,
/// else pack).
static FailureOr<PyValue> callInlineAsmElementwise(CodeGen &g, CallArgs &args,
                                                   SourceLoc l) {
  using K = PyValue::Kind;
  using AsmOp = tile::ElementwiseInlineAsmOp;
  TRY(s, bindArgs(g, args,
                  {"asm", "constraints", "args", "dtype", "is_pure", "pack"},
                  6, "inline_asm_elementwise", l));
  for (int i : {0, 1})
    if (s[i]->kind != K::Str) {
      g.error(l) << "expected a compile-time string for "
                 << (i == 0 ? "asm" : "constraints")
                 << " of tl.inline_asm_elementwise, found " << s[i]->describe();
      return failure();
    }
  if (s[2]->kind != K::Tuple) {
    g.error(l) << "expected a list of tiles or scalars for args of "
                  "tl.inline_asm_elementwise, found "
               << s[2]->describe();
    return failure();
  }
  // dtype: one dtype, or a tuple of them (a tuple of results).
  bool multiple = s[3]->kind == K::Tuple;
  std::vector<PyValue> dtypes = multiple ? s[3]->elts
                                         : std::vector<PyValue>{*s[3]};
  if (dtypes.empty()) {
    g.error(l) << "expected at least one dtype for tl.inline_asm_elementwise "
                  "(as Triton: return a dummy value if the asm needs none), "
                  "found an empty tuple";
    return failure();
  }
  for (PyValue &d : dtypes) {
    // A dtype named on the command line (`-D DT=fp16`), as bindArgs takes
    // a lone one.
    if (d.kind == K::Str)
      if (Type t = g.dtypeByName(d.s))
        d = PyValue::ofDType(t);
    if (d.kind != K::DType || isa<tile::PtrType>(d.dtype)) {
      g.error(l) << "expected a scalar dtype or a tuple of them for dtype of "
                    "tl.inline_asm_elementwise, found "
                 << d.describe();
      return failure();
    }
  }
  // (Triton's binding converts an int as Python's bool() would.)
  if (s[4]->kind != K::Bool && s[4]->kind != K::Int) {
    g.error(l) << "expected a compile-time bool for is_pure of "
                  "tl.inline_asm_elementwise, found "
               << s[4]->describe();
    return failure();
  }
  if (s[5]->kind != K::Int || s[5]->i <= 0 || s[5]->i > 1024 ||
      (s[5]->i & (s[5]->i - 1))) {
    g.error(l) << "expected pack to be a compile-time power of two in [1, "
                  "1024] for tl.inline_asm_elementwise, found "
               << s[5]->describe();
    return failure();
  }
  int64_t pack = s[5]->i;

  // The arguments, broadcast to one shape (Triton's
  // binary_op_type_checking_impl without arithmetic checks: no promotion).
  SmallVector<Value> operands;
  for (const PyValue &a : s[2]->elts) {
    if (!a.isRuntime() && !a.isNumber()) {
      g.error(l) << "expected tiles, scalars or numbers in args of "
                    "tl.inline_asm_elementwise, found "
                 << a.describe();
      return failure();
    }
    TRY(v, g.toValue(a, l));
    operands.push_back(v);
  }
  // The common shape (numpy rules), then every argument broadcast to it.
  SmallVector<int64_t> shape;
  bool isTile = false;
  for (Value v : operands) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      continue;
    ArrayRef<int64_t> vs = t.getShape();
    SmallVector<int64_t> merged(std::max(shape.size(), vs.size()), 1);
    for (size_t i = 0; i < merged.size(); ++i) {
      int64_t a = i + shape.size() < merged.size()
                      ? 1
                      : shape[i + shape.size() - merged.size()];
      int64_t b = i + vs.size() < merged.size()
                      ? 1
                      : vs[i + vs.size() - merged.size()];
      if (a != b && a != 1 && b != 1) {
        g.error(l) << "incompatible shapes for broadcasting the args of "
                      "tl.inline_asm_elementwise: ["
                   << ArrayRef<int64_t>(shape) << "] and [" << vs << "]";
        return failure();
      }
      merged[i] = std::max(a, b);
    }
    shape = merged;
    isTile = true;
  }
  if (isTile)
    for (Value &v : operands) {
      TRY(bv, g.broadcastTo(v, shape, l));
      v = bv;
    }
  SmallVector<Type> resultTypes;
  for (const PyValue &d : dtypes) {
    Type elem = toIRType(d.dtype);
    resultTypes.push_back(isTile ? Type(RankedTensorType::get(shape, elem))
                                 : elem);
  }

  // The constraint string must name one register per packed operand and
  // result (LLVM would reject it later, far from the call).
  StringRef constraints = s[1]->s;
  AsmOp::ConstraintCounts found = AsmOp::countConstraints(constraints);
  if (!found.outputsFirst) {
    g.error(l) << "expected the output constraints (`=...`) before the input "
                  "ones in the constraints of tl.inline_asm_elementwise, "
                  "found \""
               << constraints << "\"";
    return failure();
  }
  int64_t wantOutputs = AsmOp::countRegisters(resultTypes, pack);
  int64_t wantInputs =
      AsmOp::countRegisters(ValueRange(operands).getTypes(), pack);
  if (found.outputs != wantOutputs || found.inputs != wantInputs) {
    g.error(l) << "expected " << wantOutputs << " output and " << wantInputs
               << " input constraints for tl.inline_asm_elementwise ("
               << resultTypes.size() << " result(s), " << operands.size()
               << " argument(s), pack " << pack
               << "; elements under 32 bits share 32-bit registers), found "
               << found.outputs << " output and " << found.inputs
               << " input constraints in \"" << constraints << "\"";
    return failure();
  }
  if (std::string why = AsmOp::checkAsm(s[0]->s, constraints, found.outputs,
                                        found.outputs + found.inputs);
      !why.empty()) {
    g.error(l) << why << " (tl.inline_asm_elementwise)";
    return failure();
  }

  auto op = AsmOp::create(g.b, g.loc(l), resultTypes, s[0]->s, constraints,
                          /*pure=*/s[4]->kind == K::Bool ? s[4]->b
                                                         : s[4]->i != 0,
                          uint32_t(pack), operands);
  std::vector<PyValue> results;
  for (auto [r, d] : llvm::zip(op.getResults(), dtypes))
    results.push_back(PyValue::ofValue(r, d.dtype));
  if (!multiple)
    return results[0];
  return PyValue::ofTuple(std::move(results));
}

FailureOr<PyValue> CodeGen::callExtendedBuiltin(const std::string &name,
                                                CallArgs &args, SourceLoc l) {
  Location lc = loc(l);
  using K = PyValue::Kind;
  if (name == "tl.make_block_ptr" || name == "tl.advance")
    return callBlockPointerBuiltin(name, args, l);
  if (name == "tl.extra.cuda.num_threads" ||
      name == "tl.extra.cuda.num_warps") {
    // Compile-time facts of the kernel (its num_warps), as in Triton.
    TRY(s, bindArgs(*this, args, {}, 0, name.substr(14), l));
    (void)s;
    int64_t threads = opCounter.threadsPerCTA;
    return PyValue::ofInt(name == "tl.extra.cuda.num_threads" ? threads
                                                              : threads / 32);
  }

  // --- reductions ---
  if (name == "tl.sum" || name == "tl.max" || name == "tl.min" ||
      name == "tl.xor_sum" || name == "tl.argmax" || name == "tl.argmin") {
    bool isArg = name == "tl.argmax" || name == "tl.argmin";
    // propagate_nan (last) is tilec's: Triton's reductions take none and
    // behave as NONE.
    TRY(s, isArg ? bindArgs(*this, args,
                        {"input", "axis", "tie_break_left", "keep_dims",
                         "propagate_nan"},
                        2, name.substr(3), l)
                 : bindArgs(*this, args,
                        {"input", "axis", "return_indices",
                         "return_indices_tie_break_left", "keep_dims", "dtype",
                         "propagate_nan"},
                        1, name.substr(3), l));
    TRY(x0, toValue(*s[0], l));
    Value x = x0;
    std::optional<int64_t> axis;
    if (present(s[1])) {
      if (s[1]->kind != K::Int) {
        error(l) << "expected a compile-time integer axis, found "
                 << s[1]->describe();
        return failure();
      }
      axis = s[1]->i;
    }
    // Flags must be compile-time bools (or None).
    SmallVector<int, 3> flagSlots =
        isArg ? SmallVector<int, 3>{2, 3} : SmallVector<int, 3>{2, 3, 4};
    for (int i : flagSlots)
      if (present(s[i]) && s[i]->kind != K::Bool) {
        error(l) << "expected a compile-time bool for "
                 << (isArg ? (i == 2 ? "tie_break_left" : "keep_dims")
                           : (i == 2   ? "return_indices"
                              : i == 3 ? "return_indices_tie_break_left"
                                       : "keep_dims"))
                 << ", found " << s[i]->describe();
        return failure();
      }
    // propagate_nan only orders max and min.
    if ((name == "tl.sum" || name == "tl.xor_sum") && present(s[6])) {
      error(l) << "unexpected propagate_nan for " << name
               << " (it applies to tl.max, tl.min, tl.argmax and tl.argmin)";
      return failure();
    }
    bool keepDims = flag(isArg ? s[3] : s[4]);
    Type et = elemOf(x);
    // The dtype: unsigned values reduce with unsigned max/min/compares.
    Type dtype = elementTypeOf(*s[0]);
    bool isU = isUnsignedInt(dtype);
    bool isF = isa<FloatType>(et);
    if (name == "tl.sum") {
      // Narrow integers accumulate in 32 bits (Triton's _pick_sum_dtype:
      // uint32 for unsigned ones, int1 among them); floats keep their type,
      // as in Triton.
      Type acc = dtype;
      if (present(s[5]) && s[5]->kind == K::DType)
        acc = s[5]->dtype;
      else if (!isF && et.getIntOrFloatBitWidth() < 32)
        acc = hasUnsignedOrder(dtype)
                  ? Type(IntegerType::get(ctx, 32, IntegerType::Unsigned))
                  : Type(b.getI32Type());
      TRY(xc, castTo(x, acc, l, false, dtype));
      x = xc;
      bool f = isa<FloatType>(acc);
      return reduceTiles(*this, {x}, axis, keepDims,
                         [&, f](ArrayRef<Value> a, ArrayRef<Value> c)
                             -> FailureOr<SmallVector<Value>> {
                           Location rl = loc(l);
                           return SmallVector<Value>{
                               f ? Value(arith::AddFOp::create(b, rl, a[0], c[0]))
                                 : Value(arith::AddIOp::create(b, rl, a[0], c[0]))};
                         },
                         l, {acc});
    }
    if (name == "tl.xor_sum") {
      if (isF) {
        error(l) << "expected an integer tile for tl.xor_sum, found "
                 << x.getType();
        return failure();
      }
      return reduceTiles(*this, {x}, axis, keepDims,
                         [&](ArrayRef<Value> a, ArrayRef<Value> c)
                             -> FailureOr<SmallVector<Value>> {
                           return SmallVector<Value>{
                               arith::XOrIOp::create(b, loc(l), a[0], c[0])};
                         },
                         l, {dtype});
    }
    bool isMax = name == "tl.max" || name == "tl.argmax";
    bool withIndex = isArg || flag(s[2]);
    isU = hasUnsignedOrder(dtype); // an i1 tile: False < True
    TRY(nanWins, propagateNanArg(*this, isArg ? s[4] : s[6], l));
    if (!withIndex && et.getIntOrFloatBitWidth() < 32) {
      // Triton's max/min without indices reduce narrow types as float32 /
      // int32 (its result type); the values are the same.
      Type wide = isF ? Type(b.getF32Type()) : Type(b.getI32Type());
      TRY(xc, castTo(x, wide, l, false, dtype));
      x = xc;
      dtype = wide;
      isU = false;
    }
    if (!withIndex)
      return reduceTiles(
          *this, {x}, axis, keepDims,
          [&, isF, isU, isMax, nanWins](ArrayRef<Value> a, ArrayRef<Value> c)
              -> FailureOr<SmallVector<Value>> {
            Location rl = loc(l);
            // tl.maximum's semantics: NONE, the non-NaN operand wins
            // (maxnumf; NaN only if every element is); ALL, NaN wins.
            Value r;
            if (isF && nanWins)
              r = isMax ? Value(arith::MaximumFOp::create(b, rl, a[0], c[0]))
                        : Value(arith::MinimumFOp::create(b, rl, a[0], c[0]));
            else if (isF)
              r = isMax ? Value(arith::MaxNumFOp::create(b, rl, a[0], c[0]))
                        : Value(arith::MinNumFOp::create(b, rl, a[0], c[0]));
            else if (isU)
              r = isMax ? Value(arith::MaxUIOp::create(b, rl, a[0], c[0]))
                        : Value(arith::MinUIOp::create(b, rl, a[0], c[0]));
            else
              r = isMax ? Value(arith::MaxSIOp::create(b, rl, a[0], c[0]))
                        : Value(arith::MinSIOp::create(b, rl, a[0], c[0]));
            return SmallVector<Value>{r};
          },
          l, {dtype});
    // Values with their indices along the axis; ties keep the lower index.
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t) {
      error(l) << "expected a tile, found " << x.getType();
      return failure();
    }
    int64_t ax = axis ? (*axis < 0 ? *axis + t.getRank() : *axis) : 0;
    Value xs = x;
    if (!axis && t.getRank() != 1)
      xs = tile::ReshapeOp::create(
          b, lc, RankedTensorType::get({t.getNumElements()}, et), x);
    auto ts = cast<RankedTensorType>(xs.getType());
    if (ax < 0 || ax >= ts.getRank()) {
      error(l) << "expected an axis in range, found " << *axis;
      return failure();
    }
    int64_t len = ts.getDimSize(ax);
    Value range = tile::MakeRangeOp::create(
        b, lc, RankedTensorType::get({len}, b.getI32Type()),
        b.getI32IntegerAttr(0), b.getI32IntegerAttr(int32_t(len)));
    Value idx = range;
    for (int64_t d = 0; d < ts.getRank(); ++d)
      if (d != ax) {
        TRY(e, expandDims(idx, d, l));
        idx = e;
      }
    TRY(ib, broadcastTo(idx, ts.getShape(), l));
    TRY(res, reduceTiles(
                 *this, {xs, ib}, axis ? std::optional<int64_t>(ax) : std::nullopt,
                 keepDims,
                 [&, isF, isU, isMax, nanWins](ArrayRef<Value> a, ArrayRef<Value> c)
                     -> FailureOr<SmallVector<Value>> {
                   Location rl = loc(l);
                   Value better, equal;
                   if (isF) {
                     // NaN is the least element under NONE and the greatest
                     // under ALL, and NaNs are equal to each other, so the
                     // index always names an element the value equals (the
                     // same value tl.max returns) and ties, NaN ones
                     // included, keep the lower index: a total order, so
                     // any reduction tree gives the same answer.
                     auto cmp = [&](arith::CmpFPredicate p, Value u, Value v) {
                       return Value(arith::CmpFOp::create(b, rl, p, u, v));
                     };
                     Value nanA = cmp(arith::CmpFPredicate::UNO, a[0], a[0]);
                     Value nanC = cmp(arith::CmpFPredicate::UNO, c[0], c[0]);
                     Value yes = arith::ConstantIntOp::create(b, rl, 1, 1);
                     Value onlyA = arith::AndIOp::create(
                         b, rl, nanA, arith::XOrIOp::create(b, rl, nanC, yes));
                     Value onlyC = arith::AndIOp::create(
                         b, rl, nanC, arith::XOrIOp::create(b, rl, nanA, yes));
                     better = arith::OrIOp::create(
                         b, rl,
                         cmp(isMax ? arith::CmpFPredicate::OGT
                                   : arith::CmpFPredicate::OLT,
                             a[0], c[0]),
                         nanWins ? onlyA : onlyC);
                     equal = arith::OrIOp::create(
                         b, rl, cmp(arith::CmpFPredicate::OEQ, a[0], c[0]),
                         arith::AndIOp::create(b, rl, nanA, nanC));
                   } else {
                     using P = arith::CmpIPredicate;
                     better = arith::CmpIOp::create(
                         b, rl,
                         isMax ? (isU ? P::ugt : P::sgt)
                               : (isU ? P::ult : P::slt),
                         a[0], c[0]);
                     equal = arith::CmpIOp::create(b, rl, arith::CmpIPredicate::eq,
                                                   a[0], c[0]);
                   }
                   Value lower = arith::CmpIOp::create(
                       b, rl, arith::CmpIPredicate::slt, a[1], c[1]);
                   Value tieLow = arith::AndIOp::create(b, rl, equal, lower);
                   Value keep = arith::OrIOp::create(b, rl, better, tieLow);
                   return SmallVector<Value>{
                       arith::SelectOp::create(b, rl, keep, a[0], c[0]),
                       arith::SelectOp::create(b, rl, keep, a[1], c[1])};
                 },
                 l, {dtype, Type()}));
    if (isArg)
      return res.elts[1];
    return res;
  }
  // --- join / split / interleave (Triton's semantics: a new last
  // dimension of size 2) ---
  // *Decision*: built from existing ops, not new ones: join is a select
  // between the two operands broadcast along the new dimension, split a
  // reduction over it keeping the element of index 0 (or 1). Both are exact
  // (selects only, NaN payloads and -0.0 kept) and lower through the
  // layout machinery every op has; a dedicated op with a register-pair
  // layout would avoid the size-2 reduction's shuffles when the pair spans
  // lanes.
  if (name == "tl.join" || name == "tl.interleave") {
    bool interleave = name == "tl.interleave";
    TRY(s, bindArgs(*this, args, {"a", "b"}, 2, name.substr(3), l));
    TRY(x0, toValue(*s[0], l));
    TRY(y0, toValue(*s[1], l));
    Type dx = s[0]->isRuntime() ? elementTypeOf(*s[0])
                                : tile::getElementTypeOrSelf(x0.getType());
    Type dy = s[1]->isRuntime() ? elementTypeOf(*s[1])
                                : tile::getElementTypeOrSelf(y0.getType());
    if (dx != dy) {
      error(l) << name.substr(3) << "() expects two tiles of one dtype, found "
               << dx << " and " << dy;
      return failure();
    }
    Value x = x0, y = y0;
    if (failed(broadcastPair(x, y, l)))
      return failure();
    SmallVector<int64_t> shape;
    if (auto xt = dyn_cast<RankedTensorType>(x.getType()))
      shape.append(xt.getShape().begin(), xt.getShape().end());
    shape.push_back(2);
    auto widen = [&](Value v) -> FailureOr<Value> {
      if (isa<RankedTensorType>(v.getType())) {
        TRY(e, expandDims(v, -1, l));
        v = e;
      }
      return broadcastTo(v, shape, l);
    };
    TRY(wx, widen(x));
    TRY(wy, widen(y));
    Value idx = tile::MakeRangeOp::create(
        b, lc, RankedTensorType::get({2}, b.getI32Type()),
        b.getI32IntegerAttr(0), b.getI32IntegerAttr(2));
    TRY(ib, broadcastTo(idx, shape, l));
    TRY(zero, broadcastTo(arith::ConstantIntOp::create(b, lc, 0, 32), shape, l));
    Value first = arith::CmpIOp::create(b, lc, arith::CmpIPredicate::eq, ib, zero);
    Value joined = arith::SelectOp::create(b, lc, first, wx, wy);
    if (interleave && shape.size() > 1) {
      // [..., n, 2] -> [..., 2n]: a's and b's elements alternate.
      SmallVector<int64_t> flat(shape.begin(), shape.end() - 2);
      flat.push_back(shape[shape.size() - 2] * 2);
      joined = tile::ReshapeOp::create(
          b, lc, RankedTensorType::get(flat, cast<RankedTensorType>(joined.getType()).getElementType()),
          joined);
    }
    return PyValue::ofValue(joined, dx);
  }
  // Triton 3.6's standard library functions written in the language
  // (python/triton/language/standard.py), composed the same way here.
  auto call1 = [&](const std::string &fn, std::vector<PyValue> as,
                   std::vector<std::pair<std::string, PyValue>> kw = {})
      -> FailureOr<PyValue> {
    CallArgs a;
    a.args = std::move(as);
    a.kwargs = std::move(kw);
    return callBuiltin(fn, a, l);
  };
  if (name == "tl.ravel") {
    // reshape(x, [x.numel], can_reorder): tilec's reshape keeps the order.
    TRY(s, bindArgs(*this, args, {"x", "can_reorder"}, 1, "ravel", l));
    TRY(x, toValue(*s[0], l));
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t) {
      error(l) << "ravel() expects a tile, found " << s[0]->describe();
      return failure();
    }
    return call1(
        "tl.reshape",
        {*s[0], PyValue::ofTuple({PyValue::ofInt(t.getNumElements())})});
  }
  if (name == "tl.softmax") {
    // z = x - max(x, dim, keep_dims); exp(z) / sum(exp(z), dim, keep_dims)
    // with fdiv's ieee_rounding; dim None is 0.
    TRY(s, bindArgs(*this, args, {"x", "dim", "keep_dims", "ieee_rounding"}, 1,
                    "softmax", l));
    PyValue dim = present(s[1]) ? *s[1] : PyValue::ofInt(0);
    PyValue keep = s[2] ? *s[2] : PyValue::ofBool(false);
    PyValue ieee = s[3] ? *s[3] : PyValue::ofBool(false);
    TRY(m, call1("tl.max", {*s[0], dim}, {{"keep_dims", keep}}));
    TRY(z, binary(py::BinOpKind::Sub, *s[0], m, l));
    TRY(num, call1("tl.exp", {z}));
    TRY(den, call1("tl.sum", {num, dim}, {{"keep_dims", keep}}));
    return call1("tl.fdiv", {num, den, ieee});
  }
  if (name == "tl.cat") {
    // Triton 3.6 (semantic.cat) takes only can_reorder=True and 1-D tiles
    // and may order the result as it likes; tilec gives a's elements, then
    // b's.
    TRY(s,
        bindArgs(*this, args, {"input", "other", "can_reorder"}, 2, "cat", l));
    if (!s[2] || s[2]->kind != K::Bool || !s[2]->b) {
      error(l) << "cat() needs can_reorder=True (as Triton 3.6: its "
                  "implementation may reorder the elements)";
      return failure();
    }
    TRY(x, toValue(*s[0], l));
    TRY(y, toValue(*s[1], l));
    auto xt = dyn_cast<RankedTensorType>(x.getType());
    auto yt = dyn_cast<RankedTensorType>(y.getType());
    if (!xt || !yt || xt.getRank() != 1 || xt != yt) {
      error(l) << "cat() expects two 1-D tiles of one type, found "
               << x.getType() << " and " << y.getType();
      return failure();
    }
    TRY(j, call1("tl.join", {*s[0], *s[1]}));
    TRY(t,
        call1("tl.permute",
              {j, PyValue::ofTuple({PyValue::ofInt(1), PyValue::ofInt(0)})}));
    return call1(
        "tl.reshape",
        {t, PyValue::ofTuple({PyValue::ofInt(2 * xt.getNumElements())})});
  }
  if (name == "tl.flip") {
    // Bitcast to a signed integer of the width, reshape dim into log2(n)
    // dimensions of 2, and swap each pair as y ^ xor_sum(y, d, True).
    TRY(s, bindArgs(*this, args, {"x", "dim"}, 1, "flip", l));
    TRY(x, toValue(*s[0], l));
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t) {
      error(l) << "flip() expects a tile, found " << s[0]->describe();
      return failure();
    }
    int64_t rank = t.getRank();
    int64_t dim = rank - 1;
    if (present(s[1])) {
      if (s[1]->kind != K::Int || s[1]->i < -rank || s[1]->i >= rank) {
        error(l) << "expected a compile-time dim in [" << -rank << ", " << rank
                 << ") for flip(), found " << s[1]->describe();
        return failure();
      }
      dim = s[1]->i < 0 ? s[1]->i + rank : s[1]->i;
    }
    int64_t n = t.getDimSize(dim);
    if (n & (n - 1)) {
      error(l) << "flip() needs a power-of-two size along dim " << dim
               << ", found " << n;
      return failure();
    }
    if (n == 1)
      return *s[0];
    Type dtype = elementTypeOf(*s[0]);
    if (isa<tile::PtrType>(t.getElementType())) {
      error(l) << "unimplemented: flip() of a tile of pointers";
      return failure();
    }
    bool isInt = t.getElementType().isInteger();
    Type itype = b.getIntegerType(t.getElementType().getIntOrFloatBitWidth());
    PyValue yi = PyValue::ofValue(x);
    if (!isInt) {
      TRY(c, castValue(*s[0], itype, l, /*bitcast=*/true));
      yi = c;
    }
    std::vector<PyValue> dims;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dim) {
        dims.push_back(PyValue::ofInt(t.getDimSize(d)));
        continue;
      }
      for (int64_t k = 1; k < n; k *= 2)
        dims.push_back(PyValue::ofInt(2));
    }
    TRY(y0, call1("tl.reshape", {yi, PyValue::ofTuple(dims)}));
    PyValue y = y0;
    int64_t steps = llvm::Log2_64(n);
    for (int64_t i = 0; i < steps; ++i) {
      TRY(xs, call1("tl.xor_sum", {y, PyValue::ofInt(dim + i)},
                    {{"keep_dims", PyValue::ofBool(true)}}));
      TRY(sw, binary(py::BinOpKind::BitXor, y, xs, l));
      y = sw;
    }
    std::vector<PyValue> shape;
    for (int64_t d : t.getShape())
      shape.push_back(PyValue::ofInt(d));
    TRY(back, call1("tl.reshape", {y, PyValue::ofTuple(shape)}));
    if (isInt)
      return PyValue::ofValue(back.v, dtype);
    return castValue(back, dtype, l, /*bitcast=*/true);
  }
  if (name == "tl.split") {
    TRY(s, bindArgs(*this, args, {"a"}, 1, "split", l));
    TRY(x, toValue(*s[0], l));
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t || t.getDimSize(t.getRank() - 1) != 2) {
      error(l) << "split() expects a tile whose last dimension is 2, found "
               << x.getType();
      return failure();
    }
    Type dtype = s[0]->isRuntime() ? elementTypeOf(*s[0]) : t.getElementType();
    int64_t last = t.getRank() - 1;
    Value idx = tile::MakeRangeOp::create(
        b, lc, RankedTensorType::get({2}, b.getI32Type()),
        b.getI32IntegerAttr(0), b.getI32IntegerAttr(2));
    TRY(ib, broadcastTo(idx, t.getShape(), l));
    std::vector<PyValue> halves;
    for (int32_t want : {0, 1}) {
      // The element of index `want` along the last dimension: combining
      // keeps the operand holding it (associative and commutative: exactly
      // one element has that index).
      TRY(r, reduceTiles(
                 *this, {x, ib}, last, /*keepDims=*/false,
                 [&, want](ArrayRef<Value> a, ArrayRef<Value> c)
                     -> FailureOr<SmallVector<Value>> {
                   Location rl = loc(l);
                   Value keep = arith::CmpIOp::create(
                       b, rl, arith::CmpIPredicate::eq, a[1],
                       arith::ConstantIntOp::create(b, rl, want, 32));
                   return SmallVector<Value>{
                       arith::SelectOp::create(b, rl, keep, a[0], c[0]),
                       arith::SelectOp::create(b, rl, keep, a[1], c[1])};
                 },
                 l, {dtype, Type()}));
      halves.push_back(r.elts[0]);
    }
    return PyValue::ofTuple(halves);
  }
  if (name == "tl.reduce") {
    TRY(s, bindArgs(*this, args, {"input", "axis", "combine_fn", "keep_dims"}, 3,
                "reduce", l));
    SmallVector<Value> srcs;
    SmallVector<Type> dtypes;
    std::vector<PyValue> ins =
        s[0]->kind == K::Tuple ? s[0]->elts : std::vector<PyValue>{*s[0]};
    for (const PyValue &v : ins) {
      TRY(x, toValue(v, l));
      srcs.push_back(x);
      dtypes.push_back(v.isRuntime() ? elementTypeOf(v)
                                     : tile::getElementTypeOrSelf(x.getType()));
    }
    if (srcs.size() > 1)
      for (Value &v : srcs)
        if (failed(broadcastPair(v, srcs[0], l)))
          return failure();
    std::optional<int64_t> axis;
    if (present(s[1])) {
      if (s[1]->kind != K::Int) {
        error(l) << "expected a compile-time integer axis";
        return failure();
      }
      axis = s[1]->i;
    }
    return reduceTiles(*this, srcs, axis, flag(s[3]),
                       userCombiner(*this, *s[2], l, dtypes), l, dtypes);
  }

  // --- scans ---
  if (name == "tl.cumsum" || name == "tl.cumprod" ||
      name == "tl.associative_scan") {
    bool user = name == "tl.associative_scan";
    TRY(s, user ? bindArgs(*this, args, {"input", "axis", "combine_fn", "reverse"},
                       3, "associative_scan", l)
            : name == "tl.cumsum"
                ? bindArgs(*this, args, {"input", "axis", "reverse", "dtype"}, 1,
                           "cumsum", l)
                : bindArgs(*this, args, {"input", "axis", "reverse"}, 1,
                           "cumprod", l));
    std::vector<PyValue> ins =
        s[0]->kind == K::Tuple ? s[0]->elts : std::vector<PyValue>{*s[0]};
    SmallVector<Value> srcs;
    SmallVector<Type> dtypes;
    for (const PyValue &v : ins) {
      TRY(x, toValue(v, l));
      if (!isa<RankedTensorType>(x.getType())) {
        error(l) << "expected a tile to scan, found " << x.getType();
        return failure();
      }
      srcs.push_back(x);
      dtypes.push_back(elementTypeOf(v));
    }
    int64_t axis = 0;
    if (present(s[1])) {
      if (s[1]->kind != K::Int) {
        error(l) << "expected a compile-time integer axis";
        return failure();
      }
      axis = s[1]->i;
    }
    auto t = cast<RankedTensorType>(srcs[0].getType());
    if (axis < 0)
      axis += t.getRank();
    if (axis < 0 || axis >= t.getRank()) {
      error(l) << "expected an axis in range, found " << axis;
      return failure();
    }
    bool reverse = flag(user ? s[3] : s[2]);
    Combiner combine;
    if (user) {
      combine = userCombiner(*this, *s[2], l, dtypes);
    } else {
      // Triton: cumsum picks its dtype as tl.sum (narrow integers in 32
      // bits, or `dtype=`); cumprod and floats keep the input's type.
      Type et = dtypes[0];
      bool isCumsum = name == "tl.cumsum";
      if (isCumsum && present(s[3]) && s[3]->kind == K::DType)
        et = s[3]->dtype;
      else if (isCumsum && !isa<FloatType>(et) &&
               et.getIntOrFloatBitWidth() < 32)
        et = hasUnsignedOrder(et) // int1 too: uint32, as tl.sum
                 ? Type(IntegerType::get(ctx, 32, IntegerType::Unsigned))
                 : Type(b.getI32Type());
      TRY(xc, castTo(srcs[0], et, l, false, dtypes[0]));
      srcs[0] = xc;
      dtypes[0] = et;
      bool f = isa<FloatType>(et), isSum = name == "tl.cumsum";
      combine = [&, f, isSum](ArrayRef<Value> a,
                              ArrayRef<Value> c) -> FailureOr<SmallVector<Value>> {
        Location rl = loc(l);
        Value r = isSum ? (f ? Value(arith::AddFOp::create(b, rl, a[0], c[0]))
                             : Value(arith::AddIOp::create(b, rl, a[0], c[0])))
                        : (f ? Value(arith::MulFOp::create(b, rl, a[0], c[0]))
                             : Value(arith::MulIOp::create(b, rl, a[0], c[0])));
        return SmallVector<Value>{r};
      };
    }
    auto scan = tile::ScanOp::create(b, lc, srcs, int32_t(axis), reverse);
    Block *block = scan.addCombinerBlock();
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(block);
      size_t n = srcs.size();
      SmallVector<Value> lhs(block->getArguments().take_front(n));
      SmallVector<Value> rhs(block->getArguments().drop_front(n));
      auto r = combine(lhs, rhs);
      if (failed(r))
        return failure();
      tile::ScanReturnOp::create(b, lc, *r);
    }
    if (scan.getNumResults() == 1)
      return PyValue::ofValue(scan->getResult(0), dtypes[0]);
    std::vector<PyValue> outs;
    for (auto [k, r] : llvm::enumerate(scan.getResults()))
      outs.push_back(PyValue::ofValue(r, dtypes[k]));
    return PyValue::ofTuple(outs);
  }

  // --- dot (Dot.cpp) ---
  if (name == "tl.dot")
    return callDot(args, l);

  // --- layout of a tile ---
  // trans(input, *dims) and permute(input, *dims), as Triton 3.6: dims as
  // one tuple or as separate ints; trans without dims swaps the last two
  // dimensions (a batched transpose); `x.T` is permute(x, (1, 0))
  // (Builtins.cpp).
  if (name == "tl.trans" || name == "tl.permute") {
    StringRef fname = StringRef(name).drop_front(3);
    if (!args.kwargs.empty()) {
      error(l) << fname << "() got an unexpected keyword argument '"
               << args.kwargs.front().first << "' (dims are positional)";
      return failure();
    }
    if (args.args.empty()) {
      error(l) << fname << "() missing required argument 'input'";
      return failure();
    }
    TRY(x, toValue(args.args[0], l));
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t) {
      error(l) << "expected a tile for tl." << fname << ", found "
               << x.getType();
      return failure();
    }
    int64_t rank = t.getRank();
    SmallVector<int64_t> dims;
    if (args.args.size() == 2) {
      TRY(d, intList(*this, args.args[1], "dims", l));
      dims = d;
    } else {
      for (size_t i = 1; i < args.args.size(); ++i) {
        if (args.args[i].kind != K::Int) {
          error(l) << "expected compile-time integers for dims of tl." << fname
                   << ", found " << args.args[i].describe();
          return failure();
        }
        dims.push_back(args.args[i].i);
      }
    }
    if (dims.empty() && name == "tl.trans") {
      if (rank < 2) {
        error(l) << "expected a tile of rank 2 or more for tl.trans without "
                    "dims, found "
                 << t;
        return failure();
      }
      for (int64_t i = 0; i < rank - 2; ++i)
        dims.push_back(i);
      dims.append({rank - 1, rank - 2});
    }
    SmallVector<int32_t> order(dims.begin(), dims.end());
    std::vector<bool> seen(rank, false);
    bool ok = int64_t(order.size()) == rank;
    for (int32_t o : order)
      ok = ok && o >= 0 && o < rank && !seen[o] && (seen[o] = true);
    if (!ok) {
      auto d = error(l);
      d << "expected dims of tl." << fname << " to be a permutation of [0, "
        << rank << ") for " << t << ", found (";
      llvm::interleaveComma(dims, d);
      d << (dims.size() == 1 ? ",)" : ")");
      return failure();
    }
    return PyValue::ofValue(tile::TransOp::create(b, lc, x, order),
                            elementTypeOf(args.args[0]));
  }

  // --- hints, assumptions, barriers ---
  if (name == "tl.multiple_of" || name == "tl.max_contiguous" ||
      name == "tl.max_constancy") {
    TRY(s, bindArgs(*this, args, {"input", "values"}, 2, name.substr(3), l));
    TRY(x, toValue(*s[0], l));
    TRY(vals, intList(*this, *s[1], "values", l));
    int64_t rank = isa<RankedTensorType>(x.getType())
                       ? cast<RankedTensorType>(x.getType()).getRank()
                       : 1;
    if (int64_t(vals.size()) != rank) {
      error(l) << "expected " << rank << " values for " << name << ", found "
               << vals.size();
      return failure();
    }
    for (int64_t v : vals)
      if (v < 1 || (v & (v - 1))) {
        error(l) << "expected powers of two for " << name << ", found " << v;
        return failure();
      }
    Type et = elemOf(x);
    if (!et.isInteger() && !isa<tile::PtrType>(et)) {
      error(l) << "expected an integer or pointer value for " << name
               << ", found " << x.getType();
      return failure();
    }
    auto arr = b.getDenseI64ArrayAttr(vals);
    auto hint = tile::HintOp::create(
        b, lc, x.getType(), x, name == "tl.multiple_of" ? arr : DenseI64ArrayAttr(),
        name == "tl.max_contiguous" ? arr : DenseI64ArrayAttr(),
        name == "tl.max_constancy" ? arr : DenseI64ArrayAttr());
    return PyValue::ofValue(hint.getResult(), elementTypeOf(*s[0]));
  }
  if (name == "tl.assume") {
    TRY(s, bindArgs(*this, args, {"cond"}, 1, "assume", l));
    if (s[0]->isConstexpr()) {
      TRY(t, truthiness(*s[0], l));
      if (!t) {
        error(l) << "tl.assume of a false compile-time condition";
        return failure();
      }
      return PyValue::none();
    }
    TRY(c, toValue(*s[0], l));
    if (c.getType() != b.getI1Type()) {
      error(l) << "expected a scalar boolean for tl.assume, found "
               << c.getType();
      return failure();
    }
    tile::AssumeOp::create(b, lc, c);
    return PyValue::none();
  }
  if (name == "tl.debug_barrier") {
    TRY(s, bindArgs(*this, args, {}, 0, "debug_barrier", l));
    (void)s;
    tile::BarrierOp::create(b, lc);
    return PyValue::none();
  }

  // --- atomics ---
  if (name.rfind("tl.atomic_", 0) == 0) {
    bool isCas = name == "tl.atomic_cas";
    TRY(s, isCas ? bindArgs(*this, args, {"pointer", "cmp", "val", "sem", "scope"},
                        3, "atomic_cas", l)
                 : bindArgs(*this, args, {"pointer", "val", "mask", "sem", "scope"},
                        2, name.substr(3), l));
    auto semScope = [&](const std::optional<PyValue> &sem,
                        const std::optional<PyValue> &scope,
                        tile::MemSemantic &semOut,
                        tile::MemScope &scopeOut) -> LogicalResult {
      semOut = tile::MemSemantic::AcqRel;
      scopeOut = tile::MemScope::GPU;
      if (present(sem)) {
        std::string v = sem->kind == K::Str ? sem->s : "";
        if (v == "relaxed") semOut = tile::MemSemantic::Relaxed;
        else if (v == "acquire") semOut = tile::MemSemantic::Acquire;
        else if (v == "release") semOut = tile::MemSemantic::Release;
        else if (v == "acq_rel") semOut = tile::MemSemantic::AcqRel;
        else {
          error(l) << "expected sem 'relaxed', 'acquire', 'release' or "
                      "'acq_rel', found "
                   << sem->describe();
          return failure();
        }
      }
      if (present(scope)) {
        std::string v = scope->kind == K::Str ? scope->s : "";
        if (v == "gpu") scopeOut = tile::MemScope::GPU;
        else if (v == "cta") scopeOut = tile::MemScope::CTA;
        else if (v == "sys") scopeOut = tile::MemScope::System;
        else {
          error(l) << "expected scope 'gpu', 'cta' or 'sys', found "
                   << scope->describe();
          return failure();
        }
      }
      return success();
    };
    TRY(p, toValue(*s[0], l));
    Value ptr = p;
    if (!isa<tile::PtrType>(elemOf(ptr))) {
      error(l) << "expected a pointer or a tile of pointers for " << name
               << ", found " << ptr.getType();
      return failure();
    }
    // The pointee's dtype: unsigned for `*u32` (max/min compare unsigned).
    Type pointee = cast<tile::PtrType>(elementTypeOf(*s[0])).getPointeeType();
    auto fromOf = [&](const PyValue &v) {
      return v.isRuntime() ? elementTypeOf(v) : pointee;
    };
    tile::MemSemantic sem;
    tile::MemScope scope;
    if (failed(semScope(s[3], s[4], sem, scope)))
      return failure();
    if (isCas) {
      TRY(c0, toValue(*s[1], l, pointee));
      TRY(v0, toValue(*s[2], l, pointee));
      TRY(c1, castTo(c0, pointee, l, false, fromOf(*s[1])));
      TRY(v1, castTo(v0, pointee, l, false, fromOf(*s[2])));
      Value c = c1, v = v1;
      if (failed(broadcastPair(ptr, c, l)) || failed(broadcastPair(ptr, v, l)))
        return failure();
      return PyValue::ofValue(
          tile::AtomicCASOp::create(b, lc, ptr, c, v, sem, scope).getResult(),
          pointee);
    }
    TRY(v0, toValue(*s[1], l, pointee));
    TRY(v1, castTo(v0, pointee, l, false, fromOf(*s[1])));
    Value v = v1;
    if (failed(broadcastPair(ptr, v, l)))
      return failure();
    Value mask;
    if (present(s[2])) {
      // As tl.load and tl.store: any integer or bool mask, nonzero is true.
      TRY(m0, memoryMask(*this, *s[2], ptr, l));
      Value m = m0;
      if (failed(broadcastPair(v, m, l)) || failed(broadcastPair(ptr, v, l)))
        return failure();
      mask = m;
    }
    bool f = isa<FloatType>(pointee);
    std::string op = name.substr(10);
    tile::RMWKind kind;
    if (op == "add") kind = f ? tile::RMWKind::FAdd : tile::RMWKind::Add;
    else if (op == "max")
      kind = isUnsignedInt(pointee) ? tile::RMWKind::UMax : tile::RMWKind::Max;
    else if (op == "min")
      kind = isUnsignedInt(pointee) ? tile::RMWKind::UMin : tile::RMWKind::Min;
    else if (op == "and") kind = tile::RMWKind::And;
    else if (op == "or") kind = tile::RMWKind::Or;
    else if (op == "xor") kind = tile::RMWKind::Xor;
    else if (op == "xchg") kind = tile::RMWKind::Xchg;
    else {
      error(l) << "unimplemented: " << name;
      return failure();
    }
    if (f && kind != tile::RMWKind::FAdd && kind != tile::RMWKind::Xchg &&
        kind != tile::RMWKind::Max && kind != tile::RMWKind::Min) {
      error(l) << "expected an integer pointee for " << name << ", found "
               << pointee;
      return failure();
    }
    return PyValue::ofValue(
        tile::AtomicRMWOp::create(b, lc, kind, ptr, v, mask, sem, scope)
            .getResult(),
        pointee);
  }

  // --- tensor descriptors ---
  if (name == "tl.make_tensor_descriptor") {
    TRY(s, bindArgs(*this, args, {"base", "shape", "strides", "block_shape",
                              "padding_option"},
                4, "make_tensor_descriptor", l));
    TRY(base, toValue(*s[0], l));
    if (!isa<tile::PtrType>(base.getType())) {
      error(l) << "expected a scalar pointer as the descriptor base, found "
               << base.getType();
      return failure();
    }
    TRY(block, intList(*this, *s[3], "block_shape", l));
    Type elem = cast<tile::PtrType>(base.getType()).getPointeeType();
    if (failed(checkDescriptorBlock(block, elem, lc)))
      return failure();
    bool nanPadding = false;
    if (present(s[4])) {
      if (s[4]->kind != K::Str ||
          (s[4]->s != "zero" && s[4]->s != "nan")) {
        error(l) << "expected padding_option \"zero\" or \"nan\", found "
                 << s[4]->describe();
        return failure();
      }
      nanPadding = s[4]->s == "nan";
      if (nanPadding && !isa<FloatType>(elem)) {
        error(l) << "padding_option=\"nan\" needs a float tensor, found "
                 << elem;
        return failure();
      }
    }
    auto listOf = [&](const PyValue &v) -> FailureOr<SmallVector<Value>> {
      std::vector<PyValue> elts =
          v.kind == K::Tuple ? v.elts : std::vector<PyValue>{v};
      SmallVector<Value> out;
      for (const PyValue &e : elts) {
        auto x = toValue(e, l, b.getI32Type());
        if (failed(x))
          return failure();
        if (!x->getType().isInteger(32) && !x->getType().isInteger(64)) {
          error(l) << "expected i32 or i64 scalars for a descriptor's shape "
                      "and strides, found "
                   << x->getType();
          return failure();
        }
        out.push_back(*x);
      }
      return out;
    };
    TRY(shape, listOf(*s[1]));
    TRY(strides, listOf(*s[2]));
    if (shape.size() != block.size() || strides.size() != block.size()) {
      error(l) << "expected shape, strides and block_shape of one rank, found "
               << shape.size() << ", " << strides.size() << " and "
               << block.size();
      return failure();
    }
    APInt lastStride;
    if (!matchPattern(strides.back(), m_ConstantInt(&lastStride)) ||
        !lastStride.isOne()) {
      error(l) << "expected the last stride of a tensor descriptor to be the "
                  "constant 1 (the innermost dimension contiguous, as Triton "
                  "requires), found "
               << (s[2]->kind == K::Tuple && !s[2]->elts.empty()
                       ? s[2]->elts.back().describe()
                       : s[2]->describe());
      return failure();
    }
    auto descType =
        tile::TensorDescType::get(ctx, RankedTensorType::get(block, elem));
    PyValue d;
    d.kind = K::Descriptor;
    d.v = tile::MakeTensorDescOp::create(b, lc, descType, base, shape, strides,
                                         nanPadding);
    if (Type dt = cast<tile::PtrType>(elementTypeOf(*s[0])).getPointeeType();
        dt != elem)
      d.dtype = dt;
    return d;
  }
  if (name == "tl.desc.load" || name == "tl.desc.store") {
    bool isLoad = name == "tl.desc.load";
    // desc.load(offsets), desc.store(offsets, value), as Triton names them.
    TRY(s, isLoad ? bindArgs(*this, args, {"desc", "offsets"}, 2, "load", l)
                  : bindArgs(*this, args, {"desc", "offsets", "value"}, 3,
                             "store", l));
    args.args.assign(s.size(), PyValue());
    for (size_t k = 0; k < s.size(); ++k)
      args.args[k] = *s[k];
    Value desc = args.args[0].v;
    auto descType = cast<tile::TensorDescType>(desc.getType());
    std::vector<PyValue> offs = args.args[1].kind == K::Tuple
                                    ? args.args[1].elts
                                    : std::vector<PyValue>{args.args[1]};
    SmallVector<Value> idx;
    for (const PyValue &o : offs) {
      TRY(v, toValue(o, l, b.getI32Type()));
      if (!v.getType().isInteger(32)) {
        error(l) << "expected i32 offsets, found " << v.getType();
        return failure();
      }
      idx.push_back(v);
    }
    if (int64_t(idx.size()) != descType.getBlockType().getRank()) {
      error(l) << "expected " << descType.getBlockType().getRank()
               << " offsets, found " << idx.size();
      return failure();
    }
    Type dtype = args.args[0].dtype ? args.args[0].dtype
                                    : descType.getBlockType().getElementType();
    if (isLoad)
      return PyValue::ofValue(tile::DescLoadOp::create(
                                  b, lc, descType.getBlockType(), desc, idx),
                              dtype);
    TRY(v0, toValue(args.args[2], l, dtype));
    TRY(v1, castTo(v0, dtype, l, false,
                   args.args[2].isRuntime() ? elementTypeOf(args.args[2])
                                            : dtype));
    TRY(v, broadcastTo(v1, descType.getBlockType().getShape(), l));
    tile::DescStoreOp::create(b, lc, desc, idx, v);
    return PyValue::none();
  }

  if (name == "tl.histogram") {
    // Triton 3.6: a 1-D integer input, a compile-time bin count, an
    // optional bool mask (broadcast to the input's shape); the counts are
    // int32. Out-of-range values: tile.histogram's description.
    TRY(s, bindArgs(*this, args, {"input", "num_bins", "mask"}, 2, "histogram", l));
    TRY(x, toValue(*s[0], l));
    auto t = dyn_cast<RankedTensorType>(x.getType());
    if (!t || t.getRank() != 1 || !t.getElementType().isSignlessInteger() ||
        t.getElementType().isInteger(1)) {
      error(l) << "expected a 1-D tile of integers for tl.histogram, found "
               << x.getType();
      return failure();
    }
    if (s[1]->kind != K::Int || s[1]->i <= 0 || s[1]->i > (int64_t(1) << 20) ||
        (s[1]->i & (s[1]->i - 1))) {
      error(l) << "expected num_bins to be a compile-time power of two in "
                  "[1, 2^20], found "
               << s[1]->describe();
      return failure();
    }
    Value mask;
    if (present(s[2])) {
      TRY(m0, toValue(*s[2], l));
      if (!tile::getElementTypeOrSelf(m0.getType()).isInteger(1)) {
        error(l) << "expected a bool mask for tl.histogram (as Triton), found "
                 << m0.getType();
        return failure();
      }
      TRY(m, broadcastTo(m0, t.getShape(), l));
      mask = m;
    }
    // Narrower integers widen to i32 by their signedness (-1 of an int8 is
    // -1, bin P - 1, as for int32; 255 of a uint8 stays 255).
    Value xs = x;
    if (t.getElementType().getIntOrFloatBitWidth() < 32) {
      TRY(w, castValue(*s[0], isUnsignedInt(elementTypeOf(*s[0]))
                                  ? Type(IntegerType::get(ctx, 32,
                                                          IntegerType::Unsigned))
                                  : Type(b.getI32Type()),
                       l));
      TRY(wv, toValue(w, l));
      xs = wv;
    }
    auto resType = RankedTensorType::get({s[1]->i}, b.getI32Type());
    return PyValue::ofValue(
        tile::HistogramOp::create(b, lc, resType, xs, mask).getResult());
  }

  if (name == "tl.gather") {
    // Triton 3.6 (semantic.gather): src and an integer index of one rank,
    // a compile-time axis in [-rank, rank), every dimension of the index
    // but the axis equal to the source's; the result has the index's
    // shape and the source's dtype. Out-of-range indices: tile.gather's
    // description (clamped).
    TRY(s, bindArgs(*this, args, {"src", "index", "axis"}, 3, "gather", l));
    TRY(x, toValue(*s[0], l));
    auto st = dyn_cast<RankedTensorType>(x.getType());
    if (!st) {
      error(l) << "expected a tile for the source of tl.gather, found "
               << s[0]->describe();
      return failure();
    }
    TRY(i, toValue(*s[1], l));
    auto it = dyn_cast<RankedTensorType>(i.getType());
    if (!it || !it.getElementType().isSignlessInteger() ||
        it.getElementType().isInteger(1)) {
      error(l) << "expected a tile of integers for the index of tl.gather "
                  "(as Triton), found "
               << s[1]->describe();
      return failure();
    }
    int64_t rank = st.getRank();
    if (it.getRank() != rank) {
      error(l) << "expected an index of the source's rank " << rank
               << " for tl.gather, found rank " << it.getRank();
      return failure();
    }
    if (s[2]->kind != K::Int || s[2]->i < -rank || s[2]->i >= rank) {
      error(l) << "expected a compile-time axis in [" << -rank << ", " << rank
               << ") for tl.gather, found " << s[2]->describe();
      return failure();
    }
    int64_t axis = s[2]->i < 0 ? s[2]->i + rank : s[2]->i;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && it.getDimSize(d) != st.getDimSize(d)) {
        error(l) << "expected index dimension " << d
                 << " of tl.gather to equal the source's ("
                 << st.getDimSize(d) << "; only the axis " << axis
                 << " may differ), found " << it.getDimSize(d);
        return failure();
      }
    // Narrower indices widen to i32 by their signedness, so a uint8 index
    // of 200 is 200 (tile.gather sign-extends what it is given).
    Value index = i;
    if (it.getElementType().getIntOrFloatBitWidth() < 32) {
      TRY(w, castValue(*s[1], isUnsignedInt(elementTypeOf(*s[1]))
                                  ? Type(IntegerType::get(ctx, 32,
                                                          IntegerType::Unsigned))
                                  : Type(b.getI32Type()),
                       l));
      TRY(wv, toValue(w, l));
      index = wv;
    }
    return PyValue::ofValue(
        tile::GatherOp::create(b, lc, x, index, int32_t(axis)).getResult(),
        elementTypeOf(*s[0]));
  }
  if (name == "tl.inline_asm_elementwise")
    return callInlineAsmElementwise(*this, args, l);
  error(l) << "unimplemented: " << name << " is not supported by tilec yet";
  return failure();
}

LogicalResult CodeGen::checkDescriptorBlock(ArrayRef<int64_t> block, Type elem,
                                            Location l) {
  // Triton's checks (semantic.make_tensor_descriptor): a TMA box.
  if (block.empty() || block.size() > 5) {
    error(l) << "expected a block_shape of rank 1 to 5 (a TMA box), found "
                "rank "
             << block.size();
    return failure();
  }
  for (int64_t d : block)
    if (d < 1 || d > 256 || (d & (d - 1))) {
      error(l) << "expected block_shape entries that are powers of two up "
                  "to 256 (a TMA box), found "
               << d;
      return failure();
    }
  int64_t elemBits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  if (block.back() * elemBits < 16 * 8) {
    error(l) << "expected a block_shape with at least 16 bytes in the last "
                "dimension, found "
             << block.back() << " x " << elemBits / 8 << " bytes";
    return failure();
  }
  return success();
}
