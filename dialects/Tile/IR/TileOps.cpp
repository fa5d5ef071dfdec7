//===- TileOps.cpp - tile dialect operations --------------------*- C++ -*-===//
//
// Verifiers, folders and custom syntax of the tile operations. Verifier
// messages say what was expected and what was found.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.cpp.inc"

namespace {
std::string shapeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto tensor = dyn_cast<RankedTensorType>(t)) {
    os << "[";
    llvm::interleaveComma(tensor.getShape(), os);
    os << "]";
  } else {
    os << "scalar";
  }
  return s;
}
} // namespace

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

unsigned FuncOp::getNumWarps(unsigned fallback) {
  if (auto a = (*this)->getAttrOfType<IntegerAttr>(
          TileDialect::getNumWarpsAttrName()))
    return a.getInt();
  return fallback;
}

LogicalResult FuncOp::verify() {
  if (isKernel() && getFunctionType().getNumResults() != 0)
    return emitOpError("expected a kernel (public tile.func) to return "
                       "nothing, found ")
           << getFunctionType().getNumResults() << " results";
  for (StringRef name : {TileDialect::getNumWarpsAttrName(),
                         TileDialect::getNumStagesAttrName()}) {
    Attribute a = (*this)->getAttr(name);
    if (!a)
      continue;
    auto i = dyn_cast<IntegerAttr>(a);
    if (!i || i.getInt() < 1 ||
        (name == TileDialect::getNumWarpsAttrName() &&
         (i.getInt() > 32 || !llvm::isPowerOf2_64(i.getInt()))))
      return emitOpError("expected ")
             << name
             << (name == TileDialect::getNumWarpsAttrName()
                     ? " to be a power of two in [1, 32]"
                     : " to be a positive integer")
             << ", found " << a;
  }
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i) {
    Type t = getArgumentTypes()[i];
    if (auto a = getArgAttr(i, TileDialect::getDivisibilityAttrName())) {
      auto v = dyn_cast<IntegerAttr>(a);
      if (!v || v.getInt() < 1 || !llvm::isPowerOf2_64(v.getInt()))
        return emitOpError("expected ")
               << TileDialect::getDivisibilityAttrName() << " of argument "
               << i << " to be a power of two, found " << a;
      if (!isa<PtrType, IntegerType>(t))
        return emitOpError("expected ")
               << TileDialect::getDivisibilityAttrName() << " on argument "
               << i << " of pointer or integer type, found " << t;
    }
    if (auto a = getArgAttr(i, TileDialect::getEqualToAttrName())) {
      if (!isa<IntegerAttr>(a) || !isa<IntegerType>(t))
        return emitOpError("expected ")
               << TileDialect::getEqualToAttrName()
               << " to be an integer on an integer argument, found " << a
               << " on argument " << i << " of type " << t;
    }
    if (isKernel() && !isa<PtrType, IntegerType, FloatType>(t))
      return emitOpError("expected kernel argument ")
             << i << " to be a scalar or pointer, found " << t;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp and CallOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  auto func = (*this)->getParentOfType<FuncOp>();
  ArrayRef<Type> results = func.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError("expected ")
           << results.size() << " values to match the function's results, found "
           << getNumOperands();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperandTypes(), results)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("expected result ")
             << i << " of type " << std::get<1>(pair) << ", found "
             << std::get<0>(pair);
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("expected '")
           << getCallee() << "' to be a tile.func in this module";
  FunctionType type = callee.getFunctionType();
  if (type != getCalleeType())
    return emitOpError("expected the callee's type ")
           << type << ", found " << getCalleeType();
  return success();
}

//===----------------------------------------------------------------------===//
// Index ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError("expected axis 0, 1 or 2, found ") << axis;
  return success();
}

LogicalResult ProgramIdOp::verify() { return verifyAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() { return verifyAxis(*this, getAxis()); }

LogicalResult MakeRangeOp::verify() {
  auto type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError("expected a 1-D result, found rank ") << type.getRank();
  if (getEnd() <= getStart())
    return emitOpError("expected end > start, found start = ")
           << getStart() << ", end = " << getEnd();
  if (type.getDimSize(0) != int64_t(getEnd()) - getStart())
    return emitOpError("expected ")
           << int64_t(getEnd()) - getStart()
           << " elements (end - start), found " << type.getDimSize(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  auto type = cast<RankedTensorType>(getResult().getType());
  if (type.getElementType() != getSrc().getType())
    return emitOpError("expected result element type ")
           << getSrc().getType() << ", found " << type.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("expected result element type ")
           << src.getElementType() << ", found " << dst.getElementType();
  if (src.getRank() != dst.getRank())
    return emitOpError("expected source and result of one rank, found ")
           << src.getRank() << " and " << dst.getRank()
           << " (use tile.expand_dims to add dimensions)";
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getDimSize(d) != 1 && src.getDimSize(d) != dst.getDimSize(d))
      return emitOpError("expected source dimension ")
             << d << " to be 1 or " << dst.getDimSize(d) << ", found "
             << src.getDimSize(d);
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  return {};
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("expected axis in [0, ")
           << src.getRank() << "], found " << axis;
  SmallVector<int64_t> expect(src.getShape());
  expect.insert(expect.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expect) ||
      src.getElementType() != dst.getElementType())
    return emitOpError("expected result ")
           << RankedTensorType::get(expect, src.getElementType())
           << ", found " << RankedTensorType::get(dst.getShape(),
                                                   dst.getElementType());
  if (src.getEncoding() && dst.getEncoding()) {
    auto slice = dyn_cast<SliceEncodingAttr>(src.getEncoding());
    if (!slice || slice.getDim() != unsigned(axis) ||
        slice.getParent() != dst.getEncoding())
      return emitOpError("expected the source encoding to be #tile.slice<{dim "
                         "= ")
             << axis << ", parent = " << dst.getEncoding() << "}>, found "
             << src.getEncoding();
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError("expected result element type ")
           << src.getElementType() << ", found " << dst.getElementType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("expected ")
           << src.getNumElements() << " elements in the result, found "
           << dst.getNumElements();
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  return {};
}

namespace {
/// convert_layout(convert_layout(x)) -> convert_layout(x).
struct FoldConvertChain : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!inner)
      return failure();
    if (inner.getSrc().getType() == op.getType()) {
      rewriter.replaceOp(op, inner.getSrc());
      return success();
    }
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                 inner.getSrc());
    return success();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldConvertChain>(context);
}

//===----------------------------------------------------------------------===//
// Memory ops
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type p = getPtr().getType(), o = getOffset().getType();
  if (isa<RankedTensorType>(p) != isa<RankedTensorType>(o) ||
      (isa<RankedTensorType>(p) &&
       cast<RankedTensorType>(p).getShape() !=
           cast<RankedTensorType>(o).getShape()))
    return emitOpError("expected offset shape ")
           << shapeStr(p) << " to match the pointer, found " << shapeStr(o);
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  return {};
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("expected a mask with `other`, found none");
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}
