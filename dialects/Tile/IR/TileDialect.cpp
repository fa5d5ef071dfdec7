//===- TileDialect.cpp - The tile dialect -----------------------*- C++ -*-===//
//
// Registers the tile dialect's types, encodings and operations, and its
// inliner interface (device functions are inlined into kernels). The
// blocked encoding has a hand-written syntax so that its arrays read as
// `[4, 1]`, as in Triton.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/TileDialect.h"
#include "dialects/Tile/IR/TileGraphOps.h"
#include "dialects/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "dialects/Tile/IR/TileDialect.cpp.inc"

#include "dialects/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/Tile/IR/TileTypes.cpp.inc"

#include "dialects/Tile/IR/TileAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Every tile op may be inlined; `tile.return` becomes a branch-free value
/// replacement (device functions have a single block after parsing).
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToRepl, ret.getOperands()))
      from.replaceAllUsesWith(to);
  }
};

/// Short aliases for encodings in printed IR: #blocked, #blocked1, #slice...
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr, NVMMASharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/IR/TileOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/Tile/IR/TileGraphOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface, TileOpAsmInterface>();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == getCacheModifierAttrName() ||
      attr.getName() == getEvictionPolicyAttrName() ||
      attr.getName() == getVolatileAttrName()) {
    bool isLoad = isa<LoadOp>(op);
    if (!isLoad && !isa<StoreOp>(op))
      return op->emitOpError("expected ")
             << attr.getName().getValue()
             << " only on tile.load and tile.store";
    if (attr.getName() == getVolatileAttrName()) {
      if (!isLoad || !isa<UnitAttr>(attr.getValue()))
        return op->emitOpError("expected ")
               << attr.getName().getValue()
               << " to be a unit attribute of a tile.load";
      return success();
    }
    auto str = dyn_cast<StringAttr>(attr.getValue());
    SmallVector<StringRef> allowed;
    if (attr.getName() == getEvictionPolicyAttrName())
      allowed = {"evict_first", "evict_last"};
    else if (isLoad)
      allowed = {".ca", ".cg", ".cv"};
    else
      allowed = {".wb", ".cg", ".cs", ".wt"};
    if (!str || !llvm::is_contained(allowed, str.getValue()))
      return op->emitOpError("expected ")
             << attr.getName().getValue() << " to be one of \""
             << llvm::join(allowed, "\", \"") << "\", found "
             << attr.getValue();
    if (attr.getName() == getEvictionPolicyAttrName() &&
        op->hasAttr(getCacheModifierAttrName()))
      return op->emitOpError("expected ")
             << attr.getName().getValue() << " without "
             << getCacheModifierAttrName()
             << " (PTX combines no eviction priority with a cache operator)";
    return success();
  }
  if (attr.getName() == getAlignedVariantAttrName()) {
    // (It travels with the kernel to gpu.func and llvm.func.) The name goes
    // into the PTX's metadata line: a PTX identifier, not the kernel's own.
    auto name = dyn_cast<StringAttr>(attr.getValue());
    auto isIdentifier = [](StringRef s) {
      return !s.empty() && !llvm::isDigit(s.front()) &&
             llvm::all_of(s, [](char c) {
               return llvm::isAlnum(c) || c == '_' || c == '$';
             });
    };
    auto fn = dyn_cast<FunctionOpInterface>(op);
    if (!fn || !name || !isIdentifier(name.getValue()) ||
        name.getValue() == fn.getName())
      return op->emitOpError("expected ")
             << attr.getName().getValue()
             << " to be a string attribute of a kernel naming another "
                "kernel (a PTX identifier: its aligned variant), found "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getMaxNRegAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FuncOp>(op) || !v || v.getInt() < 16 || v.getInt() > 255)
      return op->emitOpError("expected ")
             << getMaxNRegAttrName()
             << " to be an integer in [16, 255] on a tile.func, found "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getSharedOffsetAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!v || v.getInt() < 0 || v.getInt() % 16 != 0)
      return op->emitOpError("expected ")
             << getSharedOffsetAttrName()
             << " to be a non-negative multiple of 16, found "
             << attr.getValue();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointee) {
  if (!isa<IntegerType, FloatType>(pointee))
    return emitError() << "expected an integer or float pointee type, found "
                       << pointee;
  return success();
}

