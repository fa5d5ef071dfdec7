//===- Dot.cpp - tile.dot to mma.sync and FMA -------------------*- C++ -*-===//
//
// Lowers tile.dot whose operands carry #tile.dot_operand encodings:
//
//  - #tile.mma version 2 result: one `mma.sync.aligned.m16n8kK` (nvvm.mma.sync;
//    PTX ISA 9.7.14.5.14) per 16 x 8 result tile of a warp and per K step.
//    The fragments are the registers the dot-operand and mma layouts give a
//    thread (LinearLayout construction in dialects/Tile/IR/Layouts.cpp):
//    A holds 4 * kWidth elements per instruction (a0..a3, each 32-bit
//    register packing kWidth consecutive K elements), B 2 * kWidth (b0, b1),
//    the accumulator 4 (c0..c3); the repetitions follow in register order
//    (K, then M or N, then batch). fp8 operands use the sm_89 e4m3/e5m2
//    forms through inline PTX (the NVVM op has no fp8 mma.sync).
//  - #tile.blocked result (the FMA path): every thread computes its result
//    elements as sums over K of products of its operand registers, in the
//    accumulator's type, in increasing k.
//
// and tile.warpgroup_dot (sm_90a): one `wgmma.mma_async.m64nNk16` (PTX ISA
// 9.7.15.5) per warpgroup, instruction tile and K step of 16, reading A
// and B from shared memory through matrix descriptors computed from the
// operands' #tile.nvmma_shared encodings (PTX ISA 9.7.15.5.1: start
// address, leading and stride byte offsets, swizzle mode), all in one
// wgmma group that the lowering waits for.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"
#include "passes/SharedMemoryUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {
using LL = tile::LinearLayout;

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The PTX type of an mma multiplicand.
std::optional<NVVM::MMATypes> ptxType(Type t) {
  if (t.isF16())
    return NVVM::MMATypes::f16;
  if (t.isBF16())
    return NVVM::MMATypes::bf16;
  if (t.isF32())
    return NVVM::MMATypes::tf32;
  if (t.isInteger(8))
    return NVVM::MMATypes::s8;
  if (isa<Float8E4M3FNType>(t))
    return NVVM::MMATypes::e4m3;
  if (isa<Float8E5M2Type>(t))
    return NVVM::MMATypes::e5m2;
  return std::nullopt;
}

/// Packs elements [start, start + kWidth) of `vec` into one 32-bit operand
/// register of mma.sync: vector<2xf16> for f16 (what nvvm.mma.sync
/// expects), i32 for the others.
Value packOperand(OpBuilder &b, Location loc, Value vec, int64_t start,
                  int64_t kWidth, Type elem) {
  Value part = sliceVector(b, loc, vec, start, kWidth);
  if (elem.isF16())
    return part;
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), part);
}

struct MmaLowering {
  int64_t nB = 1, nM = 1, nN = 1, nK = 1, kWidth = 2;

  int64_t aReg(int64_t bi, int64_t m, int64_t k) const {
    return 4 * kWidth * (k + nK * (m + nM * bi));
  }
  int64_t bReg(int64_t bi, int64_t n, int64_t k) const {
    return 2 * kWidth * (k + nK * (n + nN * bi));
  }
  int64_t cReg(int64_t bi, int64_t m, int64_t n) const {
    return 4 * (n + nN * (m + nM * bi));
  }
};

