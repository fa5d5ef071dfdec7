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
// conv3x3_nchw_taps_hoisted_kernel (as in conv_group_norm_mish.mlir),
// height and width scalars of the graph.
//
// Fused (tilec examples/graphs/unet_block.mlir --fusion-remarks): four
// kernels -- GroupNorm1+SiLU (one program per (sample, group)), conv1,
// GroupNorm2 with the embedding add and SiLU, conv2 with the residual add
// at its stores (epilogue) -- against fifteen unfused.

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
  tile.launch @conv3x3_nchw_taps_hoisted_kernel grid(%grid, %n) (%a1, %w1, %b1, %c1, %ni, %c32i, %height, %width, %c32i)
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
  tile.launch @conv3x3_nchw_taps_hoisted_kernel grid(%grid, %n) (%a2, %w2, %b2, %c2, %ni, %c32i, %height, %width, %c32i)
      : memref<?x8x4x?xf16>, memref<32x32x3x3xf16>, memref<32xf16>, memref<?x8x4x?xf16>, i32, i32, i32, i32, i32

  tile.map ins(%c2, %x : memref<?x8x4x?xf16>, memref<?x8x4x?xf16>)
           outs(%y : memref<?x8x4x?xf16>) {
  ^bb0(%hv: f16, %xv: f16):
    %s = arith.addf %hv, %xv : f16
    tile.map.return %s : f16
  }
}
