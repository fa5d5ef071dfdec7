// LayerNorm written with graph ops only: Y = (X - mean) / sqrt(var + eps)
// * W + B over rows of 768 f16 (statistics in f32, eps = 1e-5), as
// torch.nn.functional.layer_norm computes it.
//
// tile-fuse-kernels makes the two row reductions and the five maps one
// kernel with one program per row (@layer_norm_rows): the row (768 <= the
// 8192 a program holds) is loaded once with 16-byte loads, the mean, the
// centered values and the variance stay in registers, and W and B are read
// by column. With --fuse-kernels=false each op is its own kernel.
//
//   tilec examples/graphs/layer_norm.mlir --fusion-remarks -o ln.ptx

tile.graph @layer_norm(%x: memref<?x768xf16> {tile.divisibility = 16 : i32},
                       %w: memref<768xf16> {tile.divisibility = 16 : i32},
                       %b: memref<768xf16> {tile.divisibility = 16 : i32},
                       %y: memref<?x768xf16> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %x, %c0 : memref<?x768xf16>
  %xf = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%x : memref<?x768xf16>) outs(%xf : memref<?x768xf32>) {
  ^bb0(%v: f16):
    %e = arith.extf %v : f16 to f32
    tile.map.return %e : f32
  }
  %s = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%xf : memref<?x768xf32>) outs(%s : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %d = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%xf, %s : memref<?x768xf32>, memref<?x1xf32>) outs(%d : memref<?x768xf32>) {
  ^bb0(%v: f32, %sum: f32):
    %n = arith.constant 768.0 : f32
    %mean = arith.divf %sum, %n : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %d2 = tile.alloc(%m) : memref<?x768xf32>
  tile.map ins(%d : memref<?x768xf32>) outs(%d2 : memref<?x768xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %var = tile.alloc(%m) : memref<?x1xf32>
  tile.row_reduce ins(%d2 : memref<?x768xf32>) outs(%var : memref<?x1xf32>) init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %rstd = tile.alloc(%m) : memref<?x1xf32>
  tile.map ins(%var : memref<?x1xf32>) outs(%rstd : memref<?x1xf32>) {
  ^bb0(%v: f32):
    %n = arith.constant 768.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %q = arith.divf %v, %n : f32
    %e = arith.addf %q, %eps : f32
    %r = math.rsqrt %e : f32
    tile.map.return %r : f32
  }
  tile.map ins(%d, %rstd, %w, %b : memref<?x768xf32>, memref<?x1xf32>, memref<768xf16>, memref<768xf16>) outs(%y : memref<?x768xf16>) {
  ^bb0(%v: f32, %r: f32, %wv: f16, %bv: f16):
    %wf = arith.extf %wv : f16 to f32
    %bf = arith.extf %bv : f16 to f32
    %n = arith.mulf %v, %r : f32
    %s1 = arith.mulf %n, %wf : f32
    %o = arith.addf %s1, %bf : f32
    %t = arith.truncf %o : f32 to f16
    tile.map.return %t : f16
  }
}