/// One fp8 mma.sync (sm_89+) through inline PTX: 4 A and 2 B registers
/// (i32), 4 f32 accumulators.
SmallVector<Value> fp8Mma(OpBuilder &b, Location loc, StringRef aType,
                          StringRef bType, ArrayRef<Value> a,
                          ArrayRef<Value> bv, ArrayRef<Value> c) {
  // (Not formatv: its braces are replacement fields.)
  std::string text = ("mma.sync.aligned.m16n8k32.row.col.f32." + aType + "." +
                      bType +
                      ".f32 { $0, $1, $2, $3 }, { $4, $5, $6, $7 }, "
                      "{ $8, $9 }, { $10, $11, $12, $13 };")
                         .str();
  SmallVector<Value> operands(a.begin(), a.end());
  operands.append(bv.begin(), bv.end());
  operands.append(c.begin(), c.end());
  Type f32 = b.getF32Type();
  auto st = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                             SmallVector<Type>(4, f32));
  Operation *asmOp = createInlineAsm(
      b, loc, st, operands, text,
      "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", /*hasSideEffects=*/false);
  SmallVector<Value> out;
  for (int i = 0; i < 4; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp->getResult(0), i));
  return out;
}

struct DotLowering : public OpConversionPattern<tile::DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dType = cast<RankedTensorType>(op.getD().getType());
    if (auto mma = dyn_cast<tile::MmaEncodingAttr>(dType.getEncoding()))
      return lowerMma(op, adaptor, mma, rewriter);
    if (isa<tile::BlockedEncodingAttr>(dType.getEncoding()))
      return lowerFma(op, adaptor, rewriter);
    return rewriter.notifyMatchFailure(op, "unsupported result encoding");
  }

  LogicalResult lowerMma(tile::DotOp op, OpAdaptor adaptor,
                         tile::MmaEncodingAttr mma,
                         ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto aEnc = cast<tile::DotOperandEncodingAttr>(aType.getEncoding());
    Type aElem = aType.getElementType(), bElem = bType.getElementType();
    Type cElem = dType.getElementType();
    unsigned rank = dType.getRank(), bd = rank == 3 ? 1 : 0;
    ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
    MmaLowering p;
    p.kWidth = aEnc.getKWidth();
    int64_t instrK = 8 * p.kWidth;
    p.nM = std::max<int64_t>(1, dType.getDimSize(bd) / (16 * wpc[bd]));
    p.nN = std::max<int64_t>(1, dType.getDimSize(bd + 1) / (8 * wpc[bd + 1]));
    p.nK = aType.getDimSize(bd + 1) / instrK;
    if (rank == 3)
      p.nB = std::max<int64_t>(1, dType.getDimSize(0) / wpc[0]);
    std::optional<NVVM::MMATypes> pa = ptxType(aElem), pb = ptxType(bElem);
    if (!pa || !pb || p.nK < 1)
      return rewriter.notifyMatchFailure(op, "no mma.sync for these types");

    Value av = adaptor.getA(), bv = adaptor.getB();
    SmallVector<Value> acc;
    int64_t numAcc = p.nB * p.nM * p.nN * 4;
    for (int64_t i = 0; i < numAcc; ++i)
      acc.push_back(extractElement(rewriter, loc, adaptor.getC(), i));

    Type accElem = cElem.isF16() ? Type(VectorType::get({2}, cElem)) : cElem;
    int64_t accRegs = cElem.isF16() ? 2 : 4;
    auto resultStruct = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(accRegs, accElem));
    Type storageA = getTypeConverter()->convertType(aElem);
    Type storageB = getTypeConverter()->convertType(bElem);
    for (int64_t bi = 0; bi < p.nB; ++bi)
      for (int64_t k = 0; k < p.nK; ++k)
        for (int64_t m = 0; m < p.nM; ++m)
          for (int64_t n = 0; n < p.nN; ++n) {
            SmallVector<Value> ra, rb, rc;
            for (int64_t j = 0; j < 4; ++j)
              ra.push_back(packOperand(rewriter, loc, av,
                                       p.aReg(bi, m, k) + j * p.kWidth,
                                       p.kWidth, storageA));
            for (int64_t j = 0; j < 2; ++j)
              rb.push_back(packOperand(rewriter, loc, bv,
                                       p.bReg(bi, n, k) + j * p.kWidth,
                                       p.kWidth, storageB));
            int64_t c0 = p.cReg(bi, m, n);
            SmallVector<Value> out;
            if (isFp8(aElem)) {
              out = fp8Mma(rewriter, loc, stringifyEnum(*pa),
                           stringifyEnum(*pb), ra, rb,
                           ArrayRef<Value>(acc).slice(c0, 4));
            } else {
              if (cElem.isF16()) {
                for (int64_t j = 0; j < 2; ++j) {
                  Value v = poisonValue(rewriter, loc, accElem);
                  v = insertElement(rewriter, loc, v, acc[c0 + 2 * j], 0);
                  v = insertElement(rewriter, loc, v, acc[c0 + 2 * j + 1], 1);
                  rc.push_back(v);
                }
              } else {
                rc.assign(acc.begin() + c0, acc.begin() + c0 + 4);
              }
              std::optional<NVVM::MMAIntOverflow> overflow;
              if (aElem.isInteger(8))
                overflow = NVVM::MMAIntOverflow::wrapped;
              auto mmaOp = NVVM::MmaOp::create(
                  rewriter, loc, resultStruct, ra, rb, rc,
                  /*shape=*/{16, 8, instrK}, /*b1Op=*/std::nullopt, overflow,
                  std::array<NVVM::MMATypes, 2>{*pa, *pb},
                  std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                 NVVM::MMALayout::col});
              for (int64_t j = 0; j < accRegs; ++j) {
                Value r = LLVM::ExtractValueOp::create(rewriter, loc,
                                                       mmaOp.getRes(), j);
                if (cElem.isF16()) {
                  out.push_back(extractElement(rewriter, loc, r, 0));
                  out.push_back(extractElement(rewriter, loc, r, 1));
                } else {
                  out.push_back(r);
                }
              }
            }
            for (int64_t j = 0; j < 4; ++j)
              acc[c0 + j] = out[j];
          }
    Type resultType = getTypeConverter()->convertType(dType);
    Value result = poisonValue(rewriter, loc, resultType);
    for (int64_t i = 0; i < numAcc; ++i)
      result = insertElement(rewriter, loc, result, acc[i], i);
    // Registers past the distinct ones (replicated repetitions) repeat.
    int64_t total = cast<VectorType>(resultType).getNumElements();
    for (int64_t i = numAcc; i < total; ++i)
      result = insertElement(rewriter, loc, result, acc[i % numAcc], i);
    rewriter.replaceOp(op, result);
    return success();
  }

  LogicalResult lowerFma(tile::DotOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    LL al = getLayout(aType), bl = getLayout(bType), dl = getLayout(dType);
    unsigned rank = dType.getRank(), bd = rank == 3 ? 1 : 0;
    int64_t kSize = aType.getDimSize(bd + 1);
    Type accElem = getTypeConverter()->convertType(dType.getElementType());
    // Register-part coordinates of the operands -> register index.
    auto index = [](const LL &l) {
      DenseMap<uint64_t, int64_t> m;
      for (int64_t r = l.getNumRegisters(); r-- > 0;)
        m[l.flatten(l.applyIn(LL::kRegister, r))] = r;
      return m;
    };
    DenseMap<uint64_t, int64_t> aIdx = index(al), bIdx = index(bl);
    // The operands' lanes and warps must place rows / columns as the
    // result does.
    auto widen = [&](Value v, Type from) -> Value {
      if (from == accElem)
        return v;
      if (isa<FloatType>(accElem)) {
        if (isa<FloatType>(from))
          return from.getIntOrFloatBitWidth() < accElem.getIntOrFloatBitWidth()
                     ? Value(arith::ExtFOp::create(rewriter, loc, accElem, v))
                     : Value(arith::TruncFOp::create(rewriter, loc, accElem, v));
        return arith::SIToFPOp::create(rewriter, loc, accElem, v);
      }
      return arith::ExtSIOp::create(rewriter, loc, accElem, v);
    };
    Type aStore = getTypeConverter()->convertType(aType.getElementType());
    Type bStore = getTypeConverter()->convertType(bType.getElementType());
    if (isFp8(aType.getElementType()) || isFp8(bType.getElementType()))
      return rewriter.notifyMatchFailure(op, "fp8 FMA dot");
    Type resultType = getTypeConverter()->convertType(dType);
    Value result = poisonValue(rewriter, loc, resultType);
    SmallVector<Value> aVals(al.getNumRegisters()), bVals(bl.getNumRegisters());
    auto aAt = [&](int64_t r) {
      if (!aVals[r])
        aVals[r] = widen(extractElement(rewriter, loc, adaptor.getA(), r), aStore);
      return aVals[r];
    };
    auto bAt = [&](int64_t r) {
      if (!bVals[r])
        bVals[r] = widen(extractElement(rewriter, loc, adaptor.getB(), r), bStore);
      return bVals[r];
    };
    for (int64_t r = 0; r < dl.getNumRegisters(); ++r) {
      LL::Coord c = dl.applyIn(LL::kRegister, r);
      Value acc = extractElement(rewriter, loc, adaptor.getC(), r);
      for (int64_t k = 0; k < kSize; ++k) {
        LL::Coord ac = c, bc = c;
        ac[bd + 1] = k; // A: [.., M, K]
        bc[bd] = k;     // B: [.., K, N]
        auto ia = aIdx.find(al.flatten(ac)), ib = bIdx.find(bl.flatten(bc));
        if (ia == aIdx.end() || ib == bIdx.end())
          return rewriter.notifyMatchFailure(
              op, "operand layouts do not hold the result's rows and columns");
        Value x = aAt(ia->second), y = bAt(ib->second);
        if (isa<FloatType>(accElem))
          acc = LLVM::FMAOp::create(rewriter, loc, x, y, acc);
        else
          acc = arith::AddIOp::create(
              rewriter, loc, acc, arith::MulIOp::create(rewriter, loc, x, y));
      }
      result = insertElement(rewriter, loc, result, acc, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A wgmma operand in shared memory: its descriptor's fixed fields and the
/// byte offsets of the tile's elements (the encoding's OffsetMap).
struct WgmmaOperand {
  tile::OffsetMap map;
  int64_t bytes = 2;
  bool kMajor = true;
  /// Leading/stride byte offsets and swizzle mode, in descriptor position.
  uint64_t fields = 0;

  /// Byte offset of element `coord` (an instruction's first element: rows
  /// a multiple of 8 and K a multiple of the instruction's K, where no
  /// swizzle applies).
  int64_t offset(ArrayRef<int64_t> coord) const {
    return map.apply(coord) * bytes;
  }
};

/// The descriptor fields of `type` (PTX ISA 9.7.15.5.1, "Matrix
/// Descriptor Format"): the swizzle atom is 8 rows of `swizzle` bytes. With
/// K contiguous (K-major) one instruction's K elements (32 bytes: 16 f16,
/// 8 tf32, 32 fp8 or int8) lie in one atom row; the stride byte offset steps 8 rows of M or N, the leading one is
/// unused (1). With M or N contiguous (MN-major) the leading byte offset
/// steps from one `swizzle`-byte column block to the next (each holds all
/// K rows of the tile) and the stride byte offset steps 8 K rows.
WgmmaOperand describeOperand(tile::MemDescType type, bool isA) {
  auto enc = cast<tile::NVMMASharedEncodingAttr>(type.getEncoding());
  WgmmaOperand op;
  op.map = enc.toOffsetMap(type.getTileShape(), type.getElementType());
  op.bytes = getElementBytes(type.getElementType());
  // Contiguous dimension: 1 unless transposed. A is [M, K], B [K, N].
  unsigned contig = enc.getTransposed() ? 0 : 1;
  op.kMajor = isA ? contig == 1 : contig == 0;
  int64_t swizzle = enc.getSwizzle();
  int64_t kExtent = type.getTileShape()[isA ? 1 : 0];
  uint64_t lbo = op.kMajor ? 1 : uint64_t(kExtent * swizzle) >> 4;
  uint64_t sbo = uint64_t(8 * swizzle) >> 4;
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  op.fields = (lbo << 16) | (sbo << 32) | (mode << 62);
  return op;
}

/// The wgmma type of an operand element (the dot's types were checked by
/// tile.warpgroup_dot's verifier): f32 operands are read as tf32 (the low
/// 13 mantissa bits ignored), i8 as s8.
NVVM::WGMMATypesAttr wgmmaType(MLIRContext *ctx, Type t) {
  NVVM::WGMMATypes w = NVVM::WGMMATypes::f16;
  if (t.isBF16())
    w = NVVM::WGMMATypes::bf16;
  else if (t.isF32())
    w = NVVM::WGMMATypes::tf32;
  else if (isa<Float8E4M3FNType>(t))
    w = NVVM::WGMMATypes::e4m3;
  else if (isa<Float8E5M2Type>(t))
    w = NVVM::WGMMATypes::e5m2;
  else if (t.isInteger(8))
    w = NVVM::WGMMATypes::s8;
  return NVVM::WGMMATypesAttr::get(ctx, w);
}

/// The four 32-bit registers of one m64nNk16 A fragment held in registers
/// (the dot-operand layout: elements `base` .. `base` + 7 are, in pairs,
/// a0a1, a2a3, a4a5, a6a7 of PTX ISA 9.7.15.5.2's A fragment).
SmallVector<Value> registerA(OpBuilder &b, Location loc, Value a,
                             int64_t base) {
  SmallVector<Value> regs;
  Type i32 = b.getI32Type();
  for (int64_t j = 0; j < 4; ++j) {
    Value pair = sliceVector(b, loc, a, base + 2 * j, 2);
    regs.push_back(LLVM::BitcastOp::create(b, loc, i32, pair));
  }
  return regs;
}

/// `wgmma.mma_async` as inline PTX, for what NVVM's op cannot express: A
/// from registers (`aRegs`, four i32; NVVM takes A only as a descriptor)
/// and a run-time scale-d (`scaleD`, an i32: d = a * b + (scaleD ? c : 0)).
/// The accumulators (`st`, f32 or s32) are tied in and out; `descA` is A's
/// descriptor when `aRegs` is empty; transA/transB are the imm-trans flags
/// (16-bit types only). PTX ISA 9.7.15.5.2.
Value emitWgmmaAsm(OpBuilder &b, Location loc, Type st, Value c,
                   ArrayRef<Value> aRegs, Value descA, Value descB, int64_t n,
                   int64_t k, Type aElem, Type bElem, Value scaleD,
                   bool transA, bool transB) {
  auto structType = cast<LLVM::LLVMStructType>(st);
  int64_t regs = structType.getBody().size();
  bool accInt = structType.getBody()[0].isInteger(32);
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                     std::to_string(regs + (aRegs.empty() ? 1 : 4) + 1) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(n) + "k" + std::to_string(k) + "." +
                     (accInt ? "s32" : "f32") + "." +
                     NVVM::stringifyWGMMATypes(
                         wgmmaType(b.getContext(), aElem).getValue())
                         .str() +
                     "." +
                     NVVM::stringifyWGMMATypes(
                         wgmmaType(b.getContext(), bElem).getValue())
                         .str() +
                     " {";
  std::string constraints;
  for (int64_t i = 0; i < regs; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += i ? "," : "";
    constraints += accInt ? "=r" : "=f";
  }
  text += "}, ";
  SmallVector<Value> operands;
  if (aRegs.empty()) {
    text += "$" + std::to_string(regs);
    constraints += ",l";
    operands.push_back(descA);
  } else {
    text += "{";
    for (int64_t j = 0; j < 4; ++j)
      text += (j ? ", $" : "$") + std::to_string(regs + j);
    text += "}";
    constraints += ",r,r,r,r";
    llvm::append_range(operands, aRegs);
  }
  text += ", $" + std::to_string(regs + operands.size()) + ", p";
  constraints += ",l,r";
  operands.push_back(descB);
  operands.push_back(scaleD);
  bool is16 = aElem.isF16() || aElem.isBF16();
  if (!accInt)
    text += ", 1, 1";
  if (is16) {
    if (aRegs.empty())
      text += transA ? ", 1" : ", 0";
    text += transB ? ", 1" : ", 0";
  }
  text += ";\n}";
  for (int64_t i = 0; i < regs; ++i) {
    constraints += "," + std::to_string(i);
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, c, i));
  }
  return createInlineAsm(b, loc, st, operands, text, constraints,
                         /*hasSideEffects=*/true)
      ->getResult(0);
}

struct WarpGroupDotLowering
    : public OpConversionPattern<tile::WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto mma = cast<tile::MmaEncodingAttr>(dType.getEncoding());
    // A in shared memory (a descriptor) or in registers (aType null).
    auto aType = dyn_cast<tile::MemDescType>(op.getA().getType());
    tile::MemDescType bType = op.getB().getType();
    // Whole buffers, or a whole buffer seen transposed (the descriptor is
    // the view's encoding's, the start address the buffer's).
    for (Value v : {Value(op.getA()), Value(op.getB())}) {
      if (!isa<tile::MemDescType>(v.getType()))
        continue;
      while (auto trans = v.getDefiningOp<tile::MemDescTransOp>())
        v = trans.getSrc();
      if (!v.getDefiningOp<tile::LocalAllocOp>() &&
          !v.getDefiningOp<tile::MemDescIndexOp>())
        return rewriter.notifyMatchFailure(
            op, "operand is a view, not a whole buffer");
    }
    Type aElem = aType ? aType.getElementType()
                       : cast<RankedTensorType>(op.getA().getType())
                             .getElementType();
    ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
    int64_t wM = wpc[0], wN = wpc[1];
    int64_t instrN = mma.getInstrShape()[1];
    int64_t m = dType.getDimSize(0), n = dType.getDimSize(1);
    int64_t instrK = mma.getInstrShape()[2];
    int64_t k = bType.getTileShape()[0];
    if (m % (16 * wM) || n % (instrN * wN) || k % instrK)
      return rewriter.notifyMatchFailure(op, "tile smaller than the layout");
    int64_t nM = m / (16 * wM), nN = n / (instrN * wN), nK = k / instrK;
    WgmmaOperand a = aType ? describeOperand(aType, true) : WgmmaOperand();
    WgmmaOperand b = describeOperand(bType, false);

    // This warp's warpgroup: rows 64 * gm of the M pattern, columns
    // instrN * gn of the N pattern (warps go along M first, four a group).
    Value warp = emitWarpId(rewriter, loc);
    Value gm = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, warp, i32Const(rewriter, loc, 2)),
        i32Const(rewriter, loc, wM / 4 - 1));
    Value gn = arith::ShRUIOp::create(rewriter, loc, warp,
                                      i32Const(rewriter, loc, llvm::Log2_64(wM)));
    Type i64 = rewriter.getI64Type();
    // Base descriptor: the warpgroup's first element; the rows (columns) of
    // other warpgroups are whole atoms away, so their offsets add.
    auto baseDesc = [&](Value ptr, const WgmmaOperand &o, Value group,
                        int64_t groupOffset) -> Value {
      Value addr = LLVM::PtrToIntOp::create(rewriter, loc,
                                            rewriter.getI32Type(), ptr);
      addr = arith::AddIOp::create(
          rewriter, loc, addr,
          arith::MulIOp::create(rewriter, loc, group,
                                i32Const(rewriter, loc, groupOffset)));
      Value field = arith::ShRUIOp::create(rewriter, loc, addr,
                                           i32Const(rewriter, loc, 4));
      field = arith::AndIOp::create(rewriter, loc, field,
                                    i32Const(rewriter, loc, 0x3FFF));
      Value wide = arith::ExtUIOp::create(rewriter, loc, i64, field);
      return arith::OrIOp::create(rewriter, loc, wide,
                                  i64Const(rewriter, loc, int64_t(o.fields)));
    };
    Value descA =
        aType ? baseDesc(adaptor.getA(), a, gm, a.offset({64, 0})) : Value();
    Value descB = baseDesc(adaptor.getB(), b, gn, b.offset({0, instrN}));
    auto at = [&](Value desc, int64_t byteOffset) -> Value {
      if (byteOffset == 0)
        return desc;
      return arith::AddIOp::create(rewriter, loc, desc,
                                   i64Const(rewriter, loc, byteOffset >> 4));
    };

    int64_t regs = instrN / 2;
    Type accElem = dType.getElementType();
    auto st =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(regs, accElem));
    // A zero accumulator is not loaded: the first K step ignores it
    // (scale-d = 0).
    bool zeroC = matchPattern(op.getC(), m_AnyZeroFloat()) ||
                 matchPattern(op.getC(), m_Zero());
    SmallVector<Value> acc;
    for (int64_t mi = 0; mi < nM; ++mi)
      for (int64_t ni = 0; ni < nN; ++ni) {
        Value s = LLVM::PoisonOp::create(rewriter, loc, st);
        for (int64_t j = 0; !zeroC && j < regs; ++j)
          s = LLVM::InsertValueOp::create(
              rewriter, loc, s,
              extractElement(rewriter, loc, adaptor.getC(),
                             j + regs * (ni + nN * mi)),
              j);
        acc.push_back(s);
      }
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, int(instrN), int(instrK));
    auto layoutA = NVVM::MMALayoutAttr::get(
        ctx, !aType || a.kMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col);
    auto layoutB = NVVM::MMALayoutAttr::get(
        ctx, b.kMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    auto one = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);

    // Shared memory written through the generic proxy (stores from
    // registers) must be ordered before the async proxy reads it; operands
    // only TMA or cp.async writes need no fence (its MEMBAR also waited for
    // this warp's mbarrier arrivals before every wgmma).
    if ((isa<tile::MemDescType>(op.getA().getType()) &&
         isWrittenByGenericProxy(op.getA(), op)) ||
        isWrittenByGenericProxy(op.getB(), op))
      NVVM::FenceProxyOp::create(
          rewriter, loc,
          NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    for (int64_t ki = 0; ki < nK; ++ki)
      for (int64_t mi = 0; mi < nM; ++mi)
        for (int64_t ni = 0; ni < nN; ++ni) {
          Value db = at(descB, b.offset({ki * instrK, ni * instrN * wN}));
          Value &c = acc[ni + nN * mi];
          bool scaleD = !(zeroC && ki == 0);
          // The first K step adds c where use_acc says so.
          bool dynamicScale = scaleD && ki == 0 && adaptor.getUseAcc();
          if (!aType || dynamicScale) {
            Value scale =
                dynamicScale
                    ? Value(arith::ExtUIOp::create(rewriter, loc,
                                                   rewriter.getI32Type(),
                                                   adaptor.getUseAcc()))
                    : i32Const(rewriter, loc, scaleD ? 1 : 0);
            SmallVector<Value> aRegs;
            if (!aType)
              aRegs = registerA(rewriter, loc, adaptor.getA(),
                                8 * (ki + nK * mi));
            Value da = aType ? at(descA, a.offset({mi * 16 * wM, ki * instrK}))
                             : Value();
            c = emitWgmmaAsm(rewriter, loc, st, c, aRegs, da, db, instrN,
                             instrK, aElem, bType.getElementType(), scale,
                             aType && !a.kMajor, !b.kMajor);
            continue;
          }
          Value da = at(descA, a.offset({mi * 16 * wM, ki * instrK}));
          c = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, loc, st, c, da, db, shape,
              wgmmaType(ctx, aElem),
              wgmmaType(ctx, bType.getElementType()),
              NVVM::WGMMATypesAttr::get(ctx, accElem.isF32()
                                                 ? NVVM::WGMMATypes::f32
                                                 : NVVM::WGMMATypes::s32),
              NVVM::WGMMAScaleOutAttr::get(ctx, scaleD
                                                    ? NVVM::WGMMAScaleOut::one
                                                    : NVVM::WGMMAScaleOut::zero),
              one, one, layoutA, layoutB, NVVM::MMAIntOverflowAttr());
        }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    // Asynchronous: a tile.warpgroup_dot_wait waits for the group.
    if (!op.getIsAsync())
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);

    Type resultType = getTypeConverter()->convertType(dType);
    Value result = poisonValue(rewriter, loc, resultType);
    for (int64_t mi = 0; mi < nM; ++mi)
      for (int64_t ni = 0; ni < nN; ++ni)
        for (int64_t j = 0; j < regs; ++j)
          result = insertElement(
              rewriter, loc, result,
              LLVM::ExtractValueOp::create(rewriter, loc, acc[ni + nN * mi], j),
              j + regs * (ni + nN * mi));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `wgmma.wait_group pendings`. The values pass through the instruction as
