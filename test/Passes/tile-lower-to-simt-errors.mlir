// tile-lower-to-simt refuses what it does not implement with a located error.
// RUN: tilec-opt %s --tile-assign-layouts --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file -verify-diagnostics

tile.func @nonsplat_constant(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  // expected-error @+1 {{unimplemented: a tile constant with different elements}}
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  tile.store %p, %c : tensor<4x!tile.ptr<f32>>
  tile.return
}

// -----

// -----

// A dot whose operands have no dot-operand encodings (tile-accelerate-dot
// did not run).
tile.func @dot_trans(%x: !tile.ptr<f32>) {
  %a = arith.constant dense<1.0> : tensor<16x32xf32>
  %b = tile.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{expected tile.dot operands with #tile.dot_operand encodings of the result's (run tile-accelerate-dot first), found}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %p = tile.splat %x : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %p, %d : tensor<16x16x!tile.ptr<f32>>
  tile.return
}

// -----

tile.func @descriptors(%b: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{unimplemented: 'tile.make_tensor_desc' is not lowered to PTX yet}}
  %d = tile.make_tensor_desc %b, [%m, %m], [%s, %s] : !tile.ptr<f16>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<64x64xf16>>
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{unimplemented: 'tile.desc_load' is not lowered to PTX yet}}
  %t = tile.desc_load %d[%c0, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // expected-error @+1 {{unimplemented: 'tile.desc_store' is not lowered to PTX yet}}
  tile.desc_store %d[%m, %m], %t : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  tile.return
}
