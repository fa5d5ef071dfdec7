//===- MemoryOps.cpp - tile.load / tile.store to per-thread code -*- C++ -*-===//
//
// Lowers masked loads and stores of tiles. A thread accesses its elements in
// chunks of V consecutive registers that are consecutive in memory: V is
// the largest power of two that the layout (elements per thread along the
// fastest dimension), the axis analysis (contiguity and alignment of the
// pointers, constancy of the mask) and 16 bytes allow. Unmasked chunks are
// plain LLVM vector loads/stores with the proven alignment (NVPTX selects
// ld.global.v4 and friends); masked chunks are predicated PTX through inline
// assembly, with `other` (or zero) moved into the destination first, as PTX
// ISA 9.7.9.8 (ld) and 9.7.9.10 (st) predication allows.
//
// When the mask is not proven constant over a whole chunk (a ragged size
// with no divisibility fact), the chunk is still accessed with one vector
// instruction predicated on "every lane of the chunk is in", followed by
// narrower accesses (as wide as the mask's constancy allows) predicated on
// "this lane is in and the chunk was not". Interior chunks thus keep full
// 16-byte accesses and only the tail pays for the narrow ones; Triton
// instead narrows every access of such a kernel.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

/// How a memory op's elements are accessed: chunks of `vec` registers.
Type memoryType(Type elem);

struct AccessPlan {
  int64_t numElems = 1;
  /// Registers per access, as the pointers allow.
  int64_t vec = 1;
  /// Registers over which the mask is proven constant (<= vec).
  int64_t maskVec = 1;
  /// Registers (a multiple of vec) whose elements are consecutive in
  /// memory, the first at an index that is a multiple of `run`: the
  /// accesses of such a run address off its first pointer with immediate
  /// offsets (`[ %rd + 6 ]`), so that a thread keeps one 64-bit address per
  /// run, not per access -- what keeps a kernel whose accesses cannot be
  /// vectorized (an unaligned row) from holding an address register per
  /// element.
  int64_t run = 1;
  /// Bytes of one element in memory.
  int64_t elementBytes = 1;
};

AccessPlan planAccess(Value ptr, Value mask, const ModuleAxisInfo &axis) {
  AccessPlan plan;
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return plan;
  tile::LinearLayout l = getLayout(type);
  plan.numElems = l.getNumRegisters();
  // The fastest tile dimension in registers: the one register bit 0 steps.
  if (l.getNumBits(tile::LinearLayout::kRegister) == 0)
    return plan;
  const tile::LinearLayout::Coord &first =
      l.getBases(tile::LinearLayout::kRegister)[0];
  int dim = -1;
  for (unsigned d = 0; d < first.size(); ++d)
    if (first[d] == 1)
      dim = d;
  if (dim < 0)
    return plan;
  // Replicated registers (a zero basis) end the run: they are not
  // consecutive in memory.
  int64_t perThread = l.getContiguousRegisters(dim);
  plan.vec = std::max<int64_t>(1, axis.getPtrVectorWidth(ptr, dim, perThread));
  plan.maskVec = std::max<int64_t>(
      1, std::min(plan.vec, axis.getMaskConstancy(mask, dim)));
  plan.elementBytes = getElementBytes(memoryType(
      tile::getElementTypeOrSelf(tile::getPointeeTypeOf(type))));
  AxisInfo info = axis.getAxisInfo(ptr);
  if (unsigned(dim) < info.getRank())
    plan.run = std::max(plan.vec, int64_t(llvm::bit_floor(uint64_t(std::max<int64_t>(
                                      1, std::min(perThread, info.getContiguity(dim)))))));
  return plan;
}

/// The memory type of an element: i1 is stored as a byte.
Type memoryType(Type elem) {
  if (elem.isInteger(1))
    return IntegerType::get(elem.getContext(), 8);
  return elem;
}

/// Inline-PTX word for `bytes` bytes: bit width, register constraint.
struct Word {
  unsigned bits;
  char constraint;
  unsigned count;
};
Word wordsFor(int64_t bytes) {
  if (bytes >= 4)
    return {32, 'r', unsigned(bytes / 4)};
  if (bytes == 2)
    return {16, 'h', 1};
  return {8, 'h', 1}; // a byte moves through a 16-bit register
}

