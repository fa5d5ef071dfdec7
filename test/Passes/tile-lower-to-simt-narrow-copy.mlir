// tile-lower-to-simt of tile.async_copy chunks under 4 bytes (no cp.async):
// synchronous loads, then their shared stores. A chunk of two 1-byte
// elements (the pointers 2-byte aligned, so two registers a chunk) is one
// 2-byte load and one 2-byte store: both of its bytes reach shared memory
// (each thread holds 32 bytes: 16 chunks). The copy is marked as a write
// through the generic proxy, so that a wgmma reading the buffer gets
// fence.proxy.async first. Explicit encodings (no tile-assign-layouts).
// RUN: tilec-opt %s --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tile.func @i8v2(%p: !tile.ptr<i8> {tile.divisibility = 2 : i32}, %q: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %rr = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tile.slice<{dim = 1, parent = #b}>>
  %re = tile.expand_dims %rr {axis = 1 : i32} : tensor<64xi32, #tile.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
  %rs = arith.constant dense<64> : tensor<64x1xi32, #b>
  %rm = arith.muli %re, %rs : tensor<64x1xi32, #b>
  %rb = tile.broadcast %rm : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
  %cr = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #tile.slice<{dim = 0, parent = #b}>>
  %ce = tile.expand_dims %cr {axis = 0 : i32} : tensor<64xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %cb = tile.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
  %base = tile.splat %p : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>, #b>
  %ptrs = tile.addptr %base, %off : tensor<64x64x!tile.ptr<i8>, #b>, tensor<64x64xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<64x64xi32, #b>
  %m = arith.cmpi slt, %off, %ns : tensor<64x64xi32, #b>
  %buf = tile.local_alloc : () -> !tile.memdesc<64x64xi8, #s, mutable>
  tile.async_copy %ptrs, %buf : tensor<64x64x!tile.ptr<i8>, #b>, !tile.memdesc<64x64xi8, #s, mutable>
  tile.async_commit_group
  tile.async_wait {num = 0 : i32}
  %v = tile.local_load %buf : !tile.memdesc<64x64xi8, #s, mutable> -> tensor<64x64xi8, #b>
  %qb = tile.splat %q : !tile.ptr<i8> -> tensor<64x64x!tile.ptr<i8>, #b>
  %qp = tile.addptr %qb, %off : tensor<64x64x!tile.ptr<i8>, #b>, tensor<64x64xi32, #b>
  tile.store %qp, %v : tensor<64x64x!tile.ptr<i8>, #b>
  tile.return
}
// CHECK-LABEL: gpu.func @i8v2
// CHECK-COUNT-16: llvm.load {{.*}} -> vector<2xi8>
// CHECK-NOT: llvm.store
// CHECK-COUNT-16: llvm.store {{.*}} {alignment = 2 : i64} : vector<2xi8>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} : i8, !llvm.ptr<3>
// CHECK: nvvm.cp.async.commit.group
