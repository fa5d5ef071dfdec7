//===- FuseKernels.cpp - Fusing the maps of operator graphs -----*- C++ -*-===//
//
// tile-fuse-kernels: for each intermediate buffer of a graph written by one
// op and read by one later op, merges the pair -- two maps into one map, a
// launch and the map reading its result into one launch of a kernel that
// applies the map at its stores (epilogue), a map and the launch reading
// its result into one launch of a kernel that applies the map at its loads
// (prologue) -- until no pair is left, and removes buffers nothing reads.
//
// The kernel side is general because it works on addresses, not on the
// kernel's source: every store (load) through the intermediate's pointer
// argument has an address `base + offset`, and the same offset addresses
// the map's output and its inputs of the same shape (the buffers are
// contiguous and shaped alike); broadcast inputs get their offsets from it
// by division (MapCodegen.h). The offset is rebuilt from the addptr chain
// that made the address (KernelAccess.h).
//
//===----------------------------------------------------------------------===//
#include "passes/Graph/GraphPasses.h"
#include "passes/Graph/GraphUtils.h"
#include "passes/Graph/KernelAccess.h"
#include "passes/Graph/MapCodegen.h"
#include "passes/Graph/RowCodegen.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "tile-fuse-kernels"

namespace tilec {
#define GEN_PASS_DEF_TILEFUSEKERNELSPASS
#include "passes/Graph/GraphPasses.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// A buffer read or written by a graph op.
struct BufferAccess {
  Value buffer;
  bool write;
};

/// Runs the fusions of one graph.
class GraphFuser {
public:
  GraphFuser(GraphOp graph, SymbolTable &symbols, bool remarks,
             const RowKernelOptions &rowOptions)
      : graph(graph), symbols(symbols), remarks(remarks),
        rowOptions(rowOptions) {}

  void run();

private:
  /// The buffers `op` reads and writes.
  SmallVector<BufferAccess> getAccesses(Operation *op);
  /// Failure, with `why`, when an op strictly between `from` and `to`
  /// (not in `skip`) writes one of `read` or touches one of `written`, which
  /// `user` ("the fused op") uses.
  LogicalResult checkBetween(Operation *from, Operation *to,
                             ArrayRef<Value> read, ArrayRef<Value> written,
                             std::string &why,
                             const DenseSet<Operation *> *skip = nullptr,
                             StringRef user = "the fused op");
  /// Moves the ops computing `v` before `point` where they are allocations,
  /// shape queries or scalar arithmetic; failure when `v` cannot dominate it.
  LogicalResult hoistBefore(Value v, Operation *point);

  LogicalResult mergeMaps(MapOp producer, MapOp consumer, AllocOp t,
                          std::string &why);
  LogicalResult fuseEpilogue(LaunchOp producer, MapOp consumer, AllocOp t,
                             std::string &why);
  LogicalResult fusePrologue(MapOp producer, LaunchOp consumer, AllocOp t,
                             std::string &why);
  /// The kernel `launch` runs and the position among its operands of
  /// `buffer`, which the kernel must only store through (`stores`) or only
  /// load through; failure with `why` otherwise.
  FailureOr<std::pair<FuncOp, unsigned>> getFusableKernel(LaunchOp launch,
                                                          Value buffer,
                                                          bool stores,
                                                          std::string &why);
  /// A copy of `kernel` to fuse into, with its stores (or loads) through
  /// argument `position` and the element offset of each one's address;
  /// failure with `why` (and no copy left) where an address is not
  /// followed.
  struct FusedCopy {
    FuncOp fused;
    PointerArgAccess access;
    SmallVector<Value> offsets;
  };
  FailureOr<FusedCopy> copyWithOffsets(FuncOp kernel, unsigned position,
                                       bool stores, std::string &why);

  /// Tries the fusions for the intermediate `t`; true when the graph
  /// changed.
  bool tryFuse(AllocOp t);

  /// Fuses the row group of one row reduction not tried yet (RowCodegen.h);
  /// true when the graph changed.
  bool fuseRowGroup();
  /// The maps and row reductions linked to `seed` through intermediates
  /// that work on its rows, in graph order.
  SmallVector<Operation *> collectRowGroup(RowReduceOp seed);
  /// Failure, with `why`, where `group` may not run as one kernel at its
  /// last op's place.
  LogicalResult checkRowGroup(ArrayRef<Operation *> group, std::string &why);
  /// Row reductions (and maps) already tried as a group's seed or member,
  /// so that each group is collected, checked and remarked on once (linear
  /// in the graph). Pointers of ops a fusion erased may stay: the set is
  /// only asked about row reductions, and fusion never creates one. (A
  /// group refused before another fusion is not retried after it.)
  DenseSet<Operation *> triedRowSeeds;