LogicalResult
TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                       RankedTensorType blockType) {
  if (!blockType.hasStaticShape() || blockType.getRank() == 0)
    return emitError() << "expected a block of static shape and rank >= 1, "
                          "found "
                       << blockType;
  if (!isa<IntegerType, FloatType>(blockType.getElementType()))
    return emitError() << "expected an integer or float block element type, "
                          "found "
                       << blockType.getElementType();
  if (blockType.getEncoding())
    return emitError() << "expected a block type without encoding, found "
                       << blockType;
  return success();
}

//===----------------------------------------------------------------------===//
// !tile.memdesc
//===----------------------------------------------------------------------===//

unsigned MemDescType::getNumBufferDims() const {
  auto enc = dyn_cast<SharedEncodingAttrInterface>(getEncoding());
  unsigned rank = enc ? enc.getRank() : getShape().size();
  return getShape().size() > rank ? getShape().size() - rank : 0;
}

ShapedType MemDescType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                  Type elementType) const {
  return MemDescType::get(getContext(), shape ? *shape : getShape(),
                          elementType, getEncoding(), getMutableMemory(),
                          getAllocShape());
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, bool,
                                  ArrayRef<int64_t> allocShape) {
  auto enc = dyn_cast_or_null<SharedEncodingAttrInterface>(encoding);
  if (!enc)
    return emitError() << "expected a shared encoding (#tile.shared or "
                          "#tile.nvmma_shared), found "
                       << encoding;
  if (!isa<IntegerType, FloatType>(elementType))
    return emitError() << "expected an integer or float element type, found "
                       << elementType;
  if (shape.size() < enc.getRank())
    return emitError() << "expected at least " << enc.getRank()
                       << " dimensions for the encoding, found "
                       << shape.size();
  // Buffer dimensions (stages) may have any size; the tile's are powers
  // of two.
  unsigned bufferDims = shape.size() - enc.getRank();
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (d < bufferDims && shape[d] <= 0)
      return emitError() << "expected a positive buffer count (dimension "
                         << d << "), found " << shape[d];
    if (d >= bufferDims && (shape[d] <= 0 || !llvm::isPowerOf2_64(shape[d])))
      return emitError() << "expected power-of-two tile dimensions, found "
                         << shape[d];
  }
  if (allocShape.size() != shape.size())
    return emitError() << "expected an allocation shape of rank "
                       << shape.size();
  for (auto [s, a] : llvm::zip(shape, allocShape))
    if (s > a || a % s != 0)
      return emitError() << "expected the view to divide its allocation";
  return success();
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding))
    return {};
  bool isMutable = false;
  SmallVector<int64_t> alloc(shape);
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      isMutable = true;
      continue;
    }
    alloc.clear();
    if (parser.parseKeyword("alloc") || parser.parseEqual() ||
        parser.parseDimensionList(alloc, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape,
                                        elementType, encoding, isMutable,
                                        alloc);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t s : getShape())
    printer << s << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", alloc = ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

Type tilec::tile::getPointeeTypeOf(Type type) {
  if (auto ptr = dyn_cast<PtrType>(type))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    if (auto ptr = dyn_cast<PtrType>(tensor.getElementType()))
      return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                   tensor.getEncoding());
  return Type();
}

Type tilec::tile::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

StringRef tilec::tile::getFloatTypeName(Type t) {
  if (!t)
    return "";
  if (t.isF16())
    return "fp16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "fp32";
  if (t.isF64())
    return "fp64";
  if (isa<Float8E4M3FNType>(t))
    return "fp8e4nv";
  if (isa<Float8E5M2Type>(t))
    return "fp8e5";
  return "";
}

Type tilec::tile::getElementTypeOrSelf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

