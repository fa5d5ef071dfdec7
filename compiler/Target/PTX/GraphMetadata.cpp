//===- GraphMetadata.cpp - tile.graph as the runtime's graph line -*- C++ -*-=//
//
// Numbers the graph's ops in order and turns each into a step of the
// runtime's graph program: memref.dim into `dim`, integer arith into the
// step of the same name and width (index is 64 bits; constants become
// operands), index casts and truncations into checked `cast`s, tile.alloc,
// tile.check and tile.launch into theirs.
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/PTX/GraphMetadata.h"
#include "dialects/Tile/IR/TileGraphOps.h"
#include "tilec/GraphProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The signature type of an element or scalar type.
std::optional<ScalarType> toScalarType(Type t) {
  if (t.isIndex())
    return ScalarType::I64;
  if (auto i = dyn_cast<IntegerType>(t)) {
    switch (i.getWidth()) {
    case 1:
      return ScalarType::I1;
    case 8:
      return ScalarType::I8;
    case 16:
      return ScalarType::I16;
    case 32:
      return ScalarType::I32;
    case 64:
      return ScalarType::I64;
    default:
      return std::nullopt;
    }
  }
  if (t.isF16())
    return ScalarType::FP16;
  if (t.isBF16())
    return ScalarType::BF16;
  if (t.isF32())
    return ScalarType::FP32;
  if (t.isF64())
    return ScalarType::FP64;
  if (isa<Float8E4M3FNType>(t))
    return ScalarType::FP8E4NV;
  if (isa<Float8E5M2Type>(t))
    return ScalarType::FP8E5;
  return std::nullopt;
}

/// Width in bits of an integer or index value.
unsigned widthOf(Type t) {
  return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
}

class GraphDescriber {
public:
  explicit GraphDescriber(GraphOp graph) : graph(graph) {}

  FailureOr<GraphInfo> run() {
    info.name = graph.getName().str();
    for (auto [i, t] : llvm::enumerate(graph.getArgumentTypes())) {
      GraphInfo::Param p;
      auto buf = dyn_cast<MemRefType>(t);
      p.buffer = bool(buf);
      std::optional<ScalarType> st =
          toScalarType(buf ? buf.getElementType() : t);
      if (!st)
        return graph.emitError("unimplemented: a graph argument of type ")
               << t
               << " (the runtime's signature types: integers, f16, "
                  "bf16, f32, f64, fp8)";
      p.type = *st;
      if (buf)
        for (int64_t s : buf.getShape())
          p.shape.push_back(ShapedType::isDynamic(s) ? GraphInfo::kDynamic : s);
      if (auto d = graph.getArgAttrOfType<IntegerAttr>(
              i, TileDialect::getDivisibilityAttrName()))
        p.divisibility = d.getInt();
      info.params.push_back(p);
      operands[graph.getArgument(i)] = {GraphInfo::Operand::Param, int64_t(i)};
    }
    for (Operation &op : graph.getBody().front())
      if (failed(describe(op)))
        return failure();
    return info;
  }

private:
  FailureOr<GraphInfo::Operand> operandOf(Operation *user, Value v) {
    auto it = operands.find(v);
    if (it != operands.end())
      return it->second;
    return user->emitError("internal: graph value without a step");
  }

  /// Appends `op` as a step with `operands`; its result (if any) is the
  /// step's value.
  LogicalResult add(Operation *op, GraphInfo::Op step, ValueRange values) {
    for (Value v : values) {
      FailureOr<GraphInfo::Operand> o = operandOf(op, v);
      if (failed(o))
        return failure();
      step.operands.push_back(*o);
    }
    if (op->getNumResults() == 1)
      operands[op->getResult(0)] = {GraphInfo::Operand::Value,
                                    int64_t(info.ops.size())};
    info.ops.push_back(std::move(step));
    return success();
  }

