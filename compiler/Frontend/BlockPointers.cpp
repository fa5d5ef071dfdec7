//===- BlockPointers.cpp - tl.make_block_ptr, tl.advance --------*- C++ -*-===//
//
// Block pointers (Triton's `tl.make_block_ptr(base, shape, strides, offsets,
// block_shape, order)`) are compile-time structures of the front end: a
// scalar base pointer, the tensor's sizes and strides (i64), the block's
// offsets (i32), and the block shape and order (constants). `tl.advance`
// makes a new one with the offsets moved; loads and stores through one
// become the pointer tile and mask they mean, as Triton's
// RewriteTensorPointer pass makes them:
//
//   ptrs[i0, .., ir] = base + sum_d (offset_d + i_d) * stride_d      (i64)
//   mask            = AND over d in boundary_check of
//                       0 <= offset_d + i_d < shape_d
//
// so they coalesce, vectorize and pipeline like tl.load / tl.store of
// pointer tiles. A block pointer's run-time parts are carried through loops
// and ifs as separate values (ImportToTile.cpp, "structured values").
//
// Checks follow Triton 3.6's semantic.make_block_ptr, advance,
// _load_block_pointer and _store_block_pointer.
//
//===----------------------------------------------------------------------===//
#include "compiler/Frontend/CodeGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::frontend;
using tilec::py::SourceLoc;
using K = PyValue::Kind;

namespace {
/// The elements of a list argument (a single value is a list of one).
std::vector<PyValue> listElements(const PyValue &v) {
  return v.kind == K::Tuple ? v.elts : std::vector<PyValue>{v};
}

/// Compile-time integers of `v` (an int alone is a list of one), each in
/// int32's range, as Triton requires of block_shape and order.
FailureOr<SmallVector<int64_t>> constInts(CodeGen &g, const PyValue &v,
                                          StringRef what, SourceLoc l) {
  SmallVector<int64_t> out;
  for (const PyValue &e : listElements(v)) {
    if (e.kind != K::Int || e.i < INT32_MIN || e.i > INT32_MAX) {
      g.error(l) << "expected a list of constant integers (int32 range) in `"
                 << what << "`, found " << e.describe();
      return failure();
    }
    out.push_back(e.i);
  }
  return out;
}
} // namespace

/// The run-time parts of a block pointer: elts = [base, (shape...),
/// (strides...), (offsets...), (block_shape...), (order...)]; the last two
/// are compile-time ints. `dtype`: the pointee's dtype where the IR's type
/// does not say it (unsigned).
static PyValue makeBlockPtrValue(PyValue base, std::vector<PyValue> shape,
                                 std::vector<PyValue> strides,
                                 std::vector<PyValue> offsets,
                                 ArrayRef<int64_t> block,
                                 ArrayRef<int64_t> order) {
  auto ints = [](ArrayRef<int64_t> xs) {
    std::vector<PyValue> out;
    for (int64_t x : xs)
      out.push_back(PyValue::ofInt(x));
    return PyValue::ofTuple(out);
  };
  PyValue p;
  p.kind = K::BlockPtr;
  p.dtype = base.dtype;
  p.elts = {std::move(base),
            PyValue::ofTuple(std::move(shape)),
            PyValue::ofTuple(std::move(strides)),
            PyValue::ofTuple(std::move(offsets)),
            ints(block),
            ints(order)};
  for (const PyValue &e : p.elts)
    p.nodes += e.nodes;
  return p;
}

SmallVector<int64_t> frontend::blockShapeOf(const PyValue &bp) {
  SmallVector<int64_t> out;
  for (const PyValue &e : bp.elts[4].elts)
    out.push_back(e.i);
  return out;
}

FailureOr<SmallVector<Value>> CodeGen::blockPointerScalars(const PyValue &list,
                                                           Type type,
                                                           StringRef what,
                                                           SourceLoc l) {
  SmallVector<Value> out;
  for (const PyValue &e : listElements(list)) {
    bool i64 = type.isInteger(64);
    if (e.kind == K::Int && !i64 && (e.i < INT32_MIN || e.i > INT32_MAX)) {
      error(l) << "block pointers only support 32-bit `" << what << "`, found "
               << e.i;
      return failure();
    }
    if (e.isRuntime() && isa<RankedTensorType>(e.v.getType())) {
      error(l) << "expected a scalar in `" << what << "`, found "
               << e.describe();
      return failure();
    }
    TRY(v, toValue(e, l, type));
    if (!v.getType().isSignlessInteger() || v.getType().isInteger(1)) {
      error(l) << "expected integer scalars in `" << what << "`, found "
               << v.getType();
      return failure();
    }
    if (!i64 && v.getType().getIntOrFloatBitWidth() > 32) {
      // Triton: "Block pointers only support 32 bit offsets".
      error(l) << "block pointers only support 32-bit `" << what << "`, found "
               << v.getType()
               << "; add a .to(tl.int32) or index with pointer tiles";
      return failure();
    }
    TRY(c, castTo(v, type, l, false, e.isRuntime() ? elementTypeOf(e) : type));
    out.push_back(c);
  }
  return out;
}

