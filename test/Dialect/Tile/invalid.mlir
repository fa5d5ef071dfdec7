// Verifier errors of the tile dialect's ops, types and encodings: one chunk
// per error message.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tile.func, tile.return, tile.call
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'tile.func' op expected a kernel (public tile.func) to return nothing, found 1 results}}
tile.func @kernel_returns(%a: f32) -> f32 {
  tile.return %a : f32
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.num_warps to be a power of two in [1, 32], found 3 : i32}}
tile.func @num_warps_not_pow2() attributes {tile.num_warps = 3 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.num_warps to be a power of two in [1, 32], found 64 : i32}}
tile.func @num_warps_too_large() attributes {tile.num_warps = 64 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.num_warps to be a power of two in [1, 32], found 0 : i32}}
tile.func @num_warps_zero() attributes {tile.num_warps = 0 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.num_warps to be a power of two in [1, 32], found "four"}}
tile.func @num_warps_not_int() attributes {tile.num_warps = "four"} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.num_stages to be a positive integer, found 0 : i32}}
tile.func @num_stages_zero() attributes {tile.num_stages = 0 : i32} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.divisibility of argument 0 to be a power of two, found 12 : i32}}
tile.func @divisibility_not_pow2(%x: !tile.ptr<f32> {tile.divisibility = 12 : i32}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.divisibility of argument 1 to be a power of two, found "16"}}
tile.func @divisibility_not_int(%x: !tile.ptr<f32>, %n: i32 {tile.divisibility = "16"}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.divisibility on argument 0 of pointer or integer type (not i1), found 'f32'}}
tile.func @divisibility_on_float(%f: f32 {tile.divisibility = 16 : i32}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.equal_to to be an integer on an integer argument, found 1 : i32 on argument 0 of type 'f32'}}
tile.func @equal_to_on_float(%f: f32 {tile.equal_to = 1 : i32}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.equal_to to be an integer on an integer argument, found "one" on argument 0 of type 'i32'}}
tile.func @equal_to_not_int(%n: i32 {tile.equal_to = "one"}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected kernel argument 1 to be a scalar or pointer, found 'tensor<16xf32>'}}
tile.func @kernel_tensor_arg(%x: !tile.ptr<f32>, %t: tensor<16xf32>) {
  tile.return
}

// -----

tile.func private @return_count(%a: f32) -> f32 {
  // expected-error @+1 {{'tile.return' op expected 1 values to match the function's results, found 0}}
  tile.return
}

// -----

tile.func private @return_type(%a: i32) -> f32 {
  // expected-error @+1 {{'tile.return' op expected result 0 of type 'f32', found 'i32'}}
  tile.return %a : i32
}

// -----

tile.func @call_missing(%a: f32) {
  // expected-error @+1 {{'tile.call' op expected 'nowhere' to be a tile.func in this module}}
  %r = tile.call @nowhere(%a) : (f32) -> f32
  tile.return
}

// -----

tile.func private @helper(%a: f32) -> f32 {
  tile.return %a : f32
}

tile.func @call_wrong_type(%a: i32) {
  // expected-error @+1 {{'tile.call' op expected the callee's type '(f32) -> f32', found '(i32) -> f32'}}
  %r = tile.call @helper(%a) : (i32) -> f32
  tile.return
}

// -----

tile.func private @helper(%a: f32) -> f32 {
  tile.return %a : f32
}

tile.func @call_wrong_results(%a: f32) {
  // expected-error @+1 {{'tile.call' op expected the callee's type '(f32) -> f32', found '(f32) -> ()'}}
  tile.call @helper(%a) : (f32) -> ()
  tile.return
}

//===----------------------------------------------------------------------===//
// Index ops
//===----------------------------------------------------------------------===//

// -----

tile.func @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op expected axis 0, 1 or 2, found 3}}
  %p = tile.program_id 3 : i32
  tile.return
}

// -----

tile.func @num_programs_axis() {
  // expected-error @+1 {{'tile.num_programs' op expected axis 0, 1 or 2, found -1}}
  %p = tile.num_programs -1 : i32
  tile.return
}

// -----

tile.func @make_range_rank() {
  // expected-error @+1 {{'tile.make_range' op expected a 1-D result, found rank 2}}
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<4x4xi32>
  tile.return
}

// -----

tile.func @make_range_empty() {
  // expected-error @+1 {{'tile.make_range' op expected end > start, found start = 16, end = 16}}
  %r = tile.make_range {start = 16 : i32, end = 16 : i32} : tensor<1xi32>
  tile.return
}

