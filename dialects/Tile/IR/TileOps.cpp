//===- TileOps.cpp - tile dialect operations --------------------*- C++ -*-===//
//
// Verifiers, folders and custom syntax of the tile operations. Verifier
// messages say what was expected and what was found.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/TileOps.h"
#include "llvm/ADT/StringSwitch.h"
#include "dialects/Tile/IR/Layouts.h"

#include <array>
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

SmallVector<unsigned> FuncOp::getSignatureArguments() {
  SmallVector<unsigned> entries;
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i) {
    if (isa<TensorMapType>(getArgumentTypes()[i]))
      continue;
    entries.push_back(i);
    if (auto desc = getArgAttrOfType<TypeAttr>(
            i, TileDialect::getTensorDescAttrName()))
      if (auto block = dyn_cast<RankedTensorType>(desc.getValue()))
        i += 2 * block.getRank() - 1;
  }
  return entries;
}

/// Whether `text` is a launch map's postfix expression (docs/runtime.md)
/// over `func`'s signature `entries`: `aN` (a 32- or 64-bit integer
/// entry), `cV`, the operations, leaving one value. (Operand widths are the
/// runtime's parser's to check.)
static bool isLaunchExpression(StringRef text, FuncOp func,
                               ArrayRef<unsigned> entries) {
  int64_t depth = 0;
  SmallVector<StringRef> tokens;
  text.split(tokens, '.');
  for (StringRef t : tokens) {
    // An operation (its arity), or an argument or a constant.
    int arity = llvm::StringSwitch<int>(t)
                    .Cases({"sext", "zext", "trunc"}, 1)
                    .Cases({"add32", "sub32", "mul32", "max32", "add64",
                            "sub64", "mul64", "max64"},
                           2)
                    .Default(0);
    if (arity) {
      if (depth < arity)
        return false;
      depth -= arity - 1;
      continue;
    }
    unsigned n = 0;
    int64_t c = 0;
    if (t.consume_front("a")) {
      if (t.getAsInteger(10, n) || n >= entries.size())
        return false;
      Type type = func.getArgumentTypes()[entries[n]];
      if (!(type.isInteger(32) || type.isInteger(64)) ||
          func.getArgAttr(entries[n], TileDialect::getTensorDescAttrName()))
        return false;
    } else if (!t.consume_front("c") || t.getAsInteger(10, c)) {
      return false;
    }
    ++depth;
  }
  return depth == 1;
}

/// A launch map's `tile.tma_source` on argument `i` of `func` (see
/// TileBase.td): after every other argument; a scalar element type; the
/// base a pointer entry of the signature; a size per box dimension and a
/// stride for each but the last, as strings (the runtime parses the
/// expressions). Sets `element`.
static LogicalResult verifyLaunchMap(FuncOp func, unsigned i,
                                     DictionaryAttr source, Type &element) {
  auto fail = [&]() {
    return func.emitOpError("expected the launch map argument ")
           << i << " to come after every other argument and carry "
           << TileDialect::getTMASourceAttrName()
           << " = {element = <the base's pointee type>, base = <signature "
              "entry of a pointer> : i32, shape = [<expression>, ...], "
              "strides = [<expression>, ...]} (one stride fewer than sizes; "
              "postfix expressions of integer entries, docs/runtime.md)";
  };
  for (unsigned j = i + 1; j < func.getNumArguments(); ++j)
    if (!isa<TensorMapType>(func.getArgumentTypes()[j]))
      return fail();
  auto elem = source.getAs<TypeAttr>("element");
  auto base = source.getAs<IntegerAttr>("base");
  auto shape = source.getAs<ArrayAttr>("shape");
  auto strides = source.getAs<ArrayAttr>("strides");
  if (!elem || !base || !shape || !strides || shape.empty() ||
      strides.size() + 1 != shape.size() ||
      !llvm::all_of(shape, llvm::IsaPred<StringAttr>) ||
      !llvm::all_of(strides, llvm::IsaPred<StringAttr>) ||
      !(isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
            Float8E4M3FNType, Float8E5M2Type>(elem.getValue()) ||
        llvm::any_of(ArrayRef<unsigned>{8, 16, 32, 64}, [&](unsigned w) {
          return elem.getValue().isInteger(w);
        })))
    return fail();
  SmallVector<unsigned> entries = func.getSignatureArguments();
  if (base.getInt() < 0 || uint64_t(base.getInt()) >= entries.size())
    return fail();
  unsigned baseArg = entries[base.getInt()];
  auto ptr = dyn_cast<PtrType>(func.getArgumentTypes()[baseArg]);
  if (!ptr || ptr.getPointeeType() != elem.getValue() ||
      func.getArgAttr(baseArg, TileDialect::getTensorDescAttrName()))
    return fail();
  for (ArrayAttr list : {shape, strides})
    for (Attribute e : list)
      if (!isLaunchExpression(cast<StringAttr>(e).getValue(), func, entries))
        return fail();
  element = elem.getValue();
  return success();
}

/// int_to_ptr / ptr_to_int: an i64 operand or result of the other's shape
/// and encoding.
static LogicalResult verifyAddressCast(Operation *op, Type intType,
                                       Type ptrType) {
  auto intTensor = dyn_cast<RankedTensorType>(intType);
  auto ptrTensor = dyn_cast<RankedTensorType>(ptrType);
  bool sameShape =
      bool(intTensor) == bool(ptrTensor) &&
      (!intTensor || (intTensor.getShape() == ptrTensor.getShape() &&
                      intTensor.getEncoding() == ptrTensor.getEncoding()));
  Type intElem = intTensor ? intTensor.getElementType() : intType;
  if (!intElem.isInteger(64) || !sameShape)
    return op->emitOpError("expected i64 values of the pointers' shape and "
                           "encoding, found ")
           << intType << " for " << ptrType;
  return success();
}

LogicalResult IntToPtrOp::verify() {
  return verifyAddressCast(*this, getSrc().getType(), getType());
}

