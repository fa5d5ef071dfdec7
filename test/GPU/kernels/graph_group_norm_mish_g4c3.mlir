// A graph for the GPU tests (GraphTests.cpp): examples/graphs/group_norm_mish.mlir
// with 4 groups of 3 channels (X [N, 4, 3, H*W]), so that the row kernel's
// 2D blocks (every channel of the group x a block of pixels) have a
// channel index past the group (3 of 4 rows of the block are used), and
// the per-channel gamma/beta [4, 3, 1] are read once per row.
tile.graph @group_norm_mish_g4c3(
    %x: memref<?x4x3x?xf16> {tile.divisibility = 16 : i32},
    %gamma: memref<4x3x1xf16>, %beta: memref<4x3x1xf16>,
    %y: memref<?x4x3x?xf16> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c0 : memref<?x4x3x?xf16>
  %hw = memref.dim %x, %c3 : memref<?x4x3x?xf16>
  // The number of elements in a group (the maps convert it to f32: the
  // graph itself computes only with integers).
  %count = arith.muli %hw, %c3 : index
  %count64 = arith.index_cast %count : index to i64

  %xf = tile.alloc(%n, %hw) : memref<?x4x3x?xf32>
  tile.map ins(%x : memref<?x4x3x?xf16>) outs(%xf : memref<?x4x3x?xf32>) {
  ^bb0(%v: f16):
    %e = arith.extf %v : f16 to f32
    tile.map.return %e : f32
  }
  %sum = tile.alloc(%n) : memref<?x4x1x1xf32>
  tile.row_reduce ins(%xf : memref<?x4x3x?xf32>) outs(%sum : memref<?x4x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %d = tile.alloc(%n, %hw) : memref<?x4x3x?xf32>
  tile.map ins(%xf, %sum, %count64 : memref<?x4x3x?xf32>, memref<?x4x1x1xf32>, i64)
           outs(%d : memref<?x4x3x?xf32>) {
  ^bb0(%v: f32, %s: f32, %ci: i64):
    %c = arith.sitofp %ci : i64 to f32
    %mean = arith.divf %s, %c : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %d2 = tile.alloc(%n, %hw) : memref<?x4x3x?xf32>
  tile.map ins(%d : memref<?x4x3x?xf32>) outs(%d2 : memref<?x4x3x?xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %var = tile.alloc(%n) : memref<?x4x1x1xf32>
  tile.row_reduce ins(%d2 : memref<?x4x3x?xf32>) outs(%var : memref<?x4x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  tile.map ins(%d, %var, %count64, %gamma, %beta
               : memref<?x4x3x?xf32>, memref<?x4x1x1xf32>, i64,
                 memref<4x3x1xf16>, memref<4x3x1xf16>)
           outs(%y : memref<?x4x3x?xf16>) {
  ^bb0(%v: f32, %ss: f32, %ci: i64, %g: f16, %b: f16):
    %c = arith.sitofp %ci : i64 to f32
    %eps = arith.constant 1.0e-5 : f32
    %one = arith.constant 1.0 : f32
    %q = arith.divf %ss, %c : f32
    %e = arith.addf %q, %eps : f32
    %rstd = math.rsqrt %e : f32
    %gf = arith.extf %g : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %nrm = arith.mulf %v, %rstd : f32
    %scaled = arith.mulf %nrm, %gf : f32
    %a = arith.addf %scaled, %bf : f32
    // mish(a) = a * tanh(log(1 + exp(a)))
    %ex = math.exp %a : f32
    %ex1 = arith.addf %ex, %one : f32
    %sp = math.log %ex1 : f32
    %t = math.tanh %sp : f32
    %m = arith.mulf %a, %t : f32
    %h = arith.truncf %m : f32 to f16
    tile.map.return %h : f16
  }
}
