//===- SharedMemoryOps.cpp - Shared-memory ops to per-thread code -*- C++ -*-===//
//
// Lowers the shared-memory IR: a memdesc becomes a pointer (address space
// 3) to its tile buffer (`tile.local_alloc` at the offset
// tile-allocate-shared recorded, `tile.memdesc_index` one buffer further),
// views (`memdesc_subview`, `memdesc_trans`) keep the pointer and are
// resolved at each access from the original IR: a subview's origin is a
// constant XORed into every offset (its offsets are aligned, so adding
// them is XORing them under any swizzle), a transpose is the permuted
// encoding its result type already carries.
//
// Accesses compose the distributed layout with the encoding's OffsetMap
// (LinearLayout.h): local_alloc / local_store / local_load move vectors of
// up to 16 bytes where the composition is contiguous. A local_load into an
// mma.sync operand uses `ldmatrix` (PTX ISA 9.7.14.5.15): `.x4` loads the
// four 8x8 matrices of an A fragment, or the b0/b1 of two n-tiles of B,
// each lane supplying one 16-byte row address; `.trans` when the
// operand's M or N dimension, not K, is contiguous (16-bit types only; 8-
// and 32-bit operands with K contiguous use the untransposed form on
// 16-byte rows). Other cases load element by element.
//
// `tile.async_copy` becomes `cp.async` (PTX ISA 9.7.9.25) of 16, 8 or 4
// bytes per chunk of consecutive elements (`.cg` for 16, `.ca` else), the
// mask as the source size (0 = write zeros); a mask true on a prefix of
// each chunk (a bound with no divisibility fact) gives the prefix's bytes
// as the source size, the rest zero-filled. Chunks narrower than 4 bytes
// fall back to a predicated load and a shared store, which is synchronous
// and therefore also correct.
//
// TMA (sm_90+): thread 0 of the CTA initializes and invalidates mbarriers
// (`mbarrier.init` + `fence.mbarrier_init`, `mbarrier.inval`), arrives on
// one expecting a transaction count (`mbarrier.arrive.expect_tx`) and
// issues `cp.async.bulk.tensor.2d` boxes, coordinates innermost first
// (PTX ISA 9.7.9.25.5.1), one per `swizzle`-byte column block of the
// NVMMA destination, at the block's offset in it; every thread waits with
// `mbarrier.try_wait.parity` in a loop.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {
using LL = tile::LinearLayout;

/// A memdesc as an access sees it: the element offsets of the view's
/// coordinates within its tile buffer, and the element type.
struct MemDescView {
  tile::OffsetMap map;
  int64_t xorOffset = 0;
  Type elem;
};

MemDescView getView(Value memdesc) {
  auto type = cast<tile::MemDescType>(memdesc.getType());
  auto enc = cast<tile::SharedEncodingAttrInterface>(type.getEncoding());
  unsigned bufferDims = type.getNumBufferDims();
  ArrayRef<int64_t> allocTile = type.getAllocShape().drop_front(bufferDims);
  ArrayRef<int64_t> tile = type.getTileShape();
  tile::OffsetMap alloc = enc.toOffsetMap(allocTile, type.getElementType());
  // The origin: the sum of the offsets of the subviews this is taken from.
  SmallVector<int64_t> origin(tile.size(), 0);
  Value v = memdesc;
  while (auto sub = v.getDefiningOp<tile::MemDescSubviewOp>()) {
    for (unsigned d = 0; d < origin.size(); ++d)
      origin[d] += sub.getOffsets()[bufferDims + d];
    v = sub.getSrc();
  }
  SmallVector<SmallVector<int64_t>> bits;
  for (unsigned d = 0; d < tile.size(); ++d)
    bits.push_back(SmallVector<int64_t>(
        ArrayRef<int64_t>(alloc.getBitOffsets()[d])
            .take_front(llvm::Log2_64(tile[d]))));
  MemDescView view;
  view.map = tile::OffsetMap(tile, std::move(bits), alloc.getSize());
  view.xorOffset = alloc.apply(origin);
  view.elem = type.getElementType();
  return view;
}

/// The byte offset tile-allocate-shared gave `op`.
FailureOr<int64_t> getAllocatedOffset(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(
      tile::TileDialect::getSharedOffsetAttrName());
  if (!attr)
    return op->emitError("expected a shared-memory offset ")
           << "(tile.shared_offset; run tile-allocate-shared first)";
  return attr.getInt();
}

Type storageType(const TypeConverter &tc, Type elem) {
  Type t = tc.convertType(elem);
  return t.isInteger(1) ? IntegerType::get(elem.getContext(), 8) : t;
}

