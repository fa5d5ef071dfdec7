//===- SIMTUtils.h - Shared helpers of the SIMT lowering --------*- C++ -*-===//
//
// The per-thread view of tiles used by every SIMT lowering pattern: the type
// converter (a tile becomes the vector of the elements its encoding gives one
// thread; pointers become i64 addresses), emission of thread coordinates
// from the layout math in dialects/Tile/IR/Layouts.h, and small builders for
// LLVM vector values.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_SIMT_SIMTUTILS_H
#define TILEC_PASSES_SIMT_SIMTUTILS_H

#include "dialects/Tile/IR/Layouts.h"
#include "dialects/Tile/IR/TileOps.h"
#include "passes/Analysis/AxisInfo.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec::simt {

/// tensor<S x T, #enc> -> vector<N x T'> (N = elements per thread; T' = i64
/// for pointers, else T); !tile.ptr<T> -> i64; other types unchanged.
class TileTypeConverter : public mlir::TypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *ctx);
};

/// Name of the extern shared-memory array every kernel's dynamic shared
/// memory is addressed through.
inline constexpr llvm::StringLiteral kSharedMemoryName = "tilec_shared";

/// An i32 constant.
mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// An i64 constant.
mlir::Value i64Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// `threadIdx.x % 32` and `threadIdx.x / 32` (i32); inside a
/// warp-specialized partition (an op marked kPartitionAttr around the
/// insertion point), the thread and warp indices count from the
/// partition's first thread, so that a consumer group's tensors are laid
/// out over its own warps.
mlir::Value emitThreadId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value emitLaneId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value emitWarpId(mlir::OpBuilder &b, mlir::Location loc);
/// "This is thread 0 of the CTA" (i1): the one thread that does what must
/// happen once per CTA (a scalar store or atomic, an mbarrier or TMA op).
/// Inside a warp-specialized partition (an op marked kPartitionAttr around
/// the insertion point), the partition's first thread.
mlir::Value emitIsThreadZero(mlir::OpBuilder &b, mlir::Location loc);

/// The `[first thread, threads, named barrier]` (DenseI32ArrayAttr) of the
/// threads that run the regions of the op carrying it: a lowered
/// tile.warp_specialize partition (LowerToSIMT.cpp), whose CTA barriers
/// become `bar.sync` of that named barrier and that many threads.
inline constexpr llvm::StringLiteral kPartitionAttr = "tile.partition";

/// The kPartitionAttr of the nearest op around `op` (inclusive) carrying
/// one, or null: code outside a partition runs on every thread.
mlir::DenseI32ArrayAttr getPartition(mlir::Operation *op);

/// The XOR of `bases[i]` over the set bits i of `id` (i32), emitted as
/// shifts and masks (runs of consecutive bits mapping to consecutive
/// powers of two become one shift-and-mask). `mayBeSet` receives the bits
/// the result can have. Returns a constant 0 when every basis is zero.
mlir::Value emitLinearFunction(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value id, llvm::ArrayRef<int64_t> bases,
                               int64_t *mayBeSet = nullptr);

/// The bits of `id` (i32) selected by `mask`, packed into the low bits in
/// order (pext): e.g. the index of this warp among the warps along an axis.
mlir::Value extractBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id,
                        uint64_t mask);

/// The thread-dependent part of a linear layout's coordinates: per tile
/// dimension, the XOR of the bases of this thread's lane and warp bits, and
/// the bits it may have set.
struct ThreadCoords {
  llvm::SmallVector<mlir::Value> part;
  llvm::SmallVector<int64_t> mayBeSet;
};
ThreadCoords emitThreadCoords(mlir::OpBuilder &b, mlir::Location loc,
                              const tile::LinearLayout &layout);

/// Coordinates (i32, one per tile dimension) of register `reg` of this
/// thread: the thread part XOR the register's bases (an add when their bits
/// are disjoint, which lets LLVM fold it into addressing).
llvm::SmallVector<mlir::Value>
emitElementCoords(mlir::OpBuilder &b, mlir::Location loc,
                  const tile::LinearLayout &layout, const ThreadCoords &thread,
                  int64_t reg);

