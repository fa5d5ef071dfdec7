//===- GraphPasses.td - passes over operator graphs --------*- tablegen -*-===//
//
// The graph level (docs/architecture.md, "Operator graphs"): passes over
// `tile.graph` schedules that fuse maps into kernels and turn the maps left
// into kernels of their own. Their own file, so that the kernel-level
// passes do not rebuild when these change.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_GRAPH_PASSES_TD
#define TILEC_GRAPH_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileFuseKernelsPass : Pass<"tile-fuse-kernels", "mlir::ModuleOp"> {
  let summary = "fuse the maps of operator graphs into kernels and into "
                "each other";
  let description = [{
    Rewrites each `tile.graph` of the module so that fewer kernels run and
    intermediate buffers disappear. For an intermediate buffer `%t` (a
    `tile.alloc`) written by one op and read by one later op:

    - **Map chains**: a map writing `%t` and a map reading it (at the
      output's shape, not broadcast) become one map whose body computes
      both.
    - **Epilogue fusion**: a launch whose kernel only stores through the
      pointer it gets for `%t`, and a map reading `%t`, become one launch
      of a new kernel (a copy of the old one, named `<kernel>_fused`): at
      each store the map's body is applied to the stored tile, the map's
      other inputs loaded at the same elements under the store's mask, and
      the result stored to the map's output. GEMM -> bias -> GELU writes
      once.
    - **Prologue fusion**: a map writing `%t`, and a launch whose kernel
      only loads through the pointer it gets for `%t`, become one launch
      of a new kernel that computes the map at each load (masked-off
      elements still read as the load's `other`, or zero).
    - **Dead intermediates**: a buffer no op reads is removed with the maps
      and row reductions that write it (launches stay: their kernels may do
      more).
    - **Row groups**: a `tile.row_reduce` and the maps and reductions
      linked to it through intermediates that work on its rows (their
      output has the reduction's input shape, or its output shape) become
      one launch of a kernel `<graph>_rows` with one program per row
      (layer norm, RMS norm, softmax, group norm written as graph ops).
      Values the group passes between its ops stay in registers; a buffer
      is still written where a graph argument or something outside the
      group uses it. A row of at most `max-row-block` elements (static) is
      held whole; a longer or dynamic one is walked in blocks, once per
      reduction the values depend on in a chain (such a group holds at most
      8 reductions: each walk recomputes its values from the buffers). A
      walked row whose dimensions but the last are static (group norm's
      channels x pixels) takes 2D blocks, every leading index x a block of
      the last, so that a per-channel weight is loaded once per row.
      Legality: no op between the group's first and last op writes what the
      group reads or touches what it writes; each buffer the group writes
      has one writer in it, before its readers in the group.

    The new kernel takes the old one's arguments without the one for `%t`,
    then the map's output (epilogue), its other buffer inputs, its scalar
    inputs and the sizes of the output's dynamic dimensions it needs to
    index broadcast inputs (i64). The old kernel stays in the module.

    Legality: `%t` has no other user; the launch does not write the map's
    other inputs and does not touch its output; no op between the pair
    writes the map's inputs or touches its output; the map is not in place
    (epilogue: it would apply at every store of an element); the kernel's
    addresses into `%t` are addptr and shape-op chains from the argument,
    possibly carried by `scf.for` loops (the offset is then carried beside
    the address, an i64 iteration argument), not chosen by `scf.if` or
    `select`, so that the same offsets address the other buffers. Graph
    buffer arguments are assumed not to overlap (the runtime checks it).

    With `remarks`, every fusion and every refusal of a candidate pair is
    reported as a remark on the consumer, with its reason.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "report each fusion and each refused candidate as a remark">,
    Option<"maxRowBlock", "max-row-block", "int64_t", /*default=*/"8192",
           "longest row (elements, a power of two) a row-group kernel "
           "holds whole">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileOutlineMapsPass : Pass<"tile-outline-maps", "mlir::ModuleOp"> {
  let summary = "turn each tile.map of a graph into a kernel and a launch";
  let description = [{
    Replaces each `tile.map` left in a graph (after tile-fuse-kernels) by a
    launch of a new kernel `<graph>_map` that computes it: one program per
    `block-size` elements of the output (flat, row-major), each loading
    its inputs at its elements (broadcast inputs through one division and
    remainder per run of non-broadcast dimensions), applying the body and
    storing under a mask for the ragged end. Offsets are i32 where the
    output's size is static and below 2^31, else i64. Buffers from
    `tile.alloc` are known 16-byte aligned (`tile.divisibility = 16` on
    the kernel's argument); a graph argument passes on its own
    `tile.divisibility`.

    Each `tile.row_reduce` left becomes a kernel `<graph>_rows` with one
    program per row, as a row group of one op in tile-fuse-kernels (a row
    of at most `max-row-block` static elements held whole, else walked in
    blocks of 4096 with 16 warps). Afterwards the graph holds only allocations, launches
    and their scalar arithmetic.
  }];
  let options = [
    Option<"blockSize", "block-size", "unsigned", /*default=*/"1024",
           "elements per program (a power of two)">,
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "warps per program of the map kernels">,
    Option<"maxRowBlock", "max-row-block", "int64_t", /*default=*/"8192",
           "longest row (elements, a power of two) a row-reduction kernel "
           "holds whole">,
  ];
  let dependentDialects = ["::tilec::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILEC_GRAPH_PASSES_TD
