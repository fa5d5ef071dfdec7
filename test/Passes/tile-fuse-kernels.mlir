// tile-fuse-kernels: epilogue and prologue fusion of maps into kernels, map
// chains, dead intermediates, and each refusal with its reason (remarks).
// RUN: tilec-opt %s --split-input-file --tile-fuse-kernels | FileCheck %s
// RUN: tilec-opt %s --split-input-file --tile-fuse-kernels=remarks=1 -verify-diagnostics -o /dev/null

// A kernel writing rows [16 * pid, 16 * pid + 16) of an m x 64 f16 matrix,
// masked by row: out = 2 * x.
tile.func @twice(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %out: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                 %m: i32) {
  %pid = tile.program_id 0 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %row0 = arith.muli %pid, %c16 : i32
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rs = tile.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %rs, %r : tensor<16xi32>
  %cols = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c64t = tile.splat %c64 : i32 -> tensor<16x1xi32>
  %ro = arith.muli %r2, %c64t : tensor<16x1xi32>
  %rob = tile.broadcast %ro : tensor<16x1xi32> -> tensor<16x64xi32>
  %c2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tile.broadcast %c2 : tensor<1x64xi32> -> tensor<16x64xi32>
  %offs = arith.addi %rob, %cb : tensor<16x64xi32>
  %ms = tile.splat %m : i32 -> tensor<16x1xi32>
  %mk = arith.cmpi slt, %r2, %ms : tensor<16x1xi32>
  %mask = tile.broadcast %mk : tensor<16x1xi1> -> tensor<16x64xi1>
  %xb = tile.splat %x : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %offs : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  %v = tile.load %xp, %mask : tensor<16x64x!tile.ptr<f16>>
  %y = arith.addf %v, %v : tensor<16x64xf16>
  %ob = tile.splat %out : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %op = tile.addptr %ob, %offs : tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi32>
  tile.store %op, %y, %mask {tile.cache_modifier = ".cs"} : tensor<16x64x!tile.ptr<f16>>
  tile.return
}

// Epilogue: + bias (broadcast over rows), then ReLU and a cast to f32 (a
// chain of two maps), all at the kernel's store.
// CHECK-LABEL: tile.func @twice_fused
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %[[M:.*]]: i32, %[[B:.*]]: !tile.ptr<f16>, %[[Y:.*]]: !tile.ptr<f32>)
// CHECK-SAME: attributes {tile.fused_from = "twice"}
// CHECK: %[[OFFS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<16x64xi32>
// CHECK: %[[V:.*]] = arith.addf
// The bias at column offs % 64, under the store's mask.
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[C64T:.*]] = tile.splat %[[C64]]
// CHECK: %[[COL:.*]] = arith.remui %[[OFFS]], %[[C64T]] : tensor<16x64xi32>
// CHECK: %[[BP:.*]] = tile.splat %[[B]]
// CHECK: %[[BA:.*]] = tile.addptr %[[BP]], %[[COL]]
// CHECK: %[[BV:.*]] = tile.load %[[BA]], %[[MASK:.*]] :
// CHECK: %[[S:.*]] = arith.addf %[[V]], %[[BV]] : tensor<16x64xf16>
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : tensor<16x64xf16>
// CHECK: %[[E:.*]] = arith.extf %[[R]] : tensor<16x64xf16> to tensor<16x64xf32>
// CHECK: %[[YP:.*]] = tile.splat %[[Y]]
// CHECK: %[[YA:.*]] = tile.addptr %[[YP]], %[[OFFS]]
// CHECK: tile.store %[[YA]], %[[E]], %[[MASK]] {tile.cache_modifier = ".cs"} : tensor<16x64x!tile.ptr<f32>>
// CHECK-NOT: tile.store
// CHECK: tile.return
// CHECK-NOT: tile.func
// CHECK-LABEL: tile.graph @epilogue
// CHECK-NOT: tile.alloc
// CHECK-NOT: tile.map
// CHECK: %[[OK:.*]] = arith.cmpi eq
// CHECK: tile.check %[[OK]], "the map at {{.*}}tile-fuse-kernels.mlir:{{[0-9]+}}:3: dimension 0 of the buffer allocated at {{.*}}tile-fuse-kernels.mlir:{{[0-9]+}}:8 differs from dimension 0 of its output, graph argument 2"
// CHECK: tile.launch @twice_fused grid(%{{.*}}) (%arg0, %{{.*}}, %arg1, %arg2) : memref<?x64xf16>, i32, memref<64xf16>, memref<?x64xf32>
// CHECK-NEXT: }
tile.graph @epilogue(%x: memref<?x64xf16> {tile.divisibility = 16 : i32},
                     %bias: memref<64xf16>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x64xf16>
  %t = tile.alloc(%m) : memref<?x64xf16>
  %c16 = arith.constant 16 : index
  %g = arith.ceildivui %m, %c16 : index
  %mi = arith.index_cast %m : index to i32
  tile.launch @twice grid(%g) (%x, %t, %mi) : memref<?x64xf16>, memref<?x64xf16>, i32
  %u = tile.alloc(%m) : memref<?x64xf16>
  // expected-remark @+1 {{fused into the stores of @twice (epilogue) as @twice_fused}}
  tile.map ins(%t, %bias : memref<?x64xf16>, memref<64xf16>) outs(%u : memref<?x64xf16>) {
  ^bb0(%v: f16, %b: f16):
    %s = arith.addf %v, %b : f16
    tile.map.return %s : f16
  }
  // expected-remark @+1 {{fused into the stores of @twice_fused (epilogue) as @twice_fused}}
  tile.map ins(%u : memref<?x64xf16>) outs(%y : memref<?x64xf32>) {
  ^bb0(%v: f16):
    %z = arith.constant 0.0 : f16
    %r = arith.maximumf %v, %z : f16
    %e = arith.extf %r : f16 to f32
    tile.map.return %e : f32
  }
}

