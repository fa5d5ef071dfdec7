// fp8 conversions: fp32 -> e4m3 with cvt.rn.satfinite (sm_89+), e5m2 -> fp32
// through cvt.rn.f16x2.e5m2x2; fp8 moves through memory as bytes. On sm_80
// conversions to fp8 are refused with a located error (fp8-sm80.mlir:
// conversions from fp8 are integer arithmetic there).
// REQUIRES: ptxas
// RUN: tilec %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: not tilec %s --arch=sm_80 -o %t80.ptx 2>&1 | FileCheck %s --check-prefix=SM80
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: cvt.rn.f16x2.e5m2x2
// SM80: error: unimplemented: conversions to fp8 need sm_89 or newer (cvt.rn.satfinite.e4m3x2/e5m2x2), found --arch sm_80
tile.func @fp8(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
               %q: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32},
               %p: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %f8 = arith.truncf %v : tensor<128xf32> to tensor<128xf8E4M3FN>
  %qb = tile.splat %q : !tile.ptr<f8E4M3FN> -> tensor<128x!tile.ptr<f8E4M3FN>>
  %qp = tile.addptr %qb, %r : tensor<128x!tile.ptr<f8E4M3FN>>, tensor<128xi32>
  tile.store %qp, %f8 : tensor<128x!tile.ptr<f8E4M3FN>>
  %pb = tile.splat %p : !tile.ptr<f8E5M2> -> tensor<128x!tile.ptr<f8E5M2>>
  %pp = tile.addptr %pb, %r : tensor<128x!tile.ptr<f8E5M2>>, tensor<128xi32>
  %e5 = tile.load %pp : tensor<128x!tile.ptr<f8E5M2>>
  %w = arith.extf %e5 : tensor<128xf8E5M2> to tensor<128xf32>
  tile.store %xp, %w : tensor<128x!tile.ptr<f32>>
  tile.return
}