uint64_t tilec::tile::getOperationWork(Operation *op, int64_t threadsPerCTA) {
  uint64_t threads = uint64_t(std::max<int64_t>(threadsPerCTA, 1));
  uint64_t work = 1;
  auto visit = [&](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return;
    uint64_t n = uint64_t(tensor.getNumElements());
    work = std::max(work, (n + threads - 1) / threads);
  };
  for (Type t : op->getResultTypes())
    visit(t);
  for (Value v : op->getOperands())
    visit(v.getType());
  // A loop costs LLVM's loop optimizations more than linear time in the
  // number of loops (1000 sequential ones: 5.9 s): it weighs 100; other
  // region ops (scf.if: scf-to-cf grows quadratically with thousands of
  // them) 30.
  if (isa<LoopLikeOpInterface>(op))
    work = std::max<uint64_t>(work, 100);
  else if (op->getNumRegions() > 0 && !isa<FuncOp, ModuleOp>(op))
    work = std::max<uint64_t>(work, 30);
  // A dot is a K-long sum per result element: its result's elements per
  // thread times K (one 256x256x128 dot at 2 warps took 10 s to compile).
  if (isa<DotOp, WarpGroupDotOp>(op)) {
    auto d = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t k = 1;
    if (auto a = dyn_cast<RankedTensorType>(op->getOperand(0).getType()))
      k = a.getShape().back();
    else if (auto m = dyn_cast<MemDescType>(op->getOperand(0).getType()))
      k = m.getShape().back();
    if (d.hasStaticShape())
      work = std::max<uint64_t>(
          work, (uint64_t(d.getNumElements()) + threads - 1) / threads *
                    uint64_t(std::max<int64_t>(k, 1)));
  }
  // A print is one printf call per element of each operand a thread
  // holds.
  if (isa<PrintOp>(op)) {
    uint64_t calls = 0;
    for (Value v : op->getOperands()) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      calls += t && t.hasStaticShape()
                   ? (uint64_t(t.getNumElements()) + threads - 1) / threads
                   : 1;
    }
    work = std::max<uint64_t>(work, calls);
  }
  return work;
}

//===----------------------------------------------------------------------===//
// Encodings
//===----------------------------------------------------------------------===//

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "expected a blocked encoding of rank >= 1";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "expected sizePerThread, threadsPerWarp, "
                          "warpsPerCTA and order of one rank, found "
                       << sizePerThread.size() << ", " << threadsPerWarp.size()
                       << ", " << warpsPerCTA.size() << " and " << rank;
  unsigned lanes = 1;
  for (size_t d = 0; d < rank; ++d) {
    for (unsigned v : {sizePerThread[d], threadsPerWarp[d], warpsPerCTA[d]})
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "expected powers of two in dimension " << d
                           << ", found " << v;
    lanes *= threadsPerWarp[d];
  }
  if (lanes != 32)
    return emitError() << "expected threadsPerWarp to multiply to 32, found "
                       << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return emitError() << "expected order to be a permutation of [0, "
                         << rank << ")";
    seen[o] = true;
  }
  return success();
}

