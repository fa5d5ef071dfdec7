//===- Atomics.cpp - tile.atomic_rmw / tile.atomic_cas lowering -*- C++ -*-===//
//
// Atomics become predicated PTX `atom` instructions (PTX ISA 9.7.13.5) with
// the op's memory semantics and scope (`atom.global.acq_rel.gpu.add.f32`).
// An element is updated exactly once however many threads hold it: a tile
// smaller than its layout's CTA tile is replicated, and only the first
// replica (the thread whose unwrapped coordinate is inside the tile) issues
// the atomic; its old value then reaches the other replicas (register
// copies, shuffles, or shared memory across warps: broadcastReplicas).
// A scalar atomic is issued by thread 0 alone and its old value
// is broadcast to the whole CTA through shared memory, so that, e.g., a
// spin lock (`while tl.atomic_cas(lock, 0, 1) == 1: pass`) is taken once per
// program and every thread sees the same result, as in Triton. Float
// max/min use integer atomics (fp32/fp64) or a 16-bit compare-and-swap loop
// (fp16/bf16).
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

/// PTX `.sem.scope` qualifiers.
std::string qualifiers(tile::MemSemantic sem, tile::MemScope scope) {
  std::string q;
  switch (sem) {
  case tile::MemSemantic::Relaxed: q = ".relaxed"; break;
  case tile::MemSemantic::Acquire: q = ".acquire"; break;
  case tile::MemSemantic::Release: q = ".release"; break;
  case tile::MemSemantic::AcqRel: q = ".acq_rel"; break;
  }
  switch (scope) {
  case tile::MemScope::CTA: q += ".cta"; break;
  case tile::MemScope::GPU: q += ".gpu"; break;
  case tile::MemScope::System: q += ".sys"; break;
  }
  return q;
}

/// The `.op.type` of the native `atom` for `kind` on `elem`; float max/min
/// and 16-bit exchange have none (see emitRMW).
std::string atomOpType(tile::RMWKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = ".b" + std::to_string(bits);
  switch (kind) {
  case tile::RMWKind::Add:
    return ".add.u" + std::to_string(bits);
  case tile::RMWKind::FAdd:
    if (elem.isF16())
      return ".add.noftz.f16";
    if (elem.isBF16())
      return ".add.noftz.bf16";
    return ".add.f" + std::to_string(bits);
  case tile::RMWKind::Max:
    return ".max.s" + std::to_string(bits);
  case tile::RMWKind::Min:
    return ".min.s" + std::to_string(bits);
  case tile::RMWKind::UMax:
    return ".max.u" + std::to_string(bits);
  case tile::RMWKind::UMin:
    return ".min.u" + std::to_string(bits);
  case tile::RMWKind::And:
    return ".and" + b;
  case tile::RMWKind::Or:
    return ".or" + b;
  case tile::RMWKind::Xor:
    return ".xor" + b;
  case tile::RMWKind::Xchg:
    return ".exch" + b;
  }
  llvm_unreachable("unknown RMWKind");
}

char constraintFor(unsigned bits) {
  return bits == 64 ? 'l' : bits == 16 ? 'h' : 'r';
}

/// One predicated atomic: returns the old value (0 where `pred` is false).
Value emitAtom(OpBuilder &b, Location loc, StringRef opType, StringRef quals,
               Value pred, Value addr, ArrayRef<Value> operands, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  Type bitsType = b.getIntegerType(bits);
  char c = constraintFor(bits);
  std::string asmStr = "mov.b" + std::to_string(bits) + " $0, 0;\n\t@$1 atom.global" +
                       quals.str() + opType.str() + " $0, [ $2 + 0 ]";
  std::string constraints = std::string("=") + c + ",b,l";
  SmallVector<Value> ops = {pred, addr};
  for (size_t i = 0; i < operands.size(); ++i) {
    asmStr += ", $" + std::to_string(3 + i);
    constraints += std::string(",") + c;
    Value v = operands[i];
    if (v.getType() != bitsType)
      v = LLVM::BitcastOp::create(b, loc, bitsType, v);
    ops.push_back(v);
  }
  asmStr += ";";
  auto asmOp = createInlineAsm(b, loc, bitsType, ops, asmStr, constraints, /*hasSideEffects=*/true);
  Value r = asmOp->getResult(0);
  if (elem != bitsType)
    r = LLVM::BitcastOp::create(b, loc, elem, r);
  return r;
}