  /// The map's inputs and the kernel arguments that carry them into a
  /// fused kernel; appended to `kernel`, their operands to `operands`.
  struct MapInputs {
    SmallVector<Value> values; // per map input: its value inside the kernel
    SmallVector<Value> dims;   // per output dimension: an i64 size or null
  };
  MapInputs addMapArguments(FuncOp kernel, MapOp map, Value skip, Value output,
                            Operation *launchPoint,
                            SmallVectorImpl<Value> &operands);
  /// `map`'s operands at one access (offsets `off`, `mask`) of a fused
  /// kernel, `values` its inputs there (addMapArguments): `stored` where
  /// the map reads `buffer` (an epilogue's intermediate), every other
  /// buffer loaded (with `like`'s attributes), scalars as they are.
  SmallVector<Value> mapOperandsAt(OpBuilder &b, Location loc, MapOp map,
                                   ArrayRef<Value> values,
                                   const MapInputs &inputs, Value buffer,
                                   Value stored, Value off, Value mask,
                                   Operation *like);
  /// Drops the intermediate's argument (`position`) from `fused` and
  /// `operands`, and launches `fused` on `launch`'s grid where `launch`
  /// is, after `map`'s checks.
  FailureOr<LaunchOp> relaunch(FuncOp fused, unsigned position, LaunchOp launch,
                               MapOp map, SmallVectorImpl<Value> &operands,
                               std::string &why);

  /// The tile.func `launch` launches, or null (a lowered kernel).
  FuncOp getKernel(LaunchOp launch) {
    SymbolRefAttr ref = launch.getKernelAttr();
    if (!ref.getNestedReferences().empty())
      return nullptr;
    return symbols.lookup<FuncOp>(ref.getRootReference());
  }

  void remark(Operation *op, const Twine &message) {
    if (remarks)
      op->emitRemark(message);
  }

  GraphOp graph;
  SymbolTable &symbols;
  bool remarks;
  RowKernelOptions rowOptions;
  /// Set for the last sweep, which only reports what stays unfused.
  bool reportRefusals = false;
};

SmallVector<BufferAccess> GraphFuser::getAccesses(Operation *op) {
  SmallVector<BufferAccess> accesses;
  if (auto map = dyn_cast<MapOp>(op)) {
    for (Value in : map.getInputs())
      if (isa<MemRefType>(in.getType()))
        accesses.push_back({in, false});
    accesses.push_back({map.getOutput(), true});
  } else if (auto reduce = dyn_cast<RowReduceOp>(op)) {
    accesses.push_back({reduce.getInput(), false});
    accesses.push_back({reduce.getOutput(), true});
  } else if (auto launch = dyn_cast<LaunchOp>(op)) {
    FuncOp kernel = getKernel(launch);
    for (auto [i, arg] : llvm::enumerate(launch.getArgs())) {
      if (!isa<MemRefType>(arg.getType()))
        continue;
      // A kernel this pass cannot see (lowered already) may do anything.
      PointerArgAccess a;
      if (kernel)
        a = analyzePointerArg(kernel, i);
      else
        a.other = "a kernel that is not a tile.func";
      if (a.reads())
        accesses.push_back({arg, false});
      if (a.writes())
        accesses.push_back({arg, true});
    }
  }
  return accesses;
}

LogicalResult GraphFuser::checkBetween(Operation *from, Operation *to,
                                       ArrayRef<Value> read,
                                       ArrayRef<Value> written,
                                       std::string &why,
                                       const DenseSet<Operation *> *skip,
                                       StringRef user) {
  for (Operation *op = from->getNextNode(); op != to; op = op->getNextNode()) {
    if (skip && skip->contains(op))
      continue;
    for (BufferAccess a : getAccesses(op)) {
      bool conflict = llvm::is_contained(written, a.buffer) ||
                      (a.write && llvm::is_contained(read, a.buffer));
      if (!conflict)
        continue;
      why = llvm::formatv("'{0}' at {1} {2} a buffer {3} uses",
                          op->getName().getStringRef(),
                          describeLocation(op->getLoc()),
                          a.write ? "writes" : "reads", user);
      return failure();
    }
  }
  return success();
}

LogicalResult GraphFuser::hoistBefore(Value v, Operation *point) {
  if (isa<BlockArgument>(v))
    return success();
  Operation *def = v.getDefiningOp();
  if (def->getBlock() == point->getBlock() && def->isBeforeInBlock(point))
    return success();
  bool movable = isa<AllocOp, memref::DimOp>(def) ||
                 isa<arith::ArithDialect>(def->getDialect());
  if (!movable || def->getBlock() != point->getBlock())
    return failure();
  for (Value operand : def->getOperands())
    if (failed(hoistBefore(operand, point)))
      return failure();
  def->moveBefore(point);
  return success();
}

/// The i64 value of `size` (an index) before `point`.
Value toI64(OpBuilder &b, Location loc, Value size) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
}

