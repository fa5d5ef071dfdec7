//===- TileGraphOps.cpp - tile operator graphs ------------------*- C++ -*-===//
//
// Verifiers and syntax of the graph-level operations: what a graph's body
// may hold, how launch operands match a kernel's parameters, and how map
// inputs broadcast.
//
//===----------------------------------------------------------------------===//
#include "dialects/Tile/IR/TileGraphOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileGraphOps.cpp.inc"

bool tilec::tile::isGraphElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type))
    return i.isSignless() &&
           llvm::is_contained({8u, 16u, 32u, 64u}, i.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
             Float8E4M3FNType, Float8E5M2Type>(type);
}

bool tilec::tile::isGraphBuffer(Type type) {
  auto m = dyn_cast<MemRefType>(type);
  return m && m.getLayout().isIdentity() && !m.getMemorySpace() &&
         isGraphElementType(m.getElementType());
}

bool tilec::tile::isGraphScalar(Type type) {
  return isa<IndexType>(type) || type.isInteger(1) ||
         (isGraphElementType(type) &&
          !isa<Float8E4M3FNType, Float8E5M2Type>(type));
}

bool tilec::tile::isBroadcastableTo(MemRefType input, MemRefType output,
                                    std::string *why) {
  int64_t offset = output.getRank() - input.getRank();
  if (offset < 0) {
    if (why)
      *why = llvm::formatv("a buffer of rank {0} does not broadcast to rank "
                           "{1}",
                           input.getRank(), output.getRank());
    return false;
  }
  for (int64_t i = 0, e = input.getRank(); i < e; ++i) {
    int64_t in = input.getDimSize(i), out = output.getDimSize(i + offset);
    if (in == 1 || ShapedType::isDynamic(in) || ShapedType::isDynamic(out) ||
        in == out)
      continue;
    if (why)
      *why = llvm::formatv("dimension {0} has size {1}, which neither equals "
                           "the output's {2} nor is 1",
                           i, in, out);
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Type t : type.getInputs())
    block->addArgument(t, state.location);
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  if (function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name)))
    return failure();
  // An empty body `{}` parses as a region without blocks.
  Region &body = *result.regions.front();
  if (body.empty())
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a body for the graph");
  return success();
}

void GraphOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult GraphOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitOpError("expected a graph to return nothing (outputs are "
                       "buffer arguments), found ")
           << getFunctionType().getNumResults() << " results";
  if (!isPublic())
    return emitOpError("expected a graph to be public");
  // The name goes into the PTX's graph line and names the kernels made
  // from its maps: a PTX identifier.
  StringRef name = getSymName();
  bool identifier =
      !name.empty() && !llvm::isDigit(name.front()) &&
      llvm::all_of(name, [](char c) {
        return llvm::isAlnum(c) || c == '_' || c == '$';
      });
  if (!identifier)
    return emitOpError("expected the graph's name to be an identifier "
                       "([A-Za-z_$][A-Za-z0-9_$]*, it names the PTX's graph "
                       "and kernels), found '")
           << name << "'";
  for (auto [i, t] : llvm::enumerate(getArgumentTypes())) {
    if (!isGraphBuffer(t) && !isGraphScalar(t))
      return emitOpError("expected argument ")
             << i
             << " to be a contiguous buffer (a memref of integers or floats "
                "with the identity layout) or a scalar (integer, float, "
                "index), found "
             << t;
    if (auto a = getArgAttr(i, TileDialect::getDivisibilityAttrName())) {
      auto v = dyn_cast<IntegerAttr>(a);
      if (!v || v.getInt() < 1 || !llvm::isPowerOf2_64(v.getInt()))
        return emitOpError("expected ")
               << TileDialect::getDivisibilityAttrName() << " of argument " << i
               << " to be a power of two, found " << a;
      if (!isGraphBuffer(t) && !isa<IntegerType>(t))
        return emitOpError("expected ")
               << TileDialect::getDivisibilityAttrName() << " on argument " << i
               << " of buffer or integer type, found " << t;
    }
  }
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getArgumentTypes().size())
    return emitOpError("expected the body to take the graph's ")
           << getArgumentTypes().size() << " arguments";
  for (Operation &op : body) {
    if (auto dim = dyn_cast<memref::DimOp>(op)) {
      std::optional<int64_t> d = dim.getConstantIndex();
      int64_t rank = cast<MemRefType>(dim.getSource().getType()).getRank();
      if (d && (*d < 0 || *d >= rank))
        return dim.emitOpError("expected a dimension in [0, ")
               << rank << ") of the buffer, found " << *d;
      continue;
    }
    if (isa<AllocOp, LaunchOp, MapOp, RowReduceOp, CheckOp>(op))
      continue;
    bool scalarArith = isa_and_nonnull<arith::ArithDialect>(op.getDialect()) &&
                       op.getNumRegions() == 0 &&
                       llvm::all_of(op.getOperandTypes(), isGraphScalar) &&
                       llvm::all_of(op.getResultTypes(), isGraphScalar);
    if (scalarArith)
      continue;
    return op.emitOpError("is not allowed in a 'tile.graph' body, which holds "
                          "only tile.alloc, tile.launch, tile.map, "
                          "tile.row_reduce, tile.check, memref.dim and arith ops on "
                          "scalars");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

/// Whether `v` is a constant below zero (a size or grid that cannot be).
static bool isNegativeConstant(Value v) {
  APInt c;
  return matchPattern(v, m_ConstantInt(&c)) && c.isNegative();
}

LogicalResult AllocOp::verify() {
  auto type = cast<MemRefType>(getResult().getType());
  for (auto [i, size] : llvm::enumerate(getDynamicSizes()))
    if (isNegativeConstant(size))
      return emitOpError("expected size operand ")
             << i << " to be at least 0, found a negative constant";
  if (static_cast<int64_t>(getDynamicSizes().size()) !=
      static_cast<int64_t>(type.getNumDynamicDims()))
    return emitOpError("expected one size operand per dynamic dimension of ")
           << type << " (" << type.getNumDynamicDims() << "), found "
           << getDynamicSizes().size();
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError("expected 1 to 3 grid sizes (x, y, z), found ")
           << getGrid().size();
  for (auto [i, size] : llvm::enumerate(getGrid()))
    if (isNegativeConstant(size))
      return emitOpError("expected grid size ")
             << i << " to be at least 0, found a negative constant";
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  StringRef name = getKernelAttr().getLeafReference().getValue();
  Operation *symbol =
      symbolTable.lookupNearestSymbolFrom(*this, getKernelAttr());
  // A kernel that tile-lower-to-simt moved (a gpu.func in
  // @tilec_kernels) was checked at the tile level.
  if (symbol && !isa<FuncOp>(symbol) && isa<FunctionOpInterface>(symbol) &&
      getKernelAttr().getRootReference() == "tilec_kernels" &&
      getKernelAttr().getNestedReferences().size() == 1)
    return success();
  auto kernel = dyn_cast_or_null<FuncOp>(symbol);
  if (!kernel || !getKernelAttr().getNestedReferences().empty())
    return emitOpError("expected '")
           << name << "' to name a tile.func of the module";
  if (!kernel.isKernel())
    return emitOpError("expected '")
           << name << "' to be a kernel (a public tile.func with a body)";
  ArrayRef<Type> params = kernel.getArgumentTypes();
  // Launch maps (tensor maps the runtime encodes from the other arguments,
  // tile.tma_source) come last and are not the caller's to pass.
  while (
      !params.empty() &&
      kernel.getArgAttr(params.size() - 1, TileDialect::getTMASourceAttrName()))
    params = params.drop_back();
  for (unsigned i = 0, e = params.size(); i < e; ++i)
    if (kernel.getArgAttr(i, TileDialect::getTensorDescAttrName()) ||
        isa<TensorMapType>(params[i]))
      return emitOpError("cannot launch '")
             << name << "' from a graph: argument " << i
             << " is a tensor descriptor or tensor map (not supported in "
                "graphs yet)";
  if (params.size() != getArgs().size())
    return emitOpError("expected ")
           << params.size() << " operands for the arguments of '" << name
           << "', found " << getArgs().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(params, getArgs()))) {
    auto [param, arg] = pair;
    Type t = arg.getType();
    if (auto ptr = dyn_cast<PtrType>(param)) {
      auto buf = dyn_cast<MemRefType>(t);
      if (!buf || buf.getElementType() != ptr.getPointeeType())
        return emitOpError("expected operand ")
               << i << " to be a buffer of " << ptr.getPointeeType()
               << " for the kernel's argument of type " << param << ", found "
               << t;
      continue;
    }
    if (t != param)
      return emitOpError("expected operand ")
             << i << " to have the kernel's argument type " << param
             << ", found " << t;
  }
  return success();
}

