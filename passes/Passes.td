//===- Passes.td - tilec passes ----------------------------*- tablegen -*-===//
//
// The passes that take a tile program from layout-free tile IR to per-thread
// SIMT IR in upstream dialects. Grouped by the level they work at.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_PASSES_TD
#define TILEC_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Tile IR (level 1)
//===----------------------------------------------------------------------===//

def TileLowerDescriptorsPass : Pass<"tile-lower-descriptors", "mlir::ModuleOp"> {
  let summary = "rewrite tensor-descriptor accesses as masked pointer "
                "loads and stores";
  let description = [{
    Replaces each `tile.desc_load` / `tile.desc_store` through a descriptor
    made by `tile.make_tensor_desc` with a `tile.load` / `tile.store` of the
    same block: the pointer tile is the base advanced by the block's
    coordinates times the strides (a scalar, in 64 bits), plus each
    dimension's `arange` times its stride (64-bit unless the stride is the
    constant 1), and the mask keeps the elements whose coordinates lie in
    `[0, shape)` in every dimension -- the semantics of a TMA box: elements
    outside the tensor read as zero (NaN with `padding_option="nan"`) and
    are not written. The later passes then treat the accesses like any
    other (coalescing, vectorization from the strides' divisibility,
    cp.async pipelining of dot operands). Descriptors left without uses
    are erased.

    With `keep-tma-candidates` (tilec on sm_90 and newer), a 2-D load
    directly in a loop body, and a 2-D store, through a descriptor TMA can
    use stay `tile.desc_load` / `tile.desc_store`: tile-pipeline copies
    them with TMA where it can and lowers them as here otherwise. Such a
    descriptor is a host-side one (made at entry from a `tile.tensordesc`
    argument) or one the launch can encode a map for: its base a pointer
    argument with `tile.divisibility` >= 16, its sizes and strides i32/i64
    expressions of scalar arguments and constants (add, sub, mul,
    extension, truncation), the strides but the last (the constant 1) known
    multiples of 16 bytes.

    Errors: a descriptor access whose descriptor is not a
    `tile.make_tensor_desc` (carried by a loop, chosen by `scf.if`, a
    function argument): unimplemented.
  }];
  let options = [
    Option<"keepTMACandidates", "keep-tma-candidates", "bool",
           /*default=*/"false",
           "leave loads through host-side descriptors in loops for "
           "tile-pipeline (TMA)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePointerLoadsToDescriptorsPass
    : Pass<"tile-pointer-loads-to-descriptors", "mlir::ModuleOp"> {
  let summary = "masked pointer loads of dot operands as tensor-descriptor "
                "loads (so that TMA copies them)";
  let description = [{
    A 2-D `tile.load` directly in an `scf.for` body whose block only feeds
    `tile.dot` operands, written as tutorial 03 writes a GEMM's operand
    loads --

      ptrs = base + (y + arange(B0))[:, None] * s + (x + arange(B1))[None, :]
      mask = (y' + arange(B0))[:, None] < R'  &  (x' + arange(B1))[None, :] < C'
      other = 0 (or none)

    with the pointer tile advanced by a loop-invariant amount per iteration
    (`ptrs += BLOCK_K * stride`) -- becomes `tile.desc_load` of the block at
    [y, x] of a `tile.make_tensor_desc` (made at the kernel's entry) of the
    tensor [R, C] = [R' - y' + y, C' - x' + x] with strides [s, 1], where
    R, C and s are integer expressions of the scalar arguments alone (the
    bounds' loop and program-id parts cancel: `offs_k < K - k * BLOCK_K`
    is column k * BLOCK_K + j < K). The descriptor then goes the way of a
    device-side `tl.make_tensor_descriptor`: a launch map (docs/runtime.md)
    and TMA copies on an mbarrier pipeline where tile-pipeline can, a
    masked load otherwise. tilec runs it on sm_90a with wgmma unless
    `--tma-pointer-loads=false`. Integer expressions are compared as polynomials
    over the i32 values they are built from (arith.addi / subi / muli,
    constants), which is exact in wrapping i32 arithmetic.

    Conditions (else the load stays): `base` a pointer argument of the
    kernel known 16-byte aligned, `s` known a multiple of 16 bytes, one
    dimension's stride the constant 1 (a block whose first dimension is
    the contiguous one is read as the transposed box of the tensor the
    other way round, then `tile.trans`), one upper bound per dimension in
    the mask (a lower bound must be `index >= 0` on the same index or
    always true), `other` zero, the sizes not constants below 1, no store
    or atomic in the kernel to a pointer that may come from `base`, and
    every other load in the loop converted too (one kind of pipeline per
    loop).

    TMA also zero-fills elements at negative coordinates, which the mask
    does not test, so each coordinate must be bounded below by the mask,
    provably non-negative (program ids and induction variables of loops
    counting up from a non-negative bound, with non-negative
    coefficients: the `k * BLOCK_K` of a K loop), or the block's own row or
    column index as the mask writes it (`offs_m` in `offs_m < M`), then
    loop-invariant. The loop is versioned: under `scf.if` the converted
    loop runs where those indices are >= 0 and every tensor size and row
    stride >= 1, a copy of the original (masked loads) elsewhere. The
    descriptors' sizes and strides are clamped (`arith.maxsi`) to what a
    tensor map can hold, so the launch always encodes the maps; where a
    clamp changes a value the guard takes the masked loop. What remains
    assumed: no bound wraps around i32 (`k * BLOCK_K + j < K` for
    `j < K - k * BLOCK_K`).
  }];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileVersionAlignmentPass
    : Pass<"tile-version-alignment", "mlir::ModuleOp"> {
  let summary = "give kernels an aligned variant that the launch picks "
                "where the arguments are aligned, so that loads and stores "
                "vectorize";
  let description = [{
    A kernel compiled from a plain `i32` (or unaligned pointer) signature
    cannot prove that a row stride or a size is a multiple of anything, so
    its accesses stay narrow (2- or 4-byte) even when, at run time, every
    row starts 16-byte aligned. Triton's JIT specializes divisibility by 16
    itself, torch checks alignment before it picks a vectorized kernel;
    tilec compiles ahead of time, so it versions: the kernel `@k` gets a
    copy `@k__aligned` whose assumed arguments carry `tile.divisibility =
    d_i`, and `@k` the attribute `tile.aligned_variant = "k__aligned"`. Both
    are compiled; the metadata line of `k` names the variant (`aligned=`),
    and the runtime's launch runs the variant where the arguments satisfy
    its signature (`i32:8`: a multiple of 8), `k` elsewhere -- one check of
    a few integers on the host, and each kernel keeps its own registers (an
    in-kernel branch between the versions would give the fast one the slow
    one's register count, measured in docs/architecture.md).

    The arguments and divisors are found with the axis analysis: every
    integer argument (not `i1`, not `tile.equal_to`) and pointer argument
    whose signature says less than 16 is assumed a multiple of 16 (16
    bytes for a pointer), and where that widens some tile.load or
    tile.store (bytes per access: contiguity, alignment and mask constancy,
    at most 16 bytes), each argument in turn gets the smallest divisor (1,
    2, 4, 8 or 16) that keeps every access as wide -- 8 for the row stride
    of an fp16 tensor, 1 (no fact) for an argument that does not matter. A
    row of 3000 fp16 elements thus gets 16-byte accesses, where a `:16`
    signature could not be given.

    Budget: kernels with a `tile.dot` (GEMMs version their operand loops
    themselves, tile-pointer-loads-to-descriptors) or tensor-descriptor
    accesses, or with more than `max-operations` operations, are left as
    they are; at most 8 arguments are considered; a kernel gets at most
    one variant (the module's code at most doubles). With `remarks`, each
    kernel versioned or refused says so and why (tilec prints them with
    --emit=layout). Once per kernel: a kernel that has a variant, or is
    one, is left alone.

    The widths are estimated before layouts (at most 16 bytes, whatever
    the elements per thread), so a variant can ask for more than its
    layout then uses (a tile of 64 fp16 elements over 4 warps stays
    2-byte), and it may need more registers than the kernel. tilec runs
    the pipeline again without variants where one fails to compile
    (tilec::runWithVersioningFallback).
  }];
  let options = [
    Option<"maxOperations", "max-operations", "unsigned", /*default=*/"4000",
           "leave kernels with more operations unversioned (0: no limit)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "remark on each kernel versioned, or not versioned and why">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TileFlattenLoopsPass : Pass<"tile-flatten-loops", "mlir::ModuleOp"> {
  let summary = "one loop for a loop nest marked tile.flatten";
  let description = [{
    Triton's `tl.range(..., flatten=True)`: an `scf.for` with the
    `tile.flatten` attribute whose body is a side-effect-free prologue, one
    inner `scf.for` with bounds independent of the outer loop, and an
    epilogue (after loop-invariant code is hoisted out of the outer loop,
    so that inner bounds written inside it qualify) becomes one loop over
    the nest's iterations (in i64), so that
    tile-pipeline (which applies this transformation itself where the
    shared memory fits; this pass is the transformation alone, for
    tilec-opt) pipelines across the outer iterations -- a persistent
    GEMM's copies for the next tile run during this tile's epilogue, and its
    mbarriers are set up once. In the flat loop the prologue runs under
    `scf.if` at each outer iteration's first step (its results carried),
    each inner iteration argument starts from `arith.select(first, init,
    carried)`, and the epilogue runs under `scf.if` at the last step. A
    nest whose inner loop has no iterations runs the original nest with the
    inner loop's results replaced by its initial values (versioned on the
    trip count). The inner loop's attributes (num_stages, ...) move to the
    flat loop.

    A nest of another form keeps its loops (the hint is a hint):
    `--debug-only=tile-flatten-loops` says why.

    Errors: none.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// Layouts (level 2)
//===----------------------------------------------------------------------===//

def TileAssignLayoutsPass : Pass<"tile-assign-layouts", "mlir::ModuleOp"> {
  let summary = "give every tile an encoding, coalescing memory accesses";
  let description = [{
    Chooses a `#tile.blocked` encoding for every tensor in every kernel.
    Memory ops anchor the choice: for each load and store, the axis analysis
    of its pointers gives the order of dimensions (most contiguous first) and
    how many consecutive elements one thread can access with one 16-byte
    (or narrower) vector instruction. Every tile of the same shape takes the
    layout of the widest memory op of that shape; operands of
    `tile.expand_dims` take the matching `#tile.slice` and those of
    `tile.broadcast` the result's layout, the result of `tile.gather` its
    index's layout; a memory op that wants another order of dimensions gets
    `tile.convert_layout`s around it. Finally,
    conversions are pushed backwards through cheap layout-agnostic ops
    (elementwise arithmetic, splat, make_range, constants, addptr,
    broadcast, expand_dims), recomputing them in the wanted layout, so that
    only conversions of loaded values remain.

    Errors: a tile whose shape is not a power of two in every dimension
    (`unimplemented`), or a function whose `tile.num_warps` is invalid.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0",
           "warps per CTA for kernels without tile.num_warps (0: 4)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TileAccelerateDotPass : Pass<"tile-accelerate-dot", "mlir::ModuleOp"> {
  let summary = "choose tensor-core layouts for tile.dot";
  let description = [{
    Gives every `tile.dot` whose operands already have distributed
    encodings the layouts of the instruction that will compute it, with
    `tile.convert_layout`s around it so the rest of the program keeps its
    layouts. First `x + tile.dot(a, b, 0)` (the dot's only use) becomes
    `tile.dot(a, b, x)`, as Triton's CombineDotAddPattern does, except for
    a float dot with a nonzero `max_num_imprecise_acc` (fp8 on sm_90):
    there, as in Triton, the dot's sum joins `x` through an fp32 add, done
    in the dot's accumulator layout.

    - `mma.sync` (`#tile.mma` version 2, sm_80+) when the types have an
      m16n8kK shape: f16 x f16 -> f32 or f16, bf16 x bf16 -> f32,
      f32 x f32 with `input_precision = "tf32"` -> f32, i8 x i8 -> i32, and
      fp8 (e4m3 / e5m2, any mix) -> f32 on sm_89+ (on sm_80 fp8 operands
      are widened to f16 first, which is exact); M >= 16, N >= 8 and
      K >= the instruction's K (16, 8 for tf32, 32 for 8-bit). The
      operands take `#tile.dot_operand` encodings of the mma layout (K
      elements per 32-bit register: kWidth); warps are spread over M and N
      so each warp's share is as square as the 16x8 instruction allows.
    - `input_precision = "tf32x3"` is first rewritten into three tf32 dots
      on the operands split into a tf32-exact high part and the remainder
      (a_lo * b_hi + a_hi * b_lo + a_hi * b_hi), about fp32 accuracy.
    - Everything else (f32 `"ieee"`, f64, mixed operand types, shapes
      smaller than the instruction) stays on the FMA path: the result keeps
      its blocked layout, the operands take `#tile.dot_operand` encodings
      of it (every thread holding the whole K extent of its rows and
      columns), and the lowering multiplies and adds in the accumulator's
      type.

    - `wgmma` (`#tile.mma` version 3, sm_90a, unless `mma-version=2`):
      f16 x f16 and bf16 x bf16 -> f32, f32 x f32 with
      `input_precision = "tf32"` -> f32, fp8 (e4m3, e5m2, any mix) -> f32
      and i8 x i8 -> i32, on 2-D tiles with M >= 64, K at least one
      instruction's (32 bytes), 4, 8, 16 or 32 warps, and at least 32
      contiguous bytes of each operand (and of each warpgroup's N extent
      when N is contiguous). tf32, fp8 and int8 operands must be K-major
      in registers (A row-major, B column-major: the instruction cannot
      transpose them); otherwise such dots take mma.sync. The operands are
      stored to shared memory in `#tile.nvmma_shared` encodings (the widest
      swizzle of 32, 64 or 128 bytes their contiguous extent allows; a
      `tile.trans`'d operand stored untransposed and read through
      `tile.memdesc_trans`) and the dot becomes `tile.warpgroup_dot`;
      warpgroups go along M while M has 64 rows for each, then along N.
      An operand the dot's loops do not change is stored before the
      outermost such loop, and a tile an earlier dot already stored in the
      same encoding, where that copy dominates, is read from it: one
      buffer, and its load keeps the single `tile.local_alloc` user
      tile-pipeline copies asynchronously (the attention backward's Q^T
      and dO, B operands of one dot and, transposed, of another).
      Other dots take the mma.sync or FMA paths.

    Errors: none; a dot without encodings (tile-assign-layouts has not
    run) is left alone.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU: sm_80 to sm_121f as passes/Target.h lists them (anything else is an error)">,
    Option<"mmaVersion", "mma-version", "unsigned", /*default=*/"0",
           "tensor-core instructions: 2 = mma.sync only, 3 = wgmma where it applies (sm_90a), 0 = the default (3)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileAllocateSharedPass : Pass<"tile-allocate-shared", "mlir::ModuleOp"> {
  let summary = "lay out each kernel's shared memory";
  let description = [{
    Gives every user of shared memory its bytes in the kernel's dynamic
    shared memory: each `tile.local_alloc` buffer (live from the
    allocation to its last use through any view, a use inside a loop that
    does not contain the allocation keeping it live to the loop's end) and
    the scratch space of each op that exchanges data through shared memory
    while it runs (conversions, transposes and reshapes that cannot stay in
    registers, reductions and scans across warps, scalar atomics,
    histograms' counters, gathers' sources). Buffers whose live ranges do
    not overlap share bytes; each is placed at the
    lowest offset, aligned to 16 bytes (1024 for `#tile.nvmma_shared`, whose
    swizzle is on absolute address bits), free over its live range, largest
    buffers first. Records `tile.shared_offset` on each user and the total
    as `tile.shared` on the kernel.

    Errors: a kernel needing more than `shared-budget` bytes (default: the
    chip's opt-in maximum per CTA: 227 KiB on sm_90/sm_90a, 163 KiB on
    sm_80, 99 KiB on sm_89), with a note at each buffer naming its type and
    size.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU: sm_80 to sm_121f as passes/Target.h lists them (anything else is an error); sets the default budget">,
    Option<"sharedBudget", "shared-budget", "unsigned", /*default=*/"0",
           "largest dynamic shared memory per CTA in bytes (0: the chip's)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TileInsertBarriersPass : Pass<"tile-insert-barriers", "mlir::ModuleOp"> {
  let summary = "order the accesses to shared memory with CTA barriers";
  let description = [{
    Inserts `tile.barrier` where a thread may access bytes of shared memory
    that another thread accessed since the last barrier, with at least one
    of the two a write (read after write, write after read, write after
    write). Accesses are the byte ranges tile-allocate-shared gave: a
    `tile.local_alloc` with a source writes its buffer, `tile.local_store`
    writes and `tile.local_load` reads the buffer behind the view (all of a
    multi-buffered allocation when the buffer index is dynamic), an op with
    scratch space reads and writes its scratch (it synchronizes its own
    write-then-read internally). Asynchronous copies are the exception that
    makes pipelining work: `tile.async_copy` must not overwrite bytes still
    being read (it is checked as a write), but its data lands only at a
    `tile.async_wait`, which therefore counts as a write of every buffer
    asynchronous copies target, so the first read after it gets the barrier.
    Loops are analysed to a fixed point (the state at the end of an
    iteration flows into the next), both branches of an `scf.if` from the
    same state.

    Errors: none.
  }];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TilePropagateLayoutsPass : Pass<"tile-propagate-layouts", "mlir::ModuleOp"> {
  let summary = "remove layout conversions from loops";
  let description = [{
    Makes a value a loop carries live in the layout its users in the loop
    convert it to, when the value the loop yields can be had in that layout
    without a conversion (the argument itself, a conversion from that
    layout, a value from outside the loop, or layout-agnostic ops of those):
    the dot accumulator of a K loop then stays in the mma layout, converted
    once after the loop instead of twice per iteration. Then moves the
    remaining conversions up through layout-agnostic ops
    (rematerialization, as tile-assign-layouts does) and folds chains of
    conversions.

    Conversions out of the mma layout (or a slice of it) in the block
    that computes the accumulator move the other way, down below their
    users, when every user can compute in the mma layout: elementwise ops
    whose other operands are available there (converted from it, splats,
    constants, integer index and mask arithmetic, loop arguments -- retyped
    in the next round -- and values from outside the loop), reductions
    (into a slice of it; a reduction is sunk even when other users are
    not), broadcast and expand_dims. An online softmax between two dots
    (FlashAttention's loop body: row max, exp2, row sum, the rescaled
    accumulator) then runs where the first dot left its result, and what
    converts is P, rounded to 16 bits, into the next dot's A operand -- a
    register permutation on wgmma. A loop's result (a GEMM epilogue) is not
    sunk: tile-pipeline fuses that DAG into its TMA store. Floating-point
    work other ops also use is not recomputed in a second layout.

    A 1-D load only converted to a slice of an mma (or mma dot-operand)
    layout -- a per-row statistic such as the attention backward's M and
    Delta, a bias -- is loaded in that slice instead: each thread reads the
    values of its rows or columns (L1 serves the repeats) rather than one
    coalesced load and a trip through shared memory with its barriers.

    Errors: none.
  }];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TilePromoteToSharedPass : Pass<"tile-promote-to-shared", "mlir::ModuleOp"> {
  let summary = "route mma.sync operands through swizzled shared memory";
  let description = [{
    Replaces each conversion to an mma.sync operand layout
    (`#tile.dot_operand` of a `#tile.mma`) by a `tile.local_alloc` of the
    source in a swizzled `#tile.shared` encoding (the source's memory order;
    16-byte groups XORed with the row phase, so stores and ldmatrix rows
    avoid bank conflicts) and a `tile.local_load` into the operand layout;
    an operand that is a 2-D transpose of another tile is stored
    untransposed and read through `tile.memdesc_trans`. Then splits each
    such dot along K into one dot per instruction K step, each loading its
    own slice (`tile.memdesc_subview`), so only one step's operand
    registers are live at a time.

    Errors: none.
  }];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TilePipelinePass : Pass<"tile-pipeline", "mlir::ModuleOp"> {
  let summary = "multi-buffer the loads of dot operands with cp.async";
  let description = [{
    In each `scf.for` with `num_stages` S >= 2 (the loop's
    `tile.num_stages` from `tl.range(..., num_stages=)`, else the kernel's,
    else the `num-stages` option), turns every load whose only user is a
    `tile.local_alloc` in the same iteration (a dot operand after
    tile-promote-to-shared) into `tile.async_copy` into one of S buffers,
    issued S - 1 iterations ahead: a prologue starts the first S - 1
    iterations' copies, each iteration waits for its own
    (`tile.async_wait {num = S - 2}`) and starts iteration i + S - 1's, and
    copies past the last iteration are masked off, so any trip count
    (including 0 and 1) is correct. Built on upstream
    `scf::pipelineForLoop` with a two-stage schedule (the copies and their
    address computation in stage 0, everything else in the last stage in
    program order, so other memory operations keep their order).

    A load is pipelined only if its `other` is absent or +0 (cp.async fills
    masked-off elements with zeros), its pointers and mask depend on no
    memory operation of the iteration, and -- when the loop also writes
    global memory -- its pointers derive from a kernel argument that no
    write in the loop derives from (distinct pointer arguments are assumed
    not to alias, as in Triton); other loads are left alone. In a loop whose
    dot operands are copied with cp.async (not TMA), a 1-D load of elements
    of 4 bytes or more that feeds registers -- a per-row statistic
    subtracted from a dot's result (the attention backward's M and Delta), a
    gather's index vector -- is copied with them
    under the same conditions, through a small buffer per stage that the
    iteration reads back into the load's layout (`tile.local_load`).

    With `tma` (sm_90 and newer), a `tile.desc_load` through a host-side
    descriptor, or a device-side one the launch can encode (see
    tile-lower-descriptors), whose block fills a `#tile.nvmma_shared`
    operand buffer (32-, 64- or 128-byte swizzle, last dimension
    contiguous) is copied by TMA instead (PTX ISA 9.7.9.25.5): the kernel
    gains a `!tile.tensormap` argument (`tile.tma`: box = [rows, swizzle
    bytes], the swizzle) after the descriptor's strides, or for a
    device-side descriptor after every other argument with a
    `tile.tma_source` saying how the runtime computes the tensor (a launch
    map), one thread arrives on an mbarrier of the
    slot expecting the iteration's bytes (`tile.mbarrier_expect`) and
    issues the boxes (`tile.async_tma_load`), and the consumer stage waits
    on the slot's phase parity, ((i / S) & 1) for iteration i
    (`tile.mbarrier_wait`; the slot and the parity are i32 counters the
    loop carries). The S mbarriers are initialized before the loop
    and invalidated after it. Other descriptor loads (not in a pipelined
    loop, not feeding such a buffer, a different box or swizzle than the
    tensor map already has) become masked loads here, which the cp.async
    path may then pipeline. A TMA store in a loop writes a buffer allocated
    before the loop and first waits for the previous store's read of it
    (`tile.async_tma_store_wait` before the buffer's `tile.local_store`, and
    once after the loop), so that read overlaps the following iterations.

    Flattening: first, a loop nest marked `tile.flatten` (`tl.range(...,
    flatten=True)`) whose inner loop is pipelined (S >= 2) and copies blocks
    with TMA becomes one loop (tile-flatten-loops) when the flat
    loop's shared memory surely fits the chip (the inner loop's operand
    buffers times its stages live across the epilogue; a TMA store's
    staging buffer in place of the conversions it replaces); otherwise the
    hint is dropped (so it is for pointer nests: flattened, they carried
    their offsets across the epilogue and spilled). The accumulator's restart at each outer iteration,
    `warpgroup_dot(select(first, 0, acc))`, becomes `use_acc = !first`
    (wgmma's scale-d), and an asynchronous accumulator chain may be read by
    one `scf.if` of the body (the epilogue): there after a
    `tile.warpgroup_dot_wait {pendings = 0}`, whose result the if yields to
    the next iteration.

    Deferred accumulation: `acc = acc + warpgroup_dot(a, b, 0)` (Triton's
    precise form `acc += tl.dot(a, b)`, fp8's: each dot's sum joins the
    fp32 accumulator through an fp32 add) in a TMA loop of S >= 4 stages
    whose accumulator takes at most 64 registers per thread (the loop's
    only such dot, its operands the loop's TMA blocks; no accumulator
    chain, no other carried tile, no enclosing loop) no longer waits
    for each dot: the loop carries the dot's result (from -0.0) and each
    iteration adds the previous one's, so that the dot runs under the add.
    The pipelined loop is unrolled by two so that no in-flight result is
    copied (ptxas would serialize every wgmma, C7514): the first copy
    retires the carried result (`warpgroup_dot_wait {pendings = 0}`) and
    adds it before its dot; the second copy's dot writes those registers
    (`use_acc` false), then waits with one pending and adds the first's;
    an odd last iteration runs in an `scf.if`, and the last result is added
    after it. The additions keep their order. One more buffer (S + 1,
    where it fits) keeps the copies S - 1 iterations ahead.

    Warp specialization (`tl.range(..., warp_specialize=True)`, or every
    eligible loop with `warp-specialize=on`; sm_90a and the other `a`/`f`
    targets, whose setmaxnreg it needs): a loop whose only copies are TMA
    candidates, not nested in another loop (a flattened nest is one loop;
    the hint on its outer loop applies), in a kernel of whole warpgroups,
    is not software-pipelined but split (WarpSpecialize.cpp) into a
    `tile.warp_specialize`: the slot buffers, the S "full" mbarriers (count
    1) and S "empty" ones (count = num_warps) are allocated and initialized
    at the kernel's start; both partitions carry the slot (i % S) and its
    phase parity as i32 counters. The consumer (the kernel's warps) waits
    on the slot's full barrier, reads the slot, and releases it with
    `tile.mbarrier_arrive` on its empty barrier -- for an asynchronous
    wgmma chain, the previous iteration's slot after the
    `warpgroup_dot_wait {pendings = 1}`. The producer (one warpgroup more;
    a copy of the kernel pruned to the copies and what computes their
    coordinates) waits on the empty barrier for the slot's previous round,
    expects the bytes and issues the copies, running up to S iterations
    ahead. Registers: 40 for the producer, the rest for the consumers
    (232 for two warpgroups). A hint that cannot apply (cp.async loads, a
    nested loop, a slice with side effects or tensors) is dropped.

    Ping-pong consumers (`num-consumer-groups = 2`; opt-in): a
    warp-specialized loop that is a flattened persistent nest (its tile
    loop carrying nothing, directly in the kernel, the kernel's other ops
    free of side effects, the nest reading memory only through its TMA
    copies and writing it only through TMA-able descriptor stores) gets
    two consumer groups of num_warps warps each (`more_consumers` of
    tile.warp_specialize); its premise is that a program's tiles store
    different blocks. The producer still
    copies every tile's blocks in order through the one ring of slots;
    group g runs the flat loop over tiles g, g + 2, ... of the program's
    (from the tile loop's start plus g steps, twice its step, over
    ceil((Tn - g) / 2) tiles): its slot counters start at ring position
    g * Kn and skip the other group's Kn positions at each tile's end, and
    it releases a tile's last slot in the epilogue, right after the wait
    for its groups (the next slot the producer needs may be the other
    group's), not one iteration later. The groups take turns through one
    "turn" mbarrier each (count num_warps): a group starts a tile's K
    steps once the group before it has waited for its own tile's last
    slot, and then gives the next group its turn -- without it a group
    that skipped Kn positions could take a full barrier's completion two
    rounds back for its own (a phase parity aliases every other round).
    So the groups' main loops alternate and each one's epilogue runs under
    the other's main loop. The nest without K steps (K = 0) runs in group 0
    only. Where it does not apply (or a second group's staging buffers and
    scratch would not fit beside the kernel's other buffers) the loop gets
    one consumer group, with a warning at the loop saying why.

    Cluster multicast (`cluster-size = 2`; opt-in, see
    docs/performance.md): in a software-pipelined TMA loop (no deferred
    dot, not warp-specialized, not nested, only scf.ifs around it whose
    conditions the kernel's top level computes), each launch-map copy
    whose coordinates come from integers available at the top level gets
    a group of them (with the loop's bounds) in a `tile.cluster_agree`
    placed there: the two CTAs of a cluster compare them at run time, and
    where both load the same block every iteration (a grouped GEMM's pair
    sharing B) each copies half its rows to both (`multicast` on
    `tile.async_tma_load`, through a second launch map of half the box).
    Slots then have "empty" mbarriers counting both CTAs' warps (each warp
    releases the slot it finished to both, `cluster_ctas = 2`), and cluster
    barriers follow the initialization and the loop; the kernel gets
    `tile.cluster_size = 2`. Grids of odd x launch without clusters and
    copy alone. Host descriptors are not multicast (one map argument each).

    Errors: a loop the upstream pipeliner rejects after the rewrite
    (internal); an unknown `warp-specialize` value; a `cluster-size` other
    than 1 or 2; a `num-consumer-groups` other than 1 or 2.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "stages for loops and kernels without tile.num_stages (Triton's "
           "default on CUDA)">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "copy host-descriptor blocks into wgmma operand buffers with TMA "
           "and mbarriers, store blocks with TMA stores (sm_90+)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU (its shared-memory budget bounds TMA stores' "
           "staging buffers)">,
    Option<"warpSpecialize", "warp-specialize", "std::string",
           /*default=*/"\"hint\"",
           "warp specialization of TMA loops: 'hint' (loops marked "
           "tile.warp_specialize), 'on' (every eligible loop) or 'off'">,
    Option<"numConsumerGroups", "num-consumer-groups", "unsigned",
           /*default=*/"1",
           "consumer groups of a warp-specialized flattened persistent "
           "loop: 2 runs two groups of num_warps warps taking turns over "
           "the tiles (ping-pong), each one's epilogue under the other's "
           "main loop (1 or 2)">,
    Option<"clusterSize", "cluster-size", "unsigned", /*default=*/"1",
           "CTAs per thread-block cluster: 2 lets pairs of CTAs that copy "
           "the same TMA block multicast it (1 or 2)">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// SIMT lowering (level 3)
//===----------------------------------------------------------------------===//

def TileLowerToSIMTPass : Pass<"tile-lower-to-simt", "mlir::ModuleOp"> {
  let summary = "lower laid-out tile IR to per-thread code in upstream dialects";
  let description = [{
    Rewrites every kernel into the code one thread runs: each tile becomes
    the `vector<N x T>` of the N elements its encoding gives the thread
    (pointers as i64 addresses), elementwise `arith`/`math` work on those
    vectors unchanged, `scf` keeps its structure, memory ops become vector
    loads and stores (`llvm` dialect) with predication through inline PTX
    for masks, and layout conversions (and `tile.gather`, whose source is
    read at computed offsets) go through shared memory with barriers.
    Kernels move into a `gpu.module` as `gpu.func` kernels with a known
    block size of 32 * num_warps threads; `tile.shared` on the kernel
    records the dynamic shared memory it needs.

    Shared memory is addressed at the offsets tile-allocate-shared
    recorded (`tile.shared_offset` on each user, `tile.shared` on the
    kernel); barriers between users are tile-insert-barriers' business.

    A kernel's `tile.maxnreg` (or the `max-nreg` option) becomes the
    gpu.func's `nvvm.maxnreg`, PTX `.maxnreg`.

    Errors: an op or type this lowering does not implement
    (`unimplemented: ...`), a user of shared memory without an offset, a
    register limit outside [16, 255] or on a warp-specialized kernel
    (whose warp groups set their registers with setmaxnreg).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU: sm_80 to sm_121f as passes/Target.h lists them (anything else is an error)">,
    Option<"maxNReg", "max-nreg", "unsigned", /*default=*/"0",
           "registers per thread at most (PTX .maxnreg) for kernels without their own tile.maxnreg; 0: no limit, else 16 to 255">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::math::MathDialect"
  ];
}

#endif // TILEC_PASSES_TD