GraphFuser::MapInputs
GraphFuser::addMapArguments(FuncOp kernel, MapOp map, Value skip, Value output,
                            Operation *launchPoint,
                            SmallVectorImpl<Value> &operands) {
  MapInputs inputs;
  OpBuilder gb(launchPoint);
  Location loc = map.getLoc();
  auto addArgument = [&](Type type, DictionaryAttr attrs) {
    unsigned i = kernel.getNumArguments();
    (void)kernel.insertArgument(i, type, attrs, loc);
    return kernel.getArgument(i);
  };
  DenseMap<Value, Value> seen;
  auto addBuffer = [&](Value buffer) {
    auto it = seen.find(buffer);
    if (it != seen.end())
      return it->second;
    auto type = cast<MemRefType>(buffer.getType());
    Value arg =
        addArgument(PtrType::get(kernel.getContext(), type.getElementType()),
                    getBufferFacts(graph, buffer));
    operands.push_back(buffer);
    seen[buffer] = arg;
    return arg;
  };
  if (output)
    inputs.values.push_back(addBuffer(output));
  for (Value in : map.getInputs()) {
    if (in == skip) {
      inputs.values.push_back(Value());
      continue;
    }
    if (isa<MemRefType>(in.getType())) {
      inputs.values.push_back(addBuffer(in));
      continue;
    }
    auto it = seen.find(in);
    if (it == seen.end()) {
      it = seen.try_emplace(in, addArgument(in.getType(), nullptr)).first;
      operands.push_back(in);
    }
    inputs.values.push_back(it->second);
  }
  // The dynamic output sizes some broadcast input needs.
  MemRefType out = map.getOutputType();
  llvm::SmallBitVector needed(out.getRank());
  for (Value in : map.getInputs())
    if (auto t = dyn_cast<MemRefType>(in.getType()); t && in != skip)
      for (unsigned d : getNeededOutputDims(t, out))
        if (out.isDynamicDim(d))
          needed.set(d);
  inputs.dims.assign(out.getRank(), Value());
  for (unsigned d : needed.set_bits()) {
    inputs.dims[d] = addArgument(gb.getI64Type(), nullptr);
    operands.push_back(
        toI64(gb, loc, getDimValue(gb, loc, map.getOutput(), d)));
  }
  return inputs;
}

/// Makes each scf.for iteration argument that only computes its own next
/// value (an address the rewritten loads and stores no longer use, carried
/// by the loop) yield itself unchanged, so that the chain is dead; the
/// loop's canonicalization then drops the argument.
bool forwardDeadCarriedValues(FuncOp kernel) {
  bool forwarded = false;
  kernel.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [j, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!loop->getResult(j).use_empty())
        continue;
      SmallVector<Value> work{arg};
      DenseSet<Value> seen{arg};
      bool closed = true;
      while (!work.empty() && closed) {
        Value v = work.pop_back_val();
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (user == yield && use.getOperandNumber() == j)
            continue;
          if (user == yield || !isMemoryEffectFree(user) ||
              user->getNumRegions() || !loop->isAncestor(user)) {
            closed = false;
            break;
          }
          for (Value r : user->getResults())
            if (seen.insert(r).second)
              work.push_back(r);
        }
      }
      if (closed && yield->getOperand(j) != arg) {
        yield->setOperand(j, arg);
        forwarded = true;
      }
    }
  });
  return forwarded;
}

