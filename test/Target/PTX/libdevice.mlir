// math ops lower to libdevice calls (here math.log: __nv_logf), which the PTX
// backend links from the CUDA toolkit; the PTX has no external call left and
// ptxas accepts it. fp32 math.exp instead takes Triton's fast path:
// ex2.approx.f32 of x * log2(e) (passes/SIMT/Math.cpp).
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: .visible .entry exp_kernel(
// CHECK-NOT: .extern .func
// CHECK-NOT: call{{.*}}__nv_
// CHECK: mul{{(.rn)?}}.f32 {{.*}}0f3FB8AA3B
// CHECK: ex2.approx.f32
tile.func @exp_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %p = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %p : tensor<128x!tile.ptr<f32>>
  %e = math.exp %v : tensor<128xf32>
  %g = math.log %e : tensor<128xf32>
  tile.store %p, %g : tensor<128x!tile.ptr<f32>>
  tile.return
}
