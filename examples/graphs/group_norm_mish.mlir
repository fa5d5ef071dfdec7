// GroupNorm -> Mish as an operator graph, written with graph ops only:
// Y = mish(group_norm(X) * gamma + beta) for X of shape [N, C, H, W] in
// f16, seen as [N, G, C/G, H*W] with G = 8 groups of C/G = 4 channels
// (so C = 32) and H*W dynamic. A row is one (sample, group): 4 * H*W
// elements. Statistics in f32 (mean, then the variance of the centered
// values, as torch.nn.GroupNorm; eps = 1e-5), per-channel affine
// gamma/beta of shape [G, C/G, 1], then mish(a) = a * tanh(softplus(a)).
//
// tile-fuse-kernels makes the two row reductions and the four maps one
// kernel with one program per row (@group_norm_mish_rows); the row is
// dynamic, so it is walked in blocks of 4 channels x 1024 pixels three
// times (sum, centered squares, output; gamma and beta are loaded once per
// row, before the last walk), reading X each time and never writing an
// intermediate. With --fuse-kernels=false each op is its own kernel, and
// the f32 copy, the centered values and their squares go through memory.
//
//   tilec examples/graphs/group_norm_mish.mlir --fusion-remarks -o gn.ptx

tile.graph @group_norm_mish(
    %x: memref<?x8x4x?xf16> {tile.divisibility = 16 : i32},
    %gamma: memref<8x4x1xf16>, %beta: memref<8x4x1xf16>,
    %y: memref<?x8x4x?xf16> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c0 : memref<?x8x4x?xf16>
  %hw = memref.dim %x, %c3 : memref<?x8x4x?xf16>
  // The number of elements in a group (the maps convert it to f32: the
  // graph itself computes only with integers).
  %count = arith.muli %hw, %c4 : index
  %count64 = arith.index_cast %count : index to i64

  %xf = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%x : memref<?x8x4x?xf16>) outs(%xf : memref<?x8x4x?xf32>) {
  ^bb0(%v: f16):
    %e = arith.extf %v : f16 to f32
    tile.map.return %e : f32
  }
  %sum = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%xf : memref<?x8x4x?xf32>) outs(%sum : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %d = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%xf, %sum, %count64 : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64)
           outs(%d : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32, %s: f32, %ci: i64):
    %c = arith.sitofp %ci : i64 to f32
    %mean = arith.divf %s, %c : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %d2 = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%d : memref<?x8x4x?xf32>) outs(%d2 : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %var = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%d2 : memref<?x8x4x?xf32>) outs(%var : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  tile.map ins(%d, %var, %count64, %gamma, %beta
               : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64,
                 memref<8x4x1xf16>, memref<8x4x1xf16>)
           outs(%y : memref<?x8x4x?xf16>) {
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
