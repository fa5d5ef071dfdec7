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

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// An online softmax over a dot's result (FlashAttention's inner loop): the
// conversion out of #mma sinks below the row max, the subtraction of the
// broadcast max, exp2 and the row sum, and the running max is carried in
// the slice of #mma: no conversion is left in the loop.
// CHECK:       #slice1 = #tile.slice<{dim = 1, parent = #mma}>
// CHECK-LABEL: tile.func private @online_softmax(
// CHECK:         scf.for {{.*}} -> (tensor<64xf32, #slice1>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<64x64xf32, #mma>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           math.exp2 %{{.*}} : tensor<64x64xf32, #mma>
// CHECK-NOT:       tile.convert_layout
// CHECK:           tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<64x64xf32, #mma>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           scf.yield
tile.func private @online_softmax(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index) -> tensor<64xf32, #s> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %minf) -> (tensor<64xf32, #s>) {
    %d = tile.dot %a, %b, %z : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %mx = tile.reduce(%e) {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.maxnumf %x, %y : f32
      tile.reduce.return %t : f32
    }
    %m2 = arith.maxnumf %m, %mx : tensor<64xf32, #s>
    %x1 = tile.expand_dims %m2 {axis = 1 : i32} : tensor<64xf32, #s> -> tensor<64x1xf32, #b>
    %xb = tile.broadcast %x1 : tensor<64x1xf32, #b> -> tensor<64x64xf32, #b>
    %p = arith.subf %e, %xb : tensor<64x64xf32, #b>
    %q = math.exp2 %p : tensor<64x64xf32, #b>
    %sum = tile.reduce(%q) {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      tile.reduce.return %t : f32
    }
    %m3 = arith.addf %m2, %sum : tensor<64xf32, #s>
    scf.yield %m3 : tensor<64xf32, #s>
  }
  tile.return %r : tensor<64xf32, #s>
}
