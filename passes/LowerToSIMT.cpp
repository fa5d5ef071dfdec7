//===- LowerToSIMT.cpp - Tile IR to per-thread SIMT IR ----------*- C++ -*-===//
//
// tile-lower-to-simt: moves kernels into a gpu.module as gpu.func kernels
// and rewrites every tile into the elements one thread holds (see
// passes/SIMT/SIMTUtils.h). Index and shape ops live here; memory ops and
// layout conversions have their own pattern files under passes/SIMT/.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/TileGraphOps.h"
#include "passes/LayoutUtils.h"
#include "passes/Passes.h"
#include "passes/SharedMemoryUtils.h"
#include "passes/Target.h"
#include "tilec/Runtime.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include "passes/SIMT/SIMTUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "tile-lower-to-simt"

namespace tilec {
#define GEN_PASS_DEF_TILELOWERTOSIMTPASS
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

gpu::Dimension gridDim(int32_t axis) {
  return axis == 0 ? gpu::Dimension::x
                   : axis == 1 ? gpu::Dimension::y : gpu::Dimension::z;
}

struct ProgramIdLowering : public OpConversionPattern<tile::ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ProgramIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value id = gpu::BlockIdOp::create(rewriter, op.getLoc(),
                                      gridDim(op.getAxis()));
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(op, rewriter.getI32Type(),
                                                      id);
    return success();
  }
};

struct NumProgramsLowering : public OpConversionPattern<tile::NumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::NumProgramsOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value n = gpu::GridDimOp::create(rewriter, op.getLoc(),
                                     gridDim(op.getAxis()));
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(op, rewriter.getI32Type(),
                                                      n);
    return success();
  }
};

/// Each thread's elements of [start, end): start + coordinate.
struct MakeRangeLowering : public OpConversionPattern<tile::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tile::LinearLayout l = getLayout(op.getType());
    ThreadCoords thread = emitThreadCoords(rewriter, loc, l);
    Type type = getTypeConverter()->convertType(op.getType());
    Value result = poisonValue(rewriter, loc, type);
    for (int64_t e = 0; e < l.getNumRegisters(); ++e) {
      Value c = emitElementCoords(rewriter, loc, l, thread, e)[0];
      if (op.getStart() != 0)
        c = arith::AddIOp::create(rewriter, loc, c,
                                  i32Const(rewriter, loc, op.getStart()));
      result = insertElement(rewriter, loc, result, c, e);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplatLowering : public OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t n = tile::getTotalElemsPerThread(op.getType());
    rewriter.replaceOp(op, splatVector(rewriter, op.getLoc(), adaptor.getSrc(),
                                       n));
    return success();
  }
};

/// For each of `count` result registers, the register of layout `src`
/// holding the coordinate that `target` (the result's layout seen at the
/// source's shape) gives it: the shuffle mask of broadcast and expand_dims.
/// std::nullopt if `src` places lanes or warps differently from `target`
/// or holds a coordinate nowhere in the thread.
std::optional<SmallVector<int32_t>>
sourceRegisters(const tile::LinearLayout &src, const tile::LinearLayout &target,
                int64_t count) {
  using LL = tile::LinearLayout;
  for (auto in : {LL::kLane, LL::kWarp})
    if (llvm::ArrayRef(src.getBases(in)) != target.getBases(in))
      return std::nullopt;
  DenseMap<uint64_t, int64_t> srcRegOf;
  for (int64_t r = src.getNumRegisters(); r-- > 0;)
    srcRegOf[src.flatten(src.applyIn(LL::kRegister, r))] = r;
  SmallVector<int32_t> mask;
  for (int64_t e = 0; e < count; ++e) {
    auto it = srcRegOf.find(target.flatten(target.applyIn(LL::kRegister, e)));
    if (it == srcRegOf.end())
      return std::nullopt;
    mask.push_back(int32_t(it->second));
  }
  return mask;
}

/// Same layout on both sides: the result's register r holds the element
/// of the source register whose coordinate is r's with the stretched
/// dimensions zeroed (the source's lanes and warps must place the
/// unstretched coordinates as the result's do).
struct BroadcastLowering : public OpConversionPattern<tile::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using LL = tile::LinearLayout;
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    LL sl = getLayout(srcType), dl = getLayout(dstType);
    // The result's layout seen at the source's shape.
    LL projected = dl.reshapeModulo(srcType.getShape());
    std::optional<SmallVector<int32_t>> mask =
        sourceRegisters(sl, projected, dl.getNumRegisters());
    if (!mask)
      return rewriter.notifyMatchFailure(
          op, "source and result place lanes or warps differently, or a "
              "result register has no source register");
    Value src = adaptor.getSrc();
    rewriter.replaceOp(op, LLVM::ShuffleVectorOp::create(
                               rewriter, op.getLoc(), src, src, *mask));
    return success();
  }
};

/// The source (a slice of the result's layout) places lanes and warps as
/// the result does; the result's register e takes the source register
/// holding its coordinate (the slice holds each element once, the result
/// may hold copies in several registers).
struct ExpandDimsLowering : public OpConversionPattern<tile::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using LL = tile::LinearLayout;
    LL src = getLayout(op.getSrc().getType());
    LL dst = getLayout(op.getType());
    LL dropped = dst.dropOutDim(op.getAxis());
    std::optional<SmallVector<int32_t>> mask =
        sourceRegisters(src, dropped, dst.getNumRegisters());
    if (!mask)
      return rewriter.notifyMatchFailure(op, "source is not a slice of the "
                                             "result layout");
    Value src0 = adaptor.getSrc();
    bool identity = int64_t(mask->size()) == src.getNumRegisters();
    for (int64_t e = 0; identity && e < int64_t(mask->size()); ++e)
      identity = (*mask)[e] == e;
    if (identity) {
      rewriter.replaceOp(op, src0);
      return success();
    }
    rewriter.replaceOp(op, LLVM::ShuffleVectorOp::create(
                               rewriter, op.getLoc(), src0, src0, *mask));
    return success();
  }
};

