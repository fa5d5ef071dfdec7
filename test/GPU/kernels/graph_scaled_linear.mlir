// A graph for the GPU tests (GraphTests.cpp): X scaled by s, then the MLP
// benchmark's GEMM (examples/graphs/linear_gelu.mlir's kernel) Y = (s X) W^T + b.
// tilec fuses the scale into the GEMM's K-loop loads of X (prologue, the
// offset carried beside the loop-carried pointers).
tile.func @linear_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: i32 {tile.divisibility = 16 : i32}, %arg5: i32 {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.equal_to = 1 : i32}, %arg9: i32 {tile.divisibility = 16 : i32}, %arg10: i32 {tile.equal_to = 1 : i32}, %arg11: i32 {tile.divisibility = 16 : i32}, %arg12: i32 {tile.equal_to = 1 : i32}) attributes {tile.num_stages = 3 : i32, tile.num_warps = 8 : i32} {
  %cst = arith.constant dense<0.000000e+00> : tensor<256xf16>
  %cst_0 = arith.constant dense<64> : tensor<64x256xi32>
  %cst_1 = arith.constant dense<64> : tensor<128x64xi32>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x256xf16>
  %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf16>
  %c63_i32 = arith.constant 63 : i32
  %c255_i32 = arith.constant 255 : i32
  %c127_i32 = arith.constant 127 : i32
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
  %c8_i32 = arith.constant 8 : i32
  %c256_i32 = arith.constant 256 : i32
  %c1_i32 = arith.constant 1 : i32
  %c128_i32 = arith.constant 128 : i32
  %0 = tile.program_id 0 : i32
  %1 = arith.addi %arg4, %c127_i32 : i32
  %2 = arith.divsi %1, %c128_i32 : i32
  %3 = arith.addi %arg5, %c255_i32 : i32
  %4 = arith.divsi %3, %c256_i32 : i32
  %5 = arith.muli %4, %c8_i32 : i32
  %6 = arith.divsi %0, %5 : i32
  %7 = arith.muli %6, %c8_i32 : i32
  %8 = arith.subi %2, %7 : i32
  %9 = arith.minsi %8, %c8_i32 : i32
  %10 = arith.remsi %0, %5 : i32
  %11 = arith.remsi %10, %9 : i32
  %12 = arith.addi %7, %11 : i32
  %13 = arith.divsi %10, %9 : i32
  %14 = arith.muli %12, %c128_i32 : i32
  %15 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %16 = tile.splat %14 : i32 -> tensor<128xi32>
  %17 = arith.addi %16, %15 : tensor<128xi32>
  %18 = arith.muli %13, %c256_i32 : i32
  %19 = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %20 = tile.splat %18 : i32 -> tensor<256xi32>
  %21 = arith.addi %20, %19 : tensor<256xi32>
  %22 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %23 = tile.expand_dims %17 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %24 = tile.splat %arg7 : i32 -> tensor<128x1xi32>
  %25 = arith.muli %23, %24 : tensor<128x1xi32>
  %26 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %27 = tile.addptr %26, %25 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %28 = tile.expand_dims %22 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %29 = tile.broadcast %27 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
  %30 = tile.broadcast %28 : tensor<1x64xi32> -> tensor<128x64xi32>
  %31 = tile.addptr %29, %30 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %32 = tile.expand_dims %22 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %33 = tile.splat %arg1 : !tile.ptr<f16> -> tensor<64x1x!tile.ptr<f16>>
  %34 = tile.addptr %33, %32 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %35 = tile.expand_dims %21 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %36 = tile.splat %arg9 : i32 -> tensor<1x256xi32>
  %37 = arith.muli %35, %36 : tensor<1x256xi32>
  %38 = tile.broadcast %34 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x256x!tile.ptr<f16>>
  %39 = tile.broadcast %37 : tensor<1x256xi32> -> tensor<64x256xi32>
  %40 = tile.addptr %38, %39 : tensor<64x256x!tile.ptr<f16>>, tensor<64x256xi32>
  %41 = arith.addi %arg6, %c63_i32 : i32
  %42 = arith.divsi %41, %c64_i32 : i32
  %43:3 = scf.for %arg13 = %c0_i32 to %42 step %c1_i32 iter_args(%arg14 = %cst_4, %arg15 = %40, %arg16 = %31) -> (tensor<128x256xf32>, tensor<64x256x!tile.ptr<f16>>, tensor<128x64x!tile.ptr<f16>>)  : i32 {
    %68 = arith.muli %arg13, %c64_i32 : i32
    %69 = arith.subi %arg6, %68 : i32
    %70 = tile.splat %arg4 : i32 -> tensor<128x1xi32>
    %71 = arith.cmpi slt, %23, %70 : tensor<128x1xi32>
    %72 = tile.splat %69 : i32 -> tensor<1x64xi32>
    %73 = arith.cmpi slt, %28, %72 : tensor<1x64xi32>
    %74 = tile.broadcast %71 : tensor<128x1xi1> -> tensor<128x64xi1>
    %75 = tile.broadcast %73 : tensor<1x64xi1> -> tensor<128x64xi1>
    %76 = arith.andi %74, %75 : tensor<128x64xi1>
    %77 = tile.load %arg16, %76, %cst_3 : tensor<128x64x!tile.ptr<f16>>
    %78 = tile.splat %69 : i32 -> tensor<64x1xi32>
    %79 = arith.cmpi slt, %32, %78 : tensor<64x1xi32>
    %80 = tile.splat %arg5 : i32 -> tensor<1x256xi32>
    %81 = arith.cmpi slt, %35, %80 : tensor<1x256xi32>
    %82 = tile.broadcast %79 : tensor<64x1xi1> -> tensor<64x256xi1>
    %83 = tile.broadcast %81 : tensor<1x256xi1> -> tensor<64x256xi1>
    %84 = arith.andi %82, %83 : tensor<64x256xi1>
    %85 = tile.load %arg15, %84, %cst_2 : tensor<64x256x!tile.ptr<f16>>
    %86 = tile.dot %77, %85, %arg14 : tensor<128x64xf16>, tensor<64x256xf16>, tensor<128x256xf32> -> tensor<128x256xf32>
    %87 = tile.addptr %arg16, %cst_1 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %88 = tile.addptr %arg15, %cst_0 : tensor<64x256x!tile.ptr<f16>>, tensor<64x256xi32>
    scf.yield %86, %88, %87 : tensor<128x256xf32>, tensor<64x256x!tile.ptr<f16>>, tensor<128x64x!tile.ptr<f16>>
  } {tile.num_stages = 3 : i32}
  %44 = tile.splat %arg2 : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %45 = tile.addptr %44, %21 : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %46 = tile.splat %arg5 : i32 -> tensor<256xi32>
  %47 = arith.cmpi slt, %21, %46 : tensor<256xi32>
  %48 = tile.load %45, %47, %cst : tensor<256x!tile.ptr<f16>>
  %49 = arith.extf %48 : tensor<256xf16> to tensor<256xf32>
  %50 = tile.expand_dims %49 {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
  %51 = tile.broadcast %50 : tensor<1x256xf32> -> tensor<128x256xf32>
  %52 = arith.addf %43#0, %51 : tensor<128x256xf32>
  %53 = tile.splat %arg11 : i32 -> tensor<128x1xi32>
  %54 = arith.muli %23, %53 : tensor<128x1xi32>
  %55 = tile.splat %arg3 : !tile.ptr<f16> -> tensor<128x1x!tile.ptr<f16>>
  %56 = tile.addptr %55, %54 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
  %57 = tile.broadcast %56 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x256x!tile.ptr<f16>>
  %58 = tile.broadcast %35 : tensor<1x256xi32> -> tensor<128x256xi32>
  %59 = tile.addptr %57, %58 : tensor<128x256x!tile.ptr<f16>>, tensor<128x256xi32>
  %60 = arith.truncf %52 : tensor<128x256xf32> to tensor<128x256xf16>
  %61 = tile.splat %arg4 : i32 -> tensor<128x1xi32>
  %62 = arith.cmpi slt, %23, %61 : tensor<128x1xi32>
  %63 = tile.splat %arg5 : i32 -> tensor<1x256xi32>
  %64 = arith.cmpi slt, %35, %63 : tensor<1x256xi32>
  %65 = tile.broadcast %62 : tensor<128x1xi1> -> tensor<128x256xi1>
  %66 = tile.broadcast %64 : tensor<1x256xi1> -> tensor<128x256xi1>
  %67 = arith.andi %65, %66 : tensor<128x256xi1>
  tile.store %59, %60, %67 : tensor<128x256x!tile.ptr<f16>>
  tile.return
}


tile.graph @scaled_linear(%x: memref<?x?xf16> {tile.divisibility = 16 : i32},
                        %w: memref<?x?xf16> {tile.divisibility = 16 : i32},
                        %b: memref<?xf16> {tile.divisibility = 16 : i32},
                        %y: memref<?x?xf16> {tile.divisibility = 16 : i32}, %s: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %k = memref.dim %x, %c1 : memref<?x?xf16>
  %n = memref.dim %w, %c0 : memref<?x?xf16>
  %xs = tile.alloc(%m, %k) : memref<?x?xf16>
  tile.map ins(%x, %s : memref<?x?xf16>, f16) outs(%xs : memref<?x?xf16>) {
  ^bb0(%v: f16, %a: f16):
    %r = arith.mulf %v, %a : f16
    tile.map.return %r : f16
  }
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %gm = arith.ceildivui %m, %c128 : index
  %gn = arith.ceildivui %n, %c256 : index
  %g = arith.muli %gm, %gn : index
  %mi = arith.index_cast %m : index to i32
  %ni = arith.index_cast %n : index to i32
  %ki = arith.index_cast %k : index to i32
  %one = arith.constant 1 : i32
  tile.launch @linear_kernel grid(%g) (%xs, %w, %b, %y, %mi, %ni, %ki, %ki, %one, %ki, %one, %ni, %one)
      : memref<?x?xf16>, memref<?x?xf16>, memref<?xf16>, memref<?x?xf16>, i32, i32, i32, i32, i32, i32, i32, i32, i32
}