Type wordType(MLIRContext *ctx, const Word &w) {
  return IntegerType::get(ctx, w.bits == 8 ? 16 : w.bits);
}

std::string vecSuffix(unsigned count) {
  return count == 1 ? "" : ".v" + std::to_string(count);
}

/// Bitcasts `v` (a chunk of `vec` memory elements) to PTX words.
SmallVector<Value> toWords(OpBuilder &b, Location loc, Value v,
                           const Word &w) {
  MLIRContext *ctx = b.getContext();
  Type wt = wordType(ctx, w);
  if (w.bits == 8)
    return {arith::ExtUIOp::create(b, loc, wt,
                                   LLVM::BitcastOp::create(
                                       b, loc, IntegerType::get(ctx, 8), v))};
  if (w.count == 1)
    return {LLVM::BitcastOp::create(b, loc, wt, v)};
  Value words = LLVM::BitcastOp::create(
      b, loc, VectorType::get({int64_t(w.count)}, wt), v);
  SmallVector<Value> out;
  for (unsigned i = 0; i < w.count; ++i)
    out.push_back(extractElement(b, loc, words, i));
  return out;
}

/// Bitcasts PTX words back to a chunk of `vec` elements of `memType`.
Value fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words,
                const Word &w, Type memType, int64_t vec) {
  MLIRContext *ctx = b.getContext();
  Type chunkType =
      vec == 1 ? memType : Type(VectorType::get({vec}, memType));
  if (w.bits == 8) {
    Value byte =
        arith::TruncIOp::create(b, loc, IntegerType::get(ctx, 8), words[0]);
    return LLVM::BitcastOp::create(b, loc, chunkType, byte);
  }
  if (w.count == 1)
    return LLVM::BitcastOp::create(b, loc, chunkType, words[0]);
  Type wt = wordType(ctx, w);
  Value v = poisonValue(b, loc, VectorType::get({int64_t(w.count)}, wt));
  for (unsigned i = 0; i < w.count; ++i)
    v = insertElement(b, loc, v, words[i], i);
  return LLVM::BitcastOp::create(b, loc, chunkType, v);
}

Value toGlobalPtr(OpBuilder &b, Location loc, Value addr) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 1);
  return LLVM::IntToPtrOp::create(b, loc, ptrType, addr);
}

/// Converts a loaded chunk of memory elements to the register type.
Value fromMemory(OpBuilder &b, Location loc, Value v, Type elem) {
  if (!elem.isInteger(1))
    return v;
  Value zero = arith::ConstantOp::create(
      b, loc, v.getType(), b.getZeroAttr(v.getType()));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
}

Value toMemory(OpBuilder &b, Location loc, Value v, Type elem) {
  if (!elem.isInteger(1))
    return v;
  Type t = isa<VectorType>(v.getType())
               ? Type(VectorType::get(cast<VectorType>(v.getType()).getShape(),
                                      b.getI8Type()))
               : Type(b.getI8Type());
  return arith::ExtUIOp::create(b, loc, t, v);
}

/// `addr + offset` (i64) for the accesses that are not inline assembly.
Value offsetAddress(OpBuilder &b, Location loc, Value addr, int64_t offset) {
  if (!offset)
    return addr;
  return arith::AddIOp::create(
      b, loc, addr,
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), offset));
}

