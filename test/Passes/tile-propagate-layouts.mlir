// tile-propagate-layouts: a loop-carried value lives in the layout its
// users in the loop convert it to, when the yielded value is available in
// that layout without a conversion inside the loop.
// RUN: tilec-opt %s --tile-propagate-layouts --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// The accumulator of a K loop: converted to #mma and back every iteration
// before; carried in #mma after, converted once after the loop (and its
// zero initial value built in #mma directly).
// CHECK-LABEL: tile.func private @accumulator(
// CHECK:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<64x64xf32, #mma>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
// CHECK-NOT:       tile.convert_layout
// CHECK:           scf.yield %[[D]] : tensor<64x64xf32, #mma>
// CHECK:         tile.convert_layout %[[R]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
tile.func private @accumulator(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #b>) {
    %c = tile.convert_layout %acc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    scf.yield %e : tensor<64x64xf32, #b>
  }
  tile.return %r : tensor<64x64xf32, #b>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// Elementwise ops between the dot and the yield are recomputed in #mma.
// CHECK-LABEL: tile.func private @scaled(
// CHECK:         scf.for {{.*}} -> (tensor<64x64xf32, #mma>)
// CHECK:           %[[D:.*]] = tile.dot
// CHECK:           %[[S:.*]] = arith.mulf %[[D]], %{{.*}} : tensor<64x64xf32, #mma>
// CHECK-NEXT:      scf.yield %[[S]] : tensor<64x64xf32, #mma>
tile.func private @scaled(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %half = arith.constant dense<0.5> : tensor<64x64xf32, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #b>) {
    %c = tile.convert_layout %acc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %c : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %s = arith.mulf %e, %half : tensor<64x64xf32, #b>
    scf.yield %s : tensor<64x64xf32, #b>
  }
  tile.return %r : tensor<64x64xf32, #b>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// Left alone: the yielded value is loaded in #blocked (converting it would
// put a conversion in the loop anyway).
// CHECK-LABEL: tile.func private @loaded(
// CHECK:         scf.for {{.*}} -> (tensor<64x64xf32, #blocked>)
// CHECK:           tile.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
tile.func private @loaded(%p: tensor<64x64x!tile.ptr<f32>, #b>, %n: index) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #b>) {
    %c = tile.convert_layout %acc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %v = tile.load %p : tensor<64x64x!tile.ptr<f32>, #b>
    scf.yield %v : tensor<64x64xf32, #b>
  }
  tile.return %r : tensor<64x64xf32, #b>
}
