// The diffusion U-Net's residual block (Ho et al. 2020, as in the
// `diffusers` ResnetBlock2D with 32 channels, 8 groups) as one operator
// graph, NCHW f16, C = 32 in and out:
//
//   h = conv1(silu(group_norm1(x)))
//   h = conv2(silu(group_norm2(h + emb)))     emb: the time embedding
//   y = x + h                                       per (sample, channel)
//
// Buffers are [N, 8 groups, 4 channels, H*W] views of NCHW (x itself is
// passed that way); the convolutions are test/GPU/kernels/py/conv2d.py's
// conv3x3_nchw_taps_kernel (as in conv_group_norm_mish.mlir), height and width
// scalars of the graph.
//
// Fused (tilec examples/graphs/unet_block.mlir --fusion-remarks): four
// kernels -- GroupNorm1+SiLU (one program per (sample, group)), conv1,
// GroupNorm2 with the embedding add and SiLU, conv2 with the residual add
// at its stores (epilogue) -- against fifteen unfused.

tile.func @conv3x3_nchw_taps_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<32xf16>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf16>
  %cst_1 = arith.constant dense<9> : tensor<1x32xi32>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<32x128xf16>
  %cst_3 = arith.constant dense<0> : tensor<128xi32>
  %c31_i32 = arith.constant 31 : i32
  %c3_i32 = arith.constant 3 : i32
  %c0_i32 = arith.constant 0 : i32
  %cst_4 = arith.constant dense<0.000000e+00> : tensor<32x128xf32>
  %c128_i32 = arith.constant 128 : i32
  %c9_i32 = arith.constant 9 : i32
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  %0 = tile.program_id 0 : i32
  %1 = tile.program_id 1 : i32
  %2 = arith.addi %arg8, %c31_i32 : i32
  %3 = arith.divsi %2, %c32_i32 : i32
  %4 = arith.divsi %1, %3 : i32
  %5 = arith.muli %arg6, %arg7 : i32
  %6 = arith.muli %arg5, %c9_i32 : i32
  %7 = arith.muli %0, %c128_i32 : i32
  %8 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %9 = tile.splat %7 : i32 -> tensor<128xi32>
  %10 = arith.addi %9, %8 : tensor<128xi32>
  %11 = arith.remsi %1, %3 : i32
  %12 = arith.muli %11, %c32_i32 : i32
  %13 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %14 = tile.splat %12 : i32 -> tensor<32xi32>
  %15 = arith.addi %14, %13 : tensor<32xi32>
  %16 = tile.splat %arg7 : i32 -> tensor<128xi32>
  %17 = arith.divsi %10, %16 : tensor<128xi32>
  %18 = arith.remsi %10, %16 : tensor<128xi32>
  %19 = tile.splat %5 : i32 -> tensor<128xi32>
  %20 = arith.cmpi slt, %10, %19 : tensor<128xi32>
  %21 = tile.splat %arg8 : i32 -> tensor<32xi32>
  %22 = arith.cmpi slt, %15, %21 : tensor<32xi32>
  %23 = arith.muli %4, %arg5 : i32
  %24 = arith.muli %23, %5 : i32
  %25 = tile.addptr %arg0, %24 : !tile.ptr<f16>, i32
  %26 = arith.addi %arg5, %c31_i32 : i32
  %27 = arith.divsi %26, %c32_i32 : i32
  %28 = arith.muli %27, %c9_i32 : i32
  %29 = scf.for %arg9 = %c0_i32 to %28 step %c1_i32 iter_args(%arg10 = %cst_4) -> (tensor<32x128xf32>)  : i32 {
    %55 = arith.remsi %arg9, %c9_i32 : i32
    %56 = arith.divsi %arg9, %c9_i32 : i32
    %57 = arith.muli %56, %c32_i32 : i32
    %58 = tile.splat %57 : i32 -> tensor<32xi32>
    %59 = arith.addi %58, %13 : tensor<32xi32>
    %60 = arith.divsi %55, %c3_i32 : i32
    %61 = arith.subi %60, %c1_i32 : i32
    %62 = arith.remsi %55, %c3_i32 : i32
    %63 = arith.subi %62, %c1_i32 : i32
    %64 = tile.splat %61 : i32 -> tensor<128xi32>
    %65 = arith.addi %17, %64 : tensor<128xi32>
    %66 = tile.splat %63 : i32 -> tensor<128xi32>
    %67 = arith.addi %18, %66 : tensor<128xi32>
    %68 = arith.cmpi sge, %65, %cst_3 : tensor<128xi32>
    %69 = arith.andi %20, %68 : tensor<128xi1>
    %70 = tile.splat %arg6 : i32 -> tensor<128xi32>
    %71 = arith.cmpi slt, %65, %70 : tensor<128xi32>
    %72 = arith.andi %69, %71 : tensor<128xi1>
    %73 = arith.cmpi sge, %67, %cst_3 : tensor<128xi32>
    %74 = arith.andi %72, %73 : tensor<128xi1>
    %75 = arith.cmpi slt, %67, %16 : tensor<128xi32>
    %76 = arith.andi %74, %75 : tensor<128xi1>
    %77 = tile.splat %arg5 : i32 -> tensor<32xi32>
    %78 = arith.cmpi slt, %59, %77 : tensor<32xi32>
    %79 = tile.expand_dims %59 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %80 = tile.splat %5 : i32 -> tensor<32x1xi32>
    %81 = arith.muli %79, %80 : tensor<32x1xi32>
    %82 = tile.splat %25 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
    %83 = tile.addptr %82, %81 : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %84 = arith.muli %61, %arg7 : i32
    %85 = tile.splat %84 : i32 -> tensor<128xi32>
    %86 = arith.addi %10, %85 : tensor<128xi32>
    %87 = arith.addi %86, %66 : tensor<128xi32>
    %88 = tile.expand_dims %87 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %89 = tile.broadcast %83 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x128x!tile.ptr<f16>>
    %90 = tile.broadcast %88 : tensor<1x128xi32> -> tensor<32x128xi32>
    %91 = tile.addptr %89, %90 : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
    %92 = tile.expand_dims %78 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
    %93 = tile.expand_dims %76 {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
    %94 = tile.broadcast %92 : tensor<32x1xi1> -> tensor<32x128xi1>
    %95 = tile.broadcast %93 : tensor<1x128xi1> -> tensor<32x128xi1>
    %96 = arith.andi %94, %95 : tensor<32x128xi1>
    %97 = tile.load %91, %96, %cst_2 : tensor<32x128x!tile.ptr<f16>>
    %98 = tile.expand_dims %15 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %99 = tile.splat %6 : i32 -> tensor<32x1xi32>
    %100 = arith.muli %98, %99 : tensor<32x1xi32>
    %101 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<32x1x!tile.ptr<f16>>
    %102 = tile.addptr %101, %100 : tensor<32x1x!tile.ptr<f16>>, tensor<32x1xi32>
    %103 = tile.expand_dims %59 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %104 = arith.muli %103, %cst_1 : tensor<1x32xi32>
    %105 = tile.broadcast %102 : tensor<32x1x!tile.ptr<f16>> -> tensor<32x32x!tile.ptr<f16>>
    %106 = tile.broadcast %104 : tensor<1x32xi32> -> tensor<32x32xi32>
    %107 = tile.addptr %105, %106 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    %108 = tile.splat %55 : i32 -> tensor<32x32xi32>
    %109 = tile.addptr %107, %108 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    %110 = tile.expand_dims %22 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
    %111 = tile.expand_dims %78 {axis = 0 : i32} : tensor<32xi1> -> tensor<1x32xi1>
    %112 = tile.broadcast %110 : tensor<32x1xi1> -> tensor<32x32xi1>
    %113 = tile.broadcast %111 : tensor<1x32xi1> -> tensor<32x32xi1>
    %114 = arith.andi %112, %113 : tensor<32x32xi1>
    %115 = tile.load %109, %114, %cst_0 : tensor<32x32x!tile.ptr<f16>>
    %116 = tile.dot %115, %97, %cst_4 : tensor<32x32xf16>, tensor<32x128xf16>, tensor<32x128xf32> -> tensor<32x128xf32>
    %117 = arith.addf %arg10, %116 : tensor<32x128xf32>
    scf.yield %117 : tensor<32x128xf32>
  }
  %30 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %31 = tile.addptr %30, %15 : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %32 = tile.load %31, %22, %cst : tensor<32x!tile.ptr<f16>>
  %33 = arith.extf %32 : tensor<32xf16> to tensor<32xf32>
  %34 = tile.expand_dims %33 {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %35 = tile.broadcast %34 : tensor<32x1xf32> -> tensor<32x128xf32>
  %36 = arith.addf %29, %35 : tensor<32x128xf32>
  %37 = arith.muli %4, %arg8 : i32
  %38 = tile.expand_dims %15 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %39 = tile.splat %37 : i32 -> tensor<32x1xi32>
  %40 = arith.addi %39, %38 : tensor<32x1xi32>
  %41 = tile.splat %5 : i32 -> tensor<32x1xi32>
  %42 = arith.muli %40, %41 : tensor<32x1xi32>
  %43 = tile.expand_dims %10 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %44 = tile.broadcast %42 : tensor<32x1xi32> -> tensor<32x128xi32>
  %45 = tile.broadcast %43 : tensor<1x128xi32> -> tensor<32x128xi32>
  %46 = arith.addi %44, %45 : tensor<32x128xi32>
  %47 = tile.splat %arg3 : !tile.ptr<f16> -> tensor<32x128x!tile.ptr<f16>>
  %48 = tile.addptr %47, %46 : tensor<32x128x!tile.ptr<f16>>, tensor<32x128xi32>
  %49 = arith.truncf %36 : tensor<32x128xf32> to tensor<32x128xf16>
  %50 = tile.expand_dims %22 {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
  %51 = tile.expand_dims %20 {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
  %52 = tile.broadcast %50 : tensor<32x1xi1> -> tensor<32x128xi1>
  %53 = tile.broadcast %51 : tensor<1x128xi1> -> tensor<32x128xi1>
  %54 = arith.andi %52, %53 : tensor<32x128xi1>
  tile.store %48, %49, %54 : tensor<32x128x!tile.ptr<f16>>
  tile.return
}

tile.graph @unet_block(
    %x: memref<?x8x4x?xf16> {tile.divisibility = 16 : i32},
    %emb: memref<?x8x4x1xf16>,
    %n1gamma: memref<8x4x1xf16>, %n1beta: memref<8x4x1xf16>,
    %w1: memref<32x32x3x3xf16> {tile.divisibility = 16 : i32},
    %b1: memref<32xf16> {tile.divisibility = 16 : i32},
    %n2gamma: memref<8x4x1xf16>, %n2beta: memref<8x4x1xf16>,
    %w2: memref<32x32x3x3xf16> {tile.divisibility = 16 : i32},
    %b2: memref<32xf16> {tile.divisibility = 16 : i32},
    %y: memref<?x8x4x?xf16> {tile.divisibility = 16 : i32},
    %height: i32, %width: i32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?x8x4x?xf16>
  %hw = memref.dim %x, %c3 : memref<?x8x4x?xf16>
  // H * W must be the buffers' last size.
  %h64 = arith.extsi %height : i32 to i64
  %w64 = arith.extsi %width : i32 to i64
  %hw64 = arith.muli %h64, %w64 : i64
  %hwi = arith.index_cast %hw : index to i64
  %ok = arith.cmpi eq, %hw64, %hwi : i64
  tile.check %ok, "unet_block: height * width differs from dimension 3 of x"
  %count = arith.muli %hw, %c4 : index
  %count64 = arith.index_cast %count : index to i64
  %grid = arith.ceildivui %hw, %c128 : index
  %ni = arith.index_cast %n : index to i32
  %c32i = arith.constant 32 : i32

  %n1xf = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%x : memref<?x8x4x?xf16>) outs(%n1xf : memref<?x8x4x?xf32>) {
  ^bb0(%v: f16):
    %x32 = arith.extf %v : f16 to f32
    tile.map.return %x32 : f32
  }
  %n1sum = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%n1xf : memref<?x8x4x?xf32>) outs(%n1sum : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %n1d = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%n1xf, %n1sum, %count64 : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64)
           outs(%n1d : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32, %t: f32, %ci: i64):
    %c = arith.sitofp %ci : i64 to f32
    %mean = arith.divf %t, %c : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %n1d2 = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%n1d : memref<?x8x4x?xf32>) outs(%n1d2 : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %n1var = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%n1d2 : memref<?x8x4x?xf32>) outs(%n1var : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %a1 = tile.alloc(%n, %hw) : memref<?x8x4x?xf16>
  tile.map ins(%n1d, %n1var, %count64, %n1gamma, %n1beta
               : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64,
                 memref<8x4x1xf16>, memref<8x4x1xf16>)
           outs(%a1 : memref<?x8x4x?xf16>) {
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
    // silu(a) = a / (1 + exp(-a))
    %na = arith.negf %a : f32
    %ex = math.exp %na : f32
    %den = arith.addf %ex, %one : f32
    %sl = arith.divf %a, %den : f32
    %h = arith.truncf %sl : f32 to f16
    tile.map.return %h : f16
  }

  %c1 = tile.alloc(%n, %hw) : memref<?x8x4x?xf16>
  tile.launch @conv3x3_nchw_taps_kernel grid(%grid, %n) (%a1, %w1, %b1, %c1, %ni, %c32i, %height, %width, %c32i)
      : memref<?x8x4x?xf16>, memref<32x32x3x3xf16>, memref<32xf16>, memref<?x8x4x?xf16>, i32, i32, i32, i32, i32

  %n2xf = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%c1, %emb : memref<?x8x4x?xf16>, memref<?x8x4x1xf16>)
           outs(%n2xf : memref<?x8x4x?xf32>) {
  ^bb0(%v: f16, %e: f16):
    %s = arith.addf %v, %e : f16
    %x32 = arith.extf %s : f16 to f32
    tile.map.return %x32 : f32
  }
  %n2sum = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%n2xf : memref<?x8x4x?xf32>) outs(%n2sum : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %n2d = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%n2xf, %n2sum, %count64 : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64)
           outs(%n2d : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32, %t: f32, %ci: i64):
    %c = arith.sitofp %ci : i64 to f32
    %mean = arith.divf %t, %c : f32
    %r = arith.subf %v, %mean : f32
    tile.map.return %r : f32
  }
  %n2d2 = tile.alloc(%n, %hw) : memref<?x8x4x?xf32>
  tile.map ins(%n2d : memref<?x8x4x?xf32>) outs(%n2d2 : memref<?x8x4x?xf32>) {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.map.return %r : f32
  }
  %n2var = tile.alloc(%n) : memref<?x8x1x1xf32>
  tile.row_reduce ins(%n2d2 : memref<?x8x4x?xf32>) outs(%n2var : memref<?x8x1x1xf32>)
                  init(0.0 : f32) {
  ^bb0(%a: f32, %v: f32):
    %r = arith.addf %a, %v : f32
    tile.map.return %r : f32
  }
  %a2 = tile.alloc(%n, %hw) : memref<?x8x4x?xf16>
  tile.map ins(%n2d, %n2var, %count64, %n2gamma, %n2beta
               : memref<?x8x4x?xf32>, memref<?x8x1x1xf32>, i64,
                 memref<8x4x1xf16>, memref<8x4x1xf16>)
           outs(%a2 : memref<?x8x4x?xf16>) {
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
    // silu(a) = a / (1 + exp(-a))
    %na = arith.negf %a : f32
    %ex = math.exp %na : f32
    %den = arith.addf %ex, %one : f32
    %sl = arith.divf %a, %den : f32
    %h = arith.truncf %sl : f32 to f16
    tile.map.return %h : f16
  }

  %c2 = tile.alloc(%n, %hw) : memref<?x8x4x?xf16>
  tile.launch @conv3x3_nchw_taps_kernel grid(%grid, %n) (%a2, %w2, %b2, %c2, %ni, %c32i, %height, %width, %c32i)
      : memref<?x8x4x?xf16>, memref<32x32x3x3xf16>, memref<32xf16>, memref<?x8x4x?xf16>, i32, i32, i32, i32, i32

  tile.map ins(%c2, %x : memref<?x8x4x?xf16>, memref<?x8x4x?xf16>)
           outs(%y : memref<?x8x4x?xf16>) {
  ^bb0(%hv: f16, %xv: f16):
    %s = arith.addf %hv, %xv : f16
    tile.map.return %s : f16
  }
}