struct LocalAllocLowering : public OpConversionPattern<tile::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<int64_t> offset = getAllocatedOffset(op);
    if (failed(offset))
      return failure();
    Location loc = op.getLoc();
    Value base = getSharedBase(rewriter, loc, *offset);
    if (op.getSrc()) {
      MemDescView view = getView(op.getResult());
      LL l = getLayout(op.getSrc().getType());
      storeToShared(rewriter, loc, base, adaptor.getSrc(),
                    view.map.compose(l), 16, view.xorOffset);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalStoreLowering : public OpConversionPattern<tile::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemDescView view = getView(op.getDst());
    LL l = getLayout(op.getSrc().getType());
    storeToShared(rewriter, op.getLoc(), adaptor.getDst(), adaptor.getSrc(),
                  view.map.compose(l), 16, view.xorOffset);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexLowering
    : public OpConversionPattern<tile::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tile::MemDescType type = op.getResult().getType();
    int64_t elems = 1;
    for (int64_t s : type.getAllocShape())
      elems *= s;
    Type elem = storageType(*getTypeConverter(), type.getElementType());
    Value off = arith::MulIOp::create(rewriter, loc, adaptor.getIndex(),
                                      i32Const(rewriter, loc, elems));
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    rewriter.replaceOp(op, LLVM::GEPOp::create(rewriter, loc, ptrType, elem,
                                               adaptor.getSrc(),
                                               ArrayRef<LLVM::GEPArg>{off}));
    return success();
  }
};

/// The ldmatrix form of a local_load into an mma.sync operand, if any.
struct LdMatrixPlan {
  bool trans = false;
  /// Lane bases of the row addresses, in the operand's coordinates.
  SmallVector<LL::Coord> laneBases;
  /// B: x4 loads two n-tiles (their register distance); 0: x2, one.
  int64_t nPairStride = 0;
};

std::optional<LdMatrixPlan> planLdMatrix(tile::DotOperandEncodingAttr enc,
                                         RankedTensorType type,
                                         const MemDescView &view) {
  auto mma = dyn_cast<tile::MmaEncodingAttr>(enc.getParent());
  if (!mma || mma.getVersion() != 2)
    return std::nullopt;
  int64_t bytes = getElementBytes(type.getElementType());
  if (bytes * enc.getKWidth() != 4)
    return std::nullopt;
  unsigned rank = type.getRank(), bd = rank == 3 ? 1 : 0;
  bool isA = enc.getOpIdx() == 0;
  unsigned kDim = isA ? bd + 1 : bd, otherDim = isA ? bd : bd + 1;
  int64_t chunk = 16 / bytes;
  // The contiguous dimension holds whole 16-byte rows, and every other
  // bit moves addresses by whole rows.
  auto bits = view.map.getBitOffsets();
  int contiguous = -1;
  for (unsigned d = 0; d < rank; ++d)
    if (!bits[d].empty() && bits[d][0] == 1)
      contiguous = d;
  if (contiguous < 0 || type.getDimSize(contiguous) < chunk)
    return std::nullopt;
  unsigned inRow = llvm::Log2_64(chunk);
  for (unsigned d = 0; d < rank; ++d)
    for (unsigned i = 0; i < bits[d].size(); ++i) {
      bool rowBit = int(d) == contiguous && i < inRow;
      if (rowBit ? bits[d][i] != (int64_t(1) << i) : bits[d][i] % chunk != 0)
        return std::nullopt;
    }
  if (view.xorOffset % chunk != 0)
    return std::nullopt;
  LdMatrixPlan p;
  p.trans = unsigned(contiguous) != kDim;
  if (p.trans && bytes != 2)
    return std::nullopt;
  auto unit = [&](unsigned d, int64_t v) {
    LL::Coord c(rank, 0);
    c[d] = v;
    return c;
  };
  if (!isA) {
    ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
    int64_t nStep = 8 * int64_t(wpc[bd + 1]);
    if (type.getDimSize(otherDim) >= 2 * nStep)
      p.nPairStride = nStep;
  }
  // Lane l supplies row l % 8 of matrix l / 8.
  if (isA && !p.trans) // matrices: (m 0-7 | 8-15) x (k chunk 0 | 1)
    p.laneBases = {unit(otherDim, 1), unit(otherDim, 2), unit(otherDim, 4),
                   unit(otherDim, 8), unit(kDim, chunk)};
  else if (isA) // rows are k; matrices (m 0-7 | 8-15) x (k 0-7 | 8-15)
    p.laneBases = {unit(kDim, 1), unit(kDim, 2), unit(kDim, 4),
                   unit(otherDim, 8), unit(kDim, 8)};
  else if (!p.trans) // rows are n; matrices (k chunk 0 | 1) x (n-tile, next)
    p.laneBases = {unit(otherDim, 1), unit(otherDim, 2), unit(otherDim, 4),
                   unit(kDim, chunk), unit(otherDim, p.nPairStride)};
  else // rows are k; matrices (k 0-7 | 8-15) x (n-tile, next)
    p.laneBases = {unit(kDim, 1), unit(kDim, 2), unit(kDim, 4),
                   unit(kDim, 8), unit(otherDim, p.nPairStride)};
  return p;
}