// -----

// Prologue: the map scales what a kernel then loads in a loop (masked,
// with `other`); the map's scalar input becomes a kernel argument.
tile.func @rowsum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %row = arith.muli %pid, %n : i32
  %xr = tile.addptr %x, %row : !tile.ptr<f32>, i32
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %acc = scf.for %k = %c0 to %n step %c128 iter_args(%a = %zero) -> (tensor<128xf32>) : i32 {
    %ks = tile.splat %k : i32 -> tensor<128xi32>
    %cols = arith.addi %ks, %r : tensor<128xi32>
    %ns = tile.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %cols, %ns : tensor<128xi32>
    %p = tile.splat %xr : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %p, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %v = tile.load %pp, %mask, %one {tile.eviction_policy = "evict_first"} : tensor<128x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %sum = "tile.reduce"(%acc) ({
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    tile.reduce.return %q : f32
  }) {axis = 0 : i32} : (tensor<128xf32>) -> f32
  %o = tile.addptr %out, %pid : !tile.ptr<f32>, i32
  tile.store %o, %sum : !tile.ptr<f32>
  tile.return
}

// CHECK-LABEL: tile.func @rowsum_fused
// CHECK-SAME: (%[[OUT:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[X:.*]]: !tile.ptr<f32>, %[[A:.*]]: f32)
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[N]] : i32
// CHECK: scf.for
// CHECK: %[[COLS:.*]] = arith.addi
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[COLS]]
// The offset of each element: the row's offset plus the column, in i64.
// CHECK: %[[ROWT:.*]] = tile.splat %[[ROW]] : i32 -> tensor<128xi32>
// CHECK: %[[COLS64:.*]] = arith.extsi %[[COLS]] : tensor<128xi32> to tensor<128xi64>
// CHECK: %[[ROW64:.*]] = arith.extsi %[[ROWT]] : tensor<128xi32> to tensor<128xi64>
// CHECK: %[[OFF:.*]] = arith.addi %[[ROW64]], %[[COLS64]] : tensor<128xi64>
// CHECK: %[[XP:.*]] = tile.splat %[[X]]
// CHECK: %[[XA:.*]] = tile.addptr %[[XP]], %[[OFF]] : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
// CHECK: %[[XV:.*]] = tile.load %[[XA]], %[[MASK]] {tile.eviction_policy = "evict_first"}
// CHECK: %[[AS:.*]] = tile.splat %[[A]] : f32 -> tensor<128xf32>
// CHECK: %[[SC:.*]] = arith.mulf %[[XV]], %[[AS]] : tensor<128xf32>
// CHECK: %[[V:.*]] = arith.select %[[MASK]], %[[SC]], %{{.*}} : tensor<128xi1>, tensor<128xf32>
// CHECK: arith.addf %{{.*}}, %[[V]]
// CHECK-LABEL: tile.graph @prologue
// CHECK-NOT: tile.alloc
// CHECK-NOT: tile.map
// CHECK: tile.launch @rowsum_fused grid(%{{.*}}) (%arg1, %{{.*}}, %arg0, %arg2) : memref<?xf32>, i32, memref<?x?xf32>, f32
tile.graph @prologue(%x: memref<?x?xf32>, %sums: memref<?xf32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %t = tile.alloc(%m, %n) : memref<?x?xf32>
  tile.map ins(%x, %alpha : memref<?x?xf32>, f32) outs(%t : memref<?x?xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.mulf %v, %a : f32
    tile.map.return %s : f32
  }
  %ni = arith.index_cast %n : index to i32
  // expected-remark @+1 {{fused the map at}}
  tile.launch @rowsum grid(%m) (%t, %sums, %ni) : memref<?x?xf32>, memref<?xf32>, i32
}

