//===- Debug.cpp - tile.print and tile.assert lowering ----------*- C++ -*-===//
//
// Printing and assertions from the GPU, per element each thread holds, as
// Triton 3.6 does (lib/Conversion/TritonGPUToLLVM/PrintOpToLLVM.cpp and
// AssertOpToLLVM.cpp):
//
//  - tile.print: one `gpu.printf` per element of each operand (upstream's
//    convert-gpu-to-nvvm lowers it to a PTX `vprintf` call), formatted
//    `pid (x, y, z) idx (i, j)<prefix>[(operand n) ]<value>\n`, the indices
//    computed from the operand's layout (emitElementCoords, as stores do)
//    and padded to the digits of their dimension. Replicas print too, as in
//    Triton. Values are promoted as C varargs are (integers under 32 bits
//    to i32 by their signedness, floats to f64).
//  - tile.assert: each thread ANDs the elements of the condition it holds;
//    where one is false it calls `__assertfail(message, file, line,
//    function, 1)` (the CUDA device runtime's assertion call, which prints
//    and traps), then a CTA barrier, as Triton, so that the other threads
//    reach their own check before the kernel stops.
//
//===----------------------------------------------------------------------===//
#include "passes/SIMT/SIMTUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::simt;

namespace {

/// `s` with `%` doubled: a prefix is printed, not interpreted.
std::string escapeFormat(StringRef s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// Triton's width of an index along a dimension of `size` elements:
/// ceil(log10(size)), 0 for a size of 1 (the digits of size - 1).
int indexWidth(int64_t size) {
  int w = 0;
  for (int64_t v = size - 1; v > 0; v /= 10)
    ++w;
  return size > 1 ? w : 0;
}

/// The printf conversion of an element of type `elem` (before promotion)
/// and the value promoted as vprintf reads it (PTX ISA's vprintf takes C's
/// default argument promotions: ints of 32 or 64 bits, doubles).
std::pair<std::string, Value> formatValue(OpBuilder &b, Location loc, Value v,
                                          Type elem, bool isSigned, bool hex) {
  Type i32 = b.getI32Type();
  if (isa<tile::PtrType>(elem))
    return {"%p", v}; // an i64 address
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (hex) {
    // The bits, zero-extended (0xff for an int8 -1), N hex digits.
    if (isa<FloatType>(elem))
      v = arith::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
    if (bits < 32)
      v = arith::ExtUIOp::create(b, loc, i32, v);
    std::string f = "0x%0" + std::to_string(std::max(1u, bits / 4));
    return {f + (bits > 32 ? "llx" : "x"), v};
  }
  if (isa<FloatType>(elem)) {
    if (bits < 64)
      v = arith::ExtFOp::create(b, loc, b.getF64Type(), v);
    return {"%f", v};
  }
  if (bits < 32)
    v = isSigned && bits > 1 ? Value(arith::ExtSIOp::create(b, loc, i32, v))
                             : Value(arith::ExtUIOp::create(b, loc, i32, v));
  std::string f = bits > 32 ? "%ll" : "%";
  return {f + (isSigned ? "i" : "u"), v};
}

struct PrintLowering : public OpConversionPattern<tile::PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value, 3> pid;
    for (auto d : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      pid.push_back(arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getI32Type(),
          gpu::BlockIdOp::create(rewriter, loc, d)));
    std::string prefix = escapeFormat(op.getPrefix());
    if (op.getArgs().empty()) {
      gpu::PrintfOp::create(rewriter, loc, "pid (%u, %u, %u)" + prefix + "\n",
                            pid);
      rewriter.eraseOp(op);
      return success();
    }
    size_t numArgs = op.getArgs().size();
    for (size_t i = 0; i < numArgs; ++i) {
      Type type = op.getArgs()[i].getType();
      Type elem = tile::getElementTypeOrSelf(type);
      bool isSigned = op.getIsSigned()[i];
      Value vals = adaptor.getArgs()[i];
      // Per element: its indices (none for a scalar) and value.
      SmallVector<SmallVector<Value>> indices;
      SmallVector<Value> elems;
      SmallVector<int> widths;
      if (auto t = dyn_cast<RankedTensorType>(type)) {
        tile::LinearLayout l = getLayout(t);
        ThreadCoords thread = emitThreadCoords(rewriter, loc, l);
        for (int64_t e = 0; e < l.getNumRegisters(); ++e) {
          indices.push_back(emitElementCoords(rewriter, loc, l, thread, e));
          elems.push_back(extractElement(rewriter, loc, vals, e));
        }
        for (int64_t d : t.getShape())
          widths.push_back(indexWidth(d));
      } else {
        indices.emplace_back();
        elems.push_back(vals);
      }
      for (auto [index, v] : llvm::zip(indices, elems)) {
        std::string format;
        llvm::raw_string_ostream os(format);
        SmallVector<Value> args(pid.begin(), pid.end());
        os << "pid (%u, %u, %u) idx (";
        for (auto [d, x] : llvm::enumerate(index)) {
          os << (d ? ", " : "") << "%" << widths[d] << "u";
          args.push_back(x);
        }
        os << ")" << prefix;
        if (numArgs > 1)
          os << "(operand " << i << ") ";
        auto [conv, promoted] =
            formatValue(rewriter, loc, v, elem, isSigned, op.getHex());
        os << conv << "\n";
        args.push_back(promoted);
        gpu::PrintfOp::create(rewriter, loc, format, args);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The innermost file and line of `loc` (the callee's in an inlined
/// helper), or ("unknown", 0).
std::pair<std::string, int32_t> fileAndLine(Location loc) {
  while (true) {
    if (auto c = dyn_cast<CallSiteLoc>(loc))
      loc = c.getCallee();
    else if (auto n = dyn_cast<NameLoc>(loc))
      loc = n.getChildLoc();
    else if (auto f = dyn_cast<FusedLoc>(loc); f && !f.getLocations().empty())
      loc = f.getLocations().front();
    else
      break;
  }
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return {f.getFilename().str(), int32_t(f.getLine())};
  return {"unknown", 0};
}

/// The address of a NUL-terminated copy of `value` in a new internal
/// constant global at the start of `module` (the gpu.module), named
/// `base_<n>`.
Value globalString(OpBuilder &b, Location loc, Operation *module,
                   StringRef base, StringRef value) {
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = (base + "_" + Twine(n)).str();
    if (!SymbolTable::lookupSymbolIn(module, name))
      break;
  }
  std::string bytes = value.str();
  bytes.push_back('\0');
  MLIRContext *ctx = b.getContext();
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), bytes.size());
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&module->getRegion(0).front());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(bytes));
  }
  Value addr = LLVM::AddressOfOp::create(b, loc, global);
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx), type,
                             addr, ArrayRef<LLVM::GEPArg>{0, 0});
}