/// Before thread 0 releases on the CTA's behalf, every thread's earlier
/// writes must be ordered before it: a CTA barrier (bar.sync orders memory
/// among the CTA's threads; the release is cumulative, PTX ISA 8.10).
void releaseBarrier(OpBuilder &b, Location loc, tile::MemSemantic sem) {
  if (sem == tile::MemSemantic::Release || sem == tile::MemSemantic::AcqRel)
    gpu::BarrierOp::create(b, loc);
}

/// Float atomic max/min on integer atomics, as Triton does: a non-negative
/// float orders like its bits as a signed integer, a negative one inversely
/// like its bits as an unsigned integer. So max is `atom.max.s` for values
/// with the sign bit clear and `atom.min.u` for the others (min the
/// reverse); -0.0 orders just below +0.0, and a NaN operand gives an
/// unspecified result, as in Triton.
Value emitFloatMinMax(OpBuilder &b, Location loc, bool isMax, StringRef quals,
                      Value pred, Value addr, Value val, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string w = std::to_string(bits);
  // The sign bit decides, so -0.0 takes the negative path and orders
  // between the negatives and +0.0 (Triton tests val >= 0, which sends -0.0
  // the other way: max(-1.0, -0.0) would stay -1.0 there).
  Type it0 = b.getIntegerType(bits);
  Value valBits = LLVM::BitcastOp::create(b, loc, it0, val);
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(it0, 0));
  Value nonNeg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       valBits, zero);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value neg = arith::XOrIOp::create(b, loc, nonNeg, one);
  Value pPos = arith::AndIOp::create(b, loc, pred, nonNeg);
  Value pNeg = arith::AndIOp::create(b, loc, pred, neg);
  Type it = b.getIntegerType(bits);
  Value posOld = emitAtom(b, loc, (isMax ? ".max.s" : ".min.s") + w, quals,
                          pPos, addr, {val}, it);
  Value negOld = emitAtom(b, loc, (isMax ? ".min.u" : ".max.u") + w, quals,
                          pNeg, addr, {val}, it);
  Value old = arith::SelectOp::create(b, loc, nonNeg, posOld, negOld);
  return LLVM::BitcastOp::create(b, loc, elem, old);
}

/// A 16-bit atomic PTX lacks — fp16/bf16 max/min (only sm_90 vector forms
/// exist) and 16-bit exchange — as a compare-and-swap loop on the element
/// (`atom.cas.b16`, sm_70+): `update` computes `%tilec_new` from
/// `%tilec_old` and the operand `$3`. Threads diverge in the loop (plain
/// `bra`); labels and registers are local to the `{ }` block, named so as not
/// to shadow the operands (LLVM's own registers are %p, %rs, ...). Returns
/// the old value (0 where `pred` is false).
Value emitCas16Loop(OpBuilder &b, Location loc, StringRef update,
                    StringRef quals, Value pred, Value addr, Value val,
                    Type elem) {
  std::string asmStr =
      "{\n\t.reg .pred %tilec_p;\n\t.reg .b16 %tilec_old, %tilec_new, %tilec_got;\n\t"
      "mov.b16 $0, 0;\n\t"
      "@!$1 bra TILEC_DONE;\n\t"
      "ld.global.b16 %tilec_old, [ $2 + 0 ];\n"
      "TILEC_LOOP:\n\t" +
      update.str() + "\n\t"
      "atom.global" + quals.str() + ".cas.b16 %tilec_got, [ $2 + 0 ], %tilec_old, %tilec_new;\n\t"
      "setp.ne.b16 %tilec_p, %tilec_got, %tilec_old;\n\t"
      "mov.b16 %tilec_old, %tilec_got;\n\t"
      "@%tilec_p bra TILEC_LOOP;\n\t"
      "mov.b16 $0, %tilec_old;\n"
      "TILEC_DONE:\n\t}";
  Value bits = val.getType() == b.getI16Type()
                   ? val
                   : Value(LLVM::BitcastOp::create(b, loc, b.getI16Type(), val));
  auto asmOp = createInlineAsm(b, loc, b.getI16Type(), ValueRange{pred, addr, bits}, asmStr, "=h,b,l,h", /*hasSideEffects=*/true);
  Value r = asmOp->getResult(0);
  return elem == b.getI16Type() ? r
                                : Value(LLVM::BitcastOp::create(b, loc, elem, r));
}