LogicalResult PtrToIntOp::verify() {
  return verifyAddressCast(*this, getType(), getSrc().getType());
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
      if (!isa<PtrType, IntegerType>(t) || t.isInteger(1))
        return emitOpError("expected ")
               << TileDialect::getDivisibilityAttrName() << " on argument "
               << i << " of pointer or integer type (not i1), found " << t;
    }
    if (auto a = getArgAttr(i, TileDialect::getEqualToAttrName())) {
      if (!isa<IntegerAttr>(a) || !isa<IntegerType>(t))
        return emitOpError("expected ")
               << TileDialect::getEqualToAttrName()
               << " to be an integer on an integer argument, found " << a
               << " on argument " << i << " of type " << t;
    }
    if (auto a = getArgAttr(i, TileDialect::getUnsignedAttrName())) {
      Type elem = t;
      if (auto p = dyn_cast<PtrType>(t))
        elem = p.getPointeeType();
      if (!isa<UnitAttr>(a) || !isa<IntegerType>(elem) || elem.isInteger(1))
        return emitOpError("expected ")
               << TileDialect::getUnsignedAttrName()
               << " to be a unit attribute on an integer argument or a "
                  "pointer to integers (not i1), found "
               << a << " on argument " << i << " of type " << t;
    }
    if (auto a = getArgAttr(i, TileDialect::getTensorDescAttrName())) {
      auto ta = dyn_cast<TypeAttr>(a);
      auto block = ta ? dyn_cast<RankedTensorType>(ta.getValue()) : nullptr;
      auto ptr = dyn_cast<PtrType>(t);
      int64_t rank = block ? block.getRank() : 0;
      if (!block || !block.hasStaticShape() || rank < 1 || rank > 5 ||
          block.getEncoding() || !ptr ||
          ptr.getPointeeType() != block.getElementType() ||
          i + 2 * rank > e)
        return emitOpError("expected ")
               << TileDialect::getTensorDescAttrName()
               << " to be a static block type of rank 1 to 5 on a pointer "
                  "to its element type followed by 2 * rank - 1 arguments, "
                  "found "
               << a << " on argument " << i << " of type " << t;
      for (int64_t k = 1; k < 2 * rank; ++k) {
        Type want = IntegerType::get(getContext(), k <= rank ? 32 : 64);
        if (getArgumentTypes()[i + k] != want)
          return emitOpError("expected argument ")
                 << i + k << " of the tensor descriptor at argument " << i
                 << " to be " << want << " (" << (k <= rank ? "shape" : "stride")
                 << "), found " << getArgumentTypes()[i + k];
      }
      // The block is a TMA box, as tl.make_tensor_descriptor checks it
      // (the runtime parses the signature entry by the same rules).
      Type elem = block.getElementType();
      bool elemOk = (elem.isInteger() && !elem.isInteger(1) &&
                     elem.getIntOrFloatBitWidth() <= 64) ||
                    isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
                        Float8E4M3FNType, Float8E5M2Type>(elem);
      int64_t bytes = elemOk ? std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8) : 1;
      bool boxOk = elemOk && block.getShape().back() * bytes >= 16;
      for (int64_t d : block.getShape())
        boxOk &= d >= 1 && d <= 256 && llvm::isPowerOf2_64(uint64_t(d));
      if (!boxOk)
        return emitOpError("expected the block of the tensor descriptor at "
                           "argument ")
               << i << " to be a TMA box (sizes powers of two up to 256, at "
                       "least 16 bytes in the last dimension, an integer or "
                       "float type but i1), found "
               << block;
      // Facts: only those the runtime checks at launch (it writes the
      // signature entry without any): the base aligned to at most 16
      // bytes, strides to at most 16 bytes' worth of elements, nothing on
      // the sizes.
      auto factsOn = [&](unsigned arg) {
        return getArgAttr(arg, TileDialect::getEqualToAttrName()) ||
               (arg != i && getArgAttr(arg, TileDialect::getUnsignedAttrName()));
      };
      auto divisibility = [&](unsigned arg) -> int64_t {
        auto d = getArgAttrOfType<IntegerAttr>(
            arg, TileDialect::getDivisibilityAttrName());
        return d ? d.getInt() : 1;
      };
      if (factsOn(i) || divisibility(i) > 16)
        return emitOpError("expected no facts on the base of the tensor "
                           "descriptor at argument ")
               << i << " but tile.divisibility of at most 16 (what the "
                       "launch checks)";
      for (int64_t k = 1; k < 2 * rank; ++k) {
        int64_t most = k <= rank ? 1 : std::max<int64_t>(1, 16 / bytes);
        if (factsOn(i + k) || divisibility(i + k) > most)
          return emitOpError("expected no facts on argument ")
                 << i + k << " (" << (k <= rank ? "a size" : "a stride")
                 << ") of the tensor descriptor at argument " << i
                 << (k <= rank ? ""
                               : " but tile.divisibility of at most 16 bytes' "
                                 "worth of elements")
                 << ": the runtime cannot check it";
      }
    }
    if (isa<TensorMapType>(t)) {
      // After the strides of a host-side descriptor (tile-pipeline adds
      // it), with the box and swizzle the runtime encodes it with; or,
      // after every other argument, a launch map (its source says how the
      // runtime computes the tensor it reads).
      RankedTensorType block;
      for (unsigned j = 0; j < i && !block; ++j)
        if (auto d = getArgAttrOfType<TypeAttr>(
                j, TileDialect::getTensorDescAttrName()))
          if (auto bt = dyn_cast<RankedTensorType>(d.getValue());
              bt && j + 2 * bt.getRank() == i)
            block = bt;
      auto source = getArgAttrOfType<DictionaryAttr>(
          i, TileDialect::getTMASourceAttrName());
      Type element;
      if (source) {
        if (failed(verifyLaunchMap(*this, i, source, element)))
          return failure();
        block = {};
      } else if (block) {
        element = block.getElementType();
      }
      auto tma = getArgAttrOfType<DictionaryAttr>(i, TileDialect::getTMAAttrName());
      auto box = tma ? tma.getAs<DenseI64ArrayAttr>("box") : nullptr;
      auto swizzle = tma ? tma.getAs<IntegerAttr>("swizzle") : nullptr;
      bool ok = element && box && swizzle &&
                (!block || box.size() == block.getRank()) &&
                llvm::is_contained({32, 64, 128}, swizzle.getInt());
      if (ok) {
        int64_t bytes =
            std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
        ok &= box[box.size() - 1] * bytes == swizzle.getInt();
        for (auto [k, b] : llvm::enumerate(box.asArrayRef()))
          ok &= b >= 1 && b <= 256 && (!block || block.getDimSize(k) % b == 0);
        if (source)
          ok &=
              size_t(box.size()) == cast<ArrayAttr>(source.get("shape")).size();
        ok &= !tma.get("nan_fill") || isa<FloatType>(element);
      }
      if (!ok)
        return emitOpError("expected the !tile.tensormap argument ")
               << i << " to follow the strides of a tile.tensordesc "
                       "argument and carry "
               << TileDialect::getTMAAttrName()
               << " = {box = array<i64: ...>, swizzle = 32|64|128} with one "
                  "box size (at most 256, dividing the block) per dimension "
                  "and the innermost box `swizzle` bytes wide, or to come "
                  "after every other argument with "
               << TileDialect::getTMASourceAttrName() << " and such a "
               << TileDialect::getTMAAttrName();
      continue;
    }
    if (isKernel() && isa<Float8E4M3FNType, Float8E5M2Type>(t))
      return emitOpError("unimplemented: scalar fp8 kernel argument ")
             << i << " (" << t << "); pass fp8 data through a pointer";
    if (isKernel() && !isa<PtrType, IntegerType, FloatType>(t))
      return emitOpError("expected kernel argument ")
             << i << " to be a scalar or pointer, found " << t;
  }
  return success();
}

/// A tensor's encoding must be distributed and describe the tensor's rank
/// (the layout math indexes its dimensions by the tensor's).
static LogicalResult verifyTensorEncoding(Operation *at, Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || !t.getEncoding())
    return success();
  auto enc = dyn_cast<DistributedEncodingAttrInterface>(t.getEncoding());
  if (!enc)
    return at->emitOpError("expected a distributed encoding (#tile.blocked, "
                           "#tile.slice, #tile.mma, #tile.dot_operand) on a "
                           "tile, found ")
           << t;
  if (enc.getRank() != unsigned(t.getRank()))
    return at->emitOpError("expected an encoding of rank ")
           << t.getRank() << " on " << t << ", found one of rank "
           << enc.getRank();
  return success();
}

