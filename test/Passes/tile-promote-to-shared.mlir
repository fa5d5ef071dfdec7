// tile-promote-to-shared: mma.sync operands go through swizzled shared
// memory (stored in their source's order, read back with ldmatrix later),
// a transposed operand through memdesc_trans, and the dot is split along K
// into one dot per instruction K step, each step's slice loaded one step
// ahead.
// RUN: tilec-opt %s --tile-promote-to-shared --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// A: rows of 32 f16 = 64 bytes, two rows per phase, four phases; B: rows
// of 128 bytes, eight phases.
// CHECK: #shared = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK: #shared1 = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tile.func private @promote(
// CHECK:         %[[MA:.*]] = tile.local_alloc %arg0 : (tensor<64x32xf16, #blocked>) -> !tile.memdesc<64x32xf16, #shared, mutable>
// CHECK:         %[[MB:.*]] = tile.local_alloc %arg1 : (tensor<32x64xf16, #blocked>) -> !tile.memdesc<32x64xf16, #shared1, mutable>
// CHECK:         %[[A0:.*]] = tile.memdesc_subview %[[MA]][0, 0] : {{.*}} -> !tile.memdesc<64x16xf16, #shared, mutable, alloc = 64x32>
// CHECK:         %[[LA0:.*]] = tile.local_load %[[A0]] : {{.*}} -> tensor<64x16xf16, #dot_op>
// CHECK:         %[[B0:.*]] = tile.memdesc_subview %[[MB]][0, 0] : {{.*}} -> !tile.memdesc<16x64xf16, #shared1, mutable, alloc = 32x64>
// CHECK:         %[[LB0:.*]] = tile.local_load %[[B0]]
// CHECK:         %[[A1:.*]] = tile.memdesc_subview %[[MA]][0, 16]
// CHECK:         %[[LA1:.*]] = tile.local_load %[[A1]]
// CHECK:         %[[B1:.*]] = tile.memdesc_subview %[[MB]][16, 0]
// CHECK:         %[[LB1:.*]] = tile.local_load %[[B1]]
// CHECK:         %[[D0:.*]] = tile.dot %[[LA0]], %[[LB0]], %arg2
// CHECK:         %[[D1:.*]] = tile.dot %[[LA1]], %[[LB1]], %[[D0]]
// CHECK:         tile.return %[[D1]]
tile.func private @promote(%x: tensor<64x32xf16, #b>, %y: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile.convert_layout %x : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
  %bb = tile.convert_layout %y : tensor<32x64xf16, #b> -> tensor<32x64xf16, #bo>
  %d = tile.dot %a, %bb, %c : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return %d : tensor<64x64xf32, #mma>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// B = trans(Bt): Bt is stored as loaded (K contiguous) and viewed
// transposed; no register transpose remains.
// CHECK: #shared1 = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>
// CHECK-LABEL: tile.func private @trans(
// CHECK-NOT:     tile.trans
// CHECK:         %[[M:.*]] = tile.local_alloc %arg1 : (tensor<64x32xf16, #blocked>) -> !tile.memdesc<64x32xf16, #shared, mutable>
// CHECK:         tile.memdesc_trans %[[M]] {order = array<i32: 1, 0>} : !tile.memdesc<64x32xf16, #shared, mutable> -> !tile.memdesc<32x64xf16, #shared1, mutable>
// CHECK-NOT:     tile.trans
tile.func private @trans(%x: tensor<64x32xf16, #b>, %yt: tensor<64x32xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile.convert_layout %x : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
  %t = tile.trans %yt {order = array<i32: 1, 0>} : tensor<64x32xf16, #b> -> tensor<32x64xf16, #bt>
  %bb = tile.convert_layout %t : tensor<32x64xf16, #bt> -> tensor<32x64xf16, #bo>
  %d = tile.dot %a, %bb, %c : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  tile.return %d : tensor<64x64xf32, #mma>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// Conversions to other layouts and FMA operands are left alone.
// CHECK-LABEL: tile.func private @fma(
// CHECK-NOT:     tile.local_alloc
// CHECK:         tile.convert_layout
#fa = #tile.dot_operand<{opIdx = 0, parent = #b, kWidth = 0}>
tile.func private @fma(%x: tensor<64x32xf32, #b>) -> tensor<64x32xf32, #fa> attributes {tile.num_warps = 4 : i32} {
  %a = tile.convert_layout %x : tensor<64x32xf32, #b> -> tensor<64x32xf32, #fa>
  tile.return %a : tensor<64x32xf32, #fa>
}

// -----

#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// A wgmma accumulator rounded to f16 as the next wgmma's A operand
// (FlashAttention's P): every element is already in the thread that needs
// it, so the conversion stays in registers.
// CHECK-LABEL: tile.func private @accumulator_as_a(
// CHECK-NOT:     tile.local_alloc
// CHECK:         tile.convert_layout %{{.*}} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #dot_op>
tile.func private @accumulator_as_a(%p: tensor<64x64xf16, #mma>) -> tensor<64x64xf16, #a> attributes {tile.num_warps = 4 : i32} {
  %a = tile.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
  tile.return %a : tensor<64x64xf16, #a>
}
