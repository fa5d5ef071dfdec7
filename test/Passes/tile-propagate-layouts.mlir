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

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// A dense (not splat) constant from outside the loop, added to a row max
// of #mma: it is converted once before the loop, not rebuilt as a splat.
// CHECK-LABEL: tile.func private @dense_constant_outside_loop(
// CHECK:         %[[K:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, {{.*}}]> : tensor<64xf32, #slice>
// CHECK:         %[[KC:.*]] = tile.convert_layout %[[K]] : tensor<64xf32, #slice> -> tensor<64xf32, #slice1>
// CHECK:         scf.for
// CHECK:           %[[MX:.*]] = tile.reduce
// CHECK:           arith.addf %[[MX]], %[[KC]] : tensor<64xf32, #slice1>
tile.func private @dense_constant_outside_loop(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index) -> tensor<64xf32, #s> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %k = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]> : tensor<64xf32, #s>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> (tensor<64xf32, #s>) {
    %d = tile.dot %a, %b, %z : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %mx = tile.reduce(%e) {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.maxnumf %x, %y : f32
      tile.reduce.return %t : f32
    }
    %y = arith.addf %mx, %k : tensor<64xf32, #s>
    %m2 = arith.maxnumf %m, %y : tensor<64xf32, #s>
    scf.yield %m2 : tensor<64xf32, #s>
  }
  tile.return %r : tensor<64xf32, #s>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#s0 = #tile.slice<{dim = 0, parent = #b}>
// An argmax over a dot's result (a reduction of two operands): it sinks
// whole, its index operand rebuilt in #mma from the range.
// CHECK-LABEL: tile.func private @argmax_of_dot(
// CHECK:         scf.for
// CHECK-NOT:       tile.convert_layout
// CHECK:           %[[R:.*]] = tile.make_range {{.*}} : tensor<64xi32, #slice2>
// CHECK:           %[[X:.*]] = tile.expand_dims %[[R]] {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #mma>
// CHECK:           %[[I:.*]] = tile.broadcast %[[X]] : tensor<1x64xi32, #mma> -> tensor<64x64xi32, #mma>
// CHECK:           tile.reduce(%{{.*}}, %[[I]]) {axis = 1 : i32} : (tensor<64x64xf32, #mma>, tensor<64x64xi32, #mma>) -> (tensor<64xf32, #slice1>, tensor<64xi32, #slice1>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           scf.yield
tile.func private @argmax_of_dot(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index, %p: tensor<64x!tile.ptr<i32>, #s>) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %zi = arith.constant dense<0> : tensor<64xi32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zi) -> (tensor<64xi32, #s>) {
    %d = tile.dot %a, %b, %z : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %rg = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #s0>
    %rx = tile.expand_dims %rg {axis = 0 : i32} : tensor<64xi32, #s0> -> tensor<1x64xi32, #b>
    %idx = tile.broadcast %rx : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %mx:2 = tile.reduce(%e, %idx) {axis = 1 : i32} : (tensor<64x64xf32, #b>, tensor<64x64xi32, #b>) -> (tensor<64xf32, #s>, tensor<64xi32, #s>) {
    ^bb0(%x: f32, %xi: i32, %y: f32, %yi: i32):
      %gt = arith.cmpf ogt, %x, %y : f32
      %v = arith.select %gt, %x, %y : f32
      %vi = arith.select %gt, %xi, %yi : i32
      tile.reduce.return %v, %vi : f32, i32
    }
    %s2 = arith.addi %acc, %mx#1 : tensor<64xi32, #s>
    scf.yield %s2 : tensor<64xi32, #s>
  }
  tile.store %p, %r : tensor<64x!tile.ptr<i32>, #s>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// A user in a nested region (a store under scf.if) keeps the conversion;
// the reduction still sinks below it.
// CHECK-LABEL: tile.func private @user_in_nested_region(
// CHECK:         scf.for
// CHECK:           %[[D:.*]] = tile.dot
// CHECK:           %[[E:.*]] = tile.convert_layout %[[D]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK:           tile.reduce(%[[D]]) {axis = 1 : i32} : (tensor<64x64xf32, #mma>)
// CHECK:           scf.if
// CHECK-NEXT:        tile.store %{{.*}}, %[[E]] : tensor<64x64x!tile.ptr<f32>, #blocked>
tile.func private @user_in_nested_region(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index, %c: i1, %p: tensor<64x64x!tile.ptr<f32>, #b>) -> tensor<64xf32, #s> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #s>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> (tensor<64xf32, #s>) {
    %d = tile.dot %a, %b, %z : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %mx = tile.reduce(%e) {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.maxnumf %x, %y : f32
      tile.reduce.return %t : f32
    }
    scf.if %c {
      tile.store %p, %e : tensor<64x64x!tile.ptr<f32>, #b>
    }
    %m2 = arith.addf %m, %mx : tensor<64xf32, #s>
    scf.yield %m2 : tensor<64xf32, #s>
  }
  tile.return %r : tensor<64xf32, #s>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.slice<{dim = 1, parent = #b}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#s0 = #tile.slice<{dim = 0, parent = #b}>
