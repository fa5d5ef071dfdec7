// tile-fuse-kernels: row groups -- row reductions and the maps around them
// on the same rows become one kernel with one program per row.
// RUN: tilec-opt %s --split-input-file --tile-fuse-kernels | FileCheck %s
// RUN: tilec-opt %s --split-input-file --tile-fuse-kernels=max-row-block=256 | FileCheck %s --check-prefix=LOOP
// RUN: tilec-opt %s --split-input-file --tile-fuse-kernels=remarks=1 -verify-diagnostics -o /dev/null
// RUN: not tilec-opt %s --split-input-file --tile-fuse-kernels=max-row-block=100 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: expected max-row-block to be a power of two in [32, 2^18], found 100

// Layer norm written as graph ops: a row held whole (768 <= 8192), one
// straight pass: x loaded once, mean, the centered values kept in
// registers for the variance and the output, weights read by column.
// CHECK-LABEL: tile.func @layer_norm_rows(
// CHECK-SAME: %[[X:[^:]*]]: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %[[W:[^:]*]]: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %[[B:[^:]*]]: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %[[Y:[^:]*]]: !tile.ptr<f16> {tile.divisibility = 16 : i32})
// CHECK-SAME: tile.num_warps = 4
// CHECK: %[[ROW:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[COL:.*]] = arith.extsi %{{.*}} : tensor<1024xi32> to tensor<1024xi64>
// CHECK: tile.load
// CHECK-NOT: tile.load
// CHECK: %[[EXT:.*]] = arith.extf %{{.*}} : tensor<1024xf16> to tensor<1024xf32>
// CHECK: arith.select
// CHECK: %[[SUM:.*]] = tile.reduce
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]]
// CHECK: %[[CENTERED:.*]] = arith.subf %[[EXT]]
// CHECK: arith.mulf %[[CENTERED]], %[[CENTERED]]
// CHECK: tile.reduce
// CHECK: math.rsqrt
// CHECK: tile.splat %[[W]]
// CHECK-NEXT: tile.addptr %{{.*}}, %[[WCOL:.*]] :
// CHECK: arith.mulf %[[CENTERED]]
// CHECK: tile.store
// CHECK-NOT: tile.store
// CHECK: tile.return
// CHECK-LABEL: tile.graph @layer_norm(
// CHECK-NOT: tile.alloc
// CHECK-NOT: tile.map
// CHECK: tile.launch @layer_norm_rows grid(%{{.*}}) (%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT: }
// With rows walked in blocks (of max-row-block here): a walk per level (x, x - mean, the
// output), each in an scf.for over the row; 8 warps, one element per
// thread (16 would leave half of them without one).
// LOOP-LABEL: tile.func @layer_norm_rows(
// LOOP-SAME: tile.num_warps = 8
// LOOP: scf.for {{.*}} step %c256_i64
// LOOP: tile.reduce
// LOOP: scf.for {{.*}} step %c256_i64
// LOOP: tile.reduce
// LOOP: scf.for {{.*}} step %c256_i64
// LOOP: tile.store
// LOOP: tile.return
tile.graph @layer_norm(%x: memref<?x768xf16> {tile.divisibility = 16 : i32},
                       %w: memref<768xf16> {tile.divisibility = 16 : i32},
                       %b: memref<768xf16> {tile.divisibility = 16 : i32},
                       %y: memref<?x768xf16> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x768xf16>
  %xf = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%x : memref<?x768xf16>) outs(%xf : memref<?x768xf32>) {
  ^bb0(%v: f16):
    %e = arith.extf %v : f16 to f32
    tile.map.return %e : f32
  }
  %s = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%xf : memref<?x768xf32>) outs(%s : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %d = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%xf, %s : memref<?x768xf32>, memref<?x1xf32>) outs(%d : memref<?x768xf32>) {
  ^bb0(%v: f32, %sum: f32):
    %n = arith.constant 768.0 : f32
    %mean = arith.divf %sum, %n : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %d2 = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%d : memref<?x768xf32>) outs(%d2 : memref<?x768xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %var = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%d2 : memref<?x768xf32>) outs(%var : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %rstd = tile.alloc(%m) : memref<?x1xf32>
  tile.map ins(%var : memref<?x1xf32>) outs(%rstd : memref<?x1xf32>) {
  ^bb0(%v: f32):
    %n = arith.constant 768.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %q = arith.divf %v, %n : f32
    %e = arith.addf %q, %eps : f32
    %r = math.rsqrt %e : f32
    tile.map.return %r : f32
  }
  // expected-remark @+1 {{fused 2 row reductions and 5 maps into @layer_norm_rows, one program per row}}
  tile.map ins(%d, %rstd, %w, %b : memref<?x768xf32>, memref<?x1xf32>, memref<768xf16>, memref<768xf16>) outs(%y : memref<?x768xf16>) {
  ^bb0(%v: f32, %r: f32, %wv: f16, %bv: f16):
    %wf = arith.extf %wv : f16 to f32
    %bf = arith.extf %bv : f16 to f32
    %n = arith.mulf %v, %r : f32
    %s1 = arith.mulf %n, %wf : f32
    %o = arith.addf %s1, %bf : f32
    %t = arith.truncf %o : f32 to f16
    tile.map.return %t : f16
  }
}

