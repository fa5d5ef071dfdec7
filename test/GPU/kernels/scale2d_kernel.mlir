// GPU test kernel: out[i*so + j] = in[i*si + j] * 2 for i < M, j < N.
// BLOCK_M = 16, BLOCK_N = 64, num_warps = 4,
// grid (cdiv(M, 16), cdiv(N, 64), 1). Masks on both dimensions.
tile.func @scale2d_kernel(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                          %M: i32, %N: i32, %si: i32, %so: i32)
    attributes {tile.num_warps = 4 : i32} {
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %pm = tile.program_id 0 : i32
  %pn = tile.program_id 1 : i32
  %m0 = arith.muli %pm, %c16 : i32
  %n0 = arith.muli %pn, %c64 : i32
  %rm = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rn = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m0v = tile.splat %m0 : i32 -> tensor<16xi32>
  %n0v = tile.splat %n0 : i32 -> tensor<64xi32>
  %offm = arith.addi %m0v, %rm : tensor<16xi32>
  %offn = arith.addi %n0v, %rn : tensor<64xi32>
  // rows: offm[:, None]; cols: offn[None, :]
  %rows = tile.expand_dims %offm {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tile.expand_dims %offn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %siv = tile.splat %si : i32 -> tensor<16x1xi32>
  %sov = tile.splat %so : i32 -> tensor<16x1xi32>
  %rin = arith.muli %rows, %siv : tensor<16x1xi32>
  %rout = arith.muli %rows, %sov : tensor<16x1xi32>
  %rinb = tile.broadcast %rin : tensor<16x1xi32> -> tensor<16x64xi32>
  %routb = tile.broadcast %rout : tensor<16x1xi32> -> tensor<16x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %oin = arith.addi %rinb, %colsb : tensor<16x64xi32>
  %oout = arith.addi %routb, %colsb : tensor<16x64xi32>
  %Mv = tile.splat %M : i32 -> tensor<16x1xi32>
  %Nv = tile.splat %N : i32 -> tensor<1x64xi32>
  %mm = arith.cmpi slt, %rows, %Mv : tensor<16x1xi32>
  %mn = arith.cmpi slt, %cols, %Nv : tensor<1x64xi32>
  %mmb = tile.broadcast %mm : tensor<16x1xi1> -> tensor<16x64xi1>
  %mnb = tile.broadcast %mn : tensor<1x64xi1> -> tensor<16x64xi1>
  %mask = arith.andi %mmb, %mnb : tensor<16x64xi1>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %oin : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %v = tile.load %ip, %mask : tensor<16x64x!tile.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<16x64xf32>
  %r = arith.mulf %v, %two : tensor<16x64xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %op = tile.addptr %ob, %oout : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  tile.store %op, %r, %mask : tensor<16x64x!tile.ptr<f32>>
  tile.return
}