/// ptr + sext(offset) * sizeof(pointee), on i64 addresses.
struct AddPtrLowering : public OpConversionPattern<tile::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = tile::getElementTypeOrSelf(
        tile::getPointeeTypeOf(op.getPtr().getType()));
    int64_t bytes = getElementBytes(pointee);
    Value ptr = adaptor.getPtr();
    Value off = adaptor.getOffset();
    Type i64Type = ptr.getType();
    if (off.getType() != i64Type)
      off = arith::ExtSIOp::create(rewriter, loc, i64Type, off);
    if (bytes != 1) {
      TypedAttr scaleAttr =
          isa<VectorType>(i64Type)
              ? TypedAttr(SplatElementsAttr::get(
                    cast<ShapedType>(i64Type),
                    rewriter.getI64IntegerAttr(bytes).getValue()))
              : TypedAttr(rewriter.getI64IntegerAttr(bytes));
      Value scale = arith::ConstantOp::create(rewriter, loc, scaleAttr);
      off = arith::MulIOp::create(rewriter, loc, off, scale);
    }
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, ptr, off);
    return success();
  }
};

/// Splat tensor constants become splat vector constants.
struct ConstantLowering : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (auto f = dyn_cast<FloatAttr>(op.getValue())) {
      // A scalar fp8 constant: its bits as i8.
      Type t = getTypeConverter()->convertType(op.getType());
      if (t == op.getType())
        return rewriter.notifyMatchFailure(op, "legal scalar constant");
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, t, IntegerAttr::get(t, f.getValue().bitcastToAPInt()));
      return success();
    }
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!splat || !isa<RankedTensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a splat tile constant");
    auto type = cast<ShapedType>(getTypeConverter()->convertType(op.getType()));
    Attribute value = splat.getSplatValue<Attribute>();
    // fp8 lives as its bits (i8).
    if (auto f = dyn_cast<FloatAttr>(value);
        f && f.getType() != type.getElementType())
      value = IntegerAttr::get(type.getElementType(),
                               f.getValue().bitcastToAPInt());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, SplatElementsAttr::get(type, value));
    return success();
  }
};

/// Elementwise arith/math ops on tiles: the same op on the thread's vector.
///
/// An integer result that the axis analysis proves constant over aligned
/// blocks (a mask `cols < N` with N a multiple of the thread's run, a row
/// index `offs // BLOCK_N`) is computed once per block: every register
/// takes the value of the first register of its block in the thread
/// (LinearLayout::getMaskWithinBlock), through one shufflevector, so that
/// LLVM deletes the other lanes' instructions and whatever only fed them
/// (the `cols + k` of `tl.where(cols < N, ...)` in a layer norm's variance
/// loop: eight compares and adds become one). Triton computes each lane.
/// Kernels on the tensor cores (`tensorCoreKernels`) keep every lane: ptxas
/// allocated their registers both better (fused attention 174 -> 154) and
/// worse (a GELU-epilogue GEMM's spills 12 -> 76 bytes) with it, and
/// neither was timed (docs/performance.md).
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(const TypeConverter &tc, MLIRContext *ctx,
                      const ModuleAxisInfo &axis,
                      const llvm::StringSet<> &tensorCoreKernels)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        axis(axis), tensorCoreKernels(tensorCoreKernels) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumRegions() != 0 || isa<arith::ConstantOp>(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    Operation *newOp = rewriter.create(state);
    SmallVector<Value> results(newOp->getResults());
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      results[i] = shareConstantBlocks(rewriter, result, results[i]);
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  /// `lowered` (the thread's registers of `result`) with each register
  /// replaced by the first register of its constant block.
  Value shareConstantBlocks(OpBuilder &b, Value result, Value lowered) const {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    auto vecType = dyn_cast<VectorType>(lowered.getType());
    if (!type || !vecType || !type.getElementType().isInteger() ||
        vecType.getRank() != 1)
      return lowered;
    auto kernel =
        result.getDefiningOp()->getParentOfType<FunctionOpInterface>();
    if (!kernel || tensorCoreKernels.contains(kernel.getName()))
      return lowered;
    AxisInfo info = axis.getAxisInfo(result);
    FailureOr<tile::LinearLayout> l = tile::getLinearLayout(type);
    if (info.getRank() != unsigned(type.getRank()) || failed(l))
      return lowered;
    SmallVector<int64_t> block;
    for (unsigned d = 0; d < info.getRank(); ++d)
      block.push_back(int64_t(llvm::bit_floor(
          uint64_t(std::max<int64_t>(1, info.getConstancy(d))))));
    uint64_t within =
        l->getMaskWithinBlock(tile::LinearLayout::kRegister, block);
    int64_t n = vecType.getNumElements();
    if (within == 0 || n != l->getNumRegisters())
      return lowered;
    SmallVector<int32_t> first;
    for (int64_t r = 0; r < n; ++r)
      first.push_back(int32_t(r & ~int64_t(within)));
    return LLVM::ShuffleVectorOp::create(b, lowered.getLoc(), lowered, lowered,
                                         first);
  }

  const ModuleAxisInfo &axis;
  const llvm::StringSet<> &tensorCoreKernels;
};