/// Erases the ops of `kernel` left without uses (the old address chains).
void eraseDeadOps(FuncOp kernel) {
  if (forwardDeadCarriedValues(kernel)) {
    // Forwarded iteration arguments with unused results go (scf.for's own
    // canonicalization).
    RewritePatternSet patterns(kernel.getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, kernel.getContext());
    (void)applyPatternsGreedily(kernel, std::move(patterns));
  }
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    kernel.walk([&](Operation *op) {
      if (op != kernel && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : llvm::reverse(dead)) {
      if (!op->use_empty())
        continue;
      op->erase();
      changed = true;
    }
  }
}

/// Erases argument `i` of the fused kernel `fused`, whose accesses were
/// all rewritten; on failure (a bug: analyzePointerArg missed a use,
/// reported rather than asserted) erases `fused`.
LogicalResult eraseIntermediateArgument(FuncOp fused, unsigned i,
                                        SymbolTable &symbols,
                                        std::string &why) {
  eraseDeadOps(fused);
  if (fused.getArgument(i).use_empty() && succeeded(fused.eraseArgument(i)))
    return success();
  why = "internal: the intermediate's pointer is still used";
  symbols.erase(fused);
  return failure();
}

/// The position of `v` among `operands`, if it occurs exactly once.
std::optional<unsigned> getOnlyPosition(OperandRange operands, Value v) {
  std::optional<unsigned> position;
  for (auto [i, operand] : llvm::enumerate(operands))
    if (operand == v) {
      if (position)
        return std::nullopt;
      position = i;
    }
  return position;
}

/// Function attribute on the kernels tile-fuse-kernels makes: the name
/// of the kernel they were made from (for the names of later copies).
constexpr llvm::StringLiteral kFusedFromAttr = "tile.fused_from";

/// A copy of `kernel` inserted after it, named `<source>_fused` (made
/// unique) after the user's kernel it comes from.
FuncOp cloneKernel(FuncOp kernel, SymbolTable &symbols) {
  FuncOp clone = kernel.clone();
  StringAttr source = kernel->getAttrOfType<StringAttr>(kFusedFromAttr);
  if (!source)
    source = kernel.getNameAttr();
  clone.setName((source.getValue() + "_fused").str());
  clone->setAttr(kFusedFromAttr, source);
  clone->removeAttr(TileDialect::getAlignedVariantAttrName());
  symbols.insert(clone, std::next(Block::iterator(kernel)));
  return clone;
}

/// Erases `kernel` if this pass made it and nothing launches it any more;
/// `fused`, made from it, then takes its name if it was `<source>_fused`.
void eraseIfUnused(FuncOp kernel, FuncOp fused, SymbolTable &symbols) {
  Operation *module = symbols.getOp();
  if (!kernel->hasAttr(kFusedFromAttr) ||
      !SymbolTable::symbolKnownUseEmpty(kernel, module))
    return;
  StringAttr name = kernel.getNameAttr();
  symbols.erase(kernel);
  StringAttr source = fused->getAttrOfType<StringAttr>(kFusedFromAttr);
  if (name.getValue() == (source.getValue() + "_fused").str())
    (void)symbols.rename(fused, name);
}

FailureOr<std::pair<FuncOp, unsigned>>
GraphFuser::getFusableKernel(LaunchOp launch, Value buffer, bool stores,
                             std::string &why) {
  std::optional<unsigned> position = getOnlyPosition(launch.getArgs(), buffer);
  if (!position) {
    why = "the launch passes the intermediate buffer more than once";
    return failure();
  }
  FuncOp kernel = getKernel(launch);
  if (!kernel) {
    why = "the kernel is not a tile.func of the module";
    return failure();
  }
  PointerArgAccess access = analyzePointerArg(kernel, *position);
  bool wrongKind = stores ? !access.loads.empty() : !access.stores.empty();
  if (!access.other.empty() || wrongKind) {
    why = llvm::formatv(
        "kernel @{0} does more than {1} through argument {2}: {3}",
        kernel.getName(), stores ? "store" : "load", *position,
        !access.other.empty() ? access.other
        : stores              ? std::string("it loads through it")
                              : std::string("it stores through it"));
    return failure();
  }
  return std::make_pair(kernel, *position);
}

FailureOr<GraphFuser::FusedCopy> GraphFuser::copyWithOffsets(FuncOp kernel,
                                                             unsigned position,
                                                             bool stores,
                                                             std::string &why) {
  FusedCopy copy;
  copy.fused = cloneKernel(kernel, symbols);
  copy.access = analyzePointerArg(copy.fused, position);
  PointerOffsets offsets(copy.fused.getArgument(position));
  // The address is operand 0 of both; read it anew in each pass (a loop
  // rewrite replaces the block arguments it may be).
  SmallVector<Operation *> accesses;
  if (stores)
    for (StoreOp store : copy.access.stores)
      accesses.push_back(store);
  else
    for (LoadOp load : copy.access.loads)
      accesses.push_back(load);
  // Twice: offsets carried by loops rewrite those loops, which can leave an
  // offset taken earlier stale; the second pass only reads the cache.
  for (int pass = 0; pass < 2; ++pass) {
    copy.offsets.clear();
    for (Operation *op : accesses) {
      FailureOr<Value> off = offsets.getOffset(op->getOperand(0), why);
      if (failed(off)) {
        why = llvm::formatv("a {0} of kernel @{1} at {2}: {3}",
                            stores ? "store" : "load", kernel.getName(),
                            describeLocation(op->getLoc()), why);
        symbols.erase(copy.fused);
        return failure();
      }
      copy.offsets.push_back(*off);
    }
  }
  return copy;
}

LogicalResult GraphFuser::mergeMaps(MapOp producer, MapOp consumer, AllocOp t,
                                    std::string &why) {
  Value buffer = t.getResult();
  if (!readsOneToOne(cast<MemRefType>(buffer.getType()),
                     consumer.getOutputType())) {
    why = "the second map broadcasts the intermediate buffer";
    return failure();
  }
  if (llvm::is_contained(producer.getInputs(), consumer.getOutput())) {
    why = "the first map reads the second map's output";
    return failure();
  }
  SmallVector<Value> producerReads;
  for (Value in : producer.getInputs())
    if (isa<MemRefType>(in.getType()))
      producerReads.push_back(in);
  if (failed(checkBetween(producer, consumer, producerReads, {}, why)))
    return failure();

  // The merged map: the consumer's inputs but the buffer, then the
  // producer's (each value once).
  SmallVector<Value> inputs;
  for (Value in : consumer.getInputs())
    if (in != buffer && !llvm::is_contained(inputs, in))
      inputs.push_back(in);
  for (Value in : producer.getInputs())
    if (!llvm::is_contained(inputs, in))
      inputs.push_back(in);
  OpBuilder b(consumer);
  // The merged map carries its inputs' size contract; the
  // intermediate's, which disappears, becomes checks here.
  emitMapChecks(b, consumer, buffer);
  auto merged = MapOp::create(
      b, FusedLoc::get(b.getContext(), {producer.getLoc(), consumer.getLoc()}),
      inputs, consumer.getOutput());
  Block *block = b.createBlock(&merged.getBody());
  DenseMap<Value, Value> argOf;
  for (Value in : inputs)
    argOf[in] = block->addArgument(mlir::getElementTypeOrSelf(in.getType()),
                                   consumer.getLoc());
  IRMapping mapping;
  Block &first = producer.getBody().front();
  for (auto [arg, in] : llvm::zip(first.getArguments(), producer.getInputs()))
    mapping.map(arg, argOf[in]);
  for (Operation &op : first.without_terminator())
    b.clone(op, mapping);
  Value intermediate = mapping.lookup(first.getTerminator()->getOperand(0));
  Block &second = consumer.getBody().front();
  for (auto [arg, in] : llvm::zip(second.getArguments(), consumer.getInputs()))
    mapping.map(arg, in == buffer ? intermediate : argOf[in]);
  for (Operation &op : second)
    b.clone(op, mapping);
  remark(consumer, llvm::formatv("merged with the map at {0}, which writes "
                                 "its input, into one map",
                                 describeLocation(producer.getLoc())));
  consumer.erase();
  producer.erase();
  t.erase();
  return success();
}

SmallVector<Value> GraphFuser::mapOperandsAt(OpBuilder &b, Location loc,
                                             MapOp map, ArrayRef<Value> values,
                                             const MapInputs &inputs,
                                             Value buffer, Value stored,
                                             Value off, Value mask,
                                             Operation *like) {
  SmallVector<Value> args;
  for (auto [in, value] : llvm::zip(map.getInputs(), values)) {
    if (buffer && in == buffer)
      args.push_back(stored);
    else if (auto t = dyn_cast<MemRefType>(in.getType()))
      args.push_back(loadMapInput(b, loc, t, map.getOutputType(), value, off,
                                  mask, inputs.dims, like));
    else
      args.push_back(value);
  }
  return args;
}

FailureOr<LaunchOp> GraphFuser::relaunch(FuncOp fused, unsigned position,
                                         LaunchOp launch, MapOp map,
                                         SmallVectorImpl<Value> &operands,
                                         std::string &why) {
  if (failed(eraseIntermediateArgument(fused, position, symbols, why)))
    return failure();
  operands.erase(operands.begin() + position);
  OpBuilder b(launch);
  emitMapChecks(b, map);
  return LaunchOp::create(b, launch.getLoc(),
                          FlatSymbolRefAttr::get(fused.getNameAttr()),
                          launch.getGrid(), operands);
}

LogicalResult GraphFuser::fuseEpilogue(LaunchOp producer, MapOp consumer,
                                       AllocOp t, std::string &why) {
  Value buffer = t.getResult();
  Value output = consumer.getOutput();
  if (!readsOneToOne(cast<MemRefType>(buffer.getType()),
                     consumer.getOutputType())) {
    why = "the map broadcasts the kernel's result";
    return failure();
  }
  // Applied at each store, an in-place map would read what an earlier
  // store of the same element already wrote.
  if (llvm::is_contained(consumer.getInputs(), output)) {
    why = "the map writes one of its inputs (in place)";
    return failure();
  }
  FailureOr<std::pair<FuncOp, unsigned>> target =
      getFusableKernel(producer, buffer, /*stores=*/true, why);
  if (failed(target))
    return failure();
  auto [kernel, position] = *target;
  // The launch must not write what the map reads, nor touch its output.
  SmallVector<Value> mapReads;
  for (Value in : consumer.getInputs())
    if (in != buffer && isa<MemRefType>(in.getType()))
      mapReads.push_back(in);
  for (BufferAccess a : getAccesses(producer))
    if (a.buffer == output ||
        (a.write && llvm::is_contained(mapReads, a.buffer))) {
      why = a.buffer == output ? "the launch also uses the map's output"
                               : "the launch writes an input of the map";
      return failure();
    }
  if (failed(checkBetween(producer, consumer, mapReads, {output}, why)))
    return failure();
  for (Value in : consumer.getInputs())
    if (in != buffer && failed(hoistBefore(in, producer))) {
      why = "an input of the map is computed after the launch";
      return failure();
    }
  if (failed(hoistBefore(output, producer))) {
    why = "the map's output is allocated after the launch";
    return failure();
  }

  FailureOr<FusedCopy> copy =
      copyWithOffsets(kernel, position, /*stores=*/true, why);
  if (failed(copy))
    return failure();
  FuncOp fused = copy->fused;
  SmallVector<Value> operands(producer.getArgs());
  MapInputs inputs =
      addMapArguments(fused, consumer, buffer, output, producer, operands);
  Value outputPtr = inputs.values.front();
  ArrayRef<Value> values = ArrayRef<Value>(inputs.values).drop_front();
  for (auto [store, off] : llvm::zip(copy->access.stores, copy->offsets)) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    SmallVector<Value> args =
        mapOperandsAt(b, loc, consumer, values, inputs, buffer,
                      store.getValue(), off, store.getMask(), nullptr);
    Value result =
        emitMapBody(b, loc, consumer.getBody().front(), args,
                    dyn_cast<RankedTensorType>(store.getValue().getType()));
    auto newStore = StoreOp::create(
        b, loc, offsetPointer(b, loc, outputPtr, off), result, store.getMask());
    for (NamedAttribute a : store->getDiscardableAttrs())
      newStore->setAttr(a.getName(), a.getValue());
    store.erase();
  }
  if (failed(relaunch(fused, position, producer, consumer, operands, why)))
    return failure();
  std::string source = kernel.getName().str();
  producer.erase();
  eraseIfUnused(kernel, fused, symbols);
  remark(consumer, llvm::formatv("fused into the stores of @{0} (epilogue) "
                                 "as @{1}",
                                 source, fused.getName()));
  consumer.erase();
  t.erase();
  return success();
}

