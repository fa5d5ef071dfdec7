// tile-pipeline: the loads of dot operands in a loop become cp.async copies
// into S buffers issued S - 1 iterations ahead (S = num_stages), with a
// prologue, waits, masked-off copies past the end, on scf::pipelineForLoop.
// RUN: tilec-opt %s --tile-pipeline --canonicalize --cse --split-input-file | FileCheck %s

// S = 3: a 3-buffer allocation, a prologue starting iterations 0 and 1 (each
// predicated on the trip count through the copy's mask), and a loop that
// waits for its own group (one newer may be pending), starts iteration
// i + 2 into buffer (i + 2) % 3 -- masked off in the last two iterations --
// and reads buffer i % 3. All groups drained after the loop.
// CHECK-LABEL: tile.func @k(
// CHECK:         %[[BUF:.*]] = tile.local_alloc : () -> !tile.memdesc<3x64x32xf16, #shared, mutable>
// CHECK:         %[[HAS0:.*]] = arith.cmpi sgt, %arg1, %c0_i32
// CHECK:         %[[S0:.*]] = tile.memdesc_index %[[BUF]][%c0_i32]
// CHECK:         %[[P0:.*]] = tile.splat %[[HAS0]] : i1 -> tensor<64x32xi1, #blocked>
// CHECK:         %[[M0:.*]] = arith.andi %{{.*}}, %[[P0]]
// CHECK:         tile.async_copy %{{.*}}, %[[S0]], %[[M0]]
// CHECK-NEXT:    tile.async_commit_group
// CHECK:         %[[HAS1:.*]] = arith.cmpi sgt, %arg1, %c1_i32
// CHECK:         tile.memdesc_index %[[BUF]][%c1_i32]
// CHECK:         tile.async_copy
// CHECK-NEXT:    tile.async_commit_group
// The slots are i32 counters: the loop carries the slot iteration i + 1
// filled (1 after the prologue) and the slot iteration i reads (0).
// CHECK:         scf.for %[[I:.*]] = %c0_i32 to %arg1 step %c1_i32 iter_args(%[[P:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[PREV:.*]] = %c1_i32, %[[R:.*]] = %c0_i32)
// CHECK:           %[[LAST:.*]] = arith.subi %arg1, %c2_i32
// CHECK:           %[[LIVE:.*]] = arith.cmpi slt, %[[I]], %[[LAST]]
// CHECK:           tile.async_wait {num = 1 : i32}
// CHECK:           %[[NEXT:.*]] = arith.addi %[[PREV]], %c1_i32
// CHECK:           %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %c3_i32
// CHECK:           %[[W:.*]] = arith.select %[[WRAP]], %c0_i32, %[[NEXT]]
// CHECK:           %[[DST:.*]] = tile.memdesc_index %[[BUF]][%[[W]]]
// CHECK:           tile.async_copy %[[P]], %[[DST]], %{{.*}}
// CHECK-NEXT:      tile.async_commit_group
// CHECK:           %[[SRC:.*]] = tile.memdesc_index %[[BUF]][%[[R]]]
// CHECK:           tile.local_load %[[SRC]]
// CHECK:           tile.dot
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %[[W]], %[[PREV]]
// CHECK:         }
// CHECK-NEXT:    tile.async_wait {num = 0 : i32}
#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
tile.func @k(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant dense<32> : tensor<64x32xi32, #b>
  %zero = arith.constant dense<0.0> : tensor<64x32xf16, #b>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
  %off = tile.broadcast %e : tensor<1x32xi32, #b> -> tensor<64x32xi32, #b>
  %base = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  %p0 = tile.addptr %base, %off : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %acc0) -> (tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x64xf32, #mma>) : i32 {
    %kk = tile.splat %k : i32 -> tensor<64x32xi32, #b>
    %m = arith.cmpi slt, %off, %kk : tensor<64x32xi32, #b>
    %v = tile.load %p, %m, %zero : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
    %x = tile.local_load %buf : !tile.memdesc<64x32xf16, #s, mutable> -> tensor<64x32xf16, #a>
    %bt = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #a> -> tensor<32x64xf16, #bo>
    %d = tile.dot %x, %bt, %acc : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pn = tile.addptr %p, %c32 : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
    scf.yield %pn, %d : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x64xf32, #mma>
  }
  tile.return
}


// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// Left alone: a load whose `other` is not +0 (cp.async writes zeros), and a
// loop with num_stages = 1.
// CHECK-LABEL: tile.func @not_pipelined(
// CHECK-NOT:     tile.async_copy
// CHECK:         tile.load
// CHECK:         tile.load
// CHECK-NOT:     tile.async_copy
tile.func @not_pipelined(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant dense<1.0> : tensor<64x32xf16, #b>
  %m = arith.constant dense<true> : tensor<64x32xi1, #b>
  %p = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  scf.for %k = %c0 to %n step %c1 : i32 {
    %v = tile.load %p, %m, %one : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
  } {tile.num_stages = 3 : i32}
  scf.for %k = %c0 to %n step %c1 : i32 {
    %v = tile.load %p : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
  } {tile.num_stages = 1 : i32}
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// A loop that also stores: a load from the stored-to argument keeps its
// place (the store of iteration i may feed the load of iteration i + 1);
// one from another argument is pipelined, and the store stays in the last
// stage, after this iteration's loads, in program order.
// CHECK-LABEL: tile.func @stores(
// CHECK:         tile.async_copy %{{.*}} : tensor<64x32x!tile.ptr<f16>, #blocked>
// CHECK:         scf.for
// CHECK:           tile.async_wait {num = 1 : i32}
// CHECK:           tile.async_copy
// CHECK:           tile.load %{{.*}} : tensor<64x32x!tile.ptr<f16>, #blocked>
// CHECK:           tile.store
tile.func @stores(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  %c = tile.splat %pc : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  scf.for %k = %c0 to %n step %c1 : i32 {
    %v = tile.load %a : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
    %w = tile.load %c : tensor<64x32x!tile.ptr<f16>, #b>
    %buf2 = tile.local_alloc %w : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
    %x = tile.local_load %buf : !tile.memdesc<64x32xf16, #s, mutable> -> tensor<64x32xf16, #b>
    tile.store %c, %x : tensor<64x32x!tile.ptr<f16>, #b>
  } {tile.num_stages = 3 : i32}
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// An i64 induction variable (an i64 K bound): the slot counters are still
// i32, and nothing 64-bit computes them.
// CHECK-LABEL: tile.func @i64_loop(
// CHECK:         scf.for %[[I:.*]] = %c0_i64 to %arg1 step %c16_i64 iter_args({{.*}}) -> ({{.*}}, i32, i32) : i64
// CHECK-NOT:       arith.remsi
// CHECK:           %[[NEXT:.*]] = arith.addi %{{.*}}, %c1_i32 : i32
// CHECK:           arith.cmpi eq, %[[NEXT]], %c3_i32 : i32
// CHECK-NOT:       arith.remsi
// CHECK:           tile.memdesc_index
tile.func @i64_loop(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i64) attributes {tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %c32 = arith.constant dense<32> : tensor<64x32xi32, #b>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
  %off = tile.broadcast %e : tensor<1x32xi32, #b> -> tensor<64x32xi32, #b>
  %base = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  %p0 = tile.addptr %base, %off : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
  %res:2 = scf.for %k = %c0 to %n step %c16 iter_args(%p = %p0, %acc = %acc0) -> (tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x64xf32, #mma>) : i64 {
    %v = tile.load %p : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
    %x = tile.local_load %buf : !tile.memdesc<64x32xf16, #s, mutable> -> tensor<64x32xf16, #a>
    %bt = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #a> -> tensor<32x64xf16, #bo>
    %d = tile.dot %x, %bt, %acc : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %pn = tile.addptr %p, %c32 : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
    scf.yield %pn, %d : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x64xf32, #mma>
  }
  tile.return
}

// -----

#b = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tile.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#mma = #tile.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tile.dot_operand<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tile.dot_operand<{opIdx = 1, parent = #mma, kWidth = 2}>
// A per-row statistic loaded every iteration of a pipelined loop (the
// attention backward's M) is copied with the dot operand: its own 3-slot
// buffer, filled in the prologue and two iterations ahead, read back into
// its layout by the iteration that uses it. An f16 vector (2-byte elements:
// below cp.async's 4) stays a load.
// CHECK-LABEL: tile.func @row_statistic(
// CHECK-DAG:     %[[BUF:.*]] = tile.local_alloc : () -> !tile.memdesc<3x64x32xf16, #shared, mutable>
// CHECK-DAG:     %[[MBUF:.*]] = tile.local_alloc : () -> !tile.memdesc<3x64xf32, #shared1, mutable>
// CHECK:         tile.async_copy %{{.*}} : tensor<64x!tile.ptr<f32>, #blocked>, !tile.memdesc<64xf32, #shared1, mutable>
// CHECK:         scf.for
// CHECK:           tile.async_wait {num = 1 : i32}
// CHECK:           tile.async_copy %{{.*}} : tensor<64x!tile.ptr<f32>, #blocked>, !tile.memdesc<64xf32, #shared1, mutable>
// CHECK:           %[[MV:.*]] = tile.memdesc_index %[[MBUF]]
// CHECK:           tile.local_load %[[MV]] : !tile.memdesc<64xf32, #shared1, mutable> -> tensor<64xf32, #blocked>
// CHECK:           tile.load %{{.*}} : tensor<64x!tile.ptr<f16>, #blocked>
// CHECK-NOT:       tile.load %{{.*}} : tensor<64x!tile.ptr<f32>
// CHECK:           scf.yield
tile.func @row_statistic(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pm: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                         %ph: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16, #b>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tile.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
  %off = tile.broadcast %e : tensor<1x32xi32, #b> -> tensor<64x32xi32, #b>
  %base = tile.splat %pa : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #b>
  %p0 = tile.addptr %base, %off : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
  %rows = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #l>
  %mbase = tile.splat %pm : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #l>
  %hbase = tile.splat %ph : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>, #l>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %kk = arith.muli %k, %c64 : i32
    %ks = tile.splat %kk : i32 -> tensor<64x32xi32, #b>
    %po = arith.addi %off, %ks : tensor<64x32xi32, #b>
    %p = tile.addptr %base, %po : tensor<64x32x!tile.ptr<f16>, #b>, tensor<64x32xi32, #b>
    %v = tile.load %p : tensor<64x32x!tile.ptr<f16>, #b>
    %buf = tile.local_alloc %v : (tensor<64x32xf16, #b>) -> !tile.memdesc<64x32xf16, #s, mutable>
    %x = tile.local_load %buf : !tile.memdesc<64x32xf16, #s, mutable> -> tensor<64x32xf16, #a>
    %bt = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16, #a> -> tensor<32x64xf16, #bo>
    %d = tile.dot %x, %bt, %acc : tensor<64x32xf16, #a>, tensor<32x64xf16, #bo>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %kr = tile.splat %kk : i32 -> tensor<64xi32, #l>
    %ro = arith.addi %rows, %kr : tensor<64xi32, #l>
    %mp = tile.addptr %mbase, %ro : tensor<64x!tile.ptr<f32>, #l>, tensor<64xi32, #l>
    %m = tile.load %mp : tensor<64x!tile.ptr<f32>, #l>
    %hp = tile.addptr %hbase, %ro : tensor<64x!tile.ptr<f16>, #l>, tensor<64xi32, #l>
    %h = tile.load %hp : tensor<64x!tile.ptr<f16>, #l>
    %hf = arith.extf %h : tensor<64xf16, #l> to tensor<64xf32, #l>
    %mh = arith.addf %m, %hf : tensor<64xf32, #l>
    %mc = tile.convert_layout %mh : tensor<64xf32, #l> -> tensor<64xf32, #tile.slice<{dim = 0, parent = #mma}>>
    %m1 = tile.expand_dims %mc {axis = 0 : i32} : tensor<64xf32, #tile.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xf32, #mma>
    %mb = tile.broadcast %m1 : tensor<1x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %dn = arith.subf %d, %mb : tensor<64x64xf32, #mma>
    scf.yield %dn : tensor<64x64xf32, #mma>
  }
  tile.return
}