struct LocalLoadLowering : public OpConversionPattern<tile::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    MemDescView view = getView(op.getSrc());
    LL l = getLayout(type);
    auto vecType = cast<VectorType>(getTypeConverter()->convertType(type));
    if (auto enc = dyn_cast<tile::DotOperandEncodingAttr>(type.getEncoding()))
      if (std::optional<LdMatrixPlan> p = planLdMatrix(enc, type, view)) {
        rewriter.replaceOp(op, loadWithLdMatrix(rewriter, loc, enc, type, l,
                                                view, *p, adaptor.getSrc(),
                                                vecType));
        return success();
      }
    Type elem = storageType(*getTypeConverter(), type.getElementType());
    VectorType storeType = VectorType::get(vecType.getShape(), elem);
    Value v = loadFromShared(rewriter, loc, adaptor.getSrc(), storeType,
                             view.map.compose(l), 16, view.xorOffset);
    if (storeType != vecType)
      v = arith::TruncIOp::create(rewriter, loc, vecType, v);
    rewriter.replaceOp(op, v);
    return success();
  }

  Value loadWithLdMatrix(OpBuilder &b, Location loc,
                         tile::DotOperandEncodingAttr enc,
                         RankedTensorType type, const LL &l,
                         const MemDescView &view, const LdMatrixPlan &p,
                         Value base, VectorType vecType) const {
    auto mma = cast<tile::MmaEncodingAttr>(enc.getParent());
    unsigned rank = type.getRank(), bd = rank == 3 ? 1 : 0;
    bool isA = enc.getOpIdx() == 0;
    ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
    int64_t kWidth = enc.getKWidth();
    int64_t nK = type.getDimSize(isA ? bd + 1 : bd) / (8 * kWidth);
    int64_t nOther =
        isA ? std::max<int64_t>(1, type.getDimSize(bd) / (16 * wpc[bd]))
            : std::max<int64_t>(1, type.getDimSize(bd + 1) / (8 * wpc[bd + 1]));
    int64_t nB =
        rank == 3 ? std::max<int64_t>(1, type.getDimSize(0) / wpc[0]) : 1;
    int64_t regsPerInstr = isA ? 4 * kWidth : 2 * kWidth;
    auto regOf = [&](int64_t bi, int64_t o, int64_t k) {
      return regsPerInstr * (k + nK * (o + nOther * bi));
    };
    // Row addresses: the operand's register and warp placement, the
    // ldmatrix lanes.
    LL addr(LL::Bases{SmallVector<LL::Coord>(l.getBases(LL::kRegister)),
                      p.laneBases,
                      SmallVector<LL::Coord>(l.getBases(LL::kWarp))},
            type.getShape());
    LL offsets = view.map.compose(addr);
    ThreadCoords thread = emitThreadOffsets(b, loc, offsets, view.xorOffset);
    Type elem = vecType.getElementType();
    Type word = kWidth == 1 ? elem : Type(VectorType::get({kWidth}, elem));
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
    Type i32 = b.getI32Type();
    SmallVector<Value> regs(vecType.getNumElements());
    auto load = [&](int64_t reg, int num) {
      Value off = emitElementCoords(b, loc, offsets, thread, reg)[0];
      Value ptr = LLVM::GEPOp::create(b, loc, ptrType, elem, base,
                                      ArrayRef<LLVM::GEPArg>{off});
      Type res = num == 1 ? i32
                          : Type(LLVM::LLVMStructType::getLiteral(
                                b.getContext(), SmallVector<Type>(num, i32)));
      Value m = NVVM::LdMatrixOp::create(
          b, loc, res, ptr, num,
          p.trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
      SmallVector<Value> words;
      for (int i = 0; i < num; ++i)
        words.push_back(num == 1 ? m : LLVM::ExtractValueOp::create(b, loc, m, i));
      return words;
    };
    // Word j of an instruction's fragment -> registers.
    auto place = [&](int64_t reg, Value w) {
      Value v = LLVM::BitcastOp::create(b, loc, word, w);
      for (int64_t e = 0; e < kWidth; ++e)
        regs[reg + e] = kWidth == 1 ? v : extractElement(b, loc, v, e);
    };
    for (int64_t bi = 0; bi < nB; ++bi)
      for (int64_t k = 0; k < nK; ++k) {
        if (isA) {
          for (int64_t m = 0; m < nOther; ++m) {
            int64_t r = regOf(bi, m, k);
            SmallVector<Value> w = load(r, 4);
            for (int j = 0; j < 4; ++j)
              place(r + j * kWidth, w[j]);
          }
          continue;
        }
        for (int64_t n = 0; n < nOther; n += p.nPairStride ? 2 : 1) {
          int64_t r = regOf(bi, n, k);
          SmallVector<Value> w = load(r, p.nPairStride ? 4 : 2);
          place(r, w[0]);
          place(r + kWidth, w[1]);
          if (p.nPairStride) {
            int64_t r2 = regOf(bi, n + 1, k);
            place(r2, w[2]);
            place(r2 + kWidth, w[3]);
          }
        }
      }
    Value result = poisonValue(b, loc, vecType);
    for (int64_t i = 0; i < int64_t(regs.size()); ++i)
      result = insertElement(b, loc, result,
                             regs[i] ? regs[i] : regs[i % (regsPerInstr * nK * nOther * nB)], i);
    return result;
  }
};