static ParseResult parseUnsignedArray(AsmParser &parser,
                                      SmallVectorImpl<unsigned> &out) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        unsigned v;
        if (parser.parseInteger(v))
          return failure();
        out.push_back(v);
        return success();
      });
}

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> spt, tpw, wpc, order;
  StringRef keys[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA",
                      "order"};
  SmallVector<unsigned> *vals[] = {&spt, &tpw, &wpc, &order};
  if (parser.parseLess() || parser.parseLBrace())
    return {};
  for (unsigned i = 0; i < 4; ++i) {
    if (i && parser.parseComma())
      return {};
    if (parser.parseKeyword(keys[i]) || parser.parseEqual() ||
        parseUnsignedArray(parser, *vals[i]))
      return {};
  }
  if (parser.parseRBrace() || parser.parseGreater())
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), spt, tpw,
                                                wpc, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  auto list = [&](ArrayRef<unsigned> a) {
    printer << "[";
    llvm::interleaveComma(a, printer);
    printer << "]";
  };
  printer << "<{sizePerThread = ";
  list(getSizePerThread());
  printer << ", threadsPerWarp = ";
  list(getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  list(getWarpsPerCTA());
  printer << ", order = ";
  list(getOrder());
  printer << "}>";
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  auto dist = dyn_cast<DistributedEncodingAttrInterface>(parent);
  if (!dist)
    return emitError() << "expected a distributed parent encoding (blocked, "
                          "slice, mma or dot_operand), found "
                       << parent;
  unsigned parentRank = dist.getRank();
  if (dim >= parentRank)
    return emitError() << "expected slice dim < parent rank " << parentRank
                       << ", found " << dim;
  if (parentRank < 2)
    return emitError() << "expected a parent of rank >= 2 to slice";
  return success();
}

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "expected mma version 2 (mma.sync) or 3 (wgmma), "
                          "found "
                       << version;
  if (warpsPerCTA.size() != 2 && warpsPerCTA.size() != 3)
    return emitError() << "expected warpsPerCTA of rank 2 or 3, found rank "
                       << warpsPerCTA.size();
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "expected powers of two in warpsPerCTA, found "
                         << w;
  if (version == 2 && (instrShape.size() != 2 || instrShape[0] != 16 ||
                       instrShape[1] != 8))
    return emitError() << "expected instrShape = [16, 8] for mma version 2";
  if (version == 3 && warpsPerCTA[warpsPerCTA.size() - 2] % 4 != 0)
    return emitError() << "expected warpsPerCTA along M to be a multiple of "
                          "4 for mma version 3 (a warpgroup is four warps "
                          "along M), found "
                       << warpsPerCTA[warpsPerCTA.size() - 2];
  if (version == 3 && (instrShape.size() != 3 || instrShape[0] != 64 ||
                       instrShape[1] % 8 != 0 || instrShape[1] == 0 ||
                       instrShape[1] > 256 ||
                       (instrShape[2] != 8 && instrShape[2] != 16 &&
                        instrShape[2] != 32)))
    return emitError() << "expected instrShape = [64, N, K] with N a "
                          "multiple of 8 up to 256 and K 8, 16 or 32 (tf32, "
                          "16-bit, 8-bit operands; PTX ISA 9.7.15) for mma "
                          "version 3";
  return success();
}

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order) {
  for (unsigned v : {vec, perPhase, maxPhase})
    if (v == 0 || !llvm::isPowerOf2_32(v))
      return emitError() << "expected vec, perPhase and maxPhase to be "
                            "powers of two, found "
                         << v;
  SmallVector<bool> seen(order.size(), false);
  for (unsigned o : order) {
    if (o >= order.size() || seen[o])
      return emitError() << "expected order to be a permutation of [0, "
                         << order.size() << ")";
    seen[o] = true;
  }
  if (order.empty())
    return emitError() << "expected a shared encoding of rank >= 1";
  return success();
}

LogicalResult NVMMASharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned swizzle, bool) {
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "expected a swizzle of 32, 64 or 128 bytes, found "
                       << swizzle;
  return success();
}

LogicalResult DotOperandEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned opIdx,
    Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "expected opIdx 0 (A) or 1 (B), found " << opIdx;
  if (auto mma = dyn_cast<MmaEncodingAttr>(parent)) {
    if (mma.getVersion() == 3 && (opIdx != 0 || kWidth != 2))
      return emitError() << "expected opIdx 0 and kWidth 2 for a dot "
                            "operand of mma version 3 in registers (wgmma "
                            "reads A from registers, 16-bit), found opIdx "
                         << opIdx << " and kWidth " << kWidth;
    if (mma.getVersion() != 2 && mma.getVersion() != 3)
      return emitError() << "unimplemented: dot operands of mma version "
                         << mma.getVersion() << " in registers";
    if (kWidth != 1 && kWidth != 2 && kWidth != 4)
      return emitError() << "expected kWidth 1 (tf32), 2 (16-bit) or 4 "
                            "(8-bit) for an mma parent, found "
                         << kWidth;
    return success();
  }
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(parent)) {
    if (blocked.getRank() != 2 && blocked.getRank() != 3)
      return emitError() << "expected a blocked parent of rank 2 or 3";
    if (kWidth != 0)
      return emitError() << "expected kWidth = 0 for a blocked parent";
    return success();
  }
  return emitError() << "expected an #tile.mma or #tile.blocked parent, found "
                     << parent;
}