// -----

// Two maps become one; a map whose output nothing reads disappears.
// CHECK-LABEL: tile.graph @chain
// CHECK-NOT: tile.alloc
// CHECK: tile.map ins(%arg1, %arg0 : memref<8x32xf32>, memref<8x32xf32>) outs(%arg2 : memref<8x32xf32>) {
// CHECK-NEXT: ^bb0(%[[B:.*]]: f32, %[[A:.*]]: f32):
// CHECK-NEXT: %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[E]], %[[B]] : f32
// CHECK-NEXT: tile.map.return %[[S]] : f32
// CHECK-NOT: tile.map
tile.graph @chain(%a: memref<8x32xf32>, %b: memref<8x32xf32>, %y: memref<8x32xf32>) {
  %t = tile.alloc() : memref<8x32xf32>
  tile.map ins(%a : memref<8x32xf32>) outs(%t : memref<8x32xf32>) {
  ^bb0(%v: f32):
    %e = math.exp %v : f32
    tile.map.return %e : f32
  }
  // expected-remark @+1 {{merged with the map at}}
  tile.map ins(%t, %b : memref<8x32xf32>, memref<8x32xf32>) outs(%y : memref<8x32xf32>) {
  ^bb0(%v: f32, %w: f32):
    %s = arith.addf %v, %w : f32
    tile.map.return %s : f32
  }
  %dead = tile.alloc() : memref<8x32xf32>
  // expected-remark @+1 {{removed: nothing reads the buffer it writes}}
  tile.map ins(%a : memref<8x32xf32>) outs(%dead : memref<8x32xf32>) {
  ^bb0(%v: f32):
    tile.map.return %v : f32
  }
}

// -----

// Refusals. The kernel reads what it writes (an accumulation).
tile.func @accumulate(%x: !tile.ptr<f32>, %acc: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %ab = tile.splat %acc : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %ap = tile.addptr %ab, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  %a = tile.load %ap : tensor<64x!tile.ptr<f32>>
  %s = arith.addf %v, %a : tensor<64xf32>
  tile.store %ap, %s : tensor<64x!tile.ptr<f32>>
  tile.return
}

// CHECK-LABEL: tile.graph @reads_what_it_writes
// CHECK: tile.launch @accumulate
// CHECK: tile.map
tile.graph @reads_what_it_writes(%x: memref<64xf32>, %y: memref<64xf32>) {
  %t = tile.alloc() : memref<64xf32>
  %c1 = arith.constant 1 : index
  tile.launch @accumulate grid(%c1) (%x, %t) : memref<64xf32>, memref<64xf32>
  // expected-remark @+1 {{not fused into the stores of the launch (epilogue): kernel @accumulate does more than store through argument 1: it loads through it}}
  tile.map ins(%t : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%v: f32):
    %n = arith.negf %v : f32
    tile.map.return %n : f32
  }
}

// -----

tile.func @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  tile.store %yp, %v : tensor<64x!tile.ptr<f32>>
  tile.return
}

