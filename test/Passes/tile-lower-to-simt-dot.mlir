// tile-lower-to-simt on the tensor-core path, with explicit encodings:
// cp.async copies into swizzled shared memory, ldmatrix (and .trans) into
// mma.sync operand fragments, mma.sync, and conversions done by warp
// shuffles.
// RUN: tilec-opt %s --tile-allocate-shared --tile-insert-barriers --tile-lower-to-simt --split-input-file | FileCheck %s

// A 32x32x32 f16 dot over 2 x 2 warps (16x16 each): two 16-byte cp.async
// per thread (the mask as the source size), one commit group and its wait,
// a barrier before the shared memory is read, per K step one ldmatrix.x4
// of A (rows K-contiguous) and one ldmatrix.x4.trans for B's two n-tiles
// (N contiguous), and 2 x 2 mma.sync m16n8k16.
// CHECK-LABEL: gpu.func @mma(
// CHECK-SAME:      tile.shared = 2048 : i32
// CHECK-COUNT-2:   nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK:           nvvm.cp.async.commit.group
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK:           gpu.barrier
// CHECK:           nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK:           nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK:           nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
// CHECK:           nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
// CHECK-COUNT-4:   nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT:       nvvm.mma.sync
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func @mma(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
  %off = tile.broadcast %e : tensor<1x32xi32, #b> -> tensor<32x32xi32, #b>
  %base = tile.splat %p : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>, #b>
  %ptrs = tile.addptr %base, %off : tensor<32x32x!tile.ptr<f16>, #b>, tensor<32x32xi32, #b>
  %m = arith.constant dense<true> : tensor<32x32xi1, #b>
  %buf = tile.local_alloc : () -> !tile.memdesc<32x32xf16, #s, mutable>
  tile.async_copy %ptrs, %buf, %m : tensor<32x32x!tile.ptr<f16>, #b>, !tile.memdesc<32x32xf16, #s, mutable>
  tile.async_commit_group
  tile.async_wait {num = 0 : i32}
  %x = tile.local_load %buf : !tile.memdesc<32x32xf16, #s, mutable> -> tensor<32x32xf16, #a>
  %y = tile.local_load %buf : !tile.memdesc<32x32xf16, #s, mutable> -> tensor<32x32xf16, #bo>
  %z = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
  %d = tile.dot %x, %y, %z : tensor<32x32xf16, #a>, tensor<32x32xf16, #bo>, tensor<32x32xf32, #mma> -> tensor<32x32xf32, #mma>
  %rm = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #mma}>>
  %em = tile.expand_dims %rm {axis = 0 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #mma}>> -> tensor<1x32xi32, #mma>
  %om = tile.broadcast %em : tensor<1x32xi32, #mma> -> tensor<32x32xi32, #mma>
  %qb = tile.splat %q : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>, #mma>
  %qp = tile.addptr %qb, %om : tensor<32x32x!tile.ptr<f32>, #mma>, tensor<32x32xi32, #mma>
  tile.store %qp, %d : tensor<32x32x!tile.ptr<f32>, #mma>
  tile.return
}

// -----

// A conversion that only permutes lanes within a warp: one shfl.sync.idx
// per register, no shared memory.
// CHECK-LABEL: gpu.func @shuffle(
// CHECK-SAME:      tile.shared = 0 : i32
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.shuffle  idx
// CHECK-NOT:       gpu.barrier
#l1 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#l2 = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
tile.func @shuffle(%p: !tile.ptr<i32>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32, #tile.slice<{dim = 0, parent = #l1}>>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<8xi32, #tile.slice<{dim = 0, parent = #l1}>> -> tensor<1x8xi32, #l1>
  %o = tile.broadcast %e : tensor<1x8xi32, #l1> -> tensor<4x8xi32, #l1>
  %c = tile.convert_layout %o : tensor<4x8xi32, #l1> -> tensor<4x8xi32, #l2>
  %pb = tile.splat %p : !tile.ptr<i32> -> tensor<4x8x!tile.ptr<i32>, #l2>
  %pp = tile.addptr %pb, %c : tensor<4x8x!tile.ptr<i32>, #l2>, tensor<4x8xi32, #l2>
  tile.store %pp, %c : tensor<4x8x!tile.ptr<i32>, #l2>
  tile.return
}

// -----

// A row max of an mma accumulator: its slice holds each of the thread's 2
// rows once (exp2 runs twice, not 8 times); expand_dims picks each result
// register's row by coordinate (4 registers at [32, 1]), the broadcast
// spreads them over the 2 n-tiles.
// CHECK-LABEL: gpu.func @row_max_of_mma(
// CHECK-COUNT-2:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NOT:       llvm.call_intrinsic "llvm.nvvm.ex2.approx
// CHECK:           %[[X:.*]] = llvm.shufflevector %[[E:.*]], %[[E]] [0, 0, 1, 1] : vector<2xf32>
// CHECK:           %[[B:.*]] = llvm.shufflevector %[[X]], %[[X]] [0, 0, 2, 2, 0, 0, 2, 2] : vector<4xf32>
// CHECK:           arith.subf %{{.*}}, %[[B]] : vector<8xf32>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#s0 = #tile.slice<{dim = 0, parent = #mma}>
#s1 = #tile.slice<{dim = 1, parent = #mma}>
tile.func @row_max_of_mma(%q: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.num_warps = 4 : i32} {
  %rm = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s0>
  %em = tile.expand_dims %rm {axis = 0 : i32} : tensor<32xi32, #s0> -> tensor<1x32xi32, #mma>
  %om = tile.broadcast %em : tensor<1x32xi32, #mma> -> tensor<32x32xi32, #mma>
  %v = arith.sitofp %om : tensor<32x32xi32, #mma> to tensor<32x32xf32, #mma>
  %mx = tile.reduce(%v) {axis = 1 : i32} : (tensor<32x32xf32, #mma>) -> tensor<32xf32, #s1> {
  ^bb0(%x: f32, %y: f32):
    %t = arith.maxnumf %x, %y : f32
    tile.reduce.return %t : f32
  }
  %e = math.exp2 %mx : tensor<32xf32, #s1>
  %x1 = tile.expand_dims %e {axis = 1 : i32} : tensor<32xf32, #s1> -> tensor<32x1xf32, #mma>
  %xb = tile.broadcast %x1 : tensor<32x1xf32, #mma> -> tensor<32x32xf32, #mma>
  %d = arith.subf %v, %xb : tensor<32x32xf32, #mma>
  %qb = tile.splat %q : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>, #mma>
  %qp = tile.addptr %qb, %om : tensor<32x32x!tile.ptr<f32>, #mma>, tensor<32x32xi32, #mma>
  tile.store %qp, %d : tensor<32x32x!tile.ptr<f32>, #mma>
  tile.return
}
