// Conversions from fp8 on sm_80, which has no fp8 cvt: e5m2 is the high
// byte of the equal f16; e4m3fn's exponent and mantissa bits placed in an
// f16 give x * 2^-8, rescaled by one exact mul.f16 (no .ftz: subnormals kept) by 256, NaN selected
// apart. (GPU-tested through the fp8 GEMMs compiled for sm_80,
// GPU/DotTests.cpp matmul_fp8e4nv_sm80 / matmul_fp8e5_sm80.)
// REQUIRES: ptxas
// RUN: tilec %s --arch=sm_80 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// CHECK-NOT: e4m3x2
// CHECK-NOT: e5m2x2
// CHECK: .target sm_80
// CHECK-DAG: shl.b16
// CHECK-DAG: mul.f16
// CHECK-DAG: 0x5C00
tile.func @fp8_to_f32(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %q: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
                      %p: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %qb = tile.splat %q : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %qp = tile.addptr %qb, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  %e4 = tile.load %qp : tensor<128x!tile.ptr<f8E4M3FN>>
  %w4 = arith.extf %e4 : tensor<128xf8E4M3FN> to tensor<128xf32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %xp, %w4 : tensor<128x!tile.ptr<f32>>
  %pb = tile.splat %p : !tile.ptr<f8E5M2> -> tensor<128x!tile.ptr<f8E5M2>>
  %pp = tile.addptr %pb, %r : tensor<128x!tile.ptr<f8E5M2>>, tensor<128xi32>
  %e5 = tile.load %pp : tensor<128x!tile.ptr<f8E5M2>>
  %w5 = arith.extf %e5 : tensor<128xf8E5M2> to tensor<128xf32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %yp, %w5 : tensor<128x!tile.ptr<f32>>
  tile.return
}