struct AssertLowering : public OpConversionPattern<tile::AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *module = LLVM::parentLLVMModule(op);
    if (!module)
      return rewriter.notifyMatchFailure(op, "not inside a gpu.module");
    // All of this thread's elements hold.
    Value cond = adaptor.getCond();
    Value ok = cond;
    if (auto v = dyn_cast<VectorType>(cond.getType())) {
      ok = extractElement(rewriter, loc, cond, 0);
      for (int64_t e = 1; e < v.getNumElements(); ++e)
        ok = arith::AndIOp::create(rewriter, loc, ok,
                                   extractElement(rewriter, loc, cond, e));
    }
    Value anyFalse = arith::XOrIOp::create(
        rewriter, loc, ok,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    auto [locFile, locLine] = fileAndLine(loc);
    std::string file = op.getFile() ? op.getFile()->str() : locFile;
    int32_t line = op.getLine() ? int32_t(*op.getLine()) : locLine;
    std::string function = "unknown";
    if (op.getFunction())
      function = op.getFunction()->str();
    else if (auto f = op->getParentOfType<FunctionOpInterface>())
      function = f.getName().str();

    auto ifOp = scf::IfOp::create(rewriter, loc, anyFalse,
                                  /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      MLIRContext *ctx = rewriter.getContext();
      Type ptr = LLVM::LLVMPointerType::get(ctx);
      // void __assertfail(const char *message, const char *file,
      //                   unsigned line, const char *function,
      //                   size_t charSize): CUDA's device runtime.
      FailureOr<LLVM::LLVMFuncOp> fn = LLVM::lookupOrCreateFn(
          rewriter, module, "__assertfail",
          {ptr, ptr, rewriter.getI32Type(), ptr, rewriter.getI64Type()},
          LLVM::LLVMVoidType::get(ctx));
      if (failed(fn))
        return rewriter.notifyMatchFailure(
            op, "__assertfail is declared with another signature");
      Value args[] = {
          globalString(rewriter, loc, module, "assert_message",
                       op.getMessage()),
          globalString(rewriter, loc, module, "assert_file", file),
          i32Const(rewriter, loc, line),
          globalString(rewriter, loc, module, "assert_function", function),
          i64Const(rewriter, loc, 1)};
      LLVM::CallOp::create(rewriter, loc, *fn, args);
    }
    // Every thread checks before the kernel stops (Triton does the same).
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

} // namespace

void tilec::simt::populateDebugToSIMTPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter,
                                              patterns.getContext());
}
