// Verifier errors of the graph-level ops: one chunk per error message.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.graph' op expected argument 0 to be a contiguous buffer (a memref of integers or floats with the identity layout) or a scalar (integer, float, index), found 'memref<4x4xf32, strided<[8, 1]>>'}}
tile.graph @strided(%a: memref<4x4xf32, strided<[8, 1]>>) {
}

// -----

// expected-error @+1 {{'tile.graph' op expected argument 0 to be a contiguous buffer}}
tile.graph @tensor(%a: tensor<4xf32>) {
}

// -----

// expected-error @+1 {{'tile.graph' op expected a graph to return nothing (outputs are buffer arguments), found 1 results}}
tile.graph @returns(%a: f32) -> f32 {
}

// -----

// expected-error @+1 {{'tile.graph' op expected tile.divisibility on argument 0 of buffer or integer type, found 'f32'}}
tile.graph @div_on_float(%a: f32 {tile.divisibility = 16 : i32}) {
}

// -----

// expected-error @+1 {{'tile.graph' op expected tile.divisibility of argument 0 to be a power of two, found 12 : i32}}
tile.graph @div_not_pow2(%a: memref<4xf32> {tile.divisibility = 12 : i32}) {
}

// -----

tile.graph @tile_op_in_graph(%a: i32) {
  // expected-error @+1 {{'tile.splat' op is not allowed in a 'tile.graph' body, which holds only tile.alloc, tile.launch, tile.map, tile.row_reduce, tile.check, memref.dim and arith ops on scalars}}
  %t = tile.splat %a : i32 -> tensor<4xi32>
}

// -----

tile.graph @tensor_arith() {
  // expected-error @+1 {{'arith.constant' op is not allowed in a 'tile.graph' body}}
  %t = arith.constant dense<1> : tensor<4xi32>
}

// -----

tile.graph @alloc_sizes(%n: index) {
  // expected-error @+1 {{'tile.alloc' op expected one size operand per dynamic dimension of 'memref<?x?xf16>' (2), found 1}}
  %t = tile.alloc(%n) : memref<?x?xf16>
}

// -----

tile.func @alloc_outside() {
  // expected-error @+1 {{'tile.alloc' op expects parent op 'tile.graph'}}
  %t = tile.alloc() : memref<4xf16>
  tile.return
}

// -----

tile.graph @launch_unknown(%n: index) {
  // expected-error @+1 {{'tile.launch' op expected 'nope' to name a tile.func of the module}}
  tile.launch @nope grid(%n) ()
}

// -----

tile.func private @device_fn() {
  tile.return
}
tile.graph @launch_device_fn(%n: index) {
  // expected-error @+1 {{'tile.launch' op expected 'device_fn' to be a kernel (a public tile.func with a body)}}
  tile.launch @device_fn grid(%n) ()
}

// -----

tile.func @k(%p: !tile.ptr<f16>, %n: i32) {
  tile.return
}
tile.graph @launch_count(%n: index, %a: memref<4xf16>) {
  // expected-error @+1 {{'tile.launch' op expected 2 operands for the arguments of 'k', found 1}}
  tile.launch @k grid(%n) (%a) : memref<4xf16>
}

// -----

tile.func @k(%p: !tile.ptr<f16>, %n: i32) {
  tile.return
}
tile.graph @launch_elem(%n: index, %a: memref<4xf32>, %i: i32) {
  // expected-error @+1 {{'tile.launch' op expected operand 0 to be a buffer of 'f16' for the kernel's argument of type '!tile.ptr<f16>', found 'memref<4xf32>'}}
  tile.launch @k grid(%n) (%a, %i) : memref<4xf32>, i32
}

// -----

tile.func @k(%p: !tile.ptr<f16>, %n: i32) {
  tile.return
}
tile.graph @launch_scalar(%n: index, %a: memref<4xf16>, %i: i64) {
  // expected-error @+1 {{'tile.launch' op expected operand 1 to have the kernel's argument type 'i32', found 'i64'}}
  tile.launch @k grid(%n) (%a, %i) : memref<4xf16>, i64
}

// -----

tile.func @k() {
  tile.return
}
tile.graph @launch_grid(%n: index) {
  // expected-error @+1 {{'tile.launch' op expected 1 to 3 grid sizes (x, y, z), found 4}}
  tile.launch @k grid(%n, %n, %n, %n) ()
}