/// tied inline-asm operands (`=f`/`=r` outputs, each tied to its input):
/// their uses cannot move above the wait, and each result is a register the
/// asm defines. That is what ptxas needs to keep wgmma asynchronous: a wait
/// on a loop's initial accumulator pins it into registers before the loop,
/// so no path into the loop's final wait (a zero-trip path where LLVM
/// rematerializes a constant, say) defines accumulator registers with
/// other instructions; otherwise ptxas serializes every wgmma of the
/// function (warning C7515).
struct WarpGroupDotWaitLowering
    : public OpConversionPattern<tile::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string text =
        "wgmma.wait_group.sync.aligned " + std::to_string(op.getPendings()) + ";";
    if (adaptor.getInputs().empty()) {
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPendings());
      rewriter.eraseOp(op);
      return success();
    }
    // Every element of every input, in order, as a 32-bit register.
    SmallVector<Value> regs;
    SmallVector<Type> regTypes;
    for (Value v : adaptor.getInputs()) {
      auto vt = dyn_cast<VectorType>(v.getType());
      if (!vt)
        return rewriter.notifyMatchFailure(op, "input not a register vector");
      for (int64_t i = 0; i < vt.getNumElements(); ++i) {
        Value e = extractElement(rewriter, loc, v, i);
        if (e.getType().getIntOrFloatBitWidth() != 32)
          return rewriter.notifyMatchFailure(op, "accumulator not 32-bit");
        regs.push_back(e);
        regTypes.push_back(e.getType());
      }
    }
    std::string outs, ins;
    for (size_t i = 0; i < regs.size(); ++i) {
      outs += (i ? ",=" : "=");
      outs += regTypes[i].isF32() ? "f" : "r";
      ins += "," + std::to_string(i);
    }
    auto st = LLVM::LLVMStructType::getLiteral(getContext(), regTypes);
    Value all = createInlineAsm(rewriter, loc, st, regs, text, outs + ins,
                                /*hasSideEffects=*/true)
                    ->getResult(0);
    SmallVector<Value> results;
    size_t next = 0;
    for (Value v : adaptor.getInputs()) {
      auto vt = cast<VectorType>(v.getType());
      Value r = poisonValue(rewriter, loc, vt);
      for (int64_t i = 0; i < vt.getNumElements(); ++i)
        r = insertElement(
            rewriter, loc, r,
            LLVM::ExtractValueOp::create(rewriter, loc, all, int64_t(next++)),
            i);
      results.push_back(r);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void simt::populateDotToSIMTPatterns(TileTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<DotLowering, WarpGroupDotLowering, WarpGroupDotWaitLowering>(
      converter, patterns.getContext());
}