LogicalResult FuncOp::verifyRegions() {
  WalkResult r = getBody().walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (failed(verifyTensorEncoding(op, t)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(verifyTensorEncoding(op, arg.getType())))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  for (BlockArgument arg : getArguments())
    if (failed(verifyTensorEncoding(*this, arg.getType())))
      return failure();
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
  if (int32_t(getStart()) < 0 || int32_t(getEnd()) <= int32_t(getStart()))
    return emitOpError("expected 0 <= start < end, found start = ")
           << int32_t(getStart()) << ", end = " << int32_t(getEnd());
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

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(getType()), value);
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
  // tl.load(volatile=True): never merged, hoisted or removed (a write
  // effect keeps CSE, LICM and DCE away).
  if ((*this)->hasAttr(TileDialect::getVolatileAttrName()))
    effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                         SideEffects::DefaultResource::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// The element types an atomic of `kind` accepts: i32/i64 for the integer
/// kinds, f16/bf16/f32/f64 for fadd, either for max/min/xchg (PTX `atom`).
static LogicalResult verifyAtomicElementType(Operation *op, RMWKind kind,
                                             Type type) {
  Type elt = tilec::tile::getElementTypeOrSelf(type);
  bool isInt = elt.isInteger(32) || elt.isInteger(64);
  bool isFloat = elt.isF16() || elt.isBF16() || elt.isF32() || elt.isF64();
  switch (kind) {
  case RMWKind::FAdd:
    if (!isFloat)
      return op->emitOpError("expected an f16, bf16, f32 or f64 element type "
                             "for fadd, found ")
             << elt;
    return success();
  case RMWKind::Max:
  case RMWKind::Min:
  case RMWKind::Xchg:
    if (!isInt && !isFloat)
      return op->emitOpError("expected an i32, i64, f16, bf16, f32 or f64 "
                             "element type for ")
             << stringifyRMWKind(kind) << ", found " << elt;
    return success();
  default:
    if (!isInt)
      return op->emitOpError("expected an i32 or i64 element type for ")
             << stringifyRMWKind(kind) << ", found " << elt;
    return success();
  }
}

void AtomicRMWOp::build(OpBuilder &builder, OperationState &state,
                        RMWKind kind, Value ptr, Value val, Value mask,
                        MemSemantic sem, MemScope scope) {
  build(builder, state, val.getType(), kind, ptr, val, mask, sem, scope);
}

LogicalResult AtomicRMWOp::verify() {
  return verifyAtomicElementType(*this, getKind(), getVal().getType());
}

void AtomicRMWOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

void AtomicCASOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                        Value cmp, Value val, MemSemantic sem,
                        MemScope scope) {
  build(builder, state, val.getType(), ptr, cmp, val, sem, scope);
}

LogicalResult AtomicCASOp::verify() {
  Type elt = tilec::tile::getElementTypeOrSelf(getVal().getType());
  unsigned bits = elt.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError("expected a 16-, 32- or 64-bit element type, found ")
           << elt;
  return success();
}

void AtomicCASOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getResult().getType().getBlockType();
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError("expected a base pointer to the block's element type ")
           << block.getElementType() << ", found "
           << getBase().getType().getPointeeType();
  if (int64_t(getShape().size()) != block.getRank())
    return emitOpError("expected ")
           << block.getRank() << " shape and stride values (the block's "
           << "rank), found " << getShape().size();
  if (getNanPadding() && !isa<FloatType>(block.getElementType()))
    return emitOpError("expected a float block for nan_padding, found ")
           << block.getElementType();
  return success();
}

/// Index count and block type of a descriptor access; `value` is the
/// loaded or stored tile.
static LogicalResult verifyDescAccess(Operation *op, TensorDescType desc,
                                      size_t numIndices, Type value,
                                      StringRef what) {
  RankedTensorType block = desc.getBlockType();
  if (int64_t(numIndices) != block.getRank())
    return op->emitOpError("expected ")
           << block.getRank() << " indices (the block's rank), found "
           << numIndices;
  auto tensor = cast<RankedTensorType>(value);
  if (tensor.getShape() != block.getShape() ||
      tensor.getElementType() != block.getElementType())
    return op->emitOpError("expected ")
           << what << " of the block type " << block << ", found "
           << RankedTensorType::get(tensor.getShape(),
                                    tensor.getElementType());
  return success();
}

LogicalResult DescLoadOp::verify() {
  return verifyDescAccess(*this, getDesc().getType(), getIndices().size(),
                          getResult().getType(), "a result");
}

LogicalResult DescStoreOp::verify() {
  return verifyDescAccess(*this, getDesc().getType(), getIndices().size(),
                          getSrc().getType(), "a stored value");
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// Operands of one shape, an axis inside it, and one result per operand.
static LogicalResult verifyCombineOperands(Operation *op, ValueRange srcs,
                                           int32_t axis) {
  if (srcs.empty())
    return op->emitOpError("expected at least one operand, found none");
  auto first = cast<RankedTensorType>(srcs[0].getType());
  for (auto [i, src] : llvm::enumerate(srcs)) {
    auto t = cast<RankedTensorType>(src.getType());
    if (t.getShape() != first.getShape())
      return op->emitOpError("expected every operand of shape ")
             << shapeStr(first) << ", found " << shapeStr(t) << " for operand "
             << i;
  }
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("expected axis in [0, ")
           << first.getRank() << "), found " << axis;
  if (op->getNumResults() != srcs.size())
    return op->emitOpError("expected ")
           << srcs.size() << " results (one per operand), found "
           << op->getNumResults();
  return success();
}

/// The combiner: one block of 2N scalar arguments (the operands' element
/// types, twice) ending in a terminator that returns N values of those types.
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ValueRange srcs) {
  if (region.empty())
    return op->emitOpError("expected a combiner block, found an empty region");
  Block &block = region.front();
  size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("expected ")
           << 2 * n << " combiner arguments (2 per operand), found "
           << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type want = tilec::tile::getElementTypeOrSelf(srcs[i % n].getType());
    Type got = block.getArgument(i).getType();
    if (got != want)
      return op->emitOpError("expected combiner argument ")
             << i << " of type " << want << " (the element type of operand "
             << i % n << "), found " << got;
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != n) {
    InFlightDiagnostic d = op->emitOpError("expected the combiner to return ")
                           << n << " values (one per operand), found "
                           << term->getNumOperands();
    d.attachNote(term->getLoc()) << "returned here";
    return d;
  }
  for (unsigned i = 0; i < n; ++i) {
    Type want = tilec::tile::getElementTypeOrSelf(srcs[i].getType());
    Type got = term->getOperand(i).getType();
    if (got != want) {
      InFlightDiagnostic d = op->emitOpError("expected combined value ")
                             << i << " of type " << want
                             << " (the element type of operand " << i
                             << "), found " << got;
      d.attachNote(term->getLoc()) << "returned here";
      return d;
    }
  }
  return success();
}

/// Adds the 2N-argument combiner block to an empty region.
static Block *addCombinerBlockTo(Operation *op, Region &region,
                                 ValueRange srcs) {
  assert(region.empty() && "the combiner block exists already");
  SmallVector<Type> types;
  for (int i = 0; i < 2; ++i)
    for (Value src : srcs)
      types.push_back(tilec::tile::getElementTypeOrSelf(src.getType()));
  SmallVector<Location> locs(types.size(), op->getLoc());
  Block *block = new Block();
  region.push_back(block);
  block->addArguments(types, locs);
  return block;
}

/// The result of reducing `type` along `axis`: the shape without `axis`, or
/// the element type for a 1-D tile. No encoding: layout assignment picks one.
static Type reducedType(Type type, int32_t axis) {
  auto t = cast<RankedTensorType>(type);
  if (t.getRank() <= 1)
    return t.getElementType();
  SmallVector<int64_t> shape(t.getShape());
  if (axis >= 0 && axis < t.getRank())
    shape.erase(shape.begin() + axis);
  return RankedTensorType::get(shape, t.getElementType());
}

void ReduceOp::build(OpBuilder &builder, OperationState &state,
                     ValueRange srcs, int32_t axis) {
  SmallVector<Type> types;
  for (Value src : srcs)
    types.push_back(reducedType(src.getType(), axis));
  build(builder, state, types, srcs, axis);
}

