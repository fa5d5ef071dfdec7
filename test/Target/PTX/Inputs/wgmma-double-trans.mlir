// The wgmma operand is a transposed view of a transposed view (hand-written
// from the --emit=layout output of a b.T kernel): views chain, the
// descriptor is the outer view's, the address the buffer's.
#blocked = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#shared = #tile.nvmma_shared<{swizzle = 128, transposed = false}>
#shared1 = #tile.nvmma_shared<{swizzle = 128, transposed = true}>
#slice = #tile.slice<{dim = 0, parent = #blocked}>
#slice1 = #tile.slice<{dim = 1, parent = #blocked}>
module {
  tile.func @k_dot(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.tensordesc = tensor<64x64xf16>}, %arg1: i32, %arg2: i32, %arg3: i64 {tile.divisibility = 8 : i32}, %arg4: !tile.ptr<f16> {tile.divisibility = 16 : i32, tile.tensordesc = tensor<64x64xf16>}, %arg5: i32, %arg6: i32, %arg7: i64 {tile.divisibility = 8 : i32}, %arg8: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.tensordesc = tensor<64x64xf32>}, %arg9: i32, %arg10: i32, %arg11: i64 {tile.divisibility = 4 : i32}, %arg12: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<64> : tensor<64xi64, #slice>
    %c64_i64 = arith.constant 64 : i64
    %c3_i32 = arith.constant 3 : i32
    %cst_0 = arith.constant dense<0> : tensor<64xi64, #slice>
    %cst_1 = arith.constant dense<0> : tensor<64xi64, #slice1>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tile.local_alloc : () -> !tile.memdesc<3x64x64xf16, #shared, mutable>
    %1 = tile.local_alloc : () -> !tile.memdesc<3x64x64xf16, #shared, mutable>
    %2 = arith.cmpi sgt, %arg12, %c0_i32 : i32
    %3 = tile.splat %arg0 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %4 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice>
    %5 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #slice1>
    %6 = arith.extsi %4 : tensor<64xi32, #slice> to tensor<64xi64, #slice>
    %7 = arith.extsi %5 : tensor<64xi32, #slice1> to tensor<64xi64, #slice1>
    %8 = tile.splat %arg3 : i64 -> tensor<64xi64, #slice1>
    %9 = arith.muli %7, %8 : tensor<64xi64, #slice1>
    %10 = tile.expand_dims %9 {axis = 1 : i32} : tensor<64xi64, #slice1> -> tensor<64x1xi64, #blocked>
    %11 = tile.broadcast %10 : tensor<64x1xi64, #blocked> -> tensor<64x64xi64, #blocked>
    %12 = tile.addptr %3, %11 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
    %13 = arith.extsi %arg1 : i32 to i64
    %14 = tile.splat %13 : i64 -> tensor<64xi64, #slice1>
    %15 = arith.cmpi sge, %7, %cst_1 : tensor<64xi64, #slice1>
    %16 = arith.cmpi slt, %7, %14 : tensor<64xi64, #slice1>
    %17 = arith.andi %15, %16 : tensor<64xi1, #slice1>
    %18 = tile.expand_dims %17 {axis = 1 : i32} : tensor<64xi1, #slice1> -> tensor<64x1xi1, #blocked>
    %19 = tile.broadcast %18 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %20 = tile.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
    %21 = tile.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %22 = tile.addptr %12, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %23 = arith.extsi %arg2 : i32 to i64
    %24 = tile.splat %23 : i64 -> tensor<64xi64, #slice>
    %25 = arith.cmpi sge, %6, %cst_0 : tensor<64xi64, #slice>
    %26 = arith.cmpi slt, %6, %24 : tensor<64xi64, #slice>
    %27 = arith.andi %25, %26 : tensor<64xi1, #slice>
    %28 = tile.expand_dims %27 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
    %29 = tile.broadcast %28 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %30 = arith.andi %19, %29 : tensor<64x64xi1, #blocked>
    %31 = tile.memdesc_index %0[%c0_i32] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
    %32 = tile.splat %2 : i1 -> tensor<64x64xi1, #blocked>
    %33 = arith.andi %30, %32 : tensor<64x64xi1, #blocked>
    tile.async_copy %22, %31, %33 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
    %34 = tile.splat %arg4 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %35 = tile.splat %arg7 : i64 -> tensor<64xi64, #slice1>
    %36 = arith.muli %7, %35 : tensor<64xi64, #slice1>
    %37 = tile.expand_dims %36 {axis = 1 : i32} : tensor<64xi64, #slice1> -> tensor<64x1xi64, #blocked>
    %38 = tile.broadcast %37 : tensor<64x1xi64, #blocked> -> tensor<64x64xi64, #blocked>
    %39 = tile.addptr %34, %38 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
    %40 = arith.extsi %arg5 : i32 to i64
    %41 = tile.splat %40 : i64 -> tensor<64xi64, #slice1>
    %42 = arith.cmpi slt, %7, %41 : tensor<64xi64, #slice1>
    %43 = arith.andi %15, %42 : tensor<64xi1, #slice1>
    %44 = tile.expand_dims %43 {axis = 1 : i32} : tensor<64xi1, #slice1> -> tensor<64x1xi1, #blocked>
    %45 = tile.broadcast %44 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %46 = tile.addptr %39, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %47 = arith.extsi %arg6 : i32 to i64
    %48 = tile.splat %47 : i64 -> tensor<64xi64, #slice>
    %49 = arith.cmpi slt, %6, %48 : tensor<64xi64, #slice>
    %50 = arith.andi %25, %49 : tensor<64xi1, #slice>
    %51 = tile.expand_dims %50 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
    %52 = tile.broadcast %51 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %53 = arith.andi %45, %52 : tensor<64x64xi1, #blocked>
    %54 = tile.memdesc_index %1[%c0_i32] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
    %55 = arith.andi %53, %32 : tensor<64x64xi1, #blocked>
    tile.async_copy %46, %54, %55 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
    tile.async_commit_group
    %56 = arith.cmpi sgt, %arg12, %c64_i32 : i32
    %57 = tile.addptr %arg0, %c64_i64 : !tile.ptr<f16>, i64
    %58 = tile.splat %57 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %59 = tile.addptr %58, %11 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
    %60 = tile.addptr %59, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %61 = arith.addi %6, %cst : tensor<64xi64, #slice>
    %62 = arith.cmpi sge, %61, %cst_0 : tensor<64xi64, #slice>
    %63 = arith.cmpi slt, %61, %24 : tensor<64xi64, #slice>
    %64 = arith.andi %62, %63 : tensor<64xi1, #slice>
    %65 = tile.expand_dims %64 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
    %66 = tile.broadcast %65 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %67 = arith.andi %19, %66 : tensor<64x64xi1, #blocked>
    %68 = tile.memdesc_index %0[%c1_i32] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
    %69 = tile.splat %56 : i1 -> tensor<64x64xi1, #blocked>
    %70 = arith.andi %67, %69 : tensor<64x64xi1, #blocked>
    tile.async_copy %60, %68, %70 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
    %71 = tile.addptr %arg4, %c64_i64 : !tile.ptr<f16>, i64
    %72 = tile.splat %71 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %73 = tile.addptr %72, %38 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
    %74 = tile.addptr %73, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %75 = arith.cmpi slt, %61, %48 : tensor<64xi64, #slice>
    %76 = arith.andi %62, %75 : tensor<64xi1, #slice>
    %77 = tile.expand_dims %76 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
    %78 = tile.broadcast %77 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %79 = arith.andi %45, %78 : tensor<64x64xi1, #blocked>
    %80 = tile.memdesc_index %1[%c1_i32] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
    %81 = arith.andi %79, %69 : tensor<64x64xi1, #blocked>
    tile.async_copy %74, %80, %81 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
    tile.async_commit_group
    %82 = tile.warpgroup_dot_wait %cst_2 {pendings = 0 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>
    %83 = scf.for %arg13 = %c0_i32 to %arg12 step %c64_i32 iter_args(%arg14 = %82) -> (tensor<64x64xf32, #mma>)  : i32 {
      %106 = arith.subi %arg12, %c128_i32 : i32
      %107 = arith.cmpi slt, %arg13, %106 : i32
      tile.async_wait {num = 1 : i32}
      %108 = arith.divsi %arg13, %c64_i32 : i32
      %109 = arith.remsi %108, %c3_i32 : i32
      %110 = tile.memdesc_index %0[%109] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
      %111 = tile.memdesc_index %1[%109] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
      %112 = tile.memdesc_trans %111 {order = array<i32: 1, 0>} : !tile.memdesc<64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared1, mutable>
      %t112 = tile.memdesc_trans %112 {order = array<i32: 1, 0>} : !tile.memdesc<64x64xf16, #shared1, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
      %113 = tile.warpgroup_dot %110, %t112, %arg14 {is_async} : !tile.memdesc<64x64xf16, #shared, mutable>, !tile.memdesc<64x64xf16, #shared, mutable>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
      tile.warpgroup_dot_wait  {pendings = 1 : i32} : () -> ()
      %114 = arith.addi %arg13, %c128_i32 : i32
      %115 = arith.extsi %114 : i32 to i64
      %116 = tile.addptr %arg0, %115 : !tile.ptr<f16>, i64
      %117 = tile.splat %116 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
      %118 = tile.addptr %117, %11 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
      %119 = tile.addptr %118, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %120 = tile.splat %115 : i64 -> tensor<64xi64, #slice>
      %121 = arith.addi %120, %6 : tensor<64xi64, #slice>
      %122 = arith.cmpi sge, %121, %cst_0 : tensor<64xi64, #slice>
      %123 = arith.cmpi slt, %121, %24 : tensor<64xi64, #slice>
      %124 = arith.andi %122, %123 : tensor<64xi1, #slice>
      %125 = tile.expand_dims %124 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
      %126 = tile.broadcast %125 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %127 = arith.andi %19, %126 : tensor<64x64xi1, #blocked>
      %128 = arith.divsi %114, %c64_i32 : i32
      %129 = arith.remsi %128, %c3_i32 : i32
      %130 = tile.memdesc_index %0[%129] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
      %131 = tile.splat %107 : i1 -> tensor<64x64xi1, #blocked>
      %132 = arith.andi %127, %131 : tensor<64x64xi1, #blocked>
      tile.async_copy %119, %130, %132 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
      %133 = tile.addptr %arg4, %115 : !tile.ptr<f16>, i64
      %134 = tile.splat %133 : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #blocked>
      %135 = tile.addptr %134, %38 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
      %136 = tile.addptr %135, %21 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %137 = arith.cmpi slt, %121, %48 : tensor<64xi64, #slice>
      %138 = arith.andi %122, %137 : tensor<64xi1, #slice>
      %139 = tile.expand_dims %138 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
      %140 = tile.broadcast %139 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %141 = arith.andi %45, %140 : tensor<64x64xi1, #blocked>
      %142 = tile.memdesc_index %1[%129] : !tile.memdesc<3x64x64xf16, #shared, mutable> -> !tile.memdesc<64x64xf16, #shared, mutable>
      %143 = arith.andi %141, %131 : tensor<64x64xi1, #blocked>
      tile.async_copy %136, %142, %143 : tensor<64x64x!tile.ptr<f16>, #blocked>, !tile.memdesc<64x64xf16, #shared, mutable>
      tile.async_commit_group
      scf.yield %113 : tensor<64x64xf32, #mma>
    }
    tile.async_wait {num = 0 : i32}
    %84 = tile.warpgroup_dot_wait %83 {pendings = 0 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>
    %85 = tile.convert_layout %84 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %86 = tile.splat %arg8 : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked>
    %87 = tile.splat %arg11 : i64 -> tensor<64xi64, #slice1>
    %88 = arith.muli %7, %87 : tensor<64xi64, #slice1>
    %89 = tile.expand_dims %88 {axis = 1 : i32} : tensor<64xi64, #slice1> -> tensor<64x1xi64, #blocked>
    %90 = tile.broadcast %89 : tensor<64x1xi64, #blocked> -> tensor<64x64xi64, #blocked>
    %91 = tile.addptr %86, %90 : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi64, #blocked>
    %92 = arith.extsi %arg9 : i32 to i64
    %93 = tile.splat %92 : i64 -> tensor<64xi64, #slice1>
    %94 = arith.cmpi slt, %7, %93 : tensor<64xi64, #slice1>
    %95 = arith.andi %15, %94 : tensor<64xi1, #slice1>
    %96 = tile.expand_dims %95 {axis = 1 : i32} : tensor<64xi1, #slice1> -> tensor<64x1xi1, #blocked>
    %97 = tile.broadcast %96 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %98 = tile.addptr %91, %21 : tensor<64x64x!tile.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %99 = arith.extsi %arg10 : i32 to i64
    %100 = tile.splat %99 : i64 -> tensor<64xi64, #slice>
    %101 = arith.cmpi slt, %6, %100 : tensor<64xi64, #slice>
    %102 = arith.andi %25, %101 : tensor<64xi1, #slice>
    %103 = tile.expand_dims %102 {axis = 0 : i32} : tensor<64xi1, #slice> -> tensor<1x64xi1, #blocked>
    %104 = tile.broadcast %103 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %105 = arith.andi %97, %104 : tensor<64x64xi1, #blocked>
    tile.store %98, %85, %105 : tensor<64x64x!tile.ptr<f32>, #blocked>
    tile.return
  }
}

