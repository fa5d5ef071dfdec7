// GPU test kernel: out[i] = float(a[i]) + float(b[i]) for fp16 a, b; i < n.
// BLOCK = 1024, num_warps = 4, grid (cdiv(n, 1024), 1, 1).
tile.func @cvt_kernel(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %n: i32) attributes {tile.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %startv = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %startv, %range : tensor<1024xi32>
  %nv = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %nv : tensor<1024xi32>
  %ab = tile.splat %a : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %ap = tile.addptr %ab, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %bb = tile.splat %b : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>>
  %bp = tile.addptr %bb, %offs : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %av = tile.load %ap, %mask : tensor<1024x!tile.ptr<f16>>
  %bv = tile.load %bp, %mask : tensor<1024x!tile.ptr<f16>>
  %a32 = arith.extf %av : tensor<1024xf16> to tensor<1024xf32>
  %b32 = arith.extf %bv : tensor<1024xf16> to tensor<1024xf32>
  %sum = arith.addf %a32, %b32 : tensor<1024xf32>
  %ob = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %ob, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %sum, %mask : tensor<1024x!tile.ptr<f32>>
  tile.return
}