/// Row-major linear index (i32) of `coords` in `shape`.
mlir::Value emitRowMajorIndex(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<mlir::Value> coords,
                              llvm::ArrayRef<int64_t> shape);

/// The linear layout of a laid-out tile type (asserts it is valid: the
/// lowering checks every tile before it starts).
tile::LinearLayout getLayout(mlir::Type tensorType);

/// Element `i` of a vector value.
mlir::Value extractElement(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value vec, int64_t i);
/// `vec` with element `i` replaced by `v`.
mlir::Value insertElement(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value vec, mlir::Value v, int64_t i);
/// A vector of `n` copies of scalar `v`.
mlir::Value splatVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                        int64_t n);
/// Elements [start, start + n) of `vec` as a vector<n x T> (n > 1) or the
/// scalar (n == 1).
mlir::Value sliceVector(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value vec, int64_t start, int64_t n);
/// An undefined vector of type `type` (poison) to insert elements into.
mlir::Value poisonValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Type type);
/// Applies the scalar builder `fn` to corresponding elements of `xs` (all
/// scalars, or all vectors of one length) and gathers the results into a
/// vector of `resultElem` (the scalar result when `xs` are scalars).
mlir::Value mapElements(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange xs, mlir::Type resultElem,
                        llvm::function_ref<mlir::Value(mlir::ValueRange)> fn);
/// Clones the combiner `region` of a tile.reduce / tile.scan (block
/// arguments: the lhs values, then the rhs values) at `b` on `lhs` and
/// `rhs`; returns the values its terminator yields.
llvm::SmallVector<mlir::Value> cloneCombiner(mlir::OpBuilder &b,
                                             mlir::Region &region,
                                             llvm::ArrayRef<mlir::Value> lhs,
                                             llvm::ArrayRef<mlir::Value> rhs);
/// The `shfl.sync` variants the lowering uses (PTX ISA 9.7.8.6).
enum class ShuffleKind { Xor, Up, Down };
/// A full-warp `shfl.sync` of a scalar of up to 64 bits (narrower values
/// travel zero-extended in an i32, 64-bit ones as two i32 halves).
mlir::Value warpShuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                        int64_t offset, ShuffleKind kind);
/// An inline-PTX `llvm.inline_asm` (AT&T dialect, no operand attributes):
/// `$N` operands, LLVM constraint string (`=r,b,l`, ...).
mlir::Operation *createInlineAsm(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::TypeRange results,
                                 mlir::ValueRange operands,
                                 llvm::StringRef text,
                                 llvm::StringRef constraints,
                                 bool hasSideEffects);

/// `@pred st.shared.bN [addr], value;` (PTX ISA 9.7.9.10): stores scalar
/// `value` (an integer or float of 1 to 64 bits; those under 16 bits as one
/// byte) at the shared-memory pointer `addr` in the threads where the i1
/// `pred` holds. A predicated store, not a branch around one.
void createPredicatedSharedStore(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value pred, mlir::Value addr,
                                 mlir::Value value);

/// A pointer (address space 3) `byteOffset` bytes into the kernel's
/// dynamic shared memory.
mlir::Value getSharedBase(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t byteOffset);
/// "This thread is the first replica of its elements": the lane and warp
/// bits whose basis is zero in `layout` are all clear (null if none are).
mlir::Value emitReplicaPredicate(mlir::OpBuilder &b, mlir::Location loc,
                                 const tile::LinearLayout &layout);
/// Stores a thread's fragment `vals` (vector<N x T>) to shared memory at
/// `base` (element type T, address space 3), register r at element offset
/// `offsets`(r, lane, warp) ^ xorOffset (a 1-D layout: OffsetMap::compose).
/// Vector stores of up to 16 bytes and `maxVec` registers; replicas stored
/// once.
void storeToShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                   mlir::Value vals, const tile::LinearLayout &offsets,
                   int64_t maxVec = 16, int64_t xorOffset = 0);