Block *ReduceOp::addCombinerBlock() {
  return addCombinerBlockTo(*this, getCombineOp(), getSrcs());
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis())))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResult()))) {
    Type want = reducedType(std::get<0>(pair).getType(), getAxis());
    Type got = std::get<1>(pair).getType();
    // Compare without encodings: the result's layout is the slice of the
    // operand's, or any layout before lowering.
    Type gotPlain = got;
    if (auto t = dyn_cast<RankedTensorType>(got))
      gotPlain = RankedTensorType::get(t.getShape(), t.getElementType());
    if (gotPlain != want)
      return emitOpError("expected result ")
             << i << " of type " << want << " (operand " << i
             << " without axis " << getAxis() << "), found " << got;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

void ScanOp::build(OpBuilder &builder, OperationState &state, ValueRange srcs,
                   int32_t axis, bool reverse) {
  build(builder, state, srcs.getTypes(), srcs, axis, reverse);
}

Block *ScanOp::addCombinerBlock() {
  return addCombinerBlockTo(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis())))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResult()))) {
    auto src = cast<RankedTensorType>(std::get<0>(pair).getType());
    auto dst = cast<RankedTensorType>(std::get<1>(pair).getType());
    if (src.getShape() != dst.getShape() ||
        src.getElementType() != dst.getElementType())
      return emitOpError("expected result ")
             << i << " of type "
             << RankedTensorType::get(src.getShape(), src.getElementType())
             << " (the type of operand " << i << "), found " << dst;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

//===----------------------------------------------------------------------===//
// Dot and transpose
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getInputs().getTypes() != getOutputs().getTypes())
    return emitOpError("expected results of the operands' types");
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  auto aMem = dyn_cast<MemDescType>(getA().getType());
  auto aReg = dyn_cast<RankedTensorType>(getA().getType());
  MemDescType b = cast<MemDescType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  auto d = cast<RankedTensorType>(getD().getType());
  if (c != d)
    return emitOpError("expected a result of the type of c ")
           << c << ", found " << d;
  ArrayRef<int64_t> as = aMem ? aMem.getTileShape() : aReg.getShape();
  if (as.size() != 2 || b.getTileShape().size() != 2 || c.getRank() != 2)
    return emitOpError("expected 2-D operands and result");
  ArrayRef<int64_t> bs = b.getTileShape();
  if (bs[0] != as[1] || c.getDimSize(0) != as[0] || c.getDimSize(1) != bs[1])
    return emitOpError("expected a MxK, b KxN and c MxN, found ")
           << as[0] << "x" << as[1] << ", " << bs[0] << "x" << bs[1]
           << " and " << c.getDimSize(0) << "x" << c.getDimSize(1);
  Attribute aEnc = aMem ? aMem.getEncoding() : aReg.getEncoding();
  if ((aMem && !isa<NVMMASharedEncodingAttr>(aEnc)) ||
      !isa<NVMMASharedEncodingAttr>(b.getEncoding()))
    return emitOpError("expected operands in #tile.nvmma_shared encodings, "
                       "found ")
           << aEnc << " and " << b.getEncoding();
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(c.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError("expected c in a #tile.mma version-3 layout, found ")
           << c.getEncoding();
  ArrayRef<unsigned> wpc = mma.getWarpsPerCTA();
  int64_t layoutM = 16 * int64_t(wpc[0]),
          layoutN = mma.getInstrShape()[1] * int64_t(wpc[1]);
  if (c.getDimSize(0) % layoutM || c.getDimSize(1) % layoutN)
    return emitOpError("expected a ")
           << c.getDimSize(0) << "x" << c.getDimSize(1)
           << " result to be a multiple of its layout's " << layoutM << "x"
           << layoutN << " (16 rows per warp along M, instrShape N per "
           << "warpgroup along N)";
  Type ea = aMem ? aMem.getElementType() : aReg.getElementType(),
       eb = b.getElementType(), ec = c.getElementType();
  if (aReg) {
    auto op = dyn_cast_or_null<DotOperandEncodingAttr>(aEnc);
    if (!op || op.getOpIdx() != 0 || op.getParent() != mma ||
        op.getKWidth() != 2 || !(ea.isF16() || ea.isBF16()))
      return emitOpError("expected a in registers to be f16 or bf16 in "
                         "#tile.dot_operand<{opIdx = 0, parent = ")
             << mma << ", kWidth = 2}>, found " << getA().getType();
  }
  // PTX ISA 9.7.15.5: the element types wgmma.mma_async multiplies.
  auto isFp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  bool sixteenBit = ea == eb && (ea.isF16() || ea.isBF16()) && ec.isF32();
  bool tf32 = ea == eb && ea.isF32() && ec.isF32() &&
              getInputPrecision() == "tf32";
  bool fp8 = isFp8(ea) && isFp8(eb) && ec.isF32();
  bool int8 = ea == eb && ea.isInteger(8) && ec.isInteger(32);
  if (!sixteenBit && !tf32 && !fp8 && !int8)
    return emitOpError("unimplemented: wgmma of ")
           << ea << " x " << eb << " into " << ec << " (input_precision \""
           << getInputPrecision()
           << "\"); expected f16 x f16 or bf16 x bf16 into f32, f32 x f32 "
              "with input_precision \"tf32\" into f32, fp8 (f8E4M3FN, "
              "f8E5M2) into f32, or i8 x i8 into i32";
  // Only 16-bit operands may be transposed (MN-major) in shared memory.
  bool aKMajor =
      aReg || !cast<NVMMASharedEncodingAttr>(aEnc).getTransposed();
  bool bKMajor = cast<NVMMASharedEncodingAttr>(b.getEncoding()).getTransposed();
  if (!sixteenBit && (!aKMajor || !bKMajor))
    return emitOpError("expected K-major operands (a untransposed, b "
                       "transposed) for wgmma of ")
           << ea << " x " << eb << " (only f16 and bf16 may be MN-major), "
           << "found a " << (aKMajor ? "K" : "M") << "-major and b "
           << (bKMajor ? "K" : "N") << "-major";
  int64_t wantK = getMmaInstrK(ea);
  if (mma.getInstrShape()[2] != wantK)
    return emitOpError("expected instrShape K = ")
           << wantK << " (32 bytes of " << ea << ") in the accumulator's "
           << "layout, found " << mma.getInstrShape()[2];
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  auto d = cast<RankedTensorType>(getD().getType());
  int64_t rank = a.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("expected a 2-D or 3-D (batched) operand a, found rank ")
           << rank;
  if (b.getRank() != rank || c.getRank() != rank)
    return emitOpError("expected a, b and c of one rank, found ")
           << rank << ", " << b.getRank() << " and " << c.getRank();
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = c.getShape();
  unsigned m = rank - 2, k = rank - 1;
  if (rank == 3 && (bs[0] != as[0] || cs[0] != as[0]))
    return emitOpError("expected batch dimension ")
           << as[0] << " in a, b and c, found " << shapeStr(a) << ", "
           << shapeStr(b) << " and " << shapeStr(c);
  if (bs[m] != as[k])
    return emitOpError("expected b with ")
           << as[k] << " rows (the columns of a), found " << bs[m];
  if (cs[m] != as[m] || cs[k] != bs[k])
    return emitOpError("expected c of shape ")
           << (rank == 3 ? std::to_string(as[0]) + "x" : std::string())
           << as[m] << "x" << bs[k] << ", found "
           << RankedTensorType::get(cs, c.getElementType());
  if (d.getShape() != c.getShape() ||
      d.getElementType() != c.getElementType())
    return emitOpError("expected a result of the type of c ")
           << RankedTensorType::get(cs, c.getElementType()) << ", found "
           << RankedTensorType::get(d.getShape(), d.getElementType());
  bool aFloat = isa<FloatType>(a.getElementType());
  if (aFloat != isa<FloatType>(b.getElementType()) ||
      aFloat != isa<FloatType>(c.getElementType()))
    return emitOpError("expected a, b and c all float or all integer, found ")
           << a.getElementType() << ", " << b.getElementType() << " and "
           << c.getElementType();
  // The element types tl.dot takes (Triton 3.6 on CUDA) and tilec lowers:
  // i8 into i32; f16, bf16, f32, fp8 (any two) into f32; f16 and fp8 also
  // into f16; f64 into f64.
  {
    Type ea = a.getElementType(), eb = b.getElementType(),
         ec = c.getElementType();
    auto isFp8 = [](Type t) {
      return isa<Float8E4M3FNType, Float8E5M2Type>(t);
    };
    bool ok;
    if (!aFloat)
      ok = ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32);
    else if (isFp8(ea) || isFp8(eb))
      ok = isFp8(ea) && isFp8(eb) && (ec.isF32() || ec.isF16());
    else if (ea != eb)
      ok = false;
    else if (ea.isF16())
      ok = ec.isF32() || ec.isF16();
    else if (ea.isBF16() || ea.isF32())
      ok = ec.isF32();
    else if (ea.isF64())
      ok = ec.isF64();
    else
      ok = false;
    if (!ok)
      return emitOpError("expected i8 x i8 into i32, f16/bf16/f32 (both the "
                         "same) or fp8 x fp8 into f32, f16 or fp8 into f16, "
                         "or f64 into f64, found ")
             << ea << " x " << eb << " into " << ec;
  }
  StringRef p = getInputPrecision();
  if (p != "tf32" && p != "tf32x3" && p != "ieee")
    return emitOpError("expected input_precision \"tf32\", \"tf32x3\" or "
                       "\"ieee\", found \"")
           << p << "\"";
  // Laid-out dots: operands in the dot-operand layouts of the result's.
  Attribute de = d.getEncoding();
  std::array<RankedTensorType, 2> operands = {a, b};
  for (auto [idx, t] : llvm::enumerate(operands)) {
    auto op = dyn_cast_or_null<DotOperandEncodingAttr>(t.getEncoding());
    if (!op) {
      if (isa_and_nonnull<MmaEncodingAttr>(de))
        return emitOpError("expected operand ")
               << (idx ? "b" : "a") << " in a #tile.dot_operand layout of the "
               << "result's #tile.mma, found " << t;
      continue;
    }
    if (!de)
      return emitOpError("expected a result with an encoding (the parent of "
                         "operand ")
             << (idx ? "b" : "a") << "'s " << op << "), found " << d;
    if (op.getOpIdx() != idx || op.getParent() != de)
      return emitOpError("expected operand ")
             << (idx ? "b" : "a") << " in #tile.dot_operand<{opIdx = " << idx
             << ", parent = " << de << "}>, found " << t.getEncoding();
    if (auto mma = dyn_cast<MmaEncodingAttr>(de)) {
      Type e = t.getElementType();
      unsigned want = isa<Float8E4M3FNType, Float8E5M2Type>(e) ? 4
                                                              : getMmaKWidth(e);
      if (op.getKWidth() != want)
        return emitOpError("expected kWidth ")
               << want << " for mma.sync operands of " << e << ", found "
               << op.getKWidth();
    }
  }
  if (isa_and_nonnull<MmaEncodingAttr>(de) && c.getEncoding() != de)
    return emitOpError("expected the accumulator in the result's layout ")
           << de << ", found " << c;
  return success();
}

void TransOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int32_t> order) {
  auto t = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape;
  for (int32_t o : order)
    shape.push_back(o >= 0 && o < t.getRank() ? t.getDimSize(o) : 1);
  build(builder, state, RankedTensorType::get(shape, t.getElementType()), src,
        order);
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getResult().getType());
  ArrayRef<int32_t> order = getOrder();
  int64_t rank = src.getRank();
  SmallVector<bool> seen(rank, false);
  bool isPerm = int64_t(order.size()) == rank;
  for (int32_t o : order) {
    if (!isPerm || o < 0 || o >= rank || seen[o]) {
      isPerm = false;
      break;
    }
    seen[o] = true;
  }
  if (!isPerm) {
    std::string s;
    llvm::raw_string_ostream os(s);
    llvm::interleaveComma(order, os);
    return emitOpError("expected order to be a permutation of [0, ")
           << rank << "), found [" << s << "]";
  }
  SmallVector<int64_t> shape;
  for (int32_t o : order)
    shape.push_back(src.getDimSize(o));
  auto want = RankedTensorType::get(shape, src.getElementType());
  if (dst.getShape() != want.getShape() ||
      dst.getElementType() != want.getElementType())
    return emitOpError("expected result ")
           << want << ", found "
           << RankedTensorType::get(dst.getShape(), dst.getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// Hints
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  int64_t rank = 1;
  if (auto t = dyn_cast<RankedTensorType>(getSrc().getType()))
    rank = t.getRank();
  for (auto [name, attr] :
       {std::pair<StringRef, std::optional<ArrayRef<int64_t>>>{
            "divisibility", getDivisibility()},
        {"contiguity", getContiguity()},
        {"constancy", getConstancy()}}) {
    if (!attr)
      continue;
    if (int64_t(attr->size()) != rank)
      return emitOpError("expected ")
             << rank << " " << name << " values (the value's rank; 1 for a "
             << "scalar), found " << attr->size();
    for (int64_t v : *attr)
      if (v < 1 || !llvm::isPowerOf2_64(v))
        return emitOpError("expected ")
               << name << " values to be powers of two, found " << v;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// Shape and element type of a memdesc's tile (buffer dimensions dropped)
/// match the tensor's.
static LogicalResult verifyTileMatches(Operation *op, MemDescType m,
                                       RankedTensorType t) {
  if (m.getNumBufferDims() != 0 || m.getShape() != t.getShape() ||
      m.getElementType() != t.getElementType())
    return op->emitOpError("expected a tile of the memdesc's shape and "
                           "element type, found ")
           << t << " and " << m;
  return success();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType m = getResult().getType();
  if (getSrc()) {
    auto t = cast<RankedTensorType>(getSrc().getType());
    if (failed(verifyTileMatches(*this, m, t)))
      return failure();
    if (t.getEncoding() &&
        !isa<DistributedEncodingAttrInterface>(t.getEncoding()))
      return emitOpError("expected a distributed source, found ") << t;
  } else if (!m.getMutableMemory()) {
    return emitOpError("expected a mutable memdesc for an allocation without "
                       "a source (nothing could write it), found ")
           << m;
  }
  if (m.getAllocShape() != m.getShape())
    return emitOpError("expected a whole allocation, found a view ") << m;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return verifyTileMatches(*this, getSrc().getType(),
                           cast<RankedTensorType>(getResult().getType()));
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("expected a mutable destination, found ")
           << getDst().getType();
  return verifyTileMatches(*this, getDst().getType(),
                           cast<RankedTensorType>(getSrc().getType()));
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  if (src.getNumBufferDims() == 0)
    return emitOpError("expected a multi-buffered source (a leading buffer "
                       "dimension), found ")
           << src;
  if (dst.getShape() != src.getShape().drop_front() ||
      dst.getAllocShape() != src.getAllocShape().drop_front() ||
      dst.getElementType() != src.getElementType() ||
      dst.getEncoding() != src.getEncoding() ||
      dst.getMutableMemory() != src.getMutableMemory())
    return emitOpError("expected the source without its leading dimension, "
                       "found ")
           << dst;
  APInt index;
  if (matchPattern(getIndex(), m_ConstantInt(&index)) &&
      (index.isNegative() || index.sge(src.getShape().front())))
    return emitOpError("expected a buffer index in [0, ")
           << src.getShape().front() << "), found " << index.getSExtValue();
  return success();
}

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (src.getRank() != 1 || !src.getElementType().isSignlessInteger() ||
      src.getElementType().isInteger(1))
    return emitOpError("expected a 1-D tile of integers, found ") << src;
  if (result.getRank() != 1 || !result.getElementType().isInteger(32))
    return emitOpError("expected a 1-D i32 result (one count per bin), "
                       "found ")
           << result;
  if (getMask()) {
    auto mask = cast<RankedTensorType>(getMask().getType());
    if (mask.getShape() != src.getShape() ||
        !mask.getElementType().isInteger(1))
      return emitOpError("expected a mask of i1 with the shape of the "
                         "source, found ")
             << mask;
  }
  return success();
}

void GatherOp::build(OpBuilder &builder, OperationState &state, Value src,
                     Value index, int32_t axis) {
  auto s = cast<RankedTensorType>(src.getType());
  auto i = cast<RankedTensorType>(index.getType());
  build(builder, state,
        RankedTensorType::get(i.getShape(), s.getElementType(),
                              i.getEncoding()),
        src, index, axis);
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto index = cast<RankedTensorType>(getIndex().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  Type ie = index.getElementType();
  if (!ie.isSignlessInteger() || ie.isInteger(1))
    return emitOpError("expected an index tile of integers (i8 to i64), "
                       "found ")
           << index;
  int64_t rank = src.getRank();
  if (index.getRank() != rank)
    return emitOpError("expected an index of the source's rank ")
           << rank << ", found rank " << index.getRank();
  int32_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("expected axis in [0, ")
           << rank << "), found " << axis;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && index.getDimSize(d) != src.getDimSize(d))
      return emitOpError("expected index dimension ")
             << d << " to equal the source's (" << src.getDimSize(d)
             << "; only the axis " << axis << " may differ), found "
             << index.getDimSize(d);
  if (result.getShape() != index.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("expected result ")
           << RankedTensorType::get(index.getShape(), src.getElementType())
           << " (the index's shape, the source's element type), found "
           << RankedTensorType::get(result.getShape(),
                                    result.getElementType());
  // (Before layout assignment either may lack one.)
  if (index.getEncoding() && result.getEncoding() &&
      result.getEncoding() != index.getEncoding())
    return emitOpError("expected the result in the index's layout ")
           << index.getEncoding() << ", found " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// ElementwiseInlineAsmOp
//===----------------------------------------------------------------------===//

int64_t ElementwiseInlineAsmOp::getElementsPerRegister(Type elem,
                                                       int64_t pack) {
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  return bits < 32 ? std::min<int64_t>(32 / bits, pack) : 1;
}

int64_t ElementwiseInlineAsmOp::countRegisters(TypeRange types,
                                               int64_t pack) {
  int64_t n = 0;
  for (Type t : types)
    n += pack / getElementsPerRegister(tilec::tile::getElementTypeOrSelf(t),
                                       pack);
  return n;
}

ElementwiseInlineAsmOp::ConstraintCounts
ElementwiseInlineAsmOp::countConstraints(StringRef constraints) {
  ConstraintCounts counts;
  SmallVector<StringRef> parts;
  constraints.split(parts, ',');
  if (parts.size() == 1 && parts[0].trim().empty())
    return counts; // no operands at all
  for (StringRef part : parts) {
    part = part.trim();
    if (part.starts_with("~"))
      continue;
    if (part.starts_with("=")) {
      counts.outputsFirst &= counts.inputs == 0;
      ++counts.outputs;
    } else {
      ++counts.inputs;
    }
  }
  return counts;
}

std::string ElementwiseInlineAsmOp::checkAsm(StringRef asmString,
                                             StringRef constraints,
                                             int64_t numOutputs,
                                             int64_t numOperands) {
  SmallVector<StringRef> parts;
  constraints.split(parts, ',');
  if (!(parts.size() == 1 && parts[0].trim().empty()))
    for (StringRef part : parts) {
      StringRef c = part.trim();
      std::string quoted = "'" + c.str() + "'";
      if (c.consume_front("~")) {
        if (!c.starts_with("{") || !c.ends_with("}") || c.size() < 3)
          return "expected a clobber such as '~{memory}', found " + quoted;
        continue;
      }
      bool output = c.consume_front("=");
      if (output)
        (void)c.consume_front("&"); // early clobber
      if (c.size() == 1 && StringRef("rhlfd").contains(c.front()))
        continue;
      unsigned tied;
      if (!output && !c.empty() && llvm::all_of(c, llvm::isDigit) &&
          !c.getAsInteger(10, tied)) {
        if (int64_t(tied) >= numOutputs)
          return "expected a tied input to name an output (0 to " +
                 std::to_string(numOutputs - 1) + "), found " + quoted;
        continue;
      }
      return "expected a constraint `=C` (output), `C` (input; C one of the "
             "NVPTX register classes r, h, l, f, d), an output's number "
             "(tied input) or `~{...}` (clobber), found " +
             quoted;
    }
  for (size_t i = 0; i < asmString.size(); ++i) {
    if (asmString[i] != '$')
      continue;
    StringRef rest = asmString.drop_front(i + 1);
    if (rest.starts_with("$")) {
      ++i;
      continue;
    }
    bool braced = rest.consume_front("{");
    StringRef digits = rest.take_while(llvm::isDigit);
    unsigned n;
    if (digits.empty() || digits.size() > 9 || digits.getAsInteger(10, n) ||
        (braced && !rest.drop_front(digits.size()).starts_with("}")))
      return "expected `$N`, `${N}` or `$$` in the asm, found '" +
             asmString.substr(i, std::min<size_t>(8, asmString.size() - i))
                 .str() +
             "'";
    if (int64_t(n) >= numOperands)
      return "expected operand numbers below " + std::to_string(numOperands) +
             " in the asm (outputs first, then inputs), found $" +
             std::to_string(n);
  }
  return "";
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("expected at least one result (as Triton: return a "
                       "dummy value if the asm needs none), found none");
  int64_t pack = getPackedElement();
  if (!llvm::isPowerOf2_64(pack))
    return emitOpError("expected packed_element to be a power of two, found ")
           << pack;
  // One encoding for every tile (the Elementwise trait checked the shapes).
  Attribute encoding;
  bool first = true;
  for (Type t : llvm::concat<const Type>(getOperandTypes(), getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor)
      continue;
    if (first) {
      encoding = tensor.getEncoding();
      first = false;
    } else if (tensor.getEncoding() != encoding) {
      return emitOpError("expected every tile operand and result to have "
                         "one encoding, found ")
             << encoding << " and " << tensor.getEncoding();
    }
  }
  ConstraintCounts found = countConstraints(getConstraints());
  if (!found.outputsFirst)
    return emitOpError("expected the output constraints (`=...`) before the "
                       "input ones, found \"")
           << getConstraints() << "\"";
  int64_t outputs = found.outputs, inputs = found.inputs;
  int64_t wantOutputs = countRegisters(getResultTypes(), pack);
  int64_t wantInputs = countRegisters(getOperandTypes(), pack);
  if (std::string why = checkAsm(getAsmString(), getConstraints(), outputs,
                                 outputs + inputs);
      !why.empty())
    return emitOpError(why);
  if (outputs != wantOutputs || inputs != wantInputs)
    return emitOpError("expected ")
           << wantOutputs << " output and " << wantInputs
           << " input constraints (" << getNumResults() << " result(s) and "
           << getNumOperands() << " operand(s), " << pack
           << " element(s) per pack, elements under 32 bits sharing 32-bit "
              "registers), found "
           << outputs << " output and " << inputs << " input constraints in \""
           << getConstraints() << "\"";
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  // Unknown side effects: never merged, hoisted, reordered across memory
  // accesses or removed.
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

Speculation::Speculatability ElementwiseInlineAsmOp::getSpeculatability() {
  return getPure() ? Speculation::Speculatable
                   : Speculation::NotSpeculatable;
}

LogicalResult MemDescSubviewOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  ArrayRef<int64_t> offs = getOffsets();
  if (offs.size() != src.getShape().size() ||
      dst.getShape().size() != src.getShape().size())
    return emitOpError("expected one offset per dimension and a result of "
                       "the source's rank");
  for (unsigned d = 0; d < offs.size(); ++d)
    if (offs[d] < 0 || offs[d] % dst.getShape()[d] != 0 ||
        offs[d] + dst.getShape()[d] > src.getShape()[d])
      return emitOpError("expected aligned offsets inside the source, found "
                         "offset ")
             << offs[d] << " for extent " << dst.getShape()[d]
             << " in dimension " << d;
  if (dst.getAllocShape() != src.getAllocShape() ||
      dst.getElementType() != src.getElementType() ||
      dst.getEncoding() != src.getEncoding() ||
      dst.getMutableMemory() != src.getMutableMemory())
    return emitOpError("expected a view of the same allocation, found ")
           << dst;
  return success();
}

MemDescType tilec::tile::getTransposedMemDescType(MemDescType src,
                                           ArrayRef<int32_t> order) {
  MLIRContext *ctx = src.getContext();
  if (src.getNumBufferDims() != 0 || src.getAllocShape() != src.getShape() ||
      order.size() != src.getShape().size())
    return {};
  SmallVector<int64_t> shape;
  SmallVector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || o >= int32_t(order.size()) || seen[o])
      return {};
    seen[o] = true;
    shape.push_back(src.getShape()[o]);
  }
  Attribute enc;
  if (auto shared = dyn_cast<SharedEncodingAttr>(src.getEncoding())) {
    // Result dimension i is source dimension order[i]: the memory order
    // names result dimensions.
    SmallVector<unsigned> memOrder;
    for (unsigned d : shared.getOrder())
      for (unsigned i = 0; i < order.size(); ++i)
        if (unsigned(order[i]) == d)
          memOrder.push_back(i);
    enc = SharedEncodingAttr::get(ctx, shared.getVec(), shared.getPerPhase(),
                                  shared.getMaxPhase(), memOrder);
  } else if (auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(src.getEncoding());
             nvmma && order.size() == 2 && order[0] == 1) {
    enc = NVMMASharedEncodingAttr::get(ctx, nvmma.getSwizzle(),
                                       !nvmma.getTransposed());
  } else {
    return {};
  }
  return MemDescType::get(ctx, shape, src.getElementType(), enc,
                          src.getMutableMemory(), shape);
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), dst = getResult().getType();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != src.getShape().size())
    return emitOpError("expected one order entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || o >= int32_t(order.size()) || seen[o])
      return emitOpError("expected order to be a permutation");
    seen[o] = true;
  }
  MemDescType want = getTransposedMemDescType(src, order);
  if (!want)
    return emitOpError("unimplemented: transposing a view, a multi-buffered "
                       "memdesc, or one that is neither #tile.shared nor a "
                       "2-D #tile.nvmma_shared");
  if (dst != want)
    return emitOpError("expected result ") << want << ", found " << dst;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrs = cast<RankedTensorType>(getPtr().getType());
  MemDescType dst = getDst().getType();
  if (!dst.getMutableMemory())
    return emitOpError("expected a mutable destination, found ") << dst;
  auto pointee = cast<PtrType>(ptrs.getElementType()).getPointeeType();
  if (dst.getNumBufferDims() != 0 || dst.getShape() != ptrs.getShape() ||
      dst.getElementType() != pointee)
    return emitOpError("expected a destination tile of the pointers' shape "
                       "and pointee type, found ")
           << dst;
  if (getMask() &&
      cast<RankedTensorType>(getMask().getType()).getShape() !=
          ptrs.getShape())
    return emitOpError("expected a mask of the pointers' shape");
  return success();
}