/// tile.hint is the identity; its facts were read by the axis analysis.
struct HintLowering : public OpConversionPattern<tile::HintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// tile.assume -> llvm.intr.assume.
struct AssumeLowering : public OpConversionPattern<tile::AssumeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AssumeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AssumeOp>(op, adaptor.getCond());
    return success();
  }
};

/// tile.barrier -> gpu.barrier (bar.sync 0 over the CTA).
struct BarrierLowering : public OpConversionPattern<tile::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

class LowerToSIMTPass
    : public tilec::impl::TileLowerToSIMTPassBase<LowerToSIMTPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    if (mlir::failed(checkChipOption(getOperation(), chip)))
      return signalPassFailure();
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkInput(module)))
      return signalPassFailure();
    // Axis facts are read off the tile IR before it is rewritten.
    ModuleAxisInfo axis(module);
    llvm::StringSet<> tensorCoreKernels;
    module.walk([&](tile::FuncOp func) {
      if (func->walk([](Operation *op) {
                return isa<tile::DotOp, tile::WarpGroupDotOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        tensorCoreKernels.insert(func.getName());
    });
    // Warp-specialized kernels launch their producer warps (and any more
    // consumer groups) too.
    DenseMap<StringAttr, unsigned> extraWarps;
    module.walk([&](tile::WarpSpecializeOp ws) {
      auto func = ws->getParentOfType<tile::FuncOp>();
      extraWarps[func.getSymNameAttr()] =
          ws.getConsumerWarps(func.getNumWarps()) - func.getNumWarps() +
          ws.getProducerWarps();
      lowerWarpSpecialize(ws, func.getNumWarps());
    });
    if (failed(moveKernelsToGPUModule(module, extraWarps)))
      return signalPassFailure();

    TileTypeConverter converter(ctx);
    // Copies that store from registers (chunks under 4 bytes): a wgmma
    // reading their buffer needs fence.proxy.async (isWrittenByGenericProxy).
    module.walk([&](tile::AsyncCopyOp copy) {
      if (simt::isNarrowAsyncCopy(copy, converter, axis))
        copy->setAttr(kGenericProxyWriteAttr, UnitAttr::get(ctx));
    });
    ConversionTarget target(*ctx);
    target.addIllegalDialect<tile::TileDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addLegalOp<gpu::GPUModuleOp, gpu::ThreadIdOp, gpu::BlockIdOp,
                      gpu::GridDimOp, gpu::BarrierOp, gpu::ReturnOp,
                      gpu::PrintfOp>();
    target.addDynamicallyLegalOp<gpu::GPUFuncOp>([&](gpu::GPUFuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType());
    });
    // Combiner terminators go away with their reduce.
    target.addLegalOp<tile::ReduceReturnOp, tile::ScanReturnOp>();
    // Operator graphs are host code, kept whole for the backend to
    // describe to the runtime.
    target.addLegalOp<tile::GraphOp>();
    target.markOpRecursivelyLegal<tile::GraphOp>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(ctx);
    patterns.add<ProgramIdLowering, NumProgramsLowering, MakeRangeLowering,
                 SplatLowering, BroadcastLowering, ExpandDimsLowering,
                 AddPtrLowering, simt::ForwardSrcLowering<tile::IntToPtrOp>,
                 simt::ForwardSrcLowering<tile::PtrToIntOp>, ConstantLowering,
                 HintLowering, AssumeLowering, BarrierLowering>(converter, ctx);
    patterns.add<ElementwiseLowering>(converter, ctx, axis, tensorCoreKernels);
    populateMemoryOpToSIMTPatterns(converter, axis, patterns);
    populateLayoutConversionToSIMTPatterns(converter, patterns);
    populateReduceToSIMTPatterns(converter, patterns);
    populateAtomicToSIMTPatterns(converter, patterns);
    populateScanToSIMTPatterns(converter, patterns);
    populateHistogramToSIMTPatterns(converter, patterns);
    populateGatherToSIMTPatterns(converter, patterns);
    populateInlineAsmToSIMTPatterns(converter, patterns);
    populateDebugToSIMTPatterns(converter, patterns);
    populateDotToSIMTPatterns(converter, patterns);
    populateSharedMemoryToSIMTPatterns(converter, axis, patterns);
    populateFloatConversionToSIMTPatterns(converter, target, patterns, chip);
    populateMathToSIMTPatterns(converter, target, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<gpu::GPUFuncOp>(
        patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // A CTA barrier in a partition waits for its own warps: the
    // partition's named barrier (1 + g for consumer group g, then the
    // producer's), PTX ISA 9.7.13.1.
    module.walk([&](gpu::BarrierOp barrier) {
      DenseI32ArrayAttr range = simt::getPartition(barrier);
      if (!range)
        return;
      OpBuilder b(barrier);
      Location loc = barrier.getLoc();
      NVVM::BarrierOp::create(b, loc, Type(),
                              simt::i32Const(b, loc, range[2]),
                              simt::i32Const(b, loc, range[1]), nullptr,
                              Value());
      barrier.erase();
    });
  }

private:
  /// A kernel becomes a PTX `.entry` of its name: the name must be a PTX
  /// identifier (PTX ISA 4.4: a letter followed by letters, digits, `_` or
  /// `$`, or `_`/`$` followed by at least one of them; non-ASCII letters,
  /// which Python allows, are not), and its parameters must fit the 32764
  /// bytes of `.param` space an entry may have (PTX ISA 5.1.6.1, ISA 8.1+
  /// on sm_70+; ptxas enforces it).
  LogicalResult checkKernelSymbol(tile::FuncOp func) {
    StringRef name = func.getName();
    auto isIdChar = [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '$';
    };
    bool valid = !name.empty() && llvm::all_of(name, isIdChar) &&
                 (llvm::isAlpha(name[0]) ||
                  ((name[0] == '_' || name[0] == '$') && name.size() > 1));
    if (!valid) {
      // Control bytes escaped; UTF-8 letters shown as they are.
      std::string shown;
      for (unsigned char c : name)
        shown += (c < 0x20 || c == 0x7f)
                     ? "\\x" + llvm::utohexstr(c, /*LowerCase=*/true, 2)
                     : std::string(1, char(c));
      func.emitError("kernel name '")
          << shown << "' is not a valid PTX identifier "
          << "(expected an ASCII letter followed by letters, digits, '_' or "
             "'$', or '_'/'$' followed by at least one of them); rename the "
             "kernel";
      return failure();
    }
    // Names the runtime and libdevice use: a kernel of that name would
    // collide with them.
    if (name == "tilec_shared" || name.starts_with("__nv_") ||
        name == "WARP_SZ") {
      func.emitError("kernel name '")
          << name << "' is reserved ("
          << (name == "tilec_shared" ? "tilec's shared-memory buffer"
              : name == "WARP_SZ"    ? "a PTX predefined identifier"
                                     : "libdevice's functions")
          << "); rename the kernel";
      return failure();
    }
    // Parameters: scalars and pointers of the types a signature can name
    // (the runtime reads them back from the metadata line).
    auto scalarOk = [](Type t, bool pointee) {
      if (auto i = dyn_cast<IntegerType>(t))
        return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, i.getWidth());
      if (t.isF16() || t.isBF16() || t.isF32() || t.isF64())
        return true;
      return pointee && isa<Float8E4M3FNType, Float8E5M2Type>(t);
    };
    for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
      if (isa<tile::TensorMapType>(t))
        continue; // the verifier checked its place and attribute
      auto p = dyn_cast<tile::PtrType>(t);
      if (p ? scalarOk(p.getPointeeType(), true) : scalarOk(t, false))
        continue;
      func.emitError("parameter ")
          << i << " of kernel '" << name << "' has type " << t
          << "; expected i1, i8, i16, i32, i64, f16, bf16, f32 or f64, or a "
             "!tile.ptr to one of them or to f8E4M3FN / f8E5M2";
      return failure();
    }
    int64_t bytes = 0;
    for (Type t : func.getArgumentTypes()) {
      if (isa<tile::TensorMapType>(t)) {
        bytes = llvm::alignTo(bytes, 64) + 128; // .align 64 .b8 [128]
        continue;
      }
      int64_t size = isa<tile::PtrType>(t) ? 8
                     : t.isIntOrFloat()
                         ? std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8)
                         : 8;
      bytes = llvm::alignTo(bytes, size) + size;
    }
    constexpr int64_t kMaxParamBytes = 32764;
    if (bytes > kMaxParamBytes) {
      func.emitError("kernel '")
          << name << "' takes " << bytes << " bytes of parameters ("
          << func.getNumArguments() << " arguments), more than the "
          << kMaxParamBytes << " bytes a PTX entry may have";
      return failure();
    }
    return success();
  }

  /// Every tile must carry an encoding this lowering understands, every
  /// call must have been inlined, and no op may be one this lowering does
  /// not implement yet (scan, dot, trans, atomics, descriptors).
  LogicalResult checkInput(ModuleOp module) {
    // Kernels are the file's top-level functions (one PTX module).
    bool nested = false;
    module.walk([&](tile::FuncOp func) {
      if (func->getParentOp() == module.getOperation())
        return;
      InFlightDiagnostic d = func.emitError(
          "expected tile.func at the top level of the file, found it inside ");
      if (auto inner = func->getParentOfType<ModuleOp>();
          inner && inner.getName())
        d << "module @" << *inner.getName();
      else
        d << "'" << func->getParentOp()->getName() << "'";
      nested = true;
    });
    if (nested)
      return failure();
    // Valid tile ops without a SIMT lowering yet: one error per op.
    bool unimplemented = false;
    module.walk([&](tile::DotOp op) {
      auto d = cast<RankedTensorType>(op.getD().getType());
      auto isOperand = [&](Value v, unsigned idx) {
        auto enc = dyn_cast_or_null<tile::DotOperandEncodingAttr>(
            cast<RankedTensorType>(v.getType()).getEncoding());
        return enc && enc.getOpIdx() == idx &&
               enc.getParent() == d.getEncoding();
      };
      if (!isOperand(op.getA(), 0) || !isOperand(op.getB(), 1) ||
          cast<RankedTensorType>(op.getC().getType()).getEncoding() !=
              d.getEncoding() ||
          !isa_and_nonnull<tile::MmaEncodingAttr, tile::BlockedEncodingAttr>(
              d.getEncoding())) {
        op.emitError("expected tile.dot operands with #tile.dot_operand "
                     "encodings of the result's (run tile-accelerate-dot "
                     "first), found ")
            << op.getA().getType() << " and " << op.getB().getType();
        unimplemented = true;
        return;
      }
      // What tile-accelerate-dot produces always passes; explicit
      // encodings in a .mlir input may ask for what no instruction does.
      Type a = tile::getElementTypeOrSelf(op.getA().getType());
      Type b = tile::getElementTypeOrSelf(op.getB().getType());
      Type c = d.getElementType();
      if (isa<tile::MmaEncodingAttr>(d.getEncoding()) &&
          !mmaV2Computes(a, b, c, op.getInputPrecision(), chip)) {
        op.emitError("unimplemented: mma.sync has no form for ")
            << a << " x " << b << " + " << c << " (input_precision "
            << op.getInputPrecision() << ") on " << chip
            << "; expected f16 into f16/f32, bf16 into f32, f32 as tf32, "
               "i8 into i32, or fp8 into f32 on sm_89+";
        unimplemented = true;
      } else if (isa<tile::BlockedEncodingAttr>(d.getEncoding()) &&
                 (isa<Float8E4M3FNType, Float8E5M2Type>(a) ||
                  isa<Float8E4M3FNType, Float8E5M2Type>(b))) {
        op.emitError("unimplemented: an FMA tile.dot (blocked result) does "
                     "not read fp8 operands; extend them to f16 first (as "
                     "tile-accelerate-dot does)");
        unimplemented = true;
      }
    });
    module.walk([&](Operation *op) {
      if (isa<tile::AsyncTMALoadOp, tile::AsyncTMAStoreOp>(op) &&
          getTarget(chip).computeCapability < 90) {
        op->emitError("unimplemented: TMA copies need sm_90 or newer, found "
                      "--arch ")
            << chip;
        unimplemented = true;
      }
      if (isa<tile::MakeTensorDescOp, tile::DescLoadOp, tile::DescStoreOp>(
              op)) {
        op->emitError("unimplemented: '")
            << op->getName() << "' is not lowered to PTX yet";
        unimplemented = true;
      }
    });
    // Per kernel: encodings must use the kernel's warps; fragments must stay
    // small enough to unroll (tilec emits one value per element per thread);
    // fp8 only moves and converts (sm_89+); bf16 atomic add needs sm_90.
    const TargetInfo &target = getTarget(chip);
    module.walk([&](tile::FuncOp func) {
      if (func.isPublic() && failed(checkKernelSymbol(func)))
        unimplemented = true;
      unsigned warps = func.getNumWarps();
      // One error per kernel and kind: the first op that shows it.
      bool warpsReported = false, sizeReported = false;
      // Constants the canonicalizer hoisted or merged may have lost their
      // location: report them at a user's (else the kernel's).
      auto locatedAt = [&](Operation *op) -> Location {
        if (!isa<UnknownLoc>(op->getLoc()))
          return op->getLoc();
        for (Operation *user : op->getUsers())
          if (!isa<UnknownLoc>(user->getLoc()))
            return user->getLoc();
        return func.getLoc();
      };
      func.walk([&](Operation *op) {
        for (Type t : op->getResultTypes()) {
          auto tensor = dyn_cast<RankedTensorType>(t);
          if (!tensor)
            continue;
          FailureOr<tile::LinearLayout> l = tile::getLinearLayout(tensor);
          if (failed(l))
            continue; // reported below
          unsigned encWarps = tile::getEncodingNumWarps(tensor.getEncoding());
          if (encWarps != warps && !warpsReported) {
            emitError(locatedAt(op), "expected encodings over the kernel's ")
                << warps << " warps (tile.num_warps), found warpsPerCTA with "
                << encWarps << " in " << tensor;
            unimplemented = warpsReported = true;
          }
          if (l->getNumRegisters() > 1024 && !sizeReported) {
            emitError(locatedAt(op), "unimplemented: ")
                << tensor << " needs " << l->getNumRegisters()
                << " elements per thread (more than 1024); use more warps or "
                   "a smaller tile";
            unimplemented = sizeReported = true;
          }
        }
        // fp8 values may be loaded, stored, converted and moved, but not
        // computed with; conversions need sm_89's cvt forms.
        bool fp8 = llvm::any_of(op->getOperandTypes(), [](Type t) {
          return isa<Float8E4M3FNType, Float8E5M2Type>(
              tile::getElementTypeOrSelf(t));
        }) || llvm::any_of(op->getResultTypes(), [](Type t) {
          return isa<Float8E4M3FNType, Float8E5M2Type>(
              tile::getElementTypeOrSelf(t));
        });
        if (fp8 && isa<arith::TruncFOp>(op) && !target.hasFp8()) {
          op->emitError("unimplemented: conversions to fp8 need sm_89 or "
                        "newer (cvt.rn.satfinite.e4m3x2/e5m2x2), found --arch ")
              << chip;
          unimplemented = true;
        } else if (fp8 && (isa<arith::ArithDialect, math::MathDialect>(
                               op->getDialect()) &&
                           !isFp8Conversion(op) &&
                           !isa<arith::ConstantOp, arith::SelectOp,
                                arith::BitcastOp>(op))) {
          op->emitError("unimplemented: arithmetic on fp8 values (")
              << op->getName() << "); convert them to fp16 or fp32 first";
          unimplemented = true;
        }
        // atom.add.noftz.bf16 is sm_90+ (PTX ISA 9.7.13.5).
        if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op);
            rmw && rmw.getKind() == tile::RMWKind::FAdd &&
            tile::getElementTypeOrSelf(rmw.getVal().getType()).isBF16() &&
            !target.hasBf16AtomicAdd()) {
          op->emitError("unimplemented: bf16 atomic_add needs sm_90 or newer "
                        "(atom.add.bf16), found --arch ")
              << chip;
          unimplemented = true;
        }
      });
    });
    if (unimplemented)
      return failure();
    WalkResult r = module.walk([&](Operation *op) {
      if (auto c = dyn_cast<arith::ConstantOp>(op))
        if (isa<RankedTensorType>(c.getType()) &&
            !isa<SplatElementsAttr>(c.getValue())) {
          op->emitError("unimplemented: a tile constant with different "
                        "elements; build it from tile.make_range and "
                        "arithmetic, or load it from memory");
          return WalkResult::interrupt();
        }
      if (isa<tile::CallOp>(op)) {
        op->emitError("unimplemented: a tile.call that was not inlined "
                      "(recursive, or the inliner did not run); device "
                      "functions must be inlinable into kernels");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (r.wasInterrupted() || failed(checkTilesHaveLayouts(module)))
      return failure();
    // Every user of shared memory has its bytes from tile-allocate-shared.
    WalkResult allocated = module.walk([&](Operation *op) {
      if ((isa<tile::LocalAllocOp>(op) || getScratchBytes(op) > 0) &&
          !op->hasAttr(tile::TileDialect::getSharedOffsetAttrName())) {
        op->emitError("expected a shared-memory offset (")
            << tile::TileDialect::getSharedOffsetAttrName()
            << "; run tile-allocate-shared first)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(allocated.wasInterrupted());
  }

  /// tile.warp_specialize -> one if/else on the warpgroup, as setmaxnreg
  /// needs (each warpgroup's role one branch): threads [0, 32 * numWarps *
  /// groups) raise their registers and run the consumer regions, group g
  /// on threads [32 * numWarps * g, 32 * numWarps * (g + 1)); the producer
  /// warpgroup lowers its registers, and its first warp runs the producer
  /// region. Each region's if is marked with the thread range it runs on
  /// and its named barrier (simt::kPartitionAttr), for thread and warp
  /// indices, one-thread operations and barriers.
  static void lowerWarpSpecialize(tile::WarpSpecializeOp ws,
                                  unsigned numWarps) {
    OpBuilder b(ws);
    Location loc = ws.getLoc();
    int32_t group = int32_t(numWarps) * 32;
    SmallVector<Region *> groups = ws.getConsumerGroups();
    int32_t consumers = group * int32_t(groups.size());
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    tid = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), tid);
    Value isConsumer =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                              simt::i32Const(b, loc, consumers));
    auto roles = scf::IfOp::create(b, loc, isConsumer, /*withElse=*/true);
    auto moveInto = [](Block &from, Block *to) {
      to->getOperations().splice(to->getTerminator()->getIterator(),
                                 from.getOperations());
    };
    OpBuilder tb = roles.getThenBodyBuilder();
    NVVM::SetMaxRegisterOp::create(tb, loc, ws.getConsumerRegs(),
                                   NVVM::SetMaxRegisterAction::increase);
    for (auto [g, region] : llvm::enumerate(groups)) {
      // (One group: all the consumer threads.)
      Value mine = arith::ConstantIntOp::create(tb, loc, 1, 1);
      if (groups.size() > 1) {
        int32_t first = group * int32_t(g);
        mine = arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::ult, tid,
                                     simt::i32Const(tb, loc, first + group));
        if (g > 0)
          mine = arith::AndIOp::create(
              tb, loc, mine,
              arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::uge, tid,
                                    simt::i32Const(tb, loc, first)));
      }
      auto consumer = scf::IfOp::create(tb, loc, mine, false);
      consumer->setAttr(simt::kPartitionAttr,
                        tb.getDenseI32ArrayAttr(
                            {group * int32_t(g), group, 1 + int32_t(g)}));
      moveInto(region->front(), consumer.thenBlock());
    }
    OpBuilder eb = roles.getElseBodyBuilder();
    NVVM::SetMaxRegisterOp::create(eb, loc, ws.getProducerRegs(),
                                   NVVM::SetMaxRegisterAction::decrease);
    Value firstWarp =
        arith::CmpIOp::create(eb, loc, arith::CmpIPredicate::ult, tid,
                              simt::i32Const(eb, loc, consumers + 32));
    auto producer = scf::IfOp::create(eb, loc, firstWarp, false);
    producer->setAttr(simt::kPartitionAttr,
                      eb.getDenseI32ArrayAttr(
                          {consumers, 32, 1 + int32_t(groups.size())}));
    moveInto(ws.getProducer().front(), producer.thenBlock());
    ws.erase();
  }

  /// tile.func kernels -> gpu.func kernels in `gpu.module @tilec_kernels`,
  /// with the shared memory they need recorded as `tile.shared`; a kernel
  /// in `extraWarps` (warp-specialized: its producer warpgroup and any
  /// more consumer groups) launches that many warps more than its num_warps,
  /// and is compiled for one CTA per multiprocessor (setmaxnreg moves
  /// registers within the CTA's launch allocation).
  LogicalResult
  moveKernelsToGPUModule(ModuleOp module,
                         const DenseMap<StringAttr, unsigned> &extraWarps) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3,
                                            /*triple=*/"nvptx64-nvidia-cuda",
                                            chip,
                                            getTarget(chip).ptxFeature());
    auto gpuModule = gpu::GPUModuleOp::create(b, module.getLoc(),
                                              "tilec_kernels",
                                              b.getArrayAttr({target}));
    // Graphs launch the kernels where they now are.
    module.walk([&](tile::LaunchOp launch) {
      if (!launch.getKernelAttr().getNestedReferences().empty())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          gpuModule.getNameAttr(),
          {FlatSymbolRefAttr::get(launch.getKernelAttr().getRootReference())}));
    });
    b.setInsertionPointToStart(gpuModule.getBody());
    auto i8 = b.getI8Type();
    LLVM::GlobalOp::create(b, module.getLoc(), LLVM::LLVMArrayType::get(i8, 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           kSharedMemoryName, Attribute(), /*alignment=*/1024,
                           /*addrSpace=*/3);

    for (auto func : llvm::make_early_inc_range(module.getOps<tile::FuncOp>())) {
      if (!func.isKernel()) {
        func.erase();
        continue;
      }
      // Dynamic shared memory, as tile-allocate-shared laid it out.
      int64_t shared = 0;
      if (auto a = func->getAttrOfType<IntegerAttr>(
              tile::TileDialect::getSharedBytesAttrName()))
        shared = a.getInt();
      unsigned warps =
          func.getNumWarps() + extraWarps.lookup(func.getSymNameAttr());
      b.setInsertionPointToEnd(gpuModule.getBody());
      auto gpuFunc = gpu::GPUFuncOp::create(b, func.getLoc(), func.getName(),
                                            func.getFunctionType());
      gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                       b.getUnitAttr());
      gpuFunc.setKnownBlockSizeAttr(
          b.getDenseI32ArrayAttr({int32_t(warps * 32), 1, 1}));
      for (NamedAttribute a : func->getDiscardableAttrs())
        gpuFunc->setAttr(a.getName(), a.getValue());
      gpuFunc->setAttr(tile::TileDialect::getSharedBytesAttrName(),
                       b.getI32IntegerAttr(shared));
      gpuFunc->setAttr(tile::TileDialect::getNumWarpsAttrName(),
                       b.getI32IntegerAttr(warps));
      if (extraWarps.count(func.getSymNameAttr()))
        gpuFunc->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                         b.getI32IntegerAttr(1));
      // The register limit (Triton's maxnreg): the kernel's own, else the
      // option's.
      int64_t maxNRegs = maxNReg;
      if (auto a = func->getAttrOfType<IntegerAttr>(
              tile::TileDialect::getMaxNRegAttrName()))
        maxNRegs = a.getInt();
      gpuFunc->removeAttr(tile::TileDialect::getMaxNRegAttrName());
      if (maxNRegs != 0) {
        if (maxNRegs < 16 || maxNRegs > 255)
          return emitError(func.getLoc())
                 << "expected maxnreg (registers per thread) in [16, 255], "
                    "found "
                 << maxNRegs;
        if (extraWarps.count(func.getSymNameAttr()))
          return emitError(func.getLoc())
                 << "maxnreg cannot limit a warp-specialized kernel: its "
                    "warp groups set their registers with setmaxnreg";
        gpuFunc->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                         b.getI32IntegerAttr(int32_t(maxNRegs)));
      }
      // Specialization facts travel as the kernel's signature string; TMA
      // descriptors as "tile.tma" (the runtime encodes them) and the
      // parameters they take (grid constants, PTXBackend).
      FailureOr<std::string> signature = getSignature(func);
      if (failed(signature))
        return failure();
      gpuFunc->setAttr("tile.signature", b.getStringAttr(*signature));
      SmallVector<int32_t> maps;
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (isa<tile::TensorMapType>(func.getArgumentTypes()[i]))
          maps.push_back(int32_t(i));
      if (!maps.empty()) {
        if (std::string tma = getTMAInfo(func); !tma.empty())
          gpuFunc->setAttr("tile.tma", b.getStringAttr(tma));
        if (std::string launch = getLaunchMapsInfo(func); !launch.empty())
          gpuFunc->setAttr("tile.launch_maps", b.getStringAttr(launch));
        gpuFunc->setAttr("tile.tensormap_args", b.getDenseI32ArrayAttr(maps));
      }
      gpuFunc.getBody().front().erase();
      gpuFunc.getBody().takeBody(func.getBody());
      gpuFunc.walk([&](tile::ReturnOp ret) {
        OpBuilder rb(ret);
        gpu::ReturnOp::create(rb, ret.getLoc());
        ret.erase();
      });
      func.erase();
    }
    return success();
  }

