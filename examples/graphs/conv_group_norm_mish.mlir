// Conv2d -> GroupNorm -> Mish, the diffusion U-Net block's first half, as
// an operator graph: Y = mish(group_norm(conv3x3(X, Wc) + bc) * gamma + beta)
// with X of shape [N, C_in, H, W] (NCHW f16), 32 output channels in 8
// groups of 4 (the GroupNorm sees the convolution's output as
// [N, 8, 4, H*W]), eps = 1e-5.
//
// The convolution is test/GPU/kernels/py/conv2d.py's
// conv3x3_nchw_taps_hoisted_kernel (an implicit GEMM on tensor cores:
// output channels x pixels, reducing over the 9 kernel taps and the input
// channels one tap and 32 channels at a time, so each x tile is rows of
// contiguous pixels; its offset tiles are computed once, each step adding
// a scalar) as tilec compiles it, printed by
//
//   tilec test/GPU/kernels/py/conv2d.py \
//     --kernel conv3x3_nchw_taps_hoisted_kernel \
//     --signature '*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32' \
//     -DBLOCK_CO=32 -DBLOCK_P=128 -DBLOCK_CI=32 --num-warps 4 \
//     --num-stages 3 --emit=tile
//
// (bench/bench_conv.py compares it, its other tiles, the same kernel
// without hoisted offsets and the GEMM-shaped conv3x3_nchw_kernel this
// example used first with cuDNN and Triton.)
//
// The GroupNorm and Mish are row reductions and maps (as in
// group_norm_mish.mlir): tile-fuse-kernels makes them one kernel with one
// program per (sample, group), which reads the convolution's f16 output
// three times and writes Y once -- two kernels in all. The convolution's
// epilogue does not take the f32 conversion: row groups form first.
//
//   tilec examples/graphs/conv_group_norm_mish.mlir --fusion-remarks -o c.ptx

