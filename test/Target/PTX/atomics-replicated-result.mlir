// The old values of a tile atomic on a tile that several threads hold
// reach every holder (Triton's semantics): the owner issues the atom, then
// - replicas in other lanes of the warp read it with shfl.sync.idx from the
//   lane whose replica bits are clear (one warp: @lanes),
// - replicas in other warps read it back from shared memory after a barrier
//   (four warps: @warps, 4 bytes of scratch for the 1-element tile),
// and an atomic whose result is unused broadcasts nothing (@unused).
// REQUIRES: ptxas
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// CHECK: // tilec.kernel name=lanes num_warps=1 shared=0
// CHECK: // tilec.kernel name=warps num_warps=4 shared=4
// CHECK: // tilec.kernel name=unused num_warps=4 shared=0

// CHECK-LABEL: .visible .entry lanes(
// CHECK: @%p{{[0-9]+}} atom.global.acq_rel.gpu.add.u32 [[OLD:%r[0-9]+]],
// CHECK: shfl.sync.idx.b32 {{%r[0-9]+}}, [[OLD]],
// CHECK-NOT: bar.sync
// CHECK: ret;
#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
tile.func @lanes(%cnt: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32, #b1>
  %p = tile.splat %cnt : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>, #b1>
  %pp = tile.addptr %p, %r : tensor<4x!tile.ptr<i32>, #b1>, tensor<4xi32, #b1>
  %one = arith.constant dense<1> : tensor<4xi32, #b1>
  %old = tile.atomic_rmw add, acq_rel, gpu, %pp, %one : tensor<4x!tile.ptr<i32>, #b1>
  %e = tile.convert_layout %old : tensor<4xi32, #b1> -> tensor<4xi32, #tile.slice<{dim = 1, parent = #b2}>>
  %x = tile.expand_dims %e {axis = 1 : i32} : tensor<4xi32, #tile.slice<{dim = 1, parent = #b2}>> -> tensor<4x1xi32, #b2>
  %xb = tile.broadcast %x : tensor<4x1xi32, #b2> -> tensor<4x8xi32, #b2>
  %o = tile.splat %out : !tile.ptr<i32> -> tensor<4x8x!tile.ptr<i32>, #b2>
  %c = tile.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32, #tile.slice<{dim = 0, parent = #b2}>>
  %c2 = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32, #tile.slice<{dim = 0, parent = #b2}>> -> tensor<1x8xi32, #b2>
  %cb = tile.broadcast %c2 : tensor<1x8xi32, #b2> -> tensor<4x8xi32, #b2>
  %off = arith.addi %xb, %cb : tensor<4x8xi32, #b2>
  %op = tile.addptr %o, %off : tensor<4x8x!tile.ptr<i32>, #b2>, tensor<4x8xi32, #b2>
  tile.store %op, %xb : tensor<4x8x!tile.ptr<i32>, #b2>
  tile.return
}

// CHECK-LABEL: .visible .entry warps(
// CHECK: @%p{{[0-9]+}} atom.global.acq_rel.gpu.exch.b32 [[X:%r[0-9]+]],
// CHECK: st.shared.b32 {{.*}}, [[X]];
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: ret;
#w = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @warps(%x: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 1 : i32} : tensor<1xi32, #w>
  %p = tile.splat %x : !tile.ptr<i32> -> tensor<1x!tile.ptr<i32>, #w>
  %pp = tile.addptr %p, %r : tensor<1x!tile.ptr<i32>, #w>, tensor<1xi32, #w>
  %v = arith.constant dense<7> : tensor<1xi32, #w>
  %old = tile.atomic_rmw xchg, acq_rel, gpu, %pp, %v : tensor<1x!tile.ptr<i32>, #w>
  %b = tile.broadcast %old : tensor<1xi32, #w> -> tensor<128xi32, #w>
  %i = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #w>
  %o = tile.splat %out : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>, #w>
  %op = tile.addptr %o, %i : tensor<128x!tile.ptr<i32>, #w>, tensor<128xi32, #w>
  tile.store %op, %b : tensor<128x!tile.ptr<i32>, #w>
  tile.return
}

// CHECK-LABEL: .visible .entry unused(
// CHECK: atom.global.acq_rel.gpu.add.u32
// CHECK-NOT: bar.sync
// CHECK-NOT: shfl.sync
// CHECK: ret;
tile.func @unused(%x: !tile.ptr<i32>) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 1 : i32} : tensor<1xi32, #w>
  %p = tile.splat %x : !tile.ptr<i32> -> tensor<1x!tile.ptr<i32>, #w>
  %pp = tile.addptr %p, %r : tensor<1x!tile.ptr<i32>, #w>, tensor<1xi32, #w>
  %v = arith.constant dense<1> : tensor<1xi32, #w>
  %old = tile.atomic_rmw add, acq_rel, gpu, %pp, %v : tensor<1x!tile.ptr<i32>, #w>
  tile.return
}
