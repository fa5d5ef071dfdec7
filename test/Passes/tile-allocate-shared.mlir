// tile-allocate-shared: liveness-based offsets for local_alloc buffers and
// the scratch of ops that exchange data through shared memory.
// RUN: tilec-opt %s --tile-allocate-shared --split-input-file | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// Two buffers alive at once get disjoint bytes; a third, allocated after
// the first one's last use, reuses its bytes.
// CHECK-LABEL: tile.func private @reuse(
// CHECK-SAME:    tile.shared = 32768 : i32
// CHECK:         tile.local_alloc %{{.*}} {tile.shared_offset = 0 : i32}
// CHECK:         tile.local_alloc %{{.*}} {tile.shared_offset = 16384 : i32}
// CHECK:         tile.local_alloc %{{.*}} {tile.shared_offset = 0 : i32}
tile.func private @reuse(%v: tensor<128x64xf16, #b>) attributes {tile.num_warps = 4 : i32} {
  %a = tile.local_alloc %v : (tensor<128x64xf16, #b>) -> !tile.memdesc<128x64xf16, #s>
  %b = tile.local_alloc %v : (tensor<128x64xf16, #b>) -> !tile.memdesc<128x64xf16, #s>
  %x = tile.local_load %a : !tile.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #b>
  %y = tile.local_load %b : !tile.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #b>
  %c = tile.local_alloc %x : (tensor<128x64xf16, #b>) -> !tile.memdesc<128x64xf16, #s>
  %z = tile.local_load %c : !tile.memdesc<128x64xf16, #s> -> tensor<128x64xf16, #b>
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// A multi-buffered allocation used inside a loop stays live to the loop's
// end, so a conversion's scratch inside the loop gets other bytes.
// CHECK-LABEL: tile.func private @loop(
// CHECK-SAME:    tile.shared = 53248 : i32
// CHECK:         tile.local_alloc {tile.shared_offset = 0 : i32}
// CHECK:         scf.for
// CHECK:           tile.convert_layout %{{.*}} {tile.shared_offset = 49152 : i32}
#b2 = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b3 = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @loop(%v: tensor<128x64xf16, #b>, %r: tensor<1024xf32, #b2>, %n: index) attributes {tile.num_warps = 4 : i32} {
  %buf = tile.local_alloc : () -> !tile.memdesc<3x128x64xf16, #s, mutable>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %c1 {
    %s = tile.memdesc_index %buf[%i0] : !tile.memdesc<3x128x64xf16, #s, mutable> -> !tile.memdesc<128x64xf16, #s, mutable>
    tile.local_store %v, %s : tensor<128x64xf16, #b>, !tile.memdesc<128x64xf16, #s, mutable>
    %c = tile.convert_layout %r : tensor<1024xf32, #b2> -> tensor<1024xf32, #b3>
  }
  tile.return
}

// -----

// An NVMMA-swizzled buffer is 1024-byte aligned (its swizzle is on address
// bits 7..9): after 8704 bytes it starts at 9216.
// CHECK-LABEL: tile.func private @nvmma_align(
// CHECK-SAME:    tile.shared = 17408 : i32
// CHECK:         tile.local_alloc {tile.shared_offset = 0 : i32} : () -> !tile.memdesc<17x512xi8
// CHECK:         tile.local_alloc {tile.shared_offset = 9216 : i32} : () -> !tile.memdesc<64x64xf16
#s1 = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#n = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func private @nvmma_align(%v: tensor<64x64xf16, #b>, %i: i32) attributes {tile.num_warps = 4 : i32} {
  %a = tile.local_alloc : () -> !tile.memdesc<17x512xi8, #s1, mutable>
  %b = tile.local_alloc : () -> !tile.memdesc<64x64xf16, #n, mutable>
  tile.local_store %v, %b : tensor<64x64xf16, #b>, !tile.memdesc<64x64xf16, #n, mutable>
  %a0 = tile.memdesc_index %a[%i] : !tile.memdesc<17x512xi8, #s1, mutable> -> !tile.memdesc<512xi8, #s1, mutable>
  %x = tile.local_load %a0 : !tile.memdesc<512xi8, #s1, mutable> -> tensor<512xi8, #b1>
  tile.return
}
