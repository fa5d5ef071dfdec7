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

// expected-error @+1 {{'tile.func' op expected tile.unsigned to be a unit attribute on an integer argument or a pointer to integers (not i1), found unit on argument 0 of type '!tile.ptr<f32>'}}
tile.func @unsigned_float_pointer(%p: !tile.ptr<f32> {tile.unsigned}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.unsigned to be a unit attribute on an integer argument or a pointer to integers (not i1), found 1 : i32 on argument 0 of type 'i32'}}
tile.func @unsigned_not_unit(%n: i32 {tile.unsigned = 1 : i32}) {
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
  // expected-error @+1 {{'tile.make_range' op expected 0 <= start < end, found start = 16, end = 16}}
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

//===----------------------------------------------------------------------===//
// Tensor-core encodings: #tile.mma, #tile.dot_operand, #tile.slice
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected mma version 2 (mma.sync) or 3 (wgmma), found 1}}
tile.func private @mma_version(%t: tensor<64x64xf32, #tile.mma<{version = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected warpsPerCTA of rank 2 or 3, found rank 1}}
tile.func private @mma_warps_rank(%t: tensor<64xf32, #tile.mma<{version = 2, warpsPerCTA = [4], instrShape = [16, 8]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected powers of two in warpsPerCTA, found 3}}
tile.func private @mma_warps_pow2(%t: tensor<64x64xf32, #tile.mma<{version = 2, warpsPerCTA = [3, 1], instrShape = [16, 8]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected powers of two in warpsPerCTA, found 0}}
tile.func private @mma_warps_zero(%t: tensor<64x64xf32, #tile.mma<{version = 2, warpsPerCTA = [4, 0], instrShape = [16, 8]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected instrShape = [16, 8] for mma version 2}}
tile.func private @mma_v2_instr(%t: tensor<64x64xf32, #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 16]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected instrShape = [64, N, K] with N a multiple of 8 up to 256 and K 8, 16 or 32}}
tile.func private @mma_v3_instr_n(%t: tensor<64x64xf32, #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 12, 16]}>>) {
  tile.return
}

// -----

// Version 3 (wgmma) takes [64, N, K] per warpgroup.
// expected-error @+1 {{expected instrShape = [64, N, K] with N a multiple of 8 up to 256 and K 8, 16 or 32}}
tile.func private @mma_v3_instr_rank(%t: tensor<64x64xf32, #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>>) {
  tile.return
}

// -----

// wgmma's K is 8 (tf32), 16 (16-bit) or 32 (8-bit).
// expected-error @+1 {{expected instrShape = [64, N, K] with N a multiple of 8 up to 256 and K 8, 16 or 32 (tf32, 16-bit, 8-bit operands; PTX ISA 9.7.15) for mma version 3}}
tile.func private @mma_v3_instr_k(%t: tensor<64x64xf32, #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 7]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected opIdx 0 (A) or 1 (B), found 2}}
tile.func private @dot_operand_opidx(%t: tensor<64x64xf16, #tile.dot_operand<{opIdx = 2, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected kWidth 1 (tf32), 2 (16-bit) or 4 (8-bit) for an mma parent, found 8}}
tile.func private @dot_operand_kwidth(%t: tensor<64x64xf16, #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 8}>>) {
  tile.return
}

// -----

// wgmma reads A from registers only at kWidth 2 (16-bit elements).
// expected-error @+1 {{expected opIdx 0 and kWidth 2 for a dot operand of mma version 3 in registers (wgmma reads A from registers, 16-bit), found opIdx 0 and kWidth 4}}
tile.func private @dot_operand_wgmma(%t: tensor<64x64xf8E4M3FN, #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>, kWidth = 4}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a blocked parent of rank 2 or 3}}
tile.func private @dot_operand_blocked_rank(%t: tensor<64xf32, #tile.dot_operand<{opIdx = 0, parent = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>, kWidth = 0}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected kWidth = 0 for a blocked parent}}
tile.func private @dot_operand_blocked_kwidth(%t: tensor<64x64xf32, #tile.dot_operand<{opIdx = 1, parent = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, kWidth = 2}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected an #tile.mma or #tile.blocked parent, found #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>}}
tile.func private @dot_operand_slice_parent(%t: tensor<64x64xf32, #tile.dot_operand<{opIdx = 0, parent = #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>, kWidth = 0}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected an #tile.mma or #tile.blocked parent, found #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}}
tile.func private @dot_operand_shared_parent(%t: tensor<64x64xf16, #tile.dot_operand<{opIdx = 0, parent = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, kWidth = 2}>>) {
  tile.return
}

// -----

// Shared encodings are not distributed: a slice removes a dimension of a
// register layout.
// expected-error @+1 {{expected a distributed parent encoding (blocked, slice, mma or dot_operand), found #tile.nvmma_shared<{swizzle = 128, transposed = false}>}}
tile.func private @slice_shared_parent(%t: tensor<64xf16, #tile.slice<{dim = 0, parent = #tile.nvmma_shared<{swizzle = 128, transposed = false}>}>>) {
  tile.return
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings and !tile.memdesc
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{expected vec, perPhase and maxPhase to be powers of two, found 6}}
tile.func private @shared_vec(%m: !tile.memdesc<64x64xf16, #tile.shared<{vec = 6, perPhase = 1, maxPhase = 8, order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected vec, perPhase and maxPhase to be powers of two, found 0}}
tile.func private @shared_per_phase(%m: !tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 0, maxPhase = 8, order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected vec, perPhase and maxPhase to be powers of two, found 5}}
tile.func private @shared_max_phase(%m: !tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 5, order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected order to be a permutation of [0, 2)}}
tile.func private @shared_order(%m: !tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected order to be a permutation of [0, 2)}}
tile.func private @shared_order_range(%m: !tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 1]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a swizzle of 32, 64 or 128 bytes, found 16}}
tile.func private @nvmma_swizzle(%m: !tile.memdesc<64x64xf16, #tile.nvmma_shared<{swizzle = 16, transposed = false}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a shared encoding (#tile.shared or #tile.nvmma_shared), found #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}}
tile.func private @memdesc_blocked(%m: !tile.memdesc<64x64xf16, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tile.return
}

// -----

// expected-error @+1 {{expected a shared encoding (#tile.shared or #tile.nvmma_shared), found "shared"}}
tile.func private @memdesc_string(%m: !tile.memdesc<64x64xf16, "shared">) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{expected an integer or float element type, found '!tile.ptr<f16>'}}
tile.func private @memdesc_ptr(%m: !tile.memdesc<64x64x!tile.ptr<f16>, #shared>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{expected at least 2 dimensions for the encoding, found 1}}
tile.func private @memdesc_rank(%m: !tile.memdesc<64xf16, #shared>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{expected power-of-two tile dimensions, found 48}}
tile.func private @memdesc_not_pow2(%m: !tile.memdesc<3x48x64xf16, #shared, mutable>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// Buffer dimensions may have any positive size (3 stages), not 0.
// expected-error @+1 {{expected a positive buffer count (dimension 0), found 0}}
tile.func private @memdesc_zero_buffers(%m: !tile.memdesc<0x64x64xf16, #shared, mutable>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{expected an allocation shape of rank 2}}
tile.func private @memdesc_alloc_rank(%m: !tile.memdesc<64x16xf16, #shared, alloc = 2x64x64>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// A view is no larger than its allocation...
// expected-error @+1 {{expected the view to divide its allocation}}
tile.func private @memdesc_alloc_smaller(%m: !tile.memdesc<64x32xf16, #shared, alloc = 64x16>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// ... and tiles it.
// expected-error @+1 {{expected the view to divide its allocation}}
tile.func private @memdesc_alloc_divide(%m: !tile.memdesc<64x32xf16, #shared, alloc = 64x48>) {
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// Only `mutable` and `alloc = ...` may follow the encoding.
// expected-error @+1 {{expected 'alloc'}}
tile.func private @memdesc_keyword(%m: !tile.memdesc<64x32xf16, #shared, immutable>) {
  tile.return
}

//===----------------------------------------------------------------------===//
// Shared-memory ops
//===----------------------------------------------------------------------===//

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_alloc_shape(%v: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{'tile.local_alloc' op expected a tile of the memdesc's shape and element type, found 'tensor<64x64xf16, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' and '!tile.memdesc<128x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %m = tile.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_alloc_not_distributed(%v: tensor<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.local_alloc' op expected a distributed source, found 'tensor<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %m = tile.local_alloc %v : (tensor<64x64xf16, #shared>) -> !tile.memdesc<64x64xf16, #shared>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// With a source too, the result is a whole allocation.
tile.func private @local_alloc_src_view(%v: tensor<64x16xf16, #blocked>) {
  // expected-error @+1 {{'tile.local_alloc' op expected a whole allocation, found a view '!tile.memdesc<64x16xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, alloc = 64x64>'}}
  %m = tile.local_alloc %v : (tensor<64x16xf16, #blocked>) -> !tile.memdesc<64x16xf16, #shared, alloc = 64x64>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_alloc_immutable() {
  // expected-error @+1 {{'tile.local_alloc' op expected a mutable memdesc for an allocation without a source (nothing could write it), found '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %m = tile.local_alloc : () -> !tile.memdesc<64x64xf16, #shared>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_alloc_view() {
  // expected-error @+1 {{'tile.local_alloc' op expected a whole allocation, found a view '!tile.memdesc<64x16xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable, alloc = 64x64>'}}
  %m = tile.local_alloc : () -> !tile.memdesc<64x16xf16, #shared, mutable, alloc = 64x64>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_load_elem(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.local_load' op expected a tile of the memdesc's shape and element type, found 'tensor<64x64xbf16, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' and '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %v = tile.local_load %m : !tile.memdesc<64x64xf16, #shared> -> tensor<64x64xbf16, #blocked>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_load_shape(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.local_load' op expected a tile of the memdesc's shape and element type, found 'tensor<64x32xf16, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' and '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %v = tile.local_load %m : !tile.memdesc<64x64xf16, #shared> -> tensor<64x32xf16, #blocked>
  tile.return
}

// -----

#b3 = #tile.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_load_buffers(%m: !tile.memdesc<2x64x64xf16, #shared, mutable>) {
  // expected-error @+1 {{'tile.local_load' op expected a tile of the memdesc's shape and element type, found 'tensor<2x64x64xf16, #tile.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>' and '!tile.memdesc<2x64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  %v = tile.local_load %m : !tile.memdesc<2x64x64xf16, #shared, mutable> -> tensor<2x64x64xf16, #b3>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_store_immutable(%v: tensor<64x64xf16, #blocked>, %m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.local_store' op expected a mutable destination, found '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  tile.local_store %v, %m : tensor<64x64xf16, #blocked>, !tile.memdesc<64x64xf16, #shared>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @local_store_shape(%v: tensor<64x32xf32, #blocked>, %m: !tile.memdesc<64x64xf32, #shared, mutable>) {
  // expected-error @+1 {{'tile.local_store' op expected a tile of the memdesc's shape and element type, found 'tensor<64x32xf32, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' and '!tile.memdesc<64x64xf32, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  tile.local_store %v, %m : tensor<64x32xf32, #blocked>, !tile.memdesc<64x64xf32, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_index_single(%m: !tile.memdesc<64x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.memdesc_index' op expected a multi-buffered source (a leading buffer dimension), found '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  %s = tile.memdesc_index %m[%i] : !tile.memdesc<64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_index_mutable(%m: !tile.memdesc<3x64x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.memdesc_index' op expected the source without its leading dimension, found '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %s = tile.memdesc_index %m[%i] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_index_shape(%m: !tile.memdesc<3x64x64xf16, #shared, mutable>, %i: i32) {
  // expected-error @+1 {{'tile.memdesc_index' op expected the source without its leading dimension, found '!tile.memdesc<1x64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  %s = tile.memdesc_index %m[%i] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<1x64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_index_out_of_range(%m: !tile.memdesc<3x64x64xf16, #shared, mutable>) {
  %c3 = arith.constant 3 : i32
  // expected-error @+1 {{'tile.memdesc_index' op expected a buffer index in [0, 3), found 3}}
  %s = tile.memdesc_index %m[%c3] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_index_negative(%m: !tile.memdesc<3x64x64xf16, #shared, mutable>) {
  %c-1 = arith.constant -1 : i32
  // expected-error @+1 {{'tile.memdesc_index' op expected a buffer index in [0, 3), found -1}}
  %s = tile.memdesc_index %m[%c-1] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_rank(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected one offset per dimension and a result of the source's rank}}
  %s = tile.memdesc_subview %m[0] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<64x16xf16, #shared, alloc = 64x64>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_misaligned(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected aligned offsets inside the source, found offset 8 for extent 16 in dimension 1}}
  %s = tile.memdesc_subview %m[0, 8] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<64x16xf16, #shared, alloc = 64x64>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_out_of_bounds(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected aligned offsets inside the source, found offset 64 for extent 16 in dimension 1}}
  %s = tile.memdesc_subview %m[0, 64] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<64x16xf16, #shared, alloc = 64x64>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_negative(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected aligned offsets inside the source, found offset -32 for extent 32 in dimension 0}}
  %s = tile.memdesc_subview %m[-32, 0] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<32x16xf16, #shared, alloc = 64x64>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_alloc(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected a view of the same allocation, found '!tile.memdesc<64x16xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, alloc = 64x32>'}}
  %s = tile.memdesc_subview %m[0, 16] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<64x16xf16, #shared, alloc = 64x32>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_subview_mutable(%m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_subview' op expected a view of the same allocation, found '!tile.memdesc<64x16xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable, alloc = 64x64>'}}
  %s = tile.memdesc_subview %m[0, 16] : !tile.memdesc<64x64xf16, #shared> -> !tile.memdesc<64x16xf16, #shared, mutable, alloc = 64x64>
  tile.return
}

// -----

#nvmma = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
// A 2-D #tile.nvmma_shared memdesc transposes by flipping `transposed`.
tile.func private @memdesc_trans_nvmma(%m: !tile.memdesc<64x32xf16, #nvmma>) {
  // expected-error @+1 {{'tile.memdesc_trans' op expected result '!tile.memdesc<32x64xf16, #tile.nvmma_shared<{swizzle = 128, transposed = true}>>', found '!tile.memdesc<32x64xf16, #tile.nvmma_shared<{swizzle = 128, transposed = false}>>'}}
  %t = tile.memdesc_trans %m {order = array<i32: 1, 0>} : !tile.memdesc<64x32xf16, #nvmma> -> !tile.memdesc<32x64xf16, #nvmma>
  tile.return
}

// -----

#nvmma3 = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
// #tile.nvmma_shared is 2-D: no other permutation.
tile.func private @memdesc_trans_nvmma_identity(%m: !tile.memdesc<64x32xf16, #nvmma3>) {
  // expected-error @+1 {{'tile.memdesc_trans' op unimplemented: transposing a view, a multi-buffered memdesc, or one that is neither #tile.shared nor a 2-D #tile.nvmma_shared}}
  %t = tile.memdesc_trans %m {order = array<i32: 0, 1>} : !tile.memdesc<64x32xf16, #nvmma3> -> !tile.memdesc<64x32xf16, #nvmma3>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared_t = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
tile.func private @memdesc_trans_view(%m: !tile.memdesc<64x16xf16, #shared, alloc = 64x64>) {
  // expected-error @+1 {{'tile.memdesc_trans' op unimplemented: transposing a view, a multi-buffered memdesc, or one that is neither #tile.shared nor a 2-D #tile.nvmma_shared}}
  %t = tile.memdesc_trans %m {order = array<i32: 1, 0>} : !tile.memdesc<64x16xf16, #shared, alloc = 64x64> -> !tile.memdesc<16x64xf16, #shared_t>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_trans_buffers(%m: !tile.memdesc<2x64x64xf16, #shared, mutable>) {
  // expected-error @+1 {{'tile.memdesc_trans' op unimplemented: transposing a view, a multi-buffered memdesc, or one that is neither #tile.shared nor a 2-D #tile.nvmma_shared}}
  %t = tile.memdesc_trans %m {order = array<i32: 0, 2, 1>} : !tile.memdesc<2x64x64xf16, #shared, mutable> -> !tile.memdesc<2x64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_trans_order_size(%m: !tile.memdesc<64x32xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_trans' op expected one order entry per dimension}}
  %t = tile.memdesc_trans %m {order = array<i32: 0>} : !tile.memdesc<64x32xf16, #shared> -> !tile.memdesc<64x32xf16, #shared>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_trans_order_perm(%m: !tile.memdesc<64x32xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_trans' op expected order to be a permutation}}
  %t = tile.memdesc_trans %m {order = array<i32: 1, 1>} : !tile.memdesc<64x32xf16, #shared> -> !tile.memdesc<32x32xf16, #shared>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @memdesc_trans_result(%m: !tile.memdesc<64x32xf16, #shared>) {
  // expected-error @+1 {{'tile.memdesc_trans' op expected result '!tile.memdesc<32x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>>', found '!tile.memdesc<32x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  %t = tile.memdesc_trans %m {order = array<i32: 1, 0>} : !tile.memdesc<64x32xf16, #shared> -> !tile.memdesc<32x64xf16, #shared>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @async_copy_immutable(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: !tile.memdesc<64x64xf16, #shared>) {
  // expected-error @+1 {{'tile.async_copy' op expected a mutable destination, found '!tile.memdesc<64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>>'}}
  tile.async_copy %p, %m : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @async_copy_shape(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: !tile.memdesc<128x64xf16, #shared, mutable>) {
  // expected-error @+1 {{'tile.async_copy' op expected a destination tile of the pointers' shape and pointee type, found '!tile.memdesc<128x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  tile.async_copy %p, %m : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<128x64xf16, #shared, mutable>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @async_copy_pointee(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: !tile.memdesc<64x64xbf16, #shared, mutable>) {
  // expected-error @+1 {{'tile.async_copy' op expected a destination tile of the pointers' shape and pointee type, found '!tile.memdesc<64x64xbf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  tile.async_copy %p, %m : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xbf16, #shared, mutable>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// One buffer of a multi-buffered allocation is copied into, not all of them.
tile.func private @async_copy_buffers(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: !tile.memdesc<1x64x64xf16, #shared, mutable>) {
  // expected-error @+1 {{'tile.async_copy' op expected a destination tile of the pointers' shape and pointee type, found '!tile.memdesc<1x64x64xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>'}}
  tile.async_copy %p, %m : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<1x64x64xf16, #shared, mutable>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// The custom syntax infers the mask type from the pointers; the generic one
// can disagree.
tile.func private @async_copy_mask(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: !tile.memdesc<64x64xf16, #shared, mutable>, %k: tensor<64x32xi1, #blocked>) {
  // expected-error @+1 {{'tile.async_copy' op failed to verify that mask has the shape of ptr with i1 elements}}
  "tile.async_copy"(%p, %m, %k) : (tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>, tensor<64x32xi1, #blocked>) -> ()
  tile.return
}

// -----

tile.func private @async_wait_num() {
  // expected-error @+1 {{'tile.async_wait' op requires attribute 'num'}}
  tile.async_wait
  tile.return
}

// -----

tile.func private @async_wait_negative() {
  // expected-error @+1 {{'tile.async_wait' op attribute 'num' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  tile.async_wait {num = -1 : i32}
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.shared_offset (a dialect attribute, on any op)
//===----------------------------------------------------------------------===//

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @shared_offset_misaligned() {
  // expected-error @+1 {{'tile.local_alloc' op expected tile.shared_offset to be a non-negative multiple of 16, found 8 : i32}}
  %m = tile.local_alloc {tile.shared_offset = 8 : i32} : () -> !tile.memdesc<64x64xf16, #shared, mutable>
  tile.return
}

// -----

#shared = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @shared_offset_negative() {
  // expected-error @+1 {{'tile.local_alloc' op expected tile.shared_offset to be a non-negative multiple of 16, found -16 : i32}}
  %m = tile.local_alloc {tile.shared_offset = -16 : i32} : () -> !tile.memdesc<64x64xf16, #shared, mutable>
  tile.return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @shared_offset_not_int(%t: tensor<512xf32, #b4>) {
  // expected-error @+1 {{'tile.convert_layout' op expected tile.shared_offset to be a non-negative multiple of 16, found "0"}}
  %c = tile.convert_layout %t {tile.shared_offset = "0"} : tensor<512xf32, #b4> -> tensor<512xf32, #b1>
  tile.return
}

//===----------------------------------------------------------------------===//
// Laid-out tile.dot
//===----------------------------------------------------------------------===//

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_mma_operand_blocked(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected operand a in a #tile.dot_operand layout of the result's #tile.mma, found 'tensor<64x32xf16, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #blocked>, tensor<32x64xf16, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
tile.func private @dot_mma_operand_plain(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected operand b in a #tile.dot_operand layout of the result's #tile.mma, found 'tensor<32x64xf16>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
tile.func private @dot_operand_swapped(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #a16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected operand b in #tile.dot_operand<{opIdx = 1, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>, found #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #a16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma41 = #tile.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma41, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_operand_other_parent(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected operand a in #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>, found #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#fa = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#fb = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// The FMA path: a blocked result takes operands of its own layout.
tile.func private @dot_blocked_result_mma_operands(%a: tensor<64x32xf16, #fa>, %b: tensor<32x64xf16, #fb>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{'tile.dot' op expected operand a in #tile.dot_operand<{opIdx = 0, parent = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, found #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #fa>, tensor<32x64xf16, #fb>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a8 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_kwidth_f16(%a: tensor<64x32xf16, #a8>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected kWidth 2 for mma.sync operands of 'f16', found 4}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a8>, tensor<32x64xf16, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a8 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_kwidth_fp8(%a: tensor<64x64xf8E4M3FN, #a8>, %b: tensor<64x64xf8E4M3FN, #b16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected kWidth 4 for mma.sync operands of 'f8E4M3FN', found 2}}
  %d = tile.dot %a, %b, %c : tensor<64x64xf8E4M3FN, #a8>, tensor<64x64xf8E4M3FN, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_kwidth_tf32(%a: tensor<64x16xf32, #a16>, %b: tensor<16x64xf32, #b16>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected kWidth 1 for mma.sync operands of 'f32', found 2}}
  %d = tile.dot %a, %b, %c : tensor<64x16xf32, #a16>, tensor<16x64xf32, #b16>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>
// f64 has no mma.sync form with these fragments.
tile.func private @dot_kwidth_f64(%a: tensor<64x16xf64, #a>, %b: tensor<16x64xf64, #b>, %c: tensor<64x64xf64, #mma>) {
  // expected-error @+1 {{'tile.dot' op expected kWidth 0 for mma.sync operands of 'f64', found 1}}
  %d = tile.dot %a, %b, %c : tensor<64x16xf64, #a>, tensor<16x64xf64, #b>, tensor<64x64xf64, #mma> -> tensor<64x64xf64, #mma>
  tile.return
}

// -----

#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func private @dot_acc_layout(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{'tile.dot' op expected the accumulator in the result's layout #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, found 'tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #b16>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// An accumulator without an encoding: the message shows its type.
tile.func private @dot_acc_no_layout(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op expected the accumulator in the result's layout #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, found 'tensor<64x64xf32>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #b16>, tensor<64x64xf32> -> tensor<64x64xf32, #mma>
  tile.return
}

// -----

#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a16 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#b16 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// Operands in an mma layout, a result without an encoding.
tile.func private @dot_result_no_layout(%a: tensor<64x32xf16, #a16>, %b: tensor<32x64xf16, #b16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op expected a result with an encoding (the parent of operand a's #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>), found 'tensor<64x64xf32>'}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a16>, tensor<32x64xf16, #b16>, tensor<64x64xf32> -> tensor<64x64xf32>
  tile.return
}

// -----

// Every tile in a tile.func carries an encoding of its own rank (a rank-1
// blocked encoding on a 2-D tile used to crash tile-allocate-shared).
#blocked = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bad = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @encoding_rank(%t: tensor<16x16xf16, #blocked>) {
  // expected-error @+1 {{'tile.convert_layout' op expected an encoding of rank 2 on 'tensor<16x16xf16, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>', found one of rank 1}}
  %0 = tile.convert_layout %t : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #bad>
  tile.return
}

// -----

#mma3 = #tile.mma<{version = 2, warpsPerCTA = [1, 2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{'tile.func' op expected an encoding of rank 2 on 'tensor<16x16xf32, #tile.mma<{version = 2, warpsPerCTA = [1, 2, 2], instrShape = [16, 8]}>>', found one of rank 3}}
tile.func private @encoding_rank_arg(%t: tensor<16x16xf32, #mma3>) {
  tile.return
}

// -----

// expected-error @+1 {{expected warpsPerCTA along M to be a multiple of 4 for mma version 3 (a warpgroup is four warps along M), found 2}}
tile.func private @mma_v3_warps(%t: tensor<64x64xf32, #tile.mma<{version = 3, warpsPerCTA = [2, 2], instrShape = [64, 32, 16]}>>) {
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#mma2 = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sh = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tile.func private @warpgroup_dot_encodings(%a: !tile.memdesc<64x64xf16, #sh>, %b: !tile.memdesc<64x64xf16, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{expected operands in #tile.nvmma_shared encodings}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xf16, #sh>, !tile.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#mma2 = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
tile.func private @warpgroup_dot_v2(%a: !tile.memdesc<64x64xf16, #nv>, %b: !tile.memdesc<64x64xf16, #nv>, %c: tensor<64x64xf32, #mma2>) {
  // expected-error @+1 {{expected c in a #tile.mma version-3 layout}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xf16, #nv>, !tile.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma2> -> tensor<64x64xf32, #mma2>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
tile.func private @warpgroup_dot_shape(%a: !tile.memdesc<64x32xf16, #nv>, %b: !tile.memdesc<64x64xf16, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{expected a MxK, b KxN and c MxN, found 64x32, 64x64 and 64x64}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x32xf16, #nv>, !tile.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
tile.func private @warpgroup_dot_types(%a: !tile.memdesc<64x64xf32, #nv>, %b: !tile.memdesc<64x64xf32, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{unimplemented: wgmma of 'f32' x 'f32' into 'f32' (input_precision "ieee"); expected f16 x f16 or bf16 x bf16 into f32, f32 x f32 with input_precision "tf32" into f32, fp8 (f8E4M3FN, f8E5M2) into f32, or i8 x i8 into i32}}
  %d = tile.warpgroup_dot %a, %b, %c {input_precision = "ieee"} : !tile.memdesc<64x64xf32, #nv>, !tile.memdesc<64x64xf32, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 64, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
tile.func private @warpgroup_dot_int8_into_f32(%a: !tile.memdesc<64x64xi8, #nv>, %b: !tile.memdesc<64x64xi8, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{unimplemented: wgmma of 'i8' x 'i8' into 'f32'}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xi8, #nv>, !tile.memdesc<64x64xi8, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

// fp8 cannot be MN-major: b untransposed has N contiguous.
#nv = #tile.nvmma_shared<{swizzle = 64, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]}>
tile.func private @warpgroup_dot_fp8_mn_major(%a: !tile.memdesc<64x64xf8E4M3FN, #nv>, %b: !tile.memdesc<64x64xf8E4M3FN, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{expected K-major operands (a untransposed, b transposed) for wgmma of 'f8E4M3FN' x 'f8E4M3FN' (only f16 and bf16 may be MN-major), found a K-major and b N-major}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xf8E4M3FN, #nv>, !tile.memdesc<64x64xf8E4M3FN, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 64, transposed = false}>
#nvt = #tile.nvmma_shared<{swizzle = 64, transposed = true}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
tile.func private @warpgroup_dot_fp8_instr_k(%a: !tile.memdesc<64x64xf8E5M2, #nv>, %b: !tile.memdesc<64x64xf8E4M3FN, #nvt>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{expected instrShape K = 32 (32 bytes of 'f8E5M2') in the accumulator's layout, found 16}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xf8E5M2, #nv>, !tile.memdesc<64x64xf8E4M3FN, #nvt>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
// expected-error @+1 {{expected opIdx 0 and kWidth 2 for a dot operand of mma version 3 in registers (wgmma reads A from registers, 16-bit), found opIdx 1 and kWidth 2}}
tile.func private @dot_operand_v3_b(%t: tensor<64x64xf16, #tile.dot_operand<{opIdx = 1, parent = #mma3, kWidth = 2}>>) {
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tile.func private @warpgroup_dot_register_a(%a: tensor<64x64xf16, #blocked>, %b: !tile.memdesc<64x64xf16, #nv>, %c: tensor<64x64xf32, #mma3>) {
  // expected-error @+1 {{expected a in registers to be f16 or bf16 in #tile.dot_operand<{opIdx = 0, parent = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>, kWidth = 2}>, found 'tensor<64x64xf16, #tile.blocked}}
  %d = tile.warpgroup_dot %a, %b, %c : tensor<64x64xf16, #blocked>, !tile.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma3> -> tensor<64x64xf32, #mma3>
  tile.return
}

// -----

#nv = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#nvt = #tile.nvmma_shared<{swizzle = 128, transposed = true}>
#mma3 = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 256, 16]}>
tile.func private @warpgroup_dot_instr_too_wide(%a: !tile.memdesc<64x64xf16, #nv>, %b: !tile.memdesc<64x128xf16, #nvt>, %c: tensor<64x128xf32, #mma3>) {
  // expected-error @+1 {{expected a 64x128 result to be a multiple of its layout's 64x256 (16 rows per warp along M, instrShape N per warpgroup along N)}}
  %d = tile.warpgroup_dot %a, %b, %c : !tile.memdesc<64x64xf16, #nv>, !tile.memdesc<64x128xf16, #nvt>, tensor<64x128xf32, #mma3> -> tensor<64x128xf32, #mma3>
  tile.return
}

// -----

// A host-side descriptor's arguments: the base tagged with its block, then
// rank i32 sizes and rank - 1 i64 strides.
// expected-error @+1 {{'tile.func' op expected argument 3 of the tensor descriptor at argument 0 to be 'i64' (stride), found 'i32'}}
tile.func @desc_arg_stride(%b: !tile.ptr<f16> {tile.tensordesc = tensor<64x64xf16>}, %m: i32, %n: i32, %s: i32) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected argument 1 of the tensor descriptor at argument 0 to be 'i32' (shape), found 'i64'}}
tile.func @desc_arg_shape(%b: !tile.ptr<f16> {tile.tensordesc = tensor<64xf16>}, %m: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.tensordesc to be a static block type of rank 1 to 5 on a pointer to its element type followed by 2 * rank - 1 arguments, found tensor<64x64xf32> on argument 0 of type '!tile.ptr<f16>'}}
tile.func @desc_arg_type(%b: !tile.ptr<f16> {tile.tensordesc = tensor<64x64xf32>}, %m: i32, %n: i32, %s: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.tensordesc to be a static block type of rank 1 to 5 on a pointer to its element type followed by 2 * rank - 1 arguments}}
tile.func @desc_arg_count(%b: !tile.ptr<f16> {tile.tensordesc = tensor<64x64xf16>}, %m: i32, %n: i32) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected tile.tensordesc to be a static block type of rank 1 to 5 on a pointer to its element type followed by 2 * rank - 1 arguments}}
tile.func @desc_arg_not_type(%b: !tile.ptr<f16> {tile.tensordesc = 3 : i32}) {
  tile.return
}

// -----

// The block is a TMA box, as in the front end (the runtime refuses the
// signature entry otherwise).
// expected-error @+1 {{'tile.func' op expected the block of the tensor descriptor at argument 0 to be a TMA box (sizes powers of two up to 256, at least 16 bytes in the last dimension, an integer or float type but i1), found 'tensor<3x8xf16>'}}
tile.func @desc_arg_box(%b: !tile.ptr<f16> {tile.tensordesc = tensor<3x8xf16>}, %m: i32, %n: i32, %s: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the block of the tensor descriptor at argument 0 to be a TMA box}}
tile.func @desc_arg_narrow(%b: !tile.ptr<f16> {tile.tensordesc = tensor<16x4xf16>}, %m: i32, %n: i32, %s: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected the block of the tensor descriptor at argument 0 to be a TMA box}}
tile.func @desc_arg_bool(%b: !tile.ptr<i1> {tile.tensordesc = tensor<16x128xi1>}, %m: i32, %n: i32, %s: i64) {
  tile.return
}

// -----

// Facts the launch cannot check: none on sizes, strides and the base only
// up to 16 bytes.
// expected-error @+1 {{'tile.func' op expected no facts on argument 2 (a size) of the tensor descriptor at argument 0: the runtime cannot check it}}
tile.func @desc_arg_size_fact(%b: !tile.ptr<f16> {tile.tensordesc = tensor<16x16xf16>}, %m: i32, %n: i32 {tile.divisibility = 16 : i32}, %s: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected no facts on argument 3 (a stride) of the tensor descriptor at argument 0 but tile.divisibility of at most 16 bytes' worth of elements: the runtime cannot check it}}
tile.func @desc_arg_stride_fact(%b: !tile.ptr<f16> {tile.tensordesc = tensor<16x16xf16>}, %m: i32, %n: i32, %s: i64 {tile.divisibility = 16 : i32}) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected no facts on argument 1 (a size) of the tensor descriptor at argument 0: the runtime cannot check it}}
tile.func @desc_arg_equal(%b: !tile.ptr<f16> {tile.tensordesc = tensor<16x16xf16>}, %m: i32 {tile.equal_to = 1 : i32}, %n: i32, %s: i64) {
  tile.return
}

// -----

// expected-error @+1 {{'tile.func' op expected no facts on the base of the tensor descriptor at argument 0 but tile.divisibility of at most 16 (what the launch checks)}}
tile.func @desc_arg_base_fact(%b: !tile.ptr<f16> {tile.tensordesc = tensor<16x16xf16>, tile.divisibility = 256 : i32}, %m: i32, %n: i32, %s: i64) {
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.print, tile.assert
//===----------------------------------------------------------------------===//

// -----

tile.func private @print_signedness_count(%x: tensor<128xi32>) {
  // expected-error @+1 {{'tile.print' op expected one is_signed entry per operand (1), found 2}}
  tile.print " x: " %x {is_signed = array<i1: true, false>} : tensor<128xi32>
  tile.return
}

// -----

tile.func private @print_fp8(%x: tensor<128xf8E4M3FN>) {
  // expected-error @+1 {{'tile.print' op expected operands of integer, f16, bf16, f32, f64 or pointer elements, found 'tensor<128xf8E4M3FN>' (extend fp8 to f32 first)}}
  tile.print " x: " %x {is_signed = array<i1: false>} : tensor<128xf8E4M3FN>
  tile.return
}

// -----

tile.func @print_nul(%x: i32) {
  // expected-error @+1 {{'tile.print' op expected a prefix without NUL characters}}
  tile.print " x\00: " %x {is_signed = array<i1: true>} : i32
  tile.return
}

// -----

tile.func private @assert_not_bool(%x: tensor<128xi32>) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be}}
  tile.assert %x, "m" : tensor<128xi32>
  tile.return
}

// -----

tile.func @assert_nul(%c: i1) {
  // expected-error @+1 {{'tile.assert' op expected a message without NUL characters}}
  tile.assert %c, "a\00b" : i1
  tile.return
}

// -----

tile.func @load_store_cache(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op expected tile.cache_modifier to be one of ".ca", ".cg", ".cv", found ".wt"}}
  %v = tile.load %p {tile.cache_modifier = ".wt"} : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @store_volatile(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.store' op expected tile.volatile to be a unit attribute of a tile.load}}
  tile.store %p, %v {tile.volatile} : !tile.ptr<f32>
  tile.return
}

// -----

tile.func @evict_and_cache(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.load' op expected tile.eviction_policy without tile.cache_modifier (PTX combines no eviction priority with a cache operator)}}
  %v = tile.load %p {tile.cache_modifier = ".cg", tile.eviction_policy = "evict_last"} : !tile.ptr<f32>
  tile.return
}

//===----------------------------------------------------------------------===//
// tile.gather
//===----------------------------------------------------------------------===//

// -----

tile.func private @gather_float_index(%s: tensor<16x32xf32>, %i: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.gather' op expected an index tile of integers (i8 to i64), found 'tensor<16x32xf32>'}}
  %g = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.func private @gather_bool_index(%s: tensor<16x32xf32>, %i: tensor<16x32xi1>) {
  // expected-error @+1 {{'tile.gather' op expected an index tile of integers (i8 to i64), found 'tensor<16x32xi1>'}}
  %g = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32>, tensor<16x32xi1> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.func private @gather_rank(%s: tensor<16x32xf32>, %i: tensor<32xi32>) {
  // expected-error @+1 {{'tile.gather' op expected an index of the source's rank 2, found rank 1}}
  %g = tile.gather %s[%i] {axis = 0 : i32} : tensor<16x32xf32>, tensor<32xi32> -> tensor<32xf32>
  tile.return
}

// -----

tile.func private @gather_axis(%s: tensor<16x32xf32>, %i: tensor<16x32xi32>) {
  // expected-error @+1 {{'tile.gather' op expected axis in [0, 2), found -1}}
  %g = tile.gather %s[%i] {axis = -1 : i32} : tensor<16x32xf32>, tensor<16x32xi32> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.func private @gather_other_dim(%s: tensor<16x32xf32>, %i: tensor<8x64xi32>) {
  // expected-error @+1 {{'tile.gather' op expected index dimension 0 to equal the source's (16; only the axis 1 may differ), found 8}}
  %g = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32>, tensor<8x64xi32> -> tensor<8x64xf32>
  tile.return
}

// -----

tile.func private @gather_result(%s: tensor<16x32xf32>, %i: tensor<16x64xi32>) {
  // expected-error @+1 {{'tile.gather' op expected result 'tensor<16x64xf32>' (the index's shape, the source's element type), found 'tensor<16x64xf16>'}}
  %g = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32>, tensor<16x64xi32> -> tensor<16x64xf16>
  tile.return
}

// -----

#a = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
tile.func private @gather_layout(%s: tensor<16x32xf32, #a>, %i: tensor<16x64xi32, #a>) {
  // expected-error @+1 {{'tile.gather' op expected the result in the index's layout}}
  %g = tile.gather %s[%i] {axis = 1 : i32} : tensor<16x32xf32, #a>, tensor<16x64xi32, #a> -> tensor<16x64xf32, #b>
  tile.return
}