public:
  /// Triton's AOT signature syntax: `*fp32:16,i32,i32:1`; `tile.unsigned`
  /// arguments are `u32`, `*u8`; the 2 * rank arguments of a host-side
  /// tensor descriptor (`tile.tensordesc`) are one `tensordesc<fp16[64,64]>`.
  /// The tensor maps of the kernel's host-side descriptors, for the
  /// metadata line: `P:R0xR1:SW[:nan]` per map, `;`-separated, where P
  /// is the descriptor's index in the signature, R the box (outermost
  /// dimension first) and SW the swizzle in bytes.
  static std::string getTMAInfo(tile::FuncOp func) {
    std::string info;
    unsigned param = 0;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      Type t = func.getArgumentTypes()[i];
      if (auto desc = func.getArgAttrOfType<TypeAttr>(
              i, tile::TileDialect::getTensorDescAttrName())) {
        unsigned rank = cast<RankedTensorType>(desc.getValue()).getRank();
        unsigned m = i + 2 * rank;
        if (m < func.getNumArguments() &&
            isa<tile::TensorMapType>(func.getArgumentTypes()[m]) &&
            !func.getArgAttr(m, tile::TileDialect::getTMASourceAttrName())) {
          auto tma = func.getArgAttrOfType<DictionaryAttr>(
              m, tile::TileDialect::getTMAAttrName());
          auto box = tma.getAs<DenseI64ArrayAttr>("box");
          if (!info.empty())
            info += ";";
          info += std::to_string(param) + ":";
          for (auto [k, b] : llvm::enumerate(box.asArrayRef()))
            info += (k ? "x" : "") + std::to_string(b);
          info += ":" + std::to_string(tma.getAs<IntegerAttr>("swizzle").getInt());
          if (tma.get("nan_fill"))
            info += ":nan";
        }
        i += 2 * rank - 1;
        ++param;
        continue;
      }
      if (!isa<tile::TensorMapType>(t))
        ++param;
    }
    return info;
  }

  /// The tensor maps the launch encodes from scalar arguments (launch
  /// maps, `tile.tma_source`), for the metadata line:
  /// `T:R0xR1:SW:P:S0,S1:T0[:nan]` per map, `;`-separated -- element type,
  /// box, swizzle, the base's signature entry, the sizes and the strides
  /// but the last as postfix expressions (docs/runtime.md).
  static std::string getLaunchMapsInfo(tile::FuncOp func) {
    std::string info;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto source = func.getArgAttrOfType<DictionaryAttr>(
          i, tile::TileDialect::getTMASourceAttrName());
      if (!source)
        continue;
      auto tma = func.getArgAttrOfType<DictionaryAttr>(
          i, tile::TileDialect::getTMAAttrName());
      auto join = [](ArrayAttr list) {
        std::string text;
        for (auto [k, e] : llvm::enumerate(list))
          text += (k ? "," : "") + cast<StringAttr>(e).str();
        return text;
      };
      if (!info.empty())
        info += ";";
      // The element type as the base pointer's signature entry spells it.
      unsigned baseArg = func.getSignatureArguments()[source.getAs<IntegerAttr>(
          "base").getInt()];
      bool isUnsigned =
          func.getArgAttr(baseArg, tile::TileDialect::getUnsignedAttrName()) !=
          nullptr;
      info += getTypeName(source.getAs<TypeAttr>("element").getValue(),
                          isUnsigned) + ":";
      for (auto [k, b] :
           llvm::enumerate(tma.getAs<DenseI64ArrayAttr>("box").asArrayRef()))
        info += (k ? "x" : "") + std::to_string(b);
      info += ":" + std::to_string(tma.getAs<IntegerAttr>("swizzle").getInt());
      info += ":" + std::to_string(source.getAs<IntegerAttr>("base").getInt());
      info += ":" + join(source.getAs<ArrayAttr>("shape"));
      info += ":" + join(source.getAs<ArrayAttr>("strides"));
      if (tma.get("nan_fill"))
        info += ":nan";
    }
    return info;
  }

  /// A scalar type's name in the signature syntax ("fp16", "i32", "u8").
  static std::string getTypeName(Type t, bool isUnsigned) {
    if (StringRef f = tile::getFloatTypeName(t); !f.empty())
      return f.str();
    if (auto i = dyn_cast<IntegerType>(t))
      return (isUnsigned || i.isUnsigned() ? "u" : "i") +
             std::to_string(i.getWidth());
    return "?";
  }

  /// The kernel's signature in the runtime's syntax (tilec::Signature, the
  /// one printer of it), or failure for a parameter type it cannot name.
  static FailureOr<std::string> getSignature(tile::FuncOp func) {
    tilec::Signature sig;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      Type t = func.getArgumentTypes()[i];
      if (isa<tile::TensorMapType>(t))
        continue; // implied by its descriptor (and the tma= field)
      bool isUnsigned =
          func.getArgAttr(i, tile::TileDialect::getUnsignedAttrName()) !=
          nullptr;
      tilec::ParamType p;
      auto setType = [&](Type elem) {
        return tilec::parseScalarType(getTypeName(elem, isUnsigned), p.type);
      };
      if (auto desc = func.getArgAttrOfType<TypeAttr>(
              i, tile::TileDialect::getTensorDescAttrName())) {
        auto block = cast<RankedTensorType>(desc.getValue());
        if (!setType(block.getElementType()))
          return func.emitOpError("descriptor parameter ")
                 << i << " has element type " << block.getElementType()
                 << ", which a signature cannot name";
        p.isTensorDesc = true;
        p.block.assign(block.getShape().begin(), block.getShape().end());
        sig.params.push_back(p);
        i += 2 * block.getRank() - 1;
        continue;
      }
      auto ptr = dyn_cast<tile::PtrType>(t);
      p.isPointer = bool(ptr);
      if (!setType(ptr ? ptr.getPointeeType() : t))
        return func.emitOpError("parameter ")
               << i << " has type " << t << ", which a signature cannot name";
      if (auto eq = func.getArgAttrOfType<IntegerAttr>(
              i, tile::TileDialect::getEqualToAttrName());
          eq && eq.getInt() == 1)
        p.equalToOne = true;
      else if (auto div = func.getArgAttrOfType<IntegerAttr>(
                   i, tile::TileDialect::getDivisibilityAttrName());
               div && div.getInt() > 1)
        p.divisibility = uint64_t(div.getInt());
      sig.params.push_back(p);
    }
    return sig.str();
  }
};

} // namespace
