// GPU test kernel: out[j*M + i] = in[i*N + j] for i < M, j < N, 32x32 tiles.
// The load is contiguous along j and the store along i, so layout
// assignment gives them different orders and a tile.convert_layout moves
// the tile through shared memory between them.
// num_warps = 4, grid (cdiv(M, 32), cdiv(N, 32), 1).
tile.func @transpose_kernel(%in: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                            %M: i32, %N: i32) attributes {tile.num_warps = 4 : i32} {
  %c32 = arith.constant 32 : i32
  %pm = tile.program_id 0 : i32
  %pn = tile.program_id 1 : i32
  %m0 = arith.muli %pm, %c32 : i32
  %n0 = arith.muli %pn, %c32 : i32
  %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %m0v = tile.splat %m0 : i32 -> tensor<32xi32>
  %n0v = tile.splat %n0 : i32 -> tensor<32xi32>
  %offm = arith.addi %m0v, %r : tensor<32xi32>
  %offn = arith.addi %n0v, %r : tensor<32xi32>
  %rows = tile.expand_dims %offm {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cols = tile.expand_dims %offn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %Nv = tile.splat %N : i32 -> tensor<32x1xi32>
  %Mv = tile.splat %M : i32 -> tensor<1x32xi32>
  // in offsets: i*N + j; out offsets: j*M + i
  %rin = arith.muli %rows, %Nv : tensor<32x1xi32>
  %cout = arith.muli %cols, %Mv : tensor<1x32xi32>
  %rinb = tile.broadcast %rin : tensor<32x1xi32> -> tensor<32x32xi32>
  %colsb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
  %coutb = tile.broadcast %cout : tensor<1x32xi32> -> tensor<32x32xi32>
  %rowsb = tile.broadcast %rows : tensor<32x1xi32> -> tensor<32x32xi32>
  %oin = arith.addi %rinb, %colsb : tensor<32x32xi32>
  %oout = arith.addi %coutb, %rowsb : tensor<32x32xi32>
  %Mr = tile.splat %M : i32 -> tensor<32x1xi32>
  %Nc = tile.splat %N : i32 -> tensor<1x32xi32>
  %mm = arith.cmpi slt, %rows, %Mr : tensor<32x1xi32>
  %mn = arith.cmpi slt, %cols, %Nc : tensor<1x32xi32>
  %mmb = tile.broadcast %mm : tensor<32x1xi1> -> tensor<32x32xi1>
  %mnb = tile.broadcast %mn : tensor<1x32xi1> -> tensor<32x32xi1>
  %mask = arith.andi %mmb, %mnb : tensor<32x32xi1>
  %ib = tile.splat %in : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %ip = tile.addptr %ib, %oin : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %v = tile.load %ip, %mask : tensor<32x32x!tile.ptr<f32>>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %op = tile.addptr %ob, %oout : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  tile.store %op, %v, %mask : tensor<32x32x!tile.ptr<f32>>
  tile.return
}
