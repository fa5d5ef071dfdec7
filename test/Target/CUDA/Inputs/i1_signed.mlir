// out[i] = (x[i] > 3) slt (x[i] < 9) as i32: LLVM's signed order on i1
// (true is -1), so a true first operand and a false second give 1.
tile.func @i1_signed(%x: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                     %out: !tile.ptr<i32> {tile.divisibility = 16 : i32})
    attributes {tile.num_warps = 4 : i32} {
  %range = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xb = tile.splat %x : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>>
  %xp = tile.addptr %xb, %range : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<i32>>
  %c3 = arith.constant dense<3> : tensor<128xi32>
  %c9 = arith.constant dense<9> : tensor<128xi32>
  %a = arith.cmpi sgt, %v, %c3 : tensor<128xi32>
  %b = arith.cmpi slt, %v, %c9 : tensor<128xi32>
  %lt = arith.cmpi slt, %a, %b : tensor<128xi1>
  %r = arith.extui %lt : tensor<128xi1> to tensor<128xi32>
  %ob = tile.splat %out : !tile.ptr<i32> -> tensor<128x!tile.ptr<i32>>
  %op = tile.addptr %ob, %range : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
  tile.store %op, %r : tensor<128x!tile.ptr<i32>>
  tile.return
}
