//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//
//
// `!tile.ptr<T>`: a pointer to global memory holding elements of type T. A
// tile of pointers is a builtin tensor of `!tile.ptr<T>`.
// `!tile.tensordesc<tensor<...>>`: a descriptor of a strided tensor in global
// memory, accessed one block (the tensor type) at a time.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "dialects/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Tile_PtrType : TypeDef<Tile_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "pointer to global memory";
  let description = [{
    A pointer to elements of `pointeeType` in global memory (PTX address
    space 1). Pointer arithmetic (`tile.addptr`) counts in elements.

    ```mlir
    %p = tile.addptr %base, %off : !tile.ptr<f32>, i32
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorDescType : TypeDef<Tile_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "a tensor in global memory, accessed in blocks";
  let description = [{
    A descriptor of a tensor in global memory (base pointer, shape, strides;
    `tl.make_tensor_descriptor`) that is loaded and stored one block at a
    time. The parameter is the block: its shape and element type.

    ```mlir
    %d = tile.make_tensor_desc %base, [%m, %k], [%ld, %one]
        : !tile.ptr<f16>, [i32, i32], [i64, i64]
        -> !tile.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorMapType : TypeDef<Tile_Dialect, "TensorMap"> {
  let mnemonic = "tensormap";
  let summary = "a TMA descriptor (CUtensorMap) passed as a kernel parameter";
  let description = [{
    The 128-byte, 64-byte-aligned tensor map that `cp.async.bulk.tensor`
    reads (PTX ISA 5.5.8, "Tensor-map"; CUDA driver API
    `cuTensorMapEncodeTiled`), as a `__grid_constant__` kernel parameter
    (`.param .align 64 .b8 p[128]`). tile-pipeline adds one after the
    strides of a host-side tensor descriptor (`tile.tensordesc`) whose
    blocks it copies with TMA; its `tile.tma` argument attribute gives the
    box and swizzle the runtime encodes it with.

    ```mlir
    tile.func @k(..., %tm: !tile.tensormap {tile.tma = {box = array<i64: 128, 64>, swizzle = 128 : i32}})
    ```
  }];
}

def Tile_MemDescType : TypeDef<Tile_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "a tile in shared memory";
  let description = [{
    A buffer (or a view of one) in the CTA's shared memory holding a tile
    of `shape` and `elementType`, placed by a shared encoding
    (`#tile.shared`, `#tile.nvmma_shared`) that describes the trailing
    dimensions; leading dimensions beyond the encoding's rank number the
    buffers of a multi-buffered allocation (software-pipelining stages).
    `mutable` allows stores (`tile.local_store`, `tile.async_copy`).
    `allocShape` is the shape of the allocation a view (from
    `tile.memdesc_subview`) lies in; it is omitted when equal to `shape`.
    Its offset in shared memory is decided by `tile-allocate-shared`.

    ```mlir
    !tile.memdesc<3x128x64xf16, #shared, mutable>
    !tile.memdesc<128x16xf16, #shared, mutable, alloc = 128x64>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "::mlir::Type":$elementType, "::mlir::Attribute":$encoding,
        CArg<"bool", "true">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   mutableMemory, shape);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 0;
  let extraClassDeclaration = [{
    // ShapedTypeInterface.
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(
        std::optional<::llvm::ArrayRef<int64_t>> shape,
        ::mlir::Type elementType) const;
    /// Leading dimensions that number buffers, not tile rows.
    unsigned getNumBufferDims() const;
    /// The tile shape the encoding describes (the trailing dimensions).
    ::llvm::ArrayRef<int64_t> getTileShape() const {
      return getShape().drop_front(getNumBufferDims());
    }
  }];
}

// Scalars: builtin integers and floats.
def Tile_Float : AnyTypeOf<[F8E4M3FN, F8E5M2, F16, BF16, F32, F64]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int, Tile_PtrType]>;

def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_PtrType]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;
def Tile_Tensor : RankedTensorOf<[Tile_Float, Tile_Int, Tile_PtrType]>;

def Tile_AnyPtr : AnyTypeOf<[Tile_PtrType, Tile_PtrTensor]>;
def Tile_AnyInt : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_AnyBool : AnyTypeOf<[I1, Tile_BoolTensor]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILE_TYPES_TD