// -----

// Softmax over rows of a static 100 x 1000 f32 buffer: max, exp, sum,
// divide. i32 offsets (static and small); the row's exp is kept visible
// because a launch reads it.
tile.func @consume(%p: !tile.ptr<f32>) {
  tile.return
}
// CHECK-LABEL: tile.func @softmax_rows(
// CHECK-SAME: tile.num_warps = 4
// CHECK: tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
// CHECK-NOT: arith.extsi
// CHECK: tile.reduce
// CHECK: math.exp
// CHECK: tile.store
// CHECK: tile.reduce
// CHECK: arith.divf
// CHECK: tile.store
// CHECK-LABEL: tile.graph @softmax(
// CHECK: %[[E:.*]] = tile.alloc() : memref<100x1000xf32>
// CHECK: tile.launch @softmax_rows grid(%{{.*}}) (%arg0, %[[E]], %arg1)
// CHECK: tile.launch @consume
tile.graph @softmax(%x: memref<100x1000xf32>, %y: memref<100x1000xf32>) {
  %mx = tile.alloc() : memref<100x1xf32>
  tile.row_reduce ins(%x : memref<100x1000xf32>) outs(%mx : memref<100x1xf32>) init(0xFF800000 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.maximumf %a, %v : f32
    tile.map.return %r : f32
  }
  %e = tile.alloc() : memref<100x1000xf32>
  tile.map ins(%x, %mx : memref<100x1000xf32>, memref<100x1xf32>) outs(%e : memref<100x1000xf32>) {
  ^bb0(%v: f32, %m: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    tile.map.return %r : f32
  }
  %s = tile.alloc() : memref<100x1xf32>
  tile.row_reduce ins(%e : memref<100x1000xf32>) outs(%s : memref<100x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  // expected-remark @+1 {{fused 2 row reductions and 2 maps into @softmax_rows, one program per row}}
  tile.map ins(%e, %s : memref<100x1000xf32>, memref<100x1xf32>) outs(%y : memref<100x1000xf32>) {
  ^bb0(%v: f32, %t: f32):
    %r = arith.divf %v, %t : f32
    tile.map.return %r : f32
  }
  %one = arith.constant 1 : index
  tile.launch @consume grid(%one) (%e) : memref<100x1000xf32>
}

// -----

// Refused: a launch between the reduction and the map writes the buffer
// the map reads.
tile.func @overwrite(%p: !tile.ptr<f32>) {
  %c = arith.constant 1.0 : f32
  tile.store %p, %c : !tile.ptr<f32>
  tile.return
}
// CHECK-LABEL: tile.graph @refused(
// CHECK: tile.row_reduce
// CHECK: tile.launch @overwrite
// CHECK: tile.map
tile.graph @refused(%x: memref<8x64xf32>, %w: memref<64xf32>, %y: memref<8x64xf32>) {
  %s = tile.alloc() : memref<8x1xf32>
  // expected-remark @+1 {{not fused with the maps around it into one kernel per row: 'tile.launch' at}}
  tile.row_reduce ins(%x : memref<8x64xf32>) outs(%s : memref<8x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %one = arith.constant 1 : index
  tile.launch @overwrite grid(%one) (%w) : memref<64xf32>
  tile.map ins(%x, %s, %w : memref<8x64xf32>, memref<8x1xf32>, memref<64xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%v: f32, %t: f32, %u: f32):
    %d = arith.divf %v, %t : f32
    %r = arith.mulf %d, %u : f32
    tile.map.return %r : f32
  }
}

// -----

// Two reductions of different graph arguments on the same rows: one kernel
// walks both with the first's row length, so the graph checks that the
// other's rows are as long (and as many). Its dynamic rows are walked in
// blocks of 4096 by 16 warps.
// CHECK-LABEL: tile.func @two_inputs_rows(
// CHECK-SAME: tile.num_warps = 16
// CHECK-LABEL: tile.graph @two_inputs(
// CHECK: tile.check %{{.*}}, "the row group member at {{.*}}: dimension 0 of graph argument 1 differs from dimension 0 of the buffer that sets the rows, graph argument 0"
// CHECK: tile.check %{{.*}}, "the row group member at {{.*}}: dimension 1 of graph argument 1 differs from dimension 1 of the buffer that sets the rows, graph argument 0"
// CHECK: tile.launch @two_inputs_rows
tile.graph @two_inputs(%a: memref<?x?xf32>, %c: memref<?x?xf32>, %y: memref<?x1xf32>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %s = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%a : memref<?x?xf32>) outs(%s : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%x: f32, %v: f32):
    %r = arith.addf %x, %v : f32
    tile.map.return %r : f32
  }
  %s2 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%c : memref<?x?xf32>) outs(%s2 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%x: f32, %v: f32):
    %r = arith.addf %x, %v : f32
    tile.map.return %r : f32
  }
  // expected-remark @+1 {{fused 2 row reductions and 1 map into @two_inputs_rows, one program per row}}
  tile.map ins(%s, %s2 : memref<?x1xf32>, memref<?x1xf32>) outs(%y : memref<?x1xf32>) {
  ^bb0(%v: f32, %t: f32):
    %r = arith.addf %v, %t : f32
    tile.map.return %r : f32
  }
}

