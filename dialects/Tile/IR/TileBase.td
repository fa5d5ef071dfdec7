//===- TileBase.td - The tile dialect definition -----------*- tablegen -*-===//
//
// The `tile` dialect: tile programs (Triton-style kernels over whole blocks of
// elements) with static tensor shapes, pointers to global memory and, after
// layout assignment, per-tensor encodings that say which thread holds which
// element.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_BASE_TD
#define TILE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Tile programs: kernels over blocks of elements";
  let description = [{
    The tile dialect holds tile programs: kernels written over whole blocks of
    elements (tiles) with program ids, ranges, masked loads and stores. Tiles
    are builtin ranked tensors with static shapes; pointers are `!tile.ptr<T>`.
    Elementwise arithmetic uses `arith` and `math` on tensors and control flow
    uses `scf`. Semantics follow triton.language where an op exists there.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // Folded tile.splat of a constant: an arith.constant.
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Argument attribute: the value (an integer, or a pointer's address in
    /// bytes) is a multiple of this power of two.
    static constexpr ::llvm::StringLiteral getDivisibilityAttrName() {
      return "tile.divisibility";
    }
    /// Function attribute (a string): the name of the kernel's aligned
    /// variant, a kernel of the module that computes the same from the same
    /// arguments with stronger facts on them (tile-version-alignment); the
    /// runtime launches it where the arguments have those facts.
    static constexpr ::llvm::StringLiteral getAlignedVariantAttrName() {
      return "tile.aligned_variant";
    }
    /// Argument attribute: the integer argument equals this value (Triton
    /// specializes `== 1`).
    static constexpr ::llvm::StringLiteral getEqualToAttrName() {
      return "tile.equal_to";
    }
    /// Argument attribute (unit): the integer argument, or the integers a
    /// pointer argument points to, are unsigned (`u32`, `*u32` in the
    /// signature). The IR's integers stay signless; this only keeps the
    /// signature's signedness for the kernel's metadata and the runtime.
    static constexpr ::llvm::StringLiteral getUnsignedAttrName() {
      return "tile.unsigned";
    }
    /// Argument attribute (a block tensor type): the pointer argument and
    /// the 2 * rank - 1 arguments after it are a host-side tensor
    /// descriptor (`tensordesc<fp16[64,64]>` in the signature): base, shape
    /// (rank i32s), strides but the last, which is 1 (rank - 1 i64s).
    static constexpr ::llvm::StringLiteral getTensorDescAttrName() {
      return "tile.tensordesc";
    }
    /// Argument attribute on a `!tile.tensormap` argument:
    /// `{box = array<i64: ...>, swizzle = 32|64|128}` -- the TMA box
    /// (outermost dimension first) and swizzle in bytes the runtime encodes
    /// the tensor map with (`cuTensorMapEncodeTiled`); `nan_fill` for NaN
    /// padding.
    static constexpr ::llvm::StringLiteral getTMAAttrName() {
      return "tile.tma";
    }
    /// Argument attribute on a `!tile.tensormap` argument after every other
    /// (a "launch map"): the runtime encodes it from the scalar arguments,
    /// for a `tl.make_tensor_descriptor` of the kernel's pointer argument:
    /// `{element = f16, base = B : i32, shape = ["E", ...], strides =
    /// ["E", ...]}` -- the element type, the signature entry of the base
    /// pointer, and the sizes and strides but the last (which is 1),
    /// outermost first, as postfix integer expressions over signature
    /// entries and constants (docs/runtime.md, `launch_maps=`).
    static constexpr ::llvm::StringLiteral getTMASourceAttrName() {
      return "tile.tma_source";
    }
    /// tile.load / tile.store attribute: Triton's cache_modifier, the PTX
    /// cache operator of the access (load: ".ca", ".cg", ".cv"; store:
    /// ".wb", ".cg", ".cs", ".wt"; PTX ISA 9.7.9.8 / 9.7.9.9).
    static constexpr ::llvm::StringLiteral getCacheModifierAttrName() {
      return "tile.cache_modifier";
    }
    /// tile.load / tile.store attribute: Triton's eviction_policy, the L1
    /// eviction priority ("evict_first", "evict_last"; not with a cache
    /// modifier, which PTX does not combine with it).
    static constexpr ::llvm::StringLiteral getEvictionPolicyAttrName() {
      return "tile.eviction_policy";
    }
    /// tile.load attribute (unit): tl.load(volatile=True), `ld.volatile`;
    /// the load also counts as a write, so it is never merged or moved.
    static constexpr ::llvm::StringLiteral getVolatileAttrName() {
      return "tile.volatile";
    }
    /// Function attribute: warps per CTA (threads = 32 * num_warps).
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return "tile.num_warps";
    }
    /// Function attribute set by tile-pipeline: the kernel shares TMA
    /// copies between the CTAs of thread-block clusters of this many CTAs
    /// (2); the runtime launches it in clusters along x when the grid's x
    /// is a multiple, else without (the kernel then copies alone).
    static constexpr ::llvm::StringLiteral getClusterSizeAttrName() {
      return "tile.cluster_size";
    }
    /// Function attribute: the most registers a thread of the kernel may
    /// use (Triton's `maxnreg`; PTX `.maxnreg`, PTX ISA 11.4.1), an i32 in
    /// [16, 255]. ptxas then schedules for that budget: a kernel whose
    /// occupancy its registers limit gets more loads in flight (the
    /// 16384-wide layer norm: 112 -> 125 registers, 1.24x on an H100).
    static constexpr ::llvm::StringLiteral getMaxNRegAttrName() {
      return "tile.maxnreg";
    }
    /// Function attribute: software-pipelining depth of loops.
    static constexpr ::llvm::StringLiteral getNumStagesAttrName() {
      return "tile.num_stages";
    }
    /// Function attribute set by tile-allocate-shared: dynamic shared
    /// memory in bytes.
    static constexpr ::llvm::StringLiteral getSharedBytesAttrName() {
      return "tile.shared";
    }
    /// Op attribute set by tile-allocate-shared: the byte offset, in the
    /// kernel's dynamic shared memory, of a `tile.local_alloc`'s buffer or
    /// of the scratch space an op needs while it runs (a layout conversion,
    /// a reduction's or scan's exchange across warps, a scalar atomic's
    /// broadcast). A 16-byte-aligned i32; the dialect verifies it.
    static constexpr ::llvm::StringLiteral getSharedOffsetAttrName() {
      return "tile.shared_offset";
    }
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_BASE_TD
