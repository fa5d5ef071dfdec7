// A graph whose only map writes a buffer nothing reads (test/CLI/graph.mlir).
tile.graph @g() {
  %c = arith.constant 4 : index
  %t = tile.alloc(%c) : memref<?xf32>
  tile.map ins() outs(%t : memref<?xf32>) {
  ^bb0:
    %c1 = arith.constant 1.0 : f32
    tile.map.return %c1 : f32
  }
}