/// Checks the body of a map or row reduction: it returns a `want` with
/// tile.map.return and holds only pure elementwise scalar ops and constants
/// of types tiles hold.
static LogicalResult verifyScalarBody(Operation *owner, Block &block,
                                      Type want) {
  auto ret = dyn_cast<MapReturnOp>(block.getTerminator());
  if (!ret)
    return owner->emitOpError("expected the body to end with tile.map.return");
  if (ret.getResult().getType() != want)
    return ret.emitOpError("expected a value of the output's element type ")
           << want << ", found " << ret.getResult().getType();
  for (Operation &op : block.without_terminator()) {
    // Scalars a tile can hold: no `index` (the body runs on tiles).
    auto isTileScalar = [](Type t) {
      return isGraphScalar(t) && !isa<IndexType>(t);
    };
    bool ok = op.getNumRegions() == 0 && isPure(&op) &&
              llvm::all_of(op.getOperandTypes(), isTileScalar) &&
              llvm::all_of(op.getResultTypes(), isTileScalar) &&
              (op.hasTrait<OpTrait::Elementwise>() ||
               op.hasTrait<OpTrait::ConstantLike>());
    if (!ok)
      return op.emitOpError("is not allowed in a '")
             << owner->getName()
             << "' body, which holds only pure elementwise ops and "
                "constants on scalars";
    // Elementwise math ops the kernels' lowering has no pattern for yet.
    if (llvm::is_contained({"math.trunc", "math.ctlz", "math.cttz",
                            "math.ctpop", "math.ipowi", "math.fpowi",
                            "math.clampf", "math.sincos"},
                           op.getName().getStringRef()))
      return op.emitOpError("is not supported in a '")
             << owner->getName()
             << "' body yet (tilec does not lower it to the GPU)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  MemRefType out = getOutputType();
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    Type t = input.getType();
    if (auto buf = dyn_cast<MemRefType>(t)) {
      if (!isGraphBuffer(buf))
        return emitOpError("expected input ")
               << i << " to be a contiguous buffer, found " << t;
      std::string why;
      if (!isBroadcastableTo(buf, out, &why))
        return emitOpError("expected input ")
               << i << " (" << t << ") to broadcast to the output " << out
               << ": " << why;
      continue;
    }
    if (!isGraphScalar(t) || isa<IndexType>(t) || t.isInteger(1))
      return emitOpError("expected input ")
             << i
             << " to be a buffer or a scalar of a type tiles hold (i8 to "
                "i64, f16, bf16, f32, f64), found "
             << t;
  }
  return success();
}

LogicalResult MapOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("expected the body to take one argument per input (")
           << getInputs().size() << "), found " << block.getNumArguments();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getInputs(), block.getArguments()))) {
    auto [input, arg] = pair;
    Type elem = mlir::getElementTypeOrSelf(input.getType());
    if (arg.getType() != elem)
      return emitOpError("expected body argument ")
             << i << " to have type " << elem << " (input " << i
             << "'s element type), found " << arg.getType();
  }
  return verifyScalarBody(*this, block, getOutputType().getElementType());
}

//===----------------------------------------------------------------------===//
// RowReduceOp
//===----------------------------------------------------------------------===//

unsigned RowReduceOp::getNumReducedDims() {
  MemRefType out = getOutputType();
  unsigned n = 0;
  for (int64_t d = out.getRank() - 1; d >= 0 && out.getDimSize(d) == 1; --d)
    ++n;
  return n;
}

LogicalResult RowReduceOp::verify() {
  MemRefType in = getInputType(), out = getOutputType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("expected the input and the output to have one "
                       "element type, found ")
           << in.getElementType() << " and " << out.getElementType()
           << " (convert with a tile.map first)";
  if (in.getRank() == 0)
    return emitOpError("expected an input of rank at least 1, found ") << in;
  if (in.getRank() != out.getRank())
    return emitOpError("expected the output to have the input's rank (")
           << in.getRank() << "), found " << out.getRank();
  unsigned reduced = getNumReducedDims();
  if (reduced == 0)
    return emitOpError("expected the output's trailing dimensions to be the "
                       "reduced ones, of static size 1; found ")
           << out;
  for (int64_t d = 0, e = in.getRank() - reduced; d < e; ++d) {
    int64_t a = in.getDimSize(d), b = out.getDimSize(d);
    if (a != ShapedType::kDynamic && b != ShapedType::kDynamic && a != b)
      return emitOpError("expected output dimension ")
             << d << " to equal the input's (" << a << "), found " << b;
  }
  if (!isa<IntegerAttr, FloatAttr>(getInit()))
    return emitOpError("expected an integer or float init, found ")
           << getInit();
  if (getInit().getType() != in.getElementType())
    return emitOpError("expected init of the element type ")
           << in.getElementType() << ", found " << getInit().getType();
  if (getInput() == getOutput())
    return emitOpError("expected the output to be another buffer than the "
                       "input");
  return success();
}

LogicalResult RowReduceOp::verifyRegions() {
  Block &block = getBody().front();
  Type elem = getInputType().getElementType();
  if (block.getNumArguments() != 2 ||
      llvm::any_of(block.getArgumentTypes(),
                   [&](Type t) { return t != elem; }))
    return emitOpError("expected the body to take two arguments of the "
                       "element type ")
           << elem << " (the accumulator and an element)";
  return verifyScalarBody(*this, block, elem);
}