// -----

tile.graph @map_broadcast(%a: memref<3x5xf32>, %b: memref<4x5xf32>) {
  // expected-error @+1 {{'tile.map' op expected input 0 ('memref<3x5xf32>') to broadcast to the output 'memref<4x5xf32>': dimension 0 has size 3, which neither equals the output's 4 nor is 1}}
  tile.map ins(%a : memref<3x5xf32>) outs(%b : memref<4x5xf32>) {
  ^bb0(%x: f32):
    tile.map.return %x : f32
  }
}

// -----

tile.graph @map_rank(%a: memref<2x3x5xf32>, %b: memref<3x5xf32>) {
  // expected-error @+1 {{'tile.map' op expected input 0 ('memref<2x3x5xf32>') to broadcast to the output 'memref<3x5xf32>': a buffer of rank 3 does not broadcast to rank 2}}
  tile.map ins(%a : memref<2x3x5xf32>) outs(%b : memref<3x5xf32>) {
  ^bb0(%x: f32):
    tile.map.return %x : f32
  }
}

// -----

tile.graph @map_arg_type(%a: memref<5xf16>, %b: memref<5xf32>) {
  // expected-error @+1 {{'tile.map' op expected body argument 0 to have type 'f16' (input 0's element type), found 'f32'}}
  tile.map ins(%a : memref<5xf16>) outs(%b : memref<5xf32>) {
  ^bb0(%x: f32):
    tile.map.return %x : f32
  }
}

// -----

tile.graph @map_arg_count(%a: memref<5xf32>, %b: memref<5xf32>) {
  // expected-error @+1 {{'tile.map' op expected the body to take one argument per input (1), found 2}}
  tile.map ins(%a : memref<5xf32>) outs(%b : memref<5xf32>) {
  ^bb0(%x: f32, %y: f32):
    tile.map.return %x : f32
  }
}

// -----

tile.graph @map_result(%a: memref<5xf16>, %b: memref<5xf32>) {
  tile.map ins(%a : memref<5xf16>) outs(%b : memref<5xf32>) {
  ^bb0(%x: f16):
    // expected-error @+1 {{'tile.map.return' op expected a value of the output's element type 'f32', found 'f16'}}
    tile.map.return %x : f16
  }
}

// -----

tile.graph @map_body(%a: memref<5xi32>, %b: memref<5xi32>) {
  tile.map ins(%a : memref<5xi32>) outs(%b : memref<5xi32>) {
  ^bb0(%x: i32):
    // expected-error @+1 {{'tile.splat' op is not allowed in a 'tile.map' body, which holds only pure elementwise ops and constants on scalars}}
    %t = tile.splat %x : i32 -> tensor<4xi32>
    tile.map.return %x : i32
  }
}

// -----

tile.graph @map_div(%a: memref<5xi32>, %b: memref<5xi32>) {
  tile.map ins(%a : memref<5xi32>) outs(%b : memref<5xi32>) {
  ^bb0(%x: i32):
    // Division by zero is undefined behaviour, so arith.divsi is not pure.
    // expected-error @+1 {{'arith.divsi' op is not allowed in a 'tile.map' body}}
    %q = arith.divsi %x, %x : i32
    tile.map.return %q : i32
  }
}

// -----

tile.graph @map_scalar_output(%a: memref<5xi32>, %b: i32) {
  // expected-error @+1 {{'tile.map' op operand #1 must be contiguous buffer (ranked memref with the identity layout), but got 'i32'}}
  "tile.map"(%a, %b) ({
  ^bb0(%x: i32):
    tile.map.return %x : i32
  }) : (memref<5xi32>, i32) -> ()
}

// -----

tile.graph @map_index_input(%a: memref<5xi64>, %n: index) {
  // expected-error @+1 {{'tile.map' op expected input 0 to be a buffer or a scalar of a type tiles hold (i8 to i64, f16, bf16, f32, f64), found 'index'}}
  tile.map ins(%n : index) outs(%a : memref<5xi64>) {
  ^bb0(%x: index):
    %c = arith.index_cast %x : index to i64
    tile.map.return %c : i64
  }
}

// -----

tile.graph @check_not_i1(%n: index) {
  // expected-error @+1 {{'tile.check' op operand #0 must be 1-bit signless integer, but got 'index'}}
  "tile.check"(%n) {message = "n"} : (index) -> ()
}

