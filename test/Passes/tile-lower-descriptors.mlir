// tile-lower-descriptors: a descriptor access is the masked pointer access
// of its box: base advanced by coordinates x strides (scalar, i64), one
// arange per dimension (times its stride in i64 unless the stride is the
// constant 1), and 0 <= coordinate < shape in every dimension (i64).
// RUN: tilec-opt %s --tile-lower-descriptors --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.func private @load2d(
// CHECK-SAME:    %[[BASE:[^:]*]]: !tile.ptr<f16>, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[LD:[^:]*]]: i64, %[[I:[^:]*]]: i32, %[[J:[^:]*]]: i32)
// The block's first element: i * ld + j, in i64.
// CHECK:         %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK:         %[[J64:.*]] = arith.extsi %[[J]] : i32 to i64
// CHECK:         %[[ROW:.*]] = arith.muli %[[I64]], %[[LD]] : i64
// CHECK:         %[[OFF:.*]] = arith.addi %[[ROW]], %[[J64]] : i64
// CHECK:         %[[FIRST:.*]] = tile.addptr %[[BASE]], %[[OFF]] : !tile.ptr<f16>, i64
// CHECK:         %[[P0:.*]] = tile.splat %[[FIRST]] : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
// Rows: arange(64) * ld in i64, broadcast along the columns.
// CHECK:         %[[R0:.*]] = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK:         %[[R064:.*]] = arith.extsi %[[R0]] : tensor<64xi32> to tensor<64xi64>
// CHECK:         %[[LDS:.*]] = tile.splat %[[LD]] : i64 -> tensor<64xi64>
// CHECK:         %[[ROWS:.*]] = arith.muli %[[R064]], %[[LDS]] : tensor<64xi64>
// CHECK:         %[[ROWS2:.*]] = tile.expand_dims %[[ROWS]] {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
// CHECK:         %[[ROWSB:.*]] = tile.broadcast %[[ROWS2]] : tensor<64x1xi64> -> tensor<64x32xi64>
// CHECK:         %[[P1:.*]] = tile.addptr %[[P0]], %[[ROWSB]] : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi64>
// Row mask: 0 <= i + r < m.
// CHECK:         %[[CI:.*]] = tile.splat %[[I64]] : i64 -> tensor<64xi64>
// CHECK:         %[[C0:.*]] = arith.addi %[[CI]], %[[R064]] : tensor<64xi64>
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : tensor<64xi64>
// CHECK:         %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK:         %[[MS:.*]] = tile.splat %[[M64]] : i64 -> tensor<64xi64>
// CHECK:         %[[GE0:.*]] = arith.cmpi sge, %[[C0]], %[[Z]] : tensor<64xi64>
// CHECK:         %[[LT0:.*]] = arith.cmpi slt, %[[C0]], %[[MS]] : tensor<64xi64>
// CHECK:         arith.andi %[[GE0]], %[[LT0]] : tensor<64xi1>
// Columns: stride 1, so arange(32) itself (i32), no multiply.
// CHECK:         %[[R1:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NOT:     arith.muli
// CHECK:         %[[COLS:.*]] = tile.expand_dims %[[R1]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK:         %[[COLSB:.*]] = tile.broadcast %[[COLS]] : tensor<1x32xi32> -> tensor<64x32xi32>
// CHECK:         %[[P2:.*]] = tile.addptr %[[P1]], %[[COLSB]] : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
// CHECK:         %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1>
// No `other`: zero padding.
// CHECK:         %[[V:.*]] = tile.load %[[P2]], %[[MASK]] : tensor<64x32x!tile.ptr<f16>>
// CHECK-NOT:     tile.make_tensor_desc
// CHECK:         tile.return %[[V]]
tile.func private @load2d(%base: !tile.ptr<f16>, %m: i32, %k: i32, %ld: i64,
                          %i: i32, %j: i32) -> tensor<64x32xf16> {
  %one = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%m, %k], [%ld, %one]
      : !tile.ptr<f16>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<64x32xf16>>
  %t = tile.desc_load %d[%i, %j] : !tile.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  tile.return %t : tensor<64x32xf16>
}

// -----

