// Reductions and atomics to PTX: a row-sum reduction over a 2-D tile uses
// warp shuffles (shfl.sync.bfly) and a shared-memory exchange across warps;
// a tile atomic is a predicated atom.global with its semantics and scope; a
// scalar compare-and-swap is issued by thread 0 and its result broadcast
// through shared memory. ptxas accepts all of it.
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: // tilec.kernel name=row_sum num_warps=4 shared=[[SH:[0-9]+]]
// CHECK: .visible .entry row_sum(
// CHECK: shfl.sync.bfly.b32
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ld.shared
// CHECK: @%p{{[0-9]+}} atom.global.acq_rel.gpu.add.f32
// The release waits for the whole CTA; then thread 0's compare-and-swap.
// CHECK: bar.sync
// CHECK: @%p{{[0-9]+}} atom.global.acq_rel.gpu.cas.b32
// CHECK: ret;
tile.func @row_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                   %lock: !tile.ptr<i32>) {
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %c = tile.expand_dims %r {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %cb = tile.broadcast %c : tensor<1x256xi32> -> tensor<8x256xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<8x256x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %cb : tensor<8x256x!tile.ptr<f32>>, tensor<8x256xi32>
  %v = tile.load %xp : tensor<8x256x!tile.ptr<f32>>
  %s = tile.reduce(%v) {axis = 1 : i32} : (tensor<8x256xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.reduce.return %t : f32
  }
  %r8 = tile.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %op = tile.addptr %ob, %r8 : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %old = tile.atomic_rmw fadd, acq_rel, gpu, %op, %s : tensor<8x!tile.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %prev = tile.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : !tile.ptr<i32>
  tile.return
}
