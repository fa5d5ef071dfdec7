// tile-lower-to-simt refuses what it does not implement with a located error.
// RUN: tilec-opt %s --tile-assign-layouts --tile-lower-to-simt --split-input-file -verify-diagnostics

tile.func @nonsplat_constant(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  // expected-error @+1 {{unimplemented: a tile constant with different elements}}
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  tile.store %p, %c : tensor<4x!tile.ptr<f32>>
  tile.return
}
