//===- SIMTUtils.cpp - Shared helpers of the SIMT lowering ------*- C++ -*-===//
//
// Type conversion and thread-coordinate emission for the SIMT lowering.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  // LLVM has no fp8 type: fp8 values live as their bytes (i8).
  addConversion([ctx](Float8E4M3FNType) -> Type {
    return IntegerType::get(ctx, 8);
  });
  addConversion([ctx](Float8E5M2Type) -> Type {
    return IntegerType::get(ctx, 8);
  });
  addConversion([ctx](tile::PtrType) -> Type {
    return IntegerType::get(ctx, 64);
  });
  // A TMA descriptor: the generic address of its kernel parameter.
  addConversion([ctx](tile::TensorMapType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 0);
  });
  // A tile in shared memory: the address of its buffer.
  addConversion([ctx](tile::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, 3);
  });
  addConversion([this](RankedTensorType t) -> std::optional<Type> {
    FailureOr<tile::LinearLayout> l = tile::getLinearLayout(t);
    if (failed(l))
      return std::nullopt;
    Type elem = convertType(t.getElementType());
    if (!elem)
      return std::nullopt;
    return VectorType::get({l->getNumRegisters()}, elem);
  });
}

Value simt::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value simt::i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

Value simt::emitLaneId(OpBuilder &b, Location loc) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  return arith::AndIOp::create(b, loc, tid, i32Const(b, loc, 31));
}

DenseI32ArrayAttr simt::getPartition(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto range = op->getAttrOfType<DenseI32ArrayAttr>(kPartitionAttr))
      return range;
  return {};
}

Value simt::emitIsThreadZero(OpBuilder &b, Location loc) {
  DenseI32ArrayAttr part = getPartition(b.getInsertionBlock()->getParentOp());
  int64_t first = part ? part[0] : 0;
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                               i32Const(b, loc, first));
}

Value simt::emitThreadId(OpBuilder &b, Location loc) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  DenseI32ArrayAttr part = getPartition(b.getInsertionBlock()->getParentOp());
  if (part && part[0] != 0)
    tid = arith::SubIOp::create(b, loc, tid, i32Const(b, loc, part[0]));
  return tid;
}

Value simt::emitWarpId(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, emitThreadId(b, loc),
                                i32Const(b, loc, 5));
}

Value simt::extractBits(OpBuilder &b, Location loc, Value id, uint64_t mask) {
  SmallVector<int64_t> bases;
  int64_t next = 1;
  for (unsigned bit = 0; bit < 64 && (mask >> bit); ++bit) {
    if (mask >> bit & 1) {
      bases.push_back(next);
      next <<= 1;
    } else {
      bases.push_back(0);
    }
  }
  return emitLinearFunction(b, loc, id, bases);
}

Value simt::emitLinearFunction(OpBuilder &b, Location loc, Value id,
                               ArrayRef<int64_t> bases, int64_t *mayBeSet) {
  Value result;
  int64_t bits = 0;
  bool disjoint = true;
  auto combine = [&](Value term, int64_t termBits) {
    if (!result) {
      result = term;
    } else if (disjoint && !(bits & termBits)) {
      result = arith::OrIOp::create(b, loc, result, term);
    } else {
      disjoint = false;
      result = arith::XOrIOp::create(b, loc, result, term);
    }
    bits |= termBits;
  };
  for (unsigned i = 0; i < bases.size();) {
    int64_t v = bases[i];
    if (v == 0) {
      ++i;
      continue;
    }
    if (llvm::isPowerOf2_64(v)) {
      // A run of bits i..i+n-1 mapping to v, 2v, 4v, ...
      unsigned n = 1;
      while (i + n < bases.size() && bases[i + n] == v << n)
        ++n;
      unsigned to = llvm::Log2_64(v);
      int64_t mask = ((int64_t(1) << n) - 1) << i;
      Value t = arith::AndIOp::create(b, loc, id, i32Const(b, loc, mask));
      if (to > i)
        t = arith::ShLIOp::create(b, loc, t, i32Const(b, loc, to - i));
      else if (to < i)
        t = arith::ShRUIOp::create(b, loc, t, i32Const(b, loc, i - to));
      combine(t, ((int64_t(1) << n) - 1) << to);
      i += n;
      continue;
    }
    // A general basis: (0 - bit) & v.
    Value bit = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, id, i32Const(b, loc, i)),
        i32Const(b, loc, 1));
    Value all = arith::SubIOp::create(b, loc, i32Const(b, loc, 0), bit);
    combine(arith::AndIOp::create(b, loc, all, i32Const(b, loc, v)), v);
    ++i;
  }
  if (mayBeSet)
    *mayBeSet = bits;
  return result ? result : i32Const(b, loc, 0);
}