tile.func @conv3x3_nchw_taps_hoisted_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<32xf16>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf16>
  %c288_i32 = arith.constant 288 : i32
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<32x128xf16>
  %cst_2 = arith.constant dense<0> : tensor<128xi32>
  %cst_3 = arith.constant dense<9> : tensor<1x32xi32>
  %c31_i32 = arith.constant 31 : i32
  %c3_i32 = arith.constant 3 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst_4 = arith.constant dense<0.000000e+00> : tensor<32x128xf32>
  %c9_i32 = arith.constant 9 : i32
  %c128_i32 = arith.constant 128 : i32
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  %0 = tile.program_id 0 : i32
  %1 = tile.program_id 1 : i32
  %2 = arith.addi %arg8, %c31_i32 : i32
  %3 = arith.divsi %2, %c32_i32 : i32
  %4 = arith.divsi %1, %3 : i32
  %5 = arith.muli %0, %c128_i32 : i32
  %6 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %7 = tile.splat %5 : i32 -> tensor<128xi32>
  %8 = arith.addi %7, %6 : tensor<128xi32>
  %9 = arith.remsi %1, %3 : i32
  %10 = arith.muli %9, %c32_i32 : i32
  %11 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %12 = tile.splat %10 : i32 -> tensor<32xi32>
  %13 = arith.addi %12, %11 : tensor<32xi32>
  %14 = tile.splat %arg7 : i32 -> tensor<128xi32>
  %15 = arith.divsi %8, %14 : tensor<128xi32>
  %16 = arith.remsi %8, %14 : tensor<128xi32>
  %17 = tile.splat %arg8 : i32 -> tensor<32xi32>
  %18 = arith.cmpi slt, %13, %17 : tensor<32xi32>
  %19 = arith.muli %arg6, %arg7 : i32
  %20 = tile.splat %19 : i32 -> tensor<128xi32>
  %21 = arith.cmpi slt, %8, %20 : tensor<128xi32>
  %22 = arith.muli %arg5, %c9_i32 : i32
  %23 = arith.muli %4, %arg5 : i32
  %24 = arith.muli %23, %19 : i32
  %25 = tile.addptr %arg0, %24 : !tile.ptr<f16>, i32
  %26 = tile.expand_dims %11 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %27 = tile.splat %19 : i32 -> tensor<32x1xi32>
  %28 = arith.muli %26, %27 : tensor<32x1xi32>
  %29 = tile.expand_dims %8 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %30 = tile.broadcast %28 : tensor<32x1xi32> -> tensor<32x128xi32>
  %31 = tile.broadcast %29 : tensor<1x128xi32> -> tensor<32x128xi32>
  %32 = arith.addi %30, %31 : tensor<32x128xi32>
  %33 = tile.expand_dims %13 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %34 = tile.splat %22 : i32 -> tensor<32x1xi32>
  %35 = arith.muli %33, %34 : tensor<32x1xi32>
  %36 = tile.expand_dims %11 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %37 = arith.muli %36, %cst_3 : tensor<1x32xi32>
  %38 = tile.broadcast %35 : tensor<32x1xi32> -> tensor<32x32xi32>
  %39 = tile.broadcast %37 : tensor<1x32xi32> -> tensor<32x32xi32>
  %40 = arith.addi %38, %39 : tensor<32x32xi32>
  %41 = arith.addi %arg5, %c31_i32 : i32
  %42 = arith.divsi %41, %c32_i32 : i32
  %43 = arith.muli %42, %c9_i32 : i32
  %44 = scf.for %arg9 = %c0_i32 to %43 step %c1_i32 iter_args(%arg10 = %cst_4) -> (tensor<32x128xf32>)  : i32 {
    %66 = arith.remsi %arg9, %c9_i32 : i32
    %67 = arith.divsi %arg9, %c9_i32 : i32
    %68 = arith.muli %67, %c32_i32 : i32
    %69 = arith.divsi %66, %c3_i32 : i32
    %70 = arith.subi %69, %c1_i32 : i32
    %71 = arith.remsi %66, %c3_i32 : i32
    %72 = arith.subi %71, %c1_i32 : i32
    %73 = tile.splat %70 : i32 -> tensor<128xi32>
    %74 = arith.addi %15, %73 : tensor<128xi32>
    %75 = tile.splat %72 : i32 -> tensor<128xi32>
    %76 = arith.addi %16, %75 : tensor<128xi32>
    %77 = arith.cmpi sge, %74, %cst_2 : tensor<128xi32>
    %78 = arith.andi %21, %77 : tensor<128xi1>
    %79 = tile.splat %arg6 : i32 -> tensor<128xi32>
    %80 = arith.cmpi slt, %74, %79 : tensor<128xi32>
    %81 = arith.andi %78, %80 : tensor<128xi1>
    %82 = arith.cmpi sge, %76, %cst_2 : tensor<128xi32>
    %83 = arith.andi %81, %82 : tensor<128xi1>
    %84 = arith.cmpi slt, %76, %14 : tensor<128xi32>
    %85 = arith.andi %83, %84 : tensor<128xi1>
    %86 = tile.splat %68 : i32 -> tensor<32xi32>
    %87 = arith.addi %86, %11 : tensor<32xi32>
    %88 = tile.splat %arg5 : i32 -> tensor<32xi32>
    %89 = arith.cmpi slt, %87, %88 : tensor<32xi32>
    %90 = arith.muli %68, %19 : i32
    %91 = arith.muli %70, %arg7 : i32
    %92 = arith.addi %90, %91 : i32
    %93 = arith.addi %92, %72 : i32
    %94 = tile.splat %93 : i32 -> tensor<32x128xi32>
    %95 = arith.addi %32, %94 : tensor<32x128xi32>
    %96 = tile.splat %25 : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
    %97 = tile.addptr %96, %95 : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %98 = tile.expand_dims %89 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
    %99 = tile.expand_dims %85 {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
    %100 = tile.broadcast %98 : tensor<32x1xi1> -> tensor<32x128xi1>
    %101 = tile.broadcast %99 : tensor<1x128xi1> -> tensor<32x128xi1>
    %102 = arith.andi %100, %101 : tensor<32x128xi1>
    %103 = tile.load %97, %102, %cst_1 : tensor<32x128x!tile.ptr<f16>>
    %104 = arith.muli %67, %c288_i32 : i32
    %105 = arith.addi %104, %66 : i32
    %106 = tile.splat %105 : i32 -> tensor<32x32xi32>
    %107 = arith.addi %40, %106 : tensor<32x32xi32>
    %108 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x32x!tile.ptr<f16>>
    %109 = tile.addptr %108, %107 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    %110 = tile.expand_dims %18 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
    %111 = tile.expand_dims %89 {axis = 0 : i32} : tensor<32xi1> -> tensor<1x32xi1>
    %112 = tile.broadcast %110 : tensor<32x1xi1> -> tensor<32x32xi1>
    %113 = tile.broadcast %111 : tensor<1x32xi1> -> tensor<32x32xi1>
    %114 = arith.andi %112, %113 : tensor<32x32xi1>
    %115 = tile.load %109, %114, %cst_0 : tensor<32x32x!tile.ptr<f16>>
    %116 = tile.dot %115, %103, %cst_4 : tensor<32x32xf16>, tensor<32x128xf16>, tensor<32x128xf32> -> tensor<32x128xf32>
    %117 = arith.addf %arg10, %116 : tensor<32x128xf32>
    scf.yield %117 : tensor<32x128xf32>
  }
  %45 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %46 = tile.addptr %45, %13 : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %47 = tile.load %46, %18, %cst : tensor<32x!tile.ptr<f16>>
  %48 = arith.extf %47 : tensor<32xf16> to tensor<32xf32>
  %49 = tile.expand_dims %48 {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %50 = tile.broadcast %49 : tensor<32x1xf32> -> tensor<32x128xf32>
  %51 = arith.addf %44, %50 : tensor<32x128xf32>
  %52 = arith.muli %4, %arg8 : i32
  %53 = tile.splat %52 : i32 -> tensor<32x1xi32>
  %54 = arith.addi %53, %33 : tensor<32x1xi32>
  %55 = arith.muli %54, %27 : tensor<32x1xi32>
  %56 = tile.broadcast %55 : tensor<32x1xi32> -> tensor<32x128xi32>
  %57 = arith.addi %56, %31 : tensor<32x128xi32>
  %58 = tile.splat %arg3 : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
  %59 = tile.addptr %58, %57 : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
  %60 = arith.truncf %51 : tensor<32x128xf32> to tensor<32x128xf16>
  %61 = tile.expand_dims %18 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
  %62 = tile.expand_dims %21 {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
  %63 = tile.broadcast %61 : tensor<32x1xi1> -> tensor<32x128xi1>
  %64 = tile.broadcast %62 : tensor<1x128xi1> -> tensor<32x128xi1>
  %65 = arith.andi %63, %64 : tensor<32x128xi1>
  tile.store %59, %60, %65 : tensor<32x128x!tile.ptr<f16>>
  tile.return
}

tile.graph @conv_group_norm_mish(
    %x: memref<?x?x?x?xf16> {tile.divisibility = 16 : i32},
    %wc: memref<32x?x3x3xf16> {tile.divisibility = 16 : i32},
    %bc: memref<32xf16> {tile.divisibility = 16 : i32},
    %gamma: memref<8x4x1xf16>, %beta: memref<8x4x1xf16>,
    %y: memref<?x8x4x?xf16> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf16>
  %cin = memref.dim %x, %c1 : memref<?x?x?x?xf16>
  %height = memref.dim %x, %c2 : memref<?x?x?x?xf16>
  %width = memref.dim %x, %c3 : memref<?x?x?x?xf16>
  %hw = arith.muli %height, %width : index
  // The weights' input channels are the input's.
  %wcin = memref.dim %wc, %c1 : memref<32x?x3x3xf16>
  %same = arith.cmpi eq, %wcin, %cin : index
  tile.check %same, "the convolution's weights: dimension 1 differs from the input's channels (dimension 1)"
  // The convolution: one program per 128 pixels of a sample (all 32
  // channels).
  %conv = tile.alloc(%n, %hw) : memref<?x8x4x?xf16>
  %grid = arith.ceildivui %hw, %c128 : index
  %ni = arith.index_cast %n : index to i32
  %cini = arith.index_cast %cin : index to i32
  %hi = arith.index_cast %height : index to i32
  %wi = arith.index_cast %width : index to i32
  %couti = arith.index_cast %c32 : index to i32
  tile.launch @conv3x3_nchw_taps_hoisted_kernel grid(%grid, %n) (%x, %wc, %bc, %conv, %ni, %cini, %hi, %wi, %couti)
      : memref<?x?x?x?xf16>, memref<32x?x3x3xf16>, memref<32xf16>, memref<?x8x4x?xf16>, i32, i32, i32, i32, i32
  // The number of elements in a group (the maps convert it to f32).
  %count = arith.muli %hw, %c4 : index
  %count64 = arith.index_cast %count : index to i64

  %xf = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%conv : memref<?x8x4x?xf16>) outs(%xf : memref<?x8x4x?xf32>) {
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
