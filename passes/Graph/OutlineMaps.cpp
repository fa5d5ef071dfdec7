//===- OutlineMaps.cpp - tile.map as kernels --------------------*- C++ -*-===//
//
// tile-outline-maps: each map a graph still holds becomes an elementwise
// kernel over the flat output (one program per block of elements, as
// Triton's vector-add tutorial) and a launch of it, so that the graph the
// runtime replays is only allocations and launches. The kernel is an
// ordinary tile.func: layouts, vectorization from the buffers' alignment,
// and both back ends apply to it as to any other.
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/GraphPasses.h"
#include "passes/Graph/GraphUtils.h"
#include "passes/Graph/MapCodegen.h"
#include "passes/Graph/RowCodegen.h"

#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-outline-maps"

namespace tilec {
#define GEN_PASS_DEF_TILEOUTLINEMAPSPASS
#include "passes/Graph/GraphPasses.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

struct TileOutlineMapsPass
    : public tilec::impl::TileOutlineMapsPassBase<TileOutlineMapsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (GraphOp graph : llvm::to_vector(module.getBody()->getOps<GraphOp>()))
      for (MapOp map : llvm::to_vector(graph.getBody().getOps<MapOp>())) {
        if (failed(checkOptions(map)))
          return signalPassFailure();
        outline(graph, map, symbols);
      }
    RowKernelOptions rowOptions;
    rowOptions.maxRowBlock = maxRowBlock;
    for (GraphOp graph : llvm::to_vector(module.getBody()->getOps<GraphOp>()))
      for (auto reduce :
           llvm::to_vector(graph.getBody().getOps<RowReduceOp>())) {
        if (failed(checkRowOptions(reduce, maxRowBlock)))
          return signalPassFailure();
        outlineRowGroup(graph, {reduce.getOperation()},
                        RowSpace::of(reduce), symbols, rowOptions);
      }
  }

  /// The options, checked where a map needs them.
  LogicalResult checkOptions(MapOp map) {
    unsigned block = blockSize, warps = numWarps;
    if (block < 1 || !llvm::isPowerOf2_32(block) || block > (1u << 20))
      return map.emitError("expected tile-outline-maps' block-size to be a "
                           "power of two in [1, 2^20], found ")
             << block;
    if (warps < 1 || warps > 32 || !llvm::isPowerOf2_32(warps))
      return map.emitError("expected tile-outline-maps' num-warps to be a "
                           "power of two in [1, 32], found ")
             << warps;
    return success();
  }

  /// Replaces `map` by a kernel and its launch.
  void outline(GraphOp graph, MapOp map, SymbolTable &symbols) {
    MLIRContext *ctx = &getContext();
    Location loc = map.getLoc();
    MemRefType out = map.getOutputType();
    OpBuilder gb(map);
    Builder b(ctx);

    // The flat size: a constant, or the product of the sizes (index).
    int64_t staticSize = 1;
    Value dynamicSize;
    for (int64_t d = 0; d < out.getRank(); ++d) {
      if (!out.isDynamicDim(d)) {
        staticSize *= out.getDimSize(d);
        continue;
      }
      Value size = memref::DimOp::create(gb, loc, map.getOutput(), d);
      dynamicSize =
          dynamicSize
              ? arith::MulIOp::create(gb, loc, dynamicSize, size).getResult()
              : size;
    }
    Value numel = arith::ConstantIndexOp::create(gb, loc, staticSize);
    if (dynamicSize)
      numel =
          staticSize == 1
              ? dynamicSize
              : arith::MulIOp::create(gb, loc, dynamicSize, numel).getResult();
    bool narrow = !dynamicSize && staticSize < (int64_t(1) << 31);
    Type offType = narrow ? b.getI32Type() : b.getI64Type();
    int64_t block = blockSize;
    if (!dynamicSize)
      block = std::min<int64_t>(
          block, std::max<int64_t>(
                     32 * numWarps,
                     llvm::PowerOf2Ceil(std::max<int64_t>(staticSize, 1))));

    // The kernel's arguments: the output, the buffer inputs (each once),
    // the scalar inputs, the flat size when dynamic, the dynamic output
    // sizes a broadcast input needs.
    SmallVector<Type> types;
    SmallVector<DictionaryAttr> attrs;
    SmallVector<Value> operands;
    DenseMap<Value, unsigned> argOf;
    auto add = [&](Value v) {
      auto [it, inserted] = argOf.try_emplace(v, types.size());
      if (!inserted)
        return;
      if (auto t = dyn_cast<MemRefType>(v.getType())) {
        types.push_back(PtrType::get(ctx, t.getElementType()));
        attrs.push_back(getBufferFacts(graph, v));
      } else {
        types.push_back(v.getType());
        attrs.push_back(b.getDictionaryAttr({}));
      }
      operands.push_back(v);
    };
    add(map.getOutput());
    for (Value in : map.getInputs())
      add(in);
    int64_t numelArg = -1;
    if (dynamicSize) {
      numelArg = types.size();
      types.push_back(b.getI64Type());
      attrs.push_back(b.getDictionaryAttr({}));
      operands.push_back(
          arith::IndexCastOp::create(gb, loc, b.getI64Type(), numel));
    }
    llvm::SmallBitVector needed(out.getRank());
    for (Value in : map.getInputs())
      if (auto t = dyn_cast<MemRefType>(in.getType()))
        for (unsigned d : getNeededOutputDims(t, out))
          if (out.isDynamicDim(d))
            needed.set(d);
    SmallVector<int64_t> dimArg(out.getRank(), -1);
    for (unsigned d : needed.set_bits()) {
      dimArg[d] = types.size();
      types.push_back(b.getI64Type());
      attrs.push_back(b.getDictionaryAttr({}));
      Value size = memref::DimOp::create(gb, loc, map.getOutput(), d);
      operands.push_back(
          arith::IndexCastOp::create(gb, loc, b.getI64Type(), size));
    }

    // The kernel.
    OpBuilder mb(graph);
    auto kernel = FuncOp::create(mb, loc, (graph.getName() + "_map").str(),
                                 FunctionType::get(ctx, types, {}));
    symbols.insert(kernel, Block::iterator(graph));
    kernel.setAllArgAttrs(attrs);
    kernel->setAttr(TileDialect::getNumWarpsAttrName(),
                    b.getI32IntegerAttr(numWarps));
    Block *body = mb.createBlock(&kernel.getBody());
    for (Type t : types)
      body->addArgument(t, loc);
    OpBuilder kb = OpBuilder::atBlockEnd(body);
    auto tileOf = [&](Type elem) {
      return RankedTensorType::get({block}, elem);
    };
    Value pid = ProgramIdOp::create(kb, loc, kb.getI32Type(), 0);
    Value range = MakeRangeOp::create(kb, loc, tileOf(kb.getI32Type()),
                                      kb.getI32IntegerAttr(0),
                                      kb.getI32IntegerAttr(block));
    Value start = pid, offs = range;
    if (!narrow) {
      start = arith::ExtSIOp::create(kb, loc, offType, pid);
      offs = arith::ExtSIOp::create(kb, loc, tileOf(offType), range);
    }
    start = arith::MulIOp::create(
        kb, loc, start, arith::ConstantIntOp::create(kb, loc, offType, block));
    Value off = arith::AddIOp::create(
        kb, loc, SplatOp::create(kb, loc, tileOf(offType), start), offs);
    Value limit =
        dynamicSize ? Value(body->getArgument(numelArg))
                    : arith::ConstantIntOp::create(kb, loc, offType, staticSize)
                          .getResult();
    Value mask =
        arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::slt, off,
                              SplatOp::create(kb, loc, tileOf(offType), limit));
    SmallVector<Value> dims(out.getRank());
    for (int64_t d = 0; d < out.getRank(); ++d)
      if (dimArg[d] >= 0)
        dims[d] = body->getArgument(dimArg[d]);
    SmallVector<Value> args;
    for (Value in : map.getInputs()) {
      Value arg = body->getArgument(argOf[in]);
      if (auto t = dyn_cast<MemRefType>(in.getType()))
        args.push_back(loadMapInput(kb, loc, t, out, arg, off, mask, dims));
      else
        args.push_back(arg);
    }
    Value result =
        emitMapBody(kb, loc, map.getBody().front(), args,
                    tileOf(out.getElementType()));
    StoreOp::create(kb, loc, offsetPointer(kb, loc, body->getArgument(0), off),
                    result, mask);
    ReturnOp::create(kb, loc);

    // The launch: ceil(numel / block) programs, after the checks of the
    // map's sizes.
    emitMapChecks(gb, map);
    Value grid = arith::CeilDivUIOp::create(
        gb, loc, numel, arith::ConstantIndexOp::create(gb, loc, block));
    LaunchOp::create(gb, loc, FlatSymbolRefAttr::get(kernel.getNameAttr()),
                     ValueRange{grid}, operands);
    map.erase();
  }
};

} // namespace
