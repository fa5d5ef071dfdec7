// Round trip of tile.reduce, tile.scan (with their combiner regions),
// tile.dot and tile.trans, through the custom and the generic syntax; and
// the combiners survive canonicalization and CSE (what tilec --emit=tile runs).
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --canonicalize --cse | FileCheck %s

#b2d = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#s1 = #tile.slice<{dim = 1, parent = #b2d}>

// CHECK-LABEL: tile.func private @sum_rows(
// CHECK-SAME:      %[[A:.*]]: tensor<16x64xf32>)
// CHECK:         %[[S:.*]] = tile.reduce(%[[A]]) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK:           %[[R:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:           tile.reduce.return %[[R]] : f32
// CHECK:         }
// CHECK:         tile.return %[[S]]
tile.func private @sum_rows(%a: tensor<16x64xf32>) -> tensor<16xf32> {
  %s = tile.reduce(%a) {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.reduce.return %r : f32
  }
  tile.return %s : tensor<16xf32>
}

// A 1-D reduction gives a scalar; two operands (argmax: values and indices).
// CHECK-LABEL: tile.func private @argmax(
// CHECK-SAME:      %[[V:.*]]: tensor<128xf32>, %[[I:.*]]: tensor<128xi32>)
// CHECK:         %[[M:.*]]:2 = tile.reduce(%[[V]], %[[I]]) {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
// CHECK:         ^bb0(%[[V0:.*]]: f32, %[[I0:.*]]: i32, %[[V1:.*]]: f32, %[[I1:.*]]: i32):
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[V0]], %[[V1]] : f32
// CHECK:           %[[VS:.*]] = arith.select %[[GT]], %[[V0]], %[[V1]] : f32
// CHECK:           %[[IS:.*]] = arith.select %[[GT]], %[[I0]], %[[I1]] : i32
// CHECK:           tile.reduce.return %[[VS]], %[[IS]] : f32, i32
// CHECK:         tile.return %[[M]]#1 : i32
tile.func private @argmax(%v: tensor<128xf32>, %i: tensor<128xi32>) -> i32 {
  %m:2 = tile.reduce(%v, %i) {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> (f32, i32) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %vs = arith.select %gt, %v0, %v1 : f32
    %is = arith.select %gt, %i0, %i1 : i32
    tile.reduce.return %vs, %is : f32, i32
  }
  tile.return %m#1 : i32
}

// With encodings: the result's layout is the slice of the operand's.
// CHECK-LABEL: tile.func private @max_encoded(
// CHECK:         tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<16x64xf32, #{{.*}}>) -> tensor<16xf32, #{{.*}}> {
// CHECK:           arith.maximumf
tile.func private @max_encoded(%a: tensor<16x64xf32, #b2d>) -> tensor<16xf32, #s1> {
  %s = tile.reduce(%a) {axis = 1 : i32} : (tensor<16x64xf32, #b2d>) -> tensor<16xf32, #s1> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %y : f32
    tile.reduce.return %r : f32
  }
  tile.return %s : tensor<16xf32, #s1>
}

// CHECK-LABEL: tile.func private @cumsum(
// CHECK-SAME:      %[[A:.*]]: tensor<4x128xi32>)
// CHECK:         %[[F:.*]] = tile.scan(%[[A]]) {axis = 1 : i32} : (tensor<4x128xi32>) -> tensor<4x128xi32> {
// CHECK:         ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32):
// CHECK:           %[[R:.*]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK:           tile.scan.return %[[R]] : i32
// CHECK:         %[[B:.*]] = tile.scan(%[[F]]) {axis = 0 : i32, reverse = true} : (tensor<4x128xi32>) -> tensor<4x128xi32> {
// CHECK:           arith.muli
// CHECK:           tile.scan.return
// CHECK:         tile.return %[[B]]
tile.func private @cumsum(%a: tensor<4x128xi32>) -> tensor<4x128xi32> {
  %f = tile.scan(%a) {axis = 1 : i32, reverse = false} : (tensor<4x128xi32>) -> tensor<4x128xi32> {
  ^bb0(%x: i32, %y: i32):
    %r = arith.addi %x, %y : i32
    tile.scan.return %r : i32
  }
  %b = tile.scan(%f) {axis = 0 : i32, reverse = true} : (tensor<4x128xi32>) -> tensor<4x128xi32> {
  ^bb0(%x: i32, %y: i32):
    %r = arith.muli %x, %y : i32
    tile.scan.return %r : i32
  }
  tile.return %b : tensor<4x128xi32>
}

// The default input_precision ("tf32") is not printed.
// CHECK-LABEL: tile.func private @dots(
// CHECK-SAME:      %[[A:.*]]: tensor<64x32xf16>, %[[B:.*]]: tensor<32x128xf16>, %[[C:.*]]: tensor<64x128xf32>,
// CHECK-SAME:      %[[A8:.*]]: tensor<2x16x32xi8>, %[[B8:.*]]: tensor<2x32x16xi8>, %[[C8:.*]]: tensor<2x16x16xi32>)
// CHECK:         %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32> -> tensor<64x128xf32>
// CHECK:         %[[E:.*]] = tile.dot %[[A]], %[[B]], %[[D]] {input_precision = "ieee", max_num_imprecise_acc = 32 : i32} : tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32> -> tensor<64x128xf32>
// CHECK:         %[[F:.*]] = tile.dot %[[A8]], %[[B8]], %[[C8]] : tensor<2x16x32xi8>, tensor<2x32x16xi8>, tensor<2x16x16xi32> -> tensor<2x16x16xi32>
// CHECK:         tile.return %[[E]], %[[F]]
tile.func private @dots(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<64x128xf32>,
                        %a8: tensor<2x16x32xi8>, %b8: tensor<2x32x16xi8>, %c8: tensor<2x16x16xi32>)
    -> (tensor<64x128xf32>, tensor<2x16x16xi32>) {
  %d = tile.dot %a, %b, %c {input_precision = "tf32"} : tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  %e = tile.dot %a, %b, %d {input_precision = "ieee", max_num_imprecise_acc = 32 : i32} : tensor<64x32xf16>, tensor<32x128xf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  %f = tile.dot %a8, %b8, %c8 : tensor<2x16x32xi8>, tensor<2x32x16xi8>, tensor<2x16x16xi32> -> tensor<2x16x16xi32>
  tile.return %e, %f : tensor<64x128xf32>, tensor<2x16x16xi32>
}

// CHECK-LABEL: tile.func private @transposes(
// CHECK:         %[[T:.*]] = tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
// CHECK:         tile.trans %[[T]] {order = array<i32: 1, 0>} : tensor<64x16xf32> -> tensor<16x64xf32>
// CHECK:         tile.trans %{{.*}} {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
tile.func private @transposes(%x: tensor<16x64xf32>, %y: tensor<2x4x8xi32>)
    -> (tensor<16x64xf32>, tensor<8x2x4xi32>) {
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  %u = tile.trans %t {order = array<i32: 1, 0>} : tensor<64x16xf32> -> tensor<16x64xf32>
  %p = tile.trans %y {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  tile.return %u, %p : tensor<16x64xf32>, tensor<8x2x4xi32>
}
