// Residual add -> LayerNorm as an operator graph of row reductions and
// maps: Y = layer_norm(X + R) over rows of 4096 f32 (weight W, bias B,
// eps a scalar), with the rows' mean and 1/std written too ([M, 1]).
//
// tile-fuse-kernels makes the whole chain one kernel with one program per
// row (@residual_layer_norm_rows): the row (4096 <= 8192) is held whole,
// so X and R are read once, the sum, its mean, the centered values and
// the variance stay in registers, and Y, the mean and 1/std are written
// once. (Fusing the add into the loads of Triton's three-pass layer-norm
// kernel instead reads X and R three times: tile-fuse-kernels refuses
// that, test/Passes/tile-fuse-kernels-traffic.mlir.)
//
//   tilec examples/graphs/residual_layer_norm.mlir --fusion-remarks -o rln.ptx

tile.graph @residual_layer_norm(
    %x: memref<?x4096xf32> {tile.divisibility = 16 : i32},
    %r: memref<?x4096xf32> {tile.divisibility = 16 : i32},
    %w: memref<4096xf32> {tile.divisibility = 16 : i32},
    %b: memref<4096xf32> {tile.divisibility = 16 : i32},
    %y: memref<?x4096xf32> {tile.divisibility = 16 : i32},
    %mean: memref<?x1xf32>, %rstd: memref<?x1xf32>, %eps: f32) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x4096xf32>
  %s = tile.alloc(%m) : memref<?x4096xf32>
  tile.map ins(%x, %r : memref<?x4096xf32>, memref<?x4096xf32>)
           outs(%s : memref<?x4096xf32>) {
  ^bb0(%a: f32, %c: f32):
    %sum = arith.addf %a, %c : f32
    tile.map.return %sum : f32
  }
  %total = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%s : memref<?x4096xf32>) outs(%total : memref<?x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %t = arith.addf %a, %v : f32
    tile.map.return %t : f32
  }
  tile.map ins(%total : memref<?x1xf32>) outs(%mean : memref<?x1xf32>) {
  ^bb0(%t: f32):
    %n = arith.constant 4096.0 : f32
    %mu = arith.divf %t, %n : f32
    tile.map.return %mu : f32
  }
  %d = tile.alloc(%m) : memref<?x4096xf32>
  tile.map ins(%s, %mean : memref<?x4096xf32>, memref<?x1xf32>)
           outs(%d : memref<?x4096xf32>) {
  ^bb0(%v: f32, %mu: f32):
    %c = arith.subf %v, %mu : f32
    tile.map.return %c : f32
  }
  %d2 = tile.alloc(%m) : memref<?x4096xf32>
  tile.map ins(%d : memref<?x4096xf32>) outs(%d2 : memref<?x4096xf32>) {
  ^bb0(%v: f32):
    %sq = arith.mulf %v, %v : f32
    tile.map.return %sq : f32
  }
  %var = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%d2 : memref<?x4096xf32>) outs(%var : memref<?x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %t = arith.addf %a, %v : f32
    tile.map.return %t : f32
  }
  tile.map ins(%var, %eps : memref<?x1xf32>, f32) outs(%rstd : memref<?x1xf32>) {
  ^bb0(%v: f32, %e: f32):
    %n = arith.constant 4096.0 : f32
    %q = arith.divf %v, %n : f32
    %qe = arith.addf %q, %e : f32
    %rs = math.rsqrt %qe : f32
    tile.map.return %rs : f32
  }
  tile.map ins(%d, %rstd, %w, %b : memref<?x4096xf32>, memref<?x1xf32>,
                                   memref<4096xf32>, memref<4096xf32>)
           outs(%y : memref<?x4096xf32>) {
  ^bb0(%v: f32, %rs: f32, %wv: f32, %bv: f32):
    %nrm = arith.mulf %v, %rs : f32
    %sc = arith.mulf %nrm, %wv : f32
    %o = arith.addf %sc, %bv : f32
    tile.map.return %o : f32
  }
}