FailureOr<PyValue> CodeGen::callBlockPointerBuiltin(const std::string &name,
                                                    CallArgs &args,
                                                    SourceLoc l) {
  auto wrap = [](ArrayRef<Value> vs) {
    std::vector<PyValue> out;
    for (Value v : vs)
      out.push_back(PyValue::ofValue(v));
    return out;
  };
  if (name == "tl.make_block_ptr") {
    TRY(s, bindArgs(
               *this, args,
               {"base", "shape", "strides", "offsets", "block_shape", "order"},
               6, "make_block_ptr", l));
    const PyValue &base = *s[0];
    if (!base.isRuntime() || !isa<tile::PtrType>(base.v.getType())) {
      error(l) << "expected `base` to be a scalar pointer (not a block "
                  "pointer or a tile), found "
               << base.describe();
      return failure();
    }
    TRY(block, constInts(*this, *s[4], "block_shape", l));
    TRY(order, constInts(*this, *s[5], "order", l));
    size_t rank = block.size();
    size_t nShape = listElements(*s[1]).size(),
           nStrides = listElements(*s[2]).size(),
           nOffsets = listElements(*s[3]).size();
    if (rank == 0 || nShape != rank || nStrides != rank || nOffsets != rank ||
        order.size() != rank) {
      error(l) << "expected shape, strides, offsets, block_shape and order "
                  "of one length, found "
               << nShape << ", " << nStrides << ", " << nOffsets << ", " << rank
               << " and " << order.size();
      return failure();
    }
    SmallVector<int64_t> sorted(order);
    llvm::sort(sorted);
    for (size_t d = 0; d < rank; ++d)
      if (sorted[d] != int64_t(d)) {
        error(l) << "expected a permutation of (0, ..., " << rank - 1
                 << ") in `order`";
        return failure();
      }
    int64_t elems = 1;
    for (int64_t d : block) {
      if (d <= 0 || (d & (d - 1))) {
        error(l) << "expected powers of two in `block_shape` (the block is "
                    "a tile), found "
                 << d;
        return failure();
      }
      elems *= d;
      if (elems > (int64_t(1) << 20)) {
        error(l) << "a block of more than 2^20 elements";
        return failure();
      }
    }
    TRY(shape, blockPointerScalars(*s[1], b.getI64Type(), "shape", l));
    TRY(strides, blockPointerScalars(*s[2], b.getI64Type(), "strides", l));
    TRY(offsets, blockPointerScalars(*s[3], b.getI32Type(), "offsets", l));
    PyValue basePtr = base;
    // Triton reads a block of int1 through an int8 pointer.
    auto ptrType = cast<tile::PtrType>(base.v.getType());
    if (ptrType.getPointeeType().isInteger(1)) {
      TRY(p8, castTo(base.v, tile::PtrType::get(ctx, b.getI8Type()), l, false,
                     Type()));
      basePtr = PyValue::ofValue(p8);
    }
    return makeBlockPtrValue(basePtr, wrap(shape), wrap(strides), wrap(offsets),
                             block, order);
  }
  if (name == "tl.advance") {
    TRY(s, bindArgs(*this, args, {"base", "offsets"}, 2, "advance", l));
    if (s[0]->kind != K::BlockPtr) {
      error(l) << "expected a block pointer (tl.make_block_ptr) to advance, "
                  "found "
               << s[0]->describe();
      return failure();
    }
    PyValue bp = *s[0];
    std::vector<PyValue> &offs = bp.elts[3].elts;
    if (listElements(*s[1]).size() != offs.size()) {
      error(l) << "expected " << offs.size()
               << " offsets (the block's rank) to advance by, found "
               << listElements(*s[1]).size();
      return failure();
    }
    TRY(delta, blockPointerScalars(*s[1], b.getI32Type(), "offsets", l));
    for (size_t d = 0; d < offs.size(); ++d) {
      // Skip adding a constant 0 (an unchanged offset stays the same value,
      // so a loop does not carry it).
      if (auto c = delta[d].getDefiningOp<arith::ConstantIntOp>();
          c && c.value() == 0)
        continue;
      offs[d] = PyValue::ofValue(
          arith::AddIOp::create(b, loc(l), offs[d].v, delta[d]));
    }
    return bp;
  }
  error(l) << "unimplemented: " << name << " is not supported by tilec yet";
  return failure();
}

