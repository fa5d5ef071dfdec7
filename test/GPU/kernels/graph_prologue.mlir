// A graph for the GPU tests (GraphTests.cpp): a map scales x by alpha, then
// a kernel sums each row in a loop of masked loads with `other` = 1.0.
// tilec fuses the map into the kernel's loads (prologue).
tile.func @rowsum(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c128 = arith.constant 128 : i32
  %row = arith.muli %pid, %n : i32
  %xr = tile.addptr %x, %row : !tile.ptr<f32>, i32
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %acc = scf.for %k = %c0 to %n step %c128 iter_args(%a = %zero) -> (tensor<128xf32>) : i32 {
    %ks = tile.splat %k : i32 -> tensor<128xi32>
    %cols = arith.addi %ks, %r : tensor<128xi32>
    %ns = tile.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %cols, %ns : tensor<128xi32>
    %p = tile.splat %xr : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %pp = tile.addptr %p, %cols : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %v = tile.load %pp, %mask, %one {tile.eviction_policy = "evict_first"} : tensor<128x!tile.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %sum = "tile.reduce"(%acc) ({
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    tile.reduce.return %q : f32
  }) {axis = 0 : i32} : (tensor<128xf32>) -> f32
  %o = tile.addptr %out, %pid : !tile.ptr<f32>, i32
  tile.store %o, %sum : !tile.ptr<f32>
  tile.return
}

// The offset of each element: the row's offset plus the column, in i64.
tile.graph @prologue(%x: memref<?x?xf32>, %sums: memref<?xf32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %t = tile.alloc(%m, %n) : memref<?x?xf32>
  tile.map ins(%x, %alpha : memref<?x?xf32>, f32) outs(%t : memref<?x?xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.mulf %v, %a : f32
    tile.map.return %s : f32
  }
  %ni = arith.index_cast %n : index to i32
  tile.launch @rowsum grid(%m) (%t, %sums, %ni) : memref<?x?xf32>, memref<?xf32>, i32
}
