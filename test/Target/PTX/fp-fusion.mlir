// x * y + z contracts into one fma by default (Triton's enable_fp_fusion);
// --no-fp-fusion keeps two rounded operations.
// REQUIRES: ptxas
// RUN: tilec %s -o %t.ptx && FileCheck %s --check-prefix=FUSE < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: tilec %s --no-fp-fusion -o %t.nofuse.ptx && FileCheck %s --check-prefix=NOFUSE < %t.nofuse.ptx
// FUSE: fma.rn.f32
// NOFUSE-NOT: fma.rn.f32
// NOFUSE: mul.rn.f32
// NOFUSE: add.rn.f32
tile.func @axpy(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %a: f32) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %xv = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %yv = tile.load %yp : tensor<128x!tile.ptr<f32>>
  %av = tile.splat %a : f32 -> tensor<128xf32>
  %m = arith.mulf %av, %xv : tensor<128xf32>
  %s = arith.addf %m, %yv : tensor<128xf32>
  tile.store %yp, %s : tensor<128x!tile.ptr<f32>>
  tile.return
}