/// fp16/bf16 atomic max/min: `max.f16`/`min.bf16` (sm_80+; a NaN operand
/// loses, as IEEE maxNum) in a compare-and-swap loop.
Value emitHalfMinMax(OpBuilder &b, Location loc, bool isMax, StringRef quals,
                     Value pred, Value addr, Value val, Type elem) {
  std::string update = std::string(isMax ? "max." : "min.") +
                       (elem.isBF16() ? "bf16" : "f16") +
                       " %tilec_new, %tilec_old, $3;";
  return emitCas16Loop(b, loc, update, quals, pred, addr, val, elem);
}

/// One element's read-modify-write, returning the old value (0 where
/// `pred` is false): the native `atom` where PTX has one; float max/min
/// through integer atomics (fp32/fp64) or a compare-and-swap loop
/// (fp16/bf16); 16-bit exchange through the same loop.
Value emitRMW(OpBuilder &b, Location loc, tile::RMWKind kind, StringRef quals,
              Value pred, Value addr, Value val, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  bool isMinMax = kind == tile::RMWKind::Max || kind == tile::RMWKind::Min;
  bool isMax = kind == tile::RMWKind::Max;
  if (isa<FloatType>(elem) && isMinMax)
    return bits == 16
               ? emitHalfMinMax(b, loc, isMax, quals, pred, addr, val, elem)
               : emitFloatMinMax(b, loc, isMax, quals, pred, addr, val, elem);
  if (kind == tile::RMWKind::Xchg && bits == 16)
    return emitCas16Loop(b, loc, "mov.b16 %tilec_new, $3;", quals, pred, addr,
                         val, elem);
  return emitAtom(b, loc, atomOpType(kind, elem), quals, pred, addr, {val},
                  elem);
}

/// Broadcasts thread 0's `v` to every thread through this op's shared slot.
Value broadcastFromThreadZero(OpBuilder &b, Location loc, Operation *op,
                              Value v, Value first) {
  FailureOr<int64_t> offset = getSharedOffset(op);
  int64_t at = succeeded(offset) ? *offset : 0;
  Value slot = getSharedBase(b, loc, at);
  // (tile-insert-barriers orders the slot against its earlier readers.)
  createPredicatedSharedStore(b, loc, first, slot, v);
  gpu::BarrierOp::create(b, loc);
  return LLVM::LoadOp::create(b, loc, v.getType(), slot);
}

/// Per register: the element is issued by this thread (first replica:
/// the register, lane and warp bits whose basis is zero are all clear).
SmallVector<Value> ownerPredicates(OpBuilder &b, Location loc,
                                   RankedTensorType type) {
  tile::LinearLayout l = getLayout(type);
  uint64_t freeRegs = l.getFreeMask(tile::LinearLayout::kRegister);
  Value thread = emitReplicaPredicate(b, loc, l);
  Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
  SmallVector<Value> preds;
  for (int64_t e = 0; e < l.getNumRegisters(); ++e)
    preds.push_back((uint64_t(e) & freeRegs) ? no : thread ? thread : yes);
  return preds;
}

/// The old values of a tile atomic, defined at the owners only, given to
/// every thread that holds each element (Triton: every replica reads the
/// value the one issued atomic returned). Nothing when the result is unused.
Value broadcastResult(OpBuilder &b, Location loc, Operation *op, Value old) {
  if (op->use_empty())
    return old;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t offset = 0;
  if (getBroadcastReplicasBytes(type) > 0) {
    FailureOr<int64_t> at = getSharedOffset(op);
    offset = succeeded(at) ? *at : 0;
  }
  return broadcastReplicas(b, loc, old, getLayout(type),
                           cast<VectorType>(old.getType()).getElementType(),
                           offset);
}