  LogicalResult describe(Operation &op) {
    using K = GraphInfo::Op;
    auto binary = [&](K::Kind kind) {
      GraphInfo::Op step;
      step.kind = kind;
      step.width = widthOf(op.getOperand(0).getType());
      return add(&op, step, op.getOperands());
    };
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](arith::ConstantOp c) -> LogicalResult {
          int64_t bits = 0;
          if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
            bits = i.getValue().getSExtValue();
          else if (auto f = dyn_cast<FloatAttr>(c.getValue()))
            bits = int64_t(f.getValue().bitcastToAPInt().getZExtValue());
          else
            return c.emitError("unimplemented: a constant of type ")
                   << c.getType() << " in a graph";
          operands[c.getResult()] = {GraphInfo::Operand::Const, bits};
          return success();
        })
        .Case([&](memref::DimOp dim) -> LogicalResult {
          std::optional<int64_t> d = dim.getConstantIndex();
          if (!d)
            return dim.emitError("unimplemented: memref.dim of a dimension "
                                 "that is not a constant");
          FailureOr<GraphInfo::Operand> b = operandOf(dim, dim.getSource());
          if (failed(b))
            return failure();
          GraphInfo::Op step;
          step.kind = K::Dim;
          step.operands = {*b, {GraphInfo::Operand::Const, *d}};
          operands[dim.getResult()] = {GraphInfo::Operand::Value,
                                       int64_t(info.ops.size())};
          info.ops.push_back(std::move(step));
          return success();
        })
        .Case([&](arith::AddIOp) { return binary(K::Add); })
        .Case([&](arith::SubIOp) { return binary(K::Sub); })
        .Case([&](arith::MulIOp) { return binary(K::Mul); })
        .Case([&](arith::DivSIOp) { return binary(K::DivS); })
        .Case([&](arith::DivUIOp) { return binary(K::DivU); })
        .Case([&](arith::RemSIOp) { return binary(K::RemS); })
        .Case([&](arith::RemUIOp) { return binary(K::RemU); })
        .Case([&](arith::CeilDivSIOp) { return binary(K::CeilDivS); })
        .Case([&](arith::CeilDivUIOp) { return binary(K::CeilDivU); })
        .Case([&](arith::MinSIOp) { return binary(K::MinS); })
        .Case([&](arith::MaxSIOp) { return binary(K::MaxS); })
        .Case([&](arith::MinUIOp) { return binary(K::MinU); })
        .Case([&](arith::MaxUIOp) { return binary(K::MaxU); })
        .Case([&](arith::AndIOp) { return binary(K::And); })
        .Case([&](arith::OrIOp) { return binary(K::Or); })
        .Case([&](arith::XOrIOp) { return binary(K::Xor); })
        .Case([&](arith::CmpIOp cmp) {
          static constexpr K::Kind kinds[] = {
              K::CmpEq,  K::CmpNe,  K::CmpSlt, K::CmpSle, K::CmpSgt,
              K::CmpSge, K::CmpUlt, K::CmpUle, K::CmpUgt, K::CmpUge};
          return binary(kinds[static_cast<unsigned>(cmp.getPredicate())]);
        })
        .Case([&](arith::SelectOp select) {
          GraphInfo::Op step;
          step.kind = K::Select;
          step.width = widthOf(select.getType());
          return add(&op, step, op.getOperands());
        })
        .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
            [&](Operation *cast) {
              // Sign extension, or a truncation the runtime checks (a size
              // an i32 argument cannot hold is an error, not a wrap).
              GraphInfo::Op step;
              step.kind = K::Cast;
              step.width = widthOf(cast->getResult(0).getType());
              return add(&op, step, op.getOperands());
            })
        .Case([&](AllocOp alloc) -> LogicalResult {
          auto type = cast<MemRefType>(alloc.getType());
          std::optional<ScalarType> st = toScalarType(type.getElementType());
          if (!st)
            return alloc.emitError("unimplemented: a buffer of ")
                   << type.getElementType();
          GraphInfo::Op step;
          step.kind = K::Alloc;
          step.elementType = *st;
          unsigned dynamic = 0;
          for (int64_t s : type.getShape()) {
            if (!ShapedType::isDynamic(s)) {
              step.operands.push_back({GraphInfo::Operand::Const, s});
              continue;
            }
            FailureOr<GraphInfo::Operand> o =
                operandOf(alloc, alloc.getDynamicSizes()[dynamic++]);
            if (failed(o))
              return failure();
            step.operands.push_back(*o);
          }
          operands[alloc.getResult()] = {GraphInfo::Operand::Value,
                                         int64_t(info.ops.size())};
          info.ops.push_back(std::move(step));
          return success();
        })
        .Case([&](CheckOp check) {
          GraphInfo::Op step;
          step.kind = K::Check;
          step.text = check.getMessage().str();
          return add(&op, step, check.getCond());
        })
        .Case([&](LaunchOp launch) -> LogicalResult {
          GraphInfo::Op step;
          step.kind = K::Launch;
          step.text = launch.getKernelAttr().getLeafReference().str();
          SmallVector<Value> values(launch.getGrid());
          if (failed(add(&op, step, {})))
            return failure();
          GraphInfo::Op &added = info.ops.back();
          for (Value v : values) {
            FailureOr<GraphInfo::Operand> o = operandOf(launch, v);
            if (failed(o))
              return failure();
            added.operands.push_back(*o);
          }
          while (added.operands.size() < 3)
            added.operands.push_back({GraphInfo::Operand::Const, 1});
          for (Value v : launch.getArgs()) {
            FailureOr<GraphInfo::Operand> o = operandOf(launch, v);
            if (failed(o))
              return failure();
            info.ops.back().operands.push_back(*o);
          }
          return success();
        })
        .Case([&](MapOp map) {
          return map.emitError("internal: a tile.map left for the runtime "
                               "(tile-outline-maps turns maps into kernels)");
        })
        .Default([&](Operation *other) {
          return other->emitError("unimplemented: '")
                 << other->getName()
                 << "' in a graph the runtime runs (it evaluates integer "
                    "arithmetic, memref.dim, tile.alloc, tile.check and "
                    "tile.launch)";
        });
  }

  GraphOp graph;
  GraphInfo info;
  DenseMap<Value, GraphInfo::Operand> operands;
};

} // namespace

LogicalResult tilec::emitGraphMetadata(ModuleOp module, llvm::raw_ostream &os) {
  for (GraphOp graph : module.getBody()->getOps<GraphOp>()) {
    FailureOr<GraphInfo> info = GraphDescriber(graph).run();
    if (failed(info))
      return failure();
    os << formatGraphMetadataLine(*info) << "\n";
  }
  return success();
}
