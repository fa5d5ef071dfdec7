// Canonicalization of tile ops: convert_layout folds (same type) and chain
// folding, broadcast to the same type, addptr by zero, splat of a constant
// (a dense constant, so arith folds through tiles); and cases left alone.
// RUN: tilec-opt %s --canonicalize --split-input-file | FileCheck %s

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func private @cvt_same(
// CHECK-SAME:      %[[T:.*]]: tensor<128xf32, #{{.*}}>)
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return %[[T]]
tile.func private @cvt_same(%t: tensor<128xf32, #b1>) -> tensor<128xf32, #b1> {
  %c = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b1>
  tile.return %c : tensor<128xf32, #b1>
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func private @cvt_chain(
// CHECK-SAME:      %[[T:.*]]: tensor<128xf32, #[[B1:[a-z0-9_]+]]>) -> tensor<128xf32, #[[B2:[a-z0-9_]+]]> {
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[T]] : tensor<128xf32, #[[B1]]> -> tensor<128xf32, #[[B2]]>
// CHECK-NEXT:    tile.return %[[C]]
tile.func private @cvt_chain(%t: tensor<128xf32, #b1>) -> tensor<128xf32, #b2> {
  %a = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  %b = tile.convert_layout %a : tensor<128xf32, #b4> -> tensor<128xf32, #b2>
  tile.return %b : tensor<128xf32, #b2>
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func private @cvt_roundtrip(
// CHECK-SAME:      %[[T:.*]]: tensor<128xf32, #{{.*}}>)
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.return %[[T]]
tile.func private @cvt_roundtrip(%t: tensor<128xf32, #b1>) -> tensor<128xf32, #b1> {
  %a = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  %b = tile.convert_layout %a : tensor<128xf32, #b4> -> tensor<128xf32, #b1>
  tile.return %b : tensor<128xf32, #b1>
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tile.func private @cvt_keep(
// CHECK-SAME:      %[[T:.*]]: tensor<128xf32, #[[B1:[a-z0-9_]+]]>) -> tensor<128xf32, #[[B4:[a-z0-9_]+]]> {
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[T]] : tensor<128xf32, #[[B1]]> -> tensor<128xf32, #[[B4]]>
// CHECK-NEXT:    tile.return %[[C]]
tile.func private @cvt_keep(%t: tensor<128xf32, #b1>) -> tensor<128xf32, #b4> {
  %a = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  tile.return %a : tensor<128xf32, #b4>
}

// -----

#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// The inner conversion has another use: it stays, the outer one reads %t.
// CHECK-LABEL: tile.func private @cvt_chain_multi_use(
// CHECK-SAME:      %[[T:.*]]: tensor<128xf32, #[[B1:[a-z0-9_]+]]>)
// CHECK-NEXT:    %[[A:.*]] = tile.convert_layout %[[T]] : tensor<128xf32, #[[B1]]> -> tensor<128xf32, #[[B4:[a-z0-9_]+]]>
// CHECK-NEXT:    %[[B:.*]] = tile.convert_layout %[[T]] : tensor<128xf32, #[[B1]]> -> tensor<128xf32, #[[B2:[a-z0-9_]+]]>
// CHECK-NEXT:    tile.return %[[A]], %[[B]]
tile.func private @cvt_chain_multi_use(%t: tensor<128xf32, #b1>) -> (tensor<128xf32, #b4>, tensor<128xf32, #b2>) {
  %a = tile.convert_layout %t : tensor<128xf32, #b1> -> tensor<128xf32, #b4>
  %b = tile.convert_layout %a : tensor<128xf32, #b4> -> tensor<128xf32, #b2>
  tile.return %a, %b : tensor<128xf32, #b4>, tensor<128xf32, #b2>
}

// -----

// CHECK-LABEL: tile.func private @broadcast_same(
// CHECK-SAME:      %[[T:.*]]: tensor<16x64xi32>)
// CHECK-NEXT:    tile.return %[[T]] : tensor<16x64xi32>
tile.func private @broadcast_same(%t: tensor<16x64xi32>) -> tensor<16x64xi32> {
  %b = tile.broadcast %t : tensor<16x64xi32> -> tensor<16x64xi32>
  tile.return %b : tensor<16x64xi32>
}

// -----

// CHECK-LABEL: tile.func private @broadcast_keep(
// CHECK-SAME:      %[[T:.*]]: tensor<1x64xi32>)
// CHECK-NEXT:    %[[B:.*]] = tile.broadcast %[[T]] : tensor<1x64xi32> -> tensor<16x64xi32>
// CHECK-NEXT:    tile.return %[[B]]
tile.func private @broadcast_keep(%t: tensor<1x64xi32>) -> tensor<16x64xi32> {
  %b = tile.broadcast %t : tensor<1x64xi32> -> tensor<16x64xi32>
  tile.return %b : tensor<16x64xi32>
}

// -----

// CHECK-LABEL: tile.func private @addptr_zero(
// CHECK-SAME:      %[[P:.*]]: !tile.ptr<f32>)
// CHECK-NEXT:    tile.return %[[P]] : !tile.ptr<f32>
tile.func private @addptr_zero(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %q = tile.addptr %p, %c0 : !tile.ptr<f32>, i32
  tile.return %q : !tile.ptr<f32>
}

// -----

// CHECK-LABEL: tile.func private @addptr_zero_tile(
// CHECK-SAME:      %[[P:.*]]: tensor<128x!tile.ptr<f32>>)
// CHECK-NEXT:    tile.return %[[P]] : tensor<128x!tile.ptr<f32>>
tile.func private @addptr_zero_tile(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128x!tile.ptr<f32>> {
  %c0 = arith.constant dense<0> : tensor<128xi64>
  %q = tile.addptr %p, %c0 : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  tile.return %q : tensor<128x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: tile.func private @addptr_nonzero(
// CHECK-SAME:      %[[P:.*]]: !tile.ptr<f32>)
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[Q:.*]] = tile.addptr %[[P]], %[[C1]] : !tile.ptr<f32>, i32
// CHECK-NEXT:    tile.return %[[Q]]
tile.func private @addptr_nonzero(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %c1 = arith.constant 1 : i32
  %q = tile.addptr %p, %c1 : !tile.ptr<f32>, i32
  tile.return %q : !tile.ptr<f32>
}

// -----

// A splat of a constant is a dense constant, and unsigned arith folds
// through it (248 >> 3 == 31 on i8 read as unsigned); a splat of an argument
// or a pointer stays.
// CHECK-LABEL: tile.func private @splat_const(
// CHECK-SAME:      %[[N:.*]]: i32, %[[P:.*]]: !tile.ptr<f32>)
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<31> : tensor<4xi8>
// CHECK-DAG:     %[[S:.*]] = tile.splat %[[N]] : i32 -> tensor<4xi32>
// CHECK-DAG:     %[[Q:.*]] = tile.splat %[[P]] : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
// CHECK-NOT:     arith.shrui
// CHECK:         tile.return %[[C]], %[[S]], %[[Q]]
tile.func private @splat_const(%n: i32, %p: !tile.ptr<f32>) -> (tensor<4xi8>, tensor<4xi32>, tensor<4x!tile.ptr<f32>>) {
  %c248 = arith.constant 248 : i8
  %c3 = arith.constant 3 : i8
  %x = tile.splat %c248 : i8 -> tensor<4xi8>
  %k = tile.splat %c3 : i8 -> tensor<4xi8>
  %r = arith.shrui %x, %k : tensor<4xi8>
  %s = tile.splat %n : i32 -> tensor<4xi32>
  %q = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  tile.return %r, %s, %q : tensor<4xi8>, tensor<4xi32>, tensor<4x!tile.ptr<f32>>
}
