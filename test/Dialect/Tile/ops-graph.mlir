// The graph-level ops print and parse back unchanged, and their generic
// form round-trips too.
// RUN: tilec-opt %s | FileCheck %s
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s -mlir-print-op-generic | tilec-opt | FileCheck %s

tile.func @scale_kernel(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                        %y: !tile.ptr<f16>, %n: i32) {
  tile.return
}

// CHECK-LABEL: tile.graph @graph(
// CHECK-SAME: %[[X:.*]]: memref<?x64xf16> {tile.divisibility = 16 : i32}, %[[B:.*]]: memref<64xf16>, %[[Y:.*]]: memref<?x64xf32>, %[[S:.*]]: f32)
tile.graph @graph(%x: memref<?x64xf16> {tile.divisibility = 16 : i32},
                  %b: memref<64xf16>, %y: memref<?x64xf32>, %s: f32) {
  // CHECK: %[[M:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x64xf16>
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x64xf16>
  // CHECK: %[[T:.*]] = tile.alloc(%[[M]]) : memref<?x64xf16>
  %t = tile.alloc(%m) : memref<?x64xf16>
  %c64 = arith.constant 64 : index
  %n = arith.muli %m, %c64 : index
  %c1024 = arith.constant 1024 : index
  %g = arith.ceildivui %n, %c1024 : index
  %ni = arith.index_cast %n : index to i32
  // CHECK: tile.launch @scale_kernel grid(%{{.*}}) (%[[X]], %[[T]], %{{.*}}) : memref<?x64xf16>, memref<?x64xf16>, i32
  tile.launch @scale_kernel grid(%g) (%x, %t, %ni) : memref<?x64xf16>, memref<?x64xf16>, i32
  // CHECK: tile.map ins(%[[T]], %[[B]], %[[S]] : memref<?x64xf16>, memref<64xf16>, f32) outs(%[[Y]] : memref<?x64xf32>) {
  // CHECK-NEXT: ^bb0(%[[V:.*]]: f16, %[[W:.*]]: f16, %[[A:.*]]: f32):
  // CHECK: tile.map.return %{{.*}} : f32
  tile.map ins(%t, %b, %s : memref<?x64xf16>, memref<64xf16>, f32)
           outs(%y : memref<?x64xf32>) {
  ^bb0(%v: f16, %w: f16, %a: f32):
    %sum = arith.addf %v, %w : f16
    %e = arith.extf %sum : f16 to f32
    %r = arith.mulf %e, %a : f32
    tile.map.return %r : f32
  }
  // A map with no inputs fills its output.
  // CHECK: tile.map ins() outs(%[[Y]] : memref<?x64xf32>)
  tile.map ins() outs(%y : memref<?x64xf32>) {
    %z = arith.constant 0.0 : f32
    tile.map.return %z : f32
  }
  // CHECK: %[[OK:.*]] = arith.cmpi eq
  // CHECK: tile.check %[[OK]], "sizes agree"
  %ok = arith.cmpi eq, %m, %c64 : index
  tile.check %ok, "sizes agree"
  // A grid of three sizes.
  // CHECK: tile.launch @scale_kernel grid(%{{.*}}, %{{.*}}, %{{.*}})
  tile.launch @scale_kernel grid(%g, %c64, %c64) (%x, %t, %ni) : memref<?x64xf16>, memref<?x64xf16>, i32
}

// CHECK-LABEL: tile.graph @row_stats(
tile.graph @row_stats(%x: memref<?x4x768xf32>, %s: memref<?x1x1xf32>,
                      %m: memref<?x4x1xf32>) {
  // CHECK: tile.row_reduce ins(%{{.*}} : memref<?x4x768xf32>) outs(%{{.*}} : memref<?x1x1xf32>) init(0.000000e+00 : f32) {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[V:.*]]: f32):
  // CHECK-NEXT: %[[R:.*]] = arith.addf %[[A]], %[[V]] : f32
  // CHECK-NEXT: tile.map.return %[[R]] : f32
  tile.row_reduce ins(%x : memref<?x4x768xf32>) outs(%s : memref<?x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  // CHECK: tile.row_reduce ins(%{{.*}} : memref<?x4x768xf32>) outs(%{{.*}} : memref<?x4x1xf32>) init(0xFF800000 : f32) {
  tile.row_reduce ins(%x : memref<?x4x768xf32>) outs(%m : memref<?x4x1xf32>)
                  init(0xFF800000 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.maximumf %a, %v : f32
    tile.map.return %r : f32
  }
}