// A store clips to the shape through the same mask; NaN padding is the
// load's `other`; i32 shapes and strides are extended to i64.
// CHECK-LABEL: tile.func private @store_nan(
// CHECK:         %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<16x8xf32>
// CHECK:         %[[V:.*]] = tile.load %{{.*}}, %{{.*}}, %[[NAN]] : tensor<16x8x!tile.ptr<f32>>
// CHECK:         %[[SM:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<16x8xi1>
// CHECK-NEXT:    tile.store %{{.*}}, %[[V]], %[[SM]] : tensor<16x8x!tile.ptr<f32>>
// CHECK-NOT:     tile.desc_
tile.func private @store_nan(%base: !tile.ptr<f32>, %m: i32, %n: i32, %ld: i32,
                             %i: i32) {
  %one = arith.constant 1 : i32
  %d = tile.make_tensor_desc %base, [%m, %n], [%ld, %one] {nan_padding}
      : !tile.ptr<f32>, [i32, i32], [i32, i32] -> !tile.tensordesc<tensor<16x8xf32>>
  %t = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x8xf32>> -> tensor<16x8xf32>
  tile.desc_store %d[%i, %i], %t : !tile.tensordesc<tensor<16x8xf32>>, tensor<16x8xf32>
  tile.return
}

// -----

// 3-D: each dimension's offsets broadcast along the other two.
// CHECK-LABEL: tile.func private @load3d(
// CHECK:         tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<2xi64> -> tensor<2x1xi64>
// CHECK:         tile.expand_dims %{{.*}} {axis = 2 : i32} : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK:         tile.broadcast %{{.*}} : tensor<2x1x1xi64> -> tensor<2x4x8xi64>
// CHECK:         tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<4xi64> -> tensor<1x4xi64>
// CHECK:         tile.expand_dims %{{.*}} {axis = 2 : i32} : tensor<1x4xi64> -> tensor<1x4x1xi64>
// CHECK:         tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
// CHECK:         tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1x8xi32> -> tensor<1x1x8xi32>
// CHECK:         tile.load %{{.*}}, %{{.*}} : tensor<2x4x8x!tile.ptr<f32>>
tile.func private @load3d(%base: !tile.ptr<f32>, %s: i32, %st0: i64, %st1: i64,
                          %i: i32) -> tensor<2x4x8xf32> {
  %one = arith.constant 1 : i64
  %d = tile.make_tensor_desc %base, [%s, %s, %s], [%st0, %st1, %one]
      : !tile.ptr<f32>, [i32, i32, i32], [i64, i64, i64] -> !tile.tensordesc<tensor<2x4x8xf32>>
  %t = tile.desc_load %d[%i, %i, %i] : !tile.tensordesc<tensor<2x4x8xf32>> -> tensor<2x4x8xf32>
  tile.return %t : tensor<2x4x8xf32>
}

// -----

// A descriptor that is not made in the function: unimplemented.
tile.func private @argument(%d: !tile.tensordesc<tensor<16x8xf32>>, %i: i32)
    -> tensor<16x8xf32> {
  // expected-error @+1 {{unimplemented: an access through a tensor descriptor that is not made by tile.make_tensor_desc in the kernel}}
  %t = tile.desc_load %d[%i, %i] : !tile.tensordesc<tensor<16x8xf32>> -> tensor<16x8xf32>
  tile.return %t : tensor<16x8xf32>
}

// -----

// A descriptor chosen at run time: unimplemented (the descriptors' makers
// stay).
tile.func private @selected(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %m: i32,
                            %c: i1) -> tensor<16x8xf32> {
  %one = arith.constant 1 : i32
  %dx = tile.make_tensor_desc %x, [%m, %m], [%m, %one]
      : !tile.ptr<f32>, [i32, i32], [i32, i32] -> !tile.tensordesc<tensor<16x8xf32>>
  %dy = tile.make_tensor_desc %y, [%m, %m], [%m, %one]
      : !tile.ptr<f32>, [i32, i32], [i32, i32] -> !tile.tensordesc<tensor<16x8xf32>>
  %d = arith.select %c, %dx, %dy : !tile.tensordesc<tensor<16x8xf32>>
  // expected-error @+1 {{unimplemented: an access through a tensor descriptor that is not made by tile.make_tensor_desc in the kernel (a loop-carried, selected or argument descriptor); found the result of 'arith.select'}}
  %t = tile.desc_load %d[%m, %m] : !tile.tensordesc<tensor<16x8xf32>> -> tensor<16x8xf32>
  tile.return %t : tensor<16x8xf32>
}
