// A register limit out of range (test/CLI/maxnreg.mlir).

tile.func @k(%x: !tile.ptr<f32>) attributes {tile.maxnreg = 300 : i32} {
  tile.return
}
