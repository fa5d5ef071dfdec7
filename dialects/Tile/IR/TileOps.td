//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
//
// The operations of tile programs: kernels (`tile.func`), program ids, ranges,
// shape manipulation, pointer arithmetic, masked loads and stores, and the
// layout conversion that layout assignment inserts. Semantics follow
// triton.language where an op exists there (noted per op).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "dialects/Tile/IR/TileBase.td"
include "dialects/Tile/IR/TileTypes.td"
include "dialects/Tile/IR/TileAttrs.td"
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
    attributes: `tile.num_warps` (default 4), `tile.num_stages`.

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
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
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

#endif // TILE_OPS_TD