/// Loads a thread's fragment of type `type` from shared memory at `base`,
/// register r from element offset `offsets`(r, lane, warp).
mlir::Value loadFromShared(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value base, mlir::VectorType type,
                           const tile::LinearLayout &offsets,
                           int64_t maxVec = 16, int64_t xorOffset = 0);
/// The thread part of a 1-D offset layout (emitThreadCoords), XOR a
/// constant offset (a view's origin in a swizzled buffer).
ThreadCoords emitThreadOffsets(mlir::OpBuilder &b, mlir::Location loc,
                               const tile::LinearLayout &offsets,
                               int64_t xorOffset);

/// Loads `vec` elements of `elem` at global address `addr` (i64),
/// predicated on `pred` (if any; masked-off lanes get `other` or zero).
mlir::Value loadGlobalChunk(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value addr, mlir::Value pred,
                            mlir::Value other, mlir::Type elem, int64_t vec);
/// Whether tile.async_copy `op` copies chunks under 4 bytes (no cp.async):
/// synchronous loads and shared stores, writes through the generic proxy.
bool isNarrowAsyncCopy(tile::AsyncCopyOp op, const mlir::TypeConverter &tc,
                       const ModuleAxisInfo &axis);
/// Patterns for the shared-memory ops (local_alloc / load / store, memdesc
/// views, async copies).
void populateSharedMemoryToSIMTPatterns(TileTypeConverter &converter,
                                        const ModuleAxisInfo &axis,
                                        mlir::RewritePatternSet &patterns);
/// Patterns for the memory ops (tile.load, tile.store).
void populateMemoryOpToSIMTPatterns(TileTypeConverter &converter,
                                    const ModuleAxisInfo &axis,
                                    mlir::RewritePatternSet &patterns);
/// How a conversion between two distributed layouts moves data
/// (LayoutConversions.cpp).
struct ConversionPlan {
  enum class Kind { Registers, WarpShuffle, Shared };
  Kind kind = Kind::Shared;
  /// Registers / WarpShuffle: per target register, the source register.
  llvm::SmallVector<int64_t> srcRegister;
  /// WarpShuffle: the source lane is the XOR of `laneBases[i]` over the set
  /// bits i of the lane id, XOR `srcLaneXor[r]` for target register r.
  llvm::SmallVector<int64_t> laneBases;
  llvm::SmallVector<int64_t> srcLaneXor;
  /// WarpShuffle: lanes map to themselves (registers with srcLaneXor 0 need
  /// no shuffle).
  bool identityLanes = false;
};
/// Plans the conversion of a tile from layout `src` to layout `dst` (same
/// shape): in registers, by warp shuffles, or through shared memory.
ConversionPlan planConversion(const tile::LinearLayout &src,
                              const tile::LinearLayout &dst);
/// Converts a thread's fragment `src` (element type `elem`) from layout
/// `src` to layout `dst` (same shape) by the plan planConversion picks;
/// the shared-memory exchange uses the buffer at `byteOffset`.
mlir::Value convertLayout(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value src, const tile::LinearLayout &srcLayout,
                          const tile::LinearLayout &dstLayout,
                          mlir::Type elem, int64_t byteOffset);
/// A tile whose value is defined only at the first replica of each element
/// (`vals`, layout `layout`: the result of an op issued by one owner, such
/// as an atomic) made whole: every replica receives its owner's value, by
/// register copies (register replication), `shfl.sync.idx` from the lane
/// with the free lane bits clear (lane replication), or through shared
/// memory at `byteOffset` when warps replicate (a barrier; the op must then
/// reserve getBroadcastReplicasBytes as scratch).
mlir::Value broadcastReplicas(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value vals,
                              const tile::LinearLayout &layout,
                              mlir::Type elem, int64_t byteOffset);
/// Shared bytes broadcastReplicas needs for a tile of `type` (0 unless
/// warps replicate its elements).
int64_t getBroadcastReplicasBytes(mlir::RankedTensorType type);
/// `shfl.sync.idx` of a scalar of up to 64 bits from lane `srcLane` (i32).
mlir::Value warpShuffleIdx(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value v, mlir::Value srcLane);

