//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
//
// The operations of tile programs: kernels (`tile.func`), program ids, ranges,
// shape manipulation, pointer arithmetic, masked loads and stores, atomics,
// reductions and scans, dot products, tensor descriptors, compiler hints and
// barriers, and the layout conversion that layout assignment inserts. Semantics follow
// triton.language where an op exists there (noted per op).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "dialects/Tile/IR/TileBase.td"
include "dialects/Tile/IR/TileTypes.td"
include "dialects/Tile/IR/TileAttrs.td"
include "dialects/Tile/IR/TileEnums.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernels and calls
//===----------------------------------------------------------------------===//

def Tile_FuncOp : Tile_Op<"func", [
    AutomaticAllocationScope, CallableOpInterface, FunctionOpInterface,
    IsolatedFromAbove]> {
  let summary = "a kernel or a device function";
  let description = [{
    A tile program function. A public `tile.func` is a kernel: one program
    instance runs per CTA of the launch grid. A private one is a device
    function, inlined into its callers before layout assignment.

    Argument attributes carry specialization facts that the runtime checks at
    every launch: `tile.divisibility = 16` (a pointer's address, in bytes, or
    an integer is a multiple of 16) and `tile.equal_to = 1`. Function
    attributes: `tile.num_warps` (default 4), `tile.num_stages`,
    `tile.maxnreg` (registers per thread at most, 16 to 255: PTX
    `.maxnreg`, Triton's `maxnreg`).

    ```mlir
    tile.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %n: i32) attributes {tile.num_warps = 4 : i32} {
      tile.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// A public function is a kernel.
    bool isKernel() { return isPublic() && !isExternal(); }
    /// Warps per CTA from `tile.num_warps`, or `fallback` when absent.
    unsigned getNumWarps(unsigned fallback = 4);
    /// The first argument of each entry of the kernel's signature: a
    /// host-side tensor descriptor's 2 * rank arguments are one entry,
    /// `!tile.tensormap` arguments none (the metadata's numbering).
    ::llvm::SmallVector<unsigned> getSignatureArguments();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  // Every tile in the body carries an encoding of its own rank.
  let hasRegionVerifier = 1;
}

def Tile_ReturnOp : Tile_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "return from a tile function";
  let description = [{
    ```mlir
    tile.return %v : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let hasVerifier = 1;
}

def Tile_CallOp : Tile_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a device function";
  let description = [{
    Calls a `tile.func` in the same module. Calls are inlined before layout
    assignment.

    ```mlir
    %r = tile.call @helper(%a, %b) : (f32, f32) -> f32
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::FunctionType getCalleeType() {
      return ::mlir::FunctionType::get(getContext(), getOperandTypes(),
                                       getResultTypes());
    }
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
}

//===----------------------------------------------------------------------===//
// Program and index ops
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "the id of this program along a grid axis (tl.program_id)";
  let description = [{
    The index of the running program instance (CTA) along grid axis `axis`
    (0, 1 or 2), as `tl.program_id(axis)`.

    ```mlir
    %pid = tile.program_id 0 : i32
    ```
  }];
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "the number of programs along a grid axis (tl.num_programs)";
  let description = [{
    ```mlir
    %n = tile.num_programs 1 : i32
    ```
  }];
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "the integers [start, end) as a 1-D tile (tl.arange)";
  let description = [{
    ```mlir
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %t = tile.splat %n : i32 -> tensor<1024xi32>
    ```
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  // A splat of an integer or float constant is a dense constant (as
  // Triton's), so arith folds through tiles of constants.
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "stretch size-1 dimensions of a tile";
  let description = [{
    Each dimension of the source either equals the result's or is 1 and is
    repeated (numpy broadcasting with equal ranks; `tile.expand_dims` first
    to add dimensions).

    ```mlir
    %b = tile.broadcast %a : tensor<1x64xi32> -> tensor<16x64xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "insert a size-1 dimension (x[:, None])";
  let description = [{
    ```mlir
    %e = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "reinterpret a tile with another shape, row-major order kept";
  let description = [{
    ```mlir
    %r = tile.reshape %a : tensor<16x64xf32> -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure, SameOperandsAndResultShape,
                                                       SameOperandsAndResultElementType]> {
  let summary = "move a tile's elements to another layout encoding";
  let description = [{
    The same values, held by the threads another encoding names. Lowered
    through shared memory unless both encodings place elements identically.

    ```mlir
    %c = tile.convert_layout %a : tensor<128xf32, #b1> -> tensor<128xf32, #b2>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Memory ops
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `ptr + offset`, where the offset counts elements of the pointee type (as
    Triton's `ptr + off`). Offsets are sign-extended to 64 bits, so an i32
    offset never wraps the 64-bit address.

    ```mlir
    %p = tile.addptr %base, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    ```
  }];
  let arguments = (ins Tile_AnyPtr:$ptr, Tile_AnyInt:$offset);
  let results = (outs Tile_AnyPtr:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure]> {
  let summary = "64-bit integers as pointers (Triton's int64 `.to(tl.pointer_type(T))`)";
  let description = [{
    The pointers whose addresses are the i64 values of `src`, of the
    result's pointee type: what Triton's `x.to(tl.pointer_type(T))` makes
    of an int64 scalar or tile (tutorial 08 loads its matrices' addresses
    from memory this way). Shape and encoding are the operand's.

    ```mlir
    %p = tile.int_to_ptr %addr : i64 -> !tile.ptr<f16>
    ```
  }];
  let arguments = (ins Tile_AnyInt:$src);
  let results = (outs Tile_AnyPtr:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure]> {
  let summary = "pointers as 64-bit integers (Triton's pointer `.to(tl.int64)`)";
  let description = [{
    The addresses of the pointers in `src`, as i64 values; shape and
    encoding are the operand's.

    ```mlir
    %a = tile.ptr_to_int %p : tensor<64x!tile.ptr<f32>> -> tensor<64xi64>
    ```
  }];
  let arguments = (ins Tile_AnyPtr:$src);
  let results = (outs Tile_AnyInt:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments,
    TypesMatchWith<"result has the element type of the pointee of ptr",
                   "ptr", "result", "::tilec::tile::getPointeeTypeOf($_self)">,
    OptionalTypesMatchWith<"mask has the shape of ptr with i1 elements",
                   "ptr", "mask", "::tilec::tile::getI1SameShape($_self)">,
    OptionalTypesMatchWith<"other has the type of the result",
                   "ptr", "other", "::tilec::tile::getPointeeTypeOf($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "load from global memory, masked (tl.load)";
  let description = [{
    Loads the element each pointer points to. Where `mask` is false nothing
    is read and the result is `other`, or zero when no `other` is given.

    ```mlir
    %v = tile.load %ptrs, %mask, %other : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_AnyPtr:$ptr, Optional<Tile_AnyBool>:$mask,
                       Optional<Tile_Value>:$other);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    TypesMatchWith<"value has the element type of the pointee of ptr",
                   "ptr", "value", "::tilec::tile::getPointeeTypeOf($_self)">,
    OptionalTypesMatchWith<"mask has the shape of ptr with i1 elements",
                   "ptr", "mask", "::tilec::tile::getI1SameShape($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "store to global memory, masked (tl.store)";
  let description = [{
    Stores each element where `mask` is true (everywhere when absent).

    ```mlir
    tile.store %ptrs, %v, %mask : tensor<1024x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_AnyPtr:$ptr, Tile_Value:$value,
                       Optional<Tile_AnyBool>:$mask);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)
  }];
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    TypesMatchWith<"val has the element type of the pointee of ptr",
                   "ptr", "val", "::tilec::tile::getPointeeTypeOf($_self)">,
    TypesMatchWith<"result has the type of val",
                   "ptr", "result", "::tilec::tile::getPointeeTypeOf($_self)">,
    OptionalTypesMatchWith<"mask has the shape of ptr with i1 elements",
                   "ptr", "mask", "::tilec::tile::getI1SameShape($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "atomic read-modify-write of global memory (tl.atomic_add...)";
  let description = [{
    For each pointer where `mask` is true (everywhere when absent), atomically
    replaces the element `old` it points to by `old <kind> val` and returns
    `old` (undefined where the mask is false). `kind` is one of `add` (integer),
    `fadd` (float), `max`, `min` (signed integer or float), `umax`, `umin`,
    `and`, `or`, `xor` (integer) and `xchg` (store `val`); `sem` is the memory
    ordering (`relaxed`, `acquire`, `release`, `acq_rel`; Triton's default is
    `acq_rel`) and `scope` the threads it orders against (`cta`, `gpu`,
    `sys`; default `gpu`). Integer kinds need i32 or i64 elements, `fadd`
    f16, bf16, f32 or f64.

    ```mlir
    %old = tile.atomic_rmw fadd, acq_rel, gpu, %ptrs, %v, %mask
        : tensor<64x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_RMWKindAttr:$kind, Tile_AnyPtr:$ptr,
                       Tile_Value:$val, Optional<Tile_AnyBool>:$mask,
                       DefaultValuedAttr<Tile_MemSemanticAttr,
                           "::tilec::tile::MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<Tile_MemScopeAttr,
                           "::tilec::tile::MemScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    `` $kind `,` `` $sem `,` `` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict
    `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::tilec::tile::RMWKind":$kind, "::mlir::Value":$ptr,
                   "::mlir::Value":$val, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::tilec::tile::MemSemantic",
                        "::tilec::tile::MemSemantic::AcqRel">:$sem,
                   CArg<"::tilec::tile::MemScope",
                        "::tilec::tile::MemScope::GPU">:$scope)>
  ];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    TypesMatchWith<"cmp has the element type of the pointee of ptr",
                   "ptr", "cmp", "::tilec::tile::getPointeeTypeOf($_self)">,
    TypesMatchWith<"val has the element type of the pointee of ptr",
                   "ptr", "val", "::tilec::tile::getPointeeTypeOf($_self)">,
    TypesMatchWith<"result has the type of val",
                   "ptr", "result", "::tilec::tile::getPointeeTypeOf($_self)">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "atomic compare-and-swap of global memory (tl.atomic_cas)";
  let description = [{
    For each pointer, atomically: `old = *ptr; if (old == cmp) *ptr = val`,
    returning `old`. `sem` and `scope` as for `tile.atomic_rmw` (defaults
    `acq_rel`, `gpu`). Elements are 16-, 32- or 64-bit.

    ```mlir
    %old = tile.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_AnyPtr:$ptr, Tile_Value:$cmp, Tile_Value:$val,
                       DefaultValuedAttr<Tile_MemSemanticAttr,
                           "::tilec::tile::MemSemantic::AcqRel">:$sem,
                       DefaultValuedAttr<Tile_MemScopeAttr,
                           "::tilec::tile::MemScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    `` $sem `,` `` $scope `,` $ptr `,` $cmp `,` $val attr-dict `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$cmp,
                   "::mlir::Value":$val,
                   CArg<"::tilec::tile::MemSemantic",
                        "::tilec::tile::MemSemantic::AcqRel">:$sem,
                   CArg<"::tilec::tile::MemScope",
                        "::tilec::tile::MemScope::GPU">:$scope)>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

def Tile_MakeTensorDescOp : Tile_Op<"make_tensor_desc", [
    Pure, SameVariadicOperandSize]> {
  let summary = "describe a strided tensor in global memory "
                "(tl.make_tensor_descriptor)";
  let description = [{
    A descriptor of the tensor at `base` with the given `shape` and `strides`
    (in elements; one of each per dimension of the block, i32 or i64
    scalars), accessed in blocks of the result's block type by
    `tile.desc_load` and `tile.desc_store`. Elements outside `shape` read as
    zero (NaN with `nan_padding`, Triton's `padding_option="nan"`; float
    blocks only) and are not written.

    ```mlir
    %d = tile.make_tensor_desc %base, [%m, %k], [%ld, %one]
        : !tile.ptr<f16>, [i32, i32], [i64, i64]
        -> !tile.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins Tile_PtrType:$base,
                       Variadic<AnyTypeOf<[I32, I64]>>:$shape,
                       Variadic<AnyTypeOf<[I32, I64]>>:$strides,
                       UnitAttr:$nan_padding);
  let results = (outs Tile_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:`
    qualified(type($base)) `,` `[` type($shape) `]` `,` `[` type($strides) `]`
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_DescLoadOp : Tile_Op<"desc_load", [MemoryEffects<[MemRead]>]> {
  let summary = "load one block through a tensor descriptor (desc.load)";
  let description = [{
    Loads the block of the descriptor's block type whose first element is at
    `indices` (i32 element coordinates, one per dimension) of the described
    tensor; elements outside the tensor's shape are zero.

    ```mlir
    %t = tile.desc_load %d[%i, %j] : !tile.tensordesc<tensor<64x64xf16>>
        -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$indices);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]` attr-dict `:` qualified(type($desc)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DescStoreOp : Tile_Op<"desc_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store one block through a tensor descriptor (desc.store)";
  let description = [{
    Stores `src` (of the descriptor's block type) at `indices` of the
    described tensor; elements outside the tensor's shape are not written.

    ```mlir
    tile.desc_store %d[%i, %j], %t : !tile.tensordesc<tensor<64x64xf16>>,
        tensor<64x64xf16>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$indices,
                       Tile_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,`
    type($src)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, scans, dot products and transposes
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [
    RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "reduce tiles along one axis with a combiner (tl.reduce)";
  let description = [{
    Reduces N tiles of one shape along `axis` together (N > 1 for argmin /
    argmax: values and indices). The combiner region has one block with 2N
    scalar arguments, the accumulated values (one per operand, of its element
    type) then the new ones, and returns the N combined values with
    `tile.reduce.return`; it must be associative, and the order of
    combination is unspecified. Each result has its operand's shape without
    `axis` (a scalar for a 1-D operand) and its element type. `tl.sum`,
    `tl.max`... are this op with a one-op combiner.

    ```mlir
    %s = tile.reduce(%a) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tile.reduce.return %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$result);
  let regions = (region SizedRegion<1>:$combine_op);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $result) $combine_op
  }];
  let builders = [
    // Result types from the operands; the combiner region is left empty
    // (fill it with addCombinerBlock()).
    OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis)>
  ];
  let extraClassDeclaration = [{
    /// Adds the combiner's block, with 2N arguments of the operands' element
    /// types (located at the op), to the empty region and returns it.
    ::mlir::Block *addCombinerBlock();
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ReduceReturnOp : Tile_Op<"reduce.return", [
    Pure, HasParent<"ReduceOp">, ReturnLike, Terminator]> {
  let summary = "the combined values of a tile.reduce combiner";
  let description = [{
    ```mlir
    tile.reduce.return %r : f32
    ```
  }];
  let arguments = (ins Variadic<Tile_Scalar>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Tile_ScanOp : Tile_Op<"scan", [
    RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "inclusive scan of tiles along one axis (tl.associative_scan)";
  let description = [{
    Inclusive prefix combination of N tiles of one shape along `axis`, from
    the last element backwards when `reverse` is true (default false). The
    combiner region is as for `tile.reduce` (2N scalar arguments, the
    accumulated values then the new ones), returning N values with
    `tile.scan.return`. The results have the operands' shapes and element
    types. `tl.cumsum` is this op with an `arith.addi`/`addf` combiner.

    ```mlir
    %c = tile.scan(%a) {axis = 0 : i32, reverse = false} : (tensor<128xi32>) -> tensor<128xi32> {
    ^bb0(%x: i32, %y: i32):
      %r = arith.addi %x, %y : i32
      tile.scan.return %r : i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combine_op);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $result) $combine_op
  }];
  let builders = [
    // Result types from the operands; the combiner region is left empty
    // (fill it with addCombinerBlock()).
    OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis,
                   CArg<"bool", "false">:$reverse)>
  ];
  let extraClassDeclaration = [{
    /// Adds the combiner's block, with 2N arguments of the operands' element
    /// types (located at the op), to the empty region and returns it.
    ::mlir::Block *addCombinerBlock();
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanReturnOp : Tile_Op<"scan.return", [
    Pure, HasParent<"ScanOp">, ReturnLike, Terminator]> {
  let summary = "the combined values of a tile.scan combiner";
  let description = [{
    ```mlir
    tile.scan.return %r : i32
    ```
  }];
  let arguments = (ins Variadic<Tile_Scalar>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Tile_NumTensor : RankedTensorOf<[Tile_Float, Tile_Int]>;

def Tile_DotOp : Tile_Op<"dot", [Pure]> {
  let summary = "matrix product with accumulator, d = a * b + c (tl.dot)";
  let description = [{
    `a` is MxK, `b` KxN, `c` and the result MxN (or all three with a leading
    batch dimension B: BxMxK, BxKxN, BxMxN). `a` and `b` are both floats
    (f8, f16, bf16, f32, f64) or both integers (i8 -> i32); `c` and the
    result have one type, of the same kind. `input_precision` says how f32
    inputs are multiplied: `"tf32"` (default), `"tf32x3"` (three tf32
    products, about f32 accuracy) or `"ieee"`; `max_num_imprecise_acc` bounds
    the fp8 products accumulated at reduced precision before promotion.

    ```mlir
    %d = tile.dot %a, %b, %c {input_precision = "tf32"}
        : tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32>
        -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_NumTensor:$a, Tile_NumTensor:$b,
                       Tile_NumTensor:$c,
                       DefaultValuedStrAttr<StrAttr, "tf32">:$input_precision,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntNonNegative]>>:$max_num_imprecise_acc);
  let results = (outs Tile_NumTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c) `->`
    type($d)
  }];
  let hasVerifier = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tile (tl.trans, tl.permute)";
  let description = [{
    Result dimension i is source dimension `order[i]`; `order` is a
    permutation of [0, rank).

    ```mlir
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [
    // The result type is the source's with its shape permuted.
    OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int32_t>":$order)>
  ];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "count the values of a 1-D integer tile into bins (tl.histogram)";
  let description = [{
    Result element `i` (i32) is the number of elements of `src` (a 1-D
    integer tile) that fall in bin `i`, bins of width 1 starting at 0.
    Elements whose `mask` (i1, the shape of `src`) is false are not
    counted. Values outside `[0, num_bins)` follow Triton 3.6's lowering,
    which reads only the low bits of each value: a value `v` falls in bin
    `v mod P` (two's complement, so -1 is `P - 1`) with
    `P = max(num_bins, 32)`, and is dropped when that is `num_bins` or more
    (only possible for fewer than 32 bins). `num_bins` is the result's
    length, a power of two.

    ```mlir
    %h = tile.histogram %x, %mask : tensor<1024xi32>, tensor<1024xi1> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, Optional<Tile_Tensor>:$mask);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "gather the elements of a tile along one axis (tl.gather)";
  let description = [{
    `src` and `index` (integer elements, not i1) have one rank, and every
    dimension of `index` but `axis` equals `src`'s. The result has the
    shape of `index` and the element type of `src`:

    ```
    result[i0, ..., ik, ..., in] = src[i0, ..., index[i0, ..., ik, ..., in], ..., in]
    ```

    with `k = axis`, in `[0, rank)` (the front end adds the rank to a
    negative axis, as Triton 3.6). An index outside `[0, n)`, `n` the
    size of `src` along `axis`, is undefined behaviour in Triton; here it
    reads `src` at `n - 1` (the index, sign-extended, is clamped as an
    unsigned number: `umin(index, n - 1)`), so the read never leaves the
    op's scratch buffer. With encodings, the result has the index's; the
    source may have any.

    ```mlir
    %g = tile.gather %src[%idx] {axis = 1 : i32}
        : tensor<32x16xf32>, tensor<32x64xi32> -> tensor<32x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_Tensor:$index, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `,` type($index) `->` type($result)
  }];
  let builders = [
    // The result type is the index's shape with the source's element type
    // (and the index's encoding, if any).
    OpBuilder<(ins "::mlir::Value":$src, "::mlir::Value":$index,
                   "int32_t":$axis)>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Inline assembly (tl.inline_asm_elementwise)
//===----------------------------------------------------------------------===//

def Tile_ElementwiseInlineAsmOp : Tile_Op<"elementwise_inline_asm", [
    Elementwise,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>]> {
  let summary = "run inline PTX on packs of elements "
                "(tl.inline_asm_elementwise)";
  let description = [{
    A map whose function is inline assembly (Triton 3.6's
    `tt.elementwise_inline_asm`). Each thread runs `asm_string` once per
    `packed_element` (a power of two) of the elements it holds; which
    elements form a pack is unspecified (consecutive registers of the
    thread's layout, as Triton), and a thread whose element count is not a
    multiple of the pack fills the last pack with undefined values. All tile
    operands and results have one shape and encoding; scalar operands
    (allowed as in any elementwise op) are the same in every element; with
    scalar results (no tile operand) each thread runs the asm once.

    Operands of the asm: per operand in order, the pack's elements, those
    narrower than 32 bits `32 / bits` (at most `packed_element`) to a
    register as a vector (four i8 in one `r`); results likewise, first.
    `constraints` is an LLVM constraint string over these registers,
    outputs (`=r`) first, clobbers (`~{memory}`) anywhere; the verifier
    counts both kinds. Without `pure` the asm has side effects: it is never
    merged, hoisted or removed.

    ```mlir
    %y = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;", "=r,r" pure pack 1 %x : (tensor<256xf32>) -> tensor<256xf32>
    %b:2 = tile.elementwise_inline_asm "...", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" pure pack 4 %a, %f : (tensor<256xi8>, tensor<256xf32>) -> (tensor<256xi32>, tensor<256xf32>)
    %t = tile.elementwise_inline_asm "mov.u32 $0, %clock;", "=r" pack 1 : () -> i32
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                       UnitAttr:$pure,
                       ConfinedAttr<I32Attr, [IntPositive]>:$packed_element,
                       Variadic<Tile_Value>:$args);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asm_string `,` $constraints (`pure` $pure^)? `pack` $packed_element
    ($args^)? attr-dict `:` functional-type($args, $results)
  }];
  let extraClassDeclaration = [{
    /// How many elements of type `elem` share one asm register in a pack of
    /// `pack`: 32 / bits for elements narrower than 32 bits (at most
    /// `pack`), else 1. Pointers count as 64 bits.
    static int64_t getElementsPerRegister(::mlir::Type elem, int64_t pack);
    /// The registers the asm gets (or returns) per pack for values of
    /// `types`, in order.
    static int64_t countRegisters(::mlir::TypeRange types, int64_t pack);
    /// The output (`=...`) and input constraints of an LLVM constraint
    /// string (clobbers, `~{...}`, are neither), and whether every output
    /// comes before every input.
    struct ConstraintCounts {
      int64_t outputs = 0, inputs = 0;
      bool outputsFirst = true;
    };
    static ConstraintCounts countConstraints(::llvm::StringRef constraints);
    /// What is wrong with the asm text or the constraints for NVPTX, or
    /// an empty string: each constraint is an output `=C` (`=&C`), an input `C`
    /// (C a register class: r, h, l, f, d) or a tied input (the number of
    /// an output), or a clobber `~{...}`; `$N` / `${N}` in the asm name one
    /// of the `numOperands` operands (outputs first), `$$` is a dollar.
    static std::string checkAsm(::llvm::StringRef asmString,
                                ::llvm::StringRef constraints,
                                int64_t numOutputs, int64_t numOperands);
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def Tile_SharedMemory : Resource<"::tilec::tile::SharedMemory">;

def Tile_LocalAllocOp : Tile_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<Tile_SharedMemory>]>]> {
  let summary = "allocate a tile in shared memory, optionally storing one";
  let description = [{
    A buffer in shared memory of the result's type, live until its last
    use; with `src`, every element of the distributed tile `src` is stored
    into it first (the result is `mutable` only if later ops write it). The
    result is a whole allocation, never a view. Offsets are assigned by
    `tile-allocate-shared`, which records them as `tile.shared_offset`.

    ```mlir
    %m = tile.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared>
    %buf = tile.local_alloc : () -> !tile.memdesc<3x128x64xf16, #shared, mutable>
    ```
  }];
  let arguments = (ins Optional<Tile_Tensor>:$src);
  let results = (outs Tile_MemDescType:$result);
  let assemblyFormat = [{
    ($src^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tile_LocalLoadOp : Tile_Op<"local_load", [
    MemoryEffects<[MemRead<Tile_SharedMemory>]>]> {
  let summary = "load a tile from shared memory into registers";
  let description = [{
    Every thread reads the elements the result's distributed encoding gives
    it (`ldmatrix` for mma.sync operands where the layout allows). Needs a
    CTA barrier after the writes it reads (`tile-insert-barriers`).

    ```mlir
    %a = tile.local_load %m : !tile.memdesc<128x64xf16, #shared> -> tensor<128x64xf16, #dot_op>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_LocalStoreOp : Tile_Op<"local_store", [
    MemoryEffects<[MemWrite<Tile_SharedMemory>]>]> {
  let summary = "store a tile from registers into shared memory";
  let description = [{
    ```mlir
    tile.local_store %v, %m : tensor<128x64xf16, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_MemDescType:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` type($src) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Tile_MemDescIndexOp : Tile_Op<"memdesc_index", [Pure]> {
  let summary = "one buffer of a multi-buffered shared-memory allocation";
  let description = [{
    Buffer `index` (along the leading dimension) of `src`.

    ```mlir
    %s = tile.memdesc_index %buf[%i] : !tile.memdesc<3x128x64xf16, #shared, mutable> -> !tile.memdesc<128x64xf16, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$src, I32:$index);
  let results = (outs Tile_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_MemDescSubviewOp : Tile_Op<"memdesc_subview", [Pure]> {
  let summary = "a sub-tile of a tile in shared memory";
  let description = [{
    The elements of `src` from `offsets` (static; each a multiple of the
    result's extent along its dimension, so the view is aligned) over the
    result's shape, e.g. one K slice of a dot operand.

    ```mlir
    %k1 = tile.memdesc_subview %m[0, 16] : !tile.memdesc<128x64xf16, #shared> -> !tile.memdesc<128x16xf16, #shared, alloc = 128x64>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs Tile_MemDescType:$result);
  let assemblyFormat = [{
    $src `` $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_MemDescTransOp : Tile_Op<"memdesc_trans", [Pure]> {
  let summary = "a tile in shared memory seen with permuted dimensions";
  let description = [{
    Result dimension i is `src` dimension `order[i]` (as `tile.trans`), with
    no data moved: the result's encoding is the source's with its memory
    order permuted.

    ```mlir
    %t = tile.memdesc_trans %m {order = array<i32: 1, 0>} : !tile.memdesc<64x128xf16, #s> -> !tile.memdesc<128x64xf16, #s_t>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_WarpGroupDotOp : Tile_Op<"warpgroup_dot", [
    MemoryEffects<[MemRead<Tile_SharedMemory>]>]> {
  let summary = "d = a * b + c with both operands in shared memory (wgmma)";
  let description = [{
    The Hopper form of `tile.dot` (sm_90a): `a` (M x K) and `b` (K x N) are
    tiles in shared memory with `#tile.nvmma_shared` encodings, read by
    `wgmma.mma_async` through matrix descriptors (PTX ISA 9.7.15.5.1); `c`
    and the result are in a `#tile.mma` version-3 layout. `a` may instead
    be a 16-bit tile in registers, in the `#tile.dot_operand` layout
    (opIdx 0, kWidth 2) of that mma parent: each warp holds 16 rows of a
    warpgroup's 64 as for mma.sync's A fragment (PTX ISA 9.7.15.5.2). Element types:
    f16 x f16 and bf16 x bf16 into f32; f32 x f32 read as tf32
    (`input_precision = "tf32"`) into f32; f8E4M3FN / f8E5M2 in any mix
    into f32; i8 x i8 (signed) into i32. The layout's instruction K covers
    32 bytes of an operand (16, 8, 32 elements); only 16-bit operands may
    be MN-major (`a` transposed, `b` untransposed), the others must be
    K-major, as the instruction requires. The operands'
    writes must be visible to the async proxy (a barrier after them, and
    `fence.proxy.async`, which the lowering emits). Complete when it
    returns (the lowering waits for its wgmma group), unless `is_async`:
    then the result may still be in flight -- only another warpgroup_dot
    may take it as its accumulator, and anything else reads it through a
    `tile.warpgroup_dot_wait` that covers its group (tile-pipeline makes
    the accumulator chain of a pipelined loop asynchronous). With
    `use_acc` (a run-time i1), `c` is added only where it is true: d = a * b
    where it is false (wgmma's scale-d predicate; tile-pipeline folds
    `arith.select(%first, 0, %acc)` into it, the accumulator reset of a
    flattened loop nest).

    ```mlir
    %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<128x64xf16, #nvmma>, !tile.memdesc<64x128xf16, #nvmma>, tensor<128x128xf32, #mma3> -> tensor<128x128xf32, #mma3>
    %e = tile.warpgroup_dot %a, %b, %c use_acc %keep : ...
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_MemDescType, Tile_NumTensor]>:$a,
                       Tile_MemDescType:$b,
                       Tile_NumTensor:$c,
                       Optional<I1>:$use_acc,
                       DefaultValuedStrAttr<StrAttr, "tf32">:$input_precision,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntNonNegative]>>:$max_num_imprecise_acc,
                       UnitAttr:$is_async);
  let results = (outs Tile_NumTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`use_acc` $use_acc^)? attr-dict `:` qualified(type($a))
    `,` qualified(type($b)) `,` type($c) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Tile_WarpGroupDotWaitOp : Tile_Op<"warpgroup_dot_wait", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "wait until at most `pendings` warpgroup_dot groups run";
  let description = [{
    `wgmma.wait_group pendings` (PTX ISA 9.7.15.7.3): this warpgroup's
    asynchronous `tile.warpgroup_dot`s but the `pendings` most recent are
    complete -- their shared-memory operands may be overwritten (after a
    CTA barrier for other warpgroups' reads) and their results read.
    Returns `inputs` unchanged, so that what reads them follows the wait.

    ```mlir
    %r = tile.warpgroup_dot_wait %acc {pendings = 0 : i32} : (tensor<128x128xf32, #mma3>) -> tensor<128x128xf32, #mma3>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $outputs)";
  let hasVerifier = 1;
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [
    OptionalTypesMatchWith<"mask has the shape of ptr with i1 elements",
                   "ptr", "mask", "::tilec::tile::getI1SameShape($_self)">,
    MemoryEffects<[MemRead, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "copy a tile from global to shared memory asynchronously";
  let description = [{
    Starts copying the elements `ptr` points to into `dst` (`cp.async`,
    PTX ISA 9.7.9.25; sm_80+): each thread copies the elements of `ptr`'s
    distributed encoding, up to 16 bytes per instruction. Elements whose
    `mask` is false are not read and are written as zero. The copies
    become part of the next `tile.async_commit_group`; their data may be
    read only after a `tile.async_wait` that covers that group, then a CTA
    barrier.

    ```mlir
    tile.async_copy %ptrs, %buf, %mask : tensor<128x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Tile_MemDescType:$dst,
                       Optional<Tile_BoolTensor>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`,` $mask^)? attr-dict `:` type($ptr) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitGroupOp : Tile_Op<"async_commit_group", [
    MemoryEffects<[MemWrite<Tile_SharedMemory>]>]> {
  let summary = "close the current group of asynchronous copies";
  let description = [{
    `cp.async.commit_group`: the copies this thread started since the last
    commit form one group, which `tile.async_wait` counts.

    ```mlir
    tile.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "wait until at most `num` groups of copies are pending";
  let description = [{
    `cp.async.wait_group num`: this thread's copies of all but the `num`
    most recent groups have landed in shared memory. Other threads see them
    after a CTA barrier.

    ```mlir
    tile.async_wait {num = 1 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncTMALoadOp : Tile_Op<"async_tma_load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "copy a block from global to shared memory with TMA";
  let description = [{
    One thread of the CTA starts `cp.async.bulk.tensor` copies (PTX ISA
    9.7.9.25.5.1; sm_90+) of the block whose first element is at `indices`
    (element coordinates, outermost first; the instruction takes them
    innermost first) of the tensor `tensormap` describes, into `dst`,
    whose `#tile.nvmma_shared` encoding is the tensor map's swizzle: one
    box of `swizzle` bytes along the innermost dimension per copy, for
    every column block of the encoding. Elements outside the tensor are
    written as zero (NaN for a map encoded with NaN fill). Completion is
    signalled on `barrier` (a 1-element i64 buffer) as a transaction of
    the block's bytes: a `tile.mbarrier_expect` of them precedes the copy
    in the same phase. With `pred` false nothing is copied.

    **Multicast** (thread-block clusters of two CTAs, sm_90): with
    `multicast` true -- a value equal in both CTAs of the cluster, which
    load the same block at the same `indices` into the same buffer offset
    -- each CTA of rank r first waits for the phase of parity
    `empty_phase` of `empty` (both CTAs released the slot: see
    `tile.mbarrier_arrive`'s `cluster_ctas`), then copies rows
    [r * R / 2, (r + 1) * R / 2) of the R-row block with `multicast_map`
    (the same tensor, its box R / 2 rows) into both CTAs'
    `dst` (`.multicast::cluster`, ctaMask 0b11, PTX ISA 9.7.9.25.5.1):
    each CTA's `barrier` receives the whole block's bytes, half from
    each. With `multicast` false the op is the plain copy above.

    ```mlir
    tile.async_tma_load %tm[%i, %k], %buf, %bar : !tile.tensormap, !tile.memdesc<128x64xf16, #nvmma, mutable>, !tile.memdesc<1xi64, #shared, mutable>
    tile.async_tma_load %tm[%i, %k], %buf, %bar, %p multicast(%mc, %half, %empty, %ph : !tile.tensormap, !tile.memdesc<1xi64, #shared, mutable>) : ...
    ```
  }];
  let arguments = (ins Tile_TensorMapType:$tensormap, Variadic<I32>:$indices,
                       Tile_MemDescType:$dst, Tile_MemDescType:$barrier,
                       Optional<I1>:$pred, Optional<I1>:$multicast,
                       Optional<Tile_TensorMapType>:$multicast_map,
                       Optional<Tile_MemDescType>:$empty,
                       Optional<I32>:$empty_phase);
  let assemblyFormat = [{
    $tensormap `[` $indices `]` `,` $dst `,` $barrier (`,` $pred^)?
    (`multicast` `(` $multicast^ `,` $multicast_map `,` $empty `,`
     $empty_phase `:` qualified(type($multicast_map)) `,`
     qualified(type($empty)) `)`)? attr-dict
    `:` qualified(type($tensormap)) `,` qualified(type($dst)) `,`
    qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncTMAStoreOp : Tile_Op<"async_tma_store", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite]>]> {
  let summary = "copy a block from shared to global memory with TMA";
  let description = [{
    One thread of the CTA starts `cp.async.bulk.tensor` copies (PTX ISA
    9.7.9.25.5.2; sm_90+) of `src` (a 2-D `#tile.nvmma_shared` buffer, last
    dimension contiguous) to the block whose first element is at `indices`
    (outermost first) of the tensor `tensormap` describes: one box of
    `swizzle` bytes along the innermost dimension per column block, then
    `cp.async.bulk.commit_group`. Elements outside the tensor are not
    written -- in whole 16-byte chunks of a row: a row ending inside a
    chunk has the chunk's rest written too (hardware behaviour; tile-pipeline
    uses masked stores for such blocks). Every thread first makes its
    shared-memory writes visible to the async proxy
    (`fence.proxy.async.shared::cta`) and waits at a CTA barrier, so the op
    is executed by all threads of the CTA (no divergent region); `src` may
    be overwritten only after a `tile.async_tma_store_wait` (and a barrier).

    ```mlir
    tile.async_tma_store %tm[%i, %j], %buf : !tile.tensormap, !tile.memdesc<128x64xf16, #nvmma>
    ```
  }];
  let arguments = (ins Tile_TensorMapType:$tensormap, Variadic<I32>:$indices,
                       Tile_MemDescType:$src);
  let assemblyFormat = [{
    $tensormap `[` $indices `]` `,` $src attr-dict `:`
    qualified(type($tensormap)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def Tile_AsyncTMAStoreWaitOp : Tile_Op<"async_tma_store_wait", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "wait until TMA stores have read their shared memory";
  let description = [{
    The issuing thread waits until all but the `pendings` most recent groups
    of `tile.async_tma_store` have finished reading shared memory
    (`cp.async.bulk.wait_group.read`, PTX ISA 9.7.9.25.4.3); after a CTA
    barrier their buffers may be reused. The global writes complete
    asynchronously (at the latest when the kernel ends).

    ```mlir
    tile.async_tma_store_wait {pendings = 0 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "attr-dict";
}

def Tile_FenceAsyncSharedOp : Tile_Op<"fence_async_shared", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "order this thread's shared-memory writes before async-proxy reads";
  let description = [{
    `fence.proxy.async.shared::cta` (PTX ISA 9.7.13.4.2): the generic-proxy
    shared-memory writes this thread made before it are visible to
    async-proxy operations (TMA stores, wgmma) ordered after it by a CTA
    barrier.

    ```mlir
    tile.fence_async_shared
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_MBarrierInitOp : Tile_Op<"mbarrier_init", [
    MemoryEffects<[MemWrite<Tile_SharedMemory>]>]> {
  let summary = "initialize mbarriers in shared memory";
  let description = [{
    One thread initializes each of the i64 mbarrier objects of `barriers`
    (`mbarrier.init.shared.b64`, PTX ISA 9.7.13.15.9) to phase 0 expecting
    `count` arrivals, then `fence.mbarrier_init`; other threads may use
    them after a CTA barrier.

    ```mlir
    tile.mbarrier_init %bars {count = 1 : i32} : !tile.memdesc<3x1xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$barriers,
                       ConfinedAttr<I32Attr, [IntPositive]>:$count);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Tile_MBarrierInvalOp : Tile_Op<"mbarrier_inval", [
    MemoryEffects<[MemWrite<Tile_SharedMemory>]>]> {
  let summary = "invalidate mbarriers before their memory is reused";
  let description = [{
    One thread invalidates each mbarrier of `barriers`
    (`mbarrier.inval.shared.b64`, PTX ISA 9.7.13.15.10) once every thread
    is done with them (a CTA barrier before): the memory may then hold
    other data.

    ```mlir
    tile.mbarrier_inval %bars : !tile.memdesc<3x1xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
  let hasVerifier = 1;
}

def Tile_MBarrierExpectOp : Tile_Op<"mbarrier_expect", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "arrive on an mbarrier, expecting `bytes` of transactions";
  let description = [{
    One thread arrives on `barrier` with an expected transaction count of
    `bytes` (`mbarrier.arrive.expect_tx.shared.b64`, PTX ISA 9.7.13.15.12):
    the phase completes once the TMA copies signalling it have written
    that many bytes. With `pred` false it does nothing.

    ```mlir
    tile.mbarrier_expect %bar, %p {bytes = 49152 : i32} : !tile.memdesc<1xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$barrier, Optional<I1>:$pred,
                       ConfinedAttr<I32Attr, [IntPositive]>:$bytes);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tile_MBarrierWaitOp : Tile_Op<"mbarrier_wait", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "wait for the phase of parity `phase` of an mbarrier";
  let description = [{
    Every thread waits until the phase of `barrier` with parity `phase`
    (0 or 1) has completed (`mbarrier.try_wait.parity.shared.b64` in a
    loop, PTX ISA 9.7.13.15.16): the TMA copies of that phase have landed
    and are visible to the waiting thread.

    ```mlir
    tile.mbarrier_wait %bar, %phase : !tile.memdesc<1xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def Tile_MBarrierArriveOp : Tile_Op<"mbarrier_arrive", [
    MemoryEffects<[MemRead<Tile_SharedMemory>, MemWrite<Tile_SharedMemory>]>]> {
  let summary = "each warp arrives once on an mbarrier";
  let description = [{
    Each warp that executes it arrives once on `barrier` (its lanes
    converge with `bar.warp.sync`, then lane 0 runs
    `mbarrier.arrive.shared.b64`, PTX ISA 9.7.13.15.13, release semantics
    at CTA scope): the shared-memory reads the warp's threads made before
    it are complete for a thread that waits on the phase it completes. A
    barrier a partition of `n` warps releases this way is initialized with
    count `n`. With `pred` false it does nothing.

    Warp-specialized loops release an operand slot to the producer with it
    (tile-pipeline).

    With `cluster_ctas` = n, each warp arrives once on the barrier at the
    same offset in each of the CTAs 0 .. n - 1 of its thread-block cluster
    (`mapa`, then `mbarrier.arrive.shared::cluster`): a
    multicast TMA copy's "empty" barrier counts the warps of both CTAs.

    ```mlir
    tile.mbarrier_arrive %empty, %p : !tile.memdesc<1xi64, #shared, mutable>
    tile.mbarrier_arrive %empty, %p {cluster_ctas = 2 : i32} : !tile.memdesc<1xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Tile_MemDescType:$barrier, Optional<I1>:$pred,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$cluster_ctas);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

def Tile_ClusterAgreeOp : Tile_Op<"cluster_agree", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "whether the two CTAs of a cluster hold equal values";
  let description = [{
    Every thread of every CTA of the kernel's thread-block cluster executes
    it (at the top level of the kernel). Result g is true iff the CTA runs
    in a cluster of exactly two CTAs (`%cluster_nctarank`), `ready` is true
    in both, and the values of group g (`group_sizes` gives each group's
    number of consecutive `values`) are equal in both CTAs -- so every
    result is the same in both CTAs. Thread 0 writes `ready` and the
    values, zero-extended to 64 bits, into `exchange` (an i64 buffer of at
    least 1 + values elements), the cluster waits at a barrier
    (`barrier.cluster.arrive.release` / `wait.acquire`, PTX ISA 9.7.13.4)
    and each thread reads the peer CTA's words through `mapa` and
    `ld.shared::cluster`. The peer may read `exchange` until a
    `tile.cluster_barrier` naming it, which must follow in both CTAs.

    tile-pipeline proves with it that two CTAs copy identical blocks, so
    that one multicast TMA copy can fill both (`tile.async_tma_load`).

    ```mlir
    %same:2 = tile.cluster_agree %x, %ready [%a, %b, %k] {group_sizes = array<i32: 1, 2>}
        : !tile.memdesc<4xi64, #shared, mutable> [i32, i32, i32] -> i1, i1
    ```
  }];
  let arguments = (ins Tile_MemDescType:$exchange, I1:$ready,
                       Variadic<AnySignlessIntegerOrIndex>:$values,
                       DenseI32ArrayAttr:$group_sizes);
  let results = (outs Variadic<I1>:$agree);
  let assemblyFormat = [{
    $exchange `,` $ready `[` $values `]` attr-dict `:`
    qualified(type($exchange)) `[` type($values) `]` `->` type($agree)
  }];
  let hasVerifier = 1;
}

def Tile_ClusterBarrierOp : Tile_Op<"cluster_barrier", [
    AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for every thread of the thread-block cluster";
  let description = [{
    Unless `pred` is false (it must be the same in every CTA of the
    cluster), every thread arrives at the cluster barrier with release
    semantics and waits for all threads of the cluster with acquire
    semantics (`barrier.cluster.arrive.aligned` /
    `barrier.cluster.wait.aligned`, PTX ISA 9.7.13.4): shared-memory
    writes, mbarrier initializations (after `fence.mbarrier_init`) and
    remote arrivals before it, in any CTA of the cluster, are visible
    after it, and no CTA proceeds while another may still read or write its
    shared memory from before. In a one-CTA launch it is a CTA barrier.
    `exchange`, a `tile.cluster_agree`'s buffer, stays allocated up to it.

    ```mlir
    tile.cluster_barrier if %p exchange %x : !tile.memdesc<4xi64, #shared, mutable>
    ```
  }];
  let arguments = (ins Optional<I1>:$pred,
                       Optional<Tile_MemDescType>:$exchange);
  let assemblyFormat = [{
    (`if` $pred^)? (`exchange` $exchange^ `:` qualified(type($exchange)))?
    attr-dict
  }];
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    RecursiveMemoryEffects, NoTerminator,
    SingleBlock, ParentOneOf<["FuncOp"]>]> {
  let summary = "split a kernel into a consumer and a producer partition";
  let description = [{
    Warp specialization (Triton's `tl.range(..., warp_specialize=True)`,
    CUTLASS's warp-specialized mainloops): the kernel's `num_warps` warps
    (threads [0, 32 * num_warps)) run the `consumer` region, and
    `producer_warps` more warps (a whole warpgroup, as `setmaxnreg`
    requires) run the `producer` region, concurrently. The launch has
    `num_warps + producer_warps` warps.

    - `producer` holds scalar code only (no tensors, no shared-memory
      allocation, no CTA barrier): in tilec it waits for free operand
      slots and issues their TMA copies. One warp of the partition runs
      it; its thread 0 (thread `32 * num_warps` of the CTA) is the thread
      that issues one-thread operations (mbarrier expect, TMA).
    - `consumer` is the kernel as it was (tensors distributed over
      `num_warps` warps); a CTA barrier in it waits for the consumer
      warps only (`bar.sync 1, 32 * num_warps`).
    - On entry the producer warpgroup lowers its register budget to
      `producer_regs` and the consumer warps raise theirs to
      `consumer_regs` (`setmaxnreg`, PTX ISA 9.7.19.6; sm_90a), the
      kernel being compiled for one CTA per multiprocessor.

    The partitions communicate through mbarriers only (slot "full" and
    "empty" barriers); the op sits directly in a kernel's body, after the
    buffers and mbarriers both partitions use.

    Ping-pong (`more_consumers`, CUTLASS's ping-pong schedule): each
    region of `more_consumers` is one more consumer group of `num_warps`
    warps, running beside the first: group g (0 the `consumer` region,
    g >= 1 the g-th of `more_consumers`) has threads
    `[32 * num_warps * g, 32 * num_warps * (g + 1))`, its tensors
    distributed over its own warps as the consumer's are, its own CTA
    barrier (`bar.sync 1 + g`) and its own shared buffers. The producer
    then follows the groups' warps, and the launch has
    `num_warps * groups + producer_warps` warps. In tilec the groups take
    turns over a persistent loop's tiles, one group's epilogue running
    under the other's main loop.

    ```mlir
    tile.warp_specialize attributes {producer_warps = 4 : i32,
        producer_regs = 40 : i32, consumer_regs = 232 : i32} {
      scf.for ... { tile.mbarrier_wait %full ... tile.warpgroup_dot ... }
    } producer {
      scf.for ... { tile.mbarrier_wait %empty ... tile.async_tma_load ... }
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$producer_warps,
                       ConfinedAttr<I32Attr, [IntPositive]>:$producer_regs,
                       ConfinedAttr<I32Attr, [IntPositive]>:$consumer_regs);
  let regions = (region SizedRegion<1>:$consumer, SizedRegion<1>:$producer,
                        VariadicRegion<SizedRegion<1>>:$more_consumers);
  let assemblyFormat = [{
    attr-dict-with-keyword $consumer `producer` $producer
    (`groups` $more_consumers^)?
  }];
  let extraClassDeclaration = [{
    /// The consumer groups' regions, group 0 (`consumer`) first.
    llvm::SmallVector<mlir::Region *> getConsumerGroups();
    /// Consumer warps in all: the kernel's num_warps times the groups.
    unsigned getConsumerWarps(unsigned numWarps) {
      return numWarps * (1 + getMoreConsumers().size());
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hints and synchronization
//===----------------------------------------------------------------------===//

def Tile_HintOp : Tile_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "promise facts about a value to the axis analysis "
                "(tl.multiple_of, tl.max_contiguous, tl.max_constancy)";
  let description = [{
    Returns `src` unchanged and promises, per dimension (one entry for a
    scalar): `divisibility` (tl.multiple_of; the first value of each
    contiguous run is a multiple of this; for pointers, of this many bytes),
    `contiguity` (tl.max_contiguous; runs of this many consecutive values)
    and `constancy` (tl.max_constancy; runs of this many equal values). Each
    is optional and a power of two. The axis analysis raises its own facts
    to these; a broken promise gives wrong results, as in Triton.

    ```mlir
    %o = tile.hint %offs {divisibility = array<i64: 64>, contiguity = array<i64: 64>}
        : tensor<64xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_AnyInt, Tile_AnyPtr]>:$src,
                       OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                       OptionalAttr<DenseI64ArrayAttr>:$contiguity,
                       OptionalAttr<DenseI64ArrayAttr>:$constancy);
  let results = (outs AnyTypeOf<[Tile_AnyInt, Tile_AnyPtr]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Tile_AssumeOp : Tile_Op<"assume", [MemoryEffects<[MemWrite]>]> {
  let summary = "let the compiler assume a condition holds (tl.assume)";
  let description = [{
    The program promises that `cond` is true here; LLVM may optimize on it
    (`llvm.assume`). It has a side effect so that it is not removed as
    unused.

    ```mlir
    tile.assume %positive : i1
    ```
  }];
  let arguments = (ins I1:$cond);
  let assemblyFormat = "$cond attr-dict `:` type($cond)";
}

def Tile_BarrierOp : Tile_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for every thread of the CTA (tl.debug_barrier)";
  let description = [{
    A CTA-wide barrier (`bar.sync 0`): no thread continues until all threads
    of the program have reached it, and their shared-memory accesses before
    it are visible after it.

    ```mlir
    tile.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Debugging (tl.device_print, tl.device_assert)
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print values from the GPU (tl.device_print, print)";
  let description = [{
    Each thread prints, with the device's `printf` (PTX `vprintf`), one line
    per element of each operand it holds (replicas included, as Triton):
    `pid (x, y, z) idx (i, j)<prefix><value>`, with ` (operand n) ` before
    the value when there are several operands, and just
    `pid (x, y, z)<prefix>` when there are none. A scalar's index is `()`.
    `is_signed` gives each operand's signedness (the IR's integers are
    signless): `%i`/`%lli` or `%u`/`%llu`. Floats print as `%f`, pointers as
    `%p`; with `hex`, integers and floats print their bits as `0x%0Nx` (N
    hex digits of the type's width). The front end has already shaped the
    prefix as Triton does (` x: `).

    ```mlir
    tile.print " x: " %x, %n {is_signed = array<i1: true, false>} : tensor<128xi32>, i32
    tile.print " bits: " hex %f {is_signed = array<i1: false>} : tensor<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex,
                       DenseBoolArrayAttr:$is_signed,
                       Variadic<Tile_Value>:$args);
  let assemblyFormat = [{
    $prefix (`hex` $hex^)? ($args^)? attr-dict (`:` type($args)^)?
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "stop the kernel where a condition is false "
                "(tl.device_assert, assert)";
  let description = [{
    Each thread checks the elements of `cond` it holds; where one is false
    it calls the device's `__assertfail` with `message`, `file`, `line` and
    `function` (the CUDA driver prints `file:line: function: block: [...],
    thread: [...] Assertion `message` failed.`) and the kernel traps: the
    launch fails with CUDA_ERROR_ASSERT and the CUDA context is unusable
    afterwards. Without `file`/`line`/`function`, the lowering takes them
    from the op's location and the enclosing kernel. The front end emits
    this op only under `--debug` (Triton's `debug=True`).

    ```mlir
    tile.assert %ok, "x must be positive" {file = "k.py", line = 12 : i32, function = "kernel"} : tensor<128xi1>
    ```
  }];
  let arguments = (ins Tile_AnyBool:$cond, StrAttr:$message,
                       OptionalAttr<StrAttr>:$file,
                       OptionalAttr<I32Attr>:$line,
                       OptionalAttr<StrAttr>:$function);
  let assemblyFormat = "$cond `,` $message attr-dict `:` type($cond)";
  let hasVerifier = 1;
}

#endif // TILE_OPS_TD