// -----

// Refused: nine chained reductions over dynamic rows (each walk would
// recompute the chain; at most eight).
// CHECK-LABEL: tile.graph @deep(
// CHECK: tile.row_reduce
tile.graph @deep(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %k = memref.dim %x, %c1 : memref<?x?xf32>
  %s0 = tile.alloc(%m) : memref<?x1xf32>
  // expected-remark @+1 {{not fused with the maps around it into one kernel per row: 9 row reductions over rows walked in blocks (at most 8)}}
  tile.row_reduce ins(%x : memref<?x?xf32>) outs(%s0 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t0 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%x, %s0 : memref<?x?xf32>, memref<?x1xf32>) outs(%t0 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s1 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t0 : memref<?x?xf32>) outs(%s1 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t1 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t0, %s1 : memref<?x?xf32>, memref<?x1xf32>) outs(%t1 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s2 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t1 : memref<?x?xf32>) outs(%s2 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t2 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t1, %s2 : memref<?x?xf32>, memref<?x1xf32>) outs(%t2 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s3 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t2 : memref<?x?xf32>) outs(%s3 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t3 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t2, %s3 : memref<?x?xf32>, memref<?x1xf32>) outs(%t3 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s4 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t3 : memref<?x?xf32>) outs(%s4 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t4 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t3, %s4 : memref<?x?xf32>, memref<?x1xf32>) outs(%t4 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s5 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t4 : memref<?x?xf32>) outs(%s5 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t5 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t4, %s5 : memref<?x?xf32>, memref<?x1xf32>) outs(%t5 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s6 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t5 : memref<?x?xf32>) outs(%s6 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t6 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t5, %s6 : memref<?x?xf32>, memref<?x1xf32>) outs(%t6 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s7 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t6 : memref<?x?xf32>) outs(%s7 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %t7 = tile.alloc(%m, %k) : memref<?x?xf32>
  tile.map ins(%t6, %s7 : memref<?x?xf32>, memref<?x1xf32>) outs(%t7 : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
  %s8 = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%t7 : memref<?x?xf32>) outs(%s8 : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  tile.map ins(%t7, %s8 : memref<?x?xf32>, memref<?x1xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%v: f32, %q: f32):
    %r = arith.subf %v, %q : f32
    tile.map.return %r : f32
  }
}

// -----

// GroupNorm-shaped rows: [N, G, C/G, HW] reduced over the last two
// dimensions, the channels static (3) and the pixels dynamic. The walk
// takes 2D blocks, every channel of the group (3, padded to 4 and masked)
// x 1024 pixels, so the per-channel weight [2, 3, 1] is loaded once per
// row at the group's offset (row % 2 * 3) plus the channel index, and
// broadcast along the pixels: no division anywhere. The partial sums
// reduce over the pixels, then the channels.
// CHECK-LABEL: tile.func @group_scale_rows(
// CHECK-SAME: tile.num_warps = 16
// CHECK-NOT: arith.divui
// CHECK: %[[CH:.*]] = tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
// CHECK: %[[CHMASK:.*]] = arith.cmpi slt, %[[CH]], %{{.*}} : tensor<4x1xi64>
// CHECK: scf.for {{.*}} step %c1024_i64 iter_args(%{{.*}} = %{{.*}}) -> (tensor<4x1024xf32>)
// CHECK: tile.load %{{.*}}, %{{.*}} : tensor<4x1024x!tile.ptr<f32>>
// CHECK: tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<4x1024xf32>) -> tensor<4xf32>
// CHECK: tile.reduce(%{{.*}}) {axis = 0 : i32} : (tensor<4xf32>) -> f32
// CHECK: arith.remui %{{.*}}, %c2_i64 : i64
// CHECK: %[[W:.*]] = tile.load %{{.*}}, %[[CHMASK]] : tensor<4x1x!tile.ptr<f32>>
// CHECK: tile.broadcast %[[W]] : tensor<4x1xf32> -> tensor<4x1024xf32>
// CHECK: scf.for
// CHECK-NOT: tile.load %{{.*}} : tensor<4x1x
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x1024x!tile.ptr<f32>>
// CHECK-NOT: arith.divui
// CHECK: tile.return
tile.graph @group_scale(%x: memref<?x2x3x?xf32>, %w: memref<2x3x1xf32>, %y: memref<?x2x3x?xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c0 : memref<?x2x3x?xf32>
  %s = tile.alloc(%n) : memref<?x2x1x1xf32>
  tile.row_reduce ins(%x : memref<?x2x3x?xf32>) outs(%s : memref<?x2x1x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  // expected-remark @+1 {{fused 1 row reduction and 1 map into @group_scale_rows, one program per row}}
  tile.map ins(%x, %s, %w : memref<?x2x3x?xf32>, memref<?x2x1x1xf32>, memref<2x3x1xf32>) outs(%y : memref<?x2x3x?xf32>) {
  ^bb0(%v: f32, %t: f32, %u: f32):
    %d = arith.subf %v, %t : f32
    %r = arith.mulf %d, %u : f32
    tile.map.return %r : f32
  }
}

// -----

// An input declared fully dynamic over rows of static channels (legal: its
// sizes are checked equal at launch): its row offset is the row times the
// row's length, 3 * HW -- the static 3 comes from the rows' buffer.
// CHECK-LABEL: tile.func @dynamic_input_rows(
// CHECK: tile.make_range
// CHECK: %[[LEN:.*]] = arith.muli %arg0, %c3_i64_1 : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %{{.*}}, %[[LEN]] : i64
// CHECK-NEXT: tile.addptr %arg1, %[[OFF]] : !tile.ptr<f32>, i64
tile.graph @dynamic_input(%x: memref<?x?x?x?xf32>, %w: memref<2x3x1xf32>, %y: memref<?x2x3x?xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf32>
  %hw = memref.dim %x, %c3 : memref<?x?x?x?xf32>
  %xf = tile.alloc(%n, %hw) : memref<?x2x3x?xf32>
  tile.map ins(%x : memref<?x?x?x?xf32>) outs(%xf : memref<?x2x3x?xf32>) {
  ^bb0(%v: f32):
    tile.map.return %v : f32
  }
  %s = tile.alloc(%n) : memref<?x2x1x1xf32>
  tile.row_reduce ins(%xf : memref<?x2x3x?xf32>) outs(%s : memref<?x2x1x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  // expected-remark @+1 {{fused 1 row reduction and 2 maps into @dynamic_input_rows, one program per row}}
  tile.map ins(%xf, %s, %w : memref<?x2x3x?xf32>, memref<?x2x1x1xf32>, memref<2x3x1xf32>) outs(%y : memref<?x2x3x?xf32>) {
  ^bb0(%v: f32, %t: f32, %u: f32):
    %d = arith.subf %v, %t : f32
    %r = arith.mulf %d, %u : f32
    tile.map.return %r : f32
  }
}
