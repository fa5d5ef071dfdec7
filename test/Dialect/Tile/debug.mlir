// Round trip of tile.print and tile.assert (tl.device_print,
// tl.device_assert) through the custom and the generic syntax.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s

// CHECK-LABEL: tile.func private @prints(
// CHECK-SAME:      %[[X:.*]]: tensor<128xi32>, %[[N:.*]]: i32, %[[F:.*]]: tensor<4x8xf16>, %[[P:.*]]: !tile.ptr<f32>)
// CHECK:         tile.print " x: " %[[X]], %[[N]] {is_signed = array<i1: true, false>} : tensor<128xi32>, i32
// CHECK:         tile.print " bits: " hex %[[F]] {is_signed = array<i1: false>} : tensor<4x8xf16>
// CHECK:         tile.print " p: " %[[P]] {is_signed = array<i1: false>} : !tile.ptr<f32>
// CHECK:         tile.print " hello" {is_signed = array<i1>}
// CHECK-NEXT:    tile.return
tile.func private @prints(%x: tensor<128xi32>, %n: i32, %f: tensor<4x8xf16>,
                  %p: !tile.ptr<f32>) {
  tile.print " x: " %x, %n {is_signed = array<i1: true, false>} : tensor<128xi32>, i32
  tile.print " bits: " hex %f {is_signed = array<i1: false>} : tensor<4x8xf16>
  tile.print " p: " %p {is_signed = array<i1: false>} : !tile.ptr<f32>
  tile.print " hello" {is_signed = array<i1>}
  tile.return
}

// CHECK-LABEL: tile.func private @asserts(
// CHECK-SAME:      %[[C:.*]]: tensor<128xi1>, %[[S:.*]]: i1)
// CHECK:         tile.assert %[[C]], "x must be positive" {file = "k.py", function = "kernel", line = 12 : i32} : tensor<128xi1>
// CHECK:         tile.assert %[[S]], "" : i1
tile.func private @asserts(%c: tensor<128xi1>, %s: i1) {
  tile.assert %c, "x must be positive" {file = "k.py", line = 12 : i32, function = "kernel"} : tensor<128xi1>
  tile.assert %s, "" : i1
  tile.return
}