//===----------------------------------------------------------------------===//
// TMA and mbarriers
//===----------------------------------------------------------------------===//

/// Whether `t` is one mbarrier: a mutable 1-element i64 buffer (a view of
/// a multi-buffered one or a whole allocation).
static bool isOneBarrier(MemDescType t) {
  return t.getElementType().isInteger(64) && t.getMutableMemory() &&
         t.getNumElements() == 1;
}

/// A TMA copy's map must be an argument of the enclosing tile.func (the
/// runtime encodes it from that argument's tile.tma; a map selected or
/// carried by control flow could not be checked against the copy's box).
static LogicalResult verifyTensorMapOperand(Operation *op, Value map) {
  auto arg = dyn_cast<BlockArgument>(map);
  if (!arg || !isa<FuncOp>(arg.getOwner()->getParentOp()))
    return op->emitOpError("expected the tensor map to be an argument of the "
                           "enclosing tile.func");
  return success();
}

/// A TMA copy's shared-memory block `buf` (the `what`: destination or
/// source): 2-D #tile.nvmma_shared with a 32/64/128-byte swizzle, last
/// dimension contiguous, whole boxes of [rows <= 256, swizzle bytes]; one
/// coordinate per dimension; the map a kernel argument encoded with that
/// box and swizzle.
static LogicalResult verifyTMABlock(Operation *op, MemDescType buf,
                                    size_t numIndices, Value map,
                                    StringRef what, bool isMutable) {
  auto enc = dyn_cast<NVMMASharedEncodingAttr>(buf.getEncoding());
  if ((isMutable && !buf.getMutableMemory()) || !enc || enc.getTransposed() ||
      buf.getNumBufferDims() != 0 || buf.getRank() != 2 ||
      !llvm::is_contained({32u, 64u, 128u}, enc.getSwizzle()))
    return op->emitOpError("expected a ")
           << (isMutable ? "mutable " : "") << "2-D #tile.nvmma_shared "
           << what
           << " with a 32-, 64- or 128-byte swizzle and its last dimension "
              "contiguous (transposed = false), found "
           << buf;
  if (numIndices != 2)
    return op->emitOpError("expected 2 coordinates, found ") << numIndices;
  std::optional<std::array<int64_t, 2>> box = getTMABox(buf);
  if (!box)
    return op->emitOpError("expected a ")
           << what << " of at most 256 rows of a multiple of the "
           << enc.getSwizzle() << "-byte swizzle, found " << buf;
  if (failed(verifyTensorMapOperand(op, map)))
    return failure();
  auto arg = cast<BlockArgument>(map);
  auto func = cast<FuncOp>(arg.getOwner()->getParentOp());
  if (auto tma = func.getArgAttrOfType<DictionaryAttr>(
          arg.getArgNumber(), TileDialect::getTMAAttrName())) {
    DictionaryAttr want =
        getTMAAttr(op->getContext(), *box, enc.getSwizzle(),
                   /*nanFill=*/tma.get("nan_fill") != nullptr);
    if (tma != want)
      return op->emitOpError("expected the tensor map's box [")
             << (*box)[0] << ", " << (*box)[1] << "] and swizzle "
             << enc.getSwizzle() << " (the " << what << "'s), found " << tma;
  }
  return success();
}