/// How tile.async_copy `op` of elements of `bytes` bytes is copied (`l`:
/// its pointers' layout; `offsets`: their shared-memory offsets): chunks of
/// `vec` registers consecutive in global memory (axis facts) and in shared
/// memory, with a mask constant over them (or, `prefixMask`, true on a
/// prefix of a chunk of 4 bytes or more), at most 16 bytes.
std::pair<int64_t, bool> planChunks(tile::AsyncCopyOp op, const LL &l,
                                    const LL &offsets, int64_t bytes,
                                    const ModuleAxisInfo &axis) {
  int64_t vec =
      std::min<int64_t>(offsets.getContiguousRegisters(0), 16 / bytes);
  int dim = -1;
  if (l.getNumBits(LL::kRegister) > 0)
    for (unsigned d = 0; d < l.getRank(); ++d)
      if (l.getBases(LL::kRegister)[0][d] == 1)
        dim = d;
  if (dim < 0)
    vec = 1;
  else
    vec = std::max<int64_t>(
        1, std::min(vec, axis.getPtrVectorWidth(
                             op.getPtr(), dim, l.getContiguousRegisters(dim))));
  // A mask not constant over the chunk but true on a prefix of it (the
  // bound check of a tile against a size with no divisibility fact):
  // the chunk is copied with the prefix's byte count as its source size,
  // cp.async zero-filling the rest -- as long as a chunk is 4 bytes or
  // more; below that, the narrow path (synchronous) is no worse.
  bool prefixMask = false;
  if (op.getMask() && dim >= 0) {
    int64_t constancy = axis.getMaskConstancy(op.getMask(), dim);
    if (constancy < vec && vec * bytes >= 4 &&
        axis.getMaskPrefixWidth(op.getMask(), dim) >= vec)
      prefixMask = true;
    else
      vec = std::max<int64_t>(1, std::min(vec, constancy));
  }
  return {vec, prefixMask};
}

struct AsyncCopyLowering : public OpConversionPattern<tile::AsyncCopyOp> {
  AsyncCopyLowering(TileTypeConverter &tc, MLIRContext *ctx,
                    const ModuleAxisInfo &axis)
      : OpConversionPattern(tc, ctx), axis(axis) {}

