// tilec on a module with an operator graph: the maps fuse (--fusion-remarks
// says so), the kernels compile to PTX, and a `// tilec.graph` line tells
// the runtime how to run them; --fuse-kernels=false keeps one kernel per
// map; --emit=tile shows the fused graph; a graph the runtime cannot
// evaluate is a located error.
// RUN: tilec %s -o - --fusion-remarks 2> %t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: tilec %s -o - --fuse-kernels=false | FileCheck %s --check-prefix=UNFUSED
// RUN: tilec %s --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: not tilec %S/Inputs/graph-float-arith.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not tilec %S/Inputs/graph-dead-map.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEAD
// RUN: not tilec %s --emit=cubin -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CUBIN
// RUN: not tilec %s --aot -o %t.aot 2>&1 | FileCheck %s --check-prefix=AOT

// CHECK: // tilec.kernel name=scale_fused num_warps=4
// CHECK: // tilec.graph name=scale_bias params=*fp32:16[?],*fp32[?],*fp32[?],fp32 ops=dim(p0,0);ceildivu.64(v0,1024);cast.32(v0);dim(p2,0);eq.64(v0,v3);check(v4,"the map at {{.*}}graph.mlir:[[#MAP:]]:3: dimension 0 of the buffer allocated at {{.*}}graph.mlir:{{[0-9]+}}:8 differs from dimension 0 of its output, graph argument 2");{{.*}}launch(scale_fused,v1,1,1,p0,v2,p3,p2,p1)
// CHECK: .visible .entry scale_fused(

// REMARK: graph.mlir:{{[0-9]+}}:3: remark: fused into the stores of @scale (epilogue) as @scale_fused

// UNFUSED: // tilec.kernel name=scale num_warps=4
// UNFUSED: // tilec.kernel name=scale_bias_map num_warps=4
// UNFUSED: // tilec.graph name=scale_bias {{.*}}launch(scale,{{.*}}launch(scale_bias_map,

// TILE-LABEL: tile.graph @scale_bias
// TILE-NOT: tile.map
// TILE: tile.launch @scale_fused

// DEAD: graph-dead-map.mlir:2:1: error: no kernel to compile: graph @g launches none (after fusion; a map or row reduction whose output nothing reads is removed)
// CUBIN: graph.mlir:[[#]]:1: error: unimplemented: --emit=cubin does not carry operator graphs yet; compile with --emit=ptx (its tilec.graph line is what GraphProgram runs)
// AOT: graph.mlir:[[#]]:1: error: unimplemented: --aot does not carry operator graphs yet

// FLOAT: graph-float-arith.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unimplemented: 'arith.mulf' in a graph the runtime runs

tile.func @scale(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %n: i32, %a: f32) attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %s, %r : tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %as = tile.splat %a : f32 -> tensor<1024xf32>
  %w = arith.mulf %v, %as : tensor<1024xf32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %yp, %w, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}

tile.graph @scale_bias(%x: memref<?xf32> {tile.divisibility = 16 : i32},
                       %b: memref<?xf32>, %y: memref<?xf32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %t = tile.alloc(%n) : memref<?xf32>
  %c1024 = arith.constant 1024 : index
  %g = arith.ceildivui %n, %c1024 : index
  %ni = arith.index_cast %n : index to i32
  tile.launch @scale grid(%g) (%x, %t, %ni, %a) : memref<?xf32>, memref<?xf32>, i32, f32
  tile.map ins(%t, %b : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%v: f32, %w: f32):
    %s = arith.addf %v, %w : f32
    tile.map.return %s : f32
  }
}
