// tile.warp_specialize and tile.mbarrier_arrive round-trip through the
// custom and the generic syntax; the verifier's errors follow
// (split-input-file).
// RUN: tilec-opt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tilec-opt %s --split-input-file --verify-diagnostics --mlir-print-op-generic | tilec-opt --split-input-file | FileCheck %s

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

// CHECK-LABEL: tile.func @ws(
// CHECK: tile.mbarrier_init %[[EMPTY:.*]] {count = 4 : i32}
// CHECK: tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
// CHECK: tile.mbarrier_wait
// CHECK: tile.mbarrier_arrive %{{.*}}, %{{.*}} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: } producer {
// CHECK: tile.mbarrier_wait
// CHECK: tile.mbarrier_arrive %{{.*}} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: }
tile.func @ws(%p: i1) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %full = tile.local_alloc : () -> !tile.memdesc<1xi64, #flat, mutable>
  %empty = tile.local_alloc : () -> !tile.memdesc<1xi64, #flat, mutable>
  tile.mbarrier_init %full {count = 1 : i32} : !tile.memdesc<1xi64, #flat, mutable>
  tile.mbarrier_init %empty {count = 4 : i32} : !tile.memdesc<1xi64, #flat, mutable>
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
    tile.mbarrier_wait %full, %c0 : !tile.memdesc<1xi64, #flat, mutable>
    tile.mbarrier_arrive %empty, %p : !tile.memdesc<1xi64, #flat, mutable>
  } producer {
    tile.mbarrier_wait %empty, %c0 : !tile.memdesc<1xi64, #flat, mutable>
    tile.mbarrier_arrive %full : !tile.memdesc<1xi64, #flat, mutable>
  }
  tile.return
}

// -----

// Two consumer groups (ping-pong): the second group's region follows
// `groups`.
#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: tile.func @ping_pong(
// CHECK: tile.warp_specialize attributes {consumer_regs = 232 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
// CHECK: tile.mbarrier_arrive %{{.*}}, %{{.*}} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: } producer {
// CHECK: tile.mbarrier_arrive %{{.*}} : !tile.memdesc<1xi64, #{{.*}}, mutable>
// CHECK: } groups {
// CHECK: tile.mbarrier_wait
// CHECK: }
tile.func @ping_pong(%p: i1) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %full = tile.local_alloc : () -> !tile.memdesc<1xi64, #flat, mutable>
  %empty = tile.local_alloc : () -> !tile.memdesc<1xi64, #flat, mutable>
  tile.warp_specialize attributes {consumer_regs = 232 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
    tile.mbarrier_arrive %empty, %p : !tile.memdesc<1xi64, #flat, mutable>
  } producer {
    tile.mbarrier_arrive %full : !tile.memdesc<1xi64, #flat, mutable>
  } groups {
    tile.mbarrier_wait %full, %c0 : !tile.memdesc<1xi64, #flat, mutable>
  }
  tile.return
}

// -----

// Two groups of 4 warps and the producer's 4: 232 registers each for the
// consumers is the most that fits (240 x 256 + 40 x 128 > 65536).
tile.func @ping_pong_registers() attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{expected the partitions' registers to fit 65536 (one CTA per multiprocessor), found 240 x 256 + 40 x 128 = 66560}}
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  } groups {
  }
  tile.return
}

// -----

// Four groups of 8 warps and the producer: 36 warps.
tile.func @ping_pong_warps() attributes {tile.num_warps = 8 : i32} {
  // expected-error @+1 {{expected at most 32 warps with the producer's, found 32 + 4}}
  tile.warp_specialize attributes {consumer_regs = 64 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  } groups {
  }, {
  }, {
  }
  tile.return
}

// -----

tile.func @tensor_in_producer() attributes {tile.num_warps = 4 : i32} {
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
    // expected-error @+1 {{a warp_specialize producer holds scalar code only (one warp runs it), found a tensor}}
    %t = arith.constant dense<0> : tensor<32xi32>
  }
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tile.func @alloc_in_producer() attributes {tile.num_warps = 4 : i32} {
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
    // expected-error @+1 {{is not allowed in a warp_specialize producer}}
    %b = tile.local_alloc : () -> !tile.memdesc<1xi64, #flat, mutable>
  }
  tile.return
}

// -----

tile.func @barrier_in_producer() attributes {tile.num_warps = 4 : i32} {
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
    // expected-error @+1 {{is not allowed in a warp_specialize producer}}
    tile.barrier
  }
  tile.return
}

// -----

tile.func @partial_warpgroup() attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{expected producer_warps = 4 (one warpgroup: setmaxnreg acts on warpgroups, one warp issues the copies), found 1}}
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 1 : i32} {
  } producer {
  }
  tile.return
}

// -----

tile.func @regs() attributes {tile.num_warps = 4 : i32} {
  // expected-error @+1 {{expected consumer_regs to be a multiple of 8 in [24, 256], found 300}}
  tile.warp_specialize attributes {consumer_regs = 300 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  }
  tile.return
}

// -----

tile.func @over_budget() attributes {tile.num_warps = 8 : i32} {
  // expected-error @+1 {{expected the partitions' registers to fit 65536 (one CTA per multiprocessor), found 240 x 256 + 40 x 128 = 66560}}
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  }
  tile.return
}

// -----

tile.func @odd_consumers() attributes {tile.num_warps = 2 : i32} {
  // expected-error @+1 {{expected the kernel's num_warps to be a multiple of 4 (whole consumer warpgroups), found 2}}
  tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  }
  tile.return
}

// -----

tile.func @too_many() attributes {tile.num_warps = 32 : i32} {
  // expected-error @+1 {{expected at most 32 warps with the producer's, found 32 + 4}}
  tile.warp_specialize attributes {consumer_regs = 64 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
  } producer {
  }
  tile.return
}

// -----

tile.func @nested() attributes {tile.num_warps = 4 : i32} {
  %true = arith.constant true
  scf.if %true {
    // expected-error @+1 {{expects parent op 'tile.func'}}
    tile.warp_specialize attributes {consumer_regs = 240 : i32, producer_regs = 40 : i32, producer_warps = 4 : i32} {
    } producer {
    }
  }
  tile.return
}

// -----

#flat = #tile.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tile.func @arrive_two() {
  %b = tile.local_alloc : () -> !tile.memdesc<2xi64, #flat, mutable>
  // expected-error @+1 {{expected one mbarrier}}
  tile.mbarrier_arrive %b : !tile.memdesc<2xi64, #flat, mutable>
  tile.return
}