FailureOr<BlockAccess>
CodeGen::blockPointerAccess(const PyValue &bp,
                            const std::optional<PyValue> &boundaryCheck,
                            SourceLoc l) {
  SmallVector<int64_t> block = blockShapeOf(bp);
  size_t rank = block.size();
  // Triton's _canonicalize_boundary_check: dims in [0, rank), no
  // duplicates, sorted.
  SmallVector<int64_t> checked;
  if (present(boundaryCheck)) {
    for (const PyValue &e : listElements(*boundaryCheck)) {
      if (e.kind != K::Int || e.i < 0 || e.i >= int64_t(rank)) {
        error(l) << "expected dimensions in [0, " << rank
                 << ") in `boundary_check`, found " << e.describe();
        return failure();
      }
      if (llvm::is_contained(checked, e.i)) {
        error(l) << "duplicate dimension " << e.i << " in `boundary_check`";
        return failure();
      }
      checked.push_back(e.i);
    }
  }
  const std::vector<PyValue> &shape = bp.elts[1].elts,
                             &strides = bp.elts[2].elts,
                             &offsets = bp.elts[3].elts;
  Type i64 = b.getI64Type();
  std::optional<PyValue> sum, mask;
  for (size_t d = 0; d < rank; ++d) {
    // offset_d + arange(0, block_d), in i64, shaped [1, .., block_d, .., 1].
    CallArgs ar;
    ar.args = {PyValue::ofInt(0), PyValue::ofInt(block[d])};
    TRY(range, callBuiltin("tl.arange", ar, l));
    TRY(off64, castValue(offsets[d], i64, l));
    TRY(idx0, binary(py::BinOpKind::Add, off64, range, l));
    TRY(idxV, toValue(idx0, l));
    Value idx = idxV;
    for (size_t a = 0; a < rank; ++a)
      if (a != d) {
        // Axes before d go in front of it, the others after it.
        TRY(e, expandDims(idx, int64_t(a), l));
        idx = e;
      }
    PyValue index = PyValue::ofValue(idx);
    TRY(term, binary(py::BinOpKind::Mul, index, strides[d], l));
    if (sum) {
      TRY(acc, binary(py::BinOpKind::Add, *sum, term, l));
      sum = acc;
    } else {
      sum = term;
    }
    if (llvm::is_contained(checked, int64_t(d))) {
      TRY(lo, compare(py::CmpOpKind::GtE, index, PyValue::ofInt(0), l));
      TRY(hi, compare(py::CmpOpKind::Lt, index, shape[d], l));
      TRY(both, binary(py::BinOpKind::BitAnd, lo, hi, l));
      if (mask) {
        TRY(m, binary(py::BinOpKind::BitAnd, *mask, both, l));
        mask = m;
      } else {
        mask = both;
      }
    }
  }
  TRY(ptrs0, binary(py::BinOpKind::Add, bp.elts[0], *sum, l));
  TRY(ptrs, toValue(ptrs0, l));
  BlockAccess out;
  TRY(full, broadcastTo(ptrs, block, l));
  out.ptrs = full;
  if (mask) {
    TRY(m0, toValue(*mask, l));
    TRY(m, broadcastTo(m0, block, l));
    out.mask = m;
  }
  return out;
}

LogicalResult frontend::noBlockPointerArgs(
    CodeGen &g, const std::optional<PyValue> &boundaryCheck,
    const std::optional<PyValue> &padding, StringRef op, SourceLoc l) {
  bool check = present(boundaryCheck) && !(boundaryCheck->kind == K::Tuple &&
                                           boundaryCheck->elts.empty());
  bool pad =
      present(padding) && !(padding->kind == K::Str && padding->s.empty());
  if (!check && !pad)
    return success();
  // Triton 3.6's _load_legacy / _store_legacy.
  g.error(l) << "`" << (check ? "boundary_check" : "padding_option")
             << "` needs a block pointer (tl.make_block_ptr): tl." << op
             << " through a pointer or a tile of pointers does not know the "
                "tensor's bounds; use a mask";
  return failure();
}

