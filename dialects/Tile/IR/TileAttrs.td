//===- TileAttrs.td - tile layout encodings ----------------*- tablegen -*-===//
//
// Layout encodings on tile tensors. An encoding says which thread of the CTA
// holds which element of a tile, and in what order the elements sit in the
// thread's registers. The model follows Triton's distributed layouts.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "dialects/Tile/IR/TileBase.td"

//===----------------------------------------------------------------------===//
// The distributed-encoding interface
//===----------------------------------------------------------------------===//

def Tile_DistributedEncodingInterface
    : AttrInterface<"DistributedEncodingAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    An encoding that distributes a tile over the registers, lanes and warps
    of a CTA. Every consumer of layouts (layout assignment, the SIMT
    lowering of every op, conversions) sees an encoding only through its
    linear layout (dialects/Tile/IR/LinearLayout.h): the map from
    (register, lane, warp) to tile coordinates. `shape` must have
    `getRank()` power-of-two dimensions (use getLinearLayout(), which
    checks).
  }];
  let methods = [
    InterfaceMethod<"The number of tile dimensions the encoding describes.",
      "unsigned", "getRank">,
    InterfaceMethod<"Warps per CTA the encoding spreads a tile over.",
      "unsigned", "getNumWarps">,
    InterfaceMethod<[{The linear layout of a tile of `shape` (rank getRank(),
      powers of two).}], "::tilec::tile::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

class Tile_DistributedEncoding<string name, string mnemonic_>
    : AttrDef<Tile_Dialect, name, [
        DeclareAttrInterfaceMethods<Tile_DistributedEncodingInterface>]> {
  let mnemonic = mnemonic_;
}

def Tile_BlockedEncodingAttr
    : Tile_DistributedEncoding<"BlockedEncoding", "blocked"> {
  let summary = "blocked distribution of a tile over the threads of a CTA";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along each
    dimension d; `threadsPerWarp` (product 32) and `warpsPerCTA` (product
    num_warps) tile those blocks over a warp and over the CTA; `order` lists
    the dimensions from fastest to slowest varying (for threads and for the
    registers of one thread). A tile larger than the CTA tile
    (`sizePerThread * threadsPerWarp * warpsPerCTA`) is covered by repeating
    it, each thread holding every repetition; a smaller one wraps around, so
    several threads hold the same element.

    ```mlir
    tensor<1024xf32, #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                                   warpsPerCTA = [4], order = [0]}>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Tile_SliceEncodingAttr
    : Tile_DistributedEncoding<"SliceEncoding", "slice"> {
  let summary = "a parent layout with one dimension removed";
  let description = [{
    The layout of a tile of rank r-1 obtained from a tile of rank r with
    layout `parent` (any distributed encoding) by removing dimension `dim`
    (as a reduction does, or as the operand of `tile.expand_dims` needs). A
    thread holds the elements the parent layout gives it for the shape with
    a size-1 dimension inserted at `dim`.

    ```mlir
    tensor<16xi32, #tile.slice<{dim = 1, parent = #blocked2d}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def Tile_MmaEncodingAttr : Tile_DistributedEncoding<"MmaEncoding", "mma"> {
  let summary = "the accumulator layout of tensor-core instructions";
  let description = [{
    The layout of the result (and accumulator) of a `tile.dot` lowered to
    tensor-core instructions. `version = 2` is `mma.sync` (sm_80+): each
    warp computes `instrShape` = [16, 8] tiles (PTX ISA 9.7.14.5.14,
    m16n8k16 and friends: lane `l` holds rows `l / 4` and `l / 4 + 8`,
    columns `2 * (l % 4)` and `2 * (l % 4) + 1`); `warpsPerCTA` spreads the
    warps over [M, N] (or [batch, M, N]), warps numbered with N fastest; a
    tile larger than the warps' pattern is covered by repeating it, N
    first, each repetition held in further registers. `version = 3` is the
    Hopper warpgroup form (wgmma, `tile.warpgroup_dot`), `instrShape` =
    [64, N, K] per warpgroup: warps come in groups of four along M (warp w
    of a warpgroup holds rows 16w..16w+15, each 8 columns laid out as for
    mma.sync: the registers of one instruction are wgmma's d0..d{N/2-1}),
    `warpsPerCTA` counts warps (M a multiple of 4), warps along M first;
    the tile repeats the pattern N first, then M.

    ```mlir
    tensor<128x128xf32, #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>
    ```
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `{` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]`
    `,` `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_DotOperandEncodingAttr
    : Tile_DistributedEncoding<"DotOperandEncoding", "dot_operand"> {
  let summary = "the layout of an operand of a tile.dot";
  let description = [{
    Operand `opIdx` (0 = A, M x K; 1 = B, K x N; with a leading batch
    dimension when the parent has rank 3) of a `tile.dot` whose result has
    encoding `parent`.

    With an `#tile.mma` version-2 parent it is the `mma.sync` fragment: each
    32-bit register holds `kWidth` consecutive elements along K (2 for
    16-bit types, 4 for 8-bit, 1 for tf32), so one instruction consumes
    K = 8 * kWidth; the operand is replicated over the warps along the other
    dimension (PTX ISA 9.7.14.5.14, fragments of A and B for .m16n8k8,
    .m16n8k16 and .m16n8k32). With a `#tile.blocked` parent (the FMA path,
    no tensor cores) every thread holds the whole K extent of the rows (A)
    or columns (B) of the results it computes; `kWidth` is then 0.

    ```mlir
    #mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    tensor<128x64xf16, #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

def Tile_SharedEncodingInterface
    : AttrInterface<"SharedEncodingAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    An encoding of a tile in shared memory: where each element lives in the
    buffer. Consumers see it only through its OffsetMap
    (dialects/Tile/IR/LinearLayout.h), a linear map from the tile
    coordinate's bits to element offsets (swizzles are XORs, so they are
    linear too).
  }];
  let methods = [
    InterfaceMethod<"The number of tile dimensions the encoding describes.",
      "unsigned", "getRank">,
    InterfaceMethod<"Dimensions from the fastest-varying (contiguous) to the "
      "slowest.", "::llvm::SmallVector<unsigned>", "getMemoryOrder">,
    InterfaceMethod<[{Element offsets of a tile of `shape` (rank getRank(),
      powers of two) with elements of `elementType`.}],
      "::tilec::tile::OffsetMap", "toOffsetMap",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType)>,
  ];
}

def Tile_SharedEncodingAttr : AttrDef<Tile_Dialect, "SharedEncoding", [
    DeclareAttrInterfaceMethods<Tile_SharedEncodingInterface>]> {
  let mnemonic = "shared";
  let summary = "a swizzled tile in shared memory";
  let description = [{
    Rows along `order[1]` of elements contiguous along `order[0]` (further
    dimensions, if any, stacked densely in `order`), with the column
    swizzled against bank conflicts: the column's group of `vec` elements
    is XORed with `(row / perPhase) % maxPhase`, so the rows one
    `ldmatrix` (or a warp's stores) touches fall in different banks
    (Triton's swizzled shared layout). `vec = perPhase = maxPhase = 1` is
    no swizzle; the phase is capped at the number of vec groups in a row.

    ```mlir
    !tile.memdesc<128x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=`
    $maxPhase `,` `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
}

def Tile_NVMMASharedEncodingAttr : AttrDef<Tile_Dialect, "NVMMASharedEncoding", [
    DeclareAttrInterfaceMethods<Tile_SharedEncodingInterface>]> {
  let mnemonic = "nvmma_shared";
  let summary = "the swizzled shared-memory layouts of wgmma and TMA";
  let description = [{
    The 32-, 64- and 128-byte swizzle modes of Hopper's tensor memory
    accelerator and wgmma operand descriptors (PTX ISA 9.7.15.5.1, CUDA
    tensor-map swizzles): the tile is stored as blocks of `swizzle` bytes
    of its contiguous dimension (the last one, or the first when
    `transposed`), each block a column of rows of `swizzle` bytes in which
    the 16-byte chunk index is XORed with the row's position in the
    128-byte pattern. Rank 2, or 3 with a leading batch dimension.

    ```mlir
    #tile.nvmma_shared<{swizzle = 128, transposed = false}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzle, "bool":$transposed);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_ATTRS_TD
