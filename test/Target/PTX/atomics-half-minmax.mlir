// fp16/bf16 atomic max/min and exchange: a compare-and-swap loop on the 16-bit element
// (atom.cas.b16 around max.f16 / min.bf16), since PTX has no scalar
// atom.max.f16. ptxas accepts it, labels local to each block.
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: .visible .entry half_minmax(
// CHECK: max.f16
// CHECK: atom.global.acq_rel.gpu.cas.b16
// CHECK: min.bf16
// CHECK: atom.global.relaxed.gpu.cas.b16
tile.func @half_minmax(%x: !tile.ptr<f16>, %y: !tile.ptr<bf16>) {
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %f = arith.sitofp %r : tensor<128xi32> to tensor<128xf16>
  %xb = tile.splat %x : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %o = tile.atomic_rmw max, acq_rel, gpu, %xp, %f : tensor<128x!tile.ptr<f16>>
  %g = arith.sitofp %r : tensor<128xi32> to tensor<128xbf16>
  %yb = tile.splat %y : !tile.ptr<bf16> -> tensor<128x!tile.ptr<bf16>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<bf16>>, tensor<128xi32>
  %p = tile.atomic_rmw min, relaxed, gpu, %yp, %g : tensor<128x!tile.ptr<bf16>>
  tile.return
}

// fp16/bf16 exchange: PTX has no atom.exch.b16 either; the same loop with
// a plain move as the update.
// CHECK: .visible .entry half_xchg(
// CHECK-NOT: exch.b16
// CHECK: mov.b16 %tilec_new
// CHECK: atom.global.acq_rel.gpu.cas.b16
tile.func @half_xchg(%x: !tile.ptr<f16>, %v: f16) {
  %o = tile.atomic_rmw xchg, acq_rel, gpu, %x, %v : !tile.ptr<f16>
  tile.return
}
