// tile-accelerate-dot: each laid-out tile.dot gets the layouts of the
// instruction that computes it, with conversions around it.
// The mma.sync rules (mma-version=2; on sm_90a f16/bf16 dots that fit take
// wgmma by default, WGMMA below).
// RUN: tilec-opt %s --tile-accelerate-dot=mma-version=2 --split-input-file | FileCheck %s
// RUN: tilec-opt %s --tile-accelerate-dot --split-input-file | FileCheck %s --check-prefix=WGMMA
// RUN: tilec-opt %s --tile-accelerate-dot=chip=sm_80 --split-input-file | FileCheck %s --check-prefix=SM80

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// f16 -> f32: mma.sync, the four warps as 2 x 2 over the 128x128 result.
// CHECK: #mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK: #dot_op = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK: #dot_op1 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// CHECK-LABEL: tile.func private @f16(
// CHECK:         %[[CA:.*]] = tile.convert_layout %arg0 : {{.*}} -> tensor<128x64xf16, #dot_op>
// CHECK:         %[[CB:.*]] = tile.convert_layout %arg1 : {{.*}} -> tensor<64x128xf16, #dot_op1>
// CHECK:         %[[CC:.*]] = tile.convert_layout %arg2 : {{.*}} -> tensor<128x128xf32, #mma>
// CHECK:         %[[D:.*]] = tile.dot %[[CA]], %[[CB]], %[[CC]] : {{.*}} -> tensor<128x128xf32, #mma>
// CHECK:         tile.convert_layout %[[D]] : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
// WGMMA: #mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]}>
// WGMMA: #shared = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
// WGMMA-LABEL: tile.func private @f16(
// WGMMA:         %[[A:.*]] = tile.local_alloc %arg0 : (tensor<128x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared, mutable>
// WGMMA:         %[[B:.*]] = tile.local_alloc %arg1 : (tensor<64x128xf16, #blocked>) -> !tile.memdesc<64x128xf16, #shared, mutable>
// WGMMA:         %[[C:.*]] = tile.convert_layout %arg2 : {{.*}} -> tensor<128x128xf32, #mma>
// WGMMA:         tile.warpgroup_dot %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<128x128xf32, #mma>
tile.func private @f16(%a: tensor<128x64xf16, #b>, %b: tensor<64x128xf16, #b>, %c: tensor<128x128xf32, #b>) -> tensor<128x128xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c : tensor<128x64xf16, #b>, tensor<64x128xf16, #b>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  tile.return %d : tensor<128x128xf32, #b>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// tf32 operands: 1 element per register (kWidth = 1); int8: 4.
// CHECK: #dot_op = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
// CHECK: #dot_op2 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
// CHECK-LABEL: tile.func private @tf32_int8(
// CHECK:         tile.dot {{.*}} : tensor<64x32xf32, #dot_op>, tensor<32x64xf32, #dot_op1>, tensor<64x64xf32, #mma>
// CHECK:         tile.dot {{.*}} : tensor<64x32xi8, #dot_op2>, tensor<32x64xi8, #dot_op3>, tensor<64x64xi32, #mma>
tile.func private @tf32_int8(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>,
                             %ai: tensor<64x32xi8, #b>, %bi: tensor<32x64xi8, #b>, %ci: tensor<64x64xi32, #b>) attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c : tensor<64x32xf32, #b>, tensor<32x64xf32, #b>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  %e = tile.dot %ai, %bi, %ci : tensor<64x32xi8, #b>, tensor<32x64xi8, #b>, tensor<64x64xi32, #b> -> tensor<64x64xi32, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// tf32x3: the operands split into a tf32-exact high part and the rest,
// three tf32 dots, the small products first.
// CHECK-LABEL: tile.func private @tf32x3(
// CHECK:         arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi32
// CHECK:         arith.subf
// CHECK:         arith.andi %{{.*}}, %{{.*}} : tensor<32x64xi32
// CHECK:         arith.subf
// CHECK-COUNT-3: tile.dot {{.*}} -> tensor<64x64xf32, #mma>
// CHECK-NOT:     tile.dot
tile.func private @tf32x3(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c {input_precision = "tf32x3"} : tensor<64x32xf32, #b>, tensor<32x64xf32, #b>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  tile.return %d : tensor<64x64xf32, #b>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// The FMA path: f32 "ieee", and a dot smaller than the instruction
// (M = 8). The result keeps its blocked layout, the operands hold whole K.
// CHECK: #dot_op = #tile.dot_operand<{opIdx = 0, parent = #blocked, kWidth = 0}>
// CHECK-LABEL: tile.func private @fma(
// CHECK:         tile.dot {{.*}} : tensor<64x32xf32, #dot_op>, tensor<32x64xf32, #dot_op1>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
// CHECK:         tile.dot {{.*}} : tensor<8x16xf16, #dot_op2>, tensor<16x64xf16, #dot_op3>, tensor<8x64xf32, #blocked1> -> tensor<8x64xf32, #blocked1>
#b8 = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>
tile.func private @fma(%a: tensor<64x32xf32, #b>, %b: tensor<32x64xf32, #b>, %c: tensor<64x64xf32, #b>,
                       %a8: tensor<8x16xf16, #b8>, %b8: tensor<16x64xf16, #b8>, %c8: tensor<8x64xf32, #b8>) attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c {input_precision = "ieee"} : tensor<64x32xf32, #b>, tensor<32x64xf32, #b>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  %e = tile.dot %a8, %b8, %c8 : tensor<8x16xf16, #b8>, tensor<16x64xf16, #b8>, tensor<8x64xf32, #b8> -> tensor<8x64xf32, #b8>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// fp8: mma.sync e4m3 x e5m2 on sm_89+ (kWidth 4); on sm_80 the operands
// are widened to f16 first (exact) and the f16 instruction is used.
// CHECK-LABEL: tile.func private @fp8(
// CHECK:         tile.dot {{.*}} : tensor<64x32xf8E4M3FN, #dot_op>, tensor<32x64xf8E5M2, #dot_op1>, tensor<64x64xf32, #mma>
// SM80-LABEL:  tile.func private @fp8(
// SM80:          arith.extf %{{.*}} : tensor<64x32xf8E4M3FN, #blocked> to tensor<64x32xf16, #blocked>
// SM80:          arith.extf %{{.*}} : tensor<32x64xf8E5M2, #blocked> to tensor<32x64xf16, #blocked>
// SM80:          tile.dot {{.*}} : tensor<64x32xf16, #dot_op>, tensor<32x64xf16, #dot_op1>, tensor<64x64xf32, #mma>
tile.func private @fp8(%a: tensor<64x32xf8E4M3FN, #b>, %b: tensor<32x64xf8E5M2, #b>, %c: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #b>, tensor<32x64xf8E5M2, #b>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  tile.return %d : tensor<64x64xf32, #b>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b8 = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>
// fp8 that the fp8 mma.sync cannot take is widened to f16 on every chip:
// an f16 accumulator (out_dtype=tl.float16) runs on the f16 instruction,
// a dot smaller than the instruction (M = 8) on FMA.
// CHECK-LABEL: tile.func private @fp8_widened(
// CHECK:         arith.extf %{{.*}} : tensor<64x32xf8E4M3FN, #blocked> to tensor<64x32xf16, #blocked>
// CHECK:         tile.dot {{.*}} : tensor<64x32xf16, #dot_op{{[0-9]*}}>, tensor<32x64xf16, #dot_op{{[0-9]*}}>, tensor<64x64xf16, #mma>
// CHECK:         arith.extf %{{.*}} : tensor<8x32xf8E4M3FN, #blocked1> to tensor<8x32xf16, #blocked1>
// CHECK:         tile.dot {{.*}} : tensor<8x32xf16, #dot_op{{[0-9]*}}>, tensor<32x64xf16, #dot_op{{[0-9]*}}>, tensor<8x64xf32, #blocked1>
tile.func private @fp8_widened(%a: tensor<64x32xf8E4M3FN, #b>, %b: tensor<32x64xf8E5M2, #b>, %c: tensor<64x64xf16, #b>,
                               %a8: tensor<8x32xf8E4M3FN, #b8>, %b8: tensor<32x64xf8E4M3FN, #b8>, %c8: tensor<8x64xf32, #b8>) attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #b>, tensor<32x64xf8E5M2, #b>, tensor<64x64xf16, #b> -> tensor<64x64xf16, #b>
  %e = tile.dot %a8, %b8, %c8 : tensor<8x32xf8E4M3FN, #b8>, tensor<32x64xf8E4M3FN, #b8>, tensor<8x64xf32, #b8> -> tensor<8x64xf32, #b8>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// `acc + tl.dot(a, b)` accumulates into the dot (as Triton combines it).
// CHECK-LABEL: tile.func private @combine(
// CHECK-NOT:     arith.addf
// CHECK:         %[[C:.*]] = tile.convert_layout %arg2 {{.*}} -> tensor<64x64xf32, #mma>
// CHECK:         tile.dot %{{.*}}, %{{.*}}, %[[C]]
// CHECK-NOT:     arith.addf
tile.func private @combine(%a: tensor<64x32xf16, #b>, %b: tensor<32x64xf16, #b>, %acc: tensor<64x64xf32, #b>) -> tensor<64x64xf32, #b> attributes {tile.num_warps = 4 : i32} {
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %d = tile.dot %a, %b, %z : tensor<64x32xf16, #b>, tensor<32x64xf16, #b>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  %s = arith.addf %acc, %d : tensor<64x64xf32, #b>
  tile.return %s : tensor<64x64xf32, #b>
}

// -----

// A dot without encodings (tile-assign-layouts has not run) is left alone.
// CHECK-LABEL: tile.func private @unlaid(
// CHECK:         tile.dot %arg0, %arg1, %arg2 : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
tile.func private @unlaid(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.return %d : tensor<16x16xf32>
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// B = x.T of an [N, K] tile with K contiguous (tutorial 09's b.T,
// attention's K^T): x is stored as it is and read through a transposed
// view, a K-major B (nvmma transposed = true) -- also for fp8, which wgmma
// takes only K-major.
// WGMMA-LABEL: tile.func private @trans_b(
// WGMMA-NOT:     tile.trans
// WGMMA:         %[[X:.*]] = tile.local_alloc %arg1 : (tensor<128x64xf16, #blocked>) -> !tile.memdesc<128x64xf16, #shared, mutable>
// WGMMA:         %[[XT:.*]] = tile.memdesc_trans %[[X]] {order = array<i32: 1, 0>} : !tile.memdesc<128x64xf16, #shared, mutable> -> !tile.memdesc<64x128xf16, #shared1, mutable>
// WGMMA:         tile.warpgroup_dot %{{.*}}, %[[XT]], %{{.*}} : !tile.memdesc<128x64xf16, #shared, mutable>, !tile.memdesc<64x128xf16, #shared1, mutable>
// WGMMA:         %[[Y:.*]] = tile.local_alloc %arg4 : (tensor<128x128xf8E4M3FN, #blocked>) -> !tile.memdesc<128x128xf8E4M3FN, #shared, mutable>
// WGMMA:         %[[YT:.*]] = tile.memdesc_trans %[[Y]] {order = array<i32: 1, 0>} : !tile.memdesc<128x128xf8E4M3FN, #shared, mutable> -> !tile.memdesc<128x128xf8E4M3FN, #shared1, mutable>
// WGMMA:         tile.warpgroup_dot %{{.*}}, %[[YT]], %{{.*}} : !tile.memdesc<128x128xf8E4M3FN, #shared, mutable>, !tile.memdesc<128x128xf8E4M3FN, #shared1, mutable>
tile.func private @trans_b(%a: tensor<128x64xf16, #b>, %x: tensor<128x64xf16, #b>, %c: tensor<128x128xf32, #b>,
                           %a8: tensor<128x128xf8E4M3FN, #b>, %y: tensor<128x128xf8E4M3FN, #b>) attributes {tile.num_warps = 4 : i32} {
  %xt = tile.trans %x {order = array<i32: 1, 0>} : tensor<128x64xf16, #b> -> tensor<64x128xf16, #t>
  %d = tile.dot %a, %xt, %c : tensor<128x64xf16, #b>, tensor<64x128xf16, #t>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  %yt = tile.trans %y {order = array<i32: 1, 0>} : tensor<128x128xf8E4M3FN, #b> -> tensor<128x128xf8E4M3FN, #t>
  %e = tile.dot %a8, %yt, %c : tensor<128x128xf8E4M3FN, #b>, tensor<128x128xf8E4M3FN, #t>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// A tile two dots read in the same layout is stored once (the backward's
// Q^T and dO); a copy made in another branch does not dominate the second
// dot, which stores its own.
// WGMMA-LABEL: tile.func private @shared_operand(
// WGMMA:         %[[X:.*]] = tile.local_alloc %arg1 : (tensor<64x128xf16, #blocked>) -> !tile.memdesc<64x128xf16, #shared, mutable>
// WGMMA:         tile.warpgroup_dot %{{.*}}, %[[X]], %{{.*}}
// WGMMA-NOT:     tile.local_alloc %arg1
// WGMMA:         tile.warpgroup_dot %{{.*}}, %[[X]], %{{.*}}
// WGMMA:         scf.if
// WGMMA:           %[[Y:.*]] = tile.local_alloc %arg4
// WGMMA:           tile.warpgroup_dot %{{.*}}, %[[Y]], %{{.*}}
// WGMMA:         } else {
// WGMMA:           %[[Y2:.*]] = tile.local_alloc %arg4
// WGMMA:           tile.warpgroup_dot %{{.*}}, %[[Y2]], %{{.*}}
tile.func private @shared_operand(%a: tensor<128x64xf16, #b>, %x: tensor<64x128xf16, #b>, %c: tensor<128x128xf32, #b>,
                                  %a2: tensor<128x64xf16, #b>, %y: tensor<64x128xf16, #b>, %p: i1) attributes {tile.num_warps = 4 : i32} {
  %d = tile.dot %a, %x, %c : tensor<128x64xf16, #b>, tensor<64x128xf16, #b>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  %e = tile.dot %a2, %x, %d : tensor<128x64xf16, #b>, tensor<64x128xf16, #b>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  scf.if %p {
    %f = tile.dot %a, %y, %c : tensor<128x64xf16, #b>, tensor<64x128xf16, #b>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  } else {
    %g = tile.dot %a2, %y, %c : tensor<128x64xf16, #b>, tensor<64x128xf16, #b>, tensor<128x128xf32, #b> -> tensor<128x128xf32, #b>
  }
  tile.return
}
