// A graph computing a float on the host: the runtime evaluates integer
// arithmetic only (test/CLI/graph.mlir).
tile.func @k(%a: f32) {
  tile.return
}
tile.graph @g(%a: f32) {
  %c1 = arith.constant 1 : index
  %two = arith.mulf %a, %a : f32
  tile.launch @k grid(%c1) (%two) : f32
}
