// tile-outline-maps: each map becomes an elementwise kernel over the flat
// output and a launch of ceil(size / block) programs.
// RUN: tilec-opt %s --split-input-file --tile-outline-maps | FileCheck %s
// RUN: not tilec-opt %s --split-input-file --tile-outline-maps=block-size=3 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tilec-opt %s --split-input-file --tile-outline-maps=num-warps=5 2>&1 | FileCheck %s --check-prefix=WARPS
// BLOCK: error: expected tile-outline-maps' block-size to be a power of two in [1, 2^20], found 3
// WARPS: error: expected tile-outline-maps' num-warps to be a power of two in [1, 32], found 5

// A static size below 2^31: i32 offsets; the block shrinks to the size
// (at least one element per thread); intermediates are 16-byte aligned.
// CHECK-LABEL: tile.func @small_map
// CHECK-SAME: (%[[OUT:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %[[IN:.*]]: !tile.ptr<f16>)
// CHECK-SAME: attributes {tile.num_warps = 4 : i32}
// CHECK: %[[PID:.*]] = tile.program_id 0 : i32
// CHECK: %[[R:.*]] = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
// CHECK: %[[C:.*]] = arith.constant 256 : i32
// CHECK: %[[S:.*]] = arith.muli %[[PID]], %[[C]] : i32
// CHECK: %[[ST:.*]] = tile.splat %[[S]] : i32 -> tensor<256xi32>
// CHECK: %[[OFF:.*]] = arith.addi %[[ST]], %[[R]] : tensor<256xi32>
// CHECK: %[[N:.*]] = arith.constant 200 : i32
// CHECK: %[[NT:.*]] = tile.splat %[[N]]
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFF]], %[[NT]] : tensor<256xi32>
// CHECK: %[[P:.*]] = tile.addptr %{{.*}}, %[[OFF]]
// CHECK: %[[V:.*]] = tile.load %[[P]], %[[MASK]]
// CHECK: %[[E:.*]] = arith.extf %[[V]] : tensor<256xf16> to tensor<256xf32>
// CHECK: %[[Q:.*]] = tile.addptr %{{.*}}, %[[OFF]]
// CHECK: tile.store %[[Q]], %[[E]], %[[MASK]]
// CHECK-LABEL: tile.graph @small
// CHECK: %[[T:.*]] = tile.alloc() : memref<10x20xf32>
// CHECK: %[[G:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK: tile.launch @small_map grid(%[[G]]) (%[[T]], %arg0) : memref<10x20xf32>, memref<10x20xf16>
// CHECK-NOT: tile.map
tile.graph @small(%x: memref<10x20xf16>) {
  %t = tile.alloc() : memref<10x20xf32>
  tile.map ins(%x : memref<10x20xf16>) outs(%t : memref<10x20xf32>) {
  ^bb0(%v: f16):
    %e = arith.extf %v : f16 to f32
    tile.map.return %e : f32
  }
}

// -----