  LogicalResult
  matchAndRewrite(tile::AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    MemDescView view = getView(op.getDst());
    LL l = getLayout(ptrType);
    LL offsets = view.map.compose(l);
    Type elem = storageType(*getTypeConverter(), view.elem);
    int64_t bytes = getElementBytes(elem);
    int64_t vec;
    bool prefixMask;
    std::tie(vec, prefixMask) = planChunks(op, l, offsets, bytes, axis);
    uint64_t freeRegs = l.getFreeMask(LL::kRegister);
    Value pred = emitReplicaPredicate(rewriter, loc, offsets);
    ThreadCoords thread =
        emitThreadOffsets(rewriter, loc, offsets, view.xorOffset);
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    auto globalPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
    int64_t chunkBytes = vec * bytes;
    // Narrow chunks (under 4 bytes: no cp.async; one or two elements) are a
    // synchronous load and a shared store each, writes through the generic
    // proxy (the copy carries kGenericProxyWriteAttr, so a wgmma reading the
    // buffer is fenced). The stores of up to kNarrowInFlight chunks follow
    // their loads, so that the loads are issued together: ptxas did so with
    // NVPTX's load/store pairs but issued NVRTC's one or two loads at a time
    // (the 64x128x16 tap-major convolution, 16 input and 8 weight loads a
    // thread a stage, ran 0.79x through the CUDA C++ backend, 1.02-1.08x in
    // this order, 0.83x in groups of 8: docs/performance.md, issue 16). The
    // bound keeps a large tile's loads from holding as many registers.
    constexpr size_t kNarrowInFlight = 32;
    SmallVector<std::pair<Value, Value>> narrow; // loaded value, address
    auto storeNarrow = [&] {
      OpBuilder::InsertionGuard guard(rewriter);
      if (pred) {
        auto ifOp = scf::IfOp::create(rewriter, loc, pred, false);
        rewriter.setInsertionPoint(
            ifOp.getThenRegion().front().getTerminator());
      }
      for (auto [v, dst] : narrow)
        LLVM::StoreOp::create(rewriter, loc, v, dst, unsigned(chunkBytes));
      narrow.clear();
    };
    for (int64_t r = 0; r < l.getNumRegisters(); r += vec) {
      if (uint64_t(r) & freeRegs)
        continue;
      Value off = emitElementCoords(rewriter, loc, offsets, thread, r)[0];
      Value dst = LLVM::GEPOp::create(rewriter, loc, sharedPtr, elem,
                                      adaptor.getDst(),
                                      ArrayRef<LLVM::GEPArg>{off});
      Value addr = extractElement(rewriter, loc, adaptor.getPtr(), r);
      Value mask = op.getMask()
                       ? extractElement(rewriter, loc, adaptor.getMask(), r)
                       : Value();
      if (chunkBytes >= 4) {
        Value src = LLVM::IntToPtrOp::create(rewriter, loc, globalPtr, addr);
        Value size;
        if (mask && prefixMask) {
          // Bytes of the chunk's true prefix: its true lanes' count.
          for (int64_t i = 0; i < vec; ++i) {
            Value lane =
                i ? extractElement(rewriter, loc, adaptor.getMask(), r + i)
                  : mask;
            Value bytesOf = arith::SelectOp::create(
                rewriter, loc, lane, i32Const(rewriter, loc, bytes),
                i32Const(rewriter, loc, 0));
            size = size ? arith::AddIOp::create(rewriter, loc, size, bytesOf)
                        : bytesOf;
          }
        } else if (mask) {
          size = arith::SelectOp::create(rewriter, loc, mask,
                                         i32Const(rewriter, loc, chunkBytes),
                                         i32Const(rewriter, loc, 0));
        }
        auto emit = [&](OpBuilder &ib) {
          NVVM::CpAsyncOp::create(
              ib, loc, dst, src, ib.getI32IntegerAttr(chunkBytes),
              NVVM::LoadCacheModifierKindAttr::get(
                  ib.getContext(), chunkBytes == 16
                                       ? NVVM::LoadCacheModifierKind::CG
                                       : NVVM::LoadCacheModifierKind::CA),
              size);
        };
        if (pred) {
          auto ifOp = scf::IfOp::create(rewriter, loc, pred, false);
          OpBuilder ib = OpBuilder::atBlockBegin(&ifOp.getThenRegion().front());
          ib.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
          emit(ib);
        } else {
          emit(rewriter);
        }
        continue;
      }
      narrow.push_back(
          {loadGlobalChunk(rewriter, loc, addr, mask, Value(), elem, vec),
           dst});
      if (narrow.size() == kNarrowInFlight)
        storeNarrow();
    }
    if (!narrow.empty())
      storeNarrow();
    rewriter.eraseOp(op);
    return success();
  }

  const ModuleAxisInfo &axis;
};

struct AsyncCommitLowering
    : public OpConversionPattern<tile::AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : public OpConversionPattern<tile::AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getNum());
    return success();
  }
};

/// `body` emitted under `if (threadIdx.x == 0 && pred)` (pred optional).
template <typename Fn>
void onThreadZero(OpBuilder &b, Location loc, Value pred, Fn body) {
  Value cond = emitIsThreadZero(b, loc);
  if (pred)
    cond = arith::AndIOp::create(b, loc, cond, pred);
  auto ifOp = scf::IfOp::create(b, loc, cond, false);
  OpBuilder ib(ifOp.getThenRegion().front().getTerminator());
  body(ib);
}

/// The address of mbarrier `k` of a buffer of them.
Value barrierAt(OpBuilder &b, Location loc, Value base, int64_t k) {
  if (k == 0)
    return base;
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(k)});
}