/// Loads one chunk at `addr` (i64) + `offset` bytes (an immediate), with an
/// optional predicate and `other` chunk. `space`: the state space and
/// qualifiers after `ld` (".global", or with a cache operator or eviction
/// priority, ".volatile.global").
Value loadChunk(OpBuilder &b, Location loc, Value addr, int64_t offset,
                Value pred, Value other, Type elem, int64_t vec,
                StringRef space = ".global") {
  Type memType = memoryType(elem);
  int64_t bytes = vec * getElementBytes(memType);
  Type chunkType = vec == 1 ? memType : Type(VectorType::get({vec}, memType));
  if (!pred && space != ".global")
    pred = arith::ConstantIntOp::create(b, loc, 1, 1); // via the inline asm
  if (!pred)
    return fromMemory(
        b, loc,
        LLVM::LoadOp::create(b, loc, chunkType,
                             toGlobalPtr(b, loc, offsetAddress(b, loc, addr, offset)),
                             unsigned(bytes)),
        elem);
  Word w = wordsFor(bytes);
  MLIRContext *ctx = b.getContext();
  Type wt = wordType(ctx, w);
  SmallVector<Value> otherWords;
  if (other)
    otherWords = toWords(b, loc, toMemory(b, loc, other, elem), w);
  // $0..$(n-1): results; $n: predicate; $n+1: address; then other words.
  std::string asmStr;
  std::string constraints;
  unsigned n = w.count;
  std::string movType = w.bits == 32 ? "b32" : "b16";
  for (unsigned i = 0; i < n; ++i) {
    asmStr += llvm::formatv("mov.{0} ${1}, {2};\n\t", movType, i,
                            other ? "$" + std::to_string(n + 2 + i)
                                  : std::string("0"));
    constraints += std::string(constraints.empty() ? "" : ",") + "=" +
                   w.constraint;
  }
  std::string dst;
  for (unsigned i = 0; i < n; ++i)
    dst += (i ? ", $" : "$") + std::to_string(i);
  if (n > 1)
    dst = "{ " + dst + " }";
  asmStr += llvm::formatv("@${0} ld{5}{1}.b{2} {3}, [ ${4} + {6} ];", n,
                          vecSuffix(n), w.bits, dst, n + 1, space, offset);
  constraints += ",b,l";
  SmallVector<Value> operands = {pred, addr};
  for (Value o : otherWords) {
    operands.push_back(o);
    constraints += std::string(",") + w.constraint;
  }
  Type resultType =
      n == 1 ? wt
             : Type(LLVM::LLVMStructType::getLiteral(
                   ctx, SmallVector<Type>(n, wt)));
  // With side effects: an asm without them is pure to
  // MLIR's CSE and LLVM, which then merge a load with an earlier one across
  // a store to the same address, or hoist it out of a loop that stores there.
  auto asmOp = createInlineAsm(b, loc, resultType, operands, asmStr,
                               constraints, /*hasSideEffects=*/true);
  SmallVector<Value> words;
  if (n == 1)
    words.push_back(asmOp->getResult(0));
  else
    for (unsigned i = 0; i < n; ++i)
      words.push_back(
          LLVM::ExtractValueOp::create(b, loc, asmOp->getResult(0), i));
  return fromMemory(b, loc, fromWords(b, loc, words, w, memType, vec), elem);
}

/// Stores one chunk at `addr` (i64) + `offset` bytes (an immediate).
void storeChunk(OpBuilder &b, Location loc, Value addr, int64_t offset,
                Value pred, Value value, Type elem, int64_t vec,
                StringRef space = ".global") {
  Type memType = memoryType(elem);
  int64_t bytes = vec * getElementBytes(memType);
  value = toMemory(b, loc, value, elem);
  if (!pred && space != ".global")
    pred = arith::ConstantIntOp::create(b, loc, 1, 1); // via the inline asm
  if (!pred) {
    LLVM::StoreOp::create(
        b, loc, value,
        toGlobalPtr(b, loc, offsetAddress(b, loc, addr, offset)),
        unsigned(bytes));
    return;
  }
  Word w = wordsFor(bytes);
  SmallVector<Value> words = toWords(b, loc, value, w);
  unsigned n = w.count;
  std::string src;
  for (unsigned i = 0; i < n; ++i)
    src += (i ? ", $" : "$") + std::to_string(i + 2);
  if (n > 1)
    src = "{ " + src + " }";
  std::string asmStr = llvm::formatv("@$0 st{3}{0}.b{1} [ $1 + {4} ], {2};",
                                     vecSuffix(n), w.bits, src, space, offset);
  std::string constraints = "b,l";
  SmallVector<Value> operands = {pred, addr};
  for (Value word : words) {
    operands.push_back(word);
    constraints += std::string(",") + w.constraint;
  }
  createInlineAsm(b, loc, TypeRange(), operands, asmStr, constraints, /*hasSideEffects=*/true);
}