// -----

tile.graph @index_in_body(%x: memref<256xi32>, %y: memref<256xi32>) {
  tile.map ins(%x : memref<256xi32>) outs(%y : memref<256xi32>) {
  ^bb0(%v: i32):
    // expected-error @+1 {{'arith.index_cast' op is not allowed in a 'tile.map' body}}
    %i = arith.index_cast %v : i32 to index
    %r = arith.index_cast %i : index to i32
    tile.map.return %r : i32
  }
}

// -----

// expected-error @+1 {{'tile.graph' op expected argument 0 to be a contiguous buffer}}
tile.graph @odd_element(%x: memref<64xi7>) {
}

// -----

tile.graph @unsigned_alloc() {
  // expected-error @+1 {{'tile.alloc' op result #0 must be contiguous buffer}}
  %t = tile.alloc() : memref<4xui8>
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f(%p: memref<4xf32>) kernel {
      gpu.return
    }
  }
  tile.graph @nested_launch(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'tile.launch' op expected 'f' to name a tile.func of the module}}
    tile.launch @m::@f grid(%c1) (%x) : memref<4xf32>
  }
}

// -----

// expected-error @+1 {{'tile.graph' op expected the graph's name to be an identifier ([A-Za-z_$][A-Za-z0-9_$]*, it names the PTX's graph and kernels), found 'my graph'}}
tile.graph @"my graph"(%n: index) {
  %c = arith.constant 0 : index
}

// -----

tile.graph @dim_range(%x: memref<4x4xf32>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'memref.dim' op expected a dimension in [0, 2) of the buffer, found 2}}
  %d = memref.dim %x, %c2 : memref<4x4xf32>
}

// -----

tile.graph @negative_alloc() {
  %m = arith.constant -5 : index
  // expected-error @+1 {{'tile.alloc' op expected size operand 0 to be at least 0, found a negative constant}}
  %t = tile.alloc(%m) : memref<?xf32>
}

// -----

tile.func @k() {
  tile.return
}
tile.graph @negative_grid() {
  %m = arith.constant -1 : index
  // expected-error @+1 {{'tile.launch' op expected grid size 0 to be at least 0, found a negative constant}}
  tile.launch @k grid(%m) ()
}

// -----

tile.graph @reduce_types(%x: memref<8x16xf16>, %s: memref<8x1xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected the input and the output to have one element type, found 'f16' and 'f32' (convert with a tile.map first)}}
  tile.row_reduce ins(%x : memref<8x16xf16>) outs(%s : memref<8x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_rank(%x: memref<8x16xf32>, %s: memref<8xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected the output to have the input's rank (2), found 1}}
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_nothing(%x: memref<8x16xf32>, %s: memref<8x16xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected the output's trailing dimensions to be the reduced ones, of static size 1; found 'memref<8x16xf32>'}}
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8x16xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_rows(%x: memref<8x16xf32>, %s: memref<4x1xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected output dimension 0 to equal the input's (8), found 4}}
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<4x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_init(%x: memref<8x16xf32>, %s: memref<8x1xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected init of the element type 'f32', found 'i32'}}
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8x1xf32>) init(0 : i32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_in_place(%x: memref<8x1xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected the output to be another buffer than the input}}
  tile.row_reduce ins(%x : memref<8x1xf32>) outs(%x : memref<8x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_args(%x: memref<8x16xf32>, %s: memref<8x1xf32>) {
  // expected-error @+1 {{'tile.row_reduce' op expected the body to take two arguments of the element type 'f32' (the accumulator and an element)}}
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32):
    tile.map.return %a : f32
  }
}

// -----

tile.graph @reduce_body(%x: memref<8x16xf32>, %s: memref<8x1xf32>) {
  tile.row_reduce ins(%x : memref<8x16xf32>) outs(%s : memref<8x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %c = arith.index_cast %a : f32 to index
    // expected-error @-1 {{'arith.index_cast' op operand #0 must be}}
    tile.map.return %a : f32
  }
}

// -----

tile.graph @map_unlowered(%x: memref<8xf32>, %y: memref<8xf32>) {
  tile.map ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%v: f32):
    // expected-error @+1 {{'math.trunc' op is not supported in a 'tile.map' body yet (tilec does not lower it to the GPU)}}
    %r = math.trunc %v : f32
    tile.map.return %r : f32
  }
}