LogicalResult GraphFuser::fusePrologue(MapOp producer, LaunchOp consumer,
                                       AllocOp t, std::string &why) {
  Value buffer = t.getResult();
  if (llvm::is_contained(producer.getInputs(), buffer)) {
    why = "the map reads its own output";
    return failure();
  }
  FailureOr<std::pair<FuncOp, unsigned>> target =
      getFusableKernel(consumer, buffer, /*stores=*/false, why);
  if (failed(target))
    return failure();
  auto [kernel, position] = *target;
  SmallVector<Value> mapReads;
  for (Value in : producer.getInputs())
    if (isa<MemRefType>(in.getType()))
      mapReads.push_back(in);
  // Traffic: fused, every load of the intermediate reads the map's inputs
  // instead (per element: their bytes for the intermediate's); unfused,
  // the map reads them and writes the intermediate once. A kernel that
  // loads each element at several places (a row walked once per pass)
  // multiplies the difference; refuse where fusing moves more bytes.
  auto bytesOf = [](Type t) {
    return int64_t(cast<MemRefType>(t).getElementTypeBitWidth() / 8);
  };
  int64_t inBytes = 0, outBytes = bytesOf(buffer.getType());
  for (Value in : mapReads)
    if (readsOneToOne(cast<MemRefType>(in.getType()),
                      producer.getOutputType()))
      inBytes += bytesOf(in.getType());
  int64_t sites = analyzePointerArg(kernel, position).loads.size();
  if (sites * (inBytes - outBytes) >= inBytes + outBytes) {
    why = llvm::formatv("the kernel loads the buffer at {0} places, each of "
                        "which would read the map's {1} bytes of inputs per "
                        "element instead of {2}: more traffic than writing "
                        "the buffer once ({3} bytes per element)",
                        sites, inBytes, outBytes, inBytes + outBytes);
    return failure();
  }
  for (BufferAccess a : getAccesses(consumer))
    if (a.write && llvm::is_contained(mapReads, a.buffer)) {
      why = "the launch writes an input of the map";
      return failure();
    }
  if (failed(checkBetween(producer, consumer, mapReads, {}, why)))
    return failure();

  FailureOr<FusedCopy> copy =
      copyWithOffsets(kernel, position, /*stores=*/false, why);
  if (failed(copy))
    return failure();
  FuncOp fused = copy->fused;
  SmallVector<Value> operands(consumer.getArgs());
  MapInputs inputs =
      addMapArguments(fused, producer, Value(), Value(), consumer, operands);
  for (auto [load, off] : llvm::zip(copy->access.loads, copy->offsets)) {
    OpBuilder b(load);
    Location loc = load.getLoc();
    SmallVector<Value> args =
        mapOperandsAt(b, loc, producer, inputs.values, inputs, Value(), Value(),
                      off, load.getMask(), load);
    auto like = dyn_cast<RankedTensorType>(load.getType());
    Value result = emitMapBody(b, loc, producer.getBody().front(), args, like);
    if (Value mask = load.getMask()) {
      // Masked-off elements read as `other`, or zero.
      Value other = load.getOther();
      if (!other)
        other =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(load.getType()));
      result = arith::SelectOp::create(b, loc, mask, result, other);
    }
    load.replaceAllUsesWith(result);
    load.erase();
  }
  FailureOr<LaunchOp> launch =
      relaunch(fused, position, consumer, producer, operands, why);
  if (failed(launch))
    return failure();
  std::string source = kernel.getName().str();
  consumer.erase();
  eraseIfUnused(kernel, fused, symbols);
  remark(*launch, llvm::formatv("fused the map at {0} into the loads of @{1} "
                                "(prologue) as @{2}",
                                describeLocation(producer.getLoc()), source,
                                fused.getName()));
  producer.erase();
  t.erase();
  return success();
}