ThreadCoords simt::emitThreadCoords(OpBuilder &b, Location loc,
                                    const tile::LinearLayout &l) {
  using LL = tile::LinearLayout;
  ThreadCoords t;
  unsigned rank = l.getRank();
  Value lane, warp;
  auto basesAlong = [&](LL::InDim in, unsigned d) {
    SmallVector<int64_t> v;
    for (const LL::Coord &c : l.getBases(in))
      v.push_back(c[d]);
    return v;
  };
  for (unsigned d = 0; d < rank; ++d) {
    SmallVector<int64_t> lb = basesAlong(LL::kLane, d);
    SmallVector<int64_t> wb = basesAlong(LL::kWarp, d);
    int64_t laneBits = 0, warpBits = 0;
    Value lv, wv;
    if (llvm::any_of(lb, [](int64_t v) { return v != 0; })) {
      if (!lane)
        lane = emitLaneId(b, loc);
      lv = emitLinearFunction(b, loc, lane, lb, &laneBits);
    }
    if (llvm::any_of(wb, [](int64_t v) { return v != 0; })) {
      if (!warp)
        warp = emitWarpId(b, loc);
      wv = emitLinearFunction(b, loc, warp, wb, &warpBits);
    }
    Value v;
    if (lv && wv)
      v = (laneBits & warpBits)
              ? Value(arith::XOrIOp::create(b, loc, lv, wv))
              : Value(arith::OrIOp::create(b, loc, lv, wv));
    else
      v = lv ? lv : wv ? wv : i32Const(b, loc, 0);
    t.part.push_back(v);
    t.mayBeSet.push_back(laneBits | warpBits);
  }
  return t;
}

SmallVector<Value> simt::emitElementCoords(OpBuilder &b, Location loc,
                                           const tile::LinearLayout &l,
                                           const ThreadCoords &t,
                                           int64_t reg) {
  tile::LinearLayout::Coord r = l.applyIn(tile::LinearLayout::kRegister, reg);
  SmallVector<Value> coords;
  for (unsigned d = 0; d < l.getRank(); ++d) {
    if (r[d] == 0) {
      coords.push_back(t.part[d]);
      continue;
    }
    Value c = i32Const(b, loc, r[d]);
    if (t.mayBeSet[d] == 0)
      coords.push_back(c);
    else if (t.mayBeSet[d] & r[d])
      coords.push_back(arith::XOrIOp::create(b, loc, t.part[d], c));
    else
      coords.push_back(arith::AddIOp::create(b, loc, t.part[d], c));
  }
  return coords;
}

Value simt::emitRowMajorIndex(OpBuilder &b, Location loc,
                              ArrayRef<Value> coords,
                              ArrayRef<int64_t> shape) {
  Value idx;
  int64_t stride = 1;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value term = stride == 1 ? coords[d]
                             : arith::MulIOp::create(b, loc, coords[d],
                                                     i32Const(b, loc, stride));
    idx = idx ? arith::AddIOp::create(b, loc, idx, term).getResult() : term;
    stride *= shape[d];
  }
  return idx ? idx : i32Const(b, loc, 0);
}

tile::LinearLayout simt::getLayout(Type type) {
  FailureOr<tile::LinearLayout> l =
      tile::getLinearLayout(cast<RankedTensorType>(type));
  assert(succeeded(l) && "tile without a valid distributed encoding");
  return *l;
}

Value simt::extractElement(OpBuilder &b, Location loc, Value vec, int64_t i) {
  return LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, i));
}

Value simt::insertElement(OpBuilder &b, Location loc, Value vec, Value v,
                          int64_t i) {
  return LLVM::InsertElementOp::create(b, loc, vec, v, i32Const(b, loc, i));
}

Value simt::poisonValue(OpBuilder &b, Location loc, Type type) {
  return LLVM::PoisonOp::create(b, loc, type);
}

Value simt::mapElements(OpBuilder &b, Location loc, ValueRange xs,
                        Type resultElem, function_ref<Value(ValueRange)> fn) {
  auto vt = dyn_cast<VectorType>(xs[0].getType());
  if (!vt)
    return fn(xs);
  Value out = poisonValue(b, loc, VectorType::get(vt.getShape(), resultElem));
  SmallVector<Value> elems(xs.size());
  for (int64_t i = 0; i < vt.getNumElements(); ++i) {
    for (size_t k = 0; k < xs.size(); ++k)
      elems[k] = extractElement(b, loc, xs[k], i);
    out = insertElement(b, loc, out, fn(elems), i);
  }
  return out;
}