/// Patterns for layout conversions and reshapes through shared memory.
void populateLayoutConversionToSIMTPatterns(TileTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns);
/// fp32 exp/exp2 to ex2.approx (as Triton); marks them illegal in `target`.
void populateMathToSIMTPatterns(TileTypeConverter &converter,
                                mlir::ConversionTarget &target,
                                mlir::RewritePatternSet &patterns);
/// Patterns for tile.atomic_rmw and tile.atomic_cas.
void populateAtomicToSIMTPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// Shared-memory bytes a scalar atomic needs to broadcast its old value.
int64_t getAtomicSharedMemoryBytes(mlir::Operation *op);
/// Float conversions PTX needs spelled out: fp8 (truncf/extf touching fp8
/// become illegal; to fp8 needs sm_89+, from fp8 uses sm_89's cvt or, on
/// `chip` sm_80, integer arithmetic) and toward-zero truncf (cvt.rz).
void populateFloatConversionToSIMTPatterns(TileTypeConverter &converter,
                               mlir::ConversionTarget &target,
                               mlir::RewritePatternSet &patterns,
                               llvm::StringRef chip);
/// Whether `op` is a conversion the fp8 patterns lower (truncf / extf).
bool isFp8Conversion(mlir::Operation *op);
/// Patterns for tile.dot (mma.sync and FMA).
void populateDotToSIMTPatterns(TileTypeConverter &converter,
                               mlir::RewritePatternSet &patterns);
/// Patterns for tile.scan.
/// tile.histogram through shared-memory counters (Histogram.cpp).
void populateHistogramToSIMTPatterns(TileTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
/// The counters' bytes: 4 per bin.
int64_t getHistogramSharedMemoryBytes(tile::HistogramOp op);
/// tile.gather through the source stored in shared memory (Gather.cpp).
void populateGatherToSIMTPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// The source's bytes in shared memory (i1 as a byte, pointers as 8).
int64_t getGatherSharedMemoryBytes(tile::GatherOp op);
void populateScanToSIMTPatterns(TileTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
/// Shared-memory bytes a tile.scan needs for its cross-warp step.
int64_t getScanSharedMemoryBytes(tile::ScanOp op);
/// Patterns for tile.print (gpu.printf per element) and tile.assert
/// (__assertfail) (Debug.cpp).
void populateDebugToSIMTPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// tile.elementwise_inline_asm: one llvm.inline_asm per pack of a thread's
/// registers, narrow elements packed into 32-bit registers (InlineAsm.cpp).
void populateInlineAsmToSIMTPatterns(TileTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
/// Patterns for tile.reduce.
void populateReduceToSIMTPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// Shared-memory bytes a tile.reduce needs for its cross-warp step.
int64_t getReduceSharedMemoryBytes(tile::ReduceOp op);
/// Bytes of scratch shared memory `op` needs while it runs (0 if none): a
/// layout conversion, transpose or reshape through shared memory, a
/// reduction's or scan's exchange across warps, a scalar atomic's
/// broadcast, a histogram's counters, a gather's source.
/// tile-allocate-shared gives each such op its `tile.shared_offset`; its
/// lowering writes and reads only [offset, offset + bytes), with a CTA
/// barrier between its writes and reads, and tile-insert-barriers orders
/// it against other accesses.
int64_t getScratchBytes(mlir::Operation *op);
/// The byte offset tile-allocate-shared recorded on `op`; an error at `op`
/// if it is missing.
mlir::FailureOr<int64_t> getSharedOffset(mlir::Operation *op);

/// An op whose lowering is its operand `src`, converted: a view of shared
/// memory (accesses resolve it), an address cast (pointers are i64
/// addresses per thread).
template <typename Op>
struct ForwardSrcLowering : public mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return mlir::success();
  }
};

} // namespace tilec::simt

#endif // TILEC_PASSES_SIMT_SIMTUTILS_H
