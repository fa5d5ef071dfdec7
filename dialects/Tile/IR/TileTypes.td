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