/// The AND of the predicates of sub-chunks [e, e + vec) in steps of maskVec.
Value allLanesIn(OpBuilder &b, Location loc, Value mask, int64_t e,
                 int64_t vec, int64_t maskVec) {
  Value all = extractElement(b, loc, mask, e);
  for (int64_t j = maskVec; j < vec; j += maskVec)
    all = arith::AndIOp::create(b, loc, all, extractElement(b, loc, mask, e + j));
  return all;
}

/// `p && !all`.
Value andNot(OpBuilder &b, Location loc, Value p, Value all) {
  Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
  return arith::AndIOp::create(b, loc, p,
                               arith::XOrIOp::create(b, loc, all, one));
}

/// The address of register `e` of the pointer tile `ptrs` as the pointer of
/// the first register of its run plus an offset in bytes.
std::pair<Value, int64_t> addressOf(OpBuilder &b, Location loc,
                                    const AccessPlan &plan, Value ptrs,
                                    int64_t e) {
  int64_t first = e - e % plan.run;
  return {extractElement(b, loc, ptrs, first), (e - first) * plan.elementBytes};
}

/// Loads registers [e, e + vec) of a tile load per the plan.
Value loadTileChunk(OpBuilder &b, Location loc, const AccessPlan &plan,
                    Value ptrs, Value mask, Value other, Type elem, int64_t e,
                    StringRef space) {
  auto [addr, offset] = addressOf(b, loc, plan, ptrs, e);
  Value otherChunk = other ? sliceVector(b, loc, other, e, plan.vec) : Value();
  if (!mask || plan.maskVec == plan.vec)
    return loadChunk(b, loc, addr, offset,
                     mask ? extractElement(b, loc, mask, e) : Value(),
                     otherChunk, elem, plan.vec, space);
  Value all = allLanesIn(b, loc, mask, e, plan.vec, plan.maskVec);
  Value full =
      loadChunk(b, loc, addr, offset, all, otherChunk, elem, plan.vec, space);
  // The narrow loads take `other` themselves rather than the wide load's
  // result, so that no load waits for another before issuing.
  Value parts = full;
  for (int64_t j = 0; j < plan.vec; j += plan.maskVec) {
    Value p = andNot(b, loc, extractElement(b, loc, mask, e + j), all);
    auto [partAddr, partOffset] = addressOf(b, loc, plan, ptrs, e + j);
    Value part = loadChunk(
        b, loc, partAddr, partOffset, p,
        other ? sliceVector(b, loc, other, e + j, plan.maskVec) : Value(), elem,
        plan.maskVec, space);
    for (int64_t i = 0; i < plan.maskVec; ++i)
      parts = insertElement(
          b, loc, parts,
          plan.maskVec == 1 ? part : extractElement(b, loc, part, i), j + i);
  }
  return arith::SelectOp::create(b, loc, all, full, parts);
}

/// Stores registers [e, e + vec) of a tile store per the plan.
void storeTileChunk(OpBuilder &b, Location loc, const AccessPlan &plan,
                    Value ptrs, Value mask, Value value, Type elem, int64_t e,
                    StringRef space) {
  auto [addr, offset] = addressOf(b, loc, plan, ptrs, e);
  Value chunk = sliceVector(b, loc, value, e, plan.vec);
  if (!mask || plan.maskVec == plan.vec) {
    storeChunk(b, loc, addr, offset,
               mask ? extractElement(b, loc, mask, e) : Value(), chunk, elem,
               plan.vec, space);
    return;
  }
  Value all = allLanesIn(b, loc, mask, e, plan.vec, plan.maskVec);
  storeChunk(b, loc, addr, offset, all, chunk, elem, plan.vec, space);
  for (int64_t j = 0; j < plan.vec; j += plan.maskVec) {
    Value p = andNot(b, loc, extractElement(b, loc, mask, e + j), all);
    auto [partAddr, partOffset] = addressOf(b, loc, plan, ptrs, e + j);
    storeChunk(b, loc, partAddr, partOffset, p,
               sliceVector(b, loc, value, e + j, plan.maskVec), elem,
               plan.maskVec, space);
  }
}