struct AtomicRMWLowering : public OpConversionPattern<tile::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = tile::getElementTypeOrSelf(op.getVal().getType());
    std::string quals = qualifiers(op.getSem(), op.getScope());
    auto tensor = dyn_cast<RankedTensorType>(op.getVal().getType());
    if (!tensor) {
      releaseBarrier(rewriter, loc, op.getSem());
      Value first = emitIsThreadZero(rewriter, loc);
      Value pred = adaptor.getMask()
                       ? Value(arith::AndIOp::create(rewriter, loc, first,
                                                     adaptor.getMask()))
                       : first;
      Value old = emitRMW(rewriter, loc, op.getKind(), quals, pred,
                          adaptor.getPtr(), adaptor.getVal(), elem);
      rewriter.replaceOp(op,
                         broadcastFromThreadZero(rewriter, loc, op, old, first));
      return success();
    }
    SmallVector<Value> owners = ownerPredicates(rewriter, loc, tensor);
    Type vecType = getTypeConverter()->convertType(tensor);
    Value result = poisonValue(rewriter, loc, vecType);
    for (int64_t e = 0; e < int64_t(owners.size()); ++e) {
      Value pred = owners[e];
      if (adaptor.getMask())
        pred = arith::AndIOp::create(
            rewriter, loc, pred, extractElement(rewriter, loc, adaptor.getMask(), e));
      Value addr = extractElement(rewriter, loc, adaptor.getPtr(), e);
      Value val = extractElement(rewriter, loc, adaptor.getVal(), e);
      Value old =
          emitRMW(rewriter, loc, op.getKind(), quals, pred, addr, val, elem);
      result = insertElement(rewriter, loc, result, old, e);
    }
    rewriter.replaceOp(op, broadcastResult(rewriter, loc, op, result));
    return success();
  }
};

struct AtomicCASLowering : public OpConversionPattern<tile::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = tile::getElementTypeOrSelf(op.getVal().getType());
    std::string opType = ".cas.b" + std::to_string(elem.getIntOrFloatBitWidth());
    std::string quals = qualifiers(op.getSem(), op.getScope());
    auto tensor = dyn_cast<RankedTensorType>(op.getVal().getType());
    if (!tensor) {
      releaseBarrier(rewriter, loc, op.getSem());
      Value first = emitIsThreadZero(rewriter, loc);
      Value old = emitAtom(rewriter, loc, opType, quals, first, adaptor.getPtr(),
                           {adaptor.getCmp(), adaptor.getVal()}, elem);
      rewriter.replaceOp(op,
                         broadcastFromThreadZero(rewriter, loc, op, old, first));
      return success();
    }
    SmallVector<Value> owners = ownerPredicates(rewriter, loc, tensor);
    Value result = poisonValue(rewriter, loc,
                               getTypeConverter()->convertType(tensor));
    for (int64_t e = 0; e < int64_t(owners.size()); ++e) {
      Value old = emitAtom(
          rewriter, loc, opType, quals, owners[e],
          extractElement(rewriter, loc, adaptor.getPtr(), e),
          {extractElement(rewriter, loc, adaptor.getCmp(), e),
           extractElement(rewriter, loc, adaptor.getVal(), e)},
          elem);
      result = insertElement(rewriter, loc, result, old, e);
    }
    rewriter.replaceOp(op, broadcastResult(rewriter, loc, op, result));
    return success();
  }
};

} // namespace

int64_t simt::getAtomicSharedMemoryBytes(Operation *op) {
  if (!isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op))
    return 0;
  auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tensor)
    return 8;
  // Broadcasting the old values to replicas in other warps.
  return op->use_empty() ? 0 : getBroadcastReplicasBytes(tensor);
}

void simt::populateAtomicToSIMTPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering>(converter,
                                                     patterns.getContext());
}
