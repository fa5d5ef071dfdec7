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
  addConversion([this](RankedTensorType t) -> std::optional<Type> {
    FailureOr<tile::DistributedLayout> l = tile::getDistributedLayout(t);
    if (failed(l))
      return std::nullopt;
    Type elem = convertType(t.getElementType());
    if (!elem)
      return std::nullopt;
    return VectorType::get({l->totalElemsPerThread}, elem);
  });
}

Value simt::i32Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value simt::i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

SmallVector<Value> simt::emitThreadBase(OpBuilder &b, Location loc,
                                        const tile::DistributedLayout &l) {
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
  Value lane = arith::AndIOp::create(b, loc, tid, i32Const(b, loc, 31));
  Value warp = arith::ShRUIOp::create(b, loc, tid, i32Const(b, loc, 5));
  unsigned rank = l.rootShape.size();
  SmallVector<Value> laneC(rank), warpC(rank), base(rank);
  auto split = [&](Value &id, unsigned count) -> Value {
    if (count == 1)
      return i32Const(b, loc, 0);
    Value c = arith::AndIOp::create(b, loc, id, i32Const(b, loc, count - 1));
    id = arith::ShRUIOp::create(b, loc, id,
                                i32Const(b, loc, llvm::Log2_32(count)));
    return c;
  };
  for (unsigned d : l.root.getOrder()) {
    laneC[d] = split(lane, l.root.getThreadsPerWarp()[d]);
    warpC[d] = split(warp, l.root.getWarpsPerCTA()[d]);
  }
  for (unsigned d = 0; d < rank; ++d) {
    unsigned tpw = l.root.getThreadsPerWarp()[d];
    unsigned spt = l.root.getSizePerThread()[d];
    Value v = arith::MulIOp::create(b, loc, warpC[d], i32Const(b, loc, tpw));
    v = arith::AddIOp::create(b, loc, v, laneC[d]);
    base[d] = arith::MulIOp::create(b, loc, v, i32Const(b, loc, spt));
  }
  return base;
}

SmallVector<Value> simt::emitElementCoords(OpBuilder &b, Location loc,
                                           const tile::DistributedLayout &l,
                                           ArrayRef<Value> base, int64_t e) {
  SmallVector<int64_t> off = l.getLocalOffsets(e);
  SmallVector<Value> coords;
  for (unsigned d : l.tileDimToRoot) {
    Value c = arith::AddIOp::create(b, loc, base[d], i32Const(b, loc, off[d]));
    if (l.wraps(d))
      c = arith::AndIOp::create(b, loc, c, i32Const(b, loc, l.rootShape[d] - 1));
    coords.push_back(c);
  }
  return coords;
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

AxisSpread simt::getAxisSpread(const tile::DistributedLayout &l, unsigned a) {
  AxisSpread s;
  int64_t shape = l.rootShape[a];
  int64_t spt = l.root.getSizePerThread()[a];
  int64_t tpw = l.root.getThreadsPerWarp()[a];
  int64_t wpc = l.root.getWarpsPerCTA()[a];
  s.distinctLanes = std::min<int64_t>(tpw, std::max<int64_t>(1, shape / spt));
  s.distinctWarps =
      std::min<int64_t>(wpc, std::max<int64_t>(1, shape / (spt * tpw)));
  for (unsigned d : l.root.getOrder()) {
    if (d == a)
      break;
    s.laneStride *= l.root.getThreadsPerWarp()[d];
  }
  return s;
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

Value simt::warpShuffle(OpBuilder &b, Location loc, Value v, int64_t offset,
                        ShuffleKind kind) {
  Type t = v.getType();
  unsigned bits = t.getIntOrFloatBitWidth();
  Value off = i32Const(b, loc, offset);
  Value width = i32Const(b, loc, 32);
  gpu::ShuffleMode mode = kind == ShuffleKind::Xor  ? gpu::ShuffleMode::XOR
                          : kind == ShuffleKind::Up ? gpu::ShuffleMode::UP
                                                    : gpu::ShuffleMode::DOWN;
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
