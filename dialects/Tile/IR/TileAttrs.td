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

def Tile_BlockedEncodingAttr : AttrDef<Tile_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
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
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    /// Product of warpsPerCTA.
    unsigned getNumWarps() const;
  }];
}

def Tile_SliceEncodingAttr : AttrDef<Tile_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "a parent layout with one dimension removed";
  let description = [{
    The layout of a tile of rank r-1 obtained from a tile of rank r with
    layout `parent` by removing dimension `dim` (as a reduction does, or as
    the operand of `tile.expand_dims` needs). A thread holds the elements the
    parent layout gives it for the shape with a size-1 dimension inserted at
    `dim`.

    ```mlir
    tensor<16xi32, #tile.slice<{dim = 1, parent = #blocked2d}>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_ATTRS_TD