FailureOr<PyValue> frontend::loadBlockPointer(CodeGen &g, const ArgSlots &s,
                                              SourceLoc l) {
  // s: pointer, mask, other, boundary_check, padding_option, cache_modifier,
  // eviction_policy, volatile.
  if (present(s[1]) || present(s[2])) {
    g.error(l) << "`mask` and `other` cannot be given for a load through a "
                  "block pointer (its boundary_check masks it)";
    return failure();
  }
  const PyValue &bp = *s[0];
  Type pointee =
      cast<tile::PtrType>(g.elementTypeOf(bp.elts[0])).getPointeeType();
  Type elem = cast<tile::PtrType>(bp.elts[0].v.getType()).getPointeeType();
  bool nan = false;
  if (present(s[4])) {
    if (s[4]->kind != K::Str ||
        (s[4]->s != "" && s[4]->s != "zero" && s[4]->s != "nan")) {
      g.error(l) << "expected padding_option \"zero\" or \"nan\", found "
                 << s[4]->describe();
      return failure();
    }
    nan = s[4]->s == "nan";
    if (nan && !isa<FloatType>(elem)) {
      g.error(l) << "padding_option=\"nan\" needs a float block, found "
                 << elem;
      return failure();
    }
  }
  TRY(acc, g.blockPointerAccess(bp, s[3], l));
  SmallVector<int64_t> block = blockShapeOf(bp);
  Value other;
  if (acc.mask) {
    // Out-of-bounds elements read as zero, or NaN with padding "nan" (with
    // no padding_option Triton leaves them undefined; tilec reads zero).
    PyValue fill = nan                    ? PyValue::ofFloat(std::nan(""))
                   : isa<FloatType>(elem) ? PyValue::ofFloat(0)
                                          : PyValue::ofInt(0);
    TRY(f, g.toValue(fill, l, elem));
    TRY(fb, g.broadcastTo(f, block, l));
    other = fb;
  }
  auto resultType = RankedTensorType::get(block, elem);
  auto load = tile::LoadOp::create(g.b, g.loc(l), resultType, acc.ptrs,
                                   acc.mask, other);
  if (failed(setAccessHints(g, load, s[5], s[6], s[7], l)))
    return failure();
  return PyValue::ofValue(load, pointee);
}

FailureOr<PyValue> frontend::storeBlockPointer(CodeGen &g, const ArgSlots &s,
                                               SourceLoc l) {
  // s: pointer, value, mask, boundary_check, cache_modifier,
  // eviction_policy.
  if (present(s[2])) {
    g.error(l) << "`mask` cannot be given for a store through a block "
                  "pointer (its boundary_check masks it)";
    return failure();
  }
  const PyValue &bp = *s[0];
  Type pointee =
      cast<tile::PtrType>(g.elementTypeOf(bp.elts[0])).getPointeeType();
  SmallVector<int64_t> block = blockShapeOf(bp);
  // Triton's _store_block_pointer: a scalar is broadcast to the block, a
  // tile must have its shape; either must have its element type (Python
  // numbers are int32 / fp32 / int1, as Triton makes them tensors).
  const PyValue &val = *s[1];
  Type have;
  if (val.isRuntime())
    have = g.elementTypeOf(val);
  else if (val.kind == K::Float)
    have = g.b.getF32Type();
  else if (val.kind == K::Bool)
    have = g.b.getI1Type();
  else if (val.kind == K::Int)
    have = val.i >= INT32_MIN && val.i <= INT32_MAX ? g.b.getI32Type()
                                                    : g.b.getI64Type();
  if (!have) {
    g.error(l) << "expected a tile or a scalar to store through a block "
                  "pointer, found "
               << val.describe();
    return failure();
  }
  if (have != pointee) {
    g.error(l) << "expected a value of the block's element type " << pointee
               << " to store through a block pointer (as Triton, no "
                  "conversion: use .to()), found "
               << have;
    return failure();
  }
  TRY(v0, g.toValue(val, l, pointee));
  if (auto t = dyn_cast<RankedTensorType>(v0.getType());
      t && t.getShape() != ArrayRef<int64_t>(block)) {
    g.error(l) << "expected a value of the block's shape or a scalar to "
                  "store through a block pointer (as Triton, no "
                  "broadcasting), found "
               << v0.getType();
    return failure();
  }
  TRY(v, g.broadcastTo(v0, block, l));
  TRY(acc, g.blockPointerAccess(bp, s[3], l));
  auto store = tile::StoreOp::create(g.b, g.loc(l), acc.ptrs, v, acc.mask);
  if (failed(setAccessHints(g, store, s[4], s[5], std::nullopt, l)))
    return failure();
  return PyValue::none();
}
