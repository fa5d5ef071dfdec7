// tile-insert-barriers: a CTA barrier before each shared-memory access
// that conflicts with one made since the last barrier.
// RUN: tilec-opt %s --tile-allocate-shared --tile-insert-barriers --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// Store then load of one buffer: read after write. Two loads: none.
// Store after the loads: write after read.
// CHECK-LABEL: tile.func private @raw_war(
// CHECK:         tile.local_store
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    tile.local_load
// CHECK-NEXT:    tile.local_load
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    tile.local_store
tile.func private @raw_war(%v: tensor<128x64xf16, #b>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.local_alloc : () -> !tile.memdesc<128x64xf16, #s, mutable>
  tile.local_store %v, %a : tensor<128x64xf16, #b>, !tile.memdesc<128x64xf16, #s, mutable>
  %x = tile.local_load %a : !tile.memdesc<128x64xf16, #s, mutable> -> tensor<128x64xf16, #b>
  %y = tile.local_load %a : !tile.memdesc<128x64xf16, #s, mutable> -> tensor<128x64xf16, #b>
  tile.local_store %y, %a : tensor<128x64xf16, #b>, !tile.memdesc<128x64xf16, #s, mutable>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// Disjoint buffers need no barrier.
// CHECK-LABEL: tile.func private @disjoint(
// CHECK-NOT:     tile.barrier
// CHECK:         tile.return
tile.func private @disjoint(%v: tensor<128x64xf16, #b>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.local_alloc : () -> !tile.memdesc<128x64xf16, #s, mutable>
  %c = tile.local_alloc : () -> !tile.memdesc<128x64xf16, #s, mutable>
  tile.local_store %v, %a : tensor<128x64xf16, #b>, !tile.memdesc<128x64xf16, #s, mutable>
  tile.local_store %v, %c : tensor<128x64xf16, #b>, !tile.memdesc<128x64xf16, #s, mutable>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// The software pipeline's loop: the copies land at the wait, so the first
// access after it gets the one barrier of the iteration; the copy into the
// buffer the previous iteration read is then safe too.
// CHECK-LABEL: tile.func private @pipelined(
// CHECK:         tile.async_copy
// CHECK-NEXT:    tile.async_commit_group
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      tile.async_wait {num = 1 : i32}
// CHECK-NEXT:      tile.memdesc_index
// CHECK-NEXT:      tile.barrier
// CHECK-NEXT:      tile.async_copy
// CHECK-NEXT:      tile.async_commit_group
// CHECK-NEXT:      tile.memdesc_index
// CHECK-NEXT:      tile.local_load
// CHECK-NOT:       tile.barrier
// CHECK:         tile.async_wait {num = 0 : i32}
tile.func private @pipelined(%p: tensor<128x64x!tile.ptr<f16>, #b>, %n: index, %i: i32, %j: i32) attributes {tile.num_warps = 4 : i32} {
  %buf = tile.local_alloc : () -> !tile.memdesc<2x128x64xf16, #s, mutable>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = tile.memdesc_index %buf[%i] : !tile.memdesc<2x128x64xf16, #s, mutable> -> !tile.memdesc<128x64xf16, #s, mutable>
  tile.async_copy %p, %s0 : tensor<128x64x!tile.ptr<f16>, #b>, !tile.memdesc<128x64xf16, #s, mutable>
  tile.async_commit_group
  scf.for %k = %c0 to %n step %c1 {
    tile.async_wait {num = 1 : i32}
    %w = tile.memdesc_index %buf[%j] : !tile.memdesc<2x128x64xf16, #s, mutable> -> !tile.memdesc<128x64xf16, #s, mutable>
    tile.async_copy %p, %w : tensor<128x64x!tile.ptr<f16>, #b>, !tile.memdesc<128x64xf16, #s, mutable>
    tile.async_commit_group
    %r = tile.memdesc_index %buf[%i] : !tile.memdesc<2x128x64xf16, #s, mutable> -> !tile.memdesc<128x64xf16, #s, mutable>
    %x = tile.local_load %r : !tile.memdesc<128x64xf16, #s, mutable> -> tensor<128x64xf16, #b>
  }
  tile.async_wait {num = 0 : i32}
  tile.return
}

// -----

// Two reductions across warps share scratch bytes: the second waits for
// the first one's readers; in a loop, the first waits for the second's.
// CHECK-LABEL: tile.func private @scratch_reuse(
// CHECK:         scf.for
// CHECK-NEXT:      tile.barrier
// CHECK-NEXT:      tile.reduce
// CHECK:           tile.barrier
// CHECK-NEXT:      tile.reduce
#b1 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @scratch_reuse(%v: tensor<512xf32, #b1>, %n: index) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %m = tile.reduce(%v) {axis = 0 : i32} : (tensor<512xf32, #b1>) -> f32 {
    ^bb0(%x: f32, %y: f32):
      %r = arith.maxnumf %x, %y : f32
      tile.reduce.return %r : f32
    }
    %s = tile.reduce(%v) {axis = 0 : i32} : (tensor<512xf32, #b1>) -> f32 {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tile.reduce.return %r : f32
    }
  }
  tile.return
}
