// A graph for the GPU tests (GraphTests.cpp): maps only. y = (x + r) * g[col]
// * s[row] * alpha: the two maps merge into one (a chain), the map writing a
// buffer nothing reads disappears, and the merged map becomes a kernel with
// the broadcast inputs read at offset % 256 and offset / 256.
tile.graph @residual_scale(%x: memref<?x256xf32> {tile.divisibility = 16 : i32},
                           %r: memref<?x256xf32> {tile.divisibility = 16 : i32},
                           %g: memref<256xf32>, %s: memref<?x1xf32>,
                           %y: memref<?x256xf32> {tile.divisibility = 16 : i32},
                           %alpha: f32) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x256xf32>
  %t = tile.alloc(%m) : memref<?x256xf32>
  tile.map ins(%x, %r : memref<?x256xf32>, memref<?x256xf32>) outs(%t : memref<?x256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s0 = arith.addf %a, %b : f32
    tile.map.return %s0 : f32
  }
  tile.map ins(%t, %g, %s, %alpha : memref<?x256xf32>, memref<256xf32>, memref<?x1xf32>, f32) outs(%y : memref<?x256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %c : f32
    %w = arith.mulf %q, %d : f32
    tile.map.return %w : f32
  }
  %dead = tile.alloc(%m) : memref<?x256xf32>
  tile.map ins(%x : memref<?x256xf32>) outs(%dead : memref<?x256xf32>) {
  ^bb0(%a: f32):
    tile.map.return %a : f32
  }
}
