// GPU test kernel: out[i] = x[i] + y[i] (wrapping i8 add) for i < n with
// 64-bit offsets, run past 2^31 elements: an i32 offset would wrap.
// BLOCK = 1024, num_warps = 4, grid (cdiv(n, 1024), 1, 1).
tile.func @add_i8_i64_kernel(%x: !tile.ptr<i8> {tile.divisibility = 16 : i32},
                             %y: !tile.ptr<i8> {tile.divisibility = 16 : i32},
                             %out: !tile.ptr<i8> {tile.divisibility = 16 : i32},
                             %n: i64) attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i64
  %pid = tile.program_id 0 : i32
  %pid64 = arith.extsi %pid : i32 to i64
  %start = arith.muli %pid64, %c1024 : i64
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %range64 = arith.extsi %range : tensor<1024xi32> to tensor<1024xi64>
  %startv = tile.splat %start : i64 -> tensor<1024xi64>
  %offs = arith.addi %startv, %range64 : tensor<1024xi64>
  %nv = tile.splat %n : i64 -> tensor<1024xi64>
  %mask = arith.cmpi slt, %offs, %nv : tensor<1024xi64>
  %xb = tile.splat %x : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %xp = tile.addptr %xb, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi64>
  %yb = tile.splat %y : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %yp = tile.addptr %yb, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi64>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<i8>>
  %yv = tile.load %yp, %mask : tensor<1024x!tile.ptr<i8>>
  %sum = arith.addi %xv, %yv : tensor<1024xi8>
  %ob = tile.splat %out : !tile.ptr<i8> -> tensor<1024x!tile.ptr<i8>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<i8>>, tensor<1024xi64>
  tile.store %op, %sum, %mask : tensor<1024x!tile.ptr<i8>>
  tile.return
}
