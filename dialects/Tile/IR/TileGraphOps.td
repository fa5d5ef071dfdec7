//===- TileGraphOps.td - tile operator graphs --------------*- tablegen -*-===//
//
// The graph level of the tile dialect: a host-side schedule of kernel
// launches and pointwise maps over buffers (`tile.graph`, `tile.alloc`,
// `tile.launch`, `tile.map`). The graph passes fuse them into fewer kernels
// (tile-fuse-kernels) and turn the maps left into kernels
// (tile-outline-maps); the runtime replays a graph as one CUDA Graph.
//
// Buffers are builtin memrefs with the identity layout: a device pointer
// with a row-major contiguous shape (static or dynamic sizes) and an
// element type. A kernel's `!tile.ptr<T>` parameter takes a buffer of
// element type T (its base address).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_GRAPH_OPS_TD
#define TILE_GRAPH_OPS_TD

include "dialects/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// A graph buffer: a ranked memref with the identity layout in the default
/// memory space (global memory).
def Tile_Buffer : Type<
    And<[AnyRankedOrUnrankedMemRef.predicate,
         CPred<"::tilec::tile::isGraphBuffer($_self)">]>,
    "contiguous buffer (ranked memref with the identity layout)",
    "::mlir::MemRefType">;

def Tile_GraphOp : Tile_Op<"graph", [
    FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "a host-side schedule of kernels and maps over buffers";
  let description = [{
    An operator graph: a host function over buffer arguments (contiguous
    memrefs: pointer, shape, element type) and scalar arguments (integers,
    floats, `index`), whose body runs, in order, kernel launches
    (`tile.launch`) and pointwise maps (`tile.map`) on those buffers and on
    intermediate ones (`tile.alloc`). The body may compute grid sizes and
    kernel arguments with `arith` ops on scalars and `memref.dim`; nothing
    else. It returns nothing: outputs are buffer arguments the graph writes
    (destination-passing style).

    Buffer arguments must not overlap each other (the runtime checks this
    when it binds them). Argument attributes `tile.divisibility = 16` on a
    buffer (its address is a multiple of 16 bytes) or an integer pass on to
    the kernels that take them; intermediate buffers are 256-byte aligned.

    ```mlir
    tile.graph @linear_relu(%x: memref<?x64xf16>, %w: memref<64x32xf16>,
                            %y: memref<?x32xf16>) {
      %c0 = arith.constant 0 : index
      %m = memref.dim %x, %c0 : memref<?x64xf16>
      %h = tile.alloc(%m) : memref<?x32xf16>
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_AllocOp : Tile_Op<"alloc", [
    HasParent<"GraphOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "an intermediate buffer of a graph";
  let description = [{
    A device buffer that lives for one run of the graph, with one `index`
    operand per dynamic size of the result type, outermost first (as
    `memref.alloc`). Its contents are undefined until a launch or map
    writes them. The runtime allocates it 256-byte aligned.

    ```mlir
    %h = tile.alloc(%m) : memref<?x4096xf16>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes);
  let results = (outs Tile_Buffer:$result);
  let assemblyFormat = [{
    `(` $dynamic_sizes `)` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_LaunchOp : Tile_Op<"launch", [
    HasParent<"GraphOp">, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launch a kernel of the module on a grid";
  let description = [{
    Launches the kernel `@kernel` (a public `tile.func` of the module; once
    tile-lower-to-simt has moved the kernels, `@tilec_kernels::@name`, a
    `gpu.func`) on a
    grid of 1 to 3 `index` sizes (x, then y, z; missing ones are 1), with
    one operand per kernel argument: a buffer for a `!tile.ptr<T>`
    argument (its element type T; the kernel receives its base address),
    a scalar of the argument's own type otherwise. The launch maps
    tile-pointer-loads-to-descriptors appends (`tile.tma_source`: tensor
    maps the runtime encodes from the other arguments) take no operand.
    Kernels whose arguments include host-side tensor descriptors or tensor
    maps cannot be launched from a graph yet.

    What the launch reads and writes is the kernel's: a buffer whose
    pointer the kernel only loads through is read, one it stores or
    atomically updates through is written (tile-fuse-kernels derives
    this from the kernel body).

    ```mlir
    tile.launch @matmul_kernel grid(%gx) (%a, %b, %c, %m, %n, %k)
        : memref<?x64xf16>, memref<64x32xf16>, memref<?x32xf16>, i32, i32, i32
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel, Variadic<Index>:$grid,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `grid` `(` $grid `)` ` ` `(` $args `)` attr-dict
    (`:` type($args)^)?
  }];
  let hasVerifier = 1;
}

def Tile_CheckOp : Tile_Op<"check", [HasParent<"GraphOp">]> {
  let summary = "a condition on a graph's sizes, checked before it runs";
  let description = [{
    The runtime evaluates `cond` (from the graph's scalar arguments and
    buffer sizes) when it binds the graph's arguments, and refuses to run
    the graph where it is false, with `message` and the op's location.
    The graph passes emit these where they remove an op whose sizes had to
    agree: a map's dynamic input sizes must equal its output's.

    ```mlir
    %ok = arith.cmpi eq, %m, %n : index
    tile.check %ok, "input 0 of the map at x.mlir:7:3: dimension 0 differs from the output's"
    ```
  }];
  let arguments = (ins I1:$cond, StrAttr:$message);
  let assemblyFormat = "$cond `,` $message attr-dict";
}

def Tile_MapOp : Tile_Op<"map", [
    HasParent<"GraphOp">, IsolatedFromAbove]> {
  let summary = "apply a scalar function to every element of a buffer";
  let description = [{
    Writes `output[i] = f(inputs...[i])` for every index i of `output`,
    where f is the body: one block with one scalar argument per input (a
    buffer's element type, or a scalar input's own type) returning one
    value of the output's element type with `tile.map.return`. The body
    holds only pure elementwise scalar ops (`arith`, `math`) and
    constants, and uses no value from outside (scalars come in as
    inputs).

    Inputs broadcast as in NumPy: a buffer of lower rank is aligned with
    the output's trailing dimensions, and a dimension of static size 1
    repeats; every other aligned size must equal the output's (checked by
    the verifier where both are static, by the runtime otherwise). Scalar
    inputs are the same at every index. An input buffer may be the output
    (an in-place map); any other overlap is undefined.

    ```mlir
    tile.map ins(%h, %bias : memref<?x32xf16>, memref<32xf16>)
             outs(%y : memref<?x32xf16>) {
    ^bb0(%v: f16, %b: f16):
      %s = arith.addf %v, %b : f16
      tile.map.return %s : f16
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, Tile_Buffer:$output);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` ($inputs^ `:` type($inputs))? `)` `outs` `(` $output `:`
    type($output) `)` $body attr-dict
  }];
  let extraClassDeclaration = [{
    ::mlir::MemRefType getOutputType() {
      return ::llvm::cast<::mlir::MemRefType>(getOutput().getType());
    }
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_RowReduceOp : Tile_Op<"row_reduce", [
    HasParent<"GraphOp">, IsolatedFromAbove]> {
  let summary = "reduce the trailing dimensions of a buffer (keepdims)";
  let description = [{
    Reduces each row of `input` to one element of `output`. The output has
    the input's rank; its trailing dimensions of static size 1 are the
    reduced ones (a row: the elements sharing the other indices), and every
    other dimension equals the input's (checked by the verifier where both
    are static, by the runtime otherwise). This is Triton's
    `tl.reduce(x, axis, combine_fn, keep_dims=True)` over trailing axes, on
    whole buffers.

    The body combines an accumulator with one element: two arguments of
    the element type (the accumulator first) and `tile.map.return` of the
    combined value, with the same ops a `tile.map` body allows. It must be
    associative and commutative, and `init` must be its identity (0 for a
    sum, -inf for a max): the order of combination is unspecified and
    `init` may be combined in any number of times. Input and output have
    one element type; convert first with a `tile.map` (a sum of f16 in f32:
    a map to f32, then the reduction -- fusion makes them one kernel).

    A mean over the last dimension of a [M, N] buffer:

    ```mlir
    tile.row_reduce ins(%x : memref<?x768xf32>) outs(%s : memref<?x1xf32>)
                    init(0.0 : f32) {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      tile.map.return %r : f32
    }
    tile.map ins(%s : memref<?x1xf32>) outs(%mean : memref<?x1xf32>) {
    ^bb0(%v: f32):
      %n = arith.constant 768.0 : f32
      %m = arith.divf %v, %n : f32
      tile.map.return %m : f32
    }
    ```

    Without fusion a reduction becomes a kernel with one program per row
    (tile-outline-maps); tile-fuse-kernels merges reductions with the maps
    around them that share their rows into one such kernel.
  }];
  let arguments = (ins Tile_Buffer:$input, Tile_Buffer:$output,
                       TypedAttrInterface:$init);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)` `outs` `(` $output `:`
    type($output) `)` `init` `(` $init `)` $body attr-dict
  }];
  let extraClassDeclaration = [{
    ::mlir::MemRefType getInputType() {
      return ::llvm::cast<::mlir::MemRefType>(getInput().getType());
    }
    ::mlir::MemRefType getOutputType() {
      return ::llvm::cast<::mlir::MemRefType>(getOutput().getType());
    }
    /// The number of trailing dimensions reduced (at least 1).
    unsigned getNumReducedDims();
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_MapReturnOp : Tile_Op<"map.return", [
    Pure, ParentOneOf<["MapOp", "RowReduceOp"]>, ReturnLike, Terminator]> {
  let summary = "the value of a tile.map or tile.row_reduce body";
  let description = [{
    ```mlir
    tile.map.return %s : f16
    ```
  }];
  let arguments = (ins AnyType:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

#endif // TILE_GRAPH_OPS_TD