std::optional<std::array<int64_t, 2>> tilec::tile::getTMABox(MemDescType t) {
  auto enc = dyn_cast<NVMMASharedEncodingAttr>(t.getEncoding());
  if (!enc || enc.getTransposed() || t.getRank() != 2 ||
      t.getNumBufferDims() != 0 ||
      !llvm::is_contained({32u, 64u, 128u}, enc.getSwizzle()))
    return std::nullopt;
  int64_t bytes = std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
  int64_t rows = t.getShape()[0], cols = t.getShape()[1];
  int64_t inner = int64_t(enc.getSwizzle()) / bytes;
  if (rows < 1 || rows > 256 || inner < 1 || cols % inner != 0)
    return std::nullopt;
  return std::array<int64_t, 2>{rows, inner};
}

DictionaryAttr tilec::tile::getTMAAttr(MLIRContext *ctx,
                                       std::array<int64_t, 2> box,
                                       unsigned swizzle, bool nanFill) {
  Builder b(ctx);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
      b.getNamedAttr("swizzle", b.getI32IntegerAttr(int32_t(swizzle)))};
  if (nanFill)
    attrs.push_back(b.getNamedAttr("nan_fill", b.getUnitAttr()));
  return b.getDictionaryAttr(attrs);
}

LogicalResult AsyncTMALoadOp::verify() {
  if (failed(verifyTMABlock(*this, getDst().getType(), getIndices().size(),
                            getTensormap(), "destination", true)))
    return failure();
  if (!isOneBarrier(getBarrier().getType()))
    return emitOpError("expected one mbarrier (a mutable 1-element i64 "
                       "buffer), found ")
           << getBarrier().getType();
  if (getEmpty() && !isOneBarrier(getEmpty().getType()))
    return emitOpError("expected one 'empty' mbarrier (a mutable 1-element "
                       "i64 buffer), found ")
           << getEmpty().getType();
  // A multicast copy splits the block's rows between the two CTAs, in
  // whole 8-row swizzle atoms.
  if (getMulticast() && getDst().getType().getShape()[0] % 16 != 0)
    return emitOpError("expected a multicast block of a multiple of 16 rows, "
                       "found ")
           << getDst().getType().getShape()[0];
  return success();
}

