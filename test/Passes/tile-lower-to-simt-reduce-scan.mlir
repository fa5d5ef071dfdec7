// tile-lower-to-simt lowers reductions and scans: shuffles within a warp
// (xor for reductions, up for scans), shared memory across warps, and the
// combiner region cloned at each combination.
// RUN: tilec-opt %s --tile-assign-layouts --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt | FileCheck %s

// CHECK-LABEL: gpu.func @reduce_scan(
// CHECK-SAME:      tile.shared = [[SH:[0-9]+]] : i32
// CHECK:         gpu.shuffle  xor
// CHECK:         arith.addf {{.*}} : f32
// CHECK:         gpu.barrier
// CHECK:         gpu.shuffle  up
// CHECK:         arith.addi {{.*}} : i32
// CHECK:         gpu.return
tile.func @reduce_scan(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %f = arith.sitofp %r : tensor<128xi32> to tensor<128xf32>
  %s = tile.reduce(%f) {axis = 0 : i32} : (tensor<128xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tile.reduce.return %c : f32
  }
  tile.store %x, %s : !tile.ptr<f32>
  %c = tile.scan(%r) {axis = 0 : i32} : (tensor<128xi32>) -> tensor<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %d = arith.addi %a, %b : i32
    tile.scan.return %d : i32
  }
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %c : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %xp, %f : tensor<128x!tile.ptr<f32>>
  tile.return
}