// The map reads a buffer that a launch between the pair writes.
// CHECK-LABEL: tile.graph @written_between
// CHECK: tile.launch @copy
// CHECK: tile.launch @copy
// CHECK: tile.map
tile.graph @written_between(%x: memref<64xf32>, %b: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = tile.alloc() : memref<64xf32>
  tile.launch @copy grid(%c1) (%x, %t) : memref<64xf32>, memref<64xf32>
  tile.launch @copy grid(%c1) (%x, %b) : memref<64xf32>, memref<64xf32>
  // expected-remark @+1 {{not fused into the stores of the launch (epilogue): 'tile.launch' at}}
  tile.map ins(%t, %b : memref<64xf32>, memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%v: f32, %w: f32):
    %s = arith.addf %v, %w : f32
    tile.map.return %s : f32
  }
}

// -----

tile.func @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  tile.store %yp, %v : tensor<64x!tile.ptr<f32>>
  tile.return
}

// The map broadcasts the kernel's result; an intermediate read twice is
// no candidate.
// CHECK-LABEL: tile.graph @broadcast_and_two_readers
// CHECK-COUNT-2: tile.launch @copy
// CHECK-COUNT-3: tile.map
tile.graph @broadcast_and_two_readers(%x: memref<64xf32>, %y: memref<4x64xf32>, %z: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = tile.alloc() : memref<64xf32>
  tile.launch @copy grid(%c1) (%x, %t) : memref<64xf32>, memref<64xf32>
  // expected-remark @+1 {{not fused into the stores of the launch (epilogue): the map broadcasts the kernel's result}}
  tile.map ins(%t : memref<64xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%v: f32):
    tile.map.return %v : f32
  }
  %u = tile.alloc() : memref<64xf32>
  // expected-remark @+1 {{not fused: the buffer it writes has 2 other users}}
  tile.launch @copy grid(%c1) (%x, %u) : memref<64xf32>, memref<64xf32>
  tile.map ins(%u : memref<64xf32>) outs(%z : memref<64xf32>) {
  ^bb0(%v: f32):
    tile.map.return %v : f32
  }
  tile.map ins(%u : memref<64xf32>) outs(%x : memref<64xf32>) {
  ^bb0(%v: f32):
    tile.map.return %v : f32
  }
}

// -----

// A store whose pointers a loop carries: the offset is carried beside
// them (an i64 iteration argument), the old address chain dropped.
tile.func @carried(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %step = arith.constant dense<64> : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %end:2 = scf.for %i = %c0 to %n step %c64 iter_args(%xi = %xp, %yi = %yp) -> (tensor<64x!tile.ptr<f32>>, tensor<64x!tile.ptr<f32>>) : i32 {
    %v = tile.load %xi : tensor<64x!tile.ptr<f32>>
    tile.store %yi, %v : tensor<64x!tile.ptr<f32>>
    %xn = tile.addptr %xi, %step : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %yn = tile.addptr %yi, %step : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    scf.yield %xn, %yn : tensor<64x!tile.ptr<f32>>, tensor<64x!tile.ptr<f32>>
  }
  tile.return
}

// CHECK-LABEL: tile.func @carried_fused
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[Y:.*]]: !tile.ptr<f32>)
// CHECK: %[[STEP:.*]] = arith.constant dense<64> : tensor<64xi64>
// CHECK: %[[R:.*]] = tile.make_range
// CHECK: %[[R64:.*]] = arith.extsi %[[R]] : tensor<64xi32> to tensor<64xi64>
// CHECK: scf.for {{.*}} iter_args(%[[XI:.*]] = %{{.*}}, %[[OFF:.*]] = %[[R64]]) -> (tensor<64x!tile.ptr<f32>>, tensor<64xi64>)
// CHECK: %[[V:.*]] = tile.load %[[XI]]
// CHECK: %[[NEG:.*]] = arith.negf %[[V]]
// CHECK: %[[YB:.*]] = tile.splat %[[Y]]
// CHECK: %[[YP:.*]] = tile.addptr %[[YB]], %[[OFF]]
// CHECK: tile.store %[[YP]], %[[NEG]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[STEP]] : tensor<64xi64>
// CHECK: scf.yield %{{.*}}, %[[NEXT]]
// CHECK-LABEL: tile.graph @loop_carried
// CHECK: tile.launch @carried_fused
// CHECK-NOT: tile.map
tile.graph @loop_carried(%x: memref<256xf32>, %y: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : i32
  %t = tile.alloc() : memref<256xf32>
  tile.launch @carried grid(%c1) (%x, %t, %c256) : memref<256xf32>, memref<256xf32>, i32
  // expected-remark @+1 {{fused into the stores of @carried (epilogue) as @carried_fused}}
  tile.map ins(%t : memref<256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%v: f32):
    %n = arith.negf %v : f32
    tile.map.return %n : f32
  }
}

