// GPU test kernel (test/GPU/GpuTests.cpp): out[i] = x[i] + y[i], i < n.
// BLOCK = 1024, num_warps = 4, grid (cdiv(n, 1024), 1, 1).
tile.func @add_kernel_ragged(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
              %n: i32)
    attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %startv = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %startv, %range : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<1024xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %yb = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask : tensor<1024x!tile.ptr<f32>>
  %yv = tile.load %yp, %mask : tensor<1024x!tile.ptr<f32>>
  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %sum, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}