LogicalResult ClusterAgreeOp::verify() {
  int64_t total = 0;
  for (int32_t n : getGroupSizes()) {
    if (n < 0)
      return emitOpError("expected non-negative group sizes, found ") << n;
    total += n;
  }
  if (total != int64_t(getValues().size()))
    return emitOpError("expected the group sizes to add up to the ")
           << getValues().size() << " values, found " << total;
  if (getAgree().size() != getGroupSizes().size())
    return emitOpError("expected one result per group (")
           << getGroupSizes().size() << "), found " << getAgree().size();
  MemDescType t = getExchange().getType();
  if (!t.getElementType().isInteger(64) || !t.getMutableMemory() ||
      t.getNumElements() < total + 1)
    return emitOpError("expected a mutable i64 buffer of at least ")
           << total + 1 << " elements, found " << t;
  return success();
}

LogicalResult AsyncTMAStoreOp::verify() {
  return verifyTMABlock(*this, getSrc().getType(), getIndices().size(),
                        getTensormap(), "source", false);
}

LogicalResult MBarrierInitOp::verify() {
  MemDescType t = getBarriers().getType();
  if (!t.getElementType().isInteger(64) || !t.getMutableMemory())
    return emitOpError("expected a mutable buffer of i64 mbarriers, found ")
           << t;
  return success();
}

LogicalResult MBarrierInvalOp::verify() {
  MemDescType t = getBarriers().getType();
  if (!t.getElementType().isInteger(64) || !t.getMutableMemory())
    return emitOpError("expected a mutable buffer of i64 mbarriers, found ")
           << t;
  return success();
}

LogicalResult MBarrierExpectOp::verify() {
  if (!isOneBarrier(getBarrier().getType()))
    return emitOpError("expected one mbarrier (a mutable 1-element i64 "
                       "buffer), found ")
           << getBarrier().getType();
  // PTX ISA 9.7.13.15.1: the tx-count range is [0, 2^20 - 1].
  if (getBytes() >= (1 << 20))
    return emitOpError("expected a transaction count below 2^20, found ")
           << getBytes();
  return success();
}

LogicalResult MBarrierWaitOp::verify() {
  if (!isOneBarrier(getBarrier().getType()))
    return emitOpError("expected one mbarrier (a mutable 1-element i64 "
                       "buffer), found ")
           << getBarrier().getType();
  return success();
}

LogicalResult MBarrierArriveOp::verify() {
  if (!isOneBarrier(getBarrier().getType()))
    return emitOpError("expected one mbarrier (a mutable 1-element i64 "
                       "buffer), found ")
           << getBarrier().getType();
  return success();
}

SmallVector<Region *> WarpSpecializeOp::getConsumerGroups() {
  SmallVector<Region *> groups = {&getConsumer()};
  for (Region &r : getMoreConsumers())
    groups.push_back(&r);
  return groups;
}

LogicalResult WarpSpecializeOp::verify() {
  // setmaxnreg (PTX ISA 9.7.19.6) acts on whole warpgroups and takes a
  // multiple of 8 in [24, 256].
  if (getProducerWarps() != 4)
    return emitOpError("expected producer_warps = 4 (one warpgroup: "
                       "setmaxnreg acts on warpgroups, one warp issues the "
                       "copies), found ")
           << getProducerWarps();
  for (auto [name, regs] : {std::pair<StringRef, int32_t>{"producer_regs",
                                                          getProducerRegs()},
                            {"consumer_regs", getConsumerRegs()}})
    if (regs < 24 || regs > 256 || regs % 8)
      return emitOpError("expected ")
             << name << " to be a multiple of 8 in [24, 256], found " << regs;
  auto func = (*this)->getParentOfType<FuncOp>();
  if (func && (func.getNumWarps() % 4))
    return emitOpError("expected the kernel's num_warps to be a multiple of 4 "
                       "(whole consumer warpgroups), found ")
           << func.getNumWarps();
  if (func && getConsumerWarps(func.getNumWarps()) + getProducerWarps() > 32)
    return emitOpError("expected at most 32 warps with the producer's, found ")
           << getConsumerWarps(func.getNumWarps()) << " + "
           << getProducerWarps();
  // setmaxnreg.inc waits until the registers are free: both partitions'
  // budgets must fit the 64K registers of one CTA per multiprocessor.
  if (func) {
    int64_t consumers = int64_t(getConsumerWarps(func.getNumWarps())) * 32;
    int64_t producers = int64_t(getProducerWarps()) * 32;
    int64_t regs = getConsumerRegs() * consumers + getProducerRegs() * producers;
    if (regs > 65536)
      return emitOpError("expected the partitions' registers to fit 65536 (one "
                         "CTA per multiprocessor), found ")
             << getConsumerRegs() << " x " << consumers << " + "
             << getProducerRegs() << " x " << producers << " = " << regs;
  }
  WalkResult r = getProducer().walk([&](Operation *op) {
    auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
    if (llvm::any_of(op->getResultTypes(), isTensor) ||
        llvm::any_of(op->getOperandTypes(), isTensor)) {
      op->emitOpError("a warp_specialize producer holds scalar code only "
                      "(one warp runs it), found a tensor");
      return WalkResult::interrupt();
    }
    if (isa<LocalAllocOp, BarrierOp, WarpSpecializeOp>(op)) {
      op->emitOpError("is not allowed in a warp_specialize producer (its "
                      "buffers are allocated before the split; it has no CTA "
                      "barrier)");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (getIsSigned().size() != getArgs().size())
    return emitOpError("expected one is_signed entry per operand (")
           << getArgs().size() << "), found " << getIsSigned().size();
  // vprintf's format is a C string.
  if (getPrefix().contains('\0'))
    return emitOpError("expected a prefix without NUL characters");
  for (Value v : getArgs()) {
    Type elem = tilec::tile::getElementTypeOrSelf(v.getType());
    if (isa<Float8E4M3FNType, Float8E5M2Type>(elem))
      return emitOpError("expected operands of integer, f16, bf16, f32, f64 "
                         "or pointer elements, found ")
             << v.getType() << " (extend fp8 to f32 first)";
  }
  return success();
}

LogicalResult AssertOp::verify() {
  for (auto [name, attr] : {std::pair<StringRef, StringAttr>{"message",
                                                             getMessageAttr()},
                            {"file", getFileAttr()},
                            {"function", getFunctionAttr()}})
    if (attr && attr.getValue().contains('\0'))
      return emitOpError("expected a ") << name << " without NUL characters";
  return success();
}