// -----

// A graph without maps is left alone.
tile.func @k(%x: !tile.ptr<f32>) {
  tile.return
}
// CHECK-LABEL: tile.graph @no_maps
// CHECK-NEXT: %[[C:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[T:.*]] = tile.alloc() : memref<4xf32>
// CHECK-NEXT: tile.launch @k grid(%[[C]]) (%[[T]])
// CHECK-NEXT: }
tile.graph @no_maps() {
  %c1 = arith.constant 1 : index
  %t = tile.alloc() : memref<4xf32>
  tile.launch @k grid(%c1) (%t) : memref<4xf32>
}

// -----

// Review findings (each once wrong code, a crash or a silent refusal).
// An in-place map applied at each of two stores of the same element would
// add twice: refused.
// CHECK-LABEL: tile.graph @in_place
// CHECK: tile.launch @init_then_copy
// CHECK: tile.map
tile.func @init_then_copy(%x: !tile.ptr<f32>, %t: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %tb = tile.splat %t : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %tp = tile.addptr %tb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %z = arith.constant dense<1.0> : tensor<64xf32>
  tile.store %tp, %z : tensor<64x!tile.ptr<f32>>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  tile.store %tp, %v : tensor<64x!tile.ptr<f32>>
  tile.return
}
tile.graph @in_place(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = tile.alloc() : memref<64xf32>
  tile.launch @init_then_copy grid(%c1) (%x, %t) : memref<64xf32>, memref<64xf32>
  // expected-remark @+1 {{not fused into the stores of the launch (epilogue): the map writes one of its inputs (in place)}}
  tile.map ins(%t, %y : memref<64xf32>, memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.map.return %s : f32
  }
}

// -----

// A pointer a while loop's body yields back to its condition region.
// CHECK-LABEL: tile.graph @while_yield
// CHECK: tile.launch @whilek
tile.func @whilek(%x: !tile.ptr<f32>, %t: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0, %p = %t) : (i32, !tile.ptr<f32>) -> i32 {
    %v = tile.load %x : !tile.ptr<f32>
    tile.store %p, %v : !tile.ptr<f32>
    %c = arith.cmpi slt, %i, %n : i32
    scf.condition(%c) %i : i32
  } do {
  ^bb0(%i2: i32):
    %j = arith.addi %i2, %c1 : i32
    %q = tile.addptr %t, %j : !tile.ptr<f32>, i32
    scf.yield %j, %q : i32, !tile.ptr<f32>
  }
  tile.return
}
tile.graph @while_yield(%x: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %n = arith.constant 64 : i32
  %t = tile.alloc() : memref<64xf32>
  tile.launch @whilek grid(%c1) (%x, %t, %n) : memref<64xf32>, memref<64xf32>, i32
}

// -----

// A map reading the intermediate twice still fuses: both reads are the
// stored tile.
// CHECK-LABEL: tile.func @copy_fused
// CHECK: %[[V:.*]] = tile.load
// CHECK: %[[P:.*]] = arith.mulf %[[V]], %[[V]] : tensor<64xf32>
// CHECK: tile.store %{{.*}}, %[[P]]
// CHECK-LABEL: tile.graph @reads_twice
// CHECK-NOT: tile.map
tile.func @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  tile.store %yp, %v : tensor<64x!tile.ptr<f32>>
  tile.return
}
tile.graph @reads_twice(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %t = tile.alloc() : memref<64xf32>
  tile.launch @copy grid(%c1) (%x, %t) : memref<64xf32>, memref<64xf32>
  // expected-remark @+1 {{fused into the stores of @copy (epilogue) as @copy_fused}}
  tile.map ins(%t, %t : memref<64xf32>, memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    tile.map.return %s : f32
  }
}