struct MBarrierInitLowering
    : public OpConversionPattern<tile::MBarrierInitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MBarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t n = op.getBarriers().getType().getNumElements();
    onThreadZero(rewriter, loc, Value(), [&](OpBuilder &b) {
      Value count = i32Const(b, loc, op.getCount());
      for (int64_t k = 0; k < n; ++k)
        NVVM::MBarrierInitOp::create(
            b, loc, barrierAt(b, loc, adaptor.getBarriers(), k), count,
            Value());
      NVVM::FenceMbarrierInitOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierInvalLowering
    : public OpConversionPattern<tile::MBarrierInvalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MBarrierInvalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t n = op.getBarriers().getType().getNumElements();
    onThreadZero(rewriter, loc, Value(), [&](OpBuilder &b) {
      for (int64_t k = 0; k < n; ++k)
        NVVM::MBarrierInvalOp::create(
            b, loc, barrierAt(b, loc, adaptor.getBarriers(), k));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierExpectLowering
    : public OpConversionPattern<tile::MBarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MBarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    onThreadZero(rewriter, loc, adaptor.getPred(), [&](OpBuilder &b) {
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, Type(), adaptor.getBarrier(),
          i32Const(b, loc, op.getBytes()), NVVM::MemScopeKind::CTA,
          /*relaxed=*/false, Value());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitLowering
    : public OpConversionPattern<tile::MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The suspend-time hint of each try (ns): CUTLASS's 0x989680.
    NVVM::MBarrierTryWaitParityOp::create(rewriter, loc, adaptor.getBarrier(),
                                          adaptor.getPhase(),
                                          i32Const(rewriter, loc, 10000000));
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveLowering
    : public OpConversionPattern<tile::MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The warp's lanes converge (their reads before are done), then lane 0
    // arrives for the warp.
    NVVM::SyncWarpOp::create(rewriter, loc, i32Const(rewriter, loc, -1));
    Value lane0 = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        emitLaneId(rewriter, loc),
                                        i32Const(rewriter, loc, 0));
    if (adaptor.getPred())
      lane0 = arith::AndIOp::create(rewriter, loc, lane0, adaptor.getPred());
    // Predicated, not branched to: a divergent branch next to in-flight
    // wgmma groups stalled the issuing warps (H200, Nsight Compute:
    // "dispatch stall" and "branch resolving", 13% of a GEMM's time).
    if (std::optional<uint32_t> ctas = op.getClusterCtas()) {
      // The barrier at the same offset in each CTA of the cluster (this
      // one's too, through its cluster address). Default semantics
      // (release at CTA scope), as CUTLASS's ClusterBarrier::arrive: the
      // warp's reads of the slot are complete here (its wgmma groups
      // waited for, its loads returned), and `.release.cluster` compiles
      // to a fence that waits for every outstanding memory operation
      // (ERRBAR; H200, Nsight Compute: 30% of a multicast GEMM's stall
      // samples, 0.6x of the kernel without clusters).
      auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
      for (uint32_t r = 0; r < *ctas; ++r) {
        Value remote = NVVM::MapaOp::create(rewriter, loc, clusterPtr,
                                            adaptor.getBarrier(),
                                            i32Const(rewriter, loc, r));
        createInlineAsm(
            rewriter, loc, TypeRange(), ValueRange{lane0, remote},
            "@$0 mbarrier.arrive.shared::cluster.b64 _, [$1];",
            "b,l", /*hasSideEffects=*/true);
      }
      rewriter.eraseOp(op);
      return success();
    }
    createInlineAsm(rewriter, loc, TypeRange(),
                    ValueRange{lane0, adaptor.getBarrier()},
                    "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,l",
                    /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

/// `%cluster_ctarank` and `%cluster_nctarank` (PTX ISA 10.24, 10.25).
Value clusterRank(OpBuilder &b, Location loc) {
  return NVVM::ClusterId::create(b, loc, b.getI32Type());
}
Value clusterSize(OpBuilder &b, Location loc) {
  return NVVM::ClusterDim::create(b, loc, b.getI32Type());
}

/// Every thread of the cluster arrives (release) and waits (acquire).
void emitClusterBarrier(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

struct ClusterBarrierLowering
    : public OpConversionPattern<tile::ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ClusterBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!adaptor.getPred()) {
      emitClusterBarrier(rewriter, loc);
    } else {
      auto ifOp = scf::IfOp::create(rewriter, loc, adaptor.getPred(), false);
      OpBuilder ib(ifOp.getThenRegion().front().getTerminator());
      emitClusterBarrier(ib, loc);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterAgreeLowering
    : public OpConversionPattern<tile::ClusterAgreeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ClusterAgreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    // This CTA's words: ready, then the values, zero-extended.
    SmallVector<Value> words;
    auto widen = [&](OpBuilder &b, Value v) -> Value {
      if (v.getType().isIndex())
        return arith::IndexCastUIOp::create(b, loc, i64, v);
      if (v.getType().getIntOrFloatBitWidth() < 64)
        return arith::ExtUIOp::create(b, loc, i64, v);
      return v;
    };
    words.push_back(widen(rewriter, adaptor.getReady()));
    for (Value v : adaptor.getValues())
      words.push_back(widen(rewriter, v));
    Value two = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      clusterSize(rewriter, loc),
                                      i32Const(rewriter, loc, 2));
    SmallVector<Type> types(op.getAgree().size(), rewriter.getI1Type());
    auto ifOp = scf::IfOp::create(rewriter, loc, types, two, true);
    {
      OpBuilder b = ifOp.getThenBodyBuilder();
      auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
      auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
      Value base = adaptor.getExchange();
      Value t0 = emitIsThreadZero(b, loc);
      for (auto [k, w] : llvm::enumerate(words)) {
        Value at = LLVM::GEPOp::create(b, loc, sharedPtr, i64, base,
                                       ArrayRef<LLVM::GEPArg>{int32_t(k)});
        createPredicatedSharedStore(b, loc, t0, at, w);
      }
      emitClusterBarrier(b, loc);
      Value peer = arith::XOrIOp::create(b, loc, clusterRank(b, loc),
                                         i32Const(b, loc, 1));
      Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, base, peer);
      SmallVector<Value> same;
      for (auto [k, w] : llvm::enumerate(words)) {
        Value at = LLVM::GEPOp::create(b, loc, clusterPtr, i64, remote,
                                       ArrayRef<LLVM::GEPArg>{int32_t(k)});
        Value theirs = LLVM::LoadOp::create(b, loc, i64, at, /*alignment=*/8);
        if (k == 0) {
          Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
          Value both = arith::AndIOp::create(b, loc, theirs, w);
          same.push_back(arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ne, both, zero));
          continue;
        }
        same.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             theirs, w));
      }
      SmallVector<Value> results;
      unsigned next = 1;
      for (int32_t n : op.getGroupSizes()) {
        Value r = same[0];
        for (int32_t i = 0; i < n; ++i)
          r = arith::AndIOp::create(b, loc, r, same[next++]);
        results.push_back(r);
      }
      scf::YieldOp::create(b, loc, results);
    }
    {
      OpBuilder b = ifOp.getElseBodyBuilder();
      Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
      scf::YieldOp::create(b, loc, SmallVector<Value>(types.size(), no));
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// The boxes of a TMA copy of the 2-D NVMMA block `memdesc` (at `base`)
/// at element coordinates `indices`: box j covers columns
/// [j * inner, (j + 1) * inner) of every row, at its offset in the
/// encoding; `fn` gets its shared address and its coordinates innermost
/// first (PTX order).
/// With `row0`, the boxes start at that row of the block (a multicast
/// copy's half).
void forEachTMABox(OpBuilder &b, Location loc, Value memdesc, Value base,
                   Type elem, ValueRange indices,
                   llvm::function_ref<void(Value, ValueRange)> fn,
                   int64_t row0 = 0) {
  auto type = cast<tile::MemDescType>(memdesc.getType());
  int64_t inner = (*tile::getTMABox(type))[1]; // the verifier checked it
  MemDescView view = getView(memdesc);
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value row = indices[0];
  if (row0)
    row = arith::AddIOp::create(b, loc, row, i32Const(b, loc, row0));
  for (int64_t j = 0; j * inner < type.getShape()[1]; ++j) {
    int64_t off = view.map.apply({row0, j * inner}) ^ view.xorOffset;
    Value at = LLVM::GEPOp::create(b, loc, sharedPtr, elem, base,
                                   ArrayRef<LLVM::GEPArg>{int32_t(off)});
    Value col = indices[1];
    if (j)
      col = arith::AddIOp::create(b, loc, col, i32Const(b, loc, j * inner));
    fn(at, ValueRange{col, row});
  }
}

struct AsyncTMALoadLowering
    : public OpConversionPattern<tile::AsyncTMALoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AsyncTMALoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = storageType(*getTypeConverter(),
                            op.getDst().getType().getElementType());
    auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
    // The boxes of rows [row0, row0 + the map's box) through `map`, to
    // this CTA (no mask) or to the CTAs of `mask`.
    auto issue = [&](OpBuilder &b, Value map, Value mask, int64_t row0) {
      forEachTMABox(
          b, loc, op.getDst(), adaptor.getDst(), elem, adaptor.getIndices(),
          [&](Value at, ValueRange coords) {
            Value dst = LLVM::AddrSpaceCastOp::create(b, loc, clusterPtr, at);
            NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
                b, loc, dst, map, coords, adaptor.getBarrier(), ValueRange(),
                mask, Value(), NVVM::TMALoadMode::TILE,
                /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(), Value());
          },
          row0);
    };
    onThreadZero(rewriter, loc, adaptor.getPred(), [&](OpBuilder &b) {
      if (!adaptor.getMulticast()) {
        issue(b, adaptor.getTensormap(), Value(), 0);
        return;
      }
      auto ifOp = scf::IfOp::create(b, loc, adaptor.getMulticast(), true);
      {
        OpBuilder tb = ifOp.getThenBodyBuilder();
        // Both CTAs released the slot: their reads of it are complete
        // (as CUTLASS's ClusterBarrier::wait, default semantics; see the
        // arrival's lowering).
        createInlineAsm(
            tb, loc, TypeRange(),
            ValueRange{adaptor.getEmpty(), adaptor.getEmptyPhase()},
            "{\n.reg .pred P1;\nTILEC_EMPTY_WAIT:\n"
            "mbarrier.try_wait.parity.shared::cta.b64 P1, "
            "[$0], $1, 10000000;\n@!P1 bra TILEC_EMPTY_WAIT;\n}",
            "l,r", /*hasSideEffects=*/true);
        int64_t half = op.getDst().getType().getShape()[0] / 2;
        Value mask = arith::ConstantIntOp::create(tb, loc, 3, 16);
        Value second = arith::CmpIOp::create(
            tb, loc, arith::CmpIPredicate::ne, clusterRank(tb, loc),
            i32Const(tb, loc, 0));
        auto which = scf::IfOp::create(tb, loc, second, true);
        OpBuilder hb = which.getThenBodyBuilder();
        issue(hb, adaptor.getMulticastMap(), mask, half);
        OpBuilder lb = which.getElseBodyBuilder();
        issue(lb, adaptor.getMulticastMap(), mask, 0);
      }
      OpBuilder eb = ifOp.getElseBodyBuilder();
      issue(eb, adaptor.getTensormap(), Value(), 0);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreLowering
    : public OpConversionPattern<tile::AsyncTMAStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AsyncTMAStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = storageType(*getTypeConverter(),
                            op.getSrc().getType().getElementType());
    // Every thread's writes of the buffer, for the async proxy, then all
    // of them written before thread 0 copies.
    MLIRContext *ctx = rewriter.getContext();
    NVVM::FenceProxyOp::create(
        rewriter, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(rewriter, loc);
    onThreadZero(rewriter, loc, Value(), [&](OpBuilder &b) {
      forEachTMABox(b, loc, op.getSrc(), adaptor.getSrc(), elem,
                    adaptor.getIndices(), [&](Value at, ValueRange coords) {
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            b, loc, adaptor.getTensormap(), at, coords, Value(),
            NVVM::TMAStoreMode::TILE, Value());
      });
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreWaitLowering
    : public OpConversionPattern<tile::AsyncTMAStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AsyncTMAStoreWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    onThreadZero(rewriter, loc, Value(), [&](OpBuilder &b) {
      NVVM::CpAsyncBulkWaitGroupOp::create(
          b, loc, b.getI32IntegerAttr(int32_t(op.getPendings())),
          b.getUnitAttr());
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedLowering
    : public OpConversionPattern<tile::FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::FenceAsyncSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    return success();
  }
};

} // namespace

bool simt::isNarrowAsyncCopy(tile::AsyncCopyOp op, const TypeConverter &tc,
                             const ModuleAxisInfo &axis) {
  MemDescView view = getView(op.getDst());
  LL l = getLayout(cast<RankedTensorType>(op.getPtr().getType()));
  int64_t bytes = getElementBytes(storageType(tc, view.elem));
  return planChunks(op, l, view.map.compose(l), bytes, axis).first * bytes < 4;
}

void simt::populateSharedMemoryToSIMTPatterns(TileTypeConverter &converter,
                                              const ModuleAxisInfo &axis,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalLoadLowering,
               MemDescIndexLowering, ForwardSrcLowering<tile::MemDescSubviewOp>,
               ForwardSrcLowering<tile::MemDescTransOp>, AsyncCommitLowering,
               AsyncWaitLowering, MBarrierInitLowering, MBarrierInvalLowering,
               MBarrierExpectLowering, MBarrierWaitLowering,
               MBarrierArriveLowering, ClusterAgreeLowering,
               ClusterBarrierLowering, AsyncTMALoadLowering, AsyncTMAStoreLowering,
               AsyncTMAStoreWaitLowering, FenceAsyncSharedLowering>(converter,
                                                                    ctx);
  patterns.add<AsyncCopyLowering>(converter, ctx, axis);
}
