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
// implicit-GEMM kernel (as in conv_group_norm_mish.mlir), height and width
// scalars of the graph.
//
// Fused (tilec examples/graphs/unet_block.mlir --fusion-remarks): four
// kernels -- GroupNorm1+SiLU (one program per (sample, group)), conv1,
// GroupNorm2 with the embedding add and SiLU, conv2 with the residual add
// at its stores (epilogue) -- against fifteen unfused.

tile.func @conv3x3_nchw_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<32xf16>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x32xf16>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x32xf16>
  %cst_2 = arith.constant dense<0> : tensor<128x32xi32>
  %cst_3 = arith.constant dense<1> : tensor<128x32xi32>
  %cst_4 = arith.constant dense<3> : tensor<32xi32>
  %cst_5 = arith.constant dense<9> : tensor<32xi32>
  %c0_i32 = arith.constant 0 : i32
  %cst_6 = arith.constant dense<0.000000e+00> : tensor<128x32xf32>
  %c32_i32 = arith.constant 32 : i32
  %c128_i32 = arith.constant 128 : i32
  %c9_i32 = arith.constant 9 : i32
  %0 = tile.program_id 0 : i32
  %1 = tile.program_id 1 : i32
  %2 = arith.muli %arg6, %arg7 : i32
  %3 = arith.muli %arg5, %c9_i32 : i32
  %4 = arith.muli %0, %c128_i32 : i32
  %5 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %6 = tile.splat %4 : i32 -> tensor<128xi32>
  %7 = arith.addi %6, %5 : tensor<128xi32>
  %8 = arith.muli %1, %c32_i32 : i32
  %9 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %10 = tile.splat %8 : i32 -> tensor<32xi32>
  %11 = arith.addi %10, %9 : tensor<32xi32>
  %12 = tile.splat %2 : i32 -> tensor<128xi32>
  %13 = arith.divsi %7, %12 : tensor<128xi32>
  %14 = arith.remsi %7, %12 : tensor<128xi32>
  %15 = tile.splat %arg7 : i32 -> tensor<128xi32>
  %16 = arith.divsi %14, %15 : tensor<128xi32>
  %17 = arith.remsi %14, %15 : tensor<128xi32>
  %18 = arith.muli %arg4, %2 : i32
  %19 = tile.splat %18 : i32 -> tensor<128xi32>
  %20 = arith.cmpi slt, %7, %19 : tensor<128xi32>
  %21 = tile.splat %arg8 : i32 -> tensor<32xi32>
  %22 = arith.cmpi slt, %11, %21 : tensor<32xi32>
  %23 = scf.for %arg9 = %c0_i32 to %3 step %c32_i32 iter_args(%arg10 = %cst_6) -> (tensor<128x32xf32>)  : i32 {
    %51 = tile.splat %arg9 : i32 -> tensor<32xi32>
    %52 = arith.addi %51, %9 : tensor<32xi32>
    %53 = arith.divsi %52, %cst_5 : tensor<32xi32>
    %54 = arith.remsi %52, %cst_5 : tensor<32xi32>
    %55 = arith.divsi %54, %cst_4 : tensor<32xi32>
    %56 = arith.remsi %54, %cst_4 : tensor<32xi32>
    %57 = tile.expand_dims %16 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %58 = tile.expand_dims %55 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %59 = tile.broadcast %57 : tensor<128x1xi32> -> tensor<128x32xi32>
    %60 = tile.broadcast %58 : tensor<1x32xi32> -> tensor<128x32xi32>
    %61 = arith.addi %59, %60 : tensor<128x32xi32>
    %62 = arith.subi %61, %cst_3 : tensor<128x32xi32>
    %63 = tile.expand_dims %17 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %64 = tile.expand_dims %56 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %65 = tile.broadcast %63 : tensor<128x1xi32> -> tensor<128x32xi32>
    %66 = tile.broadcast %64 : tensor<1x32xi32> -> tensor<128x32xi32>
    %67 = arith.addi %65, %66 : tensor<128x32xi32>
    %68 = arith.subi %67, %cst_3 : tensor<128x32xi32>
    %69 = tile.expand_dims %20 {axis = 1 : i32} : tensor<128xi1> -> tensor<128x1xi1>
    %70 = tile.expand_dims %52 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %71 = tile.splat %3 : i32 -> tensor<1x32xi32>
    %72 = arith.cmpi slt, %70, %71 : tensor<1x32xi32>
    %73 = tile.broadcast %69 : tensor<128x1xi1> -> tensor<128x32xi1>
    %74 = tile.broadcast %72 : tensor<1x32xi1> -> tensor<128x32xi1>
    %75 = arith.andi %73, %74 : tensor<128x32xi1>
    %76 = arith.cmpi sge, %62, %cst_2 : tensor<128x32xi32>
    %77 = arith.andi %75, %76 : tensor<128x32xi1>
    %78 = tile.splat %arg6 : i32 -> tensor<128x32xi32>
    %79 = arith.cmpi slt, %62, %78 : tensor<128x32xi32>
    %80 = arith.andi %77, %79 : tensor<128x32xi1>
    %81 = arith.cmpi sge, %68, %cst_2 : tensor<128x32xi32>
    %82 = arith.andi %80, %81 : tensor<128x32xi1>
    %83 = tile.splat %arg7 : i32 -> tensor<128x32xi32>
    %84 = arith.cmpi slt, %68, %83 : tensor<128x32xi32>
    %85 = arith.andi %82, %84 : tensor<128x32xi1>
    %86 = tile.expand_dims %13 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %87 = tile.splat %arg5 : i32 -> tensor<128x1xi32>
    %88 = arith.muli %86, %87 : tensor<128x1xi32>
    %89 = tile.expand_dims %53 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %90 = tile.broadcast %88 : tensor<128x1xi32> -> tensor<128x32xi32>
    %91 = tile.broadcast %89 : tensor<1x32xi32> -> tensor<128x32xi32>
    %92 = arith.addi %90, %91 : tensor<128x32xi32>
    %93 = arith.muli %92, %78 : tensor<128x32xi32>
    %94 = arith.addi %93, %62 : tensor<128x32xi32>
    %95 = arith.muli %94, %83 : tensor<128x32xi32>
    %96 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<128x32x!tile.ptr<f16>>
    %97 = tile.addptr %96, %95 : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %98 = tile.addptr %97, %68 : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
    %99 = tile.load %98, %85, %cst_1 : tensor<128x32x!tile.ptr<f16>>
    %100 = tile.expand_dims %52 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %101 = tile.splat %3 : i32 -> tensor<32x1xi32>
    %102 = arith.cmpi slt, %100, %101 : tensor<32x1xi32>
    %103 = tile.expand_dims %22 {axis = 0 : i32} : tensor<32xi1> -> tensor<1x32xi1>
    %104 = tile.broadcast %102 : tensor<32x1xi1> -> tensor<32x32xi1>
    %105 = tile.broadcast %103 : tensor<1x32xi1> -> tensor<32x32xi1>
    %106 = arith.andi %104, %105 : tensor<32x32xi1>
    %107 = tile.expand_dims %11 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %108 = arith.muli %107, %71 : tensor<1x32xi32>
    %109 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<1x32x!tile.ptr<f16>>
    %110 = tile.addptr %109, %108 : tensor<1x32x!tile.ptr<f16>>, tensor<1x32xi32>
    %111 = tile.broadcast %110 : tensor<1x32x!tile.ptr<f16>> -> tensor<32x32x!tile.ptr<f16>>
    %112 = tile.broadcast %100 : tensor<32x1xi32> -> tensor<32x32xi32>
    %113 = tile.addptr %111, %112 : tensor<32x32x!tile.ptr<f16>>, tensor<32x32xi32>
    %114 = tile.load %113, %106, %cst_0 : tensor<32x32x!tile.ptr<f16>>
    %115 = tile.dot %99, %114, %cst_6 : tensor<128x32xf16>, tensor<32x32xf16>, tensor<128x32xf32> -> tensor<128x32xf32>
    %116 = arith.addf %arg10, %115 : tensor<128x32xf32>
    scf.yield %116 : tensor<128x32xf32>
  }
  %24 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<32x!tile.ptr<f16>>
  %25 = tile.addptr %24, %11 : tensor<32x!tile.ptr<f16>>, tensor<32xi32>
  %26 = tile.load %25, %22, %cst : tensor<32x!tile.ptr<f16>>
  %27 = arith.extf %26 : tensor<32xf16> to tensor<32xf32>
  %28 = tile.expand_dims %27 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
  %29 = tile.broadcast %28 : tensor<1x32xf32> -> tensor<128x32xf32>
  %30 = arith.addf %23, %29 : tensor<128x32xf32>
  %31 = tile.expand_dims %13 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %32 = tile.splat %arg8 : i32 -> tensor<128x1xi32>
  %33 = arith.muli %31, %32 : tensor<128x1xi32>
  %34 = tile.expand_dims %11 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %35 = tile.broadcast %33 : tensor<128x1xi32> -> tensor<128x32xi32>
  %36 = tile.broadcast %34 : tensor<1x32xi32> -> tensor<128x32xi32>
  %37 = arith.addi %35, %36 : tensor<128x32xi32>
  %38 = tile.splat %2 : i32 -> tensor<128x32xi32>
  %39 = arith.muli %37, %38 : tensor<128x32xi32>
  %40 = tile.expand_dims %14 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %41 = tile.broadcast %40 : tensor<128x1xi32> -> tensor<128x32xi32>
  %42 = arith.addi %39, %41 : tensor<128x32xi32>
  %43 = tile.splat %arg3 : !tile.ptr<f16> -> tensor<128x32x!tile.ptr<f16>>
  %44 = tile.addptr %43, %42 : tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi32>
  %45 = arith.truncf %30 : tensor<128x32xf32> to tensor<128x32xf16>
  %46 = tile.expand_dims %20 {axis = 1 : i32} : tensor<128xi1> -> tensor<128x1xi1>
  %47 = tile.expand_dims %22 {axis = 0 : i32} : tensor<32xi1> -> tensor<1x32xi1>
  %48 = tile.broadcast %46 : tensor<128x1xi1> -> tensor<128x32xi1>
  %49 = tile.broadcast %47 : tensor<1x32xi1> -> tensor<128x32xi1>
  %50 = arith.andi %48, %49 : tensor<128x32xi1>
  tile.store %44, %45, %50 : tensor<128x32x!tile.ptr<f16>>
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
  %oneIdx = arith.constant 1 : index
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
  %pixels = arith.muli %n, %hw : index
  %grid = arith.ceildivui %pixels, %c128 : index
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
  tile.launch @conv3x3_nchw_kernel grid(%grid, %oneIdx) (%a1, %w1, %b1, %c1, %ni, %c32i, %height, %width, %c32i)
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
  tile.launch @conv3x3_nchw_kernel grid(%grid, %oneIdx) (%a2, %w2, %b2, %c2, %ni, %c32i, %height, %width, %c32i)
      : memref<?x8x4x?xf16>, memref<32x32x3x3xf16>, memref<32xf16>, memref<?x8x4x?xf16>, i32, i32, i32, i32, i32

  tile.map ins(%c2, %x : memref<?x8x4x?xf16>, memref<?x8x4x?xf16>)
           outs(%y : memref<?x8x4x?xf16>) {
  ^bb0(%hv: f16, %xv: f16):
    %s = arith.addf %hv, %xv : f16
    tile.map.return %s : f16
  }
}