SmallVector<Value> simt::cloneCombiner(OpBuilder &b, Region &region,
                                       ArrayRef<Value> lhs,
                                       ArrayRef<Value> rhs) {
  Block &block = region.front();
  IRMapping map;
  for (size_t i = 0; i < lhs.size(); ++i) {
    map.map(block.getArgument(i), lhs[i]);
    map.map(block.getArgument(lhs.size() + i), rhs[i]);
  }
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> out;
  for (Value v : block.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

namespace {
/// A full-warp shfl.sync of a scalar of up to 64 bits in mode `mode` with
/// lane operand `off` (narrow values travel zero-extended in an i32, 64-bit
/// ones as two i32 halves).
Value shuffleScalar(OpBuilder &b, Location loc, Value v, Value off,
                    gpu::ShuffleMode mode) {
  Type t = v.getType();
  unsigned bits = t.getIntOrFloatBitWidth();
  Value width = i32Const(b, loc, 32);
  auto shfl = [&](Value x) {
    return gpu::ShuffleOp::create(b, loc, x, off, width, mode)
        .getShuffleResult();
  };
  if (t.isF32() || t.isInteger(32))
    return shfl(v);
  Type i32 = b.getI32Type();
  if (bits < 32) {
    Value asInt = v;
    if (!t.isInteger())
      asInt = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
    Value wide = arith::ExtUIOp::create(b, loc, i32, asInt);
    Value r =
        arith::TruncIOp::create(b, loc, b.getIntegerType(bits), shfl(wide));
    return t.isInteger() ? r
                         : arith::BitcastOp::create(b, loc, t, r).getResult();
  }
  // 64 bits: two halves.
  Type i64 = b.getI64Type();
  Value asInt =
      t.isInteger() ? v : Value(arith::BitcastOp::create(b, loc, i64, v));
  Value lo = arith::TruncIOp::create(b, loc, i32, asInt);
  Value hi = arith::TruncIOp::create(
      b, loc, i32, arith::ShRUIOp::create(b, loc, asInt, i64Const(b, loc, 32)));
  Value rlo = arith::ExtUIOp::create(b, loc, i64, shfl(lo));
  Value rhi = arith::ExtUIOp::create(b, loc, i64, shfl(hi));
  Value r = arith::OrIOp::create(
      b, loc, rlo, arith::ShLIOp::create(b, loc, rhi, i64Const(b, loc, 32)));
  return t.isInteger() ? r : arith::BitcastOp::create(b, loc, t, r).getResult();
}
} // namespace

Value simt::warpShuffle(OpBuilder &b, Location loc, Value v, int64_t offset,
                        ShuffleKind kind) {
  gpu::ShuffleMode mode = kind == ShuffleKind::Xor  ? gpu::ShuffleMode::XOR
                          : kind == ShuffleKind::Up ? gpu::ShuffleMode::UP
                                                    : gpu::ShuffleMode::DOWN;
  return shuffleScalar(b, loc, v, i32Const(b, loc, offset), mode);
}

Value simt::warpShuffleIdx(OpBuilder &b, Location loc, Value v,
                           Value srcLane) {
  return shuffleScalar(b, loc, v, srcLane, gpu::ShuffleMode::IDX);
}

Operation *simt::createInlineAsm(OpBuilder &b, Location loc,
                                 TypeRange results, ValueRange operands,
                                 StringRef text, StringRef constraints,
                                 bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      b, loc, results, operands, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

void simt::createPredicatedSharedStore(OpBuilder &b, Location loc, Value pred,
                                       Value addr, Value value) {
  unsigned bits = value.getType().getIntOrFloatBitWidth();
  if (!value.getType().isInteger())
    value = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), value);
  if (bits < 16)
    value = arith::ExtUIOp::create(b, loc, b.getI16Type(), value);
  std::string width = bits < 16 ? "8" : std::to_string(bits);
  char constraint = bits == 64 ? 'l' : bits <= 16 ? 'h' : 'r';
  createInlineAsm(b, loc, TypeRange(), ValueRange{pred, addr, value},
                  "@$0 st.shared.b" + width + " [ $1 + 0 ], $2;",
                  std::string("b,l,") + constraint, /*hasSideEffects=*/true);
}

Value simt::splatVector(OpBuilder &b, Location loc, Value v, int64_t n) {
  auto type = VectorType::get({n}, v.getType());
  Value vec = insertElement(b, loc, poisonValue(b, loc, type), v, 0);
  if (n == 1)
    return vec;
  SmallVector<int32_t> mask(n, 0);
  return LLVM::ShuffleVectorOp::create(b, loc, vec, vec, mask);
}

Value simt::sliceVector(OpBuilder &b, Location loc, Value vec, int64_t start,
                        int64_t n) {
  if (n == 1)
    return extractElement(b, loc, vec, start);
  SmallVector<int32_t> mask;
  for (int64_t i = 0; i < n; ++i)
    mask.push_back(int32_t(start + i));
  return LLVM::ShuffleVectorOp::create(b, loc, vec, vec, mask);
}
