// The default budget is the chip's opt-in maximum per CTA (sm_89: 99 KiB).
// RUN: tilec-opt %s --tile-allocate-shared=chip=sm_89 -verify-diagnostics
// RUN: tilec-opt %s --tile-allocate-shared=chip=sm_90a | FileCheck %s
// CHECK: tile.shared = 131072 : i32

#s = #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{kernel 'stages' needs 131072 bytes of shared memory, more than the 101376 bytes sm_89 allows per CTA; use smaller tiles or fewer stages}}
tile.func private @stages(%v: tensor<128x128xf16, #b>, %i: i32) attributes {tile.num_warps = 4 : i32} {
  // expected-note @+1 {{'!tile.memdesc<4x128x128xf16, #tile.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, mutable>': 131072 bytes}}
  %buf = tile.local_alloc : () -> !tile.memdesc<4x128x128xf16, #s, mutable>
  %s0 = tile.memdesc_index %buf[%i] : !tile.memdesc<4x128x128xf16, #s, mutable> -> !tile.memdesc<128x128xf16, #s, mutable>
  tile.local_store %v, %s0 : tensor<128x128xf16, #b>, !tile.memdesc<128x128xf16, #s, mutable>
  tile.return
}