// Dynamic sizes: i64 offsets, the flat size and the sizes the broadcast
// inputs need as arguments; a scalar input; checks of the inputs' sizes.
// CHECK-LABEL: tile.func @scale_map
// CHECK-SAME: (%[[Y:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %[[X:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %[[COL:.*]]: !tile.ptr<f32>, %[[ROW:.*]]: !tile.ptr<f32>, %[[A:.*]]: f32, %[[NUMEL:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<1024xi64>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFF]], %{{.*}} : tensor<1024xi64>
// The column vector [n]: offset % n.
// CHECK: %[[NT:.*]] = tile.splat %[[N]] : i64 -> tensor<1024xi64>
// CHECK: %[[J:.*]] = arith.remui %[[OFF]], %[[NT]] : tensor<1024xi64>
// CHECK: tile.addptr %{{.*}}, %[[J]]
// The row vector [m, 1]: offset / n.
// CHECK: %[[I:.*]] = arith.divui %[[OFF]], %{{.*}} : tensor<1024xi64>
// CHECK: tile.addptr %{{.*}}, %[[I]]
// CHECK: tile.splat %[[A]] : f32 -> tensor<1024xf32>
// CHECK-LABEL: tile.graph @scale
// CHECK-DAG: %[[M:.*]] = memref.dim %arg1, %c0
// CHECK-DAG: %[[NN:.*]] = memref.dim %arg1, %c1
// CHECK: tile.check %{{.*}}, "the map at {{.*}}: dimension 0 of graph argument 0 differs from dimension 0 of its output, graph argument 1"
// CHECK: tile.check %{{.*}}, "the map at {{.*}}: dimension 1 of graph argument 0 differs from dimension 1 of its output, graph argument 1"
// CHECK: tile.check %{{.*}}, "the map at {{.*}}: dimension 0 of graph argument 2 differs from dimension 1 of its output, graph argument 1"
// CHECK: tile.check %{{.*}}, "the map at {{.*}}: dimension 0 of graph argument 3 differs from dimension 0 of its output, graph argument 1"
// CHECK: tile.launch @scale_map grid(%{{.*}}) (%arg1, %arg0, %arg2, %arg3, %arg4, %{{.*}}, %{{.*}}) : memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x1xf32>, f32, i64, i64
tile.graph @scale(%x: memref<?x?xf32> {tile.divisibility = 16 : i32},
                  %y: memref<?x?xf32> {tile.divisibility = 16 : i32},
                  %col: memref<?xf32>, %row: memref<?x1xf32>, %a: f32) {
  tile.map ins(%x, %col, %row, %a : memref<?x?xf32>, memref<?xf32>, memref<?x1xf32>, f32) outs(%y : memref<?x?xf32>) {
  ^bb0(%v: f32, %c: f32, %r: f32, %s: f32):
    %p = arith.mulf %v, %c : f32
    %q = arith.mulf %p, %r : f32
    %w = arith.mulf %q, %s : f32
    tile.map.return %w : f32
  }
}

// -----

// A fill: no inputs; the body's constant is splat.
// CHECK-LABEL: tile.func @fill_map
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[ZT:.*]] = tile.splat %[[Z]] : f16 -> tensor<1024xf16>
// CHECK: tile.store %{{.*}}, %[[ZT]], %{{.*}}
tile.graph @fill(%y: memref<4096xf16>) {
  tile.map ins() outs(%y : memref<4096xf16>) {
    %z = arith.constant 0.0 : f16
    tile.map.return %z : f16
  }
}

// -----

// A row reduction left alone: one program per row. A static row of 768
// held whole (i64 offsets: the rows are dynamic); a dynamic row walked in
// blocks of 4096, its length an i64 argument.
// CHECK-LABEL: tile.func @sums_rows(
// CHECK-SAME: %[[X:.*]]: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %[[S:.*]]: !tile.ptr<f32>)
// CHECK-NOT: scf.for
// CHECK: tile.load
// CHECK: arith.select
// CHECK: %[[SUM:.*]] = tile.reduce
// CHECK: %[[P:.*]] = tile.addptr %[[S]], %{{.*}} : !tile.ptr<f32>, i64
// CHECK: tile.store %[[P]], %[[SUM]] : !tile.ptr<f32>
// CHECK-LABEL: tile.graph @sums(
// CHECK: tile.check %{{.*}}, "the row reduction at {{.*}}: dimension 0 of graph argument 0 differs from dimension 0 of its output, graph argument 1"
// CHECK: tile.launch @sums_rows grid(%[[ROWS:.*]]) (%arg0, %arg1)
tile.graph @sums(%x: memref<?x768xf32> {tile.divisibility = 16 : i32}, %s: memref<?x1xf32>) {
  tile.row_reduce ins(%x : memref<?x768xf32>) outs(%s : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
}
// CHECK-LABEL: tile.func @long_rows(
// CHECK-SAME: %[[N:.*]]: i64, %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f16>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args
// CHECK: arith.maximumf
// CHECK: scf.yield
// CHECK: tile.reduce
// CHECK-LABEL: tile.graph @long(
// CHECK: %[[D:.*]] = memref.dim %arg0, %{{.*}} : memref<16x?xf16>
// CHECK: %[[N64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: tile.launch @long_rows grid(%{{.*}}) (%[[N64]], %arg0, %arg1)
tile.graph @long(%x: memref<16x?xf16>, %s: memref<16x1xf16>) {
  tile.row_reduce ins(%x : memref<16x?xf16>) outs(%s : memref<16x1xf16>) init(0xFC00 : f16) {
  ^bb0(%a: f16, %v: f16):
    %r = arith.maximumf %a, %v : f16
    tile.map.return %r : f16
  }
}
