//===- SharedMemory.cpp - Tiles to and from shared memory -------*- C++ -*-===//
//
// Moves a thread's fragment of a distributed tile to or from a buffer in
// shared memory whose element offsets are an OffsetMap (row-major, or a
// swizzled shared encoding). The composition "hardware index -> tile
// coordinate -> buffer offset" is itself a linear layout, so a thread's
// offsets are one thread-dependent value XOR a constant per register, and
// consecutive registers at consecutive offsets become one vector access
// (up to 16 bytes: st.shared.v4 / ld.shared.v4). Replicated elements are
// stored once, by their first replica (register, lane and warp bits whose
// basis is zero all clear), so no two threads write one address.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {
using LL = tile::LinearLayout;

/// Registers per vector access: consecutive registers at consecutive
/// offsets, at most 16 bytes and at most `maxVec`.
int64_t accessWidth(const LL &offsets, Type elem, int64_t maxVec) {
  int64_t vec = offsets.getContiguousRegisters(0);
  int64_t bytes = std::max<int64_t>(1, getElementBytes(elem));
  vec = std::min<int64_t>(vec, std::max<int64_t>(1, 16 / bytes));
  return std::max<int64_t>(1, std::min(vec, maxVec));
}

/// The element offset (i32) of register `reg`.
Value offsetOf(OpBuilder &b, Location loc, const LL &offsets,
               const ThreadCoords &thread, int64_t reg) {
  return emitElementCoords(b, loc, offsets, thread, reg)[0];
}
} // namespace

Value simt::getSharedBase(OpBuilder &b, Location loc, int64_t byteOffset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedMemoryName);
  if (byteOffset == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
}

Value simt::emitReplicaPredicate(OpBuilder &b, Location loc, const LL &l) {
  uint64_t freeLanes = l.getFreeMask(LL::kLane);
  uint64_t freeWarps = l.getFreeMask(LL::kWarp);
  Value pred;
  auto clear = [&](Value id, uint64_t mask) {
    Value bits = arith::AndIOp::create(b, loc, id, i32Const(b, loc, mask));
    Value c = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                    i32Const(b, loc, 0));
    pred = pred ? Value(arith::AndIOp::create(b, loc, pred, c)) : c;
  };
  if (freeLanes)
    clear(emitLaneId(b, loc), freeLanes);
  if (freeWarps)
    clear(emitWarpId(b, loc), freeWarps);
  return pred;
}

ThreadCoords simt::emitThreadOffsets(OpBuilder &b, Location loc,
                                     const LL &offsets, int64_t xorOffset) {
  ThreadCoords thread = emitThreadCoords(b, loc, offsets);
  if (xorOffset) {
    thread.part[0] = thread.mayBeSet[0] & xorOffset
                         ? Value(arith::XOrIOp::create(
                               b, loc, thread.part[0], i32Const(b, loc, xorOffset)))
                         : Value(arith::OrIOp::create(
                               b, loc, thread.part[0], i32Const(b, loc, xorOffset)));
    thread.mayBeSet[0] |= xorOffset;
  }
  return thread;
}

void simt::storeToShared(OpBuilder &b, Location loc, Value base, Value vals,
                         const LL &offsets, int64_t maxVec,
                         int64_t xorOffset) {
  auto vt = cast<VectorType>(vals.getType());
  Type elem = vt.getElementType();
  int64_t n = vt.getNumElements();
  int64_t vec = accessWidth(offsets, elem, maxVec);
  uint64_t freeRegs = offsets.getFreeMask(LL::kRegister);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value pred = emitReplicaPredicate(b, loc, offsets);
  OpBuilder::InsertionGuard guard(b);
  if (pred) {
    auto ifOp = scf::IfOp::create(b, loc, pred, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  ThreadCoords thread = emitThreadOffsets(b, loc, offsets, xorOffset);
  int64_t bytes = getElementBytes(elem);
  for (int64_t r = 0; r < n; r += vec) {
    if (uint64_t(r) & freeRegs)
      continue;
    Value off = offsetOf(b, loc, offsets, thread, r);
    Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elem, base,
                                    ArrayRef<LLVM::GEPArg>{off});
    Value chunk = sliceVector(b, loc, vals, r, vec);
    LLVM::StoreOp::create(b, loc, chunk, ptr, unsigned(vec * bytes));
  }
}

Value simt::loadFromShared(OpBuilder &b, Location loc, Value base,
                           VectorType type, const LL &offsets, int64_t maxVec,
                           int64_t xorOffset) {
  Type elem = type.getElementType();
  int64_t n = type.getNumElements();
  int64_t vec = accessWidth(offsets, elem, maxVec);
  uint64_t freeRegs = offsets.getFreeMask(LL::kRegister);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  ThreadCoords thread = emitThreadOffsets(b, loc, offsets, xorOffset);
  int64_t bytes = getElementBytes(elem);
  SmallVector<Value> regs(n);
  for (int64_t r = 0; r < n; r += vec) {
    if (uint64_t(r) & freeRegs) {
      // A replica of an earlier register.
      for (int64_t i = 0; i < vec; ++i)
        regs[r + i] = regs[(r + i) & ~int64_t(freeRegs)];
      continue;
    }
    Value off = offsetOf(b, loc, offsets, thread, r);
    Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elem, base,
                                    ArrayRef<LLVM::GEPArg>{off});
    Type chunkType = vec == 1 ? elem : Type(VectorType::get({vec}, elem));
    Value chunk =
        LLVM::LoadOp::create(b, loc, chunkType, ptr, unsigned(vec * bytes));
    for (int64_t i = 0; i < vec; ++i)
      regs[r + i] = vec == 1 ? chunk : extractElement(b, loc, chunk, i);
  }
  Value result = poisonValue(b, loc, type);
  for (int64_t r = 0; r < n; ++r)
    result = insertElement(b, loc, result, regs[r], r);
  return result;
}

FailureOr<int64_t> simt::getSharedOffset(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(
      tile::TileDialect::getSharedOffsetAttrName());
  if (!attr)
    return op->emitError("expected a shared-memory offset (")
           << tile::TileDialect::getSharedOffsetAttrName()
           << "; run tile-allocate-shared first)";
  return attr.getInt();
}