// -----

tile.func @make_range_size() {
  // expected-error @+1 {{'tile.make_range' op expected 16 elements (end - start), found 32}}
  %r = tile.make_range {start = 16 : i32, end = 32 : i32} : tensor<32xi32>
  tile.return
}

// -----

tile.func @make_range_elem() {
  // expected-error @+1 {{'tile.make_range' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<16xi64>'}}
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi64>
  tile.return
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// -----

tile.func @splat_elem(%n: i32) {
  // expected-error @+1 {{'tile.splat' op expected result element type 'i32', found 'i64'}}
  %t = tile.splat %n : i32 -> tensor<16xi64>
  tile.return
}

// -----

tile.func private @broadcast_elem(%t: tensor<1x16xi32>) {
  // expected-error @+1 {{'tile.broadcast' op expected result element type 'i32', found 'f32'}}
  %b = tile.broadcast %t : tensor<1x16xi32> -> tensor<8x16xf32>
  tile.return
}

// -----

tile.func private @broadcast_rank(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tile.broadcast' op expected source and result of one rank, found 1 and 2 (use tile.expand_dims to add dimensions)}}
  %b = tile.broadcast %t : tensor<16xi32> -> tensor<8x16xi32>
  tile.return
}

// -----

tile.func private @broadcast_dim(%t: tensor<2x16xi32>) {
  // expected-error @+1 {{'tile.broadcast' op expected source dimension 0 to be 1 or 8, found 2}}
  %b = tile.broadcast %t : tensor<2x16xi32> -> tensor<8x16xi32>
  tile.return
}

// -----

tile.func private @expand_dims_axis(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected axis in [0, 1], found 2}}
  %e = tile.expand_dims %t {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tile.return
}

// -----

tile.func private @expand_dims_negative_axis(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected axis in [0, 1], found -1}}
  %e = tile.expand_dims %t {axis = -1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tile.return
}

// -----

tile.func private @expand_dims_shape(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected result 'tensor<1x16xi32>', found 'tensor<16x1xi32>'}}
  %e = tile.expand_dims %t {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tile.return
}

// -----

tile.func private @expand_dims_elem(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected result 'tensor<16x1xi32>', found 'tensor<16x1xi64>'}}
  %e = tile.expand_dims %t {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi64>
  tile.return
}

// -----

#b2d = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tile.slice<{dim = 0, parent = #b2d}>
tile.func private @expand_dims_slice_dim(%t: tensor<16xi32, #s0>) {
  // expected-error @+1 {{'tile.expand_dims' op expected the source encoding to be #tile.slice<{dim = 1, parent = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>, found #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>}}
  %e = tile.expand_dims %t {axis = 1 : i32} : tensor<16xi32, #s0> -> tensor<16x1xi32, #b2d>
  tile.return
}

// -----

#b1d = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func private @expand_dims_not_slice(%t: tensor<16xi32, #b1d>) {
  // expected-error @+1 {{'tile.expand_dims' op expected the source encoding to be #tile.slice<{dim = 1, parent = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>, found #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}}
  %e = tile.expand_dims %t {axis = 1 : i32} : tensor<16xi32, #b1d> -> tensor<16x1xi32, #b2d>
  tile.return
}

// -----

tile.func private @reshape_numel(%t: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op expected 1024 elements in the result, found 512}}
  %r = tile.reshape %t : tensor<16x64xf32> -> tensor<512xf32>
  tile.return
}

// -----

tile.func private @reshape_elem(%t: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op expected result element type 'f32', found 'i32'}}
  %r = tile.reshape %t : tensor<16x64xf32> -> tensor<1024xi32>
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @convert_layout_shape(%t: tensor<128xf32, #b1>) {
  // expected-error @+1 {{'tile.convert_layout' op requires the same shape for all operands and results}}
  %c = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<256xf32, #b4>
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @convert_layout_elem(%t: tensor<128xf32, #b1>) {
  // expected-error @+1 {{'tile.convert_layout' op requires the same element type for all operands and results}}
  %c = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf16, #b4>
  tile.return
}

//===----------------------------------------------------------------------===//
// Memory ops
//===----------------------------------------------------------------------===//

// -----

tile.func private @addptr_shape(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{'tile.addptr' op expected offset shape [16] to match the pointer, found [32]}}
  %r = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<32xi32>
  tile.return
}

