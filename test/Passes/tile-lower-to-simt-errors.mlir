// tile-lower-to-simt refuses what it does not implement with a located error.
// RUN: tilec-opt %s --tile-assign-layouts --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file -verify-diagnostics

tile.func @nonsplat_constant(%x: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  // expected-error @+1 {{unimplemented: a tile constant with different elements}}
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  tile.store %p, %c : tensor<4x!tile.ptr<f32>>
  tile.return
}

// -----

// -----

// A dot whose operands have no dot-operand encodings (tile-accelerate-dot
// did not run).
tile.func @dot_trans(%x: !tile.ptr<f32>) {
  %a = arith.constant dense<1.0> : tensor<16x32xf32>
  %b = tile.trans %a {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{expected tile.dot operands with #tile.dot_operand encodings of the result's (run tile-accelerate-dot first), found}}
  %d = tile.dot %a, %b, %c : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %p = tile.splat %x : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  tile.store %p, %d : tensor<16x16x!tile.ptr<f32>>
  tile.return
}

// -----

tile.func @descriptors(%b: !tile.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{unimplemented: 'tile.make_tensor_desc' is not lowered to PTX yet}}
  %d = tile.make_tensor_desc %b, [%m, %m], [%s, %s] : !tile.ptr<f16>, [i32, i32], [i64, i64] -> !tile.tensordesc<tensor<64x64xf16>>
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{unimplemented: 'tile.desc_load' is not lowered to PTX yet}}
  %t = tile.desc_load %d[%c0, %c0] : !tile.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // expected-error @+1 {{unimplemented: 'tile.desc_store' is not lowered to PTX yet}}
  tile.desc_store %d[%m, %m], %t : !tile.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16>
  tile.return
}

// -----

// Explicit encodings that ask for an mma.sync no instruction has: fp8 into
// f16, and f32 with input_precision "ieee" (mma.sync would round to tf32).
#mma = #tile.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 4}>
#b = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 4}>
#a1 = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 1}>
#b1 = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 1}>
tile.func @mma_unsupported(%p: !tile.ptr<f16>, %q: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %x = arith.constant dense<1.0> : tensor<64x32xf8E4M3FN, #a>
  %y = arith.constant dense<1.0> : tensor<32x64xf8E4M3FN, #b>
  %c = arith.constant dense<0.0> : tensor<64x64xf16, #mma>
  // expected-error @+1 {{unimplemented: mma.sync has no form for 'f8E4M3FN' x 'f8E4M3FN' + 'f16' (input_precision tf32) on sm_90a}}
  %d = tile.dot %x, %y, %c : tensor<64x32xf8E4M3FN, #a>, tensor<32x64xf8E4M3FN, #b>, tensor<64x64xf16, #mma> -> tensor<64x64xf16, #mma>
  %pp = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #mma>
  tile.store %pp, %d : tensor<64x64x!tile.ptr<f16>, #mma>
  %xf = arith.constant dense<1.0> : tensor<64x8xf32, #a1>
  %yf = arith.constant dense<1.0> : tensor<8x64xf32, #b1>
  %cf = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{unimplemented: mma.sync has no form for 'f32' x 'f32' + 'f32' (input_precision ieee) on sm_90a}}
  %e = tile.dot %xf, %yf, %cf {input_precision = "ieee"} : tensor<64x8xf32, #a1>, tensor<8x64xf32, #b1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %qp = tile.splat %q : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #mma>
  tile.store %qp, %e : tensor<64x64x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// An FMA dot reads no fp8 (tile-accelerate-dot extends such operands).
#bl = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>
#fa = #tile.dot_operand<{opIdx = 0, parent = #bl, kWidth = 0}>
#fb = #tile.dot_operand<{opIdx = 1, parent = #bl, kWidth = 0}>
tile.func @fma_fp8(%p: !tile.ptr<f8E4M3FN>, %q: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %pa = tile.splat %p : !tile.ptr<f8E4M3FN> -> tensor<8x32x!tile.ptr<f8E4M3FN>, #fa>
  %x = tile.load %pa : tensor<8x32x!tile.ptr<f8E4M3FN>, #fa>
  %pb = tile.splat %p : !tile.ptr<f8E4M3FN> -> tensor<32x64x!tile.ptr<f8E4M3FN>, #fb>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f8E4M3FN>, #fb>
  %c = arith.constant dense<0.0> : tensor<8x64xf32, #bl>
  // expected-error @+1 {{unimplemented: an FMA tile.dot (blocked result) does not read fp8 operands; extend them to f16 first (as tile-accelerate-dot does)}}
  %d = tile.dot %x, %y, %c : tensor<8x32xf8E4M3FN, #fa>, tensor<32x64xf8E4M3FN, #fb>, tensor<8x64xf32, #bl> -> tensor<8x64xf32, #bl>
  %qp = tile.splat %q : !tile.ptr<f32> -> tensor<8x64x!tile.ptr<f32>, #bl>
  tile.store %qp, %d : tensor<8x64x!tile.ptr<f32>, #bl>
  tile.return
}