bool GraphFuser::tryFuse(AllocOp t) {
  Value buffer = t.getResult();
  // Shape queries of the intermediate read its allocation's sizes.
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
    if (auto dim = dyn_cast<memref::DimOp>(user)) {
      std::optional<int64_t> d = dim.getConstantIndex();
      if (!d)
        continue;
      OpBuilder b(dim);
      dim.replaceAllUsesWith(getDimValue(b, dim.getLoc(), buffer, *d));
      dim.erase();
    }
  llvm::SetVector<Operation *> writers, readers;
  DenseSet<Operation *> users;
  for (Operation *user : buffer.getUsers()) {
    if (!users.insert(user).second)
      continue;
    for (BufferAccess a : getAccesses(user))
      if (a.buffer == buffer)
        (a.write ? writers : readers).insert(user);
  }
  if (users.empty()) {
    t.erase();
    return true;
  }
  // Nothing reads it: the maps and reductions writing it are dead.
  if (readers.empty() && llvm::all_of(users, [](Operation *op) {
        return isa<MapOp, RowReduceOp>(op);
      })) {
    for (Operation *op : users) {
      // Its size contract still holds the graph's arguments to account.
      OpBuilder b(op);
      if (auto map = dyn_cast<MapOp>(op))
        emitMapChecks(b, map);
      else
        emitRowReduceChecks(b, cast<RowReduceOp>(op));
      remark(op, "removed: nothing reads the buffer it writes");
      op->erase();
    }
    t.erase();
    return true;
  }
  // Row reductions fuse as row groups (fuseRowGroup), not in pairs.
  if (llvm::any_of(users, [](Operation *op) { return isa<RowReduceOp>(op); }))
    return false;
  // One writer, one later reader (a launch that also reads what it writes
  // is the writer; fuseEpilogue says why that does not fuse).
  bool involvesMap =
      llvm::any_of(users, [](Operation *op) { return isa<MapOp>(op); });
  if (writers.size() != 1) {
    if (reportRefusals && involvesMap && writers.size() > 1)
      remark(writers.back(), llvm::formatv("not fused: {0} ops write the "
                                           "buffer it writes",
                                           writers.size()));
    return false;
  }
  Operation *writer = writers.front();
  readers.remove(writer);
  if (readers.size() != 1 || users.size() != 2) {
    if (reportRefusals && involvesMap && users.size() > 2)
      remark(writer, llvm::formatv("not fused: the buffer it writes has {0} "
                                   "other users",
                                   users.size() - 1));
    return false;
  }
  Operation *reader = readers.front();
  if (!writer->isBeforeInBlock(reader)) {
    if (reportRefusals && involvesMap)
      remark(reader, "not fused: it reads the buffer before the op that "
                     "writes it");
    return false;
  }
  std::string why;
  LogicalResult fused = failure();
  StringRef kind;
  if (auto first = dyn_cast<MapOp>(writer)) {
    if (auto second = dyn_cast<MapOp>(reader)) {
      kind = "into the map that reads its output";
      fused = mergeMaps(first, second, t, why);
    } else {
      kind = "into the loads of the launch (prologue)";
      fused = fusePrologue(first, cast<LaunchOp>(reader), t, why);
    }
  } else if (auto map = dyn_cast<MapOp>(reader)) {
    kind = "into the stores of the launch (epilogue)";
    fused = fuseEpilogue(cast<LaunchOp>(writer), map, t, why);
  } else {
    return false;
  }
  if (failed(fused)) {
    if (reportRefusals)
      remark(reader, llvm::formatv("not fused {0}: {1}", kind, why));
    return false;
  }
  return true;
}