// -----

tile.func private @addptr_scalar_offset(%p: tensor<16x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op expected offset shape [16] to match the pointer, found scalar}}
  %r = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, i32
  tile.return
}

// -----

tile.func private @addptr_tensor_offset(%p: !tile.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @+1 {{'tile.addptr' op expected offset shape scalar to match the pointer, found [16]}}
  %r = tile.addptr %p, %o : !tile.ptr<f32>, tensor<16xi32>
  tile.return
}

// -----

tile.func private @addptr_result(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op failed to verify that all of {ptr, result} have same type}}
  %r = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  tile.return
}

// -----

tile.func private @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) {
  // expected-error @+1 {{'tile.load' op expected a mask with `other`, found none}}
  %v = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  tile.return
}

// -----

tile.func private @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result has the element type of the pointee of ptr}}
  %v = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  tile.return
}

// -----

tile.func private @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask has the shape of ptr with i1 elements}}
  %v = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<32xi1>) -> tensor<16xf32>
  tile.return
}

// -----

tile.func private @load_scalar_mask_on_tile(%p: tensor<16x!tile.ptr<f32>>, %m: i1) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask has the shape of ptr with i1 elements}}
  %v = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, i1) -> tensor<16xf32>
  tile.return
}

// -----

tile.func private @load_other_type(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that other has the type of the result}}
  %v = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>, tensor<16xf16>) -> tensor<16xf32>
  tile.return
}

// -----

tile.func private @load_mask_in_custom_syntax(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<32xi1>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<16xi1>' vs 'tensor<32xi1>'}}
  %v = tile.load %p, %m : tensor<16x!tile.ptr<f32>>
  tile.return
}

// -----

tile.func private @store_value_type(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the element type of the pointee of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, tensor<16xf16>) -> ()
  tile.return
}

// -----

tile.func private @store_value_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<32xf32>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the element type of the pointee of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f32>>, tensor<32xf32>) -> ()
  tile.return
}

// -----

tile.func private @store_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi8>) {
  // expected-error @+1 {{'tile.store' op operand #2 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values, but got 'tensor<16xi8>'}}
  "tile.store"(%p, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<16xi8>) -> ()
  tile.return
}

// -----

tile.func private @store_mask_elems(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask has the shape of ptr with i1 elements}}
  "tile.store"(%p, %v, %m) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<8xi1>) -> ()
  tile.return
}

//===----------------------------------------------------------------------===//
// Types and encodings
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected an integer or float pointee type, found 'tensor<4xf32>'}}
tile.func private @ptr_to_tensor(%p: !tile.ptr<tensor<4xf32>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected an integer or float pointee type, found '!tile.ptr<f32>'}}
tile.func private @ptr_to_ptr(%p: !tile.ptr<!tile.ptr<f32>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected threadsPerWarp to multiply to 32, found 16}}
tile.func private @blocked_lanes(%t: tensor<128xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected threadsPerWarp to multiply to 32, found 64}}
tile.func private @blocked_lanes_2d(%t: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected powers of two in dimension 0, found 3}}
tile.func private @blocked_not_pow2(%t: tensor<128xf32, #tile.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected powers of two in dimension 1, found 0}}
tile.func private @blocked_zero(%t: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 0], order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected order to be a permutation of [0, 2)}}
tile.func private @blocked_order_repeat(%t: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 1]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected order to be a permutation of [0, 2)}}
tile.func private @blocked_order_range(%t: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [2, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank, found 2, 1, 1 and 1}}
tile.func private @blocked_rank(%t: tensor<128xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a blocked encoding of rank >= 1}}
tile.func private @blocked_rank0(%t: tensor<128xf32, #tile.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected 'threadsPerWarp'}}
tile.func private @blocked_key_order(%t: tensor<128xf32, #tile.blocked<{sizePerThread = [1], warpsPerCTA = [4], threadsPerWarp = [32], order = [0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected slice dim < parent rank 2, found 2}}
tile.func private @slice_dim(%t: tensor<16xf32, #tile.slice<{dim = 2, parent = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a parent of rank >= 2 to slice}}
tile.func private @slice_rank1(%t: tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a distributed parent encoding (blocked, slice, mma or dot_operand), found "blocked"}}
tile.func private @slice_parent(%t: tensor<16xf32, #tile.slice<{dim = 0, parent = "blocked"}>>) {
  tile.return
}