// A softmax along axis 0 (columns) of a dot's result: the reductions,
// expand_dims and broadcast run in #mma and its dim-0 slice.
// CHECK-LABEL: tile.func private @column_softmax(
// CHECK:         scf.for {{.*}} -> (tensor<64xf32, #slice1>)
// CHECK-NOT:       tile.convert_layout
// CHECK:           tile.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #slice1>
// CHECK:           tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<64xf32, #slice1> -> tensor<1x64xf32, #mma>
// CHECK:           math.exp2 %{{.*}} : tensor<64x64xf32, #mma>
// CHECK:           tile.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #slice1>
// CHECK-NOT:       tile.convert_layout
// CHECK:           scf.yield
tile.func private @column_softmax(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %n: index) -> tensor<64xf32, #s0> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #s0>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %zero) -> (tensor<64xf32, #s0>) {
    %d = tile.dot %a, %b, %z : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %mx = tile.reduce(%e) {axis = 0 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s0> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.maxnumf %x, %y : f32
      tile.reduce.return %t : f32
    }
    %x1 = tile.expand_dims %mx {axis = 0 : i32} : tensor<64xf32, #s0> -> tensor<1x64xf32, #b>
    %xb = tile.broadcast %x1 : tensor<1x64xf32, #b> -> tensor<64x64xf32, #b>
    %q = arith.subf %e, %xb : tensor<64x64xf32, #b>
    %q2 = math.exp2 %q : tensor<64x64xf32, #b>
    %sum = tile.reduce(%q2) {axis = 0 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #s0> {
    ^bb0(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      tile.reduce.return %t : f32
    }
    %m2 = arith.addf %m, %sum : tensor<64xf32, #s0>
    scf.yield %m2 : tensor<64xf32, #s0>
  }
  tile.return %r : tensor<64xf32, #s0>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
#sm0 = #tile.slice<{dim = 0, parent = #mma}>
// The attention backward's P^T = exp2(S - M[None, :]) in #mma, M loaded
// every iteration and converted to #mma's dim-0 slice: it is loaded in that
// slice instead (each thread reads its columns' values), with no conversion
// of the loaded vector through shared memory; its addresses and mask
// follow.
// CHECK-LABEL: tile.func private @row_statistic_load(
// CHECK:         scf.for
// CHECK:           %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32, #slice>
// CHECK:           %[[M:.*]] = tile.load %{{.*}}, %[[MASK]], %{{.*}} : tensor<64x!tile.ptr<f32>, #slice>
// CHECK-NOT:       tile.convert_layout
// CHECK:           tile.expand_dims %[[M]] {axis = 0 : i32} : tensor<64xf32, #slice> -> tensor<1x64xf32, #mma>
// CHECK:           math.exp2 %{{.*}} : tensor<64x64xf32, #mma>
// CHECK:           scf.yield
tile.func private @row_statistic_load(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #bo>, %p: !tile.ptr<f32>, %n: i32, %bound: i32) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zb = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %other = arith.constant dense<0.0> : tensor<64xf32, #l>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zb) -> (tensor<64x64xf32, #b>) : i32 {
    %c = tile.convert_layout %acc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
    %offs = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #l>
    %base = tile.splat %i : i32 -> tensor<64xi32, #l>
    %rows = arith.addi %base, %offs : tensor<64xi32, #l>
    %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #l>
    %ptrs = tile.addptr %ps, %rows : tensor<64x!tile.ptr<f32>, #l>, tensor<64xi32, #l>
    %bs = tile.splat %bound : i32 -> tensor<64xi32, #l>
    %mask = arith.cmpi slt, %rows, %bs : tensor<64xi32, #l>
    %m = tile.load %ptrs, %mask, %other : tensor<64x!tile.ptr<f32>, #l>
    %mc = tile.convert_layout %m : tensor<64xf32, #l> -> tensor<64xf32, #sm0>
    %m1 = tile.expand_dims %mc {axis = 0 : i32} : tensor<64xf32, #sm0> -> tensor<1x64xf32, #mma>
    %mb = tile.broadcast %m1 : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %q = arith.subf %c, %mb : tensor<64x64xf32, #mma>
    %q2 = math.exp2 %q : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %q2 : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %e = tile.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    scf.yield %e : tensor<64x64xf32, #b>
  }
  tile.return %r : tensor<64x64xf32, #b>
}