SmallVector<Operation *> GraphFuser::collectRowGroup(RowReduceOp seed) {
  RowSpace space = RowSpace::of(seed);
  llvm::SetVector<Operation *> group;
  group.insert(seed);
  // Grow through intermediates (allocations): graph arguments are not
  // values the group could keep in registers.
  for (size_t i = 0; i < group.size(); ++i)
    for (BufferAccess a : getAccesses(group[i])) {
      if (!a.buffer.getDefiningOp<AllocOp>())
        continue;
      for (Operation *user : a.buffer.getUsers())
        if (!group.contains(user) && space.contains(user))
          group.insert(user);
    }
  SmallVector<Operation *> ops = group.takeVector();
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ops;
}

LogicalResult GraphFuser::checkRowGroup(ArrayRef<Operation *> group,
                                        std::string &why) {
  DenseSet<Operation *> members(group.begin(), group.end());
  DenseMap<Value, Operation *> writerOf;
  SmallVector<Value> read, written;
  SmallVector<std::pair<Operation *, Value>> reads;
  for (Operation *op : group)
    for (BufferAccess a : getAccesses(op)) {
      if (!a.write) {
        read.push_back(a.buffer);
        reads.push_back({op, a.buffer});
        continue;
      }
      written.push_back(a.buffer);
      if (!writerOf.try_emplace(a.buffer, op).second) {
        why = llvm::formatv("two ops of the group write the buffer the op "
                            "at {0} writes",
                            describeLocation(op->getLoc()));
        return failure();
      }
    }
  // A value the group computes is read after it is computed.
  for (auto [op, buffer] : reads) {
    Operation *writer = writerOf.lookup(buffer);
    if (writer && !writer->isBeforeInBlock(op)) {
      why = llvm::formatv("the op at {0} reads a buffer before an op of the "
                          "group writes it",
                          describeLocation(op->getLoc()));
      return failure();
    }
  }
  return checkBetween(group.front(), group.back(), read, written, why,
                      &members, "the group");
}