/// `ld` / `st` qualifiers of `op`'s access hints (tile.cache_modifier,
/// tile.eviction_policy, tile.volatile): ".global.cg", ".global.L1::
/// evict_first", ".volatile.global"; ".global" for none.
std::string accessSpace(Operation *op) {
  if (op->hasAttr(tile::TileDialect::getVolatileAttrName()))
    return ".volatile.global";
  if (auto c = op->getAttrOfType<StringAttr>(
          tile::TileDialect::getCacheModifierAttrName()))
    return (".global" + c.getValue()).str();
  if (auto e = op->getAttrOfType<StringAttr>(
          tile::TileDialect::getEvictionPolicyAttrName()))
    return (".global.L1::" + e.getValue()).str();
  return ".global";
}

struct LoadOpLowering : public OpConversionPattern<tile::LoadOp> {
  LoadOpLowering(TileTypeConverter &tc, MLIRContext *ctx,
                 const ModuleAxisInfo &axis)
      : OpConversionPattern(tc, ctx), axis(axis) {}

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // fp8 moves as its bytes.
    Type elem = getTypeConverter()->convertType(
        tile::getElementTypeOrSelf(op.getType()));
    AccessPlan plan = planAccess(op.getPtr(), op.getMask(), axis);
    std::string space = accessSpace(op);
    if (!isa<RankedTensorType>(op.getType())) {
      Value v = loadChunk(rewriter, loc, adaptor.getPtr(), 0, adaptor.getMask(),
                          adaptor.getOther(), elem, 1, space);
      rewriter.replaceOp(op, v);
      return success();
    }
    Type resultType = getTypeConverter()->convertType(op.getType());
    Value result = poisonValue(rewriter, loc, resultType);
    for (int64_t e = 0; e < plan.numElems; e += plan.vec) {
      Value chunk =
          loadTileChunk(rewriter, loc, plan, adaptor.getPtr(),
                        adaptor.getMask(), adaptor.getOther(), elem, e, space);
      if (plan.vec == 1) {
        result = insertElement(rewriter, loc, result, chunk, e);
        continue;
      }
      for (int64_t i = 0; i < plan.vec; ++i)
        result = insertElement(rewriter, loc, result,
                               extractElement(rewriter, loc, chunk, i), e + i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  const ModuleAxisInfo &axis;
};

struct StoreOpLowering : public OpConversionPattern<tile::StoreOp> {
  StoreOpLowering(TileTypeConverter &tc, MLIRContext *ctx,
                  const ModuleAxisInfo &axis)
      : OpConversionPattern(tc, ctx), axis(axis) {}

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(
        tile::getElementTypeOrSelf(op.getValue().getType()));
    std::string space = accessSpace(op);
    if (!isa<RankedTensorType>(op.getValue().getType())) {
      // A scalar store is done once, by thread 0, not by every thread.
      Value first = emitIsThreadZero(rewriter, loc);
      Value pred = adaptor.getMask()
                       ? Value(arith::AndIOp::create(rewriter, loc, first,
                                                     adaptor.getMask()))
                       : first;
      storeChunk(rewriter, loc, adaptor.getPtr(), 0, pred, adaptor.getValue(),
                 elem, 1, space);
      rewriter.eraseOp(op);
      return success();
    }
    AccessPlan plan = planAccess(op.getPtr(), op.getMask(), axis);
    for (int64_t e = 0; e < plan.numElems; e += plan.vec)
      storeTileChunk(rewriter, loc, plan, adaptor.getPtr(), adaptor.getMask(),
                     adaptor.getValue(), elem, e, space);
    rewriter.eraseOp(op);
    return success();
  }

  const ModuleAxisInfo &axis;
};

} // namespace

Value simt::loadGlobalChunk(OpBuilder &b, Location loc, Value addr, Value pred,
                            Value other, Type elem, int64_t vec) {
  return loadChunk(b, loc, addr, 0, pred, other, elem, vec);
}

void simt::populateMemoryOpToSIMTPatterns(TileTypeConverter &converter,
                                          const ModuleAxisInfo &axis,
                                          RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreOpLowering>(
      converter, patterns.getContext(), axis);
}