bool GraphFuser::fuseRowGroup() {
  for (RowReduceOp seed : graph.getBody().getOps<RowReduceOp>()) {
    if (!triedRowSeeds.insert(seed).second)
      continue;
    SmallVector<Operation *> group = collectRowGroup(seed);
    // Alone, tile-outline-maps makes it the same kernel.
    if (group.size() < 2)
      continue;
    for (Operation *op : group)
      triedRowSeeds.insert(op);
    unsigned numReduces = llvm::count_if(
        group, [](Operation *op) { return isa<RowReduceOp>(op); });
    // A row walked in blocks is walked once per level, each walk
    // recomputing the group's values from its buffers: a deep chain of
    // reductions would grow the kernel (and its compile time) with the
    // square of the depth.
    constexpr unsigned kMaxWalkedReductions = 8;
    if (!RowSpace::of(seed).isHeldWhole(rowOptions) &&
        numReduces > kMaxWalkedReductions) {
      remark(seed, llvm::formatv("not fused with the maps around it into one "
                                 "kernel per row: {0} row reductions over "
                                 "rows walked in blocks (at most {1})",
                                 numReduces, kMaxWalkedReductions));
      continue;
    }
    std::string why;
    if (failed(checkRowGroup(group, why))) {
      remark(seed, "not fused with the maps around it into one kernel per "
                   "row: " +
                       why);
      continue;
    }
    LaunchOp launch = outlineRowGroup(graph, group, RowSpace::of(seed),
                                      symbols, rowOptions);
    size_t numMaps = group.size() - numReduces;
    remark(launch,
           llvm::formatv("fused {0} row reduction{1} and {2} map{3} into "
                         "@{4}, one program per row",
                         numReduces, numReduces == 1 ? "" : "s", numMaps,
                         numMaps == 1 ? "" : "s",
                         launch.getKernelAttr().getRootReference().getValue()));
    return true;
  }
  return false;
}

void GraphFuser::run() {
  // Each success erases ops: rescan from the start until nothing changes
  // (a fusion can make another legal). Then, with remarks, one more sweep
  // reports the refusals left.
  for (;;) {
    // Row groups first: a map they would take in must not go to a kernel's
    // epilogue (a GroupNorm's f32 conversion would make the convolution
    // before it write f32).
    if (fuseRowGroup())
      continue;
    bool changed = false;
    for (AllocOp t : llvm::to_vector(graph.getBody().getOps<AllocOp>()))
      if (tryFuse(t)) {
        changed = true;
        break;
      }
    if (changed)
      continue;
    if (remarks && !reportRefusals) {
      reportRefusals = true;
      continue;
    }
    return;
  }
}

struct TileFuseKernelsPass
    : public tilec::impl::TileFuseKernelsPassBase<TileFuseKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    RowKernelOptions rowOptions;
    rowOptions.maxRowBlock = maxRowBlock;
    for (GraphOp graph : llvm::to_vector(module.getBody()->getOps<GraphOp>())) {
      auto reduces = graph.getBody().getOps<RowReduceOp>();
      if (!reduces.empty() &&
          failed(checkRowOptions(*reduces.begin(), maxRowBlock)))
        return signalPassFailure();
      GraphFuser(graph, symbols, remarks, rowOptions).run();
    }
  }
};

} // namespace
